/* tumble physics: dynamic AABB tree.
 *
 * Leaves hold fat boxes; internal nodes hold the union of their children and
 * the union of their category bits (so a masked query skips whole subtrees).
 * Insertion descends by the surface-area heuristic (perimeter in 2D); every
 * ancestor is then refitted and rebalanced by a rotation when one child is
 * more than one level taller, which keeps the height logarithmic. Nodes live
 * in one pool that doubles when full; freed nodes go on a free list, and fresh
 * ones join it at its end, so nodes are handed out in the same order however
 * early the pool grew. Memory comes from the tree's allocator; only creating a
 * proxy can need more (a leaf and a parent), and tb_dynamic_tree_reserve gets it
 * ahead, so moving and destroying proxies never allocate. */
#include "tumble/collision.h"
#include "core.h"
#include "tree_walk.h"

#include <float.h>

#define TB_TREE_INITIAL_CAPACITY 16

tb_dynamic_tree tb_dynamic_tree_create_with_allocator(tb_alloc_fn *alloc, void *alloc_ud)
{
	tb_dynamic_tree t;
	memset(&t, 0, sizeof t);
	t.root = TB_NULL_NODE;
	t.free_list = TB_NULL_NODE;
	t.alloc = alloc != NULL ? alloc : tb_default_alloc;
	t.alloc_ud = alloc != NULL ? alloc_ud : NULL;
	return t;
}

tb_dynamic_tree tb_dynamic_tree_create(void) { return tb_dynamic_tree_create_with_allocator(NULL, NULL); }

void tb_dynamic_tree_destroy(tb_dynamic_tree *tree)
{
	if (tree->nodes != NULL) tree->alloc(tree->alloc_ud, tree->nodes, (size_t)tree->node_capacity * sizeof(tb_tree_node), 0);
	if (tree->stack != NULL) tree->alloc(tree->alloc_ud, tree->stack, (size_t)tree->stack_capacity * sizeof(int32_t), 0);
	tree->nodes = NULL;
	tree->stack = NULL;
	tree->node_capacity = tree->stack_capacity = 0;
	tree->node_count = tree->proxy_count = 0;
	tree->root = TB_NULL_NODE;
	tree->free_list = TB_NULL_NODE;
}

/* Doubles the node pool (from TB_TREE_INITIAL_CAPACITY) until `free_needed`
 * nodes are free; the scratch stack follows, since a walk never holds more
 * entries than there are nodes. All or nothing. */
/* A rebuild's leaves are records of a centre and an id (build_leaf), three
 * ints, and a split's spill as many, for half as many leaves as nodes; the
 * walks need one int a node, the broad phase's pair walk (node pairs) two.
 * Three ints a node. */
#define TB_TREE_STACK_PER_NODE 3

static bool grow_nodes(tb_dynamic_tree *t, int32_t free_needed)
{
	int32_t old = t->node_capacity;
	int32_t cap = old > 0 ? old : TB_TREE_INITIAL_CAPACITY;
	while (cap - t->node_count < free_needed) {
		if (cap > INT32_MAX / 2) return false;
		cap *= 2;
	}
	if (cap == old) return true;
	if ((size_t)cap > SIZE_MAX / sizeof(tb_tree_node)) return false;
	/* the stack first: if the nodes then fail, a larger stack is harmless */
	if (t->stack_capacity < TB_TREE_STACK_PER_NODE * cap) {
		if (cap > INT32_MAX / TB_TREE_STACK_PER_NODE) return false;
		int32_t *stack = t->alloc(t->alloc_ud, t->stack, (size_t)t->stack_capacity * sizeof(int32_t),
		                          (size_t)TB_TREE_STACK_PER_NODE * (size_t)cap * sizeof(int32_t));
		if (stack == NULL) return false;
		t->stack = stack;
		t->stack_capacity = TB_TREE_STACK_PER_NODE * cap;
	}
	tb_tree_node *nodes = t->alloc(t->alloc_ud, t->nodes, (size_t)old * sizeof(tb_tree_node),
	                               (size_t)cap * sizeof(tb_tree_node));
	if (nodes == NULL) return false;
	t->nodes = nodes;
	memset(t->nodes + old, 0, (size_t)(cap - old) * sizeof(tb_tree_node));
	for (int32_t i = old; i < cap; ++i) {
		t->nodes[i].parent = i + 1 < cap ? i + 1 : TB_NULL_NODE;
		t->nodes[i].height = -1;
	}
	/* fresh nodes go after the nodes already free */
	if (t->free_list == TB_NULL_NODE) {
		t->free_list = old;
	} else {
		int32_t last = t->free_list;
		while (t->nodes[last].parent != TB_NULL_NODE) last = t->nodes[last].parent;
		t->nodes[last].parent = old;
	}
	t->node_capacity = cap;
	return true;
}

bool tb_dynamic_tree_reserve(tb_dynamic_tree *tree, int32_t proxies)
{
	if (proxies <= 0) return true;
	if (proxies > INT32_MAX / 4) return false;
	/* each proxy is a leaf plus, once the tree has a root, a new parent */
	return grow_nodes(tree, 2 * proxies);
}

static int32_t allocate_node(tb_dynamic_tree *t)
{
	if (t->free_list == TB_NULL_NODE && !grow_nodes(t, 1)) return TB_NULL_NODE;
	int32_t id = t->free_list;
	tb_tree_node *n = t->nodes + id;
	t->free_list = n->parent;
	memset(n, 0, sizeof *n);
	n->parent = TB_NULL_NODE;
	n->child1 = TB_NULL_NODE;
	n->child2 = TB_NULL_NODE;
	n->user_data = -1;
	n->height = 0;
	t->node_count += 1;
	return id;
}

static void free_node(tb_dynamic_tree *t, int32_t id)
{
	tb_tree_node *n = t->nodes + id;
	n->parent = t->free_list;
	n->child1 = TB_NULL_NODE;
	n->child2 = TB_NULL_NODE;
	n->height = -1;
	t->free_list = id;
	t->node_count -= 1;
}

static inline bool is_leaf(const tb_tree_node *n) { return n->child1 == TB_NULL_NODE; }

/* Recomputes an internal node from its children. */
static void refit(tb_dynamic_tree *t, int32_t id)
{
	tb_tree_node *n = t->nodes + id;
	const tb_tree_node *c1 = t->nodes + n->child1;
	const tb_tree_node *c2 = t->nodes + n->child2;
	n->aabb = tb_aabb_union(c1->aabb, c2->aabb);
	n->category_bits = c1->category_bits | c2->category_bits;
	n->height = (int16_t)(1 + (c1->height > c2->height ? c1->height : c2->height));
}

/* Lifts the taller grandchild over node a when a's children differ in height
 * by more than one. Returns the node now at a's place. */
static int32_t balance(tb_dynamic_tree *t, int32_t ia)
{
	tb_tree_node *a = t->nodes + ia;
	if (is_leaf(a) || a->height < 2) return ia;

	int32_t ib = a->child1, ic = a->child2;
	int balance_value = t->nodes[ic].height - t->nodes[ib].height;
	if (balance_value >= -1 && balance_value <= 1) return ia;

	/* rotate the taller child (up) into a's place */
	int32_t iup = balance_value > 1 ? ic : ib;
	int32_t iother = balance_value > 1 ? ib : ic;
	tb_tree_node *up = t->nodes + iup;
	int32_t if_ = up->child1, ig = up->child2;
	tb_tree_node *f = t->nodes + if_;
	tb_tree_node *g = t->nodes + ig;

	up->parent = a->parent;
	a->parent = iup;
	if (up->parent != TB_NULL_NODE) {
		tb_tree_node *p = t->nodes + up->parent;
		if (p->child1 == ia) p->child1 = iup;
		else p->child2 = iup;
	} else {
		t->root = iup;
	}

	/* up keeps its taller child; its shorter child moves under a */
	int32_t keep = f->height > g->height ? if_ : ig;
	int32_t move = f->height > g->height ? ig : if_;
	up->child1 = ia;
	up->child2 = keep;
	a->child1 = iother;
	a->child2 = move;
	t->nodes[move].parent = ia;
	t->nodes[iother].parent = ia;
	refit(t, ia);
	refit(t, iup);
	return iup;
}

static inline bool same_box(tb_aabb a, tb_aabb b)
{
	return a.lower.x == b.lower.x && a.lower.y == b.lower.y && a.upper.x == b.upper.x && a.upper.y == b.upper.y;
}

/* Refits and rebalances the ancestors from `index` up. It stops at the first
 * node that comes out exactly as it was (same box, categories and height, no
 * rotation): every node above is a union of unchanged children, and was
 * balanced before. A leaf moving inside its neighbourhood stops a few levels up
 * instead of at the root. */
static void fix_upwards(tb_dynamic_tree *t, int32_t index)
{
	while (index != TB_NULL_NODE) {
		tb_tree_node *n = t->nodes + index;
		tb_aabb box = n->aabb;
		uint64_t bits = n->category_bits;
		int16_t height = n->height;
		/* refit first: balance reads this node's height */
		refit(t, index);
		int32_t top = balance(t, index);
		if (top == index && same_box(box, n->aabb) && bits == n->category_bits && height == n->height) return;
		index = t->nodes[top].parent;
	}
}

static void insert_leaf(tb_dynamic_tree *t, int32_t leaf)
{
	if (t->root == TB_NULL_NODE) {
		t->root = leaf;
		t->nodes[leaf].parent = TB_NULL_NODE;
		return;
	}

	/* Descend toward the sibling that costs least: the new parent's perimeter
	 * plus what every ancestor grows by (the inherited cost). */
	tb_aabb box = t->nodes[leaf].aabb;
	int32_t index = t->root;
	while (!is_leaf(t->nodes + index)) {
		const tb_tree_node *n = t->nodes + index;
		float area = tb_aabb_perimeter(n->aabb);
		float combined = tb_aabb_perimeter(tb_aabb_union(n->aabb, box));
		/* cost of making a new parent for this node and the leaf here */
		float cost = 2.0f * combined;
		float inherited = 2.0f * (combined - area);

		float cost_child[2];
		int32_t child[2] = {n->child1, n->child2};
		for (int k = 0; k < 2; ++k) {
			const tb_tree_node *c = t->nodes + child[k];
			float grown = tb_aabb_perimeter(tb_aabb_union(box, c->aabb));
			cost_child[k] = (is_leaf(c) ? grown : grown - tb_aabb_perimeter(c->aabb)) + inherited;
		}
		if (cost < cost_child[0] && cost < cost_child[1]) break;
		index = cost_child[0] <= cost_child[1] ? child[0] : child[1];
	}

	int32_t sibling = index;
	int32_t old_parent = t->nodes[sibling].parent;
	int32_t new_parent = allocate_node(t);
	tb_tree_node *np = t->nodes + new_parent;
	np->parent = old_parent;
	np->child1 = sibling;
	np->child2 = leaf;
	np->user_data = -1;
	t->nodes[sibling].parent = new_parent;
	t->nodes[leaf].parent = new_parent;
	if (old_parent != TB_NULL_NODE) {
		tb_tree_node *op = t->nodes + old_parent;
		if (op->child1 == sibling) op->child1 = new_parent;
		else op->child2 = new_parent;
	} else {
		t->root = new_parent;
	}
	fix_upwards(t, new_parent);
}

static void remove_leaf(tb_dynamic_tree *t, int32_t leaf)
{
	if (leaf == t->root) {
		t->root = TB_NULL_NODE;
		return;
	}
	int32_t parent = t->nodes[leaf].parent;
	int32_t grand = t->nodes[parent].parent;
	int32_t sibling = t->nodes[parent].child1 == leaf ? t->nodes[parent].child2 : t->nodes[parent].child1;

	if (grand != TB_NULL_NODE) {
		tb_tree_node *g = t->nodes + grand;
		if (g->child1 == parent) g->child1 = sibling;
		else g->child2 = sibling;
		t->nodes[sibling].parent = grand;
		free_node(t, parent);
		fix_upwards(t, grand);
	} else {
		t->root = sibling;
		t->nodes[sibling].parent = TB_NULL_NODE;
		free_node(t, parent);
	}
	t->nodes[leaf].parent = TB_NULL_NODE;
}

int32_t tb_dynamic_tree_create_proxy(tb_dynamic_tree *tree, tb_aabb aabb, uint64_t category_bits, int32_t user_data)
{
	/* the leaf and its parent, or nothing */
	if (!tb_dynamic_tree_reserve(tree, 1)) return TB_NULL_NODE;
	int32_t id = allocate_node(tree);
	tb_tree_node *n = tree->nodes + id;
	n->aabb = aabb;
	n->category_bits = category_bits;
	n->user_data = user_data;
	n->height = 0;
	/* the broad phase looks for new pairs of moved proxies and clears the flag */
	n->moved = true;
	insert_leaf(tree, id);
	tree->proxy_count += 1;
	return id;
}

void tb_dynamic_tree_destroy_proxy(tb_dynamic_tree *tree, int32_t proxy_id)
{
	TB_ASSERT(0 <= proxy_id && proxy_id < tree->node_capacity);
	TB_ASSERT(tree->nodes[proxy_id].height == 0);
	remove_leaf(tree, proxy_id);
	free_node(tree, proxy_id);
	tree->proxy_count -= 1;
}

void tb_dynamic_tree_move_proxy(tb_dynamic_tree *tree, int32_t proxy_id, tb_aabb aabb)
{
	TB_ASSERT(0 <= proxy_id && proxy_id < tree->node_capacity);
	TB_ASSERT(tree->nodes[proxy_id].height == 0);
	remove_leaf(tree, proxy_id);
	tree->nodes[proxy_id].aabb = aabb;
	tree->nodes[proxy_id].moved = true;
	insert_leaf(tree, proxy_id);
}

void tb_dynamic_tree_place_proxy(tb_dynamic_tree *tree, int32_t proxy_id, tb_aabb aabb)
{
	TB_ASSERT(0 <= proxy_id && proxy_id < tree->node_capacity);
	TB_ASSERT(tree->nodes[proxy_id].height == 0);
	tb_tree_node *n = tree->nodes + proxy_id;
	n->aabb = aabb;
	n->moved = true;
	/* the ancestors grow to hold it (they may hold its old box too) */
	for (int32_t p = n->parent; p != TB_NULL_NODE; p = tree->nodes[p].parent) {
		tb_tree_node *pn = tree->nodes + p;
		if (tb_aabb_contains(pn->aabb, aabb)) break;
		pn->aabb = tb_aabb_union(pn->aabb, aabb);
	}
}

void tb_dynamic_tree_reinsert_proxy(tb_dynamic_tree *tree, int32_t proxy_id)
{
	TB_ASSERT(0 <= proxy_id && proxy_id < tree->node_capacity);
	TB_ASSERT(tree->nodes[proxy_id].height == 0);
	remove_leaf(tree, proxy_id);
	insert_leaf(tree, proxy_id);
}

void tb_dynamic_tree_enlarge_proxy(tb_dynamic_tree *tree, int32_t proxy_id, tb_aabb aabb)
{
	TB_ASSERT(0 <= proxy_id && proxy_id < tree->node_capacity);
	TB_ASSERT(tree->nodes[proxy_id].height == 0);
	tb_tree_node *n = tree->nodes + proxy_id;
	n->aabb = tb_aabb_union(n->aabb, aabb);
	n->moved = true;
	/* ancestors only ever grow here; stop at the first that already contains it */
	int32_t p = n->parent;
	while (p != TB_NULL_NODE) {
		tb_tree_node *pn = tree->nodes + p;
		if (tb_aabb_contains(pn->aabb, n->aabb)) break;
		pn->aabb = tb_aabb_union(pn->aabb, n->aabb);
		p = pn->parent;
	}
}

void tb_dynamic_tree_query(const tb_dynamic_tree *tree, tb_aabb aabb, uint64_t mask_bits, tb_tree_query_fn *fn,
                           void *context)
{
	tb_tree_walk_query(tree, aabb, mask_bits, fn, context);
}

void tb_dynamic_tree_ray_cast(const tb_dynamic_tree *tree, const tb_ray_cast_input *input, uint64_t mask_bits,
                              tb_tree_ray_cast_fn *fn, void *context)
{
	if (tree->root == TB_NULL_NODE) return;
	tb_vec2 p1 = input->origin;
	tb_vec2 d = input->translation;
	float max_fraction = input->max_fraction;
	if (!tb_is_valid_vec2(p1) || !tb_is_valid_vec2(d) || !(max_fraction >= 0.0f)) return;

	/* the segment's normal: a box is missed when its projection on it does
	 * not reach the line (separating axis) */
	tb_vec2 v = tb_left_perp(tb_normalize(d));
	tb_vec2 abs_v = tb_abs_v(v);

	tb_vec2 p2 = tb_mul_add(p1, max_fraction, d);
	tb_aabb seg_box = {tb_min_v(p1, p2), tb_max_v(p1, p2)};

	int32_t local[TB_TREE_LOCAL_STACK];
	walk_stack s = {local, 0, TB_TREE_LOCAL_STACK, tree->stack, tree->stack_capacity};
	walk_push(&s, tree->root);
	while (s.count > 0) {
		int32_t id = s.items[--s.count];
		const tb_tree_node *n = tree->nodes + id;
		if ((n->category_bits & mask_bits) == 0 || !tb_aabb_overlaps(n->aabb, seg_box)) continue;

		tb_vec2 c = tb_aabb_center(n->aabb);
		tb_vec2 h = tb_mul_sv(0.5f, tb_sub(n->aabb.upper, n->aabb.lower));
		if (fabsf(tb_dot(v, tb_sub(p1, c))) > tb_dot(abs_v, h)) continue;

		if (is_leaf(n)) {
			tb_ray_cast_input sub = {p1, d, max_fraction};
			float value = fn(&sub, id, n->user_data, context);
			if (value == 0.0f) return;
			if (value > 0.0f && value < max_fraction) {
				/* the caller found a hit: nothing beyond it matters any more */
				max_fraction = value;
				p2 = tb_mul_add(p1, max_fraction, d);
				seg_box.lower = tb_min_v(p1, p2);
				seg_box.upper = tb_max_v(p1, p2);
			}
		} else {
			walk_push(&s, n->child1);
			walk_push(&s, n->child2);
		}
	}
}

int tb_dynamic_tree_get_height(const tb_dynamic_tree *tree)
{
	if (tree->root == TB_NULL_NODE) return 0;
	return tree->nodes[tree->root].height;
}

bool tb_dynamic_tree_validate(const tb_dynamic_tree *tree)
{
	int32_t cap = tree->node_capacity;
	if (tree->root == TB_NULL_NODE) {
		if (tree->node_count != 0 || tree->proxy_count != 0) return false;
	} else {
		if (tree->root < 0 || tree->root >= cap) return false;
		if (tree->nodes[tree->root].parent != TB_NULL_NODE) return false;

		/* Walk every reachable node once (a visit count guards against cycles).
		 * The tree's scratch stack is as large as the pool: a walk that pushes
		 * only a visited node's children never holds more. */
		int32_t *stack = tree->stack;
		if (stack == NULL || tree->stack_capacity < cap) return false;
		int top = 0, visited = 0, leaves = 0;
		bool ok = true;
		stack[top++] = tree->root;
		while (top > 0 && ok) {
			int32_t id = stack[--top];
			if (++visited > tree->node_count) {
				ok = false;
				break;
			}
			const tb_tree_node *n = tree->nodes + id;
			if (is_leaf(n)) {
				ok = n->height == 0 && n->child2 == TB_NULL_NODE;
				leaves += 1;
				continue;
			}
			int32_t c1 = n->child1, c2 = n->child2;
			if (c1 < 0 || c1 >= cap || c2 < 0 || c2 >= cap || c1 == c2) {
				ok = false;
				break;
			}
			const tb_tree_node *a = tree->nodes + c1;
			const tb_tree_node *b = tree->nodes + c2;
			int h = 1 + (a->height > b->height ? a->height : b->height);
			ok = a->parent == id && b->parent == id && n->height == h && a->height >= 0 && b->height >= 0 &&
			     tb_aabb_contains(n->aabb, a->aabb) && tb_aabb_contains(n->aabb, b->aabb) &&
			     n->category_bits == (a->category_bits | b->category_bits);
			/* Balance is not checked: a single rotation per level and the refit that
			 * stops at the first unchanged ancestor keep the height logarithmic
			 * (test_height_stays_logarithmic) but not every node within one level
			 * (the engine's fuzz met a node three levels off). */
			if (ok && top + 2 > cap) ok = false;
			if (ok) {
				stack[top++] = c1;
				stack[top++] = c2;
			}
		}
		if (!ok || visited != tree->node_count || leaves != tree->proxy_count) return false;
	}

	/* every other node is on the free list */
	int free_count = 0;
	for (int32_t i = tree->free_list; i != TB_NULL_NODE; i = tree->nodes[i].parent) {
		if (i < 0 || i >= cap || tree->nodes[i].height != -1 || ++free_count > cap) return false;
	}
	return free_count + tree->node_count == cap;
}

/* ---- snapshots (engine-private, declared in broad_phase.h) ---- */

bool tb_dynamic_tree_reserve_nodes(tb_dynamic_tree *tree, int32_t capacity)
{
	if (capacity <= tree->node_capacity) return true;
	return grow_nodes(tree, capacity - tree->node_count);
}

/* The pool may be larger than the image's: its nodes past the image's join the
 * free list at its end, in index order, just where growing the image's pool
 * would have put them, so the same nodes are handed out in the same order. */
void tb_dynamic_tree_copy_nodes(tb_dynamic_tree *tree, const tb_dynamic_tree *image)
{
	int32_t n = image->node_capacity, cap = tree->node_capacity;
	TB_ASSERT(n <= cap && tree->stack_capacity >= cap);
	if (n > 0) memcpy(tree->nodes, image->nodes, (size_t)n * sizeof *tree->nodes);
	int32_t free_list = image->free_list;
	if (n < cap) {
		memset(tree->nodes + n, 0, (size_t)(cap - n) * sizeof *tree->nodes);
		for (int32_t i = n; i < cap; ++i) {
			tree->nodes[i].parent = i + 1 < cap ? i + 1 : TB_NULL_NODE;
			tree->nodes[i].height = -1;
		}
		if (free_list == TB_NULL_NODE) {
			free_list = n;
		} else {
			int32_t last = free_list;
			while (tree->nodes[last].parent != TB_NULL_NODE) last = tree->nodes[last].parent;
			tree->nodes[last].parent = n;
		}
	}
	tree->free_list = free_list;
	tree->root = image->root;
	tree->node_count = image->node_count;
	tree->proxy_count = image->proxy_count;
}

/* ---- rebuild ---- */

/* Every level splits at the middle of its leaves' centres along their longer
 * axis: one pass a level. Splitting the top levels by the perimeter heuristic
 * would make each query of the tree faster, but the pairs of a rebuilt tree
 * are found by one walk of it against itself (broad_phase.c), which gains
 * less from a better tree than the heuristic's passes over the scattered
 * leaves cost. The middle split at least halves the centres' spread, so the
 * depth stays bounded by the float range. */

/* A leaf while the tree is rebuilt: its box's centre beside its id, so the
 * splits read one small array in order instead of a node of the pool per leaf
 * per level. */
typedef struct build_leaf {
	float center[2];
	int32_t id;
} build_leaf;

_Static_assert(sizeof(build_leaf) == TB_TREE_STACK_PER_NODE * sizeof(int32_t), "a leaf record is three ints");

static inline float leaf_key(const build_leaf *leaf, int axis) { return leaf->center[axis]; }

/* The box of the leaves' centres. */
typedef struct centre_box {
	float lo[2], hi[2];
} centre_box;

static inline void centre_box_add(centre_box *b, const build_leaf *leaf)
{
	for (int axis = 0; axis < 2; ++axis) {
		float k = leaf->center[axis];
		b->lo[axis] = k < b->lo[axis] ? k : b->lo[axis];
		b->hi[axis] = k > b->hi[axis] ? k : b->hi[axis];
	}
}

static centre_box centre_box_of(const build_leaf *leaves, int32_t count)
{
	centre_box b = {{leaves[0].center[0], leaves[0].center[1]}, {leaves[0].center[0], leaves[0].center[1]}};
	for (int32_t i = 1; i < count; ++i) centre_box_add(&b, leaves + i);
	return b;
}

/* Splits leaves[0 .. count) (count >= 2, their centres in `box`) in two,
 * keeping each side in its order, and returns the size of the first (1 ..
 * count - 1), each side's centres in `sides`: at the middle of the centres
 * along their longer axis; halves when every centre is the same. `spill` has
 * room for count records. */
static int32_t split_leaves(build_leaf *leaves, int32_t count, build_leaf *spill, centre_box box, centre_box sides[2])
{
	int axis = box.hi[0] - box.lo[0] >= box.hi[1] - box.lo[1] ? 0 : 1;
	float min_key = box.lo[axis], max_key = box.hi[axis];
	int32_t left = count / 2;
	/* not a number or every centre the same: halves */
	if (max_key > min_key) {
		float threshold = 0.5f * (min_key + max_key);
		/* Each record goes to both sides' ends and only its own side's count
		 * moves on: no branch on the side, which is a coin toss that a wrong
		 * guess makes dear. The first side stays in place (it never passes
		 * the record being read), the second comes back from the spill. */
		int32_t first_count = 0, second_count = 0;
		for (int32_t i = 0; i < count; ++i) {
			build_leaf x = leaves[i];
			float key = leaf_key(&x, axis);
			int first = key < threshold;
			leaves[first_count] = x;
			spill[second_count] = x;
			first_count += first;
			second_count += 1 - first;
		}
		memcpy(leaves + first_count, spill, (size_t)second_count * sizeof *leaves);
		/* a degenerate middle split (rounding) still halves */
		if (first_count > 0 && first_count < count) left = first_count;
	}
	sides[0] = centre_box_of(leaves, left);
	sides[1] = centre_box_of(leaves + left, count - left);
	return left;
}

/* The walk layout being written (tb_walk_node), or none. */
typedef struct walk_out {
	tb_walk_node *nodes;
	int32_t count;
} walk_out;

static void walk_node_from(tb_walk_node *wn, const tb_tree_node *n, int32_t child2)
{
	wn->box = n->aabb;
	wn->child2 = child2;
	wn->user_data = n->user_data;
	wn->height = n->height;
	wn->moved = n->moved;
}

static int32_t build_subtree(tb_dynamic_tree *t, build_leaf *leaves, int32_t count, build_leaf *spill,
                             centre_box box, walk_out *walk)
{
	int32_t place = walk->count++;
	if (count == 1) {
		if (walk->nodes != NULL) walk_node_from(walk->nodes + place, t->nodes + leaves[0].id, -1);
		return leaves[0].id;
	}
	/* a node before its children, the first child's subtree before the
	 * second's: the inner nodes lie in the order a walk meets them */
	int32_t id = allocate_node(t);
	centre_box sides[2];
	int32_t left = split_leaves(leaves, count, spill, box, sides);
	int32_t c1 = build_subtree(t, leaves, left, spill, sides[0], walk);
	int32_t second = walk->count;
	int32_t c2 = build_subtree(t, leaves + left, count - left, spill, sides[1], walk);
	t->nodes[id].child1 = c1;
	t->nodes[id].child2 = c2;
	t->nodes[c1].parent = id;
	t->nodes[c2].parent = id;
	refit(t, id);
	/* marked moved when a leaf below it is: a walk for the moved leaves' pairs skips the rest */
	t->nodes[id].moved = t->nodes[c1].moved || t->nodes[c2].moved;
	if (walk->nodes != NULL) {
		walk_node_from(walk->nodes + place, t->nodes + id, second);
		walk->nodes[place].user_data = walk->count;
	}
	return id;
}

bool tb_dynamic_tree_rebuild(tb_dynamic_tree *tree) { return tb_dynamic_tree_rebuild_for_walk(tree, NULL, NULL); }

bool tb_dynamic_tree_rebuild_for_walk(tb_dynamic_tree *tree, tb_walk_node *walk_nodes, int32_t *walk_count)
{
	walk_out walk = {walk_nodes, 0};
	if (walk_count != NULL) *walk_count = 0;
	if (tree->root == TB_NULL_NODE) return true;
	if (tree->proxy_count < 2) {
		/* the root is the one leaf */
		if (walk_nodes != NULL) walk_node_from(walk_nodes, tree->nodes + tree->root, -1);
		if (walk_count != NULL) *walk_count = 1;
		return true;
	}
	/* The leaves in id order, then the inner nodes back to the free list. The
	 * scratch stack holds the leaves' records and a split's spill, as many:
	 * the pool, a power of two, holds the 2n - 1 nodes and so 2n (a tree whose
	 * stack is only a walk's, a snapshot's image, is left as it is). */
	if ((int64_t)tree->stack_capacity < (int64_t)TB_TREE_STACK_PER_NODE * 2 * tree->proxy_count) return false;
	build_leaf *leaves = (build_leaf *)tree->stack;
	int32_t count = 0;
	for (int32_t i = 0; i < tree->node_capacity; ++i) {
		if (tree->nodes[i].height == 0) {
			tb_aabb b = tree->nodes[i].aabb;
			leaves[count].center[0] = 0.5f * (b.lower.x + b.upper.x);
			leaves[count].center[1] = 0.5f * (b.lower.y + b.upper.y);
			leaves[count].id = i;
			count += 1;
		}
	}
	TB_ASSERT(count == tree->proxy_count);
	for (int32_t i = tree->node_capacity - 1; i >= 0; --i) {
		if (tree->nodes[i].height > 0) free_node(tree, i);
	}
	tree->root = build_subtree(tree, leaves, count, leaves + count, centre_box_of(leaves, count), &walk);
	tree->nodes[tree->root].parent = TB_NULL_NODE;
	if (walk_count != NULL) *walk_count = walk.count;
	return true;
}
