/* tumble binding: what the host needs to read from handles without raising
 * (declared in include/tumble/tumble_lua.h). */
#include "lua_internal.h"

bool tumble_lua_to_body(lua_State *L, int idx, tb_world **world, tb_body_id *id)
{
	tl_handle *h = tl_testudata(L, idx, TL_BODY);
	if (h == NULL || !tl_handle_valid(h, TL_BODY)) return false;
	*world = tl_world_of(h->rec);
	*id = tl_body_id(h);
	return true;
}

const char *tumble_lua_typename(lua_State *L, int idx)
{
	if (lua_type(L, idx) != LUA_TUSERDATA) return NULL;
	for (int t = 0; t < TL_TYPE_COUNT; ++t) {
		if (tl_testudata(L, idx, (tl_type)t) != NULL) return tl_type_names[t];
	}
	return NULL;
}

int tumble_lua_introspect(lua_State *L)
{
	return tl_introspect(L);
}

int tumble_lua_world_snapshot(lua_State *L)
{
	return tl_world_snapshot(L);
}

int tumble_lua_world_restore(lua_State *L)
{
	return tl_world_restore(L);
}

size_t tumble_lua_snapshot_bytes(lua_State *L, int idx)
{
	const tl_snapshot_ud *su = tl_testudata(L, idx, TL_SNAPSHOT);
	if (su == NULL || su->snap == NULL) return 0;
	/* a table slot is a TValue (16 bytes on 64-bit): a handle, or a value's
	 * position and its values (user, and the handlers of a shape) */
	size_t slots = 0;
	for (int k = 0; k < TL_KIND_COUNT; ++k) {
		int per_value = 1 + (k == TL_SHAPE ? TL_SHAPE_UV_COUNT - 1 : 1);
		slots += (size_t)su->handles[k] + (size_t)su->values[k] * (size_t)per_value;
	}
	return tb_snapshot_get_allocated_bytes(su->snap) + slots * 16;
}
