/* tumble host: limits for untrusted levels. Every Lua state of the host uses
 * this allocator (so the overlay can show Lua memory); the caps only bite
 * while level code runs, so the host's own glue never fails half-way. */
#ifndef TH_HOST_SANDBOX_H
#define TH_HOST_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <lua.h>

typedef struct th_sandbox {
	size_t used;              /* bytes held by the Lua state */
	size_t limit;             /* 0 = no cap */
	bool enforce;             /* true while level code runs */
	bool limit_hit;           /* an allocation was refused since the last begin */
	long long instr_limit;    /* 0 = no limit */
	long long instr_count;
	int instr_step;           /* hook granularity */
	const char *phase;        /* callback being run, for the messages */
} th_sandbox;

/* A new state whose allocator accounts into sb (which must outlive it). */
lua_State *th_sandbox_new_state(th_sandbox *sb);
/* Opens the standard libraries; strict removes io, os, debug, dofile, loadfile,
 * binary chunks and every way to load C code. */
void th_sandbox_open_libs(lua_State *L, bool strict);
/* Brackets one call into level code: resets the instruction budget, names the
 * phase and turns the caps on; end turns them off again. */
void th_sandbox_begin(lua_State *L, th_sandbox *sb, const char *phase);
void th_sandbox_end(lua_State *L, th_sandbox *sb);

#endif
