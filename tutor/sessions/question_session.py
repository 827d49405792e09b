"""One question on screen, from opening it to the worked solution: the same path on Practice,
Exercises, Review and the Author preview, and for each question of a mock interview
(`tutor.sessions.interview`: a timer and a summary around one session per question).

    session = open_session(question, rng=rng, serial=1)      # a generated variant is built here, once
    graded = submit(session, question, answer, confidence="medium", lang="en")
    graded = save(session, question, graded, record=writer, mode="practice")
    settle(session, key, stored)       # a record that landed after `record` stopped waiting
    give_up(session, question, record=writer)                 # "Show the solution" / "I don't know"
    change_rating(session, 4, rerate=lambda attempt_id, rating: store.change_rating(pid, …))
    scratch = to_scratch(session); from_scratch(scratch, question)  # what survives a reload

Honest attempts: a question gives `question.allowed_tries` graded tries before its solution is
shown (the reveal), and a "show the solution" button ends it as a failure at any time. Only the
first graded try counts (`Phase.FIRST`: it is rated and moves the review card); later tries before
the reveal are `Phase.RETRY` and answers typed after it `Phase.AFTER_REVEAL`, both kept in the
history without touching the card or the accuracy. The session only *claims* a first try: the
store decides (`tutor.rating.recorded_phase`), and a question already tried or whose solution was
seen, not yet due and not a new variant, comes back `Phase.REPEAT` (practice); `save` keeps what
the store decided. An interview answer is recorded as its model answer is shown (unassessed: a
failure until ticked, `show_model_answer`), and the ticks assess that same attempt. An answer the
grader cannot read is not a try: it is shown, never recorded. Grading goes through `quizbank.grading.grade` against the variant the
learner saw (interview answers through the learner's rubric ticks); recording through a `record`
callable (the store's writer for the profile), so tests can swap both.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tutor.rating import Phase

if TYPE_CHECKING:  # the grader (numpy) is imported when the first answer is graded
    from grader import Result
    from quizbank.variants import Variant
    from tutor.interview import RubricOutcome

# Generated questions draw a seed in this range: short enough to read aloud and put in a URL.
SEED_RANGE = (1, 99_999)
CONFIDENCES = ("low", "medium", "high")
CONFIDENCE_LEVEL = {"low": 1, "medium": 2, "high": 3}  # the store's 1..3 scale
SCRATCH_VERSION = 1


def kind_of(question) -> str:
    """The question's type as authors write it ("numeric", "generated", …)."""
    return str(getattr(question.type, "value", question.type))


def parse_seed(value: Any) -> int | None:
    """A seed from untrusted text (a URL): ASCII digits within SEED_RANGE, else None."""
    text = str(value if value is not None else "")
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        return None
    seed = int(text)
    return seed if SEED_RANGE[0] <= seed <= SEED_RANGE[1] else None


def draw_seed(rng: random.Random, avoid: int | None = None) -> int:
    """A seed in SEED_RANGE other than `avoid` (the one on screen: "New variant" must change it)."""
    while (seed := rng.randint(*SEED_RANGE)) == avoid:
        pass
    return seed


@dataclass(frozen=True)
class Graded:
    """One graded submission and, once recorded, what the store made of it."""

    result: Result
    answer: Any
    confidence: str | None
    hints_used: int
    elapsed_s: float
    phase: Phase | None  # None: the answer could not be read (not an attempt, never recorded)
    rubric: RubricOutcome | None = None  # interview answers: the judgement of the ticks
    gave_up: bool = False  # "show the solution" before any try: recorded as a failure
    attempt_id: int | None = None
    rating: int | None = None  # the FSRS rating recorded (a first try only)
    due: datetime | None = None  # when the card comes back
    choices: tuple[tuple[int, datetime], ...] = ()  # other ratings the learner may pick, and due
    # the attempt's key, made when it is graded: a record that lands after the page stopped
    # waiting for it is matched to its answer by this key (`settle`)
    key: str | None = None

    @property
    def correct(self) -> bool:
        return self.result.correct

    @property
    def score(self) -> float:
        return self.result.score

    @property
    def counted(self) -> bool:
        """The visit's first try: counted in attempts and accuracy, moves the card."""
        return self.phase is Phase.FIRST


@dataclass
class QuestionSession:
    """The question on screen: its variant, hints and tries so far, whether the solution is shown,
    and what the learner has typed (to put back after a reload)."""

    question_id: str
    tries_allowed: int
    variant: Variant | None = None
    started_at: float = field(default_factory=time.time)  # wall clock: survives a reload
    hints_shown: int = 0
    graded: list[Graded] = field(default_factory=list)
    revealed: bool = False  # the worked solution is shown (right, out of tries, or given up)
    serial: int = 0  # distinguishes visits to one question (fresh widget keys)
    # the order an ordering question's steps are shown in: drawn anew for every visit (so the
    # letters cannot be memorised), kept in the scratch copy (a reload shows the same letters)
    order_seed: int = 0
    typed: dict[str, Any] = field(default_factory=dict)  # widget values, by the widget's name
    # interview: the answer held when the model answer is shown (recorded then), then ticked on
    # the rubric
    held_answer: str | None = None
    held_confidence: str | None = None
    # interview: the key of the answer recorded with the model answer (the ticks assess it by its
    # key: while the database is away it is in the spool, without a row id), and whether the
    # store has it yet
    unassessed_key: str | None = None
    held_saved: bool = False
    # interview: seconds from opening the question to the answer held with the model answer (the
    # time the answer took: the ticks confirmed later do not add to it)
    held_seconds: float | None = None

    @property
    def seed(self) -> int | None:
        return None if self.variant is None else self.variant.seed

    # ---- tries -------------------------------------------------------------------------------
    @property
    def tries_used(self) -> int:
        tries = (Phase.FIRST, Phase.RETRY, Phase.REPEAT)  # a practice visit has its tries too
        return sum(g.phase in tries and not g.gave_up for g in self.graded)

    @property
    def tries_left(self) -> int:
        return max(0, self.tries_allowed - self.tries_used)

    @property
    def first(self) -> Graded | None:
        """The counted try (rated, moves the card), once there is one."""
        return next((g for g in self.graded if g.counted), None)

    @property
    def last(self) -> Graded | None:
        return self.graded[-1] if self.graded else None

    @property
    def attempted(self) -> bool:
        return self.first is not None

    @property
    def gave_up(self) -> bool:
        return any(g.gave_up for g in self.graded)

    # ---- hints -------------------------------------------------------------------------------
    def hints_total(self, question) -> int:
        return len(question.hints or ())

    def can_show_hint(self, question) -> bool:
        return self.hints_shown < self.hints_total(question)

    def show_hint(self, question) -> None:
        """Reveal one more hint (no-op once all are shown)."""
        if self.can_show_hint(question):
            self.hints_shown += 1

    def visible_hints(self, question, lang: str) -> list[str]:
        return [h.get(lang) for h in (question.hints or ())[: self.hints_shown]]

    # ---- interview questions -----------------------------------------------------------------
    @property
    def answer_shown(self) -> bool:
        """Interview: the learner's answer is in and the model answer is shown."""
        return self.held_answer is not None

    def keep_typed(self, typed: Mapping[str, Any]) -> None:
        """What the learner has put in the widgets, for the scratch copy a reload restores."""
        self.typed = dict(typed)

    def show_model_answer(self, answer: str, confidence: str, *,
                          seconds: float | None = None) -> None:
        """Hold the answer (`seconds`: how long it took, when known)."""
        if confidence not in CONFIDENCES:
            raise ValueError(f"confidence must be one of {CONFIDENCES}, got {confidence!r}")
        self.held_answer, self.held_confidence = answer, confidence
        self.held_seconds = None if seconds is None else round(max(seconds, 0.0), 3)


def show_model_answer(session: QuestionSession, question, answer: str, confidence: str, *,
                      record: Callable | None, mode: str = "practice",
                      now: float | None = None) -> None:
    """Interview: "Submit and show the model answer". The model answer is the solution: the answer
    is recorded now, unassessed (a failure until the ticks assess it), so leaving without ticking
    ("Skip this question", another tab, closing the page) does not leave the question fresh."""
    if session.answer_shown or session.revealed:
        return
    elapsed = (time.time() if now is None else now) - session.started_at
    session.show_model_answer(answer, confidence, seconds=elapsed)
    if record is None:
        return
    from grader import Result, Verdict

    session.unassessed_key = uuid.uuid4().hex
    held = Graded(result=Result(Verdict.WRONG), answer={"text": answer, "ticked": []},
                  confidence=confidence, hints_used=session.hints_shown,
                  elapsed_s=session.held_seconds, phase=Phase.FIRST)
    stored = record(new_attempt(question, session, held, mode=mode, holds=session.unassessed_key))
    session.held_saved = stored is not None


def confirm_ticks(session: QuestionSession, question, ticked: Iterable[str], *, lang: str,
                  record: Callable | None, mode: str = "practice") -> Graded:
    """Interview: the learner confirms the rubric ticks. The ticks grade the answer shown with the
    model answer, the grade is recorded (it assesses the answer recorded then) and the solution
    stays shown. The answer took the time until it was held, not until the ticks."""
    answered_at = None if session.held_seconds is None else session.started_at + session.held_seconds
    graded = submit(session, question, {"text": session.held_answer, "ticked": list(ticked)},
                    confidence=session.held_confidence or "medium", lang=lang, now=answered_at)
    saved = save(session, question, graded, record=record, mode=mode)
    session.revealed = True
    return saved


def open_session(question, *, rng: random.Random, serial: int = 0, seed: int | None = None,
                 difficulty: str | None = None, now: float | None = None,
                 avoid_seed: int | None = None) -> QuestionSession:
    """A session for `question`. A generated question's variant is built here, once, from `seed`
    (drawn when None, never `avoid_seed`) at `difficulty` (the question's own when None);
    everything after reads it."""
    variant = None
    if kind_of(question) == "generated":
        from quizbank.variants import build_variant

        level = difficulty or str(getattr(question.difficulty, "value", question.difficulty))
        if seed is None:
            seed = draw_seed(rng, avoid_seed)
        variant = build_variant(question.template, seed=seed, difficulty=level)
    return QuestionSession(question_id=question.id, tries_allowed=question.allowed_tries,
                           variant=variant, serial=serial, order_seed=rng.randrange(2**31),
                           started_at=time.time() if now is None else now)


# ---- grading ----------------------------------------------------------------------------------
def grade_question(question, answer: Any, *, lang: str,
                   variant: Variant | None = None) -> tuple[Result, RubricOutcome | None]:
    """The bank's grading against the learner's variant, except interview answers, which the
    learner's rubric ticks decide (`tutor.interview.grade_ticks`)."""
    if kind_of(question) == "interview":
        return rubric_result(question, answer["ticked"])
    from quizbank.grading import grade

    return grade(question, answer, lang=lang, variant=variant), None


def rubric_result(question, ticked: Iterable[str]) -> tuple[Result, RubricOutcome]:
    """An interview answer graded by the learner's confirmed ticks: every required point and no
    misconception is right."""
    from grader import Result
    from tutor.interview import grade_ticks

    ticked = tuple(dict.fromkeys(ticked))
    unknown = sorted(set(ticked) - {p.id for p in question.rubric})
    if unknown:
        raise ValueError(f"unknown rubric points: {', '.join(unknown)}")
    outcome = grade_ticks(question, ticked)
    return Result(outcome.verdict, score=round(outcome.score, 4)), outcome


Grade = Callable[..., "tuple[Result, RubricOutcome | None]"]


def submit(session: QuestionSession, question, answer: Any, *, confidence: str, lang: str,
           grade: Grade = grade_question, now: float | None = None) -> Graded:
    """Grade `answer` and keep it on the session (not recorded yet): which try it is, and whether
    the solution is now shown (a right answer, or the last try used)."""
    if confidence not in CONFIDENCES:
        raise ValueError(f"confidence must be one of {CONFIDENCES}, got {confidence!r}")
    result, rubric = grade(question, answer, lang=lang, variant=session.variant)
    if result.unreadable:
        phase = None
    elif session.revealed:
        phase = Phase.AFTER_REVEAL
    else:
        phase = Phase.RETRY if session.attempted else Phase.FIRST
    elapsed = (time.time() if now is None else now) - session.started_at
    graded = Graded(result=result, answer=answer, confidence=confidence, rubric=rubric,
                    hints_used=session.hints_shown, elapsed_s=round(max(elapsed, 0.0), 3),
                    phase=phase, key=uuid.uuid4().hex)
    session.graded.append(graded)
    if phase in (Phase.FIRST, Phase.RETRY) and (result.correct or session.tries_left == 0):
        session.revealed = True
    return graded


def give_up(session: QuestionSession, question, *, record: Callable | None = None,
            mode: str = "practice", now: float | None = None) -> Graded | None:
    """"Show the solution" / "I don't know": the question ends as a failure. Before any try that
    failure is the visit's claimed first try (recorded; when the store counts it, the card comes
    back tomorrow); after a try the solution is simply shown."""
    if session.revealed:
        return None
    session.revealed = True
    if session.tries_used:
        return None
    from grader import Result, Verdict

    elapsed = (time.time() if now is None else now) - session.started_at
    graded = Graded(result=Result(Verdict.WRONG), answer="", confidence=None, gave_up=True,
                    hints_used=session.hints_shown, elapsed_s=round(max(elapsed, 0.0), 3),
                    phase=Phase.FIRST, key=uuid.uuid4().hex)
    session.graded.append(graded)
    return save(session, question, graded, record=record, mode=mode)


# ---- recording --------------------------------------------------------------------------------
def answer_text(answer: Any) -> str:
    """The answer as stored: text as typed, lists and dicts as JSON (readable, reversible)."""
    if isinstance(answer, str):
        return answer
    return json.dumps(answer, ensure_ascii=False, sort_keys=isinstance(answer, dict))


def new_attempt(question, session: QuestionSession, graded: Graded, *, mode: str = "practice",
                holds: str | None = None):
    """The store's `NewAttempt` for one graded answer (rubric flags from interview ticks): the one
    place a session's answer becomes an attempt. `holds`: the key of an interview answer recorded
    as its model answer is shown, unassessed (a failure until its ticks assess it)."""
    from tutor.rating import DEFAULT_SLOW_SECONDS
    from tutor.store.records import NewAttempt

    rubric = graded.rubric
    is_interview = kind_of(question) == "interview"
    # the ticks assess the answer recorded with the model answer (no second row)
    assessing = is_interview and not graded.gave_up and holds is None
    assesses = session.unassessed_key if assessing else None
    answer = graded.answer
    ticks = tuple(answer.get("ticked", ())) if isinstance(answer, Mapping) and is_interview else ()
    text = answer["text"] if is_interview and isinstance(answer, Mapping) else answer
    return NewAttempt(
        question_id=question.id,
        verdict=graded.result.verdict,
        score=min(max(graded.score, 0.0), 1.0),
        answer=answer_text(text),
        seed=session.seed,
        hints_used=graded.hints_used,
        seconds=graded.elapsed_s,
        confidence=CONFIDENCE_LEVEL.get(graded.confidence or ""),
        rubric_ticks=ticks,
        mode=mode,
        phase=graded.phase,
        required_missed=bool(rubric and rubric.missed_required),
        misconception_ticked=bool(rubric and rubric.misconceptions),
        bonus_hit=bool(rubric and rubric.bonus),
        # an interview answer is typed at length: "slow" means nothing there
        slow_after_seconds=None if is_interview else DEFAULT_SLOW_SECONDS,
        assesses=assesses,
        unassessed=holds is not None,
        key=graded.key if holds is None else holds,
    )


def save(session: QuestionSession, question, graded: Graded, *, record: Callable | None,
         mode: str = "practice") -> Graded:
    """Write a graded answer through `record(new_attempt)` (the store's writer for the profile,
    returning the stored `AttemptRecord`, or None when nothing could be saved). An unreadable
    answer is never written. Returns the graded answer with what the store decided: its phase
    (a claimed first try may come back as practice, `Phase.REPEAT`), rating and the card's due."""
    if record is None or graded.phase is None:
        return graded
    stored = record(new_attempt(question, session, graded, mode=mode))
    if stored is None:
        return graded
    return _recorded(session, graded, stored)


def settle(session: QuestionSession, key: str, stored) -> None:
    """The store's record of the attempt submitted with `key`, landed after `record` stopped
    waiting for it (a slow database): applied to this visit's answer as `save` would have (its
    rating, phase and due), or to the interview answer held with the model answer. A record
    for another visit, or one already applied, changes nothing."""
    if key == session.unassessed_key and session.last is None:
        session.held_saved = True
    graded = next((g for g in session.graded if g.key == key and g.attempt_id is None), None)
    if graded is not None:
        _recorded(session, graded, stored)


def _recorded(session: QuestionSession, graded: Graded, stored) -> Graded:
    from tutor.review import rating_choices

    if graded.rubric is not None:  # assessed: the held answer is no longer waiting
        session.unassessed_key, session.held_saved = None, False
    saved = replace(graded, attempt_id=stored.id, rating=stored.rating, phase=Phase(stored.phase),
                    due=stored.card.due if stored.card else None,
                    choices=rating_choices(stored.rating, stored.before, stored.created_at,
                                           confidence=stored.confidence))
    session.graded[session.graded.index(graded)] = saved
    return saved


def change_rating(session: QuestionSession, rating: int, *,
                  rerate: Callable[[int, int], Any]) -> Graded | None:
    """Schedule the first try's card with the rating the learner chose instead (once: the store
    recomputes it from the card before that attempt). `rerate(attempt_id, rating)` returns the
    card as now scheduled, or None when it could not."""
    first = session.first
    if first is None or first.attempt_id is None or rating not in dict(first.choices):
        return None
    card = rerate(first.attempt_id, rating)
    if card is None:  # the store refused (the writer said why)
        return None
    changed = replace(first, rating=int(rating), due=card.due)
    session.graded[session.graded.index(first)] = changed
    return changed


# ---- scratch work: what survives a reload --------------------------------------------------------
def to_scratch(session: QuestionSession) -> dict[str, Any]:
    """The session as JSON-ready data (the variant included: a reload shows the same numbers
    without recomputing them)."""
    return {
        "version": SCRATCH_VERSION,
        "question_id": session.question_id,
        "tries_allowed": session.tries_allowed,
        "variant": None if session.variant is None else asdict(session.variant),
        "started_at": session.started_at,
        "hints_shown": session.hints_shown,
        "graded": [_graded_to_json(g) for g in session.graded],
        "revealed": session.revealed,
        "serial": session.serial,
        "order_seed": session.order_seed,
        "typed": session.typed,
        # stored under their earlier names: scratch work saved before reads back the same
        "draft_answer": session.held_answer,
        "draft_confidence": session.held_confidence,
        "unassessed_key": session.unassessed_key,
        "held_saved": session.held_saved,
        "held_seconds": session.held_seconds,
    }


def from_scratch(data: Any, question) -> QuestionSession | None:
    """The session a scratch copy describes, for `question`; None when it is for another
    question or cannot be read (one from an older version is dropped, not trusted)."""
    try:
        if data.get("version") != SCRATCH_VERSION or data["question_id"] != question.id:
            return None
        from quizbank.variants import Variant

        variant = Variant(**data["variant"]) if data.get("variant") else None
        return QuestionSession(
            question_id=question.id,
            tries_allowed=int(data["tries_allowed"]),
            variant=variant,
            started_at=float(data["started_at"]),
            hints_shown=min(int(data["hints_shown"]), len(question.hints or ())),
            graded=[_graded_from_json(g, question) for g in data["graded"]],
            revealed=bool(data["revealed"]),
            serial=int(data["serial"]),
            order_seed=int(data.get("order_seed", data["serial"])),
            typed=dict(data["typed"]),
            held_answer=data.get("draft_answer"),
            held_confidence=data.get("draft_confidence"),
            unassessed_key=data.get("unassessed_key"),
            held_saved=bool(data.get("held_saved")),
            held_seconds=None if data.get("held_seconds") is None else float(data["held_seconds"]),
        )
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def _graded_to_json(graded: Graded) -> dict[str, Any]:
    return {
        "result": graded.result.to_wire(),
        "answer": graded.answer,
        "confidence": graded.confidence,
        "hints_used": graded.hints_used,
        "elapsed_s": graded.elapsed_s,
        "phase": None if graded.phase is None else graded.phase.value,
        # the ticks are in the answer: a reload judges them again (`rubric_result`), the rubric's
        # one judge; kept as a flag so an answer that had no judgement still has none
        "rubric": graded.rubric is not None,
        "gave_up": graded.gave_up,
        "attempt_id": graded.attempt_id,
        "rating": graded.rating,
        "due": None if graded.due is None else graded.due.isoformat(),
        "choices": [[r, due.isoformat()] for r, due in graded.choices],
        "key": graded.key,
    }


def _graded_from_json(data: Mapping[str, Any], question) -> Graded:
    from grader import Result

    rubric = None
    if data.get("rubric"):  # scratch saved before kept the judgement itself: its ticks decide
        rubric = rubric_result(question, data["answer"]["ticked"])[1]
    return Graded(
        result=Result.from_wire(data["result"]),
        answer=data["answer"],
        confidence=data.get("confidence"),
        hints_used=int(data["hints_used"]),
        elapsed_s=float(data["elapsed_s"]),
        phase=None if data.get("phase") is None else Phase(data["phase"]),
        rubric=rubric,
        gave_up=bool(data.get("gave_up")),
        attempt_id=data.get("attempt_id"),
        rating=data.get("rating"),
        due=None if data.get("due") is None else datetime.fromisoformat(data["due"]),
        choices=tuple((int(r), datetime.fromisoformat(d)) for r, d in data.get("choices") or ()),
        key=data.get("key"),
    )
