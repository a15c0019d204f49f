/* libFuzzer target: snapshot strings (tb_snapshot_load, what tumble.snapshot
 * reads). The header's size and checksum are fixed up for the payload as it
 * is before loading, as an attacker who knows the format would, so the
 * fuzzer's changes reach the loader's checks of counts, values and links
 * rather than stopping at the checksum.
 *
 * What must hold for every input: the loader returns a status or a
 * snapshot, allocating in proportion to the input (libFuzzer's
 * -malloc_limit_mb catches a small string asking for a gigabyte); a snapshot
 * that loads saves to bytes that load again, to the same bytes; it restores
 * into a world that validates and steps (the build checks each step with
 * TB_VALIDATE); and the stepped world saves to bytes that load again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

#define REQUIRE(c)                                                                                           \
	do {                                                                                                     \
		if (!(c)) {                                                                                          \
			fprintf(stderr, "fuzz_snapshot: %s:%d: %s does not hold\n", __FILE__, __LINE__, #c);            \
			abort();                                                                                         \
		}                                                                                                    \
	} while (0)

static void put_u64_le(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; ++i) p[i] = (unsigned char)(v >> (8 * i));
}

/* Saves, loads the bytes again and checks they are the same; returns the copy. */
static tb_snapshot *round_trip(const tb_snapshot *snap)
{
	size_t n = tb_snapshot_save(snap, NULL, 0);
	unsigned char *b = malloc(n);
	REQUIRE(b != NULL && tb_snapshot_save(snap, b, n) == n);
	tb_status st = TB_OK;
	tb_snapshot *again = tb_snapshot_load(b, n, NULL, &st);
	if (again == NULL) fprintf(stderr, "fuzz_snapshot: a saved snapshot does not load: %s\n", tb_status_string(st));
	REQUIRE(again != NULL && st == TB_OK);
	size_t n2 = tb_snapshot_save(again, NULL, 0);
	unsigned char *b2 = malloc(n2);
	REQUIRE(b2 != NULL && n2 == n && tb_snapshot_save(again, b2, n2) == n2 && memcmp(b, b2, n) == 0);
	free(b);
	free(b2);
	return again;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *b = malloc(size > 0 ? size : 1);
	if (b == NULL) return 0;
	if (size > 0) memcpy(b, data, size);
	if (size >= TB_SNAPSHOT_HEADER_SIZE) {
		size_t payload = size - TB_SNAPSHOT_HEADER_SIZE;
		put_u64_le(b + 20, payload);
		put_u64_le(b + 28, tb_snapshot_checksum(b + TB_SNAPSHOT_HEADER_SIZE, payload));
	}
	tb_status st = TB_STATUS_COUNT;
	tb_snapshot *snap = tb_snapshot_load(b, size, NULL, &st);
	free(b);
	if (snap == NULL) {
		REQUIRE(st != TB_OK && st < TB_STATUS_COUNT);
		return 0;
	}
	REQUIRE(st == TB_OK);
	tb_snapshot *again = round_trip(snap);

	tb_world_def def = tb_default_world_def();
	tb_world *w = tb_create_world(&def);
	REQUIRE(w != NULL);
	REQUIRE(tb_world_restore(w, again) == TB_OK);
	REQUIRE(tb_world_validate(w));
	for (int i = 0; i < 8; ++i) tb_world_step(w, 1.0f / 60.0f);
	REQUIRE(tb_world_validate(w));
	tb_snapshot *later = tb_world_snapshot(w, &st);
	REQUIRE(later != NULL);
	tb_snapshot_free(round_trip(later));
	tb_snapshot_free(later);
	tb_destroy_world(w);
	tb_snapshot_free(again);
	tb_snapshot_free(snap);
	return 0;
}
