/* tumble physics: internal distance helpers shared by distance.c and manifold.c. */
#ifndef TB_DISTANCE_H
#define TB_DISTANCE_H

#include "tumble/collision.h"

/* Closest points of two segments p1-q1 and p2-q2; f1, f2 are the fractions along
 * each (exactly 0 or 1 when the closest point is an end point). */
typedef struct tb_segment_distance_result {
	tb_vec2 closest1, closest2;
	float fraction1, fraction2;
	float distance_squared;
} tb_segment_distance_result;

tb_segment_distance_result tb_segment_distance(tb_vec2 p1, tb_vec2 q1, tb_vec2 p2, tb_vec2 q2);

/* GJK on the cores of two point sets given in one common frame (radii ignored).
 * The final simplex tells which features are closest: count 1 = vertex/vertex,
 * 2 = a vertex and an edge (or two parallel edges), 3 = the cores overlap. */
typedef struct tb_gjk_result {
	tb_vec2 point_a, point_b;
	float distance;
	int iterations;
	int count;
	int index_a[3], index_b[3];
} tb_gjk_result;

tb_gjk_result tb_gjk(const tb_vec2 *a, int count_a, const tb_vec2 *b, int count_b);

/* A capsule (or a segment, radius 0) as a two-sided, two-vertex polygon so the
 * polygon colliders can take it. Returns false for a zero-length core. */
bool tb_make_capsule_polygon(tb_vec2 p1, tb_vec2 p2, float radius, tb_polygon *out);

#endif
