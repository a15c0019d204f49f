/* tumble: the Shape type, the shape constructors of Body (circle, box, polygon,
 * capsule, segment, chain) and areas (s.field). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

const char *const tl_shape_kind_names[TB_SHAPE_TYPE_COUNT + 1] = {"circle", "capsule", "segment", "polygon",
                                                                  "chain_segment", NULL};
static const char *const field_kind_names[] = {"none", "linear", "radial", "drag", NULL};
static const char *const falloff_names[] = {"none", "linear", "inverse_square", NULL};

/* Writable properties first; P_KIND and after are read-only. */
enum {
	P_FRICTION,
	P_RESTITUTION,
	P_DENSITY,
	P_SENSOR,
	P_ENABLED,
	P_CATEGORY,
	P_MASK,
	P_GROUP,
	P_USER,
	P_FIELD,
	P_ON_BEGIN,
	P_ON_END,
	P_ON_HIT,
	P_ON_SENSOR_ENTER,
	P_ON_SENSOR_EXIT,
	P_R,
	P_W,
	P_H,
	P_KIND,
	P_READ_ONLY = P_KIND,
	P_BODY,
	P_VALID,
	P_ID,
	P_CHAIN,
};

static const char *const shape_props[] = {
	"friction", "restitution", "density", "sensor", "enabled", "category", "mask", "group", "user", "field",
	"on_begin", "on_end", "on_hit", "on_sensor_enter", "on_sensor_exit", "r", "w", "h",
	"kind", "body", "valid", "id", "chain", NULL};

/* ---------------- areas ---------------- */

static const char *const linear_field_options[] = {"kind", "fx", "fy", "acceleration", NULL};
static const char *const radial_field_options[] = {"kind", "strength", "falloff", "x", "y", "acceleration", NULL};
static const char *const drag_field_options[] = {"kind", "drag", "acceleration", NULL};

/* The where of a key inside the field table at w: a property error names the
 * key alone ("bad value for Shape.field (field 'fx': ...)"), a constructor error
 * its path ("field 'field.fx': ..."). */
static const char *const field_keys[] = {"kind", "fx", "fy", "strength", "falloff", "x", "y", "drag", "acceleration",
                                         NULL};
static const char *const field_paths[] = {"field.kind", "field.fx", "field.fy", "field.strength", "field.falloff",
                                          "field.x", "field.y", "field.drag", "field.acceleration", NULL};

static const tl_where *field_where(const tl_where *w, tl_where *out, const char *key)
{
	*out = *w;
	out->field = key;
	if (w->prop == NULL) {
		for (int i = 0; field_keys[i] != NULL; ++i) {
			if (strcmp(field_keys[i], key) == 0) out->field = field_paths[i];
		}
	}
	return out;
}

/* Reads a field table ({kind = ...}) at idx; nil means no field. */
static void check_field(lua_State *L, int idx, const tl_where *w, tb_field *f)
{
	memset(f, 0, sizeof *f);
	if (lua_isnil(L, idx)) return;
	if (lua_type(L, idx) != LUA_TTABLE) tl_bad(L, w, "field table expected, got %s", tl_typename(L, idx));
	idx = lua_absindex(L, idx);
	tl_where fw;
	lua_getfield(L, idx, "kind");
	int kind = tl_enum(L, -1, field_where(w, &fw, "kind"), field_kind_names);
	lua_pop(L, 1);
	f->kind = (tb_field_kind)kind;
	const char *const *options = kind == TB_FIELD_LINEAR   ? linear_field_options
	                             : kind == TB_FIELD_RADIAL ? radial_field_options
	                             : kind == TB_FIELD_DRAG   ? drag_field_options
	                                                       : (const char *const[]){"kind", NULL};
	tl_check_options_at(L, idx, options, 0, w);
	for (int i = 1; options[i] != NULL; ++i) {
		const char *key = options[i];
		if (!tl_opt(L, idx, key)) continue;
		const tl_where *kw = field_where(w, &fw, key);
		if (strcmp(key, "fx") == 0) f->force.x = tl_float(L, -1, kw);
		else if (strcmp(key, "fy") == 0) f->force.y = tl_float(L, -1, kw);
		else if (strcmp(key, "strength") == 0) f->strength = tl_float(L, -1, kw);
		else if (strcmp(key, "falloff") == 0) f->falloff = (tb_falloff)tl_enum(L, -1, kw, falloff_names);
		else if (strcmp(key, "x") == 0) f->center.x = tl_coord(L, -1, kw);
		else if (strcmp(key, "y") == 0) f->center.y = tl_coord(L, -1, kw);
		else if (strcmp(key, "drag") == 0) f->drag = tl_nonneg(L, -1, kw);
		else if (strcmp(key, "acceleration") == 0) f->use_acceleration = tl_bool(L, -1, kw);
		lua_pop(L, 1);
	}
}

static void push_field(lua_State *L, const tb_field *f)
{
	lua_createtable(L, 0, 6);
	lua_pushstring(L, field_kind_names[f->kind]);
	lua_setfield(L, -2, "kind");
	switch (f->kind) {
		case TB_FIELD_LINEAR:
			lua_pushnumber(L, f->force.x);
			lua_setfield(L, -2, "fx");
			lua_pushnumber(L, f->force.y);
			lua_setfield(L, -2, "fy");
			break;
		case TB_FIELD_RADIAL:
			lua_pushnumber(L, f->strength);
			lua_setfield(L, -2, "strength");
			lua_pushstring(L, falloff_names[f->falloff]);
			lua_setfield(L, -2, "falloff");
			lua_pushnumber(L, f->center.x);
			lua_setfield(L, -2, "x");
			lua_pushnumber(L, f->center.y);
			lua_setfield(L, -2, "y");
			break;
		case TB_FIELD_DRAG:
			lua_pushnumber(L, f->drag);
			lua_setfield(L, -2, "drag");
			break;
		default: break;
	}
	lua_pushboolean(L, f->use_acceleration);
	lua_setfield(L, -2, "acceleration");
}

/* ---------------- handlers ---------------- */

/* Keeps the engine-side bit of handler ev in step with the value at idx. */
static void set_handler(lua_State *L, tl_handle *h, tb_world *w, int ev, int idx)
{
	tb_shape_id id = tl_shape_id(h);
	uintptr_t bits = (uintptr_t)tb_shape_get_user_data(w, id);
	if (lua_isnil(L, idx)) {
		bits &= ~((uintptr_t)1 << ev);
	} else {
		bits |= (uintptr_t)1 << ev;
		h->rec->shape_handler_mask |= 1u << ev;
	}
	tb_shape_set_user_data(w, id, (void *)bits);
}

/* ---------------- common shape options ---------------- */

#define SHAPE_COMMON                                                                                            \
	"density", "friction", "restitution", "sensor", "enabled", "category", "mask", "group", "contact_events",   \
		"hit_events", "sensor_events", "user", "field", "on_begin", "on_end", "on_hit", "on_sensor_enter",     \
		"on_sensor_exit"

static const char *const circle_options[] = {"r", "x", "y", SHAPE_COMMON, NULL};
static const char *const box_options[] = {"w", "h", "x", "y", "angle", "radius", SHAPE_COMMON, NULL};
static const char *const polygon_options[] = {"radius", SHAPE_COMMON, NULL};
static const char *const capsule_options[] = {"x1", "y1", "x2", "y2", "r", SHAPE_COMMON, NULL};
static const char *const segment_options[] = {"x1", "y1", "x2", "y2", SHAPE_COMMON, NULL};
static const char *const chain_options[] = {"loop", "friction", "restitution", "category", "mask", "group",
                                            "sensor_events", NULL};
static const char *const point_names[] = {"x1", "y1", "x2", "y2", "r", NULL};

typedef struct shape_options {
	tb_shape_def def;
	tb_field field;
	bool has_field;
} shape_options;

/* Reads the common options of the table at t into o (everything is checked
 * before the shape exists, so a bad option never leaves half a shape). */
static void read_common(lua_State *L, int t, shape_options *o)
{
	o->def = tb_default_shape_def();
	o->has_field = false;
	tb_shape_def *d = &o->def;
	if (t == 0) return;
	if (tl_opt(L, t, "density")) {
		const tl_where *w = TL_FIELD(t, "density");
		d->density = tl_nonneg(L, -1, w);
		if (d->density > (float)TL_MAX_DENSITY) tl_bad(L, w, "number <= 1e6 expected, got %s", tl_describe(L, -1));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "friction")) {
		d->friction = tl_nonneg(L, -1, TL_FIELD(t, "friction"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "restitution")) {
		d->restitution = tl_nonneg(L, -1, TL_FIELD(t, "restitution"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "sensor")) {
		d->is_sensor = tl_bool(L, -1, TL_FIELD(t, "sensor"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "enabled")) {
		d->is_enabled = tl_bool(L, -1, TL_FIELD(t, "enabled"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "category")) {
		d->filter.category_bits = (uint64_t)tl_integer(L, -1, TL_FIELD(t, "category"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "mask")) {
		d->filter.mask_bits = (uint64_t)tl_integer(L, -1, TL_FIELD(t, "mask"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "group")) {
		d->filter.group_index = tl_int_range(L, -1, TL_FIELD(t, "group"), INT32_MIN, INT32_MAX);
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "contact_events")) {
		d->enable_contact_events = tl_bool(L, -1, TL_FIELD(t, "contact_events"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "hit_events")) {
		d->enable_hit_events = tl_bool(L, -1, TL_FIELD(t, "hit_events"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "sensor_events")) {
		d->enable_sensor_events = tl_bool(L, -1, TL_FIELD(t, "sensor_events"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, t, "field")) {
		check_field(L, -1, TL_FIELD(t, "field"), &o->field);
		o->has_field = o->field.kind != TB_FIELD_NONE;
		lua_pop(L, 1);
	}
	for (int ev = 0; ev < TL_EV_COUNT; ++ev) {
		if (tl_opt(L, t, tl_handler_names[ev])) {
			tl_check_function_or_nil(L, -1, TL_FIELD(t, tl_handler_names[ev]));
			lua_pop(L, 1);
		}
	}
	d->user_data = NULL;
}

/* Creates the shape, pushes its handle and applies user, handlers and field. */
static int finish_shape(lua_State *L, tl_handle *bh, int t, shape_options *o, const tb_geometry *g)
{
	tb_world *w = bh->rec->world;
	tb_status st = TB_OK;
	tb_shape_id id = tb_create_shape(w, tl_body_id(bh), &o->def, g, &st);
	if (TB_IS_NULL(id)) {
		/* every number was checked finite already: the engine refuses a shape
		 * whose bounds reach TB_HUGE from its body's origin */
		const char *why = st == TB_ERR_INVALID_NUMBER ? "shape reaches beyond 1e6 m of its body's origin"
		                  : st != TB_OK              ? tl_status_text(st)
		                                             : "could not create the shape";
		return luaL_argerror(L, t != 0 ? t : 2, why);
	}
	tl_push_handle(L, bh->rec, TL_SHAPE, id.index1, id.generation, false);
	int s = lua_gettop(L);
	if (o->has_field) {
		st = tb_shape_set_field(w, id, &o->field);
		if (st != TB_OK) {
			tb_destroy_shape(w, id, true);
			return luaL_argerror(L, t, lua_pushfstring(L, "field 'field': %s", tl_status_text(st)));
		}
	}
	if (t == 0) return 1;
	bool anchor = false;
	if (lua_getfield(L, t, "user") != LUA_TNIL) {
		lua_setiuservalue(L, s, TL_UV_USER);
		anchor = true;
	} else {
		lua_pop(L, 1);
	}
	tl_handle *h = lua_touserdata(L, s);
	for (int ev = 0; ev < TL_EV_COUNT; ++ev) {
		if (lua_getfield(L, t, tl_handler_names[ev]) != LUA_TNIL) {
			set_handler(L, h, w, ev, lua_gettop(L));
			lua_setiuservalue(L, s, TL_UV_HANDLER(ev));
			anchor = true;
		} else {
			lua_pop(L, 1);
		}
	}
	if (anchor) tl_anchor(L, s, TL_SHAPE);
	lua_settop(L, s);
	return 1;
}

static tl_handle *check_body_arg(lua_State *L)
{
	tb_body_id id;
	tl_handle *h;
	tl_check_body(L, 1, &id, &h);
	return h;
}

/* b:circle{ r, x, y, ... } or b:circle(r [, x, y]) */
int tl_body_circle(lua_State *L)
{
	tl_handle *bh = check_body_arg(L);
	shape_options o;
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CIRCLE;
	int t = 0;
	if (lua_type(L, 2) == LUA_TNUMBER) {
		g.circle.radius = tl_size(L, 2, TL_ARG(2));
		if (!lua_isnoneornil(L, 3) || !lua_isnoneornil(L, 4)) {
			g.circle.center.x = tl_coord(L, 3, TL_ARG(3));
			g.circle.center.y = tl_coord(L, 4, TL_ARG(4));
		}
		read_common(L, 0, &o);
	} else {
		luaL_checktype(L, 2, LUA_TTABLE);
		t = 2;
		tl_check_options(L, t, circle_options, 0);
		if (!tl_opt(L, t, "r")) tl_bad(L, TL_FIELD(t, "r"), "positive number expected, got nil");
		g.circle.radius = tl_size(L, -1, TL_FIELD(t, "r"));
		lua_pop(L, 1);
		if (tl_opt(L, t, "x")) {
			g.circle.center.x = tl_coord(L, -1, TL_FIELD(t, "x"));
			lua_pop(L, 1);
		}
		if (tl_opt(L, t, "y")) {
			g.circle.center.y = tl_coord(L, -1, TL_FIELD(t, "y"));
			lua_pop(L, 1);
		}
		read_common(L, t, &o);
	}
	return finish_shape(L, bh, t, &o, &g);
}

static tb_geometry make_box(float w, float h, tb_vec2 center, tb_rot q, float radius)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_POLYGON;
	g.polygon = tb_make_offset_box(0.5f * w, 0.5f * h, center, q);
	g.polygon.radius = radius;
	return g;
}

/* b:box{ w, h, x, y, angle, radius, ... } or b:box(w, h [, x, y, angle]) */
int tl_body_box(lua_State *L)
{
	tl_handle *bh = check_body_arg(L);
	shape_options o;
	float w, h, angle = 0.0f, radius = 0.0f;
	tb_vec2 c = tb_vec2_zero;
	int t = 0;
	if (lua_type(L, 2) == LUA_TNUMBER) {
		w = tl_size(L, 2, TL_ARG(2));
		h = tl_size(L, 3, TL_ARG(3));
		if (!lua_isnoneornil(L, 4) || !lua_isnoneornil(L, 5)) {
			c.x = tl_coord(L, 4, TL_ARG(4));
			c.y = tl_coord(L, 5, TL_ARG(5));
		}
		if (!lua_isnoneornil(L, 6)) angle = tl_coord(L, 6, TL_ARG(6));
		read_common(L, 0, &o);
	} else {
		luaL_checktype(L, 2, LUA_TTABLE);
		t = 2;
		tl_check_options(L, t, box_options, 0);
		if (!tl_opt(L, t, "w")) tl_bad(L, TL_FIELD(t, "w"), "positive number expected, got nil");
		w = tl_size(L, -1, TL_FIELD(t, "w"));
		lua_pop(L, 1);
		if (!tl_opt(L, t, "h")) tl_bad(L, TL_FIELD(t, "h"), "positive number expected, got nil");
		h = tl_size(L, -1, TL_FIELD(t, "h"));
		lua_pop(L, 1);
		if (tl_opt(L, t, "x")) {
			c.x = tl_coord(L, -1, TL_FIELD(t, "x"));
			lua_pop(L, 1);
		}
		if (tl_opt(L, t, "y")) {
			c.y = tl_coord(L, -1, TL_FIELD(t, "y"));
			lua_pop(L, 1);
		}
		if (tl_opt(L, t, "angle")) {
			angle = tl_coord(L, -1, TL_FIELD(t, "angle"));
			lua_pop(L, 1);
		}
		if (tl_opt(L, t, "radius")) {
			radius = tl_radius(L, -1, TL_FIELD(t, "radius"));
			lua_pop(L, 1);
		}
		read_common(L, t, &o);
	}
	tb_geometry g = make_box(w, h, c, tb_make_rot(angle), radius);
	return finish_shape(L, bh, t, &o, &g);
}

/* Reads n coordinates t[1..n] into points (n even). */
static void read_points(lua_State *L, int t, int n, tb_vec2 *points)
{
	for (int i = 0; i < n; ++i) {
		lua_rawgeti(L, t, i + 1);
		char name[24];
		snprintf(name, sizeof name, "[%d]", i + 1);
		float v = tl_coord(L, -1, TL_FIELD(t, name));
		lua_pop(L, 1);
		if (i % 2 == 0) points[i / 2].x = v; else points[i / 2].y = v;
	}
}

/* b:polygon{ x1,y1, x2,y2, x3,y3, ..., radius = 0, ... } */
int tl_body_polygon(lua_State *L)
{
	tl_handle *bh = check_body_arg(L);
	luaL_checktype(L, 2, LUA_TTABLE);
	int n = tl_array_count(L, 2);
	tl_check_options(L, 2, polygon_options, n);
	if (n % 2 != 0) return luaL_argerror(L, 2, lua_pushfstring(L, "even number of coordinates expected, got %d", n));
	if (n < 6) return luaL_argerror(L, 2, lua_pushfstring(L, "at least 3 points expected, got %d", n / 2));
	if (n > 2 * TB_MAX_POLYGON_VERTICES) {
		return luaL_argerror(L, 2, lua_pushfstring(L, "at most %d points expected, got %d", TB_MAX_POLYGON_VERTICES,
		                                           n / 2));
	}
	tb_vec2 points[TB_MAX_POLYGON_VERTICES];
	read_points(L, 2, n, points);
	float radius = 0.0f;
	if (tl_opt(L, 2, "radius")) {
		radius = tl_radius(L, -1, TL_FIELD(2, "radius"));
		lua_pop(L, 1);
	}
	shape_options o;
	read_common(L, 2, &o);
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_POLYGON;
	tb_status st = tb_make_polygon(points, n / 2, radius, &g.polygon);
	if (st != TB_OK) return luaL_argerror(L, 2, tl_status_text(st));
	return finish_shape(L, bh, 2, &o, &g);
}

/* The two end points (and radius) of a capsule or segment, given as a list
 * {x1, y1, x2, y2 [, r]} or as named fields. */
static void read_two_points(lua_State *L, int t, bool with_radius, tb_vec2 *p1, tb_vec2 *p2, float *r)
{
	int want = with_radius ? 5 : 4;
	int n = tl_array_count(L, t);
	const char *const *names = point_names;
	if (n > 0) {
		if (tl_has_named(L, t, (const char *const[]){"x1", "y1", "x2", "y2", with_radius ? "r" : NULL, NULL})) {
			luaL_argerror(L, t, "give the points either as a list or as named fields, not both");
		}
		if (n != want) {
			luaL_argerror(L, t, lua_pushfstring(L, "%d numbers expected in the list, got %d", want, n));
		}
		float v[5];
		for (int i = 0; i < want; ++i) {
			lua_rawgeti(L, t, i + 1);
			char name[16];
			snprintf(name, sizeof name, "[%d]", i + 1);
			const tl_where *w = TL_FIELD(t, name);
			v[i] = i < 4 ? tl_coord(L, -1, w) : tl_size(L, -1, w);
			lua_pop(L, 1);
		}
		*p1 = tb_v2(v[0], v[1]);
		*p2 = tb_v2(v[2], v[3]);
		if (with_radius) *r = v[4];
		return;
	}
	float v[5] = {0};
	for (int i = 0; i < want; ++i) {
		const tl_where *w = TL_FIELD(t, names[i]);
		if (!tl_opt(L, t, names[i])) {
			tl_bad(L, w, "%s expected, got nil", i < 4 ? "number" : "positive number");
		}
		v[i] = i < 4 ? tl_coord(L, -1, w) : tl_size(L, -1, w);
		lua_pop(L, 1);
	}
	*p1 = tb_v2(v[0], v[1]);
	*p2 = tb_v2(v[2], v[3]);
	if (with_radius) *r = v[4];
}

/* b:capsule{ x1, y1, x2, y2, r } (list or named) */
int tl_body_capsule(lua_State *L)
{
	tl_handle *bh = check_body_arg(L);
	luaL_checktype(L, 2, LUA_TTABLE);
	tl_check_options(L, 2, capsule_options, 5);
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	read_two_points(L, 2, true, &g.capsule.center1, &g.capsule.center2, &g.capsule.radius);
	shape_options o;
	read_common(L, 2, &o);
	tb_status st = tb_validate_geometry(&g);
	if (st != TB_OK) return luaL_argerror(L, 2, tl_status_text(st));
	return finish_shape(L, bh, 2, &o, &g);
}

/* b:segment{ x1, y1, x2, y2 } (list or named) */
int tl_body_segment(lua_State *L)
{
	tl_handle *bh = check_body_arg(L);
	luaL_checktype(L, 2, LUA_TTABLE);
	tl_check_options(L, 2, segment_options, 4);
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_SEGMENT;
	read_two_points(L, 2, false, &g.segment.point1, &g.segment.point2, NULL);
	shape_options o;
	read_common(L, 2, &o);
	tb_status st = tb_validate_geometry(&g);
	if (st != TB_OK) return luaL_argerror(L, 2, tl_status_text(st));
	return finish_shape(L, bh, 2, &o, &g);
}

/* b:chain{ x1,y1, x2,y2, ..., loop = false } -> array of link shapes */
int tl_body_chain(lua_State *L)
{
	tl_handle *bh = check_body_arg(L);
	luaL_checktype(L, 2, LUA_TTABLE);
	int n = tl_array_count(L, 2);
	tl_check_options(L, 2, chain_options, n);
	tb_chain_def def = tb_default_chain_def();
	if (tl_opt(L, 2, "loop")) {
		def.loop = tl_bool(L, -1, TL_FIELD(2, "loop"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, 2, "friction")) {
		def.friction = tl_nonneg(L, -1, TL_FIELD(2, "friction"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, 2, "restitution")) {
		def.restitution = tl_nonneg(L, -1, TL_FIELD(2, "restitution"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, 2, "category")) {
		def.filter.category_bits = (uint64_t)tl_integer(L, -1, TL_FIELD(2, "category"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, 2, "mask")) {
		def.filter.mask_bits = (uint64_t)tl_integer(L, -1, TL_FIELD(2, "mask"));
		lua_pop(L, 1);
	}
	if (tl_opt(L, 2, "group")) {
		def.filter.group_index = tl_int_range(L, -1, TL_FIELD(2, "group"), INT32_MIN, INT32_MAX);
		lua_pop(L, 1);
	}
	if (tl_opt(L, 2, "sensor_events")) {
		def.enable_sensor_events = tl_bool(L, -1, TL_FIELD(2, "sensor_events"));
		lua_pop(L, 1);
	}
	if (n % 2 != 0) return luaL_argerror(L, 2, lua_pushfstring(L, "even number of coordinates expected, got %d", n));
	int min_points = def.loop ? 3 : 2;
	if (n / 2 < min_points) {
		return luaL_argerror(L, 2, lua_pushfstring(L, "at least %d points expected, got %d", min_points, n / 2));
	}
	int count = n / 2;
	/* points and link ids share the scratch buffer: points first */
	size_t points_bytes = sizeof(tb_vec2) * (size_t)count;
	tl_scratch(L, bh->rec, points_bytes + sizeof(tb_shape_id) * (size_t)(count + 1));
	tb_vec2 *points = bh->rec->scratch;
	read_points(L, 2, n, points);
	points = bh->rec->scratch; /* reading may not reallocate, but stay safe */
	tb_shape_id *links = (tb_shape_id *)((char *)bh->rec->scratch + points_bytes);
	def.points = points;
	def.count = count;
	def.user_data = NULL;
	tb_status st = TB_OK;
	int made = tb_create_chain(bh->rec->world, tl_body_id(bh), &def, links, count + 1, &st);
	if (made < 0) return luaL_argerror(L, 2, tl_status_text(st));
	if (made > count + 1) made = count + 1;
	/* copy the ids out: pushing handles does not touch the scratch buffer, but
	 * the array is small and a copy keeps that an implementation detail */
	lua_createtable(L, made, 0);
	for (int i = 0; i < made; ++i) {
		tb_shape_id s = ((tb_shape_id *)((char *)bh->rec->scratch + points_bytes))[i];
		tl_push_handle(L, bh->rec, TL_SHAPE, s.index1, s.generation, false);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

/* ---------------- boxes ---------------- */

/* A polygon that is a rectangle reads as a box: w along its first edge. */
static bool box_dims(const tb_polygon *p, float *w, float *h, tb_rot *q)
{
	if (p->count != 4) return false;
	const tb_vec2 *v = p->vertices;
	tb_vec2 e0 = tb_sub(v[1], v[0]), e1 = tb_sub(v[2], v[1]), e2 = tb_sub(v[3], v[2]), e3 = tb_sub(v[0], v[3]);
	float l0 = tb_length(e0), l1 = tb_length(e1);
	if (!(l0 > 0.0f && l1 > 0.0f)) return false;
	float tol = 1.0e-4f * (l0 + l1);
	if (fabsf(tb_dot(e0, e1)) > tol * (l0 + l1)) return false;
	if (tb_length(tb_add(e0, e2)) > tol || tb_length(tb_add(e1, e3)) > tol) return false;
	*w = l0;
	*h = l1;
	q->c = e0.x / l0;
	q->s = e0.y / l0;
	return true;
}

/* ---------------- properties ---------------- */

static int shape_index(lua_State *L)
{
	/* key first (it is on top), as in body_index */
	if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNUMBER) return 1;
	int p = (int)lua_tointeger(L, 2) - 1;
	tl_handle *h = lua_touserdata(L, 1);
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, "Shape");
	}
	if (p == P_VALID || p == P_ID) {
		/* both stay readable on a destroyed handle */
		if (p == P_VALID) lua_pushboolean(L, tl_handle_valid(h, TL_SHAPE)); else lua_pushinteger(L, h->index1);
		return 1;
	}
	tb_world *w = tl_live_shape(L, h);
	tb_shape_id id = tl_shape_id(h);
	switch (p) {
		case P_FRICTION: lua_pushnumber(L, tb_shape_get_friction(w, id)); break;
		case P_RESTITUTION: lua_pushnumber(L, tb_shape_get_restitution(w, id)); break;
		case P_DENSITY: lua_pushnumber(L, tb_shape_get_density(w, id)); break;
		case P_SENSOR: lua_pushboolean(L, tb_shape_is_sensor(w, id)); break;
		case P_ENABLED: lua_pushboolean(L, tb_shape_is_enabled(w, id)); break;
		case P_CATEGORY: lua_pushinteger(L, (lua_Integer)tb_shape_get_filter(w, id).category_bits); break;
		case P_MASK: lua_pushinteger(L, (lua_Integer)tb_shape_get_filter(w, id).mask_bits); break;
		case P_GROUP: lua_pushinteger(L, tb_shape_get_filter(w, id).group_index); break;
		case P_USER: lua_getiuservalue(L, 1, TL_UV_USER); break;
		case P_FIELD: {
			tb_field f;
			if (tb_shape_get_field(w, id, &f) && f.kind != TB_FIELD_NONE) {
				push_field(L, &f);
			} else {
				lua_pushnil(L);
			}
			break;
		}
		case P_ON_BEGIN:
		case P_ON_END:
		case P_ON_HIT:
		case P_ON_SENSOR_ENTER:
		case P_ON_SENSOR_EXIT: lua_getiuservalue(L, 1, TL_UV_HANDLER(p - P_ON_BEGIN)); break;
		case P_R: {
			tb_geometry g = tb_shape_get_geometry(w, id);
			if (g.type == TB_SHAPE_CIRCLE) lua_pushnumber(L, g.circle.radius);
			else if (g.type == TB_SHAPE_CAPSULE) lua_pushnumber(L, g.capsule.radius);
			else if (g.type == TB_SHAPE_POLYGON) lua_pushnumber(L, g.polygon.radius);
			else lua_pushnil(L);
			break;
		}
		case P_W:
		case P_H: {
			tb_geometry g = tb_shape_get_geometry(w, id);
			float bw, bh;
			tb_rot q;
			if (g.type == TB_SHAPE_POLYGON && box_dims(&g.polygon, &bw, &bh, &q)) {
				lua_pushnumber(L, p == P_W ? bw : bh);
			} else {
				lua_pushnil(L);
			}
			break;
		}
		case P_KIND: lua_pushstring(L, tl_shape_kind_names[tb_shape_get_type(w, id)]); break;
		case P_BODY: {
			tb_body_id b = tb_shape_get_body(w, id);
			tl_push_handle(L, h->rec, TL_BODY, b.index1, b.generation, false);
			break;
		}
		case P_ID: lua_pushinteger(L, h->index1); break;
		case P_CHAIN: {
			int32_t c = tb_shape_get_chain_id(w, id);
			if (c >= 0) lua_pushinteger(L, c); else lua_pushnil(L);
			break;
		}
		default: lua_pushnil(L); break;
	}
	return 1;
}

static _Noreturn void no_property(lua_State *L, tb_shape_type type, const char *key, const char *why)
{
	luaL_error(L, "Shape of kind '%s' has no property '%s'%s", tl_shape_kind_names[type], key, why);
	abort();
}

static void set_geometry(lua_State *L, tb_world *w, tb_shape_id id, const tb_geometry *g, const char *key)
{
	tb_status st = tb_shape_set_geometry(w, id, g);
	if (st != TB_OK) luaL_error(L, "bad value for Shape.%s (%s)", key, tl_status_text(st));
}

static int shape_newindex(lua_State *L)
{
	tl_handle *h = lua_touserdata(L, 1);
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, "Shape");
	}
	lua_pop(L, 1);
	lua_pushvalue(L, 2);
	int t = lua_rawget(L, lua_upvalueindex(1));
	if (t == LUA_TNIL || lua_type(L, 2) != LUA_TSTRING) {
		return luaL_error(L, "Shape has no property '%s'", luaL_tolstring(L, 2, NULL));
	}
	const char *key = lua_tostring(L, 2);
	if (t == LUA_TFUNCTION) return luaL_error(L, "cannot assign method '%s' of Shape", key);
	int p = (int)lua_tointeger(L, -1) - 1;
	lua_pop(L, 1);
	if (p >= P_READ_ONLY) return luaL_error(L, "cannot assign read-only property '%s' of Shape", key);
	tb_world *w = tl_live(L, h, TL_SHAPE);
	tb_shape_id id = tl_shape_id(h);
	const tl_where *where = TL_PROP("Shape", key);
	switch (p) {
		case P_FRICTION: tb_shape_set_friction(w, id, tl_nonneg(L, 3, where)); break;
		case P_RESTITUTION: tb_shape_set_restitution(w, id, tl_nonneg(L, 3, where)); break;
		case P_DENSITY: {
			float d = tl_nonneg(L, 3, where);
			if (d > (float)TL_MAX_DENSITY) tl_bad(L, where, "number <= 1e6 expected, got %s", tl_describe(L, 3));
			tb_shape_set_density(w, id, d, true);
			break;
		}
		case P_SENSOR: tb_shape_set_sensor(w, id, tl_bool(L, 3, where)); break;
		case P_ENABLED: tb_shape_set_enabled(w, id, tl_bool(L, 3, where)); break;
		case P_CATEGORY:
		case P_MASK:
		case P_GROUP: {
			tb_filter f = tb_shape_get_filter(w, id);
			if (p == P_CATEGORY) f.category_bits = (uint64_t)tl_integer(L, 3, where);
			else if (p == P_MASK) f.mask_bits = (uint64_t)tl_integer(L, 3, where);
			else f.group_index = tl_int_range(L, 3, where, INT32_MIN, INT32_MAX);
			tb_shape_set_filter(w, id, f);
			break;
		}
		case P_USER:
			lua_settop(L, 3);
			lua_setiuservalue(L, 1, TL_UV_USER);
			if (!lua_isnil(L, 3)) tl_anchor(L, 1, TL_SHAPE);
			break;
		case P_FIELD: {
			tb_field f;
			check_field(L, 3, where, &f);
			tb_status st = tb_shape_set_field(w, id, f.kind == TB_FIELD_NONE ? NULL : &f);
			if (st != TB_OK) tl_bad(L, where, "%s", tl_status_text(st));
			break;
		}
		case P_ON_BEGIN:
		case P_ON_END:
		case P_ON_HIT:
		case P_ON_SENSOR_ENTER:
		case P_ON_SENSOR_EXIT: {
			tl_check_function_or_nil(L, 3, where);
			lua_settop(L, 3);
			if (!lua_isnil(L, 3)) tl_anchor(L, 1, TL_SHAPE);
			set_handler(L, h, w, p - P_ON_BEGIN, 3);
			lua_setiuservalue(L, 1, TL_UV_HANDLER(p - P_ON_BEGIN));
			break;
		}
		case P_R: {
			tb_geometry g = tb_shape_get_geometry(w, id);
			if (g.type == TB_SHAPE_CIRCLE) g.circle.radius = tl_size(L, 3, where);
			else if (g.type == TB_SHAPE_CAPSULE) g.capsule.radius = tl_size(L, 3, where);
			else if (g.type == TB_SHAPE_POLYGON) g.polygon.radius = tl_radius(L, 3, where);
			else no_property(L, g.type, key, "");
			set_geometry(L, w, id, &g, key);
			break;
		}
		case P_W:
		case P_H: {
			tb_geometry g = tb_shape_get_geometry(w, id);
			float bw, bh;
			tb_rot q;
			if (g.type != TB_SHAPE_POLYGON) no_property(L, g.type, key, "");
			if (!box_dims(&g.polygon, &bw, &bh, &q)) no_property(L, g.type, key, " (not a box)");
			float v = tl_size(L, 3, where);
			if (p == P_W) bw = v; else bh = v;
			tb_geometry nb = make_box(bw, bh, g.polygon.centroid, q, g.polygon.radius);
			set_geometry(L, w, id, &nb, key);
			break;
		}
		default: break;
	}
	return 0;
}

/* ---------------- metamethods and methods ---------------- */

static int shape_tostring(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_SHAPE);
	if (tl_handle_valid(h, TL_SHAPE)) {
		tb_shape_type t = tb_shape_get_type(h->rec->world, tl_shape_id(h));
		lua_pushfstring(L, "Shape#%d(%s)", (int)h->index1, tl_shape_kind_names[t]);
	} else {
		lua_pushfstring(L, "Shape#%d(destroyed)", (int)h->index1);
	}
	return 1;
}

static int shape_gc(lua_State *L)
{
	tl_handle *h = tl_to_handle(L, 1, TL_SHAPE);
	if (h != NULL && h->rec != NULL) {
		tl_record_release(h->rec);
		h->rec = NULL;
	}
	return 0;
}

static int shape_destroy(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_SHAPE);
	if (h->rec == NULL || h->rec->world == NULL) return luaL_error(L, "world was destroyed");
	if (!tl_handle_valid(h, TL_SHAPE)) return 0;
	tl_forget(L, h->rec, TL_SHAPE, h->index1, h->generation);
	tb_destroy_shape(h->rec->world, tl_shape_id(h), true);
	return 0;
}

static int shape_test_point(lua_State *L)
{
	tb_shape_id id;
	tb_world *w = tl_check_shape(L, 1, &id, NULL);
	float x = tl_coord(L, 2, TL_ARG(2));
	float y = tl_coord(L, 3, TL_ARG(3));
	lua_pushboolean(L, tb_shape_test_point(w, id, tb_v2(x, y)));
	return 1;
}

static int shape_aabb(lua_State *L)
{
	tb_shape_id id;
	tb_world *w = tl_check_shape(L, 1, &id, NULL);
	tb_aabb b = tb_shape_get_aabb(w, id);
	lua_pushnumber(L, b.lower.x);
	lua_pushnumber(L, b.lower.y);
	lua_pushnumber(L, b.upper.x);
	lua_pushnumber(L, b.upper.y);
	return 4;
}

/* s:raycast(x1, y1, x2, y2) -> x, y, nx, ny, fraction (nothing on a miss) */
static int shape_raycast(lua_State *L)
{
	tb_shape_id id;
	tb_world *w = tl_check_shape(L, 1, &id, NULL);
	float x1 = tl_coord(L, 2, TL_ARG(2)), y1 = tl_coord(L, 3, TL_ARG(3));
	float x2 = tl_coord(L, 4, TL_ARG(4)), y2 = tl_coord(L, 5, TL_ARG(5));
	tb_vec2 d = tb_v2(x2 - x1, y2 - y1);
	if (d.x == 0.0f && d.y == 0.0f) return 0;
	tb_cast_output out = tb_shape_ray_cast(w, id, tb_v2(x1, y1), d);
	if (!out.hit) return 0;
	lua_pushnumber(L, out.point.x);
	lua_pushnumber(L, out.point.y);
	lua_pushnumber(L, out.normal.x);
	lua_pushnumber(L, out.normal.y);
	lua_pushnumber(L, out.fraction);
	return 5;
}

static void set_num(lua_State *L, const char *k, float v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

/* s:geometry() -> a table describing the shape in body coordinates */
static int shape_geometry(lua_State *L)
{
	tb_shape_id id;
	tb_world *w = tl_check_shape(L, 1, &id, NULL);
	tb_geometry g = tb_shape_get_geometry(w, id);
	lua_createtable(L, 0, 6);
	lua_pushstring(L, tl_shape_kind_names[g.type]);
	lua_setfield(L, -2, "kind");
	switch (g.type) {
		case TB_SHAPE_CIRCLE:
			set_num(L, "x", g.circle.center.x);
			set_num(L, "y", g.circle.center.y);
			set_num(L, "r", g.circle.radius);
			break;
		case TB_SHAPE_CAPSULE:
			set_num(L, "x1", g.capsule.center1.x);
			set_num(L, "y1", g.capsule.center1.y);
			set_num(L, "x2", g.capsule.center2.x);
			set_num(L, "y2", g.capsule.center2.y);
			set_num(L, "r", g.capsule.radius);
			break;
		case TB_SHAPE_SEGMENT:
			set_num(L, "x1", g.segment.point1.x);
			set_num(L, "y1", g.segment.point1.y);
			set_num(L, "x2", g.segment.point2.x);
			set_num(L, "y2", g.segment.point2.y);
			break;
		case TB_SHAPE_CHAIN_SEGMENT:
			set_num(L, "x1", g.chain_segment.segment.point1.x);
			set_num(L, "y1", g.chain_segment.segment.point1.y);
			set_num(L, "x2", g.chain_segment.segment.point2.x);
			set_num(L, "y2", g.chain_segment.segment.point2.y);
			tl_push_vec2(L, g.chain_segment.ghost1);
			lua_setfield(L, -2, "ghost1");
			tl_push_vec2(L, g.chain_segment.ghost2);
			lua_setfield(L, -2, "ghost2");
			break;
		case TB_SHAPE_POLYGON: {
			set_num(L, "radius", g.polygon.radius);
			int n = g.polygon.count;
			if (n < 0) n = 0;
			if (n > TB_MAX_POLYGON_VERTICES) n = TB_MAX_POLYGON_VERTICES;
			lua_createtable(L, 2 * n, 0);
			for (int i = 0; i < n; ++i) {
				lua_pushnumber(L, g.polygon.vertices[i].x);
				lua_rawseti(L, -2, 2 * i + 1);
				lua_pushnumber(L, g.polygon.vertices[i].y);
				lua_rawseti(L, -2, 2 * i + 2);
			}
			lua_setfield(L, -2, "points");
			tl_push_vec2(L, g.polygon.centroid);
			lua_setfield(L, -2, "centroid");
			break;
		}
		default: break;
	}
	return 1;
}

static const luaL_Reg shape_methods[] = {
	{"destroy", shape_destroy},
	{"test_point", shape_test_point},
	{"aabb", shape_aabb},
	{"raycast", shape_raycast},
	{"geometry", shape_geometry},
	{NULL, NULL},
};

const tl_type_info tl_shape_info = {shape_props, P_READ_ONLY, shape_methods, NULL, tl_shape_kind_names};
const char *const *const tl_field_kinds = field_kind_names;
const char *const *const tl_falloffs = falloff_names;

void tl_open_shape(lua_State *L)
{
	tl_new_metatable(L, TL_SHAPE);
	tl_set_accessors(L, -1, shape_props, shape_methods, shape_index, shape_newindex);
	lua_pushcfunction(L, shape_gc);
	lua_setfield(L, -2, "__gc");
	lua_pushcfunction(L, shape_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pushcfunction(L, tl_handle_eq);
	lua_setfield(L, -2, "__eq");
	lua_pop(L, 1);
}
