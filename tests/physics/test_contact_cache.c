/* The contact cache (src/physics/contact.h): a polygon pair that has barely
 * moved against itself since its last full collide has its manifold remade
 * from the same material points instead of collided again. These tests hold
 * a remade manifold to the full collide at the same poses (within the cache's
 * reach), show that a move past the reach collides afresh (the same bits as
 * tb_collide), and that a resting pile, remade nearly everywhere, ends where
 * the same pile collided every step ends. Switched off, the engine computes
 * what it did before the cache: test_awake_sets' pin is taken without it. */
#include "test_util.h"

#include <string.h>

/* How far the cache lets a pair's points move: contact.h's TB_CONTACT_CACHE_REACH. */
#define REACH TB_LINEAR_SLOP

static uint32_t rng_state = 1;
static float rnd(float lo, float hi)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return lo + (hi - lo) * (float)(rng_state >> 8) / 16777216.0f;
}

/* Gravity off, nothing integrated: the pair stays where it is put. */
static tb_world *frozen_world(bool cache)
{
	tb_world_def d = tb_default_world_def();
	d.gravity = tb_vec2_zero;
	d.enable_motion = false;
	d.enable_sleep = false;
	d.enable_contact_cache = cache;
	return tu_world_with(&d);
}

/* The one contact of the world (fails unless there is exactly one), and the
 * full collide of its two shapes in its order, at the bodies' poses. */
/* trial * 10 + phase, for the failure message */
static int stage;
static tb_manifold only_manifold(const tb_world *w, tb_manifold *full)
{
	tb_contact_data data[2];
	int n = tb_world_get_contacts(w, data, 2);
	if (n != 1) fail_msg("%d contacts, 1 expected (stage %d)", n, stage);
	tb_geometry ga = tb_shape_get_geometry(w, data[0].shape_a), gb = tb_shape_get_geometry(w, data[0].shape_b);
	tb_transform xa = tb_body_get_transform(w, tb_shape_get_body(w, data[0].shape_a));
	tb_transform xb = tb_body_get_transform(w, tb_shape_get_body(w, data[0].shape_b));
	*full = tb_collide(&ga, xa, &gb, xb);
	/* the anchors are the points, from each body's origin */
	for (int i = 0; i < data[0].manifold.point_count; ++i) {
		const tb_manifold_point *mp = data[0].manifold.points + i;
		assert_true(tb_length(tb_sub(tb_add(xa.p, mp->anchor_a), mp->point)) < 1e-5f);
		assert_true(tb_length(tb_sub(tb_add(xb.p, mp->anchor_b), mp->point)) < 1e-5f);
	}
	return data[0].manifold;
}

/* The point of a manifold nearest p (the first of equals). */
static int nearest_point(const tb_manifold *m, tb_vec2 p)
{
	int j = 0;
	for (int k = 1; k < m->point_count; ++k)
		if (tb_length(tb_sub(p, m->points[k].point)) < tb_length(tb_sub(p, m->points[j].point))) j = k;
	return j;
}

/* A box of random size and angle resting on another, slightly sunk in,
 * then moved by less than the reach (a slide, a turn, both): the world remakes
 * the manifold, and every point is within the reach of the full collide's,
 * its separation too. Then one move past the reach: collided afresh, the
 * same bits as tb_collide. */
static void test_remade_manifold_is_the_collide_within_reach(void **state)
{
	(void)state;
	rng_state = 7;
	int remade_total = 0;
	for (int trial = 0; trial < 200; ++trial) {
		tb_world *w = frozen_world(true);
		float ha = rnd(0.5f, 3.0f), hb = rnd(0.1f, 1.0f), wb = rnd(0.1f, fminf(1.0f, 0.9f * ha));
		float angle_a = rnd(-3.0f, 3.0f);
		tb_vec2 pa = tb_v2(rnd(-5.0f, 5.0f), rnd(-5.0f, 5.0f));
		tb_rot qa = tb_make_rot(angle_a);
		tb_body_id a = tu_box_body(w, trial % 2 ? TB_STATIC_BODY : TB_DYNAMIC_BODY, pa, ha, 0.5f, 1.0f);
		tb_body_set_transform(w, a, pa, angle_a);
		/* B on A's top face (A's local +y), within it, tilted a little, its
		 * lowest corner sunk 0-3 mm */
		float tilt = rnd(-0.05f, 0.05f), slide = rnd(-0.9f, 0.9f) * (ha - wb);
		float lift = 0.5f + hb * cosf(tilt) + wb * fabsf(sinf(tilt)) - rnd(0.0f, 0.003f);
		tb_vec2 pb = tb_add(pa, tb_rotate(qa, tb_v2(slide, lift)));
		float angle_b = angle_a + tilt;
		tb_body_id b = tu_box_body(w, TB_DYNAMIC_BODY, pb, wb, hb, 1.0f);
		tb_body_set_transform(w, b, pb, angle_b);
		tb_world_step(w, TU_DT);
		stage = trial * 10;
		tb_manifold full, first = only_manifold(w, &full);
		assert_true(first.point_count > 0);
		assert_int_equal(tb_world_get_counters(w).remade_manifold_count, 0);

		/* a move within the reach: any point of B moves at most |d| + |turn| r */
		float r = sqrtf(wb * wb + hb * hb) + 0.05f;
		float turn = rnd(-0.3f, 0.3f) * REACH / r;
		tb_vec2 d = tb_v2(rnd(-0.3f, 0.3f) * REACH, rnd(-0.3f, 0.3f) * REACH);
		tb_body_set_transform(w, b, tb_add(pb, d), angle_b + turn);
		tb_world_step(w, TU_DT);
		int remade = tb_world_get_counters(w).remade_manifold_count;
		remade_total += remade;
		stage = trial * 10 + 1;
		tb_manifold m = only_manifold(w, &full);
		if (remade == 1) {
			/* The same points within the reach. The collide may have taken
			 * B's face as the reference where the cache keeps A's (the faces
			 * are within the turn of each other), so its points may come with
			 * other feature ids and in the other order: each remade point is
			 * matched with the collide's nearest. */
			assert_int_equal(m.point_count, full.point_count);
			for (int i = 0; i < m.point_count; ++i) {
				int j = nearest_point(&full, m.points[i].point);
				if (m.points[i].id == full.points[i].id) assert_int_equal(j, i);
				assert_near(m.points[i].separation, full.points[j].separation, REACH);
				assert_true(tb_length(tb_sub(m.points[i].point, full.points[j].point)) <= 2.0f * REACH);
			}
			/* the remade normal keeps A's frame; the collide's reference face
			 * may be B's, which turned with B */
			assert_true(tb_length(tb_sub(m.normal, full.normal)) < fabsf(turn) + 1e-3f);
		}

		/* past the reach: collided afresh, bit for bit */
		tb_body_set_transform(w, b, tb_add(pb, tb_v2(4.0f * REACH, 0.0f)), angle_b);
		tb_world_step(w, TU_DT);
		assert_int_equal(tb_world_get_counters(w).remade_manifold_count, 0);
		stage = trial * 10 + 2;
		m = only_manifold(w, &full);
		assert_int_equal(m.point_count, full.point_count);
		assert_true(memcmp(&m.normal, &full.normal, sizeof m.normal) == 0);
		for (int i = 0; i < m.point_count; ++i) {
			assert_true(memcmp(&m.points[i].point, &full.points[i].point, sizeof(tb_vec2)) == 0);
			assert_true(memcmp(&m.points[i].anchor_a, &full.points[i].anchor_a, sizeof(tb_vec2)) == 0);
			assert_true(memcmp(&m.points[i].separation, &full.points[i].separation, sizeof(float)) == 0);
			assert_int_equal(m.points[i].id, full.points[i].id);
		}
		tb_destroy_world(w);
	}
	/* nearly every small move is remade (a pair whose second point was cut
	 * off at the clip may be collided instead: never wrongly remade) */
	print_message("# %d of 200 small moves remade\n", remade_total);
	assert_true(remade_total >= 180);
}

/* Switched off, nothing is remade and a moved pair is the collide's, bit for bit. */
static void test_switched_off(void **state)
{
	(void)state;
	tb_world *w = frozen_world(false);
	tu_box_body(w, TB_STATIC_BODY, tb_v2(0.0f, 0.0f), 2.0f, 0.5f, 1.0f);
	tb_body_id b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.3f, 0.999f), 0.5f, 0.5f, 1.0f);
	for (int i = 0; i < 5; ++i) {
		tb_body_set_transform(w, b, tb_v2(0.3f + 1e-5f * (float)i, 0.999f), 0.0f);
		tb_world_step(w, TU_DT);
		assert_int_equal(tb_world_get_counters(w).remade_manifold_count, 0);
		tb_manifold full, m = only_manifold(w, &full);
		assert_int_equal(m.point_count, 2);
		for (int k = 0; k < 2; ++k)
			assert_true(memcmp(&m.points[k].separation, &full.points[k].separation, sizeof(float)) == 0);
	}
	tb_destroy_world(w);
}

/* Round shapes and segments are cached too: a ball rolled a little on a box,
 * on a segment and on another ball, and a capsule slid along a segment, are
 * remade, their points within reach of the full collide's and their
 * separations within min(reach^2 / (2 r), r) of it (contact.h: a rolled
 * ball's point is no longer the same material point). A ball on a chain link
 * is never remade: the link's one-sidedness is decided by a collide. */
static tb_shape_id round_on(tb_world *w, int kind, tb_body_id *out)
{
	tb_shape_def sd = tb_default_shape_def();
	tb_body_id ground = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, 0.0f));
	tb_body_id ball = tu_body(w, TB_DYNAMIC_BODY, tb_v2(0.1f, 0.499f));
	*out = ball;
	tb_circle c = {tb_v2(0.0f, 0.0f), 0.5f};
	tb_segment seg = {tb_v2(-3.0f, 0.0f), tb_v2(3.0f, 0.0f)};
	switch (kind) {
	case 0: tu_box(w, ground, 3.0f, 0.5f, 1.0f), tb_body_set_transform(w, ground, tb_v2(0.0f, -0.5f), 0.0f); break;
	case 1: tb_create_segment_shape(w, ground, &sd, &seg, NULL); break;
	case 2: tb_create_circle_shape(w, ground, &sd, &(tb_circle){tb_v2(0.1f, -0.5f), 0.5f}, NULL); break;
	case 3: {
		tb_capsule cap = {tb_v2(-0.4f, 0.0f), tb_v2(0.4f, 0.0f), 0.25f};
		tb_create_segment_shape(w, ground, &sd, &seg, NULL);
		tb_body_set_transform(w, ball, tb_v2(0.1f, 0.249f), 0.0f);
		return tb_create_capsule_shape(w, ball, &sd, &cap, NULL);
	}
	default: {
		/* a chain whose front faces up: it runs right to left */
		tb_vec2 points[2] = {tb_v2(3.0f, 0.0f), tb_v2(-3.0f, 0.0f)};
		tb_chain_def cd = tb_default_chain_def();
		cd.points = points;
		cd.count = 2;
		tb_shape_id link;
		assert_int_equal(tb_create_chain(w, ground, &cd, &link, 1, NULL), 1);
		break;
	}
	}
	return tb_create_circle_shape(w, ball, &sd, &c, NULL);
}

static void test_round_shapes_are_remade_and_chains_are_not(void **state)
{
	(void)state;
	for (int kind = 0; kind < 5; ++kind) {
		stage = kind;
		tb_world *w = frozen_world(true);
		tb_body_id b;
		tb_shape_id s = round_on(w, kind, &b);
		assert_false(TB_IS_NULL(s));
		float r = kind == 3 ? 0.25f : 0.5f;
		tb_world_step(w, TU_DT);
		tb_manifold full, first = only_manifold(w, &full);
		assert_true(first.point_count > 0);
		/* rolled: the ball turns by what it slid over its radius (the capsule
		 * slides and turns a little) */
		tb_transform xf = tb_body_get_transform(w, b);
		float slide = 0.2f * REACH, turn = -slide / r;
		if (kind == 3) turn = 0.1f * REACH;
		tb_body_set_transform(w, b, tb_add(xf.p, tb_v2(slide, 0.0f)), tb_rot_angle(xf.q) + turn);
		tb_world_step(w, TU_DT);
		int remade = tb_world_get_counters(w).remade_manifold_count;
		tb_manifold m = only_manifold(w, &full);
		if (kind == 4) {
			assert_int_equal(remade, 0);
			tb_destroy_world(w);
			continue;
		}
		assert_int_equal(remade, 1);
		assert_int_equal(m.point_count, full.point_count);
		float off = fminf(REACH * REACH / (2.0f * r), r);
		for (int i = 0; i < m.point_count; ++i) {
			int j = nearest_point(&full, m.points[i].point);
			assert_true(fabsf(m.points[i].separation - full.points[j].separation) <= off + 1e-5f);
			assert_true(tb_length(tb_sub(m.points[i].point, full.points[j].point)) <= 2.0f * REACH);
		}
		tb_destroy_world(w);
	}
}

/* A pyramid of 10 rows, left to settle: with the cache nearly every pair is
 * remade once it rests, and the pile stands where the same pile collided
 * every step stands (within a millimetre), both still. */
static void run_pyramid(bool cache, tb_vec2 *top, int *remade, int *touching, float *max_speed)
{
	tb_world_def d = tb_default_world_def();
	d.enable_sleep = false;
	d.enable_contact_cache = cache;
	tb_world *w = tu_world_with(&d);
	tu_ground(w, 0.0f, 20.0f);
	tb_body_id last = {0};
	enum { ROWS = 10 };
	for (int row = 0; row < ROWS; ++row)
		for (int i = 0; i < ROWS - row; ++i)
			last = tu_box_body(w, TB_DYNAMIC_BODY,
			                   tb_v2(-0.5f * (float)(ROWS - row - 1) + (float)i, 0.5f + (float)row), 0.5f, 0.5f, 1.0f);
	tu_step(w, 300);
	*top = tb_body_get_position(w, last);
	tb_counters c = tb_world_get_counters(w);
	*remade = c.remade_manifold_count;
	*touching = c.touching_contact_count;
	tb_body_id ids[64];
	int n = tb_world_get_bodies(w, ids, 64);
	*max_speed = 0.0f;
	for (int i = 0; i < n; ++i) *max_speed = fmaxf(*max_speed, tb_length(tb_body_get_linear_velocity(w, ids[i])));
	tb_destroy_world(w);
}

static void test_resting_pile_stands_as_without(void **state)
{
	(void)state;
	tb_vec2 top_on, top_off;
	int remade_on, remade_off, touching_on, touching_off;
	float speed_on, speed_off;
	run_pyramid(true, &top_on, &remade_on, &touching_on, &speed_on);
	run_pyramid(false, &top_off, &remade_off, &touching_off, &speed_off);
	print_message("# pyramid of 10 rows after 5 s: top at (%.5f, %.5f) with the cache, (%.5f, %.5f) without; "
	              "%d of %d touching pairs remade\n",
	              top_on.x, top_on.y, top_off.x, top_off.y, remade_on, touching_on);
	assert_int_equal(remade_off, 0);
	assert_int_equal(touching_on, touching_off);
	assert_true(remade_on >= touching_on * 9 / 10);
	assert_true(tb_length(tb_sub(top_on, top_off)) < 1e-3f);
	/* top box of a 10-row pyramid of unit boxes: 9.5 m up when undisturbed */
	assert_near(top_on.y, 9.5f, 0.05f);
	assert_true(speed_on < 0.01f && speed_off < 0.01f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remade_manifold_is_the_collide_within_reach),
		cmocka_unit_test(test_switched_off),
		cmocka_unit_test(test_round_shapes_are_remade_and_chains_are_not),
		cmocka_unit_test(test_resting_pile_stands_as_without),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
