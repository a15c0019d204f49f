/* tumble physics: shape construction, validation, mass, bounds, point and ray tests.
 * Everything here works on plain values in the shape's local frame. */
#include "tumble/collision.h"
#include "core.h"

#include <float.h>

const char *tb_status_string(tb_status s)
{
	switch (s) {
	case TB_OK: return "ok";
	case TB_ERR_INVALID_NUMBER: return "number is NaN or infinite";
	case TB_ERR_NON_POSITIVE: return "size must be positive";
	case TB_ERR_NEGATIVE: return "value must not be negative";
	case TB_ERR_TOO_FEW_VERTICES: return "polygon needs at least 3 vertices";
	case TB_ERR_TOO_MANY_VERTICES: return "polygon has more than 8 vertices";
	case TB_ERR_NOT_CONVEX: return "polygon is not convex";
	case TB_ERR_DEGENERATE: return "shape is degenerate (zero area, coincident or collinear points)";
	case TB_ERR_STALE_HANDLE: return "object was destroyed";
	case TB_ERR_WRONG_TYPE: return "wrong shape type";
	case TB_ERR_LOCKED: return "world is locked during a step";
	case TB_ERR_INVALID_ARGUMENT: return "invalid argument";
	case TB_ERR_OUT_OF_MEMORY: return "out of memory";
	case TB_ERR_BODY_LIMIT: return "too many bodies (the world's max_bodies limit)";
	case TB_ERR_SHAPE_LIMIT: return "too many shapes (the world's max_shapes limit)";
	case TB_ERR_JOINT_LIMIT: return "too many joints (the world's max_joints limit)";
	case TB_ERR_MASS_RANGE: return "mass out of range (density or size too small or too large)";
	case TB_ERR_CONTACT_LIMIT: return "too many contacts (the world's max_contacts limit)";
	case TB_ERR_SNAPSHOT_FORMAT: return "not a tumble snapshot";
	case TB_ERR_SNAPSHOT_VERSION: return "snapshot saved by another version or build of tumble";
	case TB_ERR_SNAPSHOT_CORRUPT: return "snapshot is corrupt (checksum, sizes, numbers or links do not hold)";
	default: return "unknown status";
	}
}

/* ---- polygons ---- */

/* Distance below which a vertex counts as lying on the line through its
 * neighbours: half the smallest feature, so the corners of a 2 mm card stay
 * (its neighbours' line passes 2 mm from each) while points a float's
 * rounding off a straight side go. */
#define TB_COLLINEAR_TOLERANCE (0.5f * TB_MIN_FEATURE)

static tb_vec2 polygon_centroid(const tb_vec2 *v, int count)
{
	/* Triangle fan about the first vertex: nearby numbers keep round-off small. */
	tb_vec2 origin = v[0];
	tb_vec2 sum = tb_vec2_zero;
	float area = 0.0f;
	for (int i = 1; i < count - 1; ++i) {
		tb_vec2 e1 = tb_sub(v[i], origin);
		tb_vec2 e2 = tb_sub(v[i + 1], origin);
		float a = 0.5f * tb_cross(e1, e2);
		sum = tb_mul_add(sum, a * (1.0f / 3.0f), tb_add(e1, e2));
		area += a;
	}
	if (area <= 0.0f) return origin;
	return tb_mul_add(origin, 1.0f / area, sum);
}

/* Fills normals and centroid of a counter-clockwise outline already known to be valid. */
static void polygon_finish(tb_polygon *p)
{
	for (int i = 0; i < p->count; ++i) {
		int j = i + 1 < p->count ? i + 1 : 0;
		p->normals[i] = tb_normalize(tb_right_perp(tb_sub(p->vertices[j], p->vertices[i])));
	}
	p->centroid = polygon_centroid(p->vertices, p->count);
}

tb_status tb_make_polygon(const tb_vec2 *points, int count, float radius, tb_polygon *out)
{
	if (points == NULL || out == NULL) return TB_ERR_INVALID_ARGUMENT;
	if (count < 3) return TB_ERR_TOO_FEW_VERTICES;
	if (count > TB_MAX_POLYGON_VERTICES) return TB_ERR_TOO_MANY_VERTICES;
	for (int i = 0; i < count; ++i) {
		if (!tb_is_valid_vec2(points[i])) return TB_ERR_INVALID_NUMBER;
	}
	if (!tb_is_valid_float(radius)) return TB_ERR_INVALID_NUMBER;
	if (radius < 0.0f) return TB_ERR_NEGATIVE;

	for (int i = 0; i < count; ++i) {
		for (int j = i + 1; j < count; ++j) {
			if (tb_distance_sq(points[i], points[j]) < TB_MIN_FEATURE * TB_MIN_FEATURE) return TB_ERR_DEGENERATE;
		}
	}

	tb_vec2 v[TB_MAX_POLYGON_VERTICES];
	int n = count;
	for (int i = 0; i < n; ++i) v[i] = points[i];

	/* Drop vertices that lie on the line through their neighbours. A vertex where
	 * the outline folds straight back is not a straight-through point: that
	 * outline has no interior there, so it is refused. */
	bool removed = true;
	while (removed && n >= 3) {
		removed = false;
		for (int i = 0; i < n; ++i) {
			tb_vec2 prev = v[i > 0 ? i - 1 : n - 1];
			tb_vec2 next = v[i + 1 < n ? i + 1 : 0];
			tb_vec2 e = tb_sub(next, prev);
			float len = tb_length(e);
			float dist = len > 0.0f ? fabsf(tb_cross(e, tb_sub(v[i], prev))) / len : 0.0f;
			if (dist < TB_COLLINEAR_TOLERANCE) {
				if (tb_dot(tb_sub(v[i], prev), tb_sub(next, v[i])) <= 0.0f) return TB_ERR_DEGENERATE;
				for (int k = i; k < n - 1; ++k) v[k] = v[k + 1];
				n -= 1;
				removed = true;
				break;
			}
		}
	}
	if (n < 3) return TB_ERR_DEGENERATE;

	float twice_area = 0.0f;
	for (int i = 0; i < n; ++i) twice_area += tb_cross(v[i], v[i + 1 < n ? i + 1 : 0]);
	if (twice_area == 0.0f) return TB_ERR_DEGENERATE;
	if (twice_area < 0.0f) {
		for (int i = 0; i < n / 2; ++i) {
			tb_vec2 t = v[i];
			v[i] = v[n - 1 - i];
			v[n - 1 - i] = t;
		}
	}

	/* Every other vertex strictly left of every edge: this also refuses
	 * self-intersecting outlines such as a pentagram, whose turns all agree. */
	for (int i = 0; i < n; ++i) {
		tb_vec2 a = v[i];
		tb_vec2 e = tb_sub(v[i + 1 < n ? i + 1 : 0], a);
		for (int j = 0; j < n; ++j) {
			if (j == i || j == (i + 1) % n) continue;
			if (tb_cross(e, tb_sub(v[j], a)) <= 0.0f) return TB_ERR_NOT_CONVEX;
		}
	}

	tb_polygon p;
	memset(&p, 0, sizeof p);
	p.count = n;
	p.radius = radius;
	for (int i = 0; i < n; ++i) p.vertices[i] = v[i];
	polygon_finish(&p);
	*out = p;
	return TB_OK;
}

tb_polygon tb_make_box(float half_width, float half_height)
{
	tb_polygon p;
	memset(&p, 0, sizeof p);
	p.count = 4;
	p.vertices[0] = tb_v2(-half_width, -half_height);
	p.vertices[1] = tb_v2(half_width, -half_height);
	p.vertices[2] = tb_v2(half_width, half_height);
	p.vertices[3] = tb_v2(-half_width, half_height);
	p.normals[0] = tb_v2(0.0f, -1.0f);
	p.normals[1] = tb_v2(1.0f, 0.0f);
	p.normals[2] = tb_v2(0.0f, 1.0f);
	p.normals[3] = tb_v2(-1.0f, 0.0f);
	return p;
}

tb_polygon tb_make_offset_box(float half_width, float half_height, tb_vec2 center, tb_rot rotation)
{
	tb_polygon p = tb_make_box(half_width, half_height);
	tb_transform xf = {center, rotation};
	for (int i = 0; i < 4; ++i) {
		p.vertices[i] = tb_transform_point(xf, p.vertices[i]);
		p.normals[i] = tb_rotate(rotation, p.normals[i]);
	}
	p.centroid = center;
	return p;
}

tb_polygon tb_make_rounded_box(float half_width, float half_height, float radius)
{
	tb_polygon p = tb_make_box(half_width, half_height);
	p.radius = radius;
	return p;
}

/* ---- validation ---- */

static tb_status check_radius(float r)
{
	if (!tb_is_valid_float(r)) return TB_ERR_INVALID_NUMBER;
	return r > 0.0f ? TB_OK : TB_ERR_NON_POSITIVE;
}

static tb_status validate_polygon(const tb_polygon *p)
{
	if (p->count < 3) return TB_ERR_TOO_FEW_VERTICES;
	if (p->count > TB_MAX_POLYGON_VERTICES) return TB_ERR_TOO_MANY_VERTICES;
	int n = p->count;
	for (int i = 0; i < n; ++i) {
		if (!tb_is_valid_vec2(p->vertices[i]) || !tb_is_valid_vec2(p->normals[i])) return TB_ERR_INVALID_NUMBER;
	}
	if (!tb_is_valid_vec2(p->centroid) || !tb_is_valid_float(p->radius)) return TB_ERR_INVALID_NUMBER;
	if (p->radius < 0.0f) return TB_ERR_NEGATIVE;
	for (int i = 0; i < n; ++i) {
		tb_vec2 a = p->vertices[i];
		tb_vec2 e = tb_sub(p->vertices[i + 1 < n ? i + 1 : 0], a);
		float len = tb_length(e);
		if (len < TB_MIN_FEATURE) return TB_ERR_DEGENERATE;
		/* The stored normal must be the unit outward normal of its edge. */
		tb_vec2 nrm = p->normals[i];
		if (fabsf(tb_length(nrm) - 1.0f) > 1.0e-3f) return TB_ERR_INVALID_ARGUMENT;
		if (fabsf(tb_dot(nrm, e)) > 1.0e-3f * len || tb_cross(e, nrm) > 0.0f) return TB_ERR_NOT_CONVEX;
		for (int j = 0; j < n; ++j) {
			if (j == i || j == (i + 1) % n) continue;
			if (tb_cross(e, tb_sub(p->vertices[j], a)) <= 0.0f) return TB_ERR_NOT_CONVEX;
		}
	}
	return TB_OK;
}

tb_status tb_validate_geometry(const tb_geometry *g)
{
	if (g == NULL) return TB_ERR_INVALID_ARGUMENT;
	switch (g->type) {
	case TB_SHAPE_CIRCLE:
		if (!tb_is_valid_vec2(g->circle.center)) return TB_ERR_INVALID_NUMBER;
		return check_radius(g->circle.radius);
	case TB_SHAPE_CAPSULE: {
		const tb_capsule *c = &g->capsule;
		if (!tb_is_valid_vec2(c->center1) || !tb_is_valid_vec2(c->center2)) return TB_ERR_INVALID_NUMBER;
		tb_status s = check_radius(c->radius);
		if (s != TB_OK) return s;
		/* A capsule whose centres meet is a circle: ask for one instead. */
		if (tb_distance_sq(c->center1, c->center2) < TB_MIN_FEATURE * TB_MIN_FEATURE) return TB_ERR_DEGENERATE;
		return TB_OK;
	}
	case TB_SHAPE_SEGMENT: {
		const tb_segment *s = &g->segment;
		if (!tb_is_valid_vec2(s->point1) || !tb_is_valid_vec2(s->point2)) return TB_ERR_INVALID_NUMBER;
		if (tb_distance_sq(s->point1, s->point2) < TB_MIN_FEATURE * TB_MIN_FEATURE) return TB_ERR_DEGENERATE;
		return TB_OK;
	}
	case TB_SHAPE_POLYGON: return validate_polygon(&g->polygon);
	case TB_SHAPE_CHAIN_SEGMENT: {
		const tb_chain_segment *c = &g->chain_segment;
		if (!tb_is_valid_vec2(c->ghost1) || !tb_is_valid_vec2(c->ghost2) || !tb_is_valid_vec2(c->segment.point1) ||
		    !tb_is_valid_vec2(c->segment.point2))
			return TB_ERR_INVALID_NUMBER;
		if (tb_distance_sq(c->segment.point1, c->segment.point2) < TB_MIN_FEATURE * TB_MIN_FEATURE)
			return TB_ERR_DEGENERATE;
		return TB_OK;
	}
	default: return TB_ERR_WRONG_TYPE;
	}
}

/* ---- mass ---- */

/* Area, first moment and second moment (about `ref`) of a region, per unit
 * density. Summing parts then shifting once keeps every formula exact. */
typedef struct area_moments {
	float area;
	tb_vec2 first;  /* sum of area * (centroid - ref) */
	float second;   /* integral of |x - ref|^2 dA */
} area_moments;

/* Adds a part given its area, centroid and second moment about its own centroid. */
static void add_part(area_moments *m, tb_vec2 ref, float area, tb_vec2 centroid, float own_second)
{
	tb_vec2 d = tb_sub(centroid, ref);
	m->area += area;
	m->first = tb_mul_add(m->first, area, d);
	m->second += own_second + area * tb_length_sq(d);
}

static tb_mass_data finish_mass(const area_moments *m, tb_vec2 ref, float density)
{
	tb_mass_data md;
	md.mass = density * m->area;
	tb_vec2 c = m->area > 0.0f ? tb_mul_sv(1.0f / m->area, m->first) : tb_vec2_zero;
	md.center = tb_add(ref, c);
	/* parallel axis theorem, from ref to the centre of mass */
	float i = density * (m->second - m->area * tb_length_sq(c));
	md.rotational_inertia = i > 0.0f ? i : 0.0f;
	return md;
}

static tb_mass_data polygon_mass(const tb_polygon *p, float density)
{
	area_moments m = {0.0f, {0.0f, 0.0f}, 0.0f};
	tb_vec2 ref = p->vertices[0];
	int n = p->count;

	/* Core: fan of triangles (ref, v[i], v[i+1]). For a triangle with a vertex at
	 * the origin and edges e1, e2: integral of |x|^2 = A/6 (e1.e1 + e1.e2 + e2.e2). */
	for (int i = 1; i < n - 1; ++i) {
		tb_vec2 e1 = tb_sub(p->vertices[i], ref);
		tb_vec2 e2 = tb_sub(p->vertices[i + 1], ref);
		float a = 0.5f * tb_cross(e1, e2);
		m.area += a;
		m.first = tb_mul_add(m.first, a * (1.0f / 3.0f), tb_add(e1, e2));
		m.second += (a / 6.0f) * (tb_dot(e1, e1) + tb_dot(e1, e2) + tb_dot(e2, e2));
	}

	float r = p->radius;
	if (r > 0.0f) {
		/* The rounding is exact: a rectangle along every edge plus a circular
		 * sector at every vertex (the sectors add up to one full disc). */
		for (int i = 0; i < n; ++i) {
			int j = i + 1 < n ? i + 1 : 0;
			tb_vec2 a = p->vertices[i], b = p->vertices[j];
			tb_vec2 nrm = p->normals[i];
			float len = tb_distance(a, b);
			float area = len * r;
			tb_vec2 c = tb_mul_add(tb_lerp(a, b, 0.5f), 0.5f * r, nrm);
			add_part(&m, ref, area, c, area * (len * len + r * r) / 12.0f);

			tb_vec2 n0 = p->normals[i > 0 ? i - 1 : n - 1];
			float theta = tb_atan2f(tb_cross(n0, nrm), tb_dot(n0, nrm));
			if (theta <= 0.0f) continue;
			float sector = 0.5f * theta * r * r;
			/* centroid of a sector of angle theta: 4 r sin(theta/2) / (3 theta) from the apex */
			float d = theta > 1.0e-6f ? 4.0f * r * tb_sinf(0.5f * theta) / (3.0f * theta) : (2.0f / 3.0f) * r;
			tb_vec2 bis = tb_normalize(tb_add(n0, nrm));
			tb_vec2 sc = tb_mul_add(p->vertices[i], d, bis);
			add_part(&m, ref, sector, sc, sector * (0.5f * r * r - d * d));
		}
	}
	return finish_mass(&m, ref, density);
}

static tb_mass_data capsule_mass(const tb_capsule *c, float density)
{
	float r = c->radius;
	float len = tb_distance(c->center1, c->center2);
	float rect_mass = density * 2.0f * r * len;
	float half_disc_mass = density * 0.5f * TB_PI * r * r;
	/* Each half disc: r^2/2 about the centre of its flat side, moved to its
	 * centroid (4r/(3 pi) out) and then to the capsule centre. */
	float dc = 4.0f * r / (3.0f * TB_PI);
	float arm = 0.5f * len + dc;
	float half_disc_i = half_disc_mass * (0.5f * r * r - dc * dc + arm * arm);
	float rect_i = rect_mass * (len * len + 4.0f * r * r) / 12.0f;

	tb_mass_data md;
	md.mass = rect_mass + 2.0f * half_disc_mass;
	md.center = tb_lerp(c->center1, c->center2, 0.5f);
	md.rotational_inertia = rect_i + 2.0f * half_disc_i;
	return md;
}

tb_mass_data tb_compute_mass(const tb_geometry *g, float density)
{
	tb_mass_data md = {0.0f, {0.0f, 0.0f}, 0.0f};
	switch (g->type) {
	case TB_SHAPE_CIRCLE: {
		float r = g->circle.radius;
		md.mass = density * TB_PI * r * r;
		md.center = g->circle.center;
		md.rotational_inertia = 0.5f * md.mass * r * r;
		return md;
	}
	case TB_SHAPE_CAPSULE: return capsule_mass(&g->capsule, density);
	case TB_SHAPE_POLYGON: return polygon_mass(&g->polygon, density);
	case TB_SHAPE_SEGMENT: md.center = tb_lerp(g->segment.point1, g->segment.point2, 0.5f); return md;
	case TB_SHAPE_CHAIN_SEGMENT:
		md.center = tb_lerp(g->chain_segment.segment.point1, g->chain_segment.segment.point2, 0.5f);
		return md;
	default: return md;
	}
}

/* ---- bounds, centroid, point test ---- */

tb_aabb tb_compute_aabb(const tb_geometry *g, tb_transform xf)
{
	switch (g->type) {
	case TB_SHAPE_CIRCLE: return tb_points_aabb(&g->circle.center, 1, g->circle.radius, xf);
	case TB_SHAPE_CAPSULE: return tb_points_aabb(&g->capsule.center1, 2, g->capsule.radius, xf);
	case TB_SHAPE_SEGMENT: return tb_points_aabb(&g->segment.point1, 2, 0.0f, xf);
	case TB_SHAPE_POLYGON: return tb_points_aabb(g->polygon.vertices, g->polygon.count, g->polygon.radius, xf);
	case TB_SHAPE_CHAIN_SEGMENT: return tb_points_aabb(&g->chain_segment.segment.point1, 2, 0.0f, xf);
	default: {
		tb_aabb box = {xf.p, xf.p};
		return box;
	}
	}
}

tb_vec2 tb_geometry_centroid(const tb_geometry *g)
{
	switch (g->type) {
	case TB_SHAPE_CIRCLE: return g->circle.center;
	case TB_SHAPE_CAPSULE: return tb_lerp(g->capsule.center1, g->capsule.center2, 0.5f);
	case TB_SHAPE_SEGMENT: return tb_lerp(g->segment.point1, g->segment.point2, 0.5f);
	case TB_SHAPE_POLYGON: return g->polygon.centroid;
	case TB_SHAPE_CHAIN_SEGMENT:
		return tb_lerp(g->chain_segment.segment.point1, g->chain_segment.segment.point2, 0.5f);
	default: return tb_vec2_zero;
	}
}

static tb_vec2 closest_on_segment(tb_vec2 a, tb_vec2 b, tb_vec2 p)
{
	tb_vec2 e = tb_sub(b, a);
	float ee = tb_dot(e, e);
	if (ee <= 0.0f) return a;
	float t = tb_clampf(tb_dot(tb_sub(p, a), e) / ee, 0.0f, 1.0f);
	return tb_mul_add(a, t, e);
}

/* Squared distance from p to a convex polygon's core, 0 inside. */
static float polygon_distance_sq(const tb_polygon *poly, tb_vec2 p)
{
	float max_sep = -FLT_MAX;
	for (int i = 0; i < poly->count; ++i) {
		float s = tb_dot(poly->normals[i], tb_sub(p, poly->vertices[i]));
		if (s > max_sep) max_sep = s;
	}
	if (max_sep <= 0.0f) return 0.0f;
	float best = FLT_MAX;
	for (int i = 0; i < poly->count; ++i) {
		int j = i + 1 < poly->count ? i + 1 : 0;
		float d = tb_distance_sq(p, closest_on_segment(poly->vertices[i], poly->vertices[j], p));
		if (d < best) best = d;
	}
	return best;
}

bool tb_geometry_test_point(const tb_geometry *g, tb_vec2 p)
{
	switch (g->type) {
	case TB_SHAPE_CIRCLE: {
		float r = g->circle.radius;
		return tb_distance_sq(g->circle.center, p) <= r * r;
	}
	case TB_SHAPE_CAPSULE: {
		float r = g->capsule.radius;
		return tb_distance_sq(closest_on_segment(g->capsule.center1, g->capsule.center2, p), p) <= r * r;
	}
	case TB_SHAPE_POLYGON: {
		float r = g->polygon.radius;
		return polygon_distance_sq(&g->polygon, p) <= r * r;
	}
	default: return false;
	}
}

/* ---- ray casts ---- */

static tb_cast_output no_hit(void)
{
	tb_cast_output out;
	memset(&out, 0, sizeof out);
	return out;
}

static tb_cast_output ray_cast_circle(const tb_ray_cast_input *in, tb_vec2 center, float radius)
{
	tb_vec2 s = tb_sub(in->origin, center);
	/* starting inside (or on) a solid: no hit */
	if (tb_length_sq(s) < radius * radius) return no_hit();
	float length;
	tb_vec2 d = tb_get_length_and_normalize(&length, in->translation);
	if (length == 0.0f) return no_hit();
	/* Work with the unit direction so the discriminant is well scaled. */
	float t_closest = -tb_dot(s, d);
	tb_vec2 c = tb_mul_add(s, t_closest, d);
	float h_sq = radius * radius - tb_length_sq(c);
	if (h_sq < 0.0f) return no_hit();
	float t = t_closest - sqrtf(h_sq);
	if (t < 0.0f || t > in->max_fraction * length) return no_hit();
	tb_cast_output out = no_hit();
	tb_vec2 hit = tb_mul_add(s, t, d);
	out.normal = tb_normalize(hit);
	if (out.normal.x == 0.0f && out.normal.y == 0.0f) out.normal = tb_neg(d);
	out.point = tb_add(center, hit);
	out.fraction = t / length;
	out.hit = true;
	return out;
}

/* A segment seen from one side (normal = right perpendicular of p1->p2) or both. */
static tb_cast_output ray_cast_segment(const tb_ray_cast_input *in, tb_vec2 p1, tb_vec2 p2, bool one_sided)
{
	tb_vec2 e = tb_sub(p2, p1);
	float len;
	tb_vec2 u = tb_get_length_and_normalize(&len, e);
	if (len == 0.0f) return no_hit();
	tb_vec2 n = tb_right_perp(u);
	float numerator = tb_dot(n, tb_sub(p1, in->origin));
	float denominator = tb_dot(n, in->translation);
	if (denominator == 0.0f) return no_hit();
	/* one-sided: only a ray travelling against the normal hits */
	if (one_sided && denominator > 0.0f) return no_hit();
	float t = numerator / denominator;
	if (t < 0.0f || t > in->max_fraction) return no_hit();
	tb_vec2 q = tb_mul_add(in->origin, t, in->translation);
	float s = tb_dot(tb_sub(q, p1), u);
	if (s < 0.0f || s > len) return no_hit();
	tb_cast_output out = no_hit();
	out.normal = denominator > 0.0f ? tb_neg(n) : n;
	out.point = q;
	out.fraction = t;
	out.hit = true;
	return out;
}

/* Core outline plus radius: the boundary is the edges pushed out by the radius
 * and a circle around every vertex, so the entry point is the earliest of those. */
static tb_cast_output ray_cast_rounded(const tb_ray_cast_input *in, const tb_vec2 *v, const tb_vec2 *normals,
                                       int count, float radius)
{
	tb_cast_output best = no_hit();
	best.fraction = FLT_MAX;
	for (int i = 0; i < count; ++i) {
		int j = i + 1 < count ? i + 1 : 0;
		tb_vec2 off = tb_mul_sv(radius, normals[i]);
		/* pushed-out edge, entered from outside only: p1->p2 reversed so its
		 * right perpendicular is the outward normal */
		tb_cast_output o = ray_cast_segment(in, tb_add(v[i], off), tb_add(v[j], off), true);
		if (o.hit && o.fraction < best.fraction) best = o;
		o = ray_cast_circle(in, v[i], radius);
		if (o.hit && o.fraction < best.fraction) best = o;
	}
	return best.hit ? best : no_hit();
}

static tb_cast_output ray_cast_polygon(const tb_ray_cast_input *in, const tb_polygon *poly)
{
	if (poly->radius > 0.0f) {
		float r = poly->radius;
		if (polygon_distance_sq(poly, in->origin) < r * r) return no_hit();
		return ray_cast_rounded(in, poly->vertices, poly->normals, poly->count, r);
	}
	/* Clip the ray against every edge's half plane (Cyrus-Beck). */
	float lower = 0.0f, upper = in->max_fraction;
	int index = -1;
	for (int i = 0; i < poly->count; ++i) {
		float numerator = tb_dot(poly->normals[i], tb_sub(poly->vertices[i], in->origin));
		float denominator = tb_dot(poly->normals[i], in->translation);
		if (denominator == 0.0f) {
			if (numerator < 0.0f) return no_hit();
		} else if (denominator < 0.0f && numerator < lower * denominator) {
			lower = numerator / denominator;
			index = i;
		} else if (denominator > 0.0f && numerator < upper * denominator) {
			upper = numerator / denominator;
		}
		if (upper < lower) return no_hit();
	}
	/* index < 0: the origin is inside, and a ray starting inside does not hit */
	if (index < 0) return no_hit();
	tb_cast_output out = no_hit();
	out.normal = poly->normals[index];
	out.point = tb_mul_add(in->origin, lower, in->translation);
	out.fraction = lower;
	out.hit = true;
	return out;
}

static tb_cast_output ray_cast_capsule(const tb_ray_cast_input *in, const tb_capsule *c)
{
	float r = c->radius;
	if (tb_distance_sq(closest_on_segment(c->center1, c->center2, in->origin), in->origin) < r * r) return no_hit();
	tb_vec2 n = tb_normalize(tb_right_perp(tb_sub(c->center2, c->center1)));
	if (n.x == 0.0f && n.y == 0.0f) return ray_cast_circle(in, c->center1, r);
	tb_vec2 v[2] = {c->center1, c->center2};
	tb_vec2 normals[2] = {n, tb_neg(n)};
	return ray_cast_rounded(in, v, normals, 2, r);
}

tb_cast_output tb_ray_cast_geometry(const tb_ray_cast_input *input, const tb_geometry *g)
{
	if (!tb_is_valid_vec2(input->origin) || !tb_is_valid_vec2(input->translation) ||
	    !tb_is_valid_float(input->max_fraction))
		return no_hit();
	switch (g->type) {
	case TB_SHAPE_CIRCLE: return ray_cast_circle(input, g->circle.center, g->circle.radius);
	case TB_SHAPE_CAPSULE: return ray_cast_capsule(input, &g->capsule);
	case TB_SHAPE_SEGMENT: return ray_cast_segment(input, g->segment.point1, g->segment.point2, false);
	case TB_SHAPE_POLYGON: return ray_cast_polygon(input, &g->polygon);
	case TB_SHAPE_CHAIN_SEGMENT:
		return ray_cast_segment(input, g->chain_segment.segment.point1, g->chain_segment.segment.point2, true);
	default: return no_hit();
	}
}

tb_cast_output tb_ray_cast_aabb(tb_aabb a, tb_vec2 p1, tb_vec2 p2)
{
	/* Slab test on the segment p1->p2; the fraction is along that segment. A
	 * segment starting inside the box does not hit it (like the shapes). */
	tb_vec2 d = tb_sub(p2, p1);
	float lower = -FLT_MAX, upper = FLT_MAX;
	tb_vec2 normal = tb_vec2_zero;
	float pv[2] = {p1.x, p1.y}, dv[2] = {d.x, d.y};
	float lo[2] = {a.lower.x, a.lower.y}, hi[2] = {a.upper.x, a.upper.y};
	for (int k = 0; k < 2; ++k) {
		if (dv[k] == 0.0f) {
			if (pv[k] < lo[k] || pv[k] > hi[k]) return no_hit();
			continue;
		}
		float inv = 1.0f / dv[k];
		float t1 = (lo[k] - pv[k]) * inv;
		float t2 = (hi[k] - pv[k]) * inv;
		float s = -1.0f;
		if (t1 > t2) {
			float t = t1;
			t1 = t2;
			t2 = t;
			s = 1.0f;
		}
		if (t1 > lower) {
			lower = t1;
			normal = k == 0 ? tb_v2(s, 0.0f) : tb_v2(0.0f, s);
		}
		if (t2 < upper) upper = t2;
		if (lower > upper) return no_hit();
	}
	if (lower < 0.0f || lower > 1.0f) return no_hit();
	tb_cast_output out = no_hit();
	out.fraction = lower;
	out.normal = normal;
	out.point = tb_mul_add(p1, lower, d);
	out.hit = true;
	return out;
}
