"""How often the grader agrees with other checkers' own test suites (bench/corpus/peers2/).

Each case of `bench/corpus/peers2/*.jsonl` (built by someone who had not read the grader; see
its README) is one key, one answer and the verdict the peer's test asserts. Every case is sent
to `grader.check` as an expression request with the case's symbols (the corpus states no
tolerance, so numbers are compared as the exact values they are). Printed: per source and per
class, the cases, how many the grader agrees with, separately for the cases that fall under a
convention difference listed in grader/README.md ("Where the grader's conventions differ from
other checkers'") and for the others. Written: `bench/corpus/peers2_disagreements.md`, every
disagreement with the grader's feedback.

    .venv/bin/python bench/peer_agreement.py

Which cases are convention differences is decided by `conventions()` below, one rule per entry
of that list, from the case's class, source, `peer_convention` text and formulas: never from
the grader's verdict. Only the grader's public API is used.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus" / "peers2"
DISAGREEMENTS = HERE / "corpus" / "peers2_disagreements.md"


def load() -> list[dict]:
    return [json.loads(line) for path in sorted(CORPUS.glob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def source_of(case: dict) -> str:
    return case["id"].split("/")[0]


def request(case: dict) -> dict:
    """The grader's request for a corpus case: an expression, the case's symbols, English."""
    return {"id": case["id"], "kind": "expression", "expected": case["expected"],
            "answer": case["answer"], "symbols": case["symbols"], "lang": "en"}


def verdict_of(result) -> str:
    """A `grader.Result` in the corpus's words: partial credit is not "correct"."""
    value = str(result.verdict)
    return "wrong" if value == "partial" else value


# --- the convention differences of grader/README.md, one rule each ---------------------------

def _texts(case: dict) -> str:
    return f"{case['expected']} \u2001 {case['answer']}"


def _standalone(letters: str, text: str) -> bool:
    """`letters` as a name of its own: not inside a longer name, not a LaTeX command."""
    return re.search(rf"(?<![A-Za-z\\]){letters}(?![A-Za-z])", text) is not None


@cache
def _known_names() -> frozenset[str]:
    """The function and constant names the grader reads (grader/README.md, "Notation")."""
    from grader.reading.names import _RESERVED

    return _RESERVED


def _splits_into(run: str, names: frozenset[str]) -> bool:
    """Whether a run of letters is a product of these names (Wx, 2ab)."""
    ends = {0}
    for end in range(1, len(run) + 1):
        if any(start in ends and run[start:end] in names for start in range(end)):
            ends.add(end)
    return len(run) in ends


def _unknown_letter_run(case: dict) -> bool:
    names = _known_names() | frozenset(case["symbols"])
    text = re.sub(r"\\[A-Za-z]+", " ", _texts(case))
    # Function names in capitals (Sin, ArcSin) are the same functions (README, "Notation").
    return any(not _splits_into(run, names) and run.lower() not in _known_names()
               for run in re.findall(r"[A-Za-z]{2,}", text))


def _writes_log_without_base(text: str) -> bool:
    text = re.sub(r"\\?log_\{?[^ ({]+\}?|\\?log10|\\?log\s*\([^()]*,[^()]*\)", " ", text)
    return _standalone(r"\\?log", text) or re.search(r"(?<![A-Za-z])\\log(?![A-Za-z_])", text)


RULES: dict[str, Callable[[dict], bool]] = {
    "real-variables": lambda c: c["class"] == "domain-policy"
    or "positiveContext" in c["peer_convention"],
    "real-domain": lambda c: c["class"] == "domain-policy"
    or any(w in c["peer_convention"] for w in ("real root", "negative base")),
    "log-base": lambda c: any(w in c["peer_convention"]
                              for w in ("log is base 10", "log(x) is base 10", "useBaseTenLog => 1"))
    and bool(_writes_log_without_base(_texts(c))),
    "e-constant": lambda c: any(_standalone(n, _texts(c)) for n in ("E", "I", "i"))
    or (source_of(c) == "isaac" and any(_standalone(n, _texts(c)) for n in ("e", "pi"))),
    "names": _unknown_letter_run,
    "implicit-division": lambda c: source_of(c) == "mathjs"
    and re.search(r"/\s*\d+\.?\d*\s*[A-Za-z(]", _texts(c)) is not None,
    "foreign-names": lambda c: c["class"] in ("foreign-variable", "names-case")
    and source_of(c) in ("perseus", "isaac"),
    "tolerance": lambda c: c["class"] in ("decimals", "high-precision", "numeric-evaluation")
    and any(w in c["peer_convention"] for w in ("tolerance", "relTol", "IEEE double", "tolType",
                                                "_err", "numerically", "numeric")),
    "significant-figures": lambda c: "tolType => 'digits'" in c["peer_convention"],
    "function-names": lambda c: (c["class"] in ("names-functions", "latex-notation")
                                 and source_of(c) in ("perseus", "qtype_formulas"))
    or "other-locale function names" in c["peer_convention"],
    "number-entry": lambda c: "decimal separator follows the learner's locale" in c["peer_convention"]
    or (source_of(c) == "qtype_formulas"
        and ('"' in c["answer"] or re.search(r"\d\s+\.?[\de]", c["answer"]) is not None)),
    "plus-minus": lambda c: c["class"] == "plus-minus",
}


def conventions(case: dict) -> list[str]:
    """The listed convention differences a case falls under (empty: none)."""
    return [name for name, applies in RULES.items() if applies(case)]


# --- grading and tables ------------------------------------------------------------------------

def grade_all(cases: list[dict]) -> list:
    import grader

    return [grader.check(request(case)) for case in cases]


def tally(cases, verdicts, key) -> dict[str, list[int]]:
    """key value -> [cases, agreed, convention cases, convention agreed]."""
    out: dict[str, list[int]] = {}
    for case, got in zip(cases, verdicts, strict=True):
        row = out.setdefault(key(case), [0, 0, 0, 0])
        offset = 2 if conventions(case) else 0
        row[offset] += 1
        row[offset + 1] += got == case["verdict"]
    return out


def _pct(count: int, agreed: int) -> str:
    return f"{100 * agreed / count:.1f}" if count else "–"


def table(rows: dict[str, list[int]], title: str) -> str:
    total = [sum(r[i] for r in rows.values()) for i in range(4)]
    out = [f"| {title} | cases | agreed | % | convention cases | agreed | % |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, (n, a, cn, ca) in [*rows.items(), ("**all**", total)]:
        out.append(f"| {name} | {n} | {a} | {_pct(n, a)} | {cn} | {ca} | {_pct(cn, ca)} |")
    return "\n".join(out)


def _show(text: str) -> str:
    return "`" + text.replace("`", "'") + "`" if text else "(empty)"


def disagreements_markdown(cases, results, verdicts) -> str:
    out = ["# Where the grader disagrees with the peers2 corpus",
           "",
           "Generated by `.venv/bin/python bench/peer_agreement.py` from "
           "`bench/corpus/peers2/*.jsonl`. Do not edit by hand. \"conventions\" names the "
           "entries of grader/README.md's list of convention differences the case falls under "
           "(decided by the case's fields, not by the verdict).",
           "",
           table(tally(cases, verdicts, source_of), "source"),
           "",
           table(tally(cases, verdicts, lambda c: c["class"]), "class"),
           ""]
    for under in (False, True):
        out += ["## " + ("Under a listed convention difference" if under
                         else "Not under a listed convention difference"), ""]
        for case, result, got in zip(cases, results, verdicts, strict=True):
            listed = conventions(case)
            if got == case["verdict"] or bool(listed) != under:
                continue
            feedback = " ".join(str(result.feedback or result.error or "").split())
            symbols = ", ".join(case["symbols"]) or "none"
            out += [f"- **{case['id']}** ({case['class']}; symbols: {symbols}"
                    f"{'; conventions: ' + ', '.join(listed) if listed else ''}): expected "
                    f"{_show(case['expected'])}, answer {_show(case['answer'])}",
                    f"  - peer says **{case['verdict']}**; grader says **{got}**: {feedback}"]
        out.append("")
    return "\n".join(out)


def main() -> int:
    cases = load()
    results = grade_all(cases)
    verdicts = [verdict_of(r) for r in results]
    DISAGREEMENTS.write_text(disagreements_markdown(cases, results, verdicts), encoding="utf-8")
    print(table(tally(cases, verdicts, source_of), "source"))
    print()
    print(table(tally(cases, verdicts, lambda c: c["class"]), "class"))
    print(f"\nwrote {DISAGREEMENTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
