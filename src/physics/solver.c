/* tumble physics: the step's solver stage.
 *
 *   gather awake bodies -> contiguous states
 *   colour the contacts (within a colour no two share an awake body), then
 *   prepare them straight into blocks of eight, and the joints
 *   per substep: fields, integrate velocities, warm start, solve (soft bias),
 *                integrate positions, relax (no bias, restitution)
 *   store impulses and hit events
 *   finalize transforms and broad-phase boxes, continuous collision for fast
 *   bodies, then islands and sleep.
 *
 * Every loop runs in slot order, so two runs of one script agree bit for bit. */
#include "world.h"


/* The next set bit at or after slot i in bits of `words` words; -1 when none.
 * Reading the word again on each call sees bits set since (a body woken, a
 * contact made active), as a walk over every slot would. */
static inline int32_t next_bit(const uint64_t *bits, int32_t words, int32_t i)
{
	int32_t k = i >> 6;
	if (k >= words) return -1;
	uint64_t word = bits[k] & (~0ull << (i & 63));
	while (word == 0) {
		if (++k >= words) return -1;
		word = bits[k];
	}
	return (k << 6) + __builtin_ctzll(word);
}

static void wake_joint_partners(tb_world *w)
{
	/* a sleeping body jointed to an awake one must move with it */
	const uint64_t *bits = w->active_joint_bits.data;
	int32_t words = w->active_joint_bits.count;
	for (int32_t j = next_bit(bits, words, 0); j >= 0; j = next_bit(bits, words, j + 1)) {
		tb_joint *jt = w->joints.data + j;
		tb_body *a = w->bodies.data + jt->body_a, *b = w->bodies.data + jt->body_b;
		bool aa = a->awake && tb_body_is_simulated(a), ab = b->awake && tb_body_is_simulated(b);
		if (aa && !ab && tb_body_is_simulated(b)) tb_wake_body(w, jt->body_b);
		if (ab && !aa && tb_body_is_simulated(a)) tb_wake_body(w, jt->body_a);
	}
}

static int32_t gather_awake_bodies(tb_world *w)
{
	/* only last step's awake bodies can hold a state index */
	for (int32_t k = 0; k < w->awake_bodies.count; ++k) w->sims.data[w->awake_bodies.data[k]].state_index = TB_NULL_INDEX;
	int32_t n = 0;
	const uint64_t *bits = w->awake_body_bits.data;
	int32_t words = w->awake_body_bits.count;
	for (int32_t i = next_bit(bits, words, 0); i >= 0; i = next_bit(bits, words, i + 1)) {
		tb_body_sim *s = w->sims.data + i;
		tb_body_state *st = w->states.data + n;
		st->linear_velocity = s->linear_velocity;
		st->angular_velocity = s->angular_velocity;
		st->flags = 0;
		st->dp = tb_vec2_zero;
		st->dq = tb_rot_identity;
		s->center0 = s->center;
		s->rotation0 = s->transform.q;
		s->is_fast = false;
		w->awake_bodies.data[n] = i;
		s->state_index = n++;
	}
	w->states.count = w->awake_bodies.count = n;
	return n;
}

/* The active contacts with points (touching, or speculative points a
 * kinematic body's motion brought in), in slot order, walked again; every
 * array here was reserved for all slots before the step began. Without a
 * branch on the count: each contact's load is a cache miss, and a branch on
 * it would wait for each in turn. The write always lands: count is at most
 * the contacts walked before this one, below the slots reserved. */
static int32_t walk_constraints(const tb_world *w, tb_constraint_ref *out)
{
	const uint64_t *bits = w->active_contact_bits.data;
	int32_t words = w->active_contact_bits.count;
	int32_t count = 0;
	for (int32_t ci = next_bit(bits, words, 0); ci >= 0; ci = next_bit(bits, words, ci + 1)) {
		const tb_contact *c = w->contacts.data + ci;
		out[count].contact = ci;
		out[count].body_a = c->edges[0].body;
		out[count].body_b = c->edges[1].body;
		count += c->manifold.point_count != 0;
	}
	return count;
}

static void gather_constraints(tb_world *w)
{
	/* The active contacts are those with a body that has a state index now.
	 * The narrow phase listed them as it walked, unless a contact became
	 * active since it began (then one may be behind its walk). */
	tb_constraint_graph *g = &w->graph;
	if (!g->refs_from_collide || g->refs_stamp != w->contact_activations) {
		g->refs.count = walk_constraints(w, g->refs.data);
	} else {
#ifdef TB_VALIDATE /* the list is the walk's, ref for ref */
		const uint64_t *cbits = w->active_contact_bits.data;
		int32_t cwords = w->active_contact_bits.count, n = 0;
		for (int32_t ci = next_bit(cbits, cwords, 0); ci >= 0; ci = next_bit(cbits, cwords, ci + 1)) {
			const tb_contact *c = w->contacts.data + ci;
			if (c->manifold.point_count == 0) continue;
			TB_ASSERT(n < g->refs.count);
			const tb_constraint_ref *r = g->refs.data + n++;
			TB_ASSERT(r->contact == ci && r->body_a == c->edges[0].body && r->body_b == c->edges[1].body);
		}
		TB_ASSERT(n == g->refs.count);
#endif
	}
	g->refs_from_collide = false;
	w->active_joints.count = 0;
	/* and the active joints, those of a body with a state index; a joint only
	 * sleeping bodies hold keeps the is_active its last active step gave it */
	const uint64_t *bits = w->active_joint_bits.data;
	int32_t words = w->active_joint_bits.count;
	for (int32_t j = next_bit(bits, words, 0); j >= 0; j = next_bit(bits, words, j + 1)) {
		tb_joint *jt = w->joints.data + j;
		const tb_body *a = w->bodies.data + jt->body_a, *b = w->bodies.data + jt->body_b;
		jt->is_active = a->enabled && b->enabled;
		if (!jt->is_active) continue;
		w->active_joints.data[w->active_joints.count++] = j;
	}
}

static void prepare_motions(tb_world *w, const tb_step_context *ctx, int32_t n)
{
	tb_vec2 g = w->def.gravity;
	float h = ctx->h;
	for (int32_t k = 0; k < n; ++k) {
		int32_t i = w->awake_bodies.data[k];
		const tb_body_sim *s = w->sims.data + i;
		tb_body_motion *m = w->motions.data + k;
		m->dynamic = w->bodies.data[i].type == TB_DYNAMIC_BODY;
		m->dv = tb_mul_sv(h, tb_mul_add(tb_mul_sv(s->inv_mass, s->force), s->gravity_scale, g));
		m->dw = h * s->inv_inertia * s->torque;
		m->linear_factor = 1.0f / (1.0f + h * s->linear_damping);
		m->angular_factor = 1.0f / (1.0f + h * s->angular_damping);
		m->inv_mass = s->inv_mass;
		m->inv_inertia = s->inv_inertia;
		m->center_offset = tb_rotate(s->transform.q, s->local_center);
		m->contact_count = w->bodies.data[i].contact_count;
	}
}

/* The pins go into blocks of up to eight that share no awake body, solved
 * side by side (joint_solver_lanes.h) before the other rows. A pin takes the
 * lowest colour neither of its bodies has yet (TB_COLOR_LOWEST), as v3
 * colours its joints: a grid packs into a few colours of full blocks. (The
 * contacts' policy, a colour above those its bodies have, keeps a chain's
 * sweep order but spreads a large joint grid over every colour in half-empty
 * blocks, which costs more time for no better sag, gaps or stretch.) A pin
 * that finds no colour (a body with TB_GRAPH_COLOR_COUNT pins) stays a row. */
static void prepare_pin_blocks(tb_world *w, int32_t awake_count)
{
	tb_joint_row *rows = w->joint_rows.data;
	int32_t count = w->joint_rows.count;
	int32_t *colors = w->pin_colors.data;
	uint64_t *used = w->graph.body_colors.data;
	/* reserved by the step (bodies) and with the joint slots; the contacts'
	 * colouring is done with the masks */
	TB_ASSERT(awake_count <= w->graph.body_colors.capacity && count <= w->pin_colors.capacity);
	if (awake_count > 0) memset(used, 0, (size_t)awake_count * sizeof *used);
	int32_t counts[TB_GRAPH_COLOR_COUNT];
	memset(counts, 0, sizeof counts);
	for (int32_t k = 0; k < count; ++k) {
		colors[k] = -1;
		if (rows[k].kind != TB_ROW_PIN) continue;
		int color = tb_take_color(used, rows[k].state_a, rows[k].state_b, TB_COLOR_LOWEST);
		if (color == TB_OVERFLOW_COLOR) continue;
		colors[k] = color;
		counts[color] += 1;
	}
	int32_t block_start[TB_GRAPH_COLOR_COUNT + 1];
	int32_t blocks = tb_color_blocks(counts, block_start);
	/* reserved with the joint slots */
	TB_ASSERT(blocks <= w->pin_blocks.capacity);
	w->pin_blocks.count = blocks;
	for (int c = 0; c < TB_GRAPH_COLOR_COUNT; ++c) {
		for (int32_t b = block_start[c]; b < block_start[c + 1]; ++b) {
			tb_pin_block_init(w->pin_blocks.data + b,
			                  tb_mini(TB_BLOCK_LANES, counts[c] - (b - block_start[c]) * TB_BLOCK_LANES));
		}
		counts[c] = 0;
	}
	for (int32_t k = 0; k < count; ++k) {
		int c = colors[k];
		if (c < 0) continue;
		int32_t place = block_start[c] * TB_BLOCK_LANES + counts[c]++;
		tb_pin_block_set_lane(w->pin_blocks.data + place / TB_BLOCK_LANES, place % TB_BLOCK_LANES, rows + k, k);
		tb_joint_row *row = rows + k;
		row->kind = TB_ROW_BLOCK;
	}
}

/* The pins' impulses back into their rows, for tb_joint_store_rows. */
static void store_pin_blocks(tb_world *w)
{
	for (int32_t b = 0; b < w->pin_blocks.count; ++b) {
		const tb_pin_block *blk = w->pin_blocks.data + b;
		for (int i = 0; i < blk->lane_count; ++i) {
			tb_joint_row *row = w->joint_rows.data + blk->row[i];
			row->pt.linear_impulse = tb_v2(blk->impulse_x[i], blk->impulse_y[i]);
		}
	}
}

static void prepare_joints(tb_world *w, tb_step_context *ctx, int32_t awake_count)
{
	int32_t count = w->active_joints.count;
	w->revolute_rows.count = 0;
	for (int32_t k = 0; k < count; ++k) {
		int32_t slot = w->active_joints.data[k];
		tb_joint_prepare(w->joints.data + slot, ctx);
		tb_joint_make_row(w->joints.data + slot, slot, w->joint_rows.data + k, w->revolute_rows.data,
		                  &w->revolute_rows.count, ctx);
	}
	w->joint_rows.count = count;
	prepare_pin_blocks(w, awake_count);
}

static void warm_start_joints(tb_world *w, tb_step_context *ctx)
{
	w->kernels->pin_warm_start(w->pin_blocks.data, w->pin_blocks.count, ctx->states, ctx);
	tb_joint_rows_warm_start(w->joints.data, w->joint_rows.data, w->revolute_rows.data, w->joint_rows.count, ctx);
}

static void solve_joints(tb_world *w, tb_step_context *ctx, bool use_bias)
{
	w->kernels->pin_solve(w->pin_blocks.data, w->pin_blocks.count, ctx->states, ctx, use_bias);
	tb_joint_rows_solve(w->joints.data, w->joint_rows.data, w->revolute_rows.data, w->joint_rows.count, ctx,
	                    use_bias);
}

/* ---- continuous collision ---- */

/* A shape's core for the touching sweep: the shape with every face moved in by
 * three quarters of its smallest extent. For a circle it is Box2D v3's
 * fallback, a disc of a quarter of the radius at the centre; a capsule keeps
 * its whole segment with a quarter of its radius; a polygon is inset face by
 * face, so a long thin box keeps a long thin core and the ends of a spinning
 * bar are held, not only its middle. A polygon whose inset would lose an edge
 * (a sliver) is scaled to a quarter about its centroid instead, which is
 * always inside it. */
static tb_shape_proxy continuous_core(const tb_shape *fast, const tb_shape_proxy *full)
{
	tb_shape_proxy core = *full;
	float inset = 0.75f * tb_shape_min_extent(fast);
	float from_radius = tb_minf(inset, core.radius);
	core.radius -= from_radius;
	inset -= from_radius;
	if (inset <= 0.0f || fast->geom.type != TB_SHAPE_POLYGON) return core;

	const tb_polygon *p = &fast->geom.polygon;
	int n = p->count;
	bool inside = true;
	for (int i = 0; i < n; ++i) {
		tb_vec2 n1 = p->normals[i == 0 ? n - 1 : i - 1], n2 = p->normals[i];
		/* the corner moves along its bisector so that both faces move by inset */
		float k = inset / (1.0f + tb_dot(n1, n2));
		core.points[i] = tb_sub(p->vertices[i], tb_mul_sv(k, tb_add(n1, n2)));
	}
	for (int i = 0; i < n && inside; ++i)
		for (int j = 0; j < n; ++j)
			if (tb_dot(p->normals[j], tb_sub(core.points[i], p->vertices[j])) > -0.5f * inset) {
				inside = false;
				break;
			}
	if (!inside) {
		tb_vec2 c = p->centroid;
		for (int i = 0; i < n; ++i) core.points[i] = tb_add(c, tb_mul_sv(0.25f, tb_sub(p->vertices[i], c)));
	}
	return core;
}

typedef struct continuous_ctx {
	tb_world *w;
	int32_t body;
	int32_t shape;
	tb_sweep sweep;
	tb_shape_proxy proxy;  /* of `shape`, made when the first candidate needs it */
	bool have_proxy;
	tb_shape_proxy core;   /* its core (continuous_core), made when a touching pair first needs it */
	bool have_core;
	float fraction;
	bool bullet;
} continuous_ctx;

/* The sweep of cc's shape against shape `other`; contact: the pair's, or
 * TB_NULL_INDEX to look it up. Each time of impact is searched over the
 * whole step and the earliest kept, so the result does not depend on the
 * order the shapes come in (a search up to the earliest so far ends on a
 * different bit of its tolerance): the tree's order and the contacts' give
 * the same bits. */
static void continuous_candidate(continuous_ctx *cc, int32_t other, int32_t contact)
{
	tb_world *w = cc->w;
	const tb_shape *fast = w->shapes.data + cc->shape, *o = w->shapes.data + other;
	if (o->body == cc->body || o->is_sensor || !o->enabled) return;
	if (!tb_should_shapes_collide(fast->filter, o->filter)) return;
	const tb_body *ob = w->bodies.data + o->body;
	const tb_body_sim *os = w->sims.data + o->body;
	if (ob->type == TB_DYNAMIC_BODY && (os->is_bullet || !cc->bullet)) return;
	if (!tb_should_bodies_collide(w, cc->body, o->body)) return;
	/* a pair that already had contact points this step was met by the
	 * solver's speculative constraint; sweeping the whole shape again would
	 * stall bodies sliding along walls, so only its centre is swept below */
	int32_t ci = contact != TB_NULL_INDEX ? contact : tb_pair_set_find(&w->broad_phase.pairs, cc->shape, other);
	bool touching = ci != TB_NULL_INDEX && w->contacts.data[ci].manifold.point_count > 0;

	if (o->geom.type == TB_SHAPE_CHAIN_SEGMENT) {
		/* one-sided: a body that starts behind the chain may pass through it */
		tb_transform xf = os->transform;
		tb_vec2 p1 = tb_transform_point(xf, o->geom.chain_segment.segment.point1);
		tb_vec2 p2 = tb_transform_point(xf, o->geom.chain_segment.segment.point2);
		tb_vec2 n = tb_normalize(tb_right_perp(tb_sub(p2, p1)));
		if (tb_dot(tb_sub(cc->sweep.c1, p1), n) < 0.0f) return;
	}

	if (!cc->have_proxy) {
		cc->proxy = tb_geometry_proxy(&fast->geom);
		cc->have_proxy = true;
	}
	tb_shape_proxy op = tb_geometry_proxy(&o->geom);
	if (tb_shape_is_one_way(o)) {
		/* a one-way platform stops only what starts apart from it on its up
		 * side, as its contacts decide when they first touch */
		tb_transform xf1 = {tb_sub(cc->sweep.c1, tb_rotate(cc->sweep.q1, cc->sweep.local_center)), cc->sweep.q1};
		tb_distance_output d = tb_shape_distance(&op, os->transform, &cc->proxy, xf1);
		if (d.distance <= 0.0f || !tb_one_way_holds(w, o, d.normal)) return;
	}
	/* the time of impact stops a slop short of overlap (TB_LINEAR_SLOP inside the
	 * rounded surfaces); inflating the other shape by two slops leaves a small gap
	 * instead, so next step meets a rigid speculative contact, not a soft overlap */
	op.radius += 2.0f * TB_LINEAR_SLOP;
	tb_sweep osw;
	osw.local_center = os->local_center;
	osw.c1 = os->center;
	osw.c2 = os->center;
	osw.q1 = os->transform.q;
	osw.q2 = os->transform.q;
	if (!touching) {
		tb_toi_output out = tb_time_of_impact(&cc->proxy, &cc->sweep, &op, &osw, 1.0f);
		/* a FAILED search (iterations ran out) still reports a fraction safe to stop at */
		if ((out.state == TB_TOI_HIT || out.state == TB_TOI_FAILED) && 0.0f < out.fraction && out.fraction < cc->fraction)
			cc->fraction = out.fraction;
		if (out.fraction > 0.0f) return;
	}
	/* Touching, or touching already at the start: the contact's points hold
	 * the surface, but a shape that turns about them can still carry the rest
	 * of itself through (a thin box hitting a wall with a corner at 180 m/s, a
	 * long one spinning onto thin ground). Sweep the shape's core instead: the
	 * body stops when its inner part would enter the other shape, never while
	 * it slides or rests. */
	if (!cc->have_core) {
		cc->core = continuous_core(fast, &cc->proxy);
		cc->have_core = true;
	}
	tb_toi_output out = tb_time_of_impact(&cc->core, &cc->sweep, &op, &osw, 1.0f);
	if (out.fraction <= 0.0f) {
		/* the core is in already (the shape was pushed deep): the centre, as
		 * a disc of a quarter of the smallest extent (Box2D v3's fallback),
		 * still must not pass */
		tb_vec2 centroid = tb_geometry_centroid(&fast->geom);
		tb_shape_proxy middle = tb_make_proxy(&centroid, 1, 0.25f * tb_shape_min_extent(fast));
		out = tb_time_of_impact(&middle, &cc->sweep, &op, &osw, 1.0f);
	}
	if ((out.state == TB_TOI_HIT || out.state == TB_TOI_FAILED) && 0.0f < out.fraction && out.fraction < cc->fraction)
		cc->fraction = out.fraction;
}

static bool continuous_callback(int32_t proxy_id, int32_t other, void *context)
{
	continuous_candidate(context, other, TB_NULL_INDEX);
	return true;
}

/* The immovable shapes a query of the immovable tree with `box` would meet,
 * from the body's contacts, when the shape's fat box holds `box`: every
 * immovable shape whose box overlaps the fat box has its contact with the
 * shape (made by the broad phase when the fat box was, or since, and kept
 * while the two overlap), so the same leaf test on those finds the same
 * shapes, with no walk of the tree and no search of the pair set. In the
 * contacts' order; a sweep keeps the earliest hit in any order. */
static void continuous_listed(continuous_ctx *cc, int32_t shape, tb_aabb box, uint64_t mask_bits)
{
	tb_world *w = cc->w;
	const tb_tree_node *nodes = w->broad_phase.trees[0].nodes;
	tb_body_edge_iter it = tb_body_contacts(w, cc->body);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) {
		if (w->sims.data[e.other].type != TB_STATIC_BODY) continue;
		const tb_contact *c = w->contacts.data + e.contact;
		int32_t other = c->shape_a == shape ? c->shape_b : c->shape_b == shape ? c->shape_a : TB_NULL_INDEX;
		if (other == TB_NULL_INDEX) continue;
		const tb_shape *o = w->shapes.data + other;
		if (o->proxy == TB_NULL_INDEX || o->tree != 0) continue;
		const tb_tree_node *leaf = nodes + o->proxy;
		if ((leaf->category_bits & mask_bits) == 0 || !tb_aabb_overlaps(leaf->aabb, box)) continue;
		continuous_candidate(cc, other, e.contact);
	}
}

/* The most contacts a body's sweeps walk instead of querying the tree. */
#define TB_SWEEP_LISTED_CONTACTS 32

static void solve_continuous(tb_world *w, int32_t bi)
{
	tb_body_sim *s = w->sims.data + bi;
	tb_body *b = w->bodies.data + bi;
	continuous_ctx cc;
	cc.w = w;
	cc.body = bi;
	cc.bullet = s->is_bullet;
	cc.fraction = 1.0f;
	cc.sweep.local_center = s->local_center;
	cc.sweep.c1 = s->center0;
	cc.sweep.c2 = s->center;
	cc.sweep.q1 = s->rotation0;
	cc.sweep.q2 = s->transform.q;
	tb_transform xf1;
	xf1.q = s->rotation0;
	xf1.p = tb_sub(s->center0, tb_rotate(xf1.q, s->local_center));
	tb_transform xf2 = s->transform;

	/* a body that is not a bullet sweeps against the immovable tree only:
	 * with none there (a box turned by a motor), nothing can stop it */
	bool nothing = !cc.bullet && w->broad_phase.trees[0].root == TB_NULL_NODE;
	/* the first shape's box at the end pose, which its new box is made from
	 * when nothing stops the body */
	tb_aabb head_box;
	bool have_head = false;
	for (int32_t k = nothing ? TB_NULL_INDEX : b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
		const tb_shape *sh = w->shapes.data + k;
		if (sh->is_sensor || sh->proxy == TB_NULL_INDEX) continue;
		cc.shape = k;
		cc.have_proxy = false;
		cc.have_core = false;
		tb_aabb end_box = tb_compute_aabb(&sh->geom, xf2);
		if (k == b->head_shape) {
			head_box = end_box;
			have_head = true;
		}
		tb_aabb box = tb_aabb_union(tb_compute_aabb(&sh->geom, xf1), end_box);
		/* the immovable shapes from the contacts when the fat box holds the
		 * sweep (not when the contact limit kept pairs out this step: a pair
		 * it kept out has no contact to be found by), and the body's
		 * contacts are few: each shape walks them all, where a query of the
		 * tree costs its depth */
		if (!cc.bullet && b->contact_count <= TB_SWEEP_LISTED_CONTACTS && tb_aabb_contains(sh->fat_aabb, box) &&
		    !(w->step_issues & TB_STEP_CONTACT_LIMIT) && !w->sweep_by_tree) {
			continuous_listed(&cc, k, box, tb_filter_partner_bits(sh->filter));
			w->listed_sweeps += 1;
		} else {
			tb_dynamic_tree_query(&w->broad_phase.trees[0], box, tb_filter_partner_bits(sh->filter), continuous_callback, &cc);
		}
		if (cc.bullet)
			tb_dynamic_tree_query(&w->broad_phase.trees[1], box, tb_filter_partner_bits(sh->filter), continuous_callback, &cc);
	}

	if (cc.fraction < 1.0f) {
		/* stop at the time of impact; the velocity stays and next step's
		 * speculative contact meets it before anything passes */
		float t = cc.fraction;
		tb_rot q = {(1.0f - t) * cc.sweep.q1.c + t * cc.sweep.q2.c, (1.0f - t) * cc.sweep.q1.s + t * cc.sweep.q2.s};
		q = tb_normalize_rot(q);
		tb_vec2 c = tb_lerp(cc.sweep.c1, cc.sweep.c2, t);
		s->center = c;
		s->transform.q = q;
		s->transform.p = tb_sub(c, tb_rotate(q, s->local_center));
		have_head = false;
	}
	tb_update_body_shape_aabbs_from(w, bi, true, false, have_head ? &head_box : NULL);
}

/* ---- islands and sleep ---- */

static int32_t find_root(int32_t *parent, int32_t k)
{
	while (parent[k] != k) {
		parent[k] = parent[parent[k]];
		k = parent[k];
	}
	return k;
}

static void union_states(int32_t *parent, int32_t ka, int32_t kb)
{
	ka = find_root(parent, ka);
	kb = find_root(parent, kb);
	/* the smaller index becomes the root: deterministic */
	if (ka < kb) parent[kb] = ka;
	else if (kb < ka) parent[ka] = kb;
}

/* sleepiest: the longest sleep timer of the awake bodies that may sleep
 * (finish_bodies): below time_to_sleep no island can sleep, and the walks that
 * find each island's least sleepy body are skipped. */
static void update_sleep(tb_world *w, int32_t n, float sleepiest)
{
	int32_t *parent = w->island_parent.data;
	float *min_sleep = w->island_sleep.data;
	for (int32_t k = 0; k < n; ++k) parent[k] = k;
	/* the constraints hold their bodies' state indices (-1: immovable this
	 * step), so the contacts themselves need not be read again */
	const tb_body_motion *motions = w->motions.data;
	for (int32_t k = 0; k < w->graph.refs.count; ++k) {
		int32_t ka = w->graph.refs.data[k].state_a, kb = w->graph.refs.data[k].state_b;
		if (ka < 0 || kb < 0 || !motions[ka].dynamic || !motions[kb].dynamic) continue;
		union_states(parent, ka, kb);
	}
	/* and so do the joints' rows: a pass over them, not over the joints and
	 * their bodies (which island a body ends in does not depend on the order
	 * of the unions: the smallest index of a set is its root) */
	for (int32_t k = 0; k < w->joint_rows.count; ++k) {
		int32_t ka = w->joint_rows.data[k].state_a, kb = w->joint_rows.data[k].state_b;
		if (ka < 0 || kb < 0 || !motions[ka].dynamic || !motions[kb].dynamic) continue;
		union_states(parent, ka, kb);
	}
	/* an island's root is its own parent (union_states links roots only) */
	int32_t islands = 0;
	for (int32_t k = 0; k < n; ++k) islands += parent[k] == k;
	w->island_count = islands;
	float limit = w->def.time_to_sleep;
	if (!w->def.enable_sleep || !(sleepiest >= limit)) return;
	/* an island sleeps when its least sleepy body has rested long enough */
	for (int32_t k = 0; k < n; ++k) min_sleep[k] = 1.0e30f;
	for (int32_t k = 0; k < n; ++k) {
		int32_t r = find_root(parent, k);
		const tb_body *b = w->bodies.data + w->awake_bodies.data[k];
		float t = b->enable_sleep ? b->sleep_time : 0.0f;
		if (t < min_sleep[r]) min_sleep[r] = t;
	}
	for (int32_t k = 0; k < n; ++k) {
		int32_t r = find_root(parent, k);
		if (min_sleep[r] < limit) continue;
		int32_t i = w->awake_bodies.data[k];
		tb_body *b = w->bodies.data + i;
		b->awake = false;
		b->sleep_time = 0.0f;
		w->sims.data[i].linear_velocity = tb_vec2_zero;
		w->sims.data[i].angular_velocity = 0.0f;
		tb_sync_body_awake(w, i);
	}
}

/* The step's end for each awake body: its new pose and velocities from the
 * substeps (a body whose pose went absurd keeps its last good one and stops),
 * forces cleared, its sleep timer, and either new shape boxes or a place in
 * the fast list for continuous collision. Returns how many are fast;
 * *sleepiest: the longest sleep timer of those that may sleep. */
static int32_t finish_bodies(tb_world *w, int32_t n, float dt, float *sleepiest)
{
	int32_t fast_count = 0;
	float most = 0.0f;
	const tb_world_def *d = &w->def;
	bool continuous = d->enable_continuous;
	for (int32_t k = 0; k < n; ++k) {
		int32_t i = w->awake_bodies.data[k];
		tb_body *b = w->bodies.data + i;
		tb_body_sim *s = w->sims.data + i;
		const tb_body_state *st = w->states.data + k;
		tb_vec2 center = tb_add(s->center0, st->dp);
		tb_rot q = tb_normalize_rot(tb_mul_rot(st->dq, s->rotation0));
		tb_vec2 origin = tb_sub(center, tb_rotate(q, s->local_center));
		if (tb_is_valid_vec2(st->linear_velocity) && isfinite(st->angular_velocity) && fabsf(origin.x) < TB_HUGE &&
		    fabsf(origin.y) < TB_HUGE && fabsf(q.c * q.c + q.s * q.s - 1.0f) < 1.0e-3f) {
			s->linear_velocity = st->linear_velocity;
			s->angular_velocity = st->angular_velocity;
			s->center = center;
			s->transform.q = q;
			s->transform.p = origin;
		} else {
			/* absurd input (a body 1e38 m away, a step of 1e30 s, a joint between
			 * such bodies) must not poison the world: this body keeps its last good
			 * pose and stops */
			s->linear_velocity = tb_vec2_zero;
			s->angular_velocity = 0.0f;
		}
		s->force = tb_vec2_zero;
		s->torque = 0.0f;

		float speed = tb_length(s->linear_velocity), spin = fabsf(s->angular_velocity);
		float sleep_speed = tb_maxf(speed, s->max_extent * spin);
		if (b->enable_sleep && d->enable_sleep && sleep_speed < b->sleep_threshold) b->sleep_time += dt;
		else b->sleep_time = 0.0f;
		if (b->enable_sleep) most = tb_maxf(most, b->sleep_time);

		float motion = speed * dt + spin * dt * s->max_extent;
		if (continuous && b->type == TB_DYNAMIC_BODY && tb_minf(0.5f * s->min_extent, TB_SPECULATIVE_DISTANCE) < motion) {
			s->is_fast = true;
			w->fast_bodies.data[fast_count++] = i;
		} else {
			tb_update_body_shape_aabbs(w, i, true, false);
		}
	}
	*sleepiest = most;
	return fast_count;
}

/* Continuous collision for the fast bodies: non-bullets first (against
 * static shapes), then bullets (also against the final positions of dynamic
 * bodies). */
static void solve_fast_bodies(tb_world *w, int32_t fast_count)
{
	w->fast_bodies.count = fast_count;
	w->listed_sweeps = 0;
	for (int32_t k = 0; k < fast_count; ++k) {
		/* the fast bodies are scattered: each one's body record and first shape
		 * are loaded ahead, or every sweep starts with two misses */
		if (k + 8 < fast_count) __builtin_prefetch(&w->bodies.data[w->fast_bodies.data[k + 8]].head_shape);
		if (k + 4 < fast_count) {
			int32_t first = w->bodies.data[w->fast_bodies.data[k + 4]].head_shape;
			if (first != TB_NULL_INDEX) {
				__builtin_prefetch(&w->shapes.data[first].geom);
				__builtin_prefetch((const char *)&w->shapes.data[first].geom + 64);
				__builtin_prefetch(&w->shapes.data[first].proxy);
			}
		}
		int32_t i = w->fast_bodies.data[k];
		if (!w->sims.data[i].is_bullet) solve_continuous(w, i);
	}
	for (int32_t k = 0; k < fast_count; ++k) {
		int32_t i = w->fast_bodies.data[k];
		if (w->sims.data[i].is_bullet) solve_continuous(w, i);
	}
}

void tb_solve(tb_world *w, float dt)
{
	tb_world_def *d = &w->def;
	if (!d->enable_motion) {
		w->constraints.count = 0;
		w->graph.refs.count = 0;
		w->active_joints.count = 0;
		return;
	}

	double t = tb_time_ms();
	wake_joint_partners(w);
	int32_t n = gather_awake_bodies(w);
	gather_constraints(w);

	tb_step_context ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.dt = dt;
	ctx.inv_dt = 1.0f / dt;
	ctx.substeps = d->substeps;
	ctx.h = dt / (float)d->substeps;
	ctx.inv_h = (float)d->substeps / dt;
	ctx.sims = w->sims.data;
	ctx.states = w->states.data;
	/* a spring stiffer than a quarter of the substep rate would ring (joints at
	 * the 60 Hz default with 4 substeps: a 100-row jointed grid stretches 1.3 m,
	 * against 5 m at 30 Hz) */
	float contact_hertz = tb_minf(d->contact_hertz, 0.25f * ctx.inv_h);
	float joint_hertz = tb_minf(d->joint_hertz, 0.25f * ctx.inv_h);
	ctx.contact_softness = tb_make_soft(contact_hertz, d->contact_damping_ratio, ctx.h);
	ctx.static_softness = tb_make_soft(2.0f * contact_hertz, d->contact_damping_ratio, ctx.h);
	ctx.joint_softness = tb_make_soft(joint_hertz, d->joint_damping_ratio, ctx.h);
	ctx.restitution_threshold = d->restitution_threshold;
	ctx.max_linear_speed = d->max_linear_speed;
	ctx.contact_push_max = d->max_contact_push_speed;
	ctx.enable_warm_starting = d->enable_warm_starting;
	ctx.enable_position_correction = d->enable_position_correction;

	prepare_motions(w, &ctx, n);
	tb_color_constraints(w, n);
	tb_prepare_contacts(w, &ctx);
	prepare_joints(w, &ctx, n);
	w->profile.prepare = (float)(tb_time_ms() - t);

	/* Positions move only in integrate_positions: a revolute joint keeps the
	 * angle its relax measured for the next substep's solve (joint_revolute.c). */
	for (int sub = 0; sub < d->substeps; ++sub) {
		ctx.substep_index = sub;
		t = tb_time_ms();
		tb_apply_fields(w, &ctx);
		w->kernels->integrate_velocities(ctx.states, w->motions.data, n, ctx.max_linear_speed, 0.25f * TB_PI * ctx.inv_h);
		w->profile.integrate += (float)(tb_time_ms() - t);

		t = tb_time_ms();
		if (ctx.enable_warm_starting) {
			warm_start_joints(w, &ctx);
			tb_warm_start_contacts_wide(w, &ctx);
		}
		w->profile.warm_start += (float)(tb_time_ms() - t);

		t = tb_time_ms();
		solve_joints(w, &ctx, true);
		tb_solve_contacts_wide(w, &ctx, true);
		w->profile.solve_contacts += (float)(tb_time_ms() - t);

		t = tb_time_ms();
		w->kernels->integrate_positions(ctx.states, n, ctx.h);
		w->profile.integrate += (float)(tb_time_ms() - t);

		t = tb_time_ms();
		solve_joints(w, &ctx, false);
		tb_solve_contacts_wide(w, &ctx, false);
		w->profile.relax += (float)(tb_time_ms() - t);
	}

	t = tb_time_ms();
	store_pin_blocks(w);
	tb_joint_store_rows(w->joints.data, w->joint_rows.data, w->joint_rows.count, w->revolute_rows.data);
	tb_store_impulses(w);
	w->profile.store = (float)(tb_time_ms() - t);

	/* finalize: positions, velocities, sleep timers, boxes */
	t = tb_time_ms();
	float sleepiest;
	int32_t fast_count = finish_bodies(w, n, dt, &sleepiest);
	w->profile.integrate += (float)(tb_time_ms() - t);

	t = tb_time_ms();
	solve_fast_bodies(w, fast_count);
	w->profile.continuous = (float)(tb_time_ms() - t);

	t = tb_time_ms();
	update_sleep(w, n, sleepiest);
	w->profile.sleep = (float)(tb_time_ms() - t);
}
