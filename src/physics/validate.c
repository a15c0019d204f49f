/* tumble physics: tb_world_validate, a check of every internal link of a
 * world (after Box2D's b2ValidateSolverSets, b2ValidateContacts and
 * b2ValidateConnectivity). Builds with TB_VALIDATE run it after every step
 * and every restore and assert; the tests call it directly. Its link checks
 * (tb_world_validate_links) also guard every snapshot loaded from bytes, in
 * every build, so they check each index before following it.
 *
 * It reads only and allocates nothing, so it can check a world whose
 * allocator has just failed. A set of slots (a pool's free list, the move
 * buffer) is compared with the slots it must equal by count, sum and sum of
 * squares: a duplicate or a missing slot changes them. */
#include "world.h"

#ifdef TB_VALIDATE
#include <stdio.h>
/* set while a loaded snapshot is checked: its failures are a status, not news */
static _Thread_local bool quiet;
#define FAIL(what) (quiet ? false : (fprintf(stderr, "tb_world_validate: %s (%s:%d)\n", what, __FILE__, __LINE__), false))
#else
#define FAIL(what) false
#endif
#define CHECK(cond)                                                                                         \
	do {                                                                                                    \
		if (!(cond)) return FAIL(#cond);                                                                    \
	} while (0)

/* The multiset of a set of slots, for comparing two sets without memory. */
typedef struct slot_sum { int64_t count, sum, squares; } slot_sum;

static void add_slot(slot_sum *s, int32_t slot)
{
	s->count += 1;
	s->sum += slot;
	s->squares += (int64_t)slot * slot;
}

static bool same_slots(slot_sum a, slot_sum b) { return a.count == b.count && a.sum == b.sum && a.squares == b.squares; }

/* The pool hands out [0, next_index): its free slots are exactly the records
 * not in use, each once, and freeing every slot needs no memory. */
static bool slot_in_use(const void *records, size_t offset, size_t stride, int32_t slot)
{
	return *(const bool *)((const char *)records + (size_t)slot * stride + offset);
}

static bool validate_pool(const tb_id_pool *pool, int32_t record_count, const void *records, size_t offset,
                          size_t stride)
{
	CHECK(pool->next_index == record_count);
	CHECK(0 <= pool->free_ids.count && pool->free_ids.count <= pool->next_index);
	slot_sum free_slots = {0, 0, 0}, dead = {0, 0, 0};
	for (int32_t k = 0; k < pool->free_ids.count; ++k) {
		int32_t slot = pool->free_ids.data[k];
		CHECK(0 <= slot && slot < pool->next_index);
		CHECK(!slot_in_use(records, offset, stride, slot));
		add_slot(&free_slots, slot);
	}
	for (int32_t i = 0; i < record_count; ++i) {
		if (!slot_in_use(records, offset, stride, i)) add_slot(&dead, i);
	}
	CHECK(same_slots(free_slots, dead));
	return true;
}

static bool validate_body(const tb_world *w, int32_t bi, int32_t *shapes, int32_t *contact_edges, int32_t *joint_edges)
{
	const tb_body *b = w->bodies.data + bi;
	CHECK(!b->is_marked);
	CHECK(b->type == TB_STATIC_BODY || b->type == TB_KINEMATIC_BODY || b->type == TB_DYNAMIC_BODY);
	CHECK(!(b->type == TB_STATIC_BODY && b->awake));
	/* the narrow phase reads the type from the sim */
	CHECK(w->sims.data[bi].type == (uint8_t)b->type);

	/* shapes: a doubly linked list in creation order, each pointing back */
	int32_t n = 0, prev = TB_NULL_INDEX;
	for (int32_t k = b->head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
		CHECK(0 <= k && k < w->shapes.count && ++n <= w->shapes.count);
		const tb_shape *s = w->shapes.data + k;
		CHECK(s->in_use && s->body == bi && s->prev_in_body == prev);
		prev = k;
	}
	CHECK(b->tail_shape == prev && b->shape_count == n);
	*shapes += n;

	/* contacts: the key of each edge names the contact and which end is this body */
	n = 0;
	prev = TB_NULL_INDEX;
	for (int32_t key = b->head_contact_key; key != TB_NULL_INDEX;) {
		int32_t ci = key >> 1, edge = key & 1;
		CHECK(0 <= ci && ci < w->contacts.count && ++n <= 2 * w->contacts.count);
		const tb_contact *c = w->contacts.data + ci;
		CHECK(c->in_use && c->edges[edge].body == bi && c->edges[edge].prev_key == prev);
		prev = key;
		key = c->edges[edge].next_key;
	}
	CHECK(b->contact_count == n);
	*contact_edges += n;

	n = 0;
	prev = TB_NULL_INDEX;
	for (int32_t key = b->head_joint_key; key != TB_NULL_INDEX;) {
		int32_t ji = key >> 1, edge = key & 1;
		CHECK(0 <= ji && ji < w->joints.count && ++n <= 2 * w->joints.count);
		const tb_joint *j = w->joints.data + ji;
		CHECK(j->in_use && (edge == 0 ? j->body_a : j->body_b) == bi && j->edge_prev[edge] == prev);
		prev = key;
		key = j->edge_next[edge];
	}
	CHECK(b->joint_count == n);
	*joint_edges += n;
	return true;
}

static bool validate_shape(const tb_world *w, int32_t si, int32_t proxies[2], slot_sum *moving)
{
	const tb_shape *s = w->shapes.data + si;
	CHECK(0 <= s->body && s->body < w->bodies.count && w->bodies.data[s->body].in_use);
	const tb_body *b = w->bodies.data + s->body;
	CHECK((s->chain_id >= 0) == (s->geom.type == TB_SHAPE_CHAIN_SEGMENT));

	/* a sensor record exactly for sensors and field carriers, pointing back */
	bool needs_record = s->is_sensor || s->field.kind != TB_FIELD_NONE;
	CHECK((s->sensor_index != TB_NULL_INDEX) == needs_record);
	if (s->sensor_index != TB_NULL_INDEX) {
		CHECK(0 <= s->sensor_index && s->sensor_index < w->sensors.count);
		const tb_sensor *sensor = w->sensors.data + s->sensor_index;
		CHECK(sensor->in_use && sensor->shape == si);
	}

	/* a proxy exactly when shape and body are enabled, in the tree of the body's type */
	CHECK((s->proxy != TB_NULL_INDEX) == (s->enabled && b->enabled));
	if (s->proxy != TB_NULL_INDEX) {
		int32_t tree_index = b->type == TB_STATIC_BODY ? 0 : 1;
		CHECK(s->tree == tree_index);
		const tb_dynamic_tree *tree = &w->broad_phase.trees[tree_index];
		CHECK(0 <= s->proxy && s->proxy < tree->node_capacity);
		const tb_tree_node *node = tree->nodes + s->proxy;
		CHECK(node->height == 0 && node->user_data == si);
		/* queries skip a leaf by its bits: a pair would never be found */
		CHECK(node->category_bits == s->filter.category_bits);
		CHECK(tb_aabb_contains(node->aabb, s->fat_aabb) && tb_aabb_contains(s->fat_aabb, node->aabb));
		proxies[tree_index] += 1;
	}
	if (s->in_move_buffer) {
		CHECK(s->proxy != TB_NULL_INDEX);
		/* a partner's pair query never takes a pair with a moved shape as known */
		CHECK(w->broad_phase.trees[s->tree].nodes[s->proxy].moved);
		add_slot(moving, si);
	}
	return true;
}

static bool validate_contact(const tb_world *w, int32_t ci)
{
	const tb_contact *c = w->contacts.data + ci;
	CHECK(0 <= c->shape_a && c->shape_a < w->shapes.count && 0 <= c->shape_b && c->shape_b < w->shapes.count);
	const tb_shape *a = w->shapes.data + c->shape_a, *b = w->shapes.data + c->shape_b;
	CHECK(a->in_use && b->in_use && a->proxy != TB_NULL_INDEX && b->proxy != TB_NULL_INDEX);
	CHECK(c->edges[0].body == a->body && c->edges[1].body == b->body && a->body != b->body);
	/* the chain colliders take the chain first */
	CHECK(b->geom.type != TB_SHAPE_CHAIN_SEGMENT);
	CHECK(0 <= c->manifold.point_count && c->manifold.point_count <= 2);
	bool near = false;
	for (int i = 0; i < c->manifold.point_count; ++i) near |= c->manifold.points[i].separation <= TB_SPECULATIVE_DISTANCE;
	CHECK(((c->flags & TB_CONTACT_TOUCHING) != 0) == near);
	/* the narrow phase remakes a manifold of the cache's points */
	CHECK(!(c->flags & TB_CONTACT_CACHED) || (1 <= c->cache.count && c->cache.count <= 2));
	/* the pair's flag for the narrow phase, kept as the bodies' types and masses change */
	CHECK(((c->flags & TB_CONTACT_WALL) != 0) == tb_is_moving_wall_pair(w, c->edges[0].body, c->edges[1].body));
	CHECK(tb_pair_set_find(&w->broad_phase.pairs, c->shape_a, c->shape_b) == ci);
	return true;
}

static bool validate_joint(const tb_world *w, int32_t ji)
{
	const tb_joint *j = w->joints.data + ji;
	CHECK(0 <= j->body_a && j->body_a < w->bodies.count && 0 <= j->body_b && j->body_b < w->bodies.count);
	CHECK(j->body_a != j->body_b && w->bodies.data[j->body_a].in_use && w->bodies.data[j->body_b].in_use);
	/* the ids in the def are the live bodies' */
	tb_body_id a = tb_make_body_id(w, j->body_a), b = tb_make_body_id(w, j->body_b);
	CHECK(TB_ID_EQUALS(j->def.body_a, a) && TB_ID_EQUALS(j->def.body_b, b));
	CHECK((int)j->def.type >= 0 && j->def.type < TB_JOINT_TYPE_COUNT);
	CHECK(!isnan(j->def.break_force) && !isnan(j->def.break_torque));
	if (tb_joint_kinds[j->def.type]->has_axis)
		CHECK(fabsf(tb_length(j->def.local_axis_a) - 1.0f) < 1.0e-4f);
	return true;
}

/* A live sensor's segment lies in the overlap array, sorted by slot; a stored
 * generation never runs ahead of its slot's. (That segments do not overlap
 * is checked in slot order by the caller.) */
static bool validate_sensor(const tb_world *w, int32_t index)
{
	const tb_sensor *sensor = w->sensors.data + index;
	CHECK(0 <= sensor->shape && sensor->shape < w->shapes.count);
	const tb_shape *s = w->shapes.data + sensor->shape;
	CHECK(s->in_use && s->sensor_index == index);
	CHECK(sensor->count >= 0 && sensor->first >= 0 &&
	      (int64_t)sensor->first + sensor->count <= (int64_t)w->overlaps.count);
	if (sensor->count == 0) return true;
	const tb_sensor_overlap *list = w->overlaps.data + sensor->first;
	for (int32_t k = 0; k < sensor->count; ++k) {
		CHECK(0 <= list[k].shape && list[k].shape < w->shapes.count);
		CHECK(k == 0 || list[k - 1].shape <= list[k].shape);
		uint32_t stored = list[k].generation & 0x1fffffffu;
		CHECK(stored <= (w->shapes.data[list[k].shape].generation & 0x1fffffffu));
	}
	return true;
}

/* A mover's numbers are finite and its ground link is a slot or none (a
 * stale one is allowed: it is checked by generation when used). */
static bool validate_mover(const tb_world *w, int32_t index)
{
	const tb_mover *m = w->movers.data + index;
	CHECK(tb_is_valid_vec2(m->position) && fabsf(m->position.x) <= TB_HUGE && fabsf(m->position.y) <= TB_HUGE);
	CHECK(m->def.capsule.radius > 2.0f * TB_LINEAR_SLOP);
	CHECK(m->ground_shape == TB_NULL_INDEX || (0 <= m->ground_shape && m->ground_shape < w->shapes.count));
	CHECK(m->grounded || m->ground_shape == TB_NULL_INDEX);
	CHECK(tb_is_valid_vec2(m->ground_normal) && tb_is_valid_vec2(m->ground_point));
	return true;
}

/* What the step and the destroy functions rely on never having to allocate. */
static bool validate_reserves(const tb_world *w)
{
	int32_t bodies = w->bodies.count, shapes = w->shapes.count, contacts = w->contacts.count;
	CHECK(w->sims.count == bodies && w->sims.capacity >= bodies);
	CHECK(w->stack.capacity >= bodies + (bodies > 0 ? 1 : 0));
	CHECK(w->broad_phase.move_buffer.capacity >= shapes && w->broad_phase.new_partners.capacity >= shapes &&
	      w->broad_phase.old_fat.capacity >= shapes &&
	      w->broad_phase.joined.capacity >= TB_JOIN_PAIRS_PER_SHAPE * (int64_t)shapes &&
	      w->broad_phase.walk.capacity >= 2 * (int64_t)shapes);
	CHECK(w->broad_phase.pairs.capacity >= 2 * tb_id_pool_count(&w->contact_pool));
	CHECK(w->constraints.capacity >= contacts && w->graph.refs.capacity >= contacts &&
	      w->graph.constraint_colors.capacity >= contacts &&
	      w->graph.order.capacity >= contacts);
	CHECK(contacts == 0 || (w->graph.blocks.capacity >= tb_graph_block_bound(contacts) &&
	                        w->graph.lane_refs.capacity >= tb_graph_block_bound(contacts) * TB_BLOCK_LANES &&
	                        w->graph.surfaces.capacity >= tb_graph_block_bound(contacts)));
	CHECK(w->begin_events.capacity >= contacts && w->end_events.capacity >= 2 * contacts &&
	      w->hit_events.capacity >= contacts && w->pending_end_events.capacity >= contacts);
	CHECK(w->pending_end_events.count <= w->pending_end_events.capacity);
	/* the step's per-body and per-joint arrays, reserved as bodies and joints are made */
	int32_t joints = w->joints.count;
	CHECK(w->states.capacity >= bodies && w->motions.capacity >= bodies && w->awake_bodies.capacity >= bodies &&
	      w->graph.body_colors.capacity >= bodies && w->fast_bodies.capacity >= bodies &&
	      w->island_parent.capacity >= bodies && w->island_sleep.capacity >= bodies &&
	      w->field_stamp.capacity >= (bodies > 0 ? bodies + 1 : 0));
	CHECK(w->active_joints.capacity >= joints && w->joint_rows.capacity >= joints && w->pin_colors.capacity >= joints &&
	      w->pin_blocks.capacity >= (joints > 0 ? tb_graph_block_bound(joints) : 0) &&
	      w->revolute_rows.capacity >= joints && w->joint_break_events.capacity >= joints);
	CHECK(((uintptr_t)w->graph.blocks.data % TB_ALIGNMENT) == 0);
	CHECK(((uintptr_t)w->graph.surfaces.data % TB_ALIGNMENT) == 0);
	CHECK(((uintptr_t)w->pin_blocks.data % TB_ALIGNMENT) == 0);
	return true;
}

static bool validate_links(const tb_world *w);

/* The awake sets (body.h) hold exactly the bodies in use, awake and simulated,
 * and the contacts and joints in use with such a body; no bit past the slots. */
static bool validate_awake_sets(const tb_world *w)
{
	CHECK(w->awake_body_bits.count == tb_bit_words(w->bodies.count));
	CHECK(w->active_contact_bits.count == tb_bit_words(w->contacts.count));
	/* the narrow phase copies the active set there */
	CHECK(w->collide_bits.capacity >= w->active_contact_bits.count);
	const uint64_t *bodies = w->awake_body_bits.data, *contacts = w->active_contact_bits.data;
	for (int32_t i = 0; i < 64 * w->awake_body_bits.count; ++i) {
		bool active = i < w->bodies.count && tb_body_is_active(w->bodies.data + i);
		CHECK(tb_bit_get(bodies, i) == active);
	}
	for (int32_t i = 0; i < 64 * w->active_contact_bits.count; ++i) {
		const tb_contact *c = i < w->contacts.count ? w->contacts.data + i : NULL;
		bool active = c && c->in_use &&
		              (tb_body_is_active(w->bodies.data + c->edges[0].body) ||
		               tb_body_is_active(w->bodies.data + c->edges[1].body));
		CHECK(tb_bit_get(contacts, i) == active);
	}
	CHECK(w->active_joint_bits.count == tb_bit_words(w->joints.count));
	for (int32_t i = 0; i < 64 * w->active_joint_bits.count; ++i) {
		const tb_joint *j = i < w->joints.count ? w->joints.data + i : NULL;
		bool active = j && j->in_use &&
		              (tb_body_is_active(w->bodies.data + j->body_a) || tb_body_is_active(w->bodies.data + j->body_b));
		CHECK(tb_bit_get(w->active_joint_bits.data, i) == active);
	}
	return true;
}

bool tb_world_validate(const tb_world *w)
{
	if (w == NULL) return false;
	CHECK(!w->locked);
	CHECK(w->bodies.count <= w->bodies.capacity && w->shapes.count <= w->shapes.capacity);
	/* freeing every slot needs no memory */
	CHECK(w->body_pool.free_ids.capacity >= w->body_pool.next_index);
	CHECK(w->shape_pool.free_ids.capacity >= w->shape_pool.next_index);
	CHECK(w->contact_pool.free_ids.capacity >= w->contact_pool.next_index);
	CHECK(w->joint_pool.free_ids.capacity >= w->joint_pool.next_index);
	CHECK(w->sensor_pool.free_ids.capacity >= w->sensor_pool.next_index);
	CHECK(w->body_pool.issued.capacity >= w->body_pool.next_index);
	CHECK(w->shape_pool.issued.capacity >= w->shape_pool.next_index);
	CHECK(w->joint_pool.issued.capacity >= w->joint_pool.next_index);
	CHECK(w->mover_pool.issued.capacity >= w->mover_pool.next_index);
	CHECK(validate_reserves(w));
	CHECK(validate_links(w));
	/* only a buffered shape has a box from the last pair update (broad_phase.c;
	 * a snapshot's image has none at all, so not in validate_links) */
	for (int32_t i = 0; i < w->shapes.count; ++i) {
		const tb_aabb old = w->broad_phase.old_fat.data[i];
		CHECK(w->shapes.data[i].in_move_buffer || (old.lower.x > old.upper.x && old.lower.y > old.upper.y));
	}
	return validate_awake_sets(w);
}

bool tb_world_validate_links(const tb_world *w)
{
#ifdef TB_VALIDATE
	quiet = true;
	bool ok = validate_links(w);
	quiet = false;
	return ok;
#else
	return validate_links(w);
#endif
}

static bool validate_links(const tb_world *w)
{
#define POOL(pool, array, type) validate_pool(&w->pool, w->array.count, w->array.data, offsetof(type, in_use), sizeof(type))
	CHECK(POOL(body_pool, bodies, tb_body));
	CHECK(POOL(shape_pool, shapes, tb_shape));
	CHECK(POOL(contact_pool, contacts, tb_contact));
	CHECK(POOL(joint_pool, joints, tb_joint));
	CHECK(POOL(sensor_pool, sensors, tb_sensor));
	CHECK(POOL(mover_pool, movers, tb_mover));
#undef POOL
	CHECK(w->sims.count == w->bodies.count);

	int32_t shapes = 0, contact_edges = 0, joint_edges = 0;
	for (int32_t i = 0; i < w->bodies.count; ++i) {
		if (w->bodies.data[i].in_use) CHECK(validate_body(w, i, &shapes, &contact_edges, &joint_edges));
	}
	/* every live shape, contact and joint is in the lists of its bodies */
	CHECK(shapes == tb_id_pool_count(&w->shape_pool));
	CHECK(contact_edges == 2 * tb_id_pool_count(&w->contact_pool));
	CHECK(joint_edges == 2 * tb_id_pool_count(&w->joint_pool));

	int32_t proxies[2] = {0, 0};
	slot_sum moving = {0, 0, 0}, buffered = {0, 0, 0};
	for (int32_t i = 0; i < w->shapes.count; ++i) {
		if (w->shapes.data[i].in_use) CHECK(validate_shape(w, i, proxies, &moving));
	}
	for (int t = 0; t < 2; ++t) {
		CHECK(proxies[t] == w->broad_phase.trees[t].proxy_count);
		CHECK(tb_dynamic_tree_validate(&w->broad_phase.trees[t]));
	}
	const tb_int_array *buffer = &w->broad_phase.move_buffer;
	for (int32_t k = 0; k < buffer->count; ++k) {
		int32_t si = buffer->data[k];
		CHECK(0 <= si && si < w->shapes.count && w->shapes.data[si].in_use && w->shapes.data[si].in_move_buffer);
		add_slot(&buffered, si);
	}
	/* the move buffer holds each flagged shape once */
	CHECK(same_slots(moving, buffered));

	/* the pair set is the live contacts: each finds itself, and the counts agree */
	int32_t touching = 0;
	for (int32_t i = 0; i < w->contacts.count; ++i) {
		if (!w->contacts.data[i].in_use) continue;
		CHECK(validate_contact(w, i));
		touching += (w->contacts.data[i].flags & TB_CONTACT_TOUCHING) != 0;
	}
	CHECK(w->broad_phase.pairs.count == tb_id_pool_count(&w->contact_pool));
	/* the counters' touching count, kept as the flags change */
	CHECK(touching == w->touching_contact_count);
	int32_t breakable = 0;
	for (int32_t i = 0; i < w->joints.count; ++i) {
		if (!w->joints.data[i].in_use) continue;
		CHECK(validate_joint(w, i));
		if (tb_joint_is_breakable(&w->joints.data[i].def)) breakable += 1;
	}
	CHECK(breakable == w->breakable_joint_count);
	/* sensors' segments follow one another in slot order (each update lays
	 * them out so), so one pass shows that no two overlap */
	int64_t end = 0;
	for (int32_t i = 0; i < w->sensors.count; ++i) {
		const tb_sensor *sensor = w->sensors.data + i;
		if (!sensor->in_use) continue;
		CHECK(validate_sensor(w, i));
		if (sensor->count == 0) continue;
		CHECK(sensor->first >= end);
		end = (int64_t)sensor->first + sensor->count;
	}
	for (int32_t i = 0; i < w->movers.count; ++i) {
		if (w->movers.data[i].in_use) CHECK(validate_mover(w, i));
	}
	return true;
}
