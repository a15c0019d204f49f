#!/usr/bin/env bash
# The level author's kit, window and configuration: level.conf (title, size,
# camera, draw layers; refused when wrong), level.resize, level.textinput
# (live in a window and through --record / --replay), F11 fullscreen, and
# --screenshot's offscreen fallback without a display.
. "$(dirname "$0")/drivers/tap.sh"

LEVEL="$TUMBLE_ROOT/tests/playtest/levels/window_level.lua"
out="$TAP_TMP/out"
shot="$TAP_TMP/conf.png"

# ---- headless
check "a level with a conf runs headless" \
  bash -c "'$TUMBLE_BIN' --headless --frames 100 --screenshot '$shot' '$LEVEL' > '$out'"
check "the camera comes from level.conf before load" grep -q "^load camera 1 2 25$" "$out"
check "the view takes the conf's size, and level.resize hears of it" grep -q "^resize 800 500 (gfx 800 500)$" "$out"
check "the screenshot is 800x500" bash -c "[ \"\$('$PNG_PROBE' '$shot')\" = '800 500' ]"
# the box (4 x 2 m at the camera's centre, 25 px/m) spans pixels 350..450 x 225..275
check "conf.layers: the shapes layer is off (the box's centre is background)" \
  bash -c "[ \"\$('$PNG_PROBE' '$shot' count 380 240 420 260 126 178 126 30)\" = 0 ]"
check "conf.layers: the AABB layer is on (its outline is drawn round the box)" \
  bash -c "[ \"\$('$PNG_PROBE' '$shot' count 340 215 460 285 215 100 215 10)\" -gt 150 ]"
"$TUMBLE_BIN" --headless --frames 100 --size 640x480 --screenshot "$shot" "$LEVEL" > "$out" 2>&1
check "--size wins over the conf (640x480, no resize)" \
  bash -c "[ \"\$('$PNG_PROBE' '$shot')\" = '640 480' ] && ! grep -q '^resize' '$out'"
KW_CONF=bad_width "$TUMBLE_BIN" --headless --frames 10 "$LEVEL" > "$out" 2>&1; rc=$?
sed 's/^/# /' "$out"
check "a bad conf value is a clear error (exit 1)" \
  bash -c "[ $rc -eq 1 ] && grep -q 'level.conf.width: number in \[64, 8192\] expected, got 10' '$out'"
KW_CONF=typo "$TUMBLE_BIN" --headless --frames 10 "$LEVEL" > "$out" 2>&1; rc=$?
check "an unknown conf key is an error that names it" \
  bash -c "[ $rc -eq 1 ] && grep -q \"level.conf: unknown key 'titel' (valid keys: title, width\" '$out'"

# text input through a replay, and recorded again
printf 'tumble-input 1\nview 800 500\ntx 68c3a920776f726c64\nF 1\nF 1 30\n' > "$TAP_TMP/text.replay"
check "level.textinput gets replayed text (UTF-8, spaces)" \
  bash -c "'$TUMBLE_BIN' --headless --frames 40 --replay '$TAP_TMP/text.replay' --record '$TAP_TMP/again.replay' '$LEVEL' > '$out' && grep -q '^text hé world$' '$out'"
check "... and --record writes it back the same" grep -q "^tx 68c3a920776f726c64$" "$TAP_TMP/again.replay"
printf 'tumble-input 1\ntx 6g\nF 1\n' > "$TAP_TMP/bad.replay"
check "a malformed text line in a replay is reported, not run" \
  bash -c "'$TUMBLE_BIN' --headless --frames 5 --replay '$TAP_TMP/bad.replay' '$LEVEL' 2>&1 | grep -q 'replay line 2 not understood: tx 6g'"

# ---- the dev overlay leaves the level's text readable
OV="$TUMBLE_ROOT/tests/playtest/levels/overlay_level.lua"
"$TUMBLE_BIN" --headless --frames 5 --screenshot "$TAP_TMP/plain.png" "$OV" > /dev/null 2>&1
"$TUMBLE_BIN" --headless --frames 5 --overlay --screenshot "$TAP_TMP/overlay.png" "$OV" > /dev/null 2>&1
plain=$("$PNG_PROBE" "$TAP_TMP/plain.png" count 0 0 1279 719 255 0 255 60)
with=$("$PNG_PROBE" "$TAP_TMP/overlay.png" count 0 0 1279 719 255 0 255 60)
# the overlay's own accent colour (its titles), to know it was drawn
accent=$("$PNG_PROBE" "$TAP_TMP/overlay.png" count 0 0 1279 719 255 200 90 30)
echo "# level text pixels: $plain without the overlay, $with with it; overlay titles: $accent"
check "the overlay is drawn" test "$accent" -gt 200
check "with the overlay open, the level's text is all still visible (top left, top right, bottom)" \
  test "$with" -ge $((plain * 98 / 100)) -a "$plain" -gt 1000

# ---- no display at all: --screenshot renders offscreen instead of failing
env -u DISPLAY -u WAYLAND_DISPLAY "$TUMBLE_BIN" --frames 30 --screenshot "$TAP_TMP/nodisplay.png" "$LEVEL" \
  > "$out" 2>&1; rc=$?
sed 's/^/# /' "$out"
check "without a display and without --headless, --screenshot falls back to offscreen" \
  bash -c "[ $rc -eq 0 ] && [ \"\$('$PNG_PROBE' '$TAP_TMP/nodisplay.png')\" = '800 500' ] && grep -q 'no display' '$out'"
env -u DISPLAY -u WAYLAND_DISPLAY timeout 20 "$TUMBLE_BIN" "$LEVEL" > "$out" 2>&1; rc=$?
check "without a display, a plain run still says how to run it (exit 2)" \
  bash -c "[ $rc -eq 2 ] && grep -q 'use --headless, or xvfb-run' '$out'"

# ---- a real window under Xvfb, driven by xdotool
if command -v xvfb-run > /dev/null 2>&1 && command -v xdotool > /dev/null 2>&1; then
  cat > "$TAP_TMP/window.sh" <<SH
KW_FRAMES=400 "$TUMBLE_BIN" --frames 600 "$LEVEL" > "$TAP_TMP/win.out" 2>&1 &
pid=\$!
id=\$(timeout 20 xdotool search --sync --name "^kit window test\$" | head -1)
[ -n "\$id" ] && echo "window titled 'kit window test'" >> "$TAP_TMP/win.log"
xdotool getwindowgeometry "\$id" | grep -q 'Geometry: 800x500' && echo "window 800x500" >> "$TAP_TMP/win.log"
sleep 0.3
xdotool windowfocus --sync "\$id"
xdotool type --delay 30 "ok"
xdotool key F11
wait \$pid
echo "exit \$?" >> "$TAP_TMP/win.log"
SH
  timeout 90 bash "$TUMBLE_ROOT/tests/xvfb_run.sh" -s "-screen 0 1280x720x24" bash "$TAP_TMP/window.sh" > /dev/null 2>&1
  sed 's/^/# /' "$TAP_TMP/win.log" "$TAP_TMP/win.out" 2> /dev/null
  check "the window takes the conf's title" grep -q "window titled" "$TAP_TMP/win.log"
  check "the window takes the conf's size (800x500) and the level hears it" \
    bash -c "grep -q 'window 800x500' '$TAP_TMP/win.log' && grep -q '^resize 800 500' '$TAP_TMP/win.out'"
  check "typed text reaches level.textinput" bash -c "grep -q '^text o$' '$TAP_TMP/win.out' && grep -q '^text k$' '$TAP_TMP/win.out'"
  check "F11 goes fullscreen: the view becomes the screen (1280x720)" grep -q "^resize 1280 720 (gfx 1280 720)$" "$TAP_TMP/win.out"
  check "the windowed run ends cleanly" grep -q "^exit 0$" "$TAP_TMP/win.log"
else
  TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - # skip xvfb-run or xdotool is not installed"
fi
tap_done
