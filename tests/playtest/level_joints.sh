#!/usr/bin/env bash
# examples/joints.lua: the cradle passes the swing through the row, the car
# climbs the ramp on its wheel motors, the bridge holds the ragdoll.
. "$(dirname "$0")/drivers/tap.sh"

check "cradle: the last ball swings out after the first hits; car: drives up the ramp; bridge holds the ragdoll" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/joints_cradle_car.lua"
tap_done
