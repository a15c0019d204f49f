/* Determinism: the same scene stepped twice gives bit-identical bodies and the
 * same world hash; a one-body change gives a different hash; and a reference
 * scene's hash is pinned, so a build that computes differently is caught. */
#include "test_util.h"
#include "world.h"

#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)

/* A small fixed-seed generator so the scene does not depend on the C library. */
static uint32_t lcg_next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static float lcg_float(uint32_t *s, float lo, float hi)
{
	return lo + (hi - lo) * (float)(lcg_next(s) & 0xFFFFu) / 65535.0f;
}

static void make_static_box(tb_world *w, tb_vec2 p, float hx, float hy)
{
	tu_box_body(w, TB_STATIC_BODY, p, hx, hy, 1.0f);
}

static tb_body_id add_mixed_body(tb_world *w, int i, uint32_t *seed, tb_vec2 p)
{
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.position = p;
	bd.angle = lcg_float(seed, -3.0f, 3.0f);
	bd.angular_velocity = lcg_float(seed, -2.0f, 2.0f);
	tb_body_id b = tb_create_body(w, &bd, NULL);
	assert_false(TB_IS_NULL(b));
	tb_shape_def sd = tb_default_shape_def();
	sd.friction = lcg_float(seed, 0.2f, 0.8f);
	sd.restitution = lcg_float(seed, 0.0f, 0.3f);
	sd.density = lcg_float(seed, 0.5f, 2.0f);
	float size = lcg_float(seed, 0.2f, 0.45f);
	tb_shape_id s;
	switch (i % 3) {
	case 0: {
		tb_polygon box = tb_make_box(size, size * lcg_float(seed, 0.5f, 1.0f));
		s = tb_create_polygon_shape(w, b, &sd, &box, NULL);
		break;
	}
	case 1: {
		tb_circle c = {{0.0f, 0.0f}, size};
		s = tb_create_circle_shape(w, b, &sd, &c, NULL);
		break;
	}
	default: {
		tb_capsule c = {{-size, 0.0f}, {size, 0.0f}, 0.5f * size};
		s = tb_create_capsule_shape(w, b, &sd, &c, NULL);
		break;
	}
	}
	assert_false(TB_IS_NULL(s));
	return b;
}

typedef struct run_result {
	uint64_t hash;
	uint64_t hash_start;
	int count;
	uint32_t *bits; /* x, y, angle, vx, vy, w per body */
} run_result;

/* 1000 mixed bodies dropped into a 40 m wide bin, stepped 300 times. The body
 * numbered `perturb` (if >= 0) starts 1 mm to the right. */
static run_result run_scene(int bodies, int steps, int perturb)
{
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	assert_non_null(w);
	make_static_box(w, tb_v2(0.0f, -1.0f), 22.0f, 1.0f);
	make_static_box(w, tb_v2(-21.0f, 30.0f), 1.0f, 30.0f);
	make_static_box(w, tb_v2(21.0f, 30.0f), 1.0f, 30.0f);
	uint32_t seed = 12345u;
	tb_body_id *ids = malloc(sizeof(tb_body_id) * (size_t)bodies);
	assert_non_null(ids);
	for (int i = 0; i < bodies; ++i) {
		int col = i % 25, row = i / 25;
		tb_vec2 p = tb_v2(-18.0f + 1.5f * (float)col + lcg_float(&seed, -0.2f, 0.2f), 1.0f + 1.1f * (float)row);
		if (i == perturb) p.x += 0.001f;
		ids[i] = add_mixed_body(w, i, &seed, p);
	}
	run_result r;
	r.hash_start = tb_world_hash(w);
	for (int s = 0; s < steps; ++s) tb_world_step(w, DT);
	r.hash = tb_world_hash(w);
	r.count = bodies;
	r.bits = malloc(sizeof(uint32_t) * 6 * (size_t)bodies);
	assert_non_null(r.bits);
	for (int i = 0; i < bodies; ++i) {
		tb_vec2 p = tb_body_get_position(w, ids[i]);
		tb_vec2 v = tb_body_get_linear_velocity(w, ids[i]);
		float f[6] = {p.x, p.y, tb_body_get_angle(w, ids[i]), v.x, v.y, tb_body_get_angular_velocity(w, ids[i])};
		assert_true(tb_is_valid_vec2(p));
		/* nothing escaped the bin */
		assert_true(p.x > -20.0f && p.x < 20.0f && p.y > 0.0f);
		memcpy(r.bits + 6 * i, f, sizeof f);
	}
	free(ids);
	tb_destroy_world(w);
	return r;
}

static void test_two_runs_identical(void **state)
{
	(void)state;
	run_result a = run_scene(1000, 300, -1);
	run_result b = run_scene(1000, 300, -1);
	assert_true(a.hash_start == b.hash_start);
	assert_true(a.hash == b.hash);
	assert_true(a.hash != a.hash_start); /* the hash follows the state */
	for (int i = 0; i < 6 * a.count; ++i) {
		if (a.bits[i] != b.bits[i]) fail_msg("body %d value %d differs: %08x vs %08x", i / 6, i % 6, a.bits[i], b.bits[i]);
	}

	/* one body 1 mm off: a different world */
	run_result c = run_scene(1000, 300, 500);
	assert_true(c.hash_start != a.hash_start);
	assert_true(c.hash != a.hash);
	int differ = 0;
	for (int i = 0; i < 6 * a.count; ++i) differ += a.bits[i] != c.bits[i];
	assert_true(differ > 0);
	free(a.bits);
	free(b.bits);
	free(c.bits);
}

/* Creation, destruction and property changes in the middle of a run are part of
 * the replay too: the same script gives the same result. */
static uint64_t scripted_run(uint32_t *bits_out, int max_bodies)
{
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	make_static_box(w, tb_v2(0.0f, -1.0f), 22.0f, 1.0f);
	make_static_box(w, tb_v2(-21.0f, 30.0f), 1.0f, 30.0f);
	make_static_box(w, tb_v2(21.0f, 30.0f), 1.0f, 30.0f);
	uint32_t seed = 777u;
	tb_body_id ids[256];
	int n = 0;
	for (int s = 0; s < 240; ++s) {
		if (s % 4 == 0 && n < 200) {
			tb_vec2 p = tb_v2(lcg_float(&seed, -15.0f, 15.0f), 20.0f);
			ids[n] = add_mixed_body(w, n, &seed, p);
			++n;
		}
		if (s % 30 == 17 && n > 10) {
			int k = (int)(lcg_next(&seed) % (uint32_t)n);
			tb_destroy_body(w, ids[k]);
			ids[k] = ids[--n];
		}
		if (s % 50 == 25 && n > 0) {
			int k = (int)(lcg_next(&seed) % (uint32_t)n);
			tb_body_apply_linear_impulse_to_center(w, ids[k], tb_v2(0.0f, 5.0f), true);
			tb_shape_id sh;
			if (tb_body_get_shapes(w, ids[k], &sh, 1) == 1) tb_shape_set_friction(w, sh, 0.1f);
		}
		tb_world_step(w, DT);
	}
	tb_body_id all[512];
	int count = tb_world_get_bodies(w, all, 512);
	assert_true(count <= max_bodies);
	for (int i = 0; i < count; ++i) {
		tb_vec2 p = tb_body_get_position(w, all[i]);
		float a = tb_body_get_angle(w, all[i]);
		memcpy(bits_out + 3 * i, &p.x, 4);
		memcpy(bits_out + 3 * i + 1, &p.y, 4);
		memcpy(bits_out + 3 * i + 2, &a, 4);
	}
	uint64_t h = tb_world_hash(w);
	tb_destroy_world(w);
	return h;
}

static void test_scripted_changes_replay(void **state)
{
	(void)state;
	static uint32_t a[3 * 512], b[3 * 512];
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	uint64_t ha = scripted_run(a, 512);
	uint64_t hb = scripted_run(b, 512);
	assert_true(ha == hb);
	assert_memory_equal(a, b, sizeof a);
}

/* The hash is a pure function of the state: reading it changes nothing and a
 * step with dt = 0 leaves it alone. */
static void test_hash_is_stable(void **state)
{
	(void)state;
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	uint32_t seed = 1u;
	tb_body_id b = add_mixed_body(w, 0, &seed, tb_v2(0.0f, 5.0f));
	uint64_t h0 = tb_world_hash(w);
	assert_true(h0 == tb_world_hash(w));
	tb_world_step(w, 0.0f);
	assert_true(h0 == tb_world_hash(w));
	tb_world_step(w, DT);
	uint64_t h1 = tb_world_hash(w);
	assert_true(h1 != h0);
	/* velocity alone changes it */
	tb_body_set_linear_velocity(w, b, tb_v2(1.0f, 0.0f));
	assert_true(tb_world_hash(w) != h1);
	tb_destroy_world(w);
}

/* ---------------- the pinned reference ---------------- */

/* Every part of the step in one scene: a bin of mixed bodies on a chain
 * floor, a pendulum of revolute links, a prismatic slider with motor and
 * limits, a distance spring, a soft weld, a bullet, and a radial field. */
static tb_world *reference_scene(void)
{
	tb_world *w = tb_create_world(NULL);
	assert_non_null(w);
	tb_body_def bd = tb_default_body_def();
	tb_body_id ground = tb_create_body(w, &bd, NULL);
	/* right to left: a chain is solid on the side its right-hand normal faces, up here */
	tb_vec2 floor[5] = {{22.0f, 30.0f}, {20.0f, 0.0f}, {0.0f, -1.0f}, {-20.0f, 0.0f}, {-22.0f, 30.0f}};
	tb_chain_def cd = tb_default_chain_def();
	cd.points = floor;
	cd.count = 5;
	assert_int_equal(tb_create_chain(w, ground, &cd, NULL, 0, NULL), 4);
	uint32_t seed = 2026u;
	for (int i = 0; i < 200; ++i) {
		tb_vec2 p = tb_v2(-15.0f + 1.5f * (float)(i % 20) + lcg_float(&seed, -0.2f, 0.2f), 2.0f + 1.2f * (float)(i / 20));
		add_mixed_body(w, i, &seed, p);
	}

	/* a pendulum of eight links hung from the ground */
	tb_body_id prev = ground;
	tb_vec2 pivot = tb_v2(-8.0f, 25.0f);
	for (int i = 0; i < 8; ++i) {
		bd = tb_default_body_def();
		bd.type = TB_DYNAMIC_BODY;
		bd.position = tb_v2(pivot.x + 0.5f + (float)i, pivot.y);
		tb_body_id link = tb_create_body(w, &bd, NULL);
		tb_shape_def sd = tb_default_shape_def();
		tb_capsule c = {{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.1f};
		assert_false(TB_IS_NULL(tb_create_capsule_shape(w, link, &sd, &c, NULL)));
		tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
		jd.body_a = prev;
		jd.body_b = link;
		jd.local_anchor_a = tb_body_get_local_point(w, prev, tb_v2(pivot.x + (float)i, pivot.y));
		jd.local_anchor_b = tb_v2(-0.5f, 0.0f);
		if (i == 0) {
			jd.enable_limit = true;
			jd.lower = -1.0f;
			jd.upper = 1.0f;
		}
		assert_false(TB_IS_NULL(tb_create_joint(w, &jd, NULL)));
		prev = link;
	}
	/* a slider, a spring, a weld */
	uint32_t s2 = 9u;
	tb_body_id slider = add_mixed_body(w, 0, &s2, tb_v2(8.0f, 22.0f));
	tb_joint_def pj = tb_default_joint_def(TB_JOINT_PRISMATIC);
	pj.body_a = ground;
	pj.body_b = slider;
	pj.local_anchor_a = tb_v2(8.0f, 22.0f);
	pj.local_axis_a = tb_v2(1.0f, 0.3f);
	pj.enable_motor = true;
	pj.motor_speed = 2.0f;
	pj.max_motor_force = 50.0f;
	pj.enable_limit = true;
	pj.lower = -2.0f;
	pj.upper = 3.0f;
	assert_false(TB_IS_NULL(tb_create_joint(w, &pj, NULL)));
	tb_body_id bob = add_mixed_body(w, 1, &s2, tb_v2(12.0f, 20.0f));
	tb_joint_def dj = tb_default_joint_def(TB_JOINT_DISTANCE);
	dj.body_a = slider;
	dj.body_b = bob;
	dj.length = 3.0f;
	dj.enable_spring = true;
	dj.hertz = 3.0f;
	dj.damping_ratio = 0.1f;
	dj.max_length = 4.0f;
	assert_false(TB_IS_NULL(tb_create_joint(w, &dj, NULL)));
	tb_body_id tail = add_mixed_body(w, 2, &s2, tb_v2(13.0f, 20.0f));
	tb_joint_def wj = tb_default_joint_def(TB_JOINT_WELD);
	wj.body_a = bob;
	wj.body_b = tail;
	wj.local_anchor_a = tb_v2(0.5f, 0.0f);
	wj.local_anchor_b = tb_v2(-0.5f, 0.0f);
	wj.angular_hertz = 4.0f;
	wj.angular_damping_ratio = 0.5f;
	assert_false(TB_IS_NULL(tb_create_joint(w, &wj, NULL)));

	/* a bullet thrown at the pile, and a field pushing out of the middle */
	bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.is_bullet = true;
	bd.position = tb_v2(-19.0f, 10.0f);
	bd.linear_velocity = tb_v2(60.0f, -5.0f);
	tb_body_id bullet = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_circle c = {{0.0f, 0.0f}, 0.1f};
	assert_false(TB_IS_NULL(tb_create_circle_shape(w, bullet, &sd, &c, NULL)));
	bd = tb_default_body_def();
	bd.position = tb_v2(0.0f, 4.0f);
	tb_body_id zone = tb_create_body(w, &bd, NULL);
	sd.is_sensor = true;
	tb_circle area = {{0.0f, 0.0f}, 3.0f};
	tb_shape_id field_shape = tb_create_circle_shape(w, zone, &sd, &area, NULL);
	tb_field f;
	memset(&f, 0, sizeof f);
	f.kind = TB_FIELD_RADIAL;
	f.strength = 15.0f;
	f.falloff = TB_FALLOFF_LINEAR;
	assert_int_equal(tb_shape_set_field(w, field_shape, &f), TB_OK);
	return w;
}

/* The hash of the reference scene after 300 steps, pinned: a compiler, flag
 * or platform change that breaks determinism fails here, not only a
 * comparison of two runs in one process. Update it on purpose, in the commit
 * that changes the solver, and say why there. */
#define TB_REFERENCE_HASH 0x18510bf8e6477190ull

static void test_pinned_reference_hash(void **state)
{
	(void)state;
	tb_world *w = reference_scene();
	for (int i = 0; i < 300; ++i) tb_world_step(w, DT);
	uint64_t h = tb_world_hash(w);
	tb_counters c = tb_world_get_counters(w);
	/* a scene that still makes sense: everything inside the bin */
	static tb_body_id all[256];
	int n = tb_world_get_bodies(w, all, 256);
	for (int i = 0; i < n; ++i) {
		tb_vec2 p = tb_body_get_position(w, all[i]);
		assert_true(p.x > -22.0f && p.x < 22.0f && p.y > -1.5f);
	}
	tb_destroy_world(w);
	print_message("# reference scene: hash %016llx, %d bodies, %d touching contacts, %d joints, %d awake\n",
	              (unsigned long long)h, c.body_count, c.touching_contact_count, c.joint_count, c.awake_body_count);
	if (h != TB_REFERENCE_HASH)
		fail_msg("reference hash %016llx, pinned %016llx: the engine's results changed",
		         (unsigned long long)h, (unsigned long long)TB_REFERENCE_HASH);
}

/* Box2D v3's large_pyramid at the size of its debug build (base 20, 210
 * boxes, the bench's scene otherwise), 120 steps at v3's settings, on every
 * solver path this machine has: the same bits on each, and pinned. The
 * pyramid fills its colours with blocks of eight and more, so every lane of
 * every path is used. */
#define TB_PYRAMID_HASH 0xbd7832cfdfb7311bull

/* Whether this build and CPU have the path (said in the output when not). */
static bool path_available(tb_solver_path path)
{
	tb_world *probe = tu_world(tb_v2(0.0f, -10.0f));
	bool available = tb_world_set_solver_path(probe, path) == TB_OK;
	tb_destroy_world(probe);
	if (!available) print_message("# %s: not on this machine\n", tb_solver_path_name(path));
	return available;
}

static uint64_t pyramid_hash(tb_solver_path path, int *touching)
{
	tb_world_def wd = tb_default_world_def();
	wd.substeps = 4;
	wd.contact_hertz = 30.0f;
	wd.enable_sleep = false;
	tb_world *w = tu_world_with(&wd);
	assert_int_equal(tb_world_set_solver_path(w, path), TB_OK);
	tb_body_id ground = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f));
	tu_box(w, ground, 100.0f, 1.0f, 0.0f);
	const int base = 20;
	for (int i = 0; i < base; ++i) {
		float y = (2.0f * (float)i + 1.0f) * 0.5f;
		for (int j = i; j < base; ++j) {
			float x = ((float)i + 1.0f) * 0.5f + 2.0f * (float)(j - i) * 0.5f - 0.5f * (float)base;
			tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(x, y), 0.5f, 0.5f, 1.0f);
		}
	}
	for (int i = 0; i < 120; ++i) tb_world_step(w, DT);
	uint64_t h = tb_world_hash(w);
	*touching = tb_world_get_counters(w).touching_contact_count;
	tb_destroy_world(w);
	return h;
}

static void test_every_solver_path_same_bits(void **state)
{
	(void)state;
	const tb_solver_path paths[] = {TB_SOLVER_PATH_SCALAR, TB_SOLVER_PATH_SSE2, TB_SOLVER_PATH_AVX2,
	                                TB_SOLVER_PATH_AVX512};
	int tested = 0;
	for (int i = 0; i < 4; ++i) {
		if (!path_available(paths[i])) continue;
		int touching;
		uint64_t h = pyramid_hash(paths[i], &touching);
		print_message("# pyramid (base 20) after 120 steps, %s path: hash %016llx, %d touching contacts\n",
		              tb_solver_path_name(paths[i]), (unsigned long long)h, touching);
		if (h != TB_PYRAMID_HASH)
			fail_msg("%s path: hash %016llx, pinned %016llx", tb_solver_path_name(paths[i]), (unsigned long long)h,
			         (unsigned long long)TB_PYRAMID_HASH);
		tested += 1;
	}
	assert_true(tested >= 2); /* scalar and SSE2 (or its plain fallback) everywhere */
}

/* A grid of circles hung on pins (revolute joints with nothing else), 16 by
 * 16, the top corners on a static anchor, 90 steps at the defaults: the pins
 * go into blocks of eight (solver.c) and every path gives the same bits,
 * pinned. The circles do not collide, so only the pins act. */
#define TB_PIN_GRID_HASH 0x81f3356ca6e25a7cull

static uint64_t pin_grid_hash(tb_solver_path path, int32_t *blocks, int32_t *full_blocks, int32_t *in_blocks,
                              float *lowest)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	assert_int_equal(tb_world_set_solver_path(w, path), TB_OK);
	tb_body_id anchor = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, 0.0f));
	enum { N = 16 };
	tb_body_id grid[N][N];
	tb_shape_def sd = tb_default_shape_def();
	sd.filter.category_bits = 2;
	sd.filter.mask_bits = ~(uint64_t)2;
	for (int i = 0; i < N; ++i) {
		for (int j = 0; j < N; ++j) {
			grid[i][j] = tu_body(w, TB_DYNAMIC_BODY, tb_v2((float)j, -(float)i));
			tu_circle_with(w, grid[i][j], 0.4f, &sd);
			tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
			jd.local_anchor_b = tb_v2(0.0f, 0.0f);
			if (i > 0) {
				jd.body_a = grid[i - 1][j];
				jd.body_b = grid[i][j];
				jd.local_anchor_a = tb_v2(0.0f, -1.0f);
				assert_false(TB_IS_NULL(tb_create_joint(w, &jd, NULL)));
			}
			if (j > 0) {
				jd.body_a = grid[i][j - 1];
				jd.body_b = grid[i][j];
				jd.local_anchor_a = tb_v2(1.0f, 0.0f);
				assert_false(TB_IS_NULL(tb_create_joint(w, &jd, NULL)));
			}
			if (i == 0 && (j == 0 || j == N - 1)) {
				jd.body_a = anchor;
				jd.body_b = grid[i][j];
				jd.local_anchor_a = tb_v2((float)j, 0.0f);
				assert_false(TB_IS_NULL(tb_create_joint(w, &jd, NULL)));
			}
		}
	}
	for (int i = 0; i < 90; ++i) tb_world_step(w, DT);
	*blocks = w->pin_blocks.count;
	*full_blocks = *in_blocks = 0;
	for (int32_t b = 0; b < w->pin_blocks.count; ++b) {
		*full_blocks += w->pin_blocks.data[b].lane_count == TB_BLOCK_LANES;
		*in_blocks += w->pin_blocks.data[b].lane_count;
	}
	*lowest = tb_body_get_position(w, grid[N - 1][N / 2]).y;
	uint64_t h = tb_world_hash(w);
	tb_destroy_world(w);
	return h;
}

static void test_pin_blocks_same_bits_on_every_path(void **state)
{
	(void)state;
	const tb_solver_path paths[] = {TB_SOLVER_PATH_SCALAR, TB_SOLVER_PATH_SSE2, TB_SOLVER_PATH_AVX2,
	                                TB_SOLVER_PATH_AVX512};
	int tested = 0;
	for (int i = 0; i < 4; ++i) {
		if (!path_available(paths[i])) continue;
		int32_t blocks, full, in_blocks;
		float lowest;
		uint64_t h = pin_grid_hash(paths[i], &blocks, &full, &in_blocks, &lowest);
		print_message("# pin grid 16x16 after 90 steps, %s path: hash %016llx, %d pins in %d blocks (%d full), "
		              "bottom centre at y = %.3f\n",
		              tb_solver_path_name(paths[i]), (unsigned long long)h, in_blocks, blocks, full, (double)lowest);
		/* 480 pins and 2 to the anchor, each in a block (no body has 64 pins),
		 * blocks of every width; the grid hangs (it sags, it does not fall) */
		assert_int_equal(in_blocks, 482);
		assert_true(full > 0 && full < blocks);
		assert_true(lowest > -15.0f - 3.0f && lowest < -15.0f + 8.0f);
		if (h != TB_PIN_GRID_HASH)
			fail_msg("%s path: hash %016llx, pinned %016llx", tb_solver_path_name(paths[i]), (unsigned long long)h,
			         (unsigned long long)TB_PIN_GRID_HASH);
		tested += 1;
	}
	assert_true(tested >= 2);
}

/* ---- the broad phase's walk of a rebuilt tree against the queries ---- */

/* A tumbler: a spinning kinematic box of 300 mixed bodies, so that nearly
 * every proxy moves each step (the movable tree is rebuilt and its pairs are
 * found by one walk), with what the pair tests decide on: a group that never
 * collides, a category another one masks out, sensors, jointed neighbours, a
 * static body teleported now and then (its shape moves in the static tree),
 * and at step 40 a hundred boxes made on one spot (more new pairs than the
 * walk's list holds). */
static tb_world *pair_scene(bool queries_only, tb_body_id *spot_anchor)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	w->broad_phase.queries_only = queries_only;
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_KINEMATIC_BODY;
	bd.angular_velocity = 0.8f;
	tb_body_id box = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	const float walls[4][4] = {{0, -8, 8, 0.5f}, {0, 8, 8, 0.5f}, {-8, 0, 0.5f, 8}, {8, 0, 0.5f, 8}};
	for (int i = 0; i < 4; ++i) {
		tb_polygon p = tb_make_offset_box(walls[i][2], walls[i][3], tb_v2(walls[i][0], walls[i][1]), tb_rot_identity);
		assert_false(TB_IS_NULL(tb_create_polygon_shape(w, box, &sd, &p, NULL)));
	}
	uint32_t seed = 777u;
	tb_body_id prev = box;
	for (int i = 0; i < 300; ++i) {
		tb_vec2 p = tb_v2(-6.5f + 0.9f * (float)(i % 15), -6.5f + 0.65f * (float)(i / 15));
		tb_body_id b = add_mixed_body(w, i, &seed, p);
		tb_shape_id s;
		assert_int_equal(tb_body_get_shapes(w, b, &s, 1), 1);
		tb_filter f = tb_shape_get_filter(w, s);
		if (i % 7 == 0) f.group_index = -3;
		if (i % 11 == 0) f.category_bits = 4, f.mask_bits = ~(uint64_t)4;
		if (i % 13 == 0) f.group_index = 5, f.mask_bits = 0;
		assert_int_equal(tb_shape_set_filter(w, s, f), TB_OK);
		if (i % 17 == 0) {
			tb_shape_def sens = tb_default_shape_def();
			sens.is_sensor = true;
			tb_circle c = {{0.0f, 0.0f}, 0.6f};
			assert_false(TB_IS_NULL(tb_create_circle_shape(w, b, &sens, &c, NULL)));
		}
		if (i % 15 != 0 && i % 5 == 0) {
			tb_joint_def jd = tb_default_joint_def(TB_JOINT_DISTANCE);
			jd.body_a = prev;
			jd.body_b = b;
			jd.length = 0.9f;
			assert_false(TB_IS_NULL(tb_create_joint(w, &jd, NULL)));
		}
		prev = b;
	}
	*spot_anchor = tu_box_body(w, TB_STATIC_BODY, tb_v2(0.0f, 0.0f), 0.3f, 0.3f, 1.0f);
	return w;
}

static void pair_scene_step(tb_world *w, int step, tb_body_id anchor)
{
	if (step % 10 == 5) {
		/* the static box jumps about inside the tumbler */
		float t = (float)step;
		assert_int_equal(tb_body_set_transform(w, anchor, tb_v2(3.0f * sinf(t), 3.0f * cosf(t)), t), TB_OK);
	}
	if (step == 40) {
		for (int i = 0; i < 100; ++i) tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(1.0f, 1.0f), 0.2f, 0.2f, 1.0f);
	}
	tb_world_step(w, 1.0f / 30.0f);
}

static void test_pair_walk_finds_what_the_queries_find(void **state)
{
	(void)state;
	tb_body_id anchor_a, anchor_b;
	tb_world *a = pair_scene(false, &anchor_a), *b = pair_scene(true, &anchor_b);
	int walked = 0, touching = 0;
	bool gave_way = false;
	for (int step = 0; step < 120; ++step) {
		pair_scene_step(a, step, anchor_a);
		pair_scene_step(b, step, anchor_b);
		assert_false(b->broad_phase.walked);
		walked += a->broad_phase.walked;
		if (step == 40) gave_way = !a->broad_phase.walked;
		/* the same contacts in the same slots, then the same bits */
		assert_int_equal(a->contacts.count, b->contacts.count);
		for (int32_t k = 0; k < a->contacts.count; ++k) {
			const tb_contact *ca = a->contacts.data + k, *cb = b->contacts.data + k;
			assert_int_equal(ca->shape_a, cb->shape_a);
			assert_int_equal(ca->shape_b, cb->shape_b);
			assert_int_equal(ca->flags, cb->flags);
			touching += ca->manifold.point_count > 0;
		}
		if (tb_world_hash(a) != tb_world_hash(b)) fail_msg("step %d: the walk's world differs", step);
	}
	print_message("# pair walk: %d of 120 steps walked the rebuilt tree, %d touching contacts summed\n", walked,
	              touching);
	/* the walk was taken nearly every step, and gave way when a hundred boxes appeared on one spot */
	assert_true(walked >= 100);
	assert_true(gave_way);
	assert_true(touching > 120 * 300);
	assert_true(tb_world_validate(a));
	tb_destroy_world(a);
	tb_destroy_world(b);
}

/* A pile with every kind of surface mixed in: a conveyor floor, bouncing
 * boxes, rolling balls with rolling resistance and plain boxes, so a colour's
 * blocks are plain and surfaced side by side (the AVX-512 path pairs the
 * plain ones and takes the others alone). Every path gives the same bits. */
static uint64_t surfaces_hash(tb_solver_path path, int *touching)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	assert_int_equal(tb_world_set_solver_path(w, path), TB_OK);
	tb_body_id ground = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f));
	tb_shape_def floor = tb_default_shape_def();
	floor.tangent_speed = 1.5f;
	tu_box_with(w, ground, 30.0f, 1.0f, &floor);
	for (int i = 0; i < 240; ++i) {
		tb_vec2 p = tb_v2(-12.0f + 1.05f * (float)(i % 24), 0.6f + 1.1f * (float)(i / 24));
		tb_body_id b = tu_body(w, TB_DYNAMIC_BODY, p);
		tb_shape_def def = tb_default_shape_def();
		switch (i % 7) {
		case 1: def.restitution = 0.6f; break;
		case 3: def.rolling_resistance = 0.2f; break;
		default: break;
		}
		if (i % 7 == 3) tu_circle_with(w, b, 0.45f, &def);
		else tu_box_with(w, b, 0.45f, 0.45f, &def);
	}
	for (int i = 0; i < 150; ++i) tb_world_step(w, DT);
	uint64_t h = tb_world_hash(w);
	*touching = tb_world_get_counters(w).touching_contact_count;
	tb_destroy_world(w);
	return h;
}

static void test_surfaces_same_bits_on_every_path(void **state)
{
	(void)state;
	int touching = 0;
	uint64_t scalar = surfaces_hash(TB_SOLVER_PATH_SCALAR, &touching);
	print_message("# surfaces pile after 150 steps, scalar path: hash %016llx, %d touching contacts\n",
	              (unsigned long long)scalar, touching);
	assert_true(touching > 300);
	for (int p = TB_SOLVER_PATH_SSE2; p < TB_SOLVER_PATH_COUNT; ++p) {
		if (!path_available((tb_solver_path)p)) continue;
		int t;
		uint64_t h = surfaces_hash((tb_solver_path)p, &t);
		print_message("# %s path: hash %016llx\n", tb_solver_path_name((tb_solver_path)p), (unsigned long long)h);
		if (h != scalar)
			fail_msg("%s path: hash %016llx, scalar %016llx", tb_solver_path_name((tb_solver_path)p),
			         (unsigned long long)h, (unsigned long long)scalar);
	}
}

/* A shape that finds many new partners at once (more than the broad phase's
 * insertion sort takes: 300 here) makes its contacts in its partners' shape
 * order, whatever order the tree gave them in (the static circles are made in
 * a scrambled order of their places, so the tree's order is not theirs), and
 * the sort that puts them in order does not allocate (tb_sort). */
static void test_many_new_partners_in_shape_order(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	enum { SIDE = 20, COUNT = SIDE * SIDE - 100 };
	int32_t first_shape = -1;
	for (int k = 0; k < COUNT; ++k) {
		int cell = (k * 7 + 3) % (SIDE * SIDE); /* 7 is prime to 400: distinct cells */
		tb_vec2 p = tb_v2(-9.5f + (float)(cell % SIDE), -9.5f + (float)(cell / SIDE));
		tb_body_id b = tu_circle_body(w, TB_STATIC_BODY, p, 0.2f, 1.0f);
		if (k == 0) first_shape = tu_first_shape(w, b).index1 - 1;
	}
	tb_world_step(w, DT); /* the circles are in their tree, with no pair among them */
	assert_int_equal(tb_world_get_counters(w).contact_count, 0);
	tb_body_id big = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 11.0f, 11.0f, 1.0f);
	int32_t big_shape = tu_first_shape(w, big).index1 - 1;
	tb_world_step(w, DT);
	assert_int_equal(tb_world_get_counters(w).contact_count, COUNT);
	int32_t seen = 0, last = -1;
	for (int32_t ci = 0; ci < w->contacts.count; ++ci) {
		const tb_contact *c = w->contacts.data + ci;
		if (!c->in_use) continue;
		int32_t other = c->shape_a == big_shape ? c->shape_b : c->shape_a;
		assert_true(c->shape_a == big_shape || c->shape_b == big_shape);
		assert_true(other >= first_shape && other < first_shape + COUNT);
		if (other <= last) fail_msg("contact %d: partner %d after %d", ci, other, last);
		last = other;
		seen += 1;
	}
	assert_int_equal(seen, COUNT);
	tb_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_runs_identical),
		cmocka_unit_test(test_scripted_changes_replay),
		cmocka_unit_test(test_hash_is_stable),
		cmocka_unit_test(test_pinned_reference_hash),
		cmocka_unit_test(test_every_solver_path_same_bits),
		cmocka_unit_test(test_pin_blocks_same_bits_on_every_path),
		cmocka_unit_test(test_pair_walk_finds_what_the_queries_find),
		cmocka_unit_test(test_surfaces_same_bits_on_every_path),
		cmocka_unit_test(test_many_new_partners_in_shape_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
