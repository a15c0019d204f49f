#!/usr/bin/env bash
# Host playtest: the gfx API and the camera. A fixture level draws known
# shapes; the offscreen screenshot must have their colours at the pixels the
# camera maps them to (y up, centred rectangles, alpha blending, outlines).
# Another level follows a falling ball with the camera.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
L="$ROOT/tests/playtest/levels"
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# px FILE X Y...: "r,g,b" of each pixel (32-bit BMP, bottom-up rows, BGRA)
cat > "$TMP/px.lua" <<'LUA'
local f = assert(io.open(arg[1], "rb"))
local s = f:read("a")
f:close()
local offset = string.unpack("<I4", s, 11)
local w, h = string.unpack("<i4i4", s, 19)
local out = {}
for i = 2, #arg, 2 do
  local x, y = tonumber(arg[i]), tonumber(arg[i + 1])
  local row = h > 0 and (h - 1 - y) or y
  local b, g, r = string.unpack("BBB", s, offset + (row * w + x) * 4 + 1)
  out[#out + 1] = r .. "," .. g .. "," .. b
end
print(table.concat(out, " "))
LUA

timeout 60 "$BIN" --headless --frames 2 --screenshot "$TMP/gfx.bmp" "$L/gfx_level.lua" > /dev/null 2> "$TMP/err"; rc=$?
check "the gfx level renders" "[ $rc -eq 0 ] && [ -s '$TMP/gfx.bmp' ]"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err" | head -10
px() { lua5.4 "$TMP/px.lua" "$TMP/gfx.bmp" "$@"; }
check "background where nothing is drawn" "[ \"\$(px 100 300)\" = '22,25,31' ]"
check "gfx.rect fill is centred on its point (red at 450,330 and 510,390)" "[ \"\$(px 450 330 510 390)\" = '255,0,0 255,0,0' ]"
# (sample points avoid the 1 m grid lines, every 40 px through pixel (640, 360))
check "gfx.rect stops at its edges (background at 430,345)" "[ \"\$(px 430 345)\" = '22,25,31' ]"
check "alpha 0.5 blends blue over red" "px 485 365 | grep -Eq '^12[6-8],0,12[6-8]$'"
check "gfx.circle fill (green at 815,265)" "[ \"\$(px 815 265)\" = '0,255,0' ]"
check "gfx.circle stays inside its radius (background at 815,238)" "[ \"\$(px 815 238)\" = '22,25,31' ]"
check "y points up: the triangle is narrow at the top, wide at the bottom" \
  "[ \"\$(px 645 215 665 255 625 215 665 215)\" = '0,0,255 0,0,255 22,25,31 22,25,31' ]"
check "gfx.line at world y = 2 is pixel row 480" "[ \"\$(px 365 480 365 470)\" = '255,255,0 22,25,31' ]"
check "a line-mode circle leaves its centre empty" "[ \"\$(px 975 465 1000 480)\" = '22,25,31 255,0,255' ]"
# "H" at scale 4 (DejaVu Sans at 40 px) from (16, 640): its left stem is
# pixels 20..22 x 649..677, with the shadow 4 pixels to the right of it
check "gfx.screen_text draws glyphs at pixel positions" \
  "[ \"\$(px 21 652 21 674 17 660 21 646)\" = '255,255,255 255,255,255 22,25,31 22,25,31' ]"

out=$(timeout 60 "$BIN" --headless --frames 100 "$L/camera_level.lua" 2>&1); rc=$?
check "the camera level ends itself with tumble.exit(0)" "[ $rc -eq 0 ]"
cam=$(echo "$out" | sed -n 's/^camera \([-0-9.]*\) \([-0-9.]*\) target \([-0-9.]*\) \([-0-9.]*\)$/\1 \2 \3 \4/p')
check "camera.follow(ball, 0, 1) keeps the camera on the ball plus offset ($cam)" \
  "echo '$cam' | awk '{ exit !(NF == 4 && \$1 == \$3 && \$2 == \$4) }'"
check "to_screen of the followed point is the view centre" "echo \"\$out\" | grep -q '^to_screen 640.00 360.00 '"
check "to_world of the view centre is the camera centre" \
  "echo '$cam' | awk -v line=\"\$(echo \"\$out\" | grep '^to_screen')\" '{ split(line, a, \" \"); exit !(a[5] == \$1 && a[6] == \$2) }'"
check "the ball really fell (so the camera moved)" "echo \"\$out\" | awk '/^fell/ { exit !(\$2 > 4) }'"
echo "1..$n"
