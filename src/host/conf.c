/* tumble host: level.conf, the level's own configuration, read before load.
 *
 *   level.conf = { title = "my level", width = 960, height = 540,
 *                  fullscreen = false, resizable = true,
 *                  camera = { x = 0, y = 5, scale = 40 },
 *                  layers = { shapes = true, joints = true, contacts = false,
 *                             aabbs = false, mass = false },
 *                  claim_keys = { "escape", "f5" }, dev_keys = true,
 *                  host_keys = { pause = "p", restart = false } }
 *
 * Every key is optional and an unknown one is an error (a typo should not be
 * ignored in silence). Command-line options win over it: --size over width
 * and height, a replay's recorded view size over both. This file only reads
 * it into th_level.conf: the level applies the camera (level.c); the app the
 * layers, the title, the view's size and the window's mode, which it owns
 * (th_level.conf_changed tells it). Read on every start (F5 too), not on a
 * hot reload: a reload must not move the camera under the player. */
#include "level.h"

#include <math.h>
#include <string.h>
#include <lauxlib.h>

static const char *const conf_keys[] = {"title",  "width",      "height",   "fullscreen", "resizable", "camera",
                                        "layers", "claim_keys", "dev_keys", "host_keys",  NULL};
static const char *const camera_keys[] = {"x", "y", "scale", NULL};
/* in TH_LAYER_* order */
static const char *const layer_keys[] = {"shapes", "joints", "contacts", "aabbs", "mass", NULL};

static void check_keys(lua_State *L, int t, const char *where, const char *const names[])
{
	lua_pushnil(L);
	while (lua_next(L, t) != 0) {
		lua_pop(L, 1);
		bool known = false;
		if (lua_type(L, -1) == LUA_TSTRING) {
			for (int i = 0; names[i] != NULL && !known; ++i) known = strcmp(lua_tostring(L, -1), names[i]) == 0;
		}
		if (!known) {
			const char *key = luaL_tolstring(L, -1, NULL);
			luaL_Buffer b;
			luaL_buffinit(L, &b);
			for (int i = 0; names[i] != NULL; ++i) {
				if (i > 0) luaL_addstring(&b, ", ");
				luaL_addstring(&b, names[i]);
			}
			luaL_pushresult(&b);
			luaL_error(L, "%s: unknown key '%s' (valid keys: %s)", where, key, lua_tostring(L, -1));
		}
	}
}

/* t[key] raw; false when absent */
static bool field(lua_State *L, int t, const char *key)
{
	lua_pushstring(L, key);
	if (lua_rawget(L, t) != LUA_TNIL) return true;
	lua_pop(L, 1);
	return false;
}

static double number(lua_State *L, const char *where, const char *key, double lo, double hi)
{
	int ok = 0;
	double v = lua_tonumberx(L, -1, &ok);
	if (!ok || lua_type(L, -1) != LUA_TNUMBER || !isfinite(v) || v < lo || v > hi) {
		char range[64];
		snprintf(range, sizeof(range), "[%g, %g]", lo, hi);
		luaL_error(L, "%s.%s: number in %s expected, got %s", where, key, range, luaL_tolstring(L, -1, NULL));
	}
	lua_pop(L, 1);
	return v;
}

static bool boolean(lua_State *L, const char *where, const char *key)
{
	if (!lua_isboolean(L, -1)) luaL_error(L, "%s.%s: boolean expected, got %s", where, key, luaL_typename(L, -1));
	bool v = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return v;
}

/* A key name (string) on top, checked and normalized into out; popped. */
static void key_name(lua_State *L, const char *where, char out[TH_KEY_NAME])
{
	/* the type first: lua_tolstring would turn a number into a string */
	if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "%s: key name (string) expected, got %s", where, luaL_typename(L, -1));
	size_t len = 0;
	const char *s = lua_tolstring(L, -1, &len);
	if (len >= TH_KEY_NAME || strlen(s) != len) {
		luaL_error(L, "%s: key name of at most %d bytes expected", where, TH_KEY_NAME - 1);
	}
	th_key_name_normalize(out, TH_KEY_NAME, s);
	if (!th_key_name_known(out)) luaL_error(L, "%s: unknown key name '%s'", where, s);
	lua_pop(L, 1);
}

/* claim_keys: an array of at most TH_CLAIM_MAX key names; a longer one, or a
 * key that is not 1..n, is refused at the first entry past the limit. */
static void read_claims(lua_State *L, int t, th_keymap *m)
{
	if (!lua_istable(L, t)) luaL_error(L, "level.conf.claim_keys: array of key names expected, got %s", luaL_typename(L, t));
	lua_Unsigned n = lua_rawlen(L, t);
	if (n > TH_CLAIM_MAX) luaL_error(L, "level.conf.claim_keys: at most %d keys, got %d", TH_CLAIM_MAX, (int)(n > 1000000 ? 1000000 : n));
	int count = 0;
	lua_pushnil(L);
	while (lua_next(L, t) != 0) {
		if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 || (lua_Unsigned)lua_tointeger(L, -2) > n) {
			luaL_error(L, "level.conf.claim_keys: array of key names expected, got key %s", luaL_tolstring(L, -2, NULL));
		}
		if (++count > TH_CLAIM_MAX) luaL_error(L, "level.conf.claim_keys: at most %d keys", TH_CLAIM_MAX);
		char where[64];
		snprintf(where, sizeof(where), "level.conf.claim_keys[%d]", (int)lua_tointeger(L, -2));
		key_name(L, where, m->claimed[m->claimed_count++]);
	}
}

static bool is_claimed(const th_keymap *m, const char *key)
{
	for (int i = 0; i < m->claimed_count; ++i) {
		if (strcmp(m->claimed[i], key) == 0) return true;
	}
	return false;
}

/* host_keys: { action = "key" or false }; no two actions on one key, no key
 * both claimed and the host's. */
static void read_host_keys(lua_State *L, int t, th_keymap *m)
{
	if (!lua_istable(L, t)) luaL_error(L, "level.conf.host_keys: table expected, got %s", luaL_typename(L, t));
	const char *ids[TH_ACT_COUNT + 1];
	int n = 0;
	for (int a = TH_ACT_NONE + 1; a < TH_ACT_COUNT; ++a) {
		if (th_action_info_of((th_action)a)->id != NULL) ids[n++] = th_action_info_of((th_action)a)->id;
	}
	ids[n] = NULL;
	check_keys(L, t, "level.conf.host_keys", ids);
	for (int i = 0; ids[i] != NULL; ++i) {
		if (!field(L, t, ids[i])) continue;
		th_action a = th_action_by_id(ids[i]);
		char where[64];
		snprintf(where, sizeof(where), "level.conf.host_keys.%s", ids[i]);
		m->remapped[a] = true;
		if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
			m->key[a][0] = '\0';
			lua_pop(L, 1);
			continue;
		}
		if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "%s: key name or false expected, got %s", where, luaL_typename(L, -1));
		key_name(L, where, m->key[a]);
	}
	/* what each action's key is now, defaults included */
	for (int a = TH_ACT_NONE + 1; a < TH_ACT_COUNT; ++a) {
		const char *ka = m->remapped[a] ? m->key[a] : th_action_info_of((th_action)a)->key;
		if (ka == NULL || ka[0] == '\0') continue;
		if (m->remapped[a] && is_claimed(m, ka)) {
			luaL_error(L, "level.conf.host_keys.%s: '%s' is in claim_keys", th_action_info_of((th_action)a)->id, ka);
		}
		for (int b = a + 1; b < TH_ACT_COUNT; ++b) {
			const char *kb = m->remapped[b] ? m->key[b] : th_action_info_of((th_action)b)->key;
			if (kb == NULL || strcmp(ka, kb) != 0) continue;
			luaL_error(L, "level.conf.host_keys: '%s' is the key of both %s and %s (give the other one a key too)", ka,
			           th_action_info_of((th_action)a)->id, th_action_info_of((th_action)b)->id);
		}
	}
}

/* level table at 1, host at 2 */
int th_conf_read_lua(lua_State *L)
{
	th_level *lv = lua_touserdata(L, 2);
	th_level_conf *c = &lv->conf;
	memset(c, 0, sizeof(*c));
	c->resizable = true;
	lua_pushliteral(L, "conf");
	lua_rawget(L, 1);
	if (lua_isnil(L, -1)) return 0;
	if (!lua_istable(L, -1)) luaL_error(L, "level.conf: table expected, got %s", luaL_typename(L, -1));
	int t = lua_gettop(L);
	check_keys(L, t, "level.conf", conf_keys);
	if (field(L, t, "title")) {
		size_t len = 0;
		/* the type first: lua_tolstring would turn a number into a string */
		const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
		if (s == NULL || len >= sizeof(c->title) || strlen(s) != len) {
			luaL_error(L, "level.conf.title: string of at most %d bytes expected", (int)sizeof(c->title) - 1);
		}
		memcpy(c->title, s, len + 1);
		lua_pop(L, 1);
	}
	if (field(L, t, "width")) c->width = (int)number(L, "level.conf", "width", 64, TH_VIEW_MAX_SIDE);
	if (field(L, t, "height")) c->height = (int)number(L, "level.conf", "height", 64, TH_VIEW_MAX_SIDE);
	int view_w = c->width > 0 ? c->width : lv->camera.view_w, view_h = c->height > 0 ? c->height : lv->camera.view_h;
	if (!th_view_fits(view_w, view_h)) {
		luaL_error(L, "level.conf: a view of %dx%d is too large (at most %d pixels a side and %d in all, as 4096x4096)",
		           view_w, view_h, TH_VIEW_MAX_SIDE, TH_VIEW_MAX_PIXELS);
	}
	if (field(L, t, "fullscreen")) c->fullscreen = boolean(L, "level.conf", "fullscreen");
	if (field(L, t, "resizable")) c->resizable = boolean(L, "level.conf", "resizable");
	if (field(L, t, "camera")) {
		if (!lua_istable(L, -1)) luaL_error(L, "level.conf.camera: table expected, got %s", luaL_typename(L, -1));
		int cam = lua_gettop(L);
		check_keys(L, cam, "level.conf.camera", camera_keys);
		c->has_camera = true;
		c->camera_x = lv->camera.x;
		c->camera_y = lv->camera.y;
		c->camera_scale = lv->camera.scale;
		if (field(L, cam, "x")) c->camera_x = number(L, "level.conf.camera", "x", -1e6, 1e6);
		if (field(L, cam, "y")) c->camera_y = number(L, "level.conf.camera", "y", -1e6, 1e6);
		if (field(L, cam, "scale")) c->camera_scale = number(L, "level.conf.camera", "scale", 1e-3, 1e6);
		lua_pop(L, 1);
	}
	if (field(L, t, "layers")) {
		if (!lua_istable(L, -1)) luaL_error(L, "level.conf.layers: table expected, got %s", luaL_typename(L, -1));
		int layers = lua_gettop(L);
		check_keys(L, layers, "level.conf.layers", layer_keys);
		for (int i = 0; i < TH_LAYER_COUNT; ++i) {
			c->layer_set[i] = field(L, layers, layer_keys[i]);
			if (c->layer_set[i]) c->layers[i] = boolean(L, "level.conf.layers", layer_keys[i]);
		}
		lua_pop(L, 1);
	}
	if (field(L, t, "dev_keys")) c->keys.dev_off = !boolean(L, "level.conf", "dev_keys");
	if (field(L, t, "claim_keys")) {
		read_claims(L, lua_gettop(L), &c->keys);
		lua_pop(L, 1);
	}
	if (field(L, t, "host_keys")) {
		read_host_keys(L, lua_gettop(L), &c->keys);
		lua_pop(L, 1);
	}
	c->present = true;
	return 0;
}

void th_conf_describe(lua_State *L)
{
	th_api_push_names(L, conf_keys);
	lua_setfield(L, -2, "conf");
	th_api_push_names(L, camera_keys);
	lua_setfield(L, -2, "conf_camera");
	th_api_push_names(L, layer_keys);
	lua_setfield(L, -2, "conf_layers");
}
