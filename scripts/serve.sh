#!/usr/bin/env bash
# `make serve N=2`: N app processes on one machine behind HAProxy, with cookie session affinity.
#
# One Streamlit process runs its script runs on one core (they share one interpreter lock), so a
# 2-core machine serves twice the learners with two processes. A learner's session lives in one
# process: HAProxy gives each browser a cookie (TUTOR_APP) on its first page load naming the
# process it was sent to, and sends every later request of that browser there, the websocket
# upgrade at /_stcore/stream included. All processes share the progress database
# (TUTOR_DATABASE_URL, or the default SQLite file: WAL, and each process queues its writes).
#
#   bash scripts/serve.sh 2            # the app on http://127.0.0.1:8501 (PORT=, BIND= to change)
#
# Ctrl-C stops HAProxy and the app processes. The pids are written to $RUN_DIR/pids.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-2}
PORT=${PORT:-8501}
BIND=${BIND:-127.0.0.1}
APP_PORT_BASE=${APP_PORT_BASE:-8511}
RUN_DIR=${RUN_DIR:-/tmp/residual-tutor-serve}
PYTHON=.venv/bin/python

bash scripts/install_haproxy.sh

mkdir -p "$RUN_DIR"
: > "$RUN_DIR/pids"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

# One cookie secret for all processes: Streamlit signs its XSRF cookie with it.
export STREAMLIT_SERVER_COOKIE_SECRET=${STREAMLIT_SERVER_COOKIE_SECRET:-$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')}

servers=""
for i in $(seq 1 "$N"); do
    port=$((APP_PORT_BASE + i - 1))
    "$PYTHON" -m server_tuning --server.port "$port" --server.address 127.0.0.1 \
        > "$RUN_DIR/app$i.log" 2>&1 &
    pids+=($!)
    echo "$!" >> "$RUN_DIR/pids"
    servers+="    server app$i 127.0.0.1:$port check cookie app$i"$'\n'
done

cat > "$RUN_DIR/haproxy.cfg" <<EOF
global
    maxconn 4096

defaults
    mode http
    timeout connect 5s
    timeout client 1h
    timeout server 1h
    # A websocket is a tunnel once upgraded: a learner may think for a long time.
    timeout tunnel 1h

frontend tutor
    bind $BIND:$PORT
    # security headers and no public metrics: see deploy/haproxy.cfg.in
    http-request deny deny_status 404 if { path,url_dec -m sub /_stcore/metrics }
    http-after-response set-header X-Frame-Options SAMEORIGIN
    http-after-response set-header Content-Security-Policy "frame-ancestors 'self'; base-uri 'self'; object-src 'none'"
    http-after-response set-header X-Content-Type-Options nosniff
    http-after-response set-header Referrer-Policy same-origin
    default_backend apps

backend apps
    balance leastconn
    # Session affinity: the first response sets TUTOR_APP; later requests follow it.
    cookie TUTOR_APP insert indirect nocache httponly
    option httpchk GET /_stcore/health
$servers
EOF

for i in $(seq 1 "$N"); do
    port=$((APP_PORT_BASE + i - 1))
    for _ in $(seq 1 120); do
        if curl -sf "http://127.0.0.1:$port/_stcore/health" >/dev/null 2>&1; then break; fi
        sleep 0.5
    done
done

echo "Residual Tutor: $N app processes behind HAProxy on http://$BIND:$PORT (logs in $RUN_DIR)"
haproxy -f "$RUN_DIR/haproxy.cfg" -db &
pids+=($!)
echo "$!" >> "$RUN_DIR/pids"
wait "${pids[-1]}"
