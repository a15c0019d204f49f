/* tumble host: the source rewriter's lexer (a real Lua 5.4 lexer over a byte
 * buffer; no SDL, no Lua state). The edit operations on a call's table
 * constructor build on these tokens. */
#ifndef TH_REWRITE_H
#define TH_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum th_tok_kind { TH_T_EOF, TH_T_NAME, TH_T_KEYWORD, TH_T_NUMBER, TH_T_STRING, TH_T_OP, TH_T_COMMENT } th_tok_kind;

typedef struct th_token {
	th_tok_kind kind;
	size_t start, end; /* bytes [start, end) of the source */
	int line, last_line; /* 1-based lines of its first and last byte */
	char sym[9];       /* a keyword's or operator's text */
	bool integer;      /* a number: an integer literal (else a float) */
	double value;      /* a number's value (a hex integer wraps as Lua's does) */
} th_token;

/* Splits src into tokens, ending with a TH_T_EOF token; comments are tokens
 * only with keep_comments. A first line starting with '#' is skipped, as
 * luaL_loadfile does. Returns false with a message naming the line on a
 * malformed source; *toks is malloc'd (free it) on success. */
bool th_lex(const char *src, size_t len, bool keep_comments, th_token **toks, int *count, char *err, size_t errlen);

#endif
