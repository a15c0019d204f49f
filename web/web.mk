# tumble in the browser (included from the Makefile).
#   make web [LEVEL=path]  build/web/: index.html, tumble.js, tumble.wasm and
#                          tumble.data (lua/, examples/ and the LEVEL folder);
#                          serve it with any static file server
#   make web-test          wasm against native: every example's 600-frame hash
#                          in node, a native recording replayed, the reference
#                          scene's pinned hash, and the page in headless Chromium
#   make web-bench         wasm and data size, ms/step of the bench scenes in
#                          node against native
# Needs Debian's emscripten (3.1.6) and cmake; the first build fetches the
# sources of Lua, SDL, SDL_image and SDL_mixer (web/deps.sh) and keeps what it
# built in build/web/deps.

WEB       := build/web
WEB_DEPS  := $(WEB)/deps
WEB_OBJ   := $(WEB)/obj
EMCC      ?= emcc
# emcc's optimiser needs Debian's acorn, outside node's default search path.
# (Its output trips over node 20's built-in fetch: the scripts that run it in
# node pass --no-experimental-fetch.)
WEB_ENV   := NODE_PATH=/usr/share/nodejs
LEVEL     ?=

# The same sources and the same rules for numbers as the native build: no
# contraction, IEEE order of operations. -msse2 maps the wide contact solver's
# SSE2 intrinsics onto wasm SIMD (each one an IEEE lane operation).
WEB_CFLAGS := -std=c11 -O2 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
              -ffp-contract=off -fno-strict-aliasing -msimd128 -msse2 -D_GNU_SOURCE -DTH_NO_TTF -MMD -MP
WEB_INC    := -I$(WEB_DEPS)/include -I$(WEB_DEPS)/include/SDL2
WEB_LIBS   := $(WEB_DEPS)/lib/liblua.a $(WEB_DEPS)/lib/libSDL2_image.a $(WEB_DEPS)/lib/libSDL2_mixer.a \
              $(WEB_DEPS)/lib/libSDL2.a
WEB_LDFLAGS := -O2 -sALLOW_MEMORY_GROWTH=1 -sWASM=1

WEB_PHYS_OBJ := $(PHYS_SRC:%.c=$(WEB_OBJ)/%.o)
WEB_LUA_OBJ  := $(LUA_SRC:%.c=$(WEB_OBJ)/%.o)
WEB_HOST_OBJ := $(HOST_SRC:%.c=$(WEB_OBJ)/%.o)
WEB_CORE_OBJ := $(WEB_PHYS_OBJ) $(WEB_LUA_OBJ) $(WEB_HOST_OBJ)

.PHONY: web web-node web-npm web-test web-test-build web-bench web-deps web-check web-data

web-check:
	@command -v $(EMCC) > /dev/null || { echo "web: emscripten is not installed (apt-get install emscripten cmake, or TUMBLE_WEB=1 bash .ci/install-deps)"; exit 1; }

$(WEB_LIBS) &: web/deps.sh | web-check
	@EMCC=$(EMCC) $(WEB_ENV) bash web/deps.sh $(WEB_DEPS)
	@touch $(WEB_LIBS)

web-deps: $(WEB_LIBS)

# Objects wait for the dependencies, whose headers they include.
$(WEB_OBJ)/src/physics/%.o: src/physics/%.c | $(WEB_LIBS)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -Iinclude -c $< -o $@

$(WEB_OBJ)/src/%.o: src/%.c | $(WEB_LIBS)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -Iinclude $(WEB_INC) -c $< -o $@

$(WEB_OBJ)/web/%.o: web/%.c | $(WEB_LIBS)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -Wno-unused-function -Iinclude -Itests/physics -c $< -o $@

# ---- node: the command line, headless (the tests' and the bench's runner) ----

WEB_NODE_FLAGS := $(WEB_LDFLAGS) -sENVIRONMENT=node -sNODERAWFS=1 -sEXIT_RUNTIME=1 --pre-js web/node-env.js

$(WEB)/node/tumble.js: $(WEB_CORE_OBJ) $(WEB_OBJ)/src/main.o $(WEB_LIBS) web/node-env.js web/web.mk
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_NODE_FLAGS) -o $@ $(WEB_OBJ)/src/main.o $(WEB_CORE_OBJ) $(WEB_LIBS)

$(WEB)/node/ref_hash.js: $(WEB_OBJ)/web/test/ref_hash.o $(WEB_PHYS_OBJ)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_NODE_FLAGS) -o $@ $^

$(WEB)/node/bench_tumble.js: tests/bench/bench_tumble.c tests/bench/bench_common.h $(WEB_PHYS_OBJ)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) $(WEB_NODE_FLAGS) -Iinclude -o $@ $< $(WEB_PHYS_OBJ)

# the native bench, built as tests/bench builds it, for web-bench's comparison
$(WEB)/native/bench_tumble: tests/bench/bench_tumble.c tests/bench/bench_common.h $(PHYS_LIB)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -g -Wall -Wextra -D_GNU_SOURCE -ffp-contract=off -Iinclude -o $@ $< $(PHYS_LIB) -lm

web-bench: web $(WEB)/node/bench_tumble.js $(WEB)/native/bench_tumble
	@bash web/bench.sh

web-node: $(WEB)/node/tumble.js $(WEB)/node/ref_hash.js $(WEB)/node/bench_tumble.js

# ---- the page ----

# The browser owns the loop: src/web/main.c hands the host's per-frame function
# to emscripten_set_main_loop_arg (no ASYNCIFY). The data is packed apart
# (tumble.data.js, web/package.sh), so a new LEVEL does not relink.
# GL_TESTING keeps WebGL's drawing buffer between frames (preserveDrawingBuffer),
# so the page can keep the last picture of a run that ended. SDL's audio calls
# two of emscripten's JS helpers that only its own SDL port asks the linker for.
WEB_PAGE_FLAGS := $(WEB_LDFLAGS) -sENVIRONMENT=web -sFORCE_FILESYSTEM=1 -sEXIT_RUNTIME=0 -sGL_TESTING=1 \
                  -sEXPORTED_FUNCTIONS=_main,_tumble_web_start,_tumble_web_stop \
                  -sEXPORTED_RUNTIME_METHODS=ccall,FS \
                  '-sDEFAULT_LIBRARY_FUNCS_TO_INCLUDE=$$autoResumeAudioContext,$$dynCall'

$(WEB)/tumble.js: $(WEB_CORE_OBJ) $(WEB_OBJ)/src/web/main.o $(WEB_LIBS) web/web.mk
	$(WEB_ENV) $(EMCC) $(WEB_PAGE_FLAGS) -o $@ $(WEB_OBJ)/src/web/main.o $(WEB_CORE_OBJ) $(WEB_LIBS)

$(WEB)/index.html: web/index.html
	@mkdir -p $(dir $@)
	cp $< $@

$(WEB)/shell.js: web/shell.js
	@mkdir -p $(dir $@)
	cp $< $@

# Packed on every `make web` (it takes a moment): the LEVEL folder may have changed.
web-data: | web-check
	@bash web/package.sh $(WEB) "$(LEVEL)"

web: $(WEB)/tumble.js $(WEB)/index.html $(WEB)/shell.js web-data
	@echo "web: $(WEB) is ready: serve it (python3 -m http.server -d $(WEB)) and open http://127.0.0.1:8000/"

# playwright-core drives Debian's chromium in web-test; no browser is downloaded
$(WEB)/npm/node_modules/playwright-core/package.json: web/package.json
	@mkdir -p $(WEB)/npm
	cp web/package.json $(WEB)/npm/package.json
	cd $(WEB)/npm && npm install --no-audit --no-fund --no-update-notifier --loglevel=error
	@touch $@

web-npm: $(WEB)/npm/node_modules/playwright-core/package.json

web-test-build: all web web-node web-npm

web-test: web-test-build
	@bash web/test/run.sh | tee $(WEB)/web-test.log; ! grep -q '^not ok' $(WEB)/web-test.log && grep -q '^ok' $(WEB)/web-test.log

-include $(WEB_CORE_OBJ:.o=.d) $(WEB_OBJ)/src/web/main.d $(WEB_OBJ)/src/main.d $(WEB_OBJ)/web/test/ref_hash.d
