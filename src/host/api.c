/* tumble host: the list of the level's callbacks, and the helper the host's
 * parts describe their own lists with for tumble._host_introspect
 * (introspect.c). */
#include "level.h"

#include <string.h>
#include <lauxlib.h>

const char *const th_level_callbacks[] = {
	"load",        "update",          "draw",           "keypressed",    "keyreleased",
	"textinput",   "mousepressed",    "mousereleased",  "mousemoved",    "wheelmoved",
	"gamepadpressed", "gamepadreleased", "gamepadaxis", "resize",        "reload",
	"frame",       "touchpressed",    "touchmoved",     "touchreleased",
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
