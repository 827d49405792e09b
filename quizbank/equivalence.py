"""Whether the grader treats two answers to one question as the same answer.

Used to group learners' wrong answers into classes (`tutor.answer_classes`): `first` is taken as
the key and `second` graded against it with the question's own declarations and tolerance, so
`W^T g + g` and `g + W^T g` are one class and `0.40` and `0.4` are one number. Mal-rules are
left out: they are what a class may become.
"""

from __future__ import annotations

from grader import check

from .grading import request_for
from .question_types import ExpressionQuestion, NumericQuestion, Question

COMPARABLE = (ExpressionQuestion, NumericQuestion)


def same_answer(question: Question, first: str, second: str) -> bool:
    """True when the grader, given `first` as the key, marks `second` correct."""
    if not isinstance(question, COMPARABLE):
        raise TypeError(f"{question.type} answers are not compared by the grader")
    request = request_for(question, second)
    request.update(expected=first, malrules=[])
    return check(request).correct
