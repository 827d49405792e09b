"""A simulated learner: open the app, answer what the page asks, see the verdict, go on.

Nothing here knows our questions or page code. For each answer the learner
1. types into the text boxes that sit outside any form (each is committed, as Enter does, and
   the page reruns: the "interpreted as" preview),
2. fills the first form that can be submitted (text, choices, ticks, an ordering: whatever
   widgets it holds) and presses its primary submit button — or, on a page without a form, sets
   the choices outside any form and presses the first primary button; if no verdict follows but
   another form or primary button appears (an interview: answer first, then confirm the rubric),
   it does the same again, up to `MAX_FORMS` times,
3. waits for the verdict: the container the pages key `verdict`; the time from the last submit to
   its arrival is the submit -> verdict latency,
4. after a wrong verdict, as real learners do (`Habits`): tries again (types and submits a new
   answer) while the question still offers "show the solution" (so it is not revealed and the
   try is recorded), then, still wrong, may ask for the solution,
5. clicks the last button after the verdict (Practice's "Next question"; a follow-up does as
   well) to get the next question.
Between actions it thinks (uniform in [0.5, 1.5] x `think` seconds).

The answers are generic (bench/loadgen/answers.py), not the question's: most first tries are
wrong, a choice or an ordering is right by chance. So the load leans to the dearer side: a wrong
answer costs the grader more (its diagnosis, a counterexample) and draws more feedback.

With `reconnects` > 0 a learner whose connection breaks (the replica behind the proxy died) does
what a browser tab does: loads the page again with its cookies (the proxy sends it to a replica
that is up) and carries on with the answers it has left; the answer in flight when the
connection broke had no verdict, so it was never acknowledged.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.loadgen.answers import learner_state
from bench.loadgen.connection import UNREADABLE_KEY, VERDICT_KEY, AppTab, TabError

MAX_FORMS = 3  # forms per answer (the interview's is two)
# Submits the page may refuse per answer ("choose an option first": the random ticks of a "tick
# every correct option" question can all be off, 1 in 8 with three options); each one is filled
# again. Without this margin ~1 answer in 500 ran out of forms and counted as an error.
MAX_REFUSALS = 5
SAVED_KEYS = ("save-stored", "save-spooled")  # app_pages/widgets/progress.py: durable answers
# app_pages/widgets/question_view.py: "I don't know: show the solution", on screen until the reveal.
REVEAL_KEY_SUFFIX = ".give_up"


@dataclass(frozen=True)
class Habits:
    """What a learner does after a wrong verdict. The defaults are a guess at a class practising
    (nobody measured real learners here): most try again once, most of those still wrong then
    look at the solution; the rest skip to the next question."""

    retry: float = 0.8  # share of wrong verdicts followed by another try, while tries are left
    max_retries: int = 1  # tries again per question at most
    reveal: float = 0.7  # share of questions still wrong after that where the solution is asked for

    @classmethod
    def none(cls) -> Habits:
        """The old scenario: one try per question, then the next one."""
        return cls(retry=0.0, max_retries=0, reveal=0.0)


@dataclass
class LearnerConfig:
    base_url: str
    page: str = ""
    query: str = "lang=en"
    answers: int = 5
    think: float = 10.0
    timeout: float = 30.0
    deadline: float = float("inf")  # perf_counter time after which no new action starts
    reconnects: int = 0  # times a learner may load the page again after its connection broke
    login: str = ""  # sign in through the app's OIDC login as "<login>-<number>" (bench/loadgen/login.py)
    new_profile: str = ""  # without login: make a profile "<new_profile>-<number>" (loadgen/profile.py)
    habits: Habits = field(default_factory=Habits)


@dataclass
class LearnerLog:
    """What one learner saw."""

    number: int
    first_page: float | None = None
    verdicts: list[float] = field(default_factory=list)  # submit -> verdict, seconds
    runs: list[float] = field(default_factory=list)  # every interaction's run, seconds
    acknowledged: int = 0  # answers whose verdict was shown (attempts the store must keep)
    unreadable: int = 0  # answers the grader could not read: a verdict, but not an attempt
    errors: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # exceptions the app itself showed
    finished: bool = False
    reconnects: int = 0  # page loads again after a broken connection
    alerts: list[str] = field(default_factory=list)  # alert texts on screen with a verdict
    refused: int = 0  # submits the page refused (the previous verdict stayed): not attempts
    # attempts the page had called saved: `acknowledged` as it stood the last time a verdict came
    # with "Saved." or "Saved on this server" (the line covers every answer of the session)
    saved: int = 0
    profile: str | None = None  # the profile id this learner made for itself (new_profile)
    # A form of an answer submitted, its verdict not yet shown (an interview: the answer sent,
    # the key points still to tick). The app may already have stored that answer (an interview
    # answer is recorded when its model answer is shown), so a learner leaving at the time bound
    # right then leaves an attempt it never saw acknowledged (`left_mid_answer`).
    mid_answer: bool = False
    left_mid_answer: int = 0
    questions: int = 0  # questions answered (each with one or more verdicts)
    first_wrong: int = 0  # questions whose first verdict was not "correct"
    retries: int = 0  # tries again after a wrong verdict (each with a verdict of its own)
    reveals: int = 0  # solutions asked for after a wrong try
    not_known: int = 0  # of them, recorded as "not known" (no try counted before): an attempt


class Stop(Exception):
    """The time bound was reached: the learner leaves."""


async def think(config: LearnerConfig, rng: random.Random) -> None:
    pause = config.think * rng.uniform(0.5, 1.5)
    if time.perf_counter() + pause > config.deadline:
        raise Stop
    await asyncio.sleep(pause)


async def answer_one(tab: AppTab, config: LearnerConfig, rng: random.Random, log: LearnerLog) -> None:
    """One question: type, submit (one or more forms), wait for the verdict, go on."""
    for box in tab.page.loose_text_boxes():
        await think(config, rng)
        run = await tab.rerun(set_values=[learner_state(box, rng)])
        log.runs.append(run.seconds)

    if _finished_already(tab):
        # A restored draft can open on a question already answered (after a reconnect; or when
        # learners share the first profile, without `new_profile`): go on to the next one, as a
        # learner would.
        await think(config, rng)
        run = await tab.rerun(click=tab.page.buttons_after(
            tab.page.keyed_block(VERDICT_KEY).path)[-1])
        log.runs.append(run.seconds)
        for box in tab.page.loose_text_boxes():
            await think(config, rng)
            run = await tab.rerun(set_values=[learner_state(box, rng)])
            log.runs.append(run.seconds)

    correct = await submit_and_wait(tab, config, rng, log)
    log.questions += 1
    log.first_wrong += not correct
    habits = config.habits
    tries_again = 0
    while (not correct and tries_again < habits.max_retries and _may_try_again(tab)
           and rng.random() < habits.retry):
        tries_again += 1
        log.retries += 1
        for box in tab.page.loose_text_boxes():
            await think(config, rng)
            run = await tab.rerun(set_values=[learner_state(box, rng)])
            log.runs.append(run.seconds)
        correct = await submit_and_wait(tab, config, rng, log)
    if not correct and (reveal := tab.page.button_keyed(REVEAL_KEY_SUFFIX)) is not None \
            and rng.random() < habits.reveal:
        await think(config, rng)
        shown_before = tab.page.verdict_number()
        run = await tab.rerun(click=reveal)
        log.runs.append(run.seconds)
        log.reveals += 1
        if run.verdict_number > shown_before:
            # No try counted yet (the answers so far could not be read): the page records "not
            # known" as the first try and says so in a verdict of its own, an attempt.
            log.acknowledged += 1
            log.not_known += 1

    shown = tab.page.keyed_block(VERDICT_KEY)
    onward = tab.page.buttons_after(shown.path) if shown is not None else []
    if not onward:
        raise TabError("no button after the verdict to go on with")
    await think(config, rng)
    run = await tab.rerun(click=onward[-1])
    log.runs.append(run.seconds)


async def submit_and_wait(tab: AppTab, config: LearnerConfig, rng: random.Random,
                          log: LearnerLog) -> bool:
    """Fill and submit (one or more forms) until a new verdict is shown; counted; correct?"""
    verdict = None
    for _ in range(MAX_FORMS + MAX_REFUSALS):
        forms = tab.page.submittable_forms()
        if forms:
            form_id, submit = forms[0]
            fields = tab.page.form_fields(form_id)
        else:
            submit, fields = tab.page.loose_submit(), tab.page.loose_fields()
            if submit is None:
                shown = " | ".join(t[:60] for t in tab.page.texts()[-4:])
                raise TabError(f"nothing to submit on the page (no form, no primary button): "
                               f"{shown}")
        values = [s for w in fields if (s := learner_state(w, rng)) is not None]
        await think(config, rng)
        shown_before = tab.page.verdict_number()
        log.mid_answer = True
        run = await tab.rerun(set_values=values, click=submit)
        log.runs.append(run.seconds)
        if run.verdict_seconds is not None and run.verdict_number > shown_before:
            verdict = run.verdict_seconds
            log.mid_answer = False
            break
        if run.verdict_seconds is not None:
            # The previous try's verdict drawn again: the submit was refused (e.g. "choose an
            # option first"), nothing was graded or stored. Fill the form again.
            log.refused += 1
            continue
        if tab.page.keyed_block(VERDICT_KEY) is not None:
            raise TabError("a verdict was on the page but did not come with the submit")
    if verdict is None:
        shown = " | ".join(t[:80] for t in tab.page.texts()[-14:] if t.strip() != "$$")
        raise TabError(f"no verdict after {MAX_FORMS + MAX_REFUSALS} submits (is the verdict container keyed "
                       f"{VERDICT_KEY!r}?): {shown}")
    log.verdicts.append(verdict)
    # Alerts on screen with the verdict (e.g. "could not be saved"): what to look at when the
    # attempts stored fall short of the verdicts seen.
    log.alerts += [n.proto.body[:100] for n in tab.page.ordered() if n.kind == "alert"]
    if tab.page.keyed_block(UNREADABLE_KEY) is not None:
        log.unreadable += 1
    else:
        log.acknowledged += 1
    if any(tab.page.keyed_block(key) is not None for key in SAVED_KEYS):
        log.saved = log.acknowledged

    shown = tab.page.keyed_block(VERDICT_KEY)
    return shown is not None and tab.page.verdict_is_correct(shown)


def _may_try_again(tab: AppTab) -> bool:
    """Not revealed yet (so a try is recorded), and tries left: something to answer in (a page
    whose tries are used up locks its inputs, while Submit and "show the solution" stay)."""
    page = tab.page
    if page.button_keyed(REVEAL_KEY_SUFFIX) is None:
        return False
    in_forms = any(not w.disabled for form_id, _ in page.submittable_forms()
                   for w in page.form_fields(form_id))
    loose = page.loose_submit() is not None and bool(page.loose_fields() or page.loose_text_boxes())
    return in_forms or loose


def _finished_already(tab: AppTab) -> bool:
    """A verdict is on screen, nothing can be submitted, and a button leads on."""
    page = tab.page
    shown = page.keyed_block(VERDICT_KEY)
    return (shown is not None and not page.submittable_forms() and page.loose_submit() is None
            and bool(page.buttons_after(shown.path)))


async def learner(number: int, config: LearnerConfig, *, start_delay: float = 0.0,
                  seed: int = 0, on_send: Callable[[], object] | None = None) -> LearnerLog:
    """One learner's whole visit; errors are logged, never raised."""
    log = LearnerLog(number)
    rng = random.Random(seed * 100_003 + number)
    await asyncio.sleep(start_delay)
    if time.perf_counter() > config.deadline:
        log.finished = True
        return log
    tab = AppTab(config.base_url, page=config.page, query=config.query, timeout=config.timeout,
                 on_send=on_send)
    try:
        first = await tab.open()
        if config.login:
            from bench.loadgen.login import sign_in

            tab = await sign_in(tab, f"{config.login}-{number}")
            first.finished = time.perf_counter()  # the first page is the signed-in one
        elif config.new_profile:
            from bench.loadgen.profile import make_own_profile

            made_at = time.perf_counter()
            log.profile = await make_own_profile(tab, f"{config.new_profile}-{number}")
            made = time.perf_counter() - made_at  # one script run, counted with the others
        log.first_page = first.seconds
        log.runs.append(first.seconds)
        if log.profile is not None:
            log.runs.append(made)
        while log.questions < config.answers:
            try:
                await answer_one(tab, config, rng, log)
            except TabError as exc:
                if log.reconnects >= config.reconnects or not _broken(exc):
                    raise
                log.reconnects += 1
                log.problems += tab.page.problems
                await tab.close()
                await asyncio.sleep(rng.uniform(0.5, 1.5))  # a browser's reconnect back-off
                # The URL as the app last left it: the learner's own profile, the language.
                tab = AppTab(config.base_url, page=config.page, query=tab.page.query_string,
                             timeout=config.timeout, on_send=on_send, cookies=tab.cookies)
                log.runs.append((await tab.open()).seconds)
        log.finished = True
    except Stop:
        log.finished = True
        log.left_mid_answer += log.mid_answer
    except TabError as exc:
        log.errors.append(str(exc))
    except Exception as exc:  # noqa: BLE001 - a learner's bug must not stop the others
        log.errors.append(f"unexpected {exc!r}")
    finally:
        log.problems += tab.page.problems
        await tab.close()
    return log


_BROKEN = ("connection lost", "the server closed the connection", "send failed",
           "websocket connect failed", "page load")


def _broken(error: TabError) -> bool:
    """The connection broke (as opposed to the page not behaving)."""
    return str(error).startswith(_BROKEN)
