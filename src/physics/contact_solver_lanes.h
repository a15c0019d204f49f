/* tumble physics: the wide contact solver's maths, written once for every lane
 * width (engine-private, included by the solver_kernels_*.c files only).
 *
 * A kernel file defines, then includes this header:
 *   LANES              how many lanes one vector holds (1, 4, 8 or 16)
 *   BLOCKS_PER_VECTOR  how many blocks of a colour one vector holds:
 *                      1: a block's lanes take TB_BLOCK_LANES / LANES vectors;
 *                      2: LANES is 2 * TB_BLOCK_LANES, and every load, store,
 *                      gather and scatter at a block's field reaches the same
 *                      field of the next block for the upper half. Two
 *                      neighbouring blocks of a colour with no surface record
 *                      go in one vector; the others, and the pins, go one
 *                      block at a time through ONE_BLOCK(), a path's table.
 *   wv                 the vector type, masks included
 *   wv_load(p), wv_store(p, a), wv_splat(s), wv_zero()
 *   wv_add, wv_sub, wv_mul, wv_min, wv_max   (min and max as tb_minf/tb_maxf:
 *                      a < b ? a : b, a > b ? a : b; the second operand on ties)
 *   wv_neg(a), wv_lt(a, b), wv_gt(a, b), wv_and(m, n), wv_select(m, a, b) (m ? b : a)
 *   wv_div, wv_eq      (for the pins, joint_solver_lanes.h)
 *   KERNEL(wide_body)  a struct of eight wv: vx, vy, angular_velocity, flags,
 *                      dpx, dpy, qc, qs (the lanes of LANES body states)
 *   gather_bodies(KERNEL(wide_body) *, states, const int32_t index[LANES])
 *   scatter_bodies(states, const int32_t index[LANES], const KERNEL(wide_body) *)
 *   KERNEL(name)       the name of this width's copy of `name`
 * and gets KERNEL(warm_start_blocks) and KERNEL(solve_blocks), which run every
 * block of a range; then includes joint_solver_lanes.h, which adds the pins'
 * KERNEL(pin_warm_start_blocks) and KERNEL(pin_solve_blocks), and fills its
 * table (solver_kernels.h) with the four.
 *
 * Only adds, multiplies, compares and min/max, each rounding as the scalar
 * solver in contact_solver.c does (no fused multiply-add: -ffp-contract=off,
 * and the AVX2 file is built without -mfma), and no lane ever reads another:
 * the constraints of one colour share no body, so every width computes every
 * number bit for bit as the scalar solver would. Keep the two in step;
 * tests/physics/test_contact_solver.c holds them to it. */

typedef struct KERNEL(params) {
	wv inv_h, slop, neg_threshold, zero, one;
	/* the step's springs: between two moving bodies, and against an immovable one */
	wv bias_rate, mass_scale, impulse_scale, fixed_bias_rate, fixed_mass_scale, fixed_impulse_scale;
} KERNEL(params);

/* One vector's worth of a block: lanes [lane, lane + LANES). `surface` is the
 * block's conveyor, rolling resistance and bounce record, or NULL: each caller passes
 * NULL or not at every call, so the plain block solver is compiled apart from
 * the surface one. */
static inline void KERNEL(warm_start)(tb_contact_block *blk, const tb_block_surface *surface, int lane,
                                      tb_body_state *states)
{
	KERNEL(wide_body) a, b;
	gather_bodies(&a, states, blk->state_a + lane);
	gather_bodies(&b, states, blk->state_b + lane);
	wv nx = wv_load(blk->normal_x + lane), ny = wv_load(blk->normal_y + lane);
	wv tx = ny, ty = wv_neg(nx);
	wv ma = wv_load(blk->inv_mass_a + lane), ia = wv_load(blk->inv_i_a + lane);
	wv mb = wv_load(blk->inv_mass_b + lane), ib = wv_load(blk->inv_i_b + lane);
	for (int j = 0; j < 2; ++j) {
		const tb_block_point *bp = blk->points + j;
		wv rax = wv_load(bp->anchor_ax + lane), ray = wv_load(bp->anchor_ay + lane);
		wv rbx = wv_load(bp->anchor_bx + lane), rby = wv_load(bp->anchor_by + lane);
		wv ni = wv_load(bp->normal_impulse + lane), ti = wv_load(bp->tangent_impulse + lane);
		wv px = wv_add(wv_mul(ni, nx), wv_mul(ti, tx));
		wv py = wv_add(wv_mul(ni, ny), wv_mul(ti, ty));
		a.angular_velocity = wv_sub(a.angular_velocity, wv_mul(ia, wv_sub(wv_mul(rax, py), wv_mul(ray, px))));
		a.vx = wv_sub(a.vx, wv_mul(ma, px));
		a.vy = wv_sub(a.vy, wv_mul(ma, py));
		b.angular_velocity = wv_add(b.angular_velocity, wv_mul(ib, wv_sub(wv_mul(rbx, py), wv_mul(rby, px))));
		b.vx = wv_add(b.vx, wv_mul(mb, px));
		b.vy = wv_add(b.vy, wv_mul(mb, py));
	}
	if (surface != NULL) {
		/* only the lanes with rolling resistance, as the scalar solver's branch */
		wv rolling = wv_gt(wv_load(surface->rolling_resistance + lane), wv_zero());
		wv ri = wv_load(surface->rolling_impulse + lane);
		a.angular_velocity = wv_select(rolling, a.angular_velocity, wv_sub(a.angular_velocity, wv_mul(ia, ri)));
		b.angular_velocity = wv_select(rolling, b.angular_velocity, wv_add(b.angular_velocity, wv_mul(ib, ri)));
	}
	scatter_bodies(states, blk->state_a + lane, &a);
	scatter_bodies(states, blk->state_b + lane, &b);
}

/* soft: the solve with the soft bias (position correction on); relax: the
 * relax, which bounces. Each is a constant where it is called
 * (KERNEL(solve_range)), so every variant is compiled apart without the
 * other's branches and registers. */
static inline __attribute__((always_inline)) void KERNEL(solve)(tb_contact_block *blk, tb_block_surface *surface,
                                                                int lane, tb_body_state *states,
                                                                const KERNEL(params) *wp, bool soft, bool relax)
{
	KERNEL(wide_body) a, b;
	gather_bodies(&a, states, blk->state_a + lane);
	gather_bodies(&b, states, blk->state_b + lane);
	wv zero = wp->zero, one = wp->one;
	wv nx = wv_load(blk->normal_x + lane), ny = wv_load(blk->normal_y + lane);
	wv ma = wv_load(blk->inv_mass_a + lane), ia = wv_load(blk->inv_i_a + lane);
	wv mb = wv_load(blk->inv_mass_b + lane), ib = wv_load(blk->inv_i_b + lane);
	wv dpx = wv_sub(b.dpx, a.dpx), dpy = wv_sub(b.dpy, a.dpy);

	/* soft bias terms are the same for both points */
	wv bias_rate = zero, soft_mass = one, soft_impulse = zero, neg_push = zero;
	if (soft) {
		/* tb_contact_softness: the stiffer spring where a side has no mass */
		wv fixed_a = wv_eq(ma, zero);
		wv fixed = wv_select(fixed_a, wv_eq(mb, zero), fixed_a);
		bias_rate = wv_select(fixed, wp->bias_rate, wp->fixed_bias_rate);
		soft_mass = wv_select(fixed, wp->mass_scale, wp->fixed_mass_scale);
		soft_impulse = wv_select(fixed, wp->impulse_scale, wp->fixed_impulse_scale);
		neg_push = wv_neg(wv_load(blk->push_max + lane));
	}
	/* only the relax bounces, and only lanes with restitution, which have a
	 * surface record: a plain block would select the bias it has in every lane */
	bool bounce_lanes = relax && surface != NULL;
	wv restitution = bounce_lanes ? wv_load(surface->restitution + lane) : zero;
	wv can_bounce = bounce_lanes ? wv_gt(restitution, zero) : zero;

	for (int j = 0; j < 2; ++j) {
		tb_block_point *bp = blk->points + j;
		wv rax = wv_load(bp->anchor_ax + lane), ray = wv_load(bp->anchor_ay + lane);
		wv rbx = wv_load(bp->anchor_bx + lane), rby = wv_load(bp->anchor_by + lane);
		/* current separation: see tb_solve_contact_list for the clamped rotation term */
		wv prdx = wv_sub(wv_sub(wv_mul(b.qc, rbx), wv_mul(b.qs, rby)), wv_sub(wv_mul(a.qc, rax), wv_mul(a.qs, ray)));
		wv prdy = wv_sub(wv_add(wv_mul(b.qs, rbx), wv_mul(b.qc, rby)), wv_add(wv_mul(a.qs, rax), wv_mul(a.qc, ray)));
		wv drx = wv_sub(rbx, rax), dry = wv_sub(rby, ray);
		wv rot_term = wv_min(wv_add(wv_mul(wv_sub(prdx, drx), nx), wv_mul(wv_sub(prdy, dry), ny)), zero);
		wv s = wv_add(wv_add(wv_add(wv_mul(wv_add(dpx, drx), nx), wv_mul(wv_add(dpy, dry), ny)), rot_term),
		              wv_load(bp->base_separation + lane));

		wv speculative = wv_gt(s, zero);
		wv bias = wv_mul(s, wp->inv_h), mass_scale = one, impulse_scale = zero;
		if (soft) {
			bias = wv_select(speculative, wv_max(wv_mul(bias_rate, s), neg_push), bias);
			mass_scale = wv_select(speculative, soft_mass, one);
			impulse_scale = wv_select(speculative, soft_impulse, zero);
		} else {
			bias = wv_select(speculative, zero, bias);
		}
		if (bounce_lanes) {
			wv relative_velocity = wv_load(surface->relative_velocity[j] + lane);
			wv near = wv_lt(s, wp->slop);
			wv bounce = wv_and(wv_and(can_bounce, near), wv_lt(relative_velocity, wp->neg_threshold));
			bias = wv_select(bounce, bias, wv_min(bias, wv_mul(restitution, relative_velocity)));
		}

		wv dvax = wv_sub(a.vx, wv_mul(a.angular_velocity, ray)), dvay = wv_add(a.vy, wv_mul(a.angular_velocity, rax));
		wv dvbx = wv_sub(b.vx, wv_mul(b.angular_velocity, rby)), dvby = wv_add(b.vy, wv_mul(b.angular_velocity, rbx));
		wv vn = wv_add(wv_mul(wv_sub(dvbx, dvax), nx), wv_mul(wv_sub(dvby, dvay), ny));
		wv old_impulse = wv_load(bp->normal_impulse + lane);
		wv impulse = wv_sub(wv_mul(wv_mul(wv_neg(wv_load(bp->normal_mass + lane)), mass_scale), wv_add(vn, bias)),
		                    wv_mul(impulse_scale, old_impulse));
		wv new_impulse = wv_max(wv_add(old_impulse, impulse), zero);
		impulse = wv_sub(new_impulse, old_impulse);
		wv_store(bp->normal_impulse + lane, new_impulse);
		wv_store(bp->max_normal_impulse + lane, wv_max(wv_load(bp->max_normal_impulse + lane), impulse));

		wv px = wv_mul(impulse, nx), py = wv_mul(impulse, ny);
		a.vx = wv_sub(a.vx, wv_mul(ma, px));
		a.vy = wv_sub(a.vy, wv_mul(ma, py));
		a.angular_velocity = wv_sub(a.angular_velocity, wv_mul(ia, wv_sub(wv_mul(rax, py), wv_mul(ray, px))));
		b.vx = wv_add(b.vx, wv_mul(mb, px));
		b.vy = wv_add(b.vy, wv_mul(mb, py));
		b.angular_velocity = wv_add(b.angular_velocity, wv_mul(ib, wv_sub(wv_mul(rbx, py), wv_mul(rby, px))));
	}

	wv tx = ny, ty = wv_neg(nx);
	wv friction = wv_load(blk->friction + lane);
	/* a conveyor's surface moves: see tb_solve_contact_list (a zero speed is
	 * +0, which subtracts exactly, but a plain block skips even that) */
	wv tangent_speed = surface != NULL ? wv_load(surface->tangent_speed + lane) : zero;
	for (int j = 0; j < 2; ++j) {
		tb_block_point *bp = blk->points + j;
		wv rax = wv_load(bp->anchor_ax + lane), ray = wv_load(bp->anchor_ay + lane);
		wv rbx = wv_load(bp->anchor_bx + lane), rby = wv_load(bp->anchor_by + lane);
		wv dvax = wv_sub(a.vx, wv_mul(a.angular_velocity, ray)), dvay = wv_add(a.vy, wv_mul(a.angular_velocity, rax));
		wv dvbx = wv_sub(b.vx, wv_mul(b.angular_velocity, rby)), dvby = wv_add(b.vy, wv_mul(b.angular_velocity, rbx));
		wv vt = wv_add(wv_mul(wv_sub(dvbx, dvax), tx), wv_mul(wv_sub(dvby, dvay), ty));
		if (surface != NULL) vt = wv_sub(vt, tangent_speed);
		wv impulse = wv_mul(wv_neg(wv_load(bp->tangent_mass + lane)), vt);
		wv max_friction = wv_mul(friction, wv_load(bp->normal_impulse + lane));
		wv old_impulse = wv_load(bp->tangent_impulse + lane);
		wv new_impulse = wv_add(old_impulse, impulse);
		/* tb_clampf: below -max takes -max, above max takes max */
		new_impulse = wv_select(wv_lt(new_impulse, wv_neg(max_friction)),
		                        wv_select(wv_gt(new_impulse, max_friction), new_impulse, max_friction),
		                        wv_neg(max_friction));
		impulse = wv_sub(new_impulse, old_impulse);
		wv_store(bp->tangent_impulse + lane, new_impulse);

		wv px = wv_mul(impulse, tx), py = wv_mul(impulse, ty);
		a.vx = wv_sub(a.vx, wv_mul(ma, px));
		a.vy = wv_sub(a.vy, wv_mul(ma, py));
		a.angular_velocity = wv_sub(a.angular_velocity, wv_mul(ia, wv_sub(wv_mul(rax, py), wv_mul(ray, px))));
		b.vx = wv_add(b.vx, wv_mul(mb, px));
		b.vy = wv_add(b.vy, wv_mul(mb, py));
		b.angular_velocity = wv_add(b.angular_velocity, wv_mul(ib, wv_sub(wv_mul(rbx, py), wv_mul(rby, px))));
	}

	if (surface != NULL) {
		/* rolling resistance, only in the lanes that have it (the scalar solver's branch) */
		wv resistance = wv_load(surface->rolling_resistance + lane);
		wv rolling = wv_gt(resistance, zero);
		wv total_normal = wv_add(wv_load(blk->points[0].normal_impulse + lane),
		                         wv_load(blk->points[1].normal_impulse + lane));
		wv max_rolling = wv_mul(resistance, total_normal);
		wv old_impulse = wv_load(surface->rolling_impulse + lane);
		wv new_impulse = wv_sub(old_impulse, wv_mul(wv_load(surface->rolling_mass + lane),
		                                            wv_sub(b.angular_velocity, a.angular_velocity)));
		new_impulse = wv_select(wv_lt(new_impulse, wv_neg(max_rolling)),
		                        wv_select(wv_gt(new_impulse, max_rolling), new_impulse, max_rolling),
		                        wv_neg(max_rolling));
		wv impulse = wv_sub(new_impulse, old_impulse);
		wv_store(surface->rolling_impulse + lane, wv_select(rolling, old_impulse, new_impulse));
		a.angular_velocity = wv_select(rolling, a.angular_velocity, wv_sub(a.angular_velocity, wv_mul(ia, impulse)));
		b.angular_velocity = wv_select(rolling, b.angular_velocity, wv_add(b.angular_velocity, wv_mul(ib, impulse)));
	}

	scatter_bodies(states, blk->state_a + lane, &a);
	scatter_bodies(states, blk->state_b + lane, &b);
}

static inline void KERNEL(set_params)(KERNEL(params) *wp, const tb_step_context *ctx)
{
	wp->inv_h = wv_splat(ctx->inv_h);
	wp->slop = wv_splat(TB_LINEAR_SLOP);
	wp->neg_threshold = wv_splat(-ctx->restitution_threshold);
	wp->zero = wv_zero();
	wp->one = wv_splat(1.0f);
	wp->bias_rate = wv_splat(ctx->contact_softness.bias_rate);
	wp->mass_scale = wv_splat(ctx->contact_softness.mass_scale);
	wp->impulse_scale = wv_splat(ctx->contact_softness.impulse_scale);
	wp->fixed_bias_rate = wv_splat(ctx->static_softness.bias_rate);
	wp->fixed_mass_scale = wv_splat(ctx->static_softness.mass_scale);
	wp->fixed_impulse_scale = wv_splat(ctx->static_softness.impulse_scale);
}

#if BLOCKS_PER_VECTOR == 1
/* A block's lanes in vectors, skipping the vectors past its last used lane. A
 * step without surfaces (surfaces NULL) does not look at the blocks' indices. */
static void KERNEL(warm_start_blocks)(tb_contact_block *blocks, int32_t count, const tb_block_surface *surfaces,
                                      tb_body_state *states)
{
	for (int32_t k = 0; k < count; ++k) {
		tb_contact_block *blk = blocks + k;
		if (surfaces == NULL || blk->surface < 0) {
			for (int lane = 0; lane < blk->lane_count; lane += LANES) KERNEL(warm_start)(blk, NULL, lane, states);
		} else {
			const tb_block_surface *s = surfaces + blk->surface;
			for (int lane = 0; lane < blk->lane_count; lane += LANES) KERNEL(warm_start)(blk, s, lane, states);
		}
	}
}

static inline __attribute__((always_inline)) void KERNEL(solve_range)(tb_contact_block *blocks, int32_t count,
                                                                      tb_block_surface *surfaces, tb_body_state *states,
                                                                      const tb_step_context *ctx, bool use_bias,
                                                                      const KERNEL(params) *wp, bool soft, bool relax)
{
	for (int32_t k = 0; k < count; ++k) {
		tb_contact_block *blk = blocks + k;
		if (surfaces == NULL || blk->surface < 0) {
			for (int lane = 0; lane < blk->lane_count; lane += LANES)
				KERNEL(solve)(blk, NULL, lane, states, wp, soft, relax);
		} else {
			tb_block_surface *s = surfaces + blk->surface;
			for (int lane = 0; lane < blk->lane_count; lane += LANES)
				KERNEL(solve)(blk, s, lane, states, wp, soft, relax);
		}
	}
}

#elif BLOCKS_PER_VECTOR == 2
_Static_assert(LANES == 2 * TB_BLOCK_LANES, "two blocks fill a vector");

/* Two blocks go in one vector when neither has a surface record (the plain
 * solver has no surface lanes to select). */
static inline bool KERNEL(plain_pair)(const tb_contact_block *blk, const tb_block_surface *surfaces)
{
	return surfaces == NULL || (blk[0].surface < 0 && blk[1].surface < 0);
}

static void KERNEL(warm_start_blocks)(tb_contact_block *blocks, int32_t count, const tb_block_surface *surfaces,
                                      tb_body_state *states)
{
	const tb_solver_kernels *single = ONE_BLOCK();
	int32_t k = 0;
	while (k < count) {
		if (k + 1 < count && KERNEL(plain_pair)(blocks + k, surfaces)) {
			KERNEL(warm_start)(blocks + k, NULL, 0, states);
			k += 2;
		} else {
			single->warm_start(blocks + k, 1, surfaces, states);
			k += 1;
		}
	}
}

static inline __attribute__((always_inline)) void KERNEL(solve_range)(tb_contact_block *blocks, int32_t count,
                                                                      tb_block_surface *surfaces, tb_body_state *states,
                                                                      const tb_step_context *ctx, bool use_bias,
                                                                      const KERNEL(params) *wp, bool soft, bool relax)
{
	const tb_solver_kernels *single = ONE_BLOCK();
	int32_t k = 0;
	while (k < count) {
		if (k + 1 < count && KERNEL(plain_pair)(blocks + k, surfaces)) {
			KERNEL(solve)(blocks + k, NULL, 0, states, wp, soft, relax);
			k += 2;
		} else {
			single->solve(blocks + k, 1, surfaces, states, ctx, use_bias);
			k += 1;
		}
	}
}

#else
#error "BLOCKS_PER_VECTOR is 1 or 2"
#endif

static void KERNEL(solve_blocks)(tb_contact_block *blocks, int32_t count, tb_block_surface *surfaces,
                                 tb_body_state *states, const tb_step_context *ctx, bool use_bias)
{
	KERNEL(params) wp;
	KERNEL(set_params)(&wp, ctx);
	if (!use_bias) KERNEL(solve_range)(blocks, count, surfaces, states, ctx, use_bias, &wp, false, true);
	else if (ctx->enable_position_correction)
		KERNEL(solve_range)(blocks, count, surfaces, states, ctx, use_bias, &wp, true, false);
	else KERNEL(solve_range)(blocks, count, surfaces, states, ctx, use_bias, &wp, false, false);
}


