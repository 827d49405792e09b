"""Learner text written in one language only.

A bank's text may be in zh, en or both (`Localized` needs one); a learner whose language is
missing is shown the other one. That is allowed, so it is a warning for the author, not a problem:
`quizbank validate` prints it and the Author page shows it, naming the field and the language.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from .bank import Bank
from .localized import Localized

LANGUAGE_NAMES = {"zh": "Chinese", "en": "English"}


def one_language_fields(question: BaseModel) -> list[tuple[tuple[str | int, ...], str]]:
    """(path inside the question, the missing language) for every learner text in one language,
    in the question's field order: `(("prompt",), "en")`, `(("options", 1, "text"), "zh")`."""
    return [(path, lang) for path, text in _texts(question, ())
            for lang in ("zh", "en") if not getattr(text, lang)]


def _texts(node, path: tuple) -> Iterator[tuple[tuple, Localized]]:
    # Shown text only: rubric keywords are matched against answers, never shown.
    if isinstance(node, Localized):
        yield path, node
    elif isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from _texts(getattr(node, name), (*path, name))
    elif isinstance(node, list | tuple):
        for k, item in enumerate(node):
            yield from _texts(item, (*path, k))


def dotted(path: tuple[str | int, ...]) -> str:
    """`("options", 1, "text")` -> `options[1].text`, as the bank's problems name fields."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


@dataclass(frozen=True, order=True)
class OneLanguageText:
    """A warning: the learner text at `field` of a question has no `missing` language."""

    path: str
    line: int | None
    question_id: str
    field: str  # dotted, e.g. "options[1].text"
    missing: str  # "zh" or "en"

    @property
    def shown_instead(self) -> str:
        return "zh" if self.missing == "en" else "en"

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return (f"{where}: {self.question_id}: {self.field}: no {LANGUAGE_NAMES[self.missing]} "
                f"text, so {self.missing} learners are shown the {self.shown_instead} text; "
                f"add `{self.missing}:`")


def question_language_warnings(question, path: str, line_of) -> list[OneLanguageText]:
    """The warnings of one question; `line_of(parts)` finds a field's line in `path`."""
    return [OneLanguageText(path, line_of(where), question.id, dotted(where), missing)
            for where, missing in one_language_fields(question)]


def bank_language_warnings(bank: Bank) -> list[OneLanguageText]:
    """Every one-language text of the bank, with its file and line."""
    found = []
    for question in bank:
        location = bank.location(question.id)
        found += question_language_warnings(question, location.path,
                                            lambda parts, at=location: at.line_of(*parts))
    return found
