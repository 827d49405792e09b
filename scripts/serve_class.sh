#!/usr/bin/env bash
# `make serve-class N=3`: the class deployment on one machine, from a fresh clone: PostgreSQL
# (scripts/start_postgres.sh), N Streamlit replicas on it, HAProxy in front (deploy/), and this
# script staying in the foreground as their supervisor. docs/deploying.md is the operator's guide.
#
#   bash scripts/serve_class.sh 3     # http://127.0.0.1:8501 (PORT=, BIND= to change)
#
# It refuses to start (exit 3, touching nothing: no pid file, log or secret rewritten) over a
# running deployment: another serve_class.sh on the same $STATE_DIR or $RUN_DIR, a live pid in
# $RUN_DIR/pids, or any of its ports taken. It prints its banner only once every replica and the
# proxy answer their health check, and Ctrl-C / SIGTERM stops the replicas and the proxy
# (PostgreSQL keeps running, as a system service). While it runs it restarts a replica or the
# proxy that died (checked every second; a line in $RUN_DIR/supervisor.log) and, with
# TUTOR_RETENTION_DAYS set, removes the learners inactive longer than that once an hour
# (`python -m tutor.learner_data purge-inactive`).
#
# State kept across restarts, in $STATE_DIR (root: /var/lib/residual-tutor; otherwise
# ~/.local/state/residual-tutor):
#   secrets/cookie_secret   made once: signs the login cookies, so a restart or an upgrade signs
#                           nobody out (STREAMLIT_SERVER_COOKIE_SECRET overrides it);
#   secrets/db_password     made once, random, and set on the database role at every start
#                           (TUTOR_DB_PASSWORD replaces it, and is set on the role too);
#   data/                   the replicas' home: the spool (answers the database has not taken
#                           yet: keep it on a local disk) and the instructors' question folder
#                           (data/residual-tutor/bank; TUTOR_BANK_PATHS puts it on shared storage).
# Run as root, the replicas run as the unprivileged system user $TUTOR_SERVICE_USER (default
# residual-tutor, created here when missing); otherwise as the user who runs this script.
#
# Login: with an [auth] section in .streamlit/secrets.toml, or these variables (written to a
# private secrets file in $STATE_DIR, never into the repository), the replicas sign learners in:
#   TUTOR_OIDC_METADATA_URL, TUTOR_OIDC_CLIENT_ID, TUTOR_OIDC_CLIENT_SECRET,
#   TUTOR_PUBLIC_URL (default http://$BIND:$PORT), TUTOR_INSTRUCTOR_EMAILS / _GROUPS.
# Without either the app runs with local profiles (anyone can pick any profile: not for a class).
#
# Other knobs: APP_MAXCONN (connections per replica before the "busy" page, default 150),
# QUEUE_TIMEOUT (5s), COOKIE_SECURE=1 behind HTTPS, TUTOR_SPOOL_DIR (the spool folder itself),
# RUN_DIR (pids and logs, default /tmp/residual-tutor-class), TUTOR_PYTHON (the virtualenv's
# Python, default .venv/bin/python). Pids in $RUN_DIR/pids (app1..appN, proxy: rewritten when the
# supervisor restarts one).
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-3}
PORT=${PORT:-8501}
BIND=${BIND:-127.0.0.1}
APP_PORT_BASE=${APP_PORT_BASE:-8521}
APP_MAXCONN=${APP_MAXCONN:-150}
QUEUE_TIMEOUT=${QUEUE_TIMEOUT:-5s}
RUN_DIR=${RUN_DIR:-/tmp/residual-tutor-class}
RETENTION_EVERY=${TUTOR_RETENTION_CHECK_SECONDS:-3600}
PYTHON=${TUTOR_PYTHON:-.venv/bin/python}
if [ "$(id -u)" = 0 ]; then
    STATE_DIR=${STATE_DIR:-/var/lib/residual-tutor}
    SERVICE_USER=${TUTOR_SERVICE_USER:-residual-tutor}
else
    STATE_DIR=${STATE_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/residual-tutor}
    SERVICE_USER=$(id -un)
fi
DATA_DIR=$STATE_DIR/data
umask 077  # logs, secrets and pid files are the operator's alone

refuse() {
    echo "serve_class.sh: not started: $*" >&2
    exit 3
}

if [ ! -x "$PYTHON" ] && [ -z "${TUTOR_PYTHON:-}" ]; then make .venv/.installed-stamp >&2; fi
bash scripts/install_haproxy.sh

# ---- refuse to start over a running deployment (before anything is written) -------------------
mkdir -p "$STATE_DIR" "$RUN_DIR"
# One lock per state directory and one per run directory, held while this script runs (fd 8, 9;
# closed for every child, so a replica left behind never holds them).
exec 8>>"$STATE_DIR/serve.lock" 9>>"$RUN_DIR/serve.lock"
flock -n 8 || refuse "another serve_class.sh runs on $STATE_DIR"
flock -n 9 || refuse "another serve_class.sh runs with $RUN_DIR"
if [ -f "$RUN_DIR/pids" ]; then
    while read -r name pid _; do
        if [ -n "${pid:-}" ] && kill -0 "$pid" 2>/dev/null; then
            refuse "$name (pid $pid, from $RUN_DIR/pids) is still running"
        fi
    done < "$RUN_DIR/pids"
fi
ports="$PORT"
for i in $(seq 1 "$N"); do ports+=" $((APP_PORT_BASE + i - 1))"; done
busy=$(python3 - "$BIND" $ports <<'PY'
import socket, sys
bind, ports = sys.argv[1], sys.argv[2:]
for index, port in enumerate(ports):
    host = bind if index == 0 else "127.0.0.1"
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, int(port)))
        except OSError:
            print(f"{host}:{port}", end=" ")
PY
)
[ -z "$busy" ] || refuse "port(s) already in use: $busy"

# ---- the service user and the state directory ---------------------------------------------------
AS_SERVICE=()
if [ "$(id -u)" = 0 ]; then
    if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
        echo "created the system user $SERVICE_USER" >&2
    fi
    [ "$(id -u "$SERVICE_USER")" != 0 ] || refuse "TUTOR_SERVICE_USER=$SERVICE_USER is root"
    AS_SERVICE=(setpriv --reuid="$SERVICE_USER" --regid="$(id -g "$SERVICE_USER")" --init-groups --)
fi
service_dir() {  # a directory the replicas own (and nobody else reads)
    mkdir -p "$1"
    if [ "$(id -u)" = 0 ]; then chown "$SERVICE_USER:" "$1"; fi
    chmod 700 "$1"
}
chmod 755 "$STATE_DIR" "$RUN_DIR"  # traversable: the replicas reach data/ (and a spool in RUN_DIR)
mkdir -p "$STATE_DIR/secrets"
chmod 700 "$STATE_DIR/secrets"
service_dir "$DATA_DIR"
if [ -n "${TUTOR_SPOOL_DIR:-}" ]; then service_dir "$TUTOR_SPOOL_DIR"; fi
# A test machine may keep its checkout or its Python where only root can pass (pyenv's under a
# 0700 /root). With TUTOR_OPEN_PATHS=1 (set by `make test` and the class checks, never for a
# school's server: move the checkout and the Python instead) the folders above them that the
# service user cannot pass are made passable (o+x: entering, not listing), each one named.
open_paths() {
    local target dir part
    for target in "$@"; do
        dir=""
        IFS=/ read -ra parts <<< "$(dirname "$(readlink -f "$target")")"
        for part in "${parts[@]}"; do
            [ -n "$part" ] || continue
            dir+="/$part"
            if ! "${AS_SERVICE[@]}" test -x "$dir"; then
                chmod o+x "$dir"
                echo "serve_class.sh: $dir made passable for $SERVICE_USER (TUTOR_OPEN_PATHS=1)" >&2
            fi
        done
    done
}
if [ "${TUTOR_OPEN_PATHS:-}" = 1 ] && [ "$(id -u)" = 0 ]; then
    open_paths "$PYTHON" "$PWD/server_tuning/__main__.py"
fi
# The replicas start Python subprocesses (the compute and grader workers) with their own
# interpreter: the service user must be able to run it, not only the first process (a virtualenv
# made from a Python under /root, e.g. pyenv's, is not). Say so now, not as an error page.
if ! "${AS_SERVICE[@]}" "$PYTHON" -c 'import subprocess, sys; subprocess.run([sys.executable, "-c", ""], check=True)' \
        >/dev/null 2>&1; then
    refuse "$SERVICE_USER cannot run $PYTHON (-> $(readlink -f "$PYTHON")): make the virtualenv from a Python every user can read (make clean && make PYTHON=/usr/bin/python3.11), or name one with TUTOR_PYTHON"
fi
# The replicas must be able to write their spool and (for the Author page) the question folder:
# say so now, not as an error page for the first learner.
for folder in "$DATA_DIR" ${TUTOR_SPOOL_DIR:+"$TUTOR_SPOOL_DIR"}; do
    "${AS_SERVICE[@]}" test -w "$folder" -a -x "$folder" \
        || refuse "$SERVICE_USER cannot write $folder (a folder above it is private?)"
done

secret() {  # the value in secrets/$1, made once (64 hex digits) or replaced by $2 when given
    local file="$STATE_DIR/secrets/$1"
    if [ -n "${2:-}" ]; then
        printf '%s' "$2" > "$file.new" && mv "$file.new" "$file"
    elif [ ! -s "$file" ]; then
        head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$file.new" && mv "$file.new" "$file"
    fi
    cat "$file"
}

if [ -z "${TUTOR_DATABASE_URL:-}" ]; then
    db_password=$(secret db_password "${TUTOR_DB_PASSWORD:-}")
    TUTOR_DATABASE_URL="$(TUTOR_DB_ROLE=residual_tutor TUTOR_DB_NAME=residual_tutor \
        TUTOR_TEST_DB_PASSWORD="$db_password" bash scripts/start_postgres.sh 8>&- 9>&- | tail -n 1)"
fi
export TUTOR_DATABASE_URL

# An unexpected error shows learners a generic message, never a traceback (the app also sets
# this itself in class mode, app_pages/auth.hide_error_details; here it holds from the first run).
export STREAMLIT_CLIENT_SHOW_ERROR_DETAILS=none

# One cookie secret for every replica and every start: Streamlit signs its XSRF and login cookies
# with it, and a learner moved to another replica (one died), or back after a restart, must still
# be recognised.
STREAMLIT_SERVER_COOKIE_SECRET=${STREAMLIT_SERVER_COOKIE_SECRET:-$(secret cookie_secret)}
export STREAMLIT_SERVER_COOKIE_SECRET

if [ -n "${TUTOR_OIDC_METADATA_URL:-}" ]; then
    secrets="$STATE_DIR/auth.toml"
    cat > "$secrets.new" <<TOML
[auth]
redirect_uri = "${TUTOR_PUBLIC_URL:-http://$BIND:$PORT}/oauth2callback"
cookie_secret = "$STREAMLIT_SERVER_COOKIE_SECRET"
client_id = "${TUTOR_OIDC_CLIENT_ID:?set TUTOR_OIDC_CLIENT_ID}"
client_secret = "${TUTOR_OIDC_CLIENT_SECRET:?set TUTOR_OIDC_CLIENT_SECRET}"
server_metadata_url = "$TUTOR_OIDC_METADATA_URL"
TOML
    if [ "$(id -u)" = 0 ]; then chown "$SERVICE_USER:" "$secrets.new"; fi
    mv "$secrets.new" "$secrets"
    export STREAMLIT_SECRETS_FILES="$secrets"
    echo "login: $TUTOR_OIDC_METADATA_URL" >&2
elif grep -qs '^\[auth\]' .streamlit/secrets.toml; then
    echo "login: [auth] in .streamlit/secrets.toml" >&2
else
    echo "no [auth] configured: local profiles (anyone can pick any profile; not for a class)" >&2
fi

# ---- the processes ------------------------------------------------------------------------------
declare -A pid_of=()
# A command as the service user, with its home in data/ (the spool, the question folder): a
# simple command, so that `$!` is the replica's own pid (setpriv and env exec it), never a subshell
# around it that a SIGKILL would leave the replica behind.
start_replica() {
    local i=$1 port=$((APP_PORT_BASE + $1 - 1))
    env HOME="$DATA_DIR" XDG_DATA_HOME="$DATA_DIR" "${AS_SERVICE[@]}" \
        "$PYTHON" -m server_tuning --server.port "$port" --server.address 127.0.0.1 \
        >> "$RUN_DIR/app$i.log" 2>&1 8>&- 9>&- &
    pid_of[app$i]=$!
}
start_proxy() {
    haproxy -f "$RUN_DIR/haproxy.cfg" -db >> "$RUN_DIR/proxy.log" 2>&1 8>&- 9>&- &
    pid_of[proxy]=$!
}
write_pids() {
    local name
    {
        for i in $(seq 1 "$N"); do echo "app$i ${pid_of[app$i]} $((APP_PORT_BASE + i - 1))"; done
        if [ -n "${pid_of[proxy]:-}" ]; then echo "proxy ${pid_of[proxy]} $PORT"; fi
    } > "$RUN_DIR/pids.new"
    mv "$RUN_DIR/pids.new" "$RUN_DIR/pids"
}
stopping=0
cleanup() {
    trap - EXIT INT TERM
    local pids=("${pid_of[@]}")
    kill "${pids[@]}" 2>/dev/null || true
    local pid left
    for _ in $(seq 1 40); do  # at most 20 s for a clean stop, then SIGKILL
        left=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && left=1; done
        [ "$left" = 1 ] || break
        sleep 0.5
    done
    kill -9 "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -f "$RUN_DIR/pids"
}
trap cleanup EXIT
trap 'stopping=1' INT TERM

healthy() { curl -sf -o /dev/null --max-time 2 "$1/_stcore/health"; }
note() { echo "$(date -u +%FT%TZ) $*" | tee -a "$RUN_DIR/supervisor.log" >&2; }

: > "$RUN_DIR/supervisor.log"
for i in $(seq 1 "$N"); do : > "$RUN_DIR/app$i.log"; done
: > "$RUN_DIR/proxy.log"

# The first replica migrates the database; the others would wait on its lock anyway (Alembic
# revisions run once inside the store's write lock), so all start at once.
servers=""
for i in $(seq 1 "$N"); do
    start_replica "$i"
    servers+="    server app$i 127.0.0.1:$((APP_PORT_BASE + i - 1)) check cookie app$i"$'\n'
done
write_pids

secure=""
secure_cookies=""
if [ "${COOKIE_SECURE:-0}" = 1 ]; then
    secure="secure"
    secure_cookies='    http-response replace-header Set-Cookie ^(.*)$ "\1; Secure"'
fi
# Fill in deploy/haproxy.cfg.in (values passed through the environment: no quoting to get wrong).
F_BIND="$BIND" F_PORT="$PORT" F_APP_MAXCONN="$APP_MAXCONN" F_QUEUE_TIMEOUT="$QUEUE_TIMEOUT" \
F_GLOBAL_MAXCONN="$(( 2 * N * APP_MAXCONN > 4096 ? 2 * N * APP_MAXCONN : 4096 ))" \
F_BUSY_PAGE="$(pwd)/deploy/busy.http" F_DOWN_PAGE="$(pwd)/deploy/down.html" \
F_COOKIE_SECURE="$secure" F_SECURE_COOKIES="$secure_cookies" F_SERVERS="${servers%$'\n'}" \
python3 - "$RUN_DIR/haproxy.cfg" <<'PY'
import os, pathlib, sys
text = pathlib.Path("deploy/haproxy.cfg.in").read_text()
for name, value in os.environ.items():
    if name.startswith("F_"):
        text = text.replace(f"@{name[2:]}@", value)
pathlib.Path(sys.argv[1]).write_text(text)
PY
haproxy -c -q -f "$RUN_DIR/haproxy.cfg"

# Every replica must serve before the banner: one that exited (a port taken meanwhile, a bad
# setting) stops the start, with its log.
for i in $(seq 1 "$N"); do
    port=$((APP_PORT_BASE + i - 1))
    for _ in $(seq 1 240); do
        if healthy "http://127.0.0.1:$port" || [ "$stopping" = 1 ]; then break; fi
        if ! kill -0 "${pid_of[app$i]}" 2>/dev/null; then break; fi
        sleep 0.5
    done
    [ "$stopping" = 0 ] || exit 0
    if ! kill -0 "${pid_of[app$i]}" 2>/dev/null || ! healthy "http://127.0.0.1:$port"; then
        tail -n 20 "$RUN_DIR/app$i.log" >&2
        echo "serve_class.sh: app$i did not start (log: $RUN_DIR/app$i.log); stopping" >&2
        exit 1
    fi
done

start_proxy
write_pids
probe_host=$BIND
if [ "$BIND" = 0.0.0.0 ] || [ "$BIND" = "*" ]; then probe_host=127.0.0.1; fi
for _ in $(seq 1 20); do
    if healthy "http://$probe_host:$PORT"; then break; fi
    sleep 0.5
done
if ! healthy "http://$probe_host:$PORT"; then
    cat "$RUN_DIR/proxy.log" >&2
    echo "serve_class.sh: HAProxy does not answer on $BIND:$PORT; stopping" >&2
    exit 1
fi
echo "Residual Tutor (class): $N replicas (database ${TUTOR_DATABASE_URL%%:*}) behind HAProxy on http://$BIND:$PORT, replicas as $SERVICE_USER (logs in $RUN_DIR, state in $STATE_DIR)"

# ---- the supervisor ------------------------------------------------------------------------------
# The first a minute after the start (sooner when the period between runs is shorter), then
# every TUTOR_RETENTION_CHECK_SECONDS (an hour).
next_purge=$(( $(date +%s) + (RETENTION_EVERY < 60 ? RETENTION_EVERY : 60) ))
while [ "$stopping" = 0 ]; do
    for name in "${!pid_of[@]}"; do
        if kill -0 "${pid_of[$name]}" 2>/dev/null || [ "$stopping" = 1 ]; then continue; fi
        if [ "$name" = proxy ]; then start_proxy; else start_replica "${name#app}"; fi
        write_pids
        note "$name had stopped; restarted (pid ${pid_of[$name]})"
    done
    if [ -n "${TUTOR_RETENTION_DAYS:-}" ] && [ "$(date +%s)" -ge "$next_purge" ]; then
        env HOME="$DATA_DIR" "${AS_SERVICE[@]}" "$PYTHON" -m tutor.learner_data --by serve_class.sh purge-inactive \
            >> "$RUN_DIR/supervisor.log" 2>&1 8>&- 9>&- || note "purge-inactive failed (above)"
        next_purge=$(( $(date +%s) + RETENTION_EVERY ))
    fi
    sleep 1 & wait $! || true
done
