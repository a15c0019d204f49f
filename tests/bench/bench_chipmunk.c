/* tumble benchmarks: the scenes of bench_common.h built with Chipmunk 7 (Debian
 * libchipmunk-dev; cpFloat is double there), for comparison. Settings:
 * - 10 solver iterations (Chipmunk has no substeps);
 * - sleeping on with the same 0.5 s time to sleep as tumble and Box2D (Chipmunk's
 *   own default is off);
 * - collision slop 1 cm instead of the default 10 cm, which would let each of the
 *   100 rows of the large pyramid sink by up to 10 cm; bias left at its default;
 * - Chipmunk multiplies the two shapes' frictions where tumble and Box2D take the
 *   geometric mean, so each shape gets sqrt(0.6) to make the pair's friction 0.6;
 * - joints do not collide their bodies, as in tumble and Box2D.
 * The broad phase is Chipmunk's spatial hash with 1 m cells (all dynamic shapes
 * here are 0.5..1 m across): measured here it was as fast as the bounding-box
 * tree on the large pyramid and faster on the other scenes; --tree selects the tree. */
#include <chipmunk/chipmunk.h>

#include "bench_common.h"

static cpSpace *s_space;
static cpBody **s_bodies; /* every body we made, creation order */
static cpShape **s_shapes;
static cpConstraint **s_joints;
static int s_body_count, s_shape_count, s_joint_count, s_dynamic_count;
static cpBody *s_probes[64];
static int s_probe_count;
static int s_scene, s_hash;

static cpBody *add_body(int dynamic, bench_vec p, cpFloat mass, cpFloat moment)
{
	cpBody *b = dynamic ? cpBodyNew(mass, moment) : cpBodyNewStatic();
	cpBodySetPosition(b, cpv(p.x, p.y));
	cpSpaceAddBody(s_space, b);
	s_bodies[s_body_count++] = b;
	s_dynamic_count += dynamic;
	return b;
}

static void add_shape(cpShape *shape)
{
	cpShapeSetFriction(shape, sqrt((double)BENCH_FRICTION));
	cpShapeSetElasticity(shape, 0.0);
	cpSpaceAddShape(s_space, shape);
	s_shapes[s_shape_count++] = shape;
}

static void add_static_box(cpBody *body, bench_vec c, bench_vec h)
{
	add_shape(cpBoxShapeNew2(body, cpBBNew(c.x - h.x, c.y - h.y, c.x + h.x, c.y + h.y), 0.0));
}

static cpBody *add_dynamic_circle(bench_vec p, float radius)
{
	cpFloat mass = BENCH_DENSITY * CP_PI * radius * radius;
	cpBody *b = add_body(1, p, mass, cpMomentForCircle(mass, 0.0, radius, cpvzero));
	add_shape(cpCircleShapeNew(b, radius, cpvzero));
	return b;
}

static void add_pyramid(int base, float cx)
{
	const cpFloat w = 2.0 * BENCH_BOX_HALF, mass = BENCH_DENSITY * w * w;
	cpBody *top = NULL;
	for (int r = 0; r < base; ++r) {
		for (int k = 0; k < base - r; ++k) {
			top = add_body(1, bench_pyramid_box(base, cx, r, k), mass, cpMomentForBox(mass, w, w));
			add_shape(cpBoxShapeNew(top, w, w, 0.0));
		}
	}
	s_probes[s_probe_count++] = top;
}

static void add_pivot(cpBody *a, cpBody *b, bench_vec pa, bench_vec pb)
{
	cpConstraint *j = cpPivotJointNew(a, b, cpv(0.5 * (pa.x + pb.x), 0.5 * (pa.y + pb.y)));
	cpConstraintSetCollideBodies(j, cpFalse);
	cpSpaceAddConstraint(s_space, j);
	s_joints[s_joint_count++] = j;
}

static const char *note(void) { return s_hash ? "spatial_hash" : "bb_tree"; }

static int create(const bench_params *p)
{
	s_space = cpSpaceNew();
	cpSpaceSetGravity(s_space, cpv(0.0, BENCH_GRAVITY));
	cpSpaceSetIterations(s_space, p->iterations > 0 ? p->iterations : 10);
	cpSpaceSetSleepTimeThreshold(s_space, p->sleep ? 0.5 : INFINITY);
	cpSpaceSetCollisionSlop(s_space, 0.01);
	s_scene = p->scene;
	s_hash = p->use_hash != 0;
	if (s_hash) cpSpaceUseSpatialHash(s_space, 1.0, 20000);

	s_body_count = s_shape_count = s_joint_count = s_dynamic_count = s_probe_count = 0;
	int capacity = 1 + p->base * (p->base + 1) / 2 + BENCH_MANY_COUNT * BENCH_MANY_BASE * (BENCH_MANY_BASE + 1) / 2 +
	               BENCH_RAIN_ROWS * BENCH_RAIN_COLUMNS + BENCH_GRID_N * BENCH_GRID_N;
	s_bodies = (cpBody **)calloc((size_t)capacity, sizeof *s_bodies);
	s_shapes = (cpShape **)calloc((size_t)capacity + 3, sizeof *s_shapes);
	s_joints = (cpConstraint **)calloc(2u * BENCH_GRID_N * BENCH_GRID_N, sizeof *s_joints);

	bench_vec zero = {0.0f, 0.0f};
	if (p->scene == BENCH_LARGE_PYRAMID || p->scene == BENCH_MANY_PYRAMIDS) {
		bench_vec gc = {0.0f, -BENCH_GROUND_HALF_HEIGHT};
		bench_vec gh = {bench_ground_half_width(p->scene, p->base), BENCH_GROUND_HALF_HEIGHT};
		add_static_box(add_body(0, zero, 0.0, 0.0), gc, gh);
		if (p->scene == BENCH_LARGE_PYRAMID) {
			add_pyramid(p->base, 0.0f);
		} else {
			for (int i = 0; i < BENCH_MANY_COUNT; ++i) add_pyramid(BENCH_MANY_BASE, bench_many_center(i));
		}
	} else if (p->scene == BENCH_RAIN) {
		cpBody *ground = add_body(0, zero, 0.0, 0.0);
		for (int i = 0; i < 3; ++i) {
			bench_vec c, h;
			bench_rain_container(i, &c, &h);
			add_static_box(ground, c, h);
		}
		for (int i = 0; i < BENCH_RAIN_ROWS * BENCH_RAIN_COLUMNS; ++i) {
			add_dynamic_circle(bench_rain_position(i), bench_rain_radius(i));
		}
	} else {
		for (int r = 0; r < BENCH_GRID_N; ++r) {
			for (int c = 0; c < BENCH_GRID_N; ++c) {
				bench_vec pos = bench_grid_position(r, c);
				cpBody *b;
				if (r == 0) {
					b = add_body(0, pos, 0.0, 0.0);
					add_shape(cpCircleShapeNew(b, BENCH_GRID_RADIUS, cpvzero));
				} else {
					b = add_dynamic_circle(pos, BENCH_GRID_RADIUS);
				}
				if (c > 0 && r > 0) add_pivot(s_bodies[s_body_count - 2], b, bench_grid_position(r, c - 1), pos);
				if (r > 0) add_pivot(s_bodies[s_body_count - 1 - BENCH_GRID_N], b, bench_grid_position(r - 1, c), pos);
			}
		}
		s_probes[s_probe_count++] = s_bodies[(BENCH_GRID_N - 1) * BENCH_GRID_N + BENCH_GRID_N / 2];
	}
	return s_probe_count;
}

static void step(void) { cpSpaceStep(s_space, BENCH_DT); }

static bench_vec probe(int i)
{
	cpVect p = cpBodyGetPosition(s_probes[i]);
	bench_vec v = {(float)p.x, (float)p.y};
	return v;
}

static int body_count(void) { return s_body_count; }
static int dynamic_count(void) { return s_dynamic_count; }

static int awake_count(void)
{
	int n = 0;
	for (int i = 0; i < s_body_count; ++i) {
		n += cpBodyGetType(s_bodies[i]) == CP_BODY_TYPE_DYNAMIC && !cpBodyIsSleeping(s_bodies[i]);
	}
	return n;
}

static double check(void)
{
	if (s_scene == BENCH_RAIN) {
		int escaped = 0;
		for (int i = 0; i < s_body_count; ++i) {
			if (cpBodyGetType(s_bodies[i]) != CP_BODY_TYPE_DYNAMIC) continue;
			cpVect p = cpBodyGetPosition(s_bodies[i]);
			bench_vec v = {(float)p.x, (float)p.y};
			escaped += bench_rain_escaped(v);
		}
		return escaped;
	}
	double gap = 0.0;
	for (int i = 0; i < s_joint_count; ++i) {
		cpConstraint *j = s_joints[i];
		cpVect a = cpBodyLocalToWorld(cpConstraintGetBodyA(j), cpPivotJointGetAnchorA(j));
		cpVect b = cpBodyLocalToWorld(cpConstraintGetBodyB(j), cpPivotJointGetAnchorB(j));
		double len = cpvlength(cpvsub(b, a));
		if (len > gap) gap = len;
	}
	return gap;
}

static void destroy(void)
{
	/* Chipmunk does not free a space's children: remove and free them ourselves. */
	for (int i = 0; i < s_joint_count; ++i) {
		cpSpaceRemoveConstraint(s_space, s_joints[i]);
		cpConstraintFree(s_joints[i]);
	}
	for (int i = 0; i < s_shape_count; ++i) {
		cpSpaceRemoveShape(s_space, s_shapes[i]);
		cpShapeFree(s_shapes[i]);
	}
	for (int i = 0; i < s_body_count; ++i) {
		cpSpaceRemoveBody(s_space, s_bodies[i]);
		cpBodyFree(s_bodies[i]);
	}
	cpSpaceFree(s_space);
	s_space = NULL;
	free(s_bodies);
	free(s_shapes);
	free(s_joints);
}

int main(int argc, char **argv)
{
	bench_ops ops;
	memset(&ops, 0, sizeof ops);
	ops.engine = "chipmunk";
	ops.create = create;
	ops.step = step;
	ops.probe = probe;
	ops.body_count = body_count;
	ops.awake_count = awake_count;
	ops.dynamic_count = dynamic_count;
	ops.check = check;
	ops.destroy = destroy;
	ops.note = note;
	return bench_main(argc, argv, &ops);
}
