/* tumble physics: which solver path a world runs (solver_kernels.h): the
 * paths' names, what the CPU has, and the path AUTO means. */
#include "world.h"

const char *tb_solver_path_name(tb_solver_path path)
{
	switch (path) {
	case TB_SOLVER_PATH_AUTO: return "auto";
	case TB_SOLVER_PATH_SCALAR: return "scalar";
	case TB_SOLVER_PATH_SSE2: return "sse2";
	case TB_SOLVER_PATH_AVX2: return "avx2";
	case TB_SOLVER_PATH_AVX512: return "avx512";
	default: return "unknown";
	}
}

tb_solver_path tb_solver_path_from_name(const char *name)
{
	for (int p = 0; p < TB_SOLVER_PATH_COUNT && name != NULL; ++p) {
		if (strcmp(name, tb_solver_path_name((tb_solver_path)p)) == 0) return (tb_solver_path)p;
	}
	return TB_SOLVER_PATH_COUNT;
}

static bool cpu_has_avx2(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	/* also checks that the OS saves the AVX registers */
	return __builtin_cpu_supports("avx2");
#else
	return false;
#endif
}

static bool cpu_has_avx512(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	/* also checks that the OS saves the AVX-512 registers; the path runs AVX2 code too */
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2");
#else
	return false;
#endif
}

bool tb_cpu_prefers_avx512(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	/* The first AVX-512 CPUs (Skylake-X and its kin) lower their clock for
	 * 512-bit work, which can cost more than the path gains; the ones that
	 * also have IFMA (Ice Lake and later, Zen 4 and later) do not, or barely. */
	return cpu_has_avx512() && __builtin_cpu_supports("avx512ifma");
#else
	return false;
#endif
}

const tb_solver_kernels *tb_solver_kernels_for(tb_solver_path path)
{
	switch (path) {
	case TB_SOLVER_PATH_SCALAR: return tb_solver_kernels_scalar();
	case TB_SOLVER_PATH_SSE2: return tb_solver_kernels_sse2();
	case TB_SOLVER_PATH_AVX2: return cpu_has_avx2() ? tb_solver_kernels_avx2() : NULL;
	case TB_SOLVER_PATH_AVX512: return cpu_has_avx512() ? tb_solver_kernels_avx512() : NULL;
	default: return NULL;
	}
}

tb_solver_path tb_default_solver_path(void)
{
	tb_solver_path asked = tb_solver_path_from_name(getenv("TB_SOLVER_PATH"));
	if (asked != TB_SOLVER_PATH_AUTO && asked != TB_SOLVER_PATH_COUNT && tb_solver_kernels_for(asked) != NULL)
		return asked;
	if (tb_cpu_prefers_avx512() && tb_solver_kernels_for(TB_SOLVER_PATH_AVX512) != NULL) return TB_SOLVER_PATH_AVX512;
	return tb_solver_kernels_for(TB_SOLVER_PATH_AVX2) != NULL ? TB_SOLVER_PATH_AVX2 : TB_SOLVER_PATH_SSE2;
}
