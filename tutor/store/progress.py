"""The progress store: profiles, their settings, attempts and FSRS cards.

    store = ProgressStore.open()                 # or .open("postgresql+psycopg://…")
    me = store.create_profile("Ada")
    store.record_attempt(me.id, NewAttempt("grad-jacobian-transpose", Verdict.CORRECT, score=1.0))
    store.review_queue(me.id, now)               # cards due, in review order

Recording an attempt and updating its card happen in one transaction.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from fsrs import Rating
from sqlalchemy import and_, bindparam, case, delete, func, or_, select, update
from sqlalchemy.engine import Connection, Row

from tutor.rating import Mode, Phase, choosable, rate, recorded_phase
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
        key=row.client_key,
        unassessed=bool(row.unassessed),
        imported=bool(row.imported),
    )


# The statements of an attempt's write, built once with bound parameters: building a Core
# statement on every call (coercing its clauses, generating its cache key) cost the attempt
# writer's thread more CPU than running it. A bound parameter in an UPDATE's WHERE must not be
# named like a column of its SET, hence the `w_` names.
_KEY = bindparam("key")
_ATTEMPT_BY_KEY = select(attempts).where(
    or_(attempts.c.client_key == _KEY, attempts.c.assessed_key == _KEY))
_PROFILE_BY_ID = select(profiles).where(profiles.c.id == bindparam("profile_id"))
_CARD = select(cards).where(cards.c.profile_id == bindparam("profile_id"),
                            cards.c.question_id == bindparam("question_id"))
_CARD_UPDATE = update(cards).where(cards.c.profile_id == bindparam("w_profile_id"),
                                   cards.c.question_id == bindparam("w_question_id"))
_CARD_BEFORE_UPDATE = update(attempts).where(attempts.c.id == bindparam("w_id"))
_LATER_REVIEWS = (
    select(attempts.c.id, attempts.c.rating, attempts.c.created_at, attempts.c.confidence,
           attempts.c.card_before)
    .where(attempts.c.profile_id == bindparam("profile_id"),
           attempts.c.question_id == bindparam("question_id"),
           attempts.c.card_before.is_not(None), attempts.c.created_at > bindparam("moment"))
    .order_by(attempts.c.created_at, attempts.c.id))
_SEED_COUNTED = select(attempts.c.id).where(
    attempts.c.profile_id == bindparam("profile_id"),
    attempts.c.question_id == bindparam("question_id"),
    attempts.c.seed == bindparam("seed"), attempts.c.rating.is_not(None),
    attempts.c.created_at <= bindparam("moment")).limit(1)
_INSERT_ATTEMPT = attempts.insert()
_INSERT_CARD = cards.insert()


def stored_attempt(conn: Connection, key: str) -> AttemptRecord | None:
    """The attempt recorded under this client key (or assessed by the attempt with this key),
    if any."""
    row = conn.execute(_ATTEMPT_BY_KEY, {"key": key}).first()
    return None if row is None else attempt_from_row(row)


def _later_reviews(conn: Connection, profile_id: int, question_id: str, moment: datetime,
                   row: Row | None) -> list[Row]:
    """The reviews of this card made after `moment` (none unless `moment` is in its past)."""
    if row is None or row.last_review is None or row.last_review <= moment:
        return []
    return conn.execute(_LATER_REVIEWS, {"profile_id": profile_id, "question_id": question_id,
                                         "moment": moment}).all()


@dataclass(frozen=True)
class CardAt:
    """A question's card as read for an attempt made at `moment`: the stored row and the reviews
    of it made after `moment` (none unless the attempt is replayed late from a spool). Read once
    per write (`card_at`): it decides the phase, then `move_card` moves it."""

    profile_id: int
    question_id: str
    moment: datetime
    row: Row | None
    later: list[Row]

    @cached_property
    def card(self) -> CardState | None:
        """The card as it was at `moment` (None: no review before it). Usually the stored card;
        for an attempt replayed late, the card before the first review made after it."""
        if self.later:
            before = card_from_json(self.later[0].card_before)
            return None if before.last_review is None else before
        return card_from_row(self.row) if self.row else None


def card_at(conn: Connection, profile_id: int, question_id: str, moment: datetime) -> CardAt:
    row = conn.execute(_CARD, {"profile_id": profile_id, "question_id": question_id}).first()
    return CardAt(profile_id, question_id, moment, row,
                  _later_reviews(conn, profile_id, question_id, moment, row))


def move_card(conn: Connection, at: CardAt, rating: Rating | int, *,
              confidence: int | None) -> tuple[CardState, CardState]:
    """Schedule the card `at` with a review at its moment; returns (before, after).

    Reviews usually arrive in time order. One that does not (an attempt replayed from a replica's
    spool after the learner answered the same question elsewhere) is put in its place: the card
    is taken as it was before the first later review (that attempt's `card_before`), moved by
    this review, and the later reviews are applied again after it with the ratings they have, so
    the card ends as if every review had been written in time order.
    """
    before = at.card
    if before is None:
        before = new_card(at.question_id, at.moment)
    moved = schedule(before, Rating(int(rating)), at.moment, confidence=confidence)
    card = moved
    for review in at.later:
        conn.execute(_CARD_BEFORE_UPDATE, {"w_id": review.id, "card_before": card_to_json(card)})
        card = schedule(card, Rating(review.rating), review.created_at,
                        confidence=review.confidence)
    if at.row:
        conn.execute(_CARD_UPDATE, {"w_profile_id": at.profile_id,
                                    "w_question_id": at.question_id, **card_values(card)})
    else:
        conn.execute(_INSERT_CARD, {"profile_id": at.profile_id, "question_id": at.question_id,
                                    **card_values(card)})
    return before, moved


def require_profile(conn: Connection, profile_id: int) -> Profile:
    row = conn.execute(_PROFILE_BY_ID, {"profile_id": profile_id}).first()
    if row is None:
        raise ProfileError("unknown-profile")
    return Profile(row.id, row.name, row.created_at)


def delete_owned(conn: Connection, profile_id: int) -> None:
    """The profile's rows, everywhere (inside the caller's write transaction)."""
    for table in (attempts, cards, settings, drafts, identities):
        conn.execute(delete(table).where(table.c.profile_id == profile_id))
    conn.execute(delete(profiles).where(profiles.c.id == profile_id))


def name_taken(conn: Connection, name: str, *, other_than: int | None = None) -> bool:
    query = select(profiles.c.id).where(profiles.c.name == name)
    if other_than is not None:
        query = query.where(profiles.c.id != other_than)
    return conn.execute(query).first() is not None


def _seed_counted(conn: Connection, profile_id: int, question_id: str, seed: int | None,
                  moment: datetime) -> bool:
    """Whether a counted try (or a solution shown, which records one) already used this variant
    before `moment`."""
    if seed is None:
        return False
    return conn.execute(_SEED_COUNTED, {"profile_id": profile_id, "question_id": question_id,
                                        "seed": seed, "moment": moment}).first() is not None


def _assess(conn: Connection, profile_id: int, attempt: NewAttempt) -> AttemptRecord | None:
    """The learner's ticks on an interview answer recorded, unassessed, when its model answer was
    shown: its verdict, score, ticks and confidence replace the row's. When that row counted
    (and is still its card's last review), the card is scheduled again from the card before it
    with the rating the ticks give, at the moment the answer was given; practice stays practice.
    None when `attempt.assesses` is not the key of (or no longer) an unassessed answer of this
    profile to this question: a row is assessed once (two tabs sharing a draft both tick it)."""
    row = conn.execute(select(attempts).where(
        attempts.c.client_key == attempt.assesses, attempts.c.profile_id == profile_id)).first()
    if row is None or row.question_id != attempt.question_id or not row.unassessed:
        return None
    where = and_(cards.c.profile_id == profile_id, cards.c.question_id == row.question_id)
    found = conn.execute(select(cards).where(where)).first()
    card = card_from_row(found) if found else None
    rating, before = row.rating, None
    if rating is not None and card is not None and card.last_review == row.created_at:
        before = card_from_json(row.card_before)
        rating = rate(replace(attempt.outcome(), phase=Phase.FIRST))
        card = schedule(before, rating, row.created_at, confidence=attempt.confidence)
        conn.execute(update(cards).where(where).values(**card_values(card)))
    changes = {
        "verdict": attempt.verdict, "score": float(attempt.score),
        "confidence": attempt.confidence, "hints_used": int(attempt.hints_used),
        "rubric_ticks": json.dumps(list(attempt.rubric_ticks)) if attempt.rubric_ticks else None,
        "rating": None if rating is None else int(rating), "unassessed": False,
        "assessed_key": attempt.key,  # a replayed assessment finds its row and changes nothing
    }
    conn.execute(update(attempts).where(attempts.c.id == row.id).values(**changes))
    updated = conn.execute(select(attempts).where(attempts.c.id == row.id)).one()
    return replace(attempt_from_row(updated), card=card, before=before)


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
            delete_owned(conn, profile_id)

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
        """Save one attempt and, when it counts, move its card on, in one transaction. The store
        decides whether a claimed first try counts (`tutor.rating.recorded_phase`: not while the
        question was already tried or its solution seen and is not due, unless a new variant
        was drawn); the returned record says what it decided (`.phase`, `.rating`) and carries
        the question's card (`.card`). An attempt that `assesses` an unassessed interview answer
        updates that row instead (`_assess`; an answer of its own when that row was already
        assessed, e.g. in another tab). Raises ValueError listing every problem of a
        malformed attempt, ProfileError for a missing profile."""
        problems = attempt.problems()
        if problems:
            raise ValueError("attempt refused: " + "; ".join(problems))
        moment = _aware(now or utc_now())
        values = {
            "profile_id": profile_id,
            "question_id": attempt.question_id,
            "seed": attempt.seed,
            "answer": attempt.answer,
            "verdict": attempt.verdict,
            "score": float(attempt.score),
            "hints_used": int(attempt.hints_used),
            "seconds": float(attempt.seconds),
            "confidence": attempt.confidence,
            "rubric_ticks": json.dumps(list(attempt.rubric_ticks)) if attempt.rubric_ticks else None,
            "mode": str(Mode(attempt.mode)),
            "unassessed": bool(attempt.unassessed),
            "created_at": moment,
        }

        def work(conn: Connection) -> AttemptRecord:
            require_profile(conn, profile_id)
            if attempt.key is not None and (known := stored_attempt(conn, attempt.key)):
                if known.profile_id != profile_id:
                    raise ValueError(f"attempt key {attempt.key!r} belongs to another profile")
                return known  # written before (a retry or a replay): once is enough
            if attempt.assesses is not None:
                assessed = _assess(conn, profile_id, attempt)
                if assessed is not None:
                    return assessed
                # nothing left to assess: an answer of its own, decided like any other
            at = card_at(conn, profile_id, attempt.question_id, moment)
            card = at.card
            phase = recorded_phase(
                Phase(attempt.phase), last_counted=card and card.last_review,
                due=card and card.due, seed=attempt.seed, now=moment,
                # looked up only when it decides: a card not yet due and a generated question
                seed_counted=card is not None and card.due > moment and attempt.seed is not None
                and _seed_counted(conn, profile_id, attempt.question_id, attempt.seed, moment))
            rating = rate(replace(attempt.outcome(), phase=phase))
            before = moved = None
            if rating is not None:
                before, moved = move_card(conn, at, rating, confidence=attempt.confidence)
            row_values = {**values, "phase": str(phase),
                          "rating": int(rating) if rating is not None else None}
            new_id = conn.execute(_INSERT_ATTEMPT, {
                **row_values, "card_before": before and card_to_json(before),
                "client_key": attempt.key}).inserted_primary_key[0]
            return AttemptRecord(
                id=new_id, **{**row_values, "rubric_ticks": tuple(attempt.rubric_ticks)},
                key=attempt.key, card=moved if moved is not None else card, before=before,
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
