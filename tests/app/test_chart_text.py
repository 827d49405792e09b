"""Every chart has a text alternative (issue 31, WCAG 1.1.1): the numbers it draws, as a table
under it, in the learner's language. The numbers are checked against what the learner did (the
Dashboard) and against the closed forms |a|^n and |1 + a|^n (Explore)."""

from datetime import UTC, datetime

import pytest

from grader import Verdict
from tests.app.learner_fixtures import database_url, open_page  # noqa: F401
from tests.app.shell_helpers import open_app
from tutor.store import NewAttempt


def answer(db, profile, qid, word, when):
    verdict = Verdict(word)
    db.record_attempt(profile.id, NewAttempt(qid, verdict, score=float(verdict is Verdict.CORRECT),
                                             answer="a", phase="first"), now=when)


def tables(at):
    return [t.value for t in at.table]


@pytest.mark.parametrize(("lang", "day", "attempts", "accuracy", "expander"),
                         [("en", "Day", "Attempts", "Accuracy", "The numbers in this chart"),
                          ("zh", "日期", "作答次数", "正确率", "图中的数字")])
def test_each_dashboard_chart_has_its_numbers_as_a_table(
        small_bank, store, open_page, lang, day, attempts, accuracy, expander):  # noqa: F811
    me = store.create_profile("Ada")
    when = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    answer(store, me, "fx-choice", "wrong", when)
    answer(store, me, "fx-numeric", "correct", when)
    answer(store, me, "fx-expression", "correct", when)
    at = open_page("dashboard", lang=lang)
    assert not at.exception
    assert len(at.get("vega_lite_chart")) == 4 and len(at.table) == 4  # one table per chart
    assert [e.label for e in at.expander].count(expander) == 4
    (activity,) = [t for t in tables(at) if list(t.columns) == [day, attempts, accuracy]]
    assert activity.to_dict("records") == [{day: "2026-11-02", attempts: 3, accuracy: "67%"}]


def test_the_explore_multiplier_table_gives_the_closed_form():
    at = open_app("explore", "en")
    at.button_group(key="explore_demo").set_value("multiplier").run()
    at.slider(key="explore_multiplier_a").set_value(0.5)
    at.slider(key="explore_multiplier_depth").set_value(12).run()
    assert not at.exception
    (table,) = tables(at)
    assert len(table) == 12  # depths 1..12, as the chart draws them
    row = table.iloc[9]  # n = 10
    assert int(row.iloc[0]) == 10
    assert float(row.iloc[1]) == pytest.approx(0.5 ** 10, rel=1e-3)  # plain: |a|^n
    assert float(row.iloc[2]) == pytest.approx(1.5 ** 10, rel=1e-3)  # residual: |1 + a|^n


@pytest.mark.parametrize("demo", ["residual", "mlp"])
def test_the_other_explore_charts_have_tables_too(demo):
    at = open_app("explore", "zh")
    at.button_group(key="explore_demo").set_value(demo).run()
    assert not at.exception
    assert len(at.table) == len(at.get("vega_lite_chart")) == 1
    assert at.expander[-1].label == "图中的数字"
