/* tumble host: edit mode's write-back into the level's source. The binding
 * says which call made an object (tumble_lua_site_of); source_edit.h reads
 * that call and changes its literal (or adds the field), writes the file
 * atomically, and keeps this run's edits for undo and redo; then the level is
 * rebuilt from the file with its input replayed (th_app_reload), so the world
 * is always what the source builds. What the source cannot take (a value
 * computed by an expression, an object a helper made) goes to the running
 * world only, and the message says why. */
#include "app_internal.h"
#include "source_edit.h"
#include "tumble/tumble_lua.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *slash = path != NULL ? strrchr(path, '/') : NULL;
	return slash != NULL ? slash + 1 : path != NULL ? path : "?";
}

/* The session on the level's file, opened the first time it is needed. */
static th_source_session *session(th_app *app, char *why, size_t size)
{
	th_edit *e = &app->edit;
	if (e->source != NULL) return e->source;
	if (app->level_path == NULL) {
		snprintf(why, size, "the built-in demo has no file");
		return NULL;
	}
	char err[256];
	e->source = th_source_open(app->level_path, err, sizeof(err));
	if (e->source == NULL) snprintf(why, size, "%s", err);
	return e->source;
}

void th_app_edit_open_source(th_app *app)
{
	char why[256];
	if (app->level_path != NULL && session(app, why, sizeof(why)) == NULL) th_app_say(app, "edit: %s", why);
}

void th_app_edit_close(th_app *app)
{
	if (app->edit.source != NULL) th_source_close(app->edit.source);
	app->edit.source = NULL;
}

/* The constructor's field that a property is written as. */
static void field_of(th_app *app, th_sel obj, const char *prop, char *out, size_t size)
{
	snprintf(out, size, "%s", prop);
	/* a polygon's rounding is `radius` in box{} and polygon{}; r elsewhere */
	if (obj.kind == TH_SEL_SHAPE && strcmp(prop, "r") == 0 && app->level.world != NULL) {
		tb_shape_id id = {obj.index1, obj.generation};
		if (tb_shape_is_valid(app->level.world, id) && tb_shape_get_type(app->level.world, id) == TB_SHAPE_POLYGON) {
			snprintf(out, size, "radius");
		}
	}
}

typedef struct origin origin;
static void match_field(origin *o, char *field);

struct origin {
	bool known;            /* the site and its call were found */
	tumble_lua_site site;
	th_call call;
	const th_field *field; /* NULL: absent from the constructor */
	th_field sub;          /* a key of a table constructor value, when field points here */
	char why[200];         /* !known: why not */
};

/* In a table constructor's text ("{ kind = "linear", fx = 0, fy = -150 }"),
 * key's value: 1 a number (*v), 0 absent, -1 another expression, or a text
 * that is not a whole constructor (cut short). */
static int key_in_table(const char *text, const char *key, double *v)
{
	size_t n = strlen(text), k = strlen(key);
	if (n < 2 || text[0] != '{' || text[n - 1] != '}') return -1;
	int depth = 0;
	for (size_t i = 0; i < n; ++i) {
		char c = text[i];
		if (c == '"' || c == '\'') {
			for (++i; i < n && text[i] != c; ++i)
				if (text[i] == '\\') ++i;
			continue;
		}
		if (c == '{' || c == '(' || c == '[') depth++;
		if (c == '}' || c == ')' || c == ']') depth--;
		bool starts = isalpha((unsigned char)c) || c == '_';
		if (!starts || depth != 1 || (i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_' || text[i - 1] == '.'))) continue;
		size_t j = i;
		while (j < n && (isalnum((unsigned char)text[j]) || text[j] == '_')) ++j;
		size_t e = j;
		while (e < n && text[e] == ' ') ++e;
		bool is_key = j - i == k && memcmp(text + i, key, k) == 0 && e < n && text[e] == '=' && text[e + 1] != '=';
		if (!is_key) {
			i = j - 1;
			continue;
		}
		char *end = NULL;
		double x = strtod(text + e + 1, &end);
		if (end == text + e + 1) return -1;
		while (*end == ' ') ++end;
		if (*end != ',' && *end != ';' && *end != '}') return -1;
		*v = x;
		return 1;
	}
	return 0;
}

/* Where the object was made, and the field of its call for prop. */
static void find_origin(th_app *app, th_sel obj, const char *prop, origin *o)
{
	memset(o, 0, sizeof(*o));
	if (!th_edit_site(&app->level, obj, &o->site)) {
		snprintf(o->why, sizeof(o->why), "the binding does not know where it was made");
		return;
	}
	if (!o->site.in_level) {
		const char *chunk = o->site.chunk[0] == '@' ? o->site.chunk + 1 : o->site.chunk;
		if (o->site.level_line > 0) {
			snprintf(o->why, sizeof(o->why), "made by a helper (%s:%d), called at %s:%d", base_name(chunk), o->site.line,
			         base_name(app->level_path), o->site.level_line);
		} else {
			snprintf(o->why, sizeof(o->why), "made in %s:%d, not in the level's file", base_name(chunk), o->site.line);
		}
		return;
	}
	th_source_session *s = session(app, o->why, sizeof(o->why));
	if (s == NULL) return;
	size_t len;
	const char *text = th_source_text(s, &len);
	char err[200];
	if (!th_source_find_call(text, len, o->site.line, o->site.method, &o->call, err, sizeof(err))) {
		snprintf(o->why, sizeof(o->why), "%s", err);
		return;
	}
	o->known = true;
	char field[32];
	field_of(app, obj, prop, field, sizeof(field));
	match_field(o, field);
}

/* The call's field for a constructor option, or the computed table it is a
 * key of; NULL if absent. */
static void match_field(origin *o, char *field)
{
	o->field = NULL;
	for (int i = 0; i < o->call.field_count; ++i) {
		if (strcmp(o->call.fields[i].name, field) == 0) o->field = &o->call.fields[i];
	}
	/* a key of a table value (field.fy): the table's field, when that is
	 * computed as a whole (field = field_def()) */
	char *dot = strchr(field, '.');
	if (o->field == NULL && dot != NULL) {
		*dot = '\0';
		for (int i = 0; i < o->call.field_count; ++i) {
			if (strcmp(o->call.fields[i].name, field) == 0 && o->call.fields[i].kind == TH_VALUE_COMPUTED) {
				o->field = &o->call.fields[i];
			}
		}
		*dot = '.';
		/* a table constructor written in the call (field = { fy = -150 }):
		 * the key's own value, or absent (then added to that table) */
		double v;
		int found = o->field != NULL ? key_in_table(o->field->text, dot + 1, &v) : -1;
		if (found == 0) {
			o->field = NULL;
		} else if (found == 1) {
			o->sub = *o->field;
			o->sub.kind = TH_VALUE_NUMBER;
			o->sub.number = v;
			o->field = &o->sub;
		}
	}
}

/* The inspector asks for every line of an object each frame drawn: the
 * object's call is read once while the text and the level's run stay. */
static struct {
	bool valid;
	th_sel obj;
	unsigned run;
	const char *text;
	size_t len;
	origin o;
} cache;

void th_app_edit_origin(th_app *app, th_sel obj, const char *name, char *buf, size_t size)
{
	size_t len = 0;
	const char *text = app->edit.source != NULL ? th_source_text(app->edit.source, &len) : NULL;
	if (!(cache.valid && th_sel_same(cache.obj, obj) && cache.run == app->level.run && cache.text == text && cache.len == len)) {
		find_origin(app, obj, "", &cache.o);
		cache.valid = true;
		cache.obj = obj;
		cache.run = app->level.run;
		cache.text = app->edit.source != NULL ? th_source_text(app->edit.source, &cache.len) : NULL;
	}
	origin o = cache.o;
	o.field = NULL;
	if (o.known) {
		char field[32];
		field_of(app, obj, name, field, sizeof(field));
		match_field(&o, field);
	}
	const char *file = base_name(app->level_path);
	char shared[32] = "";
	if (o.known && o.site.count > 1) snprintf(shared, sizeof(shared), " (%d objects)", o.site.count);
	if (!o.known) {
		snprintf(buf, size, "%s", o.site.line > 0 && !o.site.in_level ? o.why : "");
	} else if (o.field == NULL) {
		snprintf(buf, size, "default, %s:%d%s", file, o.call.line, shared);
	} else if (o.field->kind == TH_VALUE_COMPUTED) {
		snprintf(buf, size, "computed, %s:%d: %s", file, o.field->line, o.field->text);
	} else {
		snprintf(buf, size, "literal, %s:%d%s", file, o.field->line, shared);
	}
}

/* The level's file changed (this run wrote it): rebuild from it now. */
static void reload(th_app *app)
{
	th_watch_seen(&app->watch, app->level_path);
	if (app->opt.source_written != NULL) app->opt.source_written(app->level_path);
	th_app_reload(app);
}

th_edit_writeback th_app_edit_write_back(th_app *app, const th_edit_change *c, char *why, size_t size)
{
	th_edit *e = &app->edit;
	if (c->kind == TH_EDIT_BOOLEAN) {
		snprintf(why, size, "true and false are not written back");
		return TH_WB_WORLD_ONLY;
	}
	origin o;
	find_origin(app, c->obj, c->name, &o);
	if (!o.known) {
		snprintf(why, size, "%s", o.why);
		return TH_WB_WORLD_ONLY;
	}
	const char *file = base_name(app->level_path);
	if (o.field != NULL && o.field->kind != TH_VALUE_NUMBER) {
		snprintf(why, size, "computed at %s:%d: %s", file, o.field->line, o.field->text);
		return TH_WB_WORLD_ONLY;
	}
	char field[32];
	field_of(app, c->obj, c->name, field, sizeof(field));
	double value = c->kind == TH_EDIT_INTEGER ? (double)c->integer : c->value;
	bool shared = o.site.count > 1 || o.call.in_loop || o.call.in_helper;
	if (shared && !(e->confirm_line == o.call.line && strcmp(e->confirm_field, field) == 0 && e->confirm_value == value)) {
		/* said before it is done: the same edit again goes ahead */
		e->confirm_line = o.call.line;
		snprintf(e->confirm_field, sizeof(e->confirm_field), "%s", field);
		e->confirm_value = value;
		snprintf(why, size, "%d objects come from %s:%d%s: the same edit again changes all of them",
		         o.site.count, file, o.call.line, o.call.in_loop ? " (a loop)" : "");
		return TH_WB_REFUSED;
	}
	e->confirm_line = 0;
	if (e->grouping) {
		/* written with the rest of the action by th_app_edit_group_end */
		if (e->group_count == (int)(sizeof(e->group) / sizeof(e->group[0]))) {
			snprintf(why, size, "too many numbers in one edit");
			return TH_WB_REFUSED;
		}
		int g = e->group_count++;
		e->group[g].line = o.site.line;
		snprintf(e->group[g].method, sizeof(e->group[g].method), "%s", o.site.method);
		snprintf(e->group[g].field, sizeof(e->group[g].field), "%s", field);
		e->group[g].value = value;
		snprintf(why, size, "%s %s:%d", o.field != NULL ? "written to" : "added to", file, o.call.line);
		return TH_WB_WRITTEN;
	}
	th_source_edit ed;
	memset(&ed, 0, sizeof(ed));
	ed.op = TH_EDIT_SET_NUMBER;
	ed.line = o.site.line;
	ed.method = o.site.method;
	ed.field = field;
	ed.value = value;
	ed.refuse_shared = false;
	char err[256];
	if (!th_source_apply(e->source, &ed, err, sizeof(err))) {
		snprintf(why, size, "%s", err);
		return TH_WB_REFUSED;
	}
	snprintf(why, size, "%s %s:%d", o.field != NULL ? "written to" : "added to", file, o.call.line);
	reload(app);
	return TH_WB_WRITTEN;
}

void th_app_edit_source_rebuilt(th_app *app)
{
	th_edit *e = &app->edit;
	if (e->source == NULL || !app->level.ok) return;
	char err[256];
	if (!th_source_reread(e->source, err, sizeof(err))) th_app_say(app, "edit: %s", err);
}

void th_app_edit_group_begin(th_app *app)
{
	app->edit.grouping = true;
	app->edit.group_count = 0;
}

bool th_app_edit_group_end(th_app *app)
{
	th_edit *e = &app->edit;
	e->grouping = false;
	int n = e->group_count;
	e->group_count = 0;
	if (n == 0) return true;
	th_source_edit ed[2 * TH_EDIT_MAX_SEL];
	memset(ed, 0, sizeof(ed));
	for (int i = 0; i < n; ++i) {
		ed[i].op = TH_EDIT_SET_NUMBER;
		ed[i].line = e->group[i].line;
		ed[i].method = e->group[i].method;
		ed[i].field = e->group[i].field;
		ed[i].value = e->group[i].value;
	}
	char err[256];
	if (!th_source_apply_group(e->source, ed, n, err, sizeof(err))) {
		for (int i = 0; i < n; ++i) th_app_say(app, "edit: %s refused: %s", e->group[i].said, err);
		snprintf(e->status, sizeof(e->status), "%.100s refused: %.140s", e->group[0].said, err);
		return false;
	}
	for (int i = 0; i < n; ++i) th_app_say(app, "edit: %s: %s", e->group[i].said, e->group[i].where);
	if (n > 1) th_app_say(app, "edit: %d numbers written as one edit (one undo)", n);
	snprintf(e->status, sizeof(e->status), "%.100s: %.120s%s", e->group[0].said, e->group[0].where, n > 1 ? " (and more)" : "");
	reload(app);
	return true;
}

bool th_app_edit_write_vertex(th_app *app, tb_shape_id sh, tb_vec2 was, double to_x, double to_y, char *why, size_t size)
{
	th_sel sel = {TH_SEL_SHAPE, sh.index1, sh.generation};
	tumble_lua_site site;
	if (!th_edit_site(&app->level, sel, &site)) {
		snprintf(why, size, "the binding does not know where it was made");
		return false;
	}
	if (!site.in_level || strcmp(site.method, "polygon") != 0) {
		snprintf(why, size, "its points are not a polygon{} in the level's file");
		return false;
	}
	th_source_session *s = session(app, why, size);
	if (s == NULL) return false;
	size_t len;
	const char *text = th_source_text(s, &len);
	th_call *call = malloc(sizeof(*call));
	char err[256];
	if (call == NULL || !th_source_find_call(text, len, site.line, site.method, call, err, sizeof(err))) {
		snprintf(why, size, "%s", call == NULL ? "out of memory" : err);
		free(call);
		return false;
	}
	/* the pair of positional numbers that made this vertex: x at [k], y at [k + 1] */
	int found = 0, at = 0;
	for (int i = 0; i + 1 < call->field_count; ++i) {
		const th_field *fx = &call->fields[i], *fy = &call->fields[i + 1];
		int k;
		char tail[8];
		if (sscanf(fx->name, "[%d]%7s", &k, tail) != 1 || k % 2 != 1) continue;
		char want[32];
		snprintf(want, sizeof(want), "[%d]", k + 1);
		if (strcmp(fy->name, want) != 0) continue;
		bool numbers = fx->kind == TH_VALUE_NUMBER && fy->kind == TH_VALUE_NUMBER;
		if (fabs(fx->number - was.x) < 1e-4 && fabs(fy->number - was.y) < 1e-4) {
			if (!numbers) {
				snprintf(why, size, "that point is computed at line %d: %s", fx->line, fx->text);
				free(call);
				return false;
			}
			found++, at = k;
		}
	}
	int line = call->line;
	free(call);
	if (found != 1) {
		snprintf(why, size, "%s", found == 0 ? "no literal point of the polygon{} at that vertex" : "two points of the polygon{} are that vertex");
		return false;
	}
	char fx[16], fy[16];
	snprintf(fx, sizeof(fx), "[%d]", at);
	snprintf(fy, sizeof(fy), "[%d]", at + 1);
	th_source_edit ed[2];
	memset(ed, 0, sizeof(ed));
	for (int i = 0; i < 2; ++i) {
		ed[i].op = TH_EDIT_SET_NUMBER;
		ed[i].line = site.line;
		ed[i].method = site.method;
		ed[i].field = i == 0 ? fx : fy;
		ed[i].value = i == 0 ? to_x : to_y;
	}
	if (!th_source_apply_group(s, ed, 2, err, sizeof(err))) {
		snprintf(why, size, "%s", err);
		return false;
	}
	snprintf(why, size, "points %s, %s written to %s:%d", fx, fy, base_name(app->level_path), line);
	reload(app);
	return true;
}

void th_app_edit_undo(th_app *app, bool undo)
{
	char why[256];
	th_source_session *s = session(app, why, sizeof(why));
	if (s == NULL) {
		th_app_say(app, "edit: nothing to %s: %s", undo ? "undo" : "redo", why);
		return;
	}
	if (app->reviewing) app->edit.edited_while_reviewing = true;
	if (!(undo ? th_source_undo(s, why, sizeof(why)) : th_source_redo(s, why, sizeof(why)))) {
		th_app_say(app, "edit: %s refused: %s", undo ? "undo" : "redo", why);
		return;
	}
	th_app_say(app, "edit: %s (%d more to undo, %d to redo)", undo ? "undone" : "redone", th_source_undo_count(s),
	           th_source_redo_count(s));
	reload(app);
}

static bool body_site(th_app *app, th_sel s, tumble_lua_site *site, char *why, size_t size)
{
	if (!th_edit_site(&app->level, s, site)) {
		snprintf(why, size, "the binding does not know where it was made");
		return false;
	}
	if (!site->in_level) {
		snprintf(why, size, "it was made by a helper, outside the level's file");
		return false;
	}
	return true;
}

void th_app_edit_structure(th_app *app, th_edit_structure_op op)
{
	th_edit *e = &app->edit;
	static const char *const names[] = {"duplicate", "delete", "add a box", "add a circle", "add a capsule",
	                                    "add a platform", "add a joint"};
	char why[256], err[256];
	th_source_session *s = session(app, why, sizeof(why));
	if (s == NULL) {
		th_app_say(app, "edit: cannot %s: %s", names[op], why);
		return;
	}
	th_source_edit ed;
	memset(&ed, 0, sizeof(ed));
	tumble_lua_site site, site_b;
	if (app->reviewing) e->edited_while_reviewing = true;
	if (op == TH_STRUCT_DUPLICATE || op == TH_STRUCT_DELETE) {
		if (e->sel_count == 0) {
			th_app_say(app, "edit: select something to %s", names[op]);
			return;
		}
		if (!body_site(app, e->sel[0], &site, why, sizeof(why))) {
			th_app_say(app, "edit: cannot %s: %s", names[op], why);
			return;
		}
		ed.op = op == TH_STRUCT_DUPLICATE ? TH_EDIT_DUPLICATE : TH_EDIT_DELETE;
		ed.line = site.line;
		ed.method = site.method;
		ed.value = e->grid > 0.0 ? e->grid : 0.1;
	} else {
		tb_vec2 p = th_app_edit_to_world(app, app->live.mouse_x, app->live.mouse_y);
		ed.op = TH_EDIT_INSERT;
		ed.item.x = th_edit_snap(p.x, e->grid > 0.0 ? e->grid : 0.1);
		ed.item.y = th_edit_snap(p.y, e->grid > 0.0 ? e->grid : 0.1);
		switch (op) {
		case TH_STRUCT_ADD_BOX: ed.item.kind = TH_PALETTE_BOX; ed.item.w = ed.item.h = 1.0; break;
		case TH_STRUCT_ADD_CIRCLE: ed.item.kind = TH_PALETTE_CIRCLE; ed.item.r = 0.5; break;
		case TH_STRUCT_ADD_CAPSULE: ed.item.kind = TH_PALETTE_CAPSULE; ed.item.w = 1.0; ed.item.r = 0.25; break;
		case TH_STRUCT_ADD_PLATFORM: ed.item.kind = TH_PALETTE_PLATFORM; ed.item.w = 4.0; ed.item.h = 0.5; break;
		default: {
			ed.item.kind = TH_PALETTE_JOINT;
			if (e->sel_count != 2 || e->sel[0].kind != TH_SEL_BODY || e->sel[1].kind != TH_SEL_BODY) {
				th_app_say(app, "edit: a joint joins two selected bodies (shift-click the second)");
				return;
			}
			if (!body_site(app, e->sel[0], &site, why, sizeof(why)) || !body_site(app, e->sel[1], &site_b, why, sizeof(why))) {
				th_app_say(app, "edit: cannot add a joint: %s", why);
				return;
			}
			ed.item.line_a = site.line;
			ed.item.line_b = site_b.line;
			/* at the second body's origin: where a hinge usually goes */
			tb_vec2 at = tb_body_get_position(app->level.world, th_sel_body_id(e->sel[1]));
			ed.item.x = th_edit_snap(at.x, e->grid > 0.0 ? e->grid : 0.1);
			ed.item.y = th_edit_snap(at.y, e->grid > 0.0 ? e->grid : 0.1);
			break;
		}
		}
	}
	if (!th_source_apply(s, &ed, err, sizeof(err))) {
		th_app_say(app, "edit: cannot %s: %s", names[op], err);
		return;
	}
	if (ed.op == TH_EDIT_INSERT) {
		th_app_say(app, "edit: %s: written to %s:%d", names[op], base_name(app->level_path), ed.new_line);
	} else {
		th_app_say(app, "edit: %s: written to %s:%d", names[op], base_name(app->level_path), ed.line);
	}
	/* the objects after the change are made in a new order: start afresh */
	e->sel_count = 0;
	reload(app);
}
