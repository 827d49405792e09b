"""Who the Class page lists, and how (issue 28): two learners of one name are told apart, an
instructor is not a learner, and a local profile keeps its name."""

from __future__ import annotations

from tutor.class_store import load_class
from tutor.class_view import learner_label
from tutor.store.identities import Seen, profile_for_identity

from .conftest import T0

IDP = "https://idp.school.test"


def test_two_alices_are_told_apart_and_the_instructor_is_not_listed(store):
    local = store.create_profile("Carol")
    first = profile_for_identity(store, IDP, "a1", "Alice", seen=Seen(email_local="alice.w"))
    second = profile_for_identity(store, IDP, "a2", "Alice", seen=Seen(email_local="alice.z"))
    unverified = profile_for_identity(store, IDP, "a3", "Alice", seen=Seen())
    profile_for_identity(store, IDP, "lee", "Lee", seen=Seen(instructor=True, email_local="lee"))

    names = {a.profile.id: a.profile.name for a in load_class(store, T0)}

    assert names == {local.id: "Carol", first.id: "Alice · alice.w",
                     second.id: "Alice (2) · alice.z", unverified.id: f"Alice (3) · #{unverified.id}"}


def test_an_instructor_who_becomes_a_learner_is_listed_again(store):
    profile_for_identity(store, IDP, "lee", "Lee", seen=Seen(instructor=True))
    assert load_class(store, T0) == []
    lee = profile_for_identity(store, IDP, "lee", "Lee", seen=Seen(instructor=False))
    assert [a.profile.id for a in load_class(store, T0)] == [lee.id]


def test_the_label():
    assert learner_label("Bo", 4, bound=False, email_local=None) == "Bo"
    assert learner_label("Bo", 4, bound=True, email_local=None) == "Bo · #4"
    assert learner_label("Bo", 4, bound=True, email_local="bo.k") == "Bo · bo.k"
