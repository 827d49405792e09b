"""The derivation checker's flow, without Streamlit: declared names from comma-separated text,
the target read on its own, one `grader.check` derivation request (each line is compared with the
last line before it that followed), its per-line steps as a report the page can show, and the
checker's fields as a share link's query parameters.

Line statuses follow the grader: verified, does not follow (with a counterexample in the
feedback), cannot decide, unreadable (with the position). Without a given start, the first line
is the starting point: read, with nothing to follow from. A field the checker cannot use (a bad
name, a name declared twice, an unreadable target) is reported on its own and left out; the lines
are still checked with everything else.

The declarations are the one schema of docs/contracts.md (symbols, functions, matrices, integers,
families, positive, nonnegative, relations; random variables: random, independent, zero_mean). What the learner pastes is split by the grader
(`grader.split_derivation`: an `aligned` block, a chain `a = b = c`, remarks such as "where" or
"其中" between lines); remarks come back as rows of their own, shown and never checked.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from grader import StepStatus  # the result types only: the pipeline loads on the first check

if TYPE_CHECKING:  # the grader's pipeline is imported by the caller that checks
    from grader import Result

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")  # the bank's Identifier rule
MAX_LINES = 40


@dataclass(frozen=True)
class Declarations:
    symbols: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    matrices: tuple[str, ...] = ()
    integers: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    positive: tuple[str, ...] = ()
    nonnegative: tuple[str, ...] = ()
    relations: tuple[str, ...] = ()  # equations, separated by ";" or new lines in their box
    vectors: tuple[str, ...] = ()  # part 2 (issue 25): column vectors, vector functions
    # -- random variables (issue 25) --
    random: tuple[str, ...] = ()
    independent: tuple[tuple[str, ...], ...] = ()  # groups: "w, x; a, b" in their box
    zero_mean: tuple[str, ...] = ()

    def request_fields(self) -> dict:
        """The three fields every request has, and the others when given (as the bank does)."""
        fields_ = {"symbols": list(self.symbols), "functions": list(self.functions),
                   "matrices": list(self.matrices)}
        fields_.update({name: list(getattr(self, name)) for name in MORE_FIELDS + VECTOR_FIELDS
                        if getattr(self, name)})
        fields_.update(random_request_fields(self))
        return fields_


def random_request_fields(decls: Declarations) -> dict:
    """`random`, `independent` (a list of lists) and `zero_mean`, when given."""
    fields_: dict = {}
    if decls.random:
        fields_["random"] = list(decls.random)
    if decls.independent:
        fields_["independent"] = [list(group) for group in decls.independent]
    if decls.zero_mean:
        fields_["zero_mean"] = list(decls.zero_mean)
    return fields_


# The schema's fields after the first three; `relations` holds equations, the others names.
MORE_FIELDS = ("integers", "families", "positive", "nonnegative", "relations")
NAME_FIELDS = ("symbols", "functions", "matrices", "integers", "families", "positive",
               "nonnegative")
# Part 2 of the schema (issue 25): vectors, in a box of their own.
VECTOR_FIELDS = ("vectors",)


def parse_names(text: str) -> tuple[tuple[str, ...], list[str]]:
    """`"x, y , W"` -> (("x", "y", "W"), []); names that are not identifiers come back as problems."""
    names, bad = [], []
    for part in re.split(r"[,，;；\s]+", text or ""):
        if not part:
            continue
        (names if NAME.match(part) else bad).append(part)
    return tuple(dict.fromkeys(names)), bad


@dataclass(frozen=True)
class NameProblem:
    """A declared name the checker leaves out: not a name, or already declared in `first_field`."""

    field: str  # symbols | functions | matrices | … | independent | zero_mean
    name: str
    first_field: str | None = None  # set when the name is declared twice
    not_random: bool = False  # in independent or zero_mean, but not declared random


def declarations_from_text(symbols: str, functions: str, matrices: str, *, integers: str = "",
                           families: str = "", positive: str = "", nonnegative: str = "",
                           relations: str = "", vectors: str = "", random: str = "",
                           independent: str = "", zero_mean: str = "",
                           ) -> tuple[Declarations, list[NameProblem]]:
    """Declarations and every problem at once. A bad name is dropped; a name declared as two
    kinds of thing (symbols, functions, matrices, integers) keeps its first declaration, so the
    lines can still be checked. Families, domains and relations may name what is declared above
    (a family takes its kind from the list that also names it); relations are separated by `;`
    or new lines."""
    parsed: dict[str, list[str]] = {}
    problems: list[NameProblem] = []
    first_field: dict[str, str] = {}
    texts = {"symbols": symbols, "functions": functions, "matrices": matrices,
             "integers": integers, "families": families, "positive": positive,
             "nonnegative": nonnegative}
    for field in NAME_FIELDS:
        names, bad = parse_names(texts[field])
        problems += [NameProblem(field, b) for b in bad]
        if field not in ("symbols", "functions", "matrices", "integers"):
            parsed[field] = list(names)
            continue
        parsed[field] = []
        for name in names:
            if name in first_field:
                problems.append(NameProblem(field, name, first_field[name]))
            else:
                first_field[name] = field
                parsed[field].append(name)
    parsed["vectors"] = _vector_names(vectors, first_field, problems)
    equations = tuple(r.strip() for r in split_relations(relations or "") if r.strip())
    declared = Declarations(**{f: tuple(n) for f, n in parsed.items()}, relations=equations)
    return random_declarations(declared, problems, random, independent, zero_mean), problems


def random_declarations(declared: Declarations, problems: list[NameProblem], random: str,
                        independent: str, zero_mean: str) -> Declarations:
    """The random variables' boxes: names, groups separated by `;` ("w, x; a, b", each group of
    at least two names) and names. A name in a group or in zero_mean that is not a random
    variable is a problem and is left out, as a bad name is."""
    names, bad = parse_names(random)
    problems += [NameProblem("random", b) for b in bad]
    groups = []
    for text in re.split(r"[;；\n]+", independent or ""):
        group, bad = parse_names(text)
        problems += [NameProblem("independent", b) for b in bad]
        problems += [NameProblem("independent", n, not_random=True) for n in group
                     if n not in names]
        group = tuple(n for n in group if n in names)
        if len(group) >= 2:
            groups.append(group)
    zeros, bad = parse_names(zero_mean)
    problems += [NameProblem("zero_mean", b) for b in bad]
    problems += [NameProblem("zero_mean", n, not_random=True) for n in zeros if n not in names]
    return replace(declared, random=names, independent=tuple(groups),
                   zero_mean=tuple(n for n in zeros if n in names))


def _vector_names(text: str, first_field: dict[str, str], problems: list[NameProblem],
                  ) -> list[str]:
    """The vectors box: a name may also be a function (a vector function F) or a family, but
    not a symbol, matrix or integer (the first declaration counts, as for the other boxes)."""
    names, bad = parse_names(text)
    problems += [NameProblem("vectors", b) for b in bad]
    kept = []
    for name in names:
        if first_field.get(name, "functions") != "functions":
            problems.append(NameProblem("vectors", name, first_field[name]))
        else:
            kept.append(name)
    return kept


def split_relations(text: str) -> list[str]:
    """`a = b; c = d` (or one per line) -> ["a = b", "c = d"]; a `;` inside brackets (a column
    `[a; b]`) does not split."""
    parts, depth, current = [], 0, []
    for ch in text:
        depth += (ch in "([{") - (ch in ")]}")
        if ch == "\n" or (ch == ";" and depth <= 0):
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts


@dataclass(frozen=True)
class LineResult:
    """One row of the report. `status` is the grader's (`does_not_follow` with a counterexample
    in `feedback`, `unreadable` with the position); None for a remark between the lines ("where",
    "其中"), shown and not checked. `start`: the first readable line, read with nothing before
    it to follow from (the grader says `verified`)."""

    number: int  # 1-based
    text: str
    status: StepStatus | None
    interpreted: str | None  # LaTeX from the parsed tree
    feedback: str  # the grader's explanation (counterexample, position), already localized
    start: bool = False

    @property
    def remark(self) -> bool:
        return self.status is None


@dataclass(frozen=True)
class TargetProblem:
    """The target cannot be read: the grader's reason (in the learner's language) and a caret."""

    reason: str
    caret: str | None


@dataclass(frozen=True)
class DerivationReport:
    lines: tuple[LineResult, ...]
    target_reached: bool | None  # None when no (readable) target was given
    error: str | None = None  # the request itself could not be checked
    target_problem: TargetProblem | None = None  # the target was refused; lines checked without it

    @property
    def first_broken(self) -> LineResult | None:
        return next((r for r in self.lines if r.status is StepStatus.DOES_NOT_FOLLOW), None)

    @property
    def checked(self) -> tuple[LineResult, ...]:
        """The lines that were checked (not the remarks between them)."""
        return tuple(r for r in self.lines if not r.remark)

    @property
    def all_verified(self) -> bool:
        """Every line verified (or the start). Never true of a report that checked no line."""
        return bool(self.checked) and all(
            r.status is StepStatus.VERIFIED for r in self.checked)


def report_from_result(result: Result, lines: Sequence[str], *, has_start: bool,
                       has_target: bool) -> DerivationReport:
    """The grader's derivation result (`steps`, `reaches_target`) as a per-line report."""
    rows = []
    readable_before = has_start
    for step in result.steps:
        number = step.line
        # the first readable line: nothing before it to follow from
        start = step.status is StepStatus.VERIFIED and not readable_before
        readable_before = readable_before or step.status is not StepStatus.UNREADABLE
        text = lines[number - 1] if 0 < number <= len(lines) else ""
        rows.append(LineResult(number, text, step.status, step.interpreted, step.feedback,
                               start=start))
    reached = bool(result.reaches_target) if has_target and rows else None
    error = result.error if not rows else None
    return DerivationReport(tuple(rows), reached, error)


def check_derivation(
    lines: Sequence[str], decl: Declarations, *, lang: str, check: Callable[[dict], Result],
    preview: Callable[..., dict], target: str | None = None, start: str | None = None,
    split: Callable[..., Sequence[Any]] | None = None,
) -> DerivationReport:
    """Check `lines` (blank ones dropped, the first MAX_LINES kept) from `start` (or from the
    first line) to `target`. An unreadable target (read with `preview`, i.e. `grader.preview`) is
    reported in `target_problem` and the lines are checked without it. With `split`
    (`grader.split_derivation`) the lines are first read as one pasted block: its remarks come
    back as remark rows (status None), in place, and are not checked."""
    if split is not None:
        pieces = list(split("\n".join(lines), **decl.request_fields()))
        report = check_derivation([p.text for p in pieces if not p.remark], decl, lang=lang,
                                  check=check, preview=preview, target=target, start=start)
        return replace(report, lines=with_remarks(report.lines, pieces))
    lines = [line.strip() for line in lines if line.strip()][:MAX_LINES]
    target = target.strip() if target and target.strip() else None
    problem = None
    if target is not None:
        read = preview(target, lang=lang, **decl.request_fields())
        if read.get("error"):
            problem, target = TargetProblem(read["error"], read.get("caret")), None
    result = check({"id": "derivation", "kind": "derivation", "expected": target, "start": start,
                    "answer": lines, "lang": lang, **decl.request_fields()})
    report = report_from_result(result, lines, has_start=start is not None,
                                has_target=target is not None)
    return replace(report, target_problem=problem)


def with_remarks(rows: Sequence[LineResult], pieces: Sequence[Any]) -> tuple[LineResult, ...]:
    """The checked rows with the block's remarks put back where they were written (a remark's
    number is that of the line before it, 0 before the first)."""
    out: list[LineResult] = []
    checked = iter(rows)
    count = 0
    for piece in pieces:
        if piece.remark:
            out.append(LineResult(count, piece.text, None, None, ""))
            continue
        row = next(checked, None)
        if row is not None:
            out.append(row)
            count = row.number
    return tuple(out)


# ---- the checker's fields in a share link ---------------------------------------------------

MAX_LINK_CHARS = 2000  # of the derivation's part of the query string: a link any tool keeps whole


@dataclass(frozen=True)
class DerivationFields:
    """What the learner typed into the checker; each field is also a query parameter."""

    symbols: str = ""
    functions: str = ""
    matrices: str = ""
    target: str = ""
    lines: str = ""
    preset: str = ""
    # The rest of the declaration schema (links made before it carry none of these: the same
    # derivation opens, with nothing more declared).
    integers: str = ""
    families: str = ""
    positive: str = ""
    nonnegative: str = ""
    relations: str = ""
    vectors: str = ""
    # random variables (issue 25): names, groups "w, x; a, b", names
    random: str = ""
    independent: str = ""
    zero_mean: str = ""

    def declarations(self) -> tuple[Declarations, list[NameProblem]]:
        return declarations_from_text(
            self.symbols, self.functions, self.matrices, integers=self.integers,
            families=self.families, positive=self.positive, nonnegative=self.nonnegative,
            relations=self.relations, vectors=self.vectors, random=self.random,
            independent=self.independent, zero_mean=self.zero_mean)

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> DerivationFields | None:
        """The fields a link carries, or None when it carries none of the checker's parameters."""
        found = {f.name: str(params[f.name]) for f in fields(cls) if f.name in params}
        return cls(**found) if found else None

    def params(self) -> dict[str, str]:
        """The non-empty fields, for the URL (an empty field leaves no parameter)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}

    def link_length(self) -> int:
        return len(urlencode(self.params()))

    def fits_in_link(self) -> bool:
        return self.link_length() <= MAX_LINK_CHARS

    @property
    def is_empty(self) -> bool:
        return not any(v.strip() for k, v in self.params().items() if k != "preset")


PARAMS = tuple(f.name for f in fields(DerivationFields))


# ---- a derivation too long for a link: saved, and shared by an id ------------------------------
SHARE_PARAM = "share"
SHARE_KEY_PREFIX = "derivation-share:"  # + token: scratch work of the profile that saved it
_SHARE = re.compile(r"(\d{1,12})-([A-Za-z0-9_-]{12})")
FIELD_LIMITS = {"symbols": 300, "functions": 300, "matrices": 300, "target": 500, "lines": 4000,
                "preset": 200, "integers": 300, "families": 300, "positive": 300,
                "nonnegative": 300, "relations": 1000,
                "vectors": 300,
                "random": 300, "independent": 300, "zero_mean": 300}  # the boxes' own limits


def new_share_token() -> str:
    """12 URL-safe characters (72 random bits): a saved derivation cannot be guessed."""
    return secrets.token_urlsafe(9)


def share_value(profile_id: int, token: str) -> str:
    return f"{profile_id}-{token}"


def parse_share(value: Any) -> tuple[int, str] | None:
    """(profile id, token) from a `?share=` value (untrusted), or None."""
    match = _SHARE.fullmatch(str(value or ""))
    return (int(match.group(1)), match.group(2)) if match else None


def fields_from_saved(data: Any) -> DerivationFields | None:
    """A saved derivation read back (the store's JSON is checked like any input): None unless
    it is a mapping of the checker's fields to text within the boxes' limits."""
    if not isinstance(data, Mapping) or not set(data) <= set(FIELD_LIMITS):
        return None
    if not all(isinstance(v, str) and len(v) <= FIELD_LIMITS[k] for k, v in data.items()):
        return None
    return DerivationFields(**data)
