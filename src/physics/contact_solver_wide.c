/* tumble physics: the wide contact solver.
 *
 * Within one colour of the constraint graph no two constraints share an awake
 * body, so four of them can be solved side by side: their bodies are gathered
 * into lanes, solved with the same maths as the scalar solver in
 * contact_solver.c (keep the two in step), and scattered back. Colours run one
 * after the other, forward on even substeps and backward on odd ones, so the
 * Gauss-Seidel sweep bias cancels as it does in the scalar solver. Constraints
 * that found no colour (the overflow) go through the scalar solver.
 *
 * SSE2 is part of x86_64, so there is no run-time detection; elsewhere (or
 * with TB_NO_SIMD defined) the same code runs on a plain four-float struct.
 * Only adds, multiplies, compares and min/max are used, each rounding as the
 * scalar code does (no fused multiply-add), and lane order never depends on
 * data: same build, same input, same bits, whichever of the two paths runs. */
#include "world.h"

#include <stddef.h>

#if defined(__SSE2__) && !defined(TB_NO_SIMD)
#define TB_WIDE_SSE2 1
#endif

#if TB_WIDE_SSE2
#include <emmintrin.h>

typedef __m128 tb_f4;

static inline tb_f4 f4_load(const float *p) { return _mm_load_ps(p); }
static inline void f4_store(float *p, tb_f4 a) { _mm_store_ps(p, a); }
static inline tb_f4 f4_splat(float s) { return _mm_set1_ps(s); }
static inline tb_f4 f4_zero(void) { return _mm_setzero_ps(); }
static inline tb_f4 f4_add(tb_f4 a, tb_f4 b) { return _mm_add_ps(a, b); }
static inline tb_f4 f4_sub(tb_f4 a, tb_f4 b) { return _mm_sub_ps(a, b); }
static inline tb_f4 f4_mul(tb_f4 a, tb_f4 b) { return _mm_mul_ps(a, b); }
static inline tb_f4 f4_neg(tb_f4 a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
/* as tb_minf/tb_maxf: a < b ? a : b and a > b ? a : b, the second operand on ties and NaN */
static inline tb_f4 f4_min(tb_f4 a, tb_f4 b) { return _mm_min_ps(a, b); }
static inline tb_f4 f4_max(tb_f4 a, tb_f4 b) { return _mm_max_ps(a, b); }
static inline tb_f4 f4_lt(tb_f4 a, tb_f4 b) { return _mm_cmplt_ps(a, b); }
static inline tb_f4 f4_gt(tb_f4 a, tb_f4 b) { return _mm_cmpgt_ps(a, b); }
static inline tb_f4 f4_and(tb_f4 a, tb_f4 b) { return _mm_and_ps(a, b); }
/* mask ? b : a, lane by lane */
static inline tb_f4 f4_select(tb_f4 mask, tb_f4 a, tb_f4 b)
{
	return _mm_or_ps(_mm_and_ps(mask, b), _mm_andnot_ps(mask, a));
}

#else

typedef struct tb_f4 { float v[4]; } tb_f4;

#define TB_F4_MAP2(name, expr)                                                                              \
	static inline tb_f4 name(tb_f4 a, tb_f4 b)                                                          \
	{                                                                                                   \
		tb_f4 r;                                                                                    \
		for (int i = 0; i < 4; ++i) r.v[i] = (expr);                                                \
		return r;                                                                                   \
	}

static inline tb_f4 f4_load(const float *p)
{
	tb_f4 r;
	memcpy(r.v, p, sizeof r.v);
	return r;
}
static inline void f4_store(float *p, tb_f4 a) { memcpy(p, a.v, sizeof a.v); }
static inline tb_f4 f4_splat(float s)
{
	tb_f4 r = {{s, s, s, s}};
	return r;
}
static inline tb_f4 f4_zero(void) { return f4_splat(0.0f); }
TB_F4_MAP2(f4_add, a.v[i] + b.v[i])
TB_F4_MAP2(f4_sub, a.v[i] - b.v[i])
TB_F4_MAP2(f4_mul, a.v[i] * b.v[i])
TB_F4_MAP2(f4_min, a.v[i] < b.v[i] ? a.v[i] : b.v[i])
TB_F4_MAP2(f4_max, a.v[i] > b.v[i] ? a.v[i] : b.v[i])
/* masks are 1.0f (true) or 0.0f (false) lanes here */
TB_F4_MAP2(f4_lt, a.v[i] < b.v[i] ? 1.0f : 0.0f)
TB_F4_MAP2(f4_gt, a.v[i] > b.v[i] ? 1.0f : 0.0f)
TB_F4_MAP2(f4_and, (a.v[i] != 0.0f && b.v[i] != 0.0f) ? 1.0f : 0.0f)
static inline tb_f4 f4_neg(tb_f4 a)
{
	for (int i = 0; i < 4; ++i) a.v[i] = -a.v[i];
	return a;
}
static inline tb_f4 f4_select(tb_f4 mask, tb_f4 a, tb_f4 b)
{
	for (int i = 0; i < 4; ++i) a.v[i] = mask.v[i] != 0.0f ? b.v[i] : a.v[i];
	return a;
}

#endif

/* The lanes of four body states: linear and angular velocity, flags, and dp, dq. */
typedef struct tb_wide_body {
	tb_f4 vx, vy, angular_velocity, flags;
	tb_f4 dpx, dpy, qc, qs;
} tb_wide_body;

_Static_assert(sizeof(tb_body_state) == 8 * sizeof(float), "tb_body_state is read as eight floats");
_Static_assert(offsetof(tb_body_state, angular_velocity) == 2 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(offsetof(tb_body_state, flags) == 3 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(offsetof(tb_body_state, dp) == 4 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(offsetof(tb_body_state, dq) == 6 * sizeof(float), "v, angular velocity, flags, dp, dq");

static inline const float *state_floats(const tb_body_state *states, int32_t index)
{
	/* immovable bodies read as the identity state and are never written */
	return (const float *)(index >= 0 ? states + index : &tb_identity_body_state);
}

#if TB_WIDE_SSE2

static inline void gather_bodies(tb_wide_body *b, const tb_body_state *states, const int32_t index[4])
{
	const float *p0 = state_floats(states, index[0]), *p1 = state_floats(states, index[1]);
	const float *p2 = state_floats(states, index[2]), *p3 = state_floats(states, index[3]);
	/* a body state is 32 bytes: two rows each, transposed into lanes */
	__m128 r0 = _mm_loadu_ps(p0), r1 = _mm_loadu_ps(p1), r2 = _mm_loadu_ps(p2), r3 = _mm_loadu_ps(p3);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	b->vx = r0;
	b->vy = r1;
	b->angular_velocity = r2;
	b->flags = r3;
	r0 = _mm_loadu_ps(p0 + 4);
	r1 = _mm_loadu_ps(p1 + 4);
	r2 = _mm_loadu_ps(p2 + 4);
	r3 = _mm_loadu_ps(p3 + 4);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	b->dpx = r0;
	b->dpy = r1;
	b->qc = r2;
	b->qs = r3;
}

/* Only velocities change while solving; flags ride along bit for bit (shuffles never touch the bits). */
static inline void scatter_bodies(tb_body_state *states, const int32_t index[4], const tb_wide_body *b)
{
	__m128 r0 = b->vx, r1 = b->vy, r2 = b->angular_velocity, r3 = b->flags;
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	if (index[0] >= 0) _mm_storeu_ps((float *)(states + index[0]), r0);
	if (index[1] >= 0) _mm_storeu_ps((float *)(states + index[1]), r1);
	if (index[2] >= 0) _mm_storeu_ps((float *)(states + index[2]), r2);
	if (index[3] >= 0) _mm_storeu_ps((float *)(states + index[3]), r3);
}

#else

static inline void gather_bodies(tb_wide_body *b, const tb_body_state *states, const int32_t index[4])
{
	for (int i = 0; i < 4; ++i) {
		const tb_body_state *s = index[i] >= 0 ? states + index[i] : &tb_identity_body_state;
		b->vx.v[i] = s->linear_velocity.x;
		b->vy.v[i] = s->linear_velocity.y;
		b->angular_velocity.v[i] = s->angular_velocity;
		b->flags.v[i] = 0.0f;
		b->dpx.v[i] = s->dp.x;
		b->dpy.v[i] = s->dp.y;
		b->qc.v[i] = s->dq.c;
		b->qs.v[i] = s->dq.s;
	}
}

static inline void scatter_bodies(tb_body_state *states, const int32_t index[4], const tb_wide_body *b)
{
	for (int i = 0; i < 4; ++i) {
		if (index[i] < 0) continue;
		tb_body_state *s = states + index[i];
		s->linear_velocity.x = b->vx.v[i];
		s->linear_velocity.y = b->vy.v[i];
		s->angular_velocity = b->angular_velocity.v[i];
	}
}

#endif

void tb_prepare_contact_block(tb_contact_block *blk, const tb_contact_constraint *constraints,
                              const int32_t *indices, int32_t count)
{
	TB_ASSERT(((uintptr_t)blk & 15u) == 0);
	memset(blk, 0, sizeof *blk);
	for (int i = 0; i < 4; ++i) {
		if (i >= count) {
			blk->state_a[i] = blk->state_b[i] = blk->constraint[i] = TB_NULL_INDEX;
			continue;
		}
		int32_t k = indices[i];
		const tb_contact_constraint *cc = constraints + k;
		blk->state_a[i] = cc->state_a;
		blk->state_b[i] = cc->state_b;
		blk->constraint[i] = k;
		blk->normal_x[i] = cc->normal.x;
		blk->normal_y[i] = cc->normal.y;
		blk->inv_mass_a[i] = cc->inv_mass_a;
		blk->inv_i_a[i] = cc->inv_i_a;
		blk->inv_mass_b[i] = cc->inv_mass_b;
		blk->inv_i_b[i] = cc->inv_i_b;
		blk->friction[i] = cc->friction;
		blk->restitution[i] = cc->restitution;
		blk->push_max[i] = cc->push_max;
		blk->bias_rate[i] = cc->softness.bias_rate;
		blk->mass_scale[i] = cc->softness.mass_scale;
		blk->impulse_scale[i] = cc->softness.impulse_scale;
		for (int j = 0; j < cc->point_count; ++j) {
			const tb_constraint_point *cp = cc->points + j;
			tb_block_point *bp = blk->points + j;
			bp->anchor_ax[i] = cp->anchor_a.x;
			bp->anchor_ay[i] = cp->anchor_a.y;
			bp->anchor_bx[i] = cp->anchor_b.x;
			bp->anchor_by[i] = cp->anchor_b.y;
			bp->base_separation[i] = cp->base_separation;
			bp->relative_velocity[i] = cp->relative_velocity;
			bp->normal_impulse[i] = cp->normal_impulse;
			bp->tangent_impulse[i] = cp->tangent_impulse;
			bp->max_normal_impulse[i] = cp->max_normal_impulse;
			bp->normal_mass[i] = cp->normal_mass;
			bp->tangent_mass[i] = cp->tangent_mass;
		}
	}
}

void tb_prepare_contacts_wide(tb_world *w)
{
	tb_constraint_graph *g = &w->graph;
	int32_t block_count = 0;
	for (int c = 0; c < TB_GRAPH_COLOR_COUNT; ++c) {
		g->block_start[c] = block_count;
		block_count += (g->color_start[c + 1] - g->color_start[c] + 3) / 4;
	}
	g->block_start[TB_GRAPH_COLOR_COUNT] = block_count;
	/* reserved with the contact slots (tb_graph_block_bound) */
	TB_ASSERT(block_count <= g->blocks.capacity);
	g->blocks.count = block_count;

	for (int c = 0; c < TB_GRAPH_COLOR_COUNT; ++c) {
		int32_t first = g->color_start[c], end = g->color_start[c + 1];
		for (int32_t bi = g->block_start[c]; bi < g->block_start[c + 1]; ++bi) {
			int32_t slot = first + 4 * (bi - g->block_start[c]);
			tb_prepare_contact_block(g->blocks.data + bi, w->constraints.data, g->order.data + slot,
			                         tb_mini(4, end - slot));
		}
	}
}

static const int32_t *overflow_list(const tb_constraint_graph *g, int32_t *count)
{
	*count = g->color_start[TB_OVERFLOW_COLOR + 1] - g->color_start[TB_OVERFLOW_COLOR];
	return g->order.data + g->color_start[TB_OVERFLOW_COLOR];
}

/* The block solvers are inlined into the drivers below by force: with the
 * exported wrappers as second callers GCC kept them out of line, which cost
 * 1.7% of the solve. */
#if defined(__GNUC__)
#define TB_FORCE_INLINE static inline __attribute__((always_inline))
#else
#define TB_FORCE_INLINE static inline
#endif

TB_FORCE_INLINE void warm_start_block(tb_contact_block *blk, tb_body_state *states)
{
	tb_wide_body a, b;
	gather_bodies(&a, states, blk->state_a);
	gather_bodies(&b, states, blk->state_b);
	tb_f4 nx = f4_load(blk->normal_x), ny = f4_load(blk->normal_y);
	tb_f4 tx = ny, ty = f4_neg(nx);
	tb_f4 ma = f4_load(blk->inv_mass_a), ia = f4_load(blk->inv_i_a);
	tb_f4 mb = f4_load(blk->inv_mass_b), ib = f4_load(blk->inv_i_b);
	for (int j = 0; j < 2; ++j) {
		const tb_block_point *bp = blk->points + j;
		tb_f4 rax = f4_load(bp->anchor_ax), ray = f4_load(bp->anchor_ay);
		tb_f4 rbx = f4_load(bp->anchor_bx), rby = f4_load(bp->anchor_by);
		tb_f4 ni = f4_load(bp->normal_impulse), ti = f4_load(bp->tangent_impulse);
		tb_f4 px = f4_add(f4_mul(ni, nx), f4_mul(ti, tx));
		tb_f4 py = f4_add(f4_mul(ni, ny), f4_mul(ti, ty));
		a.angular_velocity = f4_sub(a.angular_velocity, f4_mul(ia, f4_sub(f4_mul(rax, py), f4_mul(ray, px))));
		a.vx = f4_sub(a.vx, f4_mul(ma, px));
		a.vy = f4_sub(a.vy, f4_mul(ma, py));
		b.angular_velocity = f4_add(b.angular_velocity, f4_mul(ib, f4_sub(f4_mul(rbx, py), f4_mul(rby, px))));
		b.vx = f4_add(b.vx, f4_mul(mb, px));
		b.vy = f4_add(b.vy, f4_mul(mb, py));
	}
	scatter_bodies(states, blk->state_a, &a);
	scatter_bodies(states, blk->state_b, &b);
}

typedef struct wide_params {
	tb_f4 inv_h, slop, neg_threshold, zero, one;
	bool use_bias, correct;
} wide_params;

TB_FORCE_INLINE void solve_block(tb_contact_block *blk, tb_body_state *states, const wide_params *wp)
{
	tb_wide_body a, b;
	gather_bodies(&a, states, blk->state_a);
	gather_bodies(&b, states, blk->state_b);
	tb_f4 zero = wp->zero, one = wp->one;
	tb_f4 nx = f4_load(blk->normal_x), ny = f4_load(blk->normal_y);
	tb_f4 ma = f4_load(blk->inv_mass_a), ia = f4_load(blk->inv_i_a);
	tb_f4 mb = f4_load(blk->inv_mass_b), ib = f4_load(blk->inv_i_b);
	tb_f4 dpx = f4_sub(b.dpx, a.dpx), dpy = f4_sub(b.dpy, a.dpy);

	/* soft bias terms are the same for both points */
	tb_f4 bias_rate = zero, soft_mass = one, soft_impulse = zero, neg_push = zero;
	bool soft = wp->use_bias && wp->correct;
	if (soft) {
		bias_rate = f4_load(blk->bias_rate);
		soft_mass = f4_load(blk->mass_scale);
		soft_impulse = f4_load(blk->impulse_scale);
		neg_push = f4_neg(f4_load(blk->push_max));
	}
	tb_f4 restitution = f4_load(blk->restitution);
	tb_f4 can_bounce = wp->use_bias ? zero : f4_gt(restitution, zero);

	for (int j = 0; j < 2; ++j) {
		tb_block_point *bp = blk->points + j;
		tb_f4 rax = f4_load(bp->anchor_ax), ray = f4_load(bp->anchor_ay);
		tb_f4 rbx = f4_load(bp->anchor_bx), rby = f4_load(bp->anchor_by);
		/* current separation: see tb_solve_contact_list for the clamped rotation term */
		tb_f4 prdx = f4_sub(f4_sub(f4_mul(b.qc, rbx), f4_mul(b.qs, rby)), f4_sub(f4_mul(a.qc, rax), f4_mul(a.qs, ray)));
		tb_f4 prdy = f4_sub(f4_add(f4_mul(b.qs, rbx), f4_mul(b.qc, rby)), f4_add(f4_mul(a.qs, rax), f4_mul(a.qc, ray)));
		tb_f4 drx = f4_sub(rbx, rax), dry = f4_sub(rby, ray);
		tb_f4 rot_term = f4_min(f4_add(f4_mul(f4_sub(prdx, drx), nx), f4_mul(f4_sub(prdy, dry), ny)), zero);
		tb_f4 s = f4_add(f4_add(f4_add(f4_mul(f4_add(dpx, drx), nx), f4_mul(f4_add(dpy, dry), ny)), rot_term),
		                 f4_load(bp->base_separation));

		tb_f4 speculative = f4_gt(s, zero);
		tb_f4 bias = f4_mul(s, wp->inv_h), mass_scale = one, impulse_scale = zero;
		if (soft) {
			bias = f4_select(speculative, f4_max(f4_mul(bias_rate, s), neg_push), bias);
			mass_scale = f4_select(speculative, soft_mass, one);
			impulse_scale = f4_select(speculative, soft_impulse, zero);
		} else {
			bias = f4_select(speculative, zero, bias);
		}
		tb_f4 relative_velocity = f4_load(bp->relative_velocity);
		tb_f4 near = one;
		if (!wp->use_bias) {
			near = f4_lt(s, wp->slop);
			tb_f4 bounce = f4_and(f4_and(can_bounce, near), f4_lt(relative_velocity, wp->neg_threshold));
			bias = f4_select(bounce, bias, f4_min(bias, f4_mul(restitution, relative_velocity)));
		}

		tb_f4 dvax = f4_sub(a.vx, f4_mul(a.angular_velocity, ray)), dvay = f4_add(a.vy, f4_mul(a.angular_velocity, rax));
		tb_f4 dvbx = f4_sub(b.vx, f4_mul(b.angular_velocity, rby)), dvby = f4_add(b.vy, f4_mul(b.angular_velocity, rbx));
		tb_f4 vn = f4_add(f4_mul(f4_sub(dvbx, dvax), nx), f4_mul(f4_sub(dvby, dvay), ny));
		tb_f4 old_impulse = f4_load(bp->normal_impulse);
		tb_f4 impulse = f4_sub(f4_mul(f4_mul(f4_neg(f4_load(bp->normal_mass)), mass_scale), f4_add(vn, bias)),
		                       f4_mul(impulse_scale, old_impulse));
		/* relaxing, points clearly apart are idle (see tb_solve_contact_list) */
		if (!wp->use_bias) impulse = f4_select(near, zero, impulse);
		tb_f4 new_impulse = f4_max(f4_add(old_impulse, impulse), zero);
		impulse = f4_sub(new_impulse, old_impulse);
		f4_store(bp->normal_impulse, new_impulse);
		f4_store(bp->max_normal_impulse, f4_max(f4_load(bp->max_normal_impulse), impulse));

		tb_f4 px = f4_mul(impulse, nx), py = f4_mul(impulse, ny);
		a.vx = f4_sub(a.vx, f4_mul(ma, px));
		a.vy = f4_sub(a.vy, f4_mul(ma, py));
		a.angular_velocity = f4_sub(a.angular_velocity, f4_mul(ia, f4_sub(f4_mul(rax, py), f4_mul(ray, px))));
		b.vx = f4_add(b.vx, f4_mul(mb, px));
		b.vy = f4_add(b.vy, f4_mul(mb, py));
		b.angular_velocity = f4_add(b.angular_velocity, f4_mul(ib, f4_sub(f4_mul(rbx, py), f4_mul(rby, px))));
	}

	tb_f4 tx = ny, ty = f4_neg(nx);
	tb_f4 friction = f4_load(blk->friction);
	for (int j = 0; j < 2; ++j) {
		tb_block_point *bp = blk->points + j;
		tb_f4 rax = f4_load(bp->anchor_ax), ray = f4_load(bp->anchor_ay);
		tb_f4 rbx = f4_load(bp->anchor_bx), rby = f4_load(bp->anchor_by);
		tb_f4 dvax = f4_sub(a.vx, f4_mul(a.angular_velocity, ray)), dvay = f4_add(a.vy, f4_mul(a.angular_velocity, rax));
		tb_f4 dvbx = f4_sub(b.vx, f4_mul(b.angular_velocity, rby)), dvby = f4_add(b.vy, f4_mul(b.angular_velocity, rbx));
		tb_f4 vt = f4_add(f4_mul(f4_sub(dvbx, dvax), tx), f4_mul(f4_sub(dvby, dvay), ty));
		tb_f4 impulse = f4_mul(f4_neg(f4_load(bp->tangent_mass)), vt);
		tb_f4 max_friction = f4_mul(friction, f4_load(bp->normal_impulse));
		tb_f4 old_impulse = f4_load(bp->tangent_impulse);
		tb_f4 new_impulse = f4_add(old_impulse, impulse);
		/* tb_clampf: below -max takes -max, above max takes max */
		new_impulse = f4_select(f4_lt(new_impulse, f4_neg(max_friction)),
		                        f4_select(f4_gt(new_impulse, max_friction), new_impulse, max_friction),
		                        f4_neg(max_friction));
		impulse = f4_sub(new_impulse, old_impulse);
		f4_store(bp->tangent_impulse, new_impulse);

		tb_f4 px = f4_mul(impulse, tx), py = f4_mul(impulse, ty);
		a.vx = f4_sub(a.vx, f4_mul(ma, px));
		a.vy = f4_sub(a.vy, f4_mul(ma, py));
		a.angular_velocity = f4_sub(a.angular_velocity, f4_mul(ia, f4_sub(f4_mul(rax, py), f4_mul(ray, px))));
		b.vx = f4_add(b.vx, f4_mul(mb, px));
		b.vy = f4_add(b.vy, f4_mul(mb, py));
		b.angular_velocity = f4_add(b.angular_velocity, f4_mul(ib, f4_sub(f4_mul(rbx, py), f4_mul(rby, px))));
	}

	scatter_bodies(states, blk->state_a, &a);
	scatter_bodies(states, blk->state_b, &b);
}

static wide_params make_params(const tb_step_context *ctx, bool use_bias)
{
	wide_params wp;
	wp.inv_h = f4_splat(ctx->inv_h);
	wp.slop = f4_splat(TB_LINEAR_SLOP);
	wp.neg_threshold = f4_splat(-ctx->restitution_threshold);
	wp.zero = f4_zero();
	wp.one = f4_splat(1.0f);
	wp.use_bias = use_bias;
	wp.correct = ctx->enable_position_correction;
	return wp;
}

/* The exported entry points wrap the static solvers, which the drivers below
 * call directly (an exported function, in a -fPIC build, is not inlined). */
void tb_warm_start_contact_block(tb_contact_block *blk, tb_body_state *states) { warm_start_block(blk, states); }

void tb_solve_contact_block(tb_contact_block *blk, tb_body_state *states, const tb_step_context *ctx, bool use_bias)
{
	wide_params wp = make_params(ctx, use_bias);
	solve_block(blk, states, &wp);
}

void tb_store_contact_block(const tb_contact_block *blk, tb_contact_constraint *constraints)
{
	for (int i = 0; i < 4; ++i) {
		if (blk->constraint[i] < 0) continue;
		tb_contact_constraint *cc = constraints + blk->constraint[i];
		for (int j = 0; j < cc->point_count; ++j) {
			const tb_block_point *bp = blk->points + j;
			tb_constraint_point *cp = cc->points + j;
			cp->normal_impulse = bp->normal_impulse[i];
			cp->tangent_impulse = bp->tangent_impulse[i];
			cp->max_normal_impulse = bp->max_normal_impulse[i];
		}
	}
}

void tb_warm_start_contacts_wide(tb_world *w, tb_step_context *ctx)
{
	tb_constraint_graph *g = &w->graph;
	int32_t overflow_count;
	const int32_t *overflow = overflow_list(g, &overflow_count);
	tb_warm_start_contact_list(w->constraints.data, overflow, overflow_count, ctx->states);
	int32_t block_count = g->block_start[TB_GRAPH_COLOR_COUNT];
	for (int32_t k = 0; k < block_count; ++k) warm_start_block(g->blocks.data + k, ctx->states);
}

void tb_solve_contacts_wide(tb_world *w, tb_step_context *ctx, bool use_bias)
{
	tb_constraint_graph *g = &w->graph;
	wide_params wp = make_params(ctx, use_bias);

	/* the whole sequence (overflow, then colours in order) runs reversed on odd substeps */
	bool backward = (ctx->substep_index & 1) != 0;
	int32_t overflow_count;
	const int32_t *overflow = overflow_list(g, &overflow_count);
	if (!backward)
		tb_solve_contact_list(w->constraints.data, overflow, overflow_count, ctx->states, ctx, use_bias, false);
	for (int cc = 0; cc < TB_GRAPH_COLOR_COUNT; ++cc) {
		int c = backward ? TB_GRAPH_COLOR_COUNT - 1 - cc : cc;
		for (int32_t k = g->block_start[c]; k < g->block_start[c + 1]; ++k)
			solve_block(g->blocks.data + k, ctx->states, &wp);
	}
	if (backward) tb_solve_contact_list(w->constraints.data, overflow, overflow_count, ctx->states, ctx, use_bias, true);
}

void tb_store_impulses_wide(tb_world *w)
{
	tb_constraint_graph *g = &w->graph;
	int32_t block_count = g->block_start[TB_GRAPH_COLOR_COUNT];
	for (int32_t k = 0; k < block_count; ++k) tb_store_contact_block(g->blocks.data + k, w->constraints.data);
}
