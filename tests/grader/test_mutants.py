"""`grader.mutants`: wrong answers derived from a key's tree, printed as text the grader reads."""

import json
from pathlib import Path

import pytest

import grader
from grader.errors import ParseError
from grader.reading.parser import parse
from grader.reading.printer import to_text
from quizbank import load_bank
from quizbank.question_types import DECLARATION_FIELDS
from tests.grader.test_tree_walks import NODE_TYPES, SAMPLES

CORPUS = Path(__file__).parents[2] / "bench" / "corpus" / "answers.jsonl"


def same(expected: str, answer: str, **declared) -> bool:
    return grader.check({"kind": "expression", "expected": expected, "answer": answer,
                         **declared}).correct


def test_every_node_type_prints():
    assert set(SAMPLES) == set(NODE_TYPES)
    for node in SAMPLES.values():
        assert to_text(node)


def formulas():
    """Every formula key and step of the bank, and the corpus's formula answers, with their
    declarations."""
    found = []
    for q in load_bank():
        # the whole declaration schema (issue 25: vectors, families of vectors, relations)
        declared = {name: list(getattr(q, name, []) or []) for name in DECLARATION_FIELDS}
        for text in [getattr(q, "answer", None) if q.type == "expression" else None,
                     getattr(q, "target", None), *getattr(q, "steps", [])]:
            if isinstance(text, str):
                found.append((text, declared))
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if case.get("kind") == "expression":
            declared = {name: case.get(name, []) for name in ("symbols", "functions", "matrices")}
            found.append((case["expected"], declared))
    return found


@pytest.mark.parametrize("text, declared", formulas(), ids=lambda x: x if isinstance(x, str) else "")
def test_printing_reads_back_as_the_same_formula(text, declared):
    from grader.reading.names import Declarations

    node, _ = parse(text, Declarations.of(**declared))
    printed = to_text(node)
    assert same(text, printed, **declared), printed
    again, _ = parse(printed, Declarations.of(**declared))
    assert to_text(again) == printed  # printing is stable


def test_the_mutants_of_a_transposed_jacobian():
    found = dict((text, kind) for kind, text in
                 grader.mutants("(I + W)^T g", matrices=["W", "g"]))
    assert found["(I + W) * g"] == "drop_transpose"
    assert found["W^T * g"] == "drop_identity"
    assert found["g * (I + W)^T"] == "swap_factors"
    assert found["(I + W^T)^T * g"] == "add_transpose"
    assert found["(I - W)^T * g"] == "flip_sign"
    for text in found:
        assert not same("(I + W)^T g", text, matrices=["W", "g"]), text


@pytest.mark.parametrize("key, declared, kind, mutant", [
    ("1 + F'(x)", {"symbols": ["x"], "functions": ["F"]}, "drop_term", "F'(x)"),
    ("1 + F'(x)", {"symbols": ["x"], "functions": ["F"]}, "flip_sign", "-1 + F'(x)"),
    ("x^2", {"symbols": ["x"]}, "exponent_up", "x^3"),
    ("x^2", {"symbols": ["x"]}, "exponent_down", "x^1"),
    ("x", {"symbols": ["x"]}, "flip_sign", "-x"),
    ("(I + J_2)*(I + J_1)", {"matrices": ["J_1", "J_2"]}, "swap_factors", "(I + J_1) * (I + J_2)"),
])
def test_mutant_table(key, declared, kind, mutant):
    assert (kind, mutant) in grader.mutants(key, **declared)


def test_mutants_are_distinct_and_never_the_key():
    key = "x + x"
    found = grader.mutants(key, symbols=["x"])
    texts = [text for _, text in found]
    assert len(texts) == len(set(texts))
    assert "x + x" not in texts


def test_an_unreadable_key_raises_the_parse_error():
    with pytest.raises(ParseError):
        grader.mutants("(I + W", matrices=["W"])
