"""Plain data (as read from YAML) -> validated questions, plus the checks across questions.

`parse_bank(dict)` needs no files; the loader feeds it documents read by `yaml_reader`, passing the
node tree so problems can name lines.
"""

from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError
from yaml.nodes import Node

from .bank import Bank, SourceLocation
from .locate import line_at, node_at, question_problems
from .problems import BankError, Problem
from .question_types import QUESTION_CLASSES, GeneratedQuestion, InterviewQuestion, Question
from .templates import known_templates

QUESTION_ADAPTER: TypeAdapter[Question] = TypeAdapter(Question)
_BASE_FIELDS = sorted({name for cls in QUESTION_CLASSES.values() for name in cls.model_fields})


@dataclass(frozen=True)
class ParsedQuestion:
    question: Question | None  # None when it did not validate
    raw_id: str  # its id as written (or "questions[i]" when it has none)
    path: str
    node: Node | None

    def line(self, *parts) -> int | None:
        return None if self.node is None else line_at(self.node, list(parts))


def _raw_id(item: Any, index: int) -> str:
    if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"].strip():
        return item["id"]
    return f"questions[{index}]"


def _allowed_fields(item: Any) -> list[str]:
    cls = QUESTION_CLASSES.get(item.get("type")) if isinstance(item, dict) else None
    return list(cls.model_fields) if cls else _BASE_FIELDS


def parse_document(data: Any, path: str, root: Node | None = None):
    """-> (parsed questions, problems) for one bank file's data."""
    if not isinstance(data, dict) or "questions" not in data:
        found = (
            type(data).__name__ if not isinstance(data, dict) else f"keys {sorted(map(str, data))}"
        )
        line = None if root is None else root.start_mark.line + 1
        return [], [
            Problem(
                path,
                line,
                "-",
                "questions",
                f"a bank file is a mapping with one key `questions`; found {found}",
            )
        ]
    problems = [
        Problem(path, line_at(root, [key]) if root else None, "-", str(key), "unknown field")
        for key in data
        if key != "questions"
    ]
    items = data["questions"]
    items_node = node_at(root, ["questions"]) if root else None
    if not isinstance(items, list):
        line = None if items_node is None else items_node.start_mark.line + 1
        return [], problems + [Problem(path, line, "-", "questions", "must be a list of questions")]
    parsed = []
    for index, item in enumerate(items):
        node = node_at(items_node, [index]) if items_node is not None else None
        raw_id = _raw_id(item, index)
        try:
            question = QUESTION_ADAPTER.validate_python(item)
        except ValidationError as error:
            question = None
            problems += question_problems(error, item, node, path, raw_id, _allowed_fields(item))
        parsed.append(ParsedQuestion(question, raw_id, path, node))
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
                templates, _ = known_templates()
            problems += _template_problems(p, q, templates)
    return problems


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
        locations={p.question.id: SourceLocation(p.path, p.line(), p.node) for p in parsed},
    )


def parse_bank(data: dict, *, path: str = "<dict>") -> Bank:
    """Validate one bank file's data (`{"questions": [...]}`); raises BankError with every problem."""
    parsed, problems = parse_document(data, path)
    return build_bank(parsed, problems)
