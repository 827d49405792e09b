"""Model -> dict -> YAML -> strict reader -> model gives back an equal question, for every type."""

import math
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from quizbank import BankError, QuestionType, parse_bank
from quizbank.parse import parse_document
from quizbank.yaml_reader import parse_yaml_text

from .conftest import VALID_BANK


def through_yaml(question) -> object:
    data = {"questions": [question.model_dump(mode="json")]}
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    document, problems = parse_yaml_text(text, "roundtrip.yaml")
    assert problems == []
    parsed, problems = parse_document(document.data, document.path, document.lines)
    assert problems == []
    return parsed[0].question


@pytest.mark.parametrize("kind", list(QuestionType))
def test_every_type_round_trips_through_yaml(sample, kind):
    question = parse_bank(
        {"questions": [sample(kind)]}
        if kind != "interview"
        else {"questions": [sample(kind), sample("expression")]}
    ).questions[f"fx-{kind}"]
    assert through_yaml(question) == question


finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
numeric_answers = st.one_of(
    finite,
    st.lists(finite, min_size=1, max_size=5),
    st.integers(1, 4).flatmap(
        lambda width: st.lists(
            st.lists(finite, min_size=width, max_size=width), min_size=1, max_size=4
        )
    ),
)
texts = st.text(st.characters(exclude_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(
    lambda t: t.strip() != ""
)


@settings(max_examples=60, deadline=None)
@given(answer=numeric_answers, zh=texts, en=st.none() | texts)
def test_numeric_answers_and_text_round_trip(sample, answer, zh, en):
    data = sample("numeric")
    data["answer"] = answer
    data["prompt"] = {"zh": zh} if en is None else {"zh": zh, "en": en}
    question = parse_bank({"questions": [data]}).questions["fx-numeric"]
    back = through_yaml(question)
    assert back == question
    assert back.prompt.get("en") == (en if en is not None else zh)


@settings(max_examples=60, deadline=None)
@given(answer=numeric_answers)
def test_answers_with_a_non_finite_entry_are_refused(sample, answer):
    def poison(value):
        if isinstance(value, list):
            return [poison(value[0]), *value[1:]]
        return math.nan

    data = sample("numeric")
    data["answer"] = poison(answer)
    with pytest.raises(BankError, match="must be finite"):
        parse_bank({"questions": [data]})


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text):
    """Whatever the file holds, reading and parsing it gives a result or problems, never a crash."""
    document, problems = parse_yaml_text(text, "any.yaml")
    if document is not None:
        parse_document(document.data, document.path, document.lines)
    else:
        assert problems and all(p.line is not None and p.line >= 1 for p in problems)


yaml_ish = st.lists(
    st.sampled_from(
        [
            "questions:",
            "- ",
            "  ",
            "id: x",
            "!!python/name:os.system",
            "&a",
            "*a",
            "[",
            "]",
            "{",
            "}",
            ": ",
            "\n",
            "<<: ",
            "'",
            '"',
            "type: choice",
            "1e9",
            ".nan",
            "#",
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(yaml_ish)
def test_yaml_like_fragments_never_raise(text):
    document, problems = parse_yaml_text(text, "frag.yaml")
    if document is not None:
        parse_document(document.data, document.path, document.lines)


# Leaves are unique tokens, so the line that holds a leaf is easy to check in the dumped text.
def _nest(leaves):
    return st.recursive(
        leaves,
        lambda children: (
            st.lists(children, min_size=1, max_size=3)
            | st.dictionaries(
                st.from_regex(r"k[a-z]{1,4}", fullmatch=True), children, min_size=1, max_size=3
            )
        ),
        max_leaves=12,
    )


def _leaf_paths(value, path=()):
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _leaf_paths(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _leaf_paths(child, (*path, i))
    else:
        yield path, value


@settings(max_examples=80, deadline=None)
@given(_nest(st.integers(0, 10**6).map(lambda n: f"v{n}")), st.booleans())
def test_line_index_finds_the_line_of_every_value(data, flow):
    text = yaml.safe_dump({"root": data}, default_flow_style=flow, width=60)
    document, problems = parse_yaml_text(text)
    assert problems == [] and document.data == {"root": data}
    lines = text.splitlines()
    for path, leaf in _leaf_paths(data):
        line = document.lines.line_at(["root", *path])
        assert re.search(rf"\b{leaf}\b", lines[line - 1]), (path, line, text)


plain_values = st.recursive(
    st.none() | st.booleans() | st.integers() | finite | st.text(max_size=20) | st.dates(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(plain_values, st.booleans())
def test_reader_builds_what_safe_load_builds(data, flow):
    """The event-driven reader agrees with PyYAML's safe loader on every plain document."""
    text = yaml.safe_dump({"doc": data}, default_flow_style=flow, allow_unicode=True)
    document, problems = parse_yaml_text(text)
    assert problems == []
    assert document.data == yaml.safe_load(text)


@pytest.mark.parametrize(
    "path",
    sorted((Path(__file__).parents[2] / "quizbank" / "bank").rglob("*.yaml"))
    + [VALID_BANK / "all_types.yaml"],
    ids=lambda p: p.name,
)
def test_reader_matches_safe_load_on_real_files(path):
    text = path.read_text(encoding="utf-8")
    document, problems = parse_yaml_text(text, str(path))
    assert problems == [] and document.data == yaml.safe_load(text)
