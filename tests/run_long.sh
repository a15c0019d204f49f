#!/usr/bin/env bash
# make test-long: what make test leaves out because it takes long, after make
# test's builds. Each part prints its own result, and the run ends with one
# "N passed, N failed" line:
#   - the sanitized build's sweeps of the engine (determinism, continuous
#     collision, stacking, maths; make test runs the plain build's, which
#     check the same results) and the binding's fuzz at length;
#   - every libFuzzer target for FUZZ_SMOKE_SECONDS (make fuzz-smoke; needs
#     clang, else said and counted as skipped);
#   - the source rewriter's fuzz at LONG_REWRITE_ROUNDS random programs.
#
#   tests/run_long.sh PLAIN_BUILD ASAN_BUILD
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PLAIN=${1:-build} ASAN=${2:-build/asan}
p=0 f=0
mkdir -p "$PLAIN/results.d" "$PLAIN/logs" "$ASAN/results.d" "$ASAN/logs"

# a cmocka binary through run_job.sh (its log and result line, as in make test)
ctest() {
	local b=$1 t=$2 r rp rf
	bash tests/run_job.sh "$b" ctest "$t"
	r="$b/results.d/c_$(basename "$t")"
	read -r _ rp rf < "$r" || { rp=0 rf=1; }
	p=$((p + rp)) f=$((f + rf))
}

# the sanitized sweeps that make test leaves out (the Makefile's SAN_LONG_TESTS)
for t in ${LONG_SANITIZED:-test_determinism}; do ctest "$ASAN" "$ASAN/tests/$t"; done

# the binding's random-call fuzz at ten times make test's length, sanitized
r="$ASAN/results.d/lua_fuzz_spec"
TUMBLE_FUZZ_CALLS=400000 TUMBLE_HOSTILE_FUZZ_CALLS=100000 bash tests/run_job.sh "$ASAN" busted tests/lua/fuzz_spec.lua
read -r _ rp rf < "$r" || { rp=0 rf=1; }
p=$((p + rp)) f=$((f + rf))

if command -v "${FUZZ_CC:-clang}" > /dev/null; then
	if make --no-print-directory fuzz-smoke > build/fuzz-smoke.log 2>&1; then
		p=$((p + 1)); echo "[fuzz]  ok   make fuzz-smoke (log: build/fuzz-smoke.log)"
	else
		f=$((f + 1)); echo "[fuzz]  FAIL make fuzz-smoke — log: build/fuzz-smoke.log"; tail -20 build/fuzz-smoke.log
	fi
else
	echo "[fuzz]  skipped: no ${FUZZ_CC:-clang} to build the libFuzzer targets"
fi

TUMBLE_FUZZ_REWRITE_ROUNDS=${LONG_REWRITE_ROUNDS:-5000} ctest "$PLAIN" "$PLAIN/tests/test_source_edit"

echo "$p passed, $f failed"
[ "$f" -eq 0 ]
