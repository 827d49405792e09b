"""Variables only meaningful when positive, and not declared so: a warning for the author.

The grader compares formulas over the declared domain of their variables (grader/README.md,
"Declared domains and the one real-domain rule"): a variable not declared `positive` takes
negative values too, so a learner who writes `\\sqrt{\\sigma^2}` for `\\sigma` or
`\\ln(n^2)` for `2\\ln n` is marked wrong there. A question about variances, widths, depths,
learning rates or standard deviations should declare them `positive`. `quizbank validate`
warns (with `file:line`) where a real variable (declared in `symbols`) is, by rule:

1. **Named as a positive quantity**: its name is one of POSITIVE_NAMES (`sigma`, `eta`, `lr`,
   `eps`, `n`, `d`, `L`, `fan_in`, …) or starts with one of POSITIVE_PREFIXES followed by `_`
   (`var_x`, `sigma_w`, `n_in`, `d_model`): standard deviations, variances, learning rates,
   the epsilon of a normalization, widths, fan-in and fan-out, depths.
2. **Used as one**: in the question's expected formula (its `answer`, or a derivation's
   `start` and `target`) the variable is, to an odd power, a factor of the whole argument of a
   square root or a logarithm (`\\sqrt{2/n}`, `\\log(d)`, `\\sqrt{n_{in} \\sigma^2}`): that
   formula is real only where the variable is positive.

Integer names (`integers`) are counts and indices: a sum's bound may be 0 (an empty sum), so
they are not warned about; a question may still declare a depth or width `positive` (1..9).
"""

from __future__ import annotations

from dataclasses import dataclass

from .bank import Bank

POSITIVE_NAMES = frozenset((
    "sigma", "var", "eta", "lr", "eps", "epsilon", "n", "d", "L", "width", "depth",
    "fan_in", "fan_out", "n_in", "n_out", "d_model", "d_k", "d_ff",
))
POSITIVE_PREFIXES = ("sigma", "var", "n", "d", "fan")
# the functions whose argument must be positive for a real value
POSITIVE_ARGUMENT = ("sqrt", "log")


@dataclass(frozen=True, order=True)
class UndeclaredPositive:
    """A warning: `name` in question `question_id` is only meaningful when positive (`why`)
    and is not declared `positive`."""

    path: str
    line: int | None
    question_id: str
    name: str
    reason: str  # "named" (rule 1) or "root_or_log" (rule 2): the Author page words it per language

    @property
    def field(self) -> str:
        return "symbols"

    @property
    def why(self) -> str:
        if self.reason == "named":
            return "is named as a positive quantity (a width, depth, variance, rate or σ)"
        return "is under a square root or a logarithm in the expected formula"

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return (f"{where}: {self.question_id}: {self.name} {self.why}, so it is only "
                f"meaningful when positive; declare `positive: [{self.name}]` (or "
                f"`nonnegative`) so that the grader does not sample negative values")


def named_positive(name: str) -> bool:
    """Rule 1: a name of a positive quantity (`sigma`, `var_x`, `n_in`)."""
    if name in POSITIVE_NAMES:
        return True
    head, sep, _ = name.partition("_")
    return bool(sep) and head in POSITIVE_PREFIXES


def used_as_positive(formulas: list[str], symbols: list[str], functions: list[str],
                     matrices: list[str]) -> set[str]:
    """Rule 2: the names that are, to an odd power, a factor of the whole argument of a square
    root or a logarithm in one of `formulas` (formulas the grader cannot read are skipped:
    `quizbank test` reports those)."""
    from grader.errors import GraderError
    from grader.reading.names import Declarations
    from grader.reading.nodes import Func, walk
    from grader.reading.parser import parse

    decls = Declarations.of(symbols, functions, matrices)
    found: set[str] = set()
    for text in formulas:
        try:
            tree, _ = parse(text, decls)
        except GraderError:
            continue
        for node in walk(tree):
            if type(node) is Func and node.name in POSITIVE_ARGUMENT:
                found |= {name for name, odd in _factor_powers(node.arg).items() if odd}
    return found & set(symbols)


def _factor_powers(node) -> dict[str, bool]:
    """name -> whether it is a factor to an odd whole power of a product or quotient `node`
    (numbers aside); {} for anything that is not such a product (a sum: `\\sqrt{1 + x^2}`)."""
    from grader.reading.nodes import Div, Mul, Num, Pow, Sym

    if type(node) is Sym:
        return {node.name: True}
    if type(node) is Num:
        return {}
    if type(node) is Pow and type(node.base) is Sym and type(node.exp) is Num \
            and float(node.exp.value).is_integer():
        return {node.base.name: int(node.exp.value) % 2 == 1}
    if type(node) in (Mul, Div):
        parts = node.factors if type(node) is Mul else (node.num, node.den)
        powers: dict[str, bool] = {}
        for part in parts:
            inner = _factor_powers(part)
            if not inner and type(part) is not Num:
                return {}
            for name, odd in inner.items():
                powers[name] = powers.get(name, False) != odd
        return powers
    return {}


def question_positive_warnings(question, path: str, line_of) -> list[UndeclaredPositive]:
    """The warnings of one expression or derivation question; `line_of(parts)` finds a
    field's line in `path`."""
    symbols = list(getattr(question, "symbols", []) or [])
    if not symbols:
        return []
    declared = set(question.positive) | set(question.nonnegative)
    formulas = [getattr(question, field) for field in ("answer", "start", "target")
                if isinstance(getattr(question, field, None), str)]
    used = used_as_positive(formulas, symbols, list(question.functions),
                            list(question.matrices))
    warnings = []
    for name in symbols:
        if name in declared:
            continue
        if named_positive(name):
            reason = "named"
        elif name in used:
            reason = "root_or_log"
        else:
            continue
        warnings.append(UndeclaredPositive(path, line_of(("symbols",)), question.id, name,
                                           reason))
    return warnings


def bank_positive_warnings(bank: Bank) -> list[UndeclaredPositive]:
    """Every variable of the bank only meaningful when positive and not declared so."""
    found = []
    for question in bank:
        location = bank.location(question.id)
        found += question_positive_warnings(question, location.path,
                                            lambda parts, at=location: at.line_of(*parts))
    return found
