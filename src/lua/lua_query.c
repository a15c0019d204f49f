/* tumble: world queries (ray casts, box, point and shape overlap). Results are
 * sorted so that a script sees the same order on every run, whatever order the
 * broad-phase tree visits its leaves in. */
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

/* Collects into the record's scratch buffer from inside engine callbacks, where a
 * Lua error must not be raised (it would unwind through the engine). */
typedef struct collector {
	tl_world_record *rec;
	size_t elem_size;
	int count;
	bool out_of_memory;
} collector;

static void *collect_slot(collector *c)
{
	size_t need = (size_t)(c->count + 1) * c->elem_size;
	if (need > c->rec->scratch_capacity) {
		size_t cap = c->rec->scratch_capacity > 0 ? c->rec->scratch_capacity * 2 : 1024;
		while (cap < need) cap *= 2;
		void *p = realloc(c->rec->scratch, cap);
		if (p == NULL) {
			c->out_of_memory = true;
			return NULL;
		}
		c->rec->scratch = p;
		c->rec->scratch_capacity = cap;
	}
	return (char *)c->rec->scratch + (size_t)c->count++ * c->elem_size;
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

static int compare_shape_ids(const void *pa, const void *pb)
{
	const tb_shape_id *a = pa, *b = pb;
	return (a->index1 > b->index1) - (a->index1 < b->index1);
}

static bool collect_shape(tb_shape_id shape, void *context)
{
	collector *c = context;
	tb_shape_id *slot = collect_slot(c);
	if (slot == NULL) return false;
	*slot = shape;
	return true;
}

static int push_shape_array(lua_State *L, collector *c)
{
	if (c->out_of_memory) return luaL_error(L, "not enough memory");
	tb_shape_id *ids = c->rec->scratch;
	if (c->count > 1) qsort(ids, (size_t)c->count, sizeof *ids, compare_shape_ids);
	lua_createtable(L, c->count, 0);
	int n = 0;
	for (int i = 0; i < c->count; ++i) {
		tb_shape_id s = ((tb_shape_id *)c->rec->scratch)[i];
		tl_push_handle(L, c->rec, TL_SHAPE, s.index1, s.generation, false);
		if (lua_isnil(L, -1)) {
			lua_pop(L, 1);
			continue;
		}
		lua_rawseti(L, -2, ++n);
	}
	return 1;
}

/* world:query_box(x1, y1, x2, y2 [, mask]) -> { shapes } (tight boxes overlapping) */
int tl_world_query_box(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	float x1 = tl_coord(L, 2, TL_ARG(2)), y1 = tl_coord(L, 3, TL_ARG(3));
	float x2 = tl_coord(L, 4, TL_ARG(4)), y2 = tl_coord(L, 5, TL_ARG(5));
	tb_query_filter f = check_mask(L, 6);
	tb_aabb box = {tb_v2(tb_minf(x1, x2), tb_minf(y1, y2)), tb_v2(tb_maxf(x1, x2), tb_maxf(y1, y2))};
	collector c = {rec, sizeof(tb_shape_id), 0, false};
	tb_world_query_aabb(rec->world, box, f, collect_shape, &c);
	return push_shape_array(L, &c);
}

/* world:query_point(x, y [, mask]) -> { shapes } (containing the point) */
int tl_world_query_point(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	float x = tl_coord(L, 2, TL_ARG(2)), y = tl_coord(L, 3, TL_ARG(3));
	tb_query_filter f = check_mask(L, 4);
	collector c = {rec, sizeof(tb_shape_id), 0, false};
	tb_world_query_point(rec->world, tb_v2(x, y), f, collect_shape, &c);
	return push_shape_array(L, &c);
}

/* world:overlap(shape [, mask]) -> { shapes } (really overlapping, itself excluded) */
int tl_world_overlap(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tb_shape_id id;
	tl_handle *h;
	tl_check_shape(L, 2, &id, &h);
	if (h->rec != rec) return luaL_argerror(L, 2, "shape of another world");
	tb_query_filter f = check_mask(L, 3);
	collector c = {rec, sizeof(tb_shape_id), 0, false};
	tb_world_overlap_shape(rec->world, id, f, collect_shape, &c);
	return push_shape_array(L, &c);
}

/* ---------------- rays ---------------- */

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

static int compare_hits(const void *pa, const void *pb)
{
	const ray_hit *a = pa, *b = pb;
	if (a->fraction != b->fraction) return a->fraction < b->fraction ? -1 : 1;
	return (a->shape.index1 > b->shape.index1) - (a->shape.index1 < b->shape.index1);
}

static void check_ray(lua_State *L, tb_vec2 *origin, tb_vec2 *translation)
{
	float x1 = tl_coord(L, 2, TL_ARG(2)), y1 = tl_coord(L, 3, TL_ARG(3));
	float x2 = tl_coord(L, 4, TL_ARG(4)), y2 = tl_coord(L, 5, TL_ARG(5));
	*origin = tb_v2(x1, y1);
	*translation = tb_v2(x2 - x1, y2 - y1);
}

/* world:raycast(x1, y1, x2, y2 [, mask]) -> shape, x, y, nx, ny, fraction (nothing on a miss) */
int tl_world_raycast(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tb_vec2 origin, d;
	check_ray(L, &origin, &d);
	tb_query_filter f = check_mask(L, 6);
	if (d.x == 0.0f && d.y == 0.0f) return 0;
	tb_ray_result r = tb_world_cast_ray_closest(rec->world, origin, d, f);
	if (!r.hit) return 0;
	tl_push_handle(L, rec, TL_SHAPE, r.shape.index1, r.shape.generation, false);
	lua_pushnumber(L, r.point.x);
	lua_pushnumber(L, r.point.y);
	lua_pushnumber(L, r.normal.x);
	lua_pushnumber(L, r.normal.y);
	lua_pushnumber(L, r.fraction);
	return 6;
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
	tb_vec2 origin, d;
	check_ray(L, &origin, &d);
	tb_query_filter f = check_mask(L, 6);
	collector c = {rec, sizeof(ray_hit), 0, false};
	if (!(d.x == 0.0f && d.y == 0.0f)) tb_world_cast_ray(rec->world, origin, d, f, collect_ray, &c);
	if (c.out_of_memory) return luaL_error(L, "not enough memory");
	if (c.count > 1) qsort(rec->scratch, (size_t)c.count, sizeof(ray_hit), compare_hits);
	lua_createtable(L, c.count, 0);
	int n = 0;
	for (int i = 0; i < c.count; ++i) {
		ray_hit hit = ((ray_hit *)rec->scratch)[i];
		tl_push_handle(L, rec, TL_SHAPE, hit.shape.index1, hit.shape.generation, false);
		if (lua_isnil(L, -1)) {
			lua_pop(L, 1);
			continue;
		}
		lua_createtable(L, 0, 6);
		lua_insert(L, -2);
		lua_setfield(L, -2, "shape");
		set_num(L, "x", hit.point.x);
		set_num(L, "y", hit.point.y);
		set_num(L, "nx", hit.normal.x);
		set_num(L, "ny", hit.normal.y);
		set_num(L, "fraction", hit.fraction);
		lua_rawseti(L, -2, ++n);
	}
	return 1;
}
