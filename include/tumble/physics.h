/* tumble physics: the world, bodies, shapes, joints, events and queries.
 * This is the engine's public header: it knows nothing of Lua or SDL.
 *
 * Objects are named by small id values carrying a generation. Destroying an
 * object bumps its slot's generation, so a stale id is detected (the getters
 * return a zero value and the checked calls return TB_ERR_STALE_HANDLE);
 * it is never dereferenced. The null id is all zeros.
 *
 * Calls that change the world must not be made during tb_world_step (there are
 * no callbacks during the step): events are collected in arrays and read after it.
 *
 * Errors, one policy for the whole engine:
 * - What a caller passes in is checked, never trusted: NaN or infinite numbers,
 *   negative sizes, a stale id, a locked world, a limit of the world reached or
 *   memory running out. Creation functions then return the null id (or -1) and
 *   say why in *status; every function that changes an object returns a
 *   tb_status and changes nothing unless it is TB_OK; getters of a stale id
 *   return a zero value; destroying a stale id does nothing.
 * - The engine never aborts and never prints (but a build with TB_VALIDATE
 *   names a failed check on stderr). Running out of memory is a
 *   status at creation; the step reserves what it needs before it changes
 *   anything and reports what it had to leave out (tb_world_get_step_issues).
 * - A broken invariant inside the engine (an index out of range, a list that
 *   does not close) is a programmer error: TB_ASSERT, and tb_world_validate
 *   checks the whole world after every step in builds with TB_VALIDATE. */
#ifndef TB_PHYSICS_H
#define TB_PHYSICS_H

#include <stdint.h>
#include <stdbool.h>
#include "tb_math.h"
#include "collision.h"

typedef struct tb_world tb_world;

/* index1 is the slot index plus one, so the all-zero value is null. */
typedef struct tb_body_id { int32_t index1; uint32_t generation; } tb_body_id;
typedef struct tb_shape_id { int32_t index1; uint32_t generation; } tb_shape_id;
typedef struct tb_joint_id { int32_t index1; uint32_t generation; } tb_joint_id;
typedef struct tb_mover_id { int32_t index1; uint32_t generation; } tb_mover_id;

static const tb_body_id tb_null_body_id = {0, 0};
static const tb_shape_id tb_null_shape_id = {0, 0};
static const tb_joint_id tb_null_joint_id = {0, 0};
static const tb_mover_id tb_null_mover_id = {0, 0};
#define TB_IS_NULL(id) ((id).index1 == 0)
#define TB_ID_EQUALS(a, b) ((a).index1 == (b).index1 && (a).generation == (b).generation)

/* ---------------- world ---------------- */

/* Caps on what one world may hold, for hosts that run untrusted scripts;
 * 0 means no limit. */
typedef struct tb_world_limits {
	int32_t max_bodies, max_shapes, max_joints; /* creating more fails with TB_ERR_*_LIMIT */
	int32_t max_contacts;  /* pairs past it get no contact (TB_STEP_CONTACT_LIMIT) */
	size_t max_bytes;      /* the world's own memory; past it, allocations fail as out of memory */
} tb_world_limits;

/* How two shapes' friction (or restitution) make the contact's. */
typedef enum tb_mix_rule {
	TB_MIX_GEOMETRIC = 0, /* sqrt(a * b) */
	TB_MIX_MAX,
	TB_MIX_MIN,
	TB_MIX_AVERAGE,       /* (a + b) / 2 */
	TB_MIX_MULTIPLY,      /* a * b */
	TB_MIX_RULE_COUNT
} tb_mix_rule;

float tb_mix(tb_mix_rule rule, float a, float b);

/* Every setting of the world. All but the last three can be changed between
 * steps; alloc, alloc_ud and limits are fixed at creation (tb_world_set_def
 * keeps the world's own). */
typedef struct tb_world_def {
	tb_vec2 gravity;              /* m/s^2, default (0, -10) */
	int substeps;                 /* solver substeps per step, default 8, 1..64 */
	float contact_hertz;          /* contact stiffness, default 60 */
	float contact_damping_ratio;  /* default 10 */
	float joint_hertz;            /* joint stiffness, default 60 */
	float joint_damping_ratio;    /* default 2 (5 for stiff joints is fine too) */
	float max_contact_push_speed; /* m/s, how fast overlap is resolved, default 3 */
	float restitution_threshold;  /* m/s, slower approach does not bounce, default 1 */
	float hit_event_threshold;    /* m/s, default 1 */
	float max_linear_speed;       /* m/s clamp against blow-ups, default 400 */
	float time_to_sleep;          /* s a body must be still before sleeping, default 0.5 */
	bool enable_warm_starting;    /* default true */
	bool enable_position_correction; /* soft push-out of overlap, default true */
	bool enable_sleep;            /* default true */
	bool enable_continuous;       /* time of impact for fast bodies, default true */
	bool enable_motion;           /* false freezes integration (the book's V key), default true */
	/* A pair that has barely moved against itself since its last collide (a
	 * resting pile) gets its manifold remade from the same features instead
	 * of collided again (exact separations; see src/physics/contact.h),
	 * default true */
	bool enable_contact_cache;
	tb_mix_rule friction_mix;     /* default geometric */
	tb_mix_rule restitution_mix;  /* default max */
	/* Every allocation of the world goes through alloc (NULL: the C library),
	 * so a host that counts or caps its script's memory caps the world's too.
	 * The world must be destroyed while alloc and alloc_ud are still valid. */
	tb_alloc_fn *alloc;
	void *alloc_ud;
	tb_world_limits limits;       /* default: no limits */
} tb_world_def;

tb_world_def tb_default_world_def(void);
/* Returns NULL only if def is invalid or memory runs out. */
tb_world *tb_create_world(const tb_world_def *def);
void tb_destroy_world(tb_world *world);
/* Advances the world by dt seconds (dt >= 0, finite). Events of this step are
 * readable until the next step. */
void tb_world_step(tb_world *world, float dt);

/* What the last step had to leave out; 0 when it ran in full. The world stays
 * consistent and usable in every case. */
typedef enum tb_step_issue {
	/* memory ran out: the step was skipped, or some new contacts, sensor
	 * overlaps or sensor events were left out (they are looked for again) */
	TB_STEP_OUT_OF_MEMORY = 1u << 0,
	/* the world's max_contacts was reached: some touching pairs got no contact */
	TB_STEP_CONTACT_LIMIT = 1u << 1,
} tb_step_issue;
uint32_t tb_world_get_step_issues(const tb_world *world);
/* Bytes the world holds from its allocator. */
size_t tb_world_get_allocated_bytes(const tb_world *world);
/* Checks every internal link of the world (shape lists, contact and joint
 * edges, the pair set, the pools' free slots, generations, sensor records, the
 * broad phase): true when all hold. Builds with TB_VALIDATE call it after every
 * step and assert. */
bool tb_world_validate(const tb_world *world);
tb_world_def tb_world_get_def(const tb_world *world);
/* Validates and applies all settings at once (substeps 1..64, finite gravity,
 * non-negative rates). Waking all bodies when gravity changes. The allocator
 * and limits stay as they were at creation. */
tb_status tb_world_set_def(tb_world *world, const tb_world_def *def);
/* Destroys every body, shape, joint and mover (ids become stale); settings stay. As
 * when each body is destroyed, the end events of touching contacts and the
 * sensor_exit events of reported sensor overlaps come with the next step. */
tb_status tb_world_clear(tb_world *world);
bool tb_world_is_locked(const tb_world *world);

/* The contact solver's SIMD path. Constraints solved side by side share no
 * body, so every path gives the same results bit for bit: the choice is speed
 * only (and a way to check that claim). */
typedef enum tb_solver_path {
	TB_SOLVER_PATH_AUTO = 0, /* the widest this CPU has; TB_SOLVER_PATH=scalar|sse2|avx2|avx512 in the environment
	                          * overrides */
	TB_SOLVER_PATH_SCALAR,   /* one constraint at a time */
	TB_SOLVER_PATH_SSE2,     /* four at a time (plain C where the CPU has no SSE2) */
	TB_SOLVER_PATH_AVX2,     /* eight at a time, where the CPU has AVX2 */
	TB_SOLVER_PATH_AVX512,   /* sixteen at a time, where the CPU has AVX-512F (AUTO takes it where the CPU also
	                          * has IFMA: the first AVX-512 CPUs slow their clock for it) */
	TB_SOLVER_PATH_COUNT
} tb_solver_path;

/* TB_ERR_INVALID_ARGUMENT for a path this build or CPU has not got, the world
 * unchanged. A new world takes AUTO. */
tb_status tb_world_set_solver_path(tb_world *world, tb_solver_path path);
/* The path the world runs (never AUTO). */
tb_solver_path tb_world_get_solver_path(const tb_world *world);
/* "scalar", "sse2", "avx2", "avx512", "auto"; and back (TB_SOLVER_PATH_COUNT for an unknown name). */
const char *tb_solver_path_name(tb_solver_path path);
tb_solver_path tb_solver_path_from_name(const char *name);

/* A hash of every body's transform and velocity bits, in slot order: two runs
 * that agree bit for bit give the same hash. */
uint64_t tb_world_hash(const tb_world *world);

typedef struct tb_profile {
	float step, pairs, collide, solve, prepare, integrate, warm_start, solve_contacts, relax, restitution,
		store, continuous, sensors, sleep; /* milliseconds */
} tb_profile;

typedef struct tb_counters {
	int body_count, awake_body_count, shape_count, contact_count, touching_contact_count, joint_count,
		island_count, tree_height, static_tree_height, step_count;
	/* manifolds the last step remade from their contact cache instead of
	 * colliding (enable_contact_cache) */
	int remade_manifold_count;
} tb_counters;

tb_profile tb_world_get_profile(const tb_world *world);
tb_counters tb_world_get_counters(const tb_world *world);

/* Valid body ids in slot order; returns the total count (may exceed capacity). */
int tb_world_get_bodies(const tb_world *world, tb_body_id *out, int capacity);
int tb_world_get_joints(const tb_world *world, tb_joint_id *out, int capacity);

/* ---------------- snapshots ---------------- */

/* A snapshot is a copy of everything that decides a world's future: bodies,
 * shapes, joints, contacts with their warm-start impulses, sleep timers, the
 * broad phase, settings, the id pools (which slot the next object gets),
 * generations, sensor overlaps, the events of the last step and those pending
 * for the next. Restoring it is exact: the steps that follow give, bit for bit,
 * the states (tb_world_hash) that followed the moment it was taken.
 *
 * Ids, when a world gets back one of its own snapshots: ids alive at the
 * snapshot are valid again and name the same objects; ids of objects created
 * after it are stale; objects destroyed after it come back under their old
 * ids. No id the world ever handed out comes to name another object (a new
 * object never takes a generation its slot has issued before). A snapshot of
 * another world, or one loaded from bytes, is restored with the generations
 * moved past every one this world issued, so all of this world's earlier ids
 * go stale; into a fresh world, the snapshot's ids are kept as they were.
 *
 * Snapshots are immutable: one can be restored any number of times, into any
 * world. user_data pointers are copied as they are (not by tb_snapshot_save). */
typedef struct tb_snapshot tb_snapshot;

/* Takes a snapshot between steps (TB_ERR_LOCKED during one). Its memory comes
 * from the world's alloc, outside the world's max_bytes; it may outlive the
 * world as long as alloc and alloc_ud stay valid. NULL (and *status) when
 * memory runs out. A world that has taken a snapshot keeps, from the same
 * alloc and outside max_bytes, a block for the next one, as large as a
 * snapshot of it plus an eighth, whose pages its steps write a little at a
 * time (fresh memory's page faults cost more than the copy): the next snapshot
 * that fits takes that block. Two blocks, once a snapshot finds none fully
 * written. */
tb_snapshot *tb_world_snapshot(tb_world *world, tb_status *status);
/* Whether the world keeps those blocks. true: from its next step on, even
 * before its first snapshot (which then costs no more than the next ones).
 * false frees them and keeps none: for a host whose memory is capped, where a
 * block kept ahead would be memory taken from the script. Neither: from the
 * first snapshot on. */
void tb_world_keep_snapshot_spares(tb_world *world, bool keep);
/* Puts the world back to the snapshot. The world keeps its own allocator and
 * limits: a snapshot holding more bodies, shapes, joints or contacts than the
 * limits allow is refused (TB_ERR_*_LIMIT), as is one the world's memory
 * cannot hold (TB_ERR_OUT_OF_MEMORY), and one from another world or from
 * bytes with an object in a slot this world has used up (reused about 2^28
 * times: TB_ERR_INVALID_ARGUMENT); then the world is unchanged. Event
 * arrays read before are invalid after it. */
tb_status tb_world_restore(tb_world *world, const tb_snapshot *snapshot);
void tb_snapshot_free(tb_snapshot *snapshot);
/* Bytes the snapshot holds from its allocator. */
size_t tb_snapshot_get_allocated_bytes(const tb_snapshot *snapshot);
/* The world's counters at the moment of the snapshot. */
tb_counters tb_snapshot_get_counters(const tb_snapshot *snapshot);

/* Bytes: a magic, a format version, the build's layout fingerprint, sizes and
 * a checksum, then the engine state, little-endian, without user_data (loaded
 * as NULL). Writes the snapshot to out when capacity is enough and returns
 * its size in every case (call with NULL, 0 to ask). */
size_t tb_snapshot_save(const tb_snapshot *snapshot, void *out, size_t capacity);
/* Reads bytes from tb_snapshot_save, as a world created with def would hold
 * them: memory from def->alloc (at most def->limits.max_bytes), counts within
 * def->limits (NULL: the defaults, no limits). Every number, index and link is
 * checked: a truncated, corrupt, foreign or hostile string gives NULL and
 * *status (TB_ERR_SNAPSHOT_FORMAT, _VERSION, _CORRUPT, a limit, or out of
 * memory), never a crash. */
tb_snapshot *tb_snapshot_load(const void *bytes, size_t size, const tb_world_def *def, tb_status *status);

/* ---------------- bodies ---------------- */

typedef enum tb_body_type { TB_STATIC_BODY = 0, TB_KINEMATIC_BODY = 1, TB_DYNAMIC_BODY = 2 } tb_body_type;

typedef struct tb_body_def {
	tb_body_type type;        /* default static */
	tb_vec2 position;         /* body origin, world */
	float angle;              /* radians */
	tb_vec2 linear_velocity;  /* of the centre of mass, m/s */
	float angular_velocity;   /* rad/s, counter-clockwise positive */
	float linear_damping, angular_damping; /* 1/s, default 0 */
	float gravity_scale;      /* default 1 */
	float sleep_threshold;    /* m/s: slower than this for time_to_sleep, the body may sleep; default 0.05 */
	bool is_bullet;           /* continuous collision against dynamic bodies too */
	bool fixed_rotation;
	bool is_awake;            /* default true */
	bool is_enabled;          /* default true */
	bool enable_sleep;        /* default true */
	void *user_data;
} tb_body_def;

tb_body_def tb_default_body_def(void);
/* Returns the null id, and *status (optional) says why, if the def has
 * non-finite numbers or an unknown type, the world is locked, its body limit
 * is reached or memory runs out. */
tb_body_id tb_create_body(tb_world *world, const tb_body_def *def, tb_status *status);
/* Destroys the body with its shapes and joints. Stale ids are ignored. */
void tb_destroy_body(tb_world *world, tb_body_id id);
bool tb_body_is_valid(const tb_world *world, tb_body_id id);

tb_body_type tb_body_get_type(const tb_world *world, tb_body_id id);
/* Changing the type recomputes mass and wakes the body. */
tb_status tb_body_set_type(tb_world *world, tb_body_id id, tb_body_type type);
tb_vec2 tb_body_get_position(const tb_world *world, tb_body_id id);   /* origin */
float tb_body_get_angle(const tb_world *world, tb_body_id id);
tb_rot tb_body_get_rotation(const tb_world *world, tb_body_id id);
tb_transform tb_body_get_transform(const tb_world *world, tb_body_id id);
/* Teleports the body (wakes it, updates its broad-phase boxes). */
tb_status tb_body_set_transform(tb_world *world, tb_body_id id, tb_vec2 position, float angle);
tb_vec2 tb_body_get_world_center(const tb_world *world, tb_body_id id);
tb_vec2 tb_body_get_local_center(const tb_world *world, tb_body_id id);
/* Velocity of the centre of mass. */
tb_vec2 tb_body_get_linear_velocity(const tb_world *world, tb_body_id id);
float tb_body_get_angular_velocity(const tb_world *world, tb_body_id id);
tb_status tb_body_set_linear_velocity(tb_world *world, tb_body_id id, tb_vec2 velocity); /* wakes if non-zero */
tb_status tb_body_set_angular_velocity(tb_world *world, tb_body_id id, float angular_velocity);
float tb_body_get_mass(const tb_world *world, tb_body_id id);
/* About the centre of mass. */
float tb_body_get_inertia(const tb_world *world, tb_body_id id);
tb_mass_data tb_body_get_mass_data(const tb_world *world, tb_body_id id);
/* Recomputes mass from the shapes' densities (done automatically when shapes change). */
tb_status tb_body_apply_mass_from_shapes(tb_world *world, tb_body_id id);

tb_status tb_body_apply_force(tb_world *world, tb_body_id id, tb_vec2 force, tb_vec2 point, bool wake);
tb_status tb_body_apply_force_to_center(tb_world *world, tb_body_id id, tb_vec2 force, bool wake);
tb_status tb_body_apply_torque(tb_world *world, tb_body_id id, float torque, bool wake);
tb_status tb_body_apply_linear_impulse(tb_world *world, tb_body_id id, tb_vec2 impulse, tb_vec2 point, bool wake);
tb_status tb_body_apply_linear_impulse_to_center(tb_world *world, tb_body_id id, tb_vec2 impulse, bool wake);
tb_status tb_body_apply_angular_impulse(tb_world *world, tb_body_id id, float impulse, bool wake);

float tb_body_get_linear_damping(const tb_world *world, tb_body_id id);
tb_status tb_body_set_linear_damping(tb_world *world, tb_body_id id, float d);
float tb_body_get_angular_damping(const tb_world *world, tb_body_id id);
tb_status tb_body_set_angular_damping(tb_world *world, tb_body_id id, float d);
float tb_body_get_gravity_scale(const tb_world *world, tb_body_id id);
tb_status tb_body_set_gravity_scale(tb_world *world, tb_body_id id, float s);
bool tb_body_is_awake(const tb_world *world, tb_body_id id);
/* Waking wakes the body's whole island; putting to sleep does the same. */
tb_status tb_body_set_awake(tb_world *world, tb_body_id id, bool awake);
bool tb_body_is_enabled(const tb_world *world, tb_body_id id);
/* A disabled body has no contacts and is not simulated; its joints are inactive. */
tb_status tb_body_set_enabled(tb_world *world, tb_body_id id, bool enabled);
bool tb_body_is_bullet(const tb_world *world, tb_body_id id);
tb_status tb_body_set_bullet(tb_world *world, tb_body_id id, bool bullet);
bool tb_body_is_fixed_rotation(const tb_world *world, tb_body_id id);
tb_status tb_body_set_fixed_rotation(tb_world *world, tb_body_id id, bool fixed);
bool tb_body_is_sleep_enabled(const tb_world *world, tb_body_id id);
tb_status tb_body_enable_sleep(tb_world *world, tb_body_id id, bool enable);
/* m/s, finite and >= 0 (0: the body never counts as still and never sleeps). */
float tb_body_get_sleep_threshold(const tb_world *world, tb_body_id id);
tb_status tb_body_set_sleep_threshold(tb_world *world, tb_body_id id, float threshold);
void *tb_body_get_user_data(const tb_world *world, tb_body_id id);
tb_status tb_body_set_user_data(tb_world *world, tb_body_id id, void *data);

tb_vec2 tb_body_get_world_point(const tb_world *world, tb_body_id id, tb_vec2 local_point);
tb_vec2 tb_body_get_local_point(const tb_world *world, tb_body_id id, tb_vec2 world_point);
tb_vec2 tb_body_get_world_vector(const tb_world *world, tb_body_id id, tb_vec2 local_vector);
tb_vec2 tb_body_get_local_vector(const tb_world *world, tb_body_id id, tb_vec2 world_vector);
/* Velocity of the material point at a world position. */
tb_vec2 tb_body_get_world_point_velocity(const tb_world *world, tb_body_id id, tb_vec2 world_point);

/* Shape ids of the body in creation order; returns the total count. */
int tb_body_get_shapes(const tb_world *world, tb_body_id id, tb_shape_id *out, int capacity);
int tb_body_get_shape_count(const tb_world *world, tb_body_id id);
int tb_body_get_joints(const tb_world *world, tb_body_id id, tb_joint_id *out, int capacity);
/* Bounds of all shapes. */
tb_aabb tb_body_compute_aabb(const tb_world *world, tb_body_id id);

/* ---------------- shapes ---------------- */

typedef struct tb_filter {
	uint64_t category_bits; /* default 1 */
	uint64_t mask_bits;     /* default all */
	int32_t group_index;    /* same positive group always collides, same negative never */
} tb_filter;

typedef struct tb_shape_def {
	float density;       /* kg/m^2, default 1 */
	float friction;      /* default 0.6 */
	float restitution;   /* default 0 */
	/* Rolling resistance, a coefficient (Box2D v3's): a contact resists the
	 * relative spin of its shapes with a torque up to c * R * N, c the larger of
	 * the two shapes', R the larger rounding radius (circle, capsule, rounded
	 * polygon) and N the normal force. A disc rolling on flat ground slows by
	 * (2/3) c g. Default 0. */
	float rolling_resistance;
	/* m/s: the surface moves along itself at this speed, clockwise around the
	 * shape (the top of a box carries things towards +x): a conveyor belt.
	 * The two shapes' speeds add. Default 0. */
	float tangent_speed;
	/* A one-way platform: zero (the default) for none, else the direction that
	 * is "up", in the body's frame. A shape meeting the platform decides when
	 * their contact first touches: it is held if it came from the up side (the
	 * contact normal, from the platform, within 78 degrees of up), otherwise
	 * it passes through until the two are apart again. Fast bodies are swept
	 * the same way. Costs nothing for contacts of other shapes. */
	tb_vec2 one_way;
	tb_filter filter;
	bool is_sensor;      /* detects overlap, no response */
	bool enable_sensor_events;  /* this shape is reported when it enters sensors, default true */
	bool enable_contact_events; /* begin/end, default true */
	bool enable_hit_events;     /* default true */
	bool is_enabled;            /* default true */
	void *user_data;
} tb_shape_def;

tb_shape_def tb_default_shape_def(void);
/* Each create validates the geometry and the def (finite, non-negative density,
 * friction, restitution) and returns the null id on failure; *status (optional)
 * says why. The body's mass is updated. */
tb_shape_id tb_create_circle_shape(tb_world *world, tb_body_id body, const tb_shape_def *def, const tb_circle *circle,
                                   tb_status *status);
tb_shape_id tb_create_capsule_shape(tb_world *world, tb_body_id body, const tb_shape_def *def,
                                    const tb_capsule *capsule, tb_status *status);
tb_shape_id tb_create_segment_shape(tb_world *world, tb_body_id body, const tb_shape_def *def,
                                    const tb_segment *segment, tb_status *status);
tb_shape_id tb_create_polygon_shape(tb_world *world, tb_body_id body, const tb_shape_def *def,
                                    const tb_polygon *polygon, tb_status *status);
tb_shape_id tb_create_shape(tb_world *world, tb_body_id body, const tb_shape_def *def, const tb_geometry *geometry,
                            tb_status *status);

typedef struct tb_chain_def {
	const tb_vec2 *points; /* count points, local to the body */
	int count;             /* >= 2 (>= 3 for a loop) */
	bool loop;
	float friction, restitution, rolling_resistance, tangent_speed; /* as a shape's */
	tb_filter filter;
	bool enable_sensor_events;
	void *user_data;       /* given to every link */
} tb_chain_def;

tb_chain_def tb_default_chain_def(void);
/* Creates the links of a one-sided chain. It collides on the right of the point
 * order (its front): ground runs right to left, a counter-clockwise loop keeps
 * things outside, a clockwise one keeps them inside.
 * Writes up to capacity link shape ids and returns the link count, or -1 with
 * *status set. */
int tb_create_chain(tb_world *world, tb_body_id body, const tb_chain_def *def, tb_shape_id *out, int capacity,
                    tb_status *status);

/* Destroys a shape; update_mass recomputes the body's mass. Destroying one link of
 * a chain destroys that link only. */
void tb_destroy_shape(tb_world *world, tb_shape_id id, bool update_mass);
bool tb_shape_is_valid(const tb_world *world, tb_shape_id id);
tb_shape_type tb_shape_get_type(const tb_world *world, tb_shape_id id);
tb_body_id tb_shape_get_body(const tb_world *world, tb_shape_id id);
/* A copy of the geometry in body-local coordinates. */
tb_geometry tb_shape_get_geometry(const tb_world *world, tb_shape_id id);
/* Replaces the geometry (same or different kind, not chain segments): validates,
 * updates the body's mass, refreshes contacts and wakes the body. */
tb_status tb_shape_set_geometry(tb_world *world, tb_shape_id id, const tb_geometry *geometry);

float tb_shape_get_density(const tb_world *world, tb_shape_id id);
tb_status tb_shape_set_density(tb_world *world, tb_shape_id id, float density, bool update_mass);
float tb_shape_get_friction(const tb_world *world, tb_shape_id id);
tb_status tb_shape_set_friction(tb_world *world, tb_shape_id id, float friction);
float tb_shape_get_restitution(const tb_world *world, tb_shape_id id);
tb_status tb_shape_set_restitution(tb_world *world, tb_shape_id id, float restitution);
float tb_shape_get_rolling_resistance(const tb_world *world, tb_shape_id id);
tb_status tb_shape_set_rolling_resistance(tb_world *world, tb_shape_id id, float rolling_resistance); /* finite, >= 0 */
/* Zero turns it off; any other direction is normalized. Contacts the shape
 * has decide again when they next touch. */
tb_status tb_shape_set_one_way(tb_world *world, tb_shape_id id, tb_vec2 up);
tb_vec2 tb_shape_get_one_way(const tb_world *world, tb_shape_id id);
float tb_shape_get_tangent_speed(const tb_world *world, tb_shape_id id);
tb_status tb_shape_set_tangent_speed(tb_world *world, tb_shape_id id, float speed); /* finite, |speed| <= 1e6 */
bool tb_shape_is_sensor(const tb_world *world, tb_shape_id id);
/* Turning a shape into a sensor (or back) drops its contacts. */
tb_status tb_shape_set_sensor(tb_world *world, tb_shape_id id, bool sensor);
bool tb_shape_is_enabled(const tb_world *world, tb_shape_id id);
/* A disabled shape has no contacts, no sensor overlaps and no field. */
tb_status tb_shape_set_enabled(tb_world *world, tb_shape_id id, bool enabled);
tb_filter tb_shape_get_filter(const tb_world *world, tb_shape_id id);
tb_status tb_shape_set_filter(tb_world *world, tb_shape_id id, tb_filter filter);
tb_status tb_shape_enable_contact_events(tb_world *world, tb_shape_id id, bool flag);
tb_status tb_shape_enable_hit_events(tb_world *world, tb_shape_id id, bool flag);
tb_status tb_shape_enable_sensor_events(tb_world *world, tb_shape_id id, bool flag);
void *tb_shape_get_user_data(const tb_world *world, tb_shape_id id);
tb_status tb_shape_set_user_data(tb_world *world, tb_shape_id id, void *data);
tb_aabb tb_shape_get_aabb(const tb_world *world, tb_shape_id id);
/* World point inside the shape? */
bool tb_shape_test_point(const tb_world *world, tb_shape_id id, tb_vec2 point);
/* Ray in world coordinates against this shape only. */
tb_cast_output tb_shape_ray_cast(const tb_world *world, tb_shape_id id, tb_vec2 origin, tb_vec2 translation);
/* Chain id shared by all links of one chain, or -1. */
int32_t tb_shape_get_chain_id(const tb_world *world, tb_shape_id id);

/* ---- areas: a force field carried by a (sensor) shape ---- */

typedef enum tb_field_kind {
	TB_FIELD_NONE = 0,
	TB_FIELD_LINEAR,  /* constant force (or acceleration) vector */
	TB_FIELD_RADIAL,  /* along the line from the field centre: strength > 0 repels, < 0 attracts */
	TB_FIELD_DRAG     /* force = -drag * (v - field body velocity) */
} tb_field_kind;

typedef enum tb_falloff {
	TB_FALLOFF_NONE = 0,    /* same strength everywhere inside */
	TB_FALLOFF_LINEAR,      /* strength * (1 - d / radius), radius = the shape's bounding radius */
	TB_FALLOFF_INVERSE_SQUARE /* strength / max(d, 0.1)^2 */
} tb_falloff;

typedef struct tb_field {
	tb_field_kind kind;
	tb_vec2 force;        /* linear: N (or m/s^2 if use_acceleration), in world axes */
	float strength;       /* radial: N (or m/s^2) */
	tb_falloff falloff;   /* radial */
	tb_vec2 center;       /* radial: local to the field's body */
	float drag;           /* drag: N per m/s (or 1/s if use_acceleration) */
	bool use_acceleration;/* true: the same acceleration whatever the mass */
} tb_field;

/* Attaches a field to the shape (applied every substep to each dynamic body with
 * a shape overlapping it, once per body, in C); kind NONE or NULL removes it.
 * The shape need not be a sensor, but usually is. */
tb_status tb_shape_set_field(tb_world *world, tb_shape_id id, const tb_field *field);
/* Returns false if the shape has no field. */
bool tb_shape_get_field(const tb_world *world, tb_shape_id id, tb_field *out);

/* ---------------- joints ---------------- */

typedef enum tb_joint_type {
	TB_JOINT_REVOLUTE,
	TB_JOINT_PRISMATIC,
	TB_JOINT_DISTANCE,
	TB_JOINT_WELD,
	TB_JOINT_MOUSE,
	TB_JOINT_WHEEL,
	TB_JOINT_MOTOR,
	TB_JOINT_TYPE_COUNT
} tb_joint_type;

/* One def for every kind; fields a kind does not use are ignored. */
typedef struct tb_joint_def {
	tb_joint_type type;
	tb_body_id body_a, body_b;   /* mouse: body_a is usually a static ground body */
	tb_vec2 local_anchor_a, local_anchor_b; /* relative to each body's origin */
	float reference_angle;       /* revolute, prismatic, weld: angle_b - angle_a at rest */
	tb_vec2 local_axis_a;        /* prismatic, wheel: unit axis in body A */
	bool collide_connected;      /* default false */
	/* revolute: radians; prismatic, wheel: metres along the axis */
	bool enable_limit;
	float lower, upper;
	bool enable_motor;
	float motor_speed;           /* rad/s (revolute, wheel) or m/s (prismatic) */
	float max_motor_torque;      /* N*m (revolute, wheel, motor) */
	float max_motor_force;       /* N (prismatic) */
	/* distance: rigid rod at length unless enable_spring; min/max always enforced */
	float length, min_length, max_length;
	bool enable_spring;          /* distance, prismatic, revolute, wheel (along the axis) */
	float hertz, damping_ratio;  /* spring; weld: linear softness (0 = rigid) */
	float angular_hertz, angular_damping_ratio; /* weld angular softness (0 = rigid) */
	/* mouse */
	tb_vec2 target;              /* world */
	float max_force;             /* N (mouse, motor) */
	/* motor: drives B's origin to linear_offset in A's frame and B's angle to
	 * A's plus angular_offset, with up to max_force and max_motor_torque,
	 * closing correction_factor (0..1, default 0.3) of the error per substep */
	tb_vec2 linear_offset;
	float angular_offset;
	float correction_factor;
	/* Every kind: when the constraint force (N) or torque (N*m) of a step
	 * exceeds these, the joint is destroyed at the end of that step and a
	 * break event is reported. Default infinity: unbreakable. >= 0, not NaN. */
	float break_force, break_torque;
	void *user_data;
} tb_joint_def;

tb_joint_def tb_default_joint_def(tb_joint_type type);
/* Returns the null id (and *status) for stale/identical bodies, bad numbers,
 * lower > upper, negative lengths. Anchors: see the def. */
tb_joint_id tb_create_joint(tb_world *world, const tb_joint_def *def, tb_status *status);
void tb_destroy_joint(tb_world *world, tb_joint_id id);
bool tb_joint_is_valid(const tb_world *world, tb_joint_id id);
tb_joint_type tb_joint_get_type(const tb_world *world, tb_joint_id id);
tb_body_id tb_joint_get_body_a(const tb_world *world, tb_joint_id id);
tb_body_id tb_joint_get_body_b(const tb_world *world, tb_joint_id id);
tb_vec2 tb_joint_get_world_anchor_a(const tb_world *world, tb_joint_id id);
tb_vec2 tb_joint_get_world_anchor_b(const tb_world *world, tb_joint_id id);
/* The current def with live values (motor speed, limits, target...). */
tb_joint_def tb_joint_get_def(const tb_world *world, tb_joint_id id);
/* Changes the tunable fields (limits, motor, spring, lengths, target, max force,
 * collide_connected, user_data); type, bodies and anchors must match. Wakes the bodies. */
tb_status tb_joint_set_def(tb_world *world, tb_joint_id id, const tb_joint_def *def);
/* revolute: angle_b - angle_a - reference; prismatic, wheel: translation along
 * the axis; distance: current length. 0 otherwise. */
float tb_joint_get_value(const tb_world *world, tb_joint_id id);
/* Constraint force (N) and torque (N*m) of the last step on body B. */
tb_vec2 tb_joint_get_constraint_force(const tb_world *world, tb_joint_id id);
float tb_joint_get_constraint_torque(const tb_world *world, tb_joint_id id);
void *tb_joint_get_user_data(const tb_world *world, tb_joint_id id);
tb_status tb_joint_set_user_data(tb_world *world, tb_joint_id id, void *data);

/* ---------------- events (read after the step) ---------------- */

typedef struct tb_contact_begin_event {
	tb_shape_id shape_a, shape_b;
	tb_vec2 normal;          /* from A to B */
	tb_vec2 points[2];       /* world */
	float separations[2];
	int point_count;
	float approach_speed;    /* relative normal speed when they met, >= 0 */
} tb_contact_begin_event;

typedef struct tb_contact_end_event { tb_shape_id shape_a, shape_b; } tb_contact_end_event;

typedef struct tb_contact_hit_event {
	tb_shape_id shape_a, shape_b;
	tb_vec2 point, normal;
	float approach_speed;    /* above the world's hit_event_threshold */
} tb_contact_hit_event;

typedef struct tb_sensor_event { tb_shape_id sensor, visitor; } tb_sensor_event;

/* A joint that broke: it was destroyed at the end of the step (the id is
 * stale); its bodies, what broke it and its user data are kept here. */
typedef struct tb_joint_break_event {
	tb_joint_id joint;
	tb_joint_type type;
	tb_body_id body_a, body_b;
	float force, torque;     /* of the step it broke in, N and N*m */
	void *user_data;
} tb_joint_break_event;

typedef struct tb_joint_events {
	const tb_joint_break_event *breaks; int break_count;
} tb_joint_events;

typedef struct tb_contact_events {
	const tb_contact_begin_event *begin; int begin_count;
	const tb_contact_end_event *end; int end_count;
	const tb_contact_hit_event *hit; int hit_count;
} tb_contact_events;

typedef struct tb_sensor_events {
	const tb_sensor_event *begin; int begin_count;
	const tb_sensor_event *end; int end_count;
} tb_sensor_events;

/* The pre-solve hook: called during tb_world_step, in contact slot order,
 * for every contact whose shapes are within the speculative distance (the
 * manifold has points), after the one-way test. Returning false leaves the
 * contact without points for this step: no response, and it counts as not
 * touching (end and begin events follow). The world is locked meanwhile:
 * changes are refused. The time-of-impact sweeps of fast bodies do not ask it
 * (one_way platforms are swept correctly). NULL (the default) removes it; a
 * world without one pays nothing. */
typedef bool tb_presolve_fn(tb_shape_id shape_a, tb_shape_id shape_b, const tb_manifold *manifold, void *context);
void tb_world_set_presolve(tb_world *world, tb_presolve_fn *fn, void *context);

/* Events of the last step, in a deterministic order. End events are also
 * reported when a shape or body is destroyed while touching (ids then stale). */
tb_contact_events tb_world_get_contact_events(const tb_world *world);
tb_sensor_events tb_world_get_sensor_events(const tb_world *world);
/* Joints broken in the last step, in slot order. */
tb_joint_events tb_world_get_joint_events(const tb_world *world);

/* Touching contacts, for drawing and inspection. */
typedef struct tb_contact_data {
	tb_shape_id shape_a, shape_b;
	tb_manifold manifold;
} tb_contact_data;
int tb_world_get_contacts(const tb_world *world, tb_contact_data *out, int capacity);
int tb_body_get_contacts(const tb_world *world, tb_body_id id, tb_contact_data *out, int capacity);

/* ---------------- queries ---------------- */

typedef struct tb_query_filter { uint64_t category_bits, mask_bits; } tb_query_filter;
tb_query_filter tb_default_query_filter(void);

/* Return false to stop. */
typedef bool tb_overlap_result_fn(tb_shape_id shape, void *context);
/* Shapes whose (tight) AABB overlaps the box. */
void tb_world_query_aabb(const tb_world *world, tb_aabb aabb, tb_query_filter filter, tb_overlap_result_fn *fn,
                         void *context);
/* Shapes containing the point. */
void tb_world_query_point(const tb_world *world, tb_vec2 point, tb_query_filter filter, tb_overlap_result_fn *fn,
                          void *context);
/* Shapes really overlapping the given shape (exact test, not just boxes), excluding itself. */
void tb_world_overlap_shape(const tb_world *world, tb_shape_id shape, tb_query_filter filter,
                            tb_overlap_result_fn *fn, void *context);
/* Shapes overlapping a geometry placed at a transform. */
void tb_world_overlap_geometry(const tb_world *world, const tb_geometry *geometry, tb_transform xf,
                               tb_query_filter filter, tb_overlap_result_fn *fn, void *context);

/* Return -1 to ignore the shape, 0 to stop, fraction to clip the ray to this hit,
 * 1 to continue unclipped (all hits). */
typedef float tb_ray_result_fn(tb_shape_id shape, tb_vec2 point, tb_vec2 normal, float fraction, void *context);
void tb_world_cast_ray(const tb_world *world, tb_vec2 origin, tb_vec2 translation, tb_query_filter filter,
                       tb_ray_result_fn *fn, void *context);

typedef struct tb_ray_result {
	tb_shape_id shape;
	tb_vec2 point, normal;
	float fraction;
	bool hit;
} tb_ray_result;
tb_ray_result tb_world_cast_ray_closest(const tb_world *world, tb_vec2 origin, tb_vec2 translation,
                                        tb_query_filter filter);

/* Sweeps a geometry placed at xf along translation (no rotation) through the
 * world and returns the first shape it would touch: the fraction of the
 * translation, and the point and normal on that shape's surface (the normal
 * points back at the swept geometry). Sensors are ignored, chain segments hit
 * only from their front, one-way platforms only from their up side, and the
 * shapes of ignore_body (null: none) never. A geometry already touching a
 * shape at the start hits it at fraction 0 (with a zero normal when the
 * cores overlap). Ties go to the lower shape slot. A geometry, position or
 * translation beyond the world's coordinates (TB_HUGE) hits nothing. */
tb_ray_result tb_world_cast_shape(const tb_world *world, const tb_geometry *geometry, tb_transform xf,
                                  tb_vec2 translation, tb_query_filter filter, tb_body_id ignore_body);

/* Distance between two shapes' rounded surfaces at any separation, with the
 * closest points (world) and the normal from a to b. Overlapping round shapes
 * give minus the overlap of their radii; overlapping cores give the sum of the
 * radii, negated, and a normal between their centres. Chains count from both
 * sides. A stale id gives a distance of FLT_MAX. */
tb_distance_output tb_world_shape_distance(const tb_world *world, tb_shape_id a, tb_shape_id b);

/* An explosion: every dynamic body with a (non-sensor) shape within radius +
 * falloff of position gets `impulse` (N*s) at its point nearest to the
 * position, pointing away from it: in full within radius, fading linearly to
 * nothing over the falloff beyond it. A body whose nearest point is the
 * position itself is pushed from the position towards its centre of mass. */
typedef struct tb_explosion_def {
	tb_vec2 position;
	float radius;       /* m, >= 0 */
	float falloff;      /* m, >= 0 */
	float impulse;      /* N*s, finite (negative pulls in) */
	uint64_t mask_bits; /* shapes whose category is in it count, default all */
} tb_explosion_def;

tb_explosion_def tb_default_explosion_def(void);
/* Bodies pushed, in slot order, wakes them. TB_ERR_INVALID_NUMBER /
 * TB_ERR_NEGATIVE for bad numbers, TB_ERR_LOCKED during a step. Returns the
 * count of bodies pushed through *pushed (optional). */
tb_status tb_world_explode(tb_world *world, const tb_explosion_def *def, int *pushed);

/* Contact manifold between two shapes at their current positions, no response
 * (the book's missing exercise). Normal from a to b. */
tb_manifold tb_world_collide_shapes(const tb_world *world, tb_shape_id a, tb_shape_id b);

/* ---------------- character movers ---------------- */

/* A kinematic character after Box2D v3.1's mover: a capsule that is not a
 * body (nothing collides with it, the solver never moves it) and moves only
 * when asked to, by a cast through the world and a plane solver. It slides
 * along walls, walks up and down slopes up to max_slope without sliding back,
 * steps onto ledges up to step_height, keeps its footing on a tile chain,
 * rides whatever it stands on (moving platforms, pushed crates), and pushes
 * dynamic bodies it walks into with at most push_strength newtons. Chain
 * segments stop it from their front only and one-way platforms from their up
 * side only, as for bodies. Gravity is the caller's: pass it in the motion. */
typedef struct tb_mover_def {
	tb_capsule capsule;      /* relative to the position; radius > 2 TB_LINEAR_SLOP */
	tb_vec2 position;
	float max_slope;         /* radians in [0, pi/2): steeper ground is a wall, default pi/4 */
	float step_height;       /* m >= 0, default 0 */
	float push_strength;     /* N >= 0, default 0: it pushes nothing */
	tb_query_filter filter;  /* the shapes it collides with: category and mask as a shape's, default all */
	void *user_data;
} tb_mover_def;

tb_mover_def tb_default_mover_def(void);
/* The null id and *status on bad numbers, a locked world or no memory. */
tb_mover_id tb_create_mover(tb_world *world, const tb_mover_def *def, tb_status *status);
void tb_destroy_mover(tb_world *world, tb_mover_id id);
bool tb_mover_is_valid(const tb_world *world, tb_mover_id id);
/* Moves by delta (plus what its ground carried it since the last move) and
 * returns the displacement made. Stale, locked or non-finite: no move. */
tb_vec2 tb_mover_move(tb_world *world, tb_mover_id id, tb_vec2 delta);
tb_vec2 tb_mover_get_position(const tb_world *world, tb_mover_id id);
/* Teleports: no sweep, the ground is forgotten until the next move. */
tb_status tb_mover_set_position(tb_world *world, tb_mover_id id, tb_vec2 position);
/* After the last move: standing on ground no steeper than max_slope, its
 * normal (zero in the air) and the shape (null in the air). */
bool tb_mover_is_grounded(const tb_world *world, tb_mover_id id);
tb_vec2 tb_mover_get_ground_normal(const tb_world *world, tb_mover_id id);
tb_shape_id tb_mover_get_ground_shape(const tb_world *world, tb_mover_id id);
/* The def with the current position; set_def changes all but the position. */
tb_mover_def tb_mover_get_def(const tb_world *world, tb_mover_id id);
tb_status tb_mover_set_def(tb_world *world, tb_mover_id id, const tb_mover_def *def);
int tb_world_get_movers(const tb_world *world, tb_mover_id *out, int capacity);

/* ---------------- debug draw ---------------- */

typedef enum tb_draw_state {
	TB_DRAW_STATIC, TB_DRAW_KINEMATIC, TB_DRAW_AWAKE, TB_DRAW_ASLEEP, TB_DRAW_SENSOR, TB_DRAW_DISABLED
} tb_draw_state;

/* Callbacks the host implements; any may be NULL. World coordinates. */
typedef struct tb_debug_draw {
	void (*draw_polygon)(const tb_vec2 *vertices, int count, float radius, tb_draw_state state, void *ctx);
	void (*draw_circle)(tb_vec2 center, float radius, tb_rot rotation, tb_draw_state state, void *ctx);
	void (*draw_capsule)(tb_vec2 p1, tb_vec2 p2, float radius, tb_draw_state state, void *ctx); /* and movers */
	void (*draw_segment)(tb_vec2 p1, tb_vec2 p2, tb_draw_state state, void *ctx);
	/* joints: anchor lines; kind tells the host how to style it */
	void (*draw_joint)(tb_joint_type type, tb_vec2 anchor_a, tb_vec2 anchor_b, tb_vec2 body_a_center,
	                   tb_vec2 body_b_center, void *ctx);
	void (*draw_contact)(tb_vec2 point, tb_vec2 normal, float normal_impulse, bool speculative, void *ctx);
	void (*draw_aabb)(tb_aabb aabb, bool fat, void *ctx);
	void (*draw_center_of_mass)(tb_transform xf, void *ctx);
	bool draw_shapes, draw_joints, draw_contacts, draw_aabbs, draw_mass;
	void *context;
} tb_debug_draw;

void tb_world_draw(const tb_world *world, const tb_debug_draw *draw);

#endif
