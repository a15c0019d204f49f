/* tumble host: the application. It finds the level, sets up SDL (no video at
 * all when headless) and runs the loop: each frame it takes the input of the
 * frame (SDL's queue, or a recording being replayed), carries out the host's
 * actions, hands the rest to the level, runs the fixed 60 Hz steps the clock
 * (or the recording) asks for, logs all of it in the level's history, looks
 * for edited files, and draws. Like LOVE's love.run, the loop drives the
 * parts below it (level, history, overlay, render) and none of them calls
 * back up.
 *
 * th_app_open, th_app_frame and th_app_close are the loop's pieces; a frame
 * does not wait for the next, so a browser's main loop can call it. */
#include "app.h"
#include "action.h"
#include "clock.h"
#include "history.h"
#include "level.h"
#include "oslock.h"
#include "overlay.h"
#include "record.h"
#include "render.h"
#include "watch.h"
#include "tumble/tumble_lua.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <unistd.h>
#include <SDL_image.h>

/* A rebuild replays the level's history from its start; past this it would
 * keep the author waiting, and the level restarts instead. */
#define REBUILD_BUDGET_MS 2000.0
/* The history's memory: at ~70 bytes an event, hours of ordinary play. */
#define HISTORY_LIMIT_BYTES ((size_t)64 << 20)

_Static_assert(TH_REPLAY_MAX_STEPS == TH_HOST_MAX_CATCH_UP, "a recording never holds more steps than a frame runs");

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
	/* --record: where the file stood at the end of each history frame from
	 * marks_first on (and whether the overlay was open), to cut it back to
	 * the frame a resume goes on from */
	th_app_mark *marks;
	int mark_count, mark_capacity;
	long long marks_first;
	char cut_up[4][sizeof(((th_event *)0)->name)]; /* host keys whose press was cut: their release is not recorded */
	int cut_ups;
	th_level level;
	th_recorder recorder;
	th_replay replay;        /* --replay: the input of each frame */
	bool replaying;          /* ... and it is not over yet */
	long frames;             /* frames to run; 0: until the window closes */
	long long render_frame;
	bool paused;
	int single_steps;        /* F3: steps to run while paused */
	int slowmo;              /* index into th_time_scales */
	bool toggle_fullscreen;  /* F11, applied at the next frame */
	bool quit;
	bool fatal;              /* the run ends with fatal_status */
	int fatal_status;
	bool shot_taken, shot_failed;
	SDL_RWops *shot_file;    /* --sandbox: opened before the OS lock */
	double started, last, acc, next_poll;
	double step_cost_ms;     /* a step's average cost, to estimate a rebuild */
};

static void fail(th_app *app, int status)
{
	if (!app->fatal) app->fatal_status = status;
	app->fatal = true;
}

/* How long something took: "31 ms", "1.24 s". */
static const char *time_text(double ms, char *buf, size_t size)
{
	if (ms < 1000.0) {
		snprintf(buf, size, "%.0f ms", ms);
	} else {
		snprintf(buf, size, "%.2f s", ms / 1000.0);
	}
	return buf;
}

/* 1843 -> "1,843" */
static const char *count_text(long long n, char *buf, size_t size)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%lld", n < 0 ? -n : n);
	size_t o = 0;
	if (n < 0 && o + 1 < size) buf[o++] = '-';
	for (int i = 0; i < len && o + 2 < size; ++i) {
		if (i > 0 && (len - i) % 3 == 0) buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/* One line per save: on the terminal, and on screen for a few seconds. */
static void say(th_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(th_app *app, const char *fmt, ...)
{
	char text[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fprintf(stderr, "tumble: %s\n", text);
	fflush(stderr);
	th_overlay_notice(&app->overlay, text);
}

/* ---------------- the level's start and its history ---------------- */

/* What a start carries over from before: the pointer, a gamepad, the view. */
static th_start_state start_now(th_app *app)
{
	th_level *lv = &app->level;
	th_start_state s;
	s.mouse_x = lv->input.mouse_x;
	s.mouse_y = lv->input.mouse_y;
	s.pad_connected = lv->input.pad_connected;
	s.view_w = lv->camera.view_w;
	s.view_h = lv->camera.view_h;
	return s;
}

static bool behind(const th_app *app)
{
	return app->lived.frames < app->history.total_frames;
}

/* ---------------- rewind: the kept moments ---------------- */

static bool rewind_on(const th_app *app)
{
	return app->opt.rewind_seconds > 0.0;
}

static void stat_add(th_stat *st, double ms)
{
	if (st->count == st->capacity) {
		int capacity = st->capacity != 0 ? 2 * st->capacity : 256;
		if (capacity > 1 << 20) return;
		double *p = realloc(st->ms, (size_t)capacity * sizeof(*p));
		if (p == NULL) return;
		st->ms = p;
		st->capacity = capacity;
	}
	st->ms[st->count++] = ms;
}

/* Takes kept moments off the history and frees them: all of them (before the
 * level stops: what they hold lives in its Lua state), or those after pos (a
 * future that will not be lived, or was lived by other code). */
static void drop_moments(th_app *app, const th_history_pos *after)
{
	th_history *h = &app->history;
	th_history_snap s;
	while (th_history_snap_newest(h) != NULL && (after == NULL || th_history_snap_newest(h)->pos.frames > after->frames)) {
		th_history_snap_pop_newest(h, &s);
		th_level_moment_free(&app->level, s.moment);
	}
	const th_history_snap *n = th_history_snap_newest(h);
	app->next_moment = n != NULL ? n->step + TH_REWIND_INTERVAL : 0;
}

/* Why no moment is kept now (message: malloc'd, taken), or NULL when they
 * are again; said once. */
static void set_rewind_note(th_app *app, char *message)
{
	if (message == NULL) {
		if (app->rewind_note != NULL) say(app, "rewind: moments are kept again from frame %lld", app->level.frame);
		free(app->rewind_note);
		app->rewind_note = NULL;
		return;
	}
	if (app->rewind_note == NULL || strcmp(app->rewind_note, message) != 0) say(app, "rewind: %s", message);
	free(app->rewind_note);
	app->rewind_note = message;
}

/* Keeps a moment of the level at the end of a frame it lived (live or
 * replayed), one every TH_REWIND_INTERVAL steps; the oldest go past the
 * limits. A level.state that cannot be kept is said once, and tried again
 * half a second later. */
static void keep_moment(th_app *app)
{
	th_level *lv = &app->level;
	th_history *h = &app->history;
	if (!rewind_on(app) || lv->faulted || !lv->ok || lv->L == NULL || h->full || lv->frame < app->next_moment) return;
	app->next_moment = lv->frame + TH_REWIND_INTERVAL;
	double t0 = th_now_ms();
	size_t bytes = 0;
	char *message = NULL;
	th_moment *m = th_level_capture(lv, h->snap_limit, &bytes, &message);
	if (m == NULL) {
		if (message != NULL) set_rewind_note(app, message);
		return;
	}
	th_history_snap s = {lv->frame, app->lived, bytes, m};
	if (!th_history_snap_push(h, &s)) {
		th_level_moment_free(lv, m);
		return;
	}
	th_history_snap old;
	while (th_history_snap_over(h) && th_history_snap_pop_oldest(h, &old)) th_level_moment_free(lv, old.moment);
	if (h->snap_count == 0) {
		char text[160];
		snprintf(text, sizeof(text), "a moment of this level holds %.1f MB, more than the %.0f MB kept (--rewind-mb)",
		         (double)bytes / (1024.0 * 1024.0), (double)h->snap_limit / (1024.0 * 1024.0));
		set_rewind_note(app, strdup(text));
	} else {
		set_rewind_note(app, NULL);
	}
	stat_add(&app->capture_stats, th_now_ms() - t0);
}

typedef enum catch_up_end { CAUGHT_UP, STOPPED, OUT_OF_TIME } catch_up_end;

/* Re-runs the history's frames the level has not lived yet, fast and without
 * drawing, keeping moments on the way, until it is at step `until` (the
 * first frame's end at or after it; before: the last at or before it) or
 * has caught up with the present, or faults, asks to exit, or the budget
 * runs out. */
static catch_up_end replay(th_app *app, long long until, bool before, double started, double budget_ms)
{
	th_level *lv = &app->level;
	catch_up_end end = CAUGHT_UP;
	th_level_set_replaying(lv, true);
	app->media.muted = true;
	while (behind(app)) {
		if (lv->faulted || lv->exit_requested || lv->L == NULL) {
			end = STOPPED;
			break;
		}
		if (th_now_ms() - started > budget_ms) {
			end = OUT_OF_TIME;
			break;
		}
		th_history_pos next = app->lived;
		const th_event *events;
		int count, steps;
		if (!th_history_next(&app->history, &next, &events, &count, &steps)) break;
		if (before ? lv->frame + steps > until : lv->frame >= until) break;
		app->lived = next;
		th_level_begin_frame(lv);
		for (int i = 0; i < count; ++i) th_level_apply(lv, &events[i]);
		for (int s = 0; s < steps && !lv->faulted && !lv->exit_requested; ++s) th_level_step(lv);
		keep_moment(app);
	}
	app->media.muted = false;
	th_level_set_replaying(lv, false);
	return end;
}

static catch_up_end catch_up(th_app *app, double started, double budget_ms)
{
	return replay(app, LLONG_MAX, false, started, budget_ms);
}

/* Puts the level back at a kept moment (its position in the history too). */
static bool restore_moment(th_app *app, const th_history_snap *s)
{
	th_level *lv = &app->level;
	double t0 = th_now_ms();
	th_history_snap at = *s;
	if (!th_level_restore(lv, at.moment)) return false;
	th_level_resume(lv);
	app->lived = at.pos;
	stat_add(&app->restore_stats, th_now_ms() - t0);
	return true;
}

/* Shows the level at step target of its history, clamped to the kept moments
 * and the present: back to the newest kept moment at or before it (unless
 * where the level stands is on the way), then the frames from there replayed
 * without drawing. The run stands still there: paused, and reviewing until
 * it is at the present again. False if nothing is kept to go back to. */
static bool seek(th_app *app, long long target)
{
	th_level *lv = &app->level;
	th_history *h = &app->history;
	if (!rewind_on(app) || h->full || lv->L == NULL || h->snap_count == 0) return false;
	if (target > h->total_steps) target = h->total_steps;
	if (!app->reviewing && !lv->faulted && !behind(app) && target >= lv->frame) return true; /* at the present */
	double t0 = th_now_ms();
	bool before = target < lv->frame;
	const th_history_snap *s = th_history_snap_find(h, target, NULL);
	if (s == NULL) {
		s = th_history_snap_oldest(h);
		target = s->step;
	}
	bool on_the_way = !lv->faulted && lv->frame <= target && lv->frame >= s->step && app->lived.frames >= s->pos.frames;
	if (!on_the_way && !restore_moment(app, s)) return false;
	app->paused = true;
	app->single_steps = 0;
	replay(app, target, before, t0, REBUILD_BUDGET_MS);
	app->reviewing = behind(app) && !lv->faulted;
	stat_add(&app->seek_stats, th_now_ms() - t0);
	return true;
}

static bool key_down(const th_input *in, const char *name)
{
	for (int i = 0; i < in->key_count; ++i) {
		if (in->keys[i].down && strcmp(in->keys[i].name, name) == 0) return true;
	}
	return false;
}

/* The level goes on from an earlier moment with the input it held then: what
 * changed since (keys and buttons released, keys held, the pointer moved) is
 * given to it as events, so nothing stays held that is not. */
static void reconcile_input(th_app *app);

static void truncate_timeline(th_app *app);

/* The level goes on from the moment it shows: the history after it, and the
 * moments kept there, are dropped; new input makes a new future. */
static void resume_here(th_app *app)
{
	th_level *lv = &app->level;
	char n1[32], n2[32];
	long long dropped = app->history.total_steps - lv->frame;
	truncate_timeline(app);
	drop_moments(app, &app->lived);
	app->reviewing = false;
	app->scrubbing = false;
	app->paused = false;
	reconcile_input(app);
	say(app, "rewound to frame %s: going on from there (the %s steps after it dropped)",
	    count_text(lv->frame, n1, sizeof(n1)), count_text(dropped, n2, sizeof(n2)));
}

/* Halted by an error: the newest kept moment before it, or NULL. */
static const th_history_snap *error_moment(const th_app *app)
{
	if (!app->level.faulted || !rewind_on(app)) return NULL;
	return th_history_snap_find(&app->history, app->level.frame, &app->lived);
}

/* After an error, the first way on: back to the newest moment before it, the
 * history after that dropped, and on with the code as it is. */
static bool rewind_error(th_app *app)
{
	th_level *lv = &app->level;
	const th_history_snap *s = error_moment(app);
	if (s == NULL) return false;
	long long error_at = lv->frame;
	char n1[32], n2[32];
	if (!restore_moment(app, s)) return false;
	truncate_timeline(app);
	drop_moments(app, &app->lived);
	app->reviewing = false;
	app->scrubbing = false;
	app->paused = false;
	reconcile_input(app);
	say(app, "rewound to frame %s, before the error at frame %s: going on", count_text(lv->frame, n1, sizeof(n1)),
	    count_text(error_at, n2, sizeof(n2)));
	return true;
}

/* ---------------- the recording follows the timeline ---------------- */

static bool recording(const th_app *app)
{
	return app->recorder.file != NULL;
}

/* Notes where the recording stands at the end of history frame total_frames
 * (a level start: frame 0). Older marks than any moment a resume can reach go. */
static void mark_frame(th_app *app)
{
	if (!recording(app)) return;
	long long frame = app->history.total_frames;
	if (frame != app->marks_first + app->mark_count) return; /* full: no frame added */
	const th_history_snap *oldest = th_history_snap_oldest(&app->history);
	long long reach = oldest != NULL ? oldest->pos.frames : frame;
	if (reach - app->marks_first >= 4096) {
		int drop = (int)(reach - app->marks_first);
		memmove(app->marks, app->marks + drop, (size_t)(app->mark_count - drop) * sizeof(*app->marks));
		app->mark_count -= drop;
		app->marks_first += drop;
	}
	if (app->mark_count == app->mark_capacity) {
		int capacity = app->mark_capacity != 0 ? 2 * app->mark_capacity : 1024;
		th_app_mark *p = realloc(app->marks, (size_t)capacity * sizeof(*p));
		if (p == NULL) return; /* no mark: a resume past it cannot cut, and says so */
		app->marks = p;
		app->mark_capacity = capacity;
	}
	app->marks[app->mark_count++] = (th_app_mark){th_recorder_mark_now(&app->recorder), app->overlay.visible};
}

static void marks_reset(th_app *app)
{
	app->mark_count = 0;
	app->marks_first = app->history.total_frames;
	mark_frame(app);
}

/* The level goes on from the history's position lived: the history after it
 * is dropped, and so is what the recording holds after that frame (the
 * frames not lived now, and the looking back on the timeline). */
static void truncate_timeline(th_app *app)
{
	th_history_truncate(&app->history, &app->lived);
	if (!recording(app)) return;
	long long i = app->lived.frames - app->marks_first;
	if (i < 0 || i >= app->mark_count || !th_recorder_cut(&app->recorder, &app->marks[i].rec)) {
		say(app, "--record: cannot cut the recording back to frame %lld: it keeps the frames after it", app->lived.frames);
		return;
	}
	app->mark_count = (int)i + 1;
	/* the host's keys held now were pressed after the mark (F2 itself) */
	app->cut_ups = 0;
	for (int k = 0; k < app->live.key_count && app->cut_ups < 4; ++k) {
		const char *name = app->live.keys[k].name;
		if (!app->live.keys[k].down || th_action_for_key(name, false) == TH_ACT_NONE) continue;
		size_t len = strnlen(name, sizeof(app->cut_up[0]) - 1);
		memcpy(app->cut_up[app->cut_ups], name, len);
		app->cut_up[app->cut_ups++][len] = '\0';
	}
	/* the overlay's state as a replay of the cut file will have it */
	if (app->marks[i].overlay != app->overlay.visible) {
		th_event ev;
		memset(&ev, 0, sizeof(ev));
		ev.type = TH_EV_KEY_DOWN;
		snprintf(ev.name, sizeof(ev.name), "%s", th_action_info_of(TH_ACT_OVERLAY)->key);
		th_recorder_event(&app->recorder, &ev);
		ev.type = TH_EV_KEY_UP;
		th_recorder_event(&app->recorder, &ev);
	}
}

/* A fresh start of the level, with a fresh history (the kept moments are
 * gone: the caller dropped them before the level stopped). */
static bool start_level(th_app *app, const th_start_state *s)
{
	th_history_reset(&app->history, s);
	memset(&app->lived, 0, sizeof(app->lived));
	app->step_cost_ms = 0.0;
	app->reviewing = false;
	app->next_moment = 0;
	marks_reset(app);
	bool ok = th_level_start(&app->level, s);
	if (ok) keep_moment(app);
	return ok;
}

/* Logs an event and hands it to the level, unless the level is behind the
 * present (a rebuild stopped at an error): it gets it when it catches up. */
static void deliver(th_app *app, const th_event *ev)
{
	th_history_event(&app->history, ev);
	if (!behind(app)) th_level_apply(&app->level, ev);
}

/* An event of the host's making, for the level: recorded (a replay of the
 * file gives it too) and logged. */
static void give(th_app *app, const th_event *ev)
{
	th_recorder_event(&app->recorder, ev);
	deliver(app, ev);
}

static void reconcile_input(th_app *app)
{
	const th_input *had = &app->level.input, *now = &app->live;
	th_event ev;
	/* released since (a key up leaves its slot in place: the loop is safe) */
	for (int i = 0; i < had->key_count; ++i) {
		if (!had->keys[i].down || key_down(now, had->keys[i].name)) continue;
		memset(&ev, 0, sizeof(ev));
		ev.type = TH_EV_KEY_UP;
		snprintf(ev.name, sizeof(ev.name), "%s", had->keys[i].name);
		give(app, &ev);
	}
	/* held now (the host's keys are not the level's) */
	for (int i = 0; i < now->key_count; ++i) {
		const char *name = now->keys[i].name;
		if (!now->keys[i].down || key_down(had, name) || th_action_for_key(name, false) != TH_ACT_NONE) continue;
		memset(&ev, 0, sizeof(ev));
		ev.type = TH_EV_KEY_DOWN;
		snprintf(ev.name, sizeof(ev.name), "%s", name);
		give(app, &ev);
	}
	if (had->mouse_x != now->mouse_x || had->mouse_y != now->mouse_y) {
		memset(&ev, 0, sizeof(ev));
		ev.type = TH_EV_MOUSE_MOVE;
		ev.x = now->mouse_x;
		ev.y = now->mouse_y;
		ev.dx = now->mouse_x - had->mouse_x;
		ev.dy = now->mouse_y - had->mouse_y;
		give(app, &ev);
	}
	for (int b = 1; b < TH_MOUSE_BUTTONS; ++b) {
		if (!had->mouse_down[b] || now->mouse_down[b]) continue;
		memset(&ev, 0, sizeof(ev));
		ev.type = TH_EV_MOUSE_UP;
		ev.button = b;
		ev.x = now->mouse_x;
		ev.y = now->mouse_y;
		give(app, &ev);
	}
	if (had->pad_connected != now->pad_connected) {
		memset(&ev, 0, sizeof(ev));
		ev.type = TH_EV_PAD_CONNECT;
		ev.button = now->pad_connected;
		give(app, &ev);
	}
	for (int b = 0; b < TH_PAD_BUTTONS; ++b) {
		const char *name = SDL_GameControllerGetStringForButton((SDL_GameControllerButton)b);
		if (!had->pad_down[b] || now->pad_down[b] || name == NULL) continue;
		memset(&ev, 0, sizeof(ev));
		ev.type = TH_EV_PAD_UP;
		snprintf(ev.name, sizeof(ev.name), "%s", name);
		give(app, &ev);
	}
	for (int a = 0; a < TH_PAD_AXES; ++a) {
		const char *name = SDL_GameControllerGetStringForAxis((SDL_GameControllerAxis)a);
		if (had->pad_axis[a] == now->pad_axis[a] || name == NULL) continue;
		memset(&ev, 0, sizeof(ev));
		ev.type = TH_EV_PAD_AXIS;
		snprintf(ev.name, sizeof(ev.name), "%s", name);
		ev.value = now->pad_axis[a];
		give(app, &ev);
	}
}

/* The level from scratch, with the current input; the history starts over. */
static bool restart(th_app *app)
{
	th_level *lv = &app->level;
	th_start_state s = start_now(app);
	drop_moments(app, NULL);
	th_level_stop(lv);
	th_level_clear_error(lv);
	app->paused = false;
	app->single_steps = 0;
	return start_level(app, &s);
}

/* The new code runs from the level's start, and the history replays into it
 * up to the present (or up to the moment shown, when reviewing). Too long
 * (or no complete history): a restart. */
static void rebuild(th_app *app, const char *what)
{
	th_level *lv = &app->level;
	char n1[32], n2[32];
	long long target = app->history.total_steps;
	long long until = app->reviewing ? lv->frame : LLONG_MAX;
	double estimate = (double)(app->reviewing ? lv->frame : target) * app->step_cost_ms;
	if (app->history.full) {
		restart(app);
		say(app, "%s: the input history is full (%s frames): restarted instead", what, count_text(target, n1, sizeof(n1)));
		return;
	}
	if (estimate > REBUILD_BUDGET_MS) {
		restart(app);
		say(app, "%s: a rebuild would replay %s frames (~%.1f s): restarted instead", what,
		    count_text(target, n1, sizeof(n1)), estimate / 1000.0);
		return;
	}
	double t0 = th_now_ms();
	double cost = app->step_cost_ms;
	drop_moments(app, NULL);
	th_level_stop(lv);
	th_level_clear_error(lv);
	memset(&app->lived, 0, sizeof(app->lived));
	/* load runs again as part of the replay: tumble.replaying, no sound */
	lv->replaying = app->media.muted = true;
	bool started = th_level_start(lv, &app->history.start);
	lv->replaying = app->media.muted = false;
	/* the window and the layers stay as the author set them */
	lv->conf_changed = false;
	if (!started) {
		app->reviewing = false;
		say(app, "%s: rebuilt, and the level failed to start (see the error)", what);
		return;
	}
	keep_moment(app);
	catch_up_end end = replay(app, until, true, t0, REBUILD_BUDGET_MS);
	app->reviewing = behind(app) && !lv->faulted && until != LLONG_MAX;
	char took[32];
	time_text(th_now_ms() - t0, took, sizeof(took));
	app->step_cost_ms = cost;
	if (end == OUT_OF_TIME) {
		long long done = lv->frame;
		restart(app);
		say(app, "%s: the rebuild took over %.0f s (%s of %s frames): restarted instead", what,
		    REBUILD_BUDGET_MS / 1000.0, count_text(done, n1, sizeof(n1)), count_text(target, n2, sizeof(n2)));
	} else if (lv->faulted) {
		say(app, "%s: rebuilt, and the level stopped with an error at frame %s of %s", what,
		    count_text(lv->frame, n1, sizeof(n1)), count_text(target, n2, sizeof(n2)));
	} else {
		say(app, "%s: rebuilt, replayed %s frames in %s", what, count_text(lv->frame, n1, sizeof(n1)), took);
	}
}

static void reload(th_app *app)
{
	th_level *lv = &app->level;
	char n1[32], n2[32], took[32];
	bool was_ok = lv->ok, was_faulted = lv->faulted;
	/* a fix saved while halted goes on from the newest moment before the error */
	const th_history_snap *before = error_moment(app);
	th_history_snap moment = before != NULL ? *before : (th_history_snap){0};
	switch (th_level_reload(lv)) {
	case TH_RELOAD_FAILED:
		/* the error says it, once */
		th_overlay_notice(&app->overlay, "reload failed: the last good code keeps running");
		break;
	case TH_RELOAD_FUNCTIONS: {
		double t0 = th_now_ms();
		if (was_faulted && before != NULL && restore_moment(app, &moment)) {
			/* the fixed code from that moment on, with the input logged since */
			drop_moments(app, &app->lived);
			catch_up_end end = catch_up(app, t0, REBUILD_BUDGET_MS);
			if (end == OUT_OF_TIME) truncate_timeline(app);
			say(app, "functions changed: reloaded, went back to frame %s (before the error) and replayed on to frame %s%s in %s",
			    count_text(moment.step, n1, sizeof(n1)), count_text(lv->frame, n2, sizeof(n2)),
			    end == OUT_OF_TIME ? " (out of time, the rest dropped)" : "", time_text(th_now_ms() - t0, took, sizeof(took)));
		} else if (was_faulted && behind(app) && !lv->faulted) {
			/* nothing kept before the error: on from where it stopped */
			catch_up_end end = catch_up(app, t0, REBUILD_BUDGET_MS);
			if (end == OUT_OF_TIME) {
				truncate_timeline(app);
				say(app, "functions changed: reloaded, caught up to frame %s (out of time, the rest dropped)",
				    count_text(lv->frame, n1, sizeof(n1)));
			} else {
				say(app, "functions changed: reloaded, replayed on to frame %s in %s", count_text(lv->frame, n1, sizeof(n1)),
				    time_text(th_now_ms() - t0, took, sizeof(took)));
			}
		} else if (app->reviewing) {
			/* the moments after the one shown were lived by the old code */
			drop_moments(app, &app->lived);
			say(app, "functions changed: reloaded at frame %s (on the timeline: the future replays with the new code)",
			    count_text(lv->frame, n1, sizeof(n1)));
		} else {
			say(app, "functions changed: reloaded at frame %s, world kept", count_text(lv->frame, n1, sizeof(n1)));
		}
		th_level_reloaded(lv);
		break;
	}
	case TH_RELOAD_REBUILD: rebuild(app, was_ok ? "load() changed" : "the level's files changed"); break;
	}
}

/* ---------------- actions ---------------- */

static void run_action(th_app *app, th_action act)
{
	th_level *lv = &app->level;
	if (th_action_is_layer(act)) {
		int layer = act - TH_ACT_LAYER_SHAPES;
		app->render.layers[layer] = !app->render.layers[layer];
		return;
	}
	if (th_action_is_setting(act)) {
		if (app->reviewing) return; /* the past is shown, not changed */
		th_event ev;
		memset(&ev, 0, sizeof(ev));
		ev.type = TH_EV_SETTING;
		ev.button = act;
		deliver(app, &ev);
		return;
	}
	switch (act) {
	case TH_ACT_QUIT: app->quit = true; break;
	case TH_ACT_OVERLAY: app->overlay.visible = !app->overlay.visible; break;
	case TH_ACT_PAUSE:
		if (lv->faulted) {
			/* the first way on after an error; with nothing kept, carry on
			 * where it stopped (what a stopped rebuild had not replayed yet
			 * will not be lived) */
			if (!rewind_error(app)) {
				th_level_resume(lv);
				truncate_timeline(app);
				drop_moments(app, &app->lived);
			}
		} else if (app->reviewing) {
			resume_here(app);
		} else {
			app->paused = !app->paused;
		}
		break;
	case TH_ACT_STEP:
		if (app->reviewing) {
			seek(app, lv->frame + 1);
		} else {
			app->paused = true;
			app->single_steps += 1;
		}
		break;
	case TH_ACT_SLOWMO: app->slowmo = (app->slowmo + 1) % TH_TIME_SCALE_COUNT; break;
	case TH_ACT_RESTART:
		if (restart(app)) fprintf(stderr, "tumble: restarted the level\n");
		break;
	case TH_ACT_FULLSCREEN:
		/* a replay's view size is fixed: it does not go fullscreen */
		if (app->opt.replay_path == NULL) app->toggle_fullscreen = !app->toggle_fullscreen;
		break;
	case TH_ACT_BACK: seek(app, lv->frame - TH_REWIND_INTERVAL); break;
	case TH_ACT_FORWARD: seek(app, lv->frame + TH_REWIND_INTERVAL); break;
	case TH_ACT_OLDEST: seek(app, LLONG_MIN); break;
	case TH_ACT_PRESENT: seek(app, LLONG_MAX); break;
	case TH_ACT_STEP_BACK: seek(app, lv->frame - 1); break;
	case TH_ACT_SEEK: seek(app, app->seek_to); break;
	default: break;
	}
}

/* ---------------- events ---------------- */

static void overlay_view(th_app *app, th_overlay_view *v)
{
	th_level *lv = &app->level;
	const th_history *h = &app->history;
	th_level_stats stats;
	th_level_stats_get(lv, &stats);
	memset(v, 0, sizeof(*v));
	v->frame = lv->frame;
	v->headless = app->opt.headless;
	v->paused = app->paused;
	v->faulted = lv->faulted;
	v->time_scale = th_time_scales[app->slowmo];
	v->has_world = stats.has_world;
	v->def = stats.def;
	v->layers = app->render.layers;
	v->lua_mb = (double)lv->sandbox.used / (1024.0 * 1024.0);
	v->history_mb = (double)(th_history_bytes(h) + h->snap_bytes) / (1024.0 * 1024.0);
	v->history_full = h->full;
	v->error = lv->error;
	v->reload_error = lv->reload_error;
	v->level_dir = app->level_dir;
	v->mouse_x = lv->input.mouse_x;
	v->mouse_y = lv->input.mouse_y;
	v->view_w = lv->camera.view_w;
	v->view_h = lv->camera.view_h;
	v->render = &app->render;
	v->rewind_on = rewind_on(app);
	v->reviewing = app->reviewing;
	/* not merely with the overlay open: the level's own text at the bottom stays readable while it runs */
	v->timeline = v->rewind_on && (app->paused || app->reviewing || lv->faulted);
	const th_history_snap *oldest = th_history_snap_oldest(h);
	v->tl_first = oldest != NULL ? oldest->step : 0;
	v->tl_end = behind(app) ? h->total_steps : lv->frame;
	v->snaps = h->snaps;
	v->snap_count = h->snap_count;
	v->snap_bytes = h->snap_bytes;
	v->rewind_note = app->rewind_note;
	const th_history_snap *em = error_moment(app);
	v->error_moment = em != NULL ? em->step : -1;
}

/* An event of the frame (live or replayed): recorded, then an action of the
 * host's or the level's. While the level shows an earlier moment it gets no
 * input at all; the timeline and the host's keys still work. */
/* True if ev releases a host key whose press a cut took out of the recording. */
static bool cut_release(th_app *app, const th_event *ev)
{
	if (ev->type != TH_EV_KEY_UP) return false;
	for (int i = 0; i < app->cut_ups; ++i) {
		if (strcmp(app->cut_up[i], ev->name) != 0) continue;
		memmove(app->cut_up[i], app->cut_up[i + 1], (size_t)(app->cut_ups - i - 1) * sizeof(app->cut_up[0]));
		app->cut_ups -= 1;
		return true;
	}
	return false;
}

static void handle_event(th_app *app, const th_event *ev)
{
	if (!cut_release(app, ev)) th_recorder_event(&app->recorder, ev);
	/* the input as it is now, for a resume from an earlier moment */
	th_input_apply(&app->live, ev);
	th_input_end_step(&app->live);
	th_event e = *ev;
	switch (ev->type) {
	case TH_EV_KEY_DOWN:
	case TH_EV_KEY_UP: {
		th_action act = th_action_for_key(ev->name, app->reviewing);
		if (act != TH_ACT_NONE) {
			if (ev->type == TH_EV_KEY_DOWN) run_action(app, act);
			return;
		}
		break;
	}
	case TH_EV_MOUSE_DOWN:
		if (ev->button == 1) {
			th_overlay_view v;
			overlay_view(app, &v);
			long long step;
			if (th_overlay_timeline_at(&v, ev->x, ev->y, false, &step)) {
				app->scrubbing = true;
				app->seek_to = step;
				run_action(app, TH_ACT_SEEK);
				return;
			}
			th_action choice = th_overlay_error_click(&app->overlay, &v, ev->x, ev->y);
			if (choice != TH_ACT_NONE) {
				run_action(app, choice);
				return;
			}
			if (app->overlay.visible) {
				bool taken = false;
				th_action act = th_overlay_click(&app->overlay, &v, ev->x, ev->y, &taken);
				/* the level sees the pointer move either way */
				e.flags |= taken ? TH_EVF_TAKEN : TH_EVF_DRAG;
				if (!app->reviewing) deliver(app, &e);
				if (act != TH_ACT_NONE) run_action(app, act);
				return;
			}
		}
		break;
	case TH_EV_MOUSE_MOVE:
		if (app->scrubbing) {
			th_overlay_view v;
			overlay_view(app, &v);
			long long step;
			if (th_overlay_timeline_at(&v, ev->x, ev->y, true, &step) && step != app->level.frame) {
				app->seek_to = step;
				run_action(app, TH_ACT_SEEK);
			}
			return;
		}
		break;
	case TH_EV_MOUSE_UP:
		if (app->scrubbing && ev->button == 1) {
			app->scrubbing = false;
			return;
		}
		break;
	case TH_EV_QUIT: app->quit = true; return;
	case TH_EV_SETTING: return; /* never from outside */
	default: break;
	}
	if (app->reviewing) return;
	deliver(app, &e);
}
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

/* What level.conf asks of the app: the draw layers, and of the view: title,
 * size, fullscreen, resizable. The command line wins (--size), and a replay
 * keeps its recorded view. Headless, the size change goes through the event
 * path, so a recording holds it. */
static void apply_conf(th_app *app)
{
	th_level *lv = &app->level;
	const th_level_conf *c = &lv->conf;
	const th_app_options *o = &app->opt;
	SDL_Window *window = app->window;
	lv->conf_changed = false;
	if (!c->present) return;
	for (int i = 0; i < TH_LAYER_COUNT; ++i) {
		if (c->layer_set[i]) app->render.layers[i] = c->layers[i];
	}
	bool replaying = o->replay_path != NULL;
	int w = c->width > 0 ? c->width : lv->camera.view_w;
	int hh = c->height > 0 ? c->height : lv->camera.view_h;
	bool resize = !o->size_set && (c->width > 0 || c->height > 0);
	if (window == NULL) {
		if (resize) {
			th_event ev;
			memset(&ev, 0, sizeof(ev));
			ev.type = TH_EV_RESIZE;
			ev.x = w;
			ev.y = hh;
			handle_event(app, &ev);
		}
		return;
	}
	if (c->title[0] != '\0') SDL_SetWindowTitle(window, c->title);
	if (replaying) return;
	SDL_SetWindowResizable(window, c->resizable ? SDL_TRUE : SDL_FALSE);
	if (resize && (SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN) == 0) SDL_SetWindowSize(window, w, hh);
	if (c->fullscreen) {
		SDL_SetWindowFullscreen(window, SDL_WINDOW_FULLSCREEN_DESKTOP);
		app->toggle_fullscreen = false;
	}
}

static void toggle_fullscreen(th_app *app)
{
	app->toggle_fullscreen = false;
	if (app->window == NULL) return;
	bool full = (SDL_GetWindowFlags(app->window) & SDL_WINDOW_FULLSCREEN) != 0;
	if (SDL_SetWindowFullscreen(app->window, full ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP) != 0) {
		fprintf(stderr, "tumble: cannot switch fullscreen: %s\n", SDL_GetError());
	}
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

static bool resolve_level(th_app *app)
{
	const th_app_options *o = &app->opt;
	const char *path = o->level_path;
	char fallback[PATH_MAX + 64];
	if (path == NULL && !o->builtin_demo && app->root != NULL) {
		snprintf(fallback, sizeof(fallback), "%s/examples/forcefield.lua", app->root);
		if (is_file(fallback)) path = fallback;
	}
	if (path == NULL || o->builtin_demo) return true; /* the built-in demo */
	char resolved[PATH_MAX];
	if (!is_file(path) || realpath(path, resolved) == NULL) {
		const char *why = is_dir(path) ? "is a directory" : access(path, R_OK) != 0 ? strerror(errno) : "not a file";
		fprintf(stderr, "tumble: cannot open level '%s': %s\n", path, why);
		return false;
	}
	app->level_path = strdup(resolved);
	app->level_dir = strdup(resolved);
	if (app->level_path == NULL || app->level_dir == NULL) return false;
	char *slash = strrchr(app->level_dir, '/');
	if (slash != NULL) *slash = '\0';
	return true;
}

/* The screenshot's folder must exist and be writable: say so at once, not
 * after the whole run. */
static bool screenshot_writable(const char *path)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash == NULL) {
		snprintf(dir, sizeof(dir), ".");
	} else if (slash == dir) {
		dir[1] = '\0';
	} else {
		*slash = '\0';
	}
	if (!is_dir(dir) || access(dir, W_OK) != 0) {
		fprintf(stderr, "tumble: cannot write screenshot %s: %s\n", path,
		        !is_dir(dir) ? "no such folder" : strerror(errno));
		return false;
	}
	return true;
}

/* ---------------- drawing ---------------- */

/* The frame: the world (interpolated by alpha), the level's sprites and
 * drawing, then the overlay and the error panel. */
static void compose(th_app *app, th_target *t, float alpha)
{
	th_level *lv = &app->level;
	th_render_begin(&app->render, t, &lv->camera, alpha);
	th_render_shapes(&app->render, t, lv->world, lv->frame);
	th_level_draw_sprites(lv, t);
	th_render_debug(&app->render, t, lv->world, lv->frame);
	th_render_end(&app->render);
	th_level_draw(lv, t);
	th_overlay_view v;
	overlay_view(app, &v);
	th_overlay_draw(&app->overlay, &v, t);
	th_overlay_draw_error(&app->overlay, &v, t);
}

static bool screenshot(th_app *app, const char *path, float alpha)
{
	th_level *lv = &app->level;
	SDL_Surface *surface =
		SDL_CreateRGBSurfaceWithFormat(0, lv->camera.view_w, lv->camera.view_h, 32, SDL_PIXELFORMAT_ARGB8888);
	bool ok = false;
	if (surface != NULL) {
		th_target t;
		if (th_target_init_surface(&t, surface)) {
			compose(app, &t, alpha);
			SDL_RenderPresent(t.renderer);
			if (app->shot_file != NULL) {
				const char *format = th_picture_format(path);
				ok = (format != NULL && format[0] == 'B' ? SDL_SaveBMP_RW(surface, app->shot_file, 0)
				                                         : IMG_SavePNG_RW(surface, app->shot_file, 0)) == 0;
			} else {
				ok = th_picture_save(surface, path);
			}
			th_target_free(&t);
		}
		SDL_FreeSurface(surface);
	}
	if (!ok) fprintf(stderr, "tumble: cannot write screenshot %s: %s\n", path, SDL_GetError());
	app->shot_taken = true;
	app->shot_failed = !ok;
	return ok;
}

static void print_summary(th_app *app, double seconds)
{
	th_level *lv = &app->level;
	tb_counters c = {0};
	uint64_t hash = 0;
	if (lv->world != NULL) {
		c = tb_world_get_counters(lv->world);
		hash = tb_world_hash(lv->world);
	}
	printf("frames=%lld steps=%lld bodies=%d time=%.3fs hash=%016llx\n", app->render_frame, lv->frame, c.body_count,
	       seconds, (unsigned long long)hash);
	fflush(stdout);
}

static int compare_ms(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_ms(th_stat *st)
{
	if (st->count == 0) return 0.0;
	qsort(st->ms, (size_t)st->count, sizeof(double), compare_ms);
	return st->ms[st->count / 2];
}

static double max_ms(const th_stat *st)
{
	return st->count > 0 ? st->ms[st->count - 1] : 0.0; /* sorted by median_ms */
}

/* --rewind-stats: what keeping and using the moments cost. */
static void print_rewind_stats(th_app *app)
{
	const th_history *h = &app->history;
	double cap = median_ms(&app->capture_stats), res = median_ms(&app->restore_stats), sk = median_ms(&app->seek_stats);
	printf("rewind moments=%d bytes=%zu each=%zu captures=%d capture_ms=%.4f capture_max_ms=%.4f restores=%d "
	       "restore_ms=%.4f seeks=%d seek_ms=%.4f\n",
	       h->snap_count, h->snap_bytes, h->snap_count > 0 ? h->snap_bytes / (size_t)h->snap_count : 0,
	       app->capture_stats.count, cap, max_ms(&app->capture_stats), app->restore_stats.count, res,
	       app->seek_stats.count, sk);
	fflush(stdout);
}

/* ---------------- open ---------------- */

/* Everything before the first frame; false with app->fatal_status set. */
static bool open_app(th_app *app, const th_app_options *options)
{
	th_app_options *opt = &app->opt;
	*opt = *options;
	th_render_init(&app->render);
	th_overlay_init(&app->overlay, opt->overlay);
	th_watch_init(&app->watch);
	th_media_init(&app->media, opt->sandbox);
	th_history_init(&app->history, HISTORY_LIMIT_BYTES);
	th_level_init(&app->level);
	app->root = find_root();
	app->watch_enabled = opt->watch < 0 ? !opt->headless : opt->watch > 0;
	app->fatal_status = 2;
	if (opt->screenshot != NULL && th_picture_format(opt->screenshot) == NULL) {
		fprintf(stderr, "tumble: --screenshot writes PNG (FILE.png) or BMP (FILE.bmp), not '%s'\n", opt->screenshot);
		return false;
	}
	if (opt->screenshot != NULL && !screenshot_writable(opt->screenshot)) return false;
	if (!resolve_level(app)) return false;

	bool headless = opt->headless;
	app->frames = opt->frames > 0 ? opt->frames : (headless ? 600 : 0);
	int view_w = opt->width, view_h = opt->height;
	if (opt->replay_path != NULL) {
		if (!th_replay_open(&app->replay, opt->replay_path, &view_w, &view_h)) {
			fprintf(stderr, "tumble: %s\n", app->replay.error);
			return false;
		}
		/* rewind keeps what it kept when the session was recorded */
		if (app->replay.has_rewind) {
			opt->rewind_seconds = app->replay.rewind_seconds;
			opt->rewind_mb = app->replay.rewind_mb;
		}
		app->replaying = true;
	}

	/* Headless needs no SDL subsystem at all: the software renderer draws into
	 * a plain surface. Without a display, a run that asked for a screenshot
	 * gets it that way instead of failing. */
	if (opt->sandbox) th_oslock_prepare();
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
			if (opt->frames <= 0) app->frames = 600;
			if (opt->watch < 0) app->watch_enabled = false;
		}
	}
	if (SDL_Init(headless ? 0 : SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "tumble: SDL_Init failed: %s%s\n", SDL_GetError(),
		        headless ? "" : " (no display? --headless runs without one)");
		return false;
	}
	app->sdl = true;
	if (!headless) {
		/* With no display SDL falls back to its offscreen driver: a window nobody
		 * can see, running flat out. Say so instead, unless asked for explicitly. */
		const char *driver = SDL_GetCurrentVideoDriver();
		if (driver != NULL && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0) &&
		    SDL_getenv("SDL_VIDEODRIVER") == NULL) {
			fprintf(stderr, "tumble: no display to open a window on (use --headless, or xvfb-run)\n");
			return false;
		}
		if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) {
			fprintf(stderr, "tumble: no gamepad support: %s\n", SDL_GetError());
		}
		char title[PATH_MAX + 32];
		const char *base = app->level_path != NULL ? strrchr(app->level_path, '/') + 1 : "built-in demo";
		snprintf(title, sizeof(title), "tumble - %s", base);
		/* no ALLOW_HIGHDPI: mouse coordinates and render pixels must agree */
		Uint32 flags = SDL_WINDOW_SHOWN;
		if (opt->replay_path == NULL) flags |= SDL_WINDOW_RESIZABLE;
		app->window =
			SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, view_w, view_h, flags);
		if (app->window == NULL || !th_target_init_window(&app->target, app->window)) {
			fprintf(stderr, "tumble: cannot open a window: %s (use --headless without a display)\n", SDL_GetError());
			return false;
		}
		SDL_RendererInfo info;
		if (SDL_GetRendererInfo(app->target.renderer, &info) == 0) {
			app->vsync = (info.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
		}
		if (opt->replay_path == NULL) {
			view_w = app->target.width;
			view_h = app->target.height;
		}
	}
	th_app_options defaults;
	th_app_default_options(&defaults);
	bool rewind_line = opt->rewind_seconds != defaults.rewind_seconds || opt->rewind_mb != defaults.rewind_mb;
	if (opt->record_path != NULL && !th_recorder_open(&app->recorder, opt->record_path, view_w, view_h, rewind_line,
	                                                     opt->rewind_seconds, opt->rewind_mb)) {
		fprintf(stderr, "tumble: cannot write %s: %s\n", opt->record_path, strerror(errno));
		return false;
	}

	/* The window is open: lock the process before the level's first line. */
	if (opt->sandbox) {
		if (opt->screenshot != NULL && (app->shot_file = SDL_RWFromFile(opt->screenshot, "wb")) == NULL) {
			fprintf(stderr, "tumble: cannot write screenshot %s: %s\n", opt->screenshot, SDL_GetError());
			return false;
		}
		char lib[PATH_MAX + 8];
		snprintf(lib, sizeof(lib), "%s/lua", app->root != NULL ? app->root : "");
		const char *dirs[] = {app->level_dir, app->root != NULL ? lib : NULL};
		th_oslock_apply(dirs, 2);
	}

	/* the moments: one every half second for the seconds asked, in the
	 * memory asked (at most half the Lua cap, which holds them too) */
	double rewind_bytes = opt->rewind_mb * 1024.0 * 1024.0;
	if (opt->mem_limit_mb > 0 && rewind_bytes > opt->mem_limit_mb * 1024.0 * 1024.0 / 2) {
		rewind_bytes = opt->mem_limit_mb * 1024.0 * 1024.0 / 2;
	}
	int moments = (int)ceil(opt->rewind_seconds * TH_HOST_HZ / TH_REWIND_INTERVAL) + 1;
	th_history_snap_limits(&app->history, moments, (size_t)rewind_bytes);
	th_input_reset(&app->live, view_w / 2, view_h / 2, false);

	th_level *lv = &app->level;
	lv->opt = opt;
	lv->root = app->root;
	lv->level_path = app->level_path;
	lv->level_dir = app->level_dir;
	lv->render = &app->render;
	lv->media = &app->media;
	lv->watch = &app->watch;
	/* a headless run that keeps going reports errors and runs on */
	lv->halt_on_error = !(headless && opt->keep_going);
	app->started = th_now_ms();
	th_start_state s = {view_w / 2, view_h / 2, false, view_w, view_h};
	if (!start_level(app, &s) && headless) fail(app, 1);
	app->last = app->next_poll = th_now_ms();
	return true;
}

th_app *th_app_open(const th_app_options *options, int *status)
{
	th_app *app = calloc(1, sizeof(*app));
	if (app == NULL) {
		fprintf(stderr, "tumble: out of memory\n");
		*status = 2;
		return NULL;
	}
	if (!open_app(app, options)) {
		fail(app, 2);
		*status = th_app_close(app);
		return NULL;
	}
	*status = 0;
	return app;
}

/* ---------------- a frame ---------------- */

static bool over(const th_app *app)
{
	return app->quit || app->fatal || app->level.exit_requested ||
	       (app->frames > 0 && app->render_frame >= app->frames);
}

/* The frame's input: SDL's queue, then the recording's events; returns the
 * steps the recording ran in this frame, or -1 to let the clock decide. */
static int take_input(th_app *app)
{
	if (app->window != NULL) {
		SDL_Event e;
		while (SDL_PollEvent(&e)) {
			th_event ev;
			if (!translate(&e, &ev, &app->pad, app->target.renderer)) continue;
			if (ev.type == TH_EV_RESIZE) {
				app->target.width = ev.x;
				app->target.height = ev.y;
			}
			if (app->replaying) {
				/* while replaying, live input only closes the window */
				if (ev.type == TH_EV_QUIT) app->quit = true;
				continue;
			}
			handle_event(app, &ev);
		}
	}
	while (app->replaying) {
		th_event ev;
		int steps = 0;
		switch (th_replay_next(&app->replay, &ev, &steps)) {
		case TH_REPLAY_EVENT: handle_event(app, &ev); break;
		case TH_REPLAY_FRAME: return steps;
		case TH_REPLAY_END: app->replaying = false; break;
		case TH_REPLAY_ERROR:
			fprintf(stderr, "tumble: %s\n", app->replay.error);
			app->replaying = false;
			fail(app, 2);
			break;
		}
	}
	return -1;
}

/* Headless, an error ends the run, unless the files are watched: then the
 * level halts as in a window, and a fix saved meanwhile goes on (a run that
 * ends halted still fails). */
static bool halts_run(const th_app *app)
{
	return app->opt.headless && app->level.faulted && !app->watch_enabled;
}

/* Steps the clock asks for (at most TH_HOST_MAX_CATCH_UP), and the
 * interpolation factor of the frame drawn after them. */
static int clock_steps(th_app *app, double frame_ms, float *alpha)
{
	th_level *lv = &app->level;
	int steps = 0;
	*alpha = 1.0f;
	if (app->opt.headless && !app->opt.realtime) {
		steps = 1;
	} else {
		/* Real time drives the accumulator; a frame longer than 1/4 s is
		 * treated as a hitch, not as time to catch up on. */
		double dt = fmin(frame_ms / 1000.0, 0.25);
		app->acc += dt * th_time_scales[app->slowmo];
		while (app->acc >= TH_HOST_DT && steps < TH_HOST_MAX_CATCH_UP) {
			app->acc -= TH_HOST_DT;
			steps += 1;
		}
		if (app->acc >= TH_HOST_DT) app->acc = fmod(app->acc, TH_HOST_DT);
		*alpha = (float)(app->acc / TH_HOST_DT);
	}
	if (app->paused || lv->faulted) {
		steps = 0;
		app->acc = 0.0;
		*alpha = 1.0f;
		if (app->single_steps > 0 && !lv->faulted) {
			app->single_steps -= 1;
			steps = 1;
		}
	}
	return steps;
}

bool th_app_frame(th_app *app)
{
	th_level *lv = &app->level;
	const th_app_options *opt = &app->opt;
	if (over(app)) return false;
	double now = th_now_ms();
	double frame_ms = now - app->last;
	app->last = now;
	th_overlay_frame_time(&app->overlay, frame_ms);
	th_level_begin_frame(lv);
	if (lv->conf_changed) apply_conf(app);
	if (app->toggle_fullscreen) toggle_fullscreen(app);

	int steps = take_input(app);
	float alpha = 1.0f;
	if (steps < 0) steps = clock_steps(app, frame_ms, &alpha);
	/* an earlier moment is shown, not lived on (a recording's frames too) */
	if (app->reviewing) steps = 0;
	int ran = 0;
	for (; ran < steps && !app->quit && !app->fatal && !lv->exit_requested && lv->L != NULL && !lv->faulted; ++ran) {
		th_level_step(lv);
		th_level_stats stats;
		th_level_stats_get(lv, &stats);
		th_overlay_after_step(&app->overlay, &stats.profile, &stats.counters, stats.dispatch_ms, lv->update_ms,
		                      lv->step_ms);
		double cost = lv->update_ms + lv->step_ms;
		app->step_cost_ms = app->step_cost_ms > 0.0 ? 0.95 * app->step_cost_ms + 0.05 * cost : cost;
	}
	th_recorder_frame(&app->recorder, ran);
	if (!app->reviewing) {
		bool lived = !behind(app);
		th_history_end_frame(&app->history, ran);
		mark_frame(app);
		/* the level lived this frame: it is at the end of its history */
		if (lived) {
			app->lived = th_history_end(&app->history);
			keep_moment(app);
		}
	}
	if (halts_run(app)) fail(app, 1);

	if (app->watch_enabled && !app->fatal) {
		double t = th_now_ms();
		if (opt->watch_poll_ms <= 0 || t >= app->next_poll) {
			app->next_poll = t + opt->watch_poll_ms;
			th_image_poll(lv);
			if (th_watch_poll(&app->watch)) reload(app);
			if (halts_run(app)) fail(app, 1);
		}
	}

	app->render_frame += 1;
	bool last_frame = app->frames > 0 && app->render_frame == app->frames;
	bool shoot = opt->screenshot != NULL && !app->shot_taken &&
	             (app->render_frame == opt->screenshot_frame || (opt->screenshot_frame < 0 && last_frame));
	if (app->window != NULL) {
		compose(app, &app->target, alpha);
		SDL_RenderPresent(app->target.renderer);
	} else if (!shoot && !app->fatal) {
		/* no picture, but draw still runs so its errors surface headless too */
		th_level_draw(lv, NULL);
	}
	if (shoot) screenshot(app, opt->screenshot, alpha);
	if (halts_run(app)) fail(app, 1);
	return !over(app);
}

/* Without vsync, pace at 60 Hz; with it, still never spin faster than 300 Hz
 * (some drivers claim vsync and do not wait). */
static void pace(th_app *app)
{
	if (app->window == NULL && !(app->opt.headless && app->opt.realtime)) return;
	double period = app->window != NULL && app->vsync ? 1000.0 / 300.0 : 1000.0 / TH_HOST_HZ;
	double left = app->last + period - th_now_ms();
	if (left > 1.0) SDL_Delay((Uint32)left);
}

/* ---------------- close ---------------- */

int th_app_close(th_app *app)
{
	if (app == NULL) return 2;
	th_level *lv = &app->level;
	const th_app_options *opt = &app->opt;
	bool ran = app->started > 0.0;
	if (ran && opt->screenshot != NULL && !app->shot_taken && lv->L != NULL) screenshot(app, opt->screenshot, 1.0f);
	double seconds = ran ? (th_now_ms() - app->started) / 1000.0 : 0.0;

	int status = 0;
	if (app->fatal) {
		status = app->fatal_status;
	} else if (lv->exit_requested) {
		status = lv->exit_code;
		if (lv->exit_message != NULL) {
			FILE *out = status == 0 ? stdout : stderr;
			if (opt->sandbox) th_sandbox_clean_text(lv->exit_message, strlen(lv->exit_message));
			fprintf(out, "%s\n", lv->exit_message);
			fflush(out);
		}
	}
	/* a screenshot asked for and not written is a failed run */
	if (status == 0 && app->shot_failed) status = 1;
	/* a headless run that watched its files and ended halted failed */
	if (status == 0 && opt->headless && lv->faulted) status = 1;
	/* scripted runs (headless, or a window with --frames) report how they ended */
	if (ran && (opt->headless || opt->frames > 0) && !opt->quiet && !app->fatal) print_summary(app, seconds);
	if (ran && opt->rewind_stats) print_rewind_stats(app);
	drop_moments(app, NULL);
	free(app->rewind_note);
	free(app->capture_stats.ms);
	free(app->restore_stats.ms);
	free(app->seek_stats.ms);
	free(app->marks);

	th_recorder_close(&app->recorder);
	th_replay_close(&app->replay);
	if (app->shot_file != NULL) SDL_RWclose(app->shot_file);
	th_level_free(lv);
	th_history_free(&app->history);
	th_render_free(&app->render);
	th_watch_free(&app->watch);
	th_target_free(&app->target);
	th_media_close(&app->media);
	if (app->pad != NULL) SDL_GameControllerClose(app->pad);
	if (app->window != NULL) SDL_DestroyWindow(app->window);
	if (app->sdl) SDL_Quit();
	free(app->root);
	free(app->level_path);
	free(app->level_dir);
	free(app);
	return status;
}

int th_app_run(const th_app_options *options)
{
	int status = 0;
	th_app *app = th_app_open(options, &status);
	if (app == NULL) return status;
	while (th_app_frame(app)) pace(app);
	return th_app_close(app);
}
