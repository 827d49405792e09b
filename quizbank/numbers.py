"""Numeric answers (scalar, vector, matrix) and the tolerance rule used to compare them."""

import math
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainValidator, model_validator
from pydantic_core import PydanticCustomError

from .enums import ToleranceKind
from .strict import StrictModel, lax_enum

_SHAPE_HELP = "a number, a list of numbers (vector) or a list of equal-length lists (matrix)"


def _looks_numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


_YAML_EXPONENT_HINT = " (YAML reads 1e-3 as text: write 1.0e-3)"


def _finite_number(value: Any, where: str) -> float:
    # bool is an int in Python, but `true` is never a number an author meant.
    if isinstance(value, bool) or not isinstance(value, int | float):
        hint = _YAML_EXPONENT_HINT if isinstance(value, str) and _looks_numeric(value) else ""
        raise PydanticCustomError(
            "numeric_answer",
            "{where} must be a number, got {got}{hint}",
            {"where": where, "got": repr(value), "hint": hint},
        )
    if not math.isfinite(value):
        raise PydanticCustomError(
            "numeric_answer", "{where} must be finite, got {got}", {"where": where, "got": value}
        )
    return float(value)


def validate_numeric_answer(value: Any) -> float | list[float] | list[list[float]]:
    """One precise error instead of pydantic's three union-branch errors."""
    if not isinstance(value, list):
        if isinstance(value, str):
            hint = _YAML_EXPONENT_HINT if _looks_numeric(value) else " (remove the quotes)"
            raise PydanticCustomError(
                "numeric_answer", "must be " + _SHAPE_HELP + ", not text" + hint
            )
        return _finite_number(value, "the answer")
    if not value:
        raise PydanticCustomError("numeric_answer", "must not be an empty list")
    if all(not isinstance(row, list) for row in value):
        return [_finite_number(x, f"entry {i + 1}") for i, x in enumerate(value)]
    if not all(isinstance(row, list) for row in value):
        raise PydanticCustomError(
            "numeric_answer", "mixes numbers and rows: must be " + _SHAPE_HELP
        )
    width = len(value[0])
    if width == 0 or any(len(row) != width for row in value):
        widths = [len(row) for row in value]
        raise PydanticCustomError(
            "numeric_answer",
            "matrix is not rectangular (row lengths {widths})",
            {"widths": widths},
        )
    return [
        [_finite_number(x, f"entry ({i + 1}, {j + 1})") for j, x in enumerate(row)]
        for i, row in enumerate(value)
    ]


NumericAnswer = Annotated[
    Any,
    PlainValidator(
        validate_numeric_answer,
        json_schema_input_type=float | list[float] | list[list[float]],
    ),
]


def _number_only(value: Any) -> Any:
    # One clear message instead of one per branch of `int | float`.
    if isinstance(value, bool) or not isinstance(value, int | float):
        hint = _YAML_EXPONENT_HINT if isinstance(value, str) and _looks_numeric(value) else ""
        raise PydanticCustomError(
            "tolerance_value",
            "must be a number, got {got}{hint}",
            {"got": repr(value), "hint": hint},
        )
    if not math.isfinite(value):
        raise PydanticCustomError("tolerance_value", "must be finite, got {got}", {"got": value})
    return value


class Tolerance(StrictModel):
    """`relative`/`absolute`: a positive bound; `sigfigs`: how many significant figures must match."""

    kind: lax_enum(ToleranceKind)
    value: Annotated[int | float, BeforeValidator(_number_only)]

    @model_validator(mode="after")
    def _value_fits_kind(self):
        if self.kind is ToleranceKind.SIGFIGS:
            if not isinstance(self.value, int) or not 1 <= self.value <= 15:
                raise ValueError(
                    f"sigfigs tolerance needs a positive whole number of figures (1-15), "
                    f"got {self.value!r}"
                )
        elif not self.value > 0:
            raise ValueError(f"{self.kind.value} tolerance must be positive, got {self.value!r}")
        return self
