"""Issue 24: hostile derivations are refused or bounded with a clear message, in both languages.

Every bound is a count (terms, nesting levels, characters, lines, relation steps), never a clock:
no test here times anything (bench/bench_hostile_lines.py measures the worst times)."""

import pytest

import grader

RESIDUAL = {"functions": ["F"], "families": ["x", "F"], "integers": ["L", "l", "n"],
            "relations": ["x_{l+1} = x_l + F_l(x_l)"]}


def check(answer, lang="en", **declared):
    return grader.check({"kind": "derivation", "answer": answer, "lang": lang, **declared})


@pytest.mark.parametrize(("answer", "declared", "status", "words"), [
    ([r"\sum_{i=1}^{10^{9}} i", "5"], {}, "unreadable",
     "the sum or product has too many terms to check (limit 1000)"),
    ([r"\prod_{i=1}^{2000} 2", "2^{2000}"], {}, "unreadable",
     "the sum or product has too many terms to check (limit 1000)"),
    ([r"\sum_{i=1}^{10^9 n} i", r"\frac{n(n+1)}{2}"], {}, "cannot_decide",
     "need more than 1000 terms at the values checked"),
    ([r"\sum_{a=1}^{n}\sum_{b=1}^{n}\sum_{c=1}^{n}\sum_{d=1}^{n}\sum_{e=1}^{n} 1", "n^5"], {},
     "unreadable", "nested too deeply (more than 4)"),
    (["(" * 200 + "x" + ")" * 200, "x"], {}, "unreadable",
     "nested too deeply (more than 60 levels)"),
    (["x_{1000}", r"x_0 + \sum_{i=0}^{999} F_i(x_i)"], RESIDUAL, "cannot_decide",
     "index is too large to compute from its relation (limit 64)"),
])
def test_a_hostile_line_gets_its_bound_in_the_message(answer, declared, status, words):
    result = check(answer, **declared)
    flagged = [s for s in result.steps if s.status.value == status]
    assert flagged and words in flagged[0].feedback, result.steps


def test_a_line_bounded_by_the_relation_reads_as_one_sentence():
    result = check(["x_{1000}", r"x_0 + \sum_{i=0}^{999} F_i(x_i)"], **RESIDUAL)
    assert result.steps[1].feedback.startswith("Line 2 could not be checked: a member's index")
    zh = check(["x_{1000}", r"x_0 + \sum_{i=0}^{999} F_i(x_i)"], lang="zh", **RESIDUAL)
    assert zh.steps[1].feedback.startswith("第 2 行无法验证：")


@pytest.mark.parametrize(("lang", "words"), [("en", "at most 10000 are checked at once"),
                                              ("zh", "一次最多检查 10000 个")])
def test_a_pasted_block_over_10000_characters_is_refused_not_cut(lang, words):
    """Cut at 10,000 characters, a wrong line after the cut would go unseen and the derivation
    would count as right."""
    block = "x + x = 2x\n" * 920 + "2x = 3x"  # 10,127 characters; the wrong line is last
    result = check(block, lang=lang, symbols=["x"])
    assert result.verdict.value == "unreadable" and words in result.error
    assert not result.steps


@pytest.mark.parametrize(("answer", "lang", "words"), [
    (["x + x", *["2x"] * 40, "3x"], "en", "The derivation has 42 lines; at most 40"),
    (" = ".join(["x + x"] * 300), "en", "The derivation has 300 lines; at most 40"),
    ([" = ".join(["x + x"] * 41)], "zh", "推导共有 41 行，一次最多检查 40 行"),
])
def test_more_lines_than_are_checked_are_refused_not_cut(answer, lang, words):
    """Before, lines past the 40th were dropped: a derivation whose 42nd line is wrong was
    'every line follows'."""
    result = check(answer, lang=lang, symbols=["x"])
    assert result.verdict.value == "unreadable" and words in result.error
    assert not result.correct


def test_an_undecided_line_with_members_is_not_sent_to_the_contained_worker():
    """The symbolic check declines family members (it knows no relation): such a line is
    "cannot decide" in-process, not after the worker's start (seconds when it is cold) and its
    answer that it cannot either. Before, this raised NeedsWorker."""
    from grader.kinds.request import grade_request

    request = {"kind": "derivation", "lang": "en", **RESIDUAL,
               "answer": ["x_{64}", r"x_0 + \sum_{i=0}^{63} F_i(x_i)"]}
    result = grade_request(request, symbolic=False)
    assert [s.status.value for s in result.steps] == ["verified", "cannot_decide"]
