/* The host's hold on the worlds a script makes (tumble_lua.h): limits set with
 * tumble_lua_set_world_limits apply to every world created afterwards and
 * cannot be raised from Lua, and every world allocates through the Lua
 * state's allocator, so a host that caps Lua memory caps the engine too. */
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

/* An allocator like a host's --mem-limit: counts bytes, refuses growth past a cap. */
typedef struct capped { size_t used, cap; long refused; } capped;

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	capped *c = ud;
	size_t old = ptr != NULL ? osize : 0;
	if (nsize == 0) {
		free(ptr);
		c->used -= old;
		return NULL;
	}
	if (c->cap != 0 && nsize > old && c->used - old + nsize > c->cap) {
		c->refused += 1;
		return NULL;
	}
	void *p = realloc(ptr, nsize);
	if (p != NULL) c->used = c->used - old + nsize;
	return p;
}

static lua_State *new_state(capped *c)
{
	lua_State *L = c ? lua_newstate(capped_alloc, c) : luaL_newstate();
	assert_non_null(L);
	luaL_openlibs(L);
	luaL_requiref(L, "tumble", luaopen_tumble, 1);
	lua_pop(L, 1);
	return L;
}

/* Runs a chunk; returns its error message (a copy), or NULL when it ran. */
static char *run(lua_State *L, const char *chunk)
{
	if (luaL_dostring(L, chunk) == LUA_OK) return NULL;
	const char *msg = lua_tostring(L, -1);
	char *copy = strdup(msg ? msg : "(no message)");
	lua_pop(L, 1);
	return copy;
}

static void expect_ok(lua_State *L, const char *chunk)
{
	char *err = run(L, chunk);
	if (err != NULL) fail_msg("%s", err);
}

static void expect_error(lua_State *L, const char *chunk, const char *part)
{
	char *err = run(L, chunk);
	if (err == NULL) fail_msg("no error from: %s", chunk);
	if (strstr(err, part) == NULL) fail_msg("error '%s' does not say '%s'", err, part);
	free(err);
}

static void test_limits_apply_to_later_worlds(void **state)
{
	(void)state;
	lua_State *L = new_state(NULL);
	expect_ok(L, "before = tumble.world{}");
	tb_world_limits limits = {5, 3, 1, 0, 0};
	tumble_lua_set_world_limits(L, &limits);
	expect_ok(L, "w = tumble.world{}\n"
	             "for i = 1, 5 do w:body{ type = 'dynamic', x = 2 * i } end");
	expect_error(L, "w:body{}", "too many bodies (max_bodies limit 5)");
	expect_ok(L, "for b in w:bodies() do b:destroy() break end; b = w:body{ type = 'dynamic' }");
	expect_ok(L, "for i = 1, 3 do b:circle{ r = 0.5 } end");
	expect_error(L, "b:circle{ r = 0.5 }", "too many shapes (max_shapes limit 3)");
	expect_ok(L, "local list = {} for x in w:bodies() do list[#list + 1] = x end\n"
	             "w:joint{ kind = 'distance', a = list[1], b = list[2] }");
	expect_error(L, "local list = {} for x in w:bodies() do list[#list + 1] = x end\n"
	                "w:joint{ kind = 'distance', a = list[3], b = list[4] }",
	             "too many joints (max_joints limit 1)");
	/* a world made before the limits has none, and Lua has no way to raise them */
	expect_ok(L, "for i = 1, 20 do before:body{} end");
	expect_error(L, "tumble.world{ max_bodies = 100 }", "max_bodies");
	expect_ok(L, "w2 = tumble.world{}; for i = 1, 5 do w2:body{} end");
	expect_error(L, "w2:body{}", "max_bodies");
	/* NULL lifts them for the next worlds */
	tumble_lua_set_world_limits(L, NULL);
	expect_ok(L, "w3 = tumble.world{}; for i = 1, 20 do w3:body{} end");
	lua_close(L);
}

static void test_contact_limit_is_a_step_error(void **state)
{
	(void)state;
	lua_State *L = new_state(NULL);
	tb_world_limits limits = {0, 0, 0, 10, 0};
	tumble_lua_set_world_limits(L, &limits);
	expect_ok(L, "w = tumble.world{}\n"
	             "for i = 1, 8 do w:body{ type = 'dynamic', x = 0.1 * i }:circle{ r = 0.5 } end");
	expect_error(L, "w:step(1 / 60)", "too many contacts in world:step (max_contacts limit 10)");
	/* the world goes on */
	expect_ok(L, "assert(w.contact_count == 10) w.gravity = { 0, -10 } for b in w:bodies() do b.x = b.x end");
	lua_close(L);
}

/* The engine's memory is the Lua state's: counted by the host's allocator,
 * refused at the host's cap with a Lua error, and freed when the state closes. */
static void test_engine_memory_through_lua_allocator(void **state)
{
	(void)state;
	capped c = {0, 0, 0};
	lua_State *L = new_state(&c);
	size_t before = c.used;
	expect_ok(L, "w = tumble.world{}\n"
	             "for i = 1, 2000 do w:body{ type = 'dynamic', x = i % 50, y = i // 50 }:circle{ r = 0.4 } end\n"
	             "w:step(1 / 60)");
	lua_getglobal(L, "w");
	tb_world *w = tumble_lua_to_world(L, -1);
	assert_non_null(w);
	size_t engine = tb_world_get_allocated_bytes(w);
	lua_pop(L, 1);
	assert_true(engine > 200 * 1000);
	assert_true(c.used - before >= engine);

	/* a cap a little above what the state holds now: more bodies run into it */
	c.cap = c.used + 256 * 1024;
	char *err = run(L, "for i = 1, 100000 do w:body{ type = 'dynamic', x = i % 50, y = 40 + i // 50 }:circle{ r = 0.4 } end");
	assert_non_null(err);
	assert_true(strstr(err, "out of memory") != NULL || strstr(err, "not enough memory") != NULL);
	free(err);
	assert_true(c.refused > 0);
	assert_true(c.used <= c.cap);
	/* the state and the world are still usable within the cap */
	expect_ok(L, "collectgarbage() local n = w.body_count w:step(1 / 60) assert(w.body_count == n)");
	lua_close(L);
	assert_int_equal(c.used, 0);
}

/* max_bytes from the host caps one world's engine memory whatever Lua has left. */
static void test_engine_byte_limit(void **state)
{
	(void)state;
	lua_State *L = new_state(NULL);
	tb_world_limits limits = {0, 0, 0, 0, 256 * 1024};
	tumble_lua_set_world_limits(L, &limits);
	expect_error(L, "w = tumble.world{}\n"
	                "for i = 1, 100000 do w:body{ type = 'dynamic', x = i % 50, y = i // 50 } end",
	             "out of memory creating the body");
	lua_getglobal(L, "w");
	tb_world *w = tumble_lua_to_world(L, -1);
	assert_non_null(w);
	assert_true(tb_world_get_allocated_bytes(w) <= limits.max_bytes);
	assert_true(tb_world_validate(w));
	lua_pop(L, 1);
	expect_ok(L, "w:step(1 / 60)");
	lua_close(L);
}

/* Snapshots stay within the host's hold: a restore or a string read past the
 * limits is refused, and their memory is the Lua state's, counted at the cap;
 * snapshots a script drops are collected before the cap refuses new ones. */
static void test_snapshots_within_host_limits(void **state)
{
	(void)state;
	capped c = {0, 0, 0};
	lua_State *L = new_state(&c);
	expect_ok(L, "big = tumble.world{}\n"
	             "for i = 1, 10 do big:body{ type = 'dynamic', x = 2 * i }:circle{ r = 0.5 } end\n"
	             "bytes = big:snapshot():save()\n"
	             "unlimited = tumble.snapshot(bytes)");
	tb_world_limits limits = {5, 0, 0, 0, 0};
	tumble_lua_set_world_limits(L, &limits);
	expect_error(L, "tumble.snapshot(bytes)", "too many bodies (max_bodies limit 5)");
	expect_ok(L, "small = tumble.world{}; mine = small:body{ type = 'dynamic' }");
	expect_error(L, "small:restore(unlimited)", "cannot restore the snapshot: too many bodies (max_bodies limit 5)");
	expect_ok(L, "assert(mine.valid and small.body_count == 1)");
	tumble_lua_set_world_limits(L, NULL);

	/* a cap with room for a few snapshots of a 2,000-body world */
	expect_ok(L, "w = tumble.world{}\n"
	             "for i = 1, 2000 do w:body{ type = 'dynamic', x = i % 50, y = i // 50 }:circle{ r = 0.4 } end\n"
	             "w:step(1 / 60)\n"
	             "size = w:snapshot().bytes\n"
	             "collectgarbage() collectgarbage()");
	lua_getglobal(L, "size");
	size_t size = (size_t)lua_tointeger(L, -1);
	lua_pop(L, 1);
	assert_true(size > 100 * 1000);
	c.cap = c.used + 4 * size + 512 * 1024;
	/* kept: the cap refuses one at last, with a Lua error */
	expect_error(L, "kept = {} for i = 1, 100 do kept[i] = w:snapshot() end", "out of memory taking a snapshot");
	assert_true(c.refused > 0);
	expect_ok(L, "kept = nil collectgarbage() collectgarbage()");
	/* dropped: taken one after another, never refused */
	expect_ok(L, "for i = 1, 200 do local s = w:snapshot() assert(s.valid) end");
	expect_ok(L, "w:restore(w:snapshot()) w:step(1 / 60)");
	lua_close(L);
	assert_int_equal(c.used, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits_apply_to_later_worlds),
		cmocka_unit_test(test_contact_limit_is_a_step_error),
		cmocka_unit_test(test_engine_memory_through_lua_allocator),
		cmocka_unit_test(test_engine_byte_limit),
		cmocka_unit_test(test_snapshots_within_host_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
