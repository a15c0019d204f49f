/* tumble: the World type, the module table and the host interface (tumble_lua.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

/* Every name of World: X(name, flags). The settings are the writable
 * properties, and the constructor's options. */
#define SETTING (TL_RW)
#define WORLD_FIELDS(X)                                                                                        \
	X(gravity, SETTING)                                                                                        \
	X(substeps, SETTING)                                                                                       \
	X(contact_hertz, SETTING)                                                                                  \
	X(contact_damping_ratio, SETTING)                                                                          \
	X(joint_hertz, SETTING)                                                                                    \
	X(joint_damping_ratio, SETTING)                                                                            \
	X(max_push_speed, SETTING)                                                                                 \
	X(restitution_threshold, SETTING)                                                                          \
	X(hit_threshold, SETTING)                                                                                  \
	X(max_linear_speed, SETTING)                                                                               \
	X(time_to_sleep, SETTING)                                                                                  \
	X(warm_starting, SETTING)                                                                                  \
	X(position_correction, SETTING)                                                                            \
	X(sleeping, SETTING)                                                                                       \
	X(continuous, SETTING)                                                                                     \
	X(motion, SETTING)                                                                                         \
	X(contact_cache, SETTING)                                                                                  \
	X(friction_mix, SETTING)                                                                                   \
	X(restitution_mix, SETTING)                                                                                \
	X(valid, TL_RO | TL_ALWAYS)                                                                                \
	X(body_count, TL_RO)                                                                                       \
	X(awake_body_count, TL_RO)                                                                                 \
	X(shape_count, TL_RO)                                                                                      \
	X(joint_count, TL_RO)                                                                                      \
	X(contact_count, TL_RO)                                                                                    \
	X(step_count, TL_RO)                                                                                       \
	X(dispatch_ms, TL_RO)

enum {
#define ENUM(name, ...) P_##name,
	WORLD_FIELDS(ENUM)
#undef ENUM
	P_COUNT
};
static const char *const world_names[] = {WORLD_FIELDS(TL_X_NAME) NULL};
static const uint8_t world_flags[] = {WORLD_FIELDS(TL_X_FLAGS)};
#define OPTION(name, flags) ((flags) & TL_WRITABLE ? 1u : 0u),
static const uint32_t world_options[] = {WORLD_FIELDS(OPTION)};
#undef OPTION

/* The mix rules by name, in tb_mix_rule's order. */
static const char *const mix_names[] = {"geometric", "max", "min", "average", "multiply", NULL};
_Static_assert(TB_MIX_RULE_COUNT == 5, "a name per mix rule");

/* Reads a setting's value at idx into d (no engine pointer is held). */
static void read_setting(lua_State *L, tb_world_def *d, int s, int idx, const tl_where *w)
{
	switch (s) {
		case P_gravity: d->gravity = tl_vec2(L, idx, w, true); break;
		case P_substeps: d->substeps = tl_int_range(L, idx, w, 1, 64); break;
		case P_contact_hertz: d->contact_hertz = tl_nonneg(L, idx, w); break;
		case P_contact_damping_ratio: d->contact_damping_ratio = tl_nonneg(L, idx, w); break;
		case P_joint_hertz: d->joint_hertz = tl_nonneg(L, idx, w); break;
		case P_joint_damping_ratio: d->joint_damping_ratio = tl_nonneg(L, idx, w); break;
		case P_max_push_speed: d->max_contact_push_speed = tl_nonneg(L, idx, w); break;
		case P_restitution_threshold: d->restitution_threshold = tl_nonneg(L, idx, w); break;
		case P_hit_threshold: d->hit_event_threshold = tl_nonneg(L, idx, w); break;
		case P_max_linear_speed: d->max_linear_speed = tl_positive(L, idx, w); break;
		case P_time_to_sleep: d->time_to_sleep = tl_nonneg(L, idx, w); break;
		case P_warm_starting: d->enable_warm_starting = tl_bool(L, idx, w); break;
		case P_position_correction: d->enable_position_correction = tl_bool(L, idx, w); break;
		case P_sleeping: d->enable_sleep = tl_bool(L, idx, w); break;
		case P_continuous: d->enable_continuous = tl_bool(L, idx, w); break;
		case P_motion: d->enable_motion = tl_bool(L, idx, w); break;
		case P_contact_cache: d->enable_contact_cache = tl_bool(L, idx, w); break;
		case P_friction_mix: d->friction_mix = (tb_mix_rule)tl_enum(L, idx, w, mix_names); break;
		case P_restitution_mix: d->restitution_mix = (tb_mix_rule)tl_enum(L, idx, w, mix_names); break;
		default: break;
	}
}

/* Copies setting s from src to dst: a property write reads the value into a
 * scratch def, then applies it to the world's current def in one go. */
static void copy_setting(tb_world_def *dst, const tb_world_def *src, int s)
{
	switch (s) {
		case P_gravity: dst->gravity = src->gravity; break;
		case P_substeps: dst->substeps = src->substeps; break;
		case P_contact_hertz: dst->contact_hertz = src->contact_hertz; break;
		case P_contact_damping_ratio: dst->contact_damping_ratio = src->contact_damping_ratio; break;
		case P_joint_hertz: dst->joint_hertz = src->joint_hertz; break;
		case P_joint_damping_ratio: dst->joint_damping_ratio = src->joint_damping_ratio; break;
		case P_max_push_speed: dst->max_contact_push_speed = src->max_contact_push_speed; break;
		case P_restitution_threshold: dst->restitution_threshold = src->restitution_threshold; break;
		case P_hit_threshold: dst->hit_event_threshold = src->hit_event_threshold; break;
		case P_max_linear_speed: dst->max_linear_speed = src->max_linear_speed; break;
		case P_time_to_sleep: dst->time_to_sleep = src->time_to_sleep; break;
		case P_warm_starting: dst->enable_warm_starting = src->enable_warm_starting; break;
		case P_position_correction: dst->enable_position_correction = src->enable_position_correction; break;
		case P_sleeping: dst->enable_sleep = src->enable_sleep; break;
		case P_continuous: dst->enable_continuous = src->enable_continuous; break;
		case P_motion: dst->enable_motion = src->enable_motion; break;
		case P_contact_cache: dst->enable_contact_cache = src->enable_contact_cache; break;
		case P_friction_mix: dst->friction_mix = src->friction_mix; break;
		case P_restitution_mix: dst->restitution_mix = src->restitution_mix; break;
		default: break;
	}
}

static void push_setting(lua_State *L, const tb_world_def *d, int s)
{
	switch (s) {
		case P_gravity: tl_push_vec2(L, d->gravity); break;
		case P_substeps: lua_pushinteger(L, d->substeps); break;
		case P_contact_hertz: lua_pushnumber(L, d->contact_hertz); break;
		case P_contact_damping_ratio: lua_pushnumber(L, d->contact_damping_ratio); break;
		case P_joint_hertz: lua_pushnumber(L, d->joint_hertz); break;
		case P_joint_damping_ratio: lua_pushnumber(L, d->joint_damping_ratio); break;
		case P_max_push_speed: lua_pushnumber(L, d->max_contact_push_speed); break;
		case P_restitution_threshold: lua_pushnumber(L, d->restitution_threshold); break;
		case P_hit_threshold: lua_pushnumber(L, d->hit_event_threshold); break;
		case P_max_linear_speed: lua_pushnumber(L, d->max_linear_speed); break;
		case P_time_to_sleep: lua_pushnumber(L, d->time_to_sleep); break;
		case P_warm_starting: lua_pushboolean(L, d->enable_warm_starting); break;
		case P_position_correction: lua_pushboolean(L, d->enable_position_correction); break;
		case P_sleeping: lua_pushboolean(L, d->enable_sleep); break;
		case P_continuous: lua_pushboolean(L, d->enable_continuous); break;
		case P_motion: lua_pushboolean(L, d->enable_motion); break;
		case P_contact_cache: lua_pushboolean(L, d->enable_contact_cache); break;
		case P_friction_mix: lua_pushstring(L, mix_names[d->friction_mix]); break;
		case P_restitution_mix: lua_pushstring(L, mix_names[d->restitution_mix]); break;
		default: lua_pushnil(L); break;
	}
}

/* ---------------- lifetime ---------------- */

static int world_gc(lua_State *L)
{
	tl_world_ud *ud = tl_testudata(L, 1, TL_WORLD);
	/* a to-be-closed World inside a presolve handler: the step is running */
	if (ud != NULL && ud->rec != NULL) tl_check_unlocked(L, ud->rec);
	if (ud != NULL && ud->rec != NULL) tl_world_close(L, ud->rec);
	return 0;
}

/* The limits the host gave tumble_lua_set_world_limits, a userdata in the
 * registry under this key's address: Lua code cannot reach it (without the
 * debug library) and tumble.world has no option for it. */
static const char world_limits_key = 0;

void tumble_lua_set_world_limits(lua_State *L, const tb_world_limits *limits)
{
	if (limits == NULL) {
		lua_pushnil(L);
	} else {
		tb_world_limits *copy = lua_newuserdatauv(L, sizeof *copy, 0);
		*copy = *limits;
	}
	lua_rawsetp(L, LUA_REGISTRYINDEX, &world_limits_key);
}

/* Set when the host said worlds keep no spare snapshot blocks; a key in the
 * registry as the limits' is. */
static const char no_spares_key = 0;

void tumble_lua_keep_snapshot_spares(lua_State *L, bool keep)
{
	lua_pushboolean(L, !keep);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &no_spares_key);
}

bool tl_worlds_keep_spares(lua_State *L)
{
	bool off = lua_rawgetp(L, LUA_REGISTRYINDEX, &no_spares_key) == LUA_TBOOLEAN && lua_toboolean(L, -1);
	lua_pop(L, 1);
	return !off;
}

/* Every world's memory comes from the Lua state's own allocator, so a host
 * that caps its Lua memory caps the engine's too (a finalizer -- the World's,
 * its record's, or at the latest the module's list at lua_close -- destroys
 * the world while the allocator is still valid). */
void tl_world_memory(lua_State *L, tb_world_def *def)
{
	void *ud = NULL;
	def->alloc = lua_getallocf(L, &ud);
	def->alloc_ud = ud;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &world_limits_key) == LUA_TUSERDATA)
		def->limits = *(const tb_world_limits *)lua_touserdata(L, -1);
	lua_pop(L, 1);
}

/* tumble.world{ settings } */
static int tumble_world(lua_State *L)
{
	tb_world_def def = tb_default_world_def();
	if (!lua_isnoneornil(L, 1)) {
		luaL_checktype(L, 1, LUA_TTABLE);
		lua_settop(L, 1);
		int base = tl_option_slots(L, &tl_world_spec);
		tl_read_options(L, 1, &tl_world_spec, 1, 0, TL_ARG(1), base);
		for (int s = 0; s < P_COUNT; ++s) {
			if (tl_has(L, base, s)) read_setting(L, &def, s, base + s, TL_FIELD(1, world_names[s]));
		}
	}
	tl_world_memory(L, &def);
	tl_world_new(L, &def);
	return 1;
}

/* ---------------- properties ---------------- */

static int world_index(lua_State *L)
{
	int p;
	tl_world_ud *ud = tl_index_property(L, &tl_world_spec, sizeof *ud, &p);
	if (ud == NULL) return 1;
	tl_world_record *rec = ud->rec;
	tb_world *w = rec != NULL ? tl_world_of(rec) : NULL;
	if (p == P_valid) {
		lua_pushboolean(L, w != NULL);
		return 1;
	}
	if (w == NULL) return luaL_error(L, "world was destroyed");
	if (world_flags[p] & TL_WRITABLE) {
		tb_world_def d = tb_world_get_def(w);
		push_setting(L, &d, p);
		return 1;
	}
	if (p == P_dispatch_ms) {
		lua_pushnumber(L, rec->last_dispatch_ms);
		return 1;
	}
	tb_counters c = tb_world_get_counters(w);
	switch (p) {
		case P_body_count: lua_pushinteger(L, c.body_count); break;
		case P_awake_body_count: lua_pushinteger(L, c.awake_body_count); break;
		case P_shape_count: lua_pushinteger(L, c.shape_count); break;
		case P_joint_count: lua_pushinteger(L, c.joint_count); break;
		case P_contact_count: lua_pushinteger(L, c.touching_contact_count); break;
		case P_step_count: lua_pushinteger(L, c.step_count); break;
		default: lua_pushnil(L); break;
	}
	return 1;
}

static int world_newindex(lua_State *L)
{
	int p;
	const char *key;
	tl_world_ud *ud = tl_newindex_property(L, &tl_world_spec, sizeof *ud, &p, &key);
	/* the value first (reading a vector may run a finalizer), then the world */
	tb_world_def value = tb_default_world_def();
	read_setting(L, &value, p, 3, TL_PROP_OF("World", key));
	tb_world *w = tl_world_of(ud->rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	tb_world_def d = tb_world_get_def(w);
	copy_setting(&d, &value, p);
	tb_status st = tb_world_set_def(w, &d);
	if (st != TB_OK) return luaL_error(L, "cannot set World.%s (%s)", key, tl_status_for(st, TL_WORLD));
	return 0;
}

static int world_tostring(lua_State *L)
{
	tl_world_ud *ud = tl_check_world_ud(L, 1);
	tb_world *w = ud->rec != NULL ? tl_world_of(ud->rec) : NULL;
	if (w == NULL) {
		lua_pushliteral(L, "World(destroyed)");
	} else {
		tb_counters c = tb_world_get_counters(w);
		lua_pushfstring(L, "World(%d bodies)", c.body_count);
	}
	return 1;
}

/* ---------------- methods ---------------- */

static int world_step(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	if (rec->dispatching) return luaL_error(L, "cannot step the world from inside an event handler");
	if (rec->presolving) return luaL_error(L, "cannot step the world from inside a presolve handler");
	if (rec->restoring) return luaL_error(L, "cannot step the world while world:restore puts its handles back");
	float dt = tl_range(L, 2, TL_ARG(2), 0.0, 1.0, "[0, 1]");
	tb_world *w = tl_world_of(rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	if (tb_world_is_locked(w)) return luaL_error(L, "world is locked");
	lua_settop(L, 1);
	tl_step(L, rec, dt);
	w = tl_world_of(rec);
	uint32_t issues = w != NULL ? tb_world_get_step_issues(w) : 0u;
	/* last: it may run finalizers (the record stays, held by the World at 1) */
	if (rec->gc_pending_kb > 0) tl_report_snapshot_memory(L, rec);
	/* the world stays usable; the script learns what the step left out */
	if (issues & TB_STEP_OUT_OF_MEMORY)
		return luaL_error(L, "out of memory in world:step (some contacts, sensor overlaps or events were left out)");
	if (issues & TB_STEP_CONTACT_LIMIT)
		return luaL_error(L, "too many contacts in world:step (max_contacts limit %d): some touching shapes got none",
		                  (int)rec->limits.max_contacts);
	return 0;
}

static int world_on(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	int ev = tl_enum(L, 2, TL_ARG(2), tl_world_event_names);
	tl_check_function_or_nil(L, 3, TL_ARG(3));
	if (ev == TL_EV_presolve) tl_check_unlocked(L, rec);
	lua_settop(L, 3);
	lua_getiuservalue(L, 1, TL_WUV_HANDLERS);
	lua_pushvalue(L, 3);
	lua_rawseti(L, -2, ev + 1);
	if (ev == TL_EV_presolve) {
		/* the engine asks nothing of a world without one */
		if (tl_world_of(rec) == NULL) return luaL_error(L, "world was destroyed");
		tl_set_presolve(L, rec, !lua_isnil(L, 3));
		return 0;
	}
	if (ev == TL_EV_joint_break) {
		rec->world_handlers = (rec->world_handlers & ~(1u << ev)) | (lua_isnil(L, 3) ? 0u : 1u << ev);
		rec->handlers_version += 1;
		return 0;
	}
	uint32_t mine = (1u << ev) | (1u << TL_TAKES_CONTACT(ev));
	rec->world_handlers = (rec->world_handlers & ~mine) | tl_handler_bits(L, 3, ev);
	rec->handlers_version += 1;
	return 0;
}

/* Iterator over a snapshot of ids: objects destroyed during the loop are skipped. */
typedef struct id_snapshot {
	int count, next;
	tl_type type;
	uint32_t ids[]; /* count pairs: index1, generation */
} id_snapshot;

static int snapshot_next(lua_State *L)
{
	id_snapshot *s = lua_touserdata(L, lua_upvalueindex(1));
	tl_world_record *rec = tl_check_world(L, lua_upvalueindex(2));
	while (s->next < s->count) {
		int i = s->next++;
		tl_push_handle(L, rec, s->type, (int32_t)s->ids[2 * i], s->ids[2 * i + 1], false);
		if (!lua_isnil(L, -1)) return 1;
		lua_pop(L, 1);
	}
	return 0;
}

static int get_ids(tb_world *w, tl_type type, void *ids, int capacity)
{
	return type == TL_BODY ? tb_world_get_bodies(w, ids, capacity) : tb_world_get_joints(w, ids, capacity);
}

static int push_snapshot_iterator(lua_State *L, tl_type type)
{
	tl_world_record *rec = tl_check_world(L, 1);
	int n = get_ids(tl_world_of(rec), type, NULL, 0);
	/* ids are two 32-bit words for either kind; the snapshot is allocated first,
	 * then filled from the world taken again */
	id_snapshot *s = lua_newuserdatauv(L, sizeof *s + (size_t)(n > 0 ? n : 1) * 8, 0);
	tb_world *w = tl_world_of(rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	int got = get_ids(w, type, s->ids, n);
	s->count = got < n ? got : n;
	s->next = 0;
	s->type = type;
	lua_pushvalue(L, 1);
	lua_pushcclosure(L, snapshot_next, 2);
	return 1;
}

static int world_bodies(lua_State *L)
{
	return push_snapshot_iterator(L, TL_BODY);
}

static int world_joints(lua_State *L)
{
	return push_snapshot_iterator(L, TL_JOINT);
}

static int world_destroy_all(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tl_check_unlocked(L, rec);
	tl_forget_all(L, rec);
	tb_world *w = tl_world_of(rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	tb_status st = tb_world_clear(w);
	if (st != TB_OK) return luaL_error(L, "cannot clear the world (%s)", tl_status_for(st, TL_WORLD));
	return 0;
}

static int world_destroy(lua_State *L)
{
	tl_world_ud *ud = tl_check_world_ud(L, 1);
	if (ud->rec != NULL) tl_check_unlocked(L, ud->rec);
	if (ud->rec != NULL) tl_world_close(L, ud->rec);
	return 0;
}

static int world_hash(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	char buf[32];
	snprintf(buf, sizeof buf, "%016" PRIx64, tb_world_hash(tl_world_of(rec)));
	lua_pushstring(L, buf);
	return 1;
}

static void set_number(lua_State *L, const char *name, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, name);
}

static void set_integer(lua_State *L, const char *name, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, name);
}

static int world_profile(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tb_profile p = tb_world_get_profile(tl_world_of(rec));
	double dispatch = rec->last_dispatch_ms;
	lua_createtable(L, 0, 16);
	set_number(L, "step", p.step);
	set_number(L, "pairs", p.pairs);
	set_number(L, "collide", p.collide);
	set_number(L, "solve", p.solve);
	set_number(L, "prepare", p.prepare);
	set_number(L, "integrate", p.integrate);
	set_number(L, "warm_start", p.warm_start);
	set_number(L, "solve_contacts", p.solve_contacts);
	set_number(L, "relax", p.relax);
	set_number(L, "restitution", p.restitution);
	set_number(L, "store", p.store);
	set_number(L, "continuous", p.continuous);
	set_number(L, "sensors", p.sensors);
	set_number(L, "sleep", p.sleep);
	set_number(L, "dispatch", dispatch);
	return 1;
}

static int world_counters(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tb_counters c = tb_world_get_counters(tl_world_of(rec));
	lua_createtable(L, 0, 11);
	set_integer(L, "body_count", c.body_count);
	set_integer(L, "awake_body_count", c.awake_body_count);
	set_integer(L, "shape_count", c.shape_count);
	set_integer(L, "contact_count", c.contact_count);
	set_integer(L, "touching_contact_count", c.touching_contact_count);
	set_integer(L, "joint_count", c.joint_count);
	set_integer(L, "island_count", c.island_count);
	set_integer(L, "tree_height", c.tree_height);
	set_integer(L, "static_tree_height", c.static_tree_height);
	set_integer(L, "step_count", c.step_count);
	set_integer(L, "remade_manifold_count", c.remade_manifold_count);
	return 1;
}

/* world:contacts() -> array of { a = shape, b = shape, contact = Contact } (touching pairs) */
static int world_contacts(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	int n = tb_world_get_contacts(tl_world_of(rec), NULL, 0);
	/* copied out first: pushing may run a finalizer that changes the world */
	tb_contact_data *data = tl_push_buffer(L, sizeof *data, n);
	tb_world *w = tl_world_of(rec);
	if (w == NULL) return luaL_error(L, "world was destroyed");
	int got = tb_world_get_contacts(w, data, n);
	if (got < n) n = got;
	lua_createtable(L, n, 0);
	for (int i = 0; i < n; ++i) {
		lua_createtable(L, 0, 3);
		tl_push_handle(L, rec, TL_SHAPE, data[i].shape_a.index1, data[i].shape_a.generation, true);
		lua_setfield(L, -2, "a");
		tl_push_handle(L, rec, TL_SHAPE, data[i].shape_b.index1, data[i].shape_b.generation, true);
		lua_setfield(L, -2, "b");
		tl_push_manifold_contact(L, &data[i].manifold);
		lua_setfield(L, -2, "contact");
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

static const luaL_Reg world_methods[] = {
	{"step", world_step},
	{"body", tl_world_body},
	{"joint", tl_world_joint},
	{"on", world_on},
	{"bodies", world_bodies},
	{"joints", world_joints},
	{"destroy_all", world_destroy_all},
	{"destroy", world_destroy},
	{"hash", world_hash},
	{"profile", world_profile},
	{"counters", world_counters},
	{"contacts", world_contacts},
	{"raycast", tl_world_raycast},
	{"raycast_all", tl_world_raycast_all},
	{"query_box", tl_world_query_box},
	{"query_point", tl_world_query_point},
	{"overlap", tl_world_overlap},
	{"cast_shape", tl_world_cast_shape},
	{"explode", tl_world_explode},
	{"mover", tl_world_mover},
	{"snapshot", tl_world_snapshot},
	{"restore", tl_world_restore},
	{NULL, NULL},
};

static const luaL_Reg world_meta[] = {
	{"__gc", world_gc},
	{"__close", world_gc},
	{"__tostring", world_tostring},
	{NULL, NULL},
};

const tl_spec tl_world_spec = {
	.type = TL_WORLD,
	.count = P_COUNT,
	.names = world_names,
	.flags = world_flags,
	.options = world_options,
	.methods = world_methods,
	.meta = world_meta,
	.index = world_index,
	.newindex = world_newindex,
};

void tl_open_world(lua_State *L)
{
	tl_new_type(L, &tl_world_spec);
}

/* ---------------- the module ---------------- */

const luaL_Reg tl_module_functions[] = {
	{"world", tumble_world},
	{"collide", tl_collide},
	{"distance", tl_distance},
	{"snapshot", tl_read_snapshot},
	{"_c_reference_scene", tl_c_reference_scene},
	{"_c_default_settings", tl_c_default_settings},
	{"_introspect", tl_introspect},
	{NULL, NULL},
};

int luaopen_tumble(lua_State *L)
{
	/* opening twice (host global + require) must not replace the metatables:
	 * handles of the first opening would stop passing the type checks */
	tl_push_metatable(L, TL_WORLD);
	if (lua_isnil(L, -1)) {
		tl_open_module(L);
		tl_open_world(L);
		tl_open_body(L);
		tl_open_shape(L);
		tl_open_joint(L);
		tl_open_events(L);
		tl_open_snapshot(L);
		tl_open_mover(L);
	}
	lua_pop(L, 1);
	luaL_newlib(L, tl_module_functions);
	lua_pushliteral(L, TUMBLE_VERSION);
	lua_setfield(L, -2, "version");
	return 1;
}

/* ---------------- host interface ---------------- */

tb_world *tumble_lua_check_world(lua_State *L, int idx)
{
	return tl_world_of(tl_check_world(L, idx));
}

static tl_world_record *host_record(lua_State *L, int world_idx)
{
	tl_world_ud *ud = tl_testudata(L, world_idx, TL_WORLD);
	return ud != NULL ? ud->rec : NULL;
}

tb_world *tumble_lua_to_world(lua_State *L, int idx)
{
	tl_world_record *rec = host_record(L, idx);
	return rec != NULL ? tl_world_of(rec) : NULL;
}

void tumble_lua_push_body(lua_State *L, int world_idx, tb_body_id id)
{
	tl_push_handle(L, host_record(L, world_idx), TL_BODY, id.index1, id.generation, false);
}

void tumble_lua_push_shape(lua_State *L, int world_idx, tb_shape_id id)
{
	tl_push_handle(L, host_record(L, world_idx), TL_SHAPE, id.index1, id.generation, false);
}

void tumble_lua_push_joint(lua_State *L, int world_idx, tb_joint_id id)
{
	tl_push_handle(L, host_record(L, world_idx), TL_JOINT, id.index1, id.generation, false);
}

double tumble_lua_last_dispatch_ms(lua_State *L, int world_idx)
{
	tl_world_record *rec = host_record(L, world_idx);
	return rec != NULL ? rec->last_dispatch_ms : 0.0;
}
