"""Alembic's command line (`alembic.ini`, `tutor/migrations/env.py`), run as an operator runs it:
a subprocess on the app's database setting. It builds the same schema the app would, agrees with
the app on the head (the app then opens the database without migrating), upgrades a database
from before Alembic row for row, and refuses a database the app would refuse."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, inspect, select, text

from tutor import migrations
from tutor.store import ProgressStore
from tutor.store.engine import ENV_URL

from . import first_schema as v1
from .test_migrations import _build_first_schema_database

ROOT = Path(__file__).resolve().parents[2]
HEAD = migrations.revision_id(migrations.HEAD_VERSION)


def alembic(url: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, ENV_URL: url}
    return subprocess.run([sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini"), *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_upgrade_head_on_a_fresh_database_is_the_apps_head(store_url, tmp_path):
    upgraded = alembic(store_url, "upgrade", "head", cwd=tmp_path)
    assert upgraded.returncode == 0, upgraded.stderr
    current = alembic(store_url, "current", cwd=tmp_path)
    assert current.returncode == 0, current.stderr
    assert current.stdout.strip() == f"{HEAD} (head)"
    with ProgressStore.open(store_url) as store:
        assert store.migrated is None  # already at the head: the app did not migrate again
        assert store.schema_version() == migrations.HEAD_VERSION
        store.create_profile("Ada")  # and it works on what the command line built
    # The numbered table follows the revision, as the app keeps it.
    engine = create_engine(store_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version FROM schema_version")).scalar() == \
            migrations.HEAD_VERSION
    engine.dispose()


def test_history_lists_every_revision(tmp_path):
    shown = alembic(f"sqlite:///{tmp_path / 'unused.db'}", "history", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    listed = [line.split(",")[0].split(" -> ")[-1].removesuffix(" (head)")
              for line in shown.stdout.splitlines() if " -> " in line]
    assert sorted(listed) == [migrations.revision_id(n) for n in migrations.revision_numbers()]
    assert not (tmp_path / "unused.db").exists()  # history reads the revisions, not the database


def test_a_database_from_before_alembic_is_upgraded_row_for_row(store_url, tmp_path):
    before = _build_first_schema_database(store_url)  # schema 1, by the numbered migrations
    upgraded = alembic(store_url, "upgrade", "head", cwd=tmp_path)
    assert upgraded.returncode == 0, upgraded.stderr
    assert alembic(store_url, "current", cwd=tmp_path).stdout.strip() == f"{HEAD} (head)"
    engine = create_engine(store_url)
    with engine.connect() as conn:
        for table in (v1.profiles, v1.settings, v1.attempts, v1.cards):
            assert sorted(conn.execute(select(table)).all()) == before[table.name], table.name
    engine.dispose()
    with ProgressStore.open(store_url) as store:
        assert store.migrated is None and store.count_attempts(1) == 25


def test_a_foreign_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.db"
    url = f"sqlite:///{path}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY)"))
    engine.dispose()
    refused = alembic(url, "upgrade", "head", cwd=tmp_path)
    assert refused.returncode != 0
    assert "cannot" in refused.stderr and str(path) in refused.stderr
    engine = create_engine(url)
    with engine.connect() as conn:
        assert inspect(conn).get_table_names() == ["invoices"]
    engine.dispose()


def test_the_repository_holds_no_database_url():
    ini = (ROOT / "alembic.ini").read_text(encoding="utf-8")
    assert "sqlalchemy.url" not in ini and "://" not in ini


def test_without_the_database_setting_it_refuses_and_creates_nothing(tmp_path):
    # Issue 28: `alembic current` on a server where TUTOR_DATABASE_URL was not exported made an
    # empty SQLite file in the default place and reported it, silently.
    env = {k: v for k, v in os.environ.items() if k != ENV_URL}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path))
    for command in (["current"], ["upgrade", "head"]):
        done = subprocess.run([sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini"),
                               *command], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode != 0 and f"{ENV_URL} is not set" in done.stderr, done.stderr
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]
