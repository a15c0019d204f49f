#!/usr/bin/env bash
# Host playtest: the dev tools, driven by a replayed recording (the replay goes
# through the same event handler as live input). F1 opens the overlay, a click
# on its "gravity" toggle switches gravity off in the world, pressing on a box
# drags it with a mouse joint to the mouse, clicks taken by the overlay never
# reach the level, and after F1 closes the overlay a click does.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
LEVEL="$ROOT/tests/playtest/levels/devtools_level.lua"
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# View 1280x720, camera (0, 5) at 40 px/m: world (x, y) is pixel
# (640 + 40 x, 360 - 40 (y - 5)). The overlay's right panel starts at x = 964;
# its "gravity" toggle row spans y = 206..228. The box sits at (0, 0.5) =
# pixel (640, 540); the drag target (880, 300) is world (6, 6.5).
cat > "$TMP/dev.rec" <<'REC'
tumble-input 1
view 1280 720
F 1 10
kd f1
F 1
ku f1
md 1 980 215
F 1
mu 1 980 215
md 1 640 540
F 1
mm 880 300 240 -240
F 1 120
mu 1 880 300
F 1 10
kd f1
F 1
ku f1
md 1 640 100
F 1
mu 1 640 100
F 1 10
REC
timeout 60 "$BIN" --headless --frames 156 --replay "$TMP/dev.rec" "$LEVEL" --screenshot "$TMP/drag.bmp" \
  --screenshot-frame 100 > "$TMP/out" 2> "$TMP/err"; rc=$?
check "the dev-tools replay runs and exits 0" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err" | head -10
check "gravity is on before the click" "grep -q '^frame 10 box .* gravity -10$' '$TMP/out'"
check "the overlay's gravity toggle switched it off" "grep -q '^frame 20 box .* gravity 0$' '$TMP/out'"
pos=$(sed -n 's/^frame 130 box \([-0-9.]*\) \([-0-9.]*\) .*/\1 \2/p' "$TMP/out")
check "the mouse joint dragged the box to the mouse at (6, 6.5): $pos" \
  "echo '$pos' | awk '{ dx = \$1 - 6; dy = \$2 - 6.5; exit !(dx * dx + dy * dy < 0.09) }'"
check "the mouse joint is gone after release (bodies back to 2)" "grep -q ' bodies=2 ' '$TMP/out'"
presses=$(grep -c '^level mousepressed' "$TMP/out")
check "clicks taken by the overlay and the drag do not reach the level ($presses reached it)" "[ '$presses' -eq 1 ]"
check "with the overlay closed a click reaches the level in world coordinates" \
  "grep -q '^level mousepressed left 0.00 11.50 at frame 144$' '$TMP/out'"
check "a screenshot mid-drag was written" "[ -s '$TMP/drag.bmp' ]"
echo "1..$n"
