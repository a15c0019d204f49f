/* tumble physics: internal helpers shared by the engine's source files. */
#ifndef TB_CORE_H
#define TB_CORE_H

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define TB_ASSERT(c) assert(c)

/* Grows a heap array so that it holds at least `needed` elements. Capacity
 * doubles, so steady-state steps never allocate. Aborts on out of memory: a
 * physics world cannot continue half-updated. */
void *tb_grow_array(void *ptr, int elem_size, int *capacity, int needed);
#define TB_RESERVE(ptr, cap, needed)                                                                        \
	do {                                                                                                    \
		if ((needed) > (cap)) (ptr) = tb_grow_array((ptr), (int)sizeof(*(ptr)), &(cap), (needed));         \
	} while (0)

void *tb_alloc(size_t size);
void *tb_alloc_zeroed(size_t size);
void tb_free(void *ptr);

/* Monotonic clock in milliseconds, for the profile only (never for physics). */
double tb_time_ms(void);

#endif
