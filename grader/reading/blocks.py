"""A whole pasted derivation split into lines: LaTeX blocks and chains as people write them.

`split_derivation(text, decls)` turns what a learner pastes into the lines the derivation checker
compares, and the remarks between them, in order:

- math delimiters `$$…$$`, `\\[…\\]`, `\\(…\\)`, `$…$` and the environments `aligned`, `align`,
  `align*`, `equation`, `equation*`, `gather`, `gather*`, `split`, `multline`, `eqnarray` are
  dropped (matrix environments such as `bmatrix` stay: they are maths);
- a line ends at a newline or at `\\\\` outside braces and matrices; alignment marks `&`, `\\notag`,
  `\\nonumber`, `\\label{…}`, `\\tag{…}` go; `\\boxed{…}` keeps what it boxes;
- a chain `a = b = c` (or `&= …` rows, or `≈`/`\\approx`) is one line per member; when the first
  member is a label (a Leibniz derivative the grader cannot differentiate, such as
  `\\frac{\\partial L}{\\partial x}` with L undeclared, or one undeclared name such as `y`), the
  first line keeps it (`y = x + F(x)`): the parser reads a line's leading label as a name for
  its value. A member `\\dots`/`\\cdots`/`\\ldots` is skipped (equality carries across it). A
  member after `≈` keeps its `≈` (an approximation: see kinds/derivation.py);
- remarks: `\\text{…}`, `\\intertext{…}`, `\\mbox{…}`, prose between `$…$` pieces (and a
  `$…$` piece of one name in a sentence: a mention, "the loss $\\mathcal{L}$"), and every line
  with no maths in it (Chinese text, or words such as "where", "since", "by the chain rule") are
  remarks: shown, never graded. A line that starts with a connective ("where", "since",
  "because", "其中", "因为", …) is a remark as a whole: what follows is a definition or a reason,
  not a step of the chain. "so"/"hence"/"thus"/"therefore"/"所以"/"因此" before a member that
  continues the chain (`所以 = 1 + F'(x)`) are remarks in front of that member.

Nothing here evaluates anything: it only cuts text (bounded by MAX_BLOCK characters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import GraderError
from .lexer import Token, tokenize
from .names import Declarations, prepare_tokens
from .normalize import normalize

MAX_BLOCK = 10_000  # characters of a pasted derivation (each line keeps the parser's own limit)

# Environments whose rows are lines of a derivation (not matrices).
LINE_ENVIRONMENTS = ("aligned", "align", "align*", "alignat", "alignat*", "equation",
                     "equation*", "gather", "gather*", "gathered", "split", "multline",
                     "multline*", "eqnarray", "eqnarray*", "flalign", "flalign*")
MATRIX_ENVIRONMENT = re.compile(r"\\(begin|end)\{([a-zA-Z]*matrix\*?|cases|array)\}")
_ENV = re.compile(r"\\(?:begin|end)\{(" + "|".join(re.escape(e) for e in LINE_ENVIRONMENTS)
                  + r")\}(?:\{[^{}]*\})?")
_DELIMITERS = re.compile(r"\$\$|\\\[|\\\]|\\\(|\\\)")
_DROPPED = re.compile(r"\\(?:notag|nonumber)\b|\\(?:label|tag\*?)\{[^{}]*\}")
_REMARK_COMMANDS = re.compile(r"\\(?:text|intertext|mbox|textrm|textbf|shortintertext)\s*\{")
_BOXED = re.compile(r"\\boxed\s*(?=\{)")
_DOTS = re.compile(r"^\s*\\(?:dots|cdots|ldots|dotsb|dotsc)\s*$|^\s*(?:\.\.\.|…|⋯)\s*$")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z]{3,}")
_MATHS_SIGNS = re.compile(r"[-+*/^=≈()\[\]{}|\\0-9']")
# A line that starts with one of these is a remark as a whole (a definition, a reason).
REMARK_OPENERS = ("where", "with", "since", "because", "as", "by", "let", "for", "note",
                  "here", "recall", "using", "from", "其中", "因为", "由于", "由", "根据", "设",
                  "令", "这里", "注意", "利用", "对于", "其")
# Before a member that continues the chain: a remark, then the member.
CONTINUERS = ("so", "hence", "thus", "therefore", "then", "which gives", "gives", "所以",
              "因此", "于是", "从而", "得", "即", "故", "则")
RELATIONS = ("=", "≈")
NO_DECLARATIONS = Declarations()


@dataclass(frozen=True, slots=True)
class BlockLine:
    """One piece of a pasted derivation: a line to check, or a remark to show."""

    text: str
    remark: bool = False


def split_derivation(text: str, decls: Declarations = NO_DECLARATIONS) -> tuple[BlockLine, ...]:
    """The lines and remarks of a pasted derivation, in order (see the module docstring)."""
    text = text[:MAX_BLOCK]
    out: list[BlockLine] = []
    for row in _rows(text):
        out += _row_pieces(row, decls)
    return tuple(piece for piece in out if piece.text)


def lines_to_check(text: str, decls: Declarations = NO_DECLARATIONS) -> list[str]:
    """Only the lines to check (what the JSON Lines request grades when `answer` is one text)."""
    return [piece.text for piece in split_derivation(text, decls) if not piece.remark]


def chain_lines(line: str, decls: Declarations = NO_DECLARATIONS) -> list[str]:
    """One line of a derivation sent as a list, with its chain split as the page splits a typed
    line (`a = b = c` -> a, b, c; a label first stays in front: `y = x + F(x)` is one line);
    a line without `=` or `≈` after its start is itself."""
    if "=" not in line.lstrip(" =") and "≈" not in line and "\\approx" not in line:
        return [line]
    lines = [piece.text for piece in _maths(line, decls, name_is_label=True) if not piece.remark]
    return lines or [line]


# -- rows: newlines and \\ outside braces and matrices --------------------------------------------

def _rows(text: str) -> list[str]:
    text = _ENV.sub("\n", text)
    text = _DROPPED.sub(" ", text)
    text = _unboxed(text)
    rows, current = [], []
    depth = matrices = 0
    i = 0
    while i < len(text):
        matrix = MATRIX_ENVIRONMENT.match(text, i)
        if matrix is not None:
            matrices += 1 if matrix.group(1) == "begin" else -1
            current.append(matrix.group(0))
            i = matrix.end()
            continue
        ch = text[i]
        if ch == "\\" and text.startswith("\\\\", i) and depth == 0 and matrices <= 0:
            rows.append("".join(current))
            current = []
            i += 2
            continue
        if ch == "\n":
            rows.append("".join(current))
            current = []
        elif ch == "&" and matrices <= 0:
            current.append(" ")  # an alignment mark, not maths
        else:
            depth += (ch == "{") - (ch == "}")
            current.append(ch)
        i += 1
    rows.append("".join(current))
    return [row for row in (r.strip() for r in rows) if row]


def _unboxed(text: str) -> str:
    """`\\boxed{…}` replaced by what it boxes (its braces too: a boxed chain is still a chain)."""
    while (m := _BOXED.search(text)) is not None:
        depth, j = 0, m.end()
        while j < len(text):
            depth += (text[j] == "{") - (text[j] == "}")
            if depth == 0:
                break
            j += 1
        text = text[:m.start()] + text[m.end() + 1:j] + text[j + 1:]
    return text


# -- one row: prose, remarks and the chain's members ----------------------------------------------

def _row_pieces(row: str, decls: Declarations) -> list[BlockLine]:
    if "$" not in row:
        return _prose_or_maths(row, decls)
    pieces: list[BlockLine] = []
    parts = re.split(r"\$\$|\$", row)
    prose = any(p.strip(" ,，.。:：") for p in parts[::2])
    for k, part in enumerate(parts):
        part = part.strip()
        if not part:
            continue
        if k % 2 == 0:  # outside $…$: prose
            pieces += _prose_remark(part)
        elif prose and _one_name(part, decls):  # "the loss $\mathcal{L}$ at $x_l$": a mention
            pieces.append(BlockLine(part, remark=True))
        else:
            pieces += _maths(part, decls)
    return pieces


def _one_name(text: str, decls: Declarations) -> bool:
    """One name and nothing else (`x_l`, `\\mathcal{L}`): in a sentence, what it talks about."""
    tokens = _tokens(text, decls)
    return tokens is not None and len(tokens) == 1 and tokens[0].kind == "name"


def _tokens(text: str, decls: Declarations) -> list[Token] | None:
    """The tokens the parser would read in `text` (without the end), None when it cannot."""
    try:
        tokens = prepare_tokens(tokenize(normalize(text).text, decls.knows_run), decls)
    except GraderError:
        return None
    return [t for t in tokens if t.kind != "eof"]


def _prose_or_maths(row: str, decls: Declarations) -> list[BlockLine]:
    row = _DELIMITERS.sub(" ", row).strip()
    if not row:
        return []
    lowered = row.lower()
    for word in CONTINUERS:
        rest = row[len(word):]
        whole_word = not (word.isascii() and rest[:1].isalpha())  # "so", not "solve"
        if lowered.startswith(word) and whole_word and _rest_continues(rest):
            return [BlockLine(row[:len(word)], remark=True), *_maths(rest, decls)]
    if _is_prose(row, decls):
        return _prose_remark(row)
    return _maths(row, decls)


def _rest_continues(rest: str) -> bool:
    rest = rest.lstrip(" ,，:：")
    return rest.startswith(RELATIONS) or rest.startswith("\\approx")


def _is_prose(row: str, decls: Declarations) -> bool:
    """Words, not maths: Chinese text, a connective first, or two words that are neither LaTeX
    commands nor names the grader knows (`by the chain rule`) with no sign of maths between."""
    if _CJK.search(_without_remark_commands(row)):
        return True
    first = re.match(r"[A-Za-z]+", row)
    if first is not None and first.group(0).lower() in REMARK_OPENERS:
        return True
    if _MATHS_SIGNS.search(row):  # `sinc(x) + rate` is maths the parser must refuse, not prose
        return False
    known = decls.vocabulary()
    words = [w for w in _WORD.findall(re.sub(r"\\[A-Za-z]+", " ", row)) if w not in known]
    return len(words) >= 2


def _prose_remark(text: str) -> list[BlockLine]:
    text = _REMARK_COMMANDS.sub("", text).replace("}", "").replace("{", "").strip(" ,，:：")
    return [BlockLine(text, remark=True)] if text else []


def _maths(text: str, decls: Declarations, name_is_label: bool = False) -> list[BlockLine]:
    """A maths row: remarks taken out (`\\text{…}`), then one line per member of its chain.
    `name_is_label`: one declared name first is a label too (a listed line `x ≈ 1.414` has
    always been read so by the parser), family members excepted."""
    maths, before, remarks = _take_remarks(text)
    members = _chain(maths)
    lines: list[BlockLine] = []
    for k, (relation, member) in enumerate(members):
        if _DOTS.match(member):
            continue
        if k == 0 and len(members) > 1 and _is_label(member, decls, name_is_label):
            relation_next, first_value = members[1]
            # the label carries the relation (`x ≈ 1.414`), not a second `≈` in front of it
            members[1] = ("", f"{member} {relation_next} {first_value}")
            continue
        prefix = "≈ " if relation == "≈" else ""
        lines.append(BlockLine(prefix + member))
    return ([BlockLine(r, remark=True) for r in before] + lines
            + [BlockLine(r, remark=True) for r in remarks])


def _take_remarks(text: str) -> tuple[str, list[str], list[str]]:
    """`\\text{…}` groups out of a maths row, as remarks (their braces balanced): (the maths,
    the remarks written before any maths (`\\intertext{so} &= …`), the remarks after)."""
    before, remarks, kept = [], [], []
    i = 0
    while True:
        m = _REMARK_COMMANDS.search(text, i)
        if m is None:
            kept.append(text[i:])
            break
        kept.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += (text[j] == "{") - (text[j] == "}")
            j += 1
        words = text[m.end():j - 1].strip()
        if words:
            (remarks if "".join(kept).strip() else before).append(words)
        i = j
    return "".join(kept), before, remarks


def _without_remark_commands(row: str) -> str:
    return _take_remarks(row)[0]


def _chain(text: str) -> list[tuple[str, str]]:
    """[(relation before it, member)] split at `=`, `≈`, `\\approx` outside brackets."""
    text = text.replace("\\approx", "≈")
    members: list[tuple[str, str]] = []
    depth, start, relation = 0, 0, ""
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch in RELATIONS and depth == 0:
            members.append((relation, text[start:i].strip(" ,，")))
            start, relation = i + 1, ch
    members.append((relation, text[start:].strip(" ,，.。")))
    if members and not members[0][1] and len(members) > 1:  # "&= b" rows: the chain goes on
        first_relation = members[1][0]
        members = [(first_relation, members[1][1]), *members[2:]]
    return [(r, m) for r, m in members if m]


def _is_label(member: str, decls: Declarations, name_is_label: bool = False) -> bool:
    """A chain's first member that names what is computed rather than a value the grader can
    read: a Leibniz derivative of something undeclared (∂L/∂x), or one undeclared name (y)."""
    tokens = _tokens(member, decls)
    if tokens is None or len(tokens) != 1:
        return False
    token = tokens[0]
    if token.kind == "leibniz":
        return not _leibniz_is_value(token.text, decls)
    declared = frozenset() if name_is_label else decls.symbols | decls.functions | decls.matrices
    return token.kind == "name" and token.text not in declared \
        and not _is_member(token.text, decls)


_RELATION_FAMILY = re.compile(r"\s*\\?([A-Za-z]+)_")


def _is_member(name: str, decls: Declarations) -> bool:
    """`x_L`, `x_{l+1}` of a family a declared relation computes: a value (`x_3 = x_2 +
    F_2(x_2)` is two lines, checked against the relation). Without a relation the members are
    free values, and one first in a chain names what it defines, as before."""
    family, sep, _ = name.partition("_")
    return bool(sep) and family in decls.families and family in _related(decls)


def _related(decls: Declarations) -> set[str]:
    """The families the declared relations compute (the name before `_` on the left)."""
    return {m.group(1) for m in map(_RELATION_FAMILY.match, decls.relations) if m}


def _leibniz_is_value(text: str, decls: Declarations) -> bool:
    """A Leibniz fraction the parser differentiates and a chain does not start with to name
    its subject: a member by a member of its own scalar family (`∂x_{l+1}/∂x_l`, through the
    relation) or a declared symbol by itself (`∂x/∂x`). `∂y/∂x` (y declared or not) and the
    gradient of an undeclared quantity (`∂L/∂x_l`) name what the chain computes: a label."""
    top, _, var = text.partition("/")
    if top in decls.vector_values and var in decls.vector_values:
        # ∂y/∂x of declared vectors: a Jacobian when a relation defines y (y = x + F(x))
        return top == var or top in decls.defined_vectors
    if top in decls.symbols:
        return top == var
    family = top.partition("_")[0]
    return (_is_member(top, decls) and var.partition("_")[0] == family
            and family not in decls.functions)
