# Builds one module per interpreter and installs them in the standard
# package.cpath layout: lib/lua/5.4/map.so (Lua 5.4), lib/lua/5.1/map.so (LuaJIT).

PREFIX ?= /usr/local
CARGO ?= cargo
BUILD := build/lib/lua

.PHONY: all probe install uninstall serve test test-rust test-lua lint bench clean rock dist play test-love test-browser test-host readme test-rock test-types test-make test-editors FORCE

all: $(BUILD)/5.4/map.so $(BUILD)/5.1/map.so

# Every module target runs its cargo build, always (FORCE): cargo decides
# what to rebuild, by everything it compiled (sources, features, an edit
# made during a build), which file times here could not. The library is
# then installed only when its bytes differ from the installed one's
# (install -C): an unchanged one keeps its time stamp, a changed one is
# always copied. (tests/make/run.sh checks both.)
# Separate target dirs: the two feature sets would otherwise rebuild each other.
$(BUILD)/5.4/map.so: FORCE
	$(CARGO) build --locked --release --features lua54 --target-dir target/lua54
	install -C -D -m 755 target/lua54/release/libmap.so $@

$(BUILD)/5.1/map.so: FORCE
	$(CARGO) build --locked --release --features luajit --target-dir target/luajit
	install -C -D -m 755 target/luajit/release/libmap.so $@

# The probe modules: with map._panic_probe and map._reads (the cargo feature
# probe), for spec/hostile_spec.lua and spec/luajit_spec.lua, which load
# them in a child interpreter. Quick
# builds (profile probe, no LTO); never installed.
PROBE := build/probe/lib/lua

probe: $(PROBE)/5.4/map.so $(PROBE)/5.1/map.so

$(PROBE)/5.4/map.so: FORCE
	$(CARGO) build --locked --profile probe --features lua54,probe --target-dir target/lua54
	install -C -D -m 755 target/lua54/probe/libmap.so $@

$(PROBE)/5.1/map.so: FORCE
	$(CARGO) build --locked --profile probe --features luajit,probe --target-dir target/luajit
	install -C -D -m 755 target/luajit/probe/libmap.so $@

# The module's Lua side, installed beside it (share/lua/5.4/map/, share/lua/5.1/map/):
# map.args (the CLI's and the server's reading of arguments) and map.server
# (the OpenResty handler, docs/server.md) with its parts map.query (the query
# string) and map.page (the HTML); map.love, the loader a LÖVE game uses
# (docs/love.md).
LUA_MODULES := lua/map/args.lua lua/map/stats.lua lua/map/server.lua lua/map/query.lua lua/map/page.lua \
	lua/map/love.lua

# The `map` command is lua/main.lua, run by BIN_LUA (found on PATH when it
# runs; `make install BIN_LUA=luajit` for LuaJIT). It loads the module and
# map.args installed beside it, under PREFIX, whatever the interpreter's
# default paths.
BIN_LUA ?= lua5.4

install: all
	install -D -m 755 $(BUILD)/5.4/map.so $(DESTDIR)$(PREFIX)/lib/lua/5.4/map.so
	install -D -m 755 $(BUILD)/5.1/map.so $(DESTDIR)$(PREFIX)/lib/lua/5.1/map.so
	install -D -m 644 -t $(DESTDIR)$(PREFIX)/share/lua/5.4/map $(LUA_MODULES)
	install -D -m 644 -t $(DESTDIR)$(PREFIX)/share/lua/5.1/map $(LUA_MODULES)
	install -D -m 644 types/map.d.lua $(DESTDIR)$(PREFIX)/share/map/types/map.d.lua
	install -d $(DESTDIR)$(PREFIX)/bin
	sed '1s|^#!.*|#!/usr/bin/env $(BIN_LUA)|' lua/main.lua >$(DESTDIR)$(PREFIX)/bin/map
	chmod 755 $(DESTDIR)$(PREFIX)/bin/map

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/map
	rm -f $(DESTDIR)$(PREFIX)/lib/lua/5.4/map.so $(DESTDIR)$(PREFIX)/lib/lua/5.1/map.so
	rm -rf $(DESTDIR)$(PREFIX)/share/lua/5.4/map $(DESTDIR)$(PREFIX)/share/lua/5.1/map $(DESTDIR)$(PREFIX)/share/map

# The HTTP server (nginx/, see docs/server.md): Debian's nginx with
# libnginx-mod-http-lua, or OpenResty when it is on PATH. In the foreground;
# Ctrl-C stops it. `make serve PORT=8081 ADDR=127.0.0.2` listens elsewhere.
PORT ?= 8080
ADDR ?= 127.0.0.1

serve: $(BUILD)/5.1/map.so
	PORT=$(PORT) ADDR=$(ADDR) nginx/serve.sh

# The full suite: the core, the specs on both interpreters, the hostile
# hosts, the LÖVE demo under Xvfb, the page in headless Chromium and the
# type definitions under a type checker. Two parts at a time (most are one
# core's work), each part's output shown whole when it ends.
TEST_PARTS := test-rust test-make test-lua test-host test-love test-browser test-types test-editors

test:
	$(MAKE) -j2 --output-sync=target $(TEST_PARTS)

test-rust:
	$(CARGO) test --locked

# That `make` rebuilds by cargo and installs by content (tests/make/run.sh):
# an installed library newer than the sources yet different is replaced by
# cargo's, an unchanged one keeps its time stamp. Into a temporary BUILD;
# a few seconds once the modules are built.
test-make:
	MAKE='$(MAKE)' tests/make/run.sh

test-lua: all probe
	busted --run=lua54
	busted --run=luajit

# The hostile hosts (tests/host/run.sh, see docs/hardening.md): out of memory
# under a capped allocator and under ulimit -v, fault injection, a nearly full
# Lua stack, huge items.
test-host: all probe
	tests/host/run.sh

# The LÖVE demo (examples/love/): play it, or run its scripted game headless
# under Xvfb, which also refreshes docs/love-demo.png and docs/love-demo-tiles.png.
# Without a display, play says so and fails (examples/love/play.sh).
play: $(BUILD)/5.1/map.so
	examples/love/play.sh

# test-love plays the demo, then tests the loader, map.love, in the eight
# places a shipped game has its module (tests/love/run.sh, docs/love.md;
# no display needed, under a second).
test-love: $(BUILD)/5.1/map.so $(BUILD)/5.4/map.so
	examples/love/test.sh
	tests/love/run.sh

# The map page in headless Chromium (tests/browser/): its DOM, its form and
# screenshots, against nginx on a free port. `make test-browser
# SCREENSHOT_DIR=docs` refreshes docs/page.png and docs/page-phone.png.
test-browser: $(BUILD)/5.1/map.so
	SCREENSHOT_DIR=$(SCREENSHOT_DIR) busted --run=luajit tests/browser

# The level editors' files (tests/editors/run.sh): 1,000 levels written
# as Tiled and REXPaint files on both interpreters, read back by
# pytiled-parser and python-tcod (pinned, from PyPI, in a venv under
# build/ made on first use), and their files read by the module.
test-editors: $(BUILD)/5.1/map.so $(BUILD)/5.4/map.so
	tests/editors/run.sh

# The editors' type definitions (types/map.d.lua) in use: emmylua_check over
# the CLI, the README's examples and the LÖVE demo (tests/types/check.sh;
# spec/types_spec.lua, in test-lua, checks them against the module).
test-types:
	tests/types/check.sh

# The rock as a LuaRocks user builds and installs it, offline, from a clean
# clone of HEAD (tests/rock/run.sh, docs/testing.md); .ci/run runs it.
test-rock:
	tests/rock/run.sh

# The benchmark (bench/run.sh; docs/performance.md, bench/RESULTS.md): markdown on stdout.
bench: all
	bench/run.sh

# fuzz/ is a workspace of its own, built by nothing else: checked here so
# that a fuzz target which no longer compiles is noticed (on stable Rust,
# as fuzz/README.md runs it).
lint:
	$(CARGO) fmt --check
	$(CARGO) fmt --check --manifest-path fuzz/Cargo.toml
	$(CARGO) clippy --locked --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings
	$(CARGO) clippy --locked --all-targets -- -D warnings
	$(CARGO) clippy --locked --release --features lua54 --target-dir target/lua54 -- -D warnings
	$(CARGO) clippy --locked --release --features luajit --target-dir target/luajit -- -D warnings
	$(CARGO) clippy --locked --profile probe --features lua54,probe --target-dir target/lua54 -- -D warnings
	$(CARGO) clippy --locked --profile probe --features luajit,probe --target-dir target/luajit -- -D warnings
	luacheck lua spec nginx bench src/lua examples tests docs

# The generators' reference in docs/generators.md, made from the module
# (docs/algorithms.lua; spec/readme_spec.lua checks it is up to date).
readme: $(BUILD)/5.4/map.so
	LUA_CPATH_5_4='$(BUILD)/5.4/?.so' lua5.4 docs/algorithms.lua write
	LUA_CPATH_5_4='$(BUILD)/5.4/?.so' lua5.4 docs/blob_tiles.lua docs/autotile-blob.svg

clean:
	rm -rf build target dist

# The release in dist/: the source archive with every crate vendored, and its
# rockspecs (dist.sh; DIST_URL=, HOMEPAGE= for publishing; docs/testing.md).
dist:
	./dist.sh

# For luarocks (map-*.rockspec, build type "make"): builds the one flavour
# matching the interpreter luarocks runs for, given as LUA (as the rust-mlua
# build type asks luarocks' interpreter), as build/rock/map.so, which the
# rockspec's build.install puts in the tree with map.args, map.server and the
# map command. (Not an install target: `luarocks make --pack-binary-rock`
# passes a make install the default tree's directories, not the ones it
# packs.)
FLAVOUR = $(shell $(LUA) -e 'io.write(jit and "luajit" or _VERSION == "Lua 5.4" and "lua54" or "none")')

rock:
	@test "$(FLAVOUR)" != none || { echo "map needs Lua 5.4 or LuaJIT; $(LUA) is neither" >&2; exit 1; }
	@command -v $(CARGO) >/dev/null || { echo "map: building needs Rust's cargo (https://rustup.rs)" >&2; exit 1; }
	$(CARGO) build --locked --release --features $(FLAVOUR) --target-dir target/$(FLAVOUR)
	install -C -D -m 755 target/$(FLAVOUR)/release/libmap.so build/rock/map.so
	sed 's|^local BUILT_FOR = nil$$|local BUILT_FOR = $(BUILT_FOR)|' lua/main.lua >build/rock/map
	grep -q '^local BUILT_FOR = ' build/rock/map

# The interpreter the rock's command runs itself on when luarocks' wrapper
# starts plain lua5.1 (lua/main.lua): LuaJIT's absolute path, as a Lua string.
BUILT_FOR = $(if $(filter luajit,$(FLAVOUR)),"$(shell command -v $(LUA))",nil)
