#!/usr/bin/env bash
# Host playtest: drawing beyond shapes. A fixture level (levels/draw_level.lua)
# uses the transform stack, line width, blend modes, the background colour,
# screen-space shapes, canvases (drawn into in load and in draw), a sprite
# batch, particles and fonts; the PNG screenshot must have each one's colour
# at the pixels it maps to, and what the level printed (counts, text sizes in
# the bundled DejaVu Sans) must be exact.
. "$(dirname "$0")/drivers/tap.sh"

shot="$TAP_TMP/draw.png"
out="$TAP_TMP/draw.out"
timeout 120 "$TUMBLE_BIN" --headless --frames 2 --screenshot "$shot" tests/playtest/levels/draw_level.lua > "$out" 2>&1
rc=$?
sed 's/^/# /' "$out" | head -40

holds() {
  local desc=$1
  shift
  TAP_N=$((TAP_N + 1))
  if "$@"; then
    echo "ok $TAP_N - $desc"
  else
    echo "not ok $TAP_N - $desc"
    TAP_FAILED=$((TAP_FAILED + 1))
  fi
}
# px X Y...: "R,G,B" of each pixel
px() {
  local o=()
  while [ $# -ge 2 ]; do
    o+=("$("$PNG_PROBE" "$shot" at "$1" "$2" | awk '{ print $1 "," $2 "," $3 }')")
    shift 2
  done
  echo "${o[*]}"
}
said() { grep -qx -- "$1" "$out"; }
BG=51,26,77

holds "the draw level runs and writes its screenshot" [ $rc -eq 0 -a -s "$shot" ]
holds "gfx.background set in load is what the frame is cleared to" [ "$(px 20 700 620 20)" = "$BG $BG" ]
# (probes keep off the 1 m grid lines, every 40 px through pixel (640, 360))
# translate(-10, 5), rotate(pi/4), a 2 x 1 rectangle at the origin: along its
# long axis (45 degrees) it is red, across it, 0.85 m out, it is not
holds "translate + rotate: the rectangle's centre and its rotated long axis are red" \
  [ "$(px 240 160 264 136 216 184)" = "255,0,0 255,0,0 255,0,0" ]
holds "translate + rotate: across the rotated rectangle, past its half width, is background" \
  [ "$(px 264 184 216 136)" = "$BG $BG" ]
holds "gfx.pop puts the camera's space back (green square at world (-6, 5))" \
  [ "$(px 390 150 410 170 375 165)" = "0,255,0 0,255,0 $BG" ]
holds "scale(2, 1) makes the unit circle an ellipse 160 x 80 px" \
  [ "$(px 630 160 490 160 560 125 560 195)" = "0,0,255 0,0,255 0,0,255 0,0,255" ]
holds "... and not 160 px tall" [ "$(px 565 110 565 210)" = "$BG $BG" ]
holds "gfx.origin: a rectangle centred on pixel (1000, 100), 40 x 20" \
  [ "$(px 985 95 1015 105 1005 115 1025 100)" = "255,255,0 255,255,0 $BG $BG" ]
holds "gfx.transform_point(1, 1) under the camera is pixel (680, 320)" said "transform_point 680.0 320.0"
holds "line_width(9): the line covers rows 157..163 around 160, not 153 or 167" \
  [ "$(px 810 157 810 163 810 167 810 153)" = "255,0,255 255,0,255 $BG $BG" ]
holds "line_width returns the width before" said "line width before 1.0"
holds "blend_mode('add'): green added onto red is yellow" [ "$(px 240 480 210 450)" = "255,255,0 255,255,0" ]
holds "blend_mode returns the mode before" said "blend before alpha"
holds "a canvas drawn into in load, read back with canvas:pixel" said "canvas 64 64 1 1 1 1 0 0 1 1"
holds "the canvas drawn as a 2 m picture: its white quarter top-right, blue elsewhere" \
  [ "$(px 820 500 780 540 820 540 780 500 750 525)" = "255,255,255 0,0,255 0,0,255 0,0,255 $BG" ]
holds "a canvas drawn into inside draw, then drawn (green, 40 px)" \
  [ "$(px 965 525 945 505 975 535 935 525)" = "0,255,0 0,255,0 0,255,0 $BG" ]
holds "a batch of ten sprites: each a 20 px orange square" \
  [ "$(px 85 645 445 635 75 635 100 645 125 645)" = "255,128,0 255,128,0 255,128,0 $BG 255,128,0" ]
holds "the batch counts its sprites" said "batch 10 100"
holds "particles: emit stops at max, update keeps the living" \
  bash -c "grep -qx 'emitted 50 50' '$out' && grep -qx 'after update 50' '$out'"
holds "particles past their life are gone; rate 100/s emits 50 in 0.5 s, then stops at max" \
  bash -c "grep -qx 'short-lived 0' '$out' && grep -qx 'rate 50 80' '$out'"
holds "particles drawn: a 20 px cyan square at world (12, -7)" [ "$(px 1125 645 1112 632 1135 645)" = "0,255,255 0,255,255 $BG" ]
holds "particles of an image: the orange picture, 40 px, at world (12, -4)" \
  [ "$(px 1105 505 1135 535 1145 525)" = "255,128,0 255,128,0 $BG" ]
# sizes of the bundled DejaVu Sans 2.37 as SDL2_ttf measures them
holds "text_size: default scale 2 (20 px) of 'Hello' is 51 x 24" said "size default 51 24"
holds "text_size at scale 1 (10 px) of 'Newton's cradle' is 79 x 12" said "size scale 1 79 12"
holds "text_size of two lines is two line heights tall" said "size two lines 6 24"
holds "gfx.font(24): size 24, 'Hello' 62 x 28" said "font 24 24 62 28"
holds "set_font(font) makes text_size measure in it, at scale 1" said "size with font 24 62 28"
holds "UTF-8: 'é' is one glyph as wide as 'e', three are three times as wide" said "utf8 6 6 18"
holds "text in a 40 px font: the H's left stem starts 4 px right of x" \
  [ "$(px 1105 45 1105 55 1101 45)" = "255,255,255 255,255,255 $BG" ]
# a rewind keeps drawing objects in level.state as they are: 30 steps are
# dropped (n counts the steps lived), and the objects are still there
printf '%s\n' 'tumble-input 1' 'view 640 480' 'F 1 120' 'kd pageup' 'ku pageup' 'F 1' 'kd f2' 'ku f2' 'F 1 200' \
  > "$TAP_TMP/rewind.rec"
rw=$(timeout 120 "$TUMBLE_BIN" --headless --frames 600 --replay "$TAP_TMP/rewind.rec" \
  tests/playtest/levels/draw_rewind_level.lua 2>&1)
echo "$rw" | sed 's/^/# /'
holds "a Canvas, Font, SpriteBatch and Particles in level.state do not stop a rewind, and come back as they were" \
  grep -q "after the rewind: n=170 Canvas(8x8) Font(DejaVu Sans 12 px) SpriteBatch(0 of 4) Particles(0 of 10)" <<< "$rw"
tap_done
