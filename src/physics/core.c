/* tumble physics: the allocator, array growth, the clock and a sort that does not allocate. */
#include "core.h"

#include <time.h>

void *tb_default_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud;
	(void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, nsize);
}

void tb_allocator_init(tb_allocator *a, tb_alloc_fn *fn, void *ud, size_t max_bytes)
{
	a->fn = fn != NULL ? fn : tb_default_alloc;
	a->ud = fn != NULL ? ud : NULL;
	a->bytes = 0;
	a->max_bytes = max_bytes;
}

/* A block is allocated TB_ALIGNMENT bytes larger than asked and the pointer
 * handed out is the first aligned address past its start. The byte before it
 * keeps the distance back to the start (1..TB_ALIGNMENT), so any alignment the
 * allocator gives, even none, comes out aligned. */
_Static_assert(TB_ALIGNMENT <= 255 && (TB_ALIGNMENT & (TB_ALIGNMENT - 1)) == 0, "offset fits in a byte");

void *tb_alloc(tb_allocator *a, size_t size)
{
	if (size > SIZE_MAX - TB_ALIGNMENT) return NULL;
	size_t total = size + TB_ALIGNMENT;
	if (a->max_bytes != 0 && (total > a->max_bytes || a->bytes > a->max_bytes - total)) return NULL;
	unsigned char *raw = a->fn(a->ud, NULL, 0, total);
	if (raw == NULL) return NULL;
	uintptr_t start = (uintptr_t)raw;
	uintptr_t aligned = (start + TB_ALIGNMENT) & ~(uintptr_t)(TB_ALIGNMENT - 1);
	unsigned char *p = raw + (aligned - start);
	p[-1] = (unsigned char)(aligned - start);
	a->bytes += total;
	return p;
}

void tb_free(tb_allocator *a, void *ptr, size_t size)
{
	if (ptr == NULL) return;
	unsigned char *p = ptr;
	unsigned char *raw = p - p[-1];
	size_t total = size + TB_ALIGNMENT;
	TB_ASSERT(a->bytes >= total);
	a->bytes -= total;
	a->fn(a->ud, raw, total, 0);
}

void *tb_realloc(tb_allocator *a, void *ptr, size_t old_size, size_t new_size)
{
	if (ptr == NULL) return tb_alloc(a, new_size);
	if (new_size > SIZE_MAX - TB_ALIGNMENT) return NULL;
	size_t old_total = old_size + TB_ALIGNMENT, new_total = new_size + TB_ALIGNMENT;
	if (a->max_bytes != 0 && new_total > old_total &&
	    (new_total > a->max_bytes || a->bytes - old_total > a->max_bytes - new_total))
		return NULL;
	unsigned char *p = ptr;
	size_t old_offset = p[-1];
	/* the allocator keeps the block's bytes where they were relative to its
	 * start (or leaves the block alone and fails) */
	unsigned char *raw = a->fn(a->ud, p - old_offset, old_total, new_total);
	if (raw == NULL) return NULL;
	uintptr_t start = (uintptr_t)raw;
	size_t offset = (size_t)(((start + TB_ALIGNMENT) & ~(uintptr_t)(TB_ALIGNMENT - 1)) - start);
	if (offset != old_offset) memmove(raw + offset, raw + old_offset, old_size < new_size ? old_size : new_size);
	raw[offset - 1] = (unsigned char)offset;
	a->bytes = a->bytes - old_total + new_total;
	return raw + offset;
}

void *tb_allocator_alloc_fn(void *ud, void *ptr, size_t osize, size_t nsize)
{
	tb_allocator *a = ud;
	if (nsize == 0) {
		tb_free(a, ptr, osize);
		return NULL;
	}
	return tb_realloc(a, ptr, osize, nsize);
}

bool tb_array_grow(tb_allocator *a, void **data, int32_t *capacity, int32_t needed, size_t element_size)
{
	if (needed <= *capacity) return true;
	if (needed > INT32_MAX / 2) return false;
	int32_t cap = *capacity > 0 ? *capacity : 16;
	while (cap < needed) cap *= 2;
	if ((size_t)cap > SIZE_MAX / element_size) return false;
	size_t old_bytes = (size_t)*capacity * element_size, new_bytes = (size_t)cap * element_size;
	unsigned char *p = tb_realloc(a, *data, old_bytes, new_bytes);
	if (p == NULL) return false;
	/* new elements start zeroed, so pools and per-slot arrays can rely on it */
	memset(p + old_bytes, 0, new_bytes - old_bytes);
	*data = p;
	*capacity = cap;
	return true;
}

double tb_time_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1.0e-6;
}

static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
	for (size_t i = 0; i < size; ++i) {
		unsigned char t = a[i];
		a[i] = b[i];
		b[i] = t;
	}
}

/* Moves the element at `root` down the max-heap v[0 .. n) until neither child is larger. */
static void sift_down(unsigned char *v, size_t root, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t child = 2 * root + 1;
		if (child >= n) return;
		if (child + 1 < n && cmp(v + child * size, v + (child + 1) * size) < 0) child += 1;
		if (cmp(v + root * size, v + child * size) >= 0) return;
		swap_bytes(v + root * size, v + child * size, size);
		root = child;
	}
}

void tb_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	unsigned char *v = base;
	if (n < 2) return;
	for (size_t i = n / 2; i-- > 0;) sift_down(v, i, n, size, cmp);
	for (size_t end = n - 1; end > 0; --end) {
		swap_bytes(v, v + end * size, size);
		sift_down(v, 0, end, size, cmp);
	}
}
