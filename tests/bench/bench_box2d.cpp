/* tumble benchmarks: the scenes of bench_common.h built with Box2D 2.4 (Debian
 * libbox2d-dev), for comparison. Box2D 2.4's defaults: 8 velocity and 3
 * position iterations, continuous collision on, warm starting on.
 *
 * Where 2.4 lacks what v3's scenes use, the nearest it has:
 * - capsules are a box between the two centres plus a circle at each end
 *   (three fixtures, the mass of the overlaps counted twice);
 * - a rounded polygon is its core grown by the radius (the spinner's bar);
 * - revolute joints have no spring (the ragdolls' joints keep their limits and
 *   their friction motor);
 * - filter bits are 16 wide (the scenes use bits 1 and 2 only). */
#include <box2d/box2d.h>
#include <vector>

#include "bench_common.h"

static b2World *s_world;
static std::vector<b2Body *> s_bodies;
static std::vector<b2Joint *> s_joints;
static int s_velocity_iterations = 8;

static void create_world(const bench_settings *s)
{
	s_world = new b2World(b2Vec2(0.0f, s->gravity_y));
	s_world->SetAllowSleeping(s->enable_sleep != 0);
	s_velocity_iterations = s->iterations > 0 ? s->iterations : 8;
	s_bodies.clear();
	s_joints.clear();
}

static void destroy_world(void)
{
	delete s_world;
	s_world = nullptr;
}

static int add_body(const bench_body_def *def)
{
	b2BodyDef bd;
	bd.type = def->type == BENCH_DYNAMIC ? b2_dynamicBody : def->type == BENCH_KINEMATIC ? b2_kinematicBody
	                                                                                     : b2_staticBody;
	bd.position.Set(def->position.x, def->position.y);
	bd.angle = def->angle;
	bd.linearVelocity.Set(def->linear_velocity.x, def->linear_velocity.y);
	bd.linearDamping = def->linear_damping;
	bd.awake = def->is_awake != 0;
	bd.allowSleep = def->enable_sleep != 0;
	s_bodies.push_back(s_world->CreateBody(&bd));
	return (int)s_bodies.size() - 1;
}

static void destroy_body(int body)
{
	s_world->DestroyBody(s_bodies[body]);
	s_bodies[body] = nullptr;
}

static void add_fixture(int body, const bench_shape_def *def, const b2Shape *shape)
{
	b2FixtureDef fd;
	fd.shape = shape;
	fd.density = def->density;
	fd.friction = def->friction;
	fd.restitution = def->restitution;
	fd.filter.categoryBits = (uint16)def->category;
	fd.filter.maskBits = (uint16)def->mask;
	fd.filter.groupIndex = (int16)def->group;
	s_bodies[body]->CreateFixture(&fd);
}

static void add_box(int body, const bench_shape_def *def, float hx, float hy, bench_vec center, float angle,
                    float radius)
{
	b2PolygonShape box;
	box.SetAsBox(hx + radius, hy + radius, b2Vec2(center.x, center.y), angle);
	add_fixture(body, def, &box);
}

static void add_hull(int body, const bench_shape_def *def, const bench_vec *points, int count, float radius)
{
	b2Vec2 p[b2_maxPolygonVertices];
	for (int i = 0; i < count && i < b2_maxPolygonVertices; ++i) p[i].Set(points[i].x, points[i].y);
	b2PolygonShape polygon;
	polygon.Set(p, count);
	add_fixture(body, def, &polygon);
	(void)radius;
}

static void add_circle(int body, const bench_shape_def *def, bench_vec center, float radius)
{
	b2CircleShape circle;
	circle.m_p.Set(center.x, center.y);
	circle.m_radius = radius;
	add_fixture(body, def, &circle);
}

static void add_capsule(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2, float radius)
{
	float dx = p2.x - p1.x, dy = p2.y - p1.y, length = sqrtf(dx * dx + dy * dy);
	if (length > 0.0f) {
		b2PolygonShape box;
		box.SetAsBox(0.5f * length, radius, b2Vec2(0.5f * (p1.x + p2.x), 0.5f * (p1.y + p2.y)), atan2f(dy, dx));
		add_fixture(body, def, &box);
	}
	add_circle(body, def, p1, radius);
	add_circle(body, def, p2, radius);
}

static void add_segment(int body, const bench_shape_def *def, bench_vec p1, bench_vec p2)
{
	b2EdgeShape edge;
	edge.SetTwoSided(b2Vec2(p1.x, p1.y), b2Vec2(p2.x, p2.y));
	add_fixture(body, def, &edge);
}

static void add_chain_loop(int body, const bench_shape_def *def, const bench_vec *points, int count)
{
	std::vector<b2Vec2> p((size_t)count);
	for (int i = 0; i < count; ++i) p[(size_t)i].Set(points[i].x, points[i].y);
	b2ChainShape chain;
	chain.CreateLoop(p.data(), count);
	add_fixture(body, def, &chain);
}

static int add_revolute(const bench_revolute_def *def)
{
	b2RevoluteJointDef jd;
	jd.bodyA = s_bodies[def->body_a];
	jd.bodyB = s_bodies[def->body_b];
	jd.localAnchorA.Set(def->local_a.x, def->local_a.y);
	jd.localAnchorB.Set(def->local_b.x, def->local_b.y);
	jd.referenceAngle = def->reference_angle;
	jd.enableLimit = def->enable_limit != 0;
	jd.lowerAngle = def->lower;
	jd.upperAngle = def->upper;
	jd.enableMotor = def->enable_motor != 0;
	jd.motorSpeed = def->motor_speed;
	jd.maxMotorTorque = def->max_motor_torque;
	s_joints.push_back(s_world->CreateJoint(&jd));
	return (int)s_joints.size() - 1;
}

static void destroy_joint(int joint)
{
	s_world->DestroyJoint(s_joints[(size_t)joint]);
	s_joints[(size_t)joint] = nullptr;
}

static void step(void) { s_world->Step(BENCH_DT, s_velocity_iterations, 3); }

static bench_vec position(int body)
{
	b2Vec2 p = s_bodies[(size_t)body]->GetPosition();
	return bench_v(p.x, p.y);
}

static float angle(int body) { return s_bodies[(size_t)body]->GetAngle(); }

static int awake_count(void)
{
	int n = 0;
	for (b2Body *b = s_world->GetBodyList(); b != nullptr; b = b->GetNext())
		n += b->GetType() == b2_dynamicBody && b->IsAwake();
	return n;
}

int main(int argc, char **argv)
{
	bench_ops ops;
	memset(&ops, 0, sizeof ops);
	ops.engine = "box2d";
	ops.config = "8vel_3pos";
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
	return bench_main(argc, argv, &ops);
}
