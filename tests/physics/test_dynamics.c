/* The engine against theory: free fall and projectiles against the discrete
 * closed form of symplectic Euler, bounce heights against e^2, the friction
 * angle on a ramp, momentum in free collisions, and a collision of two rough
 * balls worked by hand. */
#include "test_util.h"

#include <string.h>

#define DT TU_DT

static tb_world *new_world(tb_vec2 gravity, int substeps)
{
	tb_world_def wd = tb_default_world_def();
	wd.gravity = gravity;
	wd.substeps = substeps;
	return tu_world_with(&wd);
}

static tb_shape_def material(float density, float friction, float restitution)
{
	tb_shape_def sd = tb_default_shape_def();
	sd.density = density;
	sd.friction = friction;
	sd.restitution = restitution;
	return sd;
}

static tb_shape_id add_circle(tb_world *w, tb_body_id b, float r, float density, float friction, float restitution)
{
	tb_shape_def sd = material(density, friction, restitution);
	return tu_circle_with(w, b, r, &sd);
}

static tb_shape_id add_box(tb_world *w, tb_body_id b, float hx, float hy, float density, float friction,
                           float restitution)
{
	tb_shape_def sd = material(density, friction, restitution);
	return tu_box_with(w, b, hx, hy, &sd);
}

/* Relative comparison with an absolute floor for values near zero. */
#define assert_rel(a, b, rel) assert_near((a), (b), (rel) * fmax(fabs((double)(b)), 1.0))

/* ---------------- free fall and projectiles ---------------- */

/* Symplectic Euler over n substeps of h from (y0, v0): v_k = v0 + k g h,
 * y_n = y0 + v0 n h + g h^2 n (n + 1) / 2. */
static double discrete_y(double y0, double v0, double g, double h, int n)
{
	return y0 + v0 * n * h + g * h * h * (double)n * (double)(n + 1) / 2.0;
}

static void check_projectile(int substeps, tb_vec2 v0, int steps)
{
	const float g = -10.0f;
	tb_world *w = new_world(tb_v2(0.0f, g), substeps);
	tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 0.0f, v0, 0.0f);
	add_circle(w, b, 0.25f, 1.0f, 0.6f, 0.0f);
	for (int i = 0; i < steps; ++i) tb_world_step(w, DT);

	double h = (double)DT / substeps;
	int n = steps * substeps;
	double t = (double)n * h;
	tb_vec2 p = tb_body_get_position(w, b);
	tb_vec2 v = tb_body_get_linear_velocity(w, b);

	/* x: uniform motion */
	assert_rel(p.x, v0.x * t, 1e-3);
	/* y: the integrator's own closed form, displacement within 1e-3 relative */
	double dy_disc = discrete_y(0.0, v0.y, g, h, n);
	assert_near(p.y, dy_disc, 1e-3 * fmax(fabs(dy_disc), 1e-2));
	/* and the continuous parabola within the first-order error |g| h t / 2 */
	double dy_cont = v0.y * t + 0.5 * g * t * t;
	double bound = fabs(g) * h * t / 2.0;
	assert_near(p.y, dy_cont, bound * 1.01 + 1e-4);
	/* velocity is exact in both */
	assert_rel(v.x, v0.x, 1e-5);
	assert_rel(v.y, v0.y + g * t, 1e-4);
	tb_destroy_world(w);
}

static void test_free_fall(void **state)
{
	(void)state;
	check_projectile(4, tb_v2(0.0f, 0.0f), 60);
	check_projectile(1, tb_v2(0.0f, 0.0f), 60);
	check_projectile(8, tb_v2(0.0f, 0.0f), 90);
}

static void test_projectile(void **state)
{
	(void)state;
	check_projectile(4, tb_v2(3.0f, 12.0f), 120);
	check_projectile(2, tb_v2(-5.0f, 7.0f), 100);
}

/* The first-order error term is really there: with one substep the body lands
 * measurably above the parabola, by |g| h t / 2 (not at the explicit-Euler side). */
static void test_integrator_order(void **state)
{
	(void)state;
	tb_world *w = new_world(tb_v2(0.0f, -10.0f), 1);
	tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 0.0f, tb_vec2_zero, 0.0f);
	add_circle(w, b, 0.25f, 1.0f, 0.6f, 0.0f);
	for (int i = 0; i < 60; ++i) tb_world_step(w, DT);
	/* continuous: -5; symplectic: -5 - 10 * (1/60) / 2 = -5.0833 */
	assert_near(tb_body_get_position(w, b).y, -5.0f - 5.0f / 60.0f, 1e-3f);
	tb_destroy_world(w);
}

/* ---------------- restitution ---------------- */

/* Drops a ball so that it reaches 1 cm above the ground exactly at a step
 * boundary at 10 m/s, then measures the first rebound apex. */
static void check_bounce(float e_ball, float e_ground)
{
	tb_world *w = new_world(tb_v2(0.0f, -10.0f), 4);
	tb_body_id ground = tu_body_moving(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f), 0.0f, tb_vec2_zero, 0.0f);
	add_box(w, ground, 20.0f, 1.0f, 1.0f, 0.6f, e_ground);
	const float r = 0.5f;
	const double h = 1.0 / 240.0;
	const double fall = 10.0 * h * h * 240.0 * 241.0 / 2.0; /* distance fallen in 60 steps */
	const double drop = fall + 0.01;                          /* bottom of the ball above the ground */
	tb_body_id ball = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, (float)(r + drop)), 0.0f, tb_vec2_zero, 0.0f);
	add_circle(w, ball, r, 1.0f, 0.6f, e_ball);

	bool bounced = false;
	float apex = -1.0f;
	for (int i = 0; i < 400; ++i) {
		tb_world_step(w, DT);
		tb_vec2 p = tb_body_get_position(w, ball);
		float vy = tb_body_get_linear_velocity(w, ball).y;
		assert_true(p.y > r - 0.1f); /* never sinks into the ground */
		if (!bounced && vy > 0.0f) bounced = true;
		if (bounced) {
			if (p.y - r > apex) apex = p.y - r;
			if (vy < 0.0f) break;
		}
	}
	assert_true(bounced);
	float e = e_ball > e_ground ? e_ball : e_ground; /* max mixing */
	double ratio = apex / drop;
	print_message("# bounce e=%.2f: apex %.4f m, drop %.4f m, ratio %.4f, e^2 %.4f\n", e, apex, drop, ratio,
	              e * e);
	assert_near(ratio, e * e, 0.05 * e * e);
	tb_destroy_world(w);
}

static void test_bounce_height(void **state)
{
	(void)state;
	check_bounce(0.5f, 0.5f);
	check_bounce(0.8f, 0.8f);
	/* mixing is max(a, b): a lively ball on a dead floor still bounces */
	check_bounce(0.5f, 0.0f);
	check_bounce(0.8f, 0.0f);
}

/* Slow approach (below the restitution threshold) does not bounce. */
static void test_no_bounce_below_threshold(void **state)
{
	(void)state;
	tb_world *w = new_world(tb_v2(0.0f, -10.0f), 4);
	tb_body_id ground = tu_body_moving(w, TB_STATIC_BODY, tb_v2(0.0f, -1.0f), 0.0f, tb_vec2_zero, 0.0f);
	add_box(w, ground, 20.0f, 1.0f, 1.0f, 0.6f, 1.0f);
	/* 2 cm drop: about 0.63 m/s at impact, threshold is 1 m/s */
	tb_body_id ball = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.52f), 0.0f, tb_vec2_zero, 0.0f);
	add_circle(w, ball, 0.5f, 1.0f, 0.6f, 1.0f);
	float max_up = 0.0f;
	for (int i = 0; i < 120; ++i) {
		tb_world_step(w, DT);
		float vy = tb_body_get_linear_velocity(w, ball).y;
		if (vy > max_up) max_up = vy;
	}
	assert_true(max_up < 0.2f);
	assert_near(tb_body_get_position(w, ball).y, 0.5f, 0.01f);
	tb_destroy_world(w);
}

/* ---------------- friction angle ---------------- */

/* A unit box on a ramp of angle theta; both friction coefficients as given.
 * Returns the distance slid down the ramp after `seconds`. */
static float ramp_slide(float theta, float mu_box, float mu_ramp, float seconds, float *angle_change)
{
	tb_world *w = new_world(tb_v2(0.0f, -10.0f), 4);
	tb_body_id ramp = tu_body_moving(w, TB_STATIC_BODY, tb_v2(0.0f, 0.0f), theta, tb_vec2_zero, 0.0f);
	add_box(w, ramp, 30.0f, 0.5f, 1.0f, mu_ramp, 0.0f);
	tb_vec2 n = tb_v2(-sinf(theta), cosf(theta));
	tb_vec2 u = tb_v2(cosf(theta), sinf(theta));
	tb_vec2 p0 = tb_mul_sv(1.0f, n); /* half ramp thickness + half box */
	tb_body_id box = tu_body_moving(w, TB_DYNAMIC_BODY, p0, theta, tb_vec2_zero, 0.0f);
	add_box(w, box, 0.5f, 0.5f, 1.0f, mu_box, 0.0f);
	int steps = (int)(seconds * 60.0f + 0.5f);
	for (int i = 0; i < steps; ++i) tb_world_step(w, DT);
	tb_vec2 d = tb_sub(tb_body_get_position(w, box), p0);
	*angle_change = tb_body_get_angle(w, box) - theta;
	/* stays on the ramp surface */
	assert_near(tb_dot(d, n), 0.0f, 0.02f);
	tb_destroy_world(w);
	return -tb_dot(d, u);
}

static void check_friction_angle(float mu_box, float mu_ramp)
{
	float mu = sqrtf(mu_box * mu_ramp);
	float crit = atanf(mu);
	float three = 3.0f * TB_PI / 180.0f;
	float dangle;

	/* below the friction angle: static friction holds */
	float held = ramp_slide(crit - three, mu_box, mu_ramp, 3.0f, &dangle);
	print_message("# mu %.3f at %.2f deg: slid %.5f m\n", mu, (crit - three) * 180.0f / TB_PI, held);
	assert_true(fabsf(held) < 0.01f);
	assert_near(dangle, 0.0f, 0.01f);

	/* above: it slides with a = g (sin - mu cos) */
	float theta = crit + three;
	float t = 2.0f;
	float slid = ramp_slide(theta, mu_box, mu_ramp, t, &dangle);
	float a = 10.0f * (sinf(theta) - mu * cosf(theta));
	float expect = 0.5f * a * t * t;
	print_message("# mu %.3f at %.2f deg: slid %.4f m, expected %.4f m\n", mu, theta * 180.0f / TB_PI, slid,
	              expect);
	assert_near(slid, expect, 0.15f * expect);
	assert_near(dangle, 0.0f, 0.01f);
}

static void test_ramp_friction_angle(void **state)
{
	(void)state;
	check_friction_angle(0.3f, 0.3f);
	check_friction_angle(0.6f, 0.6f);
	/* geometric mean mixing: sqrt(0.25 * 1.0) = 0.5 */
	check_friction_angle(0.25f, 1.0f);
}

/* ---------------- momentum ---------------- */

typedef struct momentum { double px, py, l; } momentum;

static momentum total_momentum(tb_world *w, const tb_body_id *ids, int count)
{
	momentum m = {0.0, 0.0, 0.0};
	for (int i = 0; i < count; ++i) {
		double mass = tb_body_get_mass(w, ids[i]);
		double inertia = tb_body_get_inertia(w, ids[i]);
		tb_vec2 c = tb_body_get_world_center(w, ids[i]);
		tb_vec2 v = tb_body_get_linear_velocity(w, ids[i]);
		double omega = tb_body_get_angular_velocity(w, ids[i]);
		m.px += mass * v.x;
		m.py += mass * v.y;
		m.l += mass * ((double)c.x * v.y - (double)c.y * v.x) + inertia * omega;
	}
	return m;
}

/* Linear momentum is conserved step by step. Angular momentum: every contact
 * impulse pair acts at one point of the configuration it was computed for, so
 * L evaluated at the step's starting centres is conserved exactly by the
 * impulses (this checks the angular terms of the solver). Returns L before and
 * after the whole collision, evaluated at the current centres. */
static void check_momentum(tb_world *w, tb_body_id a, tb_body_id b, double *l_before, double *l_after)
{
	tb_body_id ids[2] = {a, b};
	momentum m0 = total_momentum(w, ids, 2);
	tb_vec2 vb0 = tb_body_get_linear_velocity(w, b);
	tb_vec2 va0 = tb_body_get_linear_velocity(w, a);
	double pscale = sqrt(m0.px * m0.px + m0.py * m0.py);
	bool touched = false;
	for (int i = 0; i < 90; ++i) {
		/* L with this step's starting centres, before and after the step's impulses */
		tb_vec2 ca = tb_body_get_world_center(w, a), cb = tb_body_get_world_center(w, b);
		momentum s0 = total_momentum(w, ids, 2);
		tb_world_step(w, DT);
		if (tb_world_get_counters(w).touching_contact_count > 0) touched = true;
		momentum m = total_momentum(w, ids, 2);
		assert_near(m.px, m0.px, 1e-4 * pscale);
		assert_near(m.py, m0.py, 1e-4 * pscale);
		double l_fixed = 0.0;
		for (int k = 0; k < 2; ++k) {
			tb_vec2 c = k == 0 ? ca : cb;
			tb_vec2 v = tb_body_get_linear_velocity(w, ids[k]);
			l_fixed += tb_body_get_mass(w, ids[k]) * ((double)c.x * v.y - (double)c.y * v.x) +
			           tb_body_get_inertia(w, ids[k]) * tb_body_get_angular_velocity(w, ids[k]);
		}
		assert_near(l_fixed, s0.l, 1e-5 * fabs(m0.l) + 1e-6);
	}
	assert_true(touched);
	/* they really did collide: both velocities changed a lot */
	tb_vec2 va1 = tb_body_get_linear_velocity(w, a), vb1 = tb_body_get_linear_velocity(w, b);
	assert_true(tb_length(tb_sub(va1, va0)) > 1.0f);
	assert_true(tb_length(tb_sub(vb1, vb0)) > 1.0f);
	/* and are flying apart now */
	assert_int_equal(tb_world_get_counters(w).touching_contact_count, 0);
	*l_before = m0.l;
	*l_after = total_momentum(w, ids, 2).l;
}

/* Off-centre hit of two circles, gravity 0. */
static void circles_scene(tb_world *w, tb_body_id *a, tb_body_id *b)
{
	/* A's line of motion passes 0.35 m above B's centre */
	*a = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(-3.0f, 0.35f), 0.0f, tb_v2(8.0f, 0.0f), 1.0f);
	add_circle(w, *a, 0.5f, 2.0f, 0.5f, 0.5f);
	*b = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 0.0f, tb_v2(-1.0f, 0.5f), -2.0f);
	add_circle(w, *b, 0.7f, 1.0f, 0.5f, 0.5f);
}

static void boxes_scene(tb_world *w, tb_body_id *a, tb_body_id *b)
{
	*a = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(-3.0f, 0.3f), 0.2f, tb_v2(6.0f, 0.0f), 1.5f);
	add_box(w, *a, 0.5f, 0.5f, 1.0f, 0.4f, 0.3f);
	*b = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(0.0f, 0.0f), 0.0f, tb_vec2_zero, 0.0f);
	add_box(w, *b, 1.0f, 0.25f, 2.0f, 0.4f, 0.3f);
}

static void test_momentum_circles(void **state)
{
	(void)state;
	tb_world *w = new_world(tb_v2(0.0f, 0.0f), 4);
	tb_body_id a, b;
	circles_scene(w, &a, &b);
	double l0, l1;
	check_momentum(w, a, b, &l0, &l1);
	tb_destroy_world(w);
}

static void test_momentum_boxes(void **state)
{
	(void)state;
	tb_world *w = new_world(tb_v2(0.0f, 0.0f), 4);
	tb_body_id a, b;
	boxes_scene(w, &a, &b);
	double l0, l1;
	check_momentum(w, a, b, &l0, &l1);
	tb_destroy_world(w);
}

/* Angular momentum about the origin, before the hit and after the bodies
 * separated, for the off-centre hits above. check_momentum already shows the
 * impulses conserve it exactly in each step's starting frame; counted with the
 * final centres it drifts by how far the surfaces slide during the contact's
 * substeps, because anchors are frozen at prepare (as in Box2D v3). Applying
 * impulses at a common point of the current configuration would make this exact
 * but destabilises fast sliding contacts (a 300 m/s ball grazing a wall spun up
 * and went through), so the bound is 0.5 %, an order above what we measure. */
static double off_centre_drift(int scene, int substeps)
{
	tb_world *w = new_world(tb_v2(0.0f, 0.0f), substeps);
	tb_body_id a, b;
	if (scene == 0) circles_scene(w, &a, &b);
	else boxes_scene(w, &a, &b);
	double l0, l1;
	check_momentum(w, a, b, &l0, &l1);
	tb_destroy_world(w);
	print_message("# %s, %d substeps: L before %.6f after %.6f (relative change %.2e)\n",
	              scene == 0 ? "circles" : "boxes", substeps, l0, l1, fabs(l1 - l0) / fabs(l0));
	return fabs(l1 - l0) / fabs(l0);
}

static void test_angular_momentum_off_centre(void **state)
{
	(void)state;
	for (int scene = 0; scene < 2; ++scene) {
		double coarse = off_centre_drift(scene, 4), fine = off_centre_drift(scene, 16);
		/* a discretisation error: under 1 %, and smaller with smaller substeps */
		assert_true(coarse < 1e-2);
		assert_true(fine < 0.9 * coarse);
	}
}

/* Equal masses, head on, e = 1, no friction: the velocities swap. */
static void test_elastic_head_on(void **state)
{
	(void)state;
	tb_world *w = new_world(tb_v2(0.0f, 0.0f), 4);
	tb_body_id a = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(-2.0f, 0.0f), 0.0f, tb_v2(4.0f, 0.0f), 0.0f);
	add_circle(w, a, 0.5f, 1.0f, 0.0f, 1.0f);
	tb_body_id b = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(1.0f, 0.0f), 0.0f, tb_vec2_zero, 0.0f);
	add_circle(w, b, 0.5f, 1.0f, 0.0f, 1.0f);
	for (int i = 0; i < 60; ++i) tb_world_step(w, DT);
	assert_near(tb_body_get_linear_velocity(w, a).x, 0.0f, 4e-3f);
	assert_near(tb_body_get_linear_velocity(w, b).x, 4.0f, 4e-3f);
	assert_near(tb_body_get_linear_velocity(w, b).y, 0.0f, 1e-5f);
	tb_destroy_world(w);
}

/* ---------------- two rough balls, worked by hand ---------------- */

/* The example is worked in screen coordinates (y down, clockwise positive). In y-up
 * world coordinates with counter-clockwise positive: C1 = (6, -13), C2 = (10, -10),
 * v1 = (0, 5), w1 = +1 (the example's -1 is counter-clockwise), n = (0.8, 0.6),
 * r1 = (1.6, 1.2), r2 = (-2.4, -1.8). Contact-point relative speed along n is 3,
 * along t = (0.6, -0.8) it is 6. In = (1 + e) 3 / (1/2 + 1/3) = 7.2. The impulse
 * that would stop sliding is 6 / (1/2 + 1/3 + 2^2/4 + 3^2/13.5) = 2.4 > mu In, so
 * friction is capped at It = 0.2 * 7.2 = 1.44. Impulse on ball 2:
 * 7.2 n - 1.44 t = (4.896, 5.472); ball 1 gets the opposite. Hence
 * v1' = (0, 5) - (4.896, 5.472) / 2 = (-2.448, 2.264)  (example: -2.448i - 2.264j),
 * w1' = 1 + (r1 x (-7.2 n + 1.44 t)) / 4 = 1 + 1.44 * (-2) / 4 = 0.28 (example: -0.28),
 * v2' = (4.896, 5.472) / 3 = (1.632, 1.824),
 * w2' = (r2 x (-1.44 t)) / 13.5 = -1.44 * 3 / 13.5 = -0.32. */
static void test_rough_balls_worked_example(void **state)
{
	(void)state;
	tb_world *w = new_world(tb_v2(0.0f, 0.0f), 1);
	const float m1 = 2.0f, r1 = 2.0f, m2 = 3.0f, r2 = 3.0f;
	tb_body_id b1 = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(6.0f, -13.0f), 0.0f, tb_v2(0.0f, 5.0f), 1.0f);
	add_circle(w, b1, r1, m1 / (TB_PI * r1 * r1), 0.2f, 1.0f);
	tb_body_id b2 = tu_body_moving(w, TB_DYNAMIC_BODY, tb_v2(10.0f, -10.0f), 0.0f, tb_vec2_zero, 0.0f);
	add_circle(w, b2, r2, m2 / (TB_PI * r2 * r2), 0.2f, 1.0f);
	/* the masses and the solid-disc inertia m r^2 / 2 of the example */
	assert_near(tb_body_get_mass(w, b1), 2.0f, 1e-5f);
	assert_near(tb_body_get_mass(w, b2), 3.0f, 1e-5f);
	assert_near(tb_body_get_inertia(w, b1), 4.0f, 1e-4f);
	assert_near(tb_body_get_inertia(w, b2), 13.5f, 1e-4f);

	tb_world_step(w, DT);

	tb_vec2 v1 = tb_body_get_linear_velocity(w, b1), v2 = tb_body_get_linear_velocity(w, b2);
	float w1 = tb_body_get_angular_velocity(w, b1), w2 = tb_body_get_angular_velocity(w, b2);
	print_message("# rough balls: v1 (%.4f, %.4f) w1 %.4f v2 (%.4f, %.4f) w2 %.4f\n", v1.x, v1.y, w1, v2.x, v2.y, w2);
	assert_near(v1.x, -2.448f, 1e-3f * 2.448f);
	assert_near(v1.y, 2.264f, 1e-3f * 2.264f);
	assert_near(w1, 0.28f, 1e-3f);
	assert_near(v2.x, 1.632f, 1e-3f * 1.632f);
	assert_near(v2.y, 1.824f, 1e-3f * 1.824f);
	assert_near(w2, -0.32f, 1e-3f);
	tb_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_fall),
		cmocka_unit_test(test_projectile),
		cmocka_unit_test(test_integrator_order),
		cmocka_unit_test(test_bounce_height),
		cmocka_unit_test(test_no_bounce_below_threshold),
		cmocka_unit_test(test_ramp_friction_angle),
		cmocka_unit_test(test_momentum_circles),
		cmocka_unit_test(test_momentum_boxes),
		cmocka_unit_test(test_angular_momentum_off_centre),
		cmocka_unit_test(test_elastic_head_on),
		cmocka_unit_test(test_rough_balls_worked_example),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
