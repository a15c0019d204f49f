/* tumble physics: the solver's scalar path, one constraint of a block and one
 * body at a time: the wide solver's maths (contact_solver_lanes.h,
 * joint_solver_lanes.h) in plain C on one lane, and the integration loops the
 * SSE2 ones match bit for bit. */
#include "world.h"

#define LANES 1
#define KERNEL(name) name##_scalar
#define BLOCKS_PER_VECTOR 1
#include "contact_solver_portable.h"
#include "contact_solver_lanes.h"
#include "joint_solver_lanes.h"

/* ---- the bodies ---- */

void tb_integrate_velocities_scalar(tb_body_state *states, const tb_body_motion *motions, int32_t n, float max_speed,
                                    float max_rotation)
{
	for (int32_t k = 0; k < n; ++k) {
		const tb_body_motion *m = motions + k;
		if (!m->dynamic) continue;
		tb_body_state *st = states + k;
		tb_vec2 v = tb_add(tb_mul_sv(m->linear_factor, st->linear_velocity), m->dv);
		float av = m->angular_factor * st->angular_velocity + m->dw;
		float speed_sq = tb_length_sq(v);
		if (speed_sq > max_speed * max_speed) v = tb_mul_sv(max_speed / hypotf(v.x, v.y), v); /* hypot: no overflow */
		if (av * av > max_rotation * max_rotation) av = av > 0.0f ? max_rotation : -max_rotation;
		st->linear_velocity = v;
		st->angular_velocity = av;
	}
}

void tb_integrate_positions_scalar(tb_body_state *states, int32_t n, float h)
{
	for (int32_t k = 0; k < n; ++k) {
		tb_body_state *st = states + k;
		st->dq = tb_integrate_rot(st->dq, h * st->angular_velocity);
		st->dp = tb_mul_add(st->dp, h, st->linear_velocity);
	}
}

static const tb_solver_kernels kernels = {warm_start_blocks_scalar,     solve_blocks_scalar,
                                          pin_warm_start_blocks_scalar, pin_solve_blocks_scalar,
                                          tb_integrate_velocities_scalar, tb_integrate_positions_scalar};

const tb_solver_kernels *tb_solver_kernels_scalar(void) { return &kernels; }
