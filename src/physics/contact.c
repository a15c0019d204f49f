/* tumble physics: contacts — creation from broad-phase pairs, the narrow phase
 * that refreshes manifolds (keeping impulses of persisting points for warm
 * starting), begin/end events and the per-body contact lists. */
#include "world.h"
#include "manifold.h"

#include <float.h>
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
#include <emmintrin.h>
#endif

/* Every array that grows with the contact slots: the per-step constraint and
 * colouring arrays and the events each contact can raise in one step (a begin,
 * an end now and one left pending by a destroy, a hit). Reserved as the slots
 * grow, so neither a step nor a destroy ever allocates for them. */
bool tb_reserve_contact_slots(tb_world *w, int32_t slots)
{
	tb_allocator *a = &w->allocator;
	if (slots > INT32_MAX / 4) return false;
	return tb_contact_array_reserve(a, &w->contacts, slots) && tb_id_pool_reserve(a, &w->contact_pool, slots) &&
	       tb_pair_set_reserve(a, &w->broad_phase.pairs, slots) &&
	       tb_contact_constraint_array_reserve(a, &w->constraints, slots) &&
	       tb_constraint_ref_array_reserve(a, &w->graph.refs, slots) &&
	       tb_int_array_reserve(a, &w->graph.constraint_colors, slots) &&
	       tb_int_array_reserve(a, &w->graph.order, slots) &&
	       tb_int_array_reserve(a, &w->graph.lane_refs, slots > 0 ? tb_graph_block_bound(slots) * TB_BLOCK_LANES : 0) &&
	       tb_contact_block_array_reserve(a, &w->graph.blocks, slots > 0 ? tb_graph_block_bound(slots) : 0) &&
	       tb_block_surface_array_reserve(a, &w->graph.surfaces, slots > 0 ? tb_graph_block_bound(slots) : 0) &&
	       tb_contact_begin_event_array_reserve(a, &w->begin_events, slots) &&
	       tb_contact_end_event_array_reserve(a, &w->end_events, 2 * slots) &&
	       tb_contact_hit_event_array_reserve(a, &w->hit_events, slots) &&
	       tb_contact_end_event_array_reserve(a, &w->pending_end_events, slots) &&
	       tb_u64_array_reserve(a, &w->active_contact_bits, tb_bit_words(slots)) &&
	       tb_u64_array_reserve(a, &w->collide_bits, tb_bit_words(slots));
}

static void link_edge(tb_world *w, int32_t ci, int32_t edge)
{
	tb_contact *c = w->contacts.data + ci;
	tb_body *b = w->bodies.data + c->edges[edge].body;
	int32_t key = (ci << 1) | edge;
	c->edges[edge].prev_key = TB_NULL_INDEX;
	c->edges[edge].next_key = b->head_contact_key;
	if (b->head_contact_key != TB_NULL_INDEX) {
		tb_contact *h = w->contacts.data + (b->head_contact_key >> 1);
		h->edges[b->head_contact_key & 1].prev_key = key;
	}
	b->head_contact_key = key;
	b->contact_count += 1;
}

static void unlink_edge(tb_world *w, int32_t ci, int32_t edge)
{
	tb_contact *c = w->contacts.data + ci;
	tb_body *b = w->bodies.data + c->edges[edge].body;
	int32_t prev = c->edges[edge].prev_key, next = c->edges[edge].next_key;
	if (prev != TB_NULL_INDEX) w->contacts.data[prev >> 1].edges[prev & 1].next_key = next;
	else b->head_contact_key = next;
	if (next != TB_NULL_INDEX) w->contacts.data[next >> 1].edges[next & 1].prev_key = prev;
	b->contact_count -= 1;
}

bool tb_create_contact(tb_world *w, int32_t sa, int32_t sb)
{
	tb_id_pool *pool = &w->contact_pool;
	int32_t limit = w->def.limits.max_contacts;
	if (limit > 0 && tb_id_pool_count(pool) >= limit) {
		w->step_issues |= TB_STEP_CONTACT_LIMIT;
		return false;
	}
	if (tb_id_pool_peek(pool) == pool->next_index && !tb_reserve_contact_slots(w, pool->next_index + 1)) {
		w->step_issues |= TB_STEP_OUT_OF_MEMORY;
		return false;
	}
	/* the chain-segment colliders expect the chain first */
	if (w->shapes.data[sb].geom.type == TB_SHAPE_CHAIN_SEGMENT) {
		int32_t t = sa;
		sa = sb;
		sb = t;
	}
	const tb_shape *a = w->shapes.data + sa, *b = w->shapes.data + sb;
	int32_t ci = tb_alloc_id(pool);
	if (ci == w->contacts.count) w->contacts.count += 1;
	tb_contact *c = w->contacts.data + ci;
	memset(c, 0, sizeof *c);
	c->in_use = true;
	c->shape_a = sa;
	c->shape_b = sb;
	tb_update_contact_material(w, ci);
	if (a->enable_contact_events || b->enable_contact_events) c->flags |= TB_CONTACT_EVENTS;
	if (tb_shape_is_one_way(a) || tb_shape_is_one_way(b)) c->flags |= TB_CONTACT_ONE_WAY;
	if (a->enable_hit_events || b->enable_hit_events) c->flags |= TB_CONTACT_HIT_EVENTS;
	c->edges[0].body = a->body;
	c->edges[1].body = b->body;
	if (tb_is_moving_wall_pair(w, a->body, b->body)) c->flags |= TB_CONTACT_WALL;
	link_edge(w, ci, 0);
	link_edge(w, ci, 1);
	tb_pair_set_add(&w->broad_phase.pairs, sa, sb, ci);
	w->active_contact_bits.count = tb_bit_words(w->contacts.count);
	tb_sync_contact_active(w, ci);
	return true;
}

float tb_mix(tb_mix_rule rule, float a, float b)
{
	switch (rule) {
	case TB_MIX_MAX: return tb_maxf(a, b);
	case TB_MIX_MIN: return tb_minf(a, b);
	case TB_MIX_AVERAGE: return 0.5f * (a + b);
	case TB_MIX_MULTIPLY: return a * b;
	default: return sqrtf(a * b);
	}
}

/* The rounding radius rolling resistance acts at: a box rolls on its corners,
 * so only round shapes resist rolling. */
static float rolling_radius(const tb_shape *s)
{
	switch (s->geom.type) {
	case TB_SHAPE_CIRCLE: return s->geom.circle.radius;
	case TB_SHAPE_CAPSULE: return s->geom.capsule.radius;
	case TB_SHAPE_POLYGON: return s->geom.polygon.radius;
	default: return 0.0f;
	}
}

/* Surfaces are finite and >= 0, but a product or sum of two huge ones is not:
 * such a contact takes the largest float (a world's state stays finite). */
static float at_most_max(float x) { return x <= FLT_MAX ? x : FLT_MAX; }

void tb_update_contact_material(tb_world *w, int32_t ci)
{
	tb_contact *c = w->contacts.data + ci;
	const tb_shape *a = w->shapes.data + c->shape_a, *b = w->shapes.data + c->shape_b;
	c->friction = at_most_max(tb_mix(w->def.friction_mix, a->friction, b->friction));
	c->restitution = at_most_max(tb_mix(w->def.restitution_mix, a->restitution, b->restitution));
	float rr = tb_maxf(a->rolling_resistance, b->rolling_resistance);
	c->rolling_resistance = rr > 0.0f ? at_most_max(rr * tb_maxf(rolling_radius(a), rolling_radius(b))) : 0.0f;
	/* + 0: a -0 speed is +0, so the solvers may subtract it unconditionally */
	c->tangent_speed = a->tangent_speed + b->tangent_speed + 0.0f;
}

void tb_push_end_event(tb_world *w, int32_t sa, int32_t sb, bool pending)
{
	tb_contact_end_event e = {tb_make_shape_id(w, sa), tb_make_shape_id(w, sb)};
	tb_contact_end_event_array_push_reserved(pending ? &w->pending_end_events : &w->end_events, e);
}

void tb_destroy_contact(tb_world *w, int32_t ci, bool wake_bodies)
{
	tb_contact *c = w->contacts.data + ci;
	bool touching = (c->flags & TB_CONTACT_TOUCHING) != 0;
	w->touching_contact_count -= touching;
	/* outside the step the event waits for the next one, so event arrays being
	 * read by the caller are never reallocated under it */
	if (touching && (c->flags & TB_CONTACT_EVENTS)) tb_push_end_event(w, c->shape_a, c->shape_b, !w->locked);
	int32_t ba = c->edges[0].body, bb = c->edges[1].body;
	tb_pair_set_remove(&w->broad_phase.pairs, c->shape_a, c->shape_b);
	unlink_edge(w, ci, 0);
	unlink_edge(w, ci, 1);
	c->in_use = false;
	c->flags = 0;
	tb_sync_contact_active(w, ci);
	tb_free_id(&w->contact_pool, ci);
	if (wake_bodies && touching) {
		tb_wake_body(w, ba);
		tb_wake_body(w, bb);
	}
}

void tb_destroy_body_contacts(tb_world *w, int32_t bi, bool wake)
{
	tb_body *b = w->bodies.data + bi;
	while (b->head_contact_key != TB_NULL_INDEX) tb_destroy_contact(w, b->head_contact_key >> 1, wake);
}

void tb_destroy_shape_contacts(tb_world *w, int32_t si, bool wake)
{
	tb_body_edge_iter it = tb_body_contacts(w, w->shapes.data[si].body);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) {
		const tb_contact *c = w->contacts.data + e.contact;
		if (c->shape_a == si || c->shape_b == si) tb_destroy_contact(w, e.contact, wake);
	}
}

static float approach_speed(const tb_world *w, const tb_contact *c)
{
	const tb_manifold *m = &c->manifold;
	const tb_body_sim *a = w->sims.data + c->edges[0].body, *b = w->sims.data + c->edges[1].body;
	float best = 0.0f;
	for (int i = 0; i < m->point_count; ++i) {
		tb_vec2 p = m->points[i].point;
		tb_vec2 va = tb_add(a->linear_velocity, tb_cross_sv(a->angular_velocity, tb_sub(p, a->center)));
		tb_vec2 vb = tb_add(b->linear_velocity, tb_cross_sv(b->angular_velocity, tb_sub(p, b->center)));
		float vn = tb_dot(tb_sub(vb, va), m->normal);
		best = tb_maxf(best, -vn);
	}
	return best;
}

static void push_begin_event(tb_world *w, const tb_contact *c)
{
	/* reserved with the contact slots: one begin per contact and step */
	TB_ASSERT(w->begin_events.count < w->begin_events.capacity);
	tb_contact_begin_event *e = w->begin_events.data + w->begin_events.count++;
	memset(e, 0, sizeof *e);
	e->shape_a = tb_make_shape_id(w, c->shape_a);
	e->shape_b = tb_make_shape_id(w, c->shape_b);
	e->normal = c->manifold.normal;
	/* the points that touch (see tb_collide_contacts) */
	for (int i = 0; i < c->manifold.point_count; ++i) {
		const tb_manifold_point *p = c->manifold.points + i;
		if (p->separation > TB_SPECULATIVE_DISTANCE) continue;
		e->points[e->point_count] = p->point;
		e->separations[e->point_count++] = p->separation;
	}
	e->approach_speed = approach_speed(w, c);
}

/* How close two shapes must be for the coming step's solver to see a contact
 * point. The standard speculative distance covers bodies that move a little.
 * A kinematic body sweeping into a box (the wall of a spinning tumbler), or a
 * box falling onto one, closes faster: the two would overlap deeply before the
 * next narrow phase saw them, and time of impact cannot help, the box being
 * slow or the wall having passed where the box starts. So for a pair with a
 * kinematic body the distance grows by how far the two can close in dt, and a
 * speculative contact stops the approach where the shapes meet, with the
 * kinematic body's motion inside the step: continuous collision against
 * kinematic bodies. The bound is the relative speed of the centres plus each
 * body's spin times its reach towards the other shape. It is kept for every
 * point of the pair, not cut per point by the velocities at the step's start:
 * in a tumbling pile a box is often knocked towards the wall during the step,
 * and per-point cuts let those through (6 cm deep against 1.5 cm). Only
 * kinematic pairs: between dynamic bodies the standard distance is Box2D's
 * behaviour, and a longer one changes how piles of them collapse. */
static float spin_reach(const tb_body_sim *s, tb_aabb other)
{
	float dx = tb_maxf(fabsf(s->center.x - other.lower.x), fabsf(s->center.x - other.upper.x));
	float dy = tb_maxf(fabsf(s->center.y - other.lower.y), fabsf(s->center.y - other.upper.y));
	return tb_minf(s->max_extent, sqrtf(dx * dx + dy * dy));
}

static float pair_speculative_distance(const tb_body_sim *a, const tb_shape *sa, const tb_body_sim *b,
                                       const tb_shape *sb, float dt)
{
	if (dt == 0.0f) return TB_SPECULATIVE_DISTANCE;
	float speed = tb_length(tb_sub(b->linear_velocity, a->linear_velocity));
	if (a->angular_velocity != 0.0f) speed += fabsf(a->angular_velocity) * spin_reach(a, sb->aabb);
	if (b->angular_velocity != 0.0f) speed += fabsf(b->angular_velocity) * spin_reach(b, sa->aabb);
	return TB_SPECULATIVE_DISTANCE + dt * speed;
}

/* The narrow phase reads the pair's flag (TB_CONTACT_WALL), not the bodies:
 * most pairs are only checked for being apart, and then read no body. */
bool tb_is_moving_wall_pair(const tb_world *w, int32_t body_a, int32_t body_b)
{
	const tb_body_sim *sa = w->sims.data + body_a, *sb = w->sims.data + body_b;
	if (sa->type == TB_KINEMATIC_BODY || sb->type == TB_KINEMATIC_BODY) return true;
	if (sa->type != TB_DYNAMIC_BODY || sb->type != TB_DYNAMIC_BODY) return false;
	return sa->inv_mass <= TB_WALL_MASS_RATIO * sb->inv_mass || sb->inv_mass <= TB_WALL_MASS_RATIO * sa->inv_mass;
}

void tb_update_contact_walls(tb_world *w, int32_t body)
{
	tb_body_edge_iter it = tb_body_contacts(w, body);
	tb_body_edge e;
	while (tb_next_body_edge(w, &it, &e)) {
		tb_contact *c = w->contacts.data + e.contact;
		c->flags &= ~(uint32_t)TB_CONTACT_WALL;
		if (tb_is_moving_wall_pair(w, c->edges[0].body, c->edges[1].body)) c->flags |= TB_CONTACT_WALL;
	}
}

static bool boxes_within(tb_aabb a, tb_aabb b, float d)
{
	return a.lower.x - d <= b.upper.x && b.lower.x - d <= a.upper.x && a.lower.y - d <= b.upper.y &&
	       b.lower.y - d <= a.upper.y;
}

static inline bool zero_bits(tb_vec2 v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	return bits == 0;
}

/* boxes_within(*a, *b, 0) in one branch instead of four (the narrow phase's
 * pairs go either way at random), NaN included: false. */
static inline bool boxes_touch(const tb_aabb *a, const tb_aabb *b)
{
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
	__m128 x = _mm_loadu_ps((const float *)a), y = _mm_loadu_ps((const float *)b);
	/* b's upper corner then its lower one */
	__m128 ys = _mm_shuffle_ps(y, y, _MM_SHUFFLE(1, 0, 3, 2));
	/* a.lower <= b.upper in the first two lanes, a.upper >= b.lower in the last two */
	int near = (_mm_movemask_ps(_mm_cmple_ps(x, ys)) & 3) | (_mm_movemask_ps(_mm_cmpge_ps(x, ys)) & 12);
	return near == 15;
#else
	return boxes_within(*a, *b, 0.0f);
#endif
}

bool tb_one_way_holds(const tb_world *w, const tb_shape *platform, tb_vec2 normal_from_platform)
{
	tb_vec2 up = tb_rotate(w->sims.data[platform->body].transform.q, platform->one_way);
	return tb_dot(normal_from_platform, up) > TB_ONE_WAY_COS;
}

/* A contact with a one-way platform decides when it first has points whether
 * the platform holds the other shape, and keeps that decision until the two
 * are apart again (no points): a body jumping up through the platform passes
 * all the way even where the normal flips halfway, and one resting on it is
 * held whatever its sag. held: the contact kept points last step, so it
 * decided to hold. Returns the points the contact keeps. */
static int one_way_points(tb_world *w, tb_contact *c, const tb_manifold *m, bool held)
{
	if (m->point_count == 0) {
		c->flags &= ~(uint32_t)TB_CONTACT_PASSING;
		return 0;
	}
	if (c->flags & TB_CONTACT_PASSING) return 0;
	if (held) return m->point_count;
	const tb_shape *a = w->shapes.data + c->shape_a, *b = w->shapes.data + c->shape_b;
	/* both may be platforms: each must hold the other */
	bool holds = (!tb_shape_is_one_way(a) || tb_one_way_holds(w, a, m->normal)) &&
	             (!tb_shape_is_one_way(b) || tb_one_way_holds(w, b, tb_neg(m->normal)));
	if (holds) return m->point_count;
	c->flags |= TB_CONTACT_PASSING;
	return 0;
}

/* A chain link is one-sided: a shape behind it passes through. Its collide
 * ignores a shape whose centre is behind, but one that comes through is still
 * in the link's reach on the front side for a while, where a plain collide
 * would find it deep in and push it on (with begin and end events for a pair
 * that never met). The pair remembers, each time it finds no point, whether
 * the shape lay behind; while it did, the points found as the shape comes out
 * are dropped, until the shape is out of reach on the front side. */
static void chain_passing(tb_contact *c, const tb_shape *sa, const tb_body_sim *sim_a, const tb_shape *sb,
                          const tb_body_sim *sim_b)
{
	if (tb_chain_segment_behind(&sa->geom.chain_segment, sim_a->transform, &sb->geom, sim_b->transform))
		c->flags |= TB_CONTACT_PASSING;
	else if (c->flags & TB_CONTACT_PASSING)
		c->flags &= ~(uint32_t)TB_CONTACT_PASSING;
}

void tb_world_set_presolve(tb_world *w, tb_presolve_fn *fn, void *context)
{
	if (w == NULL || w->locked) return;
	w->presolve_fn = fn;
	w->presolve_context = fn != NULL ? context : NULL;
}

static void collide_contact(tb_world *w, int32_t ci, float dt, bool continuous);

static inline void prefetch_pair(const tb_world *w, const tb_contact *c)
{
	_Static_assert(sizeof(tb_shape) % 64 == 0 && offsetof(tb_shape, fat_aabb) + sizeof(tb_aabb) <= 192,
	               "a shape's geometry and boxes are in its first three lines");
	/* the cache only where it will be read: a tumbling pile's contacts have none */
	bool cached = (c->flags & TB_CONTACT_CACHED) != 0;
	if (cached) __builtin_prefetch((const char *)c + 192);
	for (int e = 0; e < 2; ++e) {
		/* (the collide reads no body record: awake bits, and the type in the sim) */
		const char *sim = (const char *)(w->sims.data + c->edges[e].body);
		__builtin_prefetch(sim);
		__builtin_prefetch(sim + sizeof(tb_body_sim) - 1);
		/* a remade manifold reads no shape (collide_contact) */
		if (cached) continue;
		const char *shape = (const char *)(w->shapes.data + (e == 0 ? c->shape_a : c->shape_b));
		__builtin_prefetch(shape);
		__builtin_prefetch(shape + 64);
		__builtin_prefetch(shape + 128);
	}
}

/* The set bit at (*k, *word) as a slot, then steps past it; -1 at the end. */
static inline int32_t next_active(const uint64_t *bits, int32_t words, int32_t *k, uint64_t *word)
{
	while (*word == 0) {
		if (++*k >= words) return -1;
		*word = bits[*k];
	}
	int32_t slot = (*k << 6) + __builtin_ctzll(*word);
	*word &= *word - 1;
	return slot;
}

void tb_collide_contacts(tb_world *w, float dt)
{
	bool continuous = w->def.enable_continuous;
	/* The contacts active as the walk begins, in slot order. A wake in the
	 * walk activates the woken island's contacts; they wait for the next
	 * narrow phase, as their bodies have not moved since their last (they
	 * are solved as they were). So a hit on a sleeping pile wakes what it
	 * touches, a layer a step, not every near box within one walk. (The
	 * walk destroys no contact but the one it collides.) */
	int32_t words = w->active_contact_bits.count;
	uint64_t *bits = w->collide_bits.data;
	if (words > 0) memcpy(bits, w->active_contact_bits.data, (size_t)words * sizeof *bits);
	/* The ones left with points are the step's constraints (gathered here,
	 * while each contact is in cache): the refs' slots were reserved with the
	 * contacts', and the write always lands (count is at most the contacts
	 * walked before this one). */
	uint32_t stamp = w->contact_activations;
	w->remade_manifold_count = 0;
	tb_constraint_ref *refs = w->graph.refs.data;
	int32_t count = 0;
	/* a second walk TB_PREFETCH_AHEAD contacts ahead loads them early */
	int32_t ahead_k = 0, near_k = 0;
	uint64_t ahead_word = words > 0 ? bits[0] : 0, near_word = ahead_word;
	for (int i = 0; i < TB_PREFETCH_AHEAD; ++i) next_active(bits, words, &ahead_k, &ahead_word);
	for (int i = 0; i < TB_PREFETCH_AHEAD / 2; ++i) next_active(bits, words, &near_k, &near_word);
	for (int32_t k = 0; k < words; ++k) {
		for (uint64_t word = bits[k]; word != 0; word &= word - 1) {
			int32_t ci = (k << 6) + __builtin_ctzll(word);
			int32_t ahead = next_active(bits, words, &ahead_k, &ahead_word);
			if (ahead >= 0) tb_prefetch_contact_for_write(w->contacts.data + ahead);
			/* halfway there, the contact has arrived: its bodies and shapes next */
			int32_t near = next_active(bits, words, &near_k, &near_word);
			if (near >= 0) prefetch_pair(w, w->contacts.data + near);
			collide_contact(w, ci, dt, continuous);
			const tb_contact *c = w->contacts.data + ci;
			refs[count].contact = ci;
			refs[count].body_a = c->edges[0].body;
			refs[count].body_b = c->edges[1].body;
			count += c->in_use && c->manifold.point_count != 0;
		}
	}
	w->graph.refs.count = count;
	/* (a wake in the walk activated contacts it did not list) */
	w->graph.refs_from_collide = stamp == w->contact_activations;
	w->graph.refs_stamp = stamp;
}

/* Remakes the manifold from the cache (contact.h) if the pair has moved less
 * than TB_CONTACT_CACHE_REACH relative to itself since, and a point is still
 * within the speculative distance; false (nothing written) otherwise. Each
 * point is the same two material points: its separation is theirs along the
 * normal, exactly as a full collide of the same features gives it, and it
 * sits midway. NaN anywhere fails the test. */
static bool remake_manifold(tb_manifold *m, const tb_contact_cache *k, tb_transform xfa, tb_transform xfb)
{
	tb_transform rel = tb_inv_mul_transforms(xfa, xfb);
	/* a point r from the centre moved at most the centre's move plus r times
	 * the chord of the turn (2 sin(t/2) <= 2 sin t below a quarter turn) */
	tb_vec2 d = tb_sub(tb_transform_point(rel, k->center_b), k->center_a);
	float turn_sin = k->turn.c * rel.q.s - k->turn.s * rel.q.c;
	float turn_cos = k->turn.c * rel.q.c + k->turn.s * rel.q.s;
	float moved = sqrtf(d.x * d.x + d.y * d.y) + fabsf(turn_sin) * k->lever;
	if (!(moved <= TB_CONTACT_CACHE_REACH && turn_cos > 0.0f)) return false;
	tb_vec2 n = k->normal;
	float sep[2];
	tb_vec2 mid[2];
	bool near = false;
	for (int i = 0; i < k->count; ++i) {
		tb_vec2 b = tb_transform_point(rel, k->point_b[i]);
		sep[i] = tb_dot(tb_sub(b, k->point_a[i]), n);
		mid[i] = tb_lerp(k->point_a[i], b, 0.5f);
		near = near || sep[i] <= TB_SPECULATIVE_DISTANCE;
	}
	/* all points far: the full collide drops them (polygons keep a far point
	 * only beside a near one) */
	if (!near) return false;
	m->normal = tb_rotate(xfa.q, n);
	tb_vec2 dp = tb_sub(xfa.p, xfb.p);
	for (int i = 0; i < k->count; ++i) {
		tb_manifold_point *mp = m->points + i;
		tb_vec2 anchor_a = tb_rotate(xfa.q, mid[i]);
		mp->point = tb_add(xfa.p, anchor_a);
		mp->anchor_a = anchor_a;
		mp->anchor_b = tb_add(anchor_a, dp);
		mp->separation = sep[i];
		mp->max_normal_impulse = 0.0f;
		mp->normal_velocity = 0.0f;
		mp->id = k->id[i];
		/* (the warm-start impulses and `persisted`: the caller's carry-over) */
	}
	m->point_count = k->count;
	return true;
}

/* The pair's manifold, collided. A collide of two polygons at the standard
 * speculative distance refills the cache (the manifold as collided, before
 * one-way platforms and the pre-solve hook take points away) when the pair
 * moves slowly enough to be remade at least once: filling it costs a quarter
 * of a collide, so a tumbling pile's pairs are not worth it. dt: the coming
 * step's. */
static void collide_and_cache(tb_contact *c, const tb_shape *sa, const tb_body_sim *sim_a, const tb_shape *sb,
                              const tb_body_sim *sim_b, float speculative, float dt, bool cache_on)
{
	tb_manifold *m = &c->manifold;
	tb_transform xfa = sim_a->transform, xfb = sim_b->transform;
	/* any pair but a chain link's, whose one-sidedness is decided by a collide
	 * (chain_passing) */
	bool cacheable = sa->geom.type != TB_SHAPE_CHAIN_SEGMENT && sb->geom.type != TB_SHAPE_CHAIN_SEGMENT &&
	                 speculative == TB_SPECULATIVE_DISTANCE && cache_on;
	tb_collide_speculative_into(m, &sa->geom, xfa, &sb->geom, xfb, speculative);
	c->flags &= ~(uint32_t)TB_CONTACT_CACHED;
	if (!cacheable || m->point_count == 0) return;
	/* at most half the reach in the coming step, at the bodies' speeds (the
	 * lever: the smaller shape's box, whose centre and half diagonal bound
	 * where the pair's points can be) */
	float half = 0.5f * TB_CONTACT_CACHE_REACH;
	tb_vec2 dv = tb_sub(sim_b->linear_velocity, sim_a->linear_velocity);
	if (!(tb_dot(dv, dv) * dt * dt <= half * half)) return;
	tb_aabb box = sa->aabb;
	tb_vec2 ea = tb_sub(sa->aabb.upper, sa->aabb.lower), eb = tb_sub(sb->aabb.upper, sb->aabb.lower);
	if (tb_dot(eb, eb) < tb_dot(ea, ea)) {
		box = sb->aabb;
		ea = eb;
	}
	float lever = sqrtf(tb_dot(ea, ea)); /* twice the half diagonal */
	if (!(fabsf(sim_b->angular_velocity - sim_a->angular_velocity) * lever * dt <= half)) return;
	/* Nor a deep overlap (boxes made on one spot): which faces a full collide
	 * picks there turns with the smallest move, and the push-out must follow. */
	for (int i = 0; i < m->point_count; ++i)
		if (!(m->points[i].separation >= -0.05f * lever)) return;
	tb_contact_cache *k = &c->cache;
	tb_vec2 center = tb_lerp(box.lower, box.upper, 0.5f);
	k->turn = tb_inv_mul_rot(xfa.q, xfb.q);
	k->center_a = tb_inv_transform_point(xfa, center);
	k->center_b = tb_inv_transform_point(xfb, center);
	k->lever = lever;
	k->normal = tb_inv_rotate(xfa.q, m->normal);
	k->count = m->point_count;
	float sum = k->center_a.x + k->center_a.y + k->center_b.x + k->center_b.y + k->lever;
	for (int i = 0; i < m->point_count; ++i) {
		const tb_manifold_point *mp = m->points + i;
		tb_vec2 to_surface = tb_mul_sv(0.5f * mp->separation, m->normal);
		k->point_a[i] = tb_inv_rotate(xfa.q, tb_sub(mp->anchor_a, to_surface));
		k->point_b[i] = tb_inv_rotate(xfb.q, tb_add(mp->anchor_b, to_surface));
		k->id[i] = mp->id;
		sum += k->point_a[i].x + k->point_a[i].y + k->point_b[i].x + k->point_b[i].y;
	}
	/* finite, as everything a snapshot keeps (a world near float's range
	 * could overflow here) */
	if (isfinite(sum)) c->flags |= TB_CONTACT_CACHED;
	else memset(k, 0, sizeof *k);
}

static void collide_contact(tb_world *w, int32_t ci, float dt, bool continuous)
{
	tb_contact *c = w->contacts.data + ci;
	int32_t ba = c->edges[0].body, bb = c->edges[1].body;
	/* (an active contact has an awake body, tb_sync_contact_active, and none
	 * falls asleep in the narrow phase) */

	const tb_body_sim *sim_a = w->sims.data + ba, *sim_b = w->sims.data + bb;
	const tb_shape *sa = w->shapes.data + c->shape_a, *sb = w->shapes.data + c->shape_b;
	/* a moving wall's pairs look further ahead (their shapes read here: few
	 * pairs are walls) */
	float speculative = TB_SPECULATIVE_DISTANCE;
	if (continuous && (c->flags & TB_CONTACT_WALL))
		speculative = pair_speculative_distance(sim_a, sa, sim_b, sb, dt);
	/* what warm starting needs of the old points; the new manifold is made in
	 * place (a copy of one just written would stall on store forwarding) */
	int old_count = c->manifold.point_count;
	uint16_t old_id[2];
	float old_normal[2], old_tangent[2];
	for (int j = 0; j < old_count; ++j) {
		old_id[j] = c->manifold.points[j].id;
		old_normal[j] = c->manifold.points[j].normal_impulse;
		old_tangent[j] = c->manifold.points[j].tangent_impulse;
	}
	tb_manifold *m = &c->manifold;
	/* A pair remade from its cache (not a chain link's, at the standard
	 * speculative distance) reads nothing of its shapes: a point of it within
	 * the speculative distance keeps both shapes' boxes, and so their fat
	 * boxes, overlapping. */
	bool cache_on = w->def.enable_contact_cache;
	/* a chain link's pair (never cached) */
	bool chain = false, remade = false;
	if (cache_on && speculative == TB_SPECULATIVE_DISTANCE && (c->flags & TB_CONTACT_CACHED) &&
	    remake_manifold(m, &c->cache, sim_a->transform, sim_b->transform)) {
		w->remade_manifold_count += 1;
		remade = true;
	} else {
		if (!tb_aabb_overlaps(sa->fat_aabb, sb->fat_aabb)) {
			tb_destroy_contact(w, ci, false);
			return;
		}
		chain = sa->geom.type == TB_SHAPE_CHAIN_SEGMENT;
		/* shape boxes include the standard speculative distance: apart by more
		 * than the rest of the pair's, there can be no point */
		bool within = speculative == TB_SPECULATIVE_DISTANCE
		                  ? boxes_touch(&sa->aabb, &sb->aabb)
		                  : boxes_within(sa->aabb, sb->aabb, speculative - TB_SPECULATIVE_DISTANCE);
		/* the common case of a broad-phase pair, and one that stays apart
		 * changes nothing (nor writes to the contact, whose line then need
		 * not go back to memory: its normal is zero since it had no point) */
		if (!within && old_count == 0 && !(c->flags & TB_CONTACT_TOUCHING)) {
			if (!zero_bits(m->normal)) m->normal = tb_vec2_zero;
			if (chain) chain_passing(c, sa, sim_a, sb, sim_b);
			else if (c->flags & TB_CONTACT_ONE_WAY) c->flags &= ~(uint32_t)TB_CONTACT_PASSING;
			return;
		}
		if (within) {
			collide_and_cache(c, sa, sim_a, sb, sim_b, speculative, dt, cache_on);
		} else {
			m->normal = tb_vec2_zero;
			m->point_count = 0;
		}
	}
	/* carry the accumulated impulses of matching features over: warm starting */
	TB_ASSERT(old_count <= 2 && m->point_count <= 2);
	if (remade && old_count == m->point_count && old_id[0] == m->points[0].id &&
	    (old_count < 2 || (old_id[1] == m->points[1].id && old_id[0] != old_id[1]))) {
		/* the common case: a remade manifold has its cache's features, in the
		 * order of the manifold it replaces (the match below finds the same) */
		for (int i = 0; i < old_count; ++i) {
			m->points[i].persisted = true;
			m->points[i].normal_impulse = old_normal[i];
			m->points[i].tangent_impulse = old_tangent[i];
		}
	} else {
		for (int i = 0; i < m->point_count; ++i) {
			tb_manifold_point *p = m->points + i;
			/* the first old point with the same feature (at most two to look at) */
			int j = old_count > 0 && old_id[0] == p->id ? 0 : old_count > 1 && old_id[1] == p->id ? 1 : -1;
			p->persisted = j >= 0;
			p->normal_impulse = j >= 0 ? old_normal[j] : 0.0f;
			p->tangent_impulse = j >= 0 ? old_tangent[j] : 0.0f;
		}
	}
	if (c->flags & TB_CONTACT_ONE_WAY) m->point_count = one_way_points(w, c, m, old_count > 0);
	if (chain) {
		if (m->point_count == 0) chain_passing(c, sa, sim_a, sb, sim_b);
		else if (c->flags & TB_CONTACT_PASSING) m->point_count = 0;
	}
	tb_presolve_fn *presolve = w->presolve_fn;
	if (presolve != NULL && m->point_count > 0 &&
	    !presolve(tb_make_shape_id(w, c->shape_a), tb_make_shape_id(w, c->shape_b), m, w->presolve_context))
		m->point_count = 0;

	/* Touching: a point within the standard speculative distance. Points
	 * further out (kinematic pairs, above) reach the solver but not the
	 * events, queries and islands: those report shapes that touch now. */
	bool touching = false;
	for (int i = 0; i < m->point_count; ++i) touching |= m->points[i].separation <= TB_SPECULATIVE_DISTANCE;
	bool was = (c->flags & TB_CONTACT_TOUCHING) != 0;
	/* Touching bodies belong to one island, and an island sleeps whole: an
	 * awake body touching a sleeping one wakes it (a box pushed into a
	 * sleeping pile, a platform starting to move under a sleeping crate),
	 * as does a speculative point: a sleeping body would meet the other as
	 * an immovable one. */
	if (m->point_count > 0) {
		/* their bits in the awake set, not their records, which the common case never reads */
		const uint64_t *awake = w->awake_body_bits.data;
		if (!tb_bit_get(awake, ba)) tb_wake_body(w, ba);
		if (!tb_bit_get(awake, bb)) tb_wake_body(w, bb);
	}
	if (touching && !was) {
		c->flags |= TB_CONTACT_TOUCHING;
		w->touching_contact_count += 1;
		if (c->flags & TB_CONTACT_EVENTS) push_begin_event(w, c);
	} else if (!touching && was) {
		c->flags &= ~(uint32_t)TB_CONTACT_TOUCHING;
		w->touching_contact_count -= 1;
		c->rolling_impulse = 0.0f;
		if (c->flags & TB_CONTACT_EVENTS) tb_push_end_event(w, c->shape_a, c->shape_b, false);
	}
}

