/* tumble host: the options' defaults (options.h). */
#include "options.h"

#include <string.h>

void th_app_default_options(th_app_options *o)
{
	memset(o, 0, sizeof(*o));
	o->frames = 0;
	o->screenshot_frame = -1;
	o->watch = -1;
	o->watch_poll_ms = 250;
	o->time_limit = 1.0;
	o->output_limit_mb = -1.0;
	o->width = 1280;
	o->height = 720;
	o->rewind_seconds = 60.0;
	o->rewind_mb = 256.0;
}
