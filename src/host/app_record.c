/* tumble host: --record follows the timeline. Where the file stood at the
 * end of each history frame is noted, so that when the level goes on from an
 * earlier moment the file is cut back to that frame and a replay of it is
 * the run as lived (record.c reads and writes the file itself). */
#include "app_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool recording(const th_app *app)
{
	return app->recorder.file != NULL;
}

/* Notes where the recording stands at the end of history frame total_frames
 * (a level start: frame 0). Older marks than any moment a resume can reach go. */
void th_app_mark_frame(th_app *app)
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

void th_app_marks_reset(th_app *app)
{
	app->mark_count = 0;
	app->marks_first = app->history.total_frames;
	th_app_mark_frame(app);
}

/* The level goes on from the history's position lived: the history after it
 * is dropped, and so is what the recording holds after that frame (the
 * frames not lived now, and the looking back on the timeline). */
void th_app_truncate_timeline(th_app *app)
{
	th_history_truncate(&app->history, &app->lived);
	if (!recording(app)) return;
	if (app->edit.edited_while_reviewing) {
		/* edit mode changed the level while looking back: the clicks that
		 * did it stay in the file (a replay looks back and edits the same),
		 * and later cuts reach back to here only */
		app->edit.edited_while_reviewing = false;
		th_app_marks_reset(app);
		return;
	}
	long long i = app->lived.frames - app->marks_first;
	if (i < 0 || i >= app->mark_count || !th_recorder_cut(&app->recorder, &app->marks[i].rec)) {
		th_app_say(app, "--record: cannot cut the recording back to frame %lld: it keeps the frames after it", app->lived.frames);
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

/* True if ev releases a host key whose press a cut took out of the recording. */
bool th_app_cut_release(th_app *app, const th_event *ev)
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
