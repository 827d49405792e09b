"""Wrong answers grouped by what they mean, not how they are written.

Two wrong answers are in one class when the grader finds them equivalent
(`quizbank.equivalence.same_answer`): `W g + g`, `g + W g` and `(I+W)g` are one class. Classes
are ranked by how many distinct learners gave them. Only counts leave this module: which learner
gave which answer never does (analytics never show one learner's answers to another).

Grouping is greedy: answers are first bucketed by their text without spaces, then each spelling,
most frequent first, joins the first class whose representative it equals, else starts a class.
At most `MAX_SPELLINGS` distinct spellings are compared (the rest are counted as `others`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from grader import Verdict
from tutor.attempt_table import LearnerAnswer

MAX_SPELLINGS = 300
WRONG_VERDICTS = (Verdict.WRONG, Verdict.PARTIAL)


@dataclass(frozen=True)
class AnswerClass:
    representative: str  # the most common spelling of the class
    spellings: tuple[tuple[str, int], ...]  # (text, learners who wrote it), most common first
    learners: int  # distinct learners who gave an answer of this class
    answers: int  # how many times an answer of this class was given


@dataclass(frozen=True)
class AnswerClasses:
    classes: tuple[AnswerClass, ...]
    wrong_learners: int  # distinct learners with any wrong answer
    others: int  # distinct spellings beyond MAX_SPELLINGS, not grouped


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def group_wrong_answers(answers: Iterable[LearnerAnswer],
                        same: Callable[[str, str], bool]) -> AnswerClasses:
    """Classes of the wrong (or partly right) answers; `same(key, answer)` is the grader's
    equivalence for this question."""
    spellings: dict[str, dict] = {}
    wrong_learners = set()
    for a in answers:
        if a.verdict not in WRONG_VERDICTS:
            continue
        wrong_learners.add(a.learner)
        entry = spellings.setdefault(_squash(a.answer), {"texts": {}, "learners": set(), "n": 0})
        entry["texts"][a.answer.strip()] = entry["texts"].get(a.answer.strip(), 0) + 1
        entry["learners"].add(a.learner)
        entry["n"] += 1
    ranked = sorted(spellings.values(), key=lambda e: (-len(e["learners"]), -e["n"],
                                                       min(e["texts"])))
    groups: list[list[dict]] = []
    for entry in ranked[:MAX_SPELLINGS]:
        text = max(entry["texts"], key=entry["texts"].get)
        for group in groups:
            if same(_text_of(group[0]), text):
                group.append(entry)
                break
        else:
            groups.append([entry])
    classes = [_as_class(group) for group in groups]
    classes.sort(key=lambda c: (-c.learners, -c.answers, c.representative))
    return AnswerClasses(tuple(classes), len(wrong_learners),
                         max(0, len(ranked) - MAX_SPELLINGS))


def _text_of(entry: dict) -> str:
    return max(entry["texts"], key=entry["texts"].get)


def _as_class(group: list[dict]) -> AnswerClass:
    learners = set().union(*(e["learners"] for e in group))
    spelled = sorted(((_text_of(e), len(e["learners"])) for e in group),
                     key=lambda pair: (-pair[1], pair[0]))
    return AnswerClass(representative=spelled[0][0], spellings=tuple(spelled),
                       learners=len(learners), answers=sum(e["n"] for e in group))
