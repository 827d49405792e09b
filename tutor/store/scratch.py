"""Scratch work: a profile's work in progress (the question on screen with its typed answer, a running
mock interview), saved as the learner goes so that a reload or a server restart loses nothing.

One JSON value per (profile, key); the key names the screen ("practice", "interview", …). Saving
replaces the previous value. Scratch work is not part of an export. (The table keeps its first
name, `drafts`.)

    save_scratch(store, profile_id, "practice", {"question_id": "…", "typed": {…}})
    load_scratch(store, profile_id, "practice")       # the value, or None
    clear_scratch(store, profile_id, "practice")
    write_scratch(store, [(profile_id, "practice", encoded_or_None, when), …])  # one transaction

The pages save through `tutor.store.scratch_writer.ScratchWriter`, which batches `write_scratch`.
"""

from __future__ import annotations

import functools
import importlib
import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, bindparam, delete, exists, select
from sqlalchemy.engine import Connection

from tutor.store.database import Database
from tutor.store.errors import ProfileError
from tutor.store.schema import drafts, profiles

MAX_SCRATCH_CHARS = 200_000  # a long interview answer and its state fit many times over
MAX_KEY_CHARS = 64


def _where(profile_id: int, key: str):
    return and_(drafts.c.profile_id == profile_id, drafts.c.key == key)


def _check_key(key: str) -> None:
    if not key or len(key) > MAX_KEY_CHARS:
        raise ValueError(f"a scratch key has 1..{MAX_KEY_CHARS} characters")


def encode_scratch(key: str, value: Any) -> str:
    """The JSON text stored as scratch work; ValueError for a bad key or a value too large."""
    _check_key(key)
    encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if len(encoded) > MAX_SCRATCH_CHARS:
        raise ValueError(f"scratch {key!r} has {len(encoded)} characters (limit {MAX_SCRATCH_CHARS})")
    return encoded


def save_scratch(store: Database, profile_id: int, key: str, value: Any, *,
               now: datetime | None = None) -> None:
    """Store `value` (JSON-ready) as the profile's scratch `key`. ValueError when it is too
    large; ProfileError for an unknown profile."""
    encoded = encode_scratch(key, value)
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    params = {"profile_id": profile_id, "key": key, "value": encoded, "updated_at": moment}

    def work(conn: Connection) -> None:
        if conn.execute(_upsert(conn.dialect.name, returning=True), params).first() is None:
            raise ProfileError("unknown-profile")

    store.write(work, lock_key=profile_id)


def write_scratch(store: Database, rows: list[tuple[int, str, str | None, datetime]]) -> None:
    """Several scratch values in one transaction: (profile id, key, encoded JSON or None to clear, when).
    Scratch work of a profile that no longer exists is skipped (`tutor.store.scratch_writer`)."""
    saves = [{"profile_id": p, "key": k, "value": v, "updated_at": m.astimezone(UTC)}
             for p, k, v, m in rows if v is not None]
    clears = [{"p": p, "k": k} for p, k, v, _ in rows if v is None]

    def work(conn: Connection) -> None:
        if saves:
            conn.execute(_upsert(conn.dialect.name, returning=False), saves)
        if clears:
            conn.execute(delete(drafts).where(_where(bindparam("p"), bindparam("k"))), clears)

    store.write(work)


@functools.cache
def _upsert(dialect_name: str, *, returning: bool):
    """One statement, built once per dialect: insert or replace the scratch value, only if the
    profile exists. Scratch work is saved on most script runs, so this is on the path of every learner's
    interaction (building the statement cost more than running it)."""
    # Imported here: the PostgreSQL dialect costs ~15 ms that a SQLite server never needs.
    dialect = importlib.import_module(
        "sqlalchemy.dialects.postgresql" if dialect_name == "postgresql" else "sqlalchemy.dialects.sqlite")
    row = select(bindparam("profile_id", type_=drafts.c.profile_id.type),
                 bindparam("key", type_=drafts.c.key.type),
                 bindparam("value", type_=drafts.c.value.type),
                 bindparam("updated_at", type_=drafts.c.updated_at.type)).where(
        exists().where(profiles.c.id == bindparam("profile_id")))
    statement = dialect.insert(drafts).from_select(
        ["profile_id", "key", "value", "updated_at"], row)
    statement = statement.on_conflict_do_update(
        index_elements=[drafts.c.profile_id, drafts.c.key],
        set_={"value": statement.excluded.value, "updated_at": statement.excluded.updated_at})
    # With RETURNING, no row means no such profile (rowcount is -1 on psycopg).
    return statement.returning(drafts.c.profile_id) if returning else statement


def load_scratch(store: Database, profile_id: int, key: str) -> Any | None:
    """The profile's scratch `key`, or None when there is none (or it is not valid JSON)."""
    _check_key(key)
    query = select(drafts.c.value).where(_where(profile_id, key))
    text = store.read(lambda conn: conn.execute(query).scalar())
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def clear_scratch(store: Database, profile_id: int, key: str) -> None:
    _check_key(key)
    store.write(lambda conn: conn.execute(delete(drafts).where(_where(profile_id, key))),
                lock_key=profile_id)
