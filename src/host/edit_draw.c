/* tumble host: edit mode's picture: the selection outlined, a preview of the
 * drag in progress, the handles, the box being drawn, and the inspector
 * panel with each value and where it comes from. It only draws: what a click
 * does is worked out from the same layout in app_edit.c, with no picture at
 * all when headless. */
#include "app_internal.h"
#include "tumble/tb_math.h"
#include "font.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const SDL_Color sel_color = {255, 170, 60, 255};
static const SDL_Color ghost_color = {120, 220, 255, 255};
static const SDL_Color handle_color = {255, 235, 150, 255};
static const SDL_Color panel_bg = {8, 10, 14, 225};
static const SDL_Color text_color = {232, 234, 240, 255};
static const SDL_Color dim_color = {150, 156, 170, 255};
static const SDL_Color warn_color = {255, 150, 120, 255};
static const SDL_Color accent_color = {255, 200, 90, 255};

static SDL_FPoint screen(th_app *app, th_target *t, tb_vec2 p)
{
	return th_render_to_screen(&app->render, t, p);
}

/* A shape's outline with its body at xf. */
static void outline(th_app *app, th_target *t, const tb_geometry *g, tb_transform xf, SDL_Color c)
{
	SDL_FPoint pts[2 * TB_MAX_POLYGON_VERTICES + 40];
	int n = 0;
	bool closed = true;
	switch (g->type) {
	case TB_SHAPE_POLYGON:
		for (int i = 0; i < g->polygon.count; ++i) pts[n++] = screen(app, t, tb_transform_point(xf, g->polygon.vertices[i]));
		break;
	case TB_SHAPE_CIRCLE:
		for (int i = 0; i < 32; ++i) {
			float a = (float)i * 6.2831853f / 32.0f;
			tb_vec2 lp = tb_mul_add(g->circle.center, g->circle.radius, tb_v2(cosf(a), sinf(a)));
			pts[n++] = screen(app, t, tb_transform_point(xf, lp));
		}
		break;
	case TB_SHAPE_CAPSULE: {
		tb_vec2 c1 = g->capsule.center1, c2 = g->capsule.center2;
		tb_vec2 d = tb_normalize(tb_sub(c2, c1));
		float base = atan2f(d.y, d.x);
		for (int i = 0; i <= 16; ++i) {
			float a = base - 1.5707963f + (float)i * 3.1415927f / 16.0f;
			pts[n++] = screen(app, t, tb_transform_point(xf, tb_mul_add(c2, g->capsule.radius, tb_v2(cosf(a), sinf(a)))));
		}
		for (int i = 0; i <= 16; ++i) {
			float a = base + 1.5707963f + (float)i * 3.1415927f / 16.0f;
			pts[n++] = screen(app, t, tb_transform_point(xf, tb_mul_add(c1, g->capsule.radius, tb_v2(cosf(a), sinf(a)))));
		}
		break;
	}
	case TB_SHAPE_SEGMENT:
		pts[n++] = screen(app, t, tb_transform_point(xf, g->segment.point1));
		pts[n++] = screen(app, t, tb_transform_point(xf, g->segment.point2));
		closed = false;
		break;
	case TB_SHAPE_CHAIN_SEGMENT:
		pts[n++] = screen(app, t, tb_transform_point(xf, g->chain_segment.segment.point1));
		pts[n++] = screen(app, t, tb_transform_point(xf, g->chain_segment.segment.point2));
		closed = false;
		break;
	default: return;
	}
	th_render_stroke(t->renderer, pts, n, closed, c);
}

/* The shape's geometry as the change would leave it. */
static void change_geometry(tb_geometry *g, const th_edit_change *c)
{
	if (c->kind != TH_EDIT_NUMBER) return;
	float v = (float)c->value;
	if (g->type == TB_SHAPE_CIRCLE && strcmp(c->name, "r") == 0) g->circle.radius = v;
	if (g->type == TB_SHAPE_CAPSULE && strcmp(c->name, "r") == 0) g->capsule.radius = v;
	if (g->type == TB_SHAPE_CAPSULE || g->type == TB_SHAPE_SEGMENT) {
		tb_vec2 *p1 = g->type == TB_SHAPE_CAPSULE ? &g->capsule.center1 : &g->segment.point1;
		tb_vec2 *p2 = g->type == TB_SHAPE_CAPSULE ? &g->capsule.center2 : &g->segment.point2;
		if (strcmp(c->name, "x1") == 0) p1->x = v;
		if (strcmp(c->name, "y1") == 0) p1->y = v;
		if (strcmp(c->name, "x2") == 0) p2->x = v;
		if (strcmp(c->name, "y2") == 0) p2->y = v;
	}
	if (g->type == TB_SHAPE_POLYGON && (strcmp(c->name, "w") == 0 || strcmp(c->name, "h") == 0)) {
		tb_vec2 ctr, ax;
		float w, h;
		if (!th_edit_polygon_box(&g->polygon, &ctr, &ax, &w, &h)) return;
		if (c->name[0] == 'w') w = v;
		else h = v;
		g->polygon = tb_make_offset_box(0.5f * w, 0.5f * h, ctr, (tb_rot){ax.x, ax.y});
	}
}

static void draw_body(th_app *app, th_target *t, tb_body_id b, const th_edit_change *ch, int nch, bool ghost)
{
	tb_world *w = app->level.world;
	tb_transform xf = tb_body_get_transform(w, b);
	if (ghost) {
		float x = xf.p.x, y = xf.p.y, angle = tb_body_get_angle(w, b);
		for (int i = 0; i < nch; ++i) {
			if (ch[i].obj.kind != TH_SEL_BODY || ch[i].obj.index1 != b.index1) continue;
			if (strcmp(ch[i].name, "x") == 0) x = (float)ch[i].value;
			if (strcmp(ch[i].name, "y") == 0) y = (float)ch[i].value;
			if (strcmp(ch[i].name, "angle") == 0) angle = (float)ch[i].value;
		}
		xf.p = tb_v2(x, y);
		xf.q = (tb_rot){cosf(angle), sinf(angle)};
	}
	tb_shape_id shapes[16];
	int n = tb_body_get_shapes(w, b, shapes, 16);
	for (int i = 0; i < n && i < 16; ++i) {
		tb_geometry g = tb_shape_get_geometry(w, shapes[i]);
		if (ghost) {
			for (int k = 0; k < nch; ++k) {
				if (ch[k].obj.kind == TH_SEL_SHAPE && ch[k].obj.index1 == shapes[i].index1) change_geometry(&g, &ch[k]);
			}
		}
		outline(app, t, &g, xf, ghost ? ghost_color : sel_color);
	}
}

static void square(th_target *t, SDL_FPoint p, float r, SDL_Color c)
{
	th_render_fill_rect(t->renderer, p.x - r, p.y - r, 2 * r, 2 * r, (SDL_Color){0, 0, 0, 200});
	th_render_fill_rect(t->renderer, p.x - r + 1, p.y - r + 1, 2 * r - 2, 2 * r - 2, c);
}

static void draw_world_part(th_app *app, th_target *t)
{
	th_edit *e = &app->edit;
	tb_world *w = app->level.world;
	if (w == NULL) return;
	th_edit_change ch[2 * TH_EDIT_MAX_SEL];
	int nch = th_app_edit_preview(app, ch, 2 * TH_EDIT_MAX_SEL);
	for (int i = 0; i < e->sel_count; ++i) {
		th_sel s = e->sel[i];
		if (!th_sel_valid(w, s)) continue;
		if (s.kind == TH_SEL_BODY) {
			draw_body(app, t, th_sel_body_id(s), NULL, 0, false);
			if (nch > 0) draw_body(app, t, th_sel_body_id(s), ch, nch, true);
		} else if (s.kind == TH_SEL_JOINT) {
			tb_joint_id j = th_sel_joint_id(s);
			SDL_FPoint pts[2] = {screen(app, t, tb_joint_get_world_anchor_a(w, j)), screen(app, t, tb_joint_get_world_anchor_b(w, j))};
			th_render_stroke(t->renderer, pts, 2, false, sel_color);
			/* an anchor being dragged: where it would go */
			if (nch >= 2 && th_sel_same(ch[0].obj, s)) {
				SDL_FPoint to = screen(app, t, tb_v2((float)ch[0].value, (float)ch[1].value));
				SDL_FPoint from = e->handle.kind == TH_H_ANCHOR_A ? pts[0] : pts[1];
				SDL_FPoint line[2] = {from, to};
				th_render_stroke(t->renderer, line, 2, false, ghost_color);
				square(t, to, 4, ghost_color);
			}
		}
	}
	/* the handles of the first selected object */
	if (e->sel_count > 0) {
		th_handle hs[TH_EDIT_MAX_HANDLES];
		int n = th_edit_handles(w, e->sel[0], app->render.scale, hs, TH_EDIT_MAX_HANDLES);
		SDL_FPoint origin = {0, 0};
		for (int i = 0; i < n; ++i) {
			SDL_FPoint p = screen(app, t, hs[i].p);
			switch (hs[i].kind) {
			case TH_H_MOVE:
				origin = p;
				th_render_fill_rect(t->renderer, p.x - 8, p.y - 0.5f, 16, 1, handle_color);
				th_render_fill_rect(t->renderer, p.x - 0.5f, p.y - 8, 1, 16, handle_color);
				square(t, p, 3, handle_color);
				break;
			case TH_H_ROTATE: {
				SDL_FPoint line[2] = {origin, p};
				th_render_stroke(t->renderer, line, 2, false, (SDL_Color){255, 235, 150, 120});
				th_render_circle(&app->render, t, hs[i].p, (float)(5.0 / app->render.scale), (SDL_Color){0, 0, 0, 220},
				                 handle_color, true, true);
				break;
			}
			default: square(t, p, 4, handle_color); break;
			}
		}
	}
	if (e->drag == TH_EDRAG_BOX) {
		float x0 = (float)(e->press_x < e->at_x ? e->press_x : e->at_x), y0 = (float)(e->press_y < e->at_y ? e->press_y : e->at_y);
		float x1 = (float)(e->press_x < e->at_x ? e->at_x : e->press_x), y1 = (float)(e->press_y < e->at_y ? e->at_y : e->press_y);
		th_render_fill_rect(t->renderer, x0, y0, x1 - x0, y1 - y0, (SDL_Color){120, 220, 255, 40});
		SDL_FPoint r[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
		th_render_stroke(t->renderer, r, 4, true, ghost_color);
	}
}

/* At most cols characters of s (the rest cut with '~'). */
static void fit(char *dst, size_t size, const char *s, int cols)
{
	snprintf(dst, size, "%s", s);
	if (cols > 1 && (int)strlen(dst) > cols && (size_t)cols < size) {
		dst[cols - 1] = '~';
		dst[cols] = '\0';
	}
}

/* The inspector as the world is now (a seek or a rebuild may have changed
 * it since the last event): read for the picture only, so what a click does
 * never depends on whether a frame was drawn. */
static th_edit_prop shown[TH_EDIT_MAX_PROPS];

static void draw_panel(th_app *app, th_target *t)
{
	th_edit *e = &app->edit;
	int count = 0;
	th_sel sel[TH_EDIT_MAX_SEL];
	int sel_count = 0;
	for (int i = 0; i < e->sel_count; ++i) {
		if (app->level.world != NULL && th_sel_valid(app->level.world, e->sel[i])) sel[sel_count++] = e->sel[i];
	}
	if (sel_count > 0) count = th_edit_read(&app->level, sel, sel_count, shown, TH_EDIT_MAX_PROPS);
	th_edit_layout l;
	th_app_edit_layout(app, &l);
	char line[160], cut[300];
	/* the banner, top left, always */
	snprintf(line, sizeof(line), "EDIT  grid %g m %s  |  F12 leave  G snap  [ ] grid  Del  Ctrl+D/Z  B C K P J add",
	         e->grid, e->snap ? "(snap)" : "(free)");
	int bw = (int)strlen(line) * TH_FONT_ADVANCE + 12;
	th_render_fill_rect(t->renderer, 8, 8, (float)bw, TH_EDIT_ROW_H + 6, panel_bg);
	th_render_text(t, 14, 12, 1, line, accent_color);
	if (e->status[0] != '\0') {
		fit(cut, sizeof(cut), e->status, (bw - 12) / TH_FONT_ADVANCE > 40 ? (bw - 12) / TH_FONT_ADVANCE : 40);
		int sw = (int)strlen(cut) * TH_FONT_ADVANCE + 12;
		th_render_fill_rect(t->renderer, 8, 8 + TH_EDIT_ROW_H + 6, (float)sw, TH_EDIT_ROW_H + 4, panel_bg);
		th_render_text(t, 14, 10 + TH_EDIT_ROW_H + 6, 1, cut,
		               strstr(e->status, "refused") != NULL || strstr(e->status, "not saved") != NULL ? warn_color : dim_color);
	}
	if (count == 0) return;
	th_render_fill_rect(t->renderer, (float)l.x, (float)l.y, (float)l.w, (float)l.h, panel_bg);
	snprintf(line, sizeof(line), "inspector: %d selected", sel_count);
	th_render_text(t, (float)l.x + 6, (float)l.y + 4, 1, line, accent_color);
	th_render_text(t, (float)l.x + 6, (float)l.y + 4 + TH_EDIT_ROW_H, 1, "property          value       from", dim_color);
	int name_x = l.x + 6, value_x = l.x + 6 + 18 * TH_FONT_ADVANCE, from_x = value_x + 12 * TH_FONT_ADVANCE;
	int from_cols = (l.x + l.w - 4 - from_x) / TH_FONT_ADVANCE;
	for (int row = 0; row < l.rows && row + e->scroll < count; ++row) {
		int i = row + e->scroll;
		const th_edit_prop *p = &shown[i];
		float y = (float)(l.rows_y + row * TH_EDIT_ROW_H);
		if (p->header) {
			th_render_fill_rect(t->renderer, (float)l.x + 2, y - 1, (float)l.w - 4, TH_EDIT_ROW_H, (SDL_Color){255, 200, 90, 40});
			th_render_text(t, (float)name_x, y + 1, 1, p->name, accent_color);
			continue;
		}
		bool active = (e->drag == TH_EDRAG_SCRUB || e->typing) && e->prop == i;
		if (active) th_render_fill_rect(t->renderer, (float)l.x + 2, y - 1, (float)l.w - 4, TH_EDIT_ROW_H, (SDL_Color){120, 220, 255, 50});
		fit(cut, sizeof(cut), p->name, 17);
		th_render_text(t, (float)name_x, y + 1, 1, cut, p->writable ? text_color : dim_color);
		const char *value = p->value;
		char buf[64];
		if (active && e->typing) {
			snprintf(buf, sizeof(buf), "%s_", e->typed);
			value = buf;
		} else if (active) {
			th_edit_format_number(th_app_edit_scrub_value(app), buf, sizeof(buf));
			value = buf;
		}
		fit(cut, sizeof(cut), value, 11);
		th_render_text(t, (float)value_x, y + 1, 1, cut, active ? ghost_color : p->number ? text_color : dim_color);
		char from[128];
		from[0] = '\0';
		bool unsaved = th_app_edit_unsaved(app, p->obj, p->name);
		bool plotted = th_app_edit_plotted(app, p->obj, p->name) >= 0;
		if (plotted) snprintf(from, sizeof(from), "plotted; ");
		if (unsaved) {
			snprintf(from + strlen(from), sizeof(from) - strlen(from), "not saved; ");
			th_app_edit_origin(app, p->obj, p->name, from + strlen(from), sizeof(from) - strlen(from));
		} else if (p->writable) {
			th_app_edit_origin(app, p->obj, p->name, from + strlen(from), sizeof(from) - strlen(from));
		}
		if (from[0] != '\0' && from_cols > 4) {
			fit(cut, sizeof(cut), from, from_cols);
			th_render_text(t, (float)from_x, y + 1, 1, cut,
			               unsaved ? warn_color : strncmp(from + (plotted ? 9 : 0), "literal", 7) == 0 ? (SDL_Color){120, 230, 130, 255} : dim_color);
		}
	}
	if (count > l.rows) {
		snprintf(line, sizeof(line), "lines %d-%d of %d (wheel scrolls)", e->scroll + 1,
		         e->scroll + l.rows < count ? e->scroll + l.rows : count, count);
		th_render_text(t, (float)name_x, (float)(l.rows_y + l.rows * TH_EDIT_ROW_H + 4), 1, line, dim_color);
	}
	th_render_text(t, (float)name_x, (float)(l.rows_y + l.rows * TH_EDIT_ROW_H + 4 + TH_EDIT_ROW_H), 1,
	               "click: type a number, drag: scrub it, right-click: plot it", dim_color);
}

void th_app_edit_draw(th_app *app, th_target *t)
{
	if (!app->edit.on) return;
	draw_world_part(app, t);
	draw_panel(app, t);
}
