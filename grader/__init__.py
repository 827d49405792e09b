"""Read learners' maths safely, decide equivalence fast, and give feedback that teaches.

Public API: `check(request)`, `preview(text, ...)`, `grade_question(question, answer, ...)`,
`warm_up()`;
command line: `python -m grader check` (JSON Lines). See docs/contracts.md.
"""

from .api import check, grade_question, preview, warm_up

__all__ = ["check", "grade_question", "preview", "warm_up"]
