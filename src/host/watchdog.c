/* tumble host: the watchdog thread (see watchdog.h).
 *
 * Why a thread and a signal rather than a count hook that reads a clock: a
 * count hook makes the VM call into the debug machinery on every instruction
 * (Lua 5.4 traps each instruction once any count hook is set), which about
 * doubles the run time of a tight loop. Arming the watchdog costs a clock
 * read and a few atomic stores per callback; the hook is installed only on
 * the thread that overran. */
#include "watchdog.h"
#include "sandbox.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NS 1000000000LL
#define TICK_NS (10 * 1000000LL)
/* A tick that took longer than this was the process being stopped (SIGSTOP,
 * a debugger) or starved: it counts as this much, not as its length. */
#define MAX_TICK_NS (250 * 1000000LL)
/* The soft stop is signalled again this often while the callback runs on
 * (a signal that arrived between two coroutine switches may have hooked a
 * thread that is no longer running). */
#define RESEND_NS (100 * 1000000LL)

static struct {
	pthread_t main, thread;
	bool started, failed;
	int signo;
	/* odd while armed; every arm and disarm bumps it (release: the fields
	 * below are written before it) */
	atomic_uint gen;
	atomic_llong armed_at, soft_ns, hard_ns;
	atomic_uint fired_gen; /* the arm a soft stop was signalled for */
	_Atomic(th_sandbox *) sandbox;
	/* What runs, for the hard-stop message. The thread reads it only when
	 * the main thread has been stuck in that one callback for the whole hard
	 * limit, so the caller's string is still alive. */
	_Atomic(const char *) phase;
	double soft_s;
	/* SIGINT or SIGTERM received (0: none), and when */
	volatile sig_atomic_t quit_signal;
	atomic_llong quit_at;
} wd;

/* A run asked to end by SIGINT or SIGTERM has this long to close itself
 * before the watchdog ends the process. */
#define QUIT_GRACE_NS (500 * 1000000LL)

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

static void on_signal(int sig)
{
	(void)sig;
	int saved = errno;
	unsigned g = atomic_load(&wd.gen);
	th_sandbox *sb = atomic_load(&wd.sandbox);
	if (sb != NULL && (g & 1u) != 0 && atomic_load(&wd.fired_gen) == g) {
		th_sandbox_interrupt(sb, wd.quit_signal != 0 ? TH_STOP_SIGNAL : TH_STOP_TIME);
	}
	errno = saved;
}

static void say_and_exit(const char *msg, size_t len, int status)
{
	ssize_t w = write(STDERR_FILENO, msg, len);
	(void)w;
	_exit(status);
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* SIGINT, SIGTERM: on any thread. Only records it: the watchdog thread stops
 * a running callback and, if the host has not closed within the grace
 * time, ends the process; a second one ends it at once. */
static void on_quit(int sig)
{
	int saved = errno;
	if (wd.quit_signal != 0) {
		static const char msg[] = "tumble: a second signal: the process ends here\n";
		say_and_exit(msg, sizeof(msg) - 1, 128 + sig);
	}
	atomic_store(&wd.quit_at, now_ns());
	wd.quit_signal = sig;
	errno = saved;
}

static void hard_stop(long long elapsed)
{
	char msg[320];
	int n = snprintf(msg, sizeof(msg),
	                 "tumble: watchdog: %s has run for %.1f s without returning to Lua (time limit %g s); "
	                 "C code or a finalizer cannot be interrupted, so the process ends here\n",
	                 atomic_load(&wd.phase), (double)elapsed / NS, wd.soft_s);
	if (n > 0) {
		ssize_t w = write(STDERR_FILENO, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
		(void)w;
	}
	_exit(1);
}

static void *watch(void *arg)
{
	(void)arg;
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	unsigned seen = 0;
	bool counting = false, sent = false;
	long long elapsed = 0, last = now_ns(), last_sent = 0;
	for (;;) {
		struct timespec tick = {0, TICK_NS};
		while (nanosleep(&tick, &tick) != 0 && errno == EINTR) {
		}
		long long t = now_ns(), dt = t - last;
		last = t;
		if (dt > MAX_TICK_NS) dt = MAX_TICK_NS;
		unsigned g = atomic_load_explicit(&wd.gen, memory_order_acquire);
		int quit = wd.quit_signal;
		if (quit != 0) {
			if (t - atomic_load(&wd.quit_at) >= QUIT_GRACE_NS) {
				char msg[160];
				int n = snprintf(msg, sizeof(msg), "tumble: %s: the host did not end within %.1f s, the process ends here\n",
				                 signal_name(quit), (double)QUIT_GRACE_NS / NS);
				say_and_exit(msg, n > 0 ? (size_t)n : 0, 128 + quit);
			}
			/* a callback running: stop it now, not at its time limit */
			if ((g & 1u) != 0) {
				atomic_store(&wd.fired_gen, g);
				pthread_kill(wd.main, wd.signo);
			}
		}
		if ((g & 1u) == 0) {
			counting = false;
			continue;
		}
		if (!counting || g != seen) {
			seen = g;
			counting = true;
			sent = false;
			elapsed = t - atomic_load(&wd.armed_at);
			if (elapsed < 0) elapsed = 0;
			if (elapsed > MAX_TICK_NS) elapsed = MAX_TICK_NS;
		} else {
			elapsed += dt;
		}
		if (elapsed >= atomic_load(&wd.hard_ns)) hard_stop(elapsed);
		if (elapsed >= atomic_load(&wd.soft_ns) && (!sent || t - last_sent >= RESEND_NS)) {
			atomic_store(&wd.fired_gen, g);
			sent = true;
			last_sent = t;
			pthread_kill(wd.main, wd.signo);
		}
	}
	return NULL;
}

bool th_watchdog_start(void)
{
	if (wd.started) return true;
	if (wd.failed) return false;
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
	/* The browser build has no threads: a callback that loops freezes the
	 * page until the browser offers to stop it. */
	wd.failed = true;
	return false;
#endif
	wd.main = pthread_self();
	wd.signo = SIGRTMIN + 3;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	int err = sigaction(wd.signo, &sa, NULL) != 0 ? errno : 0;
	if (err == 0) err = pthread_create(&wd.thread, NULL, watch, NULL);
	if (err != 0) {
		wd.failed = true;
		fprintf(stderr, "tumble: cannot start the watchdog (%s): callbacks run without a time limit\n", strerror(err));
		return false;
	}
	pthread_detach(wd.thread);
	wd.started = true;
	return true;
}

bool th_watchdog_running(void)
{
	return wd.started;
}

double th_watchdog_hard_limit(double soft)
{
	return soft + (soft > 2.0 ? soft : 2.0);
}

void th_watchdog_arm(th_sandbox *sb, const char *phase, double soft, double hard)
{
	if (!wd.started) return;
	/* a callback costs this: a clock read and relaxed stores (ordered by the
	 * release of gen) */
	atomic_store_explicit(&wd.phase, phase != NULL ? phase : "level code", memory_order_relaxed);
	atomic_store_explicit(&wd.sandbox, sb, memory_order_relaxed);
	if (soft != wd.soft_s) {
		wd.soft_s = soft;
		atomic_store_explicit(&wd.soft_ns, (long long)(soft * NS), memory_order_relaxed);
		atomic_store_explicit(&wd.hard_ns, (long long)(hard * NS), memory_order_relaxed);
	}
	atomic_store_explicit(&wd.armed_at, now_ns(), memory_order_relaxed);
	unsigned g = atomic_load_explicit(&wd.gen, memory_order_relaxed);
	atomic_store_explicit(&wd.gen, (g | 1u) + ((g & 1u) != 0 ? 2u : 0u), memory_order_release);
}

void th_watchdog_disarm(void)
{
	if (!wd.started) return;
	unsigned g = atomic_load_explicit(&wd.gen, memory_order_relaxed);
	if ((g & 1u) != 0) atomic_store_explicit(&wd.gen, g + 1u, memory_order_release);
}

bool th_watchdog_catch_quit(void)
{
	if (!th_watchdog_start()) return false;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	/* installed before SDL starts, so SDL keeps its own handlers out (it
	 * installs them only over the default action) */
	return sigaction(SIGINT, &sa, NULL) == 0 && sigaction(SIGTERM, &sa, NULL) == 0;
}

int th_watchdog_quit_signal(void)
{
	return wd.quit_signal;
}
