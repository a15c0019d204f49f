/* tumble physics: the dynamic tree's box query, inline (engine-private).
 *
 * dynamic_tree.c's tb_dynamic_tree_query is this walk; the broad phase, which
 * runs a query for every moved shape each step, calls it with its own callback
 * so that the callback is compiled into the walk. */
#ifndef TB_TREE_WALK_H
#define TB_TREE_WALK_H

#include "tumble/collision.h"
#include "core.h"

#if defined(__SSE2__) && !defined(TB_NO_SIMD)
#include <emmintrin.h>
#endif

/* tb_aabb_overlaps in one branch instead of four: a walk's tests go either
 * way at random, and each mispredicted branch costs more than the test. The
 * same predicate, NaN included (a comparison with NaN is false). */
static inline bool tb_boxes_overlap(const tb_aabb *a, const tb_aabb *b)
{
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
	_Static_assert(sizeof(tb_aabb) == 4 * sizeof(float), "a box is four floats: lower, upper");
	__m128 x = _mm_loadu_ps((const float *)a), y = _mm_loadu_ps((const float *)b);
	/* b's upper corner then its lower one */
	__m128 ys = _mm_shuffle_ps(y, y, _MM_SHUFFLE(1, 0, 3, 2));
	/* a.lower > b.upper in the first two lanes, a.upper < b.lower in the last two */
	int apart = (_mm_movemask_ps(_mm_cmpgt_ps(x, ys)) & 3) | (_mm_movemask_ps(_mm_cmplt_ps(x, ys)) & 12);
	return apart == 0;
#else
	return tb_aabb_overlaps(*a, *b);
#endif
}

/* A rebuilt tree laid out for one walk (the broad phase's pair walk): its
 * nodes in the order a depth-first walk meets them, a node's first child
 * right after it, in 32 bytes instead of the pool's 48. Leaves keep their
 * owner's id; nothing else refers to this copy. */
typedef struct tb_walk_node {
	tb_aabb box;
	int32_t child2;  /* the second child's place; -1 for a leaf */
	int32_t user_data; /* a leaf's; an inner node's: the place after its subtree */
	int32_t height;
	int32_t moved;   /* the leaf, or a leaf below the node */
} tb_walk_node;

TB_ARRAY_DECLARE(tb_walk_node_array, tb_walk_node)

/* tb_dynamic_tree_rebuild, and when walk is not NULL (room for 2 * proxies - 1
 * nodes) the rebuilt tree's walk layout in it, root first; *walk_count: its
 * nodes (0 for an empty tree). */
bool tb_dynamic_tree_rebuild_for_walk(tb_dynamic_tree *tree, tb_walk_node *walk, int32_t *walk_count);

/* Traversals use this much C stack first: a balanced tree of any size that
 * fits in memory is far shallower. Deeper (corrupt) trees continue on the
 * tree's own scratch stack, which is as large as the node pool. */
#define TB_TREE_LOCAL_STACK 256

/* A traversal stack: C-stack array first, the tree's scratch if that fills. */
typedef struct walk_stack {
	int32_t *items;
	int count, capacity;
	int32_t *spill;
	int spill_capacity;
} walk_stack;

static inline void walk_push(walk_stack *s, int32_t v)
{
	if (s->count == s->capacity) {
		/* Only a degenerate tree gets here. The tree's stack is as large as the
		 * node pool, and a walk never holds more entries than there are nodes. */
		if (s->items == s->spill || s->spill_capacity <= s->count) {
			TB_ASSERT(false);
			return;
		}
		memcpy(s->spill, s->items, (size_t)s->count * sizeof(int32_t));
		s->items = s->spill;
		s->capacity = s->spill_capacity;
	}
	s->items[s->count++] = v;
}

/* Calls fn for every leaf whose box overlaps aabb and whose category bits meet
 * mask_bits, until fn returns false. */
static inline __attribute__((always_inline)) void tb_tree_walk_query(const tb_dynamic_tree *tree, tb_aabb aabb,
                                                                     uint64_t mask_bits, tb_tree_query_fn *fn,
                                                                     void *context)
{
	if (tree->root == TB_NULL_NODE) return;
	int32_t local[TB_TREE_LOCAL_STACK];
	walk_stack s = {local, 0, TB_TREE_LOCAL_STACK, tree->stack, tree->stack_capacity};
	walk_push(&s, tree->root);
	while (s.count > 0) {
		int32_t id = s.items[--s.count];
		const tb_tree_node *n = tree->nodes + id;
		if ((n->category_bits & mask_bits) == 0 || !tb_boxes_overlap(&n->aabb, &aabb)) continue;
		if (n->child1 == TB_NULL_NODE) {
			if (!fn(id, n->user_data, context)) return;
		} else {
			walk_push(&s, n->child1);
			walk_push(&s, n->child2);
		}
	}
}

#endif
