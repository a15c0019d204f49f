/* tumble physics: the wide contact solver's drivers, its path dispatch and its
 * SSE2 path.
 *
 * Within one colour of the constraint graph no two constraints share an awake
 * body, so up to eight of them form a block whose lanes are solved side by
 * side: their bodies are gathered into lanes, solved with the scalar solver's
 * maths (contact_solver_lanes.h), and scattered back. Colours run one after
 * the other, forward on even substeps and backward on odd ones, so the
 * Gauss-Seidel sweep bias cancels as it does in the scalar solver. Constraints
 * that found no colour (the overflow) go through the scalar solver of
 * contact_solver.c.
 *
 * A world runs one path, chosen once (tb_world_set_solver_path; AUTO: the
 * widest the CPU has): AVX-512 takes two blocks of a colour in one vector of
 * sixteen (contact_solver_avx512.c), AVX2 a block in one vector of eight
 * (contact_solver_avx2.c, the only file built for AVX2), SSE2 in two of four
 * (here; SSE2 is part of x86_64, elsewhere the same code runs on a plain
 * four-float struct), scalar lane by lane (contact_solver_scalar.c). No lane
 * reads another, so the four give the same bits. */
#include "world.h"

#include <stddef.h>

_Static_assert(sizeof(tb_body_state) == 8 * sizeof(float), "tb_body_state is read as eight floats");
_Static_assert(offsetof(tb_body_state, angular_velocity) == 2 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(offsetof(tb_body_state, flags) == 3 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(offsetof(tb_body_state, dp) == 4 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(offsetof(tb_body_state, dq) == 6 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(TB_BLOCK_LANES % 4 == 0, "the SSE2 path takes a block four lanes at a time");

/* ---------------------------------------------------------------- the SSE2 path */

#define LANES 4
#define KERNEL(name) name##_sse2

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

const tb_contact_kernels *tb_contact_kernels_sse2(void) { return &kernels_sse2; }

/* ---------------------------------------------------------------- path dispatch */

const char *tb_solver_path_name(tb_solver_path path)
{
	switch (path) {
	case TB_SOLVER_PATH_AUTO: return "auto";
	case TB_SOLVER_PATH_SCALAR: return "scalar";
	case TB_SOLVER_PATH_SSE2: return "sse2";
	case TB_SOLVER_PATH_AVX2: return "avx2";
	case TB_SOLVER_PATH_AVX512: return "avx512";
	default: return "unknown";
	}
}

tb_solver_path tb_solver_path_from_name(const char *name)
{
	for (int p = 0; p < TB_SOLVER_PATH_COUNT && name != NULL; ++p) {
		if (strcmp(name, tb_solver_path_name((tb_solver_path)p)) == 0) return (tb_solver_path)p;
	}
	return TB_SOLVER_PATH_COUNT;
}

static bool cpu_has_avx2(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	/* also checks that the OS saves the AVX registers */
	return __builtin_cpu_supports("avx2");
#else
	return false;
#endif
}

static bool cpu_has_avx512(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	/* also checks that the OS saves the AVX-512 registers; the path runs AVX2 code too */
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2");
#else
	return false;
#endif
}

bool tb_cpu_prefers_avx512(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	/* The first AVX-512 CPUs (Skylake-X and its kin) lower their clock for
	 * 512-bit work, which can cost more than the path gains; the ones that
	 * also have IFMA (Ice Lake and later, Zen 4 and later) do not, or barely. */
	return cpu_has_avx512() && __builtin_cpu_supports("avx512ifma");
#else
	return false;
#endif
}

const tb_contact_kernels *tb_contact_kernels_for(tb_solver_path path)
{
	switch (path) {
	case TB_SOLVER_PATH_SCALAR: return tb_contact_kernels_scalar();
	case TB_SOLVER_PATH_SSE2: return tb_contact_kernels_sse2();
	case TB_SOLVER_PATH_AVX2: return cpu_has_avx2() ? tb_contact_kernels_avx2() : NULL;
	case TB_SOLVER_PATH_AVX512: return cpu_has_avx512() ? tb_contact_kernels_avx512() : NULL;
	default: return NULL;
	}
}

tb_solver_path tb_default_solver_path(void)
{
	tb_solver_path asked = tb_solver_path_from_name(getenv("TB_SOLVER_PATH"));
	if (asked != TB_SOLVER_PATH_AUTO && asked != TB_SOLVER_PATH_COUNT && tb_contact_kernels_for(asked) != NULL)
		return asked;
	if (tb_cpu_prefers_avx512() && tb_contact_kernels_for(TB_SOLVER_PATH_AVX512) != NULL) return TB_SOLVER_PATH_AVX512;
	return tb_contact_kernels_for(TB_SOLVER_PATH_AVX2) != NULL ? TB_SOLVER_PATH_AVX2 : TB_SOLVER_PATH_SSE2;
}

/* ---------------------------------------------------------------- blocks */

void tb_contact_block_init(tb_contact_block *blk, int32_t lane_count)
{
	TB_ASSERT(((uintptr_t)blk & 31u) == 0 && 0 < lane_count && lane_count <= TB_BLOCK_LANES);
	memset(blk, 0, sizeof *blk);
	blk->lane_count = lane_count;
	blk->surface = TB_NULL_INDEX;
	for (int i = 0; i < TB_BLOCK_LANES; ++i) blk->state_a[i] = blk->state_b[i] = TB_NULL_INDEX;
}

#if defined(__SSE2__) && !defined(TB_NO_SIMD)
/* A record read as floats: rows of four that land in four consecutive lane
 * arrays of a block (the header's, each point's), for fill_four. */
#define RECORD_FLOAT(field) (offsetof(tb_contact_constraint, field) / sizeof(float))
_Static_assert(offsetof(tb_contact_constraint, state_b) == offsetof(tb_contact_constraint, state_a) + 4 &&
               RECORD_FLOAT(normal) == 4 && RECORD_FLOAT(inv_mass_a) == 6 && RECORD_FLOAT(inv_i_a) == 7 &&
               RECORD_FLOAT(inv_mass_b) == 8 && RECORD_FLOAT(inv_i_b) == 9 && RECORD_FLOAT(friction) == 10 &&
               RECORD_FLOAT(push_max) == 11 && RECORD_FLOAT(points) == 13,
               "the record's header rows: normal and masses, friction and push; then the points");
_Static_assert(sizeof(tb_constraint_point) == 11 * sizeof(float) && offsetof(tb_constraint_point, anchor_a) == 0 &&
               offsetof(tb_constraint_point, anchor_b) == 8 && offsetof(tb_constraint_point, base_separation) == 16 &&
               offsetof(tb_constraint_point, normal_impulse) == 20 &&
               offsetof(tb_constraint_point, tangent_impulse) == 24 &&
               offsetof(tb_constraint_point, max_normal_impulse) == 28 &&
               offsetof(tb_constraint_point, normal_mass) == 32 && offsetof(tb_constraint_point, tangent_mass) == 36,
               "a record's point in the order of its block's lane arrays");
_Static_assert(offsetof(tb_block_point, anchor_ay) == 1 * sizeof(float[TB_BLOCK_LANES]) &&
               offsetof(tb_block_point, tangent_mass) == 9 * sizeof(float[TB_BLOCK_LANES]) &&
               offsetof(tb_contact_block, normal_y) ==
                   offsetof(tb_contact_block, normal_x) + sizeof(float[TB_BLOCK_LANES]) &&
               offsetof(tb_contact_block, push_max) ==
                   offsetof(tb_contact_block, normal_x) + 7 * sizeof(float[TB_BLOCK_LANES]),
               "a block's lane arrays one after the other, in the records' order");
/* every row read, the last point's third included, lies within the record */
_Static_assert((RECORD_FLOAT(points) + 2 * 11 + 4) * sizeof(float) <= sizeof(tb_contact_constraint),
               "the last row read ends inside the record");

/* Lanes first .. first + 3 from four records: each row of four floats goes
 * through a 4x4 transpose into four lane arrays; bits are only moved. `dst` is
 * the first of `rows` consecutive lane arrays (floats apart by a block's lane
 * count), `at` the row's first float in the records. */
static inline void transpose_rows(float *dst, int arrays, const float *const rec[4], int at)
{
	__m128 r0 = _mm_loadu_ps(rec[0] + at), r1 = _mm_loadu_ps(rec[1] + at);
	__m128 r2 = _mm_loadu_ps(rec[2] + at), r3 = _mm_loadu_ps(rec[3] + at);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	_mm_store_ps(dst, r0);
	if (arrays > 1) _mm_store_ps(dst + TB_BLOCK_LANES, r1);
	if (arrays > 2) _mm_store_ps(dst + 2 * TB_BLOCK_LANES, r2);
	if (arrays > 3) _mm_store_ps(dst + 3 * TB_BLOCK_LANES, r3);
}

static inline void fill_four(tb_contact_block *blk, int first, const float *const rec[4])
{
	/* the states: two ints moved as floats (a shuffle keeps any bits) */
	transpose_rows((float *)blk->state_a + first, 2, rec, 0);
	transpose_rows(blk->normal_x + first, 4, rec, 4);
	transpose_rows(blk->inv_mass_b + first, 4, rec, 8);
	for (int j = 0; j < 2; ++j) {
		int at = (int)RECORD_FLOAT(points) + 11 * j;
		tb_block_point *bp = blk->points + j;
		transpose_rows(bp->anchor_ax + first, 4, rec, at);
		transpose_rows(bp->base_separation + first, 4, rec, at + 4);
		transpose_rows(bp->normal_mass + first, 2, rec, at + 8);
	}
}
#endif

void tb_contact_block_fill(tb_contact_block *blk, const tb_contact_constraint *constraints, const int32_t *refs,
                           int32_t lanes, tb_block_surface *surfaces, int32_t *surface_count)
{
#if defined(__SSE2__) && !defined(TB_NO_SIMD)
	if (lanes == TB_BLOCK_LANES) {
		TB_ASSERT(((uintptr_t)blk & 31u) == 0);
		const float *rec[TB_BLOCK_LANES];
		for (int i = 0; i < TB_BLOCK_LANES; ++i) rec[i] = (const float *)(constraints + refs[i]);
		fill_four(blk, 0, rec);
		fill_four(blk, 4, rec + 4);
		blk->lane_count = TB_BLOCK_LANES;
		blk->surface = TB_NULL_INDEX;
		for (int i = 0; i < TB_BLOCK_LANES; ++i)
			tb_contact_block_set_surface(blk, i, constraints + refs[i], surfaces, surface_count);
		return;
	}
#endif
	tb_contact_block_init(blk, lanes);
	for (int i = 0; i < lanes; ++i)
		tb_contact_block_set_lane(blk, i, constraints + refs[i], surfaces, surface_count);
}

bool tb_prepare_contact_block(tb_contact_block *blk, tb_block_surface *surface,
                              const tb_contact_constraint *constraints, const int32_t *indices, int32_t count)
{
	TB_ASSERT(((uintptr_t)surface & 31u) == 0);
	int32_t surface_count = 0;
	tb_contact_block_fill(blk, constraints, indices, count, surface, &surface_count);
	return surface_count > 0;
}

void tb_store_contact_block(const tb_contact_block *blk, const tb_block_surface *surface,
                            tb_contact_constraint *constraints, const int32_t *refs)
{
	for (int i = 0; i < blk->lane_count; ++i) {
		tb_contact_constraint *cc = constraints + refs[i];
		if (surface != NULL) cc->rolling_impulse = surface->rolling_impulse[i];
		for (int j = 0; j < cc->point_count; ++j) {
			const tb_block_point *bp = blk->points + j;
			tb_constraint_point *cp = cc->points + j;
			cp->normal_impulse = bp->normal_impulse[i];
			cp->tangent_impulse = bp->tangent_impulse[i];
			cp->max_normal_impulse = bp->max_normal_impulse[i];
		}
	}
}

/* ---------------------------------------------------------------- the step's drivers */

/* The step's surface records, NULL in a step without any. */
static tb_block_surface *step_surfaces(tb_constraint_graph *g)
{
	return g->surfaces.count > 0 ? g->surfaces.data : NULL;
}

/* The overflow: its records in w->constraints at the refs g->order lists, in slot order. */
static const int32_t *overflow_list(const tb_constraint_graph *g, int32_t *count)
{
	*count = g->order.count;
	return g->order.data;
}

void tb_warm_start_contacts_wide(tb_world *w, tb_step_context *ctx)
{
	tb_constraint_graph *g = &w->graph;
	int32_t overflow_count;
	const int32_t *overflow = overflow_list(g, &overflow_count);
	tb_warm_start_contact_list(w->constraints.data, overflow, overflow_count, ctx->states);
	/* a colour at a time: a path may take two of a colour's blocks side by side */
	const tb_block_surface *surfaces = step_surfaces(g);
	for (int c = 0; c < TB_GRAPH_COLOR_COUNT; ++c) {
		int32_t first = g->block_start[c], count = g->block_start[c + 1] - first;
		if (count > 0) w->kernels->warm_start(g->blocks.data + first, count, surfaces, ctx->states);
	}
}

void tb_solve_contacts_wide(tb_world *w, tb_step_context *ctx, bool use_bias)
{
	tb_constraint_graph *g = &w->graph;
	/* the whole sequence (overflow, then colours in order) runs reversed on odd substeps */
	bool backward = (ctx->substep_index & 1) != 0;
	int32_t overflow_count;
	const int32_t *overflow = overflow_list(g, &overflow_count);
	if (!backward)
		tb_solve_contact_list(w->constraints.data, overflow, overflow_count, ctx->states, ctx, use_bias, false);
	tb_block_surface *surfaces = step_surfaces(g);
	for (int cc = 0; cc < TB_GRAPH_COLOR_COUNT; ++cc) {
		int c = backward ? TB_GRAPH_COLOR_COUNT - 1 - cc : cc;
		int32_t first = g->block_start[c], count = g->block_start[c + 1] - first;
		if (count > 0) w->kernels->solve(g->blocks.data + first, count, surfaces, ctx->states, ctx, use_bias);
	}
	if (backward) tb_solve_contact_list(w->constraints.data, overflow, overflow_count, ctx->states, ctx, use_bias, true);
}
