/* tumble host: the application entry point (its options: options.h). */
#ifndef TH_HOST_APP_H
#define TH_HOST_APP_H

#include <stdbool.h>

#include "options.h"

/* Runs the application; returns the process exit status. */
int th_app_run(const th_app_options *options);

/* The same in pieces, for a main loop that is not ours (a browser's): open
 * (NULL, with the exit status, if the run cannot start), then frames until
 * one returns false, then close, which returns the exit status. A frame
 * never waits; th_app_run paces them. */
typedef struct th_app th_app;
th_app *th_app_open(const th_app_options *options, int *status);
bool th_app_frame(th_app *app);
int th_app_close(th_app *app);

#endif
