/* tumble benchmark: what sleeping bodies cost a step. 100 boxes kept awake on
 * a ground of their own, alone and beside 100,000 boxes asleep in 100 rows of
 * 1,000 on grounds of their own (200,000 contacts, all asleep). Prints:
 *
 *   sleeping awake=100 asleep=0 ms=...
 *   sleeping awake=100 asleep=100000 ms=... contacts=... ratio=...
 *
 * ms is per step, the best of interleaved rounds of 100 steps (wall clock):
 * the rounds alternate between the two worlds so the machine's noise meets
 * both. ratio is the crowded world's time over the lone one's. */
#include "bench_common.h"
#include "tumble/physics.h"

#define ROUNDS 7
#define STEPS 100

static double now_ms(void) { return bench_clock_ms(CLOCK_MONOTONIC); }

static void box(tb_world *w, float x, float y, bool can_sleep)
{
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.position = tb_v2(x, y);
	bd.enable_sleep = can_sleep;
	tb_body_id b = tb_create_body(w, &bd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon p = tb_make_box(0.5f, 0.5f);
	if (tb_create_polygon_shape(w, b, &sd, &p, NULL).index1 == 0) {
		fprintf(stderr, "bench_sleeping: a box was refused\n");
		exit(1);
	}
}

static void ground(tb_world *w, float top, float half_width)
{
	tb_body_def gd = tb_default_body_def();
	gd.position = tb_v2(0.0f, top - 0.5f);
	tb_body_id g = tb_create_body(w, &gd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon p = tb_make_box(half_width, 0.5f);
	tb_create_polygon_shape(w, g, &sd, &p, NULL);
}

static tb_world *scene(int asleep)
{
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	for (int row = 0; row * 1000 < asleep; ++row) {
		float top = -10.0f - 3.0f * (float)row;
		ground(w, top, 700.0f);
		for (int i = 0; i < 1000 && row * 1000 + i < asleep; ++i) box(w, -600.0f + 1.2f * (float)i, top + 0.5f, true);
	}
	ground(w, 0.0f, 100.0f);
	for (int i = 0; i < 100; ++i) box(w, -60.0f + 1.2f * (float)i, 0.5f, false);
	/* the rows settle and fall asleep */
	for (int s = 0; s < 120; ++s) tb_world_step(w, 1.0f / 60.0f);
	return w;
}

static double round_ms(tb_world *w)
{
	double t0 = now_ms();
	for (int s = 0; s < STEPS; ++s) tb_world_step(w, 1.0f / 60.0f);
	return (now_ms() - t0) / STEPS;
}

int main(void)
{
	tb_world *alone = scene(0), *crowd = scene(100000);
	tb_counters c = tb_world_get_counters(crowd);
	if (c.awake_body_count != 100) {
		fprintf(stderr, "bench_sleeping: %d bodies awake in the crowded world, 100 expected\n", c.awake_body_count);
		return 1;
	}
	double best_alone = 1e30, best_crowd = 1e30;
	for (int r = 0; r < ROUNDS; ++r) {
		double a = round_ms(alone), b = round_ms(crowd);
		if (a < best_alone) best_alone = a;
		if (b < best_crowd) best_crowd = b;
	}
	printf("sleeping awake=100 asleep=0 ms=%.4f\n", best_alone);
	printf("sleeping awake=100 asleep=100000 ms=%.4f contacts=%d ratio=%.2f\n", best_crowd, c.contact_count,
	       best_crowd / best_alone);
	tb_destroy_world(alone);
	tb_destroy_world(crowd);
	return 0;
}
