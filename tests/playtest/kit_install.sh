#!/usr/bin/env bash
# make install / make uninstall (PREFIX, DESTDIR) and the rockspec: the staged
# tree lets plain lua5.4 find tumble and levelkit from another folder, and the
# installed tumble runs its default level and a level elsewhere that requires
# levelkit; uninstall takes every file back out.
. "$(dirname "$0")/drivers/tap.sh"

# a clean make: the suites run inside `make test`, whose variables (BUILD,
# SANITIZE, MAKEFLAGS) must not leak into this one
CLEAN=(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u SANITIZE -u OPT)
MK=("${CLEAN[@]}" make --no-print-directory -C "$TUMBLE_ROOT")

stage="$TAP_TMP/stage"
away="$TAP_TMP/elsewhere"
mkdir -p "$away"
check "make install DESTDIR=\$tmp PREFIX=/usr" "${MK[@]}" install DESTDIR="$stage" PREFIX=/usr
check "it installs the host, the module, levelkit, the docs and the examples" \
  test -x "$stage/usr/bin/tumble" -a -f "$stage/usr/lib/lua/5.4/tumble.so" \
       -a -f "$stage/usr/share/lua/5.4/levelkit.lua" -a -f "$stage/usr/share/tumble/lua/tumble.d.lua" \
       -a -f "$stage/usr/share/tumble/examples/forcefield.lua"

cat > "$away/plain.lua" <<'LUA'
local tumble = require "tumble"
local levelkit = require "levelkit"
assert(package.searchpath("tumble", package.cpath):find("/usr/lib/lua/5.4/tumble.so", 1, true))
local world = tumble.world{}
local b = world:body{ type = "dynamic" }
b:circle{ r = 0.5 }
for _ = 1, 60 do world:step(1 / 60) end
assert(b.y < -4 and b.y > -6, "fell " .. b.y)
assert(levelkit.clamp(5, 0, 1) == 1)
print("plain lua5.4 ok " .. tumble.version)
LUA
check "lua5.4 in another folder finds the installed tumble and levelkit (tree on its paths)" \
  bash -c "cd '$away' && LUA_CPATH='$stage/usr/lib/lua/5.4/?.so;;' LUA_PATH='$stage/usr/share/lua/5.4/?.lua;;' lua5.4 plain.lua"
check "without the tree on its paths, lua5.4 does not (the test is not finding a repository copy)" \
  bash -c "cd '$away' && ! lua5.4 -e 'package.cpath = \"$away/?.so\"; require \"tumble\"' 2>/dev/null"

cat > "$away/mine.lua" <<'LUA'
local levelkit = require "levelkit"
local level = {}
function level.load(world)
  level.ball = world:body{ type = "dynamic", y = 3 }
  level.ball:circle{ r = 0.5 }
end
function level.update(dt)
  if tumble.frame == 59 then
    tumble.exit(0, string.format("installed tumble ran mine.lua: y=%.2f clamp=%d", level.ball.y, levelkit.clamp(9, 0, 2)))
  end
end
return level
LUA
check "the installed tumble runs a level in another folder that requires levelkit" \
  bash -c "cd '$away' && '$stage/usr/bin/tumble' --headless --frames 100 mine.lua | grep -q 'ran mine.lua: y=.* clamp=2'"
cat > "$away/text.lua" <<'LUA'
local level = {}
function level.load(world)
  tumble.exit(0, string.format("text %d x %d", tumble.gfx.text_size("Hello")))
end
return level
LUA
# the bundled DejaVu Sans measures "Hello" at 20 px as 51 x 24; the bitmap
# font the host falls back to without it, 60 x 20
check "the installed tumble finds its bundled font (text is measured in DejaVu Sans)" \
  bash -c "cd '$away' && '$stage/usr/bin/tumble' --headless --frames 1 text.lua | grep -qx 'text 51 x 24'"
default=$(cd "$away" && "$stage/usr/bin/tumble" --headless --frames 30 2>&1)
explicit=$(cd "$away" && "$stage/usr/bin/tumble" --headless --frames 30 "$stage/usr/share/tumble/examples/forcefield.lua" 2>&1)
default=$(echo "$default" | sed 's/ time=[^ ]*//'); explicit=$(echo "$explicit" | sed 's/ time=[^ ]*//')
echo "# default:  $default"; echo "# explicit: $explicit"
check "the installed tumble's default level is its installed forcefield.lua" \
  bash -c "[[ '$default' == frames=30* ]] && [ '$default' = '$explicit' ]"
check "make uninstall DESTDIR=\$tmp PREFIX=/usr" "${MK[@]}" uninstall DESTDIR="$stage" PREFIX=/usr
check "no file is left in the staged tree" \
  bash -c "[ -d '$stage/usr' ] && [ -z \"\$(find '$stage' -type f -o -type l)\" ]"

if command -v luarocks > /dev/null 2>&1; then
  rocks="$TAP_TMP/rocks"
  check "luarocks make builds the module into a rocks tree" \
    "${CLEAN[@]}" luarocks --lua-version 5.4 make --tree="$rocks" tumble-0.1.0-1.rockspec
  check "lua5.4 finds the rock's tumble and levelkit" \
    bash -c "cd '$away' && LUA_CPATH='$rocks/lib/lua/5.4/?.so;;' LUA_PATH='$rocks/share/lua/5.4/?.lua;;' \
      lua5.4 -e 'local t = require \"tumble\"; assert(t.world and require \"levelkit\".rng); print(t.version)'"
else
  TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - # skip luarocks is not installed"
fi
tap_done
