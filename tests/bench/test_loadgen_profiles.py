"""Local-mode learners of the load generator each make a profile of their own through the app
(the sidebar's "New profile" form), answer into it, and come back to it after loading the page
again; nobody works in the first profile. Against a real app server (what `make run` starts)."""

from __future__ import annotations

import asyncio

import pytest

from bench.loadgen.answers import default_state
from bench.loadgen.connection import AppTab
from bench.loadgen.learner import LearnerConfig, learner
from bench.loadgen.profile import make_own_profile
from bench.loadgen.server import start_app, stop_server
from tutor.store import ProgressStore


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    folder = tmp_path_factory.mktemp("loadgen-profiles")
    database_url = f"sqlite:///{folder / 'progress.db'}"
    server = start_app(database_url, log_path=folder / "server.log")
    server.database_url = database_url
    try:
        yield server
    finally:
        stop_server(server)


def test_each_learner_answers_in_a_profile_of_its_own(app):
    config = LearnerConfig(app.url, answers=3, think=0.0, timeout=60, new_profile="learner")

    async def class_of_three():
        return await asyncio.gather(*(learner(n, config) for n in range(3)))

    logs = asyncio.run(class_of_three())
    assert [log.errors for log in logs] == [[], [], []]
    with ProgressStore.open(app.database_url) as store:
        by_name = {p.name: p for p in store.list_profiles()}
        for log in logs:
            mine = by_name[f"learner-{log.number}"]
            assert log.profile == str(mine.id)
            # An answer the grader cannot read gets a verdict but is no attempt (the answers
            # are generic), so one learner may have stored none; the class as a whole has.
            assert store.count_attempts(mine.id) == log.acknowledged
            # Each of the 3 questions: a verdict, a try again after a wrong one, perhaps the
            # solution asked for, recorded as "not known" when no try had been counted.
            assert len(log.verdicts) == log.questions + log.retries == 3 + log.retries
            assert len(log.verdicts) + log.not_known == log.acknowledged + log.unreadable
        assert sum(log.acknowledged for log in logs) > 0
        shared = [p for name, p in by_name.items() if not name.startswith("learner-")]
        assert all(store.count_attempts(p.id) == 0 for p in shared)  # the first profile: unused


def test_a_learner_who_loads_the_page_again_is_back_in_its_profile(app):
    async def visit_twice():
        tab = AppTab(app.url, query="lang=en", timeout=60)
        await tab.open()
        made = await make_own_profile(tab, "returning")
        query = tab.page.query_string
        await tab.close()
        again = AppTab(app.url, query=query, timeout=60)  # what a reconnecting learner opens
        await again.open()
        picker = next(w for w in again.page.widgets() if w.kind == "selectbox" and not w.in_main)
        await again.close()
        return made, default_state(picker).string_value, again.page.query_string

    made, shown, query = asyncio.run(visit_twice())
    assert shown == "returning" and f"profile={made}" in query  # the picker, and the URL kept
