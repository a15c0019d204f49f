#!/usr/bin/env bash
# examples/playground.lua: 50 spawned shapes settle on the floor and sleep;
# the book's keys change what they say.
. "$(dirname "$0")/drivers/tap.sh"

check "50 spawned shapes settle: none below the floor, all asleep within 10 s" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/playground_settle.lua"
check "select, mass, restitution, friction, resize, rotate, move, spawn, kick, motion, correction, layers" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/playground_keys.lua"
tap_done
