"""Who is an instructor in a class deployment: a pure rule over the identity's claims.

Configured in Streamlit's secrets (`[roles]` in `.streamlit/secrets.toml`) or the environment:

    [roles]
    instructor_emails = ["lee@school.edu"]      # TUTOR_INSTRUCTOR_EMAILS="lee@school.edu,..."
    instructor_groups = ["dl-staff"]            # TUTOR_INSTRUCTOR_GROUPS="dl-staff,..."
    group_claim = "groups"                      # TUTOR_GROUP_CLAIM (the claim that lists groups)

An e-mail counts only when the provider has not said it is unverified (`email_verified` false):
otherwise anyone who can type an instructor's address at a lax provider would become one.
Everyone else is a learner.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


class Role(enum.StrEnum):
    LEARNER = "learner"
    INSTRUCTOR = "instructor"


def _normalized(values: Iterable[object]) -> frozenset[str]:
    return frozenset(str(v).strip().casefold() for v in values if str(v).strip())


def _listed(value: object) -> list[object]:
    """A TOML list, or a comma-separated string from the environment."""
    if value is None:
        return []
    if isinstance(value, str):
        return value.split(",")
    if isinstance(value, Iterable):
        return list(value)
    return [value]


@dataclass(frozen=True)
class InstructorRule:
    emails: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    group_claim: str = "groups"

    @classmethod
    def from_config(cls, secrets: Mapping[str, object] | None,
                    env: Mapping[str, str]) -> InstructorRule:
        """The secrets' `[roles]` table, each key overridden by its environment variable."""
        section = secrets or {}
        emails = env.get("TUTOR_INSTRUCTOR_EMAILS", section.get("instructor_emails"))
        groups = env.get("TUTOR_INSTRUCTOR_GROUPS", section.get("instructor_groups"))
        claim = env.get("TUTOR_GROUP_CLAIM", section.get("group_claim")) or "groups"
        return cls(_normalized(_listed(emails)), _normalized(_listed(groups)), str(claim))

    def role_of(self, claims: Mapping[str, object]) -> Role:
        email = claims.get("email")
        if (isinstance(email, str) and claims.get("email_verified") is not False
                and email.strip().casefold() in self.emails):
            return Role.INSTRUCTOR
        if _normalized(_listed(claims.get(self.group_claim))) & self.groups:
            return Role.INSTRUCTOR
        return Role.LEARNER
