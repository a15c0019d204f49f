/* tumble host: the host's actions and their keys (action.h). */
#include "action.h"

#include <string.h>

const float th_time_scales[TH_TIME_SCALE_COUNT] = {1.0f, 0.5f, 0.25f, 0.1f};

static const th_action_info actions[TH_ACT_COUNT] = {
	[TH_ACT_NONE] = {NULL, ""},
	[TH_ACT_QUIT] = {"escape", "quit", "quit"},
	[TH_ACT_OVERLAY] = {"f1", "overlay", "overlay"},
	[TH_ACT_PAUSE] = {"f2", "pause", "pause"},
	[TH_ACT_STEP] = {"f3", "step", "step"},
	[TH_ACT_SLOWMO] = {"f4", "slow motion", "slowmo"},
	[TH_ACT_RESTART] = {"f5", "restart", "restart"},
	[TH_ACT_FULLSCREEN] = {"f11", "fullscreen", "fullscreen"},
	[TH_ACT_EDIT] = {"f12", "edit mode", "edit"},
	[TH_ACT_BACK] = {"pageup", "back 0.5 s", "back"},
	[TH_ACT_FORWARD] = {"pagedown", "forward 0.5 s", "forward"},
	[TH_ACT_OLDEST] = {"home", "oldest moment", "oldest"},
	[TH_ACT_PRESENT] = {"end", "the present", "present"},
	[TH_ACT_STEP_BACK] = {NULL, "step back"},
	[TH_ACT_SEEK] = {NULL, "seek"},
	[TH_ACT_LAYER_SHAPES] = {"f6", "shapes", "shapes"},
	[TH_ACT_LAYER_JOINTS] = {"f7", "joints", "joints"},
	[TH_ACT_LAYER_CONTACTS] = {"f8", "contacts", "contacts"},
	[TH_ACT_LAYER_AABBS] = {"f9", "AABBs", "aabbs"},
	[TH_ACT_LAYER_MASS] = {"f10", "centres of mass", "mass"},
	[TH_ACT_WARM] = {NULL, "warm starting"},
	[TH_ACT_POSITION] = {NULL, "position correction"},
	[TH_ACT_SLEEP] = {NULL, "sleeping"},
	[TH_ACT_CONTINUOUS] = {NULL, "continuous"},
	[TH_ACT_MOTION] = {NULL, "motion"},
	[TH_ACT_GRAVITY] = {NULL, "gravity"},
	[TH_ACT_SUBSTEPS_DOWN] = {NULL, "fewer substeps"},
	[TH_ACT_SUBSTEPS_UP] = {NULL, "more substeps"},
	[TH_ACT_HERTZ_DOWN] = {NULL, "softer contacts"},
	[TH_ACT_HERTZ_UP] = {NULL, "stiffer contacts"},
};

const th_action_info *th_action_info_of(th_action a)
{
	return &actions[a > TH_ACT_NONE && a < TH_ACT_COUNT ? a : TH_ACT_NONE];
}

static const th_keymap *in_force;

void th_action_use_keys(const th_keymap *map)
{
	in_force = map;
}

bool th_action_is_player(th_action a)
{
	return a == TH_ACT_QUIT || a == TH_ACT_FULLSCREEN;
}

const char *th_action_key(th_action a)
{
	if (a <= TH_ACT_NONE || a >= TH_ACT_COUNT) return NULL;
	const th_keymap *m = in_force;
	const char *key = actions[a].key;
	if (m != NULL) {
		if (m->dev_off && !th_action_is_player(a)) return NULL;
		if (m->remapped[a]) key = m->key[a][0] != '\0' ? m->key[a] : NULL;
	}
	return key;
}

static bool claimed(const char *key)
{
	const th_keymap *m = in_force;
	if (m == NULL) return false;
	for (int i = 0; i < m->claimed_count; ++i) {
		if (strcmp(m->claimed[i], key) == 0) return true;
	}
	return false;
}

th_action th_action_by_id(const char *id)
{
	for (int a = TH_ACT_NONE + 1; a < TH_ACT_COUNT; ++a) {
		if (actions[a].id != NULL && strcmp(actions[a].id, id) == 0) return (th_action)a;
	}
	return TH_ACT_NONE;
}

th_action th_action_for_key(const char *key, bool reviewing)
{
	/* While an earlier moment is shown the level gets no input, so a claim
	 * does not hold the timeline's arrows. */
	if (reviewing && strcmp(key, "left") == 0) return TH_ACT_STEP_BACK;
	if (reviewing && strcmp(key, "right") == 0) return TH_ACT_STEP;
	if (claimed(key)) return TH_ACT_NONE;
	/* where a browser takes F12 for its developer tools: with edit mode's
	 * default key only */
	const char *edit = th_action_key(TH_ACT_EDIT);
	if (strcmp(key, "`") == 0 && edit != NULL && strcmp(edit, "f12") == 0) return TH_ACT_EDIT;
	for (int a = TH_ACT_NONE + 1; a < TH_ACT_COUNT; ++a) {
		const char *k = th_action_key((th_action)a);
		if (k != NULL && strcmp(k, key) == 0) return (th_action)a;
	}
	return TH_ACT_NONE;
}

bool th_action_is_setting(th_action a)
{
	return a >= TH_ACT_WARM && a <= TH_ACT_HERTZ_UP;
}

bool th_action_is_layer(th_action a)
{
	return a >= TH_ACT_LAYER_SHAPES && a <= TH_ACT_LAYER_MASS;
}
