/* tumble host: the level's code changed on disk, or F5 asked for a restart.
 * Changed functions are swapped in and the world stays (after an error, from
 * the newest moment kept before it); a change to what load builds rebuilds
 * the level and replays its history into the new code, within a budget, or
 * restarts it. */
#include "app_internal.h"

#include <limits.h>
#include <string.h>

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

/* The level from scratch, with the current input; the history starts over. */
bool th_app_restart(th_app *app)
{
	th_level *lv = &app->level;
	th_start_state s = start_now(app);
	th_app_drop_moments(app, NULL);
	th_level_stop(lv);
	th_level_clear_error(lv);
	app->paused = false;
	app->single_steps = 0;
	return th_app_start_level(app, &s);
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
		th_app_restart(app);
		th_app_say(app, "%s: the input history is full (%s frames): restarted instead", what, th_app_count_text(target, n1, sizeof(n1)));
		return;
	}
	if (estimate > REBUILD_BUDGET_MS) {
		th_app_restart(app);
		th_app_say(app, "%s: a rebuild would replay %s frames (~%.1f s): restarted instead", what,
		    th_app_count_text(target, n1, sizeof(n1)), estimate / 1000.0);
		return;
	}
	double t0 = th_now_ms();
	double cost = app->step_cost_ms;
	long long edit_frames = app->lived.frames, edit_step = lv->frame;
	th_app_drop_moments(app, NULL);
	th_level_stop(lv);
	th_level_clear_error(lv);
	memset(&app->lived, 0, sizeof(app->lived));
	/* load runs again as part of the replay: tumble.replaying, no sound */
	lv->sandbox.held_lines = app->media.held_sounds = 0;
	lv->replaying = lv->sandbox.holding = app->media.muted = true;
	bool started = th_level_start(lv, &app->history.start);
	/* the new code replays all of the history: the edit is a tick only */
	th_app_code_started(app, true, edit_frames, edit_step);
	lv->replaying = lv->sandbox.holding = app->media.muted = false;
	/* the window and the layers stay as the author set them */
	lv->conf_changed = false;
	if (!started) {
		app->reviewing = false;
		th_app_say(app, "%s: rebuilt, and the level failed to start (see the error)", what);
		return;
	}
	th_app_keep_moment(app);
	catch_up_end end = th_app_replay(app, until, true, t0, REBUILD_BUDGET_MS);
	char held[96] = "";
	long long lines = lv->sandbox.held_lines, sounds = app->media.held_sounds;
	if (lines > 0 && sounds > 0)
		snprintf(held, sizeof(held), " (%lld line%s of print and %lld sound%s held back while replaying)", lines,
		         lines == 1 ? "" : "s", sounds, sounds == 1 ? "" : "s");
	else if (lines > 0 || sounds > 0)
		snprintf(held, sizeof(held), " (%lld %s held back while replaying)", lines > 0 ? lines : sounds,
		         lines > 0 ? (lines == 1 ? "line of print" : "lines of print") : (sounds == 1 ? "sound" : "sounds"));
	app->reviewing = th_app_behind(app) && !lv->faulted && until != LLONG_MAX;
	char took[32];
	th_app_time_text(th_now_ms() - t0, took, sizeof(took));
	app->step_cost_ms = cost;
	if (end == OUT_OF_TIME) {
		long long done = lv->frame;
		th_app_restart(app);
		th_app_say(app, "%s: the rebuild took over %.0f s (%s of %s frames): restarted instead", what,
		    REBUILD_BUDGET_MS / 1000.0, th_app_count_text(done, n1, sizeof(n1)), th_app_count_text(target, n2, sizeof(n2)));
	} else if (lv->faulted) {
		th_app_say(app, "%s: rebuilt, and the level stopped with an error at frame %s of %s", what,
		    th_app_count_text(lv->frame, n1, sizeof(n1)), th_app_count_text(target, n2, sizeof(n2)));
	} else {
		th_app_say(app, "%s: rebuilt, replayed %s frames in %s%s", what, th_app_count_text(lv->frame, n1, sizeof(n1)), took,
		    held);
	}
}

void th_app_reload(th_app *app)
{
	th_level *lv = &app->level;
	char n1[32], n2[32], took[32];
	bool was_ok = lv->ok, was_faulted = lv->faulted;
	/* a fix saved while halted goes on from the newest moment before the error */
	const th_history_snap *before = th_app_error_moment(app);
	th_history_snap moment = before != NULL ? *before : (th_history_snap){0};
	switch (th_level_reload(lv)) {
	case TH_RELOAD_FAILED:
		/* the error says it, once */
		th_overlay_notice(&app->overlay, "reload failed: the last good code keeps running");
		break;
	case TH_RELOAD_FUNCTIONS: {
		double t0 = th_now_ms();
		/* the new code runs from where the level goes on: the moment before
		 * the error, or where it stands; replays before that run the old */
		if (was_faulted && before != NULL) {
			th_app_code_edited(app, moment.pos.frames, moment.step);
		} else {
			th_app_code_edited(app, app->lived.frames, lv->frame);
		}
		if (was_faulted && before != NULL && th_app_restore_moment(app, &moment)) {
			/* the fixed code from that moment on, with the input logged since */
			th_app_drop_moments(app, &app->lived);
			catch_up_end end = th_app_catch_up(app, t0, REBUILD_BUDGET_MS);
			if (end == OUT_OF_TIME) th_app_truncate_timeline(app);
			th_app_say(app, "functions changed: reloaded, went back to frame %s (before the error) and replayed on to frame %s%s in %s",
			    th_app_count_text(moment.step, n1, sizeof(n1)), th_app_count_text(lv->frame, n2, sizeof(n2)),
			    end == OUT_OF_TIME ? " (out of time, the rest dropped)" : "", th_app_time_text(th_now_ms() - t0, took, sizeof(took)));
		} else if (was_faulted && th_app_behind(app) && !lv->faulted) {
			/* nothing kept before the error: on from where it stopped */
			catch_up_end end = th_app_catch_up(app, t0, REBUILD_BUDGET_MS);
			if (end == OUT_OF_TIME) {
				th_app_truncate_timeline(app);
				th_app_say(app, "functions changed: reloaded, caught up to frame %s (out of time, the rest dropped)",
				    th_app_count_text(lv->frame, n1, sizeof(n1)));
			} else {
				th_app_say(app, "functions changed: reloaded, replayed on to frame %s in %s", th_app_count_text(lv->frame, n1, sizeof(n1)),
				    th_app_time_text(th_now_ms() - t0, took, sizeof(took)));
			}
		} else if (app->reviewing) {
			/* the moments after the one shown were lived by the old code */
			th_app_drop_moments(app, &app->lived);
			th_app_say(app, "functions changed: reloaded at frame %s (on the timeline: the future replays with the new code)",
			    th_app_count_text(lv->frame, n1, sizeof(n1)));
		} else {
			th_app_say(app, "functions changed: reloaded at frame %s, world kept", th_app_count_text(lv->frame, n1, sizeof(n1)));
		}
		th_level_reloaded(lv);
		break;
	}
	case TH_RELOAD_REBUILD:
		rebuild(app, was_ok ? "load() changed" : "the level's files changed");
		th_app_edit_source_rebuilt(app);
		break;
	}
}
