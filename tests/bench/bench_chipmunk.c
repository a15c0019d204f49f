/* tumble benchmarks: the scenes of bench_common.h built with Chipmunk 7 (Debian
 * libchipmunk-dev; cpFloat is double there), for comparison. Settings:
 * - 10 solver iterations (Chipmunk has no substeps), its bounding-box tree;
 * - sleeping as the scene asks, 0.5 s to sleep as in tumble and Box2D;
 * - collision slop 1 cm instead of the default 10 cm, which would let each of the
 *   100 rows of the large pyramid sink by up to 10 cm; bias left at its default;
 * - Chipmunk multiplies the two shapes' frictions and elasticities where Box2D
 *   takes the geometric mean and the larger, so each shape gets the square
 *   root: equal for the pairs of one material, as in these scenes;
 * - a revolute joint is a pivot joint plus, as the scene asks, a rotary limit,
 *   a simple motor (its torque cap as max force) and a damped rotary spring
 *   (stiffness and damping from hertz and damping ratio with the pair's
 *   effective inertia); joints do not collide their bodies;
 * - a negative group (never collide within it) is a Chipmunk group. */
#include <chipmunk/chipmunk.h>

#include "bench_common.h"

#define MAX_PARTS 4
typedef struct joint_parts { cpConstraint *c[MAX_PARTS]; int count; } joint_parts;

static cpSpace *s_space;
static cpBody **s_bodies;
static int s_body_count, s_body_capacity;
static joint_parts *s_joints;
static int s_joint_count, s_joint_capacity;
static int *s_asleep; /* bodies created asleep, put to sleep before the first step */
static int s_asleep_count, s_asleep_capacity;

static void *grow(void *p, int *capacity, int needed, size_t size)
{
	if (needed <= *capacity) return p;
	int cap = *capacity ? *capacity : 1024;
	while (cap < needed) cap *= 2;
	p = realloc(p, (size_t)cap * size);
	if (p == NULL) {
		fprintf(stderr, "bench_chipmunk: out of memory\n");
		exit(1);
	}
	*capacity = cap;
	return p;
}

static void create_world(const bench_settings *s)
{
	s_space = cpSpaceNew();
	cpSpaceSetGravity(s_space, cpv(0.0, s->gravity_y));
	cpSpaceSetIterations(s_space, s->iterations > 0 ? s->iterations : 10);
	cpSpaceSetSleepTimeThreshold(s_space, s->enable_sleep ? 0.5 : INFINITY);
	cpSpaceSetCollisionSlop(s_space, 0.01);
	s_body_count = s_joint_count = s_asleep_count = 0;
}

static void free_shape(cpBody *body, cpShape *shape, void *data)
{
	(void)body;
	(void)data;
	cpSpaceRemoveShape(s_space, shape);
	cpShapeFree(shape);
}

static void destroy_joint(int joint)
{
	joint_parts *j = s_joints + joint;
	for (int i = 0; i < j->count; ++i) {
		cpSpaceRemoveConstraint(s_space, j->c[i]);
		cpConstraintFree(j->c[i]);
	}
	j->count = 0;
}

static void destroy_body(int body)
{
	cpBody *b = s_bodies[body];
	if (b == NULL) return;
	cpBodyEachShape(b, free_shape, NULL);
	if (cpBodyGetType(b) != CP_BODY_TYPE_STATIC) cpSpaceRemoveBody(s_space, b);
	cpBodyFree(b);
	s_bodies[body] = NULL;
}

static void destroy_world(void)
{
	/* Chipmunk does not free a space's children: remove and free them ourselves. */
	for (int i = 0; i < s_joint_count; ++i) destroy_joint(i);
	for (int i = 0; i < s_body_count; ++i) destroy_body(i);
	cpSpaceFree(s_space);
	s_space = NULL;
}

static int add_body(const bench_body_def *def)
{
	cpBody *b;
	if (def->type == BENCH_STATIC) {
		b = cpBodyNewStatic();
	} else {
		b = def->type == BENCH_KINEMATIC ? cpBodyNewKinematic() : cpBodyNew(0.0, 0.0);
		cpSpaceAddBody(s_space, b);
	}
	cpBodySetPosition(b, cpv(def->position.x, def->position.y));
	cpBodySetAngle(b, def->angle);
	cpBodySetVelocity(b, cpv(def->linear_velocity.x, def->linear_velocity.y));
	s_bodies = (cpBody **)grow(s_bodies, &s_body_capacity, s_body_count + 1, sizeof *s_bodies);
	s_bodies[s_body_count] = b;
	if (!def->is_awake && def->type == BENCH_DYNAMIC) {
		s_asleep = (int *)grow(s_asleep, &s_asleep_capacity, s_asleep_count + 1, sizeof *s_asleep);
		s_asleep[s_asleep_count++] = s_body_count;
	}
	return s_body_count++;
}

static void add_shape(const bench_shape_def *def, cpShape *shape)
{
	if (cpBodyGetType(cpShapeGetBody(shape)) == CP_BODY_TYPE_DYNAMIC) cpShapeSetDensity(shape, def->density);
	cpShapeSetFriction(shape, sqrt((double)def->friction));
	cpShapeSetElasticity(shape, sqrt((double)def->restitution));
	cpShapeFilter filter = {def->group < 0 ? (cpGroup)(-def->group) : CP_NO_GROUP, def->category,
	                        def->mask == 0xffffffffu ? CP_ALL_CATEGORIES : def->mask};
	cpShapeSetFilter(shape, filter);
	cpSpaceAddShape(s_space, shape);
}

static void add_box(int body, const bench_shape_def *def, float hx, float hy, bench_vec center, float angle,
                    float radius)
{
	cpVect v[4] = {cpv(-hx, -hy), cpv(hx, -hy), cpv(hx, hy), cpv(-hx, hy)};
	cpTransform t = cpTransformRigid(cpv(center.x, center.y), angle);
	add_shape(def, cpPolyShapeNew(s_bodies[body], 4, v, t, radius));
}

static void add_hull(int body, const bench_shape_def *def, const bench_vec *points, int count, float radius)
{
	cpVect v[16];
	for (int i = 0; i < count && i < 16; ++i) v[i] = cpv(points[i].x, points[i].y);
	add_shape(def, cpPolyShapeNew(s_bodies[body], count, v, cpTransformIdentity, radius));
}

static void add_circle(int body, const bench_shape_def *def, bench_vec center, float radius)
{
	add_shape(def, cpCircleShapeNew(s_bodies[body], radius, cpv(center.x, center.y)));
}

static void add_capsule(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2, float radius)
{
	add_shape(def, cpSegmentShapeNew(s_bodies[body], cpv(p1.x, p1.y), cpv(p2.x, p2.y), radius));
}

static void add_segment(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2)
{
	add_shape(def, cpSegmentShapeNew(s_bodies[body], cpv(p1.x, p1.y), cpv(p2.x, p2.y), 0.0));
}

static void add_chain_loop(int body, const bench_shape_def *def, const bench_vec *points, int count)
{
	for (int i = 0; i < count; ++i) {
		bench_vec a = points[(i + count - 1) % count], b = points[i], c = points[(i + 1) % count],
		          d = points[(i + 2) % count];
		cpShape *s = cpSegmentShapeNew(s_bodies[body], cpv(b.x, b.y), cpv(c.x, c.y), 0.0);
		cpSegmentShapeSetNeighbors(s, cpv(a.x, a.y), cpv(d.x, d.y));
		add_shape(def, s);
	}
}

static void add_part(joint_parts *j, cpConstraint *c)
{
	cpConstraintSetCollideBodies(c, cpFalse);
	cpSpaceAddConstraint(s_space, c);
	j->c[j->count++] = c;
}

static int add_revolute(const bench_revolute_def *def)
{
	s_joints = (joint_parts *)grow(s_joints, &s_joint_capacity, s_joint_count + 1, sizeof *s_joints);
	joint_parts *j = s_joints + s_joint_count;
	j->count = 0;
	cpBody *a = s_bodies[def->body_a], *b = s_bodies[def->body_b];
	/* between two static bodies a joint does nothing (and Chipmunk refuses to solve it) */
	if (cpBodyGetType(a) == CP_BODY_TYPE_STATIC && cpBodyGetType(b) == CP_BODY_TYPE_STATIC) return s_joint_count++;
	add_part(j, cpPivotJointNew2(a, b, cpv(def->local_a.x, def->local_a.y), cpv(def->local_b.x, def->local_b.y)));
	float ref = def->reference_angle;
	if (def->enable_limit) add_part(j, cpRotaryLimitJointNew(a, b, ref + def->lower, ref + def->upper));
	if (def->enable_motor) {
		/* Chipmunk's motor drives wa - wb to the rate */
		cpConstraint *motor = cpSimpleMotorNew(a, b, -def->motor_speed);
		cpConstraintSetMaxForce(motor, def->max_motor_torque);
		add_part(j, motor);
	}
	if (def->enable_spring && def->hertz > 0.0f) {
		double ia = cpBodyGetType(a) == CP_BODY_TYPE_DYNAMIC ? 1.0 / cpBodyGetMoment(a) : 0.0;
		double ib = cpBodyGetType(b) == CP_BODY_TYPE_DYNAMIC ? 1.0 / cpBodyGetMoment(b) : 0.0;
		double inertia = ia + ib > 0.0 ? 1.0 / (ia + ib) : 0.0, omega = 2.0 * CP_PI * def->hertz;
		add_part(j, cpDampedRotarySpringNew(a, b, ref, inertia * omega * omega,
		                                    2.0 * inertia * def->damping_ratio * omega));
	}
	return s_joint_count++;
}

static void step(void)
{
	for (int i = 0; i < s_asleep_count; ++i) cpBodySleep(s_bodies[s_asleep[i]]);
	s_asleep_count = 0;
	cpSpaceStep(s_space, BENCH_DT);
}

static bench_vec position(int body)
{
	cpVect p = cpBodyGetPosition(s_bodies[body]);
	return bench_v((float)p.x, (float)p.y);
}

static float angle(int body) { return (float)cpBodyGetAngle(s_bodies[body]); }

static int awake_count(void)
{
	int n = 0;
	for (int i = 0; i < s_body_count; ++i) {
		cpBody *b = s_bodies[i];
		n += b != NULL && cpBodyGetType(b) == CP_BODY_TYPE_DYNAMIC && !cpBodyIsSleeping(b);
	}
	return n;
}

int main(int argc, char **argv)
{
	bench_ops ops;
	memset(&ops, 0, sizeof ops);
	ops.engine = "chipmunk";
	ops.config = "10iter_bbtree";
	ops.create_world = create_world;
	ops.destroy_world = destroy_world;
	ops.add_body = add_body;
	ops.destroy_body = destroy_body;
	ops.add_box = add_box;
	ops.add_hull = add_hull;
	ops.add_circle = add_circle;
	ops.add_capsule = add_capsule;
	ops.add_segment = add_segment;
	ops.add_chain_loop = add_chain_loop;
	ops.add_revolute = add_revolute;
	ops.destroy_joint = destroy_joint;
	ops.step = step;
	ops.position = position;
	ops.angle = angle;
	ops.awake_count = awake_count;
	int status = bench_main(argc, argv, &ops);
	free(s_bodies);
	free(s_joints);
	free(s_asleep);
	return status;
}
