/* tumble host: the level, i.e. everything on the Lua side. It owns the Lua
 * state and the world in it, the input the level polls, its camera and the
 * dev tools' hold on its world (the mouse drag, the settings toggles). The
 * loop drives it from above: start, events, steps, draw, reload, stop. It
 * calls nothing above itself; what the loop must know (an error, an exit
 * request, a new conf) it leaves in its fields.
 *
 * Its parts: level.c (state, callbacks, reload), loader.c (how the level's
 * files are loaded, and the staging environment of a reload), input.c
 * (tumble.input), camera.c (tumble.camera), gfx.c (tumble.gfx), conf.c
 * (level.conf), image.c and sound.c (media), api.c (the callback list),
 * introspect.c (tumble._host_introspect), moment.c (what a rewind keeps of
 * level.state). The parts call nothing in level.c: what of theirs runs level
 * code (camera.c's and conf.c's reads, moment.c's copies) they export as
 * lua_CFunctions, and level.c calls them protected, under the budget. */
#ifndef TH_HOST_LEVEL_H
#define TH_HOST_LEVEL_H

#include <stdbool.h>
#include <stdint.h>
#include <lua.h>

#include "tumble/physics.h"
#include "action.h"
#include "camera.h"
#include "event.h"
#include "input.h"
#include "media.h"
#include "options.h"
#include "render.h"
#include "sandbox.h"
#include "watch.h"

#define TH_HOST_HZ 60
#define TH_HOST_DT (1.0f / TH_HOST_HZ)
/* At most this many fixed steps per rendered frame; the rest of the backlog is
 * dropped, so a slow frame cannot snowball into ever slower frames. */
#define TH_HOST_MAX_CATCH_UP 4

/* ---- level.conf (conf.c) ---- */

typedef struct th_level_conf {
	bool present;
	char title[256];
	int width, height;       /* 0: not given */
	bool fullscreen, resizable;
	bool has_camera;
	double camera_x, camera_y, camera_scale;
	bool layer_set[TH_LAYER_COUNT], layers[TH_LAYER_COUNT];
	th_keymap keys;          /* claim_keys, dev_keys, host_keys */
} th_level_conf;

/* ---- the dev tools' mouse drag: a mouse joint to a temporary static body ---- */

typedef struct th_drag {
	bool active;
	tb_body_id body, ground;
	tb_joint_id joint;
} th_drag;

/* ---- a moment of the level, for rewind (moment.c holds its Lua side) ---- */

/* What the level was at the end of a frame: the world's snapshot and a copy
 * of level.state and of tumble.camera's fields (a table in the Lua state),
 * and the host's side of the level. */
typedef struct th_moment {
	unsigned run;            /* the run of the level it belongs to (th_level.run) */
	int ref;                 /* the Lua side, in the registry */
	long long frame;
	th_input input;
	th_drag drag;
	tb_vec2 saved_gravity;
	unsigned char random[64]; /* math.random's state */
	size_t random_size;
} th_moment;

/* A property the inspector plots ("plot this"): read at the end of each
 * step into the series named series (edit_lua.c). */
#define TH_PLOT_THIS_MAX 16
typedef struct th_plot_this {
	int kind;             /* th_sel_kind (edit.h) */
	int32_t index1;
	uint32_t generation;
	char prop[32];        /* as the inspector names it ("field.fy" for a table's key) */
	char series[64];
} th_plot_this;

typedef struct th_level {
	/* Given by the app; the level only reads them. */
	const th_app_options *opt;
	const char *root;        /* directory holding lua/ and examples/, or NULL */
	const char *level_path;  /* absolute; NULL runs the built-in demo */
	const char *level_dir;
	th_render *render;       /* gfx draws through it; sprites are interpolated by it */
	struct th_plot *plot;    /* tumble.plot records into it, or NULL */
	th_media *media;         /* budgets of images and sounds, across starts */
	th_watch *watch;         /* the files the level's code came from */
	bool halt_on_error;      /* a runtime error halts the simulation */
	/* the inspector's plotted properties (the app adds and removes them;
	 * one whose object is gone is dropped); kept across rebuilds */
	th_plot_this plot_this[TH_PLOT_THIS_MAX];
	int plot_this_count;

	/* One run of the level: th_level_start makes it, th_level_stop ends it. */
	lua_State *L;
	unsigned run;            /* counts the starts */
	th_sandbox sandbox;
	int tumble_ref, world_ref, level_ref, camera_ref, modules_ref;
	int host_ref;            /* the host's own tables (fingerprint.h) */
	int random_ref;          /* math.random as the libraries made it (its state is rewound) */
	int reload_old_ref;      /* a functions-only reload's old level table, until th_level_reloaded */
	int code_new_ref;        /* the code a start or a reload just made, until th_level_code_take */
	int stage_ref;           /* a file being run: its environment (loader.c) */
	int staged_ref;          /* ... and the chunks loaded into it */
	tb_world *world;
	bool ok;                 /* the level table loaded and load ran */
	bool faulted;            /* a runtime error halted the simulation */
	bool draw_faulted;       /* level.draw failed: skipped until a reload */
	bool syntax_error;       /* the level's file did not parse at start: nothing of it ran */
	bool replaying;          /* re-running recorded frames (tumble.replaying) */
	long long frame;         /* completed fixed steps (tumble.frame) */
	th_input input;
	th_camera camera;
	th_drag drag;
	tb_vec2 saved_gravity;   /* what the gravity toggle puts back */
	th_level_conf conf;
	bool conf_changed;       /* read since the app last applied it */
	uint64_t load_print;     /* fingerprint of what load builds from */
	bool load_print_ok;
	double update_ms, step_ms; /* the last step's update and world step */

	/* What the level leaves for the loop. */
	char *error;             /* shown until fixed; NULL when none */
	bool reload_error;       /* the error is a failed reload: the last good code runs on */
	bool exit_requested;
	int exit_code;
	char *exit_message;
} th_level;

void th_level_init(th_level *lv);
/* Makes a fresh Lua state and world, runs the level's file and load. False
 * (error set) if that failed; the level is then halted until fixed. */
bool th_level_start(th_level *lv, const th_start_state *start);
void th_level_stop(th_level *lv);
/* Frees what outlives a run (the error and exit texts). */
void th_level_free(th_level *lv);

/* A frame: begin (the camera catches up with Lua), events, then steps. */
void th_level_begin_frame(th_level *lv);
/* An event (input, or a dev tool's change to the world) for the level. */
void th_level_apply(th_level *lv, const th_event *ev);
/* One fixed step: update, world:step (event handlers), then the edges end. */
void th_level_step(th_level *lv);
/* level.frame(dt), once per drawn frame, dt seconds after the last: what
 * the picture needs (never the steps, which are replayed; nothing calls it
 * while frames are replayed to rebuild or rewind). */
void th_level_frame(th_level *lv, double dt);
/* The sprites attached to bodies, then level.draw(gfx), into t. */
void th_level_draw_sprites(th_level *lv, th_target *t);
void th_level_draw(th_level *lv, th_target *t);
/* Ends a mouse drag (before a reload or a restart). */
void th_level_drag_end(th_level *lv);

typedef enum th_reload_kind {
	TH_RELOAD_FAILED,    /* the new files do not run: error set, the old code runs on */
	TH_RELOAD_FUNCTIONS, /* only functions changed: swapped in, world kept */
	TH_RELOAD_REBUILD,   /* what load builds changed: the caller restarts and replays */
} th_reload_kind;

/* Runs the level's changed files in an environment of their own, then either
 * commits them (functions only), or leaves everything as it was and asks for
 * a rebuild. After TH_RELOAD_FUNCTIONS the caller may rewind, then calls
 * th_level_reloaded, which calls level.reload(world, old). */
th_reload_kind th_level_reload(th_level *lv);
void th_level_reloaded(th_level *lv);

/* The level's code as a start or a functions-only reload left it, kept so a
 * replay from a moment lived before an edit runs the code that was live
 * then: the level table (its functions), the modules the level required
 * (package.loaded) and the global functions its files defined. A registry
 * reference (the caller owns it), or LUA_NOREF; taken once. */
int th_level_code_take(th_level *lv);
/* Makes the kept code the level's: its level table (gaining the data fields
 * of the one it replaces that its file did not set, as a reload does), its
 * modules and its global functions. Data and the world are untouched. */
void th_level_code_use(th_level *lv, int ref);
/* Frees kept code (nothing if run is not the level's run any more: the Lua
 * state it lived in is gone). */
void th_level_code_free(th_level *lv, unsigned run, int ref);

/* A moment of the level as it is now (between frames), or NULL: the level is
 * not running, or (*message set, malloc'd) its state cannot be kept: a value
 * that is not plain data or a handle, or a copy over budget bytes. *bytes:
 * what the moment holds. */
th_moment *th_level_capture(th_level *lv, size_t budget, size_t *bytes, char **message);
/* Puts the level back at the moment: world, level.state, the camera's
 * fields, input, frame, math.random. False (a runtime error set) if it could
 * not (out of memory). */
bool th_level_restore(th_level *lv, const th_moment *m);
void th_level_moment_free(th_level *lv, th_moment *m);

/* Every call into level code goes through here: a traceback handler and the
 * sandbox's budget around lua_pcall of the function below nargs arguments.
 * On failure nothing is left on the stack and, if message is given, the
 * error text is stored there (malloc'd). */
bool th_level_call(th_level *lv, const char *phase, int nargs, int nresults, char **message);
/* The same, reporting a failure as a runtime error of the phase. */
bool th_level_pcall(th_level *lv, const char *phase, int nargs);

void th_level_set_error(th_level *lv, const char *phase, const char *message, bool runtime);
void th_level_clear_error(th_level *lv);
/* Carry on after a runtime error (the user chose to). */
void th_level_resume(th_level *lv);
/* Applies a world-setting action (th_action_is_setting). */
void th_level_setting(th_level *lv, th_action act);
/* Publishes lv->replaying as tumble.replaying. */
void th_level_set_replaying(th_level *lv, bool replaying);

typedef struct th_level_stats {
	bool has_world;
	tb_world_def def;
	tb_profile profile;
	tb_counters counters;
	double dispatch_ms;
} th_level_stats;

void th_level_stats_get(th_level *lv, th_level_stats *out);

/* ---- parts in other files ---- */

/* api.c: the level's callbacks by name (the host calls no other). */
extern const char *const th_level_callbacks[];
bool th_level_is_callback(const char *name);
/* Pushes a Lua array of the NULL-terminated names. */
void th_api_push_names(lua_State *L, const char *const names[]);
/* introspect.c: tumble._host_introspect for the docs spec, into the tumble
 * table on top; it gathers the lists below. */
void th_introspect_open_lua(th_level *lv, lua_State *L);
/* Each adds its names to the table on top (image.c, sound.c, conf.c). */
void th_image_describe(lua_State *L);
void th_sound_describe(lua_State *L);
void th_conf_describe(lua_State *L);

/* moment.c: the Lua side of capture and restore, called protected:
 * (world, level table, camera table, budget) -> moment table, bytes;
 * (world, level table, camera table, moment table). */
int th_moment_capture_lua(lua_State *L);
int th_moment_restore_lua(lua_State *L);

/* conf.c: the Lua side of reading level.conf, called protected:
 * (level table, level as light userdata) -> nothing; fills lv->conf. */
int th_conf_read_lua(lua_State *L);

/* gfx.c: tumble.gfx into the tumble table on top of the stack. */
void th_gfx_open_lua(th_level *lv, lua_State *L);
/* Around level.draw: gfx draws into t, from the camera's transform; end
 * leaves any canvas still drawn into and puts the renderer back. */
void th_gfx_begin(th_level *lv, struct th_target *t);
void th_gfx_end(th_level *lv);

/* loader.c */
void th_loader_open_lua(th_level *lv, lua_State *L);
/* A file is about to run: chunks loaded from now on get an environment of
 * their own (a table whose reads fall through to the globals). */
void th_loader_stage(th_level *lv);
/* Gives the function at idx the staging environment (if one is open). */
void th_loader_stage_chunk(th_level *lv, int idx);
/* The registry's table of the global names the level's files defined
 * (committed), {name = true}: what a version of the code keeps. */
#define TH_LOADER_GLOBALS "tumble.level_globals"
/* The file ran: its globals join the real ones, its chunks see them. */
void th_loader_commit(th_level *lv);
/* The file failed: its environment and everything in it are dropped. */
void th_loader_discard(th_level *lv);
/* Forgets the modules the level required (so require runs them again),
 * keeping them in the table on top of the stack for th_loader_restore. */
void th_loader_unload_modules(th_level *lv);
void th_loader_restore_modules(th_level *lv, int saved);

#endif
