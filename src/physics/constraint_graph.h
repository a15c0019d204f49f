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
 * spot) sends the rest of its contacts to the overflow list. The pins
 * (solver.c) are coloured with the same masks and colours. */
#define TB_GRAPH_COLOR_COUNT 64
#define TB_OVERFLOW_COLOR TB_GRAPH_COLOR_COUNT
_Static_assert(TB_GRAPH_COLOR_COUNT <= 64, "one bit per colour in a uint64_t");

/* Which of its bodies' free colours a constraint takes. */
typedef enum tb_color_policy {
	/* the lowest: a joint grid packs into a few colours of full blocks */
	TB_COLOR_LOWEST,
	/* the lowest above every colour its bodies already use, if one is free,
	 * else the lowest: each body meets its constraints in slot order, as in
	 * the scalar sweep (constraint_graph.c) */
	TB_COLOR_ABOVE_USED,
} tb_color_policy;

/* The colour a constraint between states a and b (-1: immovable, which holds
 * no colour) takes, marked in both states' masks of the colours they hold
 * (`used`); TB_OVERFLOW_COLOR, marking nothing, when no colour is free.
 * Deterministic: the result depends only on the masks. */
static inline int tb_take_color(uint64_t *used, int32_t a, int32_t b, tb_color_policy policy)
{
	const uint64_t all = ~0ull >> (64 - TB_GRAPH_COLOR_COUNT);
	const uint64_t top = 1ull << (TB_GRAPH_COLOR_COUNT - 1);
	uint64_t taken = (a >= 0 ? used[a] : 0ull) | (b >= 0 ? used[b] : 0ull);
	uint64_t free_colors = ~taken & all;
	if (policy == TB_COLOR_ABOVE_USED && taken != 0 && taken < top) {
		/* taken < top: the highest colour in use is not the last, so the shift is below 64 */
		uint64_t above = ~0ull << (64 - __builtin_clzll(taken));
		if ((free_colors & above) != 0) free_colors &= above;
	}
	if (free_colors == 0) return TB_OVERFLOW_COLOR;
	int color = __builtin_ctzll(free_colors);
	if (a >= 0) used[a] |= 1ull << color;
	if (b >= 0) used[b] |= 1ull << color;
	return color;
}

/* Each colour's blocks of TB_BLOCK_LANES for counts[c] constraints of colour
 * c: colour c owns blocks block_start[c] .. block_start[c + 1], a partly filled
 * one last. Returns the number of blocks (block_start[TB_GRAPH_COLOR_COUNT]). */
static inline int32_t tb_color_blocks(const int32_t counts[TB_GRAPH_COLOR_COUNT],
                                      int32_t block_start[TB_GRAPH_COLOR_COUNT + 1])
{
	int32_t blocks = 0;
	for (int c = 0; c < TB_GRAPH_COLOR_COUNT; ++c) {
		block_start[c] = blocks;
		blocks += (counts[c] + TB_BLOCK_LANES - 1) / TB_BLOCK_LANES;
	}
	block_start[TB_GRAPH_COLOR_COUNT] = blocks;
	return blocks;
}

/* One contact constraint of the step, in slot order: which contact, its
 * bodies' states and where its numbers live while it is solved. */
typedef struct tb_constraint_ref {
	int32_t contact;
	int32_t body_a, body_b;   /* the contact's bodies (edges[0] and [1]) */
	int32_t state_a, state_b; /* -1: immovable this step */
	/* a coloured one: block * TB_BLOCK_LANES + lane; the overflow: -1 - its
	 * record in w->constraints (which is the ref's own index) */
	int32_t place;
} tb_constraint_ref;

TB_ARRAY_DECLARE(tb_constraint_ref_array, tb_constraint_ref)

typedef struct tb_constraint_graph {
	tb_constraint_ref_array refs;  /* the step's constraints, slot order */
	/* The narrow phase lists refs as it walks the active contacts, and they
	 * stand for the step when no contact became active meanwhile (a wake can
	 * make one behind its walk): refs_stamp is the world's contact_activations
	 * they hold for, refs_from_collide says there are such refs. */
	bool refs_from_collide;
	uint32_t refs_stamp;
	tb_u64_array body_colors;      /* per state index: bit c set once colour c holds one of its contacts */
	tb_int_array constraint_colors;/* per constraint: its colour, TB_OVERFLOW_COLOR if none fits */
	tb_int_array order;            /* the overflow's constraints (their refs), in slot order, for the scalar solver */
	tb_int_array lane_refs;        /* per block lane (block * TB_BLOCK_LANES + lane): its ref; tails unused */
	/* colour c holds color_start[c + 1] - color_start[c] constraints; the overflow colour is last */
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

/* Colours the step's constraints (g->refs, their contacts gathered by the
 * solver) for `awake_count` body states: sets each one's state indices and
 * place, and the blocks' ranges (w->graph.blocks.count; the blocks are filled
 * by tb_prepare_contacts). Deterministic: greedy in slot order, and a colour's
 * constraints fill its blocks in slot order. The arrays were reserved by the
 * step (bodies) and with the contact slots, so this never allocates. */
void tb_color_constraints(tb_world *w, int32_t awake_count);
void tb_destroy_constraint_graph(tb_constraint_graph *g, tb_allocator *allocator);

#endif
