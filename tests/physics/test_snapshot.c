/* Snapshots (src/physics/snapshot.c, snapshot_format.c): taking one and
 * restoring it is exact (the steps after it are hash-equal to the steps that
 * followed the moment it was taken, events too), ids behave (alive again,
 * stale, back under their old ids, never reused for another object), bytes
 * round-trip into a new world, and corrupt, truncated, foreign or hostile
 * bytes give a status, never a crash. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

#define STEPS 300

/* ---------------- a scene with every kind of thing ---------------- */

typedef struct scene {
	tb_body_id ground, stack[6], pendulum[4], slider, bob, tail, mouse_body, bullet, kinematic, disabled, zone;
	tb_body_id sleepers[5], rester;
	tb_shape_id sensor, drag_zone, wind;
	tb_joint_id mouse;
	/* surfaces, breakable and wheel and motor joints, a mover */
	tb_body_id belt, ball, platform, rider, jumper, chassis, wheel, puck;
	tb_joint_id wheel_joint, motor_joint, fragile;
	tb_mover_id walker;
} scene;

static tb_shape_id shape_of(tb_world *w, tb_body_id b, const tb_geometry *g, const tb_shape_def *sd)
{
	tb_status st = TB_STATUS_COUNT;
	tb_shape_id s = tb_create_shape(w, b, sd, g, &st);
	assert_int_equal(st, TB_OK);
	return s;
}

static tb_joint_id joint_of(tb_world *w, const tb_joint_def *jd)
{
	tb_status st = TB_STATUS_COUNT;
	tb_joint_id j = tb_create_joint(w, jd, &st);
	assert_int_equal(st, TB_OK);
	return j;
}

static void field_on(tb_world *w, tb_shape_id s, tb_field_kind kind)
{
	tb_field f;
	memset(&f, 0, sizeof f);
	f.kind = kind;
	f.force = tb_v2(6.0f, 4.0f);
	f.strength = -8.0f;
	f.falloff = TB_FALLOFF_INVERSE_SQUARE;
	f.drag = 2.0f;
	f.use_acceleration = kind == TB_FIELD_LINEAR;
	assert_int_equal(tb_shape_set_field(w, s, &f), TB_OK);
}

/* A floor of a chain and a static box, a stack, an island asleep far away,
 * every shape kind, every joint kind (with limits, motors and springs), a
 * bullet, a kinematic and a disabled body, a sensor and three fields. */
static scene build_scene(tb_world *w)
{
	scene s;
	memset(&s, 0, sizeof s);
	s.ground = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, 0.0f));
	tb_vec2 floor[4] = {{30.0f, 10.0f}, {25.0f, 0.0f}, {-25.0f, 0.0f}, {-30.0f, 10.0f}};
	tb_chain_def cd = tb_default_chain_def();
	cd.points = floor;
	cd.count = 4;
	assert_int_equal(tb_create_chain(w, s.ground, &cd, NULL, 0, NULL), 3);
	tb_shape_def sd = tb_default_shape_def();
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_SEGMENT;
	g.segment.point1 = tb_v2(40.0f, 0.0f);
	g.segment.point2 = tb_v2(60.0f, 0.0f);
	shape_of(w, s.ground, &g, &sd);

	/* a stack of alternating kinds */
	for (int i = 0; i < 6; ++i) {
		s.stack[i] = tu_body(w, TB_DYNAMIC_BODY, tb_v2(-10.0f, 0.5f + 1.05f * (float)i));
		memset(&g, 0, sizeof g);
		if (i % 3 == 0) {
			g.type = TB_SHAPE_POLYGON;
			g.polygon = tb_make_box(0.5f, 0.5f);
		} else if (i % 3 == 1) {
			g.type = TB_SHAPE_CIRCLE;
			g.circle.radius = 0.5f;
		} else {
			g.type = TB_SHAPE_CAPSULE;
			g.capsule.center1 = tb_v2(-0.3f, 0.0f);
			g.capsule.center2 = tb_v2(0.3f, 0.0f);
			g.capsule.radius = 0.45f;
		}
		sd.friction = 0.4f + 0.1f * (float)i;
		sd.restitution = i == 5 ? 0.5f : 0.0f;
		shape_of(w, s.stack[i], &g, &sd);
	}
	sd = tb_default_shape_def();

	/* an island that falls asleep on the far segment */
	for (int i = 0; i < 5; ++i) s.sleepers[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(50.0f, 0.5f + (float)i), 0.5f, 0.5f, 1.0f);
	/* a box resting there that never sleeps: its contact is remade from its
	 * cache step after step */
	s.rester = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(56.0f, 0.5f), 0.5f, 0.5f, 1.0f);
	assert_int_equal(tb_body_enable_sleep(w, s.rester, false), TB_OK);

	/* a pendulum: revolute links, the first limited and motored, the last sprung */
	tb_body_id prev = s.ground;
	for (int i = 0; i < 4; ++i) {
		s.pendulum[i] = tu_body(w, TB_DYNAMIC_BODY, tb_v2(0.5f + (float)i, 15.0f));
		memset(&g, 0, sizeof g);
		g.type = TB_SHAPE_CAPSULE;
		g.capsule.center1 = tb_v2(-0.5f, 0.0f);
		g.capsule.center2 = tb_v2(0.5f, 0.0f);
		g.capsule.radius = 0.1f;
		shape_of(w, s.pendulum[i], &g, &sd);
		tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
		jd.body_a = prev;
		jd.body_b = s.pendulum[i];
		jd.local_anchor_a = i == 0 ? tb_v2(0.0f, 15.0f) : tb_v2(0.5f, 0.0f);
		jd.local_anchor_b = tb_v2(-0.5f, 0.0f);
		if (i == 0) {
			jd.enable_limit = true;
			jd.lower = -1.2f;
			jd.upper = 0.4f;
			jd.enable_motor = true;
			jd.motor_speed = 0.5f;
			jd.max_motor_torque = 5.0f;
		}
		if (i == 3) {
			jd.enable_spring = true;
			jd.hertz = 2.0f;
			jd.damping_ratio = 0.3f;
		}
		joint_of(w, &jd);
		prev = s.pendulum[i];
	}

	/* a motored, limited slider; a spring rod to a bob; a soft weld to a tail */
	s.slider = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(10.0f, 8.0f), 0.4f, 0.3f, 1.0f);
	tb_joint_def pj = tb_default_joint_def(TB_JOINT_PRISMATIC);
	pj.body_a = s.ground;
	pj.body_b = s.slider;
	pj.local_anchor_a = tb_v2(10.0f, 8.0f);
	pj.local_axis_a = tb_v2(1.0f, 0.2f);
	pj.enable_motor = true;
	pj.motor_speed = 1.5f;
	pj.max_motor_force = 40.0f;
	pj.enable_limit = true;
	pj.lower = -2.0f;
	pj.upper = 2.5f;
	joint_of(w, &pj);
	s.bob = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(12.0f, 6.0f), 0.4f, 2.0f);
	tb_joint_def dj = tb_default_joint_def(TB_JOINT_DISTANCE);
	dj.body_a = s.slider;
	dj.body_b = s.bob;
	dj.length = 2.5f;
	dj.enable_spring = true;
	dj.hertz = 3.0f;
	dj.damping_ratio = 0.2f;
	dj.max_length = 3.5f;
	joint_of(w, &dj);
	s.tail = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(13.0f, 6.0f), 0.5f, 0.2f, 1.0f);
	tb_joint_def wj = tb_default_joint_def(TB_JOINT_WELD);
	wj.body_a = s.bob;
	wj.body_b = s.tail;
	wj.local_anchor_a = tb_v2(0.5f, 0.0f);
	wj.local_anchor_b = tb_v2(-0.5f, 0.0f);
	wj.angular_hertz = 4.0f;
	wj.angular_damping_ratio = 0.5f;
	joint_of(w, &wj);

	/* a body dragged by a mouse joint */
	s.mouse_body = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(-5.0f, 6.0f), 0.3f, 0.3f, 1.0f);
	tb_joint_def mj = tb_default_joint_def(TB_JOINT_MOUSE);
	mj.body_a = s.ground;
	mj.body_b = s.mouse_body;
	mj.target = tb_v2(-3.0f, 9.0f);
	mj.max_force = 200.0f;
	mj.hertz = 4.0f;
	mj.damping_ratio = 0.7f;
	s.mouse = joint_of(w, &mj);

	/* a bullet, a kinematic paddle, a disabled body */
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_DYNAMIC_BODY;
	bd.is_bullet = true;
	bd.position = tb_v2(-24.0f, 3.0f);
	bd.linear_velocity = tb_v2(80.0f, -2.0f);
	s.bullet = tb_create_body(w, &bd, NULL);
	tu_circle(w, s.bullet, 0.1f, 1.0f);
	s.kinematic = tu_body_moving(w, TB_KINEMATIC_BODY, tb_v2(5.0f, 3.0f), 0.0f, tb_v2(0.0f, 0.0f), 1.0f);
	tu_box(w, s.kinematic, 2.0f, 0.1f, 1.0f);
	s.disabled = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(20.0f, 3.0f), 0.5f, 0.5f, 1.0f);
	assert_int_equal(tb_body_set_enabled(w, s.disabled, false), TB_OK);

	/* a sensor with a radial field, a drag pool, a linear wind on a solid shape */
	s.zone = tu_body(w, TB_STATIC_BODY, tb_v2(-10.0f, 3.0f));
	sd.is_sensor = true;
	s.sensor = tu_circle_with(w, s.zone, 2.5f, &sd);
	field_on(w, s.sensor, TB_FIELD_RADIAL);
	s.drag_zone = tu_box_with(w, s.zone, 3.0f, 1.0f, &sd);
	field_on(w, s.drag_zone, TB_FIELD_DRAG);
	sd.is_sensor = false;
	s.wind = tu_box_with(w, s.slider, 0.2f, 0.2f, &sd);
	field_on(w, s.wind, TB_FIELD_LINEAR);

	/* some falling bodies of every kind over the sensor, created and destroyed
	 * in turns so the pools have free slots in a particular order */
	tb_body_id extra[8];
	for (int i = 0; i < 8; ++i) {
		extra[i] = tu_body(w, TB_DYNAMIC_BODY, tb_v2(-12.0f + 0.6f * (float)i, 6.0f + 1.1f * (float)i));
		tu_circle(w, extra[i], 0.25f, 1.0f);
	}
	tb_destroy_body(w, extra[5]);
	tb_destroy_body(w, extra[2]);
	tb_destroy_body(w, extra[6]);

	/* surfaces and mix rules: a conveyor carrying a box, a ball rolling to a
	 * stop under rolling resistance, a body with its own sleep threshold */
	tb_world_def wd = tb_world_get_def(w);
	wd.friction_mix = TB_MIX_MIN;
	wd.restitution_mix = TB_MIX_AVERAGE;
	assert_int_equal(tb_world_set_def(w, &wd), TB_OK);
	s.belt = tu_body(w, TB_STATIC_BODY, tb_v2(70.0f, 0.0f));
	tb_shape_id belt_top = tu_box(w, s.belt, 4.0f, 0.2f, 1.0f);
	assert_int_equal(tb_shape_set_tangent_speed(w, belt_top, 1.5f), TB_OK);
	tb_body_id parcel = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(67.0f, 0.7f), 0.3f, 0.3f, 1.0f);
	assert_int_equal(tb_body_set_sleep_threshold(w, parcel, 0.01f), TB_OK);
	s.ball = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(42.0f, 0.4f), 0.4f, 1.0f);
	assert_int_equal(tb_shape_set_rolling_resistance(w, tu_first_shape(w, s.ball), 0.1f), TB_OK);
	assert_int_equal(tb_body_set_linear_velocity(w, s.ball, tb_v2(4.0f, 0.0f)), TB_OK);

	/* a one-way platform: one box resting on it, one jumping up through it */
	s.platform = tu_body(w, TB_STATIC_BODY, tb_v2(80.0f, 3.0f));
	sd = tb_default_shape_def();
	sd.one_way = tb_v2(0.0f, 1.0f);
	tu_box_with(w, s.platform, 2.0f, 0.1f, &sd);
	sd = tb_default_shape_def();
	s.rider = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(79.0f, 3.4f), 0.3f, 0.3f, 1.0f);
	s.jumper = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(81.0f, 1.0f), 0.3f, 0.3f, 1.0f);
	assert_int_equal(tb_body_set_linear_velocity(w, s.jumper, tb_v2(0.0f, 9.0f)), TB_OK);
	tb_body_id floor2 = tu_body(w, TB_STATIC_BODY, tb_v2(80.0f, 0.0f));
	tu_box(w, floor2, 4.0f, 0.2f, 1.0f);

	/* a sprung, motored wheel on a chassis held by a motor joint, and a
	 * breakable pin that gives way while the scene plays */
	s.chassis = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(90.0f, 2.0f), 1.0f, 0.2f, 1.0f);
	s.wheel = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(90.8f, 1.4f), 0.35f, 1.0f);
	/* second shapes: play never picks them to destroy */
	tu_circle(w, s.chassis, 0.15f, 1.0f);
	tu_circle(w, s.wheel, 0.1f, 1.0f);
	tb_joint_def whj = tb_default_joint_def(TB_JOINT_WHEEL);
	whj.body_a = s.chassis;
	whj.body_b = s.wheel;
	whj.local_anchor_a = tb_v2(0.8f, -0.6f);
	whj.local_axis_a = tb_v2(0.0f, 1.0f);
	whj.enable_spring = true;
	whj.hertz = 4.0f;
	whj.damping_ratio = 0.5f;
	whj.enable_motor = true;
	whj.motor_speed = -3.0f;
	whj.max_motor_torque = 20.0f;
	whj.enable_limit = true;
	whj.lower = -0.2f;
	whj.upper = 0.2f;
	s.wheel_joint = joint_of(w, &whj);
	tb_joint_def moj = tb_default_joint_def(TB_JOINT_MOTOR);
	moj.body_a = s.ground;
	moj.body_b = s.chassis;
	moj.linear_offset = tb_v2(90.5f, 2.5f);
	moj.angular_offset = 0.2f;
	moj.max_force = 60.0f;
	moj.max_motor_torque = 30.0f;
	s.motor_joint = joint_of(w, &moj);
	s.puck = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(95.0f, 6.0f), 0.3f, 0.3f, 4.0f);
	tu_circle(w, s.puck, 0.1f, 4.0f); /* two shapes: play never picks it to destroy */
	tb_joint_def fj = tb_default_joint_def(TB_JOINT_REVOLUTE);
	fj.body_a = s.ground;
	fj.body_b = s.puck;
	fj.local_anchor_a = tb_v2(95.0f, 7.0f);
	fj.local_anchor_b = tb_v2(0.0f, 1.0f);
	/* the puck hangs at 4 * (0.36 + 0.0314) * 10 = 15.7 N; pushed down by the play below */
	fj.break_force = 40.0f;
	fj.break_torque = 1.0e6f;
	s.fragile = joint_of(w, &fj);

	/* a character walking along the far segment */
	tb_mover_def mvd = tb_default_mover_def();
	mvd.capsule.center1 = tb_v2(0.0f, -0.4f);
	mvd.capsule.center2 = tb_v2(0.0f, 0.4f);
	mvd.capsule.radius = 0.3f;
	mvd.position = tb_v2(45.0f, 0.71f);
	mvd.step_height = 0.2f;
	mvd.push_strength = 50.0f;
	tb_status st = TB_STATUS_COUNT;
	s.walker = tb_create_mover(w, &mvd, &st);
	assert_int_equal(st, TB_OK);
	return s;
}

/* ---------------- running and comparing ---------------- */

static uint64_t mix64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* The last step's events, generations left out when `ids` is false (a world
 * whose earlier ids were moved past names its objects with other generations). */
static uint64_t events_hash(const tb_world *w, bool ids)
{
	uint64_t h = 14695981039346656037ull;
	tb_contact_events ce = tb_world_get_contact_events(w);
	tb_sensor_events se = tb_world_get_sensor_events(w);
	int counts[5] = {ce.begin_count, ce.end_count, ce.hit_count, se.begin_count, se.end_count};
	h = mix64(h, counts, sizeof counts);
#define ID(x) h = mix64(h, &(x).index1, sizeof(x).index1), h = ids ? mix64(h, &(x).generation, sizeof(x).generation) : h
	for (int i = 0; i < ce.begin_count; ++i) {
		ID(ce.begin[i].shape_a);
		ID(ce.begin[i].shape_b);
		h = mix64(h, &ce.begin[i].normal, sizeof ce.begin[i].normal);
		h = mix64(h, &ce.begin[i].approach_speed, sizeof(float));
	}
	for (int i = 0; i < ce.end_count; ++i) {
		ID(ce.end[i].shape_a);
		ID(ce.end[i].shape_b);
	}
	for (int i = 0; i < ce.hit_count; ++i) {
		ID(ce.hit[i].shape_a);
		h = mix64(h, &ce.hit[i].point, sizeof ce.hit[i].point);
	}
	for (int i = 0; i < se.begin_count; ++i) {
		ID(se.begin[i].sensor);
		ID(se.begin[i].visitor);
	}
	for (int i = 0; i < se.end_count; ++i) {
		ID(se.end[i].sensor);
		ID(se.end[i].visitor);
	}
#undef ID
	return h;
}

typedef struct trace {
	uint64_t hash[STEPS], events[STEPS];
	int events_seen, breaks;
} trace;

/* What a level does while it plays: steps, and now and then a body made or
 * destroyed (by slot order, so the same ops pick the same objects), a mouse
 * target moved. Made bodies land in the slots the free lists give. */
static void play(tb_world *w, int steps, trace *t, bool ids)
{
	for (int i = 0; i < steps; ++i) {
		if (i % 50 == 10) {
			tb_body_id b = tu_body(w, TB_DYNAMIC_BODY, tb_v2(-11.0f + 0.1f * (float)i, 9.0f));
			tu_box(w, b, 0.3f, 0.2f, 1.0f);
		}
		if (i % 70 == 35) {
			static tb_body_id all[256];
			int n = tb_world_get_bodies(w, all, 256);
			/* the last dynamic body made: one that touches things */
			for (int k = n - 1; k >= 0; --k) {
				if (tb_body_get_type(w, all[k]) == TB_DYNAMIC_BODY && tb_body_get_shape_count(w, all[k]) == 1) {
					tb_destroy_body(w, all[k]);
					break;
				}
			}
		}
		/* movers walk back and forth, falling under gravity; the puck is
		 * pushed harder and harder until its pin breaks */
		static tb_mover_id movers[8];
		int mover_count = tb_world_get_movers(w, movers, 8);
		for (int k = 0; k < mover_count; ++k)
			tb_mover_move(w, movers[k], tb_v2((i / 60) % 2 == 0 ? 0.04f : -0.04f, -10.0f * TU_DT * TU_DT * 10.0f));
		static tb_body_id bodies[256];
		int body_count = tb_world_get_bodies(w, bodies, 256);
		for (int k = 0; k < body_count; ++k) {
			tb_vec2 p = tb_body_get_position(w, bodies[k]);
			if (tb_body_get_type(w, bodies[k]) == TB_DYNAMIC_BODY && p.x > 94.5f && p.x < 95.5f)
				tb_body_apply_force_to_center(w, bodies[k], tb_v2(0.0f, -0.2f * (float)i), true);
		}
		tb_world_step(w, TU_DT);
		t->hash[i] = tb_world_hash(w);
		for (int k = 0; k < mover_count; ++k) {
			tb_vec2 p = tb_mover_get_position(w, movers[k]);
			bool grounded = tb_mover_is_grounded(w, movers[k]);
			t->hash[i] = mix64(t->hash[i], &p, sizeof p);
			t->hash[i] = mix64(t->hash[i], &grounded, sizeof grounded);
		}
		tb_joint_events je = tb_world_get_joint_events(w);
		t->breaks += je.break_count;
		t->hash[i] = mix64(t->hash[i], &je.break_count, sizeof je.break_count);
		t->events[i] = events_hash(w, ids);
		tb_contact_events ce = tb_world_get_contact_events(w);
		tb_sensor_events se = tb_world_get_sensor_events(w);
		t->events_seen += ce.begin_count + ce.end_count + ce.hit_count + se.begin_count + se.end_count;
	}
}

static void assert_same_trace(const trace *a, const trace *b)
{
	for (int i = 0; i < STEPS; ++i) {
		if (a->hash[i] != b->hash[i]) fail_msg("step %d after the restore: hash %016llx, expected %016llx", i + 1,
		                                       (unsigned long long)b->hash[i], (unsigned long long)a->hash[i]);
		if (a->events[i] != b->events[i]) fail_msg("step %d after the restore: other events", i + 1);
	}
	/* the comparison compared something */
	assert_true(a->events_seen > 20);
}

/* A scene played a while, then a moment with pending events: a touching body
 * destroyed and the sensor's field changed between steps. */
static tb_world *scene_at_moment(scene *s)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	*s = build_scene(w);
	tu_step(w, 150);
	tb_destroy_body(w, s->stack[3]);
	tb_joint_def md = tb_joint_get_def(w, s->mouse);
	md.target = tb_v2(-6.0f, 4.0f);
	assert_int_equal(tb_joint_set_def(w, s->mouse, &md), TB_OK);
	assert_true(tb_world_validate(w));
	return w;
}

static bool any_asleep(const tb_world *w, const scene *s)
{
	for (int i = 0; i < 5; ++i) {
		if (!tb_body_is_awake(w, s->sleepers[i])) return true;
	}
	return false;
}

static void test_restore_is_exact(void **state)
{
	(void)state;
	scene s;
	tb_world *w = scene_at_moment(&s);
	assert_true(any_asleep(w, &s));
	tb_status st = TB_STATUS_COUNT;
	tb_snapshot *snap = tb_world_snapshot(w, &st);
	assert_int_equal(st, TB_OK);
	assert_non_null(snap);
	uint64_t at_snapshot = tb_world_hash(w);

	static trace first, again, third;
	/* events compared by slot: bodies made after the restore get new
	 * generations, never those the first run issued */
	play(w, STEPS, &first, false);
	assert_int_equal(tb_world_restore(w, snap), TB_OK);
	assert_true(tb_world_validate(w));
	assert_true(tb_world_hash(w) == at_snapshot);
	assert_true(any_asleep(w, &s));
	play(w, STEPS, &again, false);
	assert_same_trace(&first, &again);
	/* the breakable pin, the wheel and motor joints and the mover took part:
	 * the pin broke in the run, after the moment, and the restore brought it
	 * back to break again; the mover walked */
	assert_int_equal(first.breaks, 1);
	assert_int_equal(again.breaks, 1);
	assert_true(tb_mover_is_valid(w, s.walker));
	assert_true(tb_joint_is_valid(w, s.wheel_joint) && tb_joint_is_valid(w, s.motor_joint));
	assert_false(tb_joint_is_valid(w, s.fragile));
	/* a snapshot can be restored any number of times */
	assert_int_equal(tb_world_restore(w, snap), TB_OK);
	play(w, STEPS, &third, false);
	assert_same_trace(&first, &third);
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* Restoring an earlier moment in the middle of a run, and a later one after
 * that: each continues as it did. */
static void test_restore_back_and_forth(void **state)
{
	(void)state;
	scene s;
	tb_world *w = scene_at_moment(&s);
	tb_snapshot *early = tb_world_snapshot(w, NULL);
	static trace a, b, c, d;
	play(w, STEPS, &a, false);
	tb_snapshot *late = tb_world_snapshot(w, NULL);
	play(w, STEPS, &b, false);
	assert_int_equal(tb_world_restore(w, early), TB_OK);
	play(w, 100, &c, false);
	assert_int_equal(tb_world_restore(w, late), TB_OK);
	play(w, STEPS, &d, false);
	assert_same_trace(&b, &d);
	assert_int_equal(tb_world_restore(w, early), TB_OK);
	play(w, STEPS, &c, false);
	assert_same_trace(&a, &c);
	tb_snapshot_free(early);
	tb_snapshot_free(late);
	tb_destroy_world(w);
}

/* ---------------- ids ---------------- */

static void test_ids_after_restore(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 20.0f);
	tb_body_id kept = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 1.0f), 0.5f, 0.5f, 1.0f);
	tb_body_id doomed = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(2.0f, 1.0f), 0.5f, 0.5f, 1.0f);
	tb_shape_id doomed_shape = tu_first_shape(w, doomed);
	tb_body_id partner = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(4.0f, 1.0f), 0.5f, 0.5f, 1.0f);
	tb_joint_def jd = tb_default_joint_def(TB_JOINT_DISTANCE);
	jd.body_a = doomed;
	jd.body_b = partner;
	jd.length = 2.0f;
	tb_joint_id rod = joint_of(w, &jd);
	/* a slot freed before the snapshot */
	tb_body_id gone = tu_body(w, TB_DYNAMIC_BODY, tb_v2(8.0f, 1.0f));
	tb_destroy_body(w, gone);
	tu_step(w, 10);
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	assert_non_null(snap);

	/* after the snapshot: one destroyed (with its shape and joint), new ones
	 * made in the freed slot and in fresh slots, and destroyed again */
	tb_destroy_body(w, doomed);
	tb_body_id after[6];
	for (int i = 0; i < 6; ++i) after[i] = tu_body(w, TB_DYNAMIC_BODY, tb_v2((float)i, 5.0f));
	assert_int_equal(after[0].index1, doomed.index1); /* the slot just freed */
	tb_shape_id after_shape = tu_box(w, after[1], 0.5f, 0.5f, 1.0f);
	tb_destroy_body(w, after[4]);
	tu_step(w, 5);

	assert_int_equal(tb_world_restore(w, snap), TB_OK);
	/* alive at the snapshot: valid and the same */
	assert_true(tb_body_is_valid(w, kept));
	assert_true(tb_body_is_valid(w, doomed));
	assert_true(tb_shape_is_valid(w, doomed_shape));
	assert_true(tb_joint_is_valid(w, rod));
	assert_true(TB_ID_EQUALS(tb_shape_get_body(w, doomed_shape), doomed));
	assert_true(TB_ID_EQUALS(tb_joint_get_body_a(w, rod), doomed));
	/* made after it: stale, dead before it: still stale */
	for (int i = 0; i < 6; ++i) assert_false(tb_body_is_valid(w, after[i]));
	assert_false(tb_shape_is_valid(w, after_shape));
	assert_false(tb_body_is_valid(w, gone));

	/* The trap: slots are handed out again as they were after the snapshot,
	 * but never under an id issued before, however often they cycle. */
	for (int round = 0; round < 20; ++round) {
		tb_body_id made[6];
		for (int i = 0; i < 6; ++i) {
			made[i] = tu_body(w, TB_DYNAMIC_BODY, tb_v2((float)i, 8.0f));
			for (int k = 0; k < 6; ++k) assert_false(TB_ID_EQUALS(made[i], after[k]));
			assert_false(TB_ID_EQUALS(made[i], gone));
		}
		for (int i = 0; i < 6; ++i) tb_destroy_body(w, made[i]);
		for (int k = 0; k < 6; ++k) assert_false(tb_body_is_valid(w, after[k]));
		tb_destroy_body(w, doomed);
		assert_int_equal(tb_world_restore(w, snap), TB_OK);
		assert_true(tb_body_is_valid(w, doomed));
	}
	assert_true(tb_world_validate(w));
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* A snapshot of another world replaces everything; that world's own ids all
 * go stale (none names a restored object), and it plays on exactly. Into a
 * fresh world the snapshot's ids are kept. */
static void test_restore_into_another_world(void **state)
{
	(void)state;
	scene s;
	tb_world *w = scene_at_moment(&s);
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	static trace first, fresh, used;
	play(w, STEPS, &first, true);

	tb_world *blank = tu_world(tb_v2(0.0f, -10.0f));
	assert_int_equal(tb_world_restore(blank, snap), TB_OK);
	assert_true(tb_body_is_valid(blank, s.ground));
	assert_true(tb_joint_is_valid(blank, s.mouse));
	play(blank, STEPS, &fresh, true);
	assert_same_trace(&first, &fresh);
	tb_destroy_world(blank);

	/* a world with a history of its own */
	tb_world *other = tu_world(tb_v2(3.0f, 1.0f));
	tb_body_id mine[40];
	for (int i = 0; i < 40; ++i) mine[i] = tu_box_body(other, TB_DYNAMIC_BODY, tb_v2((float)i, 0.0f), 0.5f, 0.5f, 1.0f);
	for (int i = 0; i < 40; i += 3) tb_destroy_body(other, mine[i]);
	for (int i = 0; i < 40; i += 3) mine[i] = tu_body(other, TB_KINEMATIC_BODY, tb_v2(0.0f, (float)i));
	tb_shape_id my_shape = tu_first_shape(other, mine[1]);
	assert_int_equal(tb_world_restore(other, snap), TB_OK);
	assert_true(tb_world_validate(other));
	for (int i = 0; i < 40; ++i) assert_false(tb_body_is_valid(other, mine[i]));
	assert_false(tb_shape_is_valid(other, my_shape));
	assert_false(tb_body_is_valid(other, s.ground)); /* the snapshot's ids were moved past this world's */
	play(other, STEPS, &used, false);
	for (int i = 0; i < STEPS; ++i) assert_true(used.hash[i] == first.hash[i]);
	/* events name the same slots */
	static trace first_slots;
	assert_int_equal(tb_world_restore(w, snap), TB_OK);
	play(w, STEPS, &first_slots, false);
	assert_same_trace(&first_slots, &used);
	tb_destroy_world(other);
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* ---------------- bytes ---------------- */

static unsigned char *save_bytes(const tb_snapshot *snap, size_t *size)
{
	size_t n = tb_snapshot_save(snap, NULL, 0);
	assert_true(n > TB_SNAPSHOT_HEADER_SIZE);
	unsigned char *b = malloc(n);
	assert_non_null(b);
	/* too little room: nothing written, the size told */
	memset(b, 0xAB, n);
	assert_int_equal(tb_snapshot_save(snap, b, n - 1), n);
	assert_int_equal(b[0], 0xAB);
	assert_int_equal(tb_snapshot_save(snap, b, n), n);
	*size = n;
	return b;
}

static void test_save_load_into_a_new_world(void **state)
{
	(void)state;
	scene s;
	tb_world *w = scene_at_moment(&s);
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	size_t size;
	unsigned char *bytes = save_bytes(snap, &size);
	/* the image counts as the world it was taken from (the touching
	 * contacts, which the world keeps a count of, and the awake bodies, which
	 * an image has no set of, included) */
	tb_counters at = tb_world_get_counters(w), image = tb_snapshot_get_counters(snap);
	assert_true(at.touching_contact_count > 0);
	/* but for the manifolds the last narrow phase remade from their caches,
	 * a statistic of that step, which no step reads and an image does not keep */
	assert_true(at.remade_manifold_count > 0);
	assert_int_equal(image.remade_manifold_count, 0);
	image.remade_manifold_count = at.remade_manifold_count;
	assert_memory_equal(&at, &image, sizeof at);
	static trace first, loaded;
	play(w, STEPS, &first, true);

	tb_status st = TB_STATUS_COUNT;
	tb_snapshot *back = tb_snapshot_load(bytes, size, NULL, &st);
	assert_int_equal(st, TB_OK);
	assert_non_null(back);
	tb_counters c0 = tb_snapshot_get_counters(snap), c1 = tb_snapshot_get_counters(back);
	assert_memory_equal(&c0, &c1, sizeof c0);
	/* the same state gives the same bytes */
	size_t size2;
	unsigned char *bytes2 = save_bytes(back, &size2);
	assert_int_equal(size2, size);
	assert_memory_equal(bytes, bytes2, size);

	tb_world *fresh = tu_world(tb_v2(0.0f, 0.0f)); /* the snapshot's settings replace these */
	assert_int_equal(tb_world_restore(fresh, back), TB_OK);
	assert_true(tb_world_validate(fresh));
	assert_true(tb_world_get_def(fresh).gravity.y == -10.0f);
	/* into a fresh world the ids are the saved world's */
	assert_true(tb_body_is_valid(fresh, s.stack[0]) && tb_joint_is_valid(fresh, s.mouse));
	assert_false(tb_body_is_valid(fresh, s.stack[3]));
	play(fresh, STEPS, &loaded, true);
	assert_same_trace(&first, &loaded);

	/* a second world built the same way writes the same bytes */
	scene s2;
	tb_world *twin = scene_at_moment(&s2);
	tb_snapshot *twin_snap = tb_world_snapshot(twin, NULL);
	size_t size3;
	unsigned char *bytes3 = save_bytes(twin_snap, &size3);
	assert_int_equal(size3, size);
	assert_memory_equal(bytes, bytes3, size);
	print_message("# scene snapshot: %zu bytes held, %zu bytes saved; world %zu bytes\n",
	              tb_snapshot_get_allocated_bytes(snap), size, tb_world_get_allocated_bytes(w));

	free(bytes);
	free(bytes2);
	free(bytes3);
	tb_snapshot_free(snap);
	tb_snapshot_free(back);
	tb_snapshot_free(twin_snap);
	tb_destroy_world(w);
	tb_destroy_world(fresh);
	tb_destroy_world(twin);
}

/* A small world, for the loops that load a string thousands of times. */
static tb_world *small_world(void)
{
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id ground = tu_ground(w, 0.0f, 10.0f);
	tb_vec2 pts[3] = {{5.0f, 3.0f}, {4.0f, 0.0f}, {-4.0f, 0.0f}};
	tb_chain_def cd = tb_default_chain_def();
	cd.points = pts;
	cd.count = 3;
	assert_int_equal(tb_create_chain(w, ground, &cd, NULL, 0, NULL), 2);
	tb_body_id b[4];
	for (int i = 0; i < 4; ++i) b[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.3f * (float)i, 0.5f + 1.0f * (float)i), 0.4f, 0.4f, 1.0f);
	tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
	jd.body_a = b[2];
	jd.body_b = b[3];
	jd.local_anchor_a = tb_v2(0.4f, 0.4f);
	jd.local_anchor_b = tb_v2(0.4f, -0.6f);
	joint_of(w, &jd);
	tb_shape_def sd = tb_default_shape_def();
	sd.is_sensor = true;
	tb_body_id zone = tu_body(w, TB_STATIC_BODY, tb_v2(0.0f, 1.0f));
	field_on(w, tu_circle_with(w, zone, 1.5f, &sd), TB_FIELD_RADIAL);
	tb_body_id gone = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(3.0f, 1.0f), 0.3f, 1.0f);
	tu_step(w, 30);
	tb_destroy_body(w, gone);
	return w;
}

static void put_u64_le(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; ++i) p[i] = (unsigned char)(v >> (8 * i));
}

/* The header fixed up for the payload as it now is (its size at 20, its
 * checksum at 28): what an attacker who knows the format sends. */
static void reseal(unsigned char *b, size_t size)
{
	put_u64_le(b + 20, size - TB_SNAPSHOT_HEADER_SIZE);
	put_u64_le(b + 28, tb_snapshot_checksum(b + TB_SNAPSHOT_HEADER_SIZE, size - TB_SNAPSHOT_HEADER_SIZE));
}

static tb_status load_status(const unsigned char *b, size_t size)
{
	tb_status st = TB_STATUS_COUNT;
	tb_snapshot *snap = tb_snapshot_load(b, size, NULL, &st);
	if (snap != NULL) {
		assert_int_equal(st, TB_OK);
		tb_snapshot_free(snap);
	} else {
		assert_int_not_equal(st, TB_OK);
	}
	return st;
}

static void test_corrupt_bytes(void **state)
{
	(void)state;
	tb_world *w = small_world();
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	size_t size;
	unsigned char *good = save_bytes(snap, &size);
	unsigned char *b = malloc(size);
	assert_int_equal(load_status(good, size), TB_OK);

	/* not a snapshot at all */
	assert_int_equal(load_status((const unsigned char *)"", 0), TB_ERR_SNAPSHOT_FORMAT);
	assert_int_equal(load_status((const unsigned char *)"return {x = 1}", 14), TB_ERR_SNAPSHOT_FORMAT);
	memcpy(b, good, size);
	b[1] = 'X';
	assert_int_equal(load_status(b, size), TB_ERR_SNAPSHOT_FORMAT);
	/* another format version, another build's records */
	memcpy(b, good, size);
	b[8] += 1;
	assert_int_equal(load_status(b, size), TB_ERR_SNAPSHOT_VERSION);
	memcpy(b, good, size);
	b[13] ^= 0x10;
	assert_int_equal(load_status(b, size), TB_ERR_SNAPSHOT_VERSION);

	/* every truncation: too short for a header, or a payload that is not all there */
	for (size_t n = 0; n < size; ++n) {
		tb_status st = load_status(good, n);
		assert_int_equal(st, n < TB_SNAPSHOT_HEADER_SIZE ? TB_ERR_SNAPSHOT_FORMAT : TB_ERR_SNAPSHOT_CORRUPT);
	}
	/* one more byte */
	unsigned char *longer = malloc(size + 1);
	memcpy(longer, good, size);
	longer[size] = 0;
	assert_int_equal(load_status(longer, size + 1), TB_ERR_SNAPSHOT_CORRUPT);
	free(longer);

	/* random byte flips in the payload: the checksum sees each */
	uint64_t rng = 77;
	for (int trial = 0; trial < 2000; ++trial) {
		memcpy(b, good, size);
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		size_t at = TB_SNAPSHOT_HEADER_SIZE + (size_t)((rng >> 33) % (size - TB_SNAPSHOT_HEADER_SIZE));
		b[at] ^= (unsigned char)(1u + ((rng >> 20) % 255u));
		assert_int_equal(load_status(b, size), TB_ERR_SNAPSHOT_CORRUPT);
	}
	free(b);
	free(good);
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* What loads saves to bytes that load again, to the same bytes. */
static void assert_loadable_again(const tb_snapshot *snap)
{
	size_t n = tb_snapshot_save(snap, NULL, 0);
	unsigned char *b = malloc(n);
	assert_int_equal(tb_snapshot_save(snap, b, n), n);
	tb_status st = TB_STATUS_COUNT;
	tb_snapshot *again = tb_snapshot_load(b, n, NULL, &st);
	if (again == NULL) fail_msg("a loaded snapshot saved bytes that do not load: %s", tb_status_string(st));
	size_t n2 = tb_snapshot_save(again, NULL, 0);
	assert_int_equal(n2, n);
	unsigned char *b2 = malloc(n2);
	tb_snapshot_save(again, b2, n2);
	assert_memory_equal(b, b2, n);
	free(b);
	free(b2);
	tb_snapshot_free(again);
}

/* Strings with a valid header around a damaged payload: every truncation and
 * random damage. Each gives a status, or a snapshot that restores into a
 * world that validates and steps (damage to a float can be a valid world). */
static void test_hostile_payloads(void **state)
{
	(void)state;
	tb_world *w = small_world();
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	size_t size;
	unsigned char *good = save_bytes(snap, &size);
	unsigned char *b = malloc(size);

	for (size_t n = TB_SNAPSHOT_HEADER_SIZE; n < size; ++n) {
		memcpy(b, good, n);
		reseal(b, n);
		assert_int_equal(load_status(b, n), TB_ERR_SNAPSHOT_CORRUPT);
	}

	uint64_t rng = 4242;
	int loaded = 0, refused = 0;
	tb_world *target = tu_world(tb_v2(0.0f, -10.0f));
	for (int trial = 0; trial < 3000; ++trial) {
		memcpy(b, good, size);
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		int flips = 1 + (int)((rng >> 40) % 4);
		for (int k = 0; k < flips; ++k) {
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			size_t at = TB_SNAPSHOT_HEADER_SIZE + (size_t)((rng >> 33) % (size - TB_SNAPSHOT_HEADER_SIZE));
			/* small integers and single bits, which make plausible indices */
			b[at] = (rng >> 10) & 1 ? (unsigned char)(b[at] ^ (1u << ((rng >> 12) % 8))) : (unsigned char)((rng >> 16) % 5);
		}
		reseal(b, size);
		tb_status st = TB_STATUS_COUNT;
		tb_snapshot *s2 = tb_snapshot_load(b, size, NULL, &st);
		if (s2 == NULL) {
			assert_true(st == TB_ERR_SNAPSHOT_CORRUPT);
			refused += 1;
			continue;
		}
		loaded += 1;
		assert_loadable_again(s2);
		assert_int_equal(tb_world_restore(target, s2), TB_OK);
		assert_true(tb_world_validate(target));
		tu_step(target, 20);
		assert_true(tb_world_validate(target));
		tb_snapshot *after = tb_world_snapshot(target, NULL);
		assert_loadable_again(after);
		tb_snapshot_free(after);
		tb_snapshot_free(s2);
	}
	print_message("# hostile payloads: %d loaded, %d refused\n", loaded, refused);
	assert_true(refused > 0 && loaded > 0);
	tb_destroy_world(target);
	free(b);
	free(good);
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* Every four bytes of a valid payload in turn replaced by a hostile float
 * (huge, tiny, negative, a rotation's worth), the checksum fixed up: each
 * string is refused, or loads into a snapshot that saves and loads again and
 * restores into a world that validates, steps and saves and loads again. */
static void test_checksummed_value_mutations(void **state)
{
	(void)state;
	tb_world *w = small_world();
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	size_t size;
	unsigned char *good = save_bytes(snap, &size);
	unsigned char *b = malloc(size);
	static const float hostile[] = {3e38f, -3e38f, 1e30f, 2.0e6f, -1.0f, 1e-30f, 0.5f, 0.0f};
	tb_world *target = tu_world(tb_v2(0.0f, -10.0f));
	int loaded = 0, refused = 0;
	for (size_t at = TB_SNAPSHOT_HEADER_SIZE; at + 4 <= size; ++at) {
		float v = hostile[at % (sizeof hostile / sizeof hostile[0])];
		memcpy(b, good, size);
		memcpy(b + at, &v, 4);
		reseal(b, size);
		tb_status st = TB_STATUS_COUNT;
		tb_snapshot *s2 = tb_snapshot_load(b, size, NULL, &st);
		if (s2 == NULL) {
			assert_int_equal(st, TB_ERR_SNAPSHOT_CORRUPT);
			refused += 1;
			continue;
		}
		loaded += 1;
		assert_loadable_again(s2);
		assert_int_equal(tb_world_restore(target, s2), TB_OK);
		assert_true(tb_world_validate(target));
		tu_step(target, 5);
		assert_true(tb_world_validate(target));
		tb_snapshot *after = tb_world_snapshot(target, NULL);
		assert_loadable_again(after);
		tb_snapshot_free(after);
		tb_snapshot_free(s2);
	}
	print_message("# value mutations: %d loaded, %d refused\n", loaded, refused);
	assert_true(loaded > 0 && refused > 0);
	tb_destroy_world(target);
	free(b);
	free(good);
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* Images made hostile one field at a time, then saved: a valid header and
 * checksum around a world that must not be. */
typedef void mutation_fn(tb_world *img);

static void m_body_shape_list(tb_world *img) { img->bodies.data[1].head_shape = 99999; }
static void m_body_shape_dead(tb_world *img)
{
	for (int32_t i = 0; i < img->shapes.count; ++i) {
		if (!img->shapes.data[i].in_use) {
			img->bodies.data[1].head_shape = i;
			return;
		}
	}
	img->bodies.data[1].head_shape = -7;
}
static void m_body_type(tb_world *img) { img->bodies.data[2].type = (tb_body_type)7; }
static void m_contact_shape(tb_world *img)
{
	for (int32_t i = 0; i < img->contacts.count; ++i) {
		if (img->contacts.data[i].in_use) {
			img->contacts.data[i].shape_a = -5;
			return;
		}
	}
}
static void m_contact_twice(tb_world *img)
{
	int32_t first = -1;
	for (int32_t i = 0; i < img->contacts.count; ++i) {
		tb_contact *c = img->contacts.data + i;
		if (!c->in_use) continue;
		if (first < 0) {
			first = i;
		} else {
			c->shape_a = img->contacts.data[first].shape_a;
			c->shape_b = img->contacts.data[first].shape_b;
			return;
		}
	}
}
static void m_contact_key(tb_world *img) { img->bodies.data[1].head_contact_key = 2 * img->contacts.count + 41; }
static void m_free_twice(tb_world *img)
{
	assert_true(img->shape_pool.free_ids.count >= 2);
	img->shape_pool.free_ids.data[0] = img->shape_pool.free_ids.data[1];
}
static void m_free_live(tb_world *img) { img->body_pool.free_ids.data[0] = 1; }
static void m_next_index(tb_world *img) { img->body_pool.next_index += 1; }
static void m_tree_cycle(tb_world *img)
{
	tb_dynamic_tree *t = &img->broad_phase.trees[1];
	t->nodes[t->nodes[t->root].child1].child1 = t->root;
}
static void m_tree_root(tb_world *img) { img->broad_phase.trees[0].root = img->broad_phase.trees[0].node_capacity + 3; }
static void m_tree_free(tb_world *img) { img->broad_phase.trees[1].free_list = -9; }
static void m_shape_proxy(tb_world *img) { img->shapes.data[2].proxy = 1 << 20; }
static void m_shape_body(tb_world *img) { img->shapes.data[2].body = img->bodies.count; }
static void m_shape_geometry(tb_world *img)
{
	for (int32_t i = 0; i < img->shapes.count; ++i) {
		tb_shape *s = img->shapes.data + i;
		if (s->in_use && s->geom.type == TB_SHAPE_POLYGON) {
			s->geom.polygon.vertices[0] = s->geom.polygon.vertices[2]; /* not convex any more */
			return;
		}
	}
}
static void m_shape_nan(tb_world *img) { img->sims.data[1].transform.p.x = NAN; }
static void m_joint_body(tb_world *img)
{
	for (int32_t i = 0; i < img->joints.count; ++i) {
		if (img->joints.data[i].in_use) {
			img->joints.data[i].body_b = 1 << 24;
			return;
		}
	}
}
static void m_joint_def(tb_world *img)
{
	for (int32_t i = 0; i < img->joints.count; ++i) {
		if (img->joints.data[i].in_use) {
			img->joints.data[i].def.type = (tb_joint_type)40;
			return;
		}
	}
}
static void m_sensor_segment(tb_world *img)
{
	for (int32_t i = 0; i < img->sensors.count; ++i) {
		if (img->sensors.data[i].in_use) {
			img->sensors.data[i].first = INT32_MAX;
			img->sensors.data[i].count = 2;
			return;
		}
	}
}
static void m_overlap_shape(tb_world *img)
{
	assert_true(img->overlaps.count > 0);
	img->overlaps.data[0].shape = img->shapes.count + 100;
}
static void m_move_buffer(tb_world *img)
{
	assert_true(img->broad_phase.move_buffer.count > 0);
	img->broad_phase.move_buffer.data[0] = 1 << 28;
}
static void m_substeps(tb_world *img) { img->def.substeps = 0; }
static void m_step_count(tb_world *img) { img->step_count = INT32_MAX; }
static void m_event_points(tb_world *img)
{
	assert_true(img->begin_events.count > 0);
	img->begin_events.data[0].point_count = 9;
}

/* a leaf whose bits no longer name its shape's categories: queries would skip it */
static void m_leaf_category(tb_world *img)
{
	const tb_shape *s = img->shapes.data + 2;
	assert_true(s->in_use && s->proxy != TB_NULL_INDEX);
	img->broad_phase.trees[s->tree].nodes[s->proxy].category_bits = 0;
}
/* a contact cache of three points (the narrow phase remakes that many) */
static void m_contact_cache(tb_world *img)
{
	for (int32_t i = 0; i < img->contacts.count; ++i) {
		tb_contact *c = img->contacts.data + i;
		if (!c->in_use) continue;
		c->flags |= TB_CONTACT_CACHED;
		c->cache.count = 3;
		return;
	}
	fail_msg("no contact");
}

/* Values the setters would refuse, each in a string whose checksum holds. */
static int32_t live_body(const tb_world *img, int nth)
{
	for (int32_t i = 0; i < img->bodies.count; ++i) {
		if (img->bodies.data[i].in_use && img->bodies.data[i].type == TB_DYNAMIC_BODY && nth-- == 0) return i;
	}
	fail_msg("no dynamic body");
	return -1;
}
static tb_shape *live_shape_of_kind(tb_world *img, tb_shape_type type)
{
	for (int32_t i = 0; i < img->shapes.count; ++i) {
		if (img->shapes.data[i].in_use && img->shapes.data[i].geom.type == type) return img->shapes.data + i;
	}
	fail_msg("no shape of kind %d", (int)type);
	return NULL;
}
static tb_contact *live_contact(tb_world *img)
{
	for (int32_t i = 0; i < img->contacts.count; ++i) {
		if (img->contacts.data[i].in_use && img->contacts.data[i].manifold.point_count > 0) return img->contacts.data + i;
	}
	fail_msg("no touching contact");
	return NULL;
}
static void m_rotation_huge(tb_world *img)
{
	tb_body_sim *s = img->sims.data + live_body(img, 0);
	s->transform.q.c = 3e38f;
	s->transform.q.s = 3e38f;
}
static void m_rotation_short(tb_world *img) { img->sims.data[live_body(img, 0)].transform.q = (tb_rot){0.5f, 0.5f}; }
static void m_position_huge(tb_world *img) { img->sims.data[live_body(img, 1)].transform.p.x = 3e38f; }
static void m_position_past_range(tb_world *img) { img->sims.data[live_body(img, 1)].transform.p.y = -2.0e6f; }
static void m_center_huge(tb_world *img) { img->sims.data[live_body(img, 1)].center.x = 1e30f; }
static void m_inverse_mass(tb_world *img) { img->sims.data[live_body(img, 2)].inv_mass = 1e30f; }
static void m_negative_mass(tb_world *img) { img->bodies.data[live_body(img, 2)].mass = -1.0f; }
static void m_negative_damping(tb_world *img) { img->sims.data[live_body(img, 2)].linear_damping = -5.0f; }
static void m_polygon_rounding(tb_world *img) { live_shape_of_kind(img, TB_SHAPE_POLYGON)->geom.polygon.radius = 3e38f; }
static void m_polygon_vertex(tb_world *img)
{
	/* every vertex scaled: still convex, normals still right, but 1e30 m out */
	tb_polygon *p = &live_shape_of_kind(img, TB_SHAPE_POLYGON)->geom.polygon;
	for (int i = 0; i < p->count; ++i) p->vertices[i] = tb_mul_sv(1e30f / 0.4f, p->vertices[i]);
	p->centroid = tb_mul_sv(1e30f / 0.4f, p->centroid);
}
static void m_circle_radius(tb_world *img) { live_shape_of_kind(img, TB_SHAPE_CIRCLE)->geom.circle.radius = 3e38f; }
static void m_negative_friction(tb_world *img) { live_shape_of_kind(img, TB_SHAPE_CIRCLE)->friction = -1.0f; }
static void m_shape_box_huge(tb_world *img) { live_shape_of_kind(img, TB_SHAPE_CIRCLE)->aabb.upper.x = 3e38f; }
static void m_contact_deep(tb_world *img) { live_contact(img)->manifold.points[0].separation = -3e38f; }
static void m_contact_normal(tb_world *img) { live_contact(img)->manifold.normal = tb_v2(3.0f, 4.0f); }
static void m_body_generation(tb_world *img) { img->bodies.data[live_body(img, 0)].generation = 0xFFFFFFFEu; }
static void m_free_body_generation(tb_world *img)
{
	for (int32_t i = 0; i < img->bodies.count; ++i) {
		if (!img->bodies.data[i].in_use) {
			img->bodies.data[i].generation = 0xFFFFFFFEu;
			return;
		}
	}
	fail_msg("no free body slot");
}
static void m_node_box_huge(tb_world *img) { img->broad_phase.trees[1].nodes[0].aabb.lower.y = -3e38f; }

static void test_hostile_images(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		mutation_fn *fn;
	} mutations[] = {
		{"a body's shape list past the shapes", m_body_shape_list},
		{"a body's shape list into a free slot", m_body_shape_dead},
		{"a body type out of range", m_body_type},
		{"a contact's shape negative", m_contact_shape},
		{"two contacts of one pair", m_contact_twice},
		{"a contact key past the contacts", m_contact_key},
		{"a free slot listed twice", m_free_twice},
		{"a live slot listed free", m_free_live},
		{"a slot count that disagrees", m_next_index},
		{"a cycle in a tree", m_tree_cycle},
		{"a tree root past the nodes", m_tree_root},
		{"a tree free list negative", m_tree_free},
		{"a shape's proxy past the nodes", m_shape_proxy},
		{"a shape's body past the bodies", m_shape_body},
		{"a polygon that is not convex", m_shape_geometry},
		{"a position that is not a number", m_shape_nan},
		{"a joint body past the bodies", m_joint_body},
		{"a joint type out of range", m_joint_def},
		{"a sensor segment past the overlaps", m_sensor_segment},
		{"an overlap past the shapes", m_overlap_shape},
		{"a move buffer entry past the shapes", m_move_buffer},
		{"no substeps", m_substeps},
		{"a step counter about to overflow", m_step_count},
		{"a begin event with nine points", m_event_points},
		{"a leaf without its shape's categories", m_leaf_category},
		{"a contact cache of three points", m_contact_cache},
		{"a rotation of (3e38, 3e38)", m_rotation_huge},
		{"a rotation of length 0.7", m_rotation_short},
		{"a body at x = 3e38", m_position_huge},
		{"a body at y = -2e6, past the setters' 1e6", m_position_past_range},
		{"a centre of mass 1e30 m out", m_center_huge},
		{"an inverse mass that is not the mass's", m_inverse_mass},
		{"a negative mass", m_negative_mass},
		{"a negative damping", m_negative_damping},
		{"a polygon rounded by 3e38", m_polygon_rounding},
		{"a polygon 1e30 m wide", m_polygon_vertex},
		{"a circle of radius 3e38", m_circle_radius},
		{"a negative friction", m_negative_friction},
		{"a shape's box to 3e38", m_shape_box_huge},
		{"a contact 3e38 deep", m_contact_deep},
		{"a contact normal of length 5", m_contact_normal},
		{"a live body's generation about to wrap", m_body_generation},
		{"a free body slot's generation about to wrap", m_free_body_generation},
		{"a tree node's box to -3e38", m_node_box_huge},
	};
	tb_world *w = small_world();
	/* a circle resting on the ground, for a touching contact */
	tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(-3.5f, 0.3f), 0.3f, 1.0f);
	tu_step(w, 2);
	/* free shape slots, a buffered move and begin events in the image */
	tb_body_id b1 = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(-3.0f, 0.4f), 0.3f, 1.0f);
	tb_body_id b2 = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(-2.0f, 0.4f), 0.3f, 1.0f);
	tb_body_id b3 = tu_circle_body(w, TB_DYNAMIC_BODY, tb_v2(-1.0f, 0.4f), 0.3f, 1.0f);
	tu_step(w, 1);
	tb_destroy_body(w, b1);
	tb_destroy_body(w, b2);
	tb_destroy_body(w, b3);
	tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(2.0f, 3.0f), 0.2f, 0.2f, 1.0f);
	for (size_t m = 0; m < sizeof mutations / sizeof mutations[0]; ++m) {
		tb_snapshot *snap = tb_world_snapshot(w, NULL);
		mutations[m].fn(&snap->image);
		size_t size = tb_snapshot_save(snap, NULL, 0);
		unsigned char *b = malloc(size);
		tb_snapshot_save(snap, b, size);
		tb_status st = load_status(b, size);
		if (st != TB_ERR_SNAPSHOT_CORRUPT) fail_msg("%s: loaded with status %d", mutations[m].name, (int)st);
		free(b);
		tb_snapshot_free(snap);
	}
	tb_destroy_world(w);
}

/* ---------------- limits and memory ---------------- */

static void test_restore_within_limits(void **state)
{
	(void)state;
	scene s;
	tb_world *w = scene_at_moment(&s);
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	tb_counters c = tb_snapshot_get_counters(snap);
	size_t size;
	unsigned char *bytes = save_bytes(snap, &size);

	tb_world_def d = tb_default_world_def();
	d.limits.max_bodies = c.body_count - 1;
	tb_world *small = tu_world_with(&d);
	tb_body_id mine = tu_box_body(small, TB_DYNAMIC_BODY, tb_v2(0.0f, 3.0f), 0.5f, 0.5f, 1.0f);
	tu_step(small, 3);
	uint64_t before = tb_world_hash(small);
	assert_int_equal(tb_world_restore(small, snap), TB_ERR_BODY_LIMIT);
	assert_true(tb_world_hash(small) == before && tb_body_is_valid(small, mine));
	assert_true(tb_world_validate(small));
	tb_status st = TB_OK;
	assert_null(tb_snapshot_load(bytes, size, &d, &st));
	assert_int_equal(st, TB_ERR_BODY_LIMIT);
	tb_destroy_world(small);

	d = tb_default_world_def();
	d.limits.max_shapes = c.shape_count - 1;
	small = tu_world_with(&d);
	assert_int_equal(tb_world_restore(small, snap), TB_ERR_SHAPE_LIMIT);
	tb_destroy_world(small);
	d = tb_default_world_def();
	d.limits.max_joints = c.joint_count - 1;
	small = tu_world_with(&d);
	assert_int_equal(tb_world_restore(small, snap), TB_ERR_JOINT_LIMIT);
	tb_destroy_world(small);
	d = tb_default_world_def();
	d.limits.max_contacts = c.contact_count - 1;
	small = tu_world_with(&d);
	assert_int_equal(tb_world_restore(small, snap), TB_ERR_CONTACT_LIMIT);
	tb_destroy_world(small);
	/* the loaded snapshot's own memory within max_bytes */
	d = tb_default_world_def();
	d.limits.max_bytes = tb_snapshot_get_allocated_bytes(snap) / 2;
	assert_null(tb_snapshot_load(bytes, size, &d, &st));
	assert_int_equal(st, TB_ERR_OUT_OF_MEMORY);

	free(bytes);
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* Counts blocks and can fail every allocation from the Nth on. */
typedef struct counting {
	long calls, fail_from;
	long live_blocks;
} counting;

static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	counting *c = ud;
	(void)osize;
	if (nsize == 0) {
		if (ptr != NULL) c->live_blocks -= 1;
		free(ptr);
		return NULL;
	}
	c->calls += 1;
	if (c->fail_from > 0 && c->calls >= c->fail_from) return NULL;
	void *p = realloc(ptr, nsize);
	if (p != NULL && ptr == NULL) c->live_blocks += 1;
	return p;
}

static void test_out_of_memory(void **state)
{
	(void)state;
	scene s;
	tb_world *source = scene_at_moment(&s);
	tb_snapshot *snap = tb_world_snapshot(source, NULL);
	uint64_t target_hash = tb_world_hash(source);

	/* restoring into a world whose memory runs out at every point in turn */
	counting c = {0, 0, 0};
	tb_world_def d = tb_default_world_def();
	d.alloc = counting_alloc;
	d.alloc_ud = &c;
	tb_world *w = tu_world_with(&d);
	tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 2.0f), 0.5f, 0.5f, 1.0f);
	tu_ground(w, 0.0f, 5.0f);
	tu_step(w, 2);
	uint64_t own = tb_world_hash(w);
	int failures = 0;
	for (long n = 1;; ++n) {
		c.calls = 0;
		c.fail_from = n;
		tb_status st = tb_world_restore(w, snap);
		c.fail_from = 0;
		assert_true(tb_world_validate(w));
		if (st == TB_OK) break;
		assert_int_equal(st, TB_ERR_OUT_OF_MEMORY);
		assert_true(tb_world_hash(w) == own);
		tu_step(w, 1);
		own = tb_world_hash(w);
		failures += 1;
	}
	assert_true(failures > 3);
	assert_true(tb_world_hash(w) == target_hash);
	tu_step(w, 10);

	/* taking a snapshot whose memory runs out */
	for (long n = 1; n <= 2; ++n) {
		c.calls = 0;
		c.fail_from = n;
		tb_status st = TB_OK;
		assert_null(tb_world_snapshot(w, &st));
		assert_int_equal(st, TB_ERR_OUT_OF_MEMORY);
	}
	c.fail_from = 0;
	long blocks = c.live_blocks;
	tb_snapshot *mine = tb_world_snapshot(w, NULL);
	assert_non_null(mine);
	tb_destroy_world(w);
	/* the snapshot outlives its world */
	tb_world *again = tu_world(tb_v2(0.0f, -10.0f));
	assert_int_equal(tb_world_restore(again, mine), TB_OK);
	tb_snapshot_free(mine);
	assert_int_equal(c.live_blocks, 0);
	(void)blocks;
	tb_destroy_world(again);
	tb_snapshot_free(snap);
	tb_destroy_world(source);
}

/* Steps until the world's first n spares are fully written; how many. */
static size_t refill(tb_world *w, int n)
{
	size_t steps = 0;
	for (;;) {
		bool full = true;
		for (int i = 0; i < n; ++i) full = full && w->spares[i].block != NULL && w->spares[i].written == w->spares[i].size;
		if (full) return steps;
		size_t before = 0;
		for (int i = 0; i < TB_SPARE_MAX; ++i) before += w->spares[i].written;
		tu_step(w, 1);
		steps += 1;
		size_t after = 0;
		for (int i = 0; i < TB_SPARE_MAX; ++i) after += w->spares[i].written;
		/* a step writes at most its budget (no spare is remade here) */
		assert_true(after > 0 && after - before <= tb_spare_bytes_per_step(w->spares[0].size));
	}
}

/* A world that has taken a snapshot keeps a block for the next one, written a
 * page at a time after its steps: the next snapshot takes it without asking
 * for memory but its own record, and restores as exactly; the block stays out
 * of the world's bytes (and so its limit). A snapshot that finds no spare
 * written asks for a second; a snapshot that has outgrown them gets its own
 * block, and the spares are made anew, larger. A world that never took one
 * keeps none. */
static void test_spare_blocks_for_the_next_snapshots(void **state)
{
	(void)state;
	counting c = {0, 0, 0};
	tb_world_def d = tb_default_world_def();
	d.alloc = counting_alloc;
	d.alloc_ud = &c;
	tb_world *w = tu_world_with(&d);
	tu_ground(w, 0.0f, 40.0f);
	for (int i = 0; i < 1500; ++i)
		tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(-30.0f + 0.8f * (float)(i % 75), 0.3f + 0.6f * (float)(i / 75)), 0.3f, 0.3f, 1.0f);
	tu_step(w, 400);
	assert_int_equal(tb_world_get_counters(w).awake_body_count, 0);
	assert_int_equal(w->spares_wanted, 0);
	assert_null(w->spares[0].block);

	tb_snapshot *first = tb_world_snapshot(w, NULL);
	assert_non_null(first);
	assert_int_equal(w->spares_wanted, 1);
	assert_null(w->spares[0].block);
	/* the pile sleeps: the step changes no array, so the world's bytes show
	 * whether the spare is counted with them */
	size_t world_bytes = tb_world_get_allocated_bytes(w);
	tu_step(w, 1);
	assert_int_equal(tb_world_get_allocated_bytes(w), world_bytes);
	tb_snapshot_spare *spare = &w->spares[0];
	assert_non_null(spare->block);
	assert_true(spare->size >= first->block_size + first->block_size / 8);
	size_t per_step = tb_spare_bytes_per_step(spare->size);
	assert_int_equal(per_step, TB_SPARE_MIN_BYTES_PER_STEP);
	assert_true(spare->size > 2 * per_step);
	assert_int_equal(spare->written, per_step);
	assert_null(w->spares[1].block);
	size_t steps = 1 + refill(w, 1);
	assert_int_equal(steps, (spare->size + per_step - 1) / per_step);
	/* an eighth of a spare a step, within bounds */
	assert_int_equal(tb_spare_bytes_per_step(8u << 20), 1u << 20);
	assert_int_equal(tb_spare_bytes_per_step(100u << 20), TB_SPARE_MAX_BYTES_PER_STEP);

	/* the next snapshot takes it: one allocation, its record */
	unsigned char *block = spare->block;
	size_t spare_size = spare->size;
	long calls = c.calls;
	tb_snapshot *second = tb_world_snapshot(w, NULL);
	assert_non_null(second);
	assert_int_equal(c.calls - calls, 1);
	assert_ptr_equal(second->block, block);
	assert_true(second->block_size <= spare_size);
	assert_true(tb_snapshot_get_allocated_bytes(second) >= spare_size);
	assert_null(spare->block);
	assert_int_equal(tb_world_get_allocated_bytes(w), world_bytes);
	assert_int_equal(w->spares_wanted, 1);

	/* and restores exactly: wake the pile, play on, come back, play again */
	tb_body_id thrown = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 40.0f), 1.0f, 1.0f, 1.0f);
	tb_body_set_linear_velocity(w, thrown, tb_v2(0.0f, -40.0f));
	/* none written yet: this one allocates, and asks for a second spare */
	calls = c.calls;
	tb_snapshot *third = tb_world_snapshot(w, NULL);
	assert_int_equal(c.calls - calls, 2);
	assert_int_equal(w->spares_wanted, 2);
	uint64_t at_third = tb_world_hash(w);
	tu_step(w, 90);
	uint64_t after = tb_world_hash(w);
	assert_int_equal(tb_world_restore(w, third), TB_OK);
	assert_true(tb_world_hash(w) == at_third);
	tu_step(w, 90);
	assert_true(tb_world_hash(w) == after);
	assert_int_equal(tb_world_restore(w, second), TB_OK);
	assert_int_equal(tb_world_restore(w, first), TB_OK);
	assert_true(tb_world_validate(w));

	/* two spares, written one after the other: two snapshots in a row take one each */
	refill(w, 2);
	unsigned char *blocks[2] = {w->spares[0].block, w->spares[1].block};
	tb_snapshot *pair[2];
	for (int i = 0; i < 2; ++i) {
		calls = c.calls;
		pair[i] = tb_world_snapshot(w, NULL);
		assert_int_equal(c.calls - calls, 1);
		assert_true(pair[i]->block == blocks[0] || pair[i]->block == blocks[1]);
	}
	assert_ptr_not_equal(pair[0]->block, pair[1]->block);
	assert_int_equal(w->spares_wanted, 2);

	/* grown past the spares: the snapshot gets its own block, the spares are
	 * kept until a step makes larger ones */
	refill(w, 2);
	spare_size = w->spares[0].size;
	for (int i = 0; i < 900; ++i)
		tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(-30.0f + 0.8f * (float)(i % 75), 40.0f + 1.2f * (float)(i / 75)), 0.3f, 0.3f, 1.0f);
	calls = c.calls;
	tb_snapshot *grown = tb_world_snapshot(w, NULL);
	assert_non_null(grown);
	assert_int_equal(c.calls - calls, 2);
	assert_true(grown->block_size > spare_size);
	assert_non_null(w->spares[0].block);
	assert_non_null(w->spares[1].block);
	tu_step(w, 1);
	assert_true(w->spares[0].size >= grown->block_size);

	tb_snapshot_free(grown);
	tb_snapshot_free(pair[0]);
	tb_snapshot_free(pair[1]);
	tb_snapshot_free(third);
	tb_snapshot_free(second);
	tb_snapshot_free(first);
	tb_destroy_world(w);
	assert_int_equal(c.live_blocks, 0);

	/* a world that never takes one keeps none; nor one told to keep none,
	 * which frees those it kept */
	tb_world *plain = tu_world(tb_v2(0.0f, -10.0f));
	tu_box_body(plain, TB_DYNAMIC_BODY, tb_v2(0.0f, 2.0f), 0.5f, 0.5f, 1.0f);
	tu_step(plain, 30);
	assert_null(plain->spares[0].block);
	tb_snapshot_free(tb_world_snapshot(plain, NULL));
	tu_step(plain, 1);
	assert_non_null(plain->spares[0].block);
	tb_world_keep_snapshot_spares(plain, false);
	assert_null(plain->spares[0].block);
	tb_snapshot_free(tb_world_snapshot(plain, NULL));
	tb_snapshot_free(tb_world_snapshot(plain, NULL));
	tu_step(plain, 30);
	assert_null(plain->spares[0].block);
	assert_null(plain->spares[1].block);
	tb_world_keep_snapshot_spares(plain, true);
	tu_step(plain, 1);
	assert_non_null(plain->spares[0].block);
	tb_destroy_world(plain);
	/* told to keep one from the start: ready before the first snapshot */
	tb_world *ready = tu_world(tb_v2(0.0f, -10.0f));
	tb_world_keep_snapshot_spares(ready, true);
	tu_box_body(ready, TB_DYNAMIC_BODY, tb_v2(0.0f, 2.0f), 0.5f, 0.5f, 1.0f);
	tu_step(ready, 1);
	block = ready->spares[0].block;
	assert_non_null(block);
	tb_snapshot *at_once = tb_world_snapshot(ready, NULL);
	assert_ptr_equal(at_once->block, block);
	tb_snapshot_free(at_once);
	tb_destroy_world(ready);
}

/* A string whose slot counts pass the loading world's limits is refused
 * before the loader asks for any memory: a few bytes per free slot must not
 * buy a record (and the step's room) each. */
static void test_limits_before_allocation(void **state)
{
	(void)state;
	/* a pile whose contacts all ended: free contact slots, a few bytes each */
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id ground = tu_ground(w, 0.0f, 40.0f);
	tb_body_id pile[120];
	for (int i = 0; i < 120; ++i)
		pile[i] = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(-30.0f + 0.5f * (float)(i % 120), 0.5f + (float)(i % 3)), 0.3f, 0.3f, 1.0f);
	tu_step(w, 30);
	int32_t slots = w->contacts.count;
	assert_true(slots > 100);
	for (int i = 0; i < 120; ++i) tb_destroy_body(w, pile[i]);
	(void)ground;
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	assert_int_equal(tb_snapshot_get_counters(snap).contact_count, 0);
	size_t size;
	unsigned char *bytes = save_bytes(snap, &size);

	counting c = {0, 0, 0};
	tb_world_def d = tb_default_world_def();
	d.alloc = counting_alloc;
	d.alloc_ud = &c;
	d.limits.max_contacts = slots / 4;
	tb_status st = TB_OK;
	assert_null(tb_snapshot_load(bytes, size, &d, &st));
	assert_int_equal(st, TB_ERR_CONTACT_LIMIT);
	assert_int_equal(c.calls, 0);
	/* a max_bytes the image cannot fit in: refused before asking too */
	d.limits.max_contacts = 0;
	d.limits.max_bytes = 4096;
	assert_null(tb_snapshot_load(bytes, size, &d, &st));
	assert_int_equal(st, TB_ERR_OUT_OF_MEMORY);
	assert_int_equal(c.calls, 0);
	/* within the limits: loads */
	d.limits.max_bytes = 0;
	d.limits.max_contacts = slots;
	tb_snapshot *back = tb_snapshot_load(bytes, size, &d, &st);
	assert_non_null(back);
	tb_snapshot_free(back);
	assert_int_equal(c.live_blocks, 0);
	free(bytes);
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* A slot reused up to TB_GENERATION_CAP times is used up: it is never given
 * out again, so no generation wraps round to a stale handle's, and the world
 * still saves to bytes that load. (The slot is worn out here by setting its
 * generations, not by 2^28 reuses.) */
static void test_generation_cap(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id keep = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 5.0f), 0.5f, 0.5f, 1.0f);
	tb_body_id old = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(2.0f, 5.0f), 0.5f, 0.5f, 1.0f);
	int32_t slot = old.index1 - 1;
	/* its next generation would be the cap's: this object is the slot's last */
	w->bodies.data[slot].generation = TB_GENERATION_CAP - 1;
	w->body_pool.issued.data[slot] = TB_GENERATION_CAP;
	old.generation = TB_GENERATION_CAP - 1;
	assert_true(tb_body_is_valid(w, old));
	tb_destroy_body(w, old);
	assert_int_equal(w->bodies.data[slot].generation, TB_GENERATION_CAP);
	/* the next bodies take fresh slots, and the used-up one stays free */
	for (int i = 0; i < 3; ++i) {
		tb_body_id b = tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(4.0f + (float)i, 5.0f), 0.5f, 0.5f, 1.0f);
		assert_int_not_equal(b.index1 - 1, slot);
		assert_true(b.generation < TB_GENERATION_CAP);
		assert_false(tb_body_is_valid(w, old));
	}
	assert_false(w->bodies.data[slot].in_use);
	assert_true(tb_world_validate(w));
	tu_step(w, 5);
	/* saves, loads, restores into a fresh world, where the slot stays used up */
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	assert_loadable_again(snap);
	size_t size;
	unsigned char *bytes = save_bytes(snap, &size);
	tb_snapshot *back = tb_snapshot_load(bytes, size, NULL, NULL);
	assert_non_null(back);
	tb_world *fresh = tu_world(tb_v2(0.0f, -10.0f));
	assert_int_equal(tb_world_restore(fresh, back), TB_OK);
	assert_true(tb_body_is_valid(fresh, keep));
	tb_body_id b = tu_box_body(fresh, TB_DYNAMIC_BODY, tb_v2(9.0f, 5.0f), 0.5f, 0.5f, 1.0f);
	assert_true(b.generation < TB_GENERATION_CAP);
	assert_false(tb_body_is_valid(fresh, old));
	assert_true(tb_world_validate(fresh));
	/* a snapshot of another world with a live body in the used-up slot: the
	 * restore would have to issue the cap there, and refuses */
	tb_world *other = tu_world(tb_v2(0.0f, -10.0f));
	for (int i = 0; i <= slot; ++i) tu_box_body(other, TB_DYNAMIC_BODY, tb_v2((float)i, 5.0f), 0.5f, 0.5f, 1.0f);
	tb_snapshot *theirs = tb_world_snapshot(other, NULL);
	uint64_t before = tb_world_hash(w);
	assert_int_equal(tb_world_restore(w, theirs), TB_ERR_INVALID_ARGUMENT);
	assert_true(tb_world_hash(w) == before && tb_world_validate(w));
	tb_snapshot_free(theirs);
	tb_destroy_world(other);
	tb_destroy_world(fresh);
	tb_snapshot_free(back);
	free(bytes);
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* A snapshot holds the world's state, not its scratch: less than the world. */
static void test_snapshot_memory(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tu_ground(w, 0.0f, 60.0f);
	for (int row = 0; row < 30; ++row) {
		for (int i = 0; i < 30 - row; ++i)
			tu_box_body(w, TB_DYNAMIC_BODY, tb_v2(-15.0f + (float)i + 0.5f * (float)row, 0.5f + (float)row), 0.5f, 0.5f, 1.0f);
	}
	tu_step(w, 30);
	tb_snapshot *snap = tb_world_snapshot(w, NULL);
	size_t held = tb_snapshot_get_allocated_bytes(snap), world = tb_world_get_allocated_bytes(w);
	size_t saved = tb_snapshot_save(snap, NULL, 0);
	print_message("# 465-box pyramid: world %zu bytes, snapshot %zu, saved %zu\n", world, held, saved);
	assert_true(held < world);
	assert_true(saved < held);
	tb_snapshot_free(snap);
	tb_destroy_world(w);
}

/* Every field of every record is in the tables snapshot_format.c writes:
 * the bytes no field covers are the records' padding, counted here. A new
 * field in a record shows up as bytes nothing covers: add it to the table
 * (and to the restore, if it is not in an array or record copied whole). */
static void test_record_tables_cover_every_field(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		size_t padding;
	} expected[] = {
		{"tb_body", 6},
		{"tb_body_sim", 1}, /* its type, a copy of the body's, in the last of two bytes that were padding */
		{"tb_shape", 12},
		{"tb_contact", 15}, /* 12 of them after the cache: a contact fills four whole cache lines */
		{"tb_joint", 14}, /* 4 of them after the kinds' union, which the wheel made 52 bytes */
		{"tb_sensor", 3},
		{"tb_sensor_overlap", 0},
		{"int32_t", 0},
		{"tb_contact_begin_event", 0},
		{"tb_contact_end_event", 0},
		{"tb_contact_hit_event", 0},
		{"tb_sensor_event", 0},
		{"tb_tree_node", 5},
		{"tb_world_def", 2},
		{"tb_mover", 2},
	};
	int n = tb_snapshot_record_type_count();
	assert_int_equal(n, (int)(sizeof expected / sizeof expected[0]));
	for (int t = 0; t < n; ++t) {
		assert_string_equal(tb_snapshot_record_type_name(t), expected[t].name);
		size_t uncovered = tb_snapshot_record_uncovered(t);
		if (uncovered != expected[t].padding)
			fail_msg("%s: %zu bytes no field covers, %zu expected: a field missing from the snapshot's tables?",
			         expected[t].name, uncovered, expected[t].padding);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restore_is_exact),
		cmocka_unit_test(test_restore_back_and_forth),
		cmocka_unit_test(test_ids_after_restore),
		cmocka_unit_test(test_restore_into_another_world),
		cmocka_unit_test(test_save_load_into_a_new_world),
		cmocka_unit_test(test_corrupt_bytes),
		cmocka_unit_test(test_hostile_payloads),
		cmocka_unit_test(test_hostile_images),
		cmocka_unit_test(test_restore_within_limits),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_spare_blocks_for_the_next_snapshots),
		cmocka_unit_test(test_snapshot_memory),
		cmocka_unit_test(test_checksummed_value_mutations),
		cmocka_unit_test(test_limits_before_allocation),
		cmocka_unit_test(test_generation_cap),
		cmocka_unit_test(test_record_tables_cover_every_field),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
