"""docs/coverage.md states which questions cover which section of the source texts; these tests
keep it true as the bank changes.

The page is read by `coverage_problems(text)`, which returns every way it disagrees with the
bank or links outside the repository (nothing is checked at import, so a page the reader cannot
parse fails a test instead of leaving no test to run). `test_a_broken_page_is_caught` feeds it
broken copies of the page: the check is shown to fail on each kind of mistake it exists to catch.
(The link check used to loop over the page's links, of which there are none: it could not fail.)
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

import quizbank

ROOT = Path(__file__).resolve().parents[2]
COVERAGE = ROOT / "docs" / "coverage.md"
BANK = quizbank.load_bank()
NEW_FILES = ("09_normalization.yaml", "10_initialization.yaml", "11_transformer_depth.yaml",
             "12_seed_gaps.yaml", "14_initialization_depth.yaml",
             "15_normalization_architecture.yaml")
TOPIC_ROWS_AT_LEAST = 36  # 15 interview topics, the seed gaps and the 20 coverage rows of issue 30

_SOURCE_HEADING = re.compile(r"^## `([a-z-]+)`")
_ID = re.compile(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`")


def read_page(text: str):
    """(source rows {(text, section): (citing ids, also ids)}, topic rows' ids, problems)."""
    source_rows: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    topic_rows: list[list[str]] = []
    problems: list[str] = []
    source = None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            match = _SOURCE_HEADING.match(line)
            source = match.group(1) if match else None
            continue
        if not line.startswith("| ") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[0] in ("section", "interviewer's topic"):
            continue
        if source is None:
            topic_rows.append([i for cell in cells[1:] for i in _ID.findall(cell)])
        elif len(cells) != 3:
            problems.append(f"line {number}: a section row needs 3 cells, has {len(cells)}")
        elif (source, cells[0]) in source_rows:
            problems.append(f"line {number}: section listed twice: {(source, cells[0])}")
        else:
            source_rows[(source, cells[0])] = (_ID.findall(cells[1]), _ID.findall(cells[2]))
    return source_rows, topic_rows, problems


def citing_by_section() -> dict[tuple[str, str], set[str]]:
    citing = defaultdict(set)
    for qid, question in BANK.questions.items():
        citing[(str(question.source.text), question.source.section)].add(qid)
    return citing


def bad_links(text: str) -> list[str]:
    """Relative links that leave the repository or name no file. The source texts live outside
    the repository: the page must not link to them as if inside."""
    found = []
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        if re.match(r"[a-z]+://", target):
            continue
        path = (COVERAGE.parent / target).resolve()
        if not (path.is_relative_to(ROOT) and path.exists()):
            found.append(f"a link to {target}, which is not a file of the repository")
    return found


def coverage_problems(text: str) -> list[str]:
    """Every way the page disagrees with the bank, each with what to fix."""
    source_rows, topic_rows, problems = read_page(text)
    problems += bad_links(text)
    texts = {t.value for t in quizbank.enums.SourceText}
    if {source for source, _ in source_rows} != texts:
        problems.append(f"the page's source texts are {sorted({s for s, _ in source_rows})}, "
                        f"the bank's {sorted(texts)}")
    if len(topic_rows) < TOPIC_ROWS_AT_LEAST:
        problems.append(f"the topic table has {len(topic_rows)} rows, "
                        f"not the {TOPIC_ROWS_AT_LEAST} topics")
    listed = [i for citing, also in source_rows.values() for i in citing + also]
    listed += [i for row in topic_rows for i in row]
    if unknown := sorted(set(listed) - set(BANK.questions)):
        problems.append(f"names questions that do not exist: {unknown}")
    if missing := sorted(set(BANK.questions) - set(listed)):
        problems.append(f"add these questions: {missing}")
    citing = citing_by_section()
    if no_row := sorted(set(citing) - set(source_rows)):
        problems.append(f"questions cite sections that have no row: {no_row}")
    for key, (listed_citing, also) in sorted(source_rows.items()):
        actual = citing.get(key, set())
        if len(listed_citing) != len(set(listed_citing)):
            problems.append(f"{key}: an id is listed twice")
        if set(listed_citing) != actual:
            problems.append(f"{key}: move {sorted(actual - set(listed_citing))} into this row's "
                            f"citing column, and out of it {sorted(set(listed_citing) - actual)}"
                            " (they cite another section)")
        if not listed_citing and not also:
            problems.append(f"{key}: no question covers this section")
        if set(listed_citing) & set(also):
            problems.append(f"{key}: an id is in both columns")
    new = {q for q in BANK.questions if Path(BANK.location(q).path).name in NEW_FILES}
    if not_in_table := sorted(new - {i for row in topic_rows for i in row}):
        problems.append(f"questions of the bank files {', '.join(NEW_FILES)} missing from the topic table: "
                        f"{not_in_table}")
    return problems


PAGE = COVERAGE.read_text(encoding="utf-8")


def test_the_page_agrees_with_the_bank():
    problems = coverage_problems(PAGE)
    assert not problems, "docs/coverage.md:\n" + "\n".join(problems)


def _row_of(page: str, start: str) -> str:
    return next(line for line in page.splitlines() if line.startswith(start))


def _broken_pages() -> dict[str, str]:
    """Copies of the page, each with one mistake the check exists to catch."""
    row_33 = _row_of(PAGE, "| 3.3 ")
    row_34 = _row_of(PAGE, "| 3.4 ")
    topic_1 = _row_of(PAGE, "| 1. LayerNorm")
    heading = next(line for line in PAGE.splitlines() if _SOURCE_HEADING.match(line))
    new_question_moved = PAGE.replace(topic_1, topic_1.replace("`iv-layernorm-jacobian`", ""))
    return {  # mistake: (broken page, what the report says)
        "a question left out": (PAGE.replace(row_34, ""), "add these questions"),
        "an id that is no question": (PAGE.replace("`worked-loss`", "`worked-loss-typo`"),
                                      "do not exist"),
        "an id in the wrong section's citing column": (
            PAGE.replace("| `unroll-three-blocks-sum`, ", "| ").replace(
                row_34, row_34.replace("`grad-multiplier-formula`",
                                       "`grad-multiplier-formula`, `unroll-three-blocks-sum`")),
            "into this row's citing column"),
        "an id in both columns": (
            PAGE.replace(row_33, row_33.rstrip(" |") + ", `gen-chain-product` |"), "both columns"),
        "a section listed twice": (PAGE.replace(row_34, row_34 + "\n" + row_34), "listed twice"),
        "a row with a cell missing": (PAGE.replace(row_34, "| 3.4 交互实验：梯度倍率 | `x-y` |"),
                                      "needs 3 cells"),
        "a source heading renamed": (PAGE.replace(heading, heading.replace("`", "")),
                                     "the page's source texts are"),
        "a topic row gone": (PAGE.replace(topic_1, ""),
                             f"the topic table has {TOPIC_ROWS_AT_LEAST - 1} rows"),
        "a link to a source text outside the repository": (
            PAGE.replace(heading, heading + " ([text](../../shared/seeds/000.md))"),
            "not a file of the repository"),
        "a new-file question only in a section row": (
            new_question_moved.replace(row_33, row_33.rstrip(" |") + ", `iv-layernorm-jacobian` |"),
            "missing from the topic table: ['iv-layernorm-jacobian']"),
    }


@pytest.mark.parametrize("mistake", sorted(_broken_pages()))
def test_a_broken_page_is_caught(mistake):
    broken, said = _broken_pages()[mistake]
    assert broken != PAGE, "the mutation did not apply: the page changed under this test"
    problems = coverage_problems(broken)
    assert any(said in problem for problem in problems), (mistake, problems)


@pytest.mark.parametrize(("link", "bad"), [
    ("[seed 000](../../shared/seeds/000.md)", True),  # outside the repository
    ("[a page](no-such-page.md)", True),
    ("[contracts](contracts.md)", False),
    ("[the bank](../quizbank/bank/01_basics.yaml)", False),
    ("[a paper](https://arxiv.org/abs/1512.03385)", False),
])
def test_links_must_point_into_the_repository(link, bad):
    assert bool(bad_links(f"See {link}.")) == bad
