/* tumble host: the timeline. The level's history (every event and step
 * since it started, history.h) and the moments kept along it (a snapshot of
 * the level every TH_REWIND_INTERVAL steps): replaying the history to catch
 * up, seeking back and forth, and going on from an earlier moment, or from
 * before an error. */
#include "app_internal.h"

#include <limits.h>
#include <lauxlib.h>
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

/* ---------------- the code's versions ---------------- */

/* The level's code for the frames after `frames` history frames: the newest
 * version kept at or before that place, or LUA_NOREF. */
static int code_at(const th_app *app, long long frames)
{
	for (int i = app->code_count - 1; i >= 0; --i) {
		const th_app_code *c = &app->codes[i];
		if (c->frames <= frames && c->ref != LUA_NOREF) return c->ref;
	}
	return LUA_NOREF;
}

static void code_remove(th_app *app, int i, bool free_ref)
{
	th_app_code *c = &app->codes[i];
	if (free_ref && c->ref != LUA_NOREF) {
		th_level_code_free(&app->level, c->run, c->ref);
		if (c->ref == app->code_used) app->code_used = LUA_NOREF;
	}
	memmove(c, c + 1, (size_t)(app->code_count - i - 1) * sizeof(*c));
	app->code_count -= 1;
}

/* Puts c in its place (after those at the same place); false if out of memory. */
static bool code_insert(th_app *app, th_app_code c)
{
	if (app->code_count == app->code_capacity) {
		int capacity = app->code_capacity != 0 ? 2 * app->code_capacity : 8;
		th_app_code *p = realloc(app->codes, (size_t)capacity * sizeof(*p));
		if (p == NULL) return false;
		app->codes = p;
		app->code_capacity = capacity;
	}
	int i = app->code_count;
	while (i > 0 && app->codes[i - 1].frames > c.frames) i -= 1;
	memmove(app->codes + i + 1, app->codes + i, (size_t)(app->code_count - i) * sizeof(c));
	app->codes[i] = c;
	app->code_count += 1;
	return true;
}

/* Frees the versions no replay can reach: those before the one in effect at
 * the oldest kept moment (or where the level stands, if earlier). */
static void code_prune(th_app *app)
{
	const th_history_snap *o = th_history_snap_oldest(&app->history);
	long long from = o != NULL && o->pos.frames < app->lived.frames ? o->pos.frames : app->lived.frames;
	int k = -1;
	for (int i = 0; i < app->code_count; ++i) {
		if (app->codes[i].frames <= from && app->codes[i].ref != LUA_NOREF) k = i;
	}
	for (int i = 0; i < k; ++i) code_remove(app, 0, true);
}

/* Past TH_CODE_VERSIONS_MAX versions, the moments only the oldest version
 * could replay go, then that version. */
static void code_cap(th_app *app)
{
	int count = 0, second = -1;
	for (int i = 0; i < app->code_count; ++i) {
		if (app->codes[i].ref == LUA_NOREF) continue;
		if (++count == 2) second = i;
	}
	if (count <= TH_CODE_VERSIONS_MAX || second < 0) return;
	th_history *h = &app->history;
	th_history_snap s;
	int dropped = 0;
	while (th_history_snap_oldest(h) != NULL && th_history_snap_oldest(h)->pos.frames < app->codes[second].frames &&
	       th_history_snap_pop_oldest(h, &s)) {
		th_level_moment_free(&app->level, s.moment);
		dropped += 1;
	}
	code_prune(app);
	bool say = dropped > 0 && !app->code_capped;
	app->code_capped = app->code_capped || dropped > 0;
	if (say)
		th_app_say(app, "rewind: the code of the last %d edits is kept; the moments before them are dropped (said once)",
		           TH_CODE_VERSIONS_MAX - 1);
}

void th_app_code_sync(th_app *app, long long frames)
{
	int ref = code_at(app, frames);
	if (ref == LUA_NOREF || ref == app->code_used) return;
	th_level_code_use(&app->level, ref);
	app->code_used = ref;
}

void th_app_code_started(th_app *app, bool rebuild, long long rebuilt_frames, long long rebuilt_step)
{
	/* the references lived in the Lua state before this one: gone */
	int keep = 0;
	for (int i = 0; i < app->code_count; ++i) {
		if (!rebuild || !app->codes[i].edit) continue;
		app->codes[keep] = app->codes[i];
		app->codes[keep].ref = LUA_NOREF;
		keep += 1;
	}
	app->code_count = keep;
	if (!rebuild) app->code_capped = false;
	if (rebuild && rebuilt_frames >= 0) code_insert(app, (th_app_code){rebuilt_frames, rebuilt_step, 0, LUA_NOREF, true});
	int ref = th_level_code_take(&app->level);
	app->code_used = ref;
	if (ref == LUA_NOREF) return;
	if (!code_insert(app, (th_app_code){0, 0, app->level.run, ref, false})) th_level_code_free(&app->level, app->level.run, ref);
}

void th_app_code_edited(th_app *app, long long frames, long long step)
{
	int ref = th_level_code_take(&app->level);
	/* what ran after that place is not this timeline's any more */
	while (app->code_count > 0 && app->codes[app->code_count - 1].frames > frames) code_remove(app, app->code_count - 1, true);
	/* a version at the same place never ran a frame: this one replaces it */
	for (int i = app->code_count - 1; i > 0 && app->codes[i].frames == frames; --i) {
		if (app->codes[i].ref != LUA_NOREF && ref != LUA_NOREF) code_remove(app, i, true);
	}
	if (!code_insert(app, (th_app_code){frames, step, app->level.run, ref, true})) {
		if (ref != LUA_NOREF) th_level_code_free(&app->level, app->level.run, ref);
		return;
	}
	/* the reload left it in the level */
	if (ref != LUA_NOREF) app->code_used = ref;
	code_cap(app);
}

/* The level goes on from where it stands with today's code: the edits of
 * the dropped future go, and today's code takes over here (a tick, unless
 * it is what ran here anyway). */
static void code_go_on(th_app *app)
{
	int today = LUA_NOREF;
	for (int i = app->code_count - 1; i >= 0 && today == LUA_NOREF; --i) today = app->codes[i].ref;
	if (today == LUA_NOREF) return;
	long long at = app->lived.frames;
	while (app->code_count > 0 && app->codes[app->code_count - 1].frames > at)
		code_remove(app, app->code_count - 1, app->codes[app->code_count - 1].ref != today);
	if (code_at(app, at) != today) code_insert(app, (th_app_code){at, app->level.frame, app->level.run, today, true});
	th_app_code_sync(app, at);
}

void th_app_code_free(th_app *app)
{
	/* the references go with the Lua state */
	free(app->codes);
	app->codes = NULL;
	app->code_count = app->code_capacity = 0;
	app->code_used = LUA_NOREF;
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
	bool popped = false;
	while (th_history_snap_over(h) && th_history_snap_pop_oldest(h, &old)) {
		th_level_moment_free(lv, old.moment);
		popped = true;
	}
	if (popped) code_prune(app);
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
		/* the code that ran these frames (an edit since may have changed it) */
		th_app_code_sync(app, app->lived.frames);
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
	th_app_code_sync(app, app->lived.frames);
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
	/* the code that ran on from there: an edit since is replayed where it was made */
	th_app_code_sync(app, at.pos.frames);
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
	code_go_on(app);
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
	code_go_on(app);
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
	th_app_code_started(app, false, -1, -1);
	if (ok) th_app_keep_moment(app);
	return ok;
}
