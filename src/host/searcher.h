/* tumble host: the sandbox's module searcher. require in --sandbox reads only
 * regular files under fixed folders (the level's own and the runtime's lua/),
 * fixed here in C: package.path, package.searchpath and package.cpath play no
 * part, so a level that keeps a reference to `package` and rewrites it gains
 * nothing. Files are opened without blocking (a FIFO or a terminal is refused,
 * not waited on) and loaded as text only (no bytecode). */
#ifndef TH_HOST_SEARCHER_H
#define TH_HOST_SEARCHER_H

#include <lua.h>

/* Pushes the searcher: a C closure over the folders, each resolved with
 * realpath now (NULL or missing entries are skipped). */
void th_searcher_push(lua_State *L, const char *const *dirs, int count);

#endif
