"""Which code uses each UI string, read from the code's syntax trees (nothing is imported).

A string lives next to the code that uses it (tutor/i18n.py): in `tutor/locales` when the core
packages (tutor, grader, quizbank, compute) use it, in `app_pages/strings` when only the page layer
(`app_pages/`, `streamlit_app.py`) does. The test of where strings live (test_string_homes.py) and
the script that moves them (scripts/move_strings.py) both ask
this module.

Keys are passed around before they reach `t` (`PageSpec("common.nav.practice", …)`,
`note = "interview.submitted_at_zero"` then `tr(note)`, `labelled("practice.type.", …)` then
`t(f"{prefix}{v}")`), so every string in the code that reads as a key counts, not only `t`'s
first argument:

- a constant ``"<namespace>.<name>"`` names that key and the keys under it (a counting string's
  ``.one`` / ``.other`` forms, a nested group: ``tr_n("author.problems", n)``);
- a constant that ends in ``.`` or ``_`` (``"practice.type."``), or that starts a ``+``
  (``"practice.kind_" + kind``), is a prefix completed at run time: it names every key it starts;
- an f-string that starts ``<namespace>.`` (``f"derivation.{name}_label"``) names every key its
  text matches with each ``{…}`` standing for any text.

Only strings that begin with a namespace (the name of a strings file) are read as keys. A few
widget keys look like keys too (``"questions.query"``); they name no string and change nothing.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

CORE = ("tutor", "grader", "quizbank", "compute")
PAGES = ("app_pages", "streamlit_app.py")
LAYERS = {"core": CORE, "pages": PAGES}
# Where each layer keeps its strings, relative to the repository's root.
HOMES = {"core": Path("tutor/locales"), "pages": Path("app_pages/strings")}


@dataclass(frozen=True)
class KeyUse:
    """One place in the code that names keys: its file (relative), line, layer and what it says."""

    file: str
    line: int
    layer: str
    written: str  # the constant, or the f-string with {…} for its fields
    pattern: re.Pattern

    @property
    def namespace(self) -> str:
        return self.written.removeprefix("f'").split(".", 1)[0]

    def names(self, key: str) -> bool:
        return key.startswith(self.namespace + ".") and self.pattern.fullmatch(key) is not None

    def __str__(self) -> str:
        return f"{self.file}:{self.line} {self.written!r}"


def layer_files(root: Path, layer: str) -> list[Path]:
    """The Python files of one layer (`core` or `pages`)."""
    files = []
    for part in LAYERS[layer]:
        path = root / part
        files.extend([path] if path.suffix == ".py" else sorted(path.rglob("*.py")))
    return [f for f in files if f.is_file()]


def key_uses(root: Path, namespaces) -> list[KeyUse]:
    """Every place in the core and page code that names keys of these namespaces."""
    names = "|".join(map(re.escape, sorted(namespaces)))
    starts = re.compile(rf"(?:{names})\.")
    quoted = re.compile(rf"[\"'](?:{names})\.")  # a file without one names no key: not parsed
    uses = []
    for layer in LAYERS:
        for path in layer_files(root, layer):
            relative, source = path.relative_to(root).as_posix(), path.read_text(encoding="utf-8")
            if not quoted.search(source):
                continue
            tree = ast.parse(source, filename=relative)
            uses.extend(KeyUse(relative, line, layer, written, pattern)
                        for line, written, pattern in _named_in(tree, starts))
    return uses


def _named_in(tree: ast.AST, starts: re.Pattern):
    inside_fstrings = set()
    prefixes = set()  # constants on the left of a `+`
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            inside_fstrings.update(id(v) for v in node.values)
            first = node.values[0] if node.values else None
            if isinstance(first, ast.Constant) and starts.match(first.value):
                written = "".join(v.value if isinstance(v, ast.Constant) else "{…}"
                                  for v in node.values)
                regex = "".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".+"
                                for v in node.values)
                yield node.lineno, "f" + repr(written), re.compile(regex + r"(?:\..+)?")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) \
                and isinstance(node.left, ast.Constant):
            prefixes.add(id(node.left))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in inside_fstrings and starts.match(node.value)
                and re.fullmatch(r"[\w.]+", node.value)):
            text = node.value
            if text.endswith((".", "_")) or id(node) in prefixes:
                yield node.lineno, text, re.compile(re.escape(text) + ".+")
            else:
                yield node.lineno, text, re.compile(re.escape(text) + r"(?:\..+)?")


def users(key: str, uses) -> list[KeyUse]:
    """The uses that name `key`."""
    return [use for use in uses if use.names(key)]


def home(key: str, uses) -> str | None:
    """The layer whose strings directory `key` belongs in: `core` if any core code names it (the
    pages read core strings too), else `pages` if page code does; None if no code names it."""
    layers = {use.layer for use in users(key, uses)}
    if "core" in layers:
        return "core"
    return "pages" if "pages" in layers else None
