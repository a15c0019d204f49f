/* Stability: stacks and pyramids stand still and fall asleep; heavy bodies on
 * light ones; bodies created overlapping; removing a loaded body; an offset
 * tower. */
#include "test_util.h"

#include <stdlib.h>

#define DT TU_DT

/* The fast preset the README offers for big piles that need not be exact:
 * half the substeps, so the contact springs must be half as stiff (the solver
 * caps them at a quarter of the substep rate). */
static tb_world *new_fast_world(void)
{
	tb_world_def wd = tb_default_world_def();
	wd.substeps = 4;
	wd.contact_hertz = 30.0f;
	return tu_world_with(&wd);
}

/* Ground with its top face at y = 0. */
static tb_body_id make_ground(tb_world *w) { return tu_ground(w, 0.0f, 60.0f); }

static int count_awake(tb_world *w, const tb_body_id *ids, int n)
{
	int awake = 0;
	for (int i = 0; i < n; ++i) awake += tb_body_is_awake(w, ids[i]) ? 1 : 0;
	return awake;
}

/* Steps `steps` times and returns the largest distance the watched body got
 * from where it started; *slept_step is the first step after which every body
 * in ids was asleep (-1 if never). */
static float run_watch(tb_world *w, tb_body_id watched, const tb_body_id *ids, int n, int steps, int *slept_step)
{
	tb_vec2 p0 = tb_body_get_position(w, watched);
	float worst = 0.0f;
	*slept_step = -1;
	for (int i = 0; i < steps; ++i) {
		tb_world_step(w, DT);
		float d = tb_distance(p0, tb_body_get_position(w, watched));
		if (d > worst) worst = d;
		if (*slept_step < 0 && count_awake(w, ids, n) == 0) *slept_step = i;
	}
	return worst;
}

/* Contacts are soft springs (Box2D v3's soft step): a stack first settles by
 * load / (effective mass * omega^2) per contact, a few millimetres for boxes
 * of 1 kg, and then must not move at all. Returns the settling depth of the
 * watched body over the first second and its largest movement after it. */
static float run_settle_then_watch(tb_world *w, tb_body_id watched, const tb_body_id *ids, int n, int steps,
                                   int *slept_step, float *settle)
{
	tb_vec2 p0 = tb_body_get_position(w, watched);
	for (int i = 0; i < 60; ++i) tb_world_step(w, DT);
	tb_vec2 p1 = tb_body_get_position(w, watched);
	*settle = tb_distance(p0, p1);
	float worst = run_watch(w, watched, ids, n, steps - 60, slept_step);
	if (*slept_step >= 0) *slept_step += 60;
	return worst;
}

static void make_stack_10(tb_world *w, tb_body_id *ids)
{
	for (int i = 0; i < 10; ++i) ids[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f + (float)i), 0.5f, 0.5f, 1.0f);
}

/* Taken literally, from the moment of creation: the top
 * box of ten 1 m boxes created touching never gets 1 cm from where it was
 * created in 30 s, and the stack falls asleep, upright. Contacts are soft
 * springs (Box2D v3's soft step), so the stack first settles by
 * load / (effective mass * omega^2) per contact; at the default 60 Hz that is
 * 8.2 mm in all (3.2 cm at 30 Hz, see test_fast_preset). */
static void test_box_stack_10(void **state)
{
	(void)state;
	tb_world *w = tu_world_with(NULL);
	make_ground(w);
	tb_body_id ids[10];
	make_stack_10(w, ids);
	int slept;
	float worst = run_watch(w, ids[9], ids, 10, 30 * 60, &slept);
	print_message("# 10-stack: top moved at most %.5f m from creation in 30 s, asleep after step %d\n", worst, slept);
	assert_true(worst < 0.01f);
	assert_true(slept >= 0 && slept < 2 * 60);
	assert_int_equal(count_awake(w, ids, 10), 0);
	for (int i = 0; i < 10; ++i) assert_near(tb_body_get_angle(w, ids[i]), 0.0f, 0.01f);
	tb_destroy_world(w);
}

enum { PYRAMID_ROWS = 20, PYRAMID_COUNT = PYRAMID_ROWS * (PYRAMID_ROWS + 1) / 2 };

/* 20 rows of 1 m boxes, 5 cm apart within a row, bottom row on the ground. */
static void make_pyramid_20(tb_world *w, tb_body_id *ids)
{
	int k = 0;
	for (int row = 0; row < PYRAMID_ROWS; ++row) {
		int n = PYRAMID_ROWS - row;
		for (int j = 0; j < n; ++j) {
			float x = ((float)j - 0.5f * (float)(n - 1)) * 1.05f;
			ids[k++] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(x, 0.5f + (float)row), 0.5f, 0.5f, 1.0f);
		}
	}
	assert_int_equal(k, PYRAMID_COUNT);
}

static void test_pyramid_20(void **state)
{
	(void)state;
	tb_world *w = tu_world_with(NULL);
	make_ground(w);
	tb_body_id ids[PYRAMID_COUNT];
	make_pyramid_20(w, ids);
	int slept;
	float worst = run_watch(w, ids[PYRAMID_COUNT - 1], ids, PYRAMID_COUNT, 30 * 60, &slept);
	print_message("# pyramid: top moved at most %.5f m from creation in 30 s, asleep after step %d\n", worst, slept);
	assert_true(worst < 0.01f);
	assert_true(slept >= 0 && slept < 2 * 60);
	assert_int_equal(count_awake(w, ids, PYRAMID_COUNT), 0);
	tb_destroy_world(w);
}

/* A 4 x 1 box resting on two small 0.5 x 0.5 boxes, mass ratio `ratio` to
 * each; returns the heavy box, the light ones in *a and *b. */
static tb_body_id make_heavy_on_light(tb_world *w, float ratio, tb_body_id *a, tb_body_id *b)
{
	make_ground(w);
	*a = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(-1.5f, 0.25f), 0.25f, 0.25f, 1.0f);
	*b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(1.5f, 0.25f), 0.25f, 0.25f, 1.0f);
	float small = 0.25f;
	tb_body_id top = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 1.0f), 2.0f, 0.5f, ratio * small / 4.0f);
	assert_near(tb_body_get_mass(w, top) / tb_body_get_mass(w, *a), ratio, 1e-3f * ratio);
	return top;
}

static void check_heavy_on_light(float ratio)
{
	tb_world *w = tu_world_with(NULL);
	tb_body_id a, b;
	tb_body_id top = make_heavy_on_light(w, ratio, &a, &b);
	float sag = 0.0f, drift = 0.0f, sag_at_2s = 0.0f;
	for (int i = 0; i < 10 * 60; ++i) {
		tb_world_step(w, DT);
		tb_vec2 p = tb_body_get_position(w, top);
		if (i == 2 * 60) sag_at_2s = sag;
		if (1.0f - p.y > sag) sag = 1.0f - p.y;
		if (fabsf(p.x) > drift) drift = fabsf(p.x);
		float ax = fabsf(tb_body_get_position(w, a).x + 1.5f), bx = fabsf(tb_body_get_position(w, b).x - 1.5f);
		if (ax > drift) drift = ax;
		if (bx > drift) drift = bx;
	}
	print_message("# heavy on light %.0f:1: sag %.5f m (%.5f m at 2 s), drift %.5f m\n", ratio, sag, sag_at_2s, drift);
	/* The soft contacts under the light boxes settle by load / (m_light omega^2):
	 * each contact point carries a quarter of the heavy weight with a quarter
	 * of a light box as effective mass, so sag ~ ratio g / omega^2: 5.6 mm at
	 * 100:1 and 2.7 cm at 400:1 with the default 60 Hz (a rigid solver sinks
	 * less but jitters or explodes here). What must hold is that nothing creeps,
	 * slides or tips once settled. */
	float omega = 2.0f * TB_PI * tb_world_get_def(w).contact_hertz;
	assert_true(sag < 1.1f * ratio * 10.0f / (omega * omega) + 0.005f);
	if (ratio <= 100.0f) assert_true(sag < 0.01f);
	assert_true(sag - sag_at_2s < 0.002f);
	assert_true(drift < 0.02f);
	assert_near(tb_body_get_angle(w, top), 0.0f, 0.01f);
	tb_destroy_world(w);
}

static void test_heavy_on_light(void **state)
{
	(void)state;
	check_heavy_on_light(100.0f);
	check_heavy_on_light(400.0f);
}

/* 20 boxes created at one spot inside a 3 m wide bin: they must separate
 * gently (no explosion) and come to rest. */
static void test_overlapping_creation(void **state)
{
	(void)state;
	tb_world *w = tu_world_with(NULL);
	make_ground(w);
	tu_box_body(w, TB_STATIC_BODY, tb_v2(-2.0f, 5.0f), 0.5f, 5.0f, 1.0f); /* inner face x = -1.5 */
	tu_box_body(w, TB_STATIC_BODY, tb_v2(2.0f, 5.0f), 0.5f, 5.0f, 1.0f);  /* inner face x = +1.5 */
	enum { N = 20 };
	tb_body_id ids[N];
	for (int i = 0; i < N; ++i) ids[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.25f), 0.25f, 0.25f, 1.0f);
	float max_speed = 0.0f, max_up = 0.0f, top = 0.0f;
	for (int i = 0; i < 15 * 60; ++i) {
		tb_world_step(w, DT);
		for (int j = 0; j < N; ++j) {
			float s = tb_length(tb_body_get_linear_velocity(w, ids[j]));
			if (s > max_speed) max_speed = s;
			max_up = fmaxf(max_up, tb_body_get_linear_velocity(w, ids[j]).y);
			tb_vec2 p = tb_body_get_position(w, ids[j]);
			assert_true(tb_is_valid_vec2(p));
			assert_true(fabsf(p.x) < 1.5f && p.y > 0.0f && p.y < 10.0f);
			top = fmaxf(top, p.y + 0.25f);
		}
	}
	print_message("# overlapping: max speed %.3f m/s, upward %.3f m/s, column %.2f m high\n", max_speed, max_up,
	              top);
	/* Exactly coincident boxes separate along one axis into a column that
	 * later topples. The push-out is what goes up: 2.7-3.3 m/s here (it was
	 * 4.7 before a body's budget was halved per contact). The fastest box is
	 * one falling from the column as it topples, which depends on every bit
	 * of how it topples (3.9 to 9.9 m/s measured across engine versions,
	 * presets and the contact cache's reach). A column toppling whole about
	 * its foot is a rod: its top lands at sqrt(3 g h), faster than a fall
	 * from h (sqrt(2 g h)); nothing honest passes the rod's top. The push-out
	 * alone is measured without gravity in test_overlapping_push_out. */
	assert_true(max_up < 4.0f);
	assert_true(max_speed < sqrtf(3.0f * 10.0f * top));
	/* at rest: slow or asleep, and no two boxes deeply overlapping any more */
	for (int j = 0; j < N; ++j) {
		assert_true(tb_length(tb_body_get_linear_velocity(w, ids[j])) < 0.05f);
		for (int k = j + 1; k < N; ++k) {
			tb_vec2 d = tb_sub(tb_body_get_position(w, ids[j]), tb_body_get_position(w, ids[k]));
			assert_true(tb_length(d) > 0.3f);
		}
	}
	tb_destroy_world(w);
}

/* The push-out itself, with nothing else adding speed: 20 boxes in the same
 * bin with gravity off, first all on one spot (the chain of overlaps adds the
 * pushes up: 3.5 m/s at the top of the column; 5.2 before a body's budget
 * was halved per contact), then scattered over 0.4 m (what a user spawning a pile does),
 * with and without gravity. */
static float max_speed_of_spawn(bool gravity, float jitter, uint32_t seed, float *max_up)
{
	tb_world_def wd = tb_default_world_def();
	if (!gravity) wd.gravity = tb_vec2_zero;
	tb_world *w = tb_create_world(&wd);
	assert_non_null(w);
	make_ground(w);
	tu_box_body(w, TB_STATIC_BODY, tb_v2(-2.0f, 5.0f), 0.5f, 5.0f, 1.0f);
	tu_box_body(w, TB_STATIC_BODY, tb_v2(2.0f, 5.0f), 0.5f, 5.0f, 1.0f);
	enum { N = 20 };
	tb_body_id ids[N];
	uint32_t r = seed;
	for (int i = 0; i < N; ++i) {
		r = r * 1103515245u + 12345u;
		float jx = jitter * ((float)((r >> 8) % 1000u) / 1000.0f - 0.5f);
		r = r * 1103515245u + 12345u;
		float jy = jitter * (float)((r >> 8) % 1000u) / 1000.0f;
		ids[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(jx, 0.25f + jy), 0.25f, 0.25f, 1.0f);
	}
	float max_speed = 0.0f;
	*max_up = 0.0f;
	for (int i = 0; i < 15 * 60; ++i) {
		tb_world_step(w, DT);
		for (int j = 0; j < N; ++j) {
			tb_vec2 v = tb_body_get_linear_velocity(w, ids[j]);
			max_speed = fmaxf(max_speed, tb_length(v));
			*max_up = fmaxf(*max_up, v.y);
		}
	}
	tb_destroy_world(w);
	return max_speed;
}

static int compare_floats(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

static void test_overlapping_push_out(void **state)
{
	(void)state;
	float up;
	float coincident = max_speed_of_spawn(false, 0.0f, 12345u, &up);
	print_message("# push-out: coincident %.3f m/s\n", coincident);
	assert_true(coincident < 6.0f);
	/* A scattered spawn is chaotic: which box ends up pinched between which
	 * decides its speed, and any change of the contacts' order (the broad
	 * phase's) draws another sample. So it is judged over twenty spawns, by
	 * the median and the worst. Measured: without gravity the fastest box has
	 * a median 1.1 m/s (worst 4.2); with gravity the fastest upward one a
	 * median 1.1 m/s (worst 3.4). Before the budget was halved per contact
	 * (with a broad-phase margin twice as wide): 1.5 (5.2) and 1.7 (4.1);
	 * before the contacts were made in shape order: 1.8 (6.4) and 2.0 (3.7). */
	enum { SPAWNS = 20 };
	float scattered[SPAWNS], pile[SPAWNS], pile_up[SPAWNS];
	for (int k = 0; k < SPAWNS; ++k) {
		scattered[k] = max_speed_of_spawn(false, 0.4f, 12345u + (uint32_t)k, &up);
		pile[k] = max_speed_of_spawn(true, 0.4f, 12345u + (uint32_t)k, &pile_up[k]);
	}
	qsort(scattered, SPAWNS, sizeof(float), compare_floats);
	qsort(pile, SPAWNS, sizeof(float), compare_floats);
	qsort(pile_up, SPAWNS, sizeof(float), compare_floats);
	float median_scattered = 0.5f * (scattered[SPAWNS / 2 - 1] + scattered[SPAWNS / 2]);
	float median_up = 0.5f * (pile_up[SPAWNS / 2 - 1] + pile_up[SPAWNS / 2]);
	print_message("# push-out over %d spawns: scattered median %.3f worst %.3f m/s; with gravity upward median %.3f "
	              "worst %.3f, fastest box worst %.3f m/s\n",
	              SPAWNS, median_scattered, scattered[SPAWNS - 1], median_up, pile_up[SPAWNS - 1], pile[SPAWNS - 1]);
	assert_true(median_scattered < 2.0f);
	assert_true(scattered[SPAWNS - 1] < 7.0f);
	assert_true(median_up < 2.2f);
	assert_true(pile_up[SPAWNS - 1] < 4.5f);
	/* with gravity the fastest box is one falling back onto the pile */
	assert_true(pile[SPAWNS - 1] < 5.5f);
}

/* A settled stack of six with a heavy box at `heavy_index`; destroying it must
 * not launch anything, and the boxes above it must fall. */
static void check_remove_heavy(int heavy_index)
{
	tb_world *w = tu_world_with(NULL);
	make_ground(w);
	enum { N = 6 };
	tb_body_id ids[N];
	for (int i = 0; i < N; ++i) {
		float density = i == heavy_index ? 100.0f : 1.0f;
		ids[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f + (float)i), 0.5f, 0.5f, density);
	}
	for (int i = 0; i < 4 * 60; ++i) tb_world_step(w, DT);
	tb_destroy_body(w, ids[heavy_index]);
	float max_up = 0.0f;
	for (int i = 0; i < 3 * 60; ++i) {
		tb_world_step(w, DT);
		for (int j = 0; j < N; ++j) {
			if (j == heavy_index) continue;
			float vy = tb_body_get_linear_velocity(w, ids[j]).y;
			if (vy > max_up) max_up = vy;
		}
	}
	print_message("# remove heavy #%d: max upward speed %.4f m/s\n", heavy_index, max_up);
	/* The boxes under a 100 kg box are compressed (soft contacts) and spring
	 * back when it goes: 0.79 m/s when it was on top (1.56 with the fast
	 * preset). The stale warm-start impulses that carried its weight are
	 * dropped on destroy (kept, they would double the kick). Removed from
	 * lower down, the boxes above fall a metre and land (2.2-2.5 m/s is their
	 * hop, see the README); nothing may leave faster than the push-out cap. */
	assert_true(max_up < tb_world_get_def(w).max_contact_push_speed);
	if (heavy_index == N - 1) assert_true(max_up < 1.0f);
	/* the rest is a stack of five again: box j ends at 0.5 + its new level */
	for (int j = 0, level = 0; j < N; ++j) {
		if (j == heavy_index) continue;
		assert_near(tb_body_get_position(w, ids[j]).y, 0.5f + (float)level, 0.03f);
		/* the spring-back (see above) can land a box a few centimetres aside */
		assert_near(tb_body_get_position(w, ids[j]).x, 0.0f, 0.12f);
		++level;
	}
	tb_destroy_world(w);
}

static void test_remove_heavy_body(void **state)
{
	(void)state;
	check_remove_heavy(5); /* on top */
	check_remove_heavy(2); /* in the middle: three boxes drop one metre */
	check_remove_heavy(0); /* at the bottom */
}

static void test_offset_tower_20(void **state)
{
	(void)state;
	tb_world *w = tu_world_with(NULL);
	make_ground(w);
	enum { N = 20 };
	tb_body_id ids[N];
	for (int i = 0; i < N; ++i) {
		float x = (i & 1) ? 0.05f : -0.05f;
		ids[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(x, 0.5f + (float)i), 0.5f, 0.5f, 1.0f);
	}
	int slept;
	float settle;
	float worst = run_settle_then_watch(w, ids[N - 1], ids, N, 10 * 60, &slept, &settle);
	print_message("# offset tower: settled %.5f m, then top moved at most %.5f m\n", settle, worst);
	assert_true(settle < 0.05f);
	assert_true(worst < 0.05f);
	for (int i = 0; i < N; ++i) assert_near(tb_body_get_angle(w, ids[i]), 0.0f, 0.02f);
	tb_destroy_world(w);
}

/* The fast preset (4 substeps, 30 Hz: about 0.75x the solver time) still
 * stands and sleeps, it only settles deeper: the 10-box stack and the pyramid
 * 3.2 and 3.1 cm, the light box under a 100x heavier one 2.2 cm. Once settled,
 * nothing moves. */
static void test_fast_preset(void **state)
{
	(void)state;
	int slept;
	float settle;
	{
		tb_world *w = new_fast_world();
		make_ground(w);
		tb_body_id ids[10];
		make_stack_10(w, ids);
		float worst = run_settle_then_watch(w, ids[9], ids, 10, 30 * 60, &slept, &settle);
		print_message("# fast 10-stack: settled %.5f m, then top moved at most %.5f m, asleep after step %d\n", settle,
		              worst, slept);
		assert_true(settle < 0.04f);
		assert_true(worst < 0.001f);
		assert_true(slept >= 0);
		assert_int_equal(count_awake(w, ids, 10), 0);
		tb_destroy_world(w);
	}
	{
		tb_world *w = new_fast_world();
		make_ground(w);
		tb_body_id ids[PYRAMID_COUNT];
		make_pyramid_20(w, ids);
		float worst = run_settle_then_watch(w, ids[PYRAMID_COUNT - 1], ids, PYRAMID_COUNT, 30 * 60, &slept, &settle);
		print_message("# fast pyramid: settled %.5f m, then top moved at most %.5f m, asleep after step %d\n", settle,
		              worst, slept);
		assert_true(settle < 0.04f);
		assert_true(worst < 0.001f);
		assert_true(slept >= 0);
		assert_int_equal(count_awake(w, ids, PYRAMID_COUNT), 0);
		tb_destroy_world(w);
	}
	{
		tb_world *w = new_fast_world();
		tb_body_id a, b;
		tb_body_id top = make_heavy_on_light(w, 100.0f, &a, &b);
		float sag = 0.0f;
		for (int i = 0; i < 10 * 60; ++i) {
			tb_world_step(w, DT);
			float y = tb_body_get_position(w, top).y;
			if (1.0f - y > sag) sag = 1.0f - y;
		}
		print_message("# fast heavy on light 100:1: sag %.5f m\n", sag);
		assert_true(sag < 0.03f);
		assert_near(tb_body_get_angle(w, top), 0.0f, 0.01f);
		tb_destroy_world(w);
	}
}

/* Sleep is not forever: a sleeping stack wakes when hit and when a supporting
 * box is teleported away. */
/* A card house of 2 mm cards: two A-frames on the ground and a card laid flat
 * across them, a third A-frame on top. It stands for 5 s without a card
 * sliding or turning more than a little, and sleeps; a 2 m plank of 2 mm
 * dropped flat from 1 m lands on the ground and rests there. */
static tb_body_id card(tb_world *w, tb_vec2 p, float angle, float half_length)
{
	tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, p, angle, tb_vec2_zero, 0.0f);
	tb_shape_def sd = tb_default_shape_def();
	sd.density = 700.0f;
	sd.friction = 0.8f;
	tu_box_with(w, b, 0.001f, half_length, &sd);
	return b;
}

static void test_card_house(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 20.0f);
	const float lean = 0.35f, half = 0.1f;
	float reach = half * sinf(lean), height = half * cosf(lean);
	tb_body_id cards[7];
	int n = 0;
	for (int k = 0; k < 2; ++k) {
		float x = k == 0 ? -0.1f : 0.1f;
		cards[n++] = card(w, tb_v2(x - reach, height), -lean, half);
		cards[n++] = card(w, tb_v2(x + reach, height), lean, half);
	}
	float top = 2.0f * height;
	cards[n++] = card(w, tb_v2(0.0f, top + 0.001f), 0.5f * TB_PI, 0.2f);
	cards[n++] = card(w, tb_v2(-reach, top + 0.002f + height), -lean, half);
	cards[n++] = card(w, tb_v2(reach, top + 0.002f + height), lean, half);
	tb_vec2 start[7];
	float angles[7];
	tu_step(w, 30);
	for (int i = 0; i < n; ++i) {
		start[i] = tb_body_get_position(w, cards[i]);
		angles[i] = tb_body_get_angle(w, cards[i]);
	}
	tu_step(w, 300);
	for (int i = 0; i < n; ++i) {
		tb_vec2 p = tb_body_get_position(w, cards[i]);
		assert_near(p.x, start[i].x, 0.005f);
		assert_near(p.y, start[i].y, 0.005f);
		assert_near(tb_body_get_angle(w, cards[i]), angles[i], 0.02f);
		assert_false(tb_body_is_awake(w, cards[i]));
	}
	/* the plank */
	tb_body_id plank = tu_body(w, TB_DYNAMIC_BODY, tb_v2(5.0f, 1.0f));
	tu_box(w, plank, 1.0f, 0.001f, 700.0f);
	tu_step(w, 120);
	assert_near(tb_body_get_position(w, plank).y, 0.001f, 0.0005f);
	assert_near(tb_body_get_angle(w, plank), 0.0f, 0.001f);
	tb_destroy_world(w);
}

static void test_sleeping_stack_wakes(void **state)
{
	(void)state;
	tb_world *w = tu_world_with(NULL);
	make_ground(w);
	tb_body_id ids[3];
	for (int i = 0; i < 3; ++i) ids[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f + (float)i), 0.5f, 0.5f, 1.0f);
	for (int i = 0; i < 3 * 60; ++i) tb_world_step(w, DT);
	assert_int_equal(count_awake(w, ids, 3), 0);
	assert_int_equal(tb_world_get_counters(w).awake_body_count, 0);
	/* moving the bottom box out wakes the island, the others fall */
	tb_body_set_transform(w, ids[0], tb_v2(5.0f, 0.5f), 0.0f);
	assert_true(tb_body_is_awake(w, ids[0]));
	for (int i = 0; i < 2 * 60; ++i) tb_world_step(w, DT);
	assert_near(tb_body_get_position(w, ids[1]).y, 0.5f, 0.03f);
	assert_near(tb_body_get_position(w, ids[2]).y, 1.5f, 0.03f);
	tb_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_box_stack_10),
		cmocka_unit_test(test_pyramid_20),
		cmocka_unit_test(test_heavy_on_light),
		cmocka_unit_test(test_overlapping_creation),
		cmocka_unit_test(test_overlapping_push_out),
		cmocka_unit_test(test_remove_heavy_body),
		cmocka_unit_test(test_offset_tower_20),
		cmocka_unit_test(test_sleeping_stack_wakes),
		cmocka_unit_test(test_card_house),
		cmocka_unit_test(test_fast_preset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
