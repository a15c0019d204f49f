/* tumble host: sound, through SDL2_mixer.
 *
 *   local click = tumble.sound("click.wav")     -- WAV or OGG (Vorbis)
 *   click:play{ volume = 0.8, pitch = 1.5 }
 *   tumble.beep{ freq = 660, length = 0.1, wave = "square" }
 *
 * The device opens on the first sound call, as 44.1 kHz 16-bit stereo (SDL
 * converts for the hardware), so decoded chunks, pitched copies and beeps all
 * share one sample format. Headless runs, and windowed runs that find no audio
 * device, open SDL's dummy driver instead: files are still decoded (a broken
 * file is the same error everywhere) and play() still works, silently. If even
 * that fails, sounds are checked and kept but never play. No call here waits
 * on the device: SDL mixes in its own thread.
 *
 * Pitch resamples the chunk (linear interpolation) into a copy kept per Sound
 * and pitch; a few copies are kept, the oldest freed first (freeing a chunk
 * stops the channels playing it). A Sound that is collected stops too: keep a
 * reference to what should play to its end. */
#include "level.h"

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <SDL_image.h>
#include <SDL_mixer.h>
#include <lauxlib.h>

#define SOUND_MT TH_SOUND_MT
#define RATE 44100
#define CHANNELS 2
#define FRAME_BYTES 4 /* S16 stereo */
#define TH_MIX_CHANNELS 32
#define MAX_FILE_BYTES (64u * 1024u * 1024u)
#define MAX_SECONDS 600.0
/* the most a file's bytes may bound its decoding to: its packets' count can
 * overstate a real length (short blocks), so twice the longest sound */
#define MAX_DECODE_BYTES (2.0 * MAX_SECONDS * RATE * FRAME_BYTES)
#define PITCH_COPIES 6
#define BEEP_CACHE 64

typedef struct pitched {
	int key; /* pitch * 1000 */
	Mix_Chunk *chunk;
} pitched;

typedef struct th_sound {
	th_media *media;  /* for the memory budget; outlives every Lua state */
	size_t bytes;     /* decoded audio this sound holds (chunk and copies) */
	Mix_Chunk *chunk; /* NULL without audio */
	char *name;
	double duration;  /* s */
	pitched copies[PITCH_COPIES];
	int next_copy;
} th_sound;

static const char beeps_key = 'b'; /* registry: {[params] = Sound}, a bounded cache */

static th_level *host_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* ---------------- the device ---------------- */

void th_media_init(th_media *m, bool sandbox)
{
	memset(m, 0, sizeof(*m));
	m->image_budget = (size_t)(sandbox ? 256 : 1024) << 20;
	m->sound_budget = (size_t)(sandbox ? 256 : 1024) << 20;
}

static void account(th_sound *s, const Mix_Chunk *c, bool add)
{
	if (c == NULL || s->media == NULL) return;
	if (add) {
		s->bytes += c->alen;
		s->media->sound_bytes += c->alen;
	} else {
		s->bytes -= c->alen;
		s->media->sound_bytes -= c->alen;
	}
}

/* Room for bytes more decoded audio? Collects the garbage first if not. */
static bool sound_room(lua_State *L, th_media *m, double bytes)
{
	if ((double)m->sound_bytes + bytes <= (double)m->sound_budget) return true;
	lua_gc(L, LUA_GCCOLLECT);
	return (double)m->sound_bytes + bytes <= (double)m->sound_budget;
}

static bool open_mixer(void)
{
	if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) return false;
	if (Mix_OpenAudioDevice(RATE, AUDIO_S16SYS, CHANNELS, 1024, NULL, 0) != 0) {
		SDL_QuitSubSystem(SDL_INIT_AUDIO);
		return false;
	}
	Mix_AllocateChannels(TH_MIX_CHANNELS);
	return true;
}

/* Opens the device on first use; false when there is no audio at all. */
static bool audio_ready(th_level *lv)
{
	th_media *m = lv->media;
	if (m->audio != 0) return m->audio > 0;
	Mix_Init(MIX_INIT_OGG);
	bool ok = false;
	if (!lv->opt->headless) {
		/* ALSA's library prints a page of complaints on a machine without a
		 * sound card; one line of ours below says it better */
		fflush(stderr);
		int saved = dup(2);
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (saved >= 0 && null >= 0) dup2(null, 2);
		ok = open_mixer();
		if (saved >= 0 && null >= 0) dup2(saved, 2);
		if (saved >= 0) close(saved);
		if (null >= 0) close(null);
	}
	if (!ok) {
		/* silence that still decodes: the dummy driver needs no device */
		SDL_SetHintWithPriority(SDL_HINT_AUDIODRIVER, "dummy", SDL_HINT_OVERRIDE);
		ok = open_mixer();
		m->audio_dummy = ok;
		if (!lv->opt->headless) {
			fprintf(stderr, "tumble: no audio device, sound is silent%s\n", ok ? "" : " (and not decoded)");
		}
	}
	m->audio = ok ? 1 : -1;
	if (ok) {
		Mix_QuerySpec(&m->audio_rate, &m->audio_format, &m->audio_channels);
	}
	return ok;
}

void th_media_close(th_media *m)
{
	if (m->audio > 0) {
		Mix_HaltChannel(-1);
		Mix_CloseAudio();
		SDL_QuitSubSystem(SDL_INIT_AUDIO);
	}
	if (m->audio != 0) Mix_Quit();
	IMG_Quit();
	m->audio = 0;
}

/* ---------------- files ---------------- */

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The Ogg page checksum (CRC-32, polynomial 0x04c11db7, not reflected). */
static uint32_t ogg_crc(const unsigned char *p, size_t n)
{
	static uint32_t table[256];
	if (table[1] == 0) {
		for (uint32_t i = 0; i < 256; ++i) {
			uint32_t r = i << 24;
			for (int k = 0; k < 8; ++k) r = r & 0x80000000u ? r << 1 ^ 0x04c11db7u : r << 1;
			table[i] = r;
		}
	}
	uint32_t crc = 0;
	for (size_t i = 0; i < n; ++i) {
		/* the checksum field itself counts as zeros */
		unsigned char b = i >= 22 && i < 26 ? 0 : p[i];
		crc = crc << 8 ^ table[(crc >> 24 ^ b) & 0xff];
	}
	return crc;
}

/* The pages libogg's reader accepts, in order: at a capture pattern, a whole
 * page whose checksum holds; anything else is skipped up to the next "OggS".
 * Returns the page at *at (header and body sizes) or false at the end.
 * *checked counts the bytes checksummed: a file of overlapping false pages
 * would have every one of them checked, so the caller stops at a multiple of
 * the file's size (an honest file has each byte checked once). */
static bool ogg_next_page(const unsigned char *d, size_t n, size_t *at, size_t *head, size_t *body, double *checked)
{
	size_t i = *at;
	while (i + 27 <= n && *checked <= 2.0 * n + 65536.0) {
		if (memcmp(d + i, "OggS", 4) == 0) {
			size_t h = 27 + (size_t)d[i + 26], b = 0;
			if (i + h <= n) {
				for (size_t k = 27; k < h; ++k) b += d[i + k];
				if (i + h + b <= n) *checked += (double)(h + b);
				if (i + h + b <= n && ogg_crc(d + i, h + b) == le32(d + i + 22)) {
					*at = i;
					*head = h;
					*body = b;
					return true;
				}
			}
		}
		const unsigned char *next = memmem(d + i + 1, n - i - 1, "OggS", 4);
		if (next == NULL) break;
		i = (size_t)(next - d);
	}
	return false;
}

/* What a sound file says of itself (seconds, from its headers), and the most
 * decoded audio its bytes can produce whatever the headers claim (max_bytes, in
 * the mixer's format: 44.1 kHz, 16-bit stereo). Every sound is checked against
 * both before anything is decoded, so a small file cannot decode into more
 * than the budget allows. */
typedef struct sound_plan {
	double seconds;
	double max_bytes;
} sound_plan;

#define MIN_RATE 4000u
#define MAX_RATE 384000u
#define MAX_CHANNELS 8u

/* Output bytes of frames at rate once converted to the mixer's format (a
 * frame of slack for the resampler's rounding). */
static double converted_bytes(double frames, uint32_t rate)
{
	return (ceil(frames * ((double)RATE / rate)) + 64.0) * FRAME_BYTES;
}

/* WAV: the first "fmt " chunk and the first "data" chunk after it, as SDL
 * reads them. Each encoding SDL decodes has a most samples per byte (4-bit
 * ADPCM: two per byte and channel), and the data is bytes that are there. */
static const char *plan_wav(const unsigned char *d, size_t n, sound_plan *out)
{
	uint32_t rate = 0, channels = 0, bits = 0, tag = 0;
	bool have_fmt = false;
	for (size_t i = 12; i + 8 <= n;) {
		uint32_t size = le32(d + i + 4);
		if (memcmp(d + i, "fmt ", 4) == 0) {
			if (have_fmt) return "a WAV file with two format chunks";
			if (size < 16 || i + 8 + 16 > n) return "a damaged WAV file";
			have_fmt = true;
			tag = le16(d + i + 8);
			channels = le16(d + i + 10);
			rate = le32(d + i + 12);
			bits = le16(d + i + 22);
			if (tag == 0xFFFE && size >= 40 && i + 8 + 26 <= n) tag = le16(d + i + 8 + 24);
		} else if (memcmp(d + i, "data", 4) == 0) {
			if (!have_fmt) return "a WAV file without a format chunk";
			if (channels == 0 || channels > MAX_CHANNELS) return "a WAV file with an unsupported number of channels";
			if (rate < MIN_RATE || rate > MAX_RATE) return "a WAV file with an unsupported sample rate (4000 to 384000 Hz)";
			uint64_t available = n - (i + 8);
			/* SDL's reader allocates what the chunk claims before it reads:
			 * a header saying 2 GB of a 60-byte file would be believed */
			if (size > available) return "a damaged WAV file (its data runs past the end of the file)";
			double bytes = (double)(size < available ? size : available);
			double frames;
			switch (tag) {
			case 1: /* PCM */
			case 3: /* IEEE float */
				if (bits == 0 || bits % 8 != 0 || bits > 64) return "a WAV file with an unsupported sample size";
				frames = floor(bytes / (channels * (bits / 8)));
				break;
			case 6: /* A-law */
			case 7: /* mu-law */
				frames = floor(bytes / channels);
				break;
			case 2:    /* MS ADPCM */
			case 0x11: /* IMA ADPCM */
				frames = floor(bytes * 2 / channels) + 2;
				break;
			default: return "a WAV file in an unsupported encoding";
			}
			out->seconds = frames / rate;
			out->max_bytes = converted_bytes(frames, rate);
			return NULL;
		}
		if (size > n - i - 8) break;
		i += 8 + (size_t)size + (size & 1);
	}
	return "a WAV file without audio data";
}

/* OGG (Vorbis): libvorbis gives at most half a long block of samples per
 * packet, so the packets in the pages the reader will accept bound the output,
 * whatever the last page's granule position says of the length. Every stream
 * in the file counts, at the longest block and the lowest rate among them. */
static const char *plan_ogg(const unsigned char *d, size_t n, sound_plan *out)
{
	size_t at = 0, head = 0, body = 0;
	double packets = 0.0, checked = 0.0;
	uint32_t min_rate = 0, first_rate = 0, max_block = 0;
	uint64_t granule = 0;
	bool first = true;
	while (ogg_next_page(d, n, &at, &head, &body, &checked)) {
		const unsigned char *p = d + at;
		/* SDL_mixer picks its decoder from the file's first bytes */
		if (first && (at != 0 || (p[5] & 2) == 0)) return "a damaged OGG file";
		if (p[5] & 2) {
			/* a stream starts: its first packet says what it is */
			const unsigned char *id = p + head;
			if (body < 30 || memcmp(id, "\x01vorbis", 7) != 0) {
				return first ? "an OGG file without Vorbis audio" : "an OGG file with a stream that is not Vorbis";
			} else {
				uint32_t channels = id[11], rate = le32(id + 12), b1 = 1u << (id[28] >> 4);
				if (channels == 0 || channels > MAX_CHANNELS) return "an OGG file with an unsupported number of channels";
				if (rate < MIN_RATE || rate > MAX_RATE) return "an OGG file with an unsupported sample rate (4000 to 384000 Hz)";
				if (b1 > 8192) return "a damaged OGG file";
				if (min_rate == 0 || rate < min_rate) min_rate = rate;
				if (first_rate == 0) first_rate = rate;
				if (b1 > max_block) max_block = b1;
			}
		}
		first = false;
		for (size_t k = 27; k < head; ++k) packets += p[k] < 255;
		granule = (uint64_t)le32(p + 6) | (uint64_t)le32(p + 10) << 32;
		at += head + body;
	}
	if (first || checked > 2.0 * n + 65536.0) return "a damaged OGG file";
	out->seconds = granule == UINT64_MAX ? 0.0 : (double)granule / first_rate;
	out->max_bytes = converted_bytes((packets + 1.0) * (max_block / 2.0), min_rate);
	return NULL;
}

static const char *plan_sound(const unsigned char *d, size_t n, sound_plan *out)
{
	memset(out, 0, sizeof(*out));
	if (n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WAVE", 4) == 0) return plan_wav(d, n, out);
	if (n >= 36 && memcmp(d, "OggS", 4) == 0 && memcmp(d + 28, "OpusHead", 8) == 0) return "an OGG file without Vorbis audio";
	if (n >= 4 && memcmp(d, "OggS", 4) == 0) return plan_ogg(d, n, out);
	return "not a WAV or OGG file";
}

/* ---------------- the Sound type ---------------- */

static th_sound *check_sound(lua_State *L, int arg)
{
	return luaL_checkudata(L, arg, SOUND_MT);
}

static void free_copies(th_sound *s)
{
	for (int i = 0; i < PITCH_COPIES; ++i) {
		account(s, s->copies[i].chunk, false);
		if (s->copies[i].chunk != NULL) Mix_FreeChunk(s->copies[i].chunk);
		s->copies[i].chunk = NULL;
	}
}

static int sound_gc(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	free_copies(s);
	account(s, s->chunk, false);
	if (s->chunk != NULL) Mix_FreeChunk(s->chunk);
	s->chunk = NULL;
	free(s->name);
	s->name = NULL;
	return 0;
}

static int sound_tostring(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	lua_pushfstring(L, "Sound(%s)", s->name != NULL ? s->name : "?");
	return 1;
}

/* A copy of c played pitch times faster (and higher). */
static Mix_Chunk *resample(const Mix_Chunk *c, double pitch)
{
	Uint32 in_frames = c->alen / FRAME_BYTES;
	if (in_frames < 2) return NULL;
	Uint32 out_frames = (Uint32)((in_frames - 1) / pitch) + 1;
	Sint16 *out = SDL_malloc((size_t)out_frames * FRAME_BYTES);
	Mix_Chunk *chunk = SDL_malloc(sizeof(Mix_Chunk));
	if (out == NULL || chunk == NULL) {
		SDL_free(out);
		SDL_free(chunk);
		return NULL;
	}
	const Sint16 *in = (const Sint16 *)c->abuf;
	for (Uint32 i = 0; i < out_frames; ++i) {
		double pos = i * pitch;
		Uint32 j = (Uint32)pos;
		if (j >= in_frames - 1) j = in_frames - 2;
		double f = pos - j;
		if (f > 1.0) f = 1.0;
		for (int ch = 0; ch < CHANNELS; ++ch) {
			double a = in[j * CHANNELS + ch], b = in[(j + 1) * CHANNELS + ch];
			out[i * CHANNELS + ch] = (Sint16)lrint(a + (b - a) * f);
		}
	}
	chunk->allocated = 1;
	chunk->abuf = (Uint8 *)out;
	chunk->alen = out_frames * FRAME_BYTES;
	chunk->volume = MIX_MAX_VOLUME;
	return chunk;
}

static Mix_Chunk *chunk_at_pitch(th_sound *s, double pitch)
{
	int key = (int)lround(pitch * 1000.0);
	if (key == 1000) return s->chunk;
	for (int i = 0; i < PITCH_COPIES; ++i) {
		if (s->copies[i].chunk != NULL && s->copies[i].key == key) return s->copies[i].chunk;
	}
	/* a copy that would break the budget plays at the original pitch instead */
	double bytes = s->chunk->alen / (key / 1000.0);
	if (s->media != NULL && (double)s->media->sound_bytes + bytes > (double)s->media->sound_budget) return s->chunk;
	Mix_Chunk *c = resample(s->chunk, key / 1000.0);
	if (c == NULL) return s->chunk;
	pitched *slot = &s->copies[s->next_copy];
	s->next_copy = (s->next_copy + 1) % PITCH_COPIES;
	account(s, slot->chunk, false);
	if (slot->chunk != NULL) Mix_FreeChunk(slot->chunk);
	slot->key = key;
	slot->chunk = c;
	account(s, c, true);
	return c;
}

static double opt_field(lua_State *L, int t, const char *name, double def, double lo, double hi)
{
	lua_pushstring(L, name);
	lua_rawget(L, t);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		return def;
	}
	int ok = 0;
	double v = lua_tonumberx(L, -1, &ok);
	if (!ok || lua_type(L, -1) != LUA_TNUMBER || !isfinite(v) || v < lo || v > hi) {
		const char *got = lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1) : luaL_typename(L, -1);
		char range[64];
		snprintf(range, sizeof(range), "[%g, %g]", lo, hi);
		luaL_argerror(L, t, lua_pushfstring(L, "field '%s': number in %s expected, got %s", name, range, got));
	}
	lua_pop(L, 1);
	return v;
}

static void check_keys(lua_State *L, int t, const char *const names[], const char *valid)
{
	lua_pushnil(L);
	while (lua_next(L, t) != 0) {
		lua_pop(L, 1);
		bool known = false;
		if (lua_type(L, -1) == LUA_TSTRING) {
			for (int i = 0; names[i] != NULL && !known; ++i) known = strcmp(lua_tostring(L, -1), names[i]) == 0;
		}
		if (!known) {
			const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1);
			luaL_argerror(L, t, lua_pushfstring(L, "unknown option '%s'; valid options: %s", key, valid));
		}
	}
}

static void play(th_sound *s, double volume, double pitch, bool loop)
{
	/* a rebuild re-running recorded frames must not play them all at once */
	if (s->chunk == NULL) return;
	if (s->media != NULL && s->media->muted) {
		++s->media->held_sounds;
		return;
	}
	Mix_Chunk *c = chunk_at_pitch(s, pitch);
	int ch = Mix_PlayChannel(-1, c, loop ? -1 : 0);
	if (ch >= 0) Mix_Volume(ch, (int)lround(volume * MIX_MAX_VOLUME));
}

static const char *const play_names[] = {"volume", "pitch", "loop", NULL};

/* snd:play{volume = 1, pitch = 1, loop = false} */
static int sound_play(lua_State *L)
{
	const char *const *names = play_names;
	th_sound *s = check_sound(L, 1);
	double volume = 1.0, pitch = 1.0;
	bool loop = false;
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		check_keys(L, 2, names, "volume, pitch, loop");
		volume = opt_field(L, 2, "volume", 1.0, 0.0, 1.0);
		pitch = opt_field(L, 2, "pitch", 1.0, 0.25, 4.0);
		lua_getfield(L, 2, "loop");
		luaL_argcheck(L, lua_isnil(L, -1) || lua_isboolean(L, -1), 2, "field 'loop': boolean expected");
		loop = lua_toboolean(L, -1);
		lua_pop(L, 1);
	}
	play(s, volume, pitch, loop);
	return 0;
}

static bool ours(const th_sound *s, const Mix_Chunk *c)
{
	if (c == NULL) return false;
	if (c == s->chunk) return true;
	for (int i = 0; i < PITCH_COPIES; ++i) {
		if (s->copies[i].chunk == c) return true;
	}
	return false;
}

/* snd:stop(): every channel playing this sound */
static int sound_stop(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	if (s->chunk == NULL) return 0;
	int n = Mix_AllocateChannels(-1);
	for (int ch = 0; ch < n; ++ch) {
		if (Mix_Playing(ch) && ours(s, Mix_GetChunk(ch))) Mix_HaltChannel(ch);
	}
	return 0;
}

/* snd:playing() -> boolean (always false without audio) */
static int sound_playing(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	bool any = false;
	if (s->chunk != NULL) {
		int n = Mix_AllocateChannels(-1);
		for (int ch = 0; ch < n && !any; ++ch) any = Mix_Playing(ch) && ours(s, Mix_GetChunk(ch));
	}
	lua_pushboolean(L, any);
	return 1;
}

static const char *const sound_props[] = {"duration", "name", NULL};
static const luaL_Reg sound_methods[] = {
	{"play", sound_play},
	{"stop", sound_stop},
	{"playing", sound_playing},
	{NULL, NULL},
};

static int sound_index(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	const char *k = luaL_checkstring(L, 2);
	if (strcmp(k, sound_props[0]) == 0) {
		lua_pushnumber(L, s->duration);
		return 1;
	}
	if (strcmp(k, sound_props[1]) == 0) {
		lua_pushstring(L, s->name);
		return 1;
	}
	for (int i = 0; sound_methods[i].name != NULL; ++i) {
		if (strcmp(sound_methods[i].name, k) == 0) {
			lua_pushcfunction(L, sound_methods[i].func);
			return 1;
		}
	}
	lua_pushnil(L);
	return 1;
}

static int sound_newindex(lua_State *L)
{
	return luaL_error(L, "Sound is read-only (cannot assign '%s')", luaL_tolstring(L, 2, NULL));
}

static th_sound *new_sound(lua_State *L, th_media *m, const char *name)
{
	th_sound *s = lua_newuserdatauv(L, sizeof(th_sound), 0);
	memset(s, 0, sizeof(*s));
	s->media = m;
	luaL_setmetatable(L, SOUND_MT);
	s->name = strdup(name);
	if (s->name == NULL) luaL_error(L, "out of memory");
	return s;
}

Mix_Chunk *th_sound_decode(const unsigned char *data, size_t size, size_t room, double *seconds, char *why,
                           size_t why_size)
{
	sound_plan plan;
	const char *reason = plan_sound(data, size, &plan);
	if (seconds != NULL) *seconds = plan.seconds;
	if (reason == NULL && !(plan.seconds <= MAX_SECONDS)) reason = "too long (at most 10 minutes)";
	if (reason == NULL && plan.max_bytes > MAX_DECODE_BYTES) reason = "too long (its bytes may decode to more than 20 minutes)";
	if (reason != NULL) {
		snprintf(why, why_size, "%s", reason);
		return NULL;
	}
	if (plan.max_bytes > (double)room) {
		snprintf(why, why_size, "it may decode to %.0f MB, more than the %.0f MB left of the sounds' memory limit",
		         ceil(plan.max_bytes / 1048576.0), floor((double)room / 1048576.0));
		return NULL;
	}
	SDL_RWops *rw = size <= INT_MAX ? SDL_RWFromConstMem(data, (int)size) : NULL;
	Mix_Chunk *c = rw != NULL ? Mix_LoadWAV_RW(rw, 1) : NULL;
	if (c == NULL) {
		snprintf(why, why_size, "%s", Mix_GetError());
		return NULL;
	}
	if ((double)c->alen > MAX_SECONDS * RATE * FRAME_BYTES || c->alen > room) {
		Mix_FreeChunk(c);
		snprintf(why, why_size, "too long (at most 10 minutes)");
		return NULL;
	}
	return c;
}

void th_media_apply_limit(th_media *m, double mem_limit_mb)
{
	if (!(mem_limit_mb > 0)) return;
	double bytes = mem_limit_mb * 1048576.0;
	if (bytes < (double)m->image_budget) m->image_budget = (size_t)bytes;
	if (bytes < (double)m->sound_budget) m->sound_budget = (size_t)bytes;
}

/* tumble.sound(path) -> Sound */
static int tumble_sound(lua_State *L)
{
	th_level *lv = host_up(L);
	th_media *m = lv->media;
	size_t len = 0;
	const char *name = luaL_checklstring(L, 1, &len);
	luaL_argcheck(L, strlen(name) == len, 1, "file name without NUL bytes expected");
	th_sound *s = new_sound(L, m, name);
	char err[512], why[256];
	th_asset a;
	if (!th_asset_read(lv, "sound", name, MAX_FILE_BYTES, &a, err, sizeof(err))) return luaL_error(L, "%s", err);
	sound_plan plan;
	const char *reason = plan_sound(a.data, a.size, &plan);
	if (reason == NULL && !(plan.seconds <= MAX_SECONDS)) reason = "too long (at most 10 minutes)";
	if (reason == NULL && plan.max_bytes > MAX_DECODE_BYTES) reason = "too long (its bytes may decode to more than 20 minutes)";
	/* sounds the level dropped still count until collected */
	if (reason == NULL && !sound_room(L, m, plan.max_bytes)) {
		snprintf(why, sizeof(why), "it may decode to %.0f MB, more than the sounds' memory limit (%.0f MB) has left",
		         ceil(plan.max_bytes / 1048576.0), floor((double)m->sound_budget / 1048576.0));
		reason = why;
	}
	if (reason == NULL && audio_ready(lv)) {
		s->chunk = th_sound_decode(a.data, a.size, m->sound_budget - m->sound_bytes, NULL, why, sizeof(why));
		if (s->chunk == NULL) reason = why;
	}
	if (reason != NULL) {
		snprintf(err, sizeof(err), "cannot load sound '%.200s': %s", name, reason);
		th_asset_free(&a);
		return luaL_error(L, "%s", err);
	}
	th_asset_free(&a);
	account(s, s->chunk, true);
	s->duration = s->chunk != NULL ? (double)(s->chunk->alen / FRAME_BYTES) / RATE : plan.seconds;
	return 1;
}

/* ---------------- beeps ---------------- */

static const char *const waves[] = {"sine", "square", "triangle", "saw", "noise", NULL};

static Mix_Chunk *synth(double freq, double to, double length, int wave, double volume)
{
	Uint32 frames = (Uint32)(length * RATE);
	if (frames < 2) frames = 2;
	Sint16 *out = SDL_malloc((size_t)frames * FRAME_BYTES);
	Mix_Chunk *chunk = SDL_malloc(sizeof(Mix_Chunk));
	if (out == NULL || chunk == NULL) {
		SDL_free(out);
		SDL_free(chunk);
		return NULL;
	}
	double phase = 0.0;
	uint32_t noise = 0x12345678u;
	double noise_value = 0.0;
	Uint32 attack = RATE / 200;                 /* 5 ms: no click at the start */
	Uint32 release = (Uint32)(frames * 0.35);   /* fade out over the last third */
	for (Uint32 i = 0; i < frames; ++i) {
		double t = (double)i / frames;
		double f = freq + (to - freq) * t;
		double v;
		switch (wave) {
		case 0: v = sin(2.0 * M_PI * phase); break;
		case 1: v = phase < 0.5 ? 0.6 : -0.6; break;
		case 2: v = phase < 0.5 ? 4.0 * phase - 1.0 : 3.0 - 4.0 * phase; break;
		case 3: v = 0.7 * (2.0 * phase - 1.0); break;
		default: v = noise_value; break;
		}
		double before = phase;
		phase += f / RATE;
		phase -= floor(phase);
		if (wave == 4 && phase < before) {
			/* noise holds one random value per period: freq sets its colour */
			noise ^= noise << 13;
			noise ^= noise >> 17;
			noise ^= noise << 5;
			noise_value = (noise / 4294967295.0) * 1.2 - 0.6;
		}
		double env = 1.0;
		if (i < attack) env = (double)i / attack;
		if (i >= frames - release) env *= (double)(frames - i) / release;
		Sint16 sample = (Sint16)lrint(v * env * volume * 0.5 * 32767.0);
		out[2 * i] = out[2 * i + 1] = sample;
	}
	chunk->allocated = 1;
	chunk->abuf = (Uint8 *)out;
	chunk->alen = frames * FRAME_BYTES;
	chunk->volume = MIX_MAX_VOLUME;
	return chunk;
}

/* tumble.beep{freq = 440, to = freq, length = 0.15, wave = "square", volume = 0.5} -> Sound (playing) */
static const char *const beep_names[] = {"freq", "to", "length", "wave", "volume", NULL};

static int tumble_beep(lua_State *L)
{
	const char *const *names = beep_names;
	th_level *lv = host_up(L);
	if (lua_isnoneornil(L, 1)) lua_newtable(L);
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	check_keys(L, 1, names, "freq, to, length, wave, volume");
	double freq = opt_field(L, 1, "freq", 440.0, 20.0, 20000.0);
	double to = opt_field(L, 1, "to", freq, 20.0, 20000.0);
	double length = opt_field(L, 1, "length", 0.15, 0.005, 5.0);
	double volume = opt_field(L, 1, "volume", 0.5, 0.0, 1.0);
	lua_getfield(L, 1, "wave");
	int wave = 1;
	if (!lua_isnil(L, -1)) {
		const char *w = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
		for (wave = 0; waves[wave] != NULL && strcmp(waves[wave], w) != 0; ++wave) {
		}
		if (waves[wave] == NULL) {
			luaL_argerror(L, 1, "field 'wave': one of 'sine', 'square', 'triangle', 'saw', 'noise' expected");
		}
	}
	lua_pop(L, 1);
	/* the same beep again reuses its sound */
	char key[128];
	snprintf(key, sizeof(key), "%s %.6g %.6g %.6g %.6g", waves[wave], freq, to, length, volume);
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &beeps_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &beeps_key);
	}
	int cache = lua_gettop(L);
	if (lua_getfield(L, cache, key) == LUA_TUSERDATA) {
		play(check_sound(L, -1), 1.0, 1.0, false);
		return 1;
	}
	lua_pop(L, 1);
	lua_getfield(L, cache, "n");
	lua_Integer n = lua_tointeger(L, -1);
	lua_pop(L, 1);
	if (n >= BEEP_CACHE) {
		/* full: start a new cache; the old beeps are collected when unused */
		lua_newtable(L);
		lua_replace(L, cache);
		lua_pushvalue(L, cache);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &beeps_key);
		n = 0;
	}
	char name[160];
	snprintf(name, sizeof(name), "beep %s", key);
	th_sound *s = new_sound(L, lv->media, name);
	s->duration = length;
	if (audio_ready(lv)) {
		if (!sound_room(L, lv->media, length * RATE * FRAME_BYTES)) {
			return luaL_error(L, "beep: the sounds' memory limit is reached");
		}
		s->chunk = synth(freq, to, length, wave, volume);
		if (s->chunk == NULL) return luaL_error(L, "out of memory");
		account(s, s->chunk, true);
		s->duration = (double)(s->chunk->alen / FRAME_BYTES) / RATE;
	}
	lua_pushvalue(L, -1);
	lua_setfield(L, cache, key);
	lua_pushinteger(L, n + 1);
	lua_setfield(L, cache, "n");
	play(s, 1.0, 1.0, false);
	return 1;
}

/* ---------------- registration ---------------- */

void th_sound_open_lua(th_level *lv, lua_State *L)
{
	static const luaL_Reg meta[] = {
		{"__index", sound_index},
		{"__newindex", sound_newindex},
		{"__gc", sound_gc},
		{"__tostring", sound_tostring},
		{NULL, NULL},
	};
	/* tumble table on top */
	if (luaL_newmetatable(L, SOUND_MT)) {
		luaL_setfuncs(L, meta, 0);
		/* getmetatable gives the type's name: a script cannot reach __gc or
		 * __index to call them by hand or replace them for every object */
		lua_pushliteral(L, "Sound");
		lua_setfield(L, -2, "__metatable");
	}
	lua_pop(L, 1);
	if (lv->media != NULL && lv->opt != NULL) th_media_apply_limit(lv->media, lv->opt->mem_limit_mb);
	lua_pushlightuserdata(L, lv);
	lua_pushcclosure(L, tumble_sound, 1);
	lua_setfield(L, -2, "sound");
	lua_pushlightuserdata(L, lv);
	lua_pushcclosure(L, tumble_beep, 1);
	lua_setfield(L, -2, "beep");
}

void th_sound_describe(lua_State *L)
{
	lua_newtable(L);
	th_api_push_names(L, sound_props);
	lua_setfield(L, -2, "properties");
	lua_newtable(L);
	for (int i = 0; sound_methods[i].name != NULL; ++i) {
		lua_pushstring(L, sound_methods[i].name);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "methods");
	lua_setfield(L, -2, "sound");
	th_api_push_names(L, play_names);
	lua_setfield(L, -2, "play_options");
	th_api_push_names(L, beep_names);
	lua_setfield(L, -2, "beep_options");
	th_api_push_names(L, waves);
	lua_setfield(L, -2, "waves");
}
