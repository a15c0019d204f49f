/* tumble benchmark: snapshots of the large pyramid (base 100, 5,050 boxes, the
 * scene of bench_common.h), taken after 30 steps with every box awake and
 * touching its neighbours. Prints one line:
 *
 *   snapshot scene=large_pyramid bodies=5051 contacts=... world_bytes=... snapshot_bytes=...
 *   snapshot_ms=... first_snapshot_ms=... spaced_snapshot_ms=... restore_ms=... save_ms=... saved_bytes=... load_ms=...
 *   restore_loaded_ms=... exact=yes
 *
 * Each time is the median of the repeats (wall clock; first_snapshot_ms is the
 * first one, whose memory is new to the process; spaced_snapshot_ms: 9
 * snapshots 30 steps apart, each kept, so each needs a new block). exact: 60 steps after a
 * restore of the loaded bytes, into a new world, give the hash that 60 steps
 * after the moment gave. */
#include "bench_common.h"
#include "tumble/physics.h"

#define REPEATS 21
#define SPACED 9

/* The scene, as the bench has always built it: 1 m boxes side by side in rows
 * of base - r, on a ground box whose top is y = 0; 30 steps awake. */
#define PYRAMID_BOX_HALF 0.5f
#define PYRAMID_GROUND_HALF_HEIGHT 1.0f
#define PYRAMID_AWAKE_STEPS 30

static double now_ms(void) { return bench_clock_ms(CLOCK_MONOTONIC); }

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof *t, compare_doubles);
	return t[n / 2];
}

static void must(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "bench_snapshot: %s failed\n", what);
		exit(1);
	}
}

static tb_world *pyramid(int base)
{
	tb_world *w = tb_create_world(NULL);
	must(w != NULL, "tb_create_world");
	tb_body_def bd = tb_default_body_def();
	tb_shape_def sd = tb_default_shape_def();
	sd.density = 1.0f;
	sd.friction = 0.6f;
	bd.position = tb_v2(0.0f, -PYRAMID_GROUND_HALF_HEIGHT);
	tb_body_id ground = tb_create_body(w, &bd, NULL);
	tb_polygon floor = tb_make_box((float)base * PYRAMID_BOX_HALF + 10.0f, PYRAMID_GROUND_HALF_HEIGHT);
	must(!TB_IS_NULL(tb_create_polygon_shape(w, ground, &sd, &floor, NULL)), "ground");
	tb_polygon box = tb_make_box(PYRAMID_BOX_HALF, PYRAMID_BOX_HALF);
	bd.type = TB_DYNAMIC_BODY;
	for (int r = 0; r < base; ++r) {
		for (int k = 0; k < base - r; ++k) {
			float x = ((float)k - 0.5f * (float)(base - r - 1)) * 2.0f * PYRAMID_BOX_HALF;
			bd.position = tb_v2(x, PYRAMID_BOX_HALF + (float)r * 2.0f * PYRAMID_BOX_HALF);
			tb_body_id b = tb_create_body(w, &bd, NULL);
			must(!TB_IS_NULL(b) && !TB_IS_NULL(tb_create_polygon_shape(w, b, &sd, &box, NULL)), "box");
		}
	}
	return w;
}

int main(int argc, char **argv)
{
	int base = argc > 1 ? atoi(argv[1]) : 100;
	if (base < 1 || base > 1000) {
		fprintf(stderr, "usage: %s [base]\n", argv[0]);
		return 2;
	}
	tb_world *w = pyramid(base);
	for (int i = 0; i < PYRAMID_AWAKE_STEPS; ++i) tb_world_step(w, BENCH_DT);
	tb_counters c = tb_world_get_counters(w);

	/* snapshot: the first, then repeats (each freed before the next) */
	double t[REPEATS];
	double t0 = now_ms();
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	double first = now_ms() - t0;
	must(snap != NULL, "tb_world_snapshot");
	for (int i = 0; i < REPEATS; ++i) {
		t0 = now_ms();
		tb_snapshot *s = tb_world_snapshot(w, NULL);
		t[i] = now_ms() - t0;
		must(s != NULL, "tb_world_snapshot");
		tb_snapshot_free(s);
	}
	double snapshot_ms = median(t, REPEATS);
	size_t snapshot_bytes = tb_snapshot_get_allocated_bytes(snap), world_bytes = tb_world_get_allocated_bytes(w);

	/* the continuation the restores must give back */
	uint64_t at = tb_world_hash(w);
	for (int i = 0; i < 60; ++i) tb_world_step(w, BENCH_DT);
	uint64_t later = tb_world_hash(w);

	/* restore into the same world, stepped one step away each time */
	for (int i = 0; i < REPEATS; ++i) {
		tb_world_step(w, BENCH_DT);
		t0 = now_ms();
		must(tb_world_restore(w, snap) == TB_OK, "tb_world_restore");
		t[i] = now_ms() - t0;
	}
	double restore_ms = median(t, REPEATS);
	must(tb_world_hash(w) == at, "the restored hash");

	/* bytes */
	size_t saved = tb_snapshot_save(snap, NULL, 0);
	unsigned char *bytes = malloc(saved);
	must(bytes != NULL, "malloc");
	for (int i = 0; i < REPEATS; ++i) {
		t0 = now_ms();
		tb_snapshot_save(snap, bytes, saved);
		t[i] = now_ms() - t0;
	}
	double save_ms = median(t, REPEATS);
	tb_snapshot *loaded = NULL;
	for (int i = 0; i < REPEATS; ++i) {
		tb_snapshot_free(loaded);
		tb_status st = TB_OK;
		t0 = now_ms();
		loaded = tb_snapshot_load(bytes, saved, NULL, &st);
		t[i] = now_ms() - t0;
		must(loaded != NULL, tb_status_string(st));
	}
	double load_ms = median(t, REPEATS);
	tb_world *fresh = tb_create_world(NULL);
	t0 = now_ms();
	must(tb_world_restore(fresh, loaded) == TB_OK, "restore of the loaded snapshot");
	double restore_loaded_ms = now_ms() - t0;
	for (int i = 0; i < 60; ++i) tb_world_step(fresh, BENCH_DT);
	bool exact = tb_world_hash(fresh) == later;

	/* checkpoints half a second apart, each kept: a new block each, which the
	 * steps between write ahead of it (the world's spares) */
	tb_snapshot *kept[SPACED];
	for (int i = 0; i < SPACED; ++i) {
		for (int k = 0; k < 30; ++k) tb_world_step(w, BENCH_DT);
		t0 = now_ms();
		kept[i] = tb_world_snapshot(w, NULL);
		t[i] = now_ms() - t0;
		must(kept[i] != NULL, "tb_world_snapshot");
	}
	double spaced_ms = median(t, SPACED);
	for (int i = 0; i < SPACED; ++i) tb_snapshot_free(kept[i]);

	printf("snapshot scene=large_pyramid bodies=%d contacts=%d world_bytes=%zu snapshot_bytes=%zu snapshot_ms=%.3f "
	       "first_snapshot_ms=%.3f spaced_snapshot_ms=%.3f restore_ms=%.3f save_ms=%.3f saved_bytes=%zu load_ms=%.3f "
	       "restore_loaded_ms=%.3f exact=%s\n",
	       c.body_count, c.contact_count, world_bytes, snapshot_bytes, snapshot_ms, first, spaced_ms, restore_ms, save_ms, saved,
	       load_ms, restore_loaded_ms, exact ? "yes" : "NO");
	free(bytes);
	tb_snapshot_free(loaded);
	tb_snapshot_free(snap);
	tb_destroy_world(fresh);
	tb_destroy_world(w);
	return exact ? 0 : 1;
}
