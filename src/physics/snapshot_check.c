/* tumble physics: a loaded snapshot's values held to the API's rules.
 *
 * The loader (snapshot_format.c) checks each field for its type as it reads
 * it (a float is finite, a bool 0 or 1) and the image's links as a whole;
 * this pass checks what the setters would have allowed, record by record, so
 * nothing a program could not have made enters a world from bytes:
 * - bodies: positions within TB_HUGE (the setters' range), rotations unit
 *   length (the step keeps them within 1e-3), centres of mass where the
 *   shapes can put them, mass and inertia with their inverses as the engine
 *   computes them, dampings and sleep settings not negative;
 * - shapes: geometry as tb_validate_geometry and creation allow it (within
 *   TB_HUGE of the body's origin, radii included), surfaces as the setters
 *   allow, bounding boxes ordered and within the world's reach;
 * - contacts, their caches, events, movers and tree nodes: normals unit (or
 *   zero where nothing was found), points and depths within the world's reach;
 * - generations at most TB_GENERATION_CAP (core.h), far below the wrap, so no
 *   restored id can come round to one a live handle held.
 * "The world's reach" is a bound no state the step leaves goes past: bodies
 * within TB_HUGE and shapes within TB_HUGE of them. */
#include "snapshot.h"

/* positions of shapes' points, boxes, contacts: a body's origin (TB_HUGE) plus a
 * shape's extent (TB_HUGE), with room for margins and speculative distances */
#define REACH (4.0f * TB_HUGE)

static bool within(float v, float bound) { return fabsf(v) <= bound; }
static bool vec_within(tb_vec2 v, float bound) { return within(v.x, bound) && within(v.y, bound); }
static bool unit_length(float c, float s) { return fabsf(c * c + s * s - 1.0f) <= 1.0e-3f; }
static bool unit_rot(tb_rot q) { return unit_length(q.c, q.s); }
static bool unit_or_zero(tb_vec2 n) { return (n.x == 0.0f && n.y == 0.0f) || unit_length(n.x, n.y); }
static bool not_negative(float v) { return v >= 0.0f; }

static bool box_ok(tb_aabb b)
{
	return b.lower.x <= b.upper.x && b.lower.y <= b.upper.y && vec_within(b.lower, REACH) && vec_within(b.upper, REACH);
}

static bool body_ok(const tb_body *b, const tb_body_sim *s)
{
	if (!not_negative(b->sleep_threshold) || !not_negative(b->sleep_time)) return false;
	/* mass and inertia as tb_apply_body_mass leaves them */
	if (!(b->mass == 0.0f || (b->mass > 0.0f && isnormal(b->mass)))) return false;
	if (!(b->inertia == 0.0f || (b->inertia > 0.0f && isnormal(b->inertia)))) return false;
	float inv_mass = 0.0f, inv_inertia = 0.0f;
	if (b->type == TB_DYNAMIC_BODY) {
		inv_mass = b->mass > 0.0f ? 1.0f / b->mass : 1.0f;
		if (b->inertia > 0.0f && !b->fixed_rotation) inv_inertia = 1.0f / b->inertia;
	} else if (b->mass != 0.0f || b->inertia != 0.0f) {
		return false;
	}
	if (s->inv_mass != inv_mass || s->inv_inertia != inv_inertia) return false;
	/* the pose: the setters' range and a rotation of unit length */
	if (!vec_within(s->transform.p, TB_HUGE) || !unit_rot(s->transform.q) || !unit_rot(s->rotation0)) return false;
	if (!vec_within(s->local_center, TB_HUGE) || !vec_within(s->center, 2.0f * TB_HUGE) ||
	    !vec_within(s->center0, 2.0f * TB_HUGE))
		return false;
	/* extents: 1e9 marks "no shape yet" (tb_apply_body_mass) */
	if (!(s->min_extent >= 0.0f && s->min_extent <= 1.0e9f) || !(s->max_extent >= 0.0f && s->max_extent <= REACH))
		return false;
	return not_negative(s->linear_damping) && not_negative(s->angular_damping);
}

static bool shape_ok(const tb_shape *s)
{
	if (tb_validate_geometry(&s->geom) != TB_OK) return false;
	/* as creation: the whole shape, radius included, within TB_HUGE of its body's origin */
	tb_aabb local = tb_compute_aabb(&s->geom, tb_transform_identity);
	if (!(fabsf(local.lower.x) < TB_HUGE && fabsf(local.lower.y) < TB_HUGE && fabsf(local.upper.x) < TB_HUGE &&
	      fabsf(local.upper.y) < TB_HUGE))
		return false;
	if (s->geom.type == TB_SHAPE_CHAIN_SEGMENT &&
	    !(vec_within(s->geom.chain_segment.ghost1, TB_HUGE) && vec_within(s->geom.chain_segment.ghost2, TB_HUGE)))
		return false;
	if (!not_negative(s->density) || !not_negative(s->friction) || !not_negative(s->restitution) ||
	    !not_negative(s->rolling_resistance) || !within(s->tangent_speed, TB_HUGE))
		return false;
	return box_ok(s->aabb) && box_ok(s->fat_aabb);
}

static bool point_ok(const tb_manifold_point *p)
{
	return vec_within(p->point, REACH) && vec_within(p->anchor_a, REACH) && vec_within(p->anchor_b, REACH) &&
	       within(p->separation, REACH);
}

static bool contact_ok(const tb_contact *c)
{
	const tb_manifold *m = &c->manifold;
	if (!unit_or_zero(m->normal)) return false;
	for (int k = 0; k < m->point_count; ++k) {
		if (!point_ok(m->points + k)) return false;
	}
	if (!not_negative(c->friction) || !not_negative(c->restitution) || !not_negative(c->rolling_resistance) ||
	    !within(c->tangent_speed, 2.0f * TB_HUGE))
		return false;
	const tb_contact_cache *k = &c->cache;
	if (!(c->flags & TB_CONTACT_CACHED)) return true;
	if (!unit_rot(k->turn) || !unit_or_zero(k->normal) || !vec_within(k->center_a, REACH) ||
	    !vec_within(k->center_b, REACH) || !(k->lever >= 0.0f && k->lever <= REACH))
		return false;
	for (int i = 0; i < 2; ++i) {
		if (!vec_within(k->point_a[i], REACH) || !vec_within(k->point_b[i], REACH)) return false;
	}
	return true;
}

static bool mover_ok(const tb_mover *m)
{
	return unit_or_zero(m->ground_normal) && vec_within(m->ground_point, REACH) && vec_within(m->ground_local, REACH) &&
	       m->ground_generation <= TB_GENERATION_CAP;
}

static bool id_ok(uint32_t generation) { return generation <= TB_GENERATION_CAP; }
/* A live object's generation was issued below the cap; a free slot's is one
 * more than its last object's. */
static bool slot_generation_ok(uint32_t generation, bool in_use)
{
	return in_use ? generation < TB_GENERATION_CAP : generation <= TB_GENERATION_CAP;
}

static bool events_ok(const tb_world *img)
{
	for (int32_t k = 0; k < img->begin_events.count; ++k) {
		const tb_contact_begin_event *e = img->begin_events.data + k;
		if (!id_ok(e->shape_a.generation) || !id_ok(e->shape_b.generation) || !unit_or_zero(e->normal)) return false;
		for (int i = 0; i < 2; ++i) {
			if (!vec_within(e->points[i], REACH) || !within(e->separations[i], REACH)) return false;
		}
		if (!not_negative(e->approach_speed)) return false;
	}
	for (int32_t k = 0; k < img->hit_events.count; ++k) {
		const tb_contact_hit_event *e = img->hit_events.data + k;
		if (!id_ok(e->shape_a.generation) || !id_ok(e->shape_b.generation) || !unit_or_zero(e->normal) ||
		    !vec_within(e->point, REACH) || !not_negative(e->approach_speed))
			return false;
	}
	const tb_contact_end_event_array *ends[2] = {&img->end_events, &img->pending_end_events};
	for (int a = 0; a < 2; ++a) {
		for (int32_t k = 0; k < ends[a]->count; ++k) {
			if (!id_ok(ends[a]->data[k].shape_a.generation) || !id_ok(ends[a]->data[k].shape_b.generation)) return false;
		}
	}
	const tb_sensor_event_array *sensor_events[3] = {&img->sensor_begin_events, &img->sensor_end_events,
	                                                 &img->pending_sensor_end_events};
	for (int a = 0; a < 3; ++a) {
		for (int32_t k = 0; k < sensor_events[a]->count; ++k) {
			const tb_sensor_event *e = sensor_events[a]->data + k;
			if (!id_ok(e->sensor.generation) || !id_ok(e->visitor.generation)) return false;
		}
	}
	return true;
}

bool tb_snapshot_check_values(const tb_world *img)
{
	if (!(img->inv_dt0 >= 0.0f)) return false;
	for (int32_t i = 0; i < img->bodies.count; ++i) {
		const tb_body *b = img->bodies.data + i;
		if (!slot_generation_ok(b->generation, b->in_use)) return false;
		if (b->in_use && !body_ok(b, img->sims.data + i)) return false;
	}
	for (int32_t i = 0; i < img->shapes.count; ++i) {
		const tb_shape *s = img->shapes.data + i;
		if (!slot_generation_ok(s->generation, s->in_use)) return false;
		if (s->in_use && !shape_ok(s)) return false;
	}
	for (int32_t i = 0; i < img->contacts.count; ++i) {
		if (img->contacts.data[i].in_use && !contact_ok(img->contacts.data + i)) return false;
	}
	for (int32_t i = 0; i < img->joints.count; ++i) {
		const tb_joint *j = img->joints.data + i;
		if (!slot_generation_ok(j->generation, j->in_use)) return false;
		if (j->in_use && (!id_ok(j->def.body_a.generation) || !id_ok(j->def.body_b.generation))) return false;
	}
	for (int32_t i = 0; i < img->movers.count; ++i) {
		const tb_mover *m = img->movers.data + i;
		if (!slot_generation_ok(m->generation, m->in_use)) return false;
		if (m->in_use && !mover_ok(m)) return false;
	}
	for (int t = 0; t < 2; ++t) {
		const tb_dynamic_tree *tree = &img->broad_phase.trees[t];
		for (int32_t i = 0; i < tree->node_capacity; ++i) {
			const tb_aabb *b = &tree->nodes[i].aabb;
			if (!vec_within(b->lower, REACH) || !vec_within(b->upper, REACH)) return false;
		}
	}
	return events_ok(img);
}
