"""AppTest of the dashboard's history (issue 16, item 1): the table of answers opens an answer and
its question again, dates show the year when the history spans years, "Attempts" and "Accuracy"
count the same attempts, and the per-question table."""

from datetime import UTC, datetime

from app_pages.widgets.attempt_history import TABLE_KEY
from grader import Verdict
from tests.app.learner_fixtures import database_url, open_page, texts  # noqa: F401
from tests.app.test_profiles import shell
from tutor.store import NewAttempt


def answer(db, profile, qid, verdict, when, text="a", phase="first"):
    db.record_attempt(profile.id, NewAttempt(qid, Verdict(verdict), score=float(verdict == "correct"),
                                             answer=text, phase=phase), now=when)


def test_a_selected_row_opens_the_answer_and_the_question(small_bank, store, open_page):  # noqa: F811
    me = store.create_profile("Ada")
    answer(store, me, "fx-expression", "wrong", datetime(2026, 11, 2, 9, 30, tzinfo=UTC),
           text="**not markdown** <b>x</b>")
    answer(store, me, "fx-choice", "correct", datetime(2026, 11, 3, 10, 0, tzinfo=UTC))
    at = shell("dashboard", profile=me.id)  # the whole app: the link to Practice resolves
    (table,) = [d for d in at.dataframe if d.key == TABLE_KEY]
    assert list(table.value["When"]) == ["11-03 10:00", "11-02 09:30"]  # newest first, same year
    at.session_state[TABLE_KEY] = {"selection": {"rows": [1], "columns": []}}
    at.run()
    assert not at.exception
    assert [c.value for c in at.code] == ["**not markdown** <b>x</b>"]  # as typed, plain text
    assert any("Question fx-expression" in m for m in texts(at.markdown))
    assert any(c.value.startswith("11-02 09:30 · Not quite · First try") for c in at.caption)


def test_dates_show_the_year_when_the_history_spans_years(small_bank, store, open_page):  # noqa: F811
    me = store.create_profile("Ada")
    answer(store, me, "fx-choice", "wrong", datetime(2025, 12, 31, 12, 0, tzinfo=UTC))
    answer(store, me, "fx-choice", "correct", datetime(2026, 1, 2, 12, 0, tzinfo=UTC))
    at = open_page("dashboard")
    (table,) = [d for d in at.dataframe if d.key == TABLE_KEY]
    assert list(table.value["When"]) == ["2026-01-02 12:00", "2025-12-31 12:00"]


def test_dates_show_the_year_when_it_is_not_this_one(small_bank, store, open_page):  # noqa: F811
    # Issue 22: a history all in an earlier year showed "01-19 01:19", which reads as this January.
    me = store.create_profile("Ada")
    answer(store, me, "fx-choice", "wrong", datetime(2025, 1, 19, 1, 19, tzinfo=UTC))
    answer(store, me, "fx-numeric", "correct", datetime(2025, 1, 20, 8, 0, tzinfo=UTC))
    at = open_page("dashboard")
    (table,) = [d for d in at.dataframe if d.key == TABLE_KEY]
    assert list(table.value["When"]) == ["2025-01-20 08:00", "2025-01-19 01:19"]
    (history,) = [d for d in at.dataframe if "First try" in d.value.columns]
    assert set(history.value["Last seen"]) == {"2025-01-20", "2025-01-19"}


def test_attempts_and_accuracy_count_the_same_attempts(small_bank, store, open_page):  # noqa: F811
    me = store.create_profile("Ada")
    when = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    answer(store, me, "fx-choice", "wrong", when)
    answer(store, me, "fx-choice", "correct", when, phase="retry")  # history, not an attempt
    answer(store, me, "fx-numeric", "correct", when)
    at = open_page("dashboard")
    assert [m.value for m in at.metric][:2] == ["2", "50%"]
    (history,) = [d for d in at.dataframe if "First try" in d.value.columns]
    rows = history.value.set_index("Question")
    choice = rows.loc["Question fx-choice"]
    assert (choice["Attempts"], choice["First try"], choice["Latest"]) == (1, "Not quite", "Not quite")
    assert choice["Next review"] != "—"


def test_the_history_is_in_chinese_too(small_bank, store, open_page):  # noqa: F811
    me = store.create_profile("Ada")
    answer(store, me, "fx-choice", "correct", datetime(2026, 11, 2, 9, 0, tzinfo=UTC))
    at = open_page("dashboard", lang="zh")
    (table,) = [d for d in at.dataframe if d.key == TABLE_KEY]
    assert list(table.value.columns) == ["时间", "题目", "结果", "第几次", "来源"]
    assert list(table.value["结果"]) == ["正确"]


def test_chart_days_show_the_year_only_when_they_span_years():
    import pandas as pd

    from app_pages.widgets.dashboard_charts import _day_label

    one_year = pd.DataFrame({"day": pd.to_datetime(["2026-01-02", "2026-03-04"])})
    two_years = pd.DataFrame({"day": pd.to_datetime(["2025-12-31", "2026-01-02"])})
    assert list(_day_label(one_year)["label"]) == ["01-02", "03-04"]
    assert list(_day_label(two_years)["label"]) == ["2025-12-31", "2026-01-02"]


def test_the_attempts_axis_counts_whole_attempts():
    import pandas as pd

    from app_pages.widgets.dashboard_charts import activity_chart

    daily = pd.DataFrame({"day": pd.to_datetime(["2026-01-02"]), "attempts": [1], "graded": [1],
                          "correct": [1], "accuracy": [1.0]})
    bars = activity_chart(daily).to_dict()["layer"][0]["encoding"]["y"]["axis"]
    assert bars["tickMinStep"] == 1 and bars["format"] == "d"  # it showed 0.2, 0.4, …


def test_the_drawn_charts_are_valid_vega_lite_with_their_data(small_bank, store, open_page):  # noqa: F811
    # The page draws its charts without Altair's validation (`dashboard_charts.draw`): the
    # specs it sends are checked against the Vega-Lite schema here instead, and each carries
    # its data (Arrow datasets) and no 300 px view size from Altair's default theme.
    import json

    import jsonschema
    from altair.vegalite.v6.schema import load_schema

    me = store.create_profile("Ada")
    answer(store, me, "fx-choice", "wrong", datetime(2026, 11, 2, 9, 0, tzinfo=UTC))
    answer(store, me, "fx-expression", "correct", datetime(2026, 11, 3, 9, 0, tzinfo=UTC))
    at = open_page("dashboard")
    charts = at.get("vega_lite_chart")
    assert len(charts) == 4
    for chart in charts:
        spec = json.loads(chart.proto.spec)
        jsonschema.validate(spec, load_schema())
        assert "config" not in spec
        assert chart.proto.datasets and all(d.data.data for d in chart.proto.datasets)
