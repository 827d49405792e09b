"""The two errors callers of `compute` can act on: an unknown template and bad params."""

from __future__ import annotations


class TemplateError(ValueError):
    """The template name is not in the registry."""


class ParamsError(ValueError):
    """Params (or seed/difficulty) are unusable; `.problems` lists every bad field at once.

    Each problem is a `(field, message)` pair, e.g. `("W", "must be a 2x2 matrix")`.
    """

    def __init__(self, template: str, problems: list[tuple[str, str]]):
        self.template = template
        self.problems = list(problems)
        listed = "; ".join(f"{field}: {message}" for field, message in self.problems)
        super().__init__(f"bad params for {template}: {listed}")
