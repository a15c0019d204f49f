/* tumble benchmarks: Box2D v3.1's benchmark scenes, the timing loop and the
 * output line, shared by every engine's bench binary so that all of them build
 * the same geometry in the same order and are measured the same way.
 * Header-only, valid C11 and C++ (bench_box2d.cpp includes it too).
 *
 * The scenes are those of Box2D v3.1.1's benchmark program (its
 * shared/benchmarks.c, release sizes), rebuilt here from their definitions:
 * the same bodies, shapes, joints, materials, filters and creation order,
 * sleeping off where v3 turns it off, dt = 1/60 s and v3's step counts. Each
 * engine supplies a small table of primitives (bench_ops: make a body, a box, a
 * capsule, a revolute joint, ...); the scenes are written once against it.
 * bench_box2d_v3 checks the rebuild against v3's own scene functions when they
 * are linked in (--verify: same world, bit for bit, after some steps).
 *
 * Timing follows v3's benchmark: the scene's per-step update (rain's ragdoll
 * groups) and the step are timed together, and step 0 is left out of the
 * average (it builds every contact). Each step is timed alone with the thread's
 * CPU clock (the headline number: on a shared machine it leaves out the time
 * the process spent descheduled) and the wall clock. Reading positions for the
 * stability columns happens outside the timed region. */
#ifndef TB_BENCH_COMMON_H
#define TB_BENCH_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_PI 3.14159265359f
#define BENCH_DT (1.0f / 60.0f)

/* ---------------- the primitives every engine supplies ---------------- */

typedef struct bench_vec { float x, y; } bench_vec;

static inline bench_vec bench_v(float x, float y)
{
	bench_vec v;
	v.x = x;
	v.y = y;
	return v;
}

enum { BENCH_STATIC = 0, BENCH_KINEMATIC = 1, BENCH_DYNAMIC = 2 };

/* v3's b2DefaultBodyDef values unless a scene says otherwise. */
typedef struct bench_body_def {
	int type;
	bench_vec position;
	float angle;
	bench_vec linear_velocity;
	float angular_velocity; /* rad/s */
	float linear_damping;
	float sleep_threshold; /* m/s */
	int is_awake, enable_sleep;
} bench_body_def;

static inline bench_body_def bench_default_body_def(void)
{
	bench_body_def d;
	memset(&d, 0, sizeof d);
	d.type = BENCH_STATIC;
	d.sleep_threshold = 0.05f;
	d.is_awake = 1;
	d.enable_sleep = 1;
	return d;
}

/* v3's b2DefaultShapeDef values unless a scene says otherwise. */
typedef struct bench_shape_def {
	float density, friction, restitution;
	uint32_t category, mask;
	int group; /* same negative group: never collide */
	int hit_events; /* Box2D's enableHitEvents (tumble's shapes have them on by default) */
} bench_shape_def;

static inline bench_shape_def bench_default_shape_def(void)
{
	bench_shape_def d;
	d.density = 1.0f;
	d.friction = 0.6f;
	d.restitution = 0.0f;
	d.category = 1u;
	d.mask = 0xffffffffu;
	d.group = 0;
	d.hit_events = 0;
	return d;
}

typedef struct bench_revolute_def {
	int body_a, body_b;         /* handles from add_body */
	bench_vec local_a, local_b; /* anchors relative to each body's origin */
	float reference_angle;
	int enable_limit;
	float lower, upper;
	int enable_motor;
	float motor_speed, max_motor_torque;
	int enable_spring;
	float hertz, damping_ratio;
} bench_revolute_def;

static inline bench_revolute_def bench_default_revolute_def(void)
{
	bench_revolute_def d;
	memset(&d, 0, sizeof d);
	return d;
}

typedef struct bench_settings {
	float gravity_y;
	int enable_sleep;
	int iterations; /* -1: the engine's bench setting; else substeps (tumble, v3) or iterations */
} bench_settings;

typedef struct bench_ops {
	const char *engine;  /* the name in the output line */
	const char *config;  /* what the engine ran with, one word */
	void (*create_world)(const bench_settings *s);
	void (*destroy_world)(void);
	/* Bodies and joints are named by handles: small integers in creation
	 * order, never reused. */
	int (*add_body)(const bench_body_def *def);
	void (*destroy_body)(int body); /* its joints are destroyed by the scene first */
	/* A box of half extents hx, hy centred at `center` (body frame) turned by
	 * `angle`, rounded by `radius`. */
	void (*add_box)(int body, const bench_shape_def *def, float hx, float hy, bench_vec center, float angle,
	                float radius);
	/* The convex hull of the points, rounded by `radius`. */
	void (*add_hull)(int body, const bench_shape_def *def, const bench_vec *points, int count, float radius);
	void (*add_circle)(int body, const bench_shape_def *def, bench_vec center, float radius);
	void (*add_capsule)(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2, float radius);
	void (*add_segment)(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2);
	/* A closed one-sided chain; the points run clockwise, so it holds things inside. */
	void (*add_chain_loop)(int body, const bench_shape_def *def, const bench_vec *points, int count);
	int (*add_revolute)(const bench_revolute_def *def);
	void (*destroy_joint)(int joint);
	void (*step)(void);
	bench_vec (*position)(int body); /* origin */
	float (*angle)(int body);
	int (*awake_count)(void);       /* awake dynamic bodies */
	/* Optional: a hash of the world's state, so a change in it is seen next to the time. */
	unsigned long long (*hash)(void);
	/* Optional note printed once per scene. */
	const char *(*note)(void);
	/* Optional: the engine's own cosine and sine, where a scene builds points by
	 * rotation (the spinner's chain), so they come out as the engine's scene had them. */
	void (*cos_sin)(float angle, float *c, float *s);
	/* Optional: moves a kinematic body to `position` (unrotated) over the next
	 * step of dt seconds by giving it the velocity that gets it there, as
	 * Box2D's b2Body_SetTargetTransform does. An engine without it skips the
	 * scenes of Box2D main's newer set (junkyard, washer, compounds). */
	void (*set_target)(int body, bench_vec position, float dt);
} bench_ops;

/* ---------------- scenes ---------------- */

enum {
	BENCH_LARGE_PYRAMID,
	BENCH_MANY_PYRAMIDS,
	BENCH_RAIN,
	BENCH_JOINT_GRID,
	BENCH_TUMBLER,
	BENCH_SMASH,
	BENCH_SPINNER,
	BENCH_JUNKYARD,
	BENCH_WASHER,
	BENCH_COMPOUNDS,
	BENCH_SCENE_COUNT
};

static const char *const bench_scene_names[BENCH_SCENE_COUNT] = {
	"large_pyramid", "many_pyramids", "rain", "joint_grid", "tumbler", "smash", "spinner",
	"junkyard",      "washer",        "compounds"};

/* v3's step counts (benchmark/main.c); the last three, Box2D main's. */
static const int bench_default_steps[BENCH_SCENE_COUNT] = {500, 200, 1000, 500, 750, 300, 1400, 800, 500, 500};

#define BENCH_MAX_PROBES 512
#define BENCH_GRID_N 100
#define BENCH_RAIN_ROWS 5
#define BENCH_RAIN_COLUMNS 40
#define BENCH_RAIN_GROUP 5
#define BENCH_HUMAN_BONES 11
#define BENCH_TUMBLER_GRID 45

/* What a scene keeps between steps and for its checks. */
typedef struct bench_scene {
	const bench_ops *ops;
	int id;
	int dynamic_count;
	int probes[BENCH_MAX_PROBES];
	int probe_count;
	/* joint_grid: the joints' bodies and anchors, for the largest anchor gap */
	int *joint_bodies;           /* 2 per joint */
	bench_vec *joint_anchors;    /* 2 per joint */
	int joint_count;
	/* tumbler */
	int tumbler;
	int first_box, box_count;    /* handles first_box .. first_box + box_count - 1 */
	/* spinner */
	int spinner_body;
	/* junkyard: the pusher; washer: the drum */
	int mover;
	/* rain: the humans of every group */
	int rain_bodies[BENCH_RAIN_ROWS * BENCH_RAIN_COLUMNS][BENCH_RAIN_GROUP][BENCH_HUMAN_BONES];
	int rain_joints[BENCH_RAIN_ROWS * BENCH_RAIN_COLUMNS][BENCH_RAIN_GROUP][BENCH_HUMAN_BONES];
	int rain_column_count, rain_column_index;
	int all_bodies;              /* handles issued so far */
} bench_scene;

static inline int bench_add_body(bench_scene *sc, const bench_body_def *def)
{
	if (def->type == BENCH_DYNAMIC) sc->dynamic_count += 1;
	sc->all_bodies += 1;
	return sc->ops->add_body(def);
}

static inline bench_vec bench_rotate(float angle, bench_vec v)
{
	float c = cosf(angle), s = sinf(angle);
	return bench_v(c * v.x - s * v.y, s * v.x + c * v.y);
}

/* large_pyramid: a pyramid of base 100, 1 m boxes, on a 200 m ground box; sleeping off. */
static inline void bench_large_pyramid(bench_scene *sc, int base)
{
	const bench_ops *o = sc->ops;
	bench_body_def bd = bench_default_body_def();
	bench_shape_def sd = bench_default_shape_def();
	bd.position = bench_v(0.0f, -1.0f);
	int ground = bench_add_body(sc, &bd);
	o->add_box(ground, &sd, 100.0f, 1.0f, bench_v(0.0f, 0.0f), 0.0f, 0.0f);

	bd = bench_default_body_def();
	bd.type = BENCH_DYNAMIC;
	float h = 0.5f, shift = 1.0f * h;
	int top = -1;
	for (int i = 0; i < base; ++i) {
		float y = (2.0f * (float)i + 1.0f) * shift;
		for (int j = i; j < base; ++j) {
			float x = ((float)i + 1.0f) * shift + 2.0f * (float)(j - i) * shift - h * (float)base;
			bd.position = bench_v(x, y);
			top = bench_add_body(sc, &bd);
			o->add_box(top, &sd, h, h, bench_v(0.0f, 0.0f), 0.0f, 0.0f);
		}
	}
	sc->probes[sc->probe_count++] = top;
}

/* many_pyramids: 20 x 20 pyramids of base 10 (half-metre boxes), each row of
 * them on one of 20 ground segments 11 m apart; sleeping off. */
static inline void bench_many_pyramids(bench_scene *sc)
{
	const bench_ops *o = sc->ops;
	const int base_count = 10, rows = 20, columns = 20;
	const float extent = 0.5f;
	bench_body_def bd = bench_default_body_def();
	bench_shape_def sd = bench_default_shape_def();
	int ground = bench_add_body(sc, &bd);
	float ground_dy = 2.0f * extent * ((float)base_count + 1.0f);
	float ground_width = 2.0f * extent * (float)columns * ((float)base_count + 1.0f);
	float ground_y = 0.0f;
	for (int i = 0; i < rows; ++i) {
		o->add_segment(ground, &sd, bench_v(-0.5f * 2.0f * ground_width, ground_y),
		               bench_v(0.5f * 2.0f * ground_width, ground_y));
		ground_y += ground_dy;
	}

	float base_width = 2.0f * extent * (float)base_count, base_y = 0.0f;
	bd.type = BENCH_DYNAMIC;
	for (int i = 0; i < rows; ++i) {
		for (int j = 0; j < columns; ++j) {
			float center_x = -0.5f * ground_width + (float)j * (base_width + 2.0f * extent) + extent;
			int top = -1;
			for (int r = 0; r < base_count; ++r) {
				float y = (2.0f * (float)r + 1.0f) * extent + base_y;
				for (int k = r; k < base_count; ++k) {
					float x = ((float)r + 1.0f) * extent + 2.0f * (float)(k - r) * extent + center_x - 0.5f;
					bd.position = bench_v(x, y);
					top = bench_add_body(sc, &bd);
					o->add_box(top, &sd, extent, extent, bench_v(0.0f, 0.0f), 0.0f, 0.0f);
				}
			}
			if (sc->probe_count < BENCH_MAX_PROBES) sc->probes[sc->probe_count++] = top;
		}
		base_y += ground_dy;
	}
}

/* joint_grid: 100 x 100 circles of radius 0.4 on a 1 m grid, each pinned by a
 * revolute joint to the one above and the one to its left; the seven in the
 * middle of the top row are static; the circles do not collide with each other
 * (category 2, mask ~2). Sleeping off. */
static inline void bench_joint_grid(bench_scene *sc)
{
	const bench_ops *o = sc->ops;
	const int n = BENCH_GRID_N;
	int *bodies = (int *)malloc((size_t)n * (size_t)n * sizeof *bodies);
	sc->joint_bodies = (int *)malloc(4u * (size_t)n * (size_t)n * sizeof *sc->joint_bodies);
	sc->joint_anchors = (bench_vec *)malloc(4u * (size_t)n * (size_t)n * sizeof *sc->joint_anchors);
	bench_shape_def sd = bench_default_shape_def();
	sd.category = 2u;
	sd.mask = ~2u;
	bench_revolute_def jd = bench_default_revolute_def();
	bench_body_def bd = bench_default_body_def();
	int index = 0;
	for (int k = 0; k < n; ++k) {
		for (int i = 0; i < n; ++i) {
			bd.type = (k >= n / 2 - 3 && k <= n / 2 + 3 && i == 0) ? BENCH_STATIC : BENCH_DYNAMIC;
			bd.position = bench_v((float)k, -(float)i);
			int body = bench_add_body(sc, &bd);
			o->add_circle(body, &sd, bench_v(0.0f, 0.0f), 0.4f);
			if (i > 0) {
				jd.body_a = bodies[index - 1];
				jd.body_b = body;
				jd.local_a = bench_v(0.0f, -0.5f);
				jd.local_b = bench_v(0.0f, 0.5f);
				o->add_revolute(&jd);
				int j = sc->joint_count++;
				sc->joint_bodies[2 * j] = jd.body_a;
				sc->joint_bodies[2 * j + 1] = jd.body_b;
				sc->joint_anchors[2 * j] = jd.local_a;
				sc->joint_anchors[2 * j + 1] = jd.local_b;
			}
			if (k > 0) {
				jd.body_a = bodies[index - n];
				jd.body_b = body;
				jd.local_a = bench_v(0.5f, 0.0f);
				jd.local_b = bench_v(-0.5f, 0.0f);
				o->add_revolute(&jd);
				int j = sc->joint_count++;
				sc->joint_bodies[2 * j] = jd.body_a;
				sc->joint_bodies[2 * j + 1] = jd.body_b;
				sc->joint_anchors[2 * j] = jd.local_a;
				sc->joint_anchors[2 * j + 1] = jd.local_b;
			}
			bodies[index++] = body;
		}
	}
	/* the bottom of the middle column */
	sc->probes[sc->probe_count++] = bodies[(n / 2) * n + n - 1];
	free(bodies);
}

/* ---- rain: groups of five ragdolls dropped onto five rows of ground boxes ---- */

/* One bone of the ragdoll (v3's shared/human.c at scale 1): the body's height
 * above the group's position, its linear damping, the joint friction share,
 * its capsule, and the joint to its parent (pivot height, limits in units of
 * pi, reference angle). The lower legs also carry a foot. */
typedef struct bench_bone {
	int parent;
	float y, linear_damping, friction_scale;
	float c1y, c2y, radius;
	float pivot_y, lower, upper, reference;
	int foot;
} bench_bone;

static const bench_bone bench_bones[BENCH_HUMAN_BONES] = {
	/* hip */ {-1, 0.95f, 0.0f, 1.0f, -0.02f, 0.02f, 0.095f, 0.0f, 0.0f, 0.0f, 0.0f, 0},
	/* torso */ {0, 1.2f, 0.0f, 0.5f, -0.135f, 0.135f, 0.09f, 1.0f, -0.25f, 0.0f, 0.0f, 0},
	/* head */ {1, 1.475f, 0.1f, 0.25f, -0.038f, 0.039f, 0.075f, 1.4f, -0.3f, 0.1f, 0.0f, 0},
	/* upper left leg */ {0, 0.775f, 0.0f, 1.0f, -0.125f, 0.125f, 0.06f, 0.9f, -0.05f, 0.4f, 0.0f, 0},
	/* lower left leg */ {3, 0.475f, 0.0f, 0.5f, -0.155f, 0.125f, 0.045f, 0.625f, -0.5f, -0.02f, 0.0f, 1},
	/* upper right leg */ {0, 0.775f, 0.0f, 1.0f, -0.125f, 0.125f, 0.06f, 0.9f, -0.05f, 0.4f, 0.0f, 0},
	/* lower right leg */ {5, 0.475f, 0.0f, 0.5f, -0.155f, 0.125f, 0.045f, 0.625f, -0.5f, -0.02f, 0.0f, 1},
	/* upper left arm */ {1, 1.225f, 0.0f, 0.5f, -0.125f, 0.125f, 0.035f, 1.35f, -0.1f, 0.8f, 0.0f, 0},
	/* lower left arm */ {7, 0.975f, 0.1f, 0.1f, -0.125f, 0.125f, 0.03f, 1.1f, -0.2f, 0.3f, 0.25f, 0},
	/* upper right arm */ {1, 1.225f, 0.0f, 0.5f, -0.125f, 0.125f, 0.035f, 1.35f, -0.1f, 0.8f, 0.0f, 0},
	/* lower right arm */ {9, 0.975f, 0.1f, 0.1f, -0.125f, 0.125f, 0.03f, 1.1f, -0.2f, 0.3f, 0.25f, 0},
};

static inline void bench_create_human(bench_scene *sc, int bodies[BENCH_HUMAN_BONES], int joints[BENCH_HUMAN_BONES],
                                      bench_vec position, int group)
{
	const bench_ops *o = sc->ops;
	const float friction_torque = 0.05f, hertz = 5.0f, damping_ratio = 0.5f;
	bench_body_def bd = bench_default_body_def();
	bd.type = BENCH_DYNAMIC;
	bd.sleep_threshold = 0.1f;
	bench_shape_def sd = bench_default_shape_def();
	sd.friction = 0.2f;
	sd.group = -group;
	sd.category = 2u;
	sd.mask = 1u | 2u;
	bench_shape_def foot_sd = sd;
	foot_sd.friction = 0.05f;
	foot_sd.mask = 1u; /* feet do not collide with ragdolls */
	const bench_vec foot[4] = {{-0.03f, -0.185f}, {0.11f, -0.185f}, {0.11f, -0.16f}, {-0.03f, -0.14f}};

	for (int i = 0; i < BENCH_HUMAN_BONES; ++i) {
		const bench_bone *b = bench_bones + i;
		bd.position = bench_v(position.x, b->y + position.y);
		bd.linear_damping = b->linear_damping;
		bodies[i] = bench_add_body(sc, &bd);
		joints[i] = -1;
		o->add_capsule(bodies[i], &sd, bench_v(0.0f, b->c1y), bench_v(0.0f, b->c2y), b->radius);
		if (b->foot) o->add_hull(bodies[i], &foot_sd, foot, 4, 0.015f);
		if (b->parent < 0) continue;
		/* the bodies are not rotated yet: local anchors are the pivot minus the origins */
		const bench_bone *p = bench_bones + b->parent;
		bench_revolute_def jd = bench_default_revolute_def();
		jd.body_a = bodies[b->parent];
		jd.body_b = bodies[i];
		jd.local_a = bench_v(0.0f, (b->pivot_y + position.y) - (p->y + position.y));
		jd.local_b = bench_v(0.0f, (b->pivot_y + position.y) - (b->y + position.y));
		jd.reference_angle = b->reference * BENCH_PI;
		jd.enable_limit = 1;
		jd.lower = b->lower * BENCH_PI;
		jd.upper = b->upper * BENCH_PI;
		jd.enable_motor = 1;
		jd.max_motor_torque = b->friction_scale * friction_torque;
		jd.enable_spring = hertz > 0.0f;
		jd.hertz = hertz;
		jd.damping_ratio = damping_ratio;
		joints[i] = o->add_revolute(&jd);
	}
}

static inline void bench_destroy_human(bench_scene *sc, int bodies[BENCH_HUMAN_BONES], int joints[BENCH_HUMAN_BONES])
{
	for (int i = 0; i < BENCH_HUMAN_BONES; ++i) {
		if (joints[i] >= 0) sc->ops->destroy_joint(joints[i]);
	}
	for (int i = 0; i < BENCH_HUMAN_BONES; ++i) {
		sc->ops->destroy_body(bodies[i]);
		sc->dynamic_count -= 1;
	}
}

static inline void bench_rain(bench_scene *sc)
{
	const float grid_size = 0.5f;
	const int grid_count = 500;
	bench_body_def bd = bench_default_body_def();
	bench_shape_def sd = bench_default_shape_def();
	int ground = bench_add_body(sc, &bd);
	float y = 0.0f;
	for (int i = 0; i < BENCH_RAIN_ROWS; ++i) {
		float x = -0.5f * (float)grid_count * grid_size;
		for (int j = 0; j <= grid_count; ++j) {
			sc->ops->add_box(ground, &sd, 0.5f * grid_size, 0.5f * grid_size, bench_v(x, y), 0.0f, 0.0f);
			x += grid_size;
		}
		y += 45.0f;
	}
	sc->rain_column_count = sc->rain_column_index = 0;
}

static inline void bench_rain_group(bench_scene *sc, int row, int column, int create)
{
	int g = row * BENCH_RAIN_COLUMNS + column;
	if (!create) {
		for (int i = 0; i < BENCH_RAIN_GROUP; ++i) bench_destroy_human(sc, sc->rain_bodies[g][i], sc->rain_joints[g][i]);
		return;
	}
	float span = 500.0f * 0.5f, distance = 1.0f * span / (float)BENCH_RAIN_COLUMNS;
	bench_vec p = bench_v(-0.5f * span + distance * ((float)column + 0.5f), 40.0f + 45.0f * (float)row);
	for (int i = 0; i < BENCH_RAIN_GROUP; ++i) {
		bench_create_human(sc, sc->rain_bodies[g][i], sc->rain_joints[g][i], p, i + 1);
		p.x += 0.5f;
	}
}

/* Before step s: every 8 steps a column of groups is added, and once all 40
 * are there, the oldest column is replaced. */
static inline void bench_rain_update(bench_scene *sc, int step)
{
	if ((step & 0x7) != 0) return;
	if (sc->rain_column_count < BENCH_RAIN_COLUMNS) {
		for (int i = 0; i < BENCH_RAIN_ROWS; ++i) bench_rain_group(sc, i, sc->rain_column_count, 1);
		sc->rain_column_count += 1;
	} else {
		for (int i = 0; i < BENCH_RAIN_ROWS; ++i) {
			bench_rain_group(sc, i, sc->rain_column_index, 0);
			bench_rain_group(sc, i, sc->rain_column_index, 1);
		}
		sc->rain_column_index = (sc->rain_column_index + 1) % BENCH_RAIN_COLUMNS;
	}
}

/* tumbler: a 20 m box with 1 m walls (a dynamic body of density 50) turned at
 * 25 degrees per second by a revolute motor (torque up to 1e8) about its centre,
 * with 45 x 45 boxes of 0.25 m (half-size 0.125) inside. */
static inline void bench_tumbler(bench_scene *sc)
{
	const bench_ops *o = sc->ops;
	bench_body_def bd = bench_default_body_def();
	int ground = bench_add_body(sc, &bd);
	bd.type = BENCH_DYNAMIC;
	bd.position = bench_v(0.0f, 10.0f);
	int body = bench_add_body(sc, &bd);
	bench_shape_def sd = bench_default_shape_def();
	sd.density = 50.0f;
	o->add_box(body, &sd, 0.5f, 10.0f, bench_v(10.0f, 0.0f), 0.0f, 0.0f);
	o->add_box(body, &sd, 0.5f, 10.0f, bench_v(-10.0f, 0.0f), 0.0f, 0.0f);
	o->add_box(body, &sd, 10.0f, 0.5f, bench_v(0.0f, 10.0f), 0.0f, 0.0f);
	o->add_box(body, &sd, 10.0f, 0.5f, bench_v(0.0f, -10.0f), 0.0f, 0.0f);
	bench_revolute_def jd = bench_default_revolute_def();
	jd.body_a = ground;
	jd.body_b = body;
	jd.local_a = bench_v(0.0f, 10.0f);
	jd.local_b = bench_v(0.0f, 0.0f);
	jd.motor_speed = (BENCH_PI / 180.0f) * 25.0f;
	jd.max_motor_torque = 1e8f;
	jd.enable_motor = 1;
	o->add_revolute(&jd);
	sc->tumbler = body;

	const int n = BENCH_TUMBLER_GRID;
	bench_body_def box_bd = bench_default_body_def();
	box_bd.type = BENCH_DYNAMIC;
	bench_shape_def box_sd = bench_default_shape_def();
	float y = -0.2f * (float)n + 10.0f;
	for (int i = 0; i < n; ++i) {
		float x = -0.2f * (float)n;
		for (int j = 0; j < n; ++j) {
			box_bd.position = bench_v(x, y);
			int b = bench_add_body(sc, &box_bd);
			if (sc->box_count++ == 0) sc->first_box = b;
			o->add_box(b, &box_sd, 0.125f, 0.125f, bench_v(0.0f, 0.0f), 0.0f, 0.0f);
			x += 0.4f;
		}
		y += 0.4f;
	}
}

/* How deep the small boxes sit in the tumbler's walls: the largest overlap of
 * any corner with a wall (m), and how many boxes overlap by more than `depth`.
 * A box whose centre left the inner 19 m square counts as escaped. */
static inline float bench_tumbler_overlap(const bench_scene *sc, float depth, int *deep, int *escaped)
{
	const bench_ops *o = sc->ops;
	bench_vec c = o->position(sc->tumbler);
	float a = o->angle(sc->tumbler), worst = 0.0f;
	*deep = *escaped = 0;
	for (int k = 0; k < sc->box_count; ++k) {
		int b = sc->first_box + k;
		bench_vec p = o->position(b);
		float ab = o->angle(b);
		bench_vec local = bench_rotate(-a, bench_v(p.x - c.x, p.y - c.y));
		if (fabsf(local.x) > 9.5f || fabsf(local.y) > 9.5f) *escaped += 1;
		float box_worst = 0.0f;
		for (int i = 0; i < 4; ++i) {
			bench_vec corner = bench_v(i & 1 ? 0.125f : -0.125f, i & 2 ? 0.125f : -0.125f);
			bench_vec q = bench_rotate(ab - a, corner);
			q.x += local.x;
			q.y += local.y;
			float d = fmaxf(fabsf(q.x), fabsf(q.y)) - 9.5f;
			if (d > box_worst) box_worst = d;
		}
		if (box_worst > depth) *deep += 1;
		if (box_worst > worst) worst = box_worst;
	}
	return worst;
}

/* smash: no gravity; an 8 m box of density 8 at 40 m/s into a sleeping block
 * of 120 x 80 boxes of 0.4 m. */
static inline void bench_smash(bench_scene *sc)
{
	const bench_ops *o = sc->ops;
	bench_body_def bd = bench_default_body_def();
	bd.type = BENCH_DYNAMIC;
	bd.position = bench_v(-20.0f, 0.0f);
	bd.linear_velocity = bench_v(40.0f, 0.0f);
	int body = bench_add_body(sc, &bd);
	bench_shape_def sd = bench_default_shape_def();
	sd.density = 8.0f;
	o->add_box(body, &sd, 4.0f, 4.0f, bench_v(0.0f, 0.0f), 0.0f, 0.0f);

	float d = 0.4f;
	bd = bench_default_body_def();
	bd.type = BENCH_DYNAMIC;
	bd.is_awake = 0;
	sd = bench_default_shape_def();
	const int columns = 120, rows = 80;
	for (int i = 0; i < columns; ++i) {
		for (int j = 0; j < rows; ++j) {
			bd.position = bench_v((float)i * d + 30.0f, ((float)j - (float)rows / 2.0f) * d);
			int b = bench_add_body(sc, &bd);
			o->add_box(b, &sd, 0.5f * d, 0.5f * d, bench_v(0.0f, 0.0f), 0.0f, 0.0f);
		}
	}
}

/* spinner: a 40 m round chain (360 links, friction 0.1) holding 3,038 capsules,
 * circles and squares (density 0.25, friction 0.1, restitution 0.1) stirred by
 * a 41 m rounded bar a motor turns at 5 rad/s. */
static inline void bench_spinner(bench_scene *sc)
{
	const bench_ops *o = sc->ops;
	enum { POINTS = 360 };
	bench_body_def bd = bench_default_body_def();
	int ground = bench_add_body(sc, &bd);
	bench_vec points[POINTS];
	float qa = -2.0f * BENCH_PI / (float)POINTS, qc = cosf(qa), qs = sinf(qa);
	if (o->cos_sin != NULL) o->cos_sin(qa, &qc, &qs);
	bench_vec p = bench_v(40.0f, 0.0f);
	for (int i = 0; i < POINTS; ++i) {
		points[i] = bench_v(p.x, p.y + 32.0f);
		p = bench_v(qc * p.x - qs * p.y, qs * p.x + qc * p.y);
	}
	bench_shape_def chain_sd = bench_default_shape_def();
	chain_sd.friction = 0.1f;
	o->add_chain_loop(ground, &chain_sd, points, POINTS);

	bd = bench_default_body_def();
	bd.type = BENCH_DYNAMIC;
	bd.position = bench_v(0.0f, 12.0f);
	bd.enable_sleep = 0;
	int spinner = bench_add_body(sc, &bd);
	bench_shape_def sd = bench_default_shape_def();
	sd.friction = 0.0f;
	o->add_box(spinner, &sd, 0.4f, 20.0f, bench_v(0.0f, 0.0f), 0.0f, 0.2f);
	bench_revolute_def jd = bench_default_revolute_def();
	jd.body_a = ground;
	jd.body_b = spinner;
	jd.local_a = bd.position;
	jd.enable_motor = 1;
	jd.motor_speed = 5.0f;
	jd.max_motor_torque = 40000.0f;
	o->add_revolute(&jd);
	sc->spinner_body = spinner;

	bd = bench_default_body_def();
	bd.type = BENCH_DYNAMIC;
	sd = bench_default_shape_def();
	sd.friction = 0.1f;
	sd.restitution = 0.1f;
	sd.density = 0.25f;
	float x = -24.0f, y = 2.0f;
	for (int i = 0; i < 3038; ++i) {
		bd.position = bench_v(x, y);
		int b = bench_add_body(sc, &bd);
		if (i % 3 == 0) o->add_capsule(b, &sd, bench_v(-0.25f, 0.0f), bench_v(0.25f, 0.0f), 0.25f);
		else if (i % 3 == 1) o->add_circle(b, &sd, bench_v(0.0f, 0.0f), 0.35f);
		else o->add_box(b, &sd, 0.35f, 0.35f, bench_v(0.0f, 0.0f), 0.0f, 0.0f);
		x += 1.0f;
		if (x > 24.0f) {
			x = -24.0f;
			y += 1.0f;
		}
	}
}

/* Bodies of the spinner scene outside the round chain (tunnelled). */
static inline int bench_spinner_escaped(const bench_scene *sc)
{
	int n = 0;
	for (int b = sc->spinner_body + 1; b < sc->all_bodies; ++b) {
		bench_vec p = sc->ops->position(b);
		if (hypotf(p.x, p.y - 32.0f) > 40.0f) n += 1;
	}
	return n;
}

/* ---- Box2D main's newer scenes (its shared/benchmarks.c, release sizes) ---- */

static inline void bench_cos_sin(const bench_ops *o, float angle, float *c, float *s)
{
	if (o->cos_sin != NULL) {
		o->cos_sin(angle, c, s);
	} else {
		*c = cosf(angle);
		*s = sinf(angle);
	}
}

/* A ground of boxes: `count` boxes of half size hx, hy from (x, y) in steps of (dx, dy). */
static inline void bench_box_row(const bench_ops *o, int ground, const bench_shape_def *sd, int count, float hx,
                                 float hy, float x, float y, float dx, float dy)
{
	for (int i = 0; i < count; ++i) {
		o->add_box(ground, sd, hx, hy, bench_v(x, y), 0.0f, 0.0f);
		x += dx;
		y += dy;
	}
}

/* junkyard: 200 x 40 pentagons (radius 0.25) dropped into a 160 m box of 1 m
 * ground boxes with walls 50 boxes high, pushed around by a 4 x 8 m kinematic
 * box that slides along the floor, x = 60 sin(0.2 t). */
static inline void bench_junkyard(bench_scene *sc)
{
	const bench_ops *o = sc->ops;
	const float grid = 1.0f;
	bench_body_def bd = bench_default_body_def();
	bench_shape_def sd = bench_default_shape_def();
	int ground = bench_add_body(sc, &bd);
	bench_box_row(o, ground, &sd, 161, 0.55f * grid, 0.5f * grid, -80.0f * grid, 0.0f, grid, 0.0f);
	bench_box_row(o, ground, &sd, 50, 0.5f * grid, 0.55f * grid, -80.0f * grid, grid, 0.0f, grid);
	bench_box_row(o, ground, &sd, 50, 0.5f * grid, 0.55f * grid, 80.0f * grid, grid, 0.0f, grid);

	const int columns = 200, rows = 40;
	const float radius = 0.25f;
	/* the Fibonacci sphere's angles, as main builds them */
	const float phi = BENCH_PI * (sqrtf(5.0f) - 1.0f);
	bench_vec points[5];
	for (int i = 0; i < 5; ++i) {
		float c, s;
		bench_cos_sin(o, phi * (float)i, &c, &s);
		points[i] = bench_v(radius * c, radius * s);
	}
	bd.type = BENCH_DYNAMIC;
	float side = -0.1f, y_start = 15.0f;
	for (int i = 0; i < columns; ++i) {
		float x = 1.5f * (2.0f * (float)i - (float)columns) * radius;
		for (int j = 0; j < rows; ++j) {
			float y = 4.0f * (float)j * radius + y_start;
			bd.position = bench_v(x + side, y);
			side = -side;
			int b = bench_add_body(sc, &bd);
			if (sc->box_count++ == 0) sc->first_box = b;
			o->add_hull(b, &sd, points, 5, 0.0f);
		}
	}
	bd = bench_default_body_def();
	bd.type = BENCH_KINEMATIC;
	sc->mover = bench_add_body(sc, &bd);
	o->add_box(sc->mover, &sd, 2.0f, 4.0f, bench_v(0.0f, 4.0f), 0.0f, 0.0f);
}

static inline void bench_junkyard_update(bench_scene *sc, int step)
{
	float time = BENCH_DT * (float)step, c, s;
	bench_cos_sin(sc->ops, 0.2f * time, &c, &s);
	sc->ops->set_target(sc->mover, bench_v(60.0f * s, 0.0f), BENCH_DT);
}

/* Pieces of junk that left the box (below its floor or past a wall). */
static inline int bench_junkyard_escaped(const bench_scene *sc)
{
	int n = 0;
	for (int k = 0; k < sc->box_count; ++k) {
		bench_vec p = sc->ops->position(sc->first_box + k);
		if (p.y < 0.25f || fabsf(p.x) > 79.5f) n += 1;
	}
	return n;
}

/* washer: a kinematic drum (36 wedges between radii 16 and 18, four paddles
 * from 14 to 16) turning at 25 degrees per second about (0, 10), with 90 x 90
 * boxes of 0.2 m inside, their hit events on. */
static inline void bench_washer(bench_scene *sc)
{
	const bench_ops *o = sc->ops;
	bench_body_def bd = bench_default_body_def();
	bench_add_body(sc, &bd); /* the ground, which only the joint of main's dynamic variant uses */
	bd.type = BENCH_KINEMATIC;
	bd.position = bench_v(0.0f, 10.0f);
	bd.angular_velocity = (BENCH_PI / 180.0f) * 25.0f;
	bd.linear_velocity = bench_v(0.001f, -0.002f);
	int drum = bench_add_body(sc, &bd);
	sc->mover = drum;
	bench_shape_def sd = bench_default_shape_def();
	const float r0 = 14.0f, r1 = 16.0f, r2 = 18.0f, angle = BENCH_PI / 18.0f;
	/* main rotates with cosf and sinf here, and b2RotateVector / b2InvRotateVector */
	float qc = cosf(angle), qs = sinf(angle), oc = cosf(0.1f * angle), os = sinf(0.1f * angle);
	bench_vec u1 = bench_v(1.0f, 0.0f);
	for (int i = 0; i < 36; ++i) {
		bench_vec u2 = i == 35 ? bench_v(1.0f, 0.0f) : bench_v(qc * u1.x - qs * u1.y, qs * u1.x + qc * u1.y);
		bench_vec a1 = bench_v(oc * u1.x + os * u1.y, -os * u1.x + oc * u1.y);
		bench_vec a2 = bench_v(oc * u2.x - os * u2.y, os * u2.x + oc * u2.y);
		bench_vec wedge[4] = {bench_v(r1 * a1.x, r1 * a1.y), bench_v(r2 * a1.x, r2 * a1.y),
		                      bench_v(r1 * a2.x, r1 * a2.y), bench_v(r2 * a2.x, r2 * a2.y)};
		o->add_hull(drum, &sd, wedge, 4, 0.0f);
		if (i % 9 == 0) {
			bench_vec paddle[4] = {bench_v(r0 * u1.x, r0 * u1.y), bench_v(r1 * u1.x, r1 * u1.y),
			                       bench_v(r0 * u2.x, r0 * u2.y), bench_v(r1 * u2.x, r1 * u2.y)};
			o->add_hull(drum, &sd, paddle, 4, 0.0f);
		}
		u1 = u2;
	}

	const int n = 90;
	const float a = 0.1f;
	bd = bench_default_body_def();
	bd.type = BENCH_DYNAMIC;
	sd.hit_events = 1;
	float y = -1.1f * a * (float)n + 10.0f;
	for (int i = 0; i < n; ++i) {
		float x = -1.1f * a * (float)n;
		for (int j = 0; j < n; ++j) {
			bd.position = bench_v(x, y);
			int b = bench_add_body(sc, &bd);
			if (sc->box_count++ == 0) sc->first_box = b;
			o->add_box(b, &sd, a, a, bench_v(0.0f, 0.0f), 0.0f, 0.0f);
			x += 2.1f * a;
		}
		y += 2.1f * a;
	}
}

/* Boxes outside the drum's inner radius (tunnelled through the wedges). */
static inline int bench_washer_escaped(const bench_scene *sc)
{
	bench_vec c = sc->ops->position(sc->mover);
	int n = 0;
	for (int k = 0; k < sc->box_count; ++k) {
		bench_vec p = sc->ops->position(sc->first_box + k);
		if (hypotf(p.x - c.x, p.y - c.y) > 16.0f) n += 1;
	}
	return n;
}

/* compounds: 20 x 150 bodies of two triangles each (friction 0.5) dropped into
 * an 80 m box of 1 m ground boxes with walls 100 boxes high, over a 1,600 m
 * segment 80 m below that catches what spills over. */
static inline void bench_compounds(bench_scene *sc)
{
	const bench_ops *o = sc->ops;
	const float grid = 1.0f;
	bench_body_def bd = bench_default_body_def();
	bench_shape_def sd = bench_default_shape_def();
	int ground = bench_add_body(sc, &bd);
	bench_box_row(o, ground, &sd, 81, 0.55f * grid, 0.5f * grid, -40.0f * grid, 0.0f, grid, 0.0f);
	bench_box_row(o, ground, &sd, 100, 0.5f * grid, 0.55f * grid, -40.0f * grid, grid, 0.0f, grid);
	bench_box_row(o, ground, &sd, 100, 0.5f * grid, 0.55f * grid, 40.0f * grid, grid, 0.0f, grid);
	o->add_segment(ground, &sd, bench_v(-800.0f, -80.0f), bench_v(800.0f, -80.0f));

	const int columns = 20, rows = 150;
	const bench_vec left[3] = {{-1.0f, 0.0f}, {0.5f, 1.0f}, {0.0f, 2.0f}};
	const bench_vec right[3] = {{1.0f, 0.0f}, {-0.5f, 1.0f}, {0.0f, 2.0f}};
	bd.type = BENCH_DYNAMIC;
	sd.friction = 0.5f;
	const float shift = 2.0f, extra_y = 0.25f, center_x = shift * (float)columns / 2.0f - 1.0f,
	            center_y = 1.15f / 2.0f, y_start = 5.0f;
	float side = 0.25f;
	for (int i = 0; i < columns; ++i) {
		float x = (float)i * shift - center_x;
		for (int j = 0; j < rows; ++j) {
			float y = (float)j * (shift + extra_y) + center_y + y_start;
			bd.position = bench_v(x + side, y);
			side = -side;
			int b = bench_add_body(sc, &bd);
			if (sc->box_count++ == 0) sc->first_box = b;
			o->add_hull(b, &sd, left, 3, 0.0f);
			o->add_hull(b, &sd, right, 3, 0.0f);
		}
	}
}

/* Bodies below the catching segment (tunnelled through it). */
static inline int bench_compounds_escaped(const bench_scene *sc)
{
	int n = 0;
	for (int k = 0; k < sc->box_count; ++k) {
		if (sc->ops->position(sc->first_box + k).y < -80.0f) n += 1;
	}
	return n;
}

/* The largest separation of any joint's two anchors (m). */
static inline double bench_joint_gap(const bench_scene *sc)
{
	double gap = 0.0;
	for (int j = 0; j < sc->joint_count; ++j) {
		bench_vec w[2];
		for (int e = 0; e < 2; ++e) {
			int b = sc->joint_bodies[2 * j + e];
			bench_vec p = sc->ops->position(b), r = bench_rotate(sc->ops->angle(b), sc->joint_anchors[2 * j + e]);
			w[e] = bench_v(p.x + r.x, p.y + r.y);
		}
		double d = hypot((double)(w[1].x - w[0].x), (double)(w[1].y - w[0].y));
		if (d > gap) gap = d;
	}
	return gap;
}

/* Builds a scene; the settings say whether sleeping is on (v3 turns it off for
 * the pyramids and the joint grid) and the gravity (smash has none). */
static inline void bench_build(bench_scene *sc, const bench_ops *ops, int scene, int base, int iterations)
{
	memset(sc, 0, sizeof *sc);
	sc->ops = ops;
	sc->id = scene;
	sc->tumbler = sc->spinner_body = sc->mover = -1;
	bench_settings s;
	s.gravity_y = scene == BENCH_SMASH ? 0.0f : -10.0f;
	s.enable_sleep = !(scene == BENCH_LARGE_PYRAMID || scene == BENCH_MANY_PYRAMIDS || scene == BENCH_JOINT_GRID);
	s.iterations = iterations;
	ops->create_world(&s);
	switch (scene) {
	case BENCH_LARGE_PYRAMID: bench_large_pyramid(sc, base); break;
	case BENCH_MANY_PYRAMIDS: bench_many_pyramids(sc); break;
	case BENCH_RAIN: bench_rain(sc); break;
	case BENCH_JOINT_GRID: bench_joint_grid(sc); break;
	case BENCH_TUMBLER: bench_tumbler(sc); break;
	case BENCH_SMASH: bench_smash(sc); break;
	case BENCH_SPINNER: bench_spinner(sc); break;
	case BENCH_JUNKYARD: bench_junkyard(sc); break;
	case BENCH_WASHER: bench_washer(sc); break;
	case BENCH_COMPOUNDS: bench_compounds(sc); break;
	default: break;
	}
}

static inline void bench_update(bench_scene *sc, int step)
{
	if (sc->id == BENCH_RAIN) bench_rain_update(sc, step);
	if (sc->id == BENCH_JUNKYARD) bench_junkyard_update(sc, step);
}

static inline void bench_free(bench_scene *sc)
{
	sc->ops->destroy_world();
	free(sc->joint_bodies);
	free(sc->joint_anchors);
	sc->joint_bodies = NULL;
	sc->joint_anchors = NULL;
}

/* ---------------- the timing loop ---------------- */

typedef struct bench_params {
	int scene;
	int steps;
	int base;       /* large_pyramid's base (v3: 100) */
	int iterations; /* -1: the engine's setting */
} bench_params;

static inline double bench_clock_ms(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1.0e-6;
}

static inline void bench_run_scene(const bench_ops *ops, const bench_params *p)
{
	static bench_scene sc; /* large: the rain's handles */
	bench_build(&sc, ops, p->scene, p->base, p->iterations);
	bench_vec start[BENCH_MAX_PROBES];
	for (int i = 0; i < sc.probe_count; ++i) start[i] = ops->position(sc.probes[i]);
	double max_sag = 0.0, cpu_total = 0.0, wall_total = 0.0, first_cpu = 0.0;
	int first_sleep = -1;

	for (int s = 0; s < p->steps; ++s) {
		double c0 = bench_clock_ms(CLOCK_THREAD_CPUTIME_ID), w0 = bench_clock_ms(CLOCK_MONOTONIC);
		bench_update(&sc, s);
		ops->step();
		double c1 = bench_clock_ms(CLOCK_THREAD_CPUTIME_ID), w1 = bench_clock_ms(CLOCK_MONOTONIC);
		if (s == 0) {
			first_cpu = c1 - c0;
		} else {
			cpu_total += c1 - c0;
			wall_total += w1 - w0;
		}
		for (int i = 0; i < sc.probe_count; ++i) {
			double sag = (double)(start[i].y - ops->position(sc.probes[i]).y);
			if (sag > max_sag) max_sag = sag;
		}
		if (first_sleep < 0 && ops->awake_count() < sc.dynamic_count) first_sleep = s + 1;
	}

	double drift = 0.0;
	for (int i = 0; i < sc.probe_count; ++i) {
		bench_vec q = ops->position(sc.probes[i]);
		double d = hypot((double)(q.x - start[i].x), (double)(q.y - start[i].y));
		if (d > drift) drift = d;
	}
	int timed = p->steps > 1 ? p->steps - 1 : 1;
	printf("scene=%s engine=%s config=%s bodies=%d steps=%d ms_per_step=%.3f wall_ms_per_step=%.3f "
	       "first_step_ms=%.2f first_sleep_step=%d awake_end=%d",
	       bench_scene_names[p->scene], ops->engine, ops->config, sc.dynamic_count, p->steps, cpu_total / timed,
	       wall_total / timed, first_cpu, first_sleep, ops->awake_count());
	if (sc.probe_count > 0) printf(" top_drift_cm=%.2f max_sag_cm=%.2f", 100.0 * drift, 100.0 * max_sag);
	if (p->scene == BENCH_JOINT_GRID) printf(" joint_gap_cm=%.3f", 100.0 * bench_joint_gap(&sc));
	if (p->scene == BENCH_TUMBLER) {
		int deep, escaped;
		float worst = bench_tumbler_overlap(&sc, 0.01f, &deep, &escaped);
		printf(" wall_overlap_cm=%.2f lodged=%d escaped=%d", 100.0 * worst, deep, escaped);
	}
	if (p->scene == BENCH_SPINNER) printf(" escaped=%d", bench_spinner_escaped(&sc));
	if (p->scene == BENCH_JUNKYARD) printf(" escaped=%d", bench_junkyard_escaped(&sc));
	if (p->scene == BENCH_WASHER) printf(" escaped=%d", bench_washer_escaped(&sc));
	if (p->scene == BENCH_COMPOUNDS) printf(" escaped=%d", bench_compounds_escaped(&sc));
	if (ops->note != NULL) printf(" note=%s", ops->note());
	if (ops->hash != NULL) printf(" hash=%016llx", ops->hash());
	printf("\n");
	fflush(stdout);
	bench_free(&sc);
}

static inline void bench_usage(const char *argv0)
{
	fprintf(stderr,
	        "usage: %s [--scene NAME[,NAME...]] [--steps N] [--base N] [--iterations N] [engine options]\n"
	        "       --iterations: tumble and v3 substeps, Box2D 2.4 velocity iterations, Chipmunk iterations\n"
	        "scenes: large_pyramid many_pyramids rain joint_grid tumbler smash spinner junkyard washer compounds\n"
	        "        (default: all; the last three need an engine that can move a kinematic body to a target)\n",
	        argv0);
}

/* Parses the command line (arguments the engine took are NULL already) and
 * runs the chosen scenes; returns the exit status. */
static inline int bench_main(int argc, char **argv, const bench_ops *ops)
{
	int chosen[BENCH_SCENE_COUNT] = {0}, any = 0, steps = -1, base = 100, iterations = -1;
	for (int i = 1; i < argc; ++i) {
		const char *a = argv[i];
		if (a == NULL) continue;
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
		} else if (strcmp(a, "--iterations") == 0 && i + 1 < argc) {
			iterations = atoi(argv[++i]);
		} else {
			bench_usage(argv[0]);
			return 2;
		}
	}
	if (base < 1 || base > 1000 || iterations == 0 || iterations < -1 || steps == 0 || steps < -1) {
		bench_usage(argv[0]);
		return 2;
	}
	for (int s = 0; s < BENCH_SCENE_COUNT; ++s) {
		if (any && !chosen[s]) continue;
		if (s >= BENCH_JUNKYARD && ops->set_target == NULL) {
			if (chosen[s]) fprintf(stderr, "%s: %s needs a kinematic target: skipped\n", ops->engine, bench_scene_names[s]);
			continue;
		}
		bench_params p;
		p.scene = s;
		p.steps = steps > 0 ? steps : bench_default_steps[s];
		p.base = base;
		p.iterations = iterations;
		bench_run_scene(ops, &p);
	}
	return 0;
}

#endif
