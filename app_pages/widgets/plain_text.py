"""Bank text (Markdown with $LaTeX$) as plain text, for the places that show text as typed:
select-box options, link labels, list rows. `$\\nabla_x L = (I+W)^T g$` becomes `∇ₓ L = (I+W)ᵀ g`,
`**correct**` becomes `correct`. It reads our own bank's notation, not arbitrary LaTeX: unknown
commands lose their backslash, braces are dropped, and no `$`, `\\` or Markdown marker is left.
"""

from __future__ import annotations

import re

SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "sigma": "σ", "tau": "τ", "phi": "φ",
    "varphi": "φ", "psi": "ψ", "omega": "ω", "pi": "π", "rho": "ρ", "xi": "ξ", "zeta": "ζ",
    "kappa": "κ", "nu": "ν", "chi": "χ", "Delta": "Δ", "Gamma": "Γ", "Sigma": "Σ", "Phi": "Φ",
    "Omega": "Ω", "Lambda": "Λ", "Theta": "Θ", "Pi": "Π", "Psi": "Ψ",
    "nabla": "∇", "partial": "∂", "odot": "⊙", "otimes": "⊗", "oplus": "⊕", "times": "×",
    "cdot": "·", "cdots": "⋯", "ldots": "…", "dots": "…", "in": "∈", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "Rightarrow": "⇒", "mapsto": "↦", "prod": "∏", "sum": "∑", "int": "∫",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "neq": "≠", "ne": "≠", "approx": "≈",
    "sim": "∼", "propto": "∝", "infty": "∞", "pm": "±", "mp": "∓", "top": "ᵀ", "|": "‖",
    "ell": "ℓ", "circ": "∘", "setminus": "∖", "forall": "∀", "exists": "∃", "sqrt": "√",
    "quad": " ", "qquad": " ", ",": " ", ";": " ", "!": "", " ": " ", "{": "{", "}": "}",
    "%": "%", "_": "_", "&": "&", "#": "#", "$": "$",
}
BLACKBOARD = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "E": "𝔼"}
ACCENTS = {"tilde": "\u0303", "bar": "\u0304", "hat": "\u0302", "vec": "\u20d7", "dot": "\u0307"}
WRAPPERS = ("operatorname", "mathrm", "text", "textrm", "mathbf", "boldsymbol", "mathit",
            "mathcal", "mathsf", "textbf", "textit", "emph")
DROPPED = ("left", "right", "big", "Big", "bigg", "Bigg", "displaystyle", "limits")
SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True))
SUP = dict(zip("0123456789+-=()inTt", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿᵀᵗ", strict=True))

_SEP = "\x01"  # ends a command's replacement, so "\\partial\\mathcal L" does not become "\\partialL"
_GROUP = r"\{((?:[^{}]|\{[^{}]*\})*)\}"  # one brace group, one level of nesting inside
_ARG = rf"(?:{_GROUP}|\s*(\\[A-Za-z]+|[^\s{{}}\\]))"  # a group, a command or one character


def _arg(match: re.Match, group: int) -> str:
    return match.group(group) if match.group(group) is not None else match.group(group + 1)


def _script(text: str, table: dict[str, str], mark: str) -> str:
    bare = text.replace("{", "").replace("}", "").replace(_SEP, "").strip()
    if bare and all(ch in table for ch in bare):
        return "".join(table[ch] for ch in bare)
    # kept as typed (inner sub/superscripts are read by the next pass)
    return f"{mark}{bare}" if len(bare) == 1 else f"{mark}({text.strip()})"


def latex_to_text(tex: str) -> str:
    """One formula (without its `$`) as plain Unicode text."""
    s = re.sub(r"\\begin\{[bpvBV]?matrix\}(.*?)\\end\{[bpvBV]?matrix\}", _matrix, tex, flags=re.S)
    s = re.sub(r"\\(?:" + "|".join(DROPPED) + r")(?![A-Za-z])\s*", "", s)
    s = re.sub(r"\\operatorname\s*" + _GROUP + r"(?=\s*[A-Za-z\\])", r"\1 ", s)  # var z, not varz
    for _ in range(3):  # nested wrappers and fractions, innermost first
        s = re.sub(r"\\(?:" + "|".join(WRAPPERS) + r")(?![A-Za-z])\s*" + _ARG,
                   lambda m: _SEP + _arg(m, 1) + _SEP, s)
        s = re.sub(r"\\mathbb\s*" + _ARG, lambda m: _SEP + BLACKBOARD.get(_arg(m, 1), _arg(m, 1)) + _SEP, s)
        s = re.sub(r"\\[dt]?frac\s*" + _ARG + r"\s*" + _ARG,
                   lambda m: _fraction(latex_to_text(_arg(m, 1)), latex_to_text(_arg(m, 3))), s)
        s = re.sub(r"\\sqrt\s*" + _GROUP, lambda m: f"√({m.group(1)})", s)
        s = re.sub(r"\\(" + "|".join(ACCENTS) + r")\s*" + _ARG,
                   lambda m: _SEP + _arg(m, 2) + ACCENTS[m.group(1)] + _SEP, s)
    s = re.sub(r"\\([A-Za-z]+|.)", lambda m: SYMBOLS.get(m.group(1), m.group(1)), s)
    s = re.sub(r"\^\s*" + _ARG, lambda m: _script(_arg(m, 1), SUP, "^"), s)
    s = re.sub(r"_\s*" + _ARG, lambda m: _script(_arg(m, 1), SUB, "_"), s)
    s = s.replace("{", "").replace("}", "").replace(_SEP, "")
    return re.sub(r"[ \t]{2,}", " ", s)


def _matrix(match: re.Match) -> str:
    rows = [row.strip() for row in re.split(r"\\\\", match.group(1)) if row.strip()]
    return "[" + "; ".join(", ".join(e.strip() for e in row.split("&")) for row in rows) + "]"


def _fraction(top: str, bottom: str) -> str:
    wrap = lambda part: part if re.fullmatch(r"[\w.′ᵀ²]+", part) else f"({part})"  # noqa: E731
    return f"{wrap(top)}/{wrap(bottom)}"


def plain_text(markdown: str) -> str:
    """Markdown with `$…$` / `$$…$$` formulas as plain text (code spans keep their contents)."""
    parts = re.split(r"(`[^`]*`|\$\$.+?\$\$|\$[^$]+\$)", markdown, flags=re.S)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) >= 2:
            out.append(part[1:-1])
        elif part.startswith("$") and part.endswith("$") and len(part) >= 2:
            out.append(latex_to_text(part.strip("$")))
        else:
            out.append(_plain_markdown(part))
    return "".join(out)


def _plain_markdown(text: str) -> str:
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links and images: their text
    # bold may run over a line break inside its paragraph, as Markdown allows
    text = re.sub(r"(\*\*|__)((?:(?!\n\s*\n).)+?)\1", r"\2", text, flags=re.S)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    text = re.sub(r"^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+)", "", text, flags=re.M)
    return text.replace("\\", "")


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]{}()#+\-.!|$<>~])")


def markdown_escaped(text: str) -> str:
    """Plain text for a label that Streamlit reads as Markdown (`st.page_link`, buttons): every
    Markdown and LaTeX marker is escaped, so the text shows exactly as given."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
