"""Plain data (as read from YAML) -> validated questions, plus the checks across questions.

`parse_bank(dict)` needs no files; the loader feeds it documents read by `yaml_reader`, passing
their `LineIndex` so problems can name lines.
"""

from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError

from .bank import Bank, SourceLocation
from .locate import question_problems
from .problems import BankError, Problem
from .question_types import QUESTION_CLASSES, GeneratedQuestion, InterviewQuestion, Question
from .yaml_reader import LineIndex

QUESTION_ADAPTER: TypeAdapter[Question] = TypeAdapter(Question)
_BASE_FIELDS = sorted({name for cls in QUESTION_CLASSES.values() for name in cls.model_fields})


@dataclass(frozen=True)
class ParsedQuestion:
    question: Question | None  # None when it did not validate
    raw_id: str  # its id as written (or "questions[i]" when it has none)
    path: str
    index: int  # position in its file's `questions` list
    lines: LineIndex | None  # None for data that came from a dict, not a file

    def line(self, *parts) -> int | None:
        return None if self.lines is None else self.lines.line_at(["questions", self.index, *parts])

    def location(self) -> SourceLocation:
        return SourceLocation(self.path, self.line(), self.lines, ("questions", self.index))


def _raw_id(item: Any, index: int) -> str:
    if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"].strip():
        return item["id"]
    return f"questions[{index}]"


def _allowed_fields(item: Any) -> list[str]:
    cls = QUESTION_CLASSES.get(item.get("type")) if isinstance(item, dict) else None
    return list(cls.model_fields) if cls else _BASE_FIELDS


def parse_document(data: Any, path: str, lines: LineIndex | None = None):
    """-> (parsed questions, problems) for one bank file's data."""

    def line_at(*parts) -> int | None:
        return None if lines is None else lines.line_at(list(parts))

    if not isinstance(data, dict) or "questions" not in data:
        found = (
            type(data).__name__ if not isinstance(data, dict) else f"keys {sorted(map(str, data))}"
        )
        message = f"a bank file is a mapping with one key `questions`; found {found}"
        return [], [Problem(path, line_at(), "-", "questions", message)]
    problems = [
        Problem(path, line_at(key), "-", str(key), "unknown field")
        for key in data
        if key != "questions"
    ]
    items = data["questions"]
    if not isinstance(items, list):
        message = "must be a list of questions"
        return [], problems + [Problem(path, line_at("questions"), "-", "questions", message)]
    parsed = []
    for index, item in enumerate(items):
        raw_id = _raw_id(item, index)
        try:
            question = QUESTION_ADAPTER.validate_python(item)
        except ValidationError as error:
            question = None

            def item_line(parts, index=index):
                return line_at("questions", index, *parts)

            allowed = _allowed_fields(item)
            problems += question_problems(error, item, item_line, path, raw_id, allowed)
        parsed.append(ParsedQuestion(question, raw_id, path, index, lines))
    return parsed, problems


def cross_check(parsed: list[ParsedQuestion]) -> list[Problem]:
    """Duplicate ids (reported at every place), follow-ups and templates that do not exist."""
    problems: list[Problem] = []
    places: dict[str, list[ParsedQuestion]] = {}
    for p in parsed:
        if not p.raw_id.startswith("questions["):
            places.setdefault(p.raw_id, []).append(p)
    for qid, where in places.items():
        if len(where) > 1:
            for p in where:
                others = ", ".join(f"{o.path}:{o.line('id') or '?'}" for o in where if o is not p)
                problems.append(
                    Problem(
                        p.path, p.line("id"), qid, "id", f"duplicate id; also defined at {others}"
                    )
                )
    templates = None
    for p in parsed:
        q = p.question
        if isinstance(q, InterviewQuestion):
            for k, followup in enumerate(q.followups):
                if followup not in places:
                    problems.append(
                        Problem(
                            p.path,
                            p.line("followups", k),
                            q.id,
                            f"followups[{k}]",
                            f"no question has id '{followup}'",
                        )
                    )
        elif isinstance(q, GeneratedQuestion):
            if templates is None:
                templates = template_answers()
            problems += _template_problems(p, q, templates)
    return problems


def template_answers() -> dict[str, frozenset[str]]:
    """Each compute template's answer names (listing them does not import torch)."""
    import compute

    return {t["name"]: frozenset(t["answers"]) for t in compute.list_templates()}


def _template_problems(p: ParsedQuestion, q: GeneratedQuestion, templates) -> list[Problem]:
    if q.template not in templates:
        return [
            Problem(
                p.path,
                p.line("template"),
                q.id,
                "template",
                f"unknown compute template '{q.template}' (known: {', '.join(sorted(templates))})",
            )
        ]
    answers = templates[q.template]
    return [
        Problem(
            p.path,
            p.line("asks", k),
            q.id,
            f"asks[{k}]",
            f"template '{q.template}' has no answer '{name}' "
            f"(it has: {', '.join(sorted(answers))})",
        )
        for k, name in enumerate(q.asks)
        if name not in answers
    ]


def build_bank(parsed: list[ParsedQuestion], problems: list[Problem]) -> Bank:
    problems = problems + cross_check(parsed)
    if problems:
        raise BankError(problems)
    return Bank(
        questions={p.question.id: p.question for p in parsed},
        locations={p.question.id: p.location() for p in parsed},
    )


def parse_bank(data: dict, *, path: str = "<dict>") -> Bank:
    """Validate one bank file's data (`{"questions": [...]}`); raises BankError with every problem."""
    parsed, problems = parse_document(data, path)
    return build_bank(parsed, problems)
