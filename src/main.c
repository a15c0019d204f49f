/* tumble: the command line. Parses the options and hands over to the host. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <SDL.h>
#include <lua.h>

#include "host/app.h"
#include "host/camera.h"
#include "host/package.h"
#include "host/watchdog.h"
#include "tumble/tumble_lua.h"

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: tumble [options] [level.lua]\n"
	        "       tumble --package GAME OUT\n"
	        "\n"
	        "Runs a tumble level: a Lua module returning callbacks (load, update, draw,\n"
	        "keypressed, ...). Without a level, the default level (examples/forcefield.lua)\n"
	        "or the built-in demo runs.\n"
	        "\n"
	        "options:\n"
	        "  -h, --help               show this help\n"
	        "  -V, --version            show the version\n"
	        "      --demo               run the built-in demo scene\n"
	        "      --headless           no window and no video driver\n"
	        "      --frames N           stop after N frames (headless default 600)\n"
	        "      --screenshot FILE    save a frame rendered offscreen: FILE.png (or .bmp)\n"
	        "      --screenshot-frame N take it after frame N (default: the last frame)\n"
	        "      --record FILE        write the input events of every frame to FILE\n"
	        "      --plot-csv FILE      write the tumble.plot series to FILE, a column each, a row per frame\n"
	        "      --replay FILE        play back recorded input (deterministic runs)\n"
	        "      --sandbox            untrusted level: no io, os, debug or C modules,\n"
	        "                           memory and instruction limits\n"
	        "      --mem-limit MB       Lua memory cap (sandbox default 256)\n"
	        "      --instr-limit N      VM instructions per callback (sandbox default 100000000)\n"
	        "      --time-limit S       wall-clock seconds per callback, every run (default 1;\n"
	        "                           0 = none); past it the callback is stopped with an error\n"
	        "      --output-limit MB    what print may write (sandbox default 16; 0 = none)\n"
	        "      --watch, --no-watch  hot reload on file changes (default: on with a window)\n"
	        "      --watch-poll-ms N    how often to check the files (default 250; 0 = every frame)\n"
	        "      --keep-going         headless: report Lua errors without stopping\n"
	        "      --realtime           headless: run at 60 frames per second of wall time\n"
	        "      --overlay            start with the dev overlay (F1) open\n"
	        "      --size WxH           window or offscreen size (default 1280x720)\n"
	        "      --quiet              headless: no summary line\n"
	        "      --rewind SECONDS     how far back the timeline reaches (default 60; 0: off)\n"
	        "      --rewind-mb MB       memory the rewind history may hold (default 256)\n"
	        "      --rewind-stats       scripted runs: print rewind's costs at the end\n"
	        "      --package GAME OUT   pack the game folder GAME into the new folder OUT: the\n"
	        "                           levels and assets, this binary, lua/ and a launcher\n"
	        "                           (OUT/play), plus the browser build when there is one\n"
	        "\n"
	        "keys: F1 overlay, F2 pause (after an error: rewind and go on), F3 single step,\n"
	        "      F4 slow motion, F5 restart, F6-F10 draw layers (shapes, joints, contacts,\n"
	        "      AABBs, centres of mass), F11 fullscreen, Esc quit; the timeline: Page Up,\n"
	        "      Page Down (0.5 s back, forward), Home (oldest), End (present), and while\n"
	        "      on it Left, Right (one step), F2 (resume from there)\n"
	        "\n"
	        "A headless run prints 'frames=N steps=N bodies=N time=Ts hash=H' and exits 0,\n"
	        "or non-zero with the Lua error on stderr. A level can end the run itself with\n"
	        "tumble.exit(code, message).\n");
}

static bool parse_long(const char *opt, const char *s, long long lo, long long hi, long long *out)
{
	char *end = NULL;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "tumble: %s expects an integer in %lld..%lld, got '%s'\n", opt, lo, hi, s);
		return false;
	}
	*out = v;
	return true;
}

static bool parse_double(const char *opt, const char *s, double lo, double *out)
{
	char *end = NULL;
	errno = 0;
	double v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v >= lo) || v > 1e9) {
		fprintf(stderr, "tumble: %s expects a number >= %g, got '%s'\n", opt, lo, s);
		return false;
	}
	*out = v;
	return true;
}

enum {
	OPT_DEMO = 256,
	OPT_HEADLESS,
	OPT_FRAMES,
	OPT_SCREENSHOT,
	OPT_SCREENSHOT_FRAME,
	OPT_RECORD,
	OPT_PLOT_CSV,
	OPT_REPLAY,
	OPT_SANDBOX,
	OPT_MEM_LIMIT,
	OPT_INSTR_LIMIT,
	OPT_TIME_LIMIT,
	OPT_OUTPUT_LIMIT,
	OPT_WATCH,
	OPT_NO_WATCH,
	OPT_WATCH_POLL,
	OPT_KEEP_GOING,
	OPT_REALTIME,
	OPT_OVERLAY,
	OPT_SIZE,
	OPT_QUIET,
	OPT_REWIND,
	OPT_REWIND_MB,
	OPT_REWIND_STATS,
	OPT_PACKAGE,
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"demo", no_argument, NULL, OPT_DEMO},
		{"headless", no_argument, NULL, OPT_HEADLESS},
		{"frames", required_argument, NULL, OPT_FRAMES},
		{"screenshot", required_argument, NULL, OPT_SCREENSHOT},
		{"screenshot-frame", required_argument, NULL, OPT_SCREENSHOT_FRAME},
		{"record", required_argument, NULL, OPT_RECORD},
		{"plot-csv", required_argument, NULL, OPT_PLOT_CSV},
		{"replay", required_argument, NULL, OPT_REPLAY},
		{"sandbox", no_argument, NULL, OPT_SANDBOX},
		{"mem-limit", required_argument, NULL, OPT_MEM_LIMIT},
		{"instr-limit", required_argument, NULL, OPT_INSTR_LIMIT},
		{"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
		{"output-limit", required_argument, NULL, OPT_OUTPUT_LIMIT},
		{"watch", no_argument, NULL, OPT_WATCH},
		{"no-watch", no_argument, NULL, OPT_NO_WATCH},
		{"watch-poll-ms", required_argument, NULL, OPT_WATCH_POLL},
		{"keep-going", no_argument, NULL, OPT_KEEP_GOING},
		{"realtime", no_argument, NULL, OPT_REALTIME},
		{"overlay", no_argument, NULL, OPT_OVERLAY},
		{"size", required_argument, NULL, OPT_SIZE},
		{"quiet", no_argument, NULL, OPT_QUIET},
		{"rewind", required_argument, NULL, OPT_REWIND},
		{"rewind-mb", required_argument, NULL, OPT_REWIND_MB},
		{"rewind-stats", no_argument, NULL, OPT_REWIND_STATS},
		{"package", required_argument, NULL, OPT_PACKAGE},
		{NULL, 0, NULL, 0},
	};
	th_app_options o;
	th_app_default_options(&o);
	long long v;
	double d;
	int c;
	const char *package_game = NULL;
	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); return 0;
		case 'V': {
			SDL_version sdl;
			SDL_GetVersion(&sdl);
			printf("tumble %s (%s, SDL %d.%d.%d)\n", TUMBLE_VERSION, LUA_RELEASE, sdl.major, sdl.minor, sdl.patch);
			return 0;
		}
		case OPT_DEMO: o.builtin_demo = true; break;
		case OPT_HEADLESS: o.headless = true; break;
		case OPT_FRAMES:
			if (!parse_long("--frames", optarg, 1, 1000000000, &v)) return 2;
			o.frames = (long)v;
			break;
		case OPT_SCREENSHOT: o.screenshot = optarg; break;
		case OPT_SCREENSHOT_FRAME:
			if (!parse_long("--screenshot-frame", optarg, 1, 1000000000, &v)) return 2;
			o.screenshot_frame = (long)v;
			break;
		case OPT_RECORD: o.record_path = optarg; break;
		case OPT_PLOT_CSV: o.plot_csv = optarg; break;
		case OPT_REPLAY: o.replay_path = optarg; break;
		case OPT_SANDBOX: o.sandbox = true; break;
		case OPT_MEM_LIMIT:
			if (!parse_double("--mem-limit", optarg, 1.0, &d)) return 2;
			o.mem_limit_mb = d;
			break;
		case OPT_INSTR_LIMIT:
			if (!parse_long("--instr-limit", optarg, 1000, 1000000000000LL, &v)) return 2;
			o.instr_limit = v;
			break;
		case OPT_TIME_LIMIT:
			if (!parse_double("--time-limit", optarg, 0.0, &d)) return 2;
			o.time_limit = d;
			break;
		case OPT_OUTPUT_LIMIT:
			if (!parse_double("--output-limit", optarg, 0.0, &d)) return 2;
			o.output_limit_mb = d;
			break;
		case OPT_WATCH: o.watch = 1; break;
		case OPT_NO_WATCH: o.watch = 0; break;
		case OPT_WATCH_POLL:
			if (!parse_long("--watch-poll-ms", optarg, 0, 3600000, &v)) return 2;
			o.watch_poll_ms = (int)v;
			if (o.watch < 0) o.watch = 1;
			break;
		case OPT_KEEP_GOING: o.keep_going = true; break;
		case OPT_REALTIME: o.realtime = true; break;
		case OPT_OVERLAY: o.overlay = true; break;
		case OPT_SIZE: {
			int w = 0, h = 0;
			char tail = 0;
			if (sscanf(optarg, "%dx%d%c", &w, &h, &tail) != 2 || w < 64 || h < 64 || !th_view_fits(w, h)) {
				fprintf(stderr, "tumble: --size expects WxH (64..%d a side, at most %d pixels), got '%s'\n",
				        TH_VIEW_MAX_SIDE, TH_VIEW_MAX_PIXELS, optarg);
				return 2;
			}
			o.width = w;
			o.height = h;
			o.size_set = true;
			break;
		}
		case OPT_QUIET: o.quiet = true; break;
		case OPT_REWIND:
			if (!parse_double("--rewind", optarg, 0.0, &d)) return 2;
			if (d > 3600.0) {
				fprintf(stderr, "tumble: --rewind keeps at most 3600 seconds, got '%s'\n", optarg);
				return 2;
			}
			o.rewind_seconds = d;
			break;
		case OPT_REWIND_MB:
			if (!parse_double("--rewind-mb", optarg, 1.0, &d)) return 2;
			o.rewind_mb = d;
			break;
		case OPT_REWIND_STATS: o.rewind_stats = true; break;
		case OPT_PACKAGE: package_game = optarg; break;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) o.level_path = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "tumble: one level at a time (unexpected '%s')\n", argv[optind]);
		return 2;
	}
	if (package_game != NULL) {
		if (o.level_path == NULL) {
			fprintf(stderr, "tumble: --package GAME OUT: give the output folder OUT\n");
			return 2;
		}
		return th_package(package_game, o.level_path);
	}
	if (o.sandbox) {
		if (o.mem_limit_mb == 0) o.mem_limit_mb = 256;
		if (o.instr_limit == 0) o.instr_limit = 100000000LL;
		if (o.output_limit_mb < 0) o.output_limit_mb = 16;
	}
	if (o.output_limit_mb < 0) o.output_limit_mb = 0;
	th_watchdog_catch_quit();
	int status = th_app_run(&o);
	int sig = th_watchdog_quit_signal();
	if (sig != 0) {
		fprintf(stderr, "tumble: ended by %s\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
		return 128 + sig;
	}
	return status;
}
