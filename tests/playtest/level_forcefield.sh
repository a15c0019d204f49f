#!/usr/bin/env bash
# examples/forcefield.lua: the puzzle can be won, through the host's replay of
# recorded input too; a wrong order and the field's return reset the locks;
# the field really pushes the hero back; every ledge is reached the way the
# level says; a first-time player who only follows the on-screen help wins.
. "$(dirname "$0")/drivers/tap.sh"

win="$TAP_TMP/win.replay"
rec="$TAP_TMP/recorded.replay"

check "a scripted player wins (switch, locks 1-2-3, reward) and its input is written as a replay" \
  env FF_SCENARIO=win FF_REPLAY_OUT="$win" "$TUMBLE_BIN" --headless --frames 6000 "$DRIVERS/forcefield_pilot.lua"
check "the replay file holds key events in the host's format" \
  grep -qE '^kd (left|right|up)$' "$win"
check "the recorded winning input wins through --replay (and is recorded again with --record)" \
  "$TUMBLE_BIN" --headless --frames 3000 --replay "$win" --record "$rec" "$DRIVERS/forcefield_check.lua"
check "the host's own recording (--record) replays to a win" \
  "$TUMBLE_BIN" --headless --frames 3000 --replay "$rec" "$DRIVERS/forcefield_check.lua"
# The level's design checks below play the same engine and host paths as the
# win above for minutes of game time: the sanitized build (make test runs the
# suite on both) plays the win, its replays and the sandboxed run only.
if [ -z "${TUMBLE_SANITIZE:-}" ]; then
check "a wrong order (top right, then top left) resets the locks" \
  env FF_SCENARIO=wrong_order "$TUMBLE_BIN" --headless --frames 6000 "$DRIVERS/forcefield_pilot.lua"
check "waiting for the timeout brings the field back and resets the locks" \
  env FF_SCENARIO=timeout "$TUMBLE_BIN" --headless --frames 6000 "$DRIVERS/forcefield_pilot.lua"
check "the field pushes the hero down (g + F/m) and stops a jump while on" \
  "$TUMBLE_BIN" --headless --frames 1000 "$DRIVERS/forcefield_field.lua"
check "every ledge is reached as designed (floor jump to the low ledges, the platform to the middle and top ones, no bump)" \
  "$TUMBLE_BIN" --headless --frames 3000 "$DRIVERS/forcefield_reach.lua"
check "a first-time player reads the help at each stage (platform, switch, locks in order, reward) and wins" \
  "$TUMBLE_BIN" --headless --frames 8000 "$DRIVERS/forcefield_firsttime.lua"
fi
check "the level runs with its sprites and sounds under --sandbox (assets from its own folder)" \
  bash -c "out=\$('$TUMBLE_BIN' --headless --sandbox --frames 120 examples/forcefield.lua 2>&1); echo \"\$out\";
    ! grep -q 'without sprites' <<< \"\$out\" && grep -q '^frames=120' <<< \"\$out\""
tap_done
