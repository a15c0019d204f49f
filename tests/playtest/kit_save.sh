#!/usr/bin/env bash
# The level author's kit, save data: tumble.save / tumble.load_save round trips
# in a per-game folder under TUMBLE_DATA_DIR, the names they refuse, what
# cannot be saved, damaged files read without running them, the atomic write
# (no temporary file left), and a save held back while the host replays frames.
. "$(dirname "$0")/drivers/tap.sh"

levels="$TUMBLE_ROOT/tests/playtest/levels/save"
data="$TAP_TMP/data"
game="$data/saves"
mkdir -p "$game/dir.save"
# damaged saves, put there before the level reads them
printf -- '-- tumble save 1\nos.exit(3)\n' > "$game/code.save"
printf '{1,2' > "$game/open.save"
printf '{1} {2}' > "$game/trail.save"
printf '"\\q"' > "$game/esc.save"
printf '%0.s{' $(seq 200) > "$game/nest.save"

check "round trips, names, refused values and damaged files (each check named)" \
  bash -c "cd '$levels' && TUMBLE_DATA_DIR='$data' timeout 60 '$TUMBLE_BIN' --headless --frames 10 saves.lua > '$TAP_TMP/saves.out' 2>&1;
    rc=\$?; cat '$TAP_TMP/saves.out'; [ \$rc -eq 0 ] &&
    for c in round_trip names refused damaged; do
      grep -qx \"check \$c\" '$TAP_TMP/saves.out' || { echo \"missing: check \$c\"; exit 1; }; done"
check "the saves are files in the game's folder (named after the level), and no temporary file is left" \
  bash -c "ls -A '$game'; [ -f '$game/progress.save' ] && [ -f '$game/a-b_c.1.save' ] &&
    [ -z \"\$(ls -A '$game' | grep '^\\.')\" ] && head -1 '$game/progress.save' | grep -qx -- '-- tumble save 1' &&
    [ ! -e '$data/progress.save' ] && [ ! -e '$game/../x.save' ]"
check "without TUMBLE_DATA_DIR the folder is XDG_DATA_HOME/tumble/<game>" \
  bash -c "cd '$levels' && XDG_DATA_HOME='$TAP_TMP/xdg' timeout 60 '$TUMBLE_BIN' --headless --frames 10 saves.lua >/dev/null 2>&1;
    [ -f '$TAP_TMP/xdg/tumble/saves/progress.save' ]"

mkdir -p "$TAP_TMP/rebuilt"
cp "$levels/replay.lua" "$TAP_TMP/rebuilt/level.lua"
check "a save is held back while the host replays frames (the live frame wrote it)" \
  bash -c "TUMBLE_DATA_DIR='$data' SAVE_FILE='$TAP_TMP/rebuilt/level.lua' timeout 60 '$TUMBLE_BIN' --headless --frames 200 \
    --watch --watch-poll-ms 0 '$TAP_TMP/rebuilt/level.lua' 2>&1 | tee '$TAP_TMP/replay.out';
    grep -q 'load() changed: rebuilt' '$TAP_TMP/replay.out' &&
    grep -qx 'saved at frame 50, replaying false' '$TAP_TMP/replay.out' && [ -f '$data/rebuilt/replayed.save' ]"

tap_done
