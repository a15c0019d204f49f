/* tumble in the browser: the page's entry points (web/shell.js calls them).
 *
 * The host runs as it does natively, with one difference: the browser owns
 * the loop. tumble_web_start opens the host and hands its per-frame function
 * to emscripten_set_main_loop_arg, which calls it once per animation frame;
 * nothing blocks, so there is no ASYNCIFY and Lua's error unwinding stays the
 * ordinary setjmp/longjmp. The page's data (lua/, examples/, the LEVEL folder)
 * sits under /tumble in emscripten's in-memory file system. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>

#include "../host/app.h"
#include "../host/camera.h"

/* A replay has nothing to wait for: it runs this many host frames per
 * animation frame, so a minute of recorded play checks in a few seconds. */
#define REPLAY_FRAMES_PER_TICK 8

static struct {
	th_app *app;
	th_app_options opt;
	bool replaying;
	char level[1024], replay[1024];
} web;

/* SDL 2.26's Web Audio backend disconnects its ScriptProcessorNode on close
 * but leaves the handler on it, and an audio event already queued still runs
 * it: if the next run has opened audio by then, the handler passes the closed
 * device's freed pointer to the mixer (a wasm "memory access out of bounds",
 * seen when a replay ends and the next starts at once). Dropping the handler
 * first lets such an event fall on nothing. */
static void silence_audio(void)
{
	emscripten_run_script("var a = Module.SDL2 && Module.SDL2.audio;"
	                      "if (a && a.scriptProcessorNode) a.scriptProcessorNode.onaudioprocess = null;");
}

static void finish(void)
{
	emscripten_cancel_main_loop();
	/* closing the window clears the canvas: the page keeps the last picture */
	emscripten_run_script("Module.tumbleFreeze && Module.tumbleFreeze()");
	silence_audio();
	int status = th_app_close(web.app);
	web.app = NULL;
	/* the page learns that the run is over (a replay's hash was printed) */
	char js[80];
	snprintf(js, sizeof js, "Module.tumbleEnded && Module.tumbleEnded(%d)", status);
	emscripten_run_script(js);
}

static void frame(void *unused)
{
	(void)unused;
	int n = web.replaying ? REPLAY_FRAMES_PER_TICK : 1;
	for (int i = 0; i < n && web.app != NULL; ++i) {
		if (!th_app_frame(web.app)) finish();
	}
}

/* Edit mode wrote the level's text (an edit, an undo, a redo): the page puts
 * it back into its text area. The text area writes what is typed into the
 * same file, so edit mode's session always works on the text area's text. */
static void source_written(const char *path)
{
	char js[4200]; /* web.level, every byte escaped at worst */
	size_t n = (size_t)snprintf(js, sizeof js, "Module.tumbleSourceWritten && Module.tumbleSourceWritten('");
	for (const unsigned char *c = (const unsigned char *)path; *c != '\0' && n + 16 < sizeof js; ++c) {
		/* a JS string literal: quotes, backslashes and control bytes escaped,
		 * UTF-8 bytes as they are (the script is read as UTF-8) */
		if (*c == '\\' || *c == '\'' || *c < 0x20) {
			n += (size_t)snprintf(js + n, sizeof js - n, "\\x%02x", *c);
		} else {
			js[n++] = (char)*c;
		}
	}
	snprintf(js + n, sizeof js - n, "')");
	emscripten_run_script(js);
}

EMSCRIPTEN_KEEPALIVE void tumble_web_stop(void)
{
	if (web.app == NULL) return;
	emscripten_cancel_main_loop();
	silence_audio();
	th_app_close(web.app);
	web.app = NULL;
}

/* Runs a level (a path in the page's file system), optionally replaying a
 * recording for a number of frames, in a view of the canvas's size. Returns
 * 0, or the host's exit status when the level cannot start. */
EMSCRIPTEN_KEEPALIVE int tumble_web_start(const char *level, const char *replay, double frames, int width, int height)
{
	tumble_web_stop();
	/* levels find levelkit and friends as the native host finds them beside it
	 * (set here: the page may start a level before main has run) */
	setenv("LUA_PATH", "/tumble/lua/?.lua;/tumble/lua/?/init.lua;;", 1);
	snprintf(web.level, sizeof web.level, "%s", level != NULL ? level : "");
	snprintf(web.replay, sizeof web.replay, "%s", replay != NULL ? replay : "");
	th_app_default_options(&web.opt);
	web.opt.level_path = web.level[0] != '\0' ? web.level : NULL;
	web.opt.replay_path = web.replay[0] != '\0' ? web.replay : NULL;
	web.opt.frames = frames >= 1 && frames <= 1e9 ? (long)frames : 0;
	web.opt.watch = 0; /* the files only change through the page, which restarts */
	web.opt.source_written = source_written;
	if (width >= 64 && height >= 64 && th_view_fits((long long)width, (long long)height)) {
		web.opt.width = width;
		web.opt.height = height;
	}
	web.replaying = web.opt.replay_path != NULL;
	int status = 0;
	web.app = th_app_open(&web.opt, &status);
	if (web.app == NULL) return status != 0 ? status : 1;
	emscripten_set_main_loop_arg(frame, NULL, 0, 0);
	return 0;
}

/* The runtime stays after main returns (EXIT_RUNTIME=0); the page drives. */
int main(void)
{
	return 0;
}
