"""The seven question types and the discriminated union over `type` (docs/contracts.md)."""

import re
from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from .enums import RubricKind
from .localized import Localized, LocalizedKeywords
from .numbers import NumericAnswer, Tolerance
from .question_base import (
    GeneratedAnswerTest,
    IdsAnswerTest,
    LinesAnswerTest,
    QuestionBase,
    TextAnswerTest,
    unique,
)
from .strict import Identifier, KebabId, NonEmptyText, StrictModel, lax_enum

TemplateName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]


def _known_ids(tests: list, known: list[str], what: str) -> list:
    """Author tests may only name ids the question defines."""
    for k, test in enumerate(tests, start=1):
        unknown = [i for i in test.answer if i not in known]
        if unknown:
            raise ValueError(
                f"test #{k} names unknown {what} {', '.join(unknown)} (known: {', '.join(known)})"
            )
    return tests


class ChoiceOption(StrictModel):
    id: KebabId
    text: Localized
    correct: bool
    feedback: Localized | None = None

    @model_validator(mode="after")
    def _wrong_option_explains(self):
        if not self.correct and self.feedback is None:
            raise ValueError(f"wrong option '{self.id}' needs feedback saying why it is wrong")
        return self


class ChoiceQuestion(QuestionBase):
    type: Literal["choice"]
    multiple: bool = False
    options: Annotated[list[ChoiceOption], Field(min_length=2)]
    tests: list[IdsAnswerTest] = []

    @field_validator("options")
    @classmethod
    def _options_consistent(cls, options: list[ChoiceOption], info: ValidationInfo):
        unique([o.id for o in options], "option ids")
        n_correct = sum(o.correct for o in options)
        if n_correct == 0:
            raise ValueError("needs at least one correct option")
        if not info.data.get("multiple", False) and n_correct != 1:
            raise ValueError(
                f"has {n_correct} correct options but `multiple` is false: "
                "mark exactly one correct, or set `multiple: true`"
            )
        return options

    @model_validator(mode="after")
    def _tries_leave_a_choice(self):
        # As many tries as wrong options would let anyone reach the answer by elimination.
        if self.tries is not None and not self.multiple and self.tries >= len(self.options):
            raise ValueError(f"`tries: {self.tries}` with {len(self.options)} options finds the "
                             f"answer by elimination: give at most {len(self.options) - 1}")
        return self

    @field_validator("tests")
    @classmethod
    def _tests_name_options(cls, tests, info: ValidationInfo):
        options = info.data.get("options")
        return tests if options is None else _known_ids(tests, [o.id for o in options], "option")

    def localized_fields(self) -> list[Localized]:
        texts = [o.text for o in self.options] + [o.feedback for o in self.options if o.feedback]
        return super().localized_fields() + texts


class Malrule(StrictModel):
    answer: NonEmptyText
    feedback: Localized


class AcceptedMutant(StrictModel):
    """A mutant of the key that the grader accepts, kept on purpose (`quizbank test --mutations`):
    `answer` is the mutant as the report prints it, `why` says why accepting it is right (it is
    equal to the key, e.g. a transpose dropped from a symmetric matrix)."""

    answer: NonEmptyText
    why: NonEmptyText


class _MutationTested(StrictModel):
    accepted_mutants: list[AcceptedMutant] = []


class NumericQuestion(_MutationTested, QuestionBase):
    type: Literal["numeric"]
    answer: NumericAnswer
    tolerance: Tolerance
    # Known wrong numbers with targeted feedback; `answer` is text the grader reads ("0.45").
    malrules: list[Malrule] = []
    tests: list[TextAnswerTest] = []

    def localized_fields(self) -> list[Localized]:
        return super().localized_fields() + [r.feedback for r in self.malrules]


class _Declarations(StrictModel):
    """Names the grader declares (the one declaration schema of docs/contracts.md, the same field
    names as the grading request and the Derivation checker page): one name cannot be two kinds
    of thing; a family takes its kind from the list that also names it; domains and relations
    are about names declared here."""

    symbols: list[Identifier] = []
    functions: list[Identifier] = []
    matrices: list[Identifier] = []
    integers: list[Identifier] = []  # integer-valued symbols: bounds and indices (n, L, l)
    families: list[Identifier] = []  # x makes x_0, x_l, x_{l+1} its members
    positive: list[Identifier] = []
    nonnegative: list[Identifier] = []
    relations: list[NonEmptyText] = []  # recursions assumed: "x_{l+1} = x_l + F_l(x_l)"
    # Part 2 (issue 25): column vectors; also in `functions`, vector functions (F in x + F(x));
    # also in `families`, families of vectors. A relation `y = x + Wx` defines a vector.
    vectors: list[Identifier] = []
    # -- random variables (issue 25): E, Var, Cov, D become moment operators --
    random: list[Identifier] = []  # random variables; a family here is i.i.d. over its index
    independent: list[list[Identifier]] = []  # groups of mutually independent ones: [[w, x]]
    zero_mean: list[Identifier] = []  # random variables with mean 0

    @field_validator("symbols", "functions", "matrices", "integers")
    @classmethod
    def _declared_once(cls, names: list[str], info: ValidationInfo):
        unique(names, info.field_name)
        for earlier in KINDS_OF_NAMES:
            if earlier == info.field_name:
                break
            clash = [n for n in names if n in info.data.get(earlier, [])]
            if clash:
                raise ValueError(f"{', '.join(clash)} already declared in `{earlier}`")
        return names

    @field_validator("families")
    @classmethod
    def _families_are_names(cls, names: list[str], info: ValidationInfo):
        unique(names, "families")
        integers = [n for n in names if n in info.data.get("integers", [])]
        if integers:
            raise ValueError(f"{', '.join(integers)} is an integer, not a family: a family's "
                             "kind is scalar, function (functions) or matrix (matrices)")
        return names

    @field_validator("positive", "nonnegative")
    @classmethod
    def _domains_are_of_declared_names(cls, names: list[str], info: ValidationInfo):
        unique(names, info.field_name)
        declared = {n for kind in ("symbols", "integers", "families")
                    for n in info.data.get(kind, [])}
        missing = [n for n in names if n not in declared]
        if missing:
            raise ValueError(f"{', '.join(missing)} in `{info.field_name}` must be declared in "
                             "`symbols`, `integers` or `families` first")
        both = [n for n in names if n in info.data.get("positive", [])]
        if info.field_name == "nonnegative" and both:
            raise ValueError(f"{', '.join(both)} already declared `positive`")
        return names

    @field_validator("vectors")
    @classmethod
    def _vectors_are_not_scalars_or_matrices(cls, names: list[str], info: ValidationInfo):
        unique(names, "vectors")
        for kind in ("symbols", "matrices", "integers"):
            clash = [n for n in names if n in info.data.get(kind, [])]
            if clash:
                raise ValueError(f"{', '.join(clash)} already declared in `{kind}`: a vector is "
                                 "a column of values (add it to `functions` too for a vector "
                                 "function, to `families` for a family of vectors)")
        return names

    @field_validator("random")
    @classmethod
    def _random_are_values(cls, names: list[str], info: ValidationInfo):
        unique(names, "random")
        clash = [n for n in names if n in info.data.get("functions", [])
                 or n in info.data.get("matrices", [])]
        if clash:
            raise ValueError(f"{', '.join(clash)} cannot be a random variable and a function "
                             "or matrix")
        return names

    @field_validator("independent", "zero_mean")
    @classmethod
    def _assumptions_are_about_random_variables(cls, value: list, info: ValidationInfo):
        groups = value if info.field_name == "independent" else [value]
        if info.field_name == "independent":
            short = [g for g in groups if len(g) < 2]
            if short:
                raise ValueError("each group in `independent` names at least two random "
                                 "variables, e.g. [[w, x]]")
        else:
            unique(value, "zero_mean")
        random = set(info.data.get("random", []))
        missing = sorted({n for g in groups for n in g} - random)
        if missing:
            raise ValueError(f"{', '.join(missing)} in `{info.field_name}` must be declared in "
                             "`random` first")
        return value

    def declared_fields(self) -> dict:
        """The request's declaration fields: the three every request has, and the others only
        when the question uses them (requests without them stay as they were)."""
        fields = {name: list(getattr(self, name)) for name in KINDS_OF_NAMES[:3]}
        fields.update({name: list(getattr(self, name)) for name in DECLARATION_FIELDS[3:]
                       if getattr(self, name)})
        return fields


KINDS_OF_NAMES = ("symbols", "functions", "matrices", "integers")
DECLARATION_FIELDS = ("symbols", "functions", "matrices", "integers", "families", "positive",
                      "nonnegative", "relations",
                      "vectors",
                      "random", "independent", "zero_mean")  # random variables (issue 25)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


class ExpressionQuestion(_MutationTested, _Declarations, QuestionBase):
    type: Literal["expression"]
    answer: NonEmptyText
    malrules: list[Malrule] = []
    tests: list[TextAnswerTest] = []

    @field_validator("malrules")
    @classmethod
    def _malrules_differ_from_answer(cls, malrules: list[Malrule], info: ValidationInfo):
        answer = info.data.get("answer")
        for k, rule in enumerate(malrules, start=1):
            if answer is not None and _squash(rule.answer) == _squash(answer):
                raise ValueError(f"mal-rule #{k} '{rule.answer}' is the correct answer itself")
        unique([_squash(r.answer) for r in malrules], "mal-rule answers")
        return malrules

    def localized_fields(self) -> list[Localized]:
        return super().localized_fields() + [r.feedback for r in self.malrules]


class DerivationQuestion(_MutationTested, _Declarations, QuestionBase):
    type: Literal["derivation"]
    start: NonEmptyText
    target: NonEmptyText
    steps: Annotated[list[NonEmptyText], Field(min_length=1)]
    tests: list[LinesAnswerTest] = []
    # How close a line written with ≈ must be to the line before (relative or absolute); without
    # it the grader reads the tolerance off the digits the line shows.
    tolerance: Tolerance | None = None

    @field_validator("tolerance")
    @classmethod
    def _tolerance_is_a_bound(cls, tolerance: Tolerance | None):
        if tolerance is not None and tolerance.kind.value == "sigfigs":
            raise ValueError("a derivation's tolerance for ≈ lines is relative or absolute, "
                             "not sigfigs")
        return tolerance


class RubricPoint(StrictModel):
    id: KebabId
    kind: lax_enum(RubricKind)
    text: Localized
    keywords: LocalizedKeywords


class InterviewQuestion(QuestionBase):
    type: Literal["interview"]
    model_answer: Localized
    rubric: Annotated[list[RubricPoint], Field(min_length=1)]
    followups: list[KebabId] = []
    tests: list[TextAnswerTest] = []

    @field_validator("rubric")
    @classmethod
    def _rubric_has_required_point(cls, rubric: list[RubricPoint]):
        unique([p.id for p in rubric], "rubric ids")
        if not any(p.kind is RubricKind.REQUIRED for p in rubric):
            raise ValueError("needs at least one point of kind `required`")
        return rubric

    @field_validator("followups")
    @classmethod
    def _followups_unique(cls, followups: list[str], info: ValidationInfo):
        if info.data.get("id") in followups:
            raise ValueError("a question cannot be its own follow-up")
        return unique(followups, "followups")

    @model_validator(mode="after")
    def _no_tries(self):
        if self.tries is not None:
            raise ValueError("interview answers are judged once, against the rubric: remove `tries`")
        return self

    @field_validator("tests")
    @classmethod
    def _no_author_tests(cls, tests):
        if tests:
            raise ValueError("interview answers are self-graded against the rubric: remove `tests`")
        return tests

    def localized_fields(self) -> list[Localized]:
        return super().localized_fields() + [self.model_answer] + [p.text for p in self.rubric]


class OrderingStep(StrictModel):
    id: KebabId
    text: Localized


class OrderingQuestion(QuestionBase):
    type: Literal["ordering"]
    steps: Annotated[list[OrderingStep], Field(min_length=2)]  # in the correct order
    tests: list[IdsAnswerTest] = []

    @field_validator("steps")
    @classmethod
    def _step_ids_unique(cls, steps: list[OrderingStep]):
        unique([s.id for s in steps], "step ids")
        return steps

    @field_validator("tests")
    @classmethod
    def _tests_name_steps(cls, tests, info: ValidationInfo):
        steps = info.data.get("steps")
        return tests if steps is None else _known_ids(tests, [s.id for s in steps], "step")

    def localized_fields(self) -> list[Localized]:
        return super().localized_fields() + [s.text for s in self.steps]


class GeneratedQuestion(_MutationTested, QuestionBase):
    type: Literal["generated"]
    template: TemplateName
    asks: Annotated[list[Identifier], Field(min_length=1)]
    tolerance: Tolerance
    tests: list[GeneratedAnswerTest] = []

    @field_validator("asks")
    @classmethod
    def _asks_unique(cls, asks: list[str]):
        return unique(asks, "asks")

    @field_validator("tests")
    @classmethod
    def _tests_answer_asked(cls, tests: list[GeneratedAnswerTest], info: ValidationInfo):
        asks = info.data.get("asks")
        for k, test in enumerate(tests, start=1):
            extra = [name for name in test.answer if asks is not None and name not in asks]
            if extra or not test.answer:
                raise ValueError(
                    f"test #{k} must answer some of the asked names ({', '.join(asks or [])}); "
                    f"not asked: {', '.join(extra) or '-'}"
                )
        return tests


Question = Annotated[
    ChoiceQuestion
    | NumericQuestion
    | ExpressionQuestion
    | DerivationQuestion
    | InterviewQuestion
    | OrderingQuestion
    | GeneratedQuestion,
    Field(discriminator="type"),
]

QUESTION_CLASSES = {
    cls.model_fields["type"].annotation.__args__[0]: cls
    for cls in (
        ChoiceQuestion,
        NumericQuestion,
        ExpressionQuestion,
        DerivationQuestion,
        InterviewQuestion,
        OrderingQuestion,
        GeneratedQuestion,
    )
}


class BankFile(StrictModel):
    """One YAML file of the bank: `questions: [...]`."""

    questions: list[Question]
