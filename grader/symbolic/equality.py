"""The bounded symbolic fallback, used only where sampling cannot decide. Runs in the worker.

A soft time budget (SIGALRM) stops sympy politely; the worker's supervisor kills the whole
process if even that does not return (sympy can sit in C code that ignores the signal).
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

from ..errors import CannotDecide
from ..reading.nodes import Node
from ..values.domains import NO_DOMAINS, Domains

SOFT_BUDGET_S = 0.8


class _OutOfTime(Exception):
    pass


@contextmanager
def time_budget(seconds: float):
    if threading.current_thread() is not threading.main_thread():
        yield  # signals only work on the main thread; the supervisor's hard kill still applies
        return

    def _raise(signum, frame):
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def symbolic_equal(answer: Node, expected: Node, domains: Domains = NO_DOMAINS,
                   budget: float = SOFT_BUDGET_S) -> bool | None:
    """True if sympy proves a - b = 0; False if a - b simplifies to a nonzero number or a nonzero
    rational function (exact arithmetic); None otherwise. The names' declared domains are
    sympy's assumptions (positive, nonnegative, integer; real otherwise)."""
    import sympy

    from .build import declared, to_sympy

    try:
        with time_budget(budget):
            a, b = declared(to_sympy(answer), domains), declared(to_sympy(expected), domains)
            if isinstance(a, sympy.MatrixBase) or isinstance(b, sympy.MatrixBase):
                if not (isinstance(a, sympy.MatrixBase) and isinstance(b, sympy.MatrixBase)) \
                        or a.shape != b.shape:
                    return None
                diffs = list(a - b)
            else:
                diffs = [a - b]
            verdicts = [_zero(d) for d in diffs]
    except (_OutOfTime, CannotDecide, RecursionError, TypeError, ValueError, ZeroDivisionError,
            AttributeError, NotImplementedError, sympy.SympifyError):
        return None
    if all(v is True for v in verdicts):
        return True
    if any(v is False for v in verdicts):
        return False
    return None


def _zero(diff) -> bool | None:
    import sympy

    expanded = sympy.expand(diff.doit())
    if expanded == 0:
        return True
    if not expanded.is_commutative:
        return None
    simplified = sympy.simplify(expanded)
    if simplified == 0:
        return True
    if simplified.is_number and simplified.is_zero is False:
        return False
    # An exact nonzero rational function (numbers are exact rationals) is not identically 0.
    if simplified.free_symbols and simplified.is_rational_function(*simplified.free_symbols):
        return False
    return None
