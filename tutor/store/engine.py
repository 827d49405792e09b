"""Where the database lives, how its engine is set up, and how driver errors become
`StoreUnavailable` with a reason code.

SQLite: WAL journal (readers never block the writer), `busy_timeout` so a writer waits for another
instead of failing at once, `synchronous=NORMAL` (a committed attempt survives an app crash or
restart; only a power cut can lose the last commits), and write transactions begun with
`BEGIN IMMEDIATE` so a read-then-write transaction cannot deadlock on lock upgrade.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from tutor.store.errors import StoreUnavailable

ENV_URL = "TUTOR_DATABASE_URL"
APP_DIR_NAME = "residual-tutor"
DB_FILE_NAME = "progress.db"
SQLITE_HEADER = b"SQLite format 3\x00"
DEFAULT_BUSY_TIMEOUT_MS = 5000


def default_database_path(env: Mapping[str, str] = os.environ) -> Path:
    """`$XDG_DATA_HOME/residual-tutor/progress.db`, else `~/.local/share/residual-tutor/…`."""
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR_NAME / DB_FILE_NAME


def resolve_database_url(url: str | None = None, env: Mapping[str, str] = os.environ) -> URL:
    """The URL given, else `$TUTOR_DATABASE_URL`, else the SQLite file in the user's data dir."""
    raw = url or env.get(ENV_URL) or f"sqlite:///{default_database_path(env)}"
    try:
        return make_url(raw)
    except ArgumentError as exc:
        raise StoreUnavailable("bad-url", str(exc)) from None


def sqlite_file(url: URL) -> Path | None:
    """The file behind a SQLite URL (None for other backends and in-memory databases)."""
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(database)


def check_sqlite_location(path: Path) -> None:
    """Refuse, without touching anything, a location we cannot or must not use.

    A missing folder is created (first run); an existing file must look like SQLite: a file of
    other bytes is reported as corrupt and left exactly as it is.
    """
    if path.is_dir():
        raise StoreUnavailable("not-a-file", path=str(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreUnavailable("missing-location", str(exc), path=str(path.parent)) from None
    if not path.exists():
        if not os.access(path.parent, os.W_OK):
            raise StoreUnavailable("unwritable", path=str(path))
        return
    if not os.access(path, os.R_OK | os.W_OK):
        raise StoreUnavailable("unwritable", path=str(path))
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreUnavailable("unwritable", str(exc), path=str(path)) from None
    # An empty file is what SQLite itself makes for a new database; anything else must be SQLite.
    if header and header != SQLITE_HEADER:
        raise StoreUnavailable("corrupt", "no SQLite header", path=str(path))


def build_engine(url: URL, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Engine:
    if url.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": busy_timeout_ms / 1000})
        _configure_sqlite(engine, busy_timeout_ms)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        # Let SQLAlchemy's "begin" event below issue BEGIN itself (pysqlite's own is DEFERRED).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection) -> None:
        mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


def enable_wal(engine: Engine, *, attempts: int = 100, pause_s: float = 0.05) -> None:
    """Switch the file to WAL (persistent in the file; a no-op once set).

    SQLite answers "database is locked" at once, without waiting in its busy handler, when two
    connections switch a fresh file at the same moment (each holds the shared lock the other's
    switch must wait out). The switch is idempotent, so a locked answer is waited out here, for
    up to attempts x pause_s (5 s by default).
    """
    if engine.url.get_backend_name() != "sqlite" or sqlite_file(engine.url) is None:
        return
    for attempt in range(attempts):
        # On the raw DBAPI connection: SQLAlchemy would open a transaction first, and the journal
        # mode cannot change inside one.
        raw = engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.close()
            return
        except engine.dialect.loaded_dbapi.OperationalError as exc:
            if not is_retryable(exc) or attempt == attempts - 1:
                raise
        finally:
            raw.close()
        time.sleep(pause_s)


_LOCKED_MARKERS = ("database is locked", "database table is locked", "database is busy")
_RETRYABLE_PG = ("deadlock detected", "could not serialize access")
_CORRUPT_MARKERS = ("file is not a database", "malformed", "file is encrypted", "not a database")


def is_retryable(exc: BaseException) -> bool:
    """A transient conflict with another writer: worth running the transaction again."""
    message = str(getattr(exc, "orig", exc)).lower()
    return any(m in message for m in _LOCKED_MARKERS + _RETRYABLE_PG)


def translate_error(exc: Exception, url: URL) -> StoreUnavailable | None:
    """The `StoreUnavailable` a driver error means, or None for a programming error."""
    path = str(sqlite_file(url) or url.render_as_string(hide_password=True))
    message = str(getattr(exc, "orig", exc)).lower()
    if any(m in message for m in _LOCKED_MARKERS):
        return StoreUnavailable("locked", message, path=path)
    if any(m in message for m in _CORRUPT_MARKERS):
        return StoreUnavailable("corrupt", message, path=path)
    if "readonly" in message or "read-only" in message:
        return StoreUnavailable("unwritable", message, path=path)
    if "unable to open database file" in message:
        return StoreUnavailable("missing-location", message, path=path)
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return StoreUnavailable("unreachable", message, path=path)
    if url.get_backend_name() != "sqlite" and (
        "connection" in message or "could not connect" in message or "timeout" in message
    ):
        return StoreUnavailable("unreachable", message, path=path)
    return None
