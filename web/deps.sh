#!/usr/bin/env bash
# Brings the C sources of Lua, SDL, SDL_image and SDL_mixer from Debian's
# source packages (apt-get source, with an apt configuration of its own so the
# machine's is untouched) and builds them for emscripten into DEPS
# (build/web/deps): DEPS/include and DEPS/lib/{liblua.a, libSDL2.a,
# libSDL2_image.a, libSDL2_mixer.a}. Each step is skipped when its output
# exists, so only the first `make web` pays for it. Nothing here goes into the
# repository. Usage: web/deps.sh DEPS
set -euo pipefail
DEPS=${1:?usage: web/deps.sh DEPS}
mkdir -p "$DEPS"
DEPS=$(cd "$DEPS" && pwd)
# what this script builds, and how: a cache made by another recipe is rebuilt
RECIPE=2
if [ "$(cat "$DEPS/.recipe" 2>/dev/null)" != "$RECIPE" ]; then
  rm -rf "$DEPS/src" "$DEPS/lib" "$DEPS/include" "$DEPS"/*-build "$DEPS/lua-obj"
  echo "$RECIPE" > "$DEPS/.recipe"
fi
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
  (cd "$DEPS/src" && "${apt[@]}" source --download-only lua5.4 libsdl2 libsdl2-image libsdl2-mixer \
     > "$DEPS/apt/source.log" 2>&1) || { cat "$DEPS/apt/source.log"; exit 1; }
  for dsc in "$DEPS"/src/*.dsc; do
    name=$(basename "$dsc" .dsc)
    case $name in
      lua5.4_*) dir=lua ;;
      libsdl2_*) dir=sdl ;;
      libsdl2-image_*) dir=sdl-image ;;
      libsdl2-mixer_*) dir=sdl-mixer ;;
      *) continue ;;
    esac
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

# ---- 3. SDL, SDL_image, SDL_mixer -------------------------------------------
# emscripten 3.1.6's SDL2 port lists the files of SDL 2.0.20 and cannot build
# Debian's 2.26 (it misses SDL_guid.c, SDL_list.c, ...), so SDL is built with its
# own CMake support for Emscripten. Configuring runs ~300 checks through emcc
# (about 3 minutes); the library is kept. SDL_image and SDL_mixer use the
# decoders they carry (stb_image and miniz: PNG, JPEG, GIF, BMP, saving PNG;
# stb_vorbis: WAV and OGG), as the native host's formats need.
cmake_build() { # NAME SRC [ARGS...]: configure, build and install into DEPS
  local name=$1 src=$2; shift 2
  command -v cmake > /dev/null || { echo "web: cmake is needed to build $name (apt-get install cmake)"; exit 1; }
  rm -rf "$DEPS/$name-build"
  emcmake cmake -S "$src" -B "$DEPS/$name-build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$DEPS" "$@" \
    > "$DEPS/$name-configure.log" 2>&1 || { tail -40 "$DEPS/$name-configure.log"; exit 1; }
  cmake --build "$DEPS/$name-build" -j "$JOBS" > "$DEPS/$name-build.log" 2>&1 || { tail -40 "$DEPS/$name-build.log"; exit 1; }
  cmake --install "$DEPS/$name-build" > "$DEPS/$name-install.log" 2>&1 || { tail -20 "$DEPS/$name-install.log"; exit 1; }
}
if [ ! -f "$DEPS/lib/libSDL2.a" ]; then
  say "building SDL for wasm (SDL's CMake; the configure step takes a few minutes)"
  cmake_build sdl "$DEPS/src/sdl" -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DSDL2_DISABLE_SDL2MAIN=ON \
    -DSDL2_DISABLE_UNINSTALL=ON -DSDL_HAPTIC=OFF -DSDL_HIDAPI=OFF -DSDL_SENSOR=OFF -DSDL_POWER=OFF \
    -DSDL_LOCALE=OFF -DSDL_THREADS=OFF
fi
if [ ! -f "$DEPS/lib/libSDL2_image.a" ]; then
  say "building SDL_image for wasm"
  cmake_build sdl-image "$DEPS/src/sdl-image" -DBUILD_SHARED_LIBS=OFF -DSDL2IMAGE_SAMPLES=OFF \
    -DSDL2IMAGE_VENDORED=OFF -DSDL2IMAGE_DEPS_SHARED=OFF -DSDL2IMAGE_BACKEND_STB=ON -DSDL2IMAGE_JPG_SAVE=OFF \
    -DSDL2IMAGE_SVG=OFF -DSDL2IMAGE_XCF=OFF -DSDL2IMAGE_XPM=OFF -DSDL2IMAGE_XV=OFF -DSDL2IMAGE_LBM=OFF \
    -DSDL2IMAGE_PCX=OFF -DSDL2IMAGE_PNM=OFF -DSDL2IMAGE_TGA=OFF -DSDL2IMAGE_QOI=OFF -DSDL2_DIR="$DEPS/lib/cmake/SDL2"
fi
if [ ! -f "$DEPS/lib/libSDL2_mixer.a" ]; then
  say "building SDL_mixer for wasm"
  cmake_build sdl-mixer "$DEPS/src/sdl-mixer" -DBUILD_SHARED_LIBS=OFF -DSDL2MIXER_SAMPLES=OFF \
    -DSDL2MIXER_VENDORED=OFF -DSDL2MIXER_DEPS_SHARED=OFF -DSDL2MIXER_CMD=OFF -DSDL2MIXER_FLAC=OFF \
    -DSDL2MIXER_MOD=OFF -DSDL2MIXER_MP3=OFF -DSDL2MIXER_MIDI=OFF -DSDL2MIXER_OPUS=OFF -DSDL2MIXER_VORBIS=STB \
    -DSDL2MIXER_WAVE=ON -DSDL2_DIR="$DEPS/lib/cmake/SDL2"
fi
