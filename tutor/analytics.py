"""Item analytics: how each question behaves across the learners who answered it (pure).

From an `AttemptTable` (every learner's attempts, oldest first), per question:

- `learners`: learners with at least one graded attempt (a verdict in `tutor.rating`'s
  `RECORDED_VERDICTS`; `unreadable` rows, written before such answers stopped being recorded,
  are not graded);
- `first_try_correct`: share of those learners whose *first* graded attempt was correct;
- `discrimination`: point-biserial correlation between that first try x (1 correct, 0 not) and
  the learner's score on the *other* questions y (mean of their first tries elsewhere; the
  corrected item-total correlation, so an item does not correlate with itself):
  r = (n Σxy - Σx Σy) / sqrt((n Σx² - (Σx)²)(n Σy² - (Σy)²)), over learners who also answered
  another question; NaN with fewer than `MIN_LEARNERS` such learners or when x or y is constant;
- `median_seconds`: median time of the first tries; `hint_rate`: share of first tries that used
  a hint; `reveal_rate`: share of learners who revealed the solution at least once;
- `flags`: `nobody_right` / `everybody_right` (first-try correct rate 0 / 1) and
  `negative_discrimination` (r < 0), each only with at least `MIN_LEARNERS` learners.

Everything is vectorised (one sort, bincounts): 1,000 learners x 200 questions take a few tens
of milliseconds (`bench/bench_analytics.py`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from grader import Verdict
from tutor.attempt_table import AttemptTable
from tutor.rating import RECORDED_VERDICTS

MIN_LEARNERS = 5
_GRADED = list(RECORDED_VERDICTS)
FLAGS = ("nobody_right", "everybody_right", "negative_discrimination")
COLUMNS = ["question", "learners", "attempts", "first_try_correct", "discrimination",
           "median_seconds", "hint_rate", "reveal_rate", "flags"]


def _first_tries(table: AttemptTable, learner_code: np.ndarray, question_code: np.ndarray,
                 n_questions: int) -> np.ndarray:
    """Indices of each (learner, question)'s first graded attempt."""
    graded = np.flatnonzero(np.isin(table.verdict, _GRADED))
    pair = learner_code[graded].astype(np.int64) * n_questions + question_code[graded]
    _, first = np.unique(pair, return_index=True)  # first occurrence = oldest (rows are in order)
    return graded[first]


def _grouped_correlation(group: np.ndarray, x: np.ndarray, y: np.ndarray, n_groups: int):
    """Pearson r of (x, y) within each group, and the group sizes."""
    def total(values):
        return np.bincount(group, weights=values, minlength=n_groups)

    n = np.bincount(group, minlength=n_groups).astype(float)
    sx, sy, sxy, sxx, syy = total(x), total(y), total(x * y), total(x * x), total(y * y)
    vx, vy = n * sxx - sx**2, n * syy - sy**2
    # x and y lie in [0, 1]: a spread below rounding level (n² · 1e-12) is a constant column.
    spread = (vx > 1e-12 * n**2) & (vy > 1e-12 * n**2)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (n * sxy - sx * sy) / np.sqrt(vx * vy)
    return np.where(spread & np.isfinite(r), np.clip(r, -1.0, 1.0), np.nan), n


def item_statistics(table: AttemptTable) -> pd.DataFrame:
    """One row per question that has attempts (columns `COLUMNS`), by question id."""
    if len(table) == 0:
        return pd.DataFrame(columns=COLUMNS)
    # Hash-based codes (pd.factorize) are several times faster than sorting the id strings.
    question_code, question_ids = pd.factorize(table.question, sort=True)
    learner_code, _ = pd.factorize(table.learner)
    nq, nl = len(question_ids), int(learner_code.max()) + 1
    first = _first_tries(table, learner_code, question_code, nq)
    fq, fl = question_code[first], learner_code[first]
    correct = (table.verdict[first] == Verdict.CORRECT).astype(float)

    learners = np.bincount(fq, minlength=nq)
    right = np.bincount(fq, weights=correct, minlength=nq)
    # Each learner's score on the other questions they tried.
    tried = np.bincount(fl, minlength=nl).astype(float)
    learner_right = np.bincount(fl, weights=correct, minlength=nl)
    others = tried[fl] - 1
    has_others = others > 0
    rest = np.divide(learner_right[fl] - correct, others, out=np.zeros_like(correct),
                     where=has_others)
    r, n_pairs = _grouped_correlation(fq[has_others], correct[has_others], rest[has_others], nq)
    r = np.where(n_pairs >= MIN_LEARNERS, r, np.nan)

    first_frame = pd.DataFrame({"q": fq, "seconds": table.seconds[first],
                                "hinted": table.hints[first] > 0})
    by_question = first_frame.groupby("q")
    median_seconds = by_question["seconds"].median().reindex(range(nq)).to_numpy()
    hint_rate = by_question["hinted"].mean().reindex(range(nq)).to_numpy()
    revealed_pairs = np.unique(learner_code[table.revealed].astype(np.int64) * nq
                               + question_code[table.revealed])
    reveals = np.bincount(revealed_pairs % nq, minlength=nq) if nq else np.zeros(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(learners > 0, right / np.maximum(learners, 1), np.nan)
        reveal_rate = np.where(learners > 0, reveals / np.maximum(learners, 1), np.nan)

    frame = pd.DataFrame({
        "question": np.asarray(question_ids, dtype=str),
        "learners": learners,
        "attempts": np.bincount(question_code, minlength=nq),
        "first_try_correct": rate,
        "discrimination": r,
        "median_seconds": median_seconds,
        "hint_rate": hint_rate,
        "reveal_rate": reveal_rate,
    })
    frame["flags"] = [flags_for(*row) for row in zip(learners, rate, r, strict=True)]
    return frame[COLUMNS].reset_index(drop=True)


def flags_for(learners: int, first_try_correct: float, discrimination: float) -> tuple[str, ...]:
    if learners < MIN_LEARNERS:
        return ()
    found = []
    if first_try_correct == 0:
        found.append("nobody_right")
    if first_try_correct == 1:
        found.append("everybody_right")
    if np.isfinite(discrimination) and discrimination < 0:
        found.append("negative_discrimination")
    return tuple(found)
