/* tumble host: tumble._host_introspect, which reports what the host really
 * has from the arrays it dispatches on (tests/lua/host_docs_spec.lua holds
 * lua/REFERENCE.md and lua/tumble.d.lua against it, so a host function added
 * without documentation fails there). Each part describes its own lists; this
 * file only gathers them. */
#include "level.h"
#include "canvas.h"
#include "text.h"

#include <lauxlib.h>

/* tumble._host_introspect() -> {callbacks, image = {properties, methods},
 * image_options, draw_options, sprite_options, sound = {...}, play_options,
 * beep_options, waves, conf, conf_camera, conf_layers, font, canvas, batch,
 * particles, canvas_options, particle_settings} */
static int host_introspect(lua_State *L)
{
	lua_newtable(L);
	th_api_push_names(L, th_level_callbacks);
	lua_setfield(L, -2, "callbacks");
	th_image_describe(L);
	th_sound_describe(L);
	th_conf_describe(L);
	th_text_describe(L);
	th_canvas_describe(L);
	return 1;
}

void th_introspect_open_lua(th_level *lv, lua_State *L)
{
	(void)lv;
	/* tumble table on top */
	lua_pushcfunction(L, host_introspect);
	lua_setfield(L, -2, "_host_introspect");
}
