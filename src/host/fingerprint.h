/* tumble host: a fingerprint of what a level's load() builds from.
 *
 * A hot reload must tell an edit that changes only functions (swap them in,
 * keep the world) from one that changes what load builds (rebuild the world
 * and replay the input). The fingerprint hashes everything load can reach
 * right after its file ran, before load itself runs: load's bytecode
 * (nested functions included, debug information stripped, so a comment or a
 * moved line does not count) and, through its upvalues, every function,
 * number, string and table it can get to, with those functions' bytecode and
 * upvalues in turn, and the globals the level's files defined. Two files whose
 * fingerprints agree make load build the same world.
 *
 * Deliberately left out: fields named like the host's per-frame callbacks
 * (update, draw, keypressed, ...; load never calls them), the host's own
 * tables (tumble, math, string, ...), metatables and userdata. A walk that
 * grows too big gives up, and the caller then rebuilds (always correct, only
 * slower). */
#ifndef TH_HOST_FINGERPRINT_H
#define TH_HOST_FINGERPRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <lua.h>

/* Hashes what the function at fn reaches. env: the table standing for the
 * level's globals (its fields are walked, except _G); host: a set (table
 * with true values) of tables not to walk. Runs no Lua code and raises no
 * error; false if the walk gave up. */
bool th_fingerprint(lua_State *L, int fn, int env, int host, uint64_t *out);

#endif
