/* tumble host: input recordings on disk (--record, --replay).
 *
 * The file is text: a header ("tumble-input 1", "view W H", "rewind SECONDS
 * MB"), then one event per line in the order the host handled them,
 * with an "F steps [count]" line closing each rendered frame (runs of
 * identical empty frames share one line). A key is "kd NAME" / "ku NAME", or
 * with its scancode "ksd SC NAME" / "ksu SC NAME", and "ksr SC NAME" for the
 * keyboard's auto-repeat; a finger "td ID X Y", "tm ID X Y DX DY", "tu ID X Y". Replaying feeds the same events to
 * the same handler and runs the same number of steps per frame, so pausing,
 * single steps and slow motion replay exactly too.
 *
 * A recording is untrusted input: every number is checked (finite, in range),
 * a frame runs at most TH_REPLAY_MAX_STEPS steps, and a line that is not
 * understood stops the replay with a message naming it. */
#ifndef TH_HOST_RECORD_H
#define TH_HOST_RECORD_H

#include <stdbool.h>
#include <stdio.h>

#include "camera.h"
#include "event.h"

/* No live frame runs more steps than this (the loop's catch-up limit). */
#define TH_REPLAY_MAX_STEPS 4
/* View sizes a recording may ask for (as --size and level.conf allow: camera.h). */
#define TH_VIEW_MAX TH_VIEW_MAX_SIDE

typedef struct th_recorder {
	FILE *file;
	int run, run_steps; /* empty frames not written yet */
} th_recorder;

/* The header holds the view's size and, when rewind_line, how much rewind
 * keeps (the defaults are not written): the host's keys are recorded like any
 * other, so a replay of a session that looked back on its timeline and
 * returned to the present rewinds where the session did, from the same kept
 * moments. */
bool th_recorder_open(th_recorder *r, const char *path, int view_w, int view_h, bool rewind_line,
                      double rewind_seconds, double rewind_mb);
void th_recorder_event(th_recorder *r, const th_event *ev);
/* Closes the frame that ran steps fixed steps. */
void th_recorder_frame(th_recorder *r, int steps);

/* Where the recording stands (between frames), and cutting it back there: a
 * session that goes on from an earlier moment drops what it recorded after
 * it (the frames it will not live, and the looking back), so the file holds
 * the timeline that was lived and replays to the same world. */
typedef struct th_recorder_mark {
	long offset;
	int run, run_steps;
} th_recorder_mark;
th_recorder_mark th_recorder_mark_now(const th_recorder *r);
/* False (the file as it was) if it cannot be cut. */
bool th_recorder_cut(th_recorder *r, const th_recorder_mark *m);
void th_recorder_close(th_recorder *r);

typedef enum th_replay_item {
	TH_REPLAY_EVENT, /* *ev holds the frame's next event */
	TH_REPLAY_FRAME, /* the frame ends: *steps fixed steps run now */
	TH_REPLAY_END,   /* the recording is over */
	TH_REPLAY_ERROR, /* a line is not understood: see error */
} th_replay_item;

typedef struct th_replay {
	FILE *file;
	int line;
	int run_left, run_steps;
	bool over;
	bool has_rewind;           /* the header gave rewind's settings */
	double rewind_seconds, rewind_mb;
	char error[256];
} th_replay;

/* Opens a recording and reads its header (view, rewind: each optional); false
 * with error set if it cannot. */
bool th_replay_open(th_replay *r, const char *path, int *view_w, int *view_h);
th_replay_item th_replay_next(th_replay *r, th_event *ev, int *steps);
void th_replay_close(th_replay *r);

#endif
