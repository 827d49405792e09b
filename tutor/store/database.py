"""Opening the database (checks, WAL, migrations) and running transactions with retry.

Every write runs in one transaction: SQLite `BEGIN IMMEDIATE` (writers queue on `busy_timeout`),
PostgreSQL with a transaction-scoped advisory lock per profile (so reading a card and writing its
next state cannot interleave with another tab's write). A transaction that meets a transient
conflict ("database is locked", a deadlock) is run again from the start, a few times with
backoff, and then reported as `StoreUnavailable("locked")`.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping
from typing import TypeVar

from sqlalchemy import inspect, text
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from tutor import migrations
from tutor.store.engine import (
    DEFAULT_BUSY_TIMEOUT_MS,
    build_engine,
    check_sqlite_location,
    enable_wal,
    is_retryable,
    resolve_database_url,
    sqlite_file,
    translate_error,
)
from tutor.store.errors import StoreUnavailable

T = TypeVar("T")

# PostgreSQL advisory locks: (namespace, key). Key 0 guards migrations and profile names.
_LOCK_NAMESPACE = 0x7475  # "tu"
GLOBAL_LOCK = 0
_OUR_TABLES = {"profiles", "settings", "attempts", "cards"}


class Database:
    """An open progress database. Use `ProgressStore.open(...)` (this is its base)."""

    def __init__(self, engine: Engine, url: URL, *, retries: int) -> None:
        self.engine = engine
        self.url = url
        self._retries = retries
        self.is_postgres = url.get_backend_name() == "postgresql"
        # (from, to) when this open upgraded the schema, (v, v) when another process had just done
        # it while this one waited for the lock, None when it was already at the head.
        self.migrated: tuple[int, int] | None = None
        # Errors raised in connect hooks reach us unwrapped, as the driver's own exceptions.
        self._db_errors = (SQLAlchemyError, engine.dialect.loaded_dbapi.Error)

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        env: Mapping[str, str] = os.environ,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        retries: int = 3,
        migrate: bool = True,
    ):
        """Open (creating on first run) and migrate to the head schema; raises StoreUnavailable.

        `migrate=False`: the checks and WAL only, for Alembic's command line (`tutor/migrations/
        env.py`), which runs the revisions itself."""
        resolved = resolve_database_url(url, env)
        path = sqlite_file(resolved)
        if path is not None:
            check_sqlite_location(path)
        try:
            engine = build_engine(resolved, busy_timeout_ms=busy_timeout_ms)
        except (SQLAlchemyError, ImportError) as exc:
            raise StoreUnavailable("bad-url", str(exc)) from None
        store = cls(engine, resolved, retries=retries)
        try:
            # Look before changing anything (WAL rewrites the header of a foreign file too), and
            # take the write lock only when there is something to migrate.
            version = store.read(store.refuse_foreign)
            store._guard(lambda: enable_wal(engine))
            if migrate and (version != migrations.HEAD_VERSION
                            or not store.read(migrations.at_head)):
                store.migrated = store.write(store._migrate, lock_key=GLOBAL_LOCK)
        except BaseException:
            engine.dispose()
            raise
        return store

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self):
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def schema_version(self) -> int:
        return self.read(migrations.current_version)

    def refuse_foreign(self, conn: Connection) -> int:
        """The schema version; refuses a database some other program made (we add nothing)."""
        # Table names before the version: on PostgreSQL each statement sees the latest commits, so
        # a first open committed by another process between two reads must not look like our
        # tables without our version table. Read in this order, seeing the tables means seeing
        # the version too (one migration transaction writes both).
        existing = set(inspect(conn).get_table_names())
        try:
            version = migrations.current_version(conn)
        except migrations.NewerSchemaError as exc:
            raise StoreUnavailable(
                "newer-schema", found=exc.found, known=migrations.HEAD_VERSION
            ) from None
        if version == 0:
            foreign = existing if sqlite_file(self.url) is not None else existing & _OUR_TABLES
            if foreign - {"schema_version", "alembic_version"}:
                raise StoreUnavailable("foreign-database", path=self._where())
        return version

    def _migrate(self, conn: Connection) -> tuple[int, int]:
        self.refuse_foreign(conn)
        try:
            return migrations.upgrade(conn)
        except migrations.NewerSchemaError as exc:
            raise StoreUnavailable(
                "newer-schema", found=exc.found, known=migrations.HEAD_VERSION
            ) from None

    def _where(self) -> str:
        return str(sqlite_file(self.url) or self.url.render_as_string(hide_password=True))

    def _guard(self, action: Callable[[], T]) -> T:
        """Run `action`, turning a driver error into StoreUnavailable when it means one."""
        try:
            return action()
        except self._db_errors as exc:
            translated = translate_error(exc, self.url)
            if translated is None:
                raise
            raise translated from None

    def write(
        self, work: Callable[[Connection], T], *, lock_key: int | tuple[int, ...] | None = None
    ) -> T:
        """Run `work(conn)` in one write transaction, retried on transient conflicts.

        `lock_key`: the PostgreSQL advisory lock(s) to hold, taken in the order given (callers
        take GLOBAL_LOCK before a profile's key, never the reverse, so they cannot deadlock).
        """
        keys = (lock_key,) if isinstance(lock_key, int) else tuple(lock_key or ())
        delay = 0.02
        for attempt in range(self._retries):
            try:
                with self.engine.connect() as conn:
                    conn.execution_options(sqlite_begin="IMMEDIATE")
                    with conn.begin():
                        for key in keys if self.is_postgres else ():
                            conn.execute(
                                text("SELECT pg_advisory_xact_lock(:space, :key)"),
                                {"space": _LOCK_NAMESPACE, "key": key},
                            )
                        return work(conn)
            except self._db_errors as exc:
                if is_retryable(exc) and attempt + 1 < self._retries:
                    time.sleep(delay * (1 + random.random()))
                    delay = min(delay * 2, 0.5)
                    continue
                translated = translate_error(exc, self.url)
                if translated is None:
                    raise
                raise translated from None
        raise AssertionError("unreachable: the loop returns or raises")

    def read(self, work: Callable[[Connection], T]) -> T:
        """Run `work(conn)` in one read transaction (a consistent snapshot)."""

        def run() -> T:
            with self.engine.connect() as conn, conn.begin():
                return work(conn)

        return self._guard(run)
