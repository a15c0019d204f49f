/* tumble physics: the solver's kernel table, one per instruction set
 * (engine-private).
 *
 * A world runs one path, chosen once (tb_world_set_solver_path; AUTO: the
 * widest the CPU has), and every substep's inner loops go through its table:
 * the contact blocks (contact_solver_lanes.h), the pin blocks
 * (joint_solver_lanes.h) and the integration of the body states. Each path
 * lives in a file of its own:
 *
 *   solver_kernels_scalar.c   one lane at a time in plain C
 *   solver_kernels_sse2.c     a block as two vectors of four (SSE2 is part of
 *                             x86_64; elsewhere the same code runs on a plain
 *                             four-float struct)
 *   solver_kernels_avx2.c     a block in one vector of eight (the only file
 *                             built with -mavx2)
 *   solver_kernels_avx512.c   two blocks of a colour in one vector of sixteen
 *                             (the only file built with -mavx512f)
 *
 * and solver_kernels.c chooses among them. No lane reads another, so the four
 * give the same bits (tests/physics/test_contact_solver.c,
 * tests/physics/test_determinism.c). */
#ifndef TB_SOLVER_KERNELS_H
#define TB_SOLVER_KERNELS_H

#include "contact_solver.h"

#include <stddef.h>

/* Every path reads a body state as eight floats (two rows of four). */
_Static_assert(sizeof(tb_body_state) == 8 * sizeof(float), "tb_body_state is read as eight floats");
_Static_assert(offsetof(tb_body_state, angular_velocity) == 2 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(offsetof(tb_body_state, flags) == 3 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(offsetof(tb_body_state, dp) == 4 * sizeof(float), "v, angular velocity, flags, dp, dq");
_Static_assert(offsetof(tb_body_state, dq) == 6 * sizeof(float), "v, angular velocity, flags, dp, dq");

typedef struct tb_solver_kernels {
	/* The contacts: warm start and solve of `count` blocks, all of one colour
	 * (a path may solve several side by side). surfaces: the records the
	 * blocks' `surface` indices name, or NULL when no block of the step has
	 * one (then no block's index is even read). */
	void (*warm_start)(tb_contact_block *blocks, int32_t count, const tb_block_surface *surfaces,
	                   tb_body_state *states);
	void (*solve)(tb_contact_block *blocks, int32_t count, tb_block_surface *surfaces, tb_body_state *states,
	              const tb_step_context *ctx, bool use_bias);
	/* The joints: the pins' blocks, as tb_joint_rows_warm_start and _solve do a pin row. */
	void (*pin_warm_start)(tb_pin_block *blocks, int32_t count, tb_body_state *states, const tb_step_context *ctx);
	void (*pin_solve)(tb_pin_block *blocks, int32_t count, tb_body_state *states, const tb_step_context *ctx,
	                  bool use_bias);
	/* The bodies: a substep's velocity update of n states from their motions
	 * (damping, then gravity and the applied forces, speed capped at max_speed
	 * and spin at max_rotation; kinematic states are left alone), and its
	 * position update (dp += h v, dq turned by h w and normalised). */
	void (*integrate_velocities)(tb_body_state *states, const tb_body_motion *motions, int32_t n, float max_speed,
	                             float max_rotation);
	void (*integrate_positions)(tb_body_state *states, int32_t n, float h);
} tb_solver_kernels;

/* The kernels of a path (TB_SOLVER_PATH_SCALAR, _SSE2, _AVX2 or _AVX512), NULL
 * when this build or CPU has not got it (solver_kernels.c). */
const tb_solver_kernels *tb_solver_kernels_for(tb_solver_path path);
/* The path AUTO means on this machine: TB_SOLVER_PATH in the environment if it
 * names one this CPU has (scalar, sse2, avx2, avx512), else the widest it has,
 * AVX-512 only where the CPU prefers it (tb_cpu_prefers_avx512). */
tb_solver_path tb_default_solver_path(void);
/* Whether the CPU has AVX-512F and runs it at full clock (it also has IFMA:
 * Ice Lake and later, Zen 4 and later); else AUTO takes AVX2. */
bool tb_cpu_prefers_avx512(void);

/* Each path's table, from its own file, whatever the CPU: the AVX2 and AVX-512
 * ones are NULL unless their file was built for the instruction set. */
const tb_solver_kernels *tb_solver_kernels_scalar(void);
const tb_solver_kernels *tb_solver_kernels_sse2(void);
const tb_solver_kernels *tb_solver_kernels_avx2(void);
const tb_solver_kernels *tb_solver_kernels_avx512(void);

/* The integration loops: one state at a time (solver_kernels_scalar.c), and
 * four at a time where there is SSE2 (solver_kernels_sse2.c; the AVX2 and
 * AVX-512 paths take these too), which match the first bit for bit. */
void tb_integrate_velocities_scalar(tb_body_state *states, const tb_body_motion *motions, int32_t n, float max_speed,
                                    float max_rotation);
void tb_integrate_positions_scalar(tb_body_state *states, int32_t n, float h);
void tb_integrate_velocities_sse2(tb_body_state *states, const tb_body_motion *motions, int32_t n, float max_speed,
                                  float max_rotation);
void tb_integrate_positions_sse2(tb_body_state *states, int32_t n, float h);

#endif
