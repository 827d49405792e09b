"""AppTest of Review (issue 16, item 3): the counts and the "sure but wrong" banner follow an
answer at once (not after Next), and an ordering question is shuffled anew on every visit."""

from datetime import timedelta

from app_pages.widgets.answer_inputs import shuffled_steps
from grader import Verdict
from tests.app.learner_bank import fixture_bank
from tests.app.learner_fixtures import button, database_url, open_page  # noqa: F401
from tutor.sessions.practice import QuestionQueue
from tutor.store import NewAttempt, utc_now

BANK = fixture_bank()




def due_choice_question(store, *, confidence=3):
    me = store.create_profile("Ada")
    store.record_attempt(me.id, NewAttempt("fx-choice", Verdict.WRONG, answer="b", confidence=confidence),
                         now=utc_now() - timedelta(days=3))
    return me


def metrics(at):
    return [m.value for m in at.metric]


def test_counts_and_banner_follow_a_right_answer_at_once(small_bank, store, open_page):  # noqa: F811
    due_choice_question(store)
    at = open_page("review")
    assert metrics(at) == ["1", "1"]
    assert "Last time you were sure" in at.warning[0].value
    at.radio(key=next(r.key for r in at.radio if r.key.endswith(".choice"))).set_value("a")
    at = button(at, "Submit answer").click().run()
    assert at.success[0].value == "Correct"
    assert metrics(at) == ["0", "0"]  # before Next
    assert not at.warning


def test_a_sure_wrong_answer_is_named_at_once(small_bank, store, open_page):  # noqa: F811
    due_choice_question(store, confidence=1)
    at = open_page("review")
    assert metrics(at) == ["1", "0"] and not at.warning
    at.radio(key=next(r.key for r in at.radio if r.key.endswith(".choice"))).set_value("b")
    at.radio(key=next(r.key for r in at.radio if r.key.endswith(".confidence"))).set_value("high")
    at = button(at, "Submit answer").click().run()
    assert metrics(at) == ["0", "0"]
    assert at.warning[0].value.startswith("You were sure, but the answer was wrong")


def test_an_ordering_question_is_shuffled_anew_on_every_visit():
    question = BANK.questions["fx-ordering"]
    orders = set()
    for _ in range(12):  # a new browser session each time: the first visit used to look the same
        session = QuestionQueue().open(question)
        orders.add(tuple(s.id for s in shuffled_steps(question, session.order_seed)))
    assert len(orders) > 1
