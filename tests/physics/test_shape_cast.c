/* Shape casts and shape distance against cases worked out by hand, for every
 * shape kind as the target (circle, capsule, box, rounded box, polygon,
 * segment, chain segment) and every kind that can be swept. */
#include "test_util.h"

#include <float.h>
#include <string.h>

#define EPS 1e-3

static tb_shape_proxy circle_proxy(float r)
{
	tb_vec2 c = tb_vec2_zero;
	return tb_make_proxy(&c, 1, r);
}

static tb_transform at(float x, float y) { return (tb_transform){{x, y}, {1.0f, 0.0f}}; }

/* ---------------- the pure cast ---------------- */

static void test_cast_circle_into_box(void **state)
{
	(void)state;
	tb_polygon box = tb_make_box(1.0f, 1.0f);
	tb_shape_proxy a = tb_make_proxy(box.vertices, 4, 0.0f);
	tb_shape_proxy b = circle_proxy(0.5f);
	/* the circle's front reaches the face x = 4 when its centre is at 3.5 */
	tb_cast_output out = tb_shape_cast(&a, at(5.0f, 0.0f), &b, at(0.0f, 0.0f), tb_v2(10.0f, 0.0f), 1.0f);
	assert_true(out.hit);
	assert_near(out.fraction, 0.35f, EPS / 10.0f);
	assert_vec_near(out.point, 4.0f, 0.0f, EPS);
	assert_vec_near(out.normal, -1.0f, 0.0f, 1e-5);
	/* a max fraction short of it: no hit */
	assert_false(tb_shape_cast(&a, at(5.0f, 0.0f), &b, at(0.0f, 0.0f), tb_v2(10.0f, 0.0f), 0.3f).hit);
	/* moving away, and passing by above: no hit */
	assert_false(tb_shape_cast(&a, at(5.0f, 0.0f), &b, at(0.0f, 0.0f), tb_v2(-10.0f, 0.0f), 1.0f).hit);
	assert_false(tb_shape_cast(&a, at(5.0f, 0.0f), &b, at(0.0f, 1.6f), tb_v2(10.0f, 0.0f), 1.0f).hit);
	/* grazing: the circle's bottom passes 1 cm above the top face... */
	assert_false(tb_shape_cast(&a, at(5.0f, 0.0f), &b, at(0.0f, 1.51f), tb_v2(10.0f, 0.0f), 1.0f).hit);
	/* ...and 1 cm into it meets the corner at x = 4 - sqrt(0.5^2 - 0.49^2) */
	out = tb_shape_cast(&a, at(5.0f, 0.0f), &b, at(0.0f, 1.49f), tb_v2(10.0f, 0.0f), 1.0f);
	assert_true(out.hit);
	assert_near(out.fraction, (4.0f - sqrtf(0.25f - 0.49f * 0.49f)) / 10.0f, EPS / 10.0f);
	assert_vec_near(out.point, 4.0f, 1.0f, EPS);
	/* overlapping at the start: fraction 0, cores overlapping: no normal */
	out = tb_shape_cast(&a, at(5.0f, 0.0f), &b, at(5.0f, 0.0f), tb_v2(1.0f, 0.0f), 1.0f);
	assert_true(out.hit);
	assert_near(out.fraction, 0.0f, 0.0f);
	assert_vec_near(out.normal, 0.0f, 0.0f, 0.0f);
}

/* A circle falling diagonally onto a box corner at the origin: the centre's
 * path (-3 + 6t, 3 - 6t) is sqrt(2) |3 - 6t| from the corner. */
static void test_cast_circle_onto_corner(void **state)
{
	(void)state;
	tb_polygon box = tb_make_offset_box(1.0f, 1.0f, tb_v2(1.0f, -1.0f), tb_rot_identity);
	tb_shape_proxy a = tb_make_proxy(box.vertices, 4, 0.0f);
	tb_shape_proxy b = circle_proxy(0.5f);
	tb_cast_output out = tb_shape_cast(&a, tb_transform_identity, &b, at(-3.0f, 3.0f), tb_v2(6.0f, -6.0f), 1.0f);
	assert_true(out.hit);
	assert_near(out.fraction, (3.0f - 0.5f / sqrtf(2.0f)) / 6.0f, EPS / 8.0f);
	assert_vec_near(out.point, 0.0f, 0.0f, EPS);
	assert_vec_near(out.normal, -sqrtf(0.5f), sqrtf(0.5f), 1e-3);
}

/* A capsule swept down onto a circle, a box onto a segment, a rounded box
 * sideways into a capsule, a triangle into a triangle. */
static void test_cast_other_kinds(void **state)
{
	(void)state;
	/* capsule core y = 5 - 10t over x in [-1, 1], r 0.25; circle r 1 at (0.5, 0):
	 * the gap is h - 1.25, so t = 0.375 */
	tb_vec2 core[2] = {{-1.0f, 0.0f}, {1.0f, 0.0f}};
	tb_shape_proxy capsule = tb_make_proxy(core, 2, 0.25f);
	tb_shape_proxy circle = circle_proxy(1.0f);
	tb_cast_output out = tb_shape_cast(&circle, at(0.5f, 0.0f), &capsule, at(0.0f, 5.0f), tb_v2(0.0f, -10.0f), 1.0f);
	assert_true(out.hit);
	assert_near(out.fraction, 0.375f, EPS / 10.0f);
	assert_vec_near(out.point, 0.5f, 1.0f, EPS);
	assert_vec_near(out.normal, 0.0f, 1.0f, 1e-5);

	/* a unit box from y = 10 down onto a segment at y = 0: t = 9.5 / 10 */
	tb_polygon box = tb_make_box(0.5f, 0.5f);
	tb_shape_proxy b = tb_make_proxy(box.vertices, 4, 0.0f);
	tb_vec2 seg[2] = {{-2.0f, 0.0f}, {2.0f, 0.0f}};
	tb_shape_proxy segment = tb_make_proxy(seg, 2, 0.0f);
	out = tb_shape_cast(&segment, tb_transform_identity, &b, at(0.0f, 10.0f), tb_v2(0.0f, -10.0f), 1.0f);
	assert_true(out.hit);
	assert_near(out.fraction, 0.95f, EPS / 10.0f);
	assert_near(out.point.y, 0.0f, EPS);
	assert_vec_near(out.normal, 0.0f, 1.0f, 1e-5);

	/* a box of half 0.5 rounded by 0.1 moving +x into a vertical capsule (core
	 * x = 3, y in [-1, 1], r 0.2): its face reaches x = 2.8 when the centre is
	 * at 2.8 - 0.6 = 2.2 */
	tb_shape_proxy rounded = tb_make_proxy(box.vertices, 4, 0.1f);
	tb_vec2 upright[2] = {{0.0f, -1.0f}, {0.0f, 1.0f}};
	tb_shape_proxy pole = tb_make_proxy(upright, 2, 0.2f);
	out = tb_shape_cast(&pole, at(3.0f, 0.0f), &rounded, at(0.0f, 0.0f), tb_v2(4.0f, 0.0f), 1.0f);
	assert_true(out.hit);
	assert_near(out.fraction, 2.2f / 4.0f, EPS / 4.0f);
	assert_near(out.point.x, 2.8f, EPS);
	assert_vec_near(out.normal, -1.0f, 0.0f, 1e-5);

	/* a triangle pointing right, tip at (1, 0), into a triangle pointing left
	 * with its tip at (5, 0.5): tip meets edge */
	tb_vec2 tri_a[3] = {{-1.0f, -1.0f}, {1.0f, 0.0f}, {-1.0f, 1.0f}};
	tb_vec2 tri_b[3] = {{5.0f, 0.5f}, {7.0f, 0.0f}, {7.0f, 2.0f}};
	tb_shape_proxy pa = tb_make_proxy(tri_a, 3, 0.0f), pb = tb_make_proxy(tri_b, 3, 0.0f);
	/* B's tip (5, 0.5) meets A's upper edge y = (1 - x) / 2 after moving left by
	 * 5 - x with 0.5 = (1 - x) / 2, x = 0 */
	out = tb_shape_cast(&pa, tb_transform_identity, &pb, tb_transform_identity, tb_v2(-10.0f, 0.0f), 1.0f);
	assert_true(out.hit);
	assert_near(out.fraction, 0.5f, EPS / 10.0f);
	assert_vec_near(out.point, 0.0f, 0.5f, EPS);
	assert_vec_near(out.normal, 1.0f / sqrtf(5.0f), 2.0f / sqrtf(5.0f), 1e-3);
}

/* ---------------- world casts against every kind ---------------- */

typedef struct scene {
	tb_world *world;
	tb_shape_id circle, capsule, box, rounded, polygon, segment, chain[2], sensor, one_way;
	tb_body_id ground;
} scene;

/* Targets in a row along x, each with its top at y = 1 (the chain, the
 * segment and the one-way platform are at y = 1 themselves). */
static scene make_scene(void)
{
	scene s;
	tb_world *w = tu_world(tb_vec2_zero);
	s.world = w;
	s.ground = tu_body(w, TB_STATIC_BODY, tb_vec2_zero);
	tb_shape_def sd = tb_default_shape_def();
	tb_status st;
	tb_circle c = {{0.0f, 0.0f}, 1.0f};
	s.circle = tb_create_circle_shape(w, s.ground, &sd, &c, &st);
	tb_capsule cap = {{4.0f, -1.0f}, {6.0f, 0.5f}, 0.5f}; /* top: (6, 1) */
	s.capsule = tb_create_capsule_shape(w, s.ground, &sd, &cap, &st);
	tb_polygon box = tb_make_offset_box(1.0f, 1.0f, tb_v2(10.0f, 0.0f), tb_rot_identity);
	s.box = tb_create_polygon_shape(w, s.ground, &sd, &box, &st);
	tb_polygon rounded = tb_make_offset_box(0.8f, 0.8f, tb_v2(14.0f, 0.0f), tb_rot_identity);
	rounded.radius = 0.2f;
	s.rounded = tb_create_polygon_shape(w, s.ground, &sd, &rounded, &st);
	tb_vec2 tri[3] = {{17.0f, -1.0f}, {19.0f, -1.0f}, {18.0f, 1.0f}};
	tb_polygon poly;
	assert_int_equal(tb_make_polygon(tri, 3, 0.0f, &poly), TB_OK);
	s.polygon = tb_create_polygon_shape(w, s.ground, &sd, &poly, &st);
	tb_segment seg = {{21.0f, 1.0f}, {23.0f, 1.0f}};
	s.segment = tb_create_segment_shape(w, s.ground, &sd, &seg, &st);
	/* a chain whose front faces up: points right to left */
	tb_vec2 pts[3] = {{29.0f, 1.0f}, {27.0f, 1.0f}, {25.0f, 1.0f}};
	tb_chain_def cd = tb_default_chain_def();
	cd.points = pts;
	cd.count = 3;
	assert_int_equal(tb_create_chain(w, s.ground, &cd, s.chain, 2, &st), 2);
	tb_shape_def sensor = tb_default_shape_def();
	sensor.is_sensor = true;
	tb_circle sc = {{32.0f, 0.0f}, 1.0f};
	s.sensor = tb_create_circle_shape(w, s.ground, &sensor, &sc, &st);
	tb_shape_def ow = tb_default_shape_def();
	ow.one_way = tb_v2(0.0f, 1.0f);
	tb_polygon plank = tb_make_offset_box(1.0f, 0.1f, tb_v2(36.0f, 0.9f), tb_rot_identity);
	s.one_way = tb_create_polygon_shape(w, s.ground, &ow, &plank, &st);
	return s;
}

static tb_geometry circle_geometry(float r)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CIRCLE;
	g.circle.radius = r;
	return g;
}

/* A circle of radius 0.25 dropped from y = 5 onto the point of each target
 * that is highest at x: it stops with its bottom at that height. */
static void drop_onto(const scene *s, tb_shape_id expected, float x, float top, tb_vec2 normal)
{
	tb_geometry g = circle_geometry(0.25f);
	tb_ray_result r = tb_world_cast_shape(s->world, &g, at(x, 5.0f), tb_v2(0.0f, -10.0f), tb_default_query_filter(),
	                                      tb_null_body_id);
	assert_true(r.hit);
	assert_true(TB_ID_EQUALS(r.shape, expected));
	assert_near(r.fraction, (5.0f - 0.25f * normal.y - top) / 10.0f, EPS / 10.0f);
	assert_vec_near(r.normal, normal.x, normal.y, 2e-3);
}

static void test_world_cast_every_kind(void **state)
{
	(void)state;
	scene s = make_scene();
	tb_vec2 up = {0.0f, 1.0f};
	drop_onto(&s, s.circle, 0.0f, 1.0f, up);
	drop_onto(&s, s.capsule, 6.0f, 1.0f, up);
	drop_onto(&s, s.box, 10.0f, 1.0f, up);
	drop_onto(&s, s.rounded, 14.0f, 1.0f, up);
	/* the triangle's right face, slope -2: normal (2, 1)/sqrt 5; the circle
	 * touches it where its centre is 0.25 from the line through (18, 1) and
	 * (19, -1): 2x + y = 37 */
	{
		tb_geometry g = circle_geometry(0.25f);
		tb_ray_result r = tb_world_cast_shape(s.world, &g, at(18.5f, 5.0f), tb_v2(0.0f, -10.0f),
		                                      tb_default_query_filter(), tb_null_body_id);
		assert_true(r.hit && TB_ID_EQUALS(r.shape, s.polygon));
		float y = 37.0f - 2.0f * 18.5f + 0.25f * sqrtf(5.0f);
		assert_near(r.fraction, (5.0f - y) / 10.0f, EPS / 10.0f);
		assert_vec_near(r.normal, 2.0f / sqrtf(5.0f), 1.0f / sqrtf(5.0f), 2e-3);
	}
	drop_onto(&s, s.segment, 22.0f, 1.0f, up);
	drop_onto(&s, s.chain[0], 28.0f, 1.0f, up);
	drop_onto(&s, s.chain[1], 26.0f, 1.0f, up);
	drop_onto(&s, s.one_way, 36.0f, 1.0f, up);

	tb_geometry g = circle_geometry(0.25f);
	tb_query_filter f = tb_default_query_filter();
	/* the sensor is not hit */
	assert_false(tb_world_cast_shape(s.world, &g, at(32.0f, 5.0f), tb_v2(0.0f, -10.0f), f, tb_null_body_id).hit);
	/* from below, the chain's back and the one-way platform let it through;
	 * the plain segment does not */
	assert_false(tb_world_cast_shape(s.world, &g, at(28.0f, -3.0f), tb_v2(0.0f, 10.0f), f, tb_null_body_id).hit);
	assert_false(tb_world_cast_shape(s.world, &g, at(36.0f, -3.0f), tb_v2(0.0f, 10.0f), f, tb_null_body_id).hit);
	tb_ray_result r = tb_world_cast_shape(s.world, &g, at(22.0f, -3.0f), tb_v2(0.0f, 10.0f), f, tb_null_body_id);
	assert_true(r.hit && TB_ID_EQUALS(r.shape, s.segment));
	assert_vec_near(r.normal, 0.0f, -1.0f, 1e-4);
	/* along the row the first target is hit, the cast's own body skipped */
	tb_polygon small = tb_make_box(0.2f, 0.2f);
	tb_geometry box;
	memset(&box, 0, sizeof box);
	box.type = TB_SHAPE_POLYGON;
	box.polygon = small;
	r = tb_world_cast_shape(s.world, &box, at(2.0f, 0.0f), tb_v2(20.0f, 0.0f), f, tb_null_body_id);
	assert_true(r.hit && TB_ID_EQUALS(r.shape, s.capsule));
	r = tb_world_cast_shape(s.world, &box, at(2.0f, 0.0f), tb_v2(20.0f, 0.0f), f, s.ground);
	assert_false(r.hit);
	/* the mask */
	f.mask_bits = 2;
	assert_false(tb_world_cast_shape(s.world, &g, at(10.0f, 5.0f), tb_v2(0.0f, -10.0f), f, tb_null_body_id).hit);
	/* bad input: no hit, nothing else */
	f = tb_default_query_filter();
	assert_false(tb_world_cast_shape(s.world, &g, at(NAN, 5.0f), tb_v2(0.0f, -10.0f), f, tb_null_body_id).hit);
	assert_false(tb_world_cast_shape(s.world, &g, at(10.0f, 5.0f), tb_v2(0.0f, INFINITY), f, tb_null_body_id).hit);
	g.circle.radius = -1.0f;
	assert_false(tb_world_cast_shape(s.world, &g, at(10.0f, 5.0f), tb_v2(0.0f, -10.0f), f, tb_null_body_id).hit);
	tb_destroy_world(s.world);
}

/* Every kind can be swept: a capsule, a box, a rounded box, a triangle and a
 * segment dropped onto the box target (top at y = 1, x in [9, 11]). */
static void test_world_cast_every_swept_kind(void **state)
{
	(void)state;
	scene s = make_scene();
	tb_query_filter f = tb_default_query_filter();
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	g.capsule = (tb_capsule){{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.3f};
	tb_ray_result r = tb_world_cast_shape(s.world, &g, at(10.0f, 5.0f), tb_v2(0.0f, -8.0f), f, tb_null_body_id);
	assert_true(r.hit && TB_ID_EQUALS(r.shape, s.box));
	assert_near(r.fraction, (5.0f - 0.3f - 1.0f) / 8.0f, EPS / 8.0f);
	/* a box rotated 45 degrees lands on its corner: half diagonal 0.5 sqrt 2 */
	g.type = TB_SHAPE_POLYGON;
	g.polygon = tb_make_box(0.5f, 0.5f);
	r = tb_world_cast_shape(s.world, &g, (tb_transform){{10.0f, 5.0f}, tb_make_rot(0.25f * TB_PI)}, tb_v2(0.0f, -8.0f),
	                        f, tb_null_body_id);
	assert_true(r.hit);
	assert_near(r.fraction, (5.0f - sqrtf(0.5f) - 1.0f) / 8.0f, EPS / 8.0f);
	assert_vec_near(r.point, 10.0f, 1.0f, EPS);
	g.polygon = tb_make_rounded_box(0.5f, 0.5f, 0.25f);
	r = tb_world_cast_shape(s.world, &g, at(10.0f, 5.0f), tb_v2(0.0f, -8.0f), f, tb_null_body_id);
	assert_near(r.fraction, (5.0f - 0.75f - 1.0f) / 8.0f, EPS / 8.0f);
	tb_vec2 tri[3] = {{0.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, 1.0f}};
	assert_int_equal(tb_make_polygon(tri, 3, 0.0f, &g.polygon), TB_OK);
	r = tb_world_cast_shape(s.world, &g, at(10.0f, 5.0f), tb_v2(0.0f, -8.0f), f, tb_null_body_id);
	assert_near(r.fraction, (5.0f - 1.0f - 1.0f) / 8.0f, EPS / 8.0f);
	assert_vec_near(r.point, 10.0f, 1.0f, EPS);
	g.type = TB_SHAPE_SEGMENT;
	g.segment = (tb_segment){{-0.5f, -0.5f}, {0.5f, -0.2f}};
	r = tb_world_cast_shape(s.world, &g, at(10.0f, 5.0f), tb_v2(0.0f, -8.0f), f, tb_null_body_id);
	assert_near(r.fraction, (5.0f - 0.5f - 1.0f) / 8.0f, EPS / 8.0f);
	assert_vec_near(r.point, 9.5f, 1.0f, EPS);
	tb_destroy_world(s.world);
}

/* ---------------- distance ---------------- */

static void check_distance(const scene *s, tb_shape_id a, tb_shape_id b, float expect, tb_vec2 pa, tb_vec2 pb)
{
	tb_distance_output d = tb_world_shape_distance(s->world, a, b);
	assert_near(d.distance, expect, 1e-4);
	assert_vec_near(d.point_a, pa.x, pa.y, 1e-4);
	assert_vec_near(d.point_b, pb.x, pb.y, 1e-4);
	if (expect > 0.0f) {
		tb_vec2 n = tb_normalize(tb_sub(pb, pa));
		assert_vec_near(d.normal, n.x, n.y, 1e-4);
	}
}

static void test_distance_every_kind(void **state)
{
	(void)state;
	scene s = make_scene();
	tb_world *w = s.world;
	/* a probe circle of r 0.5 at (x, 4): 3 m above each top... */
	tb_body_id probe_body = tu_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 4.0f));
	tb_shape_id probe = tu_circle(w, probe_body, 0.5f, 1.0f);
	const float xs[8] = {0.0f, 6.0f, 10.0f, 14.0f, 0.0f, 22.0f, 28.0f, 36.0f};
	tb_shape_id targets[8] = {s.circle, s.capsule, s.box, s.rounded, s.polygon, s.segment, s.chain[0], s.one_way};
	for (int k = 0; k < 8; ++k) {
		if (k == 4) continue; /* the triangle below */
		tb_body_set_transform(w, probe_body, tb_v2(xs[k], 4.0f), 0.0f);
		check_distance(&s, targets[k], probe, 2.5f, tb_v2(xs[k], 1.0f), tb_v2(xs[k], 3.5f));
		/* and the other way round */
		check_distance(&s, probe, targets[k], 2.5f, tb_v2(xs[k], 3.5f), tb_v2(xs[k], 1.0f));
	}
	/* the triangle's apex (18, 1) from (18, 4) */
	tb_body_set_transform(w, probe_body, tb_v2(18.0f, 4.0f), 0.0f);
	check_distance(&s, s.polygon, probe, 2.5f, tb_v2(18.0f, 1.0f), tb_v2(18.0f, 3.5f));
	/* a chain counts from both sides: below it, 2.5 m under */
	tb_body_set_transform(w, probe_body, tb_v2(28.0f, -2.0f), 0.0f);
	check_distance(&s, s.chain[0], probe, 2.5f, tb_v2(28.0f, 1.0f), tb_v2(28.0f, -1.5f));
	/* to a corner: the box's corner (11, 1) from a probe at (13, 5), sqrt 20 away */
	tb_body_set_transform(w, probe_body, tb_v2(13.0f, 5.0f), 0.0f);
	float len = sqrtf(20.0f);
	tb_vec2 towards = tb_v2(2.0f / len, 4.0f / len);
	check_distance(&s, s.box, probe, len - 0.5f, tb_v2(11.0f, 1.0f), tb_mul_add(tb_v2(11.0f, 1.0f), len - 0.5f, towards));
	/* overlapping discs: minus the overlap */
	tb_body_set_transform(w, probe_body, tb_v2(0.0f, 1.2f), 0.0f);
	tb_distance_output d = tb_world_shape_distance(w, s.circle, probe);
	assert_near(d.distance, -0.3f, 1e-5);
	assert_vec_near(d.normal, 0.0f, 1.0f, 1e-5);
	/* a stale id */
	tb_destroy_body(w, probe_body);
	assert_true(tb_world_shape_distance(w, s.circle, probe).distance == FLT_MAX);
	tb_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cast_circle_into_box),
		cmocka_unit_test(test_cast_circle_onto_corner),
		cmocka_unit_test(test_cast_other_kinds),
		cmocka_unit_test(test_world_cast_every_kind),
		cmocka_unit_test(test_world_cast_every_swept_kind),
		cmocka_unit_test(test_distance_every_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
