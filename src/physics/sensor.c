/* tumble physics: sensors (overlap events) and the force fields ("areas") they carry.
 *
 * A sensor record exists for every shape that is a sensor or carries a field.
 * Overlaps are recomputed from scratch at the end of each step, after positions
 * are final: a broad-phase query around the shape, then an exact distance test.
 * The sorted visitor list is compared with last step's list to produce enter
 * and exit events, so the events never depend on how the shapes moved in
 * between, only on where they are. A field acts on its sensor's visitors in
 * every substep; the list is topped up at the start of each step so a body
 * placed inside between steps feels the field in that very step.
 *
 * Every sensor's list is a segment of one world array (sensor.h). An update
 * first collects every segment into the other array, then reserves the events
 * it can raise, then compares and swaps: if memory runs out on the way, the
 * update is left out whole (the step reports it) and the lists stay as they were. */
#include "world.h"

/* The generation stored with an overlap has its top bit set when a begin event
 * was reported for it, so exactly one end event follows each begin even when
 * the sensor or visitor flags change in between, or the sensor goes. Fields act
 * on every overlap, reported or not: a visitor's enable_sensor_events only
 * silences the events. */
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
	const tb_shape *s = w->shapes.data + shape;
	return s->in_use && (s->generation & TB_GENERATION_MASK) == (stored & TB_GENERATION_MASK);
}

static tb_sensor_overlap *segment(const tb_world *w, const tb_sensor *sensor)
{
	/* no overlaps yet: no array to offset (first is 0 then) */
	return w->overlaps.data != NULL ? w->overlaps.data + sensor->first : NULL;
}

/* ---- records ---- */

bool tb_reserve_sensor_slot(tb_world *w)
{
	tb_id_pool *pool = &w->sensor_pool;
	if (tb_id_pool_peek(pool) < pool->next_index) return true;
	int32_t n = pool->next_index + 1;
	return tb_sensor_array_reserve(&w->allocator, &w->sensors, n) && tb_id_pool_reserve(&w->allocator, pool, n);
}

bool tb_sensor_create(tb_world *w, int32_t shape)
{
	tb_shape *s = w->shapes.data + shape;
	if (s->sensor_index != TB_NULL_INDEX) return true;
	if (!tb_reserve_sensor_slot(w)) return false;
	int32_t index = tb_alloc_id(&w->sensor_pool);
	if (index == w->sensors.count) w->sensors.count += 1;
	tb_sensor *sensor = w->sensors.data + index;
	memset(sensor, 0, sizeof *sensor);
	sensor->shape = shape;
	sensor->in_use = true;
	s->sensor_index = index;
	return true;
}

/* A visitor leaving a destroyed sensor did not cross its boundary, but a begin
 * was reported and the end is promised: it comes with the next step, as the
 * end events of destroyed contacts do. Room for it was reserved by the update
 * that reported the begin. */
void tb_sensor_destroy(tb_world *w, int32_t shape)
{
	tb_shape *s = w->shapes.data + shape;
	int32_t index = s->sensor_index;
	if (index == TB_NULL_INDEX) return;
	tb_sensor *sensor = w->sensors.data + index;
	const tb_sensor_overlap *list = segment(w, sensor);
	tb_shape_id sensor_id = tb_make_shape_id(w, shape);
	for (int32_t k = 0; k < sensor->count; ++k) {
		if ((list[k].generation & TB_OVERLAP_REPORTED) == 0) continue;
		tb_sensor_event e;
		e.sensor = sensor_id;
		e.visitor.index1 = list[k].shape + 1;
		e.visitor.generation = list[k].generation & TB_GENERATION_MASK;
		tb_sensor_event_array_push_reserved(&w->pending_sensor_end_events, e);
	}
	memset(sensor, 0, sizeof *sensor);
	sensor->in_use = false;
	tb_free_id(&w->sensor_pool, index);
	s->sensor_index = TB_NULL_INDEX;
}

/* ---- overlap detection ---- */

typedef struct tb_sensor_query {
	tb_world *world;
	const tb_sensor *sensor;
	const tb_shape *shape;
	tb_shape_proxy proxy;
	tb_transform xf;
	tb_sensor_overlap_array *out;
	bool failed;
} tb_sensor_query;

static bool sensor_query_fn(int32_t proxy_id, int32_t user_data, void *context)
{
	tb_sensor_query *q = context;
	tb_world *w = q->world;
	int32_t vi = user_data;
	const tb_shape *sensor_shape = q->shape;
	if (vi == q->sensor->shape) return true;
	const tb_shape *v = w->shapes.data + vi;
	if (!v->in_use || !v->enabled || v->is_sensor) return true;
	if (v->body == sensor_shape->body) return true;
	const tb_body *vb = w->bodies.data + v->body;
	if (!vb->in_use || !vb->enabled) return true;
	if (!tb_should_shapes_collide(sensor_shape->filter, v->filter)) return true;
	if (!tb_aabb_overlaps(sensor_shape->aabb, v->aabb)) return true;

	/* GJK works for every pair, chains and segments included, and is two-sided,
	 * which is what a volume test wants. Touching counts as inside. */
	tb_shape_proxy vp = tb_geometry_proxy(&v->geom);
	tb_distance_output d = tb_shape_distance(&q->proxy, q->xf, &vp, w->sims.data[v->body].transform);
	if (d.distance > 0.0f) return true;

	tb_sensor_overlap o = {vi, 0};
	if (!tb_sensor_overlap_array_push(&w->allocator, q->out, o)) {
		q->failed = true;
		return false;
	}
	return true;
}

static int compare_overlaps(const void *a, const void *b)
{
	int32_t x = ((const tb_sensor_overlap *)a)->shape, y = ((const tb_sensor_overlap *)b)->shape;
	return (x > y) - (x < y);
}

/* Appends the shapes overlapping the sensor now to `out`, sorted by slot, with
 * their current generations and no flag bits. False when memory runs out. */
static bool collect_overlaps(tb_world *w, const tb_sensor *sensor, tb_sensor_overlap_array *out)
{
	int32_t first = out->count;
	const tb_shape *s = w->shapes.data + sensor->shape;
	const tb_body *b = w->bodies.data + s->body;
	if (!s->enabled || !b->enabled) return true;

	tb_sensor_query q;
	q.world = w;
	q.sensor = sensor;
	q.shape = s;
	q.proxy = tb_geometry_proxy(&s->geom);
	q.xf = w->sims.data[s->body].transform;
	q.out = out;
	q.failed = false;
	for (int t = 0; t < 2 && !q.failed; ++t) {
		tb_dynamic_tree_query(&w->broad_phase.trees[t], s->aabb, UINT64_MAX, sensor_query_fn, &q);
	}
	if (q.failed) return false;
	int32_t n = out->count - first;
	if (n == 0) return true; /* and out may have no array yet */
	tb_sensor_overlap *list = out->data + first;
	if (n > 1) tb_sort(list, (size_t)n, sizeof *list, compare_overlaps);
	for (int32_t i = 0; i < n; ++i) list[i].generation = w->shapes.data[list[i].shape].generation & TB_GENERATION_MASK;
	return true;
}

/* The next array becomes the current one, and each sensor's segment with it. */
static void swap_overlaps(tb_world *w)
{
	for (int32_t i = 0; i < w->sensors.count; ++i) {
		tb_sensor *sensor = w->sensors.data + i;
		if (!sensor->in_use) continue;
		sensor->first = sensor->next_first;
		sensor->count = sensor->next_count;
	}
	tb_sensor_overlap_array t = w->overlaps;
	w->overlaps = w->next_overlaps;
	w->next_overlaps = t;
	w->next_overlaps.count = 0;
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

/* Brings overlap lists up to date without events: shapes that entered are
 * added, marked fresh and not reported; shapes that left stay, marked absent,
 * so the end-of-step update still reports their exit. Fields skip absent ones.
 * This lets a field act on what is inside it now rather than at the end of
 * the last step. `only`: one sensor's list, or TB_NULL_INDEX for every enabled
 * sensor with an active field. False (lists unchanged) when memory runs out. */
static bool refresh_overlaps(tb_world *w, int32_t only)
{
	bool any = false;
	for (int32_t i = 0; i < w->sensors.count && !any; ++i) {
		const tb_sensor *sensor = w->sensors.data + i;
		if (!sensor->in_use) continue;
		const tb_shape *s = w->shapes.data + sensor->shape;
		any = only != TB_NULL_INDEX ? i == only : s->enabled && field_is_active(&s->field);
	}
	if (!any) return true;

	tb_sensor_overlap_array *next = &w->next_overlaps;
	next->count = 0;
	for (int32_t si = 0; si < w->sensors.count; ++si) {
		tb_sensor *sensor = w->sensors.data + si;
		if (!sensor->in_use) continue;
		const tb_shape *s = w->shapes.data + sensor->shape;
		const tb_sensor_overlap *old = segment(w, sensor);
		int32_t old_count = sensor->count, start = next->count;
		sensor->next_first = start;
		bool refresh = only != TB_NULL_INDEX ? si == only : s->enabled && field_is_active(&s->field);
		if (!refresh) {
			if (!tb_sensor_overlap_array_reserve(&w->allocator, next, start + old_count)) return false;
			if (old_count > 0) memcpy(next->data + start, old, (size_t)old_count * sizeof *old);
			next->count = start + old_count;
			sensor->next_count = old_count;
			continue;
		}

		if (!collect_overlaps(w, sensor, next)) return false;
		old = segment(w, sensor);
		int32_t new_count = next->count - start;
		/* the union's size first, then merge from the back, in place */
		int32_t total = 0;
		for (int32_t i = 0, j = 0; i < old_count || j < new_count; ++total) {
			int32_t a = i < old_count ? old[i].shape : INT32_MAX;
			int32_t b = j < new_count ? next->data[start + j].shape : INT32_MAX;
			if (a == b && (old[i].generation & TB_GENERATION_MASK) == next->data[start + j].generation) {
				i += 1;
				j += 1;
			} else if (a <= b) {
				i += 1;
			} else {
				j += 1;
			}
		}
		if (!tb_sensor_overlap_array_reserve(&w->allocator, next, start + total)) return false;
		/* nothing before and nothing now: no array to offset (it may have none yet) */
		tb_sensor_overlap *list = total > 0 ? next->data + start : NULL;
		/* Walking backwards mirrors the forward walk: a reused slot keeps its stale
		 * entry before the new one, as update_sensor expects. */
		int32_t i = old_count - 1, j = new_count - 1;
		for (int32_t k = total - 1; k >= 0; --k) {
			int32_t a = i >= 0 ? old[i].shape : -1;
			int32_t b = j >= 0 ? list[j].shape : -1;
			if (a == b && (old[i].generation & TB_GENERATION_MASK) == list[j].generation) {
				list[k].shape = a;
				list[k].generation = old[i].generation & ~TB_OVERLAP_ABSENT;
				i -= 1;
				j -= 1;
			} else if (a > b) {
				list[k].shape = a;
				list[k].generation = old[i].generation | TB_OVERLAP_ABSENT;
				i -= 1;
			} else {
				list[k].shape = b;
				list[k].generation = list[j].generation | TB_OVERLAP_FRESH;
				j -= 1;
			}
		}
		TB_ASSERT(i == -1 && j == -1);
		next->count = start + total;
		sensor->next_count = total;
	}
	swap_overlaps(w);
	return true;
}

/* A body asleep inside a field is in balance with it; it only needs waking when
 * the push it feels changes: entering, leaving, or the field being edited. */
static void wake_visitor(tb_world *w, int32_t vi)
{
	const tb_shape *v = w->shapes.data + vi;
	if (!v->in_use) return;
	const tb_body *b = w->bodies.data + v->body;
	if (b->in_use && b->type == TB_DYNAMIC_BODY && b->enabled && !b->awake) tb_wake_body(w, v->body);
}

/* Room was reserved by tb_update_sensors before the comparison. */
static void push_sensor_event(tb_world *w, bool begin, int32_t sensor_shape, int32_t visitor, uint32_t generation)
{
	tb_sensor_event e;
	e.sensor = tb_make_shape_id(w, sensor_shape);
	e.visitor.index1 = visitor + 1;
	e.visitor.generation = generation;
	tb_sensor_event_array_push_reserved(begin ? &w->sensor_begin_events : &w->sensor_end_events, e);
}

/* Compares a sensor's list of the last update with the one just collected. */
static void update_sensor(tb_world *w, tb_sensor *sensor)
{
	int32_t si = sensor->shape;
	const tb_shape *s = w->shapes.data + si;
	const tb_sensor_overlap *old = segment(w, sensor);
	tb_sensor_overlap *now = w->next_overlaps.data != NULL ? w->next_overlaps.data + sensor->next_first : NULL;
	/* not gated on enabled: disabling a field empties the list, and the bodies
	 * it was holding up must wake to fall */
	bool wake = field_is_active(&s->field);

	/* merge walk of two sorted lists; a reused slot (same index, new
	 * generation) is a different shape: the old one left, the new one entered */
	int32_t i = 0, j = 0;
	int32_t old_count = sensor->count, new_count = sensor->next_count;
	while (i < old_count || j < new_count) {
		int32_t a = i < old_count ? old[i].shape : INT32_MAX;
		int32_t b = j < new_count ? now[j].shape : INT32_MAX;
		uint32_t ga = i < old_count ? old[i].generation : 0;
		bool same = a == b && (ga & TB_GENERATION_MASK) == now[j].generation;
		if (same) {
			/* still inside: follow flag changes so begin and end stay paired */
			bool was = (ga & TB_OVERLAP_REPORTED) != 0;
			bool reported = s->is_sensor && w->shapes.data[b].enable_sensor_events;
			if (reported && !was) push_sensor_event(w, true, si, b, now[j].generation);
			if (was && !reported) push_sensor_event(w, false, si, b, now[j].generation);
			if (reported) now[j].generation |= TB_OVERLAP_REPORTED;
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
			if (s->is_sensor && w->shapes.data[b].enable_sensor_events) {
				push_sensor_event(w, true, si, b, now[j].generation);
				now[j].generation |= TB_OVERLAP_REPORTED;
			}
			if (wake) wake_visitor(w, b);
			j += 1;
		}
	}
}

void tb_update_sensors(tb_world *w)
{
	tb_allocator *a = &w->allocator;
	tb_sensor_overlap_array *next = &w->next_overlaps;
	next->count = 0;
	for (int32_t i = 0; i < w->sensors.count; ++i) {
		tb_sensor *sensor = w->sensors.data + i;
		if (!sensor->in_use) continue;
		sensor->next_first = next->count;
		if (!collect_overlaps(w, sensor, next)) {
			w->step_issues |= TB_STEP_OUT_OF_MEMORY;
			return;
		}
		sensor->next_count = next->count - sensor->next_first;
	}
	/* each overlap now can begin, each of the last update can end, and each
	 * reported one can be ended by a destroy before the next step */
	if (!tb_sensor_event_array_reserve(a, &w->sensor_begin_events, w->sensor_begin_events.count + next->count) ||
	    !tb_sensor_event_array_reserve(a, &w->sensor_end_events, w->sensor_end_events.count + w->overlaps.count) ||
	    !tb_sensor_event_array_reserve(a, &w->pending_sensor_end_events, next->count)) {
		w->step_issues |= TB_STEP_OUT_OF_MEMORY;
		return;
	}
	for (int32_t i = 0; i < w->sensors.count; ++i) {
		tb_sensor *sensor = w->sensors.data + i;
		if (sensor->in_use) update_sensor(w, sensor);
	}
	swap_overlaps(w);
}

/* ---- fields ---- */

static tb_vec2 field_body_velocity(const tb_step_context *ctx, int32_t body)
{
	const tb_body_sim *sim = ctx->sims + body;
	if (sim->state_index >= 0) return ctx->states[sim->state_index].linear_velocity;
	return sim->linear_velocity;
}

static void apply_field(tb_world *w, tb_step_context *ctx, const tb_sensor *sensor, int32_t stamp)
{
	const tb_shape *s = w->shapes.data + sensor->shape;
	const tb_field *f = &s->field;
	int32_t fb = s->body;
	tb_transform fxf = w->sims.data[fb].transform;
	tb_vec2 center = tb_transform_point(fxf, f->center);
	tb_vec2 field_v = f->kind == TB_FIELD_DRAG ? field_body_velocity(ctx, fb) : tb_vec2_zero;
	float radius = 0.0f;
	if (f->kind == TB_FIELD_RADIAL && f->falloff == TB_FALLOFF_LINEAR) radius = tb_shape_max_extent(s, f->center);
	float h = ctx->h;
	const tb_sensor_overlap *list = segment(w, sensor);
	int32_t *field_stamp = w->field_stamp.data;

	for (int32_t k = 0; k < sensor->count; ++k) {
		int32_t vi = list[k].shape;
		const tb_shape *v = w->shapes.data + vi;
		/* the visitor may have been destroyed or disabled since the list was made */
		uint32_t gen = list[k].generation;
		if ((gen & TB_OVERLAP_ABSENT) || !overlap_is_live(w, vi, gen) || !v->enabled) continue;
		int32_t bi = v->body;
		const tb_body *b = w->bodies.data + bi;
		if (b->type != TB_DYNAMIC_BODY || !b->enabled) continue;
		const tb_body_sim *sim = ctx->sims + bi;
		if (sim->state_index < 0) continue;
		if (field_stamp[bi + 1] == stamp) continue; /* several shapes of one body: push once */
		field_stamp[bi + 1] = stamp;

		tb_body_state *st = ctx->states + sim->state_index;
		float scale = f->use_acceleration ? 1.0f : sim->inv_mass;
		switch (f->kind) {
		case TB_FIELD_LINEAR:
			st->linear_velocity = tb_mul_add(st->linear_velocity, h * scale, f->force);
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
			st->linear_velocity = tb_mul_add(st->linear_velocity, h * scale * magnitude, u);
			break;
		}
		case TB_FIELD_DRAG: {
			/* implicit in the relative velocity, so a strong drag brings the body
			 * to the field's velocity instead of overshooting and oscillating */
			float k = h * scale * f->drag;
			tb_vec2 rel = tb_sub(st->linear_velocity, field_v);
			st->linear_velocity = tb_mul_sub(st->linear_velocity, k / (1.0f + k), rel);
			break;
		}
		default: break;
		}
	}
}

void tb_apply_fields(tb_world *w, tb_step_context *ctx)
{
	/* field_stamp[0] remembers the step whose overlaps were last refreshed; the
	 * bodies' stamps follow at body + 1 (reserved by the step). Grown slots start
	 * zeroed, and 0 is never a stamp nor a refresh mark. */
	int32_t *field_stamp = w->field_stamp.data;
	if (field_stamp[0] != w->step_count + 1) {
		/* first substep: shapes created, moved or enabled since the last update
		 * are inside the field for this whole step, not from the next one; out of
		 * memory, the fields act on the lists of the last update */
		field_stamp[0] = w->step_count + 1;
		if (!refresh_overlaps(w, TB_NULL_INDEX)) w->step_issues |= TB_STEP_OUT_OF_MEMORY;
	}

	for (int32_t i = 0; i < w->sensors.count; ++i) {
		const tb_sensor *sensor = w->sensors.data + i;
		if (!sensor->in_use || sensor->count == 0) continue;
		const tb_shape *s = w->shapes.data + sensor->shape;
		if (!s->enabled || !field_is_active(&s->field)) continue;
		if (!w->bodies.data[s->body].enabled) continue;
		int32_t stamp = i + 1;
		apply_field(w, ctx, sensor, stamp);
		/* clear the stamps again so the next field (or substep) starts clean
		 * without a counter that would have to live in the world */
		const tb_sensor_overlap *list = segment(w, sensor);
		for (int32_t k = 0; k < sensor->count; ++k) {
			const tb_shape *v = w->shapes.data + list[k].shape;
			if (v->in_use && v->body >= 0 && v->body < w->bodies.count) field_stamp[v->body + 1] = 0;
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

static void wake_live_visitors(tb_world *w, const tb_sensor *sensor)
{
	const tb_sensor_overlap *list = segment(w, sensor);
	for (int32_t k = 0; k < sensor->count; ++k) {
		if (overlap_is_live(w, list[k].shape, list[k].generation)) wake_visitor(w, list[k].shape);
	}
}

tb_status tb_shape_set_field(tb_world *w, tb_shape_id id, const tb_field *field)
{
	tb_shape *s = tb_shape_lookup(w, id);
	if (s == NULL) return TB_ERR_STALE_HANDLE;
	if (w->locked) return TB_ERR_LOCKED;
	if (field != NULL) {
		tb_status status = validate_field(field);
		if (status != TB_OK) return status;
	}
	int32_t si = id.index1 - 1;
	bool remove = field == NULL || field->kind == TB_FIELD_NONE;

	/* whoever the old field was pushing now feels something else */
	if (s->sensor_index != TB_NULL_INDEX && field_is_active(&s->field))
		wake_live_visitors(w, w->sensors.data + s->sensor_index);

	if (remove) {
		memset(&s->field, 0, sizeof s->field);
		if (!s->is_sensor) tb_sensor_destroy(w, si);
		return TB_OK;
	}

	/* learn who is inside now so they can be woken; the step refreshes the list
	 * again before the field first acts */
	bool created = s->sensor_index == TB_NULL_INDEX;
	if (!tb_sensor_create(w, si)) return TB_ERR_OUT_OF_MEMORY;
	if (!refresh_overlaps(w, s->sensor_index)) {
		if (created) tb_sensor_destroy(w, si);
		return TB_ERR_OUT_OF_MEMORY;
	}
	s->field = *field;
	if (field_is_active(&s->field)) wake_live_visitors(w, w->sensors.data + s->sensor_index);
	return TB_OK;
}

bool tb_shape_get_field(const tb_world *w, tb_shape_id id, tb_field *out)
{
	const tb_shape *s = tb_shape_lookup(w, id);
	bool has = s != NULL && s->field.kind != TB_FIELD_NONE;
	if (out != NULL) {
		if (has) *out = s->field;
		else memset(out, 0, sizeof *out);
	}
	return has;
}
