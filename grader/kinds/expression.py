"""Grade a formula: parse, decide by sampling, fall back to a bounded symbolic check, explain.

The parsed expected answer and its sampled values are cached per (text, declarations), so a run
of answers to the same question evaluates only the learner's tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from ..errors import CannotDecide, EvalError, GraderError, ParseError
from ..messages import message
from ..reading.latex import to_latex
from ..reading.names import Declarations
from ..reading.nodes import Matrix, Member, Node, facts, symbol_names, walk
from ..reading.normalize import normalize
from ..reading.parser import parse, parse_with_notes
from ..reading.typos import decimal_comma_in_formula, plus_minus_for_one_value
from ..result import Counterexample, Result
from ..values.confirm import confirmed, exactly
from ..values.counterexample import find_counterexample
from ..values.decide import (
    MATRIX_SIZE,
    SampleVerdict,
    common_domain_env,
    compare_values,
    domain_env,
    sampling_env,
    scan_env,
    spread_out,
    uses_matrices,
    valid_count,
)
from ..values.domain_note import domain_difference_point
from ..values.domains import NO_DOMAINS, Domains, shared_restricted
from ..values.evaluate import Env, evaluate
from ..values.indexed import Indexing, indexed_verdict, needs_integer_points
from .exact_decimal import undefined_everywhere
from .feedback import (
    cannot_grade,
    counterexample_text,
    domain_note,
    misconfigured,
    reason,
    result,
    shape_text,
    unreadable,
)
from .indexing import indexing_of
from .moment_steps import grade_moment_expression

# Shape errors an answer or a line makes itself (values/evaluate.py): with declared vectors a
# wrong answer (expressions), a line that does not follow (derivations), the reason named.
SHAPE_MISTAKES = frozenset(("vector_mul_shapes", "mul_shapes", "add_vector_scalar", "add_shapes",
                            "matrix_power_square", "vector_function_argument"))

# (answer tree, expected tree, declared domains) -> True / False / None (cannot decide); runs
# in the worker, with the declared domains as sympy's assumptions.
SymbolicCheck = Callable[[Node, Node, Domains], bool | None]


@dataclass(frozen=True, slots=True)
class Prepared:
    node: Node
    values: dict  # matrix_mode -> sampled values (filled lazily)


@lru_cache(maxsize=512)
def prepare(text: str, decls: Declarations) -> Prepared:
    node, _ = parse(text, decls)
    return Prepared(node, {})


def sampled(prepared: Prepared, matrix_mode: bool,
            domains: Domains = NO_DOMAINS) -> tuple[Env, np.ndarray]:
    """The expected values and the environment they were sampled in (cached), every name in
    its declared domain (values/domains.py).

    With matrix symbols, lowercase names are first read as column vectors; if the expected
    answer does not evaluate that way, every matrix symbol is square instead.
    """
    key = (matrix_mode, domains)
    if key not in prepared.values:
        env = _declared_env(matrix_mode, True, domains)
        try:
            value = evaluate(prepared.node, env)
        except EvalError:
            if not env.column_vectors:
                raise
            env = _declared_env(matrix_mode, False, domains)
            value = evaluate(prepared.node, env)
        if not matrix_mode:
            env, value = inside_the_domain(prepared.node, env, value, domains)
        value = value.view()  # shared by every answer to the question: read-only
        value.flags.writeable = False
        prepared.values[key] = (env, value)
    return prepared.values[key]


def _declared_env(matrix_mode: bool, vectors: bool, domains: Domains) -> Env:
    return shared_restricted(sampling_env(matrix_mode, vectors=vectors), domains,
                             ("sampling", matrix_mode, vectors))


def inside_the_domain(node: Node, env: Env, value: np.ndarray,
                      domains: Domains = NO_DOMAINS) -> tuple[Env, np.ndarray]:
    """The samples, moved inside a narrow real domain when few of them are in it (decide.py:
    `domain_env`; a scan of SCAN_SAMPLES points when none is)."""
    if valid_count(value) == 0 and facts(node).symbols:
        scan = domains.restrict(scan_env(facts(node).symbols))
        try:
            scanned = evaluate(node, scan)
        except (EvalError, CannotDecide):
            return env, value
        seek = domain_env(scan, scanned, env.k)
    else:
        seek = domain_env(env, value, env.k)
    if seek is None:
        return env, value
    seek_value = evaluate(node, seek)
    return (seek, seek_value) if valid_count(seek_value) > valid_count(value) else (env, value)


def sampling_verdict(answer: Node, expected: Prepared | Node,
                     indexing: Indexing | None = None) -> SampleVerdict:
    """Raises EvalError for an answer that cannot be evaluated; CannotDecide becomes undecided.
    Sums, products, family members and integer names are sampled at integer points
    (values/indexed.py)."""
    exp = expected if isinstance(expected, Prepared) else Prepared(expected, {})
    if _own_points(answer, exp.node, indexing):
        return _indexed_sampling_verdict(answer, exp.node, indexing)
    matrix_mode = uses_matrices(answer, exp.node)
    try:
        env, expected_value = sampled(exp, matrix_mode,
                                      indexing.domains if indexing is not None else NO_DOMAINS)
    except CannotDecide:
        return SampleVerdict("undecided")
    except EvalError as err:
        raise ExpectedBroken(err) from err
    try:
        answer_value = evaluate(answer, env)
    except CannotDecide:
        return SampleVerdict("undecided")
    verdict = compare_values(answer_value, expected_value, flatten_vectors=not matrix_mode,
                             env=env)
    if not matrix_mode and verdict.points is not None and verdict.points.too_little_shared():
        domains = indexing.domains if indexing is not None else NO_DOMAINS
        return _on_the_shared_domain(answer, exp.node, verdict, answer_value, expected_value,
                                     domains)
    return verdict


def _on_the_shared_domain(answer: Node, expected: Node, verdict: SampleVerdict,
                          answer_value: np.ndarray, expected_value: np.ndarray,
                          domains: Domains) -> SampleVerdict:
    """The two are real on different sets and the samples found too few points of the part
    they share: look there (`1 + 0 log(x - 1000)` for 1 is real together with it for x > 1000;
    a scan of SCAN_SAMPLES points when the samples found none). The verdict found there stands
    when both are real at enough points that are more than a few isolated ones (decide.py:
    `spread_out`); otherwise the two share too little to compare, a difference in real domain."""
    env = verdict.env
    names = facts(answer).symbols | facts(expected).symbols
    try:
        if np.count_nonzero(verdict.points.valid):
            seek = common_domain_env(env, answer_value, expected_value, env.k)
        else:
            scan = domains.restrict(scan_env(names))
            seek = common_domain_env(scan, evaluate(answer, scan), evaluate(expected, scan),
                                     env.k)
        if seek is None:
            return verdict
        found = compare_values(evaluate(answer, seek), evaluate(expected, seek), env=seek)
    except (EvalError, CannotDecide):
        return verdict
    if found.status == "equal" and not spread_out(seek, found.points.valid, names):
        return verdict
    return replace(found, first=verdict)


def _indexed_sampling_verdict(answer: Node, expected: Node,
                              indexing: Indexing | None) -> SampleVerdict:
    try:
        return indexed_verdict(answer, expected, indexing)
    except CannotDecide:
        return SampleVerdict("undecided")
    except EvalError as err:
        try:  # the expected formula's own fault, or the answer's?
            indexed_verdict(expected, expected, indexing)
        except EvalError:
            raise ExpectedBroken(err) from err
        except CannotDecide:
            return SampleVerdict("undecided")
        raise


class ExpectedBroken(Exception):
    def __init__(self, err: GraderError) -> None:
        super().__init__(err.key)
        self.err = err


def full_verdict(answer: Node, expected: Prepared | Node,
                 symbolic: SymbolicCheck | None,
                 indexing: Indexing | None = None, *, example: bool = True) -> SampleVerdict:
    """Without `example` (a caller that reads only the status) the status is the same, and
    no counterexample is looked for beyond what deciding it needs (values/confirm.py)."""
    exp_node = expected.node if isinstance(expected, Prepared) else expected
    domains = indexing.domains if indexing is not None else NO_DOMAINS
    # two rational expressions: decided exactly
    exact = exactly(answer, exp_node, domains, example=example)
    if exact is not None and exact.status == "equal":
        return exact
    sampled_verdict = sampling_verdict(answer, expected, indexing)
    if sampled_verdict.status != "undecided" and (
            sampled_verdict.path == "exact" or _own_points(answer, exp_node, indexing)):
        # Integer points (indexed.py) decided it, exactly where the terms allowed; the
        # multi-precision walk and the nice points of confirm.py know no sums or members
        # (nor sized vectors).
        return sampled_verdict
    if indexing is not None and indexing.vectors:
        return sampled_verdict  # the symbolic check knows no vectors: undecided stays so
    verdict = confirmed(answer, exp_node, sampled_verdict, exact, example=example)
    if verdict.status == "undecided" and symbolic is not None \
            and not _has_members(answer, exp_node):
        outcome = symbolic(answer, exp_node, domains)
        if outcome is True:
            return SampleVerdict("equal")
        if outcome is False:
            return SampleVerdict("different")
    return verdict


def _own_points(answer: Node, expected: Node, indexing: Indexing | None) -> bool:
    """Sampled by values/indexed.py: sums, products, members, integer names, and declared
    vectors (whose sizes come from the lines: values/shapes.py)."""
    return needs_integer_points(answer, expected, indexing) or (
        indexing is not None and bool(indexing.vectors))


def _has_members(*nodes: Node) -> bool:
    """Family members: the symbolic check declines them (symbolic/build.py knows no relation),
    so such an undecided line is not sent to the contained worker just to hear that."""
    return any(type(n) is Member for node in nodes for n in walk(node))


def grade_expression(answer: str, expected: str, decls: Declarations, *, lang: str = "en",
                     malrules: list[dict] | tuple = (),
                     symbolic: SymbolicCheck | None = None) -> Result:
    if decls.random:  # moments are decided over distributions (kinds/moment_steps.py)
        moments = grade_moment_expression(answer, expected, decls, lang)
        if moments is not None:
            return moments
    try:
        exp = prepare(expected, decls)
    except GraderError as err:
        return misconfigured("part_expected", err, lang)
    question_names = symbol_names(exp.node) | malrule_symbols(malrules, decls)
    try:
        # The question's variables are names too (Wx is W·x when the expected answer uses W, x).
        node, _, notes = parse_with_notes(answer, decls.with_symbols(question_names))
    except ParseError as err:
        return unreadable(answer, err, lang)
    if type(node) is Matrix and not _is_pair(exp.node):
        slip = _one_value_slip(answer, notes, exp.node)
        if slip is not None:
            return unreadable(answer, slip, lang)
    interpreted = to_latex(node)
    try:
        indexing = indexing_of(decls)
    except ParseError as err:
        return misconfigured("part_relations", err, lang)
    try:
        verdict = full_verdict(node, exp, symbolic, indexing)
    except EvalError as err:
        if indexing.vectors and err.key in SHAPE_MISTAKES:  # W(Wx - y) for W^T(Wx - y)
            text = joined([message("wrong_formula", lang), as_sentence(reason(err, lang), lang)],
                          lang)
            return result(feedback=text, interpreted=interpreted)
        return cannot_grade(err, lang, interpreted)
    except ExpectedBroken as broken:
        return misconfigured("part_expected", broken.err, lang)
    # 1/0, log(0), 1/(x - x) have no value to compare: unreadable, not a wrong answer.
    undefined = undefined_everywhere(node, verdict.env) if verdict.status != "equal" else None
    if undefined is not None:
        return cannot_grade(undefined, lang, interpreted)
    if verdict.status == "equal":
        # equal where both are real: where the two real domains differ, the note says so
        note = domain_note(domain_difference_point(node, exp.node, verdict, lang,
                                                   indexing.integers), lang)
        return result(correct=True, score=1.0,
                      feedback=joined([message("correct", lang), note], lang),
                      interpreted=interpreted)
    # An undeclared name is a variable like any other (0*z is right for 0); when the answer is
    # not right, say that it uses a name the question does not (t for x, X for x).
    names_note = other_names_note(node, question_names | decls.symbols | decls.integers, decls,
                                  lang)
    # A mal-rule names the mistake, which says more than a shape (g^T (I+W) is the row form).
    matched = match_malrule(node, malrules, decls, symbolic)
    if matched is not None:
        return result(feedback=message("malrule_match", lang, feedback=matched),
                      interpreted=interpreted, malrule=matched)
    if verdict.status == "shape":
        size = MATRIX_SIZE if uses_matrices(node, exp.node) else None
        text = message("shape_mismatch", lang,
                       answer=shape_text(verdict.answer_shape, lang, size),
                       expected=shape_text(verdict.expected_shape, lang, size))
        return result(feedback=joined([text, names_note], lang), interpreted=interpreted)
    if verdict.status == "different":
        text, example = wrong_with_counterexample(node, exp.node, verdict, lang)
        # A wrong 1/2x was often meant as 1/(2x): say how it was read.
        return result(feedback=joined([text, names_note, *(message(key, lang) for key in notes)],
                                      lang),
                      interpreted=interpreted, counterexample=example)
    text = message("cannot_decide", lang)
    return result(feedback=joined([text, names_note], lang), error=text, interpreted=interpreted)


def _is_pair(node: Node) -> bool:
    return type(node) is Matrix and len(node.rows) == 1 and len(node.rows[0]) == 2


def _one_value_slip(answer: str, notes: tuple[str, ...], expected: Node) -> ParseError | None:
    """An answer read as several values where the question wants one (reading/typos.py):
    `1 ± √2` (a pair) unless the question wants a pair; `x+1,5` (a decimal comma, or two
    entries?) unless it wants a vector. Asked, never graded."""
    if "note_plus_minus" in notes:
        return plus_minus_for_one_value(normalize(answer).text)
    if "," in answer and type(expected) is not Matrix:
        return decimal_comma_in_formula(normalize(answer).text)
    return None


def as_sentence(text: str, lang: str) -> str:
    """A reason (written to follow a colon) as a sentence of its own."""
    end = "" if text[-1:] in ".?!。？！" else ("。" if lang == "zh" else ".")
    return text[:1].upper() + text[1:] + end


def joined(sentences: list[str | None], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(s for s in sentences if s)


def other_names_note(answer: Node, question_names: set[str], decls: Declarations,
                     lang: str) -> str | None:
    """"Your answer uses t; this question is about x." (None when it uses only the question's
    names.) A case slip (X for x) is said to be one."""
    others = sorted(symbol_names(answer) - question_names)
    if not others:
        return None
    about = sorted(question_names | decls.matrices | decls.functions)
    names = ", ".join(others)
    if not about:
        return message("names_unused", lang, names=names)
    slip = any(n.swapcase() in question_names | decls.matrices for n in others)
    return message("names_case_slip" if slip else "names_other", lang, names=names,
                   about=", ".join(about))


def malrule_symbols(malrules, decls: Declarations) -> set[str]:
    names: set[str] = set()
    for rule in malrules or ():
        try:
            names |= symbol_names(prepare(str(rule["answer"]), decls).node)
        except (GraderError, KeyError, TypeError):
            continue
    return names


def match_malrule(node: Node, malrules, decls: Declarations,
                  symbolic: SymbolicCheck | None) -> str | None:
    for rule in malrules or ():
        try:
            rule_node = prepare(str(rule["answer"]), decls)
            # rational: decided exactly, and cheaply (only the status is read)
            exact = exactly(node, rule_node.node, example=False)
            verdict = exact if exact is not None else sampling_verdict(node, rule_node)
            if verdict.status == "equal":
                return str(rule.get("feedback") or "")
        except (GraderError, ExpectedBroken, KeyError, TypeError):
            continue  # a broken mal-rule must not stop the learner's answer from being graded
    return None


def wrong_with_counterexample(answer: Node, expected: Node, verdict: SampleVerdict,
                              lang: str) -> tuple[str, Counterexample | None]:
    example = counterexample_of(answer, expected, verdict, lang)
    text = message("wrong_formula", lang)
    if example is not None:
        text += ("" if lang == "zh" else " ") + counterexample_text(example, lang, "counterexample")
    return text, example


def counterexample_of(answer: Node, expected: Node, verdict: SampleVerdict,
                      lang: str) -> Counterexample | None:
    if verdict.example is not None:  # certified where the verdict was taken
        return verdict.example
    env = verdict.env or sampling_env(uses_matrices(answer, expected))
    try:
        # Sized vectors (values/shapes.py) are shown as sampled: the search for small whole
        # numbers knows square matrices only.
        return find_counterexample(answer, expected, env, verdict.sample, lang,
                                   nice=verdict.nice,
                                   search=not verdict.certified and not env.sizes,
                                   shown=verdict.shown)
    except (GraderError, FloatingPointError, ValueError):
        return None

