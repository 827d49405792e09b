"""Drafts: one JSON value per (profile, key), replaced on save, gone with the profile, kept
across a restart."""

from __future__ import annotations

import pytest

from tutor.store import ProfileError, ProgressStore
from tutor.store.scratch import MAX_SCRATCH_CHARS, clear_scratch, load_scratch, save_scratch

from .conftest import T0


def test_save_load_replace_clear(store, profile):
    assert load_scratch(store, profile.id, "practice") is None
    save_scratch(store, profile.id, "practice", {"question_id": "q", "typed": {"text": "1 + F'(x)"}},
               now=T0)
    save_scratch(store, profile.id, "interview", [1, "二"], now=T0)
    assert load_scratch(store, profile.id, "practice")["typed"] == {"text": "1 + F'(x)"}
    save_scratch(store, profile.id, "practice", {"question_id": "r"}, now=T0)
    assert load_scratch(store, profile.id, "practice") == {"question_id": "r"}
    assert load_scratch(store, profile.id, "interview") == [1, "二"]
    clear_scratch(store, profile.id, "practice")
    assert load_scratch(store, profile.id, "practice") is None
    assert load_scratch(store, profile.id, "interview") == [1, "二"]


def test_drafts_belong_to_their_profile_and_go_with_it(store, profile):
    other = store.create_profile("Bo")
    save_scratch(store, profile.id, "practice", "mine", now=T0)
    assert load_scratch(store, other.id, "practice") is None
    store.delete_profile(profile.id)
    assert load_scratch(store, profile.id, "practice") is None
    with pytest.raises(ProfileError, match="unknown-profile"):
        save_scratch(store, profile.id, "practice", "mine", now=T0)


def test_a_draft_survives_a_restart(store_url):
    first = ProgressStore.open(store_url)
    me = first.create_profile("Ada")
    save_scratch(first, me.id, "interview", {"time_left": 123.5}, now=T0)
    first.close()
    second = ProgressStore.open(store_url)
    assert load_scratch(second, me.id, "interview") == {"time_left": 123.5}
    second.close()


@pytest.mark.parametrize(("key", "value"), [("", 1), ("k" * 65, 1), ("ok", "x" * MAX_SCRATCH_CHARS)])
def test_bad_keys_and_oversized_drafts_are_refused(store, profile, key, value):
    with pytest.raises(ValueError):
        save_scratch(store, profile.id, key, value, now=T0)
