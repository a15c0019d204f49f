#!/usr/bin/env bash
# The level author's kit, sound control: a Sound's voices on the level's
# clock (pause, resume, seek, tell, looping, volume, pan, a position or a body
# relative to the camera), what the headless mixer (SDL's dummy driver) was
# told of them, hostile arguments, and replays: what a level reads of its
# sounds is the same when the host replays frames with sound held back, and
# the mixer plays what is playing once the replay is over; a rewind takes the
# sounds back with the world.
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

# a rewind: straight to frame 300, and to 240, Page Up x4 (back to 120), F2,
# then the same input again
HEAD='tumble-input 1
view 640 480'
printf '%s\n' "$HEAD" 'F 1 320' > "$TAP_TMP/a.rec"
{ printf '%s\n' "$HEAD" 'F 1 241'
  for i in 1 2 3 4; do printf '%s\n' 'kd pageup' 'ku pageup' 'F 1'; done
  printf '%s\n' 'kd f2' 'ku f2' 'F 1 320'; } > "$TAP_TMP/b.rec"
timeout 60 "$TUMBLE_BIN" --headless --frames 1000 --replay "$TAP_TMP/a.rec" "$levels/rewind.lua" \
  > "$TAP_TMP/a.out" 2> "$TAP_TMP/a.err"
timeout 60 "$TUMBLE_BIN" --headless --frames 1000 --replay "$TAP_TMP/b.rec" "$levels/rewind.lua" \
  > "$TAP_TMP/b.out" 2> "$TAP_TMP/b.err"
# the last line of each frame, in order (after the rewind, frames 121.. were lived again)
grep '^frame ' "$TAP_TMP/a.out" > "$TAP_TMP/a.lines"
awk '$1 == "frame" { last[$2] = $0 } END { for (k in last) print k, last[k] }' "$TAP_TMP/b.out" | sort -n |
  cut -d' ' -f2- > "$TAP_TMP/b.lines"
check "a rewind takes the sound back: the rewound run lived frame 121 twice" \
  bash -c "[ \$(grep -c '^frame 121 ' '$TAP_TMP/b.out') = 2 ]"
check "... and read the same of its sound (playing, paused, tell, volume, looping) as a straight run, every frame" \
  bash -c "[ \$(wc -l < '$TAP_TMP/a.lines') = 301 ] && diff '$TAP_TMP/a.lines' '$TAP_TMP/b.lines'"

tap_done
