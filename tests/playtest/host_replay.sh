#!/usr/bin/env bash
# Host playtest: recorded input replays deterministically. A hand-written
# recording drives a fixture level headless: the callbacks and the polled
# edges fire at the expected frames with the expected world coordinates, two
# replays give the same world hash, a run without the input a different one,
# and re-recording the replay reproduces the file byte for byte.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
LEVEL="$ROOT/tests/playtest/levels/replay_level.lua"
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# Frames: 10 idle, right held for 30 steps, space tapped, a click at pixel
# (680, 200) = world (1, 9) with the level's camera (0, 5) at 40 px/m in a
# 1280x720 view, then F2 pauses for 5 frames (0 steps each) and F2 resumes.
cat > "$TMP/input.rec" <<'REC'
tumble-input 1
view 1280 720
F 1 10
kd right
F 1 30
ku right
kd space
F 1
ku space
md 1 680 200
F 1
mu 1 680 200
kd f2
F 0 5
ku f2
kd f2
F 1 100
REC

"$BIN" --headless --frames 147 --replay "$TMP/input.rec" --record "$TMP/again.rec" "$LEVEL" > "$TMP/a.out" 2> "$TMP/a.err"
rc=$?
check "replay run exits 0" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/a.err" | head -20
expected='keypressed right 10
keyreleased right 40
keypressed space 40
pressed space 40
keyreleased space 41
mousepressed left 1.000 9.000 41
released space 41
mouse_pressed 41 1.000 9.000'
got=$(grep -v '^frames=' "$TMP/a.out")
check "callbacks and polled edges fire at the recorded frames" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || echo "$got" | sed 's/^/# got: /'
check "paused frames run no steps (147 frames, 142 steps)" "grep -q '^frames=147 steps=142 bodies=3 ' '$TMP/a.out'"
check "re-recording a replay reproduces the recording" "cmp -s '$TMP/input.rec' '$TMP/again.rec'"

"$BIN" --headless --frames 147 --replay "$TMP/input.rec" "$LEVEL" > "$TMP/b.out" 2>&1
"$BIN" --headless --frames 147 "$LEVEL" > "$TMP/c.out" 2>&1
ha=$(sed -n 's/.*hash=//p' "$TMP/a.out"); hb=$(sed -n 's/.*hash=//p' "$TMP/b.out"); hc=$(sed -n 's/.*hash=//p' "$TMP/c.out")
check "two replays end with the same world hash ($ha)" '[ -n "$ha" ] && [ "$ha" = "$hb" ]'
check "without the input the hash differs ($hc)" '[ -n "$hc" ] && [ "$ha" != "$hc" ]'
check "without the input no ball is spawned" "grep -q ' bodies=2 ' '$TMP/c.out'"

# A replay that ends early: the run goes on without input.
head -n 5 "$TMP/input.rec" > "$TMP/short.rec"
"$BIN" --headless --frames 60 --replay "$TMP/short.rec" "$LEVEL" > "$TMP/d.out" 2>&1
check "a short recording then runs on without input" "grep -q '^frames=60 steps=60 ' '$TMP/d.out'"

printf 'not a recording\n' > "$TMP/bad.rec"
"$BIN" --headless --frames 10 --replay "$TMP/bad.rec" "$LEVEL" > /dev/null 2> "$TMP/e.err"; rc=$?
check "a file that is not a recording is refused" "[ $rc -ne 0 ] && grep -q 'not a tumble input recording' '$TMP/e.err'"
# Gamepad, wheel and mouse-move events replay into tumble.input and the
# level's callbacks too.
cat > "$TMP/pad.lua" <<'LUA'
local level = {}
function level.update(dt, world)
  local i = tumble.input
  if i.gamepad_pressed("a") then print(("pad a pressed %d"):format(tumble.frame)) end
  if i.gamepad() and tumble.frame == 3 then
    print(("pad %s %s leftx %.2f"):format(tostring(i.gamepad_down("a")), tostring(i.gamepad_down("b")), i.axis("leftx")))
    local wx, wy = i.wheel()
    print(("wheel %g %g"):format(wx, wy))
  end
end
function level.gamepadpressed(b) print("gamepadpressed " .. b) end
function level.gamepadaxis(a, v) print(("gamepadaxis %s %.2f"):format(a, v)) end
function level.wheelmoved(x, y) print(("wheelmoved %g %g"):format(x, y)) end
function level.mousemoved(x, y, dx, dy) print(("mousemoved %.2f %.2f %.2f %.2f"):format(x, y, dx, dy)) end
return level
LUA
cat > "$TMP/pad.rec" <<'REC'
tumble-input 1
view 1280 720
F 1 3
pc 1
pd a
pa leftx 0.5
mw 0 -2
mm 670 330 30 -30
F 1 3
REC
got=$("$BIN" --headless --frames 6 --replay "$TMP/pad.rec" "$TMP/pad.lua" 2>&1 | grep -v '^frames=')
expected='gamepadpressed a
gamepadaxis leftx 0.50
wheelmoved 0 -2
mousemoved 1.00 11.00 1.00 1.00
pad a pressed 3
pad true false leftx 0.50
wheel 0 -2'
check "gamepad, wheel and mouse motion replay into callbacks and polling" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || echo "$got" | sed 's/^/# got: /'

# A live run in a real window (steps paced by the wall clock) recorded and
# replayed headless ends in the same state.
if command -v xvfb-run > /dev/null 2>&1; then
  timeout 60 bash "$ROOT/tests/xvfb_run.sh" -s "-screen 0 1280x720x24" "$BIN" --frames 90 --record "$TMP/live.rec" --demo \
    > "$TMP/live.out" 2> "$TMP/live.err"; rc=$?
  timeout 60 "$BIN" --headless --frames 90 --replay "$TMP/live.rec" --demo > "$TMP/replay.out" 2>&1
  live=$(sed -n 's/ time=.*hash=/ /p' "$TMP/live.out"); replayed=$(sed -n 's/ time=.*hash=/ /p' "$TMP/replay.out")
  check "a live windowed run replays headless to the same steps and hash ($live)" \
    "[ $rc -eq 0 ] && [ -n '$live' ] && [ '$live' = '$replayed' ]"
  [ $rc -eq 0 ] || sed 's/^/# /' "$TMP/live.err" | head -5
else
  n=$((n + 1)); echo "ok $n - # skip xvfb-run is not installed"
fi
# A recording is untrusted input: what no live run could have written is
# refused with the line named and a non-zero status, at once (never a hang),
# and never reaches the level.
cat > "$TMP/probe.lua" <<'LUA'
local level = {}
function level.wheelmoved(x, y) print(("wheel %s %s"):format(x, y)) end
function level.gamepadaxis(a, v) print(("axis %s %s"):format(a, v)) end
function level.mousepressed(x, y) print(("press %s %s"):format(x, y)) end
return level
LUA
bad_case() { # DESCRIPTION LINE EXPECTED-MESSAGE
  printf 'tumble-input 1\nview 640 480\nF 1 2\n%s\nF 1 2\n' "$2" > "$TMP/bad_case.rec"
  timeout 10 "$BIN" --headless --frames 50 --replay "$TMP/bad_case.rec" "$TMP/probe.lua" > "$TMP/bad_case.out" 2>&1
  local rc=$?
  check "$1: refused with status 2, the line named, the level untouched" \
    "[ $rc -eq 2 ] && grep -qF \"$3\" '$TMP/bad_case.out' && ! grep -qE '^(wheel|axis|press) ' '$TMP/bad_case.out'"
  [ $rc -eq 2 ] || sed 's/^/# /' "$TMP/bad_case.out" | head -5
}
bad_case "F 2000000000 (steps a frame never runs)" "F 2000000000" \
  "replay line 4 not understood: F 2000000000 (a frame runs 0..4 steps)"
bad_case "a negative step count" "F -1" "replay line 4 not understood: F -1"
bad_case "a NaN wheel" "mw nan 1" "replay line 4 not understood: mw nan 1"
bad_case "an infinite wheel" "mw 0 inf" "replay line 4 not understood: mw 0 inf"
bad_case "a hex-float wheel" "mw 0x1p9 0" "replay line 4 not understood: mw 0x1p9 0"
bad_case "a NaN gamepad axis" "pa leftx nan" "replay line 4 not understood: pa leftx nan"
bad_case "a gamepad axis past 1" "pa leftx 1e30" "replay line 4 not understood: pa leftx 1e30"
bad_case "a mouse position past any screen" "md 1 99999999999 0" "replay line 4 not understood: md 1 99999999999 0"
bad_case "a mouse button that does not exist" "md 9 10 10" "replay line 4 not understood: md 9 10 10"
bad_case "a view change past the size limit" "vw 100000 100000" "replay line 4 not understood: vw 100000 100000"
long=$(head -c 400 /dev/zero | tr '\0' 'a')
bad_case "a line too long" "kd $long" "replay line 4 not understood: kd aaaa"
printf 'tumble-input 1\nview 100000 100000\nF 1\n' > "$TMP/view.rec"
timeout 10 "$BIN" --headless --frames 5 --replay "$TMP/view.rec" --screenshot "$TMP/view.png" "$TMP/probe.lua" \
  > "$TMP/view.out" 2>&1; rc=$?
check "a view size past 8192 is refused before the run (status 2), not a silently failed screenshot" \
  "[ $rc -eq 2 ] && grep -q 'view W H with sizes in 1..8192, at most 16777216 pixels, expected' '$TMP/view.out' && [ ! -e '$TMP/view.png' ]"
printf 'tumble-input 1\nview 640 480\nF 1\nmw 0.5 -1.25\npa leftx -0.5\nF 1 3\n' > "$TMP/good.rec"
got=$(timeout 10 "$BIN" --headless --frames 4 --replay "$TMP/good.rec" "$TMP/probe.lua" 2>&1 | grep -E '^(wheel|axis)')
check "finite values in range still replay" '[ "$got" = "$(printf "wheel 0.5 -1.25\naxis leftx -0.5")" ]'
echo "1..$n"
