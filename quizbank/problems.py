"""One reportable problem in the bank, and the error that carries all of them at once."""

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int | None  # 1-based line of the offending value; None when parsing a plain dict
    question_id: str  # "-" when the problem is not inside a question
    field: str  # dotted path inside the question, e.g. "options[1].feedback"; "-" for the file
    message: str

    def __str__(self) -> str:
        """`path:line: question: field: message`, leaving out the parts that are not known
        ("broken.yaml:5: YAML syntax error", not "broken.yaml:5: -: -: YAML syntax error")."""
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        parts = [where, *(p for p in (self.question_id, self.field) if p != "-"), self.message]
        return ": ".join(parts)


class BankError(ValueError):
    """The bank (or one file of it) is invalid; `.problems` lists every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=_sort_key)
        count = len(self.problems)
        lines = "\n".join(str(p) for p in self.problems)
        super().__init__(
            f"{count} problem{'s' if count != 1 else ''} in the question bank:\n{lines}"
        )


def _sort_key(problem: Problem):
    return (problem.path, problem.line or 0, problem.question_id, problem.field, problem.message)
