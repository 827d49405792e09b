"""Who is an instructor in a class deployment: a pure rule over the identity's claims.

Configured in Streamlit's secrets (`[roles]` in `.streamlit/secrets.toml`) or the environment:

    [roles]
    instructor_subjects = ["8f14e45f-..."]      # TUTOR_INSTRUCTOR_SUBJECTS="sub1,sub2"
    instructor_groups = ["dl-staff"]            # TUTOR_INSTRUCTOR_GROUPS="dl-staff,..."
    group_claim = "groups"                      # TUTOR_GROUP_CLAIM (the claim that lists groups)
    instructor_emails = ["lee@school.edu"]      # TUTOR_INSTRUCTOR_EMAILS="lee@school.edu,..."

A role comes only from a claim the provider vouches for, read exactly as the provider sent it:

- `sub`: the provider's own identifier for the person, compared exactly;
- a group claim: only a JSON list of strings (a string such as `"students,dl-staff"` is not split:
  it is not a list the provider built), each compared exactly;
- `email`: only when `email_verified` is the JSON boolean `true` (missing, `"true"`, `1` do not
  count: Microsoft Entra ID sends no `email_verified` at all, and some providers let users type
  their address). The address is compared as sent, with only the domain lower-cased (domains are
  case-insensitive, the part before `@` need not be); an address holding compatibility characters
  (any that Unicode NFKC normalisation changes, such as KELVIN SIGN `K` for `K`) is refused,
  never folded onto the plain one.

Everyone else, and every doubtful case, is a learner.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


class Role(enum.StrEnum):
    LEARNER = "learner"
    INSTRUCTOR = "instructor"


def _configured(value: object) -> list[str]:
    """A TOML list, or a comma-separated string from the environment (the operator's own list:
    spaces around entries are dropped)."""
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, Iterable):
        items = [items]
    return [text for text in (str(item).strip() for item in items) if text]


def email_key(address: object) -> str | None:
    """The address as compared: as sent, with only the domain lower-cased; None for anything that
    is not one plain address (not text, no single `@`, or compatibility characters)."""
    if not isinstance(address, str) or unicodedata.normalize("NFKC", address) != address:
        return None
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain or "@" in local:
        return None
    return f"{local}@{domain.lower()}"


def listed_strings(value: object) -> frozenset[str] | None:
    """A claim that must be a list of strings (as JSON carries it); None for anything else."""
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        return None
    return frozenset(value)


@dataclass(frozen=True)
class InstructorRule:
    emails: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    subjects: frozenset[str] = frozenset()
    group_claim: str = "groups"

    @classmethod
    def from_config(cls, secrets: Mapping[str, object] | None,
                    env: Mapping[str, str]) -> InstructorRule:
        """The secrets' `[roles]` table, each key overridden by its environment variable."""
        section = secrets or {}

        def setting(key: str, variable: str) -> list[str]:
            return _configured(env.get(variable, section.get(key)))

        emails = setting("instructor_emails", "TUTOR_INSTRUCTOR_EMAILS")
        claim = env.get("TUTOR_GROUP_CLAIM", section.get("group_claim")) or "groups"
        return cls(emails=frozenset(filter(None, map(email_key, emails))),
                   groups=frozenset(setting("instructor_groups", "TUTOR_INSTRUCTOR_GROUPS")),
                   subjects=frozenset(setting("instructor_subjects", "TUTOR_INSTRUCTOR_SUBJECTS")),
                   group_claim=str(claim))

    def role_of(self, claims: Mapping[str, object]) -> Role:
        subject = claims.get("sub")
        if isinstance(subject, str) and subject in self.subjects:
            return Role.INSTRUCTOR
        if (listed_strings(claims.get(self.group_claim)) or frozenset()) & self.groups:
            return Role.INSTRUCTOR
        if claims.get("email_verified") is True and email_key(claims.get("email")) in self.emails:
            return Role.INSTRUCTOR
        return Role.LEARNER
