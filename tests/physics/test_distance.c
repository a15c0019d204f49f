/* GJK distance, segment distance, sweeps and time of impact. */
#include "test_util.h"
#include "distance.h"

#include <float.h>
#include <string.h>

static const tb_transform ident = {{0.0f, 0.0f}, {1.0f, 0.0f}};

static tb_transform xf_at(float x, float y, float angle)
{
	tb_transform xf = {{x, y}, tb_make_rot(angle)};
	return xf;
}

static tb_shape_proxy box_proxy(float hw, float hh)
{
	tb_polygon b = tb_make_box(hw, hh);
	return tb_make_proxy(b.vertices, b.count, 0.0f);
}

static tb_shape_proxy circle_proxy(float r)
{
	tb_vec2 c = {0.0f, 0.0f};
	return tb_make_proxy(&c, 1, r);
}

static void assert_output_sane(const tb_distance_output *o)
{
	assert_true(tb_is_valid_vec2(o->point_a) && tb_is_valid_vec2(o->point_b));
	assert_true(tb_is_valid_float(o->distance));
	assert_near(tb_length(o->normal), 1.0, 1e-5);
}

static void test_segment_distance(void **state)
{
	(void)state;
	/* parallel, offset by 1, overlapping in x */
	tb_segment_distance_result r = tb_segment_distance(tb_v2(0, 0), tb_v2(2, 0), tb_v2(1, 1), tb_v2(3, 1));
	assert_near(r.distance_squared, 1.0, 1e-6);
	/* crossing */
	r = tb_segment_distance(tb_v2(-1, 0), tb_v2(1, 0), tb_v2(0, -1), tb_v2(0, 1));
	assert_near(r.distance_squared, 0.0, 1e-12);
	assert_near(r.fraction1, 0.5, 1e-6);
	assert_near(r.fraction2, 0.5, 1e-6);
	/* end point to end point: fractions exactly at the ends */
	r = tb_segment_distance(tb_v2(0, 0), tb_v2(1, 0), tb_v2(2, 1), tb_v2(3, 2));
	assert_true(r.fraction1 == 1.0f);
	assert_true(r.fraction2 == 0.0f);
	assert_near(r.distance_squared, 2.0, 1e-6);
	/* end point to interior */
	r = tb_segment_distance(tb_v2(0, 0), tb_v2(2, 0), tb_v2(1, 0.5f), tb_v2(1, 3));
	assert_near(r.distance_squared, 0.25, 1e-6);
	assert_near(r.fraction1, 0.5, 1e-6);
	assert_true(r.fraction2 == 0.0f);
	/* degenerate: a point against a segment */
	r = tb_segment_distance(tb_v2(1, 1), tb_v2(1, 1), tb_v2(0, 0), tb_v2(2, 0));
	assert_near(r.distance_squared, 1.0, 1e-6);
	assert_near(r.fraction2, 0.5, 1e-6);
}

static void test_distance_circles(void **state)
{
	(void)state;
	tb_shape_proxy a = circle_proxy(1.0f), b = circle_proxy(0.5f);
	tb_distance_output o = tb_shape_distance(&a, ident, &b, xf_at(5, 0, 0.3f));
	assert_output_sane(&o);
	assert_near(o.distance, 3.5, 1e-5);
	assert_vec_near(o.point_a, 1.0, 0.0, 1e-5);
	assert_vec_near(o.point_b, 4.5, 0.0, 1e-5);
	assert_vec_near(o.normal, 1.0, 0.0, 1e-6);

	/* overlapping rounded parts: negative distance, points still on the surfaces */
	o = tb_shape_distance(&a, xf_at(1, 1, 0), &b, xf_at(1, 2.2f, 0));
	assert_output_sane(&o);
	assert_near(o.distance, 1.2 - 1.5, 1e-5);
	assert_vec_near(o.normal, 0.0, 1.0, 1e-6);
	assert_vec_near(o.point_a, 1.0, 2.0, 1e-5);
	assert_vec_near(o.point_b, 1.0, 1.7, 1e-5);

	/* coincident centres: no direction exists, but nothing may be NaN */
	o = tb_shape_distance(&a, ident, &b, ident);
	assert_output_sane(&o);
	assert_near(o.distance, -1.5, 1e-6);
}

static void test_distance_boxes(void **state)
{
	(void)state;
	tb_shape_proxy a = box_proxy(1, 1), b = box_proxy(1, 1);
	tb_distance_output o = tb_shape_distance(&a, ident, &b, xf_at(3, 0.5f, 0));
	assert_output_sane(&o);
	assert_near(o.distance, 1.0, 1e-5);
	assert_vec_near(o.normal, 1.0, 0.0, 1e-5);
	assert_near(o.point_a.x, 1.0, 1e-5);
	assert_near(o.point_b.x, 2.0, 1e-5);

	/* corner to corner */
	o = tb_shape_distance(&a, ident, &b, xf_at(3, 3, 0));
	assert_output_sane(&o);
	assert_near(o.distance, sqrt(2.0), 1e-5);
	assert_vec_near(o.point_a, 1.0, 1.0, 1e-5);
	assert_vec_near(o.point_b, 2.0, 2.0, 1e-5);
	assert_vec_near(o.normal, sqrt(0.5), sqrt(0.5), 1e-5);

	/* a diamond pointing at a face */
	o = tb_shape_distance(&a, ident, &b, xf_at(3.5f, 0.2f, 0.25f * TB_PI));
	assert_output_sane(&o);
	assert_near(o.distance, 3.5 - sqrt(2.0) - 1.0, 1e-5);
	assert_vec_near(o.normal, 1.0, 0.0, 1e-5);

	/* both transformed: the distance does not care about the frame */
	tb_transform base = xf_at(-7.0f, 4.0f, 1.1f);
	tb_transform other = tb_mul_transforms(base, xf_at(3, 3, 0));
	o = tb_shape_distance(&a, base, &b, other);
	assert_near(o.distance, sqrt(2.0), 1e-4);
	tb_vec2 expected = tb_transform_point(base, tb_v2(1, 1));
	assert_vec_near(o.point_a, expected.x, expected.y, 1e-4);

	/* overlapping cores */
	o = tb_shape_distance(&a, ident, &b, xf_at(0.5f, 0.25f, 0.2f));
	assert_output_sane(&o);
	assert_true(o.distance <= 0.0f);
}

static void test_distance_capsule_and_polygon(void **state)
{
	(void)state;
	tb_vec2 seg[2] = {{-1, 0}, {1, 0}};
	tb_shape_proxy cap = tb_make_proxy(seg, 2, 0.5f);
	tb_shape_proxy box = box_proxy(1, 1);
	tb_distance_output o = tb_shape_distance(&box, ident, &cap, xf_at(0.5f, 3, 0));
	assert_output_sane(&o);
	assert_near(o.distance, 1.5, 1e-5);
	assert_vec_near(o.normal, 0.0, 1.0, 1e-5);
	assert_near(o.point_a.y, 1.0, 1e-5);
	assert_near(o.point_b.y, 2.5, 1e-5);

	/* triangle against a point */
	tb_vec2 tri[3] = {{0, 0}, {2, 0}, {0, 2}};
	tb_shape_proxy t = tb_make_proxy(tri, 3, 0.0f);
	tb_shape_proxy p = circle_proxy(0.0f);
	o = tb_shape_distance(&t, ident, &p, xf_at(2, 2, 0));
	assert_near(o.distance, sqrt(2.0), 1e-5);
	assert_vec_near(o.point_a, 1.0, 1.0, 1e-5);

	/* geometry proxies */
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	g.capsule.center1 = tb_v2(0, 0);
	g.capsule.center2 = tb_v2(0, 2);
	g.capsule.radius = 0.25f;
	tb_shape_proxy gp = tb_geometry_proxy(&g);
	assert_int_equal(gp.count, 2);
	assert_near(gp.radius, 0.25, 0);
	g.type = TB_SHAPE_POLYGON;
	g.polygon = tb_make_rounded_box(1, 2, 0.1f);
	gp = tb_geometry_proxy(&g);
	assert_int_equal(gp.count, 4);
	assert_near(gp.radius, 0.1f, 0);
	assert_vec_near(gp.points[2], 1.0, 2.0, 0);
}

static void test_sweep_transform(void **state)
{
	(void)state;
	tb_sweep s = {{1, 0}, {0, 0}, {2, 0}, {1, 0}, {0, 1}};
	tb_transform x0 = tb_sweep_transform(&s, 0.0f);
	assert_vec_near(x0.p, -1.0, 0.0, 1e-6);
	tb_transform x1 = tb_sweep_transform(&s, 1.0f);
	assert_vec_near(x1.p, 2.0, -1.0, 1e-6);
	assert_near(tb_rot_angle(x1.q), 0.5 * M_PI, 1e-6);
	tb_transform xh = tb_sweep_transform(&s, 0.5f);
	assert_near(tb_rot_angle(xh.q), 0.25 * M_PI, 1e-6);
	assert_vec_near(xh.p, 1.0 - sqrt(0.5), -sqrt(0.5), 1e-6);
}

static tb_sweep still(float x, float y)
{
	tb_sweep s = {{0, 0}, {x, y}, {x, y}, {1, 0}, {1, 0}};
	return s;
}

static void test_toi_fast_circle_thin_box(void **state)
{
	(void)state;
	/* a 5 cm bullet crossing a 10 cm wall in one step, 20 m per step */
	tb_shape_proxy bullet = circle_proxy(0.05f);
	tb_shape_proxy wall = box_proxy(0.05f, 2.0f);
	tb_sweep sb = {{0, 0}, {-10, 0}, {10, 0}, {1, 0}, {1, 0}};
	tb_sweep sw = still(0, 0);
	tb_toi_output o = tb_time_of_impact(&bullet, &sb, &wall, &sw, 1.0f);
	assert_int_equal(o.state, TB_TOI_HIT);
	/* touching at x = -0.1, i.e. t = 0.495; the target leaves a slop of overlap */
	double touching = (10.0 - 0.1) / 20.0;
	double target = (10.0 - 0.05 - (0.05 - TB_LINEAR_SLOP)) / 20.0;
	assert_near(o.fraction, target, 1e-4);
	assert_true(o.fraction > touching - 1e-4);

	/* the same from the wall's point of view */
	o = tb_time_of_impact(&wall, &sw, &bullet, &sb, 1.0f);
	assert_int_equal(o.state, TB_TOI_HIT);
	assert_near(o.fraction, target, 1e-4);

	/* missing the wall entirely */
	tb_sweep above = {{0, 0}, {-10, 3}, {10, 3}, {1, 0}, {1, 0}};
	o = tb_time_of_impact(&bullet, &above, &wall, &sw, 1.0f);
	assert_int_equal(o.state, TB_TOI_SEPARATED);
	assert_near(o.fraction, 1.0, 0);

	/* a shorter step ends before the wall */
	o = tb_time_of_impact(&bullet, &sb, &wall, &sw, 0.4f);
	assert_int_equal(o.state, TB_TOI_SEPARATED);
	assert_near(o.fraction, 0.4, 1e-6);
}

static void test_toi_boxes(void **state)
{
	(void)state;
	tb_shape_proxy a = box_proxy(1, 1), b = box_proxy(0.5f, 0.5f);
	tb_sweep sa = still(0, 0);
	tb_sweep sb = {{0, 0}, {5, 0.3f}, {-5, 0.3f}, {1, 0}, {1, 0}};
	tb_toi_output o = tb_time_of_impact(&a, &sa, &b, &sb, 1.0f);
	assert_int_equal(o.state, TB_TOI_HIT);
	/* faces a linear slop apart: x = 1.5 + slop */
	assert_near(o.fraction, (5.0 - 1.5 - TB_LINEAR_SLOP) / 10.0, 2e-4);

	/* already overlapping */
	tb_sweep sc = still(0.5f, 0.0f);
	o = tb_time_of_impact(&a, &sa, &b, &sc, 1.0f);
	assert_int_equal(o.state, TB_TOI_OVERLAPPED);
	assert_near(o.fraction, 0.0, 0);
}

static void test_toi_rotating_stick(void **state)
{
	(void)state;
	/* a 4 m stick spinning a quarter turn about its centre sweeps over a small
	 * ball at (1, 1); its long face meets the ball on the way */
	tb_shape_proxy stick = box_proxy(2.0f, 0.05f);
	tb_shape_proxy ball = circle_proxy(0.1f);
	tb_sweep ss = {{0, 0}, {0, 0}, {0, 0}, {1, 0}, {0, 1}};
	tb_sweep sb = still(1, 1);
	tb_toi_output o = tb_time_of_impact(&stick, &ss, &ball, &sb, 1.0f);
	assert_int_equal(o.state, TB_TOI_HIT);

	/* target: the ball's centre 0.05 + (0.1 - slop) from the stick's axis, i.e.
	 * cos(a) - sin(a) = d; the sweep blends rotations so tan(a) = t / (1 - t) */
	double d = 0.05 + 0.1 - TB_LINEAR_SLOP;
	double a = acos(d / sqrt(2.0)) - 0.25 * M_PI;
	double t = tan(a) / (1.0 + tan(a));
	assert_near(o.fraction, t, 1e-3);

	/* and at that moment the shapes really are about a slop apart */
	tb_transform xs = tb_sweep_transform(&ss, o.fraction);
	tb_transform xb = tb_sweep_transform(&sb, o.fraction);
	tb_distance_output dist = tb_shape_distance(&stick, xs, &ball, xb);
	assert_near(dist.distance, -TB_LINEAR_SLOP, 0.5 * TB_LINEAR_SLOP);
}

static uint32_t rng_state = 31337u;
static float rng(float lo, float hi)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return lo + (hi - lo) * (float)(rng_state >> 8) / 16777216.0f;
}

static tb_shape_proxy random_proxy(void)
{
	/* a random convex polygon: points on an ellipse at sorted angles */
	int n = 1 + (int)rng(0.0f, 7.99f);
	float ax = rng(0.1f, 1.0f), ay = rng(0.1f, 1.0f);
	tb_vec2 pts[TB_MAX_POLYGON_VERTICES];
	float a0 = rng(0.0f, 6.28f);
	for (int i = 0; i < n; ++i) {
		float a = a0 + 6.2831853f * ((float)i + rng(0.1f, 0.9f)) / (float)n;
		pts[i] = tb_v2(ax * cosf(a), ay * sinf(a));
	}
	return tb_make_proxy(pts, n, rng(0.0f, 1.0f) < 0.5f ? 0.0f : rng(0.0f, 0.2f));
}

/* Brute-force core distance: the smallest distance between any two edges (or
 * points), zero if the hulls overlap (some vertex inside the other hull). */
static float brute_distance(const tb_shape_proxy *a, tb_transform xa, const tb_shape_proxy *b, tb_transform xb)
{
	tb_vec2 pa[8], pb[8];
	for (int i = 0; i < a->count; ++i) pa[i] = tb_transform_point(xa, a->points[i]);
	for (int i = 0; i < b->count; ++i) pb[i] = tb_transform_point(xb, b->points[i]);
	float best = FLT_MAX;
	for (int i = 0; i < a->count; ++i) {
		for (int j = 0; j < b->count; ++j) {
			tb_segment_distance_result r = tb_segment_distance(pa[i], pa[(i + 1) % a->count], pb[j], pb[(j + 1) % b->count]);
			best = fminf(best, sqrtf(r.distance_squared));
		}
	}
	return best;
}

/* Point inside a counter-clockwise hull of at least three points. */
static bool hull_contains(const tb_shape_proxy *h, tb_transform xf, tb_vec2 p)
{
	if (h->count < 3) return false;
	for (int i = 0; i < h->count; ++i) {
		tb_vec2 v1 = tb_transform_point(xf, h->points[i]);
		tb_vec2 v2 = tb_transform_point(xf, h->points[(i + 1) % h->count]);
		if (tb_cross(tb_sub(v2, v1), tb_sub(p, v1)) < -1e-6f) return false;
	}
	return true;
}

static void test_distance_matches_brute_force(void **state)
{
	(void)state;
	int apart = 0;
	for (int k = 0; k < 3000; ++k) {
		tb_shape_proxy a = random_proxy(), b = random_proxy();
		tb_transform xa = xf_at(rng(-1, 1), rng(-1, 1), rng(-4, 4));
		tb_transform xb = xf_at(rng(-1, 1), rng(-1, 1), rng(-4, 4));
		tb_distance_output o = tb_shape_distance(&a, xa, &b, xb);
		assert_output_sane(&o);
		float core = o.distance + a.radius + b.radius;
		float brute = brute_distance(&a, xa, &b, xb);
		if (core > 1e-4f) {
			/* apart: GJK finds the true closest points */
			apart += 1;
			assert_near(core, brute, 1e-4);
			assert_near(tb_distance(o.point_a, o.point_b), fabsf(o.distance), 1e-4);
			tb_vec2 d = tb_sub(o.point_b, o.point_a);
			if (o.distance > 1e-3f) assert_near(tb_dot(d, o.normal), o.distance, 1e-4);
		} else {
			/* touching or overlapping: the edges meet or one hull holds the other */
			bool inside = false;
			for (int i = 0; i < a.count; ++i) inside = inside || hull_contains(&b, xb, tb_transform_point(xa, a.points[i]));
			for (int i = 0; i < b.count; ++i) inside = inside || hull_contains(&a, xa, tb_transform_point(xb, b.points[i]));
			assert_true(brute < 1e-3f || inside);
		}
	}
	assert_true(apart > 500);
}

/* Conservative advancement never skips an earlier contact: sampled densely,
 * the shapes stay apart (down to the target) before the reported time. */
static void test_toi_never_tunnels(void **state)
{
	(void)state;
	int hits = 0, failed = 0, states[5] = {0};
	for (int k = 0; k < 400; ++k) {
		tb_shape_proxy a = random_proxy(), b = random_proxy();
		tb_sweep sa = {{rng(-0.2f, 0.2f), rng(-0.2f, 0.2f)}, {rng(-4, -2), rng(-1, 1)}, {rng(2, 4), rng(-1, 1)}, {1, 0}, {1, 0}};
		sa.q1 = tb_make_rot(rng(-3, 3));
		sa.q2 = tb_mul_rot(sa.q1, tb_make_rot(rng(-1.5f, 1.5f)));
		tb_sweep sb = {{0, 0}, {rng(-0.5f, 0.5f), rng(-0.5f, 0.5f)}, {rng(-0.5f, 0.5f), rng(-0.5f, 0.5f)}, {1, 0}, {1, 0}};
		sb.q1 = tb_make_rot(rng(-3, 3));
		sb.q2 = tb_mul_rot(sb.q1, tb_make_rot(rng(-1.5f, 1.5f)));

		tb_toi_output o = tb_time_of_impact(&a, &sa, &b, &sb, 1.0f);
		assert_true(o.fraction >= 0.0f && o.fraction <= 1.0f);
		failed += o.state == TB_TOI_FAILED;
		states[o.state] += 1;
		assert_true(o.state == TB_TOI_HIT || o.state == TB_TOI_SEPARATED || o.state == TB_TOI_OVERLAPPED ||
		            o.state == TB_TOI_FAILED);
		float total = a.radius + b.radius;
		float target = fmaxf(TB_LINEAR_SLOP, total - TB_LINEAR_SLOP);
		tb_distance_output d0 = tb_shape_distance(&a, tb_sweep_transform(&sa, 0.0f), &b, tb_sweep_transform(&sb, 0.0f));
		if (d0.distance + total < target + 0.25f * TB_LINEAR_SLOP) {
			/* already as close as the target at the start */
			assert_true(o.state == TB_TOI_HIT || o.state == TB_TOI_OVERLAPPED);
			assert_near(o.fraction, 0.0, 0);
			continue;
		}
		for (int s = 0; s <= 200; ++s) {
			float t = o.fraction * (float)s / 200.0f;
			tb_distance_output d = tb_shape_distance(&a, tb_sweep_transform(&sa, t), &b, tb_sweep_transform(&sb, t));
			float core = d.distance + total;
			if (!(core > target - 0.5f * TB_LINEAR_SLOP))
				fail_msg("case %d state %d fraction %g: at t %g core distance %g, target %g (counts %d %d)", k,
				         (int)o.state, o.fraction, t, core, target, a.count, b.count);
		}
		if (o.state == TB_TOI_HIT) {
			hits += 1;
			tb_distance_output d = tb_shape_distance(&a, tb_sweep_transform(&sa, o.fraction), &b,
			                                         tb_sweep_transform(&sb, o.fraction));
			assert_near(d.distance + total, target, 0.5 * TB_LINEAR_SLOP);
		}
	}
	printf("# toi states: unknown %d failed %d overlapped %d hit %d separated %d\n", states[0], states[1], states[2],
	       states[3], states[4]);
	assert_true(hits > 100);
	assert_true(failed <= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segment_distance),
		cmocka_unit_test(test_distance_circles),
		cmocka_unit_test(test_distance_boxes),
		cmocka_unit_test(test_distance_capsule_and_polygon),
		cmocka_unit_test(test_sweep_transform),
		cmocka_unit_test(test_toi_fast_circle_thin_box),
		cmocka_unit_test(test_toi_boxes),
		cmocka_unit_test(test_toi_rotating_stick),
		cmocka_unit_test(test_distance_matches_brute_force),
		cmocka_unit_test(test_toi_never_tunnels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
