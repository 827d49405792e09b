"""The progress store on SQLite and (when configured) PostgreSQL: profiles, attempts, cards,
settings, restart, concurrency."""

from __future__ import annotations

import multiprocessing
import threading
from datetime import timedelta

import pytest

from grader import Verdict
from tutor.rating import Mode
from tutor.review import order_queue
from tutor.store import NewAttempt, ProfileError, ProgressStore

from .conftest import T0


def test_profiles_create_list_rename_delete(store):
    ada = store.create_profile("  Ada ")
    bo = store.create_profile("博")
    assert [p.name for p in store.list_profiles()] == ["Ada", "博"]
    assert store.rename_profile(ada.id, "Ada L").name == "Ada L"
    assert store.get_profile(ada.id).name == "Ada L"
    store.delete_profile(ada.id)
    assert [p.id for p in store.list_profiles()] == [bo.id]


@pytest.mark.parametrize(
    ("name", "code"),
    [("", "empty-name"), ("   ", "empty-name"), ("x" * 81, "name-too-long"), ("Ada", "name-taken")],
)
def test_profile_names_refused(store, profile, name, code):
    with pytest.raises(ProfileError) as caught:
        store.create_profile(name)
    assert caught.value.code == code
    assert caught.value.message("zh") and caught.value.message("en")


def test_rename_to_a_taken_name_and_unknown_profile(store, profile):
    other = store.create_profile("Bo")
    with pytest.raises(ProfileError, match="name-taken"):
        store.rename_profile(other.id, "Ada")
    with pytest.raises(ProfileError, match="unknown-profile"):
        store.record_attempt(999, NewAttempt("q", Verdict.CORRECT, score=1.0))


def test_each_profile_owns_its_attempts_cards_and_settings(store):
    ada, bo = store.create_profile("Ada"), store.create_profile("Bo")
    store.record_attempt(ada.id, NewAttempt("q1", Verdict.CORRECT, score=1.0), now=T0)
    store.record_attempt(bo.id, NewAttempt("q2", Verdict.WRONG), now=T0)
    store.set_setting(ada.id, "lang", "zh")
    store.set_setting(bo.id, "lang", "en")
    assert [a.question_id for a in store.list_attempts(ada.id)] == ["q1"]
    assert [c.question_id for c in store.list_cards(bo.id)] == ["q2"]
    store.delete_profile(ada.id)
    assert store.list_attempts(ada.id) == [] and store.list_cards(ada.id) == []
    assert store.get_settings(ada.id) == {}
    assert store.get_settings(bo.id) == {"lang": "en"}
    assert store.count_attempts(bo.id) == 1


def test_attempt_fields_round_trip(store, profile):
    sent = NewAttempt(
        "interview-why-residual", Verdict.PARTIAL, score=0.5, answer="恒等映射 keeps I + J", seed=7,
        hints_used=1, seconds=42.5, confidence=2, rubric_ticks=("identity-term",),
        mode=Mode.INTERVIEW,
    )
    saved = store.record_attempt(profile.id, sent, now=T0)
    (loaded,) = store.list_attempts(profile.id)
    assert loaded == saved
    assert (loaded.seed, loaded.answer, loaded.rubric_ticks, loaded.mode) == (
        7, "恒等映射 keeps I + J", ("identity-term",), "interview",
    )
    assert loaded.created_at == T0 and loaded.rating == 1


def test_a_malformed_attempt_lists_every_problem(store, profile):
    bad = NewAttempt("", "maybe", score=2.0, seconds=-1.0, confidence=5, hints_used=-1)
    with pytest.raises(ValueError) as caught:
        store.record_attempt(profile.id, bad)
    for fragment in ("question_id", "verdict", "score", "seconds", "confidence", "hints_used"):
        assert fragment in str(caught.value)
    assert store.count_attempts(profile.id) == 0


@pytest.mark.parametrize("verdict", ["unreadable", "error"])
def test_an_unreadable_answer_is_not_an_attempt(store, profile, verdict):
    with pytest.raises(ValueError, match="verdict"):
        store.record_attempt(profile.id, NewAttempt("q", verdict, answer="(("), now=T0)
    assert store.count_attempts(profile.id) == 0 and store.list_cards(profile.id) == []


@pytest.mark.parametrize("phase", ["retry", "after_reveal"])
def test_a_later_try_is_kept_but_leaves_the_card_alone(store, profile, phase):
    first = store.record_attempt(profile.id, NewAttempt("q", Verdict.WRONG), now=T0)
    card = store.list_cards(profile.id)
    later = store.record_attempt(profile.id, NewAttempt("q", Verdict.CORRECT, score=1.0, phase=phase),
                                 now=T0 + timedelta(minutes=1))
    assert (first.rating, later.rating, later.before) == (1, None, None)
    assert store.list_cards(profile.id) == card == [later.card]  # the card as it stands
    assert [(a.phase, a.counted) for a in store.list_attempts(profile.id)] == [
        ("first", True), (phase, False)]


def test_a_wrong_first_try_brings_the_question_back_tomorrow(store, profile):
    record = store.record_attempt(profile.id, NewAttempt("q", Verdict.WRONG), now=T0)
    assert record.card.due == T0 + timedelta(days=1)
    assert store.list_cards(profile.id)[0].due == T0 + timedelta(days=1)


@pytest.mark.parametrize(("chosen", "days"), [(2, 1), (3, 2), (4, 8)])
def test_changing_a_right_answers_rating_schedules_the_card_once(store, profile, chosen, days):
    record = store.record_attempt(profile.id, NewAttempt("q", Verdict.CORRECT, score=1.0, confidence=2),
                                  now=T0)
    assert record.rating == 3 and record.card.due == T0 + timedelta(days=2)
    card = store.change_rating(profile.id, record.id, chosen)
    assert card.due == T0 + timedelta(days=days) and card.reps == 1
    assert card.last_rating == chosen and store.list_cards(profile.id) == [card]
    assert store.list_attempts(profile.id)[0].rating == chosen
    # changing back gives exactly the card a first rating of Good gives
    assert store.change_rating(profile.id, record.id, 3) == record.card


def test_a_rating_cannot_be_changed_after_a_wrong_answer_or_a_later_review(store, profile):
    wrong = store.record_attempt(profile.id, NewAttempt("q", Verdict.WRONG), now=T0)
    with pytest.raises(ValueError, match="cannot become"):
        store.change_rating(profile.id, wrong.id, 3)
    right = store.record_attempt(profile.id, NewAttempt("r", Verdict.CORRECT, score=1.0), now=T0)
    store.record_attempt(profile.id, NewAttempt("r", Verdict.CORRECT, score=1.0),
                         now=T0 + timedelta(days=3))
    with pytest.raises(ValueError, match="no longer"):
        store.change_rating(profile.id, right.id, 4)
    retry = store.record_attempt(profile.id, NewAttempt("q", Verdict.CORRECT, score=1.0, phase="retry"),
                                 now=T0)
    with pytest.raises(ValueError, match="did not rate"):
        store.change_rating(profile.id, retry.id, 4)


def test_attempt_and_card_are_one_transaction(store, profile, monkeypatch):
    def broken_schedule(*_args, **_kwargs):
        raise RuntimeError("scheduler failed")

    monkeypatch.setattr("tutor.store.progress.schedule", broken_schedule)
    with pytest.raises(RuntimeError):
        store.record_attempt(profile.id, NewAttempt("q", Verdict.CORRECT, score=1.0), now=T0)
    assert store.count_attempts(profile.id) == 0 and store.list_cards(profile.id) == []


def test_card_follows_the_fsrs_schedule(store, profile):
    store.record_attempt(profile.id, NewAttempt("q", Verdict.CORRECT, score=1.0), now=T0)
    first = store.list_cards(profile.id)[0]
    later = first.due + timedelta(minutes=1)
    store.record_attempt(profile.id, NewAttempt("q", Verdict.CORRECT, score=1.0), now=later)
    second = store.list_cards(profile.id)[0]
    assert (first.reps, second.reps) == (1, 2)
    assert second.due > first.due and second.last_review == later


def test_restart_keeps_everything(store_url):
    first = ProgressStore.open(store_url)
    ada = first.create_profile("Ada")
    for i in range(5):
        first.record_attempt(
            ada.id, NewAttempt(f"q{i % 2}", Verdict.CORRECT if i % 3 else Verdict.WRONG, score=1.0 * (i % 3 > 0)),
            now=T0 + timedelta(minutes=i),
        )
    first.set_setting(ada.id, "lang", "zh")
    before = (first.list_profiles(), first.list_attempts(ada.id), first.list_cards(ada.id))
    first.close()

    second = ProgressStore.open(store_url)
    after = (second.list_profiles(), second.list_attempts(ada.id), second.list_cards(ada.id))
    assert after == before and second.get_settings(ada.id) == {"lang": "zh"}
    second.close()


def test_review_queue_puts_confident_errors_first_then_most_overdue(store, profile):
    record = store.record_attempt
    record(profile.id, NewAttempt("old-good", Verdict.CORRECT, score=1.0, confidence=2), now=T0)
    record(profile.id, NewAttempt("unsure-wrong", Verdict.WRONG, confidence=1), now=T0)
    record(profile.id, NewAttempt("sure-wrong", Verdict.WRONG, confidence=3), now=T0 + timedelta(hours=1))
    record(profile.id, NewAttempt("future", Verdict.CORRECT, score=1.0, confidence=3), now=T0 + timedelta(days=30))
    now = T0 + timedelta(days=2)
    queue = [c.question_id for c in store.review_queue(profile.id, now)]
    assert queue == ["sure-wrong", "unsure-wrong", "old-good"]
    assert [c.question_id for c in store.review_queue(profile.id, now, limit=1)] == ["sure-wrong"]
    assert queue == [c.question_id for c in order_queue(store.list_cards(profile.id), now)]


def _write_attempts(url: str, profile_id: int, worker: int, count: int) -> None:
    store = ProgressStore.open(url)
    try:
        for i in range(count):
            verdict = Verdict.CORRECT if (worker + i) % 2 else Verdict.WRONG
            # every write to "shared" is a new variant (its own seed), so each one counts
            store.record_attempt(
                profile_id, NewAttempt("shared" if i % 2 else f"w{worker}-{i}", verdict, score=0.5,
                                       seed=worker * 1000 + i)
            )
    finally:
        store.close()


def test_concurrent_threads_lose_nothing(store, store_url, profile):
    threads = [
        threading.Thread(target=_write_attempts, args=(store_url, profile.id, w, 20)) for w in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.count_attempts(profile.id) == 80
    shared = next(c for c in store.list_cards(profile.id) if c.question_id == "shared")
    assert shared.reps == 40  # every review of the shared card was applied, none overwritten


def test_concurrent_processes_lose_nothing(store, store_url, profile):
    context = multiprocessing.get_context("fork")
    workers = [
        context.Process(target=_write_attempts, args=(store_url, profile.id, w, 15)) for w in range(3)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [w.exitcode for w in workers] == [0, 0, 0]
    assert store.count_attempts(profile.id) == 45
    shared = next(c for c in store.list_cards(profile.id) if c.question_id == "shared")
    assert shared.reps == 21  # 7 odd indices in range(15), 3 workers


def test_threads_sharing_one_store_object(store, profile):
    def work(w: int) -> None:
        for i in range(15):
            store.record_attempt(profile.id, NewAttempt(f"t{w}-{i}", Verdict.CORRECT, score=1.0))

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.count_attempts(profile.id) == 60 and len(store.list_cards(profile.id)) == 60


def test_naive_datetimes_are_refused(store, profile):
    with pytest.raises(ValueError, match="naive"):
        store.record_attempt(profile.id, NewAttempt("q", Verdict.CORRECT, score=1.0), now=T0.replace(tzinfo=None))


def test_recent_question_ids(store, profile):
    store.record_attempt(profile.id, NewAttempt("old", Verdict.CORRECT, score=1.0), now=T0)
    store.record_attempt(profile.id, NewAttempt("new", Verdict.CORRECT, score=1.0), now=T0 + timedelta(days=3))
    assert store.recent_question_ids(profile.id, since=T0 + timedelta(days=1)) == {"new"}
