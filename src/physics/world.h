/* tumble physics: the world's internal records (engine-private).
 *
 * Objects live in slot arrays indexed by id.index1 - 1; a freed slot goes on a
 * free list and its generation is bumped so old ids stop matching. Links between
 * objects are indices, never pointers, so arrays can grow (realloc) freely. */
#ifndef TB_WORLD_H
#define TB_WORLD_H

#include "constraint_graph.h"
#include "core.h"
#include "joint.h"
#include "solver.h"

#define TB_NULL_INDEX (-1)

typedef struct tb_body {
	void *user_data;
	int32_t head_shape, tail_shape; /* shapes in creation order (next_in_body) */
	int32_t shape_count;
	int32_t head_contact_key;       /* contact index << 1 | edge */
	int32_t contact_count;
	int32_t head_joint_key;         /* joint index << 1 | edge */
	int32_t joint_count;
	float mass, inertia;            /* inertia about the centre of mass */
	float sleep_threshold;          /* m/s */
	float sleep_time;
	uint32_t generation;
	int32_t next_free;
	int32_t island_parent;          /* visit mark for graph walks outside the step (-2 = visited) */
	tb_body_type type;
	bool in_use, awake, enabled, enable_sleep, fixed_rotation;
} tb_body;

typedef struct tb_shape {
	tb_geometry geom;
	void *user_data;
	tb_filter filter;
	tb_aabb aabb;       /* world box including the speculative margin */
	tb_aabb fat_aabb;   /* the box stored in the broad-phase tree */
	tb_field field;
	float density, friction, restitution;
	int32_t body;
	int32_t next_in_body, prev_in_body;
	int32_t proxy;      /* tree proxy or TB_NULL_INDEX when not in the broad phase */
	int32_t tree;       /* 0 static tree, 1 movable tree */
	int32_t chain_id;
	int32_t sensor_index; /* into world->sensors, or TB_NULL_INDEX */
	uint32_t generation;
	int32_t next_free;
	bool in_use, is_sensor, enabled, enable_sensor_events, enable_contact_events, enable_hit_events;
	bool in_move_buffer;
} tb_shape;

enum {
	TB_CONTACT_TOUCHING = 1u << 0,
	TB_CONTACT_EVENTS = 1u << 1,     /* begin/end wanted by a shape */
	TB_CONTACT_HIT_EVENTS = 1u << 2,
};

typedef struct tb_contact_edge { int32_t body, prev_key, next_key; } tb_contact_edge;

typedef struct tb_contact {
	tb_manifold manifold;
	tb_contact_edge edges[2];
	int32_t shape_a, shape_b;  /* a chain segment is always shape_a */
	float friction, restitution;
	uint32_t flags;
	int32_t next_free;
	bool in_use;
} tb_contact;

/* Open-addressed set of shape pairs -> contact index (linear probing with
 * backward-shift deletion, so no tombstones pile up). */
typedef struct tb_pair_entry { uint64_t key; int32_t contact; } tb_pair_entry;
typedef struct tb_pair_set {
	tb_pair_entry *entries;  /* key 0 = empty (shape indices are stored +1) */
	int32_t capacity, count;
} tb_pair_set;

typedef struct tb_broad_phase {
	tb_dynamic_tree trees[2];
	int32_t *move_buffer; /* shapes whose proxy was created or re-inserted this step */
	int32_t move_count, move_capacity;
	tb_pair_set pairs;
} tb_broad_phase;

typedef struct tb_sensor {
	int32_t shape;
	int32_t *overlaps;      /* visitor shape indices, sorted, last step */
	uint32_t *overlap_gens; /* their generations, to report stale ids faithfully */
	int32_t overlap_count, overlap_capacity;
	int32_t *next;          /* scratch for this step */
	uint32_t *next_gens;
	int32_t next_count, next_capacity;
	bool in_use;
} tb_sensor;

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

struct tb_world {
	tb_world_def def;

	tb_body *bodies;
	tb_body_sim *sims;      /* parallel to bodies */
	int32_t body_capacity, body_free, body_count;
	tb_shape *shapes;
	int32_t shape_capacity, shape_free, shape_count;
	tb_contact *contacts;
	int32_t contact_capacity, contact_free, contact_count;
	tb_joint *joints;
	int32_t joint_capacity, joint_free, joint_count;
	tb_sensor *sensors;
	int32_t sensor_capacity, sensor_free;
	int32_t next_chain_id;

	tb_broad_phase broad_phase;

	/* per-step scratch, kept between steps so steady state never allocates */
	tb_body_state *states;
	int32_t state_capacity;
	tb_body_motion *motions; /* parallel to states: what one substep adds to the velocity */
	int32_t motion_capacity;
	int32_t *awake_bodies;  /* body slot for each state index */
	int32_t awake_capacity;
	tb_contact_constraint *constraints;
	int32_t constraint_capacity, constraint_count;
	int32_t *active_joints;
	int32_t active_joint_capacity, active_joint_count;
	tb_joint_row *joint_rows;   /* parallel to active_joints during the step */
	int32_t joint_row_capacity;
	tb_constraint_graph graph;  /* colours and wide blocks of the constraints */
	int32_t *fast_bodies;
	int32_t fast_capacity;
	int32_t *stack;         /* graph traversal scratch */
	int32_t stack_capacity;
	int32_t *island_parent; /* union-find over state indices */
	float *island_sleep;    /* smallest sleep time per island root */
	int32_t island_capacity, island_sleep_capacity;
	int32_t *field_stamp;   /* per body: last field that pushed it this substep */
	int32_t field_stamp_capacity;
	int32_t *shape_scratch;
	int32_t shape_scratch_capacity;

	/* events of the last step */
	tb_contact_begin_event *begin_events;
	int32_t begin_count, begin_capacity;
	tb_contact_end_event *end_events;
	int32_t end_count, end_capacity;
	tb_contact_hit_event *hit_events;
	int32_t hit_count, hit_capacity;
	tb_sensor_event *sensor_begin_events;
	int32_t sensor_begin_count, sensor_begin_capacity;
	tb_sensor_event *sensor_end_events;
	int32_t sensor_end_count, sensor_end_capacity;
	/* end events caused by destroying objects between steps: they are reported
	 * with the next step, so arrays a caller is reading are never reallocated */
	tb_contact_end_event *pending_end_events;
	int32_t pending_end_count, pending_end_capacity;

	tb_profile profile;
	int32_t island_count;
	int32_t step_count;
	float inv_dt0;          /* inverse of the previous step's dt */
	bool locked;
};

/* ---- lookups (NULL for stale or null ids) ---- */
tb_body *tb_get_body(const tb_world *w, tb_body_id id);
tb_shape *tb_get_shape(const tb_world *w, tb_shape_id id);
static inline tb_body_id tb_make_body_id(const tb_world *w, int32_t slot)
{
	tb_body_id id = {slot + 1, w->bodies[slot].generation};
	return id;
}
static inline tb_shape_id tb_make_shape_id(const tb_world *w, int32_t slot)
{
	tb_shape_id id = {slot + 1, w->shapes[slot].generation};
	return id;
}
static inline tb_joint_id tb_make_joint_id(const tb_world *w, int32_t slot)
{
	tb_joint_id id = {slot + 1, w->joints[slot].generation};
	return id;
}

/* ---- body.c ---- */
void tb_update_body_mass(tb_world *w, int32_t body);
void tb_wake_body(tb_world *w, int32_t body);          /* wakes the body's island (touching graph) */
void tb_body_sleep_island(tb_world *w, int32_t body);  /* puts the touching graph to sleep */
void tb_update_body_shape_aabbs(tb_world *w, int32_t body, tb_vec2 displacement, bool force_reinsert);
bool tb_should_bodies_collide(const tb_world *w, int32_t body_a, int32_t body_b);
static inline bool tb_body_is_simulated(const tb_body *b) { return b->enabled && b->type != TB_STATIC_BODY; }

/* ---- shape.c ---- */
void tb_create_shape_proxy(tb_world *w, int32_t shape);
void tb_destroy_shape_proxy(tb_world *w, int32_t shape);
tb_aabb tb_compute_shape_aabb_margin(const tb_shape *s, tb_transform xf, float margin);
bool tb_should_shapes_collide(tb_filter a, tb_filter b);
void tb_destroy_shape_internal(tb_world *w, int32_t shape, bool wake);
float tb_shape_min_extent(const tb_shape *s);
float tb_shape_max_extent(const tb_shape *s, tb_vec2 local_center);

/* ---- broad_phase.c ---- */
void tb_broad_phase_init(tb_broad_phase *bp);
void tb_broad_phase_destroy(tb_broad_phase *bp);
void tb_broad_phase_buffer_move(tb_world *w, int32_t shape);
void tb_broad_phase_unbuffer(tb_world *w, int32_t shape);
void tb_update_pairs(tb_world *w);
int32_t tb_pair_set_find(const tb_pair_set *set, int32_t shape_a, int32_t shape_b);
void tb_pair_set_add(tb_pair_set *set, int32_t shape_a, int32_t shape_b, int32_t contact);
void tb_pair_set_remove(tb_pair_set *set, int32_t shape_a, int32_t shape_b);

/* ---- contact.c ---- */
void tb_create_contact(tb_world *w, int32_t shape_a, int32_t shape_b);
/* wake_bodies: wake the other body when a touching contact disappears */
void tb_destroy_contact(tb_world *w, int32_t contact, bool wake_bodies);
void tb_destroy_body_contacts(tb_world *w, int32_t body, bool wake);
void tb_destroy_shape_contacts(tb_world *w, int32_t shape, bool wake);
void tb_collide_contacts(tb_world *w); /* narrow phase for every active contact, begin/end events */
void tb_push_end_event(tb_world *w, int32_t shape_a, int32_t shape_b, bool pending);

/* ---- contact_solver.c ---- */
void tb_prepare_contacts(tb_world *w, tb_step_context *ctx);
/* the scalar solver runs over a list of constraint indices (the overflow colour) */
void tb_warm_start_contact_list(tb_world *w, tb_step_context *ctx, const int32_t *list, int32_t count);
void tb_solve_contact_list(tb_world *w, tb_step_context *ctx, const int32_t *list, int32_t count, bool use_bias,
                           bool backward);
void tb_store_impulses(tb_world *w, tb_step_context *ctx);

/* ---- contact_solver_wide.c: four constraints of one colour at a time ---- */
void tb_prepare_contacts_wide(tb_world *w);  /* after tb_prepare_contacts and tb_color_constraints */
void tb_warm_start_contacts_wide(tb_world *w, tb_step_context *ctx);
void tb_solve_contacts_wide(tb_world *w, tb_step_context *ctx, bool use_bias);
void tb_store_impulses_wide(tb_world *w);    /* back into w->constraints, before tb_store_impulses */

/* ---- solver.c ---- */
void tb_solve(tb_world *w, float dt);

/* ---- sensor.c ---- */
void tb_sensor_create(tb_world *w, int32_t shape);   /* when a shape becomes a sensor or gets a field */
void tb_sensor_destroy(tb_world *w, int32_t shape);
void tb_update_sensors(tb_world *w);                 /* overlaps + enter/exit events, end of step */
void tb_apply_fields(tb_world *w, tb_step_context *ctx); /* each substep, before velocity integration */

#endif
