/* tumble host: edits of a level's Lua source (see source_edit.h).
 *
 * A recursive-descent parser of Lua 5.4 over the lexer's tokens (rewrite.h)
 * records what the edits need: every method call whose argument is a table
 * constructor, every table constructor's fields (key and value extent), every
 * statement (its block, its function, a `local NAME = ...`'s name) and every
 * function (its name, parameters, body). An edit is a list of byte
 * replacements on the original text; the result is parsed again before it is
 * returned. Anything the parser does not accept, or any shape of code the
 * edits do not know, is refused. */
#include "source_edit.h"

#include "rewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------- the parse ---------------- */

typedef struct pfield {
	int table;          /* its table constructor */
	int key;            /* name token (named), -1 positional, -2 bracketed key */
	int index;          /* positional: 1, 2, ... */
	int first, last;    /* the value's tokens */
} pfield;

typedef struct ptable {
	int open, close;    /* '{' and '}' tokens */
	int field0, nfields;
} ptable;

typedef struct pcall {
	int prefix, name;   /* the suffixed expression's first token; the method's name */
	int table;          /* its argument */
	int last;           /* the call's last token ('}' or ')') */
	int stmt, func;
	bool in_loop;
} pcall;

enum { S_OTHER, S_CALL, S_LOCAL, S_ASSIGN };

typedef struct pstmt {
	int first, last;
	int block, func, kind;
	int name;           /* S_LOCAL with one name, S_ASSIGN with one target: that token (the target's first) */
	int nnames, nexps;
	int exp_first;      /* the first expression's first token */
} pstmt;

typedef struct pblock {
	int func;
	int end;            /* the token that ends it ('end', 'else', 'until', EOF...) */
	int nstmts;
} pblock;

typedef struct pfunc {
	char name[64];
	int param1;         /* the first parameter's token, -1 */
	int block;          /* its body */
	int end;            /* its 'end' token (-1: the main chunk) */
} pfunc;

#define ARRAY(T, name) \
	T *name;           \
	int n_##name, cap_##name

typedef struct parser {
	const char *src;
	size_t len;
	th_token *t;
	int n, i;
	jmp_buf fail;
	char *err;
	size_t errlen;
	int depth, loops, func, block, stmt;
	ARRAY(pfield, fields);
	ARRAY(ptable, tables);
	ARRAY(pcall, calls);
	ARRAY(pstmt, stmts);
	ARRAY(pblock, blocks);
	ARRAY(pfunc, funcs);
} parser;

#define PUSH(p, name)                                                                                         \
	(grow((p), (void **)&(p)->name, &(p)->cap_##name, (p)->n_##name + 1, sizeof *(p)->name),                  \
	 memset(&(p)->name[(p)->n_##name], 0, sizeof *(p)->name), (p)->n_##name++)

static _Noreturn void perr(parser *p, const char *fmt, ...)
{
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	int line = p->i < p->n ? p->t[p->i].line : 0;
	if (p->errlen > 0) snprintf(p->err, p->errlen, "line %d: %s", line, msg);
	longjmp(p->fail, 1);
}

static void grow(parser *p, void **a, int *cap, int need, size_t size)
{
	if (need <= *cap) return;
	int ncap = *cap ? *cap * 2 : 64;
	while (ncap < need) ncap *= 2;
	void *q = realloc(*a, size * (size_t)ncap);
	if (q == NULL) perr(p, "out of memory");
	*a = q;
	*cap = ncap;
}

static const th_token *tok(parser *p) { return &p->t[p->i]; }
static bool is_sym(const th_token *t, const char *s)
{
	return t->sym[0] == s[0] && (t->kind == TH_T_OP || t->kind == TH_T_KEYWORD) && strcmp(t->sym, s) == 0;
}
static bool at(parser *p, const char *s) { return is_sym(tok(p), s); }
static bool at_name(parser *p) { return tok(p)->kind == TH_T_NAME; }
static void next(parser *p)
{
	if (tok(p)->kind != TH_T_EOF) p->i++;
}
static bool accept(parser *p, const char *s)
{
	if (!at(p, s)) return false;
	next(p);
	return true;
}
static void expect(parser *p, const char *s)
{
	if (!accept(p, s)) perr(p, "'%s' expected", s);
}
static void expect_name(parser *p)
{
	if (!at_name(p)) perr(p, "name expected");
	next(p);
}

static void enter(parser *p)
{
	if (++p->depth > 180) perr(p, "nesting too deep to edit");
}
static void leave(parser *p) { p->depth--; }

static void expr(parser *p);
static void block(parser *p);
static int suffixedexp(parser *p, bool *is_call);

static int table(parser *p)
{
	enter(p);
	int ti = PUSH(p, tables);
	p->tables[ti].open = p->i;
	expect(p, "{");
	/* the fields are gathered here, then appended together: a nested table
	 * appends its own meanwhile */
	pfield local[16], *fs = local;
	int nf = 0, cap = 16, pos = 0;
	while (!at(p, "}")) {
		pfield f = {ti, -1, 0, 0, 0};
		if (at(p, "[")) {
			next(p);
			expr(p);
			expect(p, "]");
			expect(p, "=");
			f.key = -2;
		} else if (at_name(p) && is_sym(&p->t[p->i + 1], "=")) {
			f.key = p->i;
			next(p);
			next(p);
		} else {
			f.index = ++pos;
		}
		f.first = p->i;
		expr(p);
		f.last = p->i - 1;
		if (nf == cap) {
			pfield *q = malloc(sizeof *q * (size_t)cap * 2);
			if (q == NULL) {
				if (fs != local) free(fs);
				perr(p, "out of memory");
			}
			memcpy(q, fs, sizeof *q * (size_t)nf);
			if (fs != local) free(fs);
			fs = q, cap *= 2;
		}
		fs[nf++] = f;
		if (!accept(p, ",") && !accept(p, ";")) break;
	}
	if (!at(p, "}")) {
		if (fs != local) free(fs);
		perr(p, "'}' expected");
	}
	p->tables[ti].close = p->i;
	next(p);
	p->tables[ti].field0 = p->n_fields;
	p->tables[ti].nfields = nf;
	for (int k = 0; k < nf; k++) {
		int fi = PUSH(p, fields);
		p->fields[fi] = fs[k];
	}
	if (fs != local) free(fs);
	leave(p);
	return ti;
}

/* funcbody: '(' parlist ')' block 'end' */
static void funcbody(parser *p, const char *name, bool method)
{
	enter(p);
	int fi = PUSH(p, funcs);
	snprintf(p->funcs[fi].name, sizeof p->funcs[fi].name, "%s", name);
	p->funcs[fi].param1 = -1;
	expect(p, "(");
	if (!at(p, ")")) {
		for (;;) {
			if (at(p, "...")) {
				next(p);
				break;
			}
			if (!at_name(p)) perr(p, "name expected");
			if (p->funcs[fi].param1 < 0) p->funcs[fi].param1 = p->i;
			next(p);
			if (!accept(p, ",")) break;
		}
	}
	expect(p, ")");
	int saved = p->func;
	p->func = fi;
	p->funcs[fi].block = p->n_blocks; /* the block block() makes first */
	block(p);
	p->func = saved;
	p->funcs[fi].end = p->i;
	expect(p, "end");
	leave(p);
}

static void args(parser *p, int prefix, int name)
{
	if (at(p, "{")) {
		int ti = table(p);
		if (name >= 0) {
			int ci = PUSH(p, calls);
			p->calls[ci] = (pcall){prefix, name, ti, p->i - 1, p->stmt, p->func, p->loops > 0};
		}
	} else if (tok(p)->kind == TH_T_STRING) {
		next(p);
	} else if (at(p, "(")) {
		next(p);
		int first = p->i, ntables = p->n_tables;
		int nexp = 0;
		if (!at(p, ")")) {
			for (;;) {
				expr(p);
				nexp++;
				if (!accept(p, ",")) break;
			}
		}
		int last = p->i - 1;
		expect(p, ")");
		/* m({...}): the one argument is a table constructor */
		if (name >= 0 && nexp == 1 && p->n_tables > ntables && p->tables[ntables].open == first &&
		    p->tables[ntables].close == last) {
			int ci = PUSH(p, calls);
			p->calls[ci] = (pcall){prefix, name, ntables, p->i - 1, p->stmt, p->func, p->loops > 0};
		}
	} else {
		perr(p, "function arguments expected");
	}
}

/* Returns the first token; *is_call: the last suffix was a call. */
static int suffixedexp(parser *p, bool *is_call)
{
	enter(p);
	int first = p->i;
	if (at_name(p)) {
		next(p);
	} else if (at(p, "(")) {
		next(p);
		expr(p);
		expect(p, ")");
	} else {
		perr(p, "unexpected symbol");
	}
	bool call = false;
	for (;;) {
		if (at(p, ".")) {
			next(p);
			expect_name(p);
			call = false;
		} else if (at(p, "[")) {
			next(p);
			expr(p);
			expect(p, "]");
			call = false;
		} else if (at(p, ":")) {
			next(p);
			int name = p->i;
			expect_name(p);
			args(p, first, name);
			call = true;
		} else if (at(p, "(") || at(p, "{") || tok(p)->kind == TH_T_STRING) {
			args(p, first, -1);
			call = true;
		} else {
			break;
		}
	}
	if (is_call != NULL) *is_call = call;
	leave(p);
	return first;
}

static bool is_binop(const th_token *t)
{
	static const char *const ops[] = {"+", "-", "*", "/", "//", "%", "^", "..", "==", "~=", "<", "<=", ">", ">=",
	                                  "and", "or", "&", "|", "~", "<<", ">>", NULL};
	if (t->kind != TH_T_OP && t->kind != TH_T_KEYWORD) return false;
	for (int k = 0; ops[k] != NULL; k++)
		if (t->sym[0] == ops[k][0] && strcmp(t->sym, ops[k]) == 0) return true;
	return false;
}

static void simpleexp(parser *p)
{
	const th_token *t = tok(p);
	if (t->kind == TH_T_NUMBER || t->kind == TH_T_STRING || at(p, "nil") || at(p, "true") || at(p, "false") ||
	    at(p, "...")) {
		next(p);
	} else if (at(p, "{")) {
		table(p);
	} else if (at(p, "function")) {
		next(p);
		funcbody(p, "(anonymous)", false);
	} else {
		suffixedexp(p, NULL);
	}
}

static void expr(parser *p)
{
	enter(p);
	if (at(p, "not") || at(p, "-") || at(p, "#") || at(p, "~")) {
		next(p);
		expr(p);
	} else {
		simpleexp(p);
		while (is_binop(tok(p))) {
			next(p);
			expr(p);
		}
	}
	leave(p);
}

static int explist(parser *p)
{
	int n = 1;
	expr(p);
	while (accept(p, ",")) expr(p), n++;
	return n;
}

static bool block_follow(parser *p)
{
	return tok(p)->kind == TH_T_EOF || at(p, "else") || at(p, "elseif") || at(p, "end") || at(p, "until");
}

static void loop_block(parser *p)
{
	p->loops++;
	block(p);
	p->loops--;
}

/* The text of tokens [first, last] with no spaces, if it is short: a name for a function. */
static void token_text(parser *p, int first, int last, char *out, size_t size)
{
	size_t k = 0;
	out[0] = '\0';
	for (int i = first; i <= last; i++) {
		size_t n = p->t[i].end - p->t[i].start;
		if (k + n + 1 > size) return;
		memcpy(out + k, p->src + p->t[i].start, n);
		k += n;
		out[k] = '\0';
	}
}

/* The expressions after the "=" of an assignment or a local statement of
 * nnames targets (tokens [first, last] name the one target): a function
 * given to a single name is parsed under that name. Returns how many. */
static int assigned_explist(parser *p, int nnames, int first, int last)
{
	if (nnames != 1 || !at(p, "function")) return explist(p);
	char fname[64];
	token_text(p, first, last, fname, sizeof fname);
	next(p);
	funcbody(p, fname, false);
	int nexps = 1;
	while (accept(p, ",")) expr(p), nexps++;
	return nexps;
}

static void statement(parser *p)
{
	enter(p);
	int si = PUSH(p, stmts);
	p->stmts[si].first = p->i;
	p->stmts[si].block = p->block;
	p->stmts[si].func = p->func;
	p->stmts[si].name = -1;
	p->stmts[si].exp_first = -1;
	int saved = p->stmt;
	p->stmt = si;
	int kind = S_OTHER, name = -1, nnames = 0, nexps = 0, exp_first = -1;
	if (accept(p, ";")) {
	} else if (accept(p, "if")) {
		expr(p);
		expect(p, "then");
		block(p);
		while (accept(p, "elseif")) {
			expr(p);
			expect(p, "then");
			block(p);
		}
		if (accept(p, "else")) block(p);
		expect(p, "end");
	} else if (accept(p, "while")) {
		expr(p);
		expect(p, "do");
		loop_block(p);
		expect(p, "end");
	} else if (accept(p, "do")) {
		block(p);
		expect(p, "end");
	} else if (accept(p, "for")) {
		expect_name(p);
		if (accept(p, "=")) {
			expr(p);
			expect(p, ",");
			expr(p);
			if (accept(p, ",")) expr(p);
		} else {
			while (accept(p, ",")) expect_name(p);
			expect(p, "in");
			explist(p);
		}
		expect(p, "do");
		loop_block(p);
		expect(p, "end");
	} else if (accept(p, "repeat")) {
		p->loops++;
		block(p);
		expect(p, "until");
		expr(p);
		p->loops--;
	} else if (accept(p, "function")) {
		int first = p->i;
		bool method = false;
		expect_name(p);
		while (at(p, ".") || at(p, ":")) {
			method = at(p, ":");
			next(p);
			expect_name(p);
			if (method) break;
		}
		char fname[64];
		token_text(p, first, p->i - 1, fname, sizeof fname);
		funcbody(p, fname, method);
	} else if (accept(p, "local")) {
		if (accept(p, "function")) {
			char fname[64];
			token_text(p, p->i, p->i, fname, sizeof fname);
			expect_name(p);
			funcbody(p, fname, false);
		} else {
			kind = S_LOCAL;
			name = p->i;
			for (;;) {
				expect_name(p);
				nnames++;
				if (accept(p, "<")) {
					expect_name(p);
					expect(p, ">");
				}
				if (!accept(p, ",")) break;
			}
			if (accept(p, "=")) {
				exp_first = p->i;
				nexps = assigned_explist(p, nnames, name, name);
			}
		}
	} else if (accept(p, "::")) {
		expect_name(p);
		expect(p, "::");
	} else if (accept(p, "break")) {
	} else if (accept(p, "goto")) {
		expect_name(p);
	} else {
		bool call = false;
		int first = suffixedexp(p, &call);
		if (at(p, "=") || at(p, ",")) {
			kind = S_ASSIGN;
			name = first;
			nnames = 1;
			int target_last = p->i - 1;
			while (accept(p, ",")) {
				suffixedexp(p, &call);
				nnames++;
			}
			expect(p, "=");
			exp_first = p->i;
			nexps = assigned_explist(p, nnames, first, target_last);
		} else if (call) {
			kind = S_CALL;
		} else {
			perr(p, "syntax error");
		}
	}
	p->stmts[si].last = p->i - 1;
	p->stmts[si].kind = kind;
	p->stmts[si].name = name;
	p->stmts[si].nnames = nnames;
	p->stmts[si].nexps = nexps;
	p->stmts[si].exp_first = exp_first;
	p->stmt = saved;
	leave(p);
}

static void block(parser *p)
{
	enter(p);
	int bi = PUSH(p, blocks);
	p->blocks[bi].func = p->func;
	int saved = p->block;
	p->block = bi;
	while (!block_follow(p)) {
		if (at(p, "return")) {
			int si = PUSH(p, stmts);
			p->stmts[si] = (pstmt){p->i, 0, bi, p->func, S_OTHER, -1, 0, 0, -1};
			int s2 = p->stmt;
			p->stmt = si;
			next(p);
			if (!block_follow(p) && !at(p, ";")) explist(p);
			accept(p, ";");
			p->stmts[si].last = p->i - 1;
			p->stmt = s2;
			p->blocks[bi].nstmts++;
			if (!block_follow(p)) perr(p, "'<eof>' expected");
			break;
		}
		statement(p);
		p->blocks[bi].nstmts++;
	}
	p->blocks[bi].end = p->i;
	p->block = saved;
	leave(p);
}

static void parser_free(parser *p)
{
	free(p->t);
	free(p->fields);
	free(p->tables);
	free(p->calls);
	free(p->stmts);
	free(p->blocks);
	free(p->funcs);
}

/* Parses src: false with a message (and nothing to free) on failure. */
static bool parse(parser *p, const char *src, size_t len, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	p->src = src;
	p->len = len;
	p->err = err;
	p->errlen = errlen;
	/* as the host's loader: a UTF-8 byte order mark is skipped (and the lexer
	 * skips a first line starting with '#') */
	size_t skip = len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	if (!th_lex(src + skip, len - skip, false, &p->t, &p->n, err, errlen)) return false;
	for (int k = 0; k < p->n && skip > 0; k++) p->t[k].start += skip, p->t[k].end += skip;
	if (setjmp(p->fail)) {
		parser_free(p);
		return false;
	}
	/* the main chunk is function 0, its block block 0 */
	int fi = PUSH(p, funcs);
	p->funcs[fi].param1 = -1;
	p->funcs[fi].end = -1;
	p->func = fi;
	p->block = -1;
	p->stmt = -1;
	block(p);
	p->funcs[fi].block = 0;
	if (tok(p)->kind != TH_T_EOF) perr(p, "'<eof>' expected");
	return true;
}

/* ---------------- reading a call ---------------- */

static void fail_msg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (errlen > 0) vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static bool tok_is(const parser *p, int i, const char *text)
{
	size_t n = p->t[i].end - p->t[i].start;
	return strlen(text) == n && memcmp(p->src + p->t[i].start, text, n) == 0;
}

static void tok_copy(const parser *p, int i, char *out, size_t size)
{
	size_t n = p->t[i].end - p->t[i].start;
	if (n >= size) n = size - 1;
	memcpy(out, p->src + p->t[i].start, n);
	out[n] = '\0';
}

/* A load function: "load", or a name ending ".load" or ":load". */
static bool is_load_name(const char *name)
{
	size_t n = strlen(name);
	return strcmp(name, "load") == 0 || (n > 5 && strcmp(name + n - 4, "load") == 0 && (name[n - 5] == '.' || name[n - 5] == ':'));
}

static bool in_helper(const parser *p, int func) { return func != 0 && !is_load_name(p->funcs[func].name); }

static int find_call(parser *p, int line, const char *method, char *err, size_t errlen)
{
	int found = -1, count = 0;
	for (int c = 0; c < p->n_calls; c++) {
		if (p->t[p->calls[c].prefix].line == line && tok_is(p, p->calls[c].name, method)) {
			if (found < 0) found = c;
			count++;
		}
	}
	if (count == 0) fail_msg(err, errlen, "no %s{...} call at line %d", method, line);
	if (count > 1) fail_msg(err, errlen, "%d %s{...} calls at line %d: cannot tell which", count, method, line);
	return count == 1 ? found : -1;
}

static th_value_kind classify(const parser *p, const pfield *f, double *num)
{
	const th_token *a = &p->t[f->first], *b = &p->t[f->last];
	*num = 0;
	if (f->first == f->last) {
		if (a->kind == TH_T_NUMBER) {
			*num = a->value;
			return TH_VALUE_NUMBER;
		}
		if (a->kind == TH_T_STRING || is_sym(a, "nil") || is_sym(a, "true") || is_sym(a, "false"))
			return TH_VALUE_LITERAL;
	}
	if (f->first + 1 == f->last && is_sym(a, "-") && b->kind == TH_T_NUMBER) {
		*num = -b->value;
		return TH_VALUE_NUMBER;
	}
	return TH_VALUE_COMPUTED;
}

/* The bytes [start, end) on one line: runs of white space become one space. */
static void one_line(const char *s, size_t start, size_t end, char *out, size_t size)
{
	size_t k = 0;
	bool space = false;
	for (size_t i = start; i < end; i++) {
		char c = s[i];
		bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
		if (ws) {
			space = true;
			continue;
		}
		if (space && k > 0 && k + 1 < size) out[k++] = ' ';
		space = false;
		if (k + 1 >= size) break;
		out[k++] = c;
	}
	out[k] = '\0';
	if (k + 1 >= size && size > 4) memcpy(out + size - 4, "...", 4);
}

static void field_name(const parser *p, const pfield *f, char *out, size_t size)
{
	if (f->key >= 0) tok_copy(p, f->key, out, size);
	else if (f->key == -1) snprintf(out, size, "[%d]", f->index);
	else snprintf(out, size, "[?]");
}

static void fill_call(parser *p, int c, th_call *out)
{
	const pcall *pc = &p->calls[c];
	const pstmt *st = &p->stmts[pc->stmt];
	const ptable *tb = &p->tables[pc->table];
	memset(out, 0, sizeof *out);
	tok_copy(p, pc->name, out->method, sizeof out->method);
	out->line = p->t[pc->prefix].line;
	out->start = p->t[pc->prefix].start;
	out->end = p->t[pc->last].end;
	out->table_start = p->t[tb->open].start;
	out->table_end = p->t[tb->close].end;
	for (int k = 0; k < tb->nfields && out->field_count < TH_SOURCE_MAX_FIELDS; k++) {
		const pfield *f = &p->fields[tb->field0 + k];
		th_field *o = &out->fields[out->field_count++];
		field_name(p, f, o->name, sizeof o->name);
		o->start = p->t[f->first].start;
		o->end = p->t[f->last].end;
		o->line = p->t[f->first].line;
		o->kind = classify(p, f, &o->number);
		one_line(p->src, o->start, o->end, o->text, sizeof o->text);
	}
	out->stmt_start = p->t[st->first].start;
	out->stmt_end = p->t[st->last].end;
	if (st->kind == S_CALL) {
		out->own_statement = pc->prefix == st->first && pc->last == st->last;
	} else if ((st->kind == S_LOCAL || st->kind == S_ASSIGN) && st->nnames == 1 && st->nexps == 1) {
		out->own_statement = pc->prefix == st->exp_first && pc->last == st->last;
		if (st->kind == S_LOCAL && out->own_statement) tok_copy(p, st->name, out->local_name, sizeof out->local_name);
	}
	out->in_loop = pc->in_loop;
	snprintf(out->function, sizeof out->function, "%s", pc->func == 0 ? "" : p->funcs[pc->func].name);
	out->in_helper = in_helper(p, pc->func);
}

bool th_source_find_call(const char *src, size_t len, int line, const char *method, th_call *out, char *err,
                         size_t errlen)
{
	parser p;
	if (!parse(&p, src, len, err, errlen)) return false;
	int c = find_call(&p, line, method, err, errlen);
	if (c >= 0) fill_call(&p, c, out);
	parser_free(&p);
	return c >= 0;
}

int th_source_list_calls(const char *src, size_t len, th_call_ref *out, int max, char *err, size_t errlen)
{
	parser p;
	if (!parse(&p, src, len, err, errlen)) return -1;
	/* calls are recorded when their arguments end: sort them by where they start */
	int n = p.n_calls;
	for (int k = 0; k < n; k++) {
		int best = -1;
		for (int j = 0; j < n; j++) {
			if (p.calls[j].prefix < 0) continue;
			if (best < 0 || p.calls[j].name < p.calls[best].name) best = j;
		}
		if (k < max) {
			out[k].line = p.t[p.calls[best].prefix].line;
			tok_copy(&p, p.calls[best].name, out[k].method, sizeof out[k].method);
		}
		p.calls[best].prefix = -1;
	}
	parser_free(&p);
	return n;
}

bool th_source_format_number(double v, char *buf, size_t size)
{
	if (!isfinite(v) || size < 32) return false;
	if (v == 0) {
		snprintf(buf, size, signbit(v) ? "-0.0" : "0");
		return true;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) != v) continue;
		/* %g writes 30 as 3e+01: below 1e16, the same digits without an exponent */
		const char *e = strchr(buf, 'e');
		if (e != NULL && fabs(v) < 1e16 && fabs(v) >= 1e-5) {
			int exponent = atoi(e + 1), decimals = prec - 1 - exponent;
			char fixed[64];
			snprintf(fixed, sizeof fixed, "%.*f", decimals > 0 ? decimals : 0, v);
			if (strtod(fixed, NULL) == v && strlen(fixed) < size) memcpy(buf, fixed, strlen(fixed) + 1);
		}
		return true;
	}
	return true;
}

/* ---------------- edits: byte replacements ---------------- */

typedef struct edit {
	size_t at, del;
	char *text;
} edit;

typedef struct edits {
	edit e[64];
	int n;
	bool oom;
} edits;

static void add_edit(edits *ed, size_t at, size_t del, const char *text)
{
	if (ed->n == 64) {
		ed->oom = true;
		return;
	}
	char *copy = strdup(text);
	if (copy == NULL) {
		ed->oom = true;
		return;
	}
	ed->e[ed->n++] = (edit){at, del, copy};
}

static void edits_free(edits *ed)
{
	for (int k = 0; k < ed->n; k++) free(ed->e[k].text);
	ed->n = 0;
}

static int edit_cmp(const void *a, const void *b)
{
	const edit *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at ? 1 : 0;
}

/* Applies the edits that fall in [from, to) of src to that range: a new
 * malloc'd text. False if two overlap. */
static bool apply_edits(const char *src, size_t from, size_t to, edits *ed, char **out, size_t *out_len)
{
	qsort(ed->e, (size_t)ed->n, sizeof *ed->e, edit_cmp);
	size_t size = to - from + 1;
	for (int k = 0; k < ed->n; k++) size += strlen(ed->e[k].text);
	char *buf = malloc(size);
	if (buf == NULL) return false;
	size_t pos = from, k = 0;
	for (int j = 0; j < ed->n; j++) {
		const edit *e = &ed->e[j];
		if (e->at < from || e->at + e->del > to) continue;
		if (e->at < pos) {
			free(buf);
			return false;
		}
		memcpy(buf + k, src + pos, e->at - pos);
		k += e->at - pos;
		size_t n = strlen(e->text);
		memcpy(buf + k, e->text, n);
		k += n;
		pos = e->at + e->del;
	}
	memcpy(buf + k, src + pos, to - pos);
	k += to - pos;
	buf[k] = '\0';
	*out = buf;
	*out_len = k;
	return true;
}

/* The result of an edit: parsed again, or refused. */
static bool finish(const char *src, size_t len, edits *ed, char **out, size_t *out_len, char *err, size_t errlen)
{
	if (ed->oom || !apply_edits(src, 0, len, ed, out, out_len)) {
		edits_free(ed);
		fail_msg(err, errlen, "out of memory, or overlapping changes");
		return false;
	}
	edits_free(ed);
	parser check;
	char perr_msg[160];
	if (!parse(&check, *out, *out_len, perr_msg, sizeof perr_msg)) {
		free(*out);
		*out = NULL;
		fail_msg(err, errlen, "the change would not parse (%s): refused", perr_msg);
		return false;
	}
	parser_free(&check);
	return true;
}

static const char *newline_of(const char *src, size_t len)
{
	const char *nl = memchr(src, '\n', len);
	return nl != NULL && nl > src && nl[-1] == '\r' ? "\r\n" : "\n";
}

/* The start of the line holding byte at, and whether only blanks precede at on it. */
static size_t line_start(const char *src, size_t at, bool *blank)
{
	size_t s = at;
	while (s > 0 && src[s - 1] != '\n' && src[s - 1] != '\r') s--;
	*blank = true;
	for (size_t k = s; k < at; k++)
		if (src[k] != ' ' && src[k] != '\t') *blank = false;
	return s;
}

/* From at: blanks, then optionally a short comment, then the line's end (or
 * the text's). Returns the position of the newline (or len), or (size_t)-1 if
 * something else comes first (another token, a long comment). */
static size_t rest_of_line(const char *src, size_t len, size_t at)
{
	size_t k = at;
	while (k < len && (src[k] == ' ' || src[k] == '\t')) k++;
	if (k + 1 < len && src[k] == '-' && src[k + 1] == '-') {
		size_t j = k + 2;
		if (j < len && src[j] == '[') {
			size_t e = j + 1;
			while (e < len && src[e] == '=') e++;
			if (e < len && src[e] == '[') return (size_t)-1; /* a long comment */
		}
		while (k < len && src[k] != '\n' && src[k] != '\r') k++;
	}
	if (k == len || src[k] == '\n' || src[k] == '\r') return k;
	return (size_t)-1;
}

/* The file's style of constructors: a blank after '{'? (the first non-empty one) */
static bool spaced_braces(const parser *p)
{
	for (int t = 0; t < p->n_tables; t++) {
		const ptable *tb = &p->tables[t];
		if (tb->nfields == 0) continue;
		char c = p->src[p->t[tb->open].end];
		return c == ' ' || c == '\t';
	}
	return true;
}

/* The edits that add `name = value` at the end of table ti, in its style. */
static bool add_field(parser *p, int ti, const char *name, const char *value, edits *ed, char *err, size_t errlen)
{
	const ptable *tb = &p->tables[ti];
	const char *src = p->src;
	const char *nl = newline_of(src, p->len);
	char field[256];
	const pfield *named = NULL;
	for (int k = 0; k < tb->nfields && named == NULL; k++)
		if (p->fields[tb->field0 + k].key >= 0) named = &p->fields[tb->field0 + k];
	bool eq_space = named == NULL || p->t[named->key].end != p->t[named->key + 1].start;
	snprintf(field, sizeof field, "%s%s%s", name, eq_space ? " = " : "=", value);
	size_t open = p->t[tb->open].end, close = p->t[tb->close].start;
	if (tb->nfields == 0) {
		bool blank = true;
		for (size_t k = open; k < close; k++)
			if (src[k] != ' ' && src[k] != '\t') blank = false;
		char text[300];
		bool spaced = spaced_braces(p);
		snprintf(text, sizeof text, spaced ? " %s " : "%s", field);
		if (blank) add_edit(ed, open, close - open, text);
		else add_edit(ed, open, 0, text);
		return true;
	}
	const pfield *lastf = &p->fields[tb->field0 + tb->nfields - 1];
	int L = lastf->last, S = is_sym(&p->t[L + 1], ",") || is_sym(&p->t[L + 1], ";") ? L + 1 : -1;
	char sep = S >= 0 ? src[p->t[S].start] : ',';
	/* the separator's style: the first one's following blank */
	bool sep_space = true;
	for (int k = 0; k + 1 < tb->nfields; k++) {
		int s = p->fields[tb->field0 + k].last + 1;
		char c = src[p->t[s].end];
		sep_space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
		break;
	}
	int key_tok = lastf->key >= 0 ? lastf->key : lastf->first;
	bool starts_line;
	size_t ls = line_start(src, p->t[key_tok].start, &starts_line);
	size_t after = S >= 0 ? p->t[S].end : p->t[L].end;
	size_t eol = rest_of_line(src, p->len, after);
	if (p->t[tb->close].line > p->t[L].last_line && starts_line && eol != (size_t)-1) {
		/* one field per line: a new line, indented as the last field */
		char indent[128];
		size_t n = p->t[key_tok].start - ls;
		if (n >= sizeof indent) n = sizeof indent - 1;
		memcpy(indent, src + ls, n);
		indent[n] = '\0';
		char text[512];
		snprintf(text, sizeof text, "%s%s%s%s", nl, indent, field, S >= 0 ? (char[]){sep, 0} : "");
		if (S < 0) add_edit(ed, p->t[L].end, 0, ",");
		add_edit(ed, eol, 0, text);
		return true;
	}
	char text[300];
	if (S >= 0) snprintf(text, sizeof text, "%s%s%c", sep_space ? " " : "", field, sep);
	else snprintf(text, sizeof text, "%c%s%s", sep, sep_space ? " " : "", field);
	add_edit(ed, after, 0, text);
	(void)err, (void)errlen;
	return true;
}

/* The field of table ti named by one path component ("x", "2", "[2]"). */
static int field_of(const parser *p, int ti, const char *comp)
{
	const ptable *tb = &p->tables[ti];
	const char *c = comp[0] == '[' ? comp + 1 : comp;
	char *endp;
	long idx = strtol(c, &endp, 10);
	bool positional = endp != c && (*endp == '\0' || (*endp == ']' && endp[1] == '\0'));
	int found = -1;
	for (int k = 0; k < tb->nfields; k++) {
		const pfield *f = &p->fields[tb->field0 + k];
		if (positional ? (f->key == -1 && f->index == idx) : (f->key >= 0 && tok_is(p, f->key, comp))) {
			if (found >= 0) return -2; /* given twice: the last wins in Lua, the first would look edited */
			found = tb->field0 + k;
		}
	}
	return found;
}

/* The table constructor that is field f's whole value, or -1. */
static int table_value(const parser *p, int f)
{
	for (int t = 0; t < p->n_tables; t++)
		if (p->tables[t].open == p->fields[f].first && p->tables[t].close == p->fields[f].last) return t;
	return -1;
}

static bool valid_name(const char *s)
{
	if (!(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return false;
	for (const char *c = s; *c; c++)
		if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'))) return false;
	static const char *const kw[] = {"and", "break", "do", "else", "elseif", "end", "false", "for", "function",
	                                 "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
	                                 "true", "until", "while", NULL};
	for (int k = 0; kw[k]; k++)
		if (strcmp(s, kw[k]) == 0) return false;
	return strlen(s) < 32;
}

/* The edits that set path (in table ti) to the text value; mode: 0 set, 1
 * offset a number by dx (value is dx's text; a computed value gets "+ dx"). */
static bool set_path(parser *p, int ti, const char *path, double value, int mode, edits *ed, char *err, size_t errlen)
{
	char comp[64];
	const char *dot = strchr(path, '.');
	size_t n = dot ? (size_t)(dot - path) : strlen(path);
	if (n == 0 || n >= sizeof comp) {
		fail_msg(err, errlen, "bad field name '%s'", path);
		return false;
	}
	memcpy(comp, path, n);
	comp[n] = '\0';
	int f = field_of(p, ti, comp);
	if (f == -2) {
		fail_msg(err, errlen, "field '%s' is given twice in the constructor at line %d; not rewritten", comp,
		         p->t[p->tables[ti].open].line);
		return false;
	}
	if (dot != NULL) {
		if (f < 0) {
			fail_msg(err, errlen, "no field '%s' to change '%s' in", comp, path);
			return false;
		}
		int sub = table_value(p, f);
		if (sub < 0) {
			fail_msg(err, errlen, "field '%s' is not a table constructor (line %d)", comp, p->t[p->fields[f].first].line);
			return false;
		}
		return set_path(p, sub, dot + 1, value, mode, ed, err, errlen);
	}
	char num[64];
	if (f < 0) {
		if (!valid_name(comp)) {
			fail_msg(err, errlen, "field '%s' is absent and cannot be added by name", comp);
			return false;
		}
		if (!th_source_format_number(value, num, sizeof num)) {
			fail_msg(err, errlen, "not a finite number");
			return false;
		}
		return add_field(p, ti, comp, num, ed, err, errlen);
	}
	const pfield *fl = &p->fields[f];
	double old;
	th_value_kind kind = classify(p, fl, &old);
	size_t start = p->t[fl->first].start, end = p->t[fl->last].end;
	if (kind == TH_VALUE_NUMBER) {
		double v = mode == 1 ? old + value : value;
		if (!th_source_format_number(v, num, sizeof num)) {
			fail_msg(err, errlen, "not a finite number");
			return false;
		}
		add_edit(ed, start, end - start, num);
		return true;
	}
	char text[TH_SOURCE_TEXT];
	one_line(p->src, start, end, text, sizeof text);
	if (kind == TH_VALUE_COMPUTED && mode == 1) {
		if (!th_source_format_number(fabs(value), num, sizeof num)) return false;
		char wrap[96];
		snprintf(wrap, sizeof wrap, ") %c %s", value < 0 ? '-' : '+', num);
		add_edit(ed, start, 0, "(");
		add_edit(ed, end, 0, wrap);
		return true;
	}
	fail_msg(err, errlen, "%s, line %d: %s; not rewritten", kind == TH_VALUE_COMPUTED ? "computed" : "not a number",
	         p->t[fl->first].line, text);
	return false;
}

bool th_source_set_number(const char *src, size_t len, int line, const char *method, const char *field, double value,
                          bool refuse_shared, char **out, size_t *out_len, char *err, size_t errlen)
{
	parser p;
	*out = NULL;
	if (!parse(&p, src, len, err, errlen)) return false;
	int c = find_call(&p, line, method, err, errlen);
	bool ok = c >= 0;
	if (ok && refuse_shared && (p.calls[c].in_loop || in_helper(&p, p.calls[c].func))) {
		fail_msg(err, errlen, "line %d: the call is in %s: it makes several objects; not rewritten", line,
		         p.calls[c].in_loop ? "a loop" : "a helper function");
		ok = false;
	}
	edits ed = {0};
	if (ok) ok = set_path(&p, p.calls[c].table, field, value, 0, &ed, err, errlen);
	parser_free(&p);
	if (!ok) {
		edits_free(&ed);
		return false;
	}
	return finish(src, len, &ed, out, out_len, err, errlen);
}

/* ---------------- duplicate and delete ---------------- */

/* The statements that make the object of call c: [first, last] statement
 * indices of one block, or false with the reason. */
static bool object_group(parser *p, int c, int *first, int *last, int *local_tok, char *err, size_t errlen)
{
	th_call view;
	fill_call(p, c, &view);
	const pcall *pc = &p->calls[c];
	int line = view.line;
	if (pc->in_loop) {
		fail_msg(err, errlen, "line %d: made in a loop (several objects come from this call); not changed", line);
		return false;
	}
	if (in_helper(p, pc->func)) {
		fail_msg(err, errlen, "line %d: made in function %s, a helper that may run many times; not changed", line,
		         p->funcs[pc->func].name);
		return false;
	}
	if (!view.own_statement) {
		fail_msg(err, errlen, "line %d: the %s{...} call is part of a larger expression; not changed", line,
		         view.method);
		return false;
	}
	const pstmt *st = &p->stmts[pc->stmt];
	if (st->kind == S_ASSIGN) {
		char target[64];
		token_text(p, st->first, st->exp_first - 2, target, sizeof target);
		fail_msg(err, errlen, "line %d: the object is stored in %s, which a copy would overwrite; not changed", line,
		         target[0] ? target : "a variable");
		return false;
	}
	*first = *last = pc->stmt;
	*local_tok = st->kind == S_LOCAL ? st->name : -1;
	if (*local_tok < 0) return true;
	/* the statements right after it, in its block, that start with its name */
	for (int s = pc->stmt + 1; s < p->n_stmts; s++) {
		if (p->stmts[s].block != st->block) continue;
		if (p->stmts[s].first <= p->stmts[*last].last) continue; /* nested in an earlier one */
		char name[64];
		tok_copy(p, *local_tok, name, sizeof name);
		if (p->t[p->stmts[s].first].kind == TH_T_NAME && tok_is(p, p->stmts[s].first, name)) *last = s;
		else break;
	}
	return true;
}

/* Whether token i is a use of a variable name: not after '.' or ':' (a field
 * or method), not a key of a table constructor (`name =` after '{' ',' ';'),
 * not after 'goto' or '::'. */
static bool is_variable_use(const parser *p, int i)
{
	if (i > 0) {
		const th_token *b = &p->t[i - 1];
		if (is_sym(b, ".") || is_sym(b, ":") || is_sym(b, "goto") || is_sym(b, "::")) return false;
		if ((is_sym(b, "{") || is_sym(b, ",") || is_sym(b, ";")) && is_sym(&p->t[i + 1], "=")) return false;
	}
	return true;
}

static bool name_used(const parser *p, const char *name)
{
	for (int i = 0; i < p->n; i++)
		if (p->t[i].kind == TH_T_NAME && tok_is(p, i, name)) return true;
	return false;
}

static void fresh_name(const parser *p, const char *base, char *out, size_t size)
{
	/* a base ending in digits counts on from them: b1 -> b2 */
	char stem[48];
	size_t n = strlen(base);
	while (n > 0 && base[n - 1] >= '0' && base[n - 1] <= '9') n--;
	if (n >= sizeof stem) n = sizeof stem - 1;
	memcpy(stem, base, n);
	stem[n] = '\0';
	for (int k = 1;; k++) {
		snprintf(out, size, "%s%d", stem, k);
		if (!name_used(p, out)) return;
	}
}

/* The edits that move the copy of call c by dx. */
static bool offset_call(parser *p, int c, double dx, edits *ed, char *err, size_t errlen)
{
	const pcall *pc = &p->calls[c];
	int ti = pc->table;
	if (tok_is(p, pc->name, "joint")) return true;
	if (tok_is(p, pc->name, "capsule") || tok_is(p, pc->name, "segment")) {
		bool list = field_of(p, ti, "1") >= 0;
		return set_path(p, ti, list ? "1" : "x1", dx, 1, ed, err, errlen) &&
		       set_path(p, ti, list ? "3" : "x2", dx, 1, ed, err, errlen);
	}
	if (tok_is(p, pc->name, "polygon") || tok_is(p, pc->name, "chain")) {
		const ptable *tb = &p->tables[ti];
		for (int k = 0; k < tb->nfields; k++) {
			const pfield *f = &p->fields[tb->field0 + k];
			if (f->key != -1 || f->index % 2 == 0) continue;
			char idx[16];
			snprintf(idx, sizeof idx, "%d", f->index);
			if (!set_path(p, ti, idx, dx, 1, ed, err, errlen)) return false;
		}
		return true;
	}
	return set_path(p, ti, "x", dx, 1, ed, err, errlen);
}

static int find_object(parser *p, const char *src, size_t len, int line, const char *method, int *first, int *last,
                       int *local_tok, char *err, size_t errlen)
{
	if (!parse(p, src, len, err, errlen)) return -1;
	int c = find_call(p, line, method, err, errlen);
	if (c < 0 || !object_group(p, c, first, last, local_tok, err, errlen)) {
		parser_free(p);
		return -1;
	}
	return c;
}

bool th_source_duplicate(const char *src, size_t len, int line, const char *method, double dx, char **out,
                         size_t *out_len, char *err, size_t errlen)
{
	parser p;
	int first, last, local_tok;
	*out = NULL;
	int c = find_object(&p, src, len, line, method, &first, &last, &local_tok, err, errlen);
	if (c < 0) return false;
	size_t gs = p.t[p.stmts[first].first].start, ge = p.t[p.stmts[last].last].end;
	edits copy = {0};
	bool ok = offset_call(&p, c, dx, &copy, err, errlen);
	if (ok && local_tok >= 0) {
		char name[64], fresh[64];
		tok_copy(&p, local_tok, name, sizeof name);
		fresh_name(&p, name, fresh, sizeof fresh);
		for (int i = p.stmts[first].first; i <= p.stmts[last].last; i++)
			if (p.t[i].kind == TH_T_NAME && tok_is(&p, i, name) && is_variable_use(&p, i))
				add_edit(&copy, p.t[i].start, p.t[i].end - p.t[i].start, fresh);
	}
	char *text = NULL;
	size_t tlen = 0;
	bool blank;
	size_t ls = line_start(src, gs, &blank);
	size_t eol = rest_of_line(src, len, ge);
	bool lines = blank && eol != (size_t)-1;
	size_t from = lines ? ls : gs;
	if (ok && (copy.oom || !apply_edits(src, from, ge, &copy, &text, &tlen))) {
		fail_msg(err, errlen, "out of memory, or overlapping changes");
		ok = false;
	}
	edits_free(&copy);
	parser_free(&p);
	if (!ok) return false;
	/* whole lines: the copy on lines of its own after the group; else after it on its line */
	const char *nl = newline_of(src, len);
	char *ins = malloc(tlen + 8);
	if (ins == NULL) {
		free(text);
		fail_msg(err, errlen, "out of memory");
		return false;
	}
	edits ed = {0};
	if (lines) {
		snprintf(ins, tlen + 8, "%s%s", nl, text);
		add_edit(&ed, eol, 0, ins);
	} else {
		snprintf(ins, tlen + 8, "; %s", text);
		add_edit(&ed, ge, 0, ins);
	}
	free(ins);
	free(text);
	return finish(src, len, &ed, out, out_len, err, errlen);
}

bool th_source_delete(const char *src, size_t len, int line, const char *method, char **out, size_t *out_len,
                      char *err, size_t errlen)
{
	parser p;
	int first, last, local_tok;
	*out = NULL;
	int c = find_object(&p, src, len, line, method, &first, &last, &local_tok, err, errlen);
	if (c < 0) return false;
	if (local_tok >= 0) {
		char name[64];
		tok_copy(&p, local_tok, name, sizeof name);
		int end = p.blocks[p.stmts[first].block].end;
		for (int i = p.stmts[last].last + 1; i < end; i++) {
			if (p.t[i].kind == TH_T_NAME && tok_is(&p, i, name) && is_variable_use(&p, i)) {
				fail_msg(err, errlen, "line %d: %s is used at line %d; not deleted", line, name, p.t[i].line);
				parser_free(&p);
				return false;
			}
		}
	}
	size_t gs = p.t[p.stmts[first].first].start, ge = p.t[p.stmts[last].last].end;
	parser_free(&p);
	bool blank;
	size_t ls = line_start(src, gs, &blank);
	size_t eol = rest_of_line(src, len, ge);
	edits ed = {0};
	if (blank && eol != (size_t)-1) {
		/* the whole lines, with the newline that ends them */
		size_t e = eol;
		if (e < len && src[e] == '\r' && e + 1 < len && src[e + 1] == '\n') e += 2;
		else if (e < len) e += 1;
		add_edit(&ed, ls, e - ls, "");
	} else {
		/* the statement alone */
		add_edit(&ed, gs, ge - gs, "");
	}
	return finish(src, len, &ed, out, out_len, err, errlen);
}

/* ---------------- palette ---------------- */

static int find_load(const parser *p, char *err, size_t errlen)
{
	int found = -1, count = 0;
	for (int f = 1; f < p->n_funcs; f++) {
		if (is_load_name(p->funcs[f].name)) {
			if (found < 0) found = f;
			count++;
		}
	}
	if (count == 0) fail_msg(err, errlen, "no load function (function level.load(world) ... end) to add to");
	if (count > 1) fail_msg(err, errlen, "%d load functions: cannot tell which to add to", count);
	return count == 1 ? found : -1;
}

/* The body's name for a joint: the call at line must be `local NAME =
 * world:body{...}` in the load function's own block. */
static bool body_name(parser *p, int line, int load, char *name, size_t size, char *err, size_t errlen)
{
	int c = find_call(p, line, "body", err, errlen);
	if (c < 0) return false;
	const pstmt *st = &p->stmts[p->calls[c].stmt];
	th_call view;
	fill_call(p, c, &view);
	if (view.local_name[0] == '\0' || st->block != p->funcs[load].block) {
		fail_msg(err, errlen, "line %d: the body has no local name in %s's own block to join it by", line,
		         p->funcs[load].name);
		return false;
	}
	snprintf(name, size, "%s", view.local_name);
	return true;
}

bool th_source_insert(const char *src, size_t len, const th_palette_item *item, char **out, size_t *out_len,
                      int *new_line, char *err, size_t errlen)
{
	parser p;
	*out = NULL;
	if (!parse(&p, src, len, err, errlen)) return false;
	int load = find_load(&p, err, errlen);
	bool ok = load >= 0;
	char world[64] = "", text[1024] = "", indent[64] = "";
	size_t at = 0;
	if (ok && p.funcs[load].param1 < 0) {
		fail_msg(err, errlen, "%s takes no world parameter", p.funcs[load].name);
		ok = false;
	}
	if (ok) {
		tok_copy(&p, p.funcs[load].param1, world, sizeof world);
		int end = p.funcs[load].end;
		bool blank;
		at = line_start(src, p.t[end].start, &blank);
		if (!blank) {
			fail_msg(err, errlen, "%s's 'end' does not start its line (line %d)", p.funcs[load].name, p.t[end].line);
			ok = false;
		}
		/* the indent of its last statement, or the end's and one step more */
		int last = -1;
		for (int s = 0; s < p.n_stmts; s++)
			if (p.stmts[s].block == p.funcs[load].block) last = s;
		size_t to = last >= 0 ? p.t[p.stmts[last].first].start : 0, from = to;
		bool stmt_blank = false;
		if (last >= 0) from = line_start(src, to, &stmt_blank);
		if (stmt_blank && to - from < sizeof indent) {
			snprintf(indent, sizeof indent, "%.*s", (int)(to - from), src + from);
		} else {
			size_t n = p.t[end].start - at;
			if (n > 40) n = 40;
			snprintf(indent, sizeof indent, "%.*s%s", (int)n, src + at, (n > 0 && src[at] == '\t') ? "\t" : "  ");
		}
		*new_line = p.t[end].line;
	}
	bool sp = spaced_braces(&p);
	const char *o = sp ? "{ " : "{", *cl = sp ? " }" : "}";
	const char *nl = newline_of(src, len);
	char x[40], y[40], a[40], b[40], name[64];
	if (ok) {
		bool fine = th_source_format_number(item->x, x, sizeof x) && th_source_format_number(item->y, y, sizeof y);
		const char *body_type = item->kind == TH_PALETTE_PLATFORM ? "static" : "dynamic";
		const char *base = item->kind == TH_PALETTE_BOX ? "box" : item->kind == TH_PALETTE_CIRCLE ? "circle"
		                   : item->kind == TH_PALETTE_CAPSULE ? "capsule" : "platform";
		if (item->kind == TH_PALETTE_JOINT) {
			char na[64], nb[64];
			ok = body_name(&p, item->line_a, load, na, sizeof na, err, errlen) &&
			     body_name(&p, item->line_b, load, nb, sizeof nb, err, errlen);
			if (ok) snprintf(text, sizeof text, "%s%s:joint%skind = \"revolute\", a = %s, b = %s, x = %s, y = %s%s%s",
			                 indent, world, o, na, nb, x, y, cl, nl);
		} else {
			fresh_name(&p, base, name, sizeof name);
			int k = snprintf(text, sizeof text, "%slocal %s = %s:body%stype = \"%s\", x = %s, y = %s%s%s", indent,
			                 name, world, o, body_type, x, y, cl, nl);
			if (item->kind == TH_PALETTE_BOX || item->kind == TH_PALETTE_PLATFORM) {
				fine = fine && th_source_format_number(item->w, a, sizeof a) && th_source_format_number(item->h, b, sizeof b);
				snprintf(text + k, sizeof text - (size_t)k, "%s%s:box%sw = %s, h = %s%s%s", indent, name, o, a, b, cl, nl);
			} else if (item->kind == TH_PALETTE_CIRCLE) {
				fine = fine && th_source_format_number(item->r, a, sizeof a);
				snprintf(text + k, sizeof text - (size_t)k, "%s%s:circle%sr = %s%s%s", indent, name, o, a, cl, nl);
			} else {
				char h1[40], h2[40];
				fine = fine && th_source_format_number(item->r, a, sizeof a) &&
				       th_source_format_number(-item->w / 2, h1, sizeof h1) &&
				       th_source_format_number(item->w / 2, h2, sizeof h2);
				snprintf(text + k, sizeof text - (size_t)k, "%s%s:capsule%sx1 = %s, y1 = 0, x2 = %s, y2 = 0, r = %s%s%s",
				         indent, name, o, h1, h2, a, cl, nl);
			}
		}
		if (ok && !fine) {
			fail_msg(err, errlen, "not a finite number");
			ok = false;
		}
	}
	parser_free(&p);
	if (!ok) return false;
	edits ed = {0};
	add_edit(&ed, at, 0, text);
	return finish(src, len, &ed, out, out_len, err, errlen);
}

/* ---------------- the session ---------------- */

typedef struct text {
	char *s;
	size_t n;
} text;

typedef struct step {
	text before, after;
} step;

struct th_source_session {
	char *path;
	text now, original;
	step *undo, *redo;
	int n_undo, cap_undo, n_redo, cap_redo;
};

/* Source files larger than this are not edited. */
#define MAX_SOURCE (16u << 20)

static bool read_file(const char *path, text *out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		fail_msg(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return false;
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	while (buf != NULL) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap) break;
		if (cap >= MAX_SOURCE) {
			free(buf);
			fclose(f);
			fail_msg(err, errlen, "%s is larger than %u bytes: not edited", path, MAX_SOURCE);
			return false;
		}
		char *q = realloc(buf, cap * 2 + 1);
		if (q == NULL) free(buf);
		buf = q, cap *= 2;
	}
	bool bad = buf == NULL || ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		fail_msg(err, errlen, "cannot read %s", path);
		return false;
	}
	buf[n] = '\0';
	out->s = buf;
	out->n = n;
	return true;
}

static bool same(const text *a, const char *s, size_t n) { return a->n == n && memcmp(a->s, s, n) == 0; }

static bool dup_text(text *out, const char *s, size_t n)
{
	out->s = malloc(n + 1);
	if (out->s == NULL) return false;
	memcpy(out->s, s, n);
	out->s[n] = '\0';
	out->n = n;
	return true;
}

/* Writes the file whole or not at all: a temporary file in the same folder,
 * flushed, given the file's mode, then renamed over it. */
static bool write_atomic(const char *path, const char *s, size_t n, char *err, size_t errlen)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	if (tmp == NULL) {
		fail_msg(err, errlen, "out of memory");
		return false;
	}
	snprintf(tmp, plen + 16, "%s.edit-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fail_msg(err, errlen, "cannot write next to %s: %s", path, strerror(errno));
		free(tmp);
		return false;
	}
	struct stat st;
	if (stat(path, &st) == 0) (void)fchmod(fd, st.st_mode & 07777);
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(fd, s + done, n - done);
		if (w < 0 && errno == EINTR) continue;
		if (w <= 0) break;
		done += (size_t)w;
	}
	bool ok = done == n && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (ok && rename(tmp, path) != 0) ok = false;
	if (!ok) {
		fail_msg(err, errlen, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return ok;
}

th_source_session *th_source_open(const char *path, char *err, size_t errlen)
{
	th_source_session *s = calloc(1, sizeof *s);
	/* the file itself, not a symbolic link to it, is what gets replaced */
	char *real = realpath(path, NULL);
	if (s != NULL) s->path = real != NULL ? real : strdup(path);
	if (s == NULL || s->path == NULL) {
		free(s);
		fail_msg(err, errlen, "out of memory");
		return NULL;
	}
	if (!read_file(path, &s->now, err, errlen)) {
		free(s->path);
		free(s);
		return NULL;
	}
	if (!dup_text(&s->original, s->now.s, s->now.n)) {
		th_source_close(s);
		fail_msg(err, errlen, "out of memory");
		return NULL;
	}
	return s;
}

static void free_steps(step *a, int n)
{
	for (int k = 0; k < n; k++) free(a[k].before.s), free(a[k].after.s);
}

void th_source_close(th_source_session *s)
{
	if (s == NULL) return;
	free_steps(s->undo, s->n_undo);
	free_steps(s->redo, s->n_redo);
	free(s->undo);
	free(s->redo);
	free(s->now.s);
	free(s->original.s);
	free(s->path);
	free(s);
}

const char *th_source_text(const th_source_session *s, size_t *len)
{
	*len = s->now.n;
	return s->now.s;
}

const char *th_source_original(const th_source_session *s, size_t *len)
{
	*len = s->original.n;
	return s->original.s;
}

int th_source_undo_count(const th_source_session *s) { return s->n_undo; }
int th_source_redo_count(const th_source_session *s) { return s->n_redo; }

/* Room for one more step, made before the file is written: once it is, the
 * step is kept. */
static bool reserve(step **a, int n, int *cap)
{
	if (n < *cap) return true;
	int ncap = *cap ? *cap * 2 : 16;
	step *q = realloc(*a, sizeof *q * (size_t)ncap);
	if (q == NULL) return false;
	*a = q, *cap = ncap;
	return true;
}

/* The call's bytes in a text, or false. */
static bool call_bytes(const char *src, size_t len, int line, const char *method, size_t *start, size_t *end)
{
	th_call *c = malloc(sizeof *c);
	char err[8];
	bool ok = c != NULL && th_source_find_call(src, len, line, method, c, err, sizeof err);
	if (ok) *start = c->start, *end = c->end;
	free(c);
	return ok;
}

static bool run_edit(const char *src, size_t len, th_source_edit *e, char **out, size_t *out_len, char *err,
                     size_t errlen)
{
	const char *m = e->method != NULL ? e->method : "";
	switch (e->op) {
		case TH_EDIT_SET_NUMBER:
			return th_source_set_number(src, len, e->line, m, e->field != NULL ? e->field : "", e->value,
			                            e->refuse_shared, out, out_len, err, errlen);
		case TH_EDIT_DUPLICATE: return th_source_duplicate(src, len, e->line, m, e->value, out, out_len, err, errlen);
		case TH_EDIT_DELETE: return th_source_delete(src, len, e->line, m, out, out_len, err, errlen);
		case TH_EDIT_INSERT: return th_source_insert(src, len, &e->item, out, out_len, &e->new_line, err, errlen);
	}
	fail_msg(err, errlen, "unknown edit");
	return false;
}

/* Whether what edit e changes is in disk with the same bytes as in the
 * session's text: the edit may then go to the changed text. */
static bool still_there(const th_source_session *s, const text *disk, const th_source_edit *e)
{
	bool still = true;
	if (e->op == TH_EDIT_INSERT) {
		for (int k = 0; k < 2 && e->item.kind == TH_PALETTE_JOINT; k++) {
			int line = k == 0 ? e->item.line_a : e->item.line_b;
			size_t a0, a1, b0, b1;
			still = still && call_bytes(s->now.s, s->now.n, line, "body", &a0, &a1) &&
			        call_bytes(disk->s, disk->n, line, "body", &b0, &b1) && a1 - a0 == b1 - b0 &&
			        memcmp(s->now.s + a0, disk->s + b0, a1 - a0) == 0;
		}
	} else {
		size_t a0, a1, b0, b1;
		const char *m = e->method != NULL ? e->method : "";
		still = call_bytes(s->now.s, s->now.n, e->line, m, &a0, &a1) &&
		        call_bytes(disk->s, disk->n, e->line, m, &b0, &b1) && a1 - a0 == b1 - b0 &&
		        memcmp(s->now.s + a0, disk->s + b0, a1 - a0) == 0;
	}
	return still;
}

bool th_source_apply(th_source_session *s, th_source_edit *e, char *err, size_t errlen)
{
	return th_source_apply_group(s, e, 1, err, errlen);
}

bool th_source_apply_group(th_source_session *s, th_source_edit *edits, int n, char *err, size_t errlen)
{
	if (n < 1) {
		fail_msg(err, errlen, "no edit to apply");
		return false;
	}
	text disk;
	if (!read_file(s->path, &disk, err, errlen)) return false;
	if (!same(&s->now, disk.s, disk.n)) {
		/* changed on disk since: the edits go to the new text if what they
		 * change is there with the same bytes */
		for (int i = 0; i < n; i++) {
			const th_source_edit *e = &edits[i];
			if (!still_there(s, &disk, e)) {
				free(disk.s);
				fail_msg(err, errlen, "%s changed on disk and the text to change (line %d) is no longer there; "
				         "nothing changed", s->path, e->op == TH_EDIT_INSERT ? e->item.line_a : e->line);
				return false;
			}
		}
	}
	/* each edit goes to the text the one before it made; the first refusal
	 * drops them all */
	char *out = NULL;
	size_t out_len = 0;
	for (int i = 0; i < n; i++) {
		const char *in = i == 0 ? disk.s : out;
		size_t in_len = i == 0 ? disk.n : out_len;
		char *next = NULL;
		size_t next_len = 0;
		bool done = run_edit(in, in_len, &edits[i], &next, &next_len, err, errlen);
		if (i > 0) free(out);
		if (!done) {
			free(disk.s);
			return false;
		}
		out = next, out_len = next_len;
	}
	text now = {0};
	bool ok = dup_text(&now, out, out_len) && reserve(&s->undo, s->n_undo, &s->cap_undo);
	if (!ok) fail_msg(err, errlen, "out of memory");
	if (!ok || !write_atomic(s->path, out, out_len, err, errlen)) {
		free(now.s);
		free(disk.s);
		free(out);
		return false;
	}
	s->undo[s->n_undo++] = (step){disk, {out, out_len}};
	free(s->now.s);
	s->now = now;
	free_steps(s->redo, s->n_redo);
	s->n_redo = 0;
	return true;
}

bool th_source_reread(th_source_session *s, char *err, size_t errlen)
{
	text disk;
	if (!read_file(s->path, &disk, err, errlen)) return false;
	free(s->now.s);
	s->now = disk;
	return true;
}

/* Moves the top step of from to to, writing its `want` side; the file must
 * still be the session's text, which must be the step's other side. */
static bool travel(th_source_session *s, bool undo, char *err, size_t errlen)
{
	step *from = undo ? s->undo : s->redo;
	int *n = undo ? &s->n_undo : &s->n_redo;
	if (*n == 0) {
		fail_msg(err, errlen, "nothing to %s", undo ? "undo" : "redo");
		return false;
	}
	text disk;
	if (!read_file(s->path, &disk, err, errlen)) return false;
	bool unchanged = same(&s->now, disk.s, disk.n);
	free(disk.s);
	if (!unchanged) {
		fail_msg(err, errlen, "%s changed on disk since the last edit; %s would lose that change: nothing changed",
		         s->path, undo ? "undoing" : "redoing");
		return false;
	}
	step st = from[*n - 1];
	const text *have = undo ? &st.after : &st.before, *want = undo ? &st.before : &st.after;
	if (!same(have, s->now.s, s->now.n)) {
		fail_msg(err, errlen, "%s changed on disk after that edit; %s it would lose that change: nothing changed",
		         s->path, undo ? "undoing" : "redoing");
		return false;
	}
	step **to = undo ? &s->redo : &s->undo;
	int *to_n = undo ? &s->n_redo : &s->n_undo, *to_cap = undo ? &s->cap_redo : &s->cap_undo;
	text now = {0};
	if (!dup_text(&now, want->s, want->n) || !reserve(to, *to_n, to_cap)) {
		free(now.s);
		fail_msg(err, errlen, "out of memory");
		return false;
	}
	if (!write_atomic(s->path, want->s, want->n, err, errlen)) {
		free(now.s);
		return false;
	}
	(*to)[(*to_n)++] = st;
	(*n)--;
	free(s->now.s);
	s->now = now;
	return true;
}

bool th_source_undo(th_source_session *s, char *err, size_t errlen) { return travel(s, true, err, errlen); }
bool th_source_redo(th_source_session *s, char *err, size_t errlen) { return travel(s, false, err, errlen); }
