"""One question's flow (tutor.sessions.question_session) without Streamlit: tries, the reveal,
what is recorded and counted, the rating change, and the draft that survives a reload."""

import random
from dataclasses import replace
from datetime import timedelta

import pytest

from grader import Result, Verdict
from quizbank import parse_bank
from tests.app.learner_bank import QUESTIONS, fixture_bank
from tutor.dashboard import daily_activity
from tutor.rating import Phase
from tutor.sessions import question_session as flow
from tutor.store import ProgressStore

BANK = fixture_bank()
NUMERIC, CHOICE, INTERVIEW = (BANK.questions[q] for q in ("fx-numeric", "fx-choice", "fx-interview"))
RIGHT, WRONG, UNREADABLE = "[0.4, 2.05]", "[0.4, 2.5]", "[0.4,"


def opened(question, now=100.0, **kwargs):
    """A session opened at `now` (None: the real clock, for answers given without a `now`)."""
    return flow.open_session(question, rng=random.Random(0), now=now, **kwargs)


def answer(session, question, text, **kwargs):
    return flow.submit(session, question, text, confidence="medium", lang="en", **kwargs)


@pytest.fixture
def store(tmp_path):
    db = ProgressStore.open(f"sqlite:///{tmp_path / 'progress.db'}")
    yield db
    db.close()


def writer(store, profile_id):
    return lambda attempt: store.record_attempt(profile_id, attempt)


def test_a_numeric_question_gives_three_tries_then_shows_the_solution():
    session = opened(NUMERIC)
    assert (session.tries_allowed, session.tries_left) == (3, 3)
    phases = [answer(session, NUMERIC, WRONG).phase for _ in range(2)]
    assert phases == [Phase.FIRST, Phase.RETRY] and not session.revealed
    assert session.tries_left == 1
    assert answer(session, NUMERIC, WRONG).phase is Phase.RETRY and session.revealed
    late = answer(session, NUMERIC, RIGHT)  # the key, retyped after the solution
    assert late.correct and late.phase is Phase.AFTER_REVEAL and not late.counted
    assert session.first.correct is False  # the counted try stays the first one


def test_a_right_first_try_ends_the_question():
    session = opened(NUMERIC)
    graded = answer(session, NUMERIC, RIGHT)
    assert graded.counted and session.revealed and session.tries_used == 1


def test_an_unreadable_answer_is_not_a_try():
    session = opened(NUMERIC)
    graded = answer(session, NUMERIC, UNREADABLE)
    assert graded.result.unreadable and graded.phase is None
    assert session.tries_used == 0 and not session.attempted and not session.revealed
    assert answer(session, NUMERIC, WRONG).phase is Phase.FIRST


def test_a_choice_question_has_one_try_and_its_own_tries_are_honoured():
    session = opened(CHOICE)
    answer(session, CHOICE, ["b"])
    assert session.revealed
    custom = parse_bank({"questions": [{**QUESTIONS[1], "tries": 1}]}).questions["fx-numeric"]
    session = opened(custom)
    answer(session, custom, WRONG)
    assert session.revealed


def test_giving_up_before_any_try_is_the_counted_failure():
    session = opened(NUMERIC)
    recorded = []
    flow.give_up(session, NUMERIC, record=recorded.append, now=130.0)
    (attempt,) = recorded
    assert (attempt.verdict, attempt.answer, attempt.phase, attempt.seconds) == (
        "wrong", "", Phase.FIRST, 30.0)
    assert session.revealed and session.gave_up and session.attempted
    assert flow.give_up(session, NUMERIC, record=recorded.append) is None  # once
    assert len(recorded) == 1


def test_giving_up_after_a_try_only_shows_the_solution():
    session = opened(NUMERIC)
    recorded = []
    flow.save(session, NUMERIC, answer(session, NUMERIC, WRONG), record=recorded.append)
    flow.give_up(session, NUMERIC, record=recorded.append)
    assert session.revealed and len(recorded) == 1 and recorded[0].phase is Phase.FIRST


def test_saving_records_hints_time_confidence_and_phase():
    session = opened(CHOICE)
    session.show_hint(CHOICE)
    recorded = []
    graded = flow.submit(session, CHOICE, ["a"], confidence="high", lang="en", now=112.5)
    flow.save(session, CHOICE, graded, record=recorded.append)
    (attempt,) = recorded
    assert (attempt.question_id, attempt.verdict, attempt.answer) == ("fx-choice", "correct", '["a"]')
    assert (attempt.confidence, attempt.hints_used, attempt.seconds) == (3, 1, 12.5)
    assert attempt.phase is Phase.FIRST and attempt.problems() == []


def test_an_unreadable_answer_is_never_recorded():
    session = opened(NUMERIC)
    recorded = []
    flow.save(session, NUMERIC, answer(session, NUMERIC, UNREADABLE), record=recorded.append)
    assert recorded == []


def test_wrong_wrong_reveal_then_the_key_counts_one_failed_attempt(store):
    # The learner: two wrong tries, the solution, then the key retyped.
    me = store.create_profile("Ada")
    session = opened(NUMERIC, now=None)
    for text in (WRONG, WRONG):
        flow.save(session, NUMERIC, answer(session, NUMERIC, text), record=writer(store, me.id))
    flow.give_up(session, NUMERIC, record=writer(store, me.id))
    flow.save(session, NUMERIC, answer(session, NUMERIC, RIGHT), record=writer(store, me.id))
    history = store.list_attempts(me.id)
    assert [a.phase for a in history] == ["first", "retry", "after_reveal"]
    daily = daily_activity(history)
    assert daily["attempts"].tolist() == [1] and daily["accuracy"].tolist() == [0.0]
    (card,) = store.list_cards(me.id)
    first = history[0]
    assert card.due == first.created_at + timedelta(days=1) and card.reps == 1
    assert session.first.rating == 1 and session.first.due == card.due


def test_reopening_after_the_solution_records_practice_and_says_when_it_comes_back(store):
    # Issue 22: three wrong tries, the solution, "Next question", then the same question opened
    # again (a new session, as All questions, Review or the Dashboard's link open it).
    me = store.create_profile("Ada")
    first_visit = opened(NUMERIC, now=None)
    for _ in range(3):
        flow.save(first_visit, NUMERIC, answer(first_visit, NUMERIC, WRONG), record=writer(store, me.id))
    assert first_visit.revealed
    again = opened(NUMERIC, now=None, serial=2)
    graded = flow.save(again, NUMERIC, answer(again, NUMERIC, RIGHT), record=writer(store, me.id))
    (card,) = store.list_cards(me.id)
    assert (graded.phase, graded.rating, graded.due) == (Phase.REPEAT, None, card.due)
    assert not graded.counted and again.first is None and again.tries_used == 1
    history = store.list_attempts(me.id)
    assert [a.phase for a in history] == ["first", "retry", "retry", "repeat"]
    assert daily_activity(history)["accuracy"].tolist() == [0.0]  # not 50 %


def test_a_practice_visit_still_gives_its_tries_then_the_solution(store):
    me = store.create_profile("Ada")
    flow.give_up(opened(NUMERIC, now=None), NUMERIC, record=writer(store, me.id))
    again = opened(NUMERIC, now=None, serial=2)
    phases = [flow.save(again, NUMERIC, answer(again, NUMERIC, WRONG),
                        record=writer(store, me.id)).phase for _ in range(3)]
    assert phases == [Phase.REPEAT] * 3 and again.revealed and again.tries_left == 0
    assert flow.give_up(again, NUMERIC, record=writer(store, me.id)) is None
    assert len(store.list_attempts(me.id)) == 4


def test_an_interview_answer_is_recorded_when_the_model_answer_is_shown(store):
    me = store.create_profile("Ada")
    session = opened(INTERVIEW, now=None)
    flow.show_model_answer(session, INTERVIEW, "identity", "high", record=writer(store, me.id))
    (held,) = store.list_attempts(me.id)
    assert held.unassessed and held.counted and held.answer == "identity"
    graded = flow.save(session, INTERVIEW, answer(
        session, INTERVIEW, {"text": "identity", "ticked": ["identity"]}),
        record=writer(store, me.id))
    (assessed,) = store.list_attempts(me.id)  # the same row, assessed by the ticks
    assert (assessed.id, assessed.unassessed, assessed.verdict) == (held.id, False, "correct")
    assert graded.counted and graded.rating == assessed.rating == store.list_cards(me.id)[0].last_rating


def test_confirming_the_ticks_assesses_the_held_answer_and_shows_the_solution(store):
    # the event the interview widget sends (it set `session.revealed` itself before)
    me = store.create_profile("Ada")
    session = opened(INTERVIEW, now=None)
    flow.show_model_answer(session, INTERVIEW, "identity", "high", record=writer(store, me.id))
    assert not session.revealed
    graded = flow.confirm_ticks(session, INTERVIEW, ["identity"], lang="en",
                                record=writer(store, me.id))
    (row,) = store.list_attempts(me.id)  # the held answer, assessed: one row
    assert (row.unassessed, row.verdict, row.answer) == (False, "correct", "identity")
    assert session.revealed and session.last.rubric.verdict == "correct"
    assert graded.counted and graded.confidence == "high"


def test_ticks_given_while_the_held_answer_waits_in_the_spool_assess_it(store):
    # The database is away: the answer recorded with the model answer is queued (the page gets
    # no record back, so no row id), then the ticks are queued after it. Written in order once
    # the database is back, the ticks assess the held answer: one row, not two (the spool fault
    # check in .ci/run found two).
    me = store.create_profile("Ada")
    queued = []

    def queue(attempt):  # what AttemptWriter.submit does: a key for each, then the spool
        queued.append(replace(attempt, key=attempt.key or f"k{len(queued)}"))

    session = opened(INTERVIEW, now=None)
    flow.show_model_answer(session, INTERVIEW, "identity", "high", record=queue)
    assert session.unassessed_key and not session.held_saved  # not shown as saved
    flow.save(session, INTERVIEW, answer(session, INTERVIEW, {"text": "identity",
                                                              "ticked": ["identity"]}),
              record=queue)
    for attempt in queued:  # the spool's replay, in order
        store.record_attempt(me.id, attempt)
    (row,) = store.list_attempts(me.id)
    assert (row.unassessed, row.verdict, row.key) == (False, "correct", queued[0].key)
    assert store.record_attempt(me.id, queued[1]).id == row.id  # a replay again: no new row
    assert store.count_attempts(me.id) == 1


def test_a_record_that_lands_after_the_page_stopped_waiting_is_applied_to_its_own_answer(store):
    # A slow database: `record` gave up waiting (None) on both tries; their records land later,
    # the second first. Each is matched to the answer it records by the key made at grading.
    me = store.create_profile("Ada")
    queued = []

    def slow(attempt):
        queued.append(attempt)
        return None  # not in the database within the page's wait

    session = opened(NUMERIC, now=None)
    for _ in range(2):
        flow.save(session, NUMERIC, answer(session, NUMERIC, WRONG), record=slow)
    assert [g.rating for g in session.graded] == [None, None] and session.first.attempt_id is None
    first, retry = (store.record_attempt(me.id, attempt) for attempt in queued)
    flow.settle(session, queued[1].key, retry)
    assert session.graded[1].attempt_id == retry.id and session.first.rating is None
    flow.settle(session, queued[0].key, first)
    assert (session.first.attempt_id, session.first.rating) == (first.id, 1)  # Again
    assert session.first.due == first.card.due and session.first.phase is Phase.FIRST
    settled = list(session.graded)
    flow.settle(session, queued[0].key, retry)  # applied once: a second landing changes nothing
    flow.settle(session, "another-visits-key", first)
    assert session.graded == settled


def test_the_held_interview_answer_is_saved_once_its_late_record_lands(store):
    me = store.create_profile("Ada")
    queued = []
    session = opened(INTERVIEW, now=None)
    flow.show_model_answer(session, INTERVIEW, "identity", "high",
                           record=lambda attempt: queued.append(attempt))
    assert not session.held_saved
    flow.settle(session, queued[0].key, store.record_attempt(me.id, queued[0]))
    assert session.held_saved and session.graded == []


def test_model_answer_then_skip_then_reopen_and_tick_is_practice(store):
    me = store.create_profile("Ada")
    skipped = opened(INTERVIEW, now=None)
    flow.show_model_answer(skipped, INTERVIEW, "anything", "medium", record=writer(store, me.id))
    # "Skip this question": nothing more is sent. Reopened, the model answer read:
    again = opened(INTERVIEW, now=None, serial=2)
    flow.show_model_answer(again, INTERVIEW, "the identity term", "high",
                           record=writer(store, me.id))
    graded = flow.save(again, INTERVIEW, answer(
        again, INTERVIEW, {"text": again.held_answer, "ticked": ["identity"]}),
        record=writer(store, me.id))
    assert (graded.phase, graded.rating) == (Phase.REPEAT, None)
    assert [(a.counted, a.verdict) for a in store.list_attempts(me.id)] == [
        (True, "wrong"), (False, "correct")]
    assert store.list_cards(me.id)[0].last_rating == 1


def test_a_right_answer_offers_hard_good_easy_and_the_card_follows_the_choice(store):
    me = store.create_profile("Ada")
    session = opened(NUMERIC, now=None)
    first = flow.save(session, NUMERIC, answer(session, NUMERIC, RIGHT), record=writer(store, me.id))
    assert first.rating == 3 and [r for r, _ in first.choices] == [2, 3, 4]
    offered = dict(first.choices)
    changed = flow.change_rating(session, 4, rerate=lambda a, r: store.change_rating(me.id, a, r))
    assert changed.rating == 4 and changed.due == offered[4] == store.list_cards(me.id)[0].due
    assert flow.change_rating(session, 1, rerate=lambda a, r: pytest.fail("not offered")) is None


def test_a_wrong_answer_offers_no_other_rating(store):
    me = store.create_profile("Ada")
    session = opened(NUMERIC, now=None)
    first = flow.save(session, NUMERIC, answer(session, NUMERIC, WRONG), record=writer(store, me.id))
    assert first.rating == 1 and first.choices == ()


def test_the_draft_brings_back_tries_hints_typed_text_and_results():
    session = opened(NUMERIC)
    session.show_hint(NUMERIC)
    answer(session, NUMERIC, WRONG)
    answer(session, NUMERIC, UNREADABLE)
    session.typed = {"text": "[0.4, 2.0", "confidence": "high"}
    restored = flow.from_scratch(flow.to_scratch(session), NUMERIC)
    assert restored == session


def test_a_draft_of_an_interview_answer_round_trips():
    session = opened(INTERVIEW)
    session.show_model_answer("identity, and never vanish", "high")
    answer(session, INTERVIEW, {"text": session.held_answer, "ticked": ["identity", "never-vanish"]})
    assert flow.from_scratch(flow.to_scratch(session), INTERVIEW) == session


def test_scratch_work_saved_before_the_renames_reads_back():
    # as stored before `draft_answer` became `held_answer`: the stored names stay
    saved = {"version": 1, "question_id": "fx-interview", "tries_allowed": 1, "variant": None,
             "started_at": 1700000000.0, "hints_shown": 0, "graded": [], "revealed": False,
             "serial": 3, "order_seed": 7, "typed": {"confidence": "high"},
             "draft_answer": "identity", "draft_confidence": "high",
             "unassessed_key": "k1", "held_saved": True}
    session = flow.from_scratch(saved, INTERVIEW)
    assert (session.held_answer, session.held_confidence, session.answer_shown) == (
        "identity", "high", True)
    assert flow.to_scratch(session) == {**saved, "held_seconds": None}  # one field added since


def test_a_judgement_of_ticks_saved_before_is_judged_again_from_the_ticks():
    # Scratch work saved before kept each rubric judgement field by field; it is read from the
    # ticks now (the rubric has one judge), so an edited judgement changes nothing.
    session = opened(INTERVIEW)
    session.show_model_answer("identity", "high", seconds=12.0)
    flow.confirm_ticks(session, INTERVIEW, ["identity"], lang="en", record=None)
    saved = flow.to_scratch(session)
    saved["graded"][0]["rubric"] = {"verdict": "wrong", "score": 0.0, "missed_required": ["identity"],
                                    "misconceptions": ["never-vanish"], "bonus": []}
    restored = flow.from_scratch(saved, INTERVIEW)
    assert restored.last.rubric == session.last.rubric == flow.rubric_result(INTERVIEW, ["identity"])[1]
    assert restored.last.rubric.verdict is Verdict.CORRECT and restored.held_seconds == 12.0
    assert restored.last.elapsed_s == 12.0  # the answer took until it was held, not until the ticks


@pytest.mark.parametrize("draft", [None, "x", {}, {"version": 99}, {"version": 1, "question_id": "fx-choice"}])
def test_a_draft_that_is_not_this_questions_is_dropped(draft):
    assert flow.from_scratch(draft, NUMERIC) is None


def test_a_generated_variant_is_built_once_and_graded_as_shown(monkeypatch):
    from quizbank import load_bank, variants

    question = load_bank().questions["gen-chain-product"]
    built = []
    real = variants.build_variant
    monkeypatch.setattr(variants, "build_variant", lambda *a, **k: built.append(a) or real(*a, **k))
    session = opened(question, seed=42, difficulty="hard")
    assert (session.seed, session.variant.difficulty, len(built)) == (42, "hard", 1)
    keys = {ask: repr(session.variant.answers[ask]) for ask in question.asks}
    graded = answer(session, question, keys)
    assert graded.correct and len(built) == 1  # grading read the carried variant
    restored = flow.from_scratch(flow.to_scratch(session), question)
    assert restored.variant == session.variant and len(built) == 1  # nor does a reload


def test_hints_are_revealed_one_at_a_time_and_stop_at_the_last():
    session = opened(CHOICE)
    assert session.visible_hints(CHOICE, "en") == []
    session.show_hint(CHOICE)
    assert session.visible_hints(CHOICE, "en") == ["Hint 1"]
    session.show_hint(CHOICE)
    session.show_hint(CHOICE)  # beyond the last: no-op
    assert session.visible_hints(CHOICE, "zh") == ["提示 1", "提示 2"]
    assert not session.can_show_hint(CHOICE)


@pytest.mark.parametrize(
    ("ticked", "correct", "score", "missed", "misconceptions"),
    [
        (["identity"], True, 1.0, [], []),
        (["identity", "ensemble"], True, 1.0, [], []),
        ([], False, 0.0, ["identity"], []),
        (["ensemble"], False, 0.0, ["identity"], []),
        (["identity", "never-vanish"], False, 1.0, [], ["never-vanish"]),
    ],
)
def test_rubric_result(ticked, correct, score, missed, misconceptions):
    result, rubric = flow.rubric_result(INTERVIEW, ticked)
    assert (result.correct, result.score) == (correct, score)
    assert list(rubric.missed_required) == missed
    assert list(rubric.misconceptions) == misconceptions


def test_rubric_result_refuses_unknown_points():
    with pytest.raises(ValueError, match="unknown rubric points: nope"):
        flow.rubric_result(INTERVIEW, ["nope"])


def test_interview_attempt_carries_rubric_flags():
    session = opened(INTERVIEW)
    session.show_model_answer("identity, and never vanish", "medium")
    recorded = []
    graded = flow.submit(session, INTERVIEW, {"text": session.held_answer,
                                              "ticked": ["identity", "never-vanish"]},
                         confidence=session.held_confidence, lang="en", now=130.0)
    flow.save(session, INTERVIEW, graded, record=recorded.append, mode="interview")
    (attempt,) = recorded
    assert attempt.answer == "identity, and never vanish"
    assert attempt.rubric_ticks == ("identity", "never-vanish")
    assert attempt.misconception_ticked and not attempt.required_missed
    assert attempt.verdict == "partial" and attempt.mode == "interview"


def test_bad_confidence_is_refused_before_grading():
    session = opened(CHOICE)

    def grade(*_a, **_k):
        return Result(Verdict.CORRECT), None

    with pytest.raises(ValueError, match="confidence"):
        flow.submit(session, CHOICE, ["a"], confidence="sure", lang="en", grade=grade)
    assert not session.graded


@pytest.mark.parametrize(("text", "seed"), [("7", 7), ("99999", 99999), ("0", None),
                                            ("100000", None), ("１２", None), ("-1", None),
                                            (None, None), ("4e2", None)])
def test_parse_seed(text, seed):
    assert flow.parse_seed(text) == seed
