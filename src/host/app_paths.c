/* tumble host: where things are: the folder with lua/ and examples/, the
 * level's file and folder, the screenshot's folder. */
#include "app_internal.h"
#include "fsinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory with lua/ and examples/: next to the binary, one or two levels
 * up (build/asan/tumble), or ../share/tumble when installed. */
char *th_app_find_root(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) return NULL;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash == NULL) return NULL;
	*slash = '\0';
	const char *suffixes[] = {"", "/..", "/../..", "/../share/tumble"};
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); ++i) {
		char candidate[PATH_MAX + 32], lua_dir[PATH_MAX + 64], resolved[PATH_MAX];
		snprintf(candidate, sizeof(candidate), "%s%s", exe, suffixes[i]);
		snprintf(lua_dir, sizeof(lua_dir), "%s/lua", candidate);
		if (th_is_dir(lua_dir) && realpath(candidate, resolved) != NULL) return strdup(resolved);
	}
	return NULL;
}

bool th_app_resolve_level(th_app *app)
{
	const th_app_options *o = &app->opt;
	const char *path = o->level_path;
	char fallback[PATH_MAX + 64];
	if (path == NULL && !o->builtin_demo && app->root != NULL) {
		snprintf(fallback, sizeof(fallback), "%s/examples/forcefield.lua", app->root);
		if (th_is_file(fallback)) path = fallback;
	}
	if (path == NULL || o->builtin_demo) return true; /* the built-in demo */
	char resolved[PATH_MAX];
	if (!th_is_file(path) || realpath(path, resolved) == NULL) {
		const char *why = th_is_dir(path) ? "is a directory" : access(path, R_OK) != 0 ? strerror(errno) : "not a file";
		fprintf(stderr, "tumble: cannot open level '%s': %s\n", path, why);
		return false;
	}
	app->level_path = strdup(resolved);
	app->level_dir = strdup(resolved);
	if (app->level_path == NULL || app->level_dir == NULL) return false;
	char *slash = strrchr(app->level_dir, '/');
	if (slash != NULL) *slash = '\0';
	return true;
}

/* The screenshot's folder must exist and be writable, and what the path
 * names already must not be a FIFO or a device: say so at once, not after the
 * whole run (writing into a FIFO nobody reads would wait forever). */
bool th_app_screenshot_writable(const char *path)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash == NULL) {
		snprintf(dir, sizeof(dir), ".");
	} else if (slash == dir) {
		dir[1] = '\0';
	} else {
		*slash = '\0';
	}
	if (!th_is_dir(dir) || access(dir, W_OK) != 0) {
		fprintf(stderr, "tumble: cannot write screenshot %s: %s\n", path,
		        !th_is_dir(dir) ? "no such folder" : strerror(errno));
		return false;
	}
	/* (a folder fails at the write, at once, and the run exits 1) */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tumble: cannot write screenshot %s: not a regular file\n", path);
		return false;
	}
	return true;
}
