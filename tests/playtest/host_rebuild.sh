#!/usr/bin/env bash
# Host playtest: structural hot reload. A copy of rebuild_level.lua runs
# headless with the host watching its files every frame and a recording
# walking its hero right; the level edits its own file at frame 150 the way
# an author saving would.
#  - An edit to what load() builds (the platform's width) rebuilds: the new
#    code runs from the level's start and the recorded input replays up to
#    now. The hero, who had walked off the old platform's edge and fallen,
#    stands where the input took him, on the new, wider platform; the run
#    then ends exactly as a run of the edited file from the start does.
#  - An edit to functions only swaps them in: the world is kept and the run
#    ends as a run without the edit does.
#  - A reload that fails leaves none of the globals the broken file set (nor
#    the module it required); the fixed file's globals are committed.
#  - Every save gives one message, a save written in two goes too.
#  - A rebuild that would take too long restarts instead, and says so.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
near() { awk -v a="$1" -v b="$2" -v e="$3" 'BEGIN { d = a - b; exit !(a != "" && d < e && -d < e) }'; }
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a < b) }'; }
line() { grep "^frame $1 " "$2"; }
field() { line "$1" "$2" | awk -v i="$3" '{ print $i }'; } # frame F hero X Y platform W crate C G: fields 1..10

# right held from frame 10 for 120 steps (3 m/s: from x = -2 to 4), then still
cat > "$TMP/walk.rec" <<'REC'
tumble-input 1
view 1280 720
F 1 10
kd right
F 1 120
ku right
F 1 100
REC
echo 'LEAKED3 = "module"; return {}' > "$TMP/leak_mod.lua"

# run EDIT NAME: a fresh copy of the level edited while it runs
run() {
  mkdir -p "$TMP/$2"
  cp "$ROOT/tests/playtest/levels/rebuild_level.lua" "$TMP/$2/level.lua"
  cp "$TMP/leak_mod.lua" "$TMP/$2/"
  REBUILD_EDIT=$1 REBUILD_FILE="$TMP/$2/level.lua" timeout 60 "$BIN" --headless --frames 200 --watch \
    --watch-poll-ms 0 --replay "$TMP/walk.rec" "$TMP/$2/level.lua" > "$TMP/$2.out" 2> "$TMP/$2.err"
}
messages() { grep -cE "^tumble: (load\(\) changed|functions changed|fixed|reload failed)" "$TMP/$1.err"; }
hash() { sed -n 's/.*hash=//p' "$1"; }

# ---- load() changed: rebuilt
run width width; rc=$?
check "the width edit run exits 0" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/width.err" | head -20
y=$(field 150 "$TMP/width.out" 5)
check "before the edit the hero had walked off the 6 m platform and was falling (y $y)" \
  "[ \"\$(field 150 '$TMP/width.out' 7)\" = 6 ] && below '$y' -0.5"
check "one message for the save: load() changed, rebuilt, frames replayed" \
  "[ \$(messages width) -eq 1 ] && grep -qE '^tumble: load\(\) changed: rebuilt, replayed 15[12] frames in [0-9.]+ m?s$' '$TMP/width.err'"
check "tumble.replaying was true while the frames were replayed, then false" \
  "grep -qE '^replayed 15[12] steps, live again at frame 15[23]$' '$TMP/width.out'"
# the edited file, from its start, with the same input
timeout 60 "$BIN" --headless --frames 200 --replay "$TMP/walk.rec" "$TMP/width/level.lua" > "$TMP/ref.out" 2>&1
x=$(field 160 "$TMP/width.out" 4); y=$(field 160 "$TMP/width.out" 5); rx=$(field 160 "$TMP/ref.out" 4)
check "after the rebuild the hero stands on the new 10 m platform where the input took him ($x, $y)" \
  "[ \"\$(field 160 '$TMP/width.out' 7)\" = 10 ] && near '$x' 3.8 0.1 && near '$y' 0.5 0.02 && [ '$x' = '$rx' ]"
check "... and is still there at the end" \
  "near \"\$(field 190 '$TMP/width.out' 4)\" 3.8 0.1 && near \"\$(field 190 '$TMP/width.out' 5)\" 0.5 0.02"
check "math.random is seeded at every start: the crate's place is the same after the rebuild" \
  "[ \"\$(field 140 '$TMP/width.out' 9)\" = \"\$(field 160 '$TMP/width.out' 9)\" ]"
check "the frame count goes on (200 frames, 200 steps)" "grep -q '^frames=200 steps=200 ' '$TMP/width.out'"
hw=$(hash "$TMP/width.out"); hr=$(hash "$TMP/ref.out")
check "the rebuilt run ends as the edited file run from the start does ($hw)" "[ -n '$hw' ] && [ '$hw' = '$hr' ]"

# ---- functions only: swapped in, the world kept
run functions functions; rc=$?
check "the functions edit run exits 0" "[ $rc -eq 0 ]"
check "one message for the save: functions changed, world kept" \
  "[ \$(messages functions) -eq 1 ] && grep -qE '^tumble: functions changed: reloaded at frame 15[12], world kept$' '$TMP/functions.err'"
check "level.reload was called, and the new function runs" \
  "grep -qE '^reload called at frame 15[12]$' '$TMP/functions.out' && line 140 '$TMP/functions.out' | grep -q 'hello$' && line 160 '$TMP/functions.out' | grep -q 'howdy$'"
check "no frame was replayed" "! grep -q '^replayed' '$TMP/functions.out'"
mkdir -p "$TMP/plain"
cp "$ROOT/tests/playtest/levels/rebuild_level.lua" "$TMP/plain/level.lua"
timeout 60 "$BIN" --headless --frames 200 --replay "$TMP/walk.rec" "$TMP/plain/level.lua" > "$TMP/plain.out" 2>&1
hf=$(hash "$TMP/functions.out"); hp=$(hash "$TMP/plain.out")
check "the world went on: the run ends as one without the edit ($hf)" "[ -n '$hf' ] && [ '$hf' = '$hp' ]"

# ---- a broken reload leaves nothing behind
run broken broken; rc=$?
check "the broken edit run exits 0 (the old code kept running)" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/broken.err" | head -20
check "the failed reload is reported once, its error table described" \
  "[ \$(grep -c 'reload failed' '$TMP/broken.err') -eq 1 ] && grep -q 'error object is a table: {reason = \"broken on purpose\"}' '$TMP/broken.err'"
check "no global the broken file set stays: not by name, not through _G, not in the module it required" \
  "grep -q '^globals LEAKED=nil LEAKED2=nil LEAKED3=nil GOOD=nil leak_mod=nil$' '$TMP/broken.out'"
check "the fixed file is a functions-only reload whose globals are committed" \
  "grep -qE '^tumble: functions changed: reloaded at frame 8[12], world kept$' '$TMP/broken.err' && grep -q '^globals LEAKED=nil GOOD=committed$' '$TMP/broken.out'"

# ---- a save in two writes is one change
run twice twice; rc=$?
check "a save written in two goes gives one rebuild, no failed reload" \
  "[ $rc -eq 0 ] && [ \$(messages twice) -eq 1 ] && grep -q 'load() changed: rebuilt' '$TMP/twice.err'"

# ---- a rebuild that would take too long restarts instead
mkdir -p "$TMP/slow"
cat > "$TMP/slow/level.lua" <<'LUA'
-- each step costs ~4 ms: 600 steps would take ~2.4 s to replay
local level = {}
local SIZE = 1
function level.load(world)
  local b = world:body{ type = "static" }
  b:box{ w = SIZE, h = SIZE }
end
function level.update(dt, world)
  local t = os.clock()
  while os.clock() - t < 0.004 do end
  if tumble.frame == 600 and not tumble.replaying then
    local path = os.getenv("SLOW_FILE")
    local text = io.open(path):read("a"):gsub("local SIZE = 1", "local SIZE = 2")
    local f = io.open(path, "w")
    f:write(text)
    f:close()
  end
end
return level
LUA
SLOW_FILE="$TMP/slow/level.lua" timeout 60 "$BIN" --headless --frames 620 --watch --watch-poll-ms 0 \
  "$TMP/slow/level.lua" > "$TMP/slow.out" 2> "$TMP/slow.err"; rc=$?
check "a rebuild of 600 steps at ~4 ms each restarts instead, and says so" \
  "[ $rc -eq 0 ] && grep -qE '^tumble: load\(\) changed: (a rebuild would replay 60[12] frames|the rebuild took over 2 s).*restarted instead$' '$TMP/slow.err'"
check "... and the level starts over (18 steps after the restart)" "grep -qE '^frames=620 steps=1[0-9] ' '$TMP/slow.out'"
# ---- in a window, a rebuild that stops at an error, then the fix
if command -v xvfb-run > /dev/null 2>&1; then
  mkdir -p "$TMP/faulty"
  cp "$ROOT/tests/playtest/levels/rebuild_level.lua" "$TMP/faulty/level.lua"
  REBUILD_EDIT=faulty REBUILD_FILE="$TMP/faulty/level.lua" timeout 60 bash "$ROOT/tests/xvfb_run.sh" -s "-screen 0 1280x720x24" \
    "$BIN" --frames 260 --watch-poll-ms 0 --replay "$TMP/walk.rec" "$TMP/faulty/level.lua" \
    > "$TMP/faulty.out" 2> "$TMP/faulty.err"; rc=$?
  check "a rebuild whose new code fails at frame 100 halts there and says so" \
    "grep -qE '^tumble: load\(\) changed: rebuilt, and the level stopped with an error at frame 100 of 15[12]$' '$TMP/faulty.err' && grep -q 'bug at frame 100' '$TMP/faulty.err'"
  check "saving the fix (functions only) resumes and replays on to the present" \
    "grep -q '^halted at frame 100: saving the fix$' '$TMP/faulty.out' && grep -qE '^tumble: functions changed: reloaded, went back to frame 90 \(before the error\) and replayed on to frame 15[12] in [0-9.]+ m?s$' '$TMP/faulty.err'"
  check "... where the hero stands on the new platform, and the run ends well" \
    "[ $rc -eq 0 ] && [ \"\$(field 170 '$TMP/faulty.out' 7)\" = 10 ] && near \"\$(field 170 '$TMP/faulty.out' 4)\" 3.8 0.1 && near \"\$(field 170 '$TMP/faulty.out' 5)\" 0.5 0.02"
  [ $rc -eq 0 ] || sed 's/^/# /' "$TMP/faulty.err" | head -10
else
  n=$((n + 1)); echo "ok $n - # skip xvfb-run is not installed"
fi
echo "1..$n"
