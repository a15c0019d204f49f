/* tumble host: the application. It finds the level, sets up SDL (no video at
 * all when headless) and runs the loop: each frame it takes the input of the
 * frame (SDL's queue, or a recording being replayed), carries out the host's
 * actions, hands the rest to the level, runs the fixed 60 Hz steps the clock
 * (or the recording) asks for, logs all of it in the level's history, looks
 * for edited files, and draws. Like LOVE's love.run, the loop drives the
 * parts below it (level, history, overlay, render) and none of them calls
 * back up.
 *
 * th_app_open, th_app_frame and th_app_close are the loop's pieces; a frame
 * does not wait for the next, so a browser's main loop can call it. What a
 * frame does is in the app's other files (app_internal.h lists them); this
 * one is the order it happens in. */
#include "app_internal.h"
#include "watchdog.h"
#include "oslock.h"
#include "text.h"
#include "sdl_event.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The history's memory: at ~70 bytes an event, hours of ordinary play. */
#define HISTORY_LIMIT_BYTES ((size_t)64 << 20)

_Static_assert(TH_REPLAY_MAX_STEPS == TH_HOST_MAX_CATCH_UP, "a recording never holds more steps than a frame runs");

static void fail(th_app *app, int status)
{
	if (!app->fatal) app->fatal_status = status;
	app->fatal = true;
}

/* Everything before the first frame; false with app->fatal_status set. */
static bool open_app(th_app *app, const th_app_options *options)
{
	th_app_options *opt = &app->opt;
	*opt = *options;
	th_render_init(&app->render);
	th_overlay_init(&app->overlay, opt->overlay);
	th_watch_init(&app->watch);
	th_media_init(&app->media, opt->sandbox);
	th_history_init(&app->history, HISTORY_LIMIT_BYTES);
	th_level_init(&app->level);
	app->root = th_app_find_root();
	app->media.fonts = th_text_open(app->root);
	app->watch_enabled = opt->watch < 0 ? !opt->headless : opt->watch > 0;
	app->fatal_status = 2;
	if (opt->screenshot != NULL && th_picture_format(opt->screenshot) == NULL) {
		fprintf(stderr, "tumble: --screenshot writes PNG (FILE.png) or BMP (FILE.bmp), not '%s'\n", opt->screenshot);
		return false;
	}
	if (opt->screenshot != NULL && !th_app_screenshot_writable(opt->screenshot)) return false;
	if (!th_app_resolve_level(app)) return false;

	bool headless = opt->headless;
	app->frames = opt->frames > 0 ? opt->frames : (headless ? 600 : 0);
	int view_w = opt->width, view_h = opt->height;
	if (opt->replay_path != NULL) {
		if (!th_replay_open(&app->replay, opt->replay_path, &view_w, &view_h)) {
			fprintf(stderr, "tumble: %s\n", app->replay.error);
			return false;
		}
		/* rewind keeps what it kept when the session was recorded */
		if (app->replay.has_rewind) {
			opt->rewind_seconds = app->replay.rewind_seconds;
			opt->rewind_mb = app->replay.rewind_mb;
		}
		app->replaying = true;
	}

	/* Headless needs no SDL subsystem at all: the software renderer draws into
	 * a plain surface. Without a display, a run that asked for a screenshot
	 * gets it that way instead of failing. */
	if (opt->sandbox) th_oslock_prepare();
	/* The probe's video stays up when it found a display: quitting it and
	 * starting again closed the X connection and opened another at once, and
	 * an X server that resets when its last client leaves (Xvfb's default)
	 * refused the second now and then. */
	bool video_up = false;
	if (!headless && opt->screenshot != NULL && SDL_getenv("SDL_VIDEODRIVER") == NULL) {
		bool display = false;
		if (SDL_Init(SDL_INIT_VIDEO) == 0) {
			const char *driver = SDL_GetCurrentVideoDriver();
			display = driver != NULL && strcmp(driver, "offscreen") != 0 && strcmp(driver, "dummy") != 0;
			if (display) video_up = true;
			else SDL_Quit();
		}
		if (!display) {
			fprintf(stderr, "tumble: no display: rendering offscreen, as with --headless\n");
			headless = opt->headless = true;
			if (opt->frames <= 0) app->frames = 600;
			if (opt->watch < 0) app->watch_enabled = false;
		}
	}
	if (!video_up && SDL_Init(headless ? 0 : SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "tumble: SDL_Init failed: %s%s\n", SDL_GetError(),
		        headless ? "" : " (no display? --headless runs without one)");
		return false;
	}
	app->sdl = true;
	if (!headless) {
		/* With no display SDL falls back to its offscreen driver: a window nobody
		 * can see, running flat out. Say so instead, unless asked for explicitly. */
		const char *driver = SDL_GetCurrentVideoDriver();
		if (driver != NULL && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0) &&
		    SDL_getenv("SDL_VIDEODRIVER") == NULL) {
			fprintf(stderr, "tumble: no display to open a window on (use --headless, or xvfb-run)\n");
			return false;
		}
		if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) {
			fprintf(stderr, "tumble: no gamepad support: %s\n", SDL_GetError());
		}
		char title[PATH_MAX + 32];
		const char *base = app->level_path != NULL ? strrchr(app->level_path, '/') + 1 : "built-in demo";
		snprintf(title, sizeof(title), "tumble - %s", base);
		/* no ALLOW_HIGHDPI: mouse coordinates and render pixels must agree */
		Uint32 flags = SDL_WINDOW_SHOWN;
		if (opt->replay_path == NULL) flags |= SDL_WINDOW_RESIZABLE;
		app->window =
			SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, view_w, view_h, flags);
		if (app->window == NULL || !th_target_init_window(&app->target, app->window)) {
			fprintf(stderr, "tumble: cannot open a window: %s (use --headless without a display)\n", SDL_GetError());
			return false;
		}
		SDL_RendererInfo info;
		if (SDL_GetRendererInfo(app->target.renderer, &info) == 0) {
			app->vsync = (info.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
		}
		if (opt->replay_path == NULL) {
			view_w = app->target.width;
			view_h = app->target.height;
		}
	}
	th_app_options defaults;
	th_app_default_options(&defaults);
	bool rewind_line = opt->rewind_seconds != defaults.rewind_seconds || opt->rewind_mb != defaults.rewind_mb;
	if (opt->record_path != NULL && !th_recorder_open(&app->recorder, opt->record_path, view_w, view_h, rewind_line,
	                                                     opt->rewind_seconds, opt->rewind_mb)) {
		fprintf(stderr, "tumble: cannot write %s: %s\n", opt->record_path, strerror(errno));
		return false;
	}
	app->plot = malloc(sizeof(*app->plot));
	if (app->plot == NULL) {
		fprintf(stderr, "tumble: out of memory\n");
		return false;
	}
	th_plot_init(app->plot);
	if (opt->plot_csv != NULL && !th_plot_open_csv(app->plot, opt->plot_csv)) {
		fprintf(stderr, "tumble: cannot write %s: %s\n", opt->plot_csv, strerror(errno));
		return false;
	}

	/* The window is open: lock the process before the level's first line. */
	if (opt->sandbox) {
		if (opt->screenshot != NULL && (app->shot_file = SDL_RWFromFile(opt->screenshot, "wb")) == NULL) {
			fprintf(stderr, "tumble: cannot write screenshot %s: %s\n", opt->screenshot, SDL_GetError());
			return false;
		}
		char lib[PATH_MAX + 8];
		snprintf(lib, sizeof(lib), "%s/lua", app->root != NULL ? app->root : "");
		const char *dirs[] = {app->level_dir, app->root != NULL ? lib : NULL};
		th_oslock_apply(dirs, 2);
	}

	/* the moments: one every half second for the seconds asked, in the
	 * memory asked (at most half the Lua cap, which holds them too) */
	double rewind_bytes = opt->rewind_mb * 1024.0 * 1024.0;
	if (opt->mem_limit_mb > 0 && rewind_bytes > opt->mem_limit_mb * 1024.0 * 1024.0 / 2) {
		rewind_bytes = opt->mem_limit_mb * 1024.0 * 1024.0 / 2;
	}
	int moments = (int)ceil(opt->rewind_seconds * TH_HOST_HZ / TH_REWIND_INTERVAL) + 1;
	th_history_snap_limits(&app->history, moments, (size_t)rewind_bytes);
	th_input_reset(&app->live, view_w / 2, view_h / 2, false);

	th_level *lv = &app->level;
	lv->opt = opt;
	lv->root = app->root;
	lv->level_path = app->level_path;
	lv->level_dir = app->level_dir;
	lv->render = &app->render;
	lv->plot = app->plot;
	lv->media = &app->media;
	lv->watch = &app->watch;
	/* a headless run that keeps going reports errors and runs on */
	lv->halt_on_error = !(headless && opt->keep_going);
	app->started = th_now_ms();
	th_start_state s = {view_w / 2, view_h / 2, false, view_w, view_h};
	if (!th_app_start_level(app, &s) && headless) fail(app, 1);
	app->last = app->next_poll = th_now_ms();
	return true;
}

th_app *th_app_open(const th_app_options *options, int *status)
{
	th_app *app = calloc(1, sizeof(*app));
	if (app == NULL) {
		fprintf(stderr, "tumble: out of memory\n");
		*status = 2;
		return NULL;
	}
	if (!open_app(app, options)) {
		fail(app, 2);
		*status = th_app_close(app);
		return NULL;
	}
	*status = 0;
	return app;
}

static bool over(const th_app *app)
{
	return app->quit || app->fatal || app->level.exit_requested || th_watchdog_quit_signal() != 0 ||
	       (app->frames > 0 && app->render_frame >= app->frames);
}

/* The frame's input: SDL's queue, then the recording's events; returns the
 * steps the recording ran in this frame, or -1 to let the clock decide. */
static int take_input(th_app *app)
{
	if (app->window != NULL) {
		SDL_Event e;
		while (SDL_PollEvent(&e)) {
			th_event ev;
			if (!th_event_from_sdl(&e, &ev, &app->pad, app->target.renderer)) continue;
			if (ev.type == TH_EV_RESIZE) {
				app->target.width = ev.x;
				app->target.height = ev.y;
			}
			if (app->replaying) {
				/* while replaying, live input only closes the window */
				if (ev.type == TH_EV_QUIT) app->quit = true;
				continue;
			}
			th_app_handle_event(app, &ev);
		}
	}
	while (app->replaying) {
		th_event ev;
		int steps = 0;
		switch (th_replay_next(&app->replay, &ev, &steps)) {
		case TH_REPLAY_EVENT: th_app_handle_event(app, &ev); break;
		case TH_REPLAY_FRAME: return steps;
		case TH_REPLAY_END: app->replaying = false; break;
		case TH_REPLAY_ERROR:
			fprintf(stderr, "tumble: %s\n", app->replay.error);
			app->replaying = false;
			fail(app, 2);
			break;
		}
	}
	return -1;
}

/* Headless, an error ends the run, unless the files are watched: then the
 * level halts as in a window, and a fix saved meanwhile goes on (a run that
 * ends halted still fails). */
static bool halts_run(const th_app *app)
{
	return app->opt.headless && app->level.faulted && !app->watch_enabled;
}

/* Steps the clock asks for (at most TH_HOST_MAX_CATCH_UP), and the
 * interpolation factor of the frame drawn after them. */
static int clock_steps(th_app *app, double frame_ms, float *alpha)
{
	th_level *lv = &app->level;
	int steps = 0;
	*alpha = 1.0f;
	if (app->opt.headless && !app->opt.realtime) {
		steps = 1;
	} else {
		/* Real time drives the accumulator; a frame longer than 1/4 s is
		 * treated as a hitch, not as time to catch up on. */
		double dt = fmin(frame_ms / 1000.0, 0.25);
		app->acc += dt * th_time_scales[app->slowmo];
		while (app->acc >= TH_HOST_DT && steps < TH_HOST_MAX_CATCH_UP) {
			app->acc -= TH_HOST_DT;
			steps += 1;
		}
		if (app->acc >= TH_HOST_DT) app->acc = fmod(app->acc, TH_HOST_DT);
		*alpha = (float)(app->acc / TH_HOST_DT);
	}
	if (app->paused || lv->faulted) {
		steps = 0;
		app->acc = 0.0;
		*alpha = 1.0f;
		if (app->single_steps > 0 && !lv->faulted) {
			app->single_steps -= 1;
			steps = 1;
		}
	}
	return steps;
}

bool th_app_frame(th_app *app)
{
	th_level *lv = &app->level;
	const th_app_options *opt = &app->opt;
	if (over(app)) return false;
	double now = th_now_ms();
	double frame_ms = now - app->last;
	app->last = now;
	th_overlay_frame_time(&app->overlay, frame_ms);
	th_level_begin_frame(lv);
	if (lv->conf_changed) th_app_apply_conf(app);
	if (app->toggle_fullscreen) th_app_toggle_fullscreen(app);

	th_app_keys_in_force(app);
	int steps = take_input(app);
	float alpha = 1.0f;
	if (steps < 0) steps = clock_steps(app, frame_ms, &alpha);
	/* an earlier moment is shown, not lived on (a recording's frames too) */
	if (app->reviewing) steps = 0;
	int ran = 0;
	for (; ran < steps && !app->quit && !app->fatal && !lv->exit_requested && lv->L != NULL && !lv->faulted; ++ran) {
		th_level_step(lv);
		th_level_stats stats;
		th_level_stats_get(lv, &stats);
		th_overlay_after_step(&app->overlay, &stats.profile, &stats.counters, stats.dispatch_ms, lv->update_ms,
		                      lv->step_ms);
		double cost = lv->update_ms + lv->step_ms;
		app->step_cost_ms = app->step_cost_ms > 0.0 ? 0.95 * app->step_cost_ms + 0.05 * cost : cost;
	}
	th_recorder_frame(&app->recorder, ran);
	if (!app->reviewing) {
		bool lived = !th_app_behind(app);
		th_history_end_frame(&app->history, ran);
		th_app_mark_frame(app);
		/* the level lived this frame: it is at the end of its history */
		if (lived) {
			app->lived = th_history_end(&app->history);
			th_app_keep_moment(app);
		}
	}
	if (halts_run(app)) fail(app, 1);
	/* once per drawn frame, at the present only: what is shown, not lived */
	if (!app->reviewing && !app->paused && !app->fatal && !th_app_behind(app)) {
		bool fixed = app->opt.headless && !app->opt.realtime;
		th_level_frame(lv, fixed ? TH_HOST_DT : fmin(frame_ms / 1000.0, 0.25));
		if (halts_run(app)) fail(app, 1);
	}
	th_app_apply_cursor(app);
	th_app_keys_in_force(app); /* the picture's hints: the keys as the frame left them */

	if (app->watch_enabled && !app->fatal) {
		double t = th_now_ms();
		if (opt->watch_poll_ms <= 0 || t >= app->next_poll) {
			app->next_poll = t + opt->watch_poll_ms;
			th_image_poll(lv);
			if (th_watch_poll(&app->watch)) th_app_reload(app);
			if (halts_run(app)) fail(app, 1);
		}
	}

	app->render_frame += 1;
	bool last_frame = app->frames > 0 && app->render_frame == app->frames;
	bool shoot = opt->screenshot != NULL && !app->shot_taken &&
	             (app->render_frame == opt->screenshot_frame || (opt->screenshot_frame < 0 && last_frame));
	if (app->window != NULL) {
		th_app_compose(app, &app->target, alpha);
		SDL_RenderPresent(app->target.renderer);
	} else if (!shoot && !app->fatal) {
		/* no picture, but draw still runs so its errors surface headless too */
		th_level_draw(lv, NULL);
	}
	if (shoot) th_app_screenshot(app, opt->screenshot, alpha);
	if (halts_run(app)) fail(app, 1);
	return !over(app);
}

/* Without vsync, pace at 60 Hz; with it, still never spin faster than 300 Hz
 * (some drivers claim vsync and do not wait). */
static void pace(th_app *app)
{
	if (app->window == NULL && !(app->opt.headless && app->opt.realtime)) return;
	double period = app->window != NULL && app->vsync ? 1000.0 / 300.0 : 1000.0 / TH_HOST_HZ;
	double left = app->last + period - th_now_ms();
	if (left > 1.0) SDL_Delay((Uint32)left);
}

int th_app_close(th_app *app)
{
	if (app == NULL) return 2;
	th_level *lv = &app->level;
	const th_app_options *opt = &app->opt;
	bool ran = app->started > 0.0;
	if (ran && opt->screenshot != NULL && !app->shot_taken && lv->L != NULL) th_app_screenshot(app, opt->screenshot, 1.0f);
	double seconds = ran ? (th_now_ms() - app->started) / 1000.0 : 0.0;

	int status = 0;
	if (app->fatal) {
		status = app->fatal_status;
	} else if (lv->exit_requested) {
		status = lv->exit_code;
		if (lv->exit_message != NULL) {
			FILE *out = status == 0 ? stdout : stderr;
			th_sandbox_write_text(&lv->sandbox, out, "", lv->exit_message, strlen(lv->exit_message));
		}
	}
	/* a screenshot asked for and not written is a failed run */
	if (status == 0 && app->shot_failed) status = 1;
	/* a headless run that watched its files and ended halted failed */
	if (status == 0 && opt->headless && lv->faulted) status = 1;
	/* scripted runs (headless, or a window with --frames) report how they ended */
	if (ran && (opt->headless || opt->frames > 0) && !opt->quiet && !app->fatal) th_app_print_summary(app, seconds);
	if (ran && opt->rewind_stats) th_app_print_rewind_stats(app);
	th_app_drop_moments(app, NULL);
	th_app_code_free(app);
	free(app->rewind_note);
	free(app->capture_stats.ms);
	free(app->restore_stats.ms);
	free(app->seek_stats.ms);
	free(app->marks);

	th_app_edit_close(app);
	th_recorder_close(&app->recorder);
	if (app->plot != NULL && !th_plot_close_csv(app->plot)) {
		fprintf(stderr, "tumble: cannot write %s\n", opt->plot_csv);
		if (status == 0) status = 1;
	}
	free(app->plot);
	th_replay_close(&app->replay);
	if (app->shot_file != NULL) SDL_RWclose(app->shot_file);
	th_level_free(lv);
	th_history_free(&app->history);
	th_render_free(&app->render);
	th_watch_free(&app->watch);
	th_target_free(&app->target);
	th_media_close(&app->media);
	th_text_close(app->media.fonts);
	app->media.fonts = NULL;
	if (app->pad != NULL) SDL_GameControllerClose(app->pad);
	if (app->window != NULL) SDL_DestroyWindow(app->window);
	if (app->sdl) SDL_Quit();
	free(app->root);
	free(app->level_path);
	free(app->level_dir);
	free(app);
	return status;
}

int th_app_run(const th_app_options *options)
{
	int status = 0;
	th_app *app = th_app_open(options, &status);
	if (app == NULL) return status;
	while (th_app_frame(app)) pace(app);
	return th_app_close(app);
}
