""""Only the first try counts" across visits, tabs, profiles and links (issue 22): the store, not
the screen, decides whether an answer is a counted first try. Written as the learner who games it
would try: reopen the question, answer in another tab (another store object), press Back (the
same URL again), open the share link with the same seed; and as the honest learner: the question
back for review, a new variant, another profile.

The reference is the rule itself, in words: a learner who has tried a question or seen its
solution has seen it; until the question comes back for review (its card is due) or a new
variant is drawn, an answer is practice.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from grader import Verdict
from tutor.rating import Phase, recorded_phase
from tutor.store import NewAttempt, ProgressStore

from .conftest import T0

MINUTE, DAY = timedelta(minutes=1), timedelta(days=1)
RIGHT = {"verdict": Verdict.CORRECT, "score": 1.0}


def counted(store, profile_id):
    return [(a.question_id, a.seed, a.verdict) for a in store.list_attempts(profile_id) if a.counted]


def give_up(qid, seed=None, mode="practice"):
    # "Show the solution" / "I don't know" before any try: the visit's counted failure
    return NewAttempt(qid, Verdict.WRONG, answer="", seed=seed, mode=mode)


def test_reopening_after_three_wrong_tries_and_the_solution_is_practice(store, profile):
    pid = profile.id
    store.record_attempt(pid, NewAttempt("q", Verdict.WRONG, answer="1"), now=T0)
    for n in (2, 3):
        store.record_attempt(pid, NewAttempt("q", Verdict.WRONG, answer=str(n), phase="retry"),
                             now=T0 + n * MINUTE)
    card = store.list_cards(pid)
    # Next question, then the same question again (All questions, Review, Dashboard's link):
    # the page opens a new visit and claims a first try with the key it has just read.
    again = store.record_attempt(pid, NewAttempt("q", answer="1.5", **RIGHT), now=T0 + 5 * MINUTE)
    assert (again.phase, again.rating, again.before) == ("repeat", None, None)
    assert again.card == card[0] and again.card.due == T0 + DAY  # "comes back for review on"
    assert store.list_cards(pid) == card  # still Again, back tomorrow
    assert counted(store, pid) == [("q", None, "wrong")]  # accuracy 0 %, not 50 %


def test_another_tab_is_another_store_object_and_still_cannot_count_twice(store_url, store,
                                                                          profile):
    other_tab = ProgressStore.open(store_url)
    try:
        first = store.record_attempt(profile.id, NewAttempt("q", Verdict.WRONG), now=T0)
        second = other_tab.record_attempt(profile.id, NewAttempt("q", **RIGHT), now=T0 + MINUTE)
    finally:
        other_tab.close()
    assert (first.phase, second.phase) == ("first", "repeat")
    assert counted(store, profile.id) == [("q", None, "wrong")]


def test_two_tabs_submitting_at_once_count_one_first_try(store_url, store, profile):
    tabs = [ProgressStore.open(store_url) for _ in range(4)]
    barrier = threading.Barrier(len(tabs))
    results = []

    def answer(tab):
        barrier.wait()
        results.append(tab.record_attempt(profile.id, NewAttempt("q", **RIGHT), now=T0))

    threads = [threading.Thread(target=answer, args=(tab,)) for tab in tabs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for tab in tabs:
        tab.close()
    assert sorted(r.phase for r in results) == ["first", "repeat", "repeat", "repeat"]
    assert store.list_cards(profile.id)[0].reps == 1


def test_i_dont_know_then_back_or_the_share_link_brings_practice_not_a_fresh_try(store, profile):
    pid = profile.id
    store.record_attempt(pid, give_up("exercise:linear", seed=4242, mode="practice"), now=T0)
    # Back (the same URL again) and the share link (same template, seed and difficulty) open
    # the same numbers, whose keys the solution has just shown.
    for minutes in (1, 2):
        back = store.record_attempt(pid, NewAttempt("exercise:linear", seed=4242, **RIGHT),
                                    now=T0 + minutes * MINUTE)
        assert (back.phase, back.rating) == ("repeat", None)
    assert counted(store, pid) == [("exercise:linear", 4242, "wrong")]


def test_a_new_seed_is_a_new_variant_and_counts(store, profile):
    pid = profile.id
    store.record_attempt(pid, give_up("exercise:linear", seed=4242), now=T0)
    fresh = store.record_attempt(pid, NewAttempt("exercise:linear", seed=77, **RIGHT),
                                 now=T0 + MINUTE)
    assert (fresh.phase, fresh.rating) == ("first", 3)
    # ... once: going back to either seed before the card is due is practice
    for seed in (77, 4242):
        again = store.record_attempt(pid, NewAttempt("exercise:linear", seed=seed, **RIGHT),
                                     now=T0 + 2 * MINUTE)
        assert again.phase == "repeat"
    assert [s for _q, s, _v in counted(store, pid)] == [4242, 77]


def test_a_second_visit_to_a_question_answered_right_is_practice_until_it_is_due(store, profile):
    pid = profile.id
    right = store.record_attempt(pid, NewAttempt("q", **RIGHT), now=T0)
    assert right.card.due == T0 + 2 * DAY
    early = store.record_attempt(pid, NewAttempt("q", Verdict.WRONG), now=T0 + DAY)
    assert (early.phase, early.rating) == ("repeat", None)  # a slip in practice costs nothing
    back = store.record_attempt(pid, NewAttempt("q", **RIGHT), now=T0 + 2 * DAY)
    assert (back.phase, back.rating) == ("first", 3)  # back for review: counted again
    assert len(counted(store, pid)) == 2


def test_the_question_back_for_review_after_a_failure_counts(store, profile):
    pid = profile.id
    store.record_attempt(pid, give_up("q"), now=T0)
    assert store.record_attempt(pid, NewAttempt("q", **RIGHT), now=T0 + DAY - MINUTE).phase == "repeat"
    assert store.record_attempt(pid, NewAttempt("q", **RIGHT), now=T0 + DAY).phase == "first"


def test_a_claim_can_lose_a_count_but_never_win_one(store, profile):
    pid = profile.id
    retry = store.record_attempt(pid, NewAttempt("q", phase="retry", **RIGHT), now=T0)
    assert (retry.phase, retry.rating) == ("retry", None) and store.list_cards(pid) == []
    store.record_attempt(pid, NewAttempt("q", Verdict.WRONG), now=T0 + MINUTE)
    # the caller says "first try" (Phase.FIRST is the default): the store does not believe it
    claimed = store.record_attempt(pid, NewAttempt("q", phase=Phase.FIRST, **RIGHT),
                                   now=T0 + 2 * MINUTE)
    assert claimed.phase == "repeat"


def test_another_profile_has_its_own_first_try(store, profile):
    other = store.create_profile("Bo")
    store.record_attempt(profile.id, NewAttempt("q", Verdict.WRONG), now=T0)
    mine = store.record_attempt(other.id, NewAttempt("q", **RIGHT), now=T0 + MINUTE)
    assert (mine.phase, mine.rating) == ("first", 3)


# ---- interview answers: the model answer is the solution ---------------------------------------
def shown(qid="iq", text="my answer", key="held-1"):
    # "Submit and show the model answer": recorded at once, a failure until ticked
    return NewAttempt(qid, Verdict.WRONG, answer=text, confidence=2, mode="practice", unassessed=True,
                      key=key)


def ticks(held_key, qid="iq", verdict=Verdict.CORRECT, score=1.0):
    return NewAttempt(qid, verdict, score=score, answer="my answer", confidence=2,
                      rubric_ticks=("identity",), assesses=held_key)


def test_ticking_the_key_points_assesses_the_answer_recorded_with_the_model_answer(store, profile):
    pid = profile.id
    held = store.record_attempt(pid, shown(), now=T0)
    assert (held.phase, held.rating, held.unassessed) == ("first", 1, True)
    assessed = store.record_attempt(pid, ticks(held.key), now=T0 + 2 * MINUTE)
    assert (assessed.id, assessed.verdict, assessed.rating, assessed.unassessed) == (
        held.id, "correct", 3, False)
    # scheduled once, with Good, from the moment the answer was given
    assert assessed.card.due == T0 + 2 * DAY and assessed.card.reps == 1
    assert store.list_cards(pid) == [assessed.card]
    assert store.count_attempts(pid) == 1 and counted(store, pid) == [("iq", None, "correct")]
    # a right answer's rating may still be changed afterwards
    assert store.change_rating(pid, held.id, 4).due == T0 + 8 * DAY
    # ticked again (another tab that restored the same draft): an answer of its own, practice
    again = store.record_attempt(pid, ticks(held.key, verdict=Verdict.WRONG, score=0.0),
                                 now=T0 + 3 * MINUTE)
    assert (again.id != held.id, again.phase, again.rating) == (True, "repeat", None)
    assert store.list_attempts(pid)[0].verdict == "correct" and store.list_cards(pid)[0].last_rating == 4


def test_submit_show_the_model_answer_skip_then_reopen_and_tick_is_practice(store, profile):
    pid = profile.id
    store.record_attempt(pid, shown(), now=T0)  # ... then "Skip this question": no ticks
    assert store.list_cards(pid)[0].due == T0 + DAY  # it stands as a failure: back tomorrow
    reopened = store.record_attempt(pid, shown(text="the model answer, copied", key="held-2"),
                                    now=T0 + 5 * MINUTE)
    assert reopened.phase == "repeat"
    ticked = store.record_attempt(pid, ticks(reopened.key), now=T0 + 6 * MINUTE)
    assert (ticked.phase, ticked.rating, ticked.verdict) == ("repeat", None, "correct")
    assert store.list_cards(pid)[0].last_rating == 1
    assert counted(store, pid) == [("iq", None, "wrong")]


def test_an_unassessed_answer_is_a_failure_until_ticked(store, profile):
    with pytest.raises(ValueError, match="unassessed answer is recorded as wrong"):
        store.record_attempt(profile.id, NewAttempt("iq", Verdict.CORRECT, score=1.0, unassessed=True),
                             now=T0)
    assert store.list_cards(profile.id) == []


def test_ticks_cannot_assess_another_profiles_or_another_questions_answer(store, profile):
    other = store.create_profile("Bo")
    held = store.record_attempt(profile.id, shown(), now=T0)
    theirs = store.record_attempt(other.id, ticks(held.key), now=T0 + MINUTE)
    assert theirs.profile_id == other.id and theirs.id != held.id  # Bo's own answer
    mine = store.record_attempt(profile.id, ticks(held.key, qid="other-q"), now=T0 + MINUTE)
    assert mine.id != held.id and mine.question_id == "other-q"
    assert store.list_attempts(profile.id)[0].unassessed  # the held answer is untouched


# ---- the rule as a pure function ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("claimed", "last_counted", "due_in", "seed", "seed_counted", "expected"),
    [
        (Phase.FIRST, None, None, None, False, Phase.FIRST),  # never tried
        (Phase.FIRST, T0, DAY, None, False, Phase.REPEAT),  # tried, not due
        (Phase.FIRST, T0, timedelta(0), None, False, Phase.FIRST),  # due now
        (Phase.FIRST, T0, -DAY, None, False, Phase.FIRST),  # overdue
        (Phase.FIRST, T0, DAY, 5, False, Phase.FIRST),  # a new variant
        (Phase.FIRST, T0, DAY, 5, True, Phase.REPEAT),  # the same variant again
        (Phase.RETRY, None, None, None, False, Phase.RETRY),  # a claim only loses
        (Phase.AFTER_REVEAL, T0, -DAY, 5, False, Phase.AFTER_REVEAL),
    ],
)
def test_recorded_phase(claimed, last_counted, due_in, seed, seed_counted, expected):
    now = T0 + 3 * DAY
    due = None if due_in is None else now + due_in
    assert recorded_phase(claimed, last_counted=last_counted, due=due, seed=seed,
                          seed_counted=seed_counted, now=now) is expected
