/* tumble physics: the character mover, after Box2D v3.1's (a world cast plus
 * a plane solver), extended for platformers: walkable slopes, steps, ground
 * snapping, riding and pushing.
 *
 * One move is a few rounds of: collect the planes of every shape within a
 * skin of the capsule (closest point and normal, from the shape towards the
 * mover), solve for the motion closest to the wanted one that keeps every
 * plane's gap (Gauss-Seidel on the pushes, each >= 0), then sweep the capsule
 * along that motion against the shapes not already in the skin, and advance
 * to where it stops. The plane solver pushes each plane along a direction of
 * its own:
 *   - walkable ground (normal within max_slope of up) pushes straight up, so
 *     walking into a slope climbs it at full horizontal speed and gravity
 *     does not slide the mover down it;
 *   - steeper ground pushes along its normal (the mover slides down it) and
 *     adds a vertical wall at its foot, so walking into it does not climb it;
 *   - walls and ceilings push along their normal.
 * Then: if a wall stopped a grounded mover, it tries to step up (rise by
 * step_height, move across, come down) and keeps that if it lands on
 * walkable ground further on; a mover that was grounded and is not going up
 * snaps down onto ground within reach of its slope; and it pushes the
 * dynamic bodies it walked into.
 *
 * The mover keeps its surface about half a skin (2.5 mm) from what it stands
 * on, never overlapping it, so the shapes it stands on are planes and never
 * sweep hits, and a seam between two tiles is two planes with one normal. */
#include "mover.h"
#include "shape_cast.h"
#include "world.h"

#include <float.h>

#define SKIN TB_LINEAR_SLOP           /* shapes closer than 2 skins are planes */
#define KEEP (0.5f * TB_LINEAR_SLOP)  /* the gap the mover keeps */
#define MAX_PLANES 32
#define MAX_ROUNDS 5
#define SOLVER_ITERATIONS 20

typedef struct mover_plane {
	tb_vec2 normal; /* from the shape to the mover */
	tb_vec2 push;   /* the direction the solver moves the mover along */
	float gap;      /* now, m */
	float accumulated;
	tb_vec2 point;  /* on the shape, world */
	int32_t shape;  /* TB_NULL_INDEX for the wall at a steep slope's foot */
	bool walkable;
} mover_plane;

typedef struct plane_set {
	mover_plane planes[MAX_PLANES];
	int count;
} plane_set;

tb_mover_def tb_default_mover_def(void)
{
	tb_mover_def d;
	memset(&d, 0, sizeof d);
	d.capsule.center1 = tb_v2(0.0f, -0.5f);
	d.capsule.center2 = tb_v2(0.0f, 0.5f);
	d.capsule.radius = 0.3f;
	d.max_slope = 0.25f * TB_PI;
	d.filter = tb_default_query_filter();
	return d;
}

tb_status tb_validate_mover_def(const tb_mover_def *d)
{
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	g.capsule = d->capsule;
	tb_status st = tb_validate_geometry(&g);
	if (st != TB_OK) return st;
	const tb_capsule *c = &d->capsule;
	if (fabsf(c->center1.x) > TB_HUGE || fabsf(c->center1.y) > TB_HUGE || fabsf(c->center2.x) > TB_HUGE ||
	    fabsf(c->center2.y) > TB_HUGE || c->radius > TB_HUGE)
		return TB_ERR_INVALID_NUMBER;
	if (c->radius <= 2.0f * TB_LINEAR_SLOP) return TB_ERR_NON_POSITIVE;
	if (!tb_is_valid_vec2(d->position) || fabsf(d->position.x) > TB_HUGE || fabsf(d->position.y) > TB_HUGE ||
	    !isfinite(d->max_slope) || !isfinite(d->step_height) || !isfinite(d->push_strength) ||
	    d->step_height > TB_HUGE)
		return TB_ERR_INVALID_NUMBER;
	if (d->step_height < 0.0f || d->push_strength < 0.0f || d->max_slope < 0.0f) return TB_ERR_NEGATIVE;
	if (!(d->max_slope < 0.5f * TB_PI)) return TB_ERR_INVALID_ARGUMENT;
	return TB_OK;
}

static tb_mover *lookup(const tb_world *w, tb_mover_id id)
{
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i < 0 || i >= w->movers.count) return NULL;
	tb_mover *m = w->movers.data + i;
	if (!m->in_use || m->generation != id.generation) return NULL;
	return m;
}

tb_mover_id tb_create_mover(tb_world *w, const tb_mover_def *def, tb_status *status)
{
	tb_status ignored;
	if (status == NULL) status = &ignored;
	if (w == NULL || def == NULL) {
		*status = TB_ERR_INVALID_ARGUMENT;
		return tb_null_mover_id;
	}
	if (w->locked) {
		*status = TB_ERR_LOCKED;
		return tb_null_mover_id;
	}
	*status = tb_validate_mover_def(def);
	if (*status != TB_OK) return tb_null_mover_id;
	tb_id_pool *pool = &w->mover_pool;
	if (tb_id_pool_peek(pool) == pool->next_index) {
		int32_t n = pool->next_index + 1;
		if (!tb_mover_array_reserve(&w->allocator, &w->movers, n) || !tb_id_pool_reserve(&w->allocator, pool, n)) {
			*status = TB_ERR_OUT_OF_MEMORY;
			return tb_null_mover_id;
		}
	}
	int32_t i = tb_alloc_id(pool);
	if (i == w->movers.count) w->movers.count += 1;
	tb_mover *m = w->movers.data + i;
	/* never a generation issued in the slot before, restores included */
	uint32_t gen = tb_id_pool_issue(pool, i, m->generation);
	memset(m, 0, sizeof *m);
	m->generation = gen;
	m->in_use = true;
	m->def = *def;
	m->position = def->position;
	m->ground_shape = TB_NULL_INDEX;
	tb_mover_id id = {i + 1, gen};
	return id;
}

void tb_destroy_mover(tb_world *w, tb_mover_id id)
{
	tb_mover *m = lookup(w, id);
	if (m == NULL || w->locked) return;
	m->in_use = false;
	m->generation += 1;
	m->def.user_data = NULL;
	tb_free_id(&w->mover_pool, id.index1 - 1);
}

void tb_destroy_all_movers(tb_world *w)
{
	for (int32_t i = 0; i < w->movers.count; ++i) {
		tb_mover *m = w->movers.data + i;
		if (!m->in_use) continue;
		tb_mover_id id = {i + 1, m->generation};
		tb_destroy_mover(w, id);
	}
}

bool tb_mover_is_valid(const tb_world *w, tb_mover_id id) { return lookup(w, id) != NULL; }

/* ---- the planes around the capsule ---- */

typedef struct collect_query {
	const tb_world *world;
	const tb_mover *mover;
	tb_shape_proxy core;  /* the capsule's segment, radius 0 */
	tb_transform xf;
	float cos_slope;
	float base;           /* the capsule's lowest height when the move began: steps are measured from it */
	plane_set *set;
} collect_query;

/* Whether a world point of a shape is one of its sharp corners (a polygon
 * without rounding, the ends of a segment or chain link). */
static bool is_corner(const tb_shape *s, tb_transform xf, tb_vec2 point)
{
	const tb_geometry *g = &s->geom;
	const float tolerance_sq = 1.0e-6f;
	switch (g->type) {
	case TB_SHAPE_POLYGON:
		if (g->polygon.radius > 0.0f) return false;
		for (int i = 0; i < g->polygon.count; ++i) {
			if (tb_distance_sq(tb_transform_point(xf, g->polygon.vertices[i]), point) < tolerance_sq) return true;
		}
		return false;
	case TB_SHAPE_SEGMENT:
		return tb_distance_sq(tb_transform_point(xf, g->segment.point1), point) < tolerance_sq ||
		       tb_distance_sq(tb_transform_point(xf, g->segment.point2), point) < tolerance_sq;
	case TB_SHAPE_CHAIN_SEGMENT:
		return tb_distance_sq(tb_transform_point(xf, g->chain_segment.segment.point1), point) < tolerance_sq ||
		       tb_distance_sq(tb_transform_point(xf, g->chain_segment.segment.point2), point) < tolerance_sq;
	default: return false;
	}
}

static void add_plane(plane_set *set, tb_vec2 normal, tb_vec2 push, float gap, tb_vec2 point, int32_t shape,
                      bool walkable)
{
	if (set->count >= MAX_PLANES) return;
	mover_plane *p = set->planes + set->count++;
	p->normal = normal;
	p->push = push;
	p->gap = gap;
	p->accumulated = 0.0f;
	p->point = point;
	p->shape = shape;
	p->walkable = walkable;
}

static bool collect_fn(int32_t proxy_id, int32_t si, void *context)
{
	(void)proxy_id;
	collect_query *q = context;
	const tb_world *w = q->world;
	const tb_shape *s = w->shapes.data + si;
	if (!tb_query_accepts(w, s, q->mover->def.filter) || s->is_sensor) return true;
	tb_shape_proxy a = tb_geometry_proxy(&s->geom);
	tb_transform xfs = w->sims.data[s->body].transform;
	tb_distance_output d = tb_shape_distance(&a, xfs, &q->core, q->xf);
	if (d.distance <= -a.radius) return true; /* the cores overlap: no direction to go */
	float gap = d.distance - q->mover->def.capsule.radius;
	if (gap >= 2.0f * SKIN) return true;
	tb_vec2 n = d.normal;
	/* one-sided shapes hold only from their front, and not once the mover is
	 * in them (it is passing through) */
	if (s->geom.type == TB_SHAPE_CHAIN_SEGMENT) {
		const tb_segment *seg = &s->geom.chain_segment.segment;
		tb_vec2 front = tb_rotate(xfs.q, tb_right_perp(tb_sub(seg->point2, seg->point1)));
		if (tb_dot(n, front) <= 0.0f || gap < -SKIN) return true;
	}
	if (tb_shape_is_one_way(s) && (gap < -SKIN || !tb_one_way_holds(w, s, n))) return true;

	/* A corner the mover's foot meets no higher than step_height above its
	 * lowest point is a step, walkable whatever the direction to it: the foot
	 * rises onto it (a corner's closest-point normal says nothing of the
	 * ground on either side of it). */
	bool walkable = n.y >= q->cos_slope;
	if (!walkable && n.y > 0.05f && is_corner(s, xfs, d.point_a)) {
		float rise = d.point_a.y - q->base;
		walkable = rise > 2.0f * SKIN && rise <= q->mover->def.step_height;
	}
	tb_vec2 up = {0.0f, 1.0f};
	add_plane(q->set, n, walkable ? up : n, gap, d.point_a, si, walkable);
	if (!walkable && n.y > 0.01f) {
		/* too steep to walk up: also a wall at its foot, so pushing into it
		 * does not climb it (the slope itself still slides the mover down) */
		tb_vec2 wall = tb_normalize(tb_v2(n.x, 0.0f));
		add_plane(q->set, wall, wall, KEEP, d.point_a, TB_NULL_INDEX, false);
	}
	return true;
}

static float feet(const tb_mover *m, tb_vec2 position)
{
	return position.y + tb_minf(m->def.capsule.center1.y, m->def.capsule.center2.y) - m->def.capsule.radius;
}

static void collect_planes(const tb_world *w, const tb_mover *m, tb_vec2 position, float base, plane_set *set)
{
	collect_query q;
	q.world = w;
	q.mover = m;
	q.core = tb_make_proxy(&m->def.capsule.center1, 2, 0.0f);
	q.xf = (tb_transform){position, tb_rot_identity};
	q.cos_slope = tb_cosf(m->def.max_slope);
	q.base = base;
	q.set = set;
	set->count = 0;
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	g.capsule = m->def.capsule;
	tb_aabb box = tb_compute_aabb(&g, q.xf);
	float reach = 2.0f * SKIN;
	box.lower = tb_sub(box.lower, tb_v2(reach, reach));
	box.upper = tb_add(box.upper, tb_v2(reach, reach));
	for (int t = 0; t < 2; ++t) tb_dynamic_tree_query(&w->broad_phase.trees[t], box, m->def.filter.mask_bits, collect_fn, &q);
}

/* The motion closest to `wanted` that keeps each plane's gap at KEEP or
 * more: Gauss-Seidel over the planes, each push accumulated and kept >= 0. */
static tb_vec2 solve_planes(plane_set *set, tb_vec2 wanted)
{
	tb_vec2 delta = wanted;
	for (int i = 0; i < set->count; ++i) set->planes[i].accumulated = 0.0f;
	for (int iter = 0; iter < SOLVER_ITERATIONS; ++iter) {
		float total = 0.0f;
		for (int i = 0; i < set->count; ++i) {
			mover_plane *p = set->planes + i;
			float separation = tb_dot(p->normal, delta) + p->gap - KEEP;
			float rate = tb_dot(p->normal, p->push);
			if (!(rate > 0.0f)) continue;
			float next = tb_maxf(p->accumulated - separation / rate, 0.0f);
			float push = next - p->accumulated;
			p->accumulated = next;
			delta = tb_mul_add(delta, push, p->push);
			total += fabsf(push);
		}
		if (total < 0.1f * SKIN) break;
	}
	return delta;
}

/* ---- the sweep ---- */

typedef struct sweep_query {
	const tb_world *world;
	const tb_mover *mover;
	tb_shape_proxy proxy; /* the whole capsule */
	tb_transform xf;
	tb_vec2 translation;
	float fraction;
} sweep_query;

static bool sweep_fn(int32_t proxy_id, int32_t si, void *context)
{
	(void)proxy_id;
	sweep_query *q = context;
	const tb_world *w = q->world;
	const tb_shape *s = w->shapes.data + si;
	if (!tb_query_accepts(w, s, q->mover->def.filter) || s->is_sensor) return true;
	tb_shape_proxy a = tb_geometry_proxy(&s->geom);
	tb_transform xfs = w->sims.data[s->body].transform;
	/* shapes within the skin are planes, and the ones behind one-sided shapes
	 * are passed through */
	tb_distance_output d = tb_shape_distance(&a, xfs, &q->proxy, q->xf);
	if (d.distance < 2.0f * SKIN) return true;
	if (!tb_shape_faces(w, s, &q->proxy, q->xf)) return true;
	tb_cast_output out = tb_shape_cast_to(&a, xfs, &q->proxy, q->xf, q->translation, q->fraction, KEEP);
	if (out.hit && out.fraction < q->fraction) q->fraction = out.fraction;
	return true;
}

/* How far along translation the capsule at position can go. */
static float sweep(const tb_world *w, const tb_mover *m, tb_vec2 position, tb_vec2 translation)
{
	if (translation.x == 0.0f && translation.y == 0.0f) return 1.0f;
	sweep_query q;
	q.world = w;
	q.mover = m;
	q.proxy = tb_make_proxy(&m->def.capsule.center1, 2, m->def.capsule.radius);
	q.xf = (tb_transform){position, tb_rot_identity};
	q.translation = translation;
	q.fraction = 1.0f;
	tb_geometry g;
	memset(&g, 0, sizeof g);
	g.type = TB_SHAPE_CAPSULE;
	g.capsule = m->def.capsule;
	tb_aabb start = tb_compute_aabb(&g, q.xf);
	tb_aabb end = {tb_add(start.lower, translation), tb_add(start.upper, translation)};
	tb_aabb box = tb_aabb_union(start, end);
	for (int t = 0; t < 2; ++t) tb_dynamic_tree_query(&w->broad_phase.trees[t], box, m->def.filter.mask_bits, sweep_fn, &q);
	return q.fraction;
}

/* Rounds of planes, solve and sweep towards start + delta; `set` holds the
 * planes of the last round. */
static tb_vec2 slide(const tb_world *w, const tb_mover *m, tb_vec2 start, tb_vec2 delta, float base, plane_set *set)
{
	tb_vec2 position = start;
	tb_vec2 target = tb_add(start, delta);
	for (int round = 0; round < MAX_ROUNDS; ++round) {
		collect_planes(w, m, position, base, set);
		tb_vec2 motion = solve_planes(set, tb_sub(target, position));
		float fraction = sweep(w, m, position, motion);
		tb_vec2 step = tb_mul_sv(fraction, motion);
		position = tb_add(position, step);
		if (tb_length_sq(step) < KEEP * KEEP) break;
	}
	return position;
}

/* The walkable plane it stands on (the most level, then the nearest), or -1. */
static int ground_plane(const plane_set *set)
{
	int best = -1;
	for (int i = 0; i < set->count; ++i) {
		const mover_plane *p = set->planes + i;
		if (!p->walkable) continue;
		if (best < 0) {
			best = i;
			continue;
		}
		const mover_plane *b = set->planes + best;
		if (p->normal.y > b->normal.y || (p->normal.y == b->normal.y && p->gap < b->gap)) best = i;
	}
	return best;
}

/* ---- riding and pushing ---- */

/* How far the ground it stood on carried the point it stood on since then. */
static tb_vec2 carried(const tb_world *w, const tb_mover *m)
{
	if (!m->grounded || m->ground_shape == TB_NULL_INDEX) return tb_vec2_zero;
	const tb_shape *s = w->shapes.data + m->ground_shape;
	if (!s->in_use || s->generation != m->ground_generation) return tb_vec2_zero;
	if (w->bodies.data[s->body].type == TB_STATIC_BODY) return tb_vec2_zero;
	tb_vec2 now = tb_transform_point(w->sims.data[s->body].transform, m->ground_local);
	return tb_sub(now, m->ground_point);
}

/* Each dynamic body it walked into gets the impulse that brings its point of
 * contact to the mover's speed along the push, at most push_strength over a
 * step (the speed is the wanted motion over the world's last step). */
static void push_bodies(tb_world *w, const tb_mover *m, const plane_set *set, tb_vec2 wanted)
{
	if (!(m->def.push_strength > 0.0f)) return;
	float inv_dt = w->inv_dt0 > 0.0f ? w->inv_dt0 : 60.0f;
	for (int i = 0; i < set->count; ++i) {
		const mover_plane *p = set->planes + i;
		if (p->shape == TB_NULL_INDEX) continue;
		const tb_shape *s = w->shapes.data + p->shape;
		const tb_body *b = w->bodies.data + s->body;
		if (b->type != TB_DYNAMIC_BODY || !b->enabled) continue;
		tb_vec2 into = tb_neg(p->normal);
		float speed = tb_dot(wanted, into) * inv_dt;
		if (!(speed > 0.0f)) continue;
		const tb_body_sim *sim = w->sims.data + s->body;
		tb_vec2 r = tb_sub(p->point, sim->center);
		tb_vec2 vp = tb_add(sim->linear_velocity, tb_cross_sv(sim->angular_velocity, r));
		float shortfall = speed - tb_dot(vp, into);
		if (!(shortfall > 0.0f)) continue;
		float rn = tb_cross(r, into);
		float k = sim->inv_mass + sim->inv_inertia * rn * rn;
		if (!(k > 0.0f)) continue;
		float impulse = tb_minf(shortfall / k, m->def.push_strength / inv_dt);
		tb_body_apply_linear_impulse(w, tb_make_body_id(w, s->body), tb_mul_sv(impulse, into), p->point, true);
	}
}

/* ---- the move ---- */

tb_vec2 tb_mover_move(tb_world *w, tb_mover_id id, tb_vec2 delta)
{
	tb_mover *m = lookup(w, id);
	if (m == NULL || w->locked || !tb_is_valid_vec2(delta)) return tb_vec2_zero;
	/* keep the mover within the world's coordinates */
	delta.x = tb_clampf(delta.x, -TB_HUGE - m->position.x, TB_HUGE - m->position.x);
	delta.y = tb_clampf(delta.y, -TB_HUGE - m->position.y, TB_HUGE - m->position.y);
	tb_vec2 start = m->position;
	bool was_grounded = m->grounded;
	float slope = tb_sinf(m->def.max_slope) / tb_cosf(m->def.max_slope);
	tb_vec2 wanted = tb_add(delta, carried(w, m));

	float base = feet(m, start);
	plane_set set;
	tb_vec2 end = slide(w, m, start, wanted, base, &set);

	/* stopped by a wall: try a step up */
	float step = m->def.step_height;
	float across = fabsf(wanted.x), made = fabsf(end.x - start.x);
	if (was_grounded && step > 0.0f && across > made + KEEP) {
		plane_set trial;
		tb_vec2 up = slide(w, m, start, tb_v2(0.0f, step), base, &trial);
		float risen = up.y - start.y;
		tb_vec2 over = slide(w, m, up, tb_v2(wanted.x, 0.0f), base, &trial);
		float fall = risen + tb_maxf(-wanted.y, 0.0f) + 2.0f * SKIN;
		tb_vec2 down = slide(w, m, over, tb_v2(0.0f, -fall), base, &trial);
		collect_planes(w, m, down, base, &trial);
		if (fabsf(down.x - start.x) > made + KEEP && ground_plane(&trial) >= 0 && down.y > start.y - fall) {
			end = down;
			set = trial;
		}
	}
	m->position = end;

	/* was on the ground and not leaving it upwards: stay on it, down a slope
	 * or a step as far as max_slope and step_height reach */
	collect_planes(w, m, end, base, &set);
	int ground = ground_plane(&set);
	if (ground < 0 && was_grounded && wanted.y <= 0.0f) {
		float reach = tb_minf(step + fabsf(end.x - start.x) * slope + 2.0f * SKIN, 1.0e3f);
		tb_vec2 drop = tb_v2(0.0f, -reach);
		float fraction = sweep(w, m, end, drop);
		if (fraction < 1.0f) {
			tb_vec2 landed = tb_mul_add(end, fraction, drop);
			plane_set below;
			collect_planes(w, m, landed, base, &below);
			if (ground_plane(&below) >= 0) {
				m->position = landed;
				set = below;
				ground = ground_plane(&set);
			}
		}
	}

	/* asked to go up (a jump, or rising through a one-way platform), it is
	 * not standing on anything, even what it brushes past */
	if (delta.y > 0.0f) ground = -1;
	m->grounded = ground >= 0;
	m->ground_shape = TB_NULL_INDEX;
	m->ground_normal = tb_vec2_zero;
	if (m->grounded) {
		const mover_plane *p = set.planes + ground;
		const tb_shape *s = w->shapes.data + p->shape;
		m->ground_shape = p->shape;
		m->ground_generation = s->generation;
		m->ground_normal = p->normal;
		m->ground_point = p->point;
		m->ground_local = tb_inv_transform_point(w->sims.data[s->body].transform, p->point);
	}
	push_bodies(w, m, &set, delta);
	return tb_sub(m->position, start);
}

/* ---- accessors ---- */

tb_vec2 tb_mover_get_position(const tb_world *w, tb_mover_id id)
{
	const tb_mover *m = lookup(w, id);
	return m ? m->position : tb_vec2_zero;
}

tb_status tb_mover_set_position(tb_world *w, tb_mover_id id, tb_vec2 position)
{
	tb_mover *m = lookup(w, id);
	if (m == NULL) return TB_ERR_STALE_HANDLE;
	if (w->locked) return TB_ERR_LOCKED;
	if (!tb_is_valid_vec2(position) || fabsf(position.x) > TB_HUGE || fabsf(position.y) > TB_HUGE)
		return TB_ERR_INVALID_NUMBER;
	m->position = position;
	m->grounded = false;
	m->ground_shape = TB_NULL_INDEX;
	m->ground_normal = tb_vec2_zero;
	return TB_OK;
}

bool tb_mover_is_grounded(const tb_world *w, tb_mover_id id)
{
	const tb_mover *m = lookup(w, id);
	return m && m->grounded;
}

tb_vec2 tb_mover_get_ground_normal(const tb_world *w, tb_mover_id id)
{
	const tb_mover *m = lookup(w, id);
	return m ? m->ground_normal : tb_vec2_zero;
}

tb_shape_id tb_mover_get_ground_shape(const tb_world *w, tb_mover_id id)
{
	const tb_mover *m = lookup(w, id);
	if (m == NULL || m->ground_shape == TB_NULL_INDEX) return tb_null_shape_id;
	const tb_shape *s = w->shapes.data + m->ground_shape;
	if (!s->in_use || s->generation != m->ground_generation) return tb_null_shape_id;
	return tb_make_shape_id(w, m->ground_shape);
}

tb_mover_def tb_mover_get_def(const tb_world *w, tb_mover_id id)
{
	const tb_mover *m = lookup(w, id);
	if (m == NULL) {
		tb_mover_def zero;
		memset(&zero, 0, sizeof zero);
		return zero;
	}
	tb_mover_def d = m->def;
	d.position = m->position;
	return d;
}

tb_status tb_mover_set_def(tb_world *w, tb_mover_id id, const tb_mover_def *def)
{
	tb_mover *m = lookup(w, id);
	if (m == NULL) return TB_ERR_STALE_HANDLE;
	if (def == NULL) return TB_ERR_INVALID_ARGUMENT;
	if (w->locked) return TB_ERR_LOCKED;
	tb_mover_def d = *def;
	d.position = m->position;
	tb_status st = tb_validate_mover_def(&d);
	if (st != TB_OK) return st;
	m->def = d;
	return TB_OK;
}

int tb_world_get_movers(const tb_world *w, tb_mover_id *out, int capacity)
{
	int n = 0;
	for (int32_t i = 0; i < w->movers.count; ++i) {
		const tb_mover *m = w->movers.data + i;
		if (!m->in_use) continue;
		if (out != NULL && n < capacity) out[n] = (tb_mover_id){i + 1, m->generation};
		n += 1;
	}
	return n;
}
