/* tumble physics: joints — lifetime and the links into both bodies, defaults
 * and validation, the common part of prepare, the rows of plain pins, the
 * dispatch to each kind's operations (joint_<kind>.c) and the public accessors. */
#include "world.h"

#include <float.h>

const tb_joint_ops *const tb_joint_kinds[TB_JOINT_TYPE_COUNT] = {
	[TB_JOINT_REVOLUTE] = &tb_revolute_ops, [TB_JOINT_PRISMATIC] = &tb_prismatic_ops,
	[TB_JOINT_DISTANCE] = &tb_distance_ops, [TB_JOINT_WELD] = &tb_weld_ops,
	[TB_JOINT_MOUSE] = &tb_mouse_ops,       [TB_JOINT_WHEEL] = &tb_wheel_ops,
	[TB_JOINT_MOTOR] = &tb_motor_ops,
};

tb_joint_def tb_default_joint_def(tb_joint_type type)
{
	tb_joint_def def;
	memset(&def, 0, sizeof(def));
	def.type = type;
	def.local_axis_a = tb_v2(1.0f, 0.0f);
	def.length = 1.0f;
	def.min_length = 0.0f;
	def.max_length = TB_JOINT_HUGE;
	def.correction_factor = 0.3f;
	def.break_force = INFINITY;
	def.break_torque = INFINITY;
	if ((unsigned)type < TB_JOINT_TYPE_COUNT && tb_joint_kinds[type]->set_defaults != NULL)
		tb_joint_kinds[type]->set_defaults(&def);
	return def;
}

/* ---------------------------------------------------------------- validation */

static bool def_numbers_are_finite(const tb_joint_def *d)
{
	float scalars[] = {d->reference_angle, d->lower, d->upper, d->motor_speed, d->max_motor_torque,
	                   d->max_motor_force, d->length, d->min_length, d->max_length, d->hertz,
	                   d->damping_ratio, d->angular_hertz, d->angular_damping_ratio, d->max_force,
	                   d->angular_offset, d->correction_factor};
	for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); ++i) {
		if (!tb_is_valid_float(scalars[i])) return false;
	}
	/* the break limits may be infinite (unbreakable), never NaN */
	if (isnan(d->break_force) || isnan(d->break_torque)) return false;
	return tb_is_valid_vec2(d->local_anchor_a) && tb_is_valid_vec2(d->local_anchor_b) &&
	       tb_is_valid_vec2(d->local_axis_a) && tb_is_valid_vec2(d->target) && tb_is_valid_vec2(d->linear_offset);
}

tb_status tb_joint_validate_def(const tb_joint_def *def)
{
	if (def == NULL) return TB_ERR_INVALID_ARGUMENT;
	if ((int)def->type < 0 || (int)def->type >= TB_JOINT_TYPE_COUNT) return TB_ERR_INVALID_ARGUMENT;
	if (!def_numbers_are_finite(def)) return TB_ERR_INVALID_NUMBER;
	/* finite but absurd anchors overflow every later computation */
	const tb_vec2 points[4] = {def->local_anchor_a, def->local_anchor_b, def->target, def->linear_offset};
	for (int i = 0; i < 4; ++i) {
		if (fabsf(points[i].x) > TB_HUGE || fabsf(points[i].y) > TB_HUGE) return TB_ERR_INVALID_NUMBER;
	}

	/* Signs are checked for every kind: an unused field is still returned by
	 * tb_joint_get_def and must not surprise whoever copies it to another joint. */
	if (def->max_motor_torque < 0.0f || def->max_motor_force < 0.0f || def->max_force < 0.0f) return TB_ERR_NEGATIVE;
	if (def->hertz < 0.0f || def->damping_ratio < 0.0f) return TB_ERR_NEGATIVE;
	if (def->angular_hertz < 0.0f || def->angular_damping_ratio < 0.0f) return TB_ERR_NEGATIVE;
	if (def->length < 0.0f || def->min_length < 0.0f || def->max_length < 0.0f) return TB_ERR_NEGATIVE;
	if (def->break_force < 0.0f || def->break_torque < 0.0f) return TB_ERR_NEGATIVE;
	if (def->correction_factor < 0.0f || def->correction_factor > 1.0f) return TB_ERR_INVALID_ARGUMENT;
	if (fabsf(def->angular_offset) > TB_HUGE) return TB_ERR_INVALID_NUMBER;

	const tb_joint_ops *ops = tb_joint_kinds[def->type];
	tb_status status = ops->validate != NULL ? ops->validate(def) : TB_OK;
	if (status == TB_OK && ops->has_axis && tb_length_sq(def->local_axis_a) < 1.0e-12f) return TB_ERR_DEGENERATE;
	return status;
}

/* ---------------------------------------------------------------- lifetime */

static void link_joint_edge(tb_world *w, int32_t ji, int32_t edge, int32_t bi)
{
	tb_joint *j = w->joints.data + ji;
	tb_body *b = w->bodies.data + bi;
	int32_t key = (ji << 1) | edge;
	j->edge_prev[edge] = TB_NULL_INDEX;
	j->edge_next[edge] = b->head_joint_key;
	if (b->head_joint_key != TB_NULL_INDEX)
		w->joints.data[b->head_joint_key >> 1].edge_prev[b->head_joint_key & 1] = key;
	b->head_joint_key = key;
	b->joint_count += 1;
}

static void unlink_joint_edge(tb_world *w, int32_t ji, int32_t edge, int32_t bi)
{
	tb_joint *j = w->joints.data + ji;
	tb_body *b = w->bodies.data + bi;
	int32_t prev = j->edge_prev[edge], next = j->edge_next[edge];
	if (prev != TB_NULL_INDEX) w->joints.data[prev >> 1].edge_next[prev & 1] = next;
	else b->head_joint_key = next;
	if (next != TB_NULL_INDEX) w->joints.data[next >> 1].edge_prev[next & 1] = prev;
	b->joint_count -= 1;
}

static tb_status reserve_joint_slot(tb_world *w)
{
	tb_id_pool *pool = &w->joint_pool;
	int32_t limit = w->def.limits.max_joints;
	if (limit > 0 && tb_id_pool_count(pool) >= limit) return TB_ERR_JOINT_LIMIT;
	if (tb_id_pool_peek(pool) < pool->next_index) return TB_OK;
	int32_t n = pool->next_index + 1;
	if (!tb_joint_array_reserve(&w->allocator, &w->joints, n) || !tb_id_pool_reserve(&w->allocator, pool, n) ||
	    !tb_reserve_step_arrays(w, w->bodies.count, n))
		return TB_ERR_OUT_OF_MEMORY;
	return TB_OK;
}

tb_joint_id tb_create_joint(tb_world *w, const tb_joint_def *def, tb_status *status)
{
	tb_status ignored;
	if (status == NULL) status = &ignored;
	if (w == NULL || def == NULL) { *status = TB_ERR_INVALID_ARGUMENT; return tb_null_joint_id; }
	if (w->locked) { *status = TB_ERR_LOCKED; return tb_null_joint_id; }
	tb_body *a = tb_body_lookup(w, def->body_a), *b = tb_body_lookup(w, def->body_b);
	if (a == NULL || b == NULL) { *status = TB_ERR_STALE_HANDLE; return tb_null_joint_id; }
	if (a == b) { *status = TB_ERR_INVALID_ARGUMENT; return tb_null_joint_id; }
	tb_status st = tb_joint_validate_def(def);
	if (st == TB_OK) st = reserve_joint_slot(w);
	if (st != TB_OK) { *status = st; return tb_null_joint_id; }

	int32_t ia = def->body_a.index1 - 1, ib = def->body_b.index1 - 1;
	int32_t ji = tb_alloc_id(&w->joint_pool);
	if (ji == w->joints.count) w->joints.count += 1;
	tb_joint *j = w->joints.data + ji;
	uint32_t gen = tb_id_pool_issue(&w->joint_pool, ji, j->generation);
	memset(j, 0, sizeof *j);
	j->generation = gen;
	j->in_use = true;
	j->def = *def;
	j->body_a = ia;
	j->body_b = ib;
	j->state_a = -1;
	j->state_b = -1;
	const tb_joint_ops *ops = tb_joint_kinds[def->type];
	if (ops->has_axis) {
		tb_vec2 axis = tb_normalize(def->local_axis_a);
		/* validate_def refused a zero axis; this guards one that normalizes to zero */
		j->def.local_axis_a = tb_length_sq(axis) > 0.0f ? axis : tb_v2(1.0f, 0.0f);
	}
	if (ops->adopt != NULL) ops->adopt(&j->def);
	if (tb_joint_is_breakable(def)) w->breakable_joint_count += 1;
	link_joint_edge(w, ji, 0, ia);
	link_joint_edge(w, ji, 1, ib);
	w->active_joint_bits.count = tb_bit_words(w->joints.count);
	tb_sync_joint_active(w, ji);

	/* a joint that forbids contact removes the contacts it now forbids */
	if (!def->collide_connected) {
		tb_body_edge_iter it = tb_body_contacts(w, ia);
		tb_body_edge e;
		while (tb_next_body_edge(w, &it, &e)) {
			if (e.other == ib) tb_destroy_contact(w, e.contact, false);
		}
	}
	tb_wake_body(w, ia);
	tb_wake_body(w, ib);
	*status = TB_OK;
	return tb_make_joint_id(w, ji);
}

/* Unlinks and frees a live joint; never allocates, and may run inside the step. */
static void destroy_joint(tb_world *w, int32_t ji)
{
	tb_joint *j = w->joints.data + ji;
	int32_t ia = j->body_a, ib = j->body_b;
	bool reconnect = !j->def.collide_connected;
	if (tb_joint_is_breakable(&j->def)) w->breakable_joint_count -= 1;
	unlink_joint_edge(w, ji, 0, ia);
	unlink_joint_edge(w, ji, 1, ib);
	j->in_use = false;
	j->generation += 1;
	j->def.user_data = NULL;
	tb_sync_joint_active(w, ji);
	tb_free_id(&w->joint_pool, ji);
	tb_wake_body(w, ia);
	tb_wake_body(w, ib);
	/* the bodies may collide now: let the broad phase look again */
	if (reconnect) {
		for (int32_t k = w->bodies.data[ia].head_shape; k != TB_NULL_INDEX; k = w->shapes.data[k].next_in_body) {
			if (w->shapes.data[k].proxy != TB_NULL_INDEX) tb_broad_phase_buffer_move(w, k, NULL);
		}
	}
}

void tb_destroy_joint(tb_world *w, tb_joint_id id)
{
	tb_joint *j = tb_joint_lookup(w, id);
	if (j == NULL || w->locked) return;
	destroy_joint(w, id.index1 - 1);
}

bool tb_joint_is_valid(const tb_world *w, tb_joint_id id) { return tb_joint_lookup(w, id) != NULL; }

/* The step's last act: joints past their limits go, each reported. The event
 * array was reserved with the joint slots, and destroying never allocates. */
void tb_break_joints(tb_world *w)
{
	if (w->breakable_joint_count == 0) return;
	for (int32_t k = 0; k < w->active_joints.count; ++k) {
		int32_t ji = w->active_joints.data[k];
		tb_joint *j = w->joints.data + ji;
		if (!tb_joint_is_breakable(&j->def)) continue;
		float force = tb_length(tb_joint_force(w, j)), torque = fabsf(tb_joint_torque(j));
		/* a joint torn by absurd input (an infinite or NaN impulse) has broken
		 * as far as the numbers go: report the largest float */
		if (!(force <= FLT_MAX)) force = FLT_MAX;
		if (!(torque <= FLT_MAX)) torque = FLT_MAX;
		if (!(force > j->def.break_force || torque > j->def.break_torque)) continue;
		TB_ASSERT(w->joint_break_events.count < w->joint_break_events.capacity);
		tb_joint_break_event *e = w->joint_break_events.data + w->joint_break_events.count++;
		e->joint = tb_make_joint_id(w, ji);
		e->type = j->def.type;
		e->body_a = j->def.body_a;
		e->body_b = j->def.body_b;
		e->force = force;
		e->torque = torque;
		e->user_data = j->def.user_data;
		destroy_joint(w, ji);
	}
}


/* ---------------------------------------------------------------- prepare */

void tb_joint_prepare(tb_joint *joint, const tb_step_context *ctx)
{
	const tb_joint_def *def = &joint->def;
	const tb_body_sim *sa = ctx->sims + joint->body_a;
	const tb_body_sim *sb = ctx->sims + joint->body_b;
	tb_rot qa = sa->transform.q;
	tb_rot qb = sb->transform.q;

	joint->state_a = sa->state_index;
	joint->state_b = sb->state_index;
	/* A body without a state this step (static, asleep) cannot move: give it
	 * infinite mass so the joint does not spend impulse on it. */
	joint->pt.inv_mass_a = joint->state_a >= 0 ? sa->inv_mass : 0.0f;
	joint->pt.inv_i_a = joint->state_a >= 0 ? sa->inv_inertia : 0.0f;
	joint->pt.inv_mass_b = joint->state_b >= 0 ? sb->inv_mass : 0.0f;
	joint->pt.inv_i_b = joint->state_b >= 0 ? sb->inv_inertia : 0.0f;
	joint->last_inv_h = ctx->inv_h;

	joint->pt.frame_a = tb_rotate(qa, tb_sub(def->local_anchor_a, sa->local_center));
	joint->pt.frame_b = tb_rotate(qb, tb_sub(def->local_anchor_b, sb->local_center));
	joint->pt.delta_center = tb_sub(sb->center, sa->center);
	joint->delta_angle = tb_unwind_angle(tb_solver_relative_angle(qb, qa) - def->reference_angle);
	if (!ctx->enable_warm_starting) joint->pt.linear_impulse = tb_vec2_zero;

	tb_joint_kinds[def->type]->prepare(joint, ctx);
}

/* ---------------------------------------------------------------- dispatch */

/* Static, kinematic-free and sleeping bodies have no state this step: they read as
 * the identity state and whatever is written to the copy is dropped. */
typedef struct joint_states {
	tb_body_state *a, *b;
	tb_body_state dummy_a, dummy_b;
} joint_states;

static inline void get_states(joint_states *js, int32_t state_a, int32_t state_b, tb_step_context *ctx)
{
	if (state_a >= 0) {
		js->a = ctx->states + state_a;
	} else {
		js->dummy_a = tb_identity_body_state;
		js->a = &js->dummy_a;
	}
	if (state_b >= 0) {
		js->b = ctx->states + state_b;
	} else {
		js->dummy_b = tb_identity_body_state;
		js->b = &js->dummy_b;
	}
}

/* ---------------------------------------------------------------- rows */

void tb_joint_make_row(const tb_joint *joint, int32_t slot, tb_joint_row *row, tb_revolute_row *revolute_rows,
                       int32_t *revolute_count, const tb_step_context *ctx)
{
	row->state_a = joint->state_a;
	row->state_b = joint->state_b;
	row->joint = slot;
	row->pt = joint->pt;
	if (!tb_joint_kinds[joint->def.type]->solved_from_rows) {
		row->kind = TB_ROW_JOINT;
	} else if (tb_revolute_is_pin(joint)) {
		row->kind = TB_ROW_PIN;
	} else {
		row->kind = TB_ROW_REVOLUTE;
		tb_revolute_make_row(joint, ctx, revolute_rows + (*revolute_count)++);
	}
}

void tb_joint_store_rows(tb_joint *joints, const tb_joint_row *rows, int32_t count,
                         const tb_revolute_row *revolute_rows)
{
	const tb_revolute_row *r = revolute_rows;
	for (int32_t k = 0; k < count; ++k) {
		const tb_joint_row *row = rows + k;
		if (row->kind == TB_ROW_JOINT) continue;
		tb_joint *joint = joints + row->joint;
		joint->pt.linear_impulse = row->pt.linear_impulse;
		if (row->kind == TB_ROW_REVOLUTE) tb_revolute_store_row(joint, r++);
	}
}

/* The revolute rows are walked alongside: the next one is the next
 * TB_ROW_REVOLUTE row's. A joint of another kind costs one indirect call;
 * pins and revolute joints, the bulk of most scenes, are called directly. */
void tb_joint_rows_warm_start(tb_joint *joints, tb_joint_row *rows, tb_revolute_row *revolute_rows, int32_t count,
                              tb_step_context *ctx)
{
	joint_states js;
	const tb_revolute_row *r = revolute_rows;
	for (int32_t k = 0; k < count; ++k) {
		tb_joint_row *row = rows + k;
		if (row->kind == TB_ROW_BLOCK) continue;
		if (row->kind == TB_ROW_JOINT) {
			tb_joint *joint = joints + row->joint;
			get_states(&js, joint->state_a, joint->state_b, ctx);
			tb_joint_kinds[joint->def.type]->warm_start(joint, js.a, js.b, ctx);
			continue;
		}
		get_states(&js, row->state_a, row->state_b, ctx);
		if (row->kind == TB_ROW_PIN) tb_row_warm_start(row, js.a, js.b, ctx, 0.0f);
		else tb_revolute_warm_start(row, r++, js.a, js.b, ctx);
	}
}

void tb_joint_rows_solve(tb_joint *joints, tb_joint_row *rows, tb_revolute_row *revolute_rows, int32_t count,
                         tb_step_context *ctx, bool use_bias)
{
	joint_states js;
	tb_revolute_row *r = revolute_rows;
	for (int32_t k = 0; k < count; ++k) {
		tb_joint_row *row = rows + k;
		if (row->kind == TB_ROW_BLOCK) continue;
		if (row->kind == TB_ROW_JOINT) {
			tb_joint *joint = joints + row->joint;
			get_states(&js, joint->state_a, joint->state_b, ctx);
			tb_joint_kinds[joint->def.type]->solve(joint, js.a, js.b, ctx, use_bias);
			continue;
		}
		get_states(&js, row->state_a, row->state_b, ctx);
		if (row->kind == TB_ROW_PIN) {
			tb_point_frame frame = tb_row_frame(row, js.a, js.b, ctx, use_bias);
			tb_solve_point_in(&row->pt, &frame, js.a, js.b, ctx->joint_softness, use_bias);
		} else {
			tb_revolute_solve(row, r++, js.a, js.b, ctx, use_bias);
		}
	}
}

/* ---------------------------------------------------------------- public accessors */

tb_transform tb_joint_transform(const tb_world *world, int32_t slot)
{
	if (slot < 0) return tb_transform_identity;
	return world->sims.data[slot].transform;
}

static tb_vec2 tb_joint_body_center(const tb_world *world, int32_t slot)
{
	if (slot < 0) return tb_vec2_zero;
	return world->sims.data[slot].center;
}

tb_vec2 tb_joint_world_anchor_a(const tb_world *world, const tb_joint *joint)
{
	const tb_joint_ops *ops = tb_joint_kinds[joint->def.type];
	if (ops->anchor_a != NULL) return ops->anchor_a(world, joint);
	return tb_transform_point(tb_joint_transform(world, joint->body_a), joint->def.local_anchor_a);
}

tb_vec2 tb_joint_world_anchor_b(const tb_world *world, const tb_joint *joint)
{
	return tb_transform_point(tb_joint_transform(world, joint->body_b), joint->def.local_anchor_b);
}

tb_joint_type tb_joint_get_type(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	return joint ? joint->def.type : TB_JOINT_REVOLUTE;
}

tb_body_id tb_joint_get_body_a(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	return joint ? joint->def.body_a : tb_null_body_id;
}

tb_body_id tb_joint_get_body_b(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	return joint ? joint->def.body_b : tb_null_body_id;
}

tb_vec2 tb_joint_get_world_anchor_a(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	return joint ? tb_joint_world_anchor_a(world, joint) : tb_vec2_zero;
}

tb_vec2 tb_joint_get_world_anchor_b(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	return joint ? tb_joint_world_anchor_b(world, joint) : tb_vec2_zero;
}

tb_joint_def tb_joint_get_def(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	if (joint) return joint->def;
	tb_joint_def zero;
	memset(&zero, 0, sizeof(zero));
	return zero;
}

tb_status tb_joint_set_def(tb_world *world, tb_joint_id id, const tb_joint_def *def)
{
	tb_joint *joint = tb_joint_lookup(world, id);
	if (joint == NULL) return TB_ERR_STALE_HANDLE;
	if (def == NULL) return TB_ERR_INVALID_ARGUMENT;
	if (world->locked) return TB_ERR_LOCKED;
	tb_status status = tb_joint_validate_def(def);
	if (status != TB_OK) return status;

	const tb_joint_def *cur = &joint->def;
	if (def->type != cur->type || !TB_ID_EQUALS(def->body_a, cur->body_a) || !TB_ID_EQUALS(def->body_b, cur->body_b) ||
	    def->local_anchor_a.x != cur->local_anchor_a.x || def->local_anchor_a.y != cur->local_anchor_a.y ||
	    def->local_anchor_b.x != cur->local_anchor_b.x || def->local_anchor_b.y != cur->local_anchor_b.y) {
		return TB_ERR_INVALID_ARGUMENT;
	}

	/* A feature switched off drops its impulse now, not at the next prepare, so
	 * nothing stale is reported as a force in between. */
	tb_joint_change change = {cur->enable_limit && !def->enable_limit, cur->enable_motor && !def->enable_motor,
	                          cur->enable_spring != def->enable_spring};
	const tb_joint_ops *ops = tb_joint_kinds[cur->type];
	if (ops->reset != NULL) ops->reset(joint, change);

	/* reference_angle and local_axis_a are fixed at creation, like the anchors */
	tb_joint_def next = *def;
	next.reference_angle = cur->reference_angle;
	next.local_axis_a = cur->local_axis_a;
	world->breakable_joint_count += (int32_t)tb_joint_is_breakable(&next) - (int32_t)tb_joint_is_breakable(cur);
	joint->def = next;

	tb_wake_body(world, joint->body_a);
	tb_wake_body(world, joint->body_b);
	return TB_OK;
}

float tb_joint_get_value(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	if (joint == NULL) return 0.0f;
	const tb_joint_ops *ops = tb_joint_kinds[joint->def.type];
	return ops->value != NULL ? ops->value(world, joint) : 0.0f;
}

/* Force on body B over the last step: the per-substep accumulated impulses of the
 * last substep divided by the substep (that impulse was applied every substep). */
tb_vec2 tb_joint_force(const tb_world *world, const tb_joint *joint)
{
	const tb_joint_ops *ops = tb_joint_kinds[joint->def.type];
	return ops->force != NULL ? ops->force(world, joint) : tb_vec2_zero;
}

float tb_joint_axis_translation(const tb_world *world, const tb_joint *joint)
{
	tb_vec2 axis = tb_rotate(tb_joint_transform(world, joint->body_a).q, joint->def.local_axis_a);
	tb_vec2 d = tb_sub(tb_joint_world_anchor_b(world, joint), tb_joint_world_anchor_a(world, joint));
	return tb_dot(axis, d);
}

tb_vec2 tb_joint_point_force(const tb_world *world, const tb_joint *joint)
{
	(void)world;
	return tb_mul_sv(joint->last_inv_h, joint->pt.linear_impulse);
}

float tb_joint_torque(const tb_joint *joint)
{
	const tb_joint_ops *ops = tb_joint_kinds[joint->def.type];
	return ops->torque != NULL ? ops->torque(joint) : 0.0f;
}

tb_vec2 tb_joint_get_constraint_force(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	return joint ? tb_joint_force(world, joint) : tb_vec2_zero;
}

float tb_joint_get_constraint_torque(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	return joint ? tb_joint_torque(joint) : 0.0f;
}

void *tb_joint_get_user_data(const tb_world *world, tb_joint_id id)
{
	const tb_joint *joint = tb_joint_lookup(world, id);
	return joint ? joint->def.user_data : NULL;
}

tb_status tb_joint_set_user_data(tb_world *world, tb_joint_id id, void *data)
{
	tb_joint *joint = tb_joint_lookup(world, id);
	if (joint == NULL) return TB_ERR_STALE_HANDLE;
	joint->def.user_data = data;
	return TB_OK;
}

void tb_joint_draw(const tb_world *world, const tb_joint *joint, const tb_debug_draw *draw)
{
	if (draw == NULL || !draw->draw_joints || draw->draw_joint == NULL) return;
	tb_vec2 anchor_a = tb_joint_world_anchor_a(world, joint);
	tb_vec2 anchor_b = tb_joint_world_anchor_b(world, joint);
	bool from_anchor = tb_joint_kinds[joint->def.type]->free_anchor_a || joint->body_a < 0;
	tb_vec2 center_a = from_anchor ? anchor_a : tb_joint_body_center(world, joint->body_a);
	tb_vec2 center_b = tb_joint_body_center(world, joint->body_b);
	draw->draw_joint(joint->def.type, anchor_a, anchor_b, center_a, center_b, draw->context);
}
