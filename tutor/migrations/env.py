"""Alembic's command line for an operator: `alembic upgrade head`, `alembic current`,
`alembic history` (run from the repository's root, where `alembic.ini` is).

The app runs it too, through `alembic.command.upgrade` with the connection it holds in the
config's attributes (`tutor.migrations.upgrade`, inside the store's own write transaction, after
its checks): then the revisions run on that connection and nothing else happens here. From the
command line this file does the same work the same way:

- the database is the app's setting, `$TUTOR_DATABASE_URL` (never a URL in `alembic.ini` or
  anywhere in the repository); without it the command refuses, rather than make an empty SQLite
  file where the operator did not mean one (`alembic current` on a server with the variable
  unset once did). For a single machine's own file, name it: `sqlite:///<path>/progress.db`;
- the same checks first (a file that is not SQLite, a database another program made or a newer
  app migrated is refused, untouched);
- the same lock: one write transaction (SQLite `BEGIN IMMEDIATE`, PostgreSQL's advisory lock that
  the replicas take), so an upgrade cannot run alongside a starting replica's;
- a database from the numbered migrations before Alembic is stamped at its number first, and
  `schema_version` follows the revision afterwards, as the app keeps it.
"""

import os
from logging.config import fileConfig

from alembic import context

from tutor import migrations
from tutor.store.database import GLOBAL_LOCK, Database
from tutor.store.engine import ENV_URL, default_database_path
from tutor.store.errors import StoreUnavailable


def require_database_setting(env=os.environ) -> None:
    if not env.get(ENV_URL, "").strip():
        raise SystemExit(
            f"{ENV_URL} is not set: set it to the app's database (e.g. the URL serve_class.sh "
            f"prints, or sqlite:///{default_database_path(env)} for this machine's own file); "
            "nothing was opened or created")


def run_migrations_online() -> None:
    require_database_setting()
    try:
        database = Database.open(migrate=False, retries=5)
    except StoreUnavailable as exc:
        raise SystemExit(f"cannot open the database: {exc.message('en')}") from None

    def command(conn) -> None:
        database.refuse_foreign(conn)
        context.configure(connection=conn, transactional_ddl=True)
        migrations.stamp_numbered(conn, context.get_context())
        context.run_migrations()
        migrations.keep_numbered_version(conn)

    try:
        database.write(command, lock_key=GLOBAL_LOCK)
    except StoreUnavailable as exc:
        raise SystemExit(f"cannot migrate the database: {exc.message('en')}") from None
    finally:
        database.close()


def run_migrations_on(conn) -> None:
    """The app's own upgrade: its connection, its transaction, its lock, its checks done."""
    context.configure(connection=conn, transactional_ddl=True)
    migrations.stamp_numbered(conn, context.get_context())
    context.run_migrations()


if context.config.config_file_name is not None:  # alembic.ini's logging: one line per revision
    fileConfig(context.config.config_file_name, disable_existing_loggers=False)
if context.is_offline_mode():
    raise SystemExit("offline mode (--sql) is not supported: the revisions read the database "
                     "they upgrade; run the command without --sql")
if (app_connection := context.config.attributes.get("connection")) is not None:
    run_migrations_on(app_connection)
else:
    run_migrations_online()
