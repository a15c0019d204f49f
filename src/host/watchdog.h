/* tumble host: the watchdog. A thread that watches the callback being run and
 * costs the callback nothing: arming is two clock reads' worth of atomic
 * stores, and no debug hook is installed until a callback overruns.
 *
 * - Soft stop: past the time limit, the thread signals the main thread, whose
 *   handler installs a count hook on the running Lua thread; the next VM
 *   instruction raises "time limit exceeded in <callback>" (th_sandbox_interrupt).
 * - Hard stop: C code that never returns to the VM (a finalizer, a C function
 *   looping) cannot be interrupted; past the hard limit the thread prints what
 *   was running and ends the process.
 * Time the process spends stopped (SIGSTOP, a debugger) is not counted. */
#ifndef TH_HOST_WATCHDOG_H
#define TH_HOST_WATCHDOG_H

#include <stdbool.h>

struct th_sandbox;

/* Starts the thread (once per process) and installs the signal handler;
 * false, with a message on stderr, if the system refuses. */
bool th_watchdog_start(void);
/* Watches the callback `phase` of sb: soft stop after soft seconds, hard stop
 * (process exit) after hard seconds. */
void th_watchdog_arm(struct th_sandbox *sb, const char *phase, double soft, double hard);
void th_watchdog_disarm(void);
/* Whether the thread runs (th_watchdog_start succeeded). */
bool th_watchdog_running(void);
/* A limit that never comes (seconds): arming with it watches for SIGINT and
 * SIGTERM only. */
#define TH_WATCHDOG_NEVER 1e9
/* The hard limit that goes with a soft one. */
double th_watchdog_hard_limit(double soft);

/* SIGINT and SIGTERM end the run within a second whatever it is doing: the
 * handler records the signal; the host's frame loop sees it and closes (the
 * exit status is then 128 + the signal); a callback that runs is stopped at
 * once ("interrupted ... in update"); and if the host has not ended 0.5 s
 * after the signal (host code or a finalizer that does not return), the
 * watchdog thread ends the process with that status. A second signal ends
 * it at once. Call before SDL_Init (SDL then keeps its own handlers out);
 * false if the thread or the handlers could not be set up. */
bool th_watchdog_catch_quit(void);
/* The signal that asked the run to end, or 0. */
int th_watchdog_quit_signal(void);

#endif
