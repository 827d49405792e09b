"""The question list: each question's status for the current profile, filters, search in both
languages, and links that open the question in Practice."""

from datetime import timedelta
from urllib.parse import parse_qs

import pytest

from grader import Verdict
from tests.app.learner_bank import fixture_bank
from tests.app.learner_fixtures import database_url  # noqa: F401
from tests.app.test_profiles import shell
from tutor.review import CardState
from tutor.sessions.question_list import Status, matches, question_rows, search_text, status_of
from tutor.store import NewAttempt, utc_now

NOW = utc_now()
BANK = fixture_bank()


def card(qid, rating, due_in_days):
    return CardState(qid, state=2, step=None, stability=1.0, difficulty=5.0,
                     due=NOW + timedelta(days=due_in_days), last_review=NOW - timedelta(days=1),
                     reps=1, last_rating=rating)


@pytest.mark.parametrize(
    ("card_", "status"),
    [(None, Status.NEW), (card("q", None, 1), Status.NEW), (card("q", 1, 1), Status.WRONG),
     (card("q", 2, 1), Status.CORRECT), (card("q", 3, 1), Status.CORRECT),
     (card("q", 4, 1), Status.CORRECT)],
)
def test_status_comes_from_the_card_moved_by_the_first_try(card_, status):
    assert status_of(card_) is status


@pytest.mark.parametrize(
    ("query", "found"),
    [("identity", True), ("IDENTITY  term", True), ("恒等", False), ("题目 fx-choice", True),
     ("Question fx-choice", True), ("Ｑｕｅｓｔｉｏｎ", True), ("", True), ("identity nothing", False)],
)
def test_search_reads_both_languages_the_id_and_the_tags(query, found):
    question = BANK.questions["fx-choice"]
    haystack = search_text(question) + " identity term"
    assert matches(haystack, query) is found


def test_rows_follow_the_status_filter_and_the_due_time():
    cards = [card("fx-choice", 3, -1), card("fx-numeric", 1, 2), card("fx-expression", 3, 4)]
    rows = {r.question_id: r for r in question_rows(BANK, cards, now=NOW)}
    assert len(rows) == len(BANK.questions)
    assert rows["fx-choice"].status is Status.CORRECT and rows["fx-choice"].due_now
    assert rows["fx-numeric"].status is Status.WRONG and not rows["fx-numeric"].due_now
    assert rows["fx-ordering"].status is Status.NEW and rows["fx-ordering"].due is None

    def ids(*statuses):
        return [r.question_id for r in question_rows(BANK, cards, now=NOW, statuses=statuses)]

    assert ids("due") == ["fx-choice"]
    assert ids("wrong") == ["fx-numeric"]
    assert ids("correct") == ["fx-choice", "fx-expression"]
    assert ids("new", "wrong") == ["fx-numeric", "fx-derivation", "fx-ordering", "fx-interview"]


# ---- the page -----------------------------------------------------------------------------


def question_links(at) -> list:
    """The list's links (each opens a question: `?q=`), not the sidebar menu's page links."""
    return [link for link in at.get("page_link") if "q" in parse_qs(link.proto.query_string)]


def links(at) -> list[dict]:
    return [parse_qs(link.proto.query_string) | {"label": link.proto.label}
            for link in question_links(at)]


@pytest.mark.parametrize(("lang", "query"), [("en", "残差流"), ("zh", "highway")])
def test_search_in_the_other_language(store, lang, query):
    at = shell("questions", lang)
    assert len(question_links(at)) == 30 and at.button(key="questions.more")
    at = at.text_input(key="questions.query").input(query).run()
    shown = len(question_links(at))
    assert 0 < shown < 30
    assert not at.exception


def test_status_and_links_for_the_current_profile(store):
    ada = store.create_profile("Ada")
    store.record_attempt(ada.id, NewAttempt("basics-residual-block-form", Verdict.CORRECT, score=1.0))
    at = shell("questions", "en")
    at = at.multiselect(key="questions.statuses").set_value(["correct"]).run()
    (link,) = links(at)
    assert link["q"] == ["basics-residual-block-form"]
    assert link["lang"] == ["en"] and link["profile"] == [str(ada.id)]  # a new tab keeps the frame
    assert "$" not in link["label"]
    assert any(m.value.startswith(":green-badge[Correct]") for m in at.markdown)
    assert any("next review on" in c.value for c in at.caption)


def test_show_more_then_nothing_matches(store):
    at = shell("questions", "zh")
    at = at.button(key="questions.more").click().run()
    assert len(question_links(at)) == 60
    at = at.text_input(key="questions.query").input("no such words anywhere").run()
    assert question_links(at) == []
    assert at.info[0].value.startswith("没有符合条件的题目")


# ---- the search index follows the live bank (issue 22's blocker) ------------------------------
QUESTION_YAML = """\
questions:
  - id: {qid}
    type: numeric
    topic: worked-example
    difficulty: easy
    source: {{text: gradient-propagation, section: "6.4"}}
    prompt: {{zh: "{zh}", en: "{en}"}}
    solution: {{zh: "解", en: "Solution"}}
    answer: 1.5
    tolerance: {{kind: relative, value: 1.0e-3}}
"""


def _save(folder, name, qid, zh, en):
    # as the Author page saves: a temporary file renamed over the old one
    folder.mkdir(exist_ok=True)
    tmp = folder / f".{name}.tmp"
    tmp.write_text(QUESTION_YAML.format(qid=qid, zh=zh, en=en), encoding="utf-8")
    tmp.replace(folder / name)


def _found(index, cache, query):
    bank = cache.current().bank
    return [r.question_id for r in question_rows(bank, [], now=NOW, query=query,
                                                 haystacks=index.haystacks(bank))]


def test_the_search_index_follows_a_bank_folder_that_changes(tmp_path):
    """The index was built once per server: a question saved afterwards made every search raise
    KeyError. It must find new and edited questions in both languages, with no restart."""
    from quizbank import SHIPPED_BANK, BankCache
    from tutor.sessions.question_list import SearchIndex

    mine = tmp_path / "mine"
    mine.mkdir()
    cache, index = BankCache([SHIPPED_BANK, mine]), SearchIndex()
    assert _found(index, cache, "zebra") == []  # the index is built for the bank as it was
    first = index.haystacks(cache.current().bank)
    assert index.haystacks(cache.current().bank) is first  # nothing changed: not rebuilt

    _save(mine, "new.yaml", "my-new-q", "斑马的梯度", "the zebra gradient")
    assert _found(index, cache, "zebra") == ["my-new-q"]
    assert _found(index, cache, "斑马") == ["my-new-q"]
    assert _found(index, cache, "the") != []  # every other question still searchable

    _save(mine, "new.yaml", "my-new-q", "长颈鹿的梯度", "the giraffe gradient")  # edited
    assert _found(index, cache, "zebra") == [] and _found(index, cache, "斑马") == []
    assert _found(index, cache, "giraffe") == ["my-new-q"]
    assert _found(index, cache, "长颈鹿") == ["my-new-q"]

    (mine / "new.yaml").unlink()  # removed
    assert _found(index, cache, "giraffe") == []
