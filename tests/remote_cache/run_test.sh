#!/usr/bin/env bash
# A real shared remote cache: starts nginx (WebDAV PUT/GET, the HTTP cache protocol Bazel speaks) on loopback,
# builds the main job (//examples/multi_model:demo and its model tests) from one fresh clone, then from a second
# clone at a different path with its own output base, and requires the second build to execute 0 actions: every
# process a remote-cache hit (the compiler actions AotCompile / AotReference included). Run by tools/test_all.sh.
#
# The clones are of this checkout's HEAD. Each gets `.venv` as a symlink to this checkout's venv (the suites run
# without network, so no second pip install); the absolute venv path still differs per clone, which is what used to
# make every compiler action miss.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
targets=(//examples/multi_model:demo)

nginx=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$nginx" ]; then
  echo "remote_cache: nginx is not installed (Debian package nginx-light; tools/setup.sh installs it)" >&2
  exit 1
fi
work=$(mktemp -d /tmp/aot_remote_cache.XXXXXX)
port=$((20000 + RANDOM % 20000))
mkdir -p "$work/cache" "$work/nginx"
cat > "$work/nginx/nginx.conf" <<CONF
$( [ "$(id -u)" -eq 0 ] && echo "user root;" )
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body;
  server {
    listen 127.0.0.1:$port;
    root $work/cache;
    client_max_body_size 0;
    dav_methods PUT;
    create_full_put_path on;
  }
}
CONF
"$nginx" -c "$work/nginx/nginx.conf" -p "$work/nginx"
stop() {
  "$nginx" -c "$work/nginx/nginx.conf" -p "$work/nginx" -s stop 2>/dev/null || true
  for c in "$work/first/aot_rules" "$work/second/elsewhere/aot_rules"; do
    [ -d "$c" ] && (cd "$c" && bazel --output_base="$c.out" shutdown >/dev/null 2>&1 || true)
  done
  rm -rf "$work"
}
trap stop EXIT

build() {  # build CLONE_DIR: prints Bazel's process summary line
  git clone -q "$root" "$1"
  ln -s "$root/.venv" "$1/.venv"
  (cd "$1" && bazel --output_base="$1.out" build --remote_cache="http://127.0.0.1:$port" \
    "${targets[@]}" 2>&1) | tee "$1.log" | grep -E "processes|ERROR" || true
  grep -q "Build completed successfully" "$1.log"
}

echo "remote_cache: nginx WebDAV cache on 127.0.0.1:$port; first clone"
build "$work/first/aot_rules"
entries=$(find "$work/cache" -type f | wc -l)
echo "remote_cache: the cache holds $entries entries"
echo "remote_cache: second clone, at a different path, own output base"
build "$work/second/elsewhere/aot_rules"
summary=$(grep -E "^INFO: [0-9]+ process" "$work/second/elsewhere/aot_rules.log" | tail -1)
# Everything that ran must be a cache hit or Bazel-internal; any sandbox/local/worker count is an executed action.
executed=$(sed -E 's/^INFO: [0-9]+ processes?: //; s/\.$//' <<<"$summary" | tr ',' '\n' |
  grep -vE "remote cache hit|internal" | grep -oE "[0-9]+" | paste -sd+ | bc 2>/dev/null || true)
executed=${executed:-0}
if [ "$entries" -gt 0 ] && [ "$executed" -eq 0 ] && grep -q "remote cache hit" <<<"$summary"; then
  echo "remote_cache: PASS: second clone executed 0 actions ($summary)"
else
  echo "remote_cache: FAIL: the second clone executed $executed actions ($summary)" >&2
  exit 1
fi
