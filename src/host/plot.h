/* tumble host: plots. tumble.plot(name, value) records one value of a named
 * series for the frame being run; the values of the last TH_PLOT_FRAMES frames
 * are kept by frame number (so a rewound timeline finds the values of the
 * frame it shows), and --plot-csv writes every lived frame's row. */
#ifndef TH_PLOT_H
#define TH_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#define TH_PLOT_MAX_SERIES 16
#define TH_PLOT_NAME_MAX 64
#define TH_PLOT_FRAMES 1024 /* about 17 s at 60 Hz */

struct th_level;
struct lua_State;

typedef struct th_plot {
	int count;
	char names[TH_PLOT_MAX_SERIES][TH_PLOT_NAME_MAX + 1];
	double pending[TH_PLOT_MAX_SERIES]; /* this frame's values, NaN = none */
	long long ring_frame[TH_PLOT_FRAMES]; /* which frame a ring row holds, -1 = none */
	double ring[TH_PLOT_FRAMES][TH_PLOT_MAX_SERIES];
	/* --plot-csv: rows of doubles by frame in a scratch file, written out as
	 * text at the end (when every series' name is known for the header) */
	FILE *rows;
	FILE *csv;
	long long rows_end; /* frames [0, rows_end) are in rows */
} th_plot;

void th_plot_init(th_plot *p);
/* Records value for series name in the frame being run. NULL, or why not (a
 * sentence for an error: too many series, a name too long or with a comma,
 * quote or control character, a value that is not finite). This is the entry
 * point for anything else that plots (the inspector's "plot this"). */
const char *th_plot_value(th_plot *p, const char *name, size_t name_len, double value);
/* The frame's values are complete: keep them under frame; a frame that is
 * lived (not replayed) also goes to --plot-csv, cutting it back to frame. */
void th_plot_end_frame(th_plot *p, long long frame, bool replaying);
/* Series i's value at frame, false if it has none (or the frame is gone). */
bool th_plot_at(const th_plot *p, int series, long long frame, double *out);
/* Opens path for --plot-csv (a regular file or a new one); false with errno. */
bool th_plot_open_csv(th_plot *p, const char *path);
/* Writes and closes the CSV; false if writing failed. */
bool th_plot_close_csv(th_plot *p);
struct th_target;
/* The strip chart of the frames up to newest (TH_PLOT_FRAMES at most) in the
 * box whose bottom right corner is (right, bottom): a line per series scaled
 * to its own range, its name and value at the shown frame, and a cursor at the
 * shown frame when it is not the newest (the timeline dragged back). */
void th_plot_draw(const th_plot *p, struct th_target *t, long long shown, long long newest, int right, int bottom);
/* tumble.plot on the tumble table at the top of L's stack. */
void th_plot_open_lua(struct th_level *lv, struct lua_State *L);

#endif
