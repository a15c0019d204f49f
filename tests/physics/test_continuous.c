/* No tunnelling: a small fast circle against a thin wall, as a bullet and as a
 * plain dynamic body against static geometry, at several angles; and the
 * enable_continuous switch really switches it off. */
#include "test_util.h"

#define DT TU_DT

/* The wall: static, 0.1 m thick, centred on x = 0, 200 m tall. */
#define WALL_HALF 0.05f
#define R 0.1f

static tb_world *new_world(bool continuous)
{
	tb_world_def wd = tb_default_world_def();
	wd.gravity = tb_v2(0.0f, 0.0f);
	wd.enable_continuous = continuous;
	return tu_world_with(&wd);
}

static void make_wall(tb_world *w) { tu_box_body(w, TB_STATIC_BODY, tb_vec2_zero, WALL_HALF, 100.0f, 1.0f); }

static tb_body_id make_ball(tb_world *w, tb_vec2 p, tb_vec2 v, bool bullet)
{
	tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, p, 0.0f, v, 0.0f);
	assert_int_equal(tb_body_set_bullet(w, b, bullet), TB_OK);
	tu_circle(w, b, R, 1.0f);
	assert_true(tb_body_is_bullet(w, b) == bullet);
	return b;
}

/* Fires at `speed` from x = x0 at `degrees` from the +x axis; checks every step
 * for two seconds that the centre never gets past the near face of the wall
 * (it may touch, it may not pass). Returns the largest x seen. */
static float fire(bool continuous, bool bullet, float x0, float degrees, float speed)
{
	tb_world *w = new_world(continuous);
	make_wall(w);
	float a = degrees * TB_PI / 180.0f;
	tb_body_id b = make_ball(w, tb_v2(x0, 0.0f), tb_v2(speed * cosf(a), speed * sinf(a)), bullet);
	float max_x = x0;
	for (int i = 0; i < 120; ++i) {
		tb_world_step(w, DT);
		tb_vec2 p = tb_body_get_position(w, b);
		assert_true(tb_is_valid_vec2(p));
		if (p.x > max_x) max_x = p.x;
		if (continuous && p.x >= -WALL_HALF) {
			fail_msg("tunnelled at step %d (angle %.0f deg, bullet %d): x = %.4f", i, degrees, bullet, p.x);
		}
	}
	tb_destroy_world(w);
	return max_x;
}

static void test_bullet_does_not_tunnel(void **state)
{
	(void)state;
	const float angles[] = {0.0f, 15.0f, 30.0f, 45.0f, 60.0f, 75.0f, -40.0f};
	for (unsigned i = 0; i < sizeof angles / sizeof angles[0]; ++i) {
		/* two start offsets so the step positions straddle the wall differently */
		fire(true, true, -7.5f, angles[i], 300.0f);
		fire(true, true, -9.97f, angles[i], 300.0f);
	}
}

static void test_fast_dynamic_does_not_tunnel_static(void **state)
{
	(void)state;
	const float angles[] = {0.0f, 20.0f, 45.0f, 70.0f};
	for (unsigned i = 0; i < sizeof angles / sizeof angles[0]; ++i) {
		fire(true, false, -7.5f, angles[i], 300.0f);
		fire(true, false, -9.97f, angles[i], 300.0f);
		fire(true, false, -3.0f, angles[i], 120.0f);
	}
}

/* With continuous collision off, the same shot goes through: 5 m per step
 * against a wall and ball 0.3 m across together, positions -7.5, -2.5, 2.5. */
static void test_switch_off_tunnels(void **state)
{
	(void)state;
	float max_x = fire(false, true, -7.5f, 0.0f, 300.0f);
	assert_true(max_x > 2.0f);
	max_x = fire(false, false, -7.5f, 0.0f, 300.0f);
	assert_true(max_x > 2.0f);

	/* and switching it back on at run time restores the guarantee */
	tb_world *w = new_world(false);
	make_wall(w);
	tb_world_def d = tb_world_get_def(w);
	d.enable_continuous = true;
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	tb_body_id b = make_ball(w, tb_v2(-7.5f, 0.0f), tb_v2(300.0f, 0.0f), false);
	for (int i = 0; i < 60; ++i) {
		tb_world_step(w, DT);
		assert_true(tb_body_get_position(w, b).x < -WALL_HALF);
	}
	tb_destroy_world(w);
}

/* A bullet against a thin free dynamic plank: continuous against dynamic
 * bodies too. The ball must stay on its side of the plank. */
static void test_bullet_vs_dynamic_plank(void **state)
{
	(void)state;
	tb_world *w = new_world(true);
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	tb_body_id plank = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	sd.density = 50.0f;
	tb_polygon box = tb_make_box(WALL_HALF, 3.0f);
	assert_false(TB_IS_NULL(tb_create_polygon_shape(w, plank, &sd, &box, NULL)));
	tb_body_id b = make_ball(w, tb_v2(-7.5f, 0.3f), tb_v2(300.0f, 0.0f), true);
	bool hit = false;
	for (int i = 0; i < 60; ++i) {
		tb_world_step(w, DT);
		/* in the plank's frame the ball centre stays left of the near face */
		tb_vec2 local = tb_body_get_local_point(w, plank, tb_body_get_position(w, b));
		if (fabsf(local.y) < 3.0f) assert_true(local.x < -WALL_HALF);
		if (tb_length(tb_body_get_linear_velocity(w, plank)) > 0.1f) hit = true;
	}
	assert_true(hit);
	tb_destroy_world(w);
}

/* A fast ball along a floor made of a chain must not drop through the seams. */
static void test_fast_ball_into_chain_floor(void **state)
{
	(void)state;
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	assert_non_null(w);
	tb_body_def gd = tb_default_body_def();
	tb_body_id ground = tb_create_body(w, &gd, NULL);
	/* the normal is the right perpendicular of the point order: right to left faces up */
	tb_vec2 pts[5] = {{40.0f, 0.0f}, {20.0f, 0.0f}, {0.0f, 0.0f}, {-20.0f, 0.0f}, {-40.0f, 0.0f}};
	tb_chain_def cd = tb_default_chain_def();
	cd.points = pts;
	cd.count = 5;
	tb_shape_id links[8];
	tb_status st = TB_OK;
	assert_int_equal(tb_create_chain(w, ground, &cd, links, 8, &st), 4);
	assert_int_equal(st, TB_OK);
	/* straight down at 200 m/s, not a bullet: continuous against static still applies */
	tb_body_id b = make_ball(w, tb_v2(0.0f, 10.0f), tb_v2(0.0f, -200.0f), false); /* onto a seam */
	for (int i = 0; i < 120; ++i) {
		tb_world_step(w, DT);
		assert_true(tb_body_get_position(w, b).y > 0.0f);
	}
	tb_destroy_world(w);
}

/* Moderate speeds: a body that moves more than the speculative margin in one
 * step, but less than half its size, must not dip into the ground either (the
 * speculative contact only exists within 2 cm; continuous collision covers the
 * rest). A box dropped 2 m, one landing at 11 m/s (a platformer jump), a small
 * ball from 2 m. */
static float lowest_after_drop(float half, bool circle, float height, float vy)
{
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	tb_body_def gd = tb_default_body_def();
	gd.position = tb_v2(0.0f, -1.0f);
	tb_body_id ground = tb_create_body(w, &gd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon gbox = tb_make_box(20.0f, 1.0f);
	assert_false(TB_IS_NULL(tb_create_polygon_shape(w, ground, &sd, &gbox, NULL)));
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.position = tb_v2(0.0f, half + height);
	bd.linear_velocity = tb_v2(0.0f, vy);
	tb_body_id b = tb_create_body(w, &bd, NULL);
	if (circle) {
		tb_circle c = {{0.0f, 0.0f}, half};
		assert_false(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, NULL)));
	} else {
		tb_polygon box = tb_make_box(half, half);
		assert_false(TB_IS_NULL(tb_create_polygon_shape(w, b, &sd, &box, NULL)));
	}
	float lowest = 1e9f;
	for (int i = 0; i < 120; ++i) {
		tb_world_step(w, DT);
		lowest = fminf(lowest, tb_body_get_position(w, b).y);
	}
	tb_destroy_world(w);
	return half - lowest; /* how far below resting it went */
}

static void test_moderate_speed_does_not_dip(void **state)
{
	(void)state;
	float box = lowest_after_drop(0.5f, false, 2.0f, 0.0f);
	float jump = lowest_after_drop(0.4f, false, 0.5f, -11.0f);
	float ball = lowest_after_drop(0.1f, true, 2.0f, 0.0f);
	print_message("# dips: box from 2 m %.4f m, box at 11 m/s %.4f m, ball from 2 m %.4f m\n", box, jump, ball);
	assert_true(box < 0.01f);
	assert_true(jump < 0.01f);
	assert_true(ball < 0.01f);
}

/* A thin box thrown corner first at a 1 m static wall: the corner's impulse
 * spins it, and the far end of its face must not swing through (it did at
 * 180 m/s and 1 rad, the far end keeping no contact point, and at 90 m/s a
 * corner reached 11.5 m). Every angle of a half turn, three speeds: the box's
 * centre never enters the wall and no corner gets deeper than the box's
 * half-length (0.27 m at worst, for a step; Box2D v3.1 at 8 substeps 0.11). */
static void test_thin_box_corner_first(void **state)
{
	(void)state;
	float deepest = 0.0f;
	const float speeds[3] = {30.0f, 90.0f, 180.0f};
	for (int si = 0; si < 3; ++si) {
		for (int k = 0; k < 24; ++k) {
			float angle = (float)k * TB_PI / 24.0f;
			tb_world *w = new_world(true);
			tu_box_body(w, TB_STATIC_BODY, tb_v2(14.0f, 3.0f), 0.5f, 2.5f, 1.0f);
			tb_body_id dart = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(10.5f, 2.5f), angle, tb_v2(speeds[si], 0.0f), 0.0f);
			tu_box(w, dart, 0.3f, 0.05f, 1.0f);
			for (int step = 0; step < 40; ++step) {
				tu_step(w, 1);
				tb_transform xf = tb_body_get_transform(w, dart);
				for (int c = 0; c < 4; ++c) {
					tb_vec2 corner = tb_transform_point(xf, tb_v2(c & 1 ? 0.3f : -0.3f, c & 2 ? 0.05f : -0.05f));
					/* only the wall's face: the box may pass above or below it */
					if (corner.y > 0.5f && corner.y < 5.5f) deepest = fmaxf(deepest, corner.x - 13.5f);
				}
				if (xf.p.x > 13.5f)
					fail_msg("%.0f m/s at %.3f rad: centre in the wall at step %d (x = %.3f)", speeds[si], angle, step, xf.p.x);
			}
			tb_destroy_world(w);
		}
	}
	print_message("# thin box: deepest corner %.4f m into the wall\n", deepest);
	assert_true(deepest < 0.3f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bullet_does_not_tunnel),
		cmocka_unit_test(test_fast_dynamic_does_not_tunnel_static),
		cmocka_unit_test(test_switch_off_tunnels),
		cmocka_unit_test(test_bullet_vs_dynamic_plank),
		cmocka_unit_test(test_fast_ball_into_chain_floor),
		cmocka_unit_test(test_moderate_speed_does_not_dip),
		cmocka_unit_test(test_thin_box_corner_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
