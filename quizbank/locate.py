"""Turn pydantic error locations into `path:line: id: field: message` problems.

Lines come from the composed YAML node tree, and are looked up only when there is an error, so a
clean bank pays nothing for them.
"""

import difflib
from typing import Any

from pydantic import ValidationError
from yaml.nodes import MappingNode, Node, SequenceNode

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


def node_at(root: Node | None, parts: list[Part]) -> Node | None:
    """The deepest node along `parts` (stops at a missing key: its parent holds the line)."""
    node = root
    for part in parts:
        child = None
        if isinstance(node, MappingNode):
            child = next((v for k, v in node.value if k.value == part), None)
        elif isinstance(node, SequenceNode) and isinstance(part, int) and part < len(node.value):
            child = node.value[part]
        if child is None:
            break
        node = child
    return node


def line_at(root: Node | None, parts: list[Part]) -> int | None:
    node = node_at(root, parts)
    return None if node is None else node.start_mark.line + 1


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
    root: Node | None,
    path: str,
    question_id: str,
    allowed_fields: list[str],
) -> list[Problem]:
    """Problems for one question (`item` is its raw dict, `root` its node)."""
    problems = []
    for detail in error.errors(include_url=False):
        loc = tuple(detail["loc"])
        if detail["type"] in ("union_tag_invalid", "union_tag_not_found"):
            loc = ("type",)
        parts = data_parts(item, loc, detail["type"] in ("missing", "union_tag_not_found"))
        problems.append(
            Problem(
                path,
                _line(root, parts),
                question_id,
                field_name(parts),
                _message(detail, allowed_fields),
            )
        )
    return problems


def _line(root: Node | None, parts: list[Part]) -> int | None:
    return None if root is None else line_at(root, parts)
