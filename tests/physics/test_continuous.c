/* No tunnelling: a small fast circle against a thin wall, as a bullet and as a
 * plain dynamic body against static geometry, at several angles; and the
 * enable_continuous switch really switches it off. Moving walls: boxes
 * tumbling in a spinning box, kinematic or heavy and motor-driven, stay out of
 * its walls. */
#include "test_util.h"

#include "world.h"

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
	int listed = 0;
	for (int i = 0; i < 120; ++i) {
		tb_world_step(w, DT);
		lowest = fminf(lowest, tb_body_get_position(w, b).y);
		listed += w->listed_sweeps;
	}
	/* the sweeps met the ground by the body's contacts (its fat box held them) */
	assert_true(listed > 0);
	tb_destroy_world(w);
	return half - lowest; /* how far below resting it went */
}

/* A Galton board: 150 small boxes, balls and capsules dropped through rows of
 * static pegs onto a static floor, with a one-way ledge and a chain on the
 * way, so that fast bodies sweep against several immovable shapes at once.
 * A sweep whose swept box stays inside its shape's fat box takes the
 * immovable shapes from the body's contacts instead of querying the tree:
 * the same shapes, so the same bits as the tree's, step by step (each one's
 * time of impact is searched over the whole step, and the earliest kept, so
 * the order they come in does not matter). */
static tb_world *galton(bool by_tree)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	w->sweep_by_tree = by_tree;
	tu_box_body(w, TB_STATIC_BODY, tb_v2(0.0f, -0.5f), 8.0f, 0.5f, 1.0f);
	for (int row = 0; row < 6; ++row) {
		for (int col = 0; col < 12; ++col) {
			tb_vec2 p = tb_v2(-5.5f + (float)col + 0.5f * (float)(row & 1), 2.0f + 0.8f * (float)row);
			if (col % 3 == 0) tu_box_body(w, TB_STATIC_BODY, p, 0.08f, 0.08f, 1.0f);
			else tu_circle_body(w, TB_STATIC_BODY, p, 0.07f, 1.0f);
		}
	}
	tb_body_id ledge = tu_box_body(w, TB_STATIC_BODY, tb_v2(-3.0f, 7.2f), 1.5f, 0.05f, 1.0f);
	tb_shape_id ls;
	assert_int_equal(tb_body_get_shapes(w, ledge, &ls, 1), 1);
	assert_int_equal(tb_shape_set_one_way(w, ls, tb_v2(0.0f, 1.0f)), TB_OK);
	tb_body_id hook = tu_body(w, TB_STATIC_BODY, tb_v2(3.0f, 7.0f));
	tb_chain_def cd = tb_default_chain_def();
	/* right to left: its front faces up */
	tb_vec2 pts[4] = {{1.5f, 0.4f}, {0.5f, 0.0f}, {-0.5f, 0.0f}, {-1.5f, 0.4f}};
	cd.points = pts;
	cd.count = 4;
	tb_status st;
	assert_int_equal(tb_create_chain(w, hook, &cd, NULL, 0, &st), 3);
	uint32_t seed = 99u;
	for (int i = 0; i < 150; ++i) {
		seed = seed * 1664525u + 1013904223u;
		float u = (float)(seed >> 8) / (float)(1u << 24);
		tb_vec2 p = tb_v2(-5.0f + 10.0f * u, 9.0f + 0.35f * (float)(i / 25));
		tb_vec2 v = tb_v2(6.0f * (u - 0.5f), -4.0f * u);
		tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, p, 3.0f * u, v, 0.0f);
		if (i % 3 == 0) {
			tu_circle(w, b, 0.1f, 1.0f);
		} else if (i % 3 == 1) {
			tb_shape_def sd = tb_default_shape_def();
			tb_polygon box = tb_make_box(0.12f, 0.08f);
			assert_false(TB_IS_NULL(tb_create_polygon_shape(w, b, &sd, &box, NULL)));
		} else {
			tb_shape_def sd = tb_default_shape_def();
			tb_capsule c = {{-0.1f, 0.0f}, {0.1f, 0.0f}, 0.06f};
			assert_false(TB_IS_NULL(tb_create_capsule_shape(w, b, &sd, &c, NULL)));
		}
	}
	return w;
}

/* A plank of 40 balls dropped onto 40 static pegs: once it has more than 32
 * contacts its sweeps query the tree (walking every contact for each of its
 * shapes would cost more), with the same bits either way. */
static tb_world *plank_on_pegs(bool by_tree, tb_body_id *plank)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	w->sweep_by_tree = by_tree;
	for (int i = 0; i < 40; ++i) tu_box_body(w, TB_STATIC_BODY, tb_v2(-3.9f + 0.2f * (float)i, 0.0f), 0.09f, 0.09f, 1.0f);
	*plank = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 1.0f), 0.0f, tb_v2(0.0f, -3.0f), 0.0f);
	for (int i = 0; i < 40; ++i) {
		tb_shape_def sd = tb_default_shape_def();
		tb_circle c = {{-3.9f + 0.2f * (float)i, 0.0f}, 0.1f};
		assert_false(TB_IS_NULL(tb_create_circle_shape(w, *plank, &sd, &c, NULL)));
	}
	return w;
}

static void test_sweeps_of_a_body_with_many_contacts_query_the_tree(void **state)
{
	(void)state;
	tb_body_id pa, pb;
	tb_world *a = plank_on_pegs(false, &pa), *b = plank_on_pegs(true, &pb);
	int many = 0, listed = 0;
	for (int step = 0; step < 60; ++step) {
		tb_world_step(a, DT);
		tb_world_step(b, DT);
		int contacts = a->bodies.data[pa.index1 - 1].contact_count;
		if (contacts > 32) {
			many += a->fast_bodies.count > 0;
			assert_int_equal(a->listed_sweeps, 0);
		}
		listed += a->listed_sweeps;
		if (tb_world_hash(a) != tb_world_hash(b)) fail_msg("step %d: the plank's sweeps differ from the tree's", step);
	}
	/* it was swept with many contacts, and by them before it had many */
	assert_true(many > 0);
	assert_true(listed > 0);
	tb_destroy_world(a);
	tb_destroy_world(b);
}

static void test_sweeps_by_contacts_match_the_tree(void **state)
{
	(void)state;
	tb_world *a = galton(false), *b = galton(true);
	int listed = 0, fast = 0;
	for (int step = 0; step < 300; ++step) {
		tb_world_step(a, DT);
		tb_world_step(b, DT);
		listed += a->listed_sweeps;
		fast += a->fast_bodies.count;
		assert_int_equal(b->listed_sweeps, 0);
		if (tb_world_hash(a) != tb_world_hash(b)) fail_msg("step %d: the sweeps by contacts differ from the tree's", step);
	}
	print_message("# galton board: %d fast bodies swept, %d by their contacts\n", fast, listed);
	/* most sweeps took the contacts; some fell back on the tree */
	assert_true(listed > fast / 2);
	assert_true(listed < fast);
	assert_true(tb_world_validate(a));
	tb_destroy_world(a);
	tb_destroy_world(b);
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

/* A long thin box (4 m x 0.1 m) dropped at 100 m/s onto static ground while
 * spinning at up to 50 rad/s either way: it meets the ground with a corner,
 * and in the same step its far end swings down by a metre or more. The
 * corner's contact holds only the corner; what holds the rest is the touching
 * sweep of the box's core. The ground is a thin box (0.1 m), a segment and a
 * thick box; the box's centre must never go below the ground's top. */
static void test_spinning_thin_box_onto_ground(void **state)
{
	(void)state;
	int through = 0, runs = 0;
	for (int ground = 0; ground < 3; ++ground) {
		for (int k = 0; k <= 20; ++k) {
			float spin = 2.5f * (float)k * (k & 1 ? -1.0f : 1.0f);
			for (int a = 0; a < 12; ++a) {
				for (int h = 0; h < 3; ++h) {
					tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
					tb_body_id g = tu_body(w, TB_STATIC_BODY, tb_vec2_zero);
					tb_shape_def sd = tb_default_shape_def();
					if (ground == 1) {
						tb_segment seg = {{-500.0f, 0.0f}, {500.0f, 0.0f}};
						assert_false(TB_IS_NULL(tb_create_segment_shape(w, g, &sd, &seg, NULL)));
					} else {
						float half = ground == 0 ? 0.05f : 0.5f;
						tb_polygon p = tb_make_offset_box(500.0f, half, tb_v2(0.0f, -half), tb_rot_identity);
						assert_false(TB_IS_NULL(tb_create_polygon_shape(w, g, &sd, &p, NULL)));
					}
					float angle = (float)a * TB_PI / 12.0f;
					tb_body_id bar = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 5.0f + 0.47f * (float)h), angle,
					                                tb_v2(0.0f, -100.0f), spin);
					tu_box(w, bar, 2.0f, 0.05f, 1.0f);
					bool passed = false;
					for (int i = 0; i < 60 && !passed; ++i) {
						tb_world_step(w, DT);
						passed = tb_body_get_position(w, bar).y < -0.1f;
					}
					if (passed) {
						through++;
						print_message("# through: ground %d, spin %.1f rad/s, angle %.3f rad, height %d\n", ground,
						              spin, angle, h);
					}
					runs++;
					tb_destroy_world(w);
				}
			}
		}
	}
	print_message("# spinning thin box: %d of %d drops went through\n", through, runs);
	assert_int_equal(through, 0);
}

/* ---- moving walls: the tumbler ----
 *
 * Box2D v3's tumbler benchmark: a hollow box 20 m
 * across with 1 m walls (inner faces 9.5 m from its centre), turning at 25
 * degrees per second, and 400 boxes of half-size 0.25 tumbling inside. The
 * walls sweep into the boxes at up to 6 m/s and boxes fall onto them from up
 * to 19 m. Without the moving walls' speculative reach and full push-out
 * budget, boxes sink 20-45 cm into the walls and stay there. */

enum { TUMBLER_N = 20 };
#define TUMBLER_HALF 0.25f

typedef struct tumbler {
	tb_world *w;
	tb_body_id body;
	tb_body_id boxes[TUMBLER_N * TUMBLER_N];
} tumbler;

/* kinematic: a kinematic body spun at 25 deg/s; else a dynamic one of density
 * 50 (16,000 times a box's mass) turned by a revolute motor. */
static void make_tumbler(tumbler *t, const tb_world_def *def, bool kinematic)
{
	t->w = tu_world_with(def);
	float speed = 25.0f * TB_PI / 180.0f;
	tb_body_def bd = tb_default_body_def();
	bd.type = kinematic ? TB_KINEMATIC_BODY : TB_DYNAMIC_BODY;
	bd.position = tb_v2(0.0f, 10.0f);
	bd.angular_velocity = kinematic ? speed : 0.0f;
	t->body = tb_create_body(t->w, &bd, NULL);
	assert_false(TB_IS_NULL(t->body));
	tb_shape_def sd = tb_default_shape_def();
	sd.density = 50.0f;
	const tb_vec2 centres[4] = {{10.0f, 0.0f}, {-10.0f, 0.0f}, {0.0f, 10.0f}, {0.0f, -10.0f}};
	for (int i = 0; i < 4; ++i) {
		tb_polygon wall = tb_make_offset_box(i < 2 ? 0.5f : 10.0f, i < 2 ? 10.0f : 0.5f, centres[i], tb_rot_identity);
		assert_false(TB_IS_NULL(tb_create_polygon_shape(t->w, t->body, &sd, &wall, NULL)));
	}
	if (!kinematic) {
		tb_body_id ground = tu_body(t->w, TB_STATIC_BODY, tb_v2(0.0f, 10.0f));
		tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
		jd.body_a = ground;
		jd.body_b = t->body;
		jd.enable_motor = true;
		jd.motor_speed = speed;
		jd.max_motor_torque = 1e8f;
		assert_false(TB_IS_NULL(tb_create_joint(t->w, &jd, NULL)));
	}
	for (int i = 0; i < TUMBLER_N; ++i) {
		for (int j = 0; j < TUMBLER_N; ++j) {
			tb_vec2 p = tb_v2(-7.6f + 0.8f * (float)j, 2.4f + 0.8f * (float)i);
			t->boxes[i * TUMBLER_N + j] = tu_box_body(t->w, TB_DYNAMIC_BODY, p, TUMBLER_HALF, TUMBLER_HALF, 1.0f);
		}
	}
}

/* The deepest any box's corner reaches into a wall (m). */
static float tumbler_overlap(const tumbler *t)
{
	tb_transform xt = tb_body_get_transform(t->w, t->body);
	float worst = 0.0f;
	for (int k = 0; k < TUMBLER_N * TUMBLER_N; ++k) {
		tb_transform xb = tb_body_get_transform(t->w, t->boxes[k]);
		for (int c = 0; c < 4; ++c) {
			tb_vec2 corner = tb_v2(c & 1 ? TUMBLER_HALF : -TUMBLER_HALF, c & 2 ? TUMBLER_HALF : -TUMBLER_HALF);
			tb_vec2 local = tb_inv_transform_point(xt, tb_transform_point(xb, corner));
			worst = fmaxf(worst, fmaxf(fabsf(local.x), fabsf(local.y)) - 9.5f);
		}
	}
	return worst;
}

/* Tumbles for `seconds`; the deepest overlap during the run and at its end. */
static void tumble_for(const tb_world_def *def, bool kinematic, int seconds, float *during, float *end)
{
	tumbler t;
	make_tumbler(&t, def, kinematic);
	*during = 0.0f;
	for (int i = 0; i < seconds * 60; ++i) {
		tb_world_step(t.w, DT);
		*during = fmaxf(*during, tumbler_overlap(&t));
	}
	*end = tumbler_overlap(&t);
	/* the boxes tumbled all along: none was left behind, asleep or outside */
	assert_int_equal(tb_world_get_counters(t.w).awake_body_count, TUMBLER_N * TUMBLER_N + 1);
	tb_destroy_world(t.w);
}

/* A kinematic wall: speculative contacts that reach as far as the pair can
 * close in a step catch the wall sweeping into a box and a box falling onto
 * the wall alike (time of impact cannot: the box is slow, or the wall has
 * passed where it starts). */
static void test_kinematic_tumbler_keeps_boxes_out(void **state)
{
	(void)state;
	tb_world_def def = tb_default_world_def();
	float during, end;
	tumble_for(&def, true, 12, &during, &end);
	print_message("# kinematic tumbler: deepest overlap %.4f m during 12 s, %.4f m at the end\n", during, end);
	assert_true(end <= TB_LINEAR_SLOP);
	assert_true(during < 0.03f);

	/* and with Box2D v3's settings: softer contacts, so a little deeper */
	def.substeps = 4;
	def.contact_hertz = 30.0f;
	tumble_for(&def, true, 12, &during, &end);
	print_message("# kinematic tumbler, 4 substeps 30 Hz: %.4f m during, %.4f m at the end\n", during, end);
	assert_true(end < 0.02f);
	assert_true(during < 0.04f);
}

/* A heavy dynamic wall turned by a motor (v3's own tumbler): the same
 * speculative reach, and a box pressed into it pushes out at the full cap
 * rather than a share of it (contact_solver.c), or the pile's weight sinks
 * the bottom boxes into the wall. */
static void test_motor_tumbler_keeps_boxes_out(void **state)
{
	(void)state;
	tb_world_def def = tb_default_world_def();
	float during, end;
	tumble_for(&def, false, 12, &during, &end);
	print_message("# motor tumbler: deepest overlap %.4f m during 12 s, %.4f m at the end\n", during, end);
	assert_true(end < 0.015f);
	assert_true(during < 0.03f);
}

/* A kinematic wall sweeping at 30 m/s (half a metre a step) into a box at
 * rest: the box is carried off the wall's face, never inside it, and the begin
 * event comes when they touch, not when the speculative reach first finds the
 * pair (its points then report separations within the standard distance).
 * The box is placed at twenty points across one step of the wall's travel:
 * the pair must be found a step before they touch wherever the wall's box
 * was last re-inserted (a margin-sized gap past it was enough to miss). */
static void fast_wall_into_box_at(float box_x)
{
	tb_world *w = new_world(true);
	tb_body_id wall = tu_body_moving(w, TB_KINEMATIC_BODY, tb_v2(-5.0f, 0.0f), 0.0f, tb_v2(30.0f, 0.0f), 0.0f);
	tu_box(w, wall, 0.25f, 2.0f, 1.0f);
	tb_body_id box = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(box_x, 0.0f), 0.5f, 0.5f, 1.0f);
	int begins = 0;
	for (int i = 0; i < 60; ++i) {
		tb_world_step(w, DT);
		float gap = tb_body_get_position(w, box).x - 0.5f - (tb_body_get_position(w, wall).x + 0.25f);
		assert_true(gap > -TB_LINEAR_SLOP);
		tb_contact_events ev = tb_world_get_contact_events(w);
		for (int k = 0; k < ev.begin_count; ++k) {
			begins += 1;
			assert_true(ev.begin[k].point_count > 0);
			for (int p = 0; p < ev.begin[k].point_count; ++p)
				assert_true(ev.begin[k].separations[p] <= TB_SPECULATIVE_DISTANCE);
		}
	}
	assert_int_equal(begins, 1);
	/* carried along at the wall's speed, or pushed off its face at most at the push-out cap */
	float vx = tb_body_get_linear_velocity(w, box).x;
	assert_true(vx > 29.5f && vx < 30.0f + tb_world_get_def(w).max_contact_push_speed);
	tb_destroy_world(w);
}

static void test_fast_kinematic_wall_pushes_box(void **state)
{
	(void)state;
	for (int k = 0; k < 20; ++k) fast_wall_into_box_at(0.025f * (float)k);
}

/* A plank that turns heavy after its pair with a box was made: the pair is a
 * moving wall's from then on (the narrow phase keeps that on the pair, not
 * reading the bodies), so the plank then swept into the box at 30 m/s stops
 * at its face, exactly as a plank heavy from the start; turned light again,
 * the pair is a plain one, exactly as one light from the start. */
typedef struct plank_run {
	tb_vec2 box[40];
	int steps;
} plank_run;

static void plank_into_box(bool heavy_at_start, bool heavy_after, plank_run *out)
{
	tb_world *w = new_world(true);
	tb_body_id plank = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(-0.28f, 0.0f), 0.0f, tb_vec2_zero, 0.0f);
	tb_shape_id plank_shape = tu_box(w, plank, 0.25f, 2.0f, heavy_at_start ? 500.0f : 1.0f);
	tb_body_id box = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.5f, 0.0f), 0.5f, 0.5f, 1.0f);
	/* 3 cm apart: the pair is made, with no points */
	tb_world_step(w, DT);
	assert_int_equal(tb_world_get_counters(w).contact_count, 1);
	assert_int_equal(tb_world_get_counters(w).touching_contact_count, 0);
	if (heavy_after != heavy_at_start)
		assert_int_equal(tb_shape_set_density(w, plank_shape, heavy_after ? 500.0f : 1.0f, true), TB_OK);
	assert_true(tb_world_validate(w));
	assert_int_equal(tb_body_set_linear_velocity(w, plank, tb_v2(30.0f, 0.0f)), TB_OK);
	out->steps = 0;
	for (int i = 0; i < 40; ++i) {
		tb_world_step(w, DT);
		out->box[out->steps++] = tb_body_get_position(w, box);
	}
	assert_true(tb_world_validate(w));
	tb_destroy_world(w);
}

static void test_pair_turned_wall_by_mass(void **state)
{
	(void)state;
	plank_run from_start, after, light, light_again;
	plank_into_box(true, true, &from_start);
	plank_into_box(false, true, &after);
	plank_into_box(false, false, &light);
	plank_into_box(true, false, &light_again);
	assert_memory_equal(from_start.box, after.box, sizeof from_start.box);
	assert_memory_equal(light.box, light_again.box, sizeof light.box);
	/* and the two differ: the wall's pair looks a step ahead */
	assert_memory_not_equal(from_start.box, light.box, sizeof light.box);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bullet_does_not_tunnel),
		cmocka_unit_test(test_fast_dynamic_does_not_tunnel_static),
		cmocka_unit_test(test_switch_off_tunnels),
		cmocka_unit_test(test_spinning_thin_box_onto_ground),
		cmocka_unit_test(test_bullet_vs_dynamic_plank),
		cmocka_unit_test(test_fast_ball_into_chain_floor),
		cmocka_unit_test(test_moderate_speed_does_not_dip),
		cmocka_unit_test(test_thin_box_corner_first),
		cmocka_unit_test(test_kinematic_tumbler_keeps_boxes_out),
		cmocka_unit_test(test_motor_tumbler_keeps_boxes_out),
		cmocka_unit_test(test_fast_kinematic_wall_pushes_box),
		cmocka_unit_test(test_pair_turned_wall_by_mass),
		cmocka_unit_test(test_sweeps_by_contacts_match_the_tree),
		cmocka_unit_test(test_sweeps_of_a_body_with_many_contacts_query_the_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
