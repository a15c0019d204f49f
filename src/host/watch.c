/* tumble host: the files a level's code came from (watch.h). The level adds
 * every Lua file it loads (loader.c); the app polls. */
#include "watch.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

void th_watch_init(th_watch *w)
{
	memset(w, 0, sizeof(*w));
}

void th_watch_free(th_watch *w)
{
	for (int i = 0; i < w->count; ++i) free(w->files[i].path);
	free(w->files);
	memset(w, 0, sizeof(*w));
}

/* Changes younger than this wait for the next poll: the save may go on. */
#define SETTLE_MS 100
/* Files larger than this are compared by their stamps only. */
#define MAX_HASHED_BYTES ((uint64_t)64 << 20)

/* FNV-1a of the file's bytes; 0 if it cannot be read or is not a regular
 * file (opened without blocking: a FIFO put in a module's place must not
 * hang the host). */
static uint64_t content_hash(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) return 0;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	uint64_t h = 0xcbf29ce484222325ULL;
	if ((uint64_t)st.st_size > MAX_HASHED_BYTES) {
		/* too big to read at every save: its stamp stands for its content */
		close(fd);
		return h ^ ((uint64_t)st.st_mtim.tv_sec * 1000000007ULL) ^ (uint64_t)st.st_mtim.tv_nsec ^
		       ((uint64_t)st.st_size << 20) ^ (uint64_t)st.st_ino;
	}
	unsigned char buf[8192];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; ++i) {
			h ^= buf[i];
			h *= 0x100000001b3ULL;
		}
	}
	close(fd);
	return h;
}

static void watch_stat(th_watch_file *f)
{
	struct stat st;
	if (stat(f->path, &st) != 0) {
		f->exists = false;
		return;
	}
	f->exists = true;
	f->mtime = st.st_mtim;
	f->size = st.st_size;
	f->inode = st.st_ino;
}

void th_watch_add(th_watch *w, const char *path)
{
	char resolved[PATH_MAX];
	if (path == NULL || realpath(path, resolved) == NULL) return;
	for (int i = 0; i < w->count; ++i) {
		if (strcmp(w->files[i].path, resolved) == 0) return;
	}
	if (w->count == w->capacity) {
		int capacity = w->capacity != 0 ? 2 * w->capacity : 16;
		th_watch_file *files = realloc(w->files, (size_t)capacity * sizeof(*files));
		if (files == NULL) return;
		w->files = files;
		w->capacity = capacity;
	}
	th_watch_file *f = &w->files[w->count];
	memset(f, 0, sizeof(*f));
	f->path = strdup(resolved);
	if (f->path == NULL) return;
	watch_stat(f);
	f->content = content_hash(f->path);
	w->count += 1;
}

static bool same_stamp(const th_watch_file *a, const th_watch_file *b)
{
	return a->exists == b->exists && a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec &&
	       a->size == b->size && a->inode == b->inode;
}

/* The file was last written long enough ago for the save to be over. */
static bool old_enough(const th_watch_file *f)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	double age_ms = (double)(now.tv_sec - f->mtime.tv_sec) * 1000.0 + (double)(now.tv_nsec - f->mtime.tv_nsec) / 1.0e6;
	return age_ms >= SETTLE_MS;
}

bool th_watch_poll(th_watch *w)
{
	bool changed = false;
	for (int i = 0; i < w->count; ++i) {
		th_watch_file *f = &w->files[i];
		th_watch_file before = *f;
		watch_stat(f);
		/* A file that vanished is usually mid-save: wait for it to come back. */
		if (!f->exists) continue;
		bool moved = !same_stamp(&before, f);
		if (moved) f->settling = true;
		if (!f->settling || (moved && !old_enough(f))) continue;
		f->settling = false;
		uint64_t content = content_hash(f->path);
		if (content != f->content) {
			f->content = content;
			changed = true;
		}
	}
	return changed;
}

void th_watch_seen(th_watch *w, const char *path)
{
	char resolved[PATH_MAX];
	if (path == NULL || realpath(path, resolved) == NULL) return;
	for (int i = 0; i < w->count; ++i) {
		th_watch_file *f = &w->files[i];
		if (strcmp(f->path, resolved) != 0) continue;
		watch_stat(f);
		f->settling = false;
		f->content = content_hash(f->path);
	}
}
