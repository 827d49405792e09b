"""The learner-facing text of bank files 09..12 stands on its own: a learner does not have the
source texts, so no prompt, hint, option or solution sends them to "section 4" or "the source"."""

import re
from pathlib import Path

import pytest

import quizbank

BANK = quizbank.load_bank()
NEW_FILES = ("09_normalization.yaml", "10_initialization.yaml", "11_transformer_depth.yaml",
             "12_seed_gaps.yaml")
_REFERENCE = {
    "en": re.compile(r"(?i)\bsections?[ -]\d|\bthe (?:first |second |third )?sources?\b|\bsource texts?\b"),
    "zh": re.compile(r"源文本|原文|第[一二三四五六七八九十\d]+节|第[一二三]篇"),
}


def _texts():
    for qid, question in BANK.questions.items():
        if Path(BANK.location(qid).path).name not in NEW_FILES:
            continue
        for field in question.localized_fields():
            for lang in ("zh", "en"):
                yield qid, lang, getattr(field, lang)


@pytest.mark.parametrize(("qid", "lang", "text"), list(_texts()))
def test_no_reference_to_a_text_the_learner_does_not_have(qid, lang, text):
    found = _REFERENCE[lang].search(text)
    assert found is None, f"{qid} ({lang}): '{found.group(0)}'"


@pytest.mark.parametrize("pattern, text", [
    ("en", "Recall the projection shortcut of section 6.4."),
    ("en", "The source suggests zero gamma."),
    ("zh", "第四节的例子"),
    ("zh", "源文本建议"),
])
def test_a_reference_is_found(pattern, text):
    assert _REFERENCE[pattern].search(text)
