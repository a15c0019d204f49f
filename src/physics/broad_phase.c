/* tumble physics: broad phase — two AABB trees (static, movable), a move buffer
 * and a set of existing pairs. Only proxies that were created or re-inserted
 * this step look for new partners, so a resting pile costs nothing here. */
#include "world.h"
#include "tree_walk.h"
#include <float.h>

void tb_broad_phase_init(tb_broad_phase *bp, tb_allocator *allocator)
{
	memset(bp, 0, sizeof *bp);
	bp->trees[0] = tb_dynamic_tree_create_with_allocator(tb_allocator_alloc_fn, allocator);
	bp->trees[1] = tb_dynamic_tree_create_with_allocator(tb_allocator_alloc_fn, allocator);
}

void tb_broad_phase_destroy(tb_broad_phase *bp, tb_allocator *allocator)
{
	tb_dynamic_tree_destroy(&bp->trees[0]);
	tb_dynamic_tree_destroy(&bp->trees[1]);
	tb_int_array_destroy(allocator, &bp->move_buffer);
	tb_int_array_destroy(allocator, &bp->new_partners);
	tb_aabb_array_destroy(allocator, &bp->old_fat);
	tb_u64_array_destroy(allocator, &bp->joined);
	tb_walk_node_array_destroy(allocator, &bp->walk);
	tb_free(allocator, bp->pairs.entries, (size_t)bp->pairs.capacity * sizeof *bp->pairs.entries);
	memset(bp, 0, sizeof *bp);
}

/* An empty box, which overlaps no box: its lower corner above and its upper
 * below every coordinate a box can have. A small box turned inside out, such
 * as (1, 1) to (-1, -1), would not do: tb_aabb_overlaps finds it overlapping
 * any box that holds [-1, 1]^2, so a shape made inside a big shape's box would
 * take their pair as known and fall through it. */
static const tb_aabb no_box = {{FLT_MAX, FLT_MAX}, {-FLT_MAX, -FLT_MAX}};

void tb_broad_phase_buffer_move(tb_world *w, int32_t si, const tb_aabb *old_fat)
{
	tb_shape *s = w->shapes.data + si;
	tb_broad_phase *bp = &w->broad_phase;
	/* its leaf says it moved: a partner's query then never takes their pair as known */
	bp->trees[s->tree].nodes[s->proxy].moved = true;
	if (s->in_move_buffer) {
		/* moved again: the first box stands, unless the pairs may have changed */
		if (old_fat == NULL) bp->old_fat.data[si] = no_box;
		return;
	}
	/* a shape is in the buffer once at most, and room for every slot was
	 * reserved with the shapes */
	tb_int_array_push_reserved(&bp->move_buffer, si);
	bp->old_fat.data[si] = old_fat != NULL ? *old_fat : no_box;
	s->in_move_buffer = true;
}

void tb_broad_phase_forget_old_boxes(tb_world *w)
{
	tb_broad_phase *bp = &w->broad_phase;
	for (int32_t i = 0; i < w->shapes.count; ++i) bp->old_fat.data[i] = no_box;
}

void tb_broad_phase_forget_old_box(tb_world *w, int32_t si) { w->broad_phase.old_fat.data[si] = no_box; }

void tb_broad_phase_unbuffer(tb_world *w, int32_t si)
{
	tb_shape *s = w->shapes.data + si;
	if (!s->in_move_buffer) return;
	tb_int_array *buffer = &w->broad_phase.move_buffer;
	/* keep the order of the rest (determinism) */
	for (int32_t i = 0; i < buffer->count; ++i) {
		if (buffer->data[i] == si) {
			memmove(buffer->data + i, buffer->data + i + 1, (size_t)(buffer->count - i - 1) * sizeof *buffer->data);
			buffer->count -= 1;
			break;
		}
	}
	s->in_move_buffer = false;
	w->broad_phase.old_fat.data[si] = no_box;
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

bool tb_pair_set_reserve(tb_allocator *allocator, tb_pair_set *set, int32_t count)
{
	/* at most half full, so probe chains stay short */
	if (count > INT32_MAX / 4) return false;
	if (2 * count <= set->capacity) return true;
	int32_t cap = set->capacity ? set->capacity : 256;
	while (cap < 2 * count) cap *= 2;
	tb_pair_entry *entries = tb_alloc(allocator, (size_t)cap * sizeof *entries);
	if (entries == NULL) return false;
	memset(entries, 0, (size_t)cap * sizeof *entries);
	uint32_t mask = (uint32_t)cap - 1;
	for (int32_t i = 0; i < set->capacity; ++i) {
		const tb_pair_entry *e = set->entries + i;
		if (e->key == 0) continue;
		uint32_t h = hash_key(e->key) & mask;
		while (entries[h].key != 0) h = (h + 1) & mask;
		entries[h] = *e;
	}
	tb_free(allocator, set->entries, (size_t)set->capacity * sizeof *set->entries);
	set->entries = entries;
	set->capacity = cap;
	return true;
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
	/* reserved with the contact slots */
	TB_ASSERT(2 * (set->count + 1) <= set->capacity);
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

void tb_pair_set_copy(tb_pair_set *dst, const tb_pair_set *src)
{
	TB_ASSERT(2 * src->count <= dst->capacity);
	if (dst->capacity == src->capacity) {
		if (src->capacity > 0) memcpy(dst->entries, src->entries, (size_t)src->capacity * sizeof *src->entries);
		dst->count = src->count;
		return;
	}
	dst->count = 0;
	if (dst->capacity == 0) return;
	memset(dst->entries, 0, (size_t)dst->capacity * sizeof *dst->entries);
	uint32_t mask = (uint32_t)dst->capacity - 1;
	for (int32_t i = 0; i < src->capacity; ++i) {
		const tb_pair_entry *e = src->entries + i;
		if (e->key == 0) continue;
		uint32_t h = hash_key(e->key) & mask;
		while (dst->entries[h].key != 0) h = (h + 1) & mask;
		dst->entries[h] = *e;
		dst->count += 1;
	}
}

/* ---- pair finding ---- */

typedef struct pair_query {
	tb_world *w;
	int32_t shape;
	int32_t body;
	bool self_static;
	bool missed;    /* a new contact could not be made: look again next step */
	const tb_tree_node *nodes; /* of the tree being walked */
	tb_aabb old_fat;           /* the shape's box at the last pair update, or empty */
} pair_query;

static bool pair_callback(int32_t proxy_id, int32_t other, void *context)
{
	pair_query *q = context;
	/* A partner that did not move and overlapped the shape's box at the last
	 * pair update has its contact already (or is filtered out): a contact
	 * lives exactly while the two fat boxes overlap. Known from the leaf, with
	 * no look at the other shape or the pair set (two cache misses). */
	const tb_tree_node *leaf = q->nodes + proxy_id;
	if (!leaf->moved && tb_aabb_overlaps(q->old_fat, leaf->aabb)) return true;
	/* One that moved too, with its box at that update overlapping the
	 * shape's, the same (a shape outside the move buffer has no old box, so a
	 * leaf marked moved for another reason never passes). */
	if (leaf->moved && tb_aabb_overlaps(q->old_fat, q->w->broad_phase.old_fat.data[other])) {
#ifdef TB_VALIDATE
		const tb_world *w = q->w;
		const tb_shape *a = w->shapes.data + q->shape, *b = w->shapes.data + other;
		TB_ASSERT(b->in_move_buffer);
		TB_ASSERT(tb_pair_set_find(&w->broad_phase.pairs, q->shape, other) != TB_NULL_INDEX ||
		          !tb_should_shapes_collide(a->filter, b->filter) || b->body == q->body || a->is_sensor ||
		          b->is_sensor || !tb_should_bodies_collide(w, q->body, b->body) ||
		          (a->geom.type == TB_SHAPE_CHAIN_SEGMENT && b->geom.type == TB_SHAPE_CHAIN_SEGMENT));
#endif
		return true;
	}
	if (other == q->shape) return true;
	/* the rest is judged for all of the query's candidates at once (keep_new_partners) */
	tb_int_array_push_reserved(&q->w->broad_phase.new_partners, other);
	return true;
}

static inline void prefetch_pair_entry(const tb_pair_set *set, int32_t a, int32_t b)
{
	if (set->capacity > 0) __builtin_prefetch(set->entries + (hash_key(pair_key(a, b)) & ((uint32_t)set->capacity - 1)));
}

/* Keeps the candidates of a query that need a contact. Each look at a
 * candidate's shape, body and pair-set entry is a cache miss of its own, so
 * they are loaded for all candidates before any is read: the misses overlap
 * instead of following one another. */
static void keep_new_partners(const pair_query *q)
{
	tb_world *w = q->w;
	tb_int_array *cand = &w->broad_phase.new_partners;
	const tb_shape *a = w->shapes.data + q->shape;
	for (int32_t k = 0; k < cand->count; ++k) {
		const tb_shape *b = w->shapes.data + cand->data[k];
		__builtin_prefetch(&b->filter);
		__builtin_prefetch(&b->body);
		__builtin_prefetch(&b->in_move_buffer);
	}
	int32_t kept = 0;
	for (int32_t k = 0; k < cand->count; ++k) {
		int32_t other = cand->data[k];
		const tb_shape *b = w->shapes.data + other;
		/* both moved: the pair is found from both sides; keep the one from the larger index */
		if (b->in_move_buffer && other > q->shape && !q->self_static) continue;
		if (b->body == q->body) continue;
		if (a->is_sensor || b->is_sensor) continue;
		if (!tb_should_shapes_collide(a->filter, b->filter)) continue;
		if (a->geom.type == TB_SHAPE_CHAIN_SEGMENT && b->geom.type == TB_SHAPE_CHAIN_SEGMENT) continue;
		prefetch_pair_entry(&w->broad_phase.pairs, q->shape, other);
		__builtin_prefetch(&w->bodies.data[b->body].joint_count);
		cand->data[kept++] = other;
	}
	cand->count = kept;
	kept = 0;
	for (int32_t k = 0; k < cand->count; ++k) {
		int32_t other = cand->data[k];
		if (!tb_should_bodies_collide(w, q->body, w->shapes.data[other].body)) continue;
		if (tb_pair_set_find(&w->broad_phase.pairs, q->shape, other) != TB_NULL_INDEX) continue;
		cand->data[kept++] = other;
	}
	cand->count = kept;
}

/* Sorts v[0 .. n) with `scratch` (room for n) by merging runs bottom up:
 * the C library's qsort may allocate, and the step must not. */
static void sort_keys(uint64_t *v, int32_t n, uint64_t *scratch)
{
	uint64_t *from = v, *to = scratch;
	for (int32_t width = 1; width < n; width *= 2) {
		for (int32_t lo = 0; lo < n; lo += 2 * width) {
			int32_t mid = tb_mini(lo + width, n), hi = tb_mini(lo + 2 * width, n);
			int32_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi) to[k++] = from[j] < from[i] ? from[j++] : from[i++];
			while (i < mid) to[k++] = from[i++];
			while (j < hi) to[k++] = from[j++];
		}
		uint64_t *t = from;
		from = to;
		to = t;
	}
	if (from != v) memcpy(v, from, (size_t)n * sizeof *v);
}

static void sort_ints(int32_t *v, int32_t n)
{
	if (n > 32) {
		tb_sort(v, (size_t)n, sizeof *v, tb_compare_int32);
		return;
	}
	for (int32_t i = 1; i < n; ++i) {
		int32_t x = v[i], j = i - 1;
		for (; j >= 0 && v[j] > x; --j) v[j + 1] = v[j];
		v[j + 1] = x;
	}
}

/* Marks a move-buffer entry whose shape is looked at again next step (shape
 * slots stay far below it). */
#define TB_MOVE_AGAIN (1 << 30)

/* ---- the pairs of a rebuilt tree, in one walk ---- */

/* When most movable proxies moved, the tree was just rebuilt and nearly every
 * one of them would walk it from the root: instead the tree is walked against
 * itself once, each overlapping pair of subtrees that holds a moved leaf
 * visited once, and the leaf pairs go to the side whose query would have kept
 * them (pair_callback and the first test of keep_new_partners, the same
 * tests). They are then taken per shape in the move buffer's order, so the
 * contacts are made exactly as the queries made them. */
typedef struct tree_join {
	tb_world *w;
	const tb_walk_node *nodes; /* the rebuilt tree's walk layout */
	const int32_t *place;      /* per shape slot, its place in the move buffer (stale for others) */
	int32_t room;              /* pairs the list holds, and the walk layout's room can sort */
	bool full;                 /* found more */
} tree_join;

/* Leaf q's shape finds leaf o's as a candidate, if q's shape is one that
 * looks for pairs in the movable tree. */
static inline void join_leaf(tree_join *j, const tb_walk_node *q, const tb_walk_node *o)
{
	tb_broad_phase *bp = &j->w->broad_phase;
	int32_t si = q->user_data, other = o->user_data;
	/* a moved shape in the buffer is at its place there (a stale place names another shape) */
	int32_t at = j->place[si];
	if (!q->moved || at < 0 || at >= bp->move_buffer.count || bp->move_buffer.data[at] != si) return;
	tb_aabb old = bp->old_fat.data[si];
	if (!o->moved && tb_aabb_overlaps(old, o->box)) return;
	if (o->moved && tb_aabb_overlaps(old, bp->old_fat.data[other])) return;
	/* both moved: the pair is the larger index's */
	if (o->moved && other > si && j->w->shapes.data[other].in_move_buffer) return;
	/* room was reserved with the shapes: past it, the queries find them */
	if (bp->joined.count == j->room) j->full = true;
	else tb_u64_array_push_reserved(&bp->joined, ((uint64_t)at << 32) | (uint32_t)other);
}

/* A walk's stack of node pairs (a pair of one node: its children's pairs with
 * each other), on the C stack first and then on the tree's scratch stack. */
typedef struct pair_stack {
	int32_t *items;
	int32_t count, capacity;
	int32_t *spill;
	int32_t spill_capacity;
} pair_stack;

static inline bool pair_push(pair_stack *s, int32_t a, int32_t b)
{
	if (s->count + 2 > s->capacity) {
		if (s->items == s->spill || s->spill_capacity < s->count + 2) return false;
		memcpy(s->spill, s->items, (size_t)s->count * sizeof *s->items);
		s->items = s->spill;
		s->capacity = s->spill_capacity;
	}
	s->items[s->count++] = a;
	s->items[s->count++] = b;
	return true;
}

/* Leaves a and b's pair, or theirs to walk later: a node pair is pushed only
 * when its boxes overlap and one of them holds a moved leaf. */
static inline bool join_or_push(tree_join *j, pair_stack *s, int32_t a, int32_t b)
{
	const tb_walk_node *na = j->nodes + a, *nb = j->nodes + b;
	if (!(na->moved | nb->moved) || !tb_boxes_overlap(&na->box, &nb->box)) return true;
	if (na->child2 < 0 && nb->child2 < 0) {
		join_leaf(j, na, nb);
		join_leaf(j, nb, na);
		return !j->full;
	}
	return pair_push(s, a, b);
}

/* The subtrees this low are taken whole: their leaves (at most eight a side)
 * against each other, every pair tested into a mask, instead of a pair of
 * nodes pushed, popped and tested for each of their inner nodes. In a dense
 * pile most node pairs overlap, so the pushes and pops cost more than the
 * leaf tests they would save; height 3 measured best on the bench's tumbler. */
#define TB_JOIN_WHOLE_HEIGHT 3

/* The leaves of the subtree at `place` (of height at most TB_JOIN_WHOLE_HEIGHT). */
static inline int join_leaves(const tb_walk_node *nodes, int32_t place, int32_t out[8])
{
	if (nodes[place].child2 < 0) {
		out[0] = place;
		return 1;
	}
	int n = 0;
	/* the subtree's places, a node's leaves in the order a walk meets them
	 * (a subtree this low has at most eight) */
	for (int32_t i = place + 1; i < nodes[place].user_data && n < 8; ++i) {
		out[n] = i;
		n += nodes[i].child2 < 0;
	}
	return n;
}

/* Pairs across two low subtrees, or within one (a == b). */
static bool join_whole(tree_join *j, int32_t a, int32_t b)
{
	const tb_walk_node *nodes = j->nodes;
	int32_t la[8], lb[8];
	int na = join_leaves(nodes, a, la), nb = a == b ? na : join_leaves(nodes, b, lb);
	const int32_t *second = a == b ? la : lb;
	/* every pair's test first, into a mask; then the pairs it holds */
	uint64_t hits = 0;
	for (int x = 0; x < na; ++x) {
		const tb_walk_node *p = nodes + la[x];
		for (int y = a == b ? x + 1 : 0; y < nb; ++y) {
			const tb_walk_node *q = nodes + second[y];
			uint64_t hit = (uint64_t)(((p->moved | q->moved) != 0) & tb_boxes_overlap(&p->box, &q->box));
			hits |= hit << (8 * x + y);
		}
	}
	for (; hits != 0; hits &= hits - 1) {
		int k = __builtin_ctzll(hits);
		const tb_walk_node *p = nodes + la[k >> 3], *q = nodes + second[k & 7];
		join_leaf(j, p, q);
		join_leaf(j, q, p);
	}
	return !j->full;
}

/* Every leaf pair of the rebuilt tree (its walk layout: bp->walk) with
 * overlapping boxes and at least one moved leaf into bp->joined, sorted by
 * finder and partner. False when the walk or the list ran out of room (the
 * caller then queries proxy by proxy, with the same result). */
static bool join_tree(tb_world *w, const tb_dynamic_tree *tree)
{
	tb_broad_phase *bp = &w->broad_phase;
	bp->joined.count = 0;
	if (bp->walk.count == 0) return true;
	/* the moved shapes' places in the buffer, kept in the scratch of the
	 * partner lists (one per shape slot) until the walk is done */
	int32_t *place = bp->new_partners.data;
	for (int32_t i = 0; i < bp->move_buffer.count; ++i) {
		int32_t si = bp->move_buffer.data[i];
		const tb_shape *s = w->shapes.data + si;
		if (s->proxy != TB_NULL_INDEX && s->tree == 1 && !s->is_sensor) place[si] = i;
	}
	const tb_walk_node *nodes = bp->walk.data;
	int64_t sortable = (int64_t)bp->walk.capacity * (int64_t)(sizeof(tb_walk_node) / sizeof(uint64_t));
	tree_join j = {w, nodes, place, (int32_t)(sortable < bp->joined.capacity ? sortable : bp->joined.capacity), false};
	int32_t local[2 * TB_TREE_LOCAL_STACK];
	pair_stack s = {local, 0, 2 * TB_TREE_LOCAL_STACK, tree->stack, tree->stack_capacity};
	/* a pair of one node stands for the pairs below it; one of two nodes for
	 * the pairs across them (their boxes overlap); a node's first child is
	 * the next node */
	bool ok = !nodes[0].moved || pair_push(&s, 0, 0);
	while (s.count > 0 && ok) {
		int32_t b = s.items[--s.count], a = s.items[--s.count];
		const tb_walk_node *na = nodes + a, *nb = nodes + b;
		if (na->height <= TB_JOIN_WHOLE_HEIGHT && nb->height <= TB_JOIN_WHOLE_HEIGHT) {
			ok = join_whole(&j, a, b);
		} else if (a == b) {
			if (na->child2 < 0) continue;
			int32_t c1 = a + 1, c2 = na->child2;
			ok = join_or_push(&j, &s, c1, c2) && (!nodes[c2].moved || pair_push(&s, c2, c2)) &&
			     (!nodes[c1].moved || pair_push(&s, c1, c1));
		} else if (nb->height > na->height) {
			ok = join_or_push(&j, &s, a, nb->child2) && join_or_push(&j, &s, a, b + 1);
		} else {
			ok = join_or_push(&j, &s, na->child2, b) && join_or_push(&j, &s, a + 1, b);
		}
	}
	if (!ok) return false;
	/* the walk layout is done with: its room (two nodes of 32 bytes per shape
	 * slot) holds the list (four keys of 8 bytes per slot; j.room) */
	_Static_assert(2 * sizeof(tb_walk_node) >= TB_JOIN_PAIRS_PER_SHAPE * sizeof(uint64_t), "room to sort");
	sort_keys(bp->joined.data, bp->joined.count, (uint64_t *)bp->walk.data);
	return true;
}

void tb_update_pairs(tb_world *w)
{
	tb_broad_phase *bp = &w->broad_phase;
	tb_int_array *buffer = &bp->move_buffer;
	/* Reinsertion one by one degrades the tree of movable proxies when most of
	 * them move (a tumbling pile: queries visited five times the nodes); then
	 * it is rebuilt whole before the moved proxies look for partners, once a
	 * quarter of them moved. */
	bool joined = false;
	if (4 * (int64_t)buffer->count >= bp->trees[1].proxy_count) {
		/* the walk layout has room for every node (two per shape slot) */
		bool room = bp->walk.capacity >= 2 * (int64_t)bp->trees[1].proxy_count;
		TB_ASSERT(room);
		bool rebuilt = tb_dynamic_tree_rebuild_for_walk(&bp->trees[1], room ? bp->walk.data : NULL, &bp->walk.count);
		joined = rebuilt && room && !bp->queries_only && join_tree(w, &bp->trees[1]);
	} else {
		/* the moved proxies were placed where they stood (body.c): now each
		 * goes where its box fits, in the order they moved */
		for (int32_t i = 0; i < buffer->count; ++i) {
			const tb_shape *s = w->shapes.data + buffer->data[i];
			if (s->proxy != TB_NULL_INDEX && s->tree == 1) tb_dynamic_tree_reinsert_proxy(&bp->trees[1], s->proxy);
		}
	}
	bp->walked = joined;
	int32_t next_joined = 0;
	for (int32_t i = 0; i < buffer->count; ++i) {
		int32_t si = buffer->data[i];
		const tb_shape *s = w->shapes.data + si;
		if (s->proxy == TB_NULL_INDEX || s->is_sensor) continue;
		pair_query q = {w, si, s->body, s->tree == 0, false, bp->trees[1].nodes, bp->old_fat.data[si]};
		tb_aabb fat = s->fat_aabb;
		/* static proxies only look for movable partners; movable ones look in both trees */
		bp->new_partners.count = 0;
		if (joined && s->tree == 1) {
			/* its candidates in the movable tree were found by the join */
			for (; next_joined < bp->joined.count && (int32_t)(bp->joined.data[next_joined] >> 32) == i; ++next_joined)
				tb_int_array_push_reserved(&bp->new_partners, (int32_t)(uint32_t)bp->joined.data[next_joined]);
		} else {
			tb_tree_walk_query(&bp->trees[1], fat, tb_filter_partner_bits(s->filter), pair_callback, &q);
		}
		q.nodes = bp->trees[0].nodes;
		if (s->tree == 1) tb_tree_walk_query(&bp->trees[0], fat, tb_filter_partner_bits(s->filter), pair_callback, &q);
		keep_new_partners(&q);
		/* in shape order, whatever order the trees gave them in */
		sort_ints(bp->new_partners.data, bp->new_partners.count);
		for (int32_t k = 0; k < bp->new_partners.count; ++k) {
			if (!tb_create_contact(w, si, bp->new_partners.data[k])) q.missed = true;
		}
		if (q.missed) buffer->data[i] = si | TB_MOVE_AGAIN;
	}
	/* the buffer keeps, in order, the shapes that missed a contact (the world's
	 * contact limit, or memory) */
	int32_t kept = 0;
	for (int32_t i = 0; i < buffer->count; ++i) {
		int32_t entry = buffer->data[i];
		if (entry & TB_MOVE_AGAIN) {
			/* a pair is missing: next time every partner is looked up */
			int32_t si = entry & ~TB_MOVE_AGAIN;
			buffer->data[kept++] = si;
			bp->old_fat.data[si] = no_box;
		} else {
			tb_shape *s = w->shapes.data + entry;
			s->in_move_buffer = false;
			bp->old_fat.data[entry] = no_box;
			if (s->proxy != TB_NULL_INDEX) bp->trees[s->tree].nodes[s->proxy].moved = false;
		}
	}
	buffer->count = kept;
}
