/* tumble physics: the solver's data, shared by the contact and joint solvers.
 *
 * The step follows Box2D v3's "soft step": per substep, integrate velocities,
 * warm start, solve with a soft position bias, integrate positions, relax
 * without bias; then restitution and store impulses. Positions are tracked as
 * deltas (dp, dq) from the start of the step so constraints can measure their
 * current error from anchors computed once in prepare. */
#ifndef TB_SOLVER_H
#define TB_SOLVER_H

#include "core.h"

/* Per awake body, contiguous, streamed by every solver loop. 32 bytes. */
typedef struct tb_body_state {
	tb_vec2 linear_velocity; /* of the centre of mass */
	float angular_velocity;
	uint32_t flags;
	tb_vec2 dp;     /* centre-of-mass displacement since the step began */
	tb_rot dq;      /* rotation since the step began */
} tb_body_state;

/* Per awake body, filled once per step: the velocity change of one substep from
 * gravity and the applied force and torque, and the damping factors, so the
 * substep loop reads one small contiguous record instead of the body. */
typedef struct tb_body_motion {
	tb_vec2 dv;
	float dw;
	float linear_factor, angular_factor; /* 1 / (1 + h * damping): implicit, stable for any damping */
	uint32_t dynamic;                    /* 0: kinematic, the velocity is left alone */
	/* for preparing its contacts, so they need not read the body: */
	float inv_mass, inv_inertia;
	tb_vec2 center_offset;               /* centre of mass from the origin, world frame */
	int32_t contact_count;
} tb_body_motion;

/* Per body slot: transform and mass, read in prepare, written in finalize. */
typedef struct tb_body_sim {
	tb_transform transform;  /* of the origin */
	tb_vec2 center;          /* world centre of mass */
	tb_rot rotation0;        /* at the start of the step (continuous collision sweeps) */
	tb_vec2 center0;
	tb_vec2 local_center;
	tb_vec2 linear_velocity; /* of the centre of mass, kept here between steps */
	float angular_velocity;
	tb_vec2 force;           /* accumulated by apply_force, cleared after the step */
	float torque;
	float inv_mass, inv_inertia;
	float min_extent, max_extent; /* smallest shape half-size and largest reach from the centre */
	float linear_damping, angular_damping, gravity_scale;
	int32_t state_index;     /* into tb_step_context.states during a step, -1 if not simulated */
	bool is_bullet;
	bool is_fast;            /* moved far enough this step to need continuous collision */
	uint8_t type;            /* the body's (tb_body_type), for the narrow phase's pair tests */
} tb_body_sim;

TB_ARRAY_DECLARE(tb_body_state_array, tb_body_state)
TB_ARRAY_DECLARE(tb_body_motion_array, tb_body_motion)
TB_ARRAY_DECLARE(tb_body_sim_array, tb_body_sim)

/* Soft constraint coefficients for a stiffness (hertz) and damping ratio at a substep h. */
typedef struct tb_softness { float bias_rate, mass_scale, impulse_scale; } tb_softness;

static inline tb_softness tb_make_soft(float hertz, float zeta, float h)
{
	if (hertz == 0.0f) {
		tb_softness rigid = {0.0f, 1.0f, 0.0f};
		return rigid;
	}
	float omega = 2.0f * TB_PI * hertz;
	float a1 = 2.0f * zeta + h * omega;
	float a2 = h * omega * a1;
	float a3 = 1.0f / (1.0f + a2);
	tb_softness s = {omega / a1, a2 * a3, a3};
	return s;
}

typedef struct tb_step_context {
	float dt, inv_dt;        /* full step */
	float h, inv_h;          /* substep */
	int substeps;
	int substep_index;
	tb_body_sim *sims;       /* by body slot */
	tb_body_state *states;   /* by sim->state_index */
	tb_softness joint_softness, contact_softness, static_softness;
	float restitution_threshold;
	float max_linear_speed;
	float contact_push_max;  /* max_contact_push_speed */
	bool enable_warm_starting;
	bool enable_position_correction;
} tb_step_context;

/* A body's state for solving: static and sleeping bodies read as a zero state
 * whose writes are discarded. */
static const tb_body_state tb_identity_body_state = {{0.0f, 0.0f}, 0.0f, 0, {0.0f, 0.0f}, {1.0f, 0.0f}};

/* The state a constraint's index names, as floats for the wide paths' gathers:
 * immovable bodies read as the identity state (and are never written). */
static inline const float *tb_state_floats(const tb_body_state *states, int32_t index)
{
	return (const float *)(index >= 0 ? states + index : &tb_identity_body_state);
}

#endif
