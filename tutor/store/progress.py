"""The progress store: profiles, their settings, attempts and FSRS cards.

    store = ProgressStore.open()                 # or .open("postgresql+psycopg://…")
    me = store.create_profile("Ada")
    store.record_attempt(me.id, NewAttempt("grad-jacobian-transpose", "correct", score=1.0))
    store.review_queue(me.id, now)               # cards due, in review order

Recording an attempt and updating its card happen in one transaction.
"""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC, datetime
from typing import Any

from fsrs import Rating
from sqlalchemy import and_, case, delete, func, select, update
from sqlalchemy.engine import Connection, Row

from tutor.rating import Mode, Phase, choosable, rate
from tutor.review import CardState, new_card, schedule
from tutor.store.database import GLOBAL_LOCK, Database
from tutor.store.errors import ProfileError
from tutor.store.records import MAX_PROFILE_NAME, AttemptRecord, NewAttempt, Profile
from tutor.store.schema import attempts, cards, drafts, identities, profiles, settings


def utc_now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("naive datetime; pass an aware UTC datetime")
    return moment.astimezone(UTC)


def clean_profile_name(name: str) -> str:
    cleaned = unicodedata.normalize("NFC", name or "").strip()
    if not cleaned:
        raise ProfileError("empty-name")
    if len(cleaned) > MAX_PROFILE_NAME:
        raise ProfileError("name-too-long", limit=MAX_PROFILE_NAME)
    return cleaned


def card_from_row(row: Row) -> CardState:
    return CardState(
        question_id=row.question_id,
        state=row.state,
        step=row.step,
        stability=row.stability,
        difficulty=row.difficulty,
        due=row.due,
        last_review=row.last_review,
        reps=row.reps,
        lapses=row.lapses,
        last_rating=row.last_rating,
        last_confidence=row.last_confidence,
    )


def card_values(card: CardState) -> dict[str, Any]:
    return {
        "state": card.state,
        "step": card.step,
        "stability": card.stability,
        "difficulty": card.difficulty,
        "due": card.due,
        "last_review": card.last_review,
        "reps": card.reps,
        "lapses": card.lapses,
        "last_rating": card.last_rating,
        "last_confidence": card.last_confidence,
    }


_CARD_TIMES = ("due", "last_review")


def card_to_json(card: CardState) -> str:
    values = card_values(card)
    values.update({k: values[k] and values[k].isoformat() for k in _CARD_TIMES})
    return json.dumps({"question_id": card.question_id, **values})


def card_from_json(text: str) -> CardState:
    values = json.loads(text)
    values.update({k: values[k] and datetime.fromisoformat(values[k]) for k in _CARD_TIMES})
    return CardState(**values)


def attempt_from_row(row: Row) -> AttemptRecord:
    return AttemptRecord(
        id=row.id,
        profile_id=row.profile_id,
        question_id=row.question_id,
        seed=row.seed,
        answer=row.answer,
        verdict=row.verdict,
        score=row.score,
        hints_used=row.hints_used,
        seconds=row.seconds,
        confidence=row.confidence,
        rubric_ticks=tuple(json.loads(row.rubric_ticks)) if row.rubric_ticks else (),
        rating=row.rating,
        mode=row.mode,
        created_at=row.created_at,
        phase=row.phase,
        imported=bool(row.imported),
    )


def require_profile(conn: Connection, profile_id: int) -> Profile:
    row = conn.execute(select(profiles).where(profiles.c.id == profile_id)).first()
    if row is None:
        raise ProfileError("unknown-profile")
    return Profile(row.id, row.name, row.created_at)


def name_taken(conn: Connection, name: str, *, other_than: int | None = None) -> bool:
    query = select(profiles.c.id).where(profiles.c.name == name)
    if other_than is not None:
        query = query.where(profiles.c.id != other_than)
    return conn.execute(query).first() is not None


class ProgressStore(Database):
    # ---- profiles -------------------------------------------------------------------------
    def create_profile(self, name: str, *, now: datetime | None = None) -> Profile:
        cleaned = clean_profile_name(name)
        created = _aware(now or utc_now())

        def work(conn: Connection) -> Profile:
            if name_taken(conn, cleaned):
                raise ProfileError("name-taken", name=cleaned)
            result = conn.execute(profiles.insert().values(name=cleaned, created_at=created))
            return Profile(result.inserted_primary_key[0], cleaned, created)

        return self.write(work, lock_key=GLOBAL_LOCK)

    def list_profiles(self) -> list[Profile]:
        rows = self.read(lambda c: c.execute(select(profiles).order_by(profiles.c.id)).all())
        return [Profile(r.id, r.name, r.created_at) for r in rows]

    def get_profile(self, profile_id: int) -> Profile:
        return self.read(lambda conn: require_profile(conn, profile_id))

    def rename_profile(self, profile_id: int, new_name: str) -> Profile:
        cleaned = clean_profile_name(new_name)

        def work(conn: Connection) -> Profile:
            profile = require_profile(conn, profile_id)
            if name_taken(conn, cleaned, other_than=profile_id):
                raise ProfileError("name-taken", name=cleaned)
            conn.execute(update(profiles).where(profiles.c.id == profile_id).values(name=cleaned))
            return Profile(profile.id, cleaned, profile.created_at)

        return self.write(work, lock_key=GLOBAL_LOCK)

    def delete_profile(self, profile_id: int) -> None:
        """Delete the profile and everything it owns (attempts, cards, settings, drafts, the
        identity bound to it)."""

        def work(conn: Connection) -> None:
            require_profile(conn, profile_id)
            for table in (attempts, cards, settings, drafts, identities):
                conn.execute(delete(table).where(table.c.profile_id == profile_id))
            conn.execute(delete(profiles).where(profiles.c.id == profile_id))

        self.write(work, lock_key=(GLOBAL_LOCK, profile_id))

    # ---- settings (JSON values) -----------------------------------------------------------
    def get_settings(self, profile_id: int) -> dict[str, Any]:
        query = select(settings.c.key, settings.c.value).where(settings.c.profile_id == profile_id)
        return {key: json.loads(value) for key, value in self.read(lambda c: c.execute(query).all())}

    def set_setting(self, profile_id: int, key: str, value: Any) -> None:
        encoded = json.dumps(value, ensure_ascii=False)
        if not key or len(key) > 64:
            raise ValueError("a setting key has 1..64 characters")

        def work(conn: Connection) -> None:
            require_profile(conn, profile_id)
            where = and_(settings.c.profile_id == profile_id, settings.c.key == key)
            if conn.execute(update(settings).where(where).values(value=encoded)).rowcount == 0:
                conn.execute(settings.insert().values(profile_id=profile_id, key=key, value=encoded))

        self.write(work, lock_key=profile_id)

    # ---- attempts and cards ---------------------------------------------------------------
    def record_attempt(
        self, profile_id: int, attempt: NewAttempt, *, now: datetime | None = None
    ) -> AttemptRecord:
        """Save one attempt and, when it is rated (a visit's first try), move its card on, in one
        transaction. The returned record carries the moved card (`.card`). Raises ValueError
        listing every problem of a malformed attempt, ProfileError for a missing profile."""
        problems = attempt.problems()
        if problems:
            raise ValueError("attempt refused: " + "; ".join(problems))
        moment = _aware(now or utc_now())
        rating = rate(attempt.outcome())
        values = {
            "profile_id": profile_id,
            "question_id": attempt.question_id,
            "seed": attempt.seed,
            "answer": attempt.answer,
            "verdict": str(attempt.verdict),
            "score": float(attempt.score),
            "hints_used": int(attempt.hints_used),
            "seconds": float(attempt.seconds),
            "confidence": attempt.confidence,
            "rubric_ticks": json.dumps(list(attempt.rubric_ticks)) if attempt.rubric_ticks else None,
            "rating": int(rating) if rating is not None else None,
            "mode": str(Mode(attempt.mode)),
            "phase": str(Phase(attempt.phase)),
            "created_at": moment,
        }

        def work(conn: Connection) -> AttemptRecord:
            require_profile(conn, profile_id)
            moved = None
            before = None
            if rating is not None:
                where = and_(cards.c.profile_id == profile_id, cards.c.question_id == attempt.question_id)
                row = conn.execute(select(cards).where(where)).first()
                before = card_from_row(row) if row else new_card(attempt.question_id, moment)
                moved = schedule(before, rating, moment, confidence=attempt.confidence)
                if row:
                    conn.execute(update(cards).where(where).values(**card_values(moved)))
                else:
                    conn.execute(
                        cards.insert().values(
                            profile_id=profile_id, question_id=attempt.question_id,
                            **card_values(moved),
                        )
                    )
            row_values = {**values, "card_before": before and card_to_json(before)}
            new_id = conn.execute(attempts.insert().values(**row_values)).inserted_primary_key[0]
            return AttemptRecord(
                id=new_id, **{**values, "rubric_ticks": tuple(attempt.rubric_ticks)}, card=moved,
                before=before,
            )

        return self.write(work, lock_key=profile_id)

    def change_rating(self, profile_id: int, attempt_id: int, rating: int) -> CardState:
        """Reschedule a right answer's card with the rating the learner chose instead (Hard, Good
        or Easy), from the card as it was before that attempt: the card ends as if it had been
        scheduled once, with the chosen rating. Only the attempt that last moved its card can be
        changed; ValueError otherwise (or for a wrong answer, which stays Again)."""
        new_rating = Rating(rating)

        def work(conn: Connection) -> CardState:
            require_profile(conn, profile_id)
            row = conn.execute(select(attempts).where(
                attempts.c.id == attempt_id, attempts.c.profile_id == profile_id)).first()
            if row is None or row.card_before is None:
                raise ValueError(f"attempt {attempt_id} did not rate a card")
            if new_rating not in choosable(row.rating):
                raise ValueError(f"attempt {attempt_id} rated {row.rating} cannot become "
                                 f"{int(new_rating)}")
            where = and_(cards.c.profile_id == profile_id, cards.c.question_id == row.question_id)
            card = conn.execute(select(cards).where(where)).first()
            if card is None or card.last_review != row.created_at:
                raise ValueError(f"attempt {attempt_id} is no longer its card's last review")
            moved = schedule(card_from_json(row.card_before), new_rating, row.created_at,
                             confidence=row.confidence)
            conn.execute(update(cards).where(where).values(**card_values(moved)))
            conn.execute(update(attempts).where(attempts.c.id == attempt_id)
                         .values(rating=int(new_rating)))
            return moved

        return self.write(work, lock_key=profile_id)

    def list_attempts(self, profile_id: int, *, since: datetime | None = None) -> list[AttemptRecord]:
        """Attempts in the order they were made (oldest first)."""
        query = select(attempts).where(attempts.c.profile_id == profile_id)
        if since is not None:
            query = query.where(attempts.c.created_at >= _aware(since))
        query = query.order_by(attempts.c.created_at, attempts.c.id)
        return [attempt_from_row(r) for r in self.read(lambda c: c.execute(query).all())]

    def count_attempts(self, profile_id: int) -> int:
        query = select(func.count()).select_from(attempts).where(attempts.c.profile_id == profile_id)
        return int(self.read(lambda c: c.execute(query).scalar_one()))

    def recent_question_ids(self, profile_id: int, *, since: datetime) -> set[str]:
        query = (
            select(attempts.c.question_id)
            .where(attempts.c.profile_id == profile_id, attempts.c.created_at >= _aware(since))
            .distinct()
        )
        return set(self.read(lambda c: c.execute(query).scalars().all()))

    def list_cards(self, profile_id: int) -> list[CardState]:
        query = select(cards).where(cards.c.profile_id == profile_id).order_by(cards.c.question_id)
        return [card_from_row(r) for r in self.read(lambda c: c.execute(query).all())]

    def review_queue(
        self, profile_id: int, now: datetime, *, limit: int | None = None
    ) -> list[CardState]:
        """Cards due at `now`: high-confidence errors first, then most overdue.

        The ORDER BY mirrors `tutor.review.queue_sort_key` (a property test checks they agree);
        the (profile_id, due) index means only due cards are read and sorted.
        """
        confident_error = and_(cards.c.last_rating == 1, cards.c.last_confidence >= 3)
        query = (
            select(cards)
            .where(cards.c.profile_id == profile_id, cards.c.due <= _aware(now))
            .order_by(case((confident_error, 0), else_=1), cards.c.due, cards.c.question_id)
            .limit(limit)
        )
        return [card_from_row(r) for r in self.read(lambda c: c.execute(query).all())]
