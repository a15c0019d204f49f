/* tumble host: the sandbox's table and string.rep replacements (see sbxlib.h).
 * Same checks and messages as Lua 5.4's ltablib.c, own code. */
#include "sbxlib.h"
#include "sandbox.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>

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

/* Each element is charged, and a stop gets through at each one: an element
 * can run a C metamethod that loops in its turn (a __index that is itself
 * table.concat or table.unpack), so a check every few thousand elements
 * would let nested calls multiply unseen. */
static void tick(lua_State *L, lua_Integer i)
{
	(void)i;
	th_sandbox_tick(L, 1);
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

/* table.sort: Lua 5.4's quicksort (same comparisons, swaps, checks and
 * messages), with every comparison charged and a stop let through. The stock
 * one cannot be charged up front: its length comes from __len, and its reads,
 * writes and comparisons may be C functions (rawequal as the order, a C
 * __index) that no hook sees. Where the stock sort takes a pivot from the
 * clock (a partition that came out too unbalanced), this one takes it from
 * the bounds, so a sort gives the same order on every run. */
typedef unsigned int sort_idx;

static int sort_less(lua_State *L, int a, int b)
{
	th_sandbox_tick(L, 1);
	if (lua_isnil(L, 2)) return lua_compare(L, a, b, LUA_OPLT);
	lua_pushvalue(L, 2);
	lua_pushvalue(L, a - 1);
	lua_pushvalue(L, b - 2);
	lua_call(L, 2, 1);
	int res = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return res;
}

/* a[i] = top, a[j] = the value below it; pops both */
static void sort_set2(lua_State *L, sort_idx i, sort_idx j)
{
	lua_seti(L, 1, i);
	lua_seti(L, 1, j);
}

static sort_idx sort_partition(lua_State *L, sort_idx lo, sort_idx up)
{
	sort_idx i = lo, j = up - 1;
	/* invariant: a[lo .. i] <= P <= a[j .. up], a[up - 1] == P */
	for (;;) {
		while (lua_geti(L, 1, ++i), sort_less(L, -1, -2)) {
			if (i == up - 1) luaL_error(L, "invalid order function for sorting");
			lua_pop(L, 1);
		}
		while (lua_geti(L, 1, --j), sort_less(L, -3, -1)) {
			if (j < i) luaL_error(L, "invalid order function for sorting");
			lua_pop(L, 1);
		}
		if (j < i) {
			lua_pop(L, 1);
			sort_set2(L, up - 1, i);
			return i;
		}
		sort_set2(L, i, j);
	}
}

static sort_idx sort_pivot(sort_idx lo, sort_idx up, unsigned rnd)
{
	sort_idx r4 = (up - lo) / 4;
	return rnd % (r4 * 2) + (lo + r4);
}

static void sort_range(lua_State *L, sort_idx lo, sort_idx up, unsigned rnd)
{
	while (lo < up) {
		sort_idx p, n;
		lua_geti(L, 1, lo);
		lua_geti(L, 1, up);
		if (sort_less(L, -1, -2)) {
			sort_set2(L, lo, up);
		} else {
			lua_pop(L, 2);
		}
		if (up - lo == 1) break;
		p = up - lo < 100u || rnd == 0 ? (lo + up) / 2 : sort_pivot(lo, up, rnd);
		lua_geti(L, 1, p);
		lua_geti(L, 1, lo);
		if (sort_less(L, -2, -1)) {
			sort_set2(L, p, lo);
		} else {
			lua_pop(L, 1);
			lua_geti(L, 1, up);
			if (sort_less(L, -1, -2)) {
				sort_set2(L, p, up);
			} else {
				lua_pop(L, 2);
			}
		}
		if (up - lo == 2) break;
		lua_geti(L, 1, p);
		lua_pushvalue(L, -1);
		lua_geti(L, 1, up - 1);
		sort_set2(L, p, up - 1);
		p = sort_partition(L, lo, up);
		if (p - lo < up - p) {
			sort_range(L, lo, p - 1, rnd);
			n = p - lo;
			lo = p + 1;
		} else {
			sort_range(L, p + 1, up, rnd);
			n = up - p;
			up = p - 1;
		}
		/* too unbalanced: another pivot rule, from the bounds */
		if ((up - lo) / 128 > n) rnd = (lo * 2654435761u) ^ (up * 40503u) ^ 0x9e3779b9u;
	}
}

static int sbx_sort(lua_State *L)
{
	lua_Integer n = length(L, 1, TAB_R | TAB_W);
	if (n > 1) {
		luaL_argcheck(L, n < INT_MAX, 1, "array too big");
		if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
		lua_settop(L, 2);
		sort_range(L, 1, (sort_idx)n, 0);
	}
	return 0;
}

/* table.unpack, charged per element (its reads may run C metamethods). */
static int sbx_unpack(lua_State *L)
{
	lua_Integer i = luaL_optinteger(L, 2, 1);
	lua_Integer e = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
	if (i > e) return 0;
	lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i;
	if (n >= (unsigned int)INT_MAX || !lua_checkstack(L, (int)(++n))) {
		return luaL_error(L, "too many results to unpack");
	}
	for (; i < e; i++) {
		lua_geti(L, 1, i);
		th_sandbox_tick(L, 1);
	}
	lua_geti(L, 1, e);
	return (int)n;
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
	/* what it will copy (an overflow is the stock function's error) */
	double bytes = (double)n * (double)(l + lsep);
	th_sandbox_tick(L, bytes / 16 < 1e15 ? (long long)(bytes / 16) : (long long)1e15);
	lua_settop(L, 3);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, 3, 1);
	return 1;
}

/* The other functions of string and utf8 run in C in time linear in the
 * strings they make (format, upper, rep, char, pack, sub, ...) or, for a few,
 * in the string they scan (utf8.len and utf8.offset walk their subject,
 * format its format): they are charged for those bytes, one instruction per
 * 16, so the instruction budget counts the work that a loop of them does. */
static long long string_bytes(lua_State *L, int from, int to)
{
	long long bytes = 0;
	for (int i = from; i <= to; ++i) {
		if (lua_type(L, i) == LUA_TSTRING) bytes += (long long)lua_rawlen(L, i);
	}
	return bytes;
}

/* Raises the error on top again. The stock function's "bad argument #N to
 * '?'" (called from C it has no name) is raised again from here, where the
 * name and a method call's numbering are known, so the message is the one
 * the stock function gives when called directly. */
static int rethrow(lua_State *L)
{
	const char *msg = lua_tostring(L, -1);
	const char *to = msg != NULL ? strstr(msg, " to '?' (") : NULL;
	size_t len = msg != NULL ? strlen(msg) : 0;
	if (lua_type(L, -1) == LUA_TSTRING && strncmp(msg, "bad argument #", 14) == 0 && to != NULL &&
	    msg[len - 1] == ')') {
		char *end = NULL;
		long arg = strtol(msg + 14, &end, 10);
		if (end == to && arg > 0 && arg < INT_MAX) {
			const char *extra = to + 9;
			lua_pushlstring(L, extra, (size_t)(msg + len - 1 - extra));
			return luaL_argerror(L, (int)arg, lua_tostring(L, -1));
		}
	}
	return lua_error(L);
}

/* upvalues: the stock function, whether it scans its first argument */
static int charged(lua_State *L)
{
	int n = lua_gettop(L);
	long long cost = 1;
	if (lua_toboolean(L, lua_upvalueindex(2))) cost += string_bytes(L, 1, 1) / 16;
	th_sandbox_tick(L, cost);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	if (lua_pcall(L, n, LUA_MULTRET, 0) != LUA_OK) rethrow(L);
	int results = lua_gettop(L);
	if (results > 0) th_sandbox_tick(L, results / 16 + string_bytes(L, 1, results) / 16);
	return results;
}

/* Wraps every C function of the table on top in `charged`, but those named in
 * skip; those named in scans are charged for their first argument too. */
static void charge_all(lua_State *L, const char *const *skip, const char *const *scans)
{
	int t = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, t) != 0) {
		bool wrap = lua_type(L, -2) == LUA_TSTRING && lua_iscfunction(L, -1);
		for (int i = 0; wrap && skip[i] != NULL; ++i) {
			if (strcmp(lua_tostring(L, -2), skip[i]) == 0) wrap = false;
		}
		if (!wrap) {
			lua_pop(L, 1);
			continue;
		}
		bool scan = false;
		for (int i = 0; scans[i] != NULL; ++i) {
			if (strcmp(lua_tostring(L, -2), scans[i]) == 0) scan = true;
		}
		lua_pushboolean(L, scan);
		lua_pushcclosure(L, charged, 2);
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, t);
	}
}

void th_sbxlib_open(lua_State *L)
{
	lua_getglobal(L, "table");
	int t = lua_gettop(L);
	if (lua_istable(L, t)) {
		static const luaL_Reg fns[] = {
			{"insert", sbx_insert}, {"remove", sbx_remove}, {"move", sbx_move},     {"concat", sbx_concat},
			{"sort", sbx_sort},     {"unpack", sbx_unpack}, {NULL, NULL},
		};
		for (const luaL_Reg *f = fns; f->name != NULL; ++f) {
			lua_pushcfunction(L, f->func);
			lua_setfield(L, t, f->name);
		}
	}
	lua_pop(L, 1);
	lua_getglobal(L, "string");
	int s = lua_gettop(L);
	if (lua_istable(L, s)) {
		static const char *const own[] = {"find", "match", "gmatch", "gsub", "rep", NULL};
		static const char *const scans[] = {"format", NULL};
		charge_all(L, own, scans);
		th_pattern_register(L, s);
		lua_getfield(L, s, "rep");
		lua_pushcclosure(L, sbx_rep, 1);
		lua_setfield(L, s, "rep");
	}
	lua_pop(L, 1);
	lua_getglobal(L, "utf8");
	if (lua_istable(L, -1)) {
		static const char *const none[] = {NULL};
		static const char *const scans[] = {"len", "offset", NULL};
		charge_all(L, none, scans);
	}
	lua_pop(L, 1);
}
