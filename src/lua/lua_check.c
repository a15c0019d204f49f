/* tumble: argument checking, metatables, world records and handles for the binding. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

const char *const tl_event_names[TL_EV_COUNT + 1] = {"begin", "end", "hit", "sensor_enter", "sensor_exit", NULL};
const char *const tl_handler_names[TL_EV_COUNT + 1] = {"on_begin", "on_end", "on_hit", "on_sensor_enter",
                                                       "on_sensor_exit", NULL};
const char *const tl_type_names[TL_TYPE_COUNT] = {"Body", "Shape", "Joint", "World", "Contact"};
static const char *const kind_words[TL_KIND_COUNT] = {"body", "shape", "joint"};
static const int user_value_counts[TL_KIND_COUNT] = {1, TL_SHAPE_UV_COUNT, 1};
char tl_mt_key[TL_TYPE_COUNT];

/* ---------------- memory ---------------- */

void *tl_grow(lua_State *L, void *ptr, size_t elem_size, int *capacity, int needed)
{
	int cap = *capacity > 0 ? *capacity : 16;
	while (cap < needed) {
		if (cap > INT32_MAX / 2) luaL_error(L, "not enough memory");
		cap *= 2;
	}
	void *p = realloc(ptr, (size_t)cap * elem_size);
	if (p == NULL) luaL_error(L, "not enough memory");
	*capacity = cap;
	return p;
}

void *tl_scratch(lua_State *L, tl_world_record *rec, size_t bytes)
{
	if (bytes > rec->scratch_capacity) {
		size_t cap = rec->scratch_capacity > 0 ? rec->scratch_capacity : 1024;
		while (cap < bytes) cap *= 2;
		void *p = realloc(rec->scratch, cap);
		if (p == NULL) luaL_error(L, "not enough memory");
		rec->scratch = p;
		rec->scratch_capacity = cap;
	}
	return rec->scratch;
}

/* ---------------- errors and value checks ---------------- */

_Noreturn void tl_bad(lua_State *L, const tl_where *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *msg = lua_pushvfstring(L, fmt, ap);
	va_end(ap);
	if (w->field != NULL) {
		/* array items are named by index: "field [3]: ..." */
		msg = w->field[0] == '[' ? lua_pushfstring(L, "field %s: %s", w->field, msg)
		                         : lua_pushfstring(L, "field '%s': %s", w->field, msg);
	}
	if (w->prop != NULL) luaL_error(L, "bad value for %s.%s (%s)", w->type, w->prop, msg);
	luaL_argerror(L, w->arg, msg);
	abort(); /* not reached: luaL_argerror does not return */
}

const char *tl_typename(lua_State *L, int idx)
{
	/* userdata by their __name ("Body"), like luaL_typeerror */
	if (lua_type(L, idx) == LUA_TUSERDATA && luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) {
		return lua_tostring(L, -1); /* left on the stack until the error unwinds it */
	}
	return luaL_typename(L, idx);
}

const char *tl_describe(lua_State *L, int idx)
{
	if (lua_type(L, idx) != LUA_TNUMBER) return tl_typename(L, idx);
	if (lua_isinteger(L, idx)) return lua_pushfstring(L, "%I", (LUAI_UACINT)lua_tointeger(L, idx));
	double d = lua_tonumber(L, idx);
	if (isnan(d)) return "nan";
	if (isinf(d)) return d > 0 ? "inf" : "-inf";
	return lua_pushfstring(L, "%f", (LUAI_UACNUMBER)d);
}

double tl_number(lua_State *L, int idx, const tl_where *w)
{
	if (lua_type(L, idx) != LUA_TNUMBER) tl_bad(L, w, "number expected, got %s", tl_typename(L, idx));
	return lua_tonumber(L, idx);
}

float tl_float(lua_State *L, int idx, const tl_where *w)
{
	double d = tl_number(L, idx, w);
	/* a double beyond FLT_MAX would become an infinity in the engine */
	if (!(fabs(d) <= (double)FLT_MAX)) tl_bad(L, w, "finite number expected, got %s", tl_describe(L, idx));
	return (float)d;
}

float tl_coord(lua_State *L, int idx, const tl_where *w)
{
	float v = tl_float(L, idx, w);
	if (!(fabsf(v) <= (float)TL_MAX_COORD)) tl_bad(L, w, "number in [-1e6, 1e6] expected, got %s", tl_describe(L, idx));
	return v;
}

float tl_size(lua_State *L, int idx, const tl_where *w)
{
	float v = tl_float(L, idx, w);
	if (!(v > 0.0f)) tl_bad(L, w, "positive number expected, got %s", tl_describe(L, idx));
	if (v > (float)TL_MAX_SIZE) tl_bad(L, w, "number <= 1e4 expected, got %s", tl_describe(L, idx));
	return v;
}

float tl_radius(lua_State *L, int idx, const tl_where *w)
{
	float v = tl_float(L, idx, w);
	if (!(v >= 0.0f)) tl_bad(L, w, "non-negative number expected, got %s", tl_describe(L, idx));
	if (v > (float)TL_MAX_SIZE) tl_bad(L, w, "number <= 1e4 expected, got %s", tl_describe(L, idx));
	return v;
}

float tl_nonneg(lua_State *L, int idx, const tl_where *w)
{
	float v = tl_float(L, idx, w);
	if (!(v >= 0.0f)) tl_bad(L, w, "non-negative number expected, got %s", tl_describe(L, idx));
	return v;
}

float tl_positive(lua_State *L, int idx, const tl_where *w)
{
	float v = tl_float(L, idx, w);
	if (!(v > 0.0f)) tl_bad(L, w, "positive number expected, got %s", tl_describe(L, idx));
	return v;
}

float tl_range(lua_State *L, int idx, const tl_where *w, double lo, double hi, const char *text)
{
	float v = tl_float(L, idx, w);
	if (!(v >= lo && v <= hi)) tl_bad(L, w, "number in %s expected, got %s", text, tl_describe(L, idx));
	return v;
}

lua_Integer tl_integer(lua_State *L, int idx, const tl_where *w)
{
	if (lua_type(L, idx) != LUA_TNUMBER) tl_bad(L, w, "integer expected, got %s", tl_typename(L, idx));
	int isnum = 0;
	lua_Integer i = lua_tointegerx(L, idx, &isnum);
	if (!isnum) tl_bad(L, w, "integer expected, got %s", tl_describe(L, idx));
	return i;
}

int tl_int_range(lua_State *L, int idx, const tl_where *w, int lo, int hi)
{
	lua_Integer i = tl_integer(L, idx, w);
	if (i < lo || i > hi) tl_bad(L, w, "integer in [%d, %d] expected, got %s", lo, hi, tl_describe(L, idx));
	return (int)i;
}

bool tl_bool(lua_State *L, int idx, const tl_where *w)
{
	if (lua_type(L, idx) != LUA_TBOOLEAN) tl_bad(L, w, "boolean expected, got %s", tl_typename(L, idx));
	return lua_toboolean(L, idx);
}

tb_vec2 tl_vec2(lua_State *L, int idx, const tl_where *w, bool coord)
{
	if (lua_type(L, idx) != LUA_TTABLE) tl_bad(L, w, "{x, y} table expected, got %s", tl_typename(L, idx));
	idx = lua_absindex(L, idx);
	float c[2];
	for (int i = 0; i < 2; ++i) {
		if (lua_getfield(L, idx, i == 0 ? "x" : "y") == LUA_TNIL) {
			lua_pop(L, 1);
			lua_rawgeti(L, idx, i + 1);
		}
		if (lua_type(L, -1) != LUA_TNUMBER) {
			tl_bad(L, w, "{x, y} table expected, got %s for %s", tl_typename(L, -1), i == 0 ? "x" : "y");
		}
		c[i] = coord ? tl_coord(L, -1, w) : tl_float(L, -1, w);
		lua_pop(L, 1);
	}
	return tb_v2(c[0], c[1]);
}

static void push_name_list(lua_State *L, const char *const names[], const char *sep, const char *quote)
{
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	for (int i = 0; names[i] != NULL; ++i) {
		if (i > 0) luaL_addstring(&b, sep);
		luaL_addstring(&b, quote);
		luaL_addstring(&b, names[i]);
		luaL_addstring(&b, quote);
	}
	luaL_pushresult(&b);
}

int tl_enum(lua_State *L, int idx, const tl_where *w, const char *const names[])
{
	idx = lua_absindex(L, idx);
	const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
	if (s != NULL) {
		for (int i = 0; names[i] != NULL; ++i) {
			if (strcmp(s, names[i]) == 0) return i;
		}
	}
	push_name_list(L, names, ", ", "'");
	const char *list = lua_tostring(L, -1);
	if (s == NULL) tl_bad(L, w, "one of %s expected, got %s", list, tl_typename(L, idx));
	tl_bad(L, w, "one of %s expected, got '%s'", list, s);
}

void tl_check_function_or_nil(lua_State *L, int idx, const tl_where *w)
{
	int t = lua_type(L, idx);
	if (t != LUA_TFUNCTION && t != LUA_TNIL) tl_bad(L, w, "function expected, got %s", tl_typename(L, idx));
}

/* ---------------- option tables ---------------- */

void tl_check_options_at(lua_State *L, int t, const char *const names[], int array_count, const tl_where *w)
{
	t = lua_absindex(L, t);
	lua_pushnil(L);
	while (lua_next(L, t) != 0) {
		lua_pop(L, 1);
		const char *bad = NULL;
		if (lua_type(L, -1) == LUA_TSTRING) {
			const char *key = lua_tostring(L, -1);
			bool known = false;
			for (int i = 0; names[i] != NULL && !known; ++i) known = strcmp(key, names[i]) == 0;
			if (known) continue;
			bad = lua_pushfstring(L, "'%s'", key);
		} else if (lua_type(L, -1) == LUA_TNUMBER) {
			if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= array_count) continue;
			bad = lua_pushfstring(L, "[%s]", tl_describe(L, -1));
		} else {
			bad = lua_pushfstring(L, "key of type %s", luaL_typename(L, -1));
		}
		push_name_list(L, names, ", ", "");
		tl_bad(L, w, "unknown option %s; valid options: %s", bad, lua_tostring(L, -1));
	}
}

void tl_check_options(lua_State *L, int t, const char *const names[], int array_count)
{
	tl_check_options_at(L, t, names, array_count, TL_ARG(t));
}

bool tl_opt(lua_State *L, int t, const char *name)
{
	if (lua_getfield(L, t, name) != LUA_TNIL) return true;
	lua_pop(L, 1);
	return false;
}

int tl_array_count(lua_State *L, int t)
{
	return (int)lua_rawlen(L, t);
}

bool tl_has_named(lua_State *L, int t, const char *const names[])
{
	for (int i = 0; names[i] != NULL; ++i) {
		int type = lua_getfield(L, t, names[i]);
		lua_pop(L, 1);
		if (type != LUA_TNIL) return true;
	}
	return false;
}

void tl_push_number(lua_State *L, float v)
{
	lua_pushnumber(L, (lua_Number)v);
}

/* Vectors come back as {x, y, x = x, y = y}: the sketch writes them as pairs
 * ({0, -10}) and scripts naturally read .x and .y. */
void tl_push_vec2(lua_State *L, tb_vec2 v)
{
	lua_createtable(L, 2, 2);
	lua_pushnumber(L, (lua_Number)v.x);
	lua_pushvalue(L, -1);
	lua_rawseti(L, -3, 1);
	lua_setfield(L, -2, "x");
	lua_pushnumber(L, (lua_Number)v.y);
	lua_pushvalue(L, -1);
	lua_rawseti(L, -3, 2);
	lua_setfield(L, -2, "y");
}

/* ---------------- metatables ---------------- */

void tl_new_metatable(lua_State *L, tl_type type)
{
	lua_createtable(L, 0, 8);
	lua_pushstring(L, tl_type_names[type]);
	lua_setfield(L, -2, "__name");
	lua_pushvalue(L, -1);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &tl_mt_key[type]);
}

void tl_set_accessors(lua_State *L, int mt, const char *const props[], const luaL_Reg methods[],
                      lua_CFunction index, lua_CFunction newindex)
{
	mt = lua_absindex(L, mt);
	lua_newtable(L);
	for (int i = 0; props[i] != NULL; ++i) {
		lua_pushinteger(L, i + 1);
		lua_setfield(L, -2, props[i]);
	}
	for (int i = 0; methods[i].name != NULL; ++i) {
		lua_pushcfunction(L, methods[i].func);
		lua_setfield(L, -2, methods[i].name);
	}
	/* upvalues: the lookup table (name -> property number or method) and the
	 * metatable itself, to check the receiver's type cheaply */
	lua_pushvalue(L, -1);
	lua_pushvalue(L, mt);
	lua_pushcclosure(L, index, 2);
	lua_setfield(L, mt, "__index");
	lua_pushvalue(L, mt);
	lua_pushcclosure(L, newindex, 2);
	lua_setfield(L, mt, "__newindex");
}

/* ---------------- world records ---------------- */

tl_world_record *tl_record_new(lua_State *L)
{
	tl_world_record *rec = calloc(1, sizeof *rec);
	if (rec == NULL) luaL_error(L, "not enough memory");
	for (int k = 0; k < TL_KIND_COUNT; ++k) rec->cache[k] = LUA_NOREF;
	rec->holder = LUA_NOREF;
	return rec;
}

void tl_record_open(lua_State *L, tl_world_record *rec)
{
	for (int k = 0; k <= TL_KIND_COUNT; ++k) {
		lua_newtable(L);
		lua_createtable(L, 0, 1);
		lua_pushliteral(L, "v");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
		int ref = luaL_ref(L, LUA_REGISTRYINDEX);
		if (k < TL_KIND_COUNT) {
			rec->cache[k] = ref;
		} else {
			rec->holder = ref;
		}
	}
}

void tl_record_release(tl_world_record *rec)
{
	if (rec == NULL) return;
	rec->refs -= 1;
	if (rec->refs > 0) return;
	free(rec->begin);
	free(rec->end);
	free(rec->hit);
	free(rec->sensor_begin);
	free(rec->sensor_end);
	free(rec->scratch);
	free(rec);
}

tl_world_ud *tl_check_world_ud(lua_State *L, int idx)
{
	void *p = lua_touserdata(L, idx);
	if (p != NULL && lua_type(L, idx) == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
		lua_rawgetp(L, LUA_REGISTRYINDEX, &tl_mt_key[TL_WORLD]);
		bool ok = lua_rawequal(L, -1, -2);
		lua_pop(L, 2);
		if (ok) return p;
	}
	luaL_typeerror(L, idx, "World");
	return NULL;
}

tl_world_record *tl_check_world(lua_State *L, int idx)
{
	tl_world_ud *ud = tl_check_world_ud(L, idx);
	if (ud->rec == NULL || ud->rec->world == NULL) luaL_error(L, "world was destroyed");
	return ud->rec;
}

void tl_push_world(lua_State *L, tl_world_record *rec)
{
	if (rec == NULL || rec->world == NULL) luaL_error(L, "world was destroyed");
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->holder);
	int t = lua_rawgeti(L, -1, 1);
	lua_remove(L, -2);
	/* the World userdata may be awaiting its finalizer (weak entries are cleared
	 * first): for the script it is gone */
	if (t != LUA_TUSERDATA) luaL_error(L, "world was destroyed");
}

/* ---------------- handles ---------------- */

tl_handle *tl_to_handle(lua_State *L, int idx, tl_type type)
{
	void *p = lua_touserdata(L, idx);
	if (p == NULL || lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return NULL;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &tl_mt_key[type]);
	bool ok = lua_rawequal(L, -1, -2);
	lua_pop(L, 2);
	return ok ? p : NULL;
}

tl_handle *tl_check_handle(lua_State *L, int idx, tl_type type)
{
	tl_handle *h = tl_to_handle(L, idx, type);
	if (h == NULL) luaL_typeerror(L, idx, tl_type_names[type]);
	return h;
}

bool tl_handle_valid(const tl_handle *h, tl_type type)
{
	if (h->rec == NULL || h->rec->world == NULL) return false;
	tb_world *w = h->rec->world;
	switch (type) {
		case TL_BODY: return tb_body_is_valid(w, tl_body_id(h));
		case TL_SHAPE: return tb_shape_is_valid(w, tl_shape_id(h));
		case TL_JOINT: return tb_joint_is_valid(w, tl_joint_id(h));
		default: return false;
	}
}

void tl_dead(lua_State *L, const tl_handle *h, tl_type type)
{
	if (h->rec == NULL || h->rec->world == NULL) luaL_error(L, "world was destroyed");
	luaL_error(L, "%s was destroyed", kind_words[type]);
	abort(); /* not reached */
}

tb_world *tl_live(lua_State *L, const tl_handle *h, tl_type type)
{
	if (h->rec == NULL || h->rec->world == NULL) luaL_error(L, "world was destroyed");
	if (!tl_handle_valid(h, type)) luaL_error(L, "%s was destroyed", kind_words[type]);
	return h->rec->world;
}

tb_world *tl_check_body(lua_State *L, int idx, tb_body_id *id, tl_handle **out)
{
	tl_handle *h = tl_check_handle(L, idx, TL_BODY);
	tb_world *w = tl_live(L, h, TL_BODY);
	*id = tl_body_id(h);
	if (out != NULL) *out = h;
	return w;
}

tb_world *tl_check_shape(lua_State *L, int idx, tb_shape_id *id, tl_handle **out)
{
	tl_handle *h = tl_check_handle(L, idx, TL_SHAPE);
	tb_world *w = tl_live(L, h, TL_SHAPE);
	*id = tl_shape_id(h);
	if (out != NULL) *out = h;
	return w;
}

tb_world *tl_check_joint(lua_State *L, int idx, tb_joint_id *id, tl_handle **out)
{
	tl_handle *h = tl_check_handle(L, idx, TL_JOINT);
	tb_world *w = tl_live(L, h, TL_JOINT);
	*id = tl_joint_id(h);
	if (out != NULL) *out = h;
	return w;
}

static bool id_valid(tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation)
{
	tl_handle h = {rec, index1, generation};
	return tl_handle_valid(&h, type);
}

void tl_push_handle(lua_State *L, tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation, bool stale_ok)
{
	if (rec == NULL || rec->world == NULL || index1 <= 0) {
		lua_pushnil(L);
		return;
	}
	bool valid = id_valid(rec, type, index1, generation);
	if (!valid && !stale_ok) {
		lua_pushnil(L);
		return;
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[type]);
	if (lua_rawgeti(L, -1, index1) == LUA_TUSERDATA) {
		tl_handle *h = lua_touserdata(L, -1);
		if (h->generation == generation) {
			lua_remove(L, -2);
			return;
		}
	}
	lua_pop(L, 1);
	tl_handle *h = lua_newuserdatauv(L, sizeof *h, user_value_counts[type]);
	h->rec = rec;
	h->index1 = index1;
	h->generation = generation;
	rec->refs += 1;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &tl_mt_key[type]);
	lua_setmetatable(L, -2);
	/* a stale id must not take the slot from the live object that may reuse it */
	if (valid) {
		lua_pushvalue(L, -1);
		lua_rawseti(L, -3, index1);
	}
	lua_remove(L, -2);
}

/* Pushes the World userdata's user value uv, or returns false (nothing pushed)
 * if the World userdata is no longer reachable. */
static bool push_world_uv(lua_State *L, tl_world_record *rec, int uv)
{
	if (rec->world == NULL) return false;
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->holder);
	if (lua_rawgeti(L, -1, 1) != LUA_TUSERDATA) {
		lua_pop(L, 2);
		return false;
	}
	lua_getiuservalue(L, -1, uv);
	lua_replace(L, -3);
	lua_pop(L, 1);
	return true;
}

void tl_anchor(lua_State *L, int idx, tl_type type)
{
	idx = lua_absindex(L, idx);
	tl_handle *h = lua_touserdata(L, idx);
	if (!push_world_uv(L, h->rec, TL_WUV_ANCHORS(type))) luaL_error(L, "world was destroyed");
	lua_pushvalue(L, idx);
	lua_rawseti(L, -2, h->index1);
	lua_pop(L, 1);
}

static void clear_user_values(lua_State *L, int idx, tl_type type)
{
	for (int i = 1; i <= user_value_counts[type]; ++i) {
		lua_pushnil(L);
		lua_setiuservalue(L, idx, i);
	}
}

void tl_forget(lua_State *L, tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation)
{
	if (rec->world == NULL || index1 <= 0) return;
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[type]);
	if (lua_rawgeti(L, -1, index1) == LUA_TUSERDATA) {
		tl_handle *h = lua_touserdata(L, -1);
		if (h->generation == generation) clear_user_values(L, lua_gettop(L), type);
	}
	lua_pop(L, 2);
	if (push_world_uv(L, rec, TL_WUV_ANCHORS(type))) {
		if (lua_rawgeti(L, -1, index1) == LUA_TUSERDATA) {
			tl_handle *h = lua_touserdata(L, -1);
			if (h->generation == generation) {
				clear_user_values(L, lua_gettop(L), type);
				lua_pushnil(L);
				lua_rawseti(L, -3, index1);
			}
		}
		lua_pop(L, 2);
	}
}

void tl_forget_all(lua_State *L, tl_world_record *rec)
{
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->holder);
	if (lua_rawgeti(L, -1, 1) != LUA_TUSERDATA) {
		lua_pop(L, 2);
		return;
	}
	int world = lua_gettop(L);
	for (int k = 0; k < TL_KIND_COUNT; ++k) {
		lua_getiuservalue(L, world, TL_WUV_ANCHORS(k));
		lua_pushnil(L);
		while (lua_next(L, -2) != 0) {
			if (lua_type(L, -1) == LUA_TUSERDATA) clear_user_values(L, lua_gettop(L), (tl_type)k);
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
		lua_newtable(L);
		lua_setiuservalue(L, world, TL_WUV_ANCHORS(k));
	}
	lua_pop(L, 2);
}

int tl_handle_eq(lua_State *L)
{
	/* the cache makes one userdata per object, so two userdata are equal only when
	 * a stale uncached handle meets the cached one of the same (dead) object */
	bool eq = false;
	if (lua_type(L, 1) == LUA_TUSERDATA && lua_type(L, 2) == LUA_TUSERDATA && lua_getmetatable(L, 1) &&
	    lua_getmetatable(L, 2)) {
		bool same_type = lua_rawequal(L, -1, -2);
		for (int k = 0; k < TL_KIND_COUNT && same_type; ++k) {
			lua_rawgetp(L, LUA_REGISTRYINDEX, &tl_mt_key[k]);
			bool ours = lua_rawequal(L, -1, -2);
			lua_pop(L, 1);
			if (ours) {
				const tl_handle *a = lua_touserdata(L, 1), *b = lua_touserdata(L, 2);
				eq = a->rec == b->rec && a->index1 == b->index1 && a->generation == b->generation;
				break;
			}
		}
	}
	lua_pushboolean(L, eq);
	return 1;
}

const char *tl_status_text(tb_status s)
{
	switch (s) {
		case TB_ERR_INVALID_NUMBER: return "finite numbers expected";
		case TB_ERR_NON_POSITIVE: return "positive size expected";
		case TB_ERR_NEGATIVE: return "non-negative value expected";
		case TB_ERR_TOO_FEW_VERTICES: return "too few distinct points";
		case TB_ERR_TOO_MANY_VERTICES: return "too many points";
		case TB_ERR_NOT_CONVEX: return "points do not form a convex polygon";
		case TB_ERR_DEGENERATE: return "degenerate shape (zero area, coincident or collinear points)";
		case TB_ERR_STALE_HANDLE: return "object was destroyed";
		case TB_ERR_LOCKED: return "world is locked";
		default: return tb_status_string(s);
	}
}
