/* tumble physics: shapes — creation, chains, broad-phase proxies and the shape API. */
#include "world.h"

tb_shape_def tb_default_shape_def(void)
{
	tb_shape_def d;
	memset(&d, 0, sizeof d);
	d.density = 1.0f;
	d.friction = 0.6f;
	d.restitution = 0.0f;
	d.rolling_resistance = 0.0f;
	d.tangent_speed = 0.0f;
	d.filter.category_bits = 1;
	d.filter.mask_bits = UINT64_MAX;
	d.enable_sensor_events = true;
	d.enable_contact_events = true;
	d.enable_hit_events = true;
	d.is_enabled = true;
	return d;
}

tb_chain_def tb_default_chain_def(void)
{
	tb_chain_def d;
	memset(&d, 0, sizeof d);
	d.friction = 0.6f;
	d.filter.category_bits = 1;
	d.filter.mask_bits = UINT64_MAX;
	d.enable_sensor_events = true;
	return d;
}

bool tb_should_shapes_collide(tb_filter a, tb_filter b)
{
	if (a.group_index == b.group_index && a.group_index != 0) return a.group_index > 0;
	return (a.mask_bits & b.category_bits) != 0 && (a.category_bits & b.mask_bits) != 0;
}


/* Smallest half-thickness: how far the body may move in one step before it could
 * skip over a thin wall (continuous collision threshold). */
float tb_shape_min_extent(const tb_shape *s)
{
	const tb_geometry *g = &s->geom;
	switch (g->type) {
	case TB_SHAPE_CIRCLE: return g->circle.radius;
	case TB_SHAPE_CAPSULE: return g->capsule.radius;
	case TB_SHAPE_POLYGON: {
		const tb_polygon *p = &g->polygon;
		float m = 1.0e9f;
		for (int i = 0; i < p->count; ++i) {
			float d = tb_dot(p->normals[i], tb_sub(p->vertices[i], p->centroid));
			m = tb_minf(m, d);
		}
		return m + p->radius;
	}
	default: return 0.0f;
	}
}

/* Largest distance from the body's centre of mass to the shape's surface. */
float tb_shape_max_extent(const tb_shape *s, tb_vec2 c)
{
	const tb_geometry *g = &s->geom;
	switch (g->type) {
	case TB_SHAPE_CIRCLE: return tb_distance(g->circle.center, c) + g->circle.radius;
	case TB_SHAPE_CAPSULE:
		return tb_maxf(tb_distance(g->capsule.center1, c), tb_distance(g->capsule.center2, c)) + g->capsule.radius;
	case TB_SHAPE_SEGMENT:
		return tb_maxf(tb_distance(g->segment.point1, c), tb_distance(g->segment.point2, c));
	case TB_SHAPE_CHAIN_SEGMENT:
		return tb_maxf(tb_distance(g->chain_segment.segment.point1, c), tb_distance(g->chain_segment.segment.point2, c));
	case TB_SHAPE_POLYGON: {
		float m = 0.0f;
		for (int i = 0; i < g->polygon.count; ++i) m = tb_maxf(m, tb_distance(g->polygon.vertices[i], c));
		return m + g->polygon.radius;
	}
	default: return 0.0f;
	}
}

void tb_create_shape_proxy(tb_world *w, int32_t si)
{
	tb_shape *s = w->shapes.data + si;
	if (s->proxy != TB_NULL_INDEX) return;
	const tb_body *b = w->bodies.data + s->body;
	bool is_static = b->type == TB_STATIC_BODY;
	float spec = is_static ? 0.0f : TB_SPECULATIVE_DISTANCE;
	float margin = is_static ? 0.0f : TB_AABB_MARGIN;
	s->aabb = tb_compute_shape_aabb_margin(s, w->sims.data[s->body].transform, spec);
	tb_aabb fat = s->aabb;
	fat.lower = tb_sub(fat.lower, tb_v2(margin, margin));
	fat.upper = tb_add(fat.upper, tb_v2(margin, margin));
	s->fat_aabb = fat;
	s->tree = is_static ? 0 : 1;
	s->proxy = tb_dynamic_tree_create_proxy(&w->broad_phase.trees[s->tree], fat, s->filter.category_bits, si);
	/* the caller reserved the tree */
	TB_ASSERT(s->proxy != TB_NULL_INDEX);
	tb_broad_phase_buffer_move(w, si, NULL);
}

void tb_destroy_shape_proxy(tb_world *w, int32_t si)
{
	tb_shape *s = w->shapes.data + si;
	if (s->proxy == TB_NULL_INDEX) return;
	tb_destroy_shape_contacts(w, si, true);
	tb_broad_phase_unbuffer(w, si);
	tb_dynamic_tree_destroy_proxy(&w->broad_phase.trees[s->tree], s->proxy);
	s->proxy = TB_NULL_INDEX;
}

/* Room for `count` more shapes: the limit, the slots, and the move buffer,
 * which holds each shape slot at most once. */
static tb_status reserve_shape_slots(tb_world *w, int32_t count)
{
	tb_id_pool *pool = &w->shape_pool;
	int32_t limit = w->def.limits.max_shapes;
	if (limit > 0 && tb_id_pool_count(pool) > limit - count) return TB_ERR_SHAPE_LIMIT;
	int32_t fresh = count - pool->free_ids.count;
	if (fresh <= 0) return TB_OK;
	/* (the pair walk's list holds a few per slot) */
	if (pool->next_index > INT32_MAX / (2 * TB_JOIN_PAIRS_PER_SHAPE) - fresh) return TB_ERR_OUT_OF_MEMORY;
	int32_t n = pool->next_index + fresh;
	tb_allocator *a = &w->allocator;
	if (!tb_shape_array_reserve(a, &w->shapes, n) || !tb_id_pool_reserve(a, pool, n) ||
	    !tb_int_array_reserve(a, &w->broad_phase.move_buffer, n) ||
	    !tb_int_array_reserve(a, &w->broad_phase.new_partners, n) ||
	    !tb_aabb_array_reserve(a, &w->broad_phase.old_fat, n) ||
	    !tb_u64_array_reserve(a, &w->broad_phase.joined, TB_JOIN_PAIRS_PER_SHAPE * n) ||
	    !tb_walk_node_array_reserve(a, &w->broad_phase.walk, 2 * n))
		return TB_ERR_OUT_OF_MEMORY;
	return TB_OK;
}

/* Room for `count` proxies in the tree of the body's type. */
static tb_status reserve_proxies(tb_world *w, int32_t body, int32_t count)
{
	bool is_static = w->bodies.data[body].type == TB_STATIC_BODY;
	if (!tb_dynamic_tree_reserve(&w->broad_phase.trees[is_static ? 0 : 1], count)) return TB_ERR_OUT_OF_MEMORY;
	return TB_OK;
}

/* Finite but absurd sizes (a 1e38 m radius) overflow mass and bounds: shapes must
 * stay within TB_HUGE of their body's origin. A shape with area and density
 * must have a mass and an inertia that are normal floats (a denormal mass has
 * an infinite inverse, and inertia, centre and velocities turn to NaN). */
static tb_status check_shape_mass(const tb_geometry *g, float density, tb_mass_data *md, bool *has_mass)
{
	*has_mass = false;
	tb_aabb box = tb_compute_aabb(g, tb_transform_identity);
	if (!(fabsf(box.lower.x) < TB_HUGE && fabsf(box.lower.y) < TB_HUGE && fabsf(box.upper.x) < TB_HUGE &&
	      fabsf(box.upper.y) < TB_HUGE))
		return TB_ERR_INVALID_NUMBER;
	if (density == 0.0f) return TB_OK;
	*md = tb_compute_mass(g, density);
	*has_mass = true;
	bool has_area = g->type == TB_SHAPE_CIRCLE || g->type == TB_SHAPE_CAPSULE || g->type == TB_SHAPE_POLYGON;
	if (has_area && (!isnormal(md->mass) || !isnormal(md->rotational_inertia) || !tb_is_valid_vec2(md->center)))
		return TB_ERR_MASS_RANGE;
	return TB_OK;
}

/* A one-way direction: zero stays zero (off). Huge finite components are
 * scaled first, so their length does not overflow. */
static tb_vec2 unit_or_zero(tb_vec2 v)
{
	if (v.x == 0.0f && v.y == 0.0f) return tb_vec2_zero;
	/* divided, not multiplied by 1 / m: for a denormal m that is infinite */
	float m = tb_maxf(fabsf(v.x), fabsf(v.y));
	return tb_normalize(tb_v2(v.x / m, v.y / m));
}

/* A shape's surface: why it is refused, or TB_OK. */
static tb_status check_surface(float friction, float restitution, float rolling_resistance, float tangent_speed)
{
	if (!isfinite(friction) || !isfinite(restitution) || !isfinite(rolling_resistance) || !isfinite(tangent_speed) ||
	    fabsf(tangent_speed) > TB_HUGE)
		return TB_ERR_INVALID_NUMBER;
	if (friction < 0.0f || restitution < 0.0f || rolling_resistance < 0.0f) return TB_ERR_NEGATIVE;
	return TB_OK;
}

static tb_status check_material(float density, float friction, float restitution, float rolling_resistance,
                                float tangent_speed)
{
	if (!isfinite(density)) return TB_ERR_INVALID_NUMBER;
	tb_status st = check_surface(friction, restitution, rolling_resistance, tangent_speed);
	if (st == TB_OK && density < 0.0f) st = TB_ERR_NEGATIVE;
	return st;
}

/* The caller reserved the slot (reserve_shape_slots). */
static int32_t add_shape(tb_world *w, int32_t bi, const tb_geometry *g, float density, float friction,
                         float restitution, tb_filter filter, bool sensor, bool enabled, void *user_data)
{
	int32_t si = tb_alloc_id(&w->shape_pool);
	if (si == w->shapes.count) w->shapes.count += 1;
	tb_shape *s = w->shapes.data + si;
	uint32_t gen = tb_id_pool_issue(&w->shape_pool, si, s->generation);
	memset(s, 0, sizeof *s);
	tb_broad_phase_forget_old_box(w, si);
	s->generation = gen;
	s->in_use = true;
	s->geom = *g;
	s->body = bi;
	s->density = density;
	s->friction = friction;
	s->restitution = restitution;
	s->filter = filter;
	s->is_sensor = sensor;
	s->enabled = enabled;
	s->user_data = user_data;
	s->proxy = TB_NULL_INDEX;
	s->chain_id = -1;
	s->sensor_index = TB_NULL_INDEX;
	s->enable_sensor_events = true;
	s->enable_contact_events = true;
	s->enable_hit_events = true;

	/* append: shapes are listed in creation order */
	tb_body *b = w->bodies.data + bi;
	s->next_in_body = TB_NULL_INDEX;
	s->prev_in_body = b->tail_shape;
	if (b->tail_shape != TB_NULL_INDEX) w->shapes.data[b->tail_shape].next_in_body = si;
	else b->head_shape = si;
	b->tail_shape = si;
	b->shape_count += 1;
	return si;
}

tb_shape_id tb_create_shape(tb_world *w, tb_body_id body, const tb_shape_def *def, const tb_geometry *g,
                            tb_status *status)
{
	tb_status ignored;
	if (status == NULL) status = &ignored;
	tb_body *b = tb_body_lookup(w, body);
	if (b == NULL) { *status = TB_ERR_STALE_HANDLE; return tb_null_shape_id; }
	if (w->locked) { *status = TB_ERR_LOCKED; return tb_null_shape_id; }
	if (def == NULL || g == NULL || g->type == TB_SHAPE_CHAIN_SEGMENT) {
		*status = TB_ERR_INVALID_ARGUMENT;
		return tb_null_shape_id;
	}
	tb_status ms = check_material(def->density, def->friction, def->restitution, def->rolling_resistance,
	                              def->tangent_speed);
	if (ms == TB_OK && !tb_is_valid_vec2(def->one_way)) ms = TB_ERR_INVALID_NUMBER;
	if (ms != TB_OK) {
		*status = ms;
		return tb_null_shape_id;
	}
	int32_t bi = body.index1 - 1;
	tb_status gs = tb_validate_geometry(g);
	tb_mass_data md;
	bool has_mass;
	if (gs == TB_OK) gs = check_shape_mass(g, def->density, &md, &has_mass);
	tb_mass_sum sum;
	if (gs == TB_OK) gs = tb_check_body_mass(w, bi, TB_NULL_INDEX, has_mass ? &md : NULL, &sum);
	/* everything the shape needs, before anything changes */
	if (gs == TB_OK) gs = reserve_shape_slots(w, 1);
	if (gs == TB_OK && b->enabled && def->is_enabled) gs = reserve_proxies(w, bi, 1);
	if (gs == TB_OK && def->is_sensor && !tb_reserve_sensor_slot(w)) gs = TB_ERR_OUT_OF_MEMORY;
	if (gs != TB_OK) { *status = gs; return tb_null_shape_id; }

	int32_t si = add_shape(w, bi, g, def->density, def->friction, def->restitution, def->filter, def->is_sensor,
	                       def->is_enabled, def->user_data);
	tb_shape *s = w->shapes.data + si;
	s->enable_sensor_events = def->enable_sensor_events;
	s->enable_contact_events = def->enable_contact_events;
	s->enable_hit_events = def->enable_hit_events;
	s->rolling_resistance = def->rolling_resistance;
	s->tangent_speed = def->tangent_speed;
	s->one_way = unit_or_zero(def->one_way);
	if (def->is_sensor) tb_sensor_create(w, si);
	if (b->enabled && s->enabled) tb_create_shape_proxy(w, si);
	/* the new shape is last in the list, where the check added it */
	if (def->density > 0.0f || b->shape_count == 1) tb_apply_body_mass(w, bi, &sum);
	else {
		/* massless shape: only the extents change */
		tb_body_sim *sim = w->sims.data + bi;
		sim->min_extent = tb_minf(sim->min_extent, tb_shape_min_extent(s));
		sim->max_extent = tb_maxf(sim->max_extent, tb_shape_max_extent(s, sim->local_center));
	}
	*status = TB_OK;
	return tb_make_shape_id(w, si);
}

tb_shape_id tb_create_circle_shape(tb_world *w, tb_body_id body, const tb_shape_def *def, const tb_circle *c,
                                   tb_status *status)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CIRCLE;
	g.circle = *c;
	return tb_create_shape(w, body, def, &g, status);
}

tb_shape_id tb_create_capsule_shape(tb_world *w, tb_body_id body, const tb_shape_def *def, const tb_capsule *c,
                                    tb_status *status)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	g.capsule = *c;
	return tb_create_shape(w, body, def, &g, status);
}

tb_shape_id tb_create_segment_shape(tb_world *w, tb_body_id body, const tb_shape_def *def, const tb_segment *seg,
                                    tb_status *status)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_SEGMENT;
	g.segment = *seg;
	return tb_create_shape(w, body, def, &g, status);
}

tb_shape_id tb_create_polygon_shape(tb_world *w, tb_body_id body, const tb_shape_def *def, const tb_polygon *p,
                                    tb_status *status)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_POLYGON;
	g.polygon = *p;
	return tb_create_shape(w, body, def, &g, status);
}

int tb_create_chain(tb_world *w, tb_body_id body, const tb_chain_def *def, tb_shape_id *out, int capacity,
                    tb_status *status)
{
	tb_status ignored;
	if (status == NULL) status = &ignored;
	tb_body *b = tb_body_lookup(w, body);
	if (b == NULL) { *status = TB_ERR_STALE_HANDLE; return -1; }
	if (w->locked) { *status = TB_ERR_LOCKED; return -1; }
	if (def == NULL || def->points == NULL) { *status = TB_ERR_INVALID_ARGUMENT; return -1; }
	int n = def->count;
	if (n < 2 || (def->loop && n < 3)) { *status = TB_ERR_TOO_FEW_VERTICES; return -1; }
	tb_status ms = check_surface(def->friction, def->restitution, def->rolling_resistance, def->tangent_speed);
	if (ms != TB_OK) {
		*status = ms;
		return -1;
	}
	for (int i = 0; i < n; ++i) {
		if (!tb_is_valid_vec2(def->points[i]) || fabsf(def->points[i].x) >= TB_HUGE ||
		    fabsf(def->points[i].y) >= TB_HUGE) {
			*status = TB_ERR_INVALID_NUMBER;
			return -1;
		}
	}
	const tb_vec2 *p = def->points;
	int links = def->loop ? n : n - 1;
	for (int i = 0; i < links; ++i) {
		if (tb_distance_sq(p[i], p[(i + 1) % n]) <= TB_MIN_FEATURE * TB_MIN_FEATURE) {
			*status = TB_ERR_DEGENERATE;
			return -1;
		}
	}

	int32_t bi = body.index1 - 1;
	tb_status rs = reserve_shape_slots(w, links);
	if (rs == TB_OK && b->enabled) rs = reserve_proxies(w, bi, links);
	if (rs != TB_OK) { *status = rs; return -1; }
	int32_t chain_id = w->next_chain_id++;
	for (int i = 0; i < links; ++i) {
		tb_geometry g;
		memset(&g, 0, sizeof g);
		g.type = TB_SHAPE_CHAIN_SEGMENT;
		tb_chain_segment *cs = &g.chain_segment;
		int i1 = i, i2 = (i + 1) % n;
		cs->segment.point1 = p[i1];
		cs->segment.point2 = p[i2];
		/* open chains extrapolate their end ghosts straight on, so the ends are not smoothed */
		if (def->loop || i > 0) cs->ghost1 = p[(i1 + n - 1) % n];
		else cs->ghost1 = tb_sub(tb_mul_sv(2.0f, p[0]), p[1]);
		if (def->loop || i < links - 1) cs->ghost2 = p[(i2 + 1) % n];
		else cs->ghost2 = tb_sub(tb_mul_sv(2.0f, p[n - 1]), p[n - 2]);
		cs->chain_id = chain_id;
		int32_t si = add_shape(w, bi, &g, 0.0f, def->friction, def->restitution, def->filter, false, true,
		                       def->user_data);
		w->shapes.data[si].chain_id = chain_id;
		w->shapes.data[si].enable_sensor_events = def->enable_sensor_events;
		w->shapes.data[si].rolling_resistance = def->rolling_resistance;
		w->shapes.data[si].tangent_speed = def->tangent_speed;
		if (b->enabled) tb_create_shape_proxy(w, si);
		if (out && i < capacity) out[i] = tb_make_shape_id(w, si);
	}
	tb_update_body_mass(w, bi);
	*status = TB_OK;
	return links;
}

void tb_destroy_shape_internal(tb_world *w, int32_t si, bool wake)
{
	tb_shape *s = w->shapes.data + si;
	int32_t bi = s->body;
	tb_body *b = w->bodies.data + bi;
	if (s->proxy != TB_NULL_INDEX) {
		tb_destroy_shape_contacts(w, si, wake);
		tb_broad_phase_unbuffer(w, si);
		tb_dynamic_tree_destroy_proxy(&w->broad_phase.trees[s->tree], s->proxy);
		s->proxy = TB_NULL_INDEX;
	}
	if (s->sensor_index != TB_NULL_INDEX) tb_sensor_destroy(w, si);

	if (s->prev_in_body != TB_NULL_INDEX) w->shapes.data[s->prev_in_body].next_in_body = s->next_in_body;
	else b->head_shape = s->next_in_body;
	if (s->next_in_body != TB_NULL_INDEX) w->shapes.data[s->next_in_body].prev_in_body = s->prev_in_body;
	else b->tail_shape = s->prev_in_body;
	b->shape_count -= 1;

	s->in_use = false;
	s->generation += 1;
	s->user_data = NULL;
	s->field.kind = TB_FIELD_NONE;
	tb_free_id(&w->shape_pool, si);
}

void tb_destroy_shape(tb_world *w, tb_shape_id id, bool update_mass)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL || w->locked) return;
	int32_t bi = s->body;
	tb_destroy_shape_internal(w, id.index1 - 1, true);
	if (update_mass) tb_update_body_mass(w, bi);
	tb_wake_body(w, bi);
}

bool tb_shape_is_valid(const tb_world *w, tb_shape_id id) { return tb_shape_lookup(w, id) != NULL; }

tb_shape_type tb_shape_get_type(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->geom.type : TB_SHAPE_CIRCLE;
}

tb_body_id tb_shape_get_body(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? tb_make_body_id(w, s->body) : tb_null_body_id;
}

tb_geometry tb_shape_get_geometry(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	if (s) return s->geom;
	tb_geometry g;
	memset(&g, 0, sizeof g);
	return g;
}

/* Re-creating the proxy drops stale contacts (their features changed) and
 * re-finds pairs with the new bounds next step. The proxy goes back to the
 * node it left, so only a shape without one needs room (reserve_proxies). */
static void refresh_shape(tb_world *w, int32_t si)
{
	tb_shape *s = w->shapes.data + si;
	tb_body *b = w->bodies.data + s->body;
	if (s->proxy != TB_NULL_INDEX) {
		tb_destroy_shape_proxy(w, si);
		tb_create_shape_proxy(w, si);
	} else if (b->enabled && s->enabled) {
		tb_create_shape_proxy(w, si);
	}
	tb_wake_body(w, s->body);
}

/* The shape of a live id and why it may not change, or TB_OK. */
static tb_status lookup_mut(tb_world *w, tb_shape_id id, tb_shape **shape)
{
	*shape = tb_shape_lookup(w, id);
	if (*shape == NULL) return TB_ERR_STALE_HANDLE;
	if (w->locked) return TB_ERR_LOCKED;
	return TB_OK;
}

tb_status tb_shape_set_geometry(tb_world *w, tb_shape_id id, const tb_geometry *g)
{
	tb_shape *s;
	tb_status st = lookup_mut(w, id, &s);
	if (st != TB_OK) return st;
	if (g == NULL || g->type == TB_SHAPE_CHAIN_SEGMENT || s->geom.type == TB_SHAPE_CHAIN_SEGMENT)
		return TB_ERR_WRONG_TYPE;
	int32_t si = id.index1 - 1;
	st = tb_validate_geometry(g);
	tb_mass_data md;
	bool has_mass;
	if (st == TB_OK) st = check_shape_mass(g, s->density, &md, &has_mass);
	tb_mass_sum sum;
	if (st == TB_OK) st = tb_check_body_mass(w, s->body, si, has_mass ? &md : NULL, &sum);
	if (st == TB_OK && s->proxy == TB_NULL_INDEX) st = reserve_proxies(w, s->body, 1);
	if (st != TB_OK) return st;
	s->geom = *g;
	tb_apply_body_mass(w, s->body, &sum);
	refresh_shape(w, si);
	return TB_OK;
}

float tb_shape_get_density(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->density : 0.0f;
}

tb_status tb_shape_set_density(tb_world *w, tb_shape_id id, float density, bool update_mass)
{
	tb_shape *s;
	tb_status st = lookup_mut(w, id, &s);
	if (st != TB_OK) return st;
	if (!isfinite(density)) return TB_ERR_INVALID_NUMBER;
	if (density < 0.0f) return TB_ERR_NEGATIVE;
	if (s->geom.type == TB_SHAPE_CHAIN_SEGMENT || s->geom.type == TB_SHAPE_SEGMENT) return TB_OK;
	tb_mass_data md;
	bool has_mass;
	st = check_shape_mass(&s->geom, density, &md, &has_mass);
	tb_mass_sum sum;
	if (st == TB_OK) st = tb_check_body_mass(w, s->body, id.index1 - 1, has_mass ? &md : NULL, &sum);
	if (st != TB_OK) return st;
	s->density = density;
	if (update_mass) tb_apply_body_mass(w, s->body, &sum);
	tb_wake_body(w, s->body);
	return TB_OK;
}

/* Contacts cache the mixed material, so a change is pushed into them; `wake`
 * wakes what touches the shape (a belt that starts must move what sleeps on
 * it, even when the belt is static). */
static void update_contact_materials(tb_world *w, int32_t si, bool wake)
{
	tb_body_edge_iter it = tb_body_contacts(w, w->shapes.data[si].body);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) {
		const tb_contact *c = w->contacts.data + e.contact;
		if (c->shape_a != si && c->shape_b != si) continue;
		tb_update_contact_material(w, e.contact);
		if (wake && (c->flags & TB_CONTACT_TOUCHING)) tb_wake_body(w, e.other);
	}
	if (wake) tb_wake_body(w, w->shapes.data[si].body);
}

float tb_shape_get_friction(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->friction : 0.0f;
}

tb_status tb_shape_set_friction(tb_world *w, tb_shape_id id, float friction)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	if (!isfinite(friction)) return TB_ERR_INVALID_NUMBER;
	if (friction < 0.0f) return TB_ERR_NEGATIVE;
	s->friction = friction;
	update_contact_materials(w, id.index1 - 1, false);
	return TB_OK;
}

float tb_shape_get_restitution(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->restitution : 0.0f;
}

tb_status tb_shape_set_restitution(tb_world *w, tb_shape_id id, float restitution)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	if (!isfinite(restitution)) return TB_ERR_INVALID_NUMBER;
	if (restitution < 0.0f) return TB_ERR_NEGATIVE;
	s->restitution = restitution;
	update_contact_materials(w, id.index1 - 1, false);
	return TB_OK;
}

float tb_shape_get_rolling_resistance(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->rolling_resistance : 0.0f;
}

tb_status tb_shape_set_rolling_resistance(tb_world *w, tb_shape_id id, float rolling_resistance)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	if (!isfinite(rolling_resistance)) return TB_ERR_INVALID_NUMBER;
	if (rolling_resistance < 0.0f) return TB_ERR_NEGATIVE;
	s->rolling_resistance = rolling_resistance;
	update_contact_materials(w, id.index1 - 1, false);
	return TB_OK;
}

float tb_shape_get_tangent_speed(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->tangent_speed : 0.0f;
}

tb_status tb_shape_set_tangent_speed(tb_world *w, tb_shape_id id, float speed)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	if (!isfinite(speed) || fabsf(speed) > TB_HUGE) return TB_ERR_INVALID_NUMBER;
	s->tangent_speed = speed;
	update_contact_materials(w, id.index1 - 1, true);
	return TB_OK;
}

tb_vec2 tb_shape_get_one_way(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->one_way : tb_vec2_zero;
}

tb_status tb_shape_set_one_way(tb_world *w, tb_shape_id id, tb_vec2 up)
{
	tb_shape *s;
	tb_status st = lookup_mut(w, id, &s);
	if (st != TB_OK) return st;
	if (!tb_is_valid_vec2(up)) return TB_ERR_INVALID_NUMBER;
	int32_t si = id.index1 - 1;
	s->one_way = unit_or_zero(up);
	tb_body_edge_iter it = tb_body_contacts(w, s->body);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) {
		tb_contact *c = w->contacts.data + e.contact;
		if (c->shape_a != si && c->shape_b != si) continue;
		c->flags &= ~(uint32_t)(TB_CONTACT_ONE_WAY | TB_CONTACT_PASSING);
		if (tb_shape_is_one_way(w->shapes.data + c->shape_a) || tb_shape_is_one_way(w->shapes.data + c->shape_b))
			c->flags |= TB_CONTACT_ONE_WAY;
		tb_wake_body(w, e.other);
	}
	tb_wake_body(w, s->body);
	return TB_OK;
}

bool tb_shape_is_sensor(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s && s->is_sensor;
}

tb_status tb_shape_set_sensor(tb_world *w, tb_shape_id id, bool sensor)
{
	tb_shape *s;
	tb_status st = lookup_mut(w, id, &s);
	if (st != TB_OK || s->is_sensor == sensor) return st;
	if (s->geom.type == TB_SHAPE_CHAIN_SEGMENT) return TB_ERR_WRONG_TYPE;
	int32_t si = id.index1 - 1;
	if (s->proxy == TB_NULL_INDEX && (st = reserve_proxies(w, s->body, 1)) != TB_OK) return st;
	if (sensor && !tb_sensor_create(w, si)) return TB_ERR_OUT_OF_MEMORY;
	s->is_sensor = sensor;
	if (!sensor && s->field.kind == TB_FIELD_NONE) tb_sensor_destroy(w, si);
	refresh_shape(w, si);
	return TB_OK;
}

bool tb_shape_is_enabled(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s && s->enabled;
}

tb_status tb_shape_set_enabled(tb_world *w, tb_shape_id id, bool enabled)
{
	tb_shape *s;
	tb_status st = lookup_mut(w, id, &s);
	if (st != TB_OK || s->enabled == enabled) return st;
	int32_t si = id.index1 - 1;
	bool body_enabled = w->bodies.data[s->body].enabled;
	if (enabled && body_enabled && (st = reserve_proxies(w, s->body, 1)) != TB_OK) return st;
	s->enabled = enabled;
	if (!enabled) tb_destroy_shape_proxy(w, si);
	else if (body_enabled) tb_create_shape_proxy(w, si);
	tb_wake_body(w, s->body);
	return TB_OK;
}

tb_filter tb_shape_get_filter(const tb_world *w, tb_shape_id id)
{
	tb_filter none = {0, 0, 0};
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->filter : none;
}

tb_status tb_shape_set_filter(tb_world *w, tb_shape_id id, tb_filter filter)
{
	tb_shape *s;
	tb_status st = lookup_mut(w, id, &s);
	if (st != TB_OK) return st;
	s->filter = filter;
	int32_t si = id.index1 - 1;
	if (s->proxy != TB_NULL_INDEX) {
		/* the tree stores category bits for query masks: re-insert (into the
		 * node it left, so no memory is needed) */
		tb_destroy_shape_proxy(w, si);
		tb_create_shape_proxy(w, si);
	}
	tb_wake_body(w, s->body);
	return TB_OK;
}

tb_status tb_shape_enable_contact_events(tb_world *w, tb_shape_id id, bool flag)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	s->enable_contact_events = flag;
	return TB_OK;
}

tb_status tb_shape_enable_hit_events(tb_world *w, tb_shape_id id, bool flag)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	s->enable_hit_events = flag;
	return TB_OK;
}

tb_status tb_shape_enable_sensor_events(tb_world *w, tb_shape_id id, bool flag)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	s->enable_sensor_events = flag;
	return TB_OK;
}

void *tb_shape_get_user_data(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->user_data : NULL;
}

tb_status tb_shape_set_user_data(tb_world *w, tb_shape_id id, void *data)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	s->user_data = data;
	return TB_OK;
}

int32_t tb_shape_get_chain_id(const tb_world *w, tb_shape_id id)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	return s ? s->chain_id : -1;
}
