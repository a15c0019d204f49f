/* tumble physics: world lifetime, settings, the step pipeline, events and hashing. */
#include "world.h"

#include <stdatomic.h>

static atomic_uint_fast64_t last_lineage;

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
	d.enable_contact_cache = true;
	d.friction_mix = TB_MIX_GEOMETRIC;
	d.restitution_mix = TB_MIX_MAX;
	return d;
}

static bool valid_nonneg(float x) { return isfinite(x) && x >= 0.0f; }

tb_status tb_validate_world_def(const tb_world_def *d)
{
	if (!tb_is_valid_vec2(d->gravity)) return TB_ERR_INVALID_NUMBER;
	if (d->substeps < 1 || d->substeps > 64) return TB_ERR_INVALID_ARGUMENT;
	if (!valid_nonneg(d->contact_hertz) || !valid_nonneg(d->contact_damping_ratio) || !valid_nonneg(d->joint_hertz) ||
	    !valid_nonneg(d->joint_damping_ratio) || !valid_nonneg(d->max_contact_push_speed) ||
	    !valid_nonneg(d->restitution_threshold) || !valid_nonneg(d->hit_event_threshold) ||
	    !valid_nonneg(d->time_to_sleep))
		return TB_ERR_NEGATIVE;
	if (!(isfinite(d->max_linear_speed) && d->max_linear_speed > 0.0f)) return TB_ERR_NON_POSITIVE;
	if ((int)d->friction_mix < 0 || d->friction_mix >= TB_MIX_RULE_COUNT || (int)d->restitution_mix < 0 ||
	    d->restitution_mix >= TB_MIX_RULE_COUNT)
		return TB_ERR_INVALID_ARGUMENT;
	const tb_world_limits *l = &d->limits;
	if (l->max_bodies < 0 || l->max_shapes < 0 || l->max_joints < 0 || l->max_contacts < 0) return TB_ERR_NEGATIVE;
	return TB_OK;
}

tb_world *tb_create_world(const tb_world_def *def)
{
	tb_world_def d = def ? *def : tb_default_world_def();
	if (tb_validate_world_def(&d) != TB_OK) return NULL;
	tb_allocator allocator;
	tb_allocator_init(&allocator, d.alloc, d.alloc_ud, d.limits.max_bytes);
	tb_world *w = tb_alloc(&allocator, sizeof *w);
	if (w == NULL) return NULL;
	memset(w, 0, sizeof *w);
	w->allocator = allocator;
	w->def = d;
	w->lineage = (uint64_t)atomic_fetch_add(&last_lineage, 1) + 1;
	w->solver_path = tb_default_solver_path();
	w->kernels = tb_solver_kernels_for(w->solver_path);
	tb_broad_phase_init(&w->broad_phase, &w->allocator);
	return w;
}

void tb_destroy_world(tb_world *w)
{
	if (w == NULL) return;
	tb_allocator *a = &w->allocator;
	tb_broad_phase_destroy(&w->broad_phase, a);
	tb_id_pool_destroy(a, &w->body_pool);
	tb_id_pool_destroy(a, &w->shape_pool);
	tb_id_pool_destroy(a, &w->contact_pool);
	tb_id_pool_destroy(a, &w->joint_pool);
	tb_id_pool_destroy(a, &w->mover_pool);
	tb_id_pool_destroy(a, &w->sensor_pool);
	tb_destroy_constraint_graph(&w->graph, a);
	tb_free_snapshot_spares(w);
	/* the arrays the world owns; its pools, broad phase and graph freed theirs */
#define DESTROY_WORLD(member, type) type##_destroy(a, &w->member);
#define DESTROY_POOL(member, type)
#define DESTROY_BROAD(member, type)
#define DESTROY_GRAPH(member, type)
#define DESTROY_SNAPSHOT(name, member, type, owner) DESTROY_##owner(member, type)
#define DESTROY_STEP(member, type, owner, size) DESTROY_##owner(member, type)
#define DESTROY_SCRATCH(member, type, owner) DESTROY_##owner(member, type)
	TB_WORLD_ARRAYS(DESTROY_SNAPSHOT, DESTROY_STEP, DESTROY_SCRATCH)
#undef DESTROY_WORLD
#undef DESTROY_POOL
#undef DESTROY_BROAD
#undef DESTROY_GRAPH
#undef DESTROY_SNAPSHOT
#undef DESTROY_STEP
#undef DESTROY_SCRATCH
	/* the world's own block goes last, through a copy of the allocator it holds */
	tb_allocator last = *a;
	tb_free(&last, w, sizeof *w);
}

tb_status tb_world_clear(tb_world *w)
{
	if (w == NULL) return TB_ERR_INVALID_ARGUMENT;
	if (w->locked) return TB_ERR_LOCKED;
	/* each body goes as tb_destroy_body takes it: its touching contacts and its
	 * sensors' reported overlaps leave end and exit events for the next step */
	for (int32_t i = 0; i < w->bodies.count; ++i) {
		if (w->bodies.data[i].in_use) tb_destroy_body(w, tb_make_body_id(w, i));
	}
	tb_destroy_all_movers(w);
	return TB_OK;
}

tb_world_def tb_world_get_def(const tb_world *w) { return w->def; }

tb_status tb_world_set_def(tb_world *w, const tb_world_def *def)
{
	if (w->locked) return TB_ERR_LOCKED;
	tb_status s = tb_validate_world_def(def);
	if (s != TB_OK) return s;
	bool wake = def->gravity.x != w->def.gravity.x || def->gravity.y != w->def.gravity.y ||
	            (def->enable_sleep == false && w->def.enable_sleep) ||
	            (def->enable_motion && !w->def.enable_motion);
	bool remix = def->friction_mix != w->def.friction_mix || def->restitution_mix != w->def.restitution_mix;
	tb_world_def next = *def;
	/* fixed at creation */
	next.alloc = w->def.alloc;
	next.alloc_ud = w->def.alloc_ud;
	next.limits = w->def.limits;
	w->def = next;
	if (remix) {
		for (int32_t i = 0; i < w->contacts.count; ++i) {
			if (w->contacts.data[i].in_use) tb_update_contact_material(w, i);
		}
	}
	if (wake) {
		for (int32_t i = 0; i < w->bodies.count; ++i) {
			tb_body *b = w->bodies.data + i;
			if (b->in_use && b->type == TB_DYNAMIC_BODY && !b->awake && b->enabled) tb_wake_body(w, i);
		}
	}
	return TB_OK;
}

bool tb_world_is_locked(const tb_world *w) { return w->locked; }

tb_status tb_world_set_solver_path(tb_world *w, tb_solver_path path)
{
	if (w == NULL || (unsigned)path >= TB_SOLVER_PATH_COUNT) return TB_ERR_INVALID_ARGUMENT;
	if (w->locked) return TB_ERR_LOCKED;
	if (path == TB_SOLVER_PATH_AUTO) path = tb_default_solver_path();
	const tb_solver_kernels *kernels = tb_solver_kernels_for(path);
	if (kernels == NULL) return TB_ERR_INVALID_ARGUMENT;
	w->solver_path = path;
	w->kernels = kernels;
	return TB_OK;
}

tb_solver_path tb_world_get_solver_path(const tb_world *w) { return w ? w->solver_path : TB_SOLVER_PATH_AUTO; }

uint32_t tb_world_get_step_issues(const tb_world *w) { return w->step_issues; }

size_t tb_world_get_allocated_bytes(const tb_world *w) { return w->allocator.bytes; }

bool tb_reserve_step_arrays(tb_world *w, int32_t n, int32_t j)
{
	tb_allocator *a = &w->allocator;
#define RESERVE_STEP(member, type, owner, size) type##_reserve(a, &w->member, size) &&
	return TB_WORLD_ARRAYS(TB_WORLD_ARRAY_SKIP, RESERVE_STEP, TB_WORLD_ARRAY_SKIP) true;
#undef RESERVE_STEP
}

/* Everything the step can need, before it changes anything. Creating bodies,
 * joints and contacts reserved it already; this holds it to that. */
static bool reserve_step(tb_world *w)
{
	tb_allocator *a = &w->allocator;
	return tb_reserve_step_arrays(w, w->bodies.count, w->joints.count) &&
	       tb_reserve_contact_slots(w, w->contacts.count) &&
	       tb_contact_end_event_array_reserve(a, &w->end_events, w->pending_end_events.count) &&
	       tb_sensor_event_array_reserve(a, &w->sensor_end_events, w->pending_sensor_end_events.count);
}

static void begin_step_events(tb_world *w)
{
	w->begin_events.count = 0;
	w->hit_events.count = 0;
	w->end_events.count = 0;
	w->sensor_begin_events.count = 0;
	w->sensor_end_events.count = 0;
	w->joint_break_events.count = 0;
	/* end and exit events from objects destroyed since the last step come first */
	int32_t n = w->pending_end_events.count;
	if (n > 0) {
		memcpy(w->end_events.data, w->pending_end_events.data, (size_t)n * sizeof *w->end_events.data);
		w->end_events.count = n;
		w->pending_end_events.count = 0;
	}
	n = w->pending_sensor_end_events.count;
	if (n > 0) {
		memcpy(w->sensor_end_events.data, w->pending_sensor_end_events.data,
		       (size_t)n * sizeof *w->sensor_end_events.data);
		w->sensor_end_events.count = n;
		w->pending_sensor_end_events.count = 0;
	}
}

void tb_world_step(tb_world *w, float dt)
{
	if (w == NULL || w->locked) return;
	if (!(isfinite(dt) && dt >= 0.0f)) dt = 0.0f;
	memset(&w->profile, 0, sizeof w->profile);
	w->step_issues = 0;
	if (!reserve_step(w)) {
		/* out of memory before anything moved: the step is skipped, the last
		 * step's events are not reported twice, the pending ones stay pending */
		w->step_issues |= TB_STEP_OUT_OF_MEMORY;
		w->begin_events.count = w->end_events.count = w->hit_events.count = 0;
		w->sensor_begin_events.count = w->sensor_end_events.count = 0;
		w->joint_break_events.count = 0;
		return;
	}
	double t0 = tb_time_ms();
	w->locked = true;
	begin_step_events(w);

	/* 1. new pairs from proxies that moved (broad phase) */
	double t = tb_time_ms();
	tb_update_pairs(w);
	w->profile.pairs = (float)(tb_time_ms() - t);

	/* 2. manifolds for every contact whose boxes overlap (narrow phase) */
	t = tb_time_ms();
	tb_collide_contacts(w, dt);
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

	/* 5. joints pulled past their break force or torque go */
	if (dt > 0.0f && w->def.enable_motion) tb_break_joints(w);

	w->step_count += 1;
	w->locked = false;
	w->profile.step = (float)(tb_time_ms() - t0);
	/* not physics, and not in the step's time */
	tb_refill_snapshot_spares(w);
#ifdef TB_VALIDATE
	TB_ASSERT(tb_world_validate(w));
#endif
}

tb_profile tb_world_get_profile(const tb_world *w) { return w->profile; }

tb_counters tb_world_get_counters(const tb_world *w)
{
	tb_counters c;
	memset(&c, 0, sizeof c);
	c.body_count = tb_id_pool_count(&w->body_pool);
	/* the awake set holds exactly these bodies (body.h) */
	for (int32_t k = 0; k < w->awake_body_bits.count; ++k) c.awake_body_count += __builtin_popcountll(w->awake_body_bits.data[k]);
	c.shape_count = tb_id_pool_count(&w->shape_pool);
	c.contact_count = tb_id_pool_count(&w->contact_pool);
	/* kept as contacts start and stop touching: the host reads the counters
	 * every step, and a scan would cost a step per sleeping contact */
	c.touching_contact_count = w->touching_contact_count;
	c.joint_count = tb_id_pool_count(&w->joint_pool);
	c.island_count = w->island_count;
	c.tree_height = tb_dynamic_tree_get_height(&w->broad_phase.trees[1]);
	c.static_tree_height = tb_dynamic_tree_get_height(&w->broad_phase.trees[0]);
	c.step_count = w->step_count;
	c.remade_manifold_count = w->remade_manifold_count;
	return c;
}

int tb_world_get_bodies(const tb_world *w, tb_body_id *out, int capacity)
{
	int n = 0;
	for (int32_t i = 0; i < w->bodies.count; ++i) {
		if (!w->bodies.data[i].in_use) continue;
		if (n < capacity && out) out[n] = tb_make_body_id(w, i);
		n += 1;
	}
	return n;
}

int tb_world_get_joints(const tb_world *w, tb_joint_id *out, int capacity)
{
	int n = 0;
	for (int32_t i = 0; i < w->joints.count; ++i) {
		if (!w->joints.data[i].in_use) continue;
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
	for (int32_t i = 0; i < w->bodies.count; ++i) {
		if (!w->bodies.data[i].in_use) continue;
		const tb_body_sim *s = w->sims.data + i;
		h = fnv_bytes(h, &i, sizeof i);
		h = fnv_bytes(h, &s->transform, sizeof s->transform);
		h = fnv_bytes(h, &s->linear_velocity, sizeof s->linear_velocity);
		h = fnv_bytes(h, &s->angular_velocity, sizeof s->angular_velocity);
	}
	return h;
}

tb_contact_events tb_world_get_contact_events(const tb_world *w)
{
	tb_contact_events e;
	e.begin = w->begin_events.data;
	e.begin_count = w->begin_events.count;
	e.end = w->end_events.data;
	e.end_count = w->end_events.count;
	e.hit = w->hit_events.data;
	e.hit_count = w->hit_events.count;
	return e;
}

tb_joint_events tb_world_get_joint_events(const tb_world *w)
{
	tb_joint_events e;
	e.breaks = w->joint_break_events.data;
	e.break_count = w->joint_break_events.count;
	return e;
}

tb_sensor_events tb_world_get_sensor_events(const tb_world *w)
{
	tb_sensor_events e;
	e.begin = w->sensor_begin_events.data;
	e.begin_count = w->sensor_begin_events.count;
	e.end = w->sensor_end_events.data;
	e.end_count = w->sensor_end_events.count;
	return e;
}

/* ---- lookups ---- */

tb_body *tb_body_lookup(const tb_world *w, tb_body_id id)
{
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i < 0 || i >= w->bodies.count) return NULL;
	tb_body *b = w->bodies.data + i;
	if (!b->in_use || b->generation != id.generation) return NULL;
	return b;
}

tb_shape *tb_shape_lookup(const tb_world *w, tb_shape_id id)
{
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i < 0 || i >= w->shapes.count) return NULL;
	tb_shape *s = w->shapes.data + i;
	if (!s->in_use || s->generation != id.generation) return NULL;
	return s;
}

tb_joint *tb_joint_lookup(const tb_world *w, tb_joint_id id)
{
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i < 0 || i >= w->joints.count) return NULL;
	tb_joint *j = w->joints.data + i;
	if (!j->in_use || j->generation != id.generation) return NULL;
	return j;
}
