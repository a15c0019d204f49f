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
#include "tumble/tumble_lua.h"

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

/* One playing (or paused) instance of a Sound, on the level's clock: what
 * the level reads back (playing, paused, tell) is computed from the level's
 * frames, never from the mixer, so a replay reads what the run read. */
typedef struct voice {
	unsigned long long id; /* 0: a free slot */
	double pos;            /* seconds into the sound at level time `since` */
	double since;
	double pitch, volume;
	bool loop, paused;
	int channel;           /* the mixer channel it was last started on, -1 none */
} voice;

#define VOICES 8 /* per Sound; a play past them takes the oldest one's place */

typedef struct th_sound {
	th_media *media;  /* for the memory budget; outlives every Lua state */
	th_level *level;  /* its clock (frames) and camera; outlives every Lua state */
	size_t bytes;     /* decoded audio this sound holds (chunk and copies) */
	Mix_Chunk *chunk; /* NULL without audio */
	char *name;
	double duration;  /* s */
	pitched copies[PITCH_COPIES];
	int next_copy;
	voice voices[VOICES];
	double volume, pan; /* the Sound's own: times each voice's volume; -1 left to 1 right */
	bool looping;       /* the default of play's loop */
	double start_at;    /* where the next play starts (seek while stopped), s */
	int placed;         /* 0 no position, 1 a point, 2 a body (its user value) */
	double px, py;      /* the point, or the body's position at the latest step */
} th_sound;

/* What the host last told each mixer channel: whose voice it plays (the
 * voice's id and Sound), the chunk it reads (a pitched copy or the original;
 * a seek plays `tails[ch]`, a chunk without its own buffer pointing into
 * it), and the gains. One mixer per process. */
static unsigned long long chan_owner[TH_MIX_CHANNELS];
static th_sound *chan_sound[TH_MIX_CHANNELS];
static const Mix_Chunk *chan_src[TH_MIX_CHANNELS];
static Mix_Chunk chan_tail[TH_MIX_CHANNELS];
static double chan_left[TH_MIX_CHANNELS], chan_right[TH_MIX_CHANNELS];
static unsigned long long next_voice_id = 1;
static const char active_key = 'a'; /* registry: {[Sound] = true} with a voice (kept alive while heard) */
static const char all_key = 'A';    /* registry: {[Sound] = true}, weak keys: every Sound, for rewind's moments */

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

/* Stops every channel reading src (or, src NULL, playing a voice of s):
 * before a chunk is freed, since a seek's tail points into its buffer. */
static void halt_channels(const th_sound *s, const Mix_Chunk *src)
{
	for (int ch = 0; ch < TH_MIX_CHANNELS; ++ch) {
		if (src != NULL ? chan_src[ch] == src : chan_sound[ch] == s) {
			Mix_HaltChannel(ch);
			chan_owner[ch] = 0;
			chan_sound[ch] = NULL;
			chan_src[ch] = NULL;
		}
	}
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
	if (s->media != NULL && s->media->audio > 0) halt_channels(s, NULL);
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
	if (slot->chunk != NULL) halt_channels(s, slot->chunk);
	if (slot->chunk != NULL) Mix_FreeChunk(slot->chunk);
	slot->key = key;
	slot->chunk = c;
	account(s, c, true);
	return c;
}

/* ---------------- voices: the level's clock, and the mixer following it ---------------- */

static double level_time(const th_sound *s)
{
	return s->level != NULL ? (double)s->level->frame * (double)TH_HOST_DT : 0.0;
}

static bool held(const th_sound *s)
{
	return s->chunk == NULL || s->media == NULL || s->media->muted || s->media->audio <= 0;
}

/* Seconds into the sound at level time t (a loop's position grows past the
 * end; wrap() brings it back). */
static double voice_pos(const voice *v, double t)
{
	return v->paused ? v->pos : v->pos + (t - v->since) * v->pitch;
}

static double wrap(const th_sound *s, const voice *v, double p)
{
	if (v->loop && s->duration > 0) p = fmod(p, s->duration);
	return p;
}

/* Frees the voices that ended by time t (a voice that does not loop ends at
 * the sound's end). */
static void expire(th_sound *s, double t)
{
	for (int i = 0; i < VOICES; ++i) {
		voice *v = &s->voices[i];
		if (v->id != 0 && !v->loop && voice_pos(v, t) >= s->duration) v->id = 0;
	}
}

static voice *newest(th_sound *s)
{
	voice *best = NULL;
	for (int i = 0; i < VOICES; ++i) {
		if (s->voices[i].id != 0 && (best == NULL || s->voices[i].id > best->id)) best = &s->voices[i];
	}
	return best;
}

static double clamp1(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The gains a voice is heard with: its volume times the Sound's, and, with a
 * position, the camera's: full within half the view's width of its centre,
 * fading to nothing at a whole width, panned by how far left or right of the
 * centre it is; then the Sound's pan (balance: the centre keeps both sides
 * whole). */
static void voice_gains(const th_sound *s, const voice *v, double *left, double *right)
{
	double gain = v->volume * s->volume, pan = s->pan;
	const th_camera *c = s->level != NULL ? &s->level->camera : NULL;
	if (s->placed != 0 && c != NULL && c->scale > 0 && c->view_w > 0) {
		double half = c->view_w / (2.0 * c->scale);
		double dx = (s->px - c->x) / half, dy = (s->py - c->y) / half;
		double d = sqrt(dx * dx + dy * dy);
		if (d > 1.0) gain *= clamp1(2.0 - d, 0.0, 1.0);
		pan = clamp1(pan + clamp1(dx, -1.0, 1.0), -1.0, 1.0);
	}
	*left = gain * fmin(1.0, 1.0 - pan);
	*right = gain * fmin(1.0, 1.0 + pan);
}

static bool owned(const voice *v)
{
	return v->channel >= 0 && chan_owner[v->channel] == v->id && Mix_Playing(v->channel);
}

static void mix_gains(const th_sound *s, const voice *v)
{
	double l, r;
	voice_gains(s, v, &l, &r);
	double most = fmax(l, r);
	int ch = v->channel;
	chan_left[ch] = l;
	chan_right[ch] = r;
	/* the louder side's gain as the channel's volume, the balance as panning */
	Mix_Volume(ch, (int)lround(most * MIX_MAX_VOLUME));
	Uint8 pl = most > 0 ? (Uint8)lround(255.0 * l / most) : 255, pr = most > 0 ? (Uint8)lround(255.0 * r / most) : 255;
	Mix_SetPanning(ch, pl, pr);
}

static void mix_halt(voice *v)
{
	if (!owned(v)) return;
	int ch = v->channel;
	Mix_HaltChannel(ch);
	chan_owner[ch] = 0;
	chan_sound[ch] = NULL;
	chan_src[ch] = NULL;
}

/* Starts a voice on a free channel at its position now (a seek, a resume
 * whose channel was lost, a loop after a seek's tail, the end of a replay).
 * Nothing while sound is held back. */
static void mix_start(th_sound *s, voice *v, double t)
{
	if (held(s)) return;
	mix_halt(v);
	v->channel = -1;
	Mix_Chunk *c = chunk_at_pitch(s, v->pitch);
	Uint32 frames = (Uint32)(wrap(s, v, voice_pos(v, t)) / v->pitch * RATE);
	Uint32 off = frames * FRAME_BYTES;
	if (off >= c->alen) return;
	int ch = Mix_GroupAvailable(-1);
	if (ch < 0 || ch >= TH_MIX_CHANNELS) return; /* every channel busy: heard again at its next start */
	int played;
	if (off == 0) {
		played = Mix_PlayChannel(ch, c, v->loop ? -1 : 0);
	} else {
		/* from the middle: a chunk over the rest of the buffer, once (a
		 * loop starts again from the top at the next step) */
		chan_tail[ch] = (Mix_Chunk){.allocated = 0, .abuf = c->abuf + off, .alen = c->alen - off, .volume = MIX_MAX_VOLUME};
		played = Mix_PlayChannel(ch, &chan_tail[ch], 0);
	}
	if (played < 0) return;
	chan_owner[ch] = v->id;
	chan_sound[ch] = s;
	chan_src[ch] = c;
	v->channel = ch;
	mix_gains(s, v);
	if (v->paused) Mix_Pause(ch);
}

/* The mixer told a voice's pause state and gains. */
static void mix_apply(th_sound *s, voice *v, double t)
{
	if (held(s)) return;
	if (!owned(v)) {
		if (!v->paused) mix_start(s, v, t);
		return;
	}
	if (v->paused) Mix_Pause(v->channel);
	else Mix_Resume(v->channel);
	mix_gains(s, v);
}

static void set_active(lua_State *L, int idx, bool on)
{
	idx = lua_absindex(L, idx);
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &active_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &active_key);
	}
	lua_pushvalue(L, idx);
	if (on) lua_pushboolean(L, 1);
	else lua_pushnil(L);
	lua_rawset(L, -3);
	lua_pop(L, 1);
}

/* A new voice of the Sound at idx (a play held back while replaying still
 * starts one on the level's clock, so what the level reads stays the same;
 * only the mixer is not told). */
static void play(lua_State *L, int idx, th_sound *s, double volume, double pitch, bool loop)
{
	double t = level_time(s);
	expire(s, t);
	voice *v = NULL;
	for (int i = 0; i < VOICES && v == NULL; ++i) {
		if (s->voices[i].id == 0) v = &s->voices[i];
	}
	if (v == NULL) {
		/* full: the oldest voice makes room */
		v = &s->voices[0];
		for (int i = 1; i < VOICES; ++i) {
			if (s->voices[i].id < v->id) v = &s->voices[i];
		}
		if (s->media != NULL && s->media->audio > 0) mix_halt(v);
	}
	*v = (voice){.id = next_voice_id++, .pos = s->start_at, .since = t, .pitch = pitch, .volume = volume, .loop = loop,
	             .channel = -1};
	s->start_at = 0;
	set_active(L, idx, true);
	if (s->chunk != NULL && s->media != NULL && s->media->muted) ++s->media->held_sounds;
	mix_start(s, v, t);
}

void th_sound_step(th_level *lv)
{
	lua_State *L = lv->L;
	if (L == NULL) return;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &active_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		return;
	}
	int active = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, active) != 0) {
		lua_pop(L, 1);
		th_sound *s = lua_touserdata(L, -1);
		double t = level_time(s);
		expire(s, t);
		if (newest(s) == NULL) {
			/* nothing left to hear: the Sound may be collected */
			lua_pushvalue(L, -1);
			lua_pushnil(L);
			lua_rawset(L, active);
			continue;
		}
		if (s->placed == 2) {
			lua_getiuservalue(L, -1, 1);
			tb_world *w;
			tb_body_id id;
			/* a body destroyed since leaves the sound where it last was */
			if (tumble_lua_to_body(L, -1, &w, &id)) {
				tb_vec2 p = tb_body_get_position(w, id);
				s->px = p.x;
				s->py = p.y;
			}
			lua_pop(L, 1);
		}
		if (held(s)) continue;
		for (int i = 0; i < VOICES; ++i) {
			voice *v = &s->voices[i];
			if (v->id == 0) continue;
			if (owned(v)) mix_gains(s, v);
			else if (v->loop && !v->paused) mix_start(s, v, t);
		}
	}
	lua_pop(L, 1);
}

void th_sound_resync(th_level *lv)
{
	lua_State *L = lv->L;
	if (lv->media == NULL || lv->media->audio <= 0 || lv->media->muted) return;
	/* channels whose voice is gone (stopped, or ended, while held back) */
	for (int ch = 0; ch < TH_MIX_CHANNELS; ++ch) {
		th_sound *s = chan_sound[ch];
		if (s == NULL) continue;
		expire(s, level_time(s));
		bool live = false;
		for (int i = 0; i < VOICES && !live; ++i) live = s->voices[i].id == chan_owner[ch];
		if (!live) {
			Mix_HaltChannel(ch);
			chan_owner[ch] = 0;
			chan_sound[ch] = NULL;
			chan_src[ch] = NULL;
		}
	}
	/* voices started, paused or moved while held back: heard from where they are */
	if (L == NULL || lua_rawgetp(L, LUA_REGISTRYINDEX, &active_key) != LUA_TTABLE) {
		if (L != NULL) lua_pop(L, 1);
		return;
	}
	lua_pushnil(L);
	while (lua_next(L, -2) != 0) {
		lua_pop(L, 1);
		th_sound *s = lua_touserdata(L, -1);
		double t = level_time(s);
		expire(s, t);
		for (int i = 0; i < VOICES; ++i) {
			if (s->voices[i].id != 0) mix_apply(s, &s->voices[i], t);
		}
	}
	lua_pop(L, 1);
}

/* ---------------- rewind: a Sound's state in a moment ---------------- */

/* What a moment keeps of a Sound: everything the level can read back or
 * that changes what it will read (the followed Body is kept beside it). */
typedef struct sound_state {
	voice voices[VOICES];
	double volume, pan, start_at, px, py;
	bool looping;
	int placed;
} sound_state;

static bool is_default(const th_sound *s)
{
	for (int i = 0; i < VOICES; ++i) {
		if (s->voices[i].id != 0) return false;
	}
	return s->volume == 1.0 && s->pan == 0.0 && s->start_at == 0.0 && !s->looping && s->placed == 0;
}

size_t th_sound_capture_lua(lua_State *L)
{
	luaL_checkstack(L, 8, NULL);
	lua_newtable(L);
	int out = lua_gettop(L);
	size_t bytes = 0;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &all_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		return 0;
	}
	int all = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, all) != 0) {
		lua_pop(L, 1);
		th_sound *s = lua_touserdata(L, -1);
		if (s == NULL || is_default(s)) continue;
		sound_state st;
		memset(&st, 0, sizeof(st));
		memcpy(st.voices, s->voices, sizeof(st.voices));
		st.volume = s->volume;
		st.pan = s->pan;
		st.start_at = s->start_at;
		st.px = s->px;
		st.py = s->py;
		st.looping = s->looping;
		st.placed = s->placed;
		lua_pushvalue(L, -1);
		lua_createtable(L, 2, 0);
		lua_pushlstring(L, (const char *)&st, sizeof(st));
		lua_rawseti(L, -2, 1);
		lua_getiuservalue(L, -3, 1);
		lua_rawseti(L, -2, 2);
		lua_rawset(L, out);
		bytes += sizeof(st) + 128;
	}
	lua_pop(L, 1);
	return bytes;
}

void th_sound_restore_lua(lua_State *L, int moment_sounds)
{
	moment_sounds = lua_absindex(L, moment_sounds);
	luaL_checkstack(L, 8, NULL);
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &all_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		return;
	}
	int all = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, all) != 0) {
		lua_pop(L, 1);
		int ud = lua_gettop(L);
		th_sound *s = lua_touserdata(L, ud);
		if (s == NULL) continue;
		sound_state st = {.volume = 1.0};
		lua_pushnil(L); /* the followed Body */
		if (lua_istable(L, moment_sounds)) {
			lua_pushvalue(L, ud);
			if (lua_rawget(L, moment_sounds) == LUA_TTABLE) {
				size_t n = 0;
				lua_rawgeti(L, -1, 1);
				const char *bytes = lua_tolstring(L, -1, &n);
				if (bytes != NULL && n == sizeof(st)) memcpy(&st, bytes, sizeof(st));
				lua_pop(L, 1);
				lua_rawgeti(L, -1, 2);
				lua_replace(L, -3);
			}
			lua_pop(L, 1);
		}
		lua_setiuservalue(L, ud, 1);
		/* what the mixer plays of it starts again from the restored voices
		 * (th_sound_resync, once the level's clock is back too) */
		if (s->media != NULL && s->media->audio > 0) halt_channels(s, NULL);
		memcpy(s->voices, st.voices, sizeof(st.voices));
		for (int i = 0; i < VOICES; ++i) s->voices[i].channel = -1;
		s->volume = st.volume;
		s->pan = st.pan;
		s->start_at = st.start_at;
		s->px = st.px;
		s->py = st.py;
		s->looping = st.looping;
		s->placed = st.placed;
		set_active(L, ud, newest(s) != NULL);
	}
	lua_pop(L, 1);
}

/* ---------------- the Sound's methods ---------------- */

/* The number at arg within [lo, hi], or an error naming the method and what
 * it got ("set_volume: number in [0, 1] expected, got nan"). */
static double check_range(lua_State *L, int arg, const char *method, double lo, double hi)
{
	int ok = 0;
	double v = lua_tonumberx(L, arg, &ok);
	if (!ok || lua_type(L, arg) != LUA_TNUMBER || !isfinite(v) || v < lo || v > hi) {
		char got[64];
		if (lua_type(L, arg) != LUA_TNUMBER) snprintf(got, sizeof(got), "%s", luaL_typename(L, arg));
		else if (isnan(v)) snprintf(got, sizeof(got), "nan");
		else snprintf(got, sizeof(got), "%.14g", v);
		char range[80];
		snprintf(range, sizeof(range), "[%.6g, %.6g]", lo, hi);
		return luaL_error(L, "%s: number in %s expected, got %s", method, range, got);
	}
	return v;
}

static const char *const play_names[] = {"volume", "pitch", "loop", NULL};

/* snd:play{volume = 1, pitch = 1, loop = snd.looping} */
static int sound_play(lua_State *L)
{
	const char *const *names = play_names;
	th_sound *s = check_sound(L, 1);
	double volume = 1.0, pitch = 1.0;
	bool loop = s->looping;
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		th_image_check_options(L, 2, names);
		volume = th_opt_number(L, 2, "volume", 1.0, 0.0, 1.0);
		pitch = th_opt_number(L, 2, "pitch", 1.0, 0.25, 4.0);
		lua_getfield(L, 2, "loop");
		luaL_argcheck(L, lua_isnil(L, -1) || lua_isboolean(L, -1), 2, "field 'loop': boolean expected");
		if (!lua_isnil(L, -1)) loop = lua_toboolean(L, -1);
		lua_pop(L, 1);
	}
	play(L, 1, s, volume, pitch, loop);
	return 0;
}

/* snd:stop(): every voice of this sound; the next play starts at the top */
static int sound_stop(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	for (int i = 0; i < VOICES; ++i) {
		if (s->voices[i].id != 0 && !held(s)) mix_halt(&s->voices[i]);
		s->voices[i].id = 0;
	}
	s->start_at = 0;
	set_active(L, 1, false);
	return 0;
}

/* snd:pause() / snd:resume(): every voice */
static int pause_or_resume(lua_State *L, bool pause)
{
	th_sound *s = check_sound(L, 1);
	double t = level_time(s);
	expire(s, t);
	for (int i = 0; i < VOICES; ++i) {
		voice *v = &s->voices[i];
		if (v->id == 0 || v->paused == pause) continue;
		v->pos = voice_pos(v, t);
		v->since = t;
		v->paused = pause;
		mix_apply(s, v, t);
	}
	return 0;
}

static int sound_pause(lua_State *L)
{
	return pause_or_resume(L, true);
}

static int sound_resume(lua_State *L)
{
	return pause_or_resume(L, false);
}

/* snd:seek(seconds): every voice goes there; with none, the next play starts there */
static int sound_seek(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	double to = check_range(L, 2, "seek", 0.0, s->duration);
	double t = level_time(s);
	expire(s, t);
	bool any = false;
	for (int i = 0; i < VOICES; ++i) {
		voice *v = &s->voices[i];
		if (v->id == 0) continue;
		any = true;
		v->pos = to;
		v->since = t;
		if (!v->loop && to >= s->duration) {
			if (!held(s)) mix_halt(v);
			v->id = 0;
		} else {
			mix_start(s, v, t);
		}
	}
	if (!any) s->start_at = to;
	return 0;
}

/* snd:tell() -> seconds into the sound of its newest voice (where the next play starts, without one) */
static int sound_tell(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	double t = level_time(s);
	expire(s, t);
	voice *v = newest(s);
	lua_pushnumber(L, v != NULL ? wrap(s, v, voice_pos(v, t)) : s->start_at);
	return 1;
}

static int count_voices(lua_State *L, bool paused)
{
	th_sound *s = check_sound(L, 1);
	expire(s, level_time(s));
	int n = 0;
	for (int i = 0; i < VOICES; ++i) n += s->voices[i].id != 0 && s->voices[i].paused == paused;
	return n;
}

/* snd:playing() -> boolean: a voice is playing (on the level's clock) */
static int sound_playing(lua_State *L)
{
	lua_pushboolean(L, count_voices(L, false) > 0);
	return 1;
}

/* snd:paused() -> boolean: a voice is paused and none plays */
static int sound_paused(lua_State *L)
{
	lua_pushboolean(L, count_voices(L, true) > 0 && count_voices(L, false) == 0);
	return 1;
}

static void apply_all(th_sound *s)
{
	double t = level_time(s);
	expire(s, t);
	for (int i = 0; i < VOICES; ++i) {
		if (s->voices[i].id != 0 && !held(s) && owned(&s->voices[i])) mix_gains(s, &s->voices[i]);
	}
}

/* snd:set_volume(v): 0 to 1, times each play's volume */
static int sound_set_volume(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	s->volume = check_range(L, 2, "set_volume", 0.0, 1.0);
	apply_all(s);
	return 0;
}

/* snd:set_pan(p): -1 (left) to 1 (right) */
static int sound_set_pan(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	s->pan = check_range(L, 2, "set_pan", -1.0, 1.0);
	apply_all(s);
	return 0;
}

/* snd:set_looping(b): the voices playing, and the default of the next plays */
static int sound_set_looping(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	if (lua_type(L, 2) != LUA_TBOOLEAN) return luaL_error(L, "set_looping: boolean expected, got %s", luaL_typename(L, 2));
	bool loop = lua_toboolean(L, 2);
	s->looping = loop;
	double t = level_time(s);
	expire(s, t);
	for (int i = 0; i < VOICES; ++i) {
		voice *v = &s->voices[i];
		if (v->id == 0 || v->loop == loop) continue;
		/* the position on the clock goes on from where the sound is now */
		v->pos = wrap(s, v, voice_pos(v, t));
		v->since = t;
		v->loop = loop;
		if (!v->paused) mix_start(s, v, t);
	}
	return 0;
}

/* snd:set_position(x, y) | snd:set_position(body) | snd:set_position(nil) */
static int sound_set_position(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	if (lua_isnoneornil(L, 2)) {
		s->placed = 0;
		lua_pushnil(L);
		lua_setiuservalue(L, 1, 1);
		apply_all(s);
		return 0;
	}
	if (lua_type(L, 2) == LUA_TNUMBER) {
		double x = check_range(L, 2, "set_position", -1e9, 1e9), y = check_range(L, 3, "set_position", -1e9, 1e9);
		s->placed = 1;
		s->px = x;
		s->py = y;
		lua_pushnil(L);
		lua_setiuservalue(L, 1, 1);
		apply_all(s);
		return 0;
	}
	tb_world *w;
	tb_body_id id;
	if (!tumble_lua_to_body(L, 2, &w, &id)) {
		const char *type = tumble_lua_typename(L, 2);
		const char *what = type == NULL ? luaL_typename(L, 2) : strcmp(type, "Body") == 0 ? "a destroyed Body" : type;
		return luaL_error(L, "set_position: x, y or a live Body expected, got %s", what);
	}
	tb_vec2 p = tb_body_get_position(w, id);
	s->placed = 2;
	s->px = p.x;
	s->py = p.y;
	lua_pushvalue(L, 2);
	lua_setiuservalue(L, 1, 1);
	apply_all(s);
	return 0;
}

/* snd:_mixer() -> what the mixer was told of the newest voice, for tests:
 * {channel, playing, paused, volume, left, right}, or nil when it is not on
 * the mixer (held back, no audio, no free channel, ended). */
static int sound_mixer(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	voice *v = newest(s);
	if (v == NULL || s->media == NULL || s->media->audio <= 0 || !owned(v)) {
		lua_pushnil(L);
		return 1;
	}
	int ch = v->channel;
	lua_createtable(L, 0, 6);
	lua_pushinteger(L, ch);
	lua_setfield(L, -2, "channel");
	lua_pushboolean(L, Mix_Playing(ch) && !Mix_Paused(ch));
	lua_setfield(L, -2, "playing");
	lua_pushboolean(L, Mix_Paused(ch));
	lua_setfield(L, -2, "paused");
	lua_pushnumber(L, Mix_Volume(ch, -1) / (double)MIX_MAX_VOLUME);
	lua_setfield(L, -2, "volume");
	lua_pushnumber(L, chan_left[ch]);
	lua_setfield(L, -2, "left");
	lua_pushnumber(L, chan_right[ch]);
	lua_setfield(L, -2, "right");
	const Mix_Chunk *c = Mix_GetChunk(ch);
	/* where the channel's chunk starts in the sound (a seek plays a tail) */
	double start = c != NULL && chan_src[ch] != NULL ? (double)(c->abuf - chan_src[ch]->abuf) / FRAME_BYTES / RATE * v->pitch : 0.0;
	lua_pushnumber(L, start);
	lua_setfield(L, -2, "start");
	return 1;
}

static const char *const sound_props[] = {"duration", "name", "volume", "pan", "looping", NULL};
static const luaL_Reg sound_methods[] = {
	{"play", sound_play},
	{"stop", sound_stop},
	{"pause", sound_pause},
	{"resume", sound_resume},
	{"seek", sound_seek},
	{"tell", sound_tell},
	{"playing", sound_playing},
	{"paused", sound_paused},
	{"set_volume", sound_set_volume},
	{"set_pan", sound_set_pan},
	{"set_looping", sound_set_looping},
	{"set_position", sound_set_position},
	{NULL, NULL},
};

static int sound_index(lua_State *L)
{
	th_sound *s = check_sound(L, 1);
	const char *k = luaL_checkstring(L, 2);
	if (strcmp(k, "duration") == 0) {
		lua_pushnumber(L, s->duration);
		return 1;
	}
	if (strcmp(k, "name") == 0) {
		lua_pushstring(L, s->name);
		return 1;
	}
	if (strcmp(k, "volume") == 0) {
		lua_pushnumber(L, s->volume);
		return 1;
	}
	if (strcmp(k, "pan") == 0) {
		lua_pushnumber(L, s->pan);
		return 1;
	}
	if (strcmp(k, "looping") == 0) {
		lua_pushboolean(L, s->looping);
		return 1;
	}
	for (int i = 0; sound_methods[i].name != NULL; ++i) {
		if (strcmp(sound_methods[i].name, k) == 0) {
			lua_pushcfunction(L, sound_methods[i].func);
			return 1;
		}
	}
	if (strcmp(k, "_mixer") == 0) {
		lua_pushcfunction(L, sound_mixer);
		return 1;
	}
	lua_pushnil(L);
	return 1;
}

static int sound_newindex(lua_State *L)
{
	return luaL_error(L, "Sound is read-only (cannot assign '%s'; use set_volume, set_pan, set_looping)",
	                  luaL_tolstring(L, 2, NULL));
}

static th_sound *new_sound(lua_State *L, th_level *lv, const char *name)
{
	/* the user value: the Body a positional sound follows */
	th_sound *s = lua_newuserdatauv(L, sizeof(th_sound), 1);
	memset(s, 0, sizeof(*s));
	s->media = lv->media;
	s->level = lv;
	s->volume = 1.0;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &all_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_createtable(L, 0, 1);
		lua_pushliteral(L, "k");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &all_key);
	}
	lua_pushvalue(L, -2);
	lua_pushboolean(L, 1);
	lua_rawset(L, -3);
	lua_pop(L, 1);
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
	th_sound *s = new_sound(L, lv, name);
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
	th_image_check_options(L, 1, names);
	double freq = th_opt_number(L, 1, "freq", 440.0, 20.0, 20000.0);
	double to = th_opt_number(L, 1, "to", freq, 20.0, 20000.0);
	double length = th_opt_number(L, 1, "length", 0.15, 0.005, 5.0);
	double volume = th_opt_number(L, 1, "volume", 0.5, 0.0, 1.0);
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
		play(L, -1, check_sound(L, -1), 1.0, 1.0, false);
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
	th_sound *s = new_sound(L, lv, name);
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
	play(L, -1, s, 1.0, 1.0, false);
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
