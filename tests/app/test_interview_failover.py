"""A mock-interview answer being typed survives a failover (issue 28), as Practice's does: the
replica serving the learner dies, her tab opens a new session on another replica (a new
AppTest on the same database and identity), and the interview comes back with the answer box
holding what she had typed, the clock still running."""

from __future__ import annotations

import time

import pytest

from tests.app.learner_fixtures import button
from tests.app.test_class_mode import ADA, shell

START = {"en": "Start the interview", "zh": "开始面试"}
TYPED = "The identity term keeps the gradient: 残差连接让梯度直接回传。"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_typed_interview_answer_comes_back_on_another_replica(store, lang):
    at = shell(ADA, "interview", lang=lang)
    at.slider(key="interview.count").set_value(1)
    at = button(at, START[lang]).click().run()
    at.text_area[0].input(TYPED).run()  # the box left: the text reached the server
    deadline = time.monotonic() + 10  # the draft is written off the script run, moments later
    other = None
    while time.monotonic() < deadline:
        other = shell(ADA, "interview", lang=lang)  # a new session: the other replica
        if other.text_area and other.text_area[0].value == TYPED:
            break
        time.sleep(0.2)
    assert other.text_area and other.text_area[0].value == TYPED
    assert other.text_area[0].key == at.text_area[0].key  # the same question of the same run
