/* tumble host: `tumble --package GAME OUT` (see package.h). */
#include "package.h"
#include "fsinfo.h"
#include "app_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PK "tumble: --package: "
/* room for a resolved path (PATH_MAX) and a name or two under it */
#define PK_PATH (PATH_MAX + 512)

/* dst = a + "/" + b, said on stderr when it does not fit */
static bool join(char *dst, const char *a, const char *b)
{
	int n = snprintf(dst, PK_PATH, "%s/%s", a, b);
	if (n < 0 || n >= PK_PATH) {
		fprintf(stderr, PK "path too long: %s/%s\n", a, b);
		return false;
	}
	return true;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && strcmp(s + n - t, tail) == 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The level the launcher starts: main.lua, else the first .lua file by name
 * (as web/package.sh picks it). Fills start (empty when there is none). */
static void find_start(const char *game, char *start, size_t size)
{
	start[0] = '\0';
	char path[PK_PATH];
	join(path, game, "main.lua");
	if (th_is_file(path)) {
		snprintf(start, size, "main.lua");
		return;
	}
	DIR *d = opendir(game);
	if (d == NULL) return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || !ends_with(e->d_name, ".lua")) continue;
		if (!join(path, game, e->d_name) || !th_is_file(path)) continue;
		if (start[0] == '\0' || strcmp(e->d_name, start) < 0) snprintf(start, size, "%s", e->d_name);
	}
	closedir(d);
}

static bool copy_file(const char *from, const char *to, mode_t mode)
{
	int in = open(from, O_RDONLY);
	if (in < 0) {
		fprintf(stderr, PK "cannot read %s: %s\n", from, strerror(errno));
		return false;
	}
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL, mode);
	if (out < 0) {
		fprintf(stderr, PK "cannot write %s: %s\n", to, strerror(errno));
		close(in);
		return false;
	}
	char buf[65536];
	bool ok = true;
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n == 0) break;
		if (n < 0) {
			if (errno == EINTR) continue;
			fprintf(stderr, PK "cannot read %s: %s\n", from, strerror(errno));
			ok = false;
			break;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR) continue;
			if (w <= 0) {
				fprintf(stderr, PK "cannot write %s: %s\n", to, strerror(errno));
				ok = false;
				break;
			}
			done += w;
		}
		if (!ok) break;
	}
	close(in);
	if (close(out) != 0 && ok) {
		fprintf(stderr, PK "cannot write %s: %s\n", to, strerror(errno));
		ok = false;
	}
	return ok;
}

static bool make_dir(const char *path)
{
	if (mkdir(path, 0755) == 0 || (errno == EEXIST && th_is_dir(path))) return true;
	fprintf(stderr, PK "cannot create %s: %s\n", path, strerror(errno));
	return false;
}

/* A folder's files and folders, in name order, hidden ones left out; symbolic
 * links are followed to files, and a link to a folder is skipped (said on
 * stderr) so a loop cannot make the copy endless. keep() (when set) picks the
 * files of the top folder. */
static bool copy_tree(const char *from, const char *to, bool (*keep)(const char *name), int depth)
{
	if (depth > 32) {
		fprintf(stderr, PK "%s: folders nested over 32 deep\n", from);
		return false;
	}
	if (!make_dir(to)) return false;
	DIR *d = opendir(from);
	if (d == NULL) {
		fprintf(stderr, PK "cannot read %s: %s\n", from, strerror(errno));
		return false;
	}
	char **names = NULL;
	size_t count = 0, cap = 0;
	bool ok = true;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') continue;
		if (count == cap) {
			cap = cap ? cap * 2 : 32;
			char **grown = realloc(names, cap * sizeof(*names));
			if (grown == NULL) {
				ok = false;
				break;
			}
			names = grown;
		}
		if ((names[count] = strdup(e->d_name)) == NULL) {
			ok = false;
			break;
		}
		count++;
	}
	closedir(d);
	if (!ok) fprintf(stderr, PK "out of memory listing %s\n", from);
	if (count > 0) qsort(names, count, sizeof(*names), cmp_names);
	for (size_t i = 0; ok && i < count; ++i) {
		char src[PK_PATH], dst[PK_PATH];
		if (!join(src, from, names[i]) || !join(dst, to, names[i])) {
			ok = false;
			break;
		}
		struct stat link, st;
		if (lstat(src, &link) != 0 || stat(src, &st) != 0) {
			fprintf(stderr, PK "skipped %s: %s\n", src, strerror(errno));
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (S_ISLNK(link.st_mode)) {
				fprintf(stderr, PK "skipped %s: a link to a folder\n", src);
				continue;
			}
			if (keep != NULL) continue;
			ok = copy_tree(src, dst, NULL, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			if (keep != NULL && !keep(names[i])) continue;
			ok = copy_file(src, dst, (st.st_mode & 0111) ? 0755 : 0644);
		}
	}
	for (size_t i = 0; i < count; ++i)
		free(names[i]);
	free(names);
	return ok;
}

/* lua/: the support modules, not the LuaLS type file */
static bool runtime_module(const char *name)
{
	return ends_with(name, ".lua") && !ends_with(name, ".d.lua");
}

static bool write_text(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f == NULL) {
		fprintf(stderr, PK "cannot write %s: %s\n", path, strerror(errno));
		if (fd >= 0) close(fd);
		return false;
	}
	bool ok = fputs(text, f) >= 0;
	if (fclose(f) != 0) ok = false;
	if (!ok) fprintf(stderr, PK "cannot write %s\n", path);
	return ok;
}

/* Is the folder empty (or missing)? */
static bool empty_or_missing(const char *path, bool *exists)
{
	struct stat st;
	*exists = lstat(path, &st) == 0;
	if (!*exists) return true;
	if (!S_ISDIR(st.st_mode)) return false;
	DIR *d = opendir(path);
	if (d == NULL) return false;
	struct dirent *e;
	bool empty = true;
	while (empty && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) empty = false;
	}
	closedir(d);
	return empty;
}

/* OUT's absolute path, resolved through its parent when it does not exist. */
static bool resolve_out(const char *out, char *abs, size_t size)
{
	char parent[PK_PATH], resolved[PK_PATH];
	snprintf(parent, sizeof(parent), "%s", out);
	size_t n = strlen(parent);
	while (n > 1 && parent[n - 1] == '/')
		parent[--n] = '\0';
	if (th_is_dir(parent)) {
		if (realpath(parent, resolved) == NULL) {
			fprintf(stderr, PK "cannot use '%s': %s\n", out, strerror(errno));
			return false;
		}
		return snprintf(abs, size, "%s", resolved) < (int)size;
	}
	char *slash = strrchr(parent, '/');
	const char *name = parent;
	const char *dir = ".";
	if (slash != NULL) {
		*slash = '\0';
		name = slash + 1;
		dir = slash == parent ? "/" : parent;
	}
	if (name[0] == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		fprintf(stderr, PK "cannot use '%s' as the output folder\n", out);
		return false;
	}
	if (realpath(dir, resolved) == NULL || !th_is_dir(resolved)) {
		fprintf(stderr, PK "the folder above '%s' does not exist (create it first)\n", out);
		return false;
	}
	int len = snprintf(abs, size, "%s%s%s", resolved, strcmp(resolved, "/") == 0 ? "" : "/", name);
	if (len < 0 || len >= (int)size) {
		fprintf(stderr, PK "path too long: %s\n", out);
		return false;
	}
	return true;
}

/* The browser build: build/web's page and wasm under the root, with the game
 * packed as its data by web/package.sh. Returns false only on a failure;
 * a missing build or emscripten is a skip (said on stdout). */
static bool package_web(const char *root, const char *game, const char *out)
{
	static const char *const files[] = {"index.html", "shell.js", "tumble.js", "tumble.wasm"};
	char src[PK_PATH], dst[PK_PATH], script[PK_PATH], rel[64];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); ++i) {
		snprintf(rel, sizeof(rel), "build/web/%s", files[i]);
		join(src, root, rel);
		if (!th_is_file(src)) {
			printf("package: browser build skipped: no %s (`make web` in the source tree builds it; "
			       "it needs emscripten)\n",
			       src);
			return true;
		}
	}
	join(script, root, "web/package.sh");
	if (!th_is_file(script)) {
		printf("package: browser build skipped: no %s (run the source tree's tumble)\n", script);
		return true;
	}
	if (system("command -v em-config > /dev/null 2>&1") != 0) {
		printf("package: browser build skipped: emscripten's em-config is not on PATH "
		       "(apt-get install emscripten)\n");
		return true;
	}
	char web[PK_PATH];
	join(web, out, "web");
	if (!make_dir(web)) return false;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); ++i) {
		snprintf(rel, sizeof(rel), "build/web/%s", files[i]);
		join(src, root, rel);
		join(dst, web, files[i]);
		if (!copy_file(src, dst, 0644)) return false;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, PK "cannot run %s: %s\n", script, strerror(errno));
		return false;
	}
	if (pid == 0) {
		execlp("bash", "bash", script, web, game, (char *)NULL);
		fprintf(stderr, PK "cannot run bash: %s\n", strerror(errno));
		_exit(127);
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, PK "%s failed: the browser build is incomplete\n", script);
		return false;
	}
	/* what the packer leaves beside its output */
	pid = fork();
	if (pid == 0) {
		char stage[PK_PATH];
		join(stage, web, "stage");
		execlp("rm", "rm", "-rf", "--", stage, (char *)NULL);
		_exit(127);
	}
	if (pid > 0) waitpid(pid, &status, 0);
	join(dst, web, "package.log");
	unlink(dst);
	printf("package: browser build in %s (serve it with any static file server, e.g. "
	       "python3 -m http.server -d %s)\n",
	       web, web);
	return true;
}

static int package_with_root(const char *game, const char *out, const char *root)
{
	char game_abs[PK_PATH], out_abs[PK_PATH], start[NAME_MAX + 1], path[PK_PATH];
	if (!th_is_dir(game) || realpath(game, game_abs) == NULL) {
		fprintf(stderr, PK "'%s' is not a folder (give the folder with the game's levels)\n", game);
		return 1;
	}
	find_start(game_abs, start, sizeof(start));
	if (start[0] == '\0') {
		fprintf(stderr, PK "'%s' holds no level: no .lua file at its top\n", game);
		return 1;
	}
	bool exists = false;
	if (!empty_or_missing(out, &exists)) {
		fprintf(stderr, PK "'%s' exists and is not an empty folder (give a new folder)\n", out);
		return 1;
	}
	if (!resolve_out(out, out_abs, sizeof(out_abs))) return 1;
	size_t gn = strlen(game_abs);
	if (strcmp(out_abs, game_abs) == 0 ||
	    (strncmp(out_abs, game_abs, gn) == 0 && (out_abs[gn] == '/' || strcmp(game_abs, "/") == 0))) {
		fprintf(stderr, PK "'%s' is inside the game's folder '%s' (it would pack itself)\n", out, game);
		return 1;
	}
	join(path, root ? root : "", "lua/levelkit.lua");
	if (root == NULL || !th_is_file(path)) {
		fprintf(stderr, PK "cannot find the runtime's lua/ folder (levelkit.lua) beside the binary\n");
		return 1;
	}
	char exe[PK_PATH];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		fprintf(stderr, PK "cannot find the running binary: %s\n", strerror(errno));
		return 1;
	}
	exe[n] = '\0';

	if (!exists && !make_dir(out_abs)) return 1;
	bool ok = true;
	join(path, out_abs, "tumble");
	ok = ok && copy_file(exe, path, 0755);
	char lua_src[PK_PATH], lua_dst[PK_PATH];
	join(lua_src, root, "lua");
	join(lua_dst, out_abs, "lua");
	ok = ok && copy_tree(lua_src, lua_dst, runtime_module, 0);
	join(lua_src, root, "lua/fonts");
	join(lua_dst, out_abs, "lua/fonts");
	if (ok && th_is_dir(lua_src)) ok = copy_tree(lua_src, lua_dst, NULL, 0);
	join(path, out_abs, "game");
	ok = ok && copy_tree(game_abs, path, NULL, 0);
	if (ok) {
		char text[4096];
		snprintf(text, sizeof(text),
		         "#!/bin/sh\n"
		         "# Runs the game: ./play [LEVEL.lua] [tumble options]; without LEVEL, game/%s.\n"
		         "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
		         "level=%s\n"
		         "case ${1:-} in *.lua) level=$1; shift ;; esac\n"
		         "exec \"$here/tumble\" --no-watch \"$@\" \"$here/game/$level\"\n",
		         start, start);
		join(path, out_abs, "play");
		ok = write_text(path, text, 0755);
		snprintf(text, sizeof(text),
		         "Run the game with ./play (it starts game/%s; ./play OTHER.lua starts\n"
		         "another level of game/, and tumble's options follow, e.g. ./play --size 800x600).\n"
		         "It needs SDL2 (with SDL2_image, SDL2_mixer, SDL2_ttf) and Lua 5.4's shared\n"
		         "libraries, as the tumble it was packed with. web/, when present, is the same\n"
		         "game for a browser: serve that folder with any static file server.\n",
		         start);
		join(path, out_abs, "README.txt");
		ok = ok && write_text(path, text, 0644);
	}
	ok = ok && package_web(root, game_abs, out_abs);
	if (!ok) {
		fprintf(stderr, PK "stopped; '%s' holds a partial package\n", out);
		return 1;
	}
	printf("package: %s is ready: %s/play runs game/%s\n", out_abs, out_abs, start);
	return 0;
}

int th_package(const char *game, const char *out)
{
	char *root = th_app_find_root();
	int rc = package_with_root(game, out, root);
	free(root);
	return rc;
}
