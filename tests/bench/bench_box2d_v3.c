/* tumble benchmarks: the scenes of bench_common.h built with Box2D v3 (v3.1's
 * C API), linked against a Release build of it (BOX2D_V3_DIR, see Makefile).
 * Built with BENCH_B2_MAIN, the same through the API of Box2D's main branch
 * (BOX2D_MAIN_DIR; commit 617d32a, August 2026): joint defs with a base and
 * local frames, a reference angle as frame A's rotation, the query's origin.
 * Single-threaded: no task system, one worker, as v3's benchmark with -t=1.
 * v3's settings throughout: 4 substeps, 30 Hz contacts (its defaults).
 *
 *   bench_box2d_v3 [ARGS]             as every bench binary (engine "v3_<build>")
 *   bench_box2d_v3 --profile [ARGS]   also prints each phase's share of the step, from
 *       Box2D's own timers, beside bench_tumble --profile (v3.1 leaves the solver's
 *       stages at zero on one thread; main fills them)
 *   bench_box2d_v3 --verify [STEPS]   builds every scene twice, with v3's own
 *       benchmark functions (its shared library, linked in when the build has
 *       it) and through bench_common.h, steps both STEPS times (default 120)
 *       and compares every body's transform and velocity bit for bit: the
 *       rebuilt scenes are v3's scenes. */
#include "bench_common.h"

#include "box2d/box2d.h"
#include "box2d/math_functions.h"

#ifndef BENCH_V3_NAME
#define BENCH_V3_NAME "v3"
#endif

static b2WorldId s_world;
static b2BodyId *s_bodies;
static int s_body_count, s_body_capacity;
static b2JointId *s_joints;
static int s_joint_count, s_joint_capacity;
static int s_substeps = 4;

static void *grow(void *p, int *capacity, int needed, size_t size)
{
	if (needed <= *capacity) return p;
	int cap = *capacity ? *capacity : 1024;
	while (cap < needed) cap *= 2;
	p = realloc(p, (size_t)cap * size);
	if (p == NULL) {
		fprintf(stderr, "bench_box2d_v3: out of memory\n");
		exit(1);
	}
	*capacity = cap;
	return p;
}

static void create_world(const bench_settings *s)
{
	b2WorldDef wd = b2DefaultWorldDef();
	wd.gravity = (b2Vec2){0.0f, s->gravity_y};
	wd.enableSleep = s->enable_sleep != 0;
	s_world = b2CreateWorld(&wd);
	s_substeps = s->iterations > 0 ? s->iterations : 4;
	s_body_count = s_joint_count = 0;
}

/* --profile: Box2D's own phase timers (b2World_GetProfile, ms) summed over a
 * run's steps and printed as shares of the step, beside what bench_tumble
 * --profile prints. Box2D cuts its step otherwise: `setup` gathers the
 * solver's bodies and stages (tumble counts that, the colouring and the
 * joints in its `prepare`); `finalize` writes the bodies back and sweeps the
 * fast ones that are not bullets (tumble: `integrate` and `continuous`);
 * `refit` is the broad phase's box update after the solve. */
static int s_profile;
#define PHASES 15
static double s_phase[PHASES];
static const char *const s_phase_names[PHASES] = {"step",        "pairs",     "collide",  "solve",   "setup",
                                                  "prepare",     "integrate", "warm_start", "solve_contacts", "relax",
                                                  "restitution", "store",     "finalize", "refit",   "bullets"};

static void print_profile(void)
{
	if (!s_profile || s_phase[0] <= 0.0) return;
	fprintf(stderr, "profile:");
	for (int i = 1; i < PHASES; ++i) fprintf(stderr, " %s=%.1f%%", s_phase_names[i], 100.0 * s_phase[i] / s_phase[0]);
	fprintf(stderr, " (of %.1f ms)\n", s_phase[0]);
	memset(s_phase, 0, sizeof s_phase);
}

static void destroy_world(void)
{
	print_profile();
	b2DestroyWorld(s_world);
}

static int add_body(const bench_body_def *def)
{
	b2BodyDef bd = b2DefaultBodyDef();
	bd.type = def->type == BENCH_DYNAMIC ? b2_dynamicBody : def->type == BENCH_KINEMATIC ? b2_kinematicBody
	                                                                                     : b2_staticBody;
	bd.position = (b2Vec2){def->position.x, def->position.y};
	if (def->angle != 0.0f) bd.rotation = b2MakeRot(def->angle);
	bd.linearVelocity = (b2Vec2){def->linear_velocity.x, def->linear_velocity.y};
	bd.angularVelocity = def->angular_velocity;
	bd.linearDamping = def->linear_damping;
	bd.sleepThreshold = def->sleep_threshold;
	bd.isAwake = def->is_awake != 0;
	bd.enableSleep = def->enable_sleep != 0;
	s_bodies = grow(s_bodies, &s_body_capacity, s_body_count + 1, sizeof *s_bodies);
	s_bodies[s_body_count] = b2CreateBody(s_world, &bd);
	return s_body_count++;
}

static void destroy_body(int body) { b2DestroyBody(s_bodies[body]); }

static b2ShapeDef shape_def(const bench_shape_def *def)
{
	b2ShapeDef sd = b2DefaultShapeDef();
	sd.density = def->density;
	sd.material.friction = def->friction;
	sd.material.restitution = def->restitution;
	sd.filter.categoryBits = def->category;
	sd.filter.maskBits = def->mask == 0xffffffffu ? B2_DEFAULT_MASK_BITS : def->mask;
	sd.filter.groupIndex = def->group;
	sd.enableHitEvents = def->hit_events != 0;
	return sd;
}

/* The constructor v3's scenes use for each case, so the vertices are the same bits. */
static void add_box(int body, const bench_shape_def *def, float hx, float hy, bench_vec center, float angle,
                    float radius)
{
	b2ShapeDef sd = shape_def(def);
	b2Polygon box;
	if (center.x == 0.0f && center.y == 0.0f && angle == 0.0f) {
		box = radius > 0.0f ? b2MakeRoundedBox(hx, hy, radius) : b2MakeBox(hx, hy);
	} else {
		b2Rot q = angle == 0.0f ? b2Rot_identity : b2MakeRot(angle);
		box = b2MakeOffsetRoundedBox(hx, hy, (b2Vec2){center.x, center.y}, q, radius);
	}
	b2CreatePolygonShape(s_bodies[body], &sd, &box);
}

static void add_hull(int body, const bench_shape_def *def, const bench_vec *points, int count, float radius)
{
	b2Vec2 p[B2_MAX_POLYGON_VERTICES];
	for (int i = 0; i < count && i < B2_MAX_POLYGON_VERTICES; ++i) p[i] = (b2Vec2){points[i].x, points[i].y};
	b2Hull hull = b2ComputeHull(p, count);
	b2Polygon polygon = b2MakePolygon(&hull, radius);
	b2ShapeDef sd = shape_def(def);
	b2CreatePolygonShape(s_bodies[body], &sd, &polygon);
}

static void add_circle(int body, const bench_shape_def *def, bench_vec center, float radius)
{
	b2ShapeDef sd = shape_def(def);
	b2Circle circle = {{center.x, center.y}, radius};
	b2CreateCircleShape(s_bodies[body], &sd, &circle);
}

static void add_capsule(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2, float radius)
{
	b2ShapeDef sd = shape_def(def);
	b2Capsule capsule = {{p1.x, p1.y}, {p2.x, p2.y}, radius};
	b2CreateCapsuleShape(s_bodies[body], &sd, &capsule);
}

static void add_segment(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2)
{
	b2ShapeDef sd = shape_def(def);
	b2Segment segment = {{p1.x, p1.y}, {p2.x, p2.y}};
	b2CreateSegmentShape(s_bodies[body], &sd, &segment);
}

static void add_chain_loop(int body, const bench_shape_def *def, const bench_vec *points, int count)
{
	b2Vec2 *p = malloc((size_t)count * sizeof *p);
	for (int i = 0; i < count; ++i) p[i] = (b2Vec2){points[i].x, points[i].y};
	b2SurfaceMaterial material = {0};
	material.friction = def->friction;
	material.restitution = def->restitution;
	b2ChainDef cd = b2DefaultChainDef();
	cd.points = p;
	cd.count = count;
	cd.isLoop = true;
	cd.materials = &material;
	cd.materialCount = 1;
	b2CreateChain(s_bodies[body], &cd);
	free(p);
}

static int add_revolute(const bench_revolute_def *def)
{
	b2RevoluteJointDef jd = b2DefaultRevoluteJointDef();
#ifdef BENCH_B2_MAIN
	jd.base.bodyIdA = s_bodies[def->body_a];
	jd.base.bodyIdB = s_bodies[def->body_b];
	jd.base.localFrameA.p = (b2Vec2){def->local_a.x, def->local_a.y};
	jd.base.localFrameB.p = (b2Vec2){def->local_b.x, def->local_b.y};
	if (def->reference_angle != 0.0f) jd.base.localFrameA.q = b2MakeRot(def->reference_angle);
#else
	jd.bodyIdA = s_bodies[def->body_a];
	jd.bodyIdB = s_bodies[def->body_b];
	jd.localAnchorA = (b2Vec2){def->local_a.x, def->local_a.y};
	jd.localAnchorB = (b2Vec2){def->local_b.x, def->local_b.y};
	jd.referenceAngle = def->reference_angle;
#endif
	jd.enableLimit = def->enable_limit != 0;
	jd.lowerAngle = def->lower;
	jd.upperAngle = def->upper;
	jd.enableMotor = def->enable_motor != 0;
	jd.motorSpeed = def->motor_speed;
	jd.maxMotorTorque = def->max_motor_torque;
	jd.enableSpring = def->enable_spring != 0;
	jd.hertz = def->hertz;
	jd.dampingRatio = def->damping_ratio;
	s_joints = grow(s_joints, &s_joint_capacity, s_joint_count + 1, sizeof *s_joints);
	s_joints[s_joint_count] = b2CreateRevoluteJoint(s_world, &jd);
	return s_joint_count++;
}

static void destroy_joint(int joint) { b2DestroyJoint(s_joints[joint]); }

static void step(void)
{
	b2World_Step(s_world, BENCH_DT, s_substeps);
	if (!s_profile) return;
	b2Profile p = b2World_GetProfile(s_world);
#ifdef BENCH_B2_MAIN
	float setup = p.solverSetup;
#else
	float setup = p.prepareStages;
#endif
	const float v[PHASES] = {p.step,       p.pairs,      p.collide,        p.solve,
	                         setup,        p.prepareConstraints, p.integrateVelocities + p.integratePositions,
	                         p.warmStart,  p.solveImpulses, p.relaxImpulses, p.applyRestitution,
	                         p.storeImpulses, p.transforms, p.refit,        p.bullets};
	for (int i = 0; i < PHASES; ++i) s_phase[i] += v[i];
}

static void set_target(int body, bench_vec position, float dt)
{
	b2Transform target = {{position.x, position.y}, b2Rot_identity};
#ifdef BENCH_B2_MAIN
	b2Body_SetTargetTransform(s_bodies[body], target, dt, true);
#else
	b2Body_SetTargetTransform(s_bodies[body], target, dt);
#endif
}

static bench_vec position(int body)
{
	b2Vec2 p = b2Body_GetPosition(s_bodies[body]);
	return bench_v(p.x, p.y);
}

static float angle(int body) { return b2Rot_GetAngle(b2Body_GetRotation(s_bodies[body])); }

static int awake_count(void) { return b2World_GetAwakeBodyCount(s_world); }

static void cos_sin(float angle, float *c, float *s)
{
	b2CosSin cs = b2ComputeCosSin(angle);
	*c = cs.cosine;
	*s = cs.sine;
}

/* ---- every body of a world, found through its shapes, for --verify ---- */

typedef struct body_list { b2BodyId *ids; int count, capacity; } body_list;

static bool collect_body(b2ShapeId shape, void *context)
{
	body_list *list = context;
	list->ids = grow(list->ids, &list->capacity, list->count + 1, sizeof *list->ids);
	list->ids[list->count++] = b2Shape_GetBody(shape);
	return true;
}

static int compare_ids(const void *a, const void *b)
{
	const b2BodyId *x = a, *y = b;
	return (x->index1 > y->index1) - (x->index1 < y->index1);
}

static unsigned long long fnv(unsigned long long h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

/* Transforms and velocities of every body with a shape, in body index order. */
static unsigned long long world_hash(b2WorldId world, int *bodies)
{
	body_list list = {0};
	b2AABB all = {{-1.0e6f, -1.0e6f}, {1.0e6f, 1.0e6f}};
#ifdef BENCH_B2_MAIN
	b2World_OverlapAABB(world, (b2Pos){0.0f, 0.0f}, all, b2DefaultQueryFilter(), collect_body, &list);
#else
	b2World_OverlapAABB(world, all, b2DefaultQueryFilter(), collect_body, &list);
#endif
	qsort(list.ids, (size_t)list.count, sizeof *list.ids, compare_ids);
	unsigned long long h = 14695981039346656037ull;
	int n = 0;
	for (int i = 0; i < list.count; ++i) {
		if (i > 0 && list.ids[i].index1 == list.ids[i - 1].index1) continue;
		b2Transform xf = b2Body_GetTransform(list.ids[i]);
		b2Vec2 v = b2Body_GetLinearVelocity(list.ids[i]);
		float w = b2Body_GetAngularVelocity(list.ids[i]);
		h = fnv(h, &list.ids[i].index1, sizeof list.ids[i].index1);
		h = fnv(h, &xf, sizeof xf);
		h = fnv(h, &v, sizeof v);
		h = fnv(h, &w, sizeof w);
		n += 1;
	}
	free(list.ids);
	*bodies = n;
	return h;
}

static unsigned long long hash(void)
{
	int n;
	return world_hash(s_world, &n);
}

#ifdef BENCH_V3_SHARED
/* v3's own scene functions (its shared/benchmarks.c), from its build's libshared.a. */
void CreateLargePyramid(b2WorldId worldId);
void CreateManyPyramids(b2WorldId worldId);
void CreateRain(b2WorldId worldId);
float StepRain(b2WorldId worldId, int stepCount);
void CreateJointGrid(b2WorldId worldId);
void CreateTumbler(b2WorldId worldId);
void CreateSmash(b2WorldId worldId);
void CreateSpinner(b2WorldId worldId);
float StepSpinner(b2WorldId worldId, int stepCount);
#ifdef BENCH_B2_MAIN
void CreateJunkyard(b2WorldId worldId);
float StepJunkyard(b2WorldId worldId, int stepCount);
void CreateWasher(b2WorldId worldId);
void CreateCompounds(b2WorldId worldId);
#endif

static int verify(const bench_ops *ops, int steps)
{
	typedef void create_fn(b2WorldId);
	typedef float step_fn(b2WorldId, int);
#ifdef BENCH_B2_MAIN
	/* main changed many_pyramids (narrower ground, pyramids shifted) and the
	 * spinner (twice the bodies, an unbounded motor): the bench keeps v3.1's,
	 * so those two are not main's own and are left out here. */
	create_fn *creates[BENCH_SCENE_COUNT] = {CreateLargePyramid, NULL,         CreateRain,    CreateJointGrid,
	                                         CreateTumbler,      CreateSmash,  NULL,          CreateJunkyard,
	                                         CreateWasher,       CreateCompounds};
	step_fn *updates[BENCH_SCENE_COUNT] = {NULL, NULL, StepRain, NULL, NULL, NULL, NULL, StepJunkyard, NULL, NULL};
#else
	/* v3.1 has no junkyard, washer or compounds of its own. */
	create_fn *creates[BENCH_SCENE_COUNT] = {CreateLargePyramid, CreateManyPyramids, CreateRain, CreateJointGrid,
	                                         CreateTumbler, CreateSmash, CreateSpinner};
	step_fn *updates[BENCH_SCENE_COUNT] = {NULL, NULL, StepRain, NULL, NULL, NULL, StepSpinner};
#endif
	int failed = 0;
	static bench_scene sc;
	for (int s = 0; s < BENCH_SCENE_COUNT; ++s) {
		if (creates[s] == NULL) continue;
		b2WorldDef wd = b2DefaultWorldDef();
		b2WorldId native = b2CreateWorld(&wd);
		creates[s](native);
		for (int i = 0; i < steps; ++i) {
			if (updates[s] != NULL) updates[s](native, i);
			b2World_Step(native, BENCH_DT, 4);
		}
		int native_bodies, rebuilt_bodies;
		unsigned long long a = world_hash(native, &native_bodies);
		b2DestroyWorld(native);

		bench_build(&sc, ops, s, 100, -1);
		for (int i = 0; i < steps; ++i) {
			bench_update(&sc, i);
			ops->step();
		}
		unsigned long long b = world_hash(s_world, &rebuilt_bodies);
		bench_free(&sc);
		int same = a == b && native_bodies == rebuilt_bodies;
		printf("verify scene=%s steps=%d bodies=%d/%d v3=%016llx rebuilt=%016llx %s\n", bench_scene_names[s], steps,
		       native_bodies, rebuilt_bodies, a, b, same ? "same" : "DIFFERENT");
		failed += !same;
	}
	return failed ? 1 : 0;
}
#endif

int main(int argc, char **argv)
{
	int verify_steps = 0;
	for (int i = 1; i < argc; ++i) {
		if (argv[i] != NULL && strcmp(argv[i], "--profile") == 0) {
			s_profile = 1;
			argv[i] = NULL;
			continue;
		}
		if (argv[i] != NULL && strcmp(argv[i], "--verify") == 0) {
			verify_steps = 120;
			argv[i] = NULL;
			if (i + 1 < argc && atoi(argv[i + 1]) > 0) {
				verify_steps = atoi(argv[i + 1]);
				argv[++i] = NULL;
			}
		}
	}
	bench_ops ops;
	memset(&ops, 0, sizeof ops);
	ops.engine = BENCH_V3_NAME;
	ops.config = "4sub_30hz";
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
	ops.set_target = set_target;
	ops.step = step;
	ops.position = position;
	ops.angle = angle;
	ops.awake_count = awake_count;
	ops.hash = hash;
	ops.cos_sin = cos_sin;
	int status;
	if (verify_steps > 0) {
#ifdef BENCH_V3_SHARED
		status = verify(&ops, verify_steps);
#else
		fprintf(stderr, "bench_box2d_v3: built without v3's shared library: --verify is not available\n");
		status = 2;
#endif
	} else {
		status = bench_main(argc, argv, &ops);
	}
	free(s_bodies);
	free(s_joints);
	return status;
}
