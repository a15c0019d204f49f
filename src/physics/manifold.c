/* tumble physics: contact manifolds for every pair of shape kinds.
 *
 * Every collider works in shape A's local frame and converts once at the end.
 * Polygons use the separating axis test to pick a reference face and an
 * incident face, then clip; when the cores are apart the closest features
 * decide (vertex-vertex contacts get a true normal instead of a face normal).
 * Capsules and segments are two-vertex polygons with a radius. Chain segments
 * are one-sided and use their ghost vertices to refuse normals that belong to
 * a neighbouring link, so nothing snags on the seams (after Box2D v3). */
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
#include <emmintrin.h>
#endif
#include "tumble/collision.h"
#include "core.h"
#include "distance.h"
#include "manifold.h"

#include <float.h>

/* Feature id: a vertex or edge index on A in the high byte, on B in the low one. */
#define TB_MAKE_ID(a, b) ((uint16_t)((((unsigned)(a) & 0xffu) << 8) | ((unsigned)(b) & 0xffu)))

/* A manifold in A's local frame (possibly shifted by an origin), before the
 * conversion to world anchors. */
typedef struct local_point {
	tb_vec2 p;
	float separation;
	uint16_t id;
} local_point;

typedef struct local_manifold {
	tb_vec2 normal;
	local_point pts[2];
	int count;
} local_manifold;

static const local_manifold empty_local = {{0.0f, 0.0f}, {{{0.0f, 0.0f}, 0.0f, 0}, {{0.0f, 0.0f}, 0.0f, 0}}, 0};

static tb_manifold empty_manifold(void)
{
	tb_manifold m;
	memset(&m, 0, sizeof m);
	return m;
}

/* Drops points beyond the speculative distance and makes world anchors. `shift`
 * is where the local frame's origin sits in A's shape frame; `spec` is the
 * pair's speculative distance. With keep_far, a point beyond it stays when the
 * other is within: two polygons meeting corner first (a thin box thrown at a
 * wall) keep the far end of the incident face as a speculative point, so the
 * turn the corner's impulse starts cannot carry that end through the face
 * within the step (as in Box2D v3, whose polygon clip keeps both points). */
static void to_world_keeping_into(tb_manifold *m, const local_manifold *lm, tb_transform xfa, tb_transform xfb,
                                  tb_vec2 shift, float spec, bool keep_far)
{
	/* Each field is written once, by itself: a wide clear followed by narrow
	 * writes and a wide copy out would stall on store forwarding. Points past
	 * the count stay unwritten: nothing reads them. */
	m->normal = tb_rotate(xfa.q, lm->normal);
	tb_vec2 dp = tb_sub(xfa.p, xfb.p);
	int count = lm->count;
	bool near = false;
	for (int i = 0; i < count; ++i) near = near || lm->pts[i].separation <= spec;
	int n = 0;
	for (int i = 0; i < count; ++i) {
		tb_vec2 p = lm->pts[i].p;
		float separation = lm->pts[i].separation;
		uint16_t id = lm->pts[i].id;
		bool keep = separation <= spec || (keep_far && near && separation == separation);
		if (!keep) continue;
		tb_manifold_point *mp = m->points + n;
		tb_vec2 anchor_a = tb_rotate(xfa.q, tb_add(p, shift));
		mp->point = tb_add(xfa.p, anchor_a);
		mp->anchor_a = anchor_a;
		mp->anchor_b = tb_add(anchor_a, dp);
		mp->separation = separation;
		mp->normal_impulse = 0.0f;
		mp->tangent_impulse = 0.0f;
		mp->max_normal_impulse = 0.0f;
		mp->normal_velocity = 0.0f;
		mp->id = id;
		mp->persisted = false;
		n += 1;
	}
	m->point_count = n;
}

static tb_manifold to_world_keeping(const local_manifold *lm, tb_transform xfa, tb_transform xfb, tb_vec2 shift,
                                    float spec, bool keep_far)
{
	tb_manifold m;
	to_world_keeping_into(&m, lm, xfa, xfb, shift, spec, keep_far);
	return m;
}

static tb_manifold to_world(const local_manifold *lm, tb_transform xfa, tb_transform xfb, tb_vec2 shift, float spec)
{
	return to_world_keeping(lm, xfa, xfb, shift, spec, false);
}

/* The same manifold seen from the other shape: the caller passed (b, a). */
static tb_manifold flip_manifold(tb_manifold m)
{
	m.normal = tb_neg(m.normal);
	for (int i = 0; i < m.point_count; ++i) {
		tb_vec2 t = m.points[i].anchor_a;
		m.points[i].anchor_a = m.points[i].anchor_b;
		m.points[i].anchor_b = t;
	}
	return m;
}

/* One contact: from core point pa (on A) along the unit normal n to B's core,
 * dist away; the point goes midway between the rounded surfaces. */
static local_manifold contact_along(tb_vec2 pa, tb_vec2 n, float dist, float ra, float rb, uint16_t id, float spec)
{
	local_manifold m = empty_local;
	float sep = dist - ra - rb;
	if (sep > spec) return m;
	tb_vec2 ca = tb_mul_add(pa, ra, n);
	tb_vec2 cb = tb_mul_add(pa, dist - rb, n);
	m.normal = n;
	m.pts[0].p = tb_lerp(ca, cb, 0.5f);
	m.pts[0].separation = sep;
	m.pts[0].id = id;
	m.count = 1;
	return m;
}

/* Closer than this (a micrometre), two core points give no usable direction:
 * round-off alone would pick it. */
#define TB_DIRECTION_EPSILON 1.0e-6f

/* One contact between the closest core points pa (on A) and pb (on B). The
 * fallback normal is used when the cores (nearly) touch. */
static local_manifold point_contact(tb_vec2 pa, tb_vec2 pb, float ra, float rb, tb_vec2 fallback, uint16_t id,
                                    float spec)
{
	float dist;
	tb_vec2 n = tb_get_length_and_normalize(&dist, tb_sub(pb, pa));
	if (dist < TB_DIRECTION_EPSILON) n = fallback;
	return contact_along(pa, n, dist, ra, rb, id, spec);
}

static tb_vec2 closest_on_segment(tb_vec2 a, tb_vec2 b, tb_vec2 p)
{
	tb_vec2 e = tb_sub(b, a);
	float ee = tb_dot(e, e);
	if (ee <= 0.0f) return a;
	float t = tb_clampf(tb_dot(tb_sub(p, a), e) / ee, 0.0f, 1.0f);
	return tb_mul_add(a, t, e);
}

/* ---- circles ---- */

static tb_manifold collide_circles(const tb_circle *a, tb_transform xfa, const tb_circle *b, tb_transform xfb, float spec)
{
	tb_transform xf = tb_inv_mul_transforms(xfa, xfb);
	tb_vec2 pb = tb_transform_point(xf, b->center);
	/* coincident centres: any direction is as good as another, take A's up */
	local_manifold lm = point_contact(a->center, pb, a->radius, b->radius, tb_v2(0.0f, 1.0f), 0, spec);
	return to_world(&lm, xfa, xfb, tb_vec2_zero, spec);
}

static local_manifold segment_circle_local(tb_vec2 p1, tb_vec2 p2, float ra, tb_vec2 c, float rb, float spec)
{
	tb_vec2 e = tb_sub(p2, p1);
	tb_vec2 n = tb_normalize(tb_left_perp(e));
	if (n.x == 0.0f && n.y == 0.0f) return point_contact(p1, c, ra, rb, tb_v2(0.0f, 1.0f), 0, spec);
	float t = tb_dot(tb_sub(c, p1), e);
	if (t <= 0.0f) return point_contact(p1, c, ra, rb, n, 0, spec);
	if (t >= tb_dot(e, e)) return point_contact(p2, c, ra, rb, n, 0, spec);
	/* beside the segment the normal is its perpendicular, exactly */
	float s = tb_dot(tb_sub(c, p1), n);
	if (s < 0.0f) {
		n = tb_neg(n);
		s = -s;
	}
	return contact_along(tb_mul_sub(c, s, n), n, s, ra, rb, 0, spec);
}

static tb_manifold collide_capsule_and_circle(const tb_capsule *a, tb_transform xfa, const tb_circle *b, tb_transform xfb, float spec)
{
	tb_transform xf = tb_inv_mul_transforms(xfa, xfb);
	tb_vec2 c = tb_transform_point(xf, b->center);
	local_manifold lm = segment_circle_local(a->center1, a->center2, a->radius, c, b->radius, spec);
	return to_world(&lm, xfa, xfb, tb_vec2_zero, spec);
}

static tb_manifold collide_segment_and_circle(const tb_segment *a, tb_transform xfa, const tb_circle *b, tb_transform xfb, float spec)
{
	tb_transform xf = tb_inv_mul_transforms(xfa, xfb);
	tb_vec2 c = tb_transform_point(xf, b->center);
	local_manifold lm = segment_circle_local(a->point1, a->point2, 0.0f, c, b->radius, spec);
	return to_world(&lm, xfa, xfb, tb_vec2_zero, spec);
}

static tb_manifold collide_polygon_and_circle(const tb_polygon *a, tb_transform xfa, const tb_circle *b, tb_transform xfb, float spec)
{
	tb_transform xf = tb_inv_mul_transforms(xfa, xfb);
	tb_vec2 c = tb_transform_point(xf, b->center);
	float ra = a->radius, rb = b->radius, radius = ra + rb;

	int index = 0;
	float sep = -FLT_MAX;
	for (int i = 0; i < a->count; ++i) {
		float s = tb_dot(a->normals[i], tb_sub(c, a->vertices[i]));
		if (s > sep) {
			sep = s;
			index = i;
		}
	}
	if (sep - radius > spec) return empty_manifold();

	tb_vec2 v1 = a->vertices[index];
	tb_vec2 v2 = a->vertices[index + 1 < a->count ? index + 1 : 0];
	tb_vec2 n = a->normals[index];
	local_manifold lm;
	/* Outside the face's slab the closest core point is a vertex. Only trust
	 * that when the centre is clearly outside, so the vertex normal exists. */
	if (sep > FLT_EPSILON && tb_dot(tb_sub(c, v1), tb_sub(v2, v1)) < 0.0f) {
		lm = point_contact(v1, c, ra, rb, n, 0, spec);
	} else if (sep > FLT_EPSILON && tb_dot(tb_sub(c, v2), tb_sub(v1, v2)) < 0.0f) {
		lm = point_contact(v2, c, ra, rb, n, 0, spec);
	} else {
		lm = empty_local;
		tb_vec2 ca = tb_mul_add(c, ra - sep, n);
		tb_vec2 cb = tb_mul_sub(c, rb, n);
		lm.normal = n;
		lm.pts[0].p = tb_lerp(ca, cb, 0.5f);
		lm.pts[0].separation = sep - radius;
		lm.pts[0].id = 0;
		lm.count = 1;
	}
	return to_world(&lm, xfa, xfb, tb_vec2_zero, spec);
}

/* ---- polygons ---- */

#if defined(__SSE2__) && !defined(TB_NO_SIMD)
/* The scalar loop's choice among four lanes (`lanes[i] > best` from
 * -FLT_MAX): the first lane holding the largest value, NaN and anything at or
 * below -FLT_MAX counting as -FLT_MAX, which lane 0 then holds. Each lane is
 * raised to the floor (max keeps a lane above it, its sign of zero too), the
 * top is found across the lanes, and the first lane equal to it is the face;
 * its raised value is the separation. */
static inline float best_lane4(__m128 v, __m128 floor, int *edge)
{
	__m128 raised = _mm_max_ps(v, floor);
	__m128 top = _mm_max_ps(raised, _mm_shuffle_ps(raised, raised, _MM_SHUFFLE(2, 3, 0, 1)));
	top = _mm_max_ps(top, _mm_shuffle_ps(top, top, _MM_SHUFFLE(1, 0, 3, 2)));
	int index = __builtin_ctz((unsigned)_mm_movemask_ps(_mm_cmpeq_ps(raised, top)));
	float lanes[4];
	_mm_storeu_ps(lanes, raised);
	*edge = index;
	return lanes[index];
}
#endif

/* The face of p1 along which p2 is furthest out, and that separation. */
static float find_max_separation(int *edge, const tb_polygon *p1, const tb_polygon *p2)
{
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
	if (p1->count == 4 && p2->count == 4) {
		/* Two quads (every box): p1's four faces side by side, one lane each,
		 * running the scalar loop's operations lane by lane, so the result is
		 * the same bits: sij = n.x * (p.x - v.x) + n.y * (p.y - v.y), and
		 * min(sij, si) keeps si on ties and NaN as `sij < si` does. */
		__m128 v01 = _mm_loadu_ps(&p1->vertices[0].x), v23 = _mm_loadu_ps(&p1->vertices[2].x);
		__m128 n01 = _mm_loadu_ps(&p1->normals[0].x), n23 = _mm_loadu_ps(&p1->normals[2].x);
		__m128 vx = _mm_shuffle_ps(v01, v23, _MM_SHUFFLE(2, 0, 2, 0));
		__m128 vy = _mm_shuffle_ps(v01, v23, _MM_SHUFFLE(3, 1, 3, 1));
		__m128 nx = _mm_shuffle_ps(n01, n23, _MM_SHUFFLE(2, 0, 2, 0));
		__m128 ny = _mm_shuffle_ps(n01, n23, _MM_SHUFFLE(3, 1, 3, 1));
		__m128 si = _mm_set1_ps(FLT_MAX);
		for (int j = 0; j < 4; ++j) {
			__m128 px = _mm_set1_ps(p2->vertices[j].x), py = _mm_set1_ps(p2->vertices[j].y);
			__m128 sij = _mm_add_ps(_mm_mul_ps(nx, _mm_sub_ps(px, vx)), _mm_mul_ps(ny, _mm_sub_ps(py, vy)));
			si = _mm_min_ps(sij, si);
		}
		return best_lane4(si, _mm_set1_ps(-FLT_MAX), edge);
	}
	{
		/* Any other pair (pentagons, a box and a hull): the same, p1's faces in
		 * two groups of four lanes; lanes past p1's count are zeroed (the
		 * arrays may hold anything there, even denormals, which are slow) and
		 * never read. */
		_Static_assert(TB_MAX_POLYGON_VERTICES == 8, "two groups of four faces");
		const float *v = &p1->vertices[0].x, *nv = &p1->normals[0].x;
		__m128 v0 = _mm_loadu_ps(v), v1 = _mm_loadu_ps(v + 4), v2 = _mm_loadu_ps(v + 8), v3 = _mm_loadu_ps(v + 12);
		__m128 n0 = _mm_loadu_ps(nv), n1 = _mm_loadu_ps(nv + 4), n2 = _mm_loadu_ps(nv + 8), n3 = _mm_loadu_ps(nv + 12);
		__m128 vx_lo = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0)), vy_lo = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1));
		__m128 nx_lo = _mm_shuffle_ps(n0, n1, _MM_SHUFFLE(2, 0, 2, 0)), ny_lo = _mm_shuffle_ps(n0, n1, _MM_SHUFFLE(3, 1, 3, 1));
		__m128 si_lo = _mm_set1_ps(FLT_MAX), si_hi = si_lo;
		int count1 = p1->count, count2 = p2->count;
		__m128 in_lo = _mm_castsi128_ps(_mm_cmplt_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32(count1)));
		vx_lo = _mm_and_ps(vx_lo, in_lo);
		vy_lo = _mm_and_ps(vy_lo, in_lo);
		nx_lo = _mm_and_ps(nx_lo, in_lo);
		ny_lo = _mm_and_ps(ny_lo, in_lo);
		if (count1 > 4) {
			__m128 in_hi = _mm_castsi128_ps(_mm_cmplt_epi32(_mm_setr_epi32(4, 5, 6, 7), _mm_set1_epi32(count1)));
			v2 = _mm_and_ps(v2, _mm_unpacklo_ps(in_hi, in_hi));
			v3 = _mm_and_ps(v3, _mm_unpackhi_ps(in_hi, in_hi));
			n2 = _mm_and_ps(n2, _mm_unpacklo_ps(in_hi, in_hi));
			n3 = _mm_and_ps(n3, _mm_unpackhi_ps(in_hi, in_hi));
			__m128 vx_hi = _mm_shuffle_ps(v2, v3, _MM_SHUFFLE(2, 0, 2, 0)), vy_hi = _mm_shuffle_ps(v2, v3, _MM_SHUFFLE(3, 1, 3, 1));
			__m128 nx_hi = _mm_shuffle_ps(n2, n3, _MM_SHUFFLE(2, 0, 2, 0)), ny_hi = _mm_shuffle_ps(n2, n3, _MM_SHUFFLE(3, 1, 3, 1));
			for (int j = 0; j < count2; ++j) {
				__m128 px = _mm_set1_ps(p2->vertices[j].x), py = _mm_set1_ps(p2->vertices[j].y);
				si_lo = _mm_min_ps(_mm_add_ps(_mm_mul_ps(nx_lo, _mm_sub_ps(px, vx_lo)), _mm_mul_ps(ny_lo, _mm_sub_ps(py, vy_lo))), si_lo);
				si_hi = _mm_min_ps(_mm_add_ps(_mm_mul_ps(nx_hi, _mm_sub_ps(px, vx_hi)), _mm_mul_ps(ny_hi, _mm_sub_ps(py, vy_hi))), si_hi);
			}
		} else {
			for (int j = 0; j < count2; ++j) {
				__m128 px = _mm_set1_ps(p2->vertices[j].x), py = _mm_set1_ps(p2->vertices[j].y);
				si_lo = _mm_min_ps(_mm_add_ps(_mm_mul_ps(nx_lo, _mm_sub_ps(px, vx_lo)), _mm_mul_ps(ny_lo, _mm_sub_ps(py, vy_lo))), si_lo);
			}
		}
		/* up to four faces: the lanes past the count at the floor, which never
		 * beats a face (the first lane that reaches the top wins) */
		__m128 floor = _mm_set1_ps(-FLT_MAX);
		if (count1 <= 4) return best_lane4(_mm_or_ps(_mm_and_ps(in_lo, si_lo), _mm_andnot_ps(in_lo, floor)), floor, edge);
		/* more faces: the loop (a pentagon's fifth lane alone in its group
		 * costs the vector pass more than it saves) */
		float lanes[8];
		_mm_storeu_ps(lanes, si_lo);
		_mm_storeu_ps(lanes + 4, si_hi);
		int best_index = 0;
		float best = -FLT_MAX;
		for (int i = 0; i < count1; ++i) {
			if (lanes[i] > best) {
				best = lanes[i];
				best_index = i;
			}
		}
		*edge = best_index;
		return best;
	}
#endif
	int best_index = 0;
	float best = -FLT_MAX;
	for (int i = 0; i < p1->count; ++i) {
		tb_vec2 n = p1->normals[i];
		tb_vec2 v = p1->vertices[i];
		float si = FLT_MAX;
		for (int j = 0; j < p2->count; ++j) {
			float sij = tb_dot(n, tb_sub(p2->vertices[j], v));
			if (sij < si) si = sij;
		}
		if (si > best) {
			best = si;
			best_index = i;
		}
	}
	*edge = best_index;
	return best;
}

/* Clips the incident segment b1->b2 (running against the reference direction)
 * to the extent of the reference segment a1->a2 whose outward normal is n.
 * Points go midway between the rounded surfaces. Returns false when the two do
 * not overlap along the reference edge. Point 0 is at the reference start. */
static inline __attribute__((always_inline)) bool clip_segments(tb_vec2 a1, tb_vec2 a2, tb_vec2 b1, tb_vec2 b2, tb_vec2 n, float ra, float rb,
                          uint16_t id_lower, uint16_t id_upper, local_manifold *out)
{
	tb_vec2 tangent = tb_left_perp(n);
	float lower1 = 0.0f;
	float upper1 = tb_dot(tb_sub(a2, a1), tangent);
	float upper2 = tb_dot(tb_sub(b1, a1), tangent);
	float lower2 = tb_dot(tb_sub(b2, a1), tangent);
	if (upper2 < lower1 || upper1 < lower2) return false;

	float span = upper2 - lower2;
	tb_vec2 v_lower = b2, v_upper = b1;
	if (lower2 < lower1 && span > FLT_EPSILON) v_lower = tb_lerp(b2, b1, (lower1 - lower2) / span);
	if (upper2 > upper1 && span > FLT_EPSILON) v_upper = tb_lerp(b2, b1, (upper1 - lower2) / span);

	float sep_lower = tb_dot(tb_sub(v_lower, a1), n);
	float sep_upper = tb_dot(tb_sub(v_upper, a1), n);
	float radius = ra + rb;

	out->normal = n;
	out->pts[0].p = tb_mul_add(v_lower, 0.5f * (ra - rb - sep_lower), n);
	out->pts[0].separation = sep_lower - radius;
	out->pts[0].id = id_lower;
	out->pts[1].p = tb_mul_add(v_upper, 0.5f * (ra - rb - sep_upper), n);
	out->pts[1].separation = sep_upper - radius;
	out->pts[1].id = id_upper;
	out->count = 2;
	return true;
}

static int argmin_dot(const tb_vec2 *normals, int count, tb_vec2 d)
{
	int index = 0;
	float min_dot = FLT_MAX;
	for (int i = 0; i < count; ++i) {
		float v = tb_dot(d, normals[i]);
		if (v < min_dot) {
			min_dot = v;
			index = i;
		}
	}
	return index;
}

/* Both polygons in one frame (A's, shifted). */
static inline __attribute__((always_inline)) void collide_polygons_local(local_manifold *out, const tb_polygon *a,
                                                                         const tb_polygon *b, float spec)
{
	float ra = a->radius, rb = b->radius;
	float radius = ra + rb;
	int edge_a = 0, edge_b = 0;
	float sep_a = find_max_separation(&edge_a, a, b);
	/* broad-phase neighbours that are apart are common: skip the second test */
	if (sep_a > spec + radius) {
		*out = empty_local;
		return;
	}
	float sep_b = find_max_separation(&edge_b, b, a);
	if (sep_b > spec + radius) {
		*out = empty_local;
		return;
	}

	/* Prefer A's face unless B's is clearly better: a tie must not make the
	 * reference face (and so the feature ids) flicker from step to step. */
	bool flip = sep_b > sep_a + 0.1f * TB_LINEAR_SLOP;
	if (flip) edge_a = argmin_dot(a->normals, a->count, b->normals[edge_b]);
	else edge_b = argmin_dot(b->normals, b->count, a->normals[edge_a]);

	int i11 = edge_a, i12 = edge_a + 1 < a->count ? edge_a + 1 : 0;
	int i21 = edge_b, i22 = edge_b + 1 < b->count ? edge_b + 1 : 0;
	tb_vec2 v11 = a->vertices[i11], v12 = a->vertices[i12];
	tb_vec2 v21 = b->vertices[i21], v22 = b->vertices[i22];
	tb_vec2 ref_normal = flip ? tb_neg(b->normals[edge_b]) : a->normals[edge_a];

	float sep = flip ? sep_b : sep_a;
	if (sep > 0.1f * TB_LINEAR_SLOP) {
		/* The cores are apart: when the closest features of the two faces are
		 * two vertices, the face normal is wrong and the true one is used. */
		tb_segment_distance_result sd = tb_segment_distance(v11, v12, v21, v22);
		bool end1 = sd.fraction1 == 0.0f || sd.fraction1 == 1.0f;
		bool end2 = sd.fraction2 == 0.0f || sd.fraction2 == 1.0f;
		if (end1 && end2) {
			int ia = sd.fraction1 == 0.0f ? i11 : i12;
			int ib = sd.fraction2 == 0.0f ? i21 : i22;
			*out = point_contact(a->vertices[ia], b->vertices[ib], ra, rb, ref_normal, TB_MAKE_ID(ia, ib), spec);
			return;
		}
	}

	bool ok;
	if (flip) {
		/* B's face is the reference: the lower point is A's i12 clipped at
		 * B's i21, the upper one A's i11 at B's i22 (ids name A first) */
		ok = clip_segments(v21, v22, v11, v12, b->normals[edge_b], rb, ra, TB_MAKE_ID(i12, i21),
		                   TB_MAKE_ID(i11, i22), out);
		if (ok) {
			out->normal = tb_neg(out->normal);
		}
	} else {
		ok = clip_segments(v11, v12, v21, v22, a->normals[edge_a], ra, rb, TB_MAKE_ID(i11, i22),
		                   TB_MAKE_ID(i12, i21), out);
	}
	if (!ok) {
		/* The faces miss each other along the reference edge (corner against
		 * corner, or two collinear segments): fall back on their closest points. */
		tb_segment_distance_result sd = tb_segment_distance(v11, v12, v21, v22);
		int ia = sd.fraction1 < 0.5f ? i11 : i12;
		int ib = sd.fraction2 < 0.5f ? i21 : i22;
		*out = point_contact(sd.closest1, sd.closest2, ra, rb, ref_normal, TB_MAKE_ID(ia, ib), spec);
	}
}

static void collide_polygons_frames_into(tb_manifold *out, const tb_polygon *a, tb_transform xfa, const tb_polygon *b,
                                         tb_transform xfb, float spec)
{
	/* capsules (two-vertex polygons) keep only near points: a standing
	 * capsule's far end is its whole length away */
	bool keep_far = a->count >= 3 && b->count >= 3;
	/* Shift A's frame to its first vertex: contact math then runs on small
	 * numbers even for shapes far from their body origin. */
	tb_vec2 origin = a->vertices[0];
	tb_transform sfa = {tb_add(xfa.p, tb_rotate(xfa.q, origin)), xfa.q};
	tb_transform xf = tb_inv_mul_transforms(sfa, xfb);

	tb_polygon la, lb;
	la.count = a->count;
	la.radius = a->radius;
	lb.count = b->count;
	lb.radius = b->radius;
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
	{
		/* two points per vector (x0, y0, x1, y1), with the scalar loop's
		 * operations on each component: c x - s y is c x + (-s) y and
		 * s x + c y is c y + s x, exactly. An odd count moves the slot past
		 * it too (inside the arrays, zeros in a made polygon; never read:
		 * find_max_separation zeroes such lanes, the rest stops at the count) */
		_Static_assert(TB_MAX_POLYGON_VERTICES % 2 == 0, "pairs of slots");
		__m128 o = _mm_setr_ps(origin.x, origin.y, origin.x, origin.y);
		__m128 c = _mm_set1_ps(xf.q.c), sn = _mm_setr_ps(-xf.q.s, xf.q.s, -xf.q.s, xf.q.s);
		__m128 p = _mm_setr_ps(xf.p.x, xf.p.y, xf.p.x, xf.p.y);
		for (int h = 0; h < a->count; h += 2)
			_mm_storeu_ps(&la.vertices[h].x, _mm_sub_ps(_mm_loadu_ps(&a->vertices[h].x), o));
		/* A's normals as they are, all eight slots (moves only: no arithmetic
		 * on what lies past the count, and no call to memcpy) */
		_Static_assert(TB_MAX_POLYGON_VERTICES == 8, "four pairs of normals");
		for (int h = 0; h < TB_MAX_POLYGON_VERTICES; h += 2)
			_mm_storeu_ps(&la.normals[h].x, _mm_loadu_ps(&a->normals[h].x));
		for (int h = 0; h < b->count; h += 2) {
			__m128 v = _mm_loadu_ps(&b->vertices[h].x), n = _mm_loadu_ps(&b->normals[h].x);
			__m128 vs = _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)), ns = _mm_shuffle_ps(n, n, _MM_SHUFFLE(2, 3, 0, 1));
			_mm_storeu_ps(&lb.vertices[h].x, _mm_add_ps(_mm_add_ps(_mm_mul_ps(c, v), _mm_mul_ps(sn, vs)), p));
			_mm_storeu_ps(&lb.normals[h].x, _mm_add_ps(_mm_mul_ps(c, n), _mm_mul_ps(sn, ns)));
		}
	}
#else
	for (int i = 0; i < a->count; ++i) {
		la.vertices[i] = tb_sub(a->vertices[i], origin);
		la.normals[i] = a->normals[i];
	}
	for (int i = 0; i < b->count; ++i) {
		lb.vertices[i] = tb_transform_point(xf, b->vertices[i]);
		lb.normals[i] = tb_rotate(xf.q, b->normals[i]);
	}
#endif
	local_manifold lm;
	collide_polygons_local(&lm, &la, &lb, spec);
	to_world_keeping_into(out, &lm, xfa, xfb, origin, spec, keep_far);
}

static tb_manifold collide_polygons_frames(const tb_polygon *a, tb_transform xfa, const tb_polygon *b,
                                           tb_transform xfb, float spec)
{
	tb_manifold m;
	collide_polygons_frames_into(&m, a, xfa, b, xfb, spec);
	return m;
}

static tb_manifold collide_polygons(const tb_polygon *a, tb_transform xfa, const tb_polygon *b, tb_transform xfb, float spec)
{
	return collide_polygons_frames(a, xfa, b, xfb, spec);
}

static tb_manifold collide_polygon_and_capsule(const tb_polygon *a, tb_transform xfa, const tb_capsule *b, tb_transform xfb, float spec)
{
	tb_polygon pb;
	if (!tb_make_capsule_polygon(b->center1, b->center2, b->radius, &pb)) {
		tb_circle c = {b->center1, b->radius};
		return collide_polygon_and_circle(a, xfa, &c, xfb, spec);
	}
	return collide_polygons_frames(a, xfa, &pb, xfb, spec);
}

static tb_manifold collide_capsules(const tb_capsule *a, tb_transform xfa, const tb_capsule *b, tb_transform xfb, float spec)
{
	tb_polygon pa, pb;
	bool ok_a = tb_make_capsule_polygon(a->center1, a->center2, a->radius, &pa);
	bool ok_b = tb_make_capsule_polygon(b->center1, b->center2, b->radius, &pb);
	if (!ok_a) {
		tb_circle ca = {a->center1, a->radius};
		if (!ok_b) {
			tb_circle cb = {b->center1, b->radius};
			return collide_circles(&ca, xfa, &cb, xfb, spec);
		}
		return flip_manifold(collide_capsule_and_circle(b, xfb, &ca, xfa, spec));
	}
	if (!ok_b) {
		tb_circle cb = {b->center1, b->radius};
		return collide_capsule_and_circle(a, xfa, &cb, xfb, spec);
	}
	return collide_polygons_frames(&pa, xfa, &pb, xfb, spec);
}

static tb_manifold collide_segment_and_capsule(const tb_segment *a, tb_transform xfa, const tb_capsule *b, tb_transform xfb, float spec)
{
	tb_capsule ca = {a->point1, a->point2, 0.0f};
	return collide_capsules(&ca, xfa, b, xfb, spec);
}

static tb_manifold collide_segment_and_polygon(const tb_segment *a, tb_transform xfa, const tb_polygon *b, tb_transform xfb, float spec)
{
	tb_polygon pa;
	if (!tb_make_capsule_polygon(a->point1, a->point2, 0.0f, &pa)) {
		tb_circle c = {a->point1, 0.0f};
		return flip_manifold(collide_polygon_and_circle(b, xfb, &c, xfa, spec));
	}
	return collide_polygons_frames(&pa, xfa, b, xfb, spec);
}

/* ---- chain segments ---- */

/* A link with what its neighbours imply, in the link's frame. */
typedef struct chain_info {
	tb_vec2 p1, p2;
	tb_vec2 edge;              /* unit p1 -> p2 */
	tb_vec2 normal;            /* right perpendicular: the solid's outward side */
	tb_vec2 normal0, normal2;  /* neighbours' normals (or the free end's direction) */
	bool convex1, convex2;     /* the corner bulges out: normals between are admitted */
	bool free1, free2;         /* no neighbour at that end (ghost on the end point) */
} chain_info;

static bool chain_info_make(const tb_chain_segment *s, chain_info *c)
{
	/* Corners flatter than this are treated as straight: they never produce a
	 * normal other than the link's own. */
	const float convex_tol = 0.01f;
	c->p1 = s->segment.point1;
	c->p2 = s->segment.point2;
	c->edge = tb_normalize(tb_sub(c->p2, c->p1));
	if (c->edge.x == 0.0f && c->edge.y == 0.0f) return false;
	c->normal = tb_right_perp(c->edge);

	tb_vec2 e0 = tb_normalize(tb_sub(c->p1, s->ghost1));
	c->free1 = e0.x == 0.0f && e0.y == 0.0f;
	if (c->free1) {
		/* an open end is a corner turning all the way back: the end cap's
		 * normals run from the link's normal to straight out of the end */
		c->normal0 = tb_neg(c->edge);
		c->convex1 = true;
	} else {
		c->normal0 = tb_right_perp(e0);
		c->convex1 = tb_cross(e0, c->edge) >= convex_tol;
	}

	tb_vec2 e2 = tb_normalize(tb_sub(s->ghost2, c->p2));
	c->free2 = e2.x == 0.0f && e2.y == 0.0f;
	if (c->free2) {
		c->normal2 = c->edge;
		c->convex2 = true;
	} else {
		c->normal2 = tb_right_perp(e2);
		c->convex2 = tb_cross(c->edge, e2) >= convex_tol;
	}
	return true;
}

typedef enum normal_class { NORMAL_SKIP, NORMAL_ADMIT, NORMAL_SNAP } normal_class;

/* Where a candidate normal (from the link toward the other shape) falls on the
 * link's Gauss map: inside a convex corner's fan it is admitted; past it the
 * neighbour owns it (skip); at a concave or flat corner only the link's own
 * normal is valid (snap). */
static normal_class classify_normal(const chain_info *c, tb_vec2 n)
{
	const float sin_tol = 0.01f;
	if (tb_dot(n, c->edge) <= 0.0f) {
		if (!c->convex1) return NORMAL_SNAP;
		return tb_cross(n, c->normal0) > sin_tol ? NORMAL_SKIP : NORMAL_ADMIT;
	}
	if (!c->convex2) return NORMAL_SNAP;
	return tb_cross(c->normal2, n) > sin_tol ? NORMAL_SKIP : NORMAL_ADMIT;
}

static tb_manifold collide_chain_segment_and_circle(const tb_chain_segment *a, tb_transform xfa, const tb_circle *b,
                                                tb_transform xfb, float spec)
{
	tb_transform xf = tb_inv_mul_transforms(xfa, xfb);
	tb_vec2 c = tb_transform_point(xf, b->center);
	tb_vec2 p1 = a->segment.point1, p2 = a->segment.point2;
	tb_vec2 e = tb_sub(p2, p1);
	tb_vec2 n = tb_normalize(tb_right_perp(e));
	if (n.x == 0.0f && n.y == 0.0f) return empty_manifold();

	/* one-sided: a centre behind the line is ignored */
	if (tb_dot(n, tb_sub(c, p1)) < 0.0f) return empty_manifold();

	tb_vec2 pa;
	if (tb_dot(e, tb_sub(c, p1)) <= 0.0f) {
		/* p1's corner: if the centre lies over the previous link, that link owns it */
		tb_vec2 prev = tb_sub(p1, a->ghost1);
		if (tb_length_sq(prev) > 0.0f && tb_dot(prev, tb_sub(c, p1)) <= 0.0f) return empty_manifold();
		pa = p1;
	} else if (tb_dot(e, tb_sub(c, p2)) >= 0.0f) {
		tb_vec2 next = tb_sub(a->ghost2, p2);
		/* strict here, non-strict at p1: a centre exactly over a seam belongs to one link, not none */
		if (tb_length_sq(next) > 0.0f && tb_dot(next, tb_sub(c, p2)) > 0.0f) return empty_manifold();
		pa = p2;
	} else {
		pa = closest_on_segment(p1, p2, c);
	}
	local_manifold lm = point_contact(pa, c, 0.0f, b->radius, n, 0, spec);
	return to_world(&lm, xfa, xfb, tb_vec2_zero, spec);
}

/* polygon b is already in the link's frame */
static local_manifold chain_polygon_local(const chain_info *c, const tb_polygon *b, float spec)
{
	int count = b->count;
	const tb_vec2 *vb = b->vertices;
	const tb_vec2 *nb = b->normals;
	float rb = b->radius;
	tb_vec2 p1 = c->p1, p2 = c->p2;
	tb_vec2 normal1 = c->normal;

	/* One-sided: ignore a shape whose centre is behind this link and behind
	 * every convex neighbour that could otherwise push it out. */
	tb_vec2 centroid = b->centroid;
	bool behind1 = tb_dot(normal1, tb_sub(centroid, p1)) < 0.0f;
	bool behind0 = !c->convex1 || tb_dot(c->normal0, tb_sub(centroid, p1)) < 0.0f;
	bool behind2 = !c->convex2 || tb_dot(c->normal2, tb_sub(centroid, p2)) < 0.0f;
	if (behind1 && behind0 && behind2) return empty_local;

	tb_vec2 seg[2] = {p1, p2};
	tb_gjk_result g = tb_gjk(seg, 2, vb, count);
	if (g.distance > rb + spec) return empty_local;

	/* neighbour normals as seen for the incident test: a flat or concave
	 * neighbour can never be more anti-parallel than this link */
	tb_vec2 n0 = c->convex1 && !c->free1 ? c->normal0 : normal1;
	tb_vec2 n2 = c->convex2 && !c->free2 ? c->normal2 : normal1;

	int incident_index = -1;  /* a vertex of b, when the link's normal is the axis */
	int incident_normal = -1; /* an edge of b, when the link's normal is the axis */

	if (!behind1 && g.distance > 0.1f * TB_LINEAR_SLOP) {
		/* Apart: the closest features choose the axis. */
		if (g.count == 1) {
			tb_vec2 pa = g.point_a, pb = g.point_b;
			float dist;
			tb_vec2 n = tb_get_length_and_normalize(&dist, tb_sub(pb, pa));
			normal_class cls = classify_normal(c, n);
			if (cls == NORMAL_SKIP) return empty_local;
			if (cls == NORMAL_ADMIT) {
				return point_contact(pa, pb, 0.0f, rb, n, TB_MAKE_ID(g.index_a[0], g.index_b[0]), spec);
			}
			incident_index = g.index_b[0];
		} else {
			int ia1 = g.index_a[0], ia2 = g.index_a[1];
			int ib1 = g.index_b[0], ib2 = g.index_b[1];
			if (ia1 == ia2) {
				/* a link vertex against an edge of b: that edge's normal is the
				 * candidate, most aligned with the closest-point direction */
				tb_vec2 d = tb_sub(g.point_a, g.point_b);
				int ib = tb_dot(d, nb[ib1]) > tb_dot(d, nb[ib2]) ? ib1 : ib2;
				tb_vec2 normal_b = nb[ib];
				normal_class cls = classify_normal(c, tb_neg(normal_b));
				if (cls == NORMAL_SKIP) return empty_local;
				if (cls == NORMAL_ADMIT) {
					int j1 = ib, j2 = ib + 1 < count ? ib + 1 : 0;
					tb_vec2 b1 = vb[j1], b2 = vb[j2];
					float d1 = tb_dot(normal_b, tb_sub(p1, b1));
					float d2 = tb_dot(normal_b, tb_sub(p2, b1));
					/* the deeper link end is incident; if a neighbour faces b's
					 * edge more squarely, that neighbour makes the contact */
					if (d1 < d2) {
						if (!c->free1 && tb_dot(n0, normal_b) < tb_dot(normal1, normal_b)) return empty_local;
					} else {
						if (!c->free2 && tb_dot(n2, normal_b) < tb_dot(normal1, normal_b)) return empty_local;
					}
					local_manifold m = empty_local;
					if (!clip_segments(b1, b2, p1, p2, normal_b, rb, 0.0f, TB_MAKE_ID(1, j1), TB_MAKE_ID(0, j2), &m))
						return empty_local;
					m.normal = tb_neg(normal_b);
					return m;
				}
				incident_normal = ib;
			} else {
				/* an edge of the link against a vertex of b */
				float d1 = tb_dot(normal1, tb_sub(vb[ib1], p1));
				float d2 = tb_dot(normal1, tb_sub(vb[ib2], p1));
				incident_index = d1 < d2 ? ib1 : ib2;
			}
		}
	} else {
		/* Touching or overlapping: separating axis test restricted to the
		 * normals this link may report. */
		float edge_sep = FLT_MAX;
		for (int i = 0; i < count; ++i) {
			float s = tb_dot(normal1, tb_sub(vb[i], p1));
			if (s < edge_sep) {
				edge_sep = s;
				incident_index = i;
			}
		}
		/* a real convex neighbour with a better axis owns this contact */
		if (c->convex1 && !c->free1) {
			float s0 = FLT_MAX;
			for (int i = 0; i < count; ++i) s0 = tb_minf(s0, tb_dot(c->normal0, tb_sub(vb[i], p1)));
			if (s0 > edge_sep) {
				edge_sep = s0;
				incident_index = -1;
			}
		}
		if (c->convex2 && !c->free2) {
			float s2 = FLT_MAX;
			for (int i = 0; i < count; ++i) s2 = tb_minf(s2, tb_dot(c->normal2, tb_sub(vb[i], p2)));
			if (s2 > edge_sep) {
				edge_sep = s2;
				incident_index = -1;
			}
		}

		float poly_sep = -FLT_MAX;
		int ref = -1;
		for (int i = 0; i < count; ++i) {
			if (classify_normal(c, tb_neg(nb[i])) != NORMAL_ADMIT) continue;
			float s = tb_minf(tb_dot(nb[i], tb_sub(p2, vb[i])), tb_dot(nb[i], tb_sub(p1, vb[i])));
			if (s > poly_sep) {
				poly_sep = s;
				ref = i;
			}
		}
		if (ref >= 0 && poly_sep > edge_sep) {
			int j1 = ref, j2 = ref + 1 < count ? ref + 1 : 0;
			tb_vec2 b1 = vb[j1], b2 = vb[j2];
			tb_vec2 normal_b = nb[ref];
			float d1 = tb_dot(normal_b, tb_sub(p1, b1));
			float d2 = tb_dot(normal_b, tb_sub(p2, b1));
			if (d1 < d2) {
				if (!c->free1 && tb_dot(n0, normal_b) < tb_dot(normal1, normal_b)) return empty_local;
			} else {
				if (!c->free2 && tb_dot(n2, normal_b) < tb_dot(normal1, normal_b)) return empty_local;
			}
			local_manifold m = empty_local;
			if (!clip_segments(b1, b2, p1, p2, normal_b, rb, 0.0f, TB_MAKE_ID(1, j1), TB_MAKE_ID(0, j2), &m))
				return empty_local;
			m.normal = tb_neg(normal_b);
			return m;
		}
		if (incident_index < 0) return empty_local;
	}

	/* The link's own normal is the axis: clip b's incident edge, the one next to
	 * the incident vertex that faces the link most squarely. */
	int ib1, ib2;
	if (incident_normal >= 0) {
		ib1 = incident_normal;
		ib2 = ib1 + 1 < count ? ib1 + 1 : 0;
	} else {
		int i2 = incident_index;
		int i1 = i2 > 0 ? i2 - 1 : count - 1;
		if (tb_dot(normal1, nb[i1]) < tb_dot(normal1, nb[i2])) {
			ib1 = i1;
			ib2 = i2;
		} else {
			ib1 = i2;
			ib2 = i2 + 1 < count ? i2 + 1 : 0;
		}
	}
	local_manifold m = empty_local;
	if (!clip_segments(p1, p2, vb[ib1], vb[ib2], normal1, 0.0f, rb, TB_MAKE_ID(0, ib2), TB_MAKE_ID(1, ib1), &m))
		return empty_local;
	return m;
}

static tb_manifold collide_chain_polygon_frames(const tb_chain_segment *a, tb_transform xfa, const tb_polygon *b,
                                                tb_transform xfb, float spec)
{
	chain_info c;
	if (!chain_info_make(a, &c)) return empty_manifold();
	tb_transform xf = tb_inv_mul_transforms(xfa, xfb);
	tb_polygon lb;
	lb.count = b->count;
	lb.radius = b->radius;
	lb.centroid = tb_transform_point(xf, b->centroid);
	for (int i = 0; i < b->count; ++i) {
		lb.vertices[i] = tb_transform_point(xf, b->vertices[i]);
		lb.normals[i] = tb_rotate(xf.q, b->normals[i]);
	}
	local_manifold lm = chain_polygon_local(&c, &lb, spec);
	return to_world(&lm, xfa, xfb, tb_vec2_zero, spec);
}

static tb_manifold collide_chain_segment_and_polygon(const tb_chain_segment *a, tb_transform xfa, const tb_polygon *b,
                                                 tb_transform xfb, float spec)
{
	return collide_chain_polygon_frames(a, xfa, b, xfb, spec);
}

/* Whether the chain link's collide ignores `b` for being behind it: the
 * same rule as the colliders (a circle's centre behind the link; a polygon's
 * or capsule's centroid behind the link and every convex neighbour). */
bool tb_chain_segment_behind(const tb_chain_segment *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb)
{
	tb_transform xf = tb_inv_mul_transforms(xfa, xfb);
	tb_polygon pb;
	const tb_polygon *poly = NULL;
	tb_vec2 centre;
	switch (b->type) {
	case TB_SHAPE_CIRCLE: centre = b->circle.center; break;
	case TB_SHAPE_CAPSULE:
		if (tb_make_capsule_polygon(b->capsule.center1, b->capsule.center2, b->capsule.radius, &pb)) poly = &pb;
		centre = b->capsule.center1;
		break;
	case TB_SHAPE_POLYGON: poly = &b->polygon; break;
	default: return false;
	}
	if (poly == NULL) {
		/* as collide_chain_segment_and_circle */
		tb_vec2 c = tb_transform_point(xf, centre);
		tb_vec2 p1 = a->segment.point1;
		tb_vec2 n = tb_normalize(tb_right_perp(tb_sub(a->segment.point2, p1)));
		return (n.x != 0.0f || n.y != 0.0f) && tb_dot(n, tb_sub(c, p1)) < 0.0f;
	}
	/* as chain_polygon_local */
	chain_info c;
	if (!chain_info_make(a, &c)) return false;
	tb_vec2 centroid = tb_transform_point(xf, poly->centroid);
	return tb_dot(c.normal, tb_sub(centroid, c.p1)) < 0.0f &&
	       (!c.convex1 || tb_dot(c.normal0, tb_sub(centroid, c.p1)) < 0.0f) &&
	       (!c.convex2 || tb_dot(c.normal2, tb_sub(centroid, c.p2)) < 0.0f);
}

static tb_manifold collide_chain_segment_and_capsule(const tb_chain_segment *a, tb_transform xfa, const tb_capsule *b,
                                                 tb_transform xfb, float spec)
{
	tb_polygon pb;
	if (!tb_make_capsule_polygon(b->center1, b->center2, b->radius, &pb)) {
		tb_circle c = {b->center1, b->radius};
		return collide_chain_segment_and_circle(a, xfa, &c, xfb, spec);
	}
	return collide_chain_polygon_frames(a, xfa, &pb, xfb, spec);
}

/* ---- dispatch ---- */

/* Colliders by (A type, B type) for A's type at or after B's in the enum;
 * other orders are answered by swapping and flipping. */
static tb_manifold collide_ordered(const tb_geometry *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb,
                                   bool *handled, float spec)
{
	*handled = true;
	switch (a->type) {
	case TB_SHAPE_CIRCLE:
		if (b->type == TB_SHAPE_CIRCLE) return collide_circles(&a->circle, xfa, &b->circle, xfb, spec);
		break;
	case TB_SHAPE_CAPSULE:
		if (b->type == TB_SHAPE_CIRCLE) return collide_capsule_and_circle(&a->capsule, xfa, &b->circle, xfb, spec);
		if (b->type == TB_SHAPE_CAPSULE) return collide_capsules(&a->capsule, xfa, &b->capsule, xfb, spec);
		break;
	case TB_SHAPE_SEGMENT:
		if (b->type == TB_SHAPE_CIRCLE) return collide_segment_and_circle(&a->segment, xfa, &b->circle, xfb, spec);
		if (b->type == TB_SHAPE_CAPSULE) return collide_segment_and_capsule(&a->segment, xfa, &b->capsule, xfb, spec);
		if (b->type == TB_SHAPE_SEGMENT) return empty_manifold(); /* two massless lines */
		if (b->type == TB_SHAPE_POLYGON) return collide_segment_and_polygon(&a->segment, xfa, &b->polygon, xfb, spec);
		break;
	case TB_SHAPE_POLYGON:
		if (b->type == TB_SHAPE_CIRCLE) return collide_polygon_and_circle(&a->polygon, xfa, &b->circle, xfb, spec);
		if (b->type == TB_SHAPE_CAPSULE) return collide_polygon_and_capsule(&a->polygon, xfa, &b->capsule, xfb, spec);
		if (b->type == TB_SHAPE_SEGMENT) {
			return flip_manifold(collide_segment_and_polygon(&b->segment, xfb, &a->polygon, xfa, spec));
		}
		if (b->type == TB_SHAPE_POLYGON) return collide_polygons(&a->polygon, xfa, &b->polygon, xfb, spec);
		break;
	case TB_SHAPE_CHAIN_SEGMENT:
		if (b->type == TB_SHAPE_CIRCLE)
			return collide_chain_segment_and_circle(&a->chain_segment, xfa, &b->circle, xfb, spec);
		if (b->type == TB_SHAPE_CAPSULE)
			return collide_chain_segment_and_capsule(&a->chain_segment, xfa, &b->capsule, xfb, spec);
		if (b->type == TB_SHAPE_POLYGON)
			return collide_chain_segment_and_polygon(&a->chain_segment, xfa, &b->polygon, xfb, spec);
		/* chain against segment or chain: both static lines, no contact */
		return empty_manifold();
	default: break;
	}
	*handled = false;
	return empty_manifold();
}

tb_manifold tb_collide_speculative(const tb_geometry *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb,
                                   float speculative)
{
	if ((unsigned)a->type >= TB_SHAPE_TYPE_COUNT || (unsigned)b->type >= TB_SHAPE_TYPE_COUNT) return empty_manifold();
	bool handled;
	tb_manifold m = collide_ordered(a, xfa, b, xfb, &handled, speculative);
	if (handled) return m;
	m = collide_ordered(b, xfb, a, xfa, &handled, speculative);
	return handled ? flip_manifold(m) : empty_manifold();
}

void tb_collide_speculative_into(tb_manifold *out, const tb_geometry *a, tb_transform xfa, const tb_geometry *b,
                                 tb_transform xfb, float speculative)
{
	/* the common pair straight into place; the rest through the dispatch */
	if (a->type == TB_SHAPE_POLYGON && b->type == TB_SHAPE_POLYGON) {
		collide_polygons_frames_into(out, &a->polygon, xfa, &b->polygon, xfb, speculative);
		return;
	}
	*out = tb_collide_speculative(a, xfa, b, xfb, speculative);
}

tb_manifold tb_collide(const tb_geometry *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb)
{
	return tb_collide_speculative(a, xfa, b, xfb, TB_SPECULATIVE_DISTANCE);
}

/* ---- the pairwise colliders at the standard speculative distance ---- */

#define TB_PAIR_COLLIDER(name, ta, tb)                                                                             \
	tb_manifold tb_collide_##name(const ta *a, tb_transform xfa, const tb *b, tb_transform xfb)                    \
	{                                                                                                           \
		return collide_##name(a, xfa, b, xfb, TB_SPECULATIVE_DISTANCE);                                         \
	}
TB_PAIR_COLLIDER(circles, tb_circle, tb_circle)
TB_PAIR_COLLIDER(capsule_and_circle, tb_capsule, tb_circle)
TB_PAIR_COLLIDER(capsules, tb_capsule, tb_capsule)
TB_PAIR_COLLIDER(polygon_and_circle, tb_polygon, tb_circle)
TB_PAIR_COLLIDER(polygon_and_capsule, tb_polygon, tb_capsule)
TB_PAIR_COLLIDER(polygons, tb_polygon, tb_polygon)
TB_PAIR_COLLIDER(segment_and_circle, tb_segment, tb_circle)
TB_PAIR_COLLIDER(segment_and_capsule, tb_segment, tb_capsule)
TB_PAIR_COLLIDER(segment_and_polygon, tb_segment, tb_polygon)
TB_PAIR_COLLIDER(chain_segment_and_circle, tb_chain_segment, tb_circle)
TB_PAIR_COLLIDER(chain_segment_and_capsule, tb_chain_segment, tb_capsule)
TB_PAIR_COLLIDER(chain_segment_and_polygon, tb_chain_segment, tb_polygon)
