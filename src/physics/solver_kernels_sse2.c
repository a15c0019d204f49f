/* tumble physics: the solver's SSE2 path: a block of eight constraints as two
 * vectors of four, the pins the same, and the bodies integrated four at a
 * time (the AVX2 and AVX-512 paths take these integration loops too).
 *
 * SSE2 is part of x86_64 (and wasm maps it onto its SIMD); elsewhere the same
 * maths runs on a plain four-float struct (contact_solver_portable.h), and the
 * integration one state at a time. */
#include "world.h"

#include <stddef.h>

_Static_assert(TB_BLOCK_LANES % 4 == 0, "the SSE2 path takes a block four lanes at a time");

#define LANES 4
#define KERNEL(name) name##_sse2
#define BLOCKS_PER_VECTOR 1

#if defined(__SSE2__) && !defined(TB_NO_SIMD)
#include <emmintrin.h>

typedef __m128 wv;

static inline wv wv_load(const float *p) { return _mm_load_ps(p); }
static inline void wv_store(float *p, wv a) { _mm_store_ps(p, a); }
static inline wv wv_splat(float s) { return _mm_set1_ps(s); }
static inline wv wv_zero(void) { return _mm_setzero_ps(); }
static inline wv wv_add(wv a, wv b) { return _mm_add_ps(a, b); }
static inline wv wv_sub(wv a, wv b) { return _mm_sub_ps(a, b); }
static inline wv wv_mul(wv a, wv b) { return _mm_mul_ps(a, b); }
static inline wv wv_div(wv a, wv b) { return _mm_div_ps(a, b); }
static inline wv wv_neg(wv a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
/* as tb_minf/tb_maxf: a < b ? a : b and a > b ? a : b, the second operand on ties and NaN */
static inline wv wv_min(wv a, wv b) { return _mm_min_ps(a, b); }
static inline wv wv_max(wv a, wv b) { return _mm_max_ps(a, b); }
static inline wv wv_lt(wv a, wv b) { return _mm_cmplt_ps(a, b); }
static inline wv wv_gt(wv a, wv b) { return _mm_cmpgt_ps(a, b); }
static inline wv wv_eq(wv a, wv b) { return _mm_cmpeq_ps(a, b); }
static inline wv wv_and(wv a, wv b) { return _mm_and_ps(a, b); }
/* mask ? b : a, lane by lane */
static inline wv wv_select(wv mask, wv a, wv b) { return _mm_or_ps(_mm_and_ps(mask, b), _mm_andnot_ps(mask, a)); }

typedef struct KERNEL(wide_body) KERNEL(wide_body);
struct KERNEL(wide_body) {
	wv vx, vy, angular_velocity, flags;
	wv dpx, dpy, qc, qs;
};

static inline __attribute__((always_inline)) void gather_bodies(KERNEL(wide_body) *b, const tb_body_state *states,
                                                                const int32_t *index)
{
	const float *p0 = tb_state_floats(states, index[0]), *p1 = tb_state_floats(states, index[1]);
	const float *p2 = tb_state_floats(states, index[2]), *p3 = tb_state_floats(states, index[3]);
	/* a body state is 32 bytes: two rows each, transposed into lanes */
	__m128 r0 = _mm_loadu_ps(p0), r1 = _mm_loadu_ps(p1), r2 = _mm_loadu_ps(p2), r3 = _mm_loadu_ps(p3);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	b->vx = r0;
	b->vy = r1;
	b->angular_velocity = r2;
	b->flags = r3;
	r0 = _mm_loadu_ps(p0 + 4);
	r1 = _mm_loadu_ps(p1 + 4);
	r2 = _mm_loadu_ps(p2 + 4);
	r3 = _mm_loadu_ps(p3 + 4);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	b->dpx = r0;
	b->dpy = r1;
	b->qc = r2;
	b->qs = r3;
}

/* Only velocities change while solving; flags ride along bit for bit (shuffles never touch the bits). */
static inline __attribute__((always_inline)) void scatter_bodies(tb_body_state *states, const int32_t *index,
                                                                 const KERNEL(wide_body) *b)
{
	__m128 r0 = b->vx, r1 = b->vy, r2 = b->angular_velocity, r3 = b->flags;
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	if (index[0] >= 0) _mm_storeu_ps((float *)(states + index[0]), r0);
	if (index[1] >= 0) _mm_storeu_ps((float *)(states + index[1]), r1);
	if (index[2] >= 0) _mm_storeu_ps((float *)(states + index[2]), r2);
	if (index[3] >= 0) _mm_storeu_ps((float *)(states + index[3]), r3);
}

#else
#include "contact_solver_portable.h"
#endif

#include "contact_solver_lanes.h"
#include "joint_solver_lanes.h"

/* ---- the bodies: four states at a time ---- */

void tb_integrate_velocities_sse2(tb_body_state *states, const tb_body_motion *motions, int32_t n, float max_speed,
                                  float max_rotation)
{
	int32_t k = 0;
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
	/* four at a time as the scalar loop does each; a group with a body over
	 * the speed cap (rare) goes through the scalar loop instead */
	_Static_assert(offsetof(tb_body_motion, dv) == 0 && offsetof(tb_body_motion, dw) == 8 &&
	                   offsetof(tb_body_motion, linear_factor) == 12 && offsetof(tb_body_motion, angular_factor) == 16 &&
	                   offsetof(tb_body_motion, dynamic) == 20 && sizeof(tb_body_motion) >= 32,
	               "a motion's two rows: dv, dw, linear factor; angular factor, dynamic");
	__m128 max_speed_sq = _mm_set1_ps(max_speed * max_speed), max_rot_sq = _mm_set1_ps(max_rotation * max_rotation);
	__m128 pos_rot = _mm_set1_ps(max_rotation), neg_rot = _mm_set1_ps(-max_rotation), zero = _mm_setzero_ps();
	for (; k + 4 <= n; k += 4) {
		float *p = (float *)(states + k);
		const float *m = (const float *)(motions + k);
		__m128 vx = _mm_loadu_ps(p), vy = _mm_loadu_ps(p + 8), w = _mm_loadu_ps(p + 16), flags = _mm_loadu_ps(p + 24);
		_MM_TRANSPOSE4_PS(vx, vy, w, flags);
		const size_t stride = sizeof(tb_body_motion) / sizeof(float);
		__m128 dvx = _mm_loadu_ps(m), dvy = _mm_loadu_ps(m + stride), dw = _mm_loadu_ps(m + 2 * stride);
		__m128 lf = _mm_loadu_ps(m + 3 * stride);
		_MM_TRANSPOSE4_PS(dvx, dvy, dw, lf);
		__m128 af = _mm_loadu_ps(m + 4), dyn = _mm_loadu_ps(m + stride + 4), r2 = _mm_loadu_ps(m + 2 * stride + 4);
		__m128 r3 = _mm_loadu_ps(m + 3 * stride + 4);
		_MM_TRANSPOSE4_PS(af, dyn, r2, r3);
		__m128 nvx = _mm_add_ps(_mm_mul_ps(lf, vx), dvx), nvy = _mm_add_ps(_mm_mul_ps(lf, vy), dvy);
		__m128 speed_sq = _mm_add_ps(_mm_mul_ps(nvx, nvx), _mm_mul_ps(nvy, nvy));
		/* only the dynamic lanes change (the flag's bits: nonzero) */
		__m128 moving = _mm_castsi128_ps(_mm_xor_si128(_mm_cmpeq_epi32(_mm_castps_si128(dyn), _mm_setzero_si128()),
		                                               _mm_set1_epi32(-1)));
		if (_mm_movemask_ps(_mm_and_ps(moving, _mm_cmpgt_ps(speed_sq, max_speed_sq))) != 0) {
			tb_integrate_velocities_scalar(states + k, motions + k, 4, max_speed, max_rotation);
			continue;
		}
		__m128 nw = _mm_add_ps(_mm_mul_ps(af, w), dw);
		__m128 over = _mm_cmpgt_ps(_mm_mul_ps(nw, nw), max_rot_sq);
		__m128 positive = _mm_cmpgt_ps(nw, zero);
		__m128 capped = _mm_or_ps(_mm_and_ps(positive, pos_rot), _mm_andnot_ps(positive, neg_rot));
		nw = _mm_or_ps(_mm_and_ps(over, capped), _mm_andnot_ps(over, nw));
		vx = _mm_or_ps(_mm_and_ps(moving, nvx), _mm_andnot_ps(moving, vx));
		vy = _mm_or_ps(_mm_and_ps(moving, nvy), _mm_andnot_ps(moving, vy));
		w = _mm_or_ps(_mm_and_ps(moving, nw), _mm_andnot_ps(moving, w));
		_MM_TRANSPOSE4_PS(vx, vy, w, flags);
		_mm_storeu_ps(p, vx);
		_mm_storeu_ps(p + 8, vy);
		_mm_storeu_ps(p + 16, w);
		_mm_storeu_ps(p + 24, flags);
	}
#endif
	/* the rest (none: a world of no awake bodies has no arrays to offset) */
	if (k < n) tb_integrate_velocities_scalar(states + k, motions + k, n - k, max_speed, max_rotation);
}

void tb_integrate_positions_sse2(tb_body_state *states, int32_t n, float h)
{
	int32_t k = 0;
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
	/* four states at a time, their halves transposed into lanes: the scalar
	 * loop's operations in the same order, each lane rounding as it does */
	__m128 hh = _mm_set1_ps(h), zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
	for (; k + 4 <= n; k += 4) {
		float *p = (float *)(states + k);
		__m128 vx = _mm_loadu_ps(p), vy = _mm_loadu_ps(p + 8), w = _mm_loadu_ps(p + 16), flags = _mm_loadu_ps(p + 24);
		_MM_TRANSPOSE4_PS(vx, vy, w, flags);
		__m128 dpx = _mm_loadu_ps(p + 4), dpy = _mm_loadu_ps(p + 12);
		__m128 qc = _mm_loadu_ps(p + 20), qs = _mm_loadu_ps(p + 28);
		_MM_TRANSPOSE4_PS(dpx, dpy, qc, qs);
		/* tb_integrate_rot, then tb_normalize_rot */
		__m128 delta = _mm_mul_ps(hh, w);
		__m128 c = _mm_sub_ps(qc, _mm_mul_ps(delta, qs)), s = _mm_add_ps(qs, _mm_mul_ps(delta, qc));
		__m128 mag = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(s, s), _mm_mul_ps(c, c)));
		__m128 inv = _mm_and_ps(_mm_cmpgt_ps(mag, zero), _mm_div_ps(one, mag));
		qc = _mm_mul_ps(c, inv);
		qs = _mm_mul_ps(s, inv);
		dpx = _mm_add_ps(dpx, _mm_mul_ps(hh, vx));
		dpy = _mm_add_ps(dpy, _mm_mul_ps(hh, vy));
		_MM_TRANSPOSE4_PS(dpx, dpy, qc, qs);
		_mm_storeu_ps(p + 4, dpx);
		_mm_storeu_ps(p + 12, dpy);
		_mm_storeu_ps(p + 20, qc);
		_mm_storeu_ps(p + 28, qs);
	}
#endif
	if (k < n) tb_integrate_positions_scalar(states + k, n - k, h);
}

static const tb_solver_kernels kernels = {warm_start_blocks_sse2,     solve_blocks_sse2,
                                          pin_warm_start_blocks_sse2, pin_solve_blocks_sse2,
                                          tb_integrate_velocities_sse2, tb_integrate_positions_sse2};

const tb_solver_kernels *tb_solver_kernels_sse2(void) { return &kernels; }
