/* tumble host: the sandbox's replacements for the standard functions that
 * can loop in C without returning to the VM, where no hook can stop them:
 * string.find/match/gmatch/gsub (backtracking), table.move/insert/remove
 * (a range or a __len that says 2^53), table.concat (with a C __index),
 * string.rep (empty pieces), table.sort (charged up front). The replacements
 * behave like the stock ones and charge their loops to the callback's budget
 * (th_sandbox_tick), so the time and instruction limits reach inside them. */
#ifndef TH_HOST_SBXLIB_H
#define TH_HOST_SBXLIB_H

#include <lua.h>

/* Installs the replacements into the string and table libraries. */
void th_sbxlib_open(lua_State *L);
/* pattern.c: the budgeted find, match, gmatch and gsub, set into the table at idx. */
void th_pattern_register(lua_State *L, int idx);

#endif
