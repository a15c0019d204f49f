/* tumble physics: what manifold.c offers the engine beyond collision.h
 * (engine-private). */
#ifndef TB_MANIFOLD_H
#define TB_MANIFOLD_H

#include "core.h"

/* tb_collide keeping the points closer than `speculative` (at least
 * TB_SPECULATIVE_DISTANCE) instead of closer than TB_SPECULATIVE_DISTANCE. */
tb_manifold tb_collide_speculative(const tb_geometry *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb,
                                   float speculative);
/* The same, written in place: the step's narrow phase makes each contact's
 * manifold where it lives (points past the count are left as they were). */
void tb_collide_speculative_into(tb_manifold *out, const tb_geometry *a, tb_transform xfa, const tb_geometry *b,
                                 tb_transform xfb, float speculative);

/* Whether a chain link ignores shape `b` for lying behind it (its one-sided
 * rule): the narrow phase remembers it, so a shape that came through from
 * behind gets no points while it is still in the link's reach. */
bool tb_chain_segment_behind(const tb_chain_segment *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb);

#endif
