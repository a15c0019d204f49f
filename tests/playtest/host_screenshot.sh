#!/usr/bin/env bash
# Host playtest: screenshots. The default level rendered offscreen (headless,
# no display at all) gives a BMP with real content: many colours, most of the
# picture not background, different at frame 10 and frame 120. Then the same
# under Xvfb in a real window (skipped when xvfb-run is missing).
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# bmpstat A [B]: "width height colours nonbackground_permille [differing_permille]"
cat > "$TMP/bmpstat.lua" <<'LUA'
local function load(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  assert(s:sub(1, 2) == "BM", path .. " is not a BMP file")
  local offset = string.unpack("<I4", s, 11)
  local w, h = string.unpack("<i4i4", s, 19)
  local bpp = string.unpack("<I2", s, 29)
  assert(bpp == 32, "expected 32 bits per pixel, got " .. bpp)
  assert(#s >= offset + w * math.abs(h) * 4, "truncated pixel data")
  return s, offset, w, math.abs(h)
end
local a, oa, w, h = load(arg[1])
local counts, colours = {}, 0
for i = oa + 1, oa + w * h * 4, 4 do
  local px = a:sub(i, i + 2)
  local c = counts[px]
  if not c then colours = colours + 1 end
  counts[px] = (c or 0) + 1
end
local background = 0
for _, c in pairs(counts) do background = math.max(background, c) end
local out = { w, h, colours, (w * h - background) * 1000 // (w * h) }
if arg[2] then
  local b, ob, w2, h2 = load(arg[2])
  assert(w2 == w and h2 == h, "sizes differ")
  local differ = 0
  for i = 0, w * h - 1 do
    if a:sub(oa + 4 * i + 1, oa + 4 * i + 3) ~= b:sub(ob + 4 * i + 1, ob + 4 * i + 3) then differ = differ + 1 end
  end
  out[#out + 1] = differ * 1000 // (w * h)
end
print(table.concat(out, " "))
LUA
stat() { lua5.4 "$TMP/bmpstat.lua" "$@"; }

env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=none timeout 60 "$BIN" --headless --frames 10 \
  --screenshot "$TMP/f10.bmp" > /dev/null 2> "$TMP/err"; rc=$?
check "headless --screenshot needs no display or video driver" "[ $rc -eq 0 ] && [ -s '$TMP/f10.bmp' ]"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err" | head -10
env -u DISPLAY timeout 60 "$BIN" --headless --frames 200 --screenshot-frame 120 \
  --screenshot "$TMP/f120.bmp" > /dev/null 2>&1
read -r w h colours fill _ < <(stat "$TMP/f10.bmp" 2>/dev/null || echo "0 0 0 0")
check "the picture is 1280x720" "[ '$w' = 1280 ] && [ '$h' = 720 ]"
check "the picture has many colours ($colours)" "[ '$colours' -ge 24 ]"
check "the picture is not mostly background (${fill} permille drawn)" "[ '$fill' -ge 60 ]"
read -r _ _ _ _ differ < <(stat "$TMP/f10.bmp" "$TMP/f120.bmp" 2>/dev/null || echo "0 0 0 0 0")
check "frame 10 and frame 120 differ (${differ} permille of pixels)" "[ -n '$differ' ] && [ '$differ' -ge 2 ]"
env -u DISPLAY timeout 60 "$BIN" --headless --frames 10 --screenshot "$TMP/again.bmp" > /dev/null 2>&1
check "rendering is deterministic (same frame, same picture)" "cmp -s '$TMP/f10.bmp' '$TMP/again.bmp'"
env -u DISPLAY timeout 60 "$BIN" --headless --frames 10 --overlay --size 800x600 --screenshot "$TMP/ov.bmp" > /dev/null 2>&1
read -r w h colours _ < <(stat "$TMP/ov.bmp" 2>/dev/null || echo "0 0 0 0")
check "--size and --overlay: an 800x600 picture with the overlay" "[ '$w' = 800 ] && [ '$h' = 600 ] && [ '$colours' -ge 24 ]"
# a path that names a FIFO (writing would wait for a reader forever) is
# refused at once, before the run (a folder: host_errors.sh)
mkfifo "$TMP/pipe.bmp"
env -u DISPLAY timeout 60 "$BIN" --headless --frames 10 --screenshot "$TMP/pipe.bmp" > "$TMP/out" 2> "$TMP/err"; rc=$?
check "a FIFO as the screenshot is refused before the run (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'not a regular file' '$TMP/err' && ! grep -q '^frames=' '$TMP/out'"

if command -v xvfb-run > /dev/null 2>&1; then
  timeout 60 bash "$ROOT/tests/xvfb_run.sh" -s "-screen 0 1280x720x24" "$BIN" --frames 30 --overlay --screenshot "$TMP/win.bmp" \
    > "$TMP/out" 2> "$TMP/err"; rc=$?
  check "a real window under Xvfb runs 30 frames and exits 0" "[ $rc -eq 0 ]"
  [ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err" | head -10
  read -r w h colours fill _ < <(stat "$TMP/win.bmp" 2>/dev/null || echo "0 0 0 0")
  check "the windowed run's screenshot has content ($colours colours)" "[ '$colours' -ge 24 ] && [ '$fill' -ge 60 ]"
else
  n=$((n + 1)); echo "ok $n - # skip xvfb-run is not installed"
fi
echo "1..$n"
