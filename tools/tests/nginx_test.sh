#!/usr/bin/env bash
# `check --url` through a real nginx (Debian's package) in front of
# `sse-conform serve`: one server block per deployment fault, and the findings
# check must give for each, no more and no fewer; nothing on the correct
# configuration, over HTTP/1.1, over TLS with HTTP/2 (a CA and certificate made
# here) and over h2c; `check --resume` through the proxy.
# Usage: nginx_test.sh SSE_CONFORM
# Exit 0 when every expectation holds, 1 otherwise, 77 (skipped, saying why)
# without nginx or openssl; SSEC_REQUIRE_NGINX=1 (CI) makes that a failure.
set -uo pipefail
tool="${1:?usage: nginx_test.sh SSE_CONFORM}"
nginx="$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)"
missing=""
[ -x "$nginx" ] || missing="nginx (Debian package nginx-light; tools/install-deps.sh installs it)"
command -v openssl >/dev/null || missing="${missing:+$missing, }openssl"
command -v python3 >/dev/null || missing="${missing:+$missing, }python3"
if [ -n "$missing" ]; then
  if [ "${SSEC_REQUIRE_NGINX:-0}" = 1 ]; then
    echo "FAILED: $missing not found, and SSEC_REQUIRE_NGINX=1 forbids skipping"
    exit 1
  fi
  echo "SKIPPED: $missing not found"
  exit 77
fi

work="$(mktemp -d)"
serve_pid=""
nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Six events with ids, 48 bytes apiece; served one frame per write, 150 ms
# apart (0.75 s in all: long enough for STREAM-BUFFERED to judge a burst).
for i in 1 2 3 4 5 6; do
  printf 'id: %s\nevent: tick\ndata: event number %s of six\n\n' "$i" "$i"
done >"$work/six.sse"
"$tool" serve --port 0 --stream "$work/six.sse" --duration-s 600 >"$work/serve.log" 2>&1 &
serve_pid=$!
upstream=""
for _ in $(seq 100); do
  upstream="$(sed -n 's|.* cases at http://\([^/]*\)/ .*|\1|p' "$work/serve.log")"
  [ -n "$upstream" ] && break
  sleep 0.1
done
[ -n "$upstream" ] || { echo "FAIL: serve did not start: $(cat "$work/serve.log")"; exit 1; }

# A CA and a server certificate for 127.0.0.1, made here.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=sse-conform test CA" \
  -keyout "$work/ca.key" -out "$work/ca.pem" >/dev/null 2>&1 &&
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$work/server.key" -out "$work/server.csr" \
    >/dev/null 2>&1 &&
  printf 'subjectAltName=IP:127.0.0.1\n' >"$work/san.ext" &&
  openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
    -extfile "$work/san.ext" -out "$work/server.pem" >/dev/null 2>&1 ||
  { echo "FAIL: openssl could not make the test certificate"; exit 1; }

# One server block per configuration, each on its own port.
blocks=(correct buffering buffering_http11 gzip read_timeout http10 unchunked tls tls_read_timeout h2c)
# The settings every block but `buffering` shares: what streaming needs.
streaming='proxy_http_version 1.1; proxy_set_header Connection ""; proxy_buffering off;'
settings() {
  case "$1" in
    correct) echo "$streaming" ;;
    buffering) echo '' ;;  # nginx's defaults: proxy_buffering on, proxy_http_version 1.0
    buffering_http11) echo 'proxy_http_version 1.1; proxy_set_header Connection "";' ;;  # buffering on
    gzip) echo "$streaming gzip on; gzip_types text/event-stream; gzip_min_length 1;" ;;
    read_timeout) echo "$streaming proxy_read_timeout 2s;" ;;
    http10) echo 'proxy_http_version 1.0; proxy_buffering off;' ;;
    unchunked) echo "$streaming chunked_transfer_encoding off;" ;;
    tls | h2c) echo "$streaming" ;;
    tls_read_timeout) echo "$streaming proxy_read_timeout 2s;" ;;
  esac
}
listen() {  # BLOCK PORT
  case "$1" in
    tls*) echo "listen 127.0.0.1:$2 ssl http2; ssl_certificate $work/server.pem; ssl_certificate_key $work/server.key;" ;;
    h2c) echo "listen 127.0.0.1:$2 http2;" ;;
    *) echo "listen 127.0.0.1:$2;" ;;
  esac
}
declare -A port
start_nginx() {
  local base=$((20000 + RANDOM % 30000)) i=0
  {
    echo "daemon off; worker_processes 1; pid $work/nginx.pid; error_log $work/error.log warn;"
    echo "events { worker_connections 64; }"
    echo "http { access_log off; client_body_temp_path $work/body; proxy_temp_path $work/proxy;"
    echo "  fastcgi_temp_path $work/fastcgi; uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;"
    for b in "${blocks[@]}"; do
      port[$b]=$((base + i))
      i=$((i + 1))
      echo "  server { $(listen "$b" "${port[$b]}") location / { proxy_pass http://$upstream; $(settings "$b") } }"
    done
    echo "}"
  } >"$work/nginx.conf"
  "$nginx" -c "$work/nginx.conf" -p "$work" >"$work/nginx.out" 2>&1 &
  nginx_pid=$!
  for _ in $(seq 50); do
    if ! kill -0 "$nginx_pid" 2>/dev/null; then
      nginx_pid=""
      return 1
    fi
    (exec 3<>"/dev/tcp/127.0.0.1/${port[h2c]}") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
started=0
for _ in 1 2 3 4 5; do  # another process may hold a port: try other ones
  if start_nginx; then
    started=1
    break
  fi
done
((started)) || { echo "FAIL: nginx did not start: $(cat "$work/nginx.out" "$work/error.log" 2>/dev/null)"; exit 1; }
echo "nginx $("$nginx" -v 2>&1 | sed 's|.*/||') on ports ${port[correct]}-${port[h2c]}, in front of serve at $upstream"

status=0
# check BLOCK EXPECTED URL-SCHEME QUERY [OPTIONS...]: the rule ids check reports
# (sorted, space-separated; "-" for none) and, for TLS and h2c, the protocol.
expect() {
  local name="$1" want="$2" scheme="$3" query="$4"
  shift 4
  local url="$scheme://127.0.0.1:${port[${name%%:*}]}/stream/six.sse?$query"
  "$tool" check --dialect wire --url "$url" --quiet --json "$work/$name.json" "$@" >"$work/$name.txt" 2>&1
  local got
  got="$(python3 - "$work/$name.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rules = sorted({f["rule"] for f in r["findings"]})
print(" ".join(rules) or "-", r["response"].get("protocol") or "-", sep="|")
PY
)" || got="(no report)|-"
  if [ "$got" = "$want" ]; then
    echo "ok: $name: ${want%%|*} over ${want##*|}"
  else
    echo "FAIL: $name: expected ${want%%|*} over ${want##*|}, got ${got%%|*} over ${got##*|}"
    sed 's/^/    /' "$work/$name.txt"
    status=1
  fi
}
frames='split=frames&delay_ms=150'
expect correct "-|HTTP/1.1" http "$frames"
expect buffering "STREAM-BUFFERED|HTTP/1.1" http "$frames"
# With HTTP/1.1 to the upstream, nginx 1.22 passes each upstream chunk on as
# it comes, buffering on or not: nothing to report.
expect buffering_http11 "-|HTTP/1.1" http "$frames"
expect gzip "HTTP-COMPRESSION|HTTP/1.1" http "$frames"
# Two frames, then 5 s of silence: nginx's 2 s read timeout cuts the stream.
expect read_timeout "STREAM-RESET|HTTP/1.1" http "split=frames&delay_ms=50&stall=5&stall_at=94"
# HTTP/1.0 to the upstream with buffering off streams as well: nothing.
expect http10 "-|HTTP/1.1" http "$frames"
expect unchunked "HTTP-CLOSE-DELIMITED|HTTP/1.1" http "$frames"
expect tls "-|HTTP/2" https "$frames" --cacert "$work/ca.pem"
expect h2c "-|HTTP/2" http "$frames" --http2-prior-knowledge
# The read timeout over HTTP/2: nginx resets the stream; its code is named.
expect tls_read_timeout "STREAM-RESET|HTTP/2" https "split=frames&delay_ms=50&stall=5&stall_at=94" --cacert "$work/ca.pem"
# Without the CA the certificate is not trusted; -k accepts it.
expect tls:untrusted "STREAM-TLS|-" https "$frames"
expect tls:insecure "-|HTTP/2" https "$frames" -k

# The cut after the silence says what likely made it.
if grep -q "after 1\.[0-9]* s of silence: a proxy or load balancer likely closed an idle stream" \
  "$work/read_timeout.txt"; then
  echo "ok: read_timeout: the silence before the cut and its likely cause are named:"
  grep -o "it came after [0-9.]* s of silence: [^;]*" "$work/read_timeout.txt" | sed 's/^/    /'
else
  echo "FAIL: read_timeout: the report does not name the silence before the cut:"
  sed 's/^/    /' "$work/read_timeout.txt"
  status=1
fi

# The HTTP/2 reset names its code.
if grep -qE "STREAM-RESET \(must\) .*[A-Z_]+ \(err [0-9]+\)" "$work/tls_read_timeout.txt"; then
  echo "ok: tls_read_timeout: the HTTP/2 reset is named:"
  grep -oE "the connection broke [^:]*: [^;]*(; [A-Z_]+: [^;]*)?" "$work/tls_read_timeout.txt" | sed 's/^/    /'
else
  echo "FAIL: tls_read_timeout: the report does not name the HTTP/2 reset's code:"
  sed 's/^/    /' "$work/tls_read_timeout.txt"
  status=1
fi

# check --resume through the proxy: Last-Event-ID reaches serve, which resumes.
resume_url="http://127.0.0.1:${port[correct]}/stream/six.sse?resume=1&split=frames&delay_ms=20"
"$tool" check --dialect wire --url "$resume_url" --resume --max-events 2 --quiet --json "$work/resume.json" \
  >"$work/resume.txt" 2>&1
verdict="$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["resume"]["verdict"], r["resume"]["replayed"])' \
  "$work/resume.json" 2>/dev/null)"
if [ "$verdict" = "resumed 0" ]; then
  echo "ok: resume: through the proxy, resumed after Last-Event-ID with nothing replayed"
else
  echo "FAIL: resume: expected 'resumed 0', got '$verdict'"
  sed 's/^/    /' "$work/resume.txt"
  status=1
fi
exit $status
