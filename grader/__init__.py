"""Read learners' maths safely, decide equivalence fast, and give feedback that teaches.

Public API: `check(request) -> Result`, `preview(text, ...)`, `warm_up()`, `mutants(text, ...)`
(wrong answers derived from a key, for mutation tests of answer keys), and the result types
(`Result`, `Verdict`, `Step`, `StepStatus`, `Part`, `Counterexample`); command line:
`python -m grader check` (JSON Lines). See docs/contracts.md. Adapting a bank question to a
request is the bank's job (`quizbank.grading`): the grader knows nothing of questions.
"""

from .api import check, preview, warm_up
from .mutants import mutants
from .result import Counterexample, Part, Result, Step, StepStatus, Verdict

__all__ = ["Counterexample", "Part", "Result", "Step", "StepStatus", "Verdict", "check",
           "mutants", "preview", "warm_up"]
