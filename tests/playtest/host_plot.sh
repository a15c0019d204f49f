#!/usr/bin/env bash
# Host playtest: tumble.plot and --plot-csv. plot_level.lua plots three series
# (one only on even frames) headless for 4 frames:
#  - the CSV has a header row of names and one row per frame, exactly;
#  - a rebuild (load() edited at frame 3) replays frames without rewriting
#    their rows: they keep what was lived, and each frame has one row;
#  - bad calls (a 17th series, a string value, NaN, a name over 64 bytes, a
#    comma in a name) are Lua errors that say what is wrong;
#  - --plot-csv refuses a directory.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
LEVEL=$ROOT/tests/playtest/levels/plot_level.lua

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
echo "1..$n"
