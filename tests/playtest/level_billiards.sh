#!/usr/bin/env bash
# examples/billiards.lua: a straight break with the mouse conserves momentum
# through the first impact and the table comes to rest; pockets take balls.
. "$(dirname "$0")/drivers/tap.sh"

check "straight break: cue hits the apex, momentum kept within 1 %, all at rest within 15 s" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/billiards_break.lua"
check "pockets: a scratched cue ball is taken and re-spotted, a ball hit into a pocket is potted" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/billiards_pockets.lua"
tap_done
