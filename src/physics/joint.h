/* tumble physics: joints (engine-private).
 *
 * A joint is a common part (its def, its bodies, its links into both bodies'
 * joint lists, the point constraint every kind has) plus a union of per-kind
 * solver parts, so a field never means two things. joint.c owns the common
 * part: lifetime, validation, the rows the substeps solve, dispatch and the
 * public accessors; joint_<kind>.c owns one kind's operations (tb_joint_ops:
 * its defaults and rules, prepare, warm start, solve, force, torque, ...).
 *
 * Every joint follows the same soft-step pattern (after Box2D v3):
 *   prepare     once per step: anchors relative to the centres of mass (frames),
 *               the centre offset and relative angle at step start, effective masses;
 *   warm start  every substep: apply the impulses accumulated so far;
 *   solve       every substep, twice: with a soft position bias (use_bias), then
 *               without it (relax) so the bias does not leave energy behind.
 * Positions are measured from the body states' dp/dq deltas, so the current
 * error of a constraint costs two rotations, not a transform update.
 * Accumulated impulses are per substep: the constraint force is impulse / h. */
#ifndef TB_JOINT_H
#define TB_JOINT_H

#include "contact_solver.h"
#include "solver.h"

typedef struct tb_world tb_world;

/* Upper bound of the default distance range: "no maximum" but still a finite number. */
#define TB_JOINT_HUGE 1.0e6f

/* What every joint's solve reads most: the anchors, the masses and the point
 * impulse. A plain pin (revolute without spring, motor or limit, the bulk of
 * chains, ropes and grids) needs nothing else, so the step copies it with its
 * state indices into a 96-byte row and solves the rows, not the joints. */
typedef struct tb_joint_point {
	tb_vec2 frame_a, frame_b;  /* anchors relative to the centres of mass, world orientation at step start */
	tb_vec2 delta_center;      /* center_b - center_a at step start */
	float inv_mass_a, inv_mass_b, inv_i_a, inv_i_b;
	tb_vec2 linear_impulse;    /* the point constraint's (revolute, weld, mouse) */
} tb_joint_point;

/* What the point constraint computes from the two rotations alone: the
 * anchors from the centres of mass, its 2x2 mass matrix K and K's determinant. */
typedef struct tb_point_frame {
	tb_vec2 ra, rb;
	float k11, k12, k22, det;
} tb_point_frame;

/* How the substeps solve a row. */
typedef enum tb_row_kind {
	TB_ROW_PIN,      /* a plain pin, solved here from pt alone */
	TB_ROW_BLOCK,    /* a plain pin solved in the step's pin blocks (solver.c) */
	TB_ROW_REVOLUTE, /* pt here, the angle in the next tb_revolute_row: the rows' and the
	                  * revolute rows' orders agree, so the k-th such row has the k-th */
	TB_ROW_JOINT,    /* any other kind, solved by its operations from the joint */
} tb_row_kind;

typedef struct tb_joint_row {
	int32_t state_a, state_b;  /* -1: immovable this step */
	int32_t joint;             /* slot in world->joints */
	tb_row_kind kind;
	tb_joint_point pt;
	tb_point_frame frame;      /* measured by the last relax (see tb_row_frame) */
} tb_joint_row;
_Static_assert(sizeof(tb_joint_row) == 96, "a row is 96 bytes (the pin blocks and the rows' passes read them)");

TB_ARRAY_DECLARE(tb_joint_row_array, tb_joint_row)

/* An empty pin block for `lane_count` lanes; the unused lanes have no bodies
 * and no mass. */
static inline void tb_pin_block_init(tb_pin_block *blk, int32_t lane_count)
{
	memset(blk, 0, sizeof *blk);
	blk->lane_count = lane_count;
	for (int i = 0; i < TB_BLOCK_LANES; ++i) blk->state_a[i] = blk->state_b[i] = blk->row[i] = -1;
}

/* Lane i of a pin block (contact_solver.h) from a pin's row (row index k, for the impulse's way back). */
static inline void tb_pin_block_set_lane(tb_pin_block *blk, int i, const tb_joint_row *row, int32_t k)
{
	const tb_joint_point *pt = &row->pt;
	blk->state_a[i] = row->state_a;
	blk->state_b[i] = row->state_b;
	blk->row[i] = k;
	blk->frame_ax[i] = pt->frame_a.x;
	blk->frame_ay[i] = pt->frame_a.y;
	blk->frame_bx[i] = pt->frame_b.x;
	blk->frame_by[i] = pt->frame_b.y;
	blk->delta_x[i] = pt->delta_center.x;
	blk->delta_y[i] = pt->delta_center.y;
	blk->inv_mass_a[i] = pt->inv_mass_a;
	blk->inv_mass_b[i] = pt->inv_mass_b;
	blk->inv_i_a[i] = pt->inv_i_a;
	blk->inv_i_b[i] = pt->inv_i_b;
	blk->impulse_x[i] = pt->linear_impulse.x;
	blk->impulse_y[i] = pt->linear_impulse.y;
}


/* A revolute joint with a spring, a motor or limits is solved from its row
 * (the point) and one of these (the angle): everything the substeps read, so
 * a pass over ragdolls reads 160 bytes a joint instead of four cache lines of
 * the 304-byte joint it was prepared from. Impulses go back to the joint when
 * the step stores them. */
enum {
	TB_REVOLUTE_SPRING = 1u, /* the features that act this step: enabled, and */
	TB_REVOLUTE_MOTOR = 2u,  /* some rotation is free (not both bodies' locked) */
	TB_REVOLUTE_LIMIT = 4u,
};

typedef struct tb_revolute_row {
	uint32_t features;
	float delta_angle;         /* the joint's */
	float angular_mass;
	tb_softness spring;
	float motor_speed, max_motor_impulse; /* the impulse: per substep */
	float lower, upper;
	float spring_impulse, motor_impulse, lower_impulse, upper_impulse;
	float angle;               /* measured by the last relax (see tb_revolute_solve) */
	float unused;              /* to 64 bytes */
} tb_revolute_row;

TB_ARRAY_DECLARE(tb_revolute_row_array, tb_revolute_row)

/* Revolute: the point constraint, and about the angle a spring, a motor and limits. */
typedef struct tb_revolute_joint {
	float angular_mass;
	tb_softness spring_softness;
	float spring_impulse, motor_impulse, lower_impulse, upper_impulse;
} tb_revolute_joint;

/* Prismatic: B slides along A's axis; the perpendicular offset and the relative
 * angle are held as one 2x2 block; along the axis a spring, a motor and limits. */
typedef struct tb_prismatic_joint {
	tb_vec2 axis;              /* A's axis in world axes, at step start */
	float axial_mass;
	tb_softness spring_softness;
	float spring_impulse, motor_impulse, lower_impulse, upper_impulse;
	float perpendicular_impulse, angular_impulse;
} tb_prismatic_joint;

/* Distance: a rod (or, with a spring, a spring) along the anchors' line, and
 * one-sided limits at the minimum and maximum lengths. */
typedef struct tb_distance_joint {
	float axial_mass;
	tb_softness spring_softness;
	float impulse;             /* of the rod, or of the spring */
	float lower_impulse, upper_impulse;
} tb_distance_joint;

/* Weld: the point constraint and the relative angle, each rigid or soft. */
typedef struct tb_weld_joint {
	float angular_mass;
	tb_softness linear_softness, angular_softness;
	float angular_impulse;
} tb_weld_joint;

/* Mouse: B's anchor pulled to a world target by a soft, force-capped spring
 * (the point impulse), and B's spin damped a little. */
typedef struct tb_mouse_joint {
	float angular_mass;
	tb_softness linear_softness, angular_softness;
	float angular_impulse;
} tb_mouse_joint;

/* Wheel: B's anchor stays on A's axis (a line through A's anchor); along the
 * axis a spring (the suspension) and limits, and a motor on the relative spin.
 * B turns freely. */
typedef struct tb_wheel_joint {
	tb_vec2 axis;              /* A's axis in world axes, at step start */
	float perp_mass, axial_mass, motor_mass;
	tb_softness spring_softness;
	float perp_impulse, spring_impulse, motor_impulse, lower_impulse, upper_impulse;
} tb_wheel_joint;

/* Motor: B's origin driven to a point fixed in A (pt, whose frame_a is that
 * point) and B's angle to A's plus an offset, each by a velocity constraint
 * whose bias closes a share of the error per substep, its impulse capped by
 * the maximum force or torque. */
typedef struct tb_motor_joint {
	float k11, k12, k22;       /* the point's mass matrix at step start */
	float angular_mass;
	float angular_impulse;
} tb_motor_joint;

typedef struct tb_joint {
	tb_joint_def def;          /* kind, ids, anchors and the tunables; def.body_a/b are ids */
	int32_t body_a, body_b;    /* body slots */
	uint32_t generation;
	bool in_use;
	bool is_active;            /* both bodies enabled; set by the step */
	int32_t edge_prev[2], edge_next[2]; /* joint keys (slot << 1 | edge) in each body's list */

	/* ---- solver state, set by prepare ---- */
	int32_t state_a, state_b;  /* the bodies' states this step, -1: immovable */
	tb_joint_point pt;
	float delta_angle;         /* angle_b - angle_a - reference at step start */
	float last_inv_h;          /* to turn impulses into forces */
	union {
		tb_revolute_joint revolute;
		tb_prismatic_joint prismatic;
		tb_distance_joint distance;
		tb_weld_joint weld;
		tb_mouse_joint mouse;
		tb_wheel_joint wheel;
		tb_motor_joint motor;
	};
} tb_joint;

TB_ARRAY_DECLARE(tb_joint_array, tb_joint)

/* What set_def changes that a kind's reset must drop the impulse of. */
typedef struct tb_joint_change {
	bool limit_off, motor_off, spring_changed;
} tb_joint_change;

/* One kind of joint: what joint.c asks of it, one signature each, so adding a
 * kind is a tb_joint_type, a union member above, a joint_<kind>.c with its
 * table and a line in tb_joint_kinds (joint.c). NULL: the kind has no such
 * step, or the common behaviour given with the entry. */
typedef struct tb_joint_ops {
	/* the def: the kind's defaults after the common ones (tb_default_joint_def),
	 * its rules after the common checks (tb_joint_validate_def), and what
	 * creation changes in the def it keeps (after the axis is normalized) */
	void (*set_defaults)(tb_joint_def *def);
	tb_status (*validate)(const tb_joint_def *def);
	void (*adopt)(tb_joint_def *def);
	bool has_axis;          /* local_axis_a is the kind's: normalized at creation, unit ever after */
	bool solved_from_rows;  /* revolute: the substeps solve it from its rows, so no warm_start or solve */
	bool free_anchor_a;     /* anchor A is not on A (the mouse's target): drawn from the anchor */
	/* once per step, after the common part (tb_joint_prepare) */
	void (*prepare)(tb_joint *joint, const tb_step_context *ctx);
	/* every substep; an immovable body is an identity state whose writes are dropped */
	void (*warm_start)(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx);
	void (*solve)(tb_joint *joint, tb_body_state *a, tb_body_state *b, const tb_step_context *ctx, bool use_bias);
	/* the last step's constraint force on B and torque (NULL: none), and the
	 * joint's coordinate (angle, translation or length; NULL: 0) */
	tb_vec2 (*force)(const tb_world *world, const tb_joint *joint);
	float (*torque)(const tb_joint *joint);
	float (*value)(const tb_world *world, const tb_joint *joint);
	/* the world point anchor A names (NULL: local_anchor_a on A) */
	tb_vec2 (*anchor_a)(const tb_world *world, const tb_joint *joint);
	/* tb_joint_set_def switched features off or changed the spring: drop their impulses */
	void (*reset)(tb_joint *joint, tb_joint_change change);
} tb_joint_ops;

extern const tb_joint_ops tb_revolute_ops, tb_prismatic_ops, tb_distance_ops, tb_weld_ops, tb_mouse_ops,
	tb_wheel_ops, tb_motor_ops;
/* By tb_joint_type; the type of a joint (and of a def that passed validation) is in range. */
extern const tb_joint_ops *const tb_joint_kinds[TB_JOINT_TYPE_COUNT];

/* ---- joint.c ---- */
/* Checks a def's numbers and kind-specific rules (bodies are checked by the caller). */
tb_status tb_joint_validate_def(const tb_joint_def *def);
void tb_joint_prepare(tb_joint *joint, const tb_step_context *ctx);
/* The row of a prepared joint, and its revolute row when it needs one (at
 * revolute_rows[*revolute_count], which it then counts); tb_joint_store_rows
 * gives the impulses back. */
void tb_joint_make_row(const tb_joint *joint, int32_t slot, tb_joint_row *row, tb_revolute_row *revolute_rows,
                       int32_t *revolute_count, const tb_step_context *ctx);
void tb_joint_store_rows(tb_joint *joints, const tb_joint_row *rows, int32_t count,
                         const tb_revolute_row *revolute_rows);
/* Warm start and solve of the rows in order: pins and revolute joints from
 * their rows, the other kinds by their joint. */
void tb_joint_rows_warm_start(tb_joint *joints, tb_joint_row *rows, tb_revolute_row *revolute_rows, int32_t count,
                              tb_step_context *ctx);
void tb_joint_rows_solve(tb_joint *joints, tb_joint_row *rows, tb_revolute_row *revolute_rows, int32_t count,
                         tb_step_context *ctx, bool use_bias);
void tb_joint_draw(const tb_world *world, const tb_joint *joint, const tb_debug_draw *draw);
/* The constraint force (N, on B) and torque (N*m) of the last step. */
tb_vec2 tb_joint_force(const tb_world *world, const tb_joint *joint);
float tb_joint_torque(const tb_joint *joint);
static inline bool tb_joint_is_breakable(const tb_joint_def *def)
{
	return def->break_force < INFINITY || def->break_torque < INFINITY;
}
/* Destroys the joints whose force or torque passed their limits this step
 * (the step calls it last; it may run while the world is locked). */
void tb_break_joints(tb_world *world);
/* Where a joint's bodies and anchors are now (a body slot < 0: the origin). */
tb_transform tb_joint_transform(const tb_world *world, int32_t body);
tb_vec2 tb_joint_world_anchor_a(const tb_world *world, const tb_joint *joint);
tb_vec2 tb_joint_world_anchor_b(const tb_world *world, const tb_joint *joint);
/* Anchor B's offset from anchor A along A's axis (prismatic, wheel). */
float tb_joint_axis_translation(const tb_world *world, const tb_joint *joint);
/* The force of the point impulse alone (revolute, weld, mouse, motor). */
tb_vec2 tb_joint_point_force(const tb_world *world, const tb_joint *joint);

/* ---- joint_revolute.c: the rows of a revolute joint that is not a plain pin ---- */
/* A revolute joint with no spring, motor or limit is its point constraint alone. */
static inline bool tb_revolute_is_pin(const tb_joint *joint)
{
	const tb_joint_def *def = &joint->def;
	return !(def->enable_spring && def->hertz > 0.0f) && !def->enable_motor && !def->enable_limit;
}
void tb_revolute_make_row(const tb_joint *joint, const tb_step_context *ctx, tb_revolute_row *row);
void tb_revolute_store_row(tb_joint *joint, const tb_revolute_row *r);
void tb_revolute_warm_start(const tb_joint_row *row, const tb_revolute_row *r, tb_body_state *a, tb_body_state *b,
                            const tb_step_context *ctx);
void tb_revolute_solve(tb_joint_row *row, tb_revolute_row *r, tb_body_state *a, tb_body_state *b,
                       const tb_step_context *ctx, bool use_bias);

/* ---- helpers the kinds share ---- */

/* Solves K x = b for a 2x2 K; a singular K (both bodies immovable) gives zero
 * so no impulse is applied. */
static inline tb_vec2 tb_solve22(float k11, float k12, float k21, float k22, tb_vec2 b)
{
	float det = k11 * k22 - k12 * k21;
	if (det == 0.0f) return tb_vec2_zero;
	det = 1.0f / det;
	return tb_v2(det * (k22 * b.x - k12 * b.y), det * (k11 * b.y - k21 * b.x));
}

/* The solver's arc tangent: atan2(y, x) within 6.4e-7 rad of the true angle
 * (measured; tests/physics/test_math.c holds it to 1e-6), from +, -, *, / and
 * comparisons alone, so every platform and the wasm build give the same bits,
 * at the cost of one division. tb_atan2f (math.c) is the precise one, for what
 * the user reads; the solver only needs an angle whose error is far below what
 * a limit or a spring could show, and needs it in every solve of a joint with
 * an angular spring or limit (the double one was a tenth of the rain scene).
 *
 * With t = min(|x|, |y|) / max(|x|, |y|) in [0, 1], atan(t) is
 * t + t^3 P(t^2), P of degree 5 fitted by Remez to the least largest absolute
 * error (3.4e-7 before float rounding); the leading 1 is kept exact, so small
 * angles come out with a small relative error. The octant and the quadrant
 * are restored by reflections. Conventions: atan2(+-0, +-0) is 0; a zero y
 * gives +0 or +pi (its sign is not looked at); NaN in gives NaN; both
 * infinite gives NaN (never a rotation's components). */
static inline float tb_solver_atan2(float y, float x)
{
	float ax = fabsf(x), ay = fabsf(y);
	bool steep = ay > ax;
	float big = steep ? ay : ax, small = steep ? ax : ay;
	float t = small / (big == 0.0f ? 1.0f : big); /* (0, 0) is 0; a NaN stays NaN */
	float t2 = t * t, t4 = t2 * t2;
	/* P(u) = (c3 + c5 u) + u^2 ((c7 + c9 u) + u^2 (c11 + c13 u)), u = t^2:
	 * pairs first (Estrin), a shorter chain of dependent steps than Horner's */
	float p01 = 0x1.96c554p-3f * t2 - 0x1.554086p-2f;  /* c5 = 0.198619, c3 = -0.333254 */
	float p23 = 0x1.508f36p-4f * t2 - 0x1.12685p-3f;   /* c9 = 0.0821678, c7 = -0.133988 */
	float p45 = 0x1.e34396p-8f * t2 - 0x1.22fab4p-5f;  /* c13 = 0.00737402, c11 = -0.0355199 */
	float p = p01 + t4 * (p23 + t4 * p45);
	float r = t + t * t2 * p;
	if (steep) r = 1.57079637f - r; /* pi/2 rounded to float */
	if (x < 0.0f) r = 3.14159274f - r;
	return y < 0.0f ? -r : r;
}

/* Angle of b relative to a, in [-pi, pi], by the solver's arc tangent. */
static inline float tb_solver_relative_angle(tb_rot b, tb_rot a)
{
	float s = b.s * a.c - b.c * a.s;
	float c = b.c * a.c + b.s * a.s;
	return tb_solver_atan2(s, c);
}

/* Relative rotation of B against A accumulated during this step. */
static inline float tb_delta_rotation_angle(const tb_body_state *a, const tb_body_state *b)
{
	return tb_solver_relative_angle(b->dq, a->dq);
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
	a->linear_velocity = tb_mul_sub(a->linear_velocity, pt->inv_mass_a, p);
	a->angular_velocity -= pt->inv_i_a * (tb_cross(ra, p) + l);
	b->linear_velocity = tb_mul_add(b->linear_velocity, pt->inv_mass_b, p);
	b->angular_velocity += pt->inv_i_b * (tb_cross(rb, p) + l);
}

/* Relative velocity of the anchor points, B minus A. */
static inline tb_vec2 tb_anchor_velocity(const tb_body_state *a, const tb_body_state *b, tb_vec2 ra, tb_vec2 rb)
{
	tb_vec2 va = tb_add(a->linear_velocity, tb_cross_sv(a->angular_velocity, ra));
	tb_vec2 vb = tb_add(b->linear_velocity, tb_cross_sv(b->angular_velocity, rb));
	return tb_sub(vb, va);
}

/* The point's frame at the bodies' current rotations. */
static inline tb_point_frame tb_point_frame_at(const tb_joint_point *pt, const tb_body_state *a,
                                               const tb_body_state *b)
{
	tb_point_frame f;
	f.ra = tb_rotate(a->dq, pt->frame_a);
	f.rb = tb_rotate(b->dq, pt->frame_b);
	tb_vec2 ra = f.ra, rb = f.rb;
	float ma = pt->inv_mass_a, mb = pt->inv_mass_b, ia = pt->inv_i_a, ib = pt->inv_i_b;
	f.k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
	f.k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
	f.k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
	f.det = f.k11 * f.k22 - f.k12 * f.k12;
	return f;
}

/* The soft point constraint shared by revolute and weld, in a given frame:
 * drives the anchors together with the given softness (rigid when relaxing).
 * K x = cdot + bias as tb_solve22 solves it (a singular K gives zero). */
static inline void tb_solve_point_in(tb_joint_point *pt, const tb_point_frame *f, tb_body_state *a, tb_body_state *b,
                                     tb_softness soft, bool use_bias)
{
	tb_vec2 ra = f->ra, rb = f->rb;
	tb_vec2 cdot = tb_anchor_velocity(a, b, ra, rb);

	tb_vec2 bias = tb_vec2_zero;
	float mass_scale = 1.0f, impulse_scale = 0.0f;
	if (use_bias) {
		tb_vec2 separation = tb_current_separation(pt, a, b, ra, rb);
		bias = tb_mul_sv(soft.bias_rate, separation);
		mass_scale = soft.mass_scale;
		impulse_scale = soft.impulse_scale;
	}

	tb_vec2 rhs = tb_add(cdot, bias), x = tb_vec2_zero;
	if (f->det != 0.0f) {
		float inv_det = 1.0f / f->det;
		x = tb_v2(inv_det * (f->k22 * rhs.x - f->k12 * rhs.y), inv_det * (f->k11 * rhs.y - f->k12 * rhs.x));
	}

	tb_vec2 impulse = tb_v2(-mass_scale * x.x - impulse_scale * pt->linear_impulse.x,
	                        -mass_scale * x.y - impulse_scale * pt->linear_impulse.y);
	pt->linear_impulse = tb_add(pt->linear_impulse, impulse);
	tb_apply_point_impulse(pt, a, b, ra, rb, impulse, 0.0f);
}

/* The soft point constraint at the bodies' current rotations. */
static inline void tb_solve_point(tb_joint_point *pt, tb_body_state *a, tb_body_state *b, tb_softness soft,
                                  bool use_bias)
{
	tb_point_frame f = tb_point_frame_at(pt, a, b);
	tb_solve_point_in(pt, &f, a, b, soft, use_bias);
}

/* Re-applies the point impulse of the last substep, plus an angular impulse l. */
static inline void tb_point_warm_start(const tb_joint_point *pt, tb_body_state *a, tb_body_state *b, float l)
{
	tb_vec2 ra = tb_rotate(a->dq, pt->frame_a);
	tb_vec2 rb = tb_rotate(b->dq, pt->frame_b);
	tb_apply_point_impulse(pt, a, b, ra, rb, pt->linear_impulse, l);
}

/* A row's point frame for this pass. Positions move only between a substep's
 * solve and its relax (solver.c), so the frame the relax measures is the one
 * the next substep's warm start and solve would measure again: the row keeps
 * it, and they read it instead of computing two rotations and K again. */
static inline tb_point_frame tb_row_frame(tb_joint_row *row, const tb_body_state *a, const tb_body_state *b,
                                          const tb_step_context *ctx, bool use_bias)
{
	if (use_bias && ctx->substep_index > 0) {
#ifdef TB_VALIDATE /* the kept frame is what measuring again gives, bit for bit */
		tb_point_frame again = tb_point_frame_at(&row->pt, a, b);
		TB_ASSERT(memcmp(&again, &row->frame, sizeof again) == 0);
#endif
		return row->frame;
	}
	tb_point_frame f = tb_point_frame_at(&row->pt, a, b);
	if (!use_bias) row->frame = f;
	return f;
}

/* A row's warm start of its point, plus an angular impulse l. */
static inline void tb_row_warm_start(const tb_joint_row *row, tb_body_state *a, tb_body_state *b,
                                     const tb_step_context *ctx, float l)
{
	if (ctx->substep_index == 0) {
		tb_point_warm_start(&row->pt, a, b, l);
		return;
	}
#ifdef TB_VALIDATE
	tb_point_frame again = tb_point_frame_at(&row->pt, a, b);
	TB_ASSERT(memcmp(&again, &row->frame, sizeof again) == 0);
#endif
	tb_apply_point_impulse(&row->pt, a, b, row->frame.ra, row->frame.rb, row->pt.linear_impulse, l);
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

#endif
