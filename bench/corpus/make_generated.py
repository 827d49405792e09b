"""Build generated.jsonl: learners' numeric answers to compute's problems, with verdicts that owe
nothing to the grader. Run: .venv/bin/python bench/corpus/make_generated.py

answers.jsonl was written alongside the grader, so grading it right is not an independent measure.
Here the expected values come from compute (torch, float64), the learner's text is written by the
formatting below (no grader code), and each verdict is exact decimal arithmetic on what that text
says against the exact expected value, under the tolerance the product grades that answer with.
A rewrite too close to the tolerance's edge to call safely (within a factor 2 of the bound, or
on a rounding tie for significant figures) is left out rather than guessed.

Every line is a `python -m grader check` request (built by the exercise page's own
`numeric_request`) plus `verdict` ("correct" / "wrong") and `how` (the rewrite), which the grader
ignores. The output is the same byte for byte on every run: fixed seeds, no randomness here.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import compute  # noqa: E402 - after the path fix above
import quizbank  # noqa: E402
from tutor.exercises import DEFAULT_TOLERANCE, numeric_request  # noqa: E402

OUTPUT = Path(__file__).with_name("generated.jsonl")
PROBLEMS = (("easy", 1), ("medium", 2), ("hard", 3))  # (difficulty, seed) for every template
CORRECT_PER_ANSWER = 3  # rewrites taken per answer, rotating through the list so all kinds occur
WRONG_PER_ANSWER = 3


# --- the tolerance the product uses ---------------------------------------------------------

def product_tolerances() -> dict[tuple[str, str], dict]:
    """(template, answer) -> tolerance, as the product grades it: a bank `generated` question's
    own tolerance where one asks for that answer (grader/questions.py `_generated`), else the
    exercise page's default for every template answer (tutor/exercises.py `build_exercise`)."""
    rule: dict[tuple[str, str], dict] = {}
    for question in quizbank.load_bank().by_type("generated"):
        tolerance = {"kind": question.tolerance.kind.value, "value": question.tolerance.value}
        for ask in question.asks:
            rule.setdefault((question.template, ask), tolerance)
    return rule


@dataclass(frozen=True)
class Tolerance:
    rtol: float | None = None
    atol: float | None = None
    sigfigs: int | None = None

    @classmethod
    def of_request(cls, request: dict) -> Tolerance:
        return cls(request.get("rtol"), request.get("atol"), request.get("sigfigs"))


# --- exact decimals -------------------------------------------------------------------------

def exact(x) -> Decimal:
    """x (int, float, Fraction with a power-of-ten-friendly denominator) as an exact Decimal."""
    x = Fraction(x)
    with localcontext() as ctx:
        ctx.prec = 1000  # a float's exact decimal expansion fits
        return Decimal(x.numerator) / Decimal(x.denominator)


def round_figures(x, figures: int) -> Decimal:
    """x rounded to `figures` significant figures, exactly (half to even)."""
    d = exact(x)
    if d == 0:
        return Decimal(0)
    with localcontext() as ctx:
        ctx.prec = 1000
        rounded = d.quantize(Decimal(1).scaleb(d.adjusted() - figures + 1), ROUND_HALF_EVEN)
        if rounded.adjusted() > d.adjusted():  # 9.996 -> 10.00: one figure too many
            rounded = d.quantize(Decimal(1).scaleb(rounded.adjusted() - figures + 1),
                                 ROUND_HALF_EVEN)
    return rounded


def figures_for(tol: Tolerance, x) -> int:
    """Figures a careful learner types: exactly N for significant figures, else enough that
    rounding costs at most a quarter of the tolerance."""
    if tol.sigfigs is not None:
        return tol.sigfigs
    if x == 0:
        return 1
    if tol.rtol is not None:
        figures = 1
        while 0.5 * 10.0 ** (1 - figures) > tol.rtol / 4:
            figures += 1
        return figures
    decimals = 0
    while 0.5 * 10.0 ** -decimals > tol.atol / 4:
        decimals += 1
    return max(1, exact(x).adjusted() + decimals + 1)


@dataclass(frozen=True)
class Typed:
    """One entry as the learner writes it: `value` is exactly what the text says."""

    value: Decimal
    keep_zeros: bool  # trailing zeros are significant figures the learner means to show

    def digits(self) -> Decimal:
        return self.value if self.keep_zeros else self.value.normalize()

    def plain(self) -> str:
        if self.value == 0:
            return "0"
        return format(self.digits(), "f")

    def mantissa_exponent(self) -> tuple[str, int]:
        d = self.digits()
        return format(d.scaleb(-d.adjusted()), "f"), d.adjusted()

    def figures(self, notation: str) -> int:
        """Significant figures the text shows (trailing zeros of a whole number count)."""
        text = self.plain() if notation == "plain" else self.mantissa_exponent()[0]
        return len(text.lstrip("-").replace(".", "").lstrip("0"))


def typed(x, tol: Tolerance, figures: int | None = None) -> Typed:
    return Typed(round_figures(x, figures or figures_for(tol, x)), tol.sigfigs is not None)


# --- the verdict, by arithmetic -------------------------------------------------------------

def near_tie(x: Fraction, figures: int) -> bool:
    """True when x sits (almost) on a rounding tie at `figures` figures: parsing it into a float
    could then round it either way."""
    if x == 0:
        return False
    scaled = abs(x) / Fraction(10) ** (exact(x).adjusted() - figures + 1)
    return abs(scaled - int(scaled) - Fraction(1, 2)) < Fraction(1, 10**9)


def entry_verdict(entry: Typed, notation: str, expected, tol: Tolerance) -> str | None:
    """"in", "out", or None when too close to the edge to call."""
    a, e = Fraction(entry.value), Fraction(expected)
    if tol.sigfigs is not None:
        n = tol.sigfigs
        if near_tie(a, n) or near_tie(e, n):
            return None
        if a != 0 and entry.figures(notation) < n:  # a zero shows no figures and needs none
            return "out"
        return "in" if round_figures(a, n) == round_figures(e, n) else "out"
    bound = max(Fraction(tol.atol or 0), Fraction(tol.rtol or 0) * abs(e))
    error = abs(a - e)
    if bound == 0:
        return "in" if error == 0 else "out"
    if error <= bound / 2:
        return "in"
    return "out" if error >= 2 * bound else None


def shape_of(value) -> tuple[int, ...]:
    if not isinstance(value, list):
        return ()
    if isinstance(value[0], list):
        return (len(value), len(value[0]))
    return (len(value),)


def flat(value) -> list:
    if not isinstance(value, list):
        return [value]
    return [x for item in value for x in flat(item)]


def verdict(entries, shape, notation: str, expected, tol: Tolerance) -> str | None:
    """The grade by the contract: shapes first (a column is a vector), then every entry."""
    if shape != shape_of(expected):
        return "wrong"
    calls = [entry_verdict(a, notation, e, tol)
             for a, e in zip(flat(entries), flat(expected), strict=True)]
    if None in calls:
        return None
    return "correct" if all(c == "in" for c in calls) else "wrong"


# --- how learners write numbers -------------------------------------------------------------

SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
FULLWIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}
IME_PUNCTUATION = str.maketrans({",": "，", ";": "；", "[": "［", "]": "］", "(": "（", ")": "）"})


def fullwidth(text: str) -> str:
    """Everything typed in full-width mode: ９．５４ｅ－７."""
    return "".join(FULLWIDTH.get(ch, ch) for ch in text)


def number_text(entry: Typed, notation: str) -> str:
    if notation == "plain" or entry.value == 0:
        return entry.plain()
    mantissa, k = entry.mantissa_exponent()
    return {
        "e": f"{mantissa}e{k}",
        "times-caret": f"{mantissa}×10^{k}",
        "times-parens": f"{mantissa}*10^({k})",
        "times-superscript": f"{mantissa} × 10{str(k).translate(SUPERSCRIPT)}",
        "times-latex": f"{mantissa} \\times 10^{{{k}}}",
    }[notation]


def natural_notation(entries) -> str:
    """Plain decimals unless some entry is too small or large to write out comfortably."""
    sizes = [t.digits().adjusted() for t in flat(entries) if t.value != 0]
    return "plain" if all(-4 <= s < 9 for s in sizes) else "e"


def scalar_forms(t: Typed) -> list[tuple[str, str, str]]:
    """(how, text, notation) of one number written the ways learners write it."""
    forms = []
    k = t.digits().adjusted() if t.value != 0 else 0
    if -6 <= k < 9:
        forms.append(("plain-decimal", t.plain(), "plain"))
        forms.append(("fullwidth-decimal", fullwidth(t.plain()), "plain"))
        if "." in t.plain():
            forms.append(("ime-ideographic-point", t.plain().replace(".", "。"), "plain"))
        if t.value < 0:
            forms.append(("unicode-minus", t.plain().replace("-", "−"), "plain"))
    if (k <= -2 or k >= 3) and t.value != 0:  # where learners reach for powers of ten
        forms += [
            ("e-notation", number_text(t, "e"), "e"),
            ("sci-times-10", number_text(t, "times-caret"), "times-caret"),
            ("sci-times-10-parens", number_text(t, "times-parens"), "times-parens"),
            ("sci-times-10-superscript", number_text(t, "times-superscript"), "times-superscript"),
            ("sci-latex-times", number_text(t, "times-latex"), "times-latex"),
            ("fullwidth-e-notation", fullwidth(number_text(t, "e")), "e"),
        ]
    return forms


def vector_forms(entries: list[Typed], notation: str) -> list[tuple[str, str, str]]:
    cells = [number_text(t, notation) for t in entries]
    forms = [
        ("brackets", "[" + ", ".join(cells) + "]"),
        ("parens", "(" + ", ".join(cells) + ")"),
        ("bare-commas", ", ".join(cells)),
        ("brackets-spaces", "[" + " ".join(cells) + "]"),
        ("bare-spaces", " ".join(cells)),
        ("column-semicolons", "[" + "; ".join(cells) + "]"),
        ("bmatrix-column", "\\begin{bmatrix}" + " \\\\ ".join(cells) + "\\end{bmatrix}"),
        ("ime-brackets", ("[" + ",".join(cells) + "]").translate(IME_PUNCTUATION)),
        ("fullwidth-brackets", fullwidth("[" + ",".join(cells) + "]")),
    ]
    forms = [(how, text, notation) for how, text in forms]
    if notation == "plain":  # as numpy prints it, copied from a notebook
        e_cells = [number_text(t, "e") for t in entries]
        forms.append(("brackets-e-notation", "[" + ", ".join(e_cells) + "]", "e"))
    return forms


def matrix_forms(rows: list[list[Typed]], notation: str) -> list[tuple[str, str]]:
    cells = [[number_text(t, notation) for t in row] for row in rows]
    nested = "[" + ", ".join("[" + ", ".join(r) + "]" for r in cells) + "]"
    return [
        ("nested", nested),
        ("semicolon-rows", "[" + "; ".join(" ".join(r) for r in cells) + "]"),
        ("semicolon-rows-commas", "[" + "; ".join(", ".join(r) for r in cells) + "]"),
        ("bmatrix", "\\begin{bmatrix}" + " \\\\ ".join(" & ".join(r) for r in cells)
         + "\\end{bmatrix}"),
        ("pmatrix", "\\begin{pmatrix}" + " \\\\ ".join(" & ".join(r) for r in cells)
         + "\\end{pmatrix}"),
        ("ime-nested", nested.translate(IME_PUNCTUATION)),
    ]


def written(value, tol: Tolerance, figures: int | None = None):
    """The value with every entry rounded as the learner types it (same nesting)."""
    if isinstance(value, list):
        return [written(v, tol, figures) for v in value]
    return typed(value, tol, figures)


def forms_of(entries) -> list[tuple[str, str, str]]:
    """(how, text, notation) for a number, vector or matrix of Typed entries."""
    if not isinstance(entries, list):
        return scalar_forms(entries)
    notation = natural_notation(entries)
    if not isinstance(entries[0], list):
        return vector_forms(entries, notation)
    return [(how, text, notation) for how, text in matrix_forms(entries, notation)]


def first_form(entries) -> tuple[str, str]:
    """(text, notation) of the everyday way to write these entries: how wrong answers appear."""
    _, text, notation = forms_of(entries)[0]
    return text, notation


# --- correct and wrong rewrites -------------------------------------------------------------

def scaled(value, factor):
    if isinstance(value, list):
        return [scaled(v, factor) for v in value]
    return Fraction(value) * factor


def correct_rewrites(expected, tol: Tolerance):
    """(how, text, shape, entries, notation) of the exact value written correctly."""
    entries = written(expected, tol)
    return [(how, text, shape_of(expected), entries, notation)
            for how, text, notation in forms_of(entries)]


def wrong_rewrites(expected, tol: Tolerance):
    """(how, text, shape, entries, notation) of the mistakes learners make."""
    out = []

    def add(how, value_entries, shape):
        text, notation = first_form(value_entries)
        out.append((how, text, shape, value_entries, notation))

    shape = shape_of(expected)
    if any(x != 0 for x in flat(expected)):
        add("sign-flipped", written(scaled(expected, -1), tol), shape)
        add("times-10", written(scaled(expected, 10), tol), shape)
        add("divided-by-10", written(scaled(expected, Fraction(1, 10)), tol), shape)
    entries = written(expected, tol)
    if shape and len(flat(expected)) >= 2:
        cells = flat(entries)
        for i in range(len(cells)):
            j = next((j for j in range(i + 1, len(cells)) if cells[j].value != cells[i].value), None)
            if j is not None:
                cells[i], cells[j] = cells[j], cells[i]
                add("entries-swapped", regroup(cells, shape), shape)
                break
    if len(shape) == 1 and shape[0] >= 2:
        add("entry-dropped", entries[:-1], (shape[0] - 1,))
    if len(shape) == 2:
        dropped = entries[:-1]
        add("row-dropped", dropped, (len(dropped), shape[1]) if len(dropped) > 1
            else (shape[1],))
        if expected != [list(col) for col in zip(*expected, strict=True)]:
            add("transposed", [list(col) for col in zip(*entries, strict=True)], shape)
    too_few = too_few_figures(expected, tol)
    if too_few is not None:
        add(f"rounded-{too_few}-sig", written(expected, tol, too_few), shape)
    return out


def regroup(cells, shape):
    if len(shape) < 2:
        return cells
    return [cells[r * shape[1]:(r + 1) * shape[1]] for r in range(shape[0])]


def too_few_figures(expected, tol: Tolerance) -> int | None:
    """The most figures that still put the answer clearly outside the tolerance, if any."""
    most = max(figures_for(tol, x) for x in flat(expected))
    for figures in range(most - 1, 0, -1):
        entries = written(expected, tol, figures)
        if verdict(entries, shape_of(expected), first_form(entries)[1], expected, tol) == "wrong":
            return figures
    return None


def rotated(items: list, start: int, count: int) -> list:
    if not items:
        return []
    start %= len(items)
    return (items[start:] + items[:start])[:count]


# --- the corpus -----------------------------------------------------------------------------

def corpus_lines() -> list[dict]:
    tolerances = product_tolerances()
    lines, seen = [], set()
    turn = 0  # which rewrites this answer gets: a different slice of the list each time
    for template in compute.list_templates():
        for difficulty, seed in PROBLEMS:
            problem = compute.generate(template["name"], seed=seed, difficulty=difficulty)
            for name in template["answers"]:
                expected = problem["answers"].get(name)
                if not all(isinstance(x, int | float) and not isinstance(x, bool)
                           for x in flat(expected)) or len(shape_of(expected)) > 2:
                    continue  # not a number, vector or matrix
                tolerance = tolerances.get((template["name"], name), DEFAULT_TOLERANCE)
                lang = ("en", "zh")[turn % 2]
                probe = numeric_request(expected, "", tolerance, lang)
                tol = Tolerance.of_request(probe)
                chosen = (rotated(correct_rewrites(expected, tol), turn * CORRECT_PER_ANSWER,
                                  CORRECT_PER_ANSWER)
                          + rotated(wrong_rewrites(expected, tol), turn * WRONG_PER_ANSWER,
                                    WRONG_PER_ANSWER))
                turn += 1
                for how, text, shape, entries, notation in chosen:
                    decided = verdict(entries, shape, notation, expected, tol)
                    if decided is None:
                        continue  # too close to the tolerance's edge to call by arithmetic
                    line_id = f"{template['name']}/{difficulty}-{seed}/{name}/{how}"
                    assert line_id not in seen, line_id
                    seen.add(line_id)
                    request = numeric_request(expected, text, tolerance, lang)
                    lines.append({"id": line_id, **request, "verdict": decided, "how": how})
    return lines


def render() -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in corpus_lines())


def main() -> None:
    text = render()
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"{text.count(chr(10))} answers -> {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
