/* tumble host: the application's state and its parts, for the app's own
 * files only (the rest of the host sees app.h). app.c is the loop; each part
 * below calls only the parts listed after it, never the loop:
 *
 *   app_window.c    the window as level.conf and F11 ask for it
 *   app_events.c    the frame's events: the host's actions, or the level's
 *   app_reload.c    a changed file: swap the functions in, or rebuild
 *   app_draw.c      a frame's picture, in the window or a screenshot
 *   app_timeline.c  the history and the kept moments: catch up, seek, resume
 *   app_record.c    --record follows the timeline (cut back on a resume)
 *   app_edit.c      edit mode (F12): selection, handles, the inspector
 *   app_edit_source.c  edit mode's write-back into the level's source
 *   edit_draw.c     edit mode's picture
 *   app_paths.c     the root folder, the level's file, the screenshot's folder
 *   app_report.c    lines for people: notices, the summary, --rewind-stats
 *
 * sdl_event.c (SDL's events as the host's) stands apart: it knows no app. */
#ifndef TH_HOST_APP_INTERNAL_H
#define TH_HOST_APP_INTERNAL_H

#include "app.h"
#include "action.h"
#include "clock.h"
#include "edit_mode.h"
#include "history.h"
#include "level.h"
#include "overlay.h"
#include "plot.h"
#include "record.h"
#include "render.h"
#include "watch.h"

#include <stdbool.h>
#include <stddef.h>
#include <SDL.h>

/* A rebuild replays the level's history from its start; past this it would
 * keep the author waiting, and the level restarts instead. */
#define REBUILD_BUDGET_MS 2000.0

/* Durations, for --rewind-stats. */
typedef struct th_stat {
	double *ms;
	int count, capacity;
} th_stat;

/* The recording at the end of a history frame. */
typedef struct th_app_mark {
	th_recorder_mark rec;
	bool overlay;
} th_app_mark;

/* A version of the level's code on its timeline: the code that ran from
 * `frames` history frames on (until the next version), or only a tick where
 * an edit took effect (ref LUA_NOREF: a rebuild, whose code replays the
 * whole history). */
typedef struct th_app_code {
	long long frames;        /* history frames lived before it ran */
	long long step;          /* tumble.frame then (the timeline's tick) */
	unsigned run;            /* the level's run its reference lives in */
	int ref;                 /* th_level_code_take's, or LUA_NOREF */
	bool edit;               /* an edit took effect here: a tick on the timeline */
} th_app_code;

/* At most this many versions of the code are kept; an edit past it drops
 * the kept moments that only the oldest could replay. */
#define TH_CODE_VERSIONS_MAX 16

struct th_app {
	th_app_options opt;      /* a copy: without a display, a screenshot run turns headless */
	char *root;              /* directory holding lua/ and examples/, or NULL */
	char *level_path;        /* absolute; NULL runs the built-in demo */
	char *level_dir;
	bool sdl;                /* SDL_Init succeeded */
	SDL_Window *window;
	SDL_GameController *pad;
	th_target target;
	bool vsync;
	th_render render;
	th_overlay overlay;
	th_watch watch;
	bool watch_enabled;
	th_media media;
	th_history history;
	th_history_pos lived;    /* how much of the history the level has lived */
	/* rewind */
	long long next_moment;   /* tumble.frame at which the next moment is kept */
	bool reviewing;          /* the level shows an earlier moment; the present is the history's end */
	bool scrubbing;          /* the mouse holds the timeline */
	long long seek_to;       /* TH_ACT_SEEK's step */
	th_input live;           /* the input as it is now, whatever the level was given */
	char *rewind_note;       /* why no moment is kept now, or NULL */
	th_stat capture_stats, restore_stats, seek_stats;
	th_app_code *codes;      /* the code's versions and edits, oldest first */
	int code_count, code_capacity;
	int code_used;           /* the version the level runs now */
	bool code_capped;        /* the cap dropped moments (said once a run) */
	/* --record: where the file stood at the end of each history frame from
	 * marks_first on (and whether the overlay was open), to cut it back to
	 * the frame a resume goes on from */
	th_app_mark *marks;
	int mark_count, mark_capacity;
	long long marks_first;
	char cut_up[4][sizeof(((th_event *)0)->name)]; /* host keys whose press was cut: their release is not recorded */
	int cut_ups;
	th_edit edit;            /* edit mode (F12) */
	th_level level;
	th_recorder recorder;
	th_plot *plot; /* tumble.plot series (plot.h) */
	th_replay replay;        /* --replay: the input of each frame */
	bool replaying;          /* ... and it is not over yet */
	long frames;             /* frames to run; 0: until the window closes */
	long long render_frame;
	bool paused;
	int single_steps;        /* F3: steps to run while paused */
	int slowmo;              /* index into th_time_scales */
	bool toggle_fullscreen;  /* F11, applied at the next frame */
	bool cursor_hidden, cursor_grabbed; /* as the window has them now */
	bool quit;
	bool fatal;              /* the run ends with fatal_status */
	int fatal_status;
	bool shot_taken, shot_failed;
	SDL_RWops *shot_file;    /* --sandbox: opened before the OS lock */
	double started, last, acc, next_poll;
	double step_cost_ms;     /* a step's average cost, to estimate a rebuild */
};

/* ---- app_window.c ---- */
void th_app_apply_conf(th_app *app);
void th_app_toggle_fullscreen(th_app *app);
/* The pointer as the level asks (tumble.input.set_mouse_visible, ..._grabbed)
 * while it runs at the present with no dev tool open; shown and free
 * otherwise, so an error panel or the overlay can always be clicked. */
void th_app_apply_cursor(th_app *app);

/* ---- app_events.c ---- */
void th_app_handle_event(th_app *app, const th_event *ev);
/* The level's keys (level.conf) while it can take keys, the host's own
 * while it cannot (an error): for the frame's events and its hints. */
void th_app_keys_in_force(th_app *app);

/* ---- app_reload.c ---- */
bool th_app_restart(th_app *app);
void th_app_reload(th_app *app);

/* ---- app_draw.c ---- */
void th_app_overlay_view(th_app *app, th_overlay_view *v);
/* The pixels along the bottom of a width x height view that the host's
 * panels take (the timeline, the error panel); the world is drawn fitted
 * above them (th_app_compose). */
int th_app_view_inset(th_app *app, int width, int height);
/* The world point under pixel (x, y) of the view as the frame draws it
 * (fitted above the bottom panels): what edit mode's clicks and its palette's
 * pointer land on. */
tb_vec2 th_app_edit_to_world(const th_app *app, int x, int y);
void th_app_compose(th_app *app, th_target *t, float alpha);
bool th_app_screenshot(th_app *app, const char *path, float alpha);

/* ---- app_timeline.c ---- */
typedef enum catch_up_end { CAUGHT_UP, STOPPED, OUT_OF_TIME } catch_up_end;

bool th_app_behind(const th_app *app);
bool th_app_rewind_on(const th_app *app);
void th_app_drop_moments(th_app *app, const th_history_pos *after);
void th_app_keep_moment(th_app *app);
catch_up_end th_app_replay(th_app *app, long long until, bool before, double started, double budget_ms);
catch_up_end th_app_catch_up(th_app *app, double started, double budget_ms);
bool th_app_restore_moment(th_app *app, const th_history_snap *s);
bool th_app_seek(th_app *app, long long target);
void th_app_deliver(th_app *app, const th_event *ev);
void th_app_resume_here(th_app *app);
const th_history_snap *th_app_error_moment(const th_app *app);
bool th_app_rewind_error(th_app *app);
bool th_app_start_level(th_app *app, const th_start_state *s);
/* The level (re)started: its code is the first version. A rebuild keeps
 * the edits' ticks (rebuilt_at: where this one took effect, or -1). */
void th_app_code_started(th_app *app, bool rebuild, long long rebuilt_frames, long long rebuilt_step);
/* A functions-only reload: its code runs from `frames` history frames on
 * (the versions after that are dropped). */
void th_app_code_edited(th_app *app, long long frames, long long step);
/* The level runs the version of its code for where it stands in its history. */
void th_app_code_sync(th_app *app, long long frames);
void th_app_code_free(th_app *app);

/* ---- app_record.c ---- */
void th_app_mark_frame(th_app *app);
void th_app_marks_reset(th_app *app);
void th_app_truncate_timeline(th_app *app);
bool th_app_cut_release(th_app *app, const th_event *ev);

/* ---- app_edit.c ---- */
/* True if edit mode took the event (F12 always does). */
bool th_app_edit_event(th_app *app, const th_event *ev);
void th_app_edit_refresh(th_app *app);
void th_app_edit_layout(const th_app *app, th_edit_layout *l);
int th_app_edit_preview(const th_app *app, th_edit_change *out, int cap);
double th_app_edit_scrub_value(const th_app *app);
/* The property was set in the running world only (not saved). */
bool th_app_edit_unsaved(const th_app *app, th_sel obj, const char *name);
/* The property's place in app->level.plot_this ("plot this"), or -1. */
int th_app_edit_plotted(const th_app *app, th_sel obj, const char *name);

/* ---- app_edit_source.c ---- */
th_edit_writeback th_app_edit_write_back(th_app *app, const th_edit_change *c, char *why, size_t size);
/* Between begin and end, numbers written back are gathered; end writes them
 * as one edit (one undo step, one rebuild), or none if any is refused. */
/* The level was rebuilt from its file: the objects were made by the lines
 * of the file as it is now, which the edit session takes as its text. */
void th_app_edit_source_rebuilt(th_app *app);
void th_app_edit_group_begin(th_app *app);
bool th_app_edit_group_end(th_app *app);
/* A polygon's vertex moved from was to to (body-local): the literal pair of
 * numbers in its polygon{} that made it is rewritten, as one edit. */
bool th_app_edit_write_vertex(th_app *app, tb_shape_id sh, tb_vec2 was, double to_x, double to_y, char *why, size_t size);
/* Where the value of a property comes from ("literal, level.lua:42"), or "". */
void th_app_edit_origin(th_app *app, th_sel obj, const char *name, char *buf, size_t size);
void th_app_edit_undo(th_app *app, bool undo);
void th_app_edit_structure(th_app *app, th_edit_structure_op op);
void th_app_edit_open_source(th_app *app);
void th_app_edit_close(th_app *app);

/* ---- edit_draw.c ---- */
void th_app_edit_draw(th_app *app, th_target *t);

/* ---- app_paths.c ---- */
char *th_app_find_root(void);
bool th_app_resolve_level(th_app *app);
bool th_app_screenshot_writable(const char *path);

/* ---- app_report.c ---- */
const char *th_app_time_text(double ms, char *buf, size_t size);
const char *th_app_count_text(long long n, char *buf, size_t size);
void th_app_say(th_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void th_app_stat_add(th_stat *st, double ms);
void th_app_print_summary(th_app *app, double seconds);
void th_app_print_rewind_stats(th_app *app);

#endif
