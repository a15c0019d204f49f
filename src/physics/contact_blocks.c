/* tumble physics: the contact blocks (contact_solver.h): made from
 * constraint records lane by lane, and their impulses stored back. */
#include "world.h"

void tb_contact_block_init(tb_contact_block *blk, int32_t lane_count)
{
	TB_ASSERT(((uintptr_t)blk & 31u) == 0 && 0 < lane_count && lane_count <= TB_BLOCK_LANES);
	memset(blk, 0, sizeof *blk);
	blk->lane_count = lane_count;
	blk->surface = TB_NULL_INDEX;
	for (int i = 0; i < TB_BLOCK_LANES; ++i) blk->state_a[i] = blk->state_b[i] = TB_NULL_INDEX;
}

void tb_contact_block_begin(tb_contact_block *blk, int32_t lanes)
{
	if (lanes < TB_BLOCK_LANES) {
		tb_contact_block_init(blk, lanes);
	} else {
		blk->lane_count = lanes;
		blk->surface = TB_NULL_INDEX;
	}
}

bool tb_prepare_contact_block(tb_contact_block *blk, tb_block_surface *surface,
                              const tb_contact_constraint *constraints, const int32_t *indices, int32_t count)
{
	TB_ASSERT(((uintptr_t)surface & 31u) == 0);
	int32_t surface_count = 0;
	tb_contact_block_begin(blk, count);
	for (int i = 0; i < count; ++i) tb_contact_block_set_lane(blk, i, constraints + indices[i], surface, &surface_count);
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
