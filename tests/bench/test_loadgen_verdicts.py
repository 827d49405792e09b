"""A verdict counts only when it is a new one: a refused submit redraws the previous try's
verdict (`verdict-<n>` unchanged), which is no attempt (found by the class load run: 12 "verdicts"
on choice questions submitted without an option were counted as answers acknowledged)."""

from __future__ import annotations

import time

import pytest

from bench.loadgen.connection import AppTab, RunTiming
from bench.loadgen.page import Page
from tests.bench.test_loadgen import block, new_session


def _page_with_verdict(number: int) -> Page:
    page = Page()
    page.apply(new_session("run-1"))
    page.apply(block([0, 0], key="verdict"))
    page.apply(block([0, 0, 0], key=f"verdict-{number}"))
    return page


def test_the_number_of_the_verdict_on_screen():
    assert Page().verdict_number() == 0
    assert _page_with_verdict(2).verdict_number() == 2


def _run_seeing(messages) -> RunTiming:
    tab = AppTab("http://127.0.0.1:1")
    tab._run = RunTiming(sent=time.perf_counter(), finished=0.0, status=-1, verdict_at=None,
                         messages=0)
    tab.page.apply(new_session("run-2"))
    for msg in messages:
        tab._on_message(msg, time.perf_counter())
    return tab._run


def test_a_run_records_the_verdict_number_it_drew():
    run = _run_seeing([block([0, 0], key="verdict"), block([0, 0, 0], key="verdict-3")])
    assert run.verdict_at is not None and run.verdict_number == 3
    redrawn_only = _run_seeing([block([0, 0], key="verdict")])
    assert redrawn_only.verdict_at is not None and redrawn_only.verdict_number == 0


def test_lost_and_unexplained_attempts():
    from bench.loadgen.run import LoadReport, LoadSpec

    def report(ack, stored, reconnects=0, left_mid_answer=0):
        return LoadReport(LoadSpec(), acknowledged=ack, stored=stored, reconnects=reconnects,
                          left_mid_answer=left_mid_answer)

    assert report(10, 10).ok
    assert report(10, 9).lost == 1 and not report(10, 9).ok
    # an attempt written by a replica killed before its verdict went out: one per broken connection
    assert report(10, 11, reconnects=1).ok and report(10, 11, reconnects=1).lost == 0
    assert report(10, 12, reconnects=1).unexplained == 1 and not report(10, 12, reconnects=1).ok
    assert not report(10, 11).ok  # without a broken connection an extra attempt is a double write
    # an interview answer stored when its model answer was shown, the learner stopped before
    # ticking (issue 22): one per learner stopped mid-answer, no more
    assert report(10, 11, left_mid_answer=1).ok
    assert report(10, 12, left_mid_answer=1).unexplained == 1
    assert report(9, 10, left_mid_answer=1).lost == 0


def test_a_learner_stopped_between_an_answers_forms_is_counted_as_left_mid_answer(monkeypatch):
    # An interview answer is two forms (the answer, then the key points), and the app records it
    # when the first is sent (issue 22): stopped between them, the learner leaves an attempt
    # it never saw acknowledged, which the report must not take for a double write.
    import asyncio
    import random

    from bench.loadgen import learner as lg

    class OneFormPage:
        def loose_text_boxes(self):
            return []

        def keyed_block(self, key):
            return None

        def submittable_forms(self):
            return [("answer-form", "submit")]

        def form_fields(self, form_id):
            return []

        def verdict_number(self):
            return 0

    class NoVerdictTab:
        page = OneFormPage()

        async def rerun(self, set_values=None, click=None):
            return RunTiming(sent=0.0, finished=0.0, status=0, verdict_at=None, messages=0)

    thoughts = []

    async def think(config, rng):
        thoughts.append(1)
        if len(thoughts) > 1:  # the time bound, reached before the second form
            raise lg.Stop

    monkeypatch.setattr(lg, "think", think)
    log = lg.LearnerLog(1)
    with pytest.raises(lg.Stop):
        asyncio.run(lg.answer_one(NoVerdictTab(), lg.LearnerConfig("http://127.0.0.1:1"),
                                  random.Random(0), log))
    assert log.mid_answer and log.acknowledged == 0
