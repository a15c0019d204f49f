/* tumble host: the limits a level runs under (see sandbox.h): the Lua
 * allocator cap, the instruction budget, the time limit's stop, the output
 * budget, and the stripped, guarded standard library used by --sandbox. */
#include "sandbox.h"
#include "searcher.h"
#include "sbxlib.h"
#include "watchdog.h"
#include "tumble/tumble_lua.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lauxlib.h>
#include <lualib.h>

static void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	th_sandbox *sb = ud;
	/* When ptr is NULL, osize encodes the kind of object, not a size. */
	size_t old = ptr != NULL ? osize : 0;
	if (nsize == 0) {
		free(ptr);
		sb->used -= old;
		return NULL;
	}
	/* Lua requires shrinking never to fail, so only growth is checked. */
	if (sb->enforce && sb->limit != 0 && nsize > old && sb->used - old + nsize > sb->limit) {
		sb->limit_hit = true;
		/* One refusal stops the callback: a loop that catches "not enough
		 * memory" would otherwise pay a full emergency collection per turn and
		 * crawl on for ever. */
		th_sandbox_interrupt(sb, TH_STOP_MEMORY);
		return NULL;
	}
	void *block = realloc(ptr, nsize);
	if (block == NULL) return NULL;
	sb->used = sb->used - old + nsize;
	return block;
}

static th_sandbox *sandbox_of(lua_State *L)
{
	void *ud = NULL;
	return lua_getallocf(L, &ud) == sandbox_alloc ? ud : NULL;
}

static int sandbox_panic(lua_State *L)
{
	const char *msg = lua_tostring(L, -1);
	fprintf(stderr, "tumble: unprotected Lua error: %s\n", msg != NULL ? msg : "?");
	abort();
	return 0;
}

lua_State *th_sandbox_new_state(th_sandbox *sb)
{
	lua_State *L = lua_newstate(sandbox_alloc, sb);
	if (L != NULL) lua_atpanic(L, sandbox_panic);
	sb->main = sb->current = L;
	return L;
}

/* ---------------- stopping a callback ---------------- */

const char *th_sandbox_stop_message(const th_sandbox *sb, char *buf, size_t size)
{
	const char *phase = sb->phase != NULL ? sb->phase : "level code";
	switch ((th_stop)sb->stop) {
	case TH_STOP_TIME: snprintf(buf, size, "time limit exceeded in %s (%g s)", phase, sb->time_limit); break;
	case TH_STOP_INSTRUCTIONS:
		snprintf(buf, size, "instruction limit exceeded in %s (%lld instructions)", phase, sb->instr_limit);
		break;
	case TH_STOP_MEMORY:
		snprintf(buf, size, "memory limit exceeded in %s (%g MB)", phase, (double)sb->limit / (1024.0 * 1024.0));
		break;
	case TH_STOP_SIGNAL:
		snprintf(buf, size, "interrupted in %s (%s: the run ends)", phase,
		         th_watchdog_quit_signal() == SIGINT ? "SIGINT" : "SIGTERM");
		break;
	default: return NULL;
	}
	return buf;
}

static void hook(lua_State *L, lua_Debug *ar);

static int raise_stop(lua_State *L, th_sandbox *sb)
{
	/* Every further instruction of this thread fails too. */
	lua_sethook(L, hook, LUA_MASKCOUNT, 1);
	char buf[200];
	th_sandbox_stop_message(sb, buf, sizeof(buf));
	return luaL_error(L, "%s", buf);
}

static void hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	th_sandbox *sb = sandbox_of(L);
	if (sb == NULL) return;
	if (sb->enforce && sb->stop != TH_STOP_NONE) raise_stop(L, sb);
	if (sb->instr_limit <= 0) {
		/* Left on a coroutine by a stop that is over. */
		lua_sethook(L, NULL, 0, 0);
		return;
	}
	if (!sb->enforce) return;
	sb->instr_count += lua_gethookcount(L);
	if (sb->instr_count > sb->instr_limit) {
		th_sandbox_interrupt(sb, TH_STOP_INSTRUCTIONS);
		raise_stop(L, sb);
	}
	if (lua_gethookcount(L) != sb->instr_step) lua_sethook(L, hook, LUA_MASKCOUNT, sb->instr_step);
}

void th_sandbox_interrupt(th_sandbox *sb, th_stop why)
{
	if (!sb->enforce) return;
	if (sb->stop == TH_STOP_NONE) sb->stop = why;
	/* lua_sethook is safe in a signal handler (lua.c stops scripts on ^C the
	 * same way); it is all this function does to the state. */
	if (sb->current != NULL) lua_sethook(sb->current, hook, LUA_MASKCOUNT, 1);
}

void th_sandbox_tick(lua_State *L, long long steps)
{
	th_sandbox *sb = sandbox_of(L);
	if (sb == NULL || !sb->enforce) return;
	if (sb->stop == TH_STOP_NONE && sb->instr_limit > 0) {
		sb->instr_count += steps;
		if (sb->instr_count > sb->instr_limit) th_sandbox_interrupt(sb, TH_STOP_INSTRUCTIONS);
	}
	if (sb->stop != TH_STOP_NONE) raise_stop(L, sb);
}

/* The watchdog watches every callback: for its time limit, and without one
 * (--time-limit 0) still for SIGINT and SIGTERM, which stop the callback. */
static void arm_watchdog(th_sandbox *sb, const char *phase)
{
	if (sb->time_limit > 0 && th_watchdog_start()) {
		th_watchdog_arm(sb, phase, sb->time_limit, th_watchdog_hard_limit(sb->time_limit));
	} else if (sb->time_limit <= 0 && th_watchdog_running()) {
		th_watchdog_arm(sb, phase, TH_WATCHDOG_NEVER, TH_WATCHDOG_NEVER);
	}
}

void th_sandbox_begin(lua_State *L, th_sandbox *sb, const char *phase)
{
	if (sb->depth++ > 0) return;
	sb->phase = phase;
	sb->limit_hit = false;
	sb->stop = TH_STOP_NONE;
	sb->main = sb->current = L;
	sb->instr_count = 0;
	if (sb->instr_limit > 0) {
		sb->instr_step = sb->instr_limit < 1000 ? (int)sb->instr_limit : 1000;
		/* Setting the hook also restarts its countdown. */
		lua_sethook(L, hook, LUA_MASKCOUNT, sb->instr_step);
	}
	sb->enforce = true;
	arm_watchdog(sb, phase);
}

void th_sandbox_end(lua_State *L, th_sandbox *sb)
{
	if (sb->depth == 0 || --sb->depth > 0) return;
	/* Disarm first: a late signal then finds nothing to stop. */
	th_watchdog_disarm();
	sb->enforce = false;
	sb->current = sb->main;
	/* The host's own Lua glue runs unhooked (and a tripped hook is disarmed).
	 * Without a budget of ours, a hook the (trusted) level set itself stays. */
	if (sb->instr_limit > 0 || sb->stop != TH_STOP_NONE) lua_sethook(L, NULL, 0, 0);
}

void th_sandbox_close(lua_State *L, th_sandbox *sb)
{
	if (L == NULL) return;
	/* No hook runs inside a finalizer, so only the memory cap and the
	 * watchdog's hard stop can bound lua_close. */
	sb->depth = 0;
	sb->phase = "closing the level (finalizers)";
	sb->stop = TH_STOP_NONE;
	sb->current = NULL;
	sb->enforce = true;
	arm_watchdog(sb, sb->phase);
	lua_close(L);
	th_watchdog_disarm();
	sb->enforce = false;
	sb->main = NULL;
}

void th_sandbox_world_limits(lua_State *L, const th_sandbox *sb)
{
	if (!sb->strict) return;
	tb_world_limits limits = {0};
	limits.max_bodies = TH_SANDBOX_MAX_BODIES;
	limits.max_shapes = TH_SANDBOX_MAX_SHAPES;
	limits.max_joints = TH_SANDBOX_MAX_JOINTS;
	limits.max_contacts = TH_SANDBOX_MAX_CONTACTS;
	tumble_lua_set_world_limits(L, &limits);
}

/* ---------------- guards for every run ---------------- */

/* xpcall whose message handler does not run while a callback is being
 * stopped: an error raised from a hook calls the handler with hooks off, so a
 * handler that loops could never be stopped. */
static int xpcall_guard(lua_State *L)
{
	th_sandbox *sb = sandbox_of(L);
	if (sb != NULL && sb->enforce && sb->stop != TH_STOP_NONE) {
		lua_settop(L, 1);
		return 1;
	}
	int n = lua_gettop(L);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, n, 1);
	return 1;
}

static int finish_call(lua_State *L, int status, lua_KContext extra)
{
	(void)status;
	(void)extra;
	return lua_gettop(L);
}

static int sandbox_xpcall(lua_State *L)
{
	int n = lua_gettop(L);
	luaL_checktype(L, 2, LUA_TFUNCTION);
	lua_pushvalue(L, 2);
	lua_pushcclosure(L, xpcall_guard, 1);
	lua_replace(L, 2);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	/* with a continuation, so a coroutine can still yield inside xpcall */
	lua_callk(L, n, LUA_MULTRET, 0, finish_call);
	return lua_gettop(L);
}

/* The coroutine functions track which thread runs level code, so the
 * watchdog stops the thread that is looping, not the one waiting for it. */
static int tracked_call(lua_State *L, lua_State *co, int fn_upvalue)
{
	th_sandbox *sb = sandbox_of(L);
	int n = lua_gettop(L);
	lua_pushvalue(L, lua_upvalueindex(fn_upvalue));
	lua_insert(L, 1);
	lua_State *prev = sb != NULL ? sb->current : NULL;
	if (sb != NULL) sb->current = co;
	int status = lua_pcall(L, n, LUA_MULTRET, 0);
	if (sb != NULL) {
		sb->current = prev;
		/* stopped while the coroutine ran: the caller's thread stops too */
		if (sb->enforce && sb->stop != TH_STOP_NONE) lua_sethook(L, hook, LUA_MASKCOUNT, 1);
	}
	/* an error: minus the status, with the error object on top */
	if (status != LUA_OK) return -status;
	return lua_gettop(L);
}

static int co_resume(lua_State *L)
{
	lua_State *co = lua_tothread(L, 1);
	luaL_argexpected(L, co != NULL, 1, "coroutine");
	int n = tracked_call(L, co, 1);
	if (n < 0) return lua_error(L);
	return n;
}

static int co_close(lua_State *L)
{
	lua_State *co = lua_tothread(L, 1);
	luaL_argexpected(L, co != NULL, 1, "coroutine");
	int n = tracked_call(L, co, 1);
	if (n < 0) return lua_error(L);
	return n;
}

/* upvalues: the stock wrap's function, its coroutine */
static int co_wrapped(lua_State *L)
{
	int n = tracked_call(L, lua_tothread(L, lua_upvalueindex(2)), 1);
	if (n >= 0) return n;
	/* the stock function adds its caller's position; we are that caller now */
	if (n != -LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
		luaL_where(L, 1);
		lua_insert(L, -2);
		lua_concat(L, 2);
	}
	return lua_error(L);
}

static int co_wrap(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TFUNCTION);
	lua_settop(L, 1);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, 1, 1);
	if (lua_getupvalue(L, -1, 1) == NULL || !lua_isthread(L, -1)) {
		/* not the stock wrap we know: hand it out unwrapped */
		lua_settop(L, 1);
		return 1;
	}
	lua_pushcclosure(L, co_wrapped, 2);
	return 1;
}

/* t[name] = fn with the old t[name] as its first upvalue. */
static void wrap_field(lua_State *L, int t, const char *name, lua_CFunction fn)
{
	t = lua_absindex(L, t);
	lua_getfield(L, t, name);
	lua_pushcclosure(L, fn, 1);
	lua_setfield(L, t, name);
}

/* ---------------- the strict library ---------------- */

/* ---------------- parsing within the budget ---------------- */

/* The parser is handed its text in pieces of PARSE_PIECE bytes, and between
 * two pieces the budget is charged (a byte an instruction) and a stop gets
 * through. Lua's parser does work that grows faster than the text (a chain
 * of 100,000 `and`s walks its jump list once per `and`: seconds of C), but
 * it does that work as the tokens arrive, so with small pieces the time
 * limit ends a parse within a fraction of a second of firing, not at the
 * watchdog's hard stop. */
#define PARSE_PIECE 64

typedef struct piece_reader {
	const char *text; /* what is left of the current block */
	size_t left;
	int fn;           /* stack index of a reader function, or 0 */
	int slot;         /* stack index that anchors its last block */
} piece_reader;

static const char *read_piece(lua_State *L, void *ud, size_t *size)
{
	piece_reader *r = ud;
	if (r->left == 0 && r->fn != 0) {
		/* the next block from the level's reader function (as the stock
		 * load does it) */
		luaL_checkstack(L, 2, "too many nested functions");
		th_sandbox_tick(L, 64);
		lua_pushvalue(L, r->fn);
		lua_call(L, 0, 1);
		if (lua_isnil(L, -1)) {
			lua_pop(L, 1);
			r->fn = 0;
		} else if (!lua_isstring(L, -1)) {
			luaL_error(L, "reader function must return a string");
		} else {
			lua_replace(L, r->slot);
			r->text = lua_tolstring(L, r->slot, &r->left);
		}
	}
	if (r->left == 0) {
		*size = 0;
		return NULL;
	}
	size_t n = r->left < PARSE_PIECE ? r->left : PARSE_PIECE;
	th_sandbox_tick(L, (long long)n);
	const char *piece = r->text;
	r->text += n;
	r->left -= n;
	*size = n;
	return piece;
}

int th_sandbox_load_buffer(lua_State *L, const char *text, size_t size, const char *chunkname, const char *mode)
{
	th_sandbox *sb = sandbox_of(L);
	if (sb != NULL && sb->strict && size > TH_SANDBOX_MAX_CHUNK) {
		lua_pushfstring(L, "%s: chunk too large to load (%d MB at most in the sandbox)",
		                chunkname != NULL ? chunkname : "?", (int)(TH_SANDBOX_MAX_CHUNK >> 20));
		return LUA_ERRSYNTAX;
	}
	piece_reader r = {text, size, 0, 0};
	return lua_load(L, read_piece, &r, chunkname, mode);
}

int th_sandbox_load_file(lua_State *L, const char *path, const char *mode)
{
	th_sandbox *sb = sandbox_of(L);
	size_t cap = sb != NULL && sb->strict ? TH_SANDBOX_MAX_CHUNK : ((size_t)1 << 30);
	const char *why = NULL;
	char *text = NULL;
	size_t size = 0;
	/* without blocking, and only a regular file: a FIFO or a device put in
	 * the level's place is refused at once */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0) {
		why = strerror(errno);
	} else if (fstat(fd, &st) != 0) {
		why = strerror(errno);
	} else if (!S_ISREG(st.st_mode)) {
		why = S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
	} else if ((unsigned long long)st.st_size > cap) {
		why = "file too large to load";
	} else if ((text = malloc((size_t)st.st_size + 1)) == NULL) {
		why = "out of memory";
	} else {
		for (;;) {
			ssize_t n = read(fd, text + size, (size_t)st.st_size + 1 - size);
			if (n < 0 && errno == EINTR) continue;
			if (n < 0) {
				why = strerror(errno);
				break;
			}
			if (n == 0) break;
			size += (size_t)n;
			if (size > (size_t)st.st_size) {
				why = "file changed while it was read";
				break;
			}
		}
	}
	if (fd >= 0) close(fd);
	if (why != NULL) {
		free(text);
		lua_pushfstring(L, "cannot %s %s: %s", text == NULL ? "open" : "read", path, why);
		return LUA_ERRFILE;
	}
	/* as luaL_loadfilex: a UTF-8 byte order mark and a first line starting
	 * with '#' are skipped (the line's newline stays, for the line numbers) */
	size_t skip = 0;
	if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) skip = 3;
	if (skip < size && text[skip] == '#') {
		while (skip < size && text[skip] != '\n') skip++;
	}
	lua_pushfstring(L, "@%s", path);
	int status = th_sandbox_load_buffer(L, text + skip, size - skip, lua_tostring(L, -1), mode);
	free(text);
	lua_remove(L, -2);
	return status;
}

/* load(chunk [, chunkname [, mode [, env]]]) as Lua 5.4's, parsed in pieces;
 * upvalue 1: whether binary chunks are refused (the sandbox: crafted bytecode
 * is arbitrary memory access in the VM). */
static int sandbox_load(lua_State *L)
{
	size_t len = 0;
	const char *s = lua_tolstring(L, 1, &len);
	const char *mode = lua_toboolean(L, lua_upvalueindex(1)) ? "t" : luaL_optstring(L, 3, "bt");
	int env = !lua_isnone(L, 4) ? 4 : 0;
	int status;
	if (s != NULL) {
		const char *chunkname = luaL_optstring(L, 2, s);
		status = th_sandbox_load_buffer(L, s, len, chunkname, mode);
	} else {
		const char *chunkname = luaL_optstring(L, 2, "=(load)");
		luaL_checktype(L, 1, LUA_TFUNCTION);
		lua_settop(L, 5); /* 5: the reserved slot for the reader's last block */
		piece_reader r = {NULL, 0, 1, 5};
		status = lua_load(L, read_piece, &r, chunkname, mode);
	}
	return th_sandbox_load_result(L, status, env);
}

int th_sandbox_load_result(lua_State *L, int status, int env)
{
	if (status != LUA_OK) {
		luaL_pushfail(L);
		lua_insert(L, -2);
		return 2;
	}
	if (env != 0) {
		lua_pushvalue(L, env);
		if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
	}
	return 1;
}

/* No finalizers written in Lua: no hook runs inside a finalizer, so one that
 * loops could be stopped only by ending the process. Lua marks an object for
 * finalization when setmetatable sees __gc, so refusing it there is enough. */
static int sandbox_setmetatable(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL) {
			return luaL_error(L, "setmetatable: __gc metamethods are not allowed in the sandbox");
		}
		lua_pop(L, 1);
	}
	lua_settop(L, 2);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, 2, 1);
	return 1;
}

void th_sandbox_setmetatable_unmarked(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	int mt = lua_gettop(L);
	lua_pushliteral(L, "__gc");
	if (lua_rawget(L, mt) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_setmetatable(L, idx);
		return;
	}
	/* Lua marks an object for finalization when its new metatable has __gc:
	 * take the field away for that moment. The key stays in the table (the
	 * collector is stopped), so putting the value back allocates nothing. */
	lua_pushliteral(L, "__gc");
	lua_pushnil(L);
	lua_rawset(L, mt);
	lua_pushvalue(L, mt);
	lua_setmetatable(L, idx);
	lua_pushliteral(L, "__gc");
	lua_insert(L, -2);
	lua_rawset(L, mt);
	lua_pop(L, 1);
}

/* Length of the valid UTF-8 sequence at s (1..4) that is not a C1 control,
 * or 0. */
static size_t utf8_ok(const unsigned char *s, size_t left)
{
	unsigned char c = s[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xBF; /* range of the second byte */
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		if (c == 0xC2) lo = 0xA0; /* C2 80..9F: U+0080..U+009F, the C1 controls */
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		if (c == 0xE0) lo = 0xA0;
		if (c == 0xED) hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		if (c == 0xF0) lo = 0x90;
		if (c == 0xF4) hi = 0x8F;
	} else {
		return 0;
	}
	if (left < n || s[1] < lo || s[1] > hi) return 0;
	for (size_t i = 2; i < n; ++i) {
		if (s[i] < 0x80 || s[i] > 0xBF) return 0;
	}
	return n;
}

void th_sandbox_clean_text(char *text, size_t len)
{
	unsigned char *s = (unsigned char *)text;
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		if (c < 0x80) {
			if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) s[i] = '?';
			i += 1;
			continue;
		}
		size_t n = utf8_ok(s + i, len - i);
		if (n == 0) {
			s[i] = '?';
			n = 1;
		}
		i += n;
	}
}

static void write_clean(const char *s, size_t len, FILE *out)
{
	char buf[4096];
	while (len > 0) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);
		/* do not cut a UTF-8 sequence in two */
		while (n < len && n > sizeof(buf) - 4 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
		memcpy(buf, s, n);
		th_sandbox_clean_text(buf, n);
		fwrite(buf, 1, n, out);
		s += n;
		len -= n;
	}
}

/* The text as it is (trusted) or cleaned (the sandbox). */
static void write_text(const th_sandbox *sb, const char *s, size_t len, FILE *out)
{
	if (sb->strict) {
		write_clean(s, len, out);
	} else {
		fwrite(s, 1, len, out);
	}
}

#define CUT_LINE 1024

void th_sandbox_write_text(th_sandbox *sb, FILE *out, const char *prefix, const char *text, size_t len)
{
	size_t total = strlen(prefix) + len + 1;
	if (sb->output_limit == 0 || (sb->output_used <= sb->output_limit && total <= sb->output_limit - sb->output_used)) {
		if (sb->output_limit != 0) sb->output_used += total;
		fputs(prefix, out);
		write_text(sb, text, len, out);
		fputc('\n', out);
		fflush(out);
		return;
	}
	sb->output_used = sb->output_limit;
	if (sb->output_noted) return;
	sb->output_noted = true;
	size_t cut = len;
	if (cut > CUT_LINE) {
		cut = CUT_LINE;
		/* not in the middle of a UTF-8 sequence */
		while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80) cut--;
	}
	fputs(prefix, out);
	write_text(sb, text, cut, out);
	fprintf(out, "%s\ntumble: output limit reached (--output-limit %g MB): the level's further output and errors are "
	             "not written\n",
	        cut < len ? " ..." : "", (double)sb->output_limit / (1024.0 * 1024.0));
	fflush(out);
}

/* print within the run's output budget, safe for a terminal. */
static int sandbox_print(lua_State *L)
{
	th_sandbox *sb = sandbox_of(L);
	int n = lua_gettop(L);
	luaL_checkstack(L, n, "too many arguments to print");
	size_t total = 1;
	for (int i = 1; i <= n; ++i) {
		size_t len = 0;
		luaL_tolstring(L, i, &len);
		total += len + (i > 1 ? 1 : 0);
	}
	if (sb != NULL && sb->output_limit != 0) {
		if (total > sb->output_limit - sb->output_used) {
			sb->output_used = sb->output_limit;
			char buf[160];
			snprintf(buf, sizeof(buf), "output limit exceeded in %s (print may write %g MB; --output-limit)",
			         sb->phase != NULL ? sb->phase : "level", (double)sb->output_limit / (1024.0 * 1024.0));
			return luaL_error(L, "%s", buf);
		}
		sb->output_used += total;
	}
	for (int i = 1; i <= n; ++i) {
		size_t len = 0;
		const char *s = lua_tolstring(L, n + i, &len);
		if (i > 1) fputc('\t', stdout);
		write_clean(s, len, stdout);
	}
	fputc('\n', stdout);
	fflush(stdout);
	return 0;
}

/* print as the level sees it: while a replay runs (a rebuild after an edit,
 * a rewind's re-simulation) the lines were already printed the first time
 * those frames ran, so they are counted, not written again. */
static int held_print(lua_State *L)
{
	th_sandbox *sb = sandbox_of(L);
	if (sb != NULL && sb->holding) {
		++sb->held_lines;
		return 0;
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 0);
	return 0;
}

static void hold_print(lua_State *L, int g)
{
	lua_getfield(L, g, "print");
	lua_pushcclosure(L, held_print, 1);
	lua_setfield(L, g, "print");
}

void th_sandbox_open_libs(lua_State *L, th_sandbox *sb, const char *level_dir, const char *lib_dir)
{
	if (!sb->strict) {
		luaL_openlibs(L);
	} else {
		static const luaL_Reg safe[] = {
			{LUA_GNAME, luaopen_base},       {LUA_LOADLIBNAME, luaopen_package}, {LUA_COLIBNAME, luaopen_coroutine},
			{LUA_TABLIBNAME, luaopen_table}, {LUA_STRLIBNAME, luaopen_string},   {LUA_MATHLIBNAME, luaopen_math},
			{LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL},
		};
		for (const luaL_Reg *lib = safe; lib->func != NULL; ++lib) {
			luaL_requiref(L, lib->name, lib->func, 1);
			lua_pop(L, 1);
		}
	}
	lua_pushglobaltable(L);
	int g = lua_gettop(L);
	wrap_field(L, g, "xpcall", sandbox_xpcall);
	lua_pushboolean(L, sb->strict);
	lua_pushcclosure(L, sandbox_load, 1);
	lua_setfield(L, g, "load");
	lua_getfield(L, g, LUA_COLIBNAME);
	wrap_field(L, -1, "resume", co_resume);
	wrap_field(L, -1, "wrap", co_wrap);
	wrap_field(L, -1, "close", co_close);
	lua_pop(L, 1);
	if (!sb->strict) {
		hold_print(L, g);
		lua_pop(L, 1);
		return;
	}

	/* Files are read only through require (the host's searcher). */
	lua_pushnil(L);
	lua_setfield(L, g, "dofile");
	lua_pushnil(L);
	lua_setfield(L, g, "loadfile");
	wrap_field(L, g, "setmetatable", sandbox_setmetatable);
	lua_pushcfunction(L, sandbox_print);
	lua_setfield(L, g, "print");
	hold_print(L, g);

	lua_getfield(L, g, LUA_LOADLIBNAME);
	int package = lua_gettop(L);
	lua_pushnil(L);
	lua_setfield(L, package, "loadlib");
	lua_pushnil(L);
	lua_setfield(L, package, "searchpath");
	lua_pushliteral(L, "");
	lua_setfield(L, package, "cpath");
	/* A fresh searchers table: the stock preload searcher and the host's own.
	 * The stock Lua and C searchers are dropped (they read package.path and
	 * package.cpath, which a level can change through a kept reference). */
	lua_createtable(L, 2, 0);
	lua_getfield(L, package, "searchers");
	lua_rawgeti(L, -1, 1);
	lua_rawseti(L, -3, 1);
	lua_pop(L, 1);
	const char *dirs[2] = {level_dir, lib_dir};
	th_searcher_push(L, dirs, 2);
	lua_rawseti(L, -2, 2);
	lua_setfield(L, package, "searchers");
	lua_pop(L, 1);

	th_sbxlib_open(L);
	lua_pop(L, 1);
}
