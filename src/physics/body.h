/* tumble physics: the body record and what body.c offers the other files
 * (engine-private). The simulation state the solver streams over is apart, in
 * tb_body_sim (solver.h), parallel to the bodies by slot. */
#ifndef TB_BODY_H
#define TB_BODY_H

#include "solver.h"

typedef struct tb_world tb_world;

typedef struct tb_body {
	void *user_data;
	int32_t head_shape, tail_shape; /* shapes in creation order (next_in_body) */
	int32_t shape_count;
	int32_t head_contact_key;       /* contact slot << 1 | edge */
	int32_t contact_count;
	int32_t head_joint_key;         /* joint slot << 1 | edge */
	int32_t joint_count;
	float mass, inertia;            /* inertia about the centre of mass */
	float sleep_threshold;          /* m/s */
	float sleep_time;
	uint32_t generation;
	tb_body_type type;
	bool in_use, awake, enabled, enable_sleep, fixed_rotation;
	bool is_marked;                 /* visit mark of a graph walk outside the step; false between walks */
} tb_body;

TB_ARRAY_DECLARE(tb_body_array, tb_body)

/* Mass, first moment and second moment about the body origin of a body's
 * shapes, summed in list order (the order decides the rounding). */
typedef struct tb_mass_sum {
	float mass;
	tb_vec2 moment;      /* sum of mass * centre */
	float rot_inertia;   /* about the body origin */
} tb_mass_sum;

/* Mass properties a body would have with one shape added or replaced: the
 * shape at `replace` (TB_NULL_INDEX: a new one, last) counts with
 * `shape_mass` (NULL: no mass) instead of its own. TB_ERR_MASS_RANGE when the
 * total would not be finite and normal. The sum goes to *out (optional), for
 * tb_apply_body_mass once the change is made. */
tb_status tb_check_body_mass(const tb_world *w, int32_t body, int32_t replace, const tb_mass_data *shape_mass,
                             tb_mass_sum *out);

/* Recomputes mass, inertia and centre from the shapes; never leaves a NaN. */
void tb_update_body_mass(tb_world *w, int32_t body);
/* The same from a sum tb_check_body_mass made of the shapes as they are now
 * (NULL: sum them). */
void tb_apply_body_mass(tb_world *w, int32_t body, const tb_mass_sum *sum);
/* Wakes the body's island (the touching and jointed graph). Never allocates. */
void tb_wake_body(tb_world *w, int32_t body);
/* Puts the touching graph to sleep. */
void tb_body_sleep_island(tb_world *w, int32_t body);
void tb_update_body_shape_aabbs(tb_world *w, int32_t body, bool stepped, bool force_reinsert);
/* The same, with the body's first shape's box at its pose already computed
 * (tb_compute_aabb), or NULL. */
void tb_update_body_shape_aabbs_from(tb_world *w, int32_t body, bool stepped, bool force_reinsert,
                                     const tb_aabb *head_box);
bool tb_should_bodies_collide(const tb_world *w, int32_t body_a, int32_t body_b);
static inline bool tb_body_is_simulated(const tb_body *b) { return b->enabled && b->type != TB_STATIC_BODY; }

/* The awake sets: a bit per body slot that is in use, awake and simulated, and
 * a bit per contact or joint slot in use with at least one such body. The step walks
 * these bits in slot order instead of every slot, so sleeping bodies and their
 * contacts cost a bit each (1/64 of a word) per step, and the order (so every
 * number) is the one a walk over all slots gives. Every change of a body's
 * in_use, awake, type or enabled is followed by tb_sync_body_awake, every
 * contact or joint made or destroyed by tb_sync_contact_active or
 * tb_sync_joint_active; tb_world_validate
 * checks the bits against the records. */
void tb_sync_body_awake(tb_world *w, int32_t body);
void tb_sync_contact_active(tb_world *w, int32_t contact);
void tb_sync_joint_active(tb_world *w, int32_t joint);
/* Sets every bit from the records (after a restore or a load), and the
 * world's count of touching contacts. */
void tb_rebuild_awake_sets(tb_world *w);
static inline bool tb_body_is_active(const tb_body *b) { return b->in_use && b->awake && tb_body_is_simulated(b); }
static inline int32_t tb_bit_words(int32_t slots) { return (slots + 63) >> 6; }
static inline bool tb_bit_get(const uint64_t *bits, int32_t i) { return (bits[i >> 6] >> (i & 63)) & 1u; }

#endif
