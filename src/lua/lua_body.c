/* tumble: the Body type and world:body{...}. */
#include <math.h>
#include <string.h>

#include "lua_internal.h"

const char *const tl_body_type_names[] = {"static", "kinematic", "dynamic", NULL};

/* Every name of Body: X(name, flags). The constructor takes every writable property. */
#define BODY_FIELDS(X)                                                                                         \
	X(x, TL_RW)                                                                                                \
	X(y, TL_RW)                                                                                                \
	X(angle, TL_RW)                                                                                            \
	X(vx, TL_RW)                                                                                               \
	X(vy, TL_RW)                                                                                               \
	X(spin, TL_RW)                                                                                             \
	X(type, TL_RW)                                                                                             \
	X(awake, TL_RW)                                                                                            \
	X(enabled, TL_RW)                                                                                          \
	X(bullet, TL_RW)                                                                                           \
	X(fixed_rotation, TL_RW)                                                                                   \
	X(gravity_scale, TL_RW)                                                                                    \
	X(linear_damping, TL_RW)                                                                                   \
	X(angular_damping, TL_RW)                                                                                  \
	X(can_sleep, TL_RW)                                                                                        \
	X(sleep_threshold, TL_RW)                                                                                  \
	X(user, TL_RW)                                                                                             \
	X(mass, TL_RO)                                                                                             \
	X(inertia, TL_RO)                                                                                          \
	X(world, TL_RO)                                                                                            \
	X(valid, TL_RO | TL_ALWAYS)                                                                                \
	X(id, TL_RO | TL_ALWAYS)

enum {
#define ENUM(name, ...) P_##name,
	BODY_FIELDS(ENUM)
#undef ENUM
	P_COUNT
};
static const char *const body_names[] = {BODY_FIELDS(TL_X_NAME) NULL};
static const uint8_t body_flags[] = {BODY_FIELDS(TL_X_FLAGS)};
#define OPTION(name, flags) ((flags) & TL_WRITABLE ? 1u : 0u),
static const uint32_t body_options[] = {BODY_FIELDS(OPTION)};
#undef OPTION

/* A body setting read from Lua, applied later (once no Lua can run). */
typedef union body_value {
	float f;
	bool b;
	int i;
} body_value;

/* Reads the value of writable property p at idx. Numbers need no call: this
 * is the hot path of every b.vx = v. */
static body_value read_value(lua_State *L, int p, int idx, const tl_where *w)
{
	body_value v;
	switch (p) {
		case P_x:
		case P_y:
		case P_angle:
		case P_vx:
		case P_vy:
		case P_spin:
		case P_gravity_scale:
			if (lua_type(L, idx) == LUA_TNUMBER) {
				double d = lua_tonumber(L, idx);
				if (fabs(d) <= TL_MAX_COORD) {
					v.f = (float)d;
					break;
				}
			}
			v.f = tl_coord(L, idx, w);
			break;
		case P_linear_damping:
		case P_angular_damping: v.f = tl_nonneg(L, idx, w); break;
		case P_sleep_threshold: v.f = tl_range(L, idx, w, 0.0, 1.0e6, "[0, 1e6]"); break;
		case P_type: v.i = tl_enum(L, idx, w, tl_body_type_names); break;
		default: v.b = tl_bool(L, idx, w); break;
	}
	return v;
}

static tb_status apply_value(tb_world *w, tb_body_id id, int p, body_value v)
{
	switch (p) {
		case P_x:
		case P_y: {
			tb_vec2 pos = tb_body_get_position(w, id);
			if (p == P_x) pos.x = v.f; else pos.y = v.f;
			return tb_body_set_transform(w, id, pos, tb_body_get_angle(w, id));
		}
		case P_angle: return tb_body_set_transform(w, id, tb_body_get_position(w, id), v.f);
		case P_vx:
		case P_vy: {
			tb_vec2 vel = tb_body_get_linear_velocity(w, id);
			if (p == P_vx) vel.x = v.f; else vel.y = v.f;
			return tb_body_set_linear_velocity(w, id, vel);
		}
		case P_spin: return tb_body_set_angular_velocity(w, id, v.f);
		case P_gravity_scale: return tb_body_set_gravity_scale(w, id, v.f);
		case P_type: return tb_body_set_type(w, id, (tb_body_type)v.i);
		case P_awake: return tb_body_set_awake(w, id, v.b);
		case P_enabled: return tb_body_set_enabled(w, id, v.b);
		case P_bullet: return tb_body_set_bullet(w, id, v.b);
		case P_fixed_rotation: return tb_body_set_fixed_rotation(w, id, v.b);
		case P_linear_damping: return tb_body_set_linear_damping(w, id, v.f);
		case P_angular_damping: return tb_body_set_angular_damping(w, id, v.f);
		case P_can_sleep: return tb_body_enable_sleep(w, id, v.b);
		case P_sleep_threshold: return tb_body_set_sleep_threshold(w, id, v.f);
		default: return TB_OK;
	}
}

/* ---------------- world:body{...} ---------------- */

int tl_world_body(lua_State *L)
{
	tl_check_world(L, 1);
	tb_body_def def = tb_default_body_def();
	lua_settop(L, 2);
	int base = tl_option_slots(L, &tl_body_spec);
	if (!lua_isnil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		tl_read_options(L, 2, &tl_body_spec, 1, 0, TL_ARG(2), base);
		for (int p = 0; p < P_user; ++p) {
			if (!tl_has(L, base, p)) continue;
			body_value v = read_value(L, p, base + p, TL_FIELD(2, body_names[p]));
			switch (p) {
				case P_x: def.position.x = v.f; break;
				case P_y: def.position.y = v.f; break;
				case P_angle: def.angle = v.f; break;
				case P_vx: def.linear_velocity.x = v.f; break;
				case P_vy: def.linear_velocity.y = v.f; break;
				case P_spin: def.angular_velocity = v.f; break;
				case P_type: def.type = (tb_body_type)v.i; break;
				case P_awake: def.is_awake = v.b; break;
				case P_enabled: def.is_enabled = v.b; break;
				case P_bullet: def.is_bullet = v.b; break;
				case P_fixed_rotation: def.fixed_rotation = v.b; break;
				case P_gravity_scale: def.gravity_scale = v.f; break;
				case P_linear_damping: def.linear_damping = v.f; break;
				case P_angular_damping: def.angular_damping = v.f; break;
				case P_can_sleep: def.enable_sleep = v.b; break;
				case P_sleep_threshold: def.sleep_threshold = v.f; break;
				default: break;
			}
		}
	}
	/* every option is read (the user value pinned in its slot): now the world */
	tl_world_record *rec = tl_check_world(L, 1);
	tb_status st = TB_OK;
	tb_body_id id = tb_create_body(tl_world_of(rec), &def, &st);
	if (TB_IS_NULL(id)) tl_creation_error(L, rec, st, TL_BODY);
	tl_push_handle(L, rec, TL_BODY, id.index1, id.generation, false);
	if (tl_has(L, base, P_user) && !lua_isnil(L, -1)) {
		lua_pushvalue(L, base + P_user);
		lua_setiuservalue(L, -2, TL_UV_USER);
		tl_anchor(L, -1, TL_BODY);
	}
	if (rec->record_sites) tl_record_site(L, rec, TL_BODY, id.index1, id.generation);
	return 1;
}

/* Copies the ids of the body's shapes (or joints) into a buffer it pushes, and
 * returns their count: the buffer is allocated first (which may run a finalizer
 * that adds or removes some), then filled from the world taken again. Returns -1
 * (nothing pushed) if the body died meanwhile. */
static int push_ids(lua_State *L, tl_world_record *rec, tb_body_id id, tl_type kind, uint32_t **out)
{
	for (;;) {
		tb_world *w = tl_world_of(rec);
		if (w == NULL) luaL_error(L, "world was destroyed");
		if (!tb_body_is_valid(w, id)) return -1;
		int n = kind == TL_SHAPE ? tb_body_get_shapes(w, id, NULL, 0) : tb_body_get_joints(w, id, NULL, 0);
		void *buffer = tl_push_buffer(L, 8, n); /* ids are two 32-bit words for either kind */
		w = tl_world_of(rec);
		if (w == NULL) luaL_error(L, "world was destroyed");
		if (!tb_body_is_valid(w, id)) {
			lua_pop(L, 1);
			return -1;
		}
		int got = kind == TL_SHAPE ? tb_body_get_shapes(w, id, buffer, n) : tb_body_get_joints(w, id, buffer, n);
		if (got <= n) {
			*out = buffer;
			return got;
		}
		lua_pop(L, 1);
	}
}

void tl_destroy_body(lua_State *L, tl_world_record *rec, tb_body_id id)
{
	tl_check_unlocked(L, rec);
	/* the ids of the shapes and joints are copied out first (one buffer: its
	 * allocation may run a finalizer, so the world is taken again after it);
	 * dropping user values and anchors runs no Lua */
	for (;;) {
		tb_world *w = tl_world_of(rec);
		if (w == NULL) luaL_error(L, "world was destroyed");
		if (!tb_body_is_valid(w, id)) return;
		int ns = tb_body_get_shapes(w, id, NULL, 0), nj = tb_body_get_joints(w, id, NULL, 0);
		uint32_t *ids = tl_push_buffer(L, 8, ns + nj);
		w = tl_world_of(rec);
		if (w == NULL) luaL_error(L, "world was destroyed");
		if (!tb_body_is_valid(w, id)) {
			lua_pop(L, 1);
			return;
		}
		int gs = tb_body_get_shapes(w, id, (tb_shape_id *)ids, ns);
		int gj = tb_body_get_joints(w, id, (tb_joint_id *)(ids + 2 * ns), nj);
		if (gs <= ns && gj <= nj) {
			for (int i = 0; i < gs; ++i) tl_forget(L, rec, TL_SHAPE, (int32_t)ids[2 * i], ids[2 * i + 1]);
			for (int i = 0; i < gj; ++i) {
				tl_forget(L, rec, TL_JOINT, (int32_t)ids[2 * (ns + i)], ids[2 * (ns + i) + 1]);
			}
			tl_forget(L, rec, TL_BODY, id.index1, id.generation);
			tb_destroy_body(w, id);
			lua_pop(L, 1);
			return;
		}
		lua_pop(L, 1); /* more were made meanwhile: again */
	}
}

/* ---------------- properties ---------------- */

/* The property paths are the hottest in most scripts (b.x in every frame), so
 * they avoid every call they can: the key is found by its address (tl_lookup),
 * the receiver checked against the metatable at hand, numbers checked inline. */
static int body_index(lua_State *L)
{
	int p;
	tl_handle *h = tl_index_property(L, &tl_body_spec, sizeof *h, &p);
	if (h == NULL) return 1;
	if (body_flags[p] & TL_ALWAYS) {
		/* both stay readable on a destroyed handle */
		if (p == P_valid) lua_pushboolean(L, tl_handle_valid(h, TL_BODY)); else lua_pushinteger(L, h->index1);
		return 1;
	}
	tb_world *w = tl_body_world(L, h);
	tb_body_id id = tl_body_id(h);
	switch (p) {
		case P_x: lua_pushnumber(L, tb_body_get_position(w, id).x); break;
		case P_y: lua_pushnumber(L, tb_body_get_position(w, id).y); break;
		case P_angle: lua_pushnumber(L, tb_body_get_angle(w, id)); break;
		case P_vx: lua_pushnumber(L, tb_body_get_linear_velocity(w, id).x); break;
		case P_vy: lua_pushnumber(L, tb_body_get_linear_velocity(w, id).y); break;
		case P_spin: lua_pushnumber(L, tb_body_get_angular_velocity(w, id)); break;
		case P_type: lua_pushstring(L, tl_body_type_names[tb_body_get_type(w, id)]); break;
		case P_awake: lua_pushboolean(L, tb_body_is_awake(w, id)); break;
		case P_enabled: lua_pushboolean(L, tb_body_is_enabled(w, id)); break;
		case P_bullet: lua_pushboolean(L, tb_body_is_bullet(w, id)); break;
		case P_fixed_rotation: lua_pushboolean(L, tb_body_is_fixed_rotation(w, id)); break;
		case P_gravity_scale: lua_pushnumber(L, tb_body_get_gravity_scale(w, id)); break;
		case P_linear_damping: lua_pushnumber(L, tb_body_get_linear_damping(w, id)); break;
		case P_angular_damping: lua_pushnumber(L, tb_body_get_angular_damping(w, id)); break;
		case P_can_sleep: lua_pushboolean(L, tb_body_is_sleep_enabled(w, id)); break;
		case P_sleep_threshold: lua_pushnumber(L, tb_body_get_sleep_threshold(w, id)); break;
		case P_user: lua_getiuservalue(L, 1, TL_UV_USER); break;
		case P_mass: lua_pushnumber(L, tb_body_get_mass(w, id)); break;
		case P_inertia: lua_pushnumber(L, tb_body_get_inertia(w, id)); break;
		case P_world: tl_push_world(L, h->rec); break;
		default: lua_pushnil(L); break;
	}
	return 1;
}

static int body_newindex(lua_State *L)
{
	int p;
	const char *key;
	tl_handle *h = tl_newindex_property(L, &tl_body_spec, sizeof *h, &p, &key);
	if (p == P_user) {
		tl_body_world(L, h);
		lua_settop(L, 3);
		lua_setiuservalue(L, 1, TL_UV_USER);
		if (!lua_isnil(L, 3)) tl_anchor(L, 1, TL_BODY);
		return 0;
	}
	/* the value first, then the engine pointer */
	body_value v = read_value(L, p, 3, TL_PROP_OF("Body", key));
	tb_status st = apply_value(tl_body_world(L, h), tl_body_id(h), p, v);
	if (st != TB_OK) return luaL_error(L, "cannot set Body.%s (%s)", key, tl_status_for(st, TL_BODY));
	return 0;
}

/* ---------------- metamethods ---------------- */

static int body_tostring(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_BODY);
	if (tl_handle_valid(h, TL_BODY)) {
		tb_body_type t = tb_body_get_type(tl_world_of(h->rec), tl_body_id(h));
		lua_pushfstring(L, "Body#%d(%s)", (int)h->index1, tl_body_type_names[t]);
	} else {
		lua_pushfstring(L, "Body#%d(destroyed)", (int)h->index1);
	}
	return 1;
}

/* ---------------- methods ---------------- */

/* Each method checks its receiver first (a dead body is named before a bad
 * argument), reads its arguments, then takes the world (tl_body_world). */

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

static int apply(lua_State *L, bool impulse)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	tb_vec2 f = check_vector(L, 2);
	bool at_point = !lua_isnoneornil(L, 4);
	tb_vec2 p = at_point ? check_point(L, 4) : tb_vec2_zero;
	/* inside a presolve handler a sleeping body could not be woken: refused,
	 * not lost */
	tl_check_unlocked(L, h->rec);
	tb_world *w = tl_body_world(L, h);
	tb_body_id id = tl_body_id(h);
	if (impulse) {
		if (at_point) tb_body_apply_linear_impulse(w, id, f, p, true);
		else tb_body_apply_linear_impulse_to_center(w, id, f, true);
	} else {
		if (at_point) tb_body_apply_force(w, id, f, p, true);
		else tb_body_apply_force_to_center(w, id, f, true);
	}
	return 0;
}

static int body_apply_force(lua_State *L)
{
	return apply(L, false);
}

static int body_apply_impulse(lua_State *L)
{
	return apply(L, true);
}

static int body_apply_torque(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	float t = tl_float(L, 2, TL_ARG(2));
	tl_check_unlocked(L, h->rec);
	tb_body_apply_torque(tl_body_world(L, h), tl_body_id(h), t, true);
	return 0;
}

static int body_apply_angular_impulse(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	float t = tl_float(L, 2, TL_ARG(2));
	tl_check_unlocked(L, h->rec);
	tb_body_apply_angular_impulse(tl_body_world(L, h), tl_body_id(h), t, true);
	return 0;
}

static int body_destroy(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_BODY);
	/* destroying twice is harmless; a destroyed world is still an error */
	if (tl_world_of(h->rec) == NULL) return luaL_error(L, "world was destroyed");
	if (tl_handle_valid(h, TL_BODY)) tl_destroy_body(L, h->rec, tl_body_id(h));
	return 0;
}

/* Pushes an array of the handles of ids[0..n) (ids: a pinned buffer). */
static void push_handles(lua_State *L, tl_world_record *rec, tl_type type, const uint32_t *ids, int n)
{
	lua_createtable(L, n, 0);
	int k = 0;
	for (int i = 0; i < n; ++i) {
		tl_push_handle(L, rec, type, (int32_t)ids[2 * i], ids[2 * i + 1], false);
		if (lua_isnil(L, -1)) {
			lua_pop(L, 1); /* destroyed meanwhile by a finalizer */
			continue;
		}
		lua_rawseti(L, -2, ++k);
	}
}

static int body_shapes(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	uint32_t *ids;
	int n = push_ids(L, h->rec, tl_body_id(h), TL_SHAPE, &ids);
	if (n < 0) tl_dead(L, h, TL_BODY);
	push_handles(L, h->rec, TL_SHAPE, ids, n);
	return 1;
}

static int body_joints(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	uint32_t *ids;
	int n = push_ids(L, h->rec, tl_body_id(h), TL_JOINT, &ids);
	if (n < 0) tl_dead(L, h, TL_BODY);
	push_handles(L, h->rec, TL_JOINT, ids, n);
	return 1;
}

static int body_contacts(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	int n = tb_body_get_contacts(tl_world_of(h->rec), tl_body_id(h), NULL, 0);
	tb_contact_data *data = tl_push_buffer(L, sizeof *data, n);
	int got = tb_body_get_contacts(tl_body_world(L, h), tl_body_id(h), data, n);
	if (got < n) n = got;
	lua_createtable(L, n, 0);
	for (int i = 0; i < n; ++i) {
		lua_createtable(L, 0, 3);
		tl_push_handle(L, h->rec, TL_SHAPE, data[i].shape_a.index1, data[i].shape_a.generation, true);
		lua_setfield(L, -2, "a");
		tl_push_handle(L, h->rec, TL_SHAPE, data[i].shape_b.index1, data[i].shape_b.generation, true);
		lua_setfield(L, -2, "b");
		tl_push_manifold_contact(L, &data[i].manifold);
		lua_setfield(L, -2, "contact");
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

typedef enum frame_op { WORLD_POINT, LOCAL_POINT, WORLD_VECTOR, LOCAL_VECTOR, VELOCITY_AT } frame_op;

static int frame(lua_State *L, frame_op op)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	bool point = op == WORLD_POINT || op == LOCAL_POINT || op == VELOCITY_AT;
	tb_vec2 v = point ? check_point(L, 2) : check_vector(L, 2);
	tb_world *w = tl_body_world(L, h);
	tb_body_id id = tl_body_id(h);
	switch (op) {
		case WORLD_POINT: return push_xy(L, tb_body_get_world_point(w, id, v));
		case LOCAL_POINT: return push_xy(L, tb_body_get_local_point(w, id, v));
		case WORLD_VECTOR: return push_xy(L, tb_body_get_world_vector(w, id, v));
		case LOCAL_VECTOR: return push_xy(L, tb_body_get_local_vector(w, id, v));
		default: return push_xy(L, tb_body_get_world_point_velocity(w, id, v));
	}
}

static int body_world_point(lua_State *L)
{
	return frame(L, WORLD_POINT);
}

static int body_local_point(lua_State *L)
{
	return frame(L, LOCAL_POINT);
}

static int body_world_vector(lua_State *L)
{
	return frame(L, WORLD_VECTOR);
}

static int body_local_vector(lua_State *L)
{
	return frame(L, LOCAL_VECTOR);
}

static int body_velocity_at(lua_State *L)
{
	return frame(L, VELOCITY_AT);
}

static int body_world_center(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	return push_xy(L, tb_body_get_world_center(tl_body_world(L, h), tl_body_id(h)));
}

static int body_local_center(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	return push_xy(L, tb_body_get_local_center(tl_body_world(L, h), tl_body_id(h)));
}

static int body_set_position(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	tb_vec2 p = check_point(L, 2);
	bool has_angle = !lua_isnoneornil(L, 4);
	float angle = has_angle ? tl_coord(L, 4, TL_ARG(4)) : 0.0f;
	tb_world *w = tl_body_world(L, h);
	tb_body_id id = tl_body_id(h);
	tb_body_set_transform(w, id, p, has_angle ? angle : tb_body_get_angle(w, id));
	return 0;
}

static int body_get_position(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	tb_world *w = tl_world_of(h->rec);
	tb_transform xf = tb_body_get_transform(w, tl_body_id(h));
	lua_pushnumber(L, xf.p.x);
	lua_pushnumber(L, xf.p.y);
	lua_pushnumber(L, tb_body_get_angle(w, tl_body_id(h)));
	return 3;
}

static int body_set_velocity(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	float vx = tl_coord(L, 2, TL_ARG(2));
	float vy = tl_coord(L, 3, TL_ARG(3));
	bool has_spin = !lua_isnoneornil(L, 4);
	float spin = has_spin ? tl_coord(L, 4, TL_ARG(4)) : 0.0f;
	tb_world *w = tl_body_world(L, h);
	tb_body_set_linear_velocity(w, tl_body_id(h), tb_v2(vx, vy));
	if (has_spin) tb_body_set_angular_velocity(w, tl_body_id(h), spin);
	return 0;
}

static int body_get_velocity(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	tb_world *w = tl_world_of(h->rec);
	tb_vec2 v = tb_body_get_linear_velocity(w, tl_body_id(h));
	lua_pushnumber(L, v.x);
	lua_pushnumber(L, v.y);
	lua_pushnumber(L, tb_body_get_angular_velocity(w, tl_body_id(h)));
	return 3;
}

static int body_aabb(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_BODY);
	tb_aabb b = tb_body_compute_aabb(tl_world_of(h->rec), tl_body_id(h));
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

static const luaL_Reg body_meta[] = {
	{"__tostring", body_tostring},
	{"__eq", tl_handle_eq},
	{NULL, NULL},
};

const tl_spec tl_body_spec = {
	.type = TL_BODY,
	.count = P_COUNT,
	.names = body_names,
	.flags = body_flags,
	.options = body_options,
	.methods = body_methods,
	.meta = body_meta,
	.index = body_index,
	.newindex = body_newindex,
	.kinds = tl_body_type_names,
};

void tl_open_body(lua_State *L)
{
	tl_new_type(L, &tl_body_spec);
}
