#!/bin/sh
# Load test: a bounded wrk run (127.0.0.1 only) of valid and invalid requests
# against the map server, with worker memory before and after and a check of
# error.log for crashes.  nginx/load.sh [seconds] (default 30)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
SECONDS_=${1:-30}
PORT=${PORT:-$((20000 + $$ % 20000))}
work=$(mktemp -d /tmp/map-load.XXXXXX)

PORT=$PORT ADDR=127.0.0.1 LOG_DIR=$work RUN_DIR=$work "$here/serve.sh" >"$work/serve.out" 2>&1 &
trap 'kill -INT $(cat "$work/nginx.pid" 2>/dev/null) 2>/dev/null || true' EXIT

for _ in $(seq 50); do
  curl -fs "http://127.0.0.1:$PORT/?seed=1&format=text" >/dev/null 2>&1 && break
  sleep 0.1
done
master=$(cat "$work/nginx.pid")
rss() { ps -o rss= --ppid "$master" | awk '{ s += $1; n++ } END { printf "%d KiB in %d workers", s, n }'; }

# A short warm-up first, so "before" is the steady state, not a cold start.
wrk -t2 -c32 -d3s -s "$here/load.lua" "http://127.0.0.1:$PORT/" >/dev/null
echo "worker RSS before: $(rss)"
wrk -t2 -c32 -d"${SECONDS_}s" --latency -s "$here/load.lua" "http://127.0.0.1:$PORT/" | tee "$work/wrk.out"
echo "worker RSS after:  $(rss)"
crashes=$(grep -c "exited on signal" "$work/error.log" || true)
errors=$(grep -cE "\[(error|crit|alert|emerg)\]" "$work/error.log" || true)
echo "error.log: $crashes worker crashes, $errors error-level lines"
fives=$(grep -oE "5[0-9][0-9]: [0-9]+" "$work/wrk.out" || true)
echo "5xx: ${fives:-none}"
[ "$crashes" = 0 ] && [ "$errors" = 0 ] && [ -z "$fives" ]
