"""Schema migrations: Alembic revisions in `tutor/migrations/versions/`, numbered "0001", "0002", ...

The store runs them itself (`upgrade(conn)`) inside its own write transaction (SQLite `BEGIN
IMMEDIATE`, PostgreSQL with an advisory lock), so several processes opening a fresh database at
once apply every revision exactly once, and a failed revision leaves the database where it was (DDL
is transactional in both SQLite and PostgreSQL).

Databases made before Alembic carry the one-row `schema_version` table that the numbered
migrations wrote; they are stamped at the matching revision and upgraded from there, with no row
touched. `schema_version` is kept equal to the revision number, so an app from before Alembic
opening a newer database refuses it as "newer schema" instead of writing into it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Column, Integer, MetaData, String, Table, inspect, select
from sqlalchemy.engine import Connection

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

SCRIPT_LOCATION = Path(__file__).parent

_version_meta = MetaData()
schema_version = Table("schema_version", _version_meta, Column("version", Integer, nullable=False))
# Alembic's own table, read here with SQLAlchemy alone: opening a database at the head schema,
# every start but the first, then never imports Alembic (its import and reading the revisions:
# ~0.29 s of CPU, docs/server.md).
alembic_version = Table("alembic_version", MetaData(), Column("version_num", String(32), nullable=False))


def _config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    return config


@cache
def script_directory() -> ScriptDirectory:
    """The revisions (read once per process: they are files shipped with the code)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_config())


def revision_id(version: int) -> str:
    return f"{version:04d}"


def revision_numbers() -> list[int]:
    """Every revision's number, oldest first."""
    return sorted(int(r.revision) for r in script_directory().walk_revisions())


def _numbered_files() -> list[int]:
    return sorted(int(path.name[:4]) for path in (SCRIPT_LOCATION / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


# The newest revision: revisions are numbered files, each one's `down_revision` the one before
# (tests/tutor/test_migrations.py checks this against Alembic's own reading of the files).
HEAD_VERSION = max(_numbered_files())


class NewerSchemaError(Exception):
    def __init__(self, found: int | str) -> None:
        super().__init__(f"database schema {found} is newer than {HEAD_VERSION}")
        self.found = found


def _alembic_version(conn: Connection) -> int | None:
    """The revision Alembic stamped (what `MigrationContext.get_current_revision` reads)."""
    if not inspect(conn).has_table(alembic_version.name):
        return None
    revisions = conn.execute(select(alembic_version.c.version_num)).scalars().all()
    if not revisions:
        return None
    if len(revisions) > 1:  # branches: not one of ours, treat as written by a newer app
        raise NewerSchemaError(",".join(revisions))
    try:
        return int(revisions[0])
    except ValueError:  # not one of ours: treat as written by a newer app
        raise NewerSchemaError(revisions[0]) from None


def _legacy_version(conn: Connection) -> int:
    if not inspect(conn).has_table("schema_version"):
        return 0
    return int(conn.execute(select(schema_version.c.version)).scalar() or 0)


def current_version(conn: Connection) -> int:
    """The schema's number: Alembic's revision, else the numbered migrations' version, else 0."""
    found = _alembic_version(conn)
    return _legacy_version(conn) if found is None else found


def upgrade(conn: Connection, target: int = HEAD_VERSION) -> tuple[int, int]:
    """Apply every revision above the current one up to `target`; returns (from, to).

    Must be called inside a write transaction that excludes other writers.
    """
    found = current_version(conn)
    if found > HEAD_VERSION:
        raise NewerSchemaError(found)
    stamped = _alembic_version(conn) is not None
    if stamped and found >= target:
        return found, found
    from alembic import command

    reached = max(found, target)
    # Alembic's public way to migrate a connection its caller holds: env.py finds it in the
    # config's attributes and runs the revisions on it (stamping a numbered schema first).
    config = _config()
    config.attributes["connection"] = conn
    command.upgrade(config, revision_id(reached))
    _write_legacy_version(conn, reached)
    return found, reached


def stamp_numbered(conn: Connection, context: MigrationContext) -> None:
    """A database made by the numbered migrations (a `schema_version`, no Alembic stamp) is
    stamped at its number, no row touched, so the revisions above it apply from there."""
    if _alembic_version(conn) is None and (found := _legacy_version(conn)):
        context.stamp(script_directory(), revision_id(found))


def keep_numbered_version(conn: Connection) -> None:
    """After Alembic's command line moved the stamp: `schema_version` follows it (an app from
    before Alembic reads only that table, and must see a newer schema as newer)."""
    if (version := _alembic_version(conn)) is not None:
        _write_legacy_version(conn, version)


def at_head(conn: Connection) -> bool:
    """Stamped by Alembic at the newest revision this code knows (nothing to do on open)."""
    return _alembic_version(conn) == HEAD_VERSION


def _write_legacy_version(conn: Connection, version: int) -> None:
    if not inspect(conn).has_table("schema_version"):
        _version_meta.create_all(conn)
        conn.execute(schema_version.insert().values(version=version))
    else:
        conn.execute(schema_version.update().values(version=version))
