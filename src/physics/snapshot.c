/* tumble physics: taking and restoring snapshots.
 *
 * Taking one copies the world's persistent arrays into one block, a memcpy
 * each (the 5,050-box pyramid: see tests/bench). Restoring reserves, in the
 * world's own allocator, room for everything the image holds and for what the
 * step and the destroy functions rely on never having to allocate, then
 * copies; if any reservation fails the world is left as it was. A world's
 * arrays never shrink here: restoring an earlier, smaller moment keeps the
 * capacity (a rewinding host restores often) and zeroes the records past the
 * image's counts, which fresh slots expect. */
#include "snapshot.h"

const tb_snapshot_part tb_snapshot_parts[TB_PART_COUNT] = {
#define TB_SNAPSHOT_PART_ROW(name, member, type, owner)                                                                   \
	{#member, offsetof(tb_world, member.data), offsetof(tb_world, member.count),                            \
	 offsetof(tb_world, member.capacity), sizeof *((tb_world *)0)->member.data},
	TB_SNAPSHOT_ARRAYS(TB_SNAPSHOT_PART_ROW)
#undef TB_SNAPSHOT_PART_ROW
};

/* A tripwire: a new field in the world record is either scratch the step
 * rebuilds or something that decides the future, and goes in its list:
 * TB_WORLD_ARRAYS (world.h) for an array, TB_SNAPSHOT_SCALARS (snapshot.h)
 * for a scalar, which then drive the snapshots and their bytes. (The
 * contact solver's path is neither: every path computes the same bits, and a world keeps its
 * own across a restore. Nor is the pre-solve hook: a function and its context
 * belong to the program, not to a moment of the world, so a world keeps its
 * own hook across a restore and a snapshot has none. Nor are the narrow
 * phase's list of constraints and the count of contact activations that says
 * whether it still holds: the step makes both anew before it reads them. Nor
 * the count of manifolds the last narrow phase remade from their caches: a
 * counter each narrow phase starts from zero, read by no step; nor the count
 * of sweeps that met the immovable shapes by the contacts, nor the tests'
 * switch that makes them query the tree instead. Nor the broad
 * phase's list of the pairs a rebuilt tree's walk found: made anew by the
 * walk, read only in the same pair update, nor whether it was used, nor the tests'
 * switch that compares it with the queries, nor the tree's layout for it. Nor
 * the spare blocks kept for the next snapshots: memory, not a moment's state.) */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(tb_world) == 2064, "tb_world changed: list a new field in TB_WORLD_ARRAYS (world.h) "
                                         "or TB_SNAPSHOT_SCALARS (snapshot.h), then update this size");
#endif

static void **part_data_slot(tb_world *w, int p) { return (void **)((char *)w + tb_snapshot_parts[p].data); }
static int32_t *part_count_slot(tb_world *w, int p) { return (int32_t *)((char *)w + tb_snapshot_parts[p].count); }
static int32_t *part_capacity_slot(tb_world *w, int p)
{
	return (int32_t *)((char *)w + tb_snapshot_parts[p].capacity);
}

static size_t align_up(size_t n) { return (n + (TB_ALIGNMENT - 1)) & ~(size_t)(TB_ALIGNMENT - 1); }

size_t tb_snapshot_block_size(const int32_t counts[TB_PART_COUNT], const int32_t tree_nodes[2], int32_t pair_capacity)
{
	size_t size = 0;
	for (int p = 0; p < TB_PART_COUNT; ++p) size = align_up(size) + (size_t)counts[p] * tb_snapshot_parts[p].element;
	for (int t = 0; t < 2; ++t) size = align_up(size) + (size_t)tree_nodes[t] * sizeof(tb_tree_node);
	size = align_up(size) + (size_t)pair_capacity * sizeof(tb_pair_entry);
	return size;
}

void tb_snapshot_layout(tb_snapshot *snap, const int32_t counts[TB_PART_COUNT], const int32_t tree_nodes[2],
                        int32_t pair_capacity)
{
	tb_world *img = &snap->image;
	size_t at = 0;
	for (int p = 0; p < TB_PART_COUNT; ++p) {
		at = align_up(at);
		*part_data_slot(img, p) = counts[p] > 0 ? snap->block + at : NULL;
		*part_count_slot(img, p) = counts[p];
		*part_capacity_slot(img, p) = counts[p];
		at += (size_t)counts[p] * tb_snapshot_parts[p].element;
	}
	for (int t = 0; t < 2; ++t) {
		at = align_up(at);
		tb_dynamic_tree *tree = &img->broad_phase.trees[t];
		tree->nodes = tree_nodes[t] > 0 ? (tb_tree_node *)(snap->block + at) : NULL;
		tree->node_capacity = tree_nodes[t];
		at += (size_t)tree_nodes[t] * sizeof(tb_tree_node);
	}
	at = align_up(at);
	img->broad_phase.pairs.entries = pair_capacity > 0 ? (tb_pair_entry *)(snap->block + at) : NULL;
	img->broad_phase.pairs.capacity = pair_capacity;
	at += (size_t)pair_capacity * sizeof(tb_pair_entry);
	TB_ASSERT(at == snap->block_size);
}

tb_snapshot *tb_snapshot_alloc(const tb_allocator *allocator, size_t block_size)
{
	tb_allocator a;
	tb_allocator_init(&a, allocator->fn, allocator->ud, allocator->max_bytes);
	tb_snapshot *snap = tb_alloc(&a, sizeof *snap);
	if (snap == NULL) return NULL;
	unsigned char *block = NULL;
	if (block_size > 0) {
		block = tb_alloc(&a, block_size);
		if (block == NULL) {
			tb_free(&a, snap, sizeof *snap);
			return NULL;
		}
	}
	memset(snap, 0, sizeof *snap);
	snap->allocator = a;
	snap->block = block;
	snap->block_size = block_size;
	snap->block_allocated = block_size;
	return snap;
}

void tb_snapshot_free(tb_snapshot *snap)
{
	if (snap == NULL) return;
	tb_allocator a = snap->allocator;
	tb_free(&a, snap->block, snap->block_allocated);
	tb_free(&a, snap, sizeof *snap);
}

size_t tb_snapshot_get_allocated_bytes(const tb_snapshot *snap) { return snap != NULL ? snap->allocator.bytes : 0; }

tb_counters tb_snapshot_get_counters(const tb_snapshot *snap)
{
	if (snap == NULL) {
		tb_counters none;
		memset(&none, 0, sizeof none);
		return none;
	}
	tb_counters c = tb_world_get_counters(&snap->image);
	/* the image has no awake set (a restore rebuilds it): its bodies say */
	c.awake_body_count = 0;
	const tb_body_array *bodies = &snap->image.bodies;
	for (int32_t i = 0; i < bodies->count; ++i) c.awake_body_count += tb_body_is_active(bodies->data + i);
	return c;
}

/* Everything of the world record that is neither an array above nor scratch:
 * TB_SNAPSHOT_SCALARS, and the settings, which go whole into the image; back
 * into a world, its allocator and limits stay its own. */
static void copy_scalars(tb_world *dst, const tb_world *src, bool keep_allocator)
{
	tb_world_def def = src->def;
	if (keep_allocator) {
		def.alloc = dst->def.alloc;
		def.alloc_ud = dst->def.alloc_ud;
		def.limits = dst->def.limits;
	}
	dst->def = def;
#define COPY_SCALAR(member, kind, saving) dst->member = src->member;
	TB_SNAPSHOT_SCALARS(COPY_SCALAR)
#undef COPY_SCALAR
}

/* The bytes a snapshot of the world needs now, and the counts that lay them out. */
static size_t world_block_size(const tb_world *w, int32_t counts[TB_PART_COUNT], int32_t tree_nodes[2],
                               int32_t *pair_capacity)
{
	for (int p = 0; p < TB_PART_COUNT; ++p) counts[p] = tb_part_count(w, p);
	for (int t = 0; t < 2; ++t) tree_nodes[t] = w->broad_phase.trees[t].node_capacity;
	*pair_capacity = w->broad_phase.pairs.capacity;
	return tb_snapshot_block_size(counts, tree_nodes, *pair_capacity);
}

/* ---- the spares ----
 *
 * A snapshot's block is memory the process has usually never touched, and the
 * kernel's page fault for each of its pages costs more than the copy into it:
 * of the 5,050-box pyramid's 5.5 ms first snapshot, 4.3 went to faults. So a
 * world that has taken a snapshot keeps a block ready for the next one,
 * written a page at a time after its steps, an eighth of it a step (within
 * bounds: the pyramid's 8.6 MB spare refills in 8 steps, for about 0.6 ms
 * each, the faults the snapshot would have taken in one), and the next
 * snapshot that fits in it takes it whole, written or not yet. A snapshot
 * that finds no spare fully written asks for a second one (never more):
 * snapshots come closer together than a spare refills. The spares come from
 * the world's allocator function outside its byte limit, as a snapshot's
 * memory does, so keeping them never makes the world refuse an object; a host
 * whose memory is capped turns them off (tb_world_keep_snapshot_spares). */
static tb_snapshot *take_spare(tb_world *w, const tb_allocator *allocator, size_t size)
{
	tb_snapshot_spare *best = NULL;
	for (int i = 0; i < TB_SPARE_MAX; ++i) {
		tb_snapshot_spare *s = &w->spares[i];
		if (s->block != NULL && s->size >= size && (best == NULL || s->written > best->written)) best = s;
	}
	bool ready = best != NULL && best->written == best->size;
	if (w->spares_wanted == 0) w->spares_wanted = 1;
	else if (!ready && w->spares_wanted < TB_SPARE_MAX) w->spares_wanted += 1;
	if (best == NULL) return NULL;
	tb_snapshot *snap = tb_snapshot_alloc(allocator, 0);
	if (snap == NULL) return NULL;
	/* the block changes hands between two accounts of the same function */
	size_t held = best->size + TB_ALIGNMENT;
	w->spare_allocator.bytes -= held;
	snap->allocator.bytes += held;
	snap->block = best->block;
	snap->block_size = size;
	snap->block_allocated = best->size;
	best->block = NULL;
	best->size = best->written = 0;
	return snap;
}

size_t tb_spare_bytes_per_step(size_t spare_size)
{
	size_t n = spare_size / 8;
	return n < TB_SPARE_MIN_BYTES_PER_STEP ? TB_SPARE_MIN_BYTES_PER_STEP
	       : n > TB_SPARE_MAX_BYTES_PER_STEP ? TB_SPARE_MAX_BYTES_PER_STEP
	                                         : n;
}

static void free_spare(tb_world *w, tb_snapshot_spare *s)
{
	tb_free(&w->spare_allocator, s->block, s->size);
	s->block = NULL;
	s->size = s->written = 0;
}

void tb_free_snapshot_spares(tb_world *w)
{
	for (int i = 0; i < TB_SPARE_MAX; ++i) free_spare(w, &w->spares[i]);
}

void tb_world_keep_snapshot_spares(tb_world *w, bool keep)
{
	if (w == NULL) return;
	w->spares_off = !keep;
	if (!keep) tb_free_snapshot_spares(w);
	else if (w->spares_wanted == 0) w->spares_wanted = 1;
}

void tb_refill_snapshot_spares(tb_world *w)
{
	if (w->spares_wanted == 0 || w->spares_off) return;
	int32_t counts[TB_PART_COUNT], tree_nodes[2], pair_capacity;
	size_t need = world_block_size(w, counts, tree_nodes, &pair_capacity);
	if (need == 0) return;
	if (w->spare_allocator.fn == NULL) tb_allocator_init(&w->spare_allocator, w->def.alloc, w->def.alloc_ud, 0);
	size_t budget = tb_spare_bytes_per_step(need + need / 8);
	for (int i = 0; i < w->spares_wanted && budget > 0; ++i) {
		tb_snapshot_spare *s = &w->spares[i];
		if (s->block != NULL && s->size < need) free_spare(w, s);
		if (s->block == NULL) {
			size_t size = need + need / 8;
			s->block = tb_alloc(&w->spare_allocator, size);
			if (s->block == NULL) return; /* tried again after the next step */
			s->size = size;
			s->written = 0;
		}
		size_t n = s->size - s->written < budget ? s->size - s->written : budget;
		if (n == 0) continue;
		/* one byte in every page of the range, and the range's last */
		size_t end = s->written + n;
		for (size_t at = s->written; at < end; at += TB_SPARE_PAGE_BYTES) s->block[at] = 0;
		s->block[end - 1] = 0;
		s->written = end;
		budget -= n;
	}
}

tb_snapshot *tb_world_snapshot(tb_world *w, tb_status *status)
{
	tb_status ignored;
	if (status == NULL) status = &ignored;
	if (w == NULL) {
		*status = TB_ERR_INVALID_ARGUMENT;
		return NULL;
	}
	if (w->locked) {
		*status = TB_ERR_LOCKED;
		return NULL;
	}
	int32_t counts[TB_PART_COUNT], tree_nodes[2];
	int32_t pair_capacity;
	size_t size = world_block_size(w, counts, tree_nodes, &pair_capacity);

	/* the world's allocator function, but not its byte count or limit: a
	 * snapshot may outlive the world */
	tb_allocator a;
	tb_allocator_init(&a, w->def.alloc, w->def.alloc_ud, 0);
	tb_snapshot *snap = take_spare(w, &a, size);
	if (snap == NULL) snap = tb_snapshot_alloc(&a, size);
	if (snap == NULL) {
		*status = TB_ERR_OUT_OF_MEMORY;
		return NULL;
	}
	snap->lineage = w->lineage;
	snap->field_refresh = w->field_stamp.capacity > 0 ? w->field_stamp.data[0] : 0;
	tb_world *img = &snap->image;
	copy_scalars(img, w, false);
	tb_snapshot_layout(snap, counts, tree_nodes, pair_capacity);
	for (int p = 0; p < TB_PART_COUNT; ++p) {
		if (counts[p] > 0) memcpy(tb_part_data(img, p), tb_part_data(w, p), (size_t)counts[p] * tb_snapshot_parts[p].element);
	}
	for (int t = 0; t < 2; ++t) {
		const tb_dynamic_tree *from = &w->broad_phase.trees[t];
		tb_dynamic_tree *to = &img->broad_phase.trees[t];
		if (tree_nodes[t] > 0) memcpy(to->nodes, from->nodes, (size_t)tree_nodes[t] * sizeof(tb_tree_node));
		to->root = from->root;
		to->node_count = from->node_count;
		to->free_list = from->free_list;
		to->proxy_count = from->proxy_count;
	}
	const tb_pair_set *pairs = &w->broad_phase.pairs;
	if (pair_capacity > 0) memcpy(img->broad_phase.pairs.entries, pairs->entries, (size_t)pair_capacity * sizeof(tb_pair_entry));
	img->broad_phase.pairs.count = pairs->count;
	*status = TB_OK;
	return snap;
}

/* ---- restore ---- */

static tb_status check_limits(const tb_world *w, const tb_world *img)
{
	const tb_world_limits *l = &w->def.limits;
	if (l->max_bodies > 0 && tb_id_pool_count(&img->body_pool) > l->max_bodies) return TB_ERR_BODY_LIMIT;
	if (l->max_shapes > 0 && tb_id_pool_count(&img->shape_pool) > l->max_shapes) return TB_ERR_SHAPE_LIMIT;
	if (l->max_joints > 0 && tb_id_pool_count(&img->joint_pool) > l->max_joints) return TB_ERR_JOINT_LIMIT;
	if (l->max_contacts > 0 && tb_id_pool_count(&img->contact_pool) > l->max_contacts) return TB_ERR_CONTACT_LIMIT;
	return TB_OK;
}

/* Room for the image and for everything the world reserves as its objects are
 * made (the step's arrays, the events each contact can raise, the stack of
 * graph walks, free-slot lists), so the restored world steps and destroys
 * without allocating, as the original did. Grows only. */
static bool reserve_image(tb_world *w, const tb_world *img)
{
	tb_allocator *a = &w->allocator;
	for (int p = 0; p < TB_PART_COUNT; ++p) {
		if (!tb_array_grow(a, part_data_slot(w, p), part_capacity_slot(w, p), tb_part_count(img, p),
		                   tb_snapshot_parts[p].element))
			return false;
	}
	int32_t bodies = img->bodies.count, shapes = img->shapes.count, joints = img->joints.count;
	int32_t contacts = img->contacts.count;
	/* as many shape slots as a world can make (shape.c) */
	if (shapes > INT32_MAX / (2 * TB_JOIN_PAIRS_PER_SHAPE)) return false;
	if (!tb_id_pool_reserve(a, &w->body_pool, bodies) || !tb_id_pool_reserve(a, &w->shape_pool, shapes) ||
	    !tb_id_pool_reserve(a, &w->contact_pool, contacts) || !tb_id_pool_reserve(a, &w->joint_pool, joints) ||
	    !tb_id_pool_reserve(a, &w->sensor_pool, img->sensors.count) ||
	    !tb_id_pool_reserve(a, &w->mover_pool, img->movers.count))
		return false;
	if (!tb_reserve_step_arrays(w, bodies, joints) || !tb_reserve_contact_slots(w, contacts) ||
	    !tb_pair_set_reserve(a, &w->broad_phase.pairs, img->broad_phase.pairs.count) ||
	    !tb_int_array_reserve(a, &w->stack, bodies + 1) ||
	    !tb_int_array_reserve(a, &w->broad_phase.move_buffer, shapes) ||
	    !tb_int_array_reserve(a, &w->broad_phase.new_partners, shapes) ||
	    !tb_aabb_array_reserve(a, &w->broad_phase.old_fat, shapes) ||
	    !tb_u64_array_reserve(a, &w->broad_phase.joined, TB_JOIN_PAIRS_PER_SHAPE * shapes) ||
	    !tb_walk_node_array_reserve(a, &w->broad_phase.walk, 2 * shapes) ||
	    !tb_sensor_event_array_reserve(a, &w->pending_sensor_end_events,
	                                   img->pending_sensor_end_events.count + img->overlaps.count))
		return false;
	for (int t = 0; t < 2; ++t) {
		if (!tb_dynamic_tree_reserve_nodes(&w->broad_phase.trees[t], img->broad_phase.trees[t].node_capacity))
			return false;
	}
	return true;
}

/* A snapshot of another world (or from bytes) names objects with its own ids.
 * Each slot's generations move up just enough that the one in its record
 * reaches the first this world has not issued there (none move in a fresh
 * world), so no earlier id of this world names a restored object; every
 * stored id of the slot (joints' bodies, events, sensor overlaps) moves by
 * the same amount, so the image's own links hold. Moving to the mark rather
 * than by it keeps generations from doubling over many restores. */
#define TB_OVERLAP_GENERATION_MASK 0x1fffffffu

static uint32_t slot_shift(const tb_id_pool *pool, uint32_t record_generation, int32_t slot)
{
	uint32_t issued = 0 <= slot && slot < pool->issued.capacity ? pool->issued.data[slot] : 0u;
	return issued > record_generation ? issued - record_generation : 0u;
}

static uint32_t body_shift(const tb_world *w, int32_t slot)
{
	if (slot < 0 || slot >= w->bodies.count) return 0u;
	return slot_shift(&w->body_pool, w->bodies.data[slot].generation, slot);
}

static uint32_t shape_shift(const tb_world *w, int32_t slot)
{
	if (slot < 0 || slot >= w->shapes.count) return 0u;
	return slot_shift(&w->shape_pool, w->shapes.data[slot].generation, slot);
}

static void rebase_shape_id(const tb_world *w, tb_shape_id *id) { id->generation += shape_shift(w, id->index1 - 1); }

static void rebase_generations(tb_world *w)
{
	/* the stored ids first: they read the records' generations as loaded */
	for (int32_t i = 0; i < w->joints.count; ++i) {
		tb_joint *j = w->joints.data + i;
		if (!j->in_use) continue;
		j->def.body_a.generation += body_shift(w, j->def.body_a.index1 - 1);
		j->def.body_b.generation += body_shift(w, j->def.body_b.index1 - 1);
	}
	for (int32_t k = 0; k < w->begin_events.count; ++k) {
		rebase_shape_id(w, &w->begin_events.data[k].shape_a);
		rebase_shape_id(w, &w->begin_events.data[k].shape_b);
	}
	for (int32_t k = 0; k < w->hit_events.count; ++k) {
		rebase_shape_id(w, &w->hit_events.data[k].shape_a);
		rebase_shape_id(w, &w->hit_events.data[k].shape_b);
	}
	tb_contact_end_event_array *ends[2] = {&w->end_events, &w->pending_end_events};
	for (int e = 0; e < 2; ++e) {
		for (int32_t k = 0; k < ends[e]->count; ++k) {
			rebase_shape_id(w, &ends[e]->data[k].shape_a);
			rebase_shape_id(w, &ends[e]->data[k].shape_b);
		}
	}
	tb_sensor_event_array *sensor_events[3] = {&w->sensor_begin_events, &w->sensor_end_events,
	                                           &w->pending_sensor_end_events};
	for (int e = 0; e < 3; ++e) {
		for (int32_t k = 0; k < sensor_events[e]->count; ++k) {
			rebase_shape_id(w, &sensor_events[e]->data[k].sensor);
			rebase_shape_id(w, &sensor_events[e]->data[k].visitor);
		}
	}
	/* a mover's ground is a shape slot and generation, as an overlap's */
	for (int32_t i = 0; i < w->movers.count; ++i) {
		tb_mover *m = w->movers.data + i;
		if (m->in_use && m->ground_shape != TB_NULL_INDEX) m->ground_generation += shape_shift(w, m->ground_shape);
	}
	for (int32_t k = 0; k < w->overlaps.count; ++k) {
		tb_sensor_overlap *o = w->overlaps.data + k;
		uint32_t g = (o->generation + shape_shift(w, o->shape)) & TB_OVERLAP_GENERATION_MASK;
		o->generation = (o->generation & ~TB_OVERLAP_GENERATION_MASK) | g;
	}
	/* then the records, and the marks of the slots: one past a live object's
	 * generation; a free slot's record already holds one past its last
	 * object's (which keeps a slot used up in the image used up here) */
	for (int32_t i = 0; i < w->bodies.count; ++i) {
		tb_body *b = w->bodies.data + i;
		b->generation += slot_shift(&w->body_pool, b->generation, i);
		w->body_pool.issued.data[i] = b->generation + (b->in_use ? 1u : 0u);
	}
	for (int32_t i = 0; i < w->shapes.count; ++i) {
		tb_shape *s = w->shapes.data + i;
		s->generation += slot_shift(&w->shape_pool, s->generation, i);
		w->shape_pool.issued.data[i] = s->generation + (s->in_use ? 1u : 0u);
	}
	for (int32_t i = 0; i < w->joints.count; ++i) {
		tb_joint *j = w->joints.data + i;
		j->generation += slot_shift(&w->joint_pool, j->generation, i);
		w->joint_pool.issued.data[i] = j->generation + (j->in_use ? 1u : 0u);
	}
	for (int32_t i = 0; i < w->movers.count; ++i) {
		tb_mover *m = w->movers.data + i;
		m->generation += slot_shift(&w->mover_pool, m->generation, i);
		w->mover_pool.issued.data[i] = m->generation + (m->in_use ? 1u : 0u);
	}
}

/* Whether the generations rebase_generations would give stay below the cap
 * (TB_GENERATION_CAP) for every live record: not so only in a world that has
 * used up a slot the image has an object in. */
static bool rebase_fits(const tb_world *w, const tb_world *img)
{
#define FITS(array, pool)                                                                                  \
	for (int32_t i = 0; i < img->array.count; ++i) {                                                    \
		uint32_t g = img->array.data[i].generation;                                                     \
		uint32_t issued = i < w->pool.issued.capacity ? w->pool.issued.data[i] : 0u;                    \
		if (img->array.data[i].in_use && (g > issued ? g : issued) >= TB_GENERATION_CAP) return false;  \
	}
	FITS(bodies, body_pool)
	FITS(shapes, shape_pool)
	FITS(joints, joint_pool)
	FITS(movers, mover_pool)
#undef FITS
	return true;
}

/* Scratch of the last step describes the world before the restore: empty it,
 * so nothing between steps can read an index from it. The awake sets among it
 * are rebuilt after. */
static void clear_scratch(tb_world *w)
{
#define CLEAR_STEP(member, type, owner, size) w->member.count = 0;
#define CLEAR_SCRATCH(member, type, owner) w->member.count = 0;
	TB_WORLD_ARRAYS(TB_WORLD_ARRAY_SKIP, CLEAR_STEP, CLEAR_SCRATCH)
#undef CLEAR_STEP
#undef CLEAR_SCRATCH
	memset(w->graph.color_start, 0, sizeof w->graph.color_start);
	memset(w->graph.block_start, 0, sizeof w->graph.block_start);
	memset(&w->profile, 0, sizeof w->profile);
}

tb_status tb_world_restore(tb_world *w, const tb_snapshot *snap)
{
	if (w == NULL || snap == NULL) return TB_ERR_INVALID_ARGUMENT;
	if (w->locked) return TB_ERR_LOCKED;
	const tb_world *img = &snap->image;
	tb_status status = check_limits(w, img);
	if (status != TB_OK) return status;
	if (snap->lineage != w->lineage && !rebase_fits(w, img)) return TB_ERR_INVALID_ARGUMENT;
	if (!reserve_image(w, img)) return TB_ERR_OUT_OF_MEMORY;

	for (int p = 0; p < TB_PART_COUNT; ++p) {
		size_t element = tb_snapshot_parts[p].element;
		int32_t n = tb_part_count(img, p), old = *part_count_slot(w, p);
		unsigned char *dst = *part_data_slot(w, p);
		if (n > 0) memcpy(dst, tb_part_data(img, p), (size_t)n * element);
		/* fresh slots start zeroed */
		if (old > n) memset(dst + (size_t)n * element, 0, (size_t)(old - n) * element);
		*part_count_slot(w, p) = n;
	}
	copy_scalars(w, img, true);
	for (int t = 0; t < 2; ++t) tb_dynamic_tree_copy_nodes(&w->broad_phase.trees[t], &img->broad_phase.trees[t]);
	tb_pair_set_copy(&w->broad_phase.pairs, &img->broad_phase.pairs);
	tb_broad_phase_forget_old_boxes(w);
	clear_scratch(w);
	/* no body carries a field stamp between steps; the refresh mark is the image's */
	memset(w->field_stamp.data, 0, (size_t)w->field_stamp.capacity * sizeof *w->field_stamp.data);
	w->field_stamp.data[0] = snap->field_refresh;

	if (snap->lineage != w->lineage) rebase_generations(w);
	tb_rebuild_awake_sets(w);
#ifdef TB_VALIDATE
	TB_ASSERT(tb_world_validate(w));
#endif
	return TB_OK;
}
