#!/usr/bin/env bash
# Host playtest: print is held back while the host replays frames. A copy of
# held_print_level.lua runs headless, watched; its begin handler prints and
# plays a sound when the ball lands (no tumble.replaying guard), and at frame 100 it edits what
# load() builds, so the host rebuilds and replays the landing.
#  - the landing is printed once, not again by the replay;
#  - the rebuild's message says how many lines and sounds were held back.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

for mode in plain; do
  flag=
  mkdir -p "$TMP/$mode"
  cp "$ROOT/tests/playtest/levels/held_print_level.lua" "$TMP/$mode/level.lua"
  HELD_FILE="$TMP/$mode/level.lua" timeout 60 "$BIN" --headless --frames 200 --watch --watch-poll-ms 0 $flag \
    "$TMP/$mode/level.lua" > "$TMP/$mode.out" 2> "$TMP/$mode.err"
  rc=$?
  check "$mode: the run exits 0" "[ $rc -eq 0 ]"
  [ $rc -eq 0 ] || sed 's/^/# /' "$TMP/$mode.err" | head -20
  check "$mode: the level was rebuilt (load() changed)" "grep -q 'load() changed' '$TMP/$mode.err'"
  landed=$(grep -c '^landed at frame' "$TMP/$mode.out")
  check "$mode: the landing is printed once, not again by the replay ($landed)" "[ '$landed' = 1 ]"
  check "$mode: the rebuild says 1 line of print and 1 sound were held back" \
    "grep -q 'rebuilt, replayed .*(1 line of print and 1 sound held back while replaying)' '$TMP/$mode.err'"
done
echo "1..$n"
