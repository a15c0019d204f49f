/* tumble: a hidden test hook, tumble._introspect(). It lists what the module
 * really has, read from the arrays the binding dispatches on (the property and
 * method tables given to tl_set_accessors, the constructors' option lists, the
 * enumerations), so tests/lua/docs_spec.lua can hold lua/tumble.d.lua and
 * lua/REFERENCE.md to the module: a property added in C and not documented, or
 * documented and since removed, fails that spec. */
#include "lua_internal.h"

/* Pushes names[from..to) (to < 0: up to the NULL) as an array. */
static void push_names(lua_State *L, const char *const names[], int from, int to)
{
	lua_newtable(L);
	if (names == NULL) return;
	int n = 0;
	for (int i = from; (to < 0 || i < to) && names[i] != NULL; ++i) {
		lua_pushstring(L, names[i]);
		lua_rawseti(L, -2, ++n);
	}
}

static void push_functions(lua_State *L, const luaL_Reg *regs)
{
	lua_newtable(L);
	if (regs == NULL) return;
	for (int i = 0; regs[i].name != NULL; ++i) {
		lua_pushstring(L, regs[i].name);
		lua_rawseti(L, -2, i + 1);
	}
}

/* { properties, readonly, methods, options?, kinds? } */
static void push_type(lua_State *L, const tl_type_info *t, const char *name)
{
	lua_createtable(L, 0, 5);
	push_names(L, t->props, 0, -1);
	lua_setfield(L, -2, "properties");
	push_names(L, t->props, t->read_only, -1);
	lua_setfield(L, -2, "readonly");
	push_functions(L, t->methods);
	lua_setfield(L, -2, "methods");
	if (t->options != NULL) {
		push_names(L, t->options, 0, -1);
		lua_setfield(L, -2, "options");
	}
	if (t->kinds != NULL) {
		push_names(L, t->kinds, 0, -1);
		lua_setfield(L, -2, "kinds");
	}
	lua_setfield(L, -2, name);
}

int tl_introspect(lua_State *L)
{
	lua_createtable(L, 0, 16);
	push_type(L, &tl_world_info, "World");
	push_type(L, &tl_body_info, "Body");
	push_type(L, &tl_shape_info, "Shape");
	push_type(L, &tl_joint_info, "Joint");
	push_type(L, &tl_contact_info, "Contact");
	push_functions(L, tl_module_functions);
	lua_setfield(L, -2, "module");
	/* the settings are the World constructor's options */
	push_names(L, tl_world_info.options, 0, -1);
	lua_setfield(L, -2, "settings");
	push_names(L, tl_event_names, 0, -1);
	lua_setfield(L, -2, "events");
	push_names(L, tl_handler_names, 0, -1);
	lua_setfield(L, -2, "handlers");
	push_names(L, tl_body_info.kinds, 0, -1);
	lua_setfield(L, -2, "body_types");
	push_names(L, tl_shape_kind_names, 0, -1);
	lua_setfield(L, -2, "shape_kinds");
	push_names(L, tl_joint_kind_names, 0, -1);
	lua_setfield(L, -2, "joint_kinds");
	push_names(L, tl_field_kinds, 0, -1);
	lua_setfield(L, -2, "field_kinds");
	push_names(L, tl_falloffs, 0, -1);
	lua_setfield(L, -2, "falloffs");
	return 1;
}
