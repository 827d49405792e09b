"""The question list's flow, without Streamlit: every bank question with the current profile's
status, filtered by topic, type, difficulty and status, and searched by text in both languages.

A question's status comes from its review card, which is moved once per visit by the first try
(`tutor.rating`): no card -> new; last rating Again -> wrong; any other rating -> correct. Its
next review is the card's due time: due now when that has passed.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from tutor.review import CardState

AGAIN = 1  # the FSRS rating "Again": the first try was not right


class Status(StrEnum):
    NEW = "new"
    CORRECT = "correct"
    WRONG = "wrong"


STATUS_FILTERS = ("new", "correct", "wrong", "due")  # "due": due for review now


@dataclass(frozen=True)
class Row:
    question_id: str
    topic: str
    type: str
    difficulty: str
    status: Status
    due: datetime | None  # the next review, None for a new question
    due_now: bool


def status_of(card: CardState | None) -> Status:
    if card is None or card.last_rating is None:
        return Status.NEW
    return Status.WRONG if card.last_rating == AGAIN else Status.CORRECT


def _folded(text: str) -> str:
    # Case, width (full-width letters from Chinese input methods) and spacing do not matter.
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).casefold()).strip()


def search_text(question) -> str:
    """Everything a search looks at: the id, the tags and the prompt in both languages."""
    prompts = [question.prompt.zh or "", question.prompt.en or ""]
    return _folded(" ".join([question.id, *question.tags, *prompts]))


def matches(haystack: str, query: str) -> bool:
    """Every word of the query appears (a Chinese phrase without spaces is one word)."""
    return all(word in haystack for word in _folded(query).split(" ") if word)


class SearchIndex:
    """Each question's `search_text`, for the bank object it was built from.

    The bank is live (a question saved on the Author page, imported or dropped into a bank folder
    is seen on the next run), and `quizbank.BankCache` returns a new bank object whenever a file
    changed and the same object while nothing did: the texts are rebuilt exactly when the bank
    object changes, so they are never stale and cost nothing while the bank stays as it is. One
    index is shared by every session of a server (it holds only immutable results)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bank = None  # held, so its id cannot be reused by another object
        self._texts: dict[str, str] = {}

    def haystacks(self, bank) -> Mapping[str, str]:
        """Question id -> searchable text for `bank` (a `quizbank.Bank`)."""
        with self._lock:
            if self._bank is not bank:
                self._texts = {q.id: search_text(q) for q in bank}
                self._bank = bank
            return self._texts


def question_rows(
    questions: Iterable, cards: Iterable[CardState], *, now: datetime, query: str = "",
    statuses: Iterable[str] = (), haystacks: Mapping[str, str] | None = None,
) -> list[Row]:
    """The questions (already filtered by topic, type and difficulty) that match the search and
    the status filter, in bank order. `haystacks` may hold precomputed `search_text`s by id."""
    by_id = {c.question_id: c for c in cards}
    wanted = set(statuses)
    rows = []
    for q in questions:
        if query.strip():
            text = haystacks[q.id] if haystacks is not None else search_text(q)
            if not matches(text, query):
                continue
        card = by_id.get(q.id)
        status = status_of(card)
        due = card.due if status is not Status.NEW else None
        due_now = due is not None and due <= now
        if wanted and not (status.value in wanted or ("due" in wanted and due_now)):
            continue
        rows.append(Row(q.id, str(q.topic), str(q.type), str(q.difficulty), status, due, due_now))
    return rows
