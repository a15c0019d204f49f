/* tumble host: the level's input state for polling (tumble.input) and its
 * edges (input.h). The app turns SDL's events (or a recording's) into
 * th_events; the level applies them here. */
#include "input.h"
#include "camera.h"
#include "level.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <SDL.h>
#include <lauxlib.h>

void th_key_name_normalize(char *dst, size_t size, const char *src)
{
	size_t i = 0;
	for (; src[i] != '\0' && i + 1 < size; ++i) dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

void th_scancode_name(char *out, size_t size, int scancode, const char *key)
{
	const char *name = scancode > 0 && scancode < SDL_NUM_SCANCODES ? SDL_GetScancodeName((SDL_Scancode)scancode) : "";
	th_key_name_normalize(out, size, name != NULL && name[0] != '\0' ? name : key);
}

bool th_key_name_known(const char *name)
{
	return SDL_GetKeyFromName(name) != SDLK_UNKNOWN;
}

const char *th_mouse_button_name(int button)
{
	static const char *names[] = {"?", "left", "middle", "right", "x1", "x2"};
	return button >= 1 && button < TH_MOUSE_BUTTONS ? names[button] : "?";
}

void th_input_reset(th_input *in, int mouse_x, int mouse_y, bool pad_connected)
{
	memset(in, 0, sizeof(*in));
	in->mouse_x = mouse_x;
	in->mouse_y = mouse_y;
	in->pad_connected = pad_connected;
}

static th_key_state *find_key(th_input *in, const char *name, bool create)
{
	for (int i = 0; i < in->key_count; ++i) {
		if (strcmp(in->keys[i].name, name) == 0) return &in->keys[i];
	}
	if (!create || in->key_count == TH_MAX_KEYS) return NULL;
	th_key_state *k = &in->keys[in->key_count++];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	return k;
}

void th_input_apply(th_input *in, const th_event *ev)
{
	switch (ev->type) {
	case TH_EV_KEY_DOWN: {
		if (ev->flags & TH_EVF_REPEAT) break; /* held already */
		th_key_state *k = find_key(in, ev->name, true);
		if (k != NULL && !k->down) {
			k->down = true;
			k->pressed = true;
		}
		break;
	}
	case TH_EV_KEY_UP: {
		th_key_state *k = find_key(in, ev->name, false);
		if (k != NULL && k->down) {
			k->down = false;
			k->released = true;
		}
		break;
	}
	case TH_EV_MOUSE_DOWN:
		in->mouse_x = ev->x;
		in->mouse_y = ev->y;
		if (ev->button >= 1 && ev->button < TH_MOUSE_BUTTONS && !in->mouse_down[ev->button]) {
			in->mouse_down[ev->button] = true;
			in->mouse_pressed[ev->button] = true;
		}
		break;
	case TH_EV_MOUSE_UP:
		in->mouse_x = ev->x;
		in->mouse_y = ev->y;
		if (ev->button >= 1 && ev->button < TH_MOUSE_BUTTONS && in->mouse_down[ev->button]) {
			in->mouse_down[ev->button] = false;
			in->mouse_released[ev->button] = true;
		}
		break;
	case TH_EV_MOUSE_MOVE:
		in->mouse_x = ev->x;
		in->mouse_y = ev->y;
		break;
	case TH_EV_WHEEL:
		in->wheel_x += ev->wheel_x;
		in->wheel_y += ev->wheel_y;
		break;
	case TH_EV_PAD_DOWN:
	case TH_EV_PAD_UP: {
		int b = SDL_GameControllerGetButtonFromString(ev->name);
		if (b < 0 || b >= TH_PAD_BUTTONS) break;
		bool down = ev->type == TH_EV_PAD_DOWN;
		if (in->pad_down[b] != down) {
			in->pad_down[b] = down;
			if (down) {
				in->pad_pressed[b] = true;
			} else {
				in->pad_released[b] = true;
			}
		}
		break;
	}
	case TH_EV_PAD_AXIS: {
		int a = SDL_GameControllerGetAxisFromString(ev->name);
		if (a >= 0 && a < TH_PAD_AXES) in->pad_axis[a] = ev->value;
		break;
	}
	case TH_EV_PAD_CONNECT:
		in->pad_connected = ev->button != 0;
		if (!in->pad_connected) {
			memset(in->pad_down, 0, sizeof(in->pad_down));
			memset(in->pad_axis, 0, sizeof(in->pad_axis));
		}
		break;
	default:
		break;
	}
}

void th_input_end_step(th_input *in)
{
	int kept = 0;
	for (int i = 0; i < in->key_count; ++i) {
		th_key_state k = in->keys[i];
		if (!k.down) continue;
		k.pressed = k.released = false;
		in->keys[kept++] = k;
	}
	in->key_count = kept;
	memset(in->mouse_pressed, 0, sizeof(in->mouse_pressed));
	memset(in->mouse_released, 0, sizeof(in->mouse_released));
	memset(in->pad_pressed, 0, sizeof(in->pad_pressed));
	memset(in->pad_released, 0, sizeof(in->pad_released));
	in->wheel_x = in->wheel_y = 0.0f;
}

/* ---------------- Lua: tumble.input ---------------- */

static th_level *host_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

static const char *check_key(lua_State *L, int arg, char *buf, size_t size)
{
	const char *name = luaL_checkstring(L, arg);
	th_key_name_normalize(buf, size, name);
	/* Catch typos: a name SDL does not know can never be down. */
	if (SDL_GetKeyFromName(buf) == SDLK_UNKNOWN) {
		luaL_argerror(L, arg, lua_pushfstring(L, "unknown key name '%s'", name));
	}
	return buf;
}

static int input_key_query(lua_State *L, int which)
{
	th_level *lv = host_up(L);
	char buf[32];
	const char *name = check_key(L, 1, buf, sizeof(buf));
	th_key_state *k = find_key(&lv->input, name, false);
	bool v = false;
	if (k != NULL) v = which == 0 ? k->down : which == 1 ? k->pressed : k->released;
	lua_pushboolean(L, v);
	return 1;
}

static int input_down(lua_State *L) { return input_key_query(L, 0); }
static int input_pressed(lua_State *L) { return input_key_query(L, 1); }
static int input_released(lua_State *L) { return input_key_query(L, 2); }

static int check_button(lua_State *L, int arg)
{
	if (lua_type(L, arg) == LUA_TSTRING) {
		const char *s = lua_tostring(L, arg);
		for (int b = 1; b < TH_MOUSE_BUTTONS; ++b) {
			if (strcmp(s, th_mouse_button_name(b)) == 0) return b;
		}
		return luaL_argerror(L, arg, "mouse button expected ('left', 'middle', 'right', 'x1', 'x2' or 1..5)");
	}
	lua_Integer b = luaL_optinteger(L, arg, 1);
	luaL_argcheck(L, b >= 1 && b < TH_MOUSE_BUTTONS, arg, "mouse button out of range 1..5");
	return (int)b;
}

static int input_mouse_down(lua_State *L)
{
	lua_pushboolean(L, host_up(L)->input.mouse_down[check_button(L, 1)]);
	return 1;
}

static int input_mouse_pressed(lua_State *L)
{
	lua_pushboolean(L, host_up(L)->input.mouse_pressed[check_button(L, 1)]);
	return 1;
}

static int input_mouse_released(lua_State *L)
{
	lua_pushboolean(L, host_up(L)->input.mouse_released[check_button(L, 1)]);
	return 1;
}

static int input_mouse(lua_State *L)
{
	th_level *lv = host_up(L);
	tb_vec2 p = th_camera_to_world(&lv->camera, lv->input.mouse_x, lv->input.mouse_y);
	lua_pushnumber(L, p.x);
	lua_pushnumber(L, p.y);
	return 2;
}

static int input_mouse_screen(lua_State *L)
{
	th_level *lv = host_up(L);
	lua_pushinteger(L, lv->input.mouse_x);
	lua_pushinteger(L, lv->input.mouse_y);
	return 2;
}

static int input_wheel(lua_State *L)
{
	th_level *lv = host_up(L);
	lua_pushnumber(L, lv->input.wheel_x);
	lua_pushnumber(L, lv->input.wheel_y);
	return 2;
}

static int input_gamepad(lua_State *L)
{
	lua_pushboolean(L, host_up(L)->input.pad_connected);
	return 1;
}

static int check_pad_button(lua_State *L, int arg)
{
	const char *name = luaL_checkstring(L, arg);
	int b = SDL_GameControllerGetButtonFromString(name);
	if (b < 0 || b >= TH_PAD_BUTTONS) {
		luaL_argerror(L, arg, lua_pushfstring(L, "unknown gamepad button '%s'", name));
	}
	return b;
}

static int input_gamepad_down(lua_State *L)
{
	lua_pushboolean(L, host_up(L)->input.pad_down[check_pad_button(L, 1)]);
	return 1;
}

static int input_gamepad_pressed(lua_State *L)
{
	lua_pushboolean(L, host_up(L)->input.pad_pressed[check_pad_button(L, 1)]);
	return 1;
}

static int input_gamepad_released(lua_State *L)
{
	lua_pushboolean(L, host_up(L)->input.pad_released[check_pad_button(L, 1)]);
	return 1;
}

static int input_axis(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	int a = SDL_GameControllerGetAxisFromString(name);
	if (a < 0 || a >= TH_PAD_AXES) return luaL_argerror(L, 1, lua_pushfstring(L, "unknown gamepad axis '%s'", name));
	lua_pushnumber(L, host_up(L)->input.pad_axis[a]);
	return 1;
}

static int input_set_key_repeat(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TBOOLEAN);
	host_up(L)->input.key_repeat = lua_toboolean(L, 1);
	return 0;
}

static int input_key_repeat(lua_State *L)
{
	lua_pushboolean(L, host_up(L)->input.key_repeat);
	return 1;
}

static int input_set_mouse_visible(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TBOOLEAN);
	host_up(L)->input.cursor_hidden = !lua_toboolean(L, 1);
	return 0;
}

static int input_mouse_visible(lua_State *L)
{
	lua_pushboolean(L, !host_up(L)->input.cursor_hidden);
	return 1;
}

static int input_set_mouse_grabbed(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TBOOLEAN);
	host_up(L)->input.cursor_grabbed = lua_toboolean(L, 1);
	return 0;
}

static int input_mouse_grabbed(lua_State *L)
{
	lua_pushboolean(L, host_up(L)->input.cursor_grabbed);
	return 1;
}

void th_input_open_lua(th_level *lv, lua_State *L)
{
	static const luaL_Reg fns[] = {
		{"down", input_down},
		{"pressed", input_pressed},
		{"released", input_released},
		{"mouse", input_mouse},
		{"mouse_screen", input_mouse_screen},
		{"mouse_down", input_mouse_down},
		{"mouse_pressed", input_mouse_pressed},
		{"mouse_released", input_mouse_released},
		{"wheel", input_wheel},
		{"gamepad", input_gamepad},
		{"gamepad_down", input_gamepad_down},
		{"gamepad_pressed", input_gamepad_pressed},
		{"gamepad_released", input_gamepad_released},
		{"axis", input_axis},
		{"set_key_repeat", input_set_key_repeat},
		{"key_repeat", input_key_repeat},
		{"set_mouse_visible", input_set_mouse_visible},
		{"mouse_visible", input_mouse_visible},
		{"set_mouse_grabbed", input_set_mouse_grabbed},
		{"mouse_grabbed", input_mouse_grabbed},
		{NULL, NULL},
	};
	/* tumble table on top */
	lua_newtable(L);
	lua_pushlightuserdata(L, lv);
	luaL_setfuncs(L, fns, 1);
	lua_setfield(L, -2, "input");
}
