"""AppTest of input limits (issue 16, item 7): a number box refuses an out-of-range or unreadable
value with a message in the learner's language (the chart keeps the seed the message names), and
interview answers have a length limit with a counter."""

import pytest

from app_pages.widgets.answer_inputs import MAX_INTERVIEW_ANSWER
from app_pages.widgets.number_box import parse_whole
from tests.app.learner_fixtures import database_url  # noqa: F401
from tests.app.shell_helpers import open_app


def mlp_metric(at) -> str:
    return next(m.value for m in at.metric if m.label.startswith(("Plain, at the input", "普通")))


@pytest.mark.parametrize(
    ("lang", "refused"),
    [("en", "Type a whole number from 0 to 9,999. Still using 7."),
     ("zh", "请输入 0 到 9,999 之间的整数。仍在使用 7。")],
)
@pytest.mark.parametrize("typed", ["99999999999999999999", "1e9", "-1", "seven"])
def test_the_explore_seed_box_refuses_a_value_it_cannot_use(lang, refused, typed):
    at = open_app("explore", lang)
    at.button_group(key="explore_demo").set_value("mlp").run()
    at.slider(key="explore_mlp_depth").set_value(6)
    at.text_input(key="explore_mlp_seed").input("7").run()
    assert not at.error
    with_seven = mlp_metric(at)
    at.text_input(key="explore_mlp_seed").input(typed).run()
    assert not at.exception
    assert [e.value for e in at.error] == [refused]
    assert mlp_metric(at) == with_seven  # the chart uses the seed the message names
    at.text_input(key="explore_mlp_seed").input("8").run()
    assert not at.error


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), (" 9999 ", 9999), ("1,234", 1234), ("10000", None), ("1e9", None), ("", None),
     ("٣", None), ("-0", 0), ("+5", 5), ("1.0", None), ("9" * 40, None)],
)
def test_parse_whole(text, value):
    assert parse_whole(text, 0, 9999) == value


def test_interview_answers_have_a_limit_with_a_counter(database_url):  # noqa: F811
    at = open_app("practice", "en", q="iv-what-does-residual-solve")
    (box,) = at.text_area
    assert box.max_chars == MAX_INTERVIEW_ANSWER == 4000  # Streamlit shows "n/4000" as one types
    assert "Up to 4,000 characters" in box.help
    at = open_app("practice", "zh", q="iv-what-does-residual-solve")
    assert "最多 4,000 个字符" in at.text_area[0].help
