#!/usr/bin/env bash
# Host playtest: every example level, the default level and the built-in demo
# run headless for 600 frames and exit 0 with a summary line.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
summary_re='^frames=600 steps=600 bodies=[0-9]+ time=[0-9.]+s hash=[0-9a-f]{16}$'

run_level() { # label, args...
  local label=$1; shift
  local out err rc
  out=$(timeout 120 "$BIN" --headless --frames 600 "$@" 2>/tmp/tumble_ex_err.$$); rc=$?
  err=$(cat /tmp/tumble_ex_err.$$); rm -f /tmp/tumble_ex_err.$$
  if [ $rc -eq 0 ] && echo "$out" | tail -n 1 | grep -Eq "$summary_re"; then
    ok "$label runs 600 frames headless"
  else
    not_ok "$label runs 600 frames headless (exit $rc)"
    echo "$out" | tail -n 5 | sed 's/^/# /'
    echo "$err" | tail -n 15 | sed 's/^/# /'
  fi
}

run_level "the default level (no argument)"
run_level "the built-in demo (--demo)" --demo
for f in "$ROOT"/examples/*.lua; do
  [ -f "$f" ] || continue
  run_level "examples/$(basename "$f")" "$f"
done

# The built-in demo must really simulate: bodies present and the world moves.
h10=$("$BIN" --headless --frames 10 --demo 2>/dev/null | sed -n 's/.*hash=//p')
h20=$("$BIN" --headless --frames 20 --demo 2>/dev/null | sed -n 's/.*hash=//p')
bodies=$("$BIN" --headless --frames 10 --demo 2>/dev/null | sed -n 's/.* bodies=\([0-9]*\).*/\1/p')
if [ -n "$h10" ] && [ "$h10" != "$h20" ] && [ "${bodies:-0}" -ge 50 ]; then
  ok "the built-in demo builds $bodies bodies and moves (hash $h10 -> $h20)"
else
  not_ok "the built-in demo builds bodies and moves (bodies=${bodies:-?} hash $h10 -> $h20)"
fi

# Options: help, version and a bad option.
if "$BIN" --help | grep -q -- "--headless"; then ok "--help lists the options"; else not_ok "--help lists the options"; fi
if "$BIN" --version | grep -Eq '^tumble [0-9]+\.[0-9]+\.[0-9]+ \(Lua 5\.4'; then ok "--version"; else not_ok "--version"; fi
"$BIN" --frames nope >/dev/null 2>&1; rc=$?
if [ $rc -eq 2 ]; then ok "a malformed option exits 2"; else not_ok "a malformed option exits 2 (got $rc)"; fi
"$BIN" --headless /nonexistent/level.lua >/dev/null 2>/tmp/tumble_ex_err.$$; rc=$?
if [ $rc -ne 0 ] && grep -q "cannot open level" /tmp/tumble_ex_err.$$; then ok "a missing level file is reported"; else not_ok "a missing level file is reported (exit $rc)"; fi
rm -f /tmp/tumble_ex_err.$$
echo "1..$n"
