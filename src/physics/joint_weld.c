/* tumble physics: the weld joint. The point constraint and the relative
 * angle, each rigid (the world's joint softness) or soft (its own hertz and
 * damping ratio, a spring in both passes). */
#include "joint.h"

static void weld_prepare(tb_joint *joint, const tb_step_context *ctx)
{
	const tb_joint_def *def = &joint->def;
	tb_weld_joint *wj = &joint->weld;
	float ka = joint->pt.inv_i_a + joint->pt.inv_i_b;
	wj->angular_mass = ka > 0.0f ? 1.0f / ka : 0.0f;
	wj->linear_softness = def->hertz == 0.0f ? ctx->joint_softness : tb_make_soft(def->hertz, def->damping_ratio, ctx->h);
	wj->angular_softness = def->angular_hertz == 0.0f
	                           ? ctx->joint_softness
	                           : tb_make_soft(def->angular_hertz, def->angular_damping_ratio, ctx->h);
	if (!ctx->enable_warm_starting) wj->angular_impulse = 0.0f;
}

static void weld_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx)
{
	(void)ctx;
	tb_point_warm_start(&joint->pt, a, b, joint->weld.angular_impulse);
}

static void weld_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx, bool use_bias)
{
	const tb_joint_def *def = &joint->def;
	tb_weld_joint *wj = &joint->weld;
	float ia = joint->pt.inv_i_a, ib = joint->pt.inv_i_b;

	/* A soft weld (hertz > 0) is a spring and keeps its bias when relaxing; a rigid
	 * one only corrects position in the biased pass. */
	{
		bool biased = use_bias || def->angular_hertz > 0.0f;
		float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
		if (biased) {
			float c = joint->delta_angle + tb_delta_rotation_angle(a, b);
			bias = wj->angular_softness.bias_rate * c;
			mass_scale = wj->angular_softness.mass_scale;
			impulse_scale = wj->angular_softness.impulse_scale;
		}
		float cdot = b->angular_velocity - a->angular_velocity;
		float impulse = -wj->angular_mass * mass_scale * (cdot + bias) - impulse_scale * wj->angular_impulse;
		wj->angular_impulse += impulse;
		a->angular_velocity -= ia * impulse;
		b->angular_velocity += ib * impulse;
	}

	tb_solve_point(&joint->pt, a, b, wj->linear_softness, use_bias || def->hertz > 0.0f);
}

static float weld_torque(const tb_joint *joint) { return joint->last_inv_h * joint->weld.angular_impulse; }

const tb_joint_ops tb_weld_ops = {
	.prepare = weld_prepare,
	.warm_start = weld_warm_start,
	.solve = weld_solve,
	.force = tb_joint_point_force,
	.torque = weld_torque,
};
