/* tumble physics: what shape_cast.c offers the mover (engine-private). */
#ifndef TB_SHAPE_CAST_H
#define TB_SHAPE_CAST_H

#include "shape.h"

typedef struct tb_world tb_world;

/* tb_shape_cast stopping where the gap is `target` (m) instead of at contact. */
tb_cast_output tb_shape_cast_to(const tb_shape_proxy *a, tb_transform xfa, const tb_shape_proxy *b, tb_transform xfb,
                                tb_vec2 translation, float max_fraction, float target);

/* Whether shape s can be met by proxy b placed at xfb: always, but for chain
 * segments (only from their front) and one-way platforms (only from their up
 * side), which b must start apart from. */
bool tb_shape_faces(const tb_world *w, const tb_shape *s, const tb_shape_proxy *b, tb_transform xfb);

#endif
