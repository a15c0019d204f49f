#!/usr/bin/env bash
# tumble --package GAME OUT: a game a player runs without the source tree.
#  - a small game (a main.lua that requires levelkit and a module beside it,
#    an asset in a subfolder, a second level) packs into a new folder, which
#    is then moved elsewhere and run through its launcher with an empty
#    environment from / : it loads levelkit from the package's own lua/,
#    reads its asset, and ends with the same hash as the level run in place;
#  - every example packed the same way runs 600 frames with its in-place hash;
#  - refusals, each with a message and nothing written: OUT not empty, OUT
#    inside GAME, GAME without a level, GAME not a folder, no OUT, OUT's
#    parent missing;
#  - the browser build: packed when build/web holds one and emscripten is
#    installed (web/test checks that page in Chromium), else skipped with a
#    message that this test checks and reports.
. "$(dirname "$0")/drivers/tap.sh"

T=$TAP_TMP
mkdir -p "$T/game/assets" "$T/game/.git"
cat > "$T/game/helper.lua" <<'LUA'
return { boxes = 6 }
LUA
cp "$TUMBLE_ROOT/examples/assets/hero.png" "$T/game/assets/hero.png"
printf 'not for the package\n' > "$T/game/.git/secret"
cat > "$T/game/main.lua" <<'LUA'
local levelkit = require "levelkit"
local helper = require "helper"
local level = {}
function level.load(world)
  local ground = world:body{type = "static"}
  ground:box{w = 20, h = 1, y = -0.5}
  for i = 1, helper.boxes do
    world:body{type = "dynamic", x = -4 + i, y = 1 + i}:box{w = 0.8, h = 0.8}
  end
  print("levelkit from " .. debug.getinfo(levelkit.controls, "S").source:sub(2))
  local hero = tumble.gfx.image("assets/hero.png")
  print("asset: " .. hero.width .. "x" .. hero.height)
end
return level
LUA
cat > "$T/game/other.lua" <<'LUA'
return { load = function(world) print("the other level") end }
LUA

pack() { timeout 120 "$TUMBLE_BIN" --package "$@"; }
# check DESCRIPTION FUNCTION [ARGS]: as tap.sh's check, for a shell function
# (each tumble run inside has its own time limit)
check_fn() {
  local desc=$1 log rc
  shift
  TAP_N=$((TAP_N + 1))
  log="$TAP_TMP/out.$TAP_N"
  ("$@") > "$log" 2>&1
  rc=$?
  sed 's/^/# /' "$log"
  if [ $rc -eq 0 ]; then echo "ok $TAP_N - $desc"
  else echo "not ok $TAP_N - $desc (exit $rc)"; TAP_FAILED=$((TAP_FAILED + 1)); fi
}

check_fn "tumble --package packs a game folder" pack "$T/game" "$T/pkg"
layout() {
  local missing=""
  for f in tumble play README.txt lua/levelkit.lua lua/fonts/DejaVuSans.ttf game/main.lua game/other.lua \
           game/helper.lua game/assets/hero.png; do
    [ -e "$T/pkg/$f" ] || missing="$missing $f"
  done
  [ -z "$missing" ] || { echo "missing:$missing"; return 1; }
  [ -x "$T/pkg/tumble" ] && [ -x "$T/pkg/play" ] || { echo "tumble or play not executable"; return 1; }
  [ ! -e "$T/pkg/game/.git" ] || { echo "the hidden .git folder was packed"; return 1; }
  [ ! -e "$T/pkg/lua/tumble.d.lua" ] || { echo "the LuaLS type file was packed"; return 1; }
  echo "package: $(cd "$T/pkg" && find . -type f | sort | tr '\n' ' ')"
}
check_fn "the package holds the binary, the launcher, lua/ with levelkit and the font, and the game (no hidden files)" layout

# the reference: the game run in place with the source tree's binary
in_place=$("$TUMBLE_BIN" --headless --frames 300 "$T/game/main.lua" 2>&1)
ref=$(echo "$in_place" | sed -n 's/.*hash=//p')
want_png=$(echo "$in_place" | sed -n 's/^asset: //p')
mkdir -p "$T/far/away"
mv "$T/pkg" "$T/far/away/pkg"
run_moved() {
  local out
  out=$(cd / && env -i PATH=/usr/bin:/bin HOME="$T" timeout 120 "$T/far/away/pkg/play" --headless --frames 300 2>&1)
  echo "$out"
  echo "$out" | grep -qx "levelkit from $T/far/away/pkg/lua/levelkit.lua" || { echo "levelkit not from the package"; return 1; }
  echo "$out" | grep -qx "asset: $want_png" || { echo "the asset was not read"; return 1; }
  local h
  h=$(echo "$out" | sed -n 's/.*hash=//p')
  [ -n "$ref" ] && [ "$h" = "$ref" ] || { echo "hash '$h', in place '$ref'"; return 1; }
}
check_fn "the moved package runs from / with an empty environment: its own levelkit, its asset, the in-place hash" run_moved
other() {
  local out
  out=$(cd / && env -i PATH=/usr/bin:/bin timeout 120 "$T/far/away/pkg/play" other.lua --headless --frames 10 2>&1)
  echo "$out"
  echo "$out" | grep -qx "the other level"
}
check_fn "./play other.lua runs another level of the game" other

examples() {
  pack "$TUMBLE_ROOT/examples" "$T/ex" > /dev/null || return 1
  mv "$T/ex" "$T/far/ex"
  local bad=0 f name a b
  for f in "$TUMBLE_ROOT"/examples/*.lua; do
    name=$(basename "$f")
    a=$("$TUMBLE_BIN" --headless --frames 600 "$f" 2>/dev/null | sed -n 's/.*hash=//p')
    b=$(cd / && env -i PATH=/usr/bin:/bin timeout 120 "$T/far/ex/play" "$name" --headless --frames 600 2>/dev/null | sed -n 's/.*hash=//p')
    echo "$name: in place $a, packaged $b"
    [ -n "$a" ] && [ "$a" = "$b" ] || bad=1
  done
  return $bad
}
check_fn "every example, packaged and moved, runs 600 frames with its in-place hash" examples

# refusals: exit 1, the reason on stderr, nothing written
refused() { # WHAT-THE-MESSAGE-SAYS GAME OUT
  local want=$1 out rc
  shift
  out=$(pack "$@" 2>&1); rc=$?
  echo "$out"
  [ $rc -ne 0 ] || { echo "exit 0"; return 1; }
  echo "$out" | grep -q -- "$want" || { echo "the message does not say '$want'"; return 1; }
}
mkdir -p "$T/full" && echo keep > "$T/full/mine.txt"
full() { refused 'is not an empty folder' "$T/game" "$T/full" && [ "$(ls "$T/full")" = mine.txt ]; }
check_fn "OUT that exists and is not empty is refused and left alone" full
inside() { refused 'inside the game' "$T/game" "$T/game/out" && [ ! -e "$T/game/out" ]; }
check_fn "OUT inside GAME is refused and not created" inside
same() { refused 'not an empty folder' "$T/game" "$T/game/"; }
check_fn "OUT equal to GAME is refused" same
mkdir -p "$T/nolevel/assets" && touch "$T/nolevel/assets/a.lua"
nolevel() { refused 'holds no level' "$T/nolevel" "$T/o1" && [ ! -e "$T/o1" ]; }
check_fn "GAME with no .lua file at its top is refused" nolevel
notdir() { refused 'is not a folder' "$T/game/main.lua" "$T/o2" && [ ! -e "$T/o2" ]; }
check_fn "GAME that is not a folder is refused" notdir
noparent() { refused 'does not exist' "$T/game" "$T/no/such/out" && [ ! -e "$T/no" ]; }
check_fn "OUT whose parent folder is missing is refused" noparent
no_out() {
  local out rc
  out=$("$TUMBLE_BIN" --package "$T/game" 2>&1); rc=$?
  echo "$out"
  [ $rc -eq 2 ] && echo "$out" | grep -q "give the output folder"
}
check_fn "--package without OUT is a usage error" no_out

# the browser build
mkdir -p "$T/empty"
web() {
  local out
  out=$(pack "$T/game" "$T/empty" 2>&1) || { echo "$out"; return 1; }
  echo "$out"
  if [ -f "$TUMBLE_ROOT/build/web/tumble.wasm" ] && command -v em-config > /dev/null; then
    for f in index.html shell.js tumble.js tumble.wasm tumble.data tumble.data.js; do
      [ -s "$T/empty/web/$f" ] || { echo "web/$f missing"; return 1; }
    done
    [ ! -e "$T/empty/web/stage" ] || { echo "the packer's stage folder was left"; return 1; }
    grep -q "levels/game/main.lua" "$T/empty/web/tumble.data" || { echo "the data does not open levels/game/main.lua"; return 1; }
    echo "browser build packed (web/test/run.sh opens it in Chromium)"
  else
    echo "$out" | grep -q "browser build skipped" || { echo "no build/web, and no message saying the browser build was skipped"; return 1; }
    [ ! -e "$T/empty/web" ] || { echo "a web/ folder was written without a browser build"; return 1; }
    echo "SKIPPED the browser part: no build/web (make web) or no emscripten here"
  fi
}
check_fn "the browser build is packed when there is one, else skipped with a message (into an empty OUT)" web
tap_done
