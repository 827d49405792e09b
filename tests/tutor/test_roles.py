"""Instructors by `sub`, group claim or verified e-mail; everyone else (and every doubtful case,
including every claim a user or a lax provider can shape) is a learner."""

import unicodedata

import pytest

from tutor.roles import InstructorRule, Role, email_key

RULE = InstructorRule.from_config(
    {"instructor_emails": ["lee@School.edu", "Kate@school.edu"], "instructor_groups": ["dl-staff"],
     "instructor_subjects": ["sub-of-mo"]}, env={})
KELVIN = "\u212a"  # KELVIN SIGN: NFKC makes it a plain K, casefold a plain k


@pytest.mark.parametrize(("claims", "role"), [
    ({"sub": "1", "email": "lee@school.edu", "email_verified": True}, Role.INSTRUCTOR),
    ({"sub": "1", "email": "lee@SCHOOL.Edu", "email_verified": True}, Role.INSTRUCTOR),  # domain
    ({"sub": "1", "email": "Kate@school.edu", "email_verified": True}, Role.INSTRUCTOR),
    # e-mail not vouched for: missing (Entra ID), false, or anything but the JSON boolean true
    ({"sub": "1", "email": "lee@school.edu"}, Role.LEARNER),
    ({"sub": "1", "email": "lee@school.edu", "email_verified": False}, Role.LEARNER),
    ({"sub": "1", "email": "lee@school.edu", "email_verified": "true"}, Role.LEARNER),
    ({"sub": "1", "email": "lee@school.edu", "email_verified": "false"}, Role.LEARNER),
    ({"sub": "1", "email": "lee@school.edu", "email_verified": 1}, Role.LEARNER),
    ({"sub": "1", "email": "lee@school.edu", "email_verified": None}, Role.LEARNER),
    # the address as sent: the part before @ is not folded, nor spaces stripped
    ({"sub": "1", "email": "LEE@school.edu", "email_verified": True}, Role.LEARNER),
    ({"sub": "1", "email": "kate@school.edu", "email_verified": True}, Role.LEARNER),
    ({"sub": "1", "email": " lee@school.edu", "email_verified": True}, Role.LEARNER),
    ({"sub": "1", "email": "lee@school.edu.evil.test", "email_verified": True}, Role.LEARNER),
    ({"sub": "1", "email": "x@lee@school.edu", "email_verified": True}, Role.LEARNER),
    # compatibility characters are refused, never folded onto the plain address
    ({"sub": "1", "email": f"{KELVIN}ate@school.edu", "email_verified": True}, Role.LEARNER),
    ({"sub": "1", "email": "lee@school.edu\ufb01", "email_verified": True}, Role.LEARNER),
    ({"sub": "1", "email": "ｌee@school.edu", "email_verified": True}, Role.LEARNER),  # fullwidth
    ({"sub": "1", "email": 42, "email_verified": True}, Role.LEARNER),
    # groups: a JSON list of strings only, each compared exactly
    ({"sub": "1", "groups": ["students", "dl-staff"]}, Role.INSTRUCTOR),
    ({"sub": "1", "groups": "dl-staff"}, Role.LEARNER),
    ({"sub": "1", "groups": "students,dl-staff"}, Role.LEARNER),
    ({"sub": "1", "groups": ["students,dl-staff"]}, Role.LEARNER),
    ({"sub": "1", "groups": ["dl-staff", 7]}, Role.LEARNER),
    ({"sub": "1", "groups": {"dl-staff": True}}, Role.LEARNER),
    ({"sub": "1", "groups": ["DL-Staff"]}, Role.LEARNER),
    ({"sub": "1", "groups": [" dl-staff"]}, Role.LEARNER),
    ({"sub": "1", "groups": ["dl-staff-alumni"]}, Role.LEARNER),
    ({"sub": "1", "groups": None}, Role.LEARNER),
    # subjects: compared exactly
    ({"sub": "sub-of-mo"}, Role.INSTRUCTOR),
    ({"sub": "SUB-OF-MO"}, Role.LEARNER),
    ({"sub": ["sub-of-mo"]}, Role.LEARNER),
    ({"sub": "1"}, Role.LEARNER),
])
def test_roles(claims, role):
    assert RULE.role_of(claims) == role


def test_every_compatibility_character_in_an_address_is_refused():
    # Independent reference: the characters whose NFKC form differs, from the Unicode database.
    changed = [chr(c) for c in range(0x80, 0x3000) if unicodedata.normalize("NFKC", chr(c)) != chr(c)]
    assert len(changed) > 500
    for char in changed:
        assert email_key(f"lee{char}@school.edu") is None, hex(ord(char))
        assert email_key(f"lee@school{char}.edu") is None, hex(ord(char))


def test_nothing_configured_means_nobody_is_an_instructor():
    rule = InstructorRule.from_config(None, env={})
    assert rule.role_of({"email": "", "email_verified": True, "groups": [""], "sub": ""}) == Role.LEARNER


def test_the_environment_overrides_the_secrets():
    rule = InstructorRule.from_config(
        {"instructor_emails": ["a@x.edu"], "group_claim": "roles"},
        env={"TUTOR_INSTRUCTOR_EMAILS": "b@x.edu, c@X.edu", "TUTOR_GROUP_CLAIM": "cohorts",
             "TUTOR_INSTRUCTOR_SUBJECTS": "s1, s2"})
    assert rule.emails == {"b@x.edu", "c@x.edu"} and rule.group_claim == "cohorts"
    assert rule.subjects == {"s1", "s2"}
    assert rule.role_of({"email": "a@x.edu", "email_verified": True}) == Role.LEARNER
    assert rule.role_of({"email": "c@x.edu", "email_verified": True}) == Role.INSTRUCTOR
    assert rule.role_of({"cohorts": ["x"], "roles": ["x"]}) == Role.LEARNER
