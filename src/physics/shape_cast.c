/* tumble physics: shape casts and shape distance.
 *
 * A cast sweeps a convex proxy along a straight line. The gap between two
 * convex shapes, one moving linearly, is a convex function of the fraction
 * (the distance from a moving point to a convex set, the Minkowski
 * difference), so the tangent at any fraction lies below it: stepping by
 * gap / closing speed, with the closing speed along the current closest
 * direction, never steps past the contact and converges on it (exactly for
 * flat faces, quadratically for round ones). This is conservative advancement
 * without rotation, which the time of impact (distance.c) adds. */
#include "shape_cast.h"
#include "world.h"

#include <float.h>

#define TB_SHAPE_CAST_ITERATIONS 30

tb_cast_output tb_shape_cast_to(const tb_shape_proxy *a, tb_transform xfa, const tb_shape_proxy *b, tb_transform xfb,
                                tb_vec2 translation, float max_fraction, float target)
{
	tb_cast_output out;
	memset(&out, 0, sizeof out);
	float tolerance = 0.05f * TB_LINEAR_SLOP;
	float t = 0.0f;
	for (int iter = 0; iter < TB_SHAPE_CAST_ITERATIONS; ++iter) {
		tb_transform xf = {tb_mul_add(xfb.p, t, translation), xfb.q};
		tb_distance_output d = tb_shape_distance(a, xfa, b, xf);
		out.iterations = iter + 1;
		bool cores_overlap = d.distance <= -(a->radius + b->radius);
		if (d.distance <= target + tolerance || iter == TB_SHAPE_CAST_ITERATIONS - 1) {
			/* touching (or, out of iterations, short of it: still safe) */
			out.hit = true;
			out.fraction = t;
			out.point = d.point_a;
			out.normal = cores_overlap ? tb_vec2_zero : d.normal;
			return out;
		}
		float closing = -tb_dot(translation, d.normal);
		if (!(closing > 0.0f)) return out; /* parting or sliding by */
		t += (d.distance - target) / closing;
		if (!(t <= max_fraction)) return out;
	}
	return out;
}

tb_cast_output tb_shape_cast(const tb_shape_proxy *a, tb_transform xfa, const tb_shape_proxy *b, tb_transform xfb,
                             tb_vec2 translation, float max_fraction)
{
	tb_cast_output none;
	memset(&none, 0, sizeof none);
	if (a == NULL || b == NULL || a->count < 1 || b->count < 1 || a->count > TB_MAX_POLYGON_VERTICES ||
	    b->count > TB_MAX_POLYGON_VERTICES || !tb_is_valid_vec2(translation) || !(max_fraction >= 0.0f))
		return none;
	return tb_shape_cast_to(a, xfa, b, xfb, translation, tb_minf(max_fraction, 1.0f), 0.5f * 0.05f * TB_LINEAR_SLOP);
}

bool tb_shape_faces(const tb_world *w, const tb_shape *s, const tb_shape_proxy *b, tb_transform xfb)
{
	bool chain = s->geom.type == TB_SHAPE_CHAIN_SEGMENT;
	if (!chain && !tb_shape_is_one_way(s)) return true;
	tb_transform xfs = w->sims.data[s->body].transform;
	tb_shape_proxy a = tb_geometry_proxy(&s->geom);
	tb_distance_output d = tb_shape_distance(&a, xfs, b, xfb);
	if (!(d.distance > 0.0f)) return false;
	if (chain) {
		const tb_segment *seg = &s->geom.chain_segment.segment;
		tb_vec2 front = tb_rotate(xfs.q, tb_right_perp(tb_sub(seg->point2, seg->point1)));
		if (tb_dot(d.normal, front) <= 0.0f) return false;
	}
	return !tb_shape_is_one_way(s) || tb_one_way_holds(w, s, d.normal);
}

/* ---- the world cast ---- */

typedef struct cast_query {
	const tb_world *world;
	tb_shape_proxy proxy;
	tb_transform xf;
	tb_vec2 translation;
	tb_query_filter filter;
	int32_t ignore_body;
	tb_ray_result best;
	int32_t best_slot;
} cast_query;

static bool cast_fn(int32_t proxy_id, int32_t si, void *context)
{
	(void)proxy_id;
	cast_query *q = context;
	const tb_world *w = q->world;
	const tb_shape *s = w->shapes.data + si;
	if (!tb_query_accepts(w, s, q->filter) || s->is_sensor || s->body == q->ignore_body) return true;
	if (!tb_shape_faces(w, s, &q->proxy, q->xf)) return true;
	tb_shape_proxy a = tb_geometry_proxy(&s->geom);
	float max_fraction = q->best.hit ? q->best.fraction : 1.0f;
	tb_cast_output out = tb_shape_cast(&a, w->sims.data[s->body].transform, &q->proxy, q->xf, q->translation,
	                                   max_fraction);
	if (!out.hit) return true;
	if (q->best.hit && (out.fraction > q->best.fraction || (out.fraction == q->best.fraction && si > q->best_slot)))
		return true;
	q->best.hit = true;
	q->best.shape = tb_make_shape_id(w, si);
	q->best.fraction = out.fraction;
	q->best.point = out.point;
	q->best.normal = out.normal;
	q->best_slot = si;
	return true;
}

tb_ray_result tb_world_cast_shape(const tb_world *w, const tb_geometry *geometry, tb_transform xf,
                                  tb_vec2 translation, tb_query_filter filter, tb_body_id ignore_body)
{
	cast_query q;
	memset(&q, 0, sizeof q);
	if (w == NULL || geometry == NULL || geometry->type == TB_SHAPE_CHAIN_SEGMENT) return q.best;
	if (!tb_is_valid_vec2(xf.p) || !tb_is_valid_float(xf.q.c) || !tb_is_valid_float(xf.q.s) ||
	    !tb_is_valid_vec2(translation) || tb_validate_geometry(geometry) != TB_OK)
		return q.best;
	/* finite but absurd numbers would overflow the distances: the sweep must
	 * stay within the world's coordinates, as bodies and shapes do */
	tb_aabb local = tb_compute_aabb(geometry, tb_transform_identity);
	if (!(fabsf(local.lower.x) < TB_HUGE && fabsf(local.lower.y) < TB_HUGE && fabsf(local.upper.x) < TB_HUGE &&
	      fabsf(local.upper.y) < TB_HUGE && fabsf(xf.p.x) < TB_HUGE && fabsf(xf.p.y) < TB_HUGE &&
	      fabsf(translation.x) < 2.0f * TB_HUGE && fabsf(translation.y) < 2.0f * TB_HUGE))
		return q.best;
	q.world = w;
	q.proxy = tb_geometry_proxy(geometry);
	q.xf = xf;
	q.translation = translation;
	q.filter = filter;
	const tb_body *ignored = tb_body_lookup(w, ignore_body);
	q.ignore_body = ignored != NULL ? ignore_body.index1 - 1 : TB_NULL_INDEX;
	q.best_slot = TB_NULL_INDEX;
	tb_aabb start = tb_compute_aabb(geometry, xf);
	tb_aabb end = {tb_add(start.lower, translation), tb_add(start.upper, translation)};
	tb_aabb box = tb_aabb_union(start, end);
	for (int t = 0; t < 2; ++t) tb_dynamic_tree_query(&w->broad_phase.trees[t], box, filter.mask_bits, cast_fn, &q);
	return q.best;
}

tb_distance_output tb_world_shape_distance(const tb_world *w, tb_shape_id a, tb_shape_id b)
{
	const tb_shape *sa = tb_shape_lookup(w, a), *sb = tb_shape_lookup(w, b);
	if (sa == NULL || sb == NULL) {
		tb_distance_output far;
		memset(&far, 0, sizeof far);
		far.distance = FLT_MAX;
		return far;
	}
	tb_shape_proxy pa = tb_geometry_proxy(&sa->geom), pb = tb_geometry_proxy(&sb->geom);
	return tb_shape_distance(&pa, w->sims.data[sa->body].transform, &pb, w->sims.data[sb->body].transform);
}
