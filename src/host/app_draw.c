/* tumble host: a frame's picture: the world, the level's sprites and
 * drawing, the overlay and the error panel; into the window, or into an
 * offscreen surface for --screenshot. */
#include "app_internal.h"

#include <stdio.h>
#include <string.h>
#include <SDL_image.h>

void th_app_overlay_view(th_app *app, th_overlay_view *v)
{
	th_level *lv = &app->level;
	const th_history *h = &app->history;
	th_level_stats stats;
	th_level_stats_get(lv, &stats);
	memset(v, 0, sizeof(*v));
	v->frame = lv->frame;
	v->headless = app->opt.headless;
	v->paused = app->paused;
	v->faulted = lv->faulted;
	v->time_scale = th_time_scales[app->slowmo];
	v->has_world = stats.has_world;
	v->def = stats.def;
	v->layers = app->render.layers;
	v->lua_mb = (double)lv->sandbox.used / (1024.0 * 1024.0);
	v->history_mb = (double)(th_history_bytes(h) + h->snap_bytes) / (1024.0 * 1024.0);
	v->history_full = h->full;
	v->error = lv->error;
	v->reload_error = lv->reload_error;
	v->syntax_error = lv->syntax_error && lv->error != NULL;
	v->level_dir = app->level_dir;
	v->mouse_x = lv->input.mouse_x;
	v->mouse_y = lv->input.mouse_y;
	v->view_w = lv->camera.view_w;
	v->view_h = lv->camera.view_h;
	v->render = &app->render;
	v->plot = app->plot;
	v->rewind_on = th_app_rewind_on(app);
	v->reviewing = app->reviewing;
	/* not merely with the overlay open: the level's own text at the bottom stays readable while it runs */
	v->timeline = v->rewind_on && (app->paused || app->reviewing || lv->faulted);
	const th_history_snap *oldest = th_history_snap_oldest(h);
	v->tl_first = oldest != NULL ? oldest->step : 0;
	v->tl_end = th_app_behind(app) ? h->total_steps : lv->frame;
	v->snaps = h->snaps;
	v->snap_count = h->snap_count;
	v->snap_bytes = h->snap_bytes;
	v->rewind_note = app->rewind_note;
	for (int i = app->code_count - 1; i >= 0 && v->edit_count < TH_OVERLAY_EDITS; --i) {
		if (app->codes[i].edit) v->edits[v->edit_count++] = app->codes[i].step;
	}
	const th_history_snap *em = th_app_error_moment(app);
	v->error_moment = em != NULL ? em->step : -1;
}

int th_app_view_inset(th_app *app, int width, int height)
{
	th_overlay_view v;
	th_app_overlay_view(app, &v);
	return th_overlay_bottom_inset(&app->overlay, &v, width, height);
}

/* The frame: the world (interpolated by alpha), the level's sprites and
 * drawing, then the overlay and the error panel. While the timeline or the
 * error panel is shown, the world and the level's drawing are fitted into
 * the window above them (the target's inset), so none of the world is
 * under them; edit mode maps its clicks through the same fit. */
void th_app_compose(th_app *app, th_target *t, float alpha)
{
	th_level *lv = &app->level;
	th_overlay_view v;
	t->inset = th_app_view_inset(app, t->width, t->height);
	th_render_begin(&app->render, t, &lv->camera, alpha);
	th_render_shapes(&app->render, t, lv->world, lv->frame);
	th_level_draw_sprites(lv, t);
	th_render_debug(&app->render, t, lv->world, lv->frame);
	th_render_end(&app->render);
	th_level_draw(lv, t);
	th_app_overlay_view(app, &v);
	th_overlay_draw(&app->overlay, &v, t);
	th_app_edit_draw(app, t);
	th_overlay_draw_error(&app->overlay, &v, t);
	t->inset = 0;
}

bool th_app_screenshot(th_app *app, const char *path, float alpha)
{
	th_level *lv = &app->level;
	bool ok = false;
	/* every way a view's size is set is checked; this is the last word */
	SDL_Surface *surface =
		th_view_fits(lv->camera.view_w, lv->camera.view_h)
			? SDL_CreateRGBSurfaceWithFormat(0, lv->camera.view_w, lv->camera.view_h, 32, SDL_PIXELFORMAT_ARGB8888)
			: NULL;
	if (surface == NULL && !th_view_fits(lv->camera.view_w, lv->camera.view_h)) {
		SDL_SetError("a view of %dx%d is too large (at most %d pixels a side and %d in all)", lv->camera.view_w,
		             lv->camera.view_h, TH_VIEW_MAX_SIDE, TH_VIEW_MAX_PIXELS);
	}
	if (surface != NULL) {
		th_target t;
		if (th_target_init_surface(&t, surface)) {
			th_app_compose(app, &t, alpha);
			SDL_RenderPresent(t.renderer);
			if (app->shot_file != NULL) {
				const char *format = th_picture_format(path);
				ok = (format != NULL && format[0] == 'B' ? SDL_SaveBMP_RW(surface, app->shot_file, 0)
				                                         : IMG_SavePNG_RW(surface, app->shot_file, 0)) == 0;
			} else {
				ok = th_picture_save(surface, path);
			}
			th_target_free(&t);
		}
		SDL_FreeSurface(surface);
	}
	if (!ok) fprintf(stderr, "tumble: cannot write screenshot %s: %s\n", path, SDL_GetError());
	app->shot_taken = true;
	app->shot_failed = !ok;
	return ok;
}
