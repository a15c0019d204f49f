#!/usr/bin/env bash
# The level author's kit, media: images drawn in world units and attached to
# bodies (rotated with them), sprite-sheet frames, image hot reload, sound
# calls headless, and the sandbox's folder rule for assets. Pictures are
# checked pixel by pixel in PNG screenshots (read back with png_probe).
. "$(dirname "$0")/drivers/tap.sh"

media="$TAP_TMP/level"
mkdir -p "$media/sub"
lua5.4 "$DRIVERS/media_assets.lua" "$media" || exit 1
cp "$TUMBLE_ROOT"/tests/playtest/levels/media/* "$media/"
cp "$media/red.png" "$media/sub/red.png"
cp "$media/red.png" "$TAP_TMP/outside.png"
cp "$media/tone.wav" "$TAP_TMP/outside.wav"
ln -s ../outside.png "$media/link.png"
mkfifo "$media/fifo.wav" "$media/fifo.png"
echo "plain text" > "$media/notes.txt"
# a WAV whose data chunk claims 2 GB of a 52-byte file (found by make fuzz:
# SDL's reader allocated what the header said before reading)
printf 'RIFF\x2c\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x40\x1f\x00\x00\x01\x00\x08\x00data\x00\x00\x00\x80\x80\x8c\x96\x8c\x80\x74\x6a\x74' \
	> "$media/claims.wav"

RUN=("$TUMBLE_BIN" --headless --size 640x480)

# holds DESC COMMAND...: a check run in this shell (for the pixel helpers)
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

# pixel FILE X Y -> "R G B"; is COLOUR FILE X Y: within 40 of a named colour
pixel() { "$PNG_PROBE" "$1" at "$2" "$3" | cut -d' ' -f1-3; }
is() {
  local want=$1 got
  got=$(pixel "$2" "$3" "$4")
  echo "# ($3, $4) is $got, want $want"
  case $want in
    red) want="255 0 0" ;; green) want="0 255 0" ;; blue) want="0 0 255" ;; yellow) want="255 255 0" ;;
  esac
  if [ "$want" = background ]; then
    # not one of the test colours
    for c in "255 0 0" "0 255 0" "0 0 255" "255 255 0"; do
      near "$got" "$c" && return 1
    done
    return 0
  fi
  near "$got" "$want"
}
# pixels FILE COLOUR X Y [COLOUR X Y ...]: every listed pixel has its colour
pixels() {
  local file=$1
  shift
  while [ $# -ge 3 ]; do
    is "$1" "$file" "$2" "$3" || return 1
    shift 3
  done
}
near() {
  local a b
  read -r -a a <<< "$1"
  read -r -a b <<< "$2"
  for i in 0 1 2; do
    local d=$(( a[i] - b[i] ))
    [ ${d#-} -le 40 ] || return 1
  done
}

# ---- sprites on bodies: world (x, y) is pixel (320 + 40 x, 240 - 40 y)
shot="$TAP_TMP/sprites.png"
check "a level with sprites on bodies renders a PNG screenshot" \
  "${RUN[@]}" --frames 70 --screenshot "$shot" "$media/sprites.lua"
check "the screenshot is a 640x480 PNG" bash -c "[ \"\$('$PNG_PROBE' '$shot')\" = '640 480' ]"
holds "angle 0: the red half on the left, the green half on the right" \
  pixels "$shot" red 140 160 green 180 160 background 160 128
holds "angle 90 degrees: local +x points up (green above, red below, nothing beside)" \
  pixels "$shot" green 320 140 red 320 180 background 352 160
holds "angle 45 degrees: green up-right, red down-left, nothing up-left" \
  pixels "$shot" green 497 143 red 463 177 background 463 143
holds "a moving, spinning body carries its sprite (2 m right, turned a quarter)" \
  pixels "$shot" green 240 340 red 240 380 background 160 360

# ---- sprite sheets
shot="$TAP_TMP/sheet.png"
check "a level drawing sprite-sheet frames runs (option errors are caught in it)" \
  "${RUN[@]}" --frames 25 --screenshot "$shot" "$media/sheet.lua"
holds "frames 1-4 drawn side by side are red, green, blue, yellow" \
  pixels "$shot" red 160 160 green 240 160 blue 320 160 yellow 400 160
holds "a sub-rectangle draws its pixels, a tint multiplies them" \
  pixels "$shot" yellow 160 280 red 480 280
holds "an animated sprite shows the frame its table names (frame 3 at step 25)" \
  pixels "$shot" blue 320 360
shot2="$TAP_TMP/sheet2.png"
"${RUN[@]}" --frames 15 --screenshot "$shot2" "$media/sheet.lua" > /dev/null 2>&1
holds "... and frame 2 at step 15" \
  pixels "$shot2" green 320 360

# JPEG
"$PNG_PROBE" "$media/sheet.png" jpeg "$media/sheet.jpg"
shot="$TAP_TMP/jpeg.png"
check "a JPEG sprite sheet loads (64x16, 4 frames)" \
  bash -c "'$TUMBLE_BIN' --headless --size 640x480 --frames 3 --screenshot '$shot' '$media/jpeg.lua' | grep -q '^jpeg 64x16, 4 frames$'"
holds "its frames draw red, green, blue, yellow" \
  pixels "$shot" red 160 160 green 240 160 blue 320 160 yellow 400 160

# ---- hot reload of an image file
cp "$media/red.png" "$media/swap.png"
shot="$TAP_TMP/before.png"
check "an image whose file turns to garbage keeps its picture (no error)" \
  "${RUN[@]}" --watch --watch-poll-ms 0 --frames 8 --screenshot "$shot" "$media/reload.lua"
holds "... still red at frame 8" \
  pixels "$shot" red 320 240
cp "$media/red.png" "$media/swap.png"
shot="$TAP_TMP/after.png"
"${RUN[@]}" --watch --watch-poll-ms 0 --frames 20 --screenshot "$shot" "$media/reload.lua" > "$TAP_TMP/reload.out" 2>&1
sed 's/^/# /' "$TAP_TMP/reload.out"
holds "the image reloads when its file changes: blue at frame 20" \
  pixels "$shot" blue 320 240
check "... once (img.reloads), and the host says so" \
  bash -c "grep -q '^reloads 1$' '$TAP_TMP/reload.out' && grep -q 'reloaded image swap.png' '$TAP_TMP/reload.out'"
cp "$media/red.png" "$media/swap.png"
shot="$TAP_TMP/nowatch.png"
"${RUN[@]}" --no-watch --frames 20 --screenshot "$shot" "$media/reload.lua" > /dev/null 2>&1
holds "without --watch the picture stays as loaded" \
  pixels "$shot" red 320 240

# ---- sound
check "sound calls in a headless playtest neither fail nor block (300 frames, WAV, OGG, beeps)" \
  bash -c "timeout 30 '$TUMBLE_BIN' --headless --frames 400 '$media/sound.lua' | grep -q 'sound calls ok'"
check "the same in real time (--realtime: the mixer's thread runs alongside)" \
  bash -c "SND_FRAMES=90 timeout 30 '$TUMBLE_BIN' --headless --realtime --frames 400 '$media/sound.lua' | grep -q 'sound calls ok'"
if command -v xvfb-run > /dev/null 2>&1; then
  check "in a window without an audio device: silent, no error" \
    bash -c "SND_FRAMES=90 SDL_AUDIODRIVER=alsa AUDIODEV=/nonexistent timeout 60 bash '$TUMBLE_ROOT/tests/xvfb_run.sh' -s '-screen 0 640x480x24' \
      '$TUMBLE_BIN' --frames 400 '$media/sound.lua' 2>&1 | grep -q 'sound calls ok'"
else
  TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - # skip xvfb-run is not installed"
fi

# ---- the sandbox
check "--sandbox: images and sounds from the level's folder load; outside it, links out and FIFOs are refused" \
  bash -c "timeout 30 '$TUMBLE_BIN' --headless --sandbox --frames 5 '$media/sandbox.lua' | grep -q 'sandboxed media ok'"
"$PNG_PROBE" blank 4096 4096 "$media/big.png"
check "--sandbox: images count against a memory budget; dropped ones are collected first" \
  bash -c "timeout 60 '$TUMBLE_BIN' --headless --sandbox --time-limit 50 --frames 5 '$media/budget.lua' | grep -q 'image budget ok'"
"$TUMBLE_BIN" --headless --frames 5 --screenshot "$TAP_TMP/x.jpg" > /dev/null 2> "$TAP_TMP/jpg.err"; rc=$?
sed 's/^/# /' "$TAP_TMP/jpg.err"
holds "--screenshot refuses an unknown extension clearly (exit 2, no file)" \
  test $rc -eq 2 -a ! -e "$TAP_TMP/x.jpg" -a -n "$(grep 'writes PNG (FILE.png) or BMP (FILE.bmp)' "$TAP_TMP/jpg.err")"
tap_done
