/* tumble host: the dev overlay (F1) and the error panel. It draws what the
 * app hands it (th_overlay_view) and turns clicks on its widgets into host
 * actions for the app to carry out; it changes nothing itself. */
#ifndef TH_HOST_OVERLAY_H
#define TH_HOST_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "tumble/physics.h"
#include "action.h"
#include "history.h"
#include "render.h"

#define TH_OVERLAY_HISTORY 120
#define TH_OVERLAY_MAX_ITEMS 24
/* Rendered frames a notice stays on screen (4 s at 60 Hz). */
#define TH_OVERLAY_NOTICE_FRAMES 240

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
	int left_y, right_y;   /* tops of the panels as last drawn (below the level's text) */
	char notice[256];      /* what the last hot reload did */
	int notice_frames;     /* frames it stays */
} th_overlay;

/* What the overlay shows, gathered by the app. */
/* Edits marked on the timeline, at most (the newest). */
#define TH_OVERLAY_EDITS 32

typedef struct th_overlay_view {
	long long frame;         /* the level's fixed steps */
	bool headless;
	bool paused, faulted;
	float time_scale;
	bool has_world;
	tb_world_def def;        /* the world's settings */
	const bool *layers;      /* TH_LAYER_COUNT */
	double lua_mb;
	double history_mb;       /* the level's input history */
	bool history_full;
	const char *error;       /* NULL when none */
	bool reload_error;       /* the error is a failed reload */
	bool syntax_error;       /* the level's file did not parse: nothing ran, a saved fix starts it */
	const char *level_dir;   /* stripped from paths in the error */
	int mouse_x, mouse_y;
	int view_w, view_h;
	const th_render *render; /* where the level's screen text went */
	/* the timeline (rewind) */
	bool timeline;           /* shown: rewind is on, and the run stands still (paused, looking back, halted) */
	bool rewind_on;
	bool reviewing;          /* the level shows an earlier moment; the present is tl_end */
	long long tl_first;      /* the oldest moment kept, in steps */
	long long tl_end;        /* the present, in steps */
	const th_history_snap *snaps; /* the kept moments, oldest first */
	int snap_count;
	size_t snap_bytes;
	const char *rewind_note; /* why no moment is kept now, or NULL */
	long long error_moment;  /* halted: the step a rewind goes back to, or -1 */
	long long edits[TH_OVERLAY_EDITS]; /* where the newest edits took effect, in steps */
	int edit_count;
	const struct th_plot *plot; /* tumble.plot series, or NULL */
} th_overlay_view;

void th_overlay_init(th_overlay *o, bool visible);
void th_overlay_frame_time(th_overlay *o, double frame_ms);
void th_overlay_after_step(th_overlay *o, const tb_profile *profile, const tb_counters *counters, double dispatch_ms,
                           double update_ms, double step_ms);
/* A line shown for a few seconds, overlay open or not. */
void th_overlay_notice(th_overlay *o, const char *text);
void th_overlay_draw(th_overlay *o, const th_overlay_view *v, th_target *t);
void th_overlay_draw_error(th_overlay *o, const th_overlay_view *v, th_target *t);
/* A click at pixel (x, y) with the overlay open: the action of the widget
 * under it (or TH_ACT_NONE); *taken if the overlay keeps the click. */
th_action th_overlay_click(th_overlay *o, const th_overlay_view *v, int x, int y, bool *taken);
/* A press at (x, y) on the shown timeline: true and the step under x (also
 * while dragging: any y). Its place depends on the view's size only, so a
 * replayed recording scrubs the same. */
bool th_overlay_timeline_at(const th_overlay_view *v, int x, int y, bool dragging, long long *step);
/* Pixels along the bottom of a width x height view that the timeline and
 * the error panel take now (0: none shown; at most 60% of the height): the
 * world is drawn fitted above them. */
int th_overlay_bottom_inset(const th_overlay *o, const th_overlay_view *v, int width, int height);
/* A click on the error panel's choices (halted): their action, or TH_ACT_NONE. */
th_action th_overlay_error_click(const th_overlay *o, const th_overlay_view *v, int x, int y);

#endif
