/* tumble: the Lua binding's C interface, for the host (src/host) and main.c.
 * The binding knows only the engine's public header; the host knows this one. */
#ifndef TUMBLE_LUA_H
#define TUMBLE_LUA_H

#include <lua.h>
#include "physics.h"

#define TUMBLE_VERSION "0.1.0"

/* Opens the module and leaves the `tumble` table on the stack. The host also
 * stores it as the global `tumble` and adds host-only fields (input, camera, gfx). */
int luaopen_tumble(lua_State *L);

/* The engine world behind the World userdata at idx; raises the usual Lua argument
 * error if idx is not a live World. */
tb_world *tumble_lua_check_world(lua_State *L, int idx);
/* NULL instead of an error. */
tb_world *tumble_lua_to_world(lua_State *L, int idx);

/* Push the (cached, so identity holds) userdata for an engine object of the World at
 * world_idx; pushes nil for a null or stale id. Works for objects created from C
 * (e.g. the host's mouse joint) too. */
void tumble_lua_push_body(lua_State *L, int world_idx, tb_body_id id);
void tumble_lua_push_shape(lua_State *L, int world_idx, tb_shape_id id);
void tumble_lua_push_joint(lua_State *L, int world_idx, tb_joint_id id);

/* The live body behind the Body userdata at idx: true and its world and id, or
 * false (not a Body, destroyed, or its world gone). Never raises. */
bool tumble_lua_to_body(lua_State *L, int idx, tb_world **world, tb_body_id *id);

/* Limits for every world created afterwards in this Lua state by tumble.world
 * (bodies, shapes, joints, contacts, and the bytes of engine memory each world
 * may hold; 0 = none; NULL removes them). Kept in the registry: Lua code
 * cannot change or raise them (without the debug library). Creating past a
 * limit raises a Lua error naming it. Every world also allocates through the
 * state's allocator (lua_getallocf), so a host's cap on Lua memory covers the
 * engine; do not replace the allocator (lua_setallocf) while worlds exist.
 * May raise a memory error, like any Lua API call. */
void tumble_lua_set_world_limits(lua_State *L, const tb_world_limits *limits);
/* Whether worlds created afterwards in this Lua state keep a block ready for
 * their next snapshot from their first step (tb_world_keep_snapshot_spares;
 * true unless said: a script's first checkpoint then costs what the next ones
 * do). A host that caps the state's memory says false: those blocks would
 * come out of the script's memory. May raise a memory error, like any Lua API
 * call. */
void tumble_lua_keep_snapshot_spares(lua_State *L, bool keep);

/* The tumble type of the value at idx: "Body", "Shape", "Joint", "World",
 * "Contact" or "Snapshot"; NULL for any other value (another userdata, a
 * table). Never raises, never runs Lua. */
const char *tumble_lua_typename(lua_State *L, int idx);

/* world:snapshot() and world:restore(snap) for the host (its rewind), as
 * lua_CFunctions: call them protected, with the World (and the Snapshot) as
 * arguments; they behave, and fail, as the methods do. */
int tumble_lua_world_snapshot(lua_State *L);
int tumble_lua_world_restore(lua_State *L);

/* The memory the Snapshot at idx holds, in bytes: the engine's copy and the
 * slots of the handles and values it keeps; 0 if it is not an open Snapshot. */
size_t tumble_lua_snapshot_bytes(lua_State *L, int idx);

/* tumble._introspect() for the host (edit mode's inspector lists the
 * properties of each type from it), as a lua_CFunction: call it protected. */
int tumble_lua_introspect(lua_State *L);

/* Time spent dispatching events to Lua handlers in the last world:step, in ms
 * (for the host's overlay); the step itself is in tb_world_get_profile. */
double tumble_lua_last_dispatch_ms(lua_State *L, int world_idx);

/* Creation sites, for the host's editor. tumble_lua_record_sites(L, level)
 * turns recording on for worlds created afterwards in this state and forgets
 * what was recorded; level is the chunk name of the level's own file
 * ("@examples/forcefield.lua"); NULL turns it off. Off by default: the module
 * on its own records nothing and pays one test per creation. When on, each
 * body, shape and joint made by world:body, body:box/circle/capsule/polygon/
 * segment/chain or world:joint remembers the Lua frame that called it. */
void tumble_lua_record_sites(lua_State *L, const char *level);

typedef struct tumble_lua_site {
	char chunk[256];    /* chunk name of the calling Lua function ("@path", "=name") */
	int line;           /* its line at the call: as th_source_find_call wants it */
	char method[16];    /* "body", "box", "circle", "capsule", "polygon", "segment", "chain", "joint" */
	bool in_level;      /* chunk is the level's own: the call can be rewritten */
	int level_line;     /* !in_level (made by a helper): the line of the nearest frame in
	                       the level's chunk that led to it; 0 if none */
	int count;          /* objects recorded at this chunk and line (a loop makes several) */
} tumble_lua_site;

/* The site of the Body, Shape or Joint userdata at idx: true and *out, or
 * false (not one, destroyed, or made while recording was off). Never raises. */
bool tumble_lua_site_of(lua_State *L, int idx, tumble_lua_site *out);

#endif
