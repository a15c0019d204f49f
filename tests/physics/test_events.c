/* Events (begin/end/hit, sensors), areas (force fields) and queries (rays,
 * boxes, points, shape overlap, collide without response). */
#include "test_util.h"

#include "world.h"

#include <stdlib.h>
#include <string.h>

#define DT TU_DT

/* Boxes and circles with density 1, or sensors. */
static tb_shape_id add_box_shape(tb_world *w, tb_body_id b, float hx, float hy, bool sensor)
{
	tb_shape_def sd = tb_default_shape_def();
	sd.is_sensor = sensor;
	return tu_box_with(w, b, hx, hy, &sd);
}

static tb_shape_id add_circle_shape(tb_world *w, tb_body_id b, float r, bool sensor)
{
	tb_shape_def sd = tb_default_shape_def();
	sd.is_sensor = sensor;
	return tu_circle_with(w, b, r, &sd);
}

static tb_body_id new_body(tb_world *w, tb_body_type type, tb_vec2 p, tb_vec2 v)
{
	return tu_body_moving(w, type, p, 0.0f, v, 0.0f);
}

static bool same_pair(tb_shape_id a, tb_shape_id b, tb_shape_id x, tb_shape_id y)
{
	return (TB_ID_EQUALS(a, x) && TB_ID_EQUALS(b, y)) || (TB_ID_EQUALS(a, y) && TB_ID_EQUALS(b, x));
}

typedef struct pair_counts { int begin, end, hit; } pair_counts;

static pair_counts count_pair(tb_world *w, tb_shape_id x, tb_shape_id y)
{
	pair_counts c = {0, 0, 0};
	tb_contact_events ev = tb_world_get_contact_events(w);
	for (int i = 0; i < ev.begin_count; ++i) c.begin += same_pair(ev.begin[i].shape_a, ev.begin[i].shape_b, x, y);
	for (int i = 0; i < ev.end_count; ++i) c.end += same_pair(ev.end[i].shape_a, ev.end[i].shape_b, x, y);
	for (int i = 0; i < ev.hit_count; ++i) c.hit += same_pair(ev.hit[i].shape_a, ev.hit[i].shape_b, x, y);
	return c;
}

/* ---------------- contact events ---------------- */

static void test_begin_once_end_on_lift(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id ground = new_body(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f), tb_vec2_zero);
	tb_shape_id g = add_box_shape(w, ground, 20.0f, 1.0f, false);
	tb_body_id box = new_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 3.0f), tb_vec2_zero);
	tb_shape_id s = add_box_shape(w, box, 0.5f, 0.5f, false);

	int begins = 0, ends = 0, first_begin = -1;
	for (int i = 0; i < 120; ++i) {
		tb_world_step(w, DT);
		pair_counts c = count_pair(w, g, s);
		if (c.begin && first_begin < 0) first_begin = i;
		begins += c.begin;
		ends += c.end;
	}
	assert_int_equal(begins, 1);
	assert_int_equal(ends, 0);
	/* 2.5 m of fall takes about 0.7 s */
	assert_true(first_begin >= 38 && first_begin <= 45);

	/* lifted away by teleport: one end event, no new begin */
	tb_body_set_transform(w, box, tb_v2(0.0f, 10.0f), 0.0f);
	begins = ends = 0;
	for (int i = 0; i < 5; ++i) {
		tb_world_step(w, DT);
		pair_counts c = count_pair(w, g, s);
		begins += c.begin;
		ends += c.end;
	}
	assert_int_equal(ends, 1);
	assert_int_equal(begins, 0);

	/* and a begin again when it lands a second time */
	for (int i = 0; i < 150; ++i) {
		tb_world_step(w, DT);
		begins += count_pair(w, g, s).begin;
	}
	assert_int_equal(begins, 1);

	/* destroying a touching body reports the end (now or after the next step, once) */
	int n1 = count_pair(w, g, s).end;
	tb_destroy_body(w, box);
	tb_contact_events ev = tb_world_get_contact_events(w);
	int n2 = 0;
	for (int i = 0; i < ev.end_count; ++i) n2 += same_pair(ev.end[i].shape_a, ev.end[i].shape_b, g, s);
	tb_world_step(w, DT);
	int n3 = count_pair(w, g, s).end;
	assert_int_equal(n1, 0);
	assert_int_equal(n2 + n3, 1);
	tb_destroy_world(w);
}

static void test_begin_event_data(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id ground = new_body(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f), tb_vec2_zero);
	tb_shape_id g = add_box_shape(w, ground, 20.0f, 1.0f, false);
	tb_body_id box = new_body(w, TB_DYNAMIC_BODY, tb_v2(2.0f, 3.0f), tb_vec2_zero);
	tb_shape_id s = add_box_shape(w, box, 0.5f, 0.5f, false);
	bool seen = false;
	for (int i = 0; i < 120 && !seen; ++i) {
		tb_world_step(w, DT);
		tb_contact_events ev = tb_world_get_contact_events(w);
		for (int k = 0; k < ev.begin_count; ++k) {
			const tb_contact_begin_event *e = ev.begin + k;
			if (!same_pair(e->shape_a, e->shape_b, g, s)) continue;
			seen = true;
			tb_vec2 ca = tb_body_get_world_center(w, tb_shape_get_body(w, e->shape_a));
			tb_vec2 cb = tb_body_get_world_center(w, tb_shape_get_body(w, e->shape_b));
			assert_near(tb_length(e->normal), 1.0f, 1e-4f);
			assert_true(tb_dot(e->normal, tb_sub(cb, ca)) > 0.0f);
			assert_near(fabsf(e->normal.y), 1.0f, 1e-3f);
			assert_true(e->point_count >= 1 && e->point_count <= 2);
			for (int p = 0; p < e->point_count; ++p) {
				assert_near(e->points[p].y, 0.0f, 0.05f);
				assert_true(e->points[p].x > 2.0f - 0.55f && e->points[p].x < 2.0f + 0.55f);
				assert_true(e->separations[p] < TB_SPECULATIVE_DISTANCE + 1e-4f);
			}
			/* fell 2.5 m: about 7.07 m/s */
			assert_near(e->approach_speed, sqrtf(2.0f * 10.0f * 2.5f), 0.4f);
		}
	}
	assert_true(seen);
	tb_destroy_world(w);
}

static int drop_hits(float drop, bool hit_events, float threshold, float *speed)
{
	tb_world_def wd = tb_default_world_def();
	wd.hit_event_threshold = threshold;
	tb_world *w = tb_create_world(&wd);
	tb_body_id ground = new_body(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f), tb_vec2_zero);
	tb_shape_id g = add_box_shape(w, ground, 20.0f, 1.0f, false);
	tb_body_id box = new_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.5f + drop), tb_vec2_zero);
	tb_shape_id s = add_box_shape(w, box, 0.5f, 0.5f, false);
	/* hit events are on by default: a pair reports when either shape wants them */
	tb_shape_enable_hit_events(w, s, hit_events);
	tb_shape_enable_hit_events(w, g, hit_events);
	int hits = 0;
	*speed = 0.0f;
	for (int i = 0; i < 90; ++i) {
		tb_world_step(w, DT);
		tb_contact_events ev = tb_world_get_contact_events(w);
		for (int k = 0; k < ev.hit_count; ++k) {
			const tb_contact_hit_event *e = ev.hit + k;
			if (!same_pair(e->shape_a, e->shape_b, g, s)) continue;
			++hits;
			*speed = e->approach_speed;
			assert_true(e->approach_speed > threshold);
			assert_near(e->point.y, 0.0f, 0.05f);
			assert_near(fabsf(e->normal.y), 1.0f, 1e-3f);
		}
	}
	tb_destroy_world(w);
	return hits;
}

static void test_hit_events(void **state)
{
	(void)state;
	float speed;
	/* 2.5 m drop, 7.07 m/s: one hit (restitution 0, no second impact) */
	assert_int_equal(drop_hits(2.5f, true, 1.0f, &speed), 1);
	assert_near(speed, sqrtf(50.0f), 0.4f);
	/* 1 cm drop, 0.45 m/s: below the 1 m/s threshold */
	assert_int_equal(drop_hits(0.01f, true, 1.0f, &speed), 0);
	/* the threshold is the world's setting */
	assert_int_equal(drop_hits(2.5f, true, 10.0f, &speed), 0);
	/* off by default */
	assert_int_equal(drop_hits(2.5f, false, 1.0f, &speed), 0);
}

/* The slot of the contact between two shapes (engine-private), or -1. */
static int32_t contact_slot(const tb_world *w, tb_shape_id a, tb_shape_id b)
{
	for (int32_t i = 0; i < w->contacts.count; ++i) {
		const tb_contact *c = w->contacts.data + i;
		if (!c->in_use) continue;
		int32_t x = a.index1 - 1, y = b.index1 - 1;
		if ((c->shape_a == x && c->shape_b == y) || (c->shape_a == y && c->shape_b == x)) return i;
	}
	return -1;
}

/* Hit events come in the contacts' slot order, whatever colour each contact
 * was solved in: boxes dropped onto resting boxes (a second colour, since the
 * resting box's contact with the ground holds the first) land in the same
 * step as boxes dropped onto the ground beside them. */
static void test_hit_events_in_slot_order(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id ground = new_body(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f), tb_vec2_zero);
	add_box_shape(w, ground, 40.0f, 1.0f, false);
	for (int i = 0; i < 12; ++i) {
		float x = -30.0f + 5.0f * (float)i;
		tb_body_id rest = new_body(w, TB_DYNAMIC_BODY, tb_v2(x, 0.5f), tb_vec2_zero);
		add_box_shape(w, rest, 0.5f, 0.5f, false);
		/* its top at 1: a box dropped from 4.5 onto it, and one beside it
		 * from 3.5 onto the ground, fall 3 m each and land together */
		tb_body_id on_box = new_body(w, TB_DYNAMIC_BODY, tb_v2(x, 4.5f), tb_vec2_zero);
		add_box_shape(w, on_box, 0.5f, 0.5f, false);
		tb_body_id on_ground = new_body(w, TB_DYNAMIC_BODY, tb_v2(x + 2.0f, 3.5f), tb_vec2_zero);
		add_box_shape(w, on_ground, 0.5f, 0.5f, false);
	}
	int most = 0, checked = 0;
	for (int step = 0; step < 120; ++step) {
		tb_world_step(w, DT);
		tb_contact_events ev = tb_world_get_contact_events(w);
		int32_t last = -1;
		for (int k = 0; k < ev.hit_count; ++k) {
			int32_t slot = contact_slot(w, ev.hit[k].shape_a, ev.hit[k].shape_b);
			assert_true(slot > last);
			last = slot;
			checked += 1;
		}
		if (ev.hit_count > most) most = ev.hit_count;
	}
	/* the 24 landings, most of them in one step */
	assert_true(checked >= 24);
	assert_true(most >= 12);
	tb_destroy_world(w);
}

static void test_contact_events_flag(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id ground = new_body(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f), tb_vec2_zero);
	tb_shape_id g = add_box_shape(w, ground, 20.0f, 1.0f, false);
	tb_body_id box = new_body(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 1.0f), tb_vec2_zero);
	tb_shape_def sd = tb_default_shape_def();
	sd.enable_contact_events = false;
	tb_polygon p = tb_make_box(0.5f, 0.5f);
	tb_shape_id s = tb_create_polygon_shape(w, box, &sd, &p, NULL);
	tb_shape_enable_contact_events(w, g, false);
	int begins = 0;
	for (int i = 0; i < 60; ++i) {
		tb_world_step(w, DT);
		begins += count_pair(w, g, s).begin;
	}
	assert_int_equal(begins, 0);
	/* but the contact exists and holds the box */
	assert_near(tb_body_get_position(w, box).y, 0.5f, 0.02f);
	tb_destroy_world(w);
}

/* ---------------- sensors ---------------- */

static void test_sensor_enter_exit(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_id zone = new_body(w, TB_STATIC_BODY, tb_vec2_zero, tb_vec2_zero);
	tb_shape_id sensor = add_box_shape(w, zone, 1.0f, 1.0f, true);
	assert_true(tb_shape_is_sensor(w, sensor));
	tb_body_id ball = new_body(w, TB_DYNAMIC_BODY, tb_v2(-5.0f, 0.0f), tb_v2(5.0f, 0.0f));
	tb_shape_id visitor = add_circle_shape(w, ball, 0.25f, false);
	/* a second one that opted out of sensor events */
	tb_body_id quiet = new_body(w, TB_DYNAMIC_BODY, tb_v2(-5.0f, 0.7f), tb_v2(5.0f, 0.0f));
	tb_shape_def sd = tb_default_shape_def();
	sd.enable_sensor_events = false;
	tb_circle c = {{0.0f, 0.0f}, 0.25f};
	tb_shape_id quiet_shape = tb_create_circle_shape(w, quiet, &sd, &c, NULL);

	int enter = 0, leave = 0, enter_step = -1, leave_step = -1;
	for (int i = 0; i < 180; ++i) {
		tb_world_step(w, DT);
		tb_sensor_events ev = tb_world_get_sensor_events(w);
		for (int k = 0; k < ev.begin_count; ++k) {
			assert_false(TB_ID_EQUALS(ev.begin[k].visitor, quiet_shape));
			if (TB_ID_EQUALS(ev.begin[k].sensor, sensor) && TB_ID_EQUALS(ev.begin[k].visitor, visitor)) {
				++enter;
				enter_step = i;
				float x = tb_body_get_position(w, ball).x;
				assert_true(x > -1.25f - 0.01f && x < -1.25f + 2.0f * 5.0f * DT + 0.01f);
			}
		}
		for (int k = 0; k < ev.end_count; ++k) {
			assert_false(TB_ID_EQUALS(ev.end[k].visitor, quiet_shape));
			if (TB_ID_EQUALS(ev.end[k].sensor, sensor) && TB_ID_EQUALS(ev.end[k].visitor, visitor)) {
				++leave;
				leave_step = i;
				float x = tb_body_get_position(w, ball).x;
				assert_true(x > 1.25f - 0.01f && x < 1.25f + 2.0f * 5.0f * DT + 0.01f);
			}
		}
	}
	assert_int_equal(enter, 1);
	assert_int_equal(leave, 1);
	assert_true(enter_step < leave_step);
	/* a sensor has no response */
	assert_near(tb_body_get_linear_velocity(w, ball).x, 5.0f, 0.0f);
	assert_near(tb_body_get_position(w, ball).y, 0.0f, 0.0f);
	assert_near(tb_body_get_linear_velocity(w, quiet).x, 5.0f, 0.0f);
	tb_destroy_world(w);
}

/* A box resting on the ground (touching, begin reported) and a ball resting
 * inside a sensor zone (enter reported). */
typedef struct settled_scene {
	tb_body_id ground, box, zone, ball;
	tb_shape_id ground_shape, box_shape, sensor, visitor;
} settled_scene;

static settled_scene make_settled_scene(tb_world *w)
{
	settled_scene sc;
	sc.ground = new_body(w, TB_STATIC_BODY, tb_v2(0.0f, -0.5f), tb_vec2_zero);
	sc.ground_shape = add_box_shape(w, sc.ground, 20.0f, 0.5f, false);
	sc.box = new_body(w, TB_DYNAMIC_BODY, tb_v2(-5.0f, 0.5f), tb_vec2_zero);
	sc.box_shape = add_box_shape(w, sc.box, 0.5f, 0.5f, false);
	sc.zone = new_body(w, TB_STATIC_BODY, tb_v2(5.0f, 2.0f), tb_vec2_zero);
	sc.sensor = add_box_shape(w, sc.zone, 2.0f, 2.0f, true);
	sc.ball = new_body(w, TB_DYNAMIC_BODY, tb_v2(5.0f, 0.25f), tb_vec2_zero);
	sc.visitor = add_circle_shape(w, sc.ball, 0.25f, false);
	int begins = 0, enters = 0;
	for (int i = 0; i < 30; ++i) {
		tb_world_step(w, DT);
		begins += count_pair(w, sc.box_shape, sc.ground_shape).begin;
		tb_sensor_events se = tb_world_get_sensor_events(w);
		for (int k = 0; k < se.begin_count; ++k)
			enters += TB_ID_EQUALS(se.begin[k].sensor, sc.sensor) && TB_ID_EQUALS(se.begin[k].visitor, sc.visitor);
	}
	assert_int_equal(begins, 1);
	assert_int_equal(enters, 1);
	return sc;
}

typedef struct ended { int box_end, ball_end, exits; } ended;

/* The end and exit events the next step reports for the scene's pairs. */
static ended step_and_count_ends(tb_world *w, const settled_scene *sc)
{
	ended e = {0, 0, 0};
	tb_world_step(w, DT);
	e.box_end = count_pair(w, sc->box_shape, sc->ground_shape).end;
	e.ball_end = count_pair(w, sc->visitor, sc->ground_shape).end;
	tb_sensor_events se = tb_world_get_sensor_events(w);
	for (int k = 0; k < se.end_count; ++k)
		e.exits += TB_ID_EQUALS(se.end[k].sensor, sc->sensor) && TB_ID_EQUALS(se.end[k].visitor, sc->visitor);
	/* nothing is reported twice */
	tb_world_step(w, DT);
	tb_contact_events ce = tb_world_get_contact_events(w);
	assert_int_equal(ce.end_count, 0);
	assert_int_equal(tb_world_get_sensor_events(w).end_count, 0);
	return e;
}

/* tb_world_clear reports what destroying each body reports: the end of every
 * touching contact and the exit of every reported sensor overlap, with the
 * next step and with the (now stale) ids. */
static void test_clear_delivers_end_and_exit_events(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	settled_scene sc = make_settled_scene(w);
	assert_int_equal(tb_world_clear(w), TB_OK);
	ended cleared = step_and_count_ends(w, &sc);
	assert_int_equal(cleared.box_end, 1);
	assert_int_equal(cleared.ball_end, 1);
	assert_int_equal(cleared.exits, 1);
	assert_true(tb_world_validate(w));
	tb_destroy_world(w);

	/* the same world, each body destroyed in turn */
	w = tu_world(tb_v2(0.0f, -10.0f));
	sc = make_settled_scene(w);
	tb_body_id bodies[4] = {sc.ground, sc.box, sc.zone, sc.ball};
	for (int i = 0; i < 4; ++i) tb_destroy_body(w, bodies[i]);
	ended destroyed = step_and_count_ends(w, &sc);
	assert_memory_equal(&destroyed, &cleared, sizeof cleared);
	tb_destroy_world(w);
}

/* Destroying a sensor (or making it an ordinary shape) ends its reported
 * overlaps: each begin is followed by exactly one end. */
static void test_destroyed_sensor_reports_exits(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	settled_scene sc = make_settled_scene(w);
	tb_destroy_shape(w, sc.sensor, true);
	ended e = step_and_count_ends(w, &sc);
	assert_int_equal(e.exits, 1);
	assert_int_equal(e.box_end + e.ball_end, 0);
	tb_destroy_world(w);

	w = tu_world(tb_v2(0.0f, -10.0f));
	sc = make_settled_scene(w);
	assert_int_equal(tb_shape_set_sensor(w, sc.sensor, false), TB_OK);
	tb_world_step(w, DT);
	tb_sensor_events se = tb_world_get_sensor_events(w);
	assert_int_equal(se.end_count, 1);
	assert_true(TB_ID_EQUALS(se.end[0].sensor, sc.sensor) && TB_ID_EQUALS(se.end[0].visitor, sc.visitor));
	tb_destroy_world(w);
}

/* ---------------- fields ---------------- */

static tb_shape_id make_field_zone(tb_world *w, tb_vec2 center, float hx, float hy, const tb_field *f)
{
	tb_body_id zone = new_body(w, TB_STATIC_BODY, center, tb_vec2_zero);
	tb_shape_id s = add_box_shape(w, zone, hx, hy, true);
	assert_int_equal(tb_shape_set_field(w, s, f), TB_OK);
	tb_field back;
	assert_true(tb_shape_get_field(w, s, &back));
	assert_int_equal(back.kind, f->kind);
	return s;
}

static tb_body_id make_ball(tb_world *w, tb_vec2 p, float r, float density)
{
	return tu_circle_body(w, TB_DYNAMIC_BODY, p, r, density);
}

/* An updraft: force 2 m g up inside y in [0, 4]. Inside, the net acceleration
 * is +g; above the zone it is -g, so the ball rises, overshoots and comes back. */
static void test_linear_field(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	const float r = 0.25f;
	tb_body_id ball = make_ball(w, tb_v2(0.0f, 1.0f), r, 1.0f);
	float m = tb_body_get_mass(w, ball);
	tb_field f;
	memset(&f, 0, sizeof f);
	f.kind = TB_FIELD_LINEAR;
	f.force = tb_v2(0.0f, 2.0f * m * 10.0f);
	make_field_zone(w, tb_v2(0.0f, 2.0f), 2.0f, 2.0f, &f);
	/* a heavier ball outside the zone is not touched */
	tb_body_id outside = make_ball(w, tb_v2(10.0f, 1.0f), r, 3.0f);

	int inside_steps = 0, above_steps = 0;
	float max_y = 0.0f;
	for (int i = 0; i < 180; ++i) {
		float vy0 = tb_body_get_linear_velocity(w, ball).y;
		float y0 = tb_body_get_position(w, ball).y;
		tb_world_step(w, DT);
		float vy1 = tb_body_get_linear_velocity(w, ball).y;
		float y1 = tb_body_get_position(w, ball).y;
		if (y1 > max_y) max_y = y1;
		float dv = vy1 - vy0;
		/* the first step may not feel the field yet: overlaps are found at the end of a step */
		if (i == 0) continue;
		if (y0 + r < 3.8f && y1 + r < 3.8f && y0 - r > 0.2f) {
			assert_near(dv, 10.0f * DT, 1e-3f);
			++inside_steps;
		} else if (y0 - r > 4.2f && y1 - r > 4.2f) {
			assert_near(dv, -10.0f * DT, 1e-3f);
			++above_steps;
		}
	}
	assert_true(inside_steps > 20);
	assert_true(above_steps > 5);
	assert_true(max_y > 4.5f);
	assert_near(tb_body_get_linear_velocity(w, outside).y, -30.0f, 0.01f);
	tb_destroy_world(w);
}

/* use_acceleration: the same acceleration for light and heavy bodies. */
static void test_linear_field_acceleration(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_field f;
	memset(&f, 0, sizeof f);
	f.kind = TB_FIELD_LINEAR;
	f.force = tb_v2(3.0f, 0.0f);
	f.use_acceleration = true;
	make_field_zone(w, tb_vec2_zero, 20.0f, 20.0f, &f);
	tb_body_id light = make_ball(w, tb_v2(0.0f, 0.0f), 0.25f, 1.0f);
	tb_body_id heavy = make_ball(w, tb_v2(0.0f, 3.0f), 0.25f, 50.0f);
	/* one step for the overlaps to be found, then one second of 3 m/s^2 */
	tb_world_step(w, DT);
	float l0 = tb_body_get_linear_velocity(w, light).x, h0 = tb_body_get_linear_velocity(w, heavy).x;
	for (int i = 0; i < 60; ++i) tb_world_step(w, DT);
	assert_near(tb_body_get_linear_velocity(w, light).x - l0, 3.0f, 1e-3f);
	assert_near(tb_body_get_linear_velocity(w, heavy).x - h0, 3.0f, 1e-3f);
	assert_near(tb_body_get_linear_velocity(w, heavy).y, 0.0f, 0.0f);
	tb_destroy_world(w);
}

static void test_radial_field(void **state)
{
	(void)state;
	for (int sign = -1; sign <= 1; sign += 2) {
		tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
		tb_body_id zone = new_body(w, TB_STATIC_BODY, tb_v2(1.0f, 1.0f), tb_vec2_zero);
		tb_shape_id s = add_circle_shape(w, zone, 5.0f, true);
		tb_field f;
		memset(&f, 0, sizeof f);
		f.kind = TB_FIELD_RADIAL;
		f.strength = 2.0f * (float)sign;
		f.falloff = TB_FALLOFF_NONE;
		f.center = tb_vec2_zero; /* local: the zone body's origin (1, 1) */
		f.use_acceleration = true;
		assert_int_equal(tb_shape_set_field(w, s, &f), TB_OK);
		/* balls right of and above the centre */
		tb_body_id a = make_ball(w, tb_v2(3.0f, 1.0f), 0.25f, 1.0f);
		tb_body_id b = make_ball(w, tb_v2(1.0f, 3.0f), 0.25f, 1.0f);
		tb_world_step(w, DT);
		tb_body_set_linear_velocity(w, a, tb_vec2_zero);
		tb_body_set_linear_velocity(w, b, tb_vec2_zero);
		for (int i = 0; i < 30; ++i) tb_world_step(w, DT);
		/* 0.5 s at 2 m/s^2 along the radius: 1 m/s, positive = away from the centre */
		tb_vec2 va = tb_body_get_linear_velocity(w, a), vb = tb_body_get_linear_velocity(w, b);
		assert_near(va.x, 1.0f * (float)sign, 0.01f);
		assert_near(va.y, 0.0f, 1e-4f);
		assert_near(vb.y, 1.0f * (float)sign, 0.01f);
		assert_near(vb.x, 0.0f, 1e-4f);
		float da = tb_distance(tb_body_get_position(w, a), tb_v2(1.0f, 1.0f));
		if (sign > 0) assert_true(da > 2.2f);
		else assert_true(da < 1.8f);
		tb_destroy_world(w);
	}
}

static void test_radial_inverse_square(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_id zone = new_body(w, TB_STATIC_BODY, tb_vec2_zero, tb_vec2_zero);
	tb_shape_id s = add_circle_shape(w, zone, 10.0f, true);
	tb_field f;
	memset(&f, 0, sizeof f);
	f.kind = TB_FIELD_RADIAL;
	f.strength = 8.0f;
	f.falloff = TB_FALLOFF_INVERSE_SQUARE;
	f.use_acceleration = true;
	assert_int_equal(tb_shape_set_field(w, s, &f), TB_OK);
	tb_body_id near = make_ball(w, tb_v2(2.0f, 0.0f), 0.25f, 1.0f);
	tb_body_id far = make_ball(w, tb_v2(0.0f, -4.0f), 0.25f, 1.0f);
	tb_world_step(w, DT);
	tb_body_set_linear_velocity(w, near, tb_vec2_zero);
	tb_body_set_linear_velocity(w, far, tb_vec2_zero);
	tb_world_step(w, DT);
	/* 8 / 2^2 = 2 m/s^2 and 8 / 4^2 = 0.5 m/s^2 */
	assert_near(tb_body_get_linear_velocity(w, near).x, 2.0f * DT, 2e-3f * DT * 2.0f + 1e-5f);
	assert_near(tb_body_get_linear_velocity(w, far).y, -0.5f * DT, 2e-3f * DT * 0.5f + 1e-5f);
	tb_destroy_world(w);
}

static void test_drag_field(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_field f;
	memset(&f, 0, sizeof f);
	f.kind = TB_FIELD_DRAG;
	f.drag = 1.0f;
	f.use_acceleration = true;
	make_field_zone(w, tb_vec2_zero, 50.0f, 5.0f, &f);
	tb_body_id a = make_ball(w, tb_v2(-10.0f, 0.0f), 0.25f, 1.0f);
	/* force mode: drag in N per m/s, so d = m gives the same 1/s */
	tb_body_id b = make_ball(w, tb_v2(-10.0f, 20.0f), 0.25f, 4.0f);
	tb_field fb = f;
	fb.use_acceleration = false;
	fb.drag = tb_body_get_mass(w, b);
	make_field_zone(w, tb_v2(0.0f, 20.0f), 50.0f, 10.0f, &fb);
	/* a third ball outside both zones keeps its speed */
	tb_body_id c = make_ball(w, tb_v2(-10.0f, -40.0f), 0.25f, 1.0f);
	tb_world_step(w, DT);
	tb_body_set_linear_velocity(w, a, tb_v2(5.0f, 0.0f));
	tb_body_set_linear_velocity(w, b, tb_v2(5.0f, 0.0f));
	tb_body_set_linear_velocity(w, c, tb_v2(5.0f, 0.0f));
	for (int i = 0; i < 60; ++i) tb_world_step(w, DT);
	float ex = 5.0f * expf(-1.0f);
	assert_near(tb_body_get_linear_velocity(w, a).x, ex, 0.03f * ex);
	assert_near(tb_body_get_linear_velocity(w, b).x, ex, 0.03f * ex);
	assert_near(tb_body_get_linear_velocity(w, c).x, 5.0f, 0.0f);
	tb_destroy_world(w);
}

static void test_field_removed_or_disabled(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_field f;
	memset(&f, 0, sizeof f);
	f.kind = TB_FIELD_LINEAR;
	f.force = tb_v2(6.0f, 0.0f);
	f.use_acceleration = true;
	tb_shape_id zone = make_field_zone(w, tb_vec2_zero, 50.0f, 50.0f, &f);
	tb_body_id ball = make_ball(w, tb_vec2_zero, 0.25f, 1.0f);
	tb_world_step(w, DT);
	float v0 = tb_body_get_linear_velocity(w, ball).x;
	for (int i = 0; i < 10; ++i) tb_world_step(w, DT);
	float v = tb_body_get_linear_velocity(w, ball).x;
	assert_near(v - v0, 1.0f, 1e-3f);

	/* disabled: no field */
	tb_shape_set_enabled(w, zone, false);
	assert_false(tb_shape_is_enabled(w, zone));
	for (int i = 0; i < 10; ++i) tb_world_step(w, DT);
	assert_near(tb_body_get_linear_velocity(w, ball).x, v, 1e-5f);
	/* enabled again: it acts */
	tb_shape_set_enabled(w, zone, true);
	tb_world_step(w, DT);
	v0 = tb_body_get_linear_velocity(w, ball).x;
	for (int i = 0; i < 10; ++i) tb_world_step(w, DT);
	v = tb_body_get_linear_velocity(w, ball).x;
	assert_near(v - v0, 1.0f, 1e-3f);
	/* removed: gone for good */
	assert_int_equal(tb_shape_set_field(w, zone, NULL), TB_OK);
	tb_field back;
	assert_false(tb_shape_get_field(w, zone, &back));
	for (int i = 0; i < 10; ++i) tb_world_step(w, DT);
	assert_near(tb_body_get_linear_velocity(w, ball).x, v, 1e-5f);
	/* kind NONE removes too */
	assert_int_equal(tb_shape_set_field(w, zone, &f), TB_OK);
	tb_field none;
	memset(&none, 0, sizeof none);
	none.kind = TB_FIELD_NONE;
	assert_int_equal(tb_shape_set_field(w, zone, &none), TB_OK);
	assert_false(tb_shape_get_field(w, zone, &back));
	for (int i = 0; i < 10; ++i) tb_world_step(w, DT);
	assert_near(tb_body_get_linear_velocity(w, ball).x, v, 1e-5f);
	/* bad numbers are refused */
	f.force.x = NAN;
	assert_int_not_equal(tb_shape_set_field(w, zone, &f), TB_OK);
	tb_destroy_world(w);
}

/* ---------------- queries ---------------- */

typedef struct ray_hits {
	int count;
	tb_shape_id shapes[8];
	float fractions[8];
	tb_shape_id ignore;
	float ret;
} ray_hits;

static float ray_collect(tb_shape_id shape, tb_vec2 point, tb_vec2 normal, float fraction, void *context)
{
	(void)point;
	(void)normal;
	ray_hits *h = context;
	if (TB_ID_EQUALS(shape, h->ignore)) return -1.0f;
	if (h->count < 8) {
		h->shapes[h->count] = shape;
		h->fractions[h->count] = fraction;
	}
	++h->count;
	return h->ret < 0.0f ? fraction : h->ret;
}

static void test_ray_casts(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_body_id b1 = new_body(w, TB_STATIC_BODY, tb_v2(3.0f, 0.0f), tb_vec2_zero);
	tb_shape_id box1 = add_box_shape(w, b1, 0.5f, 0.5f, false);
	tb_body_id b2 = new_body(w, TB_STATIC_BODY, tb_v2(6.0f, 0.0f), tb_vec2_zero);
	tb_shape_id circ = add_circle_shape(w, b2, 0.5f, false);
	tb_body_id b3 = new_body(w, TB_STATIC_BODY, tb_v2(9.0f, 0.0f), tb_vec2_zero);
	tb_shape_id box3 = add_box_shape(w, b3, 0.5f, 0.5f, false);
	tb_query_filter qf = tb_default_query_filter();

	tb_ray_result r = tb_world_cast_ray_closest(w, tb_v2(0.0f, 0.2f), tb_v2(12.0f, 0.0f), qf);
	assert_true(r.hit);
	assert_true(TB_ID_EQUALS(r.shape, box1));
	assert_vec_near(r.point, 2.5f, 0.2f, 1e-4f);
	assert_vec_near(r.normal, -1.0f, 0.0f, 1e-4f);
	assert_near(r.fraction, 2.5f / 12.0f, 1e-5f);

	r = tb_world_cast_ray_closest(w, tb_v2(12.0f, 0.0f), tb_v2(-12.0f, 0.0f), qf);
	assert_true(r.hit);
	assert_true(TB_ID_EQUALS(r.shape, box3));
	assert_vec_near(r.point, 9.5f, 0.0f, 1e-4f);
	assert_vec_near(r.normal, 1.0f, 0.0f, 1e-4f);

	r = tb_world_cast_ray_closest(w, tb_v2(6.0f, 5.0f), tb_v2(0.0f, -10.0f), qf);
	assert_true(r.hit);
	assert_true(TB_ID_EQUALS(r.shape, circ));
	assert_vec_near(r.point, 6.0f, 0.5f, 1e-4f);
	assert_vec_near(r.normal, 0.0f, 1.0f, 1e-4f);
	assert_near(r.fraction, 0.45f, 1e-5f);

	/* too short, and in a gap: no hit */
	r = tb_world_cast_ray_closest(w, tb_v2(0.0f, 0.0f), tb_v2(2.0f, 0.0f), qf);
	assert_false(r.hit);
	r = tb_world_cast_ray_closest(w, tb_v2(0.0f, 2.0f), tb_v2(12.0f, 0.0f), qf);
	assert_false(r.hit);

	/* all hits: the callback returns 1 and sees the three shapes */
	ray_hits h;
	memset(&h, 0, sizeof h);
	h.ret = 1.0f;
	tb_world_cast_ray(w, tb_v2(0.0f, 0.0f), tb_v2(12.0f, 0.0f), qf, ray_collect, &h);
	assert_int_equal(h.count, 3);
	bool seen[3] = {false, false, false};
	for (int i = 0; i < 3; ++i) {
		if (TB_ID_EQUALS(h.shapes[i], box1)) {
			seen[0] = true;
			assert_near(h.fractions[i], 2.5f / 12.0f, 1e-5f);
		}
		if (TB_ID_EQUALS(h.shapes[i], circ)) {
			seen[1] = true;
			assert_near(h.fractions[i], 5.5f / 12.0f, 1e-5f);
		}
		if (TB_ID_EQUALS(h.shapes[i], box3)) {
			seen[2] = true;
			assert_near(h.fractions[i], 8.5f / 12.0f, 1e-5f);
		}
	}
	assert_true(seen[0] && seen[1] && seen[2]);

	/* return 0 stops at the first reported hit */
	memset(&h, 0, sizeof h);
	h.ret = 0.0f;
	tb_world_cast_ray(w, tb_v2(0.0f, 0.0f), tb_v2(12.0f, 0.0f), qf, ray_collect, &h);
	assert_int_equal(h.count, 1);

	/* -1 ignores a shape; clipping to the fraction finds the next closest */
	memset(&h, 0, sizeof h);
	h.ret = -1.0f;
	h.ignore = box1;
	tb_world_cast_ray(w, tb_v2(0.0f, 0.0f), tb_v2(12.0f, 0.0f), qf, ray_collect, &h);
	assert_true(h.count >= 1);
	float best = 2.0f;
	tb_shape_id best_shape = tb_null_shape_id;
	for (int i = 0; i < h.count && i < 8; ++i) {
		if (h.fractions[i] < best) {
			best = h.fractions[i];
			best_shape = h.shapes[i];
		}
	}
	assert_true(TB_ID_EQUALS(best_shape, circ));

	/* the filter: a mask that excludes the box's category skips it */
	tb_filter fl = tb_shape_get_filter(w, box1);
	fl.category_bits = 2;
	tb_shape_set_filter(w, box1, fl);
	qf.mask_bits = ~(uint64_t)2;
	r = tb_world_cast_ray_closest(w, tb_v2(0.0f, 0.0f), tb_v2(12.0f, 0.0f), qf);
	assert_true(r.hit);
	assert_true(TB_ID_EQUALS(r.shape, circ));

	/* a single shape */
	tb_cast_output o = tb_shape_ray_cast(w, box3, tb_v2(9.0f, 5.0f), tb_v2(0.0f, -10.0f));
	assert_true(o.hit);
	assert_vec_near(o.point, 9.0f, 0.5f, 1e-4f);
	tb_destroy_world(w);
}

typedef struct shape_set {
	int count;
	tb_shape_id ids[512];
} shape_set;

static bool collect_shape(tb_shape_id shape, void *context)
{
	shape_set *s = context;
	if (s->count < 512) s->ids[s->count] = shape;
	++s->count;
	return true;
}

static bool set_has(const shape_set *s, tb_shape_id id)
{
	for (int i = 0; i < s->count && i < 512; ++i)
		if (TB_ID_EQUALS(s->ids[i], id)) return true;
	return false;
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static float frand(uint32_t *s, float lo, float hi)
{
	return lo + (hi - lo) * (float)(lcg(s) & 0xFFFFu) / 65535.0f;
}

static void test_aabb_query_matches_brute_force(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	enum { N = 200 };
	tb_shape_id shapes[N];
	uint32_t seed = 99u;
	tb_shape_def sd = tb_default_shape_def();
	for (int i = 0; i < N; ++i) {
		tb_body_def bd = tb_default_body_def();
		bd.type = (i % 4 == 0) ? TB_DYNAMIC_BODY : TB_STATIC_BODY;
		bd.position = tb_v2(frand(&seed, -20.0f, 20.0f), frand(&seed, -20.0f, 20.0f));
		bd.angle = frand(&seed, -3.0f, 3.0f);
		tb_body_id b = tb_create_body(w, &bd, NULL);
		float size = frand(&seed, 0.2f, 1.5f);
		if (i % 3 == 0) {
			tb_circle c = {{frand(&seed, -0.5f, 0.5f), 0.0f}, size};
			shapes[i] = tb_create_circle_shape(w, b, &sd, &c, NULL);
		} else if (i % 3 == 1) {
			tb_polygon p = tb_make_box(size, 0.5f * size);
			shapes[i] = tb_create_polygon_shape(w, b, &sd, &p, NULL);
		} else {
			tb_capsule c = {{-size, 0.0f}, {size, 0.2f}, 0.3f};
			shapes[i] = tb_create_capsule_shape(w, b, &sd, &c, NULL);
		}
		assert_false(TB_IS_NULL(shapes[i]));
	}
	/* the dynamic ones have moved a little and the tree has fattened boxes */
	for (int i = 0; i < 3; ++i) tb_world_step(w, DT);
	tb_query_filter qf = tb_default_query_filter();
	for (int q = 0; q < 30; ++q) {
		tb_vec2 c = tb_v2(frand(&seed, -20.0f, 20.0f), frand(&seed, -20.0f, 20.0f));
		tb_vec2 e = tb_v2(frand(&seed, 0.5f, 6.0f), frand(&seed, 0.5f, 6.0f));
		tb_aabb box = {tb_sub(c, e), tb_add(c, e)};
		shape_set got;
		got.count = 0;
		tb_world_query_aabb(w, box, qf, collect_shape, &got);
		int expected = 0;
		for (int i = 0; i < N; ++i) {
			bool overlap = tb_aabb_overlaps(tb_shape_get_aabb(w, shapes[i]), box);
			expected += overlap;
			if (overlap != set_has(&got, shapes[i]))
				fail_msg("query %d: shape %d overlap %d but reported %d", q, i, overlap, !overlap);
		}
		assert_int_equal(got.count, expected);
	}
	tb_destroy_world(w);
}

static void test_point_query(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_id b1 = new_body(w, TB_STATIC_BODY, tb_vec2_zero, tb_vec2_zero);
	tb_shape_id box = add_box_shape(w, b1, 1.0f, 1.0f, false);
	tb_body_id b2 = new_body(w, TB_STATIC_BODY, tb_v2(1.5f, 0.0f), tb_vec2_zero);
	tb_shape_id circ = add_circle_shape(w, b2, 1.0f, false);
	tb_query_filter qf = tb_default_query_filter();
	struct {
		tb_vec2 p;
		bool in_box, in_circle;
	} cases[] = {
		{{0.8f, 0.0f}, true, true},
		{{-0.9f, 0.9f}, true, false},
		{{2.4f, 0.0f}, false, true},
		{{1.5f, 1.2f}, false, false},
		{{0.95f, 0.95f}, true, false}, /* inside the box, in the circle's AABB, outside the circle */
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		shape_set got;
		got.count = 0;
		tb_world_query_point(w, cases[i].p, qf, collect_shape, &got);
		assert_int_equal(got.count, (int)cases[i].in_box + (int)cases[i].in_circle);
		assert_true(set_has(&got, box) == cases[i].in_box);
		assert_true(set_has(&got, circ) == cases[i].in_circle);
		assert_true(tb_shape_test_point(w, box, cases[i].p) == cases[i].in_box);
		assert_true(tb_shape_test_point(w, circ, cases[i].p) == cases[i].in_circle);
	}
	tb_destroy_world(w);
}

static void test_overlap_is_exact(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_body_id ba = new_body(w, TB_STATIC_BODY, tb_vec2_zero, tb_vec2_zero);
	tb_shape_id a = add_circle_shape(w, ba, 1.0f, false);
	/* B: boxes overlap, circles 2.26 m apart (> 2) */
	tb_body_id bb = new_body(w, TB_STATIC_BODY, tb_v2(1.6f, 1.6f), tb_vec2_zero);
	tb_shape_id b = add_circle_shape(w, bb, 1.0f, false);
	/* C: really overlapping A */
	tb_body_id bc = new_body(w, TB_STATIC_BODY, tb_v2(1.9f, 0.0f), tb_vec2_zero);
	tb_shape_id c = add_circle_shape(w, bc, 1.0f, false);
	assert_true(tb_aabb_overlaps(tb_shape_get_aabb(w, a), tb_shape_get_aabb(w, b)));
	tb_query_filter qf = tb_default_query_filter();

	shape_set got;
	got.count = 0;
	tb_world_overlap_shape(w, a, qf, collect_shape, &got);
	assert_int_equal(got.count, 1);
	assert_true(set_has(&got, c));
	assert_false(set_has(&got, a));
	assert_false(set_has(&got, b));

	/* a probe circle r = 0.5 at (1.2, 1.2): B (0.57 away) and C (1.39) yes, A (1.70) no */
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CIRCLE;
	g.circle.radius = 0.5f;
	tb_transform xf = {{1.2f, 1.2f}, {1.0f, 0.0f}};
	got.count = 0;
	tb_world_overlap_geometry(w, &g, xf, qf, collect_shape, &got);
	assert_int_equal(got.count, 2);
	assert_true(set_has(&got, b));
	assert_true(set_has(&got, c));
	tb_destroy_world(w);
}

static void test_collide_shapes_no_response(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, 0.0f));
	tb_shape_def sd = tb_default_shape_def();
	sd.filter.group_index = -1; /* never collide with each other */
	tb_circle c = {{0.0f, 0.0f}, 1.0f};
	tb_body_id ba = new_body(w, TB_DYNAMIC_BODY, tb_vec2_zero, tb_v2(0.5f, 0.0f));
	tb_shape_id a = tb_create_circle_shape(w, ba, &sd, &c, NULL);
	tb_body_id bb = new_body(w, TB_DYNAMIC_BODY, tb_v2(1.5f, 0.0f), tb_v2(-0.5f, 0.0f));
	tb_shape_id b = tb_create_circle_shape(w, bb, &sd, &c, NULL);

	tb_manifold m = tb_world_collide_shapes(w, a, b);
	assert_int_equal(m.point_count, 1);
	assert_vec_near(m.normal, 1.0f, 0.0f, 1e-5f);
	assert_near(m.points[0].separation, -0.5f, 1e-4f);
	assert_vec_near(m.points[0].point, 0.75f, 0.0f, 1e-4f);
	/* reversed order flips the normal */
	tb_manifold r = tb_world_collide_shapes(w, b, a);
	assert_vec_near(r.normal, -1.0f, 0.0f, 1e-5f);

	for (int i = 0; i < 30; ++i) {
		tb_world_step(w, DT);
		tb_contact_events ev = tb_world_get_contact_events(w);
		assert_int_equal(ev.begin_count, 0);
	}
	assert_vec_near(tb_body_get_linear_velocity(w, ba), 0.5f, 0.0f, 0.0f);
	assert_vec_near(tb_body_get_linear_velocity(w, bb), -0.5f, 0.0f, 0.0f);
	assert_int_equal(tb_world_get_counters(w).touching_contact_count, 0);
	/* each moved 0.25 m inwards: 1 m apart centre to centre */
	m = tb_world_collide_shapes(w, a, b);
	assert_int_equal(m.point_count, 1);
	assert_near(m.points[0].separation, -1.0f, 1e-3f);

	/* far apart: nothing; stale: nothing */
	tb_body_set_transform(w, bb, tb_v2(10.0f, 0.0f), 0.0f);
	assert_int_equal(tb_world_collide_shapes(w, a, b).point_count, 0);
	tb_destroy_body(w, bb);
	assert_int_equal(tb_world_collide_shapes(w, a, b).point_count, 0);
	tb_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_begin_once_end_on_lift),
		cmocka_unit_test(test_begin_event_data),
		cmocka_unit_test(test_hit_events),
		cmocka_unit_test(test_contact_events_flag),
		cmocka_unit_test(test_sensor_enter_exit),
		cmocka_unit_test(test_clear_delivers_end_and_exit_events),
		cmocka_unit_test(test_destroyed_sensor_reports_exits),
		cmocka_unit_test(test_linear_field),
		cmocka_unit_test(test_linear_field_acceleration),
		cmocka_unit_test(test_radial_field),
		cmocka_unit_test(test_radial_inverse_square),
		cmocka_unit_test(test_drag_field),
		cmocka_unit_test(test_field_removed_or_disabled),
		cmocka_unit_test(test_hit_events_in_slot_order),
		cmocka_unit_test(test_ray_casts),
		cmocka_unit_test(test_aabb_query_matches_brute_force),
		cmocka_unit_test(test_point_query),
		cmocka_unit_test(test_overlap_is_exact),
		cmocka_unit_test(test_collide_shapes_no_response),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
