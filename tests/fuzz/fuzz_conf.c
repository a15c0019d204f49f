/* libFuzzer target: level.conf (conf.c). A level's conf is a Lua value its
 * file builds; the input is decoded into one (tables nested at most eight
 * deep, keys mostly the ones conf.c knows, numbers of any bits: NaN,
 * infinities, huge, negative) and read as the host reads it at a start.
 * What must hold: it is accepted with every value in its documented range,
 * or refused with the level's error set; nothing else. */
#include <math.h>

#include "fuzz_host.h"

typedef struct input {
	const uint8_t *p;
	size_t n;
} input;

static unsigned byte(input *in)
{
	if (in->n == 0) return 0;
	in->n -= 1;
	return *in->p++;
}

static const char *const words[] = {"title",  "width",  "height", "fullscreen", "resizable", "camera",
                                    "layers", "x",      "y",      "scale",      "shapes",    "joints",
                                    "contacts", "aabbs", "mass",  "conf",       "claim_keys", "dev_keys",
                                    "host_keys", "pause", "quit", "escape", "f1", ""};

static void push_value(lua_State *L, input *in, int depth);

static void push_key(lua_State *L, input *in)
{
	unsigned k = byte(in);
	if (k < 200) lua_pushstring(L, words[k % (sizeof words / sizeof words[0])]);
	else push_value(L, in, 8);
}

static void push_value(lua_State *L, input *in, int depth)
{
	unsigned kind = byte(in) % 8;
	switch (kind) {
	case 0: lua_pushboolean(L, byte(in) & 1); break;
	case 1: lua_pushinteger(L, (lua_Integer)(int8_t)byte(in) * (lua_Integer)byte(in) * 64); break;
	case 2: {
		uint64_t bits = 0;
		for (int i = 0; i < 8; ++i) bits |= (uint64_t)byte(in) << (8 * i);
		double d;
		memcpy(&d, &bits, sizeof d);
		lua_pushnumber(L, d);
		break;
	}
	case 3: {
		size_t len = byte(in);
		if (len > in->n) len = in->n;
		lua_pushlstring(L, (const char *)in->p, len);
		in->p += len;
		in->n -= len;
		break;
	}
	case 4:
	case 5:
		if (depth < 8) {
			unsigned pairs = byte(in) % 12;
			lua_createtable(L, 0, (int)pairs);
			for (unsigned i = 0; i < pairs && in->n > 0; ++i) {
				push_key(L, in);
				push_value(L, in, depth + 1);
				if (lua_isnil(L, -2) || (lua_type(L, -2) == LUA_TNUMBER && isnan(lua_tonumber(L, -2)))) lua_pop(L, 2);
				else lua_rawset(L, -3);
			}
			break;
		}
		/* fall through */
	case 6: lua_pushnumber(L, (double)(int16_t)(byte(in) | byte(in) << 8) * 0.5); break;
	default: lua_pushnil(L); break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_level *f = fuzz_level_get();
	th_level *lv = &f->lv;
	lua_State *L = lv->L;
	int top = lua_gettop(L);
	input in = {data, size};
	lua_createtable(L, 0, 1); /* the level table */
	push_value(L, &in, 0);
	lua_setfield(L, -2, "conf");
	/* level.c reads the conf this way: protected, (level table, level) */
	lua_pushcfunction(L, th_conf_read_lua);
	lua_pushvalue(L, -2);
	lua_pushlightuserdata(L, lv);
	bool ok = lua_pcall(L, 2, 0, 0) == LUA_OK;
	const th_level_conf *c = &lv->conf;
	if (ok) {
		if (c->present) {
			if (c->width != 0 && (c->width < 64 || c->width > 16384)) abort();
			if (c->height != 0 && (c->height < 64 || c->height > 16384)) abort();
			if (strlen(c->title) >= sizeof c->title) abort();
			if (c->keys.claimed_count < 0 || c->keys.claimed_count > TH_CLAIM_MAX) abort();
			for (int i = 0; i < c->keys.claimed_count; ++i) {
				if (!th_key_name_known(c->keys.claimed[i])) abort();
			}
		}
	} else if (lua_type(L, -1) != LUA_TSTRING) {
		abort(); /* a refused conf is a message */
	}
	th_level_clear_error(lv);
	lua_settop(L, top);
	lua_gc(L, LUA_GCCOLLECT);
	return 0;
}
