"""docs/coverage.md states which questions cover which section of the source texts; these tests
keep it true as the bank changes."""

import re
from collections import defaultdict
from pathlib import Path

import pytest

import quizbank

ROOT = Path(__file__).resolve().parents[2]
COVERAGE = ROOT / "docs" / "coverage.md"
BANK = quizbank.load_bank()
NEW_FILES = ("09_normalization.yaml", "10_initialization.yaml", "11_transformer_depth.yaml",
             "12_seed_gaps.yaml", "14_initialization_depth.yaml")

_SOURCE_HEADING = re.compile(r"^## `([a-z-]+)`")
_ID = re.compile(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`")


def _rows() -> tuple[dict[tuple[str, str], tuple[list[str], list[str]]], list[list[str]]]:
    """The source-text rows {(text, section): (citing ids, also ids)} and the other tables' rows."""
    source_rows: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    other_rows: list[list[str]] = []
    text = None
    for line in COVERAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            match = _SOURCE_HEADING.match(line)
            text = match.group(1) if match else None
            continue
        if not line.startswith("| ") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[0] in ("section", "interviewer's topic"):
            continue
        if text is None:
            other_rows.append([i for cell in cells[1:] for i in _ID.findall(cell)])
            continue
        assert len(cells) == 3, line
        key = (text, cells[0])
        assert key not in source_rows, f"section listed twice: {key}"
        source_rows[key] = (_ID.findall(cells[1]), _ID.findall(cells[2]))
    return source_rows, other_rows


SOURCE_ROWS, TOPIC_ROWS = _rows()


def _all_listed_ids() -> list[str]:
    ids = [i for citing, also in SOURCE_ROWS.values() for i in citing + also]
    return ids + [i for row in TOPIC_ROWS for i in row]


def test_the_page_has_the_three_texts_and_the_topic_table():
    assert {text for text, _ in SOURCE_ROWS} == {t.value for t in quizbank.enums.SourceText}
    assert len(TOPIC_ROWS) >= 16  # the 15 interview topics and the seed gaps


def test_every_listed_id_is_a_question():
    unknown = sorted(set(_all_listed_ids()) - set(BANK.questions))
    assert not unknown, f"docs/coverage.md names questions that do not exist: {unknown}"


def test_every_question_is_listed():
    missing = sorted(set(BANK.questions) - set(_all_listed_ids()))
    assert not missing, f"add these questions to docs/coverage.md: {missing}"


def _citing() -> dict[tuple[str, str], set[str]]:
    citing = defaultdict(set)
    for qid, question in BANK.questions.items():
        citing[(str(question.source.text), question.source.section)].add(qid)
    return citing


def test_every_cited_section_has_a_row():
    missing = sorted(set(_citing()) - set(SOURCE_ROWS))
    assert not missing, f"questions cite sections that docs/coverage.md has no row for: {missing}"


@pytest.mark.parametrize("key", sorted(SOURCE_ROWS), ids=lambda k: f"{k[0]}:{k[1]}")
def test_citing_column_is_exactly_the_questions_citing_that_section(key):
    listed, _ = SOURCE_ROWS[key]
    actual = _citing().get(key, set())
    assert len(listed) == len(set(listed)), f"{key}: an id is listed twice"
    assert set(listed) == actual, (
        f"{key}: move {sorted(actual - set(listed))} into this row's citing column, "
        f"and out of it {sorted(set(listed) - actual)} (they cite another section)")


@pytest.mark.parametrize("key", sorted(SOURCE_ROWS), ids=lambda k: f"{k[0]}:{k[1]}")
def test_every_section_has_a_question_and_no_id_twice(key):
    citing, also = SOURCE_ROWS[key]
    assert citing or also, f"{key}: no question covers this section"
    assert not set(citing) & set(also), f"{key}: an id is in both columns"


def test_every_question_of_the_new_files_is_in_the_topic_table():
    new = {q for q in BANK.questions if Path(BANK.location(q).path).name in NEW_FILES}
    in_table = {i for row in TOPIC_ROWS for i in row}
    assert new <= in_table, sorted(new - in_table)


def test_links_point_into_the_repository():
    # The source texts live outside the repository: the page must not link to them as if inside.
    for target in re.findall(r"\]\(([^)#\s]+)", COVERAGE.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+://", target):
            continue
        path = (COVERAGE.parent / target).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), target
