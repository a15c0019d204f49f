/* tumble physics: the distance joint. A rod holds the anchors at a length;
 * with a spring it is a spring instead. The minimum and maximum lengths are
 * one-sided limits that always hold. */
#include "joint.h"

static void distance_prepare(tb_joint *joint, const tb_step_context *ctx)
{
	const tb_joint_def *def = &joint->def;
	tb_distance_joint *dj = &joint->distance;
	const tb_joint_point *pt = &joint->pt;
	tb_vec2 d = tb_add(pt->delta_center, tb_sub(pt->frame_b, pt->frame_a));
	tb_vec2 axis = tb_normalize(d);
	float cra = tb_cross(pt->frame_a, axis);
	float crb = tb_cross(pt->frame_b, axis);
	float k = pt->inv_mass_a + pt->inv_mass_b + pt->inv_i_a * cra * cra + pt->inv_i_b * crb * crb;
	dj->axial_mass = k > 0.0f ? 1.0f / k : 0.0f;
	dj->spring_softness = tb_make_soft(def->hertz, def->damping_ratio, ctx->h);
	/* The limit impulses are warm started only while enable_limit is set, and
	 * the rod has no limit impulses, the rope no rod impulse. */
	if (!def->enable_limit || !def->enable_spring || !ctx->enable_warm_starting) {
		dj->lower_impulse = 0.0f;
		dj->upper_impulse = 0.0f;
	}
	if ((def->enable_spring && def->hertz == 0.0f) || !ctx->enable_warm_starting) dj->impulse = 0.0f;
}

/* The rod length and the limits, kept out of the degenerate zero length where the
 * axis would be undefined. */
static inline void distance_lengths(const tb_joint_def *def, float *length, float *min_length, float *max_length)
{
	*min_length = tb_maxf(def->min_length, TB_LINEAR_SLOP);
	*max_length = tb_maxf(def->max_length, *min_length);
	*length = tb_clampf(def->length, *min_length, *max_length);
}

static void distance_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx)
{
	(void)ctx;
	const tb_distance_joint *dj = &joint->distance;
	tb_vec2 ra = tb_rotate(a->dq, joint->pt.frame_a);
	tb_vec2 rb = tb_rotate(b->dq, joint->pt.frame_b);
	tb_vec2 axis = tb_normalize(tb_current_separation(&joint->pt, a, b, ra, rb));
	float axial = dj->impulse + dj->lower_impulse - dj->upper_impulse;
	tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(axial, axis), 0.0f);
}

static void distance_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx, bool use_bias)
{
	const tb_joint_def *def = &joint->def;
	tb_distance_joint *dj = &joint->distance;
	float rest, min_length, max_length;
	distance_lengths(def, &rest, &min_length, &max_length);

	tb_vec2 ra = tb_rotate(a->dq, joint->pt.frame_a);
	tb_vec2 rb = tb_rotate(b->dq, joint->pt.frame_b);
	float length;
	tb_vec2 axis = tb_get_length_and_normalize(&length, tb_current_separation(&joint->pt, a, b, ra, rb));

	/* min == max leaves no room for a spring: the joint is a rod of that length */
	bool rigid = !def->enable_spring || min_length >= max_length;
	if (rigid) {
		float cdot = tb_dot(axis, tb_anchor_velocity(a, b, ra, rb));
		float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
		if (use_bias) {
			bias = ctx->joint_softness.bias_rate * (length - rest);
			mass_scale = ctx->joint_softness.mass_scale;
			impulse_scale = ctx->joint_softness.impulse_scale;
		}
		float impulse = -mass_scale * dj->axial_mass * (cdot + bias) - impulse_scale * dj->impulse;
		dj->impulse += impulse;
		tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(impulse, axis), 0.0f);
		return;
	}

	/* A spring is physical, not position correction: it acts in both passes. */
	if (def->hertz > 0.0f) {
		float cdot = tb_dot(axis, tb_anchor_velocity(a, b, ra, rb));
		float bias = dj->spring_softness.bias_rate * (length - rest);
		float impulse = -dj->spring_softness.mass_scale * dj->axial_mass * (cdot + bias) -
		                dj->spring_softness.impulse_scale * dj->impulse;
		dj->impulse += impulse;
		tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(impulse, axis), 0.0f);
	}

	{
		float cdot = tb_dot(axis, tb_anchor_velocity(a, b, ra, rb));
		float impulse =
			tb_limit_impulse(length - min_length, cdot, dj->axial_mass, &dj->lower_impulse, use_bias, ctx);
		tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(impulse, axis), 0.0f);
	}
	if (max_length < TB_JOINT_HUGE) {
		float cdot = tb_dot(axis, tb_anchor_velocity(a, b, ra, rb));
		float impulse =
			tb_limit_impulse(max_length - length, -cdot, dj->axial_mass, &dj->upper_impulse, use_bias, ctx);
		tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(-impulse, axis), 0.0f);
	}
}

/* Only used when enable_spring is set: a gentle, slightly damped spring. */
static void distance_defaults(tb_joint_def *def)
{
	def->hertz = 2.0f;
	def->damping_ratio = 0.2f;
}

static tb_status distance_validate(const tb_joint_def *def)
{
	return def->min_length > def->max_length ? TB_ERR_INVALID_ARGUMENT : TB_OK;
}

static tb_vec2 distance_force(const tb_world *world, const tb_joint *joint)
{
	const tb_distance_joint *dj = &joint->distance;
	tb_vec2 axis =
		tb_normalize(tb_sub(tb_joint_world_anchor_b(world, joint), tb_joint_world_anchor_a(world, joint)));
	float axial = dj->impulse + dj->lower_impulse - dj->upper_impulse;
	return tb_mul_sv(joint->last_inv_h * axial, axis);
}

static float distance_value(const tb_world *world, const tb_joint *joint)
{
	return tb_distance(tb_joint_world_anchor_a(world, joint), tb_joint_world_anchor_b(world, joint));
}

/* rod and spring share the impulse: turning the spring on or off starts afresh */
static void distance_reset(tb_joint *joint, tb_joint_change change)
{
	tb_distance_joint *d = &joint->distance;
	if (change.limit_off || change.spring_changed) d->lower_impulse = d->upper_impulse = 0.0f;
	if (change.spring_changed) d->impulse = 0.0f;
}

const tb_joint_ops tb_distance_ops = {
	.set_defaults = distance_defaults,
	.validate = distance_validate,
	.prepare = distance_prepare,
	.warm_start = distance_warm_start,
	.solve = distance_solve,
	.force = distance_force,
	.value = distance_value,
	.reset = distance_reset,
};
