"""A signed-in identity is bound to exactly one profile, made at the first login."""

from __future__ import annotations

import threading

import pytest

from grader import Verdict
from tutor.store import NewAttempt, ProgressStore
from tutor.store.identities import identity_of, profile_for_identity

from .conftest import T0

ISSUER = "http://127.0.0.1:9400"


def test_the_first_login_makes_the_profile_and_later_logins_find_it(store):
    first = profile_for_identity(store, ISSUER, "sub-ada", "Ada Lovelace", now=T0)
    again = profile_for_identity(store, ISSUER, "sub-ada", "Someone Else", now=T0)
    assert first == again and first.name == "Ada Lovelace"
    assert identity_of(store, first.id) == (ISSUER, "sub-ada")
    assert [p.id for p in store.list_profiles()] == [first.id]


def test_same_name_different_people_get_different_profiles(store):
    store.create_profile("Wang Wei")  # a local profile of that name already exists
    a = profile_for_identity(store, ISSUER, "sub-1", "Wang Wei")
    b = profile_for_identity(store, ISSUER, "sub-2", "Wang Wei")
    assert a.id != b.id and {a.name, b.name} == {"Wang Wei (2)", "Wang Wei (3)"}


def test_the_same_subject_at_another_issuer_is_another_person(store):
    a = profile_for_identity(store, ISSUER, "42", "A")
    b = profile_for_identity(store, "https://other.example", "42", "B")
    assert a.id != b.id


@pytest.mark.parametrize("name", ["", "   ", "x" * 500])
def test_an_unusable_display_name_falls_back_to_the_subject(store, name):
    made = profile_for_identity(store, ISSUER, "sub-7", name)
    assert made.name in {"sub-7", ("x" * 500)[:72]}


@pytest.mark.parametrize(("issuer", "subject"), [("", "s"), (ISSUER, ""), (ISSUER, "s" * 256)])
def test_bad_identities_are_refused(store, issuer, subject):
    with pytest.raises(ValueError):
        profile_for_identity(store, issuer, subject, "A")


def test_deleting_the_profile_unbinds_the_identity(store):
    made = profile_for_identity(store, ISSUER, "sub-ada", "Ada")
    store.record_attempt(made.id, NewAttempt("q1", Verdict.CORRECT, score=1.0), now=T0)
    store.delete_profile(made.id)
    assert identity_of(store, made.id) is None
    fresh = profile_for_identity(store, ISSUER, "sub-ada", "Ada")
    assert store.count_attempts(fresh.id) == 0  # a new, empty profile (SQLite may reuse the id)
    assert identity_of(store, fresh.id) == (ISSUER, "sub-ada")


def test_two_first_logins_at_once_make_one_profile(store_url):
    stores = [ProgressStore.open(store_url) for _ in range(4)]
    barrier, made = threading.Barrier(4), []

    def login(db):
        barrier.wait(timeout=30)
        made.append(profile_for_identity(db, ISSUER, "sub-ada", "Ada").id)

    threads = [threading.Thread(target=login, args=(db,)) for db in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(made) == 4 and len(set(made)) == 1
    assert len(stores[0].list_profiles()) == 1
    for db in stores:
        db.close()
