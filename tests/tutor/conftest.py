"""Store fixtures: every store test runs on SQLite, and on PostgreSQL too when
TUTOR_TEST_DATABASE_URL is set (see scripts/start_postgres.sh)."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text

from tutor.store import ProgressStore

PG_URL = os.environ.get("TUTOR_TEST_DATABASE_URL")
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

_BACKENDS = [pytest.param("sqlite", id="sqlite")]
if PG_URL:
    _BACKENDS.append(pytest.param("postgres", id="postgres", marks=pytest.mark.postgres))


def reset_postgres(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text("DROP TABLE IF EXISTS revoked_sign_ins, identities, drafts, attempts, cards, settings, profiles, schema_version,"
                 " alembic_version CASCADE")
        )
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
