#!/usr/bin/env bash
# `make serve-class N=3`: the class deployment on one machine, from a fresh clone: PostgreSQL
# (scripts/start_postgres.sh), N Streamlit replicas on it, and HAProxy in front (deploy/).
#
#   bash scripts/serve_class.sh 3     # http://127.0.0.1:8501 (PORT=, BIND= to change)
#
# Login: with an [auth] section in .streamlit/secrets.toml, or these variables (written to a
# private secrets file under $RUN_DIR, never into the repository), the replicas sign learners in:
#   TUTOR_OIDC_METADATA_URL, TUTOR_OIDC_CLIENT_ID, TUTOR_OIDC_CLIENT_SECRET,
#   TUTOR_PUBLIC_URL (default http://$BIND:$PORT), TUTOR_INSTRUCTOR_EMAILS / _GROUPS.
# Without either the app runs with local profiles (anyone can pick any profile: not for a class).
#
# Other knobs: APP_MAXCONN (connections per replica before the "busy" page, default 150),
# QUEUE_TIMEOUT (5s), COOKIE_SECURE=1 behind HTTPS, TUTOR_SPOOL_DIR (where the replicas keep the
# answers the database has not taken yet; default ~/.local/share/residual-tutor/spool/<database>,
# shared by the replicas: keep it on a disk that survives a restart). Pids in $RUN_DIR/pids
# (app1..appN, proxy); Ctrl-C stops the replicas and the proxy (PostgreSQL keeps running, as a
# system service).
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-3}
PORT=${PORT:-8501}
BIND=${BIND:-127.0.0.1}
APP_PORT_BASE=${APP_PORT_BASE:-8521}
APP_MAXCONN=${APP_MAXCONN:-150}
QUEUE_TIMEOUT=${QUEUE_TIMEOUT:-5s}
RUN_DIR=${RUN_DIR:-/tmp/residual-tutor-class}
PYTHON=.venv/bin/python

if [ ! -x "$PYTHON" ]; then make .venv/.installed-stamp >&2; fi
bash scripts/install_haproxy.sh

mkdir -p "$RUN_DIR"
chmod 700 "$RUN_DIR"
: > "$RUN_DIR/pids"

if [ -z "${TUTOR_DATABASE_URL:-}" ]; then
    TUTOR_DATABASE_URL="$(TUTOR_DB_ROLE=residual_tutor TUTOR_DB_NAME=residual_tutor \
        TUTOR_TEST_DB_PASSWORD="${TUTOR_DB_PASSWORD:-residual_tutor}" \
        bash scripts/start_postgres.sh | tail -n 1)"
fi
export TUTOR_DATABASE_URL

# An unexpected error shows learners a generic message, never a traceback (the app also sets
# this itself in class mode, app_pages/auth.hide_error_details; here it holds from the first run).
export STREAMLIT_CLIENT_SHOW_ERROR_DETAILS=none

# One cookie secret for every replica: Streamlit signs its XSRF and login cookies with it, and a
# learner moved to another replica (one died) must still be recognised there.
export STREAMLIT_SERVER_COOKIE_SECRET=${STREAMLIT_SERVER_COOKIE_SECRET:-$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')}

if [ -n "${TUTOR_OIDC_METADATA_URL:-}" ]; then
    secrets="$RUN_DIR/secrets.toml"
    umask 077
    cat > "$secrets" <<TOML
[auth]
redirect_uri = "${TUTOR_PUBLIC_URL:-http://$BIND:$PORT}/oauth2callback"
cookie_secret = "$STREAMLIT_SERVER_COOKIE_SECRET"
client_id = "${TUTOR_OIDC_CLIENT_ID:?set TUTOR_OIDC_CLIENT_ID}"
client_secret = "${TUTOR_OIDC_CLIENT_SECRET:?set TUTOR_OIDC_CLIENT_SECRET}"
server_metadata_url = "$TUTOR_OIDC_METADATA_URL"
TOML
    umask 022
    export STREAMLIT_SECRETS_FILES="$secrets"
    echo "login: $TUTOR_OIDC_METADATA_URL" >&2
elif grep -qs '^\[auth\]' .streamlit/secrets.toml; then
    echo "login: [auth] in .streamlit/secrets.toml" >&2
else
    echo "no [auth] configured: local profiles (anyone can pick any profile; not for a class)" >&2
fi

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

# The first replica migrates the database; the others would wait on its lock anyway (Alembic
# revisions run once inside the store's write lock), so all start at once.
servers=""
for i in $(seq 1 "$N"); do
    port=$((APP_PORT_BASE + i - 1))
    "$PYTHON" -m app_pages.server --server.port "$port" --server.address 127.0.0.1 \
        > "$RUN_DIR/app$i.log" 2>&1 &
    pids+=($!)
    echo "app$i $! $port" >> "$RUN_DIR/pids"
    servers+="    server app$i 127.0.0.1:$port check cookie app$i"$'\n'
done

secure=""
secure_cookies=""
if [ "${COOKIE_SECURE:-0}" = 1 ]; then
    secure="secure"
    secure_cookies='    http-response replace-header Set-Cookie ^(.*)$ "\1; Secure"'
fi
# Fill in deploy/haproxy.cfg.in (values passed through the environment: no quoting to get wrong).
F_BIND="$BIND" F_PORT="$PORT" F_APP_MAXCONN="$APP_MAXCONN" F_QUEUE_TIMEOUT="$QUEUE_TIMEOUT" \
F_GLOBAL_MAXCONN="$(( 2 * N * APP_MAXCONN > 4096 ? 2 * N * APP_MAXCONN : 4096 ))" \
F_BUSY_PAGE="$(pwd)/deploy/busy.http" F_COOKIE_SECURE="$secure" \
F_SECURE_COOKIES="$secure_cookies" F_SERVERS="${servers%$'\n'}" \
python3 - "$RUN_DIR/haproxy.cfg" <<'PY'
import os, pathlib, sys
text = pathlib.Path("deploy/haproxy.cfg.in").read_text()
for name, value in os.environ.items():
    if name.startswith("F_"):
        text = text.replace(f"@{name[2:]}@", value)
pathlib.Path(sys.argv[1]).write_text(text)
PY
haproxy -c -q -f "$RUN_DIR/haproxy.cfg"

for i in $(seq 1 "$N"); do
    port=$((APP_PORT_BASE + i - 1))
    for _ in $(seq 1 240); do
        if curl -sf "http://127.0.0.1:$port/_stcore/health" >/dev/null 2>&1; then break; fi
        sleep 0.5
    done
done

haproxy -f "$RUN_DIR/haproxy.cfg" -db > "$RUN_DIR/proxy.log" 2>&1 &
pids+=($!)
echo "proxy $! $PORT" >> "$RUN_DIR/pids"
echo "Residual Tutor (class): $N replicas (database ${TUTOR_DATABASE_URL%%:*}) behind HAProxy on http://$BIND:$PORT (logs in $RUN_DIR)"
wait "${pids[-1]}"
