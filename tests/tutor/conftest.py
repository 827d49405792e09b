"""Store fixtures: every store test runs on SQLite, and on PostgreSQL too when
TUTOR_TEST_DATABASE_URL is set (`make test-postgres`, see scripts/start_postgres.sh). Without it
the PostgreSQL variants are reported as skipped, with that reason: they never vanish silently."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text

from tutor.store import ProgressStore

PG_URL = os.environ.get("TUTOR_TEST_DATABASE_URL")
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

NO_POSTGRES = "PostgreSQL variant: TUTOR_TEST_DATABASE_URL is unset (make test-postgres sets it)"
_BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres",
                 marks=[pytest.mark.postgres, pytest.mark.skipif(not PG_URL, reason=NO_POSTGRES)]),
]


def reset_postgres(url: str) -> None:
    """A fresh database: every table dropped (the store, or the app's replicas, then migrate it).
    Also what bench/class_load.py and bench/spool_fault.py start from."""
    engine = create_engine(url)
    with engine.begin() as conn:
        # every table the schema has now: a list written here goes stale when a revision adds a
        # table (the next run then fails on "already exists")
        names = conn.execute(text("SELECT tablename FROM pg_tables "
                                  "WHERE schemaname = current_schema()")).scalars().all()
        if names:
            conn.execute(text("DROP TABLE IF EXISTS "
                              + ", ".join(f'"{name}"' for name in names) + " CASCADE"))
    engine.dispose()


@pytest.fixture(params=_BACKENDS)
def store_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        (tmp_path / "data").mkdir()
        return f"sqlite:///{tmp_path / 'data' / 'progress.db'}"
    reset_postgres(PG_URL)
    return PG_URL


@pytest.fixture
def store(store_url):
    opened = ProgressStore.open(store_url)
    yield opened
    opened.close()


@pytest.fixture
def profile(store):
    return store.create_profile("Ada")
