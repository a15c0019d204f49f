/* tumble physics: the mouse joint (the dev tools' drag). Body A plays no
 * part: B's anchor is pulled to a world target by a soft spring whose force is
 * capped, and B's spin is damped a little so a grabbed body does not whirl
 * around the cursor. */
#include "joint.h"

/* Weak enough that a grabbed body still swings under the grab point. */
#define TB_MOUSE_ANGULAR_HERTZ 0.5f
#define TB_MOUSE_ANGULAR_DAMPING 0.1f

static void mouse_prepare(tb_joint *joint, const tb_step_context *ctx)
{
	const tb_body_sim *sim_b = ctx->sims + joint->body_b;
	const tb_joint_def *def = &joint->def;
	tb_mouse_joint *m = &joint->mouse;
	joint->state_a = -1;
	joint->pt.inv_mass_a = 0.0f;
	joint->pt.inv_i_a = 0.0f;
	joint->pt.frame_a = tb_vec2_zero;
	joint->pt.delta_center = tb_sub(sim_b->center, def->target);
	joint->delta_angle = 0.0f;
	float ib = joint->pt.inv_i_b;
	m->angular_mass = ib > 0.0f ? 1.0f / ib : 0.0f;
	m->linear_softness = tb_make_soft(def->hertz, def->damping_ratio, ctx->h);
	m->angular_softness = tb_make_soft(TB_MOUSE_ANGULAR_HERTZ, TB_MOUSE_ANGULAR_DAMPING, ctx->h);
	if (!ctx->enable_warm_starting) m->angular_impulse = 0.0f;
}

static void mouse_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx)
{
	(void)a;
	(void)ctx;
	tb_vec2 rb = tb_rotate(b->dq, joint->pt.frame_b);
	b->linear_velocity = tb_mul_add(b->linear_velocity, joint->pt.inv_mass_b, joint->pt.linear_impulse);
	b->angular_velocity += joint->pt.inv_i_b * (tb_cross(rb, joint->pt.linear_impulse) + joint->mouse.angular_impulse);
}

static void mouse_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx,
                        bool use_bias)
{
	(void)a;
	(void)use_bias;
	tb_mouse_joint *m = &joint->mouse;
	float mb = joint->pt.inv_mass_b, ib = joint->pt.inv_i_b;

	/* spin damping: a soft constraint towards zero angular velocity, no position term */
	{
		float impulse = -m->angular_softness.mass_scale * m->angular_mass * b->angular_velocity -
		                m->angular_softness.impulse_scale * m->angular_impulse;
		m->angular_impulse += impulse;
		b->angular_velocity += ib * impulse;
	}

	/* The pull is a spring in both passes: it is the user's hand, not an error to correct. */
	tb_vec2 rb = tb_rotate(b->dq, joint->pt.frame_b);
	tb_vec2 cdot = tb_add(b->linear_velocity, tb_cross_sv(b->angular_velocity, rb));
	tb_vec2 separation = tb_add(tb_add(b->dp, rb), joint->pt.delta_center);
	tb_vec2 bias = tb_mul_sv(m->linear_softness.bias_rate, separation);

	float k11 = mb + rb.y * rb.y * ib;
	float k12 = -rb.y * rb.x * ib;
	float k22 = mb + rb.x * rb.x * ib;
	tb_vec2 x = tb_solve22(k11, k12, k12, k22, tb_add(cdot, bias));

	tb_vec2 old = joint->pt.linear_impulse;
	tb_vec2 impulse = tb_v2(-m->linear_softness.mass_scale * x.x - m->linear_softness.impulse_scale * old.x,
	                        -m->linear_softness.mass_scale * x.y - m->linear_softness.impulse_scale * old.y);
	tb_vec2 total = tb_add(old, impulse);
	float max_impulse = joint->def.max_force * ctx->h;
	float magnitude = tb_length(total);
	if (magnitude > max_impulse) total = tb_mul_sv(max_impulse / magnitude, total);
	impulse = tb_sub(total, old);
	joint->pt.linear_impulse = total;

	b->linear_velocity = tb_mul_add(b->linear_velocity, mb, impulse);
	b->angular_velocity += ib * tb_cross(rb, impulse);
}

static void mouse_defaults(tb_joint_def *def)
{
	def->hertz = 5.0f;
	def->damping_ratio = 0.7f;
	def->max_force = 1000.0f;
}

static float mouse_torque(const tb_joint *joint) { return joint->last_inv_h * joint->mouse.angular_impulse; }

/* the mouse joint's "anchor on A" is the point it pulls towards */
static tb_vec2 mouse_anchor_a(const tb_world *world, const tb_joint *joint)
{
	(void)world;
	return joint->def.target;
}

const tb_joint_ops tb_mouse_ops = {
	.set_defaults = mouse_defaults,
	.free_anchor_a = true,
	.prepare = mouse_prepare,
	.warm_start = mouse_warm_start,
	.solve = mouse_solve,
	.force = tb_joint_point_force,
	.torque = mouse_torque,
	.anchor_a = mouse_anchor_a,
};
