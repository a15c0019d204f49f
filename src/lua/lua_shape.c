/* tumble: the Shape type, the shape constructors of Body (circle, box, polygon,
 * capsule, segment, chain) and areas (s.field). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

const char *const tl_shape_kind_names[TB_SHAPE_TYPE_COUNT + 1] = {"circle", "capsule", "segment", "polygon",
                                                                  "chain_segment", NULL};
const char *const tl_field_kind_names[] = {"none", "linear", "radial", "drag", NULL};
const char *const tl_falloff_names[] = {"none", "linear", "inverse_square", NULL};

/* The constructors, as option sets: bit i is constructor i. */
enum { C_CIRCLE = 1, C_BOX = 2, C_POLYGON = 4, C_CAPSULE = 8, C_SEGMENT = 16, C_CHAIN = 32 };
#define C_SOLID (C_CIRCLE | C_BOX | C_POLYGON | C_CAPSULE | C_SEGMENT)
#define C_ALL (C_SOLID | C_CHAIN)
static const char *const constructor_names[] = {"circle", "box", "polygon", "capsule", "segment", "chain", NULL};

/* Every name of Shape: X(name, flags, constructors taking it as an option).
 * The order is the order of the options in "valid options: ..." messages. */
#define SHAPE_FIELDS(X)                                                                                        \
	X(x1, 0, C_CAPSULE | C_SEGMENT)                                                                            \
	X(y1, 0, C_CAPSULE | C_SEGMENT)                                                                            \
	X(x2, 0, C_CAPSULE | C_SEGMENT)                                                                            \
	X(y2, 0, C_CAPSULE | C_SEGMENT)                                                                            \
	X(r, TL_RW, C_CIRCLE | C_CAPSULE)                                                                          \
	X(w, TL_RW, C_BOX)                                                                                         \
	X(h, TL_RW, C_BOX)                                                                                         \
	X(x, 0, C_CIRCLE | C_BOX)                                                                                  \
	X(y, 0, C_CIRCLE | C_BOX)                                                                                  \
	X(angle, 0, C_BOX)                                                                                         \
	X(radius, 0, C_BOX | C_POLYGON)                                                                            \
	X(loop, 0, C_CHAIN)                                                                                        \
	X(density, TL_RW, C_SOLID)                                                                                 \
	X(friction, TL_RW, C_ALL)                                                                                  \
	X(restitution, TL_RW, C_ALL)                                                                               \
	X(rolling_resistance, TL_RW, C_ALL)                                                                        \
	X(tangent_speed, TL_RW, C_ALL)                                                                             \
	X(one_way, TL_RW, C_SOLID)                                                                                 \
	X(sensor, TL_RW, C_SOLID)                                                                                  \
	X(enabled, TL_RW, C_SOLID)                                                                                 \
	X(category, TL_RW, C_ALL)                                                                                  \
	X(mask, TL_RW, C_ALL)                                                                                      \
	X(group, TL_RW, C_ALL)                                                                                     \
	X(contact_events, 0, C_SOLID)                                                                              \
	X(hit_events, 0, C_SOLID)                                                                                  \
	X(sensor_events, 0, C_ALL)                                                                                 \
	X(user, TL_RW, C_SOLID)                                                                                    \
	X(field, TL_RW, C_SOLID)                                                                                   \
	X(on_begin, TL_RW, C_SOLID)                                                                                \
	X(on_end, TL_RW, C_SOLID)                                                                                  \
	X(on_hit, TL_RW, C_SOLID)                                                                                  \
	X(on_sensor_enter, TL_RW, C_SOLID)                                                                         \
	X(on_sensor_exit, TL_RW, C_SOLID)                                                                          \
	X(kind, TL_RO, 0)                                                                                          \
	X(body, TL_RO, 0)                                                                                          \
	X(valid, TL_RO | TL_ALWAYS, 0)                                                                             \
	X(id, TL_RO | TL_ALWAYS, 0)                                                                                \
	X(chain, TL_RO, 0)

enum {
#define ENUM(name, ...) P_##name,
	SHAPE_FIELDS(ENUM)
#undef ENUM
	P_COUNT
};
static const char *const shape_names[] = {SHAPE_FIELDS(TL_X_NAME) NULL};
static const uint8_t shape_flags[] = {SHAPE_FIELDS(TL_X_FLAGS)};
#define OPTION(name, flags, ctors) (ctors),
static const uint32_t shape_options[] = {SHAPE_FIELDS(OPTION)};
#undef OPTION
/* on_begin ... follow the events' order */
#define HANDLER_ORDER(name) _Static_assert(P_on_##name == P_on_begin + TL_EV_##name, "shape handler order");
TL_EVENTS(HANDLER_ORDER)
#undef HANDLER_ORDER

/* ---------------- areas ---------------- */

/* Every name of a field table: X(name, field kinds taking it). */
#define F_LINEAR (1u << TB_FIELD_LINEAR)
#define F_RADIAL (1u << TB_FIELD_RADIAL)
#define F_DRAG (1u << TB_FIELD_DRAG)
#define F_ALL (1u | F_LINEAR | F_RADIAL | F_DRAG)
#define FIELD_FIELDS(X)                                                                                        \
	X(kind, F_ALL)                                                                                             \
	X(fx, F_LINEAR)                                                                                            \
	X(fy, F_LINEAR)                                                                                            \
	X(strength, F_RADIAL)                                                                                      \
	X(falloff, F_RADIAL)                                                                                       \
	X(x, F_RADIAL)                                                                                             \
	X(y, F_RADIAL)                                                                                             \
	X(drag, F_DRAG)                                                                                            \
	X(acceleration, F_ALL)

enum {
#define ENUM(name, ...) F_##name,
	FIELD_FIELDS(ENUM)
#undef ENUM
	F_COUNT
};
static const char *const field_names[] = {FIELD_FIELDS(TL_X_NAME) NULL};
#define PATH(name, ...) "field." #name,
static const char *const field_paths[] = {FIELD_FIELDS(PATH) NULL};
#undef PATH
#define OPTION(name, kinds) (kinds),
static const uint32_t field_options[] = {FIELD_FIELDS(OPTION)};
#undef OPTION
static const uint8_t field_flags[F_COUNT];

const tl_spec tl_field_spec = {
	.type = TL_SHAPE,
	.count = F_COUNT,
	.names = field_names,
	.flags = field_flags,
	.options = field_options,
	.option_sets = tl_field_kind_names,
	.kinds = tl_field_kind_names,
};

/* The where of a key inside the field table at w: a property error names the
 * key alone ("bad value for Shape.field (field 'fx': ...)"), a constructor error
 * its path ("field 'field.fx': ..."). */
static const tl_where *field_where(const tl_where *w, tl_where *out, int f)
{
	*out = *w;
	out->field = w->prop == NULL ? field_paths[f] : field_names[f];
	return out;
}

/* Reads a field table ({kind = ...}) at idx, raw; nil means no field. */
static void check_field(lua_State *L, int idx, const tl_where *w, tb_field *f)
{
	memset(f, 0, sizeof *f);
	if (lua_isnil(L, idx)) return;
	if (lua_type(L, idx) != LUA_TTABLE) tl_bad(L, w, "field table expected, got %s", tl_typename(L, idx));
	idx = lua_absindex(L, idx);
	int top = lua_gettop(L);
	tl_where fw;
	lua_pushliteral(L, "kind");
	lua_rawget(L, idx);
	int kind = tl_enum(L, -1, field_where(w, &fw, F_kind), tl_field_kind_names);
	lua_pop(L, 1);
	f->kind = (tb_field_kind)kind;
	int base = tl_option_slots(L, &tl_field_spec);
	tl_read_options(L, idx, &tl_field_spec, 1u << kind, 0, w, base);
	for (int k = 1; k < F_COUNT; ++k) {
		if (!tl_has(L, base, k)) continue;
		int v = base + k;
		const tl_where *kw = field_where(w, &fw, k);
		switch (k) {
			case F_fx: f->force.x = tl_float(L, v, kw); break;
			case F_fy: f->force.y = tl_float(L, v, kw); break;
			case F_strength: f->strength = tl_float(L, v, kw); break;
			case F_falloff: f->falloff = (tb_falloff)tl_enum(L, v, kw, tl_falloff_names); break;
			case F_x: f->center.x = tl_coord(L, v, kw); break;
			case F_y: f->center.y = tl_coord(L, v, kw); break;
			case F_drag: f->drag = tl_nonneg(L, v, kw); break;
			case F_acceleration: f->use_acceleration = tl_bool(L, v, kw); break;
			default: break;
		}
	}
	lua_settop(L, top);
}

static void push_field(lua_State *L, const tb_field *f)
{
	lua_createtable(L, 0, 6);
	lua_pushstring(L, tl_field_kind_names[f->kind]);
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
			lua_pushstring(L, tl_falloff_names[f->falloff]);
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

/* ---------------- reading a constructor's options ---------------- */

typedef struct shape_args {
	tb_shape_def def;
	tb_field field;
	bool has_field;
	uint32_t handlers; /* handler bits (tl_handler_bits) */
	int base;          /* the option slots (0: positional arguments, no table) */
} shape_args;

/* Surfaces: a rolling resistance coefficient in [0, 1e6], a belt speed in
 * [-1e6, 1e6] m/s, a one-way platform's up direction ({x, y}, any finite
 * length but zero; nil: not one-way). */
static float check_rolling(lua_State *L, int idx, const tl_where *w)
{
	return tl_range(L, idx, w, 0.0, 1.0e6, "[0, 1e6]");
}

static float check_tangent_speed(lua_State *L, int idx, const tl_where *w)
{
	return tl_range(L, idx, w, -1.0e6, 1.0e6, "[-1e6, 1e6]");
}

static tb_vec2 check_one_way(lua_State *L, int idx, const tl_where *w)
{
	if (lua_isnil(L, idx)) return tb_vec2_zero;
	tb_vec2 up = tl_vec2(L, idx, w, false);
	if (up.x == 0.0f && up.y == 0.0f) tl_bad(L, w, "a direction expected, got {0, 0} (nil turns it off)");
	return up;
}

/* Reads the option table at 2 for constructor ctor into slots (o->base), and the
 * options common to every constructor into o. Everything is read before the
 * shape exists, so a bad option never leaves half a shape. */
static void read_options(lua_State *L, uint32_t ctor, int array_count, shape_args *o)
{
	o->def = tb_default_shape_def();
	o->def.user_data = NULL;
	o->has_field = false;
	o->handlers = 0;
	lua_settop(L, 2);
	o->base = tl_option_slots(L, &tl_shape_spec);
	tl_read_options(L, 2, &tl_shape_spec, ctor, array_count, TL_ARG(2), o->base);
	tb_shape_def *d = &o->def;
	for (int p = P_density; p < P_kind; ++p) {
		if (!tl_has(L, o->base, p)) continue;
		int v = o->base + p;
		const tl_where *w = TL_FIELD(2, shape_names[p]);
		switch (p) {
			case P_density:
				d->density = tl_nonneg(L, v, w);
				if (d->density > (float)TL_MAX_DENSITY) tl_bad(L, w, "number <= 1e6 expected, got %s", tl_describe(L, v));
				break;
			case P_friction: d->friction = tl_nonneg(L, v, w); break;
			case P_restitution: d->restitution = tl_nonneg(L, v, w); break;
			case P_rolling_resistance: d->rolling_resistance = check_rolling(L, v, w); break;
			case P_tangent_speed: d->tangent_speed = check_tangent_speed(L, v, w); break;
			case P_one_way: d->one_way = check_one_way(L, v, w); break;
			case P_sensor: d->is_sensor = tl_bool(L, v, w); break;
			case P_enabled: d->is_enabled = tl_bool(L, v, w); break;
			case P_category: d->filter.category_bits = (uint64_t)tl_integer(L, v, w); break;
			case P_mask: d->filter.mask_bits = (uint64_t)tl_integer(L, v, w); break;
			case P_group: d->filter.group_index = tl_int_range(L, v, w, INT32_MIN, INT32_MAX); break;
			case P_contact_events: d->enable_contact_events = tl_bool(L, v, w); break;
			case P_hit_events: d->enable_hit_events = tl_bool(L, v, w); break;
			case P_sensor_events: d->enable_sensor_events = tl_bool(L, v, w); break;
			case P_field:
				check_field(L, v, w, &o->field);
				o->has_field = o->field.kind != TB_FIELD_NONE;
				break;
			case P_on_begin:
			case P_on_end:
			case P_on_hit:
			case P_on_sensor_enter:
			case P_on_sensor_exit:
				tl_check_function_or_nil(L, v, w);
				o->handlers |= tl_handler_bits(L, v, p - P_on_begin);
				break;
			default: break;
		}
	}
}

static void no_options(shape_args *o)
{
	o->def = tb_default_shape_def();
	o->def.user_data = NULL;
	o->has_field = false;
	o->handlers = 0;
	o->base = 0;
}

static float opt_coord(lua_State *L, int base, int p)
{
	return tl_has(L, base, p) ? tl_coord(L, base + p, TL_FIELD(2, shape_names[p])) : 0.0f;
}

/* Creates the shape (every option already read), pushes its handle and gives it
 * its user value and handlers from the option slots. */
static int finish_shape(lua_State *L, tl_handle *bh, shape_args *o, const tb_geometry *g)
{
	const int arg = 2; /* the options, or the first positional argument */
	tl_world_record *rec = bh->rec;
	tb_world *w = tl_body_world(L, bh);
	tb_status st = TB_OK;
	/* the handler bits go in with the shape: the dispatcher reads them there */
	o->def.user_data = (void *)(uintptr_t)o->handlers;
	tb_shape_id id = tb_create_shape(w, tl_body_id(bh), &o->def, g, &st);
	if (TB_IS_NULL(id)) {
		/* every number was checked finite already: the engine refuses a shape
		 * whose bounds reach TB_HUGE from its body's origin */
		if (st == TB_ERR_INVALID_NUMBER) return luaL_argerror(L, arg, "shape reaches beyond 1e6 m of its body's origin");
		tl_creation_error(L, rec, st, TL_SHAPE);
	}
	if (o->has_field) {
		st = tb_shape_set_field(w, id, &o->field);
		if (st != TB_OK) {
			tb_destroy_shape(w, id, true);
			return luaL_argerror(L, arg, lua_pushfstring(L, "field 'field': %s", tl_status_for(st, TL_SHAPE)));
		}
	}
	rec->shape_handler_mask |= o->handlers & ((1u << TL_EV_COUNT) - 1);
	/* from here Lua may run (the new handle is allocated): the values come from
	 * the option slots, pinned since they were read */
	tl_push_handle(L, rec, TL_SHAPE, id.index1, id.generation, false);
	if (rec->record_sites) tl_record_site(L, rec, TL_SHAPE, id.index1, id.generation);
	if (o->base == 0 || lua_isnil(L, -1)) return 1;
	int s = lua_gettop(L);
	bool anchor = false;
	if (tl_has(L, o->base, P_user)) {
		lua_pushvalue(L, o->base + P_user);
		lua_setiuservalue(L, s, TL_UV_USER);
		anchor = true;
	}
	for (int ev = 0; ev < TL_EV_COUNT; ++ev) {
		if (tl_has(L, o->base, P_on_begin + ev)) {
			lua_pushvalue(L, o->base + P_on_begin + ev);
			lua_setiuservalue(L, s, TL_UV_HANDLER(ev));
			anchor = true;
		}
	}
	if (anchor) tl_anchor(L, s, TL_SHAPE);
	lua_settop(L, s);
	return 1;
}

/* b:circle{ r, x, y, ... } or b:circle(r [, x, y]) */
int tl_body_circle(lua_State *L)
{
	tl_handle *bh = tl_check_live(L, 1, TL_BODY);
	shape_args o;
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CIRCLE;
	if (lua_type(L, 2) == LUA_TNUMBER) {
		g.circle.radius = tl_size(L, 2, TL_ARG(2));
		if (!lua_isnoneornil(L, 3) || !lua_isnoneornil(L, 4)) {
			g.circle.center.x = tl_coord(L, 3, TL_ARG(3));
			g.circle.center.y = tl_coord(L, 4, TL_ARG(4));
		}
		no_options(&o);
	} else {
		luaL_checktype(L, 2, LUA_TTABLE);
		read_options(L, C_CIRCLE, 0, &o);
		if (!tl_has(L, o.base, P_r)) tl_bad(L, TL_FIELD(2, "r"), "positive number expected, got nil");
		g.circle.radius = tl_size(L, o.base + P_r, TL_FIELD(2, "r"));
		g.circle.center.x = opt_coord(L, o.base, P_x);
		g.circle.center.y = opt_coord(L, o.base, P_y);
	}
	return finish_shape(L, bh, &o, &g);
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
	tl_handle *bh = tl_check_live(L, 1, TL_BODY);
	shape_args o;
	float w, h, angle = 0.0f, radius = 0.0f;
	tb_vec2 c = tb_vec2_zero;
	if (lua_type(L, 2) == LUA_TNUMBER) {
		w = tl_size(L, 2, TL_ARG(2));
		h = tl_size(L, 3, TL_ARG(3));
		if (!lua_isnoneornil(L, 4) || !lua_isnoneornil(L, 5)) {
			c.x = tl_coord(L, 4, TL_ARG(4));
			c.y = tl_coord(L, 5, TL_ARG(5));
		}
		if (!lua_isnoneornil(L, 6)) angle = tl_coord(L, 6, TL_ARG(6));
		no_options(&o);
	} else {
		luaL_checktype(L, 2, LUA_TTABLE);
		read_options(L, C_BOX, 0, &o);
		if (!tl_has(L, o.base, P_w)) tl_bad(L, TL_FIELD(2, "w"), "positive number expected, got nil");
		w = tl_size(L, o.base + P_w, TL_FIELD(2, "w"));
		if (!tl_has(L, o.base, P_h)) tl_bad(L, TL_FIELD(2, "h"), "positive number expected, got nil");
		h = tl_size(L, o.base + P_h, TL_FIELD(2, "h"));
		c.x = opt_coord(L, o.base, P_x);
		c.y = opt_coord(L, o.base, P_y);
		angle = opt_coord(L, o.base, P_angle);
		if (tl_has(L, o.base, P_radius)) radius = tl_radius(L, o.base + P_radius, TL_FIELD(2, "radius"));
	}
	tb_geometry g = make_box(w, h, c, tb_make_rot(angle), radius);
	return finish_shape(L, bh, &o, &g);
}

/* Reads n coordinates t[1..n] (raw) into points (n even); limit is the bound a
 * coordinate must stay strictly below (or 0 for tl_coord's closed range). */
static void read_points(lua_State *L, int t, int n, tb_vec2 *points, float limit)
{
	for (int i = 0; i < n; ++i) {
		lua_rawgeti(L, t, i + 1);
		char name[24];
		snprintf(name, sizeof name, "[%d]", i + 1);
		const tl_where *w = TL_FIELD(t, name);
		float v = tl_float(L, -1, w);
		if (limit > 0.0f && !(fabsf(v) < limit)) {
			tl_bad(L, w, "coordinate too large (|v| < 1e6 expected), got %s", tl_describe(L, -1));
		}
		if (limit == 0.0f) v = tl_coord(L, -1, w);
		lua_pop(L, 1);
		if (i % 2 == 0) points[i / 2].x = v; else points[i / 2].y = v;
	}
}

/* b:polygon{ x1,y1, x2,y2, x3,y3, ..., radius = 0, ... } */
int tl_body_polygon(lua_State *L)
{
	tl_handle *bh = tl_check_live(L, 1, TL_BODY);
	luaL_checktype(L, 2, LUA_TTABLE);
	int n = tl_array_count(L, 2);
	shape_args o;
	read_options(L, C_POLYGON, n, &o);
	if (n % 2 != 0) return luaL_argerror(L, 2, lua_pushfstring(L, "even number of coordinates expected, got %d", n));
	if (n < 6) return luaL_argerror(L, 2, lua_pushfstring(L, "at least 3 points expected, got %d", n / 2));
	if (n > 2 * TB_MAX_POLYGON_VERTICES) {
		return luaL_argerror(L, 2, lua_pushfstring(L, "at most %d points expected, got %d", TB_MAX_POLYGON_VERTICES,
		                                           n / 2));
	}
	tb_vec2 points[TB_MAX_POLYGON_VERTICES];
	read_points(L, 2, n, points, 0.0f);
	float radius = 0.0f;
	if (tl_has(L, o.base, P_radius)) radius = tl_radius(L, o.base + P_radius, TL_FIELD(2, "radius"));
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_POLYGON;
	tb_status st = tb_make_polygon(points, n / 2, radius, &g.polygon);
	if (st != TB_OK) return luaL_argerror(L, 2, tl_status_text(st));
	return finish_shape(L, bh, &o, &g);
}

/* The two end points (and radius) of a capsule or segment, given as a list
 * {x1, y1, x2, y2 [, r]} or as named fields (in the option slots at base). */
static void read_two_points(lua_State *L, int base, int n, bool with_radius, tb_vec2 *p1, tb_vec2 *p2, float *r)
{
	int want = with_radius ? 5 : 4;
	float v[5] = {0};
	if (n > 0) {
		for (int p = P_x1; p <= P_r; ++p) {
			if (tl_has(L, base, p) && (p != P_r || with_radius)) {
				luaL_argerror(L, 2, "give the points either as a list or as named fields, not both");
			}
		}
		if (n != want) luaL_argerror(L, 2, lua_pushfstring(L, "%d numbers expected in the list, got %d", want, n));
		for (int i = 0; i < want; ++i) {
			lua_rawgeti(L, 2, i + 1);
			char name[16];
			snprintf(name, sizeof name, "[%d]", i + 1);
			const tl_where *w = TL_FIELD(2, name);
			v[i] = i < 4 ? tl_coord(L, -1, w) : tl_size(L, -1, w);
			lua_pop(L, 1);
		}
	} else {
		for (int i = 0; i < want; ++i) {
			int p = P_x1 + i; /* x1, y1, x2, y2, r */
			const tl_where *w = TL_FIELD(2, shape_names[p]);
			if (!tl_has(L, base, p)) tl_bad(L, w, "%s expected, got nil", i < 4 ? "number" : "positive number");
			v[i] = i < 4 ? tl_coord(L, base + p, w) : tl_size(L, base + p, w);
		}
	}
	*p1 = tb_v2(v[0], v[1]);
	*p2 = tb_v2(v[2], v[3]);
	if (with_radius) *r = v[4];
}

/* b:capsule{ x1, y1, x2, y2, r } (list or named) */
int tl_body_capsule(lua_State *L)
{
	tl_handle *bh = tl_check_live(L, 1, TL_BODY);
	luaL_checktype(L, 2, LUA_TTABLE);
	int n = tl_array_count(L, 2);
	shape_args o;
	read_options(L, C_CAPSULE, 5, &o);
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	read_two_points(L, o.base, n, true, &g.capsule.center1, &g.capsule.center2, &g.capsule.radius);
	tb_status st = tb_validate_geometry(&g);
	if (st != TB_OK) return luaL_argerror(L, 2, tl_status_text(st));
	return finish_shape(L, bh, &o, &g);
}

/* b:segment{ x1, y1, x2, y2 } (list or named) */
int tl_body_segment(lua_State *L)
{
	tl_handle *bh = tl_check_live(L, 1, TL_BODY);
	luaL_checktype(L, 2, LUA_TTABLE);
	int n = tl_array_count(L, 2);
	shape_args o;
	read_options(L, C_SEGMENT, 4, &o);
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_SEGMENT;
	read_two_points(L, o.base, n, false, &g.segment.point1, &g.segment.point2, NULL);
	tb_status st = tb_validate_geometry(&g);
	if (st != TB_OK) return luaL_argerror(L, 2, tl_status_text(st));
	return finish_shape(L, bh, &o, &g);
}

/* b:chain{ x1,y1, x2,y2, ..., loop = false } -> array of link shapes */
int tl_body_chain(lua_State *L)
{
	tl_handle *bh = tl_check_live(L, 1, TL_BODY);
	luaL_checktype(L, 2, LUA_TTABLE);
	int n = tl_array_count(L, 2);
	lua_settop(L, 2);
	int base = tl_option_slots(L, &tl_shape_spec);
	tl_read_options(L, 2, &tl_shape_spec, C_CHAIN, n, TL_ARG(2), base);
	tb_chain_def def = tb_default_chain_def();
	for (int p = 0; p < P_COUNT; ++p) {
		if (!tl_has(L, base, p)) continue;
		int v = base + p;
		const tl_where *w = TL_FIELD(2, shape_names[p]);
		switch (p) {
			case P_loop: def.loop = tl_bool(L, v, w); break;
			case P_friction: def.friction = tl_nonneg(L, v, w); break;
			case P_restitution: def.restitution = tl_nonneg(L, v, w); break;
			case P_rolling_resistance: def.rolling_resistance = check_rolling(L, v, w); break;
			case P_tangent_speed: def.tangent_speed = check_tangent_speed(L, v, w); break;
			case P_category: def.filter.category_bits = (uint64_t)tl_integer(L, v, w); break;
			case P_mask: def.filter.mask_bits = (uint64_t)tl_integer(L, v, w); break;
			case P_group: def.filter.group_index = tl_int_range(L, v, w, INT32_MIN, INT32_MAX); break;
			case P_sensor_events: def.enable_sensor_events = tl_bool(L, v, w); break;
			default: break;
		}
	}
	if (n % 2 != 0) return luaL_argerror(L, 2, lua_pushfstring(L, "even number of coordinates expected, got %d", n));
	int min_points = def.loop ? 3 : 2;
	if (n / 2 < min_points) {
		return luaL_argerror(L, 2, lua_pushfstring(L, "at least %d points expected, got %d", min_points, n / 2));
	}
	int count = n / 2;
	/* the points and the link ids in buffers of our own (the list may be long) */
	tb_vec2 *points = tl_push_buffer(L, sizeof *points, count);
	tb_shape_id *links = tl_push_buffer(L, sizeof *links, count + 1);
	read_points(L, 2, n, points, (float)TL_MAX_COORD);
	def.points = points;
	def.count = count;
	def.user_data = NULL;
	tb_status st = TB_OK;
	int made = tb_create_chain(tl_body_world(L, bh), tl_body_id(bh), &def, links, count + 1, &st);
	if (made < 0) {
		if (st == TB_ERR_INVALID_NUMBER) return luaL_argerror(L, 2, "chain points reach beyond 1e6 m of the body's origin");
		tl_creation_error(L, bh->rec, st, TL_SHAPE);
	}
	if (made > count + 1) made = count + 1;
	lua_createtable(L, made, 0);
	for (int i = 0; i < made; ++i) {
		tl_push_handle(L, bh->rec, TL_SHAPE, links[i].index1, links[i].generation, false);
		if (bh->rec->record_sites) tl_record_site(L, bh->rec, TL_SHAPE, links[i].index1, links[i].generation);
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
	int p;
	tl_handle *h = tl_index_property(L, &tl_shape_spec, sizeof *h, &p);
	if (h == NULL) return 1;
	if (shape_flags[p] & TL_ALWAYS) {
		/* both stay readable on a destroyed handle */
		if (p == P_valid) lua_pushboolean(L, tl_handle_valid(h, TL_SHAPE)); else lua_pushinteger(L, h->index1);
		return 1;
	}
	tb_world *w = tl_shape_world(L, h);
	tb_shape_id id = tl_shape_id(h);
	switch (p) {
		case P_friction: lua_pushnumber(L, tb_shape_get_friction(w, id)); break;
		case P_restitution: lua_pushnumber(L, tb_shape_get_restitution(w, id)); break;
		case P_rolling_resistance: lua_pushnumber(L, tb_shape_get_rolling_resistance(w, id)); break;
		case P_tangent_speed: lua_pushnumber(L, tb_shape_get_tangent_speed(w, id)); break;
		case P_one_way: {
			tb_vec2 up = tb_shape_get_one_way(w, id);
			if (up.x == 0.0f && up.y == 0.0f) lua_pushnil(L); else tl_push_vec2(L, up);
			break;
		}
		case P_density: lua_pushnumber(L, tb_shape_get_density(w, id)); break;
		case P_sensor: lua_pushboolean(L, tb_shape_is_sensor(w, id)); break;
		case P_enabled: lua_pushboolean(L, tb_shape_is_enabled(w, id)); break;
		case P_category: lua_pushinteger(L, (lua_Integer)tb_shape_get_filter(w, id).category_bits); break;
		case P_mask: lua_pushinteger(L, (lua_Integer)tb_shape_get_filter(w, id).mask_bits); break;
		case P_group: lua_pushinteger(L, tb_shape_get_filter(w, id).group_index); break;
		case P_user: lua_getiuservalue(L, 1, TL_UV_USER); break;
		case P_field: {
			tb_field f;
			if (tb_shape_get_field(w, id, &f) && f.kind != TB_FIELD_NONE) {
				push_field(L, &f);
			} else {
				lua_pushnil(L);
			}
			break;
		}
		case P_on_begin:
		case P_on_end:
		case P_on_hit:
		case P_on_sensor_enter:
		case P_on_sensor_exit: lua_getiuservalue(L, 1, TL_UV_HANDLER(p - P_on_begin)); break;
		case P_r: {
			tb_geometry g = tb_shape_get_geometry(w, id);
			if (g.type == TB_SHAPE_CIRCLE) lua_pushnumber(L, g.circle.radius);
			else if (g.type == TB_SHAPE_CAPSULE) lua_pushnumber(L, g.capsule.radius);
			else if (g.type == TB_SHAPE_POLYGON) lua_pushnumber(L, g.polygon.radius);
			else lua_pushnil(L);
			break;
		}
		case P_w:
		case P_h: {
			tb_geometry g = tb_shape_get_geometry(w, id);
			float bw, bh;
			tb_rot q;
			if (g.type == TB_SHAPE_POLYGON && box_dims(&g.polygon, &bw, &bh, &q)) {
				lua_pushnumber(L, p == P_w ? bw : bh);
			} else {
				lua_pushnil(L);
			}
			break;
		}
		case P_kind: lua_pushstring(L, tl_shape_kind_names[tb_shape_get_type(w, id)]); break;
		case P_body: {
			tb_body_id b = tb_shape_get_body(w, id);
			tl_push_handle(L, h->rec, TL_BODY, b.index1, b.generation, false);
			break;
		}
		case P_chain: {
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
	const char *hint = tl_suggest_member(L, &tl_shape_spec, key, TL_WRITABLE, 0, NULL);
	luaL_error(L, "Shape of kind '%s' has no property '%s'%s%s%s", tl_shape_kind_names[type], key, why, *hint ? "; " : "",
	           hint);
	abort();
}

static void set_geometry(lua_State *L, tb_world *w, tb_shape_id id, const tb_geometry *g, const char *key)
{
	tb_status st = tb_shape_set_geometry(w, id, g);
	if (st != TB_OK) luaL_error(L, "bad value for Shape.%s (%s)", key, tl_status_for(st, TL_SHAPE));
}

/* A shape setting read from Lua, applied once no Lua can run. */
typedef struct shape_value {
	uint32_t handler_bits;
	double n;
	lua_Integer i;
	bool b;
	tb_vec2 v2;
	tb_field field;
} shape_value;

static int shape_newindex(lua_State *L)
{
	int p;
	const char *key;
	tl_handle *h = tl_newindex_property(L, &tl_shape_spec, sizeof *h, &p, &key);
	const tl_where *where = TL_PROP_OF("Shape", key);

	/* the value first (a field table is read raw; nothing here holds the world) */
	lua_settop(L, 3);
	shape_value v;
	memset(&v, 0, sizeof v);
	switch (p) {
		case P_friction:
		case P_restitution: v.n = tl_nonneg(L, 3, where); break;
		case P_rolling_resistance: v.n = check_rolling(L, 3, where); break;
		case P_tangent_speed: v.n = check_tangent_speed(L, 3, where); break;
		case P_one_way: v.v2 = check_one_way(L, 3, where); break;
		case P_density:
			v.n = tl_nonneg(L, 3, where);
			if (v.n > TL_MAX_DENSITY) tl_bad(L, where, "number <= 1e6 expected, got %s", tl_describe(L, 3));
			break;
		case P_sensor:
		case P_enabled: v.b = tl_bool(L, 3, where); break;
		case P_category:
		case P_mask: v.i = tl_integer(L, 3, where); break;
		case P_group: v.i = tl_int_range(L, 3, where, INT32_MIN, INT32_MAX); break;
		case P_field: check_field(L, 3, where, &v.field); break;
		case P_on_begin:
		case P_on_end:
		case P_on_hit:
		case P_on_sensor_enter:
		case P_on_sensor_exit:
			tl_check_function_or_nil(L, 3, where);
			tl_check_unlocked(L, h->rec); /* the engine keeps the handler bits */
			v.handler_bits = tl_handler_bits(L, 3, p - P_on_begin);
			break;
		case P_r:
		case P_w:
		case P_h: v.n = tl_float(L, 3, where); break;
		default: break;
	}

	tb_world *w = tl_shape_world(L, h);
	tb_shape_id id = tl_shape_id(h);
	tb_status st = TB_OK;
	switch (p) {
		case P_friction: st = tb_shape_set_friction(w, id, (float)v.n); break;
		case P_restitution: st = tb_shape_set_restitution(w, id, (float)v.n); break;
		case P_rolling_resistance: st = tb_shape_set_rolling_resistance(w, id, (float)v.n); break;
		case P_tangent_speed: st = tb_shape_set_tangent_speed(w, id, (float)v.n); break;
		case P_one_way: st = tb_shape_set_one_way(w, id, v.v2); break;
		case P_density: st = tb_shape_set_density(w, id, (float)v.n, true); break;
		case P_sensor: st = tb_shape_set_sensor(w, id, v.b); break;
		case P_enabled: st = tb_shape_set_enabled(w, id, v.b); break;
		case P_category:
		case P_mask:
		case P_group: {
			tb_filter f = tb_shape_get_filter(w, id);
			if (p == P_category) f.category_bits = (uint64_t)v.i;
			else if (p == P_mask) f.mask_bits = (uint64_t)v.i;
			else f.group_index = (int32_t)v.i;
			st = tb_shape_set_filter(w, id, f);
			break;
		}
		case P_user: {
			bool set = !lua_isnil(L, 3);
			lua_setiuservalue(L, 1, TL_UV_USER);
			if (set) tl_anchor(L, 1, TL_SHAPE);
			break;
		}
		case P_field: {
			tb_status st = tb_shape_set_field(w, id, v.field.kind == TB_FIELD_NONE ? NULL : &v.field);
			if (st != TB_OK) tl_bad(L, where, "%s", tl_status_for(st, TL_SHAPE));
			break;
		}
		case P_on_begin:
		case P_on_end:
		case P_on_hit:
		case P_on_sensor_enter:
		case P_on_sensor_exit: {
			/* the engine-side bit and the handler together, before anything
			 * that can run Lua (the anchor does not allocate) */
			int ev = p - P_on_begin;
			uintptr_t mine = ((uintptr_t)1 << ev) | ((uintptr_t)1 << TL_TAKES_CONTACT(ev));
			uintptr_t bits = (uintptr_t)tb_shape_get_user_data(w, id) & ~mine;
			bits |= v.handler_bits;
			if (v.handler_bits != 0) h->rec->shape_handler_mask |= 1u << ev;
			tb_shape_set_user_data(w, id, (void *)bits);
			bool set = !lua_isnil(L, 3);
			lua_setiuservalue(L, 1, TL_UV_HANDLER(ev));
			if (set) tl_anchor(L, 1, TL_SHAPE);
			break;
		}
		case P_r: {
			tb_geometry g = tb_shape_get_geometry(w, id);
			float *radius = g.type == TB_SHAPE_CIRCLE    ? &g.circle.radius
			                : g.type == TB_SHAPE_CAPSULE ? &g.capsule.radius
			                : g.type == TB_SHAPE_POLYGON ? &g.polygon.radius
			                                             : NULL;
			if (radius == NULL) no_property(L, g.type, key, "");
			*radius = g.type == TB_SHAPE_POLYGON ? tl_radius(L, 3, where) : tl_size(L, 3, where);
			set_geometry(L, w, id, &g, key);
			break;
		}
		case P_w:
		case P_h: {
			tb_geometry g = tb_shape_get_geometry(w, id);
			float bw, bh;
			tb_rot q;
			if (g.type != TB_SHAPE_POLYGON) no_property(L, g.type, key, "");
			if (!box_dims(&g.polygon, &bw, &bh, &q)) no_property(L, g.type, key, " (not a box)");
			float size = tl_size(L, 3, where);
			if (p == P_w) bw = size; else bh = size;
			tb_geometry nb = make_box(bw, bh, g.polygon.centroid, q, g.polygon.radius);
			set_geometry(L, w, id, &nb, key);
			break;
		}
		default: break;
	}
	if (st != TB_OK) tl_bad(L, where, "%s", tl_status_for(st, TL_SHAPE));
	return 0;
}

/* ---------------- metamethods and methods ---------------- */

static int shape_tostring(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_SHAPE);
	if (tl_handle_valid(h, TL_SHAPE)) {
		tb_shape_type t = tb_shape_get_type(tl_world_of(h->rec), tl_shape_id(h));
		lua_pushfstring(L, "Shape#%d(%s)", (int)h->index1, tl_shape_kind_names[t]);
	} else {
		lua_pushfstring(L, "Shape#%d(destroyed)", (int)h->index1);
	}
	return 1;
}

static int shape_destroy(lua_State *L)
{
	tl_handle *h = tl_check_handle(L, 1, TL_SHAPE);
	tl_check_unlocked(L, h->rec);
	tb_world *w = tl_world_of(h->rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	if (!tl_handle_valid(h, TL_SHAPE)) return 0;
	tl_forget(L, h->rec, TL_SHAPE, h->index1, h->generation);
	tb_destroy_shape(w, tl_shape_id(h), true);
	return 0;
}

static int shape_test_point(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_SHAPE);
	float x = tl_coord(L, 2, TL_ARG(2));
	float y = tl_coord(L, 3, TL_ARG(3));
	lua_pushboolean(L, tb_shape_test_point(tl_shape_world(L, h), tl_shape_id(h), tb_v2(x, y)));
	return 1;
}

static int shape_aabb(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_SHAPE);
	tb_aabb b = tb_shape_get_aabb(tl_world_of(h->rec), tl_shape_id(h));
	lua_pushnumber(L, b.lower.x);
	lua_pushnumber(L, b.lower.y);
	lua_pushnumber(L, b.upper.x);
	lua_pushnumber(L, b.upper.y);
	return 4;
}

/* s:raycast(x1, y1, x2, y2) -> x, y, nx, ny, fraction (nothing on a miss) */
static int shape_raycast(lua_State *L)
{
	tl_handle *h = tl_check_live(L, 1, TL_SHAPE);
	float x1 = tl_coord(L, 2, TL_ARG(2)), y1 = tl_coord(L, 3, TL_ARG(3));
	float x2 = tl_coord(L, 4, TL_ARG(4)), y2 = tl_coord(L, 5, TL_ARG(5));
	tb_vec2 d = tb_v2(x2 - x1, y2 - y1);
	if (d.x == 0.0f && d.y == 0.0f) return 0;
	tb_cast_output out = tb_shape_ray_cast(tl_shape_world(L, h), tl_shape_id(h), tb_v2(x1, y1), d);
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
	tl_handle *h = tl_check_live(L, 1, TL_SHAPE);
	/* copied before anything is pushed */
	tb_geometry g = tb_shape_get_geometry(tl_world_of(h->rec), tl_shape_id(h));
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

static const luaL_Reg shape_meta[] = {
	{"__tostring", shape_tostring},
	{"__eq", tl_handle_eq},
	{NULL, NULL},
};

const tl_spec tl_shape_spec = {
	.type = TL_SHAPE,
	.count = P_COUNT,
	.names = shape_names,
	.flags = shape_flags,
	.options = shape_options,
	.option_sets = constructor_names,
	.methods = shape_methods,
	.meta = shape_meta,
	.index = shape_index,
	.newindex = shape_newindex,
	.kinds = tl_shape_kind_names,
};

void tl_open_shape(lua_State *L)
{
	tl_new_type(L, &tl_shape_spec);
}
