/* tumble physics: the motor joint. It drives B to a pose relative to A: B's
 * origin to a point fixed in A (linear_offset, in A's frame) and B's angle to
 * A's plus angular_offset. Both are velocity constraints whose bias closes
 * correction_factor of the error per substep (after Box2D v3.0's), with the
 * impulse per substep capped by max_force and max_motor_torque: a
 * force-limited drive, not a rigid joint. The bias stays on when relaxing:
 * like a spring, it is the motor's purpose. */
#include "joint.h"

static void motor_prepare(tb_joint *joint, const tb_step_context *ctx)
{
	const tb_body_sim *sim_a = ctx->sims + joint->body_a, *sim_b = ctx->sims + joint->body_b;
	const tb_joint_def *def = &joint->def;
	tb_motor_joint *mj = &joint->motor;
	tb_joint_point *pt = &joint->pt;
	/* the point of A where B's origin belongs, and B's origin */
	pt->frame_a = tb_rotate(sim_a->transform.q, tb_sub(def->linear_offset, sim_a->local_center));
	pt->frame_b = tb_rotate(sim_b->transform.q, tb_neg(sim_b->local_center));
	joint->delta_angle =
		tb_unwind_angle(tb_solver_relative_angle(sim_b->transform.q, sim_a->transform.q) - def->angular_offset);
	float ma = pt->inv_mass_a, mb = pt->inv_mass_b, ia = pt->inv_i_a, ib = pt->inv_i_b;
	tb_vec2 ra = pt->frame_a, rb = pt->frame_b;
	mj->k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
	mj->k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
	mj->k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
	float ka = ia + ib;
	mj->angular_mass = ka > 0.0f ? 1.0f / ka : 0.0f;
	if (!ctx->enable_warm_starting) mj->angular_impulse = 0.0f;
}

static void motor_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx)
{
	(void)ctx;
	tb_point_warm_start(&joint->pt, a, b, joint->motor.angular_impulse);
}

static void motor_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx,
                        bool use_bias)
{
	(void)use_bias; /* the bias is the motor's purpose: it stays on when relaxing */
	const tb_joint_def *def = &joint->def;
	tb_motor_joint *mj = &joint->motor;
	tb_joint_point *pt = &joint->pt;
	float correction = def->correction_factor * ctx->inv_h;

	float ia = pt->inv_i_a, ib = pt->inv_i_b;
	if (ia + ib > 0.0f) {
		float c = tb_unwind_angle(joint->delta_angle + tb_delta_rotation_angle(a, b));
		float cdot = b->angular_velocity - a->angular_velocity;
		float old = mj->angular_impulse;
		float max_impulse = ctx->h * def->max_motor_torque;
		mj->angular_impulse = tb_clampf(old - mj->angular_mass * (cdot + correction * c), -max_impulse, max_impulse);
		float impulse = mj->angular_impulse - old;
		a->angular_velocity -= ia * impulse;
		b->angular_velocity += ib * impulse;
	}

	tb_vec2 ra = tb_rotate(a->dq, pt->frame_a);
	tb_vec2 rb = tb_rotate(b->dq, pt->frame_b);
	tb_vec2 c = tb_current_separation(pt, a, b, ra, rb);
	tb_vec2 cdot = tb_add(tb_anchor_velocity(a, b, ra, rb), tb_mul_sv(correction, c));
	tb_vec2 x = tb_solve22(mj->k11, mj->k12, mj->k12, mj->k22, cdot);
	tb_vec2 old = pt->linear_impulse;
	tb_vec2 total = tb_sub(old, x);
	/* the cap is on the force's size, whatever its direction */
	float max_impulse = ctx->h * def->max_force;
	float length_sq = tb_length_sq(total);
	if (length_sq > max_impulse * max_impulse) total = tb_mul_sv(max_impulse / sqrtf(length_sq), total);
	pt->linear_impulse = total;
	tb_apply_point_impulse(pt, a, b, ra, rb, tb_sub(total, old), 0.0f);
}

static void motor_defaults(tb_joint_def *def)
{
	def->max_force = 1000.0f;
	def->max_motor_torque = 1000.0f;
}

/* the motor's anchors are its offsets */
static void motor_adopt(tb_joint_def *def)
{
	def->local_anchor_a = tb_vec2_zero;
	def->local_anchor_b = tb_vec2_zero;
}

static float motor_torque(const tb_joint *joint) { return joint->last_inv_h * joint->motor.angular_impulse; }

/* the point of A it drives B's origin to */
static tb_vec2 motor_anchor_a(const tb_world *world, const tb_joint *joint)
{
	return tb_transform_point(tb_joint_transform(world, joint->body_a), joint->def.linear_offset);
}

const tb_joint_ops tb_motor_ops = {
	.set_defaults = motor_defaults,
	.adopt = motor_adopt,
	.prepare = motor_prepare,
	.warm_start = motor_warm_start,
	.solve = motor_solve,
	.force = tb_joint_point_force,
	.torque = motor_torque,
	.anchor_a = motor_anchor_a,
};
