"""Read one bank file as plain data, refusing everything beyond plain YAML.

The file must be UTF-8 and at most MAX_FILE_BYTES; YAML tags (`!!python/...`, any `!tag`), anchors,
aliases and merge keys are refused, so nothing but str/int/float/bool/null/list/dict is ever built
and an alias bomb is never expanded. The composed node tree (with line marks) is kept, so that a
validation error can later be pointed at the line of the offending value.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode
from yaml.resolver import Resolver

from .problems import Problem

try:  # libyaml's parser is ~10x faster; fall back to the pure-Python one where it is missing
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml.parser import Parser as _FallbackParser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, _FallbackParser):
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            _FallbackParser.__init__(self)


MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 40  # bank files nest about 6 deep; this stops recursion bombs long before Python would
MAX_REPORTED = 20  # forbidden constructs reported per file (an alias bomb has thousands)
_NULL_TAG = "tag:yaml.org,2002:null"
_MERGE_TAG = "tag:yaml.org,2002:merge"


@dataclass(frozen=True)
class YamlDocument:
    path: str
    data: Any
    root: Node | None  # the composed tree with marks, for mapping errors to lines


class _ForbiddenConstruct(Exception):
    pass


class _StrictComposer(Composer):
    """PyYAML's composer, driven by the C parser's events, that refuses tags/anchors/aliases."""

    def __init__(self):
        super().__init__()
        self.forbidden: list[tuple[int, str]] = []
        self._depth = 0

    def _refuse(self, event, message: str) -> None:
        self.forbidden.append((event.start_mark.line + 1, message))
        if len(self.forbidden) >= MAX_REPORTED:
            raise _ForbiddenConstruct

    def compose_node(self, parent, index):
        event = self.peek_event()
        if self.check_event(yaml.AliasEvent):
            self.get_event()
            self._refuse(event, f"aliases are not allowed (*{event.anchor}); repeat the value")
            # Never expand it: stand in a null so composing can go on and report the rest.
            return ScalarNode(_NULL_TAG, "", event.start_mark, event.end_mark)
        if event.anchor is not None:
            self._refuse(event, f"anchors are not allowed (&{event.anchor})")
        tag = getattr(event, "tag", None)
        if tag is not None:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            self._refuse(event, f"YAML tags are not allowed ({shown}); write plain values")
            event.tag = None  # compose it as the plain value it would be without the tag
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.MarkedYAMLError(
                    problem=f"nesting deeper than {MAX_DEPTH} levels", problem_mark=event.start_mark
                )
            return super().compose_node(parent, None)
        finally:
            self._depth -= 1

    def compose_mapping_node(self, anchor):
        node = super().compose_mapping_node(None)
        seen: set[str] = set()
        for key, _ in node.value:
            if key.tag == _MERGE_TAG:
                self.forbidden.append((key.start_mark.line + 1, "merge keys (<<) are not allowed"))
            elif isinstance(key, ScalarNode):
                if key.value in seen:
                    self.forbidden.append(
                        (key.start_mark.line + 1, f"duplicate key '{key.value}' in one mapping")
                    )
                seen.add(key.value)
        return node


class _StrictLoader(_StrictComposer, _Parser, SafeConstructor, Resolver):
    def __init__(self, text: str):
        _Parser.__init__(self, text)
        _StrictComposer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)


def _syntax_error(error: yaml.MarkedYAMLError, text: str) -> tuple[int, str]:
    """(line, message): the line where the parser stopped, and where the construct it was in began."""
    mark = error.problem_mark or error.context_mark
    last_line = max(1, len(text.splitlines()))
    # At the end of the stream the parser points one line past the text: name the last line.
    line = min(mark.line + 1, last_line) if mark is not None else 1
    message = f"YAML syntax error: {error.problem or error.context}"
    if error.context and error.problem and error.context_mark is not None:
        construct = error.context.removeprefix("while parsing ").removeprefix("while scanning ")
        construct = construct.removeprefix("a ").removeprefix("an ")
        message += f" (in the {construct} that starts at line {error.context_mark.line + 1})"
    return line, message


def _file_problem(path: str, line: int, message: str) -> Problem:
    return Problem(path, line, "-", "-", message)


def read_yaml_file(
    path: Path | str, shown_as: str | None = None
) -> tuple[YamlDocument | None, list[Problem]]:
    """Read and parse one file; either a document or the problems that stop it."""
    shown = shown_as or str(path)
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, [
                _file_problem(shown, 1, f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")
            ]
        raw = path.read_bytes()
    except OSError as error:
        return None, [_file_problem(shown, 1, f"cannot read file: {error.strerror or error}")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        return None, [
            _file_problem(
                shown,
                line,
                f"not UTF-8 text (byte 0x{raw[error.start]:02x} "
                f"at offset {error.start}); save the file as UTF-8",
            )
        ]
    return parse_yaml_text(text, shown)


def parse_yaml_text(text: str, path: str = "<text>") -> tuple[YamlDocument | None, list[Problem]]:
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as error:
        line = text[: error.start].count("\n") + 1
        return None, [_file_problem(path, line, "text holds a character that is not valid Unicode")]
    if size > MAX_FILE_BYTES:
        return None, [_file_problem(path, 1, f"text is larger than {MAX_FILE_BYTES} bytes")]
    try:
        loader = _StrictLoader(text)
        root = loader.get_single_node()
    except _ForbiddenConstruct:
        root = None
    except yaml.MarkedYAMLError as error:
        return None, [_file_problem(path, *_syntax_error(error, text))]
    except yaml.YAMLError as error:  # reader errors (control characters) carry a position only
        position = getattr(error, "position", 0) or 0
        line = text[:position].count("\n") + 1
        character = getattr(error, "character", None)
        reason = getattr(error, "reason", None) or "unreadable text"
        what = f"character #x{character:04x}: " if isinstance(character, int) else ""
        return None, [_file_problem(path, line, f"YAML error: {what}{reason}")]
    except RecursionError:
        return None, [_file_problem(path, 1, "nesting too deep")]
    if loader.forbidden:
        return None, [_file_problem(path, line, msg) for line, msg in loader.forbidden]
    if root is None:
        return None, [_file_problem(path, 1, "file is empty; a bank file is `questions: [...]`")]
    # Every node is now a plain scalar, sequence or mapping with a standard tag.
    try:
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else 1
        return None, [_file_problem(path, line, f"YAML value error: {error.problem}")]
    return YamlDocument(path, data, root), []


def is_mapping(node: Node | None) -> bool:
    return isinstance(node, MappingNode)
