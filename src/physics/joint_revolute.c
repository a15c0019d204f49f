/* tumble physics: the revolute joint. A point constraint pins the anchors
 * together; about the relative angle it can have a spring, a motor and
 * limits, solved in that order before the point. The substeps solve it from
 * its rows (joint.h): the point's tb_joint_row and the angle's tb_revolute_row. */
#include "joint.h"

static void revolute_prepare(tb_joint *joint, const tb_step_context *ctx)
{
	const tb_joint_def *def = &joint->def;
	tb_revolute_joint *r = &joint->revolute;
	float ka = joint->pt.inv_i_a + joint->pt.inv_i_b;
	r->angular_mass = ka > 0.0f ? 1.0f / ka : 0.0f;
	r->spring_softness = tb_make_soft(def->hertz, def->damping_ratio, ctx->h);
	/* impulses of disabled features must not be warm started into the next step */
	if (!def->enable_spring || !ctx->enable_warm_starting) r->spring_impulse = 0.0f;
	if (!def->enable_motor || !ctx->enable_warm_starting) r->motor_impulse = 0.0f;
	if (!def->enable_limit || !ctx->enable_warm_starting) {
		r->lower_impulse = 0.0f;
		r->upper_impulse = 0.0f;
	}
}

/* Written field by field in place: a row built on the stack and copied came
 * back as 16-byte loads of 8-byte stores, a store-forwarding stall in each. */
void tb_revolute_make_row(const tb_joint *joint, const tb_step_context *ctx, tb_revolute_row *row)
{
	const tb_joint_def *def = &joint->def;
	const tb_revolute_joint *r = &joint->revolute;
	uint32_t features = 0;
	/* with both rotations locked there is no angular freedom to spring, drive or limit */
	bool fixed_rotation = joint->pt.inv_i_a + joint->pt.inv_i_b == 0.0f;
	if (!fixed_rotation) {
		if (def->enable_spring && def->hertz > 0.0f) features |= TB_REVOLUTE_SPRING;
		if (def->enable_motor) features |= TB_REVOLUTE_MOTOR;
		if (def->enable_limit) features |= TB_REVOLUTE_LIMIT;
	}
	row->features = features;
	row->delta_angle = joint->delta_angle;
	row->angular_mass = r->angular_mass;
	row->spring = r->spring_softness;
	row->motor_speed = def->motor_speed;
	row->max_motor_impulse = ctx->h * def->max_motor_torque;
	row->lower = def->lower;
	row->upper = def->upper;
	row->spring_impulse = r->spring_impulse;
	row->motor_impulse = r->motor_impulse;
	row->lower_impulse = r->lower_impulse;
	row->upper_impulse = r->upper_impulse;
	row->angle = 0.0f; /* set by the first solve */
	row->unused = 0.0f;
}

void tb_revolute_store_row(tb_joint *joint, const tb_revolute_row *r)
{
	tb_revolute_joint *rj = &joint->revolute;
	rj->spring_impulse = r->spring_impulse;
	rj->motor_impulse = r->motor_impulse;
	rj->lower_impulse = r->lower_impulse;
	rj->upper_impulse = r->upper_impulse;
}

void tb_revolute_warm_start(const tb_joint_row *row, const tb_revolute_row *r, tb_body_state *a, tb_body_state *b,
                            const tb_step_context *ctx)
{
	float axial = r->spring_impulse + r->motor_impulse + r->lower_impulse - r->upper_impulse;
	tb_row_warm_start(row, a, b, ctx, axial);
}

void tb_revolute_solve(tb_joint_row *row, tb_revolute_row *r, tb_body_state *a, tb_body_state *b,
                       const tb_step_context *ctx, bool use_bias)
{
	uint32_t features = r->features;
	float ia = row->pt.inv_i_a, ib = row->pt.inv_i_b;
	/* the spin of both bodies in registers through the angular part (a and b
	 * never alias: a joint joins two bodies, and immovable ones get dummies) */
	float wa = a->angular_velocity, wb = b->angular_velocity;
	/* The angle, for the spring and the limit. Positions move only between a
	 * substep's solve and its relax (solver.c), so the angle the relax measured
	 * is the one the next substep's solve would measure again: it is kept. */
	float angle = 0.0f;
	if (features & (TB_REVOLUTE_SPRING | TB_REVOLUTE_LIMIT)) {
		if (use_bias && ctx->substep_index > 0) {
			angle = r->angle;
#ifdef TB_VALIDATE /* what measuring again gives, bit for bit */
			float again = r->delta_angle + tb_delta_rotation_angle(a, b);
			TB_ASSERT(memcmp(&again, &angle, sizeof angle) == 0);
#endif
		} else {
			angle = r->delta_angle + tb_delta_rotation_angle(a, b);
			r->angle = angle;
		}
	}

	if (features & TB_REVOLUTE_SPRING) {
		float bias = r->spring.bias_rate * angle;
		float cdot = wb - wa;
		float impulse =
			-r->spring.mass_scale * r->angular_mass * (cdot + bias) - r->spring.impulse_scale * r->spring_impulse;
		r->spring_impulse += impulse;
		wa -= ia * impulse;
		wb += ib * impulse;
	}

	if (features & TB_REVOLUTE_MOTOR) {
		float cdot = wb - wa - r->motor_speed;
		float impulse = -r->angular_mass * cdot;
		float old = r->motor_impulse;
		r->motor_impulse = tb_clampf(old + impulse, -r->max_motor_impulse, r->max_motor_impulse);
		impulse = r->motor_impulse - old;
		wa -= ia * impulse;
		wb += ib * impulse;
	}

	if (features & TB_REVOLUTE_LIMIT) {
		angle = tb_unwind_angle(angle);
		float impulse = tb_limit_impulse(angle - r->lower, wb - wa, r->angular_mass, &r->lower_impulse, use_bias, ctx);
		wa -= ia * impulse;
		wb += ib * impulse;
		/* the upper limit is the lower limit seen from B: signs flip */
		impulse = tb_limit_impulse(r->upper - angle, wa - wb, r->angular_mass, &r->upper_impulse, use_bias, ctx);
		wa += ia * impulse;
		wb -= ib * impulse;
	}

	a->angular_velocity = wa;
	b->angular_velocity = wb;
	tb_point_frame frame = tb_row_frame(row, a, b, ctx, use_bias);
	tb_solve_point_in(&row->pt, &frame, a, b, ctx->joint_softness, use_bias);
}

static tb_status revolute_validate(const tb_joint_def *def)
{
	return def->lower > def->upper ? TB_ERR_INVALID_ARGUMENT : TB_OK;
}

static float revolute_torque(const tb_joint *joint)
{
	const tb_revolute_joint *r = &joint->revolute;
	return joint->last_inv_h * (r->spring_impulse + r->motor_impulse + r->lower_impulse - r->upper_impulse);
}

static float revolute_value(const tb_world *world, const tb_joint *joint)
{
	tb_transform xa = tb_joint_transform(world, joint->body_a);
	tb_transform xb = tb_joint_transform(world, joint->body_b);
	return tb_unwind_angle(tb_relative_angle(xb.q, xa.q) - joint->def.reference_angle);
}

static void revolute_reset(tb_joint *joint, tb_joint_change change)
{
	tb_revolute_joint *r = &joint->revolute;
	if (change.limit_off) r->lower_impulse = r->upper_impulse = 0.0f;
	if (change.motor_off) r->motor_impulse = 0.0f;
	if (change.spring_changed) r->spring_impulse = 0.0f;
}

const tb_joint_ops tb_revolute_ops = {
	.validate = revolute_validate,
	.solved_from_rows = true,
	.prepare = revolute_prepare,
	.force = tb_joint_point_force,
	.torque = revolute_torque,
	.value = revolute_value,
	.reset = revolute_reset,
};
