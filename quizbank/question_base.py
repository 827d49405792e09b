"""Fields every question has, and the author-test shapes (sample answer + expected verdict)."""

from typing import Annotated

from pydantic import Field, field_validator

from .enums import Difficulty, ExpectedVerdict, QuestionType, SourceText, Topic
from .localized import Localized
from .strict import KebabId, NonEmptyText, StrictModel, lax_enum


class Source(StrictModel):
    """Which seed text and section a question is drawn from (`section` is free text, e.g. "3.2")."""

    text: lax_enum(SourceText)
    section: NonEmptyText


def unique(values: list[str], what: str) -> list[str]:
    seen: set[str] = set()
    repeated = [v for v in values if v in seen or seen.add(v)]
    if repeated:
        raise ValueError(f"{what} must be unique; repeated: {', '.join(sorted(set(repeated)))}")
    return values


# Tries before the worked solution is shown, unless a question sets its own `tries`: a formula or
# a number can be retyped after feedback; an option or an order could be found by elimination.
DEFAULT_TRIES = {
    QuestionType.NUMERIC: 3, QuestionType.EXPRESSION: 3, QuestionType.DERIVATION: 3,
    QuestionType.GENERATED: 3, QuestionType.CHOICE: 1, QuestionType.ORDERING: 1,
    QuestionType.INTERVIEW: 1,
}
MAX_TRIES = 10


class QuestionBase(StrictModel):
    id: KebabId
    topic: lax_enum(Topic)
    tags: list[NonEmptyText] = []
    difficulty: lax_enum(Difficulty)
    source: Source
    prompt: Localized
    hints: list[Localized] = []
    solution: Localized
    tries: Annotated[int, Field(ge=1, le=MAX_TRIES)] | None = None  # None: DEFAULT_TRIES

    @property
    def allowed_tries(self) -> int:
        """How many graded tries a learner gets before the solution is shown."""
        return self.tries or DEFAULT_TRIES[QuestionType(self.type)]

    @field_validator("tags")
    @classmethod
    def _tags_unique(cls, tags: list[str]) -> list[str]:
        return unique(tags, "tags")

    def localized_fields(self) -> list[Localized]:
        """Every piece of learner-facing text, for language-coverage counts."""
        return [self.prompt, *self.hints, self.solution]


# Author tests. The answer's shape depends on how a learner answers that question type.
class TextAnswerTest(StrictModel):
    """numeric and expression: the learner's text, e.g. `"[0.4, 2.05]"` or `"(I + W)^T g"`."""

    answer: str
    verdict: lax_enum(ExpectedVerdict)


class LinesAnswerTest(StrictModel):
    """derivation: one string per line the learner writes."""

    answer: Annotated[list[str], Field(min_length=1)]
    verdict: lax_enum(ExpectedVerdict)


class IdsAnswerTest(StrictModel):
    """choice (chosen option ids) and ordering (step ids in the learner's order)."""

    answer: list[KebabId]
    verdict: lax_enum(ExpectedVerdict)


class GeneratedAnswerTest(StrictModel):
    """generated: the problem's seed and one text answer per asked name ("key" = the answer key)."""

    seed: Annotated[int, Field(ge=0)]
    answer: dict[str, str]
    verdict: lax_enum(ExpectedVerdict)
