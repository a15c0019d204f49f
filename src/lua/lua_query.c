/* tumble: world queries (ray casts, box, point and shape overlap). Results are
 * sorted so that a script sees the same order on every run, whatever order the
 * broad-phase tree visits its leaves in.
 *
 * The engine reports results through callbacks, where no Lua may run (an error
 * would unwind through the engine), so they are collected into the core's
 * scratch buffer with the state's allocator; then copied into a Lua-owned
 * buffer before any handle is pushed. That copy is an allocation, which may run
 * a finalizer, which may run another query into the same scratch: the epoch
 * tells, and the query runs again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

typedef enum query_kind { Q_BOX, Q_POINT, Q_OVERLAP, Q_RAY_ALL } query_kind;

typedef struct query {
	query_kind kind;
	tb_query_filter filter;
	tb_aabb box;
	tb_vec2 point;       /* Q_POINT, and the ray's origin */
	tb_vec2 translation; /* Q_RAY_ALL */
	tl_handle *shape;    /* Q_OVERLAP: pinned at argument 2 */
} query;

typedef struct collector {
	tl_world_core *core;
	size_t elem_size;
	int count;
	bool out_of_memory;
} collector;

static void *collect_slot(collector *c)
{
	tl_world_core *core = c->core;
	size_t need = (size_t)(c->count + 1) * c->elem_size;
	if (need > core->scratch_capacity) {
		size_t cap = core->scratch_capacity > 0 ? core->scratch_capacity * 2 : 1024;
		while (cap < need) cap *= 2;
		void *p = core->alloc(core->alloc_ud, core->scratch, core->scratch_capacity, cap);
		if (p == NULL) {
			c->out_of_memory = true;
			return NULL;
		}
		core->scratch = p;
		core->scratch_capacity = cap;
	}
	return (char *)core->scratch + (size_t)c->count++ * c->elem_size;
}

static bool collect_shape(tb_shape_id shape, void *context)
{
	collector *c = context;
	tb_shape_id *slot = collect_slot(c);
	if (slot == NULL) return false;
	*slot = shape;
	return true;
}

typedef struct ray_hit {
	tb_shape_id shape;
	tb_vec2 point, normal;
	float fraction;
} ray_hit;

static float collect_ray(tb_shape_id shape, tb_vec2 point, tb_vec2 normal, float fraction, void *context)
{
	collector *c = context;
	ray_hit *slot = collect_slot(c);
	if (slot == NULL) return 0.0f;
	slot->shape = shape;
	slot->point = point;
	slot->normal = normal;
	slot->fraction = fraction;
	return 1.0f; /* keep going, unclipped: every hit */
}

static int compare_shape_ids(const void *pa, const void *pb)
{
	const tb_shape_id *a = pa, *b = pb;
	return (a->index1 > b->index1) - (a->index1 < b->index1);
}

static int compare_hits(const void *pa, const void *pb)
{
	const ray_hit *a = pa, *b = pb;
	if (a->fraction != b->fraction) return a->fraction < b->fraction ? -1 : 1;
	return (a->shape.index1 > b->shape.index1) - (a->shape.index1 < b->shape.index1);
}

/* Runs q on the world of rec and leaves its results, sorted, in a Lua-owned
 * buffer on the stack; returns their count and the buffer. */
static int run_query(lua_State *L, tl_world_record *rec, const query *q, void **out)
{
	tl_world_core *core = rec->core;
	size_t elem = q->kind == Q_RAY_ALL ? sizeof(ray_hit) : sizeof(tb_shape_id);
	for (;;) {
		tb_world *w = tl_world_of(rec);
		if (w == NULL) luaL_error(L, "world was destroyed");
		uint32_t epoch = ++core->scratch_epoch;
		collector c = {core, elem, 0, false};
		switch (q->kind) {
			case Q_BOX: tb_world_query_aabb(w, q->box, q->filter, collect_shape, &c); break;
			case Q_POINT: tb_world_query_point(w, q->point, q->filter, collect_shape, &c); break;
			case Q_OVERLAP:
				if (!tl_handle_valid(q->shape, TL_SHAPE)) tl_dead(L, q->shape, TL_SHAPE);
				tb_world_overlap_shape(w, tl_shape_id(q->shape), q->filter, collect_shape, &c);
				break;
			case Q_RAY_ALL:
				if (!(q->translation.x == 0.0f && q->translation.y == 0.0f)) {
					tb_world_cast_ray(w, q->point, q->translation, q->filter, collect_ray, &c);
				}
				break;
		}
		if (c.out_of_memory) luaL_error(L, "not enough memory");
		void *buffer = tl_push_buffer(L, elem, c.count);
		if (core->scratch_epoch == epoch && core->world != NULL) {
			if (c.count > 0) memcpy(buffer, core->scratch, elem * (size_t)c.count);
			if (c.count > 1) qsort(buffer, (size_t)c.count, elem, q->kind == Q_RAY_ALL ? compare_hits : compare_shape_ids);
			*out = buffer;
			return c.count;
		}
		lua_pop(L, 1);
	}
}

/* The query sees a shape when shape.category & mask ~= 0. Its category is all
 * bits, so a shape's own mask does not hide it from queries (only a shape with
 * mask 0, which collides with nothing, stays invisible). */
static tb_query_filter check_mask(lua_State *L, int arg)
{
	tb_query_filter f = tb_default_query_filter();
	f.category_bits = UINT64_MAX;
	if (!lua_isnoneornil(L, arg)) f.mask_bits = (uint64_t)tl_integer(L, arg, TL_ARG(arg));
	return f;
}

static int push_shape_array(lua_State *L, tl_world_record *rec, const tb_shape_id *ids, int count)
{
	lua_createtable(L, count, 0);
	int n = 0;
	for (int i = 0; i < count; ++i) {
		tl_push_handle(L, rec, TL_SHAPE, ids[i].index1, ids[i].generation, false);
		if (lua_isnil(L, -1)) {
			lua_pop(L, 1);
			continue;
		}
		lua_rawseti(L, -2, ++n);
	}
	return 1;
}

static int shape_query(lua_State *L, const query *q)
{
	tl_world_record *rec = tl_check_world(L, 1);
	void *ids;
	int n = run_query(L, rec, q, &ids);
	return push_shape_array(L, rec, ids, n);
}

/* world:query_box(x1, y1, x2, y2 [, mask]) -> { shapes } (tight boxes overlapping) */
int tl_world_query_box(lua_State *L)
{
	tl_check_world(L, 1);
	float x1 = tl_coord(L, 2, TL_ARG(2)), y1 = tl_coord(L, 3, TL_ARG(3));
	float x2 = tl_coord(L, 4, TL_ARG(4)), y2 = tl_coord(L, 5, TL_ARG(5));
	query q = {.kind = Q_BOX, .filter = check_mask(L, 6)};
	q.box = (tb_aabb){tb_v2(tb_minf(x1, x2), tb_minf(y1, y2)), tb_v2(tb_maxf(x1, x2), tb_maxf(y1, y2))};
	return shape_query(L, &q);
}

/* world:query_point(x, y [, mask]) -> { shapes } (containing the point) */
int tl_world_query_point(lua_State *L)
{
	tl_check_world(L, 1);
	float x = tl_coord(L, 2, TL_ARG(2)), y = tl_coord(L, 3, TL_ARG(3));
	query q = {.kind = Q_POINT, .filter = check_mask(L, 4), .point = tb_v2(x, y)};
	return shape_query(L, &q);
}

/* world:overlap(shape [, mask]) -> { shapes } (really overlapping, itself excluded) */
int tl_world_overlap(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tl_handle *h = tl_check_live(L, 2, TL_SHAPE);
	if (h->rec != rec) return luaL_argerror(L, 2, "shape of another world");
	query q = {.kind = Q_OVERLAP, .filter = check_mask(L, 3), .shape = h};
	return shape_query(L, &q);
}

/* ---------------- rays ---------------- */

static void check_ray(lua_State *L, tb_vec2 *origin, tb_vec2 *translation)
{
	float x1 = tl_coord(L, 2, TL_ARG(2)), y1 = tl_coord(L, 3, TL_ARG(3));
	float x2 = tl_coord(L, 4, TL_ARG(4)), y2 = tl_coord(L, 5, TL_ARG(5));
	*origin = tb_v2(x1, y1);
	*translation = tb_v2(x2 - x1, y2 - y1);
}

/* A cast's first hit as shape, x, y, nx, ny, fraction (nothing on a miss);
 * the result is a value, so the pushes need no world. */
static int push_hit(lua_State *L, tl_world_record *rec, const tb_ray_result *r)
{
	if (!r->hit) return 0;
	tl_push_handle(L, rec, TL_SHAPE, r->shape.index1, r->shape.generation, false);
	lua_pushnumber(L, r->point.x);
	lua_pushnumber(L, r->point.y);
	lua_pushnumber(L, r->normal.x);
	lua_pushnumber(L, r->normal.y);
	lua_pushnumber(L, r->fraction);
	return 6;
}

/* world:raycast(x1, y1, x2, y2 [, mask]) -> shape, x, y, nx, ny, fraction (nothing on a miss) */
int tl_world_raycast(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tb_vec2 origin, d;
	check_ray(L, &origin, &d);
	tb_query_filter f = check_mask(L, 6);
	if (d.x == 0.0f && d.y == 0.0f) return 0;
	tb_ray_result r = tb_world_cast_ray_closest(tl_world_of(rec), origin, d, f);
	return push_hit(L, rec, &r);
}

static void set_num(lua_State *L, const char *k, float v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

/* world:raycast_all(x1, y1, x2, y2 [, mask]) -> { {shape, x, y, nx, ny, fraction}, ... }
 * sorted by fraction, then by shape id */
int tl_world_raycast_all(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	query q = {.kind = Q_RAY_ALL};
	check_ray(L, &q.point, &q.translation);
	q.filter = check_mask(L, 6);
	void *buffer;
	int count = run_query(L, rec, &q, &buffer);
	const ray_hit *hits = buffer;
	lua_createtable(L, count, 0);
	int n = 0;
	for (int i = 0; i < count; ++i) {
		tl_push_handle(L, rec, TL_SHAPE, hits[i].shape.index1, hits[i].shape.generation, false);
		if (lua_isnil(L, -1)) {
			lua_pop(L, 1);
			continue;
		}
		lua_createtable(L, 0, 6);
		lua_insert(L, -2);
		lua_setfield(L, -2, "shape");
		set_num(L, "x", hits[i].point.x);
		set_num(L, "y", hits[i].point.y);
		set_num(L, "nx", hits[i].normal.x);
		set_num(L, "ny", hits[i].normal.y);
		set_num(L, "fraction", hits[i].fraction);
		lua_rawseti(L, -2, ++n);
	}
	return 1;
}

/* ---------------- distance, shape casts, explosions ---------------- */

/* tumble.distance(shape_a, shape_b) -> distance, x1, y1, x2, y2, nx, ny: the
 * closest points of the rounded surfaces at any separation (negative when the
 * cores overlap), the normal from a to b. */
int tl_distance(lua_State *L)
{
	tl_handle *ha = tl_check_live(L, 1, TL_SHAPE);
	tl_handle *hb = tl_check_live(L, 2, TL_SHAPE);
	if (ha->rec != hb->rec) return luaL_argerror(L, 2, "shape of another world");
	tb_shape_id a = tl_shape_id(ha), b = tl_shape_id(hb);
	if (TB_ID_EQUALS(a, b)) return luaL_argerror(L, 2, "the same shape as argument #1");
	tb_distance_output d = tb_world_shape_distance(tl_shape_world(L, ha), a, b);
	lua_pushnumber(L, d.distance);
	lua_pushnumber(L, d.point_a.x);
	lua_pushnumber(L, d.point_a.y);
	lua_pushnumber(L, d.point_b.x);
	lua_pushnumber(L, d.point_b.y);
	lua_pushnumber(L, d.normal.x);
	lua_pushnumber(L, d.normal.y);
	return 7;
}

/* One number of a geometry table, read raw: required unless def is given. */
static float geometry_number(lua_State *L, int t, const char *key, const char *path, bool required, float def,
                             int kind)
{
	lua_pushstring(L, key);
	lua_rawget(L, t);
	float v = def;
	const tl_where *w = TL_FIELD(2, path);
	if (lua_isnil(L, -1)) {
		if (required) tl_bad(L, w, "number expected, got nil");
	} else if (kind == 0) {
		v = tl_coord(L, -1, w);
	} else if (kind == 1) {
		v = tl_size(L, -1, w);
	} else if (kind == 2) {
		v = tl_radius(L, -1, w);
	} else {
		v = tl_float(L, -1, w);
	}
	lua_pop(L, 1);
	return v;
}

enum { G_COORD, G_SIZE, G_RADIUS, G_ANGLE };
static const char *const geometry_kinds[] = {"circle", "box", "capsule", "polygon", NULL};

/* A geometry from {circle = {r, x, y}}, {box = {w, h, x, y, angle, radius}},
 * {capsule = {x1, y1, x2, y2, r}} or {polygon = {x1, y1, x2, y2, ..., radius}}
 * (shape-local: the cast's x, y, angle place it), read raw. */
static void check_geometry_def(lua_State *L, int t, tb_geometry *g)
{
	memset(g, 0, sizeof *g);
	int found = -1;
	for (int k = 0; geometry_kinds[k] != NULL; ++k) {
		lua_pushstring(L, geometry_kinds[k]);
		if (lua_rawget(L, t) != LUA_TNIL) {
			if (found >= 0) tl_bad(L, TL_ARG(2), "one of circle, box, capsule or polygon expected, got two");
			found = k;
		}
		lua_pop(L, 1);
	}
	/* nothing else may be in the table */
	lua_pushnil(L);
	while (lua_next(L, t) != 0) {
		lua_pop(L, 1);
		bool known = false;
		if (lua_type(L, -1) == LUA_TSTRING) {
			for (int k = 0; geometry_kinds[k] != NULL; ++k) known |= strcmp(lua_tostring(L, -1), geometry_kinds[k]) == 0;
		}
		if (!known) {
			tl_bad(L, TL_ARG(2), "unknown key %s; valid keys: circle, box, capsule, polygon", tl_describe_key(L, -1));
		}
	}
	if (found < 0) tl_bad(L, TL_ARG(2), "a table with circle, box, capsule or polygon expected");
	lua_pushstring(L, geometry_kinds[found]);
	lua_rawget(L, t);
	int d = lua_gettop(L);
	char path[32];
	if (lua_type(L, d) != LUA_TTABLE) {
		snprintf(path, sizeof path, "%s", geometry_kinds[found]);
		tl_bad(L, TL_FIELD(2, path), "table expected, got %s", tl_typename(L, d));
	}
#define NUM(key, req, def, kind)                                                                               \
	(snprintf(path, sizeof path, "%s.%s", geometry_kinds[found], key),                                       \
	 geometry_number(L, d, key, path, req, def, kind))
	switch (found) {
		case 0:
			g->type = TB_SHAPE_CIRCLE;
			g->circle.radius = NUM("r", true, 0.0f, G_SIZE);
			g->circle.center = tb_v2(NUM("x", false, 0.0f, G_COORD), NUM("y", false, 0.0f, G_COORD));
			break;
		case 1: {
			float w = NUM("w", true, 0.0f, G_SIZE), h = NUM("h", true, 0.0f, G_SIZE);
			tb_vec2 c = tb_v2(NUM("x", false, 0.0f, G_COORD), NUM("y", false, 0.0f, G_COORD));
			float angle = NUM("angle", false, 0.0f, G_ANGLE), radius = NUM("radius", false, 0.0f, G_RADIUS);
			g->type = TB_SHAPE_POLYGON;
			g->polygon = tb_make_offset_box(0.5f * w, 0.5f * h, c, tb_make_rot(angle));
			g->polygon.radius = radius;
			break;
		}
		case 2:
			g->type = TB_SHAPE_CAPSULE;
			g->capsule.center1 = tb_v2(NUM("x1", true, 0.0f, G_COORD), NUM("y1", true, 0.0f, G_COORD));
			g->capsule.center2 = tb_v2(NUM("x2", true, 0.0f, G_COORD), NUM("y2", true, 0.0f, G_COORD));
			g->capsule.radius = NUM("r", true, 0.0f, G_SIZE);
			break;
		default: {
			int n = tl_array_count(L, d);
			if (n % 2 != 0 || n < 6 || n > 2 * TB_MAX_POLYGON_VERTICES) {
				tl_bad(L, TL_FIELD(2, "polygon"), "3 to %d points (x1, y1, x2, y2, ...) expected, got %d numbers",
				       TB_MAX_POLYGON_VERTICES, n);
			}
			tb_vec2 points[TB_MAX_POLYGON_VERTICES];
			for (int i = 0; i < n; ++i) {
				lua_rawgeti(L, d, i + 1);
				float v = tl_coord(L, -1, TL_FIELD(2, "polygon"));
				lua_pop(L, 1);
				if (i % 2 == 0) points[i / 2].x = v; else points[i / 2].y = v;
			}
			float radius = NUM("radius", false, 0.0f, G_RADIUS);
			tb_status st = tb_make_polygon(points, n / 2, radius, &g->polygon);
			if (st != TB_OK) tl_bad(L, TL_FIELD(2, "polygon"), "%s", tl_status_text(st));
			g->type = TB_SHAPE_POLYGON;
			break;
		}
	}
#undef NUM
	tb_status st = tb_validate_geometry(g);
	if (st != TB_OK) tl_bad(L, TL_ARG(2), "%s", tl_status_text(st));
	lua_settop(L, d - 1);
}

/* world:cast_shape(shape_or_def, x, y, angle, dx, dy [, mask]) -> shape, x, y,
 * nx, ny, fraction (nothing on a miss): the geometry placed at (x, y, angle)
 * swept by (dx, dy); the first shape it meets. A Shape is swept with its own
 * geometry (in its body's frame) and never hits its own body. */
int tl_world_cast_shape(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tb_geometry g;
	tl_handle *sh = tl_testudata(L, 2, TL_SHAPE);
	if (sh == NULL) {
		if (lua_type(L, 2) != LUA_TTABLE) {
			return tl_bad(L, TL_ARG(2), "Shape or geometry table expected, got %s", tl_typename(L, 2)), 0;
		}
		check_geometry_def(L, 2, &g);
	} else if (sh->rec != rec) {
		return luaL_argerror(L, 2, "shape of another world");
	}
	float x = tl_coord(L, 3, TL_ARG(3)), y = tl_coord(L, 4, TL_ARG(4));
	float angle = tl_range(L, 5, TL_ARG(5), -1.0e6, 1.0e6, "[-1e6, 1e6]");
	float dx = tl_coord(L, 6, TL_ARG(6)), dy = tl_coord(L, 7, TL_ARG(7));
	tb_query_filter f = check_mask(L, 8);
	/* now the world, and the shape again */
	tb_world *w = tl_world_of(rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	tb_body_id ignore = tb_null_body_id;
	if (sh != NULL) {
		w = tl_shape_world(L, sh);
		tb_shape_type type = tb_shape_get_type(w, tl_shape_id(sh));
		if (type == TB_SHAPE_SEGMENT || type == TB_SHAPE_CHAIN_SEGMENT)
			return luaL_argerror(L, 2, "a segment has no area to sweep: cast a capsule instead");
		g = tb_shape_get_geometry(w, tl_shape_id(sh));
		ignore = tb_shape_get_body(w, tl_shape_id(sh));
	}
	tb_transform xf = {tb_v2(x, y), tb_make_rot(angle)};
	tb_ray_result r = tb_world_cast_shape(w, &g, xf, tb_v2(dx, dy), f, ignore);
	return push_hit(L, rec, &r);
}

/* world:explode{x, y, radius, impulse, falloff = 0, mask} -> bodies pushed */
int tl_world_explode(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tl_check_unlocked(L, rec);
	luaL_checktype(L, 2, LUA_TTABLE);
	static const char *const keys[] = {"x", "y", "radius", "impulse", "falloff", "mask", NULL};
	lua_pushnil(L);
	while (lua_next(L, 2) != 0) {
		lua_pop(L, 1);
		bool known = false;
		if (lua_type(L, -1) == LUA_TSTRING) {
			for (int k = 0; keys[k] != NULL; ++k) known |= strcmp(lua_tostring(L, -1), keys[k]) == 0;
		}
		if (!known) {
			tl_bad(L, TL_ARG(2), "unknown option %s; valid options: x, y, radius, impulse, falloff, mask",
			       tl_describe_key(L, -1));
		}
	}
	tb_explosion_def e = tb_default_explosion_def();
	for (int k = 0; keys[k] != NULL; ++k) {
		lua_pushstring(L, keys[k]);
		lua_rawget(L, 2);
		const tl_where *w = TL_FIELD(2, keys[k]);
		bool required = k < 4;
		if (lua_isnil(L, -1)) {
			if (required) tl_bad(L, w, "number expected, got nil");
		} else {
			switch (k) {
				case 0: e.position.x = tl_coord(L, -1, w); break;
				case 1: e.position.y = tl_coord(L, -1, w); break;
				case 2: e.radius = tl_range(L, -1, w, 0.0, TL_MAX_SIZE, "[0, 1e4]"); break;
				case 3: e.impulse = tl_range(L, -1, w, -1.0e9, 1.0e9, "[-1e9, 1e9]"); break;
				case 4: e.falloff = tl_range(L, -1, w, 0.0, TL_MAX_SIZE, "[0, 1e4]"); break;
				default: e.mask_bits = (uint64_t)tl_integer(L, -1, w); break;
			}
		}
		lua_pop(L, 1);
	}
	tb_world *w = tl_world_of(rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	int pushed = 0;
	tb_status st = tb_world_explode(w, &e, &pushed);
	if (st != TB_OK) return luaL_error(L, "cannot explode (%s)", tl_status_for(st, TL_WORLD));
	lua_pushinteger(L, pushed);
	return 1;
}
