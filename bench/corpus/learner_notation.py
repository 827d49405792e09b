"""How learners write numbers, vectors and matrices (decimals, powers of ten, full-width and IME
input, LaTeX), built from the exact values by formatting alone, so no grader code shapes the text.
"""

from __future__ import annotations

from exact_verdict import Tolerance, Typed, flat, typed

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
