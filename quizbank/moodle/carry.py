"""Fields Moodle has no place for, carried in the question's tags (`rt-` prefix).

Moodle keeps a question's tags through export and import, so our topic, difficulty, source, exact
tolerance, declarations and step ids survive a round trip through Moodle. A tag name is at most 50
characters in Moodle and commas separate tags in its editor, so values are joined with `|`.
"""

from __future__ import annotations

import json
import re

from ..question_types import DECLARATION_FIELDS

PREFIX = "rt-"
FIELDS = ("type", "topic", "difficulty", "source", "tolerance", "symbols", "functions",
          "matrices", "steps", "options")


def carried_tags(question) -> list[str]:
    """Our own tags first, then the carried fields (those that apply to the question)."""
    tags = list(question.tags)
    source = question.source
    tags += [f"{PREFIX}type:{question.type}", f"{PREFIX}topic:{question.topic.value}",
             f"{PREFIX}difficulty:{question.difficulty.value}",
             f"{PREFIX}source:{source.text.value}|{source.section}"]
    tolerance = getattr(question, "tolerance", None)
    if tolerance is not None:
        tags.append(f"{PREFIX}tolerance:{tolerance.kind.value}|{tolerance.value!r}")
    for name in ("symbols", "functions", "matrices"):
        names = getattr(question, name, None)
        if names:
            tags.append(f"{PREFIX}{name}:{'|'.join(names)}")
    if question.type == "ordering":
        tags.append(f"{PREFIX}steps:{'|'.join(s.id for s in question.steps)}")
    if question.type == "choice":
        tags.append(f"{PREFIX}options:{'|'.join(o.id for o in question.options)}")
    return tags


def read_tags(tags: list[str]) -> tuple[list[str], dict[str, str]]:
    """(our own tags, {carried field: raw value})."""
    own, carried = [], {}
    for tag in tags:
        name, _, value = tag.partition(":")
        if name.startswith(PREFIX) and name[len(PREFIX):] in FIELDS and value:
            carried[name[len(PREFIX):]] = value
        else:
            own.append(tag)
    return own, carried


# --- the comment block: fields too long for a tag ----------------------------------------------
#
# Author tests, accepted mutants, a question's own number of tries and the declarations beyond
# symbols, functions and matrices (integers, domains, families, relations, vectors, random
# variables) have no Moodle field and do not fit in a 50-character tag. They travel as JSON in an
# HTML comment at the end of the general feedback:
# `<!-- residual-tutor {"tests": [...], "accepted_mutants": [...], "tries": 2, "positive": ["n"]} -->`.
# Moodle stores the feedback's HTML as imported and its filters never show a comment to students;
# the import reads the block back (it is validated with the question like any other field). A
# comment may not hold `--`, so every `-` in the JSON is written as the escape `\u002d` (the block
# holds strings, lists and non-negative numbers only, so no `-` stands outside a string).

BLOCK_FIELDS = ("tests", "accepted_mutants", "tries", *DECLARATION_FIELDS[3:])
_BLOCK = re.compile(r"<!--\s*residual-tutor\s+(\{.*?\})\s*-->", re.S)


def carried_block(question) -> str:
    """The comment block for `question` ("" when it has none of the fields)."""
    data = question.model_dump(mode="json", include=set(BLOCK_FIELDS), exclude_defaults=True)
    if not data:
        return ""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("-", "\\u002d")
    return f"<!-- residual-tutor {text} -->"


def read_block(html: str) -> tuple[dict, str | None]:
    """(the block's fields, a problem or None): `{}` when the HTML holds no block."""
    match = _BLOCK.search(html or "")
    if match is None:
        return {}, None
    try:
        data = json.loads(match.group(1))
    except ValueError as error:
        return {}, str(error)
    if not isinstance(data, dict):
        return {}, "not a JSON object"
    unknown = sorted(set(data) - set(BLOCK_FIELDS))
    if unknown:
        return {}, "unknown fields: " + ", ".join(unknown)
    return data, None
