"""Moments of declared random variables (issue 25): E[X], E(X), \\mathbb{E}[X], Var(X), D(X),
Cov(X, Y), read into `Moment` nodes.

The rule for E and D: they are operators only where the derivation declares random variables
(`random`), and only right before a bracket (`E[X]`, `E(X)`, `D(X)`); elsewhere, and in every
question without random variables, `E` and `D` are what they always were (a variable; `E(x)` is
E·x with a note, or a declared function). `Var`, `Cov` (also `\\operatorname{Var}`,
`\\mathrm{Cov}`) are words the grader knows only where random variables are declared. D(X) is
the variance, as Chinese textbooks write it (方差 D(X)).
"""

from __future__ import annotations

from ..errors import ParseError
from .names import MOMENT_WORDS
from .nodes import Moment, Node

# The word as written -> the moment it is: D(X) is Var(X) (Chinese textbooks' notation).
MOMENT_OPS = {"E": "E", "D": "Var", "Var": "Var", "Cov": "Cov"}
ARGUMENTS = {"E": 1, "Var": 1, "Cov": 2}
CLOSERS = {"(": ")", "[": "]"}


def starts_moment(parser, name: str) -> bool:
    """`E[`, `E(`, `Var(`, `D(`, `Cov(` where random variables are declared."""
    decls = parser.decls
    return bool(decls.random) and name in MOMENT_WORDS and name not in decls.functions \
        and name not in decls.random and parser.tok.kind == "op" and parser.tok.text in CLOSERS


def parse_moment(parser, t) -> Node:
    """The moment after its word `t` (the parser stands on its opening bracket)."""
    op = MOMENT_OPS[t.text]
    opener = parser.take()
    parser.space_mode.append(False)
    saved_abs, parser.abs_depth = parser.abs_depth, 0
    args = parser.parse_list()
    parser.abs_depth = saved_abs
    parser.space_mode.pop()
    parser.expect(CLOSERS[opener.text], opener)
    if len(args) != ARGUMENTS[op]:
        raise ParseError("moment_arguments", t.pos, name=t.text, count=ARGUMENTS[op])
    return parser.make(Moment(op, tuple(args)))
