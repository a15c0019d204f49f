/* A world's memory: every allocation goes through the world's allocator, is
 * counted, comes back aligned for SIMD whatever the allocator gives, and
 * running out is a status or a step issue, never a crash, a leak or a world
 * left broken. Also the per-world limits. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "world.h"

/* ---------------- a test allocator ---------------- */

/* Counts blocks and bytes, can fail the Nth allocation (or every one from
 * the Nth on), and hands out blocks that are 8-byte but never 16-byte aligned
 * (wasm32's malloc), with its own header so it can check every free. */
typedef struct test_allocator {
	long calls;     /* allocations asked for so far (frees do not count) */
	long fail_at;   /* 1-based call that fails; 0: none */
	bool fail_rest; /* every call from fail_at on fails */
	long failures;
	long live_blocks;
	size_t live_bytes;
} test_allocator;

#define HEADER 24 /* a 16-aligned malloc block + 24 is 8 mod 16 */

static void *test_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	test_allocator *t = ud;
	if (nsize == 0) {
		if (ptr != NULL) {
			unsigned char *raw = (unsigned char *)ptr - HEADER;
			size_t stored;
			memcpy(&stored, raw, sizeof stored);
			/* the engine frees with the size it allocated */
			if (stored != osize) fail_msg("freed %zu bytes of a %zu-byte block", osize, stored);
			t->live_blocks -= 1;
			t->live_bytes -= stored;
			free(raw);
		}
		return NULL;
	}
	t->calls += 1;
	if (t->fail_at > 0 && (t->calls == t->fail_at || (t->fail_rest && t->calls > t->fail_at))) {
		t->failures += 1;
		return NULL;
	}
	unsigned char *raw = malloc(nsize + HEADER);
	if (raw == NULL) return NULL;
	memcpy(raw, &nsize, sizeof nsize);
	unsigned char *p = raw + HEADER;
	if (((uintptr_t)p & 15u) == 0) fail_msg("the test allocator should hand out misaligned blocks");
	if (ptr != NULL) {
		memcpy(p, ptr, osize < nsize ? osize : nsize);
		test_alloc(ud, ptr, osize, 0);
	}
	t->live_blocks += 1;
	t->live_bytes += nsize;
	return p;
}

static tb_world *new_world(test_allocator *t, const tb_world_limits *limits)
{
	tb_world_def wd = tb_default_world_def();
	wd.alloc = test_alloc;
	wd.alloc_ud = t;
	if (limits) wd.limits = *limits;
	return tb_create_world(&wd);
}

/* ---------------- a scene that touches every allocation ---------------- */

/* Records what the scene made, for the checks after it. */
typedef struct scene {
	tb_body_id bodies[64];
	int body_count;
	int failed; /* creations refused as out of memory */
	int step_issues;
} scene;

static void expect_ok_or_oom(tb_status st)
{
	if (st != TB_OK && st != TB_ERR_OUT_OF_MEMORY) fail_msg("status %d (%s)", (int)st, tb_status_string(st));
}

/* A change between steps: done, or refused as out of memory. */
static void change(tb_world *w, scene *sc, tb_status st)
{
	expect_ok_or_oom(st);
	if (st != TB_OK) sc->failed += 1;
	assert_true(tb_world_validate(w));
}

static tb_body_id body(tb_world *w, scene *sc, tb_body_type type, tb_vec2 p)
{
	tb_body_def bd = tb_default_body_def();
	bd.type = type;
	bd.position = p;
	tb_status st = TB_ERR_INVALID_ARGUMENT;
	tb_body_id id = tb_create_body(w, &bd, &st);
	expect_ok_or_oom(st);
	assert_true(TB_IS_NULL(id) == (st != TB_OK));
	if (st != TB_OK) sc->failed += 1;
	else if (sc->body_count < 64) sc->bodies[sc->body_count++] = id;
	assert_true(tb_world_validate(w));
	return id;
}

static void shape(tb_world *w, scene *sc, tb_body_id b, const tb_geometry *g, bool sensor)
{
	if (TB_IS_NULL(b)) return;
	tb_shape_def sd = tb_default_shape_def();
	sd.is_sensor = sensor;
	tb_status st = TB_ERR_INVALID_ARGUMENT;
	tb_shape_id id = tb_create_shape(w, b, &sd, g, &st);
	expect_ok_or_oom(st);
	assert_true(TB_IS_NULL(id) == (st != TB_OK));
	if (st != TB_OK) sc->failed += 1;
	assert_true(tb_world_validate(w));
}

static tb_geometry box_geometry(float hx, float hy)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_POLYGON;
	g.polygon = tb_make_box(hx, hy);
	return g;
}

static tb_geometry circle_geometry(float r)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CIRCLE;
	g.circle.radius = r;
	return g;
}

static void step(tb_world *w, scene *sc)
{
	tb_world_step(w, 1.0f / 60.0f);
	uint32_t issues = tb_world_get_step_issues(w);
	assert_true((issues & ~(uint32_t)TB_STEP_OUT_OF_MEMORY) == 0);
	if (issues) sc->step_issues += 1;
	assert_true(tb_world_validate(w));
}

/* Ground and a chain, a stack and a pile (contacts and colours), a jointed
 * pair, a sensor and a field, then steps and changes that make and drop
 * proxies, contacts, sensors and pending events. */
static void run_scene(tb_world *w, scene *sc)
{
	tb_geometry ground_box = box_geometry(20.0f, 0.5f);
	tb_body_id ground = body(w, sc, TB_STATIC_BODY, tb_v2(0.0f, -0.5f));
	shape(w, sc, ground, &ground_box, false);
	if (!TB_IS_NULL(ground)) {
		tb_vec2 points[4] = {{-20.0f, 6.0f}, {-15.0f, 0.5f}, {15.0f, 0.5f}, {20.0f, 6.0f}};
		tb_chain_def cd = tb_default_chain_def();
		cd.points = points;
		cd.count = 4;
		tb_status st = TB_ERR_INVALID_ARGUMENT;
		int links = tb_create_chain(w, ground, &cd, NULL, 0, &st);
		assert_true((links < 0) == (st != TB_OK));
		change(w, sc, st);
	}
	tb_geometry small_box = box_geometry(0.5f, 0.5f), ball = circle_geometry(0.3f);
	for (int i = 0; i < 6; ++i) shape(w, sc, body(w, sc, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f + 1.0f * (float)i)), &small_box, false);
	for (int i = 0; i < 8; ++i)
		shape(w, sc, body(w, sc, TB_DYNAMIC_BODY, tb_v2(3.0f + 0.2f * (float)i, 0.3f + 0.7f * (float)i)), &ball, false);

	tb_body_id a = body(w, sc, TB_DYNAMIC_BODY, tb_v2(-4.0f, 3.0f));
	tb_body_id b = body(w, sc, TB_DYNAMIC_BODY, tb_v2(-3.0f, 3.0f));
	shape(w, sc, a, &small_box, false);
	shape(w, sc, b, &ball, false);
	if (!TB_IS_NULL(a) && !TB_IS_NULL(b)) {
		tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
		jd.body_a = a;
		jd.body_b = b;
		jd.local_anchor_a = tb_v2(0.5f, 0.0f);
		jd.local_anchor_b = tb_v2(-0.5f, 0.0f);
		tb_status st = TB_ERR_INVALID_ARGUMENT;
		tb_joint_id j = tb_create_joint(w, &jd, &st);
		assert_true(TB_IS_NULL(j) == (st != TB_OK));
		change(w, sc, st);
	}

	tb_body_id zone = body(w, sc, TB_STATIC_BODY, tb_v2(0.0f, 2.0f));
	tb_geometry zone_box = box_geometry(3.0f, 2.0f);
	shape(w, sc, zone, &zone_box, true);
	if (!TB_IS_NULL(zone)) {
		tb_shape_id s;
		if (tb_body_get_shapes(w, zone, &s, 1) == 1) {
			tb_field f;
			memset(&f, 0, sizeof f);
			f.kind = TB_FIELD_LINEAR;
			f.force = tb_v2(0.0f, 3.0f);
			change(w, sc, tb_shape_set_field(w, s, &f));
		}
	}

	for (int i = 0; i < 20; ++i) step(w, sc);
	/* changes between steps: proxies move trees, bodies go with their contacts */
	if (sc->body_count > 3) {
		change(w, sc, tb_body_set_type(w, sc->bodies[3], TB_KINEMATIC_BODY));
		change(w, sc, tb_body_set_type(w, sc->bodies[3], TB_STATIC_BODY));
		change(w, sc, tb_body_set_enabled(w, sc->bodies[2], false));
		change(w, sc, tb_body_set_enabled(w, sc->bodies[2], true));
		tb_destroy_body(w, sc->bodies[1]);
		assert_true(tb_world_validate(w));
	}
	shape(w, sc, body(w, sc, TB_DYNAMIC_BODY, tb_v2(0.0f, 9.0f)), &ball, false);
	for (int i = 0; i < 10; ++i) step(w, sc);
	change(w, sc, tb_world_clear(w));
	step(w, sc);
}

/* Calls a full, unfailed run makes. */
static long count_calls(void)
{
	test_allocator t;
	memset(&t, 0, sizeof t);
	tb_world *w = new_world(&t, NULL);
	assert_non_null(w);
	scene sc;
	memset(&sc, 0, sizeof sc);
	run_scene(w, &sc);
	assert_int_equal(sc.failed, 0);
	assert_int_equal(sc.step_issues, 0);
	tb_destroy_world(w);
	assert_int_equal(t.live_blocks, 0);
	return t.calls;
}

/* For every N: the Nth allocation fails (or all from the Nth on). Nothing
 * crashes, each failure is a status or a step issue, every operation leaves
 * a valid world, the world goes on once memory is back, and nothing leaks. */
static long runs_failing_in_step, runs_failing_in_creation;

static void run_failing_at(long n, bool fail_rest)
{
	test_allocator t;
	memset(&t, 0, sizeof t);
	t.fail_at = n;
	t.fail_rest = fail_rest;
	tb_world *w = new_world(&t, NULL);
	if (w == NULL) {
		/* only the world's own block can fail this early */
		assert_int_equal(n, 1);
		assert_int_equal(t.live_blocks, 0);
		return;
	}
	scene sc;
	memset(&sc, 0, sizeof sc);
	run_scene(w, &sc);
	assert_true(t.failures > 0);
	if (sc.failed == 0 && sc.step_issues == 0) fail_msg("allocation %ld failed unseen", n);
	if (sc.step_issues > 0) runs_failing_in_step += 1;
	if (sc.failed > 0) runs_failing_in_creation += 1;
	assert_int_equal((long)tb_world_get_allocated_bytes(w), (long)t.live_bytes);

	/* memory is back: the same world builds and steps */
	t.fail_at = 0;
	scene again;
	memset(&again, 0, sizeof again);
	run_scene(w, &again);
	assert_int_equal(again.failed, 0);
	assert_int_equal(again.step_issues, 0);
	tb_destroy_world(w);
	assert_int_equal(t.live_blocks, 0);
	assert_int_equal((long)t.live_bytes, 0);
}

static void test_out_of_memory_at_every_allocation(void **state)
{
	(void)state;
	long calls = count_calls();
	assert_true(calls > 50);
	runs_failing_in_step = runs_failing_in_creation = 0;
	for (long n = 1; n <= calls; ++n) run_failing_at(n, false);
	print_message("# %ld allocations, each failed once: %ld times in a step, %ld in a creation or change\n", calls,
	              runs_failing_in_step, runs_failing_in_creation);
	/* both kinds were met */
	assert_true(runs_failing_in_step > 5 && runs_failing_in_creation > 20);
}

static void test_out_of_memory_for_good(void **state)
{
	(void)state;
	long calls = count_calls();
	for (long n = 1; n <= calls; ++n) run_failing_at(n, true);
}

/* ---------------- accounting and alignment ---------------- */

static void test_allocations_counted_and_aligned(void **state)
{
	(void)state;
	test_allocator t;
	memset(&t, 0, sizeof t);
	tb_world *w = new_world(&t, NULL);
	assert_non_null(w);
	/* a 12-row pyramid: enough contacts for wide blocks in most colours */
	scene sc;
	memset(&sc, 0, sizeof sc);
	tb_geometry ground_box = box_geometry(30.0f, 0.5f), small_box = box_geometry(0.5f, 0.5f);
	shape(w, &sc, body(w, &sc, TB_STATIC_BODY, tb_v2(0.0f, -0.5f)), &ground_box, false);
	for (int r = 0; r < 12; ++r) {
		for (int k = 0; k < 12 - r; ++k) {
			tb_body_def bd = tb_default_body_def();
			bd.type = TB_DYNAMIC_BODY;
			bd.position = tb_v2(-6.0f + 0.5f * (float)r + 1.05f * (float)k, 0.5f + 1.0f * (float)r);
			tb_body_id b = tb_create_body(w, &bd, NULL);
			assert_false(TB_IS_NULL(b));
			shape(w, &sc, b, &small_box, false);
		}
	}
	int most_blocks = 0;
	for (int i = 0; i < 60; ++i) {
		tb_world_step(w, 1.0f / 60.0f);
		most_blocks = tb_maxi(most_blocks, w->graph.blocks.count);
	}
	assert_true(tb_world_validate(w));
	assert_int_equal(sc.failed, 0);
	/* the blocks were used, and every array is aligned for 32-byte loads */
	assert_true(most_blocks > 10);
	const void *arrays[] = {w->bodies.data, w->sims.data, w->shapes.data, w->contacts.data,
	                        w->states.data, w->constraints.data, w->graph.blocks.data, w->graph.order.data,
	                        w->broad_phase.trees[1].nodes, w->broad_phase.pairs.entries, w};
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) {
		assert_non_null(arrays[i]);
		assert_int_equal((uintptr_t)arrays[i] % TB_ALIGNMENT, 0);
	}
	/* the world's count is the allocator's, alignment pads included */
	assert_true(t.live_blocks > 10);
	assert_int_equal((long)tb_world_get_allocated_bytes(w), (long)t.live_bytes);
	tb_destroy_world(w);
	assert_int_equal(t.live_blocks, 0);
}

/* A default world uses the C library, and steady state does not allocate. */
static int compare_ints(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

typedef struct keyed { int32_t key, payload; } keyed;

static int compare_keyed(const void *a, const void *b) { return compare_ints(a, b); }

/* The step's sort (tb_sort: the broad phase's new partners, a sensor's
 * overlaps, an explosion's bodies), which never allocates as qsort may, gives
 * qsort's order: for ints whatever repeats, for records with distinct keys
 * whatever else they carry; on sizes around the broad phase's switch from its
 * insertion sort (32) and past the size where glibc's qsort takes the heap. */
static void test_sort_matches_qsort(void **state)
{
	(void)state;
	const size_t sizes[] = {0, 1, 2, 3, 7, 31, 32, 33, 100, 257, 1000, 4099};
	enum { MAX = 4099 };
	static int32_t mine[MAX], theirs[MAX];
	static keyed kmine[MAX], ktheirs[MAX];
	uint32_t seed = 17;
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
		size_t n = sizes[s];
		for (int pattern = 0; pattern < 5; ++pattern) {
			for (size_t i = 0; i < n; ++i) {
				seed = seed * 1664525u + 1013904223u;
				int32_t r = (int32_t)(seed >> 8);
				/* random, few values (many repeats), sorted, reversed, all equal */
				int32_t x = pattern == 0 ? r : pattern == 1 ? r % 5 : pattern == 2 ? (int32_t)i
				          : pattern == 3 ? -(int32_t)i : 42;
				mine[i] = theirs[i] = x;
				/* distinct keys: a permutation of 0 .. n, by a multiplier prime to n */
				int32_t key = (int32_t)((i * 7919u + (size_t)pattern) % (n > 0 ? n : 1));
				kmine[i] = ktheirs[i] = (keyed){pattern == 2 ? (int32_t)i : pattern == 3 ? (int32_t)(n - i) : key, r};
			}
			tb_sort(mine, n, sizeof mine[0], compare_ints);
			qsort(theirs, n, sizeof theirs[0], compare_ints);
			if (n > 0 && memcmp(mine, theirs, n * sizeof mine[0]) != 0) fail_msg("ints differ (n %zu, %d)", n, pattern);
			for (size_t i = 1; i < n; ++i) assert_true(mine[i - 1] <= mine[i]);
			tb_sort(kmine, n, sizeof kmine[0], compare_keyed);
			qsort(ktheirs, n, sizeof ktheirs[0], compare_keyed);
			if (n > 0 && memcmp(kmine, ktheirs, n * sizeof kmine[0]) != 0)
				fail_msg("records differ (n %zu, %d)", n, pattern);
		}
	}
}

static void test_steady_state_does_not_allocate(void **state)
{
	(void)state;
	test_allocator t;
	memset(&t, 0, sizeof t);
	tb_world *w = new_world(&t, NULL);
	scene sc;
	memset(&sc, 0, sizeof sc);
	tb_geometry ground_box = box_geometry(30.0f, 0.5f), small_box = box_geometry(0.5f, 0.5f);
	shape(w, &sc, body(w, &sc, TB_STATIC_BODY, tb_v2(0.0f, -0.5f)), &ground_box, false);
	for (int i = 0; i < 10; ++i) shape(w, &sc, body(w, &sc, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f + (float)i)), &small_box, false);
	for (int i = 0; i < 30; ++i) tb_world_step(w, 1.0f / 60.0f);
	long before = t.calls;
	for (int i = 0; i < 120; ++i) tb_world_step(w, 1.0f / 60.0f);
	assert_int_equal(t.calls, before);
	tb_destroy_world(w);
	assert_int_equal(t.live_blocks, 0);
}

/* ---------------- limits ---------------- */

static void test_body_shape_joint_limits(void **state)
{
	(void)state;
	test_allocator t;
	memset(&t, 0, sizeof t);
	tb_world_limits limits = {3, 4, 1, 0, 0};
	tb_world *w = new_world(&t, &limits);
	assert_non_null(w);
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	tb_body_id b[3];
	for (int i = 0; i < 3; ++i) {
		bd.position = tb_v2((float)i * 3.0f, 0.0f);
		b[i] = tb_create_body(w, &bd, NULL);
		assert_false(TB_IS_NULL(b[i]));
	}
	tb_status st = TB_OK;
	assert_true(TB_IS_NULL(tb_create_body(w, &bd, &st)));
	assert_int_equal(st, TB_ERR_BODY_LIMIT);
	/* a destroyed body makes room again */
	tb_destroy_body(w, b[2]);
	b[2] = tb_create_body(w, &bd, &st);
	assert_false(TB_IS_NULL(b[2]));
	assert_int_equal(st, TB_OK);

	tb_shape_def sd = tb_default_shape_def();
	tb_circle c = {{0.0f, 0.0f}, 0.5f};
	for (int i = 0; i < 3; ++i) assert_false(TB_IS_NULL(tb_create_circle_shape(w, b[i], &sd, &c, NULL)));
	/* a chain of two links does not fit in the one shape left */
	tb_vec2 points[3] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {2.0f, 0.0f}};
	tb_chain_def cd = tb_default_chain_def();
	cd.points = points;
	cd.count = 3;
	assert_int_equal(tb_create_chain(w, b[0], &cd, NULL, 0, &st), -1);
	assert_int_equal(st, TB_ERR_SHAPE_LIMIT);
	assert_int_equal(tb_world_get_counters(w).shape_count, 3);
	assert_false(TB_IS_NULL(tb_create_circle_shape(w, b[0], &sd, &c, NULL)));
	assert_true(TB_IS_NULL(tb_create_circle_shape(w, b[1], &sd, &c, &st)));
	assert_int_equal(st, TB_ERR_SHAPE_LIMIT);

	tb_joint_def jd = tb_default_joint_def(TB_JOINT_DISTANCE);
	jd.body_a = b[0];
	jd.body_b = b[1];
	assert_false(TB_IS_NULL(tb_create_joint(w, &jd, &st)));
	jd.body_b = b[2];
	assert_true(TB_IS_NULL(tb_create_joint(w, &jd, &st)));
	assert_int_equal(st, TB_ERR_JOINT_LIMIT);
	assert_true(tb_world_validate(w));
	tb_destroy_world(w);
	assert_int_equal(t.live_blocks, 0);
}

/* Circles dropped on one spot want a contact per pair; past the limit the
 * step makes none, says so, and keeps looking (a pair appears once a contact
 * goes). */
static void test_contact_limit(void **state)
{
	(void)state;
	tb_world_limits limits = {0, 0, 0, 10, 0};
	tb_world_def wd = tb_default_world_def();
	wd.limits = limits;
	tb_world *w = tb_create_world(&wd);
	assert_non_null(w);
	tb_shape_def sd = tb_default_shape_def();
	tb_circle c = {{0.0f, 0.0f}, 0.5f};
	for (int i = 0; i < 8; ++i) {
		tb_body_def bd = tb_default_body_def();
		bd.type = TB_DYNAMIC_BODY;
		bd.position = tb_v2(0.1f * (float)i, 0.0f);
		tb_body_id b = tb_create_body(w, &bd, NULL);
		assert_false(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, NULL)));
	}
	tb_world_step(w, 1.0f / 60.0f);
	assert_int_equal(tb_world_get_step_issues(w), TB_STEP_CONTACT_LIMIT);
	assert_int_equal(tb_world_get_counters(w).contact_count, 10);
	assert_true(tb_world_validate(w));
	for (int i = 0; i < 120; ++i) {
		tb_world_step(w, 1.0f / 60.0f);
		assert_true(tb_world_get_counters(w).contact_count <= 10);
		assert_true(tb_world_validate(w));
	}
	tb_destroy_world(w);

	/* the same pile with no limit has all 28 pairs */
	w = tb_create_world(NULL);
	for (int i = 0; i < 8; ++i) {
		tb_body_def bd = tb_default_body_def();
		bd.type = TB_DYNAMIC_BODY;
		bd.position = tb_v2(0.1f * (float)i, 0.0f);
		tb_body_id b = tb_create_body(w, &bd, NULL);
		assert_false(TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, NULL)));
	}
	tb_world_step(w, 1.0f / 60.0f);
	assert_int_equal(tb_world_get_step_issues(w), 0);
	assert_int_equal(tb_world_get_counters(w).contact_count, 28);
	tb_destroy_world(w);
}

/* max_bytes caps the world's memory whatever the allocator would give. */
static void test_byte_limit(void **state)
{
	(void)state;
	test_allocator t;
	memset(&t, 0, sizeof t);
	tb_world_limits limits = {0, 0, 0, 0, 64 * 1024};
	tb_world *w = new_world(&t, &limits);
	assert_non_null(w);
	tb_shape_def sd = tb_default_shape_def();
	tb_circle c = {{0.0f, 0.0f}, 0.5f};
	tb_status st = TB_OK;
	int made = 0;
	for (int i = 0; i < 100000 && st == TB_OK; ++i) {
		tb_body_def bd = tb_default_body_def();
		bd.type = TB_DYNAMIC_BODY;
		bd.position = tb_v2((float)(i % 100) * 2.0f, (float)(i / 100) * 2.0f);
		tb_body_id b = tb_create_body(w, &bd, &st);
		if (st == TB_OK) st = TB_IS_NULL(tb_create_circle_shape(w, b, &sd, &c, &st)) ? st : TB_OK;
		if (st == TB_OK) made += 1;
	}
	assert_int_equal(st, TB_ERR_OUT_OF_MEMORY);
	assert_true(made > 10);
	assert_true(tb_world_get_allocated_bytes(w) <= limits.max_bytes);
	assert_true(tb_world_validate(w));
	/* what could be built can be stepped: creation reserved the step's arrays */
	tb_world_step(w, 1.0f / 60.0f);
	assert_int_equal(tb_world_get_step_issues(w), 0);
	assert_true(tb_world_validate(w));
	assert_true(tb_world_get_allocated_bytes(w) <= limits.max_bytes);
	tb_destroy_world(w);
	assert_int_equal(t.live_blocks, 0);
}

static void test_limits_are_fixed_at_creation(void **state)
{
	(void)state;
	tb_world_def wd = tb_default_world_def();
	wd.limits.max_bodies = 2;
	tb_world *w = tb_create_world(&wd);
	tb_world_def d = tb_world_get_def(w);
	assert_int_equal(d.limits.max_bodies, 2);
	d.limits.max_bodies = 0;
	d.gravity = tb_v2(0.0f, -3.0f);
	assert_int_equal(tb_world_set_def(w, &d), TB_OK);
	assert_int_equal(tb_world_get_def(w).limits.max_bodies, 2);
	assert_near(tb_world_get_def(w).gravity.y, -3.0f, 0.0f);
	tb_destroy_world(w);
	wd.limits.max_bodies = -1;
	assert_null(tb_create_world(&wd));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_allocations_counted_and_aligned),
		cmocka_unit_test(test_sort_matches_qsort),
		cmocka_unit_test(test_steady_state_does_not_allocate),
		cmocka_unit_test(test_out_of_memory_at_every_allocation),
		cmocka_unit_test(test_out_of_memory_for_good),
		cmocka_unit_test(test_body_shape_joint_limits),
		cmocka_unit_test(test_contact_limit),
		cmocka_unit_test(test_byte_limit),
		cmocka_unit_test(test_limits_are_fixed_at_creation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
