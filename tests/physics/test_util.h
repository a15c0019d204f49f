/* Shared helpers for the engine's cmocka tests. */
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

#endif
