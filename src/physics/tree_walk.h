/* tumble physics: the dynamic tree's box query, inline (engine-private).
 *
 * dynamic_tree.c's tb_dynamic_tree_query is this walk; the broad phase, which
 * runs a query for every moved shape each step, calls it with its own callback
 * so that the callback is compiled into the walk. */
#ifndef TB_TREE_WALK_H
#define TB_TREE_WALK_H

#include "tumble/collision.h"
#include "core.h"

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
		if ((n->category_bits & mask_bits) == 0 || !tb_aabb_overlaps(n->aabb, aabb)) continue;
		if (n->child1 == TB_NULL_NODE) {
			if (!fn(id, n->user_data, context)) return;
		} else {
			walk_push(&s, n->child1);
			walk_push(&s, n->child2);
		}
	}
}

#endif
