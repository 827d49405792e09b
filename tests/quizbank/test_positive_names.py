"""Issue 29 item 7: `quizbank validate` warns, with `file:line`, where a variable is only
meaningful when positive and not declared so (the rule: quizbank/positive_names.py)."""

from __future__ import annotations

import pytest
import yaml

from quizbank import load_bank
from quizbank.cli import main
from quizbank.positive_names import bank_positive_warnings, named_positive


def expression_question(**fields) -> dict:
    question = {"id": "q", "type": "expression", "topic": "initialization",
                "difficulty": "easy", "source": {"text": "why-residual-works", "section": "1"},
                "prompt": {"zh": "写出。", "en": "Write it."},
                "solution": {"zh": "见答案", "en": "see the answer"}, "answer": "x"}
    question.update(fields)
    return question


def warnings_for(tmp_path, **fields):
    path = tmp_path / "bank.yaml"
    path.write_text(yaml.safe_dump({"questions": [expression_question(**fields)]},
                                   default_flow_style=None,
                                   allow_unicode=True), encoding="utf-8")
    return path, bank_positive_warnings(load_bank(path))


def test_the_shipped_bank_declares_every_positive_quantity():
    assert [str(w) for w in bank_positive_warnings(load_bank())] == []


@pytest.mark.parametrize("name", ["sigma", "var_x", "n_in", "fan_out", "d_model", "eta", "lr",
                                  "L", "eps"])
def test_names_of_positive_quantities(name):
    assert named_positive(name)


@pytest.mark.parametrize("name", ["x", "a", "alpha", "gamma", "mu", "y_1", "cov", "w"])
def test_other_names_may_take_either_sign(name):
    assert not named_positive(name)


def test_a_standard_deviation_not_declared_positive_is_warned_with_its_line(tmp_path, capsys):
    path, found = warnings_for(tmp_path, symbols=["x", "sigma"], answer="x/sigma")
    assert [(w.name, w.question_id) for w in found] == [("sigma", "q")]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[found[0].line - 1].lstrip().startswith("symbols:")
    assert main(["validate", str(path)]) == 0  # a warning, not an error
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"warning: {path}:{found[0].line}: q: sigma ")
    assert "declare `positive: [sigma]`" in out[0]
    assert out[-1].endswith("no problems, 1 warning")


@pytest.mark.parametrize(("answer", "warned"), [
    ("\\sqrt{2/k}", ["k"]),  # real only for k > 0
    ("\\log(k) + x", ["k"]),
    ("\\sqrt{k^3 x^2}", ["k"]),  # an odd power of k, an even one of x
    ("\\sqrt{1 + k^2}", []),  # real for every k
    ("\\ln(k^2)", []),
    ("k x", []),
])
def test_a_name_under_a_root_or_a_logarithm_is_warned(tmp_path, answer, warned):
    _, found = warnings_for(tmp_path, symbols=["x", "k"], answer=answer)
    assert [w.name for w in found] == warned


def test_declared_domains_and_integer_counts_are_not_warned(tmp_path):
    _, found = warnings_for(tmp_path, symbols=["x", "sigma", "d"], positive=["sigma"],
                            nonnegative=["d"], answer="x/(sigma d)")
    assert found == []
    _, found = warnings_for(tmp_path, symbols=["x"], integers=["n"], answer="n x")
    assert found == []  # a bound or a count may be 0 (an empty sum)


def test_the_text_derivations_declare_every_positive_quantity():
    from quizbank.positive_names import question_positive_warnings
    from quizbank.text_derivations import text_derivations

    found = [w for d in text_derivations().values()
             for w in question_positive_warnings(d, "text_derivations.yaml", lambda parts: None)]
    assert found == []
