/* tumble host: writing and reading input recordings (record.h). */
#include "record.h"
#include "input.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORD_MAGIC "tumble-input 1"
#define LINE_MAX_LEN 256
/* Pointer positions may leave the view (a drag outside the window), not the planet. */
#define PIXEL_MAX 1000000
#define WHEEL_MAX 10000.0

/* ---------------- recording ---------------- */

bool th_recorder_open(th_recorder *r, const char *path, int view_w, int view_h, bool rewind_line,
                      double rewind_seconds, double rewind_mb)
{
	memset(r, 0, sizeof(*r));
	r->file = fopen(path, "w");
	if (r->file == NULL) return false;
	fprintf(r->file, "%s\nview %d %d\n", RECORD_MAGIC, view_w, view_h);
	if (rewind_line) fprintf(r->file, "rewind %.9g %.9g\n", rewind_seconds, rewind_mb);
	return true;
}

static void flush_run(th_recorder *r)
{
	if (r->run == 1) {
		fprintf(r->file, "F %d\n", r->run_steps);
	} else if (r->run > 1) {
		fprintf(r->file, "F %d %d\n", r->run_steps, r->run);
	}
	r->run = 0;
}

void th_recorder_event(th_recorder *r, const th_event *ev)
{
	FILE *f = r->file;
	if (f == NULL) return;
	flush_run(r);
	switch (ev->type) {
	case TH_EV_KEY_DOWN:
	case TH_EV_KEY_UP:
		if (ev->scancode == 0 && !(ev->flags & TH_EVF_REPEAT)) {
			fprintf(f, "%s %s\n", ev->type == TH_EV_KEY_DOWN ? "kd" : "ku", ev->name);
		} else {
			const char *tag = ev->type == TH_EV_KEY_UP ? "ksu" : (ev->flags & TH_EVF_REPEAT) ? "ksr" : "ksd";
			fprintf(f, "%s %d %s\n", tag, ev->scancode, ev->name);
		}
		break;
	case TH_EV_TOUCH_DOWN: fprintf(f, "td %lld %d %d\n", ev->touch_id, ev->x, ev->y); break;
	case TH_EV_TOUCH_UP: fprintf(f, "tu %lld %d %d\n", ev->touch_id, ev->x, ev->y); break;
	case TH_EV_TOUCH_MOVE: fprintf(f, "tm %lld %d %d %d %d\n", ev->touch_id, ev->x, ev->y, ev->dx, ev->dy); break;
	case TH_EV_MOUSE_DOWN: fprintf(f, "md %d %d %d\n", ev->button, ev->x, ev->y); break;
	case TH_EV_MOUSE_UP: fprintf(f, "mu %d %d %d\n", ev->button, ev->x, ev->y); break;
	case TH_EV_MOUSE_MOVE: fprintf(f, "mm %d %d %d %d\n", ev->x, ev->y, ev->dx, ev->dy); break;
	case TH_EV_WHEEL: fprintf(f, "mw %.9g %.9g\n", ev->wheel_x, ev->wheel_y); break;
	case TH_EV_PAD_DOWN: fprintf(f, "pd %s\n", ev->name); break;
	case TH_EV_PAD_UP: fprintf(f, "pu %s\n", ev->name); break;
	case TH_EV_PAD_AXIS: fprintf(f, "pa %s %.9g\n", ev->name, ev->value); break;
	case TH_EV_PAD_CONNECT: fprintf(f, "pc %d\n", ev->button); break;
	case TH_EV_RESIZE: fprintf(f, "vw %d %d\n", ev->x, ev->y); break;
	case TH_EV_QUIT: fprintf(f, "quit\n"); break;
	case TH_EV_TEXT:
		/* hex: typed text may hold spaces, '#' or anything else */
		fprintf(f, "tx ");
		for (const unsigned char *p = (const unsigned char *)ev->name; *p != '\0'; ++p) fprintf(f, "%02x", *p);
		fprintf(f, "\n");
		break;
	case TH_EV_SETTING: /* the click that caused it is recorded */
	case TH_EV_EDIT: break;
	}
}

void th_recorder_frame(th_recorder *r, int steps)
{
	if (r->file == NULL) return;
	if (r->run > 0 && r->run_steps != steps) flush_run(r);
	r->run_steps = steps;
	r->run += 1;
}

th_recorder_mark th_recorder_mark_now(const th_recorder *r)
{
	th_recorder_mark m = {-1, 0, 0};
	if (r->file == NULL) return m;
	m.offset = ftell(r->file);
	m.run = r->run;
	m.run_steps = r->run_steps;
	return m;
}

bool th_recorder_cut(th_recorder *r, const th_recorder_mark *m)
{
	if (r->file == NULL || m->offset < 0) return false;
	if (fflush(r->file) != 0 || ftruncate(fileno(r->file), (off_t)m->offset) != 0 ||
	    fseek(r->file, m->offset, SEEK_SET) != 0) {
		return false;
	}
	r->run = m->run;
	r->run_steps = m->run_steps;
	return true;
}

void th_recorder_close(th_recorder *r)
{
	if (r->file == NULL) return;
	flush_run(r);
	fclose(r->file);
	r->file = NULL;
}

/* ---------------- reading: strict fields ---------------- */

/* Each reader takes the next space-separated field of *p and advances past it. */
static bool field_long(const char **p, long lo, long hi, long *out)
{
	const char *s = *p;
	if (*s == ' ') s += 1;
	if (*s != '-' && *s != '+' && !isdigit((unsigned char)*s)) return false;
	char *end = NULL;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno != 0 || end == s || (*end != ' ' && *end != '\0') || v < lo || v > hi) return false;
	*out = v;
	*p = end;
	return true;
}

static bool field_int(const char **p, long lo, long hi, int *out)
{
	long v;
	if (!field_long(p, lo, hi, &v)) return false;
	*out = (int)v;
	return true;
}

/* A finite number in [lo, hi]: no nan, no inf, no hex floats. */
static bool field_float(const char **p, double lo, double hi, float *out)
{
	const char *s = *p;
	if (*s == ' ') s += 1;
	for (const char *c = s; *c != ' ' && *c != '\0'; ++c) {
		if (!isdigit((unsigned char)*c) && strchr("+-.eE", *c) == NULL) return false;
	}
	char *end = NULL;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || (*end != ' ' && *end != '\0') || !isfinite(v) || v < lo || v > hi) return false;
	*out = (float)v;
	*p = end;
	return true;
}

/* A name of printable characters (key names hold spaces: "left shift"). */
static bool rest_name(const char *s, char *out, size_t size)
{
	size_t n = strlen(s);
	if (n == 0 || n >= size) return false;
	for (size_t i = 0; i < n; ++i) {
		if (!isprint((unsigned char)s[i])) return false;
	}
	th_key_name_normalize(out, size, s);
	return true;
}

/* A name without spaces, then more fields. */
static bool field_word(const char **p, char *out, size_t size)
{
	const char *s = *p;
	if (*s == ' ') s += 1;
	size_t n = strcspn(s, " ");
	if (n == 0 || n >= size) return false;
	for (size_t i = 0; i < n; ++i) {
		if (!isprint((unsigned char)s[i])) return false;
	}
	memcpy(out, s, n);
	out[n] = '\0';
	*p = s + n;
	return true;
}

static bool at_end(const char *p)
{
	return *p == '\0';
}

/* ---------------- replaying ---------------- */

static void fail(th_replay *r, const char *why, const char *line)
{
	snprintf(r->error, sizeof(r->error), "replay line %d not understood: %.120s%s%s%s", r->line, line,
	         why != NULL ? " (" : "", why != NULL ? why : "", why != NULL ? ")" : "");
	r->over = true;
}

/* The next non-empty, non-comment line: 1, or 0 at the end, -1 if it is
 * too long, -2 if it holds a byte no recording has (a NUL, a control
 * character but tab and a final CR, DEL): binary junk is refused, not
 * skipped. Reads at most `size` bytes past the line's start. */
static int read_line(th_replay *r, char *buf, int size)
{
	for (;;) {
		int n = 0, c = 0;
		bool any = false;
		while ((c = getc(r->file)) != EOF) {
			any = true;
			if (c == '\n') break;
			if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F) {
				r->line += 1;
				snprintf(buf, (size_t)size, "byte 0x%02x at column %d", c, n + 1);
				return -2;
			}
			if (n >= size - 1) {
				r->line += 1;
				buf[size - 1] = '\0';
				return -1;
			}
			buf[n++] = (char)c;
		}
		if (!any) return 0;
		r->line += 1;
		while (n > 0 && buf[n - 1] == '\r') n--;
		buf[n] = '\0';
		for (int i = 0; i < n; ++i) {
			/* a CR is allowed only at the end */
			if (buf[i] == '\r') {
				snprintf(buf, (size_t)size, "byte 0x0d at column %d", i + 1);
				return -2;
			}
		}
		if (n == 0 || buf[0] == '#') continue;
		return 1;
	}
}

/* Opens a recording: a regular file only (opened without blocking, checked
 * on the descriptor), so a FIFO or a device such as /dev/zero is refused at
 * once instead of being read for ever. */
static FILE *open_regular(const char *path, const char **why)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*why = strerror(errno);
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*why = S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
		close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, "r");
	if (f == NULL) {
		*why = strerror(errno);
		close(fd);
	}
	return f;
}

static bool parse_view(const char *s, int *w, int *h)
{
	return field_int(&s, 1, TH_VIEW_MAX, w) && field_int(&s, 1, TH_VIEW_MAX, h) && at_end(s) && th_view_fits(*w, *h);
}

bool th_replay_open(th_replay *r, const char *path, int *view_w, int *view_h)
{
	memset(r, 0, sizeof(*r));
	char line[LINE_MAX_LEN];
	const char *why = NULL;
	r->file = open_regular(path, &why);
	if (r->file == NULL) {
		snprintf(r->error, sizeof(r->error), "cannot open replay %s: %s", path, why);
		return false;
	}
	if (read_line(r, line, sizeof(line)) != 1 || strcmp(line, RECORD_MAGIC) != 0) {
		snprintf(r->error, sizeof(r->error), "%s is not a tumble input recording (first line must be '%s')", path,
		         RECORD_MAGIC);
		th_replay_close(r);
		return false;
	}
	/* optional header lines; the first other line is the first event */
	for (;;) {
		long pos = ftell(r->file);
		int line_no = r->line;
		int got = read_line(r, line, sizeof(line));
		if (got < 0) {
			snprintf(r->error, sizeof(r->error), "%s line %d: %.100s", path, r->line,
			         got == -1 ? "line too long" : line);
			th_replay_close(r);
			return false;
		}
		if (got == 1 && strncmp(line, "view", 4) == 0 && (line[4] == ' ' || line[4] == '\0')) {
			if (!parse_view(line + 4, view_w, view_h)) {
				snprintf(r->error, sizeof(r->error), "%s line %d: view W H with sizes in 1..%d, at most %d pixels, expected: %.60s",
				         path, r->line, TH_VIEW_MAX, TH_VIEW_MAX_PIXELS, line);
				th_replay_close(r);
				return false;
			}
			continue;
		}
		if (got == 1 && strncmp(line, "rewind", 6) == 0 && (line[6] == ' ' || line[6] == '\0')) {
			const char *p = line + 6;
			float seconds = 0.0f, mb = 0.0f;
			if (!field_float(&p, 0.0, 3600.0, &seconds) || !field_float(&p, 1.0, 1.0e6, &mb) || !at_end(p)) {
				snprintf(r->error, sizeof(r->error),
				         "%s line %d: rewind SECONDS MB with seconds in 0..3600 and MB at least 1 expected: %.60s", path,
				         r->line, line);
				th_replay_close(r);
				return false;
			}
			r->has_rewind = true;
			r->rewind_seconds = seconds;
			r->rewind_mb = mb;
			continue;
		}
		/* no (more) header: keep the defaults */
		fseek(r->file, pos, SEEK_SET);
		r->line = line_no;
		return true;
	}
}

static bool parse_event(const char *line, th_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	size_t tag_len = strcspn(line, " ");
	if (tag_len == 0 || tag_len > 4) return false;
	char tag[5];
	memcpy(tag, line, tag_len);
	tag[tag_len] = '\0';
	const char *rest = line + tag_len;
	if (strcmp(tag, "kd") == 0 || strcmp(tag, "ku") == 0 || strcmp(tag, "pd") == 0 || strcmp(tag, "pu") == 0) {
		ev->type = tag[0] == 'k' ? (tag[1] == 'd' ? TH_EV_KEY_DOWN : TH_EV_KEY_UP)
		                         : (tag[1] == 'd' ? TH_EV_PAD_DOWN : TH_EV_PAD_UP);
		return *rest == ' ' && rest_name(rest + 1, ev->name, sizeof(ev->name));
	}
	/* a key with its scancode: down, auto-repeat, up */
	if (strcmp(tag, "ksd") == 0 || strcmp(tag, "ksr") == 0 || strcmp(tag, "ksu") == 0) {
		ev->type = tag[2] == 'u' ? TH_EV_KEY_UP : TH_EV_KEY_DOWN;
		if (tag[2] == 'r') ev->flags |= TH_EVF_REPEAT;
		return field_int(&rest, 0, TH_SCANCODE_COUNT - 1, &ev->scancode) && *rest == ' ' &&
		       rest_name(rest + 1, ev->name, sizeof(ev->name));
	}
	if (strcmp(tag, "td") == 0 || strcmp(tag, "tu") == 0 || strcmp(tag, "tm") == 0) {
		ev->type = tag[1] == 'd' ? TH_EV_TOUCH_DOWN : tag[1] == 'u' ? TH_EV_TOUCH_UP : TH_EV_TOUCH_MOVE;
		long id = 0;
		if (!field_long(&rest, LONG_MIN, LONG_MAX, &id)) return false;
		ev->touch_id = id;
		if (!field_int(&rest, -PIXEL_MAX, PIXEL_MAX, &ev->x) || !field_int(&rest, -PIXEL_MAX, PIXEL_MAX, &ev->y)) {
			return false;
		}
		if (ev->type == TH_EV_TOUCH_MOVE &&
		    (!field_int(&rest, -2 * PIXEL_MAX, 2 * PIXEL_MAX, &ev->dx) ||
		     !field_int(&rest, -2 * PIXEL_MAX, 2 * PIXEL_MAX, &ev->dy))) {
			return false;
		}
		return at_end(rest);
	}
	if (strcmp(tag, "md") == 0 || strcmp(tag, "mu") == 0) {
		ev->type = tag[1] == 'd' ? TH_EV_MOUSE_DOWN : TH_EV_MOUSE_UP;
		return field_int(&rest, 1, TH_MOUSE_BUTTONS - 1, &ev->button) &&
		       field_int(&rest, -PIXEL_MAX, PIXEL_MAX, &ev->x) && field_int(&rest, -PIXEL_MAX, PIXEL_MAX, &ev->y) &&
		       at_end(rest);
	}
	if (strcmp(tag, "mm") == 0) {
		ev->type = TH_EV_MOUSE_MOVE;
		return field_int(&rest, -PIXEL_MAX, PIXEL_MAX, &ev->x) && field_int(&rest, -PIXEL_MAX, PIXEL_MAX, &ev->y) &&
		       field_int(&rest, -2 * PIXEL_MAX, 2 * PIXEL_MAX, &ev->dx) &&
		       field_int(&rest, -2 * PIXEL_MAX, 2 * PIXEL_MAX, &ev->dy) && at_end(rest);
	}
	if (strcmp(tag, "mw") == 0) {
		ev->type = TH_EV_WHEEL;
		return field_float(&rest, -WHEEL_MAX, WHEEL_MAX, &ev->wheel_x) &&
		       field_float(&rest, -WHEEL_MAX, WHEEL_MAX, &ev->wheel_y) && at_end(rest);
	}
	if (strcmp(tag, "pa") == 0) {
		ev->type = TH_EV_PAD_AXIS;
		return field_word(&rest, ev->name, sizeof(ev->name)) && field_float(&rest, -1.0, 1.0, &ev->value) &&
		       at_end(rest);
	}
	if (strcmp(tag, "pc") == 0) {
		ev->type = TH_EV_PAD_CONNECT;
		return field_int(&rest, 0, 1, &ev->button) && at_end(rest);
	}
	if (strcmp(tag, "vw") == 0) {
		ev->type = TH_EV_RESIZE;
		return parse_view(rest, &ev->x, &ev->y);
	}
	if (strcmp(tag, "tx") == 0) {
		ev->type = TH_EV_TEXT;
		if (*rest != ' ') return false;
		rest += 1;
		size_t n = strlen(rest);
		if (n == 0 || n % 2 != 0 || n / 2 >= sizeof(ev->name)) return false;
		for (size_t i = 0; i < n / 2; ++i) {
			char hex[3] = {rest[2 * i], rest[2 * i + 1], '\0'};
			if (!isxdigit((unsigned char)hex[0]) || !isxdigit((unsigned char)hex[1])) return false;
			unsigned long v = strtoul(hex, NULL, 16);
			if (v == 0) return false;
			ev->name[i] = (char)v;
		}
		ev->name[n / 2] = '\0';
		return true;
	}
	if (strcmp(tag, "quit") == 0) {
		ev->type = TH_EV_QUIT;
		return at_end(rest);
	}
	return false;
}

th_replay_item th_replay_next(th_replay *r, th_event *ev, int *steps)
{
	if (r->file == NULL || r->over) return r->error[0] != '\0' ? TH_REPLAY_ERROR : TH_REPLAY_END;
	if (r->run_left > 0) {
		r->run_left -= 1;
		*steps = r->run_steps;
		return TH_REPLAY_FRAME;
	}
	char line[LINE_MAX_LEN];
	int got = read_line(r, line, sizeof(line));
	if (got == -1) {
		fail(r, "line too long", line);
		return TH_REPLAY_ERROR;
	}
	if (got == -2) {
		snprintf(r->error, sizeof(r->error), "replay line %d is not text: %.100s", r->line, line);
		r->over = true;
		return TH_REPLAY_ERROR;
	}
	if (got == 0) {
		r->over = true;
		return TH_REPLAY_END;
	}
	if (line[0] == 'F' && (line[1] == ' ' || line[1] == '\0')) {
		const char *p = line + 1;
		int s = 1, count = 1;
		if (!at_end(p) && !field_int(&p, 0, TH_REPLAY_MAX_STEPS, &s)) {
			char what[64];
			snprintf(what, sizeof(what), "a frame runs 0..%d steps", TH_REPLAY_MAX_STEPS);
			fail(r, what, line);
			return TH_REPLAY_ERROR;
		}
		if (!at_end(p) && (!field_int(&p, 1, INT_MAX, &count) || !at_end(p))) {
			fail(r, "F steps [count], count at least 1", line);
			return TH_REPLAY_ERROR;
		}
		r->run_steps = s;
		r->run_left = count - 1;
		*steps = s;
		return TH_REPLAY_FRAME;
	}
	if (!parse_event(line, ev)) {
		fail(r, NULL, line);
		return TH_REPLAY_ERROR;
	}
	return TH_REPLAY_EVENT;
}

void th_replay_close(th_replay *r)
{
	if (r->file != NULL) fclose(r->file);
	r->file = NULL;
}
