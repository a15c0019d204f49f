/* tumble host: edit mode's events (edit_mode.h). F12 turns it on and off;
 * while it is on, the mouse and the keys select, drag handles and edit the
 * inspector's numbers instead of reaching the level, and the host's own keys
 * (the timeline, the overlay, F5...) still work. */
#include "app_internal.h"
#include "tumble/tb_math.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
/* A press that moves less than this many pixels is a click. */
#define CLICK_SLOP 3
/* How near (pixels) the cursor must be to a handle, a joint or a line. */
#define HANDLE_PX 7.0
#define PICK_PX 5.0

static const double grids[] = {0.01, 0.05, 0.1, 0.25, 0.5, 1.0};
#define GRID_COUNT ((int)(sizeof(grids) / sizeof(grids[0])))

static void say(th_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(th_app *app, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(app->edit.status, sizeof(app->edit.status), fmt, ap);
	va_end(ap);
	th_app_say(app, "edit: %s", app->edit.status);
}

static bool key_held(const th_app *app, const char *a, const char *b)
{
	const th_input *in = &app->live;
	for (int i = 0; i < in->key_count; ++i) {
		if (in->keys[i].down && (strcmp(in->keys[i].name, a) == 0 || strcmp(in->keys[i].name, b) == 0)) return true;
	}
	return false;
}

static bool shift_held(const th_app *app) { return key_held(app, "left shift", "right shift"); }
static bool ctrl_held(const th_app *app)
{
	return key_held(app, "left ctrl", "right ctrl") || key_held(app, "left gui", "right gui");
}

/* How much the world is scaled to fit above the host's bottom panels, as the
 * frame draws it (th_target_fit), and the view's centre row there. */
static double view_fit(const th_app *app, double *center_y)
{
	const th_camera *c = &app->level.camera;
	int inset = th_app_view_inset((th_app *)app, c->view_w, c->view_h);
	th_target t = {.width = c->view_w, .height = c->view_h, .inset = inset};
	*center_y = th_target_center_y(&t);
	return th_target_fit(&t);
}

tb_vec2 th_app_edit_to_world(const th_app *app, int x, int y)
{
	const th_camera *c = &app->level.camera;
	double cy, fit = view_fit(app, &cy);
	double px = 0.5 * c->view_w + (x - 0.5 * c->view_w) / fit, py = 0.5 * c->view_h + (y - cy) / fit;
	return th_camera_to_world(c, px, py);
}

static double px_per_m(const th_app *app)
{
	double cy, s = app->level.camera.scale * view_fit(app, &cy);
	return s > 0.0 ? s : 1.0;
}

/* ---------------- the inspector's layout (the view's size only) ---------------- */

void th_app_edit_layout(const th_app *app, th_edit_layout *l)
{
	int view_w = app->level.camera.view_w, view_h = app->level.camera.view_h;
	l->w = TH_EDIT_PANEL_W < view_w - 16 ? TH_EDIT_PANEL_W : view_w - 16;
	l->x = view_w - l->w - 8;
	l->y = 8;
	l->rows_y = l->y + 2 * TH_EDIT_ROW_H + 4;
	l->rows = (view_h - l->rows_y - 3 * TH_EDIT_ROW_H - 8) / TH_EDIT_ROW_H;
	if (l->rows < 1) l->rows = 1;
	l->h = l->rows_y - l->y + l->rows * TH_EDIT_ROW_H + 2 * TH_EDIT_ROW_H + 4;
}

/* The inspector line at (x, y), or -1. */
static int prop_at(const th_app *app, int x, int y)
{
	const th_edit *e = &app->edit;
	th_edit_layout l;
	th_app_edit_layout(app, &l);
	if (e->prop_count == 0 || x < l.x || x >= l.x + l.w || y < l.rows_y) return -1;
	int row = (y - l.rows_y) / TH_EDIT_ROW_H;
	if (row >= l.rows) return -1;
	int i = row + e->scroll;
	return i < e->prop_count ? i : -1;
}

static bool over_panel(const th_app *app, int x, int y)
{
	th_edit_layout l;
	th_app_edit_layout(app, &l);
	return app->edit.prop_count > 0 && x >= l.x && x < l.x + l.w && y >= l.y && y < l.y + l.h;
}

/* ---------------- selection ---------------- */

/* Drops what is no longer in the world, and reads the inspector's lines. */
void th_app_edit_refresh(th_app *app)
{
	th_edit *e = &app->edit;
	tb_world *w = app->level.world;
	int n = 0;
	for (int i = 0; i < e->sel_count; ++i) {
		if (w != NULL && th_sel_valid(w, e->sel[i])) e->sel[n++] = e->sel[i];
	}
	e->sel_count = n;
	e->prop_count = n > 0 ? th_edit_read(&app->level, e->sel, n, e->props, TH_EDIT_MAX_PROPS) : 0;
	if (e->scroll > e->prop_count - 1) e->scroll = e->prop_count > 0 ? e->prop_count - 1 : 0;
	if (e->scroll < 0) e->scroll = 0;
}

static int sel_find(const th_edit *e, th_sel s)
{
	for (int i = 0; i < e->sel_count; ++i) {
		if (th_sel_same(e->sel[i], s)) return i;
	}
	return -1;
}

static void sel_add(th_edit *e, th_sel s)
{
	if (sel_find(e, s) < 0 && e->sel_count < TH_EDIT_MAX_SEL) e->sel[e->sel_count++] = s;
}

static void sel_remove(th_edit *e, int i)
{
	memmove(&e->sel[i], &e->sel[i + 1], (size_t)(e->sel_count - i - 1) * sizeof(e->sel[0]));
	e->sel_count -= 1;
}

/* ---------------- edits ---------------- */

/* "body #3" for messages. */
static void object_name(const th_app *app, th_sel s, char *buf, size_t size)
{
	static const char *const kinds[] = {"object", "body", "shape", "joint"};
	(void)app;
	snprintf(buf, size, "%s %d", kinds[s.kind], s.index1);
}

/* Sets one property: in the source that made the object when the source can
 * take it, else in the running world only (through the history, so a
 * rebuild or a rewind replays it), marked as not saved. */
static bool commit(th_app *app, const th_edit_change *c)
{
	th_level *lv = &app->level;
	char who[48], num[48];
	object_name(app, c->obj, who, sizeof(who));
	if (c->kind == TH_EDIT_INTEGER) {
		snprintf(num, sizeof(num), "%lld", (long long)c->integer);
	} else if (c->kind == TH_EDIT_BOOLEAN) {
		snprintf(num, sizeof(num), "%s", c->integer ? "true" : "false");
	} else {
		th_edit_format_number(c->value, num, sizeof(num));
	}
	char why[200];
	if (app->reviewing) app->edit.edited_while_reviewing = true;
	th_edit_writeback wb = th_app_edit_write_back(app, c, why, sizeof(why));
	if (wb == TH_WB_WRITTEN && app->edit.grouping) {
		/* said when the group is written, or refused with it */
		th_edit *e = &app->edit;
		snprintf(e->group[e->group_count - 1].said, sizeof(e->group[0].said), "%.47s.%.31s = %.40s", who, c->name, num);
		snprintf(e->group[e->group_count - 1].where, sizeof(e->group[0].where), "%s", why);
		return true;
	}
	if (wb == TH_WB_WRITTEN) {
		say(app, "%s.%s = %s: %s", who, c->name, num, why);
		return true;
	}
	if (wb == TH_WB_REFUSED) {
		say(app, "%s.%s = %s refused: %s", who, c->name, num, why);
		return false;
	}
	if (c->source_only) {
		say(app, "%s.%s = %s refused: only the source can change it, and %s", who, c->name, num, why);
		return false;
	}
	if (th_app_behind(app) || lv->faulted) {
		say(app, "%s.%s: the level is halted; nothing changed", who, c->name);
		return false;
	}
	/* an earlier moment is shown: the level goes on from it, with the edit */
	if (app->reviewing) {
		th_app_resume_here(app);
		app->paused = true;
	}
	th_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = TH_EV_EDIT;
	snprintf(ev.name, sizeof(ev.name), "%s", c->name);
	ev.button = c->obj.kind;
	ev.x = c->obj.index1;
	ev.y = (int)c->obj.generation;
	ev.dx = c->kind;
	ev.dy = (int)c->integer;
	ev.value = (float)c->value;
	char message[200];
	if (!th_edit_apply(lv, &ev, message, sizeof(message))) {
		say(app, "%s.%s = %s refused: %s", who, c->name, num, message);
		return false;
	}
	th_history_event(&app->history, &ev);
	th_edit *e = &app->edit;
	if (!th_app_edit_unsaved(app, c->obj, c->name)) {
		if (e->unsaved_count == 32) {
			memmove(&e->unsaved[0], &e->unsaved[1], 31 * sizeof(e->unsaved[0]));
			e->unsaved_count -= 1;
		}
		e->unsaved[e->unsaved_count].obj = c->obj;
		snprintf(e->unsaved[e->unsaved_count].name, sizeof(e->unsaved[0].name), "%s", c->name);
		e->unsaved_count += 1;
	}
	say(app, "%s.%s = %s in the running world only, not saved (%s)", who, c->name, num, why);
	return true;
}

bool th_app_edit_unsaved(const th_app *app, th_sel obj, const char *name)
{
	const th_edit *e = &app->edit;
	for (int i = 0; i < e->unsaved_count; ++i) {
		if (th_sel_same(e->unsaved[i].obj, obj) && strcmp(e->unsaved[i].name, name) == 0) return true;
	}
	return false;
}

/* One user action: the numbers the source takes are written as one edit. */
static void commit_all(th_app *app, const th_edit_change *c, int n)
{
	th_app_edit_group_begin(app);
	for (int i = 0; i < n; ++i) {
		/* a point's two numbers go together or not at all */
		if (!commit(app, &c[i]) && c[i].source_only) break;
	}
	th_app_edit_group_end(app);
	th_app_edit_refresh(app);
}

static th_edit_change number_change(th_sel obj, const char *name, double v)
{
	th_edit_change c;
	memset(&c, 0, sizeof(c));
	c.obj = obj;
	snprintf(c.name, sizeof(c.name), "%s", name);
	c.kind = TH_EDIT_NUMBER;
	c.value = v;
	return c;
}

static double snap_len(const th_app *app, double v)
{
	const th_edit *e = &app->edit;
	if (!e->snap) return v;
	double s = th_edit_snap(v, e->grid);
	return s > 0.0 ? s : e->grid;
}

/* What the drag in progress would set, for each object it holds: the
 * preview drawn while dragging, and the edits made on release. */
int th_app_edit_preview(const th_app *app, th_edit_change *out, int cap)
{
	const th_edit *e = &app->edit;
	tb_world *w = app->level.world;
	if (w == NULL) return 0;
	tb_vec2 a = th_app_edit_to_world(app, e->press_x, e->press_y), b = th_app_edit_to_world(app, e->at_x, e->at_y);
	int n = 0;
	if (e->drag == TH_EDRAG_MOVE) {
		/* the first body lands on the grid; the others keep their offsets */
		const th_sel *lead = NULL;
		for (int i = 0; i < e->sel_count && lead == NULL; ++i) {
			if (e->sel[i].kind == TH_SEL_BODY) lead = &e->sel[i];
		}
		if (lead == NULL) return 0;
		tb_vec2 p0 = tb_body_get_position(w, th_sel_body_id(*lead));
		double dx = (double)b.x - a.x, dy = (double)b.y - a.y;
		double tx = p0.x + dx, ty = p0.y + dy;
		if (e->snap) {
			tx = th_edit_snap(tx, e->grid);
			ty = th_edit_snap(ty, e->grid);
		}
		dx = tx - p0.x;
		dy = ty - p0.y;
		for (int i = 0; i < e->sel_count; ++i) {
			if (e->sel[i].kind != TH_SEL_BODY) continue;
			tb_vec2 p = tb_body_get_position(w, th_sel_body_id(e->sel[i]));
			double nx = &e->sel[i] == lead ? tx : p.x + dx, ny = &e->sel[i] == lead ? ty : p.y + dy;
			char t1[48], t2[48];
			th_edit_format_number(nx, t1, sizeof(t1));
			th_edit_format_number(p.x, t2, sizeof(t2));
			if (strcmp(t1, t2) != 0 && n < cap) out[n++] = number_change(e->sel[i], "x", strtod(t1, NULL));
			th_edit_format_number(ny, t1, sizeof(t1));
			th_edit_format_number(p.y, t2, sizeof(t2));
			if (strcmp(t1, t2) != 0 && n < cap) out[n++] = number_change(e->sel[i], "y", strtod(t1, NULL));
		}
		return n;
	}
	if (e->drag == TH_EDRAG_HANDLE && e->sel_count > 0 && e->sel[0].kind == TH_SEL_BODY && th_sel_valid(w, e->sel[0])) {
		th_sel s = e->sel[0];
		const th_handle *h = &e->handle;
		tb_transform xf = tb_body_get_transform(w, th_sel_body_id(s));
		tb_vec2 local = tb_inv_transform_point(xf, b);
		th_sel shape = {TH_SEL_SHAPE, h->shape.index1, h->shape.generation};
		switch (h->kind) {
		case TH_H_ROTATE: {
			double ang = atan2((double)b.y - xf.p.y, (double)b.x - xf.p.x) - PI / 2.0;
			while (ang > PI) ang -= 2.0 * PI;
			while (ang <= -PI) ang += 2.0 * PI;
			if (e->snap) ang = th_edit_snap_angle(ang);
			if (cap > 0) out[n++] = number_change(s, "angle", ang);
			break;
		}
		case TH_H_WIDTH:
		case TH_H_HEIGHT: {
			if (!tb_shape_is_valid(w, h->shape)) return 0;
			tb_geometry g = tb_shape_get_geometry(w, h->shape);
			tb_vec2 c, ax;
			float wd, ht;
			if (g.type != TB_SHAPE_POLYGON || !th_edit_polygon_box(&g.polygon, &c, &ax, &wd, &ht)) return 0;
			tb_vec2 dir = h->kind == TH_H_WIDTH ? ax : tb_left_perp(ax);
			double v = snap_len(app, 2.0 * fabs((double)tb_dot(tb_sub(local, c), dir)));
			if (v <= 0.0) return 0;
			if (cap > 0) out[n++] = number_change(shape, h->kind == TH_H_WIDTH ? "w" : "h", v);
			break;
		}
		case TH_H_RADIUS: {
			if (!tb_shape_is_valid(w, h->shape)) return 0;
			tb_geometry g = tb_shape_get_geometry(w, h->shape);
			double r;
			if (g.type == TB_SHAPE_CIRCLE) {
				r = tb_distance(local, g.circle.center);
			} else if (g.type == TB_SHAPE_CAPSULE) {
				tb_vec2 d = tb_sub(g.capsule.center2, g.capsule.center1);
				float len2 = tb_length_sq(d);
				float t = len2 > 0.0f ? tb_clampf(tb_dot(tb_sub(local, g.capsule.center1), d) / len2, 0.0f, 1.0f) : 0.0f;
				r = tb_distance(local, tb_mul_add(g.capsule.center1, t, d));
			} else {
				return 0;
			}
			r = snap_len(app, r);
			if (r <= 0.0) return 0;
			if (cap > 0) out[n++] = number_change(shape, "r", r);
			break;
		}
		case TH_H_END1:
		case TH_H_END2: {
			/* a capsule's or segment's end, in the body's frame: its x1, y1
			 * (or x2, y2); the source alone takes these */
			double x = local.x, y = local.y;
			if (e->snap) {
				x = th_edit_snap(x, e->grid);
				y = th_edit_snap(y, e->grid);
			}
			bool first = h->kind == TH_H_END1;
			if (n + 2 <= cap) {
				out[n] = number_change(shape, first ? "x1" : "x2", x);
				out[n++].source_only = true;
				out[n] = number_change(shape, first ? "y1" : "y2", y);
				out[n++].source_only = true;
			}
			break;
		}
		default: break;
		}
	}
	if (e->drag == TH_EDRAG_HANDLE && e->sel_count > 0 && e->sel[0].kind == TH_SEL_JOINT && th_sel_valid(w, e->sel[0])) {
		/* a joint's anchor, in the world: x, y for the kinds with one
		 * anchor point, x1, y1 (x2, y2) for a distance joint */
		th_sel s = e->sel[0];
		tb_joint_type type = tb_joint_get_type(w, th_sel_joint_id(s));
		double x = b.x, y = b.y;
		if (e->snap) {
			x = th_edit_snap(x, e->grid);
			y = th_edit_snap(y, e->grid);
		}
		bool a_end = e->handle.kind == TH_H_ANCHOR_A;
		const char *nx = NULL, *ny = NULL;
		if (type == TB_JOINT_DISTANCE) {
			nx = a_end ? "x1" : "x2";
			ny = a_end ? "y1" : "y2";
		} else if (type == TB_JOINT_REVOLUTE || type == TB_JOINT_WELD || type == TB_JOINT_PRISMATIC || type == TB_JOINT_WHEEL) {
			nx = "x";
			ny = "y";
		}
		if (nx != NULL && n + 2 <= cap) {
			out[n] = number_change(s, nx, x);
			out[n++].source_only = true;
			out[n] = number_change(s, ny, y);
			out[n++].source_only = true;
		}
	}
	return n;
}

/* ---------------- turning it on and off ---------------- */

static void toggle(th_app *app)
{
	th_edit *e = &app->edit;
	if (!e->on) {
		if (e->grid <= 0.0) {
			e->grid = 0.1;
			e->snap = true;
		}
		e->on = true;
		/* the file as it is now: an edit refuses to overwrite what another
		 * editor saves after this */
		th_app_edit_open_source(app);
		e->was_paused = app->paused;
		app->paused = true;
		e->drag = TH_EDRAG_NONE;
		e->typing = false;
		th_app_edit_refresh(app);
		say(app, "edit mode: click to select, drag to move; F12 leaves");
		return;
	}
	e->on = false;
	e->drag = TH_EDRAG_NONE;
	e->typing = false;
	if (app->reviewing) {
		/* go on from the moment shown, as F2 does */
		th_app_resume_here(app);
	} else {
		app->paused = e->was_paused;
	}
	say(app, "left edit mode");
}

/* ---------------- keys ---------------- */

static void nudge(th_app *app, double dx, double dy)
{
	th_edit *e = &app->edit;
	tb_world *w = app->level.world;
	th_edit_change c[2 * TH_EDIT_MAX_SEL];
	int n = 0;
	double step = e->snap ? e->grid : 0.01;
	for (int i = 0; i < e->sel_count; ++i) {
		if (e->sel[i].kind != TH_SEL_BODY || w == NULL) continue;
		tb_vec2 p = tb_body_get_position(w, th_sel_body_id(e->sel[i]));
		if (dx != 0.0) c[n++] = number_change(e->sel[i], "x", e->snap ? th_edit_snap(p.x + dx * step, step) : p.x + dx * step);
		if (dy != 0.0) c[n++] = number_change(e->sel[i], "y", e->snap ? th_edit_snap(p.y + dy * step, step) : p.y + dy * step);
	}
	for (int i = 0; i < n; ++i) {
		char t[48];
		th_edit_format_number(c[i].value, t, sizeof(t));
		c[i].value = strtod(t, NULL);
	}
	commit_all(app, c, n);
}

static void type_commit(th_app *app)
{
	th_edit *e = &app->edit;
	e->typing = false;
	if (e->prop < 0 || e->prop >= e->prop_count) return;
	const th_edit_prop *p = &e->props[e->prop];
	char *end = NULL;
	double v = strtod(e->typed, &end);
	if (end == e->typed || *end != '\0' || !isfinite(v)) {
		say(app, "'%s' is not a number: %s unchanged", e->typed, p->name);
		return;
	}
	th_edit_change c = number_change(p->obj, p->name, v);
	if (p->integer) {
		if (v != floor(v) || fabs(v) > 2147483647.0) {
			say(app, "%s takes a whole number, not %s", p->name, e->typed);
			return;
		}
		c.kind = TH_EDIT_INTEGER;
		c.integer = (long long)v;
	}
	commit_all(app, &c, 1);
}

static bool key_down(th_app *app, const th_event *ev)
{
	th_edit *e = &app->edit;
	const char *k = ev->name;
	if (e->typing) {
		if (strcmp(k, "return") == 0 || strcmp(k, "keypad enter") == 0) {
			type_commit(app);
		} else if (strcmp(k, "escape") == 0) {
			e->typing = false;
		} else if (strcmp(k, "backspace") == 0) {
			size_t len = strlen(e->typed);
			if (len > 0) e->typed[len - 1] = '\0';
		}
		return true; /* the rest arrives as text */
	}
	bool ctrl = ctrl_held(app), shift = shift_held(app);
	if (strcmp(k, "escape") == 0) {
		if (e->drag != TH_EDRAG_NONE) {
			e->drag = TH_EDRAG_NONE;
			return true;
		}
		if (e->sel_count > 0) {
			e->sel_count = 0;
			th_app_edit_refresh(app);
			return true;
		}
		return false; /* nothing selected: Escape quits, as always */
	}
	if (ctrl && strcmp(k, "z") == 0) {
		th_app_edit_undo(app, !shift);
		th_app_edit_refresh(app);
		return true;
	}
	if (ctrl && strcmp(k, "y") == 0) {
		th_app_edit_undo(app, false);
		th_app_edit_refresh(app);
		return true;
	}
	if (ctrl && strcmp(k, "d") == 0) {
		th_app_edit_structure(app, TH_STRUCT_DUPLICATE);
		th_app_edit_refresh(app);
		return true;
	}
	if (strcmp(k, "delete") == 0) {
		th_app_edit_structure(app, TH_STRUCT_DELETE);
		th_app_edit_refresh(app);
		return true;
	}
	if (!ctrl && e->sel_count > 0 && e->drag == TH_EDRAG_NONE) {
		int dx = strcmp(k, "left") == 0 ? -1 : strcmp(k, "right") == 0 ? 1 : 0;
		int dy = strcmp(k, "down") == 0 ? -1 : strcmp(k, "up") == 0 ? 1 : 0;
		if (dx != 0 || dy != 0) {
			nudge(app, dx, dy);
			return true;
		}
	}
	if (!ctrl && strcmp(k, "g") == 0) {
		e->snap = !e->snap;
		say(app, "snapping %s (grid %g m, angles 15 degrees)", e->snap ? "on" : "off", e->grid);
		return true;
	}
	if (!ctrl && (strcmp(k, "[") == 0 || strcmp(k, "]") == 0)) {
		int g = 0;
		while (g < GRID_COUNT - 1 && grids[g] < e->grid - 1e-9) g += 1;
		g += k[0] == '[' ? -1 : 1;
		if (g < 0) g = 0;
		if (g >= GRID_COUNT) g = GRID_COUNT - 1;
		e->grid = grids[g];
		say(app, "grid %g m", e->grid);
		return true;
	}
	if (!ctrl) {
		static const struct { const char *key; th_edit_structure_op op; } palette[] = {
			{"b", TH_STRUCT_ADD_BOX}, {"c", TH_STRUCT_ADD_CIRCLE}, {"k", TH_STRUCT_ADD_CAPSULE},
			{"p", TH_STRUCT_ADD_PLATFORM}, {"j", TH_STRUCT_ADD_JOINT},
		};
		for (size_t i = 0; i < sizeof(palette) / sizeof(palette[0]); ++i) {
			if (strcmp(k, palette[i].key) == 0) {
				th_app_edit_structure(app, palette[i].op);
				th_app_edit_refresh(app);
				return true;
			}
		}
	}
	/* the host's keys still work; the level's are held back */
	return th_action_for_key(k, app->reviewing) == TH_ACT_NONE;
}

/* ---------------- the mouse ---------------- */

static void press(th_app *app, const th_event *ev)
{
	th_edit *e = &app->edit;
	tb_world *w = app->level.world;
	th_app_edit_refresh(app);
	e->press_x = e->at_x = ev->x;
	e->press_y = e->at_y = ev->y;
	e->press_shift = shift_held(app);
	if (e->typing) type_commit(app);
	int row = prop_at(app, ev->x, ev->y);
	if (row >= 0) {
		const th_edit_prop *p = &e->props[row];
		if (p->header || !p->writable) {
			if (!p->header) say(app, "%s is read-only", p->name);
			return;
		}
		if (p->boolean) {
			th_edit_change c = number_change(p->obj, p->name, 0.0);
			c.kind = TH_EDIT_BOOLEAN;
			c.integer = !p->flag;
			commit_all(app, &c, 1);
			return;
		}
		if (!p->number) {
			say(app, "%s is not a number: change it in the source", p->name);
			return;
		}
		e->drag = TH_EDRAG_SCRUB;
		e->prop = row;
		e->scrub_from = p->num;
		return;
	}
	if (over_panel(app, ev->x, ev->y) || w == NULL) return;
	tb_vec2 p = th_app_edit_to_world(app, ev->x, ev->y);
	double ppm = px_per_m(app);
	if (e->sel_count > 0) {
		th_handle hs[TH_EDIT_MAX_HANDLES];
		int n = th_edit_handles(w, e->sel[0], ppm, hs, TH_EDIT_MAX_HANDLES);
		int hi = th_edit_handle_at(hs, n, p, (float)(HANDLE_PX / ppm));
		if (hi >= 0 && hs[hi].kind != TH_H_MOVE) {
			e->drag = TH_EDRAG_HANDLE;
			e->handle = hs[hi];
			return;
		}
		if (hi >= 0) {
			e->drag = TH_EDRAG_PRESS;
			return;
		}
	}
	th_sel s;
	if (th_edit_pick(w, p, (float)(PICK_PX / ppm), &s)) {
		int at = sel_find(e, s);
		if (e->press_shift) {
			if (at >= 0) {
				sel_remove(e, at);
			} else {
				sel_add(e, s);
			}
		} else if (at < 0) {
			e->sel_count = 0;
			sel_add(e, s);
		} else if (at > 0) {
			/* the one clicked leads (its handles are shown) */
			e->sel[at] = e->sel[0];
			e->sel[0] = s;
		}
		th_app_edit_refresh(app);
		e->drag = TH_EDRAG_PRESS;
		/* a press on a handle of what it just selected (a joint's anchor)
		 * drags that handle */
		if (e->sel_count > 0 && th_sel_same(e->sel[0], s)) {
			th_handle hs[TH_EDIT_MAX_HANDLES];
			int n = th_edit_handles(w, s, ppm, hs, TH_EDIT_MAX_HANDLES);
			int hi = th_edit_handle_at(hs, n, p, (float)(HANDLE_PX / ppm));
			if (hi >= 0 && hs[hi].kind != TH_H_MOVE) {
				e->drag = TH_EDRAG_HANDLE;
				e->handle = hs[hi];
			}
		}
		return;
	}
	if (!e->press_shift) e->sel_count = 0;
	th_app_edit_refresh(app);
	e->drag = TH_EDRAG_BOX;
}

static bool moved(const th_edit *e)
{
	return abs(e->at_x - e->press_x) > CLICK_SLOP || abs(e->at_y - e->press_y) > CLICK_SLOP;
}

static double scrub_value(const th_app *app)
{
	const th_edit *e = &app->edit;
	const th_edit_prop *p = &e->props[e->prop];
	int dx = e->at_x - e->press_x;
	if (p->integer) return floor(e->scrub_from + dx / 4);
	double step = strcmp(p->name, "angle") == 0 ? PI / 180.0 : (e->snap ? e->grid : 0.01);
	double v = e->scrub_from + dx * step;
	if (strcmp(p->name, "angle") == 0) return e->snap ? th_edit_snap_angle(v) : v;
	return e->snap ? th_edit_snap(v, step) : v;
}

double th_app_edit_scrub_value(const th_app *app)
{
	return scrub_value(app);
}

static void release(th_app *app)
{
	th_edit *e = &app->edit;
	th_edit_drag drag = e->drag;
	e->drag = TH_EDRAG_NONE;
	switch (drag) {
	case TH_EDRAG_MOVE:
	case TH_EDRAG_HANDLE: {
		if (drag == TH_EDRAG_HANDLE && e->handle.kind == TH_H_VERTEX) {
			tb_world *w = app->level.world;
			if (!moved(e) || w == NULL || !tb_shape_is_valid(w, e->handle.shape)) break;
			tb_geometry g = tb_shape_get_geometry(w, e->handle.shape);
			if (g.type != TB_SHAPE_POLYGON || e->handle.vertex >= g.polygon.count) break;
			tb_transform xf = tb_body_get_transform(w, tb_shape_get_body(w, e->handle.shape));
			tb_vec2 was = g.polygon.vertices[e->handle.vertex];
			tb_vec2 to = tb_inv_transform_point(xf, th_app_edit_to_world(app, e->at_x, e->at_y));
			double grid = e->snap ? e->grid : 0.01;
			double tx = th_edit_snap(to.x, grid), ty = th_edit_snap(to.y, grid);
			char t[48];
			th_edit_format_number(tx, t, sizeof(t));
			tx = strtod(t, NULL);
			th_edit_format_number(ty, t, sizeof(t));
			ty = strtod(t, NULL);
			char why[256];
			if (th_app_edit_write_vertex(app, e->handle.shape, was, tx, ty, why, sizeof(why))) {
				say(app, "vertex %d: %s", e->handle.vertex + 1, why);
			} else {
				say(app, "vertex %d refused: %s", e->handle.vertex + 1, why);
			}
			th_app_edit_refresh(app);
			break;
		}
		if (!moved(e)) break;
		e->drag = drag; /* the preview reads it */
		th_edit_change c[2 * TH_EDIT_MAX_SEL];
		int n = th_app_edit_preview(app, c, 2 * TH_EDIT_MAX_SEL);
		e->drag = TH_EDRAG_NONE;
		if (n == 0) say(app, "nothing changed (on the grid it is where it was)");
		commit_all(app, c, n);
		break;
	}
	case TH_EDRAG_BOX: {
		if (!moved(e) || app->level.world == NULL) break;
		th_sel found[TH_EDIT_MAX_SEL];
		int n = th_edit_pick_box(app->level.world, th_app_edit_to_world(app, e->press_x, e->press_y), th_app_edit_to_world(app, e->at_x, e->at_y),
		                         found, TH_EDIT_MAX_SEL);
		for (int i = 0; i < n; ++i) sel_add(e, found[i]);
		th_app_edit_refresh(app);
		break;
	}
	case TH_EDRAG_SCRUB: {
		if (e->prop < 0 || e->prop >= e->prop_count) break;
		if (!moved(e)) {
			/* a click on a number: type a new one */
			e->typing = true;
			e->typed[0] = '\0';
			break;
		}
		const th_edit_prop *p = &e->props[e->prop];
		th_edit_change c = number_change(p->obj, p->name, scrub_value(app));
		if (p->integer) {
			c.kind = TH_EDIT_INTEGER;
			c.integer = (long long)c.value;
		}
		commit_all(app, &c, 1);
		break;
	}
	default: break;
	}
}

/* ---------------- plot this ---------------- */

int th_app_edit_plotted(const th_app *app, th_sel obj, const char *name)
{
	const th_level *lv = &app->level;
	for (int i = 0; i < lv->plot_this_count; ++i) {
		const th_plot_this *w = &lv->plot_this[i];
		if (w->kind == (int)obj.kind && w->index1 == obj.index1 && w->generation == obj.generation &&
		    strcmp(w->prop, name) == 0) {
			return i;
		}
	}
	return -1;
}

/* A right-click on a property of the inspector plots it in the strip chart,
 * a series named "body 3.y" read every step; another takes it away. */
static void plot_this(th_app *app, int x, int y)
{
	th_edit *e = &app->edit;
	th_level *lv = &app->level;
	th_app_edit_refresh(app);
	int row = prop_at(app, x, y);
	if (row < 0 || e->props[row].header) return;
	const th_edit_prop *p = &e->props[row];
	char who[48], series[sizeof(lv->plot_this[0].series)];
	object_name(app, p->obj, who, sizeof(who));
	snprintf(series, sizeof(series), "%.31s.%.31s", who, p->name);
	int at = th_app_edit_plotted(app, p->obj, p->name);
	if (at >= 0) {
		memmove(&lv->plot_this[at], &lv->plot_this[at + 1], (size_t)(lv->plot_this_count - at - 1) * sizeof(lv->plot_this[0]));
		lv->plot_this_count -= 1;
		say(app, "%s is no longer plotted", series);
		return;
	}
	if (!p->number && !p->boolean) {
		say(app, "%s is not a number: it cannot be plotted", p->name);
		return;
	}
	if (app->plot == NULL) return;
	bool known = false;
	for (int i = 0; i < app->plot->count && !known; ++i) known = strcmp(app->plot->names[i], series) == 0;
	if (lv->plot_this_count == TH_PLOT_THIS_MAX || (!known && app->plot->count == TH_PLOT_MAX_SERIES)) {
		say(app, "%s: too many series: at most %d can be plotted", series, TH_PLOT_MAX_SERIES);
		return;
	}
	th_plot_this *w = &lv->plot_this[lv->plot_this_count++];
	memset(w, 0, sizeof(*w));
	w->kind = (int)p->obj.kind;
	w->index1 = p->obj.index1;
	w->generation = p->obj.generation;
	snprintf(w->prop, sizeof(w->prop), "%s", p->name);
	snprintf(w->series, sizeof(w->series), "%s", series);
	say(app, "%s plotted: a series of the strip chart from the next step (right-click again to stop)", series);
}

/* ---------------- the events ---------------- */

bool th_app_edit_event(th_app *app, const th_event *ev)
{
	th_edit *e = &app->edit;
	/* F12, or ` where F12 is taken (a browser opens its developer tools) */
	bool f12 = (ev->type == TH_EV_KEY_DOWN || ev->type == TH_EV_KEY_UP) &&
	           th_action_for_key(ev->name, false) == TH_ACT_EDIT;
	if (f12) {
		if (ev->type == TH_EV_KEY_DOWN) toggle(app);
		return true;
	}
	if (!e->on) return false;
	switch (ev->type) {
	case TH_EV_KEY_DOWN: return key_down(app, ev);
	case TH_EV_KEY_UP: {
		/* a key the level holds is let go of, so it does not stay held */
		const th_input *in = &app->level.input;
		for (int i = 0; i < in->key_count; ++i) {
			if (in->keys[i].down && strcmp(in->keys[i].name, ev->name) == 0) return false;
		}
		return th_action_for_key(ev->name, app->reviewing) == TH_ACT_NONE;
	}
	case TH_EV_TEXT:
		if (e->typing) {
			size_t len = strlen(e->typed);
			for (const char *c = ev->name; *c != '\0' && len + 1 < sizeof(e->typed); ++c) {
				if (strchr("0123456789+-.eE", *c) != NULL) e->typed[len++] = *c;
			}
			e->typed[len] = '\0';
		}
		return true;
	case TH_EV_MOUSE_DOWN: {
		if (ev->button == 3) plot_this(app, ev->x, ev->y);
		if (ev->button != 1) return true;
		/* the timeline and the error panel keep their clicks */
		th_overlay_view v;
		th_app_overlay_view(app, &v);
		long long step;
		if (th_overlay_timeline_at(&v, ev->x, ev->y, false, &step)) return false;
		if (th_overlay_error_click(&app->overlay, &v, ev->x, ev->y) != TH_ACT_NONE) return false;
		press(app, ev);
		return true;
	}
	case TH_EV_MOUSE_MOVE:
		if (app->scrubbing) return false;
		e->at_x = ev->x;
		e->at_y = ev->y;
		if (e->drag == TH_EDRAG_PRESS && moved(e)) e->drag = TH_EDRAG_MOVE;
		return true;
	case TH_EV_MOUSE_UP:
		if (app->scrubbing) return false;
		if (ev->button == 1) {
			e->at_x = ev->x;
			e->at_y = ev->y;
			release(app);
		}
		return true;
	case TH_EV_WHEEL:
		if (over_panel(app, app->live.mouse_x, app->live.mouse_y)) {
			e->scroll -= (int)(ev->wheel_y * 3.0f);
			th_app_edit_refresh(app);
		}
		return true;
	default: return false;
	}
}
