/* The block solver's paths (two blocks of a colour in AVX-512 lanes, eight
 * constraints of a colour in AVX2 lanes, two vectors of four in SSE2, one
 * lane at a time in plain C, and the plain four-float fallback of machines
 * without SSE2) and the scalar list solver of the overflow must compute the
 * same maths rounding for rounding: the engine's results may depend neither
 * on which constraints found a colour nor on the CPU. Here the same
 * constraints go through one block, and through colours of several blocks,
 * on every path and through the scalar list, warm start, solve, relax and
 * again, and every velocity and impulse is compared bit for bit. */
#include "test_util.h"

#include <string.h>

#include "world.h"

/* The portable four-lane path (plain C, what machines without SSE2 run),
 * built here from the same sources under its own names. */
#define LANES 4
#define KERNEL(name) name##_portable4
#define BLOCKS_PER_VECTOR 1
#include "contact_solver_portable.h"
#include "contact_solver_lanes.h"
#include "joint_solver_lanes.h"
#undef LANES
#undef KERNEL
#undef BLOCKS_PER_VECTOR

static const tb_solver_kernels kernels_portable4 = {warm_start_blocks_portable4,     solve_blocks_portable4,
                                                    pin_warm_start_blocks_portable4, pin_solve_blocks_portable4,
                                                    tb_integrate_velocities_scalar, tb_integrate_positions_scalar};

static uint64_t rng_state;

static float rnd(float lo, float hi)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	float u = (float)(rng_state >> 40) / (float)(1ull << 24);
	return lo + (hi - lo) * u;
}

enum { MAX_LANES = TB_BLOCK_LANES, MAX_STATES = 2 * TB_BLOCK_LANES };

/* Body states in motion, a little moved and turned since the step began. */
static void random_states(tb_body_state states[MAX_STATES])
{
	for (int s = 0; s < MAX_STATES; ++s) {
		tb_body_state *st = states + s;
		st->linear_velocity = tb_v2(rnd(-3.0f, 3.0f), rnd(-3.0f, 3.0f));
		st->angular_velocity = rnd(-4.0f, 4.0f);
		st->flags = (uint32_t)s * 0x01010101u; /* must ride along untouched */
		st->dp = tb_v2(rnd(-0.01f, 0.01f), rnd(-0.01f, 0.01f));
		st->dq = tb_make_rot(rnd(-0.05f, 0.05f));
	}
}

/* Up to eight constraints between distinct bodies (constraint i joins states
 * 2i and 2i + 1, or the ground), with the mix a step meets: one and two
 * points, speculative gaps and overlaps, bounces, friction, static partners. */
static void make_case(tb_contact_constraint cc[MAX_LANES], int count, tb_body_state states[MAX_STATES], int variant)
{
	memset(cc, 0, MAX_LANES * sizeof *cc);
	random_states(states);
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
		/* bounces in half the cases (a bouncing lane gives its block a surface
		 * record): the other half keeps plain blocks */
		c->restitution = variant % 4 < 2 && (variant + i) % 2 == 1 ? rnd(0.2f, 0.9f) : 0.0f;
		c->push_max = rnd(0.5f, 3.0f);
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
		/* surfaces in a third of the cases, in some lanes only: conveyors, rolling
		 * resistance, both, and a lane without either beside them */
		if (variant % 3 == 1 && i % 2 == 0) c->tangent_speed = rnd(-2.0f, 2.0f);
		if (variant % 3 == 1 && i % 3 != 2) {
			c->rolling_resistance = rnd(0.0f, 0.3f);
			float k = c->inv_i_a + c->inv_i_b;
			c->rolling_mass = k > 0.0f ? 1.0f / k : 0.0f;
			c->rolling_impulse = rnd(-0.01f, 0.01f);
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
		assert_same_bits(&x[i].rolling_impulse, &y[i].rolling_impulse, sizeof(float), "rolling impulses", variant,
		                 pass);
	}
}

/* Two substeps of warm start, solve with bias, relax without (the step's
 * pattern), integrating positions in between, through one path. */
static void run_scalar(tb_contact_constraint *cc, int count, tb_body_state *states, tb_step_context *ctx)
{
	int32_t list[MAX_LANES] = {0, 1, 2, 3, 4, 5, 6, 7};
	for (int sub = 0; sub < 2; ++sub) {
		ctx->substep_index = sub;
		tb_warm_start_contact_list(cc, list, count, states);
		tb_solve_contact_list(cc, list, count, states, ctx, true, (sub & 1) != 0);
		for (int s = 0; s < MAX_STATES; ++s) states[s].dp = tb_mul_add(states[s].dp, ctx->h, states[s].linear_velocity);
		tb_solve_contact_list(cc, list, count, states, ctx, false, (sub & 1) != 0);
	}
}

static void run_block(const tb_solver_kernels *k, tb_contact_constraint *cc, int count, tb_body_state *states,
                      tb_step_context *ctx)
{
	int32_t list[MAX_LANES] = {0, 1, 2, 3, 4, 5, 6, 7};
	static tb_contact_block block; /* 32-byte aligned by its type */
	static tb_block_surface surface_lanes;
	assert_int_equal((uintptr_t)&block % 32, 0);
	assert_int_equal((uintptr_t)&surface_lanes % 32, 0);
	/* a block keeps a surface record exactly when one of its lanes has a surface */
	bool has_surface = tb_prepare_contact_block(&block, &surface_lanes, cc, list, count);
	bool expect_surface = false;
	for (int i = 0; i < count; ++i)
		expect_surface |= cc[i].tangent_speed != 0.0f || cc[i].rolling_resistance > 0.0f || cc[i].restitution > 0.0f;
	assert_int_equal(has_surface, expect_surface);
	/* the block names its record (the first of `surfaces`) only when it has one */
	assert_int_equal(block.surface, has_surface ? 0 : TB_NULL_INDEX);
	/* as the step's driver: no records at all in a plain step */
	tb_block_surface *surfaces = has_surface ? &surface_lanes : NULL;
	for (int sub = 0; sub < 2; ++sub) {
		ctx->substep_index = sub;
		k->warm_start(&block, 1, surfaces, states);
		k->solve(&block, 1, surfaces, states, ctx, true);
		for (int s = 0; s < MAX_STATES; ++s) states[s].dp = tb_mul_add(states[s].dp, ctx->h, states[s].linear_velocity);
		k->solve(&block, 1, surfaces, states, ctx, false);
	}
	tb_store_contact_block(&block, has_surface ? &surface_lanes : NULL, cc, list);
}

/* A substep of a 60 Hz step of 8 with the default contact springs. */
static tb_step_context eight_substeps(bool position_correction, float restitution_threshold)
{
	tb_step_context ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.dt = 1.0f / 60.0f;
	ctx.substeps = 8;
	ctx.h = ctx.dt / 8.0f;
	ctx.inv_h = 8.0f / ctx.dt;
	ctx.contact_softness = tb_make_soft(60.0f, 10.0f, ctx.h);
	ctx.static_softness = tb_make_soft(120.0f, 10.0f, ctx.h);
	ctx.restitution_threshold = restitution_threshold;
	ctx.enable_position_correction = position_correction;
	ctx.enable_warm_starting = true;
	return ctx;
}

static void compare_paths(const tb_solver_kernels *k, bool position_correction, bool restitution_threshold_high)
{
	tb_step_context ctx = eight_substeps(position_correction, restitution_threshold_high ? 10.0f : 1.0f);
	for (int variant = 0; variant < 400; ++variant) {
		int count = 1 + variant % MAX_LANES;
		tb_contact_constraint scalar_cc[MAX_LANES], wide_cc[MAX_LANES];
		tb_body_state scalar_states[MAX_STATES], wide_states[MAX_STATES];
		make_case(scalar_cc, count, scalar_states, variant);
		memcpy(wide_cc, scalar_cc, sizeof scalar_cc);
		memcpy(wide_states, scalar_states, sizeof scalar_states);
		run_scalar(scalar_cc, count, scalar_states, &ctx);
		run_block(k, wide_cc, count, wide_states, &ctx);
		assert_same_bits(scalar_states, wide_states, sizeof scalar_states, "body states", variant, 0);
		assert_same_impulses(scalar_cc, wide_cc, count, variant, 0);
	}
}

static void compare_all(const tb_solver_kernels *k)
{
	assert_non_null(k);
	rng_state = 1;
	compare_paths(k, true, false);
	compare_paths(k, false, false);
	compare_paths(k, true, true);
}

static void test_sse2_block_matches_scalar(void **state)
{
	(void)state;
	compare_all(tb_solver_kernels_for(TB_SOLVER_PATH_SSE2));
}

/* A path the CPU (or build) may lack: said and skipped then. */
static void compare_all_if_offered(tb_solver_path path)
{
	const tb_solver_kernels *k = tb_solver_kernels_for(path);
	if (k == NULL) {
		print_message("# this CPU (or build) has no %s: the path is not offered and not tested\n",
		              tb_solver_path_name(path));
		skip();
	}
	compare_all(k);
}

static void test_avx2_block_matches_scalar(void **state)
{
	(void)state;
	compare_all_if_offered(TB_SOLVER_PATH_AVX2);
}

static void test_scalar_block_matches_scalar(void **state)
{
	(void)state;
	compare_all(tb_solver_kernels_for(TB_SOLVER_PATH_SCALAR));
}

static void test_portable_block_matches_scalar(void **state)
{
	(void)state;
	compare_all(&kernels_portable4);
}

static void test_avx512_block_matches_scalar(void **state)
{
	(void)state;
	compare_all_if_offered(TB_SOLVER_PATH_AVX512);
}

enum { MAX_BLOCKS = 5, MAX_COLOR_LANES = MAX_BLOCKS * MAX_LANES, MAX_COLOR_STATES = MAX_BLOCKS * MAX_STATES };

/* A colour of several blocks, as the step gives a path: one to five blocks, the
 * last one filled or not, plain blocks and blocks with a surface record mixed
 * (the AVX-512 path takes plain blocks two at a time and the others alone),
 * warm started and solved by range. It must give what the scalar list gives
 * for the same constraints. */
static void compare_colors(const tb_solver_kernels *k)
{
	tb_step_context ctx = eight_substeps(true, 1.0f);
	static tb_contact_block blocks[MAX_BLOCKS];
	static tb_block_surface surfaces[MAX_BLOCKS];
	rng_state = 5;
	for (int variant = 0; variant < 300; ++variant) {
		ctx.enable_position_correction = variant % 7 != 3;
		int block_count = 1 + variant % MAX_BLOCKS, last = 1 + (variant / MAX_BLOCKS) % MAX_LANES, count = 0;
		/* zeroed: the copies below take whole arrays, used or not */
		tb_contact_constraint scalar_cc[MAX_COLOR_LANES] = {0}, wide_cc[MAX_COLOR_LANES];
		tb_body_state scalar_states[MAX_COLOR_STATES] = {0}, wide_states[MAX_COLOR_STATES];
		int32_t list[MAX_COLOR_LANES];
		for (int b = 0; b < block_count; ++b) {
			/* each block its own bodies (a colour shares none), the case kinds by block */
			int lanes = b + 1 < block_count ? MAX_LANES : last;
			make_case(scalar_cc + count, lanes, scalar_states + b * MAX_STATES, variant * 3 + b * (variant % 4));
			for (int i = count; i < count + lanes; ++i) {
				if (scalar_cc[i].state_a >= 0) scalar_cc[i].state_a += b * MAX_STATES;
				scalar_cc[i].state_b += b * MAX_STATES;
				scalar_cc[i].contact = i;
				list[i] = i;
			}
			count += lanes;
		}
		memcpy(wide_cc, scalar_cc, sizeof scalar_cc);
		memcpy(wide_states, scalar_states, sizeof scalar_states);
		bool any_surface = false;
		for (int b = 0; b < block_count; ++b) {
			int lanes = b + 1 < block_count ? MAX_LANES : last;
			if (tb_prepare_contact_block(blocks + b, surfaces + b, wide_cc, list + b * MAX_LANES, lanes)) {
				blocks[b].surface = b;
				any_surface = true;
			}
		}
		for (int sub = 0; sub < 2; ++sub) {
			ctx.substep_index = sub;
			tb_warm_start_contact_list(scalar_cc, list, count, scalar_states);
			tb_solve_contact_list(scalar_cc, list, count, scalar_states, &ctx, true, false);
			k->warm_start(blocks, block_count, any_surface ? surfaces : NULL, wide_states);
			k->solve(blocks, block_count, any_surface ? surfaces : NULL, wide_states, &ctx, true);
			for (int s = 0; s < MAX_COLOR_STATES; ++s) {
				scalar_states[s].dp = tb_mul_add(scalar_states[s].dp, ctx.h, scalar_states[s].linear_velocity);
				wide_states[s].dp = tb_mul_add(wide_states[s].dp, ctx.h, wide_states[s].linear_velocity);
			}
			tb_solve_contact_list(scalar_cc, list, count, scalar_states, &ctx, false, false);
			k->solve(blocks, block_count, any_surface ? surfaces : NULL, wide_states, &ctx, false);
		}
		for (int b = 0; b < block_count; ++b)
			tb_store_contact_block(blocks + b, blocks[b].surface >= 0 ? surfaces + b : NULL, wide_cc,
			                       list + b * MAX_LANES);
		assert_same_bits(scalar_states, wide_states, sizeof scalar_states, "body states", variant, 0);
		assert_same_impulses(scalar_cc, wide_cc, count, variant, 0);
	}
}

static void test_colors_of_blocks_match_scalar(void **state)
{
	(void)state;
	for (int p = TB_SOLVER_PATH_SCALAR; p < TB_SOLVER_PATH_COUNT; ++p) {
		const tb_solver_kernels *k = tb_solver_kernels_for((tb_solver_path)p);
		if (k != NULL) compare_colors(k);
		else print_message("# no %s path on this CPU (or build): not tested\n", tb_solver_path_name((tb_solver_path)p));
	}
	compare_colors(&kernels_portable4);
}

/* A substep of the defaults (1/480 s) with the default contact springs. */
static tb_step_context substep_context(void)
{
	tb_step_context ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.h = 1.0f / 480.0f;
	ctx.inv_h = 480.0f;
	ctx.contact_softness = tb_make_soft(60.0f, 10.0f, ctx.h);
	ctx.static_softness = tb_make_soft(120.0f, 10.0f, ctx.h);
	return ctx;
}

/* The comparison can fail: one body starting one bit faster in the scalar
 * path shows up in the bits. */
static void test_comparison_sees_a_difference(void **state)
{
	(void)state;
	rng_state = 7;
	tb_step_context ctx = substep_context();
	ctx.restitution_threshold = 1.0f;
	ctx.enable_position_correction = true;
	tb_contact_constraint scalar_cc[MAX_LANES], wide_cc[MAX_LANES];
	tb_body_state scalar_states[MAX_STATES], wide_states[MAX_STATES];
	make_case(scalar_cc, MAX_LANES, scalar_states, 1);
	memcpy(wide_cc, scalar_cc, sizeof scalar_cc);
	memcpy(wide_states, scalar_states, sizeof scalar_states);
	scalar_states[5].linear_velocity.x = nextafterf(scalar_states[5].linear_velocity.x, 100.0f);
	run_scalar(scalar_cc, MAX_LANES, scalar_states, &ctx);
	run_block(tb_solver_kernels_for(TB_SOLVER_PATH_SSE2), wide_cc, MAX_LANES, wide_states, &ctx);
	assert_true(memcmp(scalar_states, wide_states, sizeof scalar_states) != 0);
}

/* A block filled lane by lane without being cleared first (prepare's full
 * blocks: tb_contact_block_begin only labels them) holds what filling a
 * cleared block gives: every lane array, the count and the surface records
 * (bounces included), bit for bit, whatever the block held before. The records
 * come in a scrambled order, as a colour's lanes name them; partial blocks go
 * through the same begin (which clears them). */
static void test_block_fill_matches_lane_by_lane(void **state)
{
	(void)state;
	rng_state = 11;
	static tb_contact_block by_lane, filled;
	static tb_block_surface lane_surfaces[2], fill_surfaces[2];
	for (int variant = 0; variant < 300; ++variant) {
		int count = 1 + variant % MAX_LANES;
		tb_contact_constraint cc[MAX_LANES];
		tb_body_state states[MAX_STATES];
		make_case(cc, count, states, variant);
		int32_t refs[MAX_LANES];
		for (int i = 0; i < count; ++i) refs[i] = (i * 5 + variant) % count;
		/* refs must not repeat: 5 is prime to every count up to 8 but 5 itself */
		if (count == 5)
			for (int i = 0; i < count; ++i) refs[i] = (i + variant) % count;
		memset(&by_lane, 0xa5, sizeof by_lane);
		memset(&filled, 0x5a, sizeof filled);
		memset(lane_surfaces, 0xa5, sizeof lane_surfaces);
		memset(fill_surfaces, 0x5a, sizeof fill_surfaces);
		int32_t lane_count = 0, fill_count = 0;
		tb_contact_block_init(&by_lane, count);
		for (int i = 0; i < count; ++i)
			tb_contact_block_set_lane(&by_lane, i, cc + refs[i], lane_surfaces, &lane_count);
		tb_contact_block_begin(&filled, count);
		for (int i = 0; i < count; ++i)
			tb_contact_block_set_lane(&filled, i, cc + refs[i], fill_surfaces, &fill_count);
		size_t lanes_end = offsetof(tb_contact_block, lane_count);
		if (memcmp(&by_lane, &filled, lanes_end) != 0) fail_msg("lane arrays differ (case %d)", variant);
		assert_int_equal(by_lane.lane_count, filled.lane_count);
		assert_int_equal(by_lane.surface, filled.surface);
		assert_int_equal(lane_count, fill_count);
		if (fill_count > 0 && memcmp(lane_surfaces, fill_surfaces, sizeof lane_surfaces[0]) != 0)
			fail_msg("surface records differ (case %d)", variant);
	}
}

/* The substep's position update of every path's table (four states at a time
 * where there is SSE2) gives the bits of the one-at-a-time loop: any count
 * (the tail), still and spinning bodies, a rotation that degenerates to zero
 * length, and NaN and infinite speeds. */
static void check_integrate_positions(const tb_solver_kernels *k)
{
	rng_state = 5;
	enum { N = 23 };
	tb_body_state wide[N], scalar[N];
	for (int round = 0; round < 200; ++round) {
		for (int k = 0; k < N; ++k) {
			tb_body_state *st = wide + k;
			st->linear_velocity = tb_v2(rnd(-20.0f, 20.0f), rnd(-20.0f, 20.0f));
			st->angular_velocity = (k + round) % 5 == 0 ? 0.0f : rnd(-50.0f, 50.0f);
			st->flags = (uint32_t)k;
			st->dp = tb_v2(rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f));
			st->dq = tb_make_rot(rnd(-3.1f, 3.1f));
		}
		if (round % 4 == 1) {
			wide[round % N].dq = (tb_rot){0.0f, 0.0f};
			wide[(round + 1) % N].angular_velocity = NAN;
			wide[(round + 2) % N].linear_velocity.x = INFINITY;
			wide[(round + 3) % N].angular_velocity = -1.0e30f;
			wide[(round + 4) % N].dp.y = -0.0f;
		}
		memcpy(scalar, wide, sizeof wide);
		int n = round % (N + 1);
		float h = round % 2 ? 1.0f / 480.0f : 1.0f / 120.0f;
		k->integrate_positions(wide, n, h);
		tb_integrate_positions_scalar(scalar, n, h);
		if (memcmp(wide, scalar, sizeof wide) != 0) fail_msg("states differ (round %d, %d states)", round, n);
	}
}

/* The substep's velocity update the same: damping and gravity, kinematic
 * states left alone, speeds over the cap (their group goes one at a time),
 * spins over the cap either way, NaN and infinities. */
static void check_integrate_velocities(const tb_solver_kernels *k)
{
	rng_state = 9;
	enum { N = 23 };
	tb_body_state wide[N], scalar[N];
	tb_body_motion motions[N];
	float max_speed = 40.0f, max_rotation = 0.25f * TB_PI * 480.0f;
	for (int round = 0; round < 300; ++round) {
		memset(motions, 0, sizeof motions);
		for (int k = 0; k < N; ++k) {
			tb_body_state *st = wide + k;
			st->linear_velocity = tb_v2(rnd(-30.0f, 30.0f), rnd(-30.0f, 30.0f));
			st->angular_velocity = rnd(-300.0f, 300.0f);
			st->flags = (uint32_t)(k * 7);
			st->dp = tb_v2(rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f));
			st->dq = tb_make_rot(rnd(-3.1f, 3.1f));
			tb_body_motion *m = motions + k;
			m->dv = tb_v2(rnd(-0.1f, 0.1f), rnd(-0.1f, 0.0f));
			m->dw = rnd(-1.0f, 1.0f);
			m->linear_factor = rnd(0.9f, 1.0f);
			m->angular_factor = rnd(0.9f, 1.0f);
			m->dynamic = (k + round) % 6 != 0;
		}
		/* past the caps in some rounds only, so most groups take the vector path */
		if (round % 3 == 0) wide[round % N].linear_velocity.x = 45.0f;
		if (round % 3 == 1) wide[(round + 1) % N].angular_velocity = 2000.0f;
		if (round % 5 == 2) {
			wide[(round + 2) % N].angular_velocity = NAN;
			wide[(round + 3) % N].linear_velocity.y = -INFINITY;
			wide[(round + 4) % N].linear_velocity = tb_v2(-0.0f, -0.0f);
		}
		memcpy(scalar, wide, sizeof wide);
		int n = round % (N + 1);
		k->integrate_velocities(wide, motions, n, max_speed, max_rotation);
		tb_integrate_velocities_scalar(scalar, motions, n, max_speed, max_rotation);
		if (memcmp(wide, scalar, sizeof wide) != 0) fail_msg("states differ (round %d, %d states)", round, n);
	}
}

/* Every path this machine offers, its table's integration against the loops
 * one state at a time (the AVX2 and AVX-512 tables hold the SSE2 loops). */
static void test_integrate_positions_matches_scalar(void **state)
{
	(void)state;
	for (int p = TB_SOLVER_PATH_SCALAR; p < TB_SOLVER_PATH_COUNT; ++p) {
		const tb_solver_kernels *k = tb_solver_kernels_for((tb_solver_path)p);
		if (k != NULL) check_integrate_positions(k);
	}
}

static void test_integrate_velocities_matches_scalar(void **state)
{
	(void)state;
	for (int p = TB_SOLVER_PATH_SCALAR; p < TB_SOLVER_PATH_COUNT; ++p) {
		const tb_solver_kernels *k = tb_solver_kernels_for((tb_solver_path)p);
		if (k != NULL) check_integrate_velocities(k);
	}
}

/* ---- colouring (constraint_graph.h) ---- */

/* The one colouring routine under both policies: the contacts' colour above
 * every colour their bodies use (the lowest once the last one is in use), the
 * pins' lowest free one; immovable sides hold no colour; a full mask is the
 * overflow and marks nothing. And each colour's blocks. */
static void test_take_color_policies(void **state)
{
	(void)state;
	uint64_t used[3] = {0, 0, 0};
	assert_int_equal(tb_take_color(used, 0, 1, TB_COLOR_LOWEST), 0);
	assert_int_equal(tb_take_color(used, 0, -1, TB_COLOR_LOWEST), 1);
	assert_true(used[0] == 0x3u && used[1] == 0x1u);
	used[2] = 1ull << 5;
	/* taken: 0, 1 and 5; the lowest free is 2, the lowest above them 6 */
	uint64_t saved[3];
	memcpy(saved, used, sizeof used);
	assert_int_equal(tb_take_color(used, 0, 2, TB_COLOR_LOWEST), 2);
	memcpy(used, saved, sizeof used);
	assert_int_equal(tb_take_color(used, 0, 2, TB_COLOR_ABOVE_USED), 6);
	assert_true(used[0] == (0x3u | 1ull << 6) && used[2] == (1ull << 5 | 1ull << 6));
	/* the last colour in use: nothing above it, so the lowest free */
	used[1] = 1ull << (TB_GRAPH_COLOR_COUNT - 1);
	assert_int_equal(tb_take_color(used, 1, -1, TB_COLOR_ABOVE_USED), 0);
	/* both sides immovable: any colour, marked nowhere */
	memcpy(saved, used, sizeof used);
	assert_int_equal(tb_take_color(used, -1, -1, TB_COLOR_ABOVE_USED), 0);
	assert_memory_equal(used, saved, sizeof used);
	/* every colour taken: the overflow, the other side's mask untouched */
	used[0] = ~0ull;
	used[1] = 0;
	assert_int_equal(tb_take_color(used, 0, 1, TB_COLOR_LOWEST), TB_OVERFLOW_COLOR);
	assert_int_equal(tb_take_color(used, 1, 0, TB_COLOR_ABOVE_USED), TB_OVERFLOW_COLOR);
	assert_true(used[1] == 0);

	int32_t counts[TB_GRAPH_COLOR_COUNT] = {0}, block_start[TB_GRAPH_COLOR_COUNT + 1];
	counts[0] = TB_BLOCK_LANES + 1;
	counts[2] = TB_BLOCK_LANES;
	counts[TB_GRAPH_COLOR_COUNT - 1] = 1;
	assert_int_equal(tb_color_blocks(counts, block_start), 4);
	assert_int_equal(block_start[0], 0);
	assert_int_equal(block_start[1], 2);
	assert_int_equal(block_start[2], 2);
	assert_int_equal(block_start[3], 3);
	assert_int_equal(block_start[TB_GRAPH_COLOR_COUNT - 1], 3);
	assert_int_equal(block_start[TB_GRAPH_COLOR_COUNT], 4);
}

/* ---- pins (joint_solver_lanes.h) against the rows' maths (joint.h) ---- */

/* Up to eight pins between distinct bodies (pin i joins states 2i and 2i + 1,
 * or a static anchor), two substeps of warm start, solve, position update and
 * relax, as the step runs them: through the rows one by one, or through a
 * block on a kernel. The same bits, or the comparison fails. */
static void run_pins(const tb_solver_kernels *k, tb_joint_row *rows, int count, tb_body_state *states,
                     tb_step_context *ctx)
{
	static tb_pin_block block; /* 32-byte aligned by its type */
	if (k != NULL) {
		tb_pin_block_init(&block, count);
		for (int i = 0; i < count; ++i) tb_pin_block_set_lane(&block, i, rows + i, i);
	}
	for (int sub = 0; sub < 2; ++sub) {
		ctx->substep_index = sub;
		for (int pass = 0; pass < 3; ++pass) {
			if (pass == 2) {
				/* positions move between the solve and the relax */
				for (int s = 0; s < MAX_STATES; ++s) {
					tb_body_state *st = states + s;
					st->dp = tb_mul_add(st->dp, ctx->h, st->linear_velocity);
					st->dq = tb_normalize_rot((tb_rot){st->dq.c - ctx->h * st->angular_velocity * st->dq.s,
					                                   st->dq.s + ctx->h * st->angular_velocity * st->dq.c});
				}
			}
			if (k != NULL) {
				if (pass == 0) k->pin_warm_start(&block, 1, states, ctx);
				else k->pin_solve(&block, 1, states, ctx, pass == 1);
				continue;
			}
			for (int i = 0; i < count; ++i) {
				tb_body_state dummy_a = tb_identity_body_state, dummy_b = tb_identity_body_state;
				tb_body_state *a = rows[i].state_a >= 0 ? states + rows[i].state_a : &dummy_a;
				tb_body_state *b = rows[i].state_b >= 0 ? states + rows[i].state_b : &dummy_b;
				if (pass == 0) {
					tb_row_warm_start(rows + i, a, b, ctx, 0.0f);
				} else {
					tb_point_frame f = tb_row_frame(rows + i, a, b, ctx, pass == 1);
					tb_solve_point_in(&rows[i].pt, &f, a, b, ctx->joint_softness, pass == 1);
				}
			}
		}
	}
	if (k != NULL) {
		for (int i = 0; i < count; ++i) rows[i].pt.linear_impulse = tb_v2(block.impulse_x[i], block.impulse_y[i]);
	}
}

static void compare_pins(const tb_solver_kernels *k)
{
	assert_non_null(k);
	rng_state = 3;
	tb_step_context ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.dt = 1.0f / 60.0f;
	ctx.h = ctx.dt / 4.0f;
	ctx.inv_h = 4.0f / ctx.dt;
	ctx.joint_softness = tb_make_soft(60.0f, 5.0f, ctx.h);
	for (int variant = 0; variant < 400; ++variant) {
		int count = 1 + variant % MAX_LANES;
		tb_body_state row_states[MAX_STATES], block_states[MAX_STATES];
		tb_joint_row rows[MAX_LANES], block_rows[MAX_LANES];
		memset(rows, 0, sizeof rows);
		random_states(row_states);
		for (int i = 0; i < count; ++i) {
			tb_joint_row *r = rows + i;
			bool anchored = (variant + i) % 3 == 0;
			r->state_a = anchored ? -1 : 2 * i;
			r->state_b = 2 * i + 1;
			r->kind = TB_ROW_PIN;
			r->pt.frame_a = tb_v2(rnd(-0.6f, 0.6f), rnd(-0.6f, 0.6f));
			r->pt.frame_b = tb_v2(rnd(-0.6f, 0.6f), rnd(-0.6f, 0.6f));
			r->pt.delta_center = tb_v2(rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f));
			r->pt.inv_mass_a = anchored ? 0.0f : rnd(0.1f, 2.0f);
			r->pt.inv_i_a = anchored ? 0.0f : rnd(0.0f, 3.0f);
			r->pt.inv_mass_b = rnd(0.1f, 2.0f);
			/* a singular K now and then: a pin between two fixed points */
			r->pt.inv_i_b = (variant + i) % 7 == 3 ? 0.0f : rnd(0.1f, 3.0f);
			if ((variant + i) % 11 == 5) r->pt.inv_mass_a = r->pt.inv_mass_b = r->pt.inv_i_a = r->pt.inv_i_b = 0.0f;
			r->pt.linear_impulse = tb_v2(rnd(-0.1f, 0.1f), rnd(-0.1f, 0.1f));
		}
		memcpy(block_rows, rows, sizeof rows);
		memcpy(block_states, row_states, sizeof row_states);
		run_pins(NULL, rows, count, row_states, &ctx);
		run_pins(k, block_rows, count, block_states, &ctx);
		assert_same_bits(row_states, block_states, sizeof row_states, "pin body states", variant, 0);
		for (int i = 0; i < count; ++i)
			assert_same_bits(&rows[i].pt.linear_impulse, &block_rows[i].pt.linear_impulse, sizeof(tb_vec2),
			                 "pin impulses", variant, 0);
	}
}

static void test_pins_match_rows_on_every_path(void **state)
{
	(void)state;
	compare_pins(tb_solver_kernels_for(TB_SOLVER_PATH_SCALAR));
	compare_pins(tb_solver_kernels_for(TB_SOLVER_PATH_SSE2));
	if (tb_solver_kernels_for(TB_SOLVER_PATH_AVX2) != NULL) compare_pins(tb_solver_kernels_for(TB_SOLVER_PATH_AVX2));
	if (tb_solver_kernels_for(TB_SOLVER_PATH_AVX512) != NULL)
		compare_pins(tb_solver_kernels_for(TB_SOLVER_PATH_AVX512));
	compare_pins(&kernels_portable4);
}

/* The world setting: every path this machine has can be chosen, AUTO picks the
 * widest (or what TB_SOLVER_PATH names), and a path the CPU lacks is refused. */
static void test_solver_path_setting(void **state)
{
	(void)state;
	tb_world *w = tu_world(tb_v2(0.0f, -10.0f));
	tb_solver_path p = tb_world_get_solver_path(w);
	assert_true(p == TB_SOLVER_PATH_SCALAR || p == TB_SOLVER_PATH_SSE2 || p == TB_SOLVER_PATH_AVX2 ||
	            p == TB_SOLVER_PATH_AVX512);
	if (getenv("TB_SOLVER_PATH") == NULL) {
		bool avx512 = tb_solver_kernels_for(TB_SOLVER_PATH_AVX512) != NULL && tb_cpu_prefers_avx512();
		tb_solver_path widest = avx512                                         ? TB_SOLVER_PATH_AVX512
		                        : tb_solver_kernels_for(TB_SOLVER_PATH_AVX2) ? TB_SOLVER_PATH_AVX2
		                                                                      : TB_SOLVER_PATH_SSE2;
		assert_int_equal(p, widest);
	}
	for (int q = TB_SOLVER_PATH_SCALAR; q < TB_SOLVER_PATH_COUNT; ++q) {
		tb_status st = tb_world_set_solver_path(w, (tb_solver_path)q);
		if (tb_solver_kernels_for((tb_solver_path)q) != NULL) {
			assert_int_equal(st, TB_OK);
			assert_int_equal(tb_world_get_solver_path(w), q);
		} else {
			assert_int_equal(st, TB_ERR_INVALID_ARGUMENT);
		}
		assert_int_equal(tb_solver_path_from_name(tb_solver_path_name((tb_solver_path)q)), q);
	}
	assert_int_equal(tb_world_set_solver_path(w, TB_SOLVER_PATH_AUTO), TB_OK);
	assert_int_equal(tb_world_get_solver_path(w), tb_default_solver_path());
	assert_int_equal(tb_world_set_solver_path(w, TB_SOLVER_PATH_COUNT), TB_ERR_INVALID_ARGUMENT);
	assert_int_equal(tb_solver_path_from_name("neon"), TB_SOLVER_PATH_COUNT);
	tb_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sse2_block_matches_scalar),
		cmocka_unit_test(test_avx2_block_matches_scalar),
		cmocka_unit_test(test_avx512_block_matches_scalar),
		cmocka_unit_test(test_colors_of_blocks_match_scalar),
		cmocka_unit_test(test_scalar_block_matches_scalar),
		cmocka_unit_test(test_portable_block_matches_scalar),
		cmocka_unit_test(test_comparison_sees_a_difference),
		cmocka_unit_test(test_block_fill_matches_lane_by_lane),
		cmocka_unit_test(test_integrate_positions_matches_scalar),
		cmocka_unit_test(test_integrate_velocities_matches_scalar),
		cmocka_unit_test(test_take_color_policies),
		cmocka_unit_test(test_pins_match_rows_on_every_path),
		cmocka_unit_test(test_solver_path_setting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
