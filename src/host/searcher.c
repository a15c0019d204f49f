/* tumble host: the sandbox's module searcher (see searcher.h). */
#include "searcher.h"
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lauxlib.h>

/* A module bigger than this is refused before it is read. */
#define MODULE_MAX_BYTES (16u << 20)
#define NAME_MAX_BYTES 200

/* Module names are dotted identifiers: letters, digits, '_' and '-' between
 * single dots. Anything else (a slash, "..", a NUL) never reaches the file system. */
static bool valid_name(const char *name, size_t len)
{
	if (len == 0 || len > NAME_MAX_BYTES) return false;
	bool start = true;
	for (size_t i = 0; i < len; ++i) {
		char c = name[i];
		if (c == '.') {
			if (start) return false;
			start = true;
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
			start = false;
		} else {
			return false;
		}
	}
	return !start;
}

/* Reads a regular file into a new userdata buffer on the stack; false with
 * *why set if it is refused. Everything that can raise a Lua error (the
 * buffer's allocation, under the memory cap) happens before the file is
 * opened, so an error never leaks a descriptor. */
static bool read_module(lua_State *L, const char *path, size_t *size, const char **why)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		*why = strerror(errno);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return false;
	}
	if (st.st_size > (off_t)MODULE_MAX_BYTES) {
		*why = "file too large for a module (16 MB at most)";
		return false;
	}
	size_t cap = (size_t)st.st_size;
	char *buf = lua_newuserdatauv(L, cap + 1, 0);
	/* no Lua error from here until the descriptor is closed */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0) {
		*why = strerror(errno);
		return false;
	}
	/* the path may have been swapped since stat: the descriptor decides */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		*why = "not a regular file";
		return false;
	}
	size_t total = 0;
	for (;;) {
		ssize_t n = read(fd, buf + total, cap + 1 - total);
		if (n < 0 && errno == EINTR) continue;
		if (n < 0) {
			*why = strerror(errno);
			close(fd);
			return false;
		}
		if (n == 0) break;
		total += (size_t)n;
		if (total > cap) {
			close(fd);
			*why = "file changed while it was read";
			return false;
		}
	}
	close(fd);
	*size = total;
	return true;
}

/* upvalues: the resolved folders, as strings */
static int searcher(lua_State *L)
{
	size_t len = 0;
	const char *name = luaL_checklstring(L, 1, &len);
	if (!valid_name(name, len)) {
		lua_pushfstring(L, "no module '%s' in the sandbox (names are dotted identifiers)", name);
		return 1;
	}
	char rel[NAME_MAX_BYTES + 1];
	memcpy(rel, name, len + 1);
	for (char *c = rel; *c != '\0'; ++c) {
		if (*c == '.') *c = '/';
	}
	static const char *const suffixes[] = {".lua", "/init.lua"};
	for (int i = 1; lua_type(L, lua_upvalueindex(i)) == LUA_TSTRING; ++i) {
		size_t dlen = 0;
		const char *dir = lua_tolstring(L, lua_upvalueindex(i), &dlen);
		for (size_t k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); ++k) {
			char path[PATH_MAX], resolved[PATH_MAX];
			if (snprintf(path, sizeof(path), "%s/%s%s", dir, rel, suffixes[k]) >= (int)sizeof(path)) continue;
			/* Only what resolves inside the folder: no "..", no symlink out.
			 * Whatever lies outside gets the same answer as a missing file, so
			 * a symlink shipped with a level cannot probe the machine. */
			if (realpath(path, resolved) == NULL) continue;
			size_t keep = dlen > 0 && dir[dlen - 1] == '/' ? dlen - 1 : dlen;
			if (strncmp(resolved, dir, keep) != 0 || resolved[keep] != '/') continue;
			const char *why = NULL;
			size_t size = 0;
			if (!read_module(L, resolved, &size, &why)) {
				return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, resolved, why);
			}
			const char *text = lua_touserdata(L, -1);
			lua_pushfstring(L, "@%s", resolved);
			int status = th_sandbox_load_buffer(L, text, size, lua_tostring(L, -1), "t");
			if (status != LUA_OK) {
				return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, resolved,
				                  lua_tostring(L, -1));
			}
			lua_pushstring(L, resolved);
			return 2;
		}
	}
	lua_pushfstring(L, "no file '%s' in the level's folder", name);
	return 1;
}

void th_searcher_push(lua_State *L, const char *const *dirs, int count)
{
	int n = 0;
	for (int i = 0; i < count; ++i) {
		char resolved[PATH_MAX];
		if (dirs[i] == NULL || realpath(dirs[i], resolved) == NULL) continue;
		lua_pushstring(L, resolved);
		n += 1;
	}
	lua_pushcclosure(L, searcher, n);
}
