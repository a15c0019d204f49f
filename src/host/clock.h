/* tumble host: the monotonic clock, in milliseconds. */
#ifndef TH_HOST_CLOCK_H
#define TH_HOST_CLOCK_H

#include <time.h>

static inline double th_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

#endif
