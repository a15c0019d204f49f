/* The character mover: it stands on the ground a hair above it, walks up a
 * 30 degree slope but not a 60 degree one (and stands on the first without
 * sliding), steps onto a 0.2 m ledge but not a 0.5 m one, crosses a tile
 * chain and a row of tile boxes without snagging, slides along walls, rides
 * an elevator and a moving platform, pushes light crates and not heavy ones,
 * and passes up through one-way platforms to land on them. */
#include "test_util.h"

#include <string.h>

#define DT TU_DT
#define G 20.0f
#define FOOT 0.8f /* the default capsule: centres at -0.5, +0.5, r 0.3: feet 0.8 below the position */

/* A character as a level would write it: its own vertical speed, gravity
 * while airborne, the mover's answer deciding. */
typedef struct walker {
	tb_world *world;
	tb_mover_id mover;
	float vy;
	int grounded_frames;
} walker;

static walker make_walker(tb_world *w, tb_vec2 position, float max_slope, float step_height)
{
	tb_mover_def def = tb_default_mover_def();
	def.position = position;
	def.max_slope = max_slope;
	def.step_height = step_height;
	tb_status st;
	walker k = {w, tb_create_mover(w, &def, &st), 0.0f, 0};
	assert_int_equal(st, TB_OK);
	return k;
}

/* One frame: move by vx and the fall, then step the world. */
static tb_vec2 frame(walker *k, float vx)
{
	if (tb_mover_is_grounded(k->world, k->mover)) k->vy = 0.0f;
	k->vy -= G * DT;
	tb_vec2 done = tb_mover_move(k->world, k->mover, tb_v2(vx * DT, k->vy * DT));
	if (tb_mover_is_grounded(k->world, k->mover)) k->grounded_frames += 1;
	tb_world_step(k->world, DT);
	return done;
}

static tb_vec2 pos(const walker *k) { return tb_mover_get_position(k->world, k->mover); }

static tb_body_id ground_box(tb_world *w, float x0, float x1, float top)
{
	tb_body_id b = tu_body(w, TB_STATIC_BODY, tb_v2(0.5f * (x0 + x1), top - 1.0f));
	tu_box(w, b, 0.5f * (x1 - x0), 1.0f, 1.0f);
	return b;
}

static void test_stands_on_ground(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_vec2_zero);
	tb_body_id g = ground_box(w, -10.0f, 10.0f, 0.0f);
	walker k = make_walker(w, tb_v2(0.0f, 2.0f), 0.25f * TB_PI, 0.0f);
	assert_false(tb_mover_is_grounded(w, k.mover));
	for (int i = 0; i < 60; ++i) frame(&k, 0.0f);
	assert_true(tb_mover_is_grounded(w, k.mover));
	/* its feet a hair (half the linear slop) above the ground */
	assert_near(pos(&k).y - FOOT, 0.5f * TB_LINEAR_SLOP, 1e-4);
	assert_vec_near(tb_mover_get_ground_normal(w, k.mover), 0.0f, 1.0f, 1e-5);
	tb_shape_id ground = tb_mover_get_ground_shape(w, k.mover);
	assert_true(TB_ID_EQUALS(ground, tu_first_shape(w, g)));
	/* still there after a second of gravity */
	for (int i = 0; i < 60; ++i) frame(&k, 0.0f);
	assert_near(pos(&k).y - FOOT, 0.5f * TB_LINEAR_SLOP, 1e-4);
	tb_destroy_world(w);
}

/* Flat ground from x = -10 to 0, then a ramp rising at `degrees` to y = 3,
 * then flat ground again. */
static void build_ramp(tb_world *w, float degrees)
{
	float rise = 3.0f, run = rise / tanf(degrees * TB_PI / 180.0f);
	tb_body_id g = tu_body(w, TB_STATIC_BODY, tb_vec2_zero);
	tb_vec2 pts[4] = {{-10.0f, 0.0f}, {0.0f, 0.0f}, {run, rise}, {run + 10.0f, rise}};
	/* a chain's front is on the right of its point order: reversed, up */
	tb_vec2 rev[4] = {pts[3], pts[2], pts[1], pts[0]};
	tb_chain_def cd = tb_default_chain_def();
	cd.points = rev;
	cd.count = 4;
	tb_status st;
	assert_int_equal(tb_create_chain(w, g, &cd, NULL, 0, &st), 3);
}

static void test_slopes(void **state)
{
	(void)state;
	/* 30 degrees: up it to the top at walking speed */
	tb_world *w = tu_world(tb_vec2_zero);
	build_ramp(w, 30.0f);
	walker k = make_walker(w, tb_v2(-3.0f, FOOT + 0.01f), 0.25f * TB_PI, 0.0f);
	for (int i = 0; i < 180; ++i) frame(&k, 4.0f);
	float run = 3.0f / tanf(30.0f * TB_PI / 180.0f);
	assert_true(pos(&k).x > run + 1.0f);
	assert_near(pos(&k).y - FOOT, 3.0f + 0.5f * TB_LINEAR_SLOP, 0.002f);
	assert_true(k.grounded_frames > 175);
	/* standing on it, it does not slide down */
	tb_mover_set_position(w, k.mover, tb_v2(2.0f, 2.0f * tanf(30.0f * TB_PI / 180.0f) + 2.0f));
	for (int i = 0; i < 60; ++i) frame(&k, 0.0f);
	tb_vec2 rest = pos(&k);
	assert_true(tb_mover_is_grounded(w, k.mover));
	assert_vec_near(tb_mover_get_ground_normal(w, k.mover), -0.5f, sqrtf(0.75f), 1e-3);
	for (int i = 0; i < 120; ++i) frame(&k, 0.0f);
	assert_vec_near(pos(&k), rest.x, rest.y, 1e-4);
	/* and walks down it without leaving the ground */
	k.grounded_frames = 0;
	tb_mover_set_position(w, k.mover, tb_v2(run + 2.0f, 3.0f + FOOT + 0.002f));
	frame(&k, 0.0f);
	for (int i = 0; i < 150; ++i) frame(&k, -4.0f);
	assert_true(pos(&k).x < -1.0f);
	assert_int_equal(k.grounded_frames, 151);
	tb_destroy_world(w);

	/* 60 degrees: it stops at the foot */
	w = tu_world(tb_vec2_zero);
	build_ramp(w, 60.0f);
	k = make_walker(w, tb_v2(-3.0f, FOOT + 0.01f), 0.25f * TB_PI, 0.0f);
	for (int i = 0; i < 180; ++i) frame(&k, 4.0f);
	assert_true(pos(&k).x < 0.3f);
	assert_true(pos(&k).y - FOOT < 0.2f);
	/* dropped onto the slope, it slides down to its foot */
	tb_mover_set_position(w, k.mover, tb_v2(1.0f, 5.0f));
	for (int i = 0; i < 120; ++i) frame(&k, 0.0f);
	assert_true(pos(&k).x < 0.3f);
	assert_near(pos(&k).y - FOOT, 0.5f * TB_LINEAR_SLOP, 0.01f);
	tb_destroy_world(w);
}

/* A ledge of `height` at x = 0: with step_height 0.3 it steps onto 0.2 and
 * stays on 0.5's foot. */
static float walk_at_ledge(float height, float *top)
{
	tb_world *w = tu_world(tb_vec2_zero);
	ground_box(w, -10.0f, 10.0f, 0.0f);
	ground_box(w, 0.0f, 10.0f, height);
	walker k = make_walker(w, tb_v2(-3.0f, FOOT + 0.01f), 0.25f * TB_PI, 0.3f);
	for (int i = 0; i < 120; ++i) frame(&k, 4.0f);
	float x = pos(&k).x;
	*top = pos(&k).y - FOOT;
	tb_destroy_world(w);
	return x;
}

static void test_steps(void **state)
{
	(void)state;
	float top;
	assert_true(walk_at_ledge(0.2f, &top) > 3.0f);
	assert_near(top, 0.2f + 0.5f * TB_LINEAR_SLOP, 0.002f);
	assert_true(walk_at_ledge(0.5f, &top) < -0.29f);
	assert_near(top, 0.5f * TB_LINEAR_SLOP, 0.002f);
	/* without step_height even 0.2 stops it */
	tb_world *w = tu_world(tb_vec2_zero);
	ground_box(w, -10.0f, 10.0f, 0.0f);
	ground_box(w, 0.0f, 10.0f, 0.2f);
	walker k = make_walker(w, tb_v2(-3.0f, FOOT + 0.01f), 0.25f * TB_PI, 0.0f);
	for (int i = 0; i < 120; ++i) frame(&k, 4.0f);
	assert_true(pos(&k).x < -0.1f);
	tb_destroy_world(w);
}

/* 30 m of ground as a chain with a vertex every metre, and as 30 boxes side
 * by side: walking at 5 m/s makes 5 m a second, level, always grounded. */
static void test_no_snag_on_tiles(void **state)
{
	(void)state;
	for (int boxes = 0; boxes < 2; ++boxes) {
		tb_world *w = tu_world(tb_vec2_zero);
		tb_body_id g = tu_body(w, TB_STATIC_BODY, tb_vec2_zero);
		if (boxes) {
			for (int i = 0; i < 30; ++i) {
				tb_polygon tile = tb_make_offset_box(0.5f, 0.5f, tb_v2(-5.0f + (float)i + 0.5f, -0.5f), tb_rot_identity);
				tb_shape_def sd = tb_default_shape_def();
				tb_create_polygon_shape(w, g, &sd, &tile, NULL);
			}
		} else {
			tb_vec2 pts[31];
			for (int i = 0; i <= 30; ++i) pts[i] = tb_v2(25.0f - (float)i, 0.0f);
			tb_chain_def cd = tb_default_chain_def();
			cd.points = pts;
			cd.count = 31;
			assert_int_equal(tb_create_chain(w, g, &cd, NULL, 0, NULL), 30);
		}
		walker k = make_walker(w, tb_v2(-4.0f, FOOT + 0.002f), 0.25f * TB_PI, 0.0f);
		frame(&k, 0.0f);
		float lowest = 1e9f, highest = -1e9f;
		for (int i = 0; i < 180; ++i) {
			tb_vec2 done = frame(&k, 5.0f);
			assert_near(done.x, 5.0f * DT, 1e-4);
			lowest = fminf(lowest, pos(&k).y);
			highest = fmaxf(highest, pos(&k).y);
		}
		assert_near(pos(&k).x, -4.0f + 15.0f, 0.01f);
		assert_true(highest - lowest < 0.002f);
		assert_int_equal(k.grounded_frames, 181);
		tb_destroy_world(w);
	}
}

/* Into a wall at 45 degrees: it slides along it at the speed's component. */
static void test_slides_along_walls(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_vec2_zero);
	tb_body_id wall = tu_body(w, TB_STATIC_BODY, tb_v2(2.0f, 0.0f));
	tu_box(w, wall, 0.5f, 20.0f, 1.0f);
	tb_mover_def def = tb_default_mover_def();
	tb_status st;
	tb_mover_id m = tb_create_mover(w, &def, &st);
	tb_vec2 total = tb_vec2_zero;
	for (int i = 0; i < 60; ++i) total = tb_add(total, tb_mover_move(w, m, tb_v2(0.05f, 0.05f)));
	tb_vec2 p = tb_mover_get_position(w, m);
	/* against the wall face x = 1.5, up by the whole vertical motion */
	assert_near(p.x, 1.5f - 0.3f - 0.5f * TB_LINEAR_SLOP, 1e-3);
	assert_near(p.y, 3.0f, 1e-3);
	assert_vec_near(total, p.x, p.y, 1e-5);
	/* a ceiling stops it going up */
	tb_body_id ceiling = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, 5.5f));
	tu_box(w, ceiling, 1.0f, 0.5f, 1.0f);
	tb_mover_set_position(w, m, tb_v2(0.0f, 0.0f));
	for (int i = 0; i < 60; ++i) tb_mover_move(w, m, tb_v2(0.0f, 0.1f));
	assert_near(tb_mover_get_position(w, m).y, 5.0f - 0.8f - 0.5f * TB_LINEAR_SLOP, 1e-3);
	tb_destroy_world(w);
}

/* An elevator moving up and down at 2 m/s and a platform moving sideways:
 * the mover standing on them goes with them, grounded all along. */
static void test_rides_elevator(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_vec2_zero);
	ground_box(w, -10.0f, 10.0f, 0.0f);
	tb_body_id lift = tu_body(w, TB_KINEMATIC_BODY, tb_v2(0.0f, 0.5f));
	tu_box(w, lift, 1.5f, 0.1f, 1.0f);
	walker k = make_walker(w, tb_v2(0.0f, 0.6f + FOOT + 0.01f), 0.25f * TB_PI, 0.0f);
	for (int i = 0; i < 10; ++i) frame(&k, 0.0f);
	const float speeds[4] = {2.0f, -2.0f, 3.5f, -3.0f};
	for (int phase = 0; phase < 4; ++phase) {
		tb_body_set_linear_velocity(w, lift, tb_v2(0.0f, speeds[phase]));
		for (int i = 0; i < 60; ++i) {
			frame(&k, 0.0f);
			float top = tb_body_get_position(w, lift).y + 0.1f;
			/* it lags the lift by at most one step's motion */
			assert_near(pos(&k).y - FOOT, top, fabsf(speeds[phase]) * DT + 0.003f);
			assert_true(tb_mover_is_grounded(w, k.mover));
			assert_near(pos(&k).x, 0.0f, 1e-4);
		}
	}
	/* sideways: carried along, and walking on it adds to that */
	tb_body_set_linear_velocity(w, lift, tb_v2(1.0f, 0.0f));
	float x0 = pos(&k).x, lift0 = tb_body_get_position(w, lift).x;
	for (int i = 0; i < 60; ++i) frame(&k, 0.0f);
	assert_near(pos(&k).x - x0, tb_body_get_position(w, lift).x - lift0, 0.02f);
	tb_destroy_world(w);
}

/* A 1 kg crate with friction 0.3 (3 N at g 10) is pushed along by a 20 N
 * mover; a 100 kg one (300 N) is not, and stops the mover. */
static void test_pushes_crates(void **state)
{
	(void)state;
	for (int heavy = 0; heavy < 2; ++heavy) {
		tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
		ground_box(w, -20.0f, 20.0f, 0.0f);
		tb_body_id crate = tu_body(w, TB_DYNAMIC_BODY, tb_v2(1.0f, 0.5f));
		tb_shape_def sd = tb_default_shape_def();
		sd.friction = 0.3f;
		sd.density = heavy ? 100.0f : 1.0f;
		tu_box_with(w, crate, 0.5f, 0.5f, &sd);
		tu_step(w, 30);
		tb_mover_def def = tb_default_mover_def();
		def.position = tb_v2(-2.0f, FOOT + 0.01f);
		def.push_strength = 20.0f;
		tb_status st;
		walker k = {w, tb_create_mover(w, &def, &st), 0.0f, 0};
		for (int i = 0; i < 120; ++i) frame(&k, 2.0f);
		float crate_x = tb_body_get_position(w, crate).x;
		if (heavy) {
			assert_near(crate_x, 1.0f, 0.01f);
			assert_true(pos(&k).x < 0.5f - 0.29f);
		} else {
			/* reached after 1.1 s, the crate goes ahead at about the walking
			 * speed (friction takes 0.05 m/s a step back) */
			assert_true(crate_x > 2.3f);
			assert_near(tb_body_get_linear_velocity(w, crate).x, 2.0f, 0.15f);
			assert_true(pos(&k).x > 1.5f);
		}
		tb_destroy_world(w);
	}
}

/* Up through a one-way platform, then onto it; a chain is solid from its
 * front only. */
static void test_one_way_platforms(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_vec2_zero);
	ground_box(w, -10.0f, 10.0f, 0.0f);
	tb_body_id p = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, 2.0f));
	tb_shape_def sd = tb_default_shape_def();
	sd.one_way = tb_v2(0.0f, 1.0f);
	tu_box_with(w, p, 2.0f, 0.1f, &sd);
	walker k = make_walker(w, tb_v2(0.0f, FOOT + 0.01f), 0.25f * TB_PI, 0.0f);
	for (int i = 0; i < 10; ++i) frame(&k, 0.0f);
	k.vy = 12.0f; /* rises 3.6 m: its feet clear the platform's top at 2.1 */
	float highest = 0.0f;
	for (int i = 0; i < 120; ++i) {
		float vy = k.vy;
		k.vy = vy - G * DT;
		tb_mover_move(w, k.mover, tb_v2(0.0f, k.vy * DT));
		if (tb_mover_is_grounded(w, k.mover)) k.vy = 0.0f;
		highest = fmaxf(highest, pos(&k).y);
	}
	assert_true(highest - FOOT > 3.0f);
	assert_true(tb_mover_is_grounded(w, k.mover));
	assert_near(pos(&k).y - FOOT, 2.1f + 0.5f * TB_LINEAR_SLOP, 0.002f);
	tb_destroy_world(w);
}

static void test_mover_api(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_vec2_zero);
	tb_mover_def def = tb_default_mover_def();
	tb_status st;
	def.capsule.radius = 0.005f;
	assert_true(TB_IS_NULL(tb_create_mover(w, &def, &st)));
	assert_int_equal(st, TB_ERR_NON_POSITIVE);
	def = tb_default_mover_def();
	def.max_slope = 0.5f * TB_PI;
	assert_true(TB_IS_NULL(tb_create_mover(w, &def, &st)));
	assert_int_equal(st, TB_ERR_INVALID_ARGUMENT);
	def.max_slope = -0.1f;
	assert_true(TB_IS_NULL(tb_create_mover(w, &def, &st)));
	assert_int_equal(st, TB_ERR_NEGATIVE);
	def = tb_default_mover_def();
	def.step_height = NAN;
	assert_true(TB_IS_NULL(tb_create_mover(w, &def, &st)));
	assert_int_equal(st, TB_ERR_INVALID_NUMBER);
	def = tb_default_mover_def();
	def.push_strength = -1.0f;
	assert_true(TB_IS_NULL(tb_create_mover(w, &def, &st)));
	assert_int_equal(st, TB_ERR_NEGATIVE);
	def = tb_default_mover_def();
	def.position = tb_v2(0.0f, 2.0e6f);
	assert_true(TB_IS_NULL(tb_create_mover(w, &def, &st)));
	assert_int_equal(st, TB_ERR_INVALID_NUMBER);
	def = tb_default_mover_def();
	def.capsule.center2 = def.capsule.center1;
	assert_true(TB_IS_NULL(tb_create_mover(w, &def, &st)));
	assert_int_equal(st, TB_ERR_DEGENERATE);

	def = tb_default_mover_def();
	def.position = tb_v2(1.0f, 2.0f);
	tb_mover_id m = tb_create_mover(w, &def, &st);
	assert_int_equal(st, TB_OK);
	assert_int_equal(tb_world_get_movers(w, NULL, 0), 1);
	assert_vec_near(tb_mover_get_position(w, m), 1.0f, 2.0f, 0.0f);
	assert_vec_near(tb_mover_move(w, m, tb_v2(NAN, 0.0f)), 0.0f, 0.0f, 0.0f);
	assert_vec_near(tb_mover_move(w, m, tb_v2(1.0f, -1.0f)), 1.0f, -1.0f, 0.0f);
	assert_int_equal(tb_mover_set_position(w, m, tb_v2(INFINITY, 0.0f)), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_mover_set_position(w, m, tb_v2(5.0f, 5.0f)), TB_OK);
	tb_mover_def d = tb_mover_get_def(w, m);
	assert_vec_near(d.position, 5.0f, 5.0f, 0.0f);
	d.step_height = -1.0f;
	assert_int_equal(tb_mover_set_def(w, m, &d), TB_ERR_NEGATIVE);
	d.step_height = 0.4f;
	d.position = tb_v2(100.0f, 100.0f); /* ignored */
	assert_int_equal(tb_mover_set_def(w, m, &d), TB_OK);
	assert_near(tb_mover_get_def(w, m).step_height, 0.4f, 0.0f);
	assert_vec_near(tb_mover_get_position(w, m), 5.0f, 5.0f, 0.0f);
	/* a huge move stays within the world's coordinates */
	tb_mover_move(w, m, tb_v2(3.0e38f, -3.0e38f));
	tb_vec2 far = tb_mover_get_position(w, m);
	assert_true(fabsf(far.x) <= TB_HUGE && fabsf(far.y) <= TB_HUGE);
	assert_true(tb_world_validate(w));
	tb_destroy_mover(w, m);
	assert_false(tb_mover_is_valid(w, m));
	assert_vec_near(tb_mover_move(w, m, tb_v2(1.0f, 0.0f)), 0.0f, 0.0f, 0.0f);
	assert_int_equal(tb_mover_set_position(w, m, tb_v2(0.0f, 0.0f)), TB_ERR_STALE_HANDLE);
	/* a new one reuses the slot with a new generation; destroy_all takes it */
	tb_mover_id m2 = tb_create_mover(w, &def, &st);
	assert_int_equal(m2.index1, m.index1);
	assert_false(tb_mover_is_valid(w, m));
	assert_int_equal(tb_world_clear(w), TB_OK);
	assert_false(tb_mover_is_valid(w, m2));
	assert_true(tb_world_validate(w));
	tb_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stands_on_ground),
		cmocka_unit_test(test_slopes),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_no_snag_on_tiles),
		cmocka_unit_test(test_slides_along_walls),
		cmocka_unit_test(test_rides_elevator),
		cmocka_unit_test(test_pushes_crates),
		cmocka_unit_test(test_one_way_platforms),
		cmocka_unit_test(test_mover_api),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
