# Shared by the level_*.sh playtests: TAP output around headless runs.
# Source it, then call `check "description" command...` once per test.
# the checkout: TUMBLE_ROOT (set by tests/run_suites.sh), else three levels
# above this file
TUMBLE_ROOT=${TUMBLE_ROOT:-$(dirname "${BASH_SOURCE[0]}")/../../..}
TUMBLE_ROOT=$(cd "$TUMBLE_ROOT" && pwd)
TUMBLE_BIN=${TUMBLE_BIN:-$TUMBLE_ROOT/tumble}
case $TUMBLE_BIN in /*) ;; *) TUMBLE_BIN="$PWD/$TUMBLE_BIN" ;; esac
export TUMBLE_ROOT TUMBLE_BIN
DRIVERS="$TUMBLE_ROOT/tests/playtest/drivers"
# the screenshot reader (make build/tests/png_probe)
PNG_PROBE=${TUMBLE_PNG_PROBE:-$TUMBLE_ROOT/build/tests/png_probe}
TAP_N=0
TAP_FAILED=0
TAP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tumble-playtest.XXXXXX")
trap '[ "$BASHPID" = "$$" ] && rm -rf "$TAP_TMP"' EXIT
cd "$TUMBLE_ROOT" || exit 1

# check DESCRIPTION COMMAND...: runs the command (time-limited), prints its
# output as TAP comments and one ok / not ok line.
check() {
  local desc=$1 log rc
  shift
  TAP_N=$((TAP_N + 1))
  log="$TAP_TMP/out.$TAP_N"
  timeout 120 "$@" > "$log" 2>&1
  rc=$?
  sed 's/^/# /' "$log"
  if [ $rc -eq 0 ]; then
    echo "ok $TAP_N - $desc"
  else
    echo "not ok $TAP_N - $desc (exit $rc)"
    TAP_FAILED=$((TAP_FAILED + 1))
  fi
  return $rc
}

tap_done() {
  echo "1..$TAP_N"
  [ "$TAP_FAILED" -eq 0 ]
}
