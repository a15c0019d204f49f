/* The awake sets (body.h): the step walks a bit per awake body and per contact
 * or joint with an awake body instead of every slot. These tests hold the bits
 * to the records through every change of a body's state (tb_world_validate
 * compares them slot by slot), show that a sleeping world leaves them empty,
 * and that sleeping bodies elsewhere change no number of the awake ones. */
#include "test_util.h"

#include "world.h"

#ifndef PINNED_SCENE_HASH
#define PINNED_SCENE_HASH 0x9360a6dbe233f3b6ull
#endif

static int bits_set(const tb_u64_array *bits)
{
	int n = 0;
	for (int32_t k = 0; k < bits->count; ++k) n += __builtin_popcountll(bits->data[k]);
	return n;
}

/* A pile of `rows` boxes on the ground at x, and a two-link chain hung from a
 * static pin beside it. */
static void pile_and_chain(tb_world *w, float x, int rows, tb_body_id *top, tb_joint_id *link)
{
	for (int r = 0; r < rows; ++r) *top = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(x, 0.5f + 1.0f * (float)r), 0.5f, 0.5f, 1.0f);
	tb_body_id pin = tu_body(w, TB_STATIC_BODY, tb_v2(x + 3.0f, 6.0f));
	tb_body_id prev = pin;
	for (int i = 0; i < 2; ++i) {
		tb_body_id b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(x + 3.0f, 5.0f - (float)i), 0.1f, 0.5f, 1.0f);
		tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
		jd.body_a = prev;
		jd.body_b = b;
		jd.local_anchor_a = prev.index1 == pin.index1 ? tb_v2(0.0f, 0.0f) : tb_v2(0.0f, -0.5f);
		jd.local_anchor_b = tb_v2(0.0f, 0.5f);
		tb_status st;
		*link = tb_create_joint(w, &jd, &st);
		assert_int_equal(st, TB_OK);
		prev = b;
	}
}

static void step_validated(tb_world *w, int steps)
{
	for (int s = 0; s < steps; ++s) {
		tu_step(w, 1);
		assert_true(tb_world_validate(w));
	}
}

static void test_sets_follow_every_change(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 50.0f);
	tb_body_id top_a, top_b;
	tb_joint_id link_a, link_b;
	pile_and_chain(w, -20.0f, 4, &top_a, &link_a);
	pile_and_chain(w, 20.0f, 4, &top_b, &link_b);
	assert_true(tb_world_validate(w));
	assert_int_equal(bits_set(&w->awake_body_bits), 12);

	/* everything falls asleep: nothing is left for the step to walk */
	for (int s = 0; s < 600 && tb_world_get_counters(w).awake_body_count > 0; ++s) step_validated(w, 1);
	assert_int_equal(tb_world_get_counters(w).awake_body_count, 0);
	assert_int_equal(bits_set(&w->awake_body_bits), 0);
	assert_int_equal(bits_set(&w->active_contact_bits), 0);
	assert_int_equal(bits_set(&w->active_joint_bits), 0);

	/* a box dropped on pile A wakes that island only (its pile, not the chain
	 * or pile B) */
	tb_body_id dropped = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(-20.0f, 5.0f), 0.5f, 0.5f, 1.0f);
	step_validated(w, 40);
	assert_true(tb_body_is_awake(w, top_a));
	assert_false(tb_body_is_awake(w, top_b));
	assert_int_equal(bits_set(&w->active_joint_bits), 0);
	assert_true(bits_set(&w->active_contact_bits) >= 5);

	/* waking a chain link by hand lights its joints */
	tb_body_id link_body = tb_joint_get_def(w, link_b).body_b;
	assert_int_equal(tb_body_set_awake(w, link_body, true), TB_OK);
	assert_true(tb_world_validate(w));
	assert_int_equal(bits_set(&w->active_joint_bits), 2);
	step_validated(w, 2);

	/* type changes, disabling, destroying: the bits follow */
	assert_int_equal(tb_body_set_type(w, top_b, TB_STATIC_BODY), TB_OK);
	assert_true(tb_world_validate(w));
	assert_int_equal(tb_body_set_type(w, top_b, TB_KINEMATIC_BODY), TB_OK);
	assert_true(tb_world_validate(w));
	assert_int_equal(tb_body_set_type(w, top_b, TB_DYNAMIC_BODY), TB_OK);
	assert_true(tb_world_validate(w));
	assert_int_equal(tb_body_set_enabled(w, dropped, false), TB_OK);
	assert_true(tb_world_validate(w));
	step_validated(w, 3);
	assert_int_equal(tb_body_set_enabled(w, dropped, true), TB_OK);
	assert_true(tb_world_validate(w));
	step_validated(w, 3);
	tb_destroy_joint(w, link_a);
	assert_true(tb_world_validate(w));
	tb_destroy_body(w, top_a);
	assert_true(tb_world_validate(w));
	step_validated(w, 3);

	/* a snapshot taken with one island awake, restored after everything slept
	 * and after a body was made in a slot it did not have */
	tb_status st;
	tb_snapshot *snap = tb_world_snapshot(w, &st);
	assert_non_null(snap);
	for (int s = 0; s < 900 && tb_world_get_counters(w).awake_body_count > 0; ++s) step_validated(w, 1);
	assert_int_equal(bits_set(&w->awake_body_bits), 0);
	tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 3.0f), 0.5f, 0.5f, 1.0f);
	assert_int_equal(tb_world_restore(w, snap), TB_OK);
	assert_true(tb_world_validate(w));
	assert_int_equal(bits_set(&w->awake_body_bits), tb_world_get_counters(w).awake_body_count);
	step_validated(w, 5);
	tb_snapshot_free(snap);

	tb_world_clear(w);
	assert_true(tb_world_validate(w));
	assert_int_equal(bits_set(&w->awake_body_bits) + bits_set(&w->active_contact_bits) +
	                     bits_set(&w->active_joint_bits),
	                 0);
	tb_destroy_world(w);
}

/* Piles and chains that fall asleep, are woken by a drop and by hand, and
 * sleep again: 900 steps. The hash was taken with the engine before the awake
 * sets (a walk over every slot, main at a0c2c67): walking the bits visits the
 * same contacts and joints in the same order, so every number is the same.
 * That engine had no contact cache, so the scene runs without it. */
/* not static: the pin was computed by linking this function to the older engine */
uint64_t tu_awake_sets_scene_hash(void);
uint64_t tu_awake_sets_scene_hash(void)
{
	tb_world_def def = tb_default_world_def();
	def.gravity = tb_v2(0.0f, -10.0f);
	def.enable_contact_cache = false;
	tb_world *w = tu_world_with(&def);
	tu_ground(w, 0.0f, 50.0f);
	tb_body_id top_a, top_b;
	tb_joint_id link_a, link_b;
	pile_and_chain(w, -20.0f, 4, &top_a, &link_a);
	pile_and_chain(w, 20.0f, 4, &top_b, &link_b);
	tu_step(w, 300);
	tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(-20.3f, 6.0f), 0.5f, 0.5f, 1.0f);
	tu_step(w, 100);
	tb_body_set_awake(w, tb_joint_get_def(w, link_b).body_b, true);
	tu_step(w, 500);
	uint64_t h = tb_world_hash(w);
	tb_destroy_world(w);
	return h;
}

/* A block of boxes made asleep, no gravity, rammed from the side. A wake in
 * the narrow phase leaves the woken bodies' contacts to the next one, so the
 * wake runs a column a step, as the ram's push does, not through the whole
 * block in the step of the hit; and no sleeping body ever acts as a wall:
 * momentum holds every step. */
static void test_a_hit_wakes_a_sleeping_block_a_column_a_step(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	enum { COLUMNS = 12, ROWS = 6 };
	tb_body_id block[COLUMNS * ROWS];
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.is_awake = false;
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon small = tb_make_box(0.2f, 0.2f);
	for (int i = 0; i < COLUMNS; ++i)
		for (int j = 0; j < ROWS; ++j) {
			bd.position = tb_v2(0.4f * (float)i, 0.4f * (float)j);
			block[i * ROWS + j] = tb_create_body(w, &bd, NULL);
			assert_false(TB_IS_NULL(tb_create_polygon_shape(w, block[i * ROWS + j], &sd, &small, NULL)));
		}
	bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.position = tb_v2(-3.0f, 1.0f);
	bd.linear_velocity = tb_v2(20.0f, 0.0f);
	tb_body_id ram = tb_create_body(w, &bd, NULL);
	sd.density = 8.0f;
	tb_polygon big = tb_make_box(1.0f, 1.0f);
	assert_false(TB_IS_NULL(tb_create_polygon_shape(w, ram, &sd, &big, NULL)));
	float p0 = tb_body_get_mass(w, ram) * 20.0f;

	int hit = -1, last = -1;
	for (int s = 0; s < 60; ++s) {
		step_validated(w, 1);
		int awake = 0, furthest = -1;
		for (int i = 0; i < COLUMNS * ROWS; ++i) {
			if (!tb_body_is_awake(w, block[i])) continue;
			awake += 1;
			if (i / ROWS > furthest) furthest = i / ROWS;
		}
		if (awake > 0 && hit < 0) {
			/* the step of the hit wakes the column hit, and only it */
			hit = s;
			assert_int_equal(awake, ROWS);
			assert_int_equal(furthest, 0);
		}
		/* a column a step at most */
		if (hit >= 0) assert_true(furthest <= s - hit);
		if (awake == COLUMNS * ROWS && last < 0) last = s;
		tb_vec2 p = tb_mul_sv(tb_body_get_mass(w, ram), tb_body_get_linear_velocity(w, ram));
		for (int i = 0; i < COLUMNS * ROWS; ++i)
			p = tb_add(p, tb_mul_sv(tb_body_get_mass(w, block[i]), tb_body_get_linear_velocity(w, block[i])));
		assert_float_equal(p.x, p0, 1e-4f * p0);
		assert_float_equal(p.y, 0.0f, 1e-4f * p0);
	}
	/* and it does reach the far side, a column a step */
	assert_true(hit >= 0);
	assert_int_equal(last, hit + COLUMNS - 1);
	tb_destroy_world(w);
}

static void test_same_numbers_as_every_slot(void **state)
{
	(void)state;
	uint64_t h = tu_awake_sets_scene_hash();
	if (h != PINNED_SCENE_HASH) fail_msg("hash %016llx, pinned %016llx", (unsigned long long)h, (unsigned long long)PINNED_SCENE_HASH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sets_follow_every_change),
		cmocka_unit_test(test_same_numbers_as_every_slot),
		cmocka_unit_test(test_a_hit_wakes_a_sleeping_block_a_column_a_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
