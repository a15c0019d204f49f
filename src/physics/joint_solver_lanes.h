/* tumble physics: the pins' solver, written once for every lane width
 * (engine-private, included by the kernel files after contact_solver_lanes.h,
 * whose vector operations it uses, plus wv_div and wv_eq).
 *
 * A pin (joint.h) is the soft point constraint of tb_solve_point_in and the
 * warm start of tb_row_warm_start, computed here operation for operation as
 * there, on LANES pins at a time: the pins of one block share no awake body, so
 * every width gives the scalar rows' bits (tests/physics/test_determinism.c).
 * Keep the two in step.
 *
 * The pins come in blocks of every colour at once, so a path that takes two
 * blocks in a vector (BLOCKS_PER_VECTOR 2) cannot pair them: its pins go one
 * block at a time through ONE_BLOCK(). */

#if BLOCKS_PER_VECTOR == 1

/* The point frame at the bodies' rotations (tb_point_frame_at). */
static inline void KERNEL(pin_frame)(const tb_pin_block *blk, int lane, const KERNEL(wide_body) *a,
                                     const KERNEL(wide_body) *b, wv *rax, wv *ray, wv *rbx, wv *rby, wv *k11, wv *k12,
                                     wv *k22, wv *det)
{
	wv fax = wv_load(blk->frame_ax + lane), fay = wv_load(blk->frame_ay + lane);
	wv fbx = wv_load(blk->frame_bx + lane), fby = wv_load(blk->frame_by + lane);
	*rax = wv_sub(wv_mul(a->qc, fax), wv_mul(a->qs, fay));
	*ray = wv_add(wv_mul(a->qs, fax), wv_mul(a->qc, fay));
	*rbx = wv_sub(wv_mul(b->qc, fbx), wv_mul(b->qs, fby));
	*rby = wv_add(wv_mul(b->qs, fbx), wv_mul(b->qc, fby));
	wv ma = wv_load(blk->inv_mass_a + lane), mb = wv_load(blk->inv_mass_b + lane);
	wv ia = wv_load(blk->inv_i_a + lane), ib = wv_load(blk->inv_i_b + lane);
	wv m = wv_add(ma, mb);
	*k11 = wv_add(wv_add(m, wv_mul(wv_mul(*ray, *ray), ia)), wv_mul(wv_mul(*rby, *rby), ib));
	*k12 = wv_sub(wv_mul(wv_mul(wv_neg(*ray), *rax), ia), wv_mul(wv_mul(*rby, *rbx), ib));
	*k22 = wv_add(wv_add(m, wv_mul(wv_mul(*rax, *rax), ia)), wv_mul(wv_mul(*rbx, *rbx), ib));
	*det = wv_sub(wv_mul(*k11, *k22), wv_mul(*k12, *k12));
}

/* tb_apply_point_impulse with no angular part (l = 0, added as the scalar code adds it). */
static inline void KERNEL(pin_apply)(const tb_pin_block *blk, int lane, KERNEL(wide_body) *a, KERNEL(wide_body) *b,
                                     wv rax, wv ray, wv rbx, wv rby, wv px, wv py)
{
	wv zero = wv_zero();
	wv ma = wv_load(blk->inv_mass_a + lane), mb = wv_load(blk->inv_mass_b + lane);
	wv ia = wv_load(blk->inv_i_a + lane), ib = wv_load(blk->inv_i_b + lane);
	a->vx = wv_sub(a->vx, wv_mul(ma, px));
	a->vy = wv_sub(a->vy, wv_mul(ma, py));
	a->angular_velocity = wv_sub(a->angular_velocity, wv_mul(ia, wv_add(wv_sub(wv_mul(rax, py), wv_mul(ray, px)), zero)));
	b->vx = wv_add(b->vx, wv_mul(mb, px));
	b->vy = wv_add(b->vy, wv_mul(mb, py));
	b->angular_velocity = wv_add(b->angular_velocity, wv_mul(ib, wv_add(wv_sub(wv_mul(rbx, py), wv_mul(rby, px)), zero)));
}

static inline void KERNEL(pin_warm_start)(tb_pin_block *blk, int lane, tb_body_state *states, bool first_substep)
{
	KERNEL(wide_body) a, b;
	gather_bodies(&a, states, blk->state_a + lane);
	gather_bodies(&b, states, blk->state_b + lane);
	wv rax, ray, rbx, rby;
	if (first_substep) {
		/* tb_point_warm_start: the anchors turned by the rotations so far */
		wv fax = wv_load(blk->frame_ax + lane), fay = wv_load(blk->frame_ay + lane);
		wv fbx = wv_load(blk->frame_bx + lane), fby = wv_load(blk->frame_by + lane);
		rax = wv_sub(wv_mul(a.qc, fax), wv_mul(a.qs, fay));
		ray = wv_add(wv_mul(a.qs, fax), wv_mul(a.qc, fay));
		rbx = wv_sub(wv_mul(b.qc, fbx), wv_mul(b.qs, fby));
		rby = wv_add(wv_mul(b.qs, fbx), wv_mul(b.qc, fby));
	} else {
		/* the frame the last relax measured (tb_row_warm_start) */
		rax = wv_load(blk->rax + lane);
		ray = wv_load(blk->ray + lane);
		rbx = wv_load(blk->rbx + lane);
		rby = wv_load(blk->rby + lane);
	}
	KERNEL(pin_apply)(blk, lane, &a, &b, rax, ray, rbx, rby, wv_load(blk->impulse_x + lane), wv_load(blk->impulse_y + lane));
	scatter_bodies(states, blk->state_a + lane, &a);
	scatter_bodies(states, blk->state_b + lane, &b);
}

static inline void KERNEL(pin_solve)(tb_pin_block *blk, int lane, tb_body_state *states, const tb_step_context *ctx,
                                     bool use_bias)
{
	KERNEL(wide_body) a, b;
	gather_bodies(&a, states, blk->state_a + lane);
	gather_bodies(&b, states, blk->state_b + lane);
	wv zero = wv_zero();
	/* the frame: tb_row_frame */
	wv rax, ray, rbx, rby, k11, k12, k22, det;
	if (use_bias && ctx->substep_index > 0) {
		rax = wv_load(blk->rax + lane);
		ray = wv_load(blk->ray + lane);
		rbx = wv_load(blk->rbx + lane);
		rby = wv_load(blk->rby + lane);
		k11 = wv_load(blk->k11 + lane);
		k12 = wv_load(blk->k12 + lane);
		k22 = wv_load(blk->k22 + lane);
		det = wv_load(blk->det + lane);
	} else {
		KERNEL(pin_frame)(blk, lane, &a, &b, &rax, &ray, &rbx, &rby, &k11, &k12, &k22, &det);
		if (!use_bias) {
			wv_store(blk->rax + lane, rax);
			wv_store(blk->ray + lane, ray);
			wv_store(blk->rbx + lane, rbx);
			wv_store(blk->rby + lane, rby);
			wv_store(blk->k11 + lane, k11);
			wv_store(blk->k12 + lane, k12);
			wv_store(blk->k22 + lane, k22);
			wv_store(blk->det + lane, det);
		}
	}
	/* tb_solve_point_in */
	wv vax = wv_add(a.vx, wv_mul(wv_neg(a.angular_velocity), ray)), vay = wv_add(a.vy, wv_mul(a.angular_velocity, rax));
	wv vbx = wv_add(b.vx, wv_mul(wv_neg(b.angular_velocity), rby)), vby = wv_add(b.vy, wv_mul(b.angular_velocity, rbx));
	wv cdx = wv_sub(vbx, vax), cdy = wv_sub(vby, vay);
	wv bias_x = zero, bias_y = zero, mass_scale = wv_splat(1.0f), impulse_scale = zero;
	if (use_bias) {
		wv sx = wv_add(wv_add(wv_sub(b.dpx, a.dpx), wv_load(blk->delta_x + lane)), wv_sub(rbx, rax));
		wv sy = wv_add(wv_add(wv_sub(b.dpy, a.dpy), wv_load(blk->delta_y + lane)), wv_sub(rby, ray));
		wv rate = wv_splat(ctx->joint_softness.bias_rate);
		bias_x = wv_mul(rate, sx);
		bias_y = wv_mul(rate, sy);
		mass_scale = wv_splat(ctx->joint_softness.mass_scale);
		impulse_scale = wv_splat(ctx->joint_softness.impulse_scale);
	}
	wv rhs_x = wv_add(cdx, bias_x), rhs_y = wv_add(cdy, bias_y);
	/* a singular K gives zero (det == 0 takes zero, a NaN det gives NaN as the scalar code) */
	wv singular = wv_eq(det, zero);
	wv inv_det = wv_div(wv_splat(1.0f), det);
	wv x = wv_mul(inv_det, wv_sub(wv_mul(k22, rhs_x), wv_mul(k12, rhs_y)));
	wv y = wv_mul(inv_det, wv_sub(wv_mul(k11, rhs_y), wv_mul(k12, rhs_x)));
	x = wv_select(singular, x, zero);
	y = wv_select(singular, y, zero);
	wv old_x = wv_load(blk->impulse_x + lane), old_y = wv_load(blk->impulse_y + lane);
	wv neg_mass = wv_neg(mass_scale);
	wv px = wv_sub(wv_mul(neg_mass, x), wv_mul(impulse_scale, old_x));
	wv py = wv_sub(wv_mul(neg_mass, y), wv_mul(impulse_scale, old_y));
	wv_store(blk->impulse_x + lane, wv_add(old_x, px));
	wv_store(blk->impulse_y + lane, wv_add(old_y, py));
	KERNEL(pin_apply)(blk, lane, &a, &b, rax, ray, rbx, rby, px, py);
	scatter_bodies(states, blk->state_a + lane, &a);
	scatter_bodies(states, blk->state_b + lane, &b);
}

static void KERNEL(pin_warm_start_blocks)(tb_pin_block *blocks, int32_t count, tb_body_state *states,
                                          const tb_step_context *ctx)
{
	bool first = ctx->substep_index == 0;
	for (int32_t k = 0; k < count; ++k) {
		tb_pin_block *blk = blocks + k;
		for (int lane = 0; lane < blk->lane_count; lane += LANES) KERNEL(pin_warm_start)(blk, lane, states, first);
	}
}

static void KERNEL(pin_solve_blocks)(tb_pin_block *blocks, int32_t count, tb_body_state *states,
                                     const tb_step_context *ctx, bool use_bias)
{
	for (int32_t k = 0; k < count; ++k) {
		tb_pin_block *blk = blocks + k;
		for (int lane = 0; lane < blk->lane_count; lane += LANES) KERNEL(pin_solve)(blk, lane, states, ctx, use_bias);
	}
}

#else

static void KERNEL(pin_warm_start_blocks)(tb_pin_block *blocks, int32_t count, tb_body_state *states,
                                          const tb_step_context *ctx)
{
	ONE_BLOCK()->pin_warm_start(blocks, count, states, ctx);
}

static void KERNEL(pin_solve_blocks)(tb_pin_block *blocks, int32_t count, tb_body_state *states,
                                     const tb_step_context *ctx, bool use_bias)
{
	ONE_BLOCK()->pin_solve(blocks, count, states, ctx, use_bias);
}

#endif
