/* tumble host: what the user can ask of the host itself, from a key or from a
 * click in the dev overlay; one list serves both. The app carries actions
 * out; the ones that change the world go through the level (and its history)
 * so that a rebuild replays them. */
#ifndef TH_HOST_ACTION_H
#define TH_HOST_ACTION_H

#include <stdbool.h>

typedef enum th_action {
	TH_ACT_NONE,
	/* the run */
	TH_ACT_QUIT,
	TH_ACT_OVERLAY,
	TH_ACT_PAUSE,
	TH_ACT_STEP,
	TH_ACT_SLOWMO,
	TH_ACT_RESTART,
	TH_ACT_FULLSCREEN,
	TH_ACT_EDIT,          /* edit mode (F12, or `): app_edit.c takes the key first */
	/* the timeline (rewind): each pauses, and shows an earlier moment */
	TH_ACT_BACK,          /* half a second back */
	TH_ACT_FORWARD,       /* half a second forward, towards the present */
	TH_ACT_OLDEST,        /* the oldest moment kept */
	TH_ACT_PRESENT,       /* the present */
	TH_ACT_STEP_BACK,     /* one step back (the left arrow, while on the timeline) */
	TH_ACT_SEEK,          /* a click on the timeline: the step is the overlay's */
	/* draw layers, in TH_LAYER_* order */
	TH_ACT_LAYER_SHAPES,
	TH_ACT_LAYER_JOINTS,
	TH_ACT_LAYER_CONTACTS,
	TH_ACT_LAYER_AABBS,
	TH_ACT_LAYER_MASS,
	/* world settings: they change the simulation */
	TH_ACT_WARM,
	TH_ACT_POSITION,
	TH_ACT_SLEEP,
	TH_ACT_CONTINUOUS,
	TH_ACT_MOTION,
	TH_ACT_GRAVITY,
	TH_ACT_SUBSTEPS_DOWN,
	TH_ACT_SUBSTEPS_UP,
	TH_ACT_HERTZ_DOWN,
	TH_ACT_HERTZ_UP,
	TH_ACT_COUNT
} th_action;

typedef struct th_action_info {
	const char *key;  /* the key that does it by default (SDL name, lowercase), or NULL */
	const char *name; /* what it does, for the overlay */
	const char *id;   /* its name in level.conf's host_keys, or NULL: no key of its own */
} th_action_info;

const th_action_info *th_action_info_of(th_action a);
/* The action a key stands for; TH_ACT_NONE if the key is the level's. While
 * the level shows an earlier moment (reviewing), it gets no input, and the
 * arrows step along the timeline too. The keys are the ones in force
 * (th_action_use_keys). */
th_action th_action_for_key(const char *key, bool reviewing);

/* The host's keys as a level asks for them (level.conf: claim_keys, dev_keys,
 * host_keys; conf.c reads it). A claimed key is the level's: no action of the
 * host's fires for it. Without dev_keys only the player's actions (quit,
 * fullscreen) keep their keys. Closing the window always quits. */
#define TH_CLAIM_MAX 64
#define TH_KEY_NAME 32
typedef struct th_keymap {
	bool dev_off;                           /* dev_keys = false */
	bool remapped[TH_ACT_COUNT];            /* host_keys gave this action's key */
	char key[TH_ACT_COUNT][TH_KEY_NAME];    /* ... which ("" for none) */
	int claimed_count;
	char claimed[TH_CLAIM_MAX][TH_KEY_NAME];
} th_keymap;

/* The keys in force from now on; NULL: the defaults. The app puts a level's
 * keys in force while it listens, and the defaults while it cannot (an
 * error), so a level that claimed Escape and failed can still be left. One
 * host, one keymap: the map is not copied, it must outlive its use. */
void th_action_use_keys(const th_keymap *map);
/* The key that does a in the keys in force, or NULL. */
const char *th_action_key(th_action a);
/* The action whose host_keys name is id, or TH_ACT_NONE. */
th_action th_action_by_id(const char *id);
/* A player's action (quit, fullscreen): kept when dev_keys is false. */
bool th_action_is_player(th_action a);
bool th_action_is_setting(th_action a);
bool th_action_is_layer(th_action a);

/* Steps between the moments rewind keeps, and so how far the timeline's keys
 * move: half a second. */
#define TH_REWIND_INTERVAL 30

/* The speeds slow motion cycles through (F4), real time first. */
#define TH_TIME_SCALE_COUNT 4
extern const float th_time_scales[TH_TIME_SCALE_COUNT];

#endif
