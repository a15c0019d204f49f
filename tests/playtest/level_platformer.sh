#!/usr/bin/env bash
# examples/platformer.lua: played through with scripted keys (a world:mover
# hero on slopes, a step, a one-way platform, a conveyor, a wheel-joint cart
# and a breakable bridge).
. "$(dirname "$0")/drivers/tap.sh"

check "walls and slopes, up through a one-way platform, carried by the belt, rides the cart, the bridge breaks behind it, the flag" \
  "$TUMBLE_BIN" --headless --frames 4000 "$DRIVERS/platformer_play.lua"
tap_done
