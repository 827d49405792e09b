"""Ordered schema migrations with a one-row `schema_version` table.

Each migration is a function of an open connection inside the caller's write transaction (SQLite
`BEGIN IMMEDIATE`, PostgreSQL with an advisory lock), so two processes opening a fresh database at
once apply every step exactly once, and a failed step leaves the database at the previous version
(DDL is transactional in both SQLite and PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Column, Integer, MetaData, Table, inspect, select
from sqlalchemy.engine import Connection

from tutor.migrations import m0001_initial, m0002_attempt_mode, m0003_honest_attempts_and_drafts


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    upgrade: Callable[[Connection], None]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema", m0001_initial.upgrade),
    Migration(2, "attempt mode and per-day index", m0002_attempt_mode.upgrade),
    Migration(3, "attempt phase, card before a rating, verdict error -> unreadable, drafts",
              m0003_honest_attempts_and_drafts.upgrade),
)
HEAD_VERSION = MIGRATIONS[-1].version

_version_meta = MetaData()
schema_version = Table("schema_version", _version_meta, Column("version", Integer, nullable=False))


class NewerSchemaError(Exception):
    def __init__(self, found: int) -> None:
        super().__init__(f"database schema {found} is newer than {HEAD_VERSION}")
        self.found = found


def current_version(conn: Connection) -> int:
    """0 for a database without our version table."""
    if not inspect(conn).has_table("schema_version"):
        return 0
    version = conn.execute(select(schema_version.c.version)).scalar()
    return int(version or 0)


def upgrade(conn: Connection, target: int = HEAD_VERSION) -> tuple[int, int]:
    """Apply every migration above the current version up to `target`; returns (from, to).

    Must be called inside a write transaction that excludes other writers.
    """
    found = current_version(conn)
    if found > HEAD_VERSION:
        raise NewerSchemaError(found)
    if found == 0:
        _version_meta.create_all(conn)
        conn.execute(schema_version.insert().values(version=0))
    for migration in MIGRATIONS:
        if found < migration.version <= target:
            migration.upgrade(conn)
            conn.execute(schema_version.update().values(version=migration.version))
    return found, max(found, target)
