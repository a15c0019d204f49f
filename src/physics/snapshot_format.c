/* tumble physics: snapshots as bytes (tb_snapshot_save, tb_snapshot_load).
 *
 * The bytes are a header (a magic, the format version, a fingerprint of the
 * record layouts below, the payload's size and checksum) and a payload: the
 * image's settings and counters, the arrays' counts, then the arrays, every
 * field written little-endian by a table per record type. Tables rather than
 * raw records: padding and user_data pointers never reach the bytes (the same
 * world always gives the same string), and loading can check every field for
 * what its type allows (a bool is 0 or 1, a float finite) before anything
 * reads it. A slot not in use is written as its flag and generation only.
 *
 * Loading trusts nothing. Sizes are checked against the bytes left before
 * anything is allocated (so memory stays proportional to the string), every
 * field as it is read, then the image as a whole: the free-slot lists and the
 * move buffer exactly (each slot once), geometry, joint and world settings as
 * their setters would, and every index and link by tb_world_validate_links,
 * which follows no index it has not checked. Only then is it a snapshot. */
#include "snapshot.h"

#define TB_SNAPSHOT_VERSION 1u
/* \x89 catches a 7-bit channel, \r\n a text-mode conversion (as PNG's) */
static const unsigned char snapshot_magic[8] = {0x89, 'T', 'B', 'S', 'N', 'A', 'P', '\n'};

/* ---- record tables ---- */

typedef enum field_kind {
	F_F32,   /* a finite float (NaN and infinity never enter a world's state) */
	F_BITS,  /* a float of the solver's own state, any bits: absurd input (a joint
	          * between bodies 1e30 m apart) can leave NaN there, and the step
	          * keeps it from the bodies */
	F_I32,   /* any int32 (enums too: their ranges are checked with the image) */
	F_U32,
	F_U64,
	F_I16,
	F_U16,
	F_BOOL,  /* one byte, 0 or 1 */
	F_SKIP,  /* not written, loaded as zero: user_data pointers, the world's allocator and
	          * limits, and scratch the step sets before reading (state indices) */
	F_GEOM,  /* tb_geometry: the kind, then that kind's fields only */
	F_MANIFOLD, /* tb_manifold: the points in use only */
} field_kind;

typedef struct field {
	uint32_t offset;
	uint16_t kind;
	uint16_t count; /* repeated fields of the kind (floats of a vector); F_SKIP: bytes */
} field;

#define FIELD(type, member, kind) {(uint32_t)offsetof(type, member), kind, 1}
#define FIELDS(type, member, kind, n) {(uint32_t)offsetof(type, member), kind, n}
#define VEC2(type, member) FIELDS(type, member, F_F32, 2)
#define SKIP(type, member) {(uint32_t)offsetof(type, member), F_SKIP, (uint16_t)sizeof(((type *)0)->member)}
#define ID(type, member) FIELD(type, member.index1, F_I32), FIELD(type, member.generation, F_U32)

_Static_assert(sizeof(tb_transform) == 4 * sizeof(float) && sizeof(tb_aabb) == 4 * sizeof(float), "float blocks");
_Static_assert(sizeof(tb_body_type) == 4 && sizeof(tb_shape_type) == 4 && sizeof(tb_joint_type) == 4 &&
               sizeof(tb_field_kind) == 4 && sizeof(tb_falloff) == 4, "enums are written as int32");

static const field body_fields[] = {
	SKIP(tb_body, user_data),
	FIELD(tb_body, head_shape, F_I32), FIELD(tb_body, tail_shape, F_I32), FIELD(tb_body, shape_count, F_I32),
	FIELD(tb_body, head_contact_key, F_I32), FIELD(tb_body, contact_count, F_I32),
	FIELD(tb_body, head_joint_key, F_I32), FIELD(tb_body, joint_count, F_I32),
	FIELD(tb_body, mass, F_F32), FIELD(tb_body, inertia, F_F32), FIELD(tb_body, sleep_threshold, F_F32),
	FIELD(tb_body, sleep_time, F_F32), FIELD(tb_body, generation, F_U32), FIELD(tb_body, type, F_I32),
	FIELD(tb_body, in_use, F_BOOL), FIELD(tb_body, awake, F_BOOL), FIELD(tb_body, enabled, F_BOOL),
	FIELD(tb_body, enable_sleep, F_BOOL), FIELD(tb_body, fixed_rotation, F_BOOL), FIELD(tb_body, is_marked, F_BOOL),
};

static const field sim_fields[] = {
	FIELDS(tb_body_sim, transform, F_F32, 4), VEC2(tb_body_sim, center), VEC2(tb_body_sim, rotation0),
	VEC2(tb_body_sim, center0), VEC2(tb_body_sim, local_center), VEC2(tb_body_sim, linear_velocity),
	FIELD(tb_body_sim, angular_velocity, F_F32), VEC2(tb_body_sim, force), FIELD(tb_body_sim, torque, F_F32),
	FIELD(tb_body_sim, inv_mass, F_F32), FIELD(tb_body_sim, inv_inertia, F_F32),
	FIELD(tb_body_sim, min_extent, F_F32), FIELD(tb_body_sim, max_extent, F_F32),
	FIELD(tb_body_sim, linear_damping, F_F32), FIELD(tb_body_sim, angular_damping, F_F32),
	FIELD(tb_body_sim, gravity_scale, F_F32), SKIP(tb_body_sim, state_index),
	FIELD(tb_body_sim, is_bullet, F_BOOL), FIELD(tb_body_sim, is_fast, F_BOOL), SKIP(tb_body_sim, type),
};

static const field shape_fields[] = {
	FIELD(tb_shape, geom, F_GEOM), SKIP(tb_shape, user_data),
	FIELD(tb_shape, filter.category_bits, F_U64), FIELD(tb_shape, filter.mask_bits, F_U64),
	FIELD(tb_shape, filter.group_index, F_I32),
	FIELDS(tb_shape, aabb, F_F32, 4), FIELDS(tb_shape, fat_aabb, F_F32, 4),
	FIELD(tb_shape, field.kind, F_I32), VEC2(tb_shape, field.force), FIELD(tb_shape, field.strength, F_F32),
	FIELD(tb_shape, field.falloff, F_I32), VEC2(tb_shape, field.center), FIELD(tb_shape, field.drag, F_F32),
	FIELD(tb_shape, field.use_acceleration, F_BOOL),
	FIELD(tb_shape, density, F_F32), FIELD(tb_shape, friction, F_F32), FIELD(tb_shape, restitution, F_F32),
	FIELD(tb_shape, rolling_resistance, F_F32), FIELD(tb_shape, tangent_speed, F_F32), VEC2(tb_shape, one_way),
	FIELD(tb_shape, body, F_I32), FIELD(tb_shape, next_in_body, F_I32), FIELD(tb_shape, prev_in_body, F_I32),
	FIELD(tb_shape, proxy, F_I32), FIELD(tb_shape, tree, F_I32), FIELD(tb_shape, chain_id, F_I32),
	FIELD(tb_shape, sensor_index, F_I32), FIELD(tb_shape, generation, F_U32),
	FIELD(tb_shape, in_use, F_BOOL), FIELD(tb_shape, is_sensor, F_BOOL), FIELD(tb_shape, enabled, F_BOOL),
	FIELD(tb_shape, enable_sensor_events, F_BOOL), FIELD(tb_shape, enable_contact_events, F_BOOL),
	FIELD(tb_shape, enable_hit_events, F_BOOL), FIELD(tb_shape, in_move_buffer, F_BOOL),
};

static const field contact_fields[] = {
	FIELD(tb_contact, manifold, F_MANIFOLD),
	FIELD(tb_contact, edges[0].body, F_I32), FIELD(tb_contact, edges[0].prev_key, F_I32),
	FIELD(tb_contact, edges[0].next_key, F_I32), FIELD(tb_contact, edges[1].body, F_I32),
	FIELD(tb_contact, edges[1].prev_key, F_I32), FIELD(tb_contact, edges[1].next_key, F_I32),
	FIELD(tb_contact, shape_a, F_I32), FIELD(tb_contact, shape_b, F_I32),
	FIELD(tb_contact, friction, F_F32), FIELD(tb_contact, restitution, F_F32),
	FIELD(tb_contact, rolling_resistance, F_F32), FIELD(tb_contact, tangent_speed, F_F32),
	FIELD(tb_contact, rolling_impulse, F_F32),
	FIELD(tb_contact, flags, F_U32), FIELD(tb_contact, in_use, F_BOOL),
	VEC2(tb_contact, cache.turn), VEC2(tb_contact, cache.center_b), VEC2(tb_contact, cache.center_a),
	VEC2(tb_contact, cache.normal),
	FIELDS(tb_contact, cache.point_a, F_F32, 4), FIELDS(tb_contact, cache.point_b, F_F32, 4),
	FIELD(tb_contact, cache.lever, F_F32), FIELDS(tb_contact, cache.id, F_U16, 2),
	FIELD(tb_contact, cache.count, F_I32),
};

/* The per-kind solver parts of a joint are floats only (softness, masses,
 * impulses, an axis): written as one block of floats the size of the
 * largest. A kind with another type of field needs fields of its own here. */
typedef union joint_parts {
	tb_revolute_joint revolute;
	tb_prismatic_joint prismatic;
	tb_distance_joint distance;
	tb_weld_joint weld;
	tb_mouse_joint mouse;
	tb_wheel_joint wheel;
	tb_motor_joint motor;
} joint_parts;
_Static_assert(sizeof(joint_parts) % sizeof(float) == 0, "joint parts are floats");

static const field joint_fields[] = {
	FIELD(tb_joint, def.type, F_I32), ID(tb_joint, def.body_a), ID(tb_joint, def.body_b),
	VEC2(tb_joint, def.local_anchor_a), VEC2(tb_joint, def.local_anchor_b),
	FIELD(tb_joint, def.reference_angle, F_F32), VEC2(tb_joint, def.local_axis_a),
	FIELD(tb_joint, def.collide_connected, F_BOOL), FIELD(tb_joint, def.enable_limit, F_BOOL),
	FIELD(tb_joint, def.lower, F_F32), FIELD(tb_joint, def.upper, F_F32), FIELD(tb_joint, def.enable_motor, F_BOOL),
	FIELD(tb_joint, def.motor_speed, F_F32), FIELD(tb_joint, def.max_motor_torque, F_F32),
	FIELD(tb_joint, def.max_motor_force, F_F32), FIELD(tb_joint, def.length, F_F32),
	FIELD(tb_joint, def.min_length, F_F32), FIELD(tb_joint, def.max_length, F_F32),
	FIELD(tb_joint, def.enable_spring, F_BOOL), FIELD(tb_joint, def.hertz, F_F32),
	FIELD(tb_joint, def.damping_ratio, F_F32), FIELD(tb_joint, def.angular_hertz, F_F32),
	FIELD(tb_joint, def.angular_damping_ratio, F_F32), VEC2(tb_joint, def.target),
	FIELD(tb_joint, def.max_force, F_F32), VEC2(tb_joint, def.linear_offset),
	FIELD(tb_joint, def.angular_offset, F_F32), FIELD(tb_joint, def.correction_factor, F_F32),
	/* infinity (unbreakable) is their default: any bits, NaN and negatives
	 * refused with the rest of the def (tb_joint_validate_def) */
	FIELD(tb_joint, def.break_force, F_BITS), FIELD(tb_joint, def.break_torque, F_BITS),
	SKIP(tb_joint, def.user_data),
	FIELD(tb_joint, body_a, F_I32), FIELD(tb_joint, body_b, F_I32), FIELD(tb_joint, generation, F_U32),
	FIELD(tb_joint, in_use, F_BOOL), FIELD(tb_joint, is_active, F_BOOL),
	FIELDS(tb_joint, edge_prev, F_I32, 2), FIELDS(tb_joint, edge_next, F_I32, 2),
	SKIP(tb_joint, state_a), SKIP(tb_joint, state_b),
	FIELDS(tb_joint, pt.frame_a, F_BITS, 2), FIELDS(tb_joint, pt.frame_b, F_BITS, 2),
	FIELDS(tb_joint, pt.delta_center, F_BITS, 2), FIELD(tb_joint, pt.inv_mass_a, F_BITS),
	FIELD(tb_joint, pt.inv_mass_b, F_BITS), FIELD(tb_joint, pt.inv_i_a, F_BITS), FIELD(tb_joint, pt.inv_i_b, F_BITS),
	FIELDS(tb_joint, pt.linear_impulse, F_BITS, 2), FIELD(tb_joint, delta_angle, F_BITS),
	FIELD(tb_joint, last_inv_h, F_BITS), FIELDS(tb_joint, revolute, F_BITS, sizeof(joint_parts) / sizeof(float)),
};

/* def.position is not kept (position is), but written all the same */
static const field mover_fields[] = {
	FIELDS(tb_mover, def.capsule, F_F32, 5), VEC2(tb_mover, def.position), FIELD(tb_mover, def.max_slope, F_F32),
	FIELD(tb_mover, def.step_height, F_F32), FIELD(tb_mover, def.push_strength, F_F32),
	FIELD(tb_mover, def.filter.category_bits, F_U64), FIELD(tb_mover, def.filter.mask_bits, F_U64),
	SKIP(tb_mover, def.user_data), VEC2(tb_mover, position), VEC2(tb_mover, ground_normal),
	VEC2(tb_mover, ground_local), VEC2(tb_mover, ground_point), FIELD(tb_mover, ground_shape, F_I32),
	FIELD(tb_mover, ground_generation, F_U32), FIELD(tb_mover, generation, F_U32), FIELD(tb_mover, in_use, F_BOOL),
	FIELD(tb_mover, grounded, F_BOOL),
};

static const field sensor_fields[] = {
	FIELD(tb_sensor, shape, F_I32), FIELD(tb_sensor, first, F_I32), FIELD(tb_sensor, count, F_I32),
	SKIP(tb_sensor, next_first), SKIP(tb_sensor, next_count), FIELD(tb_sensor, in_use, F_BOOL),
};

static const field overlap_fields[] = {
	FIELD(tb_sensor_overlap, shape, F_I32), FIELD(tb_sensor_overlap, generation, F_U32),
};

static const field int_fields[] = {{0, F_I32, 1}};

static const field begin_event_fields[] = {
	ID(tb_contact_begin_event, shape_a), ID(tb_contact_begin_event, shape_b), VEC2(tb_contact_begin_event, normal),
	FIELDS(tb_contact_begin_event, points, F_F32, 4), FIELDS(tb_contact_begin_event, separations, F_F32, 2),
	FIELD(tb_contact_begin_event, point_count, F_I32), FIELD(tb_contact_begin_event, approach_speed, F_F32),
};

static const field end_event_fields[] = {ID(tb_contact_end_event, shape_a), ID(tb_contact_end_event, shape_b)};

static const field hit_event_fields[] = {
	ID(tb_contact_hit_event, shape_a), ID(tb_contact_hit_event, shape_b), VEC2(tb_contact_hit_event, point),
	VEC2(tb_contact_hit_event, normal), FIELD(tb_contact_hit_event, approach_speed, F_F32),
};

static const field sensor_event_fields[] = {ID(tb_sensor_event, sensor), ID(tb_sensor_event, visitor)};

static const field node_fields[] = {
	FIELDS(tb_tree_node, aabb, F_F32, 4), FIELD(tb_tree_node, category_bits, F_U64),
	FIELD(tb_tree_node, parent, F_I32), FIELD(tb_tree_node, child1, F_I32), FIELD(tb_tree_node, child2, F_I32),
	FIELD(tb_tree_node, user_data, F_I32), FIELD(tb_tree_node, height, F_I16), FIELD(tb_tree_node, moved, F_BOOL),
};

static const field def_fields[] = {
	VEC2(tb_world_def, gravity), FIELD(tb_world_def, substeps, F_I32), FIELD(tb_world_def, contact_hertz, F_F32),
	FIELD(tb_world_def, contact_damping_ratio, F_F32), FIELD(tb_world_def, joint_hertz, F_F32),
	FIELD(tb_world_def, joint_damping_ratio, F_F32), FIELD(tb_world_def, max_contact_push_speed, F_F32),
	FIELD(tb_world_def, restitution_threshold, F_F32), FIELD(tb_world_def, hit_event_threshold, F_F32),
	FIELD(tb_world_def, max_linear_speed, F_F32), FIELD(tb_world_def, time_to_sleep, F_F32),
	FIELD(tb_world_def, enable_warm_starting, F_BOOL), FIELD(tb_world_def, enable_position_correction, F_BOOL),
	FIELD(tb_world_def, enable_sleep, F_BOOL), FIELD(tb_world_def, enable_continuous, F_BOOL),
	FIELD(tb_world_def, enable_motion, F_BOOL), FIELD(tb_world_def, enable_contact_cache, F_BOOL),
	FIELD(tb_world_def, friction_mix, F_I32),
	FIELD(tb_world_def, restitution_mix, F_I32), SKIP(tb_world_def, alloc), SKIP(tb_world_def, alloc_ud),
	SKIP(tb_world_def, limits),
};

/* One record type: its table, and for object arrays where the slot's in_use
 * flag and generation sit (a free slot is written as those two only). */
typedef struct record_type {
	const char *name;
	size_t size;
	const field *fields;
	int field_count;
	int32_t in_use;     /* offset of the flag, or -1: every record is written whole */
	int32_t generation; /* offset of a free slot's generation, or -1 */
} record_type;

#define RECORD(type, table, in_use, generation)                                                              \
	{#type, sizeof(type), table, (int)(sizeof table / sizeof table[0]), in_use, generation}
#define NO_FLAG (-1)

enum { R_BODY, R_SIM, R_SHAPE, R_CONTACT, R_JOINT, R_SENSOR, R_OVERLAP, R_INT, R_BEGIN_EVENT, R_END_EVENT,
       R_HIT_EVENT, R_SENSOR_EVENT, R_NODE, R_DEF, R_MOVER, R_TYPE_COUNT };

static const record_type record_types[R_TYPE_COUNT] = {
	[R_BODY] = RECORD(tb_body, body_fields, offsetof(tb_body, in_use), offsetof(tb_body, generation)),
	/* a sim is written for a body in use only (the bodies come first) */
	[R_SIM] = RECORD(tb_body_sim, sim_fields, NO_FLAG, NO_FLAG),
	[R_SHAPE] = RECORD(tb_shape, shape_fields, offsetof(tb_shape, in_use), offsetof(tb_shape, generation)),
	[R_CONTACT] = RECORD(tb_contact, contact_fields, offsetof(tb_contact, in_use), NO_FLAG),
	[R_JOINT] = RECORD(tb_joint, joint_fields, offsetof(tb_joint, in_use), offsetof(tb_joint, generation)),
	[R_SENSOR] = RECORD(tb_sensor, sensor_fields, offsetof(tb_sensor, in_use), NO_FLAG),
	[R_OVERLAP] = RECORD(tb_sensor_overlap, overlap_fields, NO_FLAG, NO_FLAG),
	[R_INT] = RECORD(int32_t, int_fields, NO_FLAG, NO_FLAG),
	[R_BEGIN_EVENT] = RECORD(tb_contact_begin_event, begin_event_fields, NO_FLAG, NO_FLAG),
	[R_END_EVENT] = RECORD(tb_contact_end_event, end_event_fields, NO_FLAG, NO_FLAG),
	[R_HIT_EVENT] = RECORD(tb_contact_hit_event, hit_event_fields, NO_FLAG, NO_FLAG),
	[R_SENSOR_EVENT] = RECORD(tb_sensor_event, sensor_event_fields, NO_FLAG, NO_FLAG),
	[R_NODE] = RECORD(tb_tree_node, node_fields, NO_FLAG, NO_FLAG),
	[R_DEF] = RECORD(tb_world_def, def_fields, NO_FLAG, NO_FLAG),
	[R_MOVER] = RECORD(tb_mover, mover_fields, offsetof(tb_mover, in_use), offsetof(tb_mover, generation)),
};

/* The world's saved scalars (TB_SNAPSHOT_SCALARS), written after the
 * settings. Not one of record_types: the layout fingerprint predates it, so a
 * change to the list changes the format without changing the fingerprint and
 * needs TB_SNAPSHOT_VERSION raised. */
#define SCALAR_FIELD_SAVED(member, kind) FIELD(tb_world, member, F_##kind),
#define SCALAR_FIELD_DERIVED(member, kind)
#define SCALAR_FIELD(member, kind, saving) SCALAR_FIELD_##saving(member, kind)
static const field world_scalar_fields[] = {TB_SNAPSHOT_SCALARS(SCALAR_FIELD)};
#undef SCALAR_FIELD
#undef SCALAR_FIELD_SAVED
#undef SCALAR_FIELD_DERIVED
static const record_type world_scalars = RECORD(tb_world, world_scalar_fields, NO_FLAG, NO_FLAG);

/* The record type of each array of the image. */
static const int part_types[TB_PART_COUNT] = {
	[TB_PART_BODY_FREE] = R_INT, [TB_PART_BODIES] = R_BODY, [TB_PART_SIMS] = R_SIM,
	[TB_PART_SHAPE_FREE] = R_INT, [TB_PART_SHAPES] = R_SHAPE, [TB_PART_CONTACT_FREE] = R_INT,
	[TB_PART_CONTACTS] = R_CONTACT, [TB_PART_JOINT_FREE] = R_INT, [TB_PART_JOINTS] = R_JOINT,
	[TB_PART_SENSOR_FREE] = R_INT, [TB_PART_SENSORS] = R_SENSOR, [TB_PART_OVERLAPS] = R_OVERLAP,
	[TB_PART_MOVE_BUFFER] = R_INT, [TB_PART_BEGIN_EVENTS] = R_BEGIN_EVENT, [TB_PART_END_EVENTS] = R_END_EVENT,
	[TB_PART_HIT_EVENTS] = R_HIT_EVENT, [TB_PART_SENSOR_BEGIN_EVENTS] = R_SENSOR_EVENT,
	[TB_PART_SENSOR_END_EVENTS] = R_SENSOR_EVENT, [TB_PART_PENDING_END_EVENTS] = R_END_EVENT,
	[TB_PART_PENDING_SENSOR_END_EVENTS] = R_SENSOR_EVENT, [TB_PART_MOVER_FREE] = R_INT, [TB_PART_MOVERS] = R_MOVER,
};

static size_t kind_size(int kind)
{
	switch (kind) {
	case F_U64: return 8;
	case F_I16:
	case F_U16: return 2;
	case F_BOOL: return 1;
	case F_SKIP: return 0;
	default: return 4;
	}
}

/* ---- for the tests: which bytes of a record no field covers ---- */

static void mark_covered(unsigned char *covered, const field *f)
{
	size_t bytes;
	switch (f->kind) {
	case F_SKIP: bytes = f->count; break;
	case F_GEOM: bytes = sizeof(tb_geometry); break;
	case F_MANIFOLD: bytes = sizeof(tb_manifold); break;
	default: bytes = kind_size(f->kind) * f->count; break;
	}
	memset(covered + f->offset, 1, bytes);
}

int tb_snapshot_record_type_count(void) { return R_TYPE_COUNT; }
const char *tb_snapshot_record_type_name(int type) { return record_types[type].name; }

/* Bytes of the record that no field of its table covers: its padding, or a
 * field the table forgot (tests/physics/test_snapshot.c pins each count). */
size_t tb_snapshot_record_uncovered(int type)
{
	const record_type *r = record_types + type;
	unsigned char covered[512];
	TB_ASSERT(r->size <= sizeof covered);
	memset(covered, 0, r->size);
	for (int i = 0; i < r->field_count; ++i) mark_covered(covered, r->fields + i);
	size_t n = 0;
	for (size_t i = 0; i < r->size; ++i) n += covered[i] == 0;
	return n;
}

/* The layout every string is written in: a build with other records (a new
 * field, another size) writes, and reads, another fingerprint. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ull;
	return h ^ (h >> 29);
}

static uint64_t layout_fingerprint(void)
{
	uint64_t h = 0xcbf29ce484222325ull;
	h = mix(h, TB_SNAPSHOT_VERSION);
	for (int t = 0; t < R_TYPE_COUNT; ++t) {
		const record_type *r = record_types + t;
		h = mix(h, r->size);
		h = mix(h, (uint64_t)r->field_count);
		for (int i = 0; i < r->field_count; ++i) {
			h = mix(h, r->fields[i].offset);
			h = mix(h, ((uint64_t)r->fields[i].kind << 16) | r->fields[i].count);
		}
	}
	h = mix(h, TB_MAX_POLYGON_VERTICES);
	return h;
}

/* The payload's checksum: 64-bit words mixed one after the other (fast; it
 * finds damage, it does not stop an attacker, whom the loader's checks do). */
uint64_t tb_snapshot_checksum(const void *payload, size_t n)
{
	const unsigned char *p = payload;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t v;
		memcpy(&v, p + i, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* ---- writing ---- */

typedef struct writer {
	unsigned char *p; /* NULL: count only */
	size_t at;
} writer;

static void put_bytes(writer *w, const void *src, size_t n)
{
	if (w->p != NULL) memcpy(w->p + w->at, src, n);
	w->at += n;
}

static void put_u8(writer *w, uint8_t v) { put_bytes(w, &v, 1); }

static void put_u16(writer *w, uint16_t v)
{
	unsigned char b[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
	put_bytes(w, b, 2);
}

static void put_u32(writer *w, uint32_t v)
{
	unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
	put_bytes(w, b, 4);
}

static void put_u64(writer *w, uint64_t v)
{
	put_u32(w, (uint32_t)v);
	put_u32(w, (uint32_t)(v >> 32));
}

static void put_f32(writer *w, float f)
{
	uint32_t v;
	memcpy(&v, &f, 4);
	put_u32(w, v);
}

static void put_floats(writer *w, const float *f, int n)
{
	for (int i = 0; i < n; ++i) put_f32(w, f[i]);
}

static void put_i32(writer *w, int32_t v) { put_u32(w, (uint32_t)v); }

static void put_geometry(writer *w, const tb_geometry *g)
{
	put_i32(w, (int32_t)g->type);
	switch (g->type) {
	case TB_SHAPE_CIRCLE: put_floats(w, &g->circle.center.x, 3); break;
	case TB_SHAPE_CAPSULE: put_floats(w, &g->capsule.center1.x, 5); break;
	case TB_SHAPE_SEGMENT: put_floats(w, &g->segment.point1.x, 4); break;
	case TB_SHAPE_POLYGON: {
		const tb_polygon *p = &g->polygon;
		put_i32(w, p->count);
		for (int i = 0; i < p->count; ++i) put_floats(w, &p->vertices[i].x, 2);
		for (int i = 0; i < p->count; ++i) put_floats(w, &p->normals[i].x, 2);
		put_floats(w, &p->centroid.x, 2);
		put_f32(w, p->radius);
		break;
	}
	case TB_SHAPE_CHAIN_SEGMENT: {
		const tb_chain_segment *c = &g->chain_segment;
		put_floats(w, &c->ghost1.x, 2);
		put_floats(w, &c->segment.point1.x, 4);
		put_floats(w, &c->ghost2.x, 2);
		put_i32(w, c->chain_id);
		break;
	}
	default: break;
	}
}

static void put_manifold(writer *w, const tb_manifold *m)
{
	put_floats(w, &m->normal.x, 2);
	put_i32(w, m->point_count);
	for (int i = 0; i < m->point_count; ++i) {
		const tb_manifold_point *mp = m->points + i;
		put_floats(w, &mp->point.x, 2);
		put_floats(w, &mp->anchor_a.x, 2);
		put_floats(w, &mp->anchor_b.x, 2);
		put_f32(w, mp->separation);
		put_f32(w, mp->normal_impulse);
		put_f32(w, mp->tangent_impulse);
		put_f32(w, mp->max_normal_impulse);
		put_f32(w, mp->normal_velocity);
		put_u16(w, mp->id);
		put_u8(w, mp->persisted ? 1 : 0);
	}
}

static void put_fields(writer *w, const record_type *r, const unsigned char *rec)
{
	for (int i = 0; i < r->field_count; ++i) {
		const field *f = r->fields + i;
		const unsigned char *p = rec + f->offset;
		for (int k = 0; k < (f->kind == F_SKIP ? 0 : f->count); ++k) {
			switch (f->kind) {
			case F_F32:
			case F_BITS:
			case F_I32:
			case F_U32: {
				uint32_t v;
				memcpy(&v, p + 4 * k, 4);
				put_u32(w, v);
				break;
			}
			case F_U64: {
				uint64_t v;
				memcpy(&v, p + 8 * k, 8);
				put_u64(w, v);
				break;
			}
			case F_I16:
			case F_U16: {
				uint16_t v;
				memcpy(&v, p + 2 * k, 2);
				put_u16(w, v);
				break;
			}
			case F_BOOL: put_u8(w, *(const bool *)(p + k) ? 1 : 0); break;
			case F_GEOM: put_geometry(w, (const tb_geometry *)p); break;
			case F_MANIFOLD: put_manifold(w, (const tb_manifold *)p); break;
			default: break;
			}
		}
	}
}

static bool slot_in_use(const record_type *r, const unsigned char *rec) { return *(const bool *)(rec + r->in_use); }

static void put_records(writer *w, const tb_world *img, int part)
{
	const record_type *r = record_types + part_types[part];
	const unsigned char *data = tb_part_data(img, part);
	int32_t n = tb_part_count(img, part);
	for (int32_t i = 0; i < n; ++i) {
		const unsigned char *rec = data + (size_t)i * r->size;
		if (part == TB_PART_SIMS && !img->bodies.data[i].in_use) continue;
		if (r->in_use != NO_FLAG) {
			bool live = slot_in_use(r, rec);
			put_u8(w, live ? 1 : 0);
			if (!live) {
				if (r->generation != NO_FLAG) put_u32(w, *(const uint32_t *)(rec + r->generation));
				continue;
			}
		}
		put_fields(w, r, rec);
	}
}

static void put_tree_scalars(writer *w, const tb_dynamic_tree *t)
{
	put_i32(w, t->node_capacity);
	put_i32(w, t->root);
	put_i32(w, t->node_count);
	put_i32(w, t->free_list);
	put_i32(w, t->proxy_count);
}

static void put_payload(writer *w, const tb_snapshot *snap)
{
	const tb_world *img = &snap->image;
	put_fields(w, record_types + R_DEF, (const unsigned char *)&img->def);
	put_fields(w, &world_scalars, (const unsigned char *)img);
	put_i32(w, snap->field_refresh);
	for (int t = 0; t < 2; ++t) put_tree_scalars(w, &img->broad_phase.trees[t]);
	for (int p = 0; p < TB_PART_COUNT; ++p) put_i32(w, tb_part_count(img, p));
	for (int p = 0; p < TB_PART_COUNT; ++p) put_records(w, img, p);
	for (int t = 0; t < 2; ++t) {
		const tb_dynamic_tree *tree = &img->broad_phase.trees[t];
		for (int32_t i = 0; i < tree->node_capacity; ++i)
			put_fields(w, record_types + R_NODE, (const unsigned char *)(tree->nodes + i));
	}
}

size_t tb_snapshot_save(const tb_snapshot *snap, void *out, size_t capacity)
{
	if (snap == NULL) return 0;
	writer count = {NULL, 0};
	put_payload(&count, snap);
	size_t total = TB_SNAPSHOT_HEADER_SIZE + count.at;
	if (out == NULL || capacity < total) return total;

	unsigned char *bytes = out;
	writer w = {bytes + TB_SNAPSHOT_HEADER_SIZE, 0};
	put_payload(&w, snap);
	TB_ASSERT(w.at == count.at);
	writer h = {bytes, 0};
	put_bytes(&h, snapshot_magic, sizeof snapshot_magic);
	put_u32(&h, TB_SNAPSHOT_VERSION);
	put_u64(&h, layout_fingerprint());
	put_u64(&h, (uint64_t)count.at);
	put_u64(&h, tb_snapshot_checksum(bytes + TB_SNAPSHOT_HEADER_SIZE, count.at));
	put_u32(&h, 0); /* reserved */
	TB_ASSERT(h.at == TB_SNAPSHOT_HEADER_SIZE);
	return total;
}

/* ---- reading ---- */

typedef struct reader {
	const unsigned char *p;
	size_t at, size;
	bool bad; /* sticky: past the end, or a field out of its kind's range */
} reader;

static bool take(reader *r, size_t n)
{
	if (r->bad || n > r->size - r->at) {
		r->bad = true;
		return false;
	}
	return true;
}

static uint8_t get_u8(reader *r)
{
	if (!take(r, 1)) return 0;
	return r->p[r->at++];
}

static uint16_t get_u16(reader *r)
{
	if (!take(r, 2)) return 0;
	const unsigned char *b = r->p + r->at;
	r->at += 2;
	return (uint16_t)(b[0] | (b[1] << 8));
}

static uint32_t get_u32(reader *r)
{
	if (!take(r, 4)) return 0;
	const unsigned char *b = r->p + r->at;
	r->at += 4;
	return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static uint64_t get_u64(reader *r)
{
	uint64_t lo = get_u32(r);
	return lo | ((uint64_t)get_u32(r) << 32);
}

static int32_t get_i32(reader *r) { return (int32_t)get_u32(r); }

static float get_f32(reader *r)
{
	uint32_t v = get_u32(r);
	/* every float of an image is finite: NaN and infinity never enter a world */
	if ((v & 0x7f800000u) == 0x7f800000u) r->bad = true;
	float f;
	memcpy(&f, &v, 4);
	return f;
}

static float get_bits(reader *r)
{
	uint32_t v = get_u32(r);
	float f;
	memcpy(&f, &v, 4);
	return f;
}

static void get_floats(reader *r, float *f, int n)
{
	for (int i = 0; i < n; ++i) f[i] = get_f32(r);
}

static bool get_bool(reader *r)
{
	uint8_t v = get_u8(r);
	if (v > 1) r->bad = true;
	return v == 1;
}

static void get_geometry(reader *r, tb_geometry *g)
{
	g->type = (tb_shape_type)get_i32(r);
	switch (g->type) {
	case TB_SHAPE_CIRCLE: get_floats(r, &g->circle.center.x, 3); break;
	case TB_SHAPE_CAPSULE: get_floats(r, &g->capsule.center1.x, 5); break;
	case TB_SHAPE_SEGMENT: get_floats(r, &g->segment.point1.x, 4); break;
	case TB_SHAPE_POLYGON: {
		tb_polygon *p = &g->polygon;
		int32_t count = get_i32(r);
		if (count < 0 || count > TB_MAX_POLYGON_VERTICES) {
			r->bad = true;
			return;
		}
		p->count = count;
		for (int i = 0; i < count; ++i) get_floats(r, &p->vertices[i].x, 2);
		for (int i = 0; i < count; ++i) get_floats(r, &p->normals[i].x, 2);
		get_floats(r, &p->centroid.x, 2);
		p->radius = get_f32(r);
		break;
	}
	case TB_SHAPE_CHAIN_SEGMENT: {
		tb_chain_segment *c = &g->chain_segment;
		get_floats(r, &c->ghost1.x, 2);
		get_floats(r, &c->segment.point1.x, 4);
		get_floats(r, &c->ghost2.x, 2);
		c->chain_id = get_i32(r);
		break;
	}
	default: r->bad = true; break;
	}
}

static void get_manifold(reader *r, tb_manifold *m)
{
	get_floats(r, &m->normal.x, 2);
	int32_t count = get_i32(r);
	if (count < 0 || count > 2) {
		r->bad = true;
		return;
	}
	m->point_count = count;
	for (int i = 0; i < count; ++i) {
		tb_manifold_point *mp = m->points + i;
		get_floats(r, &mp->point.x, 2);
		get_floats(r, &mp->anchor_a.x, 2);
		get_floats(r, &mp->anchor_b.x, 2);
		mp->separation = get_f32(r);
		/* the solver's own state (see F_BITS) */
		mp->normal_impulse = get_bits(r);
		mp->tangent_impulse = get_bits(r);
		mp->max_normal_impulse = get_bits(r);
		mp->normal_velocity = get_bits(r);
		mp->id = get_u16(r);
		mp->persisted = get_bool(r);
	}
}

/* Into a zeroed record. */
static void get_fields(reader *r, const record_type *t, unsigned char *rec)
{
	for (int i = 0; i < t->field_count && !r->bad; ++i) {
		const field *f = t->fields + i;
		unsigned char *p = rec + f->offset;
		for (int k = 0; k < (f->kind == F_SKIP ? 0 : f->count); ++k) {
			switch (f->kind) {
			case F_F32: {
				float v = get_f32(r);
				memcpy(p + 4 * k, &v, 4);
				break;
			}
			case F_BITS:
			case F_I32:
			case F_U32: {
				uint32_t v = get_u32(r);
				memcpy(p + 4 * k, &v, 4);
				break;
			}
			case F_U64: {
				uint64_t v = get_u64(r);
				memcpy(p + 8 * k, &v, 8);
				break;
			}
			case F_I16:
			case F_U16: {
				uint16_t v = get_u16(r);
				memcpy(p + 2 * k, &v, 2);
				break;
			}
			case F_BOOL: *(bool *)(p + k) = get_bool(r); break;
			case F_GEOM: get_geometry(r, (tb_geometry *)p); break;
			case F_MANIFOLD: get_manifold(r, (tb_manifold *)p); break;
			default: break;
			}
		}
	}
}

/* The fewest bytes a record of the type takes (a free slot's), to hold a
 * count against the bytes left before memory is asked for. */
static size_t min_record_bytes(int part)
{
	const record_type *r = record_types + part_types[part];
	if (part == TB_PART_SIMS) return 0; /* none for a free slot */
	if (r->in_use != NO_FLAG) return 1 + (r->generation != NO_FLAG ? 4 : 0);
	size_t n = 0;
	for (int i = 0; i < r->field_count; ++i) n += kind_size(r->fields[i].kind) * r->fields[i].count;
	return n;
}

static void get_records(reader *r, tb_world *img, int part)
{
	const record_type *t = record_types + part_types[part];
	unsigned char *data = tb_part_data(img, part);
	int32_t n = tb_part_count(img, part);
	for (int32_t i = 0; i < n && !r->bad; ++i) {
		unsigned char *rec = data + (size_t)i * t->size;
		if (part == TB_PART_SIMS && !img->bodies.data[i].in_use) continue;
		if (t->in_use != NO_FLAG) {
			bool live = get_bool(r);
			if (!live) {
				if (t->generation != NO_FLAG) {
					uint32_t g = get_u32(r);
					memcpy(rec + t->generation, &g, 4);
				}
				continue;
			}
		}
		get_fields(r, t, rec);
		/* the flag inside the fields agrees with the one before them */
		if (t->in_use != NO_FLAG && !slot_in_use(t, rec)) r->bad = true;
	}
}

static void get_tree_scalars(reader *r, tb_dynamic_tree *t, int32_t *capacity)
{
	*capacity = get_i32(r);
	t->root = get_i32(r);
	t->node_count = get_i32(r);
	t->free_list = get_i32(r);
	t->proxy_count = get_i32(r);
}

/* ---- checks of a loaded image beyond the links ---- */

/* A set of slots is exactly the records with (or without) a flag, each once. */
static bool exact_slots(const int32_t *slots, int32_t n, int32_t records, const unsigned char *data, size_t stride,
                        size_t flag, bool flag_value, unsigned char *marks)
{
	memset(marks, 0, (size_t)records);
	int32_t expected = 0;
	for (int32_t i = 0; i < records; ++i) expected += *(const bool *)(data + (size_t)i * stride + flag) == flag_value;
	if (n != expected) return false;
	for (int32_t k = 0; k < n; ++k) {
		int32_t s = slots[k];
		if (s < 0 || s >= records || marks[s]) return false;
		if (*(const bool *)(data + (size_t)s * stride + flag) != flag_value) return false;
		marks[s] = 1;
	}
	return true;
}

static bool check_sets(const tb_world *img, unsigned char *marks)
{
#define FREE_SLOTS(pool, array, type)                                                                         \
	exact_slots(img->pool.free_ids.data, img->pool.free_ids.count, img->array.count,                          \
	            (const unsigned char *)img->array.data, sizeof(type), offsetof(type, in_use), false, marks)
	if (!FREE_SLOTS(body_pool, bodies, tb_body) || !FREE_SLOTS(shape_pool, shapes, tb_shape) ||
	    !FREE_SLOTS(contact_pool, contacts, tb_contact) || !FREE_SLOTS(joint_pool, joints, tb_joint) ||
	    !FREE_SLOTS(sensor_pool, sensors, tb_sensor) || !FREE_SLOTS(mover_pool, movers, tb_mover))
		return false;
#undef FREE_SLOTS
	/* the move buffer: the shapes flagged in it (flags of free slots are zero) */
	const tb_int_array *mb = &img->broad_phase.move_buffer;
	return exact_slots(mb->data, mb->count, img->shapes.count, (const unsigned char *)img->shapes.data,
	                   sizeof(tb_shape), offsetof(tb_shape, in_move_buffer), true, marks);
}

/* What the setters would have refused, and scratch that must not carry an
 * index into the restored world. */
static bool check_values(tb_snapshot *snap)
{
	tb_world *img = &snap->image;
	int32_t breakable = 0;
	if (tb_validate_world_def(&img->def) != TB_OK) return false;
	/* counters the engine adds one to stay far from overflow */
	if (img->island_count < 0 || img->next_chain_id < 0 || img->next_chain_id > INT32_MAX / 2 ||
	    img->step_count < 0 || img->step_count > INT32_MAX / 2)
		return false;
	for (int32_t i = 0; i < img->bodies.count; ++i) {
		img->sims.data[i].state_index = TB_NULL_INDEX;
		/* a copy of the body's type (a wrong one is refused with the body) */
		img->sims.data[i].type = (uint8_t)img->bodies.data[i].type;
	}
	for (int32_t i = 0; i < img->shapes.count; ++i) {
		const tb_shape *s = img->shapes.data + i;
		/* a generation counts a slot's reuses: past 2^28 the string is damaged
		 * (sensor overlaps keep 29 bits of it, which a restore's shift must not
		 * carry past the top while the shape's own generation does not) */
		if (s->generation > TB_GENERATION_CAP) return false;
		if (!s->in_use) continue;
		if (tb_validate_geometry(&s->geom) != TB_OK) return false;
		if ((int)s->field.kind < TB_FIELD_NONE || (int)s->field.kind > TB_FIELD_DRAG) return false;
		if ((int)s->field.falloff < TB_FALLOFF_NONE || (int)s->field.falloff > TB_FALLOFF_INVERSE_SQUARE) return false;
		if (s->field.drag < 0.0f) return false;
		if (s->rolling_resistance < 0.0f) return false;
		/* one_way: zero or a unit direction, as the setter leaves it */
		float up = tb_length(s->one_way);
		if (up != 0.0f && !(fabsf(up - 1.0f) < 1.0e-3f)) return false;
	}
	for (int32_t i = 0; i < img->joints.count; ++i) {
		tb_joint *j = img->joints.data + i;
		j->state_a = j->state_b = TB_NULL_INDEX;
		if (!j->in_use) continue;
		if (tb_joint_validate_def(&j->def) != TB_OK) return false;
		if (tb_joint_is_breakable(&j->def)) breakable += 1;
	}
	img->breakable_joint_count = breakable;
	for (int32_t i = 0; i < img->movers.count; ++i) {
		const tb_mover *m = img->movers.data + i;
		if (!m->in_use) continue;
		if (tb_validate_mover_def(&m->def) != TB_OK) return false;
		if (!(fabsf(m->position.x) <= TB_HUGE && fabsf(m->position.y) <= TB_HUGE)) return false;
	}
	for (int32_t i = 0; i < img->sensors.count; ++i) {
		img->sensors.data[i].next_first = 0;
		img->sensors.data[i].next_count = 0;
	}
	for (int32_t k = 0; k < img->begin_events.count; ++k) {
		int n = img->begin_events.data[k].point_count;
		if (n < 0 || n > 2) return false;
	}
	return true;
}

/* The pair set from the live contacts: a pair twice is corrupt. */
static bool build_pairs(tb_world *img)
{
	/* each pair's moving-wall flag from its bodies as loaded, not from the
	 * string (which may predate the flag); bodies out of range are refused
	 * with the links */
	for (int32_t i = 0; i < img->contacts.count; ++i) {
		tb_contact *c = img->contacts.data + i;
		c->flags &= ~(uint32_t)TB_CONTACT_WALL;
		int32_t a = c->edges[0].body, b = c->edges[1].body;
		if (c->in_use && 0 <= a && a < img->bodies.count && 0 <= b && b < img->bodies.count &&
		    tb_is_moving_wall_pair(img, a, b))
			c->flags |= TB_CONTACT_WALL;
	}
	tb_pair_set *set = &img->broad_phase.pairs;
	memset(set->entries, 0, (size_t)set->capacity * sizeof *set->entries);
	set->count = 0;
	/* and the count of touching ones, for the image's counters */
	img->touching_contact_count = 0;
	for (int32_t i = 0; i < img->contacts.count; ++i) {
		const tb_contact *c = img->contacts.data + i;
		if (!c->in_use) continue;
		if (tb_pair_set_find(set, c->shape_a, c->shape_b) != TB_NULL_INDEX) return false;
		tb_pair_set_add(set, c->shape_a, c->shape_b, i);
		img->touching_contact_count += (c->flags & TB_CONTACT_TOUCHING) != 0;
	}
	return true;
}

static int32_t pair_capacity_for(int32_t contacts)
{
	int32_t cap = 256;
	while (cap < 2 * contacts) cap *= 2;
	return cap;
}

static tb_status check_limits(const tb_world *img, const tb_world_limits *l)
{
	if (l->max_bodies > 0 && tb_id_pool_count(&img->body_pool) > l->max_bodies) return TB_ERR_BODY_LIMIT;
	if (l->max_shapes > 0 && tb_id_pool_count(&img->shape_pool) > l->max_shapes) return TB_ERR_SHAPE_LIMIT;
	if (l->max_joints > 0 && tb_id_pool_count(&img->joint_pool) > l->max_joints) return TB_ERR_JOINT_LIMIT;
	if (l->max_contacts > 0 && tb_id_pool_count(&img->contact_pool) > l->max_contacts) return TB_ERR_CONTACT_LIMIT;
	return TB_OK;
}

/* The same from the counts alone, before any memory is asked for: the live
 * objects (slots less free slots, which check_sets then holds exact), and the
 * slots themselves. A world under these limits makes a slot only when no
 * free one can be reused, so it has no more slots than its limit of live
 * objects and the slots it has used up (TB_GENERATION_CAP): twice the limit
 * is room enough. A string of free slots (five bytes each) would otherwise
 * have the loader and then the restore reserve a record and the step's room
 * for each. */
static tb_status check_counts(const int32_t counts[TB_PART_COUNT], const tb_world_limits *l)
{
	static const struct {
		int slots, free;
		tb_status status;
	} kinds[] = {{TB_PART_BODIES, TB_PART_BODY_FREE, TB_ERR_BODY_LIMIT},
	             {TB_PART_SHAPES, TB_PART_SHAPE_FREE, TB_ERR_SHAPE_LIMIT},
	             {TB_PART_JOINTS, TB_PART_JOINT_FREE, TB_ERR_JOINT_LIMIT},
	             {TB_PART_CONTACTS, TB_PART_CONTACT_FREE, TB_ERR_CONTACT_LIMIT}};
	const int32_t most[] = {l->max_bodies, l->max_shapes, l->max_joints, l->max_contacts};
	for (int k = 0; k < 4; ++k) {
		if (most[k] <= 0) continue;
		if (counts[kinds[k].slots] - counts[kinds[k].free] > most[k] || counts[kinds[k].slots] / 2 > most[k])
			return kinds[k].status;
	}
	return TB_OK;
}

/* The links, with scratch stacks for the trees' walks. */
static tb_status check_links(tb_snapshot *snap, tb_allocator *a)
{
	tb_world *img = &snap->image;
	int32_t *stacks[2] = {NULL, NULL};
	size_t sizes[2] = {0, 0};
	tb_status status = TB_OK;
	for (int t = 0; t < 2 && status == TB_OK; ++t) {
		tb_dynamic_tree *tree = &img->broad_phase.trees[t];
		sizes[t] = (size_t)tree->node_capacity * sizeof(int32_t);
		if (sizes[t] > 0 && (stacks[t] = tb_alloc(a, sizes[t])) == NULL) status = TB_ERR_OUT_OF_MEMORY;
		tree->stack = stacks[t];
		tree->stack_capacity = tree->node_capacity;
	}
	if (status == TB_OK && !tb_world_validate_links(img)) status = TB_ERR_SNAPSHOT_CORRUPT;
	for (int t = 0; t < 2; ++t) {
		tb_free(a, stacks[t], sizes[t]);
		img->broad_phase.trees[t].stack = NULL;
		img->broad_phase.trees[t].stack_capacity = 0;
	}
	return status;
}

static tb_snapshot *load_failed(tb_snapshot *snap, tb_status *status, tb_status why)
{
	tb_snapshot_free(snap);
	*status = why;
	return NULL;
}

tb_snapshot *tb_snapshot_load(const void *bytes, size_t size, const tb_world_def *def, tb_status *status)
{
	tb_status ignored;
	if (status == NULL) status = &ignored;
	tb_world_def defaults = tb_default_world_def();
	if (def == NULL) def = &defaults;
	if (bytes == NULL && size > 0) return load_failed(NULL, status, TB_ERR_INVALID_ARGUMENT);

	/* the header */
	reader h = {bytes, 0, size, false};
	if (size < TB_SNAPSHOT_HEADER_SIZE || memcmp(bytes, snapshot_magic, sizeof snapshot_magic) != 0)
		return load_failed(NULL, status, TB_ERR_SNAPSHOT_FORMAT);
	h.at = sizeof snapshot_magic;
	uint32_t version = get_u32(&h);
	uint64_t fingerprint = get_u64(&h);
	uint64_t payload_size = get_u64(&h);
	uint64_t sum = get_u64(&h);
	if (version != TB_SNAPSHOT_VERSION || fingerprint != layout_fingerprint())
		return load_failed(NULL, status, TB_ERR_SNAPSHOT_VERSION);
	if (payload_size != size - TB_SNAPSHOT_HEADER_SIZE) return load_failed(NULL, status, TB_ERR_SNAPSHOT_CORRUPT);
	const unsigned char *payload = (const unsigned char *)bytes + TB_SNAPSHOT_HEADER_SIZE;
	if (tb_snapshot_checksum(payload, (size_t)payload_size) != sum) return load_failed(NULL, status, TB_ERR_SNAPSHOT_CORRUPT);

	/* settings, counters and counts, each count held against the bytes left */
	reader r = {payload, 0, (size_t)payload_size, false};
	tb_world scalars;
	memset(&scalars, 0, sizeof scalars);
	get_fields(&r, record_types + R_DEF, (unsigned char *)&scalars.def);
	get_fields(&r, &world_scalars, (unsigned char *)&scalars);
	int32_t field_refresh = get_i32(&r);
	int32_t tree_nodes[2], counts[TB_PART_COUNT];
	for (int t = 0; t < 2; ++t) get_tree_scalars(&r, &scalars.broad_phase.trees[t], &tree_nodes[t]);
	for (int p = 0; p < TB_PART_COUNT; ++p) counts[p] = get_i32(&r);
	if (r.bad) return load_failed(NULL, status, TB_ERR_SNAPSHOT_CORRUPT);
	size_t left = r.size - r.at, need = 0;
	const int32_t most = INT32_MAX / 8; /* room for the engine's doubling and keys (slot << 1) */
	for (int p = 0; p < TB_PART_COUNT; ++p) {
		if (counts[p] < 0 || counts[p] > most) return load_failed(NULL, status, TB_ERR_SNAPSHOT_CORRUPT);
		need += (size_t)counts[p] * min_record_bytes(p);
		if (need > left) return load_failed(NULL, status, TB_ERR_SNAPSHOT_CORRUPT);
	}
	size_t per_node = 0;
	for (int i = 0; i < record_types[R_NODE].field_count; ++i)
		per_node += kind_size(record_types[R_NODE].fields[i].kind) * record_types[R_NODE].fields[i].count;
	for (int t = 0; t < 2; ++t) {
		if (tree_nodes[t] < 0 || tree_nodes[t] > most) return load_failed(NULL, status, TB_ERR_SNAPSHOT_CORRUPT);
		need += (size_t)tree_nodes[t] * per_node;
		if (need > left) return load_failed(NULL, status, TB_ERR_SNAPSHOT_CORRUPT);
	}
	if (counts[TB_PART_SIMS] != counts[TB_PART_BODIES] || counts[TB_PART_BODIES] != scalars.body_pool.next_index ||
	    counts[TB_PART_SHAPES] != scalars.shape_pool.next_index ||
	    counts[TB_PART_CONTACTS] != scalars.contact_pool.next_index ||
	    counts[TB_PART_JOINTS] != scalars.joint_pool.next_index ||
	    counts[TB_PART_SENSORS] != scalars.sensor_pool.next_index ||
	    counts[TB_PART_MOVERS] != scalars.mover_pool.next_index)
		return load_failed(NULL, status, TB_ERR_SNAPSHOT_CORRUPT);

	tb_status within = check_counts(counts, &def->limits);
	if (within != TB_OK) return load_failed(NULL, status, within);

	/* the snapshot, in def's memory (within its max_bytes: asked of nobody when it is not) */
	int32_t pair_capacity = pair_capacity_for(counts[TB_PART_CONTACTS]);
	size_t block_size = tb_snapshot_block_size(counts, tree_nodes, pair_capacity);
	if (def->limits.max_bytes > 0 && block_size > def->limits.max_bytes)
		return load_failed(NULL, status, TB_ERR_OUT_OF_MEMORY);
	tb_allocator a;
	tb_allocator_init(&a, def->alloc, def->alloc_ud, def->limits.max_bytes);
	tb_snapshot *snap = tb_snapshot_alloc(&a, block_size);
	if (snap == NULL) return load_failed(NULL, status, TB_ERR_OUT_OF_MEMORY);
	if (block_size > 0) memset(snap->block, 0, block_size);
	tb_world *img = &snap->image;
	*img = scalars;
	snap->field_refresh = field_refresh;
	tb_snapshot_layout(snap, counts, tree_nodes, pair_capacity);

	/* the records, each field checked as it is read */
	for (int p = 0; p < TB_PART_COUNT && !r.bad; ++p) get_records(&r, img, p);
	for (int t = 0; t < 2 && !r.bad; ++t) {
		tb_dynamic_tree *tree = &img->broad_phase.trees[t];
		for (int32_t i = 0; i < tree->node_capacity && !r.bad; ++i)
			get_fields(&r, record_types + R_NODE, (unsigned char *)(tree->nodes + i));
	}
	if (r.bad || r.at != r.size) return load_failed(snap, status, TB_ERR_SNAPSHOT_CORRUPT);

	/* the image as a whole */
	int32_t most_records = 1;
	for (int p = 0; p < TB_PART_COUNT; ++p) most_records = counts[p] > most_records ? counts[p] : most_records;
	unsigned char *marks = tb_alloc(&snap->allocator, (size_t)most_records);
	if (marks == NULL) return load_failed(snap, status, TB_ERR_OUT_OF_MEMORY);
	bool sets = check_sets(img, marks);
	tb_free(&snap->allocator, marks, (size_t)most_records);
	if (!sets || !check_values(snap) || !tb_snapshot_check_values(img) || !build_pairs(img))
		return load_failed(snap, status, TB_ERR_SNAPSHOT_CORRUPT);
	tb_status links = check_links(snap, &snap->allocator);
	if (links != TB_OK) return load_failed(snap, status, links);
	tb_status limits = check_limits(img, &def->limits);
	if (limits != TB_OK) return load_failed(snap, status, limits);
	snap->lineage = 0;
	*status = TB_OK;
	return snap;
}
