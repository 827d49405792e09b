"""AppTest of input limits (issue 16, item 7): a number box refuses an out-of-range or unreadable
value with a message in the learner's language (the chart keeps the seed the message names), and
interview answers have a length limit with a counter."""

import pytest

from app_pages.widgets.answer_inputs import MAX_INTERVIEW_ANSWER
from app_pages.widgets.number_box import parse_whole
from app_pages.widgets.progress import NEW_NAME_KEY
from tests.app.learner_fixtures import database_url  # noqa: F401
from tests.app.shell_helpers import open_app
from tutor.i18n import t


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


@pytest.mark.parametrize(("lang", "limit_help", "count", "note"), [
    ("en", "Up to 4,000 characters", "4,000 of 4,000 characters",
     "That was 4,500 characters; this box holds 4,000, so the first 4,000 are kept and the last "
     "500 were left out."),
    ("zh", "最多 4,000 个字符", "已用 4,000 / 4,000 个字符",
     "刚才的内容有 4,500 个字符；此框最多 4,000 个，已保留前 4,000 个，末尾 500 个未能放入。"),
])
def test_an_interview_answer_past_the_limit_keeps_what_fits_and_says_so(
        database_url, lang, limit_help, count, note):  # noqa: F811
    at = open_app("practice", lang, q="iv-what-does-residual-solve")
    (box,) = at.text_area
    # No Streamlit max_chars: in the browser it ignores a change that passes it, so a long
    # paste left the box empty without a word.
    assert not box.max_chars and limit_help in box.help
    pasted = "residual " * 500  # 4,500 characters
    box.input(pasted).run()
    assert not at.exception
    assert at.text_area[0].value == pasted[:MAX_INTERVIEW_ANSWER]
    assert any(c.value == count for c in at.caption)
    assert any(w.value.startswith(note) for w in at.warning)
    at.text_area[0].input("short now").run()
    assert not any(w.value.startswith(note[:12]) for w in at.warning)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_derivation_lines_past_the_limit_keep_what_fits_and_say_so(lang):
    at = open_app("derivation", lang)
    lines = "\n".join(f"x + {k}" for k in range(900))  # 6,000+ characters
    at.text_area(key="derivation.lines").input(lines).run()
    assert not at.exception
    assert at.text_area(key="derivation.lines").value == lines[:4000]
    assert any(("4,000" in w.value and f"{len(lines):,}" in w.value) for w in at.warning)


@pytest.mark.parametrize(("lang", "refusal"), [
    ("en", "A profile name has at most 80 characters."), ("zh", "档案名称最多 80 个字符。")])
def test_a_profile_name_past_the_limit_is_refused_and_kept_in_the_box(
        database_url, lang, refusal):  # noqa: F811
    at = open_app("practice", lang)
    name = "A" * 120
    assert not at.text_input(key=NEW_NAME_KEY).max_chars
    at.text_input(key=NEW_NAME_KEY).input(name)
    [create] = [b for b in at.button if b.label == t("profile.create", lang)]
    create.click().run()
    assert not at.exception
    assert any(e.value == refusal for e in at.error)
    assert at.text_input(key=NEW_NAME_KEY).value == name  # kept, to be shortened


def test_no_box_uses_streamlits_max_chars():
    # It drops a whole paste that passes the limit; app_pages.widgets.text_limits keeps limits.
    from pathlib import Path

    root = Path(__file__).parents[2]
    users = [p.relative_to(root).as_posix() for p in sorted((root / "app_pages").rglob("*.py"))
             if "max_chars=" in p.read_text(encoding="utf-8")]
    assert users == []
