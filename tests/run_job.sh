#!/usr/bin/env bash
# One suite of one build, for tests/run_suites.sh:
#
#   tests/run_job.sh BUILD KIND TARGET
#
# KIND: ctest (a cmocka binary), busted (one spec file), playtest or
# security (a script). The build is the sanitized one when BUILD is build/asan
# or under it. Writes BUILD/results.d/NAME ("name passed failed"), the log
# BUILD/logs/NAME.log, the wall and CPU milliseconds to BUILD/times, and one
# status line.
set -u
BUILD=$1 KIND=$2 TARGET=$3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

case "$BUILD" in
build/asan | build/asan/*) SANITIZE=1 ;;
*) SANITIZE= ;;
esac
if [ -n "$SANITIZE" ]; then
	BIN="$ROOT/$BUILD/tumble" SO_DIR="$ROOT/$BUILD"
	export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	# plain lua5.4 is not instrumented: the sanitizer runtime must come first
	PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
	LABEL=asan
else
	BIN="$ROOT/tumble" SO_DIR="$ROOT" PRELOAD= LABEL=plain
fi
export TUMBLE_BIN="$BIN" TUMBLE_SO_DIR="$SO_DIR" TUMBLE_ROOT="$ROOT" TUMBLE_SANITIZE="$SANITIZE"
export TUMBLE_PNG_PROBE="$ROOT/$BUILD/tests/png_probe"

case "$KIND" in
ctest)
	case "$TARGET" in
	*/security/*) NAME="security/$(basename "$TARGET")" ;;
	*) NAME="c/$(basename "$TARGET")" ;;
	esac
	;;
busted) NAME="lua/$(basename "$TARGET" .lua)" ;;
playtest) NAME="playtest/$(basename "$TARGET" .sh)" ;;
security) NAME="security/$(basename "$TARGET" .sh)" ;;
*)
	echo "run_job.sh: unknown kind $KIND" >&2
	exit 2
	;;
esac
FILE=${NAME//\//_}
LOG="$BUILD/logs/$FILE.log"
mkdir -p "$BUILD/logs" "$BUILD/results.d" # when run by hand, before any make test
# Every temporary file of the suite (its own, xvfb-run's, mktemp's) goes in a
# folder of the build's, emptied when the suite ends: nothing else on the
# machine that tidies /tmp can remove a folder a suite is still using.
export TMPDIR="$ROOT/$BUILD/tmp/$FILE"
rm -rf "$TMPDIR"
mkdir -p "$TMPDIR"

start=$(date +%s%N)
case "$KIND" in
ctest) CMOCKA_MESSAGE_OUTPUT=TAP timeout 600 "$TARGET" > "$LOG" 2>&1 ;;
busted)
	LD_PRELOAD="$PRELOAD" LUA_CPATH="$SO_DIR/?.so;;" LUA_PATH="$ROOT/lua/?.lua;$ROOT/tests/lua/?.lua;;" \
		timeout 900 lua5.4 /usr/bin/busted -o TAP "$TARGET" > "$LOG" 2>&1
	;;
playtest | security) timeout 900 bash "$TARGET" > "$LOG" 2>&1 ;;
esac
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
rm -rf "$TMPDIR"
# the CPU time of the suite's processes (user + system, the children's line of `times`)
times > "$LOG.cpu"
cpu_ms=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } printf "%d", s * 1000 }' "$LOG.cpu")
rm -f "$LOG.cpu"

# a script that prints no TAP line reports by its exit status
if [ "$KIND" = playtest ] && ! grep -qE '^(not )?ok ' "$LOG"; then
	if [ $rc -eq 0 ]; then echo "ok 1 - $NAME" >> "$LOG"; else echo "not ok 1 - $NAME" >> "$LOG"; fi
fi
p=$(grep -cE '^ok ' "$LOG")
f=$(grep -cE '^not ok ' "$LOG")
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; fi # ran nothing: that is a failure too
echo "$NAME $p $f" > "$BUILD/results.d/$FILE"
echo "$NAME $ms $cpu_ms" >> "$BUILD/times"
if [ "$f" -ne 0 ]; then
	{
		echo "[$LABEL] FAIL $NAME ($p passed, $f failed, $((ms / 1000)) s) — log: $LOG"
		grep -E '^not ok|^#' "$LOG" | head -40
		[ "$rc" -ne 0 ] && tail -20 "$LOG"
	} | flock "$BUILD/results.d" cat
else
	echo "[$LABEL] ok   $NAME ($p passed, $((ms / 1000)) s)"
fi
exit 0
