/* tumble: the Joint type and world:joint{...}. Anchors are given in world
 * coordinates (the script thinks in the scene) and stored body-local. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

const char *const tl_joint_kind_names[TB_JOINT_TYPE_COUNT + 1] = {"revolute", "prismatic", "distance", "weld",
                                                                  "mouse",    "wheel",     "motor",    NULL};

#define R (1u << TB_JOINT_REVOLUTE)
#define PR (1u << TB_JOINT_PRISMATIC)
#define D (1u << TB_JOINT_DISTANCE)
#define W (1u << TB_JOINT_WELD)
#define M (1u << TB_JOINT_MOUSE)
#define WH (1u << TB_JOINT_WHEEL)
#define MO (1u << TB_JOINT_MOTOR)
#define ALL (R | PR | D | W | M | WH | MO)
#define SPRUNG (R | PR | D | W | M | WH) /* the kinds with hertz and damping */

/* Every name of Joint: X(name, flags, kinds that have the property, kinds whose
 * constructor takes it as an option). The order is the order of the options in
 * "valid options: ..." messages. */
#define JOINT_FIELDS(X)                                                                                        \
	X(kind, TL_RO, ALL, ALL)                                                                                   \
	X(a, TL_RO, ALL, ALL)                                                                                      \
	X(b, TL_RO, ALL, ALL)                                                                                      \
	X(collide, TL_RW, ALL, ALL)                                                                                \
	X(user, TL_RW, ALL, ALL)                                                                                   \
	X(x, 0, 0, R | PR | W | M | WH)                                                                            \
	X(y, 0, 0, R | PR | W | M | WH)                                                                            \
	X(x1, 0, 0, D)                                                                                             \
	X(y1, 0, 0, D)                                                                                             \
	X(x2, 0, 0, D)                                                                                             \
	X(y2, 0, 0, D)                                                                                             \
	X(axis, 0, 0, PR | WH)                                                                                     \
	X(target, TL_RW, M, M)                                                                                     \
	X(offset, TL_RW, MO, MO)                                                                                   \
	X(angle, TL_RW, MO, MO)                                                                                    \
	X(correction, TL_RW, MO, MO)                                                                               \
	X(motor, TL_RW, R | PR | WH, R | PR | WH)                                                                  \
	X(motor_speed, TL_RW, R | PR | WH, R | PR | WH)                                                            \
	X(max_torque, TL_RW, R | WH | MO, R | WH | MO)                                                             \
	X(max_force, TL_RW, PR | M | MO, PR | M | MO)                                                              \
	X(limit, TL_RW, R | PR | WH, R | PR | WH)                                                                  \
	X(lower, TL_RW, R | PR | WH, R | PR | WH)                                                                  \
	X(upper, TL_RW, R | PR | WH, R | PR | WH)                                                                  \
	X(length, TL_RW, D, D)                                                                                     \
	X(min_length, TL_RW, D, D)                                                                                 \
	X(max_length, TL_RW, D, D)                                                                                 \
	X(spring, TL_RW, R | PR | D | WH, R | PR | D | WH)                                                         \
	X(hertz, TL_RW, SPRUNG, SPRUNG)                                                                            \
	X(damping, TL_RW, SPRUNG, SPRUNG)                                                                          \
	X(angular_hertz, TL_RW, W, W)                                                                              \
	X(angular_damping, TL_RW, W, W)                                                                            \
	X(break_force, TL_RW, ALL, ALL)                                                                            \
	X(break_torque, TL_RW, ALL, ALL)                                                                           \
	X(value, TL_RO, ALL, 0)                                                                                    \
	X(anchor_a, TL_RO, ALL, 0)                                                                                 \
	X(anchor_b, TL_RO, ALL, 0)                                                                                 \
	X(force, TL_RO, ALL, 0)                                                                                    \
	X(torque, TL_RO, ALL, 0)                                                                                   \
	X(world, TL_RO, ALL, 0)                                                                                    \
	X(valid, TL_RO | TL_ALWAYS, ALL, 0)                                                                        \
	X(id, TL_RO | TL_ALWAYS, ALL, 0)

enum {
#define ENUM(name, ...) P_##name,
	JOINT_FIELDS(ENUM)
#undef ENUM
	P_COUNT
};
static const char *const joint_names[] = {JOINT_FIELDS(TL_X_NAME) NULL};
static const uint8_t joint_flags[] = {JOINT_FIELDS(TL_X_FLAGS)};
#define KINDS(name, flags, kinds, options) (kinds),
static const uint32_t prop_kinds[] = {JOINT_FIELDS(KINDS)};
#undef KINDS
#define OPTION(name, flags, kinds, options) (options),
static const uint32_t joint_options[] = {JOINT_FIELDS(OPTION)};
#undef OPTION

/* ---------------- world:joint{...} ---------------- */

/* The body handle in option slot p: of this world, alive (it is checked again
 * once every option is read). */
static tl_handle *option_body(lua_State *L, tl_world_record *rec, int base, int p)
{
	const tl_where *w = TL_FIELD(2, joint_names[p]);
	tl_handle *h = tl_testudata(L, base + p, TL_BODY);
	if (h == NULL) tl_bad(L, w, "Body expected, got %s", tl_typename(L, base + p));
	if (h->rec != rec) tl_bad(L, w, "body of another world");
	if (!tl_handle_valid(h, TL_BODY)) tl_bad(L, w, "body was destroyed");
	return h;
}

/* A break limit: a number >= 0, math.huge (the default) for none. */
static float check_break(lua_State *L, int idx, const tl_where *w)
{
	if (lua_type(L, idx) == LUA_TNUMBER && lua_tonumber(L, idx) == HUGE_VAL) return INFINITY;
	float v = tl_float(L, idx, w);
	if (!(v >= 0.0f)) tl_bad(L, w, "number >= 0 (or math.huge) expected, got %s", tl_describe(L, idx));
	return v;
}

static float check_length(lua_State *L, int idx, const tl_where *w)
{
	float v = tl_nonneg(L, idx, w);
	if (v > (float)TL_MAX_COORD) tl_bad(L, w, "number <= 1e6 expected, got %s", tl_describe(L, idx));
	return v;
}

/* The joint's options, read before the world is touched. */
typedef struct joint_args {
	uint64_t given;  /* bit p: option p was given */
	float number[P_COUNT];
	bool flag[P_COUNT];
	tb_vec2 vector[P_COUNT];
} joint_args;

static bool given(const joint_args *a, int p) { return (a->given >> p) & 1u; }

/* Reads option p from its slot into a. */
static void read_arg(lua_State *L, int base, int p, joint_args *a)
{
	int v = base + p;
	const tl_where *w = TL_FIELD(2, joint_names[p]);
	switch (p) {
		case P_x:
		case P_y:
		case P_x1:
		case P_y1:
		case P_x2:
		case P_y2: a->number[p] = tl_coord(L, v, w); break;
		case P_axis: a->vector[p] = tl_vec2(L, v, w, false); break;
		case P_target:
		case P_offset: a->vector[p] = tl_vec2(L, v, w, true); break;
		case P_angle: a->number[p] = tl_range(L, v, w, -1.0e6, 1.0e6, "[-1e6, 1e6]"); break;
		case P_correction: a->number[p] = tl_range(L, v, w, 0.0, 1.0, "[0, 1]"); break;
		case P_break_force:
		case P_break_torque: a->number[p] = check_break(L, v, w); break;
		case P_collide:
		case P_motor:
		case P_limit:
		case P_spring: a->flag[p] = tl_bool(L, v, w); break;
		case P_motor_speed: a->number[p] = tl_float(L, v, w); break;
		case P_max_torque:
		case P_max_force:
		case P_hertz:
		case P_damping:
		case P_angular_hertz:
		case P_angular_damping: a->number[p] = tl_nonneg(L, v, w); break;
		case P_length:
		case P_min_length:
		case P_max_length: a->number[p] = check_length(L, v, w); break;
		default: return; /* kind, a, b, user: read by the caller */
	}
	a->given |= (uint64_t)1 << p;
}

int tl_world_joint(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	lua_settop(L, 2);
	lua_pushliteral(L, "kind");
	lua_rawget(L, 2);
	int kind = tl_enum(L, -1, TL_FIELD(2, "kind"), tl_joint_kind_names);
	lua_pop(L, 1);
	int base = tl_option_slots(L, &tl_joint_spec);
	tl_read_options(L, 2, &tl_joint_spec, 1u << kind, 0, TL_ARG(2), base);

	/* every option, raw and into C values (the bodies and the user value stay
	 * pinned in their slots) */
	tl_handle *ha = option_body(L, rec, base, P_a);
	tl_handle *hb = option_body(L, rec, base, P_b);
	if (ha == hb) tl_bad(L, TL_FIELD(2, "b"), "the same body as 'a'");
	joint_args args;
	memset(&args, 0, sizeof args);
	for (int p = 0; p < P_COUNT; ++p) {
		if (tl_has(L, base, p)) read_arg(L, base, p, &args);
	}
	tb_joint_def def = tb_default_joint_def((tb_joint_type)kind);
	if (given(&args, P_collide)) def.collide_connected = args.flag[P_collide];
	if (kind == TB_JOINT_DISTANCE) {
		if (given(&args, P_length)) def.length = args.number[P_length];
		if (given(&args, P_min_length)) def.min_length = args.number[P_min_length];
		if (given(&args, P_max_length)) def.max_length = args.number[P_max_length];
		if (def.min_length > def.max_length) {
			tl_bad(L, TL_FIELD(2, "min_length"), "number <= max_length expected, got %s",
			       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)def.min_length));
		}
	}
	if (given(&args, P_break_force)) def.break_force = args.number[P_break_force];
	if (given(&args, P_break_torque)) def.break_torque = args.number[P_break_torque];
	/* a wheel's axis is its suspension: up unless told */
	tb_vec2 axis = kind == TB_JOINT_WHEEL ? tb_v2(0.0f, 1.0f) : tb_v2(1.0f, 0.0f);
	if ((kind == TB_JOINT_PRISMATIC || kind == TB_JOINT_WHEEL) && given(&args, P_axis)) {
		axis = tb_normalize(args.vector[P_axis]);
		if (axis.x == 0.0f && axis.y == 0.0f) tl_bad(L, TL_FIELD(2, "axis"), "non-zero vector expected");
	}
	if (kind == TB_JOINT_REVOLUTE || kind == TB_JOINT_PRISMATIC || kind == TB_JOINT_WHEEL) {
		bool motor = false;
		if (given(&args, P_motor_speed)) def.motor_speed = args.number[P_motor_speed], motor = true;
		if (kind != TB_JOINT_PRISMATIC && given(&args, P_max_torque)) {
			def.max_motor_torque = args.number[P_max_torque], motor = true;
		}
		if (kind == TB_JOINT_PRISMATIC && given(&args, P_max_force)) {
			def.max_motor_force = args.number[P_max_force], motor = true;
		}
		def.enable_motor = given(&args, P_motor) ? args.flag[P_motor] : motor;

		/* revolute bounds are angles (any finite number), prismatic ones lengths */
		bool has_lower = tl_has(L, base, P_lower), has_upper = tl_has(L, base, P_upper);
		for (int p = P_lower; p <= P_upper; ++p) {
			if (!tl_has(L, base, p)) continue;
			const tl_where *w = TL_FIELD(2, joint_names[p]);
			float v = kind == TB_JOINT_REVOLUTE ? tl_float(L, base + p, w) : tl_coord(L, base + p, w);
			if (p == P_lower) def.lower = v; else def.upper = v;
		}
		if (has_lower != has_upper) {
			tl_bad(L, TL_FIELD(2, has_lower ? "upper" : "lower"), "number expected with '%s', got nil",
			       has_lower ? "lower" : "upper");
		}
		if (has_lower && def.lower > def.upper) {
			tl_bad(L, TL_FIELD(2, "lower"), "number <= upper expected, got %s",
			       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)def.lower));
		}
		def.enable_limit = given(&args, P_limit) ? args.flag[P_limit] : has_lower;
	}
	if ((kind == TB_JOINT_MOUSE || kind == TB_JOINT_MOTOR) && given(&args, P_max_force))
		def.max_force = args.number[P_max_force];
	if (kind == TB_JOINT_MOTOR) {
		if (given(&args, P_max_torque)) def.max_motor_torque = args.number[P_max_torque];
		if (given(&args, P_correction)) def.correction_factor = args.number[P_correction];
	}
	if (given(&args, P_hertz)) def.hertz = args.number[P_hertz];
	if (given(&args, P_damping)) def.damping_ratio = args.number[P_damping];
	if (kind == TB_JOINT_REVOLUTE || kind == TB_JOINT_PRISMATIC || kind == TB_JOINT_DISTANCE || kind == TB_JOINT_WHEEL) {
		def.enable_spring = given(&args, P_spring) ? args.flag[P_spring] : given(&args, P_hertz) && def.hertz > 0.0f;
	}
	if (kind == TB_JOINT_WELD) {
		if (given(&args, P_angular_hertz)) def.angular_hertz = args.number[P_angular_hertz];
		if (given(&args, P_angular_damping)) def.angular_damping_ratio = args.number[P_angular_damping];
	}

	/* now the world, and the bodies again: reading may have run a finalizer */
	tb_world *w = tl_world_of(rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	for (int p = P_a; p <= P_b; ++p) {
		if (!tl_handle_valid(p == P_a ? ha : hb, TL_BODY)) tl_bad(L, TL_FIELD(2, joint_names[p]), "body was destroyed");
	}
	def.body_a = tl_body_id(ha);
	def.body_b = tl_body_id(hb);
	tb_vec2 pa = tb_body_get_position(w, def.body_a), pb = tb_body_get_position(w, def.body_b);
	if (kind == TB_JOINT_DISTANCE) {
		if (given(&args, P_x1)) pa.x = args.number[P_x1];
		if (given(&args, P_y1)) pa.y = args.number[P_y1];
		if (given(&args, P_x2)) pb.x = args.number[P_x2];
		if (given(&args, P_y2)) pb.y = args.number[P_y2];
		def.local_anchor_a = tb_body_get_local_point(w, def.body_a, pa);
		def.local_anchor_b = tb_body_get_local_point(w, def.body_b, pb);
		if (!given(&args, P_length)) def.length = tb_distance(pa, pb);
	} else {
		/* one world anchor shared by both bodies; by default body b's origin
		 * (for a mouse joint: the point of b that is dragged to the target) */
		tb_vec2 anchor = pb;
		if (given(&args, P_x)) anchor.x = args.number[P_x];
		if (given(&args, P_y)) anchor.y = args.number[P_y];
		def.local_anchor_a = tb_body_get_local_point(w, def.body_a, anchor);
		def.local_anchor_b = tb_body_get_local_point(w, def.body_b, anchor);
		def.reference_angle = tb_body_get_angle(w, def.body_b) - tb_body_get_angle(w, def.body_a);
		def.target = given(&args, P_target) ? args.vector[P_target] : anchor;
	}
	if (kind == TB_JOINT_PRISMATIC || kind == TB_JOINT_WHEEL)
		def.local_axis_a = tb_body_get_local_vector(w, def.body_a, axis);
	if (kind == TB_JOINT_MOTOR) {
		/* b's origin in a's frame and the angle between them: by default where they are */
		def.linear_offset = given(&args, P_offset) ? args.vector[P_offset] : tb_body_get_local_point(w, def.body_a, pb);
		def.angular_offset = given(&args, P_angle) ? args.number[P_angle] : def.reference_angle;
	}

	tb_status st = TB_OK;
	tb_joint_id id = tb_create_joint(w, &def, &st);
	if (TB_IS_NULL(id)) tl_creation_error(L, rec, st, TL_JOINT);
	tl_push_handle(L, rec, TL_JOINT, id.index1, id.generation, false);
	if (tl_has(L, base, P_user) && !lua_isnil(L, -1)) {
		lua_pushvalue(L, base + P_user);
		lua_setiuservalue(L, -2, TL_UV_USER);
		tl_anchor(L, -1, TL_JOINT);
	}
	if (rec->record_sites) tl_record_site(L, rec, TL_JOINT, id.index1, id.generation);
	return 1;
}

/* ---------------- properties ---------------- */

static int joint_index(lua_State *L)
{
	int p;
	tl_handle *h = tl_index_property(L, &tl_joint_spec, sizeof *h, &p);
	if (h == NULL) return 1;
	if (joint_flags[p] & TL_ALWAYS) {
		/* both stay readable on a destroyed handle */
		if (p == P_valid) lua_pushboolean(L, tl_handle_valid(h, TL_JOINT)); else lua_pushinteger(L, h->index1);
		return 1;
	}
	tb_world *w = tl_joint_world(L, h);
	tb_joint_id id = tl_joint_id(h);
	tb_joint_type kind = tb_joint_get_type(w, id);
	if (!(prop_kinds[p] & (1u << kind))) return 0; /* another kind's property reads as nil */
	tb_joint_def d = tb_joint_get_def(w, id);
	switch (p) {
		case P_motor_speed: lua_pushnumber(L, d.motor_speed); break;
		case P_max_torque: lua_pushnumber(L, d.max_motor_torque); break;
		case P_max_force:
			lua_pushnumber(L, kind == TB_JOINT_MOUSE || kind == TB_JOINT_MOTOR ? d.max_force : d.max_motor_force);
			break;
		case P_offset: tl_push_vec2(L, d.linear_offset); break;
		case P_angle: lua_pushnumber(L, d.angular_offset); break;
		case P_correction: lua_pushnumber(L, d.correction_factor); break;
		case P_break_force: lua_pushnumber(L, d.break_force); break;
		case P_break_torque: lua_pushnumber(L, d.break_torque); break;
		case P_motor: lua_pushboolean(L, d.enable_motor); break;
		case P_lower:
			if (d.enable_limit) lua_pushnumber(L, d.lower); else lua_pushnil(L);
			break;
		case P_upper:
			if (d.enable_limit) lua_pushnumber(L, d.upper); else lua_pushnil(L);
			break;
		case P_limit: lua_pushboolean(L, d.enable_limit); break;
		case P_length: lua_pushnumber(L, d.length); break;
		case P_min_length: lua_pushnumber(L, d.min_length); break;
		case P_max_length: lua_pushnumber(L, d.max_length); break;
		case P_spring: lua_pushboolean(L, d.enable_spring); break;
		case P_hertz: lua_pushnumber(L, d.hertz); break;
		case P_damping: lua_pushnumber(L, d.damping_ratio); break;
		case P_angular_hertz: lua_pushnumber(L, d.angular_hertz); break;
		case P_angular_damping: lua_pushnumber(L, d.angular_damping_ratio); break;
		case P_target: tl_push_vec2(L, d.target); break;
		case P_collide: lua_pushboolean(L, d.collide_connected); break;
		case P_user: lua_getiuservalue(L, 1, TL_UV_USER); break;
		case P_kind: lua_pushstring(L, tl_joint_kind_names[kind]); break;
		case P_a: tl_push_handle(L, h->rec, TL_BODY, d.body_a.index1, d.body_a.generation, false); break;
		case P_b: tl_push_handle(L, h->rec, TL_BODY, d.body_b.index1, d.body_b.generation, false); break;
		case P_value: lua_pushnumber(L, tb_joint_get_value(w, id)); break;
		case P_anchor_a: tl_push_vec2(L, tb_joint_get_world_anchor_a(w, id)); break;
		case P_anchor_b: tl_push_vec2(L, tb_joint_get_world_anchor_b(w, id)); break;
		case P_force: tl_push_vec2(L, tb_joint_get_constraint_force(w, id)); break;
		case P_torque: lua_pushnumber(L, tb_joint_get_constraint_torque(w, id)); break;
		case P_world: tl_push_world(L, h->rec); break;
		default: lua_pushnil(L); break;
	}
	return 1;
}

/* The sentence for a status of tb_joint_set_def when Joint.<p> was assigned. */
static const char *set_def_text(tb_status st, int p)
{
	if (st == TB_ERR_INVALID_ARGUMENT) {
		switch (p) {
			case P_lower:
			case P_upper:
			case P_limit: return "lower must not exceed upper";
			case P_min_length:
			case P_max_length: return "min_length must not exceed max_length";
			/* the engine refuses a def whose kind, bodies or anchors differ from
			 * the joint's: nothing assigned here can change those */
			default: return "the joint's bodies or anchors changed while the value was read";
		}
	}
	if (st == TB_ERR_INVALID_NUMBER && p == P_target) return "target beyond 1e6 m";
	return tl_status_for(st, TL_JOINT);
}

static int joint_newindex(lua_State *L)
{
	int p;
	const char *key;
	tl_handle *h = tl_newindex_property(L, &tl_joint_spec, sizeof *h, &p, &key);
	/* the receiver and its kind first (they name the first problem), then the
	 * value, then the world again: reading a vector may run a finalizer */
	tb_joint_type kind = tb_joint_get_type(tl_joint_world(L, h), tl_joint_id(h));
	if (!(prop_kinds[p] & (1u << kind))) {
		const char *hint = tl_suggest_member(L, &tl_joint_spec, key, TL_WRITABLE, 1u << kind, prop_kinds);
		return luaL_error(L, "Joint of kind '%s' has no property '%s'%s%s", tl_joint_kind_names[kind], key,
		                  *hint ? "; " : "", hint);
	}
	lua_settop(L, 3);
	if (p == P_user) {
		bool set = !lua_isnil(L, 3);
		lua_setiuservalue(L, 1, TL_UV_USER);
		if (set) tl_anchor(L, 1, TL_JOINT);
		return 0;
	}
	const tl_where *where = TL_PROP_OF("Joint", key);
	float number = 0.0f;
	bool flag = false;
	tb_vec2 vector = tb_vec2_zero;
	switch (p) {
		case P_motor_speed: number = tl_float(L, 3, where); break;
		case P_max_torque:
		case P_max_force:
		case P_hertz:
		case P_damping:
		case P_angular_hertz:
		case P_angular_damping: number = tl_nonneg(L, 3, where); break;
		case P_lower:
		case P_upper:
			/* nil switches the limit off; a number sets that bound and switches it on */
			if (!lua_isnil(L, 3)) number = kind == TB_JOINT_REVOLUTE ? tl_float(L, 3, where) : tl_coord(L, 3, where);
			break;
		case P_length:
		case P_min_length:
		case P_max_length: number = check_length(L, 3, where); break;
		case P_motor:
		case P_limit:
		case P_spring:
		case P_collide: flag = tl_bool(L, 3, where); break;
		case P_target:
		case P_offset: vector = tl_vec2(L, 3, where, true); break;
		case P_angle: number = tl_range(L, 3, where, -1.0e6, 1.0e6, "[-1e6, 1e6]"); break;
		case P_correction: number = tl_range(L, 3, where, 0.0, 1.0, "[0, 1]"); break;
		case P_break_force:
		case P_break_torque: number = check_break(L, 3, where); break;
		default: break;
	}

	tb_world *w = tl_joint_world(L, h);
	tb_joint_id id = tl_joint_id(h);
	tb_joint_def d = tb_joint_get_def(w, id);
	switch (p) {
		case P_motor_speed: d.motor_speed = number; break;
		case P_max_torque: d.max_motor_torque = number; break;
		case P_max_force:
			if (kind == TB_JOINT_MOUSE || kind == TB_JOINT_MOTOR) d.max_force = number; else d.max_motor_force = number;
			break;
		case P_offset: d.linear_offset = vector; break;
		case P_angle: d.angular_offset = number; break;
		case P_correction: d.correction_factor = number; break;
		case P_break_force: d.break_force = number; break;
		case P_break_torque: d.break_torque = number; break;
		case P_motor: d.enable_motor = flag; break;
		case P_lower:
		case P_upper:
			if (lua_isnil(L, 3)) {
				d.enable_limit = false;
				break;
			}
			if (p == P_lower) {
				if (d.enable_limit && number > d.upper) {
					tl_bad(L, where, "number <= upper (%s) expected, got %s",
					       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)d.upper), tl_describe(L, 3));
				}
				d.lower = number;
				if (!d.enable_limit && d.upper < number) d.upper = number;
			} else {
				if (d.enable_limit && number < d.lower) {
					tl_bad(L, where, "number >= lower (%s) expected, got %s",
					       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)d.lower), tl_describe(L, 3));
				}
				d.upper = number;
				if (!d.enable_limit && d.lower > number) d.lower = number;
			}
			d.enable_limit = true;
			break;
		case P_limit: d.enable_limit = flag; break;
		case P_length: d.length = number; break;
		case P_min_length:
			if (number > d.max_length) {
				tl_bad(L, where, "number <= max_length (%s) expected, got %s",
				       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)d.max_length), tl_describe(L, 3));
			}
			d.min_length = number;
			break;
		case P_max_length:
			if (number < d.min_length) {
				tl_bad(L, where, "number >= min_length (%s) expected, got %s",
				       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)d.min_length), tl_describe(L, 3));
			}
			d.max_length = number;
			break;
		case P_spring: d.enable_spring = flag; break;
		case P_hertz: d.hertz = number; break;
		case P_damping: d.damping_ratio = number; break;
		case P_angular_hertz: d.angular_hertz = number; break;
		case P_angular_damping: d.angular_damping_ratio = number; break;
		case P_target: d.target = vector; break;
		case P_collide: d.collide_connected = flag; break;
		default: break;
	}
	tb_status st = tb_joint_set_def(w, id, &d);
	if (st != TB_OK) tl_bad(L, where, "%s", set_def_text(st, p));
	return 0;
}

/* ---------------- metamethods and methods ---------------- */

static int joint_tostring(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_JOINT);
	if (tl_handle_valid(h, TL_JOINT)) {
		tb_joint_type t = tb_joint_get_type(tl_world_of(h->rec), tl_joint_id(h));
		lua_pushfstring(L, "Joint#%d(%s)", (int)h->index1, tl_joint_kind_names[t]);
	} else {
		lua_pushfstring(L, "Joint#%d(destroyed)", (int)h->index1);
	}
	return 1;
}

static int joint_destroy(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_JOINT);
	tl_check_unlocked(L, h->rec);
	tb_world *w = tl_world_of(h->rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	if (!tl_handle_valid(h, TL_JOINT)) return 0;
	tl_forget(L, h->rec, TL_JOINT, h->index1, h->generation);
	tb_destroy_joint(w, tl_joint_id(h));
	return 0;
}

static const luaL_Reg joint_methods[] = {
	{"destroy", joint_destroy},
	{NULL, NULL},
};

static const luaL_Reg joint_meta[] = {
	{"__tostring", joint_tostring},
	{"__eq", tl_handle_eq},
	{NULL, NULL},
};

const tl_spec tl_joint_spec = {
	.type = TL_JOINT,
	.count = P_COUNT,
	.names = joint_names,
	.flags = joint_flags,
	.options = joint_options,
	.option_sets = tl_joint_kind_names,
	.methods = joint_methods,
	.meta = joint_meta,
	.index = joint_index,
	.newindex = joint_newindex,
	.kinds = tl_joint_kind_names,
};

void tl_open_joint(lua_State *L)
{
	tl_new_type(L, &tl_joint_spec);
}
