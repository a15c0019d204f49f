/* tumble physics: geometry and collision that work with no world at all.
 * Shapes are plain values; every function here is pure. */
#ifndef TB_COLLISION_H
#define TB_COLLISION_H

#include <stddef.h>
#include <stdint.h>
#include "tb_math.h"

#define TB_MAX_POLYGON_VERTICES 8
/* Collision and constraint tolerance in metres: chosen to be visually insignificant. */
#define TB_LINEAR_SLOP 0.005f
/* The smallest edge, side or length a shape may have: a tenth of the slop,
 * so cards 2 mm thick are shapes (Box2D's boxes go as thin); shorter than
 * this, points count as one. */
#define TB_MIN_FEATURE (0.1f * TB_LINEAR_SLOP)
/* Contacts are created this far before shapes touch, so a fast body meets its
 * constraint before it passes through (speculative contacts). */
#define TB_SPECULATIVE_DISTANCE (4.0f * TB_LINEAR_SLOP)
/* Broad-phase boxes are fattened by this margin so slowly moving shapes do not
 * re-insert their proxy every step. */
#define TB_AABB_MARGIN 0.05f
/* Coordinates beyond this (metres) are refused: body positions and shape
 * extents. Single precision has millimetre resolution only up to ~1e4 m. */
#define TB_HUGE 1.0e6f

typedef enum tb_status {
	TB_OK = 0,
	TB_ERR_INVALID_NUMBER,  /* NaN or infinity */
	TB_ERR_NON_POSITIVE,    /* a size that must be > 0 was not */
	TB_ERR_NEGATIVE,        /* a value that must be >= 0 was not */
	TB_ERR_TOO_FEW_VERTICES,
	TB_ERR_TOO_MANY_VERTICES,
	TB_ERR_NOT_CONVEX,
	TB_ERR_DEGENERATE,      /* zero area, coincident or collinear points */
	TB_ERR_STALE_HANDLE,    /* object was destroyed (generation mismatch) */
	TB_ERR_WRONG_TYPE,      /* e.g. asking a circle for its polygon */
	TB_ERR_LOCKED,          /* world is mid-step */
	TB_ERR_INVALID_ARGUMENT,
	TB_ERR_OUT_OF_MEMORY,   /* the allocator (or the world's max_bytes) refused */
	TB_ERR_BODY_LIMIT,      /* the world's max_bodies is reached */
	TB_ERR_SHAPE_LIMIT,     /* the world's max_shapes is reached */
	TB_ERR_JOINT_LIMIT,     /* the world's max_joints is reached */
	TB_ERR_MASS_RANGE,      /* mass, inertia or centre of mass would not be a finite, normal float */
	TB_ERR_CONTACT_LIMIT,   /* the world's max_contacts is exceeded (restoring a snapshot) */
	TB_ERR_SNAPSHOT_FORMAT, /* bytes that are not a tumble snapshot (magic, or too short for a header) */
	TB_ERR_SNAPSHOT_VERSION,/* a snapshot saved by another format version or build of tumble */
	TB_ERR_SNAPSHOT_CORRUPT,/* a snapshot whose checksum, sizes, numbers or links do not hold */
	TB_STATUS_COUNT
} tb_status;

/* A readable sentence for a status, e.g. "polygon is not convex". */
const char *tb_status_string(tb_status s);

/* Memory, with Lua's lua_Alloc signature. nsize == 0 frees ptr and returns NULL;
 * otherwise it returns a block of nsize bytes that holds the first
 * min(osize, nsize) bytes of ptr (ptr == NULL: a new block, osize 0), or NULL
 * when memory runs out, leaving ptr as it was. Any alignment malloc would give
 * is enough: the engine aligns what it needs itself. */
typedef void *tb_alloc_fn(void *ud, void *ptr, size_t osize, size_t nsize);

typedef enum tb_shape_type {
	TB_SHAPE_CIRCLE,
	TB_SHAPE_CAPSULE,
	TB_SHAPE_SEGMENT,
	TB_SHAPE_POLYGON,
	TB_SHAPE_CHAIN_SEGMENT,
	TB_SHAPE_TYPE_COUNT
} tb_shape_type;

typedef struct tb_circle { tb_vec2 center; float radius; } tb_circle;
typedef struct tb_capsule { tb_vec2 center1, center2; float radius; } tb_capsule;
typedef struct tb_segment { tb_vec2 point1, point2; } tb_segment;
/* A convex polygon, counter-clockwise, with an optional rounding radius. */
typedef struct tb_polygon {
	tb_vec2 vertices[TB_MAX_POLYGON_VERTICES];
	tb_vec2 normals[TB_MAX_POLYGON_VERTICES];
	tb_vec2 centroid;
	float radius;
	int count;
} tb_polygon;
/* One link of a chain: a one-sided segment (solid on its right, i.e. the normal is
 * the right perpendicular of point1->point2) with its neighbours' far vertices
 * (ghosts) so contacts on the seams between links are smoothed away. */
typedef struct tb_chain_segment {
	tb_vec2 ghost1;
	tb_segment segment;
	tb_vec2 ghost2;
	int32_t chain_id;
} tb_chain_segment;

/* Tagged geometry, used wherever any shape kind may appear. */
typedef struct tb_geometry {
	tb_shape_type type;
	union {
		tb_circle circle;
		tb_capsule capsule;
		tb_segment segment;
		tb_polygon polygon;
		tb_chain_segment chain_segment;
	};
} tb_geometry;

typedef struct tb_mass_data {
	float mass;
	tb_vec2 center;             /* local centre of mass */
	float rotational_inertia;   /* about the centre of mass */
} tb_mass_data;

/* ---- construction and validation ---- */

/* Builds a convex polygon from points (any winding; collinear points are removed).
 * Fails with TB_ERR_NOT_CONVEX for a non-convex outline, TB_ERR_DEGENERATE for
 * zero area or points closer than TB_MIN_FEATURE, TB_ERR_TOO_FEW/MANY_VERTICES,
 * TB_ERR_INVALID_NUMBER, TB_ERR_NEGATIVE for radius < 0. */
tb_status tb_make_polygon(const tb_vec2 *points, int count, float radius, tb_polygon *out);
tb_polygon tb_make_box(float half_width, float half_height);
tb_polygon tb_make_offset_box(float half_width, float half_height, tb_vec2 center, tb_rot rotation);
tb_polygon tb_make_rounded_box(float half_width, float half_height, float radius);
/* Checks a geometry value: finite numbers, positive radii/sizes, convexity. */
tb_status tb_validate_geometry(const tb_geometry *g);

/* ---- mass, bounds, point and ray tests (in the shape's local frame unless noted) ---- */

/* Mass properties for a density in kg/m^2. Segments and chains have no mass. */
tb_mass_data tb_compute_mass(const tb_geometry *g, float density);
tb_aabb tb_compute_aabb(const tb_geometry *g, tb_transform xf);
/* Centroid of the shape in local coordinates. */
tb_vec2 tb_geometry_centroid(const tb_geometry *g);
/* Point in local coordinates. Segments and chains contain no points. */
bool tb_geometry_test_point(const tb_geometry *g, tb_vec2 p);

typedef struct tb_ray_cast_input {
	tb_vec2 origin, translation;
	float max_fraction;
} tb_ray_cast_input;

typedef struct tb_cast_output {
	tb_vec2 normal;
	tb_vec2 point;
	float fraction;
	int iterations;
	bool hit;
} tb_cast_output;

/* Ray in the shape's local frame. A ray starting inside a solid shape does not hit it.
 * A chain segment is hit only from the side its normal faces. */
tb_cast_output tb_ray_cast_geometry(const tb_ray_cast_input *input, const tb_geometry *g);
tb_cast_output tb_ray_cast_aabb(tb_aabb a, tb_vec2 p1, tb_vec2 p2);

/* ---- distance and time of impact (GJK) ---- */

/* Convex hull of up to 8 points plus a radius: every shape kind reduces to one. */
typedef struct tb_shape_proxy {
	tb_vec2 points[TB_MAX_POLYGON_VERTICES];
	int count;
	float radius;
} tb_shape_proxy;

tb_shape_proxy tb_make_proxy(const tb_vec2 *points, int count, float radius);
tb_shape_proxy tb_geometry_proxy(const tb_geometry *g);

typedef struct tb_distance_output {
	tb_vec2 point_a, point_b; /* closest points, world frame, on the rounded surfaces */
	tb_vec2 normal;           /* from A to B */
	float distance;           /* between rounded surfaces; <= 0 means overlap */
	int iterations;
} tb_distance_output;

tb_distance_output tb_shape_distance(const tb_shape_proxy *a, tb_transform xfa, const tb_shape_proxy *b,
                                     tb_transform xfb);

/* Sweeps proxy B (placed at xfb) along translation, without rotation, against
 * proxy A (at xfa): the first fraction in [0, max_fraction] at which their
 * rounded surfaces touch (within a twentieth of TB_LINEAR_SLOP). On a hit,
 * point is on A's surface and normal is A's outward normal there (towards B).
 * Touching or overlapping at the start is a hit at fraction 0; when the cores
 * overlap there is no normal and it is zero. Conservative advancement: the gap
 * along a linear sweep is convex, so each step lands short of the contact. */
tb_cast_output tb_shape_cast(const tb_shape_proxy *a, tb_transform xfa, const tb_shape_proxy *b, tb_transform xfb,
                             tb_vec2 translation, float max_fraction);

/* Motion of a body over a step: local centre, and centre/angle at t=0 and t=1. */
typedef struct tb_sweep {
	tb_vec2 local_center;
	tb_vec2 c1, c2;
	tb_rot q1, q2;
} tb_sweep;

tb_transform tb_sweep_transform(const tb_sweep *s, float t);

typedef enum tb_toi_state {
	TB_TOI_UNKNOWN,
	TB_TOI_FAILED,
	TB_TOI_OVERLAPPED,
	TB_TOI_HIT,
	TB_TOI_SEPARATED
} tb_toi_state;

typedef struct tb_toi_output {
	tb_toi_state state;
	float fraction; /* in [0, max_fraction] */
} tb_toi_output;

/* Conservative advancement: the first fraction at which the shapes come within
 * target distance (linear slop) of each other. */
tb_toi_output tb_time_of_impact(const tb_shape_proxy *a, const tb_sweep *sweep_a, const tb_shape_proxy *b,
                                const tb_sweep *sweep_b, float max_fraction);

/* ---- contact manifolds ---- */

typedef struct tb_manifold_point {
	tb_vec2 point;    /* world point, midway between the surfaces */
	tb_vec2 anchor_a; /* point relative to xfA.p, world orientation */
	tb_vec2 anchor_b; /* point relative to xfB.p, world orientation */
	float separation; /* negative when overlapping */
	/* Filled by the solver; zero from the collide functions. */
	float normal_impulse, tangent_impulse, max_normal_impulse, normal_velocity;
	uint16_t id;      /* feature id: same features in the next step give the same id */
	bool persisted;
} tb_manifold_point;

typedef struct tb_manifold {
	tb_vec2 normal;   /* world, points from A to B */
	tb_manifold_point points[2];
	int point_count;  /* 0: shapes further apart than TB_SPECULATIVE_DISTANCE */
} tb_manifold;

/* Manifold for any pair. Points are reported while the separation is below
 * TB_SPECULATIVE_DISTANCE (speculative points have separation > 0); two
 * polygons (three or more vertices each) with one point within it also keep
 * the other end of the incident face, however far, as a speculative point.
 * Any order: a chain segment given as B is swapped internally (normal still A to B);
 * chain vs chain gives no points. */
tb_manifold tb_collide(const tb_geometry *a, tb_transform xfa, const tb_geometry *b, tb_transform xfb);

/* Pairwise functions used by tb_collide, exposed for tests. */
tb_manifold tb_collide_circles(const tb_circle *a, tb_transform xfa, const tb_circle *b, tb_transform xfb);
tb_manifold tb_collide_capsule_and_circle(const tb_capsule *a, tb_transform xfa, const tb_circle *b, tb_transform xfb);
tb_manifold tb_collide_capsules(const tb_capsule *a, tb_transform xfa, const tb_capsule *b, tb_transform xfb);
tb_manifold tb_collide_polygon_and_circle(const tb_polygon *a, tb_transform xfa, const tb_circle *b, tb_transform xfb);
tb_manifold tb_collide_polygon_and_capsule(const tb_polygon *a, tb_transform xfa, const tb_capsule *b, tb_transform xfb);
tb_manifold tb_collide_polygons(const tb_polygon *a, tb_transform xfa, const tb_polygon *b, tb_transform xfb);
tb_manifold tb_collide_segment_and_circle(const tb_segment *a, tb_transform xfa, const tb_circle *b, tb_transform xfb);
tb_manifold tb_collide_segment_and_capsule(const tb_segment *a, tb_transform xfa, const tb_capsule *b, tb_transform xfb);
tb_manifold tb_collide_segment_and_polygon(const tb_segment *a, tb_transform xfa, const tb_polygon *b, tb_transform xfb);
tb_manifold tb_collide_chain_segment_and_circle(const tb_chain_segment *a, tb_transform xfa, const tb_circle *b,
                                                tb_transform xfb);
tb_manifold tb_collide_chain_segment_and_capsule(const tb_chain_segment *a, tb_transform xfa, const tb_capsule *b,
                                                 tb_transform xfb);
tb_manifold tb_collide_chain_segment_and_polygon(const tb_chain_segment *a, tb_transform xfa, const tb_polygon *b,
                                                 tb_transform xfb);

/* ---- dynamic AABB tree (broad phase building block) ---- */

#define TB_NULL_NODE (-1)

typedef struct tb_tree_node {
	tb_aabb aabb;     /* fat box for leaves */
	uint64_t category_bits;
	int32_t parent;   /* also the free-list link */
	int32_t child1, child2;
	int32_t user_data;/* leaves: the owner's id (e.g. shape index) */
	int16_t height;   /* leaf = 0, free = -1 */
	bool moved;
} tb_tree_node;

typedef struct tb_dynamic_tree {
	tb_tree_node *nodes;
	int32_t root;
	int32_t node_count, node_capacity;
	int32_t free_list;
	int32_t proxy_count;
	int32_t *stack;   /* traversal scratch, as large as the node pool; never allocated per query */
	int32_t stack_capacity;
	tb_alloc_fn *alloc;
	void *alloc_ud;
} tb_dynamic_tree;

/* An empty tree; nothing is allocated until the first proxy. The first form
 * uses the C library's memory. */
tb_dynamic_tree tb_dynamic_tree_create(void);
tb_dynamic_tree tb_dynamic_tree_create_with_allocator(tb_alloc_fn *alloc, void *alloc_ud);
void tb_dynamic_tree_destroy(tb_dynamic_tree *tree);
/* Makes room for `proxies` more proxies, so that creating them cannot fail.
 * Returns false (and changes nothing) when memory runs out. */
bool tb_dynamic_tree_reserve(tb_dynamic_tree *tree, int32_t proxies);
/* Returns a proxy id, or TB_NULL_NODE when memory runs out (nothing changed).
 * The aabb is stored as given (the caller fattens it). Moving and destroying
 * proxies never allocate. */
int32_t tb_dynamic_tree_create_proxy(tb_dynamic_tree *tree, tb_aabb aabb, uint64_t category_bits, int32_t user_data);
void tb_dynamic_tree_destroy_proxy(tb_dynamic_tree *tree, int32_t proxy_id);
/* Replaces the proxy's box (remove + reinsert). */
void tb_dynamic_tree_move_proxy(tb_dynamic_tree *tree, int32_t proxy_id, tb_aabb aabb);
/* Rebuilds the inner nodes top down, each split at the middle of its leaves'
 * centres along their longer axis: proxies keep their ids and
 * boxes, queries find the same proxies, in another order. O(n log n), no
 * allocation. For a tree whose proxies nearly all moved: reinsertion one by
 * one leaves a tree whose queries visit several times the nodes. An inner
 * node comes out marked `moved` when a leaf below it is. False, the tree
 * unchanged, for a tree whose scratch stack is too small (a snapshot's image). */
bool tb_dynamic_tree_rebuild(tb_dynamic_tree *tree);
/* Gives the proxy this box where it stands in the tree, its ancestors grown
 * to hold it (queries find it at once; the tree is looser until the proxy is
 * reinserted or the tree rebuilt): for proxies that will be reinserted in a
 * batch, or not at all when most of them move and the tree is rebuilt. */
void tb_dynamic_tree_place_proxy(tb_dynamic_tree *tree, int32_t proxy_id, tb_aabb aabb);
/* Takes the proxy out and puts it back where its box fits best. */
void tb_dynamic_tree_reinsert_proxy(tb_dynamic_tree *tree, int32_t proxy_id);
/* Grows the proxy's box to contain aabb without reinsertion (used when the box
 * only needs enlarging, ancestors are enlarged too). */
void tb_dynamic_tree_enlarge_proxy(tb_dynamic_tree *tree, int32_t proxy_id, tb_aabb aabb);
static inline tb_aabb tb_dynamic_tree_get_aabb(const tb_dynamic_tree *tree, int32_t proxy_id)
{
	return tree->nodes[proxy_id].aabb;
}
static inline int32_t tb_dynamic_tree_get_user_data(const tb_dynamic_tree *tree, int32_t proxy_id)
{
	return tree->nodes[proxy_id].user_data;
}

/* Return false to stop the query. */
typedef bool tb_tree_query_fn(int32_t proxy_id, int32_t user_data, void *context);
/* Visits leaves whose box overlaps aabb and whose category_bits & mask_bits != 0. */
void tb_dynamic_tree_query(const tb_dynamic_tree *tree, tb_aabb aabb, uint64_t mask_bits, tb_tree_query_fn *fn,
                           void *context);
/* Ray-cast callback: return the new max fraction (input->max_fraction clips the ray),
 * 0 to stop, or -1 to ignore this proxy and continue unchanged. */
typedef float tb_tree_ray_cast_fn(const tb_ray_cast_input *input, int32_t proxy_id, int32_t user_data,
                                  void *context);
void tb_dynamic_tree_ray_cast(const tb_dynamic_tree *tree, const tb_ray_cast_input *input, uint64_t mask_bits,
                              tb_tree_ray_cast_fn *fn, void *context);
int tb_dynamic_tree_get_height(const tb_dynamic_tree *tree);
/* Checks parent links, heights and that every box contains its children (tests). */
bool tb_dynamic_tree_validate(const tb_dynamic_tree *tree);

#endif
