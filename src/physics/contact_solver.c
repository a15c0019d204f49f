/* tumble physics: the soft contact solver.
 *
 * Each touching contact becomes a constraint in one contiguous array. Anchors
 * are fixed at prepare (relative to the centres of mass); the current
 * separation is recovered from the bodies' position deltas, so the narrow phase
 * runs once per step while the solver substeps. Non-penetration is solved with
 * a soft spring (hertz, damping ratio) whose push-out speed is capped, friction
 * is clamped by the accumulated normal impulse (Coulomb), and restitution is
 * a velocity target in the relax pass, so friction sees the full normal impulse
 * of a bounce (the two rough balls worked by hand in test_dynamics). */
#include "world.h"

#if defined(__SSE2__) && !defined(TB_NO_SIMD)
#include <emmintrin.h>
#endif

static inline tb_body_state *state_or(tb_body_state *states, int32_t index, tb_body_state *dummy)
{
	if (index >= 0) return states + index;
	*dummy = tb_identity_body_state;
	return dummy;
}

/* A constraint point from its manifold point: anchors relative to the centres
 * of mass (la, lb: the centres' offsets from the body origins), the warm start
 * and the normal velocity at prepare, which the manifold keeps for its events
 * (the solver never changes it: the store then reads only the impulses back). */
static inline __attribute__((always_inline)) void prepare_point(tb_manifold_point *mp, tb_constraint_point *cp, float warm,
                                                              tb_vec2 la, tb_vec2 lb, tb_vec2 va, float wa, tb_vec2 vb,
                                                              float wb, tb_vec2 n, tb_vec2 *ra, tb_vec2 *rb)
{
	cp->normal_impulse = warm * mp->normal_impulse;
	cp->tangent_impulse = warm * mp->tangent_impulse;
	cp->max_normal_impulse = 0.0f;
	/* manifold anchors are relative to the body origins */
	*ra = tb_sub(mp->anchor_a, la);
	*rb = tb_sub(mp->anchor_b, lb);
	cp->anchor_a = *ra;
	cp->anchor_b = *rb;
	cp->base_separation = mp->separation - tb_dot(tb_sub(*rb, *ra), n);
	tb_vec2 dva = tb_add(va, tb_cross_sv(wa, *ra)), dvb = tb_add(vb, tb_cross_sv(wb, *rb));
	cp->relative_velocity = tb_dot(n, tb_sub(dvb, dva));
	mp->normal_velocity = cp->relative_velocity;
}

/* One constraint from its contact, for the step. */
static inline __attribute__((always_inline)) void prepare_constraint(const tb_world *w, const tb_step_context *ctx, const tb_constraint_ref *ref,
                                      tb_contact_constraint *cc)
{
	float warm = ctx->enable_warm_starting ? 1.0f : 0.0f;
	tb_contact *c = w->contacts.data + ref->contact;
	tb_manifold *m = &c->manifold;
	cc->contact = ref->contact;
	cc->state_a = ref->state_a;
	cc->state_b = ref->state_b;
	/* an awake body's numbers come from its motion record (small, contiguous),
	 * an immovable one's from the body */
	const tb_body_motion *motions = w->motions.data;
	const tb_body_sim *sa = ctx->sims + ref->body_a, *sb = ctx->sims + ref->body_b;
	int32_t ka = ref->state_a, kb = ref->state_b;
	float ma = 0.0f, ia = 0.0f, mb = 0.0f, ib = 0.0f;
	int32_t na = 1, nb = 1;
	tb_vec2 va, vb, la, lb;
	float wa, wb;
	if (ka >= 0) {
		ma = motions[ka].inv_mass;
		ia = motions[ka].inv_inertia;
		na = motions[ka].contact_count;
		la = motions[ka].center_offset;
		va = ctx->states[ka].linear_velocity;
		wa = ctx->states[ka].angular_velocity;
	} else {
		la = tb_rotate(sa->transform.q, sa->local_center);
		va = sa->linear_velocity;
		wa = sa->angular_velocity;
	}
	if (kb >= 0) {
		mb = motions[kb].inv_mass;
		ib = motions[kb].inv_inertia;
		nb = motions[kb].contact_count;
		lb = motions[kb].center_offset;
		vb = ctx->states[kb].linear_velocity;
		wb = ctx->states[kb].angular_velocity;
	} else {
		lb = tb_rotate(sb->transform.q, sb->local_center);
		vb = sb->linear_velocity;
		wb = sb->angular_velocity;
	}
	cc->inv_mass_a = ma;
	cc->inv_i_a = ia;
	cc->inv_mass_b = mb;
	cc->inv_i_b = ib;
	/* Push-out speeds add up along a chain of overlapping bodies (twenty boxes
	 * created on one spot would leave at twenty times the cap), so a body's
	 * budget is shared among its contacts (its broad-phase pairs), and halved
	 * for each: a pair overlapping alone parts at half the cap, twenty boxes
	 * on one spot leave their column at 3.5 m/s (test_stacking). Resting
	 * contacts push far slower than the cap and never notice. */
	bool shared = ma > TB_WALL_MASS_RATIO * mb && mb > TB_WALL_MASS_RATIO * ma;
	cc->push_max = shared ? ctx->contact_push_max / (float)tb_maxi(1, 2 * tb_maxi(na, nb)) : ctx->contact_push_max;
	cc->friction = c->friction;
	cc->restitution = c->restitution;
	cc->tangent_speed = c->tangent_speed;
	cc->rolling_resistance = c->rolling_resistance;
	cc->rolling_mass = 0.0f;
	cc->rolling_impulse = 0.0f;
	if (c->rolling_resistance > 0.0f) {
		cc->rolling_mass = ia + ib > 0.0f ? 1.0f / (ia + ib) : 0.0f;
		cc->rolling_impulse = warm * c->rolling_impulse;
	}
	cc->normal = m->normal;
	cc->point_count = m->point_count;
	tb_vec2 n = m->normal, t = tb_right_perp(n);
	int count = m->point_count;
	/* the anchors of both points (a one-point manifold repeats its point, whose
	 * copy is computed and never stored); the points by constant index, so a
	 * record that goes straight into a block's lanes stays in registers */
	tb_vec2 ra[2], rb[2];
	prepare_point(m->points + 0, cc->points + 0, warm, la, lb, va, wa, vb, wb, n, ra + 0, rb + 0);
	if (count > 1) {
		prepare_point(m->points + 1, cc->points + 1, warm, la, lb, va, wa, vb, wb, n, ra + 1, rb + 1);
	} else {
		ra[1] = ra[0];
		rb[1] = rb[0];
	}
	/* the effective masses along the normal and the tangent of each point:
	 * k = ma + mb + ia * (ra x d)^2 + ib * (rb x d)^2, mass = 1 / k where k > 0.
	 * Four lanes (point 0 normal, tangent, point 1 normal, tangent) of the same
	 * operations in the same order as the scalar lines below: the same bits. */
	float mass[4];
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
	__m128 rax = _mm_setr_ps(ra[0].x, ra[0].x, ra[1].x, ra[1].x), ray = _mm_setr_ps(ra[0].y, ra[0].y, ra[1].y, ra[1].y);
	__m128 rbx = _mm_setr_ps(rb[0].x, rb[0].x, rb[1].x, rb[1].x), rby = _mm_setr_ps(rb[0].y, rb[0].y, rb[1].y, rb[1].y);
	__m128 dx = _mm_setr_ps(n.x, t.x, n.x, t.x), dy = _mm_setr_ps(n.y, t.y, n.y, t.y);
	__m128 ca = _mm_sub_ps(_mm_mul_ps(rax, dy), _mm_mul_ps(ray, dx));
	__m128 cb = _mm_sub_ps(_mm_mul_ps(rbx, dy), _mm_mul_ps(rby, dx));
	__m128 vi_a = _mm_set1_ps(ia), vi_b = _mm_set1_ps(ib);
	__m128 k = _mm_add_ps(_mm_add_ps(_mm_set1_ps(ma + mb), _mm_mul_ps(_mm_mul_ps(vi_a, ca), ca)),
	                      _mm_mul_ps(_mm_mul_ps(vi_b, cb), cb));
	__m128 positive = _mm_cmpgt_ps(k, _mm_setzero_ps());
	_mm_storeu_ps(mass, _mm_and_ps(positive, _mm_div_ps(_mm_set1_ps(1.0f), k)));
#else
	for (int j = 0; j < 4; ++j) {
		tb_vec2 d = (j & 1) ? t : n;
		float ca = tb_cross(ra[j >> 1], d), cb = tb_cross(rb[j >> 1], d);
		float k = ma + mb + ia * ca * ca + ib * cb * cb;
		mass[j] = k > 0.0f ? 1.0f / k : 0.0f;
	}
#endif
	cc->points[0].normal_mass = mass[0];
	cc->points[0].tangent_mass = mass[1];
	if (count > 1) {
		cc->points[1].normal_mass = mass[2];
		cc->points[1].tangent_mass = mass[3];
	} else {
		/* a one-point manifold's second point: no mass, no impulse (its block
		 * lane is written from the whole record) */
		cc->points[1] = (tb_constraint_point){0};
	}
}

void tb_prepare_contacts(tb_world *w, const tb_step_context *ctx)
{
	tb_constraint_graph *g = &w->graph;
	const tb_constraint_ref *refs = g->refs.data;
	/* The overflow's constraints into their records (w->constraints, at their
	 * refs' indices), which its scalar solver reads. */
	tb_contact_constraint *constraints = w->constraints.data;
	const int32_t *overflow = g->order.data;
	for (int32_t i = 0; i < g->order.count; ++i) prepare_constraint(w, ctx, refs + overflow[i], constraints + overflow[i]);
	/* The blocks one at a time, each lane's constraint made in a record on the
	 * stack and written straight into its lanes: the blocks are written in
	 * order and no record goes to memory and back (a records array in slot
	 * order, transposed in a second pass, wrote and read back 2.4 MB a step on
	 * the large pyramid; eight records transposed four lanes at a time cost
	 * more instructions than the lane stores). The contacts are read in the
	 * blocks' order, so the next block's are loaded a block ahead. */
	int32_t surface_count = 0;
	const int32_t *lane_refs = g->lane_refs.data;
	for (int c = 0; c < TB_GRAPH_COLOR_COUNT; ++c) {
		int32_t in_color = g->color_start[c + 1] - g->color_start[c];
		for (int32_t block = g->block_start[c]; block < g->block_start[c + 1]; ++block) {
			int32_t lanes = tb_mini(TB_BLOCK_LANES, in_color - (block - g->block_start[c]) * TB_BLOCK_LANES);
			const int32_t *block_refs = lane_refs + block * TB_BLOCK_LANES;
			/* the next block's contacts, if the colour has one */
			int32_t next_lanes = tb_mini(TB_BLOCK_LANES, in_color - (block + 1 - g->block_start[c]) * TB_BLOCK_LANES);
			for (int i = 0; i < next_lanes; ++i)
				tb_prefetch_contact(w->contacts.data + refs[block_refs[TB_BLOCK_LANES + i]].contact);
			tb_contact_block *blk = g->blocks.data + block;
			tb_contact_block_begin(blk, lanes);
			for (int i = 0; i < lanes; ++i) {
				tb_contact_constraint record;
				prepare_constraint(w, ctx, refs + block_refs[i], &record);
				tb_contact_block_set_lane(blk, i, &record, g->surfaces.data, &surface_count);
			}
		}
	}
	g->surfaces.count = surface_count;
}

void tb_warm_start_contact_list(tb_contact_constraint *constraints, const int32_t *list, int32_t count,
                                tb_body_state *states)
{
	tb_body_state dummy_a, dummy_b;
	for (int32_t k = 0; k < count; ++k) {
		tb_contact_constraint *cc = constraints + list[k];
		tb_body_state *a = state_or(states, cc->state_a, &dummy_a);
		tb_body_state *b = state_or(states, cc->state_b, &dummy_b);
		tb_vec2 n = cc->normal, t = tb_right_perp(n);
		tb_vec2 va = a->linear_velocity, vb = b->linear_velocity;
		float wa = a->angular_velocity, wb = b->angular_velocity;
		for (int i = 0; i < cc->point_count; ++i) {
			const tb_constraint_point *cp = cc->points + i;
			tb_vec2 P = tb_add(tb_mul_sv(cp->normal_impulse, n), tb_mul_sv(cp->tangent_impulse, t));
			wa -= cc->inv_i_a * tb_cross(cp->anchor_a, P);
			va = tb_mul_sub(va, cc->inv_mass_a, P);
			wb += cc->inv_i_b * tb_cross(cp->anchor_b, P);
			vb = tb_mul_add(vb, cc->inv_mass_b, P);
		}
		if (cc->rolling_resistance > 0.0f) {
			wa -= cc->inv_i_a * cc->rolling_impulse;
			wb += cc->inv_i_b * cc->rolling_impulse;
		}
		a->linear_velocity = va;
		a->angular_velocity = wa;
		b->linear_velocity = vb;
		b->angular_velocity = wb;
	}
}

/* The scalar twin of contact_solver_lanes.h: the two must compute the same maths.
 * Gauss-Seidel carries a bias in its sweep direction (a wide pyramid leans
 * towards where the sweep ends), so the caller sweeps backwards on odd
 * substeps and the biases cancel. */
void tb_solve_contact_list(tb_contact_constraint *constraints, const int32_t *list, int32_t count,
                           tb_body_state *states, const tb_step_context *ctx, bool use_bias, bool backward)
{
	tb_body_state dummy_a, dummy_b;
	float inv_h = ctx->inv_h;
	bool correct = ctx->enable_position_correction;
	float threshold = ctx->restitution_threshold;
	for (int32_t kk = 0; kk < count; ++kk) {
		int32_t k = list[backward ? count - 1 - kk : kk];
		tb_contact_constraint *cc = constraints + k;
		tb_body_state *a = state_or(states, cc->state_a, &dummy_a);
		tb_body_state *b = state_or(states, cc->state_b, &dummy_b);
		float ma = cc->inv_mass_a, ia = cc->inv_i_a, mb = cc->inv_mass_b, ib = cc->inv_i_b;
		tb_vec2 va = a->linear_velocity, vb = b->linear_velocity;
		float wa = a->angular_velocity, wb = b->angular_velocity;
		tb_vec2 dp = tb_sub(b->dp, a->dp);
		tb_rot qa = a->dq, qb = b->dq;
		tb_vec2 n = cc->normal;

		for (int i = 0; i < cc->point_count; ++i) {
			tb_constraint_point *cp = cc->points + i;
			tb_vec2 ra = cp->anchor_a, rb = cp->anchor_b;
			/* current separation from the bodies' motion since prepare */
			tb_vec2 prd = tb_sub(tb_rotate(qb, rb), tb_rotate(qa, ra));
			/* Rotation is only allowed to close the gap estimate, never to open it:
			 * a fixed anchor on a fast-spinning round shape swings away from the
			 * real support point and would report a gap that is not there. */
			float rot_term = tb_minf(tb_dot(tb_sub(prd, tb_sub(rb, ra)), n), 0.0f);
			float s = tb_dot(tb_add(dp, tb_sub(rb, ra)), n) + rot_term + cp->base_separation;

			float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
			if (s > 0.0f) {
				/* speculative: allow closing exactly the gap this substep */
				bias = s * inv_h;
			} else if (use_bias && correct) {
				tb_softness soft = tb_contact_softness(ctx, ma, mb);
				bias = tb_maxf(soft.bias_rate * s, -cc->push_max);
				mass_scale = soft.mass_scale;
				impulse_scale = soft.impulse_scale;
			}
			if (!use_bias && s < TB_LINEAR_SLOP && cc->restitution > 0.0f && cp->relative_velocity < -threshold) {
				/* bounce: leave at e times the approach speed measured before the step */
				bias = tb_minf(bias, cc->restitution * cp->relative_velocity);
			}

			tb_vec2 dva = tb_add(va, tb_cross_sv(wa, ra)), dvb = tb_add(vb, tb_cross_sv(wb, rb));
			float vn = tb_dot(tb_sub(dvb, dva), n);
			float impulse = -cp->normal_mass * mass_scale * (vn + bias) - impulse_scale * cp->normal_impulse;
			float new_impulse = tb_maxf(cp->normal_impulse + impulse, 0.0f);
			impulse = new_impulse - cp->normal_impulse;
			cp->normal_impulse = new_impulse;
			cp->max_normal_impulse = tb_maxf(cp->max_normal_impulse, impulse);

			tb_vec2 P = tb_mul_sv(impulse, n);
			va = tb_mul_sub(va, ma, P);
			wa -= ia * tb_cross(ra, P);
			vb = tb_mul_add(vb, mb, P);
			wb += ib * tb_cross(rb, P);
		}

		tb_vec2 t = tb_right_perp(n);
		float friction = cc->friction;
		for (int i = 0; i < cc->point_count; ++i) {
			tb_constraint_point *cp = cc->points + i;
			tb_vec2 ra = cp->anchor_a, rb = cp->anchor_b;
			tb_vec2 dva = tb_add(va, tb_cross_sv(wa, ra)), dvb = tb_add(vb, tb_cross_sv(wb, rb));
			/* a conveyor's surface moves: friction drives the points to its speed */
			float vt = tb_dot(tb_sub(dvb, dva), t) - cc->tangent_speed;
			float impulse = -cp->tangent_mass * vt;
			float max_friction = friction * cp->normal_impulse;
			float new_impulse = tb_clampf(cp->tangent_impulse + impulse, -max_friction, max_friction);
			impulse = new_impulse - cp->tangent_impulse;
			cp->tangent_impulse = new_impulse;
			tb_vec2 P = tb_mul_sv(impulse, t);
			va = tb_mul_sub(va, ma, P);
			wa -= ia * tb_cross(ra, P);
			vb = tb_mul_add(vb, mb, P);
			wb += ib * tb_cross(rb, P);
		}

		if (cc->rolling_resistance > 0.0f) {
			/* a torque against the relative spin, up to resistance times the normal force */
			float total_normal = 0.0f;
			for (int i = 0; i < cc->point_count; ++i) total_normal += cc->points[i].normal_impulse;
			float max_rolling = cc->rolling_resistance * total_normal;
			float old_impulse = cc->rolling_impulse;
			float new_impulse = tb_clampf(old_impulse - cc->rolling_mass * (wb - wa), -max_rolling, max_rolling);
			float impulse = new_impulse - old_impulse;
			cc->rolling_impulse = new_impulse;
			wa -= ia * impulse;
			wb += ib * impulse;
		}

		a->linear_velocity = va;
		a->angular_velocity = wa;
		b->linear_velocity = vb;
		b->angular_velocity = wb;
	}
}

/* ---- the step's drivers ----
 *
 * Within one colour of the constraint graph no two constraints share an awake
 * body, so its blocks' lanes are solved side by side by the world's path
 * (solver_kernels.h). Colours run one after the other, forward on even
 * substeps and backward on odd ones, so the Gauss-Seidel sweep bias cancels
 * as it does in the scalar solver. Constraints that found no colour (the
 * overflow) go through the scalar list solver above. */

/* The step's surface records, NULL in a step without any. */
static tb_block_surface *step_surfaces(tb_constraint_graph *g)
{
	return g->surfaces.count > 0 ? g->surfaces.data : NULL;
}

/* The overflow: its records in w->constraints at the refs g->order lists, in slot order. */
static const int32_t *overflow_list(const tb_constraint_graph *g, int32_t *count)
{
	*count = g->order.count;
	return g->order.data;
}

void tb_warm_start_contacts_wide(tb_world *w, tb_step_context *ctx)
{
	tb_constraint_graph *g = &w->graph;
	int32_t overflow_count;
	const int32_t *overflow = overflow_list(g, &overflow_count);
	tb_warm_start_contact_list(w->constraints.data, overflow, overflow_count, ctx->states);
	/* a colour at a time: a path may take two of a colour's blocks side by side */
	const tb_block_surface *surfaces = step_surfaces(g);
	for (int c = 0; c < TB_GRAPH_COLOR_COUNT; ++c) {
		int32_t first = g->block_start[c], count = g->block_start[c + 1] - first;
		if (count > 0) w->kernels->warm_start(g->blocks.data + first, count, surfaces, ctx->states);
	}
}

void tb_solve_contacts_wide(tb_world *w, tb_step_context *ctx, bool use_bias)
{
	tb_constraint_graph *g = &w->graph;
	/* the whole sequence (overflow, then colours in order) runs reversed on odd substeps */
	bool backward = (ctx->substep_index & 1) != 0;
	int32_t overflow_count;
	const int32_t *overflow = overflow_list(g, &overflow_count);
	if (!backward)
		tb_solve_contact_list(w->constraints.data, overflow, overflow_count, ctx->states, ctx, use_bias, false);
	tb_block_surface *surfaces = step_surfaces(g);
	for (int cc = 0; cc < TB_GRAPH_COLOR_COUNT; ++cc) {
		int c = backward ? TB_GRAPH_COLOR_COUNT - 1 - cc : cc;
		int32_t first = g->block_start[c], count = g->block_start[c + 1] - first;
		if (count > 0) w->kernels->solve(g->blocks.data + first, count, surfaces, ctx->states, ctx, use_bias);
	}
	if (backward) tb_solve_contact_list(w->constraints.data, overflow, overflow_count, ctx->states, ctx, use_bias, true);
}

/* Whether a point is a hit faster than `best`: it pushed, and approached
 * faster than the threshold and than best. */
static inline bool hits_faster(float max_normal_impulse, float approach, float hit_threshold, float best)
{
	return max_normal_impulse > 0.0f && approach > hit_threshold && approach > best;
}

/* The point of a contact with hit events that was pushed apart the fastest,
 * faster than the threshold, or -1. */
static int hit_point(const tb_manifold *m, float hit_threshold, float *speed)
{
	float best_speed = 0.0f;
	int best = -1;
	for (int i = 0; i < m->point_count; ++i) {
		float approach = -m->points[i].normal_velocity;
		if (hits_faster(m->points[i].max_normal_impulse, approach, hit_threshold, best_speed)) {
			best_speed = approach;
			best = i;
		}
	}
	*speed = best_speed;
	return best;
}

static void push_hit_event(tb_world *w, const tb_contact *c, float hit_threshold)
{
	const tb_manifold *m = &c->manifold;
	float best_speed;
	int best = hit_point(m, hit_threshold, &best_speed);
	if (best >= 0 && tb_is_valid_vec2(m->points[best].point) && isfinite(best_speed)) {
		/* reserved with the contact slots: one hit per constraint */
		TB_ASSERT(w->hit_events.count < w->hit_events.capacity);
		tb_contact_hit_event *e = w->hit_events.data + w->hit_events.count++;
		e->shape_a = tb_make_shape_id(w, c->shape_a);
		e->shape_b = tb_make_shape_id(w, c->shape_b);
		e->point = m->points[best].point;
		e->normal = m->normal;
		e->approach_speed = best_speed;
	}
}

/* absurd surfaces can overflow it; warm starting then starts afresh */
static inline float finite_or_zero(float x) { return isfinite(x) ? x : 0.0f; }

/* Writes the impulses back for warm starting next step, and reports hits. Block
 * by block: the blocks are read in order and each lane's contact written,
 * loaded a block ahead. */
void tb_store_impulses(tb_world *w)
{
	tb_constraint_graph *g = &w->graph;
	const tb_constraint_ref *refs = g->refs.data;
	/* the refs of contacts that hit, gathered as the impulses go back and
	 * sorted, so the events come in slot order whatever the blocks' order
	 * (the colours' array is free once the step is coloured) */
	float hit_threshold = w->def.hit_event_threshold, speed;
	int32_t *hit_refs = g->constraint_colors.data;
	int32_t hit_count = 0;
	TB_ASSERT(g->refs.count <= g->constraint_colors.capacity);
	/* the overflow's records */
	for (int32_t i = 0; i < g->order.count; ++i) {
		int32_t k = g->order.data[i];
		const tb_contact_constraint *cc = w->constraints.data + k;
		tb_contact *c = w->contacts.data + refs[k].contact;
		tb_manifold *m = &c->manifold;
		for (int j = 0; j < cc->point_count; ++j) {
			const tb_constraint_point *cp = cc->points + j;
			m->points[j].normal_impulse = cp->normal_impulse;
			m->points[j].tangent_impulse = cp->tangent_impulse;
			m->points[j].max_normal_impulse = cp->max_normal_impulse;
		}
		c->rolling_impulse = finite_or_zero(cc->rolling_impulse);
		if ((c->flags & TB_CONTACT_HIT_EVENTS) && hit_point(m, hit_threshold, &speed) >= 0) hit_refs[hit_count++] = k;
	}
	/* the blocks in order, each lane's contact written back; the next
	 * block's contacts are loaded a block ahead */
	const int32_t *lane_refs = g->lane_refs.data;
	int32_t block_count = g->blocks.count;
	for (int32_t b = 0; b < block_count; ++b) {
		const tb_contact_block *blk = g->blocks.data + b;
		const int32_t *block_refs = lane_refs + b * TB_BLOCK_LANES;
		if (b + 1 < block_count) {
			int32_t next_lanes = g->blocks.data[b + 1].lane_count;
			for (int i = 0; i < next_lanes; ++i)
				tb_prefetch_contact_for_write(w->contacts.data + refs[block_refs[TB_BLOCK_LANES + i]].contact);
		}
		const tb_block_surface *surface = blk->surface >= 0 ? g->surfaces.data + blk->surface : NULL;
		for (int lane = 0; lane < blk->lane_count; ++lane) {
			int32_t k = block_refs[lane];
			tb_contact *c = w->contacts.data + refs[k].contact;
			tb_manifold *m = &c->manifold;
			/* hit_point's test on the way (its first best is zero) */
			bool hit = false;
			for (int j = 0; j < m->point_count; ++j) {
				const tb_block_point *bp = blk->points + j;
				float pushed = bp->max_normal_impulse[lane], approach = -m->points[j].normal_velocity;
				m->points[j].normal_impulse = bp->normal_impulse[lane];
				m->points[j].tangent_impulse = bp->tangent_impulse[lane];
				m->points[j].max_normal_impulse = pushed;
				hit |= hits_faster(pushed, approach, hit_threshold, 0.0f);
			}
			c->rolling_impulse = surface != NULL ? finite_or_zero(surface->rolling_impulse[lane]) : 0.0f;
			if (hit && (c->flags & TB_CONTACT_HIT_EVENTS)) hit_refs[hit_count++] = k;
		}
	}
	if (hit_count == 0) return;
	tb_sort(hit_refs, (size_t)hit_count, sizeof *hit_refs, tb_compare_int32);
	for (int32_t i = 0; i < hit_count; ++i) push_hit_event(w, w->contacts.data + refs[hit_refs[i]].contact, hit_threshold);
}
