/* libFuzzer target: the sandbox's module searcher (searcher.c). The input's
 * first line is the name given to require, the rest the text of the module
 * files in the level's folder (m.lua, pkg/init.lua, pkg/sub.lua); next to
 * them lie what must never be read: a symlink out of the folder, a FIFO, a
 * folder named like a module. The searcher is called as require calls it;
 * what it loads is never run. What must hold: a string (why not found), a
 * function and its file name inside the folder, or a Lua error; nothing
 * blocks, nothing leaks. */
#include <sys/stat.h>

#include "fuzz_host.h"
#include "searcher.h"

static lua_State *L;
static char folder[PATH_MAX];

static void setup(void)
{
	const char *dir = fuzz_folder();
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/pkg", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/dir.lua", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/out.lua", dir);
	if (symlink("/etc/passwd", path) != 0) perror("fuzz_searcher: symlink");
	snprintf(path, sizeof path, "%s/fifo.lua", dir);
	if (mkfifo(path, 0600) != 0) perror("fuzz_searcher: mkfifo");
	if (realpath(dir, folder) == NULL) abort();
	L = luaL_newstate();
	luaL_openlibs(L);
	const char *dirs[1] = {folder};
	th_searcher_push(L, dirs, 1);
	lua_setglobal(L, "searcher");
}

static int call_searcher(lua_State *S)
{
	lua_getglobal(S, "searcher");
	lua_pushvalue(S, 1);
	lua_call(S, 1, 2);
	return 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (L == NULL) setup();
	size_t name_len = 0;
	while (name_len < size && data[name_len] != '\n') name_len += 1;
	const uint8_t *text = data + (name_len < size ? name_len + 1 : size);
	size_t text_len = size - (size_t)(text - data);
	fuzz_write("m.lua", text, text_len);
	fuzz_write("pkg/init.lua", text, text_len);
	fuzz_write("pkg/sub.lua", text, text_len);

	int top = lua_gettop(L);
	lua_pushcfunction(L, call_searcher);
	lua_pushlstring(L, (const char *)data, name_len);
	if (lua_pcall(L, 1, 2, 0) == LUA_OK) {
		if (lua_type(L, -2) == LUA_TFUNCTION) {
			/* found: a file inside the folder */
			const char *file = lua_tostring(L, -1);
			size_t n = strlen(folder);
			if (file == NULL || strncmp(file, folder, n) != 0 || file[n] != '/') abort();
		} else if (lua_type(L, -2) != LUA_TSTRING) {
			abort();
		}
	} else if (lua_type(L, -1) != LUA_TSTRING) {
		abort();
	}
	lua_settop(L, top);
	lua_gc(L, LUA_GCCOLLECT);
	return 0;
}
