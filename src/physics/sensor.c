/* tumble physics: sensors (overlap events) and the force fields ("areas") they carry.
 *
 * A sensor record exists for every shape that is a sensor or carries a field.
 * Overlaps are recomputed from scratch at the end of each step, after positions
 * are final: a broad-phase query around the shape, then an exact distance test.
 * The sorted visitor list is compared with last step's list to produce enter
 * and exit events, so the events never depend on how the shapes moved in
 * between, only on where they are. A field acts on its sensor's visitors in
 * every substep; the list is topped up at the start of each step so a body
 * placed inside between steps feels the field in that very step. */
#include "world.h"

/* The generation stored with an overlap has its top bit set when a begin event
 * was reported for it, so exactly one end event follows each begin even when
 * the sensor or visitor flags change in between. Fields act on every overlap,
 * reported or not: a visitor's enable_sensor_events only silences the events. */
#define TB_OVERLAP_REPORTED 0x80000000u
/* Set on an overlap added between end-of-step updates (field refresh), so the
 * next update still treats it as an arrival for waking. */
#define TB_OVERLAP_FRESH 0x40000000u
/* Set on an overlap found gone by a field refresh but not yet reported gone. */
#define TB_OVERLAP_ABSENT 0x20000000u
#define TB_GENERATION_MASK 0x1fffffffu

/* Is the shape remembered in an overlap entry still the one in that slot? */
static bool overlap_is_live(const tb_world *w, int32_t shape, uint32_t stored)
{
	const tb_shape *s = w->shapes + shape;
	return s->in_use && (s->generation & TB_GENERATION_MASK) == (stored & TB_GENERATION_MASK);
}

/* ---- records ---- */

void tb_sensor_create(tb_world *w, int32_t shape)
{
	tb_shape *s = w->shapes + shape;
	if (s->sensor_index != TB_NULL_INDEX) return;
	/* a world that never had sensors may hold a zeroed free list head */
	if (w->sensor_capacity == 0) w->sensor_free = TB_NULL_INDEX;
	if (w->sensor_free == TB_NULL_INDEX) {
		/* free slots are linked through their shape field */
		int32_t old_capacity = w->sensor_capacity;
		TB_RESERVE(w->sensors, w->sensor_capacity, old_capacity + 1);
		for (int32_t i = w->sensor_capacity - 1; i >= old_capacity; --i) {
			w->sensors[i].in_use = false;
			w->sensors[i].shape = w->sensor_free;
			w->sensor_free = i;
		}
	}
	int32_t index = w->sensor_free;
	tb_sensor *sensor = w->sensors + index;
	w->sensor_free = sensor->shape;
	memset(sensor, 0, sizeof *sensor);
	sensor->shape = shape;
	sensor->in_use = true;
	s->sensor_index = index;
}

/* No events are emitted here: the shape is going away (or stops being watched),
 * and a visitor leaving a destroyed sensor is not a crossing of its boundary.
 * Callers that destroy a shape already know about it. */
void tb_sensor_destroy(tb_world *w, int32_t shape)
{
	tb_shape *s = w->shapes + shape;
	int32_t index = s->sensor_index;
	if (index == TB_NULL_INDEX) return;
	tb_sensor *sensor = w->sensors + index;
	tb_free(sensor->overlaps);
	tb_free(sensor->overlap_gens);
	tb_free(sensor->next);
	tb_free(sensor->next_gens);
	memset(sensor, 0, sizeof *sensor);
	sensor->in_use = false;
	sensor->shape = w->sensor_free;
	w->sensor_free = index;
	s->sensor_index = TB_NULL_INDEX;
}

/* ---- overlap detection ---- */

/* An index list and its generations share one capacity (and travel together
 * when the lists are swapped), so they grow together. */
static void reserve_lists(int32_t **indices, uint32_t **gens, int32_t *capacity, int32_t needed)
{
	if (needed <= *capacity) return;
	int index_capacity = *capacity, gens_capacity = *capacity;
	*indices = tb_grow_array(*indices, (int)sizeof(int32_t), &index_capacity, needed);
	*gens = tb_grow_array(*gens, (int)sizeof(uint32_t), &gens_capacity, needed);
	TB_ASSERT(index_capacity == gens_capacity);
	*capacity = index_capacity;
}

/* The lists of this step become the lists of the last step. */
static void swap_lists(tb_sensor *sensor)
{
	int32_t *indices = sensor->overlaps;
	uint32_t *gens = sensor->overlap_gens;
	int32_t capacity = sensor->overlap_capacity;
	sensor->overlaps = sensor->next;
	sensor->overlap_gens = sensor->next_gens;
	sensor->overlap_capacity = sensor->next_capacity;
	sensor->overlap_count = sensor->next_count;
	sensor->next = indices;
	sensor->next_gens = gens;
	sensor->next_capacity = capacity;
	sensor->next_count = 0;
}

typedef struct tb_sensor_query {
	tb_world *world;
	tb_sensor *sensor;
	const tb_shape *shape;
	tb_shape_proxy proxy;
	tb_transform xf;
} tb_sensor_query;

static bool sensor_query_fn(int32_t proxy_id, int32_t user_data, void *context)
{
	tb_sensor_query *q = context;
	tb_world *w = q->world;
	int32_t vi = user_data;
	const tb_shape *sensor_shape = q->shape;
	if (vi == q->sensor->shape) return true;
	const tb_shape *v = w->shapes + vi;
	if (!v->in_use || !v->enabled || v->is_sensor) return true;
	if (v->body == sensor_shape->body) return true;
	const tb_body *vb = w->bodies + v->body;
	if (!vb->in_use || !vb->enabled) return true;
	if (!tb_should_shapes_collide(sensor_shape->filter, v->filter)) return true;
	if (!tb_aabb_overlaps(sensor_shape->aabb, v->aabb)) return true;

	/* GJK works for every pair, chains and segments included, and is two-sided,
	 * which is what a volume test wants. Touching counts as inside. */
	tb_shape_proxy vp = tb_geometry_proxy(&v->geom);
	tb_distance_output d = tb_shape_distance(&q->proxy, q->xf, &vp, w->sims[v->body].transform);
	if (d.distance > 0.0f) return true;

	tb_sensor *sensor = q->sensor;
	reserve_lists(&sensor->next, &sensor->next_gens, &sensor->next_capacity, sensor->next_count + 1);
	sensor->next[sensor->next_count++] = vi;
	return true;
}

static int compare_indices(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Fills sensor->next with the shapes overlapping the sensor now, sorted by slot.
 * next_gens holds their current generations, without flag bits. */
static void collect_overlaps(tb_world *w, tb_sensor *sensor)
{
	sensor->next_count = 0;
	const tb_shape *s = w->shapes + sensor->shape;
	const tb_body *b = w->bodies + s->body;
	if (!s->enabled || !b->enabled) return;

	tb_sensor_query q;
	q.world = w;
	q.sensor = sensor;
	q.shape = s;
	q.proxy = tb_geometry_proxy(&s->geom);
	q.xf = w->sims[s->body].transform;
	for (int t = 0; t < 2; ++t) {
		tb_dynamic_tree_query(&w->broad_phase.trees[t], s->aabb, UINT64_MAX, sensor_query_fn, &q);
	}
	if (sensor->next_count > 1) qsort(sensor->next, (size_t)sensor->next_count, sizeof(int32_t), compare_indices);
	for (int32_t i = 0; i < sensor->next_count; ++i) {
		sensor->next_gens[i] = w->shapes[sensor->next[i]].generation & TB_GENERATION_MASK;
	}
}

/* Brings the overlap list up to date without events: shapes that entered are
 * added, marked fresh and not reported; shapes that left stay, marked absent,
 * so the end-of-step update still reports their exit. Fields skip absent ones.
 * This lets a field act on what is inside it now rather than at the end of
 * the last step. */
static void refresh_overlaps(tb_world *w, tb_sensor *sensor)
{
	collect_overlaps(w, sensor);
	int32_t old_count = sensor->overlap_count, new_count = sensor->next_count;

	/* the union's size first, then merge from the back, in place */
	int32_t total = 0;
	for (int32_t i = 0, j = 0; i < old_count || j < new_count; ++total) {
		int32_t a = i < old_count ? sensor->overlaps[i] : INT32_MAX;
		int32_t b = j < new_count ? sensor->next[j] : INT32_MAX;
		if (a == b && (sensor->overlap_gens[i] & TB_GENERATION_MASK) == sensor->next_gens[j]) {
			i += 1;
			j += 1;
		} else if (a <= b) {
			i += 1;
		} else {
			j += 1;
		}
	}
	reserve_lists(&sensor->overlaps, &sensor->overlap_gens, &sensor->overlap_capacity, total);

	/* Walking backwards mirrors the forward walk: a reused slot keeps its stale
	 * entry before the new one, as update_sensor expects. */
	int32_t i = old_count - 1, j = new_count - 1;
	for (int32_t k = total - 1; k >= 0; --k) {
		int32_t a = i >= 0 ? sensor->overlaps[i] : -1;
		int32_t b = j >= 0 ? sensor->next[j] : -1;
		if (a == b && (sensor->overlap_gens[i] & TB_GENERATION_MASK) == sensor->next_gens[j]) {
			sensor->overlaps[k] = a;
			sensor->overlap_gens[k] = sensor->overlap_gens[i] & ~TB_OVERLAP_ABSENT;
			i -= 1;
			j -= 1;
		} else if (a > b) {
			sensor->overlaps[k] = a;
			sensor->overlap_gens[k] = sensor->overlap_gens[i] | TB_OVERLAP_ABSENT;
			i -= 1;
		} else {
			sensor->overlaps[k] = b;
			sensor->overlap_gens[k] = sensor->next_gens[j] | TB_OVERLAP_FRESH;
			j -= 1;
		}
	}
	TB_ASSERT(i == -1 && j == -1);
	sensor->overlap_count = total;
	sensor->next_count = 0;
}

static bool field_is_active(const tb_field *f)
{
	switch (f->kind) {
	case TB_FIELD_LINEAR: return f->force.x != 0.0f || f->force.y != 0.0f;
	case TB_FIELD_RADIAL: return f->strength != 0.0f;
	case TB_FIELD_DRAG: return f->drag != 0.0f;
	default: return false;
	}
}

/* A body asleep inside a field is in balance with it; it only needs waking when
 * the push it feels changes: entering, leaving, or the field being edited. */
static void wake_visitor(tb_world *w, int32_t vi)
{
	const tb_shape *v = w->shapes + vi;
	if (!v->in_use) return;
	const tb_body *b = w->bodies + v->body;
	if (b->in_use && b->type == TB_DYNAMIC_BODY && b->enabled && !b->awake) tb_wake_body(w, v->body);
}

static void push_sensor_event(tb_world *w, bool begin, int32_t sensor_shape, int32_t visitor, uint32_t generation)
{
	tb_sensor_event e;
	e.sensor = tb_make_shape_id(w, sensor_shape);
	e.visitor.index1 = visitor + 1;
	e.visitor.generation = generation;
	if (begin) {
		TB_RESERVE(w->sensor_begin_events, w->sensor_begin_capacity, w->sensor_begin_count + 1);
		w->sensor_begin_events[w->sensor_begin_count++] = e;
	} else {
		TB_RESERVE(w->sensor_end_events, w->sensor_end_capacity, w->sensor_end_count + 1);
		w->sensor_end_events[w->sensor_end_count++] = e;
	}
}

static void update_sensor(tb_world *w, int32_t index)
{
	tb_sensor *sensor = w->sensors + index;
	int32_t si = sensor->shape;
	const tb_shape *s = w->shapes + si;
	collect_overlaps(w, sensor);
	/* not gated on enabled: disabling a field empties the list, and the bodies
	 * it was holding up must wake to fall */
	bool wake = field_is_active(&s->field);

	/* merge walk of two sorted lists; a reused slot (same index, new
	 * generation) is a different shape: the old one left, the new one entered */
	int32_t i = 0, j = 0;
	int32_t old_count = sensor->overlap_count, new_count = sensor->next_count;
	while (i < old_count || j < new_count) {
		int32_t a = i < old_count ? sensor->overlaps[i] : INT32_MAX;
		int32_t b = j < new_count ? sensor->next[j] : INT32_MAX;
		uint32_t ga = i < old_count ? sensor->overlap_gens[i] : 0;
		bool same = a == b && (ga & TB_GENERATION_MASK) == sensor->next_gens[j];
		if (same) {
			/* still inside: follow flag changes so begin and end stay paired */
			bool was = (ga & TB_OVERLAP_REPORTED) != 0;
			bool now = s->is_sensor && w->shapes[b].enable_sensor_events;
			if (now && !was) push_sensor_event(w, true, si, b, sensor->next_gens[j]);
			if (was && !now) push_sensor_event(w, false, si, b, sensor->next_gens[j]);
			if (now) sensor->next_gens[j] |= TB_OVERLAP_REPORTED;
			if (wake && (ga & TB_OVERLAP_FRESH)) wake_visitor(w, b);
			i += 1;
			j += 1;
		} else if (a <= b) {
			/* left (or destroyed, or its slot was reused) */
			if (ga & TB_OVERLAP_REPORTED) push_sensor_event(w, false, si, a, ga & TB_GENERATION_MASK);
			if (wake && overlap_is_live(w, a, ga)) wake_visitor(w, a);
			i += 1;
		} else {
			/* entered */
			if (s->is_sensor && w->shapes[b].enable_sensor_events) {
				push_sensor_event(w, true, si, b, sensor->next_gens[j]);
				sensor->next_gens[j] |= TB_OVERLAP_REPORTED;
			}
			if (wake) wake_visitor(w, b);
			j += 1;
		}
	}

	swap_lists(sensor);
}

void tb_update_sensors(tb_world *w)
{
	w->sensor_begin_count = 0;
	w->sensor_end_count = 0;
	for (int32_t i = 0; i < w->sensor_capacity; ++i) {
		if (w->sensors[i].in_use) update_sensor(w, i);
	}
}

/* ---- fields ---- */

static tb_vec2 field_body_velocity(const tb_step_context *ctx, int32_t body)
{
	const tb_body_sim *sim = ctx->sims + body;
	if (sim->state_index >= 0) return ctx->states[sim->state_index].v;
	return sim->v;
}

static void apply_field(tb_world *w, tb_step_context *ctx, const tb_sensor *sensor, int32_t stamp)
{
	const tb_shape *s = w->shapes + sensor->shape;
	const tb_field *f = &s->field;
	int32_t fb = s->body;
	tb_transform fxf = w->sims[fb].transform;
	tb_vec2 center = tb_transform_point(fxf, f->center);
	tb_vec2 field_v = f->kind == TB_FIELD_DRAG ? field_body_velocity(ctx, fb) : tb_vec2_zero;
	float radius = 0.0f;
	if (f->kind == TB_FIELD_RADIAL && f->falloff == TB_FALLOFF_LINEAR) radius = tb_shape_max_extent(s, f->center);
	float h = ctx->h;

	for (int32_t k = 0; k < sensor->overlap_count; ++k) {
		int32_t vi = sensor->overlaps[k];
		const tb_shape *v = w->shapes + vi;
		/* the visitor may have been destroyed or disabled since the list was made */
		uint32_t gen = sensor->overlap_gens[k];
		if ((gen & TB_OVERLAP_ABSENT) || !overlap_is_live(w, vi, gen) || !v->enabled) continue;
		int32_t bi = v->body;
		const tb_body *b = w->bodies + bi;
		if (b->type != TB_DYNAMIC_BODY || !b->enabled) continue;
		const tb_body_sim *sim = ctx->sims + bi;
		if (sim->state_index < 0) continue;
		if (w->field_stamp[bi + 1] == stamp) continue; /* several shapes of one body: push once */
		w->field_stamp[bi + 1] = stamp;

		tb_body_state *st = ctx->states + sim->state_index;
		float scale = f->use_acceleration ? 1.0f : sim->inv_mass;
		switch (f->kind) {
		case TB_FIELD_LINEAR:
			st->v = tb_mul_add(st->v, h * scale, f->force);
			break;
		case TB_FIELD_RADIAL: {
			tb_vec2 c = tb_add(sim->center, st->dp);
			float dist;
			tb_vec2 u = tb_get_length_and_normalize(&dist, tb_sub(c, center));
			if (dist < 1.0e-6f) break;
			float magnitude = f->strength;
			if (f->falloff == TB_FALLOFF_LINEAR) {
				magnitude *= radius > 0.0f ? tb_maxf(0.0f, 1.0f - dist / radius) : 0.0f;
			} else if (f->falloff == TB_FALLOFF_INVERSE_SQUARE) {
				float d = tb_maxf(dist, 0.1f);
				magnitude /= d * d;
			}
			st->v = tb_mul_add(st->v, h * scale * magnitude, u);
			break;
		}
		case TB_FIELD_DRAG: {
			/* implicit in the relative velocity, so a strong drag brings the body
			 * to the field's velocity instead of overshooting and oscillating */
			float k = h * scale * f->drag;
			tb_vec2 rel = tb_sub(st->v, field_v);
			st->v = tb_mul_sub(st->v, k / (1.0f + k), rel);
			break;
		}
		default: break;
		}
	}
}

void tb_apply_fields(tb_world *w, tb_step_context *ctx)
{
	/* field_stamp[0] remembers the step whose overlaps were last refreshed; the
	 * bodies' stamps follow at body + 1. Grown slots start zeroed, and 0 is
	 * never a stamp nor a refresh mark. */
	TB_RESERVE(w->field_stamp, w->field_stamp_capacity, w->body_capacity + 1);
	if (w->field_stamp[0] != w->step_count + 1) {
		/* first substep: shapes created, moved or enabled since the last update
		 * are inside the field for this whole step, not from the next one */
		w->field_stamp[0] = w->step_count + 1;
		for (int32_t i = 0; i < w->sensor_capacity; ++i) {
			tb_sensor *sensor = w->sensors + i;
			if (!sensor->in_use) continue;
			const tb_shape *s = w->shapes + sensor->shape;
			if (s->enabled && field_is_active(&s->field)) refresh_overlaps(w, sensor);
		}
	}

	for (int32_t i = 0; i < w->sensor_capacity; ++i) {
		const tb_sensor *sensor = w->sensors + i;
		if (!sensor->in_use || sensor->overlap_count == 0) continue;
		const tb_shape *s = w->shapes + sensor->shape;
		if (!s->enabled || !field_is_active(&s->field)) continue;
		if (!w->bodies[s->body].enabled) continue;
		int32_t stamp = i + 1;
		apply_field(w, ctx, sensor, stamp);
		/* clear the stamps again so the next field (or substep) starts clean
		 * without a counter that would have to live in the world */
		for (int32_t k = 0; k < sensor->overlap_count; ++k) {
			const tb_shape *v = w->shapes + sensor->overlaps[k];
			if (v->in_use && v->body >= 0 && v->body < w->body_capacity) w->field_stamp[v->body + 1] = 0;
		}
	}
}

/* ---- public ---- */

static tb_status validate_field(const tb_field *f)
{
	if ((int)f->kind < TB_FIELD_NONE || (int)f->kind > TB_FIELD_DRAG) return TB_ERR_INVALID_ARGUMENT;
	if ((int)f->falloff < TB_FALLOFF_NONE || (int)f->falloff > TB_FALLOFF_INVERSE_SQUARE) return TB_ERR_INVALID_ARGUMENT;
	if (!tb_is_valid_vec2(f->force) || !tb_is_valid_float(f->strength) || !tb_is_valid_vec2(f->center) ||
	    !tb_is_valid_float(f->drag))
		return TB_ERR_INVALID_NUMBER;
	if (f->drag < 0.0f) return TB_ERR_NEGATIVE;
	return TB_OK;
}

tb_status tb_shape_set_field(tb_world *w, tb_shape_id id, const tb_field *field)
{
	tb_shape *s = tb_get_shape(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	if (w->locked) return TB_ERR_LOCKED;
	if (field != NULL) {
		tb_status status = validate_field(field);
		if (status != TB_OK) return status;
	}
	int32_t si = id.index1 - 1;
	bool remove = field == NULL || field->kind == TB_FIELD_NONE;

	/* whoever the old field was pushing now feels something else */
	if (s->sensor_index != TB_NULL_INDEX && field_is_active(&s->field)) {
		const tb_sensor *sensor = w->sensors + s->sensor_index;
		for (int32_t k = 0; k < sensor->overlap_count; ++k) {
			int32_t vi = sensor->overlaps[k];
			if (overlap_is_live(w, vi, sensor->overlap_gens[k])) wake_visitor(w, vi);
		}
	}

	if (remove) {
		memset(&s->field, 0, sizeof s->field);
		if (!s->is_sensor) tb_sensor_destroy(w, si);
		return TB_OK;
	}

	s->field = *field;
	if (s->sensor_index == TB_NULL_INDEX) tb_sensor_create(w, si);
	/* learn who is inside now so they can be woken; the step refreshes the list
	 * again before the field first acts */
	refresh_overlaps(w, w->sensors + s->sensor_index);
	if (field_is_active(&s->field)) {
		const tb_sensor *sensor = w->sensors + s->sensor_index;
		for (int32_t k = 0; k < sensor->overlap_count; ++k) {
			int32_t vi = sensor->overlaps[k];
			if (overlap_is_live(w, vi, sensor->overlap_gens[k])) wake_visitor(w, vi);
		}
	}
	return TB_OK;
}

bool tb_shape_get_field(const tb_world *w, tb_shape_id id, tb_field *out)
{
	const tb_shape *s = tb_get_shape(w, id);
	bool has = s != NULL && s->field.kind != TB_FIELD_NONE;
	if (out != NULL) {
		if (has) *out = s->field;
		else memset(out, 0, sizeof *out);
	}
	return has;
}

tb_sensor_events tb_world_get_sensor_events(const tb_world *w)
{
	tb_sensor_events e;
	e.begin = w->sensor_begin_events;
	e.begin_count = w->sensor_begin_count;
	e.end = w->sensor_end_events;
	e.end_count = w->sensor_end_count;
	return e;
}
