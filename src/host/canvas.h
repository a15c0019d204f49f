/* tumble host: pictures the level makes by drawing: Canvas (gfx.canvas,
 * gfx.set_canvas: an offscreen picture gfx draws into, drawn like an Image),
 * SpriteBatch (gfx.batch: many sprites of one image, drawn in one go) and
 * Particles (gfx.particles: a simple emitter). Every size and count is
 * bounded; their memory is the Lua state's (sprites, particles) or the
 * images' budget (a canvas's pixels). */
#ifndef TH_HOST_CANVAS_H
#define TH_HOST_CANVAS_H

#include <lua.h>

struct th_level;

#define TH_CANVAS_MT "tumble.Canvas"
#define TH_BATCH_MT "tumble.SpriteBatch"
#define TH_PARTICLES_MT "tumble.Particles"
/* The most sprites of a batch and particles of an emitter. */
#define TH_BATCH_MAX 100000
#define TH_PARTICLES_MAX 100000

/* gfx.canvas, gfx.set_canvas, gfx.batch, gfx.particles (and gfx.draw for
 * batches and particles) into the gfx table on top of the stack. */
void th_canvas_open_lua(struct th_level *lv, lua_State *L);
/* tumble._host_introspect's canvas, batch and particles = {properties,
 * methods}, canvas_options and particle_settings into the table on top. */
void th_canvas_describe(lua_State *L);
/* Stops drawing into a canvas: gfx draws where it drew before. */
void th_canvas_leave(struct th_level *lv);

#endif
