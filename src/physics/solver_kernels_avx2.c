/* tumble physics: the solver's AVX2 path, a whole block of eight constraints
 * (or pins) in one vector; the bodies are integrated by the SSE2 path's loops.
 * The only file built with -mavx2 (the Makefile adds it for x86 targets; never
 * -mfma, so no multiply-add fuses and every number rounds as in the other
 * paths); the engine runs it only where the CPU has AVX2
 * (tb_solver_kernels_for). Elsewhere it builds to nothing and the path is not
 * offered. */
#include "world.h"

#if defined(__AVX2__) && !defined(TB_NO_SIMD)
#include <immintrin.h>

_Static_assert(TB_BLOCK_LANES == 8, "a block is one AVX2 vector");

#define LANES 8
#define KERNEL(name) name##_avx2
#define BLOCKS_PER_VECTOR 1

typedef __m256 wv;

static inline wv wv_load(const float *p) { return _mm256_load_ps(p); }
static inline void wv_store(float *p, wv a) { _mm256_store_ps(p, a); }
static inline wv wv_splat(float s) { return _mm256_set1_ps(s); }
static inline wv wv_zero(void) { return _mm256_setzero_ps(); }
static inline wv wv_add(wv a, wv b) { return _mm256_add_ps(a, b); }
static inline wv wv_sub(wv a, wv b) { return _mm256_sub_ps(a, b); }
static inline wv wv_mul(wv a, wv b) { return _mm256_mul_ps(a, b); }
static inline wv wv_div(wv a, wv b) { return _mm256_div_ps(a, b); }
static inline wv wv_neg(wv a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
/* as SSE2's and tb_minf/tb_maxf: the second operand on ties and NaN */
static inline wv wv_min(wv a, wv b) { return _mm256_min_ps(a, b); }
static inline wv wv_max(wv a, wv b) { return _mm256_max_ps(a, b); }
/* ordered, non-signalling: the predicates of SSE2's cmplt/cmpgt */
static inline wv wv_lt(wv a, wv b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline wv wv_gt(wv a, wv b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline wv wv_eq(wv a, wv b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
static inline wv wv_and(wv a, wv b) { return _mm256_and_ps(a, b); }
/* mask ? b : a, lane by lane */
static inline wv wv_select(wv mask, wv a, wv b) { return _mm256_blendv_ps(a, b, mask); }

typedef struct KERNEL(wide_body) {
	wv vx, vy, angular_velocity, flags;
	wv dpx, dpy, qc, qs;
} KERNEL(wide_body);

/* Eight body states of eight floats each, one per row, into eight lanes of each field. */
static inline __attribute__((always_inline)) void gather_bodies(KERNEL(wide_body) *b, const tb_body_state *states,
                                                                const int32_t *index)
{
	__m256 r0 = _mm256_loadu_ps(tb_state_floats(states, index[0]));
	__m256 r1 = _mm256_loadu_ps(tb_state_floats(states, index[1]));
	__m256 r2 = _mm256_loadu_ps(tb_state_floats(states, index[2]));
	__m256 r3 = _mm256_loadu_ps(tb_state_floats(states, index[3]));
	__m256 r4 = _mm256_loadu_ps(tb_state_floats(states, index[4]));
	__m256 r5 = _mm256_loadu_ps(tb_state_floats(states, index[5]));
	__m256 r6 = _mm256_loadu_ps(tb_state_floats(states, index[6]));
	__m256 r7 = _mm256_loadu_ps(tb_state_floats(states, index[7]));
	/* pairs of rows interleaved, then pairs of pairs, then the 128-bit halves */
	__m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
	__m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
	__m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
	__m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
	__m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
	__m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
	__m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)), s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
	__m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)), s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
	b->vx = _mm256_permute2f128_ps(s0, s4, 0x20);
	b->vy = _mm256_permute2f128_ps(s1, s5, 0x20);
	b->angular_velocity = _mm256_permute2f128_ps(s2, s6, 0x20);
	b->flags = _mm256_permute2f128_ps(s3, s7, 0x20);
	b->dpx = _mm256_permute2f128_ps(s0, s4, 0x31);
	b->dpy = _mm256_permute2f128_ps(s1, s5, 0x31);
	b->qc = _mm256_permute2f128_ps(s2, s6, 0x31);
	b->qs = _mm256_permute2f128_ps(s3, s7, 0x31);
}

/* Only velocities change while solving: the first four floats of each state
 * (v, angular velocity, and the flags, which ride along bit for bit). */
static inline __attribute__((always_inline)) void scatter_bodies(tb_body_state *states, const int32_t *index,
                                                                 const KERNEL(wide_body) *b)
{
	__m256 t0 = _mm256_unpacklo_ps(b->vx, b->vy), t1 = _mm256_unpackhi_ps(b->vx, b->vy);
	__m256 t2 = _mm256_unpacklo_ps(b->angular_velocity, b->flags), t3 = _mm256_unpackhi_ps(b->angular_velocity, b->flags);
	/* body i in the low half, body i + 4 in the high half */
	__m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
	__m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
	if (index[0] >= 0) _mm_storeu_ps((float *)(states + index[0]), _mm256_castps256_ps128(s0));
	if (index[1] >= 0) _mm_storeu_ps((float *)(states + index[1]), _mm256_castps256_ps128(s1));
	if (index[2] >= 0) _mm_storeu_ps((float *)(states + index[2]), _mm256_castps256_ps128(s2));
	if (index[3] >= 0) _mm_storeu_ps((float *)(states + index[3]), _mm256_castps256_ps128(s3));
	if (index[4] >= 0) _mm_storeu_ps((float *)(states + index[4]), _mm256_extractf128_ps(s0, 1));
	if (index[5] >= 0) _mm_storeu_ps((float *)(states + index[5]), _mm256_extractf128_ps(s1, 1));
	if (index[6] >= 0) _mm_storeu_ps((float *)(states + index[6]), _mm256_extractf128_ps(s2, 1));
	if (index[7] >= 0) _mm_storeu_ps((float *)(states + index[7]), _mm256_extractf128_ps(s3, 1));
}

#include "contact_solver_lanes.h"
#include "joint_solver_lanes.h"

static const tb_solver_kernels kernels = {warm_start_blocks_avx2,     solve_blocks_avx2,
                                          pin_warm_start_blocks_avx2, pin_solve_blocks_avx2,
                                          tb_integrate_velocities_sse2, tb_integrate_positions_sse2};

const tb_solver_kernels *tb_solver_kernels_avx2(void) { return &kernels; }

#else

const tb_solver_kernels *tb_solver_kernels_avx2(void) { return NULL; }

#endif
