#!/usr/bin/env bash
# Start a local PostgreSQL for the tutor store tests and print its URL on stdout (last line).
#   export TUTOR_TEST_DATABASE_URL="$(bash scripts/start_postgres.sh | tail -n 1)"
# Installs Debian's postgresql when missing (needs root), starts the first cluster, and creates
# the role and database tutor_test (idempotent: running it twice is fine). TUTOR_DB_ROLE and
# TUTOR_DB_NAME choose others (scripts/serve_class.sh: residual_tutor). The role's password is set
# to TUTOR_TEST_DB_PASSWORD on every run, a role made earlier included (serve_class.sh passes its
# generated one), through psql's input, never on a command line that `ps` shows.
set -euo pipefail

ROLE=${TUTOR_DB_ROLE:-tutor_test}
DB=${TUTOR_DB_NAME:-tutor_test}
PASSWORD=${TUTOR_TEST_DB_PASSWORD:-tutor_test}

if ! command -v pg_lsclusters >/dev/null 2>&1 || [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
    echo "installing postgresql ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
fi

VERSION=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
if [ -n "${TUTOR_PG_CLUSTER:-}" ]; then
    # A cluster of its own (bench/class_load.py restarts it mid-run: not the one tests share).
    if ! pg_lsclusters -h | awk -v v="$VERSION" -v c="$TUTOR_PG_CLUSTER" '$1 == v && $2 == c' | grep -q .; then
        pg_createcluster "$VERSION" "$TUTOR_PG_CLUSTER" ${TUTOR_PG_PORT:+-p "$TUTOR_PG_PORT"} >&2
    fi
    pick='$1 == v && $2 == c'
else
    if ! pg_lsclusters -h | awk '{print $1}' | grep -qx "$VERSION"; then
        pg_createcluster "$VERSION" main >&2
    fi
    pick='$1 == v'
    # "main" when it exists (a load run may have added a cluster of its own beside it)
    if pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main"' | grep -q .; then
        pick='$1 == v && $2 == "main"'
    fi
fi
CLUSTER=$(pg_lsclusters -h | awk -v v="$VERSION" -v c="${TUTOR_PG_CLUSTER:-}" "$pick {print \$2; exit}")
PORT=$(pg_lsclusters -h | awk -v v="$VERSION" -v c="${TUTOR_PG_CLUSTER:-}" "$pick {print \$3; exit}")
STATUS=$(pg_lsclusters -h | awk -v v="$VERSION" -v c="${TUTOR_PG_CLUSTER:-}" "$pick {print \$4; exit}")
if [ "$STATUS" != "online" ]; then
    pg_ctlcluster "$VERSION" "$CLUSTER" start >&2
fi

# Wait until the server accepts connections (at most ~20 s).
for _ in $(seq 1 40); do
    if su postgres -c "psql -p $PORT -qtAc 'select 1'" >/dev/null 2>&1; then break; fi
    sleep 0.5
done

psql_admin() { su postgres -c "psql -p $PORT -v ON_ERROR_STOP=1 -qtAc \"$1\""; }
if [ "$(psql_admin "select 1 from pg_roles where rolname = '$ROLE'")" != "1" ]; then
    psql_admin "create role $ROLE login" >&2
fi
quoted_password=${PASSWORD//\'/\'\'}
printf "alter role %s password '%s';\n" "$ROLE" "$quoted_password" \
    | su postgres -c "psql -p $PORT -v ON_ERROR_STOP=1 -qtA" >/dev/null
if [ "$(psql_admin "select 1 from pg_database where datname = '$DB'")" != "1" ]; then
    psql_admin "create database $DB owner $ROLE" >&2
fi

url_password=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$PASSWORD")
echo "postgresql+psycopg://$ROLE:$url_password@127.0.0.1:$PORT/$DB"
