/* tumble host: the limits a level runs under. Every Lua state of the host uses
 * this allocator (so the overlay can show Lua memory) and every call into
 * level code is bracketed by th_sandbox_begin / th_sandbox_end, which arm the
 * caps: memory, instructions (--sandbox), wall-clock time per callback (every
 * run, through the watchdog) and printed output. The caps only bite while
 * level code runs, so the host's own glue never fails half-way.
 *
 * A callback that breaks a limit is stopped, not merely sent one error: from
 * then on every VM instruction it runs raises the same error, so neither
 * pcall nor an xpcall message handler can swallow it and carry on. */
#ifndef TH_HOST_SANDBOX_H
#define TH_HOST_SANDBOX_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <lua.h>

typedef enum th_stop {
	TH_STOP_NONE,
	TH_STOP_TIME,         /* the callback ran past its wall-clock budget */
	TH_STOP_INSTRUCTIONS, /* past --instr-limit */
	TH_STOP_MEMORY,       /* an allocation past --mem-limit was refused */
	TH_STOP_SIGNAL,       /* SIGINT or SIGTERM: the run is ending */
} th_stop;

typedef struct th_sandbox {
	bool strict;              /* --sandbox: the stripped library and the root fixes */
	size_t used;              /* bytes held by the Lua state */
	size_t limit;             /* 0 = no cap */
	bool enforce;             /* true while level code runs */
	bool limit_hit;           /* an allocation was refused since the last begin */
	long long instr_limit;    /* 0 = no limit */
	long long instr_count;
	int instr_step;           /* hook granularity */
	double time_limit;        /* seconds per callback, 0 = none (the watchdog) */
	size_t output_limit;      /* bytes print may write in the whole run, 0 = none */
	size_t output_used;
	bool output_noted;        /* the note that the budget is spent was written */
	bool holding;             /* a replay runs: print writes nothing, only counts */
	long long held_lines;     /* print calls held back since the count was last taken */
	const char *phase;        /* callback being run, for the messages */
	int depth;                /* nested begin calls */
	lua_State *main;          /* the state's main thread */
	lua_State *current;       /* the thread running level code (coroutines tracked) */
	volatile sig_atomic_t stop; /* th_stop: why the running callback is being stopped */
} th_sandbox;

/* A new state whose allocator accounts into sb (which must outlive it). */
lua_State *th_sandbox_new_state(th_sandbox *sb);
/* Opens the standard libraries and the host's guards (coroutine tracking for
 * the watchdog, xpcall). With sb->strict: no io, os, debug, dofile, loadfile,
 * binary chunks or C modules; require reads only regular files under the given
 * folders (NULL entries are skipped), in text mode; no __gc in setmetatable;
 * print within sb->output_limit; patterns, table.move/insert/remove/concat and
 * string.rep cannot hold the host in C (the budgets reach inside them). */
void th_sandbox_open_libs(lua_State *L, th_sandbox *sb, const char *level_dir, const char *lib_dir);
/* --sandbox's caps per world (tumble_lua_set_world_limits): a world:step's C
 * time grows with what the world holds, and no hook reaches inside it.
 * Memory is capped too, since the engine allocates through the Lua state's
 * allocator (--mem-limit covers both). */
#define TH_SANDBOX_MAX_BODIES 100000
#define TH_SANDBOX_MAX_SHAPES 200000
#define TH_SANDBOX_MAX_JOINTS 100000
#define TH_SANDBOX_MAX_CONTACTS 200000
/* Gives every world created afterwards in L the caps above (strict only). */
void th_sandbox_world_limits(lua_State *L, const th_sandbox *sb);

/* lua_setmetatable(L, idx) with the metatable on top (popped), without
 * marking the object for finalization even if the metatable has __gc now.
 * For host code that puts a level's metatable back (rewind): a __gc added
 * to it after setmetatable must not become a finalizer. Call it with the
 * collector stopped. */
void th_sandbox_setmetatable_unmarked(lua_State *L, int idx);

/* Parses Lua text as luaL_loadbufferx does, but hands it to the parser in
 * small pieces, charging the budget per byte and letting a stop through
 * between pieces, so the time limit reaches a parse that takes long in C.
 * Under --sandbox, text over TH_SANDBOX_MAX_CHUNK is refused. `load`
 * (every run), require (the sandbox's searcher) and the level file go
 * through it. */
#define TH_SANDBOX_MAX_CHUNK ((size_t)16 << 20)
int th_sandbox_load_buffer(lua_State *L, const char *text, size_t size, const char *chunkname, const char *mode);
/* The same for a file (luaL_loadfilex's rules for a first '#' line), read
 * as a regular file only, without blocking: "cannot open PATH: why". */
int th_sandbox_load_file(lua_State *L, const char *path, const char *mode);
/* What load and loadfile return after one of the two above: the chunk (with
 * the value at env, if not 0, as its first upvalue), or fail and the message. */
int th_sandbox_load_result(lua_State *L, int status, int env);

/* Brackets one call into level code: resets the instruction budget, arms the
 * watchdog, names the phase and turns the caps on; end turns them off again. */
void th_sandbox_begin(lua_State *L, th_sandbox *sb, const char *phase);
void th_sandbox_end(lua_State *L, th_sandbox *sb);
/* The message for the limit that stopped the last callback, or NULL. */
const char *th_sandbox_stop_message(const th_sandbox *sb, char *buf, size_t size);
/* lua_close under the memory cap and the watchdog: a finalizer that loops or
 * allocates without end cannot keep the host from closing the level. */
void th_sandbox_close(lua_State *L, th_sandbox *sb);

/* Makes level-written text safe for a terminal, in place and at the same
 * length: control characters (but tab and newline), DEL, C1 controls and
 * bytes that are not UTF-8 become '?'. Escape sequences could otherwise set
 * the terminal's title or clipboard, or make it answer queries into the input
 * of the shell that started tumble. */
void th_sandbox_clean_text(char *text, size_t len);

/* Writes a line of text the level made (an error, tumble.exit's message)
 * after prefix, cleaned for the terminal under --sandbox and counted by the
 * output budget (print's): every byte a level makes the host write goes
 * through it. Past the budget, one line cut to 1 KB and a note are written
 * once, and nothing more until the budget starts again (a level start). */
void th_sandbox_write_text(th_sandbox *sb, FILE *out, const char *prefix, const char *text, size_t len);

/* Stops the running callback (signal-safe: used by the watchdog's signal
 * handler and by the allocator). */
void th_sandbox_interrupt(th_sandbox *sb, th_stop why);
/* Charges work done in C on the level's behalf (pattern matching, table.move)
 * to the instruction budget, and raises the stop error if the callback is
 * being stopped. C loops that the sandbox owns call it every few thousand steps. */
void th_sandbox_tick(lua_State *L, long long steps);

#endif
