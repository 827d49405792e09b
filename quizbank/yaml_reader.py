"""Read one bank file as plain data, refusing everything beyond plain YAML.

The file must be UTF-8 and at most MAX_FILE_BYTES. YAML tags (`!!python/...`, any `!tag`), anchors,
aliases, merge keys and duplicate keys are refused. Data is built straight from the parser's events
(never through `yaml.load` or a constructor that honours tags), so nothing but
str/int/float/bool/null/date/list/dict is ever made and an alias is never expanded. While building,
the line of every value is noted in a `LineIndex`, so a later validation error can name the line of
the offending value; that costs one list append per value, far less than keeping a node tree.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from .problems import Problem

try:  # libyaml's parser is several times faster; fall back to the pure-Python one without it
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml.parser import Parser as _PyParser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, _PyParser):
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            _PyParser.__init__(self)


MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 40  # bank files nest about 6 deep; this stops nesting bombs long before recursion would
MAX_REPORTED = 20  # forbidden constructs reported per file (an alias bomb has thousands)

_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_PLAIN_TYPES = {  # implicit tags of plain scalars that become values; anything else is refused
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:timestamp",
}
_RESOLVER = Resolver()
_CONSTRUCTOR = SafeConstructor()


@dataclass
class LineIndex:
    """1-based line of every value in `data`, found by the same path pydantic reports."""

    data: Any
    root_line: int
    children: dict[int, Any] = field(default_factory=dict)  # id(container) -> {key|index: line}

    def line_at(self, parts) -> int:
        """The line of the value at `parts`; where a part is missing, the line of its parent."""
        current, line = self.data, self.root_line
        for part in parts:
            lines = self.children.get(id(current))
            if isinstance(current, dict) and part in current:
                current, line = current[part], lines[part]
            elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
                current, line = current[part], lines[part]
            else:
                break
        return line


@dataclass(frozen=True)
class YamlDocument:
    path: str
    data: Any
    lines: LineIndex


class _TooManyProblems(Exception):
    pass


class _NoKey:
    """Marks a mapping frame that waits for a key."""


class _DataBuilder:
    """Turns parser events into plain data, noting lines and refusing what plain YAML lacks."""

    def __init__(self):
        self.problems: list[tuple[int, str]] = []
        self.stack: list[list] = []  # [container, child lines, pending key (mappings)]
        self.index: LineIndex | None = None
        self.documents = 0
        self.plain_cache: dict[str, Any] = {}

    def refuse(self, line: int, message: str) -> None:
        self.problems.append((line, message))
        if len(self.problems) >= MAX_REPORTED:
            raise _TooManyProblems

    def check_plain(self, event, line: int) -> None:
        if event.anchor is not None:
            self.refuse(line, f"anchors are not allowed (&{event.anchor})")
        if event.tag is not None:
            shown = event.tag.replace("tag:yaml.org,2002:", "!!")
            self.refuse(line, f"YAML tags are not allowed ({shown}); write plain values")

    def scalar(self, event, line: int) -> Any:
        value = event.value
        if event.style or not event.implicit[0]:  # the C parser says '' for plain, Python None
            return value  # quoted or block text
        # Keys and enum words repeat all through a bank: resolve each plain word once per file.
        if value in self.plain_cache:
            return self.plain_cache[value]
        tag = _RESOLVER.resolve(ScalarNode, value, event.implicit)
        if tag == _STR_TAG:
            result = value
        elif tag == _MERGE_TAG:
            self.refuse(line, "merge keys (<<) are not allowed")
            return value
        elif tag not in _PLAIN_TYPES:
            self.refuse(line, f"'{value}' is not a plain value; quote it")
            return value
        else:
            try:
                result = _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, ScalarNode(tag, value))
            except (ValueError, OverflowError, yaml.YAMLError):
                kind = tag.rsplit(":", 1)[-1]
                self.refuse(line, f"'{value}' cannot be read as a {kind}; quote it")
                return value
        self.plain_cache[value] = result  # only immutable values: str, int, float, bool, None, date
        return result

    def attach(self, value: Any, line: int) -> None:
        if not self.stack:
            self.index = LineIndex(value, line)
            return
        frame = self.stack[-1]
        container, lines = frame[0], frame[1]
        if type(container) is list:
            container.append(value)
            lines.append(line)
        elif frame[2] is _NoKey:  # this value is a key
            if isinstance(value, list | dict):
                self.refuse(line, "a mapping key must be a plain value")
                value = f"<key at line {line}>"
            elif value in container:
                self.refuse(line, f"duplicate key '{value}' in one mapping")
            frame[2] = value
        else:
            container[frame[2]] = value
            lines[frame[2]] = line
            frame[2] = _NoKey

    def open(self, container, event, line: int) -> None:
        self.check_plain(event, line)
        if len(self.stack) >= MAX_DEPTH:
            raise yaml.MarkedYAMLError(
                problem=f"nesting deeper than {MAX_DEPTH} levels", problem_mark=event.start_mark
            )
        self.attach(container, line)
        child_lines: Any = [] if isinstance(container, list) else {}
        self.index.children[id(container)] = child_lines
        self.stack.append([container, child_lines, _NoKey])

    def feed(self, event) -> None:
        line = event.start_mark.line + 1
        kind = type(event)
        if kind is yaml.ScalarEvent:  # most events: checked first
            if event.anchor is not None or event.tag is not None:
                self.check_plain(event, line)
            self.attach(self.scalar(event, line), line)
        elif kind is yaml.MappingStartEvent:
            self.open({}, event, line)
        elif kind is yaml.SequenceStartEvent:
            self.open([], event, line)
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            self.stack.pop()
        elif kind is yaml.AliasEvent:
            self.refuse(line, f"aliases are not allowed (*{event.anchor}); repeat the value")
            self.attach(None, line)  # never expanded
        elif kind is yaml.DocumentStartEvent:
            self.documents += 1
            if self.documents > 1:
                self.refuse(line, "one YAML document per file (found a second `---`)")


def _syntax_error(error: yaml.MarkedYAMLError, text: str) -> tuple[int, str]:
    """(line, message): where the parser stopped, and where the construct it was in began."""
    mark = error.problem_mark or error.context_mark
    last_line = max(1, len(text.splitlines()))
    # At the end of the stream the parser points one line past the text: name the last line.
    line = min(mark.line + 1, last_line) if mark is not None else 1
    message = f"YAML syntax error: {error.problem or error.context}"
    context_mark = error.context_mark
    if error.context and error.problem and context_mark and context_mark.line + 1 < line:
        construct = error.context.removeprefix("while parsing ").removeprefix("while scanning ")
        construct = construct.removeprefix("a ").removeprefix("an ")
        message += f" (in the {construct} that starts at line {context_mark.line + 1})"
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
            message = f"file is {size} bytes; the limit is {MAX_FILE_BYTES}"
            return None, [_file_problem(shown, 1, message)]
        raw = path.read_bytes()
    except OSError as error:
        return None, [_file_problem(shown, 1, f"cannot read file: {error.strerror or error}")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        message = (
            f"not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start}); "
            "save the file as UTF-8"
        )
        return None, [_file_problem(shown, line, message)]
    return parse_yaml_text(text, shown)


def parse_yaml_text(text: str, path: str = "<text>") -> tuple[YamlDocument | None, list[Problem]]:
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as error:
        line = text[: error.start].count("\n") + 1
        return None, [_file_problem(path, line, "text holds a character that is not valid Unicode")]
    if size > MAX_FILE_BYTES:
        return None, [_file_problem(path, 1, f"text is larger than {MAX_FILE_BYTES} bytes")]
    builder = _DataBuilder()
    try:
        parser = _Parser(text)
        event = parser.get_event()
        while event is not None:
            builder.feed(event)
            event = parser.get_event()
    except _TooManyProblems:
        pass
    except yaml.MarkedYAMLError as error:
        return None, [_file_problem(path, *_syntax_error(error, text))]
    except yaml.YAMLError as error:  # reader errors (control characters) carry a position only
        position = getattr(error, "position", 0) or 0
        line = text[:position].count("\n") + 1
        character = getattr(error, "character", None)
        reason = getattr(error, "reason", None) or "unreadable text"
        what = f"character #x{character:04x}: " if isinstance(character, int) else ""
        return None, [_file_problem(path, line, f"YAML error: {what}{reason}")]
    if builder.problems:
        return None, [_file_problem(path, line, message) for line, message in builder.problems]
    if builder.index is None or builder.index.data is None:
        return None, [_file_problem(path, 1, "file is empty; a bank file is `questions: [...]`")]
    return YamlDocument(path, builder.index.data, builder.index), []
