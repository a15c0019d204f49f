#!/usr/bin/env bash
# Rewind's cost in the host: the force-field level headless
# for 3,600 frames (a minute of play, so the history fills: 121 moments, one
# every 0.5 s), with rewind off and on. Per frame: the wall time of the run
# (best of 5) divided by the frames; memory: the process's peak RSS and what
# the kept moments hold (--rewind-stats); and what taking a moment, and going
# back 2 s on the timeline (a restore and the replay after it), cost.
set -u
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
LEVEL="$ROOT/examples/forcefield.lua"
FRAMES=3600
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
# GNU time gives the peak RSS; without it (the "time" package) RSS reads 0
TIME=""; [ -x /usr/bin/time ] && TIME="/usr/bin/time -f %M -o $TMP/rss"
best() { # rewind seconds -> best time in s, peak RSS in KB (of that run)
  local t best_t= best_rss=
  for i in 1 2 3 4 5; do
    echo 0 > "$TMP/rss"
    $TIME "$BIN" --headless --frames $FRAMES --rewind "$1" --rewind-stats "$LEVEL" \
      > "$TMP/out" 2> /dev/null
    t=$(sed -n 's/.*time=\([0-9.]*\)s.*/\1/p' "$TMP/out")
    if [ -z "$best_t" ] || awk "BEGIN { exit !($t < $best_t) }"; then
      best_t=$t; best_rss=$(tail -n 1 "$TMP/rss"); cp "$TMP/out" "$TMP/best_$1"
    fi
  done
  echo "$best_t $best_rss"
}
read -r t0 rss0 < <(best 0)
read -r t1 rss1 < <(best 60)
stats=$(grep '^rewind ' "$TMP/best_60")
field() { echo "$stats" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
printf 'forcefield.lua, %d frames headless (best of 5):\n' $FRAMES
awk -v t0="$t0" -v t1="$t1" -v f=$FRAMES 'BEGIN {
  printf "  rewind off:        %.4f ms/frame\n", t0 * 1000 / f
  printf "  rewind on (60 s):  %.4f ms/frame (%+.4f ms)\n", t1 * 1000 / f, (t1 - t0) * 1000 / f }'
printf '  peak RSS: %d KB off, %d KB on (%+d KB)\n' "$rss0" "$rss1" $((rss1 - rss0))
awk -v b="$(field bytes)" -v e="$(field each)" -v m="$(field moments)" -v c="$(field capture_ms)" -v x="$(field capture_max_ms)" 'BEGIN {
  printf "  moments kept: %d, %.2f MB in all, %.1f KB each\n", m, b / 1048576, e / 1024
  printf "  taking a moment: %.3f ms median, %.3f ms max (one every 30 frames: %.4f ms/frame)\n", c, x, c / 30 }'
# Back 2 s from the end of the minute, four Page Ups in a row
{ printf 'tumble-input 1\nview 1280 720\nF 1 %d\n' $FRAMES
  for i in 1 2 3 4; do printf 'kd pageup\nku pageup\nF 0\n'; done; } > "$TMP/back.rec"
"$BIN" --headless --frames $((FRAMES + 4)) --replay "$TMP/back.rec" --rewind-stats "$LEVEL" > "$TMP/back" 2> /dev/null
stats=$(grep '^rewind ' "$TMP/back")
awk -v r="$(field restore_ms)" -v s="$(field seek_ms)" -v n="$(field seeks)" 'BEGIN {
  printf "  0.5 s back on the timeline (Page Up): %.3f ms, the restore %.3f ms (median of %d)\n", s, r, n }'
# ... and one step back, eight times (Left: a restore and up to 29 steps replayed)
{ printf 'tumble-input 1\nview 1280 720\nF 1 %d\nkd pageup\nku pageup\nF 0\n' $FRAMES
  for i in 1 2 3 4 5 6 7 8; do printf 'kd left\nku left\nF 0\n'; done; } > "$TMP/step.rec"
"$BIN" --headless --frames $((FRAMES + 9)) --replay "$TMP/step.rec" --rewind-stats "$LEVEL" > "$TMP/step" 2> /dev/null
stats=$(grep '^rewind ' "$TMP/step")
awk -v s="$(field seek_ms)" -v n="$(field seeks)" 'BEGIN {
  printf "  one step back (Left): %.3f ms, a restore and up to 29 steps replayed (median of %d)\n", s, n }'
