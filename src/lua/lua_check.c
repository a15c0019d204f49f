/* tumble: argument checks of the binding: numbers, enumerations, vectors and
 * option tables, each refused with a message that names where the value came
 * from ("bad argument #1 to 'box' (field 'w': positive number expected, got -1)").
 * Nothing here runs a metamethod: tables are read raw. */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

#define TL_EV_NAME(name) #name,
#define TL_EV_HANDLER(name) "on_" #name,
const char *const tl_event_names[TL_EV_COUNT + 1] = {TL_EVENTS(TL_EV_NAME) NULL};
const char *const tl_handler_names[TL_EV_COUNT + 1] = {TL_EVENTS(TL_EV_HANDLER) NULL};
const char *const tl_world_event_names[TL_WORLD_EV_COUNT + 1] = {TL_EVENTS(TL_EV_NAME) "joint_break", "presolve", NULL};
const char *const tl_type_names[TL_TYPE_COUNT] = {"Body", "Shape", "Joint", "World", "Contact", "Snapshot", "Mover"};

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
	/* userdata by their __name ("Body"), like luaL_typeerror; luaL_getmetafield is raw */
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
		lua_pushstring(L, i == 0 ? "x" : "y");
		if (lua_rawget(L, idx) == LUA_TNIL) {
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

uint32_t tl_handler_bits(lua_State *L, int idx, int ev)
{
	if (lua_type(L, idx) != LUA_TFUNCTION) return 0;
	lua_Debug ar;
	lua_pushvalue(L, idx);
	lua_getinfo(L, ">u", &ar); /* fills numbers only: no allocation, no Lua */
	uint32_t bits = 1u << ev;
	if (ar.isvararg || ar.nparams >= 3) bits |= 1u << TL_TAKES_CONTACT(ev);
	return bits;
}

/* ---------------- option tables ---------------- */

const char *tl_describe_key(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	if (lua_type(L, idx) == LUA_TSTRING) return lua_pushfstring(L, "'%s'", lua_tostring(L, idx));
	if (lua_type(L, idx) == LUA_TNUMBER) return lua_pushfstring(L, "[%s]", tl_describe(L, idx));
	return lua_pushfstring(L, "key of type %s", luaL_typename(L, idx));
}

/* ---------------- "did you mean" ---------------- */

#define SUGGEST_MAX_KEY 40 /* longer keys get no suggestion (the work stays bounded) */

/* Edit distance with transpositions (optimal string alignment), ASCII case
 * folded; both strings at most SUGGEST_MAX_KEY bytes. */
static int edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	int d[SUGGEST_MAX_KEY + 1][SUGGEST_MAX_KEY + 1];
	for (size_t i = 0; i <= la; ++i) d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; ++j) d[0][j] = (int)j;
	for (size_t i = 1; i <= la; ++i) {
		for (size_t j = 1; j <= lb; ++j) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			int v = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) == cb &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

static bool contains_folded(const char *hay, size_t lh, const char *needle, size_t ln)
{
	for (size_t i = 0; i + ln <= lh; ++i) {
		size_t k = 0;
		while (k < ln && tolower((unsigned char)hay[i + k]) == tolower((unsigned char)needle[k])) ++k;
		if (k == ln) return true;
	}
	return false;
}

/* Names that are short for a word a newcomer types in full. */
static const struct {
	const char *word, *name;
} spelled_out[] = {
	{"radius", "r"}, {"width", "w"}, {"height", "h"}, {"position", "x"}, {"position", "y"}, {"rotation", "angle"},
	{"angular_velocity", "spin"}, {"omega", "spin"}, {"static", "type"}, {"dynamic", "type"}, {"kinematic", "type"},
};

/* How close name is to key, lower is closer; -1: not close. One contains the
 * other ("velocity" and set_velocity), a typo (friction and "frction": one
 * letter wrong, two in a name of eight or more), or a short name that starts as the key
 * does ("velocity" and vx), or a name short for the key ("radius" and r). */
static int closeness(const char *key, size_t lk, const char *name)
{
	size_t ln = strlen(name);
	if (ln > SUGGEST_MAX_KEY) return -1;
	if (lk >= 3 && ln >= 3 && (contains_folded(name, ln, key, lk) || contains_folded(key, lk, name, ln))) return 0;
	int d = edit_distance(key, lk, name, ln);
	size_t longer = lk > ln ? lk : ln;
	if (longer >= 3 && d <= (longer >= 8 ? 2 : 1)) return 1 + d;
	if (ln == 2 && (name[1] == 'x' || name[1] == 'y') && lk >= 3 &&
	    tolower((unsigned char)key[0]) == (unsigned char)name[0])
		return 10;
	for (size_t i = 0; i < sizeof spelled_out / sizeof spelled_out[0]; ++i) {
		if (strcmp(spelled_out[i].name, name) == 0 && lk == strlen(spelled_out[i].word) &&
		    contains_folded(key, lk, spelled_out[i].word, lk))
			return 10;
	}
	return -1;
}

const char *tl_suggest(lua_State *L, const char *key, const char *const *names, int count, int first_method)
{
	size_t lk = key != NULL ? strlen(key) : 0;
	int pick[3], rank[3], n = 0;
	if (lk > 0 && lk <= SUGGEST_MAX_KEY) {
		for (int i = 0; i < count; ++i) {
			if (names[i] == NULL || strcmp(names[i], key) == 0) continue;
			int r = closeness(key, lk, names[i]);
			if (r < 0) continue;
			/* properties before methods; among methods, a setter first */
			if (i >= first_method) r += strncmp(names[i], "set_", 4) == 0 ? 100 : 101;
			int at = n < 3 ? n++ : 3;
			while (at > 0 && rank[at - 1] > r) {
				if (at < 3) pick[at] = pick[at - 1], rank[at] = rank[at - 1];
				--at;
			}
			if (at < 3) pick[at] = i, rank[at] = r;
		}
	}
	if (n == 0) return lua_pushliteral(L, "");
	if (n == 1) return lua_pushfstring(L, "did you mean %s?", names[pick[0]]);
	if (n == 2) return lua_pushfstring(L, "did you mean %s or %s?", names[pick[0]], names[pick[1]]);
	return lua_pushfstring(L, "did you mean %s, %s or %s?", names[pick[0]], names[pick[1]], names[pick[2]]);
}

const char *tl_suggest_member(lua_State *L, const tl_spec *spec, const char *key, uint8_t want, uint32_t kind_mask,
                              const uint32_t *kinds_of)
{
	const char *names[TL_SUGGEST_NAMES];
	int n = 0;
	for (int e = 0; e < spec->count && n < TL_SUGGEST_NAMES; ++e) {
		if ((spec->flags[e] & want) != want) continue;
		if (kinds_of != NULL && !(kinds_of[e] & kind_mask)) continue;
		names[n++] = spec->names[e];
	}
	int first_method = n;
	for (const luaL_Reg *m = spec->methods; m != NULL && m->name != NULL && n < TL_SUGGEST_NAMES; ++m)
		names[n++] = m->name;
	return tl_suggest(L, key, names, n, first_method);
}

static _Noreturn void unknown_option(lua_State *L, const tl_spec *spec, uint32_t set, const tl_where *w)
{
	/* the key is on top of the stack */
	const char *bad = tl_describe_key(L, -1);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	bool first = true;
	for (int e = 0; e < spec->count; ++e) {
		if (!(spec->options[e] & set)) continue;
		if (!first) luaL_addstring(&b, ", ");
		luaL_addstring(&b, spec->names[e]);
		first = false;
	}
	luaL_pushresult(&b);
	const char *names[TL_SUGGEST_NAMES];
	int n = 0;
	for (int e = 0; e < spec->count && n < TL_SUGGEST_NAMES; ++e)
		if (spec->options[e] & set) names[n++] = spec->names[e];
	const char *hint = tl_suggest(L, lua_type(L, -3) == LUA_TSTRING ? lua_tostring(L, -3) : NULL, names, n, n);
	tl_bad(L, w, "unknown option %s%s%s%s; valid options: %s", bad, *hint ? " (" : "", hint, *hint ? ")" : "",
	       lua_tostring(L, -2));
}

int tl_option_slots(lua_State *L, const tl_spec *spec)
{
	int base = lua_gettop(L) + 1;
	luaL_checkstack(L, spec->count + LUA_MINSTACK, "too many options");
	lua_settop(L, base + spec->count - 1);
	return base;
}

void tl_read_options(lua_State *L, int t, const tl_spec *spec, uint32_t set, int array_count, const tl_where *w,
                     int base)
{
	t = lua_absindex(L, t);
	lua_pushnil(L);
	while (lua_next(L, t) != 0) {
		/* key at -2, value at -1; nothing in the loop allocates (so no finalizer
		 * can change the table under lua_next) until the error */
		if (lua_type(L, -2) == LUA_TSTRING) {
			const char *key = lua_tostring(L, -2);
			int e = 0;
			while (e < spec->count && !((spec->options[e] & set) && strcmp(key, spec->names[e]) == 0)) ++e;
			if (e < spec->count) {
				lua_replace(L, base + e);
				continue;
			}
		} else if (lua_isinteger(L, -2)) {
			lua_Integer i = lua_tointeger(L, -2);
			if (i >= 1 && i <= array_count) {
				lua_pop(L, 1);
				continue;
			}
		}
		lua_pop(L, 1);
		unknown_option(L, spec, set, w);
	}
}

int tl_array_count(lua_State *L, int t)
{
	lua_Unsigned n = lua_rawlen(L, t);
	return n > INT32_MAX ? INT32_MAX : (int)n;
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

/* ---------------- engine statuses ---------------- */

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
		case TB_ERR_STALE_HANDLE: return "object was destroyed"; /* callers name the kind: tl_status_for */
		case TB_ERR_LOCKED: return "world is locked";
		case TB_ERR_OUT_OF_MEMORY: return "out of memory";
		case TB_ERR_MASS_RANGE: return "mass out of range (density or size too small or too large)";
		default: return tb_status_string(s);
	}
}

const char *tl_status_for(tb_status s, tl_type stale)
{
	if (s == TB_ERR_STALE_HANDLE) {
		switch (stale) {
			case TL_BODY: return "body was destroyed";
			case TL_SHAPE: return "shape was destroyed";
			case TL_JOINT: return "joint was destroyed";
			default: return "world was destroyed";
		}
	}
	return tl_status_text(s);
}

void tl_creation_error(lua_State *L, const tl_world_record *rec, tb_status st, tl_type what)
{
	static const char *const nouns[TL_KIND_COUNT] = {"body", "shape", "joint"};
	switch (st) {
		case TB_ERR_OUT_OF_MEMORY: luaL_error(L, "out of memory creating the %s", nouns[what]); break;
		case TB_ERR_BODY_LIMIT: luaL_error(L, "too many bodies (max_bodies limit %d)", (int)rec->limits.max_bodies); break;
		case TB_ERR_SHAPE_LIMIT: luaL_error(L, "too many shapes (max_shapes limit %d)", (int)rec->limits.max_shapes); break;
		case TB_ERR_JOINT_LIMIT: luaL_error(L, "too many joints (max_joints limit %d)", (int)rec->limits.max_joints); break;
		default: luaL_argerror(L, 2, tl_status_for(st == TB_OK ? TB_ERR_INVALID_ARGUMENT : st, TL_BODY)); break;
	}
	abort(); /* not reached */
}
