/* Shared helpers for the engine's cmocka tests: assertions on floats and the
 * scene builders the test files share (test_util.c). Every builder asserts
 * that what it makes was made. */
#ifndef TB_TEST_UTIL_H
#define TB_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>

#include "tumble/physics.h"

/* Fails with both numbers printed when |a - b| > tol. */
#define assert_near(a, b, tol)                                                                             \
	do {                                                                                                   \
		double a_ = (double)(a), b_ = (double)(b), t_ = (double)(tol);                                    \
		if (!(fabs(a_ - b_) <= t_)) fail_msg("%s = %.9g, expected %.9g (tolerance %.3g)", #a, a_, b_, t_); \
	} while (0)

#define assert_vec_near(v, ex, ey, tol)                                                                    \
	do {                                                                                                   \
		assert_near((v).x, (ex), (tol));                                                                   \
		assert_near((v).y, (ey), (tol));                                                                   \
	} while (0)

/* The step every scene test takes. */
#define TU_DT (1.0f / 60.0f)

/* A world with the default settings and this gravity, or with a whole def. */
tb_world *tu_world(tb_vec2 gravity);
tb_world *tu_world_with(const tb_world_def *def);
/* Steps of TU_DT. */
void tu_step(tb_world *w, int steps);

tb_body_id tu_body(tb_world *w, tb_body_type type, tb_vec2 position);
tb_body_id tu_body_moving(tb_world *w, tb_body_type type, tb_vec2 position, float angle, tb_vec2 velocity,
                          float angular_velocity);

/* Shapes centred on the body's origin: density alone, or a whole def. */
tb_shape_id tu_box(tb_world *w, tb_body_id body, float half_width, float half_height, float density);
tb_shape_id tu_circle(tb_world *w, tb_body_id body, float radius, float density);
tb_shape_id tu_box_with(tb_world *w, tb_body_id body, float half_width, float half_height, const tb_shape_def *def);
tb_shape_id tu_circle_with(tb_world *w, tb_body_id body, float radius, const tb_shape_def *def);

/* A body with one box or circle. */
tb_body_id tu_box_body(tb_world *w, tb_body_type type, tb_vec2 position, float half_width, float half_height,
                       float density);
tb_body_id tu_circle_body(tb_world *w, tb_body_type type, tb_vec2 position, float radius, float density);
/* A static box 2 m thick whose top face is at y = top. */
tb_body_id tu_ground(tb_world *w, float top, float half_width);

tb_shape_id tu_first_shape(const tb_world *w, tb_body_id body);

#endif
