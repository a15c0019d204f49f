#!/usr/bin/env bash
# Every ```lua block of README.md and lua/REFERENCE.md (and lua/LEVELKIT.md)
# runs in the context its page marks (docs_blocks.lua says how), and fails
# the suite when it errors.
set -u
ROOT=${TUMBLE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${TUMBLE_BIN:-$ROOT/tumble}
SO_DIR=${TUMBLE_SO_DIR:-$ROOT}
case $BIN in /*) ;; *) BIN="$PWD/$BIN" ;; esac
case $SO_DIR in /*) ;; *) SO_DIR="$PWD/$SO_DIR" ;; esac
# a sanitized tumble.so in plain lua5.4 needs the sanitizer runtime first
PRELOAD=
[ -n "${TUMBLE_SANITIZE:-}" ] && PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
export DOCS_LUA_PRELOAD=$PRELOAD
# the blocks' saves (tumble.save) go to a folder of their own
TUMBLE_DATA_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tumble-docs-saves.XXXXXX")
export TUMBLE_DATA_DIR
trap '[ "$BASHPID" = "$$" ] && rm -rf "$TUMBLE_DATA_DIR"' EXIT
pages=("$ROOT/README.md" "$ROOT/lua/REFERENCE.md")
[ -f "$ROOT/lua/LEVELKIT.md" ] && pages+=("$ROOT/lua/LEVELKIT.md")
lua5.4 "$ROOT/tests/playtest/docs_blocks.lua" "$ROOT" "$BIN" "$SO_DIR" "${pages[@]}"
