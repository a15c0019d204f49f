#!/usr/bin/env bash
# Security suite, class "save data": tumble.save and tumble.load_save write and
# read only <name>.save files in the game's folder (TUMBLE_DATA_DIR/<game>
# here), as data (never run), within their limits: a link, a FIFO or a huge
# file in that folder is refused at once, a save that grows past 1 MB or a
# game past 64 saves is a clear error, and --sandbox refuses save data.
. "$(dirname "$0")/lib.sh"
export TUMBLE_DATA_DIR="$TMP/data"
mkdir -p "$TMP/outside"
echo "secret" > "$TMP/outside/target.txt"
# game folder NAME: the save folder of the level written by `level NAME`
game() { mkdir -p "$TUMBLE_DATA_DIR/$1"; echo "$TUMBLE_DATA_DIR/$1"; }

ln -s "$TMP/outside/target.txt" "$(game link_read)/link.save"
L=$(level link_read <<'EOF'
tumble.load_save("link")
EOF
)
host_case "saves: a save that is a symbolic link is not followed" error "cannot open .*link.save" 20 0 "$L"

ln -s "$TMP/outside/target.txt" "$(game link_write)/link.save"
L=$(level link_write <<'EOF'
tumble.save("link", { 1 })
tumble.exit(0, "saved over the link")
EOF
)
host_case "saves: saving over a link replaces the link, not what it points at" ok "saved over the link" 20 0 "$L"
N=$((N + 1))
if [ "$(cat "$TMP/outside/target.txt")" = "secret" ] && [ ! -L "$TUMBLE_DATA_DIR/link_write/link.save" ]; then
  echo "ok $N - saves: the link's target is unchanged"
else
  echo "not ok $N - saves: the link's target is unchanged"
fi

mkfifo "$(game fifo)/fifo.save"
L=$(level fifo <<'EOF'
tumble.load_save("fifo")
EOF
)
host_case "saves: a FIFO named like a save is refused at once (no hang)" error "not a regular file" 20 0 "$L"

head -c $((8 * 1024 * 1024)) /dev/zero | tr '\0' '{' > "$(game huge)/huge.save"
L=$(level huge <<'EOF'
tumble.load_save("huge")
EOF
)
host_case "saves: an 8 MB save file is refused before it is read" error "at most 1048576 bytes" 20 200 "$L"

head -c $((1000 * 1000)) /dev/zero | tr '\0' '{' > "$(game nested)/n.save"
L=$(level nested <<'EOF'
tumble.load_save("n")
EOF
)
host_case "saves: a million nested tables in a file: damaged, not a C stack overflow" error "tables nested too deep" 20 200 "$L"

L=$(level grows <<'EOF'
local t = {}
for i = 1, 2000000 do t[i] = i end
tumble.save("grows", t)
EOF
)
host_case "saves: a table of 2 million numbers is refused at 1 MB of text" error "more than 1048576 bytes of text" 60 400 "$L"

L=$(level dag <<'EOF'
local t = { 1 }
for _ = 1, 60 do t = { t, t } end -- 2^60 paths through shared tables
tumble.save("dag", t)
EOF
)
host_case "saves: shared subtables 2^60 paths deep stop at the size limit, quickly" error "more than 1048576 bytes of text" 60 200 "$L"

L=$(level many <<'EOF'
for i = 1, 200 do tumble.save("s" .. i, { i }) end
EOF
)
host_case "saves: at most 64 saves a game" error "save number 65; at most 64" 60 0 "$L"
N=$((N + 1))
count=$(ls "$TUMBLE_DATA_DIR/many" | wc -l)
if [ "$count" -eq 64 ]; then echo "ok $N - saves: the 65th is not written ($count files)"; else echo "not ok $N - saves: $count files, 64 expected"; fi

L=$(level traversal <<'EOF'
for _, name in ipairs({ "../level/x", "/etc/passwd", "..", "a\\b", "" }) do
  assert(not pcall(tumble.save, name, {}))
  assert(not pcall(tumble.load_save, name))
end
tumble.exit(0, "every traversal refused")
EOF
)
host_case "saves: names with separators or '..' are refused" ok "every traversal refused" 20 0 "$L"

L=$(level sandboxed <<'EOF'
tumble.save("x", { 1 })
EOF
)
host_case "saves: --sandbox refuses save data clearly" error "save data is off under --sandbox" 20 0 --sandbox "$L"

finish
