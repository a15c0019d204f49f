/* tumble: a hidden test hook, tumble._c_reference_scene(n_steps). It builds in C,
 * with exactly the engine calls the binding makes, the scene that
 * tests/lua/determinism_spec.lua builds from Lua, steps it, and returns every
 * body's x, y, angle (creation order) and the world hash. The spec compares the
 * two with ==: the binding must add nothing to the physics (no rounding through
 * other types, no different defaults, no extra calls). */
#include <inttypes.h>
#include <stdio.h>

#include "lua_internal.h"

static tb_body_id body(tb_world *w, tb_body_type type, double x, double y)
{
	tb_body_def d = tb_default_body_def();
	d.type = type;
	d.position = tb_v2((float)x, (float)y);
	return tb_create_body(w, &d, NULL);
}

static tb_shape_def shape_def(void)
{
	tb_shape_def d = tb_default_shape_def();
	d.user_data = NULL;
	return d;
}

static void box(tb_world *w, tb_body_id b, double width, double height)
{
	tb_shape_def d = shape_def();
	tb_geometry g = {0};
	g.type = TB_SHAPE_POLYGON;
	g.polygon = tb_make_offset_box(0.5f * (float)width, 0.5f * (float)height, tb_v2(0.0f, 0.0f), tb_make_rot(0.0f));
	g.polygon.radius = 0.0f;
	tb_create_shape(w, b, &d, &g, NULL);
}

static void circle(tb_world *w, tb_body_id b, double r, double density, double restitution)
{
	tb_shape_def d = shape_def();
	d.density = (float)density;
	d.restitution = (float)restitution;
	tb_geometry g = {0};
	g.type = TB_SHAPE_CIRCLE;
	g.circle.radius = (float)r;
	tb_create_shape(w, b, &d, &g, NULL);
}

int tl_c_reference_scene(lua_State *L)
{
	int steps = tl_int_range(L, 1, TL_ARG(1), 0, 100000);
	tb_world_def wd = tb_default_world_def();
	tb_world *w = tb_create_world(&wd);
	if (w == NULL) return luaL_error(L, "could not create the world");

	/* ground */
	tb_body_id ground = body(w, TB_STATIC_BODY, 0.0, 0.0);
	box(w, ground, 40.0, 1.0);
	/* a pyramid of unit boxes */
	for (int row = 0; row < 4; ++row) {
		for (int i = 0; i < 4 - row; ++i) {
			tb_body_id b = body(w, TB_DYNAMIC_BODY, -1.5 + row * 0.5 + i * 1.0, 1.0 + row * 1.0);
			box(w, b, 1.0, 1.0);
		}
	}
	/* bouncing balls */
	for (int i = 0; i < 3; ++i) {
		tb_body_id b = body(w, TB_DYNAMIC_BODY, -4.0 + i * 0.75, 6.0 + i);
		circle(w, b, 0.25 + 0.125 * i, 2.0, 0.5);
	}
	/* a spinning capsule */
	{
		tb_body_def d = tb_default_body_def();
		d.type = TB_DYNAMIC_BODY;
		d.position = tb_v2(4.0f, 5.0f);
		d.angle = 0.5f;
		d.angular_velocity = 2.0f;
		tb_body_id b = tb_create_body(w, &d, NULL);
		tb_shape_def sd = shape_def();
		tb_geometry g = {0};
		g.type = TB_SHAPE_CAPSULE;
		g.capsule.center1 = tb_v2(-0.5f, 0.0f);
		g.capsule.center2 = tb_v2(0.5f, 0.0f);
		g.capsule.radius = 0.25f;
		tb_create_shape(w, b, &sd, &g, NULL);
	}
	/* a pendulum on a revolute joint */
	{
		tb_body_id arm = body(w, TB_DYNAMIC_BODY, 6.0, 3.0);
		box(w, arm, 0.5, 2.0);
		tb_joint_def jd = tb_default_joint_def(TB_JOINT_REVOLUTE);
		jd.body_a = ground;
		jd.body_b = arm;
		tb_vec2 anchor = tb_v2(6.5f, 4.0f);
		jd.local_anchor_a = tb_body_get_local_point(w, ground, anchor);
		jd.local_anchor_b = tb_body_get_local_point(w, arm, anchor);
		jd.reference_angle = tb_body_get_angle(w, arm) - tb_body_get_angle(w, ground);
		jd.target = anchor;
		tb_create_joint(w, &jd, NULL);
	}
	/* a fast bullet */
	{
		tb_body_def d = tb_default_body_def();
		d.type = TB_DYNAMIC_BODY;
		d.position = tb_v2(-8.0f, 2.0f);
		d.linear_velocity = tb_v2(30.0f, 0.0f);
		d.is_bullet = true;
		tb_body_id b = tb_create_body(w, &d, NULL);
		circle(w, b, 0.2, 1.0, 0.0);
	}
	/* a damped ball */
	{
		tb_body_def d = tb_default_body_def();
		d.type = TB_DYNAMIC_BODY;
		d.position = tb_v2(8.0f, 8.0f);
		d.linear_damping = 0.5f;
		tb_body_id b = tb_create_body(w, &d, NULL);
		circle(w, b, 0.5, 1.0, 0.0);
	}

	float dt = (float)(1.0 / 60.0);
	for (int i = 0; i < steps; ++i) tb_world_step(w, dt);

	int n = tb_world_get_bodies(w, NULL, 0);
	lua_createtable(L, 3 * n, 0);
	tb_body_id ids[64];
	if (n > 64) n = 64;
	n = tb_world_get_bodies(w, ids, n);
	for (int i = 0; i < n; ++i) {
		tb_vec2 p = tb_body_get_position(w, ids[i]);
		lua_pushnumber(L, p.x);
		lua_rawseti(L, -2, 3 * i + 1);
		lua_pushnumber(L, p.y);
		lua_rawseti(L, -2, 3 * i + 2);
		lua_pushnumber(L, tb_body_get_angle(w, ids[i]));
		lua_rawseti(L, -2, 3 * i + 3);
	}
	char hash[32];
	snprintf(hash, sizeof hash, "%016" PRIx64, tb_world_hash(w));
	tb_destroy_world(w);
	lua_pushstring(L, hash);
	return 2;
}

/* tumble._c_default_settings() -> the engine's tb_default_world_def() as a table
 * keyed by the binding's setting names, read here field by field and not through
 * the World properties, so a spec can check that the names map to the right fields. */
int tl_c_default_settings(lua_State *L)
{
	tb_world_def d = tb_default_world_def();
	lua_createtable(L, 0, 12);
	lua_pushnumber(L, d.gravity.x);
	lua_setfield(L, -2, "gravity_x");
	lua_pushnumber(L, d.gravity.y);
	lua_setfield(L, -2, "gravity_y");
	lua_pushinteger(L, d.substeps);
	lua_setfield(L, -2, "substeps");
	lua_pushnumber(L, d.contact_hertz);
	lua_setfield(L, -2, "contact_hertz");
	lua_pushnumber(L, d.contact_damping_ratio);
	lua_setfield(L, -2, "contact_damping_ratio");
	lua_pushnumber(L, d.joint_hertz);
	lua_setfield(L, -2, "joint_hertz");
	lua_pushnumber(L, d.joint_damping_ratio);
	lua_setfield(L, -2, "joint_damping_ratio");
	lua_pushnumber(L, d.max_contact_push_speed);
	lua_setfield(L, -2, "max_push_speed");
	lua_pushnumber(L, d.restitution_threshold);
	lua_setfield(L, -2, "restitution_threshold");
	lua_pushnumber(L, d.hit_event_threshold);
	lua_setfield(L, -2, "hit_threshold");
	lua_pushnumber(L, d.max_linear_speed);
	lua_setfield(L, -2, "max_linear_speed");
	lua_pushnumber(L, d.time_to_sleep);
	lua_setfield(L, -2, "time_to_sleep");
	return 1;
}
