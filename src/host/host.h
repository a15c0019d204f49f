/* tumble host: the state shared by the host's parts (app, level, input,
 * render, overlay, watch). One tb_host lives for the whole run; the Lua state
 * and the world inside it are replaced on a restart (F5). */
#ifndef TB_HOST_H
#define TB_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include <SDL.h>
#include <lua.h>

#include "physics.h"
#include "app.h"
#include "sandbox.h"

#define TB_HOST_HZ 60
#define TB_HOST_DT (1.0f / TB_HOST_HZ)
/* At most this many fixed steps per rendered frame; the rest of the backlog is
 * dropped, so a slow frame cannot snowball into ever slower frames. */
#define TB_HOST_MAX_CATCH_UP 4

/* ---- input events (SDL-free, so a replay needs no SDL input at all) ---- */

typedef enum tb_event_type {
	TB_EV_KEY_DOWN,
	TB_EV_KEY_UP,
	TB_EV_MOUSE_DOWN,
	TB_EV_MOUSE_UP,
	TB_EV_MOUSE_MOVE,
	TB_EV_WHEEL,
	TB_EV_PAD_DOWN,
	TB_EV_PAD_UP,
	TB_EV_PAD_AXIS,
	TB_EV_PAD_CONNECT, /* button: 1 connected, 0 removed */
	TB_EV_RESIZE,
	TB_EV_QUIT,
} tb_event_type;

typedef struct tb_event {
	tb_event_type type;
	char name[32];   /* key (SDL name, lowercase), gamepad button or axis */
	int button;      /* mouse button, SDL numbering: 1 left, 2 middle, 3 right, 4, 5 */
	int x, y;        /* mouse position in pixels; resize: the new view size */
	int dx, dy;      /* mouse motion in pixels */
	float wheel_x, wheel_y;
	float value;     /* gamepad axis in -1..1 */
} tb_event;

#define TB_MAX_KEYS 64
#define TB_MOUSE_BUTTONS 6
#define TB_PAD_BUTTONS 32
#define TB_PAD_AXES 8

typedef struct tb_key_state {
	char name[32];
	bool down, pressed, released;
} tb_key_state;

typedef struct tb_input {
	tb_key_state keys[TB_MAX_KEYS];
	int key_count;
	bool mouse_down[TB_MOUSE_BUTTONS], mouse_pressed[TB_MOUSE_BUTTONS], mouse_released[TB_MOUSE_BUTTONS];
	int mouse_x, mouse_y; /* pixels */
	float wheel_x, wheel_y; /* since the last step */
	bool pad_connected;
	bool pad_down[TB_PAD_BUTTONS], pad_pressed[TB_PAD_BUTTONS], pad_released[TB_PAD_BUTTONS];
	float pad_axis[TB_PAD_AXES];
	/* record: empty frames are run-length encoded */
	FILE *record;
	int record_run, record_run_steps;
	/* replay */
	FILE *replay;
	int replay_run, replay_run_steps, replay_line;
	bool replay_done;
} tb_input;

/* ---- camera: y up, metres; screen: y down, pixels ---- */

typedef struct tb_camera {
	double x, y, scale;     /* centre and pixels per metre, after following */
	double prev_x, prev_y;  /* centre before the latest step, to interpolate a follow */
	bool following;
	int view_w, view_h;
} tb_camera;

/* ---- rendering ---- */

typedef struct tb_target {
	SDL_Renderer *renderer;
	SDL_Texture *font;
	int width, height;
} tb_target;

enum { TB_LAYER_SHAPES, TB_LAYER_JOINTS, TB_LAYER_CONTACTS, TB_LAYER_AABBS, TB_LAYER_MASS, TB_LAYER_COUNT };

typedef struct tb_body_snapshot {
	tb_transform xf;
	uint32_t generation;
	long long stamp; /* step number the snapshot precedes */
} tb_body_snapshot;

typedef struct tb_render {
	tb_target *target;        /* where gfx draws; NULL: gfx calls only check arguments */
	SDL_Color color;          /* gfx.color */
	double cam_x, cam_y, scale; /* view of the frame being drawn (interpolated) */
	float alpha;              /* interpolation factor between the last two steps */
	bool layers[TB_LAYER_COUNT];
	tb_body_snapshot *snap;   /* previous transforms by body slot */
	int snap_cap;
	tb_body_id *bodies;
	int body_cap;
	tb_shape_id *shapes;
	int shape_cap;
	tb_joint_id *joints;
	int joint_cap;
	SDL_Vertex *verts;
	int vert_cap;
	int *indices;
	int index_cap;
	SDL_FPoint *points;
	int point_cap;
} tb_render;

/* ---- dev overlay ---- */

#define TB_OVERLAY_HISTORY 120
#define TB_OVERLAY_MAX_ITEMS 24

typedef struct tb_overlay {
	bool visible;
	double fps, frame_ms;
	double fps_accum_ms;
	int fps_frames;
	float step_history[TB_OVERLAY_HISTORY];
	int history_pos;
	tb_profile profile;
	tb_counters counters;
	double update_ms, step_ms, dispatch_ms, draw_ms;
	tb_vec2 saved_gravity; /* restored when gravity is toggled back on */
} tb_overlay;

/* ---- mouse drag (a mouse joint to a temporary static anchor body) ---- */

typedef struct tb_drag {
	bool active;
	tb_body_id body, ground;
	tb_joint_id joint;
} tb_drag;

/* ---- hot reload ---- */

typedef struct tb_watch_file {
	char *path;
	bool exists;
	struct timespec mtime;
	off_t size;
	ino_t inode;
} tb_watch_file;

typedef struct tb_watch {
	tb_watch_file *files;
	int count, capacity;
	double last_poll_ms;
} tb_watch;

typedef struct tb_host {
	const tb_app_options *opt;
	char *root;            /* directory holding lua/ and examples/, or NULL */
	char *level_path;      /* absolute; NULL runs the built-in demo */
	char *level_dir;
	lua_State *L;
	int tumble_ref, world_ref, level_ref, camera_ref, modules_ref;
	tb_world *world;
	bool level_ok;         /* a level table loaded: reloads can replace it */
	bool faulted;          /* a runtime error halted the simulation (window) */
	bool draw_faulted;     /* level.draw failed: skipped until reload/resume */
	char *error;           /* shown on screen until fixed; NULL when none */
	bool fatal;            /* headless: a Lua error ends the run */
	tb_sandbox sandbox;
	tb_input input;
	tb_camera camera;
	tb_render render;
	tb_overlay overlay;
	tb_watch watch;
	tb_drag drag;
	long long frame;       /* completed fixed steps (tumble.frame) */
	long long render_frame;
	bool paused;
	int single_steps;      /* F3: steps to run while paused */
	int slowmo;            /* index into the time scales */
	bool quit;
	bool exit_requested;
	int exit_code;
	char *exit_message;
	bool watch_enabled;
	double reload_ms;      /* wall time of the last successful reload (overlay note) */
} tb_host;

/* app.c */
double tb_host_now_ms(void);
void tb_host_handle_event(tb_host *h, const tb_event *ev);
void tb_host_set_error(tb_host *h, const char *phase, const char *message, bool runtime);
void tb_host_clear_error(tb_host *h);
float tb_host_time_scale(const tb_host *h);
void tb_host_toggle_pause(tb_host *h);

/* level.c */
bool tb_level_start(tb_host *h);
void tb_level_stop(tb_host *h);
bool tb_level_reload(tb_host *h);
/* Pushes the level's callback and returns true, or pushes nothing. */
bool tb_level_push_callback(tb_host *h, const char *name);
/* Calls the function below nargs arguments with a traceback handler, under the
 * sandbox budget. On error reports it as a runtime error and returns false. */
bool tb_level_pcall(tb_host *h, const char *phase, int nargs);
/* update(dt, world), then world:step(dt) (which runs the event handlers). */
bool tb_level_update(tb_host *h);
bool tb_level_step_world(tb_host *h);
void tb_level_draw(tb_host *h);
void tb_level_push_world(tb_host *h);
const char *tb_level_builtin_source(void);
/* Publishes h->frame as tumble.frame. */
void tb_level_set_frame(tb_host *h);

/* input.c */
void tb_input_open_lua(tb_host *h, lua_State *L);
void tb_input_apply(tb_host *h, const tb_event *ev);
void tb_input_end_step(tb_input *in);
void tb_input_reset(tb_input *in);
bool tb_input_record_open(tb_host *h, const char *path);
void tb_input_record_event(tb_input *in, const tb_event *ev);
void tb_input_record_frame(tb_input *in, int steps);
void tb_input_record_close(tb_input *in);
bool tb_input_replay_open(tb_host *h, const char *path, int *view_w, int *view_h);
/* Dispatches the next recorded frame's events; returns false once the file is
 * exhausted, else sets *steps to the steps that frame ran. */
bool tb_input_replay_frame(tb_host *h, int *steps);
void tb_input_replay_close(tb_input *in);
const char *tb_mouse_button_name(int button);
void tb_key_name_normalize(char *dst, size_t size, const char *src);

/* render.c */
void tb_render_init(tb_render *r);
void tb_render_free(tb_render *r);
void tb_render_open_lua(tb_host *h, lua_State *L);
/* Records body transforms before a step, for interpolation. */
void tb_render_snapshot(tb_host *h);
void tb_render_reset_snapshot(tb_host *h);
/* Reads tumble.camera (following a body if asked) into h->camera; protected. */
void tb_camera_sync(tb_host *h);
tb_vec2 tb_camera_to_world(const tb_camera *c, double px, double py);
bool tb_target_init_window(tb_target *t, SDL_Window *window);
bool tb_target_init_surface(tb_target *t, SDL_Surface *surface);
void tb_target_free(tb_target *t);
/* Draws a whole frame into t: world, level draw, overlay and error panel. */
void tb_render_frame(tb_host *h, tb_target *t, float alpha);
/* Helpers for the overlay. */
void tb_render_fill_rect(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color c);
void tb_render_text(tb_target *t, float x, float y, int scale, const char *text, SDL_Color c);

/* overlay.c */
void tb_overlay_draw(tb_host *h, tb_target *t);
void tb_overlay_draw_error(tb_host *h, tb_target *t);
/* A click at pixel (x, y) with the overlay open; true if a widget took it. */
bool tb_overlay_click(tb_host *h, int x, int y);
void tb_overlay_frame_time(tb_host *h, double frame_ms);
void tb_overlay_after_step(tb_host *h, double update_ms, double step_ms);
void tb_overlay_toggle_layer(tb_host *h, int layer);

/* watch.c */
void tb_watch_init(tb_watch *w);
void tb_watch_free(tb_watch *w);
void tb_watch_add(tb_watch *w, const char *path);
/* True if any watched file changed since it was added or last polled. */
bool tb_watch_poll(tb_watch *w);
/* Installs the recording searcher and the loadfile/dofile wrappers. */
void tb_watch_open_lua(tb_host *h, lua_State *L);

#endif
