/* tumble host: the level's media. Images (gfx.image, gfx.draw, sprite sheets,
 * sprites attached to bodies, hot reload of image files) live in image.c;
 * sound (tumble.sound, tumble.beep, through SDL2_mixer) in sound.c; reading
 * asset files safely (the level's folder, regular files only, bounded size,
 * never blocking on a FIFO) in asset.c. The rest of the host reaches them
 * through the few calls below. */
#ifndef TH_HOST_MEDIA_H
#define TH_HOST_MEDIA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <SDL.h>
#include <lua.h>

struct th_level;
struct th_target;

/* The metatables of Image and Sound userdata (read-only assets: a rewind's
 * copy of level.state keeps them as they are). */
#define TH_IMAGE_MT "tumble.Image"
#define TH_SOUND_MT "tumble.Sound"

/* ---- asset files ---- */

typedef struct th_file_stamp {
	struct timespec mtime;
	off_t size;
	ino_t inode;
} th_file_stamp;

typedef struct th_asset {
	char *path;          /* resolved (realpath), malloc'd */
	unsigned char *data; /* the whole file, malloc'd */
	size_t size;
	th_file_stamp stamp;
} th_asset;

/* Reads a level's asset: a relative name is looked up in the level's folder
 * (the working directory for the built-in demo); under --sandbox the resolved
 * path must lie inside that folder. Only regular files of at most max_bytes
 * are read, and a FIFO or device never blocks the host. On failure returns
 * false with a message ("cannot open image 'x.png': ...") in err. */
bool th_asset_read(struct th_level *h, const char *kind, const char *name, size_t max_bytes, th_asset *out, char *err,
                   size_t err_size);
/* Reads the file at an already resolved path again (hot reload). */
bool th_asset_reread(const char *path, size_t max_bytes, th_asset *out);
void th_asset_free(th_asset *a);
/* false if the file is missing; else its stamp */
bool th_file_stamp_read(const char *path, th_file_stamp *out);
bool th_file_stamp_equal(const th_file_stamp *a, const th_file_stamp *b);

/* ---- the host's media state (one per run; Lua states come and go) ---- */

typedef struct th_media {
	size_t image_bytes;       /* pixels held by live images */
	size_t image_budget;      /* cap on image_bytes */
	uint64_t next_image_key;  /* texture cache keys: one per loaded picture */
	size_t sound_bytes;       /* decoded audio held by live sounds */
	size_t sound_budget;
	int audio;                /* 0 not tried yet, 1 open, -1 none (silent) */
	bool audio_dummy;         /* opened on SDL's dummy driver (headless, no device) */
	int audio_rate, audio_channels;
	Uint16 audio_format;
	bool muted;               /* recorded frames are being replayed: play nothing */
	long long held_sounds;    /* plays held back while muted, since the count was last taken */
	struct th_fonts *fonts;   /* the text's faces (text.h); NULL: the bitmap font */
} th_media;

void th_media_init(th_media *m, bool sandbox);
/* Lowers both budgets to --mem-limit when that is smaller (each level start). */
void th_media_apply_limit(th_media *m, double mem_limit_mb);
/* Closes the audio device (at the end of the run, after the last Lua state). */
void th_media_close(th_media *m);

/* ---- images ---- */

/* gfx.image, gfx.draw, gfx.sprite into the gfx table on top of the stack. */
void th_image_open_lua(struct th_level *h, lua_State *L);
/* Decodes a PNG or JPEG file's bytes into an RGBA32 surface, the path
 * gfx.image takes: the size in the file's header is checked first (at most
 * 8192 pixels a side, 16 million in all, and 4 bytes a pixel within room
 * bytes), and the picture is decoded by that format's decoder only. NULL with
 * the reason in *why on failure. */
SDL_Surface *th_image_decode(const unsigned char *data, size_t size, size_t room, const char **why);
/* Draws the sprites attached to bodies (after the debug draw, before level.draw). */
void th_image_draw_sprites(struct th_level *h, struct th_target *t);
/* Reloads every image whose file changed on disk; returns how many. */
int th_image_poll(struct th_level *h);

/* Screenshots: PNG for a .png name, BMP for .bmp (any case); NULL for any
 * other name, else the format's name. */
const char *th_picture_format(const char *path);
bool th_picture_save(SDL_Surface *s, const char *path);

/* ---- sound ---- */

/* tumble.sound and tumble.beep into the tumble table on top of the stack. */
void th_sound_open_lua(struct th_level *h, lua_State *L);
/* After each fixed step: ends the voices whose time is up, moves positional
 * sounds with their bodies, and tells the mixer the gains (not while sound is
 * held back). */
void th_sound_step(struct th_level *h);
/* After frames were replayed with sound held back: the mixer plays what the
 * level's voices say is playing now, from where they are, and nothing else. */
void th_sound_resync(struct th_level *h);
/* Rewind's moments (moment.c, with the collector stopped): capture pushes a
 * table of every Sound's state that is not the default (voices, volume, pan,
 * looping, position) and returns its size; restore puts every Sound back as
 * that table has it (or to the default), with nothing on the mixer until
 * th_sound_resync. */
size_t th_sound_capture_lua(lua_State *L);
void th_sound_restore_lua(lua_State *L, int moment_sounds);
/* Decodes a sound file's bytes (WAV or OGG Vorbis) into a chunk in the mixer's
 * format, the path tumble.sound takes. Before anything is decoded, the most
 * audio the bytes can decode to, whatever their headers claim, must fit in
 * room bytes, and what the headers claim must be at most 10 minutes. The mixer
 * must be open (SDL's dummy audio driver will do). NULL with the reason in why
 * on failure; *seconds (may be NULL): the length the headers claim. */
struct Mix_Chunk *th_sound_decode(const unsigned char *data, size_t size, size_t room, double *seconds, char *why,
                                  size_t why_size);

/* ---- save data (save.c) ---- */

/* tumble.save and tumble.load_save into the tumble table on top of the stack. */
void th_save_open_lua(struct th_level *h, lua_State *L);
/* The save format alone, as lua_CFunctions (the fuzz target's way in):
 * encode(value) -> the text tumble.save writes; decode(text) -> the value
 * tumble.load_save reads. Each raises their errors. */
int th_save_encode_lua(lua_State *L);
int th_save_decode_lua(lua_State *L);

/* Options tables of the media and drawing calls (image.c), read raw so no
 * metamethod runs: raises on a key of the table at t that names does not list
 * (naming the valid ones); and field name as a finite number within [lo, hi]
 * (raises naming the field, the range and what it got), or def when absent. */
void th_image_check_options(lua_State *L, int t, const char *const names[]);
double th_opt_number(lua_State *L, int t, const char *name, double def, double lo, double hi);

#endif
