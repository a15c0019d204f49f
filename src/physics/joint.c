/* tumble physics: joint validation, the soft-step joint solver and the joint accessors.
 *
 * Every joint follows the same soft-step pattern (after Box2D v3):
 *   prepare     once per step: anchors relative to the centres of mass (frames),
 *               the centre offset and relative angle at step start, effective masses;
 *   warm start  every substep: apply the impulses accumulated so far;
 *   solve       every substep, twice: with a soft position bias (use_bias), then
 *               without it (relax) so the bias does not leave energy behind.
 * Positions are measured from the body states' dp/dq deltas, so the current
 * error of a constraint costs two rotations, not a transform update.
 *
 * Accumulated impulses are per substep: the constraint force is impulse / h. */
#include "joint.h"

#include <string.h>

#include "core.h"

/* Upper bound of the default distance range: "no maximum" but still a finite number. */
#define TB_JOINT_HUGE 1.0e6f

/* The mouse joint damps the dragged body's spin a little so a grabbed body does not
 * whirl around the cursor; weak enough that it still swings under the grab point. */
#define TB_MOUSE_ANGULAR_HERTZ 0.5f
#define TB_MOUSE_ANGULAR_DAMPING 0.1f

tb_joint_def tb_default_joint_def(tb_joint_type type)
{
	tb_joint_def def;
	memset(&def, 0, sizeof(def));
	def.type = type;
	def.local_axis_a = tb_v2(1.0f, 0.0f);
	def.length = 1.0f;
	def.min_length = 0.0f;
	def.max_length = TB_JOINT_HUGE;
	if (type == TB_JOINT_MOUSE) {
		def.hertz = 5.0f;
		def.damping_ratio = 0.7f;
		def.max_force = 1000.0f;
	} else if (type == TB_JOINT_DISTANCE) {
		/* Only used when enable_spring is set: a gentle, slightly damped spring. */
		def.hertz = 2.0f;
		def.damping_ratio = 0.2f;
	}
	return def;
}

/* ---------------------------------------------------------------- validation */

static bool tb_def_numbers_are_finite(const tb_joint_def *d)
{
	float scalars[] = {d->reference_angle, d->lower, d->upper, d->motor_speed, d->max_motor_torque,
	                   d->max_motor_force, d->length, d->min_length, d->max_length, d->hertz,
	                   d->damping_ratio, d->angular_hertz, d->angular_damping_ratio, d->max_force};
	for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); ++i) {
		if (!tb_is_valid_float(scalars[i])) return false;
	}
	return tb_is_valid_vec2(d->local_anchor_a) && tb_is_valid_vec2(d->local_anchor_b) &&
	       tb_is_valid_vec2(d->local_axis_a) && tb_is_valid_vec2(d->target);
}

tb_status tb_joint_validate_def(const tb_joint_def *def)
{
	if (def == NULL) return TB_ERR_INVALID_ARGUMENT;
	if ((int)def->type < 0 || (int)def->type >= TB_JOINT_TYPE_COUNT) return TB_ERR_INVALID_ARGUMENT;
	if (!tb_def_numbers_are_finite(def)) return TB_ERR_INVALID_NUMBER;
	/* finite but absurd anchors overflow every later computation */
	const tb_vec2 points[3] = {def->local_anchor_a, def->local_anchor_b, def->target};
	for (int i = 0; i < 3; ++i) {
		if (fabsf(points[i].x) > TB_HUGE || fabsf(points[i].y) > TB_HUGE) return TB_ERR_INVALID_NUMBER;
	}

	/* Signs are checked for every kind: an unused field is still returned by
	 * tb_joint_get_def and must not surprise whoever copies it to another joint. */
	if (def->max_motor_torque < 0.0f || def->max_motor_force < 0.0f || def->max_force < 0.0f) return TB_ERR_NEGATIVE;
	if (def->hertz < 0.0f || def->damping_ratio < 0.0f) return TB_ERR_NEGATIVE;
	if (def->angular_hertz < 0.0f || def->angular_damping_ratio < 0.0f) return TB_ERR_NEGATIVE;
	if (def->length < 0.0f || def->min_length < 0.0f || def->max_length < 0.0f) return TB_ERR_NEGATIVE;

	switch (def->type) {
	case TB_JOINT_REVOLUTE:
		if (def->lower > def->upper) return TB_ERR_INVALID_ARGUMENT;
		break;
	case TB_JOINT_PRISMATIC:
		if (def->lower > def->upper) return TB_ERR_INVALID_ARGUMENT;
		if (tb_length_sq(def->local_axis_a) < 1.0e-12f) return TB_ERR_DEGENERATE;
		break;
	case TB_JOINT_DISTANCE:
		if (def->min_length > def->max_length) return TB_ERR_INVALID_ARGUMENT;
		break;
	default:
		break;
	}
	return TB_OK;
}

void tb_joint_init(tb_joint *joint)
{
	size_t start = offsetof(tb_joint, state_a);
	memset((char *)joint + start, 0, sizeof(tb_joint) - start);
	joint->state_a = -1;
	joint->state_b = -1;
	if (joint->def.type == TB_JOINT_PRISMATIC) {
		tb_vec2 axis = tb_normalize(joint->def.local_axis_a);
		/* validate_def refused a zero axis; this guards a def written behind its back */
		joint->def.local_axis_a = tb_length_sq(axis) > 0.0f ? axis : tb_v2(1.0f, 0.0f);
	}
}

/* ---------------------------------------------------------------- helpers */

/* Solves K x = b for a symmetric-or-not 2x2 K; a singular K (both bodies
 * immovable) gives zero so no impulse is applied. */
static inline tb_vec2 tb_solve22(float k11, float k12, float k21, float k22, tb_vec2 b)
{
	float det = k11 * k22 - k12 * k21;
	if (det == 0.0f) return tb_vec2_zero;
	det = 1.0f / det;
	return tb_v2(det * (k22 * b.x - k12 * b.y), det * (k11 * b.y - k21 * b.x));
}

/* Static, kinematic-free and sleeping bodies have no state this step: they read as
 * the identity state and whatever is written to the copy is dropped. */
typedef struct tb_joint_states {
	tb_body_state *a, *b;
	tb_body_state dummy_a, dummy_b;
} tb_joint_states;

static inline void tb_get_states(tb_joint_states *js, int32_t state_a, int32_t state_b, tb_step_context *ctx)
{
	if (state_a >= 0) {
		js->a = ctx->states + state_a;
	} else {
		js->dummy_a = tb_identity_body_state;
		js->a = &js->dummy_a;
	}
	if (state_b >= 0) {
		js->b = ctx->states + state_b;
	} else {
		js->dummy_b = tb_identity_body_state;
		js->b = &js->dummy_b;
	}
}

/* Relative rotation of B against A accumulated during this step. */
static inline float tb_delta_rotation_angle(const tb_body_state *a, const tb_body_state *b)
{
	return tb_relative_angle(b->dq, a->dq);
}

/* Current separation of the anchors (B minus A) from the step-start offset and the deltas. */
static inline tb_vec2 tb_current_separation(const tb_joint_point *pt, const tb_body_state *a, const tb_body_state *b,
                                            tb_vec2 ra, tb_vec2 rb)
{
	tb_vec2 d = tb_add(tb_sub(b->dp, a->dp), pt->delta_center);
	return tb_add(d, tb_sub(rb, ra));
}

/* Applies a linear impulse p at the anchors (to B, its opposite to A) plus an
 * extra angular impulse l (to B, its opposite to A). */
static inline void tb_apply_point_impulse(const tb_joint_point *pt, tb_body_state *a, tb_body_state *b, tb_vec2 ra,
                                          tb_vec2 rb, tb_vec2 p, float l)
{
	a->v = tb_mul_sub(a->v, pt->inv_mass_a, p);
	a->w -= pt->inv_i_a * (tb_cross(ra, p) + l);
	b->v = tb_mul_add(b->v, pt->inv_mass_b, p);
	b->w += pt->inv_i_b * (tb_cross(rb, p) + l);
}

/* Relative velocity of the anchor points, B minus A. */
static inline tb_vec2 tb_anchor_velocity(const tb_body_state *a, const tb_body_state *b, tb_vec2 ra, tb_vec2 rb)
{
	tb_vec2 va = tb_add(a->v, tb_cross_sv(a->w, ra));
	tb_vec2 vb = tb_add(b->v, tb_cross_sv(b->w, rb));
	return tb_sub(vb, va);
}

/* The soft point constraint shared by revolute and weld: drives the anchors
 * together with the given softness (rigid when relaxing). */
static inline void tb_solve_point(tb_joint_point *pt, tb_body_state *a, tb_body_state *b, tb_softness soft,
                                  bool use_bias)
{
	tb_vec2 ra = tb_rotate(a->dq, pt->frame_a);
	tb_vec2 rb = tb_rotate(b->dq, pt->frame_b);
	tb_vec2 cdot = tb_anchor_velocity(a, b, ra, rb);

	tb_vec2 bias = tb_vec2_zero;
	float mass_scale = 1.0f, impulse_scale = 0.0f;
	if (use_bias) {
		tb_vec2 separation = tb_current_separation(pt, a, b, ra, rb);
		bias = tb_mul_sv(soft.bias_rate, separation);
		mass_scale = soft.mass_scale;
		impulse_scale = soft.impulse_scale;
	}

	float ma = pt->inv_mass_a, mb = pt->inv_mass_b, ia = pt->inv_i_a, ib = pt->inv_i_b;
	float k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
	float k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
	float k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
	tb_vec2 x = tb_solve22(k11, k12, k12, k22, tb_add(cdot, bias));

	tb_vec2 impulse = tb_v2(-mass_scale * x.x - impulse_scale * pt->linear_impulse.x,
	                        -mass_scale * x.y - impulse_scale * pt->linear_impulse.y);
	pt->linear_impulse = tb_add(pt->linear_impulse, impulse);
	tb_apply_point_impulse(pt, a, b, ra, rb, impulse, 0.0f);
}

/* Re-applies the point impulse of the last substep, plus an angular impulse l. */
static inline void tb_point_warm_start(const tb_joint_point *pt, tb_body_state *a, tb_body_state *b, float l)
{
	tb_vec2 ra = tb_rotate(a->dq, pt->frame_a);
	tb_vec2 rb = tb_rotate(b->dq, pt->frame_b);
	tb_apply_point_impulse(pt, a, b, ra, rb, pt->linear_impulse, l);
}

/* One-sided limit on a scalar: C >= 0 must hold. Ahead of contact (C > 0) the
 * approach speed is allowed to close the gap in one substep and no more (a
 * speculative limit, so nothing needs to overlap before it pushes back); once
 * violated the joint softness pushes out, and relaxing removes only velocity. */
static inline float tb_limit_impulse(float c, float cdot, float mass, float *accumulated, bool use_bias,
                                     const tb_step_context *ctx)
{
	float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
	if (c > 0.0f) {
		bias = c * ctx->inv_h;
	} else if (use_bias) {
		bias = ctx->joint_softness.bias_rate * c;
		mass_scale = ctx->joint_softness.mass_scale;
		impulse_scale = ctx->joint_softness.impulse_scale;
	}
	float impulse = -mass * mass_scale * (cdot + bias) - impulse_scale * *accumulated;
	float new_impulse = tb_maxf(*accumulated + impulse, 0.0f);
	impulse = new_impulse - *accumulated;
	*accumulated = new_impulse;
	return impulse;
}

/* ---------------------------------------------------------------- prepare */

void tb_joint_prepare(tb_joint *joint, tb_step_context *ctx)
{
	const tb_joint_def *def = &joint->def;
	static const tb_body_sim empty_sim; /* a missing body A (mouse joint) is the fixed world */
	const tb_body_sim *sa = joint->body_a >= 0 ? ctx->sims + joint->body_a : &empty_sim;
	const tb_body_sim *sb = ctx->sims + joint->body_b;
	tb_rot qa = joint->body_a >= 0 ? sa->transform.q : tb_rot_identity;
	tb_rot qb = sb->transform.q;

	joint->state_a = joint->body_a >= 0 ? sa->state_index : -1;
	joint->state_b = sb->state_index;
	/* A body without a state this step (static, asleep) cannot move: give it
	 * infinite mass so the joint does not spend impulse on it. */
	joint->pt.inv_mass_a = joint->state_a >= 0 ? sa->inv_mass : 0.0f;
	joint->pt.inv_i_a = joint->state_a >= 0 ? sa->inv_inertia : 0.0f;
	joint->pt.inv_mass_b = joint->state_b >= 0 ? sb->inv_mass : 0.0f;
	joint->pt.inv_i_b = joint->state_b >= 0 ? sb->inv_inertia : 0.0f;
	joint->last_inv_h = ctx->inv_h;

	joint->pt.frame_a = tb_rotate(qa, tb_sub(def->local_anchor_a, sa->local_center));
	joint->pt.frame_b = tb_rotate(qb, tb_sub(def->local_anchor_b, sb->local_center));
	joint->pt.delta_center = tb_sub(sb->center, sa->center);
	joint->delta_angle = tb_unwind_angle(tb_relative_angle(qb, qa) - def->reference_angle);

	float ma = joint->pt.inv_mass_a, mb = joint->pt.inv_mass_b, ia = joint->pt.inv_i_a, ib = joint->pt.inv_i_b;
	float ka = ia + ib;
	float angular_mass = ka > 0.0f ? 1.0f / ka : 0.0f;
	joint->spring_softness = tb_make_soft(def->hertz, def->damping_ratio, ctx->h);

	/* Impulses of disabled features must not be warm started into the next step. */
	if (!def->enable_spring) joint->spring_impulse = 0.0f;
	if (!def->enable_motor) joint->motor_impulse = 0.0f;
	if (!def->enable_limit) {
		joint->lower_impulse = 0.0f;
		joint->upper_impulse = 0.0f;
	}

	switch (def->type) {
	case TB_JOINT_REVOLUTE:
		joint->axial_mass = angular_mass;
		break;

	case TB_JOINT_PRISMATIC: {
		joint->axis_a = tb_rotate(qa, def->local_axis_a);
		tb_vec2 d = tb_add(joint->pt.delta_center, tb_sub(joint->pt.frame_b, joint->pt.frame_a));
		float a1 = tb_cross(tb_add(d, joint->pt.frame_a), joint->axis_a);
		float a2 = tb_cross(joint->pt.frame_b, joint->axis_a);
		float k = ma + mb + ia * a1 * a1 + ib * a2 * a2;
		joint->axial_mass = k > 0.0f ? 1.0f / k : 0.0f;
		break;
	}

	case TB_JOINT_DISTANCE: {
		tb_vec2 d = tb_add(joint->pt.delta_center, tb_sub(joint->pt.frame_b, joint->pt.frame_a));
		tb_vec2 axis = tb_normalize(d);
		float cra = tb_cross(joint->pt.frame_a, axis);
		float crb = tb_cross(joint->pt.frame_b, axis);
		float k = ma + mb + ia * cra * cra + ib * crb * crb;
		joint->axial_mass = k > 0.0f ? 1.0f / k : 0.0f;
		/* the rod has no limit impulses and the rope no rod impulse */
		if (!def->enable_spring) {
			joint->lower_impulse = 0.0f;
			joint->upper_impulse = 0.0f;
		} else if (def->hertz == 0.0f) {
			joint->axial_impulse = 0.0f;
		}
		break;
	}

	case TB_JOINT_WELD:
		joint->axial_mass = angular_mass;
		joint->linear_softness = def->hertz == 0.0f ? ctx->joint_softness
		                                            : tb_make_soft(def->hertz, def->damping_ratio, ctx->h);
		joint->angular_softness = def->angular_hertz == 0.0f
		                              ? ctx->joint_softness
		                              : tb_make_soft(def->angular_hertz, def->angular_damping_ratio, ctx->h);
		break;

	case TB_JOINT_MOUSE:
		/* Body A plays no part: the anchor on B is pulled towards a fixed world point. */
		joint->state_a = -1;
		joint->pt.inv_mass_a = 0.0f;
		joint->pt.inv_i_a = 0.0f;
		joint->pt.frame_a = tb_vec2_zero;
		joint->pt.delta_center = tb_sub(sb->center, def->target);
		joint->delta_angle = 0.0f;
		joint->axial_mass = ib > 0.0f ? 1.0f / ib : 0.0f;
		joint->linear_softness = tb_make_soft(def->hertz, def->damping_ratio, ctx->h);
		joint->angular_softness = tb_make_soft(TB_MOUSE_ANGULAR_HERTZ, TB_MOUSE_ANGULAR_DAMPING, ctx->h);
		break;

	default:
		break;
	}

	if (!ctx->enable_warm_starting) {
		joint->pt.linear_impulse = tb_vec2_zero;
		joint->angular_impulse = 0.0f;
		joint->axial_impulse = 0.0f;
		joint->spring_impulse = 0.0f;
		joint->motor_impulse = 0.0f;
		joint->lower_impulse = 0.0f;
		joint->upper_impulse = 0.0f;
	}
}

/* ---------------------------------------------------------------- revolute */

static void tb_revolute_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b)
{
	float axial = joint->spring_impulse + joint->motor_impulse + joint->lower_impulse - joint->upper_impulse;
	tb_point_warm_start(&joint->pt, a, b, axial);
}

static void tb_revolute_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, tb_step_context *ctx,
                              bool use_bias)
{
	const tb_joint_def *def = &joint->def;
	float ia = joint->pt.inv_i_a, ib = joint->pt.inv_i_b;
	/* with both rotations locked there is no angular freedom to spring, drive or limit */
	bool fixed_rotation = ia + ib == 0.0f;

	if (def->enable_spring && def->hertz > 0.0f && !fixed_rotation) {
		float c = joint->delta_angle + tb_delta_rotation_angle(a, b);
		float bias = joint->spring_softness.bias_rate * c;
		float cdot = b->w - a->w;
		float impulse = -joint->spring_softness.mass_scale * joint->axial_mass * (cdot + bias) -
		                joint->spring_softness.impulse_scale * joint->spring_impulse;
		joint->spring_impulse += impulse;
		a->w -= ia * impulse;
		b->w += ib * impulse;
	}

	if (def->enable_motor && !fixed_rotation) {
		float cdot = b->w - a->w - def->motor_speed;
		float impulse = -joint->axial_mass * cdot;
		float old = joint->motor_impulse;
		float max_impulse = ctx->h * def->max_motor_torque;
		joint->motor_impulse = tb_clampf(old + impulse, -max_impulse, max_impulse);
		impulse = joint->motor_impulse - old;
		a->w -= ia * impulse;
		b->w += ib * impulse;
	}

	if (def->enable_limit && !fixed_rotation) {
		float angle = tb_unwind_angle(joint->delta_angle + tb_delta_rotation_angle(a, b));
		float impulse = tb_limit_impulse(angle - def->lower, b->w - a->w, joint->axial_mass, &joint->lower_impulse,
		                                 use_bias, ctx);
		a->w -= ia * impulse;
		b->w += ib * impulse;
		/* the upper limit is the lower limit seen from B: signs flip */
		impulse = tb_limit_impulse(def->upper - angle, a->w - b->w, joint->axial_mass, &joint->upper_impulse,
		                           use_bias, ctx);
		a->w += ia * impulse;
		b->w -= ib * impulse;
	}

	tb_solve_point(&joint->pt, a, b, ctx->joint_softness, use_bias);
}

/* ---------------------------------------------------------------- prismatic */

/* Axis and lever arms of the prismatic constraint at the current positions. */
typedef struct tb_prismatic_frame {
	tb_vec2 ra, rb, d, axis, perp;
	float a1, a2, s1, s2;
} tb_prismatic_frame;

static tb_prismatic_frame tb_prismatic_current(const tb_joint *joint, const tb_body_state *a, const tb_body_state *b)
{
	tb_prismatic_frame f;
	f.ra = tb_rotate(a->dq, joint->pt.frame_a);
	f.rb = tb_rotate(b->dq, joint->pt.frame_b);
	f.d = tb_current_separation(&joint->pt, a, b, f.ra, f.rb);
	f.axis = tb_rotate(a->dq, joint->axis_a);
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
static inline void tb_apply_lever_impulse(const tb_joint *joint, tb_body_state *a, tb_body_state *b, tb_vec2 p,
                                          float la, float lb)
{
	a->v = tb_mul_sub(a->v, joint->pt.inv_mass_a, p);
	a->w -= joint->pt.inv_i_a * la;
	b->v = tb_mul_add(b->v, joint->pt.inv_mass_b, p);
	b->w += joint->pt.inv_i_b * lb;
}

static void tb_prismatic_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b)
{
	tb_prismatic_frame f = tb_prismatic_current(joint, a, b);
	float axial = joint->spring_impulse + joint->motor_impulse + joint->lower_impulse - joint->upper_impulse;
	float perp = joint->axial_impulse;
	float angle = joint->angular_impulse;
	tb_vec2 p = tb_add(tb_mul_sv(axial, f.axis), tb_mul_sv(perp, f.perp));
	float la = axial * f.a1 + perp * f.s1 + angle;
	float lb = axial * f.a2 + perp * f.s2 + angle;
	tb_apply_lever_impulse(joint, a, b, p, la, lb);
}

static inline float tb_prismatic_axial_speed(const tb_prismatic_frame *f, const tb_body_state *a,
                                             const tb_body_state *b)
{
	return tb_dot(f->axis, tb_sub(b->v, a->v)) + f->a2 * b->w - f->a1 * a->w;
}

static void tb_prismatic_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, tb_step_context *ctx,
                               bool use_bias)
{
	const tb_joint_def *def = &joint->def;
	tb_prismatic_frame f = tb_prismatic_current(joint, a, b);
	float translation = tb_dot(f.axis, f.d);

	if (def->enable_spring && def->hertz > 0.0f) {
		/* the spring rests at zero translation: the anchors coincide along the axis */
		float bias = joint->spring_softness.bias_rate * translation;
		float cdot = tb_prismatic_axial_speed(&f, a, b);
		float impulse = -joint->spring_softness.mass_scale * joint->axial_mass * (cdot + bias) -
		                joint->spring_softness.impulse_scale * joint->spring_impulse;
		joint->spring_impulse += impulse;
		tb_apply_lever_impulse(joint, a, b, tb_mul_sv(impulse, f.axis), impulse * f.a1, impulse * f.a2);
	}

	if (def->enable_motor) {
		float cdot = tb_prismatic_axial_speed(&f, a, b);
		float impulse = joint->axial_mass * (def->motor_speed - cdot);
		float old = joint->motor_impulse;
		float max_impulse = ctx->h * def->max_motor_force;
		joint->motor_impulse = tb_clampf(old + impulse, -max_impulse, max_impulse);
		impulse = joint->motor_impulse - old;
		tb_apply_lever_impulse(joint, a, b, tb_mul_sv(impulse, f.axis), impulse * f.a1, impulse * f.a2);
	}

	if (def->enable_limit) {
		float cdot = tb_prismatic_axial_speed(&f, a, b);
		float impulse = tb_limit_impulse(translation - def->lower, cdot, joint->axial_mass, &joint->lower_impulse,
		                                 use_bias, ctx);
		tb_apply_lever_impulse(joint, a, b, tb_mul_sv(impulse, f.axis), impulse * f.a1, impulse * f.a2);

		cdot = tb_prismatic_axial_speed(&f, a, b);
		impulse = tb_limit_impulse(def->upper - translation, -cdot, joint->axial_mass, &joint->upper_impulse,
		                           use_bias, ctx);
		tb_apply_lever_impulse(joint, a, b, tb_mul_sv(-impulse, f.axis), -impulse * f.a1, -impulse * f.a2);
	}

	/* Perpendicular offset and relative angle together, as one 2x2 block. */
	{
		float ma = joint->pt.inv_mass_a, mb = joint->pt.inv_mass_b, ia = joint->pt.inv_i_a, ib = joint->pt.inv_i_b;
		tb_vec2 cdot = tb_v2(tb_dot(f.perp, tb_sub(b->v, a->v)) + f.s2 * b->w - f.s1 * a->w, b->w - a->w);
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
		float perp_impulse = -mass_scale * x.x - impulse_scale * joint->axial_impulse;
		float angle_impulse = -mass_scale * x.y - impulse_scale * joint->angular_impulse;
		joint->axial_impulse += perp_impulse;
		joint->angular_impulse += angle_impulse;
		tb_apply_lever_impulse(joint, a, b, tb_mul_sv(perp_impulse, f.perp), perp_impulse * f.s1 + angle_impulse,
		                       perp_impulse * f.s2 + angle_impulse);
	}
}

/* ---------------------------------------------------------------- distance */

/* The rod length and the limits, kept out of the degenerate zero length where the
 * axis would be undefined. */
static inline void tb_distance_lengths(const tb_joint_def *def, float *length, float *min_length, float *max_length)
{
	*min_length = tb_maxf(def->min_length, TB_LINEAR_SLOP);
	*max_length = tb_maxf(def->max_length, *min_length);
	*length = tb_clampf(def->length, *min_length, *max_length);
}

static void tb_distance_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b)
{
	tb_vec2 ra = tb_rotate(a->dq, joint->pt.frame_a);
	tb_vec2 rb = tb_rotate(b->dq, joint->pt.frame_b);
	tb_vec2 axis = tb_normalize(tb_current_separation(&joint->pt, a, b, ra, rb));
	float axial = joint->axial_impulse + joint->lower_impulse - joint->upper_impulse;
	tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(axial, axis), 0.0f);
}

static void tb_distance_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, tb_step_context *ctx,
                              bool use_bias)
{
	const tb_joint_def *def = &joint->def;
	float rest, min_length, max_length;
	tb_distance_lengths(def, &rest, &min_length, &max_length);

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
		float impulse = -mass_scale * joint->axial_mass * (cdot + bias) - impulse_scale * joint->axial_impulse;
		joint->axial_impulse += impulse;
		tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(impulse, axis), 0.0f);
		return;
	}

	/* A spring is physical, not position correction: it acts in both passes. */
	if (def->hertz > 0.0f) {
		float cdot = tb_dot(axis, tb_anchor_velocity(a, b, ra, rb));
		float bias = joint->spring_softness.bias_rate * (length - rest);
		float impulse = -joint->spring_softness.mass_scale * joint->axial_mass * (cdot + bias) -
		                joint->spring_softness.impulse_scale * joint->axial_impulse;
		joint->axial_impulse += impulse;
		tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(impulse, axis), 0.0f);
	}

	{
		float cdot = tb_dot(axis, tb_anchor_velocity(a, b, ra, rb));
		float impulse =
			tb_limit_impulse(length - min_length, cdot, joint->axial_mass, &joint->lower_impulse, use_bias, ctx);
		tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(impulse, axis), 0.0f);
	}
	if (max_length < TB_JOINT_HUGE) {
		float cdot = tb_dot(axis, tb_anchor_velocity(a, b, ra, rb));
		float impulse =
			tb_limit_impulse(max_length - length, -cdot, joint->axial_mass, &joint->upper_impulse, use_bias, ctx);
		tb_apply_point_impulse(&joint->pt, a, b, ra, rb, tb_mul_sv(-impulse, axis), 0.0f);
	}
}

/* ---------------------------------------------------------------- weld */

static void tb_weld_warm_start(tb_joint *joint, tb_body_state *a, tb_body_state *b)
{
	tb_point_warm_start(&joint->pt, a, b, joint->angular_impulse);
}

static void tb_weld_solve(tb_joint *joint, tb_body_state *a, tb_body_state *b, tb_step_context *ctx, bool use_bias)
{
	const tb_joint_def *def = &joint->def;
	float ia = joint->pt.inv_i_a, ib = joint->pt.inv_i_b;

	/* A soft weld (hertz > 0) is a spring and keeps its bias when relaxing; a rigid
	 * one only corrects position in the biased pass. */
	{
		bool biased = use_bias || def->angular_hertz > 0.0f;
		float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
		if (biased) {
			float c = joint->delta_angle + tb_delta_rotation_angle(a, b);
			bias = joint->angular_softness.bias_rate * c;
			mass_scale = joint->angular_softness.mass_scale;
			impulse_scale = joint->angular_softness.impulse_scale;
		}
		float cdot = b->w - a->w;
		float impulse = -joint->axial_mass * mass_scale * (cdot + bias) - impulse_scale * joint->angular_impulse;
		joint->angular_impulse += impulse;
		a->w -= ia * impulse;
		b->w += ib * impulse;
	}

	tb_solve_point(&joint->pt, a, b, joint->linear_softness, use_bias || def->hertz > 0.0f);
}

/* ---------------------------------------------------------------- mouse */

static void tb_mouse_warm_start(tb_joint *joint, tb_body_state *b)
{
	tb_vec2 rb = tb_rotate(b->dq, joint->pt.frame_b);
	b->v = tb_mul_add(b->v, joint->pt.inv_mass_b, joint->pt.linear_impulse);
	b->w += joint->pt.inv_i_b * (tb_cross(rb, joint->pt.linear_impulse) + joint->angular_impulse);
}

static void tb_mouse_solve(tb_joint *joint, tb_body_state *b, tb_step_context *ctx)
{
	float mb = joint->pt.inv_mass_b, ib = joint->pt.inv_i_b;

	/* spin damping: a soft constraint towards zero angular velocity, no position term */
	{
		float impulse = -joint->angular_softness.mass_scale * joint->axial_mass * b->w -
		                joint->angular_softness.impulse_scale * joint->angular_impulse;
		joint->angular_impulse += impulse;
		b->w += ib * impulse;
	}

	/* The pull is a spring in both passes: it is the user's hand, not an error to correct. */
	tb_vec2 rb = tb_rotate(b->dq, joint->pt.frame_b);
	tb_vec2 cdot = tb_add(b->v, tb_cross_sv(b->w, rb));
	tb_vec2 separation = tb_add(tb_add(b->dp, rb), joint->pt.delta_center);
	tb_vec2 bias = tb_mul_sv(joint->linear_softness.bias_rate, separation);

	float k11 = mb + rb.y * rb.y * ib;
	float k12 = -rb.y * rb.x * ib;
	float k22 = mb + rb.x * rb.x * ib;
	tb_vec2 x = tb_solve22(k11, k12, k12, k22, tb_add(cdot, bias));

	tb_vec2 old = joint->pt.linear_impulse;
	tb_vec2 impulse = tb_v2(-joint->linear_softness.mass_scale * x.x - joint->linear_softness.impulse_scale * old.x,
	                        -joint->linear_softness.mass_scale * x.y - joint->linear_softness.impulse_scale * old.y);
	tb_vec2 total = tb_add(old, impulse);
	float max_impulse = joint->def.max_force * ctx->h;
	float magnitude = tb_length(total);
	if (magnitude > max_impulse) total = tb_mul_sv(max_impulse / magnitude, total);
	impulse = tb_sub(total, old);
	joint->pt.linear_impulse = total;

	b->v = tb_mul_add(b->v, mb, impulse);
	b->w += ib * tb_cross(rb, impulse);
}

/* ---------------------------------------------------------------- dispatch */

void tb_joint_warm_start(tb_joint *joint, tb_step_context *ctx)
{
	tb_joint_states js;
	tb_get_states(&js, joint->state_a, joint->state_b, ctx);
	switch (joint->def.type) {
	case TB_JOINT_REVOLUTE: tb_revolute_warm_start(joint, js.a, js.b); break;
	case TB_JOINT_PRISMATIC: tb_prismatic_warm_start(joint, js.a, js.b); break;
	case TB_JOINT_DISTANCE: tb_distance_warm_start(joint, js.a, js.b); break;
	case TB_JOINT_WELD: tb_weld_warm_start(joint, js.a, js.b); break;
	case TB_JOINT_MOUSE: tb_mouse_warm_start(joint, js.b); break;
	default: break;
	}
}

void tb_joint_solve(tb_joint *joint, tb_step_context *ctx, bool use_bias)
{
	tb_joint_states js;
	tb_get_states(&js, joint->state_a, joint->state_b, ctx);
	switch (joint->def.type) {
	case TB_JOINT_REVOLUTE: tb_revolute_solve(joint, js.a, js.b, ctx, use_bias); break;
	case TB_JOINT_PRISMATIC: tb_prismatic_solve(joint, js.a, js.b, ctx, use_bias); break;
	case TB_JOINT_DISTANCE: tb_distance_solve(joint, js.a, js.b, ctx, use_bias); break;
	case TB_JOINT_WELD: tb_weld_solve(joint, js.a, js.b, ctx, use_bias); break;
	case TB_JOINT_MOUSE: tb_mouse_solve(joint, js.b, ctx); break;
	default: break;
	}
}

/* ---------------------------------------------------------------- rows */

/* A revolute joint with no spring, motor or limit is its point constraint alone. */
static bool tb_joint_is_pin(const tb_joint *joint)
{
	const tb_joint_def *def = &joint->def;
	return def->type == TB_JOINT_REVOLUTE && !(def->enable_spring && def->hertz > 0.0f) && !def->enable_motor &&
	       !def->enable_limit;
}

tb_joint_row tb_joint_make_row(const tb_joint *joint, int32_t slot)
{
	tb_joint_row row;
	row.state_a = joint->state_a;
	row.state_b = joint->state_b;
	row.joint = slot;
	row.pin = tb_joint_is_pin(joint) ? 1 : 0;
	row.pt = joint->pt;
	return row;
}

void tb_joint_store_row(tb_joint *joint, const tb_joint_row *row)
{
	if (row->pin) joint->pt.linear_impulse = row->pt.linear_impulse;
}

void tb_joint_rows_warm_start(tb_joint *joints, tb_joint_row *rows, int32_t count, tb_step_context *ctx)
{
	tb_joint_states js;
	for (int32_t k = 0; k < count; ++k) {
		tb_joint_row *row = rows + k;
		if (!row->pin) {
			tb_joint_warm_start(joints + row->joint, ctx);
			continue;
		}
		tb_get_states(&js, row->state_a, row->state_b, ctx);
		tb_point_warm_start(&row->pt, js.a, js.b, 0.0f);
	}
}

void tb_joint_rows_solve(tb_joint *joints, tb_joint_row *rows, int32_t count, tb_step_context *ctx, bool use_bias)
{
	tb_joint_states js;
	for (int32_t k = 0; k < count; ++k) {
		tb_joint_row *row = rows + k;
		if (!row->pin) {
			tb_joint_solve(joints + row->joint, ctx, use_bias);
			continue;
		}
		tb_get_states(&js, row->state_a, row->state_b, ctx);
		tb_solve_point(&row->pt, js.a, js.b, ctx->joint_softness, use_bias);
	}
}

/* ---------------------------------------------------------------- public accessors */

static tb_transform tb_joint_body_transform(const tb_world *world, int32_t slot)
{
	if (slot < 0) return tb_transform_identity;
	return tb_world_body_sim(world, slot)->transform;
}

static tb_vec2 tb_joint_body_center(const tb_world *world, int32_t slot)
{
	if (slot < 0) return tb_vec2_zero;
	return tb_world_body_sim(world, slot)->center;
}

static tb_vec2 tb_joint_anchor_a(const tb_world *world, const tb_joint *joint)
{
	/* the mouse joint's "anchor on A" is the point it pulls towards */
	if (joint->def.type == TB_JOINT_MOUSE) return joint->def.target;
	return tb_transform_point(tb_joint_body_transform(world, joint->body_a), joint->def.local_anchor_a);
}

static tb_vec2 tb_joint_anchor_b(const tb_world *world, const tb_joint *joint)
{
	return tb_transform_point(tb_joint_body_transform(world, joint->body_b), joint->def.local_anchor_b);
}

tb_joint_type tb_joint_get_type(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	return joint ? joint->def.type : TB_JOINT_REVOLUTE;
}

tb_body_id tb_joint_get_body_a(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	return joint ? joint->def.body_a : tb_null_body_id;
}

tb_body_id tb_joint_get_body_b(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	return joint ? joint->def.body_b : tb_null_body_id;
}

tb_vec2 tb_joint_get_world_anchor_a(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	return joint ? tb_joint_anchor_a(world, joint) : tb_vec2_zero;
}

tb_vec2 tb_joint_get_world_anchor_b(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	return joint ? tb_joint_anchor_b(world, joint) : tb_vec2_zero;
}

tb_joint_def tb_joint_get_def(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	if (joint) return joint->def;
	tb_joint_def zero;
	memset(&zero, 0, sizeof(zero));
	return zero;
}

tb_status tb_joint_set_def(tb_world *world, tb_joint_id id, const tb_joint_def *def)
{
	tb_joint *joint = tb_world_joint_lookup(world, id);
	if (joint == NULL) return TB_ERR_STALE_HANDLE;
	if (def == NULL) return TB_ERR_INVALID_ARGUMENT;
	if (tb_world_is_locked(world)) return TB_ERR_LOCKED;
	tb_status status = tb_joint_validate_def(def);
	if (status != TB_OK) return status;

	const tb_joint_def *cur = &joint->def;
	if (def->type != cur->type || !TB_ID_EQUALS(def->body_a, cur->body_a) || !TB_ID_EQUALS(def->body_b, cur->body_b) ||
	    def->local_anchor_a.x != cur->local_anchor_a.x || def->local_anchor_a.y != cur->local_anchor_a.y ||
	    def->local_anchor_b.x != cur->local_anchor_b.x || def->local_anchor_b.y != cur->local_anchor_b.y) {
		return TB_ERR_INVALID_ARGUMENT;
	}

	/* A feature switched off drops its impulse now, not at the next prepare, so
	 * nothing stale is reported as a force in between. */
	if (cur->enable_limit && !def->enable_limit) {
		joint->lower_impulse = 0.0f;
		joint->upper_impulse = 0.0f;
	}
	if (cur->enable_motor && !def->enable_motor) joint->motor_impulse = 0.0f;
	if (cur->enable_spring != def->enable_spring) {
		joint->spring_impulse = 0.0f;
		if (cur->type == TB_JOINT_DISTANCE) {
			joint->axial_impulse = 0.0f;
			joint->lower_impulse = 0.0f;
			joint->upper_impulse = 0.0f;
		}
	}

	/* reference_angle and local_axis_a are fixed at creation, like the anchors */
	tb_joint_def next = *def;
	next.reference_angle = cur->reference_angle;
	next.local_axis_a = cur->local_axis_a;
	joint->def = next;

	tb_world_wake_body_slot(world, joint->body_a);
	tb_world_wake_body_slot(world, joint->body_b);
	return TB_OK;
}

float tb_joint_get_value(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	if (joint == NULL) return 0.0f;
	tb_transform xa = tb_joint_body_transform(world, joint->body_a);
	tb_transform xb = tb_joint_body_transform(world, joint->body_b);
	switch (joint->def.type) {
	case TB_JOINT_REVOLUTE:
		return tb_unwind_angle(tb_relative_angle(xb.q, xa.q) - joint->def.reference_angle);
	case TB_JOINT_PRISMATIC: {
		tb_vec2 axis = tb_rotate(xa.q, joint->def.local_axis_a);
		tb_vec2 d = tb_sub(tb_joint_anchor_b(world, joint), tb_joint_anchor_a(world, joint));
		return tb_dot(axis, d);
	}
	case TB_JOINT_DISTANCE:
		return tb_distance(tb_joint_anchor_a(world, joint), tb_joint_anchor_b(world, joint));
	default:
		return 0.0f;
	}
}

/* Force on body B over the last step: the per-substep accumulated impulses of the
 * last substep divided by the substep (that impulse was applied every substep). */
tb_vec2 tb_joint_get_constraint_force(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	if (joint == NULL) return tb_vec2_zero;
	float inv_h = joint->last_inv_h;
	switch (joint->def.type) {
	case TB_JOINT_REVOLUTE:
	case TB_JOINT_WELD:
	case TB_JOINT_MOUSE:
		return tb_mul_sv(inv_h, joint->pt.linear_impulse);
	case TB_JOINT_PRISMATIC: {
		tb_vec2 axis = tb_rotate(tb_joint_body_transform(world, joint->body_a).q, joint->def.local_axis_a);
		float axial = joint->spring_impulse + joint->motor_impulse + joint->lower_impulse - joint->upper_impulse;
		tb_vec2 p = tb_add(tb_mul_sv(axial, axis), tb_mul_sv(joint->axial_impulse, tb_left_perp(axis)));
		return tb_mul_sv(inv_h, p);
	}
	case TB_JOINT_DISTANCE: {
		tb_vec2 axis = tb_normalize(tb_sub(tb_joint_anchor_b(world, joint), tb_joint_anchor_a(world, joint)));
		float axial = joint->axial_impulse + joint->lower_impulse - joint->upper_impulse;
		return tb_mul_sv(inv_h * axial, axis);
	}
	default:
		return tb_vec2_zero;
	}
}

float tb_joint_get_constraint_torque(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	if (joint == NULL) return 0.0f;
	switch (joint->def.type) {
	case TB_JOINT_REVOLUTE:
		return joint->last_inv_h *
		       (joint->spring_impulse + joint->motor_impulse + joint->lower_impulse - joint->upper_impulse);
	case TB_JOINT_PRISMATIC:
	case TB_JOINT_WELD:
	case TB_JOINT_MOUSE:
		return joint->last_inv_h * joint->angular_impulse;
	default:
		return 0.0f;
	}
}

void *tb_joint_get_user_data(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_world_joint_lookup(world, id);
	return joint ? joint->def.user_data : NULL;
}

void tb_joint_set_user_data(tb_world *world, tb_joint_id id, void *data)
{
	tb_joint *joint = tb_world_joint_lookup(world, id);
	if (joint) joint->def.user_data = data;
}

void tb_joint_draw(const tb_world *world, const tb_joint *joint, const tb_debug_draw *draw)
{
	if (draw == NULL || !draw->draw_joints || draw->draw_joint == NULL) return;
	tb_vec2 anchor_a = tb_joint_anchor_a(world, joint);
	tb_vec2 anchor_b = tb_joint_anchor_b(world, joint);
	tb_vec2 center_a = joint->def.type == TB_JOINT_MOUSE || joint->body_a < 0 ? anchor_a
	                                                                           : tb_joint_body_center(world, joint->body_a);
	tb_vec2 center_b = tb_joint_body_center(world, joint->body_b);
	draw->draw_joint(joint->def.type, anchor_a, anchor_b, center_a, center_b, draw->context);
}
