"""Declarations and the token pre-pass: `d/dx` operators, and splitting runs of letters into names.

`Wx` is W times x, `2sinx` is 2 sin(x), `xalpha` is x alpha: a run of letters is split greedily into
the longest known names (declared names, built-in functions, constants, Greek letters); anything
left over is one letter per symbol.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .lexer import GREEK, Token
from .nodes import BUILTIN_FUNCTIONS

SPECIAL_FUNCTIONS = ("ln", "diff", "transpose")
CONSTANTS = ("e", "pi")
NOT_FINITE = ("nan", "inf", "infinity", "oo", "NaN", "Inf", "Infinity")
NAME_LIMIT = 40


@dataclass(frozen=True, slots=True)
class Declarations:
    symbols: frozenset[str] = frozenset()
    functions: frozenset[str] = frozenset()
    matrices: frozenset[str] = frozenset()

    @classmethod
    def of(cls, symbols=(), functions=(), matrices=()) -> Declarations:
        return cls(frozenset(symbols or ()), frozenset(functions or ()),
                   frozenset(matrices or ()))

    @property
    def identity_is_matrix(self) -> bool:
        return bool(self.matrices) and "I" not in self.symbols | self.functions | self.matrices

    def vocabulary(self) -> frozenset[str]:
        return _vocabulary(self)


_RESERVED = frozenset(BUILTIN_FUNCTIONS + SPECIAL_FUNCTIONS + CONSTANTS + NOT_FINITE + tuple(GREEK))


@lru_cache(maxsize=1024)
def _vocabulary(decls: Declarations) -> frozenset[str]:
    return decls.symbols | decls.functions | decls.matrices | _RESERVED


def prepare_tokens(tokens: list[Token], decls: Declarations) -> list[Token]:
    merged = _merge_diff_operators(tokens)
    for token in merged:
        if token.kind == "name":
            break
    else:
        return merged  # a plain number or vector: nothing to split
    vocabulary = decls.vocabulary()
    out: list[Token] = []
    for token in merged:
        if token.kind == "name" and token.text not in vocabulary:
            out.extend(_split_name(token, vocabulary))
        else:
            out.append(token)
    return out


def _merge_diff_operators(tokens: list[Token]) -> list[Token]:
    """`d/dx`, `\\frac{d}{dx}` and `\\frac{\\partial}{\\partial x}` become one `diffop` token."""
    for t in tokens:  # a loop, not any(): this runs on every answer
        if t.text == "d" or t.text == "frac":
            break
    else:
        return tokens
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        found = _diff_operator_at(tokens, i)
        if found is None:
            out.append(tokens[i])
            i += 1
            continue
        var, length = found
        first, last = tokens[i], tokens[i + length - 1]
        out.append(Token("diffop", var, first.pos, last.end, first.space_before))
        i += length
    return out


_D_VAR = "d<var>"  # a name token "dx": d followed by the variable
_VAR = "<var>"
_DIFF_PATTERNS = (
    ("d", "/", _D_VAR),
    ("frac", "{", "d", "}", "{", _D_VAR, "}"),
    ("frac", "{", "partial", "}", "{", "partial", _VAR, "}"),
)


def _diff_operator_at(tokens: list[Token], i: int) -> tuple[str, int] | None:
    """(variable, number of tokens) when a derivative operator starts at token i."""
    for pattern in _DIFF_PATTERNS:
        window = tokens[i:i + len(pattern)]
        if len(window) < len(pattern):
            continue
        var = None
        for token, want in zip(window, pattern, strict=True):
            if want == _D_VAR and token.kind == "name" and token.text.startswith("d") \
                    and len(token.text) > 1:
                var = token.text[1:]
            elif want == _VAR and token.kind == "name":
                var = token.text
            elif token.text != want or (want in ("d", "partial") and token.kind != "name"):
                break
        else:
            return var, len(pattern)
    return None


def _split_name(token: Token, vocabulary: frozenset[str]) -> list[Token]:
    text = token.text
    base, sep, subscript = text.partition("_")
    if sep and text not in vocabulary:
        pieces = _split_letters(base, vocabulary)
        pieces[-1] = pieces[-1] + "_" + subscript
    else:
        pieces = _split_letters(text, vocabulary)
    out = []
    pos = token.pos
    for k, piece in enumerate(pieces):
        width = len(piece) if k < len(pieces) - 1 else token.end - pos
        out.append(Token("name", piece, pos, pos + width, token.space_before and k == 0))
        pos += width
    return out


def _split_letters(word: str, vocabulary: frozenset[str]) -> list[str]:
    pieces: list[str] = []
    i = 0
    longest = _longest_name(vocabulary)
    while i < len(word):
        for size in range(min(longest, len(word) - i), 0, -1):
            if word[i:i + size] in vocabulary or size == 1:
                pieces.append(word[i:i + size])
                i += size
                break
    return pieces


@lru_cache(maxsize=1024)
def _longest_name(vocabulary: frozenset[str]) -> int:
    """Computed once per vocabulary (a frozenset caches its hash), not once per word."""
    return min(max(map(len, vocabulary), default=1), NAME_LIMIT)
