/* tumble physics: explosions, an impulse on every dynamic body near a point. */
#include "world.h"

#include <float.h>

tb_explosion_def tb_default_explosion_def(void)
{
	tb_explosion_def d;
	memset(&d, 0, sizeof d);
	d.radius = 1.0f;
	d.impulse = 1.0f;
	d.mask_bits = UINT64_MAX;
	return d;
}

typedef struct explode_query {
	tb_world *world;
	int32_t count; /* bodies gathered on world->stack */
} explode_query;

/* Gathers each dynamic body once (marked) on the world's walk stack, which
 * has room for every body: nothing is allocated. */
static bool gather_fn(int32_t proxy_id, int32_t si, void *context)
{
	(void)proxy_id;
	explode_query *q = context;
	tb_world *w = q->world;
	const tb_shape *s = w->shapes.data + si;
	if (s->is_sensor || !s->enabled) return true;
	tb_body *b = w->bodies.data + s->body;
	if (b->type != TB_DYNAMIC_BODY || !b->enabled || b->is_marked) return true;
	b->is_marked = true;
	TB_ASSERT(q->count < w->stack.capacity);
	w->stack.data[q->count++] = s->body;
	return true;
}

tb_status tb_world_explode(tb_world *w, const tb_explosion_def *def, int *pushed)
{
	if (pushed != NULL) *pushed = 0;
	if (w == NULL || def == NULL) return TB_ERR_INVALID_ARGUMENT;
	if (w->locked) return TB_ERR_LOCKED;
	if (!tb_is_valid_vec2(def->position) || !isfinite(def->radius) || !isfinite(def->falloff) ||
	    !isfinite(def->impulse) || fabsf(def->position.x) > TB_HUGE || fabsf(def->position.y) > TB_HUGE ||
	    def->radius > TB_HUGE || def->falloff > TB_HUGE)
		return TB_ERR_INVALID_NUMBER;
	if (def->radius < 0.0f || def->falloff < 0.0f) return TB_ERR_NEGATIVE;

	float reach = def->radius + def->falloff;
	tb_vec2 c = def->position;
	tb_aabb box = {tb_sub(c, tb_v2(reach, reach)), tb_add(c, tb_v2(reach, reach))};
	explode_query q = {w, 0};
	for (int t = 0; t < 2; ++t) tb_dynamic_tree_query(&w->broad_phase.trees[t], box, def->mask_bits, gather_fn, &q);
	/* slot order, whatever order the trees gave them in */
	if (q.count > 1) tb_sort(w->stack.data, (size_t)q.count, sizeof *w->stack.data, tb_compare_int32);

	tb_shape_proxy point = tb_make_proxy(&c, 1, 0.0f);
	int count = 0;
	for (int32_t k = 0; k < q.count; ++k) {
		int32_t bi = w->stack.data[k];
		w->bodies.data[bi].is_marked = false;
		const tb_body_sim *sim = w->sims.data + bi;
		/* the body's point nearest to the centre, over its shapes */
		float best = FLT_MAX;
		tb_vec2 nearest = tb_vec2_zero;
		for (int32_t si = w->bodies.data[bi].head_shape; si != TB_NULL_INDEX; si = w->shapes.data[si].next_in_body) {
			const tb_shape *s = w->shapes.data + si;
			if (s->is_sensor || !s->enabled || (s->filter.category_bits & def->mask_bits) == 0) continue;
			tb_shape_proxy p = tb_geometry_proxy(&s->geom);
			tb_distance_output d = tb_shape_distance(&point, tb_transform_identity, &p, sim->transform);
			float gap = tb_maxf(d.distance, 0.0f);
			if (gap < best) {
				best = gap;
				nearest = gap > 0.0f ? d.point_b : c;
			}
		}
		if (!(best <= reach)) continue;
		float scale = best <= def->radius ? 1.0f : 1.0f - (best - def->radius) / def->falloff;
		tb_vec2 dir = tb_normalize(tb_sub(best > 0.0f ? nearest : sim->center, c));
		if (dir.x == 0.0f && dir.y == 0.0f) continue;
		tb_body_id id = tb_make_body_id(w, bi);
		tb_body_apply_linear_impulse(w, id, tb_mul_sv(def->impulse * scale, dir), nearest, true);
		count += 1;
	}
	if (pushed != NULL) *pushed = count;
	return TB_OK;
}
