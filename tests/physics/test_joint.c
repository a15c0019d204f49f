/* Joints through the public API: each test builds a small scene whose motion has
 * an analytic answer (pendulum and spring periods, motor acceleration, force
 * balance) or a hard geometric invariant (anchors together, limits held). */
#include "test_util.h"

#include "joint.h"

#define DT TU_DT
#define G 10.0f

static tb_world *make_world(void) { return tu_world(tb_v2(0.0f, -G)); }
static tb_world *make_world_without_gravity(void) { return tu_world(tb_v2(0.0f, 0.0f)); }
static tb_body_id make_ground(tb_world *world) { return tu_body(world, TB_STATIC_BODY, tb_vec2_zero); }

/* A def of the given kind with both local anchors at one world point. */
static tb_joint_def def_at(tb_world *world, tb_joint_type type, tb_body_id a, tb_body_id b, tb_vec2 anchor)
{
	tb_joint_def def = tb_default_joint_def(type);
	def.body_a = a;
	def.body_b = b;
	def.local_anchor_a = tb_body_get_local_point(world, a, anchor);
	def.local_anchor_b = tb_body_get_local_point(world, b, anchor);
	return def;
}

static tb_joint_id create_ok(tb_world *world, const tb_joint_def *def)
{
	tb_status status = TB_STATUS_COUNT;
	tb_joint_id id = tb_create_joint(world, def, &status);
	assert_int_equal(status, TB_OK);
	assert_false(TB_IS_NULL(id));
	assert_true(tb_joint_is_valid(world, id));
	return id;
}

/* A 2 m x 0.2 m bar of density 1 lying to the right of `pivot`, and the def of a
 * revolute joint hinging its left end there to `ground` (not yet created). */
static tb_body_id make_hinged_bar(tb_world *world, tb_body_id ground, tb_vec2 pivot, tb_joint_def *def)
{
	tb_body_id bar = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(pivot.x + 1.0f, pivot.y), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, bar, 1.0f, 0.1f, 1.0f);
	*def = def_at(world, TB_JOINT_REVOLUTE, ground, bar, pivot);
	return bar;
}

static float anchor_gap(const tb_world *world, tb_joint_id id)
{
	return tb_distance(tb_joint_get_world_anchor_a(world, id), tb_joint_get_world_anchor_b(world, id));
}

/* Average period from upward zero crossings of a sampled signal (linear
 * interpolation between samples). Returns 0 with fewer than two crossings. */
typedef struct crossings {
	double first, last;
	int count;
	double prev_value, prev_time;
	bool has_prev;
} crossings;

static void crossings_add(crossings *c, double t, double value)
{
	if (c->has_prev && c->prev_value < 0.0 && value >= 0.0) {
		double tc = c->prev_time + (t - c->prev_time) * (-c->prev_value) / (value - c->prev_value);
		if (c->count == 0) c->first = tc;
		c->last = tc;
		c->count++;
	}
	c->prev_value = value;
	c->prev_time = t;
	c->has_prev = true;
}

static double crossings_period(const crossings *c)
{
	return c->count >= 2 ? (c->last - c->first) / (c->count - 1) : 0.0;
}

/* ---------------------------------------------------------------- defaults and validation */

static void test_default_defs(void **state)
{
	(void)state;
	tb_joint_def d = tb_default_joint_def(TB_JOINT_DISTANCE);
	assert_int_equal(d.type, TB_JOINT_DISTANCE);
	assert_near(d.length, 1.0f, 0.0f);
	assert_near(d.min_length, 0.0f, 0.0f);
	assert_true(d.max_length >= 1.0e5f);
	assert_false(d.enable_spring);
	assert_false(d.collide_connected);

	tb_joint_def m = tb_default_joint_def(TB_JOINT_MOUSE);
	assert_near(m.hertz, 5.0f, 0.0f);
	assert_near(m.damping_ratio, 0.7f, 1e-6);
	assert_near(m.max_force, 1000.0f, 0.0f);

	tb_joint_def p = tb_default_joint_def(TB_JOINT_PRISMATIC);
	assert_vec_near(p.local_axis_a, 1.0f, 0.0f, 0.0f);
	assert_false(p.enable_limit);
	assert_false(p.enable_motor);

	tb_joint_def r = tb_default_joint_def(TB_JOINT_REVOLUTE);
	assert_true(TB_IS_NULL(r.body_a) && TB_IS_NULL(r.body_b));
	assert_near(r.reference_angle, 0.0f, 0.0f);
	assert_true(r.lower <= r.upper);
}

static void expect_create_fails(tb_world *world, const tb_joint_def *def, tb_status expected)
{
	tb_status status = TB_OK;
	tb_joint_id id = tb_create_joint(world, def, &status);
	assert_true(TB_IS_NULL(id));
	assert_int_equal(status, expected);
}

static void test_validation(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 2.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, body, 0.5f, 0.5f, 1.0f);

	tb_joint_def rev = def_at(world, TB_JOINT_REVOLUTE, ground, body, tb_v2(0.0f, 3.0f));
	rev.enable_limit = true;
	rev.lower = 0.5f;
	rev.upper = -0.5f;
	expect_create_fails(world, &rev, TB_ERR_INVALID_ARGUMENT);

	rev = def_at(world, TB_JOINT_REVOLUTE, ground, body, tb_v2(0.0f, 3.0f));
	rev.motor_speed = NAN;
	expect_create_fails(world, &rev, TB_ERR_INVALID_NUMBER);
	rev.motor_speed = 0.0f;
	rev.local_anchor_b.x = INFINITY;
	expect_create_fails(world, &rev, TB_ERR_INVALID_NUMBER);
	rev.local_anchor_b.x = 0.0f;
	rev.max_motor_torque = -1.0f;
	expect_create_fails(world, &rev, TB_ERR_NEGATIVE);
	rev.max_motor_torque = 0.0f;
	rev.hertz = -2.0f;
	expect_create_fails(world, &rev, TB_ERR_NEGATIVE);
	rev.hertz = 0.0f;

	tb_joint_def dist = def_at(world, TB_JOINT_DISTANCE, ground, body, tb_v2(0.0f, 2.0f));
	dist.length = -1.0f;
	expect_create_fails(world, &dist, TB_ERR_NEGATIVE);
	dist.length = 1.0f;
	dist.min_length = 3.0f;
	dist.max_length = 2.0f;
	expect_create_fails(world, &dist, TB_ERR_INVALID_ARGUMENT);
	dist.min_length = 0.0f;
	dist.max_length = NAN;
	expect_create_fails(world, &dist, TB_ERR_INVALID_NUMBER);

	tb_joint_def pri = def_at(world, TB_JOINT_PRISMATIC, ground, body, tb_v2(0.0f, 2.0f));
	pri.local_axis_a = tb_v2(0.0f, 0.0f);
	expect_create_fails(world, &pri, TB_ERR_DEGENERATE);

	tb_joint_def mouse = def_at(world, TB_JOINT_MOUSE, ground, body, tb_v2(0.0f, 2.0f));
	mouse.max_force = -5.0f;
	expect_create_fails(world, &mouse, TB_ERR_NEGATIVE);

	tb_joint_def bad_type = def_at(world, TB_JOINT_REVOLUTE, ground, body, tb_v2(0.0f, 2.0f));
	bad_type.type = TB_JOINT_TYPE_COUNT;
	expect_create_fails(world, &bad_type, TB_ERR_INVALID_ARGUMENT);

	/* nothing was created by the failures */
	assert_int_equal(tb_world_get_counters(world).joint_count, 0);

	/* a good prismatic def with an unnormalised axis is accepted and stored unit length */
	pri.local_axis_a = tb_v2(0.0f, 3.0f);
	tb_joint_id pj = create_ok(world, &pri);
	tb_joint_def stored = tb_joint_get_def(world, pj);
	assert_vec_near(stored.local_axis_a, 0.0f, 1.0f, 1e-6);

	/* set_def checks the same rules and refuses to move anchors; a refused def changes nothing */
	tb_joint_id rj = create_ok(world, &rev);
	tb_joint_def change = tb_joint_get_def(world, rj);
	change.enable_limit = true;
	change.lower = 1.0f;
	change.upper = 0.0f;
	assert_int_equal(tb_joint_set_def(world, rj, &change), TB_ERR_INVALID_ARGUMENT);
	change = tb_joint_get_def(world, rj);
	change.local_anchor_a.x += 1.0f;
	assert_int_equal(tb_joint_set_def(world, rj, &change), TB_ERR_INVALID_ARGUMENT);
	change = tb_joint_get_def(world, rj);
	change.type = TB_JOINT_WELD;
	assert_int_equal(tb_joint_set_def(world, rj, &change), TB_ERR_INVALID_ARGUMENT);
	change = tb_joint_get_def(world, rj);
	change.motor_speed = NAN;
	assert_int_equal(tb_joint_set_def(world, rj, &change), TB_ERR_INVALID_NUMBER);
	assert_false(tb_joint_get_def(world, rj).enable_limit);
	assert_near(tb_joint_get_def(world, rj).motor_speed, 0.0f, 0.0f);

	change = tb_joint_get_def(world, rj);
	change.enable_motor = true;
	change.motor_speed = 2.0f;
	change.max_motor_torque = 10.0f;
	assert_int_equal(tb_joint_set_def(world, rj, &change), TB_OK);
	assert_true(tb_joint_get_def(world, rj).enable_motor);
	assert_near(tb_joint_get_def(world, rj).motor_speed, 2.0f, 0.0f);

	tb_destroy_world(world);
}

/* ---------------------------------------------------------------- stale handles */

static void assert_joint_reads_zero(tb_world *world, tb_joint_id id)
{
	assert_false(tb_joint_is_valid(world, id));
	assert_int_equal(tb_joint_get_type(world, id), 0);
	assert_true(TB_IS_NULL(tb_joint_get_body_a(world, id)));
	assert_true(TB_IS_NULL(tb_joint_get_body_b(world, id)));
	assert_vec_near(tb_joint_get_world_anchor_a(world, id), 0.0f, 0.0f, 0.0f);
	assert_vec_near(tb_joint_get_world_anchor_b(world, id), 0.0f, 0.0f, 0.0f);
	assert_near(tb_joint_get_value(world, id), 0.0f, 0.0f);
	assert_vec_near(tb_joint_get_constraint_force(world, id), 0.0f, 0.0f, 0.0f);
	assert_near(tb_joint_get_constraint_torque(world, id), 0.0f, 0.0f);
	assert_null(tb_joint_get_user_data(world, id));
	tb_joint_set_user_data(world, id, world);
	assert_null(tb_joint_get_user_data(world, id));
	tb_joint_def def = tb_joint_get_def(world, id);
	assert_true(TB_IS_NULL(def.body_a) && TB_IS_NULL(def.body_b));
	tb_joint_def fresh = tb_default_joint_def(TB_JOINT_REVOLUTE);
	assert_int_equal(tb_joint_set_def(world, id, &fresh), TB_ERR_STALE_HANDLE);
	tb_destroy_joint(world, id); /* ignored */
}

static void test_stale_handles(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(1.0f, 5.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, body, 0.25f, 0.25f, 1.0f);

	int tag = 7;
	tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, ground, body, tb_v2(0.0f, 5.0f));
	def.user_data = &tag;
	tb_joint_id j1 = create_ok(world, &def);
	assert_ptr_equal(tb_joint_get_user_data(world, j1), &tag);
	assert_int_equal(tb_joint_get_type(world, j1), TB_JOINT_REVOLUTE);
	assert_true(TB_ID_EQUALS(tb_joint_get_body_a(world, j1), ground));
	assert_true(TB_ID_EQUALS(tb_joint_get_body_b(world, j1), body));
	tb_world_step(world, DT);
	tb_destroy_joint(world, j1);
	assert_joint_reads_zero(world, j1);

	/* the slot is reused; the old id must still read as stale */
	tb_joint_def dist = def_at(world, TB_JOINT_DISTANCE, ground, body, tb_v2(1.0f, 5.0f));
	dist.local_anchor_a = tb_v2(0.0f, 6.0f);
	dist.length = 1.0f;
	tb_joint_id j2 = create_ok(world, &dist);
	assert_false(TB_ID_EQUALS(j1, j2));
	assert_joint_reads_zero(world, j1);
	assert_int_equal(tb_joint_get_type(world, j2), TB_JOINT_DISTANCE);

	/* destroying a body destroys its joints */
	tb_world_step(world, DT);
	tb_destroy_body(world, body);
	assert_joint_reads_zero(world, j2);
	tb_world_step(world, DT);
	assert_int_equal(tb_world_get_counters(world).joint_count, 0);

	tb_destroy_world(world);
}

/* ---------------------------------------------------------------- revolute */

static void test_pendulum_period(void **state)
{
	(void)state;
	const float length = 1.5f, radius = 0.05f, theta0 = 0.1f;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_vec2 pivot = tb_v2(0.0f, 10.0f);
	tb_vec2 bob = tb_v2(pivot.x + length * sinf(theta0), pivot.y - length * cosf(theta0));
	/* the physical pendulum: a disc of radius r on an arm L swings with
	 * T = 2 pi sqrt(I_pivot / (m g L)), I_pivot = m (r^2 / 2 + L^2) */
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, bob, 0.0f, tb_vec2_zero, 0.0f);
	tu_circle(world, body, radius, 1.0f);
	tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, ground, body, pivot);
	create_ok(world, &def);

	double expected = 2.0 * M_PI * sqrt((0.5 * radius * radius + length * length) / (G * length));
	crossings c = {0};
	float max_x_late = 0.0f;
	int steps = (int)(20.0f / DT);
	for (int i = 1; i <= steps; ++i) {
		tb_world_step(world, DT);
		tb_vec2 p = tb_body_get_position(world, body);
		crossings_add(&c, i * DT, p.x - pivot.x);
		assert_near(tb_distance(p, pivot), length, 0.01);
		if (i > steps - (int)(3.0f / DT)) max_x_late = tb_maxf(max_x_late, p.x - pivot.x);
	}
	assert_true(c.count >= 7);
	double period = crossings_period(&c);
	assert_near(period, expected, 0.01 * expected);
	/* the small-angle formula agrees to well within 1% for a small bob */
	assert_near(period, 2.0 * M_PI * sqrt(length / G), 0.01 * expected);
	/* the swing keeps most of its amplitude after 20 s (the solver is not a damper) */
	assert_true(max_x_late > 0.9f * length * sinf(theta0));
	tb_destroy_world(world);
}

static void test_pendulum_constraint_force(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 8.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, body, 0.5f, 0.5f, 2.0f); /* m = 2 kg */
	tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, ground, body, tb_v2(0.0f, 10.0f));
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 60; ++i) tb_world_step(world, DT);
	float mass = tb_body_get_mass(world, body);
	assert_near(mass, 2.0f, 1e-4);
	/* hanging at rest, the joint holds B up against its weight */
	tb_vec2 f = tb_joint_get_constraint_force(world, joint);
	assert_near(f.x, 0.0f, 0.01f * mass * G);
	assert_near(f.y, mass * G, 0.01f * mass * G);
	assert_near(tb_joint_get_constraint_torque(world, joint), 0.0f, 1e-3);
	assert_vec_near(tb_body_get_position(world, body), 0.0f, 8.0f, 0.01f);
	tb_destroy_world(world);
}

static void test_revolute_motor(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_vec2 center = tb_v2(0.0f, 5.0f);
	tb_body_id wheel = tu_body_moving(world, TB_DYNAMIC_BODY, center, 0.0f, tb_vec2_zero, 0.0f);
	tu_circle(world, wheel, 0.5f, 1.0f);
	float inertia = tb_body_get_inertia(world, wheel);
	float mass = tb_body_get_mass(world, wheel);
	assert_near(inertia, 0.5f * mass * 0.25f, 1e-4);

	/* a weak motor is torque limited: constant angular acceleration max_torque / I */
	const float max_torque = 0.05f;
	tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, ground, wheel, center);
	def.enable_motor = true;
	def.motor_speed = 3.0f;
	def.max_motor_torque = max_torque;
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 30; ++i) tb_world_step(world, DT);
	float w = tb_body_get_angular_velocity(world, wheel);
	assert_near(w, max_torque / inertia * 0.5f, 0.01f * max_torque / inertia * 0.5f);
	assert_near(tb_joint_get_constraint_torque(world, joint), max_torque, 1e-3 * max_torque);

	/* a strong motor holds the speed; the wheel stays on its axle */
	tb_joint_def change = tb_joint_get_def(world, joint);
	change.max_motor_torque = 100.0f;
	assert_int_equal(tb_joint_set_def(world, joint, &change), TB_OK);
	for (int i = 0; i < 60; ++i) tb_world_step(world, DT);
	assert_near(tb_body_get_angular_velocity(world, wheel), 3.0f, 1e-3);
	assert_vec_near(tb_body_get_position(world, wheel), center.x, center.y, 0.005f);
	/* the joint angle follows the motor (about 1.5 + 1 * 3 rad, unwound) */
	float expected_angle = remainderf(tb_body_get_angle(world, wheel), 2.0f * TB_PI);
	assert_near(remainderf(tb_joint_get_value(world, joint) - expected_angle, 2.0f * TB_PI), 0.0f, 1e-4);

	/* reversing the motor through set_def */
	change.motor_speed = -1.0f;
	assert_int_equal(tb_joint_set_def(world, joint, &change), TB_OK);
	for (int i = 0; i < 30; ++i) tb_world_step(world, DT);
	assert_near(tb_body_get_angular_velocity(world, wheel), -1.0f, 1e-3);
	tb_destroy_world(world);
}

static void test_revolute_limits(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_vec2 pivot = tb_v2(0.0f, 10.0f);
	/* a horizontal bar hinged at its left end falls clockwise (negative angle) */
	tb_joint_def def;
	tb_body_id bar = make_hinged_bar(world, ground, pivot, &def);
	const float lower = -0.5f, upper = 0.25f;
	def.enable_limit = true;
	def.lower = lower;
	def.upper = upper;
	tb_joint_id joint = create_ok(world, &def);

	float min_angle = 0.0f;
	for (int i = 0; i < 180; ++i) {
		tb_world_step(world, DT);
		float angle = tb_joint_get_value(world, joint);
		assert_near(angle, tb_body_get_angle(world, bar), 1e-4);
		assert_true(angle >= lower - 0.02f && angle <= upper + 0.02f);
		assert_true(anchor_gap(world, joint) < 0.01f);
		min_angle = tb_minf(min_angle, angle);
	}
	/* it really leaned on the lower limit, and rests there */
	assert_true(min_angle < lower + 0.02f);
	assert_near(tb_joint_get_value(world, joint), lower, 0.02f);
	/* the limit carries the bar's weight torque: m g (L/2) cos(0.5) about the pivot */
	float mass = tb_body_get_mass(world, bar);
	float torque = tb_joint_get_constraint_torque(world, joint);
	assert_near(torque, mass * G * 1.0f * cosf(lower), 0.02f * mass * G);

	/* raise the limits past the bar: it swings up onto the new lower limit from below
	 * and the upper limit keeps it from rising beyond */
	tb_joint_def change = tb_joint_get_def(world, joint);
	change.lower = 0.1f;
	change.upper = 0.3f;
	change.enable_motor = true;
	change.motor_speed = 5.0f;
	change.max_motor_torque = 50.0f;
	assert_int_equal(tb_joint_set_def(world, joint, &change), TB_OK);
	float max_angle = -10.0f;
	for (int i = 0; i < 120; ++i) {
		tb_world_step(world, DT);
		float angle = tb_joint_get_value(world, joint);
		assert_true(angle <= 0.3f + 0.02f);
		max_angle = tb_maxf(max_angle, angle);
	}
	assert_true(max_angle > 0.28f);
	assert_near(tb_joint_get_value(world, joint), 0.3f, 0.02f);
	tb_destroy_world(world);
}

static void test_revolute_spring(void **state)
{
	(void)state;
	tb_world *world = make_world_without_gravity();
	tb_body_id ground = make_ground(world);
	tb_vec2 center = tb_v2(2.0f, 3.0f);
	/* start 0.3 rad away from the reference angle: the spring swings it back and forth
	 * at its own frequency, whatever the wheel's inertia */
	tb_body_id wheel = tu_body_moving(world, TB_DYNAMIC_BODY, center, 0.3f, tb_vec2_zero, 0.0f);
	tu_box(world, wheel, 0.5f, 0.2f, 3.0f);
	const float hertz = 2.0f;
	tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, ground, wheel, center);
	def.enable_spring = true;
	def.hertz = hertz;
	def.damping_ratio = 0.0f;
	tb_joint_id joint = create_ok(world, &def);
	crossings c = {0};
	for (int i = 1; i <= 180; ++i) {
		tb_world_step(world, DT);
		crossings_add(&c, i * DT, tb_joint_get_value(world, joint));
	}
	assert_true(c.count >= 4);
	assert_near(crossings_period(&c), 1.0 / hertz, 0.05 / hertz);
	tb_destroy_world(world);
}

static void test_revolute_fixed_rotation(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.position = tb_v2(1.0f, 5.0f);
	bd.fixed_rotation = true;
	tb_body_id body = tb_create_body(world, &bd, NULL);
	tu_box(world, body, 0.2f, 0.2f, 1.0f);
	tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, ground, body, tb_v2(0.0f, 5.0f));
	def.enable_limit = true; /* meaningless without rotation: must be ignored, not blow up */
	def.lower = -0.1f;
	def.upper = 0.1f;
	def.enable_motor = true;
	def.max_motor_torque = 10.0f;
	def.motor_speed = 1.0f;
	tb_joint_id joint = create_ok(world, &def);
	/* a body that cannot rotate, pinned off its centre, cannot move either (any
	 * translation would move the pin): it hangs in place and the pin carries it */
	for (int i = 0; i < 120; ++i) {
		tb_world_step(world, DT);
		assert_true(anchor_gap(world, joint) < 0.01f);
		assert_near(tb_body_get_angle(world, body), 0.0f, 1e-6);
		assert_vec_near(tb_body_get_position(world, body), 1.0f, 5.0f, 0.01f);
	}
	float mass = tb_body_get_mass(world, body);
	assert_near(tb_joint_get_constraint_force(world, joint).y, mass * G, 0.01f * mass * G);
	assert_near(tb_joint_get_constraint_torque(world, joint), 0.0f, 0.0f);
	tb_destroy_world(world);
}

static void test_revolute_chain(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	enum { LINKS = 10 };
	tb_joint_id joints[LINKS];
	tb_body_id prev = ground;
	tb_body_id links[LINKS];
	const float y = 20.0f;
	for (int i = 0; i < LINKS; ++i) {
		links[i] = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(i + 0.5f, y), 0.0f, tb_vec2_zero, 0.0f);
		tu_box(world, links[i], 0.5f, 0.125f, 20.0f);
		tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, prev, links[i], tb_v2((float)i, y));
		joints[i] = create_ok(world, &def);
		prev = links[i];
	}
	float worst = 0.0f, lowest_tail = y;
	for (int i = 0; i < 300; ++i) {
		tb_world_step(world, DT);
		for (int j = 0; j < LINKS; ++j) worst = tb_maxf(worst, anchor_gap(world, joints[j]));
		lowest_tail = tb_minf(lowest_tail, tb_body_get_position(world, links[LINKS - 1]).y);
	}
	for (int j = 0; j < LINKS; ++j) assert_true(anchor_gap(world, joints[j]) < 0.01f);
	/* even while the tail whips round the joints stay within a few centimetres */
	assert_true(worst < 0.05f);
	/* the chain swung down: its 10 m length hung well below the pivot */
	assert_true(lowest_tail < y - 7.0f);
	tb_destroy_world(world);
}

/* Fast rotation through a joint: a bar pinned at one end spins at 10 rad/s
 * (a sixth of a radian per step), and two bars pinned to each other tumble
 * freely through space. The joints hold and the motion keeps its energy and
 * momentum. (Taking the point constraint's effective mass at the step's start
 * instead of at the current anchors made the joint grid 7% faster but let this
 * bar lose 2.7% of its speed in 3 s instead of 1.1%.) */
static void test_revolute_fast_spin(void **state)
{
	(void)state;
	tb_world *world = make_world_without_gravity();
	tb_body_id ground = make_ground(world);
	tb_vec2 pivot = tb_v2(0.0f, 0.0f);
	tb_joint_def def;
	tb_body_id bar = make_hinged_bar(world, ground, pivot, &def);
	tb_joint_id pin = create_ok(world, &def);
	const float spin = 10.0f;
	tb_body_set_angular_velocity(world, bar, spin);
	tb_body_set_linear_velocity(world, bar, tb_v2(0.0f, spin * 1.0f));

	/* a free pair: bar A spinning about its centre, bar B pinned to its end */
	tb_body_id a = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(10.0f, 0.0f), 0.0f, tb_vec2_zero, 0.0f);
	tb_body_id b = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(12.0f, 0.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, a, 1.0f, 0.1f, 1.0f);
	tu_box(world, b, 1.0f, 0.1f, 1.0f);
	tb_joint_def pair_def = def_at(world, TB_JOINT_REVOLUTE, a, b, tb_v2(11.0f, 0.0f));
	tb_joint_id link = create_ok(world, &pair_def);
	tb_body_set_angular_velocity(world, a, spin);
	tb_body_set_angular_velocity(world, b, -spin);

	float worst_pin = 0.0f, worst_link = 0.0f;
	tb_vec2 momentum0 = tb_add(tb_body_get_linear_velocity(world, a), tb_body_get_linear_velocity(world, b));
	for (int i = 0; i < (int)(3.0f / DT); ++i) {
		tb_world_step(world, DT);
		worst_pin = tb_maxf(worst_pin, anchor_gap(world, pin));
		worst_link = tb_maxf(worst_link, anchor_gap(world, link));
	}
	print_message("# fast spin: pinned bar gap %.4f m, %.2f rad/s after 3 s; free pair gap %.4f m\n", worst_pin,
	              tb_body_get_angular_velocity(world, bar), worst_link);
	assert_true(worst_pin < 0.01f);
	assert_true(worst_link < 0.01f);
	/* no gravity, no friction: the pinned bar keeps spinning (the soft joint
	 * may take a little energy, it never adds any) */
	float w = tb_body_get_angular_velocity(world, bar);
	assert_true(w > 0.98f * spin && w < 1.001f * spin);
	/* the free pair's total momentum stays zero (equal masses) */
	tb_vec2 momentum = tb_add(tb_body_get_linear_velocity(world, a), tb_body_get_linear_velocity(world, b));
	assert_true(tb_length(tb_sub(momentum, momentum0)) < 1.0e-3f);
	tb_destroy_world(world);
}

/* ---------------------------------------------------------------- prismatic */

static void test_prismatic_axis_and_limits(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_vec2 origin = tb_v2(0.0f, 5.0f);
	tb_body_id slider = tu_body_moving(world, TB_DYNAMIC_BODY, origin, 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, slider, 0.5f, 0.5f, 1.0f);
	tb_vec2 axis = tb_normalize(tb_v2(1.0f, 1.0f));
	tb_joint_def def = def_at(world, TB_JOINT_PRISMATIC, ground, slider, origin);
	def.local_axis_a = tb_v2(1.0f, 1.0f);
	def.enable_limit = true;
	def.lower = -2.0f;
	def.upper = 1.0f;
	tb_joint_id joint = create_ok(world, &def);

	/* gravity slides it down the 45 degree rail onto the lower limit */
	float min_t = 0.0f;
	for (int i = 0; i < 120; ++i) {
		tb_world_step(world, DT);
		tb_vec2 d = tb_sub(tb_body_get_position(world, slider), origin);
		float t = tb_dot(d, axis);
		assert_near(tb_cross(axis, d), 0.0f, 0.01f);        /* on the rail */
		assert_near(tb_body_get_angle(world, slider), 0.0f, 0.01f);
		assert_near(tb_joint_get_value(world, joint), t, 1e-4);
		assert_true(t >= -2.02f && t <= 1.02f);
		min_t = tb_minf(min_t, t);
	}
	assert_true(min_t < -1.98f);
	assert_near(tb_joint_get_value(world, joint), -2.0f, 0.02f);

	/* a motor drives it back up the rail at its speed, against gravity */
	tb_joint_def change = tb_joint_get_def(world, joint);
	change.enable_motor = true;
	change.motor_speed = 2.0f;
	change.max_motor_force = 100.0f;
	assert_int_equal(tb_joint_set_def(world, joint, &change), TB_OK);
	for (int i = 0; i < 30; ++i) tb_world_step(world, DT);
	tb_vec2 v = tb_body_get_linear_velocity(world, slider);
	assert_near(tb_dot(v, axis), 2.0f, 0.01f);
	assert_near(tb_cross(axis, v), 0.0f, 0.01f);
	/* driven into the upper limit it stops there */
	float max_t = -10.0f;
	for (int i = 0; i < 180; ++i) {
		tb_world_step(world, DT);
		float t = tb_joint_get_value(world, joint);
		assert_true(t <= 1.02f);
		max_t = tb_maxf(max_t, t);
	}
	assert_true(max_t > 0.98f);
	assert_near(tb_joint_get_value(world, joint), 1.0f, 0.02f);
	assert_near(tb_dot(tb_body_get_linear_velocity(world, slider), axis), 0.0f, 0.01f);
	tb_destroy_world(world);
}

static void test_prismatic_free_slide(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_vec2 origin = tb_v2(3.0f, 5.0f);
	tb_body_id slider = tu_body_moving(world, TB_DYNAMIC_BODY, origin, 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, slider, 0.5f, 0.25f, 1.0f);
	const float slope = 0.5f; /* rad */
	tb_vec2 axis = tb_v2(cosf(slope), sinf(slope));
	tb_joint_def def = def_at(world, TB_JOINT_PRISMATIC, ground, slider, origin);
	def.local_axis_a = axis;
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 60; ++i) tb_world_step(world, DT);
	/* a frictionless incline: s = -1/2 g sin(slope) t^2 along the axis (the
	 * integrator's first-order error is about 1 / substep count) */
	float t = 60 * DT;
	float expected = -0.5f * G * sinf(slope) * t * t;
	assert_near(tb_joint_get_value(world, joint), expected, 0.015f * fabsf(expected));
	/* the rail pushes with the normal force m g cos(slope), perpendicular to the axis */
	float mass = tb_body_get_mass(world, slider);
	tb_vec2 f = tb_joint_get_constraint_force(world, joint);
	assert_near(tb_dot(f, axis), 0.0f, 0.01f * mass * G);
	assert_near(tb_cross(axis, f), mass * G * cosf(slope), 0.01f * mass * G);
	tb_destroy_world(world);
}

static void test_prismatic_holds_angle(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	/* the rail point is the slider's left end, 1 m from its centre: without the
	 * angular row the weight would swing the slider round that point */
	tb_body_id slider = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(1.0f, 5.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, slider, 1.0f, 0.1f, 1.0f);
	tb_joint_def def = def_at(world, TB_JOINT_PRISMATIC, ground, slider, tb_v2(0.0f, 5.0f));
	def.local_axis_a = tb_v2(1.0f, 0.0f);
	def.enable_limit = true;
	def.lower = -0.5f;
	def.upper = 0.5f;
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 120; ++i) {
		tb_world_step(world, DT);
		assert_near(tb_body_get_angle(world, slider), 0.0f, 0.01f);
		assert_near(tb_body_get_position(world, slider).y, 5.0f, 0.01f);
	}
	/* statics: the rail carries the weight and the moment m g * 1 m about the centre */
	float mass = tb_body_get_mass(world, slider);
	assert_near(tb_joint_get_constraint_force(world, joint).y, mass * G, 0.01f * mass * G);
	assert_near(tb_joint_get_constraint_torque(world, joint), mass * G * 1.0f, 0.02f * mass * G);
	tb_destroy_world(world);
}

static void test_prismatic_spring(void **state)
{
	(void)state;
	tb_world *world = make_world_without_gravity();
	tb_body_id ground = make_ground(world);
	tb_body_id slider = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(0.5f, 0.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, slider, 0.25f, 0.25f, 4.0f);
	tb_joint_def def = tb_default_joint_def(TB_JOINT_PRISMATIC);
	def.body_a = ground;
	def.body_b = slider;
	def.local_anchor_a = tb_v2(0.0f, 0.0f);
	def.local_anchor_b = tb_v2(0.0f, 0.0f); /* starts 0.5 m out along the axis */
	def.enable_spring = true;
	def.hertz = 1.5f;
	tb_joint_id joint = create_ok(world, &def);
	crossings c = {0};
	for (int i = 1; i <= 240; ++i) {
		tb_world_step(world, DT);
		crossings_add(&c, i * DT, tb_joint_get_value(world, joint));
		assert_near(tb_body_get_position(world, slider).y, 0.0f, 0.005f);
	}
	assert_true(c.count >= 4);
	assert_near(crossings_period(&c), 1.0 / 1.5, 0.05 / 1.5);
	tb_destroy_world(world);
}

/* ---------------------------------------------------------------- distance */

static void test_distance_rigid(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_vec2 pivot = tb_v2(0.0f, 10.0f);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(2.0f, 10.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, body, 0.3f, 0.2f, 1.0f);
	tb_joint_def def = tb_default_joint_def(TB_JOINT_DISTANCE);
	def.body_a = ground;
	def.body_b = body;
	def.local_anchor_a = pivot;
	def.local_anchor_b = tb_v2(-0.3f, 0.0f); /* the box's left edge, so it also spins */
	def.length = 1.7f;
	tb_joint_id joint = create_ok(world, &def);
	float lowest = 10.0f;
	for (int i = 0; i < 180; ++i) {
		tb_world_step(world, DT);
		float d = tb_distance(pivot, tb_body_get_world_point(world, body, tb_v2(-0.3f, 0.0f)));
		assert_near(d, 1.7f, 0.01f);
		assert_near(tb_joint_get_value(world, joint), d, 1e-4);
		lowest = tb_minf(lowest, tb_body_get_position(world, body).y);
	}
	/* it swung down (the rod plus the free box reach about 2 m below the pivot) */
	assert_true(lowest < 8.5f);
	tb_destroy_world(world);
}

static void test_distance_spring_period(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_vec2 pivot = tb_v2(0.0f, 10.0f);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 8.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_circle(world, body, 0.25f, 1.0f);
	const float hertz = 2.0f;
	tb_joint_def def = tb_default_joint_def(TB_JOINT_DISTANCE);
	def.body_a = ground;
	def.body_b = body;
	def.local_anchor_a = pivot;
	def.length = 2.0f;
	def.enable_spring = true;
	def.hertz = hertz;
	def.damping_ratio = 0.0f;
	tb_joint_id joint = create_ok(world, &def);

	/* released at the rest length, it bobs about the stretched equilibrium
	 * L + g / omega^2 with the spring's own period 1 / hertz */
	double omega = 2.0 * M_PI * hertz;
	double equilibrium = 2.0 + G / (omega * omega);
	crossings c = {0};
	double sum = 0.0;
	int n = 0;
	for (int i = 1; i <= 300; ++i) {
		tb_world_step(world, DT);
		float length = tb_joint_get_value(world, joint);
		crossings_add(&c, i * DT, length - equilibrium);
		sum += length;
		n++;
		assert_near(tb_body_get_position(world, body).x, 0.0f, 1e-3);
	}
	assert_true(c.count >= 8);
	assert_near(crossings_period(&c), 1.0 / hertz, 0.05 / hertz);
	assert_near(sum / n, equilibrium, 0.01);
	tb_destroy_world(world);
}

static void test_distance_rope_limits(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_vec2 pivot = tb_v2(0.0f, 10.0f);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(0.5f, 9.5f), 0.0f, tb_vec2_zero, 0.0f);
	tu_circle(world, body, 0.1f, 1.0f);
	/* a slack rope: free between 0.5 and 2 m, no spring */
	tb_joint_def def = tb_default_joint_def(TB_JOINT_DISTANCE);
	def.body_a = ground;
	def.body_b = body;
	def.local_anchor_a = pivot;
	def.enable_spring = true;
	def.hertz = 0.0f;
	def.min_length = 0.5f;
	def.max_length = 2.0f;
	tb_joint_id joint = create_ok(world, &def);

	/* for the first 0.3 s it is in free fall (the rope is slack) */
	for (int i = 0; i < 18; ++i) tb_world_step(world, DT);
	assert_near(tb_body_get_linear_velocity(world, body).y, -G * 18 * DT, 0.01f * G * 18 * DT);
	float max_length = 0.0f;
	for (int i = 0; i < 240; ++i) {
		tb_world_step(world, DT);
		float length = tb_joint_get_value(world, joint);
		assert_true(length <= 2.02f && length >= 0.48f);
		max_length = tb_maxf(max_length, length);
	}
	assert_true(max_length > 1.98f);

	/* pull the body inside the minimum: the lower limit pushes it back out */
	tb_body_set_transform(world, body, tb_v2(0.0f, 9.8f), 0.0f);
	tb_body_set_linear_velocity(world, body, tb_v2(0.0f, 0.0f));
	tb_world_def wd = tb_world_get_def(world);
	wd.gravity = tb_v2(0.0f, 0.0f);
	assert_int_equal(tb_world_set_def(world, &wd), TB_OK);
	for (int i = 0; i < 60; ++i) tb_world_step(world, DT);
	assert_true(tb_joint_get_value(world, joint) >= 0.49f);
	tb_destroy_world(world);
}

/* ---------------------------------------------------------------- weld */

static void test_weld_keeps_relative_pose(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	/* a swinging compound: A hangs from the ground by a revolute, B is welded to A's
	 * end at an angle. The swing loads the weld with changing forces. */
	tb_body_id a = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(1.0f, 10.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, a, 1.0f, 0.1f, 1.0f);
	tb_body_id b = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(2.5f, 10.3f), 0.4f, tb_vec2_zero, 0.0f);
	tu_box(world, b, 0.5f, 0.1f, 1.0f);
	tb_joint_def hinge = def_at(world, TB_JOINT_REVOLUTE, ground, a, tb_v2(0.0f, 10.0f));
	create_ok(world, &hinge);
	tb_joint_def weld = def_at(world, TB_JOINT_WELD, a, b, tb_v2(2.0f, 10.0f));
	weld.reference_angle = 0.4f;
	tb_joint_id wj = create_ok(world, &weld);

	tb_vec2 local_b = tb_body_get_local_point(world, a, tb_body_get_position(world, b));
	float min_angle = 0.0f;
	for (int i = 0; i < 240; ++i) {
		tb_world_step(world, DT);
		min_angle = tb_minf(min_angle, tb_body_get_angle(world, a));
		float rel = tb_body_get_angle(world, b) - tb_body_get_angle(world, a);
		assert_near(remainderf(rel - 0.4f, 2.0f * TB_PI), 0.0f, 0.01f);
		tb_vec2 now = tb_body_get_local_point(world, a, tb_body_get_position(world, b));
		assert_true(tb_distance(now, local_b) < 0.01f);
		assert_true(anchor_gap(world, wj) < 0.01f);
	}
	/* and the compound really swung */
	assert_true(min_angle < -1.0f);
	tb_destroy_world(world);
}

static void test_weld_cantilever(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id beam = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(1.0f, 5.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, beam, 1.0f, 0.1f, 1.0f);
	tb_joint_def def = def_at(world, TB_JOINT_WELD, ground, beam, tb_v2(0.0f, 5.0f));
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 120; ++i) tb_world_step(world, DT);
	assert_vec_near(tb_body_get_position(world, beam), 1.0f, 5.0f, 0.01f);
	assert_near(tb_body_get_angle(world, beam), 0.0f, 0.01f);
	/* statics: the weld carries the weight m g and the moment m g * 1 m */
	float mass = tb_body_get_mass(world, beam);
	tb_vec2 f = tb_joint_get_constraint_force(world, joint);
	assert_near(f.x, 0.0f, 0.01f * mass * G);
	assert_near(f.y, mass * G, 0.01f * mass * G);
	/* the torque on B about its centre: the force m g acts at the weld point 1 m to the
	 * left of the centre (moment -m g) and the angular impulse must cancel it */
	assert_near(tb_joint_get_constraint_torque(world, joint), mass * G * 1.0f, 0.02f * mass * G);

	/* a soft angular weld sags: with k = I omega^2 the beam droops visibly */
	tb_joint_def soft = tb_joint_get_def(world, joint);
	soft.angular_hertz = 1.0f;
	soft.angular_damping_ratio = 1.0f;
	assert_int_equal(tb_joint_set_def(world, joint, &soft), TB_OK);
	for (int i = 0; i < 240; ++i) tb_world_step(world, DT);
	assert_true(tb_body_get_angle(world, beam) < -0.05f);
	tb_destroy_world(world);
}

/* ---------------------------------------------------------------- mouse */

static void test_mouse_pulls_to_target(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, body, 0.5f, 0.5f, 1.0f);
	tb_joint_def def = tb_default_joint_def(TB_JOINT_MOUSE);
	def.body_a = ground;
	def.body_b = body;
	def.local_anchor_b = tb_v2(0.0f, 0.0f);
	def.target = tb_v2(3.0f, 2.0f);
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 180; ++i) tb_world_step(world, DT);
	assert_true(tb_distance(tb_body_get_position(world, body), def.target) < 0.05f);
	assert_vec_near(tb_joint_get_world_anchor_a(world, joint), 3.0f, 2.0f, 0.0f);

	/* move the target: the body follows */
	tb_joint_def change = tb_joint_get_def(world, joint);
	change.target = tb_v2(-2.0f, 1.0f);
	assert_int_equal(tb_joint_set_def(world, joint, &change), TB_OK);
	for (int i = 0; i < 180; ++i) tb_world_step(world, DT);
	assert_true(tb_distance(tb_body_get_position(world, body), change.target) < 0.05f);
	/* at rest under the target the mouse holds the weight */
	float mass = tb_body_get_mass(world, body);
	assert_near(tb_joint_get_constraint_force(world, joint).y, mass * G, 0.02f * mass * G);
	tb_destroy_world(world);
}

static void test_mouse_max_force(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, body, 0.5f, 0.5f, 1.0f);
	float mass = tb_body_get_mass(world, body);
	/* a hand that can lift only half the weight: the body falls at g / 2 */
	tb_joint_def def = tb_default_joint_def(TB_JOINT_MOUSE);
	def.body_a = ground;
	def.body_b = body;
	def.target = tb_v2(0.0f, 10.0f);
	def.max_force = 0.5f * mass * G;
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 60; ++i) tb_world_step(world, DT);
	assert_near(tb_body_get_linear_velocity(world, body).y, -0.5f * G, 0.01f * G);
	assert_near(tb_body_get_linear_velocity(world, body).x, 0.0f, 1e-4);
	tb_vec2 f = tb_joint_get_constraint_force(world, joint);
	assert_near(f.y, 0.5f * mass * G, 1e-3 * mass * G);
	tb_destroy_world(world);
}

/* ---------------------------------------------------------------- misc */

static void test_joint_without_warm_starting(void **state)
{
	(void)state;
	tb_world_def wd = tb_default_world_def();
	wd.gravity = tb_v2(0.0f, -G);
	wd.enable_warm_starting = false;
	tb_world *world = tb_create_world(&wd);
	tb_body_id ground = make_ground(world);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(1.0f, 5.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, body, 0.2f, 0.2f, 1.0f);
	tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, ground, body, tb_v2(0.0f, 5.0f));
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 120; ++i) {
		tb_world_step(world, DT);
		assert_true(anchor_gap(world, joint) < 0.02f);
	}
	tb_destroy_world(world);
}

static void test_set_def_wakes_bodies(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 4.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, body, 0.25f, 0.25f, 1.0f);
	tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, ground, body, tb_v2(0.0f, 5.0f));
	tb_joint_id joint = create_ok(world, &def);
	/* hanging still, the body falls asleep */
	for (int i = 0; i < 180 && tb_body_is_awake(world, body); ++i) tb_world_step(world, DT);
	assert_false(tb_body_is_awake(world, body));
	tb_joint_def change = tb_joint_get_def(world, joint);
	change.enable_motor = true;
	change.motor_speed = 1.0f;
	change.max_motor_torque = 100.0f;
	assert_int_equal(tb_joint_set_def(world, joint, &change), TB_OK);
	assert_true(tb_body_is_awake(world, body));
	for (int i = 0; i < 30; ++i) tb_world_step(world, DT);
	/* the motor is solved before the point constraint, so the weight's lever on the
	 * swinging body leaks a little into the speed */
	assert_near(tb_body_get_angular_velocity(world, body), 1.0f, 0.01f);
	assert_true(tb_joint_get_value(world, joint) > 0.4f);
	tb_destroy_world(world);
}

static int draw_count;
static tb_joint_type drawn_type;
static tb_vec2 drawn_a, drawn_b, drawn_ca, drawn_cb;
static void record_joint(tb_joint_type type, tb_vec2 anchor_a, tb_vec2 anchor_b, tb_vec2 ca, tb_vec2 cb, void *ctx)
{
	(void)ctx;
	draw_count++;
	drawn_type = type;
	drawn_a = anchor_a;
	drawn_b = anchor_b;
	drawn_ca = ca;
	drawn_cb = cb;
}

/* ---------------------------------------------------------------- wheel */

/* A wheel hung on a vertical axis: its spring of `hertz` gives exactly that
 * frequency (the soft constraint's stiffness is the axial mass times omega^2),
 * whether A is static or a free body; the wheel stays on the line and spins
 * freely. */
static double wheel_period(bool free_chassis, float hertz)
{
	tb_world *world = make_world_without_gravity();
	tb_body_id chassis;
	if (free_chassis) {
		chassis = tu_body(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f));
		tu_box(world, chassis, 1.0f, 0.25f, 1.0f);
	} else {
		chassis = make_ground(world);
	}
	tb_body_id wheel = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(0.0f, -0.2f), 0.0f, tb_v2(0.0f, 0.0f), 3.0f);
	tu_circle(world, wheel, 0.3f, 1.0f);
	tb_joint_def def = tb_default_joint_def(TB_JOINT_WHEEL);
	def.body_a = chassis;
	def.body_b = wheel;
	def.local_anchor_a = tb_body_get_local_point(world, chassis, tb_v2(0.0f, 0.0f));
	def.local_anchor_b = tb_vec2_zero;
	def.local_axis_a = tb_v2(0.0f, 2.0f);
	def.enable_spring = true;
	def.hertz = hertz;
	def.damping_ratio = 0.0f;
	tb_joint_id joint = create_ok(world, &def);
	assert_near(tb_joint_get_def(world, joint).local_axis_a.y, 1.0f, 0.0f);
	assert_near(tb_joint_get_value(world, joint), -0.2f, 1e-6);
	crossings c = {0};
	for (int i = 1; i <= 360; ++i) {
		tb_world_step(world, DT);
		crossings_add(&c, i * DT, tb_joint_get_value(world, joint));
		/* on the line through the chassis anchor, along its axis */
		tb_vec2 pa = tb_joint_get_world_anchor_a(world, joint), pb = tb_body_get_position(world, wheel);
		tb_rot qa = tb_body_get_rotation(world, chassis);
		assert_near(tb_cross(tb_v2(-qa.s, qa.c), tb_sub(pb, pa)), 0.0f, 1e-3);
	}
	/* it turned freely: the spin stayed */
	assert_near(tb_body_get_angular_velocity(world, wheel), 3.0f, 0.01f);
	tb_destroy_world(world);
	return crossings_period(&c);
}

static void test_wheel_spring_frequency(void **state)
{
	(void)state;
	const float hertz[3] = {1.0f, 2.0f, 4.0f};
	double worst = 0.0;
	for (int k = 0; k < 3; ++k) {
		double fixed = wheel_period(false, hertz[k]), free = wheel_period(true, hertz[k]);
		assert_near(fixed, 1.0 / hertz[k], 0.02 / hertz[k]);
		assert_near(free, 1.0 / hertz[k], 0.02 / hertz[k]);
		worst = fmax(worst, fmax(fabs(fixed * hertz[k] - 1.0), fabs(free * hertz[k] - 1.0)));
	}
	print_message("# wheel spring: frequency within %.2f%% of hertz (1, 2, 4 Hz, fixed and free chassis)\n",
	              100.0 * worst);
}

/* Under gravity a damped wheel spring settles at the static sag g / omega^2;
 * limits on the axis hold; the motor spins the wheel up at torque / inertia. */
static void test_wheel_sag_limits_motor(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id wheel = tu_body(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f));
	tu_circle(world, wheel, 0.3f, 1.0f);
	tb_joint_def def = def_at(world, TB_JOINT_WHEEL, ground, wheel, tb_v2(0.0f, 0.0f));
	def.local_axis_a = tb_v2(0.0f, 1.0f);
	def.enable_spring = true;
	def.hertz = 2.0f;
	def.damping_ratio = 0.7f;
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 240; ++i) tb_world_step(world, DT);
	float omega = 2.0f * TB_PI * 2.0f;
	assert_near(tb_joint_get_value(world, joint), -G / (omega * omega), 0.02f * G / (omega * omega));
	/* the axial force carries the weight */
	float mass = tb_body_get_mass(world, wheel);
	assert_near(tb_joint_get_constraint_force(world, joint).y, mass * G, 0.01f * mass * G);

	/* limits: without the spring it drops to the lower limit and stays */
	tb_joint_def d = tb_joint_get_def(world, joint);
	d.enable_spring = false;
	d.enable_limit = true;
	d.lower = -0.1f;
	d.upper = 0.05f;
	assert_int_equal(tb_joint_set_def(world, joint, &d), TB_OK);
	for (int i = 0; i < 120; ++i) tb_world_step(world, DT);
	assert_near(tb_joint_get_value(world, joint), -0.1f, 0.002f);

	/* the motor: torque-limited spin-up to the target speed */
	d.enable_motor = true;
	d.motor_speed = -10.0f;
	d.max_motor_torque = 0.5f;
	assert_int_equal(tb_joint_set_def(world, joint, &d), TB_OK);
	float inertia = tb_body_get_inertia(world, wheel);
	tb_world_step(world, DT);
	assert_near(tb_body_get_angular_velocity(world, wheel), -0.5f / inertia * DT, 0.01f * 0.5f / inertia * DT);
	assert_near(tb_joint_get_constraint_torque(world, joint), -0.5f, 1e-4);
	for (int i = 0; i < 300; ++i) tb_world_step(world, DT);
	assert_near(tb_body_get_angular_velocity(world, wheel), -10.0f, 1e-3);
	tb_destroy_world(world);
}

/* A cart on two sprung, driven wheels rolls at the wheels' speed times their
 * radius, its body level on the suspension. */
static void test_wheel_cart_drives(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tu_ground(world, 0.0f, 100.0f);
	tb_body_id cart = tu_body(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.8f));
	tu_box(world, cart, 1.0f, 0.2f, 1.0f);
	tb_joint_id joints[2];
	tb_body_id wheels[2];
	for (int i = 0; i < 2; ++i) {
		float x = i == 0 ? -0.7f : 0.7f;
		wheels[i] = tu_body(world, TB_DYNAMIC_BODY, tb_v2(x, 0.3f));
		tb_shape_def sd = tb_default_shape_def();
		sd.friction = 1.0f;
		tu_circle_with(world, wheels[i], 0.3f, &sd);
		tb_joint_def def = def_at(world, TB_JOINT_WHEEL, cart, wheels[i], tb_v2(x, 0.3f));
		def.local_axis_a = tb_v2(0.0f, 1.0f);
		def.enable_spring = true;
		def.hertz = 4.0f;
		def.damping_ratio = 0.7f;
		def.enable_motor = true;
		def.motor_speed = -5.0f;
		def.max_motor_torque = 20.0f;
		joints[i] = create_ok(world, &def);
	}
	for (int i = 0; i < 300; ++i) tb_world_step(world, DT);
	assert_near(tb_body_get_linear_velocity(world, cart).x, 5.0f * 0.3f, 0.02f * 1.5f);
	assert_near(tb_body_get_angle(world, cart), 0.0f, 0.01f);
	/* each spring carries about half the cart: the cart sits lower on the
	 * wheels, which are up its axis from their anchors */
	for (int i = 0; i < 2; ++i) assert_true(tb_joint_get_value(world, joints[i]) > 0.005f);
	tb_destroy_world(world);
}

/* ---------------------------------------------------------------- motor */

/* The motor joint takes B to its offset and angle relative to A, holding it
 * there against gravity; a new offset is followed. */
static void test_motor_reaches_target(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = tu_body_moving(world, TB_STATIC_BODY, tb_v2(1.0f, 0.0f), 0.5f, tb_vec2_zero, 0.0f);
	tb_body_id box = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(3.0f, 2.0f), 0.7f, tb_vec2_zero, 0.0f);
	tu_box(world, box, 0.5f, 0.25f, 1.0f);
	tb_joint_def def = tb_default_joint_def(TB_JOINT_MOTOR);
	def.body_a = ground;
	def.body_b = box;
	def.linear_offset = tb_v2(0.0f, 1.5f);
	def.angular_offset = -0.25f;
	def.max_force = 100.0f;
	def.max_motor_torque = 50.0f;
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 240; ++i) tb_world_step(world, DT);
	tb_vec2 target = tb_body_get_world_point(world, ground, tb_v2(0.0f, 1.5f));
	assert_vec_near(tb_body_get_position(world, box), target.x, target.y, 1e-3);
	assert_near(tb_body_get_angle(world, box), 0.5f - 0.25f, 1e-3);
	assert_vec_near(tb_joint_get_world_anchor_a(world, joint), target.x, target.y, 1e-5);
	/* it carries the weight */
	float mass = tb_body_get_mass(world, box);
	assert_near(tb_joint_get_constraint_force(world, joint).y, mass * G, 0.01f * mass * G);

	tb_joint_def d = tb_joint_get_def(world, joint);
	d.linear_offset = tb_v2(-1.0f, 0.0f);
	d.angular_offset = 1.0f;
	assert_int_equal(tb_joint_set_def(world, joint, &d), TB_OK);
	for (int i = 0; i < 240; ++i) tb_world_step(world, DT);
	target = tb_body_get_world_point(world, ground, tb_v2(-1.0f, 0.0f));
	assert_vec_near(tb_body_get_position(world, box), target.x, target.y, 1e-3);
	assert_near(tb_body_get_angle(world, box), 1.5f, 1e-3);
	tb_destroy_world(world);
}

/* Its force and torque are capped: a far target is approached no faster than
 * max_force / m allows, and the angle no faster than max_torque / I. */
static void test_motor_force_capped(void **state)
{
	(void)state;
	tb_world *world = make_world_without_gravity();
	tb_body_id ground = make_ground(world);
	tb_body_id box = tu_body(world, TB_DYNAMIC_BODY, tb_vec2_zero);
	tu_box(world, box, 0.5f, 0.5f, 1.0f); /* 1 kg, I = 1/6 */
	tb_joint_def def = tb_default_joint_def(TB_JOINT_MOTOR);
	def.body_a = ground;
	def.body_b = box;
	def.linear_offset = tb_v2(50.0f, 0.0f);
	def.angular_offset = 3.0f;
	def.max_force = 2.0f;
	def.max_motor_torque = 0.1f;
	create_ok(world, &def);
	for (int i = 1; i <= 60; ++i) {
		tb_world_step(world, DT);
		/* from rest: v = F t / m and w = T t / I exactly while the cap holds */
		assert_near(tb_body_get_linear_velocity(world, box).x, 2.0f * i * DT, 1e-4 * i);
		assert_near(tb_body_get_linear_velocity(world, box).y, 0.0f, 1e-5);
		assert_near(tb_body_get_angular_velocity(world, box), 0.1f * 6.0f * i * DT, 1e-4 * i);
	}
	tb_destroy_world(world);
}

/* ---------------------------------------------------------------- breaking */

static int count_breaks(const tb_world *world) { return tb_world_get_joint_events(world).break_count; }

/* A box hung from a pin: the pin carries m g. With the limit above it nothing
 * breaks; as gravity grows the pin breaks in the step its force first passes
 * the limit, reports it, and is gone. */
static void test_break_force_at_threshold(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id box = tu_body(world, TB_DYNAMIC_BODY, tb_v2(0.0f, -1.0f));
	tu_box(world, box, 0.25f, 0.25f, 2.0f);
	float mass = tb_body_get_mass(world, box);
	tb_joint_def def = def_at(world, TB_JOINT_REVOLUTE, ground, box, tb_v2(0.0f, -0.75f));
	def.break_force = 1.02f * mass * G;
	static int tag;
	def.user_data = &tag;
	tb_joint_id joint = create_ok(world, &def);
	for (int i = 0; i < 300; ++i) {
		tb_world_step(world, DT);
		assert_int_equal(count_breaks(world), 0);
	}
	assert_true(tb_joint_is_valid(world, joint));

	/* gravity grows 1% of G per step from G: m g passes 1.2 m G at step 20 */
	tb_joint_def d = tb_joint_get_def(world, joint);
	d.break_force = 1.2f * mass * G;
	assert_int_equal(tb_joint_set_def(world, joint, &d), TB_OK);
	tb_world_def wd = tb_world_get_def(world);
	int broke_at = -1;
	for (int i = 1; i <= 40 && broke_at < 0; ++i) {
		wd.gravity.y = -G * (1.0f + 0.01f * (float)i);
		assert_int_equal(tb_world_set_def(world, &wd), TB_OK);
		float force_before = tb_length(tb_joint_get_constraint_force(world, joint));
		assert_true(force_before <= d.break_force);
		tb_world_step(world, DT);
		if (count_breaks(world) == 0) {
			assert_true(tb_joint_is_valid(world, joint));
			assert_true(tb_length(tb_joint_get_constraint_force(world, joint)) <= d.break_force);
			continue;
		}
		broke_at = i;
		tb_joint_events e = tb_world_get_joint_events(world);
		assert_int_equal(e.break_count, 1);
		assert_true(TB_ID_EQUALS(e.breaks[0].joint, joint));
		assert_int_equal(e.breaks[0].type, TB_JOINT_REVOLUTE);
		assert_true(TB_ID_EQUALS(e.breaks[0].body_a, ground) && TB_ID_EQUALS(e.breaks[0].body_b, box));
		assert_ptr_equal(e.breaks[0].user_data, &tag);
		assert_true(e.breaks[0].force > d.break_force && e.breaks[0].force < 1.02f * d.break_force);
		assert_false(tb_joint_is_valid(world, joint));
	}
	assert_in_range(broke_at, 20, 21);
	/* the event lasts one step; the box falls free */
	tb_world_step(world, DT);
	assert_int_equal(count_breaks(world), 0);
	for (int i = 0; i < 30; ++i) tb_world_step(world, DT);
	assert_true(tb_body_get_position(world, box).y < -2.0f);
	tb_destroy_world(world);
}

/* A welded cantilever carries the moment m g L/2 at the weld once settled (a
 * load applied at once overshoots it by 6% in the first step): a torque
 * limit just above holds it, just below breaks it at once. */
static void test_break_torque(void **state)
{
	(void)state;
	for (int below = 0; below < 2; ++below) {
		tb_world *world = make_world();
		tb_body_id ground = make_ground(world);
		tb_body_id beam = tu_body(world, TB_DYNAMIC_BODY, tb_v2(1.0f, 5.0f));
		tu_box(world, beam, 1.0f, 0.1f, 1.0f);
		float moment = tb_body_get_mass(world, beam) * G * 1.0f;
		tb_joint_def def = def_at(world, TB_JOINT_WELD, ground, beam, tb_v2(0.0f, 5.0f));
		tb_joint_id joint = create_ok(world, &def);
		for (int i = 0; i < 60; ++i) tb_world_step(world, DT);
		def = tb_joint_get_def(world, joint);
		def.break_torque = below ? 0.97f * moment : 1.03f * moment;
		assert_int_equal(tb_joint_set_def(world, joint, &def), TB_OK);
		int breaks = 0;
		for (int i = 0; i < 120; ++i) {
			tb_world_step(world, DT);
			breaks += count_breaks(world);
		}
		assert_int_equal(breaks, below ? 1 : 0);
		assert_int_equal(tb_joint_is_valid(world, joint), !below);
		tb_destroy_world(world);
	}
}

static void test_new_kinds_validation(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id body = tu_body(world, TB_DYNAMIC_BODY, tb_v2(0.0f, 2.0f));
	tu_box(world, body, 0.5f, 0.5f, 1.0f);
	tb_joint_def wheel = def_at(world, TB_JOINT_WHEEL, ground, body, tb_v2(0.0f, 2.0f));
	wheel.local_axis_a = tb_vec2_zero;
	expect_create_fails(world, &wheel, TB_ERR_DEGENERATE);
	wheel.local_axis_a = tb_v2(0.0f, 1.0f);
	wheel.lower = 1.0f;
	wheel.upper = -1.0f;
	expect_create_fails(world, &wheel, TB_ERR_INVALID_ARGUMENT);
	wheel.lower = wheel.upper = 0.0f;
	wheel.break_force = NAN;
	expect_create_fails(world, &wheel, TB_ERR_INVALID_NUMBER);
	wheel.break_force = -1.0f;
	expect_create_fails(world, &wheel, TB_ERR_NEGATIVE);
	wheel.break_force = INFINITY;
	wheel.break_torque = NAN;
	expect_create_fails(world, &wheel, TB_ERR_INVALID_NUMBER);
	wheel.break_torque = 5.0f;
	tb_joint_id w = create_ok(world, &wheel);

	tb_joint_def motor = tb_default_joint_def(TB_JOINT_MOTOR);
	assert_true(isinf(motor.break_force) && isinf(motor.break_torque));
	assert_near(motor.correction_factor, 0.3f, 0.0f);
	motor.body_a = ground;
	motor.body_b = body;
	motor.correction_factor = 1.5f;
	expect_create_fails(world, &motor, TB_ERR_INVALID_ARGUMENT);
	motor.correction_factor = 0.3f;
	motor.linear_offset = tb_v2(INFINITY, 0.0f);
	expect_create_fails(world, &motor, TB_ERR_INVALID_NUMBER);
	motor.linear_offset = tb_v2(2.0e6f, 0.0f);
	expect_create_fails(world, &motor, TB_ERR_INVALID_NUMBER);
	motor.linear_offset = tb_vec2_zero;
	motor.angular_offset = NAN;
	expect_create_fails(world, &motor, TB_ERR_INVALID_NUMBER);
	motor.angular_offset = 0.0f;
	motor.max_force = -1.0f;
	expect_create_fails(world, &motor, TB_ERR_NEGATIVE);
	motor.max_force = 10.0f;
	tb_joint_id m = create_ok(world, &motor);
	/* a set_def that fails changes nothing */
	tb_joint_def bad = tb_joint_get_def(world, m);
	bad.break_torque = -2.0f;
	assert_int_equal(tb_joint_set_def(world, m, &bad), TB_ERR_NEGATIVE);
	assert_true(isinf(tb_joint_get_def(world, m).break_torque));
	assert_near(tb_joint_get_def(world, w).break_torque, 5.0f, 0.0f);
	tb_destroy_world(world);
}

/* Every kind has its operations: a missing table, or a kind without a step
 * the substeps call (revolute's rows are called directly), would crash the
 * first step that met one. */
static void test_every_kind_has_its_operations(void **state)
{
	(void)state;
	for (int t = 0; t < TB_JOINT_TYPE_COUNT; ++t) {
		const tb_joint_ops *ops = tb_joint_kinds[t];
		assert_non_null(ops);
		assert_non_null(ops->prepare);
		if (ops->solved_from_rows) {
			assert_int_equal(t, TB_JOINT_REVOLUTE);
			assert_null(ops->warm_start);
			assert_null(ops->solve);
		} else {
			assert_non_null(ops->warm_start);
			assert_non_null(ops->solve);
		}
		/* every kind reports its point or axial force */
		assert_non_null(ops->force);
	}
}

static void test_draw(void **state)
{
	(void)state;
	tb_world *world = make_world();
	tb_body_id ground = make_ground(world);
	tb_body_id body = tu_body_moving(world, TB_DYNAMIC_BODY, tb_v2(2.0f, 3.0f), 0.0f, tb_vec2_zero, 0.0f);
	tu_box(world, body, 0.25f, 0.25f, 1.0f);
	tb_joint_def def = tb_default_joint_def(TB_JOINT_DISTANCE);
	def.body_a = ground;
	def.body_b = body;
	def.local_anchor_a = tb_v2(2.0f, 5.0f);
	def.local_anchor_b = tb_v2(0.0f, 0.25f);
	def.length = 1.75f;
	create_ok(world, &def);
	tb_debug_draw draw = {0};
	draw.draw_joint = record_joint;
	draw_count = 0;
	tb_world_draw(world, &draw);
	assert_int_equal(draw_count, 0); /* layer off */
	draw.draw_joints = true;
	tb_world_draw(world, &draw);
	assert_int_equal(draw_count, 1);
	assert_int_equal(drawn_type, TB_JOINT_DISTANCE);
	assert_vec_near(drawn_a, 2.0f, 5.0f, 1e-6);
	assert_vec_near(drawn_b, 2.0f, 3.25f, 1e-6);
	assert_vec_near(drawn_ca, 0.0f, 0.0f, 1e-6);
	assert_vec_near(drawn_cb, 2.0f, 3.0f, 1e-6);
	tb_destroy_world(world);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_defs),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_stale_handles),
		cmocka_unit_test(test_pendulum_period),
		cmocka_unit_test(test_pendulum_constraint_force),
		cmocka_unit_test(test_revolute_motor),
		cmocka_unit_test(test_revolute_limits),
		cmocka_unit_test(test_revolute_spring),
		cmocka_unit_test(test_revolute_fixed_rotation),
		cmocka_unit_test(test_revolute_chain),
		cmocka_unit_test(test_revolute_fast_spin),
		cmocka_unit_test(test_prismatic_axis_and_limits),
		cmocka_unit_test(test_prismatic_free_slide),
		cmocka_unit_test(test_prismatic_holds_angle),
		cmocka_unit_test(test_prismatic_spring),
		cmocka_unit_test(test_distance_rigid),
		cmocka_unit_test(test_distance_spring_period),
		cmocka_unit_test(test_distance_rope_limits),
		cmocka_unit_test(test_weld_keeps_relative_pose),
		cmocka_unit_test(test_weld_cantilever),
		cmocka_unit_test(test_mouse_pulls_to_target),
		cmocka_unit_test(test_mouse_max_force),
		cmocka_unit_test(test_joint_without_warm_starting),
		cmocka_unit_test(test_set_def_wakes_bodies),
		cmocka_unit_test(test_wheel_spring_frequency),
		cmocka_unit_test(test_wheel_sag_limits_motor),
		cmocka_unit_test(test_wheel_cart_drives),
		cmocka_unit_test(test_motor_reaches_target),
		cmocka_unit_test(test_motor_force_capped),
		cmocka_unit_test(test_break_force_at_threshold),
		cmocka_unit_test(test_break_torque),
		cmocka_unit_test(test_new_kinds_validation),
		cmocka_unit_test(test_draw),
		cmocka_unit_test(test_every_kind_has_its_operations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
