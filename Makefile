# tumble: Lua-scriptable 2D rigid-body physics runtime.
#   make          build ./tumble (host) and ./tumble.so (Lua module)
#   make run      install missing packages, build, run the default level
#   make test     every suite: C unit tests, busted specs, playtests, security cases, and the
#                 same again under AddressSanitizer + UBSan; ends "N passed, N failed"
#   make test-long  what test leaves out for time: the sanitized determinism sweep,
#                 make fuzz-smoke, the rewriter's fuzz; ends "N passed, N failed"
#   make bench    benchmarks (not part of test), against Box2D/Chipmunk if installed
#   make install  tumble, tumble.so and levelkit under PREFIX (default /usr/local),
#                 staged under DESTDIR if given; make uninstall removes them
#   make web      the browser build in build/web (web-test, web-bench: web/web.mk)

CC      ?= cc
CXX     ?= c++
# A sanitized build gets a folder of its own unless told otherwise, so its
# objects are never mixed with (or silently reused from) the plain build's.
ifdef SANITIZE
BUILD   ?= build/asan
endif
BUILD   ?= build
PKGS    := lua5.4 sdl2 SDL2_image SDL2_mixer SDL2_ttf
PREFIX  ?= /usr/local
# Where lua5.4 looks by default (Debian's package.path/cpath list PREFIX/lib/lua/5.4
# and PREFIX/share/lua/5.4 for /usr/local and /usr), and the host's own files.
BINDIR  ?= $(PREFIX)/bin
LUA_CMOD_DIR ?= $(PREFIX)/lib/lua/5.4
LUA_LMOD_DIR ?= $(PREFIX)/share/lua/5.4
DATADIR ?= $(PREFIX)/share/tumble

# -ffp-contract=off: no fused multiply-add, so results do not depend on how the
# compiler contracted an expression (determinism across builds of one source).
# -fno-tree-slp-vectorize: GCC 12's -O2 packs a transform or box passed in two
# registers into one 16-byte reload of the halves it just stored, a
# store-forwarding stall in every box and transform helper, which the step
# calls for every shape and pair it moves or tests.
# The contact solver's SIMD is written with intrinsics and is unaffected.
OPT     ?= -O2
CFLAGS_COMMON := -std=c11 $(OPT) -g -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
                 -ffp-contract=off -fno-strict-aliasing -fno-tree-slp-vectorize -fPIC -D_GNU_SOURCE -MMD -MP
# The sanitized build also checks every world after every step (tb_world_validate).
# Its debug information is line tables only (SAN_G; -g for a debugger): what
# the sanitizers' reports print, at three quarters of the compile time.
ifdef SANITIZE
SAN_G ?= -g1
CFLAGS_COMMON += $(SAN_G) -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -DTB_VALIDATE
LDFLAGS_SAN   := -fsanitize=address,undefined
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
ifdef LUA_INCDIR
LUA_CFLAGS := -I$(LUA_INCDIR)
endif

PHYS_SRC := $(wildcard src/physics/*.c)
LUA_SRC  := $(wildcard src/lua/*.c)
HOST_SRC := $(wildcard src/host/*.c)
MAIN_SRC := $(wildcard src/main.c)

PHYS_OBJ := $(PHYS_SRC:%.c=$(BUILD)/%.o)
LUA_OBJ  := $(LUA_SRC:%.c=$(BUILD)/%.o)
HOST_OBJ := $(HOST_SRC:%.c=$(BUILD)/%.o) $(MAIN_SRC:%.c=$(BUILD)/%.o)

PHYS_LIB := $(BUILD)/libtumble_physics.a
ifdef SANITIZE
BIN      := $(BUILD)/tumble
SO       := $(BUILD)/tumble.so
else
BIN      := tumble
SO       := tumble.so
endif

CTEST_SRC := $(filter-out tests/physics/test_util.c,$(wildcard tests/physics/test_*.c))
CTEST_BIN := $(CTEST_SRC:tests/physics/%.c=$(BUILD)/tests/%)
# C tests of the binding's host interface (tumble_lua.h), linked with Lua.
LTEST_SRC := $(wildcard tests/lua/test_*.c)
LTEST_BIN := $(LTEST_SRC:tests/lua/test_%.c=$(BUILD)/tests/test_lua_%)
# tests/security: C tests of the sandbox's own pieces, each linked with the
# host file it tests (the pattern matcher against the stock one, the OS lock)
SEC_BIN := $(BUILD)/tests/security/test_pattern $(BUILD)/tests/security/test_oslock
SEC_CFLAGS := $(filter-out -MMD -MP,$(CFLAGS_COMMON)) -Isrc/host
# tests/host: C tests of host pieces that need no SDL (the source rewriter)
HTEST_BIN := $(BUILD)/tests/test_rewrite $(BUILD)/tests/test_source_edit $(BUILD)/tests/test_edit

TEST_BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all run test test-build bench clean install uninstall rock install-rock deps format
all: $(BIN) $(SO)

# The rooms' doors: the engine sees its public headers (include/) and its own
# folder; the binding and the host see include/ only, so an engine-internal
# header (world.h, solver.h) is not one #include away from them.
$(BUILD)/src/physics/%.o: src/physics/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Iinclude -c $< -o $@

# The solver's AVX2 and AVX-512 paths are the only files built for AVX2 and
# AVX-512F (and only on x86 targets); the engine runs each only on CPUs that have
# it. Never -mfma: a fused multiply-add would round differently from the SSE2
# and scalar paths.
ifneq ($(filter x86_64% amd64% i386% i486% i586% i686%,$(shell $(CC) -dumpmachine 2>/dev/null)),)
$(BUILD)/src/physics/solver_kernels_avx2.o: CFLAGS_COMMON += -mavx2
$(BUILD)/src/physics/solver_kernels_avx512.o: CFLAGS_COMMON += -mavx512f
endif

# The solver's kernels inline the lanes headers' maths into a few huge
# functions of vector locals; ASan's use-after-scope checks on those locals,
# together with -g's variable tracking, take GCC 12 half a minute or more per
# file (the scalar kernels 27 s, the kernel test 51 s, against 3 s and 13 s
# without). The kernels keep every other check (their array accesses are what
# ASan is for here); nothing in them takes the address of a local that
# outlives it. (clang, the fuzz build's compiler, has no variable-tracking
# switch.)
ifdef SANITIZE
KERNEL_SAN_FLAGS := -fno-sanitize-address-use-after-scope $(if $(findstring clang,$(CC)),,-fno-var-tracking-assignments)
$(BUILD)/src/physics/solver_kernels_%.o: CFLAGS_COMMON += $(KERNEL_SAN_FLAGS)
$(BUILD)/tests/test_contact_solver: CFLAGS_COMMON += $(KERNEL_SAN_FLAGS)
endif
# The kernel test compiles the lanes maths once more for a four-lane portable
# vector and compares it with the library's kernels: unoptimized it builds in
# a quarter of the time (10 s at -O2, the longest file of the build) and runs
# in half a second, and the comparison then also spans two optimization levels.
$(BUILD)/tests/test_contact_solver: CFLAGS_COMMON += -O0

$(BUILD)/src/lua/%.o: src/lua/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(LUA_CFLAGS) -Iinclude -c $< -o $@

$(BUILD)/src/host/%.o: src/host/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(PKG_CFLAGS) -Iinclude -c $< -o $@

$(BUILD)/src/main.o: src/main.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(PKG_CFLAGS) -Iinclude -c $< -o $@

# Rebuilt from scratch: `ar r` keeps the members of deleted sources.
$(PHYS_LIB): $(PHYS_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(HOST_OBJ) $(LUA_OBJ) $(PHYS_LIB)
	$(CC) $(LDFLAGS_SAN) -o $@ $(HOST_OBJ) $(LUA_OBJ) $(PHYS_LIB) $(PKG_LIBS) -lm

# The Lua module for plain lua5.4 (require "tumble"): no SDL, no host.
$(SO): $(LUA_OBJ) $(PHYS_LIB)
	$(CC) $(LDFLAGS_SAN) -shared -o $@ $(LUA_OBJ) $(PHYS_LIB) -lm

$(BUILD)/tests/test_lua_%: tests/lua/test_%.c $(LUA_OBJ) $(PHYS_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(LUA_CFLAGS) -Iinclude $(shell pkg-config --cflags cmocka) $< -o $@ $(LDFLAGS_SAN) \
	  $(LUA_OBJ) $(PHYS_LIB) $(shell pkg-config --libs lua5.4 cmocka) -lm

# The engine tests' shared helpers, compiled once and linked into each.
CTEST_UTIL := $(BUILD)/tests/test_util.o
$(CTEST_UTIL): tests/physics/test_util.c tests/physics/test_util.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Iinclude -Isrc/physics $(shell pkg-config --cflags cmocka) -c $< -o $@

$(BUILD)/tests/%: tests/physics/%.c $(CTEST_UTIL) $(PHYS_LIB) tests/physics/test_util.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Iinclude -Isrc/physics $(shell pkg-config --cflags cmocka) $< $(CTEST_UTIL) -o $@ $(LDFLAGS_SAN) \
	  $(PHYS_LIB) $(shell pkg-config --libs cmocka) -lm

# The playtests' screenshot reader (SDL2_image, independent of the host's writer).
PNG_PROBE := $(BUILD)/tests/png_probe
$(PNG_PROBE): tests/playtest/png_probe.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(PKG_CFLAGS) $< -o $@ $(LDFLAGS_SAN) $(PKG_LIBS)

$(BUILD)/tests/security/test_pattern: tests/security/test_pattern.c src/host/pattern.c src/host/sbxlib.h src/host/sandbox.h
	@mkdir -p $(dir $@)
	$(CC) $(SEC_CFLAGS) $(LUA_CFLAGS) tests/security/test_pattern.c src/host/pattern.c -o $@ $(LDFLAGS_SAN) \
	  $(shell pkg-config --libs lua5.4) -lm

$(BUILD)/tests/security/test_oslock: tests/security/test_oslock.c src/host/oslock.c src/host/oslock.h
	@mkdir -p $(dir $@)
	$(CC) $(SEC_CFLAGS) tests/security/test_oslock.c src/host/oslock.c -o $@ $(LDFLAGS_SAN) -lpthread

# The host's source rewriter (src/host/rewrite.c) on its own: no SDL, no Lua state.
$(BUILD)/tests/test_rewrite: tests/host/test_rewrite.c src/host/rewrite.c src/host/rewrite.h
	@mkdir -p $(dir $@)
	$(CC) $(SEC_CFLAGS) $(shell pkg-config --cflags cmocka) \
	  tests/host/test_rewrite.c src/host/rewrite.c -o $@ $(LDFLAGS_SAN) $(shell pkg-config --libs cmocka) -lm

# Edit mode's geometry (src/host/edit.c) on the engine alone: no SDL, no Lua.
$(BUILD)/tests/test_edit: tests/host/test_edit.c src/host/edit.c src/host/edit.h $(PHYS_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SEC_CFLAGS) -Iinclude $(shell pkg-config --cflags cmocka) \
	  tests/host/test_edit.c src/host/edit.c -o $@ $(LDFLAGS_SAN) $(PHYS_LIB) $(shell pkg-config --libs cmocka) -lm

# The edits of a level's source (src/host/source_edit.c), with Lua's own
# parser (luaL_loadbuffer) as the judge of every result of the fuzz.
$(BUILD)/tests/test_source_edit: tests/host/test_source_edit.c src/host/source_edit.c src/host/source_edit.h \
  src/host/rewrite.c src/host/rewrite.h
	@mkdir -p $(dir $@)
	$(CC) $(SEC_CFLAGS) $(LUA_CFLAGS) $(shell pkg-config --cflags cmocka) tests/host/test_source_edit.c \
	  src/host/source_edit.c src/host/rewrite.c -o $@ $(LDFLAGS_SAN) $(shell pkg-config --libs lua5.4 cmocka) -lm

# The rewriter's fuzz, longer than make test's few seconds (FUZZ_REWRITE_ROUNDS
# random programs, and every rewrite of every .lua file of the repository).
FUZZ_REWRITE_ROUNDS ?= 20000
.PHONY: fuzz-rewrite
fuzz-rewrite: $(BUILD)/tests/test_source_edit
	TUMBLE_FUZZ_REWRITE_ROUNDS=$(FUZZ_REWRITE_ROUNDS) $(BUILD)/tests/test_source_edit

deps:
	@bash .ci/install-deps

run: deps
	@$(MAKE) --no-print-directory all
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then ./tumble; \
	 else echo "no display: running the default level headless"; ./tumble --headless --frames 600; fi

# Everything the suites run, for the current BUILD.
test-build: all $(CTEST_BIN) $(LTEST_BIN) $(PNG_PROBE) $(SEC_BIN) $(HTEST_BIN)

# The engine's sweeps whose sanitized runs repeat the plain build's work at
# length (the same worlds, every step validated): make test runs their plain
# builds and leaves the sanitized ones to make test-long. The engine stays
# under the sanitizer in make test through its random worlds (test_fuzz,
# fuzz_spec), the snapshot, memory and world tests and every binding and host
# suite.
SAN_LONG_TESTS := test_determinism test_continuous test_stacking test_math
test-build-san: all $(filter-out $(SAN_LONG_TESTS:%=$(BUILD)/tests/%),$(CTEST_BIN)) $(LTEST_BIN) $(PNG_PROBE) \
                $(SEC_BIN) $(HTEST_BIN)

# Both builds, then every suite of both in one pool of workers
# (tests/run_suites.sh), then the one closing line. The browser build's suite
# is `make web-test` (its cold build alone takes minutes).
test: deps
	@rm -f build/results build/asan/results
	@# the two builds side by side: neither leaves a core idle while it links
	@$(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) test-build & plain=$$!; \
	 $(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) test-build-san BUILD=build/asan SANITIZE=1 OPT=-O1; san=$$?; \
	 wait $$plain && [ $$san -eq 0 ]
	@LONG_SANITIZED="$(SAN_LONG_TESTS)" bash tests/run_suites.sh build build/asan
	@echo "[web]   skipped: the browser build's suite is make web-test (its cold build takes minutes)"
	@echo "[long]  not run here: make test-long (the sanitized engine sweeps, the long fuzz runs)"
	@bash tests/summarize.sh build/results build/asan/results

# What make test leaves out because it takes long (tests/run_long.sh): the
# sanitized engine sweeps (SAN_LONG_TESTS), the binding's fuzz at length, make
# fuzz-smoke, the rewriter's fuzz at LONG_REWRITE_ROUNDS. Ends with its own
# "N passed, N failed".
LONG_REWRITE_ROUNDS ?= 5000
.PHONY: test-long test-build-san
test-long: deps
	@$(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) test-build
	@$(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) test-build BUILD=build/asan SANITIZE=1 OPT=-O1
	@LONG_SANITIZED="$(SAN_LONG_TESTS)" LONG_REWRITE_ROUNDS=$(LONG_REWRITE_ROUNDS) bash tests/run_long.sh build build/asan

bench: $(PHYS_LIB) $(SO) $(BIN)
	@$(MAKE) --no-print-directory -C tests/bench ROOT=$(CURDIR) PHYS_LIB=$(CURDIR)/$(PHYS_LIB)
	@echo; echo "Lua binding (10,000 bodies):"
	@LUA_CPATH="$(CURDIR)/?.so;;" lua5.4 tests/bench/lua_binding_bench.lua
	@echo; echo "world:snapshot() from Lua (5,050-box pyramid, CPU ms):"
	@LUA_CPATH="$(CURDIR)/?.so;;" lua5.4 tests/bench/lua_snapshot_bench.lua
	@echo; echo "Host rewind history:"
	@TUMBLE_BIN=$(CURDIR)/$(BIN) bash tests/bench/host_rewind_bench.sh

# The host finds its lua/ folder (levelkit) at $(DATADIR)/lua, next to
# ../share/tumble from the binary; plain lua5.4 finds tumble.so and levelkit on
# its default paths.
INSTALL_FILES := $(BINDIR)/tumble $(LUA_CMOD_DIR)/tumble.so $(LUA_LMOD_DIR)/levelkit.lua \
                 $(DATADIR)/lua/levelkit.lua $(DATADIR)/lua/tumble.d.lua $(DATADIR)/lua/REFERENCE.md $(DATADIR)/lua/LEVELKIT.md \
                 $(DATADIR)/lua/fonts/DejaVuSans.ttf $(DATADIR)/lua/fonts/LICENSE
install: $(BIN) $(SO)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LUA_CMOD_DIR) $(DESTDIR)$(LUA_LMOD_DIR) \
	  $(DESTDIR)$(DATADIR)/lua $(DESTDIR)$(DATADIR)/lua/fonts $(DESTDIR)$(DATADIR)/examples
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/tumble
	install -m 644 $(SO) $(DESTDIR)$(LUA_CMOD_DIR)/tumble.so
	install -m 644 lua/levelkit.lua $(DESTDIR)$(LUA_LMOD_DIR)/levelkit.lua
	install -m 644 lua/levelkit.lua lua/tumble.d.lua lua/REFERENCE.md lua/LEVELKIT.md $(DESTDIR)$(DATADIR)/lua/
	install -m 644 lua/fonts/DejaVuSans.ttf lua/fonts/LICENSE $(DESTDIR)$(DATADIR)/lua/fonts/
	cp -R examples/. $(DESTDIR)$(DATADIR)/examples/

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALL_FILES))
	rm -rf $(DESTDIR)$(DATADIR)/examples
	-rmdir $(DESTDIR)$(DATADIR)/lua/fonts $(DESTDIR)$(DATADIR)/lua $(DESTDIR)$(DATADIR) 2>/dev/null

# For `luarocks make` (tumble-*.rockspec): the module alone, no SDL; LuaRocks
# passes LUA_INCDIR, and LIBDIR/LUADIR to install into its tree.
rock: $(SO)
install-rock: $(SO)
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(LUADIR)
	install -m 644 $(SO) $(DESTDIR)$(LIBDIR)/tumble.so
	install -m 644 lua/levelkit.lua $(DESTDIR)$(LUADIR)/levelkit.lua

format:
	clang-format -i $(PHYS_SRC) $(LUA_SRC) $(HOST_SRC) $(MAIN_SRC) src/*/*.h include/tumble/*.h

clean:
	rm -rf build tumble tumble.so

include web/web.mk

-include $(PHYS_OBJ:.o=.d) $(LUA_OBJ:.o=.d) $(HOST_OBJ:.o=.d)

# ---- fuzzing: libFuzzer targets for every parser of untrusted bytes ----
#   make fuzz        each target for FUZZ_SECONDS (default 300), one after the other
#   make fuzz-smoke  each target briefly (FUZZ_SMOKE_SECONDS, default 10)
#   make fuzz-merge  new inputs that add coverage into the committed corpus
#                    (FUZZ_TARGETS=... to pick: the snapshot target's inputs
#                    are whole worlds of some kilobytes each)
# Built with clang (libFuzzer + ASan + UBSan) into build/fuzz; the engine
# validates every world after each step there (TB_VALIDATE), as the sanitized
# build of make test does. The seeds are tests/fuzz/corpus/<target>; what a run
# finds goes to build/fuzz/corpus/<target>, crashes to build/fuzz/artifacts/.
FUZZ_CC       ?= clang
FUZZ_BUILD    := build/fuzz
FUZZ_SECONDS  ?= 300
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_TARGETS  ?= snapshot replay conf searcher image sound font save
FUZZ_BINS     := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
.PHONY: fuzz fuzz-smoke fuzz-build fuzz-bins fuzz-merge
ifdef FUZZ
CFLAGS_COMMON += -fsanitize=fuzzer-no-link
endif

fuzz-build:
	@$(MAKE) --no-print-directory FUZZ=1 SANITIZE=1 CC=$(FUZZ_CC) OPT=-O1 BUILD=$(FUZZ_BUILD) fuzz-bins

fuzz-bins: $(FUZZ_BINS)

# the engine alone
$(FUZZ_BUILD)/fuzz_snapshot: tests/fuzz/fuzz_snapshot.c $(PHYS_LIB)
	$(CC) $(CFLAGS_COMMON) -Iinclude -Isrc/physics $< -o $@ -fsanitize=fuzzer,address,undefined $(PHYS_LIB) -lm

# the host's parsers, linked with the whole host but main.c
$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_host.h $(filter-out %/main.o,$(HOST_OBJ)) $(LUA_OBJ) $(PHYS_LIB)
	$(CC) $(CFLAGS_COMMON) $(PKG_CFLAGS) -Iinclude -Isrc/host $< -o $@ -fsanitize=fuzzer,address,undefined \
	  $(filter-out %/main.o,$(HOST_OBJ)) $(LUA_OBJ) $(PHYS_LIB) $(PKG_LIBS) -lm

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do bash tests/fuzz/run.sh $$t $(FUZZ_SECONDS) || exit 1; done

fuzz-smoke: fuzz-build
	@for t in $(FUZZ_TARGETS); do bash tests/fuzz/run.sh $$t $(FUZZ_SMOKE_SECONDS) || exit 1; done

fuzz-merge: fuzz-build
	@for t in $(FUZZ_TARGETS); do bash tests/fuzz/run.sh --merge $$t || exit 1; done
