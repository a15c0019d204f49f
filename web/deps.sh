#!/usr/bin/env bash
# Brings Lua's and SDL's C sources from Debian's source packages (apt-get
# source, with an apt configuration of its own so the machine's is untouched)
# and builds them for emscripten into DEPS (build/web/deps): DEPS/include and
# DEPS/lib/{liblua.a,libSDL2.a}. Each step is skipped when its output exists,
# so only the first `make web` pays for it. Nothing here goes into the
# repository. Usage: web/deps.sh DEPS
set -euo pipefail
DEPS=${1:?usage: web/deps.sh DEPS}
mkdir -p "$DEPS"
DEPS=$(cd "$DEPS" && pwd)
EMCC=${EMCC:-emcc}
JOBS=${JOBS:-2}
say() { echo "web: $*"; }

# ---- 1. sources --------------------------------------------------------------
if [ ! -f "$DEPS/src/.fetched" ]; then
  rm -rf "$DEPS/src" "$DEPS/apt"
  mkdir -p "$DEPS/src" "$DEPS/apt/lists/partial" "$DEPS/apt/cache/archives/partial"
  # deb-src lines for the suites the machine's own sources name (Debian 12)
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  mirror=${TUMBLE_DEBIAN_MIRROR:-http://deb.debian.org}
  cat > "$DEPS/apt/sources.list" <<LIST
deb-src [signed-by=$keyring] $mirror/debian bookworm main
deb-src [signed-by=$keyring] $mirror/debian bookworm-updates main
deb-src [signed-by=$keyring] $mirror/debian-security bookworm-security main
LIST
  apt=(apt-get -q -o "Dir::Etc::SourceList=$DEPS/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
       -o "Dir::State::Lists=$DEPS/apt/lists" -o "Dir::Cache=$DEPS/apt/cache" -o Debug::NoLocking=1
       -o APT::Sandbox::User=root)
  say "fetching the source package index (apt-get update, private lists in $DEPS/apt)"
  "${apt[@]}" update > "$DEPS/apt/update.log" 2>&1 || { cat "$DEPS/apt/update.log"; exit 1; }
  (cd "$DEPS/src" && "${apt[@]}" source --download-only lua5.4 libsdl2 > "$DEPS/apt/source.log" 2>&1) ||
    { cat "$DEPS/apt/source.log"; exit 1; }
  for dsc in "$DEPS"/src/lua5.4_*.dsc "$DEPS"/src/libsdl2_*.dsc; do
    name=$(basename "$dsc" .dsc)
    case $name in lua5.4_*) dir=lua ;; *) dir=sdl ;; esac
    # the archives were checked against the signed index apt fetched
    dpkg-source --no-check -x "$dsc" "$DEPS/src/$dir" > /dev/null
    say "fetched $name (Debian source package, with Debian's patches) into $DEPS/src/$dir"
  done
  ls "$DEPS"/src/*.dsc | xargs -n1 basename > "$DEPS/src/.fetched"
fi

# ---- 2. Lua -----------------------------------------------------------------
if [ ! -f "$DEPS/lib/liblua.a" ]; then
  say "building Lua for wasm"
  mkdir -p "$DEPS/lua-obj" "$DEPS/lib" "$DEPS/include"
  srcs=()
  for f in "$DEPS"/src/lua/src/*.c; do
    case $(basename "$f") in lua.c|luac.c) ;; *) srcs+=("$f") ;; esac
  done
  # Debian's luaconf.h names the multiarch triplet in a header of its build
  echo '#define DEB_HOST_MULTIARCH "wasm32-emscripten"' > "$DEPS/include/lua5.4-deb-multiarch.h"
  # as Debian builds it (LUA_COMPAT_5_3), with POSIX but no dlopen
  printf '%s\n' "${srcs[@]}" | xargs -P "$JOBS" -I{} sh -c \
    '"$0" -O2 -ffp-contract=off -DLUA_COMPAT_5_3 -DLUA_USE_POSIX -I"$2/include" -w -c "$1" -o "$2/lua-obj/$(basename "$1" .c).o"' \
    "$EMCC" {} "$DEPS"
  emar rcs "$DEPS/lib/liblua.a.tmp" "$DEPS"/lua-obj/*.o
  for h in lua.h luaconf.h lualib.h lauxlib.h; do cp "$DEPS/src/lua/src/$h" "$DEPS/include/"; done
  mv "$DEPS/lib/liblua.a.tmp" "$DEPS/lib/liblua.a"
fi

# ---- 3. SDL -------------------------------------------------------------------
# emscripten 3.1.6's SDL2 port lists the files of SDL 2.0.20 and cannot build
# Debian's 2.26 (it misses SDL_guid.c, SDL_list.c, ...), so SDL is built with its
# own CMake support for Emscripten. Configuring runs ~300 checks through emcc
# (about 3 minutes); the library is kept.
if [ ! -f "$DEPS/lib/libSDL2.a" ]; then
  say "building SDL for wasm (SDL's CMake; the configure step takes a few minutes)"
  command -v cmake > /dev/null || { echo "web: cmake is needed to build SDL (apt-get install cmake)"; exit 1; }
  rm -rf "$DEPS/sdl-build"
  emcmake cmake -S "$DEPS/src/sdl" -B "$DEPS/sdl-build" -DCMAKE_BUILD_TYPE=Release \
    -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DSDL2_DISABLE_SDL2MAIN=ON -DSDL2_DISABLE_UNINSTALL=ON \
    -DSDL_AUDIO=OFF -DSDL_HAPTIC=OFF -DSDL_HIDAPI=OFF -DSDL_SENSOR=OFF -DSDL_POWER=OFF -DSDL_LOCALE=OFF \
    -DSDL_THREADS=OFF -DCMAKE_INSTALL_PREFIX="$DEPS" > "$DEPS/sdl-configure.log" 2>&1 ||
    { tail -40 "$DEPS/sdl-configure.log"; exit 1; }
  cmake --build "$DEPS/sdl-build" -j "$JOBS" > "$DEPS/sdl-build.log" 2>&1 || { tail -40 "$DEPS/sdl-build.log"; exit 1; }
  cmake --install "$DEPS/sdl-build" > "$DEPS/sdl-install.log" 2>&1 || { tail -20 "$DEPS/sdl-install.log"; exit 1; }
fi
