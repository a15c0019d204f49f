/* tumble host: Lua 5.4 patterns for the sandbox's string.find, match, gmatch
 * and gsub, matched under the callback's budget.
 *
 * The stock matcher backtracks in C and never returns to the VM while it does,
 * so no hook can stop it: string.match(("a"):rep(3000), ("a*"):rep(12) .. "b")
 * runs for longer than anyone waits. This one has the same semantics (checked
 * against the stock library by tests/security/test_pattern.c on random
 * patterns) and counts its steps: every PATTERN_TICK steps it charges them to
 * the instruction budget and checks whether the callback is being stopped
 * (th_sandbox_tick), so the time and instruction limits reach inside a match.
 * It allocates nothing while matching, so an error can leave it at any step.
 * Plain searches use memmem (linear time; the stock one is quadratic). */
#include "sbxlib.h"
#include "sandbox.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <lauxlib.h>

#define ESC '%'
#define SPECIALS "^$*+?.([%-"
#define MAX_CAPTURES 32
#define MAX_DEPTH 200
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define PATTERN_TICK 4096

#define uchar(c) ((int)(unsigned char)(c))

typedef struct capture {
	const char *init;
	ptrdiff_t len; /* or CAP_UNFINISHED, CAP_POSITION */
} capture;

typedef struct matcher {
	const char *src, *src_end, *pat_end;
	lua_State *L;
	int depth; /* recursion left */
	int level; /* captures open or closed */
	long steps;
	capture cap[MAX_CAPTURES];
} matcher;

static void step(matcher *m, long n)
{
	m->steps += n;
	if (m->steps >= PATTERN_TICK) {
		long s = m->steps;
		m->steps = 0;
		th_sandbox_tick(m->L, s);
	}
}

static void prepare(matcher *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp)
{
	m->L = L;
	m->src = s;
	m->src_end = s + ls;
	m->pat_end = p + lp;
	m->steps = 0;
}

static void restart(matcher *m)
{
	m->level = 0;
	m->depth = MAX_DEPTH;
}

/* The end of the single-character class starting at p. */
static const char *class_end(matcher *m, const char *p)
{
	switch (*p++) {
	case ESC:
		if (p == m->pat_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
		return p + 1;
	case '[':
		if (*p == '^') p++;
		/* the first character after [ or [^ is part of the set, even a ']' */
		do {
			if (p == m->pat_end) luaL_error(m->L, "malformed pattern (missing ']')");
			if (*(p++) == ESC && p < m->pat_end) p++;
		} while (*p != ']');
		return p + 1;
	default: return p;
	}
}

static int class_matches(int c, int cl)
{
	int r;
	switch (tolower(cl)) {
	case 'a': r = isalpha(c); break;
	case 'c': r = iscntrl(c); break;
	case 'd': r = isdigit(c); break;
	case 'g': r = isgraph(c); break;
	case 'l': r = islower(c); break;
	case 'p': r = ispunct(c); break;
	case 's': r = isspace(c); break;
	case 'u': r = isupper(c); break;
	case 'w': r = isalnum(c); break;
	case 'x': r = isxdigit(c); break;
	case 'z': r = c == 0; break; /* deprecated, still accepted by 5.4 */
	default: return cl == c;
	}
	if (isupper(cl)) r = !r;
	return r != 0;
}

/* p at the '[', close at the closing ']'. */
static int set_matches(int c, const char *p, const char *close)
{
	int yes = 1;
	if (*(p + 1) == '^') {
		yes = 0;
		p++;
	}
	while (++p < close) {
		if (*p == ESC) {
			p++;
			if (class_matches(c, uchar(*p))) return yes;
		} else if (*(p + 1) == '-' && p + 2 < close) {
			p += 2;
			if (uchar(*(p - 2)) <= c && c <= uchar(*p)) return yes;
		} else if (uchar(*p) == c) {
			return yes;
		}
	}
	return !yes;
}

static int single_matches(matcher *m, const char *s, const char *p, const char *ep)
{
	if (s >= m->src_end) return 0;
	int c = uchar(*s);
	switch (*p) {
	case '.': return 1;
	case ESC: return class_matches(c, uchar(*(p + 1)));
	case '[': return set_matches(c, p, ep - 1);
	default: return uchar(*p) == c;
	}
}

static const char *match(matcher *m, const char *s, const char *p);

static const char *max_expand(matcher *m, const char *s, const char *p, const char *ep)
{
	ptrdiff_t i = 0;
	while (single_matches(m, s + i, p, ep)) {
		i++;
		step(m, 1);
	}
	/* the longest run first, then one shorter at a time */
	while (i >= 0) {
		const char *r = match(m, s + i, ep + 1);
		if (r != NULL) return r;
		i--;
	}
	return NULL;
}

static const char *min_expand(matcher *m, const char *s, const char *p, const char *ep)
{
	for (;;) {
		const char *r = match(m, s, ep + 1);
		if (r != NULL) return r;
		if (!single_matches(m, s, p, ep)) return NULL;
		s++;
	}
}

static const char *start_capture(matcher *m, const char *s, const char *p, ptrdiff_t what)
{
	if (m->level >= MAX_CAPTURES) luaL_error(m->L, "too many captures");
	m->cap[m->level].init = s;
	m->cap[m->level].len = what;
	m->level++;
	const char *r = match(m, s, p);
	if (r == NULL) m->level--;
	return r;
}

static const char *end_capture(matcher *m, const char *s, const char *p)
{
	int l = -1;
	for (int i = m->level - 1; i >= 0; --i) {
		if (m->cap[i].len == CAP_UNFINISHED) {
			l = i;
			break;
		}
	}
	if (l < 0) luaL_error(m->L, "invalid pattern capture");
	m->cap[l].len = s - m->cap[l].init;
	const char *r = match(m, s, p);
	if (r == NULL) m->cap[l].len = CAP_UNFINISHED;
	return r;
}

static const char *match_balance(matcher *m, const char *s, const char *p)
{
	if (p >= m->pat_end - 1) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
	if (s >= m->src_end || *s != *p) return NULL;
	char open = *p, close = *(p + 1);
	int depth = 1;
	while (++s < m->src_end) {
		step(m, 1);
		if (*s == close) {
			if (--depth == 0) return s + 1;
		} else if (*s == open) {
			depth++;
		}
	}
	return NULL;
}

static int capture_index(matcher *m, int c)
{
	int l = c - '1';
	if (l < 0 || l >= m->level || m->cap[l].len == CAP_UNFINISHED) {
		return luaL_error(m->L, "invalid capture index %%%d", l + 1);
	}
	return l;
}

static const char *match_capture(matcher *m, const char *s, int c)
{
	int l = capture_index(m, c);
	ptrdiff_t len = m->cap[l].len;
	if (len < 0) return NULL; /* a position capture matches no text */
	step(m, 1 + len / 64);
	if (m->src_end - s >= len && memcmp(m->cap[l].init, s, (size_t)len) == 0) return s + len;
	return NULL;
}

static const char *match(matcher *m, const char *s, const char *p)
{
	if (m->depth-- == 0) luaL_error(m->L, "pattern too complex");
	for (;;) {
		step(m, 1);
		if (p == m->pat_end) break;
		const char *ep;
		switch (*p) {
		case '(':
			if (*(p + 1) == ')') {
				s = start_capture(m, s, p + 2, CAP_POSITION);
			} else {
				s = start_capture(m, s, p + 1, CAP_UNFINISHED);
			}
			goto done;
		case ')': s = end_capture(m, s, p + 1); goto done;
		case '$':
			if (p + 1 != m->pat_end) goto single;
			if (s != m->src_end) s = NULL;
			goto done;
		case ESC:
			switch (*(p + 1)) {
			case 'b':
				s = match_balance(m, s, p + 2);
				if (s != NULL) {
					p += 4;
					continue;
				}
				goto done;
			case 'f': {
				p += 2;
				if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
				ep = class_end(m, p);
				int prev = s == m->src ? '\0' : uchar(*(s - 1));
				/* at the subject's end, *s is the string's terminating '\0' */
				if (!set_matches(prev, p, ep - 1) && set_matches(uchar(*s), p, ep - 1)) {
					p = ep;
					continue;
				}
				s = NULL;
				goto done;
			}
			case '0':
			case '1':
			case '2':
			case '3':
			case '4':
			case '5':
			case '6':
			case '7':
			case '8':
			case '9':
				s = match_capture(m, s, uchar(*(p + 1)));
				if (s != NULL) {
					p += 2;
					continue;
				}
				goto done;
			default: goto single;
			}
		default:
		single:
			ep = class_end(m, p);
			if (!single_matches(m, s, p, ep)) {
				if (*ep == '*' || *ep == '?' || *ep == '-') {
					p = ep + 1; /* the item may match nothing */
					continue;
				}
				s = NULL;
			} else {
				switch (*ep) {
				case '?': {
					const char *r = match(m, s + 1, ep + 1);
					if (r != NULL) {
						s = r;
					} else {
						p = ep + 1;
						continue;
					}
					break;
				}
				case '+': s = max_expand(m, s + 1, p, ep); break;
				case '*': s = max_expand(m, s, p, ep); break;
				case '-': s = min_expand(m, s, p, ep); break;
				default:
					s++;
					p = ep;
					continue;
				}
			}
			goto done;
		}
	}
done:
	m->depth++;
	return s;
}

/* ---------------- captures ---------------- */

/* Capture i of the match s..e: pushes a position, or returns its text. */
static size_t capture_text(matcher *m, int i, const char *s, const char *e, const char **text)
{
	if (i >= m->level) {
		if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
		*text = s;
		return (size_t)(e - s);
	}
	ptrdiff_t len = m->cap[i].len;
	*text = m->cap[i].init;
	if (len == CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
	if (len == CAP_POSITION) {
		lua_pushinteger(m->L, (m->cap[i].init - m->src) + 1);
		*text = NULL;
		return 0;
	}
	return (size_t)len;
}

static void push_capture(matcher *m, int i, const char *s, const char *e)
{
	const char *text = NULL;
	size_t len = capture_text(m, i, s, e, &text);
	if (text != NULL) lua_pushlstring(m->L, text, len);
}

/* s == NULL: only the captures (find), not the whole match when there are none. */
static int push_captures(matcher *m, const char *s, const char *e)
{
	int n = (m->level == 0 && s != NULL) ? 1 : m->level;
	luaL_checkstack(m->L, n, "too many captures");
	for (int i = 0; i < n; ++i) push_capture(m, i, s, e);
	return n;
}

/* ---------------- find, match, gmatch, gsub ---------------- */

static size_t start_index(lua_Integer pos, size_t len)
{
	if (pos > 0) return (size_t)pos;
	if (pos == 0) return 1;
	if (pos < -(lua_Integer)len) return 1;
	return len + (size_t)pos + 1;
}

static int no_specials(const char *p, size_t lp)
{
	size_t at = 0;
	do {
		if (strpbrk(p + at, SPECIALS) != NULL) return 0;
		at += strlen(p + at) + 1; /* past an embedded zero */
	} while (at <= lp);
	return 1;
}

static int find_or_match(lua_State *L, int find)
{
	size_t ls = 0, lp = 0;
	const char *s = luaL_checklstring(L, 1, &ls);
	const char *p = luaL_checklstring(L, 2, &lp);
	size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
	if (init > ls) {
		luaL_pushfail(L);
		return 1;
	}
	if (find && (lua_toboolean(L, 4) || no_specials(p, lp))) {
		const char *hit = lp == 0 ? s + init : memmem(s + init, ls - init, p, lp);
		if (hit != NULL) {
			lua_pushinteger(L, (hit - s) + 1);
			lua_pushinteger(L, (lua_Integer)((hit - s) + lp));
			return 2;
		}
	} else {
		matcher m;
		const char *s1 = s + init;
		int anchor = *p == '^';
		if (anchor) {
			p++;
			lp--;
		}
		prepare(&m, L, s, ls, p, lp);
		do {
			restart(&m);
			const char *e = match(&m, s1, p);
			if (e != NULL) {
				if (find) {
					lua_pushinteger(L, (s1 - s) + 1);
					lua_pushinteger(L, e - s);
					return push_captures(&m, NULL, NULL) + 2;
				}
				return push_captures(&m, s1, e);
			}
		} while (s1++ < m.src_end && !anchor);
	}
	luaL_pushfail(L);
	return 1;
}

static int sbx_find(lua_State *L)
{
	return find_or_match(L, 1);
}

static int sbx_match(lua_State *L)
{
	return find_or_match(L, 0);
}

typedef struct gmatch_state {
	const char *src, *p, *last;
	matcher m;
} gmatch_state;

/* upvalues: the subject, the pattern (kept alive), the state */
static int gmatch_next(lua_State *L)
{
	gmatch_state *g = lua_touserdata(L, lua_upvalueindex(3));
	g->m.L = L;
	for (const char *src = g->src; src <= g->m.src_end; src++) {
		restart(&g->m);
		const char *e = match(&g->m, src, g->p);
		/* an empty match right after the previous match does not count */
		if (e != NULL && e != g->last) {
			g->src = g->last = e;
			return push_captures(&g->m, src, e);
		}
	}
	return 0;
}

static int sbx_gmatch(lua_State *L)
{
	size_t ls = 0, lp = 0;
	const char *s = luaL_checklstring(L, 1, &ls);
	const char *p = luaL_checklstring(L, 2, &lp);
	size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
	lua_settop(L, 2);
	gmatch_state *g = lua_newuserdatauv(L, sizeof(*g), 0);
	if (init > ls) init = ls + 1;
	prepare(&g->m, L, s, ls, p, lp);
	g->src = s + init;
	g->p = p;
	g->last = NULL;
	lua_pushcclosure(L, gmatch_next, 3);
	return 1;
}

/* The replacement string, with %0-%9 and %%. */
static void add_string(matcher *m, luaL_Buffer *b, const char *s, const char *e)
{
	lua_State *L = m->L;
	size_t l = 0;
	const char *news = lua_tolstring(L, 3, &l);
	const char *p;
	while ((p = memchr(news, ESC, l)) != NULL) {
		luaL_addlstring(b, news, (size_t)(p - news));
		p++;
		if (*p == ESC) {
			luaL_addchar(b, *p);
		} else if (*p == '0') {
			luaL_addlstring(b, s, (size_t)(e - s));
		} else if (isdigit(uchar(*p))) {
			const char *text = NULL;
			size_t len = capture_text(m, *p - '1', s, e, &text);
			if (text == NULL) {
				luaL_addvalue(b); /* a position, pushed by capture_text */
			} else {
				luaL_addlstring(b, text, len);
			}
		} else {
			luaL_error(L, "invalid use of '%c' in replacement string", ESC);
		}
		l -= (size_t)(p + 1 - news);
		news = p + 1;
	}
	luaL_addlstring(b, news, l);
}

/* Adds the replacement for the match s..e; false if the match is kept as it was. */
static int add_value(matcher *m, luaL_Buffer *b, const char *s, const char *e, int tr)
{
	lua_State *L = m->L;
	switch (tr) {
	case LUA_TFUNCTION: {
		lua_pushvalue(L, 3);
		int n = push_captures(m, s, e);
		lua_call(L, n, 1);
		break;
	}
	case LUA_TTABLE:
		push_capture(m, 0, s, e);
		lua_gettable(L, 3);
		break;
	default: add_string(m, b, s, e); return 1;
	}
	if (!lua_toboolean(L, -1)) {
		lua_pop(L, 1);
		luaL_addlstring(b, s, (size_t)(e - s));
		return 0;
	}
	if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
	luaL_addvalue(b);
	return 1;
}

static int sbx_gsub(lua_State *L)
{
	size_t srcl = 0, lp = 0;
	const char *src = luaL_checklstring(L, 1, &srcl);
	const char *p = luaL_checklstring(L, 2, &lp);
	const char *last = NULL;
	int tr = lua_type(L, 3);
	lua_Integer max_n = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
	int anchor = *p == '^';
	lua_Integer n = 0;
	int changed = 0;
	luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
	                 "string/function/table");
	matcher m;
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	if (anchor) {
		p++;
		lp--;
	}
	prepare(&m, L, src, srcl, p, lp);
	while (n < max_n) {
		restart(&m);
		const char *e = match(&m, src, p);
		if (e != NULL && e != last) {
			n++;
			changed = add_value(&m, &b, src, e, tr) | changed;
			src = last = e;
		} else if (src < m.src_end) {
			luaL_addchar(&b, *src++);
		} else {
			break;
		}
		if (anchor) break;
	}
	if (!changed) {
		lua_pushvalue(L, 1);
	} else {
		luaL_addlstring(&b, src, (size_t)(m.src_end - src));
		luaL_pushresult(&b);
	}
	lua_pushinteger(L, n);
	return 2;
}

void th_pattern_register(lua_State *L, int string_table)
{
	static const luaL_Reg fns[] = {
		{"find", sbx_find}, {"match", sbx_match}, {"gmatch", sbx_gmatch}, {"gsub", sbx_gsub}, {NULL, NULL},
	};
	string_table = lua_absindex(L, string_table);
	for (const luaL_Reg *f = fns; f->name != NULL; ++f) {
		lua_pushcfunction(L, f->func);
		lua_setfield(L, string_table, f->name);
	}
}
