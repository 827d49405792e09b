"""The question bank: pydantic models, a strict YAML loader with file:line errors, and a CLI."""

from .bank import Bank, SourceLocation
from .enums import (
    Difficulty,
    ExpectedVerdict,
    Lang,
    QuestionType,
    RubricKind,
    SourceText,
    ToleranceKind,
    Topic,
)
from .folders import BankFolders, configured_folders
from .live import BankCache, LiveBank, WithheldFile
from .loader import SHIPPED_BANK, load_bank, load_bank_folders
from .localized import Localized, LocalizedKeywords
from .parse import parse_bank
from .problems import BankError, Problem
from .question_types import (
    BankFile,
    ChoiceQuestion,
    DerivationQuestion,
    ExpressionQuestion,
    GeneratedQuestion,
    InterviewQuestion,
    NumericQuestion,
    OrderingQuestion,
    Question,
)

__all__ = [
    "Bank",
    "BankCache",
    "BankError",
    "BankFolders",
    "BankFile",
    "ChoiceQuestion",
    "DerivationQuestion",
    "Difficulty",
    "ExpectedVerdict",
    "ExpressionQuestion",
    "GeneratedQuestion",
    "InterviewQuestion",
    "Lang",
    "LiveBank",
    "Localized",
    "LocalizedKeywords",
    "NumericQuestion",
    "OrderingQuestion",
    "Problem",
    "Question",
    "QuestionType",
    "RubricKind",
    "SHIPPED_BANK",
    "SourceLocation",
    "SourceText",
    "ToleranceKind",
    "Topic",
    "WithheldFile",
    "configured_folders",
    "load_bank",
    "load_bank_folders",
    "parse_bank",
]
