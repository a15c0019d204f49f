/* tumble host: the level's input state for polling (tumble.input) and its
 * edges. Edges ("pressed", "released") belong to fixed steps, not to rendered
 * frames: they stay set until the next step has run, so an update never
 * misses a press however frames and steps interleave. */
#ifndef TH_HOST_INPUT_H
#define TH_HOST_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <lua.h>

#include "event.h"

#define TH_MAX_KEYS 64
#define TH_MOUSE_BUTTONS 6
#define TH_PAD_BUTTONS 32
#define TH_PAD_AXES 8

struct th_level;

typedef struct th_key_state {
	char name[32];
	bool down, pressed, released;
} th_key_state;

typedef struct th_input {
	th_key_state keys[TH_MAX_KEYS];
	int key_count;
	bool mouse_down[TH_MOUSE_BUTTONS], mouse_pressed[TH_MOUSE_BUTTONS], mouse_released[TH_MOUSE_BUTTONS];
	int mouse_x, mouse_y; /* pixels */
	float wheel_x, wheel_y; /* since the last step */
	bool pad_connected;
	bool pad_down[TH_PAD_BUTTONS], pad_pressed[TH_PAD_BUTTONS], pad_released[TH_PAD_BUTTONS];
	float pad_axis[TH_PAD_AXES];
	/* What the level asked of the keyboard and the pointer; part of its
	 * input so that a rewind takes it back too. */
	bool key_repeat;      /* keypressed also gets the keyboard's auto-repeat */
	bool cursor_hidden, cursor_grabbed;
} th_input;

/* Nothing held; the pointer at (mouse_x, mouse_y), a gamepad connected or not
 * (what a level sees at its start: the history keeps it for rebuilds). */
void th_input_reset(th_input *in, int mouse_x, int mouse_y, bool pad_connected);
void th_input_apply(th_input *in, const th_event *ev);
void th_input_end_step(th_input *in);

/* tumble.input into the tumble table on top of the stack. */
void th_input_open_lua(struct th_level *lv, lua_State *L);

const char *th_mouse_button_name(int button);
void th_key_name_normalize(char *dst, size_t size, const char *src);
/* The name of a key's scancode (SDL's, lowercase) into out; the key's own
 * name when the scancode is not known (0, as in older recordings). */
void th_scancode_name(char *out, size_t size, int scancode, const char *key);
/* A key name SDL knows (lowercase, as th_key_name_normalize makes it). */
bool th_key_name_known(const char *name);

#endif
