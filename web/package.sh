#!/usr/bin/env bash
# Packs the page's data, WEB/tumble.data with its loader WEB/tumble.data.js:
# lua/ and examples/ under /tumble, and the level LEVEL names (a .lua file, or a
# folder: its main.lua, else its first .lua file) under /tumble/levels/NAME, with
# /tumble/levels/START naming the level the page opens first. A level folder
# goes in whole (its modules and assets), hidden files left out.
# Usage: web/package.sh WEB [LEVEL]
set -euo pipefail
WEB=${1:?usage: web/package.sh WEB [LEVEL]}
LEVEL=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
stage="$WEB/stage"
rm -rf "$stage"
mkdir -p "$stage/levels"
copy() { # SRC DEST: a folder's files, without hidden ones
  mkdir -p "$2"
  (cd "$1" && find . -mindepth 1 -name '.*' -prune -o -type f -print | tar -cf - --files-from=-) | tar -C "$2" -xf -
}
mkdir -p "$stage/lua"
for f in "$ROOT"/lua/*.lua; do case $f in *.d.lua) ;; *) cp "$f" "$stage/lua/" ;; esac; done
copy "$ROOT/examples" "$stage/examples"
if [ -n "$LEVEL" ]; then
  if [ -f "$LEVEL" ]; then
    dir=$(cd "$(dirname "$LEVEL")" && pwd); start=$(basename "$LEVEL")
  elif [ -d "$LEVEL" ]; then
    dir=$(cd "$LEVEL" && pwd)
    if [ -f "$dir/main.lua" ]; then start=main.lua
    else start=$(cd "$dir" && ls -1 ./*.lua 2>/dev/null | head -1 | sed 's|^\./||'); fi
    [ -n "$start" ] || { echo "web: LEVEL=$LEVEL holds no .lua file" >&2; exit 1; }
  else
    echo "web: LEVEL=$LEVEL is neither a .lua file nor a folder" >&2; exit 1
  fi
  name=$(basename "$dir")
  [ "$dir" = "$ROOT/examples" ] && name=examples
  size=$(du -sk "$dir" | cut -f1)
  [ "$size" -le 65536 ] || { echo "web: LEVEL folder $dir is $size KB; the page's data keeps under 64 MB" >&2; exit 1; }
  copy "$dir" "$stage/levels/$name"
  echo "levels/$name/$start" > "$stage/levels/START"
  echo "web: the page opens levels/$name/$start (from $dir)"
fi
python3 "$(em-config EMSCRIPTEN_ROOT)/tools/file_packager.py" "$WEB/tumble.data" --preload "$stage@/tumble" \
  --js-output="$WEB/tumble.data.js.tmp" > "$WEB/package.log" 2>&1 || { cat "$WEB/package.log" >&2; exit 1; }
mv "$WEB/tumble.data.js.tmp" "$WEB/tumble.data.js"
