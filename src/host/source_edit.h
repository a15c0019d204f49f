/* tumble host: edits of a level's Lua source, written back as text (no SDL,
 * no Lua state). The editor (edit mode) asks the binding where an object was
 * made (tumble_lua_site_of in tumble_lua.h: chunk and line of the call), then
 * reads that call here, and changes the file through a session.
 *
 * A constructor call is named by its line and method: the line Lua reports
 * for the call (the line where the call's prefix expression starts, e.g. the
 * `world` of `world:body{...}` or `b` of `b:box{...}`) and the method name
 * ("body", "box", "circle", "capsule", "polygon", "segment", "chain",
 * "joint"). The call must take one table constructor (`m{...}` or `m({...})`).
 *
 * Every edit is a pure function from a text to a new text; everything outside
 * the changed bytes stays byte for byte. When anything is in doubt (the text
 * does not parse, two calls of that method on the line, the value is not a
 * literal, the object comes from a loop or a helper function) the edit is
 * refused with a message and changes nothing. The result is parsed again
 * before it is returned. */
#ifndef TH_SOURCE_EDIT_H
#define TH_SOURCE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#define TH_SOURCE_MAX_FIELDS 64
#define TH_SOURCE_TEXT 96 /* bytes kept of an expression's text (cut with "...") */

typedef enum th_value_kind {
	TH_VALUE_NUMBER,   /* a numeric literal, with one unary minus or none: 3, -0.5, 0x10, 1e3 */
	TH_VALUE_LITERAL,  /* another literal: a string, true, false, nil */
	TH_VALUE_COMPUTED, /* any other expression: a name, i * 1.05, a table, a call */
} th_value_kind;

typedef struct th_field {
	char name[32];      /* `name = value`; "[1]", "[2]"... for positional fields */
	size_t start, end;  /* bytes [start, end) of the value expression */
	int line;           /* the line the value starts on */
	th_value_kind kind;
	double number;      /* TH_VALUE_NUMBER: its value, minus applied */
	char text[TH_SOURCE_TEXT]; /* the expression as written, on one line */
} th_field;

typedef struct th_call {
	char method[16];
	int line;                   /* as Lua reports it: where the prefix starts */
	size_t start, end;          /* the whole call `world:body{...}` */
	size_t table_start, table_end; /* '{' .. '}' inclusive: [table_start, table_end) */
	int field_count;            /* fields past TH_SOURCE_MAX_FIELDS are not listed (and not edited) */
	th_field fields[TH_SOURCE_MAX_FIELDS];
	/* the statement it is part of, and why it may not be duplicated or deleted */
	size_t stmt_start, stmt_end; /* the statement's bytes */
	bool own_statement;  /* the call is the statement (`world:body{...}`, `b:box{...}`)
	                        or its only value (`local b = ...`, `s.b = ...`) */
	char local_name[64]; /* `local NAME = call`: NAME, else "" */
	bool in_loop;        /* inside a for, while or repeat body */
	char function[64];   /* the function it is in: "level.load", "sensor_box",
	                        "(anonymous)", or "" for the main chunk */
	bool in_helper;      /* that function is neither the main chunk nor a load
	                        function (named "load", or ending ".load" or
	                        ":load"): it may run many times */
} th_call;

/* Reads the call of method at line. False with a message if there is none,
 * more than one, or the text does not parse. */
bool th_source_find_call(const char *src, size_t len, int line, const char *method, th_call *out, char *err,
                         size_t errlen);

typedef struct th_call_ref {
	int line;
	char method[16];
} th_call_ref;

/* Every method call taking a table constructor, in source order: their
 * count (only the first max are written), or -1 with a message if the text
 * does not parse. */
int th_source_list_calls(const char *src, size_t len, th_call_ref *out, int max, char *err, size_t errlen);

/* The shortest text that reads back as the same double (%.17g at most);
 * false for infinities and NaN. */
bool th_source_format_number(double v, char *buf, size_t size);

/* ---- edits: each returns a new malloc'd text (*out, *out_len; free it) or
 * false with a message; src is never changed ---- */

/* Sets field (a name, or "name.sub" / "name.2" inside a nested table
 * constructor) of the call to value: a numeric literal is rewritten in place;
 * an absent field is added at the end of the constructor, in its style (one
 * line: ", name = v"; one field per line: a new line with the same indent and
 * separator). Refused for a computed or non-numeric value, or a call in a loop
 * or a helper only when refuse_shared is set (the editor says "N objects come
 * from this call" and may go ahead). */
bool th_source_set_number(const char *src, size_t len, int line, const char *method, const char *field, double value,
                          bool refuse_shared, char **out, size_t *out_len, char *err, size_t errlen);

/* Duplicates the object made by the call: the copy goes right after it.
 *  - `world:body{...}` / `b:box{...}` / `world:joint{...}` as a statement:
 *    that statement, copied;
 *  - `local b = world:body{...}`: that statement and the statements right
 *    after it (same block) that start with `b` (`b:box{...}`, `b.user = ...`),
 *    copied with b renamed to a fresh name (b2, b3, ... unused in the file);
 *  - anything else (`s.b = world:body{...}`, a call inside an expression) is
 *    refused.
 * The copy's x is offset by dx: a body's x, a circle's or box's x (its local
 * offset), a capsule's or segment's x1 and x2 (or [1] and [3] of a list), a
 * polygon's or chain's odd list entries; a literal is rewritten, an absent x
 * is added as dx, a computed one becomes (expr) + dx. A joint's copy is not
 * moved. Refused in a loop or a helper. */
bool th_source_duplicate(const char *src, size_t len, int line, const char *method, double dx, char **out,
                         size_t *out_len, char *err, size_t errlen);

/* Deletes what th_source_duplicate would copy (whole lines when it has its
 * lines to itself). Refused in a loop or a helper, and when the local it
 * names is used after the deleted statements. */
bool th_source_delete(const char *src, size_t len, int line, const char *method, char **out, size_t *out_len,
                      char *err, size_t errlen);

typedef enum th_palette_kind {
	TH_PALETTE_BOX,      /* a dynamic body with a box */
	TH_PALETTE_CIRCLE,   /* a dynamic body with a circle */
	TH_PALETTE_CAPSULE,  /* a dynamic body with a horizontal capsule */
	TH_PALETTE_PLATFORM, /* a static body with a box */
	TH_PALETTE_JOINT,    /* a revolute joint between two named bodies at (x, y) */
} th_palette_kind;

typedef struct th_palette_item {
	th_palette_kind kind;
	double x, y;        /* the body's position (the joint's anchor) */
	double w, h;        /* box, platform: size; capsule: w = length between the centres */
	double r;           /* circle, capsule: radius */
	/* joint: the bodies, by the calls that made them; each must be
	 * `local NAME = world:body{...}` in the load function's own block */
	int line_a, line_b;
} th_palette_item;

/* Inserts the item as new statements at the end of the load function
 * (`function level.load(world)`, `function load(world)`, `level.load =
 * function(world)`), before its closing `end`, indented as its other
 * statements, using its world parameter's name; a body gets a fresh local name
 * (box1, circle1, capsule1, platform1...). On success *new_line is the line of
 * the new body's (or joint's) call. */
bool th_source_insert(const char *src, size_t len, const th_palette_item *item, char **out, size_t *out_len,
                      int *new_line, char *err, size_t errlen);

/* ---- a session: edits of one file, with undo and redo ---- */

typedef struct th_source_session th_source_session;

/* Reads path; NULL with a message if it cannot be read. */
th_source_session *th_source_open(const char *path, char *err, size_t errlen);
void th_source_close(th_source_session *s);
/* The text as this session last read or wrote it (not NUL-terminated beyond len). */
const char *th_source_text(const th_source_session *s, size_t *len);
/* The text the session was opened with. */
const char *th_source_original(const th_source_session *s, size_t *len);
int th_source_undo_count(const th_source_session *s);
int th_source_redo_count(const th_source_session *s);

typedef enum th_edit_op { TH_EDIT_SET_NUMBER, TH_EDIT_DUPLICATE, TH_EDIT_DELETE, TH_EDIT_INSERT } th_edit_op;

typedef struct th_source_edit {
	th_edit_op op;
	int line;             /* SET_NUMBER, DUPLICATE, DELETE: the call */
	const char *method;
	const char *field;    /* SET_NUMBER */
	double value;         /* SET_NUMBER: the value; DUPLICATE: dx */
	bool refuse_shared;   /* SET_NUMBER */
	th_palette_item item; /* INSERT */
	int new_line;         /* out: INSERT's new line */
} th_source_edit;

/* Applies the edit and writes the file atomically (a temporary file in the
 * same folder, then rename). The file is read first: if it changed on disk
 * since the session last read or wrote it, the changed text is taken as the
 * session's text, provided the call to change is still there with the same
 * bytes (else refused: "the text to change is no longer there"). On refusal
 * nothing changes, on disk or in the session. */
bool th_source_apply(th_source_session *s, th_source_edit *edit, char *err, size_t errlen);

/* Applies n edits as one: each to the text the one before it made, then one
 * write and one undo step. All or nothing: if any is refused, nothing
 * changes, on disk or in the session. Lines are those of the text before the
 * group (edits that add or remove lines go last). */
bool th_source_apply_group(th_source_session *s, th_source_edit *edits, int n, char *err, size_t errlen);

/* Takes the file as it is on disk as the session's text: for after the
 * level was rebuilt from it, when the objects' lines are the file's. Undo
 * and redo stay refused until the text is again one they wrote. */
bool th_source_reread(th_source_session *s, char *err, size_t errlen);

/* Undo puts back the text before the last applied edit, redo the one after
 * it; both write the file. Refused (nothing changes) if there is nothing to
 * undo or redo, or if the file on disk is no longer the text the session
 * wrote (an editor saved it since): undoing then would lose that change. */
bool th_source_undo(th_source_session *s, char *err, size_t errlen);
bool th_source_redo(th_source_session *s, char *err, size_t errlen);

#endif
