"""How the shipped bank's text renders: checks on the Markdown the pages show."""

import pytest

import quizbank

BANK = quizbank.load_bank()


def _texts():
    for qid, question in BANK.questions.items():
        for field in question.localized_fields():
            for lang in ("zh", "en"):
                text = getattr(field, lang)
                if text:
                    yield qid, lang, text


@pytest.mark.parametrize(("qid", "lang", "text"), list(_texts()))
def test_display_math_stands_in_its_own_paragraph(qid, lang, text):
    # Regression: "$$…$$" followed directly by a line of prose rendered the formula inline,
    # run together with the sentence after it.
    lines = text.split("\n")
    for line, following in zip(lines, lines[1:], strict=False):
        stripped = line.strip()
        if stripped.startswith("$$") and stripped.endswith("$$") and len(stripped) > 4:
            assert not following.strip() or following.strip().startswith("$$"), (qid, lang, line)
