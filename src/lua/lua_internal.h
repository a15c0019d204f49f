/* tumble: what the binding's source files share (src/lua only; the host sees tumble_lua.h).
 *
 * Lifetimes. A World userdata points at a heap record (tl_world_record) that also every
 * Body/Shape/Joint userdata points at, with a reference count: the record outlives
 * the World userdata, so a handle whose world was collected finds record->world
 * NULL and raises "world was destroyed" instead of touching freed memory. Handles
 * never keep the World alive (nothing in them refers to it strongly).
 *
 * Identity. Each record has one weak-valued cache table per kind (registry refs),
 * keyed by the engine id's index1; an entry whose generation differs is replaced,
 * so a slot reused by a new object never returns the old userdata.
 *
 * Lua values on engine objects (user, on_begin...) live in the userdata's user
 * value slots. A weak cache alone would lose them when the script drops its last
 * reference, so a handle that holds any such value is also anchored in a strong
 * per-kind table hung off the World userdata (a cycle through the World, which the
 * collector can still free); destroying the object drops the anchor and the values. */
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

typedef enum tl_type { TL_BODY, TL_SHAPE, TL_JOINT, TL_WORLD, TL_CONTACT, TL_TYPE_COUNT } tl_type;
#define TL_KIND_COUNT 3 /* body, shape, joint: the kinds with handles */

/* The order is the order of delivery within one step. */
typedef enum tl_event {
	TL_EV_BEGIN,
	TL_EV_END,
	TL_EV_HIT,
	TL_EV_SENSOR_ENTER,
	TL_EV_SENSOR_EXIT,
	TL_EV_COUNT
} tl_event;

extern const char *const tl_event_names[TL_EV_COUNT + 1];
extern const char *const tl_handler_names[TL_EV_COUNT + 1]; /* on_begin ... */
extern const char *const tl_type_names[TL_TYPE_COUNT];
/* Addresses used as registry keys of the metatables. */
extern char tl_mt_key[TL_TYPE_COUNT];

/* Shape user value slots: the user value, then one per event handler. The engine's
 * shape user_data holds a bit per handler that is set, so the dispatcher skips
 * shapes with no handler without entering Lua. */
#define TL_UV_USER 1
#define TL_UV_HANDLER(ev) (2 + (ev))
#define TL_SHAPE_UV_COUNT (2 + TL_EV_COUNT)
/* World user values: anchors per kind, the world:on handlers (array by event). */
#define TL_WUV_ANCHORS(kind) (1 + (kind))
#define TL_WUV_HANDLERS 4
#define TL_WORLD_UV_COUNT 4

typedef struct tl_world_record {
	tb_world *world; /* NULL once destroyed */
	int refs;        /* the World userdata and every handle */
	int cache[TL_KIND_COUNT]; /* registry refs of the weak caches */
	int holder;      /* registry ref of a weak table whose [1] is the World userdata */
	bool dispatching;
	uint32_t shape_handler_mask; /* events some shape ever had a handler for */
	double last_dispatch_ms;

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

	/* query results, reused between calls */
	void *scratch;
	size_t scratch_capacity;
} tl_world_record;

typedef struct tl_world_ud {
	tl_world_record *rec;
} tl_world_ud;

/* Body, Shape and Joint userdata; the type is the metatable. */
typedef struct tl_handle {
	tl_world_record *rec;
	int32_t index1;
	uint32_t generation;
} tl_handle;

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
#define TL_PROP(t, p) (&(tl_where){0, NULL, (t), (p)})

/* ---- lua_util.c ---- */

/* Grows a heap array to hold at least needed elements (doubling, so steady-state
 * steps do not allocate); raises a Lua memory error on failure. */
void *tl_grow(lua_State *L, void *ptr, size_t elem_size, int *capacity, int needed);
#define TL_RESERVE(L, ptr, cap, needed)                                                                     \
	do {                                                                                                    \
		if ((needed) > (cap)) (ptr) = tl_grow((L), (ptr), sizeof(*(ptr)), &(cap), (needed));               \
	} while (0)
/* The record's reusable scratch buffer of at least bytes. */
void *tl_scratch(lua_State *L, tl_world_record *rec, size_t bytes);

_Noreturn void tl_bad(lua_State *L, const tl_where *w, const char *fmt, ...);
/* The type name of the value at idx, userdata by their __name (may push it). */
const char *tl_typename(lua_State *L, int idx);
/* Pushes a short text for the value at idx ("nan", "-1", "'abc'", "table"). */
const char *tl_describe(lua_State *L, int idx);
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
tb_vec2 tl_vec2(lua_State *L, int idx, const tl_where *w, bool coord);
int tl_enum(lua_State *L, int idx, const tl_where *w, const char *const names[]);
void tl_check_function_or_nil(lua_State *L, int idx, const tl_where *w);

/* Table arguments: every key must be one of names (NULL-terminated) or an array
 * index 1..array_count. The _at form reports through w (nested tables, properties). */
void tl_check_options(lua_State *L, int t, const char *const names[], int array_count);
void tl_check_options_at(lua_State *L, int t, const char *const names[], int array_count, const tl_where *w);
/* The binding's sentence for an engine status (stable for the tests). */
const char *tl_status_text(tb_status s);
/* Pushes t[name] and returns true when it is not nil (nothing pushed otherwise). */
bool tl_opt(lua_State *L, int t, const char *name);
/* The number of array items t[1..n] (n = #t, raw). */
int tl_array_count(lua_State *L, int t);
bool tl_has_named(lua_State *L, int t, const char *const names[]);

void tl_push_vec2(lua_State *L, tb_vec2 v);
void tl_push_number(lua_State *L, float v);

/* Metatables: creates the metatable for a type (registered under tl_mt_key[type],
 * __name = type name), leaves it on the stack. */
void tl_new_metatable(lua_State *L, tl_type type);
/* Builds the __index/__newindex pair of a handle type: props (NULL-terminated
 * names, value i+1) and methods share one lookup table. Leaves nothing. */
void tl_set_accessors(lua_State *L, int mt, const char *const props[], const luaL_Reg methods[],
                      lua_CFunction index, lua_CFunction newindex);

/* ---- records and handles ---- */

tl_world_record *tl_record_new(lua_State *L);
/* Creates the record's weak tables (once the World userdata owns the record). */
void tl_record_open(lua_State *L, tl_world_record *rec);
void tl_record_release(tl_world_record *rec);
/* The live world of the World userdata at idx (errors otherwise). */
tl_world_record *tl_check_world(lua_State *L, int idx);
tl_world_ud *tl_check_world_ud(lua_State *L, int idx);
/* Pushes the World userdata of rec (error "world was destroyed" if gone). */
void tl_push_world(lua_State *L, tl_world_record *rec);

tl_handle *tl_check_handle(lua_State *L, int idx, tl_type type);
tl_handle *tl_to_handle(lua_State *L, int idx, tl_type type); /* NULL if not that type */
/* Errors unless the handle's world is alive and the object valid. */
tb_world *tl_live(lua_State *L, const tl_handle *h, tl_type type);
bool tl_handle_valid(const tl_handle *h, tl_type type);
/* Raises "world was destroyed" or "<kind> was destroyed" for a dead handle. */
_Noreturn void tl_dead(lua_State *L, const tl_handle *h, tl_type type);
/* tl_live for the hot property paths: inline, one engine call. */
static inline tb_world *tl_live_body(lua_State *L, const tl_handle *h)
{
	tl_world_record *rec = h->rec;
	if (rec == NULL || rec->world == NULL || !tb_body_is_valid(rec->world, (tb_body_id){h->index1, h->generation})) {
		tl_dead(L, h, TL_BODY);
	}
	return rec->world;
}
static inline tb_world *tl_live_shape(lua_State *L, const tl_handle *h)
{
	tl_world_record *rec = h->rec;
	if (rec == NULL || rec->world == NULL || !tb_shape_is_valid(rec->world, (tb_shape_id){h->index1, h->generation})) {
		tl_dead(L, h, TL_SHAPE);
	}
	return rec->world;
}
tb_world *tl_check_body(lua_State *L, int idx, tb_body_id *id, tl_handle **out);
tb_world *tl_check_shape(lua_State *L, int idx, tb_shape_id *id, tl_handle **out);
tb_world *tl_check_joint(lua_State *L, int idx, tb_joint_id *id, tl_handle **out);
static inline tb_body_id tl_body_id(const tl_handle *h) { return (tb_body_id){h->index1, h->generation}; }
static inline tb_shape_id tl_shape_id(const tl_handle *h) { return (tb_shape_id){h->index1, h->generation}; }
static inline tb_joint_id tl_joint_id(const tl_handle *h) { return (tb_joint_id){h->index1, h->generation}; }

/* Pushes the cached userdata for an id (creating and caching it if needed).
 * stale_ok pushes an uncached handle for a destroyed id instead of nil. */
void tl_push_handle(lua_State *L, tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation, bool stale_ok);
/* __eq of Body, Shape and Joint. */
int tl_handle_eq(lua_State *L);
/* Keeps the handle at idx alive while its engine object lives (it holds user values). */
void tl_anchor(lua_State *L, int idx, tl_type type);
/* The object is gone: drop the cached handle's user values and anchor. */
void tl_forget(lua_State *L, tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation);
/* world:destroy_all(): every handle's values and anchors. */
void tl_forget_all(lua_State *L, tl_world_record *rec);

/* ---- per-type openers (each sets up its metatable) ---- */
void tl_open_world(lua_State *L);
void tl_open_body(lua_State *L);
void tl_open_shape(lua_State *L);
void tl_open_joint(lua_State *L);
void tl_open_events(lua_State *L);

/* ---- lua_body.c ---- */
int tl_world_body(lua_State *L); /* world:body{...} */
void tl_destroy_body(lua_State *L, tl_world_record *rec, tb_body_id id);

/* ---- lua_shape.c ---- */
extern const char *const tl_shape_kind_names[TB_SHAPE_TYPE_COUNT + 1];
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
int tl_collide(lua_State *L); /* tumble.collide */
void tl_push_manifold_contact(lua_State *L, const tb_manifold *m);

/* ---- lua_query.c ---- */
int tl_world_raycast(lua_State *L);
int tl_world_raycast_all(lua_State *L);
int tl_world_query_box(lua_State *L);
int tl_world_query_point(lua_State *L);
int tl_world_overlap(lua_State *L);

/* ---- lua_selftest.c ---- */
int tl_c_reference_scene(lua_State *L);
int tl_c_default_settings(lua_State *L);

/* ---- lua_introspect.c ---- */
/* What a type dispatches on, exported so that tumble._introspect (a test hook:
 * tests/lua/docs_spec.lua checks the documentation against it) reports the very
 * arrays given to tl_set_accessors rather than a copy that could drift. */
typedef struct tl_type_info {
	const char *const *props;   /* NULL-terminated */
	int read_only;              /* props[read_only] and after cannot be assigned */
	const luaL_Reg *methods;    /* NULL: none */
	const char *const *options; /* the constructor's options, NULL when they depend on a kind */
	const char *const *kinds;   /* the values of its type/kind property, or NULL */
} tl_type_info;
extern const tl_type_info tl_world_info, tl_body_info, tl_shape_info, tl_joint_info, tl_contact_info;
extern const luaL_Reg *const tl_module_functions;
extern const char *const *const tl_field_kinds; /* s.field.kind */
extern const char *const *const tl_falloffs;    /* s.field.falloff */
int tl_introspect(lua_State *L);

#endif
