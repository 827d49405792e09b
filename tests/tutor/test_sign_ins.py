"""A sign-in ends a configurable time after the identity token was issued (or at its `exp`, when
asked), and at sign-out on every replica: the times against hand-computed ones, and the revocation
through the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tutor.sign_ins import SignInPolicy, sign_in_of
from tutor.store.sign_outs import end_sign_in, sign_in_ended

ISSUED = 1_780_000_000  # 2026-05-28T20:26:40Z
CLAIMS = {"iss": "https://login.school.test", "sub": "ada", "nonce": "n-1", "iat": ISSUED,
          "exp": ISSUED + 3600}


def at(seconds: float) -> datetime:
    return datetime.fromtimestamp(ISSUED + seconds, UTC)


def test_a_school_day_by_default():
    sign_in = sign_in_of(CLAIMS, SignInPolicy())
    assert sign_in.started_at == datetime(2026, 5, 28, 20, 26, 40, tzinfo=UTC)
    assert sign_in.ends_at == datetime(2026, 5, 29, 6, 26, 40, tzinfo=UTC)  # + 10 h
    assert not sign_in.over(at(10 * 3600 - 1)) and sign_in.over(at(10 * 3600))


def test_the_token_expiry_ends_it_when_asked():
    policy = SignInPolicy.from_config({"end_at_token_expiry": True}, env={})
    assert sign_in_of(CLAIMS, policy).ends_at == at(3600)
    assert sign_in_of({**CLAIMS, "exp": ISSUED + 99 * 3600}, policy).ends_at == at(10 * 3600)
    assert sign_in_of({k: v for k, v in CLAIMS.items() if k != "exp"}, policy) is None


def test_auth_time_does_not_shorten_a_fresh_sign_in():
    # A provider that remembers its own login for days sends that old time with a new token.
    old_login = {**CLAIMS, "auth_time": ISSUED - 5 * 24 * 3600}
    assert sign_in_of(old_login, SignInPolicy()).ends_at == at(10 * 3600)


@pytest.mark.parametrize("changed", [
    {"iat": None}, {"iat": "1780000000"}, {"iat": True}, {"iat": float("nan")},
    {"sub": None}, {"sub": ""}, {"nonce": None}, {"nonce": 5},
])
def test_claims_that_bound_nothing_are_refused(changed):
    assert sign_in_of({**CLAIMS, **changed}, SignInPolicy()) is None


def test_each_sign_in_has_its_own_key_and_every_copy_of_one_the_same():
    policy = SignInPolicy()
    key = sign_in_of(CLAIMS, policy).key
    assert sign_in_of(dict(CLAIMS), policy).key == key
    assert sign_in_of({**CLAIMS, "name": "renamed"}, policy).key == key
    for other in ({"nonce": "n-2"}, {"iat": ISSUED + 1}, {"sub": "bo"}, {"iss": "https://x"}):
        assert sign_in_of({**CLAIMS, **other}, policy).key != key


@pytest.mark.parametrize(("section", "env", "hours", "expiry"), [
    (None, {}, 10, False),
    ({"max_hours": 2.5}, {}, 2.5, False),
    ({"max_hours": 2}, {"TUTOR_SIGN_IN_MAX_HOURS": "0.5"}, 0.5, False),
    ({"end_at_token_expiry": True}, {}, 10, True),
    ({"end_at_token_expiry": True}, {"TUTOR_SIGN_IN_END_AT_TOKEN_EXPIRY": "0"}, 10, False),
    (None, {"TUTOR_SIGN_IN_END_AT_TOKEN_EXPIRY": "true"}, 10, True),
    ({"end_at_token_expiry": "false"}, {}, 10, False),
])
def test_configuration(section, env, hours, expiry):
    policy = SignInPolicy.from_config(section, env)
    assert policy.max_age == timedelta(hours=hours) and policy.end_at_token_expiry is expiry


@pytest.mark.parametrize("bad", [0, -1, "ten", float("inf"), None])
def test_a_maximum_that_is_not_a_positive_number_is_refused(bad):
    with pytest.raises(ValueError, match="max_hours"):
        SignInPolicy.from_config({"max_hours": bad}, env={})


def test_a_sign_out_is_seen_by_another_store_on_the_same_database(store_url):
    from tutor.store import ProgressStore

    first, second = ProgressStore.open(store_url), ProgressStore.open(store_url)  # two replicas
    sign_in = sign_in_of(CLAIMS, SignInPolicy())
    other = sign_in_of({**CLAIMS, "nonce": "n-2"}, SignInPolicy())
    assert not sign_in_ended(second, sign_in.key)
    end_sign_in(first, sign_in.key, until=sign_in.ends_at, now=at(60))
    end_sign_in(second, sign_in.key, until=sign_in.ends_at, now=at(61))  # twice: no error
    assert sign_in_ended(second, sign_in.key) and sign_in_ended(first, sign_in.key)
    assert not sign_in_ended(second, other.key)  # the same person's next sign-in is untouched
    # Rows are kept until the sign-in would have ended anyway, then dropped.
    end_sign_in(first, other.key, until=other.ends_at, now=sign_in.ends_at + timedelta(seconds=1))
    assert not sign_in_ended(first, sign_in.key) and sign_in_ended(first, other.key)
    first.close()
    second.close()
