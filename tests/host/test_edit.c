/* Edit mode's geometry (src/host/edit.c) on a world of its own: what a click
 * picks (the topmost body, a joint near its line, a segment within reach),
 * what a box takes in, snapping to the grid and to 15 degrees, the shortest
 * number text, and where a selection's handles are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "tumble/tb_math.h"

static tb_body_id body_at(tb_world *w, float x, float y, tb_body_type type)
{
	tb_body_def bd = tb_default_body_def();
	bd.position = tb_v2(x, y);
	bd.type = type;
	return tb_create_body(w, &bd, NULL);
}

static tb_shape_id add_box(tb_world *w, tb_body_id b, float hw, float hh)
{
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon box = tb_make_box(hw, hh);
	return tb_create_polygon_shape(w, b, &sd, &box, NULL);
}

static void test_pick_topmost(void **state)
{
	(void)state;
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	tb_body_id ground = body_at(w, 0, 0, TB_STATIC_BODY);
	add_box(w, ground, 10, 1);
	tb_body_id crate = body_at(w, 2, 0.5f, TB_DYNAMIC_BODY);
	add_box(w, crate, 0.5f, 0.5f);
	th_sel s;
	/* the crate overlaps the ground: the later body is on top */
	assert_true(th_edit_pick(w, tb_v2(2, 0.5f), 0.05f, &s));
	assert_int_equal(s.kind, TH_SEL_BODY);
	assert_int_equal(s.index1, crate.index1);
	assert_true(th_edit_pick(w, tb_v2(-5, 0), 0.05f, &s));
	assert_int_equal(s.index1, ground.index1);
	/* nothing there */
	assert_false(th_edit_pick(w, tb_v2(0, 5), 0.05f, &s));
	/* a segment has no inside: within reach of its line picks it */
	tb_body_id wire = body_at(w, 0, 5, TB_STATIC_BODY);
	tb_shape_def sd = tb_default_shape_def();
	tb_segment seg = {tb_v2(-1, 0), tb_v2(1, 0)};
	tb_create_segment_shape(w, wire, &sd, &seg, NULL);
	assert_true(th_edit_pick(w, tb_v2(0.3f, 5.04f), 0.05f, &s));
	assert_int_equal(s.index1, wire.index1);
	assert_false(th_edit_pick(w, tb_v2(0.3f, 5.2f), 0.05f, &s));
	tb_destroy_world(w);
}

static void test_pick_joint_first(void **state)
{
	(void)state;
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	tb_body_id a = body_at(w, 0, 0, TB_STATIC_BODY), b = body_at(w, 2, 0, TB_DYNAMIC_BODY);
	add_box(w, a, 0.5f, 0.5f);
	add_box(w, b, 0.5f, 0.5f);
	tb_joint_def jd = tb_default_joint_def(TB_JOINT_DISTANCE);
	jd.body_a = a;
	jd.body_b = b;
	tb_joint_id j = tb_create_joint(w, &jd, NULL);
	th_sel s;
	/* on the line between the anchors, over the first box: the joint */
	assert_true(th_edit_pick(w, tb_v2(0.2f, 0.01f), 0.05f, &s));
	assert_int_equal(s.kind, TH_SEL_JOINT);
	assert_int_equal(s.index1, j.index1);
	/* off the line, inside the box: the body */
	assert_true(th_edit_pick(w, tb_v2(0.2f, 0.3f), 0.05f, &s));
	assert_int_equal(s.kind, TH_SEL_BODY);
	tb_destroy_world(w);
}

static void test_pick_box(void **state)
{
	(void)state;
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	tb_body_id b[4];
	for (int i = 0; i < 4; ++i) {
		b[i] = body_at(w, 3.0f * i, 0, TB_STATIC_BODY);
		add_box(w, b[i], 0.5f, 0.5f);
	}
	th_sel out[8];
	/* corners in any order; a box touching two bodies takes both */
	int n = th_edit_pick_box(w, tb_v2(4, 1), tb_v2(0.2f, -1), out, 8);
	assert_int_equal(n, 2);
	assert_int_equal(out[0].index1, b[0].index1);
	assert_int_equal(out[1].index1, b[1].index1);
	assert_int_equal(th_edit_pick_box(w, tb_v2(20, 20), tb_v2(30, 30), out, 8), 0);
	/* at most cap */
	assert_int_equal(th_edit_pick_box(w, tb_v2(-10, -10), tb_v2(20, 10), out, 3), 3);
	tb_destroy_world(w);
}

static void test_snap(void **state)
{
	(void)state;
	char buf[64];
	assert_true(th_edit_snap(0.30000000000000004, 0.1) == 0.3);
	assert_true(th_edit_snap(2.96, 0.1) == 3.0);
	assert_true(th_edit_snap(-1.24, 0.25) == -1.25);
	assert_true(th_edit_snap(7.3, 0.0) == 7.3); /* no grid: unchanged */
	th_edit_format_number(th_edit_snap(0.1 + 0.2, 0.1), buf, sizeof buf);
	assert_string_equal(buf, "0.3");
	/* 15 degrees */
	double deg = 3.14159265358979323846 / 180.0;
	assert_true(fabs(th_edit_snap_angle(20 * deg) - 15 * deg) < 1e-6);
	assert_true(fabs(th_edit_snap_angle(-40 * deg) - -45 * deg) < 1e-6);
	assert_true(th_edit_snap_angle(5 * deg) == 0.0);
}

static void test_format(void **state)
{
	(void)state;
	char buf[64];
	th_edit_format_number(3.0, buf, sizeof buf);
	assert_string_equal(buf, "3");
	th_edit_format_number((float)0.6, buf, sizeof buf); /* a float read back */
	assert_string_equal(buf, "0.6");
	th_edit_format_number(-0.0, buf, sizeof buf);
	assert_string_equal(buf, "0");
	th_edit_format_number(10.0, buf, sizeof buf);
	assert_string_equal(buf, "10");
	th_edit_format_number(1234.5, buf, sizeof buf);
	assert_string_equal(buf, "1234.5");
}

static void test_handles(void **state)
{
	(void)state;
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	tb_body_id b = body_at(w, 1, 2, TB_STATIC_BODY);
	add_box(w, b, 1.5f, 0.25f);
	th_handle h[TH_EDIT_MAX_HANDLES];
	int n = th_edit_handles(w, th_sel_body(b), 40.0, h, TH_EDIT_MAX_HANDLES);
	assert_int_equal(n, 4);
	assert_int_equal(h[0].kind, TH_H_MOVE);
	assert_true(tb_distance(h[0].p, tb_v2(1, 2)) < 1e-6f);
	assert_int_equal(h[1].kind, TH_H_ROTATE);
	/* above the box's top (0.25) by 24 pixels at 40 px/m */
	assert_true(fabsf(h[1].p.y - (2.0f + 0.25f + 0.6f)) < 1e-4f);
	assert_int_equal(h[2].kind, TH_H_WIDTH);
	assert_true(tb_distance(h[2].p, tb_v2(2.5f, 2)) < 1e-5f);
	assert_int_equal(h[3].kind, TH_H_HEIGHT);
	assert_true(tb_distance(h[3].p, tb_v2(1, 2.25f)) < 1e-5f);
	/* the nearest handle within reach */
	assert_int_equal(th_edit_handle_at(h, n, tb_v2(2.45f, 2.02f), 0.1f), 2);
	assert_int_equal(th_edit_handle_at(h, n, tb_v2(0, 0), 0.1f), -1);
	/* a turned body's handles turn with it */
	tb_body_set_transform(w, b, tb_v2(1, 2), 1.5707963f);
	n = th_edit_handles(w, th_sel_body(b), 40.0, h, TH_EDIT_MAX_HANDLES);
	assert_true(tb_distance(h[2].p, tb_v2(1, 3.5f)) < 1e-4f);
	/* a circle: its radius */
	tb_body_id c = body_at(w, -3, 0, TB_DYNAMIC_BODY);
	tb_shape_def sd = tb_default_shape_def();
	tb_circle circle = {tb_v2(0, 0), 0.4f};
	tb_create_circle_shape(w, c, &sd, &circle, NULL);
	n = th_edit_handles(w, th_sel_body(c), 40.0, h, TH_EDIT_MAX_HANDLES);
	assert_int_equal(n, 3);
	assert_int_equal(h[2].kind, TH_H_RADIUS);
	assert_true(tb_distance(h[2].p, tb_v2(-2.6f, 0)) < 1e-5f);
	/* a gone body has none */
	tb_destroy_body(w, c);
	assert_int_equal(th_edit_handles(w, th_sel_body(c), 40.0, h, TH_EDIT_MAX_HANDLES), 0);
	assert_false(th_sel_valid(w, th_sel_body(c)));
	tb_destroy_world(w);
}

static void test_polygon_box(void **state)
{
	(void)state;
	tb_polygon p = tb_make_offset_box(1.0f, 0.5f, tb_v2(2, 3), (tb_rot){cosf(0.3f), sinf(0.3f)});
	tb_vec2 c, ax;
	float wd, ht;
	assert_true(th_edit_polygon_box(&p, &c, &ax, &wd, &ht));
	assert_true(tb_distance(c, tb_v2(2, 3)) < 1e-5f);
	assert_true(fabsf(wd - 2.0f) < 1e-5f && fabsf(ht - 1.0f) < 1e-5f);
	assert_true(fabsf(atan2f(ax.y, ax.x) - 0.3f) < 1e-5f);
	tb_vec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
	tb_polygon t;
	assert_int_equal(tb_make_polygon(tri, 3, 0.0f, &t), TB_OK);
	assert_false(th_edit_polygon_box(&t, &c, &ax, &wd, &ht));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_topmost), cmocka_unit_test(test_pick_joint_first), cmocka_unit_test(test_pick_box),
		cmocka_unit_test(test_snap),         cmocka_unit_test(test_format),           cmocka_unit_test(test_handles),
		cmocka_unit_test(test_polygon_box),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
