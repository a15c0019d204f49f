/* tumble host: edit mode (F12), the app's side. It is driven by the same
 * input events as everything else: th_app_handle_event records each event,
 * then offers it here first, so --record holds the clicks and keys of an
 * editing session and --replay (headless too) repeats it exactly. Nothing in
 * it reads the clock or the picture: the inspector's layout depends on the
 * view's size only, like the timeline's.
 *
 * An edit is a property of a body, shape or joint set to a value. It changes
 * the source that made the object when that can be done (write-back, then the
 * structural reload); otherwise it goes to the running world only, through
 * the level's history (TH_EV_EDIT, applied by edit_lua.c), so a rebuild or a
 * rewind replays it at the same step, and the inspector says "not saved".
 *
 * app_edit.c handles the events, edit_lua.c reads and sets properties through
 * the binding, edit_draw.c draws the selection, the handles and the
 * inspector; edit.c is the geometry (edit.h). */
#ifndef TH_HOST_EDIT_MODE_H
#define TH_HOST_EDIT_MODE_H

#include <stdbool.h>

#include "edit.h"
#include "event.h"

struct th_level;
struct th_source_session;
struct tumble_lua_site;

#define TH_EDIT_MAX_SEL 64
#define TH_EDIT_MAX_PROPS 160

/* One line of the inspector: a header (an object) or a property. */
typedef struct th_edit_prop {
	th_sel obj;
	bool header;
	char name[32];    /* the property ("field.fy" for a key of a table value); a header's text */
	char value[64];   /* as shown */
	bool number, integer, boolean, writable;
	double num;
	bool flag;
} th_edit_prop;

typedef enum th_edit_drag {
	TH_EDRAG_NONE,
	TH_EDRAG_PRESS,    /* pressed on an object, not moved yet */
	TH_EDRAG_MOVE,
	TH_EDRAG_HANDLE,   /* a handle other than move */
	TH_EDRAG_BOX,      /* selecting by a box on empty space */
	TH_EDRAG_SCRUB,    /* a number of the inspector, dragged sideways */
} th_edit_drag;

typedef struct th_edit {
	bool on;
	bool was_paused;
	th_sel sel[TH_EDIT_MAX_SEL];
	int sel_count;
	bool snap;
	double grid;               /* metres */
	/* a drag in progress: what it holds and where it started (pixels) */
	th_edit_drag drag;
	int press_x, press_y, at_x, at_y;
	bool press_shift;
	th_handle handle;          /* TH_EDRAG_HANDLE */
	int prop;                  /* TH_EDRAG_SCRUB, typing: the inspector line */
	double scrub_from;
	/* typing a number into the inspector */
	bool typing;
	char typed[40];
	/* the inspector's lines, read at the last change (th_edit_refresh) */
	th_edit_prop props[TH_EDIT_MAX_PROPS];
	int prop_count;
	int scroll;
	char status[256];          /* the last edit's message, shown under the panel */
	/* write-back: the level's file as this run edits it, and an edit of a
	 * call that makes several objects, said once and done when repeated */
	struct th_source_session *source;
	/* an edit was made while an earlier moment was shown: going on from it
	 * keeps the recording whole (app_record.c) */
	bool edited_while_reviewing;
	/* the properties set in the running world only, for the inspector's
	 * "not saved" (the oldest forgotten past the limit) */
	struct { th_sel obj; char name[32]; } unsaved[32];
	int unsaved_count;
	int confirm_line;
	char confirm_field[32];
	double confirm_value;
	/* one user action's numbers (a move's x and y, each selected body's),
	 * gathered while grouping and written as one edit, one undo step */
	bool grouping;
	int group_count;
	struct { int line; char method[16]; char field[32]; double value; char said[128]; char where[200]; } group[2 * TH_EDIT_MAX_SEL];
} th_edit;

/* A change an edit makes: a property of an object set to a value. */
typedef struct th_edit_change {
	th_sel obj;
	char name[32];
	int kind;          /* TH_EDIT_NUMBER, _INTEGER, _BOOLEAN */
	double value;
	long long integer; /* an integer, or a boolean's 0 or 1 */
	bool source_only;  /* a constructor option with no property (a segment's ends, a joint's anchor) */
} th_edit_change;

/* What the source made of an edit. */
typedef enum th_edit_writeback {
	TH_WB_WRITTEN,    /* the file changed, and the level was rebuilt from it */
	TH_WB_REFUSED,    /* nothing changed anywhere: the message says why */
	TH_WB_WORLD_ONLY, /* the source cannot take it: the running world may */
} th_edit_writeback;

typedef enum th_edit_structure_op {
	TH_STRUCT_DUPLICATE,
	TH_STRUCT_DELETE,
	TH_STRUCT_ADD_BOX,
	TH_STRUCT_ADD_CIRCLE,
	TH_STRUCT_ADD_CAPSULE,
	TH_STRUCT_ADD_PLATFORM,
	TH_STRUCT_ADD_JOINT,
} th_edit_structure_op;

/* The inspector's place in the view: it depends on the view's size only. */
#define TH_EDIT_PANEL_W 420
#define TH_EDIT_ROW_H 12
typedef struct th_edit_layout {
	int x, y, w, h;
	int rows_y, rows; /* the first line's top, and how many fit */
} th_edit_layout;

/* TH_EV_EDIT's fields: name is the property, button the th_sel_kind, x and y
 * the object's slot and generation, dx the value's kind, value the number
 * (dy the integer or the boolean). */
enum { TH_EDIT_NUMBER, TH_EDIT_INTEGER, TH_EDIT_BOOLEAN };

/* edit_lua.c (a part of the level: it calls nothing of level.c) */
/* The inspector's lines for the selection: each object's header and its
 * properties, as the binding's property tables list them. */
int th_edit_read(struct th_level *lv, const th_sel *sel, int sel_count, th_edit_prop *out, int cap);
/* Sets the property an edit event names; false (and a message) if the
 * binding refused it. */
bool th_edit_apply(struct th_level *lv, const th_event *ev, char *message, int size);
/* Reads each of lv->plot_this into its series of lv->plot for the frame
 * being run (a number, or a boolean as 0 or 1); drops one whose object is
 * gone or whose value cannot be plotted. */
void th_edit_plot_step(struct th_level *lv);
/* Where the binding says the object was made; false if it does not know. */
bool th_edit_site(struct th_level *lv, th_sel s, struct tumble_lua_site *out);

#endif
