/* tumble host: images.
 *
 *   local hero = gfx.image("hero.png", { frame_w = 32, frame_h = 32 })
 *   gfx.draw(hero, x, y, { w = 1, h = 1, angle = a, frame = 2, tint = {1, 0.5, 0.5} })
 *   gfx.sprite(body, { image = hero, w = 1, h = 1 })   -- follows the body
 *
 * An Image holds its pixels (RGBA, in a surface) and where they came from, so
 * an edit of the file on disk reloads them in place: every draw and sprite of
 * that Image shows the new picture at the next frame. Textures are made from
 * the pixels on demand, per render target (the window's renderer, or the
 * software renderer of an offscreen screenshot), and kept in the target's
 * cache: a target frees its textures with itself, so an Image never holds a
 * texture of a renderer that is gone. Each picture (a load or a reload) has a
 * key of its own; textures of pictures nobody draws any more are dropped after
 * a while.
 *
 * Sprites are the level's own tables, kept in the registry with their body:
 * the host reads them every frame (raw reads, no metamethods), so changing
 * spr.frame animates. They are drawn at the body's interpolated transform,
 * after the debug draw and before level.draw. */
#include "level.h"
#include "picture.h"
#include "tumble/tumble_lua.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <SDL_image.h>
#include <lauxlib.h>

#define IMAGE_MT TH_IMAGE_MT
#define MAX_SIDE 8192
#define MAX_PIXELS (16 * 1024 * 1024)
#define MAX_FILE_BYTES (64u * 1024u * 1024u)
#define DEFAULT_PPM 32.0


static const char live_images_key = 'i'; /* registry: weak set of live Images */
static const char sprites_key = 's';     /* registry: {list = {{body, spec}...}, map = {[body] = spec}} */

static th_level *host_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* ---------------- decoding ---------------- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Width and height from the file's header, before anything is decoded, so a
 * small file that claims a huge picture is refused without allocating it. */
static const char *sniff(const unsigned char *d, size_t n, int *w, int *h)
{
	static const unsigned char png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	if (n >= 24 && memcmp(d, png_magic, 8) == 0 && memcmp(d + 12, "IHDR", 4) == 0) {
		uint32_t pw = be32(d + 16), ph = be32(d + 20);
		*w = pw > MAX_SIDE ? MAX_SIDE + 1 : (int)pw;
		*h = ph > MAX_SIDE ? MAX_SIDE + 1 : (int)ph;
		return NULL;
	}
	if (n >= 4 && d[0] == 0xFF && d[1] == 0xD8) {
		/* walk the markers up to the first start-of-frame */
		size_t i = 2;
		while (i + 9 < n) {
			if (d[i] != 0xFF) return "a damaged JPEG file";
			unsigned m = d[i + 1];
			if (m == 0xFF) {
				i += 1;
				continue;
			}
			if (m == 0xD8 || (m >= 0xD0 && m <= 0xD7) || m == 0x01) {
				i += 2;
				continue;
			}
			size_t len = (size_t)d[i + 2] << 8 | d[i + 3];
			if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
				*h = (int)((unsigned)d[i + 5] << 8 | d[i + 6]);
				*w = (int)((unsigned)d[i + 7] << 8 | d[i + 8]);
				return NULL;
			}
			if (len < 2) return "a damaged JPEG file";
			i += 2 + len;
		}
		return "a damaged JPEG file";
	}
	return "not a PNG or JPEG file";
}

static const char limit_reached[] = "the images' memory limit is reached";

SDL_Surface *th_image_decode(const unsigned char *data, size_t size, size_t room, const char **why)
{
	int w = 0, h = 0;
	*why = sniff(data, size, &w, &h);
	if (*why != NULL) return NULL;
	if (w <= 0 || h <= 0 || w > MAX_SIDE || h > MAX_SIDE || (long long)w * h > MAX_PIXELS) {
		*why = "picture too large (at most 8192 pixels a side, 16 million in all)";
		return NULL;
	}
	if ((double)w * h * 4 > (double)room) {
		*why = limit_reached;
		return NULL;
	}
	/* the decoder the header was read for, not one SDL_image guesses: a file
	 * that is not quite a JPEG must not be decoded as some other format whose
	 * size nobody checked */
	SDL_RWops *rw = size <= INT_MAX ? SDL_RWFromConstMem(data, (int)size) : NULL;
	SDL_Surface *raw = NULL;
	if (rw != NULL) {
		raw = data[0] == 0x89 ? IMG_LoadPNG_RW(rw) : IMG_LoadJPG_RW(rw);
		SDL_RWclose(rw);
	}
	if (raw == NULL) {
		*why = IMG_GetError();
		return NULL;
	}
	SDL_Surface *rgba = NULL;
	if (raw->w == w && raw->h == h) rgba = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_RGBA32, 0);
	SDL_FreeSurface(raw);
	if (rgba == NULL) *why = "cannot convert the picture";
	return rgba;
}

/* Decodes a file's bytes into an RGBA32 surface; NULL with *why on failure. */
static SDL_Surface *decode(const th_asset *a, size_t room, const char **why)
{
	return th_image_decode(a->data, a->size, room, why);
}

static size_t surface_bytes(const SDL_Surface *s)
{
	return s != NULL ? (size_t)s->pitch * (size_t)s->h : 0;
}

static void set_frames(th_image *img, int fw, int fh)
{
	img->frame_w = fw > 0 && fw <= img->surface->w ? fw : img->surface->w;
	img->frame_h = fh > 0 && fh <= img->surface->h ? fh : img->surface->h;
	img->cols = img->surface->w / img->frame_w;
	img->frame_count = img->cols * (img->surface->h / img->frame_h);
}

/* ---------------- the Image type ---------------- */

th_image *th_image_check(lua_State *L, int arg)
{
	th_image *img = luaL_testudata(L, arg, IMAGE_MT);
	if (img == NULL) img = th_canvas_image(L, arg);
	if (img == NULL) img = luaL_checkudata(L, arg, IMAGE_MT);
	if (img->surface == NULL) luaL_argerror(L, arg, "image was freed");
	return img;
}

static int image_gc(lua_State *L)
{
	th_image *img = luaL_checkudata(L, 1, IMAGE_MT);
	if (img->surface != NULL) {
		img->media->image_bytes -= surface_bytes(img->surface);
		SDL_FreeSurface(img->surface);
	}
	free(img->path);
	free(img->name);
	img->surface = NULL;
	img->path = img->name = NULL;
	return 0;
}

static int image_tostring(lua_State *L)
{
	th_image *img = luaL_checkudata(L, 1, IMAGE_MT);
	if (img->surface == NULL) {
		lua_pushliteral(L, "Image(freed)");
	} else {
		lua_pushfstring(L, "Image(%s %dx%d)", img->name, img->surface->w, img->surface->h);
	}
	return 1;
}

/* img:pixel(x, y) -> r, g, b, a in 0..1; x, y in pixels from the top-left, from 0 */
static int image_pixel(lua_State *L)
{
	th_image *img = th_image_check(L, 1);
	lua_Integer x = luaL_checkinteger(L, 2), y = luaL_checkinteger(L, 3);
	SDL_Surface *s = img->surface;
	luaL_argcheck(L, x >= 0 && x < s->w, 2, "x out of the image");
	luaL_argcheck(L, y >= 0 && y < s->h, 3, "y out of the image");
	const Uint8 *p = (const Uint8 *)s->pixels + y * s->pitch + x * 4;
	for (int i = 0; i < 4; ++i) lua_pushnumber(L, p[i] / 255.0);
	return 4;
}

/* Read-only properties, in the order image_index dispatches on. */
static const char *const image_props[] = {"width", "height", "name", "path", "frame_w", "frame_h", "frame_count",
                                          "reloads", NULL};
static const luaL_Reg image_methods[] = {
	{"pixel", image_pixel},
	{NULL, NULL},
};

static int image_index(lua_State *L)
{
	th_image *img = th_image_check(L, 1);
	const char *k = luaL_checkstring(L, 2);
	int which = 0;
	while (image_props[which] != NULL && strcmp(image_props[which], k) != 0) which += 1;
	switch (which) {
	case 0: lua_pushinteger(L, img->surface->w); return 1;
	case 1: lua_pushinteger(L, img->surface->h); return 1;
	case 2: lua_pushstring(L, img->name); return 1;
	case 3: lua_pushstring(L, img->path); return 1;
	case 4: lua_pushinteger(L, img->frame_w); return 1;
	case 5: lua_pushinteger(L, img->frame_h); return 1;
	case 6: lua_pushinteger(L, img->frame_count); return 1;
	case 7: lua_pushinteger(L, img->reloads); return 1;
	default: break;
	}
	for (int i = 0; image_methods[i].name != NULL; ++i) {
		if (strcmp(image_methods[i].name, k) == 0) {
			lua_pushcfunction(L, image_methods[i].func);
			return 1;
		}
	}
	lua_pushnil(L);
	return 1;
}

static int image_newindex(lua_State *L)
{
	return luaL_error(L, "Image is read-only (cannot assign '%s')", luaL_tolstring(L, 2, NULL));
}

/* The option table at argument t: every key must be known. */
void th_image_check_options(lua_State *L, int t, const char *const names[])
{
	lua_pushnil(L);
	while (lua_next(L, t) != 0) {
		lua_pop(L, 1);
		bool known = false;
		if (lua_type(L, -1) == LUA_TSTRING) {
			for (int i = 0; names[i] != NULL && !known; ++i) known = strcmp(lua_tostring(L, -1), names[i]) == 0;
		}
		if (!known) {
			luaL_Buffer b;
			luaL_buffinit(L, &b);
			for (int i = 0; names[i] != NULL; ++i) {
				if (i > 0) luaL_addstring(&b, ", ");
				luaL_addstring(&b, names[i]);
			}
			luaL_pushresult(&b);
			const char *valid = lua_tostring(L, -1);
			const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : luaL_typename(L, -2);
			luaL_argerror(L, t, lua_pushfstring(L, "unknown option '%s'; valid options: %s", key, valid));
		}
	}
}

double th_opt_number(lua_State *L, int t, const char *name, double def, double lo, double hi)
{
	lua_pushstring(L, name);
	lua_rawget(L, t);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		return def;
	}
	int ok = 0;
	double v = lua_tonumberx(L, -1, &ok);
	if (!ok || lua_type(L, -1) != LUA_TNUMBER || !isfinite(v) || v < lo || v > hi) {
		const char *got = lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1) : luaL_typename(L, -1);
		char range[64];
		snprintf(range, sizeof(range), "[%g, %g]", lo, hi);
		luaL_argerror(L, t, lua_pushfstring(L, "field '%s': number in %s expected, got %s", name, range, got));
	}
	lua_pop(L, 1);
	return v;
}

static void push_live_images(lua_State *L)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &live_images_key) == LUA_TTABLE) return;
	lua_pop(L, 1);
	lua_newtable(L);
	lua_newtable(L);
	lua_pushliteral(L, "k");
	lua_setfield(L, -2, "__mode");
	lua_setmetatable(L, -2);
	lua_pushvalue(L, -1);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &live_images_key);
}

static const char *const image_names[] = {"frame_w", "frame_h", "ppm", "filter", NULL};

/* gfx.image(path [, {frame_w, frame_h, ppm, filter}]) -> Image */
static int gfx_image(lua_State *L)
{
	const char *const *names = image_names;
	th_level *lv = host_up(L);
	size_t len = 0;
	const char *name = luaL_checklstring(L, 1, &len);
	luaL_argcheck(L, strlen(name) == len, 1, "file name without NUL bytes expected");
	int fw = 0, fh = 0;
	double ppm = DEFAULT_PPM;
	bool nearest = false;
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		th_image_check_options(L, 2, names);
		fw = (int)th_opt_number(L, 2, "frame_w", 0, 1, MAX_SIDE);
		fh = (int)th_opt_number(L, 2, "frame_h", 0, 1, MAX_SIDE);
		ppm = th_opt_number(L, 2, "ppm", DEFAULT_PPM, 1e-3, 1e6);
		lua_getfield(L, 2, "filter");
		if (!lua_isnil(L, -1)) {
			const char *f = lua_tostring(L, -1);
			if (lua_type(L, -1) != LUA_TSTRING || (strcmp(f, "linear") != 0 && strcmp(f, "nearest") != 0)) {
				luaL_argerror(L, 2, "field 'filter': 'linear' or 'nearest' expected");
			}
			nearest = strcmp(f, "nearest") == 0;
		}
		lua_pop(L, 1);
	}
	/* the userdata first, so nothing below can leak: __gc frees what it holds */
	th_image *img = lua_newuserdatauv(L, sizeof(th_image), 0);
	memset(img, 0, sizeof(*img));
	img->media = lv->media;
	luaL_setmetatable(L, IMAGE_MT);
	char err[512];
	th_asset a;
	if (!th_asset_read(lv, "image", name, MAX_FILE_BYTES, &a, err, sizeof(err))) return luaL_error(L, "%s", err);
	const char *why = NULL;
	th_media *m = lv->media;
	SDL_Surface *s = decode(&a, m->image_bytes < m->image_budget ? m->image_budget - m->image_bytes : 0, &why);
	if (s == NULL && why == limit_reached) {
		/* images the level dropped still count until collected: collect first */
		lua_gc(L, LUA_GCCOLLECT);
		s = decode(&a, m->image_bytes < m->image_budget ? m->image_budget - m->image_bytes : 0, &why);
	}
	if (s == NULL && why == limit_reached) {
		th_asset_free(&a);
		return luaL_error(L, "cannot load image '%s': the images' memory limit (%d MB) is reached", name,
		                  (int)(m->image_budget >> 20));
	}
	if (s == NULL) {
		snprintf(err, sizeof(err), "cannot load image '%.200s': %s", name, why);
		th_asset_free(&a);
		return luaL_error(L, "%s", err);
	}
	lv->media->image_bytes += surface_bytes(s);
	img->surface = s;
	img->path = a.path;
	a.path = NULL;
	img->stamp = a.stamp;
	th_asset_free(&a);
	img->name = strdup(name);
	img->key = ++lv->media->next_image_key;
	img->ppm = ppm;
	img->nearest = nearest;
	set_frames(img, fw, fh);
	if (img->name == NULL) return luaL_error(L, "out of memory");
	push_live_images(L);
	lua_pushvalue(L, -2);
	lua_pushboolean(L, 1);
	lua_rawset(L, -3);
	lua_pop(L, 1);
	return 1;
}

/* ---------------- drawing ---------------- */


void th_image_default_spec(draw_spec *d)
{
	memset(d, 0, sizeof(*d));
	d->sx = d->sy = 1.0;
	d->ox = d->oy = 0.5;
	d->tint = (SDL_Color){255, 255, 255, 255};
}

/* The source rectangle of a draw in the image's pixels, and its size in metres. */
static SDL_Rect spec_source(const th_image *img, const draw_spec *d, double *w, double *hh)
{
	SDL_Rect src;
	if (d->has_rect) {
		src = d->rect;
	} else {
		int f = d->frame > 0 ? (d->frame - 1) % img->frame_count : 0;
		src = (SDL_Rect){(f % img->cols) * img->frame_w, (f / img->cols) * img->frame_h, img->frame_w, img->frame_h};
	}
	*w = d->w;
	*hh = d->h;
	if (*w <= 0 && *hh <= 0) {
		*w = src.w / img->ppm;
		*hh = src.h / img->ppm;
	} else if (*w <= 0) {
		*w = *hh * src.w / src.h;
	} else if (*hh <= 0) {
		*hh = *w * src.h / src.w;
	}
	return src;
}

void th_image_spec_quad(const th_image *img, const draw_spec *d, th_quad *q)
{
	double w, hh;
	SDL_Rect src = spec_source(img, d, &w, &hh);
	double c = cos(d->angle), s = sin(d->angle);
	float iw = (float)img->surface->w, ih = (float)img->surface->h;
	float u0 = (float)src.x / iw, u1 = (float)(src.x + src.w) / iw;
	float v0 = (float)src.y / ih, v1 = (float)(src.y + src.h) / ih;
	/* bottom-left, bottom-right, top-right, top-left of the frame, y up */
	static const int us[4] = {0, 1, 1, 0}, vs[4] = {0, 0, 1, 1};
	for (int i = 0; i < 4; ++i) {
		double lx = (us[i] - d->ox) * w * d->sx, ly = (vs[i] - d->oy) * hh * d->sy;
		q->x[i] = d->x + c * lx - s * ly;
		q->y[i] = d->y + s * lx + c * ly;
		q->uv[i] = (SDL_FPoint){us[i] ? u1 : u0, vs[i] ? v0 : v1};
	}
	q->tint = d->tint;
}

static SDL_BlendMode draw_blend(const th_render *r)
{
	/* the level's blend mode holds inside its draw; sprites blend as ever */
	return r->target != NULL ? r->gfx.blend : SDL_BLENDMODE_BLEND;
}

void th_image_draw(const th_render *r, th_target *t, th_image *img, const draw_spec *d)
{
	if (r->target != NULL && !r->gfx.cur.camera) {
		/* under a transform of the level's: a textured quad through it */
		SDL_Texture *tex = th_target_texture_version(t, img->key, img->version, img->surface, img->nearest);
		if (tex == NULL) return;
		SDL_SetTextureBlendMode(tex, draw_blend(r));
		th_quad q;
		th_image_spec_quad(img, d, &q);
		th_render_quads((th_render *)r, t, tex, &q, 1, 0.0, 0.0);
		return;
	}
	double w, hh;
	SDL_Rect src = spec_source(img, d, &w, &hh);
	double dw = w * fabs(d->sx) * r->scale, dh = hh * fabs(d->sy) * r->scale;
	if (!(dw >= 0.25 && dh >= 0.25) || dw > 1e5 || dh > 1e5) return;
	double px = 0.5 * t->width + (d->x - r->cam_x) * r->scale;
	double py = th_target_center_y(t) - (d->y - r->cam_y) * r->scale;
	/* the origin, in the destination rectangle's pixels (y down) */
	double cx = (d->sx < 0 ? 1.0 - d->ox : d->ox) * dw;
	double cy = (1.0 - (d->sy < 0 ? 1.0 - d->oy : d->oy)) * dh;
	double reach = sqrt(dw * dw + dh * dh);
	if (px + reach < 0 || px - reach > t->width || py + reach < 0 || py - reach > t->height) return;
	SDL_Texture *tex = th_target_texture_version(t, img->key, img->version, img->surface, img->nearest);
	if (tex == NULL) return;
	SDL_SetTextureBlendMode(tex, draw_blend(r));
	SDL_SetTextureColorMod(tex, d->tint.r, d->tint.g, d->tint.b);
	SDL_SetTextureAlphaMod(tex, d->tint.a);
	SDL_FRect dst = {(float)(px - cx), (float)(py - cy), (float)dw, (float)dh};
	SDL_FPoint centre = {(float)cx, (float)cy};
	int flip = (d->sx < 0 ? SDL_FLIP_HORIZONTAL : 0) | (d->sy < 0 ? SDL_FLIP_VERTICAL : 0);
	SDL_RenderCopyExF(t->renderer, tex, &src, &dst, -d->angle * 180.0 / M_PI, &centre, (SDL_RendererFlip)flip);
}

static bool read_color(lua_State *L, int idx, SDL_Color *out)
{
	if (!lua_istable(L, idx)) return false;
	double c[4] = {1, 1, 1, 1};
	for (int i = 0; i < 4; ++i) {
		int type = lua_rawgeti(L, idx, i + 1);
		int ok = 0;
		double v = lua_tonumberx(L, -1, &ok);
		lua_pop(L, 1);
		if (type == LUA_TNIL && i == 3) break;
		if (type != LUA_TNUMBER || !ok || !isfinite(v)) return false;
		c[i] = v < 0 ? 0 : v > 1 ? 1 : v;
	}
	*out = (SDL_Color){(Uint8)lround(c[0] * 255), (Uint8)lround(c[1] * 255), (Uint8)lround(c[2] * 255),
	                   (Uint8)lround(c[3] * 255)};
	return true;
}

/* Reads the draw options of table t into d. strict: raise on a bad value (a
 * gfx.draw or gfx.sprite call); else keep the default (a sprite at draw time,
 * where the level may have put anything into its table since). */
bool th_image_read_spec(lua_State *L, int t, th_image *img, draw_spec *d, bool strict)
{
	static const struct {
		const char *name;
		size_t offset;
		double lo, hi;
	} numbers[] = {
		{"w", offsetof(draw_spec, w), 0, 1e4},      {"h", offsetof(draw_spec, h), 0, 1e4},
		{"angle", offsetof(draw_spec, angle), -1e6, 1e6}, {"sx", offsetof(draw_spec, sx), -1e4, 1e4},
		{"sy", offsetof(draw_spec, sy), -1e4, 1e4}, {"ox", offsetof(draw_spec, ox), -1e3, 1e3},
		{"oy", offsetof(draw_spec, oy), -1e3, 1e3},
	};
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
		double *field = (double *)((char *)d + numbers[i].offset);
		if (strict) {
			*field = th_opt_number(L, t, numbers[i].name, *field, numbers[i].lo, numbers[i].hi);
			continue;
		}
		lua_pushstring(L, numbers[i].name);
		lua_rawget(L, t);
		int ok = 0;
		double v = lua_tonumberx(L, -1, &ok);
		if (ok && lua_type(L, -1) == LUA_TNUMBER && isfinite(v) && v >= numbers[i].lo && v <= numbers[i].hi) *field = v;
		lua_pop(L, 1);
	}
	lua_pushliteral(L, "frame");
	lua_rawget(L, t);
	if (!lua_isnil(L, -1)) {
		int ok = 0;
		lua_Integer f = lua_tointegerx(L, -1, &ok);
		if (ok && f >= 1 && f <= img->frame_count) {
			d->frame = (int)f;
		} else if (strict) {
			luaL_argerror(L, t, lua_pushfstring(L, "field 'frame': integer in [1, %d] expected, got %s", img->frame_count,
			                                    luaL_tolstring(L, -1, NULL)));
		}
	}
	lua_pop(L, 1);
	lua_pushliteral(L, "rect");
	lua_rawget(L, t);
	if (!lua_isnil(L, -1)) {
		int v[4] = {0, 0, 0, 0};
		bool ok = lua_istable(L, -1);
		for (int i = 0; i < 4 && ok; ++i) {
			lua_rawgeti(L, -1, i + 1);
			int isint = 0;
			lua_Integer x = lua_tointegerx(L, -1, &isint);
			lua_pop(L, 1);
			ok = isint && x >= 0 && x <= MAX_SIDE;
			v[i] = (int)x;
		}
		ok = ok && v[2] > 0 && v[3] > 0 && v[0] + v[2] <= img->surface->w && v[1] + v[3] <= img->surface->h;
		if (ok) {
			d->has_rect = true;
			d->rect = (SDL_Rect){v[0], v[1], v[2], v[3]};
		} else if (strict) {
			luaL_argerror(L, t, lua_pushfstring(L, "field 'rect': {x, y, w, h} in pixels inside the %dx%d image expected",
			                                    img->surface->w, img->surface->h));
		}
	}
	lua_pop(L, 1);
	lua_pushliteral(L, "tint");
	lua_rawget(L, t);
	if (!lua_isnil(L, -1) && !read_color(L, lua_gettop(L), &d->tint) && strict) {
		luaL_argerror(L, t, "field 'tint': {r, g, b [, a]} numbers expected");
	}
	lua_pop(L, 1);
	return true;
}

const char *const th_image_draw_names[] = {"w", "h", "angle", "sx", "sy", "ox", "oy", "frame", "rect", "tint", NULL};

/* gfx.draw(image, x, y [, {w, h, angle, sx, sy, ox, oy, frame, rect, tint}]) */
static int gfx_draw(lua_State *L)
{
	th_level *lv = host_up(L);
	th_image *img = th_image_check(L, 1);
	draw_spec d;
	th_image_default_spec(&d);
	d.x = luaL_checknumber(L, 2);
	d.y = luaL_checknumber(L, 3);
	luaL_argcheck(L, isfinite(d.x) && fabs(d.x) <= 1e6, 2, "number in [-1e6, 1e6] expected");
	luaL_argcheck(L, isfinite(d.y) && fabs(d.y) <= 1e6, 3, "number in [-1e6, 1e6] expected");
	if (!lua_isnoneornil(L, 4)) {
		luaL_checktype(L, 4, LUA_TTABLE);
		th_image_check_options(L, 4, th_image_draw_names);
		th_image_read_spec(L, 4, img, &d, true);
	}
	th_target *t = lv->render->target;
	if (t != NULL) th_image_draw(lv->render, t, img, &d);
	return 0;
}

/* ---------------- sprites ---------------- */

static const char *const sprite_names[] = {"image", "x", "y", "w", "h", "angle", "sx", "sy", "ox",
                                           "oy", "frame", "rect", "tint", "visible", NULL};

static void push_sprites(lua_State *L)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &sprites_key) == LUA_TTABLE) return;
	lua_pop(L, 1);
	lua_createtable(L, 0, 2);
	lua_newtable(L);
	lua_setfield(L, -2, "list");
	lua_newtable(L);
	lua_setfield(L, -2, "map");
	lua_pushvalue(L, -1);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &sprites_key);
}

/* Removes body's entry from the list (the map is the caller's). */
static void sprite_list_remove(lua_State *L, int list, int body)
{
	lua_Integer n = (lua_Integer)lua_rawlen(L, list);
	for (lua_Integer i = 1; i <= n; ++i) {
		lua_rawgeti(L, list, i);
		lua_rawgeti(L, -1, 1);
		bool same = lua_rawequal(L, -1, body);
		lua_pop(L, 2);
		if (!same) continue;
		for (lua_Integer j = i; j < n; ++j) {
			lua_rawgeti(L, list, j + 1);
			lua_rawseti(L, list, j);
		}
		lua_pushnil(L);
		lua_rawseti(L, list, n);
		return;
	}
}

/* gfx.sprite(body) -> spec; gfx.sprite(body, spec) attaches; gfx.sprite(body, nil) detaches */
static int gfx_sprite(lua_State *L)
{
	tb_world *w = NULL;
	tb_body_id id;
	if (!tumble_lua_to_body(L, 1, &w, &id)) {
		return luaL_argerror(L, 1, lua_pushfstring(L, "live Body expected, got %s", luaL_typename(L, 1)));
	}
	int nargs = lua_gettop(L);
	lua_settop(L, 2);
	push_sprites(L);
	int reg = lua_gettop(L);
	lua_getfield(L, reg, "map");
	int map = lua_gettop(L);
	lua_getfield(L, reg, "list");
	int list = lua_gettop(L);
	if (nargs < 2) {
		lua_pushvalue(L, 1);
		lua_rawget(L, map);
		return 1;
	}
	if (lua_isnil(L, 2)) {
		sprite_list_remove(L, list, 1);
		lua_pushvalue(L, 1);
		lua_pushnil(L);
		lua_rawset(L, map);
		return 0;
	}
	luaL_checktype(L, 2, LUA_TTABLE);
	th_image_check_options(L, 2, sprite_names);
	lua_pushliteral(L, "image");
	lua_rawget(L, 2);
	th_image *img = luaL_testudata(L, -1, IMAGE_MT);
	if (img == NULL || img->surface == NULL) {
		return luaL_argerror(L, 2, lua_pushfstring(L, "field 'image': Image expected, got %s", luaL_typename(L, -1)));
	}
	lua_pop(L, 1);
	draw_spec d;
	th_image_default_spec(&d);
	th_image_read_spec(L, 2, img, &d, true);
	th_opt_number(L, 2, "x", 0, -1e6, 1e6);
	th_opt_number(L, 2, "y", 0, -1e6, 1e6);
	lua_pushvalue(L, 1);
	lua_rawget(L, map);
	bool had = !lua_isnil(L, -1);
	lua_pop(L, 1);
	if (had) {
		/* replacing keeps the body's place in the drawing order */
		lua_Integer n = (lua_Integer)lua_rawlen(L, list);
		for (lua_Integer i = 1; i <= n; ++i) {
			lua_rawgeti(L, list, i);
			lua_rawgeti(L, -1, 1);
			if (lua_rawequal(L, -1, 1)) {
				lua_pushvalue(L, 2);
				lua_rawseti(L, -3, 2);
			}
			lua_pop(L, 2);
		}
	} else {
		lua_createtable(L, 2, 0);
		lua_pushvalue(L, 1);
		lua_rawseti(L, -2, 1);
		lua_pushvalue(L, 2);
		lua_rawseti(L, -2, 2);
		lua_rawseti(L, list, (lua_Integer)lua_rawlen(L, list) + 1);
	}
	lua_pushvalue(L, 1);
	lua_pushvalue(L, 2);
	lua_rawset(L, map);
	lua_settop(L, 2);
	return 1;
}

static double raw_number(lua_State *L, int t, const char *name, double def)
{
	lua_pushstring(L, name);
	lua_rawget(L, t);
	int ok = 0;
	double v = lua_tonumberx(L, -1, &ok);
	bool good = ok && lua_type(L, -1) == LUA_TNUMBER && isfinite(v) && fabs(v) <= 1e6;
	lua_pop(L, 1);
	return good ? v : def;
}

typedef struct sprite_pass {
	th_level *lv;
	th_target *t;
} sprite_pass;

static int draw_sprites_protected(lua_State *L)
{
	sprite_pass *pass = lua_touserdata(L, 1);
	th_level *lv = pass->lv;
	push_sprites(L);
	int reg = lua_gettop(L);
	lua_getfield(L, reg, "list");
	int list = lua_gettop(L);
	lua_getfield(L, reg, "map");
	int map = lua_gettop(L);
	lua_Integer n = (lua_Integer)lua_rawlen(L, list), kept = 0;
	for (lua_Integer i = 1; i <= n; ++i) {
		lua_rawgeti(L, list, i);
		int entry = lua_gettop(L);
		lua_rawgeti(L, entry, 1);
		int body = lua_gettop(L);
		tb_world *w = NULL;
		tb_body_id id;
		if (!tumble_lua_to_body(L, body, &w, &id)) {
			/* the body is gone: so is its sprite */
			lua_pushvalue(L, body);
			lua_pushnil(L);
			lua_rawset(L, map);
			lua_settop(L, map);
			continue;
		}
		if (i != ++kept) {
			lua_pushvalue(L, entry);
			lua_rawseti(L, list, kept);
		}
		lua_rawgeti(L, entry, 2);
		int spec = lua_gettop(L);
		lua_pushliteral(L, "visible");
		lua_rawget(L, spec);
		bool hidden = lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1);
		lua_pushliteral(L, "image");
		lua_rawget(L, spec);
		th_image *img = luaL_testudata(L, -1, IMAGE_MT);
		if (!hidden && img != NULL && img->surface != NULL && w == lv->world) {
			draw_spec d;
			th_image_default_spec(&d);
			th_image_read_spec(L, spec, img, &d, false);
			double lx = raw_number(L, spec, "x", 0), ly = raw_number(L, spec, "y", 0);
			tb_transform xf = th_render_body_transform(lv->render, lv->world, lv->frame, id);
			tb_vec2 p = tb_transform_point(xf, tb_v2((float)lx, (float)ly));
			d.x = p.x;
			d.y = p.y;
			d.angle += atan2(xf.q.s, xf.q.c);
			th_image_draw(lv->render, pass->t, img, &d);
		}
		lua_settop(L, map);
	}
	for (lua_Integer i = kept + 1; i <= n; ++i) {
		lua_pushnil(L);
		lua_rawseti(L, list, i);
	}
	return 0;
}

void th_image_draw_sprites(th_level *lv, th_target *t)
{
	th_target_sweep_textures(t);
	lua_State *L = lv->L;
	if (L == NULL || lv->world == NULL) return;
	sprite_pass pass = {lv, t};
	lua_pushcfunction(L, draw_sprites_protected);
	lua_pushlightuserdata(L, &pass);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1); /* out of memory: no sprites this frame */
}

/* ---------------- hot reload ---------------- */

static int poll_protected(lua_State *L)
{
	th_level *lv = lua_touserdata(L, 1);
	int *reloaded = lua_touserdata(L, 2);
	push_live_images(L);
	int set = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, set) != 0) {
		lua_pop(L, 1);
		th_image *img = luaL_testudata(L, -1, IMAGE_MT);
		if (img == NULL || img->surface == NULL) continue;
		th_file_stamp now;
		/* a file that vanished is usually mid-save: keep the old picture */
		if (!th_file_stamp_read(img->path, &now) || th_file_stamp_equal(&now, &img->stamp)) continue;
		th_asset a;
		if (!th_asset_reread(img->path, MAX_FILE_BYTES, &a)) continue;
		const char *why = NULL;
		size_t others = lv->media->image_bytes - surface_bytes(img->surface);
		SDL_Surface *s = decode(&a, others < lv->media->image_budget ? lv->media->image_budget - others : 0, &why);
		if (s != NULL && others + surface_bytes(s) > lv->media->image_budget) {
			SDL_FreeSurface(s);
			s = NULL;
			why = limit_reached;
		}
		if (s == NULL) {
			/* half-written or broken: say so once per change, try again on the next */
			fprintf(stderr, "tumble: image %s not reloaded: %s\n", img->name, why);
			img->stamp = a.stamp;
			th_asset_free(&a);
			continue;
		}
		int fw = img->frame_w == img->surface->w ? 0 : img->frame_w;
		int fh = img->frame_h == img->surface->h ? 0 : img->frame_h;
		lv->media->image_bytes = others + surface_bytes(s);
		SDL_FreeSurface(img->surface);
		img->surface = s;
		img->stamp = a.stamp;
		img->key = ++lv->media->next_image_key;
		img->reloads += 1;
		set_frames(img, fw, fh);
		th_asset_free(&a);
		*reloaded += 1;
		fprintf(stderr, "tumble: reloaded image %s\n", img->name);
	}
	return 0;
}

int th_image_poll(th_level *lv)
{
	lua_State *L = lv->L;
	if (L == NULL) return 0;
	int reloaded = 0;
	lua_pushcfunction(L, poll_protected);
	lua_pushlightuserdata(L, lv);
	lua_pushlightuserdata(L, &reloaded);
	if (lua_pcall(L, 2, 0, 0) != LUA_OK) lua_pop(L, 1);
	return reloaded;
}

/* ---------------- screenshots ---------------- */

const char *th_picture_format(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (dot == NULL || strchr(dot, '/') != NULL) return NULL;
	if (SDL_strcasecmp(dot, ".png") == 0) return "PNG";
	if (SDL_strcasecmp(dot, ".bmp") == 0) return "BMP";
	return NULL;
}

bool th_picture_save(SDL_Surface *s, const char *path)
{
	const char *format = th_picture_format(path);
	if (format == NULL) {
		SDL_SetError("unknown picture format (.png or .bmp expected)");
		return false;
	}
	if (format[0] == 'B') return SDL_SaveBMP(s, path) == 0;
	return IMG_SavePNG(s, path) == 0;
}

/* ---------------- registration ---------------- */

void th_image_open_lua(th_level *lv, lua_State *L)
{
	static const luaL_Reg fns[] = {
		{"image", gfx_image},
		{"draw", gfx_draw},
		{"sprite", gfx_sprite},
		{NULL, NULL},
	};
	static const luaL_Reg meta[] = {
		{"__index", image_index},
		{"__newindex", image_newindex},
		{"__gc", image_gc},
		{"__tostring", image_tostring},
		{NULL, NULL},
	};
	/* gfx table on top */
	if (luaL_newmetatable(L, IMAGE_MT)) {
		luaL_setfuncs(L, meta, 0);
		/* getmetatable gives the type's name: a script cannot reach __gc or
		 * __index to call them by hand or replace them for every object */
		lua_pushliteral(L, "Image");
		lua_setfield(L, -2, "__metatable");
	}
	lua_pop(L, 1);
	if (lv->media != NULL && lv->opt != NULL) th_media_apply_limit(lv->media, lv->opt->mem_limit_mb);
	lua_pushlightuserdata(L, lv);
	luaL_setfuncs(L, fns, 1);
}

void th_image_describe(lua_State *L)
{
	lua_newtable(L);
	th_api_push_names(L, image_props);
	lua_setfield(L, -2, "properties");
	lua_newtable(L);
	for (int i = 0; image_methods[i].name != NULL; ++i) {
		lua_pushstring(L, image_methods[i].name);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "methods");
	lua_setfield(L, -2, "image");
	th_api_push_names(L, image_names);
	lua_setfield(L, -2, "image_options");
	th_api_push_names(L, th_image_draw_names);
	lua_setfield(L, -2, "draw_options");
	th_api_push_names(L, sprite_names);
	lua_setfield(L, -2, "sprite_options");
}
