#!/usr/bin/env bash
# Runs every suite once for one build (BUILD=build or build/asan) and appends
# "suite passed failed" lines to $BUILD/results. Every suite speaks TAP
# ("ok ..." / "not ok ..."); a runner that dies without reporting counts as a failure.
set -u
BUILD=${BUILD:-build}
SANITIZE=${SANITIZE:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
RESULTS="$BUILD/results"
LOGDIR="$BUILD/logs"
mkdir -p "$LOGDIR"

if [ -n "$SANITIZE" ]; then
  BIN="$ROOT/$BUILD/tumble"; SO_DIR="$ROOT/$BUILD"
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # plain lua5.4 is not instrumented: the sanitizer runtime must come first
  PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
  LABEL="asan"
else
  BIN="$ROOT/tumble"; SO_DIR="$ROOT"; PRELOAD=""; LABEL="plain"
fi
export TUMBLE_BIN="$BIN" TUMBLE_SO_DIR="$SO_DIR" TUMBLE_ROOT="$ROOT" TUMBLE_SANITIZE="$SANITIZE"
export TUMBLE_PNG_PROBE="$ROOT/$BUILD/tests/png_probe"

# count_tap NAME LOGFILE EXITCODE
count_tap() {
  local name=$1 log=$2 rc=$3 p f
  p=$(grep -cE '^ok ' "$log" || true)
  f=$(grep -cE '^not ok ' "$log" || true)
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # ran nothing: that is a failure too
  echo "$name $p $f" >> "$RESULTS"
  if [ "$f" -ne 0 ]; then
    echo "[$LABEL] FAIL $name ($p passed, $f failed) — log: $log"
    grep -E '^not ok|^#' "$log" | head -40
    [ "$rc" -ne 0 ] && tail -20 "$log"
  else
    echo "[$LABEL] ok   $name ($p passed)"
  fi
}

# 1. C unit tests (cmocka, TAP output)
for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  n=$(basename "$t"); log="$LOGDIR/$n.log"
  CMOCKA_MESSAGE_OUTPUT=TAP timeout 600 "$t" > "$log" 2>&1; rc=$?
  count_tap "c/$n" "$log" "$rc"
done

# 2. busted specs against tumble.so
if ls tests/lua/*_spec.lua >/dev/null 2>&1; then
  log="$LOGDIR/busted.log"
  LD_PRELOAD="$PRELOAD" LUA_CPATH="$SO_DIR/?.so;;" LUA_PATH="$ROOT/lua/?.lua;$ROOT/tests/lua/?.lua;;" \
    timeout 900 lua5.4 /usr/bin/busted -o TAP tests/lua > "$log" 2>&1; rc=$?
  count_tap "lua/busted" "$log" "$rc"
fi

# 3. playtests: each script prints TAP lines (or just exits 0/1)
for t in tests/playtest/*.sh; do
  [ -f "$t" ] || continue
  n=$(basename "$t" .sh); log="$LOGDIR/playtest_$n.log"
  timeout 900 bash "$t" > "$log" 2>&1; rc=$?
  if ! grep -qE '^(not )?ok ' "$log"; then
    if [ $rc -eq 0 ]; then echo "ok 1 - $n" >> "$log"; else echo "not ok 1 - $n" >> "$log"; fi
  fi
  count_tap "playtest/$n" "$log" "$rc"
done

# 4. the security regression suite (issue 12): the sandbox's C pieces, then
#    the case files against the host binary and the module
for t in "$BUILD"/tests/security/test_*; do
  [ -x "$t" ] || continue
  n=$(basename "$t"); log="$LOGDIR/security_$n.log"
  timeout 300 "$t" > "$log" 2>&1; rc=$?
  count_tap "security/$n" "$log" "$rc"
done
for t in tests/security/*.sh; do
  [ "$(basename "$t")" = lib.sh ] && continue
  n=$(basename "$t" .sh); log="$LOGDIR/security_$n.log"
  timeout 900 bash "$t" > "$log" 2>&1; rc=$?
  count_tap "security/$n" "$log" "$rc"
done
exit 0
