/* libFuzzer target: sounds (sound.c), as a level loads one: the bytes are a
 * file in the level's folder and tumble.sound reads it (the asset reader, the
 * header checks, SDL_mixer's decoders on SDL's dummy audio driver, the
 * budget). What must hold: a Sound or a Lua error; the sounds' memory is
 * given back when they are collected. */
#include "fuzz_host.h"

static int load(lua_State *L)
{
	lua_getglobal(L, "tumble");
	lua_getfield(L, -1, "sound");
	lua_pushstring(L, "input.snd");
	lua_call(L, 1, 1);
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_level *f = fuzz_level_get();
	lua_State *L = f->lv.L;
	static bool opened = false;
	if (!opened) {
		lua_getglobal(L, "tumble");
		th_sound_open_lua(&f->lv, L);
		lua_pop(L, 1);
		opened = true;
	}
	fuzz_write("input.snd", data, size);
	int top = lua_gettop(L);
	lua_pushcfunction(L, load);
	if (lua_pcall(L, 0, 1, 0) != LUA_OK && lua_type(L, -1) != LUA_TSTRING) abort();
	lua_settop(L, top);
	lua_gc(L, LUA_GCCOLLECT);
	if (f->media.sound_bytes != 0) {
		fprintf(stderr, "fuzz_sound: %zu sound bytes held after every Sound was collected\n", f->media.sound_bytes);
		abort();
	}
	return 0;
}
