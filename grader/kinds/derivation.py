"""Check a derivation line by line: each line must equal the line before it.

`start` (when given) is line 0. Each learner line k (1-based) is compared with the last line
before it that followed (the start, the first line, or a later line that was not refuted): a line
that does not follow, or cannot be read, is never the reference, so one broken step does not mark
every correct line after it. Statuses: verified | does_not_follow | cannot_decide | unreadable.
Score: 1 when every line is verified and the last equals the target; otherwise
(verified lines before the first problem / number of lines), halved when the target is not
reached.
"""

from __future__ import annotations

from ..errors import EvalError, GraderError, ParseError
from ..messages import message
from ..reading.latex import to_latex
from ..reading.names import Declarations
from ..reading.nodes import Node
from ..reading.parser import parse
from ..result import Result, Step, StepStatus
from .exact_decimal import undefined_everywhere
from .expression import ExpectedBroken, SymbolicCheck, counterexample_of, full_verdict, prepare
from .feedback import caret_text, counterexample_text, misconfigured, reason, result

MAX_LINES = 40


def grade_derivation(lines: list[str], *, start: str | None, target: str | None,
                     decls: Declarations, lang: str = "en",
                     symbolic: SymbolicCheck | None = None) -> Result:
    try:
        start_node = prepare(start, decls).node if start else None
    except GraderError as err:
        return misconfigured("part_start", err, lang)
    try:
        target_node = prepare(target, decls).node if target else None
    except GraderError as err:
        return misconfigured("part_expected", err, lang)
    if not lines:
        return result(feedback=message("no_lines", lang), error=message("no_lines", lang))
    lines = lines[:MAX_LINES]
    steps: list[Step] = []
    previous: Node | None = start_node  # the last line that followed: the next one's reference
    last_node: Node | None = None
    rendered: list[str] = [to_latex(start_node)] if start_node is not None else []
    for number, text in enumerate(lines, start=1):
        step, node = _check_line(number, str(text), previous, decls, lang, symbolic)
        steps.append(step)
        last_node = node
        if node is not None:
            rendered.append(step.interpreted)
            if step.status is not StepStatus.DOES_NOT_FOLLOW:
                previous = node
    first_wrong = next((s.line for s in steps if s.status is not StepStatus.VERIFIED), None)
    reaches = target_node is None or (last_node is not None and
                                      _same(last_node, target_node, symbolic) == "equal")
    correct = first_wrong is None and reaches
    prefix = (first_wrong - 1) if first_wrong else len(lines)
    score = 1.0 if correct else (prefix / len(lines)) * (1.0 if reaches else 0.5)
    if correct:
        feedback = message("derivation_correct", lang)
    elif first_wrong is not None:
        feedback = steps[first_wrong - 1].feedback
    else:
        feedback = message("last_not_target", lang)
    return result(correct=correct, score=score, feedback=feedback,
                  interpreted=" = ".join(rendered) or None, first_wrong_step=first_wrong,
                  steps=tuple(steps), reaches_target=reaches)


def _same(a: Node, b: Node, symbolic: SymbolicCheck | None) -> str:
    try:
        return full_verdict(a, b, symbolic).status
    except (EvalError, ExpectedBroken):
        return "undecided"


def _check_line(number: int, text: str, previous: Node | None, decls: Declarations, lang: str,
                symbolic: SymbolicCheck | None) -> tuple[Step, Node | None]:
    try:
        node, _ = parse(text, decls)
    except ParseError as err:
        column, picture = caret_text(text, err)
        why = message("step_unreadable", lang, line=number, reason=reason(err, lang))
        return _step(number, "unreadable", None, f"{why}\n{picture}"), None
    interpreted = to_latex(node)
    if previous is None:  # the first line with no start: nothing to follow from
        return _step(number, "verified", interpreted, ""), node
    try:
        verdict = full_verdict(node, previous, symbolic)
    except (EvalError, ExpectedBroken) as err:
        inner = err.err if isinstance(err, ExpectedBroken) else err
        text_ = message("step_cannot_decide", lang, line=number) + " " + reason(inner, lang)
        return _step(number, "cannot_decide", interpreted, text_), node
    if verdict.status == "equal":
        return _step(number, "verified", interpreted, ""), node
    undefined = undefined_everywhere(node, verdict.env)  # 1/0: no value to follow from
    if undefined is not None:
        why = message("step_unreadable", lang, line=number, reason=reason(undefined, lang))
        return _step(number, "unreadable", interpreted, why), None
    if verdict.status == "undecided":
        return _step(number, "cannot_decide", interpreted,
                     message("step_cannot_decide", lang, line=number)), node
    why = message("step_does_not_follow", lang, line=number)
    if verdict.status == "different":
        example = counterexample_of(node, previous, verdict, lang)
        if example is not None:
            why += ("" if lang == "zh" else " ") + counterexample_text(
                example, lang, "counterexample_step")
    return _step(number, "does_not_follow", interpreted, why), node


def _step(number: int, status: str, interpreted: str | None, feedback: str) -> Step:
    return Step(number, StepStatus(status), interpreted, feedback)
