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
