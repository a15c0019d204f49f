/* The edits of a level's source (src/host/source_edit.c): the exact text of
 * every kind of edit, the refusals and their reasons, the session's undo,
 * redo, atomic writes and changes on disk, and a fuzz: every rewrite of every
 * .lua file of the repository and of random programs must load in Lua
 * (luaL_loadbuffer) and differ from the original only where intended.
 * TUMBLE_FUZZ_REWRITE_ROUNDS sets the random programs' count (make
 * fuzz-rewrite runs many), TUMBLE_FUZZ_REWRITE_SEED their seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "source_edit.h"

static char err[512];

/* ---------------- exact texts ---------------- */

static const char level[] = "local level = {}\n"                                               /* 1 */
                            "\n"                                                               /* 2 */
                            "function level.load(world)\n"                                     /* 3 */
                            "  local b = world:body{ type = \"dynamic\", x = 1.5, y = -2 }\n"  /* 4 */
                            "  b:box{ w = 1, h = 0.5 } -- the crate\n"                         /* 5 */
                            "  for i = 1, 3 do\n"                                              /* 6 */
                            "    world:body{ x = i * 1.05, y = 0x10 }\n"                       /* 7 */
                            "  end\n"                                                          /* 8 */
                            "  world:body{type = \"static\"}\n"                                /* 9 */
                            "end\n"                                                            /* 10 */
                            "\n"                                                               /* 11 */
                            "return level\n";                                                  /* 12 */

/* src with the first occurrence of from replaced by to (a test's expectation). */
static char *replaced(const char *src, const char *from, const char *to)
{
	const char *at = strstr(src, from);
	assert_non_null(at);
	size_t n = strlen(src) - strlen(from) + strlen(to);
	char *out = malloc(n + 1);
	size_t k = (size_t)(at - src);
	memcpy(out, src, k);
	strcpy(out + k, to);
	strcat(out, at + strlen(from));
	return out;
}

static void expect_set(const char *src, int line, const char *method, const char *field, double v, bool refuse_shared,
                       const char *from, const char *to)
{
	char *out = NULL;
	size_t n = 0;
	if (!th_source_set_number(src, strlen(src), line, method, field, v, refuse_shared, &out, &n, err, sizeof err))
		fail_msg("refused: %s", err);
	char *want = replaced(src, from, to);
	assert_int_equal(n, strlen(want));
	assert_string_equal(out, want);
	free(out);
	free(want);
}

static void expect_refused_set(const char *src, int line, const char *method, const char *field, double v,
                               bool refuse_shared, const char *why)
{
	char *out = NULL;
	size_t n = 0;
	assert_false(th_source_set_number(src, strlen(src), line, method, field, v, refuse_shared, &out, &n, err, sizeof err));
	assert_null(out);
	if (strstr(err, why) == NULL) fail_msg("message '%s' lacks '%s'", err, why);
}

static void test_find_call(void **state)
{
	th_call c;
	assert_true(th_source_find_call(level, strlen(level), 4, "body", &c, err, sizeof err));
	assert_string_equal(c.method, "body");
	assert_int_equal(c.field_count, 3);
	assert_string_equal(c.fields[0].name, "type");
	assert_int_equal(c.fields[0].kind, TH_VALUE_LITERAL);
	assert_string_equal(c.fields[0].text, "\"dynamic\"");
	assert_string_equal(c.fields[1].name, "x");
	assert_int_equal(c.fields[1].kind, TH_VALUE_NUMBER);
	assert_true(c.fields[1].number == 1.5);
	assert_int_equal(c.fields[2].kind, TH_VALUE_NUMBER);
	assert_true(c.fields[2].number == -2);
	assert_string_equal(c.fields[2].text, "-2");
	assert_memory_equal(level + c.fields[2].start, "-2", 2);
	assert_int_equal(c.fields[2].line, 4);
	assert_true(c.own_statement);
	assert_string_equal(c.local_name, "b");
	assert_false(c.in_loop);
	assert_false(c.in_helper);
	assert_string_equal(c.function, "level.load");
	assert_memory_equal(level + c.start, "world:body{", 11);
	assert_int_equal(level[c.table_end - 1], '}');

	assert_true(th_source_find_call(level, strlen(level), 7, "body", &c, err, sizeof err));
	assert_int_equal(c.fields[0].kind, TH_VALUE_COMPUTED);
	assert_string_equal(c.fields[0].text, "i * 1.05");
	assert_int_equal(c.fields[0].line, 7);
	assert_true(c.fields[1].number == 16);
	assert_true(c.in_loop);

	assert_false(th_source_find_call(level, strlen(level), 4, "box", &c, err, sizeof err));
	assert_non_null(strstr(err, "no box{...} call at line 4"));
	const char *two = "local a, b = w:body{ x = 1 }, w:body{ x = 2 }\n";
	assert_false(th_source_find_call(two, strlen(two), 1, "body", &c, err, sizeof err));
	assert_non_null(strstr(err, "2 body{...} calls at line 1"));
	const char *bad = "w:body{ x = 1\n";
	assert_false(th_source_find_call(bad, strlen(bad), 1, "body", &c, err, sizeof err));
	/* m({...}), a call over several lines: the line is where its prefix starts */
	const char *paren = "local b = world\n  :body({\n  x = 3 })\n";
	assert_true(th_source_find_call(paren, strlen(paren), 1, "body", &c, err, sizeof err));
	assert_int_equal(c.field_count, 1);
	assert_int_equal(c.fields[0].line, 3);
}

static void test_set_number(void **state)
{
	/* a move writes one number */
	expect_set(level, 4, "body", "x", 2.25, true, "x = 1.5", "x = 2.25");
	expect_set(level, 4, "body", "y", -0.5, true, "y = -2", "y = -0.5");
	expect_set(level, 4, "body", "y", 3, true, "y = -2", "y = 3");
	expect_set(level, 4, "body", "x", 0.1 + 0.2, true, "x = 1.5", "x = 0.30000000000000004");
	expect_set(level, 4, "body", "x", 1e21, true, "x = 1.5", "x = 1e+21");
	expect_set(level, 4, "body", "x", 30, true, "x = 1.5", "x = 30");
	expect_set(level, 4, "body", "x", -1500, true, "x = 1.5", "x = -1500");
	expect_set(level, 4, "body", "x", 1.5e10, true, "x = 1.5", "x = 15000000000");
	expect_set(level, 4, "body", "x", 0.0001, true, "x = 1.5", "x = 0.0001");
	expect_set(level, 4, "body", "x", 1e-7, true, "x = 1.5", "x = 1e-07");
	expect_set(level, 5, "box", "w", 2, true, "w = 1,", "w = 2,");
	/* a hex literal in a loop: written when the editor allows shared edits */
	expect_set(level, 7, "body", "y", 4, false, "y = 0x10", "y = 4");
	/* an absent field is added in the constructor's style */
	expect_set(level, 4, "body", "angle", 0.5, true, "y = -2 }", "y = -2, angle = 0.5 }");
	expect_set(level, 9, "body", "x", 2, true, "{type = \"static\"}", "{type = \"static\", x = 2}");
	const char *tight = "w:body{x=1,y=2}\n";
	expect_set(tight, 1, "body", "angle", 1, true, "y=2}", "y=2,angle=1}");
	const char *trailing = "w:body{ x = 1, }\n";
	expect_set(trailing, 1, "body", "y", 1, true, "x = 1, }", "x = 1, y = 1, }");
	const char *empty = "w:body{}\nw:box{ w = 1 }\n";
	expect_set(empty, 1, "body", "x", 1, true, "w:body{}", "w:body{ x = 1 }");
	const char *multi = "local c = w:body{\n"
	                    "    type = \"dynamic\",\n"
	                    "    x = 0, -- left\n"
	                    "  }\n";
	expect_set(multi, 1, "body", "y", 1, true, "-- left\n", "-- left\n    y = 1,\n");
	const char *no_comma = "w:joint{\n\tkind = \"revolute\",\n\ta = b\n}\n";
	expect_set(no_comma, 1, "joint", "x", 1, true, "\ta = b\n", "\ta = b,\n\tx = 1\n");
	const char *crlf = "w:joint{\r\n  a = b;\r\n}\r\n";
	expect_set(crlf, 1, "joint", "x", 1, true, "  a = b;\r\n", "  a = b;\r\n  x = 1;\r\n");
	/* long strings and comments around are left alone; hex float forms read */
	const char *around = "w:body{ --[==[ x = 1 ]==] x = [[x = 2]] and 3 or 0x1p4, y = 1e2 } -- y = 5\n"
	                     "b:circle{ r = 0x.8p1, user = { size = -0x2 } }\n";
	expect_set(around, 1, "body", "y", 7, true, "y = 1e2", "y = 7");
	expect_set(around, 2, "circle", "r", 0.75, true, "r = 0x.8p1", "r = 0.75");
	expect_set(around, 2, "circle", "user.size", 3, true, "size = -0x2", "size = 3");
	expect_set(around, 2, "circle", "user.weight", 3, true, "size = -0x2 }", "size = -0x2, weight = 3 }");
	const char *bom = "\xEF\xBB\xBF#!/usr/bin/env lua\nw:body{ x = 1 }\n";
	expect_set(bom, 2, "body", "x", 2, true, "x = 1", "x = 2");
	const char *list = "b:polygon{ 0, 0, 1, 0, 0.5, 1 }\n";
	expect_set(list, 1, "polygon", "5", 0.25, true, "0.5", "0.25");
}

/* Every finite double reads back the same; integers below 1e16 have no exponent. */
static void test_format_number(void **state)
{
	uint64_t x = 88172645463325252ull;
	char buf[64];
	for (int k = 0; k < 30000; k++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		double v;
		if (k % 3 == 0) v = (double)(int64_t)(x % 20000000000000000ull) - 1e16; /* integers */
		else if (k % 3 == 1) v = (double)(x >> 11) / 9007199254740992.0 * 1000.0 - 500.0;
		else memcpy(&v, &x, sizeof v);
		if (!isfinite(v)) {
			assert_false(th_source_format_number(v, buf, sizeof buf));
			continue;
		}
		assert_true(th_source_format_number(v, buf, sizeof buf));
		if (strtod(buf, NULL) != v || signbit(strtod(buf, NULL)) != signbit(v)) fail_msg("%.17g written %s", v, buf);
		if (v == floor(v) && fabs(v) < 1e16 && strchr(buf, 'e') != NULL) fail_msg("%.17g written %s", v, buf);
	}
}

static void test_set_refused(void **state)
{
	expect_refused_set(level, 7, "body", "x", 1, false, "computed, line 7: i * 1.05; not rewritten");
	expect_refused_set(level, 7, "body", "y", 1, true, "line 7: the call is in a loop");
	expect_refused_set(level, 4, "body", "type", 1, true, "not a number, line 4: \"dynamic\"");
	expect_refused_set(level, 4, "body", "x", 1.0 / 0.0, true, "not a finite number");
	expect_refused_set(level, 4, "body", "end", 1, true, "cannot be added by name");
	expect_refused_set(level, 4, "body", "type.x", 1, true, "not a table constructor");
	expect_refused_set(level, 8, "body", "x", 1, true, "no body{...} call at line 8");
	const char *twice = "w:body{ x = 1, y = 0, x = 2 }\n";
	expect_refused_set(twice, 1, "body", "x", 3, true, "field 'x' is given twice");
	const char *helper = "local function ball(world, x)\n  return world:body{ x = x, y = 1 }\nend\n";
	expect_refused_set(helper, 2, "body", "y", 3, true, "a helper function");
	expect_set(helper, 2, "body", "y", 3, false, "y = 1", "y = 3");
}

static void edit_ok(bool ok)
{
	if (!ok) fail_msg("refused: %s", err);
}

static const char objects[] = "function level.load(world)\n"                                  /* 1 */
                              "  local b = world:body{ type = \"dynamic\", x = 1.5, y = -2 }\n" /* 2 */
                              "  b:box{ w = 1, h = 0.5 }\n"                                    /* 3 */
                              "  b.user = { name = \"b\", b = 1 }\n"                           /* 4 */
                              "  world:body{ type = \"static\" }\n"                            /* 5 */
                              "  s.e = world:body{ x = 1 }\n"                                  /* 6 */
                              "  for i = 1, 2 do world:body{ x = i } end\n"                    /* 7 */
                              "  local c = world:body{ x = f(1) }\n"                           /* 8 */
                              "  c:capsule{ x1 = -1, y1 = 0, x2 = 1, y2 = 0, r = 0.2 }\n"      /* 9 */
                              "  world:joint{ kind = \"revolute\", a = c, b = s.e, x = 0, y = 0 }\n" /* 10 */
                              "end\n";                                                         /* 11 */

static void test_duplicate(void **state)
{
	char *out = NULL;
	size_t n;
	size_t len = strlen(objects);
	/* a local body and the statements that use it right after: renamed, moved */
	edit_ok(th_source_duplicate(objects, len, 2, "body", 0.5, &out, &n, err, sizeof err));
	char *want = replaced(objects, "b = 1 }\n",
	                      "b = 1 }\n"
	                      "  local b1 = world:body{ type = \"dynamic\", x = 2, y = -2 }\n"
	                      "  b1:box{ w = 1, h = 0.5 }\n"
	                      "  b1.user = { name = \"b\", b = 1 }\n");
	assert_string_equal(out, want);
	free(out), free(want);
	/* a statement of its own; an absent x is added */
	edit_ok(th_source_duplicate(objects, len, 5, "body", -1, &out, &n, err, sizeof err));
	want = replaced(objects, "  world:body{ type = \"static\" }\n",
	                "  world:body{ type = \"static\" }\n  world:body{ type = \"static\", x = -1 }\n");
	assert_string_equal(out, want);
	free(out), free(want);
	/* a computed x becomes (x) + dx; a capsule moves both ends */
	edit_ok(th_source_duplicate(objects, len, 8, "body", 0.25, &out, &n, err, sizeof err));
	want = replaced(objects, "r = 0.2 }\n",
	                "r = 0.2 }\n"
	                "  local c1 = world:body{ x = (f(1)) + 0.25 }\n"
	                "  c1:capsule{ x1 = -1, y1 = 0, x2 = 1, y2 = 0, r = 0.2 }\n");
	assert_string_equal(out, want);
	free(out), free(want);
	edit_ok(th_source_duplicate(objects, len, 9, "capsule", 2, &out, &n, err, sizeof err));
	want = replaced(objects, "r = 0.2 }\n", "r = 0.2 }\n  c:capsule{ x1 = 1, y1 = 0, x2 = 3, y2 = 0, r = 0.2 }\n");
	assert_string_equal(out, want);
	free(out), free(want);
	/* a joint's copy is not moved */
	edit_ok(th_source_duplicate(objects, len, 10, "joint", 2, &out, &n, err, sizeof err));
	want = replaced(objects, "y = 0 }\n",
	                "y = 0 }\n  world:joint{ kind = \"revolute\", a = c, b = s.e, x = 0, y = 0 }\n");
	assert_string_equal(out, want);
	free(out), free(want);
	/* refused, with the reason */
	assert_false(th_source_duplicate(objects, len, 7, "body", 1, &out, &n, err, sizeof err));
	assert_non_null(strstr(err, "line 7: made in a loop"));
	assert_false(th_source_duplicate(objects, len, 6, "body", 1, &out, &n, err, sizeof err));
	assert_non_null(strstr(err, "stored in s.e"));
	const char *chain = "function load(world)\n  world:body{ x = 1 }:box{ w = 1, h = 1 }\nend\n";
	assert_false(th_source_duplicate(chain, strlen(chain), 2, "body", 1, &out, &n, err, sizeof err));
	assert_non_null(strstr(err, "part of a larger expression"));
	const char *helper = "local function post(world)\n  world:body{ x = 1 }\nend\n";
	assert_false(th_source_duplicate(helper, strlen(helper), 2, "body", 1, &out, &n, err, sizeof err));
	assert_non_null(strstr(err, "made in function post, a helper"));
	/* a polygon's x coordinates move, its y stay */
	const char *poly = "function load(w)\n  b:polygon{ 0, 0, 1, 0, k, 1, radius = 0.1 }\nend\n";
	edit_ok(th_source_duplicate(poly, strlen(poly), 2, "polygon", 1, &out, &n, err, sizeof err));
	assert_string_equal(out, "function load(w)\n  b:polygon{ 0, 0, 1, 0, k, 1, radius = 0.1 }\n"
	                         "  b:polygon{ 1, 0, 2, 0, (k) + 1, 1, radius = 0.1 }\nend\n");
	free(out);
	/* not on lines of its own: the copy follows on the same line */
	const char *inline_ = "function load(world) world:body{ x = 1 } end\n";
	edit_ok(th_source_duplicate(inline_, strlen(inline_), 1, "body", 1, &out, &n, err, sizeof err));
	assert_string_equal(out, "function load(world) world:body{ x = 1 }; world:body{ x = 2 } end\n");
	free(out);
}

static void test_delete(void **state)
{
	char *out = NULL;
	size_t n, len = strlen(objects);
	edit_ok(th_source_delete(objects, len, 2, "body", &out, &n, err, sizeof err));
	char *want = replaced(objects,
	                      "  local b = world:body{ type = \"dynamic\", x = 1.5, y = -2 }\n"
	                      "  b:box{ w = 1, h = 0.5 }\n"
	                      "  b.user = { name = \"b\", b = 1 }\n",
	                      "");
	assert_string_equal(out, want);
	free(out), free(want);
	edit_ok(th_source_delete(objects, len, 10, "joint", &out, &n, err, sizeof err));
	want = replaced(objects, "  world:joint{ kind = \"revolute\", a = c, b = s.e, x = 0, y = 0 }\n", "");
	assert_string_equal(out, want);
	free(out), free(want);
	/* a trailing comment goes with its line */
	const char *commented = "function load(w)\n  w:body{ x = 1 } -- one\n  w:body{ x = 2 }\nend\n";
	edit_ok(th_source_delete(commented, strlen(commented), 2, "body", &out, &n, err, sizeof err));
	assert_string_equal(out, "function load(w)\n  w:body{ x = 2 }\nend\n");
	free(out);
	/* c is used by the joint after it: refused */
	assert_false(th_source_delete(objects, len, 8, "body", &out, &n, err, sizeof err));
	assert_non_null(strstr(err, "line 8: c is used at line 10; not deleted"));
	assert_false(th_source_delete(objects, len, 7, "body", &out, &n, err, sizeof err));
	assert_non_null(strstr(err, "loop"));
}

static void expect_insert(const char *src, th_palette_item item, const char *from, const char *to, int line)
{
	char *out = NULL;
	size_t n;
	int new_line = 0;
	if (!th_source_insert(src, strlen(src), &item, &out, &n, &new_line, err, sizeof err)) fail_msg("refused: %s", err);
	char *want = replaced(src, from, to);
	assert_string_equal(out, want);
	assert_int_equal(new_line, line);
	free(out), free(want);
}

static void test_palette(void **state)
{
	const char *end = "  world:joint{ kind = \"revolute\", a = c, b = s.e, x = 0, y = 0 }\nend\n";
	expect_insert(objects, (th_palette_item){TH_PALETTE_BOX, 1, 2.5, 0.5, 0.25, 0, 0, 0}, end,
	              "  world:joint{ kind = \"revolute\", a = c, b = s.e, x = 0, y = 0 }\n"
	              "  local box1 = world:body{ type = \"dynamic\", x = 1, y = 2.5 }\n"
	              "  box1:box{ w = 0.5, h = 0.25 }\n"
	              "end\n",
	              11);
	expect_insert(objects, (th_palette_item){TH_PALETTE_CIRCLE, -1, 0, 0, 0, 0.3, 0, 0}, "\nend\n",
	              "\n  local circle1 = world:body{ type = \"dynamic\", x = -1, y = 0 }\n"
	              "  circle1:circle{ r = 0.3 }\n"
	              "end\n",
	              11);
	expect_insert(objects, (th_palette_item){TH_PALETTE_CAPSULE, 0, 1, 1, 0, 0.25, 0, 0}, "\nend\n",
	              "\n  local capsule1 = world:body{ type = \"dynamic\", x = 0, y = 1 }\n"
	              "  capsule1:capsule{ x1 = -0.5, y1 = 0, x2 = 0.5, y2 = 0, r = 0.25 }\n"
	              "end\n",
	              11);
	expect_insert(objects, (th_palette_item){TH_PALETTE_PLATFORM, 0, -1, 4, 0.5, 0, 0, 0}, "\nend\n",
	              "\n  local platform1 = world:body{ type = \"static\", x = 0, y = -1 }\n"
	              "  platform1:box{ w = 4, h = 0.5 }\n"
	              "end\n",
	              11);
	expect_insert(objects, (th_palette_item){TH_PALETTE_JOINT, 0.5, 1, 0, 0, 0, 2, 8}, "\nend\n",
	              "\n  world:joint{ kind = \"revolute\", a = b, b = c, x = 0.5, y = 1 }\n"
	              "end\n",
	              11);
	/* the fresh name skips names in use; a tab-indented, tight-braced file */
	const char *tabs = "local box1\nfunction level.load(w)\n\tw:body{x = 1}\nend\n";
	expect_insert(tabs, (th_palette_item){TH_PALETTE_BOX, 0, 0, 1, 1, 0, 0, 0}, "\nend\n",
	              "\n\tlocal box2 = w:body{type = \"dynamic\", x = 0, y = 0}\n\tbox2:box{w = 1, h = 1}\nend\n", 4);
	const char *empty = "function load(world)\nend\n";
	expect_insert(empty, (th_palette_item){TH_PALETTE_CIRCLE, 0, 0, 0, 0, 1, 0, 0}, "\nend\n",
	              "\n  local circle1 = world:body{ type = \"dynamic\", x = 0, y = 0 }\n  circle1:circle{ r = 1 }\nend\n",
	              2);
	/* refusals */
	char *out = NULL;
	size_t n;
	int line;
	th_palette_item j = {TH_PALETTE_JOINT, 0, 0, 0, 0, 0, 2, 6};
	assert_false(th_source_insert(objects, strlen(objects), &j, &out, &n, &line, err, sizeof err));
	assert_non_null(strstr(err, "line 6: the body has no local name"));
	const char *none = "local x = 1\n";
	th_palette_item box = {TH_PALETTE_BOX, 0, 0, 1, 1, 0, 0, 0};
	assert_false(th_source_insert(none, strlen(none), &box, &out, &n, &line, err, sizeof err));
	assert_non_null(strstr(err, "no load function"));
	const char *noparam = "function load()\nend\n";
	assert_false(th_source_insert(noparam, strlen(noparam), &box, &out, &n, &line, err, sizeof err));
	assert_non_null(strstr(err, "takes no world parameter"));
}

/* ---------------- the session ---------------- */

static char dir[64];

static char *write_temp(const char *name, const char *text)
{
	static char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(text, 1, strlen(text), f);
	fclose(f);
	return path;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[8192];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static int files_in_dir(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;)
		if (e->d_name[0] != '.') n++;
	closedir(d);
	return n;
}

static void test_session(void **state)
{
	char *path = write_temp("level.lua", level);
	th_source_session *s = th_source_open(path, err, sizeof err);
	assert_non_null(s);
	th_source_edit e = {TH_EDIT_SET_NUMBER, 4, "body", "x", 2.25, true};
	assert_true(th_source_apply(s, &e, err, sizeof err));
	char *want = replaced(level, "x = 1.5", "x = 2.25");
	assert_string_equal(read_all(path), want);
	e.field = "y", e.value = 1;
	assert_true(th_source_apply(s, &e, err, sizeof err));
	char *want2 = replaced(want, "y = -2", "y = 1");
	assert_string_equal(read_all(path), want2);
	th_source_edit dup = {TH_EDIT_DUPLICATE, 9, "body", NULL, 0.5};
	assert_true(th_source_apply(s, &dup, err, sizeof err));
	th_source_edit ins = {.op = TH_EDIT_INSERT, .item = {TH_PALETTE_CIRCLE, 0, 3, 0, 0, 0.5, 0, 0}};
	assert_true(th_source_apply(s, &ins, err, sizeof err));
	assert_int_equal(ins.new_line, 11);
	assert_int_equal(th_source_undo_count(s), 4);
	/* a refused edit changes nothing */
	th_source_edit loop = {TH_EDIT_SET_NUMBER, 7, "body", "x", 1, false};
	char before[8192];
	strcpy(before, read_all(path));
	assert_false(th_source_apply(s, &loop, err, sizeof err));
	assert_string_equal(read_all(path), before);
	assert_int_equal(th_source_undo_count(s), 4);
	/* undo everything: the original bytes */
	for (int k = 0; k < 4; k++) assert_true(th_source_undo(s, err, sizeof err));
	assert_false(th_source_undo(s, err, sizeof err));
	assert_non_null(strstr(err, "nothing to undo"));
	assert_string_equal(read_all(path), level);
	size_t n;
	assert_memory_equal(th_source_text(s, &n), level, strlen(level));
	assert_int_equal(n, strlen(level));
	assert_true(th_source_redo(s, err, sizeof err));
	assert_true(th_source_redo(s, err, sizeof err));
	assert_string_equal(read_all(path), want2);
	/* a new edit forgets the redo steps */
	assert_int_equal(th_source_redo_count(s), 2);
	e.field = "x", e.value = 3;
	assert_true(th_source_apply(s, &e, err, sizeof err));
	assert_int_equal(th_source_redo_count(s), 0);
	assert_int_equal(files_in_dir(), 1); /* no temporary file left */
	th_source_close(s);
	free(want), free(want2);
}

/* a diagonal move: x and y in one step, taken back by one undo; a group with
 * a refused part changes nothing */
static void test_group(void **state)
{
	char *path = write_temp("level.lua", level);
	th_source_session *s = th_source_open(path, err, sizeof err);
	assert_non_null(s);
	th_source_edit move[2] = {{TH_EDIT_SET_NUMBER, 4, "body", "x", 2.25, true},
	                          {TH_EDIT_SET_NUMBER, 4, "body", "y", 1, true}};
	assert_true(th_source_apply_group(s, move, 2, err, sizeof err));
	char *want = replaced(level, "x = 1.5", "x = 2.25");
	char *want2 = replaced(want, "y = -2", "y = 1");
	assert_string_equal(read_all(path), want2);
	assert_int_equal(th_source_undo_count(s), 1);
	th_source_edit bad[2] = {{TH_EDIT_SET_NUMBER, 4, "body", "x", 9, true},
	                         {TH_EDIT_SET_NUMBER, 7, "body", "x", 1, false}};
	assert_false(th_source_apply_group(s, bad, 2, err, sizeof err));
	assert_string_equal(read_all(path), want2);
	assert_int_equal(th_source_undo_count(s), 1);
	assert_true(th_source_undo(s, err, sizeof err));
	assert_string_equal(read_all(path), level);
	assert_false(th_source_undo(s, err, sizeof err));
	assert_true(th_source_redo(s, err, sizeof err));
	assert_string_equal(read_all(path), want2);
	assert_false(th_source_apply_group(s, move, 0, err, sizeof err));
	th_source_close(s);
	free(want), free(want2);
}

/* after the level was rebuilt from a file changed on disk, its lines are
 * the session's: an edit at the call's new line is written; undo of the
 * edit before the change stays refused */
static void test_reread(void **state)
{
	char *path = write_temp("level.lua", level);
	th_source_session *s = th_source_open(path, err, sizeof err);
	assert_non_null(s);
	th_source_edit e = {TH_EDIT_SET_NUMBER, 4, "body", "x", 2, true};
	assert_true(th_source_apply(s, &e, err, sizeof err));
	char *ours = replaced(level, "x = 1.5", "x = 2");
	char *shifted = malloc(strlen(ours) + 16);
	sprintf(shifted, "-- a comment\n%s", ours);
	write_temp("level.lua", shifted);
	e.line = 5, e.value = 3;
	assert_false(th_source_apply(s, &e, err, sizeof err));
	assert_true(th_source_reread(s, err, sizeof err));
	assert_true(th_source_apply(s, &e, err, sizeof err));
	char *want = replaced(shifted, "x = 2", "x = 3");
	assert_string_equal(read_all(path), want);
	assert_true(th_source_undo(s, err, sizeof err));
	assert_string_equal(read_all(path), shifted);
	assert_false(th_source_undo(s, err, sizeof err));
	assert_string_equal(read_all(path), shifted);
	th_source_close(s);
	free(ours), free(shifted), free(want);
}

static void test_changed_on_disk(void **state)
{
	char *path = write_temp("level.lua", level);
	th_source_session *s = th_source_open(path, err, sizeof err);
	assert_non_null(s);
	/* an editor saved a change elsewhere: the edit goes to the new text */
	char *theirs = replaced(level, "return level", "return level -- saved");
	write_temp("level.lua", theirs);
	th_source_edit e = {TH_EDIT_SET_NUMBER, 4, "body", "x", 2, true};
	assert_true(th_source_apply(s, &e, err, sizeof err));
	char *both = replaced(theirs, "x = 1.5", "x = 2");
	assert_string_equal(read_all(path), both);
	/* undo gives back their text, not ours before it */
	assert_true(th_source_undo(s, err, sizeof err));
	assert_string_equal(read_all(path), theirs);
	assert_true(th_source_redo(s, err, sizeof err));
	/* the text to change is no longer there: refused, the file untouched */
	char *moved = replaced(both, "x = 2, y = -2", "x = 2, y = -3");
	write_temp("level.lua", moved);
	e.field = "y", e.value = 5;
	assert_false(th_source_apply(s, &e, err, sizeof err));
	assert_non_null(strstr(err, "no longer there"));
	assert_string_equal(read_all(path), moved);
	/* undo would lose their change: refused */
	assert_false(th_source_undo(s, err, sizeof err));
	assert_non_null(strstr(err, "changed on disk"));
	assert_string_equal(read_all(path), moved);
	/* a line that moved: the call is not at its line any more */
	char *shifted = malloc(strlen(moved) + 2);
	sprintf(shifted, "\n%s", moved);
	write_temp("level.lua", shifted);
	assert_false(th_source_apply(s, &e, err, sizeof err));
	assert_string_equal(read_all(path), shifted);
	th_source_close(s);
	free(theirs), free(both), free(moved), free(shifted);
	assert_null(th_source_open("/nonexistent/level.lua", err, sizeof err));
	/* a symbolic link stays one: the file it points to is written */
	char link[160];
	snprintf(link, sizeof link, "%s/link.lua", dir);
	write_temp("level.lua", level);
	assert_int_equal(symlink("level.lua", link), 0);
	s = th_source_open(link, err, sizeof err);
	assert_non_null(s);
	e.field = "x", e.value = 7;
	assert_true(th_source_apply(s, &e, err, sizeof err));
	th_source_close(s);
	struct stat st;
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	char *want = replaced(level, "x = 1.5", "x = 7");
	assert_string_equal(read_all(path), want);
	free(want);
	unlink(link);
}

/* ---------------- the fuzz ---------------- */

static lua_State *judge;

static bool loads(const char *s, size_t n)
{
	bool ok = luaL_loadbuffer(judge, s, n, "=fuzz") == LUA_OK;
	lua_pop(judge, 1);
	return ok;
}

static long rewrites;
/* make test's short run takes at most this many calls of each file, spread
 * over it (every call of a large spec file would take minutes under ASan);
 * make fuzz-rewrite takes them all */
static int calls_per_file = 8;

/* out must equal src outside [lo, hi) of src (lo..hi: the bytes meant to change). */
static void expect_only(const char *src, size_t n, const char *out, size_t on, size_t lo, size_t hi, const char *what)
{
	size_t tail = n - hi;
	if (!(on >= lo + tail && memcmp(src, out, lo) == 0 && memcmp(src + hi, out + on - tail, tail) == 0))
		fail_msg("%s changed bytes outside [%zu, %zu)", what, lo, hi);
}

/* out is src with one block of text inserted at or after byte after. */
static bool one_insertion(const char *src, size_t n, const char *out, size_t on, size_t after)
{
	size_t pre = 0, suf = 0;
	while (pre < n && pre < on && src[pre] == out[pre]) pre++;
	while (suf < n && suf < on && src[n - 1 - suf] == out[on - 1 - suf]) suf++;
	return on > n && pre + suf >= n && pre >= after;
}

static void check_result(const char *src, size_t n, bool ok, char *out, size_t on, size_t lo, size_t hi,
                         const char *what, const char *name, int line)
{
	if (!ok) return;
	rewrites++;
	if (!loads(out, on)) fail_msg("%s of %s:%d does not load:\n%.*s", what, name, line, (int)on, out);
	expect_only(src, n, out, on, lo, hi, what);
	free(out);
}

/* Every rewrite of every call of a text that Lua loads. */
static void fuzz_text(const char *src, size_t n, const char *name)
{
	if (!loads(src, n)) return;
	th_call_ref refs[512];
	int count = th_source_list_calls(src, n, refs, 512, err, sizeof err);
	if (count < 0) fail_msg("%s loads in Lua but not here: %s", name, err);
	if (count > 512) count = 512;
	int stride = calls_per_file > 0 && count > calls_per_file ? count / calls_per_file : 1;
	th_call *c = malloc(sizeof *c);
	for (int k = 0; k < count; k += stride) {
		if (!th_source_find_call(src, n, refs[k].line, refs[k].method, c, err, sizeof err)) continue;
		char *out;
		size_t on;
		for (int f = 0; f < c->field_count; f++) {
			const th_field *fl = &c->fields[f];
			if (strcmp(fl->name, "[?]") == 0) continue; /* a [key] = value field has no path */
			double v = fl->kind == TH_VALUE_NUMBER ? -fl->number * 1.5 - 0.1 : 2.5;
			char path[40];
			snprintf(path, sizeof path, "%s", fl->name[0] == '[' ? fl->name + 1 : fl->name);
			if (path[strlen(path) - 1] == ']') path[strlen(path) - 1] = '\0';
			bool ok = th_source_set_number(src, n, c->line, c->method, path, v, false, &out, &on, err, sizeof err);
			if (fl->kind == TH_VALUE_NUMBER && !ok && strstr(err, "given twice") == NULL) fail_msg("%s:%d: a numeric field refused: %s", name, c->line, err);
			if (ok) {
				/* read back: the field now holds exactly v */
				th_call *back = malloc(sizeof *back);
				if (!th_source_find_call(out, on, c->line, c->method, back, err, sizeof err))
					fail_msg("%s:%d: the call is gone after set: %s", name, c->line, err);
				assert_int_equal(back->fields[f].kind, TH_VALUE_NUMBER);
				if (back->fields[f].number != v) fail_msg("%s:%d: set %.17g, read %.17g", name, c->line, v, back->fields[f].number);
				free(back);
			}
			check_result(src, n, ok, out, on, fl->start, fl->end, "set", name, c->line);
		}
		bool ok = th_source_set_number(src, n, c->line, c->method, "zz_added", 1, false, &out, &on, err, sizeof err);
		check_result(src, n, ok, out, on, c->table_start, c->table_end, "add", name, c->line);
		ok = th_source_duplicate(src, n, c->line, c->method, 0.5, &out, &on, err, sizeof err);
		if (ok) {
			/* the original stays, the copy is inserted after it */
			rewrites++;
			if (!loads(out, on)) fail_msg("duplicate of %s:%d does not load:\n%s", name, c->line, out);
			if (!one_insertion(src, n, out, on, c->stmt_end))
				fail_msg("duplicate of %s:%d changed more than one insertion after the statement", name, c->line);
			free(out);
		}
		ok = th_source_delete(src, n, c->line, c->method, &out, &on, err, sizeof err);
		if (ok) {
			rewrites++;
			if (!loads(out, on)) fail_msg("delete of %s:%d does not load:\n%s", name, c->line, out);
			/* one contiguous range [a, a + cut) removed, holding the statement */
			size_t pre = 0, suf = 0, cut = n - on;
			while (pre < on && src[pre] == out[pre]) pre++;
			while (suf < on && src[n - 1 - suf] == out[on - 1 - suf]) suf++;
			size_t a_lo = on - suf, a_hi = pre < c->stmt_start ? pre : c->stmt_start;
			if (on < suf || a_lo > a_hi || a_hi + cut < c->stmt_end)
				fail_msg("delete of %s:%d removed more than the statement's one range", name, c->line);
			free(out);
		}
	}
	free(c);
	th_palette_item item = {TH_PALETTE_BOX, 1, 2, 1, 1, 0, 0, 0};
	char *out;
	size_t on;
	int line;
	if (th_source_insert(src, n, &item, &out, &on, &line, err, sizeof err)) {
		rewrites++;
		if (!loads(out, on)) fail_msg("insert into %s does not load:\n%s", name, out);
		if (!one_insertion(src, n, out, on, 0)) fail_msg("insert into %s changed more than one insertion", name);
		free(out);
	}
}

static void fuzz_dir(const char *path, int *files)
{
	DIR *d = opendir(path);
	if (d == NULL) return;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		if (e->d_name[0] == '.') continue;
		char full[1024];
		snprintf(full, sizeof full, "%s/%s", path, e->d_name);
		struct stat st;
		if (stat(full, &st) != 0) continue;
		if (S_ISDIR(st.st_mode)) {
			fuzz_dir(full, files);
		} else if (strlen(e->d_name) > 4 && strcmp(e->d_name + strlen(e->d_name) - 4, ".lua") == 0) {
			FILE *f = fopen(full, "rb");
			if (f == NULL) continue;
			char *buf = malloc((size_t)st.st_size + 1);
			size_t n = fread(buf, 1, (size_t)st.st_size, f);
			fclose(f);
			buf[n] = '\0';
			fuzz_text(buf, n, full);
			free(buf);
			(*files)++;
		}
	}
	closedir(d);
}

static void test_fuzz_repository(void **state)
{
	judge = luaL_newstate();
	int files = 0;
	rewrites = 0;
	fuzz_dir("examples", &files);
	fuzz_dir("lua", &files);
	fuzz_dir("tests", &files);
	lua_close(judge);
	printf("# %d files of the repository, %ld rewrites\n", files, rewrites);
	assert_true(files >= 10);
	assert_true(rewrites >= 500);
}

/* Random Lua: statements with calls on table constructors whose fields hold
 * numbers of every form, strings, long brackets and comments between tokens. */
typedef struct gen {
	char *s;
	size_t n, cap;
	uint64_t seed;
	int depth;
} gen;

static unsigned rnd(gen *g, unsigned n)
{
	g->seed = g->seed * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(g->seed >> 33) % n;
}

static void put(gen *g, const char *s)
{
	size_t k = strlen(s);
	if (g->n + k + 1 > g->cap) {
		g->cap = (g->n + k + 1) * 2;
		g->s = realloc(g->s, g->cap);
	}
	memcpy(g->s + g->n, s, k + 1);
	g->n += k;
}

static void gap(gen *g)
{
	static const char *const gaps[] = {" ", " ", " ", "", "\n", "\t", " --[[ c ]] ", " -- x = 1\n", "\r\n",
	                                   " --[==[ }, ]] ]==]\n", "  "};
	put(g, gaps[rnd(g, sizeof gaps / sizeof *gaps)]);
}

static void number(gen *g)
{
	static const char *const nums[] = {"0", "1", "2.5", "-3", "0x10", "0xA.8p1", "1e3", ".5", "3.", "-0.25",
	                                   "1E-2", "0X1P+4", "9007199254740993", "- 7", "-0x.1"};
	put(g, nums[rnd(g, sizeof nums / sizeof *nums)]);
}

static void gexpr(gen *g);

static void gtable(gen *g)
{
	static const char *const keys[] = {"x", "y", "w", "h", "r", "angle", "type", "user", "a", "b", "x1", "y2"};
	put(g, "{");
	gap(g);
	int n = (int)rnd(g, 5);
	for (int k = 0; k < n; k++) {
		unsigned kind = rnd(g, 4);
		if (kind < 2) {
			put(g, keys[rnd(g, sizeof keys / sizeof *keys)]);
			gap(g);
			put(g, "=");
			gap(g);
		} else if (kind == 2) {
			put(g, "[");
			number(g);
			put(g, "] = ");
		}
		gexpr(g);
		if (k + 1 < n || rnd(g, 3) == 0) {
			gap(g);
			put(g, rnd(g, 4) == 0 ? ";" : ",");
			gap(g);
		}
	}
	gap(g);
	put(g, "}");
}

static void gexpr(gen *g)
{
	if (++g->depth > 6) {
		number(g);
		g->depth--;
		return;
	}
	switch (rnd(g, 10)) {
		case 0:
		case 1:
		case 2: number(g); break;
		case 3: put(g, rnd(g, 2) ? "\"s\\\"}\"" : "[[long } ]]"); break;
		case 4: put(g, "i * 1.05"); break;
		case 5: gtable(g); break;
		case 6: put(g, "f(1, "), gexpr(g), put(g, ")"); break;
		case 7: put(g, "-"), number(g); break;
		case 8: put(g, "w:body"), gtable(g); break;
		default: put(g, "true"); break;
	}
	g->depth--;
}

static void gstat(gen *g, int depth)
{
	static const char *const objs[] = {"w", "b", "world"};
	static const char *const methods[] = {"body", "box", "circle", "capsule", "joint", "polygon"};
	switch (depth > 2 ? rnd(g, 3) : rnd(g, 8)) {
		case 0: put(g, "local "), put(g, objs[rnd(g, 3)]), put(g, " = "); /* fall through */
		case 1:
			put(g, objs[rnd(g, 3)]), put(g, ":"), put(g, methods[rnd(g, 6)]);
			if (rnd(g, 4) == 0) put(g, "("), gtable(g), put(g, ")");
			else gtable(g);
			break;
		case 2: put(g, "s.x = "), gexpr(g); break;
		case 3:
			put(g, "for i = 1, 2 do\n");
			for (int k = (int)rnd(g, 3); k >= 0; k--) gstat(g, depth + 1), put(g, "\n");
			put(g, "end");
			break;
		case 4:
			put(g, rnd(g, 2) ? "function level.load(w)\n" : "local function helper(w)\n");
			for (int k = (int)rnd(g, 3); k >= 0; k--) gstat(g, depth + 1), put(g, "\n");
			put(g, "end");
			break;
		case 5: put(g, "if x then "), gstat(g, depth + 1), put(g, " else "), gstat(g, depth + 1), put(g, " end"); break;
		case 6: {
			static const char *const misc[] = {
				"while i < 3 do i = i + 1 end", "repeat local q <const> = 1 until q",
				"goto skip ::skip::", "local f = function(...) return ... end", "print'str' f{1}:g\"s\"",
				"b = w:body{ x = 1 }:box{ w = 1, h = 1 }", "t[#t + 1] = (w):circle({ r = 0.5 })",
				"local a, c = w:body{ x = 1 }, 2", "do local w = 1 end", "x = -2^-3 // 1 .. 'a' ~= nil",
				"w:body{ x = 1 }.user = 2", "w:joint { kind = 'weld', a = b, b = b, }",
				"if a then elseif b then else end"};
			put(g, misc[rnd(g, sizeof misc / sizeof *misc)]);
			break;
		}
		default: put(g, "b:box{ w = 1, h = 2 }"); break;
	}
	gap(g);
	if (rnd(g, 2)) put(g, "\n");
}

/* Half the programs get a few random cuts and insertions: most no longer
 * load, and those that do are odd corners of the grammar. */
static void mutate(gen *g)
{
	static const char *const bits[] = {"(", ")", "{", "}", ",", ";", "-", "--", "[[", "]]", "=", "local ", " end ",
	                                   "\n", "'", "\"", "x", "1", ".", ":", "...", "[=[", "]=]", "0x", "e", "#"};
	if (rnd(g, 2) == 0 || g->n == 0) return;
	for (int k = (int)rnd(g, 3); k >= 0; k--) {
		size_t at = rnd(g, (unsigned)g->n);
		if (rnd(g, 2)) {
			size_t cut = 1 + rnd(g, 5);
			if (at + cut > g->n) cut = g->n - at;
			memmove(g->s + at, g->s + at + cut, g->n - at - cut + 1);
			g->n -= cut;
		} else {
			const char *b = bits[rnd(g, sizeof bits / sizeof *bits)];
			size_t bn = strlen(b);
			if (g->n + bn + 1 > g->cap) {
				g->cap = (g->n + bn + 1) * 2;
				g->s = realloc(g->s, g->cap);
			}
			memmove(g->s + at + bn, g->s + at, g->n - at + 1);
			memcpy(g->s + at, b, bn);
			g->n += bn;
		}
	}
}

static void test_fuzz_random(void **state)
{
	const char *env = getenv("TUMBLE_FUZZ_REWRITE_ROUNDS");
	int rounds = env != NULL ? atoi(env) : 60;
	judge = luaL_newstate();
	rewrites = 0;
	int loaded = 0;
	gen g = {0};
	const char *seed = getenv("TUMBLE_FUZZ_REWRITE_SEED");
	g.seed = seed != NULL ? strtoull(seed, NULL, 10) : 12345;
	for (int r = 0; r < rounds; r++) {
		g.n = 0;
		put(&g, "");
		for (int k = (int)rnd(&g, 6); k >= 0; k--) gstat(&g, 0);
		mutate(&g);
		if (!loads(g.s, g.n)) continue;
		loaded++;
		char name[32];
		snprintf(name, sizeof name, "random #%d", r);
		fuzz_text(g.s, g.n, name);
	}
	free(g.s);
	lua_close(judge);
	printf("# %d random programs (%d loaded), %ld rewrites\n", rounds, loaded, rewrites);
	assert_true(loaded >= rounds / 4);
}

static int setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/test_source_edit.XXXXXX");
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
	char path[128];
	snprintf(path, sizeof path, "%s/level.lua", dir);
	unlink(path);
	return rmdir(dir);
}

int main(void)
{
	if (getenv("TUMBLE_FUZZ_REWRITE_ROUNDS") != NULL) calls_per_file = 0;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_call),
		cmocka_unit_test(test_set_number),
		cmocka_unit_test(test_format_number),
		cmocka_unit_test(test_set_refused),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_delete),
		cmocka_unit_test(test_palette),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_reread),
		cmocka_unit_test(test_changed_on_disk),
		cmocka_unit_test(test_fuzz_repository),
		cmocka_unit_test(test_fuzz_random),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
