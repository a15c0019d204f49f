/* tumble host: the dev overlay (F1). Timings and counts on the left, the
 * world's settings and the draw layers as clickable toggles on the right, the
 * keys along the bottom; and the error panel that shows a Lua error with its
 * traceback until the level is fixed. The panels keep clear of the text the
 * level put on the screen (its help and score usually sit in the corners):
 * each goes down, or the key bar up, past the level's screen_text boxes of
 * the frame, and where there is no room it stays put, translucent. */
#include "overlay.h"
#include "plot.h"
#include "clock.h"
#include "font.h"
#include "tumble/tumble_lua.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_SCALE 2
#define LINE_H (TH_FONT_LINE * TEXT_SCALE)
#define CHAR_W (TH_FONT_ADVANCE * TEXT_SCALE)
#define PAD 10
#define RIGHT_W 316

static const SDL_Color panel_bg = {8, 10, 14, 210};
static const SDL_Color edit_color = {255, 170, 60, 255}; /* an edit's mark on the timeline */
static const SDL_Color text_color = {232, 234, 240, 255};
static const SDL_Color dim_color = {150, 156, 170, 255};
static const SDL_Color accent_color = {255, 200, 90, 255};
static const SDL_Color on_color = {120, 230, 130, 255};
static const SDL_Color off_color = {120, 124, 134, 255};

/* Indices of the right panel's items (layout adds them in this order). */
enum { ITEM_FIRST_SETTING = 3, ITEM_FIRST_LAYER = 13 };

typedef struct item {
	SDL_Rect rect;
	int action;
	char label[48];
	bool toggle, on;
} item;

/* The first y >= y0 at which the rectangle (x, y, w, height) covers none of
 * the level's screen text, if it fits above limit; else y0. */
static int clear_y(const th_overlay_view *v, int x, int w, int y0, int height, int limit)
{
	const th_render *r = v->render;
	int y = y0;
	for (int pass = 0; pass < r->text_box_count + 1; ++pass) {
		SDL_Rect panel = {x, y, w, height};
		int below = -1;
		for (int i = 0; i < r->text_box_count; ++i) {
			if (SDL_HasIntersection(&panel, &r->text_boxes[i])) {
				int bottom = r->text_boxes[i].y + r->text_boxes[i].h + PAD / 2;
				if (bottom > below) below = bottom;
			}
		}
		if (below < 0) return y + height <= limit ? y : y0;
		y = below;
	}
	return y0;
}

/* The right panel's widgets from its top; drawing and clicking share this. */
static int layout(const th_overlay_view *v, int view_w, int top, item *items)
{
	int n = 0;
	int x = view_w - RIGHT_W, y = top + PAD + LINE_H + 4;
	tb_world_def def = v->has_world ? v->def : tb_default_world_def();

#define ADD(act, is_toggle, state, ...)                                                                             \
	do {                                                                                                           \
		item *it = &items[n++];                                                                                    \
		it->action = (act);                                                                                        \
		it->toggle = (is_toggle);                                                                                  \
		it->on = (state);                                                                                          \
		snprintf(it->label, sizeof(it->label), __VA_ARGS__);                                                       \
		int wlabel = 0;                                                                                            \
		th_font_measure(it->label, TEXT_SCALE, &wlabel, NULL);                                                     \
		it->rect = (SDL_Rect){x, y, wlabel + ((is_toggle) ? 4 * CHAR_W : 0) + 8, LINE_H + 2};                      \
	} while (0)

	ADD(TH_ACT_PAUSE, false, v->paused, "%s", v->paused ? "[resume]" : "[pause]");
	int bx = items[n - 1].rect.x + items[n - 1].rect.w + 6;
	x = bx;
	ADD(TH_ACT_STEP, false, false, "[step]");
	x = items[n - 1].rect.x + items[n - 1].rect.w + 6;
	ADD(TH_ACT_SLOWMO, false, false, "[x%g]", v->time_scale);
	x = view_w - RIGHT_W;
	y += 2 * LINE_H + 12;

	ADD(TH_ACT_WARM, true, def.enable_warm_starting, "warm starting");
	y += LINE_H + 2;
	ADD(TH_ACT_POSITION, true, def.enable_position_correction, "position correction");
	y += LINE_H + 2;
	ADD(TH_ACT_SLEEP, true, def.enable_sleep, "sleeping");
	y += LINE_H + 2;
	ADD(TH_ACT_CONTINUOUS, true, def.enable_continuous, "continuous");
	y += LINE_H + 2;
	ADD(TH_ACT_MOTION, true, def.enable_motion, "motion");
	y += LINE_H + 2;
	ADD(TH_ACT_GRAVITY, true, def.gravity.x != 0.0f || def.gravity.y != 0.0f, "gravity %g %g", def.gravity.x,
	    def.gravity.y);
	y += LINE_H + 2;
	ADD(TH_ACT_SUBSTEPS_DOWN, false, false, "[-]");
	x += items[n - 1].rect.w + 4;
	ADD(TH_ACT_SUBSTEPS_UP, false, false, "[+] substeps %d", def.substeps);
	x = view_w - RIGHT_W;
	y += LINE_H + 2;
	ADD(TH_ACT_HERTZ_DOWN, false, false, "[-]");
	x += items[n - 1].rect.w + 4;
	ADD(TH_ACT_HERTZ_UP, false, false, "[+] contact %g Hz", def.contact_hertz);
	x = view_w - RIGHT_W;
	y += LINE_H + 14 + LINE_H;
	for (int i = 0; i < TH_LAYER_COUNT; ++i) {
		th_action act = (th_action)(TH_ACT_LAYER_SHAPES + i);
		ADD(act, true, v->layers[i], "%s F%s", th_action_info_of(act)->name, th_action_info_of(act)->key + 1);
		y += LINE_H + 2;
	}
#undef ADD
	return n;
}

th_action th_overlay_click(th_overlay *o, const th_overlay_view *v, int x, int y, bool *taken)
{
	item items[TH_OVERLAY_MAX_ITEMS];
	int top = o->right_y > 0 ? o->right_y : PAD;
	int n = layout(v, v->view_w, top, items);
	SDL_Point p = {x, y};
	for (int i = 0; i < n; ++i) {
		if (SDL_PointInRect(&p, &items[i].rect)) {
			*taken = true;
			return items[i].action;
		}
	}
	/* clicks on the panels themselves do not reach the world either */
	int bottom = items[n - 1].rect.y + items[n - 1].rect.h + PAD;
	*taken = x >= v->view_w - RIGHT_W - PAD && y >= top && y <= bottom;
	return TH_ACT_NONE;
}

void th_overlay_init(th_overlay *o, bool visible)
{
	memset(o, 0, sizeof(*o));
	o->visible = visible;
}

void th_overlay_notice(th_overlay *o, const char *text)
{
	snprintf(o->notice, sizeof(o->notice), "%s", text);
	o->notice_frames = TH_OVERLAY_NOTICE_FRAMES;
}

void th_overlay_frame_time(th_overlay *o, double frame_ms)
{
	if (o->notice_frames > 0) o->notice_frames -= 1;
	o->frame_ms = frame_ms;
	o->fps_accum_ms += frame_ms;
	o->fps_frames += 1;
	if (o->fps_accum_ms >= 500.0) {
		o->fps = 1000.0 * o->fps_frames / o->fps_accum_ms;
		o->fps_accum_ms = 0.0;
		o->fps_frames = 0;
	}
}

void th_overlay_after_step(th_overlay *o, const tb_profile *profile, const tb_counters *counters, double dispatch_ms,
                           double update_ms, double step_ms)
{
	o->update_ms = update_ms;
	o->step_ms = step_ms;
	o->profile = *profile;
	o->counters = *counters;
	o->dispatch_ms = dispatch_ms;
	o->step_history[o->history_pos] = o->profile.step;
	o->history_pos = (o->history_pos + 1) % TH_OVERLAY_HISTORY;
}

static void text(th_target *t, int x, int y, SDL_Color c, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void text(th_target *t, int x, int y, SDL_Color c, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	th_render_text(t, (float)x, (float)y, TEXT_SCALE, buf, c);
}

static void draw_stats(th_overlay *o, const th_overlay_view *v, th_target *t)
{
	const tb_profile *p = &o->profile;
	const tb_counters *c = &o->counters;
	int w = 51 * CHAR_W + 2 * PAD;
	int lines = 12;
	int graph_h = 48;
	int panel_h = lines * LINE_H + graph_h + 3 * PAD;
	int top = clear_y(v, PAD, w, PAD, panel_h, t->height - 3 * LINE_H);
	o->left_y = top;
	int x = PAD + PAD, y = top + PAD;
	th_render_fill_rect(t->renderer, PAD, (float)top, (float)w, (float)panel_h, panel_bg);

	text(t, x, y, accent_color, "tumble %s", TUMBLE_VERSION);
	if (v->headless) {
		text(t, x + 14 * CHAR_W, y, text_color, "frame %lld  headless", v->frame);
	} else {
		text(t, x + 14 * CHAR_W, y, text_color, "frame %lld  %.0f fps  %.1f ms", v->frame, o->fps, o->frame_ms);
	}
	y += LINE_H;
	if (v->faulted) {
		text(t, x, y, (SDL_Color){255, 110, 110, 255}, "halted by an error (%s, F5 restart)",
		     v->error_moment >= 0 ? "F2 rewind" : "F2 resume");
	} else if (v->reviewing) {
		text(t, x, y, accent_color, "REWOUND  (F2 go on from here, End present)");
	} else if (v->paused) {
		text(t, x, y, accent_color, "PAUSED  (F2 resume, F3 step, PgUp rewind)");
	} else if (v->rewind_on) {
		text(t, x, y, dim_color, "running at %g x  rewind %.0f s, %.1f MB", v->time_scale,
		     v->snap_count > 0 ? (double)(v->tl_end - v->tl_first) / 60.0 : 0.0, (double)v->snap_bytes / (1024.0 * 1024.0));
	} else {
		text(t, x, y, dim_color, "running at %g x real time", v->time_scale);
	}
	y += LINE_H + 4;
	text(t, x, y, text_color, "step %.2f ms  update %.2f  events %.2f  draw %.2f", p->step, o->update_ms,
	     o->dispatch_ms, o->draw_ms);
	y += LINE_H + 2;
	const struct {
		const char *name;
		float ms;
	} phases[] = {
		{"pairs", p->pairs},         {"collide", p->collide},     {"solve", p->solve},
		{"prepare", p->prepare},     {"integrate", p->integrate}, {"warm start", p->warm_start},
		{"contacts", p->solve_contacts}, {"relax", p->relax},     {"restitution", p->restitution},
		{"store", p->store},         {"continuous", p->continuous}, {"sensors", p->sensors},
		{"sleep", p->sleep},
	};
	int count = (int)(sizeof(phases) / sizeof(phases[0]));
	for (int i = 0; i < count; ++i) {
		int col = i % 3, row = i / 3;
		int px = x + col * 17 * CHAR_W, py = y + row * LINE_H;
		text(t, px, py, dim_color, "%s", phases[i].name);
		text(t, px + 12 * CHAR_W, py, text_color, "%4.2f", phases[i].ms);
	}
	y += 5 * LINE_H + 4;
	text(t, x, y, text_color, "bodies %d (%d awake)  shapes %d  joints %d", c->body_count, c->awake_body_count,
	     c->shape_count, c->joint_count);
	y += LINE_H;
	text(t, x, y, text_color, "contacts %d (%d touching)  islands %d", c->contact_count, c->touching_contact_count,
	     c->island_count);
	y += LINE_H;
	text(t, x, y, text_color, "tree %d (static %d)  Lua %.1f MB  history %.1f MB%s", c->tree_height,
	     c->static_tree_height, v->lua_mb, v->history_mb, v->history_full ? " full" : "");
	y += LINE_H + 8;

	/* step time history; the scale adapts to the worst recent step */
	float worst = 1.0f;
	for (int i = 0; i < TH_OVERLAY_HISTORY; ++i) worst = fmaxf(worst, o->step_history[i]);
	float bar_w = (float)(w - 2 * PAD) / TH_OVERLAY_HISTORY;
	th_render_fill_rect(t->renderer, (float)x, (float)y, (float)(w - 2 * PAD), (float)graph_h,
	                    (SDL_Color){255, 255, 255, 18});
	for (int i = 0; i < TH_OVERLAY_HISTORY; ++i) {
		float v = o->step_history[(o->history_pos + i) % TH_OVERLAY_HISTORY];
		float bh = (float)graph_h * v / worst;
		th_render_fill_rect(t->renderer, (float)x + i * bar_w, (float)(y + graph_h) - bh, fmaxf(bar_w - 1.0f, 1.0f), bh,
		                    (SDL_Color){110, 190, 250, 220});
	}
	char scale_label[32];
	snprintf(scale_label, sizeof(scale_label), "%.1f ms", worst);
	th_render_text(t, (float)(x + 4), (float)(y + 2), 1, "step time", dim_color);
	int lw = 0;
	th_font_measure(scale_label, 1, &lw, NULL);
	th_render_text(t, (float)(x + w - 2 * PAD - lw - 4), (float)(y + 2), 1, scale_label, dim_color);
}

static void draw_settings(th_overlay *o, const th_overlay_view *v, th_target *t)
{
	item items[TH_OVERLAY_MAX_ITEMS];
	int n = layout(v, t->width, PAD, items);
	int x0 = t->width - RIGHT_W - PAD;
	int height = items[n - 1].rect.y + items[n - 1].rect.h + PAD - PAD;
	int top = clear_y(v, x0, RIGHT_W, PAD, height, t->height - 3 * LINE_H);
	o->right_y = top;
	n = layout(v, t->width, top, items);
	th_render_fill_rect(t->renderer, (float)x0, (float)top, (float)RIGHT_W, (float)height, panel_bg);
	text(t, x0 + PAD, top + PAD, accent_color, "controls (click)");
	text(t, x0 + PAD, items[ITEM_FIRST_SETTING].rect.y - LINE_H - 2, dim_color, "world settings");
	text(t, x0 + PAD, items[ITEM_FIRST_LAYER].rect.y - LINE_H - 2, dim_color, "draw layers");
	int mx = v->mouse_x, my = v->mouse_y;
	for (int i = 0; i < n; ++i) {
		item *it = &items[i];
		SDL_Point mp = {mx, my};
		if (SDL_PointInRect(&mp, &it->rect)) {
			th_render_fill_rect(t->renderer, (float)it->rect.x - 3, (float)it->rect.y - 1, (float)it->rect.w,
			                    (float)it->rect.h, (SDL_Color){255, 255, 255, 30});
		}
		if (it->toggle) {
			text(t, it->rect.x, it->rect.y, it->on ? on_color : off_color, "%s", it->on ? "[x]" : "[ ]");
			text(t, it->rect.x + 4 * CHAR_W, it->rect.y, it->on ? text_color : dim_color, "%s", it->label);
		} else {
			text(t, it->rect.x, it->rect.y, text_color, "%s", it->label);
		}
	}
}

/* ---------------- the timeline ---------------- */

#define TL_BAR_H 14
#define TL_PANEL_H (LINE_H + TL_BAR_H + 18)

/* The timeline's panel (a strip along the bottom) and its bar: from the
 * view's size alone, so clicks on it replay the same. */
static SDL_Rect timeline_panel(int view_w, int view_h)
{
	return (SDL_Rect){0, view_h - TL_PANEL_H, view_w, TL_PANEL_H};
}

static SDL_Rect timeline_bar(int view_w, int view_h)
{
	SDL_Rect p = timeline_panel(view_w, view_h);
	return (SDL_Rect){2 * PAD, p.y + 6 + LINE_H + 4, view_w - 4 * PAD, TL_BAR_H};
}

/* Height the timeline takes at the bottom (0 when hidden). */
static int timeline_height(const th_overlay_view *v)
{
	return v->timeline ? TL_PANEL_H : 0;
}

bool th_overlay_timeline_at(const th_overlay_view *v, int x, int y, bool dragging, long long *step)
{
	if (!v->timeline || !v->rewind_on || v->snap_count == 0) return false;
	SDL_Rect panel = timeline_panel(v->view_w, v->view_h);
	SDL_Rect bar = timeline_bar(v->view_w, v->view_h);
	if (!dragging && (y < panel.y || y >= panel.y + panel.h || x < bar.x - PAD || x > bar.x + bar.w + PAD)) return false;
	double f = bar.w > 0 ? (double)(x - bar.x) / bar.w : 1.0;
	f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
	*step = v->tl_first + (long long)llround(f * (double)(v->tl_end - v->tl_first));
	return true;
}

/* 150 -> "0:02.5" (steps at 60 Hz) */
static const char *clock_text(long long steps, char *buf, size_t size)
{
	long long tenths = (steps < 0 ? -steps : steps) / 6;
	snprintf(buf, size, "%s%lld:%02lld.%lld", steps < 0 ? "-" : "", tenths / 600, tenths / 10 % 60, tenths % 10);
	return buf;
}

static void draw_timeline(const th_overlay_view *v, th_target *t)
{
	if (!v->timeline) return;
	SDL_Rect panel = timeline_panel(t->width, t->height);
	SDL_Rect bar = timeline_bar(t->width, t->height);
	th_render_fill_rect(t->renderer, (float)panel.x, (float)panel.y, (float)panel.w, (float)panel.h,
	                    (SDL_Color){8, 10, 14, 225});
	int tx = 2 * PAD, ty = panel.y + 6;
	char a[32], b[32];
	if (!v->rewind_on || v->snap_count == 0) {
		const char *why = v->rewind_note != NULL ? v->rewind_note
		                  : !v->rewind_on        ? "rewind is off (--rewind 0)"
		                                         : "no moment kept yet";
		text(t, tx, ty, v->rewind_note != NULL ? (SDL_Color){255, 150, 120, 255} : dim_color, "timeline: %s", why);
		th_render_fill_rect(t->renderer, (float)bar.x, (float)bar.y, (float)bar.w, (float)bar.h,
		                    (SDL_Color){255, 255, 255, 18});
		return;
	}
	long long first = v->tl_first, end = v->tl_end > first ? v->tl_end : first + 1;
	double span = (double)(end - first);
#define TL_X(step) ((float)bar.x + (float)bar.w * (float)((double)((step) - first) / span))
	/* the kept span, the part lived up to the shown moment, the future beyond it */
	th_render_fill_rect(t->renderer, (float)bar.x, (float)bar.y, (float)bar.w, (float)bar.h,
	                    (SDL_Color){255, 255, 255, 24});
	long long now = v->frame < first ? first : v->frame > end ? end : v->frame;
	th_render_fill_rect(t->renderer, (float)bar.x, (float)bar.y + 3, TL_X(now) - bar.x, (float)bar.h - 6,
	                    (SDL_Color){110, 190, 250, 200});
	if (v->reviewing) {
		th_render_fill_rect(t->renderer, TL_X(now), (float)bar.y + 3, TL_X(v->tl_end) - TL_X(now), (float)bar.h - 6,
		                    (SDL_Color){110, 190, 250, 70});
	}
	/* a tick per kept moment (one every few pixels at most) */
	float last = -10.0f;
	for (int i = 0; i < v->snap_count; ++i) {
		float x = TL_X(v->snaps[i].step);
		if (x - last < 3.0f) continue;
		last = x;
		th_render_fill_rect(t->renderer, x, (float)bar.y + bar.h - 3, 1.0f, 3.0f, (SDL_Color){232, 234, 240, 150});
	}
	/* a mark where each edit took effect: from there on, its code ran */
	for (int i = 0; i < v->edit_count; ++i) {
		if (v->edits[i] < first || v->edits[i] > end) continue;
		float x = TL_X(v->edits[i]);
		th_render_fill_rect(t->renderer, x - 1, (float)bar.y - 4, 2.0f, (float)bar.h + 4, edit_color);
		th_render_fill_rect(t->renderer, x - 3, (float)bar.y - 6, 6.0f, 3.0f, edit_color);
	}
	if (v->faulted) {
		th_render_fill_rect(t->renderer, TL_X(v->tl_end) - 2, (float)bar.y - 2, 4.0f, (float)bar.h + 4,
		                    (SDL_Color){255, 80, 80, 255});
	}
	th_render_fill_rect(t->renderer, TL_X(now) - 1, (float)bar.y - 3, 3.0f, (float)bar.h + 6, accent_color);
#undef TL_X
	char left[160], right[160];
	if (v->reviewing) {
		snprintf(left, sizeof(left), "frame %lld  %s of %s   F2: go on from here", v->frame,
		         clock_text(v->frame - v->tl_end, a, sizeof(a)), clock_text(v->tl_end, b, sizeof(b)));
	} else {
		snprintf(left, sizeof(left), "frame %lld  %s", v->frame, clock_text(v->frame, a, sizeof(a)));
	}
	text(t, tx, ty, v->reviewing ? accent_color : text_color, "%s", left);
	int lw = 0, rw = 0;
	th_font_measure(left, TEXT_SCALE, &lw, NULL);
	/* the keys only where they fit, then the size only */
	snprintf(right, sizeof(right), "kept %s, %.1f MB   PgUp PgDn Home End%s",
	         clock_text(v->tl_end - v->tl_first, a, sizeof(a)), (double)v->snap_bytes / (1024.0 * 1024.0),
	         v->reviewing ? " Left Right" : "");
	th_font_measure(right, TEXT_SCALE, &rw, NULL);
	if (tx + lw + 4 * PAD + rw > t->width) {
		snprintf(right, sizeof(right), "kept %s, %.1f MB", clock_text(v->tl_end - v->tl_first, a, sizeof(a)),
		         (double)v->snap_bytes / (1024.0 * 1024.0));
		th_font_measure(right, TEXT_SCALE, &rw, NULL);
	}
	if (tx + lw + 4 * PAD + rw <= t->width) text(t, t->width - 2 * PAD - rw, ty, dim_color, "%s", right);
}

/* The last hot reload's outcome, bottom left, for a few seconds. */
static void draw_notice(const th_overlay *o, th_target *t, float bottom)
{
	if (o->notice_frames <= 0 || o->notice[0] == '\0') return;
	int w = 0;
	th_font_measure(o->notice, TEXT_SCALE, &w, NULL);
	float y = bottom - (float)LINE_H - PAD;
	th_render_fill_rect(t->renderer, PAD / 2, y - 3, (float)(w + PAD), (float)(LINE_H + 4), (SDL_Color){8, 10, 14, 200});
	th_render_text(t, PAD, y, TEXT_SCALE, o->notice, accent_color);
}

/* The key of an action as the hints show it ("F2", "P"), or "" for none. */
static void key_label(char *out, size_t size, th_action a)
{
	const char *key = th_action_key(a);
	snprintf(out, size, "%s", key != NULL ? key : "");
	if (out[0] >= 'a' && out[0] <= 'z') out[0] = (char)(out[0] - 'a' + 'A');
}

void th_overlay_draw(th_overlay *o, const th_overlay_view *v, th_target *t)
{
	int bottom = t->height - timeline_height(v);
	draw_timeline(v, t);
	if (v->plot != NULL) th_plot_draw(v->plot, t, v->frame - 1, v->reviewing ? v->tl_end - 1 : v->frame - 1, t->width - PAD, bottom - LINE_H - PAD);
	if (!o->visible) {
		draw_notice(o, t, (float)bottom);
		if (v->error != NULL) return; /* the error panel says it all and has the corner */
		/* out of the way of the level's own HUD, which usually takes the top corners */
		/* the keys in force: a level may have moved or turned them off */
		char pause[TH_KEY_NAME], overlay[TH_KEY_NAME], hint[96] = "";
		key_label(pause, sizeof(pause), TH_ACT_PAUSE);
		key_label(overlay, sizeof(overlay), TH_ACT_OVERLAY);
		if (v->faulted) {
			snprintf(hint, sizeof(hint), "HALTED  (F2 rewind)");
		} else if (v->reviewing) {
			snprintf(hint, sizeof(hint), pause[0] != '\0' ? "REWOUND  (%s resume from here)" : "REWOUND", pause);
		} else if (v->paused) {
			snprintf(hint, sizeof(hint), pause[0] != '\0' ? "PAUSED  (%s resume)" : "PAUSED", pause);
		} else if (overlay[0] != '\0') {
			snprintf(hint, sizeof(hint), "%s dev overlay", overlay);
		}
		if (hint[0] == '\0') return;
		SDL_Color c = v->faulted || v->paused ? accent_color : (SDL_Color){200, 204, 214, 110};
		int w = 0;
		th_font_measure(hint, TEXT_SCALE, &w, NULL);
		th_render_text(t, (float)(t->width - w - PAD), (float)(bottom - LINE_H - PAD / 2), TEXT_SCALE, hint, c);
		return;
	}
	double t0 = th_now_ms();
	draw_stats(o, v, t);
	draw_settings(o, v, t);
	const char *help = "F1 overlay  F2 pause  F3 step  F4 slow  F5 restart  F6-F10 layers  "
	                   "PgUp rewind  mouse: drag  Esc quit";
	int hw = 0;
	th_font_measure(help, 1, &hw, NULL);
	int scale = hw * 2 + 2 * PAD <= t->width ? 2 : 1;
	th_font_measure(help, scale, &hw, NULL);
	float y = (float)(bottom - TH_FONT_LINE * scale - 2 * PAD);
	/* the key bar goes up past level text at the bottom (a message line) */
	const th_render *r = v->render;
	for (int pass = 0; pass < r->text_box_count; ++pass) {
		SDL_Rect bar = {0, (int)y - 4, t->width, bottom - (int)y + 4};
		int above = -1;
		for (int i = 0; i < r->text_box_count; ++i) {
			if (SDL_HasIntersection(&bar, &r->text_boxes[i]) && r->text_boxes[i].y > t->height / 2) {
				int top = r->text_boxes[i].y - TH_FONT_LINE * scale - 2 * PAD;
				if (above < 0 || top < above) above = top;
			}
		}
		if (above < 0) break;
		y = (float)above;
	}
	th_render_fill_rect(t->renderer, 0, y - 4, (float)t->width, (float)(TH_FONT_LINE * scale + 2 * PAD) + 4,
	                    (SDL_Color){8, 10, 14, 220});
	th_render_text(t, (float)PAD, y + 2, scale, help, dim_color);
	draw_notice(o, t, y - 4);
	o->draw_ms = th_now_ms() - t0;
}

/* Splits text into lines of at most cols characters (tabs become two spaces). */
static int wrap_lines(const char *src, int cols, char *out, int out_size)
{
	int n = 0, col = 0, lines = 1;
	for (const char *p = src; *p != '\0' && n < out_size - 3; ++p) {
		if (*p == '\n') {
			out[n++] = '\n';
			col = 0;
			lines += 1;
			continue;
		}
		int width = *p == '\t' ? 2 : 1;
		if (col + width > cols) {
			out[n++] = '\n';
			col = 0;
			lines += 1;
		}
		if (*p == '\t') {
			out[n++] = ' ';
			out[n++] = ' ';
		} else {
			out[n++] = *p;
		}
		col += width;
	}
	out[n] = '\0';
	return lines;
}

/* A copy of text without every occurrence of dir + "/"; NULL if nothing to strip. */
static char *strip_prefix(const char *text, const char *dir)
{
	if (dir == NULL || dir[0] == '\0') return NULL;
	size_t n = strlen(dir);
	char *out = malloc(strlen(text) + 1);
	if (out == NULL) return NULL;
	char *o = out;
	for (const char *p = text; *p != '\0';) {
		if (strncmp(p, dir, n) == 0 && p[n] == '/') {
			p += n + 1;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

/* The error panel's place, text and choices; drawing and clicking share it.
 * Its text is malloc'd (NULL if there is no error). */
typedef struct error_panel {
	char *wrapped;
	int scale, line_h, lines;
	SDL_Rect rect;
	int choices;
	SDL_Rect choice[2];
	th_action choice_action[2];
	char choice_label[2][96];
	char note[96];
} error_panel;

static void error_layout(const th_overlay *o, const th_overlay_view *v, int width, int height, error_panel *e)
{
	memset(e, 0, sizeof(*e));
	if (v->error == NULL) return;
	e->scale = width >= 900 ? 2 : 1;
	int cols = (width - 4 * PAD) / (TH_FONT_ADVANCE * e->scale);
	if (cols < 20) cols = 20;
	/* paths relative to the level's directory: shorter lines, same meaning */
	char *shown = strip_prefix(v->error, v->level_dir);
	size_t size = strlen(shown != NULL ? shown : v->error) * 2 + 64;
	e->wrapped = malloc(size);
	if (e->wrapped == NULL) {
		free(shown);
		return;
	}
	e->lines = wrap_lines(shown != NULL ? shown : v->error, cols, e->wrapped, (int)size);
	free(shown);
	e->line_h = TH_FONT_LINE * e->scale;
	int max_lines = (height / 2) / e->line_h;
	if (e->lines > max_lines) {
		/* keep the head: the message and the innermost frames matter most */
		char *p = e->wrapped;
		for (int i = 0; i < max_lines && p != NULL; ++i) {
			p = strchr(p, '\n');
			if (p != NULL) p += 1;
		}
		if (p != NULL) p[-1] = '\0';
		e->lines = max_lines;
	}
	int panel_h = (e->lines + 3) * e->line_h + 4 * PAD;
	int y = height - timeline_height(v) - panel_h - PAD;
	if (o->visible) y -= TH_FONT_LINE * 2 + 2 * PAD;
	if (y < PAD) y = PAD;
	e->rect = (SDL_Rect){PAD, y, width - 2 * PAD, panel_h};
	/* the ways on: halted, rewind (or resume, with nothing kept) or restart;
	 * a failed reload runs on, so only a restart */
	char at[32];
	if (v->syntax_error) {
		/* nothing ran, so there is nothing to resume or rewind to */
		snprintf(e->note, sizeof(e->note), "fix the file and save: the level starts again");
	} else if (v->faulted && v->error_moment >= 0) {
		clock_text(v->error_moment, at, sizeof(at));
		snprintf(e->choice_label[0], sizeof(e->choice_label[0]), "[F2] rewind to frame %lld (%s) and go on",
		         v->error_moment, at);
		e->choice_action[e->choices++] = TH_ACT_PAUSE;
		snprintf(e->note, sizeof(e->note), "or save a fix: it goes on from frame %lld", v->error_moment);
	} else if (v->faulted) {
		snprintf(e->choice_label[0], sizeof(e->choice_label[0]), "[F2] resume anyway");
		e->choice_action[e->choices++] = TH_ACT_PAUSE;
		snprintf(e->note, sizeof(e->note), "or save a fix");
	} else {
		snprintf(e->note, sizeof(e->note), "fix the file and save to reload");
	}
	snprintf(e->choice_label[e->choices], sizeof(e->choice_label[0]), "[F5] restart");
	e->choice_action[e->choices++] = TH_ACT_RESTART;
	int x = 2 * PAD, cy = y + PAD + e->line_h + PAD;
	for (int i = 0; i < e->choices; ++i) {
		int w = 0;
		th_font_measure(e->choice_label[i], e->scale, &w, NULL);
		e->choice[i] = (SDL_Rect){x - 4, cy - 3, w + 8, e->line_h + 6};
		x += w + 8 + 2 * PAD;
	}
}

int th_overlay_bottom_inset(const th_overlay *o, const th_overlay_view *v, int width, int height)
{
	int inset = timeline_height(v);
	error_panel e;
	error_layout(o, v, width, height, &e);
	if (e.wrapped != NULL && height - (e.rect.y - PAD) > inset) inset = height - (e.rect.y - PAD);
	free(e.wrapped);
	/* the world keeps at least 40% of the view's height */
	int most = height * 3 / 5;
	return inset < most ? inset : most;
}

th_action th_overlay_error_click(const th_overlay *o, const th_overlay_view *v, int x, int y)
{
	error_panel e;
	error_layout(o, v, v->view_w, v->view_h, &e);
	free(e.wrapped);
	SDL_Point p = {x, y};
	for (int i = 0; i < e.choices; ++i) {
		if (SDL_PointInRect(&p, &e.choice[i])) return e.choice_action[i];
	}
	return TH_ACT_NONE;
}

void th_overlay_draw_error(th_overlay *o, const th_overlay_view *v, th_target *t)
{
	error_panel e;
	error_layout(o, v, t->width, t->height, &e);
	if (e.wrapped == NULL) return;
	SDL_Rect r = e.rect;
	th_render_fill_rect(t->renderer, (float)r.x, (float)r.y, (float)r.w, (float)r.h, (SDL_Color){70, 12, 16, 235});
	th_render_fill_rect(t->renderer, (float)r.x, (float)r.y, 4.0f, (float)r.h, (SDL_Color){255, 80, 80, 255});
	const char *title = v->syntax_error   ? "Syntax error - the level's file did not run"
	                    : v->faulted      ? "Lua error - simulation halted"
	                    : v->reload_error ? "Reload failed"
	                                      : "Lua error";
	th_render_text(t, 2 * PAD, (float)(r.y + PAD), e.scale, title, (SDL_Color){255, 120, 110, 255});
	SDL_Point mp = {v->mouse_x, v->mouse_y};
	int x_end = 2 * PAD;
	for (int i = 0; i < e.choices; ++i) {
		SDL_Rect c = e.choice[i];
		bool hover = SDL_PointInRect(&mp, &c);
		th_render_fill_rect(t->renderer, (float)c.x, (float)c.y, (float)c.w, (float)c.h,
		                    hover ? (SDL_Color){255, 255, 255, 70} : (SDL_Color){255, 255, 255, 28});
		th_render_text(t, (float)(c.x + 4), (float)(c.y + 3), e.scale, e.choice_label[i], (SDL_Color){255, 236, 200, 255});
		x_end = c.x + c.w + 2 * PAD;
	}
	th_render_text(t, (float)x_end, (float)(e.choice[0].y + 3), e.scale, e.note, dim_color);
	th_render_text(t, 2 * PAD, (float)(r.y + 2 * PAD + 2 * e.line_h + PAD), e.scale, e.wrapped,
	               (SDL_Color){255, 236, 230, 255});
	free(e.wrapped);
}
