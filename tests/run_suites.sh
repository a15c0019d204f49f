#!/usr/bin/env bash
# Runs every suite of one or more builds, several at a time, and writes each
# build's "suite passed failed" lines to BUILD/results.
#
#   tests/run_suites.sh build build/asan      # the builds' folders; a folder
#                                             # under build/asan is the sanitized one
#
# Every suite speaks TAP ("ok ..." / "not ok ..."); a runner that dies without
# reporting counts as a failure, and so does one that ran nothing. The suites
# of all builds share one pool of TEST_JOBS workers (default: twice the cores; the
# suites wait on child processes and time limits as much as they compute),
# the longest started first: by the wall time of the last run when there was
# one (BUILD/times), else in the order below, which puts the sanitized
# build's suites (the slow ones) first. Each suite's log is BUILD/logs/NAME.log
# and its wall and CPU time go to BUILD/times. No test depends on the
# machine's speed: a suite that tests a limit gives every other limit room to
# spare.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
JOBS=${TEST_JOBS:-$((2 * $(nproc 2> /dev/null || echo 2)))}

sanitized() { case "$1" in build/asan | build/asan/*) return 0 ;; esac; return 1; }

# Suites that must run with nothing of the tests' own beside them: none now
# (the watchdog suites wait for files, not for times, and run in the pool).
ALONE=""
# Suites that test the plain build only, whatever build they are given (make
# install and luarocks build and install the plain build; a package copies
# files around the binary it is given, nothing the sanitizer would see more of).
PLAIN_ONLY="tests/playtest/kit_install.sh tests/playtest/host_package.sh"
# Sanitized C tests that make test leaves to make test-long (the Makefile's
# SAN_LONG_TESTS, given in the environment).
LONG_SANITIZED=${LONG_SANITIZED:-}
listed() {
	local a
	for a in $2; do [ "$a" = "$1" ] && return 0; done
	return 1
}

# The jobs, one line each: BUILD KIND TARGET, in the order used when no
# earlier run timed them.
jobs_of() {
	local b=$1 t
	for t in tests/lua/*_spec.lua; do echo "$b busted $t"; done
	for t in tests/security/*.sh; do
		[ "$(basename "$t")" = lib.sh ] && continue
		listed "$t" "$ALONE" && continue
		echo "$b security $t"
	done
	for t in tests/playtest/*.sh; do
		sanitized "$b" && listed "$t" "$PLAIN_ONLY" && continue
		echo "$b playtest $t"
	done
	for t in "$b"/tests/test_* "$b"/tests/security/test_*; do
		[ -x "$t" ] && [ -f "$t" ] || continue
		sanitized "$b" && listed "$(basename "$t")" "$LONG_SANITIZED" && continue
		echo "$b ctest $t"
	done
}

# The suite's name as run_job.sh writes it in BUILD/times.
name_of() {
	case "$2" in
	ctest) case "$3" in */security/*) echo "security/$(basename "$3")" ;; *) echo "c/$(basename "$3")" ;; esac ;;
	busted) echo "lua/$(basename "$3" .lua)" ;;
	*) echo "$2/$(basename "$3" .sh)" ;;
	esac
}

list=$(mktemp)
trap 'rm -f "$list" "$list.w"' EXIT
order=0
for b in $(printf '%s\n' "$@" | tac); do # the sanitized build is named last
	last=$(cat "$b/times" 2> /dev/null)
	rm -rf "$b/results" "$b/results.d" "$b/times"
	mkdir -p "$b/results.d" "$b/logs"
	while read -r bb kind target; do
		order=$((order + 1))
		# the last of its lines: a suite run again by hand (tests/run_job.sh) adds one
		ms=$(awk -v n="$(name_of "$bb" "$kind" "$target")" '$1 == n { ms = $2 } END { if (ms != "") print ms }' <<< "$last")
		# untimed: after the timed ones of its length, in the order above
		echo "${ms:-0} $order $bb $kind $target"
	done < <(jobs_of "$b") >> "$list.w"
done
if grep -qv '^0 ' "$list.w"; then sort -k1,1nr -k2,2n "$list.w"; else sort -k2,2n "$list.w"; fi |
	cut -d' ' -f3- > "$list"

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
