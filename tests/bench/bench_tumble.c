/* tumble benchmarks: the scenes of bench_common.h built with tumble's physics.h.
 * World defaults (8 substeps, 60 Hz contacts, sleeping on, continuous on), as a user gets them. */
#include "bench_common.h"
#include "tumble/physics.h"

static tb_world *s_world;
static tb_body_id *s_bodies; /* every body, creation order */
static int s_body_count, s_dynamic_count;
static tb_body_id s_probes[64];
static int s_probe_count;
static tb_joint_id *s_joints;
static int s_joint_count;
static int s_scene;

static tb_body_id add_body(tb_body_type type, bench_vec p)
{
	tb_body_def bd = tb_default_body_def();
	bd.type = type;
	bd.position = tb_v2(p.x, p.y);
	tb_body_id id = tb_create_body(s_world, &bd, NULL);
	if (TB_IS_NULL(id)) {
		fprintf(stderr, "bench_tumble: tb_create_body failed\n");
		exit(1);
	}
	s_bodies[s_body_count++] = id;
	if (type == TB_DYNAMIC_BODY) s_dynamic_count += 1;
	return id;
}

static void add_box(tb_body_id body, bench_vec center, bench_vec half)
{
	tb_shape_def sd = tb_default_shape_def();
	sd.density = BENCH_DENSITY;
	sd.friction = BENCH_FRICTION;
	tb_polygon box = tb_make_offset_box(half.x, half.y, tb_v2(center.x, center.y), tb_rot_identity);
	tb_status status = TB_OK;
	if (TB_IS_NULL(tb_create_polygon_shape(s_world, body, &sd, &box, &status))) {
		fprintf(stderr, "bench_tumble: box shape failed: %s\n", tb_status_string(status));
		exit(1);
	}
}

static void add_circle(tb_body_id body, float radius)
{
	tb_shape_def sd = tb_default_shape_def();
	sd.density = BENCH_DENSITY;
	sd.friction = BENCH_FRICTION;
	tb_circle circle = {{0.0f, 0.0f}, radius};
	tb_status status = TB_OK;
	if (TB_IS_NULL(tb_create_circle_shape(s_world, body, &sd, &circle, &status))) {
		fprintf(stderr, "bench_tumble: circle shape failed: %s\n", tb_status_string(status));
		exit(1);
	}
}

static void add_pyramid(int base, float cx)
{
	bench_vec zero = {0.0f, 0.0f}, half = {BENCH_BOX_HALF, BENCH_BOX_HALF};
	tb_body_id top = tb_null_body_id;
	for (int r = 0; r < base; ++r) {
		for (int k = 0; k < base - r; ++k) {
			top = add_body(TB_DYNAMIC_BODY, bench_pyramid_box(base, cx, r, k));
			add_box(top, zero, half);
		}
	}
	s_probes[s_probe_count++] = top;
}

static void add_revolute(tb_body_id a, tb_body_id b, bench_vec pa, bench_vec pb)
{
	/* The anchor is the midpoint, given relative to each body's origin. */
	tb_vec2 mid = tb_v2(0.5f * (pa.x + pb.x), 0.5f * (pa.y + pb.y));
	tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
	jd.body_a = a;
	jd.body_b = b;
	jd.local_anchor_a = tb_v2(mid.x - pa.x, mid.y - pa.y);
	jd.local_anchor_b = tb_v2(mid.x - pb.x, mid.y - pb.y);
	tb_status status = TB_OK;
	tb_joint_id id = tb_create_joint(s_world, &jd, &status);
	if (TB_IS_NULL(id)) {
		fprintf(stderr, "bench_tumble: joint failed: %s\n", tb_status_string(status));
		exit(1);
	}
	s_joints[s_joint_count++] = id;
}

static int create(const bench_params *p)
{
	tb_world_def wd = tb_default_world_def();
	wd.gravity = tb_v2(0.0f, BENCH_GRAVITY);
	if (p->iterations > 0) wd.substeps = p->iterations;
	wd.enable_sleep = p->sleep != 0;
	s_world = tb_create_world(&wd);
	if (s_world == NULL) {
		fprintf(stderr, "bench_tumble: tb_create_world failed\n");
		exit(1);
	}
	s_scene = p->scene;
	s_body_count = s_dynamic_count = s_probe_count = s_joint_count = 0;
	int capacity = 1 + p->base * (p->base + 1) / 2 + BENCH_MANY_COUNT * BENCH_MANY_BASE * (BENCH_MANY_BASE + 1) / 2 +
	               BENCH_RAIN_ROWS * BENCH_RAIN_COLUMNS + BENCH_GRID_N * BENCH_GRID_N;
	s_bodies = (tb_body_id *)calloc((size_t)capacity, sizeof *s_bodies);
	s_joints = (tb_joint_id *)calloc(2u * BENCH_GRID_N * BENCH_GRID_N, sizeof *s_joints);

	bench_vec zero = {0.0f, 0.0f};
	if (p->scene == BENCH_LARGE_PYRAMID || p->scene == BENCH_MANY_PYRAMIDS) {
		bench_vec gc = {0.0f, -BENCH_GROUND_HALF_HEIGHT};
		bench_vec gh = {bench_ground_half_width(p->scene, p->base), BENCH_GROUND_HALF_HEIGHT};
		add_box(add_body(TB_STATIC_BODY, zero), gc, gh);
		if (p->scene == BENCH_LARGE_PYRAMID) {
			add_pyramid(p->base, 0.0f);
		} else {
			for (int i = 0; i < BENCH_MANY_COUNT; ++i) add_pyramid(BENCH_MANY_BASE, bench_many_center(i));
		}
	} else if (p->scene == BENCH_RAIN) {
		tb_body_id ground = add_body(TB_STATIC_BODY, zero);
		for (int i = 0; i < 3; ++i) {
			bench_vec c, h;
			bench_rain_container(i, &c, &h);
			add_box(ground, c, h);
		}
		for (int i = 0; i < BENCH_RAIN_ROWS * BENCH_RAIN_COLUMNS; ++i) {
			add_circle(add_body(TB_DYNAMIC_BODY, bench_rain_position(i)), bench_rain_radius(i));
		}
	} else {
		for (int r = 0; r < BENCH_GRID_N; ++r) {
			for (int c = 0; c < BENCH_GRID_N; ++c) {
				bench_vec pos = bench_grid_position(r, c);
				tb_body_id b = add_body(r == 0 ? TB_STATIC_BODY : TB_DYNAMIC_BODY, pos);
				add_circle(b, BENCH_GRID_RADIUS);
				if (c > 0 && r > 0) add_revolute(s_bodies[s_body_count - 2], b, bench_grid_position(r, c - 1), pos);
				if (r > 0) {
					add_revolute(s_bodies[s_body_count - 1 - BENCH_GRID_N], b, bench_grid_position(r - 1, c), pos);
				}
			}
		}
		s_probes[s_probe_count++] = s_bodies[(BENCH_GRID_N - 1) * BENCH_GRID_N + BENCH_GRID_N / 2];
	}
	return s_probe_count;
}

static void step(void) { tb_world_step(s_world, BENCH_DT); }

static bench_vec probe(int i)
{
	tb_vec2 p = tb_body_get_position(s_world, s_probes[i]);
	bench_vec v = {p.x, p.y};
	return v;
}

static int body_count(void) { return s_body_count; }
static int dynamic_count(void) { return s_dynamic_count; }
static int awake_count(void) { return tb_world_get_counters(s_world).awake_body_count; }

static double check(void)
{
	if (s_scene == BENCH_RAIN) {
		int escaped = 0;
		for (int i = 0; i < s_body_count; ++i) {
			if (tb_body_get_type(s_world, s_bodies[i]) != TB_DYNAMIC_BODY) continue;
			tb_vec2 p = tb_body_get_position(s_world, s_bodies[i]);
			bench_vec v = {p.x, p.y};
			escaped += bench_rain_escaped(v);
		}
		return escaped;
	}
	double gap = 0.0;
	for (int i = 0; i < s_joint_count; ++i) {
		tb_vec2 d = tb_sub(tb_joint_get_world_anchor_b(s_world, s_joints[i]),
		                   tb_joint_get_world_anchor_a(s_world, s_joints[i]));
		double len = (double)tb_length(d);
		if (len > gap) gap = len;
	}
	return gap;
}

static unsigned long long hash(void) { return (unsigned long long)tb_world_hash(s_world); }

static void destroy(void)
{
	tb_destroy_world(s_world);
	s_world = NULL;
	free(s_bodies);
	free(s_joints);
	s_bodies = NULL;
	s_joints = NULL;
}

int main(int argc, char **argv)
{
	bench_ops ops;
	memset(&ops, 0, sizeof ops);
	ops.engine = "tumble";
	ops.create = create;
	ops.step = step;
	ops.probe = probe;
	ops.body_count = body_count;
	ops.awake_count = awake_count;
	ops.dynamic_count = dynamic_count;
	ops.check = check;
	ops.destroy = destroy;
	ops.hash = hash;
	return bench_main(argc, argv, &ops);
}
