"""A derivation step, or an expression answer, with moments (issue 25): decided over random
discrete distributions (values/moments.py), with a counterexample distribution and (for a step)
the assumptions that would make it follow, in the learner's language."""

from __future__ import annotations

from ..errors import CannotDecide, ParseError
from ..messages import message
from ..reading.latex import to_latex
from ..reading.names import Declarations
from ..reading.nodes import Node
from ..reading.parser import parse
from ..result import Result, Step, StepStatus
from ..values.moments import Example, compare, has_moments, missing_assumptions
from .feedback import cannot_grade, misconfigured, reason, result, unreadable


def is_moment_step(node: Node | None, previous: Node | None, decls: Declarations) -> bool:
    """Where random variables are declared, a step with a moment on either side."""
    return bool(decls.random) and (has_moments(node) or has_moments(previous))


def check_moment_step(number: int, node: Node, previous: Node, decls: Declarations, lang: str,
                      interpreted: str, before: str) -> Step:
    try:
        verdict = compare(node, previous, decls)
    except CannotDecide as err:
        text = message("step_cannot_decide_because", lang, line=number, reason=reason(err, lang))
        return Step(number, StepStatus.CANNOT_DECIDE, interpreted, text)
    if verdict.status == "equal":
        return Step(number, StepStatus.VERIFIED, interpreted, "")
    if verdict.status == "undecided":
        return Step(number, StepStatus.CANNOT_DECIDE, interpreted,
                    message("step_cannot_decide", lang, line=number))
    space = "" if lang == "zh" else " "
    parts = [message("step_does_not_follow", lang, line=number, before=before)]
    if verdict.example is not None:
        parts.append(example_text(verdict.example, lang, before))
    parts.append(assumptions_text(missing_assumptions(node, previous, decls), lang))
    return Step(number, StepStatus.DOES_NOT_FOLLOW, interpreted, space.join(parts))


def grade_moment_expression(answer: str, expected: str, decls: Declarations,
                            lang: str) -> Result | None:
    """An expression question whose key or answer has moments (random variables declared), or
    None for the usual path (values/decide.py)."""
    try:
        key, _ = parse(expected, decls)
    except ParseError as err:
        return misconfigured("part_expected", err, lang)
    try:
        node, _ = parse(answer, decls)
    except ParseError as err:
        return unreadable(answer, err, lang)
    if not (has_moments(key) or has_moments(node)):
        return None
    interpreted = to_latex(node)
    try:
        verdict = compare(node, key, decls)
    except CannotDecide as err:
        return cannot_grade(err, lang, interpreted)
    if verdict.status == "equal":
        return result(correct=True, score=1.0, feedback=message("correct", lang),
                      interpreted=interpreted)
    if verdict.status == "undecided":
        text = message("cannot_decide", lang)
        return result(feedback=text, error=text, interpreted=interpreted)
    parts = [message("wrong_formula", lang)]
    if verdict.example is not None:
        parts.append(example_text(verdict.example, lang, "", "moment_counterexample_answer"))
    return result(feedback=("" if lang == "zh" else " ").join(parts), interpreted=interpreted)


def moments_equal(a: Node, b: Node, decls: Declarations) -> bool:
    try:
        return compare(a, b, decls).status == "equal"
    except CannotDecide:
        return False


def example_text(example: Example, lang: str, before: str,
                 key: str = "moment_counterexample") -> str:
    laws = "; ".join(example.laws)
    if len(example.laws) > 1:
        laws += message("moment_blocks_independent", lang)
    iid = message("moment_iid", lang, names=", ".join(example.iid)) if example.iid else ""
    point = message("moment_point", lang, point=example.point) if example.point else ""
    return message(key, lang, laws=laws, iid=iid, point=point,
                   answer=example.this, before=before, expected=example.before)


def assumptions_text(options: list[tuple[tuple[str, ...], ...]], lang: str) -> str:
    """'It would follow if w and x are independent and w has mean 0 (declare ...)', one
    option per smallest set of assumptions that makes the step hold."""
    if not options:
        return message("moment_no_assumption", lang)
    sentences, declared = [], []
    for option in options:
        said = [message("moment_independent", lang, a=item[1], b=item[2])
                if item[0] == "independent" else message("moment_zero_mean", lang, a=item[1])
                for item in option]
        sentences.append(message("moment_assumption_and", lang).join(said))
        declared.append(declaration_text(option))
    return message("moment_assumption_hint", lang,
                   assumptions=message("moment_assumption_or", lang).join(sentences),
                   declarations=" | ".join(declared))


def declaration_text(option: tuple[tuple[str, ...], ...]) -> str:
    """The same assumptions as the schema writes them: independent: [[w, x]], zero_mean: [w]."""
    pairs = [f"[{item[1]}, {item[2]}]" for item in option if item[0] == "independent"]
    zeros = [item[1] for item in option if item[0] == "zero_mean"]
    out = []
    if pairs:
        out.append(f"independent: [{', '.join(pairs)}]")
    if zeros:
        out.append(f"zero_mean: [{', '.join(zeros)}]")
    return ", ".join(out)
