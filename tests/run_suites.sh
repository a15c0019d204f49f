#!/usr/bin/env bash
# Runs every suite of one or more builds, several at a time, and writes each
# build's "suite passed failed" lines to BUILD/results.
#
#   tests/run_suites.sh build build/asan      # the builds' folders; a folder
#                                             # under build/asan is the sanitized one
#
# Every suite speaks TAP ("ok ..." / "not ok ..."); a runner that dies without
# reporting counts as a failure, and so does one that ran nothing. The suites
# of all builds share one pool of TEST_JOBS workers (default: cores + 1; the
# suites wait on child processes and time limits as much as they compute), the
# slowest started first. Each suite's log is BUILD/logs/NAME.log and its wall
# time goes to BUILD/times. No test depends on the machine's speed: a suite
# that tests a limit gives every other limit room to spare.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
JOBS=${TEST_JOBS:-$(($(nproc 2> /dev/null || echo 2) + 1))}

# The jobs, one line each: BUILD KIND TARGET. Slowest kinds first, so the pool
# does not end on one long suite while the other workers idle.
jobs_of() {
	local b=$1 t
	echo "$b busted tests/lua"
	for t in tests/security/*.sh; do
		[ "$(basename "$t")" = lib.sh ] && continue
		is_alone "$t" && continue
		echo "$b security $t"
	done
	for t in tests/playtest/*.sh; do echo "$b playtest $t"; done
	for t in "$b"/tests/test_* "$b"/tests/security/test_*; do
		[ -x "$t" ] && [ -f "$t" ] && echo "$b ctest $t"
	done
}

# Suites that measure the watchdog's wall-clock limits run after the pool,
# one at a time, with nothing of the tests' own beside them.
ALONE="tests/security/watchdog.sh"
is_alone() {
	local a
	for a in $ALONE; do [ "$a" = "$1" ] && return 0; done
	return 1
}

list=$(mktemp)
trap 'rm -f "$list"' EXIT
for b in "$@"; do
	rm -rf "$b/results" "$b/results.d" "$b/times"
	mkdir -p "$b/results.d" "$b/logs"
	jobs_of "$b" >> "$list"
done

running=0
while read -r b kind target; do
	if [ "$running" -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
	bash tests/run_job.sh "$b" "$kind" "$target" &
	running=$((running + 1))
done < "$list"
wait
for b in "$@"; do
	for t in $ALONE; do bash tests/run_job.sh "$b" security "$t"; done
done

for b in "$@"; do
	cat "$b"/results.d/* > "$b/results" 2> /dev/null || : > "$b/results"
done
exit 0
