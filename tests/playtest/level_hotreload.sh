#!/usr/bin/env bash
# Hot reload of every example: a copy of the level runs headless with the
# host watching its files every frame; the driver rewrites a constant in the
# copy while it runs and checks that the new value takes effect in the
# running game (same bodies, new behaviour).
. "$(dirname "$0")/drivers/tap.sh"

for name in forcefield playground billiards breakout stacking joints slingshot platformer; do
  mkdir -p "$TAP_TMP/$name"
  cp "$TUMBLE_ROOT/examples/$name.lua" "$TAP_TMP/$name/$name.lua"
  check "$name: a constant edited while it runs takes effect after the reload" \
    env HR_LEVEL="$TAP_TMP/$name/$name.lua" HR_NAME="$name" \
    "$TUMBLE_BIN" --headless --watch --watch-poll-ms 0 --frames 300 "$DRIVERS/hotreload.lua"
done
tap_done
