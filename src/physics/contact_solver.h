/* tumble physics: the contact constraints and the two solvers that run them
 * (engine-private): the scalar one (contact_solver.c), for constraints that
 * found no graph colour, and the wide one, eight constraints of one colour at
 * a time in blocks (contact_blocks.c) solved by the world's path
 * (solver_kernels.h, contact_solver_lanes.h). Both compute the same maths, rounding
 * for rounding; tests/physics/test_contact_solver.c holds them to it. */
#ifndef TB_CONTACT_SOLVER_H
#define TB_CONTACT_SOLVER_H

#include "solver.h"

typedef struct tb_world tb_world;

/* A contact constraint for the step: what prepare computes for each contact
 * before it goes into its block's lane, and the overflow's own record (the
 * scalar solver runs the overflow from w->constraints). */
typedef struct tb_constraint_point {
	tb_vec2 anchor_a, anchor_b;      /* relative to the centres of mass, fixed for the step */
	float base_separation;           /* separation minus the anchor term, so s = dot(d, n) + base */
	float normal_impulse, tangent_impulse, max_normal_impulse;
	float normal_mass, tangent_mass;
	float relative_velocity;         /* normal velocity at prepare, for restitution */
} tb_constraint_point;

typedef struct tb_contact_constraint {
	int32_t state_a, state_b;        /* -1: immovable this step */
	int32_t contact;
	int32_t point_count;
	tb_vec2 normal;
	float inv_mass_a, inv_i_a, inv_mass_b, inv_i_b;
	float friction;
	float push_max;                  /* cap on the push-out speed, m/s */
	float restitution;
	/* (the spring is the step's: tb_contact_softness) */
	tb_constraint_point points[2];
	/* surfaces: the speed friction drives the tangent velocity to, and rolling
	 * resistance on the relative spin (a torque up to rolling_resistance times
	 * the normal force; 0 for nearly every contact) */
	float tangent_speed;
	float rolling_resistance, rolling_mass, rolling_impulse;
} tb_contact_constraint;

TB_ARRAY_DECLARE(tb_contact_constraint_array, tb_contact_constraint)

/* A contact's spring: against an immovable body (no mass on one side) a
 * stiffer one is stable and keeps piles from sinking. Every solver path
 * chooses it from the constraint's masses, so no record or block carries it. */
static inline tb_softness tb_contact_softness(const tb_step_context *ctx, float inv_mass_a, float inv_mass_b)
{
	return (inv_mass_a == 0.0f || inv_mass_b == 0.0f) ? ctx->static_softness : ctx->contact_softness;
}

/* A record's lines, wherever it starts (prepare fills the blocks from them). */
static inline void tb_prefetch_constraint(const tb_contact_constraint *cc)
{
	const char *p = (const char *)cc;
	for (size_t at = 0; at < sizeof *cc; at += 64) __builtin_prefetch(p + at);
	__builtin_prefetch(p + sizeof *cc - 1);
}

/* The lanes of a block: eight, the AVX2 width. The SSE2 path runs a block as
 * two vectors of four, the scalar path lane by lane, the AVX-512 path two
 * blocks at once; all four give the same bits (contact_solver_lanes.h). */
#define TB_BLOCK_LANES 8

/* One contact point of a block's constraints. */
typedef struct tb_block_point {
	float anchor_ax[TB_BLOCK_LANES], anchor_ay[TB_BLOCK_LANES], anchor_bx[TB_BLOCK_LANES], anchor_by[TB_BLOCK_LANES];
	float base_separation[TB_BLOCK_LANES];
	float normal_impulse[TB_BLOCK_LANES], tangent_impulse[TB_BLOCK_LANES], max_normal_impulse[TB_BLOCK_LANES];
	float normal_mass[TB_BLOCK_LANES], tangent_mass[TB_BLOCK_LANES];
} tb_block_point;

/* Up to eight constraints of one colour, structure of arrays, loaded with
 * aligned SIMD loads: the block array's allocator aligns it (core.h). An unused
 * lane (the tail of a colour) is a constraint with no mass between two
 * immovable bodies: it computes zeros and is never written back. A one-point
 * manifold's second point is the same: no mass, no impulse. Each pass of the
 * solver streams every block, so a block holds only what every pass reads:
 * the spring is the step's (chosen by the masses, tb_contact_softness), the
 * lanes' constraints are the graph's lane refs, and what only a bounce reads
 * lives with the rare surfaces. */
typedef struct tb_contact_block {
	_Alignas(32) int32_t state_a[TB_BLOCK_LANES];
	int32_t state_b[TB_BLOCK_LANES];
	float normal_x[TB_BLOCK_LANES], normal_y[TB_BLOCK_LANES];
	float inv_mass_a[TB_BLOCK_LANES], inv_i_a[TB_BLOCK_LANES], inv_mass_b[TB_BLOCK_LANES], inv_i_b[TB_BLOCK_LANES];
	float friction[TB_BLOCK_LANES], push_max[TB_BLOCK_LANES];
	tb_block_point points[2];
	int32_t lane_count; /* lanes in use, the first ones */
	int32_t surface;    /* its lanes' surfaces in the graph's `surfaces`, or -1 */
} tb_contact_block;

/* Conveyors, rolling resistance and restitution are rare, so their lanes live
 * apart from the blocks, only for the blocks that have them (a lane without
 * them holds zeros): plain piles keep their blocks small and a step without
 * any surface does not look for them. Only the relax reads the bounce. */
typedef struct tb_block_surface {
	_Alignas(32) float tangent_speed[TB_BLOCK_LANES];
	float rolling_resistance[TB_BLOCK_LANES], rolling_mass[TB_BLOCK_LANES], rolling_impulse[TB_BLOCK_LANES];
	float restitution[TB_BLOCK_LANES];
	float relative_velocity[2][TB_BLOCK_LANES]; /* each point's normal velocity at prepare */
} tb_block_surface;

_Static_assert(TB_ALIGNMENT % _Alignof(tb_contact_block) == 0, "the allocator aligns contact blocks");
_Static_assert(TB_ALIGNMENT % _Alignof(tb_block_surface) == 0, "the allocator aligns block surfaces");

TB_ARRAY_DECLARE(tb_contact_block_array, tb_contact_block)
TB_ARRAY_DECLARE(tb_block_surface_array, tb_block_surface)

/* Up to eight pins (revolute joints with no spring, motor or limit: chains,
 * ropes, grids) that share no awake body, solved side by side by the same
 * paths as the contacts (joint_solver_lanes.h) from the rows' numbers
 * (joint.h): the anchors, masses and impulse, and the point frame the last
 * relax measured. */
typedef struct tb_pin_block {
	_Alignas(32) int32_t state_a[TB_BLOCK_LANES];
	int32_t state_b[TB_BLOCK_LANES];
	int32_t row[TB_BLOCK_LANES]; /* the lane's row in w->joint_rows */
	float frame_ax[TB_BLOCK_LANES], frame_ay[TB_BLOCK_LANES], frame_bx[TB_BLOCK_LANES], frame_by[TB_BLOCK_LANES];
	float delta_x[TB_BLOCK_LANES], delta_y[TB_BLOCK_LANES];
	float inv_mass_a[TB_BLOCK_LANES], inv_mass_b[TB_BLOCK_LANES], inv_i_a[TB_BLOCK_LANES], inv_i_b[TB_BLOCK_LANES];
	float impulse_x[TB_BLOCK_LANES], impulse_y[TB_BLOCK_LANES];
	float rax[TB_BLOCK_LANES], ray[TB_BLOCK_LANES], rbx[TB_BLOCK_LANES], rby[TB_BLOCK_LANES];
	float k11[TB_BLOCK_LANES], k12[TB_BLOCK_LANES], k22[TB_BLOCK_LANES], det[TB_BLOCK_LANES];
	int32_t lane_count;
} tb_pin_block;

_Static_assert(TB_ALIGNMENT % _Alignof(tb_pin_block) == 0, "the allocator aligns pin blocks");
TB_ARRAY_DECLARE(tb_pin_block_array, tb_pin_block)

/* ---- contact_solver.c ---- */
/* Fills the step's constraints, coloured by tb_color_constraints: the
 * coloured ones into their blocks' lanes, block by block; the overflow's into
 * their records in w->constraints (at their refs' indices), which it is
 * solved from. */
void tb_prepare_contacts(tb_world *w, const tb_step_context *ctx);
/* The scalar solver, over the constraints at list[0 .. count). */
void tb_warm_start_contact_list(tb_contact_constraint *constraints, const int32_t *list, int32_t count,
                                tb_body_state *states);
void tb_solve_contact_list(tb_contact_constraint *constraints, const int32_t *list, int32_t count,
                           tb_body_state *states, const tb_step_context *ctx, bool use_bias, bool backward);
/* The step's drivers: every colour's blocks through the world's path, the
 * overflow through the scalar solver. */
void tb_warm_start_contacts_wide(tb_world *w, tb_step_context *ctx);
void tb_solve_contacts_wide(tb_world *w, tb_step_context *ctx, bool use_bias);
/* Impulses back into the manifolds for warm starting (from the blocks and
 * the overflow records), and hit events, in slot order. */
void tb_store_impulses(tb_world *w);

/* ---- contact_blocks.c ---- */
/* An empty block for `lane_count` lanes (the first ones); the unused lanes
 * have no bodies and no mass. */
void tb_contact_block_init(tb_contact_block *blk, int32_t lane_count);
/* A lane's surface, if it has one (see tb_contact_block_set_lane). */
static inline void tb_contact_block_set_surface(tb_contact_block *blk, int i, const tb_contact_constraint *cc,
                                                tb_block_surface *surfaces, int32_t *surface_count)
{
	if (cc->tangent_speed != 0.0f || cc->rolling_resistance > 0.0f || cc->restitution > 0.0f) {
		/* a record only for a block that has a lane with a surface */
		if (blk->surface < 0) {
			blk->surface = (*surface_count)++;
			memset(surfaces + blk->surface, 0, sizeof *surfaces);
		}
		tb_block_surface *surface = surfaces + blk->surface;
		surface->tangent_speed[i] = cc->tangent_speed;
		surface->rolling_resistance[i] = cc->rolling_resistance;
		surface->rolling_mass[i] = cc->rolling_mass;
		surface->rolling_impulse[i] = cc->rolling_impulse;
		surface->restitution[i] = cc->restitution;
		for (int j = 0; j < cc->point_count; ++j) surface->relative_velocity[j][i] = cc->points[j].relative_velocity;
	}
}
/* A block about to take `lanes` lanes: a full block is only labelled, since
 * tb_contact_block_set_lane then writes every lane array of every lane; a
 * colour's last, partial block is cleared first (its unused lanes hold a
 * constraint with no mass between immovable bodies). */
void tb_contact_block_begin(tb_contact_block *blk, int32_t lanes);
static inline void tb_block_point_set_lane(tb_block_point *bp, int i, const tb_constraint_point *cp)
{
	bp->anchor_ax[i] = cp->anchor_a.x;
	bp->anchor_ay[i] = cp->anchor_a.y;
	bp->anchor_bx[i] = cp->anchor_b.x;
	bp->anchor_by[i] = cp->anchor_b.y;
	bp->base_separation[i] = cp->base_separation;
	bp->normal_impulse[i] = cp->normal_impulse;
	bp->tangent_impulse[i] = cp->tangent_impulse;
	bp->max_normal_impulse[i] = cp->max_normal_impulse;
	bp->normal_mass[i] = cp->normal_mass;
	bp->tangent_mass[i] = cp->tangent_mass;
}
/* One lane from a constraint (no two lanes of a block may share an awake
 * body): every lane array, both points (a one-point constraint's record holds
 * zeros in its second point, as prepare leaves it). Its surface, if any, goes
 * to the block's record in `surfaces`, taken from *surface_count for the
 * block's first lane with one. */
static inline void tb_contact_block_set_lane(tb_contact_block *blk, int lane, const tb_contact_constraint *cc,
                                             tb_block_surface *surfaces, int32_t *surface_count)
{
	int i = lane;
	blk->state_a[i] = cc->state_a;
	blk->state_b[i] = cc->state_b;
	blk->normal_x[i] = cc->normal.x;
	blk->normal_y[i] = cc->normal.y;
	blk->inv_mass_a[i] = cc->inv_mass_a;
	blk->inv_i_a[i] = cc->inv_i_a;
	blk->inv_mass_b[i] = cc->inv_mass_b;
	blk->inv_i_b[i] = cc->inv_i_b;
	blk->friction[i] = cc->friction;
	blk->push_max[i] = cc->push_max;
	/* both points by constant index: prepare's record then stays in registers */
	tb_block_point_set_lane(blk->points + 0, i, cc->points + 0);
	tb_block_point_set_lane(blk->points + 1, i, cc->points + 1);
	tb_contact_block_set_surface(blk, i, cc, surfaces, surface_count);
}
/* A block from up to eight constraints (indices[0 .. count)); its surfaces go
 * to *surface, written only when a lane has one; returns whether one did (the
 * block's `surface` is then 0). */
bool tb_prepare_contact_block(tb_contact_block *block, tb_block_surface *surface,
                              const tb_contact_constraint *constraints, const int32_t *indices, int32_t count);
/* The block's impulses back into its lanes' constraints, constraints[refs[i]]
 * (surface: its record or NULL). */
void tb_store_contact_block(const tb_contact_block *block, const tb_block_surface *surface,
                            tb_contact_constraint *constraints, const int32_t *refs);
#endif
