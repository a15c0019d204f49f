/* tumble host: input events, SDL-free. The app turns SDL's queue (or a
 * recording being replayed) into these; the level applies the ones meant for
 * it; the history logs those so that a rebuild can apply them again. */
#ifndef TH_HOST_EVENT_H
#define TH_HOST_EVENT_H

#include <stdbool.h>

typedef enum th_event_type {
	TH_EV_KEY_DOWN,
	TH_EV_KEY_UP,
	TH_EV_MOUSE_DOWN,
	TH_EV_MOUSE_UP,
	TH_EV_MOUSE_MOVE,
	TH_EV_WHEEL,
	TH_EV_PAD_DOWN,
	TH_EV_PAD_UP,
	TH_EV_PAD_AXIS,
	TH_EV_PAD_CONNECT, /* button: 1 connected, 0 removed */
	TH_EV_RESIZE,
	TH_EV_QUIT,
	TH_EV_TEXT,        /* text typed (UTF-8 in name) */
	TH_EV_TOUCH_DOWN,  /* a finger: touch_id, x, y (pixels) */
	TH_EV_TOUCH_UP,
	TH_EV_TOUCH_MOVE,  /* ... and dx, dy */
	/* Operations of the dev tools on the world. They are never read from or
	 * written to a recording (the clicks that caused them are); the history
	 * logs them so that a rebuild applies them at the same moment. */
	TH_EV_SETTING,     /* button: the th_action that changes a world setting */
	TH_EV_EDIT,        /* edit mode set a property in the running world (edit_mode.h) */
} th_event_type;

/* th_event.flags */
enum {
	/* The dev overlay is open: a left press on a dynamic body drags it. */
	TH_EVF_DRAG = 1,
	/* The dev overlay took the press: the level only sees the pointer move. */
	TH_EVF_TAKEN = 2,
	/* A key down that is the keyboard's auto-repeat of a held key. */
	TH_EVF_REPEAT = 4,
};

/* Scancodes are SDL's (the USB usage of the key's place), below this. */
#define TH_SCANCODE_COUNT 512

typedef struct th_event {
	th_event_type type;
	int flags;
	char name[32];   /* key (SDL name, lowercase), gamepad button or axis, text */
	int scancode;    /* a key's place on the keyboard; 0: not known (the key's name stands for it) */
	long long touch_id; /* the finger */
	int button;      /* mouse button, SDL numbering: 1 left, 2 middle, 3 right, 4, 5 */
	int x, y;        /* mouse or finger position in pixels; resize: the new view size */
	int dx, dy;      /* mouse or finger motion in pixels */
	float wheel_x, wheel_y;
	float value;     /* gamepad axis in -1..1 */
} th_event;

/* What a level starts with besides its code: the input carried over from
 * before it (the pointer, a gamepad) and the view. The history keeps it, so
 * a rebuild starts the same way. */
typedef struct th_start_state {
	int mouse_x, mouse_y;
	bool pad_connected;
	int view_w, view_h;
} th_start_state;

#endif
