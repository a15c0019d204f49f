/* tumble host: the operating system's part of --sandbox, defence in depth
 * under the Lua sandbox. If a level ever found a memory-safety bug and ran
 * code of its own, it would still meet:
 * - Landlock: files are read-only, and readable only under the level's
 *   folder, the runtime's lua/ folder and what the host needs (/usr, /proc/self,
 *   /sys, a few /dev nodes); no TCP; no abstract unix sockets or signals
 *   outside the process (as far as the kernel's Landlock ABI goes);
 * - seccomp (every thread): no execve, no new processes, no new files, no
 *   writing opens, no new sockets, no ptrace, mount, module loading, io_uring,
 *   open_by_handle_at or TIOCSTI.
 * Applied after the window is open (SDL, X11 and the GL driver have what
 * they need) and before the level's first line runs. Landlock binds the
 * calling thread and the threads it starts later; threads the GL driver
 * started earlier are bound by seccomp only. */
#ifndef TH_HOST_OSLOCK_H
#define TH_HOST_OSLOCK_H

#include <stdbool.h>

enum { TH_OSLOCK_LANDLOCK = 1, TH_OSLOCK_SECCOMP = 2 };

/* Before SDL starts: keeps SDL from connecting to what the lock could not
 * then take back (the session D-Bus, which can start programs; an audio
 * server: sound is silent under --sandbox). */
void th_oslock_prepare(void);
/* Applies the lock with read access to the given folders (NULL entries are
 * skipped). Says once on stderr what the kernel refused. Returns the
 * TH_OSLOCK_* bits that are on. */
int th_oslock_apply(const char *const *read_dirs, int count);

#endif
