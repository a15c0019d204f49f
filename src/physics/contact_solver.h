/* tumble physics: the contact constraints and the two solvers that run them
 * (engine-private): the scalar one (contact_solver.c), for constraints that
 * found no graph colour, and the wide one (contact_solver_wide.c), four
 * constraints of one colour at a time. Both compute the same maths, rounding
 * for rounding; tests/physics/test_contact_solver.c holds them to it. */
#ifndef TB_CONTACT_SOLVER_H
#define TB_CONTACT_SOLVER_H

#include "solver.h"

typedef struct tb_world tb_world;

/* Per-step contact constraint, contiguous, streamed by the solver. */
typedef struct tb_constraint_point {
	tb_vec2 anchor_a, anchor_b;      /* relative to the centres of mass, fixed for the step */
	float base_separation;           /* separation minus the anchor term, so s = dot(d, n) + base */
	float relative_velocity;         /* normal velocity at prepare, for restitution and hits */
	float normal_impulse, tangent_impulse, max_normal_impulse;
	float normal_mass, tangent_mass;
} tb_constraint_point;

typedef struct tb_contact_constraint {
	int32_t state_a, state_b;        /* -1: immovable this step */
	int32_t contact;
	int32_t point_count;
	tb_vec2 normal;
	float inv_mass_a, inv_i_a, inv_mass_b, inv_i_b;
	float friction, restitution;
	float push_max;                  /* cap on the push-out speed, m/s */
	tb_softness softness;
	tb_constraint_point points[2];
} tb_contact_constraint;

TB_ARRAY_DECLARE(tb_contact_constraint_array, tb_contact_constraint)

/* One contact point of four constraints. */
typedef struct tb_block_point {
	float anchor_ax[4], anchor_ay[4], anchor_bx[4], anchor_by[4];
	float base_separation[4];
	float relative_velocity[4];
	float normal_impulse[4], tangent_impulse[4], max_normal_impulse[4];
	float normal_mass[4], tangent_mass[4];
} tb_block_point;

/* Four constraints of one colour, structure of arrays, loaded with aligned
 * SIMD loads: the block array's allocator aligns it (core.h). An unused lane
 * (the tail of a colour) is a constraint with no mass between two immovable
 * bodies: it computes zeros and is never written back. A one-point manifold's
 * second point is the same: no mass, no impulse. */
typedef struct tb_contact_block {
	_Alignas(16) int32_t state_a[4];
	int32_t state_b[4];
	int32_t constraint[4];     /* into the constraint array, -1 for an unused lane */
	float normal_x[4], normal_y[4];
	float inv_mass_a[4], inv_i_a[4], inv_mass_b[4], inv_i_b[4];
	float friction[4], restitution[4], push_max[4];
	float bias_rate[4], mass_scale[4], impulse_scale[4];
	tb_block_point points[2];
} tb_contact_block;

_Static_assert(TB_ALIGNMENT % _Alignof(tb_contact_block) == 0, "the allocator aligns contact blocks");

TB_ARRAY_DECLARE(tb_contact_block_array, tb_contact_block)

/* ---- contact_solver.c ---- */
/* Fills w->constraints (their contacts gathered by the solver) for the step. */
void tb_prepare_contacts(tb_world *w, const tb_step_context *ctx);
/* The scalar solver, over the constraints at list[0 .. count). */
void tb_warm_start_contact_list(tb_contact_constraint *constraints, const int32_t *list, int32_t count,
                                tb_body_state *states);
void tb_solve_contact_list(tb_contact_constraint *constraints, const int32_t *list, int32_t count,
                           tb_body_state *states, const tb_step_context *ctx, bool use_bias, bool backward);
/* Impulses back into the manifolds for warm starting, and hit events. */
void tb_store_impulses(tb_world *w);

/* ---- contact_solver_wide.c ---- */
/* One block from up to four constraints (indices[0 .. count), no two sharing
 * an awake body); the rest of the lanes stay unused. */
void tb_prepare_contact_block(tb_contact_block *block, const tb_contact_constraint *constraints,
                              const int32_t *indices, int32_t count);
void tb_warm_start_contact_block(tb_contact_block *block, tb_body_state *states);
void tb_solve_contact_block(tb_contact_block *block, tb_body_state *states, const tb_step_context *ctx,
                            bool use_bias);
/* The block's impulses back into its constraints. */
void tb_store_contact_block(const tb_contact_block *block, tb_contact_constraint *constraints);
/* The step's drivers: every colour's blocks, the overflow through the scalar solver. */
void tb_prepare_contacts_wide(tb_world *w); /* after tb_prepare_contacts and tb_color_constraints */
void tb_warm_start_contacts_wide(tb_world *w, tb_step_context *ctx);
void tb_solve_contacts_wide(tb_world *w, tb_step_context *ctx, bool use_bias);
void tb_store_impulses_wide(tb_world *w); /* back into w->constraints, before tb_store_impulses */

#endif
