/* tumble host: Landlock and seccomp for --sandbox (see oslock.h). */
#include "oslock.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Landlock and seccomp are Linux's; elsewhere (the browser build) there is
 * no lock, and th_oslock_apply says so. */
#if defined(__linux__)
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* ---------------- Landlock ----------------
 * The structures and flags are spelled out here: Debian 12's kernel headers
 * stop at Landlock ABI 2, and the running kernel may be newer. */

struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped;             /* ABI 6 */
};

struct ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#define LL_CREATE_RULESET_VERSION (1u << 0)
#define LL_RULE_PATH_BENEATH 1

#define LL_FS_EXECUTE (1ull << 0)
#define LL_FS_WRITE_FILE (1ull << 1)
#define LL_FS_READ_FILE (1ull << 2)
#define LL_FS_READ_DIR (1ull << 3)
#define LL_FS_REFER (1ull << 13)    /* ABI 2 */
#define LL_FS_TRUNCATE (1ull << 14) /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ull << 15) /* ABI 5 */
#define LL_NET_BIND_TCP (1ull << 0)
#define LL_NET_CONNECT_TCP (1ull << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ull << 0)
#define LL_SCOPE_SIGNAL (1ull << 1)

#define LL_READ (LL_FS_READ_FILE | LL_FS_READ_DIR)
/* the rights a rule on a file (not a folder) may carry */
#define LL_FILE_RIGHTS (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)

#if defined(SYS_landlock_create_ruleset)
static bool add_rule(int ruleset, const char *path, uint64_t access, uint64_t handled)
{
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) return false; /* absent here: nothing to allow */
	struct ll_path_beneath_attr rule = {access & handled, fd};
	/* a file (not a folder) takes only file rights */
	int dirfd = openat(fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd >= 0) {
		close(dirfd);
	} else {
		rule.allowed_access &= LL_FILE_RIGHTS;
	}
	bool ok = syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0) == 0;
	close(fd);
	return ok;
}

/* 0 on success, else an errno, with *abi set to the kernel's Landlock ABI. */
static int apply_landlock(const char *const *dirs, int count, int *abi_out)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
	*abi_out = abi > 0 ? (int)abi : 0;
	if (abi < 1) return errno != 0 ? errno : ENOSYS;
	struct ll_ruleset_attr attr = {0};
	size_t size = sizeof(attr.handled_access_fs);
	attr.handled_access_fs = (1ull << 13) - 1; /* every ABI 1 right */
	if (abi >= 2) attr.handled_access_fs |= LL_FS_REFER;
	if (abi >= 3) attr.handled_access_fs |= LL_FS_TRUNCATE;
	if (abi >= 5) attr.handled_access_fs |= LL_FS_IOCTL_DEV;
	if (abi >= 4) {
		attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
		size = offsetof(struct ll_ruleset_attr, scoped);
	}
	if (abi >= 6) {
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
		size = sizeof(attr);
	}
	int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0) return errno;
	uint64_t h = attr.handled_access_fs;
	for (int i = 0; i < count; ++i) {
		if (dirs[i] != NULL) add_rule(ruleset, dirs[i], LL_READ, h);
	}
	/* What the host itself may still read once the level runs: libraries and
	 * data a driver loads late, its own process's files, device information. */
	static const char *const system_read[] = {"/usr", "/lib", "/lib64", "/etc/ld.so.cache", "/proc/self",
	                                          "/sys", "/run/udev", "/dev/urandom", "/dev/random"};
	for (size_t i = 0; i < sizeof(system_read) / sizeof(system_read[0]); ++i) {
		add_rule(ruleset, system_read[i], LL_READ, h);
	}
	add_rule(ruleset, "/dev/null", LL_FS_READ_FILE | LL_FS_WRITE_FILE, h);
	/* the GPU (render nodes a driver may reopen) and gamepads plugged in later */
	add_rule(ruleset, "/dev/dri", LL_READ | LL_FS_WRITE_FILE | LL_FS_IOCTL_DEV, h);
	add_rule(ruleset, "/dev/input", LL_READ | LL_FS_IOCTL_DEV, h);
	int err = 0;
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) err = errno;
	close(ruleset);
	return err;
}
#else
static int apply_landlock(const char *const *dirs, int count, int *abi_out)
{
	(void)dirs;
	(void)count;
	*abi_out = 0;
	return ENOSYS;
}
#endif

/* ---------------- seccomp ---------------- */

#if defined(__x86_64__)
#define SECCOMP_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_ARCH AUDIT_ARCH_AARCH64
#endif

#if defined(SECCOMP_ARCH) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))

typedef struct program {
	struct sock_filter code[512];
	int n;
	bool overflow;
} program;

static void emit(program *p, struct sock_filter f)
{
	if (p->n < (int)(sizeof(p->code) / sizeof(p->code[0]))) {
		p->code[p->n++] = f;
	} else {
		p->overflow = true;
	}
}

#define RET(v) ((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (v)))
#define LOAD(off) ((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off)))
#define JEQ(k, t, f) ((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f)))
#define JSET(k, t, f) ((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (k), (t), (f)))
#define JGE(k, t, f) ((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (k), (t), (f)))
#define ALLOW SECCOMP_RET_ALLOW
#define FAIL(e) (SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))

/* The accumulator holds the syscall number between blocks: every block
 * returns, so the next block is reached only by its jump. */
static void deny(program *p, long nr, int err)
{
	emit(p, JEQ((uint32_t)nr, 0, 1));
	emit(p, RET(FAIL(err)));
}

/* the syscall nr fails with err when argument arg has any of bits */
static void deny_bits(program *p, long nr, int arg, uint32_t bits, int err)
{
	emit(p, JEQ((uint32_t)nr, 0, 4));
	emit(p, LOAD(ARG_LO(arg)));
	emit(p, JSET(bits, 0, 1));
	emit(p, RET(FAIL(err)));
	emit(p, RET(ALLOW));
}

/* the syscall nr is allowed only when argument arg equals value */
static void only_value(program *p, long nr, int arg, uint32_t value, int err)
{
	emit(p, JEQ((uint32_t)nr, 0, 4));
	emit(p, LOAD(ARG_LO(arg)));
	emit(p, JEQ(value, 0, 1));
	emit(p, RET(ALLOW));
	emit(p, RET(FAIL(err)));
}

#define O_TMPFILE_BIT 020000000u

static int apply_seccomp(void)
{
	program p = {.n = 0};
	emit(&p, LOAD(offsetof(struct seccomp_data, arch)));
	emit(&p, JEQ(SECCOMP_ARCH, 1, 0));
	emit(&p, RET(SECCOMP_RET_KILL_PROCESS)); /* another ABI (int 0x80): not ours */
	emit(&p, LOAD(offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
	emit(&p, JGE(0x40000000u, 0, 1)); /* x32 numbers alias the ones below */
	emit(&p, RET(FAIL(EPERM)));
#endif
	/* opens that write or create: "no new files" and read-only */
	const uint32_t writing = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_TMPFILE_BIT;
#ifdef SYS_open
	deny_bits(&p, SYS_open, 1, writing, EACCES);
#endif
	deny_bits(&p, SYS_openat, 2, writing, EACCES);
	/* openat2 hides its flags behind a pointer: callers fall back to openat */
	deny(&p, SYS_openat2, ENOSYS);
	/* threads yes, processes no (clone3 hides its flags: glibc falls back to clone) */
	emit(&p, JEQ(SYS_clone, 0, 4));
	emit(&p, LOAD(ARG_LO(0)));
	emit(&p, JSET(CLONE_THREAD, 0, 1));
	emit(&p, RET(ALLOW));
	emit(&p, RET(FAIL(EPERM)));
	deny(&p, SYS_clone3, ENOSYS);
	/* typing into the terminal the level was started from */
	emit(&p, JEQ(SYS_ioctl, 0, 5));
	emit(&p, LOAD(ARG_LO(1)));
	emit(&p, JEQ(TIOCSTI, 2, 0));
	emit(&p, JEQ(TIOCLINUX, 1, 0));
	emit(&p, RET(ALLOW));
	emit(&p, RET(FAIL(EPERM)));
	/* signals to this process only */
	uint32_t self = (uint32_t)getpid();
	only_value(&p, SYS_kill, 0, self, EPERM);
	only_value(&p, SYS_tgkill, 0, self, EPERM);
	only_value(&p, SYS_rt_sigqueueinfo, 0, self, EPERM);
	only_value(&p, SYS_rt_tgsigqueueinfo, 0, self, EPERM);
	/* resource limits of this process only (getrlimit/setrlimit pass 0) */
	only_value(&p, SYS_prlimit64, 0, 0, EPERM);
	deny(&p, SYS_socket, EACCES);

	static const long refused[] = {
		SYS_execve, SYS_execveat, SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev, SYS_tkill,
		SYS_pidfd_open, SYS_pidfd_getfd, SYS_pidfd_send_signal, SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot,
		SYS_unshare, SYS_setns, SYS_swapon, SYS_swapoff, SYS_reboot, SYS_kexec_load, SYS_kexec_file_load,
		SYS_init_module, SYS_finit_module, SYS_delete_module, SYS_bpf, SYS_perf_event_open, SYS_userfaultfd,
		SYS_keyctl, SYS_add_key, SYS_request_key, SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
		SYS_name_to_handle_at, SYS_open_by_handle_at, SYS_acct, SYS_settimeofday, SYS_clock_settime,
		SYS_clock_adjtime, SYS_adjtimex, SYS_quotactl, SYS_fanotify_init, SYS_syslog, SYS_vhangup,
		SYS_sethostname, SYS_setdomainname, SYS_move_mount, SYS_open_tree, SYS_fsopen, SYS_fsmount, SYS_fsconfig,
		SYS_fspick, SYS_mount_setattr, SYS_process_madvise, SYS_migrate_pages, SYS_move_pages, SYS_get_robust_list,
		/* making, removing and changing files */
		SYS_mknodat, SYS_mkdirat, SYS_unlinkat, SYS_linkat, SYS_symlinkat, SYS_renameat2, SYS_truncate,
		SYS_fchmod, SYS_fchmodat, SYS_fchown, SYS_fchownat, SYS_utimensat, SYS_setxattr, SYS_lsetxattr,
		SYS_fsetxattr, SYS_removexattr, SYS_lremovexattr, SYS_fremovexattr,
#ifdef SYS_fork
		SYS_fork, SYS_vfork, SYS_creat, SYS_mknod, SYS_mkdir, SYS_rmdir, SYS_unlink, SYS_link, SYS_symlink,
		SYS_rename, SYS_renameat, SYS_chmod, SYS_chown, SYS_lchown, SYS_utime, SYS_utimes, SYS_futimesat,
		SYS_uselib, SYS_iopl, SYS_ioperm,
#endif
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); ++i) deny(&p, refused[i], EPERM);
	emit(&p, RET(ALLOW));
	if (p.overflow) return E2BIG;

	struct sock_fprog prog = {.len = (unsigned short)p.n, .filter = p.code};
	/* TSYNC: every thread of the process, including the GL driver's */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0) return errno;
	return 0;
}
#else
static int apply_seccomp(void)
{
	return ENOTSUP;
}
#endif

#endif /* __linux__ */

/* ---------------- both ---------------- */

void th_oslock_prepare(void)
{
	/* An address no transport accepts: SDL then runs without D-Bus. */
	setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:", 1);
	/* Sound decodes and plays into SDL's dummy device: the audio device opens
	 * on first use, after the lock, and an audio server (PulseAudio, PipeWire)
	 * takes commands that load modules, some of which write files. */
	setenv("SDL_AUDIODRIVER", "dummy", 1);
}

#if !defined(__linux__)
int th_oslock_apply(const char *const *read_dirs, int count)
{
	(void)read_dirs;
	(void)count;
	fprintf(stderr, "tumble: --sandbox: this system has no Landlock or seccomp; the Lua sandbox still holds, without "
	                "this second wall\n");
	return 0;
}
#else
int th_oslock_apply(const char *const *read_dirs, int count)
{
	int on = 0;
	char refused[256] = "";
	/* both need it (and so does any further gain through exec, which is refused) */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		snprintf(refused, sizeof(refused), "no_new_privs (%s), so Landlock and seccomp", strerror(errno));
	} else {
		int abi = 0;
		int err = apply_landlock(read_dirs, count, &abi);
		if (err == 0) {
			on |= TH_OSLOCK_LANDLOCK;
		} else {
			snprintf(refused, sizeof(refused), "Landlock (%s)", strerror(err));
		}
		if ((on & TH_OSLOCK_LANDLOCK) && abi < 4) {
			snprintf(refused, sizeof(refused), "Landlock's network rules (kernel ABI %d < 4)", abi);
		}
		err = apply_seccomp();
		if (err == 0) {
			on |= TH_OSLOCK_SECCOMP;
		} else {
			size_t n = strlen(refused);
			snprintf(refused + n, sizeof(refused) - n, "%sseccomp (%s)", n > 0 ? " and " : "", strerror(err));
		}
	}
	if (refused[0] != '\0') {
		fprintf(stderr, "tumble: --sandbox: the kernel refused %s; the Lua sandbox still holds, without this "
		                "second wall\n", refused);
	}
	return on;
}
#endif
