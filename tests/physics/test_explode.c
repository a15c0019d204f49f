/* Explosions: the impulse each body gets against its distance from the
 * centre (full inside the radius, fading linearly over the falloff, none
 * beyond), its direction, and who is left alone. */
#include "test_util.h"

static tb_explosion_def blast(float radius, float falloff, float impulse)
{
	tb_explosion_def d = tb_default_explosion_def();
	d.position = tb_vec2_zero;
	d.radius = radius;
	d.falloff = falloff;
	d.impulse = impulse;
	return d;
}

/* Discs of mass m at distances from the centre: a disc whose near side is d
 * from the centre leaves at impulse * scale(d) / m, straight away. */
static void test_impulse_by_distance(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_vec2_zero);
	/* near sides at 1 (inside), 3 (half way through the falloff), 5 (beyond) */
	const float near_side[3] = {1.0f, 3.0f, 5.0f}, expect_scale[3] = {1.0f, 0.5f, 0.0f};
	const float angle[3] = {0.3f, 2.0f, -1.9f};
	tb_body_id balls[3];
	for (int i = 0; i < 3; ++i) {
		float r = near_side[i] + 0.5f;
		balls[i] = tu_body(w, TB_DYNAMIC_BODY, tb_v2(r * cosf(angle[i]), r * sinf(angle[i])));
		tu_circle(w, balls[i], 0.5f, 2.0f);
	}
	tb_body_id wall = tu_body(w, TB_STATIC_BODY, tb_v2(1.0f, -2.0f));
	tu_box(w, wall, 0.5f, 0.5f, 1.0f);
	tb_body_id platform = tu_body(w, TB_KINEMATIC_BODY, tb_v2(-1.5f, 0.0f));
	tu_box(w, platform, 0.5f, 0.5f, 1.0f);
	int pushed = -1;
	tb_explosion_def d = blast(2.0f, 2.0f, 10.0f);
	assert_int_equal(tb_world_explode(w, &d, &pushed), TB_OK);
	assert_int_equal(pushed, 2);
	for (int i = 0; i < 3; ++i) {
		float m = tb_body_get_mass(w, balls[i]);
		tb_vec2 v = tb_body_get_linear_velocity(w, balls[i]);
		float speed = 10.0f * expect_scale[i] / m;
		assert_vec_near(v, speed * cosf(angle[i]), speed * sinf(angle[i]), 1e-4);
		/* through its centre: no spin */
		assert_near(tb_body_get_angular_velocity(w, balls[i]), 0.0f, 1e-5);
	}
	assert_vec_near(tb_body_get_linear_velocity(w, platform), 0.0f, 0.0f, 0.0f);
	/* a negative impulse pulls in */
	d.impulse = -10.0f;
	assert_int_equal(tb_world_explode(w, &d, NULL), TB_OK);
	assert_vec_near(tb_body_get_linear_velocity(w, balls[0]), 0.0f, 0.0f, 1e-5);
	tb_destroy_world(w);
}

/* A box off to one side is pushed at its nearest point: it spins; one that
 * holds the centre is pushed from it towards its centre of mass; sleeping
 * bodies wake; sensors and masked-out shapes do not count. */
static void test_point_direction_and_filters(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_vec2_zero);
	tb_body_id side = tu_body(w, TB_DYNAMIC_BODY, tb_v2(1.5f, 1.0f));
	tu_box(w, side, 0.5f, 0.5f, 1.0f); /* nearest point: its corner (1, 0.5) */
	tb_body_id over = tu_body(w, TB_DYNAMIC_BODY, tb_v2(-0.2f, 0.0f));
	tu_box(w, over, 0.5f, 0.5f, 1.0f); /* holds the centre */
	tb_body_id ghost = tu_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, -1.5f));
	tb_shape_def sd = tb_default_shape_def();
	sd.is_sensor = true;
	tu_circle_with(w, ghost, 0.5f, &sd);
	tb_body_id masked = tu_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 2.5f));
	sd = tb_default_shape_def();
	sd.filter.category_bits = 4;
	tu_circle_with(w, masked, 0.5f, &sd);
	tb_body_set_awake(w, side, false);
	assert_false(tb_body_is_awake(w, side));

	tb_explosion_def d = blast(3.0f, 0.0f, 5.0f);
	d.mask_bits = 1;
	int pushed = 0;
	assert_int_equal(tb_world_explode(w, &d, &pushed), TB_OK);
	assert_int_equal(pushed, 2);
	assert_true(tb_body_is_awake(w, side));
	tb_vec2 dir = tb_normalize(tb_v2(1.0f, 0.5f));
	tb_vec2 v = tb_body_get_linear_velocity(w, side);
	assert_vec_near(v, 5.0f * dir.x, 5.0f * dir.y, 1e-4);
	/* the impulse at (1, 0.5) about the centre (1.5, 1): r = (-0.5, -0.5) */
	float expect_w = tb_cross(tb_v2(-0.5f, -0.5f), tb_mul_sv(5.0f, dir)) / tb_body_get_inertia(w, side);
	assert_near(tb_body_get_angular_velocity(w, side), expect_w, 1e-3);
	assert_vec_near(tb_body_get_linear_velocity(w, over), -5.0f, 0.0f, 1e-4);
	assert_vec_near(tb_body_get_linear_velocity(w, ghost), 0.0f, 0.0f, 0.0f);
	assert_vec_near(tb_body_get_linear_velocity(w, masked), 0.0f, 0.0f, 0.0f);
	tb_destroy_world(w);
}

static void test_explode_validation(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_vec2_zero);
	tb_body_id b = tu_body(w, TB_DYNAMIC_BODY, tb_v2(1.0f, 0.0f));
	tu_circle(w, b, 0.5f, 1.0f);
	tb_explosion_def d = blast(1.0f, 1.0f, 1.0f);
	d.radius = -1.0f;
	assert_int_equal(tb_world_explode(w, &d, NULL), TB_ERR_NEGATIVE);
	d.radius = 1.0f;
	d.falloff = -0.5f;
	assert_int_equal(tb_world_explode(w, &d, NULL), TB_ERR_NEGATIVE);
	d.falloff = NAN;
	assert_int_equal(tb_world_explode(w, &d, NULL), TB_ERR_INVALID_NUMBER);
	d.falloff = 0.0f;
	d.impulse = INFINITY;
	assert_int_equal(tb_world_explode(w, &d, NULL), TB_ERR_INVALID_NUMBER);
	d.impulse = 1.0f;
	d.position = tb_v2(2.0e6f, 0.0f);
	assert_int_equal(tb_world_explode(w, &d, NULL), TB_ERR_INVALID_NUMBER);
	d.position = tb_vec2_zero;
	d.radius = 3.0e38f;
	assert_int_equal(tb_world_explode(w, &d, NULL), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_world_explode(w, NULL, NULL), TB_ERR_INVALID_ARGUMENT);
	assert_vec_near(tb_body_get_linear_velocity(w, b), 0.0f, 0.0f, 0.0f);
	assert_true(tb_world_validate(w));
	tb_destroy_world(w);
}

/* A world with nothing in reach (or nothing at all): nothing pushed, and no
 * sort of an empty list (a null array, which UBSan rejected) */
static void test_explode_nothing_in_reach(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_vec2_zero);
	tb_explosion_def d = blast(1.0f, 1.0f, 1.0f);
	int pushed = -1;
	assert_int_equal(tb_world_explode(w, &d, &pushed), TB_OK);
	assert_int_equal(pushed, 0);
	tb_body_id b = tu_body(w, TB_DYNAMIC_BODY, tb_v2(10.0f, 0.0f));
	tu_circle(w, b, 0.5f, 1.0f);
	assert_int_equal(tb_world_explode(w, &d, &pushed), TB_OK);
	assert_int_equal(pushed, 0);
	assert_vec_near(tb_body_get_linear_velocity(w, b), 0.0f, 0.0f, 0.0f);
	tb_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_impulse_by_distance),
		cmocka_unit_test(test_point_direction_and_filters),
		cmocka_unit_test(test_explode_validation),
		cmocka_unit_test(test_explode_nothing_in_reach),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
