/* One-way platforms and the pre-solve hook: bodies pass up through a platform
 * and land on it, slowly and at 50 m/s, a resting stack stays put for 30 s,
 * the up direction is the body's, and the hook sees the contacts it is asked
 * about and can switch them off. */
#include "test_util.h"

#include <string.h>

/* A static platform 8 m wide and `thickness` thick, its top at y = top. */
static tb_shape_id platform(tb_world *w, float top, float thickness, tb_vec2 up)
{
	tb_body_id b = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, top - 0.5f * thickness));
	tb_shape_def sd = tb_default_shape_def();
	sd.one_way = up;
	return tu_box_with(w, b, 4.0f, 0.5f * thickness, &sd);
}

/* Steps until the body has gone up past `above` and come back to rest,
 * tracking how high it went. */
static float run_jump(tb_world *w, tb_body_id b, int steps, float *apex)
{
	*apex = -1e9f;
	for (int i = 0; i < steps; ++i) {
		tb_world_step(w, TU_DT);
		*apex = fmaxf(*apex, tb_body_get_position(w, b).y);
	}
	return tb_body_get_position(w, b).y;
}

/* From below, up through a 0.2 m platform and down onto it: a box and a ball,
 * at a gentle 8 m/s and at 50 m/s (past the platform's thickness in a single
 * step, 0.83 m). */
static void check_jump_through(float speed, bool ball)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, -3.0f, 20.0f);
	platform(w, 0.0f, 0.2f, tb_v2(0.0f, 1.0f));
	tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, -2.5f), 0.0f, tb_v2(0.0f, speed), 0.0f);
	if (ball) tu_circle(w, b, 0.5f, 1.0f);
	else tu_box(w, b, 0.5f, 0.5f, 1.0f);
	float flight = 2.0f * speed / 10.0f + 2.0f;
	float apex;
	float y = run_jump(w, b, (int)(flight * 60.0f), &apex);
	/* it went up through the platform to about v^2 / 2g above its start */
	float expect_apex = -2.5f + speed * speed / 20.0f;
	assert_near(apex, expect_apex, 0.02f * expect_apex + 0.05f);
	/* and came down onto the top, at rest */
	assert_near(y, 0.5f, 0.01f);
	assert_near(tb_length(tb_body_get_linear_velocity(w, b)), 0.0f, 0.01f);
	tb_destroy_world(w);
}

static void test_jump_up_through_and_land(void **state)
{
	(void)state;
	check_jump_through(8.0f, false);
	check_jump_through(8.0f, true);
	check_jump_through(50.0f, false);
	check_jump_through(50.0f, true);
}

/* Dropped onto it from above at 50 m/s, a thin platform (2 cm) still holds. */
static void test_fast_fall_lands(void **state)
{
	(void)state;
	const float thickness[2] = {0.2f, 0.02f};
	for (int k = 0; k < 2; ++k) {
		tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
		tu_ground(w, -3.0f, 20.0f);
		platform(w, 0.0f, thickness[k], tb_v2(0.0f, 1.0f));
		tb_body_id box = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(-1.0f, 20.0f), 0.0f, tb_v2(0.0f, -50.0f), 0.0f);
		tu_box(w, box, 0.25f, 0.25f, 1.0f);
		tb_body_id ball = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(1.0f, 20.0f), 0.0f, tb_v2(0.0f, -50.0f), 0.0f);
		tu_circle(w, ball, 0.25f, 1.0f);
		float lowest = 1e9f;
		for (int i = 0; i < 120; ++i) {
			tb_world_step(w, TU_DT);
			lowest = fminf(lowest, fminf(tb_body_get_position(w, box).y, tb_body_get_position(w, ball).y));
		}
		assert_true(lowest > 0.2f);
		assert_near(tb_body_get_position(w, box).y, 0.25f, 0.01f);
		assert_near(tb_body_get_position(w, ball).y, 0.25f, 0.01f);
		tb_destroy_world(w);
	}
}

/* Walking into its end at its own height passes through the platform; a
 * plain box there would stop it. */
static void test_side_passes(void **state)
{
	(void)state;
	for (int one_way = 0; one_way < 2; ++one_way) {
		tb_world *w = tu_world(tb_vec2_zero);
		platform(w, 0.5f, 1.0f, one_way ? tb_v2(0.0f, 1.0f) : tb_vec2_zero);
		tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(-6.0f, 0.0f), 0.0f, tb_v2(4.0f, 0.0f), 0.0f);
		tu_box(w, b, 0.25f, 0.25f, 1.0f);
		tu_step(w, 180);
		float x = tb_body_get_position(w, b).x;
		if (one_way) assert_near(x, 6.0f, 0.01f);
		else assert_true(x < -4.2f);
		tb_destroy_world(w);
	}
}

/* Ten boxes stacked on a one-way platform for 30 s: none sinks, none moves. */
static void test_resting_stack_stays(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, -3.0f, 20.0f);
	platform(w, 0.0f, 0.2f, tb_v2(0.0f, 1.0f));
	tb_body_id boxes[10];
	for (int i = 0; i < 10; ++i) {
		boxes[i] = tu_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.25f + 0.5f * (float)i));
		tu_box(w, boxes[i], 0.25f, 0.25f, 1.0f);
	}
	tu_step(w, 60);
	tb_vec2 settled[10];
	for (int i = 0; i < 10; ++i) settled[i] = tb_body_get_position(w, boxes[i]);
	for (int s = 0; s < 30 * 60; ++s) {
		tb_world_step(w, TU_DT);
		/* the bottom box never sinks into the platform */
		assert_true(tb_body_get_position(w, boxes[0]).y > 0.24f);
	}
	for (int i = 0; i < 10; ++i) {
		tb_vec2 p = tb_body_get_position(w, boxes[i]);
		assert_near(p.x, settled[i].x, 0.005f);
		assert_near(p.y, settled[i].y, 0.005f);
		assert_near(tb_body_get_angle(w, boxes[i]), 0.0f, 0.01f);
	}
	/* and they sleep */
	assert_false(tb_body_is_awake(w, boxes[9]));
	tb_destroy_world(w);
}

/* The up direction is in the body's frame and any direction works: a wall
 * whose up is +x stops what comes from +x and lets what comes from -x pass;
 * turned about with its body, the other way. */
static void test_direction_and_rotation(void **state)
{
	(void)state;
	for (int turned = 0; turned < 2; ++turned) {
		tb_world *w = tu_world(tb_vec2_zero);
		tb_body_id wall = tu_body_moving(w, TB_STATIC_BODY, tb_vec2_zero, turned ? TB_PI : 0.0f, tb_vec2_zero, 0.0f);
		tb_shape_def sd = tb_default_shape_def();
		sd.one_way = tb_v2(3.0f, 0.0f); /* normalized */
		tb_shape_id s = tu_box_with(w, wall, 0.1f, 3.0f, &sd);
		assert_near(tb_shape_get_one_way(w, s).x, 1.0f, 0.0f);
		tb_body_id from_left = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(-3.0f, 1.0f), 0.0f, tb_v2(6.0f, 0.0f), 0.0f);
		tu_circle(w, from_left, 0.25f, 1.0f);
		tb_body_id from_right = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(3.0f, -1.0f), 0.0f, tb_v2(-6.0f, 0.0f), 0.0f);
		tu_circle(w, from_right, 0.25f, 1.0f);
		tu_step(w, 60);
		float left_x = tb_body_get_position(w, from_left).x, right_x = tb_body_get_position(w, from_right).x;
		if (!turned) {
			assert_true(left_x > 2.9f);  /* passed */
			assert_true(right_x > 0.3f); /* stopped at the wall */
		} else {
			assert_true(left_x < -0.3f);
			assert_true(right_x < -2.9f);
		}
		tb_destroy_world(w);
	}
}

/* Turning one-way on under a resting box keeps it held; turning it off under a
 * box passing through pushes it out; bad directions are refused. */
static void test_set_one_way(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, -3.0f, 20.0f);
	tb_shape_id p = platform(w, 0.0f, 0.2f, tb_vec2_zero);
	tb_body_id b = tu_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.3f));
	tu_box(w, b, 0.25f, 0.25f, 1.0f);
	tu_step(w, 90);
	assert_false(tb_body_is_awake(w, b));
	assert_int_equal(tb_shape_set_one_way(w, p, tb_v2(0.0f, 2.0f)), TB_OK);
	assert_true(tb_body_is_awake(w, b));
	tu_step(w, 60);
	assert_near(tb_body_get_position(w, b).y, 0.25f, 0.01f);
	assert_int_equal(tb_shape_set_one_way(w, p, tb_v2(NAN, 1.0f)), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_shape_set_one_way(w, p, tb_v2(0.0f, INFINITY)), TB_ERR_INVALID_NUMBER);
	assert_near(tb_shape_get_one_way(w, p).y, 1.0f, 0.0f);
	/* huge but finite components still give a unit direction */
	assert_int_equal(tb_shape_set_one_way(w, p, tb_v2(3e38f, 3e38f)), TB_OK);
	assert_near(tb_shape_get_one_way(w, p).x, sqrtf(0.5f), 1e-6);
	assert_int_equal(tb_shape_set_one_way(w, p, tb_vec2_zero), TB_OK);
	assert_near(tb_shape_get_one_way(w, p).x, 0.0f, 0.0f);

	tb_shape_def sd = tb_default_shape_def();
	sd.one_way = tb_v2(0.0f, NAN);
	tb_status st;
	tb_polygon box = tb_make_box(1.0f, 1.0f);
	assert_true(TB_IS_NULL(tb_create_polygon_shape(w, b, &sd, &box, &st)));
	assert_int_equal(st, TB_ERR_INVALID_NUMBER);
	tb_destroy_world(w);
}

/* ---------------- pre-solve ---------------- */

typedef struct presolve_log {
	tb_world *world;
	tb_shape_id ghost;   /* contacts with it are switched off */
	int calls, ghost_calls;
	bool locked_refused; /* creating a body inside the hook was refused */
	bool normal_ok;
} presolve_log;

static bool presolve_hook(tb_shape_id a, tb_shape_id b, const tb_manifold *m, void *context)
{
	presolve_log *log = context;
	log->calls += 1;
	tb_body_def bd = tb_default_body_def();
	tb_status st;
	tb_body_id made = tb_create_body(log->world, &bd, &st);
	log->locked_refused = TB_IS_NULL(made) && st == TB_ERR_LOCKED;
	if (m->point_count < 1 || fabsf(tb_length(m->normal) - 1.0f) > 1e-4f) log->normal_ok = false;
	if (TB_ID_EQUALS(a, log->ghost) || TB_ID_EQUALS(b, log->ghost)) {
		log->ghost_calls += 1;
		return false;
	}
	return true;
}

static void test_presolve_switches_contacts_off(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, -3.0f, 20.0f);
	tb_body_id solid = tu_body(w, TB_DYNAMIC_BODY, tb_v2(-2.0f, 1.0f));
	tu_box(w, solid, 0.5f, 0.5f, 1.0f);
	tb_body_id ghost = tu_body(w, TB_DYNAMIC_BODY, tb_v2(2.0f, 1.0f));
	presolve_log log = {w, tu_box(w, ghost, 0.5f, 0.5f, 1.0f), 0, 0, false, true};
	tb_world_set_presolve(w, presolve_hook, &log);
	tu_step(w, 120);
	assert_true(log.calls > 0 && log.ghost_calls > 0);
	assert_true(log.locked_refused);
	assert_true(log.normal_ok);
	assert_near(tb_body_get_position(w, solid).y, -2.5f, 0.01f);
	assert_true(tb_body_get_position(w, ghost).y < -10.0f); /* fell through the ground */
	/* without the hook nothing is asked */
	tb_world_set_presolve(w, NULL, NULL);
	int calls = log.calls;
	tb_body_id other = tu_body(w, TB_DYNAMIC_BODY, tb_v2(4.0f, 1.0f));
	tu_box(w, other, 0.5f, 0.5f, 1.0f);
	tu_step(w, 60);
	assert_int_equal(log.calls, calls);
	assert_near(tb_body_get_position(w, other).y, -2.5f, 0.01f);
	tb_destroy_world(w);
}

/* A hook that lets contacts through and one that is absent give the same
 * world, bit for bit. */
static bool presolve_yes(tb_shape_id a, tb_shape_id b, const tb_manifold *m, void *context)
{
	(void)a;
	(void)b;
	(void)m;
	*(int *)context += 1;
	return true;
}

static void test_presolve_accepting_changes_nothing(void **state)
{
	(void)state;
	uint64_t hashes[2];
	for (int k = 0; k < 2; ++k) {
		tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
		tu_ground(w, 0.0f, 20.0f);
		for (int i = 0; i < 12; ++i) {
			tb_body_id b = tu_body(w, TB_DYNAMIC_BODY, tb_v2(0.1f * (float)(i % 3), 0.5f + 1.01f * (float)i));
			if (i % 2) tu_box(w, b, 0.5f, 0.5f, 1.0f);
			else tu_circle(w, b, 0.5f, 1.0f);
		}
		int calls = 0;
		if (k == 1) tb_world_set_presolve(w, presolve_yes, &calls);
		tu_step(w, 200);
		hashes[k] = tb_world_hash(w);
		if (k == 1) assert_true(calls > 100);
		tb_destroy_world(w);
	}
	assert_true(hashes[0] == hashes[1]);
}

/* A shape passing through a one-sided surface makes a contact with no points,
 * and a contact with no points is not touching: no begin or end event, no
 * pre-solve call, nothing in the body's touching contacts, at any step, for a
 * circle, a capsule and a box, through both kinds of one-sided surface: a
 * chain entered from behind (it falls onto chain{-5,0, 5,0}, whose front
 * faces down) and a one-way platform entered from below. */
static bool presolve_count(tb_shape_id a, tb_shape_id b, const tb_manifold *m, void *context)
{
	(void)a, (void)b, (void)m;
	*(int *)context += 1;
	return true;
}

static void pass_through(bool chain, int kind)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id ground = tu_body(w, TB_STATIC_BODY, tb_vec2_zero);
	if (chain) {
		tb_vec2 points[2] = {{-5.0f, 0.0f}, {5.0f, 0.0f}};
		tb_chain_def cd = tb_default_chain_def();
		cd.points = points;
		cd.count = 2;
		tb_shape_id link;
		assert_int_equal(tb_create_chain(w, ground, &cd, &link, 1, NULL), 1);
	} else {
		platform(w, 0.0f, 0.2f, tb_v2(0.0f, 1.0f));
	}
	/* from above, falling, onto the chain's back; from below, rising, into the platform */
	tb_vec2 start = chain ? tb_v2(0.3f, 3.0f) : tb_v2(0.3f, -3.0f);
	tb_vec2 velocity = chain ? tb_vec2_zero : tb_v2(0.0f, 11.0f);
	tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, start, 0.3f, velocity, 0.0f);
	if (kind == 0) tu_circle(w, b, 0.5f, 1.0f);
	else if (kind == 1) {
		tb_capsule cap = {{-0.4f, 0.0f}, {0.4f, 0.0f}, 0.3f};
		tb_shape_def sd = tb_default_shape_def();
		assert_false(TB_IS_NULL(tb_create_capsule_shape(w, b, &sd, &cap, NULL)));
	} else {
		tu_box(w, b, 0.5f, 0.4f, 1.0f);
	}
	int presolves = 0;
	tb_world_set_presolve(w, presolve_count, &presolves);
	bool through = false;
	for (int i = 0; i < 120 && !through; ++i) {
		tb_world_step(w, TU_DT);
		tb_contact_events ev = tb_world_get_contact_events(w);
		tb_contact_data data[4];
		if (ev.begin_count != 0 || ev.end_count != 0 || presolves != 0 || tb_body_get_contacts(w, b, data, 4) != 0 ||
		    tb_world_get_counters(w).touching_contact_count != 0)
			fail_msg("%s, shape kind %d, step %d: %d begin, %d end, %d pre-solve, %d touching", chain ? "chain" : "one-way",
			         kind, i, ev.begin_count, ev.end_count, presolves, tb_world_get_counters(w).touching_contact_count);
		float y = tb_body_get_position(w, b).y;
		/* wholly past the surface: below the chain, above the platform */
		through = chain ? y < -1.0f : y > 1.0f;
	}
	assert_true(through);
	tb_destroy_world(w);
}

static void test_passing_through_touches_nothing(void **state)
{
	(void)state;
	for (int kind = 0; kind < 3; ++kind) {
		pass_through(true, kind);
		pass_through(false, kind);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jump_up_through_and_land),
		cmocka_unit_test(test_fast_fall_lands),
		cmocka_unit_test(test_side_passes),
		cmocka_unit_test(test_resting_stack_stays),
		cmocka_unit_test(test_direction_and_rotation),
		cmocka_unit_test(test_set_one_way),
		cmocka_unit_test(test_presolve_switches_contacts_off),
		cmocka_unit_test(test_presolve_accepting_changes_nothing),
		cmocka_unit_test(test_passing_through_touches_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
