/* tumble host: edit mode's geometry (edit.h). */
#include "edit.h"
#include "tumble/tb_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

bool th_sel_valid(const tb_world *w, th_sel s)
{
	switch (s.kind) {
	case TH_SEL_BODY: return tb_body_is_valid(w, th_sel_body_id(s));
	case TH_SEL_SHAPE: return tb_shape_is_valid(w, (tb_shape_id){s.index1, s.generation});
	case TH_SEL_JOINT: return tb_joint_is_valid(w, th_sel_joint_id(s));
	default: return false;
	}
}

/* Distance from p to the segment [a, b]. */
static float segment_distance(tb_vec2 p, tb_vec2 a, tb_vec2 b)
{
	tb_vec2 ab = tb_sub(b, a);
	float len2 = tb_length_sq(ab);
	float t = len2 > 0.0f ? tb_clampf(tb_dot(tb_sub(p, a), ab) / len2, 0.0f, 1.0f) : 0.0f;
	return tb_distance(p, tb_mul_add(a, t, ab));
}

typedef struct pick_ctx {
	const tb_world *w;
	tb_vec2 p;
	float tol;
	bool found;
	tb_body_id body;
	tb_shape_id shape;
} pick_ctx;

/* A shape is under p if it contains it, or (a line: a segment, a chain's
 * link) passes within tol. */
static bool shape_under(const tb_world *w, tb_shape_id s, tb_vec2 p, float tol)
{
	if (tb_shape_test_point(w, s, p)) return true;
	tb_geometry g = tb_shape_get_geometry(w, s);
	tb_transform xf = tb_body_get_transform(w, tb_shape_get_body(w, s));
	tb_vec2 lp = tb_inv_transform_point(xf, p);
	switch (g.type) {
	case TB_SHAPE_SEGMENT: return segment_distance(lp, g.segment.point1, g.segment.point2) <= tol;
	case TB_SHAPE_CHAIN_SEGMENT:
		return segment_distance(lp, g.chain_segment.segment.point1, g.chain_segment.segment.point2) <= tol;
	default: return false;
	}
}

static bool pick_shape(tb_shape_id s, void *context)
{
	pick_ctx *c = context;
	if (!shape_under(c->w, s, c->p, c->tol)) return true;
	tb_body_id b = tb_shape_get_body(c->w, s);
	if (!c->found || b.index1 > c->body.index1 || (b.index1 == c->body.index1 && s.index1 > c->shape.index1)) {
		c->found = true;
		c->body = b;
		c->shape = s;
	}
	return true;
}

bool th_edit_pick(const tb_world *w, tb_vec2 p, float tol, th_sel *out)
{
	if (w == NULL) return false;
	/* joints first: they are drawn over the shapes */
	tb_joint_id joints[256];
	int n = tb_world_get_joints(w, joints, 256);
	float best = tol;
	bool found = false;
	for (int i = 0; i < n && i < 256; ++i) {
		if (tb_joint_get_type(w, joints[i]) == TB_JOINT_MOUSE) continue;
		tb_vec2 a = tb_joint_get_world_anchor_a(w, joints[i]), b = tb_joint_get_world_anchor_b(w, joints[i]);
		float d = segment_distance(p, a, b);
		if (d <= best) {
			best = d;
			*out = th_sel_joint(joints[i]);
			found = true;
		}
	}
	if (found) return true;
	pick_ctx c = {w, p, tol, false, {0, 0}, {0, 0}};
	tb_aabb box = {tb_v2(p.x - tol, p.y - tol), tb_v2(p.x + tol, p.y + tol)};
	tb_world_query_aabb(w, box, tb_default_query_filter(), pick_shape, &c);
	if (!c.found) return false;
	*out = th_sel_body(c.body);
	return true;
}

typedef struct box_ctx {
	const tb_world *w;
	tb_aabb box;
	th_sel *out;
	int count, cap;
} box_ctx;

static bool box_shape(tb_shape_id s, void *context)
{
	box_ctx *c = context;
	if (!tb_aabb_overlaps(tb_shape_get_aabb(c->w, s), c->box)) return true;
	th_sel b = th_sel_body(tb_shape_get_body(c->w, s));
	for (int i = 0; i < c->count; ++i) {
		if (th_sel_same(c->out[i], b)) return true;
	}
	if (c->count < c->cap) c->out[c->count++] = b;
	return true;
}

static int compare_sel(const void *a, const void *b)
{
	const th_sel *x = a, *y = b;
	return (x->index1 > y->index1) - (x->index1 < y->index1);
}

int th_edit_pick_box(const tb_world *w, tb_vec2 a, tb_vec2 b, th_sel *out, int cap)
{
	if (w == NULL || cap <= 0) return 0;
	box_ctx c = {w, {tb_min_v(a, b), tb_max_v(a, b)}, out, 0, cap};
	tb_world_query_aabb(w, c.box, tb_default_query_filter(), box_shape, &c);
	qsort(out, (size_t)c.count, sizeof(*out), compare_sel);
	return c.count;
}

/* ---------------- snapping and numbers ---------------- */

void th_edit_format_number(double v, char *buf, int size)
{
	if (v == 0.0) v = 0.0; /* no "-0" */
	for (int digits = 1; digits <= 9; ++digits) {
		snprintf(buf, (size_t)size, "%.*g", digits, v);
		if ((float)strtod(buf, NULL) == (float)v) break;
	}
	/* "1e+01" is a valid Lua number but reads badly: plain when short */
	if (strchr(buf, 'e') != NULL && fabs(v) >= 1e-4 && fabs(v) < 1e7) {
		for (int decimals = 0; decimals <= 9; ++decimals) {
			snprintf(buf, (size_t)size, "%.*f", decimals, v);
			if ((float)strtod(buf, NULL) == (float)v) break;
		}
	}
}

/* v rounded so its text is short: the nearest of the shortest decimals. */
static double tidy(double v)
{
	char buf[64];
	th_edit_format_number(v, buf, sizeof(buf));
	return strtod(buf, NULL);
}

double th_edit_snap(double v, double grid)
{
	if (!(grid > 0.0) || !isfinite(v)) return v;
	double k = floor(v / grid + 0.5);
	/* a multiple of a decimal grid, without the binary noise of k * grid */
	char buf[64];
	snprintf(buf, sizeof(buf), "%.12g", k * grid);
	return tidy(strtod(buf, NULL));
}

double th_edit_snap_angle(double radians)
{
	double step = PI / 12.0;
	double k = floor(radians / step + 0.5);
	return tidy(k * step);
}

/* ---------------- handles ---------------- */

bool th_edit_polygon_box(const tb_polygon *poly, tb_vec2 *center, tb_vec2 *axis, float *width, float *height)
{
	if (poly->count != 4) return false;
	const tb_vec2 *v = poly->vertices;
	tb_vec2 e0 = tb_sub(v[1], v[0]), e1 = tb_sub(v[2], v[1]), e2 = tb_sub(v[3], v[2]);
	float l0 = tb_length(e0), l1 = tb_length(e1);
	if (l0 <= 0.0f || l1 <= 0.0f) return false;
	if (fabsf(tb_dot(e0, e1)) > 1e-3f * l0 * l1 || fabsf(tb_dot(e1, e2)) > 1e-3f * l0 * l1) return false;
	*center = tb_mul_sv(0.25f, tb_add(tb_add(v[0], v[1]), tb_add(v[2], v[3])));
	*axis = tb_mul_sv(1.0f / l0, e0);
	*width = l0;
	*height = l1;
	return true;
}

static int push(th_handle *out, int count, int cap, th_handle h)
{
	if (count < cap) out[count] = h;
	return count + 1;
}

int th_edit_handles(const tb_world *w, th_sel s, double px_per_m, th_handle *out, int cap)
{
	int n = 0;
	if (w == NULL || !th_sel_valid(w, s)) return 0;
	if (s.kind == TH_SEL_JOINT) {
		tb_joint_id j = th_sel_joint_id(s);
		n = push(out, n, cap, (th_handle){TH_H_ANCHOR_A, tb_joint_get_world_anchor_a(w, j), {0, 0}, 0});
		n = push(out, n, cap, (th_handle){TH_H_ANCHOR_B, tb_joint_get_world_anchor_b(w, j), {0, 0}, 0});
		return n < cap ? n : cap;
	}
	if (s.kind != TH_SEL_BODY) return 0;
	tb_body_id b = th_sel_body_id(s);
	tb_transform xf = tb_body_get_transform(w, b);
	n = push(out, n, cap, (th_handle){TH_H_MOVE, xf.p, {0, 0}, 0});
	/* the rotate handle stands above the body's bounds, 24 pixels clear */
	tb_aabb bounds = tb_body_compute_aabb(w, b);
	float reach = tb_maxf(bounds.upper.y - xf.p.y, xf.p.y - bounds.lower.y);
	float standoff = px_per_m > 0.0 ? (float)(24.0 / px_per_m) : 0.5f;
	n = push(out, n, cap,
	         (th_handle){TH_H_ROTATE, tb_transform_point(xf, tb_v2(0.0f, reach + standoff)), {0, 0}, 0});
	tb_shape_id shapes[1];
	if (tb_body_get_shapes(w, b, shapes, 1) < 1) return n < cap ? n : cap;
	tb_shape_id sh = shapes[0];
	tb_geometry g = tb_shape_get_geometry(w, sh);
	switch (g.type) {
	case TB_SHAPE_CIRCLE:
		n = push(out, n, cap,
		         (th_handle){TH_H_RADIUS, tb_transform_point(xf, tb_add(g.circle.center, tb_v2(g.circle.radius, 0.0f))), sh, 0});
		break;
	case TB_SHAPE_CAPSULE: {
		tb_vec2 c1 = g.capsule.center1, c2 = g.capsule.center2;
		tb_vec2 d = tb_normalize(tb_sub(c2, c1));
		tb_vec2 mid = tb_lerp(c1, c2, 0.5f);
		n = push(out, n, cap, (th_handle){TH_H_RADIUS, tb_transform_point(xf, tb_mul_add(mid, g.capsule.radius, tb_left_perp(d))), sh, 0});
		n = push(out, n, cap, (th_handle){TH_H_END1, tb_transform_point(xf, c1), sh, 0});
		n = push(out, n, cap, (th_handle){TH_H_END2, tb_transform_point(xf, c2), sh, 0});
		break;
	}
	case TB_SHAPE_SEGMENT:
		n = push(out, n, cap, (th_handle){TH_H_END1, tb_transform_point(xf, g.segment.point1), sh, 0});
		n = push(out, n, cap, (th_handle){TH_H_END2, tb_transform_point(xf, g.segment.point2), sh, 0});
		break;
	case TB_SHAPE_POLYGON: {
		tb_vec2 c, ax;
		float wd, ht;
		if (th_edit_polygon_box(&g.polygon, &c, &ax, &wd, &ht)) {
			n = push(out, n, cap, (th_handle){TH_H_WIDTH, tb_transform_point(xf, tb_mul_add(c, 0.5f * wd, ax)), sh, 0});
			n = push(out, n, cap, (th_handle){TH_H_HEIGHT, tb_transform_point(xf, tb_mul_add(c, 0.5f * ht, tb_left_perp(ax))), sh, 0});
		} else {
			for (int i = 0; i < g.polygon.count; ++i) {
				n = push(out, n, cap, (th_handle){TH_H_VERTEX, tb_transform_point(xf, g.polygon.vertices[i]), sh, i});
			}
		}
		break;
	}
	default: break;
	}
	return n < cap ? n : cap;
}

int th_edit_handle_at(const th_handle *h, int count, tb_vec2 p, float tol)
{
	int best = -1;
	float best_d = tol;
	/* later handles win a tie: the resize handles sit over the move handle
	 * of a small shape */
	for (int i = 0; i < count; ++i) {
		float d = tb_distance(h[i].p, p);
		if (d <= best_d) {
			best_d = d;
			best = i;
		}
	}
	return best;
}
