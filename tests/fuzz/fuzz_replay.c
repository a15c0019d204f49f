/* libFuzzer target: --replay files (record.c). The bytes are written to a
 * file, opened as the host opens a recording and read to its end or its
 * first error. What must hold: every item is an event, a frame of at most
 * TH_REPLAY_MAX_STEPS steps, the end or an error with a message, and the
 * reading ends (a bounded number of lines, each at least one byte). */
#include "fuzz_host.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("input.rec", data, size);
	th_replay r;
	int w = 0, h = 0;
	if (!th_replay_open(&r, path, &w, &h)) {
		if (r.error[0] == '\0') abort();
		return 0;
	}
	if (w < 0 || h < 0 || w > TH_VIEW_MAX || h > TH_VIEW_MAX) abort();
	/* every item but a run's repeats reads at least one byte: a generous bound */
	size_t items = 0, most = 64 + 2 * size + 1000000;
	for (;;) {
		th_event ev;
		int steps = -1;
		th_replay_item it = th_replay_next(&r, &ev, &steps);
		if (it == TH_REPLAY_END) break;
		if (it == TH_REPLAY_ERROR) {
			if (r.error[0] == '\0') abort();
			break;
		}
		if (it == TH_REPLAY_FRAME && (steps < 0 || steps > TH_REPLAY_MAX_STEPS)) abort();
		/* a run of identical frames ("F steps count") is played by the host
		 * one frame at a time; here its repeats are skipped */
		if (it == TH_REPLAY_FRAME) r.run_left = 0;
		if (it != TH_REPLAY_FRAME && it != TH_REPLAY_EVENT) abort();
		if (++items > most) {
			fprintf(stderr, "fuzz_replay: more than %zu items from %zu bytes\n", most, size);
			abort();
		}
	}
	th_replay_close(&r);
	return 0;
}
