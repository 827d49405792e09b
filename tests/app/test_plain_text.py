"""Bank text as plain text for labels: no `$`, no backslash, no Markdown marker is left."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app_pages.widgets.plain_text import latex_to_text, plain_text
from app_pages.widgets.resources import bank, question_title

RAW_MARKUP = re.compile(r"[$\\{}`]|\*\*|__")


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        (r"$\nabla_x L = (I+W)^T g$", "∇ₓ L = (I+W)ᵀ g"),
        (r"$L=\frac12\|y-t\|^2$", "L=1/2‖y-t‖²"),
        (r"$x_{l+1}=x_l+f_l(x_l)$", "xₗ₊₁=xₗ+fₗ(xₗ)"),
        (r"$c_t=f_t\odot c_{t-1}+i_t\odot\tilde c_t$", "cₜ=fₜ⊙ cₜ₋₁+iₜ⊙c̃ₜ"),
        (r"$W_s\in\mathbb R^{d_{\text{out}}\times d_{\text{in}}}$", "Wₛ∈ℝ^(dₒᵤₜ× dᵢₙ)"),
        (r"$\mathrm{LN}(z)=(z-\bar z)/\sqrt{\operatorname{var}z+\epsilon}$", "LN(z)=(z-z̄)/√(var z+ε)"),
        (r"$W=\begin{bmatrix}0.1&0.2\\-0.1&0.3\end{bmatrix}$", "W=[0.1, 0.2; -0.1, 0.3]"),
        (r"$G_{\mathrm{plain}}$ and $\prod_l(1+a_l)$", "Gₚₗₐᵢₙ and ∏ₗ(1+aₗ)"),
        (r"$\frac{a+b}{2}$, $2^{10}$, $x^{y+z}$", "(a+b)/2, 2¹⁰, x^(y+z)"),
        (r"$\frac{\partial\mathcal L}{\partial x_i}$", "(∂L)/(∂ xᵢ)"),
        ("Which are **correct**? (Select *all*.)", "Which are correct? (Select all.)"),
        ("`out += identity` raises", "out += identity raises"),
        ("`x**2` stays code", "x**2 stays code"),
        ("下列说法中，哪些是**正确**的？", "下列说法中，哪些是正确的？"),
        # bold over a line break inside a paragraph (a bank prompt wraps so)
        ("are **perfectly correlated with each\nother** here", "are perfectly correlated with each\nother here"),
        ("**a**\n\nb**", "a\n\nb**"),  # never across paragraphs
        ("see [the text](https://example.org)", "see the text"),
        ("no markup at all", "no markup at all"),
    ],
)
def test_plain_text(text, plain):
    assert plain_text(text) == plain


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_bank_prompt_becomes_plain_text(lang):
    for question in bank():
        # Code in a fenced block is shown as code: `__init__` there is Python, not Markdown.
        prose = re.sub(r"```.*?```", "", question.prompt.get(lang), flags=re.S)
        text = plain_text(prose)
        assert not RAW_MARKUP.search(text), (question.id, text)
        assert not RAW_MARKUP.search(question_title(question, lang)), question.id


@given(st.text(alphabet=st.characters(blacklist_characters="$\\`*_[]!{}^#>-+")))
def test_text_without_markup_is_unchanged(text):
    assert plain_text(text) == text


def test_unknown_commands_lose_their_backslash():
    assert latex_to_text(r"\foo{x} + \mathcal{L}") == "foox + L"
