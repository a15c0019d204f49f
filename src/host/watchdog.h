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
/* The hard limit that goes with a soft one. */
double th_watchdog_hard_limit(double soft);

#endif
