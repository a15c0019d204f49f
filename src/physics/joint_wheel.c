/* tumble physics: the wheel joint (a car's wheel on its suspension). B's
 * anchor is held on a line through A's anchor along A's axis; along that line
 * a spring (on when enable_spring and hertz > 0) and limits act, and a motor
 * drives B's spin relative to A's. B turns freely otherwise.
 *
 *   point on line:  C = dot(perp, d),  d = (c_b + r_b) - (c_a + r_a)
 *   spring, limits: C = dot(axis, d)
 *   motor:          Cdot = w_b - w_a - speed
 * A's lever arm reaches to B's anchor (d + r_a): the line is fixed in A. */
#include "joint.h"

static void wheel_prepare(tb_joint *joint, const tb_step_context *ctx)
{
	const tb_joint_def *def = &joint->def;
	tb_rot qa = ctx->sims[joint->body_a].transform.q;
	tb_wheel_joint *wj = &joint->wheel;
	const tb_joint_point *pt = &joint->pt;
	float ma = pt->inv_mass_a, mb = pt->inv_mass_b, ia = pt->inv_i_a, ib = pt->inv_i_b;
	wj->axis = tb_rotate(qa, def->local_axis_a);
	tb_vec2 perp = tb_left_perp(wj->axis);
	tb_vec2 d = tb_add(pt->delta_center, tb_sub(pt->frame_b, pt->frame_a));
	tb_vec2 ra_to_b = tb_add(d, pt->frame_a);

	float s1 = tb_cross(ra_to_b, perp), s2 = tb_cross(pt->frame_b, perp);
	float kp = ma + mb + ia * s1 * s1 + ib * s2 * s2;
	wj->perp_mass = kp > 0.0f ? 1.0f / kp : 0.0f;
	float a1 = tb_cross(ra_to_b, wj->axis), a2 = tb_cross(pt->frame_b, wj->axis);
	float ka = ma + mb + ia * a1 * a1 + ib * a2 * a2;
	wj->axial_mass = ka > 0.0f ? 1.0f / ka : 0.0f;
	float km = ia + ib;
	wj->motor_mass = km > 0.0f ? 1.0f / km : 0.0f;
	wj->spring_softness = tb_make_soft(def->hertz, def->damping_ratio, ctx->h);

	/* impulses of disabled features must not be warm started into the next step */
	bool warm = ctx->enable_warm_starting;
	if (!def->enable_spring || !warm) wj->spring_impulse = 0.0f;
	if (!def->enable_motor || !warm) wj->motor_impulse = 0.0f;
	if (!def->enable_limit || !warm) wj->lower_impulse = wj->upper_impulse = 0.0f;
	if (!warm) wj->perp_impulse = 0.0f;
}

/* The line and the lever arms at the current positions. */
typedef struct wheel_frame {
	tb_vec2 d, axis, perp;
	float a1, a2, s1, s2;
} wheel_frame;

static wheel_frame current_frame(const tb_joint *joint, const tb_body_state *a, const tb_body_state *b)
{
	wheel_frame f;
	tb_vec2 ra = tb_rotate(a->dq, joint->pt.frame_a);
	tb_vec2 rb = tb_rotate(b->dq, joint->pt.frame_b);
	f.d = tb_current_separation(&joint->pt, a, b, ra, rb);
	f.axis = tb_rotate(a->dq, joint->wheel.axis);
	f.perp = tb_left_perp(f.axis);
	tb_vec2 ra_to_b = tb_add(f.d, ra);
	f.a1 = tb_cross(ra_to_b, f.axis);
	f.a2 = tb_cross(rb, f.axis);
	f.s1 = tb_cross(ra_to_b, f.perp);
	f.s2 = tb_cross(rb, f.perp);
	return f;
}

/* An impulse p with the angular impulses la on A and lb on B (B gets +, A gets -). */
static inline void apply(const tb_joint *joint, tb_body_state *a, tb_body_state *b, tb_vec2 p, float la, float lb)
{
	a->linear_velocity = tb_mul_sub(a->linear_velocity, joint->pt.inv_mass_a, p);
	a->angular_velocity -= joint->pt.inv_i_a * la;
	b->linear_velocity = tb_mul_add(b->linear_velocity, joint->pt.inv_mass_b, p);
	b->angular_velocity += joint->pt.inv_i_b * lb;
}

static void wheel_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx)
{
	(void)ctx;
	const tb_wheel_joint *wj = &joint->wheel;
	wheel_frame f = current_frame(joint, a, b);
	float axial = wj->spring_impulse + wj->lower_impulse - wj->upper_impulse;
	tb_vec2 p = tb_add(tb_mul_sv(axial, f.axis), tb_mul_sv(wj->perp_impulse, f.perp));
	float la = axial * f.a1 + wj->perp_impulse * f.s1 + wj->motor_impulse;
	float lb = axial * f.a2 + wj->perp_impulse * f.s2 + wj->motor_impulse;
	apply(joint, a, b, p, la, lb);
}

static inline float along(tb_vec2 dir, float arm_a, float arm_b, const tb_body_state *a, const tb_body_state *b)
{
	return tb_dot(dir, tb_sub(b->linear_velocity, a->linear_velocity)) + arm_b * b->angular_velocity -
	       arm_a * a->angular_velocity;
}

static void wheel_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx, bool use_bias)
{
	const tb_joint_def *def = &joint->def;
	tb_wheel_joint *wj = &joint->wheel;
	float ia = joint->pt.inv_i_a, ib = joint->pt.inv_i_b;

	if (def->enable_motor && ia + ib > 0.0f) {
		float cdot = b->angular_velocity - a->angular_velocity - def->motor_speed;
		float old = wj->motor_impulse;
		float max_impulse = ctx->h * def->max_motor_torque;
		wj->motor_impulse = tb_clampf(old - wj->motor_mass * cdot, -max_impulse, max_impulse);
		float impulse = wj->motor_impulse - old;
		a->angular_velocity -= ia * impulse;
		b->angular_velocity += ib * impulse;
	}

	wheel_frame f = current_frame(joint, a, b);
	float translation = tb_dot(f.axis, f.d);

	if (def->enable_spring && def->hertz > 0.0f) {
		/* a real spring: it keeps its bias when relaxing */
		float cdot = along(f.axis, f.a1, f.a2, a, b);
		float impulse = -wj->spring_softness.mass_scale * wj->axial_mass * (cdot + wj->spring_softness.bias_rate *
		                                                                               translation) -
		                wj->spring_softness.impulse_scale * wj->spring_impulse;
		wj->spring_impulse += impulse;
		apply(joint, a, b, tb_mul_sv(impulse, f.axis), impulse * f.a1, impulse * f.a2);
	}

	if (def->enable_limit) {
		float cdot = along(f.axis, f.a1, f.a2, a, b);
		float impulse =
			tb_limit_impulse(translation - def->lower, cdot, wj->axial_mass, &wj->lower_impulse, use_bias, ctx);
		apply(joint, a, b, tb_mul_sv(impulse, f.axis), impulse * f.a1, impulse * f.a2);
		cdot = along(f.axis, f.a1, f.a2, a, b);
		impulse = tb_limit_impulse(def->upper - translation, -cdot, wj->axial_mass, &wj->upper_impulse, use_bias, ctx);
		apply(joint, a, b, tb_mul_sv(-impulse, f.axis), -impulse * f.a1, -impulse * f.a2);
	}

	/* the point on the line: rigid, with the joint softness while biased */
	{
		float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
		if (use_bias) {
			bias = ctx->joint_softness.bias_rate * tb_dot(f.perp, f.d);
			mass_scale = ctx->joint_softness.mass_scale;
			impulse_scale = ctx->joint_softness.impulse_scale;
		}
		float cdot = along(f.perp, f.s1, f.s2, a, b);
		float impulse = -mass_scale * wj->perp_mass * (cdot + bias) - impulse_scale * wj->perp_impulse;
		wj->perp_impulse += impulse;
		apply(joint, a, b, tb_mul_sv(impulse, f.perp), impulse * f.s1, impulse * f.s2);
	}
}

static tb_status wheel_validate(const tb_joint_def *def)
{
	return def->lower > def->upper ? TB_ERR_INVALID_ARGUMENT : TB_OK;
}

static tb_vec2 wheel_force(const tb_world *world, const tb_joint *joint)
{
	const tb_wheel_joint *wj = &joint->wheel;
	tb_vec2 axis = tb_rotate(tb_joint_transform(world, joint->body_a).q, joint->def.local_axis_a);
	float axial = wj->spring_impulse + wj->lower_impulse - wj->upper_impulse;
	tb_vec2 p = tb_add(tb_mul_sv(axial, axis), tb_mul_sv(wj->perp_impulse, tb_left_perp(axis)));
	return tb_mul_sv(joint->last_inv_h, p);
}

static float wheel_torque(const tb_joint *joint) { return joint->last_inv_h * joint->wheel.motor_impulse; }

static void wheel_reset(tb_joint *joint, tb_joint_change change)
{
	tb_wheel_joint *wj = &joint->wheel;
	if (change.limit_off) wj->lower_impulse = wj->upper_impulse = 0.0f;
	if (change.motor_off) wj->motor_impulse = 0.0f;
	if (change.spring_changed) wj->spring_impulse = 0.0f;
}

const tb_joint_ops tb_wheel_ops = {
	.validate = wheel_validate,
	.has_axis = true,
	.prepare = wheel_prepare,
	.warm_start = wheel_warm_start,
	.solve = wheel_solve,
	.force = wheel_force,
	.torque = wheel_torque,
	.value = tb_joint_axis_translation,
	.reset = wheel_reset,
};
