"""The validated bank: questions by id, where each came from, and simple selections."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .enums import Difficulty, QuestionType, Topic
from .question_types import Question


@dataclass(frozen=True)
class SourceLocation:
    path: str
    line: int | None
    # Its file's line index and its place there, so lines inside it are found only when asked.
    lines: Any = field(default=None, compare=False, repr=False)
    prefix: tuple = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"

    def line_of(self, *parts: str | int) -> int | None:
        """The line of a value inside the question, e.g. `line_of("tests", 2)`."""
        found = None if self.lines is None else self.lines.line_at([*self.prefix, *parts])
        return found if found is not None else self.line


@dataclass(frozen=True)
class Bank:
    questions: dict[str, Question]
    locations: dict[str, SourceLocation] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.questions)

    def __iter__(self):
        return iter(self.questions.values())

    def by_type(self, type: QuestionType | str) -> list[Question]:
        return [q for q in self.questions.values() if q.type == QuestionType(type)]

    def filter(
        self,
        topics: Iterable[Topic | str] | None = None,
        types: Iterable[QuestionType | str] | None = None,
        difficulties: Iterable[Difficulty | str] | None = None,
    ) -> list[Question]:
        """Questions matching every given selection (None means: any)."""
        topic_set = None if topics is None else {Topic(t) for t in topics}
        type_set = None if types is None else {QuestionType(t) for t in types}
        level_set = None if difficulties is None else {Difficulty(d) for d in difficulties}
        return [
            q
            for q in self.questions.values()
            if (topic_set is None or q.topic in topic_set)
            and (type_set is None or q.type in type_set)
            and (level_set is None or q.difficulty in level_set)
        ]

    def location(self, question_id: str) -> SourceLocation:
        return self.locations.get(question_id, SourceLocation("<unknown>", None))
