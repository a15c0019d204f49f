/* tumble host: plots (see plot.h). */
#include "plot.h"

#include "level.h"
#include "render.h"
#include "font.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

void th_plot_init(th_plot *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < TH_PLOT_MAX_SERIES; ++i) p->pending[i] = NAN;
	for (int i = 0; i < TH_PLOT_FRAMES; ++i) p->ring_frame[i] = -1;
}

const char *th_plot_value(th_plot *p, const char *name, size_t name_len, double value)
{
	if (name_len == 0) return "the series name is empty";
	if (name_len > TH_PLOT_NAME_MAX) return "the series name is longer than 64 bytes";
	for (size_t i = 0; i < name_len; ++i) {
		unsigned char c = (unsigned char)name[i];
		if (c < 0x20 || c == 0x7f || c == ',' || c == '"') {
			return "the series name has a comma, a quote or a control character (it is a CSV column name)";
		}
	}
	if (!isfinite(value)) return "the value is not a finite number (NaN or infinite)";
	int i = 0;
	while (i < p->count && !(strlen(p->names[i]) == name_len && memcmp(p->names[i], name, name_len) == 0)) ++i;
	if (i == p->count) {
		if (p->count == TH_PLOT_MAX_SERIES) return "too many series: at most 16 names can be plotted";
		memcpy(p->names[i], name, name_len);
		p->names[i][name_len] = '\0';
		p->count += 1;
	}
	p->pending[i] = value;
	return NULL;
}

void th_plot_end_frame(th_plot *p, long long frame, bool replaying)
{
	if (frame < 0) return;
	int slot = (int)(frame % TH_PLOT_FRAMES);
	p->ring_frame[slot] = frame;
	memcpy(p->ring[slot], p->pending, sizeof(p->pending));
	if (!replaying && p->rows != NULL) {
		/* a frame lived again after a rewind replaces the rows from there on */
		if (fseek(p->rows, (long)(frame * (long long)sizeof(p->pending)), SEEK_SET) == 0 &&
		    fwrite(p->pending, sizeof(p->pending), 1, p->rows) == 1) {
			p->rows_end = frame + 1;
		}
	}
	for (int i = 0; i < TH_PLOT_MAX_SERIES; ++i) p->pending[i] = NAN;
}

bool th_plot_at(const th_plot *p, int series, long long frame, double *out)
{
	if (series < 0 || series >= p->count || frame < 0) return false;
	int slot = (int)(frame % TH_PLOT_FRAMES);
	if (p->ring_frame[slot] != frame || isnan(p->ring[slot][series])) return false;
	*out = p->ring[slot][series];
	return true;
}

bool th_plot_open_csv(th_plot *p, const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return false;
	}
	p->csv = fopen(path, "w");
	if (p->csv == NULL) return false;
	p->rows = tmpfile();
	if (p->rows == NULL) {
		fclose(p->csv);
		p->csv = NULL;
		return false;
	}
	return true;
}

bool th_plot_close_csv(th_plot *p)
{
	if (p->csv == NULL) return true;
	bool ok = true;
	fputs("frame", p->csv);
	for (int i = 0; i < p->count; ++i) fprintf(p->csv, ",%s", p->names[i]);
	fputc('\n', p->csv);
	if (fseek(p->rows, 0, SEEK_SET) != 0) ok = false;
	double row[TH_PLOT_MAX_SERIES];
	for (long long f = 0; ok && f < p->rows_end; ++f) {
		if (fread(row, sizeof(row), 1, p->rows) != 1) {
			ok = false;
			break;
		}
		fprintf(p->csv, "%lld", f);
		for (int i = 0; i < p->count; ++i) {
			if (isnan(row[i])) {
				fputc(',', p->csv);
			} else {
				fprintf(p->csv, ",%.17g", row[i]);
			}
		}
		fputc('\n', p->csv);
	}
	if (ferror(p->csv)) ok = false;
	if (fclose(p->csv) != 0) ok = false;
	fclose(p->rows);
	p->csv = NULL;
	p->rows = NULL;
	return ok;
}

static int plot_lua(lua_State *L)
{
	th_level *lv = lua_touserdata(L, lua_upvalueindex(1));
	size_t len = 0;
	const char *name = luaL_checklstring(L, 1, &len);
	if (lua_type(L, 2) != LUA_TNUMBER) {
		return luaL_error(L, "tumble.plot: the value for \"%s\" is a %s, not a number", name, luaL_typename(L, 2));
	}
	if (lv->plot == NULL) return 0;
	const char *why = th_plot_value(lv->plot, name, len, lua_tonumber(L, 2));
	if (why != NULL) return luaL_error(L, "tumble.plot: %s", why);
	return 0;
}

void th_plot_open_lua(th_level *lv, lua_State *L)
{
	lua_pushlightuserdata(L, lv);
	lua_pushcclosure(L, plot_lua, 1);
	lua_setfield(L, -2, "plot");
}

static const SDL_Color series_colors[] = {
	{110, 190, 250, 255}, {250, 170, 90, 255}, {140, 220, 120, 255}, {240, 110, 140, 255},
	{200, 150, 250, 255}, {240, 220, 100, 255}, {100, 220, 210, 255}, {220, 220, 220, 255},
};

void th_plot_draw(const th_plot *p, th_target *t, long long shown, long long newest, int right, int bottom)
{
	if (p->count == 0 || newest < 0) return;
	const int scale = 2, line_h = TH_FONT_LINE * scale;
	int w = t->width / 2 < 420 ? t->width / 2 : 420;
	int h = 120 > line_h * p->count + 8 ? 120 : line_h * p->count + 8;
	float x0 = (float)(right - w), y0 = (float)(bottom - h);
	th_render_fill_rect(t->renderer, x0, y0, (float)w, (float)h, (SDL_Color){8, 10, 14, 200});
	long long first = newest - TH_PLOT_FRAMES + 1;
	if (first < 0) first = 0;
	double span = (double)(newest - first > 0 ? newest - first : 1);
	float cw = (float)w * 0.6f; /* the chart; the readouts take the rest */
	for (int s = 0; s < p->count; ++s) {
		double lo = INFINITY, hi = -INFINITY, v;
		for (long long f = first; f <= newest; ++f) {
			if (!th_plot_at(p, s, f, &v)) continue;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		SDL_Color c = series_colors[s % (int)(sizeof(series_colors) / sizeof(series_colors[0]))];
		if (lo > hi) continue;
		double range = hi - lo > 0 ? hi - lo : 1.0;
		SDL_SetRenderDrawColor(t->renderer, c.r, c.g, c.b, 220);
		bool have = false;
		float px = 0, py = 0;
		for (long long f = first; f <= newest; ++f) {
			if (!th_plot_at(p, s, f, &v)) {
				have = false;
				continue;
			}
			float x = x0 + 4 + (cw - 8) * (float)((double)(f - first) / span);
			float y = y0 + (float)h - 4 - ((float)h - 8) * (float)((v - lo) / range);
			if (have) SDL_RenderDrawLineF(t->renderer, px, py, x, y);
			px = x;
			py = y;
			have = true;
		}
		char text[TH_PLOT_NAME_MAX + 64];
		if (th_plot_at(p, s, shown, &v)) {
			snprintf(text, sizeof(text), "%.24s %.4g", p->names[s], v);
		} else {
			snprintf(text, sizeof(text), "%.24s -", p->names[s]);
		}
		th_render_text(t, x0 + cw + 4, y0 + 4 + (float)(line_h * s), scale, text, c);
	}
	if (shown >= first && shown < newest) {
		float x = x0 + 4 + (cw - 8) * (float)((double)(shown - first) / span);
		th_render_fill_rect(t->renderer, x - 1, y0, 2.0f, (float)h, (SDL_Color){255, 220, 120, 255});
	}
}
