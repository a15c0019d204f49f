/* tumble physics: world queries (boxes, points, shapes, rays), contact
 * inspection and the debug draw.
 *
 * Queries walk both broad-phase trees (static first, then movable) and refine
 * each candidate with an exact test in the shape's own frame. Tree leaves carry
 * the shape slot as user data. Nothing here changes the world. */
#include "world.h"

tb_query_filter tb_default_query_filter(void)
{
	tb_query_filter f = {1, UINT64_MAX};
	return f;
}

bool tb_query_accepts(const tb_world *w, const tb_shape *s, tb_query_filter filter)
{
	if (!s->in_use || !s->enabled || !w->bodies.data[s->body].enabled) return false;
	return (s->filter.category_bits & filter.mask_bits) != 0 && (s->filter.mask_bits & filter.category_bits) != 0;
}

static tb_transform shape_transform(const tb_world *w, const tb_shape *s) { return w->sims.data[s->body].transform; }

/* tb_collide wants a chain segment as shape A: swap, then turn the result back
 * so the normal points from a to b and each anchor is relative to its own shape. */
static tb_manifold collide_any(const tb_geometry *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb)
{
	if (b->type != TB_SHAPE_CHAIN_SEGMENT || a->type == TB_SHAPE_CHAIN_SEGMENT) return tb_collide(a, xfa, b, xfb);
	tb_manifold m = tb_collide(b, xfb, a, xfa);
	m.normal = tb_neg(m.normal);
	for (int i = 0; i < m.point_count; ++i) {
		tb_vec2 t = m.points[i].anchor_a;
		m.points[i].anchor_a = m.points[i].anchor_b;
		m.points[i].anchor_b = t;
	}
	return m;
}

/* ---- box and point ---- */

typedef struct tb_aabb_query {
	const tb_world *world;
	tb_aabb aabb;
	tb_query_filter filter;
	tb_overlap_result_fn *fn;
	void *context;
	bool stopped;
} tb_aabb_query;

static bool aabb_query_fn(int32_t proxy_id, int32_t user_data, void *context)
{
	tb_aabb_query *q = context;
	const tb_world *w = q->world;
	const tb_shape *s = w->shapes.data + user_data;
	if (!tb_query_accepts(w, s, q->filter)) return true;
	/* the tree holds fattened boxes: refine with the tight one */
	tb_aabb box = tb_compute_aabb(&s->geom, shape_transform(w, s));
	if (!tb_aabb_overlaps(box, q->aabb)) return true;
	if (!q->fn(tb_make_shape_id(w, user_data), q->context)) q->stopped = true;
	return !q->stopped;
}

void tb_world_query_aabb(const tb_world *w, tb_aabb aabb, tb_query_filter filter, tb_overlap_result_fn *fn,
                         void *context)
{
	if (w == NULL || fn == NULL || !tb_is_valid_vec2(aabb.lower) || !tb_is_valid_vec2(aabb.upper)) return;
	tb_aabb_query q = {w, aabb, filter, fn, context, false};
	for (int t = 0; t < 2 && !q.stopped; ++t) {
		tb_dynamic_tree_query(&w->broad_phase.trees[t], aabb, filter.mask_bits, aabb_query_fn, &q);
	}
}

typedef struct tb_point_query {
	const tb_world *world;
	tb_vec2 point;
	tb_query_filter filter;
	tb_overlap_result_fn *fn;
	void *context;
	bool stopped;
} tb_point_query;

static bool point_query_fn(int32_t proxy_id, int32_t user_data, void *context)
{
	tb_point_query *q = context;
	const tb_world *w = q->world;
	const tb_shape *s = w->shapes.data + user_data;
	if (!tb_query_accepts(w, s, q->filter)) return true;
	tb_vec2 local = tb_inv_transform_point(shape_transform(w, s), q->point);
	if (!tb_geometry_test_point(&s->geom, local)) return true;
	if (!q->fn(tb_make_shape_id(w, user_data), q->context)) q->stopped = true;
	return !q->stopped;
}

void tb_world_query_point(const tb_world *w, tb_vec2 point, tb_query_filter filter, tb_overlap_result_fn *fn,
                          void *context)
{
	if (w == NULL || fn == NULL || !tb_is_valid_vec2(point)) return;
	tb_point_query q = {w, point, filter, fn, context, false};
	tb_aabb box = {point, point};
	for (int t = 0; t < 2 && !q.stopped; ++t) {
		tb_dynamic_tree_query(&w->broad_phase.trees[t], box, filter.mask_bits, point_query_fn, &q);
	}
}

/* ---- shape overlap ---- */

typedef struct tb_overlap_query {
	const tb_world *world;
	const tb_geometry *geom;
	tb_shape_proxy proxy;
	tb_transform xf;
	tb_aabb aabb;
	int32_t exclude; /* the query's own shape, or TB_NULL_INDEX */
	tb_query_filter filter;
	tb_overlap_result_fn *fn;
	void *context;
	bool stopped;
} tb_overlap_query;

static bool overlap_query_fn(int32_t proxy_id, int32_t user_data, void *context)
{
	tb_overlap_query *q = context;
	const tb_world *w = q->world;
	if (user_data == q->exclude) return true;
	const tb_shape *s = w->shapes.data + user_data;
	if (!tb_query_accepts(w, s, q->filter)) return true;
	tb_transform xf = shape_transform(w, s);
	if (!tb_aabb_overlaps(tb_compute_aabb(&s->geom, xf), q->aabb)) return true;
	/* GJK on the convex hulls: exact for every kind, and two-sided for chains,
	 * which is what "is anything here" means. Touching counts. */
	tb_shape_proxy p = tb_geometry_proxy(&s->geom);
	tb_distance_output d = tb_shape_distance(&q->proxy, q->xf, &p, xf);
	if (d.distance > 0.0f) return true;
	if (!q->fn(tb_make_shape_id(w, user_data), q->context)) q->stopped = true;
	return !q->stopped;
}

static void overlap_query(const tb_world *w, const tb_geometry *g, tb_transform xf, int32_t exclude,
                          tb_query_filter filter, tb_overlap_result_fn *fn, void *context)
{
	tb_overlap_query q;
	q.world = w;
	q.geom = g;
	q.proxy = tb_geometry_proxy(g);
	q.xf = xf;
	q.aabb = tb_compute_aabb(g, xf);
	q.exclude = exclude;
	q.filter = filter;
	q.fn = fn;
	q.context = context;
	q.stopped = false;
	for (int t = 0; t < 2 && !q.stopped; ++t) {
		tb_dynamic_tree_query(&w->broad_phase.trees[t], q.aabb, filter.mask_bits, overlap_query_fn, &q);
	}
}

void tb_world_overlap_shape(const tb_world *w, tb_shape_id shape, tb_query_filter filter, tb_overlap_result_fn *fn,
                            void *context)
{
	const tb_shape *s = w ? tb_shape_lookup(w, shape) : NULL;
	if (s == NULL || fn == NULL) return;
	overlap_query(w, &s->geom, shape_transform(w, s), shape.index1 - 1, filter, fn, context);
}

void tb_world_overlap_geometry(const tb_world *w, const tb_geometry *geometry, tb_transform xf,
                               tb_query_filter filter, tb_overlap_result_fn *fn, void *context)
{
	if (w == NULL || geometry == NULL || fn == NULL) return;
	if (!tb_is_valid_vec2(xf.p) || !tb_is_valid_float(xf.q.c) || !tb_is_valid_float(xf.q.s)) return;
	if (tb_validate_geometry(geometry) != TB_OK) return;
	overlap_query(w, geometry, xf, TB_NULL_INDEX, filter, fn, context);
}

/* ---- rays ---- */

typedef struct tb_ray_query {
	const tb_world *world;
	tb_query_filter filter;
	tb_ray_result_fn *fn;
	void *context;
	float fraction; /* what the caller clipped the ray to so far */
} tb_ray_query;

/* Ray against one shape: the ray goes into the shape's frame and the hit comes
 * back to the world. */
static tb_cast_output ray_cast_shape(const tb_world *w, const tb_shape *s, tb_vec2 origin, tb_vec2 translation,
                                     float max_fraction)
{
	tb_transform xf = shape_transform(w, s);
	tb_ray_cast_input input;
	input.origin = tb_inv_transform_point(xf, origin);
	input.translation = tb_inv_rotate(xf.q, translation);
	input.max_fraction = max_fraction;
	tb_cast_output out = tb_ray_cast_geometry(&input, &s->geom);
	if (out.hit) {
		out.point = tb_transform_point(xf, out.point);
		out.normal = tb_rotate(xf.q, out.normal);
	}
	return out;
}

static float ray_query_fn(const tb_ray_cast_input *input, int32_t proxy_id, int32_t user_data, void *context)
{
	tb_ray_query *q = context;
	const tb_world *w = q->world;
	const tb_shape *s = w->shapes.data + user_data;
	/* areas are invisible to rays: a line of sight or a ground probe must not
	 * stop at a force field (overlap queries do report sensors) */
	if (!tb_query_accepts(w, s, q->filter) || s->is_sensor) return -1.0f;
	tb_cast_output out = ray_cast_shape(w, s, input->origin, input->translation, input->max_fraction);
	if (!out.hit) return -1.0f;
	float f = q->fn(tb_make_shape_id(w, user_data), out.point, out.normal, out.fraction, q->context);
	if (f >= 0.0f) q->fraction = f;
	return f;
}

void tb_world_cast_ray(const tb_world *w, tb_vec2 origin, tb_vec2 translation, tb_query_filter filter,
                       tb_ray_result_fn *fn, void *context)
{
	if (w == NULL || fn == NULL || !tb_is_valid_vec2(origin) || !tb_is_valid_vec2(translation)) return;
	tb_ray_query q = {w, filter, fn, context, 1.0f};
	tb_ray_cast_input input = {origin, translation, 1.0f};
	for (int t = 0; t < 2; ++t) {
		/* a hit in the static tree shortens the ray searched in the movable one */
		input.max_fraction = q.fraction;
		if (q.fraction <= 0.0f) return;
		tb_dynamic_tree_ray_cast(&w->broad_phase.trees[t], &input, filter.mask_bits, ray_query_fn, &q);
	}
}

static float closest_fn(tb_shape_id shape, tb_vec2 point, tb_vec2 normal, float fraction, void *context)
{
	tb_ray_result *r = context;
	r->shape = shape;
	r->point = point;
	r->normal = normal;
	r->fraction = fraction;
	r->hit = true;
	return fraction;
}

tb_ray_result tb_world_cast_ray_closest(const tb_world *w, tb_vec2 origin, tb_vec2 translation,
                                        tb_query_filter filter)
{
	tb_ray_result r;
	memset(&r, 0, sizeof r);
	tb_world_cast_ray(w, origin, translation, filter, closest_fn, &r);
	return r;
}

/* ---- single shapes ---- */

tb_manifold tb_world_collide_shapes(const tb_world *w, tb_shape_id a, tb_shape_id b)
{
	tb_manifold m;
	memset(&m, 0, sizeof m);
	const tb_shape *sa = tb_shape_lookup(w, a);
	const tb_shape *sb = tb_shape_lookup(w, b);
	if (sa == NULL || sb == NULL || sa == sb) return m;
	return collide_any(&sa->geom, shape_transform(w, sa), &sb->geom, shape_transform(w, sb));
}

tb_aabb tb_shape_get_aabb(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) {
		tb_aabb zero = {{0.0f, 0.0f}, {0.0f, 0.0f}};
		return zero;
	}
	return tb_compute_aabb(&s->geom, shape_transform(w, s));
}

bool tb_shape_test_point(const tb_world *w, tb_shape_id id, tb_vec2 point)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL || !tb_is_valid_vec2(point)) return false;
	return tb_geometry_test_point(&s->geom, tb_inv_transform_point(shape_transform(w, s), point));
}

tb_cast_output tb_shape_ray_cast(const tb_world *w, tb_shape_id id, tb_vec2 origin, tb_vec2 translation)
{
	tb_cast_output out;
	memset(&out, 0, sizeof out);
	const tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL || !tb_is_valid_vec2(origin) || !tb_is_valid_vec2(translation)) return out;
	return ray_cast_shape(w, s, origin, translation, 1.0f);
}

/* ---- contacts ---- */

static tb_contact_data contact_data(const tb_world *w, const tb_contact *c)
{
	tb_contact_data d;
	d.shape_a = tb_make_shape_id(w, c->shape_a);
	d.shape_b = tb_make_shape_id(w, c->shape_b);
	d.manifold = c->manifold;
	return d;
}

int tb_world_get_contacts(const tb_world *w, tb_contact_data *out, int capacity)
{
	int n = 0;
	for (int32_t i = 0; i < w->contacts.count; ++i) {
		const tb_contact *c = w->contacts.data + i;
		if (!c->in_use || (c->flags & TB_CONTACT_TOUCHING) == 0) continue;
		if (out != NULL && n < capacity) out[n] = contact_data(w, c);
		n += 1;
	}
	return n;
}

int tb_body_get_contacts(const tb_world *w, tb_body_id id, tb_contact_data *out, int capacity)
{
	if (tb_body_lookup(w, id) == NULL) return 0;
	int n = 0;
	tb_body_edge_iter it = tb_body_contacts(w, id.index1 - 1);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) {
		const tb_contact *c = w->contacts.data + e.contact;
		if ((c->flags & TB_CONTACT_TOUCHING) == 0) continue;
		if (out != NULL && n < capacity) out[n] = contact_data(w, c);
		n += 1;
	}
	return n;
}

/* ---- debug draw ---- */

static tb_draw_state shape_draw_state(const tb_body *b, const tb_shape *s)
{
	if (!b->enabled || !s->enabled) return TB_DRAW_DISABLED;
	/* an area is drawn as an area even on a static body, or it would look solid */
	if (s->is_sensor) return TB_DRAW_SENSOR;
	if (b->type == TB_STATIC_BODY) return TB_DRAW_STATIC;
	if (b->type == TB_KINEMATIC_BODY) return TB_DRAW_KINEMATIC;
	return b->awake ? TB_DRAW_AWAKE : TB_DRAW_ASLEEP;
}

static void draw_shape(const tb_debug_draw *draw, const tb_shape *s, tb_transform xf, tb_draw_state state)
{
	void *ctx = draw->context;
	const tb_geometry *g = &s->geom;
	switch (g->type) {
	case TB_SHAPE_CIRCLE:
		if (draw->draw_circle)
			draw->draw_circle(tb_transform_point(xf, g->circle.center), g->circle.radius, xf.q, state, ctx);
		break;
	case TB_SHAPE_CAPSULE:
		if (draw->draw_capsule)
			draw->draw_capsule(tb_transform_point(xf, g->capsule.center1), tb_transform_point(xf, g->capsule.center2),
			                   g->capsule.radius, state, ctx);
		break;
	case TB_SHAPE_SEGMENT:
		if (draw->draw_segment)
			draw->draw_segment(tb_transform_point(xf, g->segment.point1), tb_transform_point(xf, g->segment.point2),
			                   state, ctx);
		break;
	case TB_SHAPE_CHAIN_SEGMENT:
		if (draw->draw_segment)
			draw->draw_segment(tb_transform_point(xf, g->chain_segment.segment.point1),
			                   tb_transform_point(xf, g->chain_segment.segment.point2), state, ctx);
		break;
	case TB_SHAPE_POLYGON:
		if (draw->draw_polygon) {
			tb_vec2 v[TB_MAX_POLYGON_VERTICES];
			int n = tb_mini(g->polygon.count, TB_MAX_POLYGON_VERTICES);
			for (int i = 0; i < n; ++i) v[i] = tb_transform_point(xf, g->polygon.vertices[i]);
			draw->draw_polygon(v, n, g->polygon.radius, state, ctx);
		}
		break;
	default: break;
	}
}

void tb_world_draw(const tb_world *w, const tb_debug_draw *draw)
{
	if (w == NULL || draw == NULL) return;
	void *ctx = draw->context;

	if (draw->draw_shapes) {
		for (int32_t i = 0; i < w->bodies.count; ++i) {
			const tb_body *b = w->bodies.data + i;
			if (!b->in_use) continue;
			tb_transform xf = w->sims.data[i].transform;
			for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
				const tb_shape *s = w->shapes.data + k;
				draw_shape(draw, s, xf, shape_draw_state(b, s));
			}
		}
	}

	if (draw->draw_shapes && draw->draw_capsule) {
		for (int32_t i = 0; i < w->movers.count; ++i) {
			const tb_mover *m = w->movers.data + i;
			if (!m->in_use) continue;
			draw->draw_capsule(tb_add(m->position, m->def.capsule.center1), tb_add(m->position, m->def.capsule.center2),
			                   m->def.capsule.radius, TB_DRAW_KINEMATIC, ctx);
		}
	}

	if (draw->draw_joints && draw->draw_joint) {
		for (int32_t i = 0; i < w->joints.count; ++i) {
			if (w->joints.data[i].in_use) tb_joint_draw(w, w->joints.data + i, draw);
		}
	}

	if (draw->draw_contacts && draw->draw_contact) {
		for (int32_t i = 0; i < w->contacts.count; ++i) {
			const tb_contact *c = w->contacts.data + i;
			if (!c->in_use || (c->flags & TB_CONTACT_TOUCHING) == 0) continue;
			const tb_manifold *m = &c->manifold;
			for (int p = 0; p < m->point_count; ++p) {
				const tb_manifold_point *mp = m->points + p;
				draw->draw_contact(mp->point, m->normal, mp->normal_impulse, mp->separation > 0.0f, ctx);
			}
		}
	}

	if (draw->draw_aabbs && draw->draw_aabb) {
		for (int32_t i = 0; i < w->shapes.count; ++i) {
			const tb_shape *s = w->shapes.data + i;
			if (!s->in_use) continue;
			if (s->proxy != TB_NULL_INDEX) {
				draw->draw_aabb(tb_dynamic_tree_get_aabb(&w->broad_phase.trees[s->tree], s->proxy), true, ctx);
			}
			draw->draw_aabb(tb_compute_aabb(&s->geom, shape_transform(w, s)), false, ctx);
		}
	}

	if (draw->draw_mass && draw->draw_center_of_mass) {
		for (int32_t i = 0; i < w->bodies.count; ++i) {
			if (!w->bodies.data[i].in_use) continue;
			tb_transform xf = {w->sims.data[i].center, w->sims.data[i].transform.q};
			draw->draw_center_of_mass(xf, ctx);
		}
	}
}
