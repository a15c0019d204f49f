/* tumble host: what the app tells: a line when the timeline or a reload does
 * something (on the terminal, and on screen for a few seconds), numbers
 * written for people, and the lines a scripted run ends with (the summary
 * with the world's hash, --rewind-stats). */
#include "app_internal.h"

#include <lauxlib.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long something took: "31 ms", "1.24 s". */
const char *th_app_time_text(double ms, char *buf, size_t size)
{
	if (ms < 1000.0) {
		snprintf(buf, size, "%.0f ms", ms);
	} else {
		snprintf(buf, size, "%.2f s", ms / 1000.0);
	}
	return buf;
}

/* 1843 -> "1,843" */
const char *th_app_count_text(long long n, char *buf, size_t size)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%lld", n < 0 ? -n : n);
	size_t o = 0;
	if (n < 0 && o + 1 < size) buf[o++] = '-';
	for (int i = 0; i < len && o + 2 < size; ++i) {
		if (i > 0 && (len - i) % 3 == 0) buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/* One line per save: on the terminal, and on screen for a few seconds. */
void th_app_say(th_app *app, const char *fmt, ...)
{
	char text[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fprintf(stderr, "tumble: %s\n", text);
	fflush(stderr);
	th_overlay_notice(&app->overlay, text);
}

void th_app_stat_add(th_stat *st, double ms)
{
	if (st->count == st->capacity) {
		int capacity = st->capacity != 0 ? 2 * st->capacity : 256;
		if (capacity > 1 << 20) return;
		double *p = realloc(st->ms, (size_t)capacity * sizeof(*p));
		if (p == NULL) return;
		st->ms = p;
		st->capacity = capacity;
	}
	st->ms[st->count++] = ms;
}

void th_app_print_summary(th_app *app, double seconds)
{
	th_level *lv = &app->level;
	tb_counters c = {0};
	uint64_t hash = 0;
	if (lv->world != NULL) {
		c = tb_world_get_counters(lv->world);
		hash = tb_world_hash(lv->world);
	}
	printf("frames=%lld steps=%lld bodies=%d time=%.3fs hash=%016llx\n", app->render_frame, lv->frame, c.body_count,
	       seconds, (unsigned long long)hash);
	fflush(stdout);
}

static int compare_ms(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_ms(th_stat *st)
{
	if (st->count == 0) return 0.0;
	qsort(st->ms, (size_t)st->count, sizeof(double), compare_ms);
	return st->ms[st->count / 2];
}

static double max_ms(const th_stat *st)
{
	return st->count > 0 ? st->ms[st->count - 1] : 0.0; /* sorted by median_ms */
}

/* --rewind-stats: what keeping and using the moments cost. */
void th_app_print_rewind_stats(th_app *app)
{
	const th_history *h = &app->history;
	double cap = median_ms(&app->capture_stats), res = median_ms(&app->restore_stats), sk = median_ms(&app->seek_stats);
	printf("rewind moments=%d bytes=%zu each=%zu captures=%d capture_ms=%.4f capture_max_ms=%.4f restores=%d "
	       "restore_ms=%.4f seeks=%d seek_ms=%.4f\n",
	       h->snap_count, h->snap_bytes, h->snap_count > 0 ? h->snap_bytes / (size_t)h->snap_count : 0,
	       app->capture_stats.count, cap, max_ms(&app->capture_stats), app->restore_stats.count, res,
	       app->seek_stats.count, sk);
	int versions = 0, edits = 0;
	for (int i = 0; i < app->code_count; ++i) {
		versions += app->codes[i].ref != LUA_NOREF;
		edits += app->codes[i].edit;
	}
	printf("code versions=%d edits=%d\n", versions, edits);
	fflush(stdout);
}
