/* tumble host: the level's camera (tumble.camera: centre, pixels per metre,
 * a body to follow) and the view it looks through. Metres with y up in the
 * world, pixels with y down on the screen. */
#ifndef TH_HOST_CAMERA_H
#define TH_HOST_CAMERA_H

#include <stdbool.h>
#include <lua.h>

#include "tumble/physics.h"

struct th_level;

/* The largest view the host draws: a window, a screenshot, a replay's or
 * level.conf's size. A view's picture is 4 bytes a pixel (64 MB at the most
 * pixels), and writing a screenshot holds two of them. */
#define TH_VIEW_MAX_SIDE 8192
#define TH_VIEW_MAX_PIXELS (4096 * 4096)

static inline bool th_view_fits(long long w, long long h)
{
	return w >= 1 && h >= 1 && w <= TH_VIEW_MAX_SIDE && h <= TH_VIEW_MAX_SIDE && w * h <= TH_VIEW_MAX_PIXELS;
}

typedef struct th_camera {
	double x, y, scale;    /* centre and pixels per metre, after following */
	double prev_x, prev_y; /* centre before the latest step, to interpolate a follow */
	bool following;
	int view_w, view_h;
} th_camera;

tb_vec2 th_camera_to_world(const th_camera *c, double px, double py);

/* tumble.camera into the tumble table on top of the stack. */
void th_camera_open_lua(struct th_level *lv, lua_State *L);
/* Reads tumble.camera (following a body if asked) into lv->camera; level code
 * may run (metamethods), under the level's budget. */
void th_camera_sync(struct th_level *lv);
/* Pushes tumble.camera, or the host's original table if the level replaced
 * it with something that is not a table. */
void th_camera_push_table(struct th_level *lv, lua_State *L);
/* Sets tumble.camera's x, y and scale; false (error set) if level code refused. */
bool th_camera_set(struct th_level *lv, double x, double y, double scale);

#endif
