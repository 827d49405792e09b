"""Every learner-facing sentence exists in English and Chinese with the same placeholders."""

import re
import string

import pytest

from grader.messages import MESSAGES, language, message


def placeholders(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_both_languages_with_the_same_placeholders(key):
    entry = MESSAGES[key]
    assert entry["en"].strip() and entry["zh"].strip()
    assert placeholders(entry["en"]) == placeholders(entry["zh"])
    assert re.search(r"[\u4e00-\u9fff]", entry["zh"]), "the zh text should be Chinese"


def test_every_message_key_used_by_the_code_exists():
    from pathlib import Path

    source = "\n".join(p.read_text(encoding="utf-8")
                       for p in Path("grader").rglob("*.py") if p.name != "messages.py")
    used = set(re.findall(r'(?:message|Error|LimitError|ParseError)\(\s*"([a-z_]+)"', source))
    used |= set(re.findall(r'(?:GraderError|EvalError|CannotDecide)\("([a-z_]+)"', source))
    internal = {"derivative_too_large", "matrix_derivative", "partial_derivative",
                "unknown_node", "unknown_function"}  # CannotDecide reasons, never shown
    assert len(used) > 30  # the patterns do find the keys
    missing = sorted(used - set(MESSAGES) - internal)
    assert not missing


def test_missing_placeholder_value_does_not_raise():
    assert message("expected", "en") == MESSAGES["expected"]["en"]


@pytest.mark.parametrize("given, expected", [
    ("zh", "zh"), ("en", "en"), (None, "en"), ("fr", "en"), ("", "en"), (3, "en"),
    (["zh"], "en"), ({"lang": "zh"}, "en"),
])
def test_language_is_zh_or_en(given, expected):
    """The one place a request's `lang` becomes a language: anything unknown is English."""
    assert language(given) == expected
