/* tumble physics: broad phase — two AABB trees (static, movable), a move buffer
 * and a set of existing pairs. Only proxies that were created or re-inserted
 * this step look for new partners, so a resting pile costs nothing here. */
#include "world.h"

void tb_broad_phase_init(tb_broad_phase *bp)
{
	memset(bp, 0, sizeof *bp);
	bp->trees[0] = tb_dynamic_tree_create();
	bp->trees[1] = tb_dynamic_tree_create();
}

void tb_broad_phase_destroy(tb_broad_phase *bp)
{
	tb_dynamic_tree_destroy(&bp->trees[0]);
	tb_dynamic_tree_destroy(&bp->trees[1]);
	tb_free(bp->move_buffer);
	tb_free(bp->pairs.entries);
	memset(bp, 0, sizeof *bp);
}

void tb_broad_phase_buffer_move(tb_world *w, int32_t si)
{
	tb_shape *s = w->shapes + si;
	if (s->in_move_buffer) return;
	tb_broad_phase *bp = &w->broad_phase;
	TB_RESERVE(bp->move_buffer, bp->move_capacity, bp->move_count + 1);
	bp->move_buffer[bp->move_count++] = si;
	s->in_move_buffer = true;
}

void tb_broad_phase_unbuffer(tb_world *w, int32_t si)
{
	tb_shape *s = w->shapes + si;
	if (!s->in_move_buffer) return;
	tb_broad_phase *bp = &w->broad_phase;
	/* keep the order (determinism): mark the slot dead instead of swapping */
	for (int32_t i = 0; i < bp->move_count; ++i) {
		if (bp->move_buffer[i] == si) {
			bp->move_buffer[i] = TB_NULL_INDEX;
			break;
		}
	}
	s->in_move_buffer = false;
}

/* ---- pair set ---- */

static inline uint64_t pair_key(int32_t a, int32_t b)
{
	uint32_t lo = (uint32_t)(a < b ? a : b) + 1u, hi = (uint32_t)(a < b ? b : a) + 1u;
	return ((uint64_t)hi << 32) | lo;
}

static inline uint32_t hash_key(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return (uint32_t)k;
}

static void pair_set_grow(tb_pair_set *set)
{
	int32_t old_cap = set->capacity;
	tb_pair_entry *old = set->entries;
	set->capacity = old_cap ? old_cap * 2 : 256;
	set->entries = tb_alloc_zeroed((size_t)set->capacity * sizeof *set->entries);
	set->count = 0;
	for (int32_t i = 0; i < old_cap; ++i) {
		if (old[i].key == 0) continue;
		uint32_t mask = (uint32_t)set->capacity - 1;
		uint32_t h = hash_key(old[i].key) & mask;
		while (set->entries[h].key != 0) h = (h + 1) & mask;
		set->entries[h] = old[i];
		set->count += 1;
	}
	tb_free(old);
}

int32_t tb_pair_set_find(const tb_pair_set *set, int32_t a, int32_t b)
{
	if (set->capacity == 0) return TB_NULL_INDEX;
	uint64_t k = pair_key(a, b);
	uint32_t mask = (uint32_t)set->capacity - 1;
	for (uint32_t h = hash_key(k) & mask;; h = (h + 1) & mask) {
		if (set->entries[h].key == k) return set->entries[h].contact;
		if (set->entries[h].key == 0) return TB_NULL_INDEX;
	}
}

void tb_pair_set_add(tb_pair_set *set, int32_t a, int32_t b, int32_t contact)
{
	if (2 * (set->count + 1) > set->capacity) pair_set_grow(set);
	uint64_t k = pair_key(a, b);
	uint32_t mask = (uint32_t)set->capacity - 1;
	uint32_t h = hash_key(k) & mask;
	while (set->entries[h].key != 0 && set->entries[h].key != k) h = (h + 1) & mask;
	if (set->entries[h].key == 0) set->count += 1;
	set->entries[h].key = k;
	set->entries[h].contact = contact;
}

void tb_pair_set_remove(tb_pair_set *set, int32_t a, int32_t b)
{
	if (set->capacity == 0) return;
	uint64_t k = pair_key(a, b);
	uint32_t mask = (uint32_t)set->capacity - 1;
	uint32_t h = hash_key(k) & mask;
	while (set->entries[h].key != k) {
		if (set->entries[h].key == 0) return;
		h = (h + 1) & mask;
	}
	/* backward-shift deletion keeps every probe chain unbroken */
	uint32_t hole = h;
	for (uint32_t j = (h + 1) & mask; set->entries[j].key != 0; j = (j + 1) & mask) {
		uint32_t home = hash_key(set->entries[j].key) & mask;
		bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
		if (movable) {
			set->entries[hole] = set->entries[j];
			hole = j;
		}
	}
	set->entries[hole].key = 0;
	set->entries[hole].contact = 0;
	set->count -= 1;
}

/* ---- pair finding ---- */

typedef struct pair_query {
	tb_world *w;
	int32_t shape;
	int32_t body;
	bool self_static;
} pair_query;

static bool pair_callback(int32_t proxy_id, int32_t other, void *context)
{
	(void)proxy_id;
	pair_query *q = context;
	tb_world *w = q->w;
	if (other == q->shape) return true;
	const tb_shape *a = w->shapes + q->shape, *b = w->shapes + other;
	/* both moved: the pair is found from both sides; keep the one from the larger index */
	if (b->in_move_buffer && other > q->shape && !q->self_static) return true;
	if (b->body == q->body) return true;
	if (a->is_sensor || b->is_sensor) return true;
	if (!tb_should_shapes_collide(a->filter, b->filter)) return true;
	if (a->geom.type == TB_SHAPE_CHAIN_SEGMENT && b->geom.type == TB_SHAPE_CHAIN_SEGMENT) return true;
	if (!tb_should_bodies_collide(w, q->body, b->body)) return true;
	if (tb_pair_set_find(&w->broad_phase.pairs, q->shape, other) != TB_NULL_INDEX) return true;
	tb_create_contact(w, q->shape, other);
	return true;
}

void tb_update_pairs(tb_world *w)
{
	tb_broad_phase *bp = &w->broad_phase;
	for (int32_t i = 0; i < bp->move_count; ++i) {
		int32_t si = bp->move_buffer[i];
		if (si == TB_NULL_INDEX) continue;
		const tb_shape *s = w->shapes + si;
		if (s->proxy == TB_NULL_INDEX || s->is_sensor) continue;
		pair_query q = {w, si, s->body, s->tree == 0};
		tb_aabb fat = s->fat_aabb;
		/* static proxies only look for movable partners; movable ones look in both trees */
		tb_dynamic_tree_query(&bp->trees[1], fat, s->filter.mask_bits, pair_callback, &q);
		if (s->tree == 1) tb_dynamic_tree_query(&bp->trees[0], fat, s->filter.mask_bits, pair_callback, &q);
	}
	for (int32_t i = 0; i < bp->move_count; ++i) {
		int32_t si = bp->move_buffer[i];
		if (si != TB_NULL_INDEX) w->shapes[si].in_move_buffer = false;
	}
	bp->move_count = 0;
}
