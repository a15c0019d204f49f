/* tumble host: input state for polling (tumble.input), its edges, and the
 * record/replay file that makes a playtest deterministic.
 *
 * Edges ("pressed", "released") belong to fixed steps, not to rendered
 * frames: they stay set until the next step has run, so an update never misses
 * a press however the frames and steps interleave.
 *
 * The record file is text, one event per line, in the order the host handled
 * them, with an "F steps count" line closing each rendered frame (runs of
 * identical empty frames share one line). Replaying feeds the same events to
 * the same handler and runs the same number of steps per frame, so pausing,
 * single steps and slow motion replay exactly too. */
#include "host.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>

#define RECORD_MAGIC "tumble-input 1"

void th_key_name_normalize(char *dst, size_t size, const char *src)
{
	size_t i = 0;
	for (; src[i] != '\0' && i + 1 < size; ++i) dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

const char *th_mouse_button_name(int button)
{
	static const char *names[] = {"?", "left", "middle", "right", "x1", "x2"};
	return button >= 1 && button < TH_MOUSE_BUTTONS ? names[button] : "?";
}

void th_input_reset(th_input *in)
{
	in->key_count = 0;
	memset(in->mouse_down, 0, sizeof(in->mouse_down));
	memset(in->mouse_pressed, 0, sizeof(in->mouse_pressed));
	memset(in->mouse_released, 0, sizeof(in->mouse_released));
	memset(in->pad_down, 0, sizeof(in->pad_down));
	memset(in->pad_pressed, 0, sizeof(in->pad_pressed));
	memset(in->pad_released, 0, sizeof(in->pad_released));
	memset(in->pad_axis, 0, sizeof(in->pad_axis));
	in->wheel_x = in->wheel_y = 0.0f;
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

void th_input_apply(th_host *h, const th_event *ev)
{
	th_input *in = &h->input;
	switch (ev->type) {
	case TH_EV_KEY_DOWN: {
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

static th_host *host_up(lua_State *L)
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
	th_host *h = host_up(L);
	char buf[32];
	const char *name = check_key(L, 1, buf, sizeof(buf));
	th_key_state *k = find_key(&h->input, name, false);
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
	th_host *h = host_up(L);
	tb_vec2 p = th_camera_to_world(&h->camera, h->input.mouse_x, h->input.mouse_y);
	lua_pushnumber(L, p.x);
	lua_pushnumber(L, p.y);
	return 2;
}

static int input_mouse_screen(lua_State *L)
{
	th_host *h = host_up(L);
	lua_pushinteger(L, h->input.mouse_x);
	lua_pushinteger(L, h->input.mouse_y);
	return 2;
}

static int input_wheel(lua_State *L)
{
	th_host *h = host_up(L);
	lua_pushnumber(L, h->input.wheel_x);
	lua_pushnumber(L, h->input.wheel_y);
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

void th_input_open_lua(th_host *h, lua_State *L)
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
		{NULL, NULL},
	};
	/* tumble table on top */
	lua_newtable(L);
	lua_pushlightuserdata(L, h);
	luaL_setfuncs(L, fns, 1);
	lua_setfield(L, -2, "input");
}

/* ---------------- recording ---------------- */

bool th_input_record_open(th_host *h, const char *path)
{
	th_input *in = &h->input;
	in->record = fopen(path, "w");
	if (in->record == NULL) return false;
	fprintf(in->record, "%s\nview %d %d\n", RECORD_MAGIC, h->camera.view_w, h->camera.view_h);
	in->record_run = 0;
	in->record_run_steps = 0;
	return true;
}

static void record_flush_run(th_input *in)
{
	if (in->record_run > 0) {
		if (in->record_run == 1) {
			fprintf(in->record, "F %d\n", in->record_run_steps);
		} else {
			fprintf(in->record, "F %d %d\n", in->record_run_steps, in->record_run);
		}
	}
	in->record_run = 0;
}

void th_input_record_event(th_input *in, const th_event *ev)
{
	FILE *f = in->record;
	if (f == NULL) return;
	record_flush_run(in);
	switch (ev->type) {
	case TH_EV_KEY_DOWN: fprintf(f, "kd %s\n", ev->name); break;
	case TH_EV_KEY_UP: fprintf(f, "ku %s\n", ev->name); break;
	case TH_EV_MOUSE_DOWN: fprintf(f, "md %d %d %d\n", ev->button, ev->x, ev->y); break;
	case TH_EV_MOUSE_UP: fprintf(f, "mu %d %d %d\n", ev->button, ev->x, ev->y); break;
	case TH_EV_MOUSE_MOVE: fprintf(f, "mm %d %d %d %d\n", ev->x, ev->y, ev->dx, ev->dy); break;
	case TH_EV_WHEEL: fprintf(f, "mw %.9g %.9g\n", ev->wheel_x, ev->wheel_y); break;
	case TH_EV_PAD_DOWN: fprintf(f, "pd %s\n", ev->name); break;
	case TH_EV_PAD_UP: fprintf(f, "pu %s\n", ev->name); break;
	case TH_EV_PAD_AXIS: fprintf(f, "pa %s %.9g\n", ev->name, ev->value); break;
	case TH_EV_PAD_CONNECT: fprintf(f, "pc %d\n", ev->button); break;
	case TH_EV_RESIZE: fprintf(f, "vw %d %d\n", ev->x, ev->y); break;
	case TH_EV_QUIT: fprintf(f, "quit\n"); break;
	case TH_EV_TEXT:
		/* hex: typed text may hold spaces, '#' or anything else */
		fprintf(f, "tx ");
		for (const unsigned char *p = (const unsigned char *)ev->name; *p != '\0'; ++p) fprintf(f, "%02x", *p);
		fprintf(f, "\n");
		break;
	}
}

void th_input_record_frame(th_input *in, int steps)
{
	if (in->record == NULL) return;
	if (in->record_run > 0 && in->record_run_steps != steps) record_flush_run(in);
	in->record_run_steps = steps;
	in->record_run += 1;
}

void th_input_record_close(th_input *in)
{
	if (in->record == NULL) return;
	record_flush_run(in);
	fclose(in->record);
	in->record = NULL;
}

/* ---------------- replay ---------------- */

static bool read_line(th_input *in, char *buf, int size)
{
	while (fgets(buf, size, in->replay) != NULL) {
		in->replay_line += 1;
		size_t n = strlen(buf);
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) buf[--n] = '\0';
		if (n == 0 || buf[0] == '#') continue;
		return true;
	}
	return false;
}

bool th_input_replay_open(th_host *h, const char *path, int *view_w, int *view_h)
{
	th_input *in = &h->input;
	char line[256];
	in->replay = fopen(path, "r");
	if (in->replay == NULL) return false;
	in->replay_line = 0;
	in->replay_run = 0;
	in->replay_done = false;
	if (!read_line(in, line, sizeof(line)) || strcmp(line, RECORD_MAGIC) != 0) {
		fprintf(stderr, "tumble: %s is not a tumble input recording (first line must be '%s')\n", path, RECORD_MAGIC);
		fclose(in->replay);
		in->replay = NULL;
		return false;
	}
	long pos = ftell(in->replay);
	int line_no = in->replay_line;
	if (read_line(in, line, sizeof(line)) && sscanf(line, "view %d %d", view_w, view_h) == 2) return true;
	/* no view line: keep the default size */
	fseek(in->replay, pos, SEEK_SET);
	in->replay_line = line_no;
	return true;
}

static bool parse_event(const char *line, th_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	char tag[8] = {0};
	int used = 0;
	if (sscanf(line, "%7s %n", tag, &used) < 1) return false;
	const char *rest = line + used;
	if (strcmp(tag, "kd") == 0 || strcmp(tag, "ku") == 0 || strcmp(tag, "pd") == 0 || strcmp(tag, "pu") == 0) {
		if (*rest == '\0') return false;
		ev->type = tag[0] == 'k' ? (tag[1] == 'd' ? TH_EV_KEY_DOWN : TH_EV_KEY_UP)
		                         : (tag[1] == 'd' ? TH_EV_PAD_DOWN : TH_EV_PAD_UP);
		th_key_name_normalize(ev->name, sizeof(ev->name), rest);
		return true;
	}
	if (strcmp(tag, "md") == 0 || strcmp(tag, "mu") == 0) {
		ev->type = tag[1] == 'd' ? TH_EV_MOUSE_DOWN : TH_EV_MOUSE_UP;
		return sscanf(rest, "%d %d %d", &ev->button, &ev->x, &ev->y) == 3;
	}
	if (strcmp(tag, "mm") == 0) {
		ev->type = TH_EV_MOUSE_MOVE;
		return sscanf(rest, "%d %d %d %d", &ev->x, &ev->y, &ev->dx, &ev->dy) == 4;
	}
	if (strcmp(tag, "mw") == 0) {
		ev->type = TH_EV_WHEEL;
		return sscanf(rest, "%f %f", &ev->wheel_x, &ev->wheel_y) == 2;
	}
	if (strcmp(tag, "pa") == 0) {
		ev->type = TH_EV_PAD_AXIS;
		return sscanf(rest, "%31s %f", ev->name, &ev->value) == 2;
	}
	if (strcmp(tag, "pc") == 0) {
		ev->type = TH_EV_PAD_CONNECT;
		return sscanf(rest, "%d", &ev->button) == 1;
	}
	if (strcmp(tag, "vw") == 0) {
		ev->type = TH_EV_RESIZE;
		return sscanf(rest, "%d %d", &ev->x, &ev->y) == 2 && ev->x > 0 && ev->y > 0;
	}
	if (strcmp(tag, "tx") == 0) {
		ev->type = TH_EV_TEXT;
		size_t n = strlen(rest);
		if (n == 0 || n % 2 != 0 || n / 2 >= sizeof(ev->name)) return false;
		for (size_t i = 0; i < n / 2; ++i) {
			char hex[3] = {rest[2 * i], rest[2 * i + 1], '\0'};
			if (!isxdigit((unsigned char)hex[0]) || !isxdigit((unsigned char)hex[1])) return false;
			unsigned long v = strtoul(hex, NULL, 16);
			if (v == 0) return false;
			ev->name[i] = (char)v;
		}
		ev->name[n / 2] = '\0';
		return true;
	}
	if (strcmp(tag, "quit") == 0) {
		ev->type = TH_EV_QUIT;
		return true;
	}
	return false;
}

bool th_input_replay_frame(th_host *h, int *steps)
{
	th_input *in = &h->input;
	if (in->replay == NULL || in->replay_done) return false;
	if (in->replay_run > 0) {
		in->replay_run -= 1;
		*steps = in->replay_run_steps;
		return true;
	}
	char line[256];
	while (read_line(in, line, sizeof(line))) {
		if (line[0] == 'F' && (line[1] == ' ' || line[1] == '\0')) {
			int s = 1, count = 1;
			int n = sscanf(line + 1, "%d %d", &s, &count);
			if (n < 1 || s < 0 || count < 1) break;
			in->replay_run_steps = s;
			in->replay_run = count - 1;
			*steps = s;
			return true;
		}
		th_event ev;
		if (!parse_event(line, &ev)) {
			fprintf(stderr, "tumble: replay line %d not understood: %s\n", in->replay_line, line);
			in->replay_done = true;
			return false;
		}
		th_host_handle_event(h, &ev);
	}
	in->replay_done = true;
	return false;
}

void th_input_replay_close(th_input *in)
{
	if (in->replay != NULL) fclose(in->replay);
	in->replay = NULL;
}
