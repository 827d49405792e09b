"""Typed errors: each carries a message key (see messages.py) and, for parse errors, a position."""

from __future__ import annotations


class GraderError(Exception):
    """Base: `key` names a message in messages.py, `params` fill its placeholders."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class ParseError(GraderError):
    """The text cannot be read; `pos` is an index into the normalized text."""

    def __init__(self, key: str, pos: int, **params: object) -> None:
        super().__init__(key, **params)
        self.pos = pos


class LimitError(ParseError):
    """The text breaks a containment limit (length, depth, size, exponent)."""


class EvalError(GraderError):
    """A readable expression that cannot be evaluated (shapes do not fit, matrix division, ...)."""


class CannotDecide(GraderError):
    """Sampling could not decide; the symbolic fallback may still."""
