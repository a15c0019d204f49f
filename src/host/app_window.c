/* tumble host: the window as level.conf and F11 ask for it: its title, size
 * and mode, and the draw layers. */
#include "app_internal.h"

#include <stdio.h>
#include <string.h>

/* What level.conf asks of the app: the draw layers, and of the view: title,
 * size, fullscreen, resizable. The command line wins (--size), and a replay
 * keeps its recorded view. Headless, the size change goes through the event
 * path, so a recording holds it. */
void th_app_apply_conf(th_app *app)
{
	th_level *lv = &app->level;
	const th_level_conf *c = &lv->conf;
	const th_app_options *o = &app->opt;
	SDL_Window *window = app->window;
	lv->conf_changed = false;
	if (!c->present) return;
	for (int i = 0; i < TH_LAYER_COUNT; ++i) {
		if (c->layer_set[i]) app->render.layers[i] = c->layers[i];
	}
	bool replaying = o->replay_path != NULL;
	int w = c->width > 0 ? c->width : lv->camera.view_w;
	int hh = c->height > 0 ? c->height : lv->camera.view_h;
	bool resize = !o->size_set && (c->width > 0 || c->height > 0);
	if (window == NULL) {
		if (resize) {
			th_event ev;
			memset(&ev, 0, sizeof(ev));
			ev.type = TH_EV_RESIZE;
			ev.x = w;
			ev.y = hh;
			th_app_handle_event(app, &ev);
		}
		return;
	}
	if (c->title[0] != '\0') SDL_SetWindowTitle(window, c->title);
	if (replaying) return;
	SDL_SetWindowResizable(window, c->resizable ? SDL_TRUE : SDL_FALSE);
	if (resize && (SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN) == 0) SDL_SetWindowSize(window, w, hh);
	if (c->fullscreen) {
		SDL_SetWindowFullscreen(window, SDL_WINDOW_FULLSCREEN_DESKTOP);
		app->toggle_fullscreen = false;
	}
}

void th_app_toggle_fullscreen(th_app *app)
{
	app->toggle_fullscreen = false;
	if (app->window == NULL) return;
	bool full = (SDL_GetWindowFlags(app->window) & SDL_WINDOW_FULLSCREEN) != 0;
	if (SDL_SetWindowFullscreen(app->window, full ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP) != 0) {
		fprintf(stderr, "tumble: cannot switch fullscreen: %s\n", SDL_GetError());
	}
}

void th_app_apply_cursor(th_app *app)
{
	if (app->window == NULL) return;
	const th_level *lv = &app->level;
	bool level_owns = lv->ok && !lv->faulted && lv->L != NULL && !app->reviewing && !app->edit.on &&
	                  !app->overlay.visible;
	bool hidden = level_owns && lv->input.cursor_hidden;
	bool grabbed = level_owns && lv->input.cursor_grabbed;
	if (hidden != app->cursor_hidden) {
		SDL_ShowCursor(hidden ? SDL_DISABLE : SDL_ENABLE);
		app->cursor_hidden = hidden;
	}
	if (grabbed != app->cursor_grabbed) {
		SDL_SetWindowGrab(app->window, grabbed ? SDL_TRUE : SDL_FALSE);
		app->cursor_grabbed = grabbed;
	}
}
