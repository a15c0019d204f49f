/* tumble physics: the prismatic joint. B slides along an axis fixed in A: the
 * perpendicular offset and the relative angle are held as one 2x2 block, and
 * along the axis there can be a spring, a motor and limits. */
#include "joint.h"

static void prismatic_prepare(tb_joint *joint, const tb_step_context *ctx)
{
	const tb_joint_def *def = &joint->def;
	tb_rot qa = ctx->sims[joint->body_a].transform.q;
	tb_prismatic_joint *p = &joint->prismatic;
	const tb_joint_point *pt = &joint->pt;
	p->axis = tb_rotate(qa, def->local_axis_a);
	tb_vec2 d = tb_add(pt->delta_center, tb_sub(pt->frame_b, pt->frame_a));
	float a1 = tb_cross(tb_add(d, pt->frame_a), p->axis);
	float a2 = tb_cross(pt->frame_b, p->axis);
	float k = pt->inv_mass_a + pt->inv_mass_b + pt->inv_i_a * a1 * a1 + pt->inv_i_b * a2 * a2;
	p->axial_mass = k > 0.0f ? 1.0f / k : 0.0f;
	p->spring_softness = tb_make_soft(def->hertz, def->damping_ratio, ctx->h);
	/* impulses of disabled features must not be warm started into the next step */
	if (!def->enable_spring || !ctx->enable_warm_starting) p->spring_impulse = 0.0f;
	if (!def->enable_motor || !ctx->enable_warm_starting) p->motor_impulse = 0.0f;
	if (!def->enable_limit || !ctx->enable_warm_starting) {
		p->lower_impulse = 0.0f;
		p->upper_impulse = 0.0f;
	}
	if (!ctx->enable_warm_starting) {
		p->perpendicular_impulse = 0.0f;
		p->angular_impulse = 0.0f;
	}
}

/* Axis and lever arms of the prismatic constraint at the current positions. */
typedef struct prismatic_frame {
	tb_vec2 ra, rb, d, axis, perp;
	float a1, a2, s1, s2;
} prismatic_frame;

static prismatic_frame current_frame(const tb_joint *joint, const tb_body_state *a, const tb_body_state *b)
{
	prismatic_frame f;
	f.ra = tb_rotate(a->dq, joint->pt.frame_a);
	f.rb = tb_rotate(b->dq, joint->pt.frame_b);
	f.d = tb_current_separation(&joint->pt, a, b, f.ra, f.rb);
	f.axis = tb_rotate(a->dq, joint->prismatic.axis);
	f.perp = tb_left_perp(f.axis);
	/* A's lever arm reaches to B's anchor: the axis is attached to A and B slides along it */
	tb_vec2 ra_to_b = tb_add(f.d, f.ra);
	f.a1 = tb_cross(ra_to_b, f.axis);
	f.a2 = tb_cross(f.rb, f.axis);
	f.s1 = tb_cross(ra_to_b, f.perp);
	f.s2 = tb_cross(f.rb, f.perp);
	return f;
}

/* Applies an impulse along a direction with the given lever arms (B gets +, A gets -). */
static inline void apply_lever_impulse(const tb_joint *joint, tb_body_state *a, tb_body_state *b, tb_vec2 p, float la,
                                       float lb)
{
	a->linear_velocity = tb_mul_sub(a->linear_velocity, joint->pt.inv_mass_a, p);
	a->angular_velocity -= joint->pt.inv_i_a * la;
	b->linear_velocity = tb_mul_add(b->linear_velocity, joint->pt.inv_mass_b, p);
	b->angular_velocity += joint->pt.inv_i_b * lb;
}

static void prismatic_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx)
{
	(void)ctx;
	const tb_prismatic_joint *p = &joint->prismatic;
	prismatic_frame f = current_frame(joint, a, b);
	float axial = p->spring_impulse + p->motor_impulse + p->lower_impulse - p->upper_impulse;
	float perp = p->perpendicular_impulse;
	float angle = p->angular_impulse;
	tb_vec2 impulse = tb_add(tb_mul_sv(axial, f.axis), tb_mul_sv(perp, f.perp));
	float la = axial * f.a1 + perp * f.s1 + angle;
	float lb = axial * f.a2 + perp * f.s2 + angle;
	apply_lever_impulse(joint, a, b, impulse, la, lb);
}

static inline float axial_speed(const prismatic_frame *f, const tb_body_state *a, const tb_body_state *b)
{
	return tb_dot(f->axis, tb_sub(b->linear_velocity, a->linear_velocity)) + f->a2 * b->angular_velocity -
	       f->a1 * a->angular_velocity;
}

static void prismatic_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx,
                            bool use_bias)
{
	const tb_joint_def *def = &joint->def;
	tb_prismatic_joint *p = &joint->prismatic;
	prismatic_frame f = current_frame(joint, a, b);
	float translation = tb_dot(f.axis, f.d);

	if (def->enable_spring && def->hertz > 0.0f) {
		/* the spring rests at zero translation: the anchors coincide along the axis */
		float bias = p->spring_softness.bias_rate * translation;
		float cdot = axial_speed(&f, a, b);
		float impulse = -p->spring_softness.mass_scale * p->axial_mass * (cdot + bias) -
		                p->spring_softness.impulse_scale * p->spring_impulse;
		p->spring_impulse += impulse;
		apply_lever_impulse(joint, a, b, tb_mul_sv(impulse, f.axis), impulse * f.a1, impulse * f.a2);
	}

	if (def->enable_motor) {
		float cdot = axial_speed(&f, a, b);
		float impulse = p->axial_mass * (def->motor_speed - cdot);
		float old = p->motor_impulse;
		float max_impulse = ctx->h * def->max_motor_force;
		p->motor_impulse = tb_clampf(old + impulse, -max_impulse, max_impulse);
		impulse = p->motor_impulse - old;
		apply_lever_impulse(joint, a, b, tb_mul_sv(impulse, f.axis), impulse * f.a1, impulse * f.a2);
	}

	if (def->enable_limit) {
		float cdot = axial_speed(&f, a, b);
		float impulse =
			tb_limit_impulse(translation - def->lower, cdot, p->axial_mass, &p->lower_impulse, use_bias, ctx);
		apply_lever_impulse(joint, a, b, tb_mul_sv(impulse, f.axis), impulse * f.a1, impulse * f.a2);

		cdot = axial_speed(&f, a, b);
		impulse = tb_limit_impulse(def->upper - translation, -cdot, p->axial_mass, &p->upper_impulse, use_bias, ctx);
		apply_lever_impulse(joint, a, b, tb_mul_sv(-impulse, f.axis), -impulse * f.a1, -impulse * f.a2);
	}

	/* Perpendicular offset and relative angle together, as one 2x2 block. */
	{
		float ma = joint->pt.inv_mass_a, mb = joint->pt.inv_mass_b, ia = joint->pt.inv_i_a, ib = joint->pt.inv_i_b;
		tb_vec2 cdot = tb_v2(tb_dot(f.perp, tb_sub(b->linear_velocity, a->linear_velocity)) +
		                         f.s2 * b->angular_velocity - f.s1 * a->angular_velocity,
		                     b->angular_velocity - a->angular_velocity);
		tb_vec2 bias = tb_vec2_zero;
		float mass_scale = 1.0f, impulse_scale = 0.0f;
		if (use_bias) {
			tb_vec2 c = tb_v2(tb_dot(f.perp, f.d), joint->delta_angle + tb_delta_rotation_angle(a, b));
			bias = tb_mul_sv(ctx->joint_softness.bias_rate, c);
			mass_scale = ctx->joint_softness.mass_scale;
			impulse_scale = ctx->joint_softness.impulse_scale;
		}
		float k11 = ma + mb + ia * f.s1 * f.s1 + ib * f.s2 * f.s2;
		float k12 = ia * f.s1 + ib * f.s2;
		float k22 = ia + ib;
		/* both rotations locked: the angular row is free, keep K invertible */
		if (k22 == 0.0f) k22 = 1.0f;
		tb_vec2 x = tb_solve22(k11, k12, k12, k22, tb_add(cdot, bias));
		float perp_impulse = -mass_scale * x.x - impulse_scale * p->perpendicular_impulse;
		float angle_impulse = -mass_scale * x.y - impulse_scale * p->angular_impulse;
		p->perpendicular_impulse += perp_impulse;
		p->angular_impulse += angle_impulse;
		apply_lever_impulse(joint, a, b, tb_mul_sv(perp_impulse, f.perp), perp_impulse * f.s1 + angle_impulse,
		                    perp_impulse * f.s2 + angle_impulse);
	}
}

static tb_status prismatic_validate(const tb_joint_def *def)
{
	return def->lower > def->upper ? TB_ERR_INVALID_ARGUMENT : TB_OK;
}

static tb_vec2 prismatic_force(const tb_world *world, const tb_joint *joint)
{
	const tb_prismatic_joint *pj = &joint->prismatic;
	tb_vec2 axis = tb_rotate(tb_joint_transform(world, joint->body_a).q, joint->def.local_axis_a);
	float axial = pj->spring_impulse + pj->motor_impulse + pj->lower_impulse - pj->upper_impulse;
	tb_vec2 p = tb_add(tb_mul_sv(axial, axis), tb_mul_sv(pj->perpendicular_impulse, tb_left_perp(axis)));
	return tb_mul_sv(joint->last_inv_h, p);
}

static float prismatic_torque(const tb_joint *joint) { return joint->last_inv_h * joint->prismatic.angular_impulse; }

static void prismatic_reset(tb_joint *joint, tb_joint_change change)
{
	tb_prismatic_joint *p = &joint->prismatic;
	if (change.limit_off) p->lower_impulse = p->upper_impulse = 0.0f;
	if (change.motor_off) p->motor_impulse = 0.0f;
	if (change.spring_changed) p->spring_impulse = 0.0f;
}

const tb_joint_ops tb_prismatic_ops = {
	.validate = prismatic_validate,
	.has_axis = true,
	.prepare = prismatic_prepare,
	.warm_start = prismatic_warm_start,
	.solve = prismatic_solve,
	.force = prismatic_force,
	.torque = prismatic_torque,
	.value = tb_joint_axis_translation,
	.reset = prismatic_reset,
};
