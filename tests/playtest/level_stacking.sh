#!/usr/bin/env bash
# examples/stacking.lua: the pyramid stands and sleeps with the defaults,
# drifts clearly more without warm starting; the dominoes fall in a row.
. "$(dirname "$0")/drivers/tap.sh"

check "defaults: the pyramid stands and sleeps; warm starting off (W): the top box drifts far more" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/stacking_warm.lua"
check "D pushes the first domino and the whole row falls; the other structures stay" \
  "$TUMBLE_BIN" --headless --frames 2000 "$DRIVERS/stacking_dominoes.lua"
tap_done
