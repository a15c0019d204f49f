/* tumble physics: joint lifetime — the pool and the links into both bodies.
 * The joint's behaviour and solver live in joint.c. */
#include "world.h"

static int32_t alloc_joint_slot(tb_world *w)
{
	if (w->joint_free == TB_NULL_INDEX) {
		int32_t old = w->joint_capacity;
		w->joints = tb_grow_array(w->joints, (int)sizeof *w->joints, &w->joint_capacity, old + 1);
		for (int32_t i = w->joint_capacity - 1; i >= old; --i) {
			w->joints[i].next_free = w->joint_free;
			w->joint_free = i;
		}
	}
	int32_t i = w->joint_free;
	w->joint_free = w->joints[i].next_free;
	return i;
}

static void link_joint_edge(tb_world *w, int32_t ji, int32_t edge, int32_t bi)
{
	tb_joint *j = w->joints + ji;
	tb_body *b = w->bodies + bi;
	int32_t key = (ji << 1) | edge;
	j->edge_prev[edge] = TB_NULL_INDEX;
	j->edge_next[edge] = b->head_joint_key;
	if (b->head_joint_key != TB_NULL_INDEX) w->joints[b->head_joint_key >> 1].edge_prev[b->head_joint_key & 1] = key;
	b->head_joint_key = key;
	b->joint_count += 1;
}

static void unlink_joint_edge(tb_world *w, int32_t ji, int32_t edge, int32_t bi)
{
	tb_joint *j = w->joints + ji;
	tb_body *b = w->bodies + bi;
	int32_t prev = j->edge_prev[edge], next = j->edge_next[edge];
	if (prev != TB_NULL_INDEX) w->joints[prev >> 1].edge_next[prev & 1] = next;
	else b->head_joint_key = next;
	if (next != TB_NULL_INDEX) w->joints[next >> 1].edge_prev[next & 1] = prev;
	b->joint_count -= 1;
}

tb_joint_id tb_create_joint(tb_world *w, const tb_joint_def *def, tb_status *status)
{
	tb_status dummy;
	if (status == NULL) status = &dummy;
	if (w == NULL || def == NULL) { *status = TB_ERR_INVALID_ARGUMENT; return tb_null_joint_id; }
	if (w->locked) { *status = TB_ERR_LOCKED; return tb_null_joint_id; }
	tb_body *a = tb_get_body(w, def->body_a), *b = tb_get_body(w, def->body_b);
	if (a == NULL || b == NULL) { *status = TB_ERR_STALE_HANDLE; return tb_null_joint_id; }
	if (a == b) { *status = TB_ERR_INVALID_ARGUMENT; return tb_null_joint_id; }
	tb_status st = tb_joint_validate_def(def);
	if (st != TB_OK) { *status = st; return tb_null_joint_id; }

	int32_t ia = def->body_a.index1 - 1, ib = def->body_b.index1 - 1;
	int32_t ji = alloc_joint_slot(w);
	tb_joint *j = w->joints + ji;
	uint32_t gen = j->generation;
	memset(j, 0, sizeof *j);
	j->generation = gen;
	j->in_use = true;
	j->def = *def;
	j->body_a = ia;
	j->body_b = ib;
	tb_joint_init(j);
	link_joint_edge(w, ji, 0, ia);
	link_joint_edge(w, ji, 1, ib);
	w->joint_count += 1;

	/* a joint that forbids contact removes the contacts it now forbids */
	if (!def->collide_connected) {
		for (int32_t key = a->head_contact_key; key != TB_NULL_INDEX;) {
			int32_t ci = key >> 1;
			tb_contact *c = w->contacts + ci;
			int32_t edge = key & 1;
			key = c->edges[edge].next_key;
			if (c->edges[edge ^ 1].body == ib) tb_destroy_contact(w, ci, false);
		}
	}
	tb_wake_body(w, ia);
	tb_wake_body(w, ib);
	*status = TB_OK;
	return tb_make_joint_id(w, ji);
}

void tb_destroy_joint(tb_world *w, tb_joint_id id)
{
	tb_joint *j = tb_world_joint_lookup(w, id);
	if (j == NULL || w->locked) return;
	int32_t ji = id.index1 - 1;
	int32_t ia = j->body_a, ib = j->body_b;
	bool reconnect = !j->def.collide_connected;
	unlink_joint_edge(w, ji, 0, ia);
	unlink_joint_edge(w, ji, 1, ib);
	j->in_use = false;
	j->generation += 1;
	j->def.user_data = NULL;
	j->next_free = w->joint_free;
	w->joint_free = ji;
	w->joint_count -= 1;
	tb_wake_body(w, ia);
	tb_wake_body(w, ib);
	/* the bodies may collide now: let the broad phase look again */
	if (reconnect) {
		for (int32_t k = w->bodies[ia].head_shape; k != TB_NULL_INDEX; k = w->shapes[k].next_in_body) {
			if (w->shapes[k].proxy != TB_NULL_INDEX) tb_broad_phase_buffer_move(w, k);
		}
	}
}

bool tb_joint_is_valid(const tb_world *w, tb_joint_id id) { return tb_world_joint_lookup(w, id) != NULL; }
