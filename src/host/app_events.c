/* tumble host: the frame's events, live or replayed. Each is recorded, then
 * it is one of the host's actions (its keys, a click on the overlay or on
 * the timeline) or it goes to the level. */
#include "app_internal.h"

#include <limits.h>
#include <string.h>

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
		th_app_deliver(app, &ev);
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
			if (!th_app_rewind_error(app)) {
				th_level_resume(lv);
				th_app_truncate_timeline(app);
				th_app_drop_moments(app, &app->lived);
			}
		} else if (app->reviewing) {
			th_app_resume_here(app);
		} else {
			app->paused = !app->paused;
		}
		break;
	case TH_ACT_STEP:
		if (app->reviewing) {
			th_app_seek(app, lv->frame + 1);
		} else {
			app->paused = true;
			app->single_steps += 1;
		}
		break;
	case TH_ACT_SLOWMO: app->slowmo = (app->slowmo + 1) % TH_TIME_SCALE_COUNT; break;
	case TH_ACT_RESTART:
		if (th_app_restart(app)) fprintf(stderr, "tumble: restarted the level\n");
		break;
	case TH_ACT_FULLSCREEN:
		/* a replay's view size is fixed: it does not go fullscreen */
		if (app->opt.replay_path == NULL) app->toggle_fullscreen = !app->toggle_fullscreen;
		break;
	case TH_ACT_BACK: th_app_seek(app, lv->frame - TH_REWIND_INTERVAL); break;
	case TH_ACT_FORWARD: th_app_seek(app, lv->frame + TH_REWIND_INTERVAL); break;
	case TH_ACT_OLDEST: th_app_seek(app, LLONG_MIN); break;
	case TH_ACT_PRESENT: th_app_seek(app, LLONG_MAX); break;
	case TH_ACT_STEP_BACK: th_app_seek(app, lv->frame - 1); break;
	case TH_ACT_SEEK: th_app_seek(app, app->seek_to); break;
	default: break;
	}
}

/* The level can take keys now: it runs, with no error shown. */
static bool level_listens(const th_app *app)
{
	const th_level *lv = &app->level;
	return lv->ok && !lv->faulted && lv->L != NULL;
}

void th_app_keys_in_force(th_app *app)
{
	th_action_use_keys(level_listens(app) ? &app->level.conf.keys : NULL);
}

/* A key's auto-repeat is the level's alone, and only when it asked for it
 * and holds the key (the press was its own): it never fires an action of the
 * host's or edit mode's. One that is not the level's is dropped before it is
 * recorded; the answer depends only on the level's state, so a replay of the
 * recording gives the same one. */
static bool repeat_wanted(th_app *app, const th_event *ev)
{
	const th_input *in = &app->level.input;
	if (!level_listens(app) || app->reviewing || app->edit.on || !in->key_repeat) return false;
	if (th_action_for_key(ev->name, false) != TH_ACT_NONE) return false;
	for (int i = 0; i < in->key_count; ++i) {
		if (in->keys[i].down && strcmp(in->keys[i].name, ev->name) == 0) return true;
	}
	return false;
}

/* An event of the frame (live or replayed): recorded, then an action of the
 * host's or the level's. While the level shows an earlier moment it gets no
 * input at all; the timeline and the host's keys still work. */
void th_app_handle_event(th_app *app, const th_event *ev)
{
	/* the level's keys while it listens; the host's own while it cannot, so
	 * that an error's choices (F2, Escape) always answer */
	th_app_keys_in_force(app);
	if (ev->type == TH_EV_KEY_DOWN && (ev->flags & TH_EVF_REPEAT)) {
		if (!repeat_wanted(app, ev)) return;
		th_recorder_event(&app->recorder, ev);
		th_app_deliver(app, ev);
		return;
	}
	if (!th_app_cut_release(app, ev)) th_recorder_event(&app->recorder, ev);
	/* the input as it is now, for a resume from an earlier moment */
	th_input_apply(&app->live, ev);
	th_input_end_step(&app->live);
	if (th_app_edit_event(app, ev)) return;
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
			th_app_overlay_view(app, &v);
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
				if (!app->reviewing) th_app_deliver(app, &e);
				if (act != TH_ACT_NONE) run_action(app, act);
				return;
			}
		}
		break;
	case TH_EV_MOUSE_MOVE:
		if (app->scrubbing) {
			th_overlay_view v;
			th_app_overlay_view(app, &v);
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
	case TH_EV_TOUCH_DOWN:
	case TH_EV_TOUCH_UP:
	case TH_EV_TOUCH_MOVE:
		if (app->edit.on) return; /* edit mode has the pointer */
		break;
	case TH_EV_QUIT: app->quit = true; return;
	case TH_EV_SETTING:
	case TH_EV_EDIT: return; /* never from outside */
	default: break;
	}
	if (app->reviewing) return;
	th_app_deliver(app, &e);
}
