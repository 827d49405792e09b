"""Instructors by e-mail or group claim; everyone else (and every doubtful case) is a learner."""

import pytest

from tutor.roles import InstructorRule, Role

RULE = InstructorRule.from_config(
    {"instructor_emails": ["Lee@School.edu"], "instructor_groups": ["dl-staff"]}, env={})


@pytest.mark.parametrize(("claims", "role"), [
    ({"sub": "1", "email": "lee@school.edu"}, Role.INSTRUCTOR),
    ({"sub": "1", "email": " LEE@school.EDU "}, Role.INSTRUCTOR),
    ({"sub": "1", "email": "lee@school.edu", "email_verified": True}, Role.INSTRUCTOR),
    ({"sub": "1", "email": "lee@school.edu", "email_verified": False}, Role.LEARNER),
    ({"sub": "1", "email": "lee@school.edu.evil.test"}, Role.LEARNER),
    ({"sub": "1", "groups": ["students", "dl-staff"]}, Role.INSTRUCTOR),
    ({"sub": "1", "groups": "dl-staff"}, Role.INSTRUCTOR),
    ({"sub": "1", "groups": ["dl-staff-alumni"]}, Role.LEARNER),
    ({"sub": "1", "groups": None}, Role.LEARNER),
    ({"sub": "1", "email": 42}, Role.LEARNER),
    ({"sub": "1"}, Role.LEARNER),
])
def test_roles(claims, role):
    assert RULE.role_of(claims) == role


def test_nothing_configured_means_nobody_is_an_instructor():
    rule = InstructorRule.from_config(None, env={})
    assert rule.role_of({"email": "", "groups": [""]}) == Role.LEARNER


def test_the_environment_overrides_the_secrets():
    rule = InstructorRule.from_config(
        {"instructor_emails": ["a@x.edu"], "group_claim": "roles"},
        env={"TUTOR_INSTRUCTOR_EMAILS": "b@x.edu, c@x.edu", "TUTOR_GROUP_CLAIM": "cohorts"})
    assert rule.emails == {"b@x.edu", "c@x.edu"} and rule.group_claim == "cohorts"
    assert rule.role_of({"email": "a@x.edu"}) == Role.LEARNER
