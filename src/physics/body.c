/* tumble physics: bodies — lifetime, mass, sleep/wake and the public body API. */
#include "world.h"

tb_body_def tb_default_body_def(void)
{
	tb_body_def d;
	memset(&d, 0, sizeof d);
	d.type = TB_STATIC_BODY;
	d.gravity_scale = 1.0f;
	d.is_awake = true;
	d.is_enabled = true;
	d.enable_sleep = true;
	return d;
}

static int32_t alloc_body_slot(tb_world *w)
{
	if (w->body_free == TB_NULL_INDEX) {
		int32_t old = w->body_capacity;
		int32_t sim_cap = old;
		w->bodies = tb_grow_array(w->bodies, (int)sizeof *w->bodies, &w->body_capacity, old + 1);
		w->sims = tb_grow_array(w->sims, (int)sizeof *w->sims, &sim_cap, w->body_capacity);
		for (int32_t i = w->body_capacity - 1; i >= old; --i) {
			w->bodies[i].next_free = w->body_free;
			w->body_free = i;
		}
	}
	int32_t i = w->body_free;
	w->body_free = w->bodies[i].next_free;
	return i;
}

tb_body_id tb_create_body(tb_world *w, const tb_body_def *def)
{
	if (w == NULL || def == NULL || w->locked) return tb_null_body_id;
	if (!tb_is_valid_vec2(def->position) || fabsf(def->position.x) > TB_HUGE || fabsf(def->position.y) > TB_HUGE ||
	    !isfinite(def->angle) || !tb_is_valid_vec2(def->linear_velocity) ||
	    !isfinite(def->angular_velocity) || !isfinite(def->gravity_scale) || !(def->linear_damping >= 0.0f) ||
	    !(def->angular_damping >= 0.0f) || !isfinite(def->linear_damping) || !isfinite(def->angular_damping))
		return tb_null_body_id;
	if (def->type != TB_STATIC_BODY && def->type != TB_KINEMATIC_BODY && def->type != TB_DYNAMIC_BODY)
		return tb_null_body_id;

	int32_t i = alloc_body_slot(w);
	tb_body *b = w->bodies + i;
	uint32_t gen = b->generation;
	memset(b, 0, sizeof *b);
	b->generation = gen;
	b->in_use = true;
	b->type = def->type;
	b->user_data = def->user_data;
	b->head_shape = b->tail_shape = TB_NULL_INDEX;
	b->head_contact_key = TB_NULL_INDEX;
	b->head_joint_key = TB_NULL_INDEX;
	b->sleep_threshold = 0.05f;
	b->enabled = def->is_enabled;
	b->enable_sleep = def->enable_sleep;
	b->fixed_rotation = def->fixed_rotation;
	b->awake = def->type != TB_STATIC_BODY && def->is_awake;
	b->island_parent = TB_NULL_INDEX;

	tb_body_sim *s = w->sims + i;
	memset(s, 0, sizeof *s);
	s->transform.p = def->position;
	s->transform.q = tb_make_rot(def->angle);
	s->center = def->position;
	s->center0 = def->position;
	s->rotation0 = s->transform.q;
	if (def->type != TB_STATIC_BODY) {
		s->v = def->linear_velocity;
		s->w = def->angular_velocity;
	}
	s->linear_damping = def->linear_damping;
	s->angular_damping = def->angular_damping;
	s->gravity_scale = def->gravity_scale;
	s->is_bullet = def->is_bullet;
	s->state_index = TB_NULL_INDEX;
	w->body_count += 1;
	tb_update_body_mass(w, i);
	return tb_make_body_id(w, i);
}

/* Forgets the accumulated contact impulses of everything touching a body,
 * through the touching graph. Warm starting replays last step's impulses, which
 * carried the weight of a body now gone: replayed, they throw the rest of the
 * stack upwards. */
static void reset_touching_impulses(tb_world *w, int32_t start)
{
	int32_t n = 0;
	TB_RESERVE(w->stack, w->stack_capacity, 1);
	w->stack[n++] = start;
	/* island_parent doubles as a visit mark outside the step */
	w->bodies[start].island_parent = -2;
	while (n > 0) {
		int32_t i = w->stack[--n];
		for (int32_t key = w->bodies[i].head_contact_key; key != TB_NULL_INDEX;) {
			tb_contact *c = w->contacts + (key >> 1);
			int32_t edge = key & 1;
			key = c->edges[edge].next_key;
			for (int p = 0; p < c->manifold.point_count; ++p) {
				c->manifold.points[p].normal_impulse = 0.0f;
				c->manifold.points[p].tangent_impulse = 0.0f;
			}
			int32_t other = c->edges[edge ^ 1].body;
			tb_body *o = w->bodies + other;
			if ((c->flags & TB_CONTACT_TOUCHING) == 0 || o->type != TB_DYNAMIC_BODY || o->island_parent == -2)
				continue;
			o->island_parent = -2;
			TB_RESERVE(w->stack, w->stack_capacity, n + 1);
			w->stack[n++] = other;
		}
	}
	/* clear the marks again (same walk, now stopping at unmarked bodies) */
	n = 0;
	w->stack[n++] = start;
	w->bodies[start].island_parent = TB_NULL_INDEX;
	while (n > 0) {
		int32_t i = w->stack[--n];
		for (int32_t key = w->bodies[i].head_contact_key; key != TB_NULL_INDEX;) {
			const tb_contact *c = w->contacts + (key >> 1);
			int32_t edge = key & 1;
			key = c->edges[edge].next_key;
			int32_t other = c->edges[edge ^ 1].body;
			if (w->bodies[other].island_parent != -2) continue;
			w->bodies[other].island_parent = TB_NULL_INDEX;
			TB_RESERVE(w->stack, w->stack_capacity, n + 1);
			w->stack[n++] = other;
		}
	}
}

void tb_destroy_body(tb_world *w, tb_body_id id)
{
	tb_body *b = tb_get_body(w, id);
	if (b == NULL || w->locked) return;
	int32_t i = id.index1 - 1;
	if (b->type == TB_DYNAMIC_BODY && b->head_contact_key != TB_NULL_INDEX) reset_touching_impulses(w, i);

	/* joints first: they wake the bodies on the other side */
	while (b->head_joint_key != TB_NULL_INDEX) {
		int32_t j = b->head_joint_key >> 1;
		tb_destroy_joint(w, tb_make_joint_id(w, j));
	}
	tb_destroy_body_contacts(w, i, true);
	while (b->head_shape != TB_NULL_INDEX) tb_destroy_shape_internal(w, b->head_shape, false);

	b->in_use = false;
	b->generation += 1;
	b->user_data = NULL;
	b->next_free = w->body_free;
	w->body_free = i;
	w->sims[i].state_index = TB_NULL_INDEX;
	w->body_count -= 1;
}

bool tb_body_is_valid(const tb_world *w, tb_body_id id) { return tb_get_body(w, id) != NULL; }

/* ---- mass ---- */

void tb_update_body_mass(tb_world *w, int32_t bi)
{
	tb_body *b = w->bodies + bi;
	tb_body_sim *s = w->sims + bi;
	b->mass = 0.0f;
	b->inertia = 0.0f;
	s->inv_mass = 0.0f;
	s->inv_inertia = 0.0f;
	s->min_extent = 1.0e9f;
	s->max_extent = 0.0f;

	tb_vec2 local_center = tb_vec2_zero;
	if (b->type == TB_DYNAMIC_BODY) {
		float rot_inertia = 0.0f; /* about the body origin */
		for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) {
			const tb_shape *sh = w->shapes + k;
			if (sh->density == 0.0f) continue;
			tb_mass_data md = tb_compute_mass(&sh->geom, sh->density);
			b->mass += md.mass;
			local_center = tb_mul_add(local_center, md.mass, md.center);
			rot_inertia += md.rotational_inertia + md.mass * tb_dot(md.center, md.center);
		}
		if (b->mass > 0.0f) {
			local_center = tb_mul_sv(1.0f / b->mass, local_center);
			b->inertia = rot_inertia - b->mass * tb_dot(local_center, local_center);
			if (b->inertia < 0.0f) b->inertia = 0.0f;
			s->inv_mass = 1.0f / b->mass;
		} else {
			/* a dynamic body with no mass still falls and responds to contacts
			 * as if it weighed 1 kg; it reports its true mass, 0 */
			s->inv_mass = 1.0f;
		}
		if (b->inertia > 0.0f && !b->fixed_rotation) s->inv_inertia = 1.0f / b->inertia;
	}

	/* moving the centre of mass keeps the origin in place and the material velocity continuous */
	tb_vec2 old_center = s->center;
	s->local_center = local_center;
	s->center = tb_transform_point(s->transform, local_center);
	s->center0 = s->center;
	if (b->type == TB_DYNAMIC_BODY) {
		tb_vec2 v = tb_add(s->v, tb_cross_sv(s->w, tb_sub(s->center, old_center)));
		if (tb_is_valid_vec2(v)) s->v = v;
	}
	if (b->fixed_rotation) s->w = 0.0f;

	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) {
		const tb_shape *sh = w->shapes + k;
		s->min_extent = tb_minf(s->min_extent, tb_shape_min_extent(sh));
		s->max_extent = tb_maxf(s->max_extent, tb_shape_max_extent(sh, local_center));
	}
	if (b->head_shape == TB_NULL_INDEX) s->min_extent = 0.0f;
}

void tb_body_apply_mass_from_shapes(tb_world *w, tb_body_id id)
{
	if (tb_get_body(w, id) == NULL || w->locked) return;
	tb_update_body_mass(w, id.index1 - 1);
}

/* ---- sleep and wake ---- */

static void push_stack(tb_world *w, int32_t *count, int32_t value)
{
	TB_RESERVE(w->stack, w->stack_capacity, *count + 1);
	w->stack[(*count)++] = value;
}

/* Wakes the body and everything it touches or is jointed to that sleeps: sleeping
 * bodies form islands, and half an island awake would sink into the sleeping half. */
void tb_wake_body(tb_world *w, int32_t bi)
{
	tb_body *b = w->bodies + bi;
	if (!b->in_use || !tb_body_is_simulated(b)) return;
	/* an awake body keeps its sleep timer: the step resets it when the body
	 * really moves, so nudging a resting body every frame does not pin it awake */
	if (b->awake) return;
	b->awake = true;
	b->sleep_time = 0.0f;
	int32_t n = 0;
	push_stack(w, &n, bi);
	while (n > 0) {
		int32_t i = w->stack[--n];
		tb_body *bi_ = w->bodies + i;
		for (int32_t key = bi_->head_contact_key; key != TB_NULL_INDEX;) {
			const tb_contact *c = w->contacts + (key >> 1);
			int32_t edge = key & 1;
			key = c->edges[edge].next_key;
			if ((c->flags & TB_CONTACT_TOUCHING) == 0) continue;
			int32_t other = c->edges[edge ^ 1].body;
			tb_body *o = w->bodies + other;
			if (o->awake || !tb_body_is_simulated(o)) continue;
			o->awake = true;
			o->sleep_time = 0.0f;
			push_stack(w, &n, other);
		}
		for (int32_t key = bi_->head_joint_key; key != TB_NULL_INDEX;) {
			const tb_joint *j = w->joints + (key >> 1);
			int32_t edge = key & 1;
			key = j->edge_next[edge];
			int32_t other = edge == 0 ? j->body_b : j->body_a;
			tb_body *o = w->bodies + other;
			if (o->awake || !tb_body_is_simulated(o)) continue;
			o->awake = true;
			o->sleep_time = 0.0f;
			push_stack(w, &n, other);
		}
	}
}

static void sleep_body(tb_world *w, int32_t i)
{
	tb_body *b = w->bodies + i;
	b->awake = false;
	b->sleep_time = 0.0f;
	w->sims[i].v = tb_vec2_zero;
	w->sims[i].w = 0.0f;
	w->sims[i].force = tb_vec2_zero;
	w->sims[i].torque = 0.0f;
}

void tb_body_sleep_island(tb_world *w, int32_t bi)
{
	tb_body *b = w->bodies + bi;
	if (!b->in_use || !tb_body_is_simulated(b) || !b->awake) return;
	sleep_body(w, bi);
	int32_t n = 0;
	push_stack(w, &n, bi);
	while (n > 0) {
		int32_t i = w->stack[--n];
		tb_body *bi_ = w->bodies + i;
		if (bi_->type != TB_DYNAMIC_BODY) continue; /* kinematic bodies do not join islands */
		for (int32_t key = bi_->head_contact_key; key != TB_NULL_INDEX;) {
			const tb_contact *c = w->contacts + (key >> 1);
			int32_t edge = key & 1;
			key = c->edges[edge].next_key;
			if ((c->flags & TB_CONTACT_TOUCHING) == 0) continue;
			int32_t other = c->edges[edge ^ 1].body;
			tb_body *o = w->bodies + other;
			if (!o->awake || o->type != TB_DYNAMIC_BODY || !o->enabled) continue;
			sleep_body(w, other);
			push_stack(w, &n, other);
		}
		for (int32_t key = bi_->head_joint_key; key != TB_NULL_INDEX;) {
			const tb_joint *j = w->joints + (key >> 1);
			int32_t edge = key & 1;
			key = j->edge_next[edge];
			int32_t other = edge == 0 ? j->body_b : j->body_a;
			tb_body *o = w->bodies + other;
			if (!o->awake || o->type != TB_DYNAMIC_BODY || !o->enabled) continue;
			sleep_body(w, other);
			push_stack(w, &n, other);
		}
	}
}

/* ---- broad-phase boxes ---- */

/* How many steps of motion a re-inserted box is stretched ahead by: a body in
 * steady flight then re-enters the tree every few steps, not every step. */
#define TB_AABB_PREDICTION 4.0f

void tb_update_body_shape_aabbs(tb_world *w, int32_t bi, tb_vec2 displacement, bool force_reinsert)
{
	tb_body *b = w->bodies + bi;
	tb_transform xf = w->sims[bi].transform;
	bool is_static = b->type == TB_STATIC_BODY;
	float spec = is_static ? 0.0f : TB_SPECULATIVE_DISTANCE;
	float margin = is_static ? 0.0f : TB_AABB_MARGIN;
	tb_vec2 d = tb_mul_sv(TB_AABB_PREDICTION, displacement);
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) {
		tb_shape *s = w->shapes + k;
		s->aabb = tb_compute_shape_aabb_margin(s, xf, spec);
		if (s->proxy == TB_NULL_INDEX) continue;
		if (force_reinsert || !tb_aabb_contains(s->fat_aabb, s->aabb)) {
			tb_aabb fat = s->aabb;
			fat.lower = tb_sub(fat.lower, tb_v2(margin, margin));
			fat.upper = tb_add(fat.upper, tb_v2(margin, margin));
			if (d.x < 0.0f) fat.lower.x += d.x;
			else fat.upper.x += d.x;
			if (d.y < 0.0f) fat.lower.y += d.y;
			else fat.upper.y += d.y;
			s->fat_aabb = fat;
			tb_dynamic_tree_move_proxy(&w->broad_phase.trees[s->tree], s->proxy, fat);
			tb_broad_phase_buffer_move(w, k);
		}
	}
}

bool tb_should_bodies_collide(const tb_world *w, int32_t ia, int32_t ib)
{
	const tb_body *a = w->bodies + ia, *b = w->bodies + ib;
	if (a->type != TB_DYNAMIC_BODY && b->type != TB_DYNAMIC_BODY) return false;
	/* a joint between them may forbid contact: scan the shorter list */
	const tb_body *scan = a->joint_count <= b->joint_count ? a : b;
	int32_t other = scan == a ? ib : ia;
	for (int32_t key = scan->head_joint_key; key != TB_NULL_INDEX;) {
		const tb_joint *j = w->joints + (key >> 1);
		int32_t edge = key & 1;
		key = j->edge_next[edge];
		int32_t o = edge == 0 ? j->body_b : j->body_a;
		if (o == other && !j->def.collide_connected) return false;
	}
	return true;
}

/* Wakes the bodies on the other side of this body's joints. */
static void wake_joint_partners_of(tb_world *w, int32_t bi)
{
	for (int32_t key = w->bodies[bi].head_joint_key; key != TB_NULL_INDEX;) {
		const tb_joint *j = w->joints + (key >> 1);
		int32_t edge = key & 1;
		key = j->edge_next[edge];
		tb_wake_body(w, edge == 0 ? j->body_b : j->body_a);
	}
}

/* ---- public accessors ---- */

#define BODY_OR(ret)                                                                                        \
	tb_body *b = tb_get_body(w, id);                                                                        \
	if (b == NULL) return ret;                                                                              \
	int32_t bi = id.index1 - 1;                                                                             \
	tb_body_sim *s = w->sims + bi;                                                                          \
	(void)s;                                                                                                \
	(void)bi

#define BODY_MUT()                                                                                          \
	tb_body *b = tb_get_body(w, id);                                                                        \
	if (b == NULL || w->locked) return;                                                                     \
	int32_t bi = id.index1 - 1;                                                                             \
	tb_body_sim *s = w->sims + bi;                                                                          \
	(void)s;                                                                                                \
	(void)bi

tb_body_type tb_body_get_type(const tb_world *w, tb_body_id id)
{
	BODY_OR(TB_STATIC_BODY);
	return b->type;
}

void tb_body_set_type(tb_world *w, tb_body_id id, tb_body_type type)
{
	BODY_MUT();
	if (type != TB_STATIC_BODY && type != TB_KINEMATIC_BODY && type != TB_DYNAMIC_BODY) return;
	if (b->type == type) return;
	tb_destroy_body_contacts(w, bi, true);
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) tb_destroy_shape_proxy(w, k);
	b->type = type;
	if (type == TB_STATIC_BODY) {
		s->v = tb_vec2_zero;
		s->w = 0.0f;
		b->awake = false;
	}
	if (b->enabled) {
		for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) tb_create_shape_proxy(w, k);
	}
	tb_update_body_mass(w, bi);
	if (type != TB_STATIC_BODY) {
		b->awake = false;
		tb_wake_body(w, bi);
	}
	/* joints to this body changed their nature: wake the other sides */
	wake_joint_partners_of(w, bi);
}

tb_vec2 tb_body_get_position(const tb_world *w, tb_body_id id)
{
	BODY_OR(tb_vec2_zero);
	return s->transform.p;
}

float tb_body_get_angle(const tb_world *w, tb_body_id id)
{
	BODY_OR(0.0f);
	return tb_rot_angle(s->transform.q);
}

tb_rot tb_body_get_rotation(const tb_world *w, tb_body_id id)
{
	BODY_OR(tb_rot_identity);
	return s->transform.q;
}

tb_transform tb_body_get_transform(const tb_world *w, tb_body_id id)
{
	BODY_OR(tb_transform_identity);
	return s->transform;
}

void tb_body_set_transform(tb_world *w, tb_body_id id, tb_vec2 position, float angle)
{
	BODY_MUT();
	if (!tb_is_valid_vec2(position) || !isfinite(angle) || fabsf(position.x) > TB_HUGE || fabsf(position.y) > TB_HUGE)
		return;
	s->transform.p = position;
	s->transform.q = tb_make_rot(angle);
	s->center = tb_transform_point(s->transform, s->local_center);
	s->center0 = s->center;
	s->rotation0 = s->transform.q;
	if (b->enabled) tb_update_body_shape_aabbs(w, bi, tb_vec2_zero, false);
	tb_wake_body(w, bi);
}

tb_vec2 tb_body_get_world_center(const tb_world *w, tb_body_id id)
{
	BODY_OR(tb_vec2_zero);
	return s->center;
}

tb_vec2 tb_body_get_local_center(const tb_world *w, tb_body_id id)
{
	BODY_OR(tb_vec2_zero);
	return s->local_center;
}

tb_vec2 tb_body_get_linear_velocity(const tb_world *w, tb_body_id id)
{
	BODY_OR(tb_vec2_zero);
	return s->v;
}

float tb_body_get_angular_velocity(const tb_world *w, tb_body_id id)
{
	BODY_OR(0.0f);
	return s->w;
}

void tb_body_set_linear_velocity(tb_world *w, tb_body_id id, tb_vec2 v)
{
	BODY_MUT();
	if (b->type == TB_STATIC_BODY || !tb_is_valid_vec2(v)) return;
	if (tb_length_sq(v) > 0.0f) tb_wake_body(w, bi);
	s->v = v;
}

void tb_body_set_angular_velocity(tb_world *w, tb_body_id id, float av)
{
	BODY_MUT();
	if (b->type == TB_STATIC_BODY || !isfinite(av) || b->fixed_rotation) return;
	if (av != 0.0f) tb_wake_body(w, bi);
	s->w = av;
}

float tb_body_get_mass(const tb_world *w, tb_body_id id)
{
	BODY_OR(0.0f);
	return b->type == TB_DYNAMIC_BODY ? b->mass : 0.0f;
}

float tb_body_get_inertia(const tb_world *w, tb_body_id id)
{
	BODY_OR(0.0f);
	return b->type == TB_DYNAMIC_BODY ? b->inertia : 0.0f;
}

tb_mass_data tb_body_get_mass_data(const tb_world *w, tb_body_id id)
{
	tb_mass_data md = {0.0f, {0.0f, 0.0f}, 0.0f};
	BODY_OR(md);
	md.mass = tb_body_get_mass(w, id);
	md.center = s->local_center;
	md.rotational_inertia = tb_body_get_inertia(w, id);
	return md;
}

static bool can_push(tb_world *w, tb_body *b, int32_t bi, bool wake)
{
	if (b->type != TB_DYNAMIC_BODY || !b->enabled) return false;
	if (wake && !b->awake) tb_wake_body(w, bi);
	return b->awake;
}

void tb_body_apply_force(tb_world *w, tb_body_id id, tb_vec2 force, tb_vec2 point, bool wake)
{
	BODY_MUT();
	if (!tb_is_valid_vec2(force) || !tb_is_valid_vec2(point) || !can_push(w, b, bi, wake)) return;
	tb_vec2 f = tb_add(s->force, force);
	float t = s->torque + tb_cross(tb_sub(point, s->center), force);
	/* finite inputs can still overflow: refuse rather than poison the body */
	if (!tb_is_valid_vec2(f) || !isfinite(t)) return;
	s->force = f;
	s->torque = t;
}

void tb_body_apply_force_to_center(tb_world *w, tb_body_id id, tb_vec2 force, bool wake)
{
	BODY_MUT();
	if (!tb_is_valid_vec2(force) || !can_push(w, b, bi, wake)) return;
	tb_vec2 f = tb_add(s->force, force);
	if (tb_is_valid_vec2(f)) s->force = f;
}

void tb_body_apply_torque(tb_world *w, tb_body_id id, float torque, bool wake)
{
	BODY_MUT();
	if (!isfinite(torque) || !can_push(w, b, bi, wake)) return;
	if (isfinite(s->torque + torque)) s->torque += torque;
}

void tb_body_apply_linear_impulse(tb_world *w, tb_body_id id, tb_vec2 impulse, tb_vec2 point, bool wake)
{
	BODY_MUT();
	if (!tb_is_valid_vec2(impulse) || !tb_is_valid_vec2(point) || !can_push(w, b, bi, wake)) return;
	tb_vec2 v = tb_mul_add(s->v, s->inv_mass, impulse);
	float av = s->w + s->inv_inertia * tb_cross(tb_sub(point, s->center), impulse);
	if (!tb_is_valid_vec2(v) || !isfinite(av)) return;
	s->v = v;
	s->w = av;
}

void tb_body_apply_linear_impulse_to_center(tb_world *w, tb_body_id id, tb_vec2 impulse, bool wake)
{
	BODY_MUT();
	if (!tb_is_valid_vec2(impulse) || !can_push(w, b, bi, wake)) return;
	tb_vec2 v = tb_mul_add(s->v, s->inv_mass, impulse);
	if (tb_is_valid_vec2(v)) s->v = v;
}

void tb_body_apply_angular_impulse(tb_world *w, tb_body_id id, float impulse, bool wake)
{
	BODY_MUT();
	if (!isfinite(impulse) || !can_push(w, b, bi, wake)) return;
	float av = s->w + s->inv_inertia * impulse;
	if (isfinite(av)) s->w = av;
}

float tb_body_get_linear_damping(const tb_world *w, tb_body_id id)
{
	BODY_OR(0.0f);
	return s->linear_damping;
}

void tb_body_set_linear_damping(tb_world *w, tb_body_id id, float d)
{
	BODY_MUT();
	if (isfinite(d) && d >= 0.0f) s->linear_damping = d;
}

float tb_body_get_angular_damping(const tb_world *w, tb_body_id id)
{
	BODY_OR(0.0f);
	return s->angular_damping;
}

void tb_body_set_angular_damping(tb_world *w, tb_body_id id, float d)
{
	BODY_MUT();
	if (isfinite(d) && d >= 0.0f) s->angular_damping = d;
}

float tb_body_get_gravity_scale(const tb_world *w, tb_body_id id)
{
	BODY_OR(0.0f);
	return s->gravity_scale;
}

void tb_body_set_gravity_scale(tb_world *w, tb_body_id id, float g)
{
	BODY_MUT();
	if (!isfinite(g)) return;
	s->gravity_scale = g;
	tb_wake_body(w, bi);
}

bool tb_body_is_awake(const tb_world *w, tb_body_id id)
{
	BODY_OR(false);
	return b->awake && tb_body_is_simulated(b);
}

void tb_body_set_awake(tb_world *w, tb_body_id id, bool awake)
{
	BODY_MUT();
	if (awake) tb_wake_body(w, bi);
	else tb_body_sleep_island(w, bi);
}

bool tb_body_is_enabled(const tb_world *w, tb_body_id id)
{
	BODY_OR(false);
	return b->enabled;
}

void tb_body_set_enabled(tb_world *w, tb_body_id id, bool enabled)
{
	BODY_MUT();
	if (b->enabled == enabled) return;
	if (!enabled) {
		tb_destroy_body_contacts(w, bi, true);
		for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) tb_destroy_shape_proxy(w, k);
		b->enabled = false;
		/* jointed bodies lose their partner's constraint: let them move */
		wake_joint_partners_of(w, bi);
	} else {
		b->enabled = true;
		for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) {
			if (w->shapes[k].enabled) tb_create_shape_proxy(w, k);
		}
		if (b->type != TB_STATIC_BODY) {
			b->awake = false;
			tb_wake_body(w, bi);
		}
	}
}

bool tb_body_is_bullet(const tb_world *w, tb_body_id id)
{
	BODY_OR(false);
	return s->is_bullet;
}

void tb_body_set_bullet(tb_world *w, tb_body_id id, bool bullet)
{
	BODY_MUT();
	s->is_bullet = bullet;
}

bool tb_body_is_fixed_rotation(const tb_world *w, tb_body_id id)
{
	BODY_OR(false);
	return b->fixed_rotation;
}

void tb_body_set_fixed_rotation(tb_world *w, tb_body_id id, bool fixed)
{
	BODY_MUT();
	if (b->fixed_rotation == fixed) return;
	b->fixed_rotation = fixed;
	s->w = 0.0f;
	tb_update_body_mass(w, bi);
	tb_wake_body(w, bi);
}

bool tb_body_is_sleep_enabled(const tb_world *w, tb_body_id id)
{
	BODY_OR(false);
	return b->enable_sleep;
}

void tb_body_enable_sleep(tb_world *w, tb_body_id id, bool enable)
{
	BODY_MUT();
	b->enable_sleep = enable;
	if (!enable) tb_wake_body(w, bi);
}

void *tb_body_get_user_data(const tb_world *w, tb_body_id id)
{
	BODY_OR(NULL);
	return b->user_data;
}

void tb_body_set_user_data(tb_world *w, tb_body_id id, void *data)
{
	tb_body *b = tb_get_body(w, id);
	if (b) b->user_data = data;
}

tb_vec2 tb_body_get_world_point(const tb_world *w, tb_body_id id, tb_vec2 p)
{
	BODY_OR(tb_vec2_zero);
	return tb_transform_point(s->transform, p);
}

tb_vec2 tb_body_get_local_point(const tb_world *w, tb_body_id id, tb_vec2 p)
{
	BODY_OR(tb_vec2_zero);
	return tb_inv_transform_point(s->transform, p);
}

tb_vec2 tb_body_get_world_vector(const tb_world *w, tb_body_id id, tb_vec2 v)
{
	BODY_OR(tb_vec2_zero);
	return tb_rotate(s->transform.q, v);
}

tb_vec2 tb_body_get_local_vector(const tb_world *w, tb_body_id id, tb_vec2 v)
{
	BODY_OR(tb_vec2_zero);
	return tb_inv_rotate(s->transform.q, v);
}

tb_vec2 tb_body_get_world_point_velocity(const tb_world *w, tb_body_id id, tb_vec2 p)
{
	BODY_OR(tb_vec2_zero);
	return tb_add(s->v, tb_cross_sv(s->w, tb_sub(p, s->center)));
}

int tb_body_get_shapes(const tb_world *w, tb_body_id id, tb_shape_id *out, int capacity)
{
	BODY_OR(0);
	int n = 0;
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) {
		if (out && n < capacity) out[n] = tb_make_shape_id(w, k);
		n += 1;
	}
	return n;
}

int tb_body_get_shape_count(const tb_world *w, tb_body_id id)
{
	BODY_OR(0);
	return b->shape_count;
}

int tb_body_get_joints(const tb_world *w, tb_body_id id, tb_joint_id *out, int capacity)
{
	BODY_OR(0);
	int n = 0;
	for (int32_t key = b->head_joint_key; key != TB_NULL_INDEX;) {
		int32_t j = key >> 1;
		if (out && n < capacity) out[n] = tb_make_joint_id(w, j);
		n += 1;
		key = w->joints[j].edge_next[key & 1];
	}
	return n;
}

tb_aabb tb_body_compute_aabb(const tb_world *w, tb_body_id id)
{
	tb_aabb box = {{0.0f, 0.0f}, {0.0f, 0.0f}};
	BODY_OR(box);
	bool first = true;
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) {
		tb_aabb a = tb_compute_aabb(&w->shapes[k].geom, s->transform);
		box = first ? a : tb_aabb_union(box, a);
		first = false;
	}
	if (first) box.lower = box.upper = s->transform.p;
	return box;
}
