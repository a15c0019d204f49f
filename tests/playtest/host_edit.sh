#!/usr/bin/env bash
# Host playtest: edit mode (F12) driven by recorded input, headless. Each case
# replays a hand-written recording of mouse and keys into a fresh copy of the
# fixture level and asserts the exact source text that results: a move of a
# literal-made body writes one number, a move of a loop-made one writes
# nothing and says why, undo gives the original bytes back, a file changed on
# disk is not overwritten, duplicate, delete and the palette write the
# expected statements, typed and scrubbed numbers in the inspector, Escape
# with a selection does not quit, and a session recorded with --record
# replays to the same file byte for byte.
#
# The fixture's camera: world (x, y) is pixel (640 + 40 x, 560 - 40 y) of the
# 1280x720 view. Edit mode pauses, so the timeline (52 pixels) is shown and
# the world is drawn fitted above it, 668/720 of its size: world (x, y) is
# pixel (640 + 37.11 x, 334 - 37.11 (y - 5)), and a 40-pixel drag is 37
# pixels (the cases' comments give pixels of the unfitted view, the
# recordings the fitted ones). The inspector's lines start at y = 36, 12
# pixels each, from x = 852: line 0 is the first object's header, line 1 its
# x, line 2 its y.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
FIXTURE="$ROOT/tests/playtest/levels/edit_level.lua"
TMP=${KEEP_TMP:-$(mktemp -d)}; [ -n "${KEEP_TMP:-}" ] || trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# run NAME FRAMES: replays $TMP/NAME.rec into $TMP/NAME/level.lua (a fresh
# copy of the fixture); stdout in NAME.out, stderr in NAME.err.
run() {
	mkdir -p "$TMP/$1"
	cp "$FIXTURE" "$TMP/$1/level.lua"
	"$BIN" --headless --frames "$2" --replay "$TMP/$1.rec" ${3:-} "$TMP/$1/level.lua" > "$TMP/$1.out" 2> "$TMP/$1.err"
	echo $? > "$TMP/$1.rc"
}
rc() { cat "$TMP/$1.rc"; }
# The file's difference from the fixture, as "-old" / "+new" lines.
changes() { diff "$FIXTURE" "$TMP/$1/level.lua" | grep '^[<>]' | sed 's/^< /-/; s/^> /+/'; }
show() { sed 's/^/# /' "$TMP/$1.err" | head -20; }

header='tumble-input 1
view 1280 720'
f12='kd f12
F 0
ku f12
F 0'

# ---- a move of a literal-made body writes exactly one number ----
cat > "$TMP/move.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mm 751 409 37 1
F 0
mu 1 751 409
F 0
$f12
F 1 20
REC
run move 40
check "move: the run exits 0" "[ $(rc move) -eq 0 ]"
expected='-  platform = world:body{ type = "static", x = 2, y = 3 }
+  platform = world:body{ type = "static", x = 3, y = 3 }'
got=$(changes move)
check "move: one number changed in the source (x = 2 -> x = 3)" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show move; }
check "move: says where it wrote" "grep -q 'x = 3: written to level.lua:11' '$TMP/move.err'"
check "move: the level was rebuilt from the file" "grep -q 'load() changed: rebuilt' '$TMP/move.err'"
check "move: the world is what the source builds (platform at x = 3)" "grep -q '^frame 20 platform 3.000 3.000 ' '$TMP/move.out'"

# ---- a move of a loop-made object (x computed) writes nothing, says why ----
# the first ball: x = -8 + 1 * 1.5 = -6.5, y = 4: pixel (380, 400)
cat > "$TMP/loop.rec" <<REC
$header
F 1 10
$f12
md 1 399 371
F 0
mm 436 371 37 0
F 0
mu 1 436 371
F 0
$f12
F 1 20
REC
run loop 40
check "loop: the file is unchanged" "cmp -s '$FIXTURE' '$TMP/loop/level.lua'"
check "loop: says the value is computed, where, and that it is not saved" \
	"grep -q 'x = -5.5 in the running world only, not saved (computed at level.lua:14: -8 + i \* 1.5)' '$TMP/loop.err'"

# ---- a literal shared by a loop: said first, done when repeated ----
# the first ball moved up by 1 m: y = 4 is a literal of the loop's call
cat > "$TMP/shared.rec" <<REC
$header
F 1 10
$f12
md 1 399 371
F 0
mm 399 334 0 -37
F 0
mu 1 399 334
F 0
md 1 399 371
F 0
mm 399 334 0 -37
F 0
mu 1 399 334
F 0
F 1 20
REC
run shared 40
check "shared: the first try says 3 objects come from the call and changes nothing" \
	"grep -q 'refused: 3 objects come from level.lua:14 (a loop): the same edit again changes all of them' '$TMP/shared.err'"
expected='-    local ball = world:body{ type = "static", x = -8 + i * 1.5, y = 4 }
+    local ball = world:body{ type = "static", x = -8 + i * 1.5, y = 5 }'
got=$(changes shared)
check "shared: the same edit again writes the loop's literal" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show shared; }

# ---- undo gives back the original bytes; redo the last edit undone ----
# a move (x = 3), then the moved platform's width handle (4.5, 3: pixel
# (820, 440)) dragged 20 pixels right (w = 4), then Ctrl+Z twice; redo:
# Ctrl+Shift+Z once more brings back the move
cat > "$TMP/undo.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mm 751 409 37 1
F 0
mu 1 751 409
F 0
md 1 807 408
F 0
mm 826 408 19 0
F 0
mu 1 826 408
F 0
kd left ctrl
F 0
kd z
F 0
ku z
F 0
kd z
F 0
ku z
ku left ctrl
F 1 20
REC
run undo 40
check "undo: both edits were written before" "grep -q 'x = 3: written' '$TMP/undo.err' && grep -q 'w = 4: written' '$TMP/undo.err'"
check "undo: the file is the original, byte for byte" "cmp -s '$FIXTURE' '$TMP/undo/level.lua'"
check "undo: says so, and the world is the original's again (platform at x = 2)" \
	"grep -q 'edit: undone' '$TMP/undo.err' && grep -q '^frame 20 platform 2.000 3.000 ' '$TMP/undo.out'"
sed 's/^ku left ctrl$/kd left shift\nF 0\nkd left ctrl\nkd z\nF 0\nku z\nku left ctrl\nku left shift/' "$TMP/undo.rec" > "$TMP/redo.rec"
run redo 40
expected='-  platform = world:body{ type = "static", x = 2, y = 3 }
+  platform = world:body{ type = "static", x = 3, y = 3 }'
got=$(changes redo)
check "redo (Ctrl+Shift+Z): the edit is back" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show redo; }

# ---- a diagonal move is one edit: x and y written at once, one Ctrl+Z ----
# the platform (2, 3: pixel (720, 440)) dragged to (3, 4): pixel (760, 400)
cat > "$TMP/diag.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mm 751 371 37 -37
F 0
mu 1 751 371
F 0
F 1 5
REC
run diag 30
expected='-  platform = world:body{ type = "static", x = 2, y = 3 }
+  platform = world:body{ type = "static", x = 3, y = 4 }'
got=$(changes diag)
check "diagonal move: x and y written" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show diag; }
check "diagonal move: one edit, one rebuild" \
	"grep -q '2 numbers written as one edit' '$TMP/diag.err' && [ \$(grep -c 'load() changed: rebuilt' '$TMP/diag.err') -eq 1 ]"
sed 's/^F 1 5$/kd left ctrl\nF 0\nkd z\nF 0\nku z\nku left ctrl\nF 1 5/' "$TMP/diag.rec" > "$TMP/diagundo.rec"
run diagundo 30
check "diagonal move: one Ctrl+Z gives the original bytes" "cmp -s '$FIXTURE' '$TMP/diagundo/level.lua'"
check "diagonal move: nothing more to undo after it" "grep -q 'undone (0 more to undo' '$TMP/diagundo.err'"

# ---- examples/forcefield.lua: move a platform, widen it, change the field's
# push in the inspector, then undo all three: the file is the original ----
# camera (0, 8.45) at 37 px/m: world (x, y) is pixel (640 + 37 x, 672.65 - 37 y).
# The low left platform (-10, 2): pixel (270, 599), dragged 37 px right (x =
# -9); its width handle (-5.5, 2): pixel (436, 598), dragged 37 px right (w =
# 9); the field's sensor (0, 11.85): pixel (640, 234); in the inspector its
# field.fy is line 36 (y = 474), typed -120.
FF="$ROOT/examples/forcefield.lua"
cat > "$TMP/ff.rec" <<REC
$header
F 1 10
$f12
md 1 297 556
F 0
mm 331 556 34 0
F 0
mu 1 331 556
F 0
md 1 451 555
F 0
mm 485 555 34 0
F 0
mu 1 485 555
F 0
md 1 640 217
F 0
mu 1 640 217
F 0
md 1 900 474
F 0
mu 1 900 474
F 0
tx 2d313230
kd return
F 0
ku return
F 1 5
REC
run_ff() {
	mkdir -p "$TMP/$1"
	cp "$FF" "$TMP/$1/forcefield.lua"
	"$BIN" --headless --frames 80 --replay "$TMP/$1.rec" "$TMP/$1/forcefield.lua" > "$TMP/$1.out" 2> "$TMP/$1.err"
	echo $? > "$TMP/$1.rc"
}
run_ff ff
expected='-  local left_low = world:body{ type = "static", x = -10, y = 2 }
-  left_low:box{ w = 7, h = 0.5, friction = 0.8 }
+  local left_low = world:body{ type = "static", x = -9, y = 2 }
+  left_low:box{ w = 9, h = 0.5, friction = 0.8 }
-                                  user = { kind = "field" }, field = { kind = "linear", fx = 0, fy = -150 } }
+                                  user = { kind = "field" }, field = { kind = "linear", fx = 0, fy = -120 } }'
got=$(diff "$FF" "$TMP/ff/forcefield.lua" | grep '^[<>]' | sed 's/^< /-/; s/^> /+/')
check "forcefield: move, widen and the field's push are written, nothing else" '[ "$got" = "$expected" ] && [ $(rc ff) -eq 0 ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show ff; }
# then with a jump before the edits and a rewind (PageUp, F2 goes on) after
# them, before the undos
sed 's/^F 1 10$/F 1 4\nkd space\nF 1 3\nku space\nF 1 10/; s/^F 1 5$/kd pageup\nF 0\nku pageup\nF 0\nkd f2\nF 0\nku f2\nF 1 20\nkd left ctrl\nF 0\nkd z\nF 0\nku z\nF 0\nkd z\nF 0\nku z\nF 0\nkd z\nF 0\nku z\nku left ctrl\nF 1 5/' "$TMP/ff.rec" > "$TMP/ffundo.rec"
run_ff ffundo
check "forcefield: rewound after the edits, three Ctrl+Z give the original bytes" \
	"cmp -s '$FF' '$TMP/ffundo/forcefield.lua' && grep -q 'rewound to frame' '$TMP/ffundo.err' && grep -q 'undone (0 more to undo' '$TMP/ffundo.err'"

# ---- a polygon's vertex handle writes its pair of points ----
# edit_polygon.lua's triangle (0,0) (4,0) (0,2): click the body at (0, 0)
# (pixel (642, 359)), drag the vertex (4, 0) (pixel (800, 360)) to (5, 1)
# (pixel (840, 320)); then one Ctrl+Z
PG="$ROOT/tests/playtest/levels/edit_polygon.lua"
cat > "$TMP/vertex.rec" <<REC
$header
F 1 5
$f12
md 1 642 333
F 0
mu 1 642 333
F 0
md 1 788 334
F 0
mm 826 297 37 -37
F 0
mu 1 826 297
F 0
F 1 6
REC
run_pg() {
	mkdir -p "$TMP/$1"
	cp "$PG" "$TMP/$1/level.lua"
	"$BIN" --headless --frames 20 --replay "$TMP/$1.rec" "$TMP/$1/level.lua" > "$TMP/$1.out" 2> "$TMP/$1.err"
}
run_pg vertex
expected='-  ground:polygon{ 0, 0, 4, 0, 0, 2, friction = 0.9 }
+  ground:polygon{ 0, 0, 5, 1, 0, 2, friction = 0.9 }'
got=$(diff "$PG" "$TMP/vertex/level.lua" | grep '^[<>]' | sed 's/^< /-/; s/^> /+/')
check "polygon vertex: its two numbers in polygon{} are rewritten, as one edit" \
	'[ "$got" = "$expected" ] && grep -q "vertex 2: points \[3\], \[4\] written" "$TMP/vertex.err"'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show vertex; }
sed 's/^F 1 6$/kd left ctrl\nF 0\nkd z\nF 0\nku z\nku left ctrl\nF 1 5/' "$TMP/vertex.rec" > "$TMP/vertexundo.rec"
run_pg vertexundo
check "polygon vertex: one Ctrl+Z gives the original bytes" \
	"grep -q 'written' '$TMP/vertexundo.err' && cmp -s '$PG' '$TMP/vertexundo/level.lua'"

# ---- an edit while the file changed on disk is refused ----
# edit mode opens the file, "x" makes the level rewrite its own line 11 (as
# an editor saving it would), then a move of the platform is refused
cat > "$TMP/ondisk.rec" <<REC
$header
F 1 10
$f12
$f12
kd x
F 1
ku x
F 1
$f12
md 1 714 408
F 0
mm 751 409 37 1
F 0
mu 1 751 409
F 0
F 1 20
REC
run ondisk 40
expected='-  platform = world:body{ type = "static", x = 2, y = 3 }
+  platform = world:body{ type = "static", x = 2.5, y = 3 }'
got=$(changes ondisk)
check "changed on disk: the file keeps the outside change only" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show ondisk; }
check "changed on disk: the edit is refused with a message" "grep -q 'x = 3 refused: ' '$TMP/ondisk.err'"

# ---- after the file changed on disk and the level was rebuilt from it, the
# objects are found at their new lines ----
# "y" makes the level save a new line at the top of its load (the platform's
# call moves from line 11 to 12); --watch rebuilds the level from the file;
# then a move of the platform is written at its new line
sed 's/^kd x$/kd y/; s/^ku x$/ku y/' "$TMP/ondisk.rec" > "$TMP/moved.rec"
run moved 40 "--watch --watch-poll-ms 0"
expected='+  local spacer = 0
-  platform = world:body{ type = "static", x = 2, y = 3 }
+  platform = world:body{ type = "static", x = 3, y = 3 }'
got=$(changes moved)
check "moved on disk: after the rebuild, the edit goes to the call's new line" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show moved; }
check "moved on disk: says the new line" "grep -q 'x = 3: written to level.lua:12' '$TMP/moved.err'"

# ---- duplicate and delete ----
# the crate (local crate = world:body{...}; crate:box{...}) at (-3, 1): pixel (520, 520)
cat > "$TMP/dup.rec" <<REC
$header
F 1 10
$f12
md 1 529 482
F 0
mu 1 529 482
F 0
kd left ctrl
kd d
F 0
ku d
ku left ctrl
F 1 20
REC
run dup 40
got=$(changes dup)
expected='+  local crate1 = world:body{ type = "static", x = -2.9, y = 1 }
+  crate1:box{ w = 1, h = 1 }'
check "duplicate: the body and its box copied after it, offset by a grid step" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show dup; }
check "duplicate: the copy is in the world" "grep -q ' bodies=9 ' '$TMP/dup.out'"
sed 's/^kd d$/kd delete/; s/^ku d$/ku delete/; /left ctrl/d' "$TMP/dup.rec" > "$TMP/del.rec"
run del 40
got=$(changes del)
expected='-  local crate = world:body{ type = "static", x = -3, y = 1 }
-  crate:box{ w = 1, h = 1 }'
check "delete: the body's statements are gone" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show del; }
check "delete: and so is the body" "grep -q ' bodies=7 ' '$TMP/del.out'"
# a loop-made object is neither duplicated nor deleted
cat > "$TMP/loopdel.rec" <<REC
$header
F 1 10
$f12
md 1 399 371
F 0
mu 1 399 371
F 0
kd delete
F 0
ku delete
F 1 20
REC
run loopdel 40
check "delete of a loop-made body: nothing changes, and it says so" \
	"cmp -s '$FIXTURE' '$TMP/loopdel/level.lua' && grep -q 'cannot delete: ' '$TMP/loopdel.err'"

# ---- the palette: a box where the pointer is ----
cat > "$TMP/palette.rec" <<REC
$header
F 1 10
$f12
mm 788 334 0 0
F 0
kd b
F 0
ku b
F 1 20
REC
run palette 40
got=$(changes palette)
expected='+  local box1 = world:body{ type = "dynamic", x = 4, y = 5 }
+  box1:box{ w = 1, h = 1 }'
check "palette: a box is added as new statements at the end of load (at the pointer, x = 4, y = 5)" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show palette; }
check "palette: the box is in the world" "grep -q ' bodies=9 ' '$TMP/palette.out'"
# a joint between two selected bodies: the crate, then (shift) the wire
cat > "$TMP/joint.rec" <<REC
$header
F 1 10
$f12
md 1 529 482
F 0
mu 1 529 482
F 0
kd left shift
F 0
md 1 195 482
F 0
mu 1 195 482
F 0
ku left shift
F 0
kd j
F 0
ku j
F 1 20
REC
run joint 40
got=$(changes joint)
expected='+  world:joint{ kind = "revolute", a = crate, b = wire, x = -12, y = 1 }'
check "palette: a joint between the two selected bodies, at the second's origin" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show joint; }

# ---- the width and rotate handles ----
# the platform's width handle (its right side, 3.5, 3) is pixel (780, 440),
# dragged 20 pixels right: w = 4
cat > "$TMP/width.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mu 1 714 408
F 0
md 1 770 408
F 0
mm 788 408 19 0
F 0
mu 1 788 408
F 1 20
REC
run width 40
expected='-  platform:box{ w = 3, h = 0.5, friction = 0.5 }
+  platform:box{ w = 4, h = 0.5, friction = 0.5 }'
got=$(changes width)
check "the width handle writes w" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show width; }
# the rotate handle stands 24 pixels above the top (3.25): pixel (720, 406);
# dragged to 45 degrees right of up, it turns the body by -45 degrees, and
# the absent angle is added to the constructor
cat > "$TMP/rotate.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mu 1 714 408
F 0
md 1 714 377
F 0
mm 749 373 34 -4
F 0
mu 1 749 373
F 1 20
REC
run rotate 40
expected='-  platform = world:body{ type = "static", x = 2, y = 3 }
+  platform = world:body{ type = "static", x = 2, y = 3, angle = -0.7853982 }'
got=$(changes rotate)
check "the rotate handle adds angle, snapped to 15 degrees" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show rotate; }

# ---- handles with no property: a segment's end, a joint's anchor ----
# the wire's line at (-12, 1): pixel (160, 520); its second end (-11, 1) is
# pixel (200, 520), dragged to (240, 480): (2, 1) in the body's frame
cat > "$TMP/ends.rec" <<REC
$header
F 1 10
$f12
md 1 195 482
F 0
mu 1 195 482
F 0
md 1 232 482
F 0
mm 269 445 37 -37
F 0
mu 1 269 445
F 1 20
REC
run ends 40
expected='-  wire:segment{ x1 = -1, y1 = 0, x2 = 1, y2 = 0 }
+  wire:segment{ x1 = -1, y1 = 0, x2 = 2, y2 = 1 }'
got=$(changes ends)
check "a segment's end handle writes its x2 and y2" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show ends; }
# the joint's anchor at (6, 1): pixel (880, 520) is under the inspector once
# something is selected, so the camera's view of it is the first click only:
# the click selects the joint, the drag starts on its anchor handle
cat > "$TMP/anchor.rec" <<REC
$header
F 0
$f12
md 1 863 482
F 0
mm 788 445 -74 -37
F 0
mu 1 788 445
F 1 20
REC
run anchor 40
expected='-  world:joint{ kind = "revolute", a = platform, b = bob, x = 6, y = 1 }
+  world:joint{ kind = "revolute", a = platform, b = bob, x = 4, y = 2 }'
got=$(changes anchor)
check "a joint's anchor handle writes its x and y" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show anchor; }

# ---- the inspector: a typed number, a scrubbed one ----
cat > "$TMP/typed.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mu 1 714 408
F 0
md 1 900 54
F 0
mu 1 900 54
F 0
tx 2d312e3235
kd return
F 0
ku return
F 1 20
REC
run typed 40
expected='-  platform = world:body{ type = "static", x = 2, y = 3 }
+  platform = world:body{ type = "static", x = -1.25, y = 3 }'
got=$(changes typed)
check "inspector: a number typed into x is written" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show typed; }
# line 2 (y) dragged 15 pixels right: 15 grid steps of 0.1
cat > "$TMP/scrub.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mu 1 714 408
F 0
md 1 900 66
F 0
mm 915 66 15 0
F 0
mu 1 915 66
F 1 20
REC
run scrub 40
expected='-  platform = world:body{ type = "static", x = 2, y = 3 }
+  platform = world:body{ type = "static", x = 2, y = 4.5 }'
got=$(changes scrub)
check "inspector: a number scrubbed sideways is written" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show scrub; }

# ---- the timeline in edit mode: back half a second, move, go on ----
# 60 frames, edit mode, Page Up shows frame 30, the move rebuilds the level
# up to that moment, and leaving edit mode goes on from it (the 30 steps
# after it dropped): 30 steps and 20 more (89 frames: the recording's own)
cat > "$TMP/rewind.rec" <<REC
$header
F 1 60
$f12
kd pageup
F 0
ku pageup
F 0
md 1 714 408
F 0
mm 751 409 37 1
F 0
mu 1 751 409
F 0
$f12
F 1 20
REC
run rewind 89
expected='-  platform = world:body{ type = "static", x = 2, y = 3 }
+  platform = world:body{ type = "static", x = 3, y = 3 }'
got=$(changes rewind)
check "timeline: a move while looking back writes the source" '[ "$got" = "$expected" ]'
[ "$got" = "$expected" ] || { echo "$got" | sed 's/^/# got: /'; show rewind; }
check "timeline: leaving edit mode goes on from the moment shown" \
	"grep -q 'rewound to frame 30: going on from there (the 30 steps after it dropped)' '$TMP/rewind.err' && grep -q '^frames=89 steps=50 ' '$TMP/rewind.out' && grep -q '^frame 40 platform 3.000 3.000 ' '$TMP/rewind.out'"

# the same session recorded: the recording keeps the looking back and the
# edit made there, and its replay writes the same file and ends in the same world
cp "$TMP/rewind.rec" "$TMP/rewrec.rec"
run rewrec 89 "--record $TMP/rewind_again.rec"
cp "$TMP/rewind_again.rec" "$TMP/rewrep.rec"
run rewrep 89
check "timeline: a recorded session that edited while looking back replays to the same file" \
	"cmp -s '$TMP/rewind/level.lua' '$TMP/rewrep/level.lua' && grep -q 'x = 3: written' '$TMP/rewrep.err'"
h1=$(grep '^frames=' "$TMP/rewrec.out" | sed 's/ time=[^ ]*//'); h2=$(grep '^frames=' "$TMP/rewrep.out" | sed 's/ time=[^ ]*//')
check "timeline: ... and to the same world ($h1)" '[ -n "$h1" ] && [ "$h1" = "$h2" ]'
check "timeline: ... entering and leaving edit mode once, as the session did" \
	"[ \$(grep -c 'edit mode: click' '$TMP/rewrep.err') -eq 1 ] && [ \$(grep -c 'left edit mode' '$TMP/rewrep.err') -eq 1 ]"

# ---- a flag in the inspector: flipped in the running world, not written ----
# line 10 of the platform's lines is bullet (header, x, y, angle, vx, vy,
# spin, type, awake, enabled, bullet): y = 36 + 10 * 12
cat > "$TMP/flag.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mu 1 714 408
F 0
md 1 900 162
F 0
mu 1 900 162
F 1 20
REC
run flag 40
check "inspector: a click on false flips it in the running world only, and says why" \
	"cmp -s '$FIXTURE' '$TMP/flag/level.lua' && grep -q 'body 2.bullet = true in the running world only, not saved (true and false are not written back)' '$TMP/flag.err'"

# ---- Escape clears a selection and does not quit; with none, it quits ----
cat > "$TMP/escape.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mu 1 714 408
F 0
kd escape
F 0
ku escape
F 1 20
REC
run escape 40
check "escape with a selection: the run goes on to its last frame" "[ $(rc escape) -eq 0 ] && grep -q '^frames=40 ' '$TMP/escape.out'"
cat > "$TMP/escape2.rec" <<REC
$header
F 1 10
$f12
md 1 714 408
F 0
mu 1 714 408
F 0
kd escape
F 0
ku escape
F 1 5
kd escape
F 0
ku escape
F 1 20
REC
run escape2 60
check "escape with nothing selected: quits as always (at frame 21 of 60)" "grep -q '^frames=21 ' '$TMP/escape2.out'"

# ---- --record holds an editing session; its replay writes the same bytes ----
# (37 frames: the recording's own, so nothing is recorded after it ends)
cp "$TMP/move.rec" "$TMP/record.rec"
run record 37 "--record $TMP/again.rec"
check "re-recording an editing session reproduces the recording" "cmp -s '$TMP/move.rec' '$TMP/again.rec'"
diff "$TMP/move.rec" "$TMP/again.rec" | sed 's/^/# /' | head
cp "$TMP/again.rec" "$TMP/replayed.rec"
run replayed 40
check "the recorded session replays to the same file, byte for byte" "cmp -s '$TMP/move/level.lua' '$TMP/replayed/level.lua'"

echo "1..$n"
