/* tumble physics: world lifetime, settings, the step pipeline, events and hashing. */
#include "world.h"

#include <stdio.h>

tb_world_def tb_default_world_def(void)
{
	tb_world_def d;
	memset(&d, 0, sizeof d);
	d.gravity = tb_v2(0.0f, -10.0f);
	d.substeps = 8;
	d.contact_hertz = 60.0f;
	d.contact_damping_ratio = 10.0f;
	d.joint_hertz = 60.0f;
	d.joint_damping_ratio = 2.0f;
	d.max_contact_push_speed = 3.0f;
	d.restitution_threshold = 1.0f;
	d.hit_event_threshold = 1.0f;
	d.max_linear_speed = 400.0f;
	d.time_to_sleep = 0.5f;
	d.enable_warm_starting = true;
	d.enable_position_correction = true;
	d.enable_sleep = true;
	d.enable_continuous = true;
	d.enable_motion = true;
	return d;
}

static bool valid_nonneg(float x) { return isfinite(x) && x >= 0.0f; }

static tb_status validate_world_def(const tb_world_def *d)
{
	if (!tb_is_valid_vec2(d->gravity)) return TB_ERR_INVALID_NUMBER;
	if (d->substeps < 1 || d->substeps > 64) return TB_ERR_INVALID_ARGUMENT;
	if (!valid_nonneg(d->contact_hertz) || !valid_nonneg(d->contact_damping_ratio) || !valid_nonneg(d->joint_hertz) ||
	    !valid_nonneg(d->joint_damping_ratio) || !valid_nonneg(d->max_contact_push_speed) ||
	    !valid_nonneg(d->restitution_threshold) || !valid_nonneg(d->hit_event_threshold) ||
	    !valid_nonneg(d->time_to_sleep))
		return TB_ERR_NEGATIVE;
	if (!(isfinite(d->max_linear_speed) && d->max_linear_speed > 0.0f)) return TB_ERR_NON_POSITIVE;
	return TB_OK;
}

tb_world *tb_create_world(const tb_world_def *def)
{
	tb_world_def d = def ? *def : tb_default_world_def();
	if (validate_world_def(&d) != TB_OK) return NULL;
	tb_world *w = tb_alloc_zeroed(sizeof *w);
	w->def = d;
	w->body_free = TB_NULL_INDEX;
	w->shape_free = TB_NULL_INDEX;
	w->contact_free = TB_NULL_INDEX;
	w->joint_free = TB_NULL_INDEX;
	w->sensor_free = TB_NULL_INDEX;
	tb_broad_phase_init(&w->broad_phase);
	return w;
}

static void free_sensor_arrays(tb_world *w)
{
	for (int i = 0; i < w->sensor_capacity; ++i) {
		tb_sensor *s = w->sensors + i;
		tb_free(s->overlaps);
		tb_free(s->overlap_gens);
		tb_free(s->next);
		tb_free(s->next_gens);
	}
}

void tb_destroy_world(tb_world *w)
{
	if (w == NULL) return;
	free_sensor_arrays(w);
	tb_broad_phase_destroy(&w->broad_phase);
	tb_free(w->bodies);
	tb_free(w->sims);
	tb_free(w->shapes);
	tb_free(w->contacts);
	tb_free(w->joints);
	tb_free(w->sensors);
	tb_free(w->states);
	tb_free(w->motions);
	tb_free(w->awake_bodies);
	tb_free(w->constraints);
	tb_free(w->active_joints);
	tb_free(w->joint_rows);
	tb_destroy_constraint_graph(&w->graph);
	tb_free(w->fast_bodies);
	tb_free(w->stack);
	tb_free(w->island_parent);
	tb_free(w->island_sleep);
	tb_free(w->field_stamp);
	tb_free(w->shape_scratch);
	tb_free(w->begin_events);
	tb_free(w->end_events);
	tb_free(w->hit_events);
	tb_free(w->sensor_begin_events);
	tb_free(w->sensor_end_events);
	tb_free(w->pending_end_events);
	tb_free(w);
}

void tb_world_clear(tb_world *w)
{
	if (w == NULL || w->locked) return;
	for (int32_t i = 0; i < w->body_capacity; ++i) {
		if (w->bodies[i].in_use) tb_destroy_body(w, tb_make_body_id(w, i));
	}
	/* nobody is left to receive the end events of a cleared world */
	w->pending_end_count = 0;
	w->begin_count = w->end_count = w->hit_count = 0;
	w->sensor_begin_count = w->sensor_end_count = 0;
}

tb_world_def tb_world_get_def(const tb_world *w) { return w->def; }

tb_status tb_world_set_def(tb_world *w, const tb_world_def *def)
{
	if (w->locked) return TB_ERR_LOCKED;
	tb_status s = validate_world_def(def);
	if (s != TB_OK) return s;
	bool wake = def->gravity.x != w->def.gravity.x || def->gravity.y != w->def.gravity.y ||
	            (def->enable_sleep == false && w->def.enable_sleep) ||
	            (def->enable_motion && !w->def.enable_motion);
	w->def = *def;
	if (wake) {
		for (int32_t i = 0; i < w->body_capacity; ++i) {
			tb_body *b = w->bodies + i;
			if (b->in_use && b->type == TB_DYNAMIC_BODY && !b->awake && b->enabled) tb_wake_body(w, i);
		}
	}
	return TB_OK;
}

bool tb_world_is_locked(const tb_world *w) { return w->locked; }

static void begin_step_events(tb_world *w)
{
	w->begin_count = 0;
	w->hit_count = 0;
	w->end_count = 0;
	/* end events from objects destroyed since the last step come first */
	if (w->pending_end_count > 0) {
		TB_RESERVE(w->end_events, w->end_capacity, w->pending_end_count);
		memcpy(w->end_events, w->pending_end_events, (size_t)w->pending_end_count * sizeof *w->end_events);
		w->end_count = w->pending_end_count;
		w->pending_end_count = 0;
	}
}

void tb_world_step(tb_world *w, float dt)
{
	if (w == NULL || w->locked) return;
	if (!(isfinite(dt) && dt >= 0.0f)) dt = 0.0f;
	memset(&w->profile, 0, sizeof w->profile);
	double t0 = tb_time_ms();
	w->locked = true;
	begin_step_events(w);

	/* 1. new pairs from proxies that moved (broad phase) */
	double t = tb_time_ms();
	tb_update_pairs(w);
	w->profile.pairs = (float)(tb_time_ms() - t);

	/* 2. manifolds for every contact whose boxes overlap (narrow phase) */
	t = tb_time_ms();
	tb_collide_contacts(w);
	w->profile.collide = (float)(tb_time_ms() - t);

	/* 3. soft-step solver, continuous collision, islands and sleep */
	if (dt > 0.0f) {
		t = tb_time_ms();
		tb_solve(w, dt);
		w->profile.solve = (float)(tb_time_ms() - t);
		w->inv_dt0 = 1.0f / dt;
	}

	/* 4. sensor overlaps and their events */
	t = tb_time_ms();
	tb_update_sensors(w);
	w->profile.sensors = (float)(tb_time_ms() - t);

	w->step_count += 1;
	w->locked = false;
	w->profile.step = (float)(tb_time_ms() - t0);
}

tb_profile tb_world_get_profile(const tb_world *w) { return w->profile; }

tb_counters tb_world_get_counters(const tb_world *w)
{
	tb_counters c;
	memset(&c, 0, sizeof c);
	c.body_count = w->body_count;
	for (int32_t i = 0; i < w->body_capacity; ++i) {
		const tb_body *b = w->bodies + i;
		if (b->in_use && b->awake && tb_body_is_simulated(b)) c.awake_body_count += 1;
	}
	c.shape_count = w->shape_count;
	c.contact_count = w->contact_count;
	for (int32_t i = 0; i < w->contact_capacity; ++i) {
		if (w->contacts[i].in_use && (w->contacts[i].flags & TB_CONTACT_TOUCHING)) c.touching_contact_count += 1;
	}
	c.joint_count = w->joint_count;
	c.island_count = w->island_count;
	c.tree_height = tb_dynamic_tree_get_height(&w->broad_phase.trees[1]);
	c.static_tree_height = tb_dynamic_tree_get_height(&w->broad_phase.trees[0]);
	c.step_count = w->step_count;
	return c;
}

int tb_world_get_bodies(const tb_world *w, tb_body_id *out, int capacity)
{
	int n = 0;
	for (int32_t i = 0; i < w->body_capacity; ++i) {
		if (!w->bodies[i].in_use) continue;
		if (n < capacity && out) out[n] = tb_make_body_id(w, i);
		n += 1;
	}
	return n;
}

int tb_world_get_joints(const tb_world *w, tb_joint_id *out, int capacity)
{
	int n = 0;
	for (int32_t i = 0; i < w->joint_capacity; ++i) {
		if (!w->joints[i].in_use) continue;
		if (n < capacity && out) out[n] = tb_make_joint_id(w, i);
		n += 1;
	}
	return n;
}

/* FNV-1a over the raw bits: any difference in any body's state changes the hash. */
static uint64_t fnv_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; ++i) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

uint64_t tb_world_hash(const tb_world *w)
{
	uint64_t h = 14695981039346656037ull;
	for (int32_t i = 0; i < w->body_capacity; ++i) {
		if (!w->bodies[i].in_use) continue;
		const tb_body_sim *s = w->sims + i;
		h = fnv_bytes(h, &i, sizeof i);
		h = fnv_bytes(h, &s->transform, sizeof s->transform);
		h = fnv_bytes(h, &s->v, sizeof s->v);
		h = fnv_bytes(h, &s->w, sizeof s->w);
	}
	return h;
}

tb_contact_events tb_world_get_contact_events(const tb_world *w)
{
	tb_contact_events e;
	e.begin = w->begin_events;
	e.begin_count = w->begin_count;
	e.end = w->end_events;
	e.end_count = w->end_count;
	e.hit = w->hit_events;
	e.hit_count = w->hit_count;
	return e;
}

/* ---- lookups ---- */

tb_body *tb_get_body(const tb_world *w, tb_body_id id)
{
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i < 0 || i >= w->body_capacity) return NULL;
	tb_body *b = w->bodies + i;
	if (!b->in_use || b->generation != id.generation) return NULL;
	return b;
}

tb_shape *tb_get_shape(const tb_world *w, tb_shape_id id)
{
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i < 0 || i >= w->shape_capacity) return NULL;
	tb_shape *s = w->shapes + i;
	if (!s->in_use || s->generation != id.generation) return NULL;
	return s;
}

tb_joint *tb_world_joint_lookup(const tb_world *w, tb_joint_id id)
{
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i < 0 || i >= w->joint_capacity) return NULL;
	tb_joint *j = w->joints + i;
	if (!j->in_use || j->generation != id.generation) return NULL;
	return j;
}

const tb_body_sim *tb_world_body_sim(const tb_world *w, int32_t body_slot) { return w->sims + body_slot; }

void tb_world_wake_body_slot(tb_world *w, int32_t body_slot) { tb_wake_body(w, body_slot); }

const char *tb_world_version(void) { return "tumble physics 0.1"; }
