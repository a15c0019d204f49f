/* tumble host: save data (tumble.save, tumble.load_save).
 *
 *   tumble.save("progress", { level = 3, best = { 12.5, 14 } })
 *   local p = tumble.load_save("progress")   -- the table, or nil: no save yet
 *
 * A save is a file <name>.save in the game's own folder of the user's data
 * directory: $TUMBLE_DATA_DIR/<game>/ if that is set (tests point it at a
 * temporary folder), else $XDG_DATA_HOME/tumble/<game>/, else
 * ~/.local/share/tumble/<game>/. <game> is the level file's name without
 * ".lua" (its folder's name for main.lua or level.lua). A name is 1 to 64
 * letters, digits, '_', '-' or '.', not starting with '.': no separator, no
 * "..", nothing outside that folder.
 *
 * The file is text in the form of a Lua table constructor, written and read
 * by the C below: a save never runs as code (no `load`), and reading one
 * makes only tables, strings, numbers and booleans. What can be saved:
 * those, as values; strings, numbers (not NaN) and booleans as keys; tables
 * nested at most 64 deep, without cycles, read raw (no metamethods); at most
 * 1 MB of text a save, 64 saves a game. Anything else is a Lua error naming
 * where it is ("save.player.on_hit: cannot save a function"). The text is
 * built in Lua's memory (the level's memory limit counts it) and its bytes are
 * charged to the output budget print uses; the file is written whole to a
 * temporary file and renamed over the old one, so a crash leaves the old save
 * or the new one, never half of one.
 *
 * Under --sandbox both are refused with a clear error: its OS lock lets the
 * process write no files and read only the level's folder.
 *
 * While the host replays frames (tumble.replaying: a rebuild or a rewind's
 * catch-up), tumble.save writes nothing (it is held back like print: the
 * frame already wrote it when it was live) and returns true; tumble.load_save
 * reads the file as it is. */
#include "level.h"
#include "sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lauxlib.h>

#define SAVE_MAX_BYTES (1024 * 1024)
#define SAVE_MAX_DEPTH 64
#define SAVE_MAX_NAME 64
#define SAVE_MAX_FILES 64
#define SAVE_EXT ".save"
#define SAVE_HEADER "-- tumble save 1\n"

static th_level *host_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* ---------------- names and folders ---------------- */

static const char *check_name(lua_State *L, int arg, const char *fn)
{
	size_t len = 0;
	if (lua_type(L, arg) != LUA_TSTRING) {
		luaL_error(L, "%s: a save's name (string) expected, got %s", fn, luaL_typename(L, arg));
	}
	const char *name = lua_tolstring(L, arg, &len);
	bool ok = len >= 1 && len <= SAVE_MAX_NAME && name[0] != '.';
	for (size_t i = 0; ok && i < len; ++i) {
		char c = name[i];
		ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		     c == '.';
	}
	if (ok && strstr(name, "..") != NULL) ok = false;
	if (!ok) {
		luaL_error(
		    L,
		    "%s: bad save name '%s': 1 to %d letters, digits, '_', '-' or '.', not starting with '.' and without '..'",
		    fn, lua_pushfstring(L, "%s", len > 80 ? "(too long)" : name), SAVE_MAX_NAME);
	}
	return name;
}

/* The game's name: the level file's stem, or its folder's for main.lua and
 * level.lua; characters outside [A-Za-z0-9_.-] become '_'. */
static void game_name(const th_level *lv, char *out, size_t size)
{
	const char *path = lv->level_path != NULL ? lv->level_path : "demo.lua";
	const char *base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".lua") == 0) n -= 4;
	char stem[256];
	snprintf(stem, sizeof(stem), "%.*s", (int)(n < 200 ? n : 200), base);
	if ((strcmp(stem, "main") == 0 || strcmp(stem, "level") == 0) && base > path + 1) {
		const char *end = base - 1, *start = end;
		while (start > path && start[-1] != '/')
			--start;
		if (end > start) snprintf(stem, sizeof(stem), "%.*s", (int)(end - start < 200 ? end - start : 200), start);
	}
	size_t k = 0;
	for (size_t i = 0; stem[i] != '\0' && k + 1 < size && k < SAVE_MAX_NAME; ++i) {
		char c = stem[i];
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		             c == '-' || (c == '.' && k > 0);
		out[k++] = plain ? c : '_';
	}
	if (k == 0) out[k++] = '_';
	out[k] = '\0';
}

/* The game's folder into out; with create, each missing level is made (0700).
 * false with errno set when it cannot be. */
static bool save_dir(const th_level *lv, bool create, char *out, size_t size)
{
	char game[SAVE_MAX_NAME + 1];
	game_name(lv, game, sizeof(game));
	const char *dir = getenv("TUMBLE_DATA_DIR"), *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char root[4096];
	if (dir != NULL && dir[0] == '/')
		snprintf(root, sizeof(root), "%s", dir);
	else if (xdg != NULL && xdg[0] == '/')
		snprintf(root, sizeof(root), "%s/tumble", xdg);
	else if (home != NULL && home[0] == '/')
		snprintf(root, sizeof(root), "%s/.local/share/tumble", home);
	else {
		errno = ENOENT;
		return false;
	}
	if ((size_t)snprintf(out, size, "%s/%s", root, game) >= size) {
		errno = ENAMETOOLONG;
		return false;
	}
	if (!create) return true;
	/* every missing folder from the root down */
	for (char *p = out + 1; *p != '\0'; ++p) {
		if (*p != '/') continue;
		*p = '\0';
		int r = mkdir(out, 0700);
		*p = '/';
		if (r != 0 && errno != EEXIST) return false;
	}
	return mkdir(out, 0700) == 0 || errno == EEXIST;
}

static int count_saves(const char *dir)
{
	DIR *d = opendir(dir);
	if (d == NULL) return 0;
	int n = 0;
	struct dirent *e;
	size_t ext = strlen(SAVE_EXT);
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (len > ext && strcmp(e->d_name + len - ext, SAVE_EXT) == 0) ++n;
	}
	closedir(d);
	return n;
}

/* ---------------- writing ---------------- */

typedef struct writer {
	lua_State *L;
	char *buf; /* NULL: counting only */
	size_t len;
	int onpath;     /* stack index: {[table] = true} for the tables being written */
	char path[512]; /* "save.a[3].b", for the messages */
	long long ticks;
} writer;

static void put(writer *w, const char *s, size_t n)
{
	if (w->buf != NULL) memcpy(w->buf + w->len, s, n);
	w->len += n;
	if (w->buf == NULL && w->len > SAVE_MAX_BYTES) {
		luaL_error(w->L, "tumble.save: more than %d bytes of text (at %s)", SAVE_MAX_BYTES, w->path);
	}
}

static void put_str(writer *w, const char *s)
{
	put(w, s, strlen(s));
}

static void put_string(writer *w, const char *s, size_t n)
{
	put(w, "\"", 1);
	for (size_t i = 0; i < n; ++i) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put(w, esc, 2);
		} else if (c == '\n') {
			put(w, "\\n", 2);
		} else if (c < 32 || c == 127) {
			snprintf(esc, sizeof(esc), "\\%03u", c);
			put(w, esc, 4);
		} else {
			put(w, (const char *)&s[i], 1);
		}
	}
	put(w, "\"", 1);
}

static void fail_at(writer *w, const char *what)
{
	luaL_error(w->L, "tumble.save: %s: %s", w->path, what);
}

/* The value at idx as text. */
static void put_value(writer *w, int idx, int depth, bool key)
{
	lua_State *L = w->L;
	char num[64];
	if ((++w->ticks & 4095) == 0) th_sandbox_tick(L, 4096);
	switch (lua_type(L, idx)) {
	case LUA_TBOOLEAN:
		put_str(w, lua_toboolean(L, idx) ? "true" : "false");
		return;
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx)) {
			snprintf(num, sizeof(num), "%lld", (long long)lua_tointeger(L, idx));
		} else {
			double v = lua_tonumber(L, idx);
			if (!isfinite(v)) fail_at(w, isnan(v) ? "cannot save NaN" : "cannot save an infinite number");
			snprintf(num, sizeof(num), "%.17g", v);
			/* a float reads back as a float */
			if (strpbrk(num, ".e") == NULL) strcat(num, ".0");
		}
		put_str(w, num);
		return;
	case LUA_TSTRING: {
		size_t n;
		const char *s = lua_tolstring(L, idx, &n);
		put_string(w, s, n);
		return;
	}
	case LUA_TTABLE:
		break;
	default:
		fail_at(w, lua_pushfstring(L, "cannot save a %s (only tables, strings, numbers and booleans)",
		                           luaL_typename(L, idx)));
	}
	if (key) fail_at(w, "cannot save a table as a key");
	if (depth >= SAVE_MAX_DEPTH) fail_at(w, lua_pushfstring(L, "tables nested more than %d deep", SAVE_MAX_DEPTH));
	luaL_checkstack(L, 6, "tumble.save");
	idx = lua_absindex(L, idx);
	lua_pushvalue(L, idx);
	if (lua_rawget(L, w->onpath) != LUA_TNIL) fail_at(w, "a cycle (this table contains itself)");
	lua_pop(L, 1);
	lua_pushvalue(L, idx);
	lua_pushboolean(L, 1);
	lua_rawset(L, w->onpath);
	put(w, "{", 1);
	size_t plen = strlen(w->path);
	lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
	/* the sequence part first, without keys */
	for (lua_Integer i = 1; i <= n; ++i) {
		snprintf(w->path + plen, sizeof(w->path) - plen, "[%lld]", (long long)i);
		lua_rawgeti(L, idx, i);
		if (lua_isnil(L, -1)) {
			lua_pop(L, 1);
			n = i - 1;
			break;
		}
		put_value(w, -1, depth + 1, false);
		lua_pop(L, 1);
		put(w, ",", 1);
	}
	lua_pushnil(L);
	while (lua_next(L, idx) != 0) {
		if (lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n) {
			lua_pop(L, 1);
			continue;
		}
		if (lua_type(L, -2) == LUA_TSTRING) {
			snprintf(w->path + plen, sizeof(w->path) - plen, ".%.60s", lua_tostring(L, -2));
		} else if (lua_type(L, -2) == LUA_TNUMBER) {
			lua_pushvalue(L, -2);
			snprintf(w->path + plen, sizeof(w->path) - plen, "[%.60s]", lua_tostring(L, -1));
			lua_pop(L, 1);
		} else {
			snprintf(w->path + plen, sizeof(w->path) - plen, "[%s key]", luaL_typename(L, -2));
		}
		put(w, "[", 1);
		put_value(w, -2, depth + 1, true);
		put(w, "]=", 2);
		put_value(w, -1, depth + 1, false);
		put(w, ",", 1);
		lua_pop(L, 1);
	}
	w->path[plen] = '\0';
	put(w, "}", 1);
	lua_pushvalue(L, idx);
	lua_pushnil(L);
	lua_rawset(L, w->onpath);
}

static bool write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR) continue;
		if (k <= 0) return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

static const char *why(int err)
{
	return strerror(err);
}

/* --sandbox locks the process (Landlock, seccomp) so that it writes no files
 * and reads only the level's folder: save data is refused there, clearly. */
static void check_allowed(lua_State *L, const th_level *lv, const char *fn)
{
	if (lv->opt != NULL && lv->opt->sandbox) {
		luaL_error(
		    L, "%s: save data is off under --sandbox (the level may write no files and read only its own folder)", fn);
	}
}

/* The second pass of a save's text, once the first has measured it (w->len,
 * and thrown any error): the header, the value at idx and a newline in a new
 * userdata of `total` bytes on the stack, which is returned. */
static char *write_text(writer *w, int idx, size_t total)
{
	char *buf = lua_newuserdatauv(w->L, total, 0);
	memcpy(buf, SAVE_HEADER, strlen(SAVE_HEADER));
	w->buf = buf + strlen(SAVE_HEADER);
	w->len = 0;
	snprintf(w->path, sizeof(w->path), "save");
	put_value(w, idx, 0, false);
	buf[total - 1] = '\n';
	return buf;
}

/* tumble.save(name, value) -> true */
static int tumble_save(lua_State *L)
{
	th_level *lv = host_up(L);
	const char *name = check_name(L, 1, "tumble.save");
	check_allowed(L, lv, "tumble.save");
	if (lua_isnoneornil(L, 2))
		return luaL_error(L, "tumble.save: a value to save expected (a table), got %s", luaL_typename(L, 2));
	lua_settop(L, 2);
	lua_newtable(L); /* 3: the tables on the path */
	writer w = {.L = L, .onpath = 3};
	snprintf(w.path, sizeof(w.path), "save");
	/* first the size (and every error), then the text into Lua's memory */
	put_value(&w, 2, 0, false);
	size_t total = strlen(SAVE_HEADER) + w.len + 1;
	th_sandbox *sb = &lv->sandbox;
	if (sb->output_limit != 0 && (sb->output_used > sb->output_limit || total > sb->output_limit - sb->output_used)) {
		return luaL_error(L, "tumble.save: the output limit (--output-limit) is spent: the save is not written");
	}
	if (lv->replaying) {
		/* this frame wrote it when it was live */
		lua_pushboolean(L, 1);
		return 1;
	}
	char *buf = write_text(&w, 2, total);
	if (sb->output_limit != 0) sb->output_used += total;

	char dir[4096], file[4200], tmp[4300];
	if (!save_dir(lv, true, dir, sizeof(dir))) {
		return luaL_error(L, "tumble.save: cannot make the save folder '%s': %s", dir, why(errno));
	}
	snprintf(file, sizeof(file), "%s/%s%s", dir, name, SAVE_EXT);
	struct stat st;
	if (lstat(file, &st) != 0 && count_saves(dir) >= SAVE_MAX_FILES) {
		return luaL_error(L, "tumble.save: '%s' would be this game's save number %d; at most %d", name,
		                  SAVE_MAX_FILES + 1, SAVE_MAX_FILES);
	}
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name);
	int fd = mkstemp(tmp);
	if (fd < 0) return luaL_error(L, "tumble.save: cannot write '%s': %s", file, why(errno));
	bool ok = write_all(fd, buf, total) && fsync(fd) == 0;
	int err = errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		err = errno;
	}
	if (ok && rename(tmp, file) != 0) {
		ok = false;
		err = errno;
	}
	if (!ok) {
		unlink(tmp);
		return luaL_error(L, "tumble.save: cannot write '%s': %s", file, why(err));
	}
	lua_pushboolean(L, 1);
	return 1;
}

/* ---------------- reading ---------------- */

typedef struct reader {
	lua_State *L;
	const char *p, *end, *start;
	const char *name;
	long long ticks;
} reader;

static int line_of(const reader *r)
{
	int line = 1;
	for (const char *q = r->start; q < r->p; ++q)
		line += *q == '\n';
	return line;
}

static void damaged(reader *r, const char *what)
{
	luaL_error(r->L, "tumble.load_save: save '%s' is damaged (line %d: %s)", r->name, line_of(r), what);
}

static void skip_space(reader *r)
{
	for (;;) {
		while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
			++r->p;
		/* a comment line ("-- tumble save 1") */
		if (r->end - r->p >= 2 && r->p[0] == '-' && r->p[1] == '-') {
			while (r->p < r->end && *r->p != '\n')
				++r->p;
			continue;
		}
		return;
	}
}

static void read_value(reader *r, int depth);

static void read_string(reader *r)
{
	luaL_Buffer b;
	luaL_buffinit(r->L, &b);
	++r->p; /* the opening quote */
	for (;;) {
		if (r->p >= r->end) damaged(r, "a string without its closing quote");
		char c = *r->p++;
		if (c == '"') break;
		if (c == '\n') damaged(r, "a line break inside a string");
		if (c != '\\') {
			luaL_addchar(&b, c);
			continue;
		}
		if (r->p >= r->end) damaged(r, "a string without its closing quote");
		c = *r->p++;
		if (c == 'n')
			luaL_addchar(&b, '\n');
		else if (c == '"' || c == '\\')
			luaL_addchar(&b, c);
		else if (c >= '0' && c <= '9') {
			int v = c - '0';
			for (int k = 0; k < 2 && r->p < r->end && *r->p >= '0' && *r->p <= '9'; ++k)
				v = v * 10 + (*r->p++ - '0');
			if (v > 255) damaged(r, "a character code above 255");
			luaL_addchar(&b, (char)v);
		} else
			damaged(r, "an unknown escape in a string");
	}
	luaL_pushresult(&b);
}

static void read_number(reader *r)
{
	const char *s = r->p;
	if (r->p < r->end && *r->p == '-') ++r->p;
	while (r->p < r->end && ((*r->p >= '0' && *r->p <= '9') || *r->p == '.' || *r->p == 'e' || *r->p == 'E' ||
	                         ((*r->p == '+' || *r->p == '-') && (r->p[-1] == 'e' || r->p[-1] == 'E')))) {
		++r->p;
	}
	char tok[64];
	size_t n = (size_t)(r->p - s);
	if (n == 0 || n >= sizeof(tok)) damaged(r, "a bad number");
	memcpy(tok, s, n);
	tok[n] = '\0';
	if (lua_stringtonumber(r->L, tok) != n + 1) damaged(r, "a bad number");
	if (lua_isnumber(r->L, -1) && !lua_isinteger(r->L, -1) && !isfinite(lua_tonumber(r->L, -1)))
		damaged(r, "a number out of range");
}

static void read_table(reader *r, int depth)
{
	lua_State *L = r->L;
	if (depth >= SAVE_MAX_DEPTH) damaged(r, "tables nested too deep");
	luaL_checkstack(L, 4, "tumble.load_save");
	++r->p; /* { */
	lua_newtable(L);
	lua_Integer next = 1;
	for (;;) {
		skip_space(r);
		if (r->p >= r->end) damaged(r, "a table without its closing '}'");
		if (*r->p == '}') {
			++r->p;
			return;
		}
		if (*r->p == '[') {
			++r->p;
			skip_space(r);
			if (r->p < r->end && *r->p == '{') damaged(r, "a table as a key");
			read_value(r, depth + 1);
			skip_space(r);
			if (r->p + 1 >= r->end || r->p[0] != ']') damaged(r, "']' expected");
			++r->p;
			skip_space(r);
			if (r->p >= r->end || *r->p != '=') damaged(r, "'=' expected");
			++r->p;
			skip_space(r);
			read_value(r, depth + 1);
			lua_rawset(L, -3);
		} else {
			read_value(r, depth + 1);
			lua_rawseti(L, -2, next++);
		}
		skip_space(r);
		if (r->p < r->end && *r->p == ',')
			++r->p;
		else if (r->p < r->end && *r->p != '}')
			damaged(r, "',' or '}' expected");
	}
}

static void read_value(reader *r, int depth)
{
	if ((++r->ticks & 4095) == 0) th_sandbox_tick(r->L, 4096);
	skip_space(r);
	if (r->p >= r->end) damaged(r, "a value expected");
	size_t left = (size_t)(r->end - r->p);
	char c = *r->p;
	if (c == '{')
		read_table(r, depth);
	else if (c == '"')
		read_string(r);
	else if (c == '-' || (c >= '0' && c <= '9'))
		read_number(r);
	else if (left >= 4 && memcmp(r->p, "true", 4) == 0) {
		r->p += 4;
		lua_pushboolean(r->L, 1);
	} else if (left >= 5 && memcmp(r->p, "false", 5) == 0) {
		r->p += 5;
		lua_pushboolean(r->L, 0);
	} else
		damaged(r, "a value expected (a table, string, number or boolean)");
}

/* tumble.load_save(name) -> value, or nil when there is no such save */
static int tumble_load_save(lua_State *L)
{
	th_level *lv = host_up(L);
	const char *name = check_name(L, 1, "tumble.load_save");
	check_allowed(L, lv, "tumble.load_save");
	char dir[4096], file[4200];
	if (!save_dir(lv, false, dir, sizeof(dir))) {
		return luaL_error(L, "tumble.load_save: no save folder: %s (set HOME or XDG_DATA_HOME)", why(errno));
	}
	snprintf(file, sizeof(file), "%s/%s%s", dir, name, SAVE_EXT);
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT) {
		lua_pushnil(L);
		return 1;
	}
	if (fd < 0) return luaL_error(L, "tumble.load_save: cannot open '%s': %s", file, why(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SAVE_MAX_BYTES + 64) {
		close(fd);
		return luaL_error(L, "tumble.load_save: '%s' is not a regular file of at most %d bytes", file, SAVE_MAX_BYTES);
	}
	size_t size = (size_t)st.st_size;
	char *buf = lua_newuserdatauv(L, size + 1, 0);
	size_t got = 0;
	while (got < size) {
		ssize_t k = read(fd, buf + got, size - got);
		if (k < 0 && errno == EINTR) continue;
		if (k <= 0) break;
		got += (size_t)k;
	}
	close(fd);
	reader r = {.L = L, .p = buf, .end = buf + got, .start = buf, .name = name};
	read_value(&r, 0);
	skip_space(&r);
	if (r.p != r.end) damaged(&r, "more after the value");
	return 1;
}

/* ---------------- the format alone (the fuzz target's way in) ---------------- */

int th_save_encode_lua(lua_State *L)
{
	luaL_checkany(L, 1);
	lua_settop(L, 1);
	lua_newtable(L); /* 2: the tables on the path */
	writer w = {.L = L, .onpath = 2};
	snprintf(w.path, sizeof(w.path), "save");
	put_value(&w, 1, 0, false);
	size_t total = strlen(SAVE_HEADER) + w.len + 1;
	char *buf = write_text(&w, 1, total);
	lua_pushlstring(L, buf, total);
	return 1;
}

int th_save_decode_lua(lua_State *L)
{
	size_t n;
	const char *text = luaL_checklstring(L, 1, &n);
	if (n > SAVE_MAX_BYTES + 64) return luaL_error(L, "tumble.load_save: more than %d bytes", SAVE_MAX_BYTES);
	reader r = {.L = L, .p = text, .end = text + n, .start = text, .name = "text"};
	read_value(&r, 0);
	skip_space(&r);
	if (r.p != r.end) damaged(&r, "more after the value");
	return 1;
}

void th_save_open_lua(th_level *lv, lua_State *L)
{
	lua_pushlightuserdata(L, lv);
	lua_pushcclosure(L, tumble_save, 1);
	lua_setfield(L, -2, "save");
	lua_pushlightuserdata(L, lv);
	lua_pushcclosure(L, tumble_load_save, 1);
	lua_setfield(L, -2, "load_save");
}
