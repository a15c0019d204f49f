#!/usr/bin/env bash
# examples/breakout.lua: a ball fast enough to tunnel a naive step stays in
# the walls while a scripted paddle clears bricks; lives and the reset work.
. "$(dirname "$0")/drivers/tap.sh"

check "at 75 m/s (1.25 m a step) a paddle following the ball clears 20 bricks, the ball never leaves the walls" \
  "$TUMBLE_BIN" --headless --frames 5000 "$DRIVERS/breakout_fast.lua"
check "three lost balls cost three lives and end the game, R restarts; the speed stays constant" \
  "$TUMBLE_BIN" --headless --frames 9000 "$DRIVERS/breakout_lives.lua"
tap_done
