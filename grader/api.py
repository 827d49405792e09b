"""The grader's Python entry points for the app: `check`, `preview`, `split_derivation`,
`warm_up`."""

from __future__ import annotations

import time

from .errors import ParseError
from .kinds.expression import other_names_note
from .kinds.feedback import caret_text, reason
from .kinds.request import BadRequest, NeedsWorker, declarations, grade_request
from .messages import language, message
from .reading.blocks import BlockLine, chain_lines
from .reading.blocks import split_derivation as split_block
from .reading.latex import to_latex
from .reading.parser import parse_with_notes
from .result import Result
from .worker import Worker, shared_worker


def check(request: dict) -> Result:
    """One request of the JSON-Lines contract: parsed and sampled in this process, with the
    bounded symbolic check (sympy) in the shared contained worker when sampling cannot decide."""
    start = time.perf_counter()
    graded = grade_fast_then_contained(request, shared_worker())
    request_id = request.get("id") if isinstance(request, dict) else None
    return graded.timed(request_id, (time.perf_counter() - start) * 1000)


def grade_fast_then_contained(request: object, worker: Worker) -> Result:
    """Parsing and numpy sampling here (no sympy; bounded by the parser's limits, so any input
    comes back in milliseconds): most answers never wait for the worker, not even while it is
    still starting. What needs the symbolic check goes to the contained worker."""
    try:
        return grade_request(request, symbolic=False)
    except NeedsWorker:
        return worker.grade(request)


def warm_up() -> None:
    """Start the shared worker and wait until it is warm (for a background thread at start-up),
    and load the multi-precision arithmetic that certifies counterexamples (mpmath, imported on
    first use). If the worker cannot start, the first answer that needs it says so; nothing is
    raised here."""
    from .values.precise import warm_up as warm_up_precise

    warm_up_precise()
    try:
        shared_worker().start()
    except (RuntimeError, OSError):
        pass


def preview(text: str, *, symbols=(), functions=(), matrices=(), lang: str = "en",
            **schema) -> dict:
    """What the grader reads in `text` (LaTeX built from the tree), for every keystroke.
    `schema`: the declaration schema's other lists (`integers`, `families`, `positive`,
    `nonnegative`, `relations`, `vectors`; docs/contracts.md), as in a request.

    Only parsing happens here (bounded by the parser's limits), in-process; nothing is evaluated.
    """
    lang = language(lang)
    if not isinstance(text, str):
        return {"interpreted": None, "error": message("empty", lang)}
    try:
        decls = declarations({"symbols": list(symbols), "functions": list(functions),
                              "matrices": list(matrices),
                              **{field: list(names) for field, names in schema.items()}})
    except BadRequest as err:
        return {"interpreted": None, "error": message("bad_request", lang, reason=str(err))}
    members = chain_lines(text, decls)
    if len(members) > 1:  # a chain `a = b = c`: each member as the checker reads it
        shown = [_preview_line(member, decls, lang) for member in members]
        broken = next((p for p in shown if p["error"]), None)
        if broken is not None:
            return broken
        interpreted = shown[0]["interpreted"] + "".join(
            (r" \approx " if member.startswith("≈") else " = ") + p["interpreted"]
            for member, p in zip(members[1:], shown[1:], strict=True))
        notes = list(dict.fromkeys(p["note"] for p in shown if p["note"]))
        return {"interpreted": interpreted, "error": None, "note": " ".join(notes) or None}
    return _preview_line(text, decls, lang)


def _preview_line(text: str, decls, lang: str) -> dict:
    try:
        node, _, notes = parse_with_notes(text, decls)
    except ParseError as err:
        column, picture = caret_text(text, err)
        error = message("unreadable", lang, column=column, reason=reason(err, lang))
        return {"interpreted": None, "error": error, "caret": picture}
    except RecursionError:
        return {"interpreted": None, "error": message("too_deep", lang, limit="")}
    sentences = [message(key, lang) for key in notes]
    if decls.symbols or decls.matrices or decls.functions:  # t typed where the question has x
        sentences.append(other_names_note(node, set(decls.symbols) | decls.integers, decls,
                                          lang))
    return {"interpreted": to_latex(node), "error": None,
            "note": " ".join(s for s in sentences if s) or None}


def split_derivation(text: str, *, symbols=(), functions=(), matrices=(),
                     **more_declarations) -> tuple[BlockLine, ...]:
    """A pasted derivation (an `aligned` block, a chain `a = b = c`, remarks between lines) as
    its lines and remarks, in order: the same split `check` makes of a derivation whose `answer`
    is one text (reading/blocks.py). Bad declarations are ignored here: `check` reports them."""
    if not isinstance(text, str):
        return ()
    try:
        decls = declarations({"symbols": list(symbols), "functions": list(functions),
                              "matrices": list(matrices), **more_declarations})
    except BadRequest:
        decls = declarations({})
    return split_block(text, decls)
