#!/usr/bin/env bash
# The level author's kit, sound control: a Sound's voices on the level's
# clock (pause, resume, seek, tell, looping, volume, pan, a position or a body
# relative to the camera), what the headless mixer (SDL's dummy driver) was
# told of them, hostile arguments, and replays: what a level reads of its
# sounds is the same when the host replays frames with sound held back, and
# the mixer plays what is playing once the replay is over.
. "$(dirname "$0")/drivers/tap.sh"

levels="$TUMBLE_ROOT/tests/playtest/levels/sound"

check "pause, resume, seek, tell, looping, gains per channel, positions, errors (each check named)" \
  bash -c "cd '$levels' && timeout 60 '$TUMBLE_BIN' --headless --size 640x480 --frames 300 control.lua > '$TAP_TMP/control.out' 2>&1;
    rc=\$?; cat '$TAP_TMP/control.out'; [ \$rc -eq 0 ] &&
    for c in errors play_at_seek pause resume_seek gains ended loop position body; do
      grep -qx \"check \$c\" '$TAP_TMP/control.out' || { echo \"missing: check \$c\"; exit 1; }; done"

mkdir -p "$TAP_TMP/rebuilt"
cp "$levels/replay.lua" "$TAP_TMP/rebuilt/level.lua"
SOUND_FILE="$TAP_TMP/rebuilt/level.lua" timeout 60 "$TUMBLE_BIN" --headless --frames 200 --watch --watch-poll-ms 0 \
  "$TAP_TMP/rebuilt/level.lua" > "$TAP_TMP/rebuilt.out" 2> "$TAP_TMP/rebuilt.err"
echo "# rebuilt run: exit $?"
timeout 60 "$TUMBLE_BIN" --headless --frames 200 "$levels/replay.lua" > "$TAP_TMP/plain.out" 2> "$TAP_TMP/plain.err"
echo "# plain run: exit $?"
sed 's/^/# rebuilt: /' "$TAP_TMP/rebuilt.out" "$TAP_TMP/rebuilt.err"
sed 's/^/# plain: /' "$TAP_TMP/plain.out"

check "the level was rebuilt, and its sounds were held back while replaying" \
  bash -c "grep -q 'load() changed: rebuilt, replayed .*sounds held back while replaying' '$TAP_TMP/rebuilt.err' &&
    grep -qx 'held while replaying: true' '$TAP_TMP/rebuilt.out'"
check "what the level read of its sound (playing, paused, tell) is the same in the replay as in a run never rebuilt" \
  bash -c "a=\$(grep '^trace ' '$TAP_TMP/rebuilt.out'); b=\$(grep '^trace ' '$TAP_TMP/plain.out');
    [ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ]"
check "after the replay the mixer plays the looping sound again" \
  grep -qx 'on the mixer after: true' "$TAP_TMP/rebuilt.out"

tap_done
