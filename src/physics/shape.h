/* tumble physics: the shape record and what shape.c offers the other files
 * (engine-private). */
#ifndef TB_SHAPE_H
#define TB_SHAPE_H

#include "core.h"

typedef struct tb_world tb_world;

typedef struct tb_shape {
	/* what the narrow phase reads first: a box's geometry and the boxes share
	 * the first three of a shape's five cache lines (a shape starts on a line:
	 * the shape array is TB_ALIGNMENT-aligned) */
	_Alignas(64) tb_geometry geom;
	tb_aabb aabb;       /* world box including the speculative margin */
	tb_aabb fat_aabb;   /* the box stored in the broad-phase tree */
	void *user_data;
	tb_filter filter;
	tb_field field;
	float density, friction, restitution, rolling_resistance, tangent_speed;
	tb_vec2 one_way;    /* unit "up" in the body's frame, or zero: not a one-way platform */
	int32_t body;
	int32_t next_in_body, prev_in_body;
	int32_t proxy;      /* tree proxy or TB_NULL_INDEX when not in the broad phase */
	int32_t tree;       /* 0 static tree, 1 movable tree */
	int32_t chain_id;
	int32_t sensor_index; /* into world->sensors, or TB_NULL_INDEX */
	uint32_t generation;
	bool in_use, is_sensor, enabled, enable_sensor_events, enable_contact_events, enable_hit_events;
	bool in_move_buffer;
} tb_shape;

TB_ARRAY_DECLARE(tb_shape_array, tb_shape)

/* The proxy goes into the tree of the body's type; the caller made room in
 * that tree (tb_dynamic_tree_reserve), so this cannot fail. */
void tb_create_shape_proxy(tb_world *w, int32_t shape);
void tb_destroy_shape_proxy(tb_world *w, int32_t shape);
static inline bool tb_shape_is_one_way(const tb_shape *s) { return s->one_way.x != 0.0f || s->one_way.y != 0.0f; }
/* The shape's box at xf (tb_compute_aabb's), grown by margin; inline for the
 * step's loop over awake bodies. */
static inline tb_aabb tb_compute_shape_aabb_margin(const tb_shape *s, tb_transform xf, float margin)
{
	const tb_geometry *g = &s->geom;
	tb_aabb a;
	switch (g->type) {
	case TB_SHAPE_POLYGON: a = tb_points_aabb(g->polygon.vertices, g->polygon.count, g->polygon.radius, xf); break;
	case TB_SHAPE_CIRCLE: a = tb_points_aabb(&g->circle.center, 1, g->circle.radius, xf); break;
	default: a = tb_compute_aabb(g, xf); break;
	}
	a.lower = tb_sub(a.lower, tb_v2(margin, margin));
	a.upper = tb_add(a.upper, tb_v2(margin, margin));
	return a;
}
bool tb_should_shapes_collide(tb_filter a, tb_filter b);
/* The category bits a shape's partners may have, for pruning a tree query:
 * its mask, or every category in a positive group (whose members collide
 * whatever their masks say). */
static inline uint64_t tb_filter_partner_bits(tb_filter f)
{
	return f.group_index > 0 ? UINT64_MAX : f.mask_bits;
}
/* Unlinks and frees the shape; never allocates. */
void tb_destroy_shape_internal(tb_world *w, int32_t shape, bool wake);
float tb_shape_min_extent(const tb_shape *s);
float tb_shape_max_extent(const tb_shape *s, tb_vec2 local_center);
#endif
