/* tumble: what the binding's source files share (src/lua only; the host sees tumble_lua.h).
 *
 * Lifetimes. Everything a handle points at is Lua-managed memory, so no handle,
 * however it outlives its world (a finalizer that resurrects it, a finalizer run
 * at lua_close), can reach freed memory:
 *   - tl_world_record (a userdata) holds the binding's state of one world. The
 *     World userdata and every Body/Shape/Joint userdata keep it in a user value.
 *   - tl_world_core (a userdata the record keeps) holds what must be freed
 *     explicitly: the engine world and the binding's C buffers. While the world
 *     lives, the module's list (a table in the registry) also holds it, and the
 *     list's finalizer frees whatever is still alive when the state closes. So a
 *     world is freed by world:destroy(), by the World's finalizer, by the record's
 *     finalizer (the World was collected and then every handle), or at lua_close,
 *     whichever comes first; removing any of these finalizers (the debug library
 *     can) leaks nothing past lua_close.
 * Handles have no finalizer at all. A World userdata or handle on the stack keeps
 * its record (and so the core) valid for the whole C call; only core->world can
 * become NULL, whenever Lua runs (Re-entrancy, below).
 *
 * Identity. Each record has one weak-valued cache table per kind (registry refs),
 * keyed by the engine id's index1; an entry whose generation differs is replaced,
 * so a slot reused by a new object never returns the old userdata.
 *
 * Lua values on engine objects (user, on_begin...) live in the userdata's user
 * value slots. A weak cache alone would lose them when the script drops its last
 * reference, so a handle that holds any such value is also anchored in a strong
 * per-kind table hung off the World userdata (a cycle through the World, which the
 * collector can still free); destroying the object drops the anchor and the values.
 *
 * Re-entrancy. Lua can run in the middle of a binding function: a
 * metamethod of an argument (none of ours: option tables, vectors and lists are
 * read raw), a handler, and any allocation (a new string, table or userdata can
 * run a collection step, and so the finalizer of any garbage object). Any of them
 * may destroy the world, a body, a shape. So every entry point first reads its
 * arguments into C values (or pins them on the stack), then takes the engine
 * pointer (tl_*_world, which re-checks the handle), calls the engine, and pushes
 * results last; after anything that may run Lua it takes the pointer again. */
#ifndef TUMBLE_LUA_INTERNAL_H
#define TUMBLE_LUA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lauxlib.h>
#include <lua.h>

#include "tumble/physics.h"
#include "tumble/tumble_lua.h"

/* Coordinates and sizes beyond these are refused: float math on them would
 * overflow into infinities inside the engine (areas, inertias, box perimeters). */
#define TL_MAX_COORD 1.0e6
#define TL_MAX_SIZE 1.0e4
#define TL_MAX_DENSITY 1.0e6

typedef enum tl_type { TL_BODY, TL_SHAPE, TL_JOINT, TL_WORLD, TL_CONTACT, TL_SNAPSHOT, TL_MOVER, TL_TYPE_COUNT } tl_type;
#define TL_KIND_COUNT 3 /* body, shape, joint: the kinds with handles */

/* The events, in their order of delivery within one step. */
#define TL_EVENTS(X) X(begin) X(end) X(hit) X(sensor_enter) X(sensor_exit)
typedef enum tl_event {
#define TL_EV_ENUM(name) TL_EV_##name,
	TL_EVENTS(TL_EV_ENUM)
#undef TL_EV_ENUM
	TL_EV_COUNT
} tl_event;

extern const char *const tl_event_names[TL_EV_COUNT + 1];
/* world:on's events: the shapes' five, then two of the world's own. */
enum { TL_EV_joint_break = TL_EV_COUNT, TL_EV_presolve, TL_WORLD_EV_COUNT };
extern const char *const tl_world_event_names[TL_WORLD_EV_COUNT + 1];
extern const char *const tl_handler_names[TL_EV_COUNT + 1]; /* on_begin ... */
extern const char *const tl_type_names[TL_TYPE_COUNT];

/* ---------------- types: one X-macro per type ----------------
 * Each type lists its names once, in an X-macro of (name, flags, ...): the names
 * of its properties and of its constructor's options. From it come the enum the C
 * code switches on, the name array, the flags and the option masks, and from
 * those (at run time) the property lookup, the option checks, the error messages
 * ("valid options: ...") and tumble._introspect, which the docs spec holds
 * lua/REFERENCE.md and lua/tumble.d.lua against. */

enum {
	TL_PROP = 1,     /* a property: v.name reads it */
	TL_WRITABLE = 2, /* v.name = x assigns it */
	TL_ALWAYS = 4,   /* readable on a destroyed object (valid, id) */
};
#define TL_RO TL_PROP
#define TL_RW (TL_PROP | TL_WRITABLE)

typedef struct tl_spec {
	tl_type type;
	int count;                  /* entries of the X-macro */
	const char *const *names;   /* entry names */
	const uint8_t *flags;       /* TL_PROP, TL_WRITABLE, TL_ALWAYS */
	const uint32_t *options;    /* per entry, the option sets taking it (bit i: option_sets[i]); NULL: none */
	const char *const *option_sets; /* names of the option sets (constructors or kinds); NULL: one, unnamed */
	const luaL_Reg *methods;    /* NULL-terminated */
	const luaL_Reg *meta;       /* metamethods besides __index and __newindex, NULL-terminated */
	lua_CFunction index, newindex;
	const char *const *kinds;   /* the values of its type/kind property, or NULL */
} tl_spec;

extern const tl_spec tl_world_spec, tl_body_spec, tl_shape_spec, tl_joint_spec, tl_contact_spec, tl_field_spec,
	tl_snapshot_spec, tl_mover_spec;
extern const luaL_Reg tl_module_functions[];

/* The per-state lookup of a type's names: the Lua string object of every entry
 * and method name (kept alive by the type's metatable) mapped to its entry
 * number, by address, so __index finds a property without hashing the string
 * or touching a Lua table. Short strings (up to 40 bytes; every name is one)
 * are interned, so a key equal to a name is that very object. Entries count..
 * are the methods. */
#define TL_NAME_SLOTS 128
typedef struct tl_names {
	const tl_spec *spec;
	struct {
		const void *key;
		int entry;
	} slot[TL_NAME_SLOTS];
} tl_names;

static inline unsigned tl_name_slot(const void *key)
{
	return (unsigned)(((uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15u) >> 57); /* 7 bits: 128 slots */
}

/* The entry named by the value at idx, -1 if it names none (or is not a string:
 * lua_topointer gives a string's object, and no other value is one of ours). */
static inline int tl_lookup(lua_State *L, const tl_names *n, int idx)
{
	const void *k = lua_topointer(L, idx);
	if (k == NULL) return -1;
	for (unsigned i = tl_name_slot(k);; i = (i + 1) & (TL_NAME_SLOTS - 1)) {
		if (n->slot[i].key == k) return n->slot[i].entry;
		if (n->slot[i].key == NULL) return -1;
	}
}

/* Every userdata of the binding starts with the names of its type (one per
 * state and type). __index and __newindex, which have the names at hand, check
 * their receiver by its size and that pointer, without a metatable lookup: a
 * value of another type, ours or not, cannot hold it. */
static inline void *tl_self(lua_State *L, const tl_names *names, size_t size)
{
	const tl_names *const *p = lua_touserdata(L, 1);
	if (p == NULL || lua_rawlen(L, 1) != size || *p != names) return NULL;
	return (void *)p;
}

/* The start of every type's __index (receiver at 1, key at 2, the type's names
 * the closure's one upvalue; spec is the type's own, so its count and flags
 * fold into constants). Returns the receiver, checked by tl_self (a value of
 * another type raises "bad argument #1 (<Type> expected)"), with *entry the
 * property the key names; or NULL once the result is on the stack: a method
 * (which checks its own receiver) or nil for a key that names no property.
 * Inline, as tl_lookup and tl_self are: b.x in every frame is the binding's
 * hottest path. */
static inline void *tl_index_property(lua_State *L, const tl_spec *spec, size_t size, int *entry)
{
	const tl_names *names = lua_touserdata(L, lua_upvalueindex(1));
	int p = tl_lookup(L, names, 2);
	if (p >= spec->count) {
		lua_pushcfunction(L, spec->methods[p - spec->count].func);
		return NULL;
	}
	if (p < 0 || !(spec->flags[p] & TL_PROP)) {
		lua_pushnil(L);
		return NULL;
	}
	void *self = tl_self(L, names, size);
	if (self == NULL) luaL_typeerror(L, 1, tl_type_names[spec->type]);
	*entry = p;
	return self;
}

/* Raises the error of a refused __newindex (below): self NULL, or entry p is no
 * writable property. */
_Noreturn void tl_newindex_error(lua_State *L, const tl_spec *spec, const void *self, int p);

/* The start of every type's __newindex: returns the receiver (checked as
 * above), with *entry the writable property named by the key at 2 and *key its
 * name. Raises, naming the type, for a key that names no property ("Body has
 * no property 'k'"), a method ("cannot assign method 'k' of Body") or a
 * read-only property ("cannot assign read-only property 'k' of Body"). */
static inline void *tl_newindex_property(lua_State *L, const tl_spec *spec, size_t size, int *entry,
                                         const char **key)
{
	const tl_names *names = lua_touserdata(L, lua_upvalueindex(1));
	void *self = tl_self(L, names, size);
	int p = tl_lookup(L, names, 2);
	if (self == NULL || p < 0 || p >= spec->count || !(spec->flags[p] & TL_WRITABLE)) {
		tl_newindex_error(L, spec, self, p);
	}
	*entry = p;
	*key = lua_tostring(L, 2);
	return self;
}

/* ---------------- records ---------------- */

typedef struct tl_world_core {
	tb_world *world; /* NULL once destroyed */
	lua_Alloc alloc; /* the state's allocator: the buffers count against its limits */
	void *alloc_ud;
	/* copies of the last step's events: handlers may change the world, which
	 * may reallocate the engine's arrays */
	tb_contact_begin_event *begin;
	int begin_count, begin_capacity;
	tb_contact_end_event *end;
	int end_count, end_capacity;
	tb_contact_hit_event *hit;
	int hit_count, hit_capacity;
	tb_sensor_event *sensor_begin;
	int sensor_begin_count, sensor_begin_capacity;
	tb_sensor_event *sensor_end;
	int sensor_end_count, sensor_end_capacity;
	/* the joints the last step broke: their handles are forgotten after the
	 * joint_break handler saw them */
	tb_joint_break_event *breaks;
	int break_count, break_capacity;
	/* for each shape slot (index1) whose handle is in the World's anchors, its
	 * generation | TL_ANCHORED: the dispatcher takes the handle from the anchors
	 * without reading it (a cache miss per shape in a large batch) */
	uint64_t *shape_anchors;
	int shape_anchors_capacity;
	/* query results: filled from inside engine callbacks, where no Lua may run;
	 * every query bumps the epoch, so one can tell that another ran meanwhile */
	void *scratch;
	size_t scratch_capacity;
	uint32_t scratch_epoch;
} tl_world_core;

#define TL_ANCHORED ((uint64_t)1 << 32)

typedef struct tl_world_record {
	tl_world_core *core;      /* never NULL; core->world is NULL once destroyed */
	const tl_names *names[TL_TYPE_COUNT]; /* of this state, for the userdata made from the record */
	int cache[TL_KIND_COUNT]; /* registry refs of the weak caches ([0] is the record itself) */
	int holder;               /* registry ref of a weak table whose [1] is the World userdata */
	bool dispatching; /* tl_dispatch is delivering the last step's events */
	bool restoring; /* world:restore is putting the handles back (a finalizer may run meanwhile) */
	/* world:step is running a presolve handler (the engine's world is locked):
	 * nothing that changes the world or its handles may run */
	bool presolving;
	bool presolve_failed;   /* the handler raised: its message waits on the stack */
	lua_State *presolve_L;  /* the thread that called world:step */
	uint32_t shape_handler_mask; /* events some shape ever had a handler for */
	/* world:on handlers: bit ev is set, bit TL_TAKES_CONTACT(ev) takes a contact;
	 * the version changes with every world:on (the dispatcher reloads them) */
	uint32_t world_handlers;
	uint32_t handlers_version;
	double last_dispatch_ms;
	tb_world_limits limits; /* the host's, as the world was created with them */
	bool record_sites; /* created while the host records creation sites (lua_sites.c) */
	/* kilobytes of this world's snapshots not yet reported to the collector:
	 * world:step reports them a slice at a time (lua_snapshot.c) */
	size_t gc_pending_kb;
} tl_world_record;

/* Raises unless the world may change now (not inside a presolve handler). */
static inline void tl_check_unlocked(lua_State *L, const tl_world_record *rec)
{
	if (rec->presolving) luaL_error(L, "cannot change the world inside a presolve handler (world:step is running)");
}

/* The live engine world of rec, or NULL. */
static inline tb_world *tl_world_of(const tl_world_record *rec) { return rec->core->world; }

/* World user values: anchors per kind, the world:on handlers (array by event), the record. */
#define TL_WUV_ANCHORS(kind) (1 + (kind))
#define TL_WUV_HANDLERS 4
#define TL_WUV_RECORD 5
#define TL_WORLD_UV_COUNT 5

typedef struct tl_world_ud {
	const tl_names *type;
	tl_world_record *rec; /* set once, never NULL after tumble.world returns */
} tl_world_ud;

/* Body, Shape and Joint userdata; the type is the metatable. */
typedef struct tl_handle {
	const tl_names *type;
	tl_world_record *rec; /* kept alive by user value TL_UV_RECORD */
	int32_t index1;
	uint32_t generation;
	bool anchored; /* in the World's anchors while the object lives */
} tl_handle;

/* A Contact: a copy of one event's contact data. */
typedef struct tl_contact {
	const tl_names *type;
	tb_vec2 normal;
	tb_vec2 points[2];
	float separations[2];
	int point_count;
	float approach_speed;
	bool has_speed;
	bool has_separations;
} tl_contact;

/* Handler bits (a shape's engine user_data, rec->world_handlers): bit ev says a
 * handler is set, bit TL_TAKES_CONTACT(ev) that it can see a contact (it takes
 * three parameters or more, or any): the others are not given one, which no
 * handler can tell. */
#define TL_TAKES_CONTACT(ev) (8 + (ev))
/* The handler bits for a function (or nil) at idx. */
uint32_t tl_handler_bits(lua_State *L, int idx, int ev);

/* Handle user values: the record, the user value, then (shapes) one per event
 * handler. The engine's shape user_data holds a bit per handler that is set, so
 * the dispatcher skips shapes with no handler without entering Lua. */
#define TL_UV_RECORD 1
#define TL_UV_USER 2
#define TL_UV_HANDLER(ev) (3 + (ev))
#define TL_SHAPE_UV_COUNT (3 + TL_EV_COUNT)

/* A Snapshot: the engine's, and the handles alive at its moment with the Lua
 * values they held (user values TL_SUV_HANDLES(kind), TL_SUV_VALUES(kind)), so
 * a restore gives back the same userdata, values and handlers. One read from
 * bytes has neither, and no world. */
typedef struct tl_snapshot_ud {
	const tl_names *type;
	tb_snapshot *snap;           /* NULL once closed */
	tl_world_record *rec;        /* the world it was taken from (user value 1 keeps it); NULL: from bytes */
	int handles[TL_KIND_COUNT];  /* handles alive at the moment, per kind */
	int values[TL_KIND_COUNT];   /* how many of them held Lua values */
} tl_snapshot_ud;

#define TL_SUV_RECORD 1
#define TL_SUV_HANDLES(kind) (2 + (kind))
#define TL_SUV_VALUES(kind) (2 + TL_KIND_COUNT + (kind))
#define TL_SNAPSHOT_UV_COUNT (1 + 2 * TL_KIND_COUNT)

/* Where a bad value came from, for the error message: an argument, a field of a
 * table argument, or a property assignment. */
typedef struct tl_where {
	int arg;
	const char *field;
	const char *type;
	const char *prop;
} tl_where;

#define TL_ARG(n) (&(tl_where){(n), NULL, NULL, NULL})
#define TL_FIELD(n, f) (&(tl_where){(n), (f), NULL, NULL})
#define TL_PROP_OF(t, p) (&(tl_where){0, NULL, (t), (p)})

/* ---- lua_check.c: argument checks ---- */

_Noreturn void tl_bad(lua_State *L, const tl_where *w, const char *fmt, ...);
/* The type name of the value at idx, userdata by their __name (may push it). */
const char *tl_typename(lua_State *L, int idx);
/* Pushes a short text for the value at idx ("nan", "-1", "'abc'", "table"). */
const char *tl_describe(lua_State *L, int idx);
/* A table key as an error names it: 'name', [3], or "key of type boolean" (pushed). */
const char *tl_describe_key(lua_State *L, int idx);
/* "Did you mean": pushes and returns "did you mean a, b or c?" naming up to
 * three of names closest to key (one contains the other, a typo, or a short
 * name that starts as key does), entries from first_method on after the
 * others; "" when none is close or key is NULL. */
const char *tl_suggest(lua_State *L, const char *key, const char *const *names, int count, int first_method);
#define TL_SUGGEST_NAMES 160
/* tl_suggest over a type's entries whose flags include want (and, with
 * kinds_of, whose kinds meet kind_mask), then its methods. */
const char *tl_suggest_member(lua_State *L, const struct tl_spec *spec, const char *key, uint8_t want,
                              uint32_t kind_mask, const uint32_t *kinds_of);
double tl_number(lua_State *L, int idx, const tl_where *w);
float tl_float(lua_State *L, int idx, const tl_where *w);   /* finite as a float */
float tl_coord(lua_State *L, int idx, const tl_where *w);   /* |v| <= TL_MAX_COORD */
float tl_size(lua_State *L, int idx, const tl_where *w);    /* 0 < v <= TL_MAX_SIZE */
float tl_radius(lua_State *L, int idx, const tl_where *w);  /* 0 <= v <= TL_MAX_SIZE */
float tl_nonneg(lua_State *L, int idx, const tl_where *w);  /* finite, >= 0 */
float tl_positive(lua_State *L, int idx, const tl_where *w); /* finite, > 0 */
float tl_range(lua_State *L, int idx, const tl_where *w, double lo, double hi, const char *text);
lua_Integer tl_integer(lua_State *L, int idx, const tl_where *w);
int tl_int_range(lua_State *L, int idx, const tl_where *w, int lo, int hi);
bool tl_bool(lua_State *L, int idx, const tl_where *w);
/* {x, y} or {x = , y = }, read raw. */
tb_vec2 tl_vec2(lua_State *L, int idx, const tl_where *w, bool coord);
int tl_enum(lua_State *L, int idx, const tl_where *w, const char *const names[]);
void tl_check_function_or_nil(lua_State *L, int idx, const tl_where *w);

/* Reads the option table at t in one raw pass (metamethods are not part of the
 * contract: an __index or __pairs is never run). Every key must be an entry of
 * spec in option set `set` (a bit of spec->options) or an array index
 * 1..array_count; an unknown key raises "unknown option 'k'; valid options: ...".
 * The value of entry e goes to stack slot base + e: the caller reserved
 * spec->count slots there (lua_settop), all nil. */
void tl_read_options(lua_State *L, int t, const tl_spec *spec, uint32_t set, int array_count, const tl_where *w,
                     int base);
/* Reserves spec->count nil slots on the stack and returns the first. */
int tl_option_slots(lua_State *L, const tl_spec *spec);
/* Is slot base + e set? */
static inline bool tl_has(lua_State *L, int base, int e) { return lua_type(L, base + e) != LUA_TNIL; }
/* The number of array items t[1..n] (n = #t, raw). */
int tl_array_count(lua_State *L, int t);

void tl_push_vec2(lua_State *L, tb_vec2 v);

/* The binding's sentence for an engine status (stable for the tests). A stale
 * handle is named by its kind: use tl_status_for wherever one can be returned. */
const char *tl_status_text(tb_status s);
const char *tl_status_for(tb_status s, tl_type stale);
/* Raises the error for a failed creation of a body, shape or joint: running out
 * of memory or into a host's limit names what failed ("out of memory creating
 * the body", "too many bodies (max_bodies limit 1000)"); anything else is a
 * bad argument 2 (the options). */
_Noreturn void tl_creation_error(lua_State *L, const tl_world_record *rec, tb_status st, tl_type what);

/* ---- lua_handle.c: metatables, records, handles ---- */

/* Creates the metatable of a type from its spec (Lua's liolib createmeta: the
 * metamethods from a luaL_Reg table, __index and __newindex as closures over
 * the type's tl_names, __name, and a protected __metatable), registers it and
 * the names, and pops it. */
void tl_new_type(lua_State *L, const tl_spec *spec);
/* The registered metatable of a type, pushed. */
void tl_push_metatable(lua_State *L, tl_type type);
/* The names of a type in this state. */
const tl_names *tl_type_names_of(lua_State *L, tl_type type);
/* The userdata at idx if it is of that type (the one type check outside the
 * property paths), else NULL. */
void *tl_testudata(lua_State *L, int idx, tl_type type);
void *tl_checkudata(lua_State *L, int idx, tl_type type);

/* The live world of the World userdata at idx (errors otherwise). */
tl_world_record *tl_check_world(lua_State *L, int idx);
tl_world_ud *tl_check_world_ud(lua_State *L, int idx);
/* Pushes the World userdata of rec (error "world was destroyed" if gone). */
void tl_push_world(lua_State *L, tl_world_record *rec);
/* Destroys the engine world of rec now (world:destroy, finalizers). */
void tl_world_close(lua_State *L, tl_world_record *rec);
/* Creates the World userdata (with its record and core), leaves it on the stack. */
tl_world_record *tl_world_new(lua_State *L, const tb_world_def *def);

/* The handle at idx of that type (a type error otherwise). The object may be dead. */
tl_handle *tl_check_handle(lua_State *L, int idx, tl_type type);
bool tl_handle_valid(const tl_handle *h, tl_type type);
/* Raises "world was destroyed" or "<kind> was destroyed" for a dead handle. */
_Noreturn void tl_dead(lua_State *L, const tl_handle *h, tl_type type);
/* The engine world of a handle whose object lives, else the error above. Called
 * once the arguments are read, and again after anything that can run Lua. */
tb_world *tl_handle_world(lua_State *L, const tl_handle *h, tl_type type);
/* tl_check_handle + tl_handle_world: for the methods, which check early so that a
 * dead receiver is named before a bad argument; they take the world again after. */
tl_handle *tl_check_live(lua_State *L, int idx, tl_type type);
static inline tb_world *tl_body_world(lua_State *L, const tl_handle *h)
{
	tb_world *w = tl_world_of(h->rec);
	if (w == NULL || !tb_body_is_valid(w, (tb_body_id){h->index1, h->generation})) tl_dead(L, h, TL_BODY);
	return w;
}
static inline tb_world *tl_shape_world(lua_State *L, const tl_handle *h)
{
	tb_world *w = tl_world_of(h->rec);
	if (w == NULL || !tb_shape_is_valid(w, (tb_shape_id){h->index1, h->generation})) tl_dead(L, h, TL_SHAPE);
	return w;
}
static inline tb_world *tl_joint_world(lua_State *L, const tl_handle *h)
{
	tb_world *w = tl_world_of(h->rec);
	if (w == NULL || !tb_joint_is_valid(w, (tb_joint_id){h->index1, h->generation})) tl_dead(L, h, TL_JOINT);
	return w;
}
static inline tb_body_id tl_body_id(const tl_handle *h) { return (tb_body_id){h->index1, h->generation}; }
static inline tb_shape_id tl_shape_id(const tl_handle *h) { return (tb_shape_id){h->index1, h->generation}; }
static inline tb_joint_id tl_joint_id(const tl_handle *h) { return (tb_joint_id){h->index1, h->generation}; }

/* Pushes the cached userdata for an id (creating and caching it if needed).
 * stale_ok pushes an uncached handle for a destroyed id instead of nil. rec must
 * be pinned by the caller (a World userdata or handle of it on the stack). */
/* Creation sites (lua_sites.c): whether the host records them now, and the
 * record of a new object made by the running C function (call it only when
 * rec->record_sites; the stack is left as it was). */
bool tl_sites_on(lua_State *L);
void tl_record_site(lua_State *L, tl_world_record *rec, tl_type kind, int32_t index1, uint32_t generation);

void tl_push_handle(lua_State *L, tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation,
                    bool stale_ok);
/* __eq of Body, Shape and Joint. */
int tl_handle_eq(lua_State *L);
/* Keeps the handle at idx alive while its engine object lives (it holds user
 * values); does nothing when the object has died meanwhile. */
void tl_anchor(lua_State *L, int idx, tl_type type);
/* The object is gone: drop the cached handle's user values and anchor. */
void tl_forget(lua_State *L, tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation);
/* world:destroy_all(): every handle's values and anchors. */
void tl_forget_all(lua_State *L, tl_world_record *rec);

/* A Lua-owned buffer of n elements, pushed (garbage once popped): what a function
 * copies engine results into before it pushes anything, so that a finalizer
 * running a query in between cannot overwrite them. */
void *tl_push_buffer(lua_State *L, size_t elem_size, int n);

/* Grows a core buffer to hold at least needed elements (doubling, so steady-state
 * steps do not allocate); raises a Lua memory error on failure. */
void *tl_grow(lua_State *L, tl_world_core *core, void *ptr, size_t elem_size, int *capacity, int needed);
#define TL_RESERVE(L, core, ptr, cap, needed)                                                              \
	do {                                                                                                   \
		if ((needed) > (cap)) (ptr) = tl_grow((L), (core), (ptr), sizeof(*(ptr)), &(cap), (needed));      \
	} while (0)

/* Opens the module's list of live cores (once per state). */
void tl_open_module(lua_State *L);

/* ---- per-type openers ---- */
void tl_open_world(lua_State *L);
void tl_open_body(lua_State *L);
void tl_open_shape(lua_State *L);
void tl_open_joint(lua_State *L);
void tl_open_events(lua_State *L);
void tl_open_snapshot(lua_State *L);
void tl_open_mover(lua_State *L);
int tl_world_mover(lua_State *L); /* world:mover{...} */

/* ---- lua_world.c ---- */
/* The memory and limits every world (and snapshot read from bytes) gets: the
 * state's allocator, the host's limits. */
void tl_world_memory(lua_State *L, tb_world_def *def);

/* ---- lua_snapshot.c ---- */
int tl_world_snapshot(lua_State *L); /* world:snapshot() */
int tl_world_restore(lua_State *L);  /* world:restore(snap) */
int tl_read_snapshot(lua_State *L);  /* tumble.snapshot(bytes) */
/* Whether new worlds of this state keep spare snapshot blocks (the host's
 * tumble_lua_keep_snapshot_spares). Allocates nothing. */
bool tl_worlds_keep_spares(lua_State *L);
/* After world:step: a slice of the snapshots' memory not yet reported to the
 * collector, as a collector step. May run finalizers: callers do it last. */
void tl_report_snapshot_memory(lua_State *L, tl_world_record *rec);

/* ---- lua_body.c ---- */
int tl_world_body(lua_State *L); /* world:body{...} */
/* Drops the Lua side of the body, its shapes and its joints, then the body. */
void tl_destroy_body(lua_State *L, tl_world_record *rec, tb_body_id id);
extern const char *const tl_body_type_names[];

/* ---- lua_shape.c ---- */
extern const char *const tl_shape_kind_names[TB_SHAPE_TYPE_COUNT + 1];
extern const char *const tl_field_kind_names[];
extern const char *const tl_falloff_names[];
int tl_body_circle(lua_State *L);
int tl_body_box(lua_State *L);
int tl_body_polygon(lua_State *L);
int tl_body_capsule(lua_State *L);
int tl_body_segment(lua_State *L);
int tl_body_chain(lua_State *L);

/* ---- lua_joint.c ---- */
extern const char *const tl_joint_kind_names[TB_JOINT_TYPE_COUNT + 1];
int tl_world_joint(lua_State *L); /* world:joint{...} */

/* ---- lua_events.c ---- */
/* Copies the step's events and delivers them (world userdata at index 1). */
void tl_dispatch(lua_State *L, tl_world_record *rec);
/* world:step: the step (with the presolve handler, if any, called from inside
 * it), then tl_dispatch; re-raises a handler's error once the world is whole. */
void tl_step(lua_State *L, tl_world_record *rec, float dt);
/* world:on("presolve", fn): installs or removes the engine hook. */
void tl_set_presolve(lua_State *L, tl_world_record *rec, bool on);
int tl_distance(lua_State *L); /* tumble.distance */
int tl_collide(lua_State *L); /* tumble.collide */
void tl_push_manifold_contact(lua_State *L, const tb_manifold *m);

/* ---- lua_query.c ---- */
int tl_world_raycast(lua_State *L);
int tl_world_raycast_all(lua_State *L);
int tl_world_query_box(lua_State *L);
int tl_world_query_point(lua_State *L);
int tl_world_overlap(lua_State *L);
int tl_world_cast_shape(lua_State *L);
int tl_world_explode(lua_State *L);

/* ---- lua_selftest.c ---- */
int tl_c_reference_scene(lua_State *L);
int tl_c_default_settings(lua_State *L);

/* ---- lua_introspect.c ---- */
/* tumble._introspect: a test hook (tests/lua/docs_spec.lua) reporting the specs. */
int tl_introspect(lua_State *L);

/* ---- X-macro expansions shared by the types: X(name, flags, ...) ---- */
#define TL_X_NAME(name, ...) #name,
#define TL_X_FLAGS(name, flags, ...) (flags),

#endif
