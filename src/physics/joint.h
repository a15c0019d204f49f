/* tumble physics: joints (internal). world.c owns the pool and the body links;
 * joint.c owns the solver and the per-kind behaviour. */
#ifndef TB_JOINT_H
#define TB_JOINT_H

#include "solver.h"

/* What every joint's solve reads most: the anchors, the masses and the point
 * impulse. A plain pin (revolute without spring, motor or limit, the bulk of
 * chains, ropes and grids) needs nothing else, so the step copies it with its
 * state indices into a 64-byte row and solves the rows, not the 300-byte joints. */
typedef struct tb_joint_point {
	tb_vec2 frame_a, frame_b;  /* anchors relative to the centres of mass, world orientation at step start */
	tb_vec2 delta_center;      /* center_b - center_a at step start */
	float inv_mass_a, inv_mass_b, inv_i_a, inv_i_b;
	tb_vec2 linear_impulse;    /* point constraints */
} tb_joint_point;

typedef struct tb_joint_row {
	int32_t state_a, state_b;  /* -1: immovable this step */
	int32_t joint;             /* slot in world->joints */
	int32_t pin;               /* 1: solved here from pt alone; 0: by the joint's own solve */
	tb_joint_point pt;
} tb_joint_row;

typedef struct tb_joint {
	/* ---- managed by world.c ---- */
	tb_joint_def def;          /* kind, ids, anchors and the tunables; def.body_a/b are ids */
	int32_t body_a, body_b;    /* body slots */
	uint32_t generation;
	bool in_use;
	int32_t next_free;
	int32_t edge_prev[2], edge_next[2]; /* joint keys (index << 1 | edge) in each body's list */
	bool is_active;            /* both bodies enabled; set by world.c before the step */

	/* ---- solver state, owned by joint.c ---- */
	int32_t state_a, state_b;  /* copied from the sims in prepare */
	tb_joint_point pt;
	float delta_angle;         /* angle_b - angle_a - reference at step start */
	tb_vec2 axis_a;            /* prismatic axis, world, at step start */
	float axial_mass;
	tb_softness spring_softness, linear_softness, angular_softness;
	float angular_impulse;
	float axial_impulse;       /* prismatic perpendicular / distance rigid */
	float spring_impulse, motor_impulse, lower_impulse, upper_impulse;
	float last_inv_h;          /* to turn impulses into forces */
} tb_joint;

/* Checks a def's numbers and kind-specific rules (bodies are checked by world.c). */
tb_status tb_joint_validate_def(const tb_joint_def *def);
/* Fills the solver part of a new joint (impulses zero). */
void tb_joint_init(tb_joint *joint);

void tb_joint_prepare(tb_joint *joint, tb_step_context *ctx);
/* The row of a prepared joint; tb_joint_store_row gives a pin's impulse back. */
tb_joint_row tb_joint_make_row(const tb_joint *joint, int32_t slot);
void tb_joint_store_row(tb_joint *joint, const tb_joint_row *row);
void tb_joint_warm_start(tb_joint *joint, tb_step_context *ctx);
void tb_joint_solve(tb_joint *joint, tb_step_context *ctx, bool use_bias);
/* Warm start and solve of the rows in order, pins inline, the rest by their joint. */
void tb_joint_rows_warm_start(tb_joint *joints, tb_joint_row *rows, int32_t count, tb_step_context *ctx);
void tb_joint_rows_solve(tb_joint *joints, tb_joint_row *rows, int32_t count, tb_step_context *ctx, bool use_bias);

/* Public accessors of physics.h that only need the joint record are in joint.c;
 * they find the joint and wake bodies through these (world.c): */
tb_joint *tb_world_joint_lookup(const tb_world *world, tb_joint_id id); /* NULL if stale */
const tb_body_sim *tb_world_body_sim(const tb_world *world, int32_t body_slot);
void tb_world_wake_body_slot(tb_world *world, int32_t body_slot);

void tb_joint_draw(const tb_world *world, const tb_joint *joint, const tb_debug_draw *draw);

#endif
