/* Surfaces against closed forms: rolling resistance (a disc's stopping
 * distance), tangent speed (a conveyor belt's carried speed), the world's
 * friction and restitution mixing rules (a ramp's sliding acceleration and a
 * ball's bounce), and the per-body sleep threshold. */
#include "test_util.h"

#include <string.h>

static tb_shape_def surface(float friction, float restitution, float rolling_resistance, float tangent_speed)
{
	tb_shape_def sd = tb_default_shape_def();
	sd.friction = friction;
	sd.restitution = restitution;
	sd.rolling_resistance = rolling_resistance;
	sd.tangent_speed = tangent_speed;
	return sd;
}

static tb_body_id ground_with(tb_world *w, const tb_shape_def *sd, float half_width)
{
	tb_body_id g = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f));
	tu_box_with(w, g, half_width, 1.0f, sd);
	return g;
}

/* ---------------- rolling resistance ---------------- */

/* A solid disc rolling without slipping under a resisting torque c R N: with
 * I = m R^2 / 2, m a = -F and I a / R = F R - c R m g, so a = -(2/3) c g and it
 * stops after d = v0^2 / (2 a) = 3 v0^2 / (4 c g). The coefficient may sit on
 * either shape (the larger counts). */
static void check_rolling_stop(float c_ball, float c_ground, float v0, float radius)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_shape_def gsd = surface(1.0f, 0.0f, c_ground, 0.0f);
	ground_with(w, &gsd, 100.0f);
	tb_body_id ball = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, radius), 0.0f, tb_v2(v0, 0.0f), -v0 / radius);
	tb_shape_def bsd = surface(1.0f, 0.0f, c_ball, 0.0f);
	tu_circle_with(w, ball, radius, &bsd);

	float c = fmaxf(c_ball, c_ground);
	double expected = 3.0 * v0 * v0 / (4.0 * c * 10.0);
	int steps = 0;
	while (tb_body_is_awake(w, ball) && steps < 60 * 60) {
		tb_world_step(w, TU_DT);
		steps += 1;
		/* it rolls, it does not skid: the contact point stays still */
		float slip = tb_body_get_linear_velocity(w, ball).x + radius * tb_body_get_angular_velocity(w, ball);
		if (steps > 2) assert_near(slip, 0.0f, 0.01f);
	}
	assert_false(tb_body_is_awake(w, ball));
	double travelled = tb_body_get_position(w, ball).x;
	assert_near(travelled, expected, 0.02 * expected);
	/* and the time it took is v0 / a */
	double t = steps * (double)TU_DT;
	double a = 2.0 / 3.0 * c * 10.0;
	assert_true(t > v0 / a && t < v0 / a + 1.0); /* plus the half second of stillness before sleep */
	tb_destroy_world(w);
}

static void test_rolling_resistance_stopping_distance(void **state)
{
	(void)state;
	check_rolling_stop(0.2f, 0.0f, 4.0f, 0.5f);  /* 6 m */
	check_rolling_stop(0.05f, 0.0f, 2.0f, 0.25f); /* 6 m at a quarter of the radius */
	check_rolling_stop(0.0f, 0.3f, 3.0f, 0.5f);  /* the table's coefficient: 2.25 m */
}

/* Without it, a ball rolls on (nothing else slows it here), and a box, whose
 * rounding radius is 0, is not slowed by it. */
static void test_rolling_resistance_needs_a_round_shape(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_shape_def gsd = surface(0.0f, 0.0f, 0.0f, 0.0f);
	ground_with(w, &gsd, 100.0f);
	tb_body_id ball = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(-20.0f, 0.5f), 0.0f, tb_v2(3.0f, 0.0f), -6.0f);
	tb_shape_def bsd = surface(0.0f, 0.0f, 0.0f, 0.0f);
	tu_circle_with(w, ball, 0.5f, &bsd);
	/* a frictionless box with rolling resistance slides on at its speed */
	tb_body_id box = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(20.0f, 0.5f), 0.0f, tb_v2(3.0f, 0.0f), 0.0f);
	tb_shape_def xsd = surface(0.0f, 0.0f, 0.5f, 0.0f);
	tu_box_with(w, box, 0.5f, 0.5f, &xsd);
	tu_step(w, 120);
	assert_near(tb_body_get_linear_velocity(w, ball).x, 3.0f, 1e-3);
	assert_near(tb_body_get_linear_velocity(w, box).x, 3.0f, 1e-3);
	tb_destroy_world(w);
}

/* ---------------- tangent speed ---------------- */

/* A box dropped on a belt reaches the belt's speed and keeps it. Bodies made
 * before and after the belt meet it as either shape of their contact. */
static void test_conveyor_carries_box(void **state)
{
	(void)state;
	const float speeds[2] = {2.0f, -1.5f};
	for (int k = 0; k < 2; ++k) {
		tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
		tb_body_id before = tu_body(w, TB_DYNAMIC_BODY, tb_v2(-4.0f, 0.55f));
		tu_box(w, before, 0.5f, 0.5f, 1.0f);
		tb_shape_def belt = surface(0.8f, 0.0f, 0.0f, speeds[k]);
		ground_with(w, &belt, 50.0f);
		tb_body_id after = tu_body(w, TB_DYNAMIC_BODY, tb_v2(4.0f, 0.55f));
		tu_box(w, after, 0.5f, 0.5f, 1.0f);
		tu_step(w, 120);
		for (int i = 0; i < 2; ++i) {
			tb_body_id b = i == 0 ? before : after;
			tb_vec2 v = tb_body_get_linear_velocity(w, b);
			assert_near(v.x, speeds[k], 0.01f * fabsf(speeds[k]));
			assert_near(v.y, 0.0f, 1e-3);
			assert_near(tb_body_get_angle(w, b), 0.0f, 1e-3);
		}
		/* carried at that speed: one more second moves it by the speed */
		float x0 = tb_body_get_position(w, after).x;
		tu_step(w, 60);
		assert_near(tb_body_get_position(w, after).x - x0, speeds[k], 0.01f * fabsf(speeds[k]));
		tb_destroy_world(w);
	}
}

/* Starting a belt under a sleeping box wakes it; a chain can be a belt too. */
static void test_belt_started_under_sleeping_box(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id g = tu_body(w, TB_STATIC_BODY, tb_vec2_zero);
	tb_vec2 points[3] = {{10.0f, 0.0f}, {0.0f, 0.0f}, {-10.0f, 0.0f}};
	tb_chain_def cd = tb_default_chain_def();
	cd.points = points;
	cd.count = 3;
	tb_shape_id links[2];
	tb_status st;
	assert_int_equal(tb_create_chain(w, g, &cd, links, 2, &st), 2);
	tb_body_id box = tu_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f));
	tu_box(w, box, 0.5f, 0.5f, 1.0f);
	tu_step(w, 90);
	assert_false(tb_body_is_awake(w, box));
	/* the chain's front (its normal, the right perpendicular of the point
	 * order) faces up here: clockwise along it is towards +x */
	for (int i = 0; i < 2; ++i) assert_int_equal(tb_shape_set_tangent_speed(w, links[i], 1.0f), TB_OK);
	assert_true(tb_body_is_awake(w, box));
	tu_step(w, 120);
	assert_near(tb_body_get_linear_velocity(w, box).x, 1.0f, 0.01f);
	assert_near(tb_shape_get_tangent_speed(w, links[0]), 1.0f, 0.0f);
	tb_destroy_world(w);
}

/* ---------------- mixing rules ---------------- */

/* A box sliding down a 40 degree ramp accelerates at g (sin - mu cos): the
 * friction it felt is mu = tan - a / (g cos). */
static float measured_ramp_friction(tb_mix_rule rule, float mu_box, float mu_ramp, float *slid)
{
	tb_world_def wd = tb_default_world_def();
	wd.friction_mix = rule;
	tb_world *w = tu_world_with(&wd);
	const float angle = 40.0f * TB_PI / 180.0f;
	tb_body_id ramp = tu_body_moving(w, TB_STATIC_BODY, tb_vec2_zero, angle, tb_vec2_zero, 0.0f);
	tb_shape_def rsd = surface(mu_ramp, 0.0f, 0.0f, 0.0f);
	tu_box_with(w, ramp, 20.0f, 0.5f, &rsd);
	tb_rot q = tb_make_rot(angle);
	tb_vec2 up = tb_v2(-q.s, q.c);
	tb_body_id box = tu_body_moving(w, TB_DYNAMIC_BODY, tb_mul_sv(1.0f, up), angle, tb_vec2_zero, 0.0f);
	tb_shape_def bsd = surface(mu_box, 0.0f, 0.0f, 0.0f);
	tu_box_with(w, box, 0.5f, 0.5f, &bsd);
	tu_step(w, 30); /* settle onto the ramp */
	tb_vec2 along = tb_v2(q.c, q.s);
	float v0 = tb_dot(tb_body_get_linear_velocity(w, box), along);
	tu_step(w, 60);
	float v1 = tb_dot(tb_body_get_linear_velocity(w, box), along);
	float a = -(v1 - v0); /* down the ramp is -along */
	*slid = a;
	tb_destroy_world(w);
	return tanf(angle) - a / (10.0f * cosf(angle));
}

static void test_friction_mix_rules(void **state)
{
	(void)state;
	const float mu_box = 0.2f, mu_ramp = 0.6f;
	float a;
	assert_near(measured_ramp_friction(TB_MIX_GEOMETRIC, mu_box, mu_ramp, &a), sqrtf(mu_box * mu_ramp), 0.01f);
	assert_near(measured_ramp_friction(TB_MIX_MIN, mu_box, mu_ramp, &a), mu_box, 0.01f);
	assert_near(measured_ramp_friction(TB_MIX_AVERAGE, mu_box, mu_ramp, &a), 0.5f * (mu_box + mu_ramp), 0.01f);
	assert_near(measured_ramp_friction(TB_MIX_MULTIPLY, mu_box, mu_ramp, &a), mu_box * mu_ramp, 0.01f);
	/* max: 0.9 holds the box on a 40 degree ramp (tan 40 = 0.84) */
	measured_ramp_friction(TB_MIX_MAX, mu_box, 0.9f, &a);
	assert_near(a, 0.0f, 0.01f);
}

/* A ball dropped at 5 m/s leaves at e times that: e = the mixed restitution. */
static float measured_bounce(tb_mix_rule rule, float e_ball, float e_ground)
{
	tb_world_def wd = tb_default_world_def();
	wd.restitution_mix = rule;
	wd.gravity = tb_vec2_zero;
	tb_world *w = tu_world_with(&wd);
	tb_shape_def gsd = surface(0.0f, e_ground, 0.0f, 0.0f);
	ground_with(w, &gsd, 10.0f);
	tb_body_id ball = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 2.0f), 0.0f, tb_v2(0.0f, -5.0f), 0.0f);
	tb_shape_def bsd = surface(0.0f, e_ball, 0.0f, 0.0f);
	tu_circle_with(w, ball, 0.5f, &bsd);
	tu_step(w, 60);
	float v = tb_body_get_linear_velocity(w, ball).y;
	tb_destroy_world(w);
	return v / 5.0f;
}

static void test_restitution_mix_rules(void **state)
{
	(void)state;
	const float ea = 0.4f, eb = 0.9f;
	assert_near(measured_bounce(TB_MIX_MAX, ea, eb), eb, 0.01f);
	assert_near(measured_bounce(TB_MIX_MIN, ea, eb), ea, 0.01f);
	assert_near(measured_bounce(TB_MIX_GEOMETRIC, ea, eb), sqrtf(ea * eb), 0.01f);
	assert_near(measured_bounce(TB_MIX_AVERAGE, ea, eb), 0.5f * (ea + eb), 0.01f);
	assert_near(measured_bounce(TB_MIX_MULTIPLY, ea, eb), ea * eb, 0.01f);
}

/* Changing a rule reaches contacts that exist already. */
static void test_mix_change_reaches_contacts(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	const float angle = 30.0f * TB_PI / 180.0f;
	tb_body_id ramp = tu_body_moving(w, TB_STATIC_BODY, tb_vec2_zero, angle, tb_vec2_zero, 0.0f);
	tb_shape_def rsd = surface(1.0f, 0.0f, 0.0f, 0.0f);
	tu_box_with(w, ramp, 20.0f, 0.5f, &rsd);
	tb_rot q = tb_make_rot(angle);
	tb_body_id box = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(-q.s, q.c), angle, tb_vec2_zero, 0.0f);
	tb_shape_def bsd = surface(0.25f, 0.0f, 0.0f, 0.0f);
	tu_box_with(w, box, 0.5f, 0.5f, &bsd);
	tu_step(w, 30); /* geometric: 0.5, below tan 30 = 0.58: it slides */
	tb_world_def wd = tb_world_get_def(w);
	wd.friction_mix = TB_MIX_MAX; /* 1.0: it stops */
	assert_int_equal(tb_world_set_def(w, &wd), TB_OK);
	tu_step(w, 60);
	assert_near(tb_length(tb_body_get_linear_velocity(w, box)), 0.0f, 0.01f);
	wd.friction_mix = TB_MIX_MIN; /* 0.25: it slides at g (sin - 0.25 cos) */
	assert_int_equal(tb_world_set_def(w, &wd), TB_OK);
	tb_body_set_awake(w, box, true);
	tu_step(w, 60);
	float expect = 10.0f * (sinf(angle) - 0.25f * cosf(angle));
	assert_near(tb_length(tb_body_get_linear_velocity(w, box)), expect, 0.03f * expect);
	wd.friction_mix = TB_MIX_RULE_COUNT;
	assert_int_equal(tb_world_set_def(w, &wd), TB_ERR_INVALID_ARGUMENT);
	tb_destroy_world(w);
}

/* ---------------- sleep threshold ---------------- */

/* A box sliding slowly to rest falls asleep sooner under a high threshold,
 * never under 0, and the default sits between. */
static int steps_to_sleep(float threshold)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 50.0f);
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.position = tb_v2(0.0f, 0.5f);
	bd.linear_velocity = tb_v2(1.2f, 0.0f);
	bd.sleep_threshold = threshold;
	tb_body_id b = tb_create_body(w, &bd, NULL);
	tu_box(w, b, 0.5f, 0.5f, 1.0f);
	assert_near(tb_body_get_sleep_threshold(w, b), threshold, 0.0f);
	int steps = 0;
	while (tb_body_is_awake(w, b) && steps < 600) {
		tb_world_step(w, TU_DT);
		steps += 1;
	}
	tb_destroy_world(w);
	return steps;
}

static void test_sleep_threshold(void **state)
{
	(void)state;
	/* decelerating at 6 m/s^2 from 1.2 m/s: below 1 m/s after 1/30 s, below
	 * 0.05 after 0.19 s (and stopped at 0.2 s) */
	int fast = steps_to_sleep(1.0f), normal = steps_to_sleep(0.05f), never = steps_to_sleep(0.0f);
	assert_int_equal(never, 600);
	assert_in_range(fast, 31, 35);   /* 2 + 30 steps still */
	assert_in_range(normal, 41, 45); /* 12 + 30 */

	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id b = tu_body(w, TB_DYNAMIC_BODY, tb_vec2_zero);
	assert_near(tb_body_get_sleep_threshold(w, b), 0.05f, 0.0f);
	assert_int_equal(tb_body_set_sleep_threshold(w, b, -1.0f), TB_ERR_NEGATIVE);
	assert_int_equal(tb_body_set_sleep_threshold(w, b, NAN), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_body_set_sleep_threshold(w, b, INFINITY), TB_ERR_INVALID_NUMBER);
	assert_near(tb_body_get_sleep_threshold(w, b), 0.05f, 0.0f);
	assert_int_equal(tb_body_set_sleep_threshold(w, b, 2.0f), TB_OK);
	assert_near(tb_body_get_sleep_threshold(w, b), 2.0f, 0.0f);
	tb_body_def bd = tb_default_body_def();
	bd.sleep_threshold = -0.5f;
	tb_status st;
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, &st)));
	assert_int_equal(st, TB_ERR_NEGATIVE);
	tb_destroy_world(w);
}

/* ---------------- validation ---------------- */

static void test_surface_values_checked(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id b = tu_body(w, TB_DYNAMIC_BODY, tb_vec2_zero);
	tb_circle c = {{0.0f, 0.0f}, 0.5f};
	tb_status st;
	tb_shape_def sd = tb_default_shape_def();
	sd.rolling_resistance = -0.1f;
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)));
	assert_int_equal(st, TB_ERR_NEGATIVE);
	sd = tb_default_shape_def();
	sd.tangent_speed = NAN;
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)));
	assert_int_equal(st, TB_ERR_INVALID_NUMBER);
	sd.tangent_speed = 2.0e6f;
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)));
	assert_int_equal(st, TB_ERR_INVALID_NUMBER);
	sd = tb_default_shape_def();
	tb_shape_id s = tb_create_circle_shape(w, b, &sd, &c, &st);
	assert_int_equal(st, TB_OK);
	assert_int_equal(tb_shape_set_rolling_resistance(w, s, INFINITY), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_shape_set_rolling_resistance(w, s, -1.0f), TB_ERR_NEGATIVE);
	assert_int_equal(tb_shape_set_tangent_speed(w, s, -INFINITY), TB_ERR_INVALID_NUMBER);
	assert_near(tb_shape_get_rolling_resistance(w, s), 0.0f, 0.0f);
	assert_int_equal(tb_shape_set_rolling_resistance(w, s, 0.3f), TB_OK);
	assert_int_equal(tb_shape_set_tangent_speed(w, s, -2.0f), TB_OK);
	assert_near(tb_shape_get_rolling_resistance(w, s), 0.3f, 0.0f);
	assert_near(tb_shape_get_tangent_speed(w, s), -2.0f, 0.0f);
	tb_chain_def cd = tb_default_chain_def();
	tb_vec2 pts[2] = {{0, 0}, {1, 0}};
	cd.points = pts;
	cd.count = 2;
	cd.rolling_resistance = NAN;
	assert_int_equal(tb_create_chain(w, b, &cd, NULL, 0, &st), -1);
	assert_int_equal(st, TB_ERR_INVALID_NUMBER);
	tb_destroy_shape(w, s, true);
	assert_near(tb_shape_get_tangent_speed(w, s), 0.0f, 0.0f);
	assert_int_equal(tb_shape_set_tangent_speed(w, s, 1.0f), TB_ERR_STALE_HANDLE);
	tb_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rolling_resistance_stopping_distance),
		cmocka_unit_test(test_rolling_resistance_needs_a_round_shape),
		cmocka_unit_test(test_conveyor_carries_box),
		cmocka_unit_test(test_belt_started_under_sleeping_box),
		cmocka_unit_test(test_friction_mix_rules),
		cmocka_unit_test(test_restitution_mix_rules),
		cmocka_unit_test(test_mix_change_reaches_contacts),
		cmocka_unit_test(test_sleep_threshold),
		cmocka_unit_test(test_surface_values_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
