#!/usr/bin/env bash
# Host playtest: tumble.plot and --plot-csv. plot_level.lua plots three series
# (one only on even frames) headless for 4 frames:
#  - the CSV has a header row of names and one row per frame, exactly;
#  - a rebuild (load() edited at frame 3) replays frames without rewriting
#    their rows: they keep what was lived, and each frame has one row;
#  - bad calls (a 17th series, a string value, NaN, a name over 64 bytes, a
#    comma in a name) are Lua errors that say what is wrong;
#  - --plot-csv refuses a directory;
#  - the chart's cursor: paused at the newest frame there is none; Page Up
#    (the timeline scrubbed back) draws it at the shown frame's column, and a
#    second Page Up moves it left by as many frames (png_probe reads the
#    screenshots).
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
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
