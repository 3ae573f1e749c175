#!/usr/bin/env bash
# tests/host/run.sh (`make test-host`): the module under hostile hosts:
# out of memory, a nearly full Lua stack, huge requests. Each case runs in a
# process of its own and must end with "ok: <case>" and exit 0: the module's
# error was caught, the process lived, RSS stayed flat (see each script's
# header). A case that dies says how: exit 134 is an abort (SIGABRT: Rust's
# "memory allocation of N bytes failed"), 139 a segfault, 124 the timeout.
#
# Needs build/lib/lua/5.4/map.so and build/lib/lua/5.1/map.so (make), the
# probe modules (make probe), gcc,
# pkg-config and liblua5.4-dev (for the capped host, built into build/tests),
# lua5.4 and luajit. About 30 s. Environment: HOST_TESTS (a regex: run only
# the cases whose name matches), HOST_TIMEOUT (seconds per case, 60),
# HOST_LUA54 and HOST_LUAJIT (the folders holding map.so, to test another
# build: build/lib/lua/5.4 and build/lib/lua/5.1).
set -uo pipefail
cd "$(dirname "$0")/../.."

TIMEOUT=${HOST_TIMEOUT:-60}
ONLY=${HOST_TESTS:-}
LUA54=${HOST_LUA54:-build/lib/lua/5.4}
LUAJIT=${HOST_LUAJIT:-build/lib/lua/5.1}
PROBE54=build/probe/lib/lua/5.4 PROBEJIT=build/probe/lib/lua/5.1
CAPPED=build/tests/capped

for so in $LUA54/map.so $LUAJIT/map.so $PROBE54/map.so $PROBEJIT/map.so; do
  [ -f "$so" ] || { echo "run.sh: $so not found: run make all probe first" >&2; exit 2; }
done
for tool in gcc pkg-config lua5.4 luajit timeout; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool not found (see setup.sh)" >&2; exit 2; }
done
mkdir -p build/tests
if [ ! -x $CAPPED ] || [ tests/host/capped.c -nt $CAPPED ]; then
  # shellcheck disable=SC2046 # pkg-config's flags are words
  gcc -O2 -Wall -Wextra -o $CAPPED tests/host/capped.c $(pkg-config --cflags --libs lua5.4) ||
    { echo "run.sh: building the capped host failed (liblua5.4-dev installed?)" >&2; exit 2; }
fi

out=$(mktemp -d /tmp/map-host-tests.XXXXXX)
trap 'rm -rf "$out"' EXIT
passed=0
failed=()

# case NAME ULIMIT_KIB (or -) COMMAND...: runs COMMAND under `ulimit -v` and
# the timeout, with package.cpath pointing at the built modules.
case_() {
  local name=$1 limit=$2
  shift 2
  if [ -n "$ONLY" ] && ! [[ $name =~ $ONLY ]]; then return; fi
  local log=$out/$name.log start=$SECONDS status
  # The braces' 2>/dev/null keeps bash's own "Aborted" notice out of the report.
  {
    (
      [ "$limit" = - ] || ulimit -v "$limit"
      export LUA_CPATH_5_4="$LUA54/?.so" LUA_CPATH="$LUAJIT/?.so" LUA_INIT= LUA_INIT_5_4=
      exec timeout "$TIMEOUT" "$@"
    ) >"$log" 2>&1
  } 2>/dev/null
  status=$?
  local took=$((SECONDS - start))
  local script=${name%%-*}
  if [ $status -eq 0 ] && tail -n 1 "$log" | grep -qx "ok: $script"; then
    passed=$((passed + 1))
    printf 'PASS %-26s %3ss  %s\n' "$name" "$took" "$(grep -v '^ok: ' "$log" | tail -n 1 | cut -c1-110)"
    return
  fi
  local why="exit $status"
  case $status in
    134) why="$why: aborted (SIGABRT)" ;;
    139) why="$why: segmentation fault" ;;
    124) why="$why: killed after ${TIMEOUT}s" ;;
  esac
  if grep -q 'memory allocation of .* failed' "$log"; then
    why="$why; Rust: $(grep -m1 -o 'memory allocation of .* failed' "$log")"
  fi
  failed+=("$name")
  printf 'FAIL %-26s %3ss  %s\n' "$name" "$took" "$why"
  grep -v '^  *[0-9]*: \|^ *at \|^stack backtrace:\|^note: ' "$log" | tail -n 8 | sed 's/^/     | /'
}

# A capped Lua heap: a C host capping the Lua heap at 40 MiB with its own allocator.
case_ capped_generate - $CAPPED 40 tests/host/capped_generate.lua
case_ capped_exports - $CAPPED 40 tests/host/capped_exports.lua
case_ capped_tight - $CAPPED 40 tests/host/capped_tight.lua
# Out of address space: the address space limited with ulimit -v (KiB), both interpreters.
for lua in lua5.4 luajit; do
  case_ "ulimit_simple-$lua" 60000 "$lua" tests/host/ulimit_simple.lua
  case_ "ulimit_fill-$lua" 400000 "$lua" tests/host/ulimit_fill.lua
  for headroom in 0 1 4 16 64; do
    case_ "ulimit_sweep-$lua-${headroom}MiB" 300000 "$lua" tests/host/ulimit_sweep.lua $headroom
  done
done
# Out of memory while a result is built: the module's own message on both.
for lua in lua5.4 luajit; do
  case_ "oom_message-$lua" 300000 "$lua" tests/host/oom_message.lua
done
# What reading a map costs: wide rows and rows of a large capacity, each call under 1 s.
for lua in lua5.4 luajit; do
  case_ "shape_cost-$lua" - "$lua" tests/host/shape_cost.lua
done
# A nearly full Lua stack.
for lua in lua5.4 luajit; do
  case_ "deep_stack-$lua" - "$lua" tests/host/deep_stack.lua
done
# Fault injection (tests/host/faults.lua): every call of the manifests with
# its k-th memory check failing (the probe modules), on both; with its k-th
# Lua allocation failing, on Lua 5.4 (the capped host's allocator).
case_ faults-rust-lua5.4 - env LUA_CPATH_5_4="$PROBE54/?.so" lua5.4 tests/host/faults.lua rust
case_ faults-rust-luajit - env LUA_CPATH="$PROBEJIT/?.so" luajit tests/host/faults.lua rust
case_ faults-lua-lua5.4 - $CAPPED 1000 tests/host/faults.lua lua
# The edge of the Lua stack, every depth: whose each stack overflow is.
for lua in lua5.4 luajit; do
  case_ "stack_edge-$lua" - "$lua" tests/host/stack_edge.lua
done
# Huge requests: item counts, under 2 GB.
for lua in lua5.4 luajit; do
  case_ "huge_items-$lua" 2000000 "$lua" tests/host/huge_items.lua
done

echo "host tests: $passed passed, ${#failed[@]} failed${failed[*]:+ (${failed[*]})}"
[ ${#failed[@]} -eq 0 ]
