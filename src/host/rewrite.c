/* tumble host: the source rewriter's Lua 5.4 lexer (see rewrite.h). It
 * follows llex.c: long brackets of every level, every escape of short
 * strings, numerals as read_numeral reads them and then checked. */
#include "rewrite.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
	const char *s;
	size_t n, i;
	int line;
	char *err;
	size_t errlen;
} lexer;

static bool fail(lexer *lx, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (lx->errlen > 0) snprintf(lx->err, lx->errlen, "line %d: %s", lx->line, msg);
	return false;
}

static int cur(const lexer *lx) { return lx->i < lx->n ? (unsigned char)lx->s[lx->i] : -1; }
static int peek(const lexer *lx, size_t k) { return lx->i + k < lx->n ? (unsigned char)lx->s[lx->i + k] : -1; }
static bool is_newline(int c) { return c == '\n' || c == '\r'; }

/* Skips one newline (\n, \r, \r\n or \n\r), counting one line. */
static void newline(lexer *lx)
{
	int c = cur(lx);
	lx->i++;
	if (is_newline(cur(lx)) && cur(lx) != c) lx->i++;
	lx->line++;
}

/* At '[': the level of a long bracket [==[ (>= 0), -1 for a lone '[', -2 for
 * '[=' not followed by '[' (an error). */
static int long_level(const lexer *lx)
{
	size_t k = 1;
	while (peek(lx, k) == '=') k++;
	if (peek(lx, k) == '[') return (int)k - 1;
	return k == 1 ? -1 : -2;
}

static bool long_body(lexer *lx, int level, const char *what)
{
	lx->i += (size_t)level + 2;
	for (;;) {
		int c = cur(lx);
		if (c < 0) return fail(lx, "unfinished long %s", what);
		if (is_newline(c)) {
			newline(lx);
		} else if (c == ']') {
			size_t k = 1;
			while (peek(lx, k) == '=') k++;
			if (peek(lx, k) == ']' && (int)k - 1 == level) {
				lx->i += k + 1;
				return true;
			}
			lx->i++;
		} else {
			lx->i++;
		}
	}
}

static bool short_string(lexer *lx)
{
	int q = cur(lx);
	lx->i++;
	for (;;) {
		int c = cur(lx);
		if (c < 0 || is_newline(c)) return fail(lx, "unfinished string");
		lx->i++;
		if (c == q) return true;
		if (c != '\\') continue;
		c = cur(lx);
		if (c < 0) return fail(lx, "unfinished string");
		if (strchr("abfnrtv\\\"'", c) != NULL) {
			lx->i++;
		} else if (is_newline(c)) {
			newline(lx);
		} else if (c == 'x') {
			if (!isxdigit(peek(lx, 1)) || !isxdigit(peek(lx, 2))) return fail(lx, "hexadecimal digit expected");
			lx->i += 3;
		} else if (c == 'z') {
			lx->i++;
			while (cur(lx) >= 0 && isspace(cur(lx))) {
				if (is_newline(cur(lx))) newline(lx);
				else lx->i++;
			}
		} else if (isdigit(c)) {
			int v = 0, k = 0;
			while (k < 3 && isdigit(cur(lx))) v = v * 10 + (cur(lx) - '0'), lx->i++, k++;
			if (v > 255) return fail(lx, "decimal escape too large");
		} else if (c == 'u') {
			lx->i++;
			if (cur(lx) != '{') return fail(lx, "missing '{' in \\u{xxxx}");
			lx->i++;
			unsigned long v = 0;
			int k = 0;
			while (isxdigit(cur(lx))) {
				int d = cur(lx);
				v = v * 16 + (unsigned long)(isdigit(d) ? d - '0' : (tolower(d) - 'a' + 10));
				if (v > 0x7FFFFFFFul) return fail(lx, "UTF-8 value too large");
				lx->i++, k++;
			}
			if (k == 0) return fail(lx, "hexadecimal digit expected");
			if (cur(lx) != '}') return fail(lx, "missing '}' in \\u{xxxx}");
			lx->i++;
		} else {
			return fail(lx, "invalid escape sequence");
		}
	}
}

/* Checks a numeral as lua_stringtonumber would read it and sets its value. */
static bool numeral(lexer *lx, th_token *t)
{
	const char *p = lx->s + t->start, *e = lx->s + t->end;
	bool hex = e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	const char *q = hex ? p + 2 : p;
	int digits = 0;
	bool dot = false, expo = false;
	uint64_t acc = 0;
	for (; q < e && (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q)); q++, digits++) {
		int d = (unsigned char)*q;
		acc = acc * (hex ? 16 : 10) + (uint64_t)(isdigit(d) ? d - '0' : tolower(d) - 'a' + 10);
	}
	if (q < e && *q == '.') {
		dot = true;
		for (q++; q < e && (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q)); q++) digits++;
	}
	if (digits == 0) return fail(lx, "malformed number");
	if (q < e && (hex ? (*q == 'p' || *q == 'P') : (*q == 'e' || *q == 'E'))) {
		expo = true;
		q++;
		if (q < e && (*q == '+' || *q == '-')) q++;
		if (q == e || !isdigit((unsigned char)*q)) return fail(lx, "malformed number");
		while (q < e && isdigit((unsigned char)*q)) q++;
	}
	if (q != e) return fail(lx, "malformed number");
	char buf[128];
	size_t n = (size_t)(e - p) < sizeof buf - 1 ? (size_t)(e - p) : sizeof buf - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	t->integer = !dot && !expo;
	if (t->integer && hex) {
		t->value = (double)(int64_t)acc; /* wraps around, as Lua's hex integers do */
	} else {
		t->value = strtod(buf, NULL);
		/* a decimal integer too large for an integer is read as a float */
		if (t->integer && !hex && (digits > 19 || t->value >= 9223372036854775808.0)) t->integer = false;
	}
	return true;
}

static const char *const keywords[] = {"and",   "break", "do",   "else", "elseif", "end",    "false", "for",
                                       "function", "goto", "if", "in",  "local",  "nil",   "not",   "or",
                                       "repeat", "return", "then", "true", "until", "while", NULL};
static const char *const ops3[] = {"...", NULL};
static const char *const ops2[] = {"//", "<<", ">>", "==", "~=", "<=", ">=", "::", "..", NULL};
static const char ops1[] = "+-*/%^#&~|<>=(){}[];:,.";

bool th_lex(const char *src, size_t len, bool keep_comments, th_token **toks, int *count, char *err, size_t errlen)
{
	lexer lx = {src, len, 0, 1, err, errlen};
	th_token *out = NULL;
	int n = 0, cap = 0;
	*toks = NULL;
	*count = 0;
	if (len > 0 && src[0] == '#')
		while (lx.i < len && !is_newline(cur(&lx))) lx.i++;
	for (;;) {
		int c = cur(&lx);
		if (c >= 0 && is_newline(c)) {
			newline(&lx);
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
			lx.i++;
			continue;
		}
		th_token t = {0};
		t.start = lx.i;
		t.line = lx.line;
		if (c < 0) {
			t.kind = TH_T_EOF;
		} else if (c == '-' && peek(&lx, 1) == '-') {
			t.kind = TH_T_COMMENT;
			lx.i += 2;
			int level = cur(&lx) == '[' ? long_level(&lx) : -1;
			if (level >= 0) {
				if (!long_body(&lx, level, "comment")) goto bad;
			} else {
				while (cur(&lx) >= 0 && !is_newline(cur(&lx))) lx.i++;
			}
		} else if (c == '[' && long_level(&lx) >= 0) {
			t.kind = TH_T_STRING;
			if (!long_body(&lx, long_level(&lx), "string")) goto bad;
		} else if (c == '[' && long_level(&lx) == -2) {
			fail(&lx, "invalid long string delimiter");
			goto bad;
		} else if (c == '"' || c == '\'') {
			t.kind = TH_T_STRING;
			if (!short_string(&lx)) goto bad;
		} else if (isdigit(c) || (c == '.' && isdigit(peek(&lx, 1)))) {
			t.kind = TH_T_NUMBER;
			const char *expo = "Ee";
			if (c == '0' && (peek(&lx, 1) == 'x' || peek(&lx, 1) == 'X')) expo = "Pp", lx.i += 2;
			for (;;) {
				int d = cur(&lx);
				if (d >= 0 && strchr(expo, d) != NULL) {
					lx.i++;
					if (cur(&lx) == '+' || cur(&lx) == '-') lx.i++;
				} else if (d >= 0 && (isxdigit(d) || d == '.')) {
					lx.i++;
				} else {
					break;
				}
			}
			if (cur(&lx) >= 0 && (isalpha(cur(&lx)) || cur(&lx) == '_')) lx.i++; /* malformed, as in Lua */
			t.end = lx.i;
			if (!numeral(&lx, &t)) goto bad;
		} else if (isalpha(c) || c == '_') {
			while (cur(&lx) >= 0 && (isalnum(cur(&lx)) || cur(&lx) == '_')) lx.i++;
			t.kind = TH_T_NAME;
			size_t k = lx.i - t.start;
			for (int j = 0; keywords[j] != NULL; j++) {
				if (keywords[j][0] == src[t.start] && strlen(keywords[j]) == k &&
				    memcmp(keywords[j], src + t.start, k) == 0) {
					t.kind = TH_T_KEYWORD;
					memcpy(t.sym, keywords[j], k + 1);
				}
			}
		} else {
			t.kind = TH_T_OP;
			size_t k = 0;
			for (int j = 0; k == 0 && ops3[j] != NULL; j++)
				if (len - lx.i >= 3 && memcmp(ops3[j], src + lx.i, 3) == 0) k = 3;
			for (int j = 0; k == 0 && ops2[j] != NULL; j++)
				if (len - lx.i >= 2 && memcmp(ops2[j], src + lx.i, 2) == 0) k = 2;
			if (k == 0 && strchr(ops1, c) != NULL) k = 1;
			if (k == 0) {
				fail(&lx, "unexpected symbol near '%c'", isprint(c) ? c : '?');
				goto bad;
			}
			memcpy(t.sym, src + lx.i, k);
			lx.i += k;
		}
		t.end = lx.i;
		t.last_line = lx.line;
		if (t.kind == TH_T_COMMENT && !keep_comments) continue;
		if (n == cap) {
			int ncap = cap ? cap * 2 : 256;
			th_token *p = realloc(out, sizeof *out * (size_t)ncap);
			if (p == NULL) {
				fail(&lx, "out of memory");
				goto bad;
			}
			out = p, cap = ncap;
		}
		out[n++] = t;
		if (t.kind == TH_T_EOF) break;
	}
	*toks = out;
	*count = n;
	return true;
bad:
	free(out);
	return false;
}
