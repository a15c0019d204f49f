/* tumble: the Body type and world:body{...}. */
#include <math.h>
#include <string.h>

#include "lua_internal.h"

static const char *const body_type_names[] = {"static", "kinematic", "dynamic", NULL};

/* Writable properties first; P_MASS and after are read-only. */
enum {
	P_X,
	P_Y,
	P_ANGLE,
	P_VX,
	P_VY,
	P_SPIN,
	P_TYPE,
	P_AWAKE,
	P_ENABLED,
	P_BULLET,
	P_FIXED_ROTATION,
	P_GRAVITY_SCALE,
	P_LINEAR_DAMPING,
	P_ANGULAR_DAMPING,
	P_CAN_SLEEP,
	P_USER,
	P_MASS,
	P_READ_ONLY = P_MASS,
	P_INERTIA,
	P_WORLD,
	P_VALID,
	P_ID,
};

static const char *const body_props[] = {
	"x", "y", "angle", "vx", "vy", "spin", "type", "awake", "enabled", "bullet", "fixed_rotation", "gravity_scale",
	"linear_damping", "angular_damping", "can_sleep", "user", "mass", "inertia", "world", "valid", "id", NULL};

/* The constructor takes every writable property. */
static const char *const body_options[] = {
	"x", "y", "angle", "vx", "vy", "spin", "type", "awake", "enabled", "bullet", "fixed_rotation", "gravity_scale",
	"linear_damping", "angular_damping", "can_sleep", "user", NULL};

/* ---------------- world:body{...} ---------------- */

int tl_world_body(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tb_body_def def = tb_default_body_def();
	bool has_user = false;
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		tl_check_options(L, 2, body_options, 0);
		for (int p = 0; body_options[p] != NULL; ++p) {
			if (!tl_opt(L, 2, body_options[p])) continue;
			const tl_where *w = TL_FIELD(2, body_options[p]);
			switch (p) {
				case P_X: def.position.x = tl_coord(L, -1, w); break;
				case P_Y: def.position.y = tl_coord(L, -1, w); break;
				case P_ANGLE: def.angle = tl_coord(L, -1, w); break;
				case P_VX: def.linear_velocity.x = tl_coord(L, -1, w); break;
				case P_VY: def.linear_velocity.y = tl_coord(L, -1, w); break;
				case P_SPIN: def.angular_velocity = tl_coord(L, -1, w); break;
				case P_TYPE: def.type = (tb_body_type)tl_enum(L, -1, w, body_type_names); break;
				case P_AWAKE: def.is_awake = tl_bool(L, -1, w); break;
				case P_ENABLED: def.is_enabled = tl_bool(L, -1, w); break;
				case P_BULLET: def.is_bullet = tl_bool(L, -1, w); break;
				case P_FIXED_ROTATION: def.fixed_rotation = tl_bool(L, -1, w); break;
				case P_GRAVITY_SCALE: def.gravity_scale = tl_coord(L, -1, w); break;
				case P_LINEAR_DAMPING: def.linear_damping = tl_nonneg(L, -1, w); break;
				case P_ANGULAR_DAMPING: def.angular_damping = tl_nonneg(L, -1, w); break;
				case P_CAN_SLEEP: def.enable_sleep = tl_bool(L, -1, w); break;
				case P_USER: has_user = true; break;
				default: break;
			}
			lua_pop(L, 1);
		}
	}
	tb_status st;
	tb_body_id id = tb_create_body(rec->world, &def, &st);
	if (TB_IS_NULL(id)) return luaL_error(L, "could not create the body (%s)", tl_status_text(st));
	tl_push_handle(L, rec, TL_BODY, id.index1, id.generation, false);
	if (has_user) {
		lua_getfield(L, 2, "user");
		lua_setiuservalue(L, -2, 1);
		tl_anchor(L, -1, TL_BODY);
	}
	return 1;
}

/* Drops the Lua side of the body, its shapes and its joints, then the body. */
void tl_destroy_body(lua_State *L, tl_world_record *rec, tb_body_id id)
{
	tb_world *w = rec->world;
	int n = tb_body_get_shapes(w, id, NULL, 0);
	if (n > 0) {
		tb_shape_id *shapes = tl_scratch(L, rec, sizeof(tb_shape_id) * (size_t)n);
		n = tb_body_get_shapes(w, id, shapes, n);
		for (int i = 0; i < n; ++i) {
			tb_shape_id s = ((tb_shape_id *)rec->scratch)[i];
			tl_forget(L, rec, TL_SHAPE, s.index1, s.generation);
		}
	}
	n = tb_body_get_joints(w, id, NULL, 0);
	if (n > 0) {
		tb_joint_id *joints = tl_scratch(L, rec, sizeof(tb_joint_id) * (size_t)n);
		n = tb_body_get_joints(w, id, joints, n);
		for (int i = 0; i < n; ++i) {
			tb_joint_id j = ((tb_joint_id *)rec->scratch)[i];
			tl_forget(L, rec, TL_JOINT, j.index1, j.generation);
		}
	}
	tl_forget(L, rec, TL_BODY, id.index1, id.generation);
	tb_destroy_body(w, id);
}

/* ---------------- properties ---------------- */

/* The property paths are the hottest in most scripts (b.x in every frame), so
 * they avoid every call they can: the key is looked up before the type check
 * (the lookup table is an upvalue), numbers are checked inline and only a bad
 * value takes the slow path that builds the error message. */
static int body_index(lua_State *L)
{
	if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNUMBER) {
		/* a method or nil; index 1 is checked by the method itself */
		return 1;
	}
	int p = (int)lua_tointeger(L, 2) - 1;
	tl_handle *h = lua_touserdata(L, 1);
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, "Body");
	}
	if (p == P_VALID || p == P_ID) {
		/* both stay readable on a destroyed handle */
		if (p == P_VALID) lua_pushboolean(L, tl_handle_valid(h, TL_BODY)); else lua_pushinteger(L, h->index1);
		return 1;
	}
	tb_world *w = tl_live_body(L, h);
	tb_body_id id = tl_body_id(h);
	switch (p) {
		case P_X: lua_pushnumber(L, tb_body_get_position(w, id).x); break;
		case P_Y: lua_pushnumber(L, tb_body_get_position(w, id).y); break;
		case P_ANGLE: lua_pushnumber(L, tb_body_get_angle(w, id)); break;
		case P_VX: lua_pushnumber(L, tb_body_get_linear_velocity(w, id).x); break;
		case P_VY: lua_pushnumber(L, tb_body_get_linear_velocity(w, id).y); break;
		case P_SPIN: lua_pushnumber(L, tb_body_get_angular_velocity(w, id)); break;
		case P_TYPE: lua_pushstring(L, body_type_names[tb_body_get_type(w, id)]); break;
		case P_AWAKE: lua_pushboolean(L, tb_body_is_awake(w, id)); break;
		case P_ENABLED: lua_pushboolean(L, tb_body_is_enabled(w, id)); break;
		case P_BULLET: lua_pushboolean(L, tb_body_is_bullet(w, id)); break;
		case P_FIXED_ROTATION: lua_pushboolean(L, tb_body_is_fixed_rotation(w, id)); break;
		case P_GRAVITY_SCALE: lua_pushnumber(L, tb_body_get_gravity_scale(w, id)); break;
		case P_LINEAR_DAMPING: lua_pushnumber(L, tb_body_get_linear_damping(w, id)); break;
		case P_ANGULAR_DAMPING: lua_pushnumber(L, tb_body_get_angular_damping(w, id)); break;
		case P_CAN_SLEEP: lua_pushboolean(L, tb_body_is_sleep_enabled(w, id)); break;
		case P_USER: lua_getiuservalue(L, 1, 1); break;
		case P_MASS: lua_pushnumber(L, tb_body_get_mass(w, id)); break;
		case P_INERTIA: lua_pushnumber(L, tb_body_get_inertia(w, id)); break;
		case P_WORLD: tl_push_world(L, h->rec); break;
		default: lua_pushnil(L); break;
	}
	return 1;
}

/* The assigned value (index 3) as a coordinate-sized float: inline for a plain
 * number in range, the full check (and its error) otherwise. */
static inline float prop_coord(lua_State *L)
{
	if (lua_type(L, 3) == LUA_TNUMBER) {
		double d = lua_tonumber(L, 3);
		if (fabs(d) <= TL_MAX_COORD) return (float)d;
	}
	return tl_coord(L, 3, TL_PROP("Body", lua_tostring(L, 2)));
}

static int body_newindex(lua_State *L)
{
	lua_pushvalue(L, 2);
	int t = lua_rawget(L, lua_upvalueindex(1));
	tl_handle *h = lua_touserdata(L, 1);
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, "Body");
	}
	if (t != LUA_TNUMBER) {
		if (t == LUA_TFUNCTION && lua_type(L, 2) == LUA_TSTRING) {
			return luaL_error(L, "cannot assign method '%s' of Body", lua_tostring(L, 2));
		}
		return luaL_error(L, "Body has no property '%s'", luaL_tolstring(L, 2, NULL));
	}
	int p = (int)lua_tointeger(L, 4) - 1;
	if (p >= P_READ_ONLY) return luaL_error(L, "cannot assign read-only property '%s' of Body", lua_tostring(L, 2));
	tb_world *w = tl_live_body(L, h);
	tb_body_id id = tl_body_id(h);
	switch (p) {
		case P_X:
		case P_Y: {
			float v = prop_coord(L);
			tb_vec2 pos = tb_body_get_position(w, id);
			if (p == P_X) pos.x = v; else pos.y = v;
			tb_body_set_transform(w, id, pos, tb_body_get_angle(w, id));
			break;
		}
		case P_ANGLE: tb_body_set_transform(w, id, tb_body_get_position(w, id), prop_coord(L)); break;
		case P_VX:
		case P_VY: {
			float v = prop_coord(L);
			tb_vec2 vel = tb_body_get_linear_velocity(w, id);
			if (p == P_VX) vel.x = v; else vel.y = v;
			tb_body_set_linear_velocity(w, id, vel);
			break;
		}
		case P_SPIN: tb_body_set_angular_velocity(w, id, prop_coord(L)); break;
		case P_GRAVITY_SCALE: tb_body_set_gravity_scale(w, id, prop_coord(L)); break;
		default: {
			const tl_where *where = TL_PROP("Body", lua_tostring(L, 2));
			switch (p) {
				case P_TYPE: tb_body_set_type(w, id, (tb_body_type)tl_enum(L, 3, where, body_type_names)); break;
				case P_AWAKE: tb_body_set_awake(w, id, tl_bool(L, 3, where)); break;
				case P_ENABLED: tb_body_set_enabled(w, id, tl_bool(L, 3, where)); break;
				case P_BULLET: tb_body_set_bullet(w, id, tl_bool(L, 3, where)); break;
				case P_FIXED_ROTATION: tb_body_set_fixed_rotation(w, id, tl_bool(L, 3, where)); break;
				case P_LINEAR_DAMPING: tb_body_set_linear_damping(w, id, tl_nonneg(L, 3, where)); break;
				case P_ANGULAR_DAMPING: tb_body_set_angular_damping(w, id, tl_nonneg(L, 3, where)); break;
				case P_CAN_SLEEP: tb_body_enable_sleep(w, id, tl_bool(L, 3, where)); break;
				case P_USER:
					lua_settop(L, 3);
					lua_setiuservalue(L, 1, 1);
					if (!lua_isnil(L, 3)) tl_anchor(L, 1, TL_BODY);
					break;
				default: break;
			}
		}
	}
	return 0;
}

/* ---------------- metamethods ---------------- */

static int body_tostring(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_BODY);
	if (tl_handle_valid(h, TL_BODY)) {
		tb_body_type t = tb_body_get_type(h->rec->world, tl_body_id(h));
		lua_pushfstring(L, "Body#%d(%s)", (int)h->index1, body_type_names[t]);
	} else {
		lua_pushfstring(L, "Body#%d(destroyed)", (int)h->index1);
	}
	return 1;
}

static int body_gc(lua_State *L)
{
	tl_handle *h = tl_to_handle(L, 1, TL_BODY);
	if (h != NULL && h->rec != NULL) {
		tl_record_release(h->rec);
		h->rec = NULL;
	}
	return 0;
}

/* ---------------- methods ---------------- */

static tb_vec2 check_point(lua_State *L, int arg)
{
	float x = tl_coord(L, arg, TL_ARG(arg));
	float y = tl_coord(L, arg + 1, TL_ARG(arg + 1));
	return tb_v2(x, y);
}

static tb_vec2 check_vector(lua_State *L, int arg)
{
	float x = tl_float(L, arg, TL_ARG(arg));
	float y = tl_float(L, arg + 1, TL_ARG(arg + 1));
	return tb_v2(x, y);
}

static int push_xy(lua_State *L, tb_vec2 v)
{
	lua_pushnumber(L, v.x);
	lua_pushnumber(L, v.y);
	return 2;
}

static int body_apply_force(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	tb_vec2 f = check_vector(L, 2);
	if (lua_isnoneornil(L, 4)) {
		tb_body_apply_force_to_center(w, id, f, true);
	} else {
		tb_body_apply_force(w, id, f, check_point(L, 4), true);
	}
	return 0;
}

static int body_apply_impulse(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	tb_vec2 j = check_vector(L, 2);
	if (lua_isnoneornil(L, 4)) {
		tb_body_apply_linear_impulse_to_center(w, id, j, true);
	} else {
		tb_body_apply_linear_impulse(w, id, j, check_point(L, 4), true);
	}
	return 0;
}

static int body_apply_torque(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	tb_body_apply_torque(w, id, tl_float(L, 2, TL_ARG(2)), true);
	return 0;
}

static int body_apply_angular_impulse(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	tb_body_apply_angular_impulse(w, id, tl_float(L, 2, TL_ARG(2)), true);
	return 0;
}

static int body_destroy(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_BODY);
	/* destroying twice is harmless, like closing a closed file is not: but a
	 * destroyed world is still an error */
	if (h->rec == NULL || h->rec->world == NULL) return luaL_error(L, "world was destroyed");
	if (!tl_handle_valid(h, TL_BODY)) return 0;
	tl_destroy_body(L, h->rec, tl_body_id(h));
	return 0;
}

static int body_shapes(lua_State *L)
{
	tl_handle *h;
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, &h);
	int n = tb_body_get_shapes(w, id, NULL, 0);
	tb_shape_id *ids = tl_scratch(L, h->rec, sizeof(tb_shape_id) * (size_t)(n > 0 ? n : 1));
	n = tb_body_get_shapes(w, id, ids, n);
	lua_createtable(L, n, 0);
	for (int i = 0; i < n; ++i) {
		tb_shape_id s = ((tb_shape_id *)h->rec->scratch)[i];
		tl_push_handle(L, h->rec, TL_SHAPE, s.index1, s.generation, false);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

static int body_joints(lua_State *L)
{
	tl_handle *h;
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, &h);
	int n = tb_body_get_joints(w, id, NULL, 0);
	tb_joint_id *ids = tl_scratch(L, h->rec, sizeof(tb_joint_id) * (size_t)(n > 0 ? n : 1));
	n = tb_body_get_joints(w, id, ids, n);
	lua_createtable(L, n, 0);
	for (int i = 0; i < n; ++i) {
		tb_joint_id j = ((tb_joint_id *)h->rec->scratch)[i];
		tl_push_handle(L, h->rec, TL_JOINT, j.index1, j.generation, false);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

static int body_contacts(lua_State *L)
{
	tl_handle *h;
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, &h);
	int n = tb_body_get_contacts(w, id, NULL, 0);
	tb_contact_data *data = tl_scratch(L, h->rec, sizeof(tb_contact_data) * (size_t)(n > 0 ? n : 1));
	n = tb_body_get_contacts(w, id, data, n);
	lua_createtable(L, n, 0);
	for (int i = 0; i < n; ++i) {
		tb_contact_data c = ((tb_contact_data *)h->rec->scratch)[i];
		lua_createtable(L, 0, 3);
		tl_push_handle(L, h->rec, TL_SHAPE, c.shape_a.index1, c.shape_a.generation, true);
		lua_setfield(L, -2, "a");
		tl_push_handle(L, h->rec, TL_SHAPE, c.shape_b.index1, c.shape_b.generation, true);
		lua_setfield(L, -2, "b");
		tl_push_manifold_contact(L, &c.manifold);
		lua_setfield(L, -2, "contact");
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

static int body_world_point(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	return push_xy(L, tb_body_get_world_point(w, id, check_point(L, 2)));
}

static int body_local_point(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	return push_xy(L, tb_body_get_local_point(w, id, check_point(L, 2)));
}

static int body_world_vector(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	return push_xy(L, tb_body_get_world_vector(w, id, check_vector(L, 2)));
}

static int body_local_vector(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	return push_xy(L, tb_body_get_local_vector(w, id, check_vector(L, 2)));
}

static int body_velocity_at(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	return push_xy(L, tb_body_get_world_point_velocity(w, id, check_point(L, 2)));
}

static int body_world_center(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	return push_xy(L, tb_body_get_world_center(w, id));
}

static int body_local_center(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	return push_xy(L, tb_body_get_local_center(w, id));
}

static int body_set_position(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	tb_vec2 p = check_point(L, 2);
	float angle = lua_isnoneornil(L, 4) ? tb_body_get_angle(w, id) : tl_coord(L, 4, TL_ARG(4));
	tb_body_set_transform(w, id, p, angle);
	return 0;
}

static int body_get_position(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	tb_transform xf = tb_body_get_transform(w, id);
	lua_pushnumber(L, xf.p.x);
	lua_pushnumber(L, xf.p.y);
	lua_pushnumber(L, tb_body_get_angle(w, id));
	return 3;
}

static int body_set_velocity(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	float vx = tl_coord(L, 2, TL_ARG(2));
	float vy = tl_coord(L, 3, TL_ARG(3));
	tb_body_set_linear_velocity(w, id, tb_v2(vx, vy));
	if (!lua_isnoneornil(L, 4)) tb_body_set_angular_velocity(w, id, tl_coord(L, 4, TL_ARG(4)));
	return 0;
}

static int body_get_velocity(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	tb_vec2 v = tb_body_get_linear_velocity(w, id);
	lua_pushnumber(L, v.x);
	lua_pushnumber(L, v.y);
	lua_pushnumber(L, tb_body_get_angular_velocity(w, id));
	return 3;
}

static int body_aabb(lua_State *L)
{
	tb_body_id id;
	tb_world *w = tl_check_body(L, 1, &id, NULL);
	tb_aabb b = tb_body_compute_aabb(w, id);
	lua_pushnumber(L, b.lower.x);
	lua_pushnumber(L, b.lower.y);
	lua_pushnumber(L, b.upper.x);
	lua_pushnumber(L, b.upper.y);
	return 4;
}

static const luaL_Reg body_methods[] = {
	{"apply_force", body_apply_force},
	{"apply_impulse", body_apply_impulse},
	{"apply_torque", body_apply_torque},
	{"apply_angular_impulse", body_apply_angular_impulse},
	{"destroy", body_destroy},
	{"shapes", body_shapes},
	{"joints", body_joints},
	{"contacts", body_contacts},
	{"world_point", body_world_point},
	{"local_point", body_local_point},
	{"world_vector", body_world_vector},
	{"local_vector", body_local_vector},
	{"velocity_at", body_velocity_at},
	{"world_center", body_world_center},
	{"local_center", body_local_center},
	{"set_position", body_set_position},
	{"get_position", body_get_position},
	{"set_velocity", body_set_velocity},
	{"get_velocity", body_get_velocity},
	{"aabb", body_aabb},
	{"circle", tl_body_circle},
	{"box", tl_body_box},
	{"polygon", tl_body_polygon},
	{"capsule", tl_body_capsule},
	{"segment", tl_body_segment},
	{"chain", tl_body_chain},
	{NULL, NULL},
};

const tl_type_info tl_body_info = {body_props, P_READ_ONLY, body_methods, body_options, body_type_names};

void tl_open_body(lua_State *L)
{
	tl_new_metatable(L, TL_BODY);
	tl_set_accessors(L, -1, body_props, body_methods, body_index, body_newindex);
	lua_pushcfunction(L, body_gc);
	lua_setfield(L, -2, "__gc");
	lua_pushcfunction(L, body_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pushcfunction(L, tl_handle_eq);
	lua_setfield(L, -2, "__eq");
	lua_pop(L, 1);
}
