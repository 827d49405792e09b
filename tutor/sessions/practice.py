"""Choosing what to practise: filters, the next question, a run through questions, and the Practice
URL (`?q=<id>&seed=<n>&topics=…&types=…&levels=…`) that reopens the question on screen with its
filters after a reload or from a bookmark."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tutor.sessions.question_session import QuestionSession, open_session, parse_seed

# How many recently seen questions to skip when drawing the next one (if others remain).
RECENT_WINDOW = 5
QUESTION_PARAM, SEED_PARAM = "q", "seed"
FILTER_PARAMS = {"topics": "topics", "types": "types", "difficulties": "levels"}
MAX_QUESTION_ID = 200  # longer text in ?q= is not an id


@dataclass(frozen=True)
class Filters:
    """What the learner chose to practise; an empty tuple means "any"."""

    topics: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    difficulties: tuple[str, ...] = ()

    @classmethod
    def of(cls, topics: Iterable = (), types: Iterable = (), difficulties: Iterable = ()):
        return cls(tuple(map(str, topics)), tuple(map(str, types)), tuple(map(str, difficulties)))


def matching_ids(bank, filters: Filters) -> list[str]:
    """Ids of the bank's questions that pass every non-empty filter, in a stable order."""
    chosen = bank.filter(topics=filters.topics or None, types=filters.types or None,
                         difficulties=filters.difficulties or None)
    return sorted(q.id for q in chosen)


def pick_next(ids: Sequence[str], *, recent: Sequence[str], rng: random.Random) -> str | None:
    """A random id, avoiding the last `RECENT_WINDOW` seen while anything else is left."""
    if not ids:
        return None
    skip = set(recent[-RECENT_WINDOW:])
    fresh = [i for i in ids if i not in skip]
    return rng.choice(fresh or list(ids))


@dataclass
class QuestionQueue:
    """The questions a learner goes through on one page (Practice, Review, Exercises): the one on
    screen and the ones that came before."""

    rng: random.Random = field(default_factory=random.Random)
    recent: list[str] = field(default_factory=list)
    current: QuestionSession | None = None
    serial: int = 0

    def open(self, question, *, seed: int | None = None,
             difficulty: str | None = None) -> QuestionSession:
        """Put `question` on screen with a fresh session (a new variant, no tries, no hints, new
        widget keys); `seed` and `difficulty` choose a generated question's variant, a drawn seed
        never the one on screen."""
        on_screen = self.current.variant if self.current is not None else None
        self.serial += 1
        self.current = open_session(question, rng=self.rng, serial=self.serial, seed=seed,
                                    difficulty=difficulty,
                                    avoid_seed=on_screen.seed if on_screen is not None else None)
        self.recent = (self.recent + [question.id])[-50:]
        return self.current

    def resume(self, session: QuestionSession) -> QuestionSession:
        """Put back a session restored from a draft (after a reload)."""
        self.serial = max(self.serial, session.serial)
        self.current = session
        self.recent = (self.recent + [session.question_id])[-50:]
        return session

    def close(self) -> None:
        """Take the question off screen: nothing is left to show (Review with nothing due)."""
        self.current = None

    def next(self, questions_by_id: Mapping, ids: Sequence[str]) -> QuestionSession | None:
        """Open a random question among `ids` (avoiding recent ones); None when `ids` is empty."""
        picked = pick_next(ids, recent=self.recent, rng=self.rng)
        if picked is None:
            self.current = None
            return None
        return self.open(questions_by_id[picked])


def next_due(queue: Sequence, known_ids: Iterable[str], *, skip: str | None = None) -> str | None:
    """The first card of the review queue (already in review order) whose question still
    exists, other than `skip` (the one just answered)."""
    known = set(known_ids)
    return next((c.question_id for c in queue if c.question_id in known and c.question_id != skip),
                None)


# ---- the URL ----------------------------------------------------------------------------------
def filters_from_params(params: Mapping[str, Any], allowed: Mapping[str, Iterable[str]]) -> Filters:
    """The filters a URL names; unknown values (the URL is untrusted) are dropped. `allowed` maps
    "topics" / "types" / "difficulties" to their valid values."""
    chosen = {}
    for name, param in FILTER_PARAMS.items():
        valid = set(allowed[name])
        values = str(params.get(param, "") or "").split(",")
        chosen[name] = tuple(dict.fromkeys(v for v in values if v in valid))
    return Filters(**chosen)


def practice_params(session: QuestionSession | None, filters: Filters) -> dict[str, str]:
    """The query parameters for the question on screen and the filters (empty ones left out)."""
    params = {}
    if session is not None:
        params[QUESTION_PARAM] = session.question_id
        if session.seed is not None:
            params[SEED_PARAM] = str(session.seed)
    for name, param in FILTER_PARAMS.items():
        values = getattr(filters, name)
        if values:
            params[param] = ",".join(values)
    return params


@dataclass(frozen=True)
class LinkedQuestion:
    """What `?q=` and `?seed=` ask for: a question id (None: no question asked) and a seed."""

    question_id: str | None
    seed: int | None = None


def linked_question(params: Mapping[str, Any]) -> LinkedQuestion:
    """`?q=` and `?seed=` as given (the id is checked against the bank by the caller; a seed that
    is not a small whole number is ignored)."""
    qid = params.get(QUESTION_PARAM)
    if qid is None:
        return LinkedQuestion(None)
    return LinkedQuestion(str(qid)[:MAX_QUESTION_ID].strip(), parse_seed(params.get(SEED_PARAM)))
