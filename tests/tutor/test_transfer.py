"""Export -> import round trip, merging, and malformed imports refused with the data untouched."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest

from grader import Verdict
from tutor.store import NewAttempt, ProfileError
from tutor.transfer import (
    CSV_COLUMNS,
    MAX_IMPORT_BYTES,
    ImportPolicy,
    ImportRefused,
    export_csv,
    export_json,
    import_json,
)

from .conftest import T0


def _fill(store, profile_id):
    history = [
        NewAttempt("grad-jacobian", Verdict.WRONG, answer="(I + W) g", confidence=3, hints_used=1, seconds=30.5),
        NewAttempt("grad-jacobian", Verdict.CORRECT, score=1.0, answer="(I + W)^T g", confidence=2, seed=11),
        NewAttempt("iv-why", Verdict.PARTIAL, score=0.5, answer="恒等映射，梯度直达", confidence=3,
                   rubric_ticks=("identity-term", "ensemble"), mode="interview"),
        NewAttempt("numeric-x", Verdict.WRONG, answer="=HYPERLINK()", phase="retry"),
    ]
    for i, attempt in enumerate(history):
        store.record_attempt(profile_id, attempt, now=T0 + timedelta(hours=i))
    store.set_setting(profile_id, "lang", "zh")
    store.set_setting(profile_id, "goal", {"per_day": 10})


def _snapshot(store):
    return [
        (p, store.list_attempts(p.id), store.list_cards(p.id), store.get_settings(p.id))
        for p in store.list_profiles()
    ]


def _comparable(attempts):
    return [(a.question_id, a.seed, a.answer, a.verdict, a.score, a.hints_used, a.seconds,
             a.confidence, a.rubric_ticks, a.rating, a.mode, a.created_at, a.phase)
            for a in attempts]


def test_export_import_round_trip_into_a_new_profile(store, profile):
    _fill(store, profile.id)
    exported = export_json(store, profile.id, now=T0)
    report = import_json(store, exported, new_profile_name="Ada on the laptop")
    assert (report.attempts_added, report.cards_written, report.settings_written) == (4, 2, 2)
    copy = report.profile_id
    assert store.get_profile(copy).name == "Ada on the laptop"
    assert _comparable(store.list_attempts(copy)) == _comparable(store.list_attempts(profile.id))
    assert store.list_cards(copy) == store.list_cards(profile.id)
    assert store.get_settings(copy) == {"lang": "zh", "goal": {"per_day": 10}}
    # The export of the copy is the same document, apart from the profile's name.
    again = json.loads(export_json(store, copy, now=T0))
    original = json.loads(exported)
    again["profile"]["name"] = original["profile"]["name"]
    assert again == original


def test_importing_twice_into_the_same_profile_adds_nothing(store, profile):
    _fill(store, profile.id)
    exported = export_json(store, profile.id)
    before = _snapshot(store)
    report = import_json(store, exported, into_profile_id=profile.id)
    assert (report.attempts_added, report.attempts_skipped, report.cards_written) == (0, 4, 0)
    assert _snapshot(store) == before


def test_merging_keeps_the_later_card_and_existing_settings(store, profile):
    _fill(store, profile.id)
    exported = export_json(store, profile.id)
    other = store.create_profile("Bo")
    store.record_attempt(other.id, NewAttempt("grad-jacobian", Verdict.CORRECT, score=1.0), now=T0 + timedelta(days=9))
    store.set_setting(other.id, "lang", "en")
    newer_card = store.list_cards(other.id)[0]
    report = import_json(store, exported, into_profile_id=other.id)
    assert report.attempts_added == 4 and store.count_attempts(other.id) == 5
    cards = {c.question_id: c for c in store.list_cards(other.id)}
    assert cards["grad-jacobian"] == newer_card  # reviewed later here than in the file
    assert "iv-why" in cards
    assert store.get_settings(other.id) == {"lang": "en", "goal": {"per_day": 10}}


def test_csv_export(store, profile):
    _fill(store, profile.id)
    rows = list(csv.DictReader(io.StringIO(export_csv(store, profile.id))))
    assert list(rows[0]) == CSV_COLUMNS and len(rows) == 4
    assert rows[2]["answer"] == "恒等映射，梯度直达" and rows[2]["rubric_ticks"] == "identity-term;ensemble"
    assert rows[1]["seed"] == "11" and rows[0]["seed"] == ""
    assert rows[3]["answer"] == "'=HYPERLINK()"  # not a formula when opened in a spreadsheet


def test_an_export_written_before_tries_were_told_apart_still_imports(store, profile):
    # Older files: verdict "error" for an unreadable answer, and no `phase` (every attempt counted).
    document = _good_document(store, profile)
    for attempt in document["attempts"]:
        del attempt["phase"]
    document["attempts"][-1]["verdict"] = "error"
    other = store.create_profile("Bo")
    report = import_json(store, json.dumps(document), into_profile_id=other.id)
    assert report.attempts_added == 4
    imported = store.list_attempts(other.id)
    assert [a.phase for a in imported] == ["first"] * 4
    assert imported[-1].verdict == "unreadable" and not imported[-1].counted
    assert [a.counted for a in imported[:3]] == [True] * 3
    # the same file again adds nothing: "error" and "unreadable" are one verdict
    assert import_json(store, json.dumps(document), into_profile_id=other.id).attempts_added == 0


def _good_document(store, profile) -> dict:
    _fill(store, profile.id)
    return json.loads(export_json(store, profile.id))


def _break(document: dict, how: str):
    doc = json.loads(json.dumps(document))
    if how == "extra-top-field":
        doc["surprise"] = 1
    elif how == "extra-attempt-field":
        doc["attempts"][0]["is_admin"] = True
    elif how == "missing-field":
        del doc["attempts"][1]["verdict"]
    elif how == "score-as-text":
        doc["attempts"][0]["score"] = "1.0"
    elif how == "score-out-of-range":
        doc["attempts"][0]["score"] = 7
    elif how == "naive-time":
        doc["attempts"][-1]["created_at"] = "2026-03-01T09:00:00"
    elif how == "bad-verdict":
        doc["attempts"][-1]["verdict"] = "great"
    elif how == "confidence-5":
        doc["attempts"][0]["confidence"] = 5
    elif how == "nan":
        return json.dumps(doc).replace('"seconds": 30.5', '"seconds": NaN')
    elif how == "duplicate-card":
        doc["cards"].append(doc["cards"][0])
    elif how == "bad-card-state":
        doc["cards"][0]["state"] = 9
    elif how == "wrong-version":
        doc["format_version"] = 2
    elif how == "not-ours":
        doc["format"] = "anki"
    elif how == "a-list":
        return "[1, 2, 3]"
    elif how == "not-json":
        return json.dumps(doc)[:-20]
    elif how == "deep":
        return "[" * 100_000 + "]" * 100_000
    elif how == "too-large":
        return " " * (MAX_IMPORT_BYTES + 1)
    elif how == "empty-name":
        doc["profile"]["name"] = ""
    return json.dumps(doc)


MALFORMED = [
    ("extra-top-field", "invalid"), ("extra-attempt-field", "invalid"), ("missing-field", "invalid"),
    ("score-as-text", "invalid"), ("score-out-of-range", "invalid"), ("naive-time", "invalid"),
    ("bad-verdict", "unknown-verdict"), ("confidence-5", "invalid"), ("nan", "invalid"),
    ("duplicate-card", "invalid"), ("bad-card-state", "invalid"), ("empty-name", "invalid"),
    ("wrong-version", "wrong-format"), ("not-ours", "wrong-format"), ("a-list", "wrong-format"),
    ("not-json", "not-json"), ("deep", "not-json"), ("too-large", "too-large"),
]


@pytest.mark.parametrize(("how", "code"), MALFORMED, ids=[m[0] for m in MALFORMED])
@pytest.mark.parametrize("target", ["new", "existing"])
def test_a_malformed_import_is_refused_and_nothing_changes(store, profile, how, code, target):
    broken = _break(_good_document(store, profile), how)
    before = _snapshot(store)
    with pytest.raises(ImportRefused) as caught:
        if target == "new":
            import_json(store, broken, new_profile_name="Imported")
        else:
            import_json(store, broken, into_profile_id=profile.id)
    assert caught.value.code == code
    assert caught.value.message("zh") != caught.value.message("en")
    if code == "invalid":
        assert caught.value.problems and all(":" in p for p in caught.value.problems)
    assert _snapshot(store) == before


def test_an_import_that_fails_while_writing_leaves_nothing(store, profile, monkeypatch):
    _fill(store, profile.id)
    exported = export_json(store, profile.id)

    def failing_update(*_args, **_kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr("tutor.transfer._later", failing_update)
    other = store.create_profile("Bo")
    store.record_attempt(other.id, NewAttempt("grad-jacobian", Verdict.CORRECT, score=1.0), now=T0)
    before = _snapshot(store)
    with pytest.raises(RuntimeError):
        import_json(store, exported, into_profile_id=other.id)
    assert _snapshot(store) == before


def test_a_new_profile_name_already_taken_is_refused(store, profile):
    exported = export_json(store, profile.id)
    before = _snapshot(store)
    with pytest.raises(ProfileError, match="name-taken"):
        import_json(store, exported)  # the exported name "Ada" exists
    assert _snapshot(store) == before


def _with_attempt_dated(exported: str, when) -> str:
    data = json.loads(exported)
    data["attempts"][0]["created_at"] = when.isoformat()
    return json.dumps(data)


def test_attempts_dated_in_the_future_are_refused(store, profile):
    _fill(store, profile.id)
    exported = export_json(store, profile.id, now=T0 + timedelta(hours=4))
    other = store.create_profile("Other")
    future = _with_attempt_dated(exported, T0 + timedelta(days=400))
    with pytest.raises(ImportRefused) as refused:
        import_json(store, future, into_profile_id=other.id, now=T0 + timedelta(days=1))
    assert refused.value.code == "future"
    assert "attempts.0: grad-jacobian 2027-04-05" in refused.value.message("en")
    assert "1 entries in the file are dated in the future" in refused.value.message("en")
    assert "未来" in refused.value.message("zh")
    assert store.list_attempts(other.id) == []
    # a clock a minute ahead is not "the future"
    ahead = _with_attempt_dated(exported, T0 + timedelta(days=1, minutes=1))
    assert import_json(store, ahead, into_profile_id=other.id, now=T0 + timedelta(days=1)).attempts_added == 4


def test_attempts_for_questions_the_bank_does_not_have_are_kept_and_counted(store, profile):
    _fill(store, profile.id)
    exported = export_json(store, profile.id, now=T0 + timedelta(hours=4))
    report = import_json(store, exported, new_profile_name="Copy", now=T0 + timedelta(days=1),
                         known_question_ids={"grad-jacobian"})
    assert (report.attempts_added, report.attempts_unknown, report.questions_unknown) == (4, 2, 2)
    assert len(store.list_attempts(report.profile_id)) == 4
    again = import_json(store, exported, into_profile_id=report.profile_id,
                        now=T0 + timedelta(days=1), known_question_ids={"grad-jacobian"})
    assert (again.attempts_added, again.attempts_unknown) == (0, 0)  # only what was added counts


# ---- imports are marked, and limited -------------------------------------------------------
def _forged(count: int, *, start=T0) -> str:
    """What a learner can write by hand: back-dated "correct" first tries."""
    attempt = {"question_id": "grad-jacobian", "seed": None, "answer": "x", "verdict": "correct",
               "score": 1.0, "hints_used": 0, "seconds": 3.0, "confidence": 3,
               "rubric_ticks": [], "rating": 3, "mode": "practice", "phase": "first"}
    return json.dumps({
        "format": "residual-tutor-progress", "format_version": 1,
        "exported_at": start.isoformat(), "profile": {"name": "x", "created_at": start.isoformat()},
        "settings": {}, "cards": [],
        "attempts": [{**attempt, "created_at": (start - timedelta(minutes=k)).isoformat()}
                     for k in range(count)],
    })


def test_imported_attempts_are_marked_and_answered_ones_are_not(store, profile):
    _fill(store, profile.id)
    other = store.create_profile("Bo")
    store.record_attempt(other.id, NewAttempt("own", Verdict.WRONG), now=T0)
    import_json(store, export_json(store, profile.id), into_profile_id=other.id)
    import_json(store, _forged(3), into_profile_id=other.id)
    marks = sorted((a.question_id, a.imported) for a in store.list_attempts(other.id))
    assert marks == [("grad-jacobian", True)] * 5 + [("iv-why", True), ("numeric-x", True),
                                                     ("own", False)]
    assert not any(a.imported for a in store.list_attempts(profile.id))
    # An export of imported attempts imported again is still imported.
    third = store.create_profile("Cy")
    import_json(store, export_json(store, other.id), into_profile_id=third.id)
    assert all(a.imported for a in store.list_attempts(third.id))


def test_a_class_policy_refuses_too_many_attempts_before_reading_them(store, profile):
    policy = ImportPolicy.for_class({"max_attempts": 100}, env={})
    # one entry no validation would pass: refused as "too-many", the file was counted, not read
    unread = json.loads(_forged(101))
    unread["attempts"][0]["verdict"] = "not-a-verdict"
    with pytest.raises(ImportRefused) as refused:
        import_json(store, json.dumps(unread), into_profile_id=profile.id, policy=policy)
    assert refused.value.code == "too-many"
    assert "101" in refused.value.message("en") and "100" in refused.value.message("zh")
    assert store.count_attempts(profile.id) == 0
    assert import_json(store, _forged(100), into_profile_id=profile.id,
                       policy=policy).attempts_added == 100


def test_the_class_defaults_refuse_the_forged_file_of_issue_23(store, profile):
    policy = ImportPolicy.for_class(None, env={})
    assert policy.allowed and policy.max_bytes == 5 * 1024 * 1024 and policy.max_attempts == 10_000
    with pytest.raises(ImportRefused) as refused:
        import_json(store, _forged(45_138), into_profile_id=profile.id, policy=policy)
    assert refused.value.code == "too-large"  # 45,138 attempts take ~14 MB
    assert "5 MB" in refused.value.message("en")
    with pytest.raises(ImportRefused) as refused:
        import_json(store, _forged(10_001), into_profile_id=profile.id, policy=policy)
    assert refused.value.code == "too-many"
    assert store.count_attempts(profile.id) == 0


def test_an_instructor_can_turn_importing_off(store, profile):
    for section, env in (({"allowed": False}, {}), (None, {"TUTOR_IMPORTS_ALLOWED": "0"}),
                         ({"allowed": True}, {"TUTOR_IMPORTS_ALLOWED": "false"})):
        policy = ImportPolicy.for_class(section, env)
        assert not policy.allowed
        with pytest.raises(ImportRefused) as refused:
            import_json(store, _forged(1), into_profile_id=profile.id, policy=policy)
        assert refused.value.code == "turned-off"
        assert refused.value.message("zh") == "本课程已关闭导入功能。"
    assert store.count_attempts(profile.id) == 0


@pytest.mark.parametrize(("section", "env", "mb", "attempts"), [
    ({"max_mb": 1, "max_attempts": 50}, {}, 1, 50),
    ({"max_mb": 1}, {"TUTOR_IMPORT_MAX_MB": "0.5", "TUTOR_IMPORT_MAX_ATTEMPTS": "7"}, 0.5, 7),
    ({"max_mb": 500, "max_attempts": 10**9}, {}, 20, 500_000),  # never above the app's own
])
def test_class_limits_are_configurable(section, env, mb, attempts):
    policy = ImportPolicy.for_class(section, env)
    assert (policy.max_mb, policy.max_attempts) == (mb, attempts)


@pytest.mark.parametrize("bad", [{"max_mb": 0}, {"max_attempts": -5}, {"max_mb": "lots"},
                                 {"max_attempts": True}])
def test_bad_class_limits_are_refused(bad):
    with pytest.raises(ValueError, match=r"\[imports\]"):
        ImportPolicy.for_class(bad, env={})
