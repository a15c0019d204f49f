#!/usr/bin/env bash
# Host playtest: Lua errors end a headless run with status 1 and the error and
# traceback on stderr (or are reported and survived with --keep-going), and a
# level can end the run itself with tumble.exit(code, message).
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
L="$ROOT/tests/playtest/levels"
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

timeout 20 "$BIN" --headless --frames 100 "$L/error_level.lua" > "$TMP/out" 2> "$TMP/err"; rc=$?
check "a runtime error in update exits 1" "[ $rc -eq 1 ]"
check "the error names the phase, file, line and message" \
  "grep -q 'Lua error in update: .*error_level.lua:5: boom at frame 30' '$TMP/err'"
check "the traceback shows the call chain" \
  "[ \$(grep -c \"in upvalue 'explode'\" '$TMP/err') -eq 4 ]"
check "no summary after a failed run" "! grep -q '^frames=' '$TMP/out'"

timeout 20 "$BIN" --headless --frames 100 --keep-going "$L/error_level.lua" > "$TMP/out" 2> "$TMP/err"; rc=$?
check "--keep-going reports the error and finishes" \
  "[ $rc -eq 0 ] && grep -q 'boom at frame 30' '$TMP/err' && grep -q '^frames=100 steps=100 ' '$TMP/out'"

printf 'local level = {}\nfunction level.update( oops\nreturn level\n' > "$TMP/syntax.lua"
timeout 20 "$BIN" --headless --frames 10 "$TMP/syntax.lua" > /dev/null 2> "$TMP/err"; rc=$?
check "a syntax error in the level exits 1 with the line" \
  "[ $rc -eq 1 ] && grep -q \"syntax.lua:3: ')' expected near 'return'\" '$TMP/err'"
check "... says it is a syntax error, that none of the file ran, and what to do" \
  "grep -qF \"Lua error in the level's file: syntax error, so none of the file ran: \" '$TMP/err' && grep -qF 'Fix the file and save it: the level starts again.' '$TMP/err'"

printf 'return 42\n' > "$TMP/notable.lua"
timeout 20 "$BIN" --headless --frames 10 "$TMP/notable.lua" > /dev/null 2> "$TMP/err"; rc=$?
check "a level that returns no table is refused" "[ $rc -eq 1 ] && grep -q 'must return a table' '$TMP/err'"

printf 'local level = {}\nfunction level.draw(gfx) gfx.circle("fill", 0, 0, -1) end\nreturn level\n' > "$TMP/draw.lua"
timeout 20 "$BIN" --headless --frames 10 "$TMP/draw.lua" > /dev/null 2> "$TMP/err"; rc=$?
check "errors in draw surface headless too (gfx checks its arguments)" \
  "[ $rc -eq 1 ] && grep -q 'in draw: .*non-negative radius expected' '$TMP/err'"

timeout 20 "$BIN" --headless --frames 600 "$L/exit_level.lua" > "$TMP/out" 2> "$TMP/err"; rc=$?
check "tumble.exit(7, message) ends the run with status 7" "[ $rc -eq 7 ]"
check "the exit message is printed" "grep -Eq '^landed at frame [0-9]+$' '$TMP/err'"
frame=$(sed -n 's/^landed at frame \([0-9]*\)$/\1/p' "$TMP/err")
# a ball dropped from 5 m (bottom at 4.5 m) under g = 10 lands after about
# sqrt(2 * 4.5 / 10) = 0.95 s, i.e. frame 57; allow a few frames for settling
check "the level saw the landing at a plausible frame ($frame)" "[ -n '$frame' ] && [ '$frame' -ge 55 ] && [ '$frame' -le 75 ]"
check "the summary reports the frames actually run" "grep -q \"^frames=\$((frame + 1)) \" '$TMP/out'"
# exit codes tell the truth: a status is one byte, and a screenshot that
# cannot be written fails the run
printf 'local level = {}\nfunction level.update() tumble.exit(%s) end\nreturn level\n' 256 > "$TMP/exit256.lua"
timeout 20 "$BIN" --headless --frames 10 "$TMP/exit256.lua" > /dev/null 2> "$TMP/err"; rc=$?
check "tumble.exit(256) is an error (status 1), not a silent 0" \
  "[ $rc -eq 1 ] && grep -q \"bad argument #1 to 'exit' (exit status in 0..255 expected)\" '$TMP/err'"
printf 'local level = {}\nfunction level.update() tumble.exit(-1) end\nreturn level\n' > "$TMP/exitneg.lua"
timeout 20 "$BIN" --headless --frames 10 "$TMP/exitneg.lua" > /dev/null 2>&1; rc=$?
check "tumble.exit(-1) is an error too" "[ $rc -eq 1 ]"
printf 'local level = {}\nfunction level.update() tumble.exit(255) end\nreturn level\n' > "$TMP/exit255.lua"
timeout 20 "$BIN" --headless --frames 10 "$TMP/exit255.lua" > /dev/null 2>&1; rc=$?
check "tumble.exit(255) exits 255" "[ $rc -eq 255 ]"
timeout 20 "$BIN" --headless --frames 10 --screenshot /nonexistent/dir/x.bmp "$L/exit_level.lua" > "$TMP/out" 2> "$TMP/err"; rc=$?
check "--screenshot into a folder that does not exist exits 2 before running" \
  "[ $rc -eq 2 ] && grep -q 'cannot write screenshot /nonexistent/dir/x.bmp: no such folder' '$TMP/err' && ! grep -q '^frames=' '$TMP/out'"
mkdir -p "$TMP/taken.png"
timeout 20 "$BIN" --headless --frames 10 --screenshot "$TMP/taken.png" "$L/exit_level.lua" > /dev/null 2> "$TMP/err"; rc=$?
check "a screenshot that cannot be written (the name is a folder) exits 1" \
  "[ $rc -eq 1 ] && grep -q 'cannot write screenshot' '$TMP/err'"

# an error value that is not a string says what it is
err_case() { # DESCRIPTION LUA-VALUE EXPECTED
  printf 'local level = {}\nfunction level.load() error(%s) end\nreturn level\n' "$2" > "$TMP/errval.lua"
  timeout 20 "$BIN" --headless --frames 5 "$TMP/errval.lua" > /dev/null 2> "$TMP/err"; local rc=$?
  check "$1" "[ $rc -eq 1 ] && grep -qF \"Lua error in load: $3\" '$TMP/err'"
}
err_case "a table error shows its fields" '{code = 7, reason = "jammed"}' '(error object is a table: {'
err_case "... each of them" '{code = 7}' '(error object is a table: {code = 7})'
err_case "a table with __tostring shows that" 'setmetatable({}, {__tostring = function() return "custom failure" end})' \
  'custom failure'
err_case "nil says nil" 'nil' '(error object is a nil value)'
echo "1..$n"
