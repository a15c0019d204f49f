/* tumble benchmarks: the scenes of bench_common.h built with tumble's physics.h.
 *
 *   bench_tumble [ARGS]          tumble's defaults: 8 substeps, 60 Hz contacts (engine "tumble")
 *   bench_tumble --fast [ARGS]   Box2D v3's settings: 4 substeps, 30 Hz contacts (engine "tumble_fast")
 *   bench_tumble --solver PATH   the contact solver's path: scalar, sse2, avx2 or avx512 (default: the CPU's
 *                                widest)
 *   bench_tumble --label NAME    the engine's name in the output lines (run.sh tells the paths apart by it)
 *   bench_tumble --profile       also prints, per run, each phase's share of the step (tb_profile summed
 *                                over the steps), on stderr
 *
 * Everything else is the world's defaults (continuous on, warm starting on,
 * joints at 60 Hz, push-out 3 m/s), as a user gets them; they are v3's too. */
#include "bench_common.h"
#include "tumble/physics.h"

static tb_world *s_world;
static tb_body_id *s_bodies;
static int s_body_count, s_body_capacity;
static tb_joint_id *s_joints;
static int s_joint_count, s_joint_capacity;
static int s_fast;
static const char *s_solver;
static int s_profile;
static const char *s_label;
/* The phases of tb_profile summed over a run's steps (--profile). */
static double s_phase[14];
/* touching contacts and manifolds remade from the contact cache, summed over the run's steps */
static double s_touching, s_remade, s_contacts, s_profiled_steps;
static const char *const s_phase_names[14] = {"step",     "pairs",  "collide",    "solve",
                                               "prepare",  "integrate", "warm_start", "solve_contacts",
                                               "relax",    "restitution", "store",    "continuous",
                                               "sensors",  "sleep"};

static void *grow(void *p, int *capacity, int needed, size_t size)
{
	if (needed <= *capacity) return p;
	int cap = *capacity ? *capacity : 1024;
	while (cap < needed) cap *= 2;
	p = realloc(p, (size_t)cap * size);
	if (p == NULL) {
		fprintf(stderr, "bench_tumble: out of memory\n");
		exit(1);
	}
	*capacity = cap;
	return p;
}

static void check(tb_status status, const char *what)
{
	if (status == TB_OK) return;
	fprintf(stderr, "bench_tumble: %s failed: %s\n", what, tb_status_string(status));
	exit(1);
}

static void create_world(const bench_settings *s)
{
	tb_world_def wd = tb_default_world_def();
	wd.gravity = tb_v2(0.0f, s->gravity_y);
	wd.enable_sleep = s->enable_sleep != 0;
	if (s_fast) {
		wd.substeps = 4;
		wd.contact_hertz = 30.0f;
	}
	if (s->iterations > 0) wd.substeps = s->iterations;
	s_world = tb_create_world(&wd);
	if (s_world == NULL) {
		fprintf(stderr, "bench_tumble: tb_create_world failed\n");
		exit(1);
	}
	if (s_solver != NULL) check(tb_world_set_solver_path(s_world, tb_solver_path_from_name(s_solver)), s_solver);
	s_body_count = s_joint_count = 0;
}

static void print_profile(void)
{
	if (!s_profile || s_phase[0] <= 0.0) return;
	fprintf(stderr, "profile:");
	for (int i = 1; i < 14; ++i) fprintf(stderr, " %s=%.1f%%", s_phase_names[i], 100.0 * s_phase[i] / s_phase[0]);
	double steps = s_profiled_steps > 0.0 ? s_profiled_steps : 1.0;
	fprintf(stderr, " (of %.1f ms) remade=%.0f%% of touching; a step: contacts=%.0f touching=%.0f remade=%.0f\n",
	        s_phase[0], s_touching > 0.0 ? 100.0 * s_remade / s_touching : 0.0, s_contacts / steps,
	        s_touching / steps, s_remade / steps);
	memset(s_phase, 0, sizeof s_phase);
	s_touching = s_remade = s_contacts = s_profiled_steps = 0.0;
}

static void destroy_world(void)
{
	print_profile();
	tb_destroy_world(s_world);
	s_world = NULL;
}

static int add_body(const bench_body_def *def)
{
	tb_body_def bd = tb_default_body_def();
	bd.type = def->type == BENCH_DYNAMIC ? TB_DYNAMIC_BODY : def->type == BENCH_KINEMATIC ? TB_KINEMATIC_BODY
	                                                                                      : TB_STATIC_BODY;
	bd.position = tb_v2(def->position.x, def->position.y);
	bd.angle = def->angle;
	bd.linear_velocity = tb_v2(def->linear_velocity.x, def->linear_velocity.y);
	bd.angular_velocity = def->angular_velocity;
	bd.linear_damping = def->linear_damping;
	bd.sleep_threshold = def->sleep_threshold;
	bd.is_awake = def->is_awake != 0;
	bd.enable_sleep = def->enable_sleep != 0;
	tb_status status = TB_OK;
	tb_body_id id = tb_create_body(s_world, &bd, &status);
	check(status, "tb_create_body");
	s_bodies = (tb_body_id *)grow(s_bodies, &s_body_capacity, s_body_count + 1, sizeof *s_bodies);
	s_bodies[s_body_count] = id;
	return s_body_count++;
}

static void destroy_body(int body) { tb_destroy_body(s_world, s_bodies[body]); }

static tb_shape_def shape_def(const bench_shape_def *def)
{
	tb_shape_def sd = tb_default_shape_def();
	sd.density = def->density;
	sd.friction = def->friction;
	sd.restitution = def->restitution;
	sd.filter.category_bits = def->category;
	sd.filter.mask_bits = def->mask == 0xffffffffu ? ~0ull : def->mask;
	sd.filter.group_index = def->group;
	return sd;
}

static void add_polygon(int body, const bench_shape_def *def, const tb_polygon *polygon)
{
	tb_shape_def sd = shape_def(def);
	tb_status status = TB_OK;
	tb_create_polygon_shape(s_world, s_bodies[body], &sd, polygon, &status);
	check(status, "polygon shape");
}

static void add_box(int body, const bench_shape_def *def, float hx, float hy, bench_vec center, float angle,
                    float radius)
{
	tb_polygon box = tb_make_offset_box(hx, hy, tb_v2(center.x, center.y), tb_make_rot(angle));
	box.radius = radius;
	add_polygon(body, def, &box);
}

/* tb_make_polygon takes an outline in order; Box2D's scenes give point clouds
 * to b2ComputeHull. Andrew's monotone chain puts them in the order
 * b2ComputeHull gives: counter-clockwise from the lowest x (then lowest y).
 * Points already in that order (the ragdoll's feet) come out unchanged. */
static int hull_order(const bench_vec *in, int count, tb_vec2 *out)
{
	bench_vec p[8], h[16];
	int n = count < 8 ? count : 8, k = 0;
	for (int i = 0; i < n; ++i) p[i] = in[i];
	for (int i = 1; i < n; ++i) {
		bench_vec t = p[i];
		int j = i - 1;
		for (; j >= 0 && (p[j].x > t.x || (p[j].x == t.x && p[j].y > t.y)); --j) p[j + 1] = p[j];
		p[j + 1] = t;
	}
#define HULL_CROSS(o, a, b) (((a).x - (o).x) * ((b).y - (o).y) - ((a).y - (o).y) * ((b).x - (o).x))
	for (int i = 0; i < n; ++i) {
		while (k >= 2 && HULL_CROSS(h[k - 2], h[k - 1], p[i]) <= 0.0f) k -= 1;
		h[k++] = p[i];
	}
	for (int i = n - 2, lower = k + 1; i >= 0; --i) {
		while (k >= lower && HULL_CROSS(h[k - 2], h[k - 1], p[i]) <= 0.0f) k -= 1;
		h[k++] = p[i];
	}
#undef HULL_CROSS
	k -= 1; /* the first point again */
	for (int i = 0; i < k; ++i) out[i] = tb_v2(h[i].x, h[i].y);
	return k;
}

static void add_hull(int body, const bench_shape_def *def, const bench_vec *points, int count, float radius)
{
	tb_vec2 p[8];
	int n = hull_order(points, count, p);
	tb_polygon polygon;
	check(tb_make_polygon(p, n, radius, &polygon), "tb_make_polygon");
	add_polygon(body, def, &polygon);
}

static void add_circle(int body, const bench_shape_def *def, bench_vec center, float radius)
{
	tb_shape_def sd = shape_def(def);
	tb_circle circle = {{center.x, center.y}, radius};
	tb_status status = TB_OK;
	tb_create_circle_shape(s_world, s_bodies[body], &sd, &circle, &status);
	check(status, "circle shape");
}

static void add_capsule(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2, float radius)
{
	tb_shape_def sd = shape_def(def);
	tb_capsule capsule = {{p1.x, p1.y}, {p2.x, p2.y}, radius};
	tb_status status = TB_OK;
	tb_create_capsule_shape(s_world, s_bodies[body], &sd, &capsule, &status);
	check(status, "capsule shape");
}

static void add_segment(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2)
{
	tb_shape_def sd = shape_def(def);
	tb_segment segment = {{p1.x, p1.y}, {p2.x, p2.y}};
	tb_status status = TB_OK;
	tb_create_segment_shape(s_world, s_bodies[body], &sd, &segment, &status);
	check(status, "segment shape");
}

static void add_chain_loop(int body, const bench_shape_def *def, const bench_vec *points, int count)
{
	tb_vec2 *p = (tb_vec2 *)malloc((size_t)count * sizeof *p);
	for (int i = 0; i < count; ++i) p[i] = tb_v2(points[i].x, points[i].y);
	tb_chain_def cd = tb_default_chain_def();
	cd.points = p;
	cd.count = count;
	cd.loop = true;
	cd.friction = def->friction;
	cd.restitution = def->restitution;
	tb_status status = TB_OK;
	tb_create_chain(s_world, s_bodies[body], &cd, NULL, 0, &status);
	check(status, "chain");
	free(p);
}

static int add_revolute(const bench_revolute_def *def)
{
	tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
	jd.body_a = s_bodies[def->body_a];
	jd.body_b = s_bodies[def->body_b];
	jd.local_anchor_a = tb_v2(def->local_a.x, def->local_a.y);
	jd.local_anchor_b = tb_v2(def->local_b.x, def->local_b.y);
	jd.reference_angle = def->reference_angle;
	jd.enable_limit = def->enable_limit != 0;
	jd.lower = def->lower;
	jd.upper = def->upper;
	jd.enable_motor = def->enable_motor != 0;
	jd.motor_speed = def->motor_speed;
	jd.max_motor_torque = def->max_motor_torque;
	jd.enable_spring = def->enable_spring != 0;
	jd.hertz = def->hertz;
	jd.damping_ratio = def->damping_ratio;
	tb_status status = TB_OK;
	tb_joint_id id = tb_create_joint(s_world, &jd, &status);
	check(status, "tb_create_joint");
	s_joints = (tb_joint_id *)grow(s_joints, &s_joint_capacity, s_joint_count + 1, sizeof *s_joints);
	s_joints[s_joint_count] = id;
	return s_joint_count++;
}

static void destroy_joint(int joint) { tb_destroy_joint(s_world, s_joints[joint]); }

/* Box2D's b2Body_SetTargetTransform for an unrotated target: the velocity that
 * takes the body there in dt. The pusher does not turn (its angle stays 0), so
 * its centre moves as its origin does. */
static void set_target(int body, bench_vec position, float dt)
{
	tb_body_id id = s_bodies[body];
	tb_vec2 origin = tb_body_get_position(s_world, id);
	float inv = 1.0f / dt;
	check(tb_body_set_linear_velocity(s_world, id, tb_v2(inv * (position.x - origin.x), inv * (position.y - origin.y))),
	      "tb_body_set_linear_velocity");
	check(tb_body_set_angular_velocity(s_world, id, -inv * tb_body_get_angle(s_world, id)),
	      "tb_body_set_angular_velocity");
}

static void step(void)
{
	tb_world_step(s_world, BENCH_DT);
	if (!s_profile) return;
	tb_profile p = tb_world_get_profile(s_world);
	const float v[14] = {p.step,           p.pairs, p.collide, p.solve,       p.prepare,    p.integrate, p.warm_start,
	                     p.solve_contacts, p.relax, p.restitution, p.store, p.continuous, p.sensors,   p.sleep};
	for (int i = 0; i < 14; ++i) s_phase[i] += v[i];
	tb_counters c = tb_world_get_counters(s_world);
	s_touching += c.touching_contact_count;
	s_remade += c.remade_manifold_count;
	s_contacts += c.contact_count;
	s_profiled_steps += 1.0;
}

static bench_vec position(int body)
{
	tb_vec2 p = tb_body_get_position(s_world, s_bodies[body]);
	return bench_v(p.x, p.y);
}

static float angle(int body) { return tb_body_get_angle(s_world, s_bodies[body]); }

static int awake_count(void) { return tb_world_get_counters(s_world).awake_body_count; }

static unsigned long long hash(void) { return (unsigned long long)tb_world_hash(s_world); }

static const char *note(void) { return tb_solver_path_name(tb_world_get_solver_path(s_world)); }

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "--fast") == 0) {
			s_fast = 1;
			argv[i] = NULL;
		} else if (strcmp(argv[i], "--profile") == 0) {
			s_profile = 1;
			argv[i] = NULL;
		} else if (strcmp(argv[i], "--label") == 0 && i + 1 < argc) {
			s_label = argv[i + 1];
			argv[i] = argv[i + 1] = NULL;
			i += 1;
		} else if (strcmp(argv[i], "--solver") == 0 && i + 1 < argc) {
			s_solver = argv[i + 1];
			argv[i] = argv[i + 1] = NULL;
			i += 1;
		}
	}
	bench_ops ops;
	memset(&ops, 0, sizeof ops);
	ops.engine = s_label != NULL ? s_label : s_fast ? "tumble_fast" : "tumble";
	ops.config = s_fast ? "4sub_30hz" : "8sub_60hz";
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
	ops.note = note;
	int status = bench_main(argc, argv, &ops);
	free(s_bodies);
	free(s_joints);
	return status;
}
