#!/bin/sh
# Installs what building, running and testing `map` need on Debian 12.
# Run as root (`sudo ./setup.sh` where there is sudo). Safe to run again.
set -eu

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# luajit2 is OpenResty's LuaJIT branch: the nginx Lua module needs it, and it
# conflicts with Debian's plain `luajit` package. love (LÖVE 11, for the demo
# in examples/love/) comes after it, so that it uses libluajit2; xvfb and xauth
# run the demo headless (`make test-love`); chromium tests the page
# (`make test-browser`); luarocks builds and installs the rock
# (map-*.rockspec, docs/testing.md); python3-venv holds the third-party
# readers of the level editors' files (`make test-editors`).
apt-get install -y -qq --no-install-recommends \
  make gcc pkg-config ca-certificates \
  lua5.4 liblua5.4-dev luajit2 libluajit2-5.1-dev \
  lua-busted lua-check lua-dkjson curl wrk \
  nginx-light libnginx-mod-http-lua \
  love xvfb xauth chromium luarocks python3-venv >/dev/null

# busted pulls in Lua 5.1 and makes it `lua`; the module is built for Lua 5.4
# and LuaJIT, so point `lua` at Lua 5.4.
update-alternatives --set lua-interpreter /usr/bin/lua5.4

# cargo is the user's (rustup puts it in ~/.cargo/bin, which sudo leaves off
# PATH): under sudo, it is looked for, and used, as the user who ran sudo.
as_user() {
  if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    sudo -u "$SUDO_USER" -H sh -c "$1"
  else
    sh -c "$1"
  fi
}
cargo_path='PATH=$PATH:${CARGO_HOME:-$HOME/.cargo}/bin'
if ! as_user "$cargo_path; command -v cargo >/dev/null 2>&1"; then
  echo "setup.sh: cargo not found: install Rust (rustup.rs) and run this again" >&2
  exit 1
fi

# emmylua_check, the type checker `make test` runs with types/map.d.lua
# (tests/types/check.sh), from crates.io at the version tested, once.
as_user "$cargo_path; command -v emmylua_check >/dev/null 2>&1 ||
  cargo install --locked --quiet --version 0.25.1 emmylua_check"
