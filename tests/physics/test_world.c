/* World basics through the public API: default defs, settings and their
 * validation, handles and generations, body types and properties, forces,
 * mass of compound bodies, geometry changes, clearing. */
#include "test_util.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#define DT TU_DT

/* ---------------- defaults and settings ---------------- */

static void test_default_defs(void **state)
{
	(void)state;
	tb_world_def wd = tb_default_world_def();
	assert_near(wd.gravity.x, 0.0f, 0.0f);
	assert_near(wd.gravity.y, -10.0f, 0.0f);
	assert_int_equal(wd.substeps, 8);
	assert_near(wd.contact_hertz, 60.0f, 0.0f);
	assert_near(wd.contact_damping_ratio, 10.0f, 0.0f);
	assert_near(wd.joint_hertz, 60.0f, 0.0f);
	assert_true(wd.joint_damping_ratio > 0.0f);
	assert_near(wd.max_contact_push_speed, 3.0f, 0.0f);
	assert_near(wd.restitution_threshold, 1.0f, 0.0f);
	assert_near(wd.hit_event_threshold, 1.0f, 0.0f);
	assert_near(wd.max_linear_speed, 400.0f, 0.0f);
	assert_near(wd.time_to_sleep, 0.5f, 0.0f);
	assert_true(wd.enable_warm_starting);
	assert_true(wd.enable_position_correction);
	assert_true(wd.enable_sleep);
	assert_true(wd.enable_continuous);
	assert_true(wd.enable_motion);

	tb_body_def bd = tb_default_body_def();
	assert_int_equal(bd.type, TB_STATIC_BODY);
	assert_near(bd.position.x, 0.0f, 0.0f);
	assert_near(bd.position.y, 0.0f, 0.0f);
	assert_near(bd.angle, 0.0f, 0.0f);
	assert_near(bd.linear_damping, 0.0f, 0.0f);
	assert_near(bd.angular_damping, 0.0f, 0.0f);
	assert_near(bd.gravity_scale, 1.0f, 0.0f);
	assert_false(bd.is_bullet);
	assert_false(bd.fixed_rotation);
	assert_true(bd.is_awake);
	assert_true(bd.is_enabled);
	assert_true(bd.enable_sleep);
	assert_null(bd.user_data);

	tb_shape_def sd = tb_default_shape_def();
	assert_near(sd.density, 1.0f, 0.0f);
	assert_near(sd.friction, 0.6f, 0.0f);
	assert_near(sd.restitution, 0.0f, 0.0f);
	assert_true(sd.filter.category_bits == 1u);
	assert_true(sd.filter.mask_bits == UINT64_MAX);
	assert_int_equal(sd.filter.group_index, 0);
	assert_false(sd.is_sensor);
	assert_true(sd.enable_sensor_events);
	assert_true(sd.enable_contact_events);
	assert_true(sd.enable_hit_events);
	assert_true(sd.is_enabled);

	/* a fresh world reports back exactly the def it was made with */
	tb_world *w = tb_create_world(&wd);
	assert_non_null(w);
	tb_world_def got = tb_world_get_def(w);
	assert_int_equal(got.substeps, 8);
	assert_near(got.gravity.y, -10.0f, 0.0f);
	tb_counters c = tb_world_get_counters(w);
	assert_int_equal(c.body_count, 0);
	assert_int_equal(c.shape_count, 0);
	assert_false(tb_world_is_locked(w));
	tb_destroy_world(w);
}

static void test_set_def_validation(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_world_def good = tb_world_get_def(w);

	tb_world_def d = good;
	d.substeps = 0;
	assert_int_not_equal(tb_world_set_def(w, &d), TB_OK);
	d.substeps = 65;
	assert_int_not_equal(tb_world_set_def(w, &d), TB_OK);
	d.substeps = -3;
	assert_int_not_equal(tb_world_set_def(w, &d), TB_OK);

	d = good;
	d.gravity = tb_v2(0.0f, NAN);
	assert_int_not_equal(tb_world_set_def(w, &d), TB_OK);
	d.gravity = tb_v2(INFINITY, 0.0f);
	assert_int_not_equal(tb_world_set_def(w, &d), TB_OK);

	d = good;
	d.contact_hertz = -1.0f;
	assert_int_not_equal(tb_world_set_def(w, &d), TB_OK);
	d = good;
	d.restitution_threshold = NAN;
	assert_int_not_equal(tb_world_set_def(w, &d), TB_OK);
	d = good;
	d.max_contact_push_speed = -2.0f;
	assert_int_not_equal(tb_world_set_def(w, &d), TB_OK);
	d = good;
	d.time_to_sleep = -1.0f;
	assert_int_not_equal(tb_world_set_def(w, &d), TB_OK);

	/* a rejected def changes nothing */
	tb_world_def now = tb_world_get_def(w);
	assert_int_equal(now.substeps, good.substeps);
	assert_near(now.gravity.y, good.gravity.y, 0.0f);
	assert_near(now.contact_hertz, good.contact_hertz, 0.0f);
	assert_near(now.max_contact_push_speed, good.max_contact_push_speed, 0.0f);

	/* an invalid def cannot make a world */
	d = good;
	d.substeps = 0;
	assert_null(tb_create_world(&d));
	d = good;
	d.gravity.x = NAN;
	assert_null(tb_create_world(&d));

	/* a good change is applied and reported back */
	d = good;
	d.substeps = 8;
	d.gravity = tb_v2(1.0f, -20.0f);
	d.enable_sleep = false;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	now = tb_world_get_def(w);
	assert_int_equal(now.substeps, 8);
	assert_near(now.gravity.x, 1.0f, 0.0f);
	assert_near(now.gravity.y, -20.0f, 0.0f);
	assert_false(now.enable_sleep);
	d.substeps = 64;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	d.substeps = 1;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	tb_destroy_world(w);
}

static void test_enable_motion_false_freezes(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(1.0f, 5.0f), 0.5f, 0.5f, 1.0f);
	tb_body_set_linear_velocity(w, b, tb_v2(3.0f, 1.0f));
	tb_body_set_angular_velocity(w, b, 2.0f);
	tb_world_def d = tb_world_get_def(w);
	d.enable_motion = false;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	tu_step(w, 60);
	tb_vec2 p = tb_body_get_position(w, b);
	assert_near(p.x, 1.0f, 0.0f);
	assert_near(p.y, 5.0f, 0.0f);
	assert_near(tb_body_get_angle(w, b), 0.0f, 0.0f);

	/* switching it back on lets the body move again */
	d.enable_motion = true;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	tu_step(w, 30);
	p = tb_body_get_position(w, b);
	assert_true(p.x > 1.5f);
	assert_true(fabsf(tb_body_get_angle(w, b)) > 0.5f);
	tb_destroy_world(w);
}

static void test_gravity_change_wakes_sleepers(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 50.0f);
	tb_body_id b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f), 0.5f, 0.5f, 1.0f);
	bool slept = false;
	for (int i = 0; i < 300 && !slept; ++i) {
		tb_world_step(w, DT);
		slept = !tb_body_is_awake(w, b);
	}
	assert_true(slept);
	float y0 = tb_body_get_position(w, b).y;

	tb_world_def d = tb_world_get_def(w);
	d.gravity = tb_v2(0.0f, 10.0f);
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	assert_true(tb_body_is_awake(w, b));
	tu_step(w, 60);
	/* one second of +10 m/s^2 from rest: about 5 m up */
	float y1 = tb_body_get_position(w, b).y;
	assert_true(y1 - y0 > 4.5f);
	assert_true(y1 - y0 < 5.5f);
	tb_destroy_world(w);
}

static void test_setting_toggles(void **state)
{
	(void)state;
	/* sleeping off: a resting box stays awake; on again: it sleeps */
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 50.0f);
	tb_world_def d = tb_world_get_def(w);
	d.enable_sleep = false;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	tb_body_id b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f), 0.5f, 0.5f, 1.0f);
	tu_step(w, 180);
	assert_true(tb_body_is_awake(w, b));
	d.enable_sleep = true;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	tu_step(w, 120);
	assert_false(tb_body_is_awake(w, b));
	tb_destroy_world(w);

	/* position correction off: an overlap is not pushed out (it only stops sinking) */
	w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 50.0f);
	d = tb_world_get_def(w);
	d.enable_position_correction = false;
	d.enable_sleep = false;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.4f), 0.5f, 0.5f, 1.0f);
	tu_step(w, 60);
	assert_near(tb_body_get_position(w, b).y, 0.4f, 0.01f);
	d.enable_position_correction = true;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	tu_step(w, 60);
	assert_near(tb_body_get_position(w, b).y, 0.5f, 0.01f);
	tb_destroy_world(w);

	/* the speed limit */
	w = tu_world(tb_v2(0.0f, 0.0f));
	b = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 0.25f, 1.0f);
	tb_body_set_linear_velocity(w, b, tb_v2(1000.0f, 0.0f));
	tb_world_step(w, DT);
	assert_true(tb_length(tb_body_get_linear_velocity(w, b)) <= 400.0f * 1.001f);
	assert_true(tb_body_get_position(w, b).x <= 400.0f * DT * 1.001f);
	d = tb_world_get_def(w);
	d.max_linear_speed = 50.0f;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	tb_world_step(w, DT);
	assert_true(tb_length(tb_body_get_linear_velocity(w, b)) <= 50.0f * 1.001f);
	tb_destroy_world(w);
}

/* ---------------- handles ---------------- */

static void test_body_generations(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_id a = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(1.0f, 2.0f), 0.5f, 1.0f);
	tb_shape_id sa = tu_first_shape(w, a);
	assert_true(tb_body_is_valid(w, a));
	assert_true(tb_shape_is_valid(w, sa));
	tb_body_set_linear_velocity(w, a, tb_v2(1.0f, 1.0f));

	tb_destroy_body(w, a);
	assert_false(tb_body_is_valid(w, a));
	assert_false(tb_shape_is_valid(w, sa));

	/* getters on a stale id give zero values */
	tb_vec2 p = tb_body_get_position(w, a);
	assert_near(p.x, 0.0f, 0.0f);
	assert_near(p.y, 0.0f, 0.0f);
	tb_vec2 v = tb_body_get_linear_velocity(w, a);
	assert_near(v.x, 0.0f, 0.0f);
	assert_near(v.y, 0.0f, 0.0f);
	assert_near(tb_body_get_mass(w, a), 0.0f, 0.0f);
	assert_near(tb_body_get_inertia(w, a), 0.0f, 0.0f);
	assert_near(tb_body_get_angle(w, a), 0.0f, 0.0f);
	assert_false(tb_body_is_awake(w, a));
	assert_int_equal(tb_body_get_shape_count(w, a), 0);
	assert_null(tb_body_get_user_data(w, a));
	assert_near(tb_shape_get_density(w, sa), 0.0f, 0.0f);
	assert_true(TB_IS_NULL(tb_shape_get_body(w, sa)));
	assert_int_equal(tb_shape_set_density(w, sa, 2.0f, true), TB_ERR_STALE_HANDLE);
	assert_int_equal(tb_shape_set_friction(w, sa, 0.1f), TB_ERR_STALE_HANDLE);

	/* a new body lands in the freed slot with a new generation */
	tb_body_id b = tb_null_body_id;
	bool reused = false;
	for (int tries = 0; tries < 4 && !reused; ++tries) {
		b = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(5.0f, 6.0f), 0.5f, 1.0f);
		reused = b.index1 == a.index1;
		if (!reused) tb_destroy_body(w, b);
	}
	assert_true(reused);
	assert_false(TB_ID_EQUALS(a, b));
	assert_true(a.generation != b.generation);
	assert_true(tb_body_is_valid(w, b));
	assert_false(tb_body_is_valid(w, a));
	assert_false(tb_shape_is_valid(w, sa));

	/* the stale id must not reach the new occupant */
	tb_body_set_transform(w, a, tb_v2(100.0f, 100.0f), 1.0f);
	tb_body_set_linear_velocity(w, a, tb_v2(7.0f, 7.0f));
	tb_body_apply_linear_impulse_to_center(w, a, tb_v2(50.0f, 0.0f), true);
	tb_body_set_type(w, a, TB_STATIC_BODY);
	tb_destroy_body(w, a);
	tb_destroy_shape(w, sa, true);
	assert_true(tb_body_is_valid(w, b));
	p = tb_body_get_position(w, b);
	assert_near(p.x, 5.0f, 0.0f);
	assert_near(p.y, 6.0f, 0.0f);
	v = tb_body_get_linear_velocity(w, b);
	assert_near(v.x, 0.0f, 0.0f);
	assert_near(v.y, 0.0f, 0.0f);
	assert_int_equal(tb_body_get_type(w, b), TB_DYNAMIC_BODY);
	assert_int_equal(tb_body_get_shape_count(w, b), 1);
	assert_near(tb_body_get_mass(w, b), TB_PI * 0.25f, 1e-5f);

	/* null ids are never valid */
	assert_false(tb_body_is_valid(w, tb_null_body_id));
	assert_false(tb_shape_is_valid(w, tb_null_shape_id));
	tb_destroy_world(w);
}

static void test_create_rejects_bad_defs(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	/* each refusal says why, as tb_create_joint does */
	tb_status why = TB_OK;
	bd.position = tb_v2(NAN, 0.0f);
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, &why)));
	assert_int_equal(why, TB_ERR_INVALID_NUMBER);
	bd.position = tb_v2(0.0f, INFINITY);
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, NULL)));
	bd.position = tb_v2(0.0f, 2e6f);
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, &why)));
	assert_int_equal(why, TB_ERR_INVALID_NUMBER);
	bd.position = tb_v2(0.0f, 0.0f);
	bd.angle = NAN;
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, NULL)));
	bd.angle = 0.0f;
	bd.linear_velocity = tb_v2(0.0f, -INFINITY);
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, NULL)));
	bd.linear_velocity = tb_v2(0.0f, 0.0f);
	bd.linear_damping = -1.0f;
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, &why)));
	assert_int_equal(why, TB_ERR_NEGATIVE);
	bd.linear_damping = 0.0f;
	bd.sleep_threshold = -0.1f;
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, &why)));
	assert_int_equal(why, TB_ERR_NEGATIVE);
	bd.sleep_threshold = NAN;
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, &why)));
	assert_int_equal(why, TB_ERR_INVALID_NUMBER);
	bd.sleep_threshold = 0.05f;
	bd.type = (tb_body_type)7;
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, &why)));
	assert_int_equal(why, TB_ERR_INVALID_ARGUMENT);
	assert_int_equal(tb_world_get_counters(w).body_count, 0);
	assert_true(TB_IS_NULL(tb_create_body(w, NULL, &why)));
	assert_int_equal(why, TB_ERR_INVALID_ARGUMENT);

	bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	tb_body_id b = tb_create_body(w, &bd, &why);
	assert_false(TB_IS_NULL(b));
	assert_int_equal(why, TB_OK);

	/* setters refuse bad input with a status and change nothing */
	assert_int_equal(tb_body_set_linear_damping(w, b, -1.0f), TB_ERR_NEGATIVE);
	assert_int_equal(tb_body_set_linear_damping(w, b, NAN), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_body_set_angular_damping(w, b, -INFINITY), TB_ERR_INVALID_NUMBER);
	assert_near(tb_body_get_linear_damping(w, b), 0.0f, 0.0f);
	assert_int_equal(tb_body_set_linear_damping(w, b, 0.5f), TB_OK);
	assert_near(tb_body_get_linear_damping(w, b), 0.5f, 0.0f);
	assert_int_equal(tb_body_set_gravity_scale(w, b, NAN), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_body_set_transform(w, b, tb_v2(NAN, 0.0f), 0.0f), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_body_set_linear_velocity(w, b, tb_v2(0.0f, INFINITY)), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_body_set_type(w, b, (tb_body_type)9), TB_ERR_INVALID_ARGUMENT);
	assert_int_equal(tb_body_apply_force_to_center(w, b, tb_v2(NAN, 0.0f), true), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_body_apply_force_to_center(w, b, tb_v2(1.0f, 0.0f), true), TB_OK);
	assert_int_equal(tb_body_get_type(w, b), TB_DYNAMIC_BODY);
	tb_body_id stale = b;
	stale.generation += 1;
	assert_int_equal(tb_body_set_linear_damping(w, stale, 1.0f), TB_ERR_STALE_HANDLE);
	assert_int_equal(tb_body_set_enabled(w, stale, false), TB_ERR_STALE_HANDLE);
	tb_shape_def sd = tb_default_shape_def();
	tb_status st = TB_OK;
	tb_circle c = {{0.0f, 0.0f}, -1.0f};
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)));
	assert_int_not_equal(st, TB_OK);
	c.radius = 0.0f;
	st = TB_OK;
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)));
	assert_int_not_equal(st, TB_OK);
	c.radius = NAN;
	st = TB_OK;
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)));
	assert_int_equal(st, TB_ERR_INVALID_NUMBER);
	c.radius = 0.5f;
	sd.density = -1.0f;
	st = TB_OK;
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)));
	assert_int_not_equal(st, TB_OK);
	sd = tb_default_shape_def();
	sd.friction = NAN;
	st = TB_OK;
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)));
	assert_int_not_equal(st, TB_OK);
	/* nothing was attached by the failures */
	assert_int_equal(tb_body_get_shape_count(w, b), 0);
	assert_near(tb_body_get_mass(w, b), 0.0f, 0.0f);
	/* and a valid one still works */
	sd = tb_default_shape_def();
	st = TB_ERR_INVALID_ARGUMENT;
	assert_false(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)));
	assert_int_equal(st, TB_OK);
	tb_destroy_world(w);
}

/* ---------------- body types ---------------- */

static void test_static_body_stays(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id s = tu_box_body(w, TB_STATIC_BODY, tb_v2(2.0f, 1.0f), 2.0f, 0.25f, 1.0f);
	assert_near(tb_body_get_mass(w, s), 0.0f, 0.0f);
	tb_body_id d = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(2.0f, 4.0f), 0.5f, 0.5f, 5.0f);
	tb_body_apply_linear_impulse_to_center(w, s, tb_v2(100.0f, 100.0f), true);
	tu_step(w, 120);
	tb_vec2 p = tb_body_get_position(w, s);
	assert_near(p.x, 2.0f, 0.0f);
	assert_near(p.y, 1.0f, 0.0f);
	assert_near(tb_body_get_angle(w, s), 0.0f, 0.0f);
	/* the dynamic box landed on it: top at 1.25, box centre at 1.75 */
	assert_near(tb_body_get_position(w, d).y, 1.75f, 0.02f);
	tb_destroy_world(w);
}

static void test_dynamic_falls(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id d = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 100.0f), 0.5f, 0.5f, 1.0f);
	assert_int_equal(tb_body_get_type(w, d), TB_DYNAMIC_BODY);
	tu_step(w, 60);
	assert_near(tb_body_get_linear_velocity(w, d).y, -10.0f, 1e-3f);
	assert_true(tb_body_get_position(w, d).y < 95.1f);
	tb_destroy_world(w);
}

static void test_kinematic_body(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_KINEMATIC_BODY;
	bd.position = tb_v2(0.0f, 3.0f);
	bd.linear_velocity = tb_v2(1.0f, 0.5f);
	bd.angular_velocity = 0.5f;
	tb_body_id k = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon box = tb_make_box(1.0f, 0.25f);
	assert_false(TB_IS_NULL(tb_create_polygon_shape(w, k, &sd, &box, NULL)));
	/* kinematic bodies have no mass */
	assert_near(tb_body_get_mass(w, k), 0.0f, 0.0f);

	/* a dynamic box falls onto it and is pushed around; the kinematic body is not */
	tb_body_id d = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 4.0f), 0.3f, 0.3f, 20.0f);
	tu_step(w, 60);
	tb_vec2 p = tb_body_get_position(w, k);
	assert_near(p.x, 1.0f, 1e-3f);
	assert_near(p.y, 3.5f, 1e-3f);
	assert_near(tb_body_get_angle(w, k), 0.5f, 1e-3f);
	tb_vec2 v = tb_body_get_linear_velocity(w, k);
	assert_near(v.x, 1.0f, 0.0f);
	assert_near(v.y, 0.5f, 0.0f);
	assert_near(tb_body_get_angular_velocity(w, k), 0.5f, 0.0f);
	assert_true(tb_body_is_valid(w, d));
	tb_destroy_world(w);
}

static void test_kinematic_carries_box(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_KINEMATIC_BODY;
	bd.position = tb_v2(0.0f, 0.0f);
	bd.linear_velocity = tb_v2(2.0f, 0.0f);
	tb_body_id k = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon plat = tb_make_box(10.0f, 0.25f);
	assert_false(TB_IS_NULL(tb_create_polygon_shape(w, k, &sd, &plat, NULL)));
	tb_body_id d = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.75f), 0.5f, 0.5f, 1.0f);
	tu_step(w, 120);
	/* friction (mu = 0.6) brings the box to the platform speed in 1/3 s, slipping 1/3 m */
	tb_vec2 v = tb_body_get_linear_velocity(w, d);
	assert_near(v.x, 2.0f, 0.05f);
	assert_near(v.y, 0.0f, 0.05f);
	tb_vec2 p = tb_body_get_position(w, d);
	assert_near(p.x, 4.0f - 1.0f / 3.0f, 0.1f);
	assert_near(p.y, 0.75f, 0.02f);

	/* a platform moving up lifts it */
	tb_body_set_linear_velocity(w, k, tb_v2(0.0f, 1.0f));
	tu_step(w, 60);
	p = tb_body_get_position(w, d);
	assert_near(p.y, 1.75f, 0.03f);
	assert_near(tb_body_get_linear_velocity(w, d).y, 1.0f, 0.05f);
	tb_destroy_world(w);
}

/* A body drifting at 7 cm/s sleeps after time_to_sleep when its threshold is
 * 10 cm/s (as v3's ragdolls have), and never with the default 5 cm/s. */
static void test_sleep_threshold(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_def bd = tb_default_body_def();
	assert_near(bd.sleep_threshold, 0.05f, 0.0f);
	bd.type = TB_DYNAMIC_BODY;
	bd.linear_velocity = tb_v2(0.07f, 0.0f);
	tb_body_id slow = tb_create_body(w, &bd, NULL);
	tu_box(w, slow, 0.5f, 0.5f, 1.0f);
	bd.position = tb_v2(0.0f, 5.0f);
	bd.sleep_threshold = 0.1f;
	tb_body_id lazy = tb_create_body(w, &bd, NULL);
	tu_box(w, lazy, 0.5f, 0.5f, 1.0f);
	tu_step(w, 25);
	assert_true(tb_body_is_awake(w, slow));
	assert_true(tb_body_is_awake(w, lazy));
	tu_step(w, 10);
	assert_true(tb_body_is_awake(w, slow));
	assert_false(tb_body_is_awake(w, lazy));
	tu_step(w, 120);
	assert_true(tb_body_is_awake(w, slow));
	tb_destroy_world(w);
}

static void test_fixed_rotation(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 50.0f);
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.position = tb_v2(0.0f, 2.0f);
	bd.angle = 0.3f;
	bd.fixed_rotation = true;
	tb_body_id b = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon box = tb_make_box(0.5f, 0.5f);
	assert_false(TB_IS_NULL(tb_create_polygon_shape(w, b, &sd, &box, NULL)));
	assert_true(tb_body_is_fixed_rotation(w, b));
	tb_body_apply_torque(w, b, 100.0f, true);
	tb_body_apply_angular_impulse(w, b, 10.0f, true);
	/* it lands on a corner: a free box would topple, this one keeps its angle */
	tu_step(w, 120);
	assert_near(tb_body_get_angular_velocity(w, b), 0.0f, 0.0f);
	assert_near(tb_body_get_angle(w, b), 0.3f, 1e-5f);
	/* lowest corner of a unit box at 0.3 rad is 0.5 (cos + sin) below the centre */
	assert_near(tb_body_get_position(w, b).y, 0.5f * (cosf(0.3f) + sinf(0.3f)), 0.02f);

	tb_body_set_fixed_rotation(w, b, false);
	assert_false(tb_body_is_fixed_rotation(w, b));
	tb_body_apply_angular_impulse(w, b, 1.0f, true);
	assert_true(fabsf(tb_body_get_angular_velocity(w, b)) > 0.1f);
	tb_destroy_world(w);
}

static void test_damping(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.linear_velocity = tb_v2(10.0f, 0.0f);
	bd.angular_velocity = 4.0f;
	bd.linear_damping = 0.5f;
	bd.angular_damping = 0.25f;
	tb_body_id b = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_circle c = {{0.0f, 0.0f}, 0.5f};
	assert_false(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, NULL)));
	assert_near(tb_body_get_linear_damping(w, b), 0.5f, 0.0f);
	assert_near(tb_body_get_angular_damping(w, b), 0.25f, 0.0f);
	tu_step(w, 120);
	/* v = v0 exp(-c t) at t = 2 s */
	float ev = 10.0f * expf(-1.0f), ew = 4.0f * expf(-0.5f);
	assert_near(tb_body_get_linear_velocity(w, b).x, ev, 0.02f * ev);
	assert_near(tb_body_get_linear_velocity(w, b).y, 0.0f, 1e-6f);
	assert_near(tb_body_get_angular_velocity(w, b), ew, 0.02f * ew);

	/* the setters take effect */
	tb_body_set_linear_damping(w, b, 0.0f);
	tb_body_set_angular_damping(w, b, 1.0f);
	assert_near(tb_body_get_angular_damping(w, b), 1.0f, 0.0f);
	float v0 = tb_body_get_linear_velocity(w, b).x, w0 = tb_body_get_angular_velocity(w, b);
	tu_step(w, 60);
	assert_near(tb_body_get_linear_velocity(w, b).x, v0, 1e-6f);
	assert_near(tb_body_get_angular_velocity(w, b), w0 * expf(-1.0f), 0.02f * w0 * expf(-1.0f));
	tb_destroy_world(w);
}

static void test_gravity_scale(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id a = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 100.0f), 0.5f, 1.0f);
	tb_body_id b = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(5.0f, 100.0f), 0.5f, 1.0f);
	tb_body_id c = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(10.0f, 100.0f), 0.5f, 1.0f);
	tb_body_set_gravity_scale(w, a, 0.0f);
	tb_body_set_gravity_scale(w, b, 2.0f);
	assert_near(tb_body_get_gravity_scale(w, b), 2.0f, 0.0f);
	tu_step(w, 60);
	assert_near(tb_body_get_position(w, a).y, 100.0f, 0.0f);
	assert_near(tb_body_get_linear_velocity(w, a).y, 0.0f, 0.0f);
	assert_near(tb_body_get_linear_velocity(w, b).y, -20.0f, 2e-3f);
	assert_near(tb_body_get_linear_velocity(w, c).y, -10.0f, 1e-3f);
	float db = 100.0f - tb_body_get_position(w, b).y, dc = 100.0f - tb_body_get_position(w, c).y;
	assert_near(db, 2.0f * dc, 1e-3f * db);
	tb_destroy_world(w);
}

static void test_disabled_body(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.position = tb_v2(-5.0f, 5.0f);
	bd.is_enabled = false;
	tb_body_id off = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon box = tb_make_box(0.5f, 0.5f);
	assert_false(TB_IS_NULL(tb_create_polygon_shape(w, off, &sd, &box, NULL)));
	assert_false(tb_body_is_enabled(w, off));

	tb_body_id ground = tu_ground(w, 0.0f, 50.0f);
	tb_body_id d = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f), 0.5f, 0.5f, 1.0f);
	tu_step(w, 60);
	assert_near(tb_body_get_position(w, off).y, 5.0f, 0.0f);
	assert_near(tb_body_get_position(w, d).y, 0.5f, 0.02f);
	tb_contact_data cd[8];
	assert_true(tb_body_get_contacts(w, d, cd, 8) >= 1);

	/* disabling the ground removes its contacts: the box falls through */
	tb_body_set_enabled(w, ground, false);
	assert_false(tb_body_is_enabled(w, ground));
	tb_body_set_awake(w, d, true);
	tu_step(w, 60);
	assert_true(tb_body_get_position(w, d).y < -3.0f);
	assert_int_equal(tb_body_get_contacts(w, d, cd, 8), 0);
	assert_int_equal(tb_body_get_contacts(w, ground, cd, 8), 0);
	assert_int_equal(tb_world_get_counters(w).touching_contact_count, 0);

	/* enabled again it falls like any body */
	tb_body_set_enabled(w, off, true);
	tu_step(w, 60);
	assert_true(tb_body_get_position(w, off).y < 0.5f);
	tb_destroy_world(w);
}

/* Changing a body's type re-creates its shapes' broad-phase proxies: a
 * disabled shape must stay out (it once came back and caught a falling ball). */
static void test_set_type_keeps_disabled_shape_out(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 50.0f);
	tb_body_id platform = tu_box_body(w, TB_STATIC_BODY, tb_v2(0.0f, 5.0f), 2.0f, 0.2f, 1.0f);
	tb_shape_id deck = tu_first_shape(w, platform);
	assert_int_equal(tb_shape_set_enabled(w, deck, false), TB_OK);
	tb_body_id ball = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 7.0f), 0.25f, 1.0f);
	assert_int_equal(tb_body_set_type(w, platform, TB_KINEMATIC_BODY), TB_OK);
	assert_false(tb_shape_is_enabled(w, deck));
	assert_true(tb_world_validate(w));
	tu_step(w, 120);
	/* through the disabled deck, onto the ground */
	assert_near(tb_body_get_position(w, ball).y, 0.25f, 0.02f);
	tb_contact_data cd[4];
	assert_int_equal(tb_body_get_contacts(w, platform, cd, 4), 0);
	assert_int_equal(tb_body_set_type(w, platform, TB_STATIC_BODY), TB_OK);
	assert_true(tb_world_validate(w));
	tb_destroy_world(w);
}

/* ---------------- forces and impulses ---------------- */

static void test_forces_and_impulses(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	/* 2 x 1 box, density 1: m = 2, I = m (w^2 + h^2) / 12 = 10/12 */
	tb_body_id b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 1.0f, 0.5f, 1.0f);
	float m = 2.0f, I = 10.0f / 12.0f;
	assert_near(tb_body_get_mass(w, b), m, 1e-5f);
	assert_near(tb_body_get_inertia(w, b), I, 1e-5f);

	tb_body_apply_force_to_center(w, b, tb_v2(4.0f, -2.0f), true);
	tb_world_step(w, DT);
	tb_vec2 v = tb_body_get_linear_velocity(w, b);
	assert_near(v.x, 4.0f / m * DT, 1e-6f);
	assert_near(v.y, -2.0f / m * DT, 1e-6f);
	assert_near(tb_body_get_angular_velocity(w, b), 0.0f, 1e-7f);
	/* forces last one step */
	tb_world_step(w, DT);
	v = tb_body_get_linear_velocity(w, b);
	assert_near(v.x, 4.0f / m * DT, 1e-6f);

	/* force at a point: torque r x F about the centre */
	tb_body_set_transform(w, b, tb_v2(0.0f, 0.0f), 0.0f);
	tb_body_set_linear_velocity(w, b, tb_vec2_zero);
	tb_body_set_angular_velocity(w, b, 0.0f);
	tb_body_apply_force(w, b, tb_v2(0.0f, 6.0f), tb_v2(1.0f, 0.0f), true);
	tb_world_step(w, DT);
	v = tb_body_get_linear_velocity(w, b);
	assert_near(v.x, 0.0f, 1e-6f);
	assert_near(v.y, 3.0f * DT, 1e-6f);
	assert_near(tb_body_get_angular_velocity(w, b), 6.0f / I * DT, 1e-5f);

	tb_body_set_linear_velocity(w, b, tb_vec2_zero);
	tb_body_set_angular_velocity(w, b, 0.0f);
	tb_body_apply_torque(w, b, 5.0f, true);
	tb_world_step(w, DT);
	assert_near(tb_body_get_angular_velocity(w, b), 5.0f / I * DT, 1e-5f);

	/* impulses act at once */
	tb_body_set_angular_velocity(w, b, 0.0f);
	tb_body_apply_linear_impulse_to_center(w, b, tb_v2(2.0f, 4.0f), true);
	v = tb_body_get_linear_velocity(w, b);
	assert_near(v.x, 1.0f, 1e-6f);
	assert_near(v.y, 2.0f, 1e-6f);
	tb_body_set_linear_velocity(w, b, tb_vec2_zero);
	tb_vec2 c = tb_body_get_world_center(w, b);
	tb_body_apply_linear_impulse(w, b, tb_v2(2.0f, 0.0f), tb_add(c, tb_v2(0.0f, 1.0f)), true);
	v = tb_body_get_linear_velocity(w, b);
	assert_near(v.x, 1.0f, 1e-6f);
	assert_near(v.y, 0.0f, 1e-6f);
	/* r = (0, 1), J = (2, 0): r x J = -2 */
	assert_near(tb_body_get_angular_velocity(w, b), -2.0f / I, 1e-5f);
	tb_body_set_angular_velocity(w, b, 0.0f);
	tb_body_apply_angular_impulse(w, b, 1.5f, true);
	assert_near(tb_body_get_angular_velocity(w, b), 1.5f / I, 1e-5f);

	/* impulses wake a sleeping body when asked */
	tb_body_set_linear_velocity(w, b, tb_vec2_zero);
	tb_body_set_angular_velocity(w, b, 0.0f);
	tb_body_set_awake(w, b, false);
	assert_false(tb_body_is_awake(w, b));
	tb_body_apply_linear_impulse_to_center(w, b, tb_v2(2.0f, 0.0f), true);
	assert_true(tb_body_is_awake(w, b));
	tb_world_step(w, DT);
	assert_near(tb_body_get_linear_velocity(w, b).x, 1.0f, 1e-6f);
	tb_destroy_world(w);
}

static void test_set_transform_teleports(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_id b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 0.5f, 0.5f, 1.0f);
	tb_body_set_linear_velocity(w, b, tb_v2(3.0f, 0.0f));
	tb_body_set_transform(w, b, tb_v2(50.0f, 7.0f), 1.0f);
	tb_vec2 p = tb_body_get_position(w, b);
	assert_near(p.x, 50.0f, 0.0f);
	assert_near(p.y, 7.0f, 0.0f);
	assert_near(tb_body_get_angle(w, b), 1.0f, 1e-6f);
	tb_rot q = tb_body_get_rotation(w, b);
	assert_near(q.c, cosf(1.0f), 1e-6f);
	assert_near(q.s, sinf(1.0f), 1e-6f);
	tb_vec2 c = tb_body_get_world_center(w, b);
	assert_near(c.x, 50.0f, 1e-5f);
	assert_near(c.y, 7.0f, 1e-5f);
	/* the broad phase knows the new place before any step */
	tb_aabb box = tb_shape_get_aabb(w, tu_first_shape(w, b));
	assert_true(box.lower.x > 49.0f && box.upper.x < 51.0f);
	assert_near(tb_body_get_linear_velocity(w, b).x, 3.0f, 0.0f);
	tb_world_step(w, DT);
	assert_near(tb_body_get_position(w, b).x, 50.0f + 3.0f * DT, 1e-4f);
	tb_destroy_world(w);
}

/* ---------------- mass ---------------- */

static void test_compound_mass(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.position = tb_v2(3.0f, 4.0f);
	bd.angle = 0.5f;
	tb_body_id b = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	/* A: 2 x 1 at (-1, 0), density 1: m = 2, Ic = 2 * 5 / 12 */
	tb_polygon pa = tb_make_offset_box(1.0f, 0.5f, tb_v2(-1.0f, 0.0f), tb_rot_identity);
	assert_false(TB_IS_NULL(tb_create_polygon_shape(w, b, &sd, &pa, NULL)));
	/* B: 1 x 1 at (2, 1), density 3: m = 3, Ic = 3 * 2 / 12 */
	sd.density = 3.0f;
	tb_polygon pb = tb_make_offset_box(0.5f, 0.5f, tb_v2(2.0f, 1.0f), tb_rot_identity);
	assert_false(TB_IS_NULL(tb_create_polygon_shape(w, b, &sd, &pb, NULL)));

	/* centre (0.8, 0.6); parallel axis: 10/12 + 2 * 3.6 + 0.5 + 3 * 1.6 */
	assert_near(tb_body_get_mass(w, b), 5.0f, 1e-5f);
	tb_vec2 lc = tb_body_get_local_center(w, b);
	assert_near(lc.x, 0.8f, 1e-5f);
	assert_near(lc.y, 0.6f, 1e-5f);
	float I = 10.0f / 12.0f + 7.2f + 0.5f + 4.8f;
	assert_near(tb_body_get_inertia(w, b), I, 1e-4f * I);
	tb_mass_data md = tb_body_get_mass_data(w, b);
	assert_near(md.mass, 5.0f, 1e-5f);
	assert_near(md.rotational_inertia, I, 1e-4f * I);
	tb_vec2 wc = tb_body_get_world_center(w, b);
	tb_vec2 ex = tb_add(tb_v2(3.0f, 4.0f), tb_rotate(tb_make_rot(0.5f), tb_v2(0.8f, 0.6f)));
	assert_near(wc.x, ex.x, 1e-5f);
	assert_near(wc.y, ex.y, 1e-5f);

	/* spinning in free space, the centre of mass stays put */
	tb_body_set_angular_velocity(w, b, 3.0f);
	tu_step(w, 30);
	wc = tb_body_get_world_center(w, b);
	assert_near(wc.x, ex.x, 1e-4f);
	assert_near(wc.y, ex.y, 1e-4f);

	/* destroying B with update_mass leaves A alone */
	tb_shape_id ids[2];
	assert_int_equal(tb_body_get_shapes(w, b, ids, 2), 2);
	tb_destroy_shape(w, ids[1], true);
	assert_near(tb_body_get_mass(w, b), 2.0f, 1e-5f);
	lc = tb_body_get_local_center(w, b);
	assert_near(lc.x, -1.0f, 1e-5f);
	assert_near(lc.y, 0.0f, 1e-5f);
	assert_near(tb_body_get_inertia(w, b), 10.0f / 12.0f, 1e-5f);
	tb_destroy_world(w);
}

static void test_geometry_and_density_update_mass(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id b = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 0.5f, 1.0f);
	tb_shape_id s = tu_first_shape(w, b);
	assert_near(tb_body_get_mass(w, b), TB_PI * 0.25f, 1e-5f);
	assert_near(tb_body_get_inertia(w, b), 0.5f * TB_PI * 0.25f * 0.25f, 1e-6f);

	tb_geometry g = tb_shape_get_geometry(w, s);
	assert_int_equal(g.type, TB_SHAPE_CIRCLE);
	assert_near(g.circle.radius, 0.5f, 0.0f);
	g.circle.radius = 1.0f;
	assert_int_equal(tb_shape_set_geometry(w, s, &g), TB_OK);
	assert_near(tb_body_get_mass(w, b), TB_PI, 1e-5f);
	assert_near(tb_body_get_inertia(w, b), 0.5f * TB_PI, 1e-5f);

	/* another kind: a 1 x 2 box */
	tb_geometry gb;
	memset(&gb, 0, sizeof gb);
	gb.type = TB_SHAPE_POLYGON;
	gb.polygon = tb_make_box(0.5f, 1.0f);
	assert_int_equal(tb_shape_set_geometry(w, s, &gb), TB_OK);
	assert_int_equal(tb_shape_get_type(w, s), TB_SHAPE_POLYGON);
	assert_near(tb_body_get_mass(w, b), 2.0f, 1e-5f);
	assert_near(tb_body_get_inertia(w, b), 2.0f * 5.0f / 12.0f, 1e-5f);

	/* bad geometry is refused and nothing changes */
	g.circle.radius = -1.0f;
	assert_int_not_equal(tb_shape_set_geometry(w, s, &g), TB_OK);
	g.circle.radius = NAN;
	assert_int_not_equal(tb_shape_set_geometry(w, s, &g), TB_OK);
	assert_near(tb_body_get_mass(w, b), 2.0f, 1e-5f);
	assert_int_equal(tb_shape_get_type(w, s), TB_SHAPE_POLYGON);

	/* density */
	assert_int_equal(tb_shape_set_density(w, s, 3.0f, true), TB_OK);
	assert_near(tb_shape_get_density(w, s), 3.0f, 0.0f);
	assert_near(tb_body_get_mass(w, b), 6.0f, 1e-5f);
	assert_near(tb_body_get_inertia(w, b), 6.0f * 5.0f / 12.0f, 1e-4f);
	assert_int_not_equal(tb_shape_set_density(w, s, -1.0f, true), TB_OK);
	assert_int_not_equal(tb_shape_set_density(w, s, NAN, true), TB_OK);
	assert_near(tb_body_get_mass(w, b), 6.0f, 1e-5f);
	/* without update_mass the change waits for apply_mass_from_shapes */
	assert_int_equal(tb_shape_set_density(w, s, 1.0f, false), TB_OK);
	assert_near(tb_body_get_mass(w, b), 6.0f, 1e-5f);
	tb_body_apply_mass_from_shapes(w, b);
	assert_near(tb_body_get_mass(w, b), 2.0f, 1e-5f);

	/* the new mass is what the dynamics uses: an impulse of 4 gives 2 m/s */
	tb_body_set_gravity_scale(w, b, 0.0f);
	tb_body_apply_linear_impulse_to_center(w, b, tb_v2(4.0f, 0.0f), true);
	assert_near(tb_body_get_linear_velocity(w, b).x, 2.0f, 1e-5f);

	/* friction and restitution setters validate too */
	assert_int_equal(tb_shape_set_friction(w, s, 0.3f), TB_OK);
	assert_near(tb_shape_get_friction(w, s), 0.3f, 0.0f);
	assert_int_not_equal(tb_shape_set_friction(w, s, -0.3f), TB_OK);
	assert_int_equal(tb_shape_set_restitution(w, s, 0.5f), TB_OK);
	assert_near(tb_shape_get_restitution(w, s), 0.5f, 0.0f);
	assert_int_not_equal(tb_shape_set_restitution(w, s, INFINITY), TB_OK);
	assert_near(tb_shape_get_restitution(w, s), 0.5f, 0.0f);
	tb_destroy_world(w);
}

/* Every derived quantity of a body is finite: mass, inertia, both centres
 * and the velocity of a point. */
static void assert_body_finite(tb_world *w, tb_body_id b)
{
	assert_true(isfinite(tb_body_get_mass(w, b)) && tb_body_get_mass(w, b) >= 0.0f);
	assert_true(isfinite(tb_body_get_inertia(w, b)) && tb_body_get_inertia(w, b) >= 0.0f);
	tb_vec2 lc = tb_body_get_local_center(w, b), wc = tb_body_get_world_center(w, b);
	assert_true(isfinite(lc.x) && isfinite(lc.y) && isfinite(wc.x) && isfinite(wc.y));
	tb_vec2 v = tb_body_get_world_point_velocity(w, b, tb_v2(1.0f, 1.0f));
	assert_true(isfinite(v.x) && isfinite(v.y));
}

/* A shape whose mass, inertia or centre would not be a finite, normal float is
 * refused, for every kind with an area, at creation and on a change of
 * geometry or density: a denormal mass has an infinite inverse, and inertia,
 * centres and point velocities came back NaN. */
static void test_mass_out_of_range_refused(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_geometry kinds[4];
	memset(kinds, 0, sizeof kinds);
	kinds[0].type = TB_SHAPE_CIRCLE;
	kinds[0].circle.radius = 0.5f;
	kinds[1].type = TB_SHAPE_CAPSULE;
	kinds[1].capsule.center1 = tb_v2(-0.5f, 0.0f);
	kinds[1].capsule.center2 = tb_v2(0.5f, 0.0f);
	kinds[1].capsule.radius = 0.25f;
	kinds[2].type = TB_SHAPE_POLYGON;
	kinds[2].polygon = tb_make_box(0.5f, 0.5f);
	kinds[3].type = TB_SHAPE_POLYGON;
	kinds[3].polygon = tb_make_rounded_box(0.5f, 0.25f, 0.1f);
	/* 1e-38 times these areas (0.7 to 1) is below the smallest normal float */
	const float bad_densities[] = {1e-40f, 1e-38f, 1e-44f};
	for (int k = 0; k < 4; ++k) {
		tb_body_id b = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(3.0f * (float)k, 0.0f), 0.5f, 1.0f);
		float mass = tb_body_get_mass(w, b);
		tb_shape_def sd = tb_default_shape_def();
		for (size_t d = 0; d < sizeof bad_densities / sizeof bad_densities[0]; ++d) {
			sd.density = bad_densities[d];
			tb_status st = TB_OK;
			assert_true(TB_IS_NULL(tb_create_shape(w, b, &sd, &kinds[k], &st)));
			assert_int_equal(st, TB_ERR_MASS_RANGE);
		}
		/* a good one, then changes to it that would break it */
		sd.density = 1.0f;
		tb_shape_id s = tb_create_shape(w, b, &sd, &kinds[k], NULL);
		assert_false(TB_IS_NULL(s));
		float mass2 = tb_body_get_mass(w, b);
		assert_true(mass2 > mass);
		for (size_t d = 0; d < sizeof bad_densities / sizeof bad_densities[0]; ++d) {
			assert_int_equal(tb_shape_set_density(w, s, bad_densities[d], true), TB_ERR_MASS_RANGE);
			assert_near(tb_shape_get_density(w, s), 1.0f, 0.0f);
		}
		assert_near(tb_body_get_mass(w, b), mass2, 0.0f);
		assert_body_finite(w, b);
	}

	/* sizes: a circle of radius 1e-20 has a denormal area */
	tb_body_id b = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 5.0f), 0.5f, 1.0f);
	tb_shape_def sd = tb_default_shape_def();
	tb_circle tiny = {{0.0f, 0.0f}, 1e-20f};
	tb_status st = TB_OK;
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &tiny, &st)));
	assert_int_equal(st, TB_ERR_MASS_RANGE);
	tb_geometry g = tb_shape_get_geometry(w, tu_first_shape(w, b));
	g.circle.radius = 1e-20f;
	assert_int_equal(tb_shape_set_geometry(w, tu_first_shape(w, b), &g), TB_ERR_MASS_RANGE);
	tb_capsule thin = {{-1e-19f, 0.0f}, {1e-19f, 0.0f}, 1e-20f};
	assert_true(TB_IS_NULL(tb_create_capsule_shape(w, b, &sd, &thin, &st)));
	assert_true(st != TB_OK);
	/* massless (density 0) shapes of any size are fine: they add no mass */
	sd.density = 0.0f;
	assert_false(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &tiny, &st)));
	assert_near(tb_body_get_mass(w, b), TB_PI * 0.25f, 1e-6f);
	assert_body_finite(w, b);

	/* too heavy: a 10 m box at 1e38 kg/m^2 has an infinite mass */
	sd.density = 1e38f;
	tb_polygon big = tb_make_box(5.0f, 5.0f);
	assert_true(TB_IS_NULL(tb_create_polygon_shape(w, b, &sd, &big, &st)));
	assert_int_equal(st, TB_ERR_MASS_RANGE);
	sd.density = FLT_MAX;
	tb_circle unit = {{0.0f, 0.0f}, 1.0f};
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &unit, &st)));
	assert_int_equal(st, TB_ERR_MASS_RANGE);

	/* the body's total: each of two shapes is fine, together they overflow */
	tb_body_id heavy = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 10.0f), 0.5f, 0.5f, 3e38f);
	sd.density = 3e38f;
	tb_polygon box = tb_make_offset_box(0.5f, 0.5f, tb_v2(1.0f, 0.0f), tb_rot_identity);
	assert_true(TB_IS_NULL(tb_create_polygon_shape(w, heavy, &sd, &box, &st)));
	assert_int_equal(st, TB_ERR_MASS_RANGE);
	assert_body_finite(w, heavy);
	for (int i = 0; i < 30; ++i) tb_world_step(w, 1.0f / 60.0f);
	assert_body_finite(w, b);
	assert_body_finite(w, heavy);
	assert_true(tb_world_validate(w));
	tb_destroy_world(w);
}

/* What cancellation can still leave in a legal body (a small shape far from
 * the origin: inertia about the centre is a difference of two huge numbers)
 * never turns into NaN. */
static void test_degenerate_body_total_stays_finite(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	tb_body_id b = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	for (int i = 0; i < 3; ++i) {
		tb_circle c = {{9.0e5f + 0.01f * (float)i, 9.0e5f}, 0.01f};
		assert_false(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, NULL)));
	}
	assert_body_finite(w, b);
	tb_body_apply_linear_impulse(w, b, tb_v2(1e-6f, 0.0f), tb_v2(9.0e5f, 9.0e5f + 0.01f), true);
	tb_body_apply_torque(w, b, 1.0f, true);
	for (int i = 0; i < 10; ++i) tb_world_step(w, 1.0f / 60.0f);
	assert_body_finite(w, b);
	tb_destroy_world(w);
}

static void test_resized_shape_collides_at_new_size(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 50.0f);
	tb_body_id b = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f), 0.5f, 1.0f);
	tu_step(w, 30);
	assert_near(tb_body_get_position(w, b).y, 0.5f, 0.02f);
	tb_geometry g = tb_shape_get_geometry(w, tu_first_shape(w, b));
	g.circle.radius = 1.0f;
	assert_int_equal(tb_shape_set_geometry(w, tu_first_shape(w, b), &g), TB_OK);
	assert_true(tb_body_is_awake(w, b));
	tu_step(w, 120);
	/* pushed out to rest on its new radius, gently */
	assert_near(tb_body_get_position(w, b).y, 1.0f, 0.02f);
	tb_destroy_world(w);
}

/* A shape made where a big shape's box already is, but apart from the shape
 * itself, gets its pair: a ball beside a planet (a static circle of radius
 * 5 whose box holds the origin's neighbourhood) lands on it instead of
 * falling through. The broad phase once took the pair as known (an empty
 * box that overlapped every box holding [-1, 1]^2). */
static void test_new_shape_inside_big_box_collides(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_circle_body(w, TB_STATIC_BODY, tb_v2(0.0f, 0.0f), 5.0f, 1.0f);
	tu_step(w, 3);
	/* centre 5.41 m from the planet's: 0.11 m above its surface, inside its box */
	tb_vec2 start = tb_v2(3.0f, 4.5f);
	tb_body_id ball = tu_circle_body(w, TB_DYNAMIC_BODY, start, 0.3f, 1.0f);
	float closest = 10.0f;
	for (int i = 0; i < 120; ++i) {
		tu_step(w, 1);
		closest = tb_minf(closest, tb_length(tb_body_get_position(w, ball)));
	}
	/* it rolled off the planet's shoulder, never into it */
	assert_true(closest > 5.25f);
	assert_true(tb_body_get_position(w, ball).x > start.x + 1.0f);
	tb_destroy_world(w);
}

static void test_world_clear(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_world_def d = tb_world_get_def(w);
	d.gravity = tb_v2(0.0f, -3.0f);
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	tb_body_id ids[10];
	tb_shape_id sids[10];
	tu_ground(w, 0.0f, 50.0f);
	for (int i = 0; i < 10; ++i) {
		ids[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2((float)i * 2.0f, 2.0f), 0.5f, 0.5f, 1.0f);
		sids[i] = tu_first_shape(w, ids[i]);
	}
	tu_step(w, 30);
	assert_int_equal(tb_world_get_counters(w).body_count, 11);
	tb_world_clear(w);
	for (int i = 0; i < 10; ++i) {
		assert_false(tb_body_is_valid(w, ids[i]));
		assert_false(tb_shape_is_valid(w, sids[i]));
	}
	tb_counters c = tb_world_get_counters(w);
	assert_int_equal(c.body_count, 0);
	assert_int_equal(c.shape_count, 0);
	assert_int_equal(c.contact_count, 0);
	assert_int_equal(tb_world_get_bodies(w, NULL, 0), 0);
	tb_world_step(w, DT);
	/* settings stay; the world is usable and the old ids stay stale */
	assert_near(tb_world_get_def(w).gravity.y, -3.0f, 0.0f);
	tb_body_id n = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 10.0f), 0.5f, 0.5f, 1.0f);
	assert_true(tb_body_is_valid(w, n));
	for (int i = 0; i < 10; ++i) assert_false(tb_body_is_valid(w, ids[i]));
	tu_step(w, 60);
	assert_near(tb_body_get_linear_velocity(w, n).y, -3.0f, 1e-3f);
	tb_destroy_world(w);
}

static void test_get_bodies_and_counters(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id ids[6];
	for (int i = 0; i < 6; ++i) ids[i] = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2((float)i * 3.0f, 0.0f), 0.5f, 1.0f);
	tb_destroy_body(w, ids[2]);
	tb_body_id out[8];
	int n = tb_world_get_bodies(w, out, 8);
	assert_int_equal(n, 5);
	int k = 0;
	for (int i = 0; i < 6; ++i) {
		if (i == 2) continue;
		assert_true(TB_ID_EQUALS(out[k], ids[i]));
		++k;
	}
	/* a small buffer still gets the full count */
	assert_int_equal(tb_world_get_bodies(w, out, 2), 5);
	assert_true(TB_ID_EQUALS(out[0], ids[0]));
	tb_counters c = tb_world_get_counters(w);
	assert_int_equal(c.body_count, 5);
	assert_int_equal(c.shape_count, 5);
	tb_world_step(w, DT);
	assert_int_equal(tb_world_get_counters(w).awake_body_count, 5);

	/* user data round trip */
	int tag = 42;
	tb_body_set_user_data(w, ids[0], &tag);
	assert_ptr_equal(tb_body_get_user_data(w, ids[0]), &tag);
	tb_destroy_world(w);
}

/* Who collides: masks and categories, and groups over them. A ball starts a
 * metre above the ground (farther than any box margin, so its pair is found
 * only by its own query as it falls) or is thrown down at 60 m/s onto a thin
 * ground (found by the continuous sweep). */
static float ball_lands_at(int32_t ground_group, int32_t ball_group, uint64_t ball_mask, float vy)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id g = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, -0.05f));
	tb_shape_def gd = tb_default_shape_def();
	gd.filter.group_index = ground_group;
	tu_box_with(w, g, 10.0f, 0.05f, &gd);
	tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 1.5f), 0.0f, tb_v2(0.0f, vy), 0.0f);
	tb_shape_def bd = tb_default_shape_def();
	bd.filter.group_index = ball_group;
	bd.filter.mask_bits = ball_mask;
	tu_circle_with(w, b, 0.5f, &bd);
	tu_step(w, 90);
	float y = tb_body_get_position(w, b).y;
	tb_destroy_world(w);
	return y;
}

static void test_filters_and_groups_decide_collision(void **state)
{
	(void)state;
	for (int fast = 0; fast < 2; ++fast) {
		float vy = fast ? -60.0f : 0.0f;
		/* lands: resting on the ground's top at y = 0 */
		assert_true(fabsf(ball_lands_at(0, 0, UINT64_MAX, vy) - 0.5f) < 0.02f);
		/* a mask without the ground's category 1 falls through */
		assert_true(ball_lands_at(0, 0, 4, vy) < -1.0f);
		/* the same positive group collides whatever the masks say */
		assert_true(fabsf(ball_lands_at(1, 1, 4, vy) - 0.5f) < 0.02f);
		/* the same negative group never does */
		assert_true(ball_lands_at(-1, -1, UINT64_MAX, vy) < -1.0f);
		/* different groups: the masks decide */
		assert_true(fabsf(ball_lands_at(1, 2, UINT64_MAX, vy) - 0.5f) < 0.02f);
		assert_true(ball_lands_at(1, 2, 4, vy) < -1.0f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filters_and_groups_decide_collision),
		cmocka_unit_test(test_default_defs),
		cmocka_unit_test(test_set_def_validation),
		cmocka_unit_test(test_enable_motion_false_freezes),
		cmocka_unit_test(test_gravity_change_wakes_sleepers),
		cmocka_unit_test(test_setting_toggles),
		cmocka_unit_test(test_body_generations),
		cmocka_unit_test(test_create_rejects_bad_defs),
		cmocka_unit_test(test_static_body_stays),
		cmocka_unit_test(test_dynamic_falls),
		cmocka_unit_test(test_kinematic_body),
		cmocka_unit_test(test_kinematic_carries_box),
		cmocka_unit_test(test_sleep_threshold),
		cmocka_unit_test(test_fixed_rotation),
		cmocka_unit_test(test_damping),
		cmocka_unit_test(test_gravity_scale),
		cmocka_unit_test(test_disabled_body),
		cmocka_unit_test(test_set_type_keeps_disabled_shape_out),
		cmocka_unit_test(test_forces_and_impulses),
		cmocka_unit_test(test_set_transform_teleports),
		cmocka_unit_test(test_compound_mass),
		cmocka_unit_test(test_geometry_and_density_update_mass),
		cmocka_unit_test(test_mass_out_of_range_refused),
		cmocka_unit_test(test_degenerate_body_total_stays_finite),
		cmocka_unit_test(test_resized_shape_collides_at_new_size),
		cmocka_unit_test(test_new_shape_inside_big_box_collides),
		cmocka_unit_test(test_world_clear),
		cmocka_unit_test(test_get_bodies_and_counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
