"""Links and bookmarks people already hold open the same thing (issue 26): each link below is
written out as it was before the session state moved into one module, and is opened through the
real shell, as a browser would (`?q=`, `?seed=`, `?lang=`, `?profile=`, the Exercises share link,
the Derivation checker's fields and its saved short link)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.app.learner_fixtures import database_url  # noqa: F401
from tests.app.shell_helpers import open_app, profile_state
from tutor.store import ProgressStore
from tutor.store.scratch import save_scratch

PRACTICE = "/practice?q=gen-deep-mlp-gradient-norms&seed=17&lang=zh&profile=2"
PRACTICE_PLAIN = "/practice?q=basics-residual-from-target&lang=en"
EXERCISES = "/exercises?template=linear_residual_block&seed=5&difficulty=medium&lang=en"
DERIVATION = ("/derivation?symbols=x&functions=F&target=1+%2B+F%27%28x%29"
              "&lines=diff%28x+%2B+F%28x%29%2C+x%29%0A1+%2B+F%27%28x%29&lang=en")
DERIVATION_SHARED = "/derivation?share=1-AbCdEfGhIjKl&lang=en"


def open_link(link: str):
    parts = urlsplit(link)
    return open_app(parts.path.strip("/"), **dict(parse_qsl(parts.query)))


@pytest.fixture
def two_profiles(database_url):  # noqa: F811
    db = ProgressStore.open(database_url)
    made = [db.create_profile("Ada"), db.create_profile("Ben")]
    assert [p.id for p in made] == [1, 2]  # the ids the links name
    yield db
    db.close()


def test_a_practice_link_opens_its_question_variant_language_and_profile(two_profiles):
    at = open_link(PRACTICE)
    assert at.session_state["profile_id"] == 2 and at.session_state["lang"] == "zh"
    assert at.title[0].value == "练习"
    session = profile_state(at, "practice.run").current
    assert (session.question_id, session.seed) == ("gen-deep-mlp-gradient-norms", 17)
    assert at.query_params["profile"] == "2" and at.query_params["q"] == session.question_id


def test_a_practice_link_without_a_profile_opens_the_first_one(two_profiles):
    at = open_link(PRACTICE_PLAIN)
    assert at.session_state["profile_id"] == 1
    assert profile_state(at, "practice.run").current.question_id == "basics-residual-from-target"


def test_an_exercises_share_link_opens_the_same_numbers(two_profiles):
    at = open_link(EXERCISES)
    variant = profile_state(at, "exercises.run").current.variant
    assert (variant.template, variant.seed, variant.difficulty) == ("linear_residual_block", 5,
                                                                     "medium")


def test_a_derivation_link_fills_the_fields_and_checks_them(two_profiles):
    at = open_link(DERIVATION)
    assert at.text_input(key="derivation.symbols").value == "x"
    assert at.text_input(key="derivation.functions").value == "F"
    assert at.text_input(key="derivation.target").value == "1 + F'(x)"
    assert at.text_area(key="derivation.lines").value == "diff(x + F(x), x)\n1 + F'(x)"
    assert at.success[0].value.startswith("All 2 lines")


def test_a_saved_derivation_link_opens_what_was_saved(two_profiles):
    # stored as the checker saved it before: a scratch entry of profile 1 under this very key
    save_scratch(two_profiles, 1, "derivation-share:AbCdEfGhIjKl",
               {"symbols": "x", "functions": "F", "lines": "diff(x + F(x), x)\n1 + F'(x)"})
    at = open_link(DERIVATION_SHARED)
    assert at.text_area(key="derivation.lines").value == "diff(x + F(x), x)\n1 + F'(x)"
    assert at.text_input(key="derivation.functions").value == "F"
    assert at.success[0].value.startswith("All 2 lines")
