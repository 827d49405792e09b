"""The simulated class is what real use would leave behind: replaying its attempts through
`ProgressStore.record_attempt` (the store's own rating and scheduling) gives the same cards, the
same ratings and the same `card_before`; its learners have a review backlog."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from bench.seed_class import seed_class, synthetic_questions
from tutor.rating import Phase
from tutor.store import NewAttempt, ProgressStore
from tutor.store.schema import attempts

END = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _rows(store):
    return store.read(lambda conn: conn.execute(attempts.select().order_by(attempts.c.id)).all())


def test_replaying_the_seeded_attempts_through_the_store_gives_the_same_cards(tmp_path):
    seeded = ProgressStore.open(f"sqlite:///{tmp_path / 'seeded.db'}")
    written = seed_class(seeded, synthetic_questions(12, random.Random(1)), learners=4, seed=2,
                         end=END)
    replayed = ProgressStore.open(f"sqlite:///{tmp_path / 'replayed.db'}")
    profiles = seeded.list_profiles()
    for profile in profiles:
        replayed.create_profile(profile.name, now=profile.created_at)
    rows = _rows(seeded)
    assert len(rows) == written > 0
    for row in rows:
        replayed.record_attempt(row.profile_id, NewAttempt(
            row.question_id, row.verdict, score=row.score, answer=row.answer,
            hints_used=row.hints_used, seconds=row.seconds, confidence=row.confidence,
            mode=row.mode, phase=row.phase), now=row.created_at)
    for profile in profiles:
        assert seeded.list_cards(profile.id) == replayed.list_cards(profile.id)
    again = _rows(replayed)
    assert [(r.rating, r.card_before) for r in rows] == [(r.rating, r.card_before) for r in again]
    # Real use: retries are history (unrated), review visits happen, nothing is after END.
    assert {r.phase for r in rows} == {Phase.FIRST.value, Phase.RETRY.value}
    assert all(r.rating is None for r in rows if r.phase == Phase.RETRY.value)
    assert {r.mode for r in rows} == {"practice", "review"}
    assert max(r.created_at for r in rows) <= END
    due = [c for p in profiles for c in seeded.list_cards(p.id) if c.due <= END]
    assert due, "a simulated class has a review backlog"
    seeded.close()
    replayed.close()
