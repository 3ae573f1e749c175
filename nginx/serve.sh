#!/bin/sh
# Serves maps at http://$ADDR:$PORT/ in the foreground; Ctrl-C stops it.
#
#   nginx/serve.sh                      # http://127.0.0.1:8080/
#   PORT=8081 ADDR=127.0.0.2 nginx/serve.sh
#
# Settings (environment):
#   PORT, ADDR     where to listen (8080, 127.0.0.1; an IPv6 address as [::1])
#   NGINX          the server binary: default `openresty` when it is on PATH,
#                  else `nginx` (Debian's nginx + libnginx-mod-http-lua)
#   NGINX_MODULES  where Debian's nginx keeps its dynamic modules
#                  (/usr/lib/nginx/modules)
#   LOG_DIR        error.log and access.log (default nginx/logs)
#   RUN_DIR        the generated top-level config and the pid file
#                  (default nginx/tmp/serve-$PORT)
#   SERVER_CONF    a file of extra server-block directives to include, such
#                  as nginx/bench.conf (bench/http.sh's constant location);
#                  none by default
#   HTTP_CONF      an http-block file to serve instead of nginx/nginx.conf:
#                  an app of its own, which says where it listens and where
#                  it finds map.server, as docs/server.md's recipe does
#                  (spec/install_spec.lua); PORT, ADDR and SERVER_CONF do not
#                  apply to it
#
# The prefix (-p) is always nginx/, so nginx.conf finds lua/map/server.lua
# and build/lib/lua/5.1/map.so, and its temp files go to nginx/tmp. This
# script writes, in RUN_DIR, a top-level nginx.conf (load_module lines when
# the binary needs them, pid, error_log, then `include` of nginx/nginx.conf)
# and a listen.conf, which nginx/nginx.conf includes from there.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
PORT=${PORT:-8080}
ADDR=${ADDR:-127.0.0.1}
NGINX_MODULES=${NGINX_MODULES:-/usr/lib/nginx/modules}
LOG_DIR=${LOG_DIR:-$here/logs}
RUN_DIR=${RUN_DIR:-$here/tmp/serve-$PORT}
if [ -z "${NGINX:-}" ]; then
  if command -v openresty >/dev/null 2>&1; then NGINX=openresty; else NGINX=nginx; fi
fi

fail() {
  echo "serve.sh: $*" >&2
  exit 1
}

case $PORT in
  '' | *[!0-9]*) fail "PORT must be a number, got '$PORT'" ;;
esac
case $ADDR in
  '' | *[!]0-9A-Za-z.:[-]*) fail "ADDR must be an address such as 127.0.0.1 or [::1], got '$ADDR'" ;;
esac
command -v "$NGINX" >/dev/null 2>&1 || fail "$NGINX not found (install nginx-light and libnginx-mod-http-lua, or set NGINX)"
[ -f "$here/../build/lib/lua/5.1/map.so" ] || fail "build/lib/lua/5.1/map.so not found: run make first"

if [ -n "${HTTP_CONF:-}" ]; then
  [ -f "$HTTP_CONF" ] || fail "HTTP_CONF: $HTTP_CONF not found"
  HTTP_CONF=$(cd "$(dirname "$HTTP_CONF")" && pwd)/$(basename "$HTTP_CONF")
  case $HTTP_CONF in
    *[!-0-9A-Za-z._/+]*) fail "HTTP_CONF must be a plain path (letters, digits, . _ - + /), got '$HTTP_CONF'" ;;
  esac
fi

if [ -n "${SERVER_CONF:-}" ]; then
  [ -f "$SERVER_CONF" ] || fail "SERVER_CONF: $SERVER_CONF not found"
  SERVER_CONF=$(cd "$(dirname "$SERVER_CONF")" && pwd)/$(basename "$SERVER_CONF")
  case $SERVER_CONF in
    *[!-0-9A-Za-z._/+]*) fail "SERVER_CONF must be a plain path (letters, digits, . _ - + /), got '$SERVER_CONF'" ;;
  esac
fi

mkdir -p "$LOG_DIR" "$RUN_DIR" "$here/tmp"
LOG_DIR=$(cd "$LOG_DIR" && pwd)
RUN_DIR=$(cd "$RUN_DIR" && pwd)

# OpenResty has the Lua module built in; Debian's nginx loads it (and the NDK
# it depends on) as dynamic modules.
modules=""
if ! "$NGINX" -V 2>&1 | grep -Eq 'openresty|--add-module=[^ ]*(ngx_lua|lua-nginx-module)'; then
  for module in ndk_http_module ngx_http_lua_module; do
    [ -f "$NGINX_MODULES/$module.so" ] ||
      fail "$NGINX_MODULES/$module.so not found (install libnginx-mod-http-lua, or set NGINX_MODULES)"
    modules="${modules}load_module $NGINX_MODULES/$module.so;
"
  done
fi

if [ -n "${HTTP_CONF:-}" ]; then
  # What a distribution's nginx.conf holds around the sites it includes.
  server="events {
    worker_connections 1024;
}
http {
    client_body_temp_path $RUN_DIR/client_body;
    proxy_temp_path $RUN_DIR/proxy;
    fastcgi_temp_path $RUN_DIR/fastcgi;
    uwsgi_temp_path $RUN_DIR/uwsgi;
    scgi_temp_path $RUN_DIR/scgi;
    access_log $LOG_DIR/access.log;
    include $HTTP_CONF;
}"
else
  server="include $here/nginx.conf;"
fi
cat >"$RUN_DIR/nginx.conf" <<EOF
# Written by nginx/serve.sh; the server itself is ${HTTP_CONF:-$here/nginx.conf}.
${modules}pid $RUN_DIR/nginx.pid;
error_log $LOG_DIR/error.log notice;
$server
EOF
cat >"$RUN_DIR/listen.conf" <<EOF
# Written by nginx/serve.sh, included by nginx.conf's server block.
listen $ADDR:$PORT;
access_log $LOG_DIR/access.log;
${SERVER_CONF:+include $SERVER_CONF;}
EOF

if [ -n "${HTTP_CONF:-}" ]; then
  echo "serve.sh: $HTTP_CONF ($NGINX; logs in $LOG_DIR; Ctrl-C stops)" >&2
else
  echo "serve.sh: http://$ADDR:$PORT/ ($NGINX; logs in $LOG_DIR; Ctrl-C stops)" >&2
fi
exec "$NGINX" -p "$here/" -c "$RUN_DIR/nginx.conf" -g 'daemon off;'
