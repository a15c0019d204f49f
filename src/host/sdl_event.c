/* tumble host: SDL's events as the host's own (sdl_event.h). */
#include "sdl_event.h"
#include "input.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool th_event_from_sdl(const SDL_Event *e, th_event *ev, SDL_GameController **pad, SDL_Renderer *renderer)
{
	memset(ev, 0, sizeof(*ev));
	switch (e->type) {
	case SDL_QUIT: ev->type = TH_EV_QUIT; return true;
	case SDL_KEYDOWN:
	case SDL_KEYUP:
		th_key_name_normalize(ev->name, sizeof(ev->name), SDL_GetKeyName(e->key.keysym.sym));
		if (ev->name[0] == '\0') return false;
		ev->type = e->type == SDL_KEYDOWN ? TH_EV_KEY_DOWN : TH_EV_KEY_UP;
		if (e->key.repeat && e->type == SDL_KEYDOWN) ev->flags |= TH_EVF_REPEAT;
		if (e->key.keysym.scancode > 0 && e->key.keysym.scancode < TH_SCANCODE_COUNT) {
			ev->scancode = (int)e->key.keysym.scancode;
		}
		return true;
	case SDL_MOUSEBUTTONDOWN:
	case SDL_MOUSEBUTTONUP:
		if (e->button.button < 1 || e->button.button >= TH_MOUSE_BUTTONS) return false;
		ev->type = e->type == SDL_MOUSEBUTTONDOWN ? TH_EV_MOUSE_DOWN : TH_EV_MOUSE_UP;
		ev->button = e->button.button;
		ev->x = e->button.x;
		ev->y = e->button.y;
		return true;
	case SDL_MOUSEMOTION:
		ev->type = TH_EV_MOUSE_MOVE;
		ev->x = e->motion.x;
		ev->y = e->motion.y;
		ev->dx = e->motion.xrel;
		ev->dy = e->motion.yrel;
		return true;
	case SDL_MOUSEWHEEL: {
		float flip = e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -1.0f : 1.0f;
		ev->type = TH_EV_WHEEL;
		ev->wheel_x = flip * e->wheel.preciseX;
		ev->wheel_y = flip * e->wheel.preciseY;
		return true;
	}
	case SDL_FINGERDOWN:
	case SDL_FINGERUP:
	case SDL_FINGERMOTION: {
		/* SDL gives the finger in 0..1 of the window; the host's are pixels */
		int w = 0, h = 0;
		if (renderer == NULL || SDL_GetRendererOutputSize(renderer, &w, &h) != 0 || w <= 0 || h <= 0) return false;
		const SDL_TouchFingerEvent *f = &e->tfinger;
		if (!isfinite(f->x) || !isfinite(f->y) || !isfinite(f->dx) || !isfinite(f->dy) || fabsf(f->x) > 2.0f ||
		    fabsf(f->y) > 2.0f || fabsf(f->dx) > 4.0f || fabsf(f->dy) > 4.0f) {
			return false;
		}
		ev->type = e->type == SDL_FINGERDOWN ? TH_EV_TOUCH_DOWN : e->type == SDL_FINGERUP ? TH_EV_TOUCH_UP : TH_EV_TOUCH_MOVE;
		ev->touch_id = (long long)e->tfinger.fingerId;
		ev->x = (int)lrintf(e->tfinger.x * (float)w);
		ev->y = (int)lrintf(e->tfinger.y * (float)h);
		if (ev->type == TH_EV_TOUCH_MOVE) {
			ev->dx = (int)lrintf(e->tfinger.dx * (float)w);
			ev->dy = (int)lrintf(e->tfinger.dy * (float)h);
		}
		return true;
	}
	case SDL_CONTROLLERDEVICEADDED:
		if (*pad != NULL) return false;
		*pad = SDL_GameControllerOpen(e->cdevice.which);
		if (*pad == NULL) return false;
		ev->type = TH_EV_PAD_CONNECT;
		ev->button = 1;
		return true;
	case SDL_CONTROLLERDEVICEREMOVED:
		if (*pad == NULL || SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(*pad)) != e->cdevice.which) return false;
		SDL_GameControllerClose(*pad);
		*pad = NULL;
		ev->type = TH_EV_PAD_CONNECT;
		ev->button = 0;
		return true;
	case SDL_CONTROLLERBUTTONDOWN:
	case SDL_CONTROLLERBUTTONUP: {
		const char *name = SDL_GameControllerGetStringForButton((SDL_GameControllerButton)e->cbutton.button);
		if (name == NULL) return false;
		ev->type = e->type == SDL_CONTROLLERBUTTONDOWN ? TH_EV_PAD_DOWN : TH_EV_PAD_UP;
		snprintf(ev->name, sizeof(ev->name), "%s", name);
		return true;
	}
	case SDL_CONTROLLERAXISMOTION: {
		const char *name = SDL_GameControllerGetStringForAxis((SDL_GameControllerAxis)e->caxis.axis);
		if (name == NULL) return false;
		ev->type = TH_EV_PAD_AXIS;
		snprintf(ev->name, sizeof(ev->name), "%s", name);
		float v = (float)e->caxis.value / 32767.0f;
		ev->value = v < -1.0f ? -1.0f : v;
		return true;
	}
	case SDL_TEXTINPUT:
		ev->type = TH_EV_TEXT;
		snprintf(ev->name, sizeof(ev->name), "%s", e->text.text);
		return ev->name[0] != '\0';
	case SDL_WINDOWEVENT:
		if (e->window.event != SDL_WINDOWEVENT_SIZE_CHANGED) return false;
		ev->type = TH_EV_RESIZE;
		SDL_GetRendererOutputSize(renderer, &ev->x, &ev->y);
		return ev->x > 0 && ev->y > 0;
	default: return false;
	}
}
