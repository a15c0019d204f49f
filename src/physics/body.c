/* tumble physics: bodies — lifetime, mass, sleep/wake and the public body API. */
#include "world.h"

tb_body_def tb_default_body_def(void)
{
	tb_body_def d;
	memset(&d, 0, sizeof d);
	d.type = TB_STATIC_BODY;
	d.gravity_scale = 1.0f;
	d.sleep_threshold = 0.05f;
	d.is_awake = true;
	d.is_enabled = true;
	d.enable_sleep = true;
	return d;
}

static bool valid_body_type(tb_body_type type)
{
	return type == TB_STATIC_BODY || type == TB_KINEMATIC_BODY || type == TB_DYNAMIC_BODY;
}

static tb_status validate_body_def(const tb_body_def *def)
{
	if (!tb_is_valid_vec2(def->position) || !isfinite(def->angle) || !tb_is_valid_vec2(def->linear_velocity) ||
	    !isfinite(def->angular_velocity) || !isfinite(def->gravity_scale) || !isfinite(def->linear_damping) ||
	    !isfinite(def->angular_damping) || !isfinite(def->sleep_threshold))
		return TB_ERR_INVALID_NUMBER;
	if (fabsf(def->position.x) > TB_HUGE || fabsf(def->position.y) > TB_HUGE) return TB_ERR_INVALID_NUMBER;
	if (def->linear_damping < 0.0f || def->angular_damping < 0.0f || def->sleep_threshold < 0.0f) return TB_ERR_NEGATIVE;
	if (!valid_body_type(def->type)) return TB_ERR_INVALID_ARGUMENT;
	return TB_OK;
}

/* A fresh slot needs room in every array that grows with the bodies: the
 * step's, and the graph walks' stack, which holds every body once plus the start. */
static tb_status reserve_body_slot(tb_world *w)
{
	tb_id_pool *pool = &w->body_pool;
	int32_t limit = w->def.limits.max_bodies;
	if (limit > 0 && tb_id_pool_count(pool) >= limit) return TB_ERR_BODY_LIMIT;
	if (tb_id_pool_peek(pool) < pool->next_index) return TB_OK;
	int32_t n = pool->next_index + 1;
	tb_allocator *a = &w->allocator;
	if (!tb_body_array_reserve(a, &w->bodies, n) || !tb_body_sim_array_reserve(a, &w->sims, n) ||
	    !tb_id_pool_reserve(a, pool, n) || !tb_int_array_reserve(a, &w->stack, n + 1) ||
	    !tb_reserve_step_arrays(w, n, w->joints.count))
		return TB_ERR_OUT_OF_MEMORY;
	return TB_OK;
}

tb_body_id tb_create_body(tb_world *w, const tb_body_def *def, tb_status *status)
{
	tb_status ignored;
	if (status == NULL) status = &ignored;
	if (w == NULL || def == NULL) {
		*status = TB_ERR_INVALID_ARGUMENT;
		return tb_null_body_id;
	}
	if (w->locked) {
		*status = TB_ERR_LOCKED;
		return tb_null_body_id;
	}
	*status = validate_body_def(def);
	if (*status == TB_OK) *status = reserve_body_slot(w);
	if (*status != TB_OK) return tb_null_body_id;

	int32_t i = tb_alloc_id(&w->body_pool);
	if (i == w->bodies.count) {
		w->bodies.count += 1;
		w->sims.count += 1;
	}
	tb_body *b = w->bodies.data + i;
	uint32_t gen = tb_id_pool_issue(&w->body_pool, i, b->generation);
	memset(b, 0, sizeof *b);
	b->generation = gen;
	b->in_use = true;
	b->type = def->type;
	b->user_data = def->user_data;
	b->head_shape = b->tail_shape = TB_NULL_INDEX;
	b->head_contact_key = TB_NULL_INDEX;
	b->head_joint_key = TB_NULL_INDEX;
	b->sleep_threshold = def->sleep_threshold;
	b->enabled = def->is_enabled;
	b->enable_sleep = def->enable_sleep;
	b->fixed_rotation = def->fixed_rotation;
	b->awake = def->type != TB_STATIC_BODY && def->is_awake;

	tb_body_sim *s = w->sims.data + i;
	memset(s, 0, sizeof *s);
	s->transform.p = def->position;
	s->transform.q = tb_make_rot(def->angle);
	s->center = def->position;
	s->center0 = def->position;
	s->rotation0 = s->transform.q;
	if (def->type != TB_STATIC_BODY) {
		s->linear_velocity = def->linear_velocity;
		s->angular_velocity = def->angular_velocity;
	}
	s->linear_damping = def->linear_damping;
	s->angular_damping = def->angular_damping;
	s->gravity_scale = def->gravity_scale;
	s->is_bullet = def->is_bullet;
	s->type = (uint8_t)def->type;
	s->state_index = TB_NULL_INDEX;
	tb_update_body_mass(w, i);
	w->awake_body_bits.count = tb_bit_words(w->bodies.count);
	tb_sync_body_awake(w, i);
	*status = TB_OK;
	return tb_make_body_id(w, i);
}

/* Forgets the accumulated contact impulses of everything touching a body,
 * through the touching graph. Warm starting replays last step's impulses, which
 * carried the weight of a body now gone: replayed, they throw the rest of the
 * stack upwards. */
static void reset_touching_impulses(tb_world *w, int32_t start)
{
	int32_t *stack = w->stack.data;
	int32_t n = 0;
	stack[n++] = start;
	w->bodies.data[start].is_marked = true;
	while (n > 0) {
		tb_body_edge_iter it = tb_body_contacts(w, stack[--n]);
		tb_body_edge e;
		while (tb_next_body_edge(w, &it, &e)) {
			tb_contact *c = w->contacts.data + e.contact;
			for (int p = 0; p < c->manifold.point_count; ++p) {
				c->manifold.points[p].normal_impulse = 0.0f;
				c->manifold.points[p].tangent_impulse = 0.0f;
			}
			tb_body *o = w->bodies.data + e.other;
			if ((c->flags & TB_CONTACT_TOUCHING) == 0 || o->type != TB_DYNAMIC_BODY || o->is_marked) continue;
			o->is_marked = true;
			TB_ASSERT(n < w->stack.capacity);
			stack[n++] = e.other;
		}
	}
	/* clear the marks again (same walk, now stopping at unmarked bodies) */
	stack[n++] = start;
	w->bodies.data[start].is_marked = false;
	while (n > 0) {
		tb_body_edge_iter it = tb_body_contacts(w, stack[--n]);
		tb_body_edge e;
		while (tb_next_body_edge(w, &it, &e)) {
			tb_body *o = w->bodies.data + e.other;
			if (!o->is_marked) continue;
			o->is_marked = false;
			TB_ASSERT(n < w->stack.capacity);
			stack[n++] = e.other;
		}
	}
}

void tb_destroy_body(tb_world *w, tb_body_id id)
{
	tb_body *b = tb_body_lookup(w, id);
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
	w->sims.data[i].state_index = TB_NULL_INDEX;
	tb_sync_body_awake(w, i);
	tb_free_id(&w->body_pool, i);
}

bool tb_body_is_valid(const tb_world *w, tb_body_id id) { return tb_body_lookup(w, id) != NULL; }

/* ---- mass ---- */

static void add_mass_data(tb_mass_sum *sum, const tb_mass_data *md)
{
	sum->mass += md->mass;
	sum->moment = tb_mul_add(sum->moment, md->mass, md->center);
	sum->rot_inertia += md->rotational_inertia + md->mass * tb_dot(md->center, md->center);
}

/* A massless shape adds nothing, not even a rounding. */
static void add_mass(tb_mass_sum *sum, const tb_geometry *g, float density)
{
	if (density == 0.0f) return;
	tb_mass_data md = tb_compute_mass(g, density);
	add_mass_data(sum, &md);
}

static tb_mass_sum sum_body_mass(const tb_world *w, int32_t bi, int32_t replace, const tb_mass_data *shape_mass)
{
	tb_mass_sum sum = {0.0f, {0.0f, 0.0f}, 0.0f};
	const tb_body *b = w->bodies.data + bi;
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
		const tb_shape *sh = w->shapes.data + k;
		if (k != replace) add_mass(&sum, &sh->geom, sh->density);
		else if (shape_mass != NULL) add_mass_data(&sum, shape_mass);
	}
	if (replace == TB_NULL_INDEX && shape_mass != NULL) add_mass_data(&sum, shape_mass);
	return sum;
}

tb_status tb_check_body_mass(const tb_world *w, int32_t body, int32_t replace, const tb_mass_data *shape_mass,
                             tb_mass_sum *out)
{
	tb_mass_sum sum = sum_body_mass(w, body, replace, shape_mass);
	if (out != NULL) *out = sum;
	if (sum.mass == 0.0f) return TB_OK;
	if (!isnormal(sum.mass) || !isfinite(sum.rot_inertia) || !tb_is_valid_vec2(sum.moment))
		return TB_ERR_MASS_RANGE;
	tb_vec2 center = tb_mul_sv(1.0f / sum.mass, sum.moment);
	float inertia = sum.rot_inertia - sum.mass * tb_dot(center, center);
	if (!tb_is_valid_vec2(center) || !isfinite(inertia)) return TB_ERR_MASS_RANGE;
	return TB_OK;
}

void tb_update_body_mass(tb_world *w, int32_t bi) { tb_apply_body_mass(w, bi, NULL); }

void tb_apply_body_mass(tb_world *w, int32_t bi, const tb_mass_sum *known)
{
	tb_body *b = w->bodies.data + bi;
	tb_body_sim *s = w->sims.data + bi;
	b->mass = 0.0f;
	b->inertia = 0.0f;
	s->inv_mass = 0.0f;
	s->inv_inertia = 0.0f;
	s->min_extent = 1.0e9f;
	s->max_extent = 0.0f;

	tb_vec2 local_center = tb_vec2_zero;
	if (b->type == TB_DYNAMIC_BODY) {
		tb_mass_sum sum = known != NULL ? *known : sum_body_mass(w, bi, TB_NULL_INDEX, NULL);
		/* shapes are refused when they would make these degenerate
		 * (tb_check_body_mass); what cancellation can still leave (a tiny or
		 * negative inertia) is clamped, so nothing downstream turns into NaN */
		if (isnormal(sum.mass) && isfinite(sum.rot_inertia) && tb_is_valid_vec2(sum.moment)) {
			b->mass = sum.mass;
			local_center = tb_mul_sv(1.0f / b->mass, sum.moment);
			if (!tb_is_valid_vec2(local_center)) local_center = tb_vec2_zero;
			b->inertia = sum.rot_inertia - b->mass * tb_dot(local_center, local_center);
			if (!(b->inertia > 0.0f) || !isnormal(b->inertia) || !isfinite(b->inertia)) b->inertia = 0.0f;
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
		tb_vec2 v = tb_add(s->linear_velocity, tb_cross_sv(s->angular_velocity, tb_sub(s->center, old_center)));
		if (tb_is_valid_vec2(v)) s->linear_velocity = v;
	}
	if (b->fixed_rotation) s->angular_velocity = 0.0f;

	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
		const tb_shape *sh = w->shapes.data + k;
		s->min_extent = tb_minf(s->min_extent, tb_shape_min_extent(sh));
		s->max_extent = tb_maxf(s->max_extent, tb_shape_max_extent(sh, local_center));
	}
	if (b->head_shape == TB_NULL_INDEX) s->min_extent = 0.0f;
	tb_update_contact_walls(w, bi);
}

tb_status tb_body_apply_mass_from_shapes(tb_world *w, tb_body_id id)
{
	if (tb_body_lookup(w, id) == NULL) return TB_ERR_STALE_HANDLE;
	if (w->locked) return TB_ERR_LOCKED;
	tb_update_body_mass(w, id.index1 - 1);
	return TB_OK;
}

/* ---- sleep and wake ---- */

static void push_walk(tb_world *w, int32_t *count, int32_t body)
{
	TB_ASSERT(*count < w->stack.capacity);
	w->stack.data[(*count)++] = body;
}

/* Wakes the body and everything it touches or is jointed to that sleeps: sleeping
 * bodies form islands, and half an island awake would sink into the sleeping half. */
void tb_wake_body(tb_world *w, int32_t bi)
{
	tb_body *b = w->bodies.data + bi;
	if (!b->in_use || !tb_body_is_simulated(b)) return;
	/* an awake body keeps its sleep timer: the step resets it when the body
	 * really moves, so nudging a resting body every frame does not pin it awake */
	if (b->awake) return;
	b->awake = true;
	b->sleep_time = 0.0f;
	tb_sync_body_awake(w, bi);
	int32_t n = 0;
	push_walk(w, &n, bi);
	while (n > 0) {
		tb_body_edge_iter it = tb_body_edges(w, w->stack.data[--n]);
		tb_body_edge e;
		while (tb_next_body_edge(w, &it, &e)) {
			if (e.contact != TB_NULL_INDEX && (w->contacts.data[e.contact].flags & TB_CONTACT_TOUCHING) == 0) continue;
			tb_body *o = w->bodies.data + e.other;
			if (o->awake || !tb_body_is_simulated(o)) continue;
			o->awake = true;
			o->sleep_time = 0.0f;
			tb_sync_body_awake(w, e.other);
			push_walk(w, &n, e.other);
		}
	}
}

void tb_sync_body_awake(tb_world *w, int32_t bi)
{
	uint64_t *word = w->awake_body_bits.data + (bi >> 6), bit = 1ull << (bi & 63);
	bool active = tb_body_is_active(w->bodies.data + bi);
	if (((*word & bit) != 0) == active) return;
	*word ^= bit;
	tb_body_edge_iter it = tb_body_edges(w, bi);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) {
		if (e.contact != TB_NULL_INDEX) tb_sync_contact_active(w, e.contact);
		else tb_sync_joint_active(w, e.joint);
	}
}

void tb_sync_contact_active(tb_world *w, int32_t ci)
{
	const tb_contact *c = w->contacts.data + ci;
	const uint64_t *bodies = w->awake_body_bits.data;
	bool active = c->in_use && (tb_bit_get(bodies, c->edges[0].body) || tb_bit_get(bodies, c->edges[1].body));
	uint64_t *word = w->active_contact_bits.data + (ci >> 6), bit = 1ull << (ci & 63);
	w->contact_activations += active && (*word & bit) == 0;
	*word = active ? *word | bit : *word & ~bit;
}

void tb_sync_joint_active(tb_world *w, int32_t ji)
{
	const tb_joint *j = w->joints.data + ji;
	const uint64_t *bodies = w->awake_body_bits.data;
	bool active = j->in_use && (tb_bit_get(bodies, j->body_a) || tb_bit_get(bodies, j->body_b));
	uint64_t *word = w->active_joint_bits.data + (ji >> 6), bit = 1ull << (ji & 63);
	*word = active ? *word | bit : *word & ~bit;
}

void tb_rebuild_awake_sets(tb_world *w)
{
	w->awake_body_bits.count = tb_bit_words(w->bodies.count);
	w->active_contact_bits.count = tb_bit_words(w->contacts.count);
	w->active_joint_bits.count = tb_bit_words(w->joints.count);
	if (w->active_joint_bits.capacity > 0)
		memset(w->active_joint_bits.data, 0, (size_t)w->active_joint_bits.capacity * sizeof(uint64_t));
	if (w->awake_body_bits.capacity > 0)
		memset(w->awake_body_bits.data, 0, (size_t)w->awake_body_bits.capacity * sizeof(uint64_t));
	if (w->active_contact_bits.capacity > 0)
		memset(w->active_contact_bits.data, 0, (size_t)w->active_contact_bits.capacity * sizeof(uint64_t));
	/* no body holds a state index between a restore and the next step */
	for (int32_t i = 0; i < w->bodies.count; ++i) {
		w->sims.data[i].state_index = TB_NULL_INDEX;
		if (tb_body_is_active(w->bodies.data + i)) w->awake_body_bits.data[i >> 6] |= 1ull << (i & 63);
	}
	for (int32_t i = 0; i < w->contacts.count; ++i) tb_sync_contact_active(w, i);
	for (int32_t i = 0; i < w->joints.count; ++i) tb_sync_joint_active(w, i);
	/* and the count of touching contacts, which is no more the image's than the sets */
	w->touching_contact_count = 0;
	for (int32_t i = 0; i < w->contacts.count; ++i) {
		const tb_contact *c = w->contacts.data + i;
		w->touching_contact_count += c->in_use && (c->flags & TB_CONTACT_TOUCHING) != 0;
	}
}

static void sleep_body(tb_world *w, int32_t i)
{
	tb_body *b = w->bodies.data + i;
	tb_body_sim *s = w->sims.data + i;
	b->awake = false;
	b->sleep_time = 0.0f;
	s->linear_velocity = tb_vec2_zero;
	s->angular_velocity = 0.0f;
	s->force = tb_vec2_zero;
	s->torque = 0.0f;
	tb_sync_body_awake(w, i);
}

void tb_body_sleep_island(tb_world *w, int32_t bi)
{
	tb_body *b = w->bodies.data + bi;
	if (!b->in_use || !tb_body_is_simulated(b) || !b->awake) return;
	sleep_body(w, bi);
	int32_t n = 0;
	push_walk(w, &n, bi);
	while (n > 0) {
		int32_t i = w->stack.data[--n];
		if (w->bodies.data[i].type != TB_DYNAMIC_BODY) continue; /* kinematic bodies do not join islands */
		tb_body_edge_iter it = tb_body_edges(w, i);
		tb_body_edge e;
		while (tb_next_body_edge(w, &it, &e)) {
			if (e.contact != TB_NULL_INDEX && (w->contacts.data[e.contact].flags & TB_CONTACT_TOUCHING) == 0) continue;
			tb_body *o = w->bodies.data + e.other;
			if (!o->awake || o->type != TB_DYNAMIC_BODY || !o->enabled) continue;
			sleep_body(w, e.other);
			push_walk(w, &n, e.other);
		}
	}
}

/* ---- broad-phase boxes ---- */

/* How many steps of motion a re-inserted box is stretched ahead by: a body in
 * steady flight then re-enters the tree every few steps, not every step. */
#define TB_AABB_PREDICTION 3.0f

void tb_update_body_shape_aabbs(tb_world *w, int32_t bi, bool stepped, bool force_reinsert)
{
	tb_update_body_shape_aabbs_from(w, bi, stepped, force_reinsert, NULL);
}

void tb_update_body_shape_aabbs_from(tb_world *w, int32_t bi, bool stepped, bool force_reinsert, const tb_aabb *head_box)
{
	tb_body *b = w->bodies.data + bi;
	const tb_body_sim *sim = w->sims.data + bi;
	bool is_static = b->type == TB_STATIC_BODY, is_kinematic = b->type == TB_KINEMATIC_BODY;
	float spec = is_static ? 0.0f : TB_SPECULATIVE_DISTANCE;
	float margin = is_static ? 0.0f : TB_AABB_MARGIN;
	/* the stretch only for a body in free flight: one among others (a pile
	 * being stirred) would catch pairs it never meets and lose them again
	 * when it turns */
	tb_vec2 d = stepped && (b->contact_count == 0 || is_kinematic) ? tb_sub(sim->center, sim->center0) : tb_vec2_zero;
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
		tb_shape *s = w->shapes.data + k;
		tb_aabb was = s->aabb;
		if (head_box != NULL && k == b->head_shape) {
			/* the bits tb_compute_shape_aabb_margin gives: the same box, then the margin */
			s->aabb.lower = tb_sub(head_box->lower, tb_v2(spec, spec));
			s->aabb.upper = tb_add(head_box->upper, tb_v2(spec, spec));
		} else {
			s->aabb = tb_compute_shape_aabb_margin(s, sim->transform, spec);
		}
		if (s->proxy == TB_NULL_INDEX) continue;
		/* The step's motion, taken as the next step's: low and high sides. */
		tb_vec2 lo = tb_v2(tb_minf(0.0f, d.x), tb_minf(0.0f, d.y));
		tb_vec2 hi = tb_v2(tb_maxf(0.0f, d.x), tb_maxf(0.0f, d.y));
		tb_aabb need = s->aabb;
		if (is_kinematic && stepped) {
			/* A kinematic body goes where its velocity says, through anything,
			 * and may be fast (a 30 m/s wall) or turning with its centre still
			 * (a tumbler): each side of its box moves as it moved in the step,
			 * and the box must hold the next step too, so every pair it will
			 * meet exists a step before they touch (the speculative reach of
			 * contact.c then catches it). Dynamic bodies keep the cheaper rule:
			 * their fast motion is swept (solver.c), and holding their next
			 * step too would re-insert falling bodies a step earlier. */
			lo = tb_v2(tb_minf(0.0f, s->aabb.lower.x - was.lower.x), tb_minf(0.0f, s->aabb.lower.y - was.lower.y));
			hi = tb_v2(tb_maxf(0.0f, s->aabb.upper.x - was.upper.x), tb_maxf(0.0f, s->aabb.upper.y - was.upper.y));
			need.lower = tb_add(need.lower, lo);
			need.upper = tb_add(need.upper, hi);
		}
		if (force_reinsert || !tb_aabb_contains(s->fat_aabb, need)) {
			tb_aabb old_fat = s->fat_aabb;
			tb_aabb fat;
			fat.lower = tb_add(tb_sub(s->aabb.lower, tb_v2(margin, margin)), tb_mul_sv(TB_AABB_PREDICTION, lo));
			fat.upper = tb_add(tb_add(s->aabb.upper, tb_v2(margin, margin)), tb_mul_sv(TB_AABB_PREDICTION, hi));
			s->fat_aabb = fat;
			/* A movable proxy is placed where it stands and reinserted with the
			 * step's others at the pair update, or not at all when the tree is
			 * rebuilt there (most of them moved). */
			if (s->tree == 1) tb_dynamic_tree_place_proxy(&w->broad_phase.trees[1], s->proxy, fat);
			else tb_dynamic_tree_move_proxy(&w->broad_phase.trees[s->tree], s->proxy, fat);
			/* merely moved, its pairs are as they were; forced, they are looked up again */
			tb_broad_phase_buffer_move(w, k, force_reinsert ? NULL : &old_fat);
		}
	}
}

bool tb_should_bodies_collide(const tb_world *w, int32_t ia, int32_t ib)
{
	const tb_body *a = w->bodies.data + ia, *b = w->bodies.data + ib;
	if (a->type != TB_DYNAMIC_BODY && b->type != TB_DYNAMIC_BODY) return false;
	/* a joint between them may forbid contact: scan the shorter list */
	int32_t scan = a->joint_count <= b->joint_count ? ia : ib;
	int32_t other = scan == ia ? ib : ia;
	tb_body_edge_iter it = tb_body_joints(w, scan);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) {
		if (e.other == other && !w->joints.data[e.joint].def.collide_connected) return false;
	}
	return true;
}

/* Wakes the bodies on the other side of this body's joints. */
static void wake_joint_partners_of(tb_world *w, int32_t bi)
{
	tb_body_edge_iter it = tb_body_joints(w, bi);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) tb_wake_body(w, e.other);
}

/* Room in the tree of bodies of `type` for every shape of a body, before its
 * proxies are made there. */
static bool reserve_proxies(tb_world *w, const tb_body *b, tb_body_type type)
{
	tb_dynamic_tree *tree = &w->broad_phase.trees[type == TB_STATIC_BODY ? 0 : 1];
	return tb_dynamic_tree_reserve(tree, b->shape_count);
}

/* ---- public accessors ---- */

/* The body and its simulation state of a live id, or NULL. */
static tb_body *lookup(const tb_world *w, tb_body_id id, tb_body_sim **sim)
{
	tb_body *b = tb_body_lookup(w, id);
	if (b != NULL) *sim = w->sims.data + (id.index1 - 1);
	return b;
}

/* As lookup, for calls that change the body: why not, or TB_OK. */
static tb_status lookup_mut(tb_world *w, tb_body_id id, tb_body **body, tb_body_sim **sim)
{
	*body = lookup(w, id, sim);
	if (*body == NULL) return TB_ERR_STALE_HANDLE;
	if (w->locked) return TB_ERR_LOCKED;
	return TB_OK;
}

tb_body_type tb_body_get_type(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b ? b->type : TB_STATIC_BODY;
}

tb_status tb_body_set_type(tb_world *w, tb_body_id id, tb_body_type type)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!valid_body_type(type)) return TB_ERR_INVALID_ARGUMENT;
	if (b->type == type) return TB_OK;
	/* the proxies move to the other tree when the body turns static or back */
	bool other_tree = (b->type == TB_STATIC_BODY) != (type == TB_STATIC_BODY);
	if (b->enabled && other_tree && !reserve_proxies(w, b, type)) return TB_ERR_OUT_OF_MEMORY;
	int32_t bi = id.index1 - 1;
	tb_destroy_body_contacts(w, bi, true);
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) tb_destroy_shape_proxy(w, k);
	b->type = type;
	s->type = (uint8_t)type;
	if (type == TB_STATIC_BODY) {
		s->linear_velocity = tb_vec2_zero;
		s->angular_velocity = 0.0f;
		b->awake = false;
	}
	if (b->enabled) {
		/* a disabled shape stays out of the broad phase */
		for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
			if (w->shapes.data[k].enabled) tb_create_shape_proxy(w, k);
		}
	}
	tb_update_body_mass(w, bi);
	if (type != TB_STATIC_BODY) {
		b->awake = false;
		tb_wake_body(w, bi);
	}
	/* joints to this body changed their nature: wake the other sides */
	wake_joint_partners_of(w, bi);
	tb_sync_body_awake(w, bi);
	return TB_OK;
}

tb_vec2 tb_body_get_position(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->transform.p : tb_vec2_zero;
}

float tb_body_get_angle(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? tb_rot_angle(s->transform.q) : 0.0f;
}

tb_rot tb_body_get_rotation(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->transform.q : tb_rot_identity;
}

tb_transform tb_body_get_transform(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->transform : tb_transform_identity;
}

tb_status tb_body_set_transform(tb_world *w, tb_body_id id, tb_vec2 position, float angle)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!tb_is_valid_vec2(position) || !isfinite(angle) || fabsf(position.x) > TB_HUGE || fabsf(position.y) > TB_HUGE)
		return TB_ERR_INVALID_NUMBER;
	int32_t bi = id.index1 - 1;
	s->transform.p = position;
	s->transform.q = tb_make_rot(angle);
	s->center = tb_transform_point(s->transform, s->local_center);
	s->center0 = s->center;
	s->rotation0 = s->transform.q;
	if (b->enabled) tb_update_body_shape_aabbs(w, bi, false, false);
	tb_wake_body(w, bi);
	return TB_OK;
}

tb_vec2 tb_body_get_world_center(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->center : tb_vec2_zero;
}

tb_vec2 tb_body_get_local_center(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->local_center : tb_vec2_zero;
}

tb_vec2 tb_body_get_linear_velocity(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->linear_velocity : tb_vec2_zero;
}

float tb_body_get_angular_velocity(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->angular_velocity : 0.0f;
}

tb_status tb_body_set_linear_velocity(tb_world *w, tb_body_id id, tb_vec2 velocity)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!tb_is_valid_vec2(velocity)) return TB_ERR_INVALID_NUMBER;
	if (b->type == TB_STATIC_BODY) return TB_ERR_WRONG_TYPE;
	if (tb_length_sq(velocity) > 0.0f) tb_wake_body(w, id.index1 - 1);
	s->linear_velocity = velocity;
	return TB_OK;
}

tb_status tb_body_set_angular_velocity(tb_world *w, tb_body_id id, float angular_velocity)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!isfinite(angular_velocity)) return TB_ERR_INVALID_NUMBER;
	if (b->type == TB_STATIC_BODY || b->fixed_rotation) return TB_ERR_WRONG_TYPE;
	if (angular_velocity != 0.0f) tb_wake_body(w, id.index1 - 1);
	s->angular_velocity = angular_velocity;
	return TB_OK;
}

float tb_body_get_mass(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b && b->type == TB_DYNAMIC_BODY ? b->mass : 0.0f;
}

float tb_body_get_inertia(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b && b->type == TB_DYNAMIC_BODY ? b->inertia : 0.0f;
}

tb_mass_data tb_body_get_mass_data(const tb_world *w, tb_body_id id)
{
	tb_mass_data md = {0.0f, {0.0f, 0.0f}, 0.0f};
	tb_body_sim *s;
	if (lookup(w, id, &s) == NULL) return md;
	md.mass = tb_body_get_mass(w, id);
	md.center = s->local_center;
	md.rotational_inertia = tb_body_get_inertia(w, id);
	return md;
}

/* Forces and impulses move awake dynamic bodies only; wake asks to wake a
 * sleeping one first. Anything else is not an error: nothing happens. */
static bool can_push(tb_world *w, tb_body *b, int32_t bi, bool wake)
{
	if (b->type != TB_DYNAMIC_BODY || !b->enabled) return false;
	if (wake && !b->awake) tb_wake_body(w, bi);
	return b->awake;
}

tb_status tb_body_apply_force(tb_world *w, tb_body_id id, tb_vec2 force, tb_vec2 point, bool wake)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!tb_is_valid_vec2(force) || !tb_is_valid_vec2(point)) return TB_ERR_INVALID_NUMBER;
	if (!can_push(w, b, id.index1 - 1, wake)) return TB_OK;
	tb_vec2 f = tb_add(s->force, force);
	float t = s->torque + tb_cross(tb_sub(point, s->center), force);
	/* finite inputs can still overflow: refuse rather than poison the body */
	if (!tb_is_valid_vec2(f) || !isfinite(t)) return TB_ERR_INVALID_NUMBER;
	s->force = f;
	s->torque = t;
	return TB_OK;
}

tb_status tb_body_apply_force_to_center(tb_world *w, tb_body_id id, tb_vec2 force, bool wake)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!tb_is_valid_vec2(force)) return TB_ERR_INVALID_NUMBER;
	if (!can_push(w, b, id.index1 - 1, wake)) return TB_OK;
	tb_vec2 f = tb_add(s->force, force);
	if (!tb_is_valid_vec2(f)) return TB_ERR_INVALID_NUMBER;
	s->force = f;
	return TB_OK;
}

tb_status tb_body_apply_torque(tb_world *w, tb_body_id id, float torque, bool wake)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!isfinite(torque)) return TB_ERR_INVALID_NUMBER;
	if (!can_push(w, b, id.index1 - 1, wake)) return TB_OK;
	if (!isfinite(s->torque + torque)) return TB_ERR_INVALID_NUMBER;
	s->torque += torque;
	return TB_OK;
}

tb_status tb_body_apply_linear_impulse(tb_world *w, tb_body_id id, tb_vec2 impulse, tb_vec2 point, bool wake)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!tb_is_valid_vec2(impulse) || !tb_is_valid_vec2(point)) return TB_ERR_INVALID_NUMBER;
	if (!can_push(w, b, id.index1 - 1, wake)) return TB_OK;
	tb_vec2 v = tb_mul_add(s->linear_velocity, s->inv_mass, impulse);
	float av = s->angular_velocity + s->inv_inertia * tb_cross(tb_sub(point, s->center), impulse);
	if (!tb_is_valid_vec2(v) || !isfinite(av)) return TB_ERR_INVALID_NUMBER;
	s->linear_velocity = v;
	s->angular_velocity = av;
	return TB_OK;
}

tb_status tb_body_apply_linear_impulse_to_center(tb_world *w, tb_body_id id, tb_vec2 impulse, bool wake)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!tb_is_valid_vec2(impulse)) return TB_ERR_INVALID_NUMBER;
	if (!can_push(w, b, id.index1 - 1, wake)) return TB_OK;
	tb_vec2 v = tb_mul_add(s->linear_velocity, s->inv_mass, impulse);
	if (!tb_is_valid_vec2(v)) return TB_ERR_INVALID_NUMBER;
	s->linear_velocity = v;
	return TB_OK;
}

tb_status tb_body_apply_angular_impulse(tb_world *w, tb_body_id id, float impulse, bool wake)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!isfinite(impulse)) return TB_ERR_INVALID_NUMBER;
	if (!can_push(w, b, id.index1 - 1, wake)) return TB_OK;
	float av = s->angular_velocity + s->inv_inertia * impulse;
	if (!isfinite(av)) return TB_ERR_INVALID_NUMBER;
	s->angular_velocity = av;
	return TB_OK;
}

float tb_body_get_linear_damping(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->linear_damping : 0.0f;
}

static tb_status check_damping(float d)
{
	if (!isfinite(d)) return TB_ERR_INVALID_NUMBER;
	return d >= 0.0f ? TB_OK : TB_ERR_NEGATIVE;
}

tb_status tb_body_set_linear_damping(tb_world *w, tb_body_id id, float d)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st == TB_OK) st = check_damping(d);
	if (st == TB_OK) s->linear_damping = d;
	return st;
}

float tb_body_get_angular_damping(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->angular_damping : 0.0f;
}

tb_status tb_body_set_angular_damping(tb_world *w, tb_body_id id, float d)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st == TB_OK) st = check_damping(d);
	if (st == TB_OK) s->angular_damping = d;
	return st;
}

float tb_body_get_gravity_scale(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->gravity_scale : 0.0f;
}

tb_status tb_body_set_gravity_scale(tb_world *w, tb_body_id id, float g)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (!isfinite(g)) return TB_ERR_INVALID_NUMBER;
	s->gravity_scale = g;
	tb_wake_body(w, id.index1 - 1);
	return TB_OK;
}

bool tb_body_is_awake(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b && b->awake && tb_body_is_simulated(b);
}

tb_status tb_body_set_awake(tb_world *w, tb_body_id id, bool awake)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (awake) tb_wake_body(w, id.index1 - 1);
	else tb_body_sleep_island(w, id.index1 - 1);
	return TB_OK;
}

bool tb_body_is_enabled(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b && b->enabled;
}

tb_status tb_body_set_enabled(tb_world *w, tb_body_id id, bool enabled)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	if (b->enabled == enabled) return TB_OK;
	int32_t bi = id.index1 - 1;
	if (!enabled) {
		tb_destroy_body_contacts(w, bi, true);
		for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body)
			tb_destroy_shape_proxy(w, k);
		b->enabled = false;
		/* jointed bodies lose their partner's constraint: let them move */
		wake_joint_partners_of(w, bi);
	} else {
		if (!reserve_proxies(w, b, b->type)) return TB_ERR_OUT_OF_MEMORY;
		b->enabled = true;
		for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
			if (w->shapes.data[k].enabled) tb_create_shape_proxy(w, k);
		}
		if (b->type != TB_STATIC_BODY) {
			b->awake = false;
			tb_wake_body(w, bi);
		}
	}
	tb_sync_body_awake(w, bi);
	return TB_OK;
}

bool tb_body_is_bullet(const tb_world *w, tb_body_id id)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? s->is_bullet : false;
}

tb_status tb_body_set_bullet(tb_world *w, tb_body_id id, bool bullet)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st == TB_OK) s->is_bullet = bullet;
	return st;
}

bool tb_body_is_fixed_rotation(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b && b->fixed_rotation;
}

tb_status tb_body_set_fixed_rotation(tb_world *w, tb_body_id id, bool fixed)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK || b->fixed_rotation == fixed) return st;
	b->fixed_rotation = fixed;
	s->angular_velocity = 0.0f;
	tb_update_body_mass(w, id.index1 - 1);
	tb_wake_body(w, id.index1 - 1);
	return TB_OK;
}

bool tb_body_is_sleep_enabled(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b && b->enable_sleep;
}

tb_status tb_body_enable_sleep(tb_world *w, tb_body_id id, bool enable)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st != TB_OK) return st;
	b->enable_sleep = enable;
	if (!enable) tb_wake_body(w, id.index1 - 1);
	return TB_OK;
}

float tb_body_get_sleep_threshold(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b ? b->sleep_threshold : 0.0f;
}

tb_status tb_body_set_sleep_threshold(tb_world *w, tb_body_id id, float threshold)
{
	tb_body *b;
	tb_body_sim *s;
	tb_status st = lookup_mut(w, id, &b, &s);
	if (st == TB_OK) st = check_damping(threshold);
	if (st != TB_OK) return st;
	b->sleep_threshold = threshold;
	/* its stillness is measured afresh against the new threshold */
	b->sleep_time = 0.0f;
	return TB_OK;
}

void *tb_body_get_user_data(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b ? b->user_data : NULL;
}

tb_status tb_body_set_user_data(tb_world *w, tb_body_id id, void *data)
{
	tb_body *b = tb_body_lookup(w, id);
	if (b == NULL) return TB_ERR_STALE_HANDLE;
	b->user_data = data;
	return TB_OK;
}

tb_vec2 tb_body_get_world_point(const tb_world *w, tb_body_id id, tb_vec2 p)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? tb_transform_point(s->transform, p) : tb_vec2_zero;
}

tb_vec2 tb_body_get_local_point(const tb_world *w, tb_body_id id, tb_vec2 p)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? tb_inv_transform_point(s->transform, p) : tb_vec2_zero;
}

tb_vec2 tb_body_get_world_vector(const tb_world *w, tb_body_id id, tb_vec2 v)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? tb_rotate(s->transform.q, v) : tb_vec2_zero;
}

tb_vec2 tb_body_get_local_vector(const tb_world *w, tb_body_id id, tb_vec2 v)
{
	tb_body_sim *s;
	return lookup(w, id, &s) ? tb_inv_rotate(s->transform.q, v) : tb_vec2_zero;
}

tb_vec2 tb_body_get_world_point_velocity(const tb_world *w, tb_body_id id, tb_vec2 p)
{
	tb_body_sim *s;
	if (lookup(w, id, &s) == NULL) return tb_vec2_zero;
	return tb_add(s->linear_velocity, tb_cross_sv(s->angular_velocity, tb_sub(p, s->center)));
}

int tb_body_get_shapes(const tb_world *w, tb_body_id id, tb_shape_id *out, int capacity)
{
	const tb_body *b = tb_body_lookup(w, id);
	if (b == NULL) return 0;
	int n = 0;
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
		if (out && n < capacity) out[n] = tb_make_shape_id(w, k);
		n += 1;
	}
	return n;
}

int tb_body_get_shape_count(const tb_world *w, tb_body_id id)
{
	const tb_body *b = tb_body_lookup(w, id);
	return b ? b->shape_count : 0;
}

int tb_body_get_joints(const tb_world *w, tb_body_id id, tb_joint_id *out, int capacity)
{
	if (tb_body_lookup(w, id) == NULL) return 0;
	int n = 0;
	tb_body_edge_iter it = tb_body_joints(w, id.index1 - 1);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) {
		if (out && n < capacity) out[n] = tb_make_joint_id(w, e.joint);
		n += 1;
	}
	return n;
}

tb_aabb tb_body_compute_aabb(const tb_world *w, tb_body_id id)
{
	tb_aabb box = {{0.0f, 0.0f}, {0.0f, 0.0f}};
	tb_body_sim *s;
	const tb_body *b = lookup(w, id, &s);
	if (b == NULL) return box;
	bool first = true;
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
		tb_aabb a = tb_compute_aabb(&w->shapes.data[k].geom, s->transform);
		box = first ? a : tb_aabb_union(box, a);
		first = false;
	}
	if (first) box.lower = box.upper = s->transform.p;
	return box;
}
