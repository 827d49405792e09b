"""AppTest of the mock interview's time limit choice (issue 31, WCAG 2.2.1): before it starts,
the learner can turn the limit off or make it ten times longer; an untimed interview shows no
clock and submits nothing on its own, however long the learner takes."""

from dataclasses import replace
from datetime import timedelta

import pytest

from app_pages.state import PROFILE_KEY, profile_key
from tests.app.learner_fixtures import button, database_url, open_page  # noqa: F401
from tests.app.shell_helpers import profile_state

START = {"en": "Start the interview", "zh": "开始面试"}


def start(open_page, lang, timing, minutes=2):  # noqa: F811
    at = open_page("interview", lang=lang)
    at.slider(key="interview.count").set_value(1)
    at.slider(key="interview.minutes").set_value(minutes)
    at.radio(key="interview.timing").set_value(timing)
    return button(at, START[lang]).click().run()


def session_of(at):
    return profile_state(at, "interview.session")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_choice_is_offered_in_the_learners_language(small_bank, database_url, open_page, lang):  # noqa: F811
    at = open_page("interview", lang=lang)
    radio = at.radio(key="interview.timing")
    shown = [radio.format_func(o) for o in radio.options]
    expected = {"en": ["As set above", "Ten times longer", "No time limit"],
                "zh": ["按上面的设置", "延长为十倍", "不限时"]}[lang]
    assert shown == expected
    assert radio.value == "as_set"  # the default keeps today's interview


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ten_times_longer_gives_ten_times_the_minutes(small_bank, database_url, open_page, lang):  # noqa: F811
    at = start(open_page, lang, "ten_times", minutes=2)
    assert not at.exception
    assert session_of(at).time_limit_seconds == 2 * 60 * 10


def test_as_set_keeps_the_minutes_chosen(small_bank, database_url, open_page):  # noqa: F811
    at = start(open_page, "en", "as_set", minutes=3)
    assert session_of(at).time_limit_seconds == 3 * 60


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_untimed_interview_has_no_clock_and_never_submits_by_itself(
        small_bank, database_url, open_page, lang):  # noqa: F811
    at = start(open_page, lang, "off")
    assert not at.get("progress")  # no clock
    assert any(
        c.value == {"en": "No time limit: take the time you need.", "zh": "不限时：按你需要的时间作答。"}[lang]
        for c in at.caption)
    at.text_area[0].input("The identity path keeps the gradient.")
    # Ten hours later (longer than any limit the sliders allow, even ten times over):
    session = session_of(at)
    key = profile_key("interview.session", at.session_state[PROFILE_KEY])
    shown = replace(session.current, started_at=session.current.started_at - 10 * 3600)
    at.session_state[key] = replace(session, started_at=session.started_at - timedelta(hours=10),
                                    sessions=(shown,))
    at = at.run()
    assert not at.exception
    assert not at.warning  # no "time ran out"
    assert session_of(at).stage == "answer" and at.text_area  # still answering, nothing submitted
