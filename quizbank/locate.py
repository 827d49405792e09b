"""Turn pydantic error locations into `path:line: id: field: message` problems.

Lines come from the reader's `LineIndex` and are looked up only when there is an error.
"""

import difflib
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from .problems import Problem

Part = str | int


def data_parts(data: Any, loc: tuple, names_missing_field: bool) -> list[Part]:
    """The parts of `loc` that exist in the data; pydantic adds steps of its own (the union tag,
    a union branch name) that have no place in the file."""
    parts: list[Part] = []
    current = data
    for k, part in enumerate(loc):
        if isinstance(current, dict) and part in current:
            current = current[part]
        elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
            current = current[part]
        elif names_missing_field and k == len(loc) - 1:
            pass  # the missing key itself: named in the field, but it has no line of its own
        else:
            continue
        parts.append(part)
    return parts


def field_name(parts: list[Part]) -> str:
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).lstrip(".")
    return text or "-"


def _message(error: dict, allowed_fields: list[str]) -> str:
    kind = error["type"]
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        name = str(error["loc"][-1])
        close = difflib.get_close_matches(name, allowed_fields, n=1)
        return "unknown field" + (f" (did you mean '{close[0]}'?)" if close else "")
    if kind == "union_tag_invalid":
        ctx = error["ctx"]
        return f"unknown question type '{ctx['tag']}' (expected one of: {ctx['expected_tags']})"
    if kind in ("model_attributes_type", "dict_type") and not error["loc"]:
        return "a question is a mapping of fields (id: …, type: …), not a single value"
    if kind == "union_tag_not_found":
        return "required field is missing (the question type)"
    message = error["msg"]
    message = message.removeprefix("Value error, ")
    if kind == "string_type" and "answer" in error["loc"]:
        message += " (a learner's answer is text: quote it)"
    if (
        message[:1].isupper() and message[1:2].islower()
    ):  # pydantic's "Input should …", not a name like "W already …"
        message = message[:1].lower() + message[1:]
    return message


def question_problems(
    error: ValidationError,
    item: Any,
    line_at: Callable[[list[Part]], int | None],
    path: str,
    question_id: str,
    allowed_fields: list[str],
) -> list[Problem]:
    """Problems for one question (`item` is its raw dict; `line_at(parts)` finds lines in it)."""
    problems = []
    for detail in error.errors(include_url=False):
        loc = tuple(detail["loc"])
        if detail["type"] in ("union_tag_invalid", "union_tag_not_found"):
            loc = ("type",)
        parts = data_parts(item, loc, detail["type"] in ("missing", "union_tag_not_found"))
        problems.append(
            Problem(
                path,
                line_at(parts),
                question_id,
                field_name(parts),
                # "did you mean" only for a question's own fields, where the list is right
                _message(detail, allowed_fields if len(parts) == 1 else []),
            )
        )
    return problems
