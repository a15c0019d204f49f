/* The source rewriter's lexer (src/host/rewrite.c): every token form of Lua
 * 5.4, and the malformed sources it must refuse as Lua does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "rewrite.h"

static int lex(const char *s, bool comments, th_token **t)
{
	int n = 0;
	char err[200];
	assert_true(th_lex(s, strlen(s), comments, t, &n, err, sizeof err));
	return n;
}

static void expect_text(const char *s, const th_token *t, const char *text)
{
	assert_int_equal(t->end - t->start, strlen(text));
	assert_memory_equal(s + t->start, text, strlen(text));
}

static void test_token_forms(void **state)
{
	const char *s = "#!/usr/bin/lua\nlocal x = 0x10 + 1.5e3 + 0x1p4 + .5 + 3 .. [==[a]]\n]==] --[[c\n]] "
	                "\"\\z\n  \\x41\\u{48}\\065\" ... // ~= a.b:c{} -- tail\n'q\\'' 0xA.8P-1 1E+2";
	th_token *t;
	int n = lex(s, true, &t);
	const char *texts[] = {"local", "x", "=", "0x10", "+", "1.5e3", "+", "0x1p4", "+", ".5", "+", "3", "..",
	                       "[==[a]]\n]==]", "--[[c\n]]", "\"\\z\n  \\x41\\u{48}\\065\"", "...", "//", "~=",
	                       "a", ".", "b", ":", "c", "{", "}", "-- tail", "'q\\''", "0xA.8P-1", "1E+2"};
	int count = (int)(sizeof texts / sizeof *texts);
	assert_int_equal(n, count + 1);
	for (int i = 0; i < count; i++) expect_text(s, &t[i], texts[i]);
	assert_int_equal(t[0].kind, TH_T_KEYWORD);
	assert_int_equal(t[0].line, 2); /* the shebang line is skipped */
	assert_int_equal(t[3].kind, TH_T_NUMBER);
	assert_true(t[3].integer);
	assert_true(t[3].value == 16);
	assert_false(t[5].integer);
	assert_true(t[5].value == 1500);
	assert_true(t[7].value == 16);
	assert_true(t[9].value == 0.5);
	assert_true(t[28].value == 5.25);
	assert_true(t[29].value == 100);
	assert_int_equal(t[13].kind, TH_T_STRING);
	assert_int_equal(t[13].last_line, 3);
	assert_int_equal(t[14].kind, TH_T_COMMENT);
	assert_int_equal(t[15].line, 4);
	assert_int_equal(t[15].last_line, 5);
	assert_int_equal(t[count].kind, TH_T_EOF);
	free(t);
	n = lex(s, false, &t); /* comments dropped */
	assert_int_equal(n, count - 1);
	free(t);
}

static void test_numbers(void **state)
{
	th_token *t;
	lex("0xffffffffffffffff 9223372036854775808 12", false, &t);
	assert_true(t[0].integer && t[0].value == -1); /* wraps, as Lua's hex integers */
	assert_false(t[1].integer); /* too large: a float */
	assert_true(t[2].integer && t[2].value == 12);
	free(t);
}

static void test_refusals(void **state)
{
	const char *bad[] = {"x = 3e", "x = 0x", "x = 1..2", "x = 3x", "'\\q'", "'\\300'", "'\\x4'", "'\\u{}'",
	                     "'\\u{80000000}'", "[=[ ", "--[[ ", "[=x", "'abc", "'a\nb'", "a $ b", "a ! b", NULL};
	for (int i = 0; bad[i] != NULL; i++) {
		th_token *t = NULL;
		int n;
		char err[200] = "";
		if (th_lex(bad[i], strlen(bad[i]), false, &t, &n, err, sizeof err)) fail_msg("accepted %s", bad[i]);
		assert_non_null(strstr(err, "line 1: "));
		assert_null(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_forms),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
