#!/usr/bin/env bash
# Host playtest: rewind. Scripted input drives
# rewind_level.lua headless; the level prints its world hash and a digest of
# level.state every 30 steps it lives (not while the host replays).
# - Rewound 2 s (Page Up x4) and given the same input again, the run prints
#   the same lines as the run that never rewound, and ends hash-equal; the
#   --record file is cut back to the rewound timeline (byte-equal to the input
#   of the straight run) and replays to the same hash.
# - Rewound and given other input, the run diverges, and equals a straight
#   run of that other input (no stale level.state); 20 rewinds leave the Lua
#   memory where it was.
# - A level.state rewind cannot keep is said once, with its path; a huge one
#   is refused by the budget; a hostile __pairs never runs.
# - After an error, F2 rewinds to the moment before it and goes on; a fix
#   saved while halted goes on from that moment (headless with --watch, and
#   in a window under Xvfb, where the error panel shows).
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
LEVEL="$ROOT/tests/playtest/levels/rewind_level.lua"
TMP=${REWIND_TMP:-$(mktemp -d)}; [ -n "${REWIND_TMP:-}" ] || trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
# the level's line for frame F (the last one printed: after a rewind, the
# frame lived again)
line() { grep "^frame $1 " "$2" | tail -n 1; }
lines_from() { # frame lines from F on, the last of each frame, in order
  awk -v f="$1" '$1 == "frame" && $2 >= f { last[$2] = $0 } END { for (k in last) print k, last[k] }' "$2" | sort -n | cut -d' ' -f2-
}
hash_of() { sed -n 's/.*hash=//p' "$1"; }

# The straight run: right held 21..80, a jump at 81, left held 161..200.
HEAD='tumble-input 1
view 1280 720'
first_160() { printf '%s\n' "$HEAD" 'F 1 20' 'kd right' 'F 1 60' 'ku right' 'kd space' 'F 1' 'ku space' 'F 1 79'; }
first_160 > "$TMP/a.rec"; printf '%s\n' 'kd left' 'F 1 40' 'ku left' 'F 1 100' >> "$TMP/a.rec"
# The same to frame 240, four times Page Up (back to 120), F2, then the input
# of frames 121..300 again.
{ first_160; printf '%s\n' 'kd left' 'F 1 40' 'ku left' 'F 1 40'
  for i in 1 2 3 4; do printf '%s\n' 'kd pageup' 'ku pageup' 'F 1'; done
  printf '%s\n' 'kd f2' 'ku f2' 'F 1 40' 'kd left' 'F 1 40' 'ku left' 'F 1 100'; } > "$TMP/b.rec"
# ... and then other input: right held instead of left.
sed -e '$d' "$TMP/b.rec" | sed -e '$d' | sed -e '$d' | sed -e '$d' > "$TMP/c.rec"
printf '%s\n' 'kd right' 'F 1 40' 'ku right' 'F 1 100' >> "$TMP/c.rec"
# The straight run of that other input.
first_160 > "$TMP/d.rec"; printf '%s\n' 'kd right' 'F 1 40' 'ku right' 'F 1 100' >> "$TMP/d.rec"

run() { # name recording [extra args...]: headless, steps counted by the level
  local name=$1 rec=$2; shift 2
  [ "$rec" = - ] && set -- "$@" || set -- --replay "$rec" "$@"
  timeout 120 "$BIN" --headless --frames 400 "$@" "$LEVEL" > "$TMP/$name.out" 2> "$TMP/$name.err"
  echo $? > "$TMP/$name.rc"
}
# (the level prints frame F in the update of step F + 1)
run a "$TMP/a.rec" --frames 300
REWIND_SHOW=1 run b "$TMP/b.rec" --frames 424 --record "$TMP/b.recorded" --rewind-stats
run c "$TMP/c.rec" --frames 424
run d "$TMP/d.rec" --frames 300

check "the straight run and the rewound one exit 0" \
  "[ \$(cat $TMP/a.rc) = 0 ] && [ \$(cat $TMP/b.rc) = 0 ] && [ \$(cat $TMP/c.rc) = 0 ] && [ \$(cat $TMP/d.rc) = 0 ]"
[ "$(cat "$TMP/b.rc")" = 0 ] || sed 's/^/# /' "$TMP/b.err" | head -10
shown=$(grep '^shown' "$TMP/b.out" | sed -n '/^shown 240$/,$p' | head -n 5 | tr '\n' ' ')
check "Page Up steps back half a second at a time: 240, 210, 180, 150, 120 ($shown)" \
  "[ '$shown' = 'shown 240 shown 210 shown 180 shown 150 shown 120 ' ]"
check "F2 on the timeline goes on from frame 120 and says so" \
  "grep -q '^tumble: rewound to frame 120: going on from there (the 120 steps after it dropped)$' '$TMP/b.err'"
check "rewound 2 s, the same input again: frames 150..300 print the same hashes and state as the straight run" \
  "[ -n \"\$(line 270 $TMP/a.out)\" ] && [ \"\$(lines_from 150 $TMP/a.out)\" = \"\$(lines_from 150 $TMP/b.out)\" ]"
check "... and the run ends hash-equal ($(hash_of "$TMP/a.out"))" \
  "[ -n \"\$(hash_of $TMP/a.out)\" ] && [ \"\$(hash_of $TMP/a.out)\" = \"\$(hash_of $TMP/b.out)\" ]"
check "... the frame lines before the rewind were the same too (frame 240 lived once)" \
  "[ \"\$(grep '^frame 240 ' $TMP/a.out)\" = \"\$(grep '^frame 240 ' $TMP/b.out | head -n 1)\" ]"
check "the --record file is cut back to the rewound timeline: the straight run's input, byte for byte" \
  "cmp -s '$TMP/a.rec' '$TMP/b.recorded'"
[ -f "$TMP/b.recorded" ] && ! cmp -s "$TMP/a.rec" "$TMP/b.recorded" && diff "$TMP/a.rec" "$TMP/b.recorded" | head -10 | sed 's/^/# /'
run e "$TMP/b.recorded" --frames 300
check "... and replays to the same hash" "[ \"\$(hash_of $TMP/e.out)\" = \"\$(hash_of $TMP/a.out)\" ]"
check "--rewind-stats reports the moments kept and the restores" \
  "grep -qE '^rewind moments=[0-9]+ bytes=[0-9]+ each=[0-9]+ captures=[0-9]+ .*restores=[1-9]' '$TMP/b.out'"

check "rewound, then other input: the run diverges from the first timeline" \
  "[ -n \"\$(line 210 $TMP/c.out)\" ] && [ \"\$(line 210 $TMP/c.out)\" != \"\$(line 210 $TMP/a.out)\" ] && [ \"\$(hash_of $TMP/c.out)\" != \"\$(hash_of $TMP/a.out)\" ]"
check "... and equals a straight run of that input, level.state and all (no stale data)" \
  "[ \"\$(lines_from 150 $TMP/c.out)\" = \"\$(lines_from 150 $TMP/d.out)\" ] && [ \"\$(hash_of $TMP/c.out)\" = \"\$(hash_of $TMP/d.out)\" ]"

# The mouse on the timeline (paused, it shows along the bottom: the bar spans
# x 20..1260 at y 698..711 in a 1280x720 view): a click at its middle goes to
# frame 120, a drag to a quarter to frame 60, F2 goes on from there.
{ first_160; printf '%s\n' 'kd left' 'F 1 40' 'ku left' 'F 1 40' 'kd f2' 'ku f2' 'F 0' 'md 1 640 704' 'F 0' \
  'mm 330 704 -310 0' 'F 0' 'mu 1 330 704' 'F 0' 'kd f2' 'ku f2' 'F 1 20'; } > "$TMP/s.rec"
REWIND_SHOW=1 run s "$TMP/s.rec" --frames 265
shown=$(grep '^shown' "$TMP/s.out" | sed -n '/^shown 240$/,$p' | head -n 4 | tr '\n' ' ')
check "a click on the timeline's middle shows frame 120, a drag to a quarter frame 60 ($shown)" \
  "[ '$shown' = 'shown 240 shown 120 shown 60 shown 61 ' ] && grep -q '^tumble: rewound to frame 60: going on' '$TMP/s.err'"
check "... and the level sees none of those clicks" "! grep -q '^mouse' '$TMP/s.out'"

# 20 times: a second forward with right held, a second back, F2.
{ printf '%s\n' "$HEAD" 'F 1 120'
  for i in $(seq 20); do printf '%s\n' 'kd right' 'F 1 60' 'ku right' 'kd pageup' 'ku pageup' 'kd pageup' 'ku pageup' 'F 1' 'kd f2' 'ku f2' 'F 1'; done
  printf '%s\n' 'F 1 80'; } > "$TMP/m.rec"
REWIND_MEM=1 run m "$TMP/m.rec" --frames 1460 --rewind-stats
m1=$(grep '^mem 180 ' "$TMP/m.out" | head -n 1 | cut -d' ' -f3)
m2=$(grep '^mem 180 ' "$TMP/m.out" | tail -n 1 | cut -d' ' -f3)
check "20 rewinds: the Lua memory stays put (${m1} KB at frame 180 the first time, ${m2} KB the 20th)" \
  "[ \$(cat $TMP/m.rc) = 0 ] && [ -n '$m1' ] && [ -n '$m2' ] && [ \$(grep -c '^tumble: rewound to frame' $TMP/m.err) -eq 20 ] && [ $((${m2:-999999} * 100)) -lt $((${m1:-0} * 105)) ]"
moments=$(sed -n 's/^rewind moments=\([0-9]*\) .*/\1/p' "$TMP/m.out")
check "... and the moments after each resume point are dropped: ${moments} kept at the end, frame 240 (0, 30, ..., 240)" \
  "[ '${moments:-0}' = 9 ]"

# What rewind cannot keep.
REWIND_BAD=function run f - --frames 160
check "a function in level.state: said once, with its path, and moments kept again once it is gone" \
  "[ \$(cat $TMP/f.rc) = 0 ] && [ \$(grep -c 'rewind: level.state.think is a function: rewind keeps plain data and handles' $TMP/f.err) = 1 ] && grep -q 'rewind: moments are kept again from frame 1[0-9][0-9]' '$TMP/f.err'"
REWIND_BAD=deep run g - --frames 60
check "... deep inside: level.state.trail[2].think" "grep -q 'rewind: level.state.trail\[2\].think is a function' '$TMP/g.err'"
REWIND_BAD=coroutine run h - --frames 60
check "... a coroutine" "grep -q 'rewind: level.state.co is a thread' '$TMP/h.err'"
REWIND_BIG=300000 run i - --frames 60 --rewind-mb 2
check "a level.state over the budget: refused with its path, the run goes on" \
  "[ \$(cat $TMP/i.rc) = 0 ] && grep -q 'rewind: level.state.big is too large to keep for rewind' '$TMP/i.err' && ! grep -q '__pairs ran' '$TMP/i.err'"
REWIND_BIG=1000 run j "$TMP/b.rec" --frames 425
check "a table with a hostile __pairs is copied raw, and rewinds" \
  "[ \$(cat $TMP/j.rc) = 0 ] && ! grep -q '__pairs ran' '$TMP/j.err' && grep -q 'rewound to frame 120' '$TMP/j.err'"

# After an error: F2 rewinds to the moment before it and goes on.
printf '%s\n' "$HEAD" 'F 1 50' 'kd x' 'ku x' 'F 1 5' 'kd f2' 'ku f2' 'F 1 200' > "$TMP/x.rec"
REWIND_BUG=key run x "$TMP/x.rec" --frames 200 --watch --watch-poll-ms 100000
run z - --frames 301
check "an error in keypressed at frame 50 halts the run (headless with --watch)" "grep -q 'x pressed: a bug in keypressed' '$TMP/x.err'"
check "F2 after the error rewinds to frame 30, before it, and goes on" \
  "grep -q '^tumble: rewound to frame 30, before the error at frame 50: going on$' '$TMP/x.err' && [ \$(cat $TMP/x.rc) = 0 ]"
check "... without the input after that moment: frame 150 as a run without it" \
  "[ -n \"\$(line 150 $TMP/z.out)\" ] && [ \"\$(line 150 $TMP/x.out)\" = \"\$(line 150 $TMP/z.out)\" ]"

# A fix saved while halted goes on from the moment before the error.
cp "$LEVEL" "$TMP/fix.lua"
REWIND_BUG=frame REWIND_FILE="$TMP/fix.lua" REWIND_FIX_AT=5 timeout 120 "$BIN" --headless --frames 320 --watch \
  --watch-poll-ms 0 "$TMP/fix.lua" > "$TMP/fix.out" 2> "$TMP/fix.err"; rc=$?
check "a bug at frame 100 halts; draw saves the fix while halted" \
  "grep -q 'bug at frame 100' '$TMP/fix.err' && grep -q '^halted at frame 100: saving the fix$' '$TMP/fix.out'"
check "the fix goes on from frame 90, the moment before the error" \
  "grep -qE '^tumble: functions changed: reloaded, went back to frame 90 \(before the error\) and replayed on to frame 10[0-9] in [0-9.]+ m?s$' '$TMP/fix.err'"
check "... and plays as if the bug had never been: frame 300 as a run without it" \
  "[ $rc = 0 ] && [ -n \"\$(line 300 $TMP/fix.out)\" ] && [ \"\$(line 300 $TMP/fix.out)\" = \"\$(line 300 $TMP/z.out)\" ]"

# The same in a window under Xvfb: the error panel shows while halted.
if command -v xvfb-run > /dev/null 2>&1; then
  cp "$LEVEL" "$TMP/win.lua"
  printf '%s\n' "$HEAD" 'F 1 400' > "$TMP/win.rec"
  win_run() {
    REWIND_BUG=frame REWIND_FILE="$TMP/win.lua" REWIND_FIX_AT=20 timeout 120 bash "$ROOT/tests/xvfb_run.sh" -s "-screen 0 1280x720x24" \
      "$BIN" --frames 330 --watch-poll-ms 0 --replay "$TMP/win.rec" --screenshot "$TMP/halted.bmp" --screenshot-frame 110 \
      "$TMP/win.lua" > "$TMP/win.out" 2> "$TMP/win.err"
    echo $? > "$TMP/win.rc"
  }
  win_run
  if grep -q "no display to open a window" "$TMP/win.err"; then sleep 1; cp "$LEVEL" "$TMP/win.lua"; win_run; fi
  check "in a window: the bug halts, the fix saved while halted goes on from frame 90" \
    "[ \$(cat $TMP/win.rc) = 0 ] && grep -q '^halted at frame 100: saving the fix$' '$TMP/win.out' && grep -q 'went back to frame 90 (before the error)' '$TMP/win.err'"
  [ "$(cat "$TMP/win.rc")" = 0 ] || sed 's/^/# /' "$TMP/win.err" | head -10
  check "... and frame 300 is the run without the bug" \
    "[ -n \"\$(line 300 $TMP/win.out)\" ] && [ \"\$(line 300 $TMP/win.out)\" = \"\$(line 300 $TMP/z.out)\" ]"
  n=$((n + 1))
  if [ -s "$TMP/halted.bmp" ] && python3 - "$TMP/halted.bmp" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off = struct.unpack_from('<I', d, 10)[0]
bpp = struct.unpack_from('<H', d, 28)[0] // 8
reddish = sum(1 for i in range(off, len(d) - bpp, bpp * 7) if d[i + 2] > 150 and d[i + 1] < 110 and d[i] < 110)
sys.exit(0 if reddish > 20 else 1)
EOF
  then echo "ok $n - ... the frame drawn while halted shows the error panel"
  else echo "not ok $n - ... the frame drawn while halted shows the error panel"; fi
else
  n=$((n + 1)); echo "ok $n - # skip xvfb-run is not installed"
fi
echo "1..$n"
