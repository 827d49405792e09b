"""One request of the JSON-Lines contract in, one result out.

Validates the request (a malformed request is an error result, never an exception), then
dispatches on `kind` to the expression, numeric or derivation grader. Runs in the caller's
process without sympy (`symbolic=False`: a case that needs it raises NeedsWorker) and in the
contained worker with it.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from functools import lru_cache

from ..errors import GraderError
from ..messages import language, message
from ..reading.blocks import MAX_BLOCK, chain_lines, lines_to_check
from ..reading.names import Declarations
from ..reading.normalize import normalize
from ..reading.parser import NO_DECLARATIONS, parse
from ..result import Result
from ..symbolic.equality import symbolic_equal
from ..values.evaluate import Env, evaluate
from .derivation import Approximation, grade_derivation
from .expression import grade_expression
from .feedback import misconfigured, result
from .numeric import Tolerance, grade_numeric

KINDS = ("expression", "numeric", "derivation")
DECLARED_NAME = re.compile(r"^[A-Za-z]+(_[A-Za-z0-9+\-,]{1,20})?$")
MAX_DECLARED = 50


class BadRequest(ValueError):
    pass


class NeedsWorker(Exception):  # noqa: N818 - a signal, not an error
    """Sampling could not decide and the symbolic check must run in the contained worker."""


def _defer_to_worker(answer, expected, domains):
    raise NeedsWorker


def canonical_name(name: object) -> str:
    """`x_{l+1}` and `σ` are declared the way the lexer reads them: `x_l+1`, `sigma`."""
    if not isinstance(name, str):
        raise BadRequest(f"declared names must be strings, got {type(name).__name__}")
    text = normalize(name).text.replace("{", "").replace("}", "").replace(" ", "")
    if text.startswith("\\"):
        text = text[1:]
    if not DECLARED_NAME.match(text):
        raise BadRequest(f"not a valid declared name: {name[:40]!r}")
    return text


DECLARED_FIELDS = ("symbols", "functions", "matrices")
# The declaration schema's other fields (docs/contracts.md): integer names, indexed families,
# domains of names declared above, and recursions written as equations.
INDEX_FIELDS = ("integers", "families", "positive", "nonnegative")
RELATIONS_FIELD = "relations"
# Part 2 of the schema (issue 25). Column vectors; with `functions`, vector functions; with
# `families`, families of vectors.
VECTORS_FIELD = "vectors"
MAX_RELATIONS = 10
MAX_RELATION_LENGTH = 200
# Random variables (issue 25): `random` and `zero_mean` are lists of names, `independent` a list
# of groups (lists of names) of mutually independent random variables.
RANDOM_FIELDS = ("random", "independent", "zero_mean")
MAX_GROUPS = 10


# Every field of the declaration schema; a request that has none (a numeric question) is
# answered without looking at each field in turn.
SCHEMA_FIELDS = frozenset(DECLARED_FIELDS + INDEX_FIELDS + (RELATIONS_FIELD, VECTORS_FIELD)
                          + RANDOM_FIELDS)


def declarations(request: dict) -> Declarations:
    present = SCHEMA_FIELDS.intersection(request)
    if not present or not any(request[field] for field in present):
        return NO_DECLARATIONS  # numeric questions declare nothing: share one empty set
    lists = [_names_field(request, field) for field in DECLARED_FIELDS]
    if not any(request.get(field) for field in INDEX_FIELDS + (RELATIONS_FIELD, VECTORS_FIELD)
               + RANDOM_FIELDS):
        return _declarations_of(*lists)
    more = [_names_field(request, field) for field in INDEX_FIELDS]
    decls = _indexed_declarations_of(*lists, *more, _relations_field(request))
    if request.get(VECTORS_FIELD):
        vectors = _names_field(request, VECTORS_FIELD)
        named_by_jacobian = _jacobian_names(request) & (decls.functions - set(vectors))
        decls = _with_vectors(decls, vectors + tuple(sorted(named_by_jacobian)))
    if not any(request.get(field) for field in RANDOM_FIELDS):
        return decls
    return _random_declarations_of(decls, _names_field(request, "random"),
                                   _groups_field(request), _names_field(request, "zero_mean"))


# `J_F`, `J_{F}`, `J_{\operatorname{LN}}`: the Jacobian of the function F
_JACOBIAN_OF = re.compile(r"J_\{?\s*(?:\\(?:operatorname|mathrm)\s*\{)?\s*([A-Za-z][A-Za-z0-9]*)")


def _jacobian_names(request: dict) -> set[str]:
    """Functions whose Jacobian `J_F` the request writes: with vectors declared, such a function
    is a vector function even when it is declared under functions only (a scalar function of a
    vector, the loss L, has a gradient, not a J)."""
    texts = [request.get(field) for field in ("answer", "start", "expected", "target")]
    flat = [t for text in texts for t in (text if isinstance(text, list) else [text])
            if isinstance(t, str)]
    return {m.group(1) for text in flat for m in _JACOBIAN_OF.finditer(text)}


@lru_cache(maxsize=1024)
def _with_vectors(decls: Declarations, vectors: tuple[str, ...]) -> Declarations:
    """The `vectors` field (issue 25): a vector is not also a scalar, matrix or integer."""
    clash = sorted(set(vectors) & (decls.symbols | decls.matrices | decls.integers))
    if clash:
        raise BadRequest(f"vectors cannot also be symbols, matrices or integers: "
                         f"{', '.join(clash)}")
    return replace(decls, vectors=frozenset(vectors))


def _groups_field(request: dict) -> tuple[tuple[str, ...], ...]:
    """`independent: [[w, x], [a, b, c]]`: groups of names, each at least two."""
    value = request.get("independent") or []
    if not isinstance(value, list | tuple) or len(value) > MAX_GROUPS or not all(
            isinstance(g, list | tuple) and 2 <= len(g) <= MAX_DECLARED for g in value):
        raise BadRequest("independent must be a list of groups of at least two names, "
                         "e.g. [[w, x]]")
    return tuple(_names_field({"independent": list(g)}, "independent") for g in value)


@lru_cache(maxsize=1024)
def _random_declarations_of(decls: Declarations, random: tuple[str, ...],
                            groups: tuple[tuple[str, ...], ...],
                            zero_mean: tuple[str, ...]) -> Declarations:
    """The declarations with their random variables; names in `independent` and `zero_mean`
    must be random variables, which cannot also be functions or matrices."""
    declared = set(random)
    for field, names in (("independent", {n for g in groups for n in g}),
                         ("zero_mean", set(zero_mean))):
        unknown = sorted(names - declared)
        if unknown:
            raise BadRequest(f"{field} names must be declared in random: {', '.join(unknown)}")
    clash = sorted(declared & (decls.functions | decls.matrices))
    if clash:
        raise BadRequest(f"random variables cannot also be functions or matrices: "
                         f"{', '.join(clash)}")
    return replace(decls, random=frozenset(random),
                   independent=tuple(frozenset(g) for g in groups),
                   zero_mean=frozenset(zero_mean))


def _names_field(request: dict, field: str) -> tuple[str, ...]:
    value = request.get(field) or []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or len(value) > MAX_DECLARED:
        raise BadRequest(f"{field} must be a list of names")
    if all(isinstance(v, str) for v in value):
        return _canonical_names(tuple(value))
    return tuple(canonical_name(v) for v in value)  # raises at the first name not a string


def _relations_field(request: dict) -> tuple[str, ...]:
    """Relations stay text (read by kinds/indexing.py, with the other declarations)."""
    value = request.get(RELATIONS_FIELD) or []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or len(value) > MAX_RELATIONS or not all(
            isinstance(v, str) and 0 < len(v) <= MAX_RELATION_LENGTH for v in value):
        raise BadRequest(f"relations must be a list of at most {MAX_RELATIONS} equations "
                         f"(each at most {MAX_RELATION_LENGTH} characters)")
    if not all(v.count("=") == 1 for v in value):
        raise BadRequest("each relation must be one equation, e.g. x_{l+1} = x_l + F_l(x_l)")
    return tuple(value)


# Every answer to a question declares the same names: they are read once (bounded caches of
# pure functions; a BadRequest is not cached, so it is raised again on every call).
@lru_cache(maxsize=1024)
def _canonical_names(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(canonical_name(v) for v in names)


@lru_cache(maxsize=1024)
def _declarations_of(symbols: tuple[str, ...], functions: tuple[str, ...],
                     matrices: tuple[str, ...]) -> Declarations:
    return Declarations.of(symbols, functions, matrices)


@lru_cache(maxsize=1024)
def _indexed_declarations_of(symbols, functions, matrices, integers, families, positive,
                             nonnegative, relations) -> Declarations:
    declared = set(symbols) | set(functions) | set(matrices) | set(integers) | set(families)
    for field, names in (("positive", positive), ("nonnegative", nonnegative)):
        unknown = sorted(set(names) - declared)
        if unknown:
            raise BadRequest(f"{field} names must be declared in another list: "
                             f"{', '.join(unknown)}")
    clash = sorted(set(integers) & (set(functions) | set(matrices)))
    if clash:
        raise BadRequest(f"integers cannot also be functions or matrices: {', '.join(clash)}")
    return Declarations.of(symbols, functions, matrices, integers=integers, families=families,
                           positive=positive, nonnegative=nonnegative, relations=relations)


def tolerance(request: dict) -> Tolerance:
    fields = (request.get("rtol"), request.get("atol"), request.get("sigfigs"))
    for value in fields:
        # Not cached: what is not a number (unhashable, or a bool), and zeros (0.0 and -0.0 are
        # one key, but -0.0 is described as "-0").
        if value is not None and (type(value) not in (int, float) or value == 0):
            return _tolerance(*fields)
    return _tolerance_of(*fields)


def _tolerance(*fields: object) -> Tolerance:
    values = {}
    for field, value in zip(("rtol", "atol", "sigfigs"), fields, strict=True):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                or value < 0:
            raise BadRequest(f"{field} must be a non-negative number")
        values[field] = value
    if "sigfigs" in values and not (1 <= values["sigfigs"] <= 15 and
                                    float(values["sigfigs"]).is_integer()):
        raise BadRequest("sigfigs must be a whole number from 1 to 15")
    return Tolerance.of(**values)


# Every answer to a question has the same tolerance (typed: 1 and 1.0 stay apart; a BadRequest
# is not cached).
_tolerance_of = lru_cache(maxsize=1024, typed=True)(_tolerance)


def approximation(request: dict) -> Approximation | None:
    """A derivation's tolerance for its `≈` lines: `rtol` and/or `atol` (None: the digits of each
    line decide, see kinds/derivation.py)."""
    if request.get("sigfigs") is not None:
        raise BadRequest("a derivation's tolerance for ≈ lines is rtol and/or atol")
    tol = tolerance(request)
    if tol.rtol is None and tol.atol is None:
        return None
    return Approximation(rtol=tol.rtol or 0.0, atol=tol.atol or 0.0)


def grade_request(request: object, *, symbolic: bool = True) -> Result:
    """Grade one request. With `symbolic=False` (the in-process fast path: parsing and numpy
    sampling only, all bounded by the parser's limits) a case that needs sympy raises
    NeedsWorker instead, for the caller to send to the contained worker."""
    lang = language(request.get("lang") if isinstance(request, dict) else None)
    try:
        return _grade(request, lang, symbolic_equal if symbolic else _defer_to_worker)
    except NeedsWorker:
        raise
    except BadRequest as err:
        text = message("bad_request", lang, reason=str(err))
        return result(feedback=text, error=text)
    except RecursionError:
        text = message("cannot_grade", lang, reason=message("too_deep", lang, limit=""))
        return result(feedback=text, error=text)
    except Exception as err:  # noqa: BLE001 - one bad request must never take the grader down
        text = message("cannot_evaluate", lang)
        return result(feedback=text, error=f"{text} ({type(err).__name__})")


def _grade(request: object, lang: str, symbolic) -> Result:
    if not isinstance(request, dict):
        raise BadRequest("each line must be a JSON object")
    kind = request.get("kind")
    if kind not in KINDS:
        raise BadRequest(f"kind must be one of {', '.join(KINDS)}")
    decls = declarations(request)
    expected, answer = request.get("expected"), request.get("answer")
    if kind == "derivation":
        if isinstance(answer, str) and len(answer) > MAX_BLOCK:  # refused, never cut
            text = message("block_too_long", lang, count=len(answer), limit=MAX_BLOCK)
            return result(feedback=text, error=text)
        if isinstance(answer, str):  # a pasted block: its lines, without the remarks
            answer = lines_to_check(answer, decls)
        if not isinstance(answer, list) or not all(isinstance(a, str) for a in answer):
            raise BadRequest("answer must be a list of lines")
        # a listed line holding a chain `a = b = c` is its members, as on the page
        answer = [line for item in answer for line in chain_lines(item, decls)]
        if expected is not None and not isinstance(expected, str):
            raise BadRequest("expected must be the target formula or null")
        start = request.get("start")
        if start is not None and not isinstance(start, str):
            raise BadRequest("start must be a formula")
        return grade_derivation(answer, start=start, target=expected, decls=decls, lang=lang,
                                symbolic=symbolic, tolerance=approximation(request))
    if not isinstance(answer, str):
        raise BadRequest("answer must be a string")
    if kind == "expression":
        if not isinstance(expected, str):
            raise BadRequest("expected must be a formula string")
        malrules = request.get("malrules") or []
        if not isinstance(malrules, list):
            raise BadRequest("malrules must be a list")
        return grade_expression(answer, expected, decls, lang=lang, malrules=malrules,
                                symbolic=symbolic)
    tol = tolerance(request)
    if isinstance(expected, str):
        try:
            expected = expected_from_text(expected)
        except GraderError as err:
            return misconfigured("part_expected", err, lang)
    try:
        return grade_numeric(answer, expected, tol, lang)
    except (ValueError, TypeError) as err:
        raise BadRequest(f"expected: {err}") from err


def expected_from_text(text: str) -> object:
    """A numeric expected answer may be written as a formula ("0.5^20"): evaluate it."""
    node, _ = parse(text, NO_DECLARATIONS, space_vectors=True)
    value = evaluate(node, Env(k=1, n=1, seed=0))[0]
    real = value.real.tolist()
    if isinstance(real, float) and not math.isfinite(real):
        raise BadRequest("expected is not finite")
    return real
