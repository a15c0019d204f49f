/* png_probe: reads a screenshot with SDL2_image (a decoder independent of the
 * host's PNG writer) and answers questions about its pixels, for playtests.
 *
 *   png_probe FILE                      -> "W H"
 *   png_probe FILE at X Y               -> "R G B A" (0..255) of pixel (X, Y)
 *   png_probe FILE count X0 Y0 X1 Y1 R G B TOL
 *                                       -> how many pixels of the rectangle
 *                                          (inclusive) are within TOL of R G B
 *   png_probe FILE bbox R G B TOL       -> "X0 Y0 X1 Y1": the smallest rectangle
 *                                          holding every pixel within TOL of
 *                                          R G B, or "none"
 *   png_probe FILE diff OTHER           -> how many pixels differ
 *   png_probe FILE jpeg OUT             -> writes the picture as a JPEG (a
 *                                          fixture for the host's JPEG loading)
 *   png_probe blank W H OUT             -> writes a W x H grey PNG (big fixtures)
 *
 * Exit status 2 on a bad file or arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <SDL.h>
#include <SDL_image.h>

static SDL_Surface *load(const char *path)
{
	SDL_Surface *raw = IMG_Load(path);
	if (raw == NULL) {
		fprintf(stderr, "png_probe: %s: %s\n", path, IMG_GetError());
		exit(2);
	}
	SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_RGBA32, 0);
	SDL_FreeSurface(raw);
	if (s == NULL) exit(2);
	return s;
}

static const Uint8 *at(SDL_Surface *s, int x, int y)
{
	return (const Uint8 *)s->pixels + y * s->pitch + x * 4;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: png_probe FILE [at X Y | count X0 Y0 X1 Y1 R G B TOL | diff OTHER]\n");
		return 2;
	}
	if (strcmp(argv[1], "blank") == 0 && argc == 5) {
		SDL_Surface *b = SDL_CreateRGBSurfaceWithFormat(0, atoi(argv[2]), atoi(argv[3]), 32, SDL_PIXELFORMAT_RGBA32);
		if (b == NULL) return 2;
		SDL_FillRect(b, NULL, SDL_MapRGBA(b->format, 128, 128, 128, 255));
		return IMG_SavePNG(b, argv[4]) == 0 ? 0 : 2;
	}
	SDL_Surface *s = load(argv[1]);
	if (argc == 2) {
		printf("%d %d\n", s->w, s->h);
	} else if (strcmp(argv[2], "at") == 0 && argc == 5) {
		int x = atoi(argv[3]), y = atoi(argv[4]);
		if (x < 0 || y < 0 || x >= s->w || y >= s->h) return 2;
		const Uint8 *p = at(s, x, y);
		printf("%d %d %d %d\n", p[0], p[1], p[2], p[3]);
	} else if (strcmp(argv[2], "count") == 0 && argc == 11) {
		int x0 = atoi(argv[3]), y0 = atoi(argv[4]), x1 = atoi(argv[5]), y1 = atoi(argv[6]);
		int c[3] = {atoi(argv[7]), atoi(argv[8]), atoi(argv[9])}, tol = atoi(argv[10]);
		long n = 0;
		for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < s->h; ++y) {
			for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < s->w; ++x) {
				const Uint8 *p = at(s, x, y);
				if (abs(p[0] - c[0]) <= tol && abs(p[1] - c[1]) <= tol && abs(p[2] - c[2]) <= tol) n += 1;
			}
		}
		printf("%ld\n", n);
	} else if (strcmp(argv[2], "bbox") == 0 && argc == 7) {
		int c[3] = {atoi(argv[3]), atoi(argv[4]), atoi(argv[5])}, tol = atoi(argv[6]);
		int x0 = s->w, y0 = s->h, x1 = -1, y1 = -1;
		for (int y = 0; y < s->h; ++y) {
			for (int x = 0; x < s->w; ++x) {
				const Uint8 *p = at(s, x, y);
				if (abs(p[0] - c[0]) > tol || abs(p[1] - c[1]) > tol || abs(p[2] - c[2]) > tol) continue;
				if (x < x0) x0 = x;
				if (y < y0) y0 = y;
				if (x > x1) x1 = x;
				if (y > y1) y1 = y;
			}
		}
		if (x1 < 0) {
			printf("none\n");
		} else {
			printf("%d %d %d %d\n", x0, y0, x1, y1);
		}
	} else if (strcmp(argv[2], "jpeg") == 0 && argc == 4) {
		if (IMG_SaveJPG(s, argv[3], 95) != 0) {
			fprintf(stderr, "png_probe: %s: %s\n", argv[3], IMG_GetError());
			return 2;
		}
	} else if (strcmp(argv[2], "diff") == 0 && argc == 4) {
		SDL_Surface *o = load(argv[3]);
		if (o->w != s->w || o->h != s->h) {
			printf("%d\n", s->w * s->h);
			return 0;
		}
		long n = 0;
		for (int y = 0; y < s->h; ++y) {
			for (int x = 0; x < s->w; ++x) n += memcmp(at(s, x, y), at(o, x, y), 3) != 0;
		}
		printf("%ld\n", n);
	} else {
		fprintf(stderr, "png_probe: bad arguments\n");
		return 2;
	}
	return 0;
}
