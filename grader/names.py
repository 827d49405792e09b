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
    if not any(t.text in ("d", "frac") for t in tokens):
        return tokens
    out: list[Token] = []
    i = 0
    texts = [t.text for t in tokens]
    while i < len(tokens):
        t = tokens[i]
        if (t.kind == "name" and t.text == "d" and texts[i + 1:i + 2] == ["/"]
                and i + 2 < len(tokens) and tokens[i + 2].kind == "name"
                and tokens[i + 2].text.startswith("d") and len(tokens[i + 2].text) > 1):
            var = tokens[i + 2].text[1:]
            out.append(Token("diffop", var, t.pos, tokens[i + 2].end, t.space_before))
            i += 3
            continue
        if t.kind == "cmd" and t.text == "frac":
            if texts[i + 1:i + 6] == ["{", "d", "}", "{", texts[i + 5] if i + 5 < len(texts) else ""]:
                den = tokens[i + 5] if i + 5 < len(tokens) else None
                if (den is not None and den.kind == "name" and den.text.startswith("d")
                        and len(den.text) > 1 and texts[i + 6:i + 7] == ["}"]):
                    out.append(Token("diffop", den.text[1:], t.pos, tokens[i + 6].end,
                                     t.space_before))
                    i += 7
                    continue
            if texts[i + 1:i + 7] == ["{", "partial", "}", "{", "partial", texts[i + 6]
                                       if i + 6 < len(texts) else ""]:
                var = tokens[i + 6] if i + 6 < len(tokens) else None
                if var is not None and var.kind == "name" and texts[i + 7:i + 8] == ["}"]:
                    out.append(Token("diffop", var.text, t.pos, tokens[i + 7].end,
                                     t.space_before))
                    i += 8
                    continue
        out.append(t)
        i += 1
    return out


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
    longest = min(max(map(len, vocabulary), default=1), NAME_LIMIT)
    while i < len(word):
        for size in range(min(longest, len(word) - i), 0, -1):
            if word[i:i + size] in vocabulary or size == 1:
                pieces.append(word[i:i + size])
                i += size
                break
    return pieces
