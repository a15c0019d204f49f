/* tumble: the Joint type and world:joint{...}. Anchors are given in world
 * coordinates (the script thinks in the scene) and stored body-local. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

const char *const tl_joint_kind_names[TB_JOINT_TYPE_COUNT + 1] = {"revolute", "prismatic", "distance", "weld",
                                                                  "mouse", NULL};

/* Writable properties first; P_KIND and after are read-only. */
enum {
	P_MOTOR_SPEED,
	P_MAX_TORQUE,
	P_MAX_FORCE,
	P_MOTOR,
	P_LOWER,
	P_UPPER,
	P_LIMIT,
	P_LENGTH,
	P_MIN_LENGTH,
	P_MAX_LENGTH,
	P_SPRING,
	P_HERTZ,
	P_DAMPING,
	P_ANGULAR_HERTZ,
	P_ANGULAR_DAMPING,
	P_TARGET,
	P_COLLIDE,
	P_USER,
	P_KIND,
	P_READ_ONLY = P_KIND,
	P_A,
	P_B,
	P_VALUE,
	P_ANCHOR_A,
	P_ANCHOR_B,
	P_FORCE,
	P_TORQUE,
	P_WORLD,
	P_VALID,
	P_ID,
	P_COUNT
};

static const char *const joint_props[] = {
	"motor_speed", "max_torque", "max_force", "motor", "lower", "upper", "limit", "length", "min_length",
	"max_length", "spring", "hertz", "damping", "angular_hertz", "angular_damping", "target", "collide", "user",
	"kind", "a", "b", "value", "anchor_a", "anchor_b", "force", "torque", "world", "valid", "id", NULL};

#define R (1u << TB_JOINT_REVOLUTE)
#define PR (1u << TB_JOINT_PRISMATIC)
#define D (1u << TB_JOINT_DISTANCE)
#define W (1u << TB_JOINT_WELD)
#define M (1u << TB_JOINT_MOUSE)
#define ALL (R | PR | D | W | M)

/* Which kinds have each property. */
static const unsigned prop_kinds[P_COUNT] = {
	[P_MOTOR_SPEED] = R | PR,
	[P_MAX_TORQUE] = R,
	[P_MAX_FORCE] = PR | M,
	[P_MOTOR] = R | PR,
	[P_LOWER] = R | PR,
	[P_UPPER] = R | PR,
	[P_LIMIT] = R | PR,
	[P_LENGTH] = D,
	[P_MIN_LENGTH] = D,
	[P_MAX_LENGTH] = D,
	[P_SPRING] = R | PR | D,
	[P_HERTZ] = R | PR | D | W | M,
	[P_DAMPING] = R | PR | D | W | M,
	[P_ANGULAR_HERTZ] = W,
	[P_ANGULAR_DAMPING] = W,
	[P_TARGET] = M,
	[P_COLLIDE] = ALL,
	[P_USER] = ALL,
	[P_KIND] = ALL,
	[P_A] = ALL,
	[P_B] = ALL,
	[P_VALUE] = ALL,
	[P_ANCHOR_A] = ALL,
	[P_ANCHOR_B] = ALL,
	[P_FORCE] = ALL,
	[P_TORQUE] = ALL,
	[P_WORLD] = ALL,
	[P_VALID] = ALL,
	[P_ID] = ALL,
};

static const char *const revolute_options[] = {"kind", "a", "b", "collide", "user", "x", "y", "motor",
                                               "motor_speed", "max_torque", "limit", "lower", "upper", "spring",
                                               "hertz", "damping", NULL};
static const char *const prismatic_options[] = {"kind", "a", "b", "collide", "user", "x", "y", "axis", "motor",
                                                "motor_speed", "max_force", "limit", "lower", "upper", "spring",
                                                "hertz", "damping", NULL};
static const char *const distance_options[] = {"kind", "a", "b", "collide", "user", "x1", "y1", "x2", "y2",
                                               "length", "min_length", "max_length", "spring", "hertz", "damping",
                                               NULL};
static const char *const weld_options[] = {"kind", "a", "b", "collide", "user", "x", "y", "hertz", "damping",
                                           "angular_hertz", "angular_damping", NULL};
static const char *const mouse_options[] = {"kind", "a", "b", "collide", "user", "x", "y", "target", "max_force",
                                            "hertz", "damping", NULL};
static const char *const *const kind_options[TB_JOINT_TYPE_COUNT] = {revolute_options, prismatic_options,
                                                                     distance_options, weld_options, mouse_options};

/* ---------------- world:joint{...} ---------------- */

static tb_body_id field_body(lua_State *L, tl_world_record *rec, const char *name)
{
	const tl_where *w = TL_FIELD(2, name);
	lua_getfield(L, 2, name);
	tl_handle *h = tl_to_handle(L, -1, TL_BODY);
	if (h == NULL) tl_bad(L, w, "Body expected, got %s", tl_typename(L, -1));
	if (h->rec != rec) tl_bad(L, w, "body of another world");
	if (!tl_handle_valid(h, TL_BODY)) tl_bad(L, w, "body was destroyed");
	lua_pop(L, 1);
	return tl_body_id(h);
}

/* Reads a number option if present. */
static bool opt_number(lua_State *L, const char *name, float *out, float (*check)(lua_State *, int, const tl_where *))
{
	if (!tl_opt(L, 2, name)) return false;
	*out = check(L, -1, TL_FIELD(2, name));
	lua_pop(L, 1);
	return true;
}

static bool opt_bool(lua_State *L, const char *name, bool *out)
{
	if (!tl_opt(L, 2, name)) return false;
	*out = tl_bool(L, -1, TL_FIELD(2, name));
	lua_pop(L, 1);
	return true;
}

static float check_length(lua_State *L, int idx, const tl_where *w)
{
	float v = tl_nonneg(L, idx, w);
	if (v > (float)TL_MAX_COORD) tl_bad(L, w, "number <= 1e6 expected, got %s", tl_describe(L, idx));
	return v;
}

int tl_world_joint(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	lua_getfield(L, 2, "kind");
	int kind = tl_enum(L, -1, TL_FIELD(2, "kind"), tl_joint_kind_names);
	lua_pop(L, 1);
	tl_check_options(L, 2, kind_options[kind], 0);
	tb_world *w = rec->world;
	tb_joint_def def = tb_default_joint_def((tb_joint_type)kind);
	def.body_a = field_body(L, rec, "a");
	def.body_b = field_body(L, rec, "b");
	if (TB_ID_EQUALS(def.body_a, def.body_b)) tl_bad(L, TL_FIELD(2, "b"), "the same body as 'a'");
	opt_bool(L, "collide", &def.collide_connected);

	tb_vec2 pa = tb_body_get_position(w, def.body_a), pb = tb_body_get_position(w, def.body_b);
	if (kind == TB_JOINT_DISTANCE) {
		opt_number(L, "x1", &pa.x, tl_coord);
		opt_number(L, "y1", &pa.y, tl_coord);
		opt_number(L, "x2", &pb.x, tl_coord);
		opt_number(L, "y2", &pb.y, tl_coord);
		def.local_anchor_a = tb_body_get_local_point(w, def.body_a, pa);
		def.local_anchor_b = tb_body_get_local_point(w, def.body_b, pb);
		def.length = tb_distance(pa, pb);
		opt_number(L, "length", &def.length, check_length);
		opt_number(L, "min_length", &def.min_length, check_length);
		opt_number(L, "max_length", &def.max_length, check_length);
		if (def.min_length > def.max_length) {
			tl_bad(L, TL_FIELD(2, "min_length"), "number <= max_length expected, got %s",
			       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)def.min_length));
		}
	} else {
		/* one world anchor shared by both bodies; by default body b's origin
		 * (for a mouse joint: the point of b that is dragged to the target) */
		tb_vec2 anchor = pb;
		opt_number(L, "x", &anchor.x, tl_coord);
		opt_number(L, "y", &anchor.y, tl_coord);
		def.local_anchor_a = tb_body_get_local_point(w, def.body_a, anchor);
		def.local_anchor_b = tb_body_get_local_point(w, def.body_b, anchor);
		def.reference_angle = tb_body_get_angle(w, def.body_b) - tb_body_get_angle(w, def.body_a);
		def.target = anchor;
		if (kind == TB_JOINT_MOUSE && tl_opt(L, 2, "target")) {
			def.target = tl_vec2(L, -1, TL_FIELD(2, "target"), true);
			lua_pop(L, 1);
		}
	}
	if (kind == TB_JOINT_PRISMATIC && tl_opt(L, 2, "axis")) {
		tb_vec2 axis = tl_vec2(L, -1, TL_FIELD(2, "axis"), false);
		lua_pop(L, 1);
		axis = tb_normalize(axis);
		if (axis.x == 0.0f && axis.y == 0.0f) tl_bad(L, TL_FIELD(2, "axis"), "non-zero vector expected");
		def.local_axis_a = tb_body_get_local_vector(w, def.body_a, axis);
	} else if (kind == TB_JOINT_PRISMATIC) {
		def.local_axis_a = tb_body_get_local_vector(w, def.body_a, tb_v2(1.0f, 0.0f));
	}

	if (kind == TB_JOINT_REVOLUTE || kind == TB_JOINT_PRISMATIC) {
		bool given = opt_number(L, "motor_speed", &def.motor_speed, tl_float);
		if (kind == TB_JOINT_REVOLUTE) given |= opt_number(L, "max_torque", &def.max_motor_torque, tl_nonneg);
		if (kind == TB_JOINT_PRISMATIC) given |= opt_number(L, "max_force", &def.max_motor_force, tl_nonneg);
		def.enable_motor = given;
		opt_bool(L, "motor", &def.enable_motor);

		float (*bound)(lua_State *, int, const tl_where *) = kind == TB_JOINT_REVOLUTE ? tl_float : tl_coord;
		bool has_lower = opt_number(L, "lower", &def.lower, bound);
		bool has_upper = opt_number(L, "upper", &def.upper, bound);
		if (has_lower != has_upper) {
			tl_bad(L, TL_FIELD(2, has_lower ? "upper" : "lower"), "number expected with '%s', got nil",
			       has_lower ? "lower" : "upper");
		}
		if (has_lower && def.lower > def.upper) {
			tl_bad(L, TL_FIELD(2, "lower"), "number <= upper expected, got %s",
			       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)def.lower));
		}
		def.enable_limit = has_lower;
		opt_bool(L, "limit", &def.enable_limit);
	}
	if (kind == TB_JOINT_MOUSE) opt_number(L, "max_force", &def.max_force, tl_nonneg);
	bool has_hertz = opt_number(L, "hertz", &def.hertz, tl_nonneg);
	opt_number(L, "damping", &def.damping_ratio, tl_nonneg);
	if (kind == TB_JOINT_REVOLUTE || kind == TB_JOINT_PRISMATIC || kind == TB_JOINT_DISTANCE) {
		def.enable_spring = has_hertz && def.hertz > 0.0f;
		opt_bool(L, "spring", &def.enable_spring);
	}
	if (kind == TB_JOINT_WELD) {
		opt_number(L, "angular_hertz", &def.angular_hertz, tl_nonneg);
		opt_number(L, "angular_damping", &def.angular_damping_ratio, tl_nonneg);
	}

	tb_status st = TB_OK;
	tb_joint_id id = tb_create_joint(w, &def, &st);
	if (TB_IS_NULL(id)) return luaL_argerror(L, 2, tl_status_text(st != TB_OK ? st : TB_ERR_INVALID_ARGUMENT));
	tl_push_handle(L, rec, TL_JOINT, id.index1, id.generation, false);
	if (lua_getfield(L, 2, "user") != LUA_TNIL) {
		lua_setiuservalue(L, -2, 1);
		tl_anchor(L, -1, TL_JOINT);
	} else {
		lua_pop(L, 1);
	}
	return 1;
}

/* ---------------- properties ---------------- */

static int joint_index(lua_State *L)
{
	/* key first (it is on top), as in body_index */
	if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNUMBER) return 1;
	int p = (int)lua_tointeger(L, 2) - 1;
	tl_handle *h = lua_touserdata(L, 1);
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, "Joint");
	}
	if (p == P_VALID || p == P_ID) {
		/* both stay readable on a destroyed handle */
		if (p == P_VALID) lua_pushboolean(L, tl_handle_valid(h, TL_JOINT)); else lua_pushinteger(L, h->index1);
		return 1;
	}
	tb_world *w = tl_live(L, h, TL_JOINT);
	tb_joint_id id = tl_joint_id(h);
	tb_joint_type kind = tb_joint_get_type(w, id);
	if (!(prop_kinds[p] & (1u << kind))) {
		lua_pushnil(L);
		return 1;
	}
	tb_joint_def d = tb_joint_get_def(w, id);
	switch (p) {
		case P_MOTOR_SPEED: lua_pushnumber(L, d.motor_speed); break;
		case P_MAX_TORQUE: lua_pushnumber(L, d.max_motor_torque); break;
		case P_MAX_FORCE: lua_pushnumber(L, kind == TB_JOINT_MOUSE ? d.max_force : d.max_motor_force); break;
		case P_MOTOR: lua_pushboolean(L, d.enable_motor); break;
		case P_LOWER:
			if (d.enable_limit) lua_pushnumber(L, d.lower); else lua_pushnil(L);
			break;
		case P_UPPER:
			if (d.enable_limit) lua_pushnumber(L, d.upper); else lua_pushnil(L);
			break;
		case P_LIMIT: lua_pushboolean(L, d.enable_limit); break;
		case P_LENGTH: lua_pushnumber(L, d.length); break;
		case P_MIN_LENGTH: lua_pushnumber(L, d.min_length); break;
		case P_MAX_LENGTH: lua_pushnumber(L, d.max_length); break;
		case P_SPRING: lua_pushboolean(L, d.enable_spring); break;
		case P_HERTZ: lua_pushnumber(L, d.hertz); break;
		case P_DAMPING: lua_pushnumber(L, d.damping_ratio); break;
		case P_ANGULAR_HERTZ: lua_pushnumber(L, d.angular_hertz); break;
		case P_ANGULAR_DAMPING: lua_pushnumber(L, d.angular_damping_ratio); break;
		case P_TARGET: tl_push_vec2(L, d.target); break;
		case P_COLLIDE: lua_pushboolean(L, d.collide_connected); break;
		case P_USER: lua_getiuservalue(L, 1, 1); break;
		case P_KIND: lua_pushstring(L, tl_joint_kind_names[kind]); break;
		case P_A: tl_push_handle(L, h->rec, TL_BODY, d.body_a.index1, d.body_a.generation, false); break;
		case P_B: tl_push_handle(L, h->rec, TL_BODY, d.body_b.index1, d.body_b.generation, false); break;
		case P_VALUE: lua_pushnumber(L, tb_joint_get_value(w, id)); break;
		case P_ANCHOR_A: tl_push_vec2(L, tb_joint_get_world_anchor_a(w, id)); break;
		case P_ANCHOR_B: tl_push_vec2(L, tb_joint_get_world_anchor_b(w, id)); break;
		case P_FORCE: tl_push_vec2(L, tb_joint_get_constraint_force(w, id)); break;
		case P_TORQUE: lua_pushnumber(L, tb_joint_get_constraint_torque(w, id)); break;
		case P_WORLD: tl_push_world(L, h->rec); break;
		case P_ID: lua_pushinteger(L, h->index1); break;
		default: lua_pushnil(L); break;
	}
	return 1;
}

static int joint_newindex(lua_State *L)
{
	tl_handle *h = lua_touserdata(L, 1);
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, "Joint");
	}
	lua_pop(L, 1);
	lua_pushvalue(L, 2);
	int t = lua_rawget(L, lua_upvalueindex(1));
	if (t == LUA_TNIL || lua_type(L, 2) != LUA_TSTRING) {
		return luaL_error(L, "Joint has no property '%s'", luaL_tolstring(L, 2, NULL));
	}
	const char *key = lua_tostring(L, 2);
	if (t == LUA_TFUNCTION) return luaL_error(L, "cannot assign method '%s' of Joint", key);
	int p = (int)lua_tointeger(L, -1) - 1;
	lua_pop(L, 1);
	if (p >= P_READ_ONLY) return luaL_error(L, "cannot assign read-only property '%s' of Joint", key);
	tb_world *w = tl_live(L, h, TL_JOINT);
	tb_joint_id id = tl_joint_id(h);
	tb_joint_type kind = tb_joint_get_type(w, id);
	if (!(prop_kinds[p] & (1u << kind))) {
		return luaL_error(L, "Joint of kind '%s' has no property '%s'", tl_joint_kind_names[kind], key);
	}
	if (p == P_USER) {
		lua_settop(L, 3);
		lua_setiuservalue(L, 1, 1);
		if (!lua_isnil(L, 3)) tl_anchor(L, 1, TL_JOINT);
		return 0;
	}
	const tl_where *where = TL_PROP("Joint", key);
	tb_joint_def d = tb_joint_get_def(w, id);
	switch (p) {
		case P_MOTOR_SPEED: d.motor_speed = tl_float(L, 3, where); break;
		case P_MAX_TORQUE: d.max_motor_torque = tl_nonneg(L, 3, where); break;
		case P_MAX_FORCE:
			if (kind == TB_JOINT_MOUSE) d.max_force = tl_nonneg(L, 3, where);
			else d.max_motor_force = tl_nonneg(L, 3, where);
			break;
		case P_MOTOR: d.enable_motor = tl_bool(L, 3, where); break;
		case P_LOWER:
		case P_UPPER:
			/* nil switches the limit off; a number sets that bound and switches it on */
			if (lua_isnil(L, 3)) {
				d.enable_limit = false;
				break;
			}
			{
				float v = kind == TB_JOINT_REVOLUTE ? tl_float(L, 3, where) : tl_coord(L, 3, where);
				if (p == P_LOWER) {
					if (d.enable_limit && v > d.upper) {
						tl_bad(L, where, "number <= upper (%s) expected, got %s",
						       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)d.upper), tl_describe(L, 3));
					}
					d.lower = v;
					if (!d.enable_limit && d.upper < v) d.upper = v;
				} else {
					if (d.enable_limit && v < d.lower) {
						tl_bad(L, where, "number >= lower (%s) expected, got %s",
						       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)d.lower), tl_describe(L, 3));
					}
					d.upper = v;
					if (!d.enable_limit && d.lower > v) d.lower = v;
				}
				d.enable_limit = true;
			}
			break;
		case P_LIMIT: d.enable_limit = tl_bool(L, 3, where); break;
		case P_LENGTH: d.length = check_length(L, 3, where); break;
		case P_MIN_LENGTH:
			d.min_length = check_length(L, 3, where);
			if (d.min_length > d.max_length) {
				tl_bad(L, where, "number <= max_length (%s) expected, got %s",
				       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)d.max_length), tl_describe(L, 3));
			}
			break;
		case P_MAX_LENGTH:
			d.max_length = check_length(L, 3, where);
			if (d.max_length < d.min_length) {
				tl_bad(L, where, "number >= min_length (%s) expected, got %s",
				       lua_pushfstring(L, "%f", (LUAI_UACNUMBER)d.min_length), tl_describe(L, 3));
			}
			break;
		case P_SPRING: d.enable_spring = tl_bool(L, 3, where); break;
		case P_HERTZ: d.hertz = tl_nonneg(L, 3, where); break;
		case P_DAMPING: d.damping_ratio = tl_nonneg(L, 3, where); break;
		case P_ANGULAR_HERTZ: d.angular_hertz = tl_nonneg(L, 3, where); break;
		case P_ANGULAR_DAMPING: d.angular_damping_ratio = tl_nonneg(L, 3, where); break;
		case P_TARGET: d.target = tl_vec2(L, 3, where, true); break;
		case P_COLLIDE: d.collide_connected = tl_bool(L, 3, where); break;
		default: break;
	}
	tb_status st = tb_joint_set_def(w, id, &d);
	if (st != TB_OK) tl_bad(L, where, "%s", tl_status_text(st));
	return 0;
}

/* ---------------- metamethods and methods ---------------- */

static int joint_tostring(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_JOINT);
	if (tl_handle_valid(h, TL_JOINT)) {
		tb_joint_type t = tb_joint_get_type(h->rec->world, tl_joint_id(h));
		lua_pushfstring(L, "Joint#%d(%s)", (int)h->index1, tl_joint_kind_names[t]);
	} else {
		lua_pushfstring(L, "Joint#%d(destroyed)", (int)h->index1);
	}
	return 1;
}

static int joint_gc(lua_State *L)
{
	tl_handle *h = tl_to_handle(L, 1, TL_JOINT);
	if (h != NULL && h->rec != NULL) {
		tl_record_release(h->rec);
		h->rec = NULL;
	}
	return 0;
}

static int joint_destroy(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_JOINT);
	if (h->rec == NULL || h->rec->world == NULL) return luaL_error(L, "world was destroyed");
	if (!tl_handle_valid(h, TL_JOINT)) return 0;
	tl_forget(L, h->rec, TL_JOINT, h->index1, h->generation);
	tb_destroy_joint(h->rec->world, tl_joint_id(h));
	return 0;
}

static const luaL_Reg joint_methods[] = {
	{"destroy", joint_destroy},
	{NULL, NULL},
};

const tl_type_info tl_joint_info = {joint_props, P_READ_ONLY, joint_methods, NULL, tl_joint_kind_names};

void tl_open_joint(lua_State *L)
{
	tl_new_metatable(L, TL_JOINT);
	tl_set_accessors(L, -1, joint_props, joint_methods, joint_index, joint_newindex);
	lua_pushcfunction(L, joint_gc);
	lua_setfield(L, -2, "__gc");
	lua_pushcfunction(L, joint_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pushcfunction(L, tl_handle_eq);
	lua_setfield(L, -2, "__eq");
	lua_pop(L, 1);
}
