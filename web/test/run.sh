#!/usr/bin/env bash
# make web-test: the wasm build against the native one, in TAP.
#  - the reference scene (tests/physics/ref_scene.h) hashes in wasm to the
#    value tests/physics/test_math.c pins;
#  - every example runs 600 frames headless in node with the native hash;
#  - a recording made by the native host in a real window (slingshot.rec: two
#    shots, the overlay, a block dragged with the mouse, a reset) replays in
#    wasm with the native frame and step counts and hash, and re-recording it
#    in wasm gives the same file;
#  - the page, served on 127.0.0.1 to headless Chromium (page.mjs), also as
#    `tumble --package` packs it for a game folder.
# Needs ./tumble and build/web (make all web web-node).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
WEB=${WEB:-build/web}
NODE="node --no-experimental-fetch"
NATIVE="$ROOT/tumble"
WASM="$ROOT/$WEB/node/tumble.js"
TMP=$(mktemp -d); trap '[ "$BASHPID" = "$$" ] && rm -rf "$TMP"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
hash_of() { sed -n 's/.*hash=\([0-9a-f]*\).*/\1/p' "$1"; }
# the node build finds lua/ through LUA_PATH (the native one looks beside its binary)
export LUA_PATH="$ROOT/lua/?.lua;$ROOT/lua/?/init.lua;;"

pinned=$(sed -n 's/^#define REF_SCENE_HASH 0x\([0-9a-f]*\)ull.*/\1/p' tests/physics/test_math.c)
got=$($NODE "$WEB/node/ref_hash.js" 2>&1)
if [ -n "$pinned" ] && [ "$got" = "$pinned" ]; then ok "reference scene in wasm: $got, as pinned"
else not_ok "reference scene in wasm: '$got', pinned '$pinned'"; fi

for level in examples/*.lua; do
  name=$(basename "$level" .lua)
  "$NATIVE" --headless --frames 600 "$level" > "$TMP/$name.native" 2> "$TMP/$name.native.err"
  $NODE "$WASM" --headless --frames 600 "$level" > "$TMP/$name.wasm" 2> "$TMP/$name.wasm.err"
  a=$(hash_of "$TMP/$name.native"); b=$(hash_of "$TMP/$name.wasm")
  if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "$name: 600 frames in node, hash $b as native"
  else
    not_ok "$name: native '$a', wasm '$b'"
    tail -5 "$TMP/$name.native.err" "$TMP/$name.wasm.err" | cut -c1-300 | sed 's/^/# /'
  fi
done

rec=web/test/slingshot.rec
frames=$(awk '$1 == "F" { n += ($3 == "" ? 1 : $3) } END { print n }' "$rec")
"$NATIVE" --headless --frames "$frames" --replay "$rec" examples/slingshot.lua > "$TMP/rec.native" 2>&1
$NODE "$WASM" --headless --frames "$frames" --replay "$rec" --record "$TMP/again.rec" examples/slingshot.lua \
  > "$TMP/rec.wasm" 2> "$TMP/rec.wasm.err"
a=$(sed -n 's/ time=[^ ]*//p' "$TMP/rec.native"); b=$(sed -n 's/ time=[^ ]*//p' "$TMP/rec.wasm")
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "native window recording replays in wasm: $b"
else not_ok "native window recording: native '$a', wasm '$b'"; tail -5 "$TMP/rec.wasm.err" | cut -c1-300 | sed 's/^/# /'; fi
if cmp -s "$rec" "$TMP/again.rec"; then ok "re-recording the replay in wasm reproduces the native file"
else not_ok "re-recording the replay in wasm differs from the native file"; fi
# and the other way: a recording written by wasm replays natively
if [ -s "$TMP/again.rec" ]; then
  "$NATIVE" --headless --frames "$frames" --replay "$TMP/again.rec" examples/slingshot.lua > "$TMP/back.native" 2>&1
  c=$(sed -n 's/ time=[^ ]*//p' "$TMP/back.native")
  if [ "$c" = "$a" ]; then ok "the wasm recording replays natively to the same hash"
  else not_ok "the wasm recording replayed natively: '$c', want '$a'"; fi
else
  not_ok "the wasm run wrote no recording"
fi

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "# the page's tests skipped: no ${CHROMIUM:-/usr/bin/chromium} (apt-get install chromium)"
elif [ -f "$WEB/index.html" ]; then
  native_rec_hash=$(hash_of "$TMP/rec.native")
  # a second site: the same build packed with LEVEL= a folder of the user's
  # (a main.lua that requires a module beside it)
  mkdir -p "$TMP/mylevel" "$TMP/site"
  cat > "$TMP/mylevel/helper.lua" <<'LUA'
return { width = 6 }
LUA
  cat > "$TMP/mylevel/main.lua" <<'LUA'
local helper = require "helper"
local level = {}
function level.load(world)
  local ground = world:body{ type = "static" }
  ground:box{ w = 20, h = 1, y = -0.5 }
  for i = 1, 5 do
    world:body{ type = "dynamic", x = -4 + 2 * i, y = 2 + i }:box{ w = helper.width / 6, h = 1 }
  end
end
return level
LUA
  for f in index.html shell.js tumble.js tumble.wasm; do ln -s "$ROOT/$WEB/$f" "$TMP/site/$f"; done
  if bash web/package.sh "$TMP/site" "$TMP/mylevel" > "$TMP/package.out" 2>&1; then
    ok "make web LEVEL=folder packs it: $(tail -1 "$TMP/package.out" | sed 's/^web: //')"
  else
    not_ok "web/package.sh with a level folder"; sed 's/^/# /' "$TMP/package.out"
  fi
  # a third: the same folder through `tumble --package`, its web/ moved away
  # from the package (the page needs only what is in that folder)
  if "$NATIVE" --package "$TMP/mylevel" "$TMP/pkg" > "$TMP/pkg.out" 2>&1 && [ -f "$TMP/pkg/web/tumble.data" ]; then
    mv "$TMP/pkg/web" "$TMP/pkgweb"
    ok "tumble --package packs the browser build: $(grep '^package: browser' "$TMP/pkg.out" | cut -c1-80)"
  else
    not_ok "tumble --package packs the browser build"; sed 's/^/# /' "$TMP/pkg.out"
  fi
  # 600 frames of one step and no input, as a replay the page can load: each
  # example's native hash for it
  printf 'tumble-input 1\nview 1280 720\nF 1 600\n' > "$TMP/flat600.rec"
  example_hashes=""
  for level in examples/*.lua; do
    h=$("$NATIVE" --headless --frames 600 --replay "$TMP/flat600.rec" "$level" 2> /dev/null | sed -n 's/.*hash=//p')
    example_hashes="$example_hashes $level=$h"
  done
  EXAMPLE_HASHES="$example_hashes" FLAT_REPLAY="$TMP/flat600.rec" \
  NATIVE_REPLAY_HASH="$native_rec_hash" REPLAY_FILE="$ROOT/$rec" REPLAY_FRAMES="$frames" \
    WEB_ROOT="$ROOT/$WEB" LEVEL_WEB_ROOT="$TMP/site" PACKAGE_WEB_ROOT="$TMP/pkgweb" NODE_PATH="$ROOT/$WEB/npm/node_modules" \
    node web/test/page.mjs > "$TMP/page.tap" 2> "$TMP/page.err"
  rc=$?
  while IFS= read -r line; do
    case $line in
      "ok - "*) ok "${line#ok - }" ;;
      "not ok - "*) not_ok "${line#not ok - }" ;;
      *) echo "$line" ;;
    esac
  done < "$TMP/page.tap"
  if [ $rc -ne 0 ]; then not_ok "the browser test ran to its end (exit $rc)"; sed 's/^/# /' "$TMP/page.err" | tail -20; fi
fi
echo "1..$n"
