"""Choosing what to practise (tutor.sessions.practice) without Streamlit: filters, the next
question, a run, and the Practice URL."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.app.learner_bank import fixture_bank
from tutor.sessions import practice
from tutor.sessions.practice import Filters, QuestionQueue

BANK = fixture_bank()
ALLOWED = {"topics": ["jacobian", "residual-basics"], "types": ["choice", "numeric"],
           "difficulties": ["easy", "hard"]}


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (Filters(), sorted(BANK.questions)),
        (Filters.of(types=["choice"]), ["fx-choice"]),
        (Filters.of(topics=["jacobian"]), ["fx-derivation", "fx-expression"]),
        (Filters.of(topics=["jacobian"], difficulties=["hard"]), ["fx-derivation"]),
        (Filters.of(types=["generated"]), []),
    ],
)
def test_filters_select_matching_questions(filters, expected):
    assert practice.matching_ids(BANK, filters) == expected


@given(st.lists(st.sampled_from(sorted(BANK.questions)), max_size=8), st.integers(0, 10_000))
def test_pick_next_avoids_recent_while_others_remain(recent, seed):
    ids = sorted(BANK.questions)
    picked = practice.pick_next(ids, recent=recent, rng=random.Random(seed))
    assert picked in ids
    window = set(recent[-practice.RECENT_WINDOW :])
    if set(ids) - window:
        assert picked not in window


def test_pick_next_of_nothing_is_none():
    assert practice.pick_next([], recent=[], rng=random.Random(0)) is None


def test_run_next_opens_fresh_sessions_and_remembers_recent():
    run = QuestionQueue(rng=random.Random(3))
    ids = practice.matching_ids(BANK, Filters())
    seen = [run.next(BANK.questions, ids).question_id for _ in range(4)]
    assert len(set(seen)) == 4  # no repeat inside the recent window
    assert run.serial == 4 and run.recent == seen
    assert run.next(BANK.questions, []) is None and run.current is None


def test_resume_keeps_widget_keys_fresh_for_later_visits():
    run = QuestionQueue(rng=random.Random(0))
    session = run.open(BANK.questions["fx-choice"])
    session.serial = 7  # as a draft from an earlier browser session may say
    other = QuestionQueue(rng=random.Random(0))
    other.resume(session)
    assert other.current is session and other.open(BANK.questions["fx-numeric"]).serial == 8


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, Filters()),
        ({"topics": "jacobian,residual-basics", "types": "choice", "levels": "hard"},
         Filters(("jacobian", "residual-basics"), ("choice",), ("hard",))),
        ({"topics": "jacobian,<script>,jacobian", "types": "essay"}, Filters(("jacobian",))),
        ({"levels": ""}, Filters()),
    ],
)
def test_filters_from_the_url_keep_only_known_values(params, expected):
    assert practice.filters_from_params(params, ALLOWED) == expected


@given(st.dictionaries(st.sampled_from(["topics", "types", "levels", "q", "seed"]),
                       st.text(max_size=40)))
def test_any_url_gives_valid_filters(params):
    filters = practice.filters_from_params(params, ALLOWED)
    for name in ("topics", "types", "difficulties"):
        assert set(getattr(filters, name)) <= set(ALLOWED[name])


def test_the_url_round_trips_the_question_and_the_filters():
    run = QuestionQueue(rng=random.Random(0))
    session = run.open(BANK.questions["fx-choice"])
    filters = Filters(("jacobian",), ("choice", "numeric"), ())
    params = practice.practice_params(session, filters)
    assert params == {"q": "fx-choice", "topics": "jacobian", "types": "choice,numeric"}
    assert practice.filters_from_params(params, ALLOWED) == filters
    assert practice.linked_question(params) == practice.LinkedQuestion("fx-choice", None)


@pytest.mark.parametrize(
    ("params", "expected"),
    [({}, practice.LinkedQuestion(None)),
     ({"q": "gen-x", "seed": "42"}, practice.LinkedQuestion("gen-x", 42)),
     ({"q": "gen-x", "seed": "4e2"}, practice.LinkedQuestion("gen-x", None)),
     ({"q": "gen-x", "seed": "0"}, practice.LinkedQuestion("gen-x", None)),
     ({"q": " x " + "y" * 300}, practice.LinkedQuestion("x " + "y" * 197, None))],
)
def test_linked_question(params, expected):
    assert practice.linked_question(params) == expected


class _RepeatingRng(random.Random):
    """Draws `repeats` copies of the seed on screen before anything else: the unlucky draw."""

    def __init__(self, on_screen: int, repeats: int):
        super().__init__(0)
        self.script = [on_screen] * repeats

    def randint(self, a, b):
        return self.script.pop(0) if self.script else super().randint(a, b)


def test_new_variant_never_draws_the_seed_on_screen():
    from quizbank import load_bank

    question = load_bank().questions["gen-chain-product"]
    queue = QuestionQueue(rng=_RepeatingRng(765, repeats=3))
    queue.open(question, seed=765, difficulty="easy")
    fresh = queue.open(question, difficulty="easy")  # "New variant": a drawn seed
    assert fresh.variant.seed != 765
    linked = queue.open(question, seed=fresh.variant.seed, difficulty="easy")
    assert linked.variant.seed == fresh.variant.seed  # a link's seed is kept, even the same one
