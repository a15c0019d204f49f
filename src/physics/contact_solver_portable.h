/* tumble physics: the contact solver's vector operations in plain C, for any
 * lane count LANES (engine-private): the scalar path (one lane) and the
 * four-lane path of machines without SSE2. Masks are lanes of 1.0f (true) and
 * 0.0f (false). Include after defining LANES and KERNEL, then include
 * contact_solver_lanes.h. */

typedef struct wv { float v[LANES]; } wv;

#define WV_MAP2(name, expr)                                                                                 \
	static inline wv name(wv a, wv b)                                                                   \
	{                                                                                                   \
		wv r;                                                                                       \
		for (int i = 0; i < LANES; ++i) r.v[i] = (expr);                                            \
		return r;                                                                                   \
	}

static inline wv wv_load(const float *p)
{
	wv r;
	memcpy(r.v, p, sizeof r.v);
	return r;
}
static inline void wv_store(float *p, wv a) { memcpy(p, a.v, sizeof a.v); }
static inline wv wv_splat(float s)
{
	wv r;
	for (int i = 0; i < LANES; ++i) r.v[i] = s;
	return r;
}
static inline wv wv_zero(void) { return wv_splat(0.0f); }
WV_MAP2(wv_add, a.v[i] + b.v[i])
WV_MAP2(wv_sub, a.v[i] - b.v[i])
WV_MAP2(wv_mul, a.v[i] * b.v[i])
WV_MAP2(wv_div, a.v[i] / b.v[i])
WV_MAP2(wv_eq, a.v[i] == b.v[i] ? 1.0f : 0.0f)
WV_MAP2(wv_min, a.v[i] < b.v[i] ? a.v[i] : b.v[i])
WV_MAP2(wv_max, a.v[i] > b.v[i] ? a.v[i] : b.v[i])
WV_MAP2(wv_lt, a.v[i] < b.v[i] ? 1.0f : 0.0f)
WV_MAP2(wv_gt, a.v[i] > b.v[i] ? 1.0f : 0.0f)
WV_MAP2(wv_and, (a.v[i] != 0.0f && b.v[i] != 0.0f) ? 1.0f : 0.0f)
static inline wv wv_neg(wv a)
{
	for (int i = 0; i < LANES; ++i) a.v[i] = -a.v[i];
	return a;
}
/* mask ? b : a, lane by lane */
static inline wv wv_select(wv mask, wv a, wv b)
{
	for (int i = 0; i < LANES; ++i) a.v[i] = mask.v[i] != 0.0f ? b.v[i] : a.v[i];
	return a;
}

#undef WV_MAP2

typedef struct KERNEL(wide_body) {
	wv vx, vy, angular_velocity, flags;
	wv dpx, dpy, qc, qs;
} KERNEL(wide_body);

/* Immovable bodies (index -1) read as the identity state and are never written. */
static inline __attribute__((always_inline)) void gather_bodies(KERNEL(wide_body) *b, const tb_body_state *states,
                                                                const int32_t *index)
{
	for (int i = 0; i < LANES; ++i) {
		const tb_body_state *s = index[i] >= 0 ? states + index[i] : &tb_identity_body_state;
		b->vx.v[i] = s->linear_velocity.x;
		b->vy.v[i] = s->linear_velocity.y;
		b->angular_velocity.v[i] = s->angular_velocity;
		b->flags.v[i] = 0.0f;
		b->dpx.v[i] = s->dp.x;
		b->dpy.v[i] = s->dp.y;
		b->qc.v[i] = s->dq.c;
		b->qs.v[i] = s->dq.s;
	}
}

/* Only velocities change while solving. */
static inline __attribute__((always_inline)) void scatter_bodies(tb_body_state *states, const int32_t *index,
                                                                 const KERNEL(wide_body) *b)
{
	for (int i = 0; i < LANES; ++i) {
		if (index[i] < 0) continue;
		tb_body_state *s = states + index[i];
		s->linear_velocity.x = b->vx.v[i];
		s->linear_velocity.y = b->vy.v[i];
		s->angular_velocity = b->angular_velocity.v[i];
	}
}
