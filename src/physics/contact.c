/* tumble physics: contacts — creation from broad-phase pairs, the narrow phase
 * that refreshes manifolds (keeping impulses of persisting points for warm
 * starting), begin/end events and the per-body contact lists. */
#include "world.h"

static int32_t alloc_contact_slot(tb_world *w)
{
	if (w->contact_free == TB_NULL_INDEX) {
		int32_t old = w->contact_capacity;
		w->contacts = tb_grow_array(w->contacts, (int)sizeof *w->contacts, &w->contact_capacity, old + 1);
		for (int32_t i = w->contact_capacity - 1; i >= old; --i) {
			w->contacts[i].next_free = w->contact_free;
			w->contact_free = i;
		}
	}
	int32_t i = w->contact_free;
	w->contact_free = w->contacts[i].next_free;
	return i;
}

static void link_edge(tb_world *w, int32_t ci, int32_t edge)
{
	tb_contact *c = w->contacts + ci;
	tb_body *b = w->bodies + c->edges[edge].body;
	int32_t key = (ci << 1) | edge;
	c->edges[edge].prev_key = TB_NULL_INDEX;
	c->edges[edge].next_key = b->head_contact_key;
	if (b->head_contact_key != TB_NULL_INDEX) {
		tb_contact *h = w->contacts + (b->head_contact_key >> 1);
		h->edges[b->head_contact_key & 1].prev_key = key;
	}
	b->head_contact_key = key;
	b->contact_count += 1;
}

static void unlink_edge(tb_world *w, int32_t ci, int32_t edge)
{
	tb_contact *c = w->contacts + ci;
	tb_body *b = w->bodies + c->edges[edge].body;
	int32_t prev = c->edges[edge].prev_key, next = c->edges[edge].next_key;
	if (prev != TB_NULL_INDEX) w->contacts[prev >> 1].edges[prev & 1].next_key = next;
	else b->head_contact_key = next;
	if (next != TB_NULL_INDEX) w->contacts[next >> 1].edges[next & 1].prev_key = prev;
	b->contact_count -= 1;
}

void tb_create_contact(tb_world *w, int32_t sa, int32_t sb)
{
	/* the chain-segment colliders expect the chain first */
	if (w->shapes[sb].geom.type == TB_SHAPE_CHAIN_SEGMENT) {
		int32_t t = sa;
		sa = sb;
		sb = t;
	}
	const tb_shape *a = w->shapes + sa, *b = w->shapes + sb;
	int32_t ci = alloc_contact_slot(w);
	tb_contact *c = w->contacts + ci;
	memset(c, 0, sizeof *c);
	c->in_use = true;
	c->shape_a = sa;
	c->shape_b = sb;
	c->friction = sqrtf(a->friction * b->friction);
	c->restitution = tb_maxf(a->restitution, b->restitution);
	if (a->enable_contact_events || b->enable_contact_events) c->flags |= TB_CONTACT_EVENTS;
	if (a->enable_hit_events || b->enable_hit_events) c->flags |= TB_CONTACT_HIT_EVENTS;
	c->edges[0].body = a->body;
	c->edges[1].body = b->body;
	link_edge(w, ci, 0);
	link_edge(w, ci, 1);
	tb_pair_set_add(&w->broad_phase.pairs, sa, sb, ci);
	w->contact_count += 1;
}

void tb_push_end_event(tb_world *w, int32_t sa, int32_t sb, bool pending)
{
	tb_contact_end_event e = {tb_make_shape_id(w, sa), tb_make_shape_id(w, sb)};
	if (pending) {
		TB_RESERVE(w->pending_end_events, w->pending_end_capacity, w->pending_end_count + 1);
		w->pending_end_events[w->pending_end_count++] = e;
	} else {
		TB_RESERVE(w->end_events, w->end_capacity, w->end_count + 1);
		w->end_events[w->end_count++] = e;
	}
}

void tb_destroy_contact(tb_world *w, int32_t ci, bool wake_bodies)
{
	tb_contact *c = w->contacts + ci;
	bool touching = (c->flags & TB_CONTACT_TOUCHING) != 0;
	/* outside the step the event waits for the next one, so event arrays being
	 * read by the caller are never reallocated under it */
	if (touching && (c->flags & TB_CONTACT_EVENTS)) tb_push_end_event(w, c->shape_a, c->shape_b, !w->locked);
	int32_t ba = c->edges[0].body, bb = c->edges[1].body;
	tb_pair_set_remove(&w->broad_phase.pairs, c->shape_a, c->shape_b);
	unlink_edge(w, ci, 0);
	unlink_edge(w, ci, 1);
	c->in_use = false;
	c->flags = 0;
	c->next_free = w->contact_free;
	w->contact_free = ci;
	w->contact_count -= 1;
	if (wake_bodies && touching) {
		tb_wake_body(w, ba);
		tb_wake_body(w, bb);
	}
}

void tb_destroy_body_contacts(tb_world *w, int32_t bi, bool wake)
{
	tb_body *b = w->bodies + bi;
	while (b->head_contact_key != TB_NULL_INDEX) tb_destroy_contact(w, b->head_contact_key >> 1, wake);
}

void tb_destroy_shape_contacts(tb_world *w, int32_t si, bool wake)
{
	tb_body *b = w->bodies + w->shapes[si].body;
	for (int32_t key = b->head_contact_key; key != TB_NULL_INDEX;) {
		int32_t ci = key >> 1;
		tb_contact *c = w->contacts + ci;
		key = c->edges[key & 1].next_key;
		if (c->shape_a == si || c->shape_b == si) tb_destroy_contact(w, ci, wake);
	}
}

static float approach_speed(const tb_world *w, const tb_contact *c)
{
	const tb_manifold *m = &c->manifold;
	const tb_body_sim *a = w->sims + c->edges[0].body, *b = w->sims + c->edges[1].body;
	float best = 0.0f;
	for (int i = 0; i < m->point_count; ++i) {
		tb_vec2 p = m->points[i].point;
		tb_vec2 va = tb_add(a->v, tb_cross_sv(a->w, tb_sub(p, a->center)));
		tb_vec2 vb = tb_add(b->v, tb_cross_sv(b->w, tb_sub(p, b->center)));
		float vn = tb_dot(tb_sub(vb, va), m->normal);
		best = tb_maxf(best, -vn);
	}
	return best;
}

static void push_begin_event(tb_world *w, const tb_contact *c)
{
	TB_RESERVE(w->begin_events, w->begin_capacity, w->begin_count + 1);
	tb_contact_begin_event *e = w->begin_events + w->begin_count++;
	memset(e, 0, sizeof *e);
	e->shape_a = tb_make_shape_id(w, c->shape_a);
	e->shape_b = tb_make_shape_id(w, c->shape_b);
	e->normal = c->manifold.normal;
	e->point_count = c->manifold.point_count;
	for (int i = 0; i < e->point_count; ++i) {
		e->points[i] = c->manifold.points[i].point;
		e->separations[i] = c->manifold.points[i].separation;
	}
	e->approach_speed = approach_speed(w, c);
}

void tb_collide_contacts(tb_world *w)
{
	for (int32_t ci = 0; ci < w->contact_capacity; ++ci) {
		tb_contact *c = w->contacts + ci;
		if (!c->in_use) continue;
		int32_t ba = c->edges[0].body, bb = c->edges[1].body;
		const tb_body *A = w->bodies + ba, *B = w->bodies + bb;
		bool active_a = A->awake && tb_body_is_simulated(A);
		bool active_b = B->awake && tb_body_is_simulated(B);
		if (!active_a && !active_b) continue;

		const tb_shape *sa = w->shapes + c->shape_a, *sb = w->shapes + c->shape_b;
		if (!tb_aabb_overlaps(sa->fat_aabb, sb->fat_aabb)) {
			tb_destroy_contact(w, ci, false);
			continue;
		}

		tb_manifold old = c->manifold;
		tb_manifold m;
		/* shape boxes include the speculative margin: apart, there can be no point */
		if (tb_aabb_overlaps(sa->aabb, sb->aabb)) {
			m = tb_collide(&sa->geom, w->sims[ba].transform, &sb->geom, w->sims[bb].transform);
		} else {
			m.normal = tb_vec2_zero;
			m.point_count = 0;
		}
		/* carry the accumulated impulses of matching features over: warm starting */
		for (int i = 0; i < m.point_count; ++i) {
			tb_manifold_point *p = m.points + i;
			p->normal_impulse = 0.0f;
			p->tangent_impulse = 0.0f;
			p->persisted = false;
			for (int j = 0; j < old.point_count; ++j) {
				if (old.points[j].id == p->id) {
					p->normal_impulse = old.points[j].normal_impulse;
					p->tangent_impulse = old.points[j].tangent_impulse;
					p->persisted = true;
					break;
				}
			}
		}
		c->manifold = m;

		bool touching = m.point_count > 0;
		bool was = (c->flags & TB_CONTACT_TOUCHING) != 0;
		/* Touching bodies belong to one island, and an island sleeps whole: an
		 * awake body touching a sleeping one wakes it (a box pushed into a
		 * sleeping pile, a platform starting to move under a sleeping crate). */
		if (touching) {
			if (!active_a) tb_wake_body(w, ba);
			if (!active_b) tb_wake_body(w, bb);
		}
		if (touching && !was) {
			c->flags |= TB_CONTACT_TOUCHING;
			if (c->flags & TB_CONTACT_EVENTS) push_begin_event(w, c);
		} else if (!touching && was) {
			c->flags &= ~(uint32_t)TB_CONTACT_TOUCHING;
			if (c->flags & TB_CONTACT_EVENTS) tb_push_end_event(w, c->shape_a, c->shape_b, false);
		}
	}
}
