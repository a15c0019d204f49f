/* Creation sites (tumble_lua.h): with tumble_lua_record_sites on, every body,
 * shape and joint remembers the chunk and line of the Lua call that made it,
 * the method, whether that call is in the level's own chunk (else the level's
 * line that led to the helper), and how many live objects the call made; with
 * it off nothing is recorded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "tumble/tumble_lua.h"

static lua_State *new_state(void)
{
	lua_State *L = luaL_newstate();
	assert_non_null(L);
	luaL_openlibs(L);
	luaL_requiref(L, "tumble", luaopen_tumble, 1);
	lua_pop(L, 1);
	return L;
}

/* A helper module in a chunk of its own, as lua/levelkit.lua is. */
static const char helper[] = "local M = {}\n"
                             "function M.ball(world, x)\n"
                             "  local b = world:body{ type = 'dynamic', x = x }\n"
                             "  b:circle{ r = 0.5 }\n"
                             "  return b\n"
                             "end\n"
                             "return M\n";

/* The level: line numbers matter (see the asserts). */
static const char level[] = "local kit = ...\n"                                        /* 1 */
                            "world = tumble.world{}\n"                                 /* 2 */
                            "a = world:body{ type = 'dynamic', x = 1 }\n"             /* 3 */
                            "box = a:box{ w = 1,\n"                                    /* 4 */
                            "  h = 2 }\n"                                              /* 5 */
                            "many = {}\n"                                              /* 6 */
                            "for i = 1, 3 do\n"                                        /* 7 */
                            "  many[i] = world:body{ x = i }\n"                         /* 8 */
                            "end\n"                                                    /* 9 */
                            "j = world:joint{ kind = 'revolute', a = a, b = many[1] }\n" /* 10 */
                            "hb = kit.ball(world, 3)\n"                                /* 11 */
                            "local s = a:capsule{ x1 = 0, y1 = 0, x2 = 1, y2 = 0, r = 0.1 }\n" /* 12 */
                            "cap = s\n"                                                /* 13 */
                            "local function mk() return a:circle{ r = 0.2 } end\n"     /* 14 */
                            "tc = mk()\n";                                             /* 15 */

static void run_level(lua_State *L)
{
	assert_int_equal(luaL_loadbuffer(L, helper, sizeof helper - 1, "@lua/kit.lua"), LUA_OK);
	assert_int_equal(lua_pcall(L, 0, 1, 0), LUA_OK);
	assert_int_equal(luaL_loadbuffer(L, level, sizeof level - 1, "@levels/x.lua"), LUA_OK);
	lua_insert(L, -2);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) fail_msg("%s", lua_tostring(L, -1));
}

static bool site_of_global(lua_State *L, const char *expr, tumble_lua_site *s)
{
	char chunk[128];
	snprintf(chunk, sizeof chunk, "return %s", expr);
	assert_int_equal(luaL_dostring(L, chunk), LUA_OK);
	bool ok = tumble_lua_site_of(L, -1, s);
	lua_pop(L, 1);
	return ok;
}

static void expect_site(lua_State *L, const char *expr, const char *chunk, int line, const char *method,
                        bool in_level, int level_line, int count)
{
	tumble_lua_site s;
	if (!site_of_global(L, expr, &s)) fail_msg("no site for %s", expr);
	assert_string_equal(s.chunk, chunk);
	assert_int_equal(s.line, line);
	assert_string_equal(s.method, method);
	assert_int_equal(s.in_level, in_level);
	assert_int_equal(s.level_line, level_line);
	assert_int_equal(s.count, count);
}

static void test_records_when_on(void **state)
{
	lua_State *L = new_state();
	tumble_lua_record_sites(L, "@levels/x.lua");
	run_level(L);
	expect_site(L, "a", "@levels/x.lua", 3, "body", true, 3, 1);
	expect_site(L, "box", "@levels/x.lua", 4, "box", true, 4, 1);
	expect_site(L, "many[2]", "@levels/x.lua", 8, "body", true, 8, 3);
	expect_site(L, "j", "@levels/x.lua", 10, "joint", true, 10, 1);
	expect_site(L, "hb", "@lua/kit.lua", 3, "body", false, 11, 1);
	expect_site(L, "hb:shapes()[1]", "@lua/kit.lua", 4, "circle", false, 11, 1);
	expect_site(L, "cap", "@levels/x.lua", 12, "capsule", true, 12, 1);
	/* a C function called in tail position leaves its caller's frame */
	expect_site(L, "tc", "@levels/x.lua", 14, "circle", true, 14, 1);
	/* the count is of live objects: one destroyed leaves two */
	assert_int_equal(luaL_dostring(L, "many[3]:destroy()"), LUA_OK);
	expect_site(L, "many[1]", "@levels/x.lua", 8, "body", true, 8, 2);
	tumble_lua_site s;
	assert_false(site_of_global(L, "many[3]", &s)); /* destroyed */
	assert_false(site_of_global(L, "world", &s));   /* not an object */
	assert_false(site_of_global(L, "42", &s));
	/* objects made by the host from C have no site */
	assert_false(site_of_global(L, "nil", &s));
	/* a handle dropped and made again still finds its site */
	assert_int_equal(luaL_dostring(L, "box = nil; collectgarbage(); collectgarbage(); box = a:shapes()[1]"), LUA_OK);
	expect_site(L, "box", "@levels/x.lua", 4, "box", true, 4, 1);
	lua_close(L);
}

static void test_nothing_when_off(void **state)
{
	lua_State *L = new_state();
	run_level(L);
	tumble_lua_site s;
	assert_false(site_of_global(L, "a", &s));
	assert_false(site_of_global(L, "many[1]", &s));
	assert_false(site_of_global(L, "j", &s));
	/* turned on after the world was made: that world still records nothing */
	tumble_lua_record_sites(L, "@levels/x.lua");
	assert_int_equal(luaL_dostring(L, "late = a:circle{ r = 1 }"), LUA_OK);
	assert_false(site_of_global(L, "late", &s));
	lua_close(L);
}

static void test_off_again_forgets(void **state)
{
	lua_State *L = new_state();
	tumble_lua_record_sites(L, "@levels/x.lua");
	run_level(L);
	tumble_lua_site s;
	assert_true(site_of_global(L, "a", &s));
	tumble_lua_record_sites(L, NULL);
	assert_false(site_of_global(L, "a", &s));
	assert_int_equal(luaL_dostring(L, "b2 = world:body{}"), LUA_OK);
	assert_false(site_of_global(L, "b2", &s));
	/* on again: a fresh record; the world made while on records again */
	tumble_lua_record_sites(L, "@levels/x.lua");
	assert_false(site_of_global(L, "a", &s));
	assert_int_equal(luaL_dostring(L, "b3 = world:body{}"), LUA_OK);
	assert_true(site_of_global(L, "b3", &s));
	assert_string_equal(s.chunk, "b3 = world:body{}");
	assert_false(s.in_level);
	assert_int_equal(s.level_line, 0);
	lua_close(L);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_when_on),
		cmocka_unit_test(test_nothing_when_off),
		cmocka_unit_test(test_off_again_forgets),
	};
	return cmocka_run_group_tests(tests, 0, NULL);
}
