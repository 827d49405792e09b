"""Closed sets of the bank format (docs/contracts.md). Values are what authors write in YAML."""

from enum import StrEnum


class QuestionType(StrEnum):
    CHOICE = "choice"
    NUMERIC = "numeric"
    EXPRESSION = "expression"
    DERIVATION = "derivation"
    INTERVIEW = "interview"
    ORDERING = "ordering"
    GENERATED = "generated"


class Topic(StrEnum):
    RESIDUAL_BASICS = "residual-basics"
    IDENTITY_MAPPING = "identity-mapping"
    GRADIENT_FLOW = "gradient-flow"
    JACOBIAN = "jacobian"
    WORKED_EXAMPLE = "worked-example"
    TRANSFORMER_NORM = "transformer-norm"
    SHAPES_PROJECTION = "shapes-projection"
    SCALING_STABILITY = "scaling-stability"
    DROPOUT = "dropout"
    VARIANCE = "variance"
    ENSEMBLE_VIEW = "ensemble-view"
    LSTM = "lstm"
    ARCHITECTURE = "architecture"
    NUMERICS = "numerics"
    MISCONCEPTIONS = "misconceptions"
    IMPLEMENTATION = "implementation"
    NORMALIZATION = "normalization"
    INITIALIZATION = "initialization"


class Difficulty(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class SourceText(StrEnum):
    """The three seed texts: 000, 001 and 002 in shared/seeds/."""

    GRADIENT_PROPAGATION = "gradient-propagation"
    RESIDUAL_CONNECTION = "residual-connection"
    WHY_RESIDUAL_WORKS = "why-residual-works"


class ToleranceKind(StrEnum):
    RELATIVE = "relative"
    ABSOLUTE = "absolute"
    SIGFIGS = "sigfigs"


class RubricKind(StrEnum):
    REQUIRED = "required"
    BONUS = "bonus"
    MISCONCEPTION = "misconception"


class ExpectedVerdict(StrEnum):
    """What an author test expects the grader to say about a sample answer: one of
    `grader.Verdict`'s words (a test checks they are), partial credit written `wrong`. Its own
    enum because loading the bank must not import the grader."""

    CORRECT = "correct"
    WRONG = "wrong"
    UNREADABLE = "unreadable"  # the grader cannot read it (it returns an `error`)


class Lang(StrEnum):
    ZH = "zh"
    EN = "en"
