/* tumble host: the host's actions and their keys (action.h). */
#include "action.h"

#include <string.h>

const float th_time_scales[TH_TIME_SCALE_COUNT] = {1.0f, 0.5f, 0.25f, 0.1f};

static const th_action_info actions[TH_ACT_COUNT] = {
	[TH_ACT_NONE] = {NULL, ""},
	[TH_ACT_QUIT] = {"escape", "quit"},
	[TH_ACT_OVERLAY] = {"f1", "overlay"},
	[TH_ACT_PAUSE] = {"f2", "pause"},
	[TH_ACT_STEP] = {"f3", "step"},
	[TH_ACT_SLOWMO] = {"f4", "slow motion"},
	[TH_ACT_RESTART] = {"f5", "restart"},
	[TH_ACT_FULLSCREEN] = {"f11", "fullscreen"},
	[TH_ACT_EDIT] = {"f12", "edit mode"},
	[TH_ACT_BACK] = {"pageup", "back 0.5 s"},
	[TH_ACT_FORWARD] = {"pagedown", "forward 0.5 s"},
	[TH_ACT_OLDEST] = {"home", "oldest moment"},
	[TH_ACT_PRESENT] = {"end", "the present"},
	[TH_ACT_STEP_BACK] = {NULL, "step back"},
	[TH_ACT_SEEK] = {NULL, "seek"},
	[TH_ACT_LAYER_SHAPES] = {"f6", "shapes"},
	[TH_ACT_LAYER_JOINTS] = {"f7", "joints"},
	[TH_ACT_LAYER_CONTACTS] = {"f8", "contacts"},
	[TH_ACT_LAYER_AABBS] = {"f9", "AABBs"},
	[TH_ACT_LAYER_MASS] = {"f10", "centres of mass"},
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

th_action th_action_for_key(const char *key, bool reviewing)
{
	/* where a browser takes F12 for its developer tools */
	if (strcmp(key, "`") == 0) return TH_ACT_EDIT;
	if (reviewing && strcmp(key, "left") == 0) return TH_ACT_STEP_BACK;
	if (reviewing && strcmp(key, "right") == 0) return TH_ACT_STEP;
	for (int a = TH_ACT_NONE + 1; a < TH_ACT_COUNT; ++a) {
		if (actions[a].key != NULL && strcmp(actions[a].key, key) == 0) return (th_action)a;
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
