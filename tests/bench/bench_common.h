/* tumble benchmarks: the scenes, the timing loop and the output line, shared by
 * every engine's bench binary so that all of them build the same geometry and
 * are measured the same way. Header-only, valid C11 and C++ (bench_box2d.cpp
 * includes it too). Each engine supplies a bench_ops table and calls bench_main.
 *
 * Timing: each tb_world_step (or its peer) is timed alone, with both the thread's
 * CPU clock (the headline number: on a shared machine it leaves out the time the
 * process spent descheduled) and the wall clock. Reading positions for the
 * stability columns and counting awake bodies happen outside the timed region. */
#ifndef TB_BENCH_COMMON_H
#define TB_BENCH_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------- scenes ---------------- */

enum {
	BENCH_LARGE_PYRAMID,
	BENCH_MANY_PYRAMIDS,
	BENCH_RAIN,
	BENCH_JOINT_GRID,
	BENCH_SCENE_COUNT
};

static const char *const bench_scene_names[BENCH_SCENE_COUNT] = {"large_pyramid", "many_pyramids", "rain",
                                                                  "joint_grid"};

/* Default step counts; every engine runs the same number. */
static const int bench_default_steps[BENCH_SCENE_COUNT] = {500, 500, 500, 500};

#define BENCH_DT (1.0f / 60.0f)
#define BENCH_GRAVITY (-10.0f)
#define BENCH_DENSITY 1.0f
#define BENCH_FRICTION 0.6f
/* Averaged separately: no body of any engine can fall asleep before it has been
 * still for 0.5 s = 30 steps, so these steps are measured fully awake. */
#define BENCH_AWAKE_STEPS 30

/* Pyramids: 1 m boxes exactly side by side, on a static ground box whose top is y = 0. */
#define BENCH_BOX_HALF 0.5f
#define BENCH_GROUND_HALF_HEIGHT 1.0f
#define BENCH_MANY_COUNT 20
#define BENCH_MANY_BASE 20
#define BENCH_MANY_GAP 2.0f

/* Rain: circles of radius 0.25..0.5 dropped all at once from a grid into a box
 * made of three static boxes on one static body. */
#define BENCH_RAIN_COLUMNS 50
#define BENCH_RAIN_ROWS 80
#define BENCH_RAIN_SPACING 1.1f
#define BENCH_RAIN_BOTTOM 5.0f
#define BENCH_RAIN_INNER_HALF_WIDTH 30.0f
#define BENCH_RAIN_WALL_HEIGHT 50.0f
#define BENCH_RAIN_WALL_HALF_THICK 2.0f

/* Joint grid: circles 1 m apart linked by revolute joints to the right and lower
 * neighbour; the top row is static. */
#define BENCH_GRID_N 100
#define BENCH_GRID_RADIUS 0.4f
#define BENCH_GRID_SPACING 1.0f

typedef struct bench_vec { float x, y; } bench_vec;

typedef struct bench_params {
	int scene;
	int steps;
	int awake_steps;
	int base;      /* large_pyramid base */
	int use_hash;  /* chipmunk: 1 spatial hash, 0 bounding-box tree, -1 the engine's choice per scene */
	/* -1: the fair defaults (tumble 8 substeps, Box2D 8 velocity iterations,
	 * Chipmunk 10 iterations); otherwise that engine's own knob, for experiments. */
	int iterations;
	int sleep;     /* 1 (default): sleeping on in every engine; 0: off (--no-sleep) */
} bench_params;

/* Box k (0-based from the left) of row r (0 = bottom) of a pyramid of the given
 * base centred on x = cx; row r holds base - r boxes. */
static inline bench_vec bench_pyramid_box(int base, float cx, int r, int k)
{
	const float w = 2.0f * BENCH_BOX_HALF;
	bench_vec p;
	int n = base - r;
	p.x = cx + ((float)k - 0.5f * (float)(n - 1)) * w;
	p.y = BENCH_BOX_HALF + (float)r * w;
	return p;
}

/* Centre x of pyramid i of many_pyramids. */
static inline float bench_many_center(int i)
{
	float pitch = (float)BENCH_MANY_BASE * 2.0f * BENCH_BOX_HALF + BENCH_MANY_GAP;
	return ((float)i - 0.5f * (float)(BENCH_MANY_COUNT - 1)) * pitch;
}

/* Half width of the ground box under the pyramids of a scene. */
static inline float bench_ground_half_width(int scene, int base)
{
	if (scene == BENCH_MANY_PYRAMIDS) {
		float pitch = (float)BENCH_MANY_BASE * 2.0f * BENCH_BOX_HALF + BENCH_MANY_GAP;
		return 0.5f * pitch * (float)BENCH_MANY_COUNT + 10.0f;
	}
	return (float)base * BENCH_BOX_HALF + 10.0f;
}

/* A fixed linear congruential sequence, so every engine gets the same radii. */
static inline float bench_rain_unit(unsigned index)
{
	unsigned x = index * 1664525u + 1013904223u;
	x ^= x >> 16;
	x *= 2246822519u;
	x ^= x >> 13;
	return (float)(x & 0xffffffu) / (float)0x1000000;
}

/* Circle i (row-major from the bottom-left) of the rain grid. */
static inline bench_vec bench_rain_position(int i)
{
	bench_vec p;
	int row = i / BENCH_RAIN_COLUMNS, col = i % BENCH_RAIN_COLUMNS;
	float jitter = 0.04f * (bench_rain_unit(2u * (unsigned)i + 1u) - 0.5f);
	p.x = ((float)col - 0.5f * (float)(BENCH_RAIN_COLUMNS - 1)) * BENCH_RAIN_SPACING + jitter;
	p.y = BENCH_RAIN_BOTTOM + (float)row * BENCH_RAIN_SPACING;
	return p;
}

static inline float bench_rain_radius(int i) { return 0.25f + 0.25f * bench_rain_unit(2u * (unsigned)i); }

/* The container: floor, left wall, right wall as (centre, half extents). The
 * floor's top is y = 0 and the walls stand on it. */
static inline void bench_rain_container(int which, bench_vec *center, bench_vec *half)
{
	const float t = BENCH_RAIN_WALL_HALF_THICK, w = BENCH_RAIN_INNER_HALF_WIDTH, h = BENCH_RAIN_WALL_HEIGHT;
	if (which == 0) {
		center->x = 0.0f; center->y = -t;
		half->x = w + 2.0f * t; half->y = t;
	} else {
		center->x = (which == 1 ? -1.0f : 1.0f) * (w + t); center->y = 0.5f * h;
		half->x = t; half->y = 0.5f * h;
	}
}

/* A circle counts as escaped if it ended outside the container (tunnelled). */
static inline int bench_rain_escaped(bench_vec p)
{
	return p.y < 0.0f || p.x < -BENCH_RAIN_INNER_HALF_WIDTH || p.x > BENCH_RAIN_INNER_HALF_WIDTH;
}

/* Circle (row r from the top, column c) of the joint grid. */
static inline bench_vec bench_grid_position(int r, int c)
{
	bench_vec p;
	p.x = ((float)c - 0.5f * (float)(BENCH_GRID_N - 1)) * BENCH_GRID_SPACING;
	p.y = -(float)r * BENCH_GRID_SPACING;
	return p;
}

/* ---------------- engine interface ---------------- */

typedef struct bench_ops {
	const char *engine;
	/* Builds the scene in a fresh world; returns the number of probes (bodies
	 * whose drift and sag are tracked: pyramid tops, the grid's bottom centre). */
	int (*create)(const bench_params *p);
	void (*step)(void);
	bench_vec (*probe)(int i);
	int (*body_count)(void);     /* static and dynamic */
	int (*awake_count)(void);    /* awake dynamic bodies */
	int (*dynamic_count)(void);
	/* Scene-specific check after the run: rain, circles outside the container;
	 * joint_grid, the largest anchor separation of any joint (m). */
	double (*check)(void);
	void (*destroy)(void);
	/* Optional note printed once per scene (e.g. the broad phase chosen). */
	const char *(*note)(void);
	/* Optional hash of the world's state after the run: a change in it means the
	 * engine's results changed, not only its speed. */
	unsigned long long (*hash)(void);
} bench_ops;

static inline double bench_clock_ms(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1.0e-6;
}

static inline void bench_run_scene(const bench_ops *ops, const bench_params *p)
{
	enum { MAX_PROBES = 64 };
	bench_vec start[MAX_PROBES];
	double max_sag = 0.0, cpu_total = 0.0, wall_total = 0.0, cpu_awake = 0.0, first_cpu = 0.0;
	int probes = ops->create(p), first_sleep = -1, dynamic = ops->dynamic_count();
	if (probes > MAX_PROBES) probes = MAX_PROBES;
	for (int i = 0; i < probes; ++i) start[i] = ops->probe(i);

	for (int s = 0; s < p->steps; ++s) {
		double c0 = bench_clock_ms(CLOCK_THREAD_CPUTIME_ID), w0 = bench_clock_ms(CLOCK_MONOTONIC);
		ops->step();
		double c1 = bench_clock_ms(CLOCK_THREAD_CPUTIME_ID), w1 = bench_clock_ms(CLOCK_MONOTONIC);
		cpu_total += c1 - c0;
		wall_total += w1 - w0;
		if (s == 0) first_cpu = c1 - c0;
		if (s < p->awake_steps) cpu_awake += c1 - c0;
		for (int i = 0; i < probes; ++i) {
			double sag = (double)(start[i].y - ops->probe(i).y);
			if (sag > max_sag) max_sag = sag;
		}
		if (first_sleep < 0 && ops->awake_count() < dynamic) first_sleep = s + 1;
	}

	double drift = 0.0;
	for (int i = 0; i < probes; ++i) {
		bench_vec q = ops->probe(i);
		double dx = (double)(q.x - start[i].x), dy = (double)(q.y - start[i].y);
		double d = sqrt(dx * dx + dy * dy);
		if (d > drift) drift = d;
	}
	int awake_steps = p->awake_steps < p->steps ? p->awake_steps : p->steps;
	printf("scene=%s engine=%s bodies=%d steps=%d ms_per_step=%.3f ms_awake=%.3f awake_steps=%d "
	       "wall_ms_per_step=%.3f first_step_ms=%.2f first_sleep_step=%d awake_end=%d",
	       bench_scene_names[p->scene], ops->engine, ops->body_count(), p->steps,
	       p->steps > 0 ? cpu_total / p->steps : 0.0, awake_steps > 0 ? cpu_awake / awake_steps : 0.0,
	       awake_steps, p->steps > 0 ? wall_total / p->steps : 0.0, first_cpu, first_sleep, ops->awake_count());
	if (probes > 0) printf(" top_drift_cm=%.2f max_sag_cm=%.2f", 100.0 * drift, 100.0 * max_sag);
	if (p->scene == BENCH_RAIN) printf(" escaped=%d", (int)ops->check());
	if (p->scene == BENCH_JOINT_GRID) printf(" joint_gap_cm=%.3f", 100.0 * ops->check());
	if (ops->note != NULL) printf(" note=%s", ops->note());
	if (ops->hash != NULL) printf(" hash=%016llx", ops->hash());
	printf("\n");
	fflush(stdout);
	ops->destroy();
}

static inline void bench_usage(const char *argv0)
{
	fprintf(stderr,
	        "usage: %s [--scene NAME[,NAME...]] [--steps N] [--base N] [--awake-steps N] [--hash|--tree]\n"
	        "       [--iterations N]  (tumble substeps, Box2D velocity iterations, Chipmunk iterations)\n"
	        "       [--no-sleep]      (sleeping off in every engine)\n"
	        "scenes: large_pyramid many_pyramids rain joint_grid (default: all)\n",
	        argv0);
}

/* Parses the command line and runs the chosen scenes; returns the exit status. */
static inline int bench_main(int argc, char **argv, const bench_ops *ops)
{
	int chosen[BENCH_SCENE_COUNT] = {0}, any = 0, steps = -1, base = 100, awake = BENCH_AWAKE_STEPS;
	int use_hash = -1, iterations = -1, sleep = 1;
	for (int i = 1; i < argc; ++i) {
		const char *a = argv[i];
		if (strcmp(a, "--scene") == 0 && i + 1 < argc) {
			char buf[256];
			snprintf(buf, sizeof buf, "%s", argv[++i]);
			for (char *tok = strtok(buf, ","); tok != NULL; tok = strtok(NULL, ",")) {
				int found = 0;
				for (int s = 0; s < BENCH_SCENE_COUNT; ++s) {
					if (strcmp(tok, bench_scene_names[s]) == 0) {
						chosen[s] = 1;
						found = any = 1;
					}
				}
				if (!found) {
					fprintf(stderr, "unknown scene '%s'\n", tok);
					bench_usage(argv[0]);
					return 2;
				}
			}
		} else if (strcmp(a, "--steps") == 0 && i + 1 < argc) {
			steps = atoi(argv[++i]);
		} else if (strcmp(a, "--base") == 0 && i + 1 < argc) {
			base = atoi(argv[++i]);
		} else if (strcmp(a, "--awake-steps") == 0 && i + 1 < argc) {
			awake = atoi(argv[++i]);
		} else if (strcmp(a, "--iterations") == 0 && i + 1 < argc) {
			iterations = atoi(argv[++i]);
		} else if (strcmp(a, "--no-sleep") == 0) {
			sleep = 0;
		} else if (strcmp(a, "--hash") == 0) {
			use_hash = 1;
		} else if (strcmp(a, "--tree") == 0) {
			use_hash = 0;
		} else {
			bench_usage(argv[0]);
			return 2;
		}
	}
	if (base < 1 || base > 1000 || awake < 0 || iterations == 0 || iterations < -1) {
		bench_usage(argv[0]);
		return 2;
	}
	for (int s = 0; s < BENCH_SCENE_COUNT; ++s) {
		if (any && !chosen[s]) continue;
		bench_params p;
		p.scene = s;
		p.steps = steps >= 0 ? steps : bench_default_steps[s];
		p.awake_steps = awake;
		p.base = base;
		p.use_hash = use_hash;
		p.iterations = iterations;
		p.sleep = sleep;
		bench_run_scene(ops, &p);
	}
	return 0;
}

#endif
