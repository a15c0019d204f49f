/* tumble host: SDL's events into the host's own, which know no SDL
 * (event.h): what the level, the history and the recordings are made of. */
#ifndef TH_HOST_SDL_EVENT_H
#define TH_HOST_SDL_EVENT_H

#include <stdbool.h>
#include <SDL.h>

#include "event.h"

/* e as the host's event ev; false for one the host does not use (an unnamed
 * key, a mouse button past TH_MOUSE_BUTTONS, a second
 * gamepad). A gamepad plugged in is opened into *pad and closed when it is
 * unplugged; a resized window's size is read from renderer, in pixels. */
bool th_event_from_sdl(const SDL_Event *e, th_event *ev, SDL_GameController **pad, SDL_Renderer *renderer);

#endif
