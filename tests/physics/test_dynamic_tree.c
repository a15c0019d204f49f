/* Dynamic AABB tree against brute force, with validation after every change. */
#include "test_util.h"
#include "tree_walk.h"

#include <stdlib.h>
#include <string.h>

#define MAX_IDS 8192

static uint32_t rng_state;
static uint32_t rng_next(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state;
}
static float rng_float(float lo, float hi) { return lo + (hi - lo) * (float)(rng_next() >> 8) / 16777216.0f; }

static tb_aabb random_box(void)
{
	float x = rng_float(0.0f, 100.0f), y = rng_float(0.0f, 100.0f);
	float w = rng_float(0.1f, 4.0f), h = rng_float(0.1f, 4.0f);
	tb_aabb b = {{x, y}, {x + w, y + h}};
	return b;
}

/* What the tree should contain, kept by proxy id. */
typedef struct shadow {
	bool alive[MAX_IDS];
	tb_aabb box[MAX_IDS];
	uint64_t bits[MAX_IDS];
	int32_t ids[MAX_IDS];
	int count;
} shadow;

static shadow sh;

static void shadow_reset(void) { memset(&sh, 0, sizeof sh); }

static int32_t add_proxy(tb_dynamic_tree *t, tb_aabb box, uint64_t bits)
{
	int32_t id = tb_dynamic_tree_create_proxy(t, box, bits, 0);
	assert_true(id >= 0 && id < MAX_IDS);
	assert_false(sh.alive[id]);
	t->nodes[id].user_data = id * 3; /* check user data travels with the proxy */
	sh.alive[id] = true;
	sh.box[id] = box;
	sh.bits[id] = bits;
	sh.ids[sh.count++] = id;
	return id;
}

static void remove_proxy(tb_dynamic_tree *t, int k)
{
	int32_t id = sh.ids[k];
	tb_dynamic_tree_destroy_proxy(t, id);
	sh.alive[id] = false;
	sh.ids[k] = sh.ids[--sh.count];
}

static int cmp_int(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

typedef struct collect {
	int32_t ids[MAX_IDS];
	int count;
	int limit;
} collect;

static bool collect_fn(int32_t proxy_id, int32_t user_data, void *context)
{
	collect *c = context;
	assert_int_equal(user_data, proxy_id * 3);
	c->ids[c->count++] = proxy_id;
	return c->limit == 0 || c->count < c->limit;
}

static bool same_box(tb_aabb a, tb_aabb b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static void check_query(const tb_dynamic_tree *t, tb_aabb q, uint64_t mask)
{
	static collect got;
	got.count = 0;
	got.limit = 0;
	tb_dynamic_tree_query(t, q, mask, collect_fn, &got);
	qsort(got.ids, (size_t)got.count, sizeof(int32_t), cmp_int);

	static int32_t want[MAX_IDS];
	int n = 0;
	for (int32_t id = 0; id < MAX_IDS; ++id) {
		if (sh.alive[id] && (sh.bits[id] & mask) != 0 && tb_aabb_overlaps(sh.box[id], q)) want[n++] = id;
	}
	assert_int_equal(got.count, n);
	for (int i = 0; i < n; ++i) assert_int_equal(got.ids[i], want[i]);
}

static void test_empty_and_single(void **state)
{
	(void)state;
	tb_dynamic_tree t = tb_dynamic_tree_create();
	assert_true(tb_dynamic_tree_validate(&t));
	assert_int_equal(tb_dynamic_tree_get_height(&t), 0);
	collect c = {{0}, 0, 0};
	tb_aabb everything = {{-1e9f, -1e9f}, {1e9f, 1e9f}};
	tb_dynamic_tree_query(&t, everything, ~0ull, collect_fn, &c);
	assert_int_equal(c.count, 0);

	tb_aabb b = {{1, 2}, {3, 4}};
	int32_t id = tb_dynamic_tree_create_proxy(&t, b, 1, 42);
	assert_true(tb_dynamic_tree_validate(&t));
	assert_int_equal(tb_dynamic_tree_get_user_data(&t, id), 42);
	tb_aabb got = tb_dynamic_tree_get_aabb(&t, id);
	assert_vec_near(got.lower, 1.0, 2.0, 0);
	assert_vec_near(got.upper, 3.0, 4.0, 0);
	assert_int_equal(t.proxy_count, 1);
	tb_dynamic_tree_destroy_proxy(&t, id);
	assert_true(tb_dynamic_tree_validate(&t));
	assert_int_equal(t.proxy_count, 0);
	assert_int_equal(t.root, TB_NULL_NODE);
	tb_dynamic_tree_destroy(&t);
}

static void test_random_operations_match_brute_force(void **state)
{
	(void)state;
	rng_state = 12345u;
	shadow_reset();
	tb_dynamic_tree t = tb_dynamic_tree_create();
	for (int i = 0; i < 300; ++i) {
		add_proxy(&t, random_box(), 1ull << (rng_next() % 4));
		assert_true(tb_dynamic_tree_validate(&t));
	}
	for (int op = 0; op < 3000; ++op) {
		uint32_t r = rng_next() % 100;
		if (r < 20 || sh.count < 10) {
			add_proxy(&t, random_box(), 1ull << (rng_next() % 4));
		} else if (r < 40) {
			remove_proxy(&t, (int)(rng_next() % (uint32_t)sh.count));
		} else if (r < 42) {
			/* rebuilt whole: every proxy keeps its id, box and user data */
			tb_dynamic_tree_rebuild(&t);
		} else if (r < 60) {
			int32_t id = sh.ids[rng_next() % (uint32_t)sh.count];
			tb_aabb b = random_box();
			tb_dynamic_tree_move_proxy(&t, id, b);
			sh.box[id] = b;
		} else if (r < 75) {
			/* placed where it stands (the tree grows looser), now and then
			 * reinserted */
			int32_t id = sh.ids[rng_next() % (uint32_t)sh.count];
			tb_aabb b = random_box();
			tb_dynamic_tree_place_proxy(&t, id, b);
			sh.box[id] = b;
			assert_true(same_box(tb_dynamic_tree_get_aabb(&t, id), b));
			if (r < 65) tb_dynamic_tree_reinsert_proxy(&t, sh.ids[rng_next() % (uint32_t)sh.count]);
		} else if (r < 80) {
			int32_t id = sh.ids[rng_next() % (uint32_t)sh.count];
			tb_aabb b = random_box();
			tb_dynamic_tree_move_proxy(&t, id, b);
			sh.box[id] = b;
		} else {
			/* grow a box by a small step, as a slowly moving body would */
			int32_t id = sh.ids[rng_next() % (uint32_t)sh.count];
			tb_aabb b = sh.box[id];
			tb_vec2 d = {rng_float(-0.5f, 0.5f), rng_float(-0.5f, 0.5f)};
			tb_aabb moved = {tb_add(b.lower, d), tb_add(b.upper, d)};
			tb_dynamic_tree_enlarge_proxy(&t, id, moved);
			sh.box[id] = tb_aabb_union(b, moved);
			tb_aabb stored = tb_dynamic_tree_get_aabb(&t, id);
			assert_true(tb_aabb_contains(stored, moved));
		}
		assert_true(tb_dynamic_tree_validate(&t));
		assert_int_equal(t.proxy_count, sh.count);
		if (op % 10 == 0) {
			tb_aabb q = random_box();
			q.upper = tb_add(q.upper, tb_v2(rng_float(0, 20), rng_float(0, 20)));
			check_query(&t, q, ~0ull);
			check_query(&t, q, 1ull | 4ull);
			check_query(&t, q, 8ull);
		}
	}
	tb_dynamic_tree_destroy(&t);
}

/* Segment p1 + t d, t in [0, tmax], against a box: entry fraction or -1. */
static float segment_box(tb_vec2 p1, tb_vec2 d, float tmax, tb_aabb b)
{
	float lo = 0.0f, hi = tmax;
	float p[2] = {p1.x, p1.y}, dv[2] = {d.x, d.y};
	float bl[2] = {b.lower.x, b.lower.y}, bu[2] = {b.upper.x, b.upper.y};
	for (int k = 0; k < 2; ++k) {
		if (dv[k] == 0.0f) {
			if (p[k] < bl[k] || p[k] > bu[k]) return -1.0f;
			continue;
		}
		float t1 = (bl[k] - p[k]) / dv[k], t2 = (bu[k] - p[k]) / dv[k];
		if (t1 > t2) {
			float s = t1;
			t1 = t2;
			t2 = s;
		}
		lo = tb_maxf(lo, t1);
		hi = tb_minf(hi, t2);
		if (lo > hi) return -1.0f;
	}
	return lo;
}

typedef struct ray_ctx {
	int32_t ids[MAX_IDS];
	int count;
	int mode; /* 0 all, 1 closest, 2 closest among even user data */
	float best;
	int32_t best_id;
} ray_ctx;

static float ray_fn(const tb_ray_cast_input *in, int32_t proxy_id, int32_t user_data, void *context)
{
	ray_ctx *c = context;
	c->ids[c->count++] = proxy_id;
	if (c->mode == 0) return -1.0f;
	if (c->mode == 2 && (proxy_id & 1)) return -1.0f;
	float f = segment_box(in->origin, in->translation, in->max_fraction, sh.box[proxy_id]);
	if (f < 0.0f) return -1.0f;
	/* the tree only offers boxes up to the fraction given so far */
	assert_true(f <= c->best);
	c->best = f;
	c->best_id = proxy_id;
	return f;
}

static void test_ray_cast_matches_brute_force(void **state)
{
	(void)state;
	rng_state = 777u;
	shadow_reset();
	tb_dynamic_tree t = tb_dynamic_tree_create();
	for (int i = 0; i < 500; ++i) add_proxy(&t, random_box(), 1);
	assert_true(tb_dynamic_tree_validate(&t));

	static ray_ctx c;
	for (int k = 0; k < 300; ++k) {
		tb_vec2 p1 = {rng_float(-10, 110), rng_float(-10, 110)};
		tb_vec2 d = {rng_float(-60, 60), rng_float(-60, 60)};
		if (k % 50 == 0) d.y = 0.0f; /* axis aligned rays too */
		tb_ray_cast_input in = {p1, d, 1.0f};

		/* every box the segment touches is offered; none it clearly misses */
		c.count = 0;
		c.mode = 0;
		tb_dynamic_tree_ray_cast(&t, &in, ~0ull, ray_fn, &c);
		for (int i = 0; i < sh.count; ++i) {
			int32_t id = sh.ids[i];
			tb_aabb shrunk = {tb_add(sh.box[id].lower, tb_v2(1e-3f, 1e-3f)), tb_sub(sh.box[id].upper, tb_v2(1e-3f, 1e-3f))};
			tb_aabb grown = {tb_sub(sh.box[id].lower, tb_v2(1e-3f, 1e-3f)), tb_add(sh.box[id].upper, tb_v2(1e-3f, 1e-3f))};
			bool offered = false;
			for (int j = 0; j < c.count; ++j) offered = offered || c.ids[j] == id;
			if (segment_box(p1, d, 1.0f, shrunk) >= 0.0f) assert_true(offered);
			if (offered) assert_true(segment_box(p1, d, 1.0f, grown) >= 0.0f);
		}

		for (int mode = 1; mode <= 2; ++mode) {
			c.count = 0;
			c.mode = mode;
			c.best = 1.0f;
			c.best_id = -1;
			tb_dynamic_tree_ray_cast(&t, &in, ~0ull, ray_fn, &c);
			float want = 2.0f;
			for (int i = 0; i < sh.count; ++i) {
				int32_t id = sh.ids[i];
				if (mode == 2 && (id & 1)) continue;
				float f = segment_box(p1, d, 1.0f, sh.box[id]);
				if (f >= 0.0f && f < want) want = f;
			}
			if (want > 1.0f) {
				assert_int_equal(c.best_id, -1);
			} else {
				assert_true(c.best_id >= 0);
				assert_near(c.best, want, 0);
			}
		}
	}

	/* the mask prunes everything */
	c.count = 0;
	c.mode = 0;
	tb_ray_cast_input all = {{-10, 50}, {120, 0}, 1.0f};
	tb_dynamic_tree_ray_cast(&t, &all, 2ull, ray_fn, &c);
	assert_int_equal(c.count, 0);
	tb_dynamic_tree_destroy(&t);
}

static void test_height_stays_logarithmic(void **state)
{
	(void)state;
	/* a balanced tree over n leaves is at most about 1.44 log2(n) high */
	int limit = (int)ceil(1.45 * log2(1000.0)) + 1;

	rng_state = 4242u;
	shadow_reset();
	tb_dynamic_tree t = tb_dynamic_tree_create();
	for (int i = 0; i < 1000; ++i) add_proxy(&t, random_box(), 1);
	assert_true(tb_dynamic_tree_validate(&t));
	int h = tb_dynamic_tree_get_height(&t);
	assert_true(h >= 10 && h <= limit);
	tb_dynamic_tree_destroy(&t);

	/* sorted insertion along a line: the worst case for an unbalanced tree */
	shadow_reset();
	t = tb_dynamic_tree_create();
	for (int i = 0; i < 1000; ++i) {
		tb_aabb b = {{(float)i, 0.0f}, {(float)i + 0.5f, 1.0f}};
		add_proxy(&t, b, 1);
	}
	assert_true(tb_dynamic_tree_validate(&t));
	h = tb_dynamic_tree_get_height(&t);
	assert_true(h >= 10 && h <= limit);
	tb_dynamic_tree_destroy(&t);
}

static void test_pool_grows_and_reuses(void **state)
{
	(void)state;
	shadow_reset();
	tb_dynamic_tree t = tb_dynamic_tree_create();
	/* nothing is allocated before the first proxy */
	assert_int_equal(t.node_capacity, 0);
	assert_null(t.nodes);
	int initial = 0;
	for (int i = 0; i < 100; ++i) {
		if (i == 1) initial = t.node_capacity;
		tb_aabb b = {{(float)i, 0.0f}, {(float)i + 1.0f, 1.0f}};
		add_proxy(&t, b, 1);
	}
	/* 100 leaves need 199 nodes; the pool doubled its way up */
	assert_int_equal(t.node_count, 199);
	int cap = t.node_capacity;
	assert_true(cap >= 199);
	assert_int_equal(cap % initial, 0);
	assert_int_equal(cap & (cap - 1), 0);
	assert_true(t.stack_capacity >= cap);
	while (sh.count > 0) remove_proxy(&t, sh.count - 1);
	assert_true(tb_dynamic_tree_validate(&t));
	assert_int_equal(t.node_count, 0);
	for (int i = 0; i < 100; ++i) {
		tb_aabb b = {{0.0f, (float)i}, {1.0f, (float)i + 1.0f}};
		add_proxy(&t, b, 1);
	}
	assert_int_equal(t.node_capacity, cap);
	assert_true(tb_dynamic_tree_validate(&t));
	tb_dynamic_tree_destroy(&t);
}

static void test_query_stops_when_asked(void **state)
{
	(void)state;
	shadow_reset();
	tb_dynamic_tree t = tb_dynamic_tree_create();
	for (int i = 0; i < 50; ++i) {
		tb_aabb b = {{0.0f, 0.0f}, {1.0f + (float)i, 1.0f}};
		add_proxy(&t, b, 1);
	}
	static collect c;
	c.count = 0;
	c.limit = 3;
	tb_aabb q = {{0.5f, 0.5f}, {0.6f, 0.6f}};
	tb_dynamic_tree_query(&t, q, ~0ull, collect_fn, &c);
	assert_int_equal(c.count, 3);
	tb_dynamic_tree_destroy(&t);
}

static void build_sequence(tb_dynamic_tree *t, uint32_t seed)
{
	rng_state = seed;
	shadow_reset();
	for (int i = 0; i < 200; ++i) add_proxy(t, random_box(), 1);
	for (int i = 0; i < 200; ++i) {
		int32_t id = sh.ids[rng_next() % (uint32_t)sh.count];
		tb_dynamic_tree_move_proxy(t, id, random_box());
	}
	for (int i = 0; i < 50; ++i) remove_proxy(t, (int)(rng_next() % (uint32_t)sh.count));
}

/* The perimeters of the inner nodes: what a query pays, by the surface-area heuristic. */
static double inner_perimeter(const tb_dynamic_tree *t)
{
	double sum = 0.0;
	for (int32_t i = 0; i < t->node_capacity; ++i) {
		if (t->nodes[i].height > 0) sum += tb_aabb_perimeter(t->nodes[i].aabb);
	}
	return sum;
}

static void check_all_queries(const tb_dynamic_tree *t, int queries)
{
	for (int i = 0; i < queries; ++i) {
		tb_aabb q = random_box();
		check_query(t, q, ~0ull);
		check_query(t, q, 2ull);
	}
}

/* Placing proxies where they stand (the broad phase does it for moved bodies,
 * then reinserts them in a batch or rebuilds the tree): queries are right
 * meanwhile, and after reinserting every placed proxy each inner box is the
 * union of its children's again, as after moves one at a time. */
static void test_place_then_reinsert(void **state)
{
	(void)state;
	rng_state = 4242u;
	shadow_reset();
	tb_dynamic_tree t = tb_dynamic_tree_create();
	for (int i = 0; i < 500; ++i) add_proxy(&t, random_box(), 1ull << (rng_next() % 3));
	for (int round = 0; round < 3; ++round) {
		int32_t node_count = t.node_count;
		for (int k = 0; k < sh.count; k += 2) {
			int32_t id = sh.ids[k];
			tb_aabb b = sh.box[id];
			tb_vec2 d = {rng_float(-4.0f, 4.0f), rng_float(-4.0f, 4.0f)};
			b.lower = tb_add(b.lower, d);
			b.upper = tb_add(b.upper, d);
			tb_dynamic_tree_place_proxy(&t, id, b);
			sh.box[id] = b;
			assert_true(t.nodes[id].moved);
		}
		assert_int_equal(t.node_count, node_count);
		assert_true(tb_dynamic_tree_validate(&t));
		check_all_queries(&t, 100);
		for (int k = 0; k < sh.count; k += 2) tb_dynamic_tree_reinsert_proxy(&t, sh.ids[k]);
		assert_true(tb_dynamic_tree_validate(&t));
		check_all_queries(&t, 100);
		for (int32_t i = 0; i < t.node_capacity; ++i) {
			const tb_tree_node *n = t.nodes + i;
			if (n->height <= 0) continue;
			assert_true(same_box(n->aabb, tb_aabb_union(t.nodes[n->child1].aabb, t.nodes[n->child2].aabb)));
		}
		for (int k = 0; k < sh.count; ++k) assert_true(same_box(t.nodes[sh.ids[k]].aabb, sh.box[sh.ids[k]]));
	}
	tb_dynamic_tree_destroy(&t);
}

static void test_rebuild(void **state)
{
	(void)state;
	rng_state = 777u;
	shadow_reset();
	tb_dynamic_tree t = tb_dynamic_tree_create();
	/* a pile whose proxies all moved, one reinsertion at a time */
	for (int i = 0; i < 2000; ++i) add_proxy(&t, random_box(), 1ull << (rng_next() % 2));
	for (int round = 0; round < 5; ++round) {
		for (int k = 0; k < sh.count; ++k) {
			int32_t id = sh.ids[k];
			tb_aabb b = sh.box[id];
			tb_vec2 d = {rng_float(-3.0f, 3.0f), rng_float(-3.0f, 3.0f)};
			b.lower = tb_add(b.lower, d);
			b.upper = tb_add(b.upper, d);
			tb_dynamic_tree_move_proxy(&t, id, b);
			sh.box[id] = b;
		}
	}
	int32_t node_count = t.node_count, capacity = t.node_capacity;
	double before = inner_perimeter(&t);
	tb_dynamic_tree_rebuild(&t);
	double after = inner_perimeter(&t);
	assert_true(tb_dynamic_tree_validate(&t));
	/* no node made or lost, nothing allocated */
	assert_int_equal(t.node_count, node_count);
	assert_int_equal(t.node_capacity, capacity);
	assert_int_equal(t.proxy_count, sh.count);
	for (int k = 0; k < sh.count; ++k) assert_memory_equal(&t.nodes[sh.ids[k]].aabb, &sh.box[sh.ids[k]], sizeof(tb_aabb));
	check_all_queries(&t, 200);
	/* the tree a query walks is markedly smaller */
	print_message("inner perimeter %.0f -> %.0f\n", before, after);
	assert_true(after < 0.8 * before);
	assert_true(tb_dynamic_tree_get_height(&t) <= 2 * 11 + 2);
	/* and it takes moves and removals afterwards as before */
	for (int k = 0; k < 500; ++k) remove_proxy(&t, (int)(rng_next() % (uint32_t)sh.count));
	for (int k = 0; k < 200; ++k) add_proxy(&t, random_box(), 1ull);
	assert_true(tb_dynamic_tree_validate(&t));
	check_all_queries(&t, 50);

	/* two rebuilds of one tree give the same tree */
	tb_dynamic_tree_rebuild(&t);
	int32_t root = t.root;
	tb_tree_node *copy = malloc((size_t)t.node_capacity * sizeof *copy);
	memcpy(copy, t.nodes, (size_t)t.node_capacity * sizeof *copy);
	tb_dynamic_tree_rebuild(&t);
	assert_int_equal(t.root, root);
	for (int32_t i = 0; i < t.node_capacity; ++i) {
		if (copy[i].height < 0) continue;
		assert_int_equal(t.nodes[i].child1, copy[i].child1);
		assert_int_equal(t.nodes[i].child2, copy[i].child2);
		assert_int_equal(t.nodes[i].parent, copy[i].parent);
	}
	free(copy);
	tb_dynamic_tree_destroy(&t);

	/* degenerate spreads: every box the same, and centres doubling apart
	 * (each middle split takes one), stay valid and shallow enough to walk */
	shadow_reset();
	t = tb_dynamic_tree_create();
	tb_aabb same = {{1.0f, 1.0f}, {2.0f, 2.0f}};
	for (int i = 0; i < 1000; ++i) add_proxy(&t, same, 1ull);
	tb_dynamic_tree_rebuild(&t);
	assert_true(tb_dynamic_tree_validate(&t));
	assert_true(tb_dynamic_tree_get_height(&t) <= 11);
	check_query(&t, same, ~0ull);
	tb_dynamic_tree_destroy(&t);

	shadow_reset();
	t = tb_dynamic_tree_create();
	float x = 1.0e-30f;
	for (int i = 0; i < 150; ++i, x *= 2.0f) {
		tb_aabb b = {{x, 0.0f}, {x, 1.0f}};
		add_proxy(&t, b, 1ull);
	}
	tb_dynamic_tree_rebuild(&t);
	assert_true(tb_dynamic_tree_validate(&t));
	tb_aabb everything = {{0.0f, 0.0f}, {1.0e30f, 1.0f}};
	check_query(&t, everything, ~0ull);
	tb_dynamic_tree_destroy(&t);

	/* one proxy and an empty tree: nothing to do */
	shadow_reset();
	t = tb_dynamic_tree_create();
	tb_dynamic_tree_rebuild(&t);
	add_proxy(&t, same, 1ull);
	tb_dynamic_tree_rebuild(&t);
	assert_true(tb_dynamic_tree_validate(&t));
	check_query(&t, same, ~0ull);
	tb_dynamic_tree_destroy(&t);
}

/* Checks the walk layout's subtree at `place` against the pool's node `id`;
 * returns the place after the subtree (a depth-first walk meets it there). */
static int32_t check_walk_subtree(const tb_dynamic_tree *t, const tb_walk_node *walk, int32_t count, int32_t place,
                                  int32_t id, bool *moved_below)
{
	assert_true(place >= 0 && place < count);
	const tb_walk_node *wn = walk + place;
	const tb_tree_node *n = t->nodes + id;
	assert_memory_equal(&wn->box, &n->aabb, sizeof(tb_aabb));
	assert_int_equal(wn->height, n->height);
	if (n->child1 == TB_NULL_NODE) {
		assert_int_equal(wn->child2, -1);
		assert_int_equal(wn->user_data, n->user_data);
		assert_int_equal(wn->moved, n->moved);
		*moved_below = n->moved;
		return place + 1;
	}
	bool m1, m2;
	int32_t after_first = check_walk_subtree(t, walk, count, place + 1, n->child1, &m1);
	assert_int_equal(wn->child2, after_first);
	int32_t after = check_walk_subtree(t, walk, count, after_first, n->child2, &m2);
	assert_int_equal(wn->user_data, after);
	/* an inner node is moved exactly when a leaf below it is, in the pool and the layout */
	assert_int_equal(wn->moved, m1 || m2);
	assert_int_equal(n->moved, m1 || m2);
	*moved_below = m1 || m2;
	return after;
}

/* The rebuild's walk layout (the broad phase's pair walk reads it): every node
 * of the rebuilt tree once, root first, a node's first child right after it,
 * its second child where it says, the boxes and leaves as in the pool, and an
 * inner node marked moved when a leaf below it is. */
static void test_rebuild_walk_layout(void **state)
{
	(void)state;
	rng_state = 4242u;
	shadow_reset();
	tb_dynamic_tree t = tb_dynamic_tree_create();
	for (int i = 0; i < 1500; ++i) add_proxy(&t, random_box(), 1ull);
	/* some leaves moved (created ones are; clear most) */
	for (int32_t i = 0; i < t.node_capacity; ++i)
		if (t.nodes[i].height == 0) t.nodes[i].moved = rng_next() % 5 == 0;
	tb_walk_node *walk = malloc(sizeof *walk * (size_t)(2 * t.proxy_count));
	assert_non_null(walk);
	int32_t count = -1;
	assert_true(tb_dynamic_tree_rebuild_for_walk(&t, walk, &count));
	assert_true(tb_dynamic_tree_validate(&t));
	assert_int_equal(count, 2 * t.proxy_count - 1);
	bool moved;
	assert_int_equal(check_walk_subtree(&t, walk, count, 0, t.root, &moved), count);
	assert_true(moved);
	check_all_queries(&t, 50);
	/* a tree of one leaf is its root; an empty one has none */
	tb_dynamic_tree_destroy(&t);
	shadow_reset();
	t = tb_dynamic_tree_create();
	assert_true(tb_dynamic_tree_rebuild_for_walk(&t, walk, &count));
	assert_int_equal(count, 0);
	tb_aabb box = {{1.0f, 1.0f}, {2.0f, 3.0f}};
	add_proxy(&t, box, 1ull);
	assert_true(tb_dynamic_tree_rebuild_for_walk(&t, walk, &count));
	assert_int_equal(count, 1);
	assert_int_equal(check_walk_subtree(&t, walk, count, 0, t.root, &moved), 1);
	free(walk);
	tb_dynamic_tree_destroy(&t);
}

static void test_deterministic(void **state)
{
	(void)state;
	tb_dynamic_tree a = tb_dynamic_tree_create();
	tb_dynamic_tree b = tb_dynamic_tree_create();
	build_sequence(&a, 99u);
	build_sequence(&b, 99u);
	assert_int_equal(a.root, b.root);
	assert_int_equal(a.node_capacity, b.node_capacity);
	for (int i = 0; i < a.node_capacity; ++i) {
		const tb_tree_node *x = a.nodes + i, *y = b.nodes + i;
		assert_int_equal(x->parent, y->parent);
		assert_int_equal(x->child1, y->child1);
		assert_int_equal(x->child2, y->child2);
		assert_int_equal(x->height, y->height);
		if (x->height >= 0) assert_memory_equal(&x->aabb, &y->aabb, sizeof x->aabb);
	}
	tb_dynamic_tree_destroy(&a);
	tb_dynamic_tree_destroy(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_single),
		cmocka_unit_test(test_random_operations_match_brute_force),
		cmocka_unit_test(test_ray_cast_matches_brute_force),
		cmocka_unit_test(test_height_stays_logarithmic),
		cmocka_unit_test(test_pool_grows_and_reuses),
		cmocka_unit_test(test_query_stops_when_asked),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_place_then_reinsert),
		cmocka_unit_test(test_rebuild),
		cmocka_unit_test(test_rebuild_walk_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
