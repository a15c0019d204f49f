/* tumble host: the list of the level's callbacks, and tumble._host_introspect,
 * which reports what the host really has from the arrays it dispatches on
 * (tests/lua/host_docs_spec.lua holds lua/REFERENCE.md and lua/tumble.d.lua
 * against it, so a host function added without documentation fails there). */
#include "level.h"

#include <string.h>
#include <lauxlib.h>

const char *const th_level_callbacks[] = {
	"load",        "update",          "draw",           "keypressed",    "keyreleased",
	"textinput",   "mousepressed",    "mousereleased",  "mousemoved",    "wheelmoved",
	"gamepadpressed", "gamepadreleased", "gamepadaxis", "resize",        "reload",
	NULL,
};

bool th_level_is_callback(const char *name)
{
	for (int i = 0; th_level_callbacks[i] != NULL; ++i) {
		if (strcmp(th_level_callbacks[i], name) == 0) return true;
	}
	return false;
}

void th_api_push_names(lua_State *L, const char *const names[])
{
	lua_newtable(L);
	for (int i = 0; names[i] != NULL; ++i) {
		lua_pushstring(L, names[i]);
		lua_rawseti(L, -2, i + 1);
	}
}

/* tumble._host_introspect() -> {callbacks, image = {properties, methods},
 * image_options, draw_options, sprite_options, sound = {...}, play_options,
 * beep_options, waves, conf, conf_camera, conf_layers} */
static int host_introspect(lua_State *L)
{
	lua_newtable(L);
	th_api_push_names(L, th_level_callbacks);
	lua_setfield(L, -2, "callbacks");
	th_image_describe(L);
	th_sound_describe(L);
	th_conf_describe(L);
	return 1;
}

void th_api_open_lua(th_level *lv, lua_State *L)
{
	(void)lv;
	/* tumble table on top */
	lua_pushcfunction(L, host_introspect);
	lua_setfield(L, -2, "_host_introspect");
}
