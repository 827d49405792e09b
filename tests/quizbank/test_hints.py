"""A hint points the way; it does not hand over the key. A number (or a simple fraction a/b) that a
hint of a numeric question states, and that the prompt does not already give, must not be an
entry of the key.

Regression (issue 30): "$16^{1/4}=2$" gave DeepNorm's alpha, "$0.5^{20}=1/1048576$" and
"$0.5^{10}=1/1024$" gave the keys themselves; other hints did the whole computation
("$32\\times128\\times768\\times2$ bytes is exactly 6 MiB", "$576+64\\times64$")."""

from __future__ import annotations

import re

import pytest

import quizbank

BANK = quizbank.load_bank()  # every file under quizbank/bank/
NUMERIC = [q for q in BANK if getattr(q.type, "value", q.type) == "numeric"]
# A number not followed or preceded by more of an expression (x_1, 2^{10}, 10^3 are not values).
NUMBER = re.compile(r"(?<![\w^_{.])(-?\d+(?:\.\d+)?(?:\s*/\s*\d+(?:\.\d+)?)?)(?![\w}.]|\^)")
# (question, hint) -> why the hint may state a number that is also an entry of the key.
STATES_A_STEP = {
    ("seed-grad-w-worked", 0): "∇_yL = [0.5, 1.5] is the first step; its entries reappear as the "
                               "key's first column only because x_1 = 1",
}


def stated_values(text: str) -> list[tuple[str, float]]:
    text = text.replace(r"\,", "")
    found = []
    for match in NUMBER.finditer(text):
        typed = match.group(1).replace(" ", "")
        top, _, bottom = typed.partition("/")
        if bottom and float(bottom) == 0:
            continue
        found.append((typed, float(top) / float(bottom) if bottom else float(top)))
    return found


def _entries(value):
    if isinstance(value, list):
        for v in value:
            yield from _entries(v)
    else:
        yield float(value)


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-3 * abs(b)


@pytest.mark.parametrize("text", ["$16^{1/4}=2$", "$0.5^{20}=1/1048576$", "is 6 MiB"])
def test_stated_values_reads_results_not_exponents(text):
    assert [v for _, v in stated_values(text)] in ([2.0], [1 / 1048576], [6.0])


@pytest.mark.parametrize("question", NUMERIC, ids=lambda q: q.id)
def test_a_hint_does_not_state_the_key(question):
    given = [v for lang in ("zh", "en") for _, v in stated_values(question.prompt.get(lang) or "")]
    keys = [k for k in _entries(question.answer) if k != 0 and not any(_same(g, k) for g in given)]
    stated = []
    for i, hint in enumerate(question.hints):
        if (question.id, i) in STATES_A_STEP:
            continue
        for lang in ("zh", "en"):
            stated += [(i, lang, typed) for typed, value in stated_values(getattr(hint, lang) or "")
                       if any(_same(value, k) for k in keys)]
    assert not stated, stated
