/* tumble physics: closest points (GJK), segment distance and time of impact.
 *
 * GJK follows Erin Catto's formulation: the simplex lives on the Minkowski
 * difference B - A, its vertices remember which support points made them (so a
 * caller learns which features are closest), and barycentric weights give the
 * witness points. Time of impact is conservative advancement driven by a
 * separating axis taken from the last GJK simplex, with a safeguarded root
 * finder, so rotation is handled without sampling. */
#include "distance.h"
#include "core.h"

#include <float.h>

/* ---- segments ---- */

tb_segment_distance_result tb_segment_distance(tb_vec2 p1, tb_vec2 q1, tb_vec2 p2, tb_vec2 q2)
{
	tb_segment_distance_result r;
	tb_vec2 d1 = tb_sub(q1, p1);
	tb_vec2 d2 = tb_sub(q2, p2);
	tb_vec2 w = tb_sub(p1, p2);
	float dd1 = tb_dot(d1, d1);
	float dd2 = tb_dot(d2, d2);
	float wd1 = tb_dot(w, d1);
	float wd2 = tb_dot(w, d2);
	const float eps = FLT_EPSILON * FLT_EPSILON;
	float f1 = 0.0f, f2 = 0.0f;

	if (dd1 < eps && dd2 < eps) {
		/* two points */
	} else if (dd1 < eps) {
		f2 = tb_clampf(wd2 / dd2, 0.0f, 1.0f);
	} else if (dd2 < eps) {
		f1 = tb_clampf(-wd1 / dd1, 0.0f, 1.0f);
	} else {
		float d12 = tb_dot(d1, d2);
		float denom = dd1 * dd2 - d12 * d12;
		/* parallel segments: any point of the first will do, start at its beginning */
		f1 = denom != 0.0f ? tb_clampf((d12 * wd2 - wd1 * dd2) / denom, 0.0f, 1.0f) : 0.0f;
		f2 = (d12 * f1 + wd2) / dd2;
		if (f2 < 0.0f) {
			f2 = 0.0f;
			f1 = tb_clampf(-wd1 / dd1, 0.0f, 1.0f);
		} else if (f2 > 1.0f) {
			f2 = 1.0f;
			f1 = tb_clampf((d12 - wd1) / dd1, 0.0f, 1.0f);
		}
	}
	r.closest1 = tb_mul_add(p1, f1, d1);
	r.closest2 = tb_mul_add(p2, f2, d2);
	r.fraction1 = f1;
	r.fraction2 = f2;
	r.distance_squared = tb_distance_sq(r.closest1, r.closest2);
	return r;
}

bool tb_make_capsule_polygon(tb_vec2 p1, tb_vec2 p2, float radius, tb_polygon *out)
{
	tb_vec2 n = tb_normalize(tb_right_perp(tb_sub(p2, p1)));
	if (n.x == 0.0f && n.y == 0.0f) return false;
	out->vertices[0] = p1;
	out->vertices[1] = p2;
	out->normals[0] = n;
	out->normals[1] = tb_neg(n);
	out->centroid = tb_lerp(p1, p2, 0.5f);
	out->radius = radius;
	out->count = 2;
	return true;
}

/* ---- proxies ---- */

tb_shape_proxy tb_make_proxy(const tb_vec2 *points, int count, float radius)
{
	tb_shape_proxy p;
	memset(&p, 0, sizeof p);
	if (points == NULL || count < 1) {
		/* a single point at the origin rather than an empty set GJK cannot walk */
		p.count = 1;
	} else {
		p.count = tb_mini(count, TB_MAX_POLYGON_VERTICES);
		for (int i = 0; i < p.count; ++i) p.points[i] = points[i];
	}
	p.radius = radius;
	return p;
}

tb_shape_proxy tb_geometry_proxy(const tb_geometry *g)
{
	switch (g->type) {
	case TB_SHAPE_CIRCLE: return tb_make_proxy(&g->circle.center, 1, g->circle.radius);
	case TB_SHAPE_CAPSULE: return tb_make_proxy(&g->capsule.center1, 2, g->capsule.radius);
	case TB_SHAPE_SEGMENT: return tb_make_proxy(&g->segment.point1, 2, 0.0f);
	case TB_SHAPE_POLYGON: return tb_make_proxy(g->polygon.vertices, g->polygon.count, g->polygon.radius);
	case TB_SHAPE_CHAIN_SEGMENT: return tb_make_proxy(&g->chain_segment.segment.point1, 2, 0.0f);
	default: return tb_make_proxy(NULL, 0, 0.0f);
	}
}

/* ---- GJK ---- */

typedef struct simplex_vertex {
	tb_vec2 wa, wb, w; /* support points on A and B, w = wb - wa */
	float a;           /* barycentric weight of the closest point */
	int ia, ib;
} simplex_vertex;

typedef struct simplex {
	simplex_vertex v[3];
	int count;
} simplex;

static int support_index(const tb_vec2 *p, int count, tb_vec2 d)
{
	int best = 0;
	float best_dot = tb_dot(p[0], d);
	for (int i = 1; i < count; ++i) {
		float v = tb_dot(p[i], d);
		if (v > best_dot) {
			best = i;
			best_dot = v;
		}
	}
	return best;
}

/* Closest point of segment w1-w2 to the origin, keeping only the vertices that carry it. */
static void solve2(simplex *s)
{
	tb_vec2 w1 = s->v[0].w, w2 = s->v[1].w;
	tb_vec2 e12 = tb_sub(w2, w1);
	float d12_2 = -tb_dot(w1, e12); /* weight of w2 (unnormalised) */
	if (d12_2 <= 0.0f) {
		s->v[0].a = 1.0f;
		s->count = 1;
		return;
	}
	float d12_1 = tb_dot(w2, e12); /* weight of w1 */
	if (d12_1 <= 0.0f) {
		s->v[1].a = 1.0f;
		s->v[0] = s->v[1];
		s->count = 1;
		return;
	}
	float inv = 1.0f / (d12_1 + d12_2);
	s->v[0].a = d12_1 * inv;
	s->v[1].a = d12_2 * inv;
	s->count = 2;
}

/* Closest point of triangle w1-w2-w3 to the origin by Voronoi regions. */
static void solve3(simplex *s)
{
	tb_vec2 w1 = s->v[0].w, w2 = s->v[1].w, w3 = s->v[2].w;

	tb_vec2 e12 = tb_sub(w2, w1);
	float d12_1 = tb_dot(w2, e12);
	float d12_2 = -tb_dot(w1, e12);
	tb_vec2 e13 = tb_sub(w3, w1);
	float d13_1 = tb_dot(w3, e13);
	float d13_2 = -tb_dot(w1, e13);
	tb_vec2 e23 = tb_sub(w3, w2);
	float d23_1 = tb_dot(w3, e23);
	float d23_2 = -tb_dot(w2, e23);

	float n123 = tb_cross(e12, e13);
	float d123_1 = n123 * tb_cross(w2, w3);
	float d123_2 = n123 * tb_cross(w3, w1);
	float d123_3 = n123 * tb_cross(w1, w2);

	if (d12_2 <= 0.0f && d13_2 <= 0.0f) {
		s->v[0].a = 1.0f;
		s->count = 1;
		return;
	}
	if (d12_1 > 0.0f && d12_2 > 0.0f && d123_3 <= 0.0f) {
		float inv = 1.0f / (d12_1 + d12_2);
		s->v[0].a = d12_1 * inv;
		s->v[1].a = d12_2 * inv;
		s->count = 2;
		return;
	}
	if (d13_1 > 0.0f && d13_2 > 0.0f && d123_2 <= 0.0f) {
		float inv = 1.0f / (d13_1 + d13_2);
		s->v[0].a = d13_1 * inv;
		s->v[2].a = d13_2 * inv;
		s->v[1] = s->v[2];
		s->count = 2;
		return;
	}
	if (d12_1 <= 0.0f && d23_2 <= 0.0f) {
		s->v[1].a = 1.0f;
		s->v[0] = s->v[1];
		s->count = 1;
		return;
	}
	if (d13_1 <= 0.0f && d23_1 <= 0.0f) {
		s->v[2].a = 1.0f;
		s->v[0] = s->v[2];
		s->count = 1;
		return;
	}
	if (d23_1 > 0.0f && d23_2 > 0.0f && d123_1 <= 0.0f) {
		float inv = 1.0f / (d23_1 + d23_2);
		s->v[1].a = d23_1 * inv;
		s->v[2].a = d23_2 * inv;
		s->v[0] = s->v[2];
		s->count = 2;
		return;
	}
	/* origin inside the triangle */
	float sum = d123_1 + d123_2 + d123_3;
	float inv = sum != 0.0f ? 1.0f / sum : 0.0f;
	s->v[0].a = d123_1 * inv;
	s->v[1].a = d123_2 * inv;
	s->v[2].a = d123_3 * inv;
	s->count = 3;
}

#define TB_GJK_MAX_ITERATIONS 20

tb_gjk_result tb_gjk(const tb_vec2 *a, int count_a, const tb_vec2 *b, int count_b)
{
	simplex s;
	s.count = 1;
	s.v[0].ia = 0;
	s.v[0].ib = 0;
	s.v[0].wa = a[0];
	s.v[0].wb = b[0];
	s.v[0].w = tb_sub(b[0], a[0]);
	s.v[0].a = 1.0f;

	int iter = 0;
	for (;;) {
		int save_a[3], save_b[3];
		int save_count = s.count;
		for (int i = 0; i < save_count; ++i) {
			save_a[i] = s.v[i].ia;
			save_b[i] = s.v[i].ib;
		}

		if (s.count == 2) solve2(&s);
		else if (s.count == 3) solve3(&s);
		if (s.count == 3) break;

		/* Direction toward the origin. For an edge, the perpendicular is more
		 * accurate than the difference of two nearly equal closest points. */
		tb_vec2 d;
		if (s.count == 1) {
			d = tb_neg(s.v[0].w);
		} else {
			tb_vec2 e12 = tb_sub(s.v[1].w, s.v[0].w);
			float sgn = tb_cross(e12, tb_neg(s.v[0].w));
			d = sgn > 0.0f ? tb_left_perp(e12) : tb_right_perp(e12);
		}
		if (tb_dot(d, d) < FLT_EPSILON * FLT_EPSILON) break; /* origin on the simplex: touching */
		if (iter >= TB_GJK_MAX_ITERATIONS) break;

		simplex_vertex *v = s.v + s.count;
		v->ia = support_index(a, count_a, tb_neg(d));
		v->ib = support_index(b, count_b, d);
		v->wa = a[v->ia];
		v->wb = b[v->ib];
		v->w = tb_sub(v->wb, v->wa);
		v->a = 0.0f;
		++iter;

		/* A support point already in the simplex means no further progress. */
		bool duplicate = false;
		for (int i = 0; i < save_count; ++i) {
			if (v->ia == save_a[i] && v->ib == save_b[i]) {
				duplicate = true;
				break;
			}
		}
		if (duplicate) break;
		s.count += 1;
	}

	tb_gjk_result r;
	memset(&r, 0, sizeof r);
	if (s.count == 1) {
		r.point_a = s.v[0].wa;
		r.point_b = s.v[0].wb;
	} else if (s.count == 2) {
		r.point_a = tb_add(tb_mul_sv(s.v[0].a, s.v[0].wa), tb_mul_sv(s.v[1].a, s.v[1].wa));
		r.point_b = tb_add(tb_mul_sv(s.v[0].a, s.v[0].wb), tb_mul_sv(s.v[1].a, s.v[1].wb));
	} else {
		r.point_a = tb_add(tb_add(tb_mul_sv(s.v[0].a, s.v[0].wa), tb_mul_sv(s.v[1].a, s.v[1].wa)),
		                   tb_mul_sv(s.v[2].a, s.v[2].wa));
		r.point_b = r.point_a;
	}
	r.distance = s.count == 3 ? 0.0f : tb_distance(r.point_a, r.point_b);
	r.iterations = iter;
	r.count = s.count;
	for (int i = 0; i < s.count; ++i) {
		r.index_a[i] = s.v[i].ia;
		r.index_b[i] = s.v[i].ib;
	}
	return r;
}

static tb_vec2 proxy_center(const tb_vec2 *points, int count)
{
	tb_vec2 c = tb_vec2_zero;
	for (int i = 0; i < count; ++i) c = tb_add(c, points[i]);
	return tb_mul_sv(1.0f / (float)count, c);
}

tb_distance_output tb_shape_distance(const tb_shape_proxy *a, tb_transform xfa, const tb_shape_proxy *b,
                                     tb_transform xfb)
{
	tb_distance_output out;
	memset(&out, 0, sizeof out);
	int na = tb_mini(a->count, TB_MAX_POLYGON_VERTICES), nb = tb_mini(b->count, TB_MAX_POLYGON_VERTICES);
	if (na < 1 || nb < 1) {
		/* not a shape: report it far away rather than read garbage */
		out.distance = FLT_MAX;
		out.normal = tb_v2(0.0f, 1.0f);
		return out;
	}

	/* Work in A's frame: numbers stay small and A needs no transform. */
	tb_transform xf = tb_inv_mul_transforms(xfa, xfb);
	tb_vec2 local_b[TB_MAX_POLYGON_VERTICES];
	for (int i = 0; i < nb; ++i) local_b[i] = tb_transform_point(xf, b->points[i]);

	tb_gjk_result g = tb_gjk(a->points, na, local_b, nb);

	out.iterations = g.iterations;
	float ra = a->radius, rb = b->radius;
	tb_vec2 pa = g.point_a, pb = g.point_b;
	tb_vec2 n;
	if (g.distance > FLT_EPSILON) {
		n = tb_mul_sv(1.0f / g.distance, tb_sub(pb, pa));
		pa = tb_mul_add(pa, ra, n);
		pb = tb_mul_sub(pb, rb, n);
		out.distance = g.distance - ra - rb;
	} else {
		/* The cores touch or overlap, so there is no closest direction. Report
		 * the overlap the radii alone account for (continuous with the case
		 * above) and a direction between the centres that is at least valid. */
		n = tb_normalize(tb_sub(proxy_center(local_b, nb), proxy_center(a->points, na)));
		if (n.x == 0.0f && n.y == 0.0f) n = tb_v2(0.0f, 1.0f);
		tb_vec2 mid = tb_lerp(pa, pb, 0.5f);
		pa = mid;
		pb = mid;
		out.distance = -(ra + rb);
	}
	out.point_a = tb_transform_point(xfa, pa);
	out.point_b = tb_transform_point(xfa, pb);
	out.normal = tb_rotate(xfa.q, n);
	return out;
}

/* ---- time of impact ---- */

tb_transform tb_sweep_transform(const tb_sweep *s, float t)
{
	tb_transform xf;
	xf.p = tb_add(tb_mul_sv(1.0f - t, s->c1), tb_mul_sv(t, s->c2));
	/* Normalised linear blend of the rotations: exact at both ends and smooth
	 * for the small angles a body turns in one step. */
	tb_rot q = {(1.0f - t) * s->q1.c + t * s->q2.c, (1.0f - t) * s->q1.s + t * s->q2.s};
	xf.q = tb_normalize_rot(q);
	if (xf.q.c == 0.0f && xf.q.s == 0.0f) xf.q = s->q1; /* half-turn blend: keep a valid rotation */
	xf.p = tb_sub(xf.p, tb_rotate(xf.q, s->local_center));
	return xf;
}

typedef enum sep_type { SEP_POINTS, SEP_FACE_A, SEP_FACE_B } sep_type;

typedef struct sep_fn {
	const tb_shape_proxy *a, *b;
	const tb_sweep *sa, *sb;
	tb_vec2 local_point;
	tb_vec2 axis;
	sep_type type;
} sep_fn;

static void sep_init_points(sep_fn *f, int ia, int ib, tb_transform xfa, tb_transform xfb)
{
	f->type = SEP_POINTS;
	tb_vec2 pa = tb_transform_point(xfa, f->a->points[ia]);
	tb_vec2 pb = tb_transform_point(xfb, f->b->points[ib]);
	f->axis = tb_normalize(tb_sub(pb, pa));
	f->local_point = tb_vec2_zero;
}

static void sep_init(sep_fn *f, const tb_gjk_result *g, tb_transform xfa, tb_transform xfb)
{
	if (g->count == 1) {
		sep_init_points(f, g->index_a[0], g->index_b[0], xfa, xfb);
		return;
	}
	if (g->index_a[0] == g->index_a[1]) {
		/* two points on B: B's edge against a vertex of A */
		tb_vec2 b1 = f->b->points[g->index_b[0]], b2 = f->b->points[g->index_b[1]];
		tb_vec2 axis = tb_normalize(tb_right_perp(tb_sub(b2, b1)));
		if (axis.x == 0.0f && axis.y == 0.0f) {
			sep_init_points(f, g->index_a[0], g->index_b[0], xfa, xfb);
			return;
		}
		f->type = SEP_FACE_B;
		f->local_point = tb_lerp(b1, b2, 0.5f);
		tb_vec2 normal = tb_rotate(xfb.q, axis);
		tb_vec2 pb = tb_transform_point(xfb, f->local_point);
		tb_vec2 pa = tb_transform_point(xfa, f->a->points[g->index_a[0]]);
		f->axis = tb_dot(tb_sub(pa, pb), normal) < 0.0f ? tb_neg(axis) : axis;
		return;
	}
	tb_vec2 a1 = f->a->points[g->index_a[0]], a2 = f->a->points[g->index_a[1]];
	tb_vec2 axis = tb_normalize(tb_right_perp(tb_sub(a2, a1)));
	if (axis.x == 0.0f && axis.y == 0.0f) {
		sep_init_points(f, g->index_a[0], g->index_b[0], xfa, xfb);
		return;
	}
	f->type = SEP_FACE_A;
	f->local_point = tb_lerp(a1, a2, 0.5f);
	tb_vec2 normal = tb_rotate(xfa.q, axis);
	tb_vec2 pa = tb_transform_point(xfa, f->local_point);
	tb_vec2 pb = tb_transform_point(xfb, f->b->points[g->index_b[0]]);
	f->axis = tb_dot(tb_sub(pb, pa), normal) < 0.0f ? tb_neg(axis) : axis;
}

/* Separation along the function's axis at time t. With find set, the deepest
 * support points are searched and returned in ia, ib; otherwise those are used. */
static float sep_eval(const sep_fn *f, float t, int *ia, int *ib, bool find)
{
	tb_transform xfa = tb_sweep_transform(f->sa, t);
	tb_transform xfb = tb_sweep_transform(f->sb, t);
	switch (f->type) {
	case SEP_POINTS: {
		if (find) {
			*ia = support_index(f->a->points, f->a->count, tb_inv_rotate(xfa.q, f->axis));
			*ib = support_index(f->b->points, f->b->count, tb_inv_rotate(xfb.q, tb_neg(f->axis)));
		}
		tb_vec2 pa = tb_transform_point(xfa, f->a->points[*ia]);
		tb_vec2 pb = tb_transform_point(xfb, f->b->points[*ib]);
		return tb_dot(tb_sub(pb, pa), f->axis);
	}
	case SEP_FACE_A: {
		tb_vec2 normal = tb_rotate(xfa.q, f->axis);
		tb_vec2 pa = tb_transform_point(xfa, f->local_point);
		if (find) {
			*ia = -1;
			*ib = support_index(f->b->points, f->b->count, tb_inv_rotate(xfb.q, tb_neg(normal)));
		}
		tb_vec2 pb = tb_transform_point(xfb, f->b->points[*ib]);
		return tb_dot(tb_sub(pb, pa), normal);
	}
	default: {
		tb_vec2 normal = tb_rotate(xfb.q, f->axis);
		tb_vec2 pb = tb_transform_point(xfb, f->local_point);
		if (find) {
			*ib = -1;
			*ia = support_index(f->a->points, f->a->count, tb_inv_rotate(xfa.q, tb_neg(normal)));
		}
		tb_vec2 pa = tb_transform_point(xfa, f->a->points[*ia]);
		return tb_dot(tb_sub(pa, pb), normal);
	}
	}
}

#define TB_TOI_MAX_ITERATIONS 30
#define TB_TOI_MAX_ROOT_ITERATIONS 50

/* Fastest turn rate of a sweep's rotation over t in [0, 1]. The rotation is a
 * normalised blend of q1 and q2, which turns fastest mid-way: 2 tan(angle/2),
 * taken from the relative rotation (sin a, cos a) as 2 |sin a| / (1 + cos a)
 * so that no libm call sits on the step's path; angles past 0.95 pi are held
 * there (tan(0.475 pi) = 12.7062). */
static float sweep_max_turn_rate(const tb_sweep *s)
{
	const float max_tan = 12.7062047f;
	tb_rot q = tb_inv_mul_rot(s->q1, s->q2);
	float num = fabsf(q.s), den = 1.0f + q.c;
	if (!(den * max_tan > num)) return 2.0f * max_tan; /* also NaN */
	return 2.0f * num / den;
}

/* Farthest core point from the centre the body turns about. */
static float proxy_reach(const tb_shape_proxy *p, tb_vec2 local_center)
{
	float r = 0.0f;
	for (int i = 0; i < p->count; ++i) r = tb_maxf(r, tb_distance_sq(p->points[i], local_center));
	return sqrtf(r);
}

tb_toi_output tb_time_of_impact(const tb_shape_proxy *a, const tb_sweep *sweep_a, const tb_shape_proxy *b,
                                const tb_sweep *sweep_b, float max_fraction)
{
	tb_toi_output out = {TB_TOI_UNKNOWN, 0.0f};
	float t_max = tb_clampf(max_fraction, 0.0f, 1.0f);
	if (!(t_max == t_max)) t_max = 0.0f; /* NaN */
	if (a->count < 1 || b->count < 1 || a->count > TB_MAX_POLYGON_VERTICES || b->count > TB_MAX_POLYGON_VERTICES) {
		out.state = TB_TOI_FAILED;
		return out;
	}

	/* Aim for a small positive core distance (or a small overlap of the
	 * rounded parts) so the contact solver finds the pair already touching. */
	float total_radius = a->radius + b->radius;
	float target = tb_maxf(TB_LINEAR_SLOP, total_radius - TB_LINEAR_SLOP);
	float tolerance = 0.25f * TB_LINEAR_SLOP;

	/* Bound on how fast the gap along any fixed direction can close: the
	 * centres' relative motion along it plus the fastest spin of each body's
	 * farthest point. It lets every advance be checked, so a grazing pass
	 * the separating axis alone would step over is never skipped. */
	tb_vec2 dca = tb_sub(sweep_a->c2, sweep_a->c1);
	tb_vec2 dcb = tb_sub(sweep_b->c2, sweep_b->c1);
	float spin = sweep_max_turn_rate(sweep_a) * proxy_reach(a, sweep_a->local_center) +
	             sweep_max_turn_rate(sweep_b) * proxy_reach(b, sweep_b->local_center);

	float t1 = 0.0f;
	for (int iter = 0; iter < TB_TOI_MAX_ITERATIONS; ++iter) {
		tb_transform xfa = tb_sweep_transform(sweep_a, t1);
		tb_transform xfb = tb_sweep_transform(sweep_b, t1);

		tb_transform xf = tb_inv_mul_transforms(xfa, xfb);
		tb_vec2 local_b[TB_MAX_POLYGON_VERTICES];
		for (int i = 0; i < b->count; ++i) local_b[i] = tb_transform_point(xf, b->points[i]);
		tb_gjk_result g = tb_gjk(a->points, a->count, local_b, b->count);

		if (!(g.distance > 0.0f)) {
			/* overlapping cores: continuous collision cannot help */
			out.state = TB_TOI_OVERLAPPED;
			out.fraction = t1;
			return out;
		}
		if (g.distance < target + tolerance) {
			out.state = TB_TOI_HIT;
			out.fraction = t1;
			return out;
		}

		/* Time up to which the pair is provably apart. */
		tb_vec2 n = tb_rotate(xfa.q, tb_mul_sv(1.0f / g.distance, tb_sub(g.point_b, g.point_a)));
		float closing = tb_dot(tb_sub(dca, dcb), n) + spin;
		float t_safe = closing > 0.0f ? t1 + (g.distance - target) / closing : t_max;
		if (t_safe >= t_max) {
			out.state = TB_TOI_SEPARATED;
			out.fraction = t_max;
			return out;
		}

		sep_fn f = {a, b, sweep_a, sweep_b, tb_vec2_zero, tb_vec2_zero, SEP_POINTS};
		sep_init(&f, &g, xfa, xfb);

		/* Resolve the deepest pair of points at t2 along the axis, at most
		 * once per vertex (after Box2D's b2TimeOfImpact). */
		float t_next = t_safe;
		float t2 = t_max;
		for (int push = 0; push < TB_MAX_POLYGON_VERTICES; ++push) {
			int ia = 0, ib = 0;
			float s2 = sep_eval(&f, t2, &ia, &ib, true);
			if (s2 > target - tolerance) {
				/* apart along the axis at t2: advance there if the bound allows */
				t_next = t2;
				break;
			}
			float s1 = sep_eval(&f, t1, &ia, &ib, false);
			if (s1 < target - tolerance) {
				/* the root finder cannot bracket: give up where we are */
				out.state = TB_TOI_FAILED;
				out.fraction = t1;
				return out;
			}
			if (s1 <= target + tolerance) {
				out.state = TB_TOI_HIT;
				out.fraction = t1;
				return out;
			}
			/* s1 > target > s2: find the root, alternating secant and bisection */
			float lo = t1, hi = t2;
			for (int root = 0; root < TB_TOI_MAX_ROOT_ITERATIONS; ++root) {
				float t;
				if (root & 1) t = lo + (target - s1) * (hi - lo) / (s2 - s1);
				else t = 0.5f * (lo + hi);
				float s = sep_eval(&f, t, &ia, &ib, false);
				if (fabsf(s - target) < tolerance) {
					t2 = t;
					break;
				}
				if (s > target) {
					lo = t;
					s1 = s;
				} else {
					hi = t;
					s2 = s;
				}
				if (hi - lo <= 1.0e-7f * hi) {
					/* the bracket is as narrow as a float allows */
					t2 = t;
					break;
				}
			}
			t_next = t2;
		}

		/* Never past what the bound proves (a loose bound under fast spin costs
		 * iterations, never a missed contact). */
		t1 = tb_minf(t_next, t_safe);
	}
	out.state = TB_TOI_FAILED;
	out.fraction = t1;
	return out;
}
