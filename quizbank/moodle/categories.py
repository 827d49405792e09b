"""Moodle's question categories <-> our tags.

In a Moodle XML file a `<question type="category">` sets the category of the questions after it,
as a path: `$course$/top/Course/Week 3`. On import the path becomes one tag, `category:` followed
by its segments slugified and joined by `/`: the context (`$course$`, `$system$`, `$module$`, …)
and Moodle's `top` are left out, each segment is lower-cased with every run of characters other
than letters and digits (any script) replaced by `-`, and Moodle's escaped slash `//` (a `/`
inside one name) counts as such a character. So `$course$/top/Course/Week 3` -> `category:course/
week-3`, and `$course$/深度学习/残差 连接` -> `category:深度学习/残差-连接`.

On export, questions with a `category:` tag are written under `$course$/top/<its segments>`, the
others under the export's default category, which the import does not turn into a tag (so our
own files import back to the same tags).
"""

from __future__ import annotations

import re

TAG_PREFIX = "category:"
DEFAULT_CATEGORY = "$course$/top/Residual Tutor"
_CONTEXT = re.compile(r"^\$[a-z0-9_]+\$$")


def _slug(segment: str) -> str:
    return re.sub(r"[\W_]+", "-", segment.lower()).strip("-")


def category_tag(path: str) -> str | None:
    """The tag for a Moodle category path, or None (the default category, or nothing left)."""
    path = path.strip()
    if not path or path == DEFAULT_CATEGORY:
        return None
    segments = path.replace("//", "\x00").split("/")
    if segments and _CONTEXT.match(segments[0].strip()):
        segments = segments[1:]
    if segments and segments[0].strip() == "top":
        segments = segments[1:]
    slugs = [s for s in (_slug(seg.replace("\x00", "/")) for seg in segments) if s]
    return TAG_PREFIX + "/".join(slugs) if slugs else None


def category_path(tags: list[str]) -> str:
    """The Moodle category a question with these tags is exported under."""
    for tag in tags:
        if tag.startswith(TAG_PREFIX) and tag[len(TAG_PREFIX):].strip("/"):
            return "$course$/top/" + tag[len(TAG_PREFIX):].strip("/")
    return DEFAULT_CATEGORY


def with_category(tags: list[str], tag: str | None) -> list[str]:
    """`tags` with the file's category as their category tag: an existing `category:` tag is
    replaced in place (the question was moved in Moodle), else the tag is added last."""
    if tag is None:
        return tags
    others = [t for t in tags if not t.startswith(TAG_PREFIX)]
    if len(others) == len(tags):
        return [*tags, tag]
    out, placed = [], False
    for t in tags:
        if not t.startswith(TAG_PREFIX):
            out.append(t)
        elif not placed:
            out.append(tag)
            placed = True
    return out
