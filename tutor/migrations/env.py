"""Alembic's command line for an operator: `alembic upgrade head`, `alembic current`,
`alembic history` (run from the repository's root, where `alembic.ini` is).

The app does not need this file: it migrates its database itself when it opens it
(`tutor.store.database`). Here the command line does the same work the same way:

- the database is the app's: `$TUTOR_DATABASE_URL`, else the default SQLite file (never a URL
  in `alembic.ini` or anywhere in the repository);
- the same checks first (a file that is not SQLite, a database another program made or a newer
  app migrated is refused, untouched);
- the same lock: one write transaction (SQLite `BEGIN IMMEDIATE`, PostgreSQL's advisory lock that
  the replicas take), so an upgrade cannot run alongside a starting replica's;
- a database from the numbered migrations before Alembic is stamped at its number first, and
  `schema_version` follows the revision afterwards, as the app keeps it.
"""

from logging.config import fileConfig

from alembic import context

from tutor import migrations
from tutor.store.database import GLOBAL_LOCK, Database
from tutor.store.errors import StoreUnavailable


def run_migrations_online() -> None:
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


if context.config.config_file_name is not None:  # alembic.ini's logging: one line per revision
    fileConfig(context.config.config_file_name, disable_existing_loggers=False)
if context.is_offline_mode():
    raise SystemExit("offline mode (--sql) is not supported: the revisions read the database "
                     "they upgrade; run the command without --sql")
run_migrations_online()
