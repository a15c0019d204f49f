/* The wide contact solver (four constraints of a colour in SIMD lanes) and
 * the scalar one must compute the same maths rounding for rounding: the
 * engine's results may not depend on which constraints found a colour. Here
 * the same constraints go through one wide block and through the scalar
 * path, warm start, solve, relax and again, and every velocity and impulse is
 * compared bit for bit; so is the plain four-float fallback the wide solver
 * uses where SSE2 is missing (compiled here from the same source with
 * TB_NO_SIMD). */
#include "test_util.h"

#include <string.h>

#include "world.h"

/* The wide solver again, built on its portable path under other names. */
#define TB_NO_SIMD 1
#define tb_prepare_contact_block portable_prepare_contact_block
#define tb_warm_start_contact_block portable_warm_start_contact_block
#define tb_solve_contact_block portable_solve_contact_block
#define tb_store_contact_block portable_store_contact_block
#define tb_prepare_contacts_wide portable_prepare_contacts_wide
#define tb_warm_start_contacts_wide portable_warm_start_contacts_wide
#define tb_solve_contacts_wide portable_solve_contacts_wide
#define tb_store_impulses_wide portable_store_impulses_wide
#include "contact_solver_wide.c"
#undef tb_prepare_contact_block
#undef tb_warm_start_contact_block
#undef tb_solve_contact_block
#undef tb_store_contact_block
#undef tb_prepare_contacts_wide
#undef tb_warm_start_contacts_wide
#undef tb_solve_contacts_wide
#undef tb_store_impulses_wide

static uint64_t rng_state;

static float rnd(float lo, float hi)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	float u = (float)(rng_state >> 40) / (float)(1ull << 24);
	return lo + (hi - lo) * u;
}

/* Up to four constraints between distinct bodies (constraint i joins states
 * 2i and 2i + 1, or the ground), with the mix a step meets: one and two
 * points, speculative gaps and overlaps, bounces, friction, static partners. */
static void make_case(tb_contact_constraint cc[4], int count, tb_body_state states[8], const tb_step_context *ctx,
                      int variant)
{
	memset(cc, 0, 4 * sizeof *cc);
	for (int s = 0; s < 8; ++s) {
		tb_body_state *st = states + s;
		st->linear_velocity = tb_v2(rnd(-3.0f, 3.0f), rnd(-3.0f, 3.0f));
		st->angular_velocity = rnd(-4.0f, 4.0f);
		st->flags = (uint32_t)s * 0x01010101u; /* must ride along untouched */
		st->dp = tb_v2(rnd(-0.01f, 0.01f), rnd(-0.01f, 0.01f));
		st->dq = tb_make_rot(rnd(-0.05f, 0.05f));
	}
	for (int i = 0; i < count; ++i) {
		tb_contact_constraint *c = cc + i;
		bool ground = (variant + i) % 3 == 0;
		c->state_a = ground ? -1 : 2 * i;
		c->state_b = 2 * i + 1;
		c->contact = i;
		c->point_count = (variant + i) % 4 == 1 ? 1 : 2;
		tb_rot direction = tb_make_rot(rnd(-3.1f, 3.1f));
		c->normal = tb_v2(direction.c, direction.s);
		c->inv_mass_a = ground ? 0.0f : rnd(0.1f, 2.0f);
		c->inv_i_a = ground ? 0.0f : rnd(0.0f, 3.0f);
		c->inv_mass_b = rnd(0.1f, 2.0f);
		c->inv_i_b = (variant + i) % 5 == 2 ? 0.0f : rnd(0.1f, 3.0f); /* fixed rotation */
		c->friction = rnd(0.0f, 1.0f);
		c->restitution = (variant + i) % 2 == 0 ? 0.0f : rnd(0.2f, 0.9f);
		c->push_max = rnd(0.5f, 3.0f);
		c->softness = ground ? ctx->static_softness : ctx->contact_softness;
		tb_vec2 n = c->normal, t = tb_right_perp(n);
		for (int p = 0; p < c->point_count; ++p) {
			tb_constraint_point *cp = c->points + p;
			cp->anchor_a = tb_v2(rnd(-0.6f, 0.6f), rnd(-0.6f, 0.6f));
			cp->anchor_b = tb_v2(rnd(-0.6f, 0.6f), rnd(-0.6f, 0.6f));
			cp->base_separation = rnd(-0.03f, 0.03f);
			cp->relative_velocity = rnd(-4.0f, 1.0f);
			cp->normal_impulse = rnd(0.0f, 0.2f);
			cp->tangent_impulse = rnd(-0.05f, 0.05f);
			float rna = tb_cross(cp->anchor_a, n), rnb = tb_cross(cp->anchor_b, n);
			float kn = c->inv_mass_a + c->inv_mass_b + c->inv_i_a * rna * rna + c->inv_i_b * rnb * rnb;
			cp->normal_mass = 1.0f / kn;
			float rta = tb_cross(cp->anchor_a, t), rtb = tb_cross(cp->anchor_b, t);
			float kt = c->inv_mass_a + c->inv_mass_b + c->inv_i_a * rta * rta + c->inv_i_b * rtb * rtb;
			cp->tangent_mass = 1.0f / kt;
		}
	}
}

static void assert_same_bits(const void *a, const void *b, size_t n, const char *what, int variant, int pass)
{
	if (memcmp(a, b, n) != 0) fail_msg("%s differ (case %d, pass %d)", what, variant, pass);
}

/* Impulses are what the solvers write back; compare those (the rest of a
 * constraint is input). */
static void assert_same_impulses(const tb_contact_constraint *x, const tb_contact_constraint *y, int count, int variant,
                                 int pass)
{
	for (int i = 0; i < count; ++i) {
		for (int p = 0; p < x[i].point_count; ++p) {
			const tb_constraint_point *a = x[i].points + p, *b = y[i].points + p;
			assert_same_bits(&a->normal_impulse, &b->normal_impulse, sizeof(float), "normal impulses", variant, pass);
			assert_same_bits(&a->tangent_impulse, &b->tangent_impulse, sizeof(float), "tangent impulses", variant, pass);
			assert_same_bits(&a->max_normal_impulse, &b->max_normal_impulse, sizeof(float), "max impulses", variant,
			                 pass);
		}
	}
}

typedef void prepare_fn(tb_contact_block *, const tb_contact_constraint *, const int32_t *, int32_t);
typedef void warm_fn(tb_contact_block *, tb_body_state *);
typedef void solve_fn(tb_contact_block *, tb_body_state *, const tb_step_context *, bool);
typedef void store_fn(const tb_contact_block *, tb_contact_constraint *);

typedef struct wide_solver { prepare_fn *prepare; warm_fn *warm_start; solve_fn *solve; store_fn *store; } wide_solver;

/* Two substeps of warm start, solve with bias, relax without (the step's
 * pattern), integrating positions in between, through one path. */
static void run_scalar(tb_contact_constraint *cc, int count, tb_body_state *states, tb_step_context *ctx)
{
	int32_t list[4] = {0, 1, 2, 3};
	for (int sub = 0; sub < 2; ++sub) {
		ctx->substep_index = sub;
		tb_warm_start_contact_list(cc, list, count, states);
		tb_solve_contact_list(cc, list, count, states, ctx, true, (sub & 1) != 0);
		for (int s = 0; s < 8; ++s) states[s].dp = tb_mul_add(states[s].dp, ctx->h, states[s].linear_velocity);
		tb_solve_contact_list(cc, list, count, states, ctx, false, (sub & 1) != 0);
	}
}

static void run_wide(const wide_solver *ws, tb_contact_constraint *cc, int count, tb_body_state *states,
                     tb_step_context *ctx)
{
	int32_t list[4] = {0, 1, 2, 3};
	tb_contact_block block;
	assert_int_equal((uintptr_t)&block % 16, 0);
	ws->prepare(&block, cc, list, count);
	for (int sub = 0; sub < 2; ++sub) {
		ctx->substep_index = sub;
		ws->warm_start(&block, states);
		ws->solve(&block, states, ctx, true);
		for (int s = 0; s < 8; ++s) states[s].dp = tb_mul_add(states[s].dp, ctx->h, states[s].linear_velocity);
		ws->solve(&block, states, ctx, false);
	}
	ws->store(&block, cc);
}

static void compare_paths(const wide_solver *ws, bool position_correction, bool restitution_threshold_high)
{
	tb_step_context ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.dt = 1.0f / 60.0f;
	ctx.substeps = 8;
	ctx.h = ctx.dt / 8.0f;
	ctx.inv_h = 8.0f / ctx.dt;
	ctx.contact_softness = tb_make_soft(60.0f, 10.0f, ctx.h);
	ctx.static_softness = tb_make_soft(120.0f, 10.0f, ctx.h);
	ctx.restitution_threshold = restitution_threshold_high ? 10.0f : 1.0f;
	ctx.enable_position_correction = position_correction;
	ctx.enable_warm_starting = true;
	for (int variant = 0; variant < 200; ++variant) {
		int count = 1 + variant % 4;
		tb_contact_constraint scalar_cc[4], wide_cc[4];
		tb_body_state scalar_states[8], wide_states[8];
		make_case(scalar_cc, count, scalar_states, &ctx, variant);
		memcpy(wide_cc, scalar_cc, sizeof scalar_cc);
		memcpy(wide_states, scalar_states, sizeof scalar_states);
		run_scalar(scalar_cc, count, scalar_states, &ctx);
		run_wide(ws, wide_cc, count, wide_states, &ctx);
		assert_same_bits(scalar_states, wide_states, sizeof scalar_states, "body states", variant, 0);
		assert_same_impulses(scalar_cc, wide_cc, count, variant, 0);
	}
}

static const wide_solver simd = {tb_prepare_contact_block, tb_warm_start_contact_block, tb_solve_contact_block,
                                 tb_store_contact_block};
static const wide_solver portable = {portable_prepare_contact_block, portable_warm_start_contact_block,
                                     portable_solve_contact_block, portable_store_contact_block};

static void test_wide_block_matches_scalar(void **state)
{
	(void)state;
	rng_state = 1;
	compare_paths(&simd, true, false);
	compare_paths(&simd, false, false);
	compare_paths(&simd, true, true);
}

static void test_portable_block_matches_scalar(void **state)
{
	(void)state;
	rng_state = 1;
	compare_paths(&portable, true, false);
	compare_paths(&portable, false, false);
	compare_paths(&portable, true, true);
}

/* The comparison can fail: one body starting one bit faster in the scalar
 * path shows up in the bits. */
static void test_comparison_sees_a_difference(void **state)
{
	(void)state;
	rng_state = 7;
	tb_step_context ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.h = 1.0f / 480.0f;
	ctx.inv_h = 480.0f;
	ctx.contact_softness = tb_make_soft(60.0f, 10.0f, ctx.h);
	ctx.static_softness = tb_make_soft(120.0f, 10.0f, ctx.h);
	ctx.restitution_threshold = 1.0f;
	ctx.enable_position_correction = true;
	tb_contact_constraint scalar_cc[4], wide_cc[4];
	tb_body_state scalar_states[8], wide_states[8];
	make_case(scalar_cc, 4, scalar_states, &ctx, 1);
	memcpy(wide_cc, scalar_cc, sizeof scalar_cc);
	memcpy(wide_states, scalar_states, sizeof scalar_states);
	scalar_states[5].linear_velocity.x = nextafterf(scalar_states[5].linear_velocity.x, 100.0f);
	run_scalar(scalar_cc, 4, scalar_states, &ctx);
	run_wide(&simd, wide_cc, 4, wide_states, &ctx);
	assert_true(memcmp(scalar_states, wide_states, sizeof scalar_states) != 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wide_block_matches_scalar),
		cmocka_unit_test(test_portable_block_matches_scalar),
		cmocka_unit_test(test_comparison_sees_a_difference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
