/* tumble host: `tumble --package GAME OUT`, a game a player runs without the
 * source tree. OUT gets:
 *   tumble          a copy of the running binary (it finds lua/ beside itself)
 *   lua/            the runtime's support modules (levelkit.lua, ...) and fonts
 *   game/           GAME's files (levels, modules, assets), hidden ones left out
 *   play            the launcher: `./play [LEVEL.lua] [tumble options]`, which
 *                   runs game/main.lua (else GAME's first .lua file) by default
 *   README.txt      how to run it
 *   web/            the browser build of the same game, when the source tree's
 *                   build/web holds one (make web) and emscripten's packer is
 *                   installed; otherwise skipped with a message
 * Refused, with nothing written: GAME not a folder or without a .lua file at
 * its top, OUT existing and not an empty folder, OUT inside GAME, the folder
 * above OUT missing, no runtime lua/ folder. */
#ifndef TH_PACKAGE_H
#define TH_PACKAGE_H

/* The runtime's lua/ comes from beside the running binary (th_app_find_root).
 * Returns the exit status: 0 done, 1 refused or failed (said on stderr). */
int th_package(const char *game, const char *out);

#endif
