/* The engine's own trigonometry (src/physics/math.c): within one unit in the
 * last place of glibc's double results rounded to float, nearly always equal
 * to them, C's special values, and a reference scene whose world hash is
 * pinned, so a change to any number on the step's path shows up here (and,
 * through `make web-test`, in the browser build, which must print the same). */
#include "test_util.h"

#include <float.h>
#include <string.h>

#include "joint.h"
#include "ref_scene.h"

static uint32_t float_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static float bits_float(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* Distance in representable floats (same sign assumed, or both near zero). */
static int64_t ulp_distance(float a, float b)
{
	int64_t ia = float_bits(a), ib = float_bits(b);
	if (ia & 0x80000000) ia = 0x80000000 - ia;
	if (ib & 0x80000000) ib = 0x80000000 - ib;
	return ia > ib ? ia - ib : ib - ia;
}

typedef struct tally {
	long count, off;
	int64_t worst;
	float worst_in;
} tally;

static void check(tally *t, float got, float want, float input)
{
	t->count += 1;
	int64_t d = ulp_distance(got, want);
	if (d != 0) t->off += 1;
	if (d > t->worst) {
		t->worst = d;
		t->worst_in = input;
	}
}

static void report(const char *name, const tally *t)
{
	printf("# %s: %ld inputs, %ld differ from glibc rounded to float (%.2g), worst %lld ulp at %.9g\n", name, t->count,
	       t->off, (double)t->off / (double)t->count, (long long)t->worst, (double)t->worst_in);
	if (t->worst > 1) fail_msg("%s: %lld ulp off at %.9g", name, (long long)t->worst, (double)t->worst_in);
	/* nearly correctly rounded: only inputs whose value sits within ~1e-16 of
	 * a rounding boundary may differ */
	if (t->off * 10000 > t->count) fail_msg("%s: %ld of %ld differ", name, t->off, t->count);
}

/* Every 613th float from 2^-30 up to the largest: each binade, tiny to huge. */
static void test_sin_cos_sweep(void **state)
{
	(void)state;
	tally ts = {0}, tc = {0};
	for (uint32_t u = float_bits(0x1p-30f); u < 0x7f800000u; u += 613) {
		float x = bits_float(u);
		check(&ts, tb_sinf(x), (float)sin((double)x), x);
		check(&tc, tb_cosf(x), (float)cos((double)x), x);
		check(&ts, tb_sinf(-x), (float)sin(-(double)x), -x);
	}
	report("sinf", &ts);
	report("cosf", &tc);
}

/* Where the engine lives: every 97th float in [0, 8 pi]. */
static void test_sin_cos_dense(void **state)
{
	(void)state;
	tally ts = {0}, tc = {0};
	for (uint32_t u = 0; u < float_bits(8.0f * 3.14159265f); u += 97) {
		float x = bits_float(u);
		tb_rot q = tb_make_rot(x);
		check(&ts, q.s, (float)sin((double)x), x);
		check(&tc, q.c, (float)cos((double)x), x);
		assert_true(float_bits(q.s) == float_bits(tb_sinf(x)) && float_bits(q.c) == float_bits(tb_cosf(x)));
	}
	report("sinf near", &ts);
	report("cosf near", &tc);
}

/* The floats closest to multiples of pi/2 are where a sloppy reduction loses
 * every bit: the float nearest k pi/2 and its neighbours, for k up to 50000,
 * then a few large inputs. */
static void test_sin_cos_near_multiples(void **state)
{
	(void)state;
	tally t = {0};
	for (int k = 1; k < 50000; ++k) {
		float x = (float)(k * 1.5707963267948966);
		for (int d = -2; d <= 2; ++d) {
			float y = bits_float(float_bits(x) + (uint32_t)d);
			check(&t, tb_sinf(y), (float)sin((double)y), y);
			check(&t, tb_cosf(y), (float)cos((double)y), y);
		}
	}
	static const float big[] = {0x1.921fb6p+1f, 0x1.921fb6p+2f, 0x1p+24f, 0x1.fffffep+63f, 0x1.fffffep+127f};
	for (size_t i = 0; i < sizeof big / sizeof big[0]; ++i) {
		check(&t, tb_sinf(big[i]), (float)sin((double)big[i]), big[i]);
		check(&t, tb_cosf(big[i]), (float)cos((double)big[i]), big[i]);
	}
	report("sin/cos near k pi/2", &t);
}

static void test_sin_cos_special(void **state)
{
	(void)state;
	assert_true(float_bits(tb_sinf(0.0f)) == 0u);
	assert_true(float_bits(tb_sinf(-0.0f)) == 0x80000000u);
	assert_true(tb_cosf(0.0f) == 1.0f && tb_cosf(-0.0f) == 1.0f);
	assert_true(isnan(tb_sinf(INFINITY)) && isnan(tb_cosf(-INFINITY)) && isnan(tb_sinf(NAN)));
	tb_rot q = tb_make_rot(NAN);
	assert_true(isnan(q.c) && isnan(q.s));
	/* exact where C's are */
	assert_true(tb_sinf(0x1p-100f) == 0x1p-100f);
	assert_true(tb_cosf(0x1p-100f) == 1.0f);
}

static void test_atan2_sweep(void **state)
{
	(void)state;
	tally t = {0};
	/* the ratio's every 293rd float in (0, 2^30), each at four scales and
	 * in all four quadrants */
	for (uint32_t u = float_bits(0x1p-30f); u < float_bits(0x1p30f); u += 293) {
		float r = bits_float(u);
		static const float scale[] = {1.0f, 0x1p-60f, 0x1p50f, 3.7f};
		float s = scale[(u / 293) & 3];
		float y = r * s, x = s;
		check(&t, tb_atan2f(y, x), (float)atan2((double)y, (double)x), r);
		check(&t, tb_atan2f(-y, x), (float)atan2(-(double)y, (double)x), r);
		check(&t, tb_atan2f(y, -x), (float)atan2((double)y, -(double)x), r);
		check(&t, tb_atan2f(-y, -x), (float)atan2(-(double)y, -(double)x), r);
	}
	/* and unit vectors all round, as the engine's rotations are */
	for (int i = 0; i < 500000; ++i) {
		float a = -3.2f + 6.4f * (float)i / 500000.0f;
		tb_rot q = tb_make_rot(a);
		check(&t, tb_rot_angle(q), (float)atan2((double)q.s, (double)q.c), a);
	}
	report("atan2f", &t);
}

static void test_atan2_special(void **state)
{
	(void)state;
	const float pi = (float)M_PI, h = (float)M_PI_2, q = (float)M_PI_4;
	struct { float y, x, want; } cases[] = {
		{0.0f, 0.0f, 0.0f},          {-0.0f, 0.0f, -0.0f},          {0.0f, -0.0f, pi},
		{-0.0f, -0.0f, -pi},         {0.0f, -1.0f, pi},             {-0.0f, -1.0f, -pi},
		{1.0f, 0.0f, h},             {-1.0f, -0.0f, -h},            {INFINITY, INFINITY, q},
		{INFINITY, -INFINITY, 3 * q}, {-INFINITY, -INFINITY, -3 * q}, {1.0f, INFINITY, 0.0f},
		{1.0f, -INFINITY, pi},       {-1.0f, -INFINITY, -pi},       {INFINITY, 1.0f, h},
		{1.0f, 1.0f, q},             {-1.0f, 1.0f, -q},             {FLT_MAX, FLT_TRUE_MIN, h},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		float got = tb_atan2f(cases[i].y, cases[i].x);
		float libm = atan2f(cases[i].y, cases[i].x);
		if (float_bits(got) != float_bits(cases[i].want) || float_bits(got) != float_bits(libm))
			fail_msg("atan2(%g, %g) = %.9g, want %.9g (libm %.9g)", (double)cases[i].y, (double)cases[i].x,
			         (double)got, (double)cases[i].want, (double)libm);
	}
	assert_true(isnan(tb_atan2f(NAN, 1.0f)) && isnan(tb_atan2f(1.0f, NAN)));
}

/* The joint solver's float arc tangent (joint.h): within 1e-6 rad of atan2
 * in double (6.4e-7 measured), odd in y, and safe on every input. */
#define SOLVER_ATAN2_BOUND 1.0e-6

typedef struct abs_tally {
	long count;
	double worst;
	float worst_y, worst_x;
} abs_tally;

/* The error against libm's double atan2, taken the short way round the circle
 * (the two ends of (-pi, pi] are one angle). */
static void check_abs(abs_tally *t, float y, float x)
{
	float got = tb_solver_atan2(y, x);
	double want = atan2((double)y, (double)x);
	double e = fabs((double)got - want);
	if (e > M_PI) e = fabs(e - 2.0 * M_PI);
	t->count += 1;
	if (!(e <= t->worst)) { /* a NaN is the worst of all */
		t->worst = isnan(e) ? INFINITY : e;
		t->worst_y = y;
		t->worst_x = x;
	}
	/* odd in y, bit for bit, so a limit or spring is the same both ways */
	if (float_bits(tb_solver_atan2(-y, x)) != (float_bits(got) ^ 0x80000000u) && y != 0.0f)
		fail_msg("solver atan2 not odd at (%.9g, %.9g)", (double)y, (double)x);
}

static void report_abs(const char *name, const abs_tally *t)
{
	printf("# %s: %ld inputs, largest error %.3g rad at (%.9g, %.9g)\n", name, t->count, t->worst,
	       (double)t->worst_y, (double)t->worst_x);
	if (!(t->worst <= SOLVER_ATAN2_BOUND))
		fail_msg("%s: %.3g rad off at (%.9g, %.9g)", name, t->worst, (double)t->worst_y, (double)t->worst_x);
}

static void test_solver_atan2_sweep(void **state)
{
	(void)state;
	abs_tally ratio = {0}, circle = {0}, unit = {0};
	/* every 97th float ratio in [0, 1] (both octants of each quadrant), then
	 * every 293rd in (2^-30, 2^30) at four scales, tiny to huge */
	for (uint32_t u = 0; u <= float_bits(1.0f); u += 97) {
		float t = bits_float(u);
		check_abs(&ratio, t, 1.0f);
		check_abs(&ratio, 1.0f, t);
		check_abs(&ratio, t, -1.0f);
		check_abs(&ratio, 1.0f, -t);
	}
	for (uint32_t u = float_bits(0x1p-30f); u < float_bits(0x1p30f); u += 293) {
		static const float scale[] = {1.0f, 0x1p-60f, 0x1p50f, 3.7f};
		float s = scale[(u / 293) & 3], y = bits_float(u) * s;
		check_abs(&ratio, y, s);
		check_abs(&ratio, y, -s);
	}
	report_abs("solver atan2, ratios", &ratio);
	/* what the solver sees: the relative angle of two unit rotations, all round */
	for (int i = 0; i <= 1000000; ++i) {
		float a = -3.2f + 6.4f * (float)i / 1000000.0f;
		tb_rot q = tb_make_rot(a);
		check_abs(&circle, q.s, q.c);
		tb_rot base = tb_make_rot(0.37f * (float)i);
		tb_rot b = tb_mul_rot(q, base);
		float got = tb_solver_relative_angle(b, base);
		double want = atan2((double)b.s * base.c - (double)b.c * base.s, (double)b.c * base.c + (double)b.s * base.s);
		double e = fabs((double)got - want);
		if (e > M_PI) e = fabs(e - 2.0 * M_PI);
		unit.count += 1;
		if (e > unit.worst) {
			unit.worst = e;
			unit.worst_y = a;
		}
	}
	report_abs("solver atan2, unit circle", &circle);
	report_abs("solver relative angle", &unit);
}

static void test_solver_atan2_special(void **state)
{
	(void)state;
	const float pi = 3.14159274f, h = 1.57079637f;
	/* exact values where the construction gives them */
	assert_true(float_bits(tb_solver_atan2(0.0f, 0.0f)) == 0u);
	assert_true(tb_solver_atan2(-0.0f, 0.0f) == 0.0f && tb_solver_atan2(0.0f, -0.0f) == 0.0f &&
	            tb_solver_atan2(-0.0f, -0.0f) == 0.0f);
	assert_true(tb_solver_atan2(0.0f, 1.0f) == 0.0f && tb_solver_atan2(0.0f, 5.0f) == 0.0f);
	assert_true(tb_solver_atan2(0.0f, -1.0f) == pi && tb_solver_atan2(-0.0f, -1.0f) == pi);
	assert_true(tb_solver_atan2(1.0f, 0.0f) == h && tb_solver_atan2(-1.0f, 0.0f) == -h);
	assert_true(tb_solver_atan2(1.0f, -0.0f) == h && tb_solver_atan2(-1.0f, -0.0f) == -h);
	/* tiny angles keep their value: the leading coefficient is exactly 1 */
	assert_true(tb_solver_atan2(FLT_TRUE_MIN, 1.0f) == FLT_TRUE_MIN);
	assert_true(tb_solver_atan2(1e-20f, 1.0f) == 1e-20f && tb_solver_atan2(-1e-20f, 1.0f) == -1e-20f);
	/* near +-pi: never past the float nearest pi, and the two sides of the cut */
	float up = tb_solver_atan2(1e-7f, -1.0f), down = tb_solver_atan2(-1e-7f, -1.0f);
	assert_true(up > 3.1415f && up <= pi && down < -3.1415f && down >= -pi);
	/* tiny, huge and infinite arguments */
	struct { float y, x; } cases[] = {
		{FLT_TRUE_MIN, FLT_TRUE_MIN}, {-FLT_TRUE_MIN, 3 * FLT_TRUE_MIN}, {1e-40f, -1e-40f}, {FLT_MIN, FLT_MIN},
		{FLT_MAX, FLT_MAX},           {-FLT_MAX, FLT_MAX},               {FLT_MAX, -FLT_MAX}, {FLT_MAX, 1.0f},
		{1.0f, FLT_MAX},              {1.0f, -FLT_MAX},                  {FLT_MAX, FLT_TRUE_MIN},
		{FLT_TRUE_MIN, -FLT_MAX},     {INFINITY, 1.0f},                  {-INFINITY, -1.0f}, {1.0f, INFINITY},
		{1.0f, -INFINITY},            {-1.0f, -INFINITY},                {1e30f, 1e-30f},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		float got = tb_solver_atan2(cases[i].y, cases[i].x);
		double want = atan2((double)cases[i].y, (double)cases[i].x);
		if (!(fabs((double)got - want) <= SOLVER_ATAN2_BOUND))
			fail_msg("solver atan2(%g, %g) = %.9g, want %.9g", (double)cases[i].y, (double)cases[i].x, (double)got,
			         want);
	}
	/* NaN in gives NaN out, whichever argument, whatever the other one is;
	 * so do two infinities (never a rotation's components) */
	const float others[] = {0.0f, -0.0f, 1.0f, -1.0f, FLT_TRUE_MIN, FLT_MAX, INFINITY, NAN};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; ++i) {
		assert_true(isnan(tb_solver_atan2(NAN, others[i])));
		assert_true(isnan(tb_solver_atan2(others[i], NAN)));
		assert_true(isnan(tb_solver_atan2(-NAN, others[i])));
	}
	assert_true(isnan(tb_solver_atan2(INFINITY, INFINITY)) && isnan(tb_solver_atan2(-INFINITY, -INFINITY)));
}

/* The pinned hash: ref_scene.h builds bodies at many angles, rounded boxes,
 * revolute joints with limits and springs, and a bullet; 240 steps later the
 * world hashes to this value on every platform (the web build checks it in
 * `make web-test`). A deliberate change to the engine's numbers changes it:
 * update it in the same commit and say why. */
#define REF_SCENE_HASH 0x5bd24226832dbc84ull

static void test_reference_scene_hash(void **state)
{
	(void)state;
	uint64_t hash = tb_ref_scene_hash();
	printf("# reference scene hash %016llx\n", (unsigned long long)hash);
	if (hash != REF_SCENE_HASH)
		fail_msg("reference scene hash %016llx, pinned %016llx", (unsigned long long)hash,
		         (unsigned long long)REF_SCENE_HASH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sin_cos_sweep),        cmocka_unit_test(test_sin_cos_dense),
		cmocka_unit_test(test_sin_cos_near_multiples), cmocka_unit_test(test_sin_cos_special),
		cmocka_unit_test(test_atan2_sweep),          cmocka_unit_test(test_atan2_special),
		cmocka_unit_test(test_solver_atan2_sweep),   cmocka_unit_test(test_solver_atan2_special),
		cmocka_unit_test(test_reference_scene_hash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
