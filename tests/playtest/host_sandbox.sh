#!/usr/bin/env bash
# Host playtest: --sandbox. io is gone, an endless loop and a memory bomb end
# with a clear error instead of hanging, even a loop that pcalls its way
# around the limit, and every escape route is closed.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
L="$ROOT/tests/playtest/levels"
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }

# expect_fail LABEL PATTERN ARGS...: non-zero exit (not a timeout) and PATTERN on stderr
expect_fail() {
  local label=$1 pattern=$2; shift 2
  timeout 20 "$BIN" --headless --frames 100 "$@" > "$TMP/out" 2> "$TMP/err"; local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "$pattern" "$TMP/err"; then
    ok "$label"
  else
    not_ok "$label (exit $rc)"
    head -5 "$TMP/err" | sed 's/^/# /'
  fi
}

# positive control: the same level is fine outside the sandbox
if timeout 20 "$BIN" --headless --frames 10 "$L/sandbox_io.lua" > /dev/null 2>&1; then
  ok "io.open works without --sandbox"
else
  not_ok "io.open works without --sandbox"
fi
expect_fail "io.open in the sandbox is an error" "attempt to index a nil value (global 'io')" --sandbox "$L/sandbox_io.lua"
expect_fail "an endless loop in update hits the instruction limit" "instruction limit exceeded in update" \
  --sandbox --instr-limit 2000000 "$L/sandbox_loop.lua"
expect_fail "the default instruction limit also ends it" "instruction limit exceeded in update" \
  --sandbox --time-limit 60 "$L/sandbox_loop.lua"
expect_fail "pcall cannot swallow the instruction limit" "instruction limit exceeded in update" \
  --sandbox --instr-limit 2000000 "$L/sandbox_pcall_loop.lua"
expect_fail "a memory bomb hits the memory limit" "memory limit exceeded in update (64 MB)" \
  --sandbox --mem-limit 64 --time-limit 60 "$L/sandbox_bomb.lua"

out=$(timeout 20 "$BIN" --headless --frames 10 --sandbox "$L/sandbox_escape.lua" 2>&1); rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -q "sandbox holds"; then
  ok "no io, os, debug, dofile, loadfile, loadlib, C searchers, binary chunks or path escape"
else
  not_ok "sandbox escape routes closed (exit $rc)"
  echo "$out" | head -5 | sed 's/^/# /'
fi
# the escape checker itself must notice an open sandbox
timeout 20 "$BIN" --headless --frames 10 "$L/sandbox_escape.lua" > /dev/null 2> "$TMP/err"; rc=$?
if [ $rc -eq 3 ] && grep -q "sandbox leaks: io is reachable" "$TMP/err"; then
  ok "the escape checker reports the unsandboxed run"
else
  not_ok "the escape checker reports the unsandboxed run (exit $rc)"
fi
echo "1..$n"
