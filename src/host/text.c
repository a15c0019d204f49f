/* tumble host: the level's text (text.h).
 *
 *   local big = gfx.font(32)                  -- the bundled font at 32 px
 *   local title = gfx.font("title.ttf", 24)   -- a font file of the level's
 *   gfx.set_font(title)
 *   local w, h = gfx.text_size("Score: 10")   -- pixels
 *
 * A face is opened by SDL2_ttf at each pixel size it is drawn at; the faces
 * opened lately are kept (at most OPEN_MAX). A line of text is rendered once
 * into a picture and kept in the target's texture cache under a hash of the
 * face, the size and the bytes, so text drawn every frame costs a lookup.
 * Only what can be seen of a line is rendered: a megabyte of text costs a
 * walk over it, never a picture of its size. */
#include "text.h"
#include "font.h"
#include "level.h"
#include "render.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#ifndef TH_NO_TTF
#include <SDL_ttf.h>
#endif

#define OPEN_MAX 16
#define FONT_FILE_MAX (16u * 1024u * 1024u)
/* the most bytes of one line rendered as one picture */
#define CHUNK_MAX 4096

typedef struct open_face {
	uint64_t face;
	int px;
	uint64_t last_used;
#ifndef TH_NO_TTF
	TTF_Font *font;
#endif
} open_face;

struct th_fonts {
	unsigned char *data; /* the bundled face, or NULL */
	size_t size;
	bool ttf;            /* SDL2_ttf started */
	open_face open[OPEN_MAX];
	int count;
	uint64_t tick;
	uint64_t next_face;
};

typedef struct th_font_ud {
	th_fonts *fonts;
	th_media *media;     /* charged for data */
	uint64_t face;       /* 0: the bundled face */
	unsigned char *data; /* a file's bytes; NULL for the bundled face */
	size_t size;
	int px;
	char *name;
} th_font_ud;

static const char current_font_key = 'f'; /* registry: the Font gfx.set_font chose */

/* ---------------- the run's fonts ---------------- */

th_fonts *th_text_open(const char *root)
{
	th_fonts *f = calloc(1, sizeof(*f));
	if (f == NULL) return NULL;
	f->next_face = 1;
#ifndef TH_NO_TTF
	f->ttf = TTF_WasInit() || TTF_Init() == 0;
	if (f->ttf && root != NULL) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/lua/fonts/DejaVuSans.ttf", root);
		SDL_RWops *rw = SDL_RWFromFile(path, "rb");
		Sint64 n = rw != NULL ? SDL_RWsize(rw) : -1;
		if (n > 0 && n <= (Sint64)FONT_FILE_MAX && (f->data = malloc((size_t)n)) != NULL) {
			if (SDL_RWread(rw, f->data, 1, (size_t)n) == (size_t)n) {
				f->size = (size_t)n;
			} else {
				free(f->data);
				f->data = NULL;
			}
		}
		if (rw != NULL) SDL_RWclose(rw);
	}
#else
	(void)root;
#endif
	return f;
}

static void close_face_at(th_fonts *f, int i)
{
#ifndef TH_NO_TTF
	TTF_CloseFont(f->open[i].font);
#endif
	f->open[i] = f->open[--f->count];
}

/* Closes every size of a face (its bytes are about to go). */
static void close_face(th_fonts *f, uint64_t face)
{
	for (int i = f->count - 1; i >= 0; --i) {
		if (f->open[i].face == face) close_face_at(f, i);
	}
}

void th_text_close(th_fonts *f)
{
	if (f == NULL) return;
	while (f->count > 0) close_face_at(f, f->count - 1);
#ifndef TH_NO_TTF
	if (f->ttf) TTF_Quit();
#endif
	free(f->data);
	free(f);
}

#ifndef TH_NO_TTF
/* The face at px pixels, opened on demand; NULL if it cannot be. */
static TTF_Font *face_at(const th_text_font *font, int px)
{
	th_fonts *f = font->fonts;
	if (f == NULL || !f->ttf || font->data == NULL) return NULL;
	f->tick += 1;
	for (int i = 0; i < f->count; ++i) {
		if (f->open[i].face == font->face && f->open[i].px == px) {
			f->open[i].last_used = f->tick;
			return f->open[i].font;
		}
	}
	if (f->count == OPEN_MAX) {
		int oldest = 0;
		for (int i = 1; i < f->count; ++i) {
			if (f->open[i].last_used < f->open[oldest].last_used) oldest = i;
		}
		close_face_at(f, oldest);
	}
	SDL_RWops *rw = SDL_RWFromConstMem(font->data, (int)font->size);
	if (rw == NULL) return NULL;
	TTF_Font *ttf = TTF_OpenFontRW(rw, 1, px);
	if (ttf == NULL) return NULL;
	/* a line's picture is as tall as the font says its lines are: a file
	 * that claims lines of thousands of pixels at 14 px is refused */
	int height = TTF_FontHeight(ttf);
	if (height < 0 || height > 4 * px + 16) {
		TTF_CloseFont(ttf);
		TTF_SetError("its lines are %d pixels tall at %d pixels (at most 4 times the size)", height, px);
		return NULL;
	}
	f->open[f->count++] = (open_face){font->face, px, f->tick, ttf};
	return ttf;
}
#endif

/* ---------------- measuring and drawing ---------------- */

static int bitmap_scale(int px)
{
	int s = (px + TH_FONT_LINE / 2) / TH_FONT_LINE;
	return s < 1 ? 1 : s;
}

#ifndef TH_NO_TTF
/* Copies a line (at most cap bytes) into a NUL-terminated buffer. */
static char *line_copy(char **buf, size_t *cap, const char *s, size_t n)
{
	if (n + 1 > *cap) {
		char *p = realloc(*buf, n + 1);
		if (p == NULL) return NULL;
		*buf = p;
		*cap = n + 1;
	}
	memcpy(*buf, s, n);
	(*buf)[n] = '\0';
	return *buf;
}
#endif

/* A line's width in pixels, measured CHUNK_MAX bytes at a time (so shaping
 * never holds more than a chunk's glyphs), up to MEASURE_CAP: past that the
 * text is far outside any view, and the walk stops. */
#define MEASURE_CAP (1 << 24)

#ifndef TH_NO_TTF
static int line_width(TTF_Font *ttf, const char *line, size_t n, char **buf, size_t *cap)
{
	long long width = 0;
	while (n > 0 && width < MEASURE_CAP) {
		size_t take = n < CHUNK_MAX ? n : CHUNK_MAX;
		/* cut at a character's first byte */
		while (take < n && take > 1 && ((unsigned char)line[take] & 0xC0) == 0x80) take -= 1;
		int lw = 0, lh = 0;
		/* a font's own metrics may be anything: a negative advance counts as none */
		if (line_copy(buf, cap, line, take) != NULL && TTF_SizeUTF8(ttf, *buf, &lw, &lh) == 0 && lw > 0) width += lw;
		line += take;
		n -= take;
	}
	return width < MEASURE_CAP ? (int)width : MEASURE_CAP;
}
#endif

void th_text_measure(const th_text_font *font, int px, const char *text, size_t len, int *w, int *h)
{
	int width = 0, lines = 1;
#ifndef TH_NO_TTF
	TTF_Font *ttf = face_at(font, px);
	if (ttf != NULL) {
		char *buf = NULL;
		size_t cap = 0;
		size_t start = 0;
		for (size_t i = 0; i <= len; ++i) {
			if (i < len && text[i] != '\n') continue;
			if (i > start) {
				int lw = line_width(ttf, text + start, i - start, &buf, &cap);
				if (lw > width) width = lw;
			}
			if (i < len) lines += 1;
			start = i + 1;
		}
		free(buf);
		*w = width;
		int skip = TTF_FontLineSkip(ttf), one = TTF_FontHeight(ttf);
		long long height = (long long)(lines - 1) * (skip > 0 ? skip : 0) + (one > 0 ? one : 0);
		*h = height < MEASURE_CAP ? (int)height : MEASURE_CAP;
		return;
	}
#endif
	(void)font;
	(void)lines;
	char *copy = malloc(len + 1);
	if (copy == NULL) {
		*w = *h = 0;
		return;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	th_font_measure(copy, bitmap_scale(px), &width, h);
	*w = width;
	free(copy);
}

#ifndef TH_NO_TTF
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; ++i) {
		h ^= b[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* Bytes of the first count characters of s (UTF-8; a stray byte counts as one). */
static size_t utf8_bytes(const char *s, size_t n, int count)
{
	size_t i = 0;
	for (int c = 0; c < count && i < n; ++c) {
		i += 1;
		while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i += 1;
	}
	return i;
}

/* One line at (x, y): only what lies inside the target is rendered. */
static void draw_line(const th_text_font *font, TTF_Font *ttf, th_target *t, int px, float x, float y,
                      const char *line, size_t n, SDL_Color color, SDL_BlendMode blend, char **buf, size_t *cap)
{
	if (n == 0 || x >= (float)t->width || x < -1e9f) return;
	if (x < 0.0f) {
		/* skip the characters left of the target */
		size_t probe = CHUNK_MAX * 4;
		while (x < 0.0f && n > 0) {
			size_t take = n < probe ? n : probe;
			while (take < n && take > 1 && ((unsigned char)line[take] & 0xC0) == 0x80) take -= 1;
			if (line_copy(buf, cap, line, take) == NULL) return;
			int extent = 0, count = 0;
			if (TTF_MeasureUTF8(ttf, *buf, (int)-x, &extent, &count) != 0 || count <= 0) break;
			size_t skip = utf8_bytes(line, take, count);
			line += skip;
			n -= skip;
			x += (float)extent;
			if (skip < take) break;
		}
	}
	if (n == 0) return;
	size_t take = n < CHUNK_MAX ? n : CHUNK_MAX;
	if (line_copy(buf, cap, line, take) == NULL) return;
	int extent = 0, count = 0;
	if (TTF_MeasureUTF8(ttf, *buf, (int)((float)t->width - x) + 1, &extent, &count) != 0) return;
	/* and one character more, which the target's edge cuts */
	size_t bytes = utf8_bytes(line, take, count + 1);
	if (bytes == 0) return;
	(*buf)[bytes] = '\0';
	uint64_t key = fnv1a(14695981039346656037ull, &font->face, sizeof(font->face));
	key = fnv1a(key, &px, sizeof(px));
	key = fnv1a(key, *buf, bytes) | (1ull << 63); /* image keys count up from 1 */
	SDL_Texture *tex = th_target_texture_find(t, key);
	int tw = 0, th = 0;
	if (tex == NULL) {
		SDL_Surface *s = TTF_RenderUTF8_Blended(ttf, *buf, (SDL_Color){255, 255, 255, 255});
		if (s == NULL) return;
		if ((long long)s->w * s->h > (long long)TH_TEXT_MAX_DRAW_SIZE * 4 * (t->width + 2 * TH_TEXT_MAX_DRAW_SIZE)) {
			/* more than the target's width of the tallest line: not kept */
			SDL_FreeSurface(s);
			return;
		}
		tex = th_target_texture(t, key, s, false);
		SDL_FreeSurface(s);
		if (tex == NULL) return;
	}
	if (SDL_QueryTexture(tex, NULL, NULL, &tw, &th) != 0) return;
	SDL_SetTextureBlendMode(tex, blend);
	SDL_SetTextureColorMod(tex, color.r, color.g, color.b);
	SDL_SetTextureAlphaMod(tex, color.a);
	SDL_FRect dst = {x, y, (float)tw, (float)th};
	SDL_RenderCopyF(t->renderer, tex, NULL, &dst);
}
#endif

void th_text_draw(const th_text_font *font, th_target *t, int px, float x, float y, const char *text, size_t len,
                  SDL_Color color, SDL_BlendMode blend)
{
	if (!isfinite(x) || !isfinite(y)) return;
#ifndef TH_NO_TTF
	TTF_Font *ttf = face_at(font, px);
	if (ttf != NULL) {
		int skip = TTF_FontLineSkip(ttf), height = TTF_FontHeight(ttf);
		/* lines go down at least a pixel each, whatever the font says, so
		 * no more of them than the target is tall are ever drawn */
		if (skip < 1) skip = 1;
		char *buf = NULL;
		size_t cap = 0;
		size_t start = 0;
		float ly = y;
		for (size_t i = 0; i <= len; ++i) {
			if (i < len && text[i] != '\n') continue;
			if (ly >= (float)t->height) break;
			if (ly + (float)height > 0.0f) draw_line(font, ttf, t, px, x, ly, text + start, i - start, color, blend, &buf, &cap);
			ly += (float)skip;
			start = i + 1;
		}
		free(buf);
		return;
	}
#endif
	(void)font;
	(void)blend;
	th_font_draw_n(t->renderer, t->font, x, y, bitmap_scale(px), text, len > INT_MAX ? INT_MAX : (int)len, color);
}

/* ---------------- the Font type ---------------- */

static th_level *host_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

static th_font_ud *check_font(lua_State *L, int arg)
{
	return luaL_checkudata(L, arg, TH_FONT_MT);
}

static void font_of(th_level *lv, const th_font_ud *u, th_text_font *out)
{
	out->fonts = lv->media->fonts;
	out->face = u->face;
	out->data = u->data != NULL ? u->data : (out->fonts != NULL ? out->fonts->data : NULL);
	out->size = u->data != NULL ? u->size : (out->fonts != NULL ? out->fonts->size : 0);
	out->px = u->px;
}

bool th_text_current(th_level *lv, lua_State *L, th_text_font *out)
{
	bool set = false;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &current_font_key) == LUA_TUSERDATA) {
		th_font_ud *u = luaL_testudata(L, -1, TH_FONT_MT);
		if (u != NULL) {
			font_of(lv, u, out);
			set = true;
		}
	}
	lua_pop(L, 1);
	if (!set) {
		th_font_ud def = {.px = TH_TEXT_DEFAULT_SIZE};
		font_of(lv, &def, out);
	}
	return set;
}

static int font_gc(lua_State *L)
{
	th_font_ud *u = check_font(L, 1);
	if (u->data != NULL) {
		if (u->fonts != NULL) close_face(u->fonts, u->face);
		u->media->image_bytes -= u->size;
		free(u->data);
		u->data = NULL;
	}
	free(u->name);
	u->name = NULL;
	return 0;
}

static int font_tostring(lua_State *L)
{
	th_font_ud *u = check_font(L, 1);
	lua_pushfstring(L, "Font(%s %d px)", u->name != NULL ? u->name : "DejaVu Sans", u->px);
	return 1;
}

/* font:text_size(text) -> w, h in pixels at the font's size */
static int font_text_size(lua_State *L)
{
	th_font_ud *u = check_font(L, 1);
	size_t len = 0;
	const char *s = luaL_tolstring(L, 2, &len);
	th_text_font f;
	font_of(lua_touserdata(L, lua_upvalueindex(1)), u, &f);
	int w = 0, h = 0;
	th_text_measure(&f, u->px, s, len, &w, &h);
	lua_pushinteger(L, w);
	lua_pushinteger(L, h);
	return 2;
}

/* What a Font has, in the order font_index dispatches on (and
 * tumble._host_introspect reports). */
static const char *const font_props[] = {"size", "name", "height", NULL};
static const char *const font_methods[] = {"text_size", NULL};

static int name_index(const char *const names[], const char *k)
{
	int i = 0;
	while (names[i] != NULL && strcmp(names[i], k) != 0) i += 1;
	return names[i] != NULL ? i : -1;
}

static int font_index(lua_State *L)
{
	th_font_ud *u = check_font(L, 1);
	const char *k = luaL_checkstring(L, 2);
	th_text_font f;
	int w = 0, h = 0;
	switch (name_index(font_props, k)) {
	case 0: lua_pushinteger(L, u->px); return 1;
	case 1:
		if (u->name != NULL) lua_pushstring(L, u->name);
		else lua_pushnil(L);
		return 1;
	case 2:
		font_of(lua_touserdata(L, lua_upvalueindex(1)), u, &f);
		th_text_measure(&f, u->px, "", 0, &w, &h);
		lua_pushinteger(L, h);
		return 1;
	default: break;
	}
	if (name_index(font_methods, k) == 0) {
		lua_pushvalue(L, lua_upvalueindex(1));
		lua_pushcclosure(L, font_text_size, 1);
		return 1;
	}
	return luaL_error(L, "Font has no property '%s' (size, name, height, text_size)", k);
}

void th_text_describe(lua_State *L)
{
	lua_newtable(L);
	th_api_push_names(L, font_props);
	lua_setfield(L, -2, "properties");
	th_api_push_names(L, font_methods);
	lua_setfield(L, -2, "methods");
	lua_setfield(L, -2, "font");
}

static int font_newindex(lua_State *L)
{
	return luaL_error(L, "Font is read-only (cannot assign '%s')", luaL_tolstring(L, 2, NULL));
}

/* gfx.font([path,] size) -> Font: the bundled font, or a TrueType/OpenType
 * file in the level's folder, at size pixels. */
static int gfx_font(lua_State *L)
{
	th_level *lv = host_up(L);
	const char *name = NULL;
	size_t name_len = 0;
	int size_arg = 1;
	if (lua_type(L, 1) == LUA_TSTRING) {
		name = lua_tolstring(L, 1, &name_len);
		luaL_argcheck(L, strlen(name) == name_len, 1, "file name without NUL bytes expected");
		size_arg = 2;
	} else if (lua_isnil(L, 1) && lua_gettop(L) >= 2) {
		size_arg = 2;
	}
	lua_Number px = luaL_checknumber(L, size_arg);
	luaL_argcheck(L, isfinite(px) && px >= 1 && px <= TH_TEXT_MAX_SIZE, size_arg,
	              "font size in pixels in [1, 256] expected");
	th_font_ud *u = lua_newuserdatauv(L, sizeof(*u), 0);
	memset(u, 0, sizeof(*u));
	u->fonts = lv->media->fonts;
	u->media = lv->media;
	u->px = (int)lround(px);
	luaL_setmetatable(L, TH_FONT_MT);
	if (name == NULL) return 1;
	char err[512];
	th_asset a;
	if (!th_asset_read(lv, "font", name, FONT_FILE_MAX, &a, err, sizeof(err))) return luaL_error(L, "%s", err);
	th_media *m = lv->media;
	if (m->image_bytes + a.size > m->image_budget) {
		lua_gc(L, LUA_GCCOLLECT);
		if (m->image_bytes + a.size > m->image_budget) {
			th_asset_free(&a);
			return luaL_error(L, "cannot load font '%s': the images' and fonts' memory limit (%d MB) is reached",
			                  name, (int)(m->image_budget >> 20));
		}
	}
	u->data = a.data;
	u->size = a.size;
	a.data = NULL;
	th_asset_free(&a);
	m->image_bytes += u->size;
	u->face = u->fonts != NULL ? u->fonts->next_face++ : 1;
	u->name = strdup(name);
	if (u->name == NULL) return luaL_error(L, "out of memory");
#ifndef TH_NO_TTF
	th_text_font f;
	font_of(lv, u, &f);
	if (u->fonts != NULL && u->fonts->ttf && face_at(&f, u->px) == NULL) {
		return luaL_error(L, "cannot load font '%s': %s", name, TTF_GetError());
	}
#endif
	return 1;
}

/* gfx.set_font([font]): text draws in font from now on; none: the default. */
static int gfx_set_font(lua_State *L)
{
	if (lua_isnoneornil(L, 1)) {
		lua_pushnil(L);
	} else {
		check_font(L, 1);
		lua_pushvalue(L, 1);
	}
	lua_rawsetp(L, LUA_REGISTRYINDEX, &current_font_key);
	return 0;
}

/* gfx.get_font() -> the Font set, or nil for the default */
static int gfx_get_font(lua_State *L)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &current_font_key) != LUA_TUSERDATA) {
		lua_pop(L, 1);
		lua_pushnil(L);
	}
	return 1;
}

void th_text_open_lua(th_level *lv, lua_State *L)
{
	static const luaL_Reg fns[] = {
		{"font", gfx_font},
		{"set_font", gfx_set_font},
		{"get_font", gfx_get_font},
		{NULL, NULL},
	};
	lua_pushlightuserdata(L, lv);
	luaL_setfuncs(L, fns, 1);
	if (luaL_newmetatable(L, TH_FONT_MT)) {
		lua_pushlightuserdata(L, lv);
		lua_pushcclosure(L, font_index, 1);
		lua_setfield(L, -2, "__index");
		lua_pushcfunction(L, font_newindex);
		lua_setfield(L, -2, "__newindex");
		lua_pushcfunction(L, font_gc);
		lua_setfield(L, -2, "__gc");
		lua_pushcfunction(L, font_tostring);
		lua_setfield(L, -2, "__tostring");
		lua_pushliteral(L, "Font");
		lua_setfield(L, -2, "__metatable");
	}
	lua_pop(L, 1);
	lua_pushnil(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &current_font_key);
}
