#!/usr/bin/env bash
# examples/stacking.lua: the pyramid stands and sleeps with the defaults,
# drifts clearly more without warm starting (and W wakes a sleeping pyramid);
# the dominoes fall in a row.
. "$(dirname "$0")/drivers/tap.sh"

check "defaults: the pyramid stands and sleeps; warm starting off (W): the top box drifts far more" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/stacking_warm.lua"
check "D pushes the first domino and the whole row falls; the other structures stay" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/stacking_dominoes.lua"
check "W on a sleeping pyramid wakes every box, and the pyramid then drifts without R" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/stacking_wake.lua"
tap_done
