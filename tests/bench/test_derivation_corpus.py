"""bench/derivation_corpus.py reads the corpus format and counts what it should."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import derivation_corpus  # noqa: E402 - needs the path above

ENTRIES = Path(__file__).parent / "derivation_corpus" / "two_entries.yaml"


def test_two_entries_agree_per_class():
    reports = derivation_corpus.run(derivation_corpus.load_entries([ENTRIES]))
    assert {name: (r.derivations, r.agreeing, r.broken_verified)
            for name, r in reports.items()} == {"sums_products": (1, 1, 0),
                                                "indexed_layers": (1, 1, 0)}


def test_a_broken_line_the_grader_verifies_is_counted():
    entries = derivation_corpus.load_entries([ENTRIES])
    # A right line the right variant does not have, recorded as broken: a line the grader
    # verifies where the corpus expects it to fail.
    entries[0]["broken"]["lines"] = ["\\frac{n^2+n}{2}"]
    entries[0]["broken"]["expected"] = ["does_not_follow"]
    report = derivation_corpus.run(entries[:1])["sums_products"]
    assert (report.agreeing, report.broken_verified) == (0, 1)
    assert "sums_products" in derivation_corpus.table({"sums_products": report})


def test_part_two_declarations_reach_the_request():
    """Issue 25's corpus declares random variables (and vectors): they are sent to the grader."""
    entry = {"class": "moments", "declare": {"random": ["x", "f"], "independent": [["x", "f"]],
                                             "zero_mean": ["f"]},
             "right": {"lines": ["\\operatorname{Var}(x+f)",
                                 "\\operatorname{Var}(x)+\\operatorname{Var}(f)"],
                       "expected": ["verified", "verified"]}}
    request = derivation_corpus.request_for(entry, entry["right"])
    assert (request["random"], request["independent"], request["zero_mean"]) == (
        ["x", "f"], [["x", "f"]], ["f"])
    report = derivation_corpus.run([entry])["moments"]
    assert (report.derivations, report.agreeing) == (1, 1)
