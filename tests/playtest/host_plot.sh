#!/usr/bin/env bash
# Host playtest: tumble.plot and --plot-csv. plot_level.lua plots three series
# (one only on even frames) headless for 4 frames:
#  - the CSV has a header row of names and one row per frame, exactly;
#  - a rebuild (load() edited at frame 3) replays frames without rewriting
#    their rows: they keep what was lived, and each frame has one row;
#  - bad calls (a 17th series, a string value, NaN, a name over 64 bytes, a
#    comma in a name) are Lua errors that say what is wrong;
#  - --plot-csv refuses a directory;
#  - "plot this": in edit mode a right-click on an inspector line plots that
#    property (recorded input, plot_this_level.lua): its --plot-csv column
#    holds, from the step after the click, each step's value as the level
#    itself prints it in the next update;
#    a second right-click, or the object's destruction, stops the series; the session
#    re-recorded with --record replays to the same CSV;
#  - the chart's cursor: paused at the newest frame there is none; Page Up
#    (the timeline scrubbed back) draws it at the shown frame's column, and a
#    second Page Up moves it left by as many frames (png_probe reads the
#    screenshots).
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
LEVEL=$ROOT/tests/playtest/levels/plot_level.lua
PNG_PROBE=${TUMBLE_PNG_PROBE:-$ROOT/build/tests/png_probe}

timeout 60 "$BIN" --headless --frames 4 --plot-csv "$TMP/plot.csv" "$LEVEL" > "$TMP/ok.out" 2> "$TMP/ok.err"
rc=$?
check "the run exits 0" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/ok.err" | head -20
cat > "$TMP/want.csv" <<'CSV'
frame,frame,half,third
0,0,0,0.33333333333333331
1,1,,0.33333333333333331
2,2,1,0.33333333333333331
3,3,,0.33333333333333331
CSV
check "the CSV holds a column per series and a row per frame" "cmp -s '$TMP/want.csv' '$TMP/plot.csv'"
cmp -s "$TMP/want.csv" "$TMP/plot.csv" || sed 's/^/# got: /' "$TMP/plot.csv" 2>/dev/null | head

cp "$LEVEL" "$TMP/edit.lua"
PLOT_EDIT_FILE="$TMP/edit.lua" timeout 60 "$BIN" --headless --frames 8 --watch --watch-poll-ms 0 \
  --plot-csv "$TMP/edit.csv" "$TMP/edit.lua" > "$TMP/edit.out" 2> "$TMP/edit.err"
rc=$?
check "rebuild: the run exits 0" "[ $rc -eq 0 ]"
check "rebuild: the level was rebuilt" "grep -q 'load() changed: rebuilt, replayed 5 frames' '$TMP/edit.err'"
cat > "$TMP/want_edit.csv" <<'CSV'
frame,frame,half,third,width
0,0,0,0.33333333333333331,10
1,1,,0.33333333333333331,10
2,2,1,0.33333333333333331,10
3,3,,0.33333333333333331,10
4,4,2,0.33333333333333331,10
5,5,,0.33333333333333331,12
6,6,3,0.33333333333333331,12
7,7,,0.33333333333333331,12
CSV
check "rebuild: the replayed frames keep the rows they were lived with" "cmp -s '$TMP/want_edit.csv' '$TMP/edit.csv'"
cmp -s "$TMP/want_edit.csv" "$TMP/edit.csv" || sed 's/^/# got: /' "$TMP/edit.csv" 2>/dev/null | head

bad() {
  PLOT_CASE=$1 timeout 60 "$BIN" --headless --frames 4 "$LEVEL" > "$TMP/$1.out" 2> "$TMP/$1.err"
  local rc=$?
  check "$1: the run fails" "[ $rc -ne 0 ]"
  check "$1: the error says: $2" "grep -qF -- '$2' '$TMP/$1.err'"
  grep -qF -- "$2" "$TMP/$1.err" || sed 's/^/# /' "$TMP/$1.err" | head -5
}
bad many "tumble.plot: too many series: at most 16 names can be plotted"
bad string 'tumble.plot: the value for "frame" is a string, not a number'
bad nan "tumble.plot: the value is not a finite number (NaN or infinite)"
bad long "tumble.plot: the series name is longer than 64 bytes"
bad comma "tumble.plot: the series name has a comma"

mkdir "$TMP/dir"
timeout 60 "$BIN" --headless --frames 4 --plot-csv "$TMP/dir" "$LEVEL" > /dev/null 2> "$TMP/dir.err"
rc=$?
check "--plot-csv refuses a directory" "[ $rc -ne 0 ] && grep -q 'cannot write .*dir' '$TMP/dir.err'"

# "plot this": 10 frames, F12, click the falling ball (pixel 640, 246 of the
# view; 640, 243 where edit mode fits the world above the timeline), right-
# click the inspector's line 2 (its y, at y 66), click the platform (840, 480;
# 826, 445 fitted) and right-click line 1 (its x, at y 54), F12 again, 90
# frames. The platform is destroyed in frame 60's update.
cat > "$TMP/this.rec" <<'REC'
tumble-input 1
view 1280 720
F 1 10
kd f12
F 0
ku f12
F 0
md 1 640 228
F 0
mu 1 640 228
F 0
md 3 900 66
F 0
mu 3 900 66
F 0
md 1 826 445
F 0
mu 1 826 445
F 0
md 3 900 54
F 0
mu 3 900 54
F 0
kd f12
F 0
ku f12
F 0
F 1 90
REC
THIS=$ROOT/tests/playtest/levels/plot_this_level.lua
timeout 60 "$BIN" --headless --frames 114 --replay "$TMP/this.rec" --record "$TMP/this2.rec" \
  --plot-csv "$TMP/this.csv" "$THIS" > "$TMP/this.out" 2> "$TMP/this.err"
rc=$?
check "plot this: the run exits 0" "[ $rc -eq 0 ]"
check "plot this: the edit mode says what it plots" \
  "grep -q 'body 2.y plotted' '$TMP/this.err' && grep -q 'body 3.x plotted' '$TMP/this.err'"
check "plot this: the CSV has a column for each plotted property" "[ \"\$(head -1 '$TMP/this.csv')\" = 'frame,body 2.y,body 3.x' ]"
# The series holds the value as the frame's step left it, which the level's
# update prints in the next frame: row f against "y f+1" (rows 10..100; 101
# has no next frame). "frame" lines where they differ, then the counts.
awk -F, 'NR == FNR { if ($1 == "y") y[$2] = $3; next }
  FNR > 1 && $2 != "" { n++; if (first == "") first = $1; last = $1
    if (($1 + 1) in y) { m++; if (y[$1 + 1] != $2) print "frame " $1 ": printed " y[$1 + 1] ", plotted " $2 } }
  END { print "rows " first ".." last ", " m " compared" }' FS=' ' "$TMP/this.out" FS=, "$TMP/this.csv" > "$TMP/this.cmp"
check "plot this: the ball's y is plotted from frame 10 (the step after the click), each value what the level prints in the next update ($(tail -1 "$TMP/this.cmp"))" \
  "[ \"\$(cat '$TMP/this.cmp')\" = 'rows 10..101, 91 compared' ]"
grep -q '^rows 10..101, 91 compared$' "$TMP/this.cmp" || sed 's/^/# /' "$TMP/this.cmp" | head -5
check "plot this: the destroyed platform's series ends with it: x = 5 in frames 10..59, none after" \
  "[ \"\$(awk -F, 'NR > 1 && \$3 != \"\" { print \$1 \"=\" \$3 }' '$TMP/this.csv' | sed -n '1p;\$p' | tr '\n' ' ')\" = '10=5 59=5 ' ] &&
   [ \"\$(awk -F, 'NR > 1 && \$3 != \"\"' '$TMP/this.csv' | wc -l)\" = 50 ]"
timeout 60 "$BIN" --headless --frames 114 --replay "$TMP/this2.rec" --plot-csv "$TMP/this2.csv" "$THIS" \
  > /dev/null 2>&1
check "plot this: the session recorded with --record replays to the same CSV" \
  "cmp -s '$TMP/this.csv' '$TMP/this2.csv' && grep -q '^frame,body 2.y,body 3.x$' '$TMP/this2.csv'"

# A second right-click on the line stops the series: plotted in frames 10..29
# (F12 at frame 30, the ball still selected), none after.
cat > "$TMP/off.rec" <<'REC'
tumble-input 1
view 1280 720
F 1 10
kd f12
F 0
ku f12
F 0
md 1 640 228
F 0
mu 1 640 228
F 0
md 3 900 66
F 0
mu 3 900 66
F 0
kd f12
F 0
ku f12
F 0
F 1 20
kd f12
F 0
ku f12
F 0
md 3 900 66
F 0
mu 3 900 66
F 0
kd f12
F 0
ku f12
F 0
F 1 20
REC
timeout 60 "$BIN" --headless --frames 60 --replay "$TMP/off.rec" --plot-csv "$TMP/off.csv" "$THIS" \
  > "$TMP/off.out" 2> "$TMP/off.err"
check "plot this: a second right-click stops the series (frames 10..29 plotted, none after)" \
  "grep -q 'body 2.y is no longer plotted' '$TMP/off.err' &&
   [ \"\$(awk -F, 'NR > 1 && \$2 != \"\" { print \$1 }' '$TMP/off.csv' | sed -n '1p;\$p' | tr '\n' ' ')\" = '10 29 ' ] &&
   [ \"\$(awk -F, 'NR > 1 && \$2 != \"\"' '$TMP/off.csv' | wc -l)\" = 20 ]"

# The cursor: 120 frames of plot_level in a 640x480 view. The chart is 320
# pixels wide at the right (x 310..630), its lines over x 314..498 for frames
# 0..119: the frame shown is at 314 + 184 * (shown - 1) / 119 (a 2-pixel bar
# in 255,220,120, a colour nothing else draws). Paused (F2): frame 120 shown,
# the newest, no cursor. Page Up: frame 90 (the chart's frame 89), x 451.6;
# again: frame 60, x 405.2.
cursor() { # NAME KEYS...: the run and its screenshot
  local name=$1
  shift
  { printf '%s\n' 'tumble-input 1' 'view 640 480' 'F 1 120'
    for k in "$@"; do printf '%s\n' "kd $k" 'F 0' "ku $k" 'F 0'; done; } > "$TMP/$name.rec"
  timeout 60 "$BIN" --headless --frames 140 --replay "$TMP/$name.rec" --screenshot "$TMP/$name.png" "$LEVEL" \
    > "$TMP/$name.out" 2>&1
}
# cursor pixels in columns X0..X1 (all rows)
bar() { "$PNG_PROBE" "$1" count "$2" 0 "$3" 479 255 220 120 0; }
cursor paused f2
cursor back1 pageup
cursor back2 pageup pageup
check "cursor: paused at the newest frame, the chart has no cursor" "[ \"\$(bar '$TMP/paused.png' 0 639)\" = 0 ]"
all1=$(bar "$TMP/back1.png" 0 639) at1=$(bar "$TMP/back1.png" 450 453)
check "cursor: rewound to frame 90, a cursor bar at x 451.6 and nowhere else ($at1 of $all1 pixels)" \
  "[ '$at1' -ge 100 ] && [ '$at1' = '$all1' ]"
all2=$(bar "$TMP/back2.png" 0 639) at2=$(bar "$TMP/back2.png" 404 407)
check "cursor: rewound to frame 60, the bar moved left to x 405.2 ($at2 of $all2 pixels)" \
  "[ '$at2' -ge 100 ] && [ '$at2' = '$all2' ]"
echo "1..$n"
