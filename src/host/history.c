/* tumble host: the running level's history (history.h). */
#include "history.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void th_history_init(th_history *h, size_t limit)
{
	memset(h, 0, sizeof(*h));
	h->limit = limit;
}

void th_history_free(th_history *h)
{
	assert(h->snap_count == 0);
	free(h->events);
	free(h->frames);
	free(h->snaps);
	size_t limit = h->limit, snap_limit = h->snap_limit;
	int snap_max = h->snap_max;
	memset(h, 0, sizeof(*h));
	h->limit = limit;
	h->snap_limit = snap_limit;
	h->snap_max = snap_max;
}

void th_history_reset(th_history *h, const th_start_state *start)
{
	assert(h->snap_count == 0);
	h->start = *start;
	h->event_count = 0;
	h->frame_count = 0;
	h->open_first = 0;
	h->total_frames = 0;
	h->total_steps = 0;
	h->full = false;
}

size_t th_history_bytes(const th_history *h)
{
	return (size_t)h->event_capacity * sizeof(th_event) + (size_t)h->frame_capacity * sizeof(th_history_frame);
}

/* Room for one more item in an array; false (and full set) past the limit. */
static bool reserve(th_history *h, void **items, int *capacity, int count, size_t size)
{
	if (count < *capacity) return true;
	int capacity2 = *capacity != 0 ? 2 * *capacity : 256;
	size_t grown = th_history_bytes(h) + (size_t)(capacity2 - *capacity) * size;
	void *p = grown <= h->limit && capacity2 > *capacity ? realloc(*items, (size_t)capacity2 * size) : NULL;
	if (p == NULL) {
		h->full = true;
		return false;
	}
	*items = p;
	*capacity = capacity2;
	return true;
}

void th_history_event(th_history *h, const th_event *ev)
{
	if (h->full) return;
	if (!reserve(h, (void **)&h->events, &h->event_capacity, h->event_count, sizeof(th_event))) return;
	h->events[h->event_count++] = *ev;
}

void th_history_end_frame(th_history *h, int steps)
{
	if (h->full) return;
	int events = h->event_count - h->open_first;
	th_history_frame *last = h->frame_count > 0 ? &h->frames[h->frame_count - 1] : NULL;
	if (events == 0 && last != NULL && last->event_count == 0 && last->steps == steps && last->repeat < 0x7fffffff) {
		last->repeat += 1;
	} else {
		if (!reserve(h, (void **)&h->frames, &h->frame_capacity, h->frame_count, sizeof(th_history_frame))) return;
		h->frames[h->frame_count++] = (th_history_frame){h->open_first, events, steps, 1};
	}
	h->open_first = h->event_count;
	h->total_frames += 1;
	h->total_steps += steps;
}

th_history_pos th_history_end(const th_history *h)
{
	th_history_pos pos = {0, 0, h->total_frames, h->total_steps};
	if (h->frame_count > 0) {
		/* inside the last record, so frames merged into it later still follow */
		pos.frame = h->frame_count - 1;
		pos.repeat = h->frames[pos.frame].repeat;
	}
	return pos;
}

bool th_history_next(const th_history *h, th_history_pos *pos, const th_event **events, int *count, int *steps)
{
	while (pos->frame < h->frame_count && pos->repeat >= h->frames[pos->frame].repeat) {
		pos->frame += 1;
		pos->repeat = 0;
	}
	if (pos->frame >= h->frame_count) return false;
	const th_history_frame *f = &h->frames[pos->frame];
	*events = h->events + f->first_event;
	*count = f->event_count;
	*steps = f->steps;
	pos->repeat += 1;
	pos->frames += 1;
	pos->steps += f->steps;
	return true;
}

void th_history_truncate(th_history *h, const th_history_pos *pos)
{
	if (pos->frame >= h->frame_count) return;
	int keep = pos->frame;
	if (pos->repeat > 0) {
		h->frames[keep].repeat = pos->repeat;
		keep += 1;
	}
	h->frame_count = keep;
	h->event_count = keep > 0 ? h->frames[keep - 1].first_event + h->frames[keep - 1].event_count : 0;
	h->open_first = h->event_count;
	h->total_frames = pos->frames;
	h->total_steps = pos->steps;
	h->full = false;
}

/* ---------------- the kept moments ---------------- */

void th_history_snap_limits(th_history *h, int max_count, size_t max_bytes)
{
	h->snap_max = max_count;
	h->snap_limit = max_bytes;
}

bool th_history_snap_push(th_history *h, const th_history_snap *s)
{
	const th_history_snap *last = th_history_snap_newest(h);
	assert(last == NULL || (s->step >= last->step && s->pos.frames >= last->pos.frames));
	(void)last;
	if (h->snap_count == h->snap_capacity) {
		int capacity = h->snap_capacity != 0 ? 2 * h->snap_capacity : 64;
		th_history_snap *p = realloc(h->snaps, (size_t)capacity * sizeof(*p));
		if (p == NULL) return false;
		h->snaps = p;
		h->snap_capacity = capacity;
	}
	h->snaps[h->snap_count++] = *s;
	h->snap_bytes += s->bytes;
	return true;
}

bool th_history_snap_over(const th_history *h)
{
	return h->snap_count > 0 && (h->snap_count > h->snap_max || h->snap_bytes > h->snap_limit);
}

bool th_history_snap_pop_oldest(th_history *h, th_history_snap *out)
{
	if (h->snap_count == 0) return false;
	*out = h->snaps[0];
	/* a few hundred entries at most, one taken every half second */
	memmove(h->snaps, h->snaps + 1, (size_t)(h->snap_count - 1) * sizeof(*h->snaps));
	h->snap_count -= 1;
	h->snap_bytes -= out->bytes;
	return true;
}

bool th_history_snap_pop_newest(th_history *h, th_history_snap *out)
{
	if (h->snap_count == 0) return false;
	*out = h->snaps[--h->snap_count];
	h->snap_bytes -= out->bytes;
	return true;
}

const th_history_snap *th_history_snap_find(const th_history *h, long long step, const th_history_pos *limit)
{
	/* binary search: the last with snaps[i].step <= step */
	int lo = 0, hi = h->snap_count;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (h->snaps[mid].step <= step) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	int i = lo - 1;
	while (i >= 0 && limit != NULL && h->snaps[i].pos.frames > limit->frames) i -= 1;
	return i >= 0 ? &h->snaps[i] : NULL;
}

const th_history_snap *th_history_snap_newest(const th_history *h)
{
	return h->snap_count > 0 ? &h->snaps[h->snap_count - 1] : NULL;
}

const th_history_snap *th_history_snap_oldest(const th_history *h)
{
	return h->snap_count > 0 ? &h->snaps[0] : NULL;
}
