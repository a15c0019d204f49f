/* tumble physics: the solver's AVX-512 path, two blocks of one colour in one
 * vector of sixteen. The only file built with -mavx512f (the Makefile adds it
 * for x86 targets; never -mfma, so every number rounds as in the other paths);
 * the engine runs it only where the CPU has AVX-512F and AVX2
 * (tb_solver_kernels_for). Elsewhere it builds to nothing and the path is not
 * offered.
 *
 * The solve of a block is a chain of dependent steps (each row reads the
 * velocities the one before it wrote), so one block at a time leaves the CPU
 * waiting; two blocks side by side give it twice the independent work for the
 * same instructions. The blocks of one colour share no awake body, so the
 * pair's sixteen lanes are as independent as one block's eight, and every
 * number comes out bit for bit as in the other paths. A vector's lanes are the
 * pair's: lanes 0-7 are block k's, lanes 8-15 block k + 1's, so a field of the
 * pair loads from the two blocks' copies of it (wv_load), and the two blocks
 * must lie next to each other, as a colour's blocks do.
 *
 * Pairs are taken within one call's range only (one colour: the callers give
 * one colour at a time). A block with a surface record (conveyor, rolling
 * resistance, bounce), and a colour's odd last block, go through the AVX2
 * path one block at a time (BLOCKS_PER_VECTOR 2 in contact_solver_lanes.h);
 * the pins are the AVX2 path's, and the integration the SSE2 path's. */
#include "world.h"

#if defined(__AVX512F__) && !defined(TB_NO_SIMD)
#include <immintrin.h>

_Static_assert(TB_BLOCK_LANES == 8, "a block is half a vector");
_Static_assert(sizeof(tb_contact_block) % 32 == 0, "the next block's lane arrays are aligned as this one's");

#define LANES 16
#define KERNEL(name) name##_avx512
#define BLOCKS_PER_VECTOR 2
/* the single blocks and the pins: the AVX2 path, always built beside this one */
#define ONE_BLOCK() tb_solver_kernels_avx2()

/* the distance from a block's field to the next block's, in floats and in indices */
#define BLOCK_FLOATS ((ptrdiff_t)(sizeof(tb_contact_block) / sizeof(float)))
#define BLOCK_INTS ((ptrdiff_t)(sizeof(tb_contact_block) / sizeof(int32_t)))

typedef __m512 wv;

static inline __m512 join(__m256 lo, __m256 hi)
{
	return _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
}

/* a field of the pair: this block's lanes, then the next block's */
static inline wv wv_load(const float *p) { return join(_mm256_load_ps(p), _mm256_load_ps(p + BLOCK_FLOATS)); }
static inline void wv_store(float *p, wv a)
{
	_mm256_store_ps(p, _mm512_castps512_ps256(a));
	_mm256_store_ps(p + BLOCK_FLOATS, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1)));
}
static inline wv wv_splat(float s) { return _mm512_set1_ps(s); }
static inline wv wv_zero(void) { return _mm512_setzero_ps(); }
static inline wv wv_add(wv a, wv b) { return _mm512_add_ps(a, b); }
static inline wv wv_sub(wv a, wv b) { return _mm512_sub_ps(a, b); }
static inline wv wv_mul(wv a, wv b) { return _mm512_mul_ps(a, b); }
static inline wv wv_neg(wv a)
{
	return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_set1_epi32((int32_t)0x80000000u)));
}
/* as SSE2's and tb_minf/tb_maxf: the second operand on ties and NaN */
static inline wv wv_min(wv a, wv b) { return _mm512_min_ps(a, b); }
static inline wv wv_max(wv a, wv b) { return _mm512_max_ps(a, b); }
/* masks as vectors of all-ones and all-zeros lanes, as in the other paths */
static inline wv mask_vector(__mmask16 m)
{
	return _mm512_castsi512_ps(_mm512_maskz_mov_epi32(m, _mm512_set1_epi32(-1)));
}
/* ordered, non-signalling: the predicates of SSE2's cmplt/cmpgt */
static inline wv wv_lt(wv a, wv b) { return mask_vector(_mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)); }
static inline wv wv_gt(wv a, wv b) { return mask_vector(_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ)); }
static inline wv wv_eq(wv a, wv b) { return mask_vector(_mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ)); }
static inline wv wv_and(wv a, wv b)
{
	return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}
/* mask ? b : a, lane by lane: a bitwise select (0xca: mask & b | ~mask & a) */
static inline wv wv_select(wv mask, wv a, wv b)
{
	return _mm512_castsi512_ps(_mm512_ternarylogic_epi32(_mm512_castps_si512(mask), _mm512_castps_si512(b),
	                                                     _mm512_castps_si512(a), 0xca));
}

typedef struct KERNEL(wide_body) {
	wv vx, vy, angular_velocity, flags;
	wv dpx, dpy, qc, qs;
} KERNEL(wide_body);

/* body i of this block beside body i of the next (index: this block's state_a or state_b) */
static inline __m512 two_rows(const tb_body_state *states, const int32_t *index, int i)
{
	return join(_mm256_loadu_ps(tb_state_floats(states, index[i])),
	            _mm256_loadu_ps(tb_state_floats(states, index[i + BLOCK_INTS])));
}

/* Sixteen body states of eight floats, into sixteen lanes of each field: as
 * the AVX2 path's transpose, in each half at once, then the quarters put in
 * lane order (lanes 0-3 and 8-11 come from rows 0-3 and their next block's
 * rows, 4-7 and 12-15 from rows 4-7). */
static inline __attribute__((always_inline)) void gather_bodies(KERNEL(wide_body) *b, const tb_body_state *states,
                                                                const int32_t *index)
{
	__m512 r0 = two_rows(states, index, 0), r1 = two_rows(states, index, 1);
	__m512 r2 = two_rows(states, index, 2), r3 = two_rows(states, index, 3);
	__m512 r4 = two_rows(states, index, 4), r5 = two_rows(states, index, 5);
	__m512 r6 = two_rows(states, index, 6), r7 = two_rows(states, index, 7);
	__m512 t0 = _mm512_unpacklo_ps(r0, r1), t1 = _mm512_unpackhi_ps(r0, r1);
	__m512 t2 = _mm512_unpacklo_ps(r2, r3), t3 = _mm512_unpackhi_ps(r2, r3);
	__m512 t4 = _mm512_unpacklo_ps(r4, r5), t5 = _mm512_unpackhi_ps(r4, r5);
	__m512 t6 = _mm512_unpacklo_ps(r6, r7), t7 = _mm512_unpackhi_ps(r6, r7);
	__m512 s0 = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
	__m512 s1 = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
	__m512 s2 = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
	__m512 s3 = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
	__m512 s4 = _mm512_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
	__m512 s5 = _mm512_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
	__m512 s6 = _mm512_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
	__m512 s7 = _mm512_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
	/* each s holds, by quarter: rows 0-3 (or 4-7) low half, their high half, and the next block's two */
	const __m512i low = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
	const __m512i high = _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
	b->vx = _mm512_permutex2var_ps(s0, low, s4);
	b->vy = _mm512_permutex2var_ps(s1, low, s5);
	b->angular_velocity = _mm512_permutex2var_ps(s2, low, s6);
	b->flags = _mm512_permutex2var_ps(s3, low, s7);
	b->dpx = _mm512_permutex2var_ps(s0, high, s4);
	b->dpy = _mm512_permutex2var_ps(s1, high, s5);
	b->qc = _mm512_permutex2var_ps(s2, high, s6);
	b->qs = _mm512_permutex2var_ps(s3, high, s7);
}

static inline void store_state(tb_body_state *states, int32_t index, __m128 row)
{
	if (index >= 0) _mm_storeu_ps((float *)(states + index), row);
}

/* Only velocities change while solving: the first four floats of each state
 * (v, angular velocity, and the flags, which ride along bit for bit). */
static inline __attribute__((always_inline)) void scatter_bodies(tb_body_state *states, const int32_t *index,
                                                                 const KERNEL(wide_body) *b)
{
	__m512 t0 = _mm512_unpacklo_ps(b->vx, b->vy), t1 = _mm512_unpackhi_ps(b->vx, b->vy);
	__m512 t2 = _mm512_unpacklo_ps(b->angular_velocity, b->flags);
	__m512 t3 = _mm512_unpackhi_ps(b->angular_velocity, b->flags);
	/* by quarter, s0 holds lanes 0, 4, 8, 12; s1 lanes 1, 5, 9, 13; and so on */
	__m512 s0 = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
	__m512 s1 = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
	__m512 s2 = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
	__m512 s3 = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
	const int32_t *next = index + BLOCK_INTS;
	store_state(states, index[0], _mm512_extractf32x4_ps(s0, 0));
	store_state(states, index[1], _mm512_extractf32x4_ps(s1, 0));
	store_state(states, index[2], _mm512_extractf32x4_ps(s2, 0));
	store_state(states, index[3], _mm512_extractf32x4_ps(s3, 0));
	store_state(states, index[4], _mm512_extractf32x4_ps(s0, 1));
	store_state(states, index[5], _mm512_extractf32x4_ps(s1, 1));
	store_state(states, index[6], _mm512_extractf32x4_ps(s2, 1));
	store_state(states, index[7], _mm512_extractf32x4_ps(s3, 1));
	store_state(states, next[0], _mm512_extractf32x4_ps(s0, 2));
	store_state(states, next[1], _mm512_extractf32x4_ps(s1, 2));
	store_state(states, next[2], _mm512_extractf32x4_ps(s2, 2));
	store_state(states, next[3], _mm512_extractf32x4_ps(s3, 2));
	store_state(states, next[4], _mm512_extractf32x4_ps(s0, 3));
	store_state(states, next[5], _mm512_extractf32x4_ps(s1, 3));
	store_state(states, next[6], _mm512_extractf32x4_ps(s2, 3));
	store_state(states, next[7], _mm512_extractf32x4_ps(s3, 3));
}

#include "contact_solver_lanes.h"
#include "joint_solver_lanes.h"

static const tb_solver_kernels kernels = {warm_start_blocks_avx512,     solve_blocks_avx512,
                                          pin_warm_start_blocks_avx512, pin_solve_blocks_avx512,
                                          tb_integrate_velocities_sse2, tb_integrate_positions_sse2};

const tb_solver_kernels *tb_solver_kernels_avx512(void) { return tb_solver_kernels_avx2() != NULL ? &kernels : NULL; }

#else

const tb_solver_kernels *tb_solver_kernels_avx512(void) { return NULL; }

#endif
