#!/usr/bin/env bash
# Runs one libFuzzer target (build/fuzz/fuzz_<target>, made by `make fuzz-build`).
#   tests/fuzz/run.sh TARGET SECONDS   fuzz for that long from the committed seeds
#                                      and what earlier runs found (build/fuzz/corpus)
#   tests/fuzz/run.sh --merge TARGET   add the found inputs that cover something new
#                                      to the committed corpus (tests/fuzz/corpus)
# A crash, leak, sanitizer report or broken invariant stops the run with its
# input in build/fuzz/artifacts/TARGET/ and a failing exit status.
set -u
cd "$(dirname "$0")/../.."
merge=0
if [ "${1:-}" = "--merge" ]; then merge=1; shift; fi
target=${1:?target}
bin=build/fuzz/fuzz_$target
seeds=tests/fuzz/corpus/$target
found=build/fuzz/corpus/$target
artifacts=build/fuzz/artifacts/$target
mkdir -p "$seeds" "$found" "$artifacts"
[ -x "$bin" ] || { echo "fuzz: $bin missing (make fuzz-build)" >&2; exit 2; }
# the host targets' files, removed whatever way the run ends
TUMBLE_FUZZ_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tumble-fuzz-run.XXXXXX")
export TUMBLE_FUZZ_TMP
trap 'rm -rf "$TUMBLE_FUZZ_TMP"' EXIT
# the host's targets run headless, without a window or a sound card
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
# leaks of the system's libraries, not ours (each explained there)
export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# small inputs: the parsers' interesting parts are their headers and fields
opts=(-max_len=65536 -timeout=20 -rss_limit_mb=2560 -malloc_limit_mb=1024 -print_final_stats=1)
# the host's own messages (a refused level.conf, image or sound says why on
# stderr, every run) would fill the log: closed; libFuzzer and the
# sanitizers report on a copy of it
[ "$target" = snapshot ] || opts+=(-close_fd_mask=2)
if [ $merge = 1 ]; then
	"$bin" "${opts[@]}" -merge=1 "$seeds" "$found"
	exit $?
fi
seconds=${2:?seconds}
echo "fuzz: $target for ${seconds}s"
"$bin" "${opts[@]}" -max_total_time="$seconds" -artifact_prefix="$artifacts/" "$found" "$seeds" \
	>"build/fuzz/$target.log" 2>&1
status=$?
tail -n 12 "build/fuzz/$target.log"
if [ $status -ne 0 ]; then
	echo "fuzz: $target FAILED (status $status); input in $artifacts/, log build/fuzz/$target.log" >&2
	exit 1
fi
echo "fuzz: $target ok"
