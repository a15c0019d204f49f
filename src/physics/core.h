/* tumble physics: memory and containers shared by the engine's files
 * (engine-private).
 *
 * Every allocation of a world goes through its tb_allocator: the caller's
 * lua_Alloc-style function (or the C library's), counted against the world's
 * byte limit, and aligned to TB_ALIGNMENT whatever that function returns
 * (wasm32's malloc gives 8 bytes; the SIMD contact blocks need 16, AVX2 blocks
 * would need 32). Nothing here aborts: an allocation that fails returns NULL
 * (or false) and leaves the container as it was, so the caller can refuse an
 * operation before it has changed anything.
 *
 * Two containers, used for every array of the world:
 * - a typed growable array, declared per element type with TB_ARRAY_DECLARE:
 *   data, count, capacity, and name_reserve/_push/_destroy functions;
 * - tb_id_pool, the slots of an object array (bodies, shapes, contacts, joints,
 *   sensors): the last freed slot is reused first, else the next fresh one.
 *   The object keeps its generation across reuse and bumps it when freed, so a
 *   stale id never matches. Restoring a snapshot puts older generations back
 *   into the records, so the pool also keeps, per slot, one past the highest
 *   generation it ever issued, and a new object takes whichever is higher.
 * Records link to each other by index only, so each container is one block
 * that can be copied as it is. */
#ifndef TB_CORE_H
#define TB_CORE_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tumble/physics.h"

#if defined(__SSE2__) && !defined(TB_NO_SIMD)
#include <emmintrin.h>
#endif

#define TB_ASSERT(c) assert(c)

#if defined(__SSE2__) && !defined(TB_NO_SIMD)
/* (x, y, x, y) from one point: an unaligned 8-byte load (a point is aligned
 * to 4 only) */
static inline __m128 tb_load_point_twice(const tb_vec2 *p)
{
	__m128 a = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)p));
	return _mm_movelh_ps(a, a);
}
#endif

/* The box of points v[0..count) at xf, grown by radius: every shape's box
 * (tb_compute_aabb, and the step's inline tb_compute_shape_aabb_margin).
 * Even and odd points are gathered apart and met at the end (an odd count's
 * last point goes into both), so the SSE2 path, two points per vector, runs
 * the scalar loop's operations lane by lane: c x - s y is c x + (-s) y and
 * s x + c y is c y + s x exactly, and min/max keep the running bound on ties
 * and NaN as `a < b ? a : b` does. The same bits on either path, signed zeros
 * included. */
static inline tb_aabb tb_points_aabb(const tb_vec2 *v, int count, float radius, tb_transform xf)
{
	tb_vec2 lo, hi;
	if (count == 1) {
		/* a circle: its centre alone (both paths meet it with itself) */
		lo = hi = tb_transform_point(xf, v[0]);
		tb_vec2 r = {radius, radius};
		tb_aabb box = {tb_sub(lo, r), tb_add(hi, r)};
		return box;
	}
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
	__m128 c = _mm_set1_ps(xf.q.c), sn = _mm_setr_ps(-xf.q.s, xf.q.s, -xf.q.s, xf.q.s);
	__m128 p = _mm_setr_ps(xf.p.x, xf.p.y, xf.p.x, xf.p.y);
	__m128 a = _mm_loadu_ps(&v[0].x);
	__m128 t = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c, a), _mm_mul_ps(sn, _mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 3, 0, 1)))), p);
	__m128 vlo = t, vhi = t;
	int i = 2;
	for (; i + 1 < count; i += 2) {
		a = _mm_loadu_ps(&v[i].x);
		t = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c, a), _mm_mul_ps(sn, _mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 3, 0, 1)))), p);
		vlo = _mm_min_ps(vlo, t);
		vhi = _mm_max_ps(vhi, t);
	}
	if (i < count) {
		a = tb_load_point_twice(v + i);
		t = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c, a), _mm_mul_ps(sn, _mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 3, 0, 1)))), p);
		vlo = _mm_min_ps(vlo, t);
		vhi = _mm_max_ps(vhi, t);
	}
	vlo = _mm_min_ps(vlo, _mm_movehl_ps(vlo, vlo));
	vhi = _mm_max_ps(vhi, _mm_movehl_ps(vhi, vhi));
	float out[8];
	_mm_storeu_ps(out, vlo);
	_mm_storeu_ps(out + 4, vhi);
	lo = (tb_vec2){out[0], out[1]};
	hi = (tb_vec2){out[4], out[5]};
#else
	tb_vec2 lo_even = tb_transform_point(xf, v[0]);
	tb_vec2 lo_odd = tb_transform_point(xf, v[1]);
	tb_vec2 hi_even = lo_even, hi_odd = lo_odd;
	int i = 2;
	for (; i + 1 < count; i += 2) {
		tb_vec2 pe = tb_transform_point(xf, v[i]), po = tb_transform_point(xf, v[i + 1]);
		lo_even = tb_min_v(lo_even, pe);
		hi_even = tb_max_v(hi_even, pe);
		lo_odd = tb_min_v(lo_odd, po);
		hi_odd = tb_max_v(hi_odd, po);
	}
	if (i < count) {
		tb_vec2 pl = tb_transform_point(xf, v[i]);
		lo_even = tb_min_v(lo_even, pl);
		hi_even = tb_max_v(hi_even, pl);
		lo_odd = tb_min_v(lo_odd, pl);
		hi_odd = tb_max_v(hi_odd, pl);
	}
	lo = tb_min_v(lo_even, lo_odd);
	hi = tb_max_v(hi_even, hi_odd);
#endif
	tb_vec2 r = {radius, radius};
	tb_aabb box = {tb_sub(lo, r), tb_add(hi, r)};
	return box;
}

/* Alignment of every block the engine allocates: enough for 16-byte SSE and
 * 32-byte AVX blocks on every platform, and a cache line, so that records
 * sized in whole lines (contacts, shapes) start on one. */
#define TB_ALIGNMENT 64

typedef struct tb_allocator {
	tb_alloc_fn *fn; /* never NULL: the C library's when the world's def has none */
	void *ud;
	size_t bytes;     /* held now, alignment padding included */
	size_t max_bytes; /* 0: no limit */
} tb_allocator;

/* The C library's memory as a tb_alloc_fn. */
void *tb_default_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
void tb_allocator_init(tb_allocator *a, tb_alloc_fn *fn, void *ud, size_t max_bytes);
/* A TB_ALIGNMENT-aligned block, or NULL when memory runs out. */
void *tb_alloc(tb_allocator *a, size_t size);
/* Frees a block of tb_alloc; size must be the size it was allocated with. */
void tb_free(tb_allocator *a, void *ptr, size_t size);
/* Resizes a block of tb_alloc (NULL: a new one), keeping its contents up to
 * the smaller size and its alignment; NULL when memory runs out, the block
 * then unchanged. Grows in place when the allocator can. */
void *tb_realloc(tb_allocator *a, void *ptr, size_t old_size, size_t new_size);
/* The allocator as a tb_alloc_fn (ud: the tb_allocator), for code that takes
 * one, such as the dynamic tree. Blocks are aligned as tb_alloc's. */
void *tb_allocator_alloc_fn(void *ud, void *ptr, size_t osize, size_t nsize);

/* Grows an array's block so it holds at least `needed` elements: capacity
 * doubles from 16, the elements up to the old capacity are kept and the new
 * ones start zeroed. Returns false, changing nothing, when memory runs out. */
bool tb_array_grow(tb_allocator *a, void **data, int32_t *capacity, int32_t needed, size_t element_size);

/* Declares the array type `name` of `type` elements and its functions. */
#define TB_ARRAY_DECLARE(name, type)                                                                        \
	typedef struct name {                                                                                   \
		type *data;                                                                                         \
		int32_t count, capacity;                                                                            \
	} name;                                                                                                 \
	static inline bool name##_reserve(tb_allocator *a, name *array, int32_t needed)                        \
	{                                                                                                       \
		if (needed <= array->capacity) return true;                                                         \
		return tb_array_grow(a, (void **)&array->data, &array->capacity, needed, sizeof(type));             \
	}                                                                                                       \
	/* appends, or returns false (array unchanged) when memory runs out */                                \
	static inline bool name##_push(tb_allocator *a, name *array, type value)                               \
	{                                                                                                       \
		if (!name##_reserve(a, array, array->count + 1)) return false;                                      \
		array->data[array->count++] = value;                                                                \
		return true;                                                                                        \
	}                                                                                                       \
	/* appends where capacity was reserved before */                                                      \
	static inline void name##_push_reserved(name *array, type value)                                        \
	{                                                                                                       \
		TB_ASSERT(array->count < array->capacity);                                                          \
		array->data[array->count++] = value;                                                                \
	}                                                                                                       \
	static inline void name##_destroy(tb_allocator *a, name *array)                                         \
	{                                                                                                       \
		tb_free(a, array->data, (size_t)array->capacity * sizeof(type));                                    \
		array->data = NULL;                                                                                 \
		array->count = array->capacity = 0;                                                                 \
	}

TB_ARRAY_DECLARE(tb_int_array, int32_t)
TB_ARRAY_DECLARE(tb_u32_array, uint32_t)
TB_ARRAY_DECLARE(tb_u64_array, uint64_t)
TB_ARRAY_DECLARE(tb_float_array, float)

typedef struct tb_id_pool {
	tb_int_array free_ids; /* freed slots, the last freed at the end */
	int32_t next_index;    /* slots [0, next_index) have been handed out: the object arrays' count */
	/* Per slot, one past the highest generation issued there (indexed up to
	 * its capacity, which grows zeroed; the count is unused). A restore lowers
	 * the records' generations but never this: without it, an id issued after
	 * a snapshot would come to name another object once the slot's generation
	 * climbed back to it. */
	tb_u32_array issued;
} tb_id_pool;

/* Generations never go past this, far below the wrap of their 32 bits: a
 * slot whose next generation would reach it is used up and never reused (it
 * stays on the free list, where tb_alloc_id passes it over), so a stale id
 * never comes to name a new object, and snapshots refuse generations above
 * it. At one reuse per step, 60 steps a second, a slot lasts 51 days. */
#define TB_GENERATION_CAP (1u << 28)

/* Live slots. */
static inline int32_t tb_id_pool_count(const tb_id_pool *pool) { return pool->next_index - pool->free_ids.count; }
static inline bool tb_id_pool_used_up(const tb_id_pool *pool, int32_t slot)
{
	return slot < pool->issued.capacity && pool->issued.data[slot] >= TB_GENERATION_CAP;
}
/* Where on the free list the next tb_alloc_id takes its slot: the last freed
 * that is not used up; -1 for a fresh slot. */
static inline int32_t tb_id_pool_free_at(const tb_id_pool *pool)
{
	for (int32_t k = pool->free_ids.count - 1; k >= 0; --k) {
		if (!tb_id_pool_used_up(pool, pool->free_ids.data[k])) return k;
	}
	return -1;
}
/* The slot the next tb_alloc_id returns; it is a fresh one (the object arrays
 * must first hold it) when it equals next_index. */
static inline int32_t tb_id_pool_peek(const tb_id_pool *pool)
{
	int32_t k = tb_id_pool_free_at(pool);
	return k >= 0 ? pool->free_ids.data[k] : pool->next_index;
}
/* Room to free up to `slots` slots, so freeing never allocates. */
static inline bool tb_id_pool_reserve(tb_allocator *a, tb_id_pool *pool, int32_t slots)
{
	return tb_int_array_reserve(a, &pool->free_ids, slots) && tb_u32_array_reserve(a, &pool->issued, slots);
}
/* The caller reserved the pool (and its object arrays) for a fresh slot. */
static inline int32_t tb_alloc_id(tb_id_pool *pool)
{
	int32_t k = tb_id_pool_free_at(pool);
	if (k >= 0) {
		int32_t slot = pool->free_ids.data[k];
		int32_t *free_ids = pool->free_ids.data;
		pool->free_ids.count -= 1;
		/* the used-up slots above it keep their order */
		memmove(free_ids + k, free_ids + k + 1, (size_t)(pool->free_ids.count - k) * sizeof *free_ids);
		return slot;
	}
	TB_ASSERT(pool->next_index < pool->free_ids.capacity);
	return pool->next_index++;
}
/* The generation of a new object in `slot`, whose record holds `generation`
 * (the old one's, bumped when it was freed): never one issued there before. */
static inline uint32_t tb_id_pool_issue(tb_id_pool *pool, int32_t slot, uint32_t generation)
{
	TB_ASSERT(0 <= slot && slot < pool->issued.capacity);
	uint32_t floor = pool->issued.data[slot];
	if (generation < floor) generation = floor;
	pool->issued.data[slot] = generation + 1;
	return generation;
}
static inline void tb_free_id(tb_id_pool *pool, int32_t id)
{
	TB_ASSERT(0 <= id && id < pool->next_index);
	tb_int_array_push_reserved(&pool->free_ids, id);
}
static inline void tb_id_pool_destroy(tb_allocator *a, tb_id_pool *pool)
{
	tb_int_array_destroy(a, &pool->free_ids);
	tb_u32_array_destroy(a, &pool->issued);
	pool->next_index = 0;
}

/* Monotonic clock in milliseconds, for the profile only (never for physics). */
double tb_time_ms(void);

/* Ascending int32_t, for tb_sort. */
static inline int tb_compare_int32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Sorts n elements of `size` bytes in place by cmp, as qsort would, but never
 * allocating (the C library's qsort may, and the step must not) and in
 * O(n log n) whatever the input (a heap sort). Not stable: for keys that are
 * all distinct, where every sort gives the same order. */
void tb_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
