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
/* Pushes tumble.camera, or the host's original table if the level replaced
 * it with something that is not a table. */
void th_camera_push_table(struct th_level *lv, lua_State *L);

/* The Lua side of reading and writing tumble.camera, which may run level code
 * (metamethods): the level calls them protected, under its budget, with
 * itself as light userdata at 1. sync reads tumble.camera into lv->camera
 * (following its target if it has one); unfollow drops the target; set
 * writes x, y and scale (at 2, 3, 4). */
int th_camera_sync_lua(lua_State *L);
int th_camera_unfollow_lua(lua_State *L);
int th_camera_set_lua(lua_State *L);

#endif
