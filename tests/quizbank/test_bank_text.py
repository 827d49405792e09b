"""Rules over the learner-facing text of the shipped bank (every prompt, hint, solution, option
and option feedback, in both languages). One test per rule; a failure lists every offending
text at once, each with its file:line, so an author fixes them in one pass.

(These were once one test per text and language: thousands of tests that said one thing each.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest

import quizbank

BANK = quizbank.load_bank()  # every file under quizbank/bank/
LANGS = ("zh", "en")


def bank_texts() -> Iterator[tuple[str, str, str]]:
    """(where, lang, text) for every non-empty learner-facing text; `where` names the file, the
    question's line, the question and which of its texts (1 = the prompt)."""
    for qid, question in BANK.questions.items():
        location = BANK.location(qid)
        for number, field in enumerate(question.localized_fields(), start=1):
            for lang in LANGS:
                text = getattr(field, lang)
                if text:
                    yield f"{location} {qid} text {number}", lang, text


def offenders(rule: Callable[[str, str], list[str]]) -> list[str]:
    """One line per (text, problem) the rule finds anywhere in the bank."""
    return [f"{where} ({lang}): {problem}" for where, lang, text in bank_texts()
            for problem in rule(text, lang)]


def report(rule_name: str, found: list[str]) -> str:
    return f"{len(found)} texts break the rule '{rule_name}':\n" + "\n".join(found)


# ---- display math stands in its own paragraph --------------------------------------------------
def display_math_followed_by_prose(text: str, lang: str) -> list[str]:
    """Regression: "$$…$$" followed directly by a line of prose rendered the formula inline,
    run together with the sentence after it."""
    lines = text.split("\n")
    return [f"'{line.strip()}' is followed by '{following.strip()}'"
            for line, following in zip(lines, lines[1:], strict=False)
            if line.strip().startswith("$$") and line.strip().endswith("$$")
            and len(line.strip()) > 4
            and following.strip() and not following.strip().startswith("$$")]


def test_display_math_stands_in_its_own_paragraph():
    found = offenders(display_math_followed_by_prose)
    assert not found, report("display math stands in its own paragraph", found)


# ---- no reference to the source texts ----------------------------------------------------------
# The learner never sees the source texts: "section 4's numbers", "the source" or "the FAQ
# section" point at nothing. (`source.section` is metadata for authors and is not checked.)
SOURCE_REFERENCES = {
    "zh": re.compile(r"原文|源文本|第[一二三四五六七八九十\d]+节|第[一二三]篇"
                     r"|[“\"][^”\"]{1,12}[”\"]一节|本文"),
    # "the source's ∏(1+F_l')" (issue 30): a possessive, and a line break inside a phrase.
    "en": re.compile(r"(?i)\bsections?[ -]\d|\bthe\s+(?:first\s+|second\s+|third\s+)?sources?\b"
                     r"|\bsource['’]s\b|\bsource\s+texts?\b|\bthe\s+(?:source\s+)?texts?\b"
                     r"|\bthe\s+article\b|\bFAQ\s+section\b"),
}


def source_references(text: str, lang: str) -> list[str]:
    return [f"'{m.group(0)}'" for m in SOURCE_REFERENCES[lang].finditer(text)]


def test_no_reference_to_a_text_the_learner_does_not_have():
    found = offenders(source_references)
    assert not found, report("no reference to the source texts", found)


# ---- no question id in learner-facing text -----------------------------------------------------
# Learners never see ids: "(question `init-var-depth-expression`)" points at nothing they can
# open. A related question belongs in an interview question's `followups` (issue 30's review of
# bank file 14 found six solutions naming ids).
_ID = re.compile("(?<![\\w-])(" + "|".join(
    re.escape(qid) for qid in sorted(BANK.questions, key=len, reverse=True)) + ")(?![\\w-])")


def question_ids(text: str, lang: str) -> list[str]:
    return [f"'{m.group(0)}'" for m in _ID.finditer(text)]


def test_no_question_id_in_learner_facing_text():
    found = offenders(question_ids)
    assert not found, report("no question id in learner-facing text", found)


# ---- the rules can fail --------------------------------------------------------------------------
def test_the_walk_sees_every_text_of_the_bank():
    texts = list(bank_texts())
    assert {lang for _where, lang, _text in texts} == set(LANGS)
    assert len({where.split(" text ")[0] for where, _lang, _text in texts}) == len(BANK.questions)
    assert all(":" in where.split()[0] for where, _lang, _text in texts)  # file:line


@pytest.mark.parametrize(("text", "problems"), [
    ("$$y = x + F(x)$$\nso the gradient has an identity term.", 1),
    ("$$a$$\n$$b$$\n\nprose", 0),
    ("Inline $x$ then text.\n$$y$$", 0),
    ("$$a$$\nprose\n$$b$$\nmore prose", 2),
])
def test_display_math_followed_by_prose_is_found(text, problems):
    assert len(display_math_followed_by_prose(text, "en")) == problems


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Recall the projection shortcut of section 6.4."),
    ("en", "As in section-4, the norm grows."),
    ("en", "The source suggests zero gamma."),
    ("en", "The second source says otherwise."),
    ("en", "The text derives it for a block."),
    ("en", "See the FAQ section."),
    ("en", "Compare with the source's \\prod(1+F_l')."),
    ("en", "as derived in the\nsource text"),
    ("zh", "第四节的例子"),
    ("zh", "源文本建议"),
    ("zh", "原文中的推导"),
    ("zh", "见“梯度”一节"),
])
def test_a_reference_is_found(lang, text):
    assert source_references(text, lang)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "The residual branch adds F(x) to x."),
    ("en", "A textbook example: a 2-layer MLP."),
    ("zh", "残差分支把 F(x) 加到 x 上。"),
])
def test_ordinary_text_is_not_a_reference(lang, text):
    assert not source_references(text, lang)


@pytest.mark.parametrize(("text", "found"), [
    ("(question `init-var-depth-expression`)", ["'init-var-depth-expression'"]),
    ("对应 ODE 视角（题 `ode-euler-numeric`）", ["'ode-euler-numeric'"]),
    ("Fan-in mode keeps the forward variance; see the residual init below.", []),
    ("the ode-euler-numeric-like view", []),
])
def test_a_question_id_is_found_only_as_a_whole_id(text, found):
    assert question_ids(text, "en") == found


def test_a_report_lists_every_offender_with_its_place():
    """The failure message names each offending text, so one run shows all there is to fix."""
    found = [f"{where} ({lang}): {p}" for where, lang, text in [
        ("quizbank/bank/x.yaml:3 q-one text 1", "en", "As the source says."),
        ("quizbank/bank/x.yaml:9 q-two text 2", "zh", "第三节"),
    ] for p in source_references(text, lang)]
    message = report("no reference to the source texts", found)
    assert message.startswith("2 texts break the rule")
    assert "x.yaml:3 q-one text 1 (en): 'the source'" in message
    assert "x.yaml:9 q-two text 2 (zh): '第三节'" in message
