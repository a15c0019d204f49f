/* tumble physics: the world record (engine-private).
 *
 * Objects live in arrays indexed by slot (id.index1 - 1), handed out by an id
 * pool each (core.h); a freed slot keeps its record, generation bumped, so old
 * ids stop matching. Links between objects are slots, never pointers, so an
 * array can move when it grows and a world is a set of flat blocks. */
#ifndef TB_WORLD_H
#define TB_WORLD_H

#include "body.h"
#include "broad_phase.h"
#include "constraint_graph.h"
#include "contact.h"
#include "contact_solver.h"
#include "joint.h"
#include "mover.h"
#include "sensor.h"
#include "shape.h"
#include "solver_kernels.h"

#define TB_NULL_INDEX (-1)

TB_ARRAY_DECLARE(tb_contact_begin_event_array, tb_contact_begin_event)
TB_ARRAY_DECLARE(tb_contact_end_event_array, tb_contact_end_event)
TB_ARRAY_DECLARE(tb_contact_hit_event_array, tb_contact_hit_event)
TB_ARRAY_DECLARE(tb_sensor_event_array, tb_sensor_event)
TB_ARRAY_DECLARE(tb_joint_break_event_array, tb_joint_break_event)

/* A block the world keeps written for a next snapshot (snapshot.c). */
typedef struct tb_snapshot_spare {
	unsigned char *block;
	size_t size;    /* bytes allocated */
	size_t written; /* bytes from the start whose pages have been written */
} tb_snapshot_spare;

/* At most this many spares: two, once snapshots come closer together than a
 * spare refills (a host's rewind moment and a level's checkpoint). */
#define TB_SPARE_MAX 2

/* snapshot.c: after a step, writes a step's share more of the spares
 * (tb_spare_bytes_per_step) of a world that has taken a snapshot or was told
 * to keep them (allocating each first, as large as a snapshot of the world
 * now plus an eighth); frees them with the world. */
void tb_refill_snapshot_spares(tb_world *w);
void tb_free_snapshot_spares(tb_world *w);

struct tb_world {
	tb_allocator allocator;   /* every block below comes from it, but the spares' */
	tb_world_def def;
	/* unique to this world in the process: a snapshot of it restores its ids
	 * as they were, any other snapshot is moved past the ids it issued */
	uint64_t lineage;

	/* objects by slot; each array's count is its pool's next_index */
	tb_id_pool body_pool;
	tb_body_array bodies;
	tb_body_sim_array sims;   /* parallel to bodies */
	tb_id_pool shape_pool;
	tb_shape_array shapes;
	tb_id_pool contact_pool;
	tb_contact_array contacts;
	tb_id_pool joint_pool;
	tb_joint_array joints;
	int32_t breakable_joint_count; /* joints with a finite break force or torque */
	tb_id_pool mover_pool;
	tb_mover_array movers;
	tb_id_pool sensor_pool;
	tb_sensor_array sensors;
	tb_sensor_overlap_array overlaps;      /* every sensor's overlaps, by segment */
	tb_sensor_overlap_array next_overlaps; /* built by an update, then swapped with overlaps */
	int32_t next_chain_id;

	tb_broad_phase broad_phase;

	/* per-step scratch, reserved before the step changes anything and kept
	 * between steps, so steady state never allocates */
	tb_body_state_array states;
	tb_body_motion_array motions; /* parallel to states: what one substep adds to the velocity */
	tb_int_array awake_bodies;    /* body slot for each state index */
	tb_contact_constraint_array constraints;
	tb_int_array active_joints;
	tb_joint_row_array joint_rows;  /* parallel to active_joints during the step */
	tb_pin_block_array pin_blocks;  /* the rows that are pins, eight to a block (solver.c) */
	tb_int_array pin_colors;        /* per row: its pin's colour, -1 if none, while the blocks are made */
	tb_revolute_row_array revolute_rows; /* the angles of the joint_rows that are revolute joints, in order */
	tb_constraint_graph graph;      /* colours and wide blocks of the constraints */
	tb_int_array fast_bodies;
	tb_int_array island_parent;     /* union-find over state indices */
	tb_float_array island_sleep;    /* smallest sleep time per island root */
	tb_int_array field_stamp;       /* [0]: step of the last field refresh; [body + 1]: last field that pushed it */
	tb_int_array stack;             /* graph walks: room for every body slot plus one */
	tb_u64_array collide_bits;      /* the narrow phase's walk: the active contacts as it began */

	/* the awake sets (body.h): derived from the records, rebuilt by a restore */
	tb_u64_array awake_body_bits;     /* a bit per body slot, count = words for bodies.count */
	tb_u64_array active_contact_bits; /* a bit per contact slot, count = words for contacts.count */
	uint32_t contact_activations;     /* bits of active_contact_bits set from clear, ever (wraps) */
	tb_u64_array active_joint_bits;   /* a bit per joint slot, count = words for joints.count */

	/* events of the last step */
	tb_contact_begin_event_array begin_events;
	tb_contact_end_event_array end_events;
	tb_contact_hit_event_array hit_events;
	tb_sensor_event_array sensor_begin_events;
	tb_sensor_event_array sensor_end_events;
	tb_joint_break_event_array joint_break_events; /* room for every joint slot */
	/* end and exit events caused by destroying objects between steps: they are
	 * reported with the next step, so arrays a caller is reading are never
	 * reallocated, and room for them is reserved with the contacts and overlaps */
	tb_contact_end_event_array pending_end_events;
	tb_sensor_event_array pending_sensor_end_events;

	tb_solver_path solver_path;          /* never AUTO */
	const tb_solver_kernels *kernels;    /* the path's inner loops */
	tb_presolve_fn *presolve_fn;    /* NULL: no hook */
	void *presolve_context;

	tb_profile profile;
	int32_t island_count;
	int32_t touching_contact_count; /* contacts flagged TB_CONTACT_TOUCHING, kept as the flag changes */
	int32_t remade_manifold_count;  /* the last narrow phase's manifolds remade from their cache (contact.h) */
	int32_t listed_sweeps;          /* the last step's sweeps that met the immovable shapes by the contacts (solver.c) */
	bool sweep_by_tree;             /* tests: every sweep queries the immovable tree, to compare with */
	int32_t step_count;
	uint32_t step_issues;   /* tb_step_issue bits of the last step */
	float inv_dt0;          /* inverse of the previous step's dt */
	bool locked;

	/* blocks kept for the next snapshots, outside the world's byte count and
	 * limit, as a snapshot's memory is: from spare_allocator (the world's
	 * function, no limit) */
	tb_allocator spare_allocator;
	tb_snapshot_spare spares[TB_SPARE_MAX];
	int32_t spares_wanted; /* 0 until the world takes a snapshot or is told to keep them */
	bool spares_off;       /* tb_world_keep_snapshot_spares(w, false) */
};

/* ---- the world's arrays, each listed once ----
 *
 * TB_WORLD_ARRAYS(SNAPSHOT, STEP, SCRATCH) calls one macro per array, by role:
 *   SNAPSHOT(NAME, member, type, owner)  decides the future: a snapshot copies
 *       it, in this order, which is the byte format's (snapshot.h);
 *   STEP(member, type, owner, size)      the step's scratch, reserved for n body
 *       slots and j joint slots by tb_reserve_step_arrays, in this order;
 *   SCRATCH(member, type, owner)         scratch reserved where it is filled.
 * A restore empties every STEP and SCRATCH array (the awake sets among them
 * are then rebuilt). `type` is the TB_ARRAY_DECLARE type; `owner` is who
 * frees it: WORLD (tb_destroy_world), or the POOL, BROAD phase or GRAPH it
 * sits in, whose own destroy does. The world's other arrays belong to its
 * id pools (their issued generations), its broad phase (trees, pairs and the
 * pair update's scratch) and its graph, which reserve and free them. */
#define TB_WORLD_ARRAYS(SNAPSHOT, STEP, SCRATCH)                                                            \
	SNAPSHOT(BODY_FREE, body_pool.free_ids, tb_int_array, POOL)                                             \
	SNAPSHOT(BODIES, bodies, tb_body_array, WORLD)                                                          \
	SNAPSHOT(SIMS, sims, tb_body_sim_array, WORLD)                                                          \
	SNAPSHOT(SHAPE_FREE, shape_pool.free_ids, tb_int_array, POOL)                                           \
	SNAPSHOT(SHAPES, shapes, tb_shape_array, WORLD)                                                         \
	SNAPSHOT(CONTACT_FREE, contact_pool.free_ids, tb_int_array, POOL)                                       \
	SNAPSHOT(CONTACTS, contacts, tb_contact_array, WORLD)                                                   \
	SNAPSHOT(JOINT_FREE, joint_pool.free_ids, tb_int_array, POOL)                                           \
	SNAPSHOT(JOINTS, joints, tb_joint_array, WORLD)                                                         \
	SNAPSHOT(SENSOR_FREE, sensor_pool.free_ids, tb_int_array, POOL)                                         \
	SNAPSHOT(SENSORS, sensors, tb_sensor_array, WORLD)                                                      \
	SNAPSHOT(OVERLAPS, overlaps, tb_sensor_overlap_array, WORLD)                                            \
	SNAPSHOT(MOVE_BUFFER, broad_phase.move_buffer, tb_int_array, BROAD)                                     \
	SNAPSHOT(BEGIN_EVENTS, begin_events, tb_contact_begin_event_array, WORLD)                               \
	SNAPSHOT(END_EVENTS, end_events, tb_contact_end_event_array, WORLD)                                     \
	SNAPSHOT(HIT_EVENTS, hit_events, tb_contact_hit_event_array, WORLD)                                     \
	SNAPSHOT(SENSOR_BEGIN_EVENTS, sensor_begin_events, tb_sensor_event_array, WORLD)                        \
	SNAPSHOT(SENSOR_END_EVENTS, sensor_end_events, tb_sensor_event_array, WORLD)                            \
	SNAPSHOT(PENDING_END_EVENTS, pending_end_events, tb_contact_end_event_array, WORLD)                     \
	SNAPSHOT(PENDING_SENSOR_END_EVENTS, pending_sensor_end_events, tb_sensor_event_array, WORLD)            \
	SNAPSHOT(MOVER_FREE, mover_pool.free_ids, tb_int_array, POOL)                                           \
	SNAPSHOT(MOVERS, movers, tb_mover_array, WORLD)                                                         \
	STEP(states, tb_body_state_array, WORLD, n)                                                             \
	STEP(motions, tb_body_motion_array, WORLD, n)                                                           \
	STEP(awake_bodies, tb_int_array, WORLD, n)                                                              \
	STEP(graph.body_colors, tb_u64_array, GRAPH, n)                                                         \
	STEP(fast_bodies, tb_int_array, WORLD, n)                                                               \
	STEP(island_parent, tb_int_array, WORLD, n)                                                             \
	STEP(island_sleep, tb_float_array, WORLD, n)                                                            \
	STEP(field_stamp, tb_int_array, WORLD, n + 1)                                                           \
	STEP(active_joints, tb_int_array, WORLD, j)                                                             \
	STEP(joint_rows, tb_joint_row_array, WORLD, j)                                                          \
	STEP(pin_colors, tb_int_array, WORLD, j)                                                                \
	STEP(pin_blocks, tb_pin_block_array, WORLD, j > 0 ? tb_graph_block_bound(j) : 0)                  \
	STEP(revolute_rows, tb_revolute_row_array, WORLD, j)                                                    \
	STEP(awake_body_bits, tb_u64_array, WORLD, tb_bit_words(n))                                             \
	STEP(active_joint_bits, tb_u64_array, WORLD, tb_bit_words(j))                                           \
	STEP(joint_break_events, tb_joint_break_event_array, WORLD, j)                                          \
	SCRATCH(constraints, tb_contact_constraint_array, WORLD)                                                \
	SCRATCH(active_contact_bits, tb_u64_array, WORLD)                                                       \
	SCRATCH(collide_bits, tb_u64_array, WORLD)                                                              \
	SCRATCH(graph.refs, tb_constraint_ref_array, GRAPH)                                                     \
	SCRATCH(graph.constraint_colors, tb_int_array, GRAPH)                                                   \
	SCRATCH(graph.order, tb_int_array, GRAPH)                                                               \
	SCRATCH(graph.lane_refs, tb_int_array, GRAPH)                                                           \
	SCRATCH(graph.blocks, tb_contact_block_array, GRAPH)                                                    \
	SCRATCH(graph.surfaces, tb_block_surface_array, GRAPH)                                                  \
	SCRATCH(stack, tb_int_array, WORLD)                                                                     \
	SCRATCH(next_overlaps, tb_sensor_overlap_array, WORLD)

/* An entry a use of TB_WORLD_ARRAYS leaves out. */
#define TB_WORLD_ARRAY_SKIP(...)

/* ---- lookups: the record of a live id, NULL for a stale or null one ---- */
tb_body *tb_body_lookup(const tb_world *w, tb_body_id id);
tb_shape *tb_shape_lookup(const tb_world *w, tb_shape_id id);
tb_joint *tb_joint_lookup(const tb_world *w, tb_joint_id id);

static inline tb_body_id tb_make_body_id(const tb_world *w, int32_t slot)
{
	tb_body_id id = {slot + 1, w->bodies.data[slot].generation};
	return id;
}
static inline tb_shape_id tb_make_shape_id(const tb_world *w, int32_t slot)
{
	tb_shape_id id = {slot + 1, w->shapes.data[slot].generation};
	return id;
}
static inline tb_joint_id tb_make_joint_id(const tb_world *w, int32_t slot)
{
	tb_joint_id id = {slot + 1, w->joints.data[slot].generation};
	return id;
}

/* ---- the walk over a body's contacts and joints ----
 *
 *   tb_body_edge_iter it = tb_body_edges(w, body);   (or tb_body_contacts, tb_body_joints)
 *   tb_body_edge e;
 *   while (tb_next_body_edge(w, &it, &e)) ...
 *
 * Contacts come first, then joints, each in list order. The next link is read
 * before an edge is handed out, so the caller may destroy the edge it holds. */
typedef struct tb_body_edge_iter { int32_t contact_key, joint_key; } tb_body_edge_iter;
typedef struct tb_body_edge {
	int32_t other;   /* the body on the other end */
	int32_t contact; /* the contact's slot, or TB_NULL_INDEX for a joint */
	int32_t joint;   /* the joint's slot, or TB_NULL_INDEX for a contact */
} tb_body_edge;

static inline tb_body_edge_iter tb_body_edges(const tb_world *w, int32_t body)
{
	const tb_body *b = w->bodies.data + body;
	tb_body_edge_iter it = {b->head_contact_key, b->head_joint_key};
	return it;
}
static inline tb_body_edge_iter tb_body_contacts(const tb_world *w, int32_t body)
{
	tb_body_edge_iter it = {w->bodies.data[body].head_contact_key, TB_NULL_INDEX};
	return it;
}
static inline tb_body_edge_iter tb_body_joints(const tb_world *w, int32_t body)
{
	tb_body_edge_iter it = {TB_NULL_INDEX, w->bodies.data[body].head_joint_key};
	return it;
}
static inline bool tb_next_body_edge(const tb_world *w, tb_body_edge_iter *it, tb_body_edge *e)
{
	if (it->contact_key != TB_NULL_INDEX) {
		int32_t slot = it->contact_key >> 1, edge = it->contact_key & 1;
		const tb_contact *c = w->contacts.data + slot;
		it->contact_key = c->edges[edge].next_key;
		e->other = c->edges[edge ^ 1].body;
		e->contact = slot;
		e->joint = TB_NULL_INDEX;
		return true;
	}
	if (it->joint_key != TB_NULL_INDEX) {
		int32_t slot = it->joint_key >> 1, edge = it->joint_key & 1;
		const tb_joint *j = w->joints.data + slot;
		it->joint_key = j->edge_next[edge];
		e->other = edge == 0 ? j->body_b : j->body_a;
		e->contact = TB_NULL_INDEX;
		e->joint = slot;
		return true;
	}
	return false;
}

/* ---- world.c, validate.c ---- */
tb_status tb_validate_world_def(const tb_world_def *def);
/* Reserves the step's arrays (TB_WORLD_ARRAYS' STEP) for `bodies` body slots
 * and `joints` joint slots; creating a body or joint does it, so a world that
 * could be built can be stepped. */
bool tb_reserve_step_arrays(tb_world *w, int32_t bodies, int32_t joints);
/* tb_world_validate without the checks of reserved room (the world need not
 * be able to step): the links of a snapshot's image. Reads only, and checks
 * every index before it follows it, whatever the records hold. */
bool tb_world_validate_links(const tb_world *w);

/* ---- query.c ---- */
/* A live, enabled shape of an enabled body whose filter meets the query's. */
bool tb_query_accepts(const tb_world *w, const tb_shape *s, tb_query_filter filter);

/* ---- solver.c ---- */
void tb_solve(tb_world *w, float dt);

#endif
