/* tumble benchmarks: the scenes of bench_common.h built with Box2D 2.4 (Debian
 * libbox2d-dev), for comparison. Box2D's defaults: 8 velocity and 3 position
 * iterations, sleeping on, continuous collision on, warm starting on. */
#include <box2d/box2d.h>
#include <vector>

#include "bench_common.h"

static b2World *s_world;
static std::vector<b2Body *> s_bodies;
static std::vector<b2Body *> s_probes;
static std::vector<b2Joint *> s_joints;
static int s_dynamic_count;
static int s_scene, s_velocity_iterations = 8;

static b2Body *add_body(b2BodyType type, bench_vec p)
{
	b2BodyDef bd;
	bd.type = type;
	bd.position.Set(p.x, p.y);
	b2Body *b = s_world->CreateBody(&bd);
	s_bodies.push_back(b);
	if (type == b2_dynamicBody) s_dynamic_count += 1;
	return b;
}

static void add_box(b2Body *body, bench_vec center, bench_vec half)
{
	b2PolygonShape box;
	box.SetAsBox(half.x, half.y, b2Vec2(center.x, center.y), 0.0f);
	b2FixtureDef fd;
	fd.shape = &box;
	fd.density = BENCH_DENSITY;
	fd.friction = BENCH_FRICTION;
	body->CreateFixture(&fd);
}

static void add_circle(b2Body *body, float radius)
{
	b2CircleShape circle;
	circle.m_radius = radius;
	b2FixtureDef fd;
	fd.shape = &circle;
	fd.density = BENCH_DENSITY;
	fd.friction = BENCH_FRICTION;
	body->CreateFixture(&fd);
}

static void add_pyramid(int base, float cx)
{
	bench_vec zero = {0.0f, 0.0f}, half = {BENCH_BOX_HALF, BENCH_BOX_HALF};
	b2Body *top = nullptr;
	for (int r = 0; r < base; ++r) {
		for (int k = 0; k < base - r; ++k) {
			top = add_body(b2_dynamicBody, bench_pyramid_box(base, cx, r, k));
			add_box(top, zero, half);
		}
	}
	s_probes.push_back(top);
}

static void add_revolute(b2Body *a, b2Body *b, bench_vec pa, bench_vec pb)
{
	b2RevoluteJointDef jd;
	jd.Initialize(a, b, b2Vec2(0.5f * (pa.x + pb.x), 0.5f * (pa.y + pb.y)));
	s_joints.push_back(s_world->CreateJoint(&jd));
}

static int create(const bench_params *p)
{
	s_world = new b2World(b2Vec2(0.0f, BENCH_GRAVITY));
	s_world->SetAllowSleeping(p->sleep != 0);
	s_scene = p->scene;
	s_velocity_iterations = p->iterations > 0 ? p->iterations : 8;
	s_dynamic_count = 0;
	s_bodies.clear();
	s_probes.clear();
	s_joints.clear();

	bench_vec zero = {0.0f, 0.0f};
	if (p->scene == BENCH_LARGE_PYRAMID || p->scene == BENCH_MANY_PYRAMIDS) {
		bench_vec gc = {0.0f, -BENCH_GROUND_HALF_HEIGHT};
		bench_vec gh = {bench_ground_half_width(p->scene, p->base), BENCH_GROUND_HALF_HEIGHT};
		add_box(add_body(b2_staticBody, zero), gc, gh);
		if (p->scene == BENCH_LARGE_PYRAMID) {
			add_pyramid(p->base, 0.0f);
		} else {
			for (int i = 0; i < BENCH_MANY_COUNT; ++i) add_pyramid(BENCH_MANY_BASE, bench_many_center(i));
		}
	} else if (p->scene == BENCH_RAIN) {
		b2Body *ground = add_body(b2_staticBody, zero);
		for (int i = 0; i < 3; ++i) {
			bench_vec c, h;
			bench_rain_container(i, &c, &h);
			add_box(ground, c, h);
		}
		for (int i = 0; i < BENCH_RAIN_ROWS * BENCH_RAIN_COLUMNS; ++i) {
			add_circle(add_body(b2_dynamicBody, bench_rain_position(i)), bench_rain_radius(i));
		}
	} else {
		for (int r = 0; r < BENCH_GRID_N; ++r) {
			for (int c = 0; c < BENCH_GRID_N; ++c) {
				bench_vec pos = bench_grid_position(r, c);
				b2Body *b = add_body(r == 0 ? b2_staticBody : b2_dynamicBody, pos);
				add_circle(b, BENCH_GRID_RADIUS);
				int n = (int)s_bodies.size();
				if (c > 0 && r > 0) add_revolute(s_bodies[n - 2], b, bench_grid_position(r, c - 1), pos);
				if (r > 0) add_revolute(s_bodies[n - 1 - BENCH_GRID_N], b, bench_grid_position(r - 1, c), pos);
			}
		}
		s_probes.push_back(s_bodies[(BENCH_GRID_N - 1) * BENCH_GRID_N + BENCH_GRID_N / 2]);
	}
	return (int)s_probes.size();
}

static void step(void) { s_world->Step(BENCH_DT, s_velocity_iterations, 3); }

static bench_vec probe(int i)
{
	b2Vec2 p = s_probes[i]->GetPosition();
	bench_vec v = {p.x, p.y};
	return v;
}

static int body_count(void) { return s_world->GetBodyCount(); }
static int dynamic_count(void) { return s_dynamic_count; }

static int awake_count(void)
{
	int n = 0;
	for (b2Body *b : s_bodies) n += b->GetType() == b2_dynamicBody && b->IsAwake();
	return n;
}

static double check(void)
{
	if (s_scene == BENCH_RAIN) {
		int escaped = 0;
		for (b2Body *b : s_bodies) {
			if (b->GetType() != b2_dynamicBody) continue;
			bench_vec v = {b->GetPosition().x, b->GetPosition().y};
			escaped += bench_rain_escaped(v);
		}
		return escaped;
	}
	double gap = 0.0;
	for (b2Joint *j : s_joints) {
		double len = (double)(j->GetAnchorB() - j->GetAnchorA()).Length();
		if (len > gap) gap = len;
	}
	return gap;
}

static void destroy(void)
{
	delete s_world;
	s_world = nullptr;
}

int main(int argc, char **argv)
{
	bench_ops ops;
	memset(&ops, 0, sizeof ops);
	ops.engine = "box2d";
	ops.create = create;
	ops.step = step;
	ops.probe = probe;
	ops.body_count = body_count;
	ops.awake_count = awake_count;
	ops.dynamic_count = dynamic_count;
	ops.check = check;
	ops.destroy = destroy;
	return bench_main(argc, argv, &ops);
}
