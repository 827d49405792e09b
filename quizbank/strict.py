"""The strict pydantic base and the small constrained string types shared by all models."""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

# Unknown fields are errors, no silent coercion (a YAML `yes` is not a string), no NaN/inf.
STRICT_CONFIG = ConfigDict(
    strict=True,
    extra="forbid",
    allow_inf_nan=False,
    frozen=True,
    use_enum_values=False,
)


class StrictModel(BaseModel):
    model_config = STRICT_CONFIG


KEBAB_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
IDENTIFIER_PATTERN = r"^[A-Za-z][A-Za-z0-9_]*$"

# Ids are kebab-case so they read well in URLs, file:line messages and follow-up lists.
KebabId = Annotated[str, StringConstraints(pattern=KEBAB_PATTERN, max_length=80)]
# A symbol, function or matrix name the grader will declare (x, F, sigma, J_F).
Identifier = Annotated[str, StringConstraints(pattern=IDENTIFIER_PATTERN, max_length=32)]
NonEmptyText = Annotated[str, StringConstraints(min_length=1, pattern=r"\S")]


def lax_enum(enum_type):
    """Strict mode would demand enum instances; YAML gives their string values."""
    return Annotated[enum_type, Field(strict=False)]
