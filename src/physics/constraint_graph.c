/* tumble physics: graph colouring of the contact constraints.
 *
 * Greedy in slot order: each constraint takes a colour that neither of its
 * awake bodies uses yet. One 64-bit mask per body makes that a couple of loads
 * and a count of zeros, O(n) for the step, and the result depends only on the
 * constraint order, which is already deterministic.
 *
 * Which free colour matters for stacking. Taking the lowest one splits a stack
 * into red-black halves, which propagate support up the stack far slower than
 * the scalar sweep did (a six-box stack springing back after losing a heavy box
 * lands its boxes 20 cm aside). So a constraint prefers a colour above every
 * colour its bodies already use: each body then meets its constraints in slot
 * order, exactly as in the scalar Gauss-Seidel sweep, and a small scene is
 * solved bit for bit as the scalar solver would. Chains longer than the colour
 * count (a pyramid a hundred rows high) take the lowest free colour instead.
 * (tb_take_color, TB_COLOR_ABOVE_USED; the pins use the same routine with the
 * lowest free colour.) */
#include "world.h"

void tb_color_constraints(tb_world *w, int32_t awake_count)
{
	tb_constraint_graph *g = &w->graph;
	int32_t n = g->refs.count;
	/* reserved by the step (bodies) and with the contact slots (constraints) */
	TB_ASSERT(awake_count <= g->body_colors.capacity && n <= g->constraint_colors.capacity && n <= g->order.capacity &&
	          n <= w->constraints.capacity);
	if (awake_count > 0) memset(g->body_colors.data, 0, (size_t)awake_count * sizeof *g->body_colors.data);

	int32_t counts[TB_GRAPH_COLOR_COUNT + 1];
	memset(counts, 0, sizeof counts);
	uint64_t *used = g->body_colors.data;
	const tb_body_sim *sims = w->sims.data;
	tb_constraint_ref *refs = g->refs.data;
	int32_t *colors = g->constraint_colors.data;
	for (int32_t k = 0; k < n; ++k) {
		tb_constraint_ref *ref = refs + k;
		int32_t a = sims[ref->body_a].state_index, b = sims[ref->body_b].state_index;
		ref->state_a = a;
		ref->state_b = b;
		int color = tb_take_color(used, a, b, TB_COLOR_ABOVE_USED);
		colors[k] = color;
		counts[color] += 1;
	}

	int32_t block_count = tb_color_blocks(counts, g->block_start);
	int32_t start = 0;
	for (int c = 0; c <= TB_GRAPH_COLOR_COUNT; ++c) {
		g->color_start[c] = start;
		start += counts[c];
	}
	g->color_start[TB_GRAPH_COLOR_COUNT + 1] = start;
	/* reserved with the contact slots (tb_graph_block_bound) */
	TB_ASSERT(block_count <= g->blocks.capacity && block_count * TB_BLOCK_LANES <= g->lane_refs.capacity);
	g->blocks.count = block_count;
	/* a colour's constraints fill its blocks lane by lane in slot order (the
	 * arrays in locals: the stores through them would reload them) */
	int32_t *order = g->order.data, *lane_refs = g->lane_refs.data;
	int32_t first_place[TB_GRAPH_COLOR_COUNT + 1];
	for (int c = 0; c < TB_GRAPH_COLOR_COUNT; ++c) first_place[c] = g->block_start[c] * TB_BLOCK_LANES;
	first_place[TB_OVERFLOW_COLOR] = 0;
	for (int32_t k = 0; k < n; ++k) {
		int32_t color = colors[k], i = first_place[color]++;
		if (color == TB_OVERFLOW_COLOR) {
			refs[k].place = -1 - k;
			order[i] = k;
		} else {
			refs[k].place = i;
			lane_refs[i] = k;
		}
	}
	int32_t overflow_count = first_place[TB_OVERFLOW_COLOR];
	g->constraint_colors.count = n;
	g->order.count = overflow_count;
	g->lane_refs.count = block_count * TB_BLOCK_LANES;
	w->constraints.count = n;
}

void tb_destroy_constraint_graph(tb_constraint_graph *g, tb_allocator *allocator)
{
	tb_constraint_ref_array_destroy(allocator, &g->refs);
	tb_u64_array_destroy(allocator, &g->body_colors);
	tb_int_array_destroy(allocator, &g->constraint_colors);
	tb_int_array_destroy(allocator, &g->order);
	tb_int_array_destroy(allocator, &g->lane_refs);
	tb_contact_block_array_destroy(allocator, &g->blocks);
	tb_block_surface_array_destroy(allocator, &g->surfaces);
	memset(g, 0, sizeof *g);
}
