/* tumble: the Mover type (world:mover{...}), a kinematic character capsule
 * moved by mover:move(dx, dy) (the engine's tb_mover_move).
 *
 * A Mover userdata names its engine mover by id, as a handle does, and keeps
 * its world's record alive (user value 1); it holds no Lua values, so it needs
 * no cache or anchor: world:mover returns the one userdata there will ever be
 * for that mover. A destroyed mover's userdata stays readable for valid and
 * id; a restore brings back the movers of its moment under the same ids (their
 * userdata work again) and makes those created later stale. */
#include <math.h>
#include <string.h>

#include "lua_internal.h"

typedef struct tl_mover_ud {
	const tl_names *type;
	tl_world_record *rec;
	int32_t index1;
	uint32_t generation;
} tl_mover_ud;

/* Every name of Mover: X(name, flags, an option of world:mover). */
#define MOVER_FIELDS(X)                                                                                        \
	X(capsule, TL_RO, 1)                                                                                       \
	X(x, TL_RW, 1)                                                                                             \
	X(y, TL_RW, 1)                                                                                             \
	X(max_slope, TL_RW, 1)                                                                                     \
	X(step_height, TL_RW, 1)                                                                                   \
	X(push_strength, TL_RW, 1)                                                                                 \
	X(mask, TL_RW, 1)                                                                                          \
	X(grounded, TL_RO, 0)                                                                                      \
	X(ground_normal, TL_RO, 0)                                                                                 \
	X(ground, TL_RO, 0)                                                                                        \
	X(world, TL_RO, 0)                                                                                         \
	X(valid, TL_RO | TL_ALWAYS, 0)                                                                             \
	X(id, TL_RO | TL_ALWAYS, 0)

enum {
#define ENUM(name, ...) P_##name,
	MOVER_FIELDS(ENUM)
#undef ENUM
	P_COUNT
};
static const char *const mover_names[] = {MOVER_FIELDS(TL_X_NAME) NULL};
static const uint8_t mover_flags[] = {MOVER_FIELDS(TL_X_FLAGS)};
#define OPTION(name, flags, option) (option),
static const uint32_t mover_options[] = {MOVER_FIELDS(OPTION)};
#undef OPTION

static tb_mover_id mover_id(const tl_mover_ud *m) { return (tb_mover_id){m->index1, m->generation}; }

static bool mover_valid(const tl_mover_ud *m)
{
	tb_world *w = tl_world_of(m->rec);
	return w != NULL && tb_mover_is_valid(w, mover_id(m));
}

/* The engine world of a live mover, else "world was destroyed" / "mover was destroyed". */
static tb_world *mover_world(lua_State *L, const tl_mover_ud *m)
{
	tb_world *w = tl_world_of(m->rec);
	if (w == NULL) luaL_error(L, "world was destroyed");
	if (!tb_mover_is_valid(w, mover_id(m))) luaL_error(L, "mover was destroyed");
	return w;
}

static tl_mover_ud *check_mover(lua_State *L, int idx) { return tl_checkudata(L, idx, TL_MOVER); }

/* ---------------- reading settings ---------------- */

static float check_slope(lua_State *L, int idx, const tl_where *w)
{
	/* radians in [0, pi/2): steeper ground is a wall */
	float v = tl_float(L, idx, w);
	if (!(v >= 0.0f && v < 0.5f * 3.14159265f)) tl_bad(L, w, "angle in [0, pi/2) expected, got %s", tl_describe(L, idx));
	return v;
}

/* capsule = {x1, y1, x2, y2, r} (relative to the mover's position), read raw */
static tb_capsule check_capsule(lua_State *L, int idx, const tl_where *w)
{
	if (lua_type(L, idx) != LUA_TTABLE) tl_bad(L, w, "{x1, y1, x2, y2, r} table expected, got %s", tl_typename(L, idx));
	idx = lua_absindex(L, idx);
	static const char *const keys[] = {"x1", "y1", "x2", "y2", "r"};
	float v[5];
	for (int i = 0; i < 5; ++i) {
		lua_pushstring(L, keys[i]);
		if (lua_rawget(L, idx) == LUA_TNIL) {
			lua_pop(L, 1);
			lua_rawgeti(L, idx, i + 1);
		}
		if (lua_type(L, -1) != LUA_TNUMBER) {
			tl_bad(L, w, "{x1, y1, x2, y2, r} table expected, got %s for %s", tl_typename(L, -1), keys[i]);
		}
		v[i] = i < 4 ? tl_range(L, -1, w, -TL_MAX_SIZE, TL_MAX_SIZE, "[-1e4, 1e4]") : tl_size(L, -1, w);
		lua_pop(L, 1);
	}
	tb_capsule c = {tb_v2(v[0], v[1]), tb_v2(v[2], v[3]), v[4]};
	/* the engine's skin needs some room */
	if (!(c.radius > 2.0f * TB_LINEAR_SLOP)) tl_bad(L, w, "radius > 0.01 expected, got %f", (double)c.radius);
	return c;
}

/* ---------------- world:mover{...} ---------------- */

int tl_world_mover(lua_State *L)
{
	tl_check_world(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	lua_settop(L, 2);
	int base = tl_option_slots(L, &tl_mover_spec);
	tl_read_options(L, 2, &tl_mover_spec, 1, 0, TL_ARG(2), base);
	tb_mover_def def = tb_default_mover_def();
	for (int p = 0; p < P_COUNT; ++p) {
		if (!tl_has(L, base, p)) continue;
		int v = base + p;
		const tl_where *w = TL_FIELD(2, mover_names[p]);
		switch (p) {
			case P_capsule: def.capsule = check_capsule(L, v, w); break;
			case P_x: def.position.x = tl_coord(L, v, w); break;
			case P_y: def.position.y = tl_coord(L, v, w); break;
			case P_max_slope: def.max_slope = check_slope(L, v, w); break;
			case P_step_height: def.step_height = tl_range(L, v, w, 0.0, TL_MAX_SIZE, "[0, 1e4]"); break;
			case P_push_strength: def.push_strength = tl_range(L, v, w, 0.0, 1.0e9, "[0, 1e9]"); break;
			case P_mask: def.filter.mask_bits = (uint64_t)tl_integer(L, v, w); break;
			default: break;
		}
	}
	tl_world_record *rec = tl_check_world(L, 1);
	tl_check_unlocked(L, rec);
	/* the userdata first (an allocation may run a finalizer), then the mover */
	tl_mover_ud *m = lua_newuserdatauv(L, sizeof *m, 1);
	m->type = rec->names[TL_MOVER];
	m->rec = rec;
	m->index1 = 0;
	m->generation = 0;
	tl_push_metatable(L, TL_MOVER);
	lua_setmetatable(L, -2);
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[TL_BODY]);
	lua_rawgeti(L, -1, 0); /* the record */
	lua_setiuservalue(L, -3, 1);
	lua_pop(L, 1);
	tb_world *w = tl_world_of(rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	tb_status st = TB_OK;
	tb_mover_id id = tb_create_mover(w, &def, &st);
	if (TB_IS_NULL(id)) {
		if (st == TB_ERR_OUT_OF_MEMORY) return luaL_error(L, "out of memory creating the mover");
		return luaL_argerror(L, 2, tl_status_text(st));
	}
	m->index1 = id.index1;
	m->generation = id.generation;
	return 1;
}

/* ---------------- properties ---------------- */

static int mover_index(lua_State *L)
{
	int p;
	tl_mover_ud *m = tl_index_property(L, &tl_mover_spec, sizeof *m, &p);
	if (m == NULL) return 1;
	if (p == P_valid) {
		lua_pushboolean(L, mover_valid(m));
		return 1;
	}
	if (p == P_id) {
		lua_pushinteger(L, m->index1);
		return 1;
	}
	if (p == P_world) {
		mover_world(L, m);
		tl_push_world(L, m->rec);
		return 1;
	}
	tb_world *w = mover_world(L, m);
	tb_mover_id id = mover_id(m);
	tb_mover_def d = tb_mover_get_def(w, id);
	switch (p) {
		case P_x: lua_pushnumber(L, d.position.x); break;
		case P_y: lua_pushnumber(L, d.position.y); break;
		case P_max_slope: lua_pushnumber(L, d.max_slope); break;
		case P_step_height: lua_pushnumber(L, d.step_height); break;
		case P_push_strength: lua_pushnumber(L, d.push_strength); break;
		case P_mask: lua_pushinteger(L, (lua_Integer)d.filter.mask_bits); break;
		case P_grounded: lua_pushboolean(L, tb_mover_is_grounded(w, id)); break;
		case P_ground_normal: {
			tb_vec2 n = tb_mover_get_ground_normal(w, id);
			if (n.x == 0.0f && n.y == 0.0f) lua_pushnil(L); else tl_push_vec2(L, n);
			break;
		}
		case P_ground: {
			tb_shape_id s = tb_mover_get_ground_shape(w, id);
			tl_push_handle(L, m->rec, TL_SHAPE, s.index1, s.generation, false);
			break;
		}
		case P_capsule: {
			tb_capsule c = d.capsule;
			lua_createtable(L, 0, 5);
			lua_pushnumber(L, c.center1.x);
			lua_setfield(L, -2, "x1");
			lua_pushnumber(L, c.center1.y);
			lua_setfield(L, -2, "y1");
			lua_pushnumber(L, c.center2.x);
			lua_setfield(L, -2, "x2");
			lua_pushnumber(L, c.center2.y);
			lua_setfield(L, -2, "y2");
			lua_pushnumber(L, c.radius);
			lua_setfield(L, -2, "r");
			break;
		}
		default: lua_pushnil(L); break;
	}
	return 1;
}

static int mover_newindex(lua_State *L)
{
	int p;
	const char *key;
	tl_mover_ud *m = tl_newindex_property(L, &tl_mover_spec, sizeof *m, &p, &key);
	const tl_where *where = TL_PROP_OF("Mover", key);
	mover_world(L, m); /* a dead receiver is named first */
	lua_settop(L, 3);
	float number = 0.0f;
	lua_Integer integer = 0;
	switch (p) {
		case P_x:
		case P_y: number = tl_coord(L, 3, where); break;
		case P_max_slope: number = check_slope(L, 3, where); break;
		case P_step_height: number = tl_range(L, 3, where, 0.0, TL_MAX_SIZE, "[0, 1e4]"); break;
		case P_push_strength: number = tl_range(L, 3, where, 0.0, 1.0e9, "[0, 1e9]"); break;
		case P_mask: integer = tl_integer(L, 3, where); break;
		default: break;
	}
	tl_check_unlocked(L, m->rec);
	tb_world *w = mover_world(L, m);
	tb_mover_id id = mover_id(m);
	tb_status st = TB_OK;
	if (p == P_x || p == P_y) {
		tb_vec2 pos = tb_mover_get_position(w, id);
		if (p == P_x) pos.x = number; else pos.y = number;
		st = tb_mover_set_position(w, id, pos);
	} else {
		tb_mover_def d = tb_mover_get_def(w, id);
		if (p == P_max_slope) d.max_slope = number;
		else if (p == P_step_height) d.step_height = number;
		else if (p == P_push_strength) d.push_strength = number;
		else d.filter.mask_bits = (uint64_t)integer;
		st = tb_mover_set_def(w, id, &d);
	}
	if (st != TB_OK) tl_bad(L, where, "%s", tl_status_text(st));
	return 0;
}

/* ---------------- methods ---------------- */

/* mover:move(dx, dy) -> dx, dy done: slides along walls, climbs slopes up to
 * max_slope, steps up to step_height, rides its ground. */
static int mover_move(lua_State *L)
{
	tl_mover_ud *m = check_mover(L, 1);
	mover_world(L, m);
	float dx = tl_range(L, 2, TL_ARG(2), -TL_MAX_SIZE, TL_MAX_SIZE, "[-1e4, 1e4]");
	float dy = tl_range(L, 3, TL_ARG(3), -TL_MAX_SIZE, TL_MAX_SIZE, "[-1e4, 1e4]");
	tl_check_unlocked(L, m->rec);
	tb_world *w = mover_world(L, m);
	tb_vec2 done = tb_mover_move(w, mover_id(m), tb_v2(dx, dy));
	lua_pushnumber(L, done.x);
	lua_pushnumber(L, done.y);
	return 2;
}

static int mover_destroy(lua_State *L)
{
	tl_mover_ud *m = check_mover(L, 1);
	tl_check_unlocked(L, m->rec);
	tb_world *w = tl_world_of(m->rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	tb_destroy_mover(w, mover_id(m));
	return 0;
}

static int mover_tostring(lua_State *L)
{
	tl_mover_ud *m = check_mover(L, 1);
	if (mover_valid(m)) lua_pushfstring(L, "Mover#%d", (int)m->index1);
	else lua_pushfstring(L, "Mover#%d(destroyed)", (int)m->index1);
	return 1;
}

static int mover_eq(lua_State *L)
{
	tl_mover_ud *a = tl_testudata(L, 1, TL_MOVER), *b = tl_testudata(L, 2, TL_MOVER);
	lua_pushboolean(L, a != NULL && b != NULL && a->rec == b->rec && a->index1 == b->index1 &&
	                       a->generation == b->generation);
	return 1;
}

static const luaL_Reg mover_methods[] = {
	{"move", mover_move},
	{"destroy", mover_destroy},
	{NULL, NULL},
};

static const luaL_Reg mover_meta[] = {
	{"__tostring", mover_tostring},
	{"__eq", mover_eq},
	{NULL, NULL},
};

const tl_spec tl_mover_spec = {
	.type = TL_MOVER,
	.count = P_COUNT,
	.names = mover_names,
	.flags = mover_flags,
	.options = mover_options,
	.methods = mover_methods,
	.meta = mover_meta,
	.index = mover_index,
	.newindex = mover_newindex,
};

void tl_open_mover(lua_State *L)
{
	tl_new_type(L, &tl_mover_spec);
}
