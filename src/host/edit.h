/* tumble host: edit mode's geometry, apart from the app and SDL. What is
 * under the cursor (a joint near its anchors, else the topmost shape's
 * body), what a box on the screen takes in, where the handles of a selected
 * object are, and snapping to the grid and to 15 degree angles. The app's
 * part (app_edit.c) turns input events into these questions and into edits;
 * edit_draw.c draws the answers. Everything here reads the world through
 * physics.h only, so tests/host can drive it on a world of its own. */
#ifndef TH_HOST_EDIT_H
#define TH_HOST_EDIT_H

#include <stdbool.h>
#include <stdint.h>

#include "tumble/physics.h"
#include "tumble/collision.h"

/* What a selection entry is. */
typedef enum th_sel_kind { TH_SEL_NONE, TH_SEL_BODY, TH_SEL_SHAPE, TH_SEL_JOINT } th_sel_kind;

typedef struct th_sel {
	th_sel_kind kind;
	int32_t index1;
	uint32_t generation;
} th_sel;

static inline th_sel th_sel_body(tb_body_id id) { return (th_sel){TH_SEL_BODY, id.index1, id.generation}; }
static inline th_sel th_sel_joint(tb_joint_id id) { return (th_sel){TH_SEL_JOINT, id.index1, id.generation}; }
static inline tb_body_id th_sel_body_id(th_sel s) { return (tb_body_id){s.index1, s.generation}; }
static inline tb_joint_id th_sel_joint_id(th_sel s) { return (tb_joint_id){s.index1, s.generation}; }
static inline bool th_sel_same(th_sel a, th_sel b)
{
	return a.kind == b.kind && a.index1 == b.index1 && a.generation == b.generation;
}
/* The object is still in the world. */
bool th_sel_valid(const tb_world *w, th_sel s);

/* The topmost object at world point p: a joint whose anchors (or the line
 * between them) are within tol metres, else the body of the topmost shape
 * containing p (the one drawn last: the highest body slot, then the highest
 * shape slot). False if nothing is there. */
bool th_edit_pick(const tb_world *w, tb_vec2 p, float tol, th_sel *out);
/* The bodies with a shape whose bounds overlap the box [lo, hi] (corners in
 * any order), in slot order, at most cap; returns how many. */
int th_edit_pick_box(const tb_world *w, tb_vec2 a, tb_vec2 b, th_sel *out, int cap);

/* Snapping: to a multiple of grid (grid <= 0: unchanged), and to a multiple
 * of 15 degrees. Results are rounded so that the printed value is short
 * (0.1 + 0.2 snaps to 0.3, not 0.30000000000000004). */
double th_edit_snap(double v, double grid);
double th_edit_snap_angle(double radians);
/* The shortest decimal text (at most 7 significant digits) that reads back
 * as the same float: what write-back puts in the source, and what the
 * inspector shows. */
void th_edit_format_number(double v, char *buf, int size);

/* The handles of a selected body (move, rotate, and its first shape's
 * resize handles) or joint (its anchors), in world coordinates; px_per_m
 * sets how far the rotate handle stands off. */
typedef enum th_handle_kind {
	TH_H_MOVE,     /* the body's origin */
	TH_H_ROTATE,   /* above the body: drag to turn it */
	TH_H_WIDTH,    /* a box's right side: its width */
	TH_H_HEIGHT,   /* a box's top: its height */
	TH_H_RADIUS,   /* a circle's or capsule's radius */
	TH_H_END1,     /* a capsule's or segment's first end (its length) */
	TH_H_END2,     /* ... and its second */
	TH_H_VERTEX,   /* a polygon's vertex (not a box) */
	TH_H_ANCHOR_A, /* a joint's anchor on its first body */
	TH_H_ANCHOR_B, /* ... and on its second */
} th_handle_kind;

typedef struct th_handle {
	th_handle_kind kind;
	tb_vec2 p;           /* where it is drawn, world */
	tb_shape_id shape;   /* the shape it resizes */
	int vertex;          /* TH_H_VERTEX: which */
} th_handle;

#define TH_EDIT_MAX_HANDLES (4 + TB_MAX_POLYGON_VERTICES)

int th_edit_handles(const tb_world *w, th_sel s, double px_per_m, th_handle *out, int cap);
/* The handle within tol metres of p (the nearest), or -1. */
int th_edit_handle_at(const th_handle *h, int count, tb_vec2 p, float tol);

/* A polygon that is a box (four vertices at right angles): its centre, its
 * unit x axis, its width and height. */
bool th_edit_polygon_box(const tb_polygon *poly, tb_vec2 *center, tb_vec2 *axis, float *width, float *height);

#endif
