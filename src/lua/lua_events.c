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

/* Every name of Contact: X(name, flags); all are read-only. */
#define CONTACT_FIELDS(X)                                                                                      \
	X(normal, TL_RO)                                                                                           \
	X(nx, TL_RO)                                                                                               \
	X(ny, TL_RO)                                                                                               \
	X(points, TL_RO)                                                                                           \
	X(count, TL_RO)                                                                                            \
	X(separations, TL_RO)                                                                                      \
	X(depth, TL_RO)                                                                                            \
	X(approach_speed, TL_RO)                                                                                   \
	X(point, TL_RO)

enum {
#define ENUM(name, ...) C_##name,
	CONTACT_FIELDS(ENUM)
#undef ENUM
	C_COUNT
};
static const char *const contact_names[] = {CONTACT_FIELDS(TL_X_NAME) NULL};
static const uint8_t contact_flags[] = {CONTACT_FIELDS(TL_X_FLAGS)};

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
	c->type = tl_type_names_of(L, TL_CONTACT);
	tl_push_metatable(L, TL_CONTACT);
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
	int p;
	const tl_contact *c = tl_index_property(L, &tl_contact_spec, sizeof *c, &p);
	if (c == NULL) return 1;
	switch (p) {
		case C_normal: tl_push_vec2(L, c->normal); break;
		case C_nx: lua_pushnumber(L, c->normal.x); break;
		case C_ny: lua_pushnumber(L, c->normal.y); break;
		case C_points: {
			tl_contact copy = *c; /* pushing may run a finalizer: c stays pinned, but copy anyway */
			lua_createtable(L, copy.point_count, 0);
			for (int i = 0; i < copy.point_count; ++i) {
				tl_push_vec2(L, copy.points[i]);
				lua_rawseti(L, -2, i + 1);
			}
			break;
		}
		case C_count: lua_pushinteger(L, c->point_count); break;
		case C_separations:
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
		case C_depth: {
			if (!c->has_separations) {
				lua_pushnil(L);
				break;
			}
			float depth = 0.0f;
			for (int i = 0; i < c->point_count; ++i) depth = tb_maxf(depth, -c->separations[i]);
			lua_pushnumber(L, depth);
			break;
		}
		case C_approach_speed:
			if (c->has_speed) lua_pushnumber(L, c->approach_speed); else lua_pushnil(L);
			break;
		case C_point:
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
	const tl_contact *c = tl_checkudata(L, 1, TL_CONTACT);
	lua_pushfstring(L, "Contact(%d points, normal %f %f)", c->point_count, (LUAI_UACNUMBER)c->normal.x,
	                (LUAI_UACNUMBER)c->normal.y);
	return 1;
}

static const luaL_Reg contact_meta[] = {
	{"__tostring", contact_tostring},
	{NULL, NULL},
};

/* Every field of a Contact is read-only. */
const tl_spec tl_contact_spec = {
	.type = TL_CONTACT,
	.count = C_COUNT,
	.names = contact_names,
	.flags = contact_flags,
	.meta = contact_meta,
	.index = contact_index,
	.newindex = contact_newindex,
};

void tl_open_events(lua_State *L)
{
	tl_new_type(L, &tl_contact_spec);
}

/* ---------------- dispatch ---------------- */

/* What is running, for the error message (set before each handler call). */
typedef struct dispatch_state {
	tl_world_record *rec;
	int ev;
	int32_t shape_index1;      /* 0: the world:on handler */
	uint32_t handlers_version; /* of the world:on handlers in the stack slots */
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
		msg = lua_pushfstring(L, "error in world:on('%s') handler: %s", tl_world_event_names[ds->ev], msg);
	} else {
		msg = lua_pushfstring(L, "error in %s handler of Shape#%d: %s", tl_handler_names[ds->ev],
		                      (int)ds->shape_index1, msg);
	}
	luaL_traceback(L, L, msg, 1);
	return 1;
}

/* Stack while delivering: 1 dispatch state, 2 World userdata, 3 handlers table,
 * 4 the shape cache, 5 the shape anchors, 6 the Contact metatable, 7.. the
 * world:on handler of each event (all fetched once per batch, not per event;
 * the handlers again whenever world:on changed them). */
enum { S_STATE = 1, S_WORLD, S_HANDLERS, S_CACHE, S_ANCHORS, S_CONTACT_MT, S_WORLD_FN };

static void load_world_handlers(lua_State *L, dispatch_state *ds)
{
	for (int ev = 0; ev <= TL_EV_joint_break; ++ev) {
		lua_rawgeti(L, S_HANDLERS, ev + 1);
		lua_replace(L, S_WORLD_FN + ev);
	}
	ds->handlers_version = ds->rec->handlers_version;
}

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

/* Pushes the shape's handle and returns whether it had to make one (which may
 * run Lua). A live shape's handle is anchored on its first event: a shape that
 * meets others keeps one handle instead of a new one per event (the anchor goes
 * when the shape dies, like one for a user value), and the next events find it
 * in the anchors by the shape's generation, without reading the handle. */
static bool push_shape(lua_State *L, tl_world_record *rec, tb_shape_id id)
{
	const tl_world_core *core = rec->core;
	if (id.index1 < core->shape_anchors_capacity && core->shape_anchors[id.index1] == (id.generation | TL_ANCHORED)) {
		if (lua_rawgeti(L, S_ANCHORS, id.index1) == LUA_TUSERDATA) return false;
		lua_pop(L, 1);
	}
	tl_push_handle(L, rec, TL_SHAPE, id.index1, id.generation, true);
	if (lua_type(L, -1) == LUA_TUSERDATA) tl_anchor(L, -1, TL_SHAPE); /* if alive */
	return true;
}

static void push_contact_copy(lua_State *L, const dispatch_state *ds, const tl_contact *c, bool flip)
{
	tl_contact *copy = lua_newuserdatauv(L, sizeof *copy, 0);
	*copy = *c;
	copy->type = ds->rec->names[TL_CONTACT];
	if (flip) copy->normal = tb_neg(c->normal);
	lua_pushvalue(L, S_CONTACT_MT);
	lua_setmetatable(L, -2);
}

/* Delivers one event of shapes a and b: the world:on handler, then a's handler
 * with (a, b, contact), then (pairs only) b's handler with (b, a, flipped).
 * Everything the handlers get is pushed first; the liveness of the world and
 * the shapes is taken again after anything that may have run Lua. */
static void deliver(lua_State *L, dispatch_state *ds, int ev, tb_shape_id a, tb_shape_id b, const tl_contact *c,
                    bool both_sides, bool stale_ok)
{
	tl_world_record *rec = ds->rec;
	uint32_t bit = 1u << ev, takes = 1u << TL_TAKES_CONTACT(ev);
	if (ds->handlers_version != rec->handlers_version) load_world_handlers(L, ds);
	bool global = (rec->world_handlers & bit) != 0;
	if (!global && !(rec->shape_handler_mask & bit)) return;
	tb_world *w = tl_world_of(rec);
	bool live_a = tb_shape_is_valid(w, a), live_b = tb_shape_is_valid(w, b);
	/* a shape destroyed by an earlier handler of this batch no longer begins,
	 * hits or enters anything; end and exit events are still delivered */
	if (!stale_ok && !(live_a && live_b)) return;
	uint32_t bits_a = live_a ? (uint32_t)(uintptr_t)tb_shape_get_user_data(w, a) : 0;
	uint32_t bits_b = both_sides && live_b ? (uint32_t)(uintptr_t)tb_shape_get_user_data(w, b) : 0;
	bool ha = (bits_a & bit) != 0, hb = (bits_b & bit) != 0;
	if (!global && !ha && !hb) return;

	/* slots: a, b, the contact for the world's and a's handler, b's flipped one */
	int base = lua_gettop(L);
	int ia = base + 1, ib = base + 2, ic = base + 3, id = base + 4;
	bool ran = push_shape(L, rec, a);
	ran |= push_shape(L, rec, b);
	bool want_c = c != NULL && ((global && (rec->world_handlers & takes)) || (ha && (bits_a & takes)));
	bool want_d = c != NULL && hb && (bits_b & takes);
	if (want_c) push_contact_copy(L, ds, c, false); else lua_pushnil(L);
	if (want_d) push_contact_copy(L, ds, c, true); else lua_pushnil(L);
	if (ran || want_c || want_d) {
		/* allocations: a finalizer may have run */
		w = tl_world_of(rec);
		if (w == NULL) goto done;
		bool now_a = tb_shape_is_valid(w, a), now_b = tb_shape_is_valid(w, b);
		if (!stale_ok && !(now_a && now_b)) goto done;
		ha = ha && now_a;
		hb = hb && now_b;
	}
	if (global) {
		lua_pushvalue(L, S_WORLD_FN + ev);
		call_handler(L, ds, ev, 0, ia, ib, ic);
		/* each later handler is looked up again: this one may have removed
		 * it or destroyed the shape (or the whole world) */
		w = tl_world_of(rec);
		ha = ha && w != NULL && tb_shape_is_valid(w, a);
		hb = hb && w != NULL && tb_shape_is_valid(w, b);
	}
	if (ha) {
		if (lua_getiuservalue(L, ia, TL_UV_HANDLER(ev)) == LUA_TFUNCTION) {
			call_handler(L, ds, ev, a.index1, ia, ib, ic);
			w = tl_world_of(rec);
			hb = hb && w != NULL && tb_shape_is_valid(w, b);
		} else {
			lua_pop(L, 1);
		}
	}
	if (hb) {
		/* the normal points from self to other in a per-shape handler */
		if (lua_getiuservalue(L, ib, TL_UV_HANDLER(ev)) == LUA_TFUNCTION) {
			call_handler(L, ds, ev, b.index1, ib, ia, id);
		} else {
			lua_pop(L, 1);
		}
	}
done:
	lua_settop(L, base);
}

static int dispatch_all(lua_State *L)
{
	dispatch_state *ds = lua_touserdata(L, S_STATE);
	tl_world_record *rec = ds->rec;
	tl_world_core *core = rec->core;
	lua_settop(L, S_HANDLERS);
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[TL_SHAPE]);
	lua_getiuservalue(L, S_WORLD, TL_WUV_ANCHORS(TL_SHAPE));
	tl_push_metatable(L, TL_CONTACT);
	lua_settop(L, S_WORLD_FN + TL_EV_joint_break);
	load_world_handlers(L, ds);
	/* the joints that broke: handler(joint, info), the joint destroyed (its
	 * handle stale, its user value in info.user) */
	for (int i = 0; core->world != NULL && i < core->break_count; ++i) {
		if (ds->handlers_version != rec->handlers_version) load_world_handlers(L, ds);
		if (!(rec->world_handlers & (1u << TL_EV_joint_break))) break;
		tb_joint_break_event e = core->breaks[i];
		int base = lua_gettop(L);
		lua_pushvalue(L, S_WORLD_FN + TL_EV_joint_break);
		tl_push_handle(L, rec, TL_JOINT, e.joint.index1, e.joint.generation, true);
		lua_createtable(L, 0, 6);
		lua_pushstring(L, tl_joint_kind_names[e.type]);
		lua_setfield(L, -2, "kind");
		tl_push_handle(L, rec, TL_BODY, e.body_a.index1, e.body_a.generation, false);
		lua_setfield(L, -2, "a");
		tl_push_handle(L, rec, TL_BODY, e.body_b.index1, e.body_b.generation, false);
		lua_setfield(L, -2, "b");
		lua_pushnumber(L, e.force);
		lua_setfield(L, -2, "force");
		lua_pushnumber(L, e.torque);
		lua_setfield(L, -2, "torque");
		/* the user value of the joint's own handle, if it still has one */
		if (lua_type(L, base + 2) == LUA_TUSERDATA && ((tl_handle *)lua_touserdata(L, base + 2))->generation ==
		                                                    e.joint.generation) {
			lua_getiuservalue(L, base + 2, TL_UV_USER);
			lua_setfield(L, -2, "user");
		}
		ds->ev = TL_EV_joint_break;
		ds->shape_index1 = 0;
		lua_call(L, 2, 0);
		lua_settop(L, base);
	}
	/* a handler may destroy the world, which frees the copies: checked first */
	for (int i = 0; core->world != NULL && i < core->begin_count; ++i) {
		tb_contact_begin_event e = core->begin[i];
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
		deliver(L, ds, TL_EV_begin, e.shape_a, e.shape_b, &c, true, false);
	}
	for (int i = 0; core->world != NULL && i < core->end_count; ++i) {
		tb_contact_end_event e = core->end[i];
		deliver(L, ds, TL_EV_end, e.shape_a, e.shape_b, NULL, true, true);
	}
	for (int i = 0; core->world != NULL && i < core->hit_count; ++i) {
		tb_contact_hit_event e = core->hit[i];
		tl_contact c;
		memset(&c, 0, sizeof c);
		c.normal = e.normal;
		c.point_count = 1;
		c.points[0] = e.point;
		c.approach_speed = e.approach_speed;
		c.has_speed = true;
		deliver(L, ds, TL_EV_hit, e.shape_a, e.shape_b, &c, true, false);
	}
	for (int i = 0; core->world != NULL && i < core->sensor_begin_count; ++i) {
		tb_sensor_event e = core->sensor_begin[i];
		deliver(L, ds, TL_EV_sensor_enter, e.sensor, e.visitor, NULL, false, false);
	}
	for (int i = 0; core->world != NULL && i < core->sensor_end_count; ++i) {
		tb_sensor_event e = core->sensor_end[i];
		deliver(L, ds, TL_EV_sensor_exit, e.sensor, e.visitor, NULL, false, true);
	}
	return 0;
}

static void clear_counts(tl_world_core *c)
{
	c->begin_count = c->end_count = c->hit_count = 0;
	c->sensor_begin_count = c->sensor_end_count = 0;
}

/* The broken joints' handles lose their values and anchors: the engine
 * destroyed the joints. After the handler, which still saw them. */
static void forget_breaks(lua_State *L, tl_world_record *rec)
{
	tl_world_core *core = rec->core;
	for (int i = 0; i < core->break_count && core->world != NULL; ++i)
		tl_forget(L, rec, TL_JOINT, core->breaks[i].joint.index1, core->breaks[i].joint.generation);
	core->break_count = 0;
}

void tl_dispatch(lua_State *L, tl_world_record *rec)
{
	tl_world_core *core = rec->core;
	rec->last_dispatch_ms = 0.0;
	clear_counts(core);
	core->break_count = 0;
	if (core->world != NULL) {
		tb_joint_events je = tb_world_get_joint_events(core->world);
		if (je.break_count > 0) {
			TL_RESERVE(L, core, core->breaks, core->break_capacity, je.break_count);
			memcpy(core->breaks, je.breaks, sizeof *core->breaks * (size_t)je.break_count);
			core->break_count = je.break_count;
		}
	}

	/* events nobody listens to are not even copied */
	int top = lua_gettop(L);
	lua_getiuservalue(L, 1, TL_WUV_HANDLERS);
	int handlers = lua_gettop(L);
	uint32_t want = (rec->shape_handler_mask | rec->world_handlers) & ((1u << TL_EV_COUNT) - 1);
	bool breaks = core->break_count > 0 && (rec->world_handlers & (1u << TL_EV_joint_break));
	if ((want == 0 && !breaks) || core->world == NULL) {
		forget_breaks(L, rec);
		lua_settop(L, top);
		return;
	}
	/* the copies grow with the state's allocator, which runs no Lua */
	tb_contact_events ce = tb_world_get_contact_events(core->world);
	tb_sensor_events se = tb_world_get_sensor_events(core->world);
	if ((want & (1u << TL_EV_begin)) && ce.begin_count > 0) {
		TL_RESERVE(L, core, core->begin, core->begin_capacity, ce.begin_count);
		memcpy(core->begin, ce.begin, sizeof *core->begin * (size_t)ce.begin_count);
		core->begin_count = ce.begin_count;
	}
	if ((want & (1u << TL_EV_end)) && ce.end_count > 0) {
		TL_RESERVE(L, core, core->end, core->end_capacity, ce.end_count);
		memcpy(core->end, ce.end, sizeof *core->end * (size_t)ce.end_count);
		core->end_count = ce.end_count;
	}
	if ((want & (1u << TL_EV_hit)) && ce.hit_count > 0) {
		TL_RESERVE(L, core, core->hit, core->hit_capacity, ce.hit_count);
		memcpy(core->hit, ce.hit, sizeof *core->hit * (size_t)ce.hit_count);
		core->hit_count = ce.hit_count;
	}
	if ((want & (1u << TL_EV_sensor_enter)) && se.begin_count > 0) {
		TL_RESERVE(L, core, core->sensor_begin, core->sensor_begin_capacity, se.begin_count);
		memcpy(core->sensor_begin, se.begin, sizeof *core->sensor_begin * (size_t)se.begin_count);
		core->sensor_begin_count = se.begin_count;
	}
	if ((want & (1u << TL_EV_sensor_exit)) && se.end_count > 0) {
		TL_RESERVE(L, core, core->sensor_end, core->sensor_end_capacity, se.end_count);
		memcpy(core->sensor_end, se.end, sizeof *core->sensor_end * (size_t)se.end_count);
		core->sensor_end_count = se.end_count;
	}
	if (core->begin_count + core->end_count + core->hit_count + core->sensor_begin_count + core->sensor_end_count ==
	        0 &&
	    !breaks) {
		forget_breaks(L, rec);
		lua_settop(L, top);
		return;
	}
	if (!breaks) forget_breaks(L, rec);

	double t0 = now_ms();
	/* the World userdata at 1 keeps the record alive: a handler may destroy the
	 * world (core->world goes NULL and the copies are freed) but not the record */
	rec->dispatching = true;
	dispatch_state *ds = lua_newuserdatauv(L, sizeof *ds, 0);
	ds->rec = rec;
	ds->ev = 0;
	ds->shape_index1 = 0;
	ds->handlers_version = rec->handlers_version;
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
	clear_counts(core);
	forget_breaks(L, rec); /* even after an error */
	if (status != LUA_OK) lua_error(L);
	lua_settop(L, top);
}

/* ---------------- presolve ---------------- */

/* What the engine's hook hands the protected call. */
typedef struct presolve_call {
	tl_world_record *rec;
	tb_shape_id a, b;
	const tb_manifold *manifold;
	bool enable;
} presolve_call;

static int presolve_error(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	if (msg == NULL) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
	luaL_traceback(L, L, lua_pushfstring(L, "error in world:on('presolve') handler: %s", msg), 1);
	return 1;
}

/* Protected: the handler with (shape_a, shape_b, contact); false disables. The
 * World userdata is at 1 of world:step's frame, below this call's. */
static int presolve_protected(lua_State *L)
{
	presolve_call *pc = lua_touserdata(L, 1);
	tl_world_record *rec = pc->rec;
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->holder);
	lua_rawgeti(L, -1, 1); /* the World userdata (weak, but world:step pins it) */
	lua_getiuservalue(L, -1, TL_WUV_HANDLERS);
	if (lua_rawgeti(L, -1, TL_EV_presolve + 1) != LUA_TFUNCTION) return 0;
	tl_push_handle(L, rec, TL_SHAPE, pc->a.index1, pc->a.generation, true);
	tl_push_handle(L, rec, TL_SHAPE, pc->b.index1, pc->b.generation, true);
	tl_push_manifold_contact(L, pc->manifold);
	lua_call(L, 3, 1);
	pc->enable = !(lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1));
	return 0;
}

/* The engine's hook: inside tb_world_step, the world locked. A Lua error must
 * not unwind through the engine, so the handler runs protected; its message
 * stays on the stack, the step goes on accepting every contact, and world:step
 * raises it once the step is done. */
static bool presolve_hook(tb_shape_id a, tb_shape_id b, const tb_manifold *m, void *context)
{
	tl_world_record *rec = context;
	lua_State *L = rec->presolve_L;
	if (L == NULL || rec->presolve_failed) return true;
	if (!lua_checkstack(L, 8)) return true;
	int top = lua_gettop(L);
	lua_pushcfunction(L, presolve_error);
	presolve_call *pc = lua_newuserdatauv(L, sizeof *pc, 0);
	pc->rec = rec;
	pc->a = a;
	pc->b = b;
	pc->manifold = m;
	pc->enable = true;
	lua_pushcfunction(L, presolve_protected);
	lua_insert(L, -2);
	int status = lua_pcall(L, 1, 0, top + 1);
	bool enable = status == LUA_OK ? pc->enable : true;
	if (status != LUA_OK) {
		/* keep the message, drop the rest */
		rec->presolve_failed = true;
		lua_replace(L, top + 1);
		lua_settop(L, top + 1);
		return true;
	}
	lua_settop(L, top);
	return enable;
}

void tl_set_presolve(lua_State *L, tl_world_record *rec, bool on)
{
	(void)L;
	tb_world_set_presolve(tl_world_of(rec), on ? presolve_hook : NULL, rec);
}

void tl_step(lua_State *L, tl_world_record *rec, float dt)
{
	int top = lua_gettop(L);
	rec->presolving = true;
	rec->presolve_failed = false;
	rec->presolve_L = L;
	tb_world_step(tl_world_of(rec), dt);
	rec->presolving = false;
	rec->presolve_L = NULL;
	if (rec->presolve_failed) {
		/* the step is whole; the broken joints forgotten, the events dropped */
		rec->presolve_failed = false;
		tl_world_core *core = rec->core;
		core->break_count = 0;
		tb_joint_events je = tb_world_get_joint_events(core->world);
		for (int i = 0; i < je.break_count; ++i) {
			tb_joint_break_event e = je.breaks[i];
			tl_forget(L, rec, TL_JOINT, e.joint.index1, e.joint.generation);
			je = tb_world_get_joint_events(core->world);
		}
		lua_error(L);
	}
	lua_settop(L, top);
	tl_dispatch(L, rec);
}

/* ---------------- tumble.collide ---------------- */

/* tumble.collide(a, b) -> touching, contact: touching when some manifold point has
 * separation <= 0; contact is nil when the shapes are further apart than the
 * speculative distance (no manifold points). */
int tl_collide(lua_State *L)
{
	tl_handle *ha = tl_check_live(L, 1, TL_SHAPE);
	tl_handle *hb = tl_check_live(L, 2, TL_SHAPE);
	if (ha->rec != hb->rec) return luaL_argerror(L, 2, "shape of another world");
	tb_shape_id a = tl_shape_id(ha), b = tl_shape_id(hb);
	if (TB_ID_EQUALS(a, b)) return luaL_argerror(L, 2, "the same shape as argument #1");
	/* the arguments are handles: nothing read them that could run Lua */
	tb_manifold m = tb_world_collide_shapes(tl_shape_world(L, ha), a, b);
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
