/* tumble host: the run's options (the command line, or the browser's page).
 * The app copies them; the level reads them (limits, sandbox, headless). */
#ifndef TH_HOST_OPTIONS_H
#define TH_HOST_OPTIONS_H

#include <stdbool.h>

typedef struct th_app_options {
	const char *level_path;   /* NULL: the default level */
	bool builtin_demo;        /* run the demo scene embedded in the binary */
	bool headless;            /* no window, no video driver */
	long frames;              /* frames to run; 0 = until the window closes (headless: 600) */
	const char *screenshot;   /* PNG or BMP file written from an offscreen render */
	long screenshot_frame;    /* frame after which it is taken; -1 = after the last */
	const char *record_path;  /* input events written per frame */
	const char *plot_csv;     /* tumble.plot series written per frame */
	const char *replay_path;  /* input events read per frame */
	bool sandbox;             /* untrusted level: no io/os/debug/C modules, limits */
	double mem_limit_mb;      /* Lua heap cap, 0 = none (sandbox default 256) */
	long long instr_limit;    /* VM instructions per callback, 0 = none */
	double time_limit;        /* wall-clock seconds per callback, 0 = none (default 1) */
	double output_limit_mb;   /* what print may write per level start, 0 = none (sandbox default 16) */
	int watch;                /* hot reload: -1 default (on with a window), 0 off, 1 on */
	int watch_poll_ms;        /* mtime polling period; 0 = every frame */
	bool keep_going;          /* headless: report Lua errors but do not stop */
	bool realtime;            /* headless: pace frames at 60 Hz wall-clock time */
	bool overlay;             /* start with the dev overlay open */
	bool quiet;               /* headless: no summary line */
	int width, height;        /* window or offscreen view size */
	bool size_set;            /* --size given: it wins over level.conf */
	double rewind_seconds;    /* how far back the timeline reaches; 0 = no rewind */
	double rewind_mb;         /* what the kept moments may hold */
	bool rewind_stats;        /* scripted runs: a line of rewind's costs at the end */
	/* edit mode wrote the level's file (an edit, an undo or a redo): the
	 * browser's page reads it back into its text area; NULL natively */
	void (*source_written)(const char *path);
} th_app_options;

void th_app_default_options(th_app_options *options);

#endif
