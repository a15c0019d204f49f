/* libFuzzer target: fonts (text.c), as a level loads one: the bytes are a
 * file in the level's folder, gfx.font reads it (the asset reader, the
 * budget, FreeType's parsers through SDL2_ttf) and the Font measures text
 * (ASCII, accents, a symbol outside Latin, several lines) and draws it
 * into a small offscreen target (FreeType's glyph loading and rendering).
 * What must hold: a Font or a Lua error; every size measured is within what
 * the text can take (never negative); the font's bytes are given back to the
 * budget when it is collected. */
#include "fuzz_host.h"
#include "render.h"
#include "text.h"

static th_target target;

static int load(lua_State *L)
{
	lua_getglobal(L, "gfx");
	lua_getfield(L, -1, "font");
	lua_pushstring(L, "input.ttf");
	lua_pushinteger(L, 14);
	lua_call(L, 2, 1);
	const char *texts[] = {"Hello, tumble!", "Newton's cradle \xc3\xa9\xc3\xa0 \xe2\x9c\x93", "a\nbb\n\nccc", ""};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); ++i) {
		lua_getfield(L, -1, "text_size");
		lua_pushvalue(L, -2);
		lua_pushstring(L, texts[i]);
		lua_call(L, 2, 2);
		lua_Integer w = lua_tointeger(L, -2), h = lua_tointeger(L, -1);
		if (w < 0 || h < 0 || w > (1 << 24) || h > (1 << 24)) {
			fprintf(stderr, "fuzz_font: text_size gave %lld x %lld\n", (long long)w, (long long)h);
			abort();
		}
		lua_pop(L, 2);
	}
	/* drawn as gfx.text draws it, with the font set */
	lua_getfield(L, -2, "set_font");
	lua_pushvalue(L, -2);
	lua_call(L, 1, 0);
	th_text_font font;
	th_text_current(lua_touserdata(L, lua_upvalueindex(1)), L, &font);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); ++i) {
		th_text_draw(&font, &target, 14, 2.0f, 2.0f, texts[i], strlen(texts[i]), (SDL_Color){255, 255, 255, 255},
		             SDL_BLENDMODE_BLEND);
	}
	lua_getfield(L, -2, "set_font");
	lua_call(L, 0, 0);
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_level *f = fuzz_level_get();
	lua_State *L = f->lv.L;
	static bool opened = false;
	if (!opened) {
		f->media.fonts = th_text_open(NULL);
		SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, 64, 48, 32, SDL_PIXELFORMAT_ARGB8888);
		if (s == NULL || !th_target_init_surface(&target, s)) abort();
		lua_newtable(L);
		th_text_open_lua(&f->lv, L);
		lua_setglobal(L, "gfx");
		opened = true;
	}
	fuzz_write("input.ttf", data, size);
	int top = lua_gettop(L);
	lua_pushlightuserdata(L, &f->lv);
	lua_pushcclosure(L, load, 1);
	if (lua_pcall(L, 0, 1, 0) != LUA_OK && lua_type(L, -1) != LUA_TSTRING) abort();
	lua_settop(L, top);
	lua_gc(L, LUA_GCCOLLECT);
	if (f->media.image_bytes != 0) {
		fprintf(stderr, "fuzz_font: %zu font bytes held after every Font was collected\n", f->media.image_bytes);
		abort();
	}
	return 0;
}
