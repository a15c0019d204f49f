/* The scene builders shared by the engine's tests (test_util.h). */
#include "test_util.h"

tb_world *tu_world_with(const tb_world_def *def)
{
	tb_world *w = tb_create_world(def);
	assert_non_null(w);
	return w;
}

tb_world *tu_world(tb_vec2 gravity)
{
	tb_world_def def = tb_default_world_def();
	def.gravity = gravity;
	return tu_world_with(&def);
}

void tu_step(tb_world *w, int steps)
{
	for (int i = 0; i < steps; ++i) tb_world_step(w, TU_DT);
}

tb_body_id tu_body_moving(tb_world *w, tb_body_type type, tb_vec2 position, float angle, tb_vec2 velocity,
                          float angular_velocity)
{
	tb_body_def def = tb_default_body_def();
	def.type = type;
	def.position = position;
	def.angle = angle;
	def.linear_velocity = velocity;
	def.angular_velocity = angular_velocity;
	tb_status status = TB_STATUS_COUNT;
	tb_body_id id = tb_create_body(w, &def, &status);
	assert_int_equal(status, TB_OK);
	assert_false(TB_IS_NULL(id));
	return id;
}

tb_body_id tu_body(tb_world *w, tb_body_type type, tb_vec2 position)
{
	return tu_body_moving(w, type, position, 0.0f, tb_vec2_zero, 0.0f);
}

static tb_shape_id made(tb_shape_id id, tb_status status)
{
	assert_int_equal(status, TB_OK);
	assert_false(TB_IS_NULL(id));
	return id;
}

tb_shape_id tu_box_with(tb_world *w, tb_body_id body, float half_width, float half_height, const tb_shape_def *def)
{
	tb_polygon box = tb_make_box(half_width, half_height);
	tb_status status = TB_STATUS_COUNT;
	tb_shape_id id = tb_create_polygon_shape(w, body, def, &box, &status);
	return made(id, status);
}

tb_shape_id tu_circle_with(tb_world *w, tb_body_id body, float radius, const tb_shape_def *def)
{
	tb_circle circle = {{0.0f, 0.0f}, radius};
	tb_status status = TB_STATUS_COUNT;
	tb_shape_id id = tb_create_circle_shape(w, body, def, &circle, &status);
	return made(id, status);
}

tb_shape_id tu_box(tb_world *w, tb_body_id body, float half_width, float half_height, float density)
{
	tb_shape_def def = tb_default_shape_def();
	def.density = density;
	return tu_box_with(w, body, half_width, half_height, &def);
}

tb_shape_id tu_circle(tb_world *w, tb_body_id body, float radius, float density)
{
	tb_shape_def def = tb_default_shape_def();
	def.density = density;
	return tu_circle_with(w, body, radius, &def);
}

tb_body_id tu_box_body(tb_world *w, tb_body_type type, tb_vec2 position, float half_width, float half_height,
                       float density)
{
	tb_body_id id = tu_body(w, type, position);
	tu_box(w, id, half_width, half_height, density);
	return id;
}

tb_body_id tu_circle_body(tb_world *w, tb_body_type type, tb_vec2 position, float radius, float density)
{
	tb_body_id id = tu_body(w, type, position);
	tu_circle(w, id, radius, density);
	return id;
}

tb_body_id tu_ground(tb_world *w, float top, float half_width)
{
	return tu_box_body(w, TB_STATIC_BODY, tb_v2(0.0f, top - 1.0f), half_width, 1.0f, 1.0f);
}

tb_shape_id tu_first_shape(const tb_world *w, tb_body_id body)
{
	tb_shape_id id = tb_null_shape_id;
	assert_int_equal(tb_body_get_shapes(w, body, &id, 1), 1);
	return id;
}
