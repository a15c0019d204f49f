/* tumble physics: graph colouring of the contact constraints (engine-private).
 *
 * Contacts that share no awake body can be solved at the same time, so the
 * constraints are split each step into colours within which no two touch the
 * same awake body. The wide solver then runs up to eight constraints of one
 * colour at once. Static and sleeping bodies are never written by the solver, so they do
 * not count: a hundred boxes on the ground can all share one colour. */
#ifndef TB_CONSTRAINT_GRAPH_H
#define TB_CONSTRAINT_GRAPH_H

#include "contact_solver.h"

/* Greedy colouring needs fewer colours than two bodies have contacts, but keeping
 * the scalar sweep's order along a stack (see constraint_graph.c) wants more:
 * 64, one bit each in a body's mask. Big piles still fill every colour with
 * hundreds of constraints; a body touching 64 others (boxes created on one
 * spot) sends the rest of its contacts to the overflow list. */
#define TB_GRAPH_COLOR_COUNT 64
#define TB_OVERFLOW_COLOR TB_GRAPH_COLOR_COUNT

TB_ARRAY_DECLARE(tb_u64_array, uint64_t)

typedef struct tb_constraint_graph {
	tb_u64_array body_colors;      /* per state index: bit c set once colour c holds one of its contacts */
	tb_int_array constraint_colors;/* per constraint: its colour, TB_OVERFLOW_COLOR if none fits */
	tb_int_array order;            /* constraint indices by colour, overflow last, slot order within */
	/* colour c holds order[color_start[c] .. color_start[c + 1]); the overflow colour is last */
	int32_t color_start[TB_GRAPH_COLOR_COUNT + 2];
	/* the wide solver's blocks of eight: colour c owns blocks[block_start[c] .. block_start[c + 1]) */
	int32_t block_start[TB_GRAPH_COLOR_COUNT + 1];
	tb_contact_block_array blocks;
	tb_block_surface_array surfaces; /* the blocks' surfaces, for the blocks that have any */
} tb_constraint_graph;

/* The most blocks `constraints` constraints can need: a partly filled block at
 * most per colour. */
static inline int32_t tb_graph_block_bound(int32_t constraints)
{
	return constraints / TB_BLOCK_LANES + TB_GRAPH_COLOR_COUNT;
}

/* Colours w->constraints (after tb_prepare_contacts set their state indices)
 * for `awake_count` body states. Deterministic: greedy in slot order. The
 * arrays were reserved by the step (bodies and contacts), so this never allocates. */
void tb_color_constraints(tb_world *w, int32_t awake_count);
void tb_destroy_constraint_graph(tb_constraint_graph *g, tb_allocator *allocator);

#endif
