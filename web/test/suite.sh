#!/usr/bin/env bash
# The web suite as `make test` runs it: one line and no count when emscripten
# is not installed; otherwise builds what it needs and runs web/test/run.sh,
# writing "web/wasm PASSED FAILED" to WEB/results for the closing total (a
# build that fails counts as a failure).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
WEB=${WEB:-build/web}
rm -f "$WEB/results"
if ! command -v emcc > /dev/null; then
  echo "[web]   skipped: emscripten is not installed (TUMBLE_WEB=1 bash .ci/install-deps, then make web-test)"
  exit 0
fi
mkdir -p "$WEB"
log="$WEB/web-test.log"
start=$(date +%s)
if ! make --no-print-directory web-test-build > "$WEB/web-build.log" 2>&1; then
  echo "web/wasm 0 1" > "$WEB/results"
  echo "[web]   FAIL the web build — log: $WEB/web-build.log"
  tail -20 "$WEB/web-build.log"
  exit 0
fi
timeout 900 bash web/test/run.sh > "$log" 2>&1
p=$(grep -cE '^ok ' "$log"); f=$(grep -cE '^not ok ' "$log")
[ "$p" -eq 0 ] && [ "$f" -eq 0 ] && f=1
echo "web/wasm $p $f" > "$WEB/results"
if [ "$f" -ne 0 ]; then
  echo "[web]   FAIL web/wasm ($p passed, $f failed) — log: $log"
  grep -E '^not ok|^#' "$log" | head -40
else
  echo "[web]   ok   web/wasm ($p passed, $(($(date +%s) - start)) s)"
fi
