/* The narrow phase's SSE2 paths (the separating face four faces at a time,
 * two quads brought into one frame two points per vector) against
 * the same source built without them (TB_NO_SIMD: the scalar code a CPU
 * without SSE2 runs; the browser runs the SSE2 code as wasm SIMD, and the web
 * suite holds it to native): every field of every manifold bit for bit, on
 * random boxes, rotated and offset quads, rounded ones, hulls of three to
 * eight vertices, and the edge cases (touching, exactly aligned, coincident,
 * far apart, signed zeros). */
#define TB_NO_SIMD 1
#define tb_collide_speculative scalar_collide_speculative
#define tb_collide_speculative_into scalar_collide_speculative_into
#define tb_collide scalar_collide
/* every public name of the file, so the library's own (SIMD) build links beside it */
#define tb_collide_circles scalar_collide_circles
#define tb_collide_capsule_and_circle scalar_collide_capsule_and_circle
#define tb_collide_capsules scalar_collide_capsules
#define tb_collide_polygon_and_circle scalar_collide_polygon_and_circle
#define tb_collide_polygon_and_capsule scalar_collide_polygon_and_capsule
#define tb_collide_polygons scalar_collide_polygons
#define tb_collide_segment_and_circle scalar_collide_segment_and_circle
#define tb_collide_segment_and_capsule scalar_collide_segment_and_capsule
#define tb_collide_segment_and_polygon scalar_collide_segment_and_polygon
#define tb_collide_chain_segment_and_circle scalar_collide_chain_segment_and_circle
#define tb_collide_chain_segment_and_capsule scalar_collide_chain_segment_and_capsule
#define tb_collide_chain_segment_and_polygon scalar_collide_chain_segment_and_polygon
#define tb_chain_segment_behind scalar_chain_segment_behind
#include "../../src/physics/manifold.c"
#undef tb_collide_speculative
#undef tb_collide_speculative_into
#undef tb_collide
#undef tb_collide_circles
#undef tb_collide_capsule_and_circle
#undef tb_collide_capsules
#undef tb_collide_polygon_and_circle
#undef tb_collide_polygon_and_capsule
#undef tb_collide_polygons
#undef tb_collide_segment_and_circle
#undef tb_collide_segment_and_capsule
#undef tb_collide_segment_and_polygon
#undef tb_collide_chain_segment_and_circle
#undef tb_collide_chain_segment_and_capsule
#undef tb_collide_chain_segment_and_polygon
#undef tb_chain_segment_behind
#undef TB_NO_SIMD

#include "test_util.h"

#include <string.h>

tb_manifold tb_collide_speculative(const tb_geometry *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb,
                                   float speculative);
void tb_collide_speculative_into(tb_manifold *out, const tb_geometry *a, tb_transform xfa, const tb_geometry *b,
                                 tb_transform xfb, float speculative);

static uint32_t rng_state = 12345u;

static float frand(float lo, float hi)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return lo + (hi - lo) * (float)(rng_state >> 8) / (float)(1u << 24);
}

static tb_geometry quad(float hw, float hh, tb_vec2 center, float angle, float radius)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_POLYGON;
	g.polygon = tb_make_offset_box(hw, hh, center, tb_make_rot(angle));
	g.polygon.radius = radius;
	return g;
}

/* the same bits in every field the collider fills (points beyond the count
 * are not looked at by anyone) */
static void assert_same(const tb_manifold *x, const tb_manifold *y)
{
	assert_int_equal(x->point_count, y->point_count);
	assert_memory_equal(&x->normal, &y->normal, sizeof x->normal);
	for (int i = 0; i < x->point_count; ++i) {
		const tb_manifold_point *p = x->points + i, *q = y->points + i;
		assert_memory_equal(&p->point, &q->point, sizeof p->point);
		assert_memory_equal(&p->anchor_a, &q->anchor_a, sizeof p->anchor_a);
		assert_memory_equal(&p->anchor_b, &q->anchor_b, sizeof p->anchor_b);
		assert_memory_equal(&p->separation, &q->separation, sizeof p->separation);
		assert_int_equal(p->id, q->id);
	}
}

static int compare(const tb_geometry *a, tb_transform xa, const tb_geometry *b, tb_transform xb, float spec)
{
	tb_manifold simd = tb_collide_speculative(a, xa, b, xb, spec);
	tb_manifold scalar = scalar_collide_speculative(a, xa, b, xb, spec);
	assert_same(&simd, &scalar);
	/* the step's in-place form (over a stale manifold) gives the same */
	tb_manifold in_place = scalar;
	in_place.point_count = 2;
	tb_collide_speculative_into(&in_place, a, xa, b, xb, spec);
	assert_same(&in_place, &scalar);
	return simd.point_count;
}

static void test_random_quads(void **state)
{
	(void)state;
	int with_points = 0, pairs = 0;
	for (int k = 0; k < 20000; ++k) {
		tb_geometry a = quad(frand(0.001f, 3.0f), frand(0.001f, 3.0f), tb_v2(frand(-1, 1), frand(-1, 1)),
		                     frand(-3.2f, 3.2f), k % 5 == 0 ? frand(0.0f, 0.3f) : 0.0f);
		tb_geometry b = quad(frand(0.001f, 3.0f), frand(0.001f, 3.0f), tb_v2(frand(-1, 1), frand(-1, 1)),
		                     frand(-3.2f, 3.2f), k % 7 == 0 ? frand(0.0f, 0.3f) : 0.0f);
		tb_transform xa = {{frand(-50, 50), frand(-50, 50)}, tb_make_rot(frand(-3.2f, 3.2f))};
		tb_transform xb = {{xa.p.x + frand(-6, 6), xa.p.y + frand(-6, 6)}, tb_make_rot(frand(-3.2f, 3.2f))};
		with_points += compare(&a, xa, &b, xb, frand(0.0f, 0.5f)) > 0;
		pairs += 1;
	}
	/* the sample meets both outcomes often */
	assert_true(with_points > pairs / 10);
	assert_true(with_points < pairs - pairs / 10);
}

/* A random convex polygon of `count` vertices (or fewer, when the hull drops
 * some) whose unused slots hold `junk` bits: the SIMD separation test reads
 * eight slots and must give the scalar bits whatever lies past the count. */
static tb_geometry hull(int count, uint32_t junk)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_POLYGON;
	tb_vec2 pts[TB_MAX_POLYGON_VERTICES];
	float r = frand(0.05f, 2.0f), start = frand(-3.2f, 3.2f);
	for (int i = 0; i < count; ++i) {
		float t = start + 6.2831853f * ((float)i + frand(0.0f, 0.8f)) / (float)count;
		tb_rot q = tb_make_rot(t);
		pts[i] = tb_v2(r * q.c, r * q.s);
	}
	if (tb_make_polygon(pts, count, count % 3 == 0 ? frand(0.0f, 0.2f) : 0.0f, &g.polygon) != TB_OK)
		g.polygon = tb_make_offset_box(r, r, tb_v2(0, 0), tb_make_rot(start));
	for (int i = g.polygon.count; i < TB_MAX_POLYGON_VERTICES; ++i) {
		memcpy(&g.polygon.vertices[i].x, &junk, sizeof junk);
		memcpy(&g.polygon.vertices[i].y, &junk, sizeof junk);
		memcpy(&g.polygon.normals[i].x, &junk, sizeof junk);
		memcpy(&g.polygon.normals[i].y, &junk, sizeof junk);
	}
	return g;
}

/* Hulls of three to eight vertices against each other and against quads, with
 * zeros, NaN, denormals and huge values past their counts. */
static void test_random_hulls(void **state)
{
	(void)state;
	static const uint32_t junk[] = {0u, 0x7fc00000u, 0x00000001u, 0x7f7fffffu, 0xffffffffu};
	int with_points = 0, pairs = 0;
	for (int k = 0; k < 20000; ++k) {
		tb_geometry a = hull(3 + k % 6, junk[k % 5]);
		tb_geometry b = k % 4 == 0 ? quad(frand(0.01f, 2.0f), frand(0.01f, 2.0f), tb_v2(0, 0), frand(-3.2f, 3.2f), 0.0f)
		                           : hull(3 + (k / 6) % 6, junk[(k / 5) % 5]);
		tb_transform xa = {{frand(-50, 50), frand(-50, 50)}, tb_make_rot(frand(-3.2f, 3.2f))};
		tb_transform xb = {{xa.p.x + frand(-4, 4), xa.p.y + frand(-4, 4)}, tb_make_rot(frand(-3.2f, 3.2f))};
		float spec = frand(0.0f, 0.5f);
		with_points += compare(&a, xa, &b, xb, spec) > 0;
		with_points += compare(&b, xb, &a, xa, spec) > 0;
		pairs += 2;
	}
	assert_true(with_points > pairs / 10);
	assert_true(with_points < pairs - pairs / 10);
}

static void test_edge_cases(void **state)
{
	(void)state;
	tb_geometry box = quad(0.5f, 0.5f, tb_v2(0, 0), 0.0f, 0.0f);
	tb_geometry card = quad(0.001f, 0.5f, tb_v2(0, 0), 0.0f, 0.0f);
	const float angles[] = {0.0f, -0.0f, 1.5707964f, 3.1415927f, -3.1415927f, 0.7853982f, 1e-7f};
	const float gaps[] = {0.0f, -0.0f, 1.0f, 0.999999f, 1.000001f, 0.5f, 100.0f, -0.25f};
	int n = 0;
	for (size_t i = 0; i < sizeof angles / sizeof *angles; ++i) {
		for (size_t j = 0; j < sizeof gaps / sizeof *gaps; ++j) {
			tb_transform xa = {{0.0f, 0.0f}, tb_make_rot(angles[i])};
			tb_transform xb = {{gaps[j], 0.0f}, tb_make_rot(-angles[i])};
			tb_transform xc = {{0.0f, gaps[j]}, {1.0f, -0.0f}};
			n += compare(&box, xa, &box, xb, 0.02f);
			n += compare(&box, xa, &card, xc, 0.02f);
			n += compare(&card, xb, &box, xa, 0.02f);
			n += compare(&box, xa, &box, xa, 0.02f); /* coincident */
		}
	}
	assert_true(n > 0);
	/* a face's separation of NaN, infinity, -0 or a tie with another: the
	 * vector pick of the face is the loop's (the first of the largest, NaN
	 * never) */
	const float odd[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e-30f, -FLT_MAX, FLT_MAX};
	for (size_t i = 0; i < sizeof odd / sizeof *odd; ++i) {
		for (int v = 0; v < 4; ++v) {
			tb_geometry bent = box;
			bent.polygon.vertices[v].x = odd[i];
			tb_geometry tri = hull(3, 0u);
			tri.polygon.vertices[v % 3].y = odd[i];
			tb_transform xa = {{0.0f, 0.0f}, {1.0f, 0.0f}};
			tb_transform xb = {{0.5f, 0.999f}, tb_make_rot(0.3f * (float)v)};
			compare(&bent, xa, &box, xb, 0.02f);
			compare(&box, xb, &bent, xa, 0.02f);
			compare(&tri, xa, &box, xb, 0.02f);
			compare(&box, xb, &tri, xa, 0.02f);
			/* faces whose every separation is NaN or -infinity: some, all */
			for (int k = 0; k < 4; ++k) {
				bent = box;
				tri = hull(3, 0u);
				for (int f = 0; f <= k; ++f) {
					bent.polygon.normals[(v + f) % 4] = tb_v2(odd[i], odd[(i + f) % 8]);
					tri.polygon.normals[(v + f) % 3] = tb_v2(odd[(i + f) % 8], odd[i]);
				}
				compare(&bent, xa, &box, xb, 0.02f);
				compare(&box, xb, &bent, xa, 0.02f);
				compare(&tri, xa, &box, xb, 0.02f);
				compare(&box, xb, &tri, xa, 0.02f);
			}
		}
	}
}

/* Shape boxes: the library's tb_compute_aabb (two points per vector) against
 * this file's scalar tb_points_aabb (built without SSE2), every shape kind
 * and vertex count, bit for bit. */
static tb_aabb scalar_aabb(const tb_geometry *g, tb_transform xf)
{
	switch (g->type) {
	case TB_SHAPE_CIRCLE: return tb_points_aabb(&g->circle.center, 1, g->circle.radius, xf);
	case TB_SHAPE_CAPSULE: return tb_points_aabb(&g->capsule.center1, 2, g->capsule.radius, xf);
	case TB_SHAPE_SEGMENT: return tb_points_aabb(&g->segment.point1, 2, 0.0f, xf);
	default: return tb_points_aabb(g->polygon.vertices, g->polygon.count, g->polygon.radius, xf);
	}
}

static void compare_aabb(const tb_geometry *g, tb_transform xf)
{
	tb_aabb simd = tb_compute_aabb(g, xf), scalar = scalar_aabb(g, xf);
	assert_memory_equal(&simd, &scalar, sizeof simd);
}

static void test_shape_boxes(void **state)
{
	(void)state;
	static const uint32_t junk[] = {0u, 0x7fc00000u, 0x00000001u, 0x7f7fffffu, 0xffffffffu};
	for (int k = 0; k < 20000; ++k) {
		tb_transform xf = {{frand(-50, 50), frand(-50, 50)}, tb_make_rot(frand(-3.2f, 3.2f))};
		tb_geometry g = hull(3 + k % 6, junk[k % 5]);
		g.polygon.radius = k % 3 == 0 ? frand(0.0f, 0.3f) : 0.0f;
		compare_aabb(&g, xf);
		tb_geometry r;
		memset(&r, 0, sizeof r);
		r.type = k % 3 == 0 ? TB_SHAPE_CIRCLE : k % 3 == 1 ? TB_SHAPE_CAPSULE : TB_SHAPE_SEGMENT;
		r.capsule.center1 = tb_v2(frand(-2, 2), frand(-2, 2));
		r.capsule.center2 = tb_v2(frand(-2, 2), frand(-2, 2));
		r.capsule.radius = r.type == TB_SHAPE_SEGMENT ? 0.0f : frand(0.01f, 1.0f);
		compare_aabb(&r, xf);
	}
	/* Ties of signed zeros and NaN: which of two equal bounds is kept shows in
	 * the sign, so the two paths must meet the points in the same order. */
	const float zeros[] = {0.0f, -0.0f};
	for (int count = 1; count <= TB_MAX_POLYGON_VERTICES; ++count) {
		for (int mask = 0; mask < (1 << count); ++mask) {
			tb_geometry g;
			memset(&g, 0, sizeof g);
			g.type = TB_SHAPE_POLYGON;
			g.polygon.count = count;
			for (int i = 0; i < count; ++i) g.polygon.vertices[i] = tb_v2(zeros[(mask >> i) & 1], zeros[((mask >> i) + 1) & 1]);
			/* (an origin at -0 keeps each x's sign: -0 + -0 is -0) */
			tb_transform id = {{-0.0f, -0.0f}, {1.0f, 0.0f}};
			compare_aabb(&g, id);
			tb_transform nan = {{0.0f, 0.0f}, {1.0f, 0.0f}};
			memcpy(&nan.p.x, &junk[1], sizeof nan.p.x);
			g.polygon.vertices[mask % count].y = 1.0f;
			compare_aabb(&g, nan);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_quads),
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_random_hulls),
		cmocka_unit_test(test_shape_boxes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
