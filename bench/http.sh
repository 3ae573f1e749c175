#!/usr/bin/env bash
# bench/http.sh: the map server under wrk, 127.0.0.1 only, bounded in time.
#
# Starts nginx/serve.sh on its own port and measures three workloads, each
# against a constant body of its own size: /?seed=N&format=text (the text),
# /?seed=N (the page, rooms) and /?seed=N&algorithm=bsp&doors=on (the page,
# bsp with doors), a new seed per request (bench/wrk_seeds.lua); and, for
# each page, its ceiling: /bench/generate, which only calls generate_text for
# that seed and sends the constant of the page's size. The
# constant is /bench/constant?size=S, a location of the same server that
# sends S bytes made once (nginx/bench.conf, which only this script adds to
# the server through serve.sh's SERVER_CONF; the production config,
# nginx/nginx.conf, does not have it). S is the mean size of the workload's
# responses over 20 seeds. Each round runs, for every workload, its constant
# and then the workload, and takes the ratio of the two; prints requests/s of
# each (median over the rounds), the median of the rounds' ratios (runs side
# by side share the machine's load, which other work on it changes from one
# minute to the next), the CPU time nginx's workers spent per request on the
# workload and on its constant (which the load changes far less) and the
# load average before and after.
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

# name | path | query after ?seed=N | target ratio ("-": none)
WORKLOADS=(
  "text|/|&format=text|0.80"
  "page, rooms|/||0.50"
  "page, bsp with doors|/|&algorithm=bsp&doors=on|0.50"
)
# The pages' ceilings, with the size of each page (filled in below).
CEILINGS=(
  "generate_text alone, then the constant (rooms)|/bench/generate||-|1"
  "generate_text alone, then the constant (bsp with doors)|/bench/generate|&algorithm=bsp&doors=on|-|2"
)

skip() {
  echo "HTTP: skipped: $*"
  exit 0
}

command -v wrk >/dev/null || skip "wrk not installed"
command -v curl >/dev/null || skip "curl not installed"
[ -x nginx/serve.sh ] || skip "no nginx/serve.sh"
[ -f build/lib/lua/5.1/map.so ] || skip "build/lib/lua/5.1/map.so not built (make)"
grep -q 'location = /bench/constant' nginx/bench.conf || skip "nginx/bench.conf has no /bench/constant location"

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

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
PORT=$PORT ADDR=127.0.0.1 LOG_DIR=$tmp/logs RUN_DIR=$tmp/run SERVER_CONF=$root/nginx/bench.conf \
  nginx/serve.sh 2>"$tmp/serve.err" &
server_pid=$!
for _ in $(seq 1 50); do
  curl -fsS -o /dev/null "$BASE/bench/constant" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/serve.err" >&2; skip "the server did not start"; }
  sleep 0.1
done

# The mean size of a workload's responses, over 20 of the seeds wrk asks for.
mean_size() {
  local total=0 size
  for seed in $(seq 100000001 100000020); do
    size=$(curl -fsS -o /dev/null -w '%{size_download}' "$BASE/?seed=$seed$1") || skip "GET /?seed=$seed$1 failed"
    total=$((total + size))
  done
  echo $((total / 20))
}

# The CPU time (user and system, in clock ticks) the server's workers have used.
workers_cpu() {
  local total=0 worker fields
  for worker in $(pgrep -P "$server_pid"); do
    read -r -a fields <"/proc/$worker/stat" || continue
    total=$((total + fields[13] + fields[14]))
  done
  echo "$total"
}
tick=$(getconf CLK_TCK)

# One bounded wrk run; prints requests/s and the workers' CPU time per
# request in microseconds (and fails on any non-2xx answer). The CPU time
# is what the server spends, whatever else runs beside it (wrk included).
run_wrk() {
  local out before after
  before=$(workers_cpu)
  out=$(timeout $((SECONDS_PER_RUN + 15)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" "$@")
  after=$(workers_cpu)
  if grep -q 'Non-2xx' <<<"$out" || grep -q 'Socket errors' <<<"$out"; then
    echo "wrk reported errors:" >&2
    echo "$out" >&2
    return 1
  fi
  awk -v ticks=$((after - before)) -v tick="$tick" '/^Requests\/sec:/ { rps = $2 } / requests in / { n = $1 }
    END { printf "%s %.1f\n", rps, ticks / tick / n * 1e6 }' <<<"$out"
}

declare -a names paths queries targets sizes runs constant_runs ratios cpu constant_cpu
for i in "${!WORKLOADS[@]}"; do
  IFS='|' read -r names[i] paths[i] queries[i] targets[i] <<<"${WORKLOADS[i]}"
  sizes[i]=$(mean_size "${queries[i]}")
done
for ceiling in "${CEILINGS[@]}"; do
  i=${#names[@]}
  IFS='|' read -r names[i] paths[i] queries[i] targets[i] of <<<"$ceiling"
  sizes[i]=${sizes[of]}
  queries[i]+="&size=${sizes[i]}"
done
for i in "${!names[@]}"; do
  # Warm-up (the workers' traces), not counted.
  SECONDS_PER_RUN=1 WRK_PATH=${paths[i]} WRK_QUERY=${queries[i]} run_wrk -s bench/wrk_seeds.lua "$BASE/" >/dev/null
  SECONDS_PER_RUN=1 run_wrk "$BASE/bench/constant?size=${sizes[i]}" >/dev/null
done
for _ in $(seq 1 "$ROUNDS"); do
  for i in "${!names[@]}"; do
    read -r constant_rps constant_us < <(run_wrk "$BASE/bench/constant?size=${sizes[i]}")
    read -r rps us < <(WRK_PATH=${paths[i]} WRK_QUERY=${queries[i]} run_wrk -s bench/wrk_seeds.lua "$BASE/")
    constant_runs[i]+=" $constant_rps"
    runs[i]+=" $rps"
    constant_cpu[i]+=" $constant_us"
    cpu[i]+=" $us"
    ratios[i]+=" $(awk -v m="$rps" -v c="$constant_rps" 'BEGIN { printf "%.3f", m / c }')"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
workers=$(pgrep -c -P "$server_pid" || true)

echo "### HTTP (nginx + lua-nginx-module, LuaJIT flavour)"
echo
echo "Server: nginx/nginx.conf plus nginx/bench.conf's /bench/constant; $(nginx -v 2>&1 | sed 's/^nginx version: //'), worker_processes auto ($workers workers)."
echo "wrk -t$THREADS -c$CONNECTIONS -d${SECONDS_PER_RUN}s, 127.0.0.1:$PORT, $ROUNDS rounds (each workload's constant, then the workload) after a 1 s warm-up each; median requests/s, median of the rounds' ratios."
echo "Load average (1, 5, 15 min) before: $load_before; after: $load_after ($(nproc) cores)."
echo
echo "| workload | bytes | requests/s (median) | runs | constant of that size | runs | ratios | ratio (median) | target | server CPU per request: workload, constant (µs, median) |"
echo "| --- | ---: | ---: | --- | ---: | --- | --- | ---: | --- | ---: |"
for i in "${!names[@]}"; do
  # shellcheck disable=SC2086 # the runs are words
  rps=$(median ${runs[i]})
  # shellcheck disable=SC2086
  constant_rps=$(median ${constant_runs[i]})
  # shellcheck disable=SC2086
  ratio=$(median ${ratios[i]})
  # shellcheck disable=SC2086
  us=$(median ${cpu[i]})
  # shellcheck disable=SC2086
  constant_us=$(median ${constant_cpu[i]})
  awk -v name="${names[i]}" -v query="${paths[i]}?seed=N${queries[i]}" -v size="${sizes[i]}" -v m="$rps" \
    -v c="$constant_rps" -v mr="${runs[i]# }" -v cr="${constant_runs[i]# }" -v rs="${ratios[i]# }" -v r="$ratio" \
    -v t="${targets[i]}" -v us="$us" -v cus="$constant_us" 'BEGIN {
    target = (t == "-") ? "(the ceiling)" : sprintf(">= %.2f: %s", t, (r >= t) ? "met" : "MISSED")
    printf "| %s (`%s`) | %d | %s | %s | %s | %s | %s | %.2f | %s | %.1f, %.1f |\n", name, query, size, m, mr, c, cr, rs, r, target, us, cus
  }'
done
