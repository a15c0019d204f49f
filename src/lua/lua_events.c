/* tumble: event delivery after world:step, the Contact value and tumble.collide.
 *
 * The step's events are copied out of the engine first: handlers may create and
 * destroy objects, which can grow the engine's event arrays under our feet. All
 * handlers then run inside one protected call (one C-to-Lua crossing for the
 * batch, not one pcall per event); an error stops the batch, the remaining events
 * of that step are dropped, and world:step re-raises the error with a traceback. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "lua_internal.h"

typedef struct tl_contact {
	tb_vec2 normal;
	tb_vec2 points[2];
	float separations[2];
	int point_count;
	float approach_speed;
	bool has_speed;
	bool has_separations;
} tl_contact;

enum { C_NORMAL, C_NX, C_NY, C_POINTS, C_COUNT, C_SEPARATIONS, C_DEPTH, C_APPROACH_SPEED, C_POINT };
static const char *const contact_props[] = {"normal", "nx", "ny", "points", "count", "separations", "depth",
                                            "approach_speed", "point", NULL};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return 1000.0 * (double)ts.tv_sec + 1.0e-6 * (double)ts.tv_nsec;
}

/* ---------------- Contact ---------------- */

static tl_contact *new_contact(lua_State *L)
{
	tl_contact *c = lua_newuserdatauv(L, sizeof *c, 0);
	memset(c, 0, sizeof *c);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &tl_mt_key[TL_CONTACT]);
	lua_setmetatable(L, -2);
	return c;
}

void tl_push_manifold_contact(lua_State *L, const tb_manifold *m)
{
	tl_contact *c = new_contact(L);
	c->normal = m->normal;
	c->point_count = m->point_count < 0 ? 0 : (m->point_count > 2 ? 2 : m->point_count);
	for (int i = 0; i < c->point_count; ++i) {
		c->points[i] = m->points[i].point;
		c->separations[i] = m->points[i].separation;
	}
	c->has_separations = true;
}

static int contact_index(lua_State *L)
{
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, "Contact");
	}
	const tl_contact *c = lua_touserdata(L, 1);
	lua_pushvalue(L, 2);
	if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNUMBER) return 1;
	switch ((int)lua_tointeger(L, -1) - 1) {
		case C_NORMAL: tl_push_vec2(L, c->normal); break;
		case C_NX: lua_pushnumber(L, c->normal.x); break;
		case C_NY: lua_pushnumber(L, c->normal.y); break;
		case C_POINTS:
			lua_createtable(L, c->point_count, 0);
			for (int i = 0; i < c->point_count; ++i) {
				tl_push_vec2(L, c->points[i]);
				lua_rawseti(L, -2, i + 1);
			}
			break;
		case C_COUNT: lua_pushinteger(L, c->point_count); break;
		case C_SEPARATIONS:
			if (!c->has_separations) {
				lua_pushnil(L);
				break;
			}
			lua_createtable(L, c->point_count, 0);
			for (int i = 0; i < c->point_count; ++i) {
				lua_pushnumber(L, c->separations[i]);
				lua_rawseti(L, -2, i + 1);
			}
			break;
		case C_DEPTH: {
			if (!c->has_separations) {
				lua_pushnil(L);
				break;
			}
			float depth = 0.0f;
			for (int i = 0; i < c->point_count; ++i) depth = tb_maxf(depth, -c->separations[i]);
			lua_pushnumber(L, depth);
			break;
		}
		case C_APPROACH_SPEED:
			if (c->has_speed) lua_pushnumber(L, c->approach_speed); else lua_pushnil(L);
			break;
		case C_POINT:
			if (c->point_count > 0) tl_push_vec2(L, c->points[0]); else lua_pushnil(L);
			break;
		default: lua_pushnil(L); break;
	}
	return 1;
}

static int contact_newindex(lua_State *L)
{
	return luaL_error(L, "Contact is read-only");
}

static int contact_tostring(lua_State *L)
{
	const tl_contact *c = (const tl_contact *)tl_to_handle(L, 1, TL_CONTACT);
	if (c == NULL) return luaL_typeerror(L, 1, "Contact");
	lua_pushfstring(L, "Contact(%d points, normal %f %f)", c->point_count, (LUAI_UACNUMBER)c->normal.x,
	                (LUAI_UACNUMBER)c->normal.y);
	return 1;
}

/* Every field of a Contact is read-only. */
const tl_type_info tl_contact_info = {contact_props, 0, NULL, NULL, NULL};

void tl_open_events(lua_State *L)
{
	tl_new_metatable(L, TL_CONTACT);
	static const luaL_Reg no_methods[] = {{NULL, NULL}};
	tl_set_accessors(L, -1, contact_props, no_methods, contact_index, contact_newindex);
	lua_pushcfunction(L, contact_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pop(L, 1);
}

/* ---------------- dispatch ---------------- */

/* What is running, for the error message (set before each handler call). */
typedef struct dispatch_state {
	tl_world_record *rec;
	int ev;
	int32_t shape_index1; /* 0: the world:on handler */
} dispatch_state;

static int error_handler(lua_State *L)
{
	const dispatch_state *ds = lua_touserdata(L, lua_upvalueindex(1));
	const char *msg = lua_tostring(L, 1);
	if (msg == NULL) {
		if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
			msg = lua_tostring(L, -1);
		} else {
			msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
		}
	}
	if (ds->shape_index1 == 0) {
		msg = lua_pushfstring(L, "error in world:on('%s') handler: %s", tl_event_names[ds->ev], msg);
	} else {
		msg = lua_pushfstring(L, "error in %s handler of Shape#%d: %s", tl_handler_names[ds->ev],
		                      (int)ds->shape_index1, msg);
	}
	luaL_traceback(L, L, msg, 1);
	return 1;
}

/* Stack while delivering: 1 dispatch state, 2 World userdata, 3 handlers table,
 * 4 the shape cache, 5 the Contact metatable (fetched once per batch, not per event). */
enum { S_STATE = 1, S_WORLD, S_HANDLERS, S_CACHE, S_CONTACT_MT };

static void call_handler(lua_State *L, dispatch_state *ds, int ev, int32_t shape_index1, int self, int other,
                         int contact)
{
	/* the function is on top of the stack */
	ds->ev = ev;
	ds->shape_index1 = shape_index1;
	lua_pushvalue(L, self);
	lua_pushvalue(L, other);
	lua_pushvalue(L, contact);
	lua_call(L, 3, 0);
}

/* Pushes the shape's handle: a cache hit without leaving the stack frame, else
 * the general path (which also makes handles for destroyed shapes). */
static void push_shape(lua_State *L, tl_world_record *rec, tb_shape_id id)
{
	if (lua_rawgeti(L, S_CACHE, id.index1) == LUA_TUSERDATA &&
	    ((const tl_handle *)lua_touserdata(L, -1))->generation == id.generation) {
		return;
	}
	lua_pop(L, 1);
	tl_push_handle(L, rec, TL_SHAPE, id.index1, id.generation, true);
}

static void push_contact_copy(lua_State *L, const tl_contact *c, bool flip)
{
	tl_contact *copy = lua_newuserdatauv(L, sizeof *copy, 0);
	*copy = *c;
	if (flip) copy->normal = tb_neg(c->normal);
	lua_pushvalue(L, S_CONTACT_MT);
	lua_setmetatable(L, -2);
}

/* Delivers one event of shapes a and b: the world:on handler, then a's handler
 * with (a, b, contact), then (pairs only) b's handler with (b, a, flipped). */
static void deliver(lua_State *L, dispatch_state *ds, int ev, tb_shape_id a, tb_shape_id b, const tl_contact *c,
                    bool both_sides, bool stale_ok)
{
	tl_world_record *rec = ds->rec;
	tb_world *w = rec->world;
	bool live_a = tb_shape_is_valid(w, a), live_b = tb_shape_is_valid(w, b);
	/* a shape destroyed by an earlier handler of this batch no longer begins,
	 * hits or enters anything; end and exit events are still delivered */
	if (!stale_ok && !(live_a && live_b)) return;
	uintptr_t bit = (uintptr_t)1 << ev;
	bool ha = live_a && ((uintptr_t)tb_shape_get_user_data(w, a) & bit) != 0;
	bool hb = both_sides && live_b && ((uintptr_t)tb_shape_get_user_data(w, b) & bit) != 0;
	int base = lua_gettop(L);
	bool global = lua_rawgeti(L, S_HANDLERS, ev + 1) == LUA_TFUNCTION;
	if (!global && !ha && !hb) {
		lua_settop(L, base);
		return;
	}
	int fn = base + 1;
	push_shape(L, rec, a);
	push_shape(L, rec, b);
	if (c != NULL) {
		push_contact_copy(L, c, false);
	} else {
		lua_pushnil(L);
	}
	int ia = base + 2, ib = base + 3, ic = base + 4;
	if (global) {
		lua_pushvalue(L, fn);
		call_handler(L, ds, ev, 0, ia, ib, ic);
	}
	/* each handler is looked up again: the one before may have removed it or
	 * destroyed the shape (or the whole world) */
	if (ha && rec->world != NULL && tb_shape_is_valid(rec->world, a)) {
		if (lua_getiuservalue(L, ia, TL_UV_HANDLER(ev)) == LUA_TFUNCTION) {
			call_handler(L, ds, ev, a.index1, ia, ib, ic);
		} else {
			lua_pop(L, 1);
		}
	}
	if (hb && rec->world != NULL && tb_shape_is_valid(rec->world, b)) {
		if (lua_getiuservalue(L, ib, TL_UV_HANDLER(ev)) == LUA_TFUNCTION) {
			int f = lua_gettop(L);
			/* the normal points from self to other in a per-shape handler */
			if (c != NULL) {
				push_contact_copy(L, c, true);
			} else {
				lua_pushnil(L);
			}
			lua_insert(L, f); /* contact below the function */
			call_handler(L, ds, ev, b.index1, ib, ia, f);
		} else {
			lua_pop(L, 1);
		}
	}
	lua_settop(L, base);
}

static int dispatch_all(lua_State *L)
{
	dispatch_state *ds = lua_touserdata(L, S_STATE);
	tl_world_record *rec = ds->rec;
	lua_settop(L, S_HANDLERS);
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[TL_SHAPE]);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &tl_mt_key[TL_CONTACT]);
	for (int i = 0; i < rec->begin_count && rec->world != NULL; ++i) {
		tb_contact_begin_event e = rec->begin[i];
		tl_contact c;
		memset(&c, 0, sizeof c);
		c.normal = e.normal;
		c.point_count = e.point_count < 0 ? 0 : (e.point_count > 2 ? 2 : e.point_count);
		for (int k = 0; k < c.point_count; ++k) {
			c.points[k] = e.points[k];
			c.separations[k] = e.separations[k];
		}
		c.has_separations = true;
		c.approach_speed = e.approach_speed;
		c.has_speed = true;
		deliver(L, ds, TL_EV_BEGIN, e.shape_a, e.shape_b, &c, true, false);
	}
	for (int i = 0; i < rec->end_count && rec->world != NULL; ++i) {
		tb_contact_end_event e = rec->end[i];
		deliver(L, ds, TL_EV_END, e.shape_a, e.shape_b, NULL, true, true);
	}
	for (int i = 0; i < rec->hit_count && rec->world != NULL; ++i) {
		tb_contact_hit_event e = rec->hit[i];
		tl_contact c;
		memset(&c, 0, sizeof c);
		c.normal = e.normal;
		c.point_count = 1;
		c.points[0] = e.point;
		c.approach_speed = e.approach_speed;
		c.has_speed = true;
		deliver(L, ds, TL_EV_HIT, e.shape_a, e.shape_b, &c, true, false);
	}
	for (int i = 0; i < rec->sensor_begin_count && rec->world != NULL; ++i) {
		tb_sensor_event e = rec->sensor_begin[i];
		deliver(L, ds, TL_EV_SENSOR_ENTER, e.sensor, e.visitor, NULL, false, false);
	}
	for (int i = 0; i < rec->sensor_end_count && rec->world != NULL; ++i) {
		tb_sensor_event e = rec->sensor_end[i];
		deliver(L, ds, TL_EV_SENSOR_EXIT, e.sensor, e.visitor, NULL, false, true);
	}
	return 0;
}

void tl_dispatch(lua_State *L, tl_world_record *rec)
{
	rec->last_dispatch_ms = 0.0;
	rec->begin_count = rec->end_count = rec->hit_count = 0;
	rec->sensor_begin_count = rec->sensor_end_count = 0;

	/* events nobody listens to are not even copied */
	int top = lua_gettop(L);
	lua_getiuservalue(L, 1, TL_WUV_HANDLERS);
	int handlers = lua_gettop(L);
	uint32_t want = rec->shape_handler_mask;
	for (int ev = 0; ev < TL_EV_COUNT; ++ev) {
		if (lua_rawgeti(L, handlers, ev + 1) == LUA_TFUNCTION) want |= 1u << ev;
		lua_pop(L, 1);
	}
	if (want == 0) {
		lua_settop(L, top);
		return;
	}
	tb_contact_events ce = tb_world_get_contact_events(rec->world);
	tb_sensor_events se = tb_world_get_sensor_events(rec->world);
	if ((want & (1u << TL_EV_BEGIN)) && ce.begin_count > 0) {
		TL_RESERVE(L, rec->begin, rec->begin_capacity, ce.begin_count);
		memcpy(rec->begin, ce.begin, sizeof *rec->begin * (size_t)ce.begin_count);
		rec->begin_count = ce.begin_count;
	}
	if ((want & (1u << TL_EV_END)) && ce.end_count > 0) {
		TL_RESERVE(L, rec->end, rec->end_capacity, ce.end_count);
		memcpy(rec->end, ce.end, sizeof *rec->end * (size_t)ce.end_count);
		rec->end_count = ce.end_count;
	}
	if ((want & (1u << TL_EV_HIT)) && ce.hit_count > 0) {
		TL_RESERVE(L, rec->hit, rec->hit_capacity, ce.hit_count);
		memcpy(rec->hit, ce.hit, sizeof *rec->hit * (size_t)ce.hit_count);
		rec->hit_count = ce.hit_count;
	}
	if ((want & (1u << TL_EV_SENSOR_ENTER)) && se.begin_count > 0) {
		TL_RESERVE(L, rec->sensor_begin, rec->sensor_begin_capacity, se.begin_count);
		memcpy(rec->sensor_begin, se.begin, sizeof *rec->sensor_begin * (size_t)se.begin_count);
		rec->sensor_begin_count = se.begin_count;
	}
	if ((want & (1u << TL_EV_SENSOR_EXIT)) && se.end_count > 0) {
		TL_RESERVE(L, rec->sensor_end, rec->sensor_end_capacity, se.end_count);
		memcpy(rec->sensor_end, se.end, sizeof *rec->sensor_end * (size_t)se.end_count);
		rec->sensor_end_count = se.end_count;
	}
	if (rec->begin_count + rec->end_count + rec->hit_count + rec->sensor_begin_count + rec->sensor_end_count == 0) {
		lua_settop(L, top);
		return;
	}

	double t0 = now_ms();
	/* the dispatch holds its own reference: a handler may destroy the world */
	rec->refs += 1;
	rec->dispatching = true;
	dispatch_state *ds = lua_newuserdatauv(L, sizeof *ds, 0);
	ds->rec = rec;
	ds->ev = 0;
	ds->shape_index1 = 0;
	int state = lua_gettop(L);
	lua_pushvalue(L, state);
	lua_pushcclosure(L, error_handler, 1);
	int msgh = lua_gettop(L);
	lua_pushcfunction(L, dispatch_all);
	lua_pushvalue(L, state);
	lua_pushvalue(L, 1);
	lua_pushvalue(L, handlers);
	int status = lua_pcall(L, 3, 0, msgh);
	rec->dispatching = false;
	rec->last_dispatch_ms = now_ms() - t0;
	rec->begin_count = rec->end_count = rec->hit_count = 0;
	rec->sensor_begin_count = rec->sensor_end_count = 0;
	tl_record_release(rec);
	if (status != LUA_OK) lua_error(L);
	lua_settop(L, top);
}

/* ---------------- tumble.collide ---------------- */

/* tumble.collide(a, b) -> touching, contact: touching when some manifold point has
 * separation <= 0; contact is nil when the shapes are further apart than the
 * speculative distance (no manifold points). */
int tl_collide(lua_State *L)
{
	tb_shape_id a, b;
	tl_handle *ha, *hb;
	tb_world *w = tl_check_shape(L, 1, &a, &ha);
	tl_check_shape(L, 2, &b, &hb);
	if (ha->rec != hb->rec) return luaL_argerror(L, 2, "shape of another world");
	if (TB_ID_EQUALS(a, b)) return luaL_argerror(L, 2, "the same shape as argument #1");
	tb_manifold m = tb_world_collide_shapes(w, a, b);
	bool touching = false;
	for (int i = 0; i < m.point_count && i < 2; ++i) touching = touching || m.points[i].separation <= 0.0f;
	lua_pushboolean(L, touching);
	if (m.point_count <= 0) {
		lua_pushnil(L);
	} else {
		tl_push_manifold_contact(L, &m);
	}
	return 2;
}
