/* tumble host: the files a level's code came from, watched for hot reload.
 * Polling compares modification time, size and inode (which also catches
 * editors that save by renaming a new file over the old one), then the
 * content: a save that leaves the bytes as they were changes nothing. A
 * change is reported once the file has stopped changing (no change between
 * two polls), so a save written in two steps is one change, not two. */
#ifndef TH_HOST_WATCH_H
#define TH_HOST_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

typedef struct th_watch_file {
	char *path;
	bool exists;
	struct timespec mtime;
	off_t size;
	ino_t inode;
	uint64_t content;  /* hash of the bytes last reported */
	bool settling;     /* changed since the last poll: wait for it to settle */
} th_watch_file;

typedef struct th_watch {
	th_watch_file *files;
	int count, capacity;
} th_watch;

void th_watch_init(th_watch *w);
void th_watch_free(th_watch *w);
void th_watch_add(th_watch *w, const char *path);
/* True if the content of any watched file changed since it was added or last
 * reported, and has settled. */
bool th_watch_poll(th_watch *w);
/* The host itself wrote path (edit mode's write-back, which reloads at
 * once): its present content counts as reported. */
void th_watch_seen(th_watch *w, const char *path);

#endif
