/* tumble host: what a path names (a stat, nothing opened or read), for the
 * host's checks of its root folder, the level's file and --package's
 * folders. */
#ifndef TH_HOST_FSINFO_H
#define TH_HOST_FSINFO_H

#include <stdbool.h>
#include <sys/stat.h>

static inline bool th_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static inline bool th_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

#endif
