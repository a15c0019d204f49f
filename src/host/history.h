/* tumble host: the history of the running level. Since the level started it
 * holds, in memory, every event the level was given (and every change the
 * dev tools made to its world), in order, and how many fixed steps each
 * rendered frame ran. Determinism makes that enough to re-create any moment:
 * a fresh level given the same start, events and steps arrives at the same
 * world. A rebuild replays all of it into new code; rewind will replay from a
 * snapshot (one kept with a position in this history).
 *
 * Empty frames that ran the same steps share one record. The history stops
 * growing at its byte limit and says so (th_history.full): from then on it
 * can no longer re-create the present, and a rebuild becomes a restart. */
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
} th_history;

/* How far into a history a replay has come. */
typedef struct th_history_pos {
	int frame;         /* index into frames */
	int repeat;        /* repeats of frames[frame] already done */
	long long frames;  /* frames done in all */
	long long steps;   /* steps done in all */
} th_history_pos;

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

#endif
