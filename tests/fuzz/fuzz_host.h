/* What the host's libFuzzer targets share: a folder of their own for the
 * files a parser reads (a fresh one per process, removed at exit), and a
 * level as the host makes one for a headless, sandboxed run, far enough for
 * the media and level.conf functions (a Lua state with the standard
 * libraries, tumble.camera, the level's folder, the media budgets). No
 * window, no world. */
#ifndef TUMBLE_FUZZ_HOST_H
#define TUMBLE_FUZZ_HOST_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lauxlib.h>
#include <lualib.h>

#include "app.h"
#include "camera.h"
#include "level.h"
#include "media.h"

static char fuzz_dir[64];

static void fuzz_dir_remove(void)
{
	if (fuzz_dir[0] == '\0') return;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir);
	if (system(cmd) != 0) fprintf(stderr, "fuzz: cannot remove %s\n", fuzz_dir);
}

/* The folder, made on first use. */
static inline const char *fuzz_folder(void)
{
	if (fuzz_dir[0] == '\0') {
		/* run.sh gives a folder it removes (libFuzzer may end a run without atexit) */
		const char *base = getenv("TUMBLE_FUZZ_TMP");
		if (base == NULL) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(fuzz_dir, sizeof fuzz_dir, "%.40s/tumble-fuzz-XXXXXX", base);
		if (mkdtemp(fuzz_dir) == NULL) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(fuzz_dir_remove);
	}
	return fuzz_dir;
}

/* Writes the bytes to name in the folder (replacing it); returns the path. */
static inline const char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
	static char path[256];
	snprintf(path, sizeof path, "%s/%s", fuzz_folder(), name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror("fuzz: open");
		abort();
	}
	size_t at = 0;
	while (at < size) {
		ssize_t n = write(fd, data + at, size - at);
		if (n <= 0) {
			perror("fuzz: write");
			abort();
		}
		at += (size_t)n;
	}
	close(fd);
	return path;
}

/* One level, kept for the whole run (as the host keeps its media). */
typedef struct fuzz_level {
	th_app_options opt;
	th_media media;
	th_level lv;
} fuzz_level;

static inline fuzz_level *fuzz_level_get(void)
{
	static fuzz_level f;
	static bool made = false;
	if (!made) {
		th_app_default_options(&f.opt);
		f.opt.headless = true;
		f.opt.sandbox = true;
		th_media_init(&f.media, true);
		th_level_init(&f.lv);
		f.lv.opt = &f.opt;
		f.lv.media = &f.media;
		f.lv.level_dir = fuzz_folder();
		f.lv.L = luaL_newstate();
		luaL_openlibs(f.lv.L);
		/* tumble.camera, which level.conf's camera sets */
		lua_newtable(f.lv.L);
		th_camera_open_lua(&f.lv, f.lv.L);
		lua_setglobal(f.lv.L, "tumble");
		made = true;
	}
	return &f;
}

#endif
