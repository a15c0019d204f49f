/* tumble physics: the revolute joint. A point constraint pins the anchors
 * together; about the relative angle it can have a spring, a motor and
 * limits, solved in that order before the point. */
#include "joint.h"

void tb_revolute_prepare(tb_joint *joint, const tb_step_context *ctx)
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

void tb_revolute_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b)
{
	const tb_revolute_joint *r = &joint->revolute;
	float axial = r->spring_impulse + r->motor_impulse + r->lower_impulse - r->upper_impulse;
	tb_point_warm_start(&joint->pt, a, b, axial);
}

void tb_revolute_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx, bool use_bias)
{
	const tb_joint_def *def = &joint->def;
	tb_revolute_joint *r = &joint->revolute;
	float ia = joint->pt.inv_i_a, ib = joint->pt.inv_i_b;
	/* with both rotations locked there is no angular freedom to spring, drive or limit */
	bool fixed_rotation = ia + ib == 0.0f;

	if (def->enable_spring && def->hertz > 0.0f && !fixed_rotation) {
		float c = joint->delta_angle + tb_delta_rotation_angle(a, b);
		float bias = r->spring_softness.bias_rate * c;
		float cdot = b->angular_velocity - a->angular_velocity;
		float impulse = -r->spring_softness.mass_scale * r->angular_mass * (cdot + bias) -
		                r->spring_softness.impulse_scale * r->spring_impulse;
		r->spring_impulse += impulse;
		a->angular_velocity -= ia * impulse;
		b->angular_velocity += ib * impulse;
	}

	if (def->enable_motor && !fixed_rotation) {
		float cdot = b->angular_velocity - a->angular_velocity - def->motor_speed;
		float impulse = -r->angular_mass * cdot;
		float old = r->motor_impulse;
		float max_impulse = ctx->h * def->max_motor_torque;
		r->motor_impulse = tb_clampf(old + impulse, -max_impulse, max_impulse);
		impulse = r->motor_impulse - old;
		a->angular_velocity -= ia * impulse;
		b->angular_velocity += ib * impulse;
	}

	if (def->enable_limit && !fixed_rotation) {
		float angle = tb_unwind_angle(joint->delta_angle + tb_delta_rotation_angle(a, b));
		float impulse = tb_limit_impulse(angle - def->lower, b->angular_velocity - a->angular_velocity, r->angular_mass,
		                                 &r->lower_impulse, use_bias, ctx);
		a->angular_velocity -= ia * impulse;
		b->angular_velocity += ib * impulse;
		/* the upper limit is the lower limit seen from B: signs flip */
		impulse = tb_limit_impulse(def->upper - angle, a->angular_velocity - b->angular_velocity, r->angular_mass,
		                           &r->upper_impulse, use_bias, ctx);
		a->angular_velocity += ia * impulse;
		b->angular_velocity -= ib * impulse;
	}

	tb_solve_point(&joint->pt, a, b, ctx->joint_softness, use_bias);
}
