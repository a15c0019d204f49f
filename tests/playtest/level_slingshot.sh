#!/usr/bin/env bash
# examples/slingshot.lua: a scripted mouse shot topples the tower.
. "$(dirname "$0")/drivers/tap.sh"

check "a scripted pull-and-release shot topples the tower and scores the toppled blocks" \
  "$TUMBLE_BIN" --headless --frames 1000 "$DRIVERS/slingshot_shot.lua"
tap_done
