/* tumble physics: 2D vector math. Static inline so the hot loops see through
 * it, but for the trigonometry, which the engine owns (src/physics/math.c). */
#ifndef TB_MATH_H
#define TB_MATH_H

#include <math.h>
#include <stdbool.h>

#define TB_PI 3.14159265359f

typedef struct tb_vec2 { float x, y; } tb_vec2;
/* A rotation stored as cosine/sine: composing and inverting are cheap and exact. */
typedef struct tb_rot { float c, s; } tb_rot;
typedef struct tb_transform { tb_vec2 p; tb_rot q; } tb_transform;
typedef struct tb_aabb { tb_vec2 lower, upper; } tb_aabb;

static const tb_vec2 tb_vec2_zero = {0.0f, 0.0f};
static const tb_rot tb_rot_identity = {1.0f, 0.0f};
static const tb_transform tb_transform_identity = {{0.0f, 0.0f}, {1.0f, 0.0f}};

static inline tb_vec2 tb_v2(float x, float y) { tb_vec2 v = {x, y}; return v; }
static inline tb_vec2 tb_add(tb_vec2 a, tb_vec2 b) { return tb_v2(a.x + b.x, a.y + b.y); }
static inline tb_vec2 tb_sub(tb_vec2 a, tb_vec2 b) { return tb_v2(a.x - b.x, a.y - b.y); }
static inline tb_vec2 tb_neg(tb_vec2 a) { return tb_v2(-a.x, -a.y); }
static inline tb_vec2 tb_mul_sv(float s, tb_vec2 v) { return tb_v2(s * v.x, s * v.y); }
/* a + s * b */
static inline tb_vec2 tb_mul_add(tb_vec2 a, float s, tb_vec2 b) { return tb_v2(a.x + s * b.x, a.y + s * b.y); }
/* a - s * b */
static inline tb_vec2 tb_mul_sub(tb_vec2 a, float s, tb_vec2 b) { return tb_v2(a.x - s * b.x, a.y - s * b.y); }
static inline float tb_dot(tb_vec2 a, tb_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline float tb_cross(tb_vec2 a, tb_vec2 b) { return a.x * b.y - a.y * b.x; }
/* v x s (z-axis scalar) */
static inline tb_vec2 tb_cross_vs(tb_vec2 v, float s) { return tb_v2(s * v.y, -s * v.x); }
/* s x v */
static inline tb_vec2 tb_cross_sv(float s, tb_vec2 v) { return tb_v2(-s * v.y, s * v.x); }
/* counter-clockwise perpendicular */
static inline tb_vec2 tb_left_perp(tb_vec2 v) { return tb_v2(-v.y, v.x); }
static inline tb_vec2 tb_right_perp(tb_vec2 v) { return tb_v2(v.y, -v.x); }
static inline float tb_length_sq(tb_vec2 v) { return v.x * v.x + v.y * v.y; }
static inline float tb_length(tb_vec2 v) { return sqrtf(v.x * v.x + v.y * v.y); }
static inline float tb_distance(tb_vec2 a, tb_vec2 b) { return tb_length(tb_sub(b, a)); }
static inline float tb_distance_sq(tb_vec2 a, tb_vec2 b) { return tb_length_sq(tb_sub(b, a)); }
static inline tb_vec2 tb_lerp(tb_vec2 a, tb_vec2 b, float t) { return tb_v2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)); }
static inline tb_vec2 tb_min_v(tb_vec2 a, tb_vec2 b) { return tb_v2(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y); }
static inline tb_vec2 tb_max_v(tb_vec2 a, tb_vec2 b) { return tb_v2(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y); }
static inline tb_vec2 tb_abs_v(tb_vec2 a) { return tb_v2(fabsf(a.x), fabsf(a.y)); }
static inline float tb_minf(float a, float b) { return a < b ? a : b; }
static inline float tb_maxf(float a, float b) { return a > b ? a : b; }
static inline float tb_clampf(float a, float lo, float hi) { return a < lo ? lo : (a > hi ? hi : a); }
static inline int tb_mini(int a, int b) { return a < b ? a : b; }
static inline int tb_maxi(int a, int b) { return a > b ? a : b; }

static inline bool tb_is_valid_float(float a) { return isfinite(a); }
static inline bool tb_is_valid_vec2(tb_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

/* Returns the unit vector, or zero for a (near) zero vector. */
static inline tb_vec2 tb_normalize(tb_vec2 v)
{
	float len = tb_length(v);
	if (len < 1.0e-12f) return tb_vec2_zero;
	float inv = 1.0f / len;
	return tb_v2(inv * v.x, inv * v.y);
}

static inline tb_vec2 tb_get_length_and_normalize(float *length, tb_vec2 v)
{
	*length = tb_length(v);
	if (*length < 1.0e-12f) return tb_vec2_zero;
	float inv = 1.0f / *length;
	return tb_v2(inv * v.x, inv * v.y);
}

/* sinf, cosf and atan2f computed from IEEE adds, multiplies and divides only,
 * so they give the same bits on every platform (glibc, musl and wasm, Apple's
 * libm differ in the last bit); within one unit in the last place. */
float tb_sinf(float x);
float tb_cosf(float x);
float tb_atan2f(float y, float x);
/* {cos, sin} of the angle, with one range reduction */
tb_rot tb_make_rot(float angle);
static inline float tb_rot_angle(tb_rot q) { return tb_atan2f(q.s, q.c); }
static inline tb_vec2 tb_rot_x_axis(tb_rot q) { return tb_v2(q.c, q.s); }
static inline tb_vec2 tb_rot_y_axis(tb_rot q) { return tb_v2(-q.s, q.c); }

/* Keeps a rotation unit length after integration. */
static inline tb_rot tb_normalize_rot(tb_rot q)
{
	float mag = sqrtf(q.s * q.s + q.c * q.c);
	float inv = mag > 0.0f ? 1.0f / mag : 0.0f;
	tb_rot r = {q.c * inv, q.s * inv};
	return r;
}

/* Integrates a rotation by an angle increment (first order, then normalized). */
static inline tb_rot tb_integrate_rot(tb_rot q1, float delta_angle)
{
	tb_rot q2 = {q1.c - delta_angle * q1.s, q1.s + delta_angle * q1.c};
	return tb_normalize_rot(q2);
}

/* q * r */
static inline tb_rot tb_mul_rot(tb_rot q, tb_rot r)
{
	tb_rot qr = {q.c * r.c - q.s * r.s, q.s * r.c + q.c * r.s};
	return qr;
}
/* inverse(q) * r */
static inline tb_rot tb_inv_mul_rot(tb_rot q, tb_rot r)
{
	tb_rot qr = {q.c * r.c + q.s * r.s, q.c * r.s - q.s * r.c};
	return qr;
}
/* Relative angle of b with respect to a, in [-pi, pi]. */
static inline float tb_relative_angle(tb_rot b, tb_rot a)
{
	float s = b.s * a.c - b.c * a.s;
	float c = b.c * a.c + b.s * a.s;
	return tb_atan2f(s, c);
}
static inline float tb_unwind_angle(float a)
{
	if (a < -TB_PI) return a + 2.0f * TB_PI * ceilf((-TB_PI - a) / (2.0f * TB_PI));
	if (a > TB_PI) return a - 2.0f * TB_PI * ceilf((a - TB_PI) / (2.0f * TB_PI));
	return a;
}

static inline tb_vec2 tb_rotate(tb_rot q, tb_vec2 v) { return tb_v2(q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y); }
static inline tb_vec2 tb_inv_rotate(tb_rot q, tb_vec2 v) { return tb_v2(q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y); }

static inline tb_vec2 tb_transform_point(tb_transform t, tb_vec2 p)
{
	return tb_v2(t.q.c * p.x - t.q.s * p.y + t.p.x, t.q.s * p.x + t.q.c * p.y + t.p.y);
}
static inline tb_vec2 tb_inv_transform_point(tb_transform t, tb_vec2 p)
{
	float vx = p.x - t.p.x, vy = p.y - t.p.y;
	return tb_v2(t.q.c * vx + t.q.s * vy, -t.q.s * vx + t.q.c * vy);
}
/* A * B */
static inline tb_transform tb_mul_transforms(tb_transform a, tb_transform b)
{
	tb_transform c;
	c.q = tb_mul_rot(a.q, b.q);
	c.p = tb_add(tb_rotate(a.q, b.p), a.p);
	return c;
}
/* inverse(A) * B */
static inline tb_transform tb_inv_mul_transforms(tb_transform a, tb_transform b)
{
	tb_transform c;
	c.q = tb_inv_mul_rot(a.q, b.q);
	c.p = tb_inv_rotate(a.q, tb_sub(b.p, a.p));
	return c;
}

static inline bool tb_aabb_overlaps(tb_aabb a, tb_aabb b)
{
	return !(b.lower.x > a.upper.x || b.lower.y > a.upper.y || a.lower.x > b.upper.x || a.lower.y > b.upper.y);
}
static inline bool tb_aabb_contains(tb_aabb outer, tb_aabb inner)
{
	return outer.lower.x <= inner.lower.x && outer.lower.y <= inner.lower.y && inner.upper.x <= outer.upper.x &&
	       inner.upper.y <= outer.upper.y;
}
static inline tb_aabb tb_aabb_union(tb_aabb a, tb_aabb b)
{
	tb_aabb c = {tb_min_v(a.lower, b.lower), tb_max_v(a.upper, b.upper)};
	return c;
}
static inline float tb_aabb_perimeter(tb_aabb a)
{
	return 2.0f * ((a.upper.x - a.lower.x) + (a.upper.y - a.lower.y));
}
static inline tb_vec2 tb_aabb_center(tb_aabb a) { return tb_v2(0.5f * (a.lower.x + a.upper.x), 0.5f * (a.lower.y + a.upper.y)); }

#endif
