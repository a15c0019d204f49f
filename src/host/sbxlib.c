/* tumble host: the sandbox's table and string.rep replacements (see sbxlib.h).
 * Same checks and messages as Lua 5.4's ltablib.c, own code. */
#include "sbxlib.h"
#include "sandbox.h"

#include <math.h>
#include <lauxlib.h>

#define TICK 4096

enum { TAB_R = 1, TAB_W = 2, TAB_L = 4 };

static int has_field(lua_State *L, const char *key, int n)
{
	lua_pushstring(L, key);
	return lua_rawget(L, -n) != LUA_TNIL;
}

/* A table, or something whose metatable gives the needed operations. */
static void check_tab(lua_State *L, int arg, int what)
{
	if (lua_type(L, arg) == LUA_TTABLE) return;
	int n = 1;
	if (lua_getmetatable(L, arg) && (!(what & TAB_R) || has_field(L, "__index", ++n)) &&
	    (!(what & TAB_W) || has_field(L, "__newindex", ++n)) && (!(what & TAB_L) || has_field(L, "__len", ++n))) {
		lua_pop(L, n);
		return;
	}
	luaL_checktype(L, arg, LUA_TTABLE);
}

static lua_Integer length(lua_State *L, int arg, int what)
{
	check_tab(L, arg, what | TAB_L);
	return luaL_len(L, arg);
}

/* every TICK elements, charge them and let a stop through */
static void tick(lua_State *L, lua_Integer i)
{
	if ((i & (TICK - 1)) == 0) th_sandbox_tick(L, TICK);
}

static int sbx_insert(lua_State *L)
{
	lua_Integer e = length(L, 1, TAB_R | TAB_W);
	e = (lua_Integer)((lua_Unsigned)e + 1u); /* first empty element */
	lua_Integer pos;
	switch (lua_gettop(L)) {
	case 2: pos = e; break;
	case 3: {
		pos = luaL_checkinteger(L, 2);
		luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
		lua_Integer moved = 0;
		for (lua_Integer i = e; i > pos; i--) {
			lua_geti(L, 1, i - 1);
			lua_seti(L, 1, i);
			tick(L, ++moved);
		}
		break;
	}
	default: return luaL_error(L, "wrong number of arguments to 'insert'");
	}
	lua_seti(L, 1, pos);
	return 0;
}

static int sbx_remove(lua_State *L)
{
	lua_Integer size = length(L, 1, TAB_R | TAB_W);
	lua_Integer pos = luaL_optinteger(L, 2, size);
	if (pos != size) {
		luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
	}
	lua_geti(L, 1, pos);
	lua_Integer moved = 0;
	for (; pos < size; pos++) {
		lua_geti(L, 1, pos + 1);
		lua_seti(L, 1, pos);
		tick(L, ++moved);
	}
	lua_pushnil(L);
	lua_seti(L, 1, pos);
	return 1;
}

static int sbx_move(lua_State *L)
{
	lua_Integer f = luaL_checkinteger(L, 2);
	lua_Integer e = luaL_checkinteger(L, 3);
	lua_Integer t = luaL_checkinteger(L, 4);
	int tt = !lua_isnoneornil(L, 5) ? 5 : 1;
	check_tab(L, 1, TAB_R);
	check_tab(L, tt, TAB_W);
	if (e >= f) {
		luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
		lua_Integer n = e - f + 1;
		luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
		if (t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ))) {
			for (lua_Integer i = 0; i < n; i++) {
				lua_geti(L, 1, f + i);
				lua_seti(L, tt, t + i);
				tick(L, i + 1);
			}
		} else {
			for (lua_Integer i = n - 1; i >= 0; i--) {
				lua_geti(L, 1, f + i);
				lua_seti(L, tt, t + i);
				tick(L, n - i);
			}
		}
	}
	lua_pushvalue(L, tt);
	return 1;
}

static int sbx_concat(lua_State *L)
{
	lua_Integer last = length(L, 1, TAB_R);
	size_t lsep = 0;
	const char *sep = luaL_optlstring(L, 2, "", &lsep);
	lua_Integer i = luaL_optinteger(L, 3, 1);
	last = luaL_optinteger(L, 4, last);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	lua_Integer done = 0;
	for (; i <= last; i++) {
		lua_geti(L, 1, i);
		if (!lua_isstring(L, -1)) {
			return luaL_error(L, "invalid value (at index %I) in table for 'concat'", (LUAI_UACINT)i);
		}
		luaL_addvalue(&b);
		if (i != last) luaL_addlstring(&b, sep, lsep);
		tick(L, ++done);
		if (i == LUA_MAXINTEGER) break;
	}
	luaL_pushresult(&b);
	return 1;
}

/* The stock sort, charged n log2 n up front: it cannot be stopped once it
 * runs (its comparisons may call Lua, which the hooks see, but plain numbers
 * or strings are compared in C). */
static int sbx_sort(lua_State *L)
{
	if (lua_type(L, 1) == LUA_TTABLE) {
		lua_Unsigned n = lua_rawlen(L, 1);
		if (n > 1) th_sandbox_tick(L, (long long)((double)n * log2((double)n)));
	}
	int top = lua_gettop(L);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, top, 0);
	return 0;
}

/* string.rep with nothing to repeat returns at once (the stock one loops n
 * times copying nothing: ("").rep("", math.maxinteger) never returns), and
 * charges its copies. */
static int sbx_rep(lua_State *L)
{
	size_t l = 0, lsep = 0;
	luaL_checklstring(L, 1, &l);
	lua_Integer n = luaL_checkinteger(L, 2);
	luaL_optlstring(L, 3, "", &lsep);
	if (n <= 0 || l + lsep == 0) {
		lua_pushliteral(L, "");
		return 1;
	}
	th_sandbox_tick(L, n / 16);
	lua_settop(L, 3);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, 3, 1);
	return 1;
}

void th_sbxlib_open(lua_State *L)
{
	lua_getglobal(L, "table");
	int t = lua_gettop(L);
	if (lua_istable(L, t)) {
		static const luaL_Reg fns[] = {
			{"insert", sbx_insert}, {"remove", sbx_remove}, {"move", sbx_move}, {"concat", sbx_concat}, {NULL, NULL},
		};
		for (const luaL_Reg *f = fns; f->name != NULL; ++f) {
			lua_pushcfunction(L, f->func);
			lua_setfield(L, t, f->name);
		}
		lua_getfield(L, t, "sort");
		lua_pushcclosure(L, sbx_sort, 1);
		lua_setfield(L, t, "sort");
	}
	lua_pop(L, 1);
	lua_getglobal(L, "string");
	int s = lua_gettop(L);
	if (lua_istable(L, s)) {
		th_pattern_register(L, s);
		lua_getfield(L, s, "rep");
		lua_pushcclosure(L, sbx_rep, 1);
		lua_setfield(L, s, "rep");
	}
	lua_pop(L, 1);
}
