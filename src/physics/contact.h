/* tumble physics: contacts between two shapes, their links into both bodies'
 * contact lists, and what contact.c offers the other files (engine-private). */
#ifndef TB_CONTACT_H
#define TB_CONTACT_H

#include "shape.h"

typedef struct tb_world tb_world;

enum {
	TB_CONTACT_TOUCHING = 1u << 0,
	TB_CONTACT_EVENTS = 1u << 1,     /* begin/end wanted by a shape */
	TB_CONTACT_HIT_EVENTS = 1u << 2,
	TB_CONTACT_ONE_WAY = 1u << 3,    /* a shape is a one-way platform */
	TB_CONTACT_PASSING = 1u << 4,    /* decided at first touch: passing through the platform */
};

/* cos(78 degrees): how far from a platform's "up" a contact normal may lean
 * and still hold what lands on it (slopes up to 78 degrees hold, a side hit
 * passes). */
#define TB_ONE_WAY_COS 0.2f

/* A contact is in two bodies' lists; its key in a list is slot << 1 | edge. */
typedef struct tb_contact_edge { int32_t body, prev_key, next_key; } tb_contact_edge;

typedef struct tb_contact {
	tb_manifold manifold;
	tb_contact_edge edges[2];
	int32_t shape_a, shape_b;  /* a chain segment is always shape_a */
	/* the shapes' surfaces mixed (tb_update_contact_material) */
	float friction, restitution, rolling_resistance, tangent_speed;
	float rolling_impulse;     /* accumulated, for warm starting like the manifold's impulses */
	uint32_t flags;
	bool in_use;
} tb_contact;

TB_ARRAY_DECLARE(tb_contact_array, tb_contact)

/* A contact spans three or four cache lines (168 bytes) and the step's walks over them (narrow
 * phase, prepare, store) read them sparsely: a load a few contacts ahead
 * hides the miss that otherwise costs more than the work on it. */
#define TB_PREFETCH_AHEAD 8
_Static_assert(sizeof(tb_contact) <= 192, "four loads cover a contact wherever it starts");
static inline void tb_prefetch_contact(const tb_contact *c)
{
	const char *p = (const char *)c;
	__builtin_prefetch(p);
	__builtin_prefetch(p + 64);
	__builtin_prefetch(p + 128);
	__builtin_prefetch(p + sizeof *c - 1);
}
static inline void tb_prefetch_contact_for_write(const tb_contact *c)
{
	const char *p = (const char *)c;
	__builtin_prefetch(p, 1);
	__builtin_prefetch(p + 64, 1);
	__builtin_prefetch(p + 128, 1);
	__builtin_prefetch(p + sizeof *c - 1, 1);
}

/* Reserves every array that grows with the contact slots, so that a contact
 * can be created and a step can use it without allocating. */
bool tb_reserve_contact_slots(tb_world *w, int32_t slots);
/* A contact for a new pair; false (and nothing created) past the world's
 * max_contacts or when memory runs out, with the step issue flagged. */
bool tb_create_contact(tb_world *w, int32_t shape_a, int32_t shape_b);
/* wake_bodies: wake the other body when a touching contact disappears */
void tb_destroy_contact(tb_world *w, int32_t contact, bool wake_bodies);
void tb_destroy_body_contacts(tb_world *w, int32_t body, bool wake);
void tb_destroy_shape_contacts(tb_world *w, int32_t shape, bool wake);
/* Narrow phase for every active contact, begin/end events; dt: the coming step's. */
void tb_collide_contacts(tb_world *w, float dt);
/* Mixes the two shapes' surfaces by the world's rules into the contact. */
void tb_update_contact_material(tb_world *w, int32_t contact);
/* Outside the step the event waits in the pending list for the next step. */
void tb_push_end_event(tb_world *w, int32_t shape_a, int32_t shape_b, bool pending);
/* Whether a one-way platform holds what meets it along this normal (world,
 * pointing away from the platform): within TB_ONE_WAY_COS of its up. */
bool tb_one_way_holds(const tb_world *w, const tb_shape *platform, tb_vec2 normal_from_platform);

#endif
