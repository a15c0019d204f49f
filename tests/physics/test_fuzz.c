/* A seeded random walk through the whole public API: bodies, shapes (all
 * kinds, with bad and absurd geometry), joints (breakable ones too), steps
 * with odd time steps, queries, shape casts, explosions, movers, one-way
 * platforms, surfaces, a pre-solve hook, extreme property values and stale
 * ids used on purpose.
 *
 * Invariants after every operation that can change the world:
 *   - no crash (this suite runs under ASan/UBSan in `make test`);
 *   - every valid body has finite position, angle, velocities, mass;
 *   - non-finite input gives the null id / an error status, and a step with a
 *     non-finite or negative dt changes nothing;
 *   - stale ids are never valid and their getters return zero values;
 *   - tb_world_validate holds (every internal link of the world; the sanitized
 *     build also checks it inside every step and every restore);
 *   - snapshots taken along the way always save and load (to the same bytes),
 *     and restoring one (taken, or loaded: another world's) gives its hash
 *     back; its ids are alive again, ids made since are stale, and stale ids
 *     never come back to life. */
#include "test_util.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#define OPS 20000
#define MAX_BODIES 160
#define MAX_SHAPES 400
#define MAX_JOINTS 60
#define MAX_STALE 64
#define MAX_MOMENTS 4
#define MAX_MOVERS 8

/* A snapshot the walk took, with its id lists as they were then. */
typedef struct moment {
	tb_snapshot *snap;
	tb_snapshot *loaded; /* the same, through tb_snapshot_save and tb_snapshot_load */
	uint64_t hash;
	tb_body_id bodies[MAX_BODIES];
	int body_count;
	tb_shape_id shapes[MAX_SHAPES];
	int shape_count;
	tb_joint_id joints[MAX_JOINTS];
	int joint_count;
	tb_mover_id movers[MAX_MOVERS];
	int mover_count;
} moment;

typedef struct fuzz {
	tb_world *w;
	uint64_t rng;
	tb_body_id bodies[MAX_BODIES];
	int body_count;
	tb_shape_id shapes[MAX_SHAPES];
	int shape_count;
	tb_joint_id joints[MAX_JOINTS];
	int joint_count;
	tb_body_id stale_bodies[MAX_STALE];
	int stale_body_count;
	tb_shape_id stale_shapes[MAX_STALE];
	int stale_shape_count;
	tb_joint_id stale_joints[MAX_STALE];
	int stale_joint_count;
	tb_mover_id movers[MAX_MOVERS];
	int mover_count;
	tb_mover_id stale_mover;
	int breaks, moves, casts, presolve_calls;
	int op;
	const char *what;
	char detail[320]; /* the last operation's arguments, for failure messages */
	int steps, rejected_bodies, rejected_shapes, rejected_joints;
	moment moments[MAX_MOMENTS];
	int moment_count, snapshots, restores, foreign_restores;
} fuzz;

/* ---------------- random numbers ---------------- */

static uint32_t rnd(fuzz *f)
{
	/* 64-bit LCG, top bits */
	f->rng = f->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(f->rng >> 33);
}

static int rnd_int(fuzz *f, int n) { return (int)(rnd(f) % (uint32_t)n); }

static float rnd_range(fuzz *f, float lo, float hi)
{
	return lo + (hi - lo) * (float)(rnd(f) & 0xFFFFFu) / (float)0xFFFFF;
}

static bool chance(fuzz *f, int percent) { return rnd_int(f, 100) < percent; }

static float weird(fuzz *f)
{
	static const float values[] = {0.0f, -0.0f, -1.0f, 1e30f, -1e30f, 1e-30f, FLT_MAX, -FLT_MAX, 1e6f, -1e6f};
	switch (rnd_int(f, 4)) {
	case 0: return NAN;
	case 1: return chance(f, 50) ? INFINITY : -INFINITY;
	default: return values[rnd_int(f, (int)(sizeof values / sizeof values[0]))];
	}
}

/* A normal value in [lo, hi], or (percent of the time) something absurd. */
static float maybe(fuzz *f, float lo, float hi, int percent)
{
	return chance(f, percent) ? weird(f) : rnd_range(f, lo, hi);
}

static bool finite2(tb_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

/* ---------------- bookkeeping ---------------- */

#define FUZZ_ASSERT(f, cond)                                                                                  \
	do {                                                                                                      \
		if (!(cond)) fail_msg("op %d (%s; last: %s): %s", (f)->op, (f)->what, (f)->detail, #cond);            \
	} while (0)

static void push_stale_body(fuzz *f, tb_body_id id)
{
	if (f->stale_body_count < MAX_STALE) f->stale_bodies[f->stale_body_count++] = id;
	else f->stale_bodies[rnd_int(f, MAX_STALE)] = id;
}

static void push_stale_shape(fuzz *f, tb_shape_id id)
{
	if (f->stale_shape_count < MAX_STALE) f->stale_shapes[f->stale_shape_count++] = id;
	else f->stale_shapes[rnd_int(f, MAX_STALE)] = id;
}

static void push_stale_joint(fuzz *f, tb_joint_id id)
{
	if (f->stale_joint_count < MAX_STALE) f->stale_joints[f->stale_joint_count++] = id;
	else f->stale_joints[rnd_int(f, MAX_STALE)] = id;
}

/* Drops ids that died with their body (shapes, joints) into the stale lists. */
static void prune(fuzz *f)
{
	for (int i = 0; i < f->shape_count;) {
		if (!tb_shape_is_valid(f->w, f->shapes[i])) {
			push_stale_shape(f, f->shapes[i]);
			f->shapes[i] = f->shapes[--f->shape_count];
		} else {
			++i;
		}
	}
	for (int i = 0; i < f->joint_count;) {
		if (!tb_joint_is_valid(f->w, f->joints[i])) {
			push_stale_joint(f, f->joints[i]);
			f->joints[i] = f->joints[--f->joint_count];
		} else {
			++i;
		}
	}
}

static tb_body_id any_body(fuzz *f)
{
	if (f->stale_body_count > 0 && chance(f, 5)) return f->stale_bodies[rnd_int(f, f->stale_body_count)];
	if (f->body_count == 0) return tb_null_body_id;
	return f->bodies[rnd_int(f, f->body_count)];
}

static tb_shape_id any_shape(fuzz *f)
{
	if (f->stale_shape_count > 0 && chance(f, 5)) return f->stale_shapes[rnd_int(f, f->stale_shape_count)];
	if (f->shape_count == 0) return tb_null_shape_id;
	return f->shapes[rnd_int(f, f->shape_count)];
}

/* ---------------- invariants ---------------- */

static void check_world(fuzz *f)
{
	FUZZ_ASSERT(f, tb_world_validate(f->w));
	static tb_body_id all[MAX_BODIES + 8];
	int n = tb_world_get_bodies(f->w, all, MAX_BODIES + 8);
	FUZZ_ASSERT(f, n == f->body_count);
	FUZZ_ASSERT(f, tb_world_get_counters(f->w).body_count == n);
	for (int i = 0; i < n && i < MAX_BODIES + 8; ++i) {
		tb_body_id b = all[i];
		FUZZ_ASSERT(f, tb_body_is_valid(f->w, b));
		FUZZ_ASSERT(f, finite2(tb_body_get_position(f->w, b)));
		FUZZ_ASSERT(f, isfinite(tb_body_get_angle(f->w, b)));
		tb_rot q = tb_body_get_rotation(f->w, b);
		FUZZ_ASSERT(f, fabsf(q.c * q.c + q.s * q.s - 1.0f) < 1e-3f);
		FUZZ_ASSERT(f, finite2(tb_body_get_world_center(f->w, b)));
		FUZZ_ASSERT(f, finite2(tb_body_get_linear_velocity(f->w, b)));
		FUZZ_ASSERT(f, isfinite(tb_body_get_angular_velocity(f->w, b)));
		float m = tb_body_get_mass(f->w, b), I = tb_body_get_inertia(f->w, b);
		FUZZ_ASSERT(f, isfinite(m) && m >= 0.0f);
		FUZZ_ASSERT(f, isfinite(I) && I >= 0.0f);
	}
	for (int i = 0; i < f->shape_count; ++i) {
		if (!tb_shape_is_valid(f->w, f->shapes[i])) continue;
		tb_aabb a = tb_shape_get_aabb(f->w, f->shapes[i]);
		FUZZ_ASSERT(f, finite2(a.lower) && finite2(a.upper));
		FUZZ_ASSERT(f, a.lower.x <= a.upper.x && a.lower.y <= a.upper.y);
		FUZZ_ASSERT(f, tb_body_is_valid(f->w, tb_shape_get_body(f->w, f->shapes[i])));
	}
}

static void check_stale(fuzz *f)
{
	if (f->stale_body_count > 0) {
		tb_body_id b = f->stale_bodies[rnd_int(f, f->stale_body_count)];
		FUZZ_ASSERT(f, !tb_body_is_valid(f->w, b));
		tb_vec2 p = tb_body_get_position(f->w, b);
		FUZZ_ASSERT(f, p.x == 0.0f && p.y == 0.0f);
		FUZZ_ASSERT(f, tb_body_get_mass(f->w, b) == 0.0f);
		FUZZ_ASSERT(f, tb_body_get_shape_count(f->w, b) == 0);
		tb_shape_def sd = tb_default_shape_def();
		tb_circle c = {{0.0f, 0.0f}, 0.5f};
		tb_status st = TB_OK;
		FUZZ_ASSERT(f, TB_IS_NULL(tb_create_circle_shape(f->w, b, &sd, &c, &st)));
		FUZZ_ASSERT(f, st != TB_OK);
		/* setters do nothing and do not crash */
		tb_body_set_linear_velocity(f->w, b, tb_v2(1.0f, 1.0f));
		tb_body_set_transform(f->w, b, tb_v2(3.0f, 3.0f), 1.0f);
		tb_body_apply_linear_impulse_to_center(f->w, b, tb_v2(5.0f, 5.0f), true);
		tb_body_set_type(f->w, b, TB_DYNAMIC_BODY);
		tb_body_set_enabled(f->w, b, false);
		tb_destroy_body(f->w, b);
		FUZZ_ASSERT(f, !tb_body_is_valid(f->w, b));
	}
	if (f->stale_shape_count > 0) {
		tb_shape_id s = f->stale_shapes[rnd_int(f, f->stale_shape_count)];
		FUZZ_ASSERT(f, !tb_shape_is_valid(f->w, s));
		FUZZ_ASSERT(f, tb_shape_set_density(f->w, s, 1.0f, true) == TB_ERR_STALE_HANDLE);
		FUZZ_ASSERT(f, tb_shape_set_friction(f->w, s, 0.5f) == TB_ERR_STALE_HANDLE);
		tb_geometry g;
		memset(&g, 0, sizeof g);
		g.type = TB_SHAPE_CIRCLE;
		g.circle.radius = 1.0f;
		FUZZ_ASSERT(f, tb_shape_set_geometry(f->w, s, &g) == TB_ERR_STALE_HANDLE);
		FUZZ_ASSERT(f, tb_shape_get_density(f->w, s) == 0.0f);
		FUZZ_ASSERT(f, TB_IS_NULL(tb_shape_get_body(f->w, s)));
		tb_field fld;
		FUZZ_ASSERT(f, !tb_shape_get_field(f->w, s, &fld));
		tb_shape_set_enabled(f->w, s, false);
		tb_shape_set_sensor(f->w, s, true);
		tb_destroy_shape(f->w, s, true);
		if (f->shape_count > 0) {
			tb_manifold m = tb_world_collide_shapes(f->w, s, f->shapes[0]);
			FUZZ_ASSERT(f, m.point_count == 0);
		}
	}
	if (f->stale_joint_count > 0) {
		tb_joint_id j = f->stale_joints[rnd_int(f, f->stale_joint_count)];
		FUZZ_ASSERT(f, !tb_joint_is_valid(f->w, j));
		FUZZ_ASSERT(f, TB_IS_NULL(tb_joint_get_body_a(f->w, j)));
		tb_joint_def d = tb_default_joint_def(TB_JOINT_REVOLUTE);
		FUZZ_ASSERT(f, tb_joint_set_def(f->w, j, &d) != TB_OK);
		tb_destroy_joint(f->w, j);
	}
}

/* ---------------- operations ---------------- */

static void op_create_body(fuzz *f)
{
	f->what = "create body";
	if (f->body_count >= MAX_BODIES) return;
	tb_body_def bd = tb_default_body_def();
	bd.type = (tb_body_type)rnd_int(f, 3);
	if (chance(f, 60)) bd.type = TB_DYNAMIC_BODY;
	bd.position = tb_v2(maybe(f, -30.0f, 30.0f, 4), maybe(f, -5.0f, 40.0f, 4));
	bd.angle = maybe(f, -4.0f, 4.0f, 3);
	bd.linear_velocity = tb_v2(maybe(f, -10.0f, 10.0f, 3), maybe(f, -10.0f, 10.0f, 3));
	bd.angular_velocity = maybe(f, -5.0f, 5.0f, 3);
	bd.linear_damping = maybe(f, 0.0f, 1.0f, 3);
	bd.angular_damping = maybe(f, 0.0f, 1.0f, 3);
	bd.gravity_scale = maybe(f, -1.0f, 2.0f, 3);
	bd.is_bullet = chance(f, 10);
	bd.fixed_rotation = chance(f, 10);
	bd.is_awake = chance(f, 90);
	bd.is_enabled = chance(f, 92);
	bd.enable_sleep = chance(f, 80);
	bool finite = finite2(bd.position) && isfinite(bd.angle) && finite2(bd.linear_velocity) &&
	              isfinite(bd.angular_velocity) && isfinite(bd.linear_damping) && isfinite(bd.angular_damping) &&
	              isfinite(bd.gravity_scale);
	bool normal = fabsf(bd.position.x) <= 30.0f && fabsf(bd.position.y) <= 40.0f && fabsf(bd.angle) <= 4.0f &&
	              fabsf(bd.linear_velocity.x) <= 10.0f && fabsf(bd.linear_velocity.y) <= 10.0f &&
	              fabsf(bd.angular_velocity) <= 5.0f && bd.linear_damping >= 0.0f && bd.linear_damping <= 1.0f &&
	              bd.angular_damping >= 0.0f && bd.angular_damping <= 1.0f && fabsf(bd.gravity_scale) <= 2.0f;
	snprintf(f->detail, sizeof f->detail, "create body type %d p (%g, %g) a %g v (%g, %g) w %g damp %g %g gs %g",
	         (int)bd.type, (double)bd.position.x, (double)bd.position.y, (double)bd.angle,
	         (double)bd.linear_velocity.x, (double)bd.linear_velocity.y, (double)bd.angular_velocity,
	         (double)bd.linear_damping, (double)bd.angular_damping, (double)bd.gravity_scale);
	tb_body_id id = tb_create_body(f->w, &bd, NULL);
	if (!finite) FUZZ_ASSERT(f, TB_IS_NULL(id));
	if (finite && normal) FUZZ_ASSERT(f, !TB_IS_NULL(id));
	if (TB_IS_NULL(id)) {
		++f->rejected_bodies;
		return;
	}
	FUZZ_ASSERT(f, tb_body_is_valid(f->w, id));
	FUZZ_ASSERT(f, tb_body_get_type(f->w, id) == bd.type);
	f->bodies[f->body_count++] = id;
}

static void op_destroy_body(fuzz *f)
{
	f->what = "destroy body";
	if (f->body_count == 0) return;
	int k = rnd_int(f, f->body_count);
	tb_body_id id = f->bodies[k];
	tb_destroy_body(f->w, id);
	FUZZ_ASSERT(f, !tb_body_is_valid(f->w, id));
	f->bodies[k] = f->bodies[--f->body_count];
	push_stale_body(f, id);
	prune(f);
}

/* Fills g with a random geometry; returns true if it is certainly valid. */
static bool random_geometry(fuzz *f, tb_geometry *g, int weird_percent)
{
	memset(g, 0, sizeof *g);
	switch (rnd_int(f, 5)) {
	case 0:
		g->type = TB_SHAPE_CIRCLE;
		g->circle.center = tb_v2(maybe(f, -1.0f, 1.0f, weird_percent), maybe(f, -1.0f, 1.0f, weird_percent));
		g->circle.radius = maybe(f, 0.05f, 1.5f, weird_percent);
		return fabsf(g->circle.center.x) <= 1.0f && fabsf(g->circle.center.y) <= 1.0f &&
		       g->circle.radius >= 0.05f && g->circle.radius <= 1.5f;
	case 1: {
		g->type = TB_SHAPE_CAPSULE;
		tb_vec2 a = tb_v2(rnd_range(f, -1.0f, 0.0f), rnd_range(f, -1.0f, 1.0f));
		tb_vec2 b = tb_v2(rnd_range(f, 0.2f, 1.0f), rnd_range(f, -1.0f, 1.0f));
		if (chance(f, weird_percent)) a.x = weird(f);
		g->capsule.center1 = a;
		g->capsule.center2 = b;
		g->capsule.radius = maybe(f, 0.05f, 0.8f, weird_percent);
		return a.x >= -1.0f && a.x <= 0.0f && g->capsule.radius >= 0.05f && g->capsule.radius <= 0.8f;
	}
	case 2: {
		g->type = TB_SHAPE_SEGMENT;
		g->segment.point1 = tb_v2(rnd_range(f, -2.0f, -0.5f), rnd_range(f, -1.0f, 1.0f));
		g->segment.point2 = tb_v2(maybe(f, 0.5f, 2.0f, weird_percent), rnd_range(f, -1.0f, 1.0f));
		return g->segment.point2.x >= 0.5f && g->segment.point2.x <= 2.0f;
	}
	case 3: {
		g->type = TB_SHAPE_POLYGON;
		float hx = maybe(f, 0.05f, 1.5f, weird_percent), hy = maybe(f, 0.05f, 1.5f, weird_percent);
		bool ok = hx >= 0.05f && hx <= 1.5f && hy >= 0.05f && hy <= 1.5f;
		if (ok) {
			g->polygon = tb_make_offset_box(hx, hy, tb_v2(rnd_range(f, -0.5f, 0.5f), 0.0f),
			                                tb_make_rot(rnd_range(f, -3.0f, 3.0f)));
			if (chance(f, 20)) g->polygon.radius = rnd_range(f, 0.0f, 0.2f);
		} else {
			/* hand-built, so the absurd numbers reach the engine's validation */
			g->polygon.count = 4;
			g->polygon.vertices[0] = tb_v2(-hx, -hy);
			g->polygon.vertices[1] = tb_v2(hx, -hy);
			g->polygon.vertices[2] = tb_v2(hx, hy);
			g->polygon.vertices[3] = tb_v2(-hx, hy);
			g->polygon.normals[0] = tb_v2(0.0f, -1.0f);
			g->polygon.normals[1] = tb_v2(1.0f, 0.0f);
			g->polygon.normals[2] = tb_v2(0.0f, 1.0f);
			g->polygon.normals[3] = tb_v2(-1.0f, 0.0f);
		}
		return ok;
	}
	default: {
		/* random points through tb_make_polygon: may be refused (degenerate) */
		g->type = TB_SHAPE_POLYGON;
		tb_vec2 pts[10];
		int n = 1 + rnd_int(f, 10);
		for (int i = 0; i < n; ++i) pts[i] = tb_v2(maybe(f, -1.0f, 1.0f, weird_percent), rnd_range(f, -1.0f, 1.0f));
		tb_status st = tb_make_polygon(pts, n, chance(f, 80) ? 0.0f : maybe(f, 0.0f, 0.2f, 20), &g->polygon);
		if (st != TB_OK) {
			/* keep a broken polygon around: the engine must refuse it too */
			g->polygon.count = n < TB_MAX_POLYGON_VERTICES ? n : TB_MAX_POLYGON_VERTICES;
			for (int i = 0; i < g->polygon.count; ++i) g->polygon.vertices[i] = pts[i];
			return false;
		}
		return false; /* valid per tb_make_polygon, but it may be tiny: no promise either way */
	}
	}
}

static bool geometry_has_nonfinite(const tb_geometry *g)
{
	switch (g->type) {
	case TB_SHAPE_CIRCLE: return !finite2(g->circle.center) || !isfinite(g->circle.radius);
	case TB_SHAPE_CAPSULE:
		return !finite2(g->capsule.center1) || !finite2(g->capsule.center2) || !isfinite(g->capsule.radius);
	case TB_SHAPE_SEGMENT: return !finite2(g->segment.point1) || !finite2(g->segment.point2);
	case TB_SHAPE_POLYGON:
		for (int k = 0; k < g->polygon.count && k < TB_MAX_POLYGON_VERTICES; ++k)
			if (!finite2(g->polygon.vertices[k])) return true;
		return !isfinite(g->polygon.radius);
	default: return false;
	}
}

/* Sizes that must be positive and are not (finite, so not caught above). */
static bool geometry_has_nonpositive_radius(const tb_geometry *g)
{
	if (g->type == TB_SHAPE_CIRCLE) return g->circle.radius <= 0.0f;
	if (g->type == TB_SHAPE_CAPSULE) return g->capsule.radius <= 0.0f;
	return false;
}

static void op_create_shape(fuzz *f)
{
	f->what = "create shape";
	if (f->shape_count >= MAX_SHAPES) return;
	tb_body_id b = any_body(f);
	if (TB_IS_NULL(b)) return;
	tb_geometry g;
	bool valid_geometry = random_geometry(f, &g, 8);
	tb_shape_def sd = tb_default_shape_def();
	sd.density = maybe(f, 0.1f, 5.0f, 4);
	sd.friction = maybe(f, 0.0f, 1.0f, 3);
	sd.restitution = maybe(f, 0.0f, 1.0f, 3);
	sd.is_sensor = chance(f, 10);
	sd.enable_hit_events = chance(f, 20);
	sd.filter.group_index = rnd_int(f, 3) - 1;
	bool def_ok = sd.density >= 0.1f && sd.density <= 5.0f && sd.friction >= 0.0f && sd.friction <= 1.0f &&
	              sd.restitution >= 0.0f && sd.restitution <= 1.0f;
	bool def_bad = !isfinite(sd.density) || sd.density < 0.0f || !isfinite(sd.friction) || sd.friction < 0.0f ||
	               !isfinite(sd.restitution) || sd.restitution < 0.0f;
	tb_status st = TB_STATUS_COUNT;
	snprintf(f->detail, sizeof f->detail, "create shape kind %d (%g %g %g) density %g on body type %d",
	         (int)g.type, (double)g.circle.center.x, (double)g.circle.center.y, (double)g.circle.radius,
	         (double)sd.density, (int)tb_body_get_type(f->w, b));
	tb_shape_id s = tb_create_shape(f->w, b, &sd, &g, &st);
	bool body_valid = tb_body_is_valid(f->w, b);
	if (!body_valid || def_bad || geometry_has_nonfinite(&g) || geometry_has_nonpositive_radius(&g)) {
		FUZZ_ASSERT(f, TB_IS_NULL(s));
		FUZZ_ASSERT(f, st != TB_OK);
	}
	if (body_valid && def_ok && valid_geometry) FUZZ_ASSERT(f, !TB_IS_NULL(s) && st == TB_OK);
	if (TB_IS_NULL(s)) {
		++f->rejected_shapes;
		FUZZ_ASSERT(f, st != TB_OK);
		return;
	}
	FUZZ_ASSERT(f, st == TB_OK);
	FUZZ_ASSERT(f, TB_ID_EQUALS(tb_shape_get_body(f->w, s), b));
	f->shapes[f->shape_count++] = s;
}

static void op_create_chain(fuzz *f)
{
	f->what = "create chain";
	if (f->shape_count + 8 >= MAX_SHAPES) return;
	tb_body_id b = any_body(f);
	if (TB_IS_NULL(b)) return;
	tb_vec2 pts[8];
	int n = 1 + rnd_int(f, 8);
	float x = rnd_range(f, -30.0f, 0.0f);
	for (int i = 0; i < n; ++i) {
		x += rnd_range(f, 0.5f, 4.0f);
		pts[i] = tb_v2(x, maybe(f, -2.0f, 2.0f, 3));
	}
	tb_chain_def cd = tb_default_chain_def();
	cd.points = pts;
	cd.count = n;
	cd.loop = chance(f, 20);
	tb_shape_id out[8];
	tb_status st = TB_OK;
	int links = tb_create_chain(f->w, b, &cd, out, 8, &st);
	bool finite = true;
	for (int i = 0; i < n; ++i) finite = finite && finite2(pts[i]);
	if (!finite || n < 2 || (cd.loop && n < 3) || !tb_body_is_valid(f->w, b)) FUZZ_ASSERT(f, links < 0 && st != TB_OK);
	if (links < 0) {
		FUZZ_ASSERT(f, st != TB_OK);
		return;
	}
	for (int i = 0; i < links && i < 8; ++i) {
		FUZZ_ASSERT(f, tb_shape_is_valid(f->w, out[i]));
		FUZZ_ASSERT(f, tb_shape_get_type(f->w, out[i]) == TB_SHAPE_CHAIN_SEGMENT);
		f->shapes[f->shape_count++] = out[i];
	}
}

static void op_destroy_shape(fuzz *f)
{
	f->what = "destroy shape";
	if (f->shape_count == 0) return;
	int k = rnd_int(f, f->shape_count);
	tb_shape_id s = f->shapes[k];
	tb_destroy_shape(f->w, s, chance(f, 70));
	FUZZ_ASSERT(f, !tb_shape_is_valid(f->w, s));
	prune(f);
}

static void op_create_joint(fuzz *f)
{
	f->what = "create joint";
	if (f->joint_count >= MAX_JOINTS) return;
	tb_joint_type type = (tb_joint_type)rnd_int(f, TB_JOINT_TYPE_COUNT);
	tb_joint_def d = tb_default_joint_def(type);
	d.body_a = any_body(f);
	d.body_b = chance(f, 5) ? d.body_a : any_body(f);
	d.local_anchor_a = tb_v2(maybe(f, -1.0f, 1.0f, 3), rnd_range(f, -1.0f, 1.0f));
	d.local_anchor_b = tb_v2(rnd_range(f, -1.0f, 1.0f), maybe(f, -1.0f, 1.0f, 3));
	d.collide_connected = chance(f, 30);
	d.enable_limit = chance(f, 40);
	d.lower = rnd_range(f, -1.0f, 0.0f);
	d.upper = rnd_range(f, 0.0f, 1.0f);
	if (chance(f, 5)) d.lower = 2.0f; /* lower > upper */
	d.enable_motor = chance(f, 40);
	d.motor_speed = maybe(f, -5.0f, 5.0f, 3);
	d.max_motor_torque = maybe(f, 0.0f, 100.0f, 3);
	d.max_motor_force = maybe(f, 0.0f, 100.0f, 3);
	d.length = maybe(f, 0.1f, 3.0f, 3);
	d.min_length = 0.0f;
	d.max_length = 5.0f;
	d.enable_spring = chance(f, 40);
	d.hertz = maybe(f, 0.0f, 10.0f, 3);
	d.damping_ratio = rnd_range(f, 0.0f, 2.0f);
	d.target = tb_v2(rnd_range(f, -20.0f, 20.0f), rnd_range(f, 0.0f, 20.0f));
	d.max_force = rnd_range(f, 0.0f, 1000.0f);
	d.linear_offset = tb_v2(maybe(f, -2.0f, 2.0f, 3), rnd_range(f, -2.0f, 2.0f));
	d.angular_offset = maybe(f, -3.0f, 3.0f, 3);
	d.correction_factor = chance(f, 3) ? weird(f) : rnd_range(f, 0.0f, 1.0f);
	if (chance(f, 30)) d.break_force = chance(f, 10) ? weird(f) : rnd_range(f, 0.0f, 200.0f);
	if (chance(f, 20)) d.break_torque = chance(f, 10) ? weird(f) : rnd_range(f, 0.0f, 100.0f);
	if (type == TB_JOINT_WHEEL && chance(f, 5)) d.local_axis_a = tb_vec2_zero;
	tb_status st = TB_OK;
	snprintf(f->detail, sizeof f->detail,
	         "create joint type %d anchors (%g %g) (%g %g) limit %d [%g %g] motor %d %g max %g %g spring %d %g %g "
	         "length %g",
	         (int)type, (double)d.local_anchor_a.x, (double)d.local_anchor_a.y, (double)d.local_anchor_b.x,
	         (double)d.local_anchor_b.y, d.enable_limit, (double)d.lower, (double)d.upper, d.enable_motor,
	         (double)d.motor_speed, (double)d.max_motor_torque, (double)d.max_motor_force, d.enable_spring,
	         (double)d.hertz, (double)d.damping_ratio, (double)d.length);
	tb_joint_id j = tb_create_joint(f->w, &d, &st);
	bool bodies_ok = tb_body_is_valid(f->w, d.body_a) && tb_body_is_valid(f->w, d.body_b) &&
	                 !TB_ID_EQUALS(d.body_a, d.body_b);
	bool finite = finite2(d.local_anchor_a) && finite2(d.local_anchor_b) && isfinite(d.motor_speed) &&
	              isfinite(d.max_motor_torque) && isfinite(d.max_motor_force) && isfinite(d.length) &&
	              isfinite(d.hertz);
	bool negative = d.max_motor_torque < 0.0f || d.max_motor_force < 0.0f || d.length < 0.0f || d.hertz < 0.0f;
	bool limits_bad = d.lower > d.upper && (type == TB_JOINT_REVOLUTE || type == TB_JOINT_PRISMATIC ||
	                                         type == TB_JOINT_WHEEL);
	bool breaks_bad = !(d.break_force >= 0.0f) || !(d.break_torque >= 0.0f);
	bool motor_bad = !finite2(d.linear_offset) || !isfinite(d.angular_offset) || !(d.correction_factor >= 0.0f) ||
	                 !(d.correction_factor <= 1.0f);
	if (!bodies_ok || !finite || negative || limits_bad || breaks_bad || motor_bad) {
		FUZZ_ASSERT(f, TB_IS_NULL(j));
		FUZZ_ASSERT(f, st != TB_OK);
	}
	if (TB_IS_NULL(j)) {
		++f->rejected_joints;
		return;
	}
	FUZZ_ASSERT(f, tb_joint_is_valid(f->w, j));
	FUZZ_ASSERT(f, tb_joint_get_type(f->w, j) == type);
	f->joints[f->joint_count++] = j;
}

static void op_destroy_joint(fuzz *f)
{
	f->what = "destroy joint";
	if (f->joint_count == 0) return;
	int k = rnd_int(f, f->joint_count);
	tb_joint_id j = f->joints[k];
	tb_destroy_joint(f->w, j);
	FUZZ_ASSERT(f, !tb_joint_is_valid(f->w, j));
	f->joints[k] = f->joints[--f->joint_count];
	push_stale_joint(f, j);
}

typedef struct body_snapshot {
	tb_body_id id;
	tb_vec2 p, v;
	float angle, w, mass, inertia, lin_damp, ang_damp, gscale;
	int type, shapes;
	bool awake, enabled, bullet, fixed;
} body_snapshot;

static body_snapshot snap_before[MAX_BODIES + 8];

static void snapshot(fuzz *f, body_snapshot *out, int *count)
{
	static tb_body_id all[MAX_BODIES + 8];
	int n = tb_world_get_bodies(f->w, all, MAX_BODIES + 8);
	if (n > MAX_BODIES + 8) n = MAX_BODIES + 8;
	for (int i = 0; i < n; ++i) {
		tb_body_id b = all[i];
		body_snapshot *s = out + i;
		s->id = b;
		s->p = tb_body_get_position(f->w, b);
		s->v = tb_body_get_linear_velocity(f->w, b);
		s->angle = tb_body_get_angle(f->w, b);
		s->w = tb_body_get_angular_velocity(f->w, b);
		s->mass = tb_body_get_mass(f->w, b);
		s->inertia = tb_body_get_inertia(f->w, b);
		s->lin_damp = tb_body_get_linear_damping(f->w, b);
		s->ang_damp = tb_body_get_angular_damping(f->w, b);
		s->gscale = tb_body_get_gravity_scale(f->w, b);
		s->type = (int)tb_body_get_type(f->w, b);
		s->shapes = tb_body_get_shape_count(f->w, b);
		s->awake = tb_body_is_awake(f->w, b);
		s->enabled = tb_body_is_enabled(f->w, b);
		s->bullet = tb_body_is_bullet(f->w, b);
		s->fixed = tb_body_is_fixed_rotation(f->w, b);
	}
	*count = n;
}

/* Names the body a step poisoned, with its state before the step. */
static void report_poisoned(fuzz *f, int before_count)
{
	bool told = false;
	for (int i = 0; i < before_count; ++i) {
		const body_snapshot *s = snap_before + i;
		if (!tb_body_is_valid(f->w, s->id)) continue;
		tb_vec2 p = tb_body_get_position(f->w, s->id), v = tb_body_get_linear_velocity(f->w, s->id);
		if (finite2(p) && finite2(v) && isfinite(tb_body_get_angle(f->w, s->id)) &&
		    isfinite(tb_body_get_angular_velocity(f->w, s->id)))
			continue;
		if (!told) {
			tb_world_def d = tb_world_get_def(f->w);
			print_message("# world: gravity (%g, %g) substeps %d hertz %g push %g max speed %g warm %d correct %d "
			              "sleep %d continuous %d motion %d, joints %d\n",
			              (double)d.gravity.x, (double)d.gravity.y, d.substeps, (double)d.contact_hertz,
			              (double)d.max_contact_push_speed, (double)d.max_linear_speed, d.enable_warm_starting,
			              d.enable_position_correction, d.enable_sleep, d.enable_continuous, d.enable_motion,
			              tb_body_get_joints(f->w, s->id, NULL, 0));
			told = true;
		}
		print_message("# poisoned by the step: body slot %d type %d shapes %d awake %d enabled %d bullet %d fixed %d\n"
		              "#   before: p (%g, %g) angle %g v (%g, %g) w %g mass %g I %g damping %g %g gscale %g\n"
		              "#   after:  p (%g, %g) v (%g, %g)\n",
		              s->id.index1 - 1, s->type, s->shapes, s->awake, s->enabled, s->bullet, s->fixed, (double)s->p.x,
		              (double)s->p.y, (double)s->angle, (double)s->v.x, (double)s->v.y, (double)s->w,
		              (double)s->mass, (double)s->inertia, (double)s->lin_damp, (double)s->ang_damp,
		              (double)s->gscale, (double)p.x, (double)p.y, (double)v.x, (double)v.y);
		tb_joint_id js[8];
		int nj = tb_body_get_joints(f->w, s->id, js, 8);
		for (int k = 0; k < nj && k < 8; ++k) {
			tb_body_id other = tb_joint_get_body_a(f->w, js[k]);
			if (TB_ID_EQUALS(other, s->id)) other = tb_joint_get_body_b(f->w, js[k]);
			for (int m = 0; m < before_count; ++m) {
				const body_snapshot *o = snap_before + m;
				if (!TB_ID_EQUALS(o->id, other)) continue;
				print_message("#   joint kind %d to slot %d type %d shapes %d: p (%g, %g) v (%g, %g) w %g mass %g\n",
				              (int)tb_joint_get_type(f->w, js[k]), o->id.index1 - 1, o->type, o->shapes,
				              (double)o->p.x, (double)o->p.y, (double)o->v.x, (double)o->v.y, (double)o->w,
				              (double)o->mass);
			}
		}
		tb_shape_id sh[4];
		int ns = tb_body_get_shapes(f->w, s->id, sh, 4);
		for (int k = 0; k < ns && k < 4; ++k) {
			tb_geometry g = tb_shape_get_geometry(f->w, sh[k]);
			print_message("#   shape kind %d density %g sensor %d enabled %d (%g %g %g %g)\n", (int)g.type,
			              (double)tb_shape_get_density(f->w, sh[k]), tb_shape_is_sensor(f->w, sh[k]),
			              tb_shape_is_enabled(f->w, sh[k]), (double)g.capsule.center1.x,
			              (double)g.capsule.center1.y, (double)g.capsule.center2.x, (double)g.capsule.center2.y);
		}
	}
}

static void op_step(fuzz *f)
{
	f->what = "step";
	float dt;
	int r = rnd_int(f, 100);
	if (r < 80) dt = 1.0f / 60.0f;
	else if (r < 84) dt = 0.0f;
	else if (r < 87) dt = rnd_range(f, 1e-6f, 0.1f);
	else if (r < 89) dt = 10.0f;
	else if (r < 90) dt = 1e6f;
	else if (r < 91) dt = 1e30f;
	else if (r < 94) dt = NAN;
	else if (r < 97) dt = -1.0f / 60.0f;
	else dt = INFINITY;
	uint64_t before = tb_world_hash(f->w);
	snprintf(f->detail, sizeof f->detail, "step dt=%g", (double)dt);
	int before_count;
	snapshot(f, snap_before, &before_count);
	tb_world_step(f->w, dt);
	report_poisoned(f, before_count);
	++f->steps;
	FUZZ_ASSERT(f, !tb_world_is_locked(f->w));
	if (!(dt >= 0.0f) || !isfinite(dt)) {
		f->what = "step with a non-finite or negative dt";
		FUZZ_ASSERT(f, tb_world_hash(f->w) == before);
	}
	/* events are readable and refer to shapes that existed */
	tb_contact_events ev = tb_world_get_contact_events(f->w);
	FUZZ_ASSERT(f, ev.begin_count >= 0 && ev.end_count >= 0 && ev.hit_count >= 0);
	for (int i = 0; i < ev.begin_count; ++i) {
		FUZZ_ASSERT(f, finite2(ev.begin[i].normal));
		FUZZ_ASSERT(f, ev.begin[i].point_count >= 0 && ev.begin[i].point_count <= 2);
	}
	for (int i = 0; i < ev.hit_count; ++i) FUZZ_ASSERT(f, finite2(ev.hit[i].point) && isfinite(ev.hit[i].approach_speed));
	tb_sensor_events se = tb_world_get_sensor_events(f->w);
	FUZZ_ASSERT(f, se.begin_count >= 0 && se.end_count >= 0);
	/* broken joints are gone, and were breakable */
	tb_joint_events je = tb_world_get_joint_events(f->w);
	for (int i = 0; i < je.break_count; ++i) {
		FUZZ_ASSERT(f, !tb_joint_is_valid(f->w, je.breaks[i].joint));
		FUZZ_ASSERT(f, isfinite(je.breaks[i].force) && isfinite(je.breaks[i].torque));
	}
	f->breaks += je.break_count;
	prune(f);
	f->what = "after step";
	check_world(f);
}

static float ray_any(tb_shape_id shape, tb_vec2 point, tb_vec2 normal, float fraction, void *context)
{
	(void)shape;
	int *count = context;
	++*count;
	/* hits are sane */
	if (!finite2(point) || !finite2(normal) || !(fraction >= 0.0f && fraction <= 1.0f)) *count += 1000000;
	return fraction;
}

static bool overlap_any(tb_shape_id shape, void *context)
{
	(void)shape;
	++*(int *)context;
	return true;
}

static void op_query(fuzz *f)
{
	f->what = "query";
	tb_query_filter qf = tb_default_query_filter();
	int count = 0;
	tb_vec2 o = tb_v2(maybe(f, -40.0f, 40.0f, 3), rnd_range(f, -10.0f, 40.0f));
	tb_vec2 t = tb_v2(rnd_range(f, -60.0f, 60.0f), maybe(f, -60.0f, 60.0f, 3));
	switch (rnd_int(f, 9)) {
	case 6: {
		tb_geometry g;
		random_geometry(f, &g, 5);
		tb_transform xf = {o, tb_make_rot(rnd_range(f, -3.0f, 3.0f))};
		tb_ray_result r = tb_world_cast_shape(f->w, &g, xf, t, qf, any_body(f));
		f->casts += 1;
		snprintf(f->detail, sizeof f->detail,
		         "cast kind %d (%g %g %g) from (%g, %g) by (%g, %g): hit %d shape kind %d fraction %g point (%g, %g) "
		         "normal (%g, %g)",
		         (int)g.type, (double)g.circle.center.x, (double)g.circle.center.y, (double)g.circle.radius,
		         (double)o.x, (double)o.y, (double)t.x, (double)t.y, r.hit, (int)tb_shape_get_type(f->w, r.shape),
		         (double)r.fraction, (double)r.point.x, (double)r.point.y, (double)r.normal.x, (double)r.normal.y);
		if (r.hit) {
			FUZZ_ASSERT(f, tb_shape_is_valid(f->w, r.shape));
			FUZZ_ASSERT(f, finite2(r.point) && finite2(r.normal));
			FUZZ_ASSERT(f, r.fraction >= 0.0f && r.fraction <= 1.0f);
		}
		break;
	}
	case 7: {
		tb_shape_id a = any_shape(f), b = any_shape(f);
		tb_distance_output d = tb_world_shape_distance(f->w, a, b);
		if (tb_shape_is_valid(f->w, a) && tb_shape_is_valid(f->w, b)) {
			FUZZ_ASSERT(f, isfinite(d.distance) && finite2(d.point_a) && finite2(d.point_b) && finite2(d.normal));
		} else {
			FUZZ_ASSERT(f, d.distance == FLT_MAX);
		}
		break;
	}
	case 8: {
		tb_explosion_def e = tb_default_explosion_def();
		e.position = o;
		e.radius = maybe(f, 0.0f, 10.0f, 5);
		e.falloff = maybe(f, 0.0f, 5.0f, 5);
		e.impulse = maybe(f, -20.0f, 50.0f, 5);
		int pushed = -1;
		tb_status st = tb_world_explode(f->w, &e, &pushed);
		snprintf(f->detail, sizeof f->detail, "explode at (%g, %g) r %g falloff %g impulse %g", (double)o.x,
		         (double)o.y, (double)e.radius, (double)e.falloff, (double)e.impulse);
		bool bad = !finite2(o) || !isfinite(e.radius) || !isfinite(e.falloff) || !isfinite(e.impulse) ||
		           e.radius < 0.0f || e.falloff < 0.0f;
		if (bad) FUZZ_ASSERT(f, st != TB_OK && pushed == 0);
		if (st == TB_OK) FUZZ_ASSERT(f, pushed >= 0 && pushed <= f->body_count);
		break;
	}
	case 0:
		tb_world_cast_ray(f->w, o, t, qf, ray_any, &count);
		FUZZ_ASSERT(f, count < 1000000);
		break;
	case 1: {
		tb_ray_result r = tb_world_cast_ray_closest(f->w, o, t, qf);
		if (r.hit) {
			FUZZ_ASSERT(f, tb_shape_is_valid(f->w, r.shape));
			FUZZ_ASSERT(f, finite2(r.point) && finite2(r.normal));
			FUZZ_ASSERT(f, r.fraction >= 0.0f && r.fraction <= 1.0f);
		}
		break;
	}
	case 2: {
		tb_aabb box = {tb_min_v(o, tb_add(o, t)), tb_max_v(o, tb_add(o, t))};
		tb_world_query_aabb(f->w, box, qf, overlap_any, &count);
		FUZZ_ASSERT(f, count <= f->shape_count);
		break;
	}
	case 3:
		tb_world_query_point(f->w, o, qf, overlap_any, &count);
		break;
	case 4: {
		tb_shape_id s = any_shape(f);
		if (!TB_IS_NULL(s)) tb_world_overlap_shape(f->w, s, qf, overlap_any, &count);
		tb_geometry g;
		random_geometry(f, &g, 5);
		tb_transform xf = {o, tb_make_rot(rnd_range(f, -3.0f, 3.0f))};
		tb_world_overlap_geometry(f->w, &g, xf, qf, overlap_any, &count);
		break;
	}
	default: {
		tb_shape_id a = any_shape(f), b = any_shape(f);
		if (TB_IS_NULL(a) || TB_IS_NULL(b)) break;
		tb_manifold m = tb_world_collide_shapes(f->w, a, b);
		FUZZ_ASSERT(f, m.point_count >= 0 && m.point_count <= 2);
		for (int i = 0; i < m.point_count; ++i) {
			FUZZ_ASSERT(f, finite2(m.points[i].point));
			FUZZ_ASSERT(f, isfinite(m.points[i].separation));
		}
		if (!tb_shape_is_valid(f->w, a) || !tb_shape_is_valid(f->w, b)) FUZZ_ASSERT(f, m.point_count == 0);
		break;
	}
	}
}

static void op_body_property(fuzz *f)
{
	tb_body_id b = any_body(f);
	if (TB_IS_NULL(b)) return;
	f->what = "body property";
	bool valid = tb_body_is_valid(f->w, b);
	int which = rnd_int(f, 17);
	float x1 = maybe(f, -20.0f, 20.0f, 15), x2 = maybe(f, -20.0f, 20.0f, 15), x3 = maybe(f, -30.0f, 30.0f, 10);
	snprintf(f->detail, sizeof f->detail, "body property %d (%g, %g, %g) valid %d type %d", which, (double)x1,
	         (double)x2, (double)x3, valid, (int)tb_body_get_type(f->w, b));
	switch (which) {
	case 0: tb_body_set_linear_velocity(f->w, b, tb_v2(x1, x2)); break;
	case 1: tb_body_set_angular_velocity(f->w, b, x1); break;
	case 2: {
		tb_vec2 p = tb_v2(x3, x2 + 20.0f);
		float a = x1 / 5.0f;
		tb_vec2 before = tb_body_get_position(f->w, b);
		tb_body_set_transform(f->w, b, p, a);
		if (valid && fabsf(p.x) <= 1e4f && fabsf(p.y) <= 1e4f && fabsf(a) <= 100.0f) {
			tb_vec2 now = tb_body_get_position(f->w, b);
			FUZZ_ASSERT(f, now.x == p.x && now.y == p.y);
		} else if (valid && !(finite2(p) && isfinite(a))) {
			/* refused: the body stays where it was */
			tb_vec2 now = tb_body_get_position(f->w, b);
			FUZZ_ASSERT(f, now.x == before.x && now.y == before.y);
		}
		break;
	}
	case 3: tb_body_apply_force(f->w, b, tb_v2(5.0f * x1, 5.0f * x2), tb_v2(x3, 10.0f), chance(f, 50)); break;
	case 4: tb_body_apply_linear_impulse(f->w, b, tb_v2(x1, x2), tb_v2(10.0f, x3), chance(f, 50)); break;
	case 5: tb_body_apply_torque(f->w, b, 5.0f * x1, chance(f, 50)); break;
	case 6: tb_body_apply_angular_impulse(f->w, b, x1, true); break;
	case 7:
		tb_body_set_linear_damping(f->w, b, x1 / 10.0f);
		tb_body_set_angular_damping(f->w, b, x2 / 10.0f);
		break;
	case 8: tb_body_set_gravity_scale(f->w, b, x1 / 7.0f); break;
	case 9: tb_body_set_type(f->w, b, (tb_body_type)rnd_int(f, 3)); break;
	case 10: tb_body_set_enabled(f->w, b, chance(f, 70)); break;
	case 11: tb_body_set_bullet(f->w, b, chance(f, 50)); break;
	case 12: tb_body_set_fixed_rotation(f->w, b, chance(f, 30)); break;
	case 13: tb_body_set_awake(f->w, b, chance(f, 50)); break;
	case 14: tb_body_enable_sleep(f->w, b, chance(f, 70)); break;
	case 15: {
		float t = x1 / 40.0f;
		tb_status st = tb_body_set_sleep_threshold(f->w, b, t);
		if (valid && !(isfinite(t) && t >= 0.0f)) FUZZ_ASSERT(f, st != TB_OK);
		if (valid && st == TB_OK) FUZZ_ASSERT(f, tb_body_get_sleep_threshold(f->w, b) == t);
		break;
	}
	default: tb_body_apply_mass_from_shapes(f->w, b); break;
	}
	if (!valid) FUZZ_ASSERT(f, !tb_body_is_valid(f->w, b));
	f->what = "after body property";
	if (valid) {
		FUZZ_ASSERT(f, finite2(tb_body_get_position(f->w, b)));
		FUZZ_ASSERT(f, finite2(tb_body_get_linear_velocity(f->w, b)));
		FUZZ_ASSERT(f, isfinite(tb_body_get_angular_velocity(f->w, b)));
		FUZZ_ASSERT(f, isfinite(tb_body_get_angle(f->w, b)));
	}
}

static void op_shape_property(fuzz *f)
{
	tb_shape_id s = any_shape(f);
	if (TB_IS_NULL(s)) return;
	f->what = "shape property";
	bool valid = tb_shape_is_valid(f->w, s);
	tb_status st;
	int which = rnd_int(f, 12);
	snprintf(f->detail, sizeof f->detail, "shape property %d on kind %d", which, (int)tb_shape_get_type(f->w, s));
	switch (which) {
	case 9: {
		float v = maybe(f, 0.0f, 0.5f, 20);
		st = tb_shape_set_rolling_resistance(f->w, s, v);
		if (!valid) FUZZ_ASSERT(f, st == TB_ERR_STALE_HANDLE);
		else if (!isfinite(v) || v < 0.0f) FUZZ_ASSERT(f, st != TB_OK);
		else FUZZ_ASSERT(f, st == TB_OK && tb_shape_get_rolling_resistance(f->w, s) == v);
		break;
	}
	case 10: {
		float v = maybe(f, -5.0f, 5.0f, 20);
		st = tb_shape_set_tangent_speed(f->w, s, v);
		if (!valid) FUZZ_ASSERT(f, st == TB_ERR_STALE_HANDLE);
		else if (!isfinite(v) || fabsf(v) > 1e6f) FUZZ_ASSERT(f, st != TB_OK);
		else if (fabsf(v) <= 5.0f) FUZZ_ASSERT(f, st == TB_OK);
		break;
	}
	case 11: {
		tb_vec2 up = chance(f, 30) ? tb_vec2_zero : tb_v2(maybe(f, -1.0f, 1.0f, 10), maybe(f, -1.0f, 1.0f, 10));
		st = tb_shape_set_one_way(f->w, s, up);
		if (!valid) FUZZ_ASSERT(f, st == TB_ERR_STALE_HANDLE);
		else if (!finite2(up)) FUZZ_ASSERT(f, st != TB_OK);
		if (st == TB_OK) {
			tb_vec2 u = tb_shape_get_one_way(f->w, s);
			float len = tb_length(u);
			FUZZ_ASSERT(f, len == 0.0f || fabsf(len - 1.0f) < 1e-4f);
		}
		break;
	}
	case 0: {
		float d = maybe(f, 0.0f, 5.0f, 20);
		st = tb_shape_set_density(f->w, s, d, chance(f, 80));
		if (!valid) FUZZ_ASSERT(f, st == TB_ERR_STALE_HANDLE);
		else if (!isfinite(d) || d < 0.0f) FUZZ_ASSERT(f, st != TB_OK);
		else if (d <= 5.0f) FUZZ_ASSERT(f, st == TB_OK);
		break;
	}
	case 1: {
		float v = maybe(f, 0.0f, 1.0f, 20);
		st = chance(f, 50) ? tb_shape_set_friction(f->w, s, v) : tb_shape_set_restitution(f->w, s, v);
		if (!valid) FUZZ_ASSERT(f, st == TB_ERR_STALE_HANDLE);
		else if (!isfinite(v) || v < 0.0f) FUZZ_ASSERT(f, st != TB_OK);
		else if (v <= 1.0f) FUZZ_ASSERT(f, st == TB_OK);
		break;
	}
	case 2: {
		tb_geometry g;
		bool ok = random_geometry(f, &g, 15);
		bool chain = valid && tb_shape_get_type(f->w, s) == TB_SHAPE_CHAIN_SEGMENT;
		/* with an absurd density the engine may refuse a size whose mass would overflow */
		ok = ok && tb_shape_get_density(f->w, s) <= 5.0f;
		snprintf(f->detail, sizeof f->detail, "set geometry kind %d (%g %g %g) on kind %d", (int)g.type,
		         (double)g.circle.center.x, (double)g.circle.center.y, (double)g.circle.radius,
		         (int)tb_shape_get_type(f->w, s));
		st = tb_shape_set_geometry(f->w, s, &g);
		if (!valid) FUZZ_ASSERT(f, st == TB_ERR_STALE_HANDLE);
		else if (geometry_has_nonfinite(&g) || geometry_has_nonpositive_radius(&g)) FUZZ_ASSERT(f, st != TB_OK);
		else if (ok && !chain) FUZZ_ASSERT(f, st == TB_OK);
		if (valid && st == TB_OK) FUZZ_ASSERT(f, tb_shape_get_type(f->w, s) == g.type);
		break;
	}
	case 3: tb_shape_set_sensor(f->w, s, chance(f, 30)); break;
	case 4: tb_shape_set_enabled(f->w, s, chance(f, 80)); break;
	case 5: {
		tb_filter fl = {(uint64_t)1 << rnd_int(f, 4), chance(f, 80) ? UINT64_MAX : (uint64_t)rnd(f), rnd_int(f, 5) - 2};
		tb_shape_set_filter(f->w, s, fl);
		break;
	}
	case 6: {
		tb_field fld;
		memset(&fld, 0, sizeof fld);
		fld.kind = (tb_field_kind)rnd_int(f, 4);
		fld.force = tb_v2(maybe(f, -50.0f, 50.0f, 10), maybe(f, -50.0f, 50.0f, 10));
		fld.strength = maybe(f, -50.0f, 50.0f, 10);
		fld.falloff = (tb_falloff)rnd_int(f, 3);
		fld.center = tb_v2(rnd_range(f, -1.0f, 1.0f), rnd_range(f, -1.0f, 1.0f));
		fld.drag = maybe(f, 0.0f, 5.0f, 10);
		fld.use_acceleration = chance(f, 50);
		const tb_field *arg = chance(f, 10) ? NULL : &fld;
		st = tb_shape_set_field(f->w, s, arg);
		if (!valid) FUZZ_ASSERT(f, st == TB_ERR_STALE_HANDLE);
		else if (arg != NULL && (!finite2(fld.force) || !isfinite(fld.strength) || !isfinite(fld.drag)))
			FUZZ_ASSERT(f, st != TB_OK);
		else if (arg == NULL) FUZZ_ASSERT(f, st == TB_OK);
		break;
	}
	case 7:
		tb_shape_enable_contact_events(f->w, s, chance(f, 80));
		tb_shape_enable_hit_events(f->w, s, chance(f, 30));
		tb_shape_enable_sensor_events(f->w, s, chance(f, 80));
		break;
	default: {
		tb_vec2 p = tb_v2(maybe(f, -30.0f, 30.0f, 10), rnd_range(f, 0.0f, 30.0f));
		tb_shape_test_point(f->w, s, p);
		tb_cast_output o = tb_shape_ray_cast(f->w, s, p, tb_v2(rnd_range(f, -10.0f, 10.0f), -20.0f));
		if (o.hit) FUZZ_ASSERT(f, finite2(o.point) && o.fraction >= 0.0f && o.fraction <= 1.0f);
		if (!valid) FUZZ_ASSERT(f, !o.hit);
		break;
	}
	}
	if (!valid) FUZZ_ASSERT(f, !tb_shape_is_valid(f->w, s));
	f->what = "after shape property";
	if (valid) {
		tb_body_id b = tb_shape_get_body(f->w, s);
		float m = tb_body_get_mass(f->w, b);
		FUZZ_ASSERT(f, isfinite(m) && m >= 0.0f);
		FUZZ_ASSERT(f, finite2(tb_body_get_world_center(f->w, b)));
	}
}

static void op_joint_property(fuzz *f)
{
	if (f->joint_count == 0) return;
	f->what = "joint property";
	tb_joint_id j = f->joints[rnd_int(f, f->joint_count)];
	tb_joint_def d = tb_joint_get_def(f->w, j);
	d.motor_speed = maybe(f, -5.0f, 5.0f, 10);
	d.target = tb_v2(rnd_range(f, -20.0f, 20.0f), maybe(f, 0.0f, 20.0f, 10));
	d.enable_limit = chance(f, 50);
	snprintf(f->detail, sizeof f->detail, "joint set def motor %g target (%g, %g)", (double)d.motor_speed,
	         (double)d.target.x, (double)d.target.y);
	tb_status st = tb_joint_set_def(f->w, j, &d);
	if (!isfinite(d.motor_speed) || !finite2(d.target)) FUZZ_ASSERT(f, st != TB_OK);
	FUZZ_ASSERT(f, isfinite(tb_joint_get_value(f->w, j)));
	FUZZ_ASSERT(f, finite2(tb_joint_get_world_anchor_a(f->w, j)));
}

/* A hook that switches off contacts of every third shape slot pair,
 * deterministically, and counts its calls. */
static bool fuzz_presolve(tb_shape_id a, tb_shape_id b, const tb_manifold *m, void *context)
{
	fuzz *f = context;
	f->presolve_calls += 1;
	if (m->point_count < 1 || m->point_count > 2 || !finite2(m->normal)) f->presolve_calls += 1000000000;
	return (a.index1 + b.index1) % 3 != 0;
}

static void op_mover(fuzz *f)
{
	f->what = "mover";
	int r = rnd_int(f, 10);
	if (r < 2 || f->mover_count == 0) {
		if (f->mover_count >= MAX_MOVERS) return;
		tb_mover_def d = tb_default_mover_def();
		d.position = tb_v2(maybe(f, -30.0f, 30.0f, 5), rnd_range(f, 0.0f, 20.0f));
		d.capsule.radius = maybe(f, 0.1f, 0.6f, 5);
		d.capsule.center2 = tb_v2(0.0f, maybe(f, 0.2f, 1.0f, 5));
		d.max_slope = maybe(f, 0.0f, 1.4f, 5);
		d.step_height = maybe(f, 0.0f, 0.5f, 5);
		d.push_strength = maybe(f, 0.0f, 100.0f, 5);
		d.filter.mask_bits = chance(f, 80) ? UINT64_MAX : (uint64_t)rnd(f);
		tb_status st;
		tb_mover_id m = tb_create_mover(f->w, &d, &st);
		snprintf(f->detail, sizeof f->detail, "create mover at (%g, %g) r %g top %g slope %g step %g push %g",
		         (double)d.position.x, (double)d.position.y, (double)d.capsule.radius,
		         (double)d.capsule.center2.y, (double)d.max_slope, (double)d.step_height, (double)d.push_strength);
		bool bad = !finite2(d.position) || !(d.capsule.radius > 0.01f) || !isfinite(d.capsule.radius) ||
		           !finite2(d.capsule.center2) || !(d.max_slope >= 0.0f && d.max_slope < 1.5707f) ||
		           !(d.step_height >= 0.0f) || !isfinite(d.step_height) || !(d.push_strength >= 0.0f) ||
		           !isfinite(d.push_strength);
		if (bad) FUZZ_ASSERT(f, TB_IS_NULL(m) && st != TB_OK);
		if (!TB_IS_NULL(m)) f->movers[f->mover_count++] = m;
		return;
	}
	int k = rnd_int(f, f->mover_count);
	tb_mover_id m = f->movers[k];
	if (r == 2) {
		tb_destroy_mover(f->w, m);
		FUZZ_ASSERT(f, !tb_mover_is_valid(f->w, m));
		f->stale_mover = m;
		f->movers[k] = f->movers[--f->mover_count];
		return;
	}
	if (r == 3) {
		tb_vec2 p = tb_v2(maybe(f, -30.0f, 30.0f, 10), rnd_range(f, 0.0f, 20.0f));
		tb_status st = tb_mover_set_position(f->w, m, p);
		if (!finite2(p)) FUZZ_ASSERT(f, st != TB_OK);
		return;
	}
	if (r == 4) {
		tb_mover_def d = tb_mover_get_def(f->w, m);
		d.step_height = maybe(f, 0.0f, 0.5f, 10);
		d.max_slope = maybe(f, 0.0f, 1.4f, 10);
		tb_status st = tb_mover_set_def(f->w, m, &d);
		if (!isfinite(d.step_height) || d.step_height < 0.0f || !isfinite(d.max_slope)) FUZZ_ASSERT(f, st != TB_OK);
		return;
	}
	/* a stale mover does nothing */
	if (r == 5 && !TB_IS_NULL(f->stale_mover)) {
		tb_vec2 done = tb_mover_move(f->w, f->stale_mover, tb_v2(1.0f, 1.0f));
		FUZZ_ASSERT(f, done.x == 0.0f && done.y == 0.0f && !tb_mover_is_grounded(f->w, f->stale_mover));
		return;
	}
	tb_vec2 delta = tb_v2(maybe(f, -0.5f, 0.5f, 5), maybe(f, -0.6f, 0.4f, 5));
	if (chance(f, 3)) delta = tb_v2(rnd_range(f, -100.0f, 100.0f), rnd_range(f, -100.0f, 100.0f));
	tb_vec2 before = tb_mover_get_position(f->w, m);
	snprintf(f->detail, sizeof f->detail, "move mover from (%g, %g) by (%g, %g)", (double)before.x,
	         (double)before.y, (double)delta.x, (double)delta.y);
	tb_vec2 done = tb_mover_move(f->w, m, delta);
	f->moves += 1;
	tb_vec2 after = tb_mover_get_position(f->w, m);
	FUZZ_ASSERT(f, finite2(done) && finite2(after));
	FUZZ_ASSERT(f, fabsf(after.x) <= 1e6f && fabsf(after.y) <= 1e6f);
	FUZZ_ASSERT(f, fabsf(after.x - before.x - done.x) < 1e-3f && fabsf(after.y - before.y - done.y) < 1e-3f);
	if (!finite2(delta)) FUZZ_ASSERT(f, done.x == 0.0f && done.y == 0.0f);
	tb_vec2 n = tb_mover_get_ground_normal(f->w, m);
	FUZZ_ASSERT(f, finite2(n));
	if (tb_mover_is_grounded(f->w, m)) FUZZ_ASSERT(f, fabsf(tb_length(n) - 1.0f) < 1e-3f);
}

static void op_world_settings(fuzz *f)
{
	f->what = "world settings";
	tb_world_def d = tb_world_get_def(f->w);
	tb_world_def old = d;
	d.gravity = tb_v2(maybe(f, -5.0f, 5.0f, 10), maybe(f, -20.0f, 5.0f, 10));
	d.substeps = chance(f, 10) ? rnd_int(f, 200) - 50 : 1 + rnd_int(f, 6);
	d.contact_hertz = maybe(f, 5.0f, 60.0f, 5);
	d.max_contact_push_speed = maybe(f, 0.5f, 10.0f, 5);
	d.restitution_threshold = maybe(f, 0.0f, 3.0f, 5);
	d.max_linear_speed = chance(f, 5) ? weird(f) : rnd_range(f, 50.0f, 400.0f);
	d.enable_warm_starting = chance(f, 80);
	d.enable_position_correction = chance(f, 80);
	d.enable_sleep = chance(f, 70);
	d.enable_continuous = chance(f, 80);
	d.enable_motion = chance(f, 90);
	d.friction_mix = (tb_mix_rule)(rnd_int(f, TB_MIX_RULE_COUNT + 2) - 1);
	d.restitution_mix = (tb_mix_rule)rnd_int(f, TB_MIX_RULE_COUNT);
	snprintf(f->detail, sizeof f->detail, "world def g (%g, %g) substeps %d hertz %g push %g max speed %g",
	         (double)d.gravity.x, (double)d.gravity.y, d.substeps, (double)d.contact_hertz,
	         (double)d.max_contact_push_speed, (double)d.max_linear_speed);
	tb_status st = tb_world_set_def(f->w, &d);
	bool bad = d.substeps < 1 || d.substeps > 64 || !finite2(d.gravity) || !isfinite(d.contact_hertz) ||
	           d.contact_hertz < 0.0f || !isfinite(d.max_contact_push_speed) || d.max_contact_push_speed < 0.0f ||
	           !isfinite(d.restitution_threshold) || d.restitution_threshold < 0.0f || !isfinite(d.max_linear_speed) ||
	           d.max_linear_speed < 0.0f || (int)d.friction_mix < 0 || d.friction_mix >= TB_MIX_RULE_COUNT;
	if (bad) {
		FUZZ_ASSERT(f, st != TB_OK);
		tb_world_def now = tb_world_get_def(f->w);
		FUZZ_ASSERT(f, now.substeps == old.substeps);
		FUZZ_ASSERT(f, now.gravity.x == old.gravity.x && now.gravity.y == old.gravity.y);
	}
	/* keep the walk moving: mostly motion on */
	if (!tb_world_get_def(f->w).enable_motion && chance(f, 50)) {
		tb_world_def on = tb_world_get_def(f->w);
		on.enable_motion = true;
		FUZZ_ASSERT(f, tb_world_set_def(f->w, &on) == TB_OK);
	}
}

/* ---------------- snapshots ---------------- */

static bool has_body(const tb_body_id *ids, int n, tb_body_id id)
{
	for (int i = 0; i < n; ++i) if (TB_ID_EQUALS(ids[i], id)) return true;
	return false;
}
static bool has_shape(const tb_shape_id *ids, int n, tb_shape_id id)
{
	for (int i = 0; i < n; ++i) if (TB_ID_EQUALS(ids[i], id)) return true;
	return false;
}
static bool has_joint(const tb_joint_id *ids, int n, tb_joint_id id)
{
	for (int i = 0; i < n; ++i) if (TB_ID_EQUALS(ids[i], id)) return true;
	return false;
}

/* Takes a snapshot (a slot of the few kept); its bytes always load, and load
 * to the same bytes. */
static void op_take_moment(fuzz *f)
{
	f->what = "snapshot";
	int k = f->moment_count < MAX_MOMENTS ? f->moment_count++ : rnd_int(f, MAX_MOMENTS);
	moment *m = f->moments + k;
	tb_snapshot_free(m->snap);
	tb_snapshot_free(m->loaded);
	tb_status st = TB_STATUS_COUNT;
	m->snap = tb_world_snapshot(f->w, &st);
	FUZZ_ASSERT(f, m->snap != NULL && st == TB_OK);
	m->hash = tb_world_hash(f->w);
	memcpy(m->bodies, f->bodies, sizeof f->bodies);
	m->body_count = f->body_count;
	memcpy(m->shapes, f->shapes, sizeof f->shapes);
	m->shape_count = f->shape_count;
	memcpy(m->joints, f->joints, sizeof f->joints);
	m->joint_count = f->joint_count;
	memcpy(m->movers, f->movers, sizeof f->movers);
	m->mover_count = f->mover_count;

	size_t size = tb_snapshot_save(m->snap, NULL, 0);
	unsigned char *bytes = malloc(size), *again = malloc(size);
	FUZZ_ASSERT(f, bytes != NULL && again != NULL && tb_snapshot_save(m->snap, bytes, size) == size);
	m->loaded = tb_snapshot_load(bytes, size, NULL, &st);
	snprintf(f->detail, sizeof f->detail, "snapshot of %zu bytes: load status %d", size, (int)st);
	FUZZ_ASSERT(f, m->loaded != NULL && st == TB_OK);
	FUZZ_ASSERT(f, tb_snapshot_save(m->loaded, again, size) == size);
	FUZZ_ASSERT(f, memcmp(bytes, again, size) == 0);
	free(bytes);
	free(again);
	f->snapshots += 1;
}

/* Ids of the moment are alive again; those made since are stale. */
static void restore_lists(fuzz *f, const moment *m)
{
	for (int i = 0; i < f->body_count; ++i) {
		if (!has_body(m->bodies, m->body_count, f->bodies[i])) {
			FUZZ_ASSERT(f, !tb_body_is_valid(f->w, f->bodies[i]));
			push_stale_body(f, f->bodies[i]);
		}
	}
	for (int i = 0; i < f->shape_count; ++i) {
		if (!has_shape(m->shapes, m->shape_count, f->shapes[i])) {
			FUZZ_ASSERT(f, !tb_shape_is_valid(f->w, f->shapes[i]));
			push_stale_shape(f, f->shapes[i]);
		}
	}
	for (int i = 0; i < f->joint_count; ++i) {
		if (!has_joint(m->joints, m->joint_count, f->joints[i])) {
			FUZZ_ASSERT(f, !tb_joint_is_valid(f->w, f->joints[i]));
			push_stale_joint(f, f->joints[i]);
		}
	}
	memcpy(f->bodies, m->bodies, sizeof f->bodies);
	f->body_count = m->body_count;
	memcpy(f->shapes, m->shapes, sizeof f->shapes);
	f->shape_count = m->shape_count;
	memcpy(f->joints, m->joints, sizeof f->joints);
	f->joint_count = m->joint_count;
	/* movers: those of the moment are back, those made since are stale */
	for (int i = 0; i < f->mover_count; ++i) {
		bool kept = false;
		for (int k = 0; k < m->mover_count; ++k) kept |= TB_ID_EQUALS(f->movers[i], m->movers[k]);
		if (!kept) {
			FUZZ_ASSERT(f, !tb_mover_is_valid(f->w, f->movers[i]));
			f->stale_mover = f->movers[i];
		}
	}
	memcpy(f->movers, m->movers, sizeof f->movers);
	f->mover_count = m->mover_count;
	for (int i = 0; i < f->mover_count; ++i) FUZZ_ASSERT(f, tb_mover_is_valid(f->w, f->movers[i]));
	if (!TB_IS_NULL(f->stale_mover) && tb_mover_is_valid(f->w, f->stale_mover)) f->stale_mover = tb_null_mover_id;
	/* destroyed after the moment: back under their old ids */
	for (int i = 0; i < f->stale_body_count;) {
		if (has_body(f->bodies, f->body_count, f->stale_bodies[i])) f->stale_bodies[i] = f->stale_bodies[--f->stale_body_count];
		else ++i;
	}
	for (int i = 0; i < f->stale_shape_count;) {
		if (has_shape(f->shapes, f->shape_count, f->stale_shapes[i])) f->stale_shapes[i] = f->stale_shapes[--f->stale_shape_count];
		else ++i;
	}
	for (int i = 0; i < f->stale_joint_count;) {
		if (has_joint(f->joints, f->joint_count, f->stale_joints[i])) f->stale_joints[i] = f->stale_joints[--f->stale_joint_count];
		else ++i;
	}
	for (int i = 0; i < f->body_count; ++i) FUZZ_ASSERT(f, tb_body_is_valid(f->w, f->bodies[i]));
	for (int i = 0; i < f->shape_count; ++i) FUZZ_ASSERT(f, tb_shape_is_valid(f->w, f->shapes[i]));
	for (int i = 0; i < f->joint_count; ++i) FUZZ_ASSERT(f, tb_joint_is_valid(f->w, f->joints[i]));
}

/* A loaded snapshot is another world's: every id the walk holds goes stale,
 * and the world's objects are listed afresh. */
static void relist(fuzz *f)
{
	for (int i = 0; i < f->body_count; ++i) {
		FUZZ_ASSERT(f, !tb_body_is_valid(f->w, f->bodies[i]));
		push_stale_body(f, f->bodies[i]);
	}
	for (int i = 0; i < f->shape_count; ++i) {
		FUZZ_ASSERT(f, !tb_shape_is_valid(f->w, f->shapes[i]));
		push_stale_shape(f, f->shapes[i]);
	}
	for (int i = 0; i < f->joint_count; ++i) {
		FUZZ_ASSERT(f, !tb_joint_is_valid(f->w, f->joints[i]));
		push_stale_joint(f, f->joints[i]);
	}
	f->body_count = tb_world_get_bodies(f->w, f->bodies, MAX_BODIES);
	FUZZ_ASSERT(f, f->body_count <= MAX_BODIES);
	f->shape_count = 0;
	for (int i = 0; i < f->body_count; ++i) {
		int n = tb_body_get_shapes(f->w, f->bodies[i], f->shapes + f->shape_count, MAX_SHAPES - f->shape_count);
		FUZZ_ASSERT(f, f->shape_count + n <= MAX_SHAPES);
		f->shape_count += n;
	}
	f->joint_count = tb_world_get_joints(f->w, f->joints, MAX_JOINTS);
	FUZZ_ASSERT(f, f->joint_count <= MAX_JOINTS);
	for (int i = 0; i < f->mover_count; ++i) FUZZ_ASSERT(f, !tb_mover_is_valid(f->w, f->movers[i]));
	if (f->mover_count > 0) f->stale_mover = f->movers[0];
	f->mover_count = tb_world_get_movers(f->w, f->movers, MAX_MOVERS);
	FUZZ_ASSERT(f, f->mover_count <= MAX_MOVERS);
}

static void op_restore_moment(fuzz *f)
{
	f->what = "restore";
	if (f->moment_count == 0) return;
	moment *m = f->moments + rnd_int(f, f->moment_count);
	bool foreign = chance(f, 25);
	snprintf(f->detail, sizeof f->detail, "restore a %s snapshot of %d bodies", foreign ? "loaded" : "taken",
	         m->body_count);
	FUZZ_ASSERT(f, tb_world_restore(f->w, foreign ? m->loaded : m->snap) == TB_OK);
	FUZZ_ASSERT(f, tb_world_hash(f->w) == m->hash);
	if (foreign) {
		relist(f);
		f->foreign_restores += 1;
	} else {
		restore_lists(f, m);
	}
	f->restores += 1;
}

static void fuzz_run(uint64_t seed, int ops)
{
	fuzz *f = calloc(1, sizeof *f);
	assert_non_null(f);
	f->rng = seed;
	tb_world_def wd = tb_default_world_def();
	f->w = tb_create_world(&wd);
	assert_non_null(f->w);

	/* a floor so there are contacts to solve */
	tb_body_def gd = tb_default_body_def();
	tb_body_id ground = tb_create_body(f->w, &gd, NULL);
	tb_shape_def sd = tb_default_shape_def();
	tb_polygon floor = tb_make_offset_box(40.0f, 1.0f, tb_v2(0.0f, -1.0f), tb_rot_identity);
	f->shapes[f->shape_count++] = tb_create_polygon_shape(f->w, ground, &sd, &floor, NULL);
	f->bodies[f->body_count++] = ground;

	/* TB_FUZZ_TRACE=N prints every operation from number N on (to replay a failure) */
	const char *trace_env = getenv("TB_FUZZ_TRACE");
	int trace_from = trace_env != NULL ? atoi(trace_env) : -1;
	for (f->op = 0; f->op < ops; ++f->op) {
		int r = rnd_int(f, 100);
		f->detail[0] = '\0';
		if (r < 12) op_create_body(f);
		else if (r < 15) op_destroy_body(f);
		else if (r < 29) op_create_shape(f);
		else if (r < 30) op_create_chain(f);
		else if (r < 33) op_destroy_shape(f);
		else if (r < 37) op_create_joint(f);
		else if (r < 39) op_destroy_joint(f);
		else if (r < 55) op_step(f);
		else if (r < 62) op_query(f);
		else if (r < 76) op_body_property(f);
		else if (r < 86) op_shape_property(f);
		else if (r < 89) op_joint_property(f);
		else if (r < 91) op_world_settings(f);
		else if (r < 93) op_take_moment(f);
		else if (r < 95) op_restore_moment(f);
		else if (r < 97) op_mover(f);
		else if (r < 98) {
			f->what = "presolve";
			tb_world_set_presolve(f->w, chance(f, 50) ? fuzz_presolve : NULL, f);
		} else {
			f->what = "stale ids";
			check_stale(f);
		}
		if (trace_from >= 0 && f->op >= trace_from) print_message("# op %d: %s: %s\n", f->op, f->what, f->detail);
		f->what = "invariants after the operation";
		check_world(f);
		/* now and then start over from an empty world */
		if (f->op % 7000 == 6999) {
			f->what = "clear";
			tb_world_clear(f->w);
			for (int i = 0; i < f->body_count; ++i) push_stale_body(f, f->bodies[i]);
			f->body_count = 0;
			for (int i = 0; i < f->mover_count; ++i) FUZZ_ASSERT(f, !tb_mover_is_valid(f->w, f->movers[i]));
			f->mover_count = 0;
			prune(f);
			FUZZ_ASSERT(f, f->shape_count == 0 && f->joint_count == 0);
			FUZZ_ASSERT(f, tb_world_get_counters(f->w).body_count == 0);
		}
	}
	f->what = "end";
	check_world(f);
	print_message("# fuzz seed %llu: %d steps, rejected %d bodies, %d shapes, %d joints; %d snapshots, %d restores "
	              "(%d loaded); %d joints broke, %d mover moves, %d shape casts, %d pre-solve calls\n",
	              (unsigned long long)seed, f->steps, f->rejected_bodies, f->rejected_shapes, f->rejected_joints,
	              f->snapshots, f->restores, f->foreign_restores, f->breaks, f->moves, f->casts, f->presolve_calls);
	FUZZ_ASSERT(f, f->presolve_calls < 1000000000);
	/* the walk did real work */
	FUZZ_ASSERT(f, f->steps > ops / 10);
	FUZZ_ASSERT(f, f->rejected_bodies > 0 && f->rejected_shapes > 0 && f->rejected_joints > 0);
	FUZZ_ASSERT(f, f->restores > 50 && f->foreign_restores > 10);
	for (int k = 0; k < f->moment_count; ++k) {
		tb_snapshot_free(f->moments[k].snap);
		tb_snapshot_free(f->moments[k].loaded);
	}
	tb_destroy_world(f->w);
	free(f);
}

static void test_fuzz_seed_1(void **state)
{
	(void)state;
	fuzz_run(1u, OPS);
}

static void test_fuzz_seed_2(void **state)
{
	(void)state;
	fuzz_run(0x9E3779B97F4A7C15ull, OPS / 2);
	/* TB_FUZZ_SEEDS=N walks N more seeds (1000, 1001, ...), for a longer hunt */
	const char *more = getenv("TB_FUZZ_SEEDS");
	for (int k = 0; more != NULL && k < atoi(more); ++k) fuzz_run(1000u + (uint64_t)k, OPS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_seed_1),
		cmocka_unit_test(test_fuzz_seed_2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
