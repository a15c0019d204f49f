#!/usr/bin/env bash
# Security suite, class "host code outside every callback": the host's own
# loops are bounded by construction whatever values a level puts in the
# camera or gfx calls (no watchdog covers host code), and SIGINT and SIGTERM
# end the run within a second with the exit status 128 + signal, headless
# and in a window, also while a callback or host code (a finalizer) does not
# return.
. "$(dirname "$0")/lib.sh"
LONG=(--time-limit 120)

# --- drawing: bounded whatever the camera holds ---
for cam in "x = 1e17" "y = -1e17" "x = 3e38, y = 3e38" "x = 1e17, scale = 1e-3"; do
  L=$(level "camera_${cam//[^a-z0-9]/_}" <<EOF
local c = tumble.camera
for k, v in pairs({ $cam }) do c[k] = v end
EOF
)
  host_case "draw: the grid with the camera at { $cam } draws and ends" ok "frames=3" 30 0 --sandbox "${LONG[@]}" \
    --frames 3 --screenshot "$TMP/camera.png" "$L"
done

# --- SIGINT and SIGTERM ---
# signal_case LABEL SIGNAL STATUS PATTERN LEVEL ARGS...: runs the host in the
# background until the level says "ready" on stderr, sends the signal, and
# expects the given exit status and pattern.
signal_case() {
  local label=$1 sig=$2 status=$3 pattern=$4 lvl=$5; shift 5
  local pid i t0 t1 bad=""
  # emptied here, not by the child's redirection: a "ready" left by the last
  # case would otherwise send the signal before the child has even started
  # (a background job of this shell ignores SIGINT until the host installs
  # its handler)
  : > "$TMP/out"; : > "$TMP/err"
  "$BIN" "$@" "$lvl" > "$TMP/out" 2> "$TMP/err" < /dev/null &
  pid=$!
  for i in $(seq 1 $((600 * SLOW))); do grep -q ready "$TMP/err" && break; sleep 0.1; done
  t0=$(date +%s%N)
  kill -"$sig" "$pid"
  # not a time test: a hang shows as the kill below, 30 s on
  ( trap - EXIT; sleep $((30 * SLOW)); kill -KILL "$pid" 2> /dev/null ) & local guard=$!
  wait "$pid"; RC=$?
  kill "$guard" 2> /dev/null; wait "$guard" 2> /dev/null
  t1=$(date +%s%N)
  SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'); RSS_MB=-
  if [ "$RC" -ne "$status" ]; then
    bad="exit $RC, expected $status"
  elif grep -qE 'AddressSanitizer|runtime error:' "$TMP/err"; then
    bad="sanitizer: $(grep -m1 -E 'AddressSanitizer|runtime error:' "$TMP/err")"
  elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$TMP/err"; then
    bad="no /$pattern/ in: $(head -c 300 "$TMP/err" | tr '\n' ' ')"
  fi
  report "$label (after the signal)" "$bad"
}

L=$(raw_level sig_loop <<'EOF'
local level = {}
function level.update() io.stderr:write("ready\n") while true do end end
return level
EOF
)
signal_case "signal: SIGTERM stops an update that loops (no time limit) and ends the run" TERM 143 \
  "interrupted in update \(SIGTERM" "$L" --headless --time-limit 0 --frames 1000000
signal_case "signal: SIGINT the same" INT 130 "interrupted in update \(SIGINT" "$L" --headless --time-limit 0 \
  --frames 1000000

L=$(raw_level sig_idle <<'EOF'
local level = {}
local said = false
function level.update() if not said then io.stderr:write("ready\n") said = true end end
return level
EOF
)
signal_case "signal: SIGTERM ends a run that is playing normally" TERM 143 "ended by SIGTERM" "$L" --headless \
  --realtime --frames 1000000

# a finalizer that loops runs inside the callback where no hook reaches it:
# only the watchdog thread can end the process
L=$(raw_level sig_gc <<'EOF'
local level = {}
function level.update()
  io.stderr:write("ready\n")
  setmetatable({}, { __gc = function() while true do end end })
  collectgarbage()
end
return level
EOF
)
signal_case "signal: SIGTERM ends a run held in C (a finalizer that loops, no time limit)" TERM 143 \
  "SIGTERM: the host did not end" "$L" --headless --time-limit 0 --frames 1000000
signal_case "signal: SIGINT the same" INT 130 "SIGINT: the host did not end" "$L" --headless --time-limit 0 \
  --frames 1000000

# in a window (SDL would otherwise turn the signal into a quit event that a
# looping frame never reads, and end with status 0)
if command -v xvfb-run > /dev/null; then
  window_signal() {
    local label=$1 sig=$2 status=$3 pattern=$4 lvl=$5
    cat > "$TMP/window_signal.sh" <<EOF
: > "$TMP/werr"
"$BIN" --size 320x240 --no-watch --time-limit 0 "$lvl" 2> "$TMP/werr" &
pid=\$!
for i in \$(seq 1 $((600 * SLOW))); do grep -q ready "$TMP/werr" && break; sleep 0.1; done
kill -$sig \$pid
( sleep $((30 * SLOW)); kill -KILL \$pid 2> /dev/null ) & guard=\$!
wait \$pid; rc=\$?
kill \$guard 2> /dev/null
cat "$TMP/werr" >&2
exit \$rc
EOF
    run_capture $((60 * SLOW)) bash "$ROOT/tests/xvfb_run.sh" -s "-screen 0 640x480x24" bash "$TMP/window_signal.sh"
    local bad=""
    if grep -q "no display to open a window" "$TMP/err"; then
      bad="no window"
    elif [ "$RC" -ne "$status" ]; then
      bad="exit $RC, expected $status: $(head -c 300 "$TMP/err" | tr '\n' ' ')"
    elif ! grep -qE -- "$pattern" "$TMP/err"; then
      bad="no /$pattern/ in: $(head -c 300 "$TMP/err" | tr '\n' ' ')"
    fi
    report "$label" "$bad"
  }
  window_signal "signal: SIGTERM ends a window whose update loops" TERM 143 "interrupted in update" \
    "$TMP/sig_loop/level.lua"
  window_signal "signal: SIGINT ends a window playing normally (status 130, not 0)" INT 130 "ended by SIGINT" \
    "$TMP/sig_idle/level.lua"
else
  N=$((N + 1)); echo "ok $N - signal: window cases # SKIP no xvfb-run"
fi

finish
