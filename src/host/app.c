/* tumble host: the application. Finds the level, sets up SDL (no video at all
 * when headless), runs the frame loop with a fixed 60 Hz step and an
 * accumulator, routes input events (live or replayed) to the host keys, the
 * overlay, the mouse drag and the level, and reports the run's outcome. */
#include "host.h"
#include "tumble/tumble_lua.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <lauxlib.h>

static const float time_scales[] = {1.0f, 0.5f, 0.25f, 0.1f};

void th_app_default_options(th_app_options *o)
{
	memset(o, 0, sizeof(*o));
	o->frames = 0;
	o->screenshot_frame = -1;
	o->watch = -1;
	o->watch_poll_ms = 250;
	o->width = 1280;
	o->height = 720;
}

double th_host_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

float th_host_time_scale(const th_host *h)
{
	return time_scales[h->slowmo % 4];
}

/* ---------------- errors ---------------- */

void th_host_set_error(th_host *h, const char *phase, const char *message, bool runtime)
{
	if (message == NULL) message = "(no message)";
	size_t size = strlen(phase) + strlen(message) + 64;
	char *text = malloc(size);
	if (text == NULL) return;
	if (runtime) {
		snprintf(text, size, "in %s: %s", phase, message);
	} else {
		snprintf(text, size, "reload failed, the last good code keeps running: %s", message);
	}
	/* Print each distinct error once: a broken update would repeat every frame. */
	if (h->error == NULL || strcmp(h->error, text) != 0) {
		fprintf(stderr, "tumble: %s%s\n", runtime ? "Lua error " : "", text);
		fflush(stderr);
	}
	free(h->error);
	h->error = text;
	if (!runtime) return;
	if (h->opt->headless) {
		if (!h->opt->keep_going) h->fatal = true;
	} else {
		h->faulted = true;
	}
}

void th_host_clear_error(th_host *h)
{
	free(h->error);
	h->error = NULL;
}

void th_host_toggle_pause(th_host *h)
{
	if (h->faulted) {
		/* resume after an error: the user chose to carry on */
		h->faulted = false;
		h->draw_faulted = false;
		th_host_clear_error(h);
		return;
	}
	h->paused = !h->paused;
}

/* ---------------- mouse drag ---------------- */

typedef struct pick {
	tb_world *world;
	tb_body_id body;
} pick;

static bool pick_fn(tb_shape_id shape, void *context)
{
	pick *p = context;
	if (tb_shape_is_sensor(p->world, shape)) return true;
	tb_body_id body = tb_shape_get_body(p->world, shape);
	if (tb_body_get_type(p->world, body) != TB_DYNAMIC_BODY) return true;
	p->body = body;
	return false;
}

static void drag_end(th_host *h)
{
	if (!h->drag.active) return;
	if (h->world != NULL) {
		tb_destroy_joint(h->world, h->drag.joint);
		tb_destroy_body(h->world, h->drag.ground);
	}
	memset(&h->drag, 0, sizeof(h->drag));
}

static bool drag_begin(th_host *h, int px, int py)
{
	if (h->world == NULL || h->drag.active) return false;
	tb_vec2 p = th_camera_to_world(&h->camera, px, py);
	pick pk = {h->world, tb_null_body_id};
	tb_world_query_point(h->world, p, tb_default_query_filter(), pick_fn, &pk);
	if (TB_IS_NULL(pk.body)) return false;
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_STATIC_BODY;
	bd.position = p;
	tb_body_id ground = tb_create_body(h->world, &bd, NULL);
	if (TB_IS_NULL(ground)) return false;
	tb_joint_def jd = tb_default_joint_def(TB_JOINT_MOUSE);
	jd.body_a = ground;
	jd.body_b = pk.body;
	jd.local_anchor_a = tb_v2(0.0f, 0.0f);
	jd.local_anchor_b = tb_body_get_local_point(h->world, pk.body, p);
	jd.target = p;
	jd.max_force = 1000.0f * tb_body_get_mass(h->world, pk.body);
	jd.hertz = 5.0f;
	jd.damping_ratio = 0.7f;
	tb_joint_id joint = tb_create_joint(h->world, &jd, NULL);
	if (TB_IS_NULL(joint)) {
		tb_destroy_body(h->world, ground);
		return false;
	}
	tb_body_set_awake(h->world, pk.body, true);
	h->drag.active = true;
	h->drag.body = pk.body;
	h->drag.ground = ground;
	h->drag.joint = joint;
	return true;
}

static void drag_update(th_host *h)
{
	if (!h->drag.active) return;
	if (h->world == NULL || !tb_joint_is_valid(h->world, h->drag.joint) || !tb_body_is_valid(h->world, h->drag.body)) {
		/* the level destroyed the body (and with it the joint) */
		if (h->world != NULL && tb_body_is_valid(h->world, h->drag.ground)) tb_destroy_body(h->world, h->drag.ground);
		memset(&h->drag, 0, sizeof(h->drag));
		return;
	}
	tb_joint_def jd = tb_joint_get_def(h->world, h->drag.joint);
	jd.target = th_camera_to_world(&h->camera, h->input.mouse_x, h->input.mouse_y);
	tb_joint_set_def(h->world, h->drag.joint, &jd);
}

/* ---------------- events ---------------- */

static void restart(th_host *h)
{
	drag_end(h);
	th_level_stop(h);
	th_host_clear_error(h);
	h->paused = false;
	h->single_steps = 0;
	if (th_level_start(h)) fprintf(stderr, "tumble: restarted the level\n");
}

/* Keys the host keeps for itself; true if it took the key. */
static bool host_key(th_host *h, const char *key)
{
	if (strcmp(key, "escape") == 0) {
		h->quit = true;
	} else if (strcmp(key, "f1") == 0) {
		h->overlay.visible = !h->overlay.visible;
	} else if (strcmp(key, "f2") == 0) {
		th_host_toggle_pause(h);
	} else if (strcmp(key, "f3") == 0) {
		h->paused = true;
		h->single_steps += 1;
	} else if (strcmp(key, "f4") == 0) {
		h->slowmo = (h->slowmo + 1) % 4;
	} else if (strcmp(key, "f5") == 0) {
		restart(h);
	} else if (key[0] == 'f' && key[1] >= '6' && key[1] <= '9' && key[2] == '\0') {
		th_overlay_toggle_layer(h, key[1] - '6');
	} else if (strcmp(key, "f10") == 0) {
		th_overlay_toggle_layer(h, TH_LAYER_MASS);
	} else if (strcmp(key, "f11") == 0) {
		/* a replay's view size is fixed: it does not go fullscreen */
		if (h->input.replay == NULL) h->toggle_fullscreen = !h->toggle_fullscreen;
	} else {
		return false;
	}
	return true;
}

static bool level_listens(th_host *h)
{
	return h->level_ok && !h->faulted && h->L != NULL;
}

static void call_mouse(th_host *h, const char *name, const th_event *ev)
{
	if (!level_listens(h) || !th_level_push_callback(h, name)) return;
	tb_vec2 p = th_camera_to_world(&h->camera, ev->x, ev->y);
	lua_pushnumber(h->L, p.x);
	lua_pushnumber(h->L, p.y);
	lua_pushstring(h->L, th_mouse_button_name(ev->button));
	th_level_pcall(h, name, 3);
}

void th_host_handle_event(th_host *h, const th_event *ev)
{
	th_input_record_event(&h->input, ev);
	lua_State *L = h->L;
	switch (ev->type) {
	case TH_EV_KEY_DOWN:
	case TH_EV_KEY_UP: {
		bool down = ev->type == TH_EV_KEY_DOWN;
		bool reserved = (ev->name[0] == 'f' && ev->name[1] >= '1' && ev->name[1] <= '9' &&
		                 (ev->name[2] == '\0' ||
		                  (ev->name[1] == '1' && (ev->name[2] == '0' || ev->name[2] == '1') && ev->name[3] == '\0'))) ||
		                strcmp(ev->name, "escape") == 0;
		if (reserved) {
			if (down) host_key(h, ev->name);
			return;
		}
		th_input_apply(h, ev);
		const char *cb = down ? "keypressed" : "keyreleased";
		if (level_listens(h) && th_level_push_callback(h, cb)) {
			lua_pushstring(L, ev->name);
			th_level_pcall(h, cb, 1);
		}
		break;
	}
	case TH_EV_MOUSE_DOWN:
		h->input.mouse_x = ev->x;
		h->input.mouse_y = ev->y;
		if (h->overlay.visible && ev->button == 1) {
			if (th_overlay_click(h, ev->x, ev->y)) return;
			if (drag_begin(h, ev->x, ev->y)) return;
		}
		th_input_apply(h, ev);
		call_mouse(h, "mousepressed", ev);
		break;
	case TH_EV_MOUSE_UP:
		if (h->drag.active && ev->button == 1) {
			h->input.mouse_x = ev->x;
			h->input.mouse_y = ev->y;
			drag_end(h);
			return;
		}
		if (ev->button >= 1 && ev->button < TH_MOUSE_BUTTONS && !h->input.mouse_down[ev->button]) {
			/* the press went to the overlay: so does the release */
			h->input.mouse_x = ev->x;
			h->input.mouse_y = ev->y;
			return;
		}
		th_input_apply(h, ev);
		call_mouse(h, "mousereleased", ev);
		break;
	case TH_EV_MOUSE_MOVE:
		th_input_apply(h, ev);
		if (level_listens(h) && th_level_push_callback(h, "mousemoved")) {
			tb_vec2 p = th_camera_to_world(&h->camera, ev->x, ev->y);
			lua_pushnumber(L, p.x);
			lua_pushnumber(L, p.y);
			lua_pushnumber(L, ev->dx / h->camera.scale);
			lua_pushnumber(L, -ev->dy / h->camera.scale);
			th_level_pcall(h, "mousemoved", 4);
		}
		break;
	case TH_EV_WHEEL:
		th_input_apply(h, ev);
		if (level_listens(h) && th_level_push_callback(h, "wheelmoved")) {
			lua_pushnumber(L, ev->wheel_x);
			lua_pushnumber(L, ev->wheel_y);
			th_level_pcall(h, "wheelmoved", 2);
		}
		break;
	case TH_EV_PAD_DOWN:
	case TH_EV_PAD_UP: {
		th_input_apply(h, ev);
		const char *cb = ev->type == TH_EV_PAD_DOWN ? "gamepadpressed" : "gamepadreleased";
		if (level_listens(h) && th_level_push_callback(h, cb)) {
			lua_pushstring(L, ev->name);
			th_level_pcall(h, cb, 1);
		}
		break;
	}
	case TH_EV_PAD_AXIS:
		th_input_apply(h, ev);
		if (level_listens(h) && th_level_push_callback(h, "gamepadaxis")) {
			lua_pushstring(L, ev->name);
			lua_pushnumber(L, ev->value);
			th_level_pcall(h, "gamepadaxis", 2);
		}
		break;
	case TH_EV_PAD_CONNECT: th_input_apply(h, ev); break;
	case TH_EV_RESIZE:
		if (h->camera.view_w == ev->x && h->camera.view_h == ev->y) break;
		h->camera.view_w = ev->x;
		h->camera.view_h = ev->y;
		if (level_listens(h) && th_level_push_callback(h, "resize")) {
			lua_pushinteger(L, ev->x);
			lua_pushinteger(L, ev->y);
			th_level_pcall(h, "resize", 2);
		}
		break;
	case TH_EV_TEXT:
		if (level_listens(h) && th_level_push_callback(h, "textinput")) {
			lua_pushstring(L, ev->name);
			th_level_pcall(h, "textinput", 1);
		}
		break;
	case TH_EV_QUIT: h->quit = true; break;
	}
}

/* SDL event to host event; false for events the host does not record. */
static bool translate(const SDL_Event *e, th_event *ev, SDL_GameController **pad, SDL_Renderer *renderer)
{
	memset(ev, 0, sizeof(*ev));
	switch (e->type) {
	case SDL_QUIT: ev->type = TH_EV_QUIT; return true;
	case SDL_KEYDOWN:
	case SDL_KEYUP:
		if (e->key.repeat) return false;
		th_key_name_normalize(ev->name, sizeof(ev->name), SDL_GetKeyName(e->key.keysym.sym));
		if (ev->name[0] == '\0') return false;
		ev->type = e->type == SDL_KEYDOWN ? TH_EV_KEY_DOWN : TH_EV_KEY_UP;
		return true;
	case SDL_MOUSEBUTTONDOWN:
	case SDL_MOUSEBUTTONUP:
		if (e->button.button < 1 || e->button.button >= TH_MOUSE_BUTTONS) return false;
		ev->type = e->type == SDL_MOUSEBUTTONDOWN ? TH_EV_MOUSE_DOWN : TH_EV_MOUSE_UP;
		ev->button = e->button.button;
		ev->x = e->button.x;
		ev->y = e->button.y;
		return true;
	case SDL_MOUSEMOTION:
		ev->type = TH_EV_MOUSE_MOVE;
		ev->x = e->motion.x;
		ev->y = e->motion.y;
		ev->dx = e->motion.xrel;
		ev->dy = e->motion.yrel;
		return true;
	case SDL_MOUSEWHEEL: {
		float flip = e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -1.0f : 1.0f;
		ev->type = TH_EV_WHEEL;
		ev->wheel_x = flip * e->wheel.preciseX;
		ev->wheel_y = flip * e->wheel.preciseY;
		return true;
	}
	case SDL_CONTROLLERDEVICEADDED:
		if (*pad != NULL) return false;
		*pad = SDL_GameControllerOpen(e->cdevice.which);
		if (*pad == NULL) return false;
		ev->type = TH_EV_PAD_CONNECT;
		ev->button = 1;
		return true;
	case SDL_CONTROLLERDEVICEREMOVED:
		if (*pad == NULL || SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(*pad)) != e->cdevice.which) return false;
		SDL_GameControllerClose(*pad);
		*pad = NULL;
		ev->type = TH_EV_PAD_CONNECT;
		ev->button = 0;
		return true;
	case SDL_CONTROLLERBUTTONDOWN:
	case SDL_CONTROLLERBUTTONUP: {
		const char *name = SDL_GameControllerGetStringForButton((SDL_GameControllerButton)e->cbutton.button);
		if (name == NULL) return false;
		ev->type = e->type == SDL_CONTROLLERBUTTONDOWN ? TH_EV_PAD_DOWN : TH_EV_PAD_UP;
		snprintf(ev->name, sizeof(ev->name), "%s", name);
		return true;
	}
	case SDL_CONTROLLERAXISMOTION: {
		const char *name = SDL_GameControllerGetStringForAxis((SDL_GameControllerAxis)e->caxis.axis);
		if (name == NULL) return false;
		ev->type = TH_EV_PAD_AXIS;
		snprintf(ev->name, sizeof(ev->name), "%s", name);
		float v = (float)e->caxis.value / 32767.0f;
		ev->value = v < -1.0f ? -1.0f : v;
		return true;
	}
	case SDL_TEXTINPUT:
		ev->type = TH_EV_TEXT;
		snprintf(ev->name, sizeof(ev->name), "%s", e->text.text);
		return ev->name[0] != '\0';
	case SDL_WINDOWEVENT:
		if (e->window.event != SDL_WINDOWEVENT_SIZE_CHANGED) return false;
		ev->type = TH_EV_RESIZE;
		SDL_GetRendererOutputSize(renderer, &ev->x, &ev->y);
		return ev->x > 0 && ev->y > 0;
	default: return false;
	}
}

/* ---------------- the level's conf and the window ---------------- */

/* What level.conf asks of the view: title, size, fullscreen, resizable. The
 * command line wins (--size), and a replay keeps its recorded view. Headless,
 * the size change goes through the event path, so a recording holds it. */
static void apply_conf(th_host *h, SDL_Window *window)
{
	const th_level_conf *c = &h->conf;
	const th_app_options *o = h->opt;
	h->conf_changed = false;
	if (!c->present) return;
	bool replaying = o->replay_path != NULL;
	int w = c->width > 0 ? c->width : h->camera.view_w;
	int hh = c->height > 0 ? c->height : h->camera.view_h;
	bool resize = !o->size_set && (c->width > 0 || c->height > 0);
	if (window == NULL) {
		if (resize) {
			th_event ev;
			memset(&ev, 0, sizeof(ev));
			ev.type = TH_EV_RESIZE;
			ev.x = w;
			ev.y = hh;
			th_host_handle_event(h, &ev);
		}
		return;
	}
	if (c->title[0] != '\0') SDL_SetWindowTitle(window, c->title);
	if (replaying) return;
	SDL_SetWindowResizable(window, c->resizable ? SDL_TRUE : SDL_FALSE);
	if (resize && (SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN) == 0) SDL_SetWindowSize(window, w, hh);
	if (c->fullscreen) {
		SDL_SetWindowFullscreen(window, SDL_WINDOW_FULLSCREEN_DESKTOP);
		h->toggle_fullscreen = false;
	}
}

static void toggle_fullscreen(th_host *h, SDL_Window *window)
{
	h->toggle_fullscreen = false;
	if (window == NULL) return;
	bool full = (SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN) != 0;
	if (SDL_SetWindowFullscreen(window, full ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP) != 0) {
		fprintf(stderr, "tumble: cannot switch fullscreen: %s\n", SDL_GetError());
	}
}

/* ---------------- stepping ---------------- */

static void run_step(th_host *h)
{
	double t0 = th_host_now_ms();
	bool ok = th_level_update(h);
	if ((!ok && h->faulted) || h->fatal) return;
	double t1 = th_host_now_ms();
	drag_update(h);
	/* after update, so a teleport made there is not smeared over a frame */
	th_render_snapshot(h);
	th_level_step_world(h);
	h->frame += 1;
	th_level_set_frame(h);
	th_input_end_step(&h->input);
	th_camera_sync(h);
	th_overlay_after_step(h, t1 - t0, th_host_now_ms() - t1);
}

/* ---------------- files and paths ---------------- */

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directory with lua/ and examples/: next to the binary, one or two levels
 * up (build/asan/tumble), or ../share/tumble when installed. */
static char *find_root(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) return NULL;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash == NULL) return NULL;
	*slash = '\0';
	const char *suffixes[] = {"", "/..", "/../..", "/../share/tumble"};
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); ++i) {
		char candidate[PATH_MAX + 32], lua_dir[PATH_MAX + 64], resolved[PATH_MAX];
		snprintf(candidate, sizeof(candidate), "%s%s", exe, suffixes[i]);
		snprintf(lua_dir, sizeof(lua_dir), "%s/lua", candidate);
		if (is_dir(lua_dir) && realpath(candidate, resolved) != NULL) return strdup(resolved);
	}
	return NULL;
}

static bool resolve_level(th_host *h)
{
	const th_app_options *o = h->opt;
	const char *path = o->level_path;
	char fallback[PATH_MAX + 64];
	if (path == NULL && !o->builtin_demo && h->root != NULL) {
		snprintf(fallback, sizeof(fallback), "%s/examples/forcefield.lua", h->root);
		if (is_file(fallback)) path = fallback;
	}
	if (path == NULL || o->builtin_demo) return true; /* the built-in demo */
	char resolved[PATH_MAX];
	if (!is_file(path) || realpath(path, resolved) == NULL) {
		const char *why = is_dir(path) ? "is a directory" : access(path, R_OK) != 0 ? strerror(errno) : "not a file";
		fprintf(stderr, "tumble: cannot open level '%s': %s\n", path, why);
		return false;
	}
	h->level_path = strdup(resolved);
	h->level_dir = strdup(resolved);
	if (h->level_path == NULL || h->level_dir == NULL) return false;
	char *slash = strrchr(h->level_dir, '/');
	if (slash != NULL) *slash = '\0';
	return true;
}

/* ---------------- screenshots ---------------- */

static bool screenshot(th_host *h, const char *path, float alpha)
{
	SDL_Surface *surface =
		SDL_CreateRGBSurfaceWithFormat(0, h->camera.view_w, h->camera.view_h, 32, SDL_PIXELFORMAT_ARGB8888);
	if (surface == NULL) return false;
	th_target t;
	bool ok = false;
	if (th_target_init_surface(&t, surface)) {
		th_render_frame(h, &t, alpha);
		SDL_RenderPresent(t.renderer);
		ok = th_picture_save(surface, path);
		th_target_free(&t);
	}
	SDL_FreeSurface(surface);
	if (!ok) fprintf(stderr, "tumble: cannot write screenshot %s: %s\n", path, SDL_GetError());
	return ok;
}

/* ---------------- the run ---------------- */

static void print_summary(th_host *h, double seconds)
{
	tb_counters c = {0};
	uint64_t hash = 0;
	if (h->world != NULL) {
		c = tb_world_get_counters(h->world);
		hash = tb_world_hash(h->world);
	}
	printf("frames=%lld steps=%lld bodies=%d time=%.3fs hash=%016llx\n", h->render_frame, h->frame, c.body_count,
	       seconds, (unsigned long long)hash);
	fflush(stdout);
}

int th_app_run(const th_app_options *options)
{
	/* a copy: without a display, a screenshot run turns headless */
	th_app_options run_options = *options;
	th_app_options *opt = &run_options;
	th_host host;
	th_host *h = &host;
	memset(h, 0, sizeof(*h));
	h->opt = opt;
	h->tumble_ref = h->world_ref = h->level_ref = h->camera_ref = h->modules_ref = LUA_NOREF;
	h->camera.x = 0.0;
	h->camera.y = 10.0;
	h->camera.scale = 30.0;
	h->camera.view_w = opt->width;
	h->camera.view_h = opt->height;
	h->overlay.visible = opt->overlay;
	th_render_init(&h->render);
	th_watch_init(&h->watch);
	th_media_init(&h->media, opt->sandbox);
	h->root = find_root();
	h->watch_enabled = opt->watch < 0 ? !opt->headless : opt->watch > 0;
	if (opt->screenshot != NULL && th_picture_format(opt->screenshot) == NULL) {
		fprintf(stderr, "tumble: --screenshot writes PNG (FILE.png) or BMP (FILE.bmp), not '%s'\n", opt->screenshot);
		free(h->root);
		return 2;
	}
	if (!resolve_level(h)) {
		free(h->root);
		return 2;
	}

	bool headless = opt->headless;
	long frames = opt->frames > 0 ? opt->frames : (headless ? 600 : 0);
	SDL_Window *window = NULL;
	SDL_GameController *pad = NULL;
	th_target target;
	memset(&target, 0, sizeof(target));
	bool vsync = false;

	if (opt->replay_path != NULL) {
		int w = h->camera.view_w, hh = h->camera.view_h;
		errno = 0;
		if (!th_input_replay_open(h, opt->replay_path, &w, &hh)) {
			if (errno != 0) fprintf(stderr, "tumble: cannot open replay %s: %s\n", opt->replay_path, strerror(errno));
			free(h->root);
			return 2;
		}
		h->camera.view_w = w;
		h->camera.view_h = hh;
	}

	/* Headless needs no SDL subsystem at all: the software renderer draws into
	 * a plain surface. Without a display, a run that asked for a screenshot
	 * gets it that way instead of failing. */
	if (!headless && opt->screenshot != NULL && SDL_getenv("SDL_VIDEODRIVER") == NULL) {
		bool display = false;
		if (SDL_Init(SDL_INIT_VIDEO) == 0) {
			const char *driver = SDL_GetCurrentVideoDriver();
			display = driver != NULL && strcmp(driver, "offscreen") != 0 && strcmp(driver, "dummy") != 0;
			SDL_Quit();
		}
		if (!display) {
			fprintf(stderr, "tumble: no display: rendering offscreen, as with --headless\n");
			headless = opt->headless = true;
			if (opt->frames <= 0) frames = 600;
			if (opt->watch < 0) h->watch_enabled = false;
		}
	}
	if (SDL_Init(headless ? 0 : SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "tumble: SDL_Init failed: %s%s\n", SDL_GetError(),
		        headless ? "" : " (no display? --headless runs without one)");
		free(h->root);
		free(h->level_path);
		free(h->level_dir);
		return 2;
	}
	if (!headless) {
		/* With no display SDL falls back to its offscreen driver: a window nobody
		 * can see, running flat out. Say so instead, unless asked for explicitly. */
		const char *driver = SDL_GetCurrentVideoDriver();
		if (driver != NULL && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0) &&
		    SDL_getenv("SDL_VIDEODRIVER") == NULL) {
			fprintf(stderr, "tumble: no display to open a window on (use --headless, or xvfb-run)\n");
			SDL_Quit();
			free(h->root);
			free(h->level_path);
			free(h->level_dir);
			return 2;
		}
		if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) {
			fprintf(stderr, "tumble: no gamepad support: %s\n", SDL_GetError());
		}
		char title[PATH_MAX + 32];
		const char *base = h->level_path != NULL ? strrchr(h->level_path, '/') + 1 : "built-in demo";
		snprintf(title, sizeof(title), "tumble - %s", base);
		/* no ALLOW_HIGHDPI: mouse coordinates and render pixels must agree */
		Uint32 flags = SDL_WINDOW_SHOWN;
		if (opt->replay_path == NULL) flags |= SDL_WINDOW_RESIZABLE;
		window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, h->camera.view_w,
		                          h->camera.view_h, flags);
		if (window == NULL || !th_target_init_window(&target, window)) {
			fprintf(stderr, "tumble: cannot open a window: %s (use --headless without a display)\n", SDL_GetError());
			if (window != NULL) SDL_DestroyWindow(window);
			SDL_Quit();
			return 2;
		}
		SDL_RendererInfo info;
		if (SDL_GetRendererInfo(target.renderer, &info) == 0) vsync = (info.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
		if (opt->replay_path == NULL) {
			h->camera.view_w = target.width;
			h->camera.view_h = target.height;
		}
	}
	if (opt->record_path != NULL && !th_input_record_open(h, opt->record_path)) {
		fprintf(stderr, "tumble: cannot write %s: %s\n", opt->record_path, strerror(errno));
		h->fatal = true;
	}

	h->input.mouse_x = h->camera.view_w / 2;
	h->input.mouse_y = h->camera.view_h / 2;
	double started = th_host_now_ms();
	if (!h->fatal && !th_level_start(h) && headless) h->fatal = true;

	double last = th_host_now_ms(), acc = 0.0, next_poll = last;
	bool shot_taken = false;
	while (!h->quit && !h->fatal && !h->exit_requested && (frames == 0 || h->render_frame < frames)) {
		double now = th_host_now_ms();
		double frame_ms = now - last;
		last = now;
		th_overlay_frame_time(h, frame_ms);
		th_camera_sync(h);
		if (h->conf_changed) apply_conf(h, window);
		if (h->toggle_fullscreen) toggle_fullscreen(h, window);

		if (window != NULL) {
			SDL_Event e;
			while (SDL_PollEvent(&e)) {
				th_event ev;
				if (!translate(&e, &ev, &pad, target.renderer)) continue;
				if (ev.type == TH_EV_RESIZE) {
					target.width = ev.x;
					target.height = ev.y;
				}
				if (h->input.replay != NULL && !h->input.replay_done) {
					/* while replaying, live input only closes the window */
					if (ev.type == TH_EV_QUIT) h->quit = true;
					continue;
				}
				th_host_handle_event(h, &ev);
			}
		}

		int steps = -1;
		if (h->input.replay != NULL && !th_input_replay_frame(h, &steps)) steps = -1;
		float alpha = 1.0f;
		if (steps < 0) {
			if (headless && !opt->realtime) {
				steps = 1;
			} else {
				/* Real time drives the accumulator; a frame longer than 1/4 s is
				 * treated as a hitch, not as time to catch up on. */
				double dt = fmin(frame_ms / 1000.0, 0.25);
				acc += dt * th_host_time_scale(h);
				steps = 0;
				while (acc >= TH_HOST_DT && steps < TH_HOST_MAX_CATCH_UP) {
					acc -= TH_HOST_DT;
					steps += 1;
				}
				if (acc >= TH_HOST_DT) acc = fmod(acc, TH_HOST_DT);
				alpha = (float)(acc / TH_HOST_DT);
			}
			if (h->paused || h->faulted) {
				steps = 0;
				acc = 0.0;
				alpha = 1.0f;
				if (h->single_steps > 0 && !h->faulted) {
					h->single_steps -= 1;
					steps = 1;
				}
			}
		}
		int ran = 0;
		for (; ran < steps && !h->quit && !h->fatal && !h->exit_requested && h->L != NULL; ++ran) {
			if (h->faulted) break;
			run_step(h);
		}
		th_input_record_frame(&h->input, ran);

		if (h->watch_enabled && h->L != NULL && !h->fatal) {
			double t = th_host_now_ms();
			if (opt->watch_poll_ms <= 0 || t >= next_poll) {
				next_poll = t + opt->watch_poll_ms;
				th_image_poll(h);
				if (th_watch_poll(&h->watch)) {
					drag_end(h);
					if (th_level_reload(h)) fprintf(stderr, "tumble: reloaded at frame %lld\n", h->frame);
					fflush(stderr);
				}
			}
		}

		h->render_frame += 1;
		bool last_frame = frames > 0 && h->render_frame == frames;
		bool shoot = opt->screenshot != NULL && !shot_taken &&
		             (h->render_frame == opt->screenshot_frame || (opt->screenshot_frame < 0 && last_frame));
		if (window != NULL) {
			th_render_frame(h, &target, alpha);
			SDL_RenderPresent(target.renderer);
		} else if (!shoot && !h->fatal) {
			/* no picture, but draw still runs so its errors surface headless too */
			th_level_draw(h);
		}
		if (shoot) {
			screenshot(h, opt->screenshot, alpha);
			shot_taken = true;
		}

		/* Without vsync, pace at 60 Hz; with it, still never spin faster than
		 * 300 Hz (some drivers claim vsync and do not wait). */
		if (window != NULL || (headless && opt->realtime)) {
			double period = window != NULL && vsync ? 1000.0 / 300.0 : 1000.0 / TH_HOST_HZ;
			double left = last + period - th_host_now_ms();
			if (left > 1.0) SDL_Delay((Uint32)left);
		}
	}
	if (opt->screenshot != NULL && !shot_taken && h->L != NULL) screenshot(h, opt->screenshot, 1.0f);
	double seconds = (th_host_now_ms() - started) / 1000.0;

	int status = 0;
	if (h->fatal) {
		status = 1;
	} else if (h->exit_requested) {
		status = h->exit_code;
		if (h->exit_message != NULL) {
			FILE *out = status == 0 ? stdout : stderr;
			fprintf(out, "%s\n", h->exit_message);
			fflush(out);
		}
	}
	/* scripted runs (headless, or a window with --frames) report how they ended */
	if ((headless || opt->frames > 0) && !opt->quiet && !h->fatal) print_summary(h, seconds);

	th_input_record_close(&h->input);
	th_input_replay_close(&h->input);
	drag_end(h);
	th_level_stop(h);
	th_render_free(&h->render);
	th_watch_free(&h->watch);
	th_target_free(&target);
	th_media_close(&h->media);
	if (pad != NULL) SDL_GameControllerClose(pad);
	if (window != NULL) SDL_DestroyWindow(window);
	SDL_Quit();
	free(h->error);
	free(h->exit_message);
	free(h->root);
	free(h->level_path);
	free(h->level_dir);
	return status;
}
