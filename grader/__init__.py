"""Read learners' maths safely, decide equivalence fast, and give feedback that teaches.

Public API: `check(request) -> Result`, `preview(text, ...)`, `warm_up()`, `mutants(text, ...)`
(wrong answers derived from a key, for mutation tests of answer keys), and the result types
(`Result`, `Verdict`, `Step`, `StepStatus`, `Part`, `Counterexample`); command line:
`python -m grader check` (JSON Lines). See docs/contracts.md. Adapting a bank question to a
request is the bank's job (`quizbank.grading`): the grader knows nothing of questions.

Importing the package loads only the result types (`result.py`: no numpy, no parser). The
grading functions load the pipeline (numpy, the parser's tables) on first access, e.g. the first
`grader.check` or `from grader import check`: the app's first page needs `Verdict` long before
it grades anything (docs/server.md, "The first page").
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

from .result import Counterexample, Part, Result, Step, StepStatus, Verdict

if TYPE_CHECKING:
    from .api import check, preview, split_derivation, warm_up
    from .mutants import mutants

__all__ = ["Counterexample", "Part", "Result", "Step", "StepStatus", "Verdict", "check",
           "mutants", "preview", "split_derivation", "warm_up"]

_FROM_API = ("check", "preview", "split_derivation", "warm_up")


def __getattr__(name: str):
    """The grading functions, imported on first access (PEP 562) and then bound here."""
    if name in _FROM_API:
        from . import api

        value = getattr(api, name)
    elif name == "mutants":
        from .mutants import mutants as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """Importing the submodule `grader.mutants` (`import grader.mutants`, or the warm-up's
    `importlib.import_module`) sets the package's attribute `mutants` to that module; here it gets
    the function instead, so `grader.mutants` is the function whatever was imported first (as when
    this file imported it eagerly)."""

    def __setattr__(self, name: str, value) -> None:
        if name == "mutants" and isinstance(value, types.ModuleType):
            value = value.mutants
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
