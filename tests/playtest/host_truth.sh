#!/usr/bin/env bash
# Host playtest: the timeline tells the truth about edits. A copy of
# truth_level.lua runs headless, watched every frame, with scripted input;
# its update spawns nothing until the level saves an edit of its own file at
# frame 100 that adds a spawner to update (a functions-only reload: the world
# is kept).
# - Dragged back to before the edit (Page Up to frame 60, then Right, one
#   frame at a time, to 75: frames re-simulated between kept moments), the
#   world has only its ground: the replay ran the code that was live then,
#   not the spawner.
# - From there half a second on (Page Down to 105: back to the moment kept
#   at 90, re-simulated from there), the replay crosses the edit where it was
#   made: the world at 105 is the one lived then, hash for hash; so is the
#   present (End), and the run ends hash-equal to one that never looked back.
# - Going on from frame 75 (F2) runs today's code: boxes fall from there.
# - The timeline marks the edit: a tick in the edit's colour on the bar, at
#   the edit's place (a screenshot while paused).
# - Memory stays bounded: an edit every 10 frames for 300 frames keeps only
#   the versions of the code the kept moments can replay (--rewind 1: the
#   last second's), and never more than 16 (--rewind 10: the moments only
#   older code could replay are dropped, and that is said once).
# - Paused (the timeline shown) and halted by an error (the error panel
#   too), the world is fitted above them: the ground, which runs along the
#   bottom of the view, is whole (its shape as in a running screenshot) and
#   above the panels (screenshots).
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
PROBE=${TUMBLE_PNG_PROBE:-$ROOT/build/tests/png_probe}
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
# the last line the level printed for frame F (shown: draw; frame: update)
shown() { grep "^shown $1 " "$2" | tail -n 1; }
bodies() { shown "$1" "$2" | awk '{ print $4 }'; }
hash_of() { sed -n 's/.*hash=//p' "$1"; }

HEAD='tumble-input 1
view 1280 720'
back_to_75() { # 150 frames, Page Up x3 (back to 60), Right x15 (to 75)
  printf '%s\n' "$HEAD" 'F 1 150'
  for i in 1 2 3; do printf '%s\n' 'kd pageup' 'ku pageup' 'F 1'; done
  for i in $(seq 15); do printf '%s\n' 'kd right' 'ku right' 'F 1'; done
}
{ back_to_75; printf '%s\n' 'kd pagedown' 'ku pagedown' 'F 1' 'kd end' 'ku end' 'F 1 3'; } > "$TMP/end.rec"
{ back_to_75; printf '%s\n' 'kd f2' 'ku f2' 'F 1 30'; } > "$TMP/resume.rec"
printf '%s\n' "$HEAD" 'F 1 153' > "$TMP/straight.rec"
printf '%s\n' "$HEAD" 'F 1 150' 'kd f2' 'ku f2' 'F 1 2' > "$TMP/paused.rec"

# run NAME RECORDING FRAMES [args...]: a fresh copy of the level, edited at frame 100
run() {
  local name=$1 rec=$2 frames=$3; shift 3
  mkdir -p "$TMP/$name"
  cp "$ROOT/tests/playtest/levels/truth_level.lua" "$TMP/$name/level.lua"
  TRUTH_FILE="$TMP/$name/level.lua" TRUTH_EDIT_AT=100 timeout 120 "$BIN" --headless --frames "$frames" --watch \
    --watch-poll-ms 0 --replay "$rec" "$@" "$TMP/$name/level.lua" > "$TMP/$name.out" 2> "$TMP/$name.err"
  echo $? > "$TMP/$name.rc"
}
run end "$TMP/end.rec" 175
run resume "$TMP/resume.rec" 200
run straight "$TMP/straight.rec" 153
run paused "$TMP/paused.rec" 153 --screenshot "$TMP/paused.png"

check "every run exits 0" "for r in end resume straight paused; do [ \"\$(cat $TMP/\$r.rc)\" = 0 ] || exit 1; done"
for r in end resume straight paused; do [ "$(cat "$TMP/$r.rc")" = 0 ] || sed "s/^/# $r: /" "$TMP/$r.err" | head -5; done
check "the edit at frame 100 is a functions-only reload, once" \
  "[ \"\$(grep -c '^tumble: functions changed: reloaded at frame' $TMP/end.err)\" = 1 ] && grep -q '^frame 100: saving the spawner' $TMP/end.out"
check "live, the spawner ran after the edit (frame 150 shows $(bodies 150 "$TMP/straight.out") bodies)" \
  "[ \"\$(bodies 150 $TMP/straight.out)\" -gt 5 ]"
check "Page Up goes back to frame 60, before the edit: the ground alone" "[ \"\$(bodies 60 $TMP/end.out)\" = 1 ]"
b75=$(bodies 75 "$TMP/end.out")
check "stepped on to frame 75 (re-simulated from frame 60), the world has no spawned body: the code live then ran ($b75 bodies)" \
  "[ '$b75' = 1 ] && [ -z \"\$(grep '^shown 7[0-5] ' $TMP/end.out | awk '\$4 != 1')\" ]"
h105=$(grep '^shown 105 ' "$TMP/end.out" | awk '{ print $8 }' | uniq | tr '\n' ' ')
check "Page Down to 105 re-simulates from frame 90 across the edit at 102: the world lived at 105, hash for hash ($h105)" \
  "[ \"\$(grep -c '^shown 105 ' $TMP/end.out)\" = 2 ] && [ \"\$(echo $h105 | wc -w)\" = 1 ]"
check "on to the present (End), the replay crosses the edit where it was made: the run ends hash-equal to one that never looked back" \
  "[ -n \"\$(hash_of $TMP/straight.out)\" ] && [ \"\$(hash_of $TMP/end.out)\" = \"\$(hash_of $TMP/straight.out)\" ]"
check "F2 at frame 75 goes on from there" \
  "grep -q '^tumble: rewound to frame 75: going on from there' $TMP/resume.err"
f80=$(grep '^frame 80 ' "$TMP/resume.out" | tail -n 1 | awk '{ print $4 }')
check "... with today's code: boxes fall from frame 75 on (frame 80 lived with $f80 bodies)" "[ -n '$f80' ] && [ '$f80' -ge 2 ]"
check "... and the level's own edit does not run again (the file has it)" \
  "[ \"\$(grep -c '^frame 100: saving the spawner' $TMP/resume.out)\" = 1 ]"
# the timeline's bar: 2*PAD from each side, at the bottom (overlay.c); the
# edit took effect at frame 102 of the 0..152 kept
if [ -x "$PROBE" ] && [ -s "$TMP/paused.png" ]; then
  marks=$("$PROBE" "$TMP/paused.png" count 0 680 1279 719 255 170 60 8)
  check "paused, the timeline marks the edit ($marks pixels in the edit's colour on the bar)" "[ '${marks:-0}' -ge 10 ]"
  near=$("$PROBE" "$TMP/paused.png" count 840 680 880 719 255 170 60 8)
  check "... at the edit's place, two thirds along the bar ($near of them there)" "[ '${near:-0}' = '${marks:-x}' ]"
else
  not_ok "the paused run wrote a screenshot and png_probe is built ($PROBE)"
fi

# ---- many edits: the versions kept are bounded
printf '%s\n' 'tumble-input 1' 'view 640 360' 'F 1 300' 'kd home' 'ku home' 'F 1' > "$TMP/home.rec"
many() { # NAME REWIND_SECONDS
  mkdir -p "$TMP/$1"
  cp "$ROOT/tests/playtest/levels/truth_level.lua" "$TMP/$1/level.lua"
  TRUTH_FILE="$TMP/$1/level.lua" TRUTH_EVERY=10 timeout 120 "$BIN" --headless --frames 301 --watch --watch-poll-ms 0 \
    --rewind "$2" --rewind-stats --replay "$TMP/home.rec" "$TMP/$1/level.lua" > "$TMP/$1.out" 2> "$TMP/$1.err"
  echo $? > "$TMP/$1.rc"
}
versions() { sed -n 's/^code versions=\([0-9]*\) .*/\1/p' "$TMP/$1.out"; }
many short 1
many long 10
check "29 edits, one every 10 frames: 29 functions-only reloads, and both runs exit 0" \
  "[ \"\$(cat $TMP/short.rc)\$(cat $TMP/long.rc)\" = 00 ] && [ \"\$(grep -c '^tumble: functions changed' $TMP/short.err)\" = 29 ]"
check "--rewind 1: only the versions the last second's moments replay are kept ($(versions short))" \
  "[ -n \"\$(versions short)\" ] && [ \"\$(versions short)\" -le 8 ]"
check "--rewind 10: never more than 16 versions ($(versions long)), the moments only older code could replay dropped, said once" \
  "[ \"\$(versions long)\" = 16 ] && [ \"\$(grep -c 'rewind: the code of the last 15 edits is kept' $TMP/long.err)\" = 1 ]"
check "... and Home still goes back to the oldest moment kept" "grep -q '^shown 150 ' $TMP/long.out"

# ---- the panels take their own strip: the ground is not under them
L="$ROOT/tests/playtest/levels/truth_level.lua"
printf '%s\n' "$HEAD" 'F 1 10' 'kd f2' 'ku f2' 'F 1 2' > "$TMP/pause10.rec"
timeout 60 "$BIN" --headless --frames 10 --size 1280x720 --screenshot "$TMP/run.png" "$L" > /dev/null 2>&1
timeout 60 "$BIN" --headless --frames 13 --replay "$TMP/pause10.rec" --screenshot "$TMP/pause.png" "$L" > /dev/null 2>&1
TRUTH_BUG=8 timeout 60 "$BIN" --headless --frames 12 --size 1280x720 --screenshot "$TMP/halt.png" "$L" > /dev/null 2>&1
printf '%s\n' "$HEAD" 'F 1 10' 'kd f12' 'ku f12' 'F 1 2' > "$TMP/edit10.rec"
timeout 60 "$BIN" --headless --frames 13 --replay "$TMP/edit10.rec" --screenshot "$TMP/edit.png" "$L" > /dev/null 2>&1
if [ -x "$PROBE" ] && [ -s "$TMP/run.png" ] && [ -s "$TMP/pause.png" ] && [ -s "$TMP/halt.png" ] && [ -s "$TMP/edit.png" ]; then
  ground() { "$PROBE" "$1" bbox 60 81 66 6; } # the static box's fill: "X0 Y0 X1 Y1"
  # width over height of the ground as drawn, in hundredths
  aspect() { echo "$1" | awk '{ print int(100 * ($3 - $1 + 1) / ($4 - $2 + 1)) }'; }
  same_shape() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && b > 0 && a < 1.12 * b && b < 1.12 * a) }'; }
  top_of() { "$PROBE" "$1" bbox $("$PROBE" "$1" at "$2" "$3" | cut -d' ' -f1-3) 0 | awk '{ print $2 }'; }
  g_run=$(ground "$TMP/run.png"); g_pause=$(ground "$TMP/pause.png"); g_halt=$(ground "$TMP/halt.png")
  check "running, the ground runs along the bottom of the view ($g_run)" \
    "[ \"\$(echo $g_run | awk '{ print (\$4 > 600) }')\" = 1 ]"
  bar=$(top_of "$TMP/pause.png" 2 712) # the timeline's strip, left of its bar
  check "paused, the ground is whole: its shape as running ($(aspect "$g_run") vs $(aspect "$g_pause") hundredths)" \
    "same_shape $(aspect "$g_run") $(aspect "$g_pause")"
  check "... and above the timeline (ground bottom $(echo "$g_pause" | awk '{ print $4 }'), timeline top $bar)" \
    "[ -n '$bar' ] && [ \"\$(echo $g_pause | awk '{ print \$4 }')\" -lt '$bar' ]"
  panel=$(top_of "$TMP/halt.png" 1250 600) # the error panel's fill, right of its text
  check "halted by an error, the ground is whole above the error panel ($g_halt; panel top $panel)" \
    "same_shape $(aspect "$g_run") $(aspect "$g_halt") && [ -n '$panel' ] && [ \"\$(echo $g_halt | awk '{ print \$4 }')\" -lt '$panel' ]"
  # (the timeline's strip is the paused one's: edit mode's top bar has its colour)
  g_edit=$(ground "$TMP/edit.png")
  check "in edit mode too, the ground is whole above the timeline ($g_edit; timeline top $bar)" \
    "same_shape $(aspect "$g_run") $(aspect "$g_edit") && [ -n '$bar' ] && [ \"\$(echo $g_edit | awk '{ print \$4 }')\" -lt '$bar' ]"
else
  not_ok "the screenshots of the panels were written and png_probe is built ($PROBE)"
fi
echo "1..$n"
