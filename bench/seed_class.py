"""Seed a progress store with a class of simulated learners, for the Analytics page and its
benchmark.

Each learner has an ability θ ~ N(0, 1); each question a difficulty b (easy -1, medium 0,
hard +1, plus noise) and a discrimination a ~ U(0.6, 2); the first try is right with probability
1 / (1 + exp(-a (θ - b))) (a two-parameter logistic item response model). Three questions are
planted so the flags have something to find: one nobody gets right, one everybody gets right, one
that weaker learners get right more often (a < 0).

Wrong answers look like real ones: the question's own mal-rules, the key with a transpose dropped,
`I +` dropped, a sign flipped or two factors swapped (formulas), the key doubled, negated or off
by a tenth (numbers), each written in a few spellings (spaces, order) so the grader's grouping has
work to do. Some learners reveal the solution instead (an empty wrong answer), some use hints,
some try again after a wrong answer (a retry: history only, as the store records it).

Learners work in sessions a day or two apart over the four weeks before `end` (now by default):
each session opens with the review cards due then, in the Review queue's order, then a dozen
questions not seen yet. A visit's first try is rated by `tutor.rating.rate` and moves its card by
`tutor.review.schedule`, as `ProgressStore.record_attempt` does, so the cards, their due dates and
each attempt's `rating`, `phase` and `card_before` are what real use would leave behind.

    .venv/bin/python bench/seed_class.py sqlite:///class.db [--learners 300] [--seed 7]
    TUTOR_DATABASE_URL=sqlite:///class.db make run      # then open Analytics

Rows go in with bulk inserts, one transaction for the class (300 learners: a few seconds).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402

from grader import Verdict  # noqa: E402
from tutor.rating import CONFIDENCE_LEVELS, Mode, Outcome, Phase, rate  # noqa: E402
from tutor.review import CardState, new_card, order_queue, schedule  # noqa: E402
from tutor.store.progress import card_to_json, card_values  # noqa: E402
from tutor.store.schema import attempts, cards, profiles  # noqa: E402

LEVEL = {"easy": -1.0, "medium": 0.0, "hard": 1.0}


@dataclass(frozen=True)
class SimQuestion:
    id: str
    kind: str  # expression | numeric | choice | ordering | other
    key: str
    wrong: tuple[str, ...]  # wrong answers a learner may type
    a: float  # discrimination
    b: float  # difficulty


def _respell(text: str, rng: random.Random) -> str:
    """The same answer written differently: spaces removed or added, a sum reordered."""
    choice = rng.random()
    if choice < 0.3:
        return text.replace(" ", "")
    if choice < 0.5 and " + " in text and "(" not in text:
        left, _, right = text.partition(" + ")
        return f"{right} + {left}"
    if choice < 0.6:
        return re.sub(r"\s*([+\-])\s*", r" \1 ", text).strip()
    return text


def formula_mistakes(key: str) -> list[str]:
    """Wrong formulas a learner plausibly writes for `key` (text edits; most differ from it)."""
    found = []
    if "^T" in key:
        found.append(key.replace("^T", "", 1))
    if "I + " in key:
        found.append(key.replace("I + ", "", 1))
    if " + " in key:
        found.append(key.replace(" + ", " - ", 1))
    if "1 + " in key:
        found.append(key.replace("1 + ", "", 1))
    product = re.search(r"\(([^()]+)\)\s*\(([^()]+)\)", key)
    if product:
        found.append(key[:product.start()] + f"({product.group(2)}) ({product.group(1)})"
                     + key[product.end():])
    found.append(f"2 ({key})")
    return [f for f in dict.fromkeys(found) if f != key]


def number_mistakes(key) -> list[str]:
    def scaled(value, factor, shift=0.0):
        if isinstance(value, list):
            return [scaled(v, factor, shift) for v in value]
        return round(value * factor + shift, 6)

    return [json.dumps(scaled(key, 2)), json.dumps(scaled(key, -1)),
            json.dumps(scaled(key, 1, 0.1))]


def simulated_questions(bank, rng: random.Random) -> list[SimQuestion]:
    out = []
    for q in bank:
        b = LEVEL[q.difficulty.value] + rng.gauss(0, 0.5)
        a = rng.uniform(0.6, 2.0)
        if q.type == "expression":
            wrong = [r.answer for r in q.malrules] + formula_mistakes(q.answer)
            out.append(SimQuestion(q.id, "expression", q.answer, tuple(wrong), a, b))
        elif q.type == "numeric":
            wrong = [r.answer for r in q.malrules] + number_mistakes(q.answer)
            out.append(SimQuestion(q.id, "numeric", json.dumps(q.answer), tuple(wrong), a, b))
        elif q.type == "choice":
            right = ",".join(o.id for o in q.options if o.correct)
            wrong = tuple(o.id for o in q.options if not o.correct)
            out.append(SimQuestion(q.id, "choice", right, wrong, a, b))
        elif q.type == "ordering":
            ids = [s.id for s in q.steps]
            swapped = [ids[1], ids[0], *ids[2:]]
            out.append(SimQuestion(q.id, "ordering", ",".join(ids), (",".join(swapped),), a, b))
    plant = [i for i, s in enumerate(out) if s.kind == "choice"][:3]
    # b = +-40: right with probability 1e-17 or 1 - 1e-17, i.e. never or always.
    for index, (a, b) in zip(plant, [(1.0, 40.0), (1.0, -40.0), (-1.5, 0.0)], strict=False):
        out[index] = SimQuestion(out[index].id, out[index].kind, out[index].key,
                                 out[index].wrong, a, b)
    return out


def synthetic_questions(n: int, rng: random.Random) -> list[SimQuestion]:
    """Questions without a bank (the benchmark): formulas with a few wrong forms each."""
    keys = ["(I + W)^T g", "1 + F'(x)", "(I + J_2) (I + J_1)", "x + F(x)", "W^T g + g"]
    out = []
    for k in range(n):
        key = keys[k % len(keys)]
        out.append(SimQuestion(f"q-{k:04d}", "expression", key, tuple(formula_mistakes(key)),
                               rng.uniform(0.6, 2.0), rng.gauss(0, 1)))
    return out


def _p_right(theta: float, q: SimQuestion) -> float:
    return 1.0 / (1.0 + math.exp(-q.a * (theta - q.b)))


REVIEWS_PER_SESSION = 15
NEW_PER_SESSION = 12
SPAN = timedelta(days=28)  # a learner's sessions run over the four weeks before `end`


@dataclass
class SimLearner:
    """One learner's history as the store would have written it: attempt rows and cards."""

    id: int
    theta: float
    rows: list[dict]
    cards: dict[str, CardState]


def _visit(learner: SimLearner, q: SimQuestion, moment: datetime, mode: Mode,
           rng: random.Random) -> datetime:
    """One question visit: a first try (rated; it moves the card by the store's own rules), and
    after a wrong one sometimes a retry (history only). Returns the moment the visit ended."""
    # A card that came back for review is easier to get right: the learner has seen it before.
    boost = 0.2 if q.id in learner.cards else 0.0
    for attempt in range(2):
        moment += timedelta(seconds=rng.uniform(20, 400))
        p = min(1.0, _p_right(learner.theta, q) + boost + (0.3 if attempt else 0.0))
        right = rng.random() < p
        revealed = not right and rng.random() < 0.06
        if right:
            answer = _respell(q.key, rng) if q.kind == "expression" else q.key
        elif revealed:
            answer = ""
        else:
            answer = rng.choice(q.wrong) if q.wrong else "?"
            answer = _respell(answer, rng) if q.kind == "expression" else answer
        verdict = Verdict.CORRECT if right else Verdict.WRONG
        phase = Phase.FIRST if attempt == 0 else Phase.RETRY
        hints = int(rng.random() < 0.4 * (1 - p))
        seconds = round(rng.lognormvariate(3.6 + 0.3 * q.b, 0.5), 1)
        confidence = rng.choice(CONFIDENCE_LEVELS)
        rating = rate(Outcome(verdict=verdict, hints_used=hints, confidence=confidence,
                              seconds=seconds, phase=phase))
        before = None
        if rating is not None:
            before = learner.cards.get(q.id) or new_card(q.id, moment)
            learner.cards[q.id] = schedule(before, rating, moment, confidence=confidence)
        learner.rows.append({
            "profile_id": learner.id, "question_id": q.id, "seed": None, "answer": answer,
            "verdict": verdict, "score": float(right), "hints_used": hints,
            "seconds": seconds, "confidence": confidence, "rubric_ticks": None,
            "rating": None if rating is None else int(rating), "created_at": moment,
            "mode": mode.value, "phase": phase.value,
            "card_before": None if before is None else card_to_json(before),
        })
        if right or revealed or rng.random() < 0.5:
            break
    return moment


def simulate_learner(learner_id: int, theta: float, questions: list[SimQuestion], share: float,
                     rng: random.Random, start: datetime, end: datetime, *,
                     reviews: bool = True) -> SimLearner:
    """Sessions a day or so apart from `start` until `end`: each opens with the cards due then
    (Review, in the store's queue order, when `reviews`), then a few questions not seen yet
    (Practice). Every visit goes through the store's rating and scheduling rules."""
    learner = SimLearner(learner_id, theta, [], {})
    fresh = [q for q in questions if rng.random() <= share]
    by_id = {q.id: q for q in questions}
    moment = start
    while moment < end and (fresh or reviews):
        due = order_queue(learner.cards.values(), moment, REVIEWS_PER_SESSION) if reviews else []
        visits = [(by_id[c.question_id], Mode.REVIEW) for c in due]
        visits += [(q, Mode.PRACTICE) for q in fresh[:NEW_PER_SESSION]]
        del fresh[:NEW_PER_SESSION]
        for q, mode in visits:
            if moment >= end - timedelta(minutes=15):  # nothing recorded after `end`
                break
            moment = _visit(learner, q, moment, mode, rng)
        moment += timedelta(hours=rng.uniform(10, 60))
    return learner


def seed_class(store, questions: list[SimQuestion], *, learners: int, seed: int = 7,
               share: float = 0.6, name_prefix: str = "sim-learner", end: datetime | None = None,
               reviews: bool = True) -> int:
    """Add `learners` simulated profiles with their attempts and review cards (their sessions end
    by `end`, now by default); returns the attempts written."""
    rng = random.Random(seed)
    end = end or datetime.now(UTC)
    written = 0

    def work(conn):
        nonlocal written
        for k in range(learners):
            created = end - SPAN + timedelta(minutes=k)
            result = conn.execute(insert(profiles).values(name=f"{name_prefix}-{seed}-{k:04d}",
                                                          created_at=created))
            learner_id = int(result.inserted_primary_key[0])
            learner = simulate_learner(learner_id, rng.gauss(0, 1), questions, share, rng,
                                       created, end, reviews=reviews)
            if learner.rows:
                conn.execute(insert(attempts), learner.rows)
            if learner.cards:
                conn.execute(insert(cards), [{"profile_id": learner_id, "question_id": qid,
                                              **card_values(card)}
                                             for qid, card in learner.cards.items()])
            written += len(learner.rows)

    store.write(work)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="database URL, e.g. sqlite:///class.db")
    parser.add_argument("--learners", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    import quizbank
    from tutor.store import ProgressStore

    bank = quizbank.BankCache(quizbank.configured_folders().all).current().bank
    store = ProgressStore.open(args.url)
    questions = simulated_questions(bank, random.Random(args.seed))
    written = seed_class(store, questions, learners=args.learners, seed=args.seed)
    store.close()
    print(f"{args.learners} learners, {written} attempts on {len(questions)} questions "
          f"written to {args.url}")


if __name__ == "__main__":
    main()
