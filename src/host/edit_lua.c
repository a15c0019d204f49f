/* tumble host: edit mode's reads and writes of the level's objects, through
 * the binding (edit_mode.h). The property names come from the binding's own
 * tables (tumble_lua_introspect), the values from the handles' __index, and
 * a change goes through __newindex: the same checks and messages as a
 * level's `body.x = 3`. Every call is protected; none runs level code (the
 * handles' metatables are the binding's, and tables read back are copies). */
#include "edit_mode.h"
#include "level.h"
#include "plot.h"
#include "tumble/tumble_lua.h"

#include <lauxlib.h>
#include <stdio.h>
#include <string.h>

static const char *const type_names[] = {[TH_SEL_BODY] = "Body", [TH_SEL_SHAPE] = "Shape", [TH_SEL_JOINT] = "Joint"};

/* Properties not shown: the world, handles to other objects, callbacks,
 * whatever the level keeps in user. */
static bool hidden(const char *name)
{
	static const char *const names[] = {"world", "valid", "user", "chain", "a", "b", "body", NULL};
	if (strncmp(name, "on_", 3) == 0) return true;
	for (int i = 0; names[i] != NULL; ++i) {
		if (strcmp(name, names[i]) == 0) return true;
	}
	return false;
}

/* Pushes the handle of s (world at world_idx); nil if gone. */
static void push_handle(lua_State *L, int world_idx, th_sel s)
{
	switch (s.kind) {
	case TH_SEL_BODY: tumble_lua_push_body(L, world_idx, (tb_body_id){s.index1, s.generation}); break;
	case TH_SEL_SHAPE: tumble_lua_push_shape(L, world_idx, (tb_shape_id){s.index1, s.generation}); break;
	case TH_SEL_JOINT: tumble_lua_push_joint(L, world_idx, (tb_joint_id){s.index1, s.generation}); break;
	default: lua_pushnil(L); break;
	}
}

typedef struct read_ctx {
	th_level *lv;
	const th_sel *sel;
	int sel_count;
	th_edit_prop *out;
	int count, cap;
} read_ctx;

static th_edit_prop *add(read_ctx *c)
{
	if (c->count >= c->cap) return NULL;
	th_edit_prop *p = &c->out[c->count++];
	memset(p, 0, sizeof(*p));
	return p;
}

/* The value at the top as one line's value; false for what is not shown. */
static bool describe(lua_State *L, th_edit_prop *p)
{
	switch (lua_type(L, -1)) {
	case LUA_TNUMBER:
		p->number = true;
		p->num = lua_tonumber(L, -1);
		if (lua_isinteger(L, -1)) {
			p->integer = true;
			snprintf(p->value, sizeof(p->value), "%lld", (long long)lua_tointeger(L, -1));
		} else {
			th_edit_format_number(p->num, p->value, sizeof(p->value));
		}
		return true;
	case LUA_TBOOLEAN:
		p->boolean = true;
		p->flag = lua_toboolean(L, -1);
		snprintf(p->value, sizeof(p->value), "%s", p->flag ? "true" : "false");
		return true;
	case LUA_TSTRING: snprintf(p->value, sizeof(p->value), "%s", lua_tostring(L, -1)); return true;
	default: return false;
	}
}

/* One object's lines: its header, then each property in the binding's order
 * (a table value: a line per string key, sorted, as "name.key"). */
static void read_object(lua_State *L, read_ctx *c, int intro, int world, th_sel s)
{
	push_handle(L, world, s);
	int obj = lua_gettop(L);
	if (lua_isnil(L, obj)) {
		lua_pop(L, 1);
		return;
	}
	th_edit_prop *h = add(c);
	if (h == NULL) return;
	h->obj = s;
	h->header = true;
	lua_getfield(L, obj, "id");
	long long id = lua_tointeger(L, -1);
	lua_getfield(L, obj, s.kind == TH_SEL_BODY ? "type" : "kind");
	snprintf(h->name, sizeof(h->name), "%s #%lld %s", type_names[s.kind], id,
	         lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "");
	lua_pop(L, 2);

	lua_getfield(L, intro, type_names[s.kind]);
	lua_getfield(L, -1, "properties");
	lua_getfield(L, -2, "readonly");
	int props = lua_gettop(L) - 1, readonly = props + 1;
	for (lua_Integer i = 1;; ++i) {
		if (lua_rawgeti(L, props, i) != LUA_TSTRING) {
			lua_pop(L, 1);
			break;
		}
		const char *name = lua_tostring(L, -1);
		bool writable = true;
		for (lua_Integer k = 1; lua_rawgeti(L, readonly, k) == LUA_TSTRING; ++k) {
			if (strcmp(lua_tostring(L, -1), name) == 0) writable = false;
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
		if (!hidden(name)) {
			lua_getfield(L, obj, name);
			if (lua_type(L, -1) == LUA_TTABLE) {
				/* the string keys, sorted (lua_next's order is not stable) */
				const char *keys[16];
				int nk = 0;
				lua_pushnil(L);
				while (lua_next(L, -2) != 0) {
					if (lua_type(L, -2) == LUA_TSTRING && nk < 16) keys[nk++] = lua_tostring(L, -2);
					lua_pop(L, 1);
				}
				for (int a = 1; a < nk; ++a) {
					for (int b = a; b > 0 && strcmp(keys[b - 1], keys[b]) > 0; --b) {
						const char *t = keys[b];
						keys[b] = keys[b - 1];
						keys[b - 1] = t;
					}
				}
				for (int k = 0; k < nk; ++k) {
					lua_getfield(L, -1, keys[k]);
					th_edit_prop p = {0};
					if (describe(L, &p) && strlen(name) + strlen(keys[k]) + 2 <= sizeof(p.name)) {
						th_edit_prop *q = add(c);
						if (q != NULL) {
							*q = p;
							q->obj = s;
							q->writable = writable && strcmp(keys[k], "kind") != 0;
							snprintf(q->name, sizeof(q->name), "%s.%s", name, keys[k]);
						}
					}
					lua_pop(L, 1);
				}
			} else {
				th_edit_prop p = {0};
				if (describe(L, &p)) {
					th_edit_prop *q = add(c);
					if (q != NULL) {
						*q = p;
						q->obj = s;
						q->writable = writable;
						snprintf(q->name, sizeof(q->name), "%s", name);
					}
				}
			}
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	lua_settop(L, obj - 1);
}

static int read_lua(lua_State *L)
{
	read_ctx *c = lua_touserdata(L, 1);
	lua_settop(L, 0);
	lua_pushcfunction(L, tumble_lua_introspect);
	lua_call(L, 0, 1);
	lua_rawgeti(L, LUA_REGISTRYINDEX, c->lv->world_ref);
	for (int i = 0; i < c->sel_count; ++i) {
		th_sel s = c->sel[i];
		read_object(L, c, 1, 2, s);
		if (s.kind != TH_SEL_BODY || !tb_body_is_valid(c->lv->world, th_sel_body_id(s))) continue;
		tb_shape_id shapes[8];
		int n = tb_body_get_shapes(c->lv->world, th_sel_body_id(s), shapes, 8);
		for (int k = 0; k < n && k < 8; ++k) {
			read_object(L, c, 1, 2, (th_sel){TH_SEL_SHAPE, shapes[k].index1, shapes[k].generation});
		}
	}
	return 0;
}

int th_edit_read(th_level *lv, const th_sel *sel, int sel_count, th_edit_prop *out, int cap)
{
	if (lv->L == NULL || lv->world == NULL || lv->world_ref == LUA_NOREF) return 0;
	read_ctx c = {lv, sel, sel_count, out, 0, cap};
	lua_State *L = lv->L;
	int top = lua_gettop(L);
	lua_pushcfunction(L, read_lua);
	lua_pushlightuserdata(L, &c);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
	lua_settop(L, top);
	return c.count;
}

static int set_lua(lua_State *L)
{
	const th_event *ev = lua_touserdata(L, 1);
	th_level *lv = lua_touserdata(L, 2);
	lua_settop(L, 0);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->world_ref);
	push_handle(L, 1, (th_sel){(th_sel_kind)ev->button, ev->x, (uint32_t)ev->y});
	if (lua_isnil(L, 2)) return luaL_error(L, "the object is gone");
	char name[sizeof(ev->name)];
	snprintf(name, sizeof(name), "%s", ev->name);
	char *key = strchr(name, '.');
	if (key != NULL) *key++ = '\0';
	switch (ev->dx) {
	case TH_EDIT_INTEGER: lua_pushinteger(L, ev->dy); break;
	case TH_EDIT_BOOLEAN: lua_pushboolean(L, ev->dy != 0); break;
	default: lua_pushnumber(L, ev->value); break;
	}
	if (key == NULL) {
		lua_setfield(L, 2, name);
		return 0;
	}
	/* a key of a table value: read the table, change the key, set it back */
	lua_getfield(L, 2, name);
	if (!lua_istable(L, -1)) return luaL_error(L, "%s is not a table", name);
	lua_pushvalue(L, 3);
	lua_setfield(L, -2, key);
	lua_setfield(L, 2, name);
	return 0;
}

bool th_edit_apply(th_level *lv, const th_event *ev, char *message, int size)
{
	if (message != NULL && size > 0) message[0] = '\0';
	if (lv->L == NULL || lv->world_ref == LUA_NOREF) return false;
	lua_State *L = lv->L;
	int top = lua_gettop(L);
	lua_pushcfunction(L, set_lua);
	lua_pushlightuserdata(L, (void *)ev);
	lua_pushlightuserdata(L, lv);
	bool ok = lua_pcall(L, 2, 0, 0) == LUA_OK;
	if (!ok && message != NULL) snprintf(message, (size_t)size, "%s", lua_tostring(L, -1));
	lua_settop(L, top);
	return ok;
}

static int site_lua(lua_State *L)
{
	th_level *lv = lua_touserdata(L, 1);
	const th_sel *s = lua_touserdata(L, 2);
	tumble_lua_site *out = lua_touserdata(L, 3);
	lua_settop(L, 0);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->world_ref);
	push_handle(L, 1, *s);
	lua_pushboolean(L, tumble_lua_site_of(L, 2, out));
	return 1;
}

bool th_edit_site(th_level *lv, th_sel s, tumble_lua_site *out)
{
	if (lv->L == NULL || lv->world_ref == LUA_NOREF) return false;
	lua_State *L = lv->L;
	int top = lua_gettop(L);
	lua_pushcfunction(L, site_lua);
	lua_pushlightuserdata(L, lv);
	lua_pushlightuserdata(L, &s);
	lua_pushlightuserdata(L, out);
	bool ok = lua_pcall(L, 3, 1, 0) == LUA_OK && lua_toboolean(L, -1);
	lua_settop(L, top);
	return ok;
}

/* The value of one plotted property: a number (a boolean as 0 or 1) pushed,
 * or nil when it is neither. */
static int plot_read_lua(lua_State *L)
{
	th_level *lv = lua_touserdata(L, 1);
	const th_plot_this *w = lua_touserdata(L, 2);
	lua_settop(L, 0);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->world_ref);
	push_handle(L, 1, (th_sel){(th_sel_kind)w->kind, w->index1, w->generation});
	if (lua_isnil(L, 2)) return 1;
	char name[sizeof(w->prop)];
	snprintf(name, sizeof(name), "%s", w->prop);
	char *key = strchr(name, '.');
	if (key != NULL) *key++ = '\0';
	lua_getfield(L, 2, name);
	if (key != NULL) {
		if (!lua_istable(L, -1)) return 0;
		lua_getfield(L, -1, key);
	}
	if (lua_isboolean(L, -1)) lua_pushnumber(L, lua_toboolean(L, -1) ? 1.0 : 0.0);
	return 1;
}

void th_edit_plot_step(th_level *lv)
{
	if (lv->L == NULL || lv->world == NULL || lv->world_ref == LUA_NOREF || lv->plot == NULL) return;
	lua_State *L = lv->L;
	int n = 0;
	for (int i = 0; i < lv->plot_this_count; ++i) {
		th_plot_this *w = &lv->plot_this[i];
		if (!th_sel_valid(lv->world, (th_sel){(th_sel_kind)w->kind, w->index1, w->generation})) continue;
		int top = lua_gettop(L);
		lua_pushcfunction(L, plot_read_lua);
		lua_pushlightuserdata(L, lv);
		lua_pushlightuserdata(L, w);
		bool keep = lua_pcall(L, 2, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TNUMBER &&
		            th_plot_value(lv->plot, w->series, strlen(w->series), lua_tonumber(L, -1)) == NULL;
		lua_settop(L, top);
		if (keep) lv->plot_this[n++] = *w;
	}
	lv->plot_this_count = n;
}
