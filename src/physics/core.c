/* tumble physics: allocation and timing helpers. */
#include "core.h"

#include <stdio.h>
#include <time.h>

void *tb_alloc(size_t size)
{
	void *p = malloc(size > 0 ? size : 1);
	if (p == NULL) {
		fprintf(stderr, "tumble: out of memory (%zu bytes)\n", size);
		abort();
	}
	return p;
}

void *tb_alloc_zeroed(size_t size)
{
	void *p = calloc(1, size > 0 ? size : 1);
	if (p == NULL) {
		fprintf(stderr, "tumble: out of memory (%zu bytes)\n", size);
		abort();
	}
	return p;
}

void tb_free(void *ptr) { free(ptr); }

void *tb_grow_array(void *ptr, int elem_size, int *capacity, int needed)
{
	int cap = *capacity > 0 ? *capacity : 16;
	while (cap < needed) cap *= 2;
	void *p = realloc(ptr, (size_t)cap * (size_t)elem_size);
	if (p == NULL) {
		fprintf(stderr, "tumble: out of memory (%d x %d bytes)\n", cap, elem_size);
		abort();
	}
	/* new elements start zeroed so pools can rely on it */
	memset((char *)p + (size_t)*capacity * (size_t)elem_size, 0, (size_t)(cap - *capacity) * (size_t)elem_size);
	*capacity = cap;
	return p;
}

double tb_time_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1.0e-6;
}
