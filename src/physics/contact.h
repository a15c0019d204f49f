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
	TB_CONTACT_PASSING = 1u << 4,    /* passing through: a one-way platform (decided at first touch) or a chain link (came from behind) */
	TB_CONTACT_CACHED = 1u << 5,     /* `cache` holds the last full collide (contact.c) */
	TB_CONTACT_WALL = 1u << 6,       /* a moving wall's pair (tb_is_moving_wall_pair), kept as bodies change */
};

/* How far (m) any point of either shape may have moved relative to the other
 * since the pair's last full collide while its manifold is remade from the
 * cache: the linear slop. A quarter of the speculative distance, so a feature
 * the last collide left out (further than that distance) cannot have come into
 * contact unseen. Box2D main recycles up to ten slops (5 cm); here two slops
 * or more let boxes in a turning tumbler 4.5-5 cm into each other at v3's
 * settings (2.8 cm at this reach), and a tenth of the slop remade so few pairs
 * that the large pyramid's step took 7 % more instructions. */
#define TB_CONTACT_CACHE_REACH TB_LINEAR_SLOP

/* What the narrow phase keeps of a pair's last full collide (any pair but a
 * chain link's): each point's surface points on A and on B, each in its own
 * body's frame, the normal, and how B sat in A's frame then: its turn, and
 * where the smaller shape's centre was (that shape's points, and the other's
 * near it, are all that can touch). While no such point has moved
 * TB_CONTACT_CACHE_REACH relative to the other body, the manifold is remade
 * from these (the same features, the separations of the same material
 * points) instead of collided again: a resting pile's pairs barely move. A
 * round shape's contact is a material point only while it does not roll: a
 * rolled one, within the reach, is at most min(reach^2 / (2 r), r) from the
 * surface, under a millimetre for a radius above 12.5 mm and never more than
 * 3.5 mm, less than the slop. */
typedef struct tb_contact_cache {
	tb_rot turn;        /* B's rotation in A's frame */
	tb_vec2 center_b;   /* the smaller shape's centre, B's body frame */
	tb_vec2 center_a;   /* the same point then, A's body frame */
	tb_vec2 normal;     /* A's body frame */
	tb_vec2 point_a[2]; /* A's body frame */
	tb_vec2 point_b[2]; /* B's body frame */
	float lever;        /* twice the smaller shape's radius about its centre */
	uint16_t id[2];
	int32_t count;      /* 1 or 2 */
} tb_contact_cache;

/* Two dynamic bodies whose inverse masses differ by this factor or more (one
 * ten or more times the other's mass) are a moving wall and what it pushes:
 * their pair looks further ahead, as a kinematic body's does
 * (tb_is_moving_wall_pair), and the solver does not share out their push-out
 * budget (contact_solver.c). */
#define TB_WALL_MASS_RATIO 0.1f

/* cos(78 degrees): how far from a platform's "up" a contact normal may lean
 * and still hold what lands on it (slopes up to 78 degrees hold, a side hit
 * passes). */
#define TB_ONE_WAY_COS 0.2f

/* A contact is in two bodies' lists; its key in a list is slot << 1 | edge. */
typedef struct tb_contact_edge { int32_t body, prev_key, next_key; } tb_contact_edge;

typedef struct tb_contact {
	_Alignas(64) tb_manifold manifold; /* (tb_prefetch_contact) */
	tb_contact_edge edges[2];
	int32_t shape_a, shape_b;  /* a chain segment is always shape_a */
	/* the shapes' surfaces mixed (tb_update_contact_material) */
	float friction, restitution, rolling_resistance, tangent_speed;
	float rolling_impulse;     /* accumulated, for warm starting like the manifold's impulses */
	uint32_t flags;
	bool in_use;
	tb_contact_cache cache; /* read by the narrow phase only, so last */
} tb_contact;

TB_ARRAY_DECLARE(tb_contact_array, tb_contact)

/* A contact fills four whole cache lines (256 bytes, aligned to 64: the
 * allocator's TB_ALIGNMENT) and the step's walks over them (narrow phase,
 * prepare, store) read them sparsely: a load a few contacts ahead hides the
 * miss that otherwise costs more than the work on it. Only the narrow phase
 * reads the cache, in the last line, so these load the first three (the
 * narrow phase loads the last itself, for the contacts that have a cache). */
#define TB_PREFETCH_AHEAD 8
_Static_assert(sizeof(tb_contact) == 256 && TB_ALIGNMENT % 64 == 0, "a contact is four aligned lines");
_Static_assert(offsetof(tb_contact, cache) <= 192, "three loads cover what prepare and store read");
_Static_assert(offsetof(tb_contact, cache) + sizeof(tb_contact_cache) > 192, "the cache reaches the last line");
static inline void tb_prefetch_contact(const tb_contact *c)
{
	const char *p = (const char *)c;
	__builtin_prefetch(p);
	__builtin_prefetch(p + 64);
	__builtin_prefetch(p + 128);
}
static inline void tb_prefetch_contact_for_write(const tb_contact *c)
{
	const char *p = (const char *)c;
	__builtin_prefetch(p, 1);
	__builtin_prefetch(p + 64, 1);
	__builtin_prefetch(p + 128, 1);
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
/* A kinematic body, or a dynamic one at least ten times heavier than its
 * partner: what the partner meets is a moving wall (contact.c). */
bool tb_is_moving_wall_pair(const tb_world *w, int32_t body_a, int32_t body_b);
/* Sets TB_CONTACT_WALL of the body's contacts anew, after its type or mass changed. */
void tb_update_contact_walls(tb_world *w, int32_t body);
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
