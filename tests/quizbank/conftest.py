import copy
from pathlib import Path

import pytest
import yaml

FIXTURES = Path(__file__).parent / "fixtures"
VALID_BANK = FIXTURES / "valid"


@pytest.fixture(scope="session")
def _valid_questions() -> dict[str, dict]:
    data = yaml.safe_load((VALID_BANK / "all_types.yaml").read_text(encoding="utf-8"))
    return {q["type"]: q for q in data["questions"]}


@pytest.fixture(scope="session")
def sample(_valid_questions):
    """sample("choice") -> a fresh, valid question dict of that type (safe to mutate, so
    session scope is fine for Hypothesis tests too)."""
    return lambda kind: copy.deepcopy(_valid_questions[kind])
