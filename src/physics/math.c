/* tumble physics: the engine's own sine, cosine and arc tangent.
 *
 * A world hash is only worth comparing across platforms if every number in
 * the step comes from the same arithmetic. Adds, multiplies, divides and
 * square roots are IEEE operations and round the same everywhere (x86-64 SSE2,
 * wasm32, AArch64; -ffp-contract=off keeps them apart), but sinf, cosf and
 * atan2f come from the C library, and glibc, musl (emscripten) and Apple's
 * libm are free to differ in the last bit. So the engine computes them here,
 * from those operations alone: no libm call, no table the platform provides,
 * no rounding mode or x87 excess precision assumed.
 *
 * Each function works in double and rounds once to float at the end. The
 * double result is within about 1e-16 of the true value, so the float is the
 * correctly rounded one except when the true value lies within 1e-16 of a
 * rounding boundary (rare); it is never more than one unit in the last place
 * off. tests/physics/test_math.c checks both against glibc on millions of
 * inputs. */
#include "tumble/tb_math.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

/* 2/pi in binary, 32 bits a word, after one word of zeros so that a window of
 * it can start left of the binary point (see reduce). Computed with mpmath:
 * floor(2/pi * 2^320). */
static const uint32_t two_over_pi[] = {
	0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0,
	0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561, 0xb7246e3a,
};

#define PI_D 0x1.921fb54442d18p+1
#define PI_2_D 0x1.921fb54442d18p+0

static double make_double(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, sizeof d);
	return d;
}

/* Reduces a finite |x| >= pi/4 to r in [-pi/4, pi/4] and the quadrant k, with
 * x = r + k pi/2 (mod 2 pi), exactly as far as a float input can tell (the
 * Payne-Hanek method). x is m 2^e with a 24-bit integer m; the bits of 2/pi
 * weigh 2^-j (j = 1, 2, ...), and those with j <= e - 2 only add multiples of
 * 4 to x (2/pi), so they are skipped. m times the next 96 bits, in integers,
 * holds x (2/pi) mod 4 in units of 2^-94; the bits beyond the window add less
 * than 2^-70, far under what the float closest to a multiple of pi/2 needs
 * (its r is about 2^-30). Integer arithmetic, then one rounding to double. */
static double reduce(float x, int *quadrant)
{
	uint32_t bits;
	memcpy(&bits, &x, sizeof bits);
	int exponent = (int)((bits >> 23) & 0xff);
	uint64_t m = (bits & 0x7fffffu) | 0x800000u; /* x >= pi/4 is normal */
	int e = exponent - 127 - 23;                  /* |x| = m 2^e, e in [-24, 104] */
	int p = (e - 1) + 31; /* bit j = e - 1 of 2/pi, counting the table's zero word */
	int word = p >> 5, shift = p & 31;
	uint64_t w[3]; /* the window, most significant word first */
	for (int i = 0; i < 3; ++i) {
		uint64_t hi = two_over_pi[word + i], lo = two_over_pi[word + i + 1];
		w[i] = shift == 0 ? hi : ((hi << shift) | (lo >> (32 - shift))) & 0xffffffffu;
	}
	/* P = m (w0 2^64 + w1 2^32 + w2) in 32-bit limbs, the least significant first */
	uint64_t a0 = m * w[0], a1 = m * w[1], a2 = m * w[2];
	uint64_t limb0 = a2 & 0xffffffffu;
	uint64_t t = (a1 & 0xffffffffu) + (a2 >> 32);
	uint64_t limb1 = t & 0xffffffffu;
	t = (a0 & 0xffffffffu) + (t >> 32) + (a1 >> 32);
	uint64_t limb2 = t & 0xffffffffu;
	uint64_t limb3 = (t >> 32) + (a0 >> 32);
	uint64_t lo = (limb1 << 32) | limb0, hi = (limb3 << 32) | limb2;
	/* bits 94 and 95 of P are the quadrant; bits 30..93 the fraction in units
	 * of 2^-64, and the 30 below them the rest */
	int k = (int)((hi >> 30) & 3u);
	uint64_t frac = (hi << 34) | (lo >> 30);
	uint64_t rest = lo & 0x3fffffffu;
	double f;
	if (frac >> 63) { /* past one half: the next quadrant, and r < 0 */
		k = (k + 1) & 3;
		/* 2^64 - (frac + rest 2^-30) = ~frac + (2^30 - rest) 2^-30 */
		f = -((double)~frac + (double)(0x40000000u - rest) * 0x1p-30) * 0x1p-64;
	} else {
		f = ((double)frac + (double)rest * 0x1p-30) * 0x1p-64;
	}
	*quadrant = k;
	return f * PI_2_D;
}

/* sin and cos of r in [-pi/4, pi/4] by their Taylor series: the first
 * neglected terms, r^17/17! and r^18/18!, are below 5e-17 there. */
static double sin_poly(double r)
{
	double r2 = r * r;
	double p = -1.0 / 1307674368000.0;       /* -1/15! */
	p = p * r2 + 1.0 / 6227020800.0;         /* 1/13! */
	p = p * r2 - 1.0 / 39916800.0;           /* -1/11! */
	p = p * r2 + 1.0 / 362880.0;             /* 1/9! */
	p = p * r2 - 1.0 / 5040.0;               /* -1/7! */
	p = p * r2 + 1.0 / 120.0;                /* 1/5! */
	p = p * r2 - 1.0 / 6.0;                  /* -1/3! */
	return r + r * r2 * p;
}

static double cos_poly(double r)
{
	double r2 = r * r;
	double p = 1.0 / 20922789888000.0;       /* 1/16! */
	p = p * r2 - 1.0 / 87178291200.0;        /* -1/14! */
	p = p * r2 + 1.0 / 479001600.0;          /* 1/12! */
	p = p * r2 - 1.0 / 3628800.0;            /* -1/10! */
	p = p * r2 + 1.0 / 40320.0;              /* 1/8! */
	p = p * r2 - 1.0 / 720.0;                /* -1/6! */
	p = p * r2 + 1.0 / 24.0;                 /* 1/4! */
	p = p * r2 - 0.5;                        /* -1/2! */
	return 1.0 + r2 * p;
}

/* sin and cos of a finite or non-finite float, in double before the rounding. */
static void sin_cos(float x, double *s, double *c)
{
	float ax = x < 0.0f ? -x : x;
	if (!(ax <= FLT_MAX)) { /* NaN or infinity: NaN, as C's sinf */
		*s = *c = (double)(x - x);
		return;
	}
	if (ax <= 0x1.921fb6p-1f) { /* pi/4 rounded up: |r| stays below pi/4 + 1e-8 */
		*s = x == 0.0f ? (double)x : sin_poly((double)x); /* sin(-0) is -0 */
		*c = cos_poly((double)x);
		return;
	}
	int k;
	double r = reduce(ax, &k);
	double sr = sin_poly(r), cr = cos_poly(r);
	double sa, ca; /* of |x| */
	switch (k) {
	case 0: sa = sr; ca = cr; break;
	case 1: sa = cr; ca = -sr; break;
	case 2: sa = -sr; ca = -cr; break;
	default: sa = -cr; ca = sr; break;
	}
	*s = x < 0.0f ? -sa : sa;
	*c = ca;
}

float tb_sinf(float x)
{
	double s, c;
	sin_cos(x, &s, &c);
	return (float)s;
}

float tb_cosf(float x)
{
	double s, c;
	sin_cos(x, &s, &c);
	return (float)c;
}

tb_rot tb_make_rot(float angle)
{
	double s, c;
	sin_cos(angle, &s, &c);
	tb_rot q = {(float)c, (float)s};
	return q;
}

/* atan(c) for the centres c = (2i + 1)/16 of the intervals [i/8, (i+1)/8],
 * i = 1..7 (mpmath, rounded to double). */
static const double atan_centre[8] = {
	0.0,
	0x1.7b97b4bce5b02p-3, 0x1.362773707ebccp-2, 0x1.a64eec3cc23fdp-2, 0x1.0657e94db30d0p-1,
	0x1.345f01cce37bbp-1, 0x1.5d58987169b18p-1, 0x1.819d0b7158a4dp-1,
};

/* atan(t) for t in [0, 1]. On [0, 1/8] the series runs on t itself; elsewhere
 * atan(t) = atan(c) + atan((t - c) / (1 + t c)) leaves |u| <= 1/16. The first
 * neglected term, u^17/17, is below 2e-16 of the result on [0, 1/8] and far
 * below elsewhere. */
static double atan_unit(double t)
{
	int i = (int)(t * 8.0);
	if (i > 7) i = 7;
	double u = t, base = 0.0;
	if (i > 0) {
		double c = (double)(2 * i + 1) / 16.0;
		u = (t - c) / (1.0 + t * c);
		base = atan_centre[i];
	}
	double u2 = u * u;
	double p = -1.0 / 15.0;
	p = p * u2 + 1.0 / 13.0;
	p = p * u2 - 1.0 / 11.0;
	p = p * u2 + 1.0 / 9.0;
	p = p * u2 - 1.0 / 7.0;
	p = p * u2 + 1.0 / 5.0;
	p = p * u2 - 1.0 / 3.0;
	return base + (u + u * u2 * p);
}

float tb_atan2f(float y, float x)
{
	if (x != x || y != y) return x + y; /* NaN */
	double ax = x < 0.0f ? -(double)x : (double)x;
	double ay = y < 0.0f ? -(double)y : (double)y;
	double inf = make_double(0x7ff0000000000000ull);
	double a; /* the angle of (|x|, |y|), in [0, pi/2] */
	if (ax == inf && ay == inf) {
		a = 0.5 * PI_2_D;
	} else if (ax == inf || ay == 0.0) {
		a = 0.0;
	} else if (ay == inf || ax == 0.0) {
		a = PI_2_D;
	} else if (ay <= ax) {
		a = atan_unit(ay / ax);
	} else {
		a = PI_2_D - atan_unit(ax / ay);
	}
	/* the sign bits, not comparisons: atan2(0, -0) is pi and atan2(-0, x) is -0 */
	uint32_t xb, yb;
	memcpy(&xb, &x, sizeof xb);
	memcpy(&yb, &y, sizeof yb);
	if (xb >> 31) a = PI_D - a;
	if (yb >> 31) a = -a;
	return (float)a;
}
