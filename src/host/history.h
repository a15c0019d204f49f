/* tumble host: the history of the running level. Since the level started it
 * holds, in memory, every event the level was given (and every change the
 * dev tools made to its world), in order, and how many fixed steps each
 * rendered frame ran. Determinism makes that enough to re-create any moment:
 * a fresh level given the same start, events and steps arrives at the same
 * world. A rebuild replays all of it into new code; rewind restores a kept
 * moment of the level (a snapshot taken every half second or so, paired with
 * its position in this history) and replays from there.
 *
 * Empty frames that ran the same steps share one record. The history stops
 * growing at its byte limit and says so (th_history.full): from then on it
 * can no longer re-create the present, and a rebuild becomes a restart.
 *
 * The kept moments are a bounded list, oldest first: a count (the seconds
 * kept) and bytes (what they hold). The history only accounts for them; what
 * a moment holds is the level's (level.h), and the app frees the ones it
 * takes off the list. */
#ifndef TH_HOST_HISTORY_H
#define TH_HOST_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "event.h"

typedef struct th_history_frame {
	int first_event, event_count; /* into th_history.events */
	int steps;                    /* fixed steps the frame ran */
	int repeat;                   /* identical frames in a row (no events) */
} th_history_frame;

/* How far into a history a replay has come. */
typedef struct th_history_pos {
	int frame;         /* index into frames */
	int repeat;        /* repeats of frames[frame] already done */
	long long frames;  /* frames done in all */
	long long steps;   /* steps done in all */
} th_history_pos;

struct th_moment; /* the level's copy of itself at a moment (level.h) */

/* A kept moment: where it is in the history, and what it holds. */
typedef struct th_history_snap {
	long long step;          /* the level's fixed steps then (tumble.frame) */
	th_history_pos pos;      /* the history's position then (a frame's end) */
	size_t bytes;
	struct th_moment *moment;
} th_history_snap;

typedef struct th_history {
	th_start_state start;
	th_event *events;
	int event_count, event_capacity;
	th_history_frame *frames;
	int frame_count, frame_capacity;
	int open_first;          /* first event of the frame being logged */
	long long total_frames;  /* closed frames, repeats counted */
	long long total_steps;
	size_t limit;            /* bytes the arrays may take */
	bool full;
	/* the kept moments, oldest first */
	th_history_snap *snaps;
	int snap_count, snap_capacity;
	int snap_max;            /* how many may be kept */
	size_t snap_bytes;       /* what they hold */
	size_t snap_limit;       /* ... and may hold */
} th_history;

void th_history_init(th_history *h, size_t limit);
void th_history_free(th_history *h);
/* Forgets everything: a level starts. */
void th_history_reset(th_history *h, const th_start_state *start);
void th_history_event(th_history *h, const th_event *ev);
/* Closes the frame being logged: its events ran, then steps fixed steps. */
void th_history_end_frame(th_history *h, int steps);
/* The position after the last frame logged so far. */
th_history_pos th_history_end(const th_history *h);
/* The next frame after pos (advanced): its events and steps; false at the end. */
bool th_history_next(const th_history *h, th_history_pos *pos, const th_event **events, int *count, int *steps);
/* Drops every frame after pos (what a level that stopped there never lived). */
void th_history_truncate(th_history *h, const th_history_pos *pos);
size_t th_history_bytes(const th_history *h);

/* The kept moments. Reset and free expect none (the app takes them off
 * first: it frees what they hold). */
void th_history_snap_limits(th_history *h, int max_count, size_t max_bytes);
/* Keeps s after the newest (s->step and s->pos are not before it); false if
 * the list cannot grow (the caller still owns s->moment). */
bool th_history_snap_push(th_history *h, const th_history_snap *s);
/* More than the limits allow: the app drops the oldest until not. */
bool th_history_snap_over(const th_history *h);
/* Takes the oldest (newest) moment off the list into *out; false if none. */
bool th_history_snap_pop_oldest(th_history *h, th_history_snap *out);
bool th_history_snap_pop_newest(th_history *h, th_history_snap *out);
/* The newest kept moment at or before step (and not after the position
 * limit, if given); NULL if none. */
const th_history_snap *th_history_snap_find(const th_history *h, long long step, const th_history_pos *limit);
const th_history_snap *th_history_snap_newest(const th_history *h);
const th_history_snap *th_history_snap_oldest(const th_history *h);

#endif
