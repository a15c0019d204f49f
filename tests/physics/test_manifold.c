/* Contact manifolds for every pair of shape kinds. */
#include "test_util.h"

#include <float.h>
#include <string.h>

static tb_transform xf_at(float x, float y, float angle)
{
	tb_transform xf = {{x, y}, tb_make_rot(angle)};
	return xf;
}

static const tb_transform ident = {{0.0f, 0.0f}, {1.0f, 0.0f}};

static tb_geometry g_circle(float x, float y, float r)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CIRCLE;
	g.circle.center = tb_v2(x, y);
	g.circle.radius = r;
	return g;
}

static tb_geometry g_capsule(float x1, float y1, float x2, float y2, float r)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	g.capsule.center1 = tb_v2(x1, y1);
	g.capsule.center2 = tb_v2(x2, y2);
	g.capsule.radius = r;
	return g;
}

static tb_geometry g_segment(float x1, float y1, float x2, float y2)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_SEGMENT;
	g.segment.point1 = tb_v2(x1, y1);
	g.segment.point2 = tb_v2(x2, y2);
	return g;
}

static tb_geometry g_poly(tb_polygon p)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_POLYGON;
	g.polygon = p;
	return g;
}

static tb_geometry g_box(float hw, float hh) { return g_poly(tb_make_box(hw, hh)); }

static tb_geometry g_chain(tb_vec2 g1, tb_vec2 p1, tb_vec2 p2, tb_vec2 g2)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CHAIN_SEGMENT;
	g.chain_segment.ghost1 = g1;
	g.chain_segment.segment.point1 = p1;
	g.chain_segment.segment.point2 = p2;
	g.chain_segment.ghost2 = g2;
	return g;
}

/* Everything a manifold promises, whatever the pair. */
static void assert_sane(const tb_manifold *m, tb_transform xfa, tb_transform xfb)
{
	assert_true(m->point_count >= 0 && m->point_count <= 2);
	if (m->point_count == 0) return;
	assert_true(tb_is_valid_vec2(m->normal));
	assert_near(tb_length(m->normal), 1.0, 1e-4);
	/* a point within the speculative distance; the other of two polygon points
	 * may lie beyond it (the far end of an incident face, speculative) */
	assert_true(m->points[0].separation <= TB_SPECULATIVE_DISTANCE ||
	            (m->point_count == 2 && m->points[1].separation <= TB_SPECULATIVE_DISTANCE));
	for (int i = 0; i < m->point_count; ++i) {
		const tb_manifold_point *p = m->points + i;
		assert_true(tb_is_valid_vec2(p->point) && tb_is_valid_float(p->separation));
		tb_vec2 ea = tb_sub(p->point, xfa.p), eb = tb_sub(p->point, xfb.p);
		assert_vec_near(p->anchor_a, ea.x, ea.y, 1e-4);
		assert_vec_near(p->anchor_b, eb.x, eb.y, 1e-4);
		assert_near(p->normal_impulse, 0.0, 0);
		assert_near(p->tangent_impulse, 0.0, 0);
	}
	if (m->point_count == 2) assert_int_not_equal(m->points[0].id, m->points[1].id);
}

static tb_manifold collide(const tb_geometry *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb)
{
	tb_manifold m = tb_collide(a, xfa, b, xfb);
	assert_sane(&m, xfa, xfb);
	/* the other order is the same contact seen from B */
	tb_manifold r = tb_collide(b, xfb, a, xfa);
	assert_sane(&r, xfb, xfa);
	if (a->type != b->type) {
		assert_int_equal(r.point_count, m.point_count);
		if (m.point_count > 0) assert_vec_near(r.normal, -m.normal.x, -m.normal.y, 1e-4);
		for (int i = 0; i < m.point_count; ++i) {
			assert_vec_near(r.points[i].point, m.points[i].point.x, m.points[i].point.y, 1e-4);
			assert_near(r.points[i].separation, m.points[i].separation, 1e-5);
		}
	}
	return m;
}

/* ---- circles ---- */

static void test_circles(void **state)
{
	(void)state;
	tb_geometry a = g_circle(0, 0, 1), b = g_circle(0, 0, 0.5f);
	tb_manifold m = collide(&a, ident, &b, xf_at(1.5f, 0, 0));
	assert_int_equal(m.point_count, 1);
	assert_near(m.points[0].separation, 0.0, 1e-6);
	assert_vec_near(m.normal, 1.0, 0.0, 1e-6);
	assert_vec_near(m.points[0].point, 1.0, 0.0, 1e-6);

	/* speculative: apart, but within the speculative distance */
	m = collide(&a, ident, &b, xf_at(1.51f, 0, 0));
	assert_int_equal(m.point_count, 1);
	assert_near(m.points[0].separation, 0.01, 1e-5);
	assert_vec_near(m.points[0].point, 1.005, 0.0, 1e-5);

	m = collide(&a, ident, &b, xf_at(1.5f + 1.5f * TB_SPECULATIVE_DISTANCE, 0, 0));
	assert_int_equal(m.point_count, 0);

	/* deep: the point is midway between the two surfaces */
	m = collide(&a, xf_at(2, 3, 0.4f), &b, xf_at(2, 4, 0));
	assert_int_equal(m.point_count, 1);
	assert_near(m.points[0].separation, -0.5, 1e-5);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	assert_vec_near(m.points[0].point, 2.0, 3.75, 1e-5);
	assert_vec_near(m.points[0].anchor_a, 0.0, 0.75, 1e-5);
	assert_vec_near(m.points[0].anchor_b, 0.0, -0.25, 1e-5);

	/* coincident centres: some valid normal, full overlap */
	m = collide(&a, xf_at(1, 1, 0), &b, xf_at(1, 1, 0));
	assert_int_equal(m.point_count, 1);
	assert_near(m.points[0].separation, -1.5, 1e-6);

	/* order: B before A gives the opposite normal and swapped anchors */
	tb_manifold r = tb_collide(&b, xf_at(2, 4, 0), &a, xf_at(2, 3, 0.4f));
	assert_vec_near(r.normal, 0.0, -1.0, 1e-5);
	assert_vec_near(r.points[0].anchor_a, 0.0, -0.25, 1e-5);
	assert_vec_near(r.points[0].anchor_b, 0.0, 0.75, 1e-5);
}

/* ---- boxes ---- */

static void test_box_on_box_face(void **state)
{
	(void)state;
	tb_geometry ground = g_box(5.0f, 0.5f), box = g_box(0.5f, 0.5f);
	tb_manifold m = collide(&ground, ident, &box, xf_at(0.2f, 0.99f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);
	float xs[2] = {m.points[0].point.x, m.points[1].point.x};
	assert_near(fminf(xs[0], xs[1]), -0.3, 1e-5);
	assert_near(fmaxf(xs[0], xs[1]), 0.7, 1e-5);
	for (int i = 0; i < 2; ++i) {
		assert_near(m.points[i].separation, -0.01, 1e-5);
		assert_near(m.points[i].point.y, 0.495, 1e-5);
	}

	/* the other way round the normal points down: always from A to B */
	m = collide(&box, xf_at(0.2f, 0.99f, 0), &ground, ident);
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, -1.0, 1e-6);

	/* speculative and out of range */
	m = collide(&ground, ident, &box, xf_at(0.2f, 1.01f, 0));
	assert_int_equal(m.point_count, 2);
	assert_near(m.points[0].separation, 0.01, 1e-5);
	assert_near(m.points[1].separation, 0.01, 1e-5);
	m = collide(&ground, ident, &box, xf_at(0.2f, 1.0f + 1.5f * TB_SPECULATIVE_DISTANCE, 0));
	assert_int_equal(m.point_count, 0);

	/* deep */
	m = collide(&ground, ident, &box, xf_at(-1.0f, 0.6f, 0));
	assert_int_equal(m.point_count, 2);
	assert_near(m.points[0].separation, -0.4, 1e-5);
	assert_near(m.points[1].separation, -0.4, 1e-5);
}

static void test_box_on_box_rotated_scene(void **state)
{
	(void)state;
	/* the whole scene turned and moved: the same contact, turned and moved */
	tb_geometry ground = g_box(5.0f, 0.5f), box = g_box(0.5f, 0.5f);
	tb_transform frame = xf_at(10.0f, -3.0f, 0.7f);
	tb_transform xa = tb_mul_transforms(frame, ident);
	tb_transform xb = tb_mul_transforms(frame, xf_at(0.2f, 0.99f, 0));
	tb_manifold m = collide(&ground, xa, &box, xb);
	assert_int_equal(m.point_count, 2);
	tb_vec2 n = tb_rotate(frame.q, tb_v2(0, 1));
	assert_vec_near(m.normal, n.x, n.y, 1e-5);
	for (int i = 0; i < 2; ++i) {
		tb_vec2 local = tb_inv_transform_point(frame, m.points[i].point);
		assert_near(local.y, 0.495, 1e-4);
		assert_true(fabsf(local.x - (-0.3f)) < 1e-4f || fabsf(local.x - 0.7f) < 1e-4f);
		assert_near(m.points[i].separation, -0.01, 1e-4);
	}
}

/* A box on its corner: the corner, and the far end of the incident face as a
 * speculative point (it holds the face against a turn about the corner). */
static void test_box_corner_keeps_the_far_end(void **state)
{
	(void)state;
	tb_geometry ground = g_box(5.0f, 0.5f), box = g_box(0.5f, 0.5f);
	float h = sqrtf(0.5f); /* half diagonal */
	tb_manifold m = collide(&ground, ident, &box, xf_at(1.0f, 0.5f + h - 0.01f, 0.25f * TB_PI));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	int corner = m.points[0].separation < m.points[1].separation ? 0 : 1;
	assert_near(m.points[corner].separation, -0.01, 1e-4);
	assert_vec_near(m.points[corner].point, 1.0, 0.495, 1e-4);
	/* the face's other end: one side (1 m) up at 45 degrees */
	assert_near(m.points[1 - corner].separation, -0.01 + sqrt(0.5), 1e-4);
	/* far from the ground, no manifold at all */
	assert_int_equal(collide(&ground, ident, &box, xf_at(1.0f, 0.5f + h + 0.1f, 0.25f * TB_PI)).point_count, 0);

	/* two corners meeting diagonally while apart: the normal joins the corners */
	tb_geometry small = g_box(0.5f, 0.5f);
	m = collide(&small, ident, &small, xf_at(1.005f, 1.005f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, sqrt(0.5), sqrt(0.5), 1e-4);
	assert_near(m.points[0].separation, 0.005 * sqrt(2.0), 1e-5);
}

static void test_box_feature_ids_persist_while_sliding(void **state)
{
	(void)state;
	tb_geometry ground = g_box(5.0f, 0.5f), box = g_box(0.5f, 0.5f);
	tb_manifold m0 = collide(&ground, ident, &box, xf_at(0.0f, 0.99f, 0.0f));
	assert_int_equal(m0.point_count, 2);
	for (int k = 1; k <= 50; ++k) {
		float x = 0.002f * (float)k;
		float angle = 0.0005f * (float)(k % 5) - 0.001f;
		tb_manifold m = collide(&ground, ident, &box, xf_at(x, 0.99f, angle));
		assert_int_equal(m.point_count, 2);
		for (int i = 0; i < 2; ++i) {
			assert_int_equal(m.points[i].id, m0.points[i].id);
			assert_near(m.points[i].point.x - x, m0.points[i].point.x, 1e-3);
		}
	}
	/* and a box resting on a box of the same size (a tie between faces) */
	tb_manifold s0 = collide(&box, ident, &box, xf_at(0.1f, 0.99f, 0.0f));
	for (int k = 1; k <= 20; ++k) {
		tb_manifold s = collide(&box, ident, &box, xf_at(0.1f + 0.001f * (float)k, 0.99f, 0.0f));
		assert_int_equal(s.point_count, 2);
		assert_int_equal(s.points[0].id, s0.points[0].id);
		assert_int_equal(s.points[1].id, s0.points[1].id);
	}
}

static void test_coincident_polygons(void **state)
{
	(void)state;
	tb_geometry a = g_box(0.5f, 0.5f);
	tb_manifold m = collide(&a, xf_at(3, 3, 0), &a, xf_at(3, 3, 0));
	assert_true(m.point_count >= 1);
	for (int i = 0; i < m.point_count; ++i) assert_near(m.points[i].separation, -1.0, 1e-5);

	m = collide(&a, xf_at(3, 3, 0.3f), &a, xf_at(3, 3, 1.1f));
	assert_true(m.point_count >= 1);

	tb_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
	tb_polygon t;
	assert_int_equal(tb_make_polygon(tri, 3, 0.1f, &t), TB_OK);
	tb_geometry gt = g_poly(t);
	m = collide(&gt, ident, &gt, ident);
	assert_true(m.point_count >= 1);
}

static void test_rounded_boxes(void **state)
{
	(void)state;
	tb_geometry a = g_poly(tb_make_rounded_box(1.0f, 0.5f, 0.1f));
	tb_geometry b = g_poly(tb_make_rounded_box(0.5f, 0.5f, 0.05f));
	/* surfaces: top of a at 0.6, bottom of b at y - 0.55 */
	tb_manifold m = collide(&a, ident, &b, xf_at(0.0f, 1.14f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	assert_near(m.points[0].separation, -0.01, 1e-5);
	assert_near(m.points[0].point.y, 0.595, 1e-5);

	/* cores apart: rounded corners meet along the diagonal */
	m = collide(&b, ident, &b, xf_at(1.05f, 1.05f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, sqrt(0.5), sqrt(0.5), 1e-4);
	assert_near(m.points[0].separation, 0.05 * sqrt(2.0) - 0.1, 1e-5);
}

/* ---- polygons and circles ---- */

static void test_polygon_and_circle(void **state)
{
	(void)state;
	tb_geometry box = g_box(1, 1), c = g_circle(0, 0, 0.5f);
	tb_manifold m = collide(&box, ident, &c, xf_at(0.3f, 1.45f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);
	assert_near(m.points[0].separation, -0.05, 1e-5);
	assert_vec_near(m.points[0].point, 0.3, 0.975, 1e-5);

	/* corner region */
	tb_geometry small = g_circle(0, 0, 0.2f);
	m = collide(&box, ident, &small, xf_at(1.1f, 1.1f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, sqrt(0.5), sqrt(0.5), 1e-5);
	assert_near(m.points[0].separation, 0.1 * sqrt(2.0) - 0.2, 1e-5);

	/* centre inside: the shallowest face wins */
	m = collide(&box, ident, &small, xf_at(0.2f, -0.9f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, -1.0, 1e-6);
	assert_near(m.points[0].separation, -0.3, 1e-5);

	/* centre at the polygon's centre: any face, no NaN */
	m = collide(&box, ident, &small, ident);
	assert_int_equal(m.point_count, 1);
	assert_near(m.points[0].separation, -1.2, 1e-5);

	m = collide(&box, ident, &small, xf_at(0.0f, 1.25f, 0));
	assert_int_equal(m.point_count, 0);

	/* rounded polygon */
	tb_geometry rbox = g_poly(tb_make_rounded_box(1, 1, 0.1f));
	m = collide(&rbox, xf_at(0, 0, 0.5f * TB_PI), &c, xf_at(0.0f, 1.55f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	assert_near(m.points[0].separation, -0.05, 1e-5);
	assert_near(m.points[0].point.y, 1.075, 1e-5);
}

/* ---- capsules ---- */

static void test_capsule_and_circle(void **state)
{
	(void)state;
	tb_geometry cap = g_capsule(-1, 0, 1, 0, 0.25f), c = g_circle(0, 0, 0.5f);
	tb_manifold m = collide(&cap, ident, &c, xf_at(0.3f, 0.7f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);
	assert_near(m.points[0].separation, -0.05, 1e-5);

	m = collide(&cap, ident, &c, xf_at(1.5f, 0.0f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 1.0, 0.0, 1e-6);
	assert_near(m.points[0].separation, -0.25, 1e-5);

	/* centre on the axis */
	m = collide(&cap, ident, &c, xf_at(0.3f, 0.0f, 0));
	assert_int_equal(m.point_count, 1);
	assert_near(m.points[0].separation, -0.75, 1e-5);
	assert_near(fabsf(m.normal.y), 1.0, 1e-5);
}

static void test_capsules(void **state)
{
	(void)state;
	tb_geometry a = g_capsule(-1, 0, 1, 0, 0.25f);
	tb_geometry b = g_capsule(-0.5f, 0, 1.5f, 0, 0.25f);
	/* lying on each other: two points over the overlap */
	tb_manifold m = collide(&a, ident, &b, xf_at(0, 0.45f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	float xs[2] = {m.points[0].point.x, m.points[1].point.x};
	assert_near(fminf(xs[0], xs[1]), -0.5, 1e-5);
	assert_near(fmaxf(xs[0], xs[1]), 1.0, 1e-5);
	assert_near(m.points[0].separation, -0.05, 1e-5);
	assert_near(m.points[1].separation, -0.05, 1e-5);

	/* crossing */
	tb_geometry v = g_capsule(0, -1, 0, 1, 0.25f);
	m = collide(&a, ident, &v, xf_at(0.3f, 0.1f, 0));
	assert_true(m.point_count >= 1);
	for (int i = 0; i < m.point_count; ++i) assert_true(m.points[i].separation < 0.0f);

	/* end to end along one line: the normal follows the axis */
	tb_geometry e = g_capsule(0, 0, 2, 0, 0.25f);
	m = collide(&a, ident, &e, xf_at(1.3f, 0, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 1.0, 0.0, 1e-5);
	assert_near(m.points[0].separation, -0.2, 1e-5);
	m = collide(&a, ident, &e, xf_at(2.0f, 0, 0));
	assert_int_equal(m.point_count, 0);

	/* a T: the end of one on the side of the other */
	tb_geometry t = g_capsule(0, 0, 0, 2, 0.25f);
	m = collide(&a, ident, &t, xf_at(0.2f, 0.49f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	assert_near(m.points[0].separation, -0.01, 1e-5);
	assert_vec_near(m.points[0].point, 0.2, 0.245, 1e-5);
}

static void test_polygon_and_capsule(void **state)
{
	(void)state;
	tb_geometry box = g_box(1, 1);
	tb_geometry lying = g_capsule(-0.5f, 0, 0.5f, 0, 0.25f);
	tb_manifold m = collide(&box, ident, &lying, xf_at(0.0f, 1.24f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	for (int i = 0; i < 2; ++i) {
		assert_near(fabsf(m.points[i].point.x), 0.5, 1e-5);
		assert_near(m.points[i].separation, -0.01, 1e-5);
	}
	tb_geometry standing = g_capsule(0, 0, 0, 2, 0.25f);
	m = collide(&box, ident, &standing, xf_at(0.3f, 1.24f, 0));
	assert_int_equal(m.point_count, 1);
	assert_near(m.points[0].separation, -0.01, 1e-5);
	assert_vec_near(m.points[0].point, 0.3, 0.995, 1e-5);
	/* a tilted capsule's end near a box corner */
	m = collide(&box, ident, &standing, xf_at(1.1f, 1.1f, -0.25f * TB_PI));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, sqrt(0.5), sqrt(0.5), 1e-4);
}

/* ---- segments ---- */

static void test_segments(void **state)
{
	(void)state;
	tb_geometry s = g_segment(-5, 0, 5, 0);
	tb_geometry c = g_circle(0, 0, 0.5f);
	tb_manifold m = collide(&s, ident, &c, xf_at(1, 0.4f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);
	assert_near(m.points[0].separation, -0.1, 1e-5);
	/* two-sided */
	m = collide(&s, ident, &c, xf_at(1, -0.4f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, -1.0, 1e-6);

	tb_geometry box = g_box(0.5f, 0.5f);
	m = collide(&s, ident, &box, xf_at(0.5f, 0.49f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);
	assert_near(m.points[0].separation, -0.01, 1e-5);
	assert_near(m.points[1].separation, -0.01, 1e-5);
	m = collide(&s, ident, &box, xf_at(0.5f, -0.49f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, -1.0, 1e-6);

	tb_geometry cap = g_capsule(-1, 0, 1, 0, 0.25f);
	m = collide(&s, ident, &cap, xf_at(0, 0.24f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);
	assert_near(m.points[0].separation, -0.01, 1e-5);

	/* two segments never collide */
	tb_geometry s2 = g_segment(0, -1, 0, 1);
	m = tb_collide(&s, ident, &s2, ident);
	assert_int_equal(m.point_count, 0);
}

/* ---- chain segments ---- */

/* A flat floor at y = 0 running right to left, so the solid side faces up. */
static tb_geometry floor_link(float x1, float x2)
{
	float d = x1 - x2;
	return g_chain(tb_v2(x1 + d, 0), tb_v2(x1, 0), tb_v2(x2, 0), tb_v2(x2 - d, 0));
}

static void test_chain_and_circle(void **state)
{
	(void)state;
	tb_geometry link = floor_link(1, -1);
	tb_geometry c = g_circle(0, 0, 0.5f);
	tb_manifold m = collide(&link, ident, &c, xf_at(0.2f, 0.45f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);
	assert_near(m.points[0].separation, -0.05, 1e-5);

	/* one-sided: from below it is not there */
	m = collide(&link, ident, &c, xf_at(0.2f, -0.45f, 0));
	assert_int_equal(m.point_count, 0);

	/* over the next link, this one stays quiet: the neighbour owns it */
	m = collide(&link, ident, &c, xf_at(1.3f, 0.45f, 0));
	assert_int_equal(m.point_count, 0);
	tb_geometry next = floor_link(3, 1);
	m = collide(&next, ident, &c, xf_at(1.3f, 0.45f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);

	/* an open end (ghost on the end point) is a rounded corner */
	tb_geometry open = g_chain(tb_v2(1, 0), tb_v2(1, 0), tb_v2(-1, 0), tb_v2(-2, 0));
	m = collide(&open, ident, &c, xf_at(1.3f, 0.4f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.6, 0.8, 1e-5);
	assert_near(m.points[0].separation, 0.0, 1e-5);
}

static void test_chain_and_polygon(void **state)
{
	(void)state;
	tb_geometry link = floor_link(2, -2);
	tb_geometry box = g_box(0.5f, 0.5f);
	tb_manifold m = collide(&link, ident, &box, xf_at(0.3f, 0.49f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);
	for (int i = 0; i < 2; ++i) {
		assert_near(m.points[i].separation, -0.01, 1e-5);
		assert_near(m.points[i].point.y, -0.005, 1e-5);
	}
	/* speculative */
	m = collide(&link, ident, &box, xf_at(0.3f, 0.51f, 0.0f));
	assert_int_equal(m.point_count, 2);
	assert_near(m.points[0].separation, 0.01, 1e-5);
	/* from behind: nothing */
	m = collide(&link, ident, &box, xf_at(0.3f, -0.49f, 0));
	assert_int_equal(m.point_count, 0);
	/* a corner down */
	float h = sqrtf(0.5f);
	m = collide(&link, ident, &box, xf_at(0.0f, h - 0.01f, 0.25f * TB_PI));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	assert_near(m.points[0].separation, -0.01, 1e-4);

	/* capsule lying on a link */
	tb_geometry cap = g_capsule(-0.5f, 0, 0.5f, 0, 0.25f);
	m = collide(&link, ident, &cap, xf_at(0.0f, 0.24f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	assert_near(m.points[0].separation, -0.01, 1e-5);
	/* rounded box */
	tb_geometry rbox = g_poly(tb_make_rounded_box(0.4f, 0.4f, 0.1f));
	m = collide(&link, ident, &rbox, xf_at(0.0f, 0.49f, 0));
	assert_int_equal(m.point_count, 2);
	assert_near(m.points[0].separation, -0.01, 1e-5);
}

/* A box sliding over the seam between two collinear links must only ever be
 * pushed straight up: a sideways normal, or a point deeper than the box really
 * is, would stop it at the seam (the "ghost collision" chains exist to avoid). */
/* An open end (ghost on the end point) acts as the tip of a one-sided wall. */
static void test_chain_open_end_and_polygon(void **state)
{
	(void)state;
	tb_geometry open = g_chain(tb_v2(1, 0), tb_v2(1, 0), tb_v2(-1, 0), tb_v2(-2, 0));
	tb_geometry box = g_box(0.25f, 0.25f);
	/* resting near the end: pushed up */
	tb_manifold m = collide(&open, ident, &box, xf_at(0.9f, 0.24f, 0));
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-6);
	/* half past the end, clipped to the link */
	m = collide(&open, ident, &box, xf_at(1.1f, 0.24f, 0));
	assert_int_equal(m.point_count, 2);
	for (int i = 0; i < 2; ++i) assert_true(m.points[i].point.x <= 1.0f + 1e-5f);
	/* beside the tip, low: pushed out sideways */
	m = collide(&open, ident, &box, xf_at(1.24f, 0.0f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 1.0, 0.0, 1e-5);
	assert_near(m.points[0].separation, -0.01, 1e-5);
	/* approaching the tip diagonally, apart: the true corner normal */
	m = collide(&open, ident, &box, xf_at(1.26f, 0.26f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, sqrt(0.5), sqrt(0.5), 1e-4);
	/* under the tip: nothing */
	m = collide(&open, ident, &box, xf_at(0.9f, -0.3f, 0));
	assert_int_equal(m.point_count, 0);
	m = collide(&open, ident, &box, xf_at(1.5f, 0.0f, 0));
	assert_int_equal(m.point_count, 0);
}

static void test_chain_seam_is_smooth(void **state)
{
	(void)state;
	tb_geometry links[3] = {floor_link(3, 1), floor_link(1, -1), floor_link(-1, -3)};
	tb_geometry box = g_box(0.25f, 0.25f);
	float heights[3] = {0.25f - 0.005f, 0.25f - 0.02f, 0.25f + 0.01f};
	float angles[3] = {0.0f, 0.03f, -0.03f};
	for (int hi = 0; hi < 3; ++hi) {
		for (int ai = 0; ai < 3; ++ai) {
			for (int k = 0; k <= 200; ++k) {
				float x = 1.5f - 0.015f * (float)k;
				tb_transform xb = xf_at(x, heights[hi], angles[ai]);
				/* the box's true depth: its lowest corner */
				float lowest = FLT_MAX;
				for (int v = 0; v < 4; ++v) {
					lowest = fminf(lowest, tb_transform_point(xb, box.polygon.vertices[v]).y);
				}
				int total = 0;
				for (int l = 0; l < 3; ++l) {
					tb_manifold m = collide(&links[l], ident, &box, xb);
					for (int i = 0; i < m.point_count; ++i) {
						assert_near(m.normal.x, 0.0, 1e-5);
						assert_near(m.normal.y, 1.0, 1e-5);
						assert_true(m.points[i].separation >= lowest - 1e-4f);
						assert_near(m.points[i].point.y, 0.5f * lowest, 0.02);
					}
					total += m.point_count;
					/* and in the other order, straight down */
					tb_manifold r = tb_collide(&box, xb, &links[l], ident);
					if (r.point_count > 0) assert_vec_near(r.normal, 0.0, -1.0, 1e-5);
				}
				/* always supported */
				if (lowest < TB_SPECULATIVE_DISTANCE - 1e-3f) assert_true(total >= 1);
			}
		}
	}

	/* a circle and a capsule rolling over the seam too */
	tb_geometry c = g_circle(0, 0, 0.3f);
	tb_geometry cap = g_capsule(-0.3f, 0, 0.3f, 0, 0.2f);
	for (int k = 0; k <= 100; ++k) {
		float x = 1.5f - 0.03f * (float)k;
		for (int l = 0; l < 3; ++l) {
			tb_manifold m = collide(&links[l], ident, &c, xf_at(x, 0.29f, 0));
			if (m.point_count > 0) assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
			m = collide(&links[l], ident, &cap, xf_at(x, 0.19f, 0.02f));
			for (int i = 0; i < m.point_count; ++i) assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
		}
	}
}

static void test_chain_convex_corner(void **state)
{
	(void)state;
	/* a roof: right slope then left slope, apex at the origin */
	tb_geometry right = g_chain(tb_v2(4, -2), tb_v2(2, -1), tb_v2(0, 0), tb_v2(-2, -1));
	tb_geometry left = g_chain(tb_v2(2, -1), tb_v2(0, 0), tb_v2(-2, -1), tb_v2(-4, -2));
	tb_vec2 nr = tb_normalize(tb_v2(1, 2)), nl = tb_normalize(tb_v2(-1, 2));

	/* a ball balanced on the apex touches the apex, straight up */
	tb_geometry c = g_circle(0, 0, 0.5f);
	tb_manifold m = collide(&right, ident, &c, xf_at(0, 0.45f, 0));
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 0.0, 1.0, 1e-5);
	assert_near(m.points[0].separation, -0.05, 1e-5);

	/* a box over the apex: every normal lies in the apex's fan */
	tb_geometry box = g_box(0.3f, 0.3f);
	for (int k = -5; k <= 5; ++k) {
		float x = 0.05f * (float)k;
		tb_transform xb = xf_at(x, 0.29f + 0.1f * fabsf(x), 0.0f);
		int total = 0;
		for (int l = 0; l < 2; ++l) {
			m = collide(l == 0 ? &right : &left, ident, &box, xb);
			for (int i = 0; i < m.point_count; ++i) {
				assert_true(tb_cross(nr, m.normal) >= -1e-4f);
				assert_true(tb_cross(m.normal, nl) >= -1e-4f);
			}
			total += m.point_count;
		}
		assert_true(total >= 1);
	}

	/* a box lying on the right slope gets the slope's normal */
	tb_transform on_slope = {tb_mul_sv(0.25f - 0.01f, nr), tb_make_rot(atan2f(1.0f, -2.0f) + TB_PI)};
	on_slope.p = tb_add(on_slope.p, tb_v2(1.0f, -0.5f));
	tb_geometry small = g_box(0.25f, 0.25f);
	m = collide(&right, ident, &small, on_slope);
	assert_int_equal(m.point_count, 2);
	assert_vec_near(m.normal, nr.x, nr.y, 1e-4);
	assert_near(m.points[0].separation, -0.01, 1e-4);
}

/* ---- dispatch and robustness ---- */

static tb_geometry kind(int k)
{
	switch (k) {
	case 0: return g_circle(0.1f, 0, 0.4f);
	case 1: return g_capsule(-0.4f, 0, 0.4f, 0.1f, 0.2f);
	case 2: return g_segment(-0.6f, 0, 0.6f, 0.1f);
	case 3: return g_box(0.4f, 0.3f);
	case 4: return g_poly(tb_make_rounded_box(0.3f, 0.2f, 0.1f));
	case 5: {
		tb_vec2 pts[5] = {{0, 0}, {0.6f, 0}, {0.8f, 0.4f}, {0.3f, 0.7f}, {-0.2f, 0.4f}};
		tb_polygon p;
		assert_int_equal(tb_make_polygon(pts, 5, 0.0f, &p), TB_OK);
		return g_poly(p);
	}
	default: return g_chain(tb_v2(1.2f, 0), tb_v2(0.6f, 0), tb_v2(-0.6f, 0), tb_v2(-1.2f, 0));
	}
}

static uint32_t rng_state = 2024u;
static float rng(float lo, float hi)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return lo + (hi - lo) * (float)(rng_state >> 8) / 16777216.0f;
}

static void test_every_pair_no_nan(void **state)
{
	(void)state;
	for (int a = 0; a < 7; ++a) {
		for (int b = 0; b < 7; ++b) {
			tb_geometry ga = kind(a), gb = kind(b);
			bool lines = (ga.type == TB_SHAPE_SEGMENT || ga.type == TB_SHAPE_CHAIN_SEGMENT) &&
			             (gb.type == TB_SHAPE_SEGMENT || gb.type == TB_SHAPE_CHAIN_SEGMENT);
			int touching = 0;
			for (int k = 0; k < 400; ++k) {
				tb_transform xa = xf_at(rng(-1, 1), rng(-1, 1), rng(-4, 4));
				tb_transform xb = xf_at(rng(-1, 1), rng(-1, 1), rng(-4, 4));
				if (k % 40 == 0) xb = xa; /* coincident */
				if (k % 40 == 1) xb.p = xa.p;
				tb_manifold m = collide(&ga, xa, &gb, xb);
				touching += m.point_count > 0;
				if (lines) assert_int_equal(m.point_count, 0);
				/* the manifold agrees with the exact distance when apart */
				if (m.point_count > 0 && !lines && ga.type != TB_SHAPE_CHAIN_SEGMENT &&
				    gb.type != TB_SHAPE_CHAIN_SEGMENT) {
					tb_shape_proxy pa = tb_geometry_proxy(&ga), pb = tb_geometry_proxy(&gb);
					tb_distance_output d = tb_shape_distance(&pa, xa, &pb, xb);
					float min_sep = FLT_MAX;
					for (int i = 0; i < m.point_count; ++i) min_sep = fminf(min_sep, m.points[i].separation);
					if (d.distance > 0.0f) assert_near(min_sep, d.distance, 2e-3);
					else assert_true(min_sep <= 1e-3f);
				}
			}
			if (!lines) assert_true(touching > 0);
		}
	}
}

static void test_dispatch_matches_pair_functions(void **state)
{
	(void)state;
	tb_transform xa = xf_at(0.1f, -0.2f, 0.3f), xb = xf_at(0.25f, 0.12f, -0.2f);
	tb_geometry c = kind(0), cap = kind(1), seg = kind(2), box = kind(3), ch = kind(6);
	struct {
		tb_manifold direct;
		const tb_geometry *a, *b;
	} cases[] = {
		{tb_collide_circles(&c.circle, xa, &c.circle, xb), &c, &c},
		{tb_collide_capsule_and_circle(&cap.capsule, xa, &c.circle, xb), &cap, &c},
		{tb_collide_capsules(&cap.capsule, xa, &cap.capsule, xb), &cap, &cap},
		{tb_collide_polygon_and_circle(&box.polygon, xa, &c.circle, xb), &box, &c},
		{tb_collide_polygon_and_capsule(&box.polygon, xa, &cap.capsule, xb), &box, &cap},
		{tb_collide_polygons(&box.polygon, xa, &box.polygon, xb), &box, &box},
		{tb_collide_segment_and_circle(&seg.segment, xa, &c.circle, xb), &seg, &c},
		{tb_collide_segment_and_capsule(&seg.segment, xa, &cap.capsule, xb), &seg, &cap},
		{tb_collide_segment_and_polygon(&seg.segment, xa, &box.polygon, xb), &seg, &box},
		{tb_collide_chain_segment_and_circle(&ch.chain_segment, xa, &c.circle, xb), &ch, &c},
		{tb_collide_chain_segment_and_capsule(&ch.chain_segment, xa, &cap.capsule, xb), &ch, &cap},
		{tb_collide_chain_segment_and_polygon(&ch.chain_segment, xa, &box.polygon, xb), &ch, &box},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		tb_manifold m = collide(cases[i].a, xa, cases[i].b, xb);
		if (m.point_count == 0) fail_msg("case %d has no contact", (int)i);
		assert_int_equal(m.point_count, cases[i].direct.point_count);
		const tb_manifold *d = &cases[i].direct;
		assert_memory_equal(&m.normal, &d->normal, sizeof m.normal);
		for (int k = 0; k < m.point_count; ++k) {
			assert_memory_equal(&m.points[k].point, &d->points[k].point, sizeof(tb_vec2));
			assert_memory_equal(&m.points[k].anchor_a, &d->points[k].anchor_a, sizeof(tb_vec2));
			assert_memory_equal(&m.points[k].anchor_b, &d->points[k].anchor_b, sizeof(tb_vec2));
			assert_true(m.points[k].separation == d->points[k].separation);
			assert_int_equal(m.points[k].id, d->points[k].id);
		}
	}
	tb_manifold none = tb_collide(&ch, xa, &ch, xa);
	assert_int_equal(none.point_count, 0);
	none = tb_collide(&seg, xa, &ch, xa);
	assert_int_equal(none.point_count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_circles),
		cmocka_unit_test(test_box_on_box_face),
		cmocka_unit_test(test_box_on_box_rotated_scene),
		cmocka_unit_test(test_box_corner_keeps_the_far_end),
		cmocka_unit_test(test_box_feature_ids_persist_while_sliding),
		cmocka_unit_test(test_coincident_polygons),
		cmocka_unit_test(test_rounded_boxes),
		cmocka_unit_test(test_polygon_and_circle),
		cmocka_unit_test(test_capsule_and_circle),
		cmocka_unit_test(test_capsules),
		cmocka_unit_test(test_polygon_and_capsule),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_chain_and_circle),
		cmocka_unit_test(test_chain_and_polygon),
		cmocka_unit_test(test_chain_open_end_and_polygon),
		cmocka_unit_test(test_chain_seam_is_smooth),
		cmocka_unit_test(test_chain_convex_corner),
		cmocka_unit_test(test_every_pair_no_nan),
		cmocka_unit_test(test_dispatch_matches_pair_functions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
