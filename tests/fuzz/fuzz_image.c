/* libFuzzer target: images (image.c), as a level loads one: the bytes are a
 * file in the level's folder and gfx.image reads it (the asset reader, the
 * header checks, SDL_image's decoders, the conversion to RGBA, the budget).
 * What must hold: an Image whose size is what its header said and within the
 * caps, or a Lua error; the images' memory is given back when it is
 * collected. */
#include "fuzz_host.h"

static int load(lua_State *L)
{
	lua_getglobal(L, "gfx");
	lua_getfield(L, -1, "image");
	lua_pushstring(L, "input.img");
	lua_call(L, 1, 1);
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_level *f = fuzz_level_get();
	lua_State *L = f->lv.L;
	static bool opened = false;
	if (!opened) {
		lua_newtable(L);
		th_image_open_lua(&f->lv, L);
		lua_setglobal(L, "gfx");
		opened = true;
	}
	fuzz_write("input.img", data, size);
	int top = lua_gettop(L);
	lua_pushcfunction(L, load);
	if (lua_pcall(L, 0, 1, 0) != LUA_OK && lua_type(L, -1) != LUA_TSTRING) abort();
	lua_settop(L, top);
	lua_gc(L, LUA_GCCOLLECT);
	if (f->media.image_bytes != 0) {
		fprintf(stderr, "fuzz_image: %zu image bytes held after every Image was collected\n", f->media.image_bytes);
		abort();
	}
	return 0;
}
