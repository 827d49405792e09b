"""Drafts: a profile's work in progress (the question on screen with its typed answer, a running
mock interview), saved as the learner goes so that a reload or a server restart loses nothing.

One JSON value per (profile, key); the key names the screen ("practice", "interview", …). Saving
replaces the previous value. Drafts are not part of an export: they are scratch work.

    save_draft(store, profile_id, "practice", {"question_id": "…", "typed": {…}})
    load_draft(store, profile_id, "practice")       # the value, or None
    clear_draft(store, profile_id, "practice")
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, select, update
from sqlalchemy.engine import Connection

from tutor.store.database import Database
from tutor.store.progress import require_profile
from tutor.store.schema import drafts

MAX_DRAFT_CHARS = 200_000  # a long interview answer and its state fit many times over
MAX_KEY_CHARS = 64


def _where(profile_id: int, key: str):
    return and_(drafts.c.profile_id == profile_id, drafts.c.key == key)


def _check_key(key: str) -> None:
    if not key or len(key) > MAX_KEY_CHARS:
        raise ValueError(f"a draft key has 1..{MAX_KEY_CHARS} characters")


def save_draft(store: Database, profile_id: int, key: str, value: Any, *,
               now: datetime | None = None) -> None:
    """Store `value` (JSON-ready) as the profile's draft `key`. ValueError when it is too large
    to be a draft; ProfileError for an unknown profile."""
    _check_key(key)
    encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if len(encoded) > MAX_DRAFT_CHARS:
        raise ValueError(f"draft {key!r} has {len(encoded)} characters (limit {MAX_DRAFT_CHARS})")
    moment = (now or datetime.now(UTC)).astimezone(UTC)

    def work(conn: Connection) -> None:
        require_profile(conn, profile_id)
        changed = conn.execute(update(drafts).where(_where(profile_id, key))
                               .values(value=encoded, updated_at=moment)).rowcount
        if changed == 0:
            conn.execute(drafts.insert().values(profile_id=profile_id, key=key, value=encoded,
                                                updated_at=moment))

    store.write(work, lock_key=profile_id)


def load_draft(store: Database, profile_id: int, key: str) -> Any | None:
    """The profile's draft `key`, or None when there is none (or it is not valid JSON)."""
    _check_key(key)
    query = select(drafts.c.value).where(_where(profile_id, key))
    text = store.read(lambda conn: conn.execute(query).scalar())
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def clear_draft(store: Database, profile_id: int, key: str) -> None:
    _check_key(key)
    store.write(lambda conn: conn.execute(delete(drafts).where(_where(profile_id, key))),
                lock_key=profile_id)
