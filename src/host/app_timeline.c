/* tumble host: the timeline. The level's history (every event and step
 * since it started, history.h) and the moments kept along it (a snapshot of
 * the level every TH_REWIND_INTERVAL steps): replaying the history to catch
 * up, seeking back and forth, and going on from an earlier moment, or from
 * before an error. */
#include "app_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool th_app_behind(const th_app *app)
{
	return app->lived.frames < app->history.total_frames;
}

bool th_app_rewind_on(const th_app *app)
{
	return app->opt.rewind_seconds > 0.0;
}

/* Takes kept moments off the history and frees them: all of them (before the
 * level stops: what they hold lives in its Lua state), or those after pos (a
 * future that will not be lived, or was lived by other code). */
void th_app_drop_moments(th_app *app, const th_history_pos *after)
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
		if (app->rewind_note != NULL) th_app_say(app, "rewind: moments are kept again from frame %lld", app->level.frame);
		free(app->rewind_note);
		app->rewind_note = NULL;
		return;
	}
	if (app->rewind_note == NULL || strcmp(app->rewind_note, message) != 0) th_app_say(app, "rewind: %s", message);
	free(app->rewind_note);
	app->rewind_note = message;
}

/* Keeps a moment of the level at the end of a frame it lived (live or
 * replayed), one every TH_REWIND_INTERVAL steps; the oldest go past the
 * limits. A level.state that cannot be kept is said once, and tried again
 * half a second later. */
void th_app_keep_moment(th_app *app)
{
	th_level *lv = &app->level;
	th_history *h = &app->history;
	if (!th_app_rewind_on(app) || lv->faulted || !lv->ok || lv->L == NULL || h->full || lv->frame < app->next_moment) return;
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
	th_app_stat_add(&app->capture_stats, th_now_ms() - t0);
}

/* Re-runs the history's frames the level has not lived yet, fast and without
 * drawing, keeping moments on the way, until it is at step `until` (the
 * first frame's end at or after it; before: the last at or before it) or
 * has caught up with the present, or faults, asks to exit, or the budget
 * runs out. */
catch_up_end th_app_replay(th_app *app, long long until, bool before, double started, double budget_ms)
{
	th_level *lv = &app->level;
	catch_up_end end = CAUGHT_UP;
	th_level_set_replaying(lv, true);
	app->media.muted = true;
	while (th_app_behind(app)) {
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
		th_app_keep_moment(app);
	}
	app->media.muted = false;
	th_level_set_replaying(lv, false);
	th_sound_resync(lv);
	return end;
}

catch_up_end th_app_catch_up(th_app *app, double started, double budget_ms)
{
	return th_app_replay(app, LLONG_MAX, false, started, budget_ms);
}

/* Puts the level back at a kept moment (its position in the history too). */
bool th_app_restore_moment(th_app *app, const th_history_snap *s)
{
	th_level *lv = &app->level;
	double t0 = th_now_ms();
	th_history_snap at = *s;
	if (!th_level_restore(lv, at.moment)) return false;
	th_level_resume(lv);
	app->lived = at.pos;
	th_app_stat_add(&app->restore_stats, th_now_ms() - t0);
	return true;
}

/* Shows the level at step target of its history, clamped to the kept moments
 * and the present: back to the newest kept moment at or before it (unless
 * where the level stands is on the way), then the frames from there replayed
 * without drawing. The run stands still there: paused, and reviewing until
 * it is at the present again. False if nothing is kept to go back to. */
bool th_app_seek(th_app *app, long long target)
{
	th_level *lv = &app->level;
	th_history *h = &app->history;
	if (!th_app_rewind_on(app) || h->full || lv->L == NULL || h->snap_count == 0) return false;
	if (target > h->total_steps) target = h->total_steps;
	if (!app->reviewing && !lv->faulted && !th_app_behind(app) && target >= lv->frame) return true; /* at the present */
	double t0 = th_now_ms();
	bool before = target < lv->frame;
	const th_history_snap *s = th_history_snap_find(h, target, NULL);
	if (s == NULL) {
		s = th_history_snap_oldest(h);
		target = s->step;
	}
	bool on_the_way = !lv->faulted && lv->frame <= target && lv->frame >= s->step && app->lived.frames >= s->pos.frames;
	if (!on_the_way && !th_app_restore_moment(app, s)) return false;
	app->paused = true;
	app->single_steps = 0;
	th_app_replay(app, target, before, t0, REBUILD_BUDGET_MS);
	app->reviewing = th_app_behind(app) && !lv->faulted;
	th_app_stat_add(&app->seek_stats, th_now_ms() - t0);
	return true;
}

/* Logs an event and hands it to the level, unless the level is behind the
 * present (a rebuild stopped at an error): it gets it when it catches up. */
void th_app_deliver(th_app *app, const th_event *ev)
{
	th_history_event(&app->history, ev);
	if (!th_app_behind(app)) th_level_apply(&app->level, ev);
}

/* An event of the host's making, for the level: recorded (a replay of the
 * file gives it too) and logged. */
static void give(th_app *app, const th_event *ev)
{
	th_recorder_event(&app->recorder, ev);
	th_app_deliver(app, ev);
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

/* The level goes on from the moment it shows: the history after it, and the
 * moments kept there, are dropped; new input makes a new future. */
void th_app_resume_here(th_app *app)
{
	th_level *lv = &app->level;
	char n1[32], n2[32];
	long long dropped = app->history.total_steps - lv->frame;
	th_app_truncate_timeline(app);
	th_app_drop_moments(app, &app->lived);
	app->reviewing = false;
	app->scrubbing = false;
	app->paused = false;
	reconcile_input(app);
	th_app_say(app, "rewound to frame %s: going on from there (the %s steps after it dropped)",
	    th_app_count_text(lv->frame, n1, sizeof(n1)), th_app_count_text(dropped, n2, sizeof(n2)));
}

/* Halted by an error: the newest kept moment before it, or NULL. */
const th_history_snap *th_app_error_moment(const th_app *app)
{
	if (!app->level.faulted || !th_app_rewind_on(app)) return NULL;
	return th_history_snap_find(&app->history, app->level.frame, &app->lived);
}

/* After an error, the first way on: back to the newest moment before it, the
 * history after that dropped, and on with the code as it is. */
bool th_app_rewind_error(th_app *app)
{
	th_level *lv = &app->level;
	const th_history_snap *s = th_app_error_moment(app);
	if (s == NULL) return false;
	long long error_at = lv->frame;
	char n1[32], n2[32];
	if (!th_app_restore_moment(app, s)) return false;
	th_app_truncate_timeline(app);
	th_app_drop_moments(app, &app->lived);
	app->reviewing = false;
	app->scrubbing = false;
	app->paused = false;
	reconcile_input(app);
	th_app_say(app, "rewound to frame %s, before the error at frame %s: going on", th_app_count_text(lv->frame, n1, sizeof(n1)),
	    th_app_count_text(error_at, n2, sizeof(n2)));
	return true;
}

/* A fresh start of the level, with a fresh history (the kept moments are
 * gone: the caller dropped them before the level stopped). */
bool th_app_start_level(th_app *app, const th_start_state *s)
{
	th_history_reset(&app->history, s);
	memset(&app->lived, 0, sizeof(app->lived));
	app->step_cost_ms = 0.0;
	app->reviewing = false;
	app->next_moment = 0;
	th_app_marks_reset(app);
	bool ok = th_level_start(&app->level, s);
	if (ok) th_app_keep_moment(app);
	return ok;
}
