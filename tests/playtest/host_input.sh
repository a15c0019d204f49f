#!/usr/bin/env bash
# Host playtest: what a level asks of the keyboard, the pointer and the frame,
# driven by replayed recordings (they go through the same event handler as
# live input). level.conf's claim_keys, host_keys and dev_keys route keys to
# the level or the host; keys carry their scancode and, when the level asks,
# the auto-repeat; touch reaches the level in world and screen terms; the
# pointer's wishes are the level's state; level.frame runs once per drawn
# frame and changes nothing of the simulation; --record keeps all of it.
. "$(dirname "$0")/drivers/tap.sh"

LEVEL="$TUMBLE_ROOT/tests/playtest/levels/input_level.lua"
T=$TAP_TMP
run() { "$TUMBLE_BIN" --headless --frames 100 "$@" "$LEVEL"; }
HEAD=$'tumble-input 1\nview 1280 720'

# ---- claimed, remapped and switched-off host keys. Each recording ends early:
# the clock runs the rest, so a pause shows as steps that stop.
{ echo "$HEAD"; printf '%s\n' 'F 1 5' 'kd f1' 'ku f1' 'kd f2' 'ku f2' 'F 1' 'kd f5' 'ku f5' 'F 1 3' 'kd p' 'ku p' \
  'F 1 2'; } > "$T/keys.rec"
{ echo "$HEAD"; printf '%s\n' 'F 1 5' 'kd escape' 'ku escape' 'F 1 2'; } > "$T/esc.rec"
IN_CONF=claim run --replay "$T/keys.rec" > "$T/claim.out" 2> "$T/claim.err"
check "claimed keys reach the level (f2, f5), an unclaimed one does not (f1 opens the overlay)" \
  bash -c "grep -q '^keypressed f2 f2 false at frame 5$' '$T/claim.out' && grep -q '^keypressed f5 f5 false at frame 6$' '$T/claim.out' && ! grep -q '^keypressed f1' '$T/claim.out'"
check "... and the host's actions for them do not fire: no restart, no pause (the level ends itself at 60)" \
  bash -c "! grep -q restarted '$T/claim.err' && grep -q '^done frame() ' '$T/claim.out' && grep -q ' steps=61 ' '$T/claim.out'"
IN_CONF=claim run --replay "$T/esc.rec" > "$T/claim_esc.out"
check "a claimed escape is the level's and does not quit" \
  bash -c "grep -q '^keypressed escape escape false at frame 5$' '$T/claim_esc.out' && grep -q '^done' '$T/claim_esc.out'"
IN_CONF=none run --replay "$T/keys.rec" > "$T/none.out" 2> "$T/none.err"
check "without a conf the host keeps its keys: f1, f2, f5 never reach the level, f5 restarts" \
  bash -c "grep -q restarted '$T/none.err' && ! grep -q '^keypressed \(f1\|f2\|f5\)' '$T/none.out'"
IN_CONF=none run --replay "$T/esc.rec" > "$T/none_esc.out"
check "... and escape quits" bash -c "! grep -q '^keypressed escape' '$T/none_esc.out' && grep -q '^frames=6 ' '$T/none_esc.out'"
IN_CONF=remap run --replay "$T/keys.rec" > "$T/remap.out" 2> "$T/remap.err"
check "host_keys: pause moved to p, the overlay unbound (f1, f2 reach the level)" \
  bash -c "grep -q '^keypressed f1 f1 false at frame 5$' '$T/remap.out' && grep -q '^keypressed f2 f2 false at frame 5$' '$T/remap.out'"
check "host_keys: restart stays on f5, p pauses (steps stop at 3 + 2 after the restart)" \
  bash -c "grep -q restarted '$T/remap.err' && ! grep -q '^keypressed p' '$T/remap.out' && grep -q ' steps=5 ' '$T/remap.out'"
IN_CONF=nodev run --replay "$T/keys.rec" > "$T/nodev.out" 2> "$T/nodev.err"
check "dev_keys = false: every developer key reaches the level (f1, f2, f5, p) and none acts" \
  bash -c "[ \$(grep -c '^keypressed \(f1\|f2\|f5\|p\) ' '$T/nodev.out') -eq 4 ] && ! grep -q restarted '$T/nodev.err' && grep -q '^done' '$T/nodev.out'"
IN_CONF=nodev run --replay "$T/esc.rec" > "$T/nodev_esc.out"
check "dev_keys = false: escape, unclaimed, still quits" \
  bash -c "! grep -q '^keypressed escape' '$T/nodev_esc.out' && grep -q '^frames=6 ' '$T/nodev_esc.out'"
{ echo "$HEAD"; printf '%s\n' 'F 1 10' 'kd escape' 'ku escape' 'F 1 2'; } > "$T/err_esc.rec"
IN_CONF=claim IN_ERROR=1 "$TUMBLE_BIN" --headless --watch --frames 100 --replay "$T/err_esc.rec" "$LEVEL" \
  > "$T/err_esc.out" 2>&1
check "while the level is halted by an error its claims are lifted: escape quits again" \
  bash -c "grep -q 'the level fails at frame 5' '$T/err_esc.out' && grep -q '^frames=11 steps=5 ' '$T/err_esc.out'"

# the corner's hint names the overlay's key only while it has one
IN_CONF=claim run --frames 10 --screenshot "$T/hint_dev.png" > /dev/null
IN_CONF=nodev run --frames 10 --screenshot "$T/hint_nodev.png" > /dev/null
bg=$("$PNG_PROBE" "$T/hint_nodev.png" at 1279 719 | cut -d' ' -f1-3)
c_dev=$("$PNG_PROBE" "$T/hint_dev.png" count 980 670 1279 719 $bg 0)
c_nodev=$("$PNG_PROBE" "$T/hint_nodev.png" count 980 670 1279 719 $bg 0)
d=$("$PNG_PROBE" "$T/hint_dev.png" diff "$T/hint_nodev.png")
check "dev_keys = false: no 'F1 dev overlay' hint in the corner (background pixels $c_dev -> $c_nodev, $d differ)" \
  bash -c "[ -n '$c_dev' ] && [ '$c_dev' -lt '$c_nodev' ] && [ '$d' -gt 0 ]"

# ---- scancodes and the auto-repeat, recorded and replayed
{ echo "$HEAD"; printf '%s\n' 'F 1 5' 'ksd 20 a' 'F 1' 'ksr 20 a' 'ksr 20 a' 'F 1' 'ksu 20 a' 'kd b' 'F 1' 'ku b' \
  'F 1 60'; } > "$T/rep.rec"
run --replay "$T/rep.rec" --record "$T/rep_off.rec" > "$T/rep_off.out"
check "a key carries its scancode (a where q is: an AZERTY keyboard), an old recording's key its own name" \
  bash -c "grep -q '^keypressed a q false at frame 5$' '$T/rep_off.out' && grep -q '^keyreleased a q at frame 7$' '$T/rep_off.out' && grep -q '^keypressed b b false at frame 7$' '$T/rep_off.out'"
check "without set_key_repeat the auto-repeat does not reach keypressed, nor the recording" \
  bash -c "[ \$(grep -c '^keypressed a' '$T/rep_off.out') -eq 1 ] && ! grep -q '^ksr' '$T/rep_off.rec' && grep -q '^ksd 20 a$' '$T/rep_off.rec'"
IN_REPEAT=1 run --replay "$T/rep.rec" --record "$T/rep_on.rec" > "$T/rep_on.out"
check "with tumble.input.set_key_repeat(true) each repeat is a keypressed with isrepeat true" \
  bash -c "grep -q '^key_repeat true$' '$T/rep_on.out' && [ \$(grep -c '^keypressed a q true at frame 6$' '$T/rep_on.out') -eq 2 ]"
IN_REPEAT=1 run --replay "$T/rep_on.rec" > "$T/rep_on2.out"
check "the recording keeps the repeats and the scancodes: its replay prints the same and ends on the same hash" \
  bash -c "grep -c '^ksr 20 a$' '$T/rep_on.rec' | grep -qx 2 && diff <(sed 's/time=[^ ]*//' '$T/rep_on.out') <(sed 's/time=[^ ]*//' '$T/rep_on2.out')"

# ---- touch and the pointer
{ echo "$HEAD"; printf '%s\n' 'F 1 5' 'td 7 640 360' 'F 1' 'tm 7 680 320 40 -40' 'F 1' 'tu 7 680 320' 'kd v' 'ku v' \
  'kd g' 'ku g' 'F 1 60'; } > "$T/touch.rec"
run --replay "$T/touch.rec" --record "$T/touch2.rec" > "$T/touch.out"
check "touchpressed/moved/released: id, world x y (y up), world dx dy, then pixels" \
  bash -c "grep -q '^touchpressed 7 0.00 0.00 0.00 0.00 640 360$' '$T/touch.out' && grep -q '^touchmoved 7 1.00 1.00 1.00 1.00 680 320$' '$T/touch.out' && grep -q '^touchreleased 7 1.00 1.00 0.00 0.00 680 320$' '$T/touch.out'"
check "touch is recorded as it came" bash -c "grep -q '^tm 7 680 320 40 -40$' '$T/touch2.rec'"
check "tumble.input.set_mouse_visible / set_mouse_grabbed: the level's wishes read back" \
  bash -c "grep -q '^mouse visible false grabbed false$' '$T/touch.out' && grep -q '^mouse visible false grabbed true$' '$T/touch.out'"

# ---- level.frame
{ echo "$HEAD"; printf '%s\n' 'F 1 10' 'F 0 10' 'F 1 10' 'kd f2' 'ku f2' 'F 0 5' 'kd f2' 'ku f2' 'F 1 40'; } > "$T/frame.rec"
IN_CONF=none IN_FRAMES=25 run --replay "$T/frame.rec" > "$T/frame.out"
check "level.frame runs once per drawn frame (steps or none), not while paused, dt 1/60 headless" \
  bash -c "grep -q '^done frame() 35 times, dt 0.5833$' '$T/frame.out'"
{ echo "$HEAD"; printf '%s\n' 'F 1 60' 'kd pageup' 'ku pageup' 'F 0 10' 'kd end' 'ku end' 'kd f2' 'ku f2' 'F 1 20'; } \
  > "$T/review.rec"
IN_CONF=none IN_FRAMES=70 run --replay "$T/review.rec" > "$T/review.out"
check "level.frame does not run while an earlier moment is shown nor while the timeline replays steps to it" \
  bash -c "grep -q '^done frame() 70 times' '$T/review.out'"
IN_CONF=none IN_FRAMES=25 IN_FRAME=off run --replay "$T/frame.rec" > "$T/noframe.out"
h1=$(sed -n 's/.*hash=//p' "$T/frame.out"); h2=$(sed -n 's/.*hash=//p' "$T/noframe.out")
check "level.frame changes nothing of the simulation: the same hash without it ($h1 = $h2)" \
  bash -c "[ -n '$h1' ] && [ '$h1' = '$h2' ]"
IN_FRAME=spin "$TUMBLE_BIN" --headless --frames 100 --time-limit 0.5 "$LEVEL" > "$T/spin.out" 2>&1; rc=$?
check "level.frame is held to the time limit like every callback" \
  bash -c "[ $rc -eq 1 ] && grep -q 'time limit exceeded in frame' '$T/spin.out'"

# ---- closing the window always quits, whatever the level claims
{ echo "$HEAD"; printf '%s\n' 'F 1 5' 'quit' 'F 1 5'; } > "$T/quit.rec"
IN_CONF=claim run --replay "$T/quit.rec" > "$T/quit.out"
check "a claimed escape does not keep the window open: closing it quits" \
  bash -c "grep -q '^frames=6 ' '$T/quit.out' && ! grep -q '^done' '$T/quit.out'"

# ---- a real window under Xvfb, driven by xdotool: SDL's own key repeat and
# the pointer's grab (X confines the pointer to the window)
if command -v xvfb-run > /dev/null 2>&1 && command -v xdotool > /dev/null 2>&1; then
  cat > "$T/window.sh" <<SH
IN_SMALL=1 IN_REPEAT=1 IN_FRAMES=1000000 "$TUMBLE_BIN" --frames 3600 "$LEVEL" > "$T/win.out" 2>&1 &
pid=\$!
id=\$(timeout 20 xdotool search --sync --name "^input test\$" | head -1)
sleep 0.3
xdotool windowfocus --sync "\$id"
xdotool key Escape
xdotool keydown a; sleep 1.5; xdotool keyup a
xdotool key g; sleep 0.5
xdotool mousemove --window "\$id" 100 100; sleep 0.2
xdotool mousemove 1200 700; sleep 0.2; xdotool getmouselocation >> "$T/win.log"
xdotool key g; sleep 0.5
xdotool mousemove 1200 700; sleep 0.2; xdotool getmouselocation >> "$T/win.log"
xdotool key x
wait \$pid
echo "exit \$?" >> "$T/win.log"
SH
  timeout 90 bash "$TUMBLE_ROOT/tests/xvfb_run.sh" -s "-screen 0 1280x720x24" bash "$T/window.sh" > /dev/null 2>&1
  sed 's/^/# /' "$T/win.log" 2> /dev/null
  check "in a window a claimed escape reaches the level with its scancode" \
    grep -q '^keypressed escape escape false' "$T/win.out"
  check "holding a key gives keypressed with isrepeat true (SDL's auto-repeat), then one keyreleased" \
    bash -c "grep -q '^keypressed a a false' '$T/win.out' && grep -q '^keypressed a a true' '$T/win.out' && [ \$(grep -c '^keyreleased a a' '$T/win.out') -eq 1 ]"
  check "set_mouse_grabbed(true) keeps the pointer in the 640x360 window, false lets it go" \
    bash -c "head -1 '$T/win.log' | grep -q '^x:639 y:359 ' && sed -n 2p '$T/win.log' | grep -q '^x:1200 y:700 '"
  check "the windowed run ends cleanly" grep -q "^exit 0$" "$T/win.log"
else
  TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - # skip xvfb-run or xdotool is not installed"
fi

tap_done
