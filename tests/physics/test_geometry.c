/* Shape construction, validation, mass properties, bounds, point tests and ray casts. */
#include "test_util.h"

#include <string.h>

static tb_geometry geom_circle(float x, float y, float r)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CIRCLE;
	g.circle.center = tb_v2(x, y);
	g.circle.radius = r;
	return g;
}

static tb_geometry geom_capsule(tb_vec2 a, tb_vec2 b, float r)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	g.capsule.center1 = a;
	g.capsule.center2 = b;
	g.capsule.radius = r;
	return g;
}

static tb_geometry geom_polygon(tb_polygon p)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_POLYGON;
	g.polygon = p;
	return g;
}

static tb_geometry geom_segment(tb_vec2 a, tb_vec2 b)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_SEGMENT;
	g.segment.point1 = a;
	g.segment.point2 = b;
	return g;
}

static tb_geometry geom_chain(tb_vec2 g1, tb_vec2 a, tb_vec2 b, tb_vec2 g2)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CHAIN_SEGMENT;
	g.chain_segment.ghost1 = g1;
	g.chain_segment.segment.point1 = a;
	g.chain_segment.segment.point2 = b;
	g.chain_segment.ghost2 = g2;
	return g;
}

static void assert_polygon_well_formed(const tb_polygon *p)
{
	for (int i = 0; i < p->count; ++i) {
		int j = (i + 1) % p->count;
		tb_vec2 e = tb_sub(p->vertices[j], p->vertices[i]);
		assert_near(tb_length(p->normals[i]), 1.0, 1e-6);
		assert_near(tb_dot(p->normals[i], e), 0.0, 1e-5);
		assert_true(tb_cross(e, p->normals[i]) < 0.0f); /* outward for CCW */
		for (int k = 0; k < p->count; ++k) {
			if (k == i || k == j) continue;
			assert_true(tb_cross(e, tb_sub(p->vertices[k], p->vertices[i])) > 0.0f);
		}
	}
	tb_geometry g = geom_polygon(*p);
	assert_int_equal(tb_validate_geometry(&g), TB_OK);
}

/* ---- polygon construction ---- */

static void test_make_polygon_ccw_and_cw(void **state)
{
	(void)state;
	tb_vec2 ccw[4] = {{0, 0}, {2, 0}, {2, 1}, {0, 1}};
	tb_polygon p;
	assert_int_equal(tb_make_polygon(ccw, 4, 0.0f, &p), TB_OK);
	assert_int_equal(p.count, 4);
	assert_polygon_well_formed(&p);
	assert_vec_near(p.centroid, 1.0, 0.5, 1e-6);
	assert_vec_near(p.normals[0], 0.0, -1.0, 1e-6);

	tb_vec2 cw[4] = {{0, 0}, {0, 1}, {2, 1}, {2, 0}};
	assert_int_equal(tb_make_polygon(cw, 4, 0.25f, &p), TB_OK);
	assert_int_equal(p.count, 4);
	assert_polygon_well_formed(&p);
	assert_vec_near(p.centroid, 1.0, 0.5, 1e-6);
	assert_near(p.radius, 0.25, 0);
}

static void test_make_polygon_removes_collinear(void **state)
{
	(void)state;
	/* a square with a point in the middle of every side */
	tb_vec2 pts[8] = {{-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}};
	tb_polygon p;
	assert_int_equal(tb_make_polygon(pts, 8, 0.0f, &p), TB_OK);
	assert_int_equal(p.count, 4);
	assert_polygon_well_formed(&p);
	assert_vec_near(p.centroid, 0.0, 0.0, 1e-6);
	for (int i = 0; i < 4; ++i) {
		assert_near(fabsf(p.vertices[i].x), 1.0, 1e-6);
		assert_near(fabsf(p.vertices[i].y), 1.0, 1e-6);
	}
}

static void test_make_polygon_triangle_centroid(void **state)
{
	(void)state;
	tb_vec2 pts[3] = {{0, 0}, {3, 0}, {0, 3}};
	tb_polygon p;
	assert_int_equal(tb_make_polygon(pts, 3, 0.0f, &p), TB_OK);
	assert_int_equal(p.count, 3);
	assert_polygon_well_formed(&p);
	assert_vec_near(p.centroid, 1.0, 1.0, 1e-6);
}

static void test_make_polygon_errors(void **state)
{
	(void)state;
	tb_polygon p;
	tb_vec2 two[2] = {{0, 0}, {1, 0}};
	assert_int_equal(tb_make_polygon(two, 2, 0.0f, &p), TB_ERR_TOO_FEW_VERTICES);

	tb_vec2 nine[9];
	for (int i = 0; i < 9; ++i) nine[i] = tb_v2(cosf(2.0f * TB_PI * (float)i / 9.0f), sinf(2.0f * TB_PI * (float)i / 9.0f));
	assert_int_equal(tb_make_polygon(nine, 9, 0.0f, &p), TB_ERR_TOO_MANY_VERTICES);

	tb_vec2 nan_pts[3] = {{0, 0}, {1, 0}, {NAN, 1}};
	assert_int_equal(tb_make_polygon(nan_pts, 3, 0.0f, &p), TB_ERR_INVALID_NUMBER);
	tb_vec2 inf_pts[3] = {{0, 0}, {INFINITY, 0}, {0, 1}};
	assert_int_equal(tb_make_polygon(inf_pts, 3, 0.0f, &p), TB_ERR_INVALID_NUMBER);
	tb_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
	assert_int_equal(tb_make_polygon(tri, 3, NAN, &p), TB_ERR_INVALID_NUMBER);
	assert_int_equal(tb_make_polygon(tri, 3, -0.1f, &p), TB_ERR_NEGATIVE);

	/* a dart (arrow head) is not convex */
	tb_vec2 dart[4] = {{0, 0}, {2, -1}, {1, 0}, {2, 1}};
	assert_int_equal(tb_make_polygon(dart, 4, 0.0f, &p), TB_ERR_NOT_CONVEX);
	/* a pentagram turns the same way at every vertex but winds twice */
	tb_vec2 star[5];
	for (int i = 0; i < 5; ++i) {
		float a = 2.0f * TB_PI * (float)(2 * i) / 5.0f;
		star[i] = tb_v2(cosf(a), sinf(a));
	}
	assert_int_equal(tb_make_polygon(star, 5, 0.0f, &p), TB_ERR_NOT_CONVEX);

	tb_vec2 line[3] = {{0, 0}, {1, 0}, {2, 0}};
	assert_int_equal(tb_make_polygon(line, 3, 0.0f, &p), TB_ERR_DEGENERATE);
	/* two points closer than the smallest feature are one */
	tb_vec2 close[4] = {{0, 0}, {1, 0}, {1.0f + 0.5f * TB_MIN_FEATURE, 0.5f * TB_MIN_FEATURE}, {0, 1}};
	assert_int_equal(tb_make_polygon(close, 4, 0.0f, &p), TB_ERR_DEGENERATE);
	tb_vec2 dup[4] = {{0, 0}, {1, 0}, {1, 0}, {0, 1}};
	assert_int_equal(tb_make_polygon(dup, 4, 0.0f, &p), TB_ERR_DEGENERATE);
	/* an outline that folds back on itself along a line has no area there */
	tb_vec2 fold[4] = {{0, 0}, {2, 0}, {1, 0}, {1, 1}};
	assert_int_equal(tb_make_polygon(fold, 4, 0.0f, &p), TB_ERR_DEGENERATE);
	assert_int_equal(tb_make_polygon(NULL, 3, 0.0f, &p), TB_ERR_INVALID_ARGUMENT);
}

static void test_status_strings(void **state)
{
	(void)state;
	for (int i = 0; i < TB_STATUS_COUNT; ++i) {
		const char *s = tb_status_string((tb_status)i);
		assert_non_null(s);
		assert_true(strlen(s) > 0);
		for (int j = 0; j < i; ++j) assert_string_not_equal(s, tb_status_string((tb_status)j));
	}
	assert_string_equal(tb_status_string(TB_ERR_NOT_CONVEX), "polygon is not convex");
}

static void test_boxes(void **state)
{
	(void)state;
	tb_polygon b = tb_make_box(2.0f, 1.0f);
	assert_int_equal(b.count, 4);
	assert_polygon_well_formed(&b);
	assert_vec_near(b.vertices[0], -2.0, -1.0, 0);
	assert_vec_near(b.vertices[2], 2.0, 1.0, 0);
	assert_vec_near(b.centroid, 0.0, 0.0, 0);

	tb_polygon o = tb_make_offset_box(1.0f, 0.5f, tb_v2(3.0f, -1.0f), tb_make_rot(0.5f * TB_PI));
	assert_polygon_well_formed(&o);
	assert_vec_near(o.centroid, 3.0, -1.0, 1e-6);
	/* rotated a quarter turn, the long side is vertical */
	assert_vec_near(o.vertices[0], 3.5, -2.0, 1e-5);
	assert_vec_near(o.vertices[2], 2.5, 0.0, 1e-5);

	tb_polygon r = tb_make_rounded_box(1.0f, 1.0f, 0.2f);
	assert_near(r.radius, 0.2f, 0);
	assert_polygon_well_formed(&r);
}

static void test_validate(void **state)
{
	(void)state;
	tb_geometry g = geom_circle(0, 0, 1);
	assert_int_equal(tb_validate_geometry(&g), TB_OK);
	g.circle.radius = 0.0f;
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_NON_POSITIVE);
	g.circle.radius = -1.0f;
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_NON_POSITIVE);
	g.circle.radius = NAN;
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_INVALID_NUMBER);
	g = geom_circle(INFINITY, 0, 1);
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_INVALID_NUMBER);

	g = geom_capsule(tb_v2(0, 0), tb_v2(1, 0), 0.5f);
	assert_int_equal(tb_validate_geometry(&g), TB_OK);
	g.capsule.radius = 0.0f;
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_NON_POSITIVE);
	g = geom_capsule(tb_v2(1, 1), tb_v2(1, 1), 0.5f);
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_DEGENERATE);

	g = geom_segment(tb_v2(0, 0), tb_v2(1, 0));
	assert_int_equal(tb_validate_geometry(&g), TB_OK);
	g = geom_segment(tb_v2(2, 0), tb_v2(2, 0));
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_DEGENERATE);
	g = geom_chain(tb_v2(2, 0), tb_v2(1, 0), tb_v2(0, 0), tb_v2(-1, 0));
	assert_int_equal(tb_validate_geometry(&g), TB_OK);
	g.chain_segment.ghost2.x = NAN;
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_INVALID_NUMBER);

	g = geom_polygon(tb_make_box(1, 1));
	assert_int_equal(tb_validate_geometry(&g), TB_OK);
	/* clockwise storage is refused */
	tb_polygon cw = tb_make_box(1, 1);
	for (int i = 0; i < 4; ++i) {
		cw.vertices[i] = tb_make_box(1, 1).vertices[3 - i];
		cw.normals[i] = tb_neg(cw.normals[i]);
	}
	g = geom_polygon(cw);
	assert_int_not_equal(tb_validate_geometry(&g), TB_OK);
	/* a normal that does not belong to its edge */
	tb_polygon bad = tb_make_box(1, 1);
	bad.normals[1] = tb_v2(0.0f, 1.0f);
	g = geom_polygon(bad);
	assert_int_not_equal(tb_validate_geometry(&g), TB_OK);
	bad = tb_make_box(1, 1);
	bad.radius = -0.1f;
	g = geom_polygon(bad);
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_NEGATIVE);
	bad = tb_make_box(1, 1);
	bad.count = 2;
	g = geom_polygon(bad);
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_TOO_FEW_VERTICES);
}

/* ---- mass ---- */

static void test_mass_disc(void **state)
{
	(void)state;
	tb_geometry g = geom_circle(1.0f, 2.0f, 0.5f);
	tb_mass_data md = tb_compute_mass(&g, 2.0f);
	double m = 2.0 * M_PI * 0.25;
	assert_near(md.mass, m, 1e-5);
	assert_vec_near(md.center, 1.0, 2.0, 0);
	/* solid disc: m r^2 / 2 about its centre (the book's code gets this wrong) */
	assert_near(md.rotational_inertia, 0.5 * m * 0.25, 1e-6);
}

static void test_mass_box(void **state)
{
	(void)state;
	tb_geometry g = geom_polygon(tb_make_box(1.5f, 0.5f));
	tb_mass_data md = tb_compute_mass(&g, 3.0f);
	double w = 3.0, h = 1.0, m = 3.0 * w * h;
	assert_near(md.mass, m, 1e-5);
	assert_vec_near(md.center, 0.0, 0.0, 1e-6);
	assert_near(md.rotational_inertia, m * (w * w + h * h) / 12.0, 1e-4);
}

/* Cards: boxes down to 2 mm thick (and polygons built from points that far
 * apart, capsules and segments that short) are shapes with exact mass; a
 * tenth of a millimetre is not. */
static void test_thin_shapes(void **state)
{
	(void)state;
	const float thickness[3] = {0.002f, 0.001f, 2.0f * TB_MIN_FEATURE};
	for (int k = 0; k < 3; ++k) {
		float t = thickness[k];
		tb_geometry g = geom_polygon(tb_make_offset_box(0.3f, 0.5f * t, tb_v2(1.0f, 2.0f), tb_make_rot(0.4f)));
		assert_int_equal(tb_validate_geometry(&g), TB_OK);
		tb_mass_data md = tb_compute_mass(&g, 800.0f);
		double m = 800.0 * 0.6 * t;
		/* the corners 2 m from the origin carry the 2 mm side to about 1e-7 m:
		 * 1e-4 of the mass is what floats can give */
		assert_near(md.mass, m, 1e-4 * m);
		assert_vec_near(md.center, 1.0, 2.0, 1e-5);
		assert_near(md.rotational_inertia, m * (0.36 + (double)t * t) / 12.0, 1e-4 * m * 0.36 / 12.0);
		/* the same card from its four corners, clockwise */
		tb_vec2 pts[4] = {{0.3f, 0.5f * t}, {0.3f, -0.5f * t}, {-0.3f, -0.5f * t}, {-0.3f, 0.5f * t}};
		tb_polygon p;
		assert_int_equal(tb_make_polygon(pts, 4, 0.0f, &p), TB_OK);
		assert_int_equal(p.count, 4);
		g = geom_polygon(p);
		assert_near(tb_compute_mass(&g, 800.0f).mass, m, 1e-4 * m); /* float rounding of the 2 mm side */
	}
	tb_geometry g = geom_capsule(tb_v2(0, 0), tb_v2(0.002f, 0), 0.5f);
	assert_int_equal(tb_validate_geometry(&g), TB_OK);
	g = geom_segment(tb_v2(0, 0), tb_v2(0, 0.002f));
	assert_int_equal(tb_validate_geometry(&g), TB_OK);
	/* below the smallest feature: refused */
	g = geom_polygon(tb_make_box(0.3f, 0.4f * TB_MIN_FEATURE));
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_DEGENERATE);
	tb_vec2 sliver[4] = {{0.3f, 0.00005f}, {0.3f, -0.00005f}, {-0.3f, -0.00005f}, {-0.3f, 0.00005f}};
	tb_polygon p;
	assert_int_equal(tb_make_polygon(sliver, 4, 0.0f, &p), TB_ERR_DEGENERATE);
	g = geom_segment(tb_v2(0, 0), tb_v2(0.5f * TB_MIN_FEATURE, 0));
	assert_int_equal(tb_validate_geometry(&g), TB_ERR_DEGENERATE);
}

static void test_mass_offset_box(void **state)
{
	(void)state;
	tb_geometry g = geom_polygon(tb_make_offset_box(1.0f, 0.25f, tb_v2(5.0f, -3.0f), tb_make_rot(0.7f)));
	tb_mass_data md = tb_compute_mass(&g, 1.0f);
	double w = 2.0, h = 0.5, m = w * h;
	assert_near(md.mass, m, 1e-5);
	assert_vec_near(md.center, 5.0, -3.0, 1e-5);
	/* about the centre of mass, so the offset does not enter */
	assert_near(md.rotational_inertia, m * (w * w + h * h) / 12.0, 1e-4);
}

static void test_mass_triangle(void **state)
{
	(void)state;
	tb_vec2 pts[3] = {{1, 1}, {4, 1}, {1, 3}};
	tb_polygon p;
	assert_int_equal(tb_make_polygon(pts, 3, 0.0f, &p), TB_OK);
	tb_geometry g = geom_polygon(p);
	tb_mass_data md = tb_compute_mass(&g, 2.0f);
	double a = 3.0, b = 2.0, m = 2.0 * 0.5 * a * b;
	assert_near(md.mass, m, 1e-5);
	assert_vec_near(md.center, 2.0, 1.0 + 2.0 / 3.0, 1e-5);
	/* right triangle with legs a, b about its centroid: m (a^2 + b^2) / 18 */
	assert_near(md.rotational_inertia, m * (a * a + b * b) / 18.0, 1e-4);
}

static double capsule_inertia_by_hand(double len, double r, double density)
{
	/* rectangle len x 2r plus two half discs moved out by the parallel axis theorem */
	double rect_m = density * len * 2.0 * r;
	double rect_i = rect_m * (len * len + 4.0 * r * r) / 12.0;
	double half_m = density * M_PI * r * r / 2.0;
	double c = 4.0 * r / (3.0 * M_PI);
	double half_i_own = half_m * r * r / 2.0 - half_m * c * c;
	double half_i = half_i_own + half_m * (len / 2.0 + c) * (len / 2.0 + c);
	return rect_i + 2.0 * half_i;
}

static void test_mass_capsule(void **state)
{
	(void)state;
	tb_geometry g = geom_capsule(tb_v2(-1.0f, 2.0f), tb_v2(1.0f, 2.0f), 0.5f);
	tb_mass_data md = tb_compute_mass(&g, 1.5f);
	double len = 2.0, r = 0.5;
	assert_near(md.mass, 1.5 * (len * 2.0 * r + M_PI * r * r), 1e-5);
	assert_vec_near(md.center, 0.0, 2.0, 1e-6);
	assert_near(md.rotational_inertia, capsule_inertia_by_hand(len, r, 1.5), 1e-4);
	/* a tilted capsule has the same inertia about its centre */
	g = geom_capsule(tb_v2(0.0f, 0.0f), tb_v2(1.2f, 1.6f), 0.5f);
	md = tb_compute_mass(&g, 1.5f);
	assert_near(md.rotational_inertia, capsule_inertia_by_hand(2.0, r, 1.5), 1e-4);
	assert_vec_near(md.center, 0.6, 0.8, 1e-6);
}

static void test_mass_rounded_box(void **state)
{
	(void)state;
	float hw = 1.0f, hh = 0.5f, r = 0.25f;
	tb_geometry g = geom_polygon(tb_make_rounded_box(hw, hh, r));
	tb_mass_data md = tb_compute_mass(&g, 1.0f);

	/* by hand: core rectangle, four side strips, four quarter discs */
	double w = 2.0 * hw, h = 2.0 * hh;
	double area = w * h + 2.0 * (w + h) * r + M_PI * r * r;
	double i = w * h * (w * w + h * h) / 12.0;
	double top = w * r; /* strips above and below */
	i += 2.0 * (top * (w * w + r * r) / 12.0 + top * (hh + r / 2.0) * (hh + r / 2.0));
	double side = h * r;
	i += 2.0 * (side * (h * h + r * r) / 12.0 + side * (hw + r / 2.0) * (hw + r / 2.0));
	double q = M_PI * r * r / 4.0;
	double c = 4.0 * r / (3.0 * M_PI);
	double q_apex = M_PI * r * r * r * r / 8.0;
	double q_own = q_apex - q * 2.0 * c * c;
	double far_sq = (hw + c) * (hw + c) + (hh + c) * (hh + c);
	i += 4.0 * (q_own + q * far_sq);

	assert_near(md.mass, area, 1e-5);
	assert_vec_near(md.center, 0.0, 0.0, 1e-5);
	assert_near(md.rotational_inertia, i, 1e-4);
}

/* The polygon formula checked by brute force: sum over a fine grid of the
 * points the shape contains. Independent of every closed form above. */
static void test_mass_rounded_polygon_by_sampling(void **state)
{
	(void)state;
	tb_vec2 pts[5] = {{0, 0}, {2, 0}, {2.5f, 1}, {1, 2}, {-0.5f, 1}};
	tb_polygon p;
	assert_int_equal(tb_make_polygon(pts, 5, 0.3f, &p), TB_OK);
	tb_geometry g = geom_polygon(p);
	tb_mass_data md = tb_compute_mass(&g, 1.0f);

	double step = 0.005, area = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0;
	for (double y = -0.4; y < 2.4; y += step) {
		for (double x = -0.9; x < 2.9; x += step) {
			tb_vec2 q = tb_v2((float)(x + 0.5 * step), (float)(y + 0.5 * step));
			if (!tb_geometry_test_point(&g, q)) continue;
			double da = step * step;
			area += da;
			sx += da * q.x;
			sy += da * q.y;
			sxx += da * ((double)q.x * q.x + (double)q.y * q.y);
		}
	}
	double cx = sx / area, cy = sy / area;
	double inertia = sxx - area * (cx * cx + cy * cy);
	assert_near(md.mass, area, 2e-3 * area);
	assert_vec_near(md.center, cx, cy, 2e-3);
	assert_near(md.rotational_inertia, inertia, 3e-3 * inertia);
}

static void test_mass_lines_have_none(void **state)
{
	(void)state;
	tb_geometry g = geom_segment(tb_v2(0, 0), tb_v2(2, 0));
	tb_mass_data md = tb_compute_mass(&g, 5.0f);
	assert_near(md.mass, 0.0, 0);
	assert_near(md.rotational_inertia, 0.0, 0);
	g = geom_chain(tb_v2(3, 0), tb_v2(2, 0), tb_v2(0, 0), tb_v2(-1, 0));
	md = tb_compute_mass(&g, 5.0f);
	assert_near(md.mass, 0.0, 0);
}

/* ---- bounds, centroid, points ---- */

static void test_aabbs(void **state)
{
	(void)state;
	tb_transform xf = {{1.0f, 2.0f}, {1.0f, 0.0f}};
	tb_geometry g = geom_circle(0.5f, 0.0f, 0.5f);
	tb_aabb b = tb_compute_aabb(&g, xf);
	assert_vec_near(b.lower, 1.0, 1.5, 1e-6);
	assert_vec_near(b.upper, 2.0, 2.5, 1e-6);

	/* a unit box turned 45 degrees reaches sqrt(2) */
	tb_transform rot = {{0.0f, 0.0f}, tb_make_rot(0.25f * TB_PI)};
	g = geom_polygon(tb_make_box(1.0f, 1.0f));
	b = tb_compute_aabb(&g, rot);
	assert_vec_near(b.lower, -sqrtf(2.0f), -sqrtf(2.0f), 1e-5);
	assert_vec_near(b.upper, sqrtf(2.0f), sqrtf(2.0f), 1e-5);

	g = geom_polygon(tb_make_rounded_box(1.0f, 0.5f, 0.1f));
	b = tb_compute_aabb(&g, xf);
	assert_vec_near(b.lower, -0.1, 1.4, 1e-6);
	assert_vec_near(b.upper, 2.1, 2.6, 1e-6);

	g = geom_capsule(tb_v2(-1, 0), tb_v2(1, 0), 0.25f);
	b = tb_compute_aabb(&g, rot);
	float c = cosf(0.25f * TB_PI);
	assert_vec_near(b.lower, -c - 0.25f, -c - 0.25f, 1e-5);
	assert_vec_near(b.upper, c + 0.25f, c + 0.25f, 1e-5);

	g = geom_segment(tb_v2(0, 0), tb_v2(2, -1));
	b = tb_compute_aabb(&g, xf);
	assert_vec_near(b.lower, 1.0, 1.0, 1e-6);
	assert_vec_near(b.upper, 3.0, 2.0, 1e-6);

	g = geom_chain(tb_v2(9, 9), tb_v2(1, 0), tb_v2(0, 0), tb_v2(-9, -9));
	b = tb_compute_aabb(&g, tb_transform_identity);
	assert_vec_near(b.lower, 0.0, 0.0, 0);
	assert_vec_near(b.upper, 1.0, 0.0, 0);
}

static void test_centroids(void **state)
{
	(void)state;
	tb_geometry g = geom_circle(1, 2, 1);
	assert_vec_near(tb_geometry_centroid(&g), 1.0, 2.0, 0);
	g = geom_capsule(tb_v2(0, 0), tb_v2(2, 4), 1);
	assert_vec_near(tb_geometry_centroid(&g), 1.0, 2.0, 1e-6);
	g = geom_polygon(tb_make_offset_box(1, 1, tb_v2(-3, 1), tb_rot_identity));
	assert_vec_near(tb_geometry_centroid(&g), -3.0, 1.0, 1e-6);
	g = geom_segment(tb_v2(0, 0), tb_v2(-2, 0));
	assert_vec_near(tb_geometry_centroid(&g), -1.0, 0.0, 1e-6);
}

static void test_point_tests(void **state)
{
	(void)state;
	tb_geometry g = geom_circle(1, 0, 1);
	assert_true(tb_geometry_test_point(&g, tb_v2(1.5f, 0.5f)));
	assert_false(tb_geometry_test_point(&g, tb_v2(1.8f, 0.8f)));

	g = geom_polygon(tb_make_box(1, 0.5f));
	assert_true(tb_geometry_test_point(&g, tb_v2(0.9f, 0.4f)));
	assert_false(tb_geometry_test_point(&g, tb_v2(1.1f, 0.0f)));
	assert_false(tb_geometry_test_point(&g, tb_v2(0.0f, -0.6f)));

	/* rounded corner: inside within the radius of the corner, not in the box corner */
	g = geom_polygon(tb_make_rounded_box(1, 1, 0.5f));
	assert_true(tb_geometry_test_point(&g, tb_v2(1.0f + 0.34f, 1.0f + 0.34f)));
	assert_false(tb_geometry_test_point(&g, tb_v2(1.0f + 0.36f, 1.0f + 0.36f)));
	assert_true(tb_geometry_test_point(&g, tb_v2(1.45f, 0.0f)));

	g = geom_capsule(tb_v2(-1, 0), tb_v2(1, 0), 0.5f);
	assert_true(tb_geometry_test_point(&g, tb_v2(0.0f, 0.45f)));
	assert_true(tb_geometry_test_point(&g, tb_v2(1.3f, 0.3f)));
	assert_false(tb_geometry_test_point(&g, tb_v2(1.4f, 0.4f)));

	g = geom_segment(tb_v2(-1, 0), tb_v2(1, 0));
	assert_false(tb_geometry_test_point(&g, tb_v2(0, 0)));
	g = geom_chain(tb_v2(2, 0), tb_v2(1, 0), tb_v2(-1, 0), tb_v2(-2, 0));
	assert_false(tb_geometry_test_point(&g, tb_v2(0, 0)));
}

/* ---- ray casts ---- */

static tb_ray_cast_input ray(float x, float y, float dx, float dy)
{
	tb_ray_cast_input in = {{x, y}, {dx, dy}, 1.0f};
	return in;
}

static void test_ray_circle(void **state)
{
	(void)state;
	tb_geometry g = geom_circle(0, 0, 1);
	tb_ray_cast_input in = ray(-5, 0, 10, 0);
	tb_cast_output o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, 0.4, 1e-6);
	assert_vec_near(o.normal, -1.0, 0.0, 1e-6);
	assert_vec_near(o.point, -1.0, 0.0, 1e-5);

	/* at height 0.6 the circle's edge is at x = -0.8 */
	in = ray(-5, 0.6f, 10, 0);
	o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, (5.0 - 0.8) / 10.0, 1e-6);
	assert_vec_near(o.normal, -0.8, 0.6, 1e-5);

	in = ray(-5, 1.5f, 10, 0);
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
	in = ray(-5, 0, 10, 0);
	in.max_fraction = 0.3f;
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
	in = ray(0.2f, 0, 10, 0); /* starts inside */
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
	in = ray(-5, 0, -10, 0); /* pointing away */
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
	in = ray(-5, 0, 0, 0);
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
}

static void test_ray_polygon(void **state)
{
	(void)state;
	tb_geometry g = geom_polygon(tb_make_box(1, 1));
	tb_ray_cast_input in = ray(-5, 0.5f, 10, 0);
	tb_cast_output o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, 0.4, 1e-6);
	assert_vec_near(o.normal, -1.0, 0.0, 0);
	assert_vec_near(o.point, -1.0, 0.5, 1e-5);

	in = ray(0.5f, 5, 0, -10); /* from above */
	o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, 0.4, 1e-6);
	assert_vec_near(o.normal, 0.0, 1.0, 0);

	in = ray(-3, -1.5f, 4, 4); /* diagonal: reaches x = -1 at t = 0.5, where y = 0.5 */
	o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, 0.5, 1e-6);
	assert_vec_near(o.normal, -1.0, 0.0, 0);

	in = ray(0, 0, 10, 0);
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
	in = ray(-5, 1.5f, 10, 0);
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
	in = ray(-5, 0, 10, 0);
	in.max_fraction = 0.35f;
	assert_false(tb_ray_cast_geometry(&in, &g).hit);

	tb_vec2 pts[3] = {{0, 0}, {2, 0}, {0, 2}};
	tb_polygon tri;
	assert_int_equal(tb_make_polygon(pts, 3, 0.0f, &tri), TB_OK);
	g = geom_polygon(tri);
	in = ray(3, 3, -2, -2); /* toward the hypotenuse x + y = 2 */
	o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, 1.0, 1e-6);
	assert_vec_near(o.normal, sqrtf(0.5f), sqrtf(0.5f), 1e-6);
}

static void test_ray_rounded_polygon(void **state)
{
	(void)state;
	float r = 0.5f;
	tb_geometry g = geom_polygon(tb_make_rounded_box(1, 1, r));
	tb_ray_cast_input in = ray(-5, 0, 10, 0);
	tb_cast_output o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, (5.0 - 1.5) / 10.0, 1e-6);
	assert_vec_near(o.normal, -1.0, 0.0, 1e-6);

	/* at y = 1.25 the ray meets the corner circle around (-1, 1) */
	in = ray(-5, 1.25f, 10, 0);
	o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	double x = -1.0 - sqrt(0.25 - 0.0625);
	assert_near(o.fraction, (x + 5.0) / 10.0, 1e-5);
	assert_vec_near(o.normal, (x + 1.0) / 0.5, 0.5, 1e-4);

	in = ray(-5, 1.55f, 10, 0);
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
	in = ray(-1.2f, 0, -10, 0); /* starts in the rounding */
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
}

static void test_ray_capsule(void **state)
{
	(void)state;
	tb_geometry g = geom_capsule(tb_v2(-1, 0), tb_v2(1, 0), 0.5f);
	tb_ray_cast_input in = ray(0.5f, 5, 0, -10);
	tb_cast_output o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, 0.45, 1e-6);
	assert_vec_near(o.normal, 0.0, 1.0, 1e-6);

	in = ray(5, 0, -10, 0); /* into the end cap */
	o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, (5.0 - 1.5) / 10.0, 1e-6);
	assert_vec_near(o.normal, 1.0, 0.0, 1e-6);

	in = ray(0, 0.2f, 0, 10); /* from inside */
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
	in = ray(-5, 0.6f, 10, 0);
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
}

static void test_ray_segment_two_sided(void **state)
{
	(void)state;
	tb_geometry g = geom_segment(tb_v2(-1, 0), tb_v2(1, 0));
	tb_ray_cast_input in = ray(0.5f, 2, 0, -4);
	tb_cast_output o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, 0.5, 1e-6);
	assert_vec_near(o.normal, 0.0, 1.0, 0);
	in = ray(0.5f, -2, 0, 4);
	o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_vec_near(o.normal, 0.0, -1.0, 0);
	in = ray(1.5f, -2, 0, 4);
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
	in = ray(-2, 0.5f, 4, 0); /* parallel */
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
}

static void test_ray_chain_one_sided(void **state)
{
	(void)state;
	/* right to left: the right perpendicular, and so the solid side, faces up */
	tb_geometry g = geom_chain(tb_v2(2, 0), tb_v2(1, 0), tb_v2(-1, 0), tb_v2(-2, 0));
	tb_ray_cast_input in = ray(0.25f, 2, 0, -4);
	tb_cast_output o = tb_ray_cast_geometry(&in, &g);
	assert_true(o.hit);
	assert_near(o.fraction, 0.5, 1e-6);
	assert_vec_near(o.normal, 0.0, 1.0, 0);
	assert_vec_near(o.point, 0.25, 0.0, 1e-6);
	/* from below it is not there */
	in = ray(0.25f, -2, 0, 4);
	assert_false(tb_ray_cast_geometry(&in, &g).hit);
}

static void test_ray_aabb(void **state)
{
	(void)state;
	tb_aabb box = {{0, 0}, {2, 1}};
	tb_cast_output o = tb_ray_cast_aabb(box, tb_v2(-2, 0.5f), tb_v2(2, 0.5f));
	assert_true(o.hit);
	assert_near(o.fraction, 0.5, 1e-6);
	assert_vec_near(o.normal, -1.0, 0.0, 0);
	o = tb_ray_cast_aabb(box, tb_v2(1, 3), tb_v2(1, -1));
	assert_true(o.hit);
	assert_near(o.fraction, 0.5, 1e-6);
	assert_vec_near(o.normal, 0.0, 1.0, 0);
	assert_false(tb_ray_cast_aabb(box, tb_v2(-2, 1.5f), tb_v2(4, 1.5f)).hit);
	assert_false(tb_ray_cast_aabb(box, tb_v2(-2, 0.5f), tb_v2(-1, 0.5f)).hit);
	assert_false(tb_ray_cast_aabb(box, tb_v2(1, 0.5f), tb_v2(5, 0.5f)).hit);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_make_polygon_ccw_and_cw),
		cmocka_unit_test(test_make_polygon_removes_collinear),
		cmocka_unit_test(test_thin_shapes),
		cmocka_unit_test(test_make_polygon_triangle_centroid),
		cmocka_unit_test(test_make_polygon_errors),
		cmocka_unit_test(test_status_strings),
		cmocka_unit_test(test_boxes),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_mass_disc),
		cmocka_unit_test(test_mass_box),
		cmocka_unit_test(test_mass_offset_box),
		cmocka_unit_test(test_mass_triangle),
		cmocka_unit_test(test_mass_capsule),
		cmocka_unit_test(test_mass_rounded_box),
		cmocka_unit_test(test_mass_rounded_polygon_by_sampling),
		cmocka_unit_test(test_mass_lines_have_none),
		cmocka_unit_test(test_aabbs),
		cmocka_unit_test(test_centroids),
		cmocka_unit_test(test_point_tests),
		cmocka_unit_test(test_ray_circle),
		cmocka_unit_test(test_ray_polygon),
		cmocka_unit_test(test_ray_rounded_polygon),
		cmocka_unit_test(test_ray_capsule),
		cmocka_unit_test(test_ray_segment_two_sided),
		cmocka_unit_test(test_ray_chain_one_sided),
		cmocka_unit_test(test_ray_aabb),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
