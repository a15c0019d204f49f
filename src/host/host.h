/* tumble host: the state shared by the host's parts (app, level, input,
 * render, overlay, watch). One th_host lives for the whole run; the Lua state
 * and the world inside it are replaced on a restart (F5). */
#ifndef TH_HOST_H
#define TH_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include <SDL.h>
#include <lua.h>

#include "tumble/physics.h"
#include "app.h"
#include "media.h"
#include "sandbox.h"

#define TH_HOST_HZ 60
#define TH_HOST_DT (1.0f / TH_HOST_HZ)
/* At most this many fixed steps per rendered frame; the rest of the backlog is
 * dropped, so a slow frame cannot snowball into ever slower frames. */
#define TH_HOST_MAX_CATCH_UP 4

/* ---- input events (SDL-free, so a replay needs no SDL input at all) ---- */

typedef enum th_event_type {
	TH_EV_KEY_DOWN,
	TH_EV_KEY_UP,
	TH_EV_MOUSE_DOWN,
	TH_EV_MOUSE_UP,
	TH_EV_MOUSE_MOVE,
	TH_EV_WHEEL,
	TH_EV_PAD_DOWN,
	TH_EV_PAD_UP,
	TH_EV_PAD_AXIS,
	TH_EV_PAD_CONNECT, /* button: 1 connected, 0 removed */
	TH_EV_RESIZE,
	TH_EV_QUIT,
	TH_EV_TEXT,      /* text typed (UTF-8 in name) */
} th_event_type;

typedef struct th_event {
	th_event_type type;
	char name[32];   /* key (SDL name, lowercase), gamepad button or axis */
	int button;      /* mouse button, SDL numbering: 1 left, 2 middle, 3 right, 4, 5 */
	int x, y;        /* mouse position in pixels; resize: the new view size */
	int dx, dy;      /* mouse motion in pixels */
	float wheel_x, wheel_y;
	float value;     /* gamepad axis in -1..1 */
} th_event;

#define TH_MAX_KEYS 64
#define TH_MOUSE_BUTTONS 6
#define TH_PAD_BUTTONS 32
#define TH_PAD_AXES 8

typedef struct th_key_state {
	char name[32];
	bool down, pressed, released;
} th_key_state;

typedef struct th_input {
	th_key_state keys[TH_MAX_KEYS];
	int key_count;
	bool mouse_down[TH_MOUSE_BUTTONS], mouse_pressed[TH_MOUSE_BUTTONS], mouse_released[TH_MOUSE_BUTTONS];
	int mouse_x, mouse_y; /* pixels */
	float wheel_x, wheel_y; /* since the last step */
	bool pad_connected;
	bool pad_down[TH_PAD_BUTTONS], pad_pressed[TH_PAD_BUTTONS], pad_released[TH_PAD_BUTTONS];
	float pad_axis[TH_PAD_AXES];
	/* record: empty frames are run-length encoded */
	FILE *record;
	int record_run, record_run_steps;
	/* replay */
	FILE *replay;
	int replay_run, replay_run_steps, replay_line;
	bool replay_done;
} th_input;

/* ---- camera: y up, metres; screen: y down, pixels ---- */

typedef struct th_camera {
	double x, y, scale;     /* centre and pixels per metre, after following */
	double prev_x, prev_y;  /* centre before the latest step, to interpolate a follow */
	bool following;
	int view_w, view_h;
} th_camera;

/* ---- rendering ---- */

typedef struct th_target {
	SDL_Renderer *renderer;
	SDL_Texture *font;
	int width, height;
	struct th_texture_cache *textures; /* images drawn into this target (image.c) */
} th_target;

enum { TH_LAYER_SHAPES, TH_LAYER_JOINTS, TH_LAYER_CONTACTS, TH_LAYER_AABBS, TH_LAYER_MASS, TH_LAYER_COUNT };

typedef struct th_body_snapshot {
	tb_transform xf;
	uint32_t generation;
	long long stamp; /* step number the snapshot precedes */
} th_body_snapshot;

typedef struct th_render {
	th_target *target;        /* where gfx draws; NULL: gfx calls only check arguments */
	SDL_Color color;          /* gfx.color */
	double cam_x, cam_y, scale; /* view of the frame being drawn (interpolated) */
	float alpha;              /* interpolation factor between the last two steps */
	bool layers[TH_LAYER_COUNT];
	th_body_snapshot *snap;   /* previous transforms by body slot */
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
	/* where the level's screen_text went this frame: the overlay keeps clear */
	SDL_Rect text_boxes[64];
	int text_box_count;
} th_render;

/* ---- dev overlay ---- */

#define TH_OVERLAY_HISTORY 120
#define TH_OVERLAY_MAX_ITEMS 24

typedef struct th_overlay {
	bool visible;
	double fps, frame_ms;
	double fps_accum_ms;
	int fps_frames;
	float step_history[TH_OVERLAY_HISTORY];
	int history_pos;
	tb_profile profile;
	tb_counters counters;
	double update_ms, step_ms, dispatch_ms, draw_ms;
	tb_vec2 saved_gravity; /* restored when gravity is toggled back on */
	int left_y, right_y;   /* tops of the panels as last drawn (below the level's text) */
} th_overlay;

/* ---- mouse drag (a mouse joint to a temporary static anchor body) ---- */

typedef struct th_drag {
	bool active;
	tb_body_id body, ground;
	tb_joint_id joint;
} th_drag;

/* ---- hot reload ---- */

typedef struct th_watch_file {
	char *path;
	bool exists;
	struct timespec mtime;
	off_t size;
	ino_t inode;
} th_watch_file;

typedef struct th_watch {
	th_watch_file *files;
	int count, capacity;
	double last_poll_ms;
} th_watch;

/* ---- level.conf (conf.c) ---- */

typedef struct th_level_conf {
	bool present;
	char title[256];
	int width, height;       /* 0: not given */
	bool fullscreen, resizable;
	bool has_camera;
	double camera_x, camera_y, camera_scale;
	bool layer_set[TH_LAYER_COUNT], layers[TH_LAYER_COUNT];
} th_level_conf;

typedef struct th_host {
	const th_app_options *opt;
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
	th_sandbox sandbox;
	th_input input;
	th_camera camera;
	th_render render;
	th_overlay overlay;
	th_watch watch;
	th_drag drag;
	th_media media;        /* images and sound (media.h) */
	th_level_conf conf;    /* the level's conf table, read at each start */
	bool conf_changed;     /* read since the app last applied it */
	bool toggle_fullscreen; /* F11, for the app to apply */
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
} th_host;

/* app.c */
double th_host_now_ms(void);
void th_host_handle_event(th_host *h, const th_event *ev);
void th_host_set_error(th_host *h, const char *phase, const char *message, bool runtime);
void th_host_clear_error(th_host *h);
float th_host_time_scale(const th_host *h);
void th_host_toggle_pause(th_host *h);

/* api.c: the level's callbacks by name (the host calls no other), and
 * tumble._host_introspect for the docs spec. */
extern const char *const th_level_callbacks[];
bool th_level_is_callback(const char *name);
void th_api_open_lua(th_host *h, lua_State *L);
/* Pushes a Lua array of the NULL-terminated names. */
void th_api_push_names(lua_State *L, const char *const names[]);
/* Each adds its names to the table on top (image.c, sound.c, conf.c). */
void th_image_describe(lua_State *L);
void th_sound_describe(lua_State *L);
void th_conf_describe(lua_State *L);

/* conf.c: reads level.conf from the level table at idx; applies the camera
 * and the draw layers; false (error set) on a bad conf. */
bool th_conf_read(th_host *h, int idx);

/* level.c */
bool th_level_start(th_host *h);
void th_level_stop(th_host *h);
bool th_level_reload(th_host *h);
/* Pushes the level's callback and returns true, or pushes nothing. */
bool th_level_push_callback(th_host *h, const char *name);
/* Calls the function below nargs arguments with a traceback handler, under the
 * sandbox budget. On error reports it as a runtime error and returns false. */
bool th_level_pcall(th_host *h, const char *phase, int nargs);
/* update(dt, world), then world:step(dt) (which runs the event handlers). */
bool th_level_update(th_host *h);
bool th_level_step_world(th_host *h);
void th_level_draw(th_host *h);
void th_level_push_world(th_host *h);
const char *th_level_builtin_source(void);
/* Publishes h->frame as tumble.frame. */
void th_level_set_frame(th_host *h);

/* input.c */
void th_input_open_lua(th_host *h, lua_State *L);
void th_input_apply(th_host *h, const th_event *ev);
void th_input_end_step(th_input *in);
void th_input_reset(th_input *in);
bool th_input_record_open(th_host *h, const char *path);
void th_input_record_event(th_input *in, const th_event *ev);
void th_input_record_frame(th_input *in, int steps);
void th_input_record_close(th_input *in);
bool th_input_replay_open(th_host *h, const char *path, int *view_w, int *view_h);
/* Dispatches the next recorded frame's events; returns false once the file is
 * exhausted, else sets *steps to the steps that frame ran. */
bool th_input_replay_frame(th_host *h, int *steps);
void th_input_replay_close(th_input *in);
const char *th_mouse_button_name(int button);
void th_key_name_normalize(char *dst, size_t size, const char *src);

/* render.c */
void th_render_init(th_render *r);
void th_render_free(th_render *r);
void th_render_open_lua(th_host *h, lua_State *L);
/* Records body transforms before a step, for interpolation. */
void th_render_snapshot(th_host *h);
void th_render_reset_snapshot(th_host *h);
/* Reads tumble.camera (following a body if asked) into h->camera; protected. */
void th_camera_sync(th_host *h);
tb_vec2 th_camera_to_world(const th_camera *c, double px, double py);
bool th_target_init_window(th_target *t, SDL_Window *window);
bool th_target_init_surface(th_target *t, SDL_Surface *surface);
void th_target_free(th_target *t);
/* Draws a whole frame into t: world, level draw, overlay and error panel. */
void th_render_frame(th_host *h, th_target *t, float alpha);
/* Helpers for the overlay. */
/* A body's transform as drawn this frame (interpolated between the last two steps). */
tb_transform th_render_body_transform(th_host *h, tb_body_id id);
void th_render_fill_rect(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color c);
void th_render_text(th_target *t, float x, float y, int scale, const char *text, SDL_Color c);

/* overlay.c */
void th_overlay_draw(th_host *h, th_target *t);
void th_overlay_draw_error(th_host *h, th_target *t);
/* A click at pixel (x, y) with the overlay open; true if a widget took it. */
bool th_overlay_click(th_host *h, int x, int y);
void th_overlay_frame_time(th_host *h, double frame_ms);
void th_overlay_after_step(th_host *h, double update_ms, double step_ms);
void th_overlay_toggle_layer(th_host *h, int layer);

/* watch.c */
void th_watch_init(th_watch *w);
void th_watch_free(th_watch *w);
void th_watch_add(th_watch *w, const char *path);
/* True if any watched file changed since it was added or last polled. */
bool th_watch_poll(th_watch *w);
/* Installs the recording searcher and the loadfile/dofile wrappers. */
void th_watch_open_lua(th_host *h, lua_State *L);

#endif
