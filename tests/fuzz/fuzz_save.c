/* libFuzzer target: save files (save.c). The input is a save file's text,
 * read by tumble.load_save's reader (th_save_decode_lua). What must hold: it
 * reads as a value, or is refused with load_save's error ("is damaged (line
 * N: ...)"); nothing else. A value it reads saves again (th_save_encode_lua),
 * and that text reads back as the same value, so the writer and the reader
 * agree on every value the reader can make. */
#include <math.h>

#include "fuzz_host.h"

static bool same(lua_State *L, int a, int b, int depth)
{
	if (lua_type(L, a) != lua_type(L, b)) return false;
	switch (lua_type(L, a)) {
	case LUA_TNUMBER:
		if (lua_isinteger(L, a) != lua_isinteger(L, b)) return false;
		if (lua_isinteger(L, a)) return lua_tointeger(L, a) == lua_tointeger(L, b);
		{
			double x = lua_tonumber(L, a), y = lua_tonumber(L, b);
			return (isnan(x) && isnan(y)) || memcmp(&x, &y, sizeof x) == 0;
		}
	case LUA_TTABLE: {
		if (depth > 70) return false;
		lua_checkstack(L, 8);
		size_t na = 0, nb = 0;
		lua_pushnil(L);
		while (lua_next(L, a) != 0) {
			++na;
			int v = lua_gettop(L);
			lua_pushvalue(L, v - 1);
			lua_rawget(L, b);
			bool ok = same(L, v, lua_gettop(L), depth + 1);
			lua_pop(L, 2);
			if (!ok) {
				lua_pop(L, 1);
				return false;
			}
		}
		lua_pushnil(L);
		while (lua_next(L, b) != 0) {
			++nb;
			lua_pop(L, 1);
		}
		return na == nb;
	}
	default: return lua_rawequal(L, a, b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lua_State *L = luaL_newstate();
	if (L == NULL) return 0;
	lua_pushcfunction(L, th_save_decode_lua);
	lua_pushlstring(L, (const char *)data, size);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
		const char *err = lua_tostring(L, -1);
		if (err == NULL || strstr(err, "is damaged (line ") == NULL) {
			fprintf(stderr, "fuzz_save: an error that is not load_save's: %s\n", err ? err : "(not a string)");
			abort();
		}
		lua_close(L);
		return 0;
	}
	int first = lua_gettop(L);
	lua_pushcfunction(L, th_save_encode_lua);
	lua_pushvalue(L, first);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
		/* what the reader made may still be too large to write (escapes) */
		const char *err = lua_tostring(L, -1);
		if (err == NULL || strstr(err, "bytes of text") == NULL) {
			fprintf(stderr, "fuzz_save: a value read does not save: %s\n", err ? err : "?");
			abort();
		}
		lua_close(L);
		return 0;
	}
	lua_pushcfunction(L, th_save_decode_lua);
	lua_insert(L, -2);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
		fprintf(stderr, "fuzz_save: what was saved does not read back: %s\n", lua_tostring(L, -1));
		abort();
	}
	if (!same(L, first, lua_gettop(L), 0)) {
		fprintf(stderr, "fuzz_save: the value read back differs\n");
		abort();
	}
	lua_close(L);
	return 0;
}
