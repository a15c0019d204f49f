/* tumble host: the fingerprint of what load() builds from (fingerprint.h). */
#include "fingerprint.h"
#include "level.h"

#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>

#define MAX_VALUES 200000
#define MAX_DEPTH 100

typedef struct walk {
	lua_State *L;
	uint64_t hash;
	int seen;   /* stack index: value -> visit number */
	int env;
	int host;
	int names;  /* stack index: set of the string constants of the functions walked */
	bool all_names; /* a dump could not be read: every global of the env counts */
	int visits;
	int depth;
	bool ok;
} walk;

static void mix(walk *w, const void *data, size_t size)
{
	const unsigned char *p = data;
	uint64_t h = w->hash;
	for (size_t i = 0; i < size; ++i) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	w->hash = h;
}

static void mix_tag(walk *w, char tag)
{
	mix(w, &tag, 1);
}

static void mix_string(walk *w, const char *s, size_t len)
{
	uint64_t n = len;
	mix(w, &n, sizeof(n));
	mix(w, s, len);
}

/* ---------------- a function's dump ---------------- */

typedef struct bytes {
	unsigned char *data;
	size_t size, capacity;
} bytes;

static int dump_writer(lua_State *L, const void *p, size_t size, void *ud)
{
	(void)L;
	bytes *b = ud;
	if (b->size + size > b->capacity) {
		size_t capacity = b->capacity != 0 ? b->capacity : 1024;
		while (capacity < b->size + size) capacity *= 2;
		unsigned char *grown = realloc(b->data, capacity);
		if (grown == NULL) return 1;
		b->data = grown;
		b->capacity = capacity;
	}
	memcpy(b->data + b->size, p, size);
	b->size += size;
	return 0;
}

/* Reads Lua 5.4's dump format (ldump.c) just far enough to find every
 * string constant of a function and its nested functions: the names of the
 * globals they use are among them. */
typedef struct reader {
	const unsigned char *p, *end;
	bool ok;
} reader;

static size_t read_size(reader *r)
{
	size_t x = 0;
	for (int i = 0; i < 10; ++i) {
		if (r->p >= r->end) break;
		unsigned char b = *r->p++;
		x = (x << 7) | (b & 0x7f);
		if (b & 0x80) return x;
	}
	r->ok = false;
	return 0;
}

static void skip(reader *r, size_t n)
{
	if (!r->ok || (size_t)(r->end - r->p) < n) {
		r->ok = false;
		return;
	}
	r->p += n;
}

/* A string: its bytes (not terminated) and length; NULL for none. */
static const char *read_string(reader *r, size_t *len)
{
	size_t n = read_size(r);
	*len = 0;
	if (!r->ok || n == 0) return NULL;
	const char *s = (const char *)r->p;
	skip(r, n - 1);
	*len = n - 1;
	return r->ok ? s : NULL;
}

/* Hashes the bytes from `from` to where the reader is. */
static void mix_from(walk *w, const reader *r, const unsigned char *from)
{
	if (r->ok) mix(w, from, (size_t)(r->p - from));
}

static void read_function(walk *w, reader *r, int depth)
{
	size_t len;
	if (depth > MAX_DEPTH) r->ok = false;
	/* the source's name and the lines it spans are not code: a comment or a
	 * blank line above a function must not make it look changed */
	read_string(r, &len); /* source */
	read_size(r);         /* linedefined */
	read_size(r);         /* lastlinedefined */
	const unsigned char *from = r->p;
	skip(r, 3);           /* numparams, is_vararg, maxstacksize */
	skip(r, read_size(r) * 4); /* code */
	size_t constants = read_size(r);
	for (size_t i = 0; i < constants && r->ok; ++i) {
		if (r->p >= r->end) {
			r->ok = false;
			break;
		}
		int tag = *r->p++;
		if (tag == 3 || tag == 19) {
			skip(r, 8); /* integer, float */
		} else if (tag == 4 || tag == 20) {
			const char *s = read_string(r, &len); /* short, long string */
			if (s != NULL) {
				lua_pushlstring(w->L, s, len);
				lua_pushboolean(w->L, 1);
				lua_rawset(w->L, w->names);
			}
		} else if (tag != 0 && tag != 1 && tag != 17) {
			r->ok = false; /* not nil, false or true: a format this does not know */
		}
	}
	skip(r, read_size(r) * 3); /* upvalues */
	size_t protos = read_size(r);
	mix_from(w, r, from);
	for (size_t i = 0; i < protos && r->ok; ++i) read_function(w, r, depth + 1);
	from = r->p;
	skip(r, read_size(r)); /* line info */
	size_t n = read_size(r); /* absolute line info */
	for (size_t i = 0; i < n && r->ok; ++i) {
		read_size(r);
		read_size(r);
	}
	n = read_size(r); /* local variables */
	for (size_t i = 0; i < n && r->ok; ++i) {
		read_string(r, &len);
		read_size(r);
		read_size(r);
	}
	n = read_size(r); /* upvalue names */
	for (size_t i = 0; i < n && r->ok; ++i) read_string(r, &len);
	mix_from(w, r, from);
}

/* Hashes a function's dump but for its source name and line numbers, and
 * collects its string constants; the whole dump if it cannot be read. */
static void read_dump(walk *w, const bytes *b)
{
	/* signature, version 5.4, format 0, data, sizes, then a test integer and float */
	static const unsigned char header[] = {0x1b, 'L', 'u', 'a', 0x54, 0, 0x19, 0x93, '\r', '\n', 0x1a, '\n'};
	reader r = {b->data, b->data + b->size, true};
	uint64_t before = w->hash;
	if (b->size >= sizeof(header) + 3 + 16 + 1 && memcmp(b->data, header, sizeof(header)) == 0) {
		r.p += sizeof(header) + 3 + 16 + 1; /* ... and the main function's upvalue count */
		read_function(w, &r, 0);
		if (r.ok && r.p == r.end) return;
	}
	w->hash = before;
	mix(w, b->data, b->size);
	w->all_names = true;
}

static void walk_value(walk *w, int idx);

/* Tables and functions are walked once; a second meeting hashes the number
 * of the first, so shared and cyclic structure is part of the hash too. */
static bool first_visit(walk *w, int idx)
{
	lua_State *L = w->L;
	lua_pushvalue(L, idx);
	if (lua_rawget(L, w->seen) == LUA_TNUMBER) {
		lua_Integer n = lua_tointeger(L, -1);
		lua_pop(L, 1);
		mix_tag(w, 'r');
		mix(w, &n, sizeof(n));
		return false;
	}
	lua_pop(L, 1);
	lua_pushvalue(L, idx);
	lua_pushinteger(L, ++w->visits);
	lua_rawset(L, w->seen);
	return true;
}

typedef struct key {
	int type; /* LUA_TBOOLEAN, LUA_TNUMBER, LUA_TSTRING */
	bool integer;
	lua_Integer i;
	lua_Number n;
	const char *s;
	size_t len;
	int boolean;
} key;

static int key_compare(const void *pa, const void *pb)
{
	const key *a = pa, *b = pb;
	if (a->type != b->type) return a->type < b->type ? -1 : 1;
	switch (a->type) {
	case LUA_TBOOLEAN: return a->boolean - b->boolean;
	case LUA_TNUMBER: {
		if (a->integer != b->integer) return a->integer ? -1 : 1;
		if (a->integer) return a->i < b->i ? -1 : a->i > b->i;
		return a->n < b->n ? -1 : a->n > b->n;
	}
	default: {
		size_t n = a->len < b->len ? a->len : b->len;
		int c = memcmp(a->s, b->s, n);
		if (c != 0) return c;
		return a->len < b->len ? -1 : a->len > b->len;
	}
	}
}

static void push_key(lua_State *L, const key *k)
{
	switch (k->type) {
	case LUA_TBOOLEAN: lua_pushboolean(L, k->boolean); break;
	case LUA_TNUMBER:
		if (k->integer) {
			lua_pushinteger(L, k->i);
		} else {
			lua_pushnumber(L, k->n);
		}
		break;
	default: lua_pushlstring(L, k->s, k->len); break;
	}
}

/* A field the fingerprint leaves out: the level's per-frame callbacks, and
 * the env's _G (which points back at the globals). */
static bool skipped(const key *k, bool env)
{
	if (k->type != LUA_TSTRING || strlen(k->s) != k->len) return false;
	if (env && strcmp(k->s, "_G") == 0) return true;
	return strcmp(k->s, "load") != 0 && th_level_is_callback(k->s);
}

/* Fields in a fixed order (scalar keys sorted); other keys count by type. */
static void walk_table(walk *w, int t)
{
	lua_State *L = w->L;
	bool env = w->env != 0 && lua_rawequal(L, t, w->env);
	int n = 0, capacity = 0, others = 0;
	key *keys = NULL;
	lua_pushnil(L);
	while (lua_next(L, t) != 0) {
		lua_pop(L, 1);
		int type = lua_type(L, -1);
		if (type != LUA_TBOOLEAN && type != LUA_TNUMBER && type != LUA_TSTRING) {
			others += 1;
			continue;
		}
		if (n == capacity) {
			capacity = capacity != 0 ? 2 * capacity : 16;
			key *grown = n + 1 <= MAX_VALUES ? realloc(keys, (size_t)capacity * sizeof(key)) : NULL;
			if (grown == NULL) {
				lua_pop(L, 1);
				free(keys);
				w->ok = false;
				return;
			}
			keys = grown;
		}
		key *k = &keys[n++];
		memset(k, 0, sizeof(*k));
		k->type = type;
		if (type == LUA_TBOOLEAN) {
			k->boolean = lua_toboolean(L, -1);
		} else if (type == LUA_TNUMBER) {
			k->integer = lua_isinteger(L, -1);
			if (k->integer) {
				k->i = lua_tointeger(L, -1);
			} else {
				k->n = lua_tonumber(L, -1);
			}
		} else {
			/* the key stays in the table, so the string stays alive */
			k->s = lua_tolstring(L, -1, &k->len);
		}
	}
	if (n > 0) qsort(keys, (size_t)n, sizeof(key), key_compare);
	mix_tag(w, 't');
	for (int i = 0; i < n && w->ok; ++i) {
		if (skipped(&keys[i], env)) continue;
		push_key(L, &keys[i]);
		walk_value(w, lua_gettop(L));
		lua_rawget(L, t);
		walk_value(w, lua_gettop(L));
		lua_pop(L, 1);
	}
	mix(w, &others, sizeof(others));
	free(keys);
}

static void walk_function(walk *w, int f)
{
	lua_State *L = w->L;
	if (lua_iscfunction(L, f)) {
		lua_CFunction fn = lua_tocfunction(L, f);
		mix_tag(w, 'C');
		mix(w, &fn, sizeof(fn));
	} else {
		mix_tag(w, 'F');
		bytes b = {NULL, 0, 0};
		lua_pushvalue(L, f);
		int failed = lua_dump(L, dump_writer, &b, 1);
		lua_pop(L, 1);
		if (failed != 0) {
			w->ok = false;
		} else {
			read_dump(w, &b);
		}
		free(b.data);
	}
	for (int i = 1; w->ok; ++i) {
		const char *name = lua_getupvalue(L, f, i);
		if (name == NULL) break;
		mix_string(w, name, strlen(name));
		walk_value(w, lua_gettop(L));
		lua_pop(L, 1);
	}
}

static void walk_value(walk *w, int idx)
{
	lua_State *L = w->L;
	if (!w->ok) return;
	if (++w->visits > MAX_VALUES || w->depth >= MAX_DEPTH || !lua_checkstack(L, 8)) {
		w->ok = false;
		return;
	}
	int type = lua_type(L, idx);
	mix(w, &type, sizeof(type));
	switch (type) {
	case LUA_TBOOLEAN: {
		int b = lua_toboolean(L, idx);
		mix(w, &b, sizeof(b));
		break;
	}
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx)) {
			lua_Integer i = lua_tointeger(L, idx);
			mix_tag(w, 'i');
			mix(w, &i, sizeof(i));
		} else {
			lua_Number n = lua_tonumber(L, idx);
			mix_tag(w, 'n');
			mix(w, &n, sizeof(n));
		}
		break;
	case LUA_TSTRING: {
		size_t len = 0;
		const char *s = lua_tolstring(L, idx, &len);
		mix_string(w, s, len);
		break;
	}
	case LUA_TTABLE:
		if (w->env != 0 && lua_rawequal(L, idx, w->env)) {
			/* the level's globals: the ones the code uses are walked at the end */
			mix_tag(w, 'E');
			break;
		}
		lua_pushvalue(L, idx);
		if (lua_rawget(L, w->host) != LUA_TNIL) {
			/* the host's own tables hold run-time state (the camera): not code */
			lua_pop(L, 1);
			mix_tag(w, 'H');
			break;
		}
		lua_pop(L, 1);
		if (!first_visit(w, idx)) break;
		w->depth += 1;
		walk_table(w, idx);
		w->depth -= 1;
		break;
	case LUA_TFUNCTION:
		if (!first_visit(w, idx)) break;
		w->depth += 1;
		walk_function(w, idx);
		w->depth -= 1;
		break;
	default: break; /* nil, userdata, threads: their type is all that counts */
	}
}

/* The globals the level's files defined that the walked code names, in
 * sorted rounds until walking them names no new one. */
static void walk_globals(walk *w)
{
	lua_State *L = w->L;
	if (w->env == 0) return;
	if (w->all_names) {
		walk_table(w, w->env);
		return;
	}
	lua_newtable(L);
	int done = lua_gettop(L);
	while (w->ok) {
		/* the names not walked yet that are globals of the env */
		lua_newtable(L);
		int round = lua_gettop(L);
		lua_Integer n = 0;
		lua_pushnil(L);
		while (lua_next(L, w->names) != 0) {
			lua_pop(L, 1);
			if (lua_type(L, -1) != LUA_TSTRING || strcmp(lua_tostring(L, -1), "_G") == 0) continue;
			lua_pushvalue(L, -1);
			if (lua_rawget(L, done) != LUA_TNIL) {
				lua_pop(L, 1);
				continue;
			}
			lua_pop(L, 1);
			lua_pushvalue(L, -1);
			if (lua_rawget(L, w->env) == LUA_TNIL) {
				lua_pop(L, 1);
				continue;
			}
			lua_pop(L, 1);
			lua_pushvalue(L, -1);
			lua_rawseti(L, round, ++n);
		}
		if (n == 0) {
			lua_pop(L, 1);
			break;
		}
		key *keys = malloc((size_t)n * sizeof(key));
		if (keys == NULL) {
			w->ok = false;
			lua_pop(L, 1);
			break;
		}
		for (lua_Integer i = 1; i <= n; ++i) {
			lua_rawgeti(L, round, i);
			memset(&keys[i - 1], 0, sizeof(key));
			keys[i - 1].type = LUA_TSTRING;
			keys[i - 1].s = lua_tolstring(L, -1, &keys[i - 1].len); /* anchored in round */
			lua_pop(L, 1);
		}
		qsort(keys, (size_t)n, sizeof(key), key_compare);
		for (lua_Integer i = 0; i < n && w->ok; ++i) {
			lua_pushlstring(L, keys[i].s, keys[i].len);
			lua_pushvalue(L, -1);
			lua_pushboolean(L, 1);
			lua_rawset(L, done);
			mix_string(w, keys[i].s, keys[i].len);
			lua_rawget(L, w->env);
			walk_value(w, lua_gettop(L));
			lua_pop(L, 1);
		}
		free(keys);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

bool th_fingerprint(lua_State *L, int fn, int env, int host, uint64_t *out)
{
	fn = lua_absindex(L, fn);
	env = env != 0 && lua_istable(L, env) ? lua_absindex(L, env) : 0;
	host = lua_absindex(L, host);
	if (!lua_checkstack(L, 24)) return false;
	lua_newtable(L);
	lua_newtable(L);
	walk w = {L, 0xcbf29ce484222325ULL, lua_gettop(L) - 1, env, host, lua_gettop(L), false, 0, 0, true};
	walk_value(&w, fn);
	walk_globals(&w);
	lua_pop(L, 2);
	*out = w.hash;
	return w.ok;
}
