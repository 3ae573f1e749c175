#!/usr/bin/env bash
# bench/http.sh: the map server under wrk, 127.0.0.1 only, bounded in time.
#
# Starts nginx/serve.sh on its own port, then alternates two wrk runs, rounds
# times: /?seed=N&format=text with a new seed per request (bench/wrk_seeds.lua)
# and /bench/constant, a location of the same server returning a constant
# body of the same size (1220 bytes: a 60x20 text map with its final
# newline). That location is in nginx/bench.conf, which only this script
# adds to the server (serve.sh's SERVER_CONF); the production config,
# nginx/nginx.conf, does not have it. Prints requests/s of each (median over
# the rounds) and the ratio.
#
# Environment: BENCH_HTTP_PORT (18089), BENCH_HTTP_SECONDS (5 per run),
# BENCH_HTTP_ROUNDS (3), BENCH_HTTP_CONNECTIONS (16), BENCH_HTTP_THREADS (1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

PORT=${BENCH_HTTP_PORT:-18089}
SECONDS_PER_RUN=${BENCH_HTTP_SECONDS:-5}
ROUNDS=${BENCH_HTTP_ROUNDS:-3}
CONNECTIONS=${BENCH_HTTP_CONNECTIONS:-16}
THREADS=${BENCH_HTTP_THREADS:-1}
BASE=http://127.0.0.1:$PORT

skip() {
  echo "HTTP: skipped: $*"
  exit 0
}

command -v wrk >/dev/null || skip "wrk not installed"
command -v curl >/dev/null || skip "curl not installed"
[ -x nginx/serve.sh ] || skip "no nginx/serve.sh"
[ -f build/lib/lua/5.1/map.so ] || skip "build/lib/lua/5.1/map.so not built (make)"

tmp=$(mktemp -d /tmp/map-bench-http.XXXXXX)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

grep -q 'location = /bench/constant' nginx/bench.conf || skip "nginx/bench.conf has no /bench/constant location"
server_dir=$root/nginx
note="nginx/nginx.conf plus nginx/bench.conf's /bench/constant"

PORT=$PORT ADDR=127.0.0.1 LOG_DIR=$tmp/logs RUN_DIR=$tmp/run SERVER_CONF=$root/nginx/bench.conf \
  "$server_dir/serve.sh" 2>"$tmp/serve.err" &
server_pid=$!
for _ in $(seq 1 50); do
  curl -fsS -o /dev/null "$BASE/bench/constant" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/serve.err" >&2; skip "the server did not start"; }
  sleep 0.1
done
curl -fsS -o "$tmp/map.txt" "$BASE/?seed=1&format=text" || skip "GET /?seed=1&format=text failed"
curl -fsS -o "$tmp/constant.txt" "$BASE/bench/constant" || skip "GET /bench/constant failed"
map_size=$(wc -c <"$tmp/map.txt")
constant_size=$(wc -c <"$tmp/constant.txt")
[ "$map_size" = "$constant_size" ] ||
  echo "bench/http.sh: warning: the map is $map_size bytes, /bench/constant $constant_size" >&2

# One bounded wrk run; prints requests/s (and fails on any non-2xx answer).
run_wrk() {
  local out
  out=$(timeout $((SECONDS_PER_RUN + 15)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" "$@")
  if grep -q 'Non-2xx' <<<"$out" || grep -q 'Socket errors' <<<"$out"; then
    echo "wrk reported errors:" >&2
    echo "$out" >&2
    return 1
  fi
  awk '/^Requests\/sec:/ { print $2 }' <<<"$out"
}

map_runs=()
constant_runs=()
# Warm-up (the workers' traces), not counted.
SECONDS_PER_RUN=1 run_wrk -s bench/wrk_seeds.lua "$BASE/" >/dev/null
SECONDS_PER_RUN=1 run_wrk "$BASE/bench/constant" >/dev/null
for _ in $(seq 1 "$ROUNDS"); do
  constant_runs+=("$(run_wrk "$BASE/bench/constant")")
  map_runs+=("$(run_wrk -s bench/wrk_seeds.lua "$BASE/")")
done

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
map_rps=$(median "${map_runs[@]}")
constant_rps=$(median "${constant_runs[@]}")
workers=$(pgrep -c -P "$server_pid" || true)

echo "### HTTP (nginx + lua-nginx-module, LuaJIT flavour)"
echo
echo "Server: $note; $(nginx -v 2>&1 | sed 's/^nginx version: //'), worker_processes auto ($workers workers)."
echo "wrk -t$THREADS -c$CONNECTIONS -d${SECONDS_PER_RUN}s, 127.0.0.1:$PORT, $ROUNDS alternating rounds after a 1 s warm-up each; median requests/s."
echo "Body sizes: map $map_size bytes, constant $constant_size bytes."
echo
echo "| endpoint | requests/s (median) | runs |"
echo "| --- | ---: | --- |"
echo "| /?seed=N&format=text (new seed each request) | $map_rps | ${map_runs[*]} |"
echo "| /bench/constant | $constant_rps | ${constant_runs[*]} |"
echo
awk -v m="$map_rps" -v c="$constant_rps" 'BEGIN {
  r = m / c
  printf "map / constant = %.2f (target >= 0.80: %s)\n", r, (r >= 0.80) ? "met" : "MISSED"
}'
