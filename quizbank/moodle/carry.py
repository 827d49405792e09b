"""Fields Moodle has no place for, carried in the question's tags (`rt-` prefix).

Moodle keeps a question's tags through export and import, so our topic, difficulty, source, exact
tolerance, declarations and step ids survive a round trip through Moodle. A tag name is at most 50
characters in Moodle and commas separate tags in its editor, so values are joined with `|`.
"""

from __future__ import annotations

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
