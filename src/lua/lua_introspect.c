/* tumble: a hidden test hook, tumble._introspect(). It lists what the module
 * really has, read from the specs the binding dispatches on (each type's
 * X-macro: its properties, their flags, its constructors' options; its methods;
 * the enumerations), so tests/lua/docs_spec.lua can hold lua/tumble.d.lua and
 * lua/REFERENCE.md to the module: a property added in C and not documented, or
 * documented and since removed, fails that spec. */
#include "lua_internal.h"

/* Pushes the NULL-terminated names as an array. */
static void push_names(lua_State *L, const char *const names[])
{
	lua_newtable(L);
	for (int i = 0; names != NULL && names[i] != NULL; ++i) {
		lua_pushstring(L, names[i]);
		lua_rawseti(L, -2, i + 1);
	}
}

/* Pushes the names of the entries whose flags include all of want and none of
 * refuse, in X-macro order. */
static void push_entries(lua_State *L, const tl_spec *t, unsigned want, unsigned refuse)
{
	lua_newtable(L);
	int n = 0;
	for (int e = 0; e < t->count; ++e) {
		if ((t->flags[e] & want) == want && !(t->flags[e] & refuse)) {
			lua_pushstring(L, t->names[e]);
			lua_rawseti(L, -2, ++n);
		}
	}
}

/* Pushes the options of option set bit `set`. */
static void push_options(lua_State *L, const tl_spec *t, uint32_t set)
{
	lua_newtable(L);
	int n = 0;
	for (int e = 0; e < t->count; ++e) {
		if (t->options[e] & set) {
			lua_pushstring(L, t->names[e]);
			lua_rawseti(L, -2, ++n);
		}
	}
}

/* The options: an array for a single constructor, else a table by option set. */
static void push_option_table(lua_State *L, const tl_spec *t)
{
	if (t->option_sets == NULL) {
		push_options(L, t, 1);
		return;
	}
	lua_newtable(L);
	for (int i = 0; t->option_sets[i] != NULL; ++i) {
		push_options(L, t, 1u << i);
		lua_setfield(L, -2, t->option_sets[i]);
	}
}

static void push_functions(lua_State *L, const luaL_Reg *regs)
{
	lua_newtable(L);
	for (int i = 0; regs != NULL && regs[i].name != NULL; ++i) {
		lua_pushstring(L, regs[i].name);
		lua_rawseti(L, -2, i + 1);
	}
}

/* { properties, readonly, methods, options?, kinds? } */
static void push_type(lua_State *L, const tl_spec *t)
{
	lua_createtable(L, 0, 5);
	push_entries(L, t, TL_PROP, 0);
	lua_setfield(L, -2, "properties");
	push_entries(L, t, TL_PROP, TL_WRITABLE);
	lua_setfield(L, -2, "readonly");
	push_functions(L, t->methods);
	lua_setfield(L, -2, "methods");
	if (t->options != NULL) {
		push_option_table(L, t);
		lua_setfield(L, -2, "options");
	}
	if (t->kinds != NULL) {
		push_names(L, t->kinds);
		lua_setfield(L, -2, "kinds");
	}
	lua_setfield(L, -2, tl_type_names[t->type]);
}

int tl_introspect(lua_State *L)
{
	lua_createtable(L, 0, 16);
	push_type(L, &tl_world_spec);
	push_type(L, &tl_body_spec);
	push_type(L, &tl_shape_spec);
	push_type(L, &tl_joint_spec);
	push_type(L, &tl_contact_spec);
	push_type(L, &tl_snapshot_spec);
	push_type(L, &tl_mover_spec);
	push_functions(L, tl_module_functions);
	lua_setfield(L, -2, "module");
	/* the settings are the World constructor's options */
	push_options(L, &tl_world_spec, 1);
	lua_setfield(L, -2, "settings");
	push_option_table(L, &tl_field_spec);
	lua_setfield(L, -2, "field_options");
	push_names(L, tl_world_event_names);
	lua_setfield(L, -2, "events");
	push_names(L, tl_handler_names);
	lua_setfield(L, -2, "handlers");
	push_names(L, tl_body_type_names);
	lua_setfield(L, -2, "body_types");
	push_names(L, tl_shape_kind_names);
	lua_setfield(L, -2, "shape_kinds");
	push_names(L, tl_joint_kind_names);
	lua_setfield(L, -2, "joint_kinds");
	push_names(L, tl_field_kind_names);
	lua_setfield(L, -2, "field_kinds");
	push_names(L, tl_falloff_names);
	lua_setfield(L, -2, "falloffs");
	return 1;
}
