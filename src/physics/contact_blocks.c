/* tumble physics: the contact blocks (contact_solver.h): filled from the
 * step's constraint records, eight lanes of one colour at a time, and their
 * impulses stored back. A full block is filled by transposing the records'
 * rows four lanes at a time where there is SSE2 (bits are only moved); any
 * other block lane by lane. */
#include "world.h"

#include <stddef.h>

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
