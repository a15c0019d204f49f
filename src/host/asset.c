/* tumble host: reading a level's asset files (images, sounds).
 *
 * A relative name is the level's: it resolves against the level's folder, so a
 * level runs from any working directory. Under --sandbox the resolved path
 * (realpath: symlinks and ".." followed) must lie inside that folder. The file
 * is opened non-blocking and checked with fstat on the open descriptor, so a
 * FIFO or a device is refused without waiting on it, and a file swapped after
 * the check is still the one checked. The whole file is read into memory with
 * a size cap; decoders then work from memory. */
#include "level.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void th_asset_free(th_asset *a)
{
	free(a->path);
	free(a->data);
	memset(a, 0, sizeof(*a));
}

static void stamp_from(th_file_stamp *s, const struct stat *st)
{
	s->mtime = st->st_mtim;
	s->size = st->st_size;
	s->inode = st->st_ino;
}

bool th_file_stamp_read(const char *path, th_file_stamp *out)
{
	struct stat st;
	if (stat(path, &st) != 0) return false;
	stamp_from(out, &st);
	return true;
}

bool th_file_stamp_equal(const th_file_stamp *a, const th_file_stamp *b)
{
	return a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec && a->size == b->size &&
	       a->inode == b->inode;
}

/* Opens and reads a resolved path; errno-style reason in *why on failure. */
static bool read_whole(const char *path, size_t max_bytes, th_asset *out, const char **why, char *buf, size_t buf_size)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*why = strerror(errno);
		return false;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		*why = strerror(errno);
		close(fd);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
		close(fd);
		return false;
	}
	if ((unsigned long long)st.st_size > max_bytes) {
		snprintf(buf, buf_size, "too large (%lld bytes; at most %zu)", (long long)st.st_size, max_bytes);
		*why = buf;
		close(fd);
		return false;
	}
	size_t size = (size_t)st.st_size;
	unsigned char *data = malloc(size > 0 ? size : 1);
	if (data == NULL) {
		*why = "out of memory";
		close(fd);
		return false;
	}
	size_t got = 0;
	while (got < size) {
		ssize_t n = read(fd, data + got, size - got);
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) break; /* shrank while we read: take what is there */
		got += (size_t)n;
	}
	close(fd);
	out->data = data;
	out->size = got;
	stamp_from(&out->stamp, &st);
	return true;
}

bool th_asset_reread(const char *path, size_t max_bytes, th_asset *out)
{
	memset(out, 0, sizeof(*out));
	const char *why = NULL;
	char buf[96];
	if (!read_whole(path, max_bytes, out, &why, buf, sizeof(buf))) return false;
	out->path = strdup(path);
	if (out->path == NULL) {
		th_asset_free(out);
		return false;
	}
	return true;
}

/* Is path (resolved) inside dir (resolved)? */
static bool inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/') return path[0] == '/';
	return strncmp(path, dir, n) == 0 && path[n] == '/';
}

bool th_asset_read(th_level *lv, const char *kind, const char *name, size_t max_bytes, th_asset *out, char *err,
                   size_t err_size)
{
	memset(out, 0, sizeof(*out));
	if (name[0] == '\0') {
		snprintf(err, err_size, "%s file name expected, got an empty string", kind);
		return false;
	}
	char joined[PATH_MAX], resolved[PATH_MAX];
	if (name[0] != '/' && lv->level_dir != NULL) {
		if ((size_t)snprintf(joined, sizeof(joined), "%s/%s", lv->level_dir, name) >= sizeof(joined)) {
			snprintf(err, err_size, "cannot open %s '%.200s': name too long", kind, name);
			return false;
		}
	} else {
		if (strlen(name) >= sizeof(joined)) {
			snprintf(err, err_size, "cannot open %s '%.200s': name too long", kind, name);
			return false;
		}
		strcpy(joined, name);
	}
	if (realpath(joined, resolved) == NULL) {
		/* name the path looked at: a relative name is read from the level's folder */
		if (strcmp(joined, name) != 0)
			snprintf(err, err_size, "cannot open %s '%.200s' (looked for %.400s): %s", kind, name, joined,
			         strerror(errno));
		else
			snprintf(err, err_size, "cannot open %s '%.200s': %s", kind, name, strerror(errno));
		return false;
	}
	if (lv->opt->sandbox && (lv->level_dir == NULL || !inside(resolved, lv->level_dir))) {
		snprintf(err, err_size, "cannot open %s '%.200s': outside the level's folder (--sandbox)", kind, name);
		return false;
	}
	const char *why = NULL;
	char buf[96];
	if (!read_whole(resolved, max_bytes, out, &why, buf, sizeof(buf))) {
		snprintf(err, err_size, "cannot open %s '%.200s': %s", kind, name, why);
		return false;
	}
	out->path = strdup(resolved);
	if (out->path == NULL) {
		th_asset_free(out);
		snprintf(err, err_size, "cannot open %s '%.200s': out of memory", kind, name);
		return false;
	}
	return true;
}
