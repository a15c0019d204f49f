/* tumble physics: the character mover's record (engine-private). A mover is
 * not a body: the step never touches it, and it links to the ground it last
 * stood on by shape slot and generation, so a destroyed ground is simply
 * stale. */
#ifndef TB_MOVER_H
#define TB_MOVER_H

#include "core.h"

typedef struct tb_world tb_world;

typedef struct tb_mover {
	tb_mover_def def;           /* the settings; def.position is not kept: position is */
	tb_vec2 position;
	tb_vec2 ground_normal;      /* zero in the air */
	tb_vec2 ground_local;       /* the point it stood on, in its body's frame */
	tb_vec2 ground_point;       /* the same point, world, when the last move ended */
	int32_t ground_shape;       /* slot, or TB_NULL_INDEX */
	uint32_t ground_generation; /* of that slot when it was stood on */
	uint32_t generation;
	bool in_use, grounded;
} tb_mover;

TB_ARRAY_DECLARE(tb_mover_array, tb_mover)

/* The def's numbers as tb_create_mover checks them (a snapshot's movers too). */
tb_status tb_validate_mover_def(const tb_mover_def *def);
/* Destroys every mover (tb_world_clear). */
void tb_destroy_all_movers(tb_world *w);

#endif
