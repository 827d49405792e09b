"""How long a sign-in lasts in a class deployment: a pure rule over the identity token's claims.

Streamlit keeps the signed-in person's claims (the identity token's, as the provider issued them)
in a signed cookie that lives 30 days and never looks at their times. Here a sign-in ends:

- `max_hours` (default 10: a school day) after the token was issued (`iat`: the moment this app's
  sign-in happened). Not from `auth_time`: a provider that remembers its own login for days
  (Google, Entra ID) sends that old time with every new token, so a fresh sign-in would be over
  at once;
- with `end_at_token_expiry`, also at the token's `exp` (when the provider says the token stops
  being valid). Off by default: Streamlit does not refresh the token, and providers issue short
  ones (Google and Entra ID one hour, Keycloak five minutes by default);
- when its holder signed out (`tutor.store.sign_outs`): every copy of that cookie is then refused.

Claims without an issue time, a subject or a nonce bound nothing and are refused. Configured in
Streamlit's secrets or the environment:

    [sign_in]
    max_hours = 10                 # TUTOR_SIGN_IN_MAX_HOURS
    end_at_token_expiry = false    # TUTOR_SIGN_IN_END_AT_TOKEN_EXPIRY=1
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

DEFAULT_MAX_HOURS = 10.0


def _number(value: object) -> float | None:
    """A JSON number (seconds since the epoch); booleans and text are not one."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _flag(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return value is True


@dataclass(frozen=True)
class SignInPolicy:
    max_age: timedelta = timedelta(hours=DEFAULT_MAX_HOURS)
    end_at_token_expiry: bool = False

    @classmethod
    def from_config(cls, secrets: Mapping[str, object] | None,
                    env: Mapping[str, str]) -> SignInPolicy:
        """The secrets' `[sign_in]` table, each key overridden by its environment variable;
        raises ValueError for a maximum that is not a positive number of hours."""
        section = secrets or {}
        raw = env.get("TUTOR_SIGN_IN_MAX_HOURS", section.get("max_hours", DEFAULT_MAX_HOURS))
        try:
            hours = float(raw)
        except (TypeError, ValueError):
            hours = math.nan
        if not (math.isfinite(hours) and hours > 0):
            raise ValueError(f"[sign_in] max_hours must be a positive number of hours, not {raw!r}")
        expiry = env.get("TUTOR_SIGN_IN_END_AT_TOKEN_EXPIRY",
                         section.get("end_at_token_expiry", False))
        return cls(timedelta(hours=hours), _flag(expiry))


@dataclass(frozen=True)
class SignIn:
    """One sign-in: `key` names it (the same for every copy of its cookie, different for the next
    sign-in of the same person), and it is over at `ends_at`."""

    key: str
    started_at: datetime
    ends_at: datetime

    def over(self, now: datetime) -> bool:
        return now >= self.ends_at


def sign_in_of(claims: Mapping[str, object], policy: SignInPolicy) -> SignIn | None:
    """The sign-in these claims belong to, or None when they cannot bound one."""
    issued = _number(claims.get("iat"))
    subject, nonce = claims.get("sub"), claims.get("nonce")
    if issued is None or not isinstance(subject, str) or not subject or not isinstance(nonce, str):
        return None
    started = _moment(issued)
    ends = started + policy.max_age
    if policy.end_at_token_expiry:
        expires = _number(claims.get("exp"))
        if expires is None:
            return None
        ends = min(ends, _moment(expires))
    # A hash, not the claims: the table of ended sign-ins holds nothing about the person.
    named = json.dumps([str(claims.get("iss") or ""), subject, issued, nonce])
    return SignIn(hashlib.sha256(named.encode()).hexdigest(), started, ends)
