/* tumble physics: the broad phase (engine-private): two AABB trees (static,
 * movable), the move buffer of proxies to pair up next step, and the set of
 * shape pairs that have a contact. */
#ifndef TB_BROAD_PHASE_H
#define TB_BROAD_PHASE_H

#include "core.h"
#include "tree_walk.h"

typedef struct tb_world tb_world;

/* Open-addressed set of shape pairs -> contact slot (linear probing with
 * backward-shift deletion, so no tombstones pile up). */
typedef struct tb_pair_entry { uint64_t key; int32_t contact; } tb_pair_entry;
typedef struct tb_pair_set {
	tb_pair_entry *entries;  /* key 0 = empty (shape indices are stored +1) */
	int32_t capacity, count; /* capacity: a power of two, at least twice the count */
} tb_pair_set;

TB_ARRAY_DECLARE(tb_aabb_array, tb_aabb)

/* A step finds a few new pairs per moved shape (a tumbling pile of 2,000
 * boxes: 1.3); boxes made on one spot find them all, and are left to the
 * queries. */
#define TB_JOIN_PAIRS_PER_SHAPE 4

typedef struct tb_broad_phase {
	tb_dynamic_tree trees[2];
	/* shapes whose proxy was created or re-inserted since the last pair update,
	 * in order; room for every shape slot is reserved, so buffering never allocates */
	tb_int_array move_buffer;
	/* one moved proxy's new partners, sorted by shape before their contacts
	 * are made (so the tree's shape never decides the contacts' order); room
	 * for every shape slot */
	tb_int_array new_partners;
	/* per shape slot, for a shape in the move buffer: its fat box as of the
	 * last pair update when it merely moved since (its pairs with unmoved
	 * shapes that overlap that box exist already), else an empty box */
	tb_aabb_array old_fat;
	/* scratch of a step that rebuilt the movable tree: the moved shapes' new
	 * pairs in it, found by one walk of the tree against itself, each as its
	 * finder's place in the move buffer (high half) and its partner (low).
	 * Room for TB_JOIN_PAIRS_PER_SHAPE per shape slot is reserved with the
	 * shapes; a walk that finds more gives way to a query per shape. */
	tb_u64_array joined;
	/* scratch too: the rebuilt movable tree laid out for that walk (two per
	 * shape slot reserved with the shapes) */
	tb_walk_node_array walk;
	tb_pair_set pairs;
	/* the last pair update took the movable tree's pairs from the walk */
	bool walked;
	/* tests: every pair by a query per shape, to compare the walk with */
	bool queries_only;
} tb_broad_phase;

void tb_broad_phase_init(tb_broad_phase *bp, tb_allocator *allocator);
void tb_broad_phase_destroy(tb_broad_phase *bp, tb_allocator *allocator);
/* old_fat: the shape's fat box before this move, when it only moved (its
 * pairs are as they were); NULL when its pairs may have changed (a new proxy,
 * a joint gone), so every partner is looked up again. */
void tb_broad_phase_buffer_move(tb_world *w, int32_t shape, const tb_aabb *old_fat);
void tb_broad_phase_unbuffer(tb_world *w, int32_t shape);
/* Every buffered shape looks up all its partners at the next pair update (a
 * restored world: the boxes before its last moves are not in the snapshot),
 * and a shape outside the buffer has no old box, as always between updates. */
void tb_broad_phase_forget_old_boxes(tb_world *w);
/* A new shape's slot: no old box. */
void tb_broad_phase_forget_old_box(tb_world *w, int32_t shape);
/* New contacts for the pairs of moved proxies. A shape whose new contact could
 * not be made stays in the move buffer and is paired again next step. */
void tb_update_pairs(tb_world *w);
int32_t tb_pair_set_find(const tb_pair_set *set, int32_t shape_a, int32_t shape_b);
/* Room for `count` pairs, so adding up to that many never allocates. */
bool tb_pair_set_reserve(tb_allocator *allocator, tb_pair_set *set, int32_t count);
void tb_pair_set_add(tb_pair_set *set, int32_t shape_a, int32_t shape_b, int32_t contact);
void tb_pair_set_remove(tb_pair_set *set, int32_t shape_a, int32_t shape_b);
/* Makes dst hold the pairs of src; dst has room for them (tb_pair_set_reserve).
 * Only find, add and remove ever read the set, so a copy into a table of
 * another size behaves the same. */
void tb_pair_set_copy(tb_pair_set *dst, const tb_pair_set *src);

/* ---- trees in snapshots (dynamic_tree.c) ---- */
/* Room for a node pool of `capacity` nodes; false (tree unchanged) when memory runs out. */
bool tb_dynamic_tree_reserve_nodes(tb_dynamic_tree *tree, int32_t capacity);
/* Makes tree's nodes, root, counts and free list those of image, whose pool is
 * no larger than tree's (reserved first). */
void tb_dynamic_tree_copy_nodes(tb_dynamic_tree *tree, const tb_dynamic_tree *image);

#endif
