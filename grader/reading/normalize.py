"""Normalize how people really type maths (Chinese IMEs, Unicode symbols) into our ASCII syntax.

Every output character remembers the index of the input character it came from, so a parse error
found in the normalized text can put a caret under what the learner actually typed.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Superscript runs such as "x²" or "W⁻¹" become "x^(2)" / "W^(-1)".
SUPERSCRIPTS = {
    "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7",
    "⁸": "8", "⁹": "9", "⁻": "-", "⁺": "+", "ᵀ": "T", "ⁿ": "n",
}

# Single characters with a fixed ASCII spelling. Greek letters become their names.
CHAR_MAP = {
    "×": "*", "·": "*", "⋅": "*", "∙": "*", "•": "*", "✕": "*", "∗": "*", "・": "*", "÷": "/", "∕": "/", "⁄": "/",
    "−": "-", "–": "-", "—": "-", "‐": "-", "‑": "-", "﹣": "-",
    "′": "'", "’": "'", "‘": "'", "″": "''", "ʹ": "'",
    "√": "sqrt ", "∛": "cbrt ", "∞": "inf", "。": ".", "、": ",", "【": "[", "】": "]", "〔": "(", "〕": ")",
    "「": "[", "」": "]", "｜": "|", "∣": "|", "\u3000": " ", "\t": " ", "\n": " ", "\r": " ",
    "π": "pi", "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda",
    "μ": "mu", "µ": "mu", "ν": "nu", "ξ": "xi", "ρ": "rho", "σ": "sigma", "τ": "tau",
    "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega", "Δ": "Delta",
    "Σ": "Sigma", "Φ": "Phi", "Ω": "Omega", "Γ": "Gamma", "Θ": "Theta", "Λ": "Lambda",
    "∂": "\\partial ", "≈": "\\approx ", "∑": "\\sum ", "∏": "\\prod ",
    "±": "\\pm ", "∓": "\\mp ",  # a pair of values (issue 29): reading/parser.py
    "‖": "\\| ", "∥": "\\| ", "∇": "\\nabla ", "ᵀ": "^T",  # vectors (issue 25)
}

PRINTABLE_ASCII_RUN = re.compile(r"[ -~]+")  # none of these is in the maps above

# Invisible characters that IMEs and copy-paste leave behind.
DROPPED = {"\u200b", "\u200c", "\u200d", "\ufeff", "\u2060"}


@dataclass(frozen=True, slots=True)
class Normalized:
    text: str
    origin: tuple[int, ...] | range  # origin[i] = raw index of normalized character i

    def raw_index(self, pos: int) -> int:
        """Index in the raw text of normalized position `pos` (end of text maps past the end)."""
        if pos < len(self.origin):
            return self.origin[pos]
        return (self.origin[-1] + 1) if self.origin else 0


# Delimiters of LaTeX maths around the whole answer, as copied from a document or typed out of
# habit: `$x^2$`, `$$x^2$$`, `\(x^2\)`, `\[x^2\]`.
MATH_DELIMITERS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))


def normalize(raw: str) -> Normalized:
    if raw.isascii() and raw.isprintable():  # the common case: nothing to map
        return Normalized(_without_math_delimiters(raw), range(len(raw)))
    normalized = _map_characters(raw)
    return Normalized(_without_math_delimiters(normalized.text), normalized.origin)


def _without_math_delimiters(text: str) -> str:
    """The text with math delimiters around the whole of it replaced by spaces (so every
    position, and the caret of an error, stays where it was)."""
    if "$" not in text and "\\" not in text:
        return text
    body = text.strip()
    start = len(text) - len(text.lstrip())
    for opener, closer in MATH_DELIMITERS:
        if len(body) >= len(opener) + len(closer) and body.startswith(opener) \
                and body.endswith(closer) and "$" not in body[len(opener):-len(closer)]:
            end = start + len(body)
            return (text[:start] + " " * len(opener) + text[start + len(opener):end - len(closer)]
                    + " " * len(closer) + text[end:])
    return text


def _map_characters(raw: str) -> Normalized:
    out: list[str] = []
    origin: list[int] = []

    def emit(text: str, index: int) -> None:
        out.append(text)
        origin.extend([index] * len(text))

    i = 0
    while i < len(raw):
        plain = PRINTABLE_ASCII_RUN.match(raw, i)
        if plain is not None:  # maps to itself: copied as one run, not character by character
            out.append(plain.group())
            origin.extend(range(i, plain.end()))
            i = plain.end()
            continue
        ch = raw[i]
        if ch in SUPERSCRIPTS:
            start = i
            run = []
            while i < len(raw) and raw[i] in SUPERSCRIPTS:
                run.append(SUPERSCRIPTS[raw[i]])
                i += 1
            emit("^(", start)
            for k, piece in enumerate(run):
                emit(piece, start + k)
            emit(")", i - 1)
            continue
        if ch in DROPPED:
            i += 1
            continue
        mapped = CHAR_MAP.get(ch)
        if mapped is None:
            # Full-width ASCII （）［］，．＋０-９ and the like fold to ASCII under NFKC.
            mapped = unicodedata.normalize("NFKC", ch) if ord(ch) > 127 else ch
            if mapped != ch:
                mapped = "".join(CHAR_MAP.get(c, c) for c in mapped)
        emit(mapped, i)
        i += 1
    return Normalized("".join(out), tuple(origin))
