"""Mock interview: a timer and a summary around a list of question sessions, one per question
asked, each the same `QuestionSession` Practice uses (its own record, reveal and rubric events).

    session = start_interview(bank.questions.values(), n=3, now=now, seed=7,
                              recently_seen=store.recent_question_ids(
                                  pid, since=recently_seen_since(now)))
    session = session.submit_answer(question, "typed answer", confidence="high", now=now,
                                    record=record)   # -> REVEAL (recorded, unassessed)
    session.current.held_answer                # the answer; suggest_ticks(question.rubric, it)
    session = session.confirm_ticks(question, ticked_ids, lang="en", record=record)  # -> FOLLOWUPS
    session = session.skip(question, now=now, record=record)   # "I don't know": ANSWER -> FOLLOWUPS
    session = session.next(now, bank.questions)    # -> ANSWER of the next question, or DONE
    summarize(session, bank.questions)         # missed required points, questions to practise
    InterviewSession.from_dict(session.to_dict(), bank.questions)   # scratch that survives a reload

Every step returns a new interview (the question session it changes is a copy: the one kept in
`st.session_state` is never changed under a page that still draws it). The stage is read from
the current question's session. The clock is an argument (wall-clock time: a reload or a server
restart does not stop it); when the time limit has passed, the answer being typed is still taken,
and `next` ends the interview. `record` is any callable taking a `tutor.store.NewAttempt` (the
store's writer for the profile); the question session keeps what the store decided (rating, when
the question comes back, the other ratings offered after a right answer: `rerate`). The model
answer is the solution: the answer is recorded when it is shown, unassessed (a failure until
ticked), and the confirmed ticks assess that same attempt, so an interview left at REVEAL
(finished early, abandoned) does not leave the question fresh for Practice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from grader import Verdict
from tutor.interview import QuestionTime, followup_ids, grade_ticks, pick_questions
from tutor.rating import Mode, Phase
from tutor.sessions import question_session as flow
from tutor.sessions.question_session import Graded, QuestionSession

DEFAULT_SECONDS_PER_QUESTION = 300.0
SCRATCH_VERSION = 2  # 1: the interview's own runs (`_from_runs` reads them)
MODE = str(Mode.INTERVIEW)


class Stage(StrEnum):
    ANSWER = "answer"
    REVEAL = "reveal"
    FOLLOWUPS = "followups"
    DONE = "done"


class InterviewStateError(ValueError):
    """A step asked for in the wrong stage, or for another question than the current one."""


def _copy(session: QuestionSession) -> QuestionSession:
    # the events change a session in place: they get a copy, the interview a new value
    return replace(session, graded=list(session.graded), typed=dict(session.typed))


def _open(question, now: datetime, serial: int) -> QuestionSession:
    # an interview question has no variant and no steps to shuffle: a fixed rng draws nothing
    # that the learner sees
    return flow.open_session(question, rng=random.Random(0), serial=serial, now=now.timestamp())


@dataclass(frozen=True)
class InterviewSession:
    question_ids: tuple[str, ...]
    started_at: datetime
    time_limit_seconds: float
    sessions: tuple[QuestionSession, ...] = ()  # one per question reached, in the order asked
    timed_out: tuple[str, ...] = ()  # questions the clock submitted at 00:00 (as typed, or empty)
    done: bool = False

    # ---- reading ----------------------------------------------------------------------------
    @property
    def index(self) -> int:
        """The current question's position (0-based)."""
        return len(self.sessions) - 1

    @property
    def current(self) -> QuestionSession | None:
        """The current question's session; None once the interview is done."""
        return None if self.done else self.sessions[-1]

    @property
    def current_id(self) -> str | None:
        return None if self.done else self.sessions[-1].question_id

    @property
    def stage(self) -> Stage:
        current = self.current
        if current is None:
            return Stage.DONE
        if current.revealed:  # ticks confirmed, or "I don't know"
            return Stage.FOLLOWUPS
        return Stage.REVEAL if current.answer_shown else Stage.ANSWER

    @property
    def current_timed_out(self) -> bool:
        """The clock submitted the current question at 00:00."""
        return self.current_id in self.timed_out

    @property
    def last_question(self) -> bool:
        return self.index + 1 >= len(self.question_ids)

    def time_left(self, now: datetime) -> float:
        return max(0.0, self.time_limit_seconds - (now - self.started_at).total_seconds())

    def expired(self, now: datetime) -> bool:
        return self.time_left(now) <= 0.0

    # ---- events -----------------------------------------------------------------------------
    def _expect(self, stage: Stage, question=None) -> None:
        if self.stage is not stage:
            raise InterviewStateError(f"expected stage {stage.value}, the session is at {self.stage.value}")
        if question is not None and question.id != self.current_id:
            raise InterviewStateError(f"question {question.id} is not the current {self.current_id}")

    def _with_current(self, session: QuestionSession) -> InterviewSession:
        return replace(self, sessions=(*self.sessions[:-1], session))

    def submit_answer(self, question, text: str, *, confidence: str, now: datetime,
                      record: Callable | None = None) -> InterviewSession:
        """ANSWER -> REVEAL: the answer is held and recorded unassessed (the model answer is
        about to be shown)."""
        self._expect(Stage.ANSWER, question)
        if confidence not in flow.CONFIDENCES:
            raise ValueError(f"confidence {confidence!r} is not one of {flow.CONFIDENCES}")
        session = _copy(self.current)
        flow.show_model_answer(session, question, text, confidence, record=record, mode=MODE,
                               now=now.timestamp())
        return self._with_current(session)

    def confirm_ticks(self, question, ticked: Iterable[str], *, lang: str,
                      record: Callable | None = None) -> InterviewSession:
        """REVEAL -> FOLLOWUPS: the ticks grade the held answer, and assess its attempt."""
        self._expect(Stage.REVEAL, question)
        session = _copy(self.current)
        flow.confirm_ticks(session, question, ticked, lang=lang, record=record, mode=MODE)
        return self._with_current(session)

    def skip(self, question, *, now: datetime, record: Callable | None = None) -> InterviewSession:
        """ANSWER -> FOLLOWUPS: "I don't know". Recorded as a failure (no key point covered)."""
        self._expect(Stage.ANSWER, question)
        session = _copy(self.current)
        flow.give_up(session, question, record=record, mode=MODE, now=now.timestamp())
        return self._with_current(session)

    def time_up(self, question, text: str, *, confidence: str, now: datetime,
                record: Callable | None = None) -> InterviewSession:
        """ANSWER at 00:00: the answer as typed is kept and submitted (REVEAL, ticks still to
        confirm); with nothing typed the question is recorded as not known (FOLLOWUPS). Either
        way the question is marked timed out, so the page can say the clock submitted it."""
        self._expect(Stage.ANSWER, question)
        if text.strip():
            moved = self.submit_answer(question, text, confidence=confidence, now=now, record=record)
        else:
            moved = self.skip(question, now=now, record=record)
        return replace(moved, timed_out=(*moved.timed_out, question.id))

    def rerate(self, rating: int, rerate: Callable[[int, int], Any]) -> InterviewSession:
        """After a right answer: schedule the card with the rating the learner chose instead
        (`rerate(attempt_id, rating)` returns the card as now scheduled, or None when it could
        not: the interview is then unchanged)."""
        self._expect(Stage.FOLLOWUPS)
        graded = self.current.last
        if graded is None or graded.attempt_id is None or rating not in dict(graded.choices):
            raise InterviewStateError(f"rating {rating} is not offered for this answer")
        session = _copy(self.current)
        if flow.change_rating(session, rating, rerate=rerate) is None:
            return self
        return self._with_current(session)

    def next(self, now: datetime, questions: Mapping[str, Any]) -> InterviewSession:
        """FOLLOWUPS -> the next question's ANSWER, or DONE after the last or when time is up."""
        self._expect(Stage.FOLLOWUPS)
        if self.last_question or self.expired(now):
            return replace(self, done=True)
        upcoming = questions[self.question_ids[self.index + 1]]
        return replace(self, sessions=(*self.sessions, _open(upcoming, now, self.index + 1)))

    def finish(self) -> InterviewSession:
        """Stop early (the learner ends it); an answer whose ticks are not confirmed is not
        counted (`summarize` reads graded questions only)."""
        return replace(self, done=True)

    # ---- scratch ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the scratch copy that brings a running interview back after a reload."""
        return {
            "version": SCRATCH_VERSION,
            "question_ids": list(self.question_ids),
            "started_at": self.started_at.isoformat(),
            "time_limit_seconds": self.time_limit_seconds,
            "sessions": [flow.to_scratch(s) for s in self.sessions],
            "timed_out": list(self.timed_out),
            "done": self.done,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], questions: Mapping[str, Any]) -> InterviewSession:
        """The interview `to_dict` wrote (or the interview's own format before it ran on question
        sessions), for the bank's `questions`; ValueError when the data is not one, or names a
        question the bank no longer has."""
        try:
            interview = _from_runs(data, questions) if "runs" in data else cls(
                question_ids=tuple(str(q) for q in data["question_ids"]),
                started_at=datetime.fromisoformat(data["started_at"]),
                time_limit_seconds=float(data["time_limit_seconds"]),
                sessions=tuple(_session_of(saved, questions) for saved in data["sessions"]),
                timed_out=tuple(str(q) for q in data["timed_out"]), done=bool(data["done"]))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not an interview session: {exc!r}") from None
        asked = [s.question_id for s in interview.sessions]
        if (not asked and not interview.done) or asked != list(interview.question_ids[:len(asked)]):
            raise ValueError("not an interview session: its sessions are not its questions")
        return interview


def _session_of(saved: Mapping[str, Any], questions: Mapping[str, Any]) -> QuestionSession:
    session = flow.from_scratch(saved, questions[saved["question_id"]])
    if session is None:
        raise ValueError(f"a question's session cannot be read: {saved.get('question_id')!r}")
    return session


def start_interview(
    questions: Iterable,
    *,
    n: int,
    now: datetime,
    seed: int,
    topics: Iterable[str] | None = None,
    recently_seen: Iterable[str] = (),
    time_limit_seconds: float | None = None,
) -> InterviewSession:
    questions = list(questions)  # a bank iterates over its questions
    picked = pick_questions(questions, n=n, seed=seed, topics=topics, recently_seen=recently_seen)
    if not picked:
        raise ValueError("no interview question matches these topics")
    first = next(q for q in questions if q.id == picked[0])
    limit = time_limit_seconds or DEFAULT_SECONDS_PER_QUESTION * len(picked)
    return InterviewSession(tuple(picked), started_at=now, time_limit_seconds=limit,
                            sessions=(_open(first, now, 0),))


# ---- the summary ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MissedPoint:
    question_id: str
    point_id: str
    text: Any  # the rubric point's localized text (`.get(lang)`)


@dataclass(frozen=True)
class InterviewSummary:
    answered: int  # questions answered with some text (not "I don't know", not empty at 00:00)
    correct: int
    missed: tuple[MissedPoint, ...]
    misconceptions: tuple[MissedPoint, ...]
    practise: tuple[str, ...]  # question ids to practise: those with gaps, then their follow-ups
    per_question: tuple[QuestionTime, ...] = ()  # every graded question, in the order asked
    skipped: int = 0  # "I don't know" (or nothing typed at 00:00): recorded, not answered

    @property
    def graded(self) -> int:
        """Questions that reached a result: answered or skipped."""
        return self.answered + self.skipped


def answer_seconds(session: QuestionSession, graded: Graded) -> float:
    """From the question being shown to the answer (or "I don't know")."""
    return graded.elapsed_s if session.held_seconds is None else session.held_seconds


def summarize(interview: InterviewSession, questions: Mapping[str, Any]) -> InterviewSummary:
    missed: list[MissedPoint] = []
    wrong_beliefs: list[MissedPoint] = []
    practise: dict[str, None] = {}
    times: list[QuestionTime] = []
    for session in interview.sessions:
        graded = session.last
        if graded is None:  # not answered, or the ticks not confirmed: not counted
            continue
        question = questions[session.question_id]
        points = {p.id: p for p in question.rubric}
        # "I don't know" covered no key point: every required one is missed
        outcome = graded.rubric or grade_ticks(question, ())
        missed += [MissedPoint(question.id, p, points[p].text) for p in outcome.missed_required]
        wrong_beliefs += [MissedPoint(question.id, p, points[p].text) for p in outcome.misconceptions]
        verdict = graded.result.verdict
        if verdict is not Verdict.CORRECT:
            practise[question.id] = None
            practise.update(dict.fromkeys(followup_ids(question, questions)))
        times.append(QuestionTime(question.id, verdict, session.gave_up,
                                  question.id in interview.timed_out,
                                  round(answer_seconds(session, graded), 1)))
    correct = sum(t.verdict is Verdict.CORRECT for t in times)
    skipped = sum(t.skipped for t in times)
    return InterviewSummary(len(times) - skipped, correct, tuple(missed), tuple(wrong_beliefs),
                            tuple(practise), per_question=tuple(times), skipped=skipped)


# ---- scratch saved before the interview ran on question sessions ----------------------------------
_CONFIDENCE_WORD = {level: word for word, level in flow.CONFIDENCE_LEVEL.items()}


def _from_runs(data: Mapping[str, Any], questions: Mapping[str, Any]) -> InterviewSession:
    """An interview in progress saved in the interview's own format (one "run" per question:
    answer, ticks, outcome, what the store recorded), as question sessions."""
    started_at = datetime.fromisoformat(data["started_at"])
    shown_at = datetime.fromisoformat(data["shown_at"]) if data.get("shown_at") else started_at
    ids = tuple(str(q) for q in data["question_ids"])
    stage = Stage(data["stage"])
    runs = list(data["runs"])
    sessions = [_session_of_run(run, questions[str(run["question_id"])], serial=n,
                                opened=shown_at if n == len(runs) - 1 else started_at)
                for n, run in enumerate(runs)]
    if stage is Stage.ANSWER:  # the current question is shown, not answered yet
        index = int(data["index"])
        sessions.append(_open(questions[ids[index]], shown_at, index))
    timed_out = tuple(str(r["question_id"]) for r in runs if r.get("timed_out"))
    return InterviewSession(ids, started_at=started_at,
                            time_limit_seconds=float(data["time_limit_seconds"]),
                            sessions=tuple(sessions), timed_out=timed_out,
                            done=stage is Stage.DONE)


def _session_of_run(run: Mapping[str, Any], question, *, serial: int,
                    opened: datetime) -> QuestionSession:
    from grader import Result

    skipped = bool(run.get("skipped"))
    confidence = _CONFIDENCE_WORD.get(run.get("confidence"))
    session = _open(question, opened, serial)
    seconds = float(run["seconds"])
    if not skipped:  # the answer held with the model answer
        session.held_answer, session.held_confidence = str(run["answer"]), confidence or "medium"
        session.held_seconds = seconds
        session.unassessed_key = run.get("unassessed_key")
        session.held_saved = session.unassessed_key is not None
    if run.get("outcome") is None:  # REVEAL: the ticks are still to confirm
        return session
    ticked = list(run["ticked"])
    result, rubric = (Result(Verdict.WRONG), None) if skipped else flow.rubric_result(question, ticked)
    session.graded.append(Graded(
        result=result, answer="" if skipped else {"text": str(run["answer"]), "ticked": ticked},
        confidence=None if skipped else confidence, hints_used=0, elapsed_s=seconds,
        phase=Phase.FIRST, rubric=rubric, gave_up=skipped, attempt_id=run.get("attempt_id"),
        rating=run.get("rating"),
        due=None if run.get("due") is None else datetime.fromisoformat(run["due"]),
        choices=tuple((int(r), datetime.fromisoformat(d)) for r, d in run.get("choices") or ())))
    session.revealed = True
    if not skipped:  # assessed: the held answer is no longer waiting
        session.unassessed_key, session.held_saved = None, False
    return session
