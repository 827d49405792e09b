"""Turn verdicts and errors into a `Result` and one learner-facing text (zh or en)."""

from __future__ import annotations

from ..errors import GraderError, ParseError
from ..messages import message
from ..reading.normalize import normalize
from ..result import Counterexample, Result, verdict_for


def result(*, correct: bool = False, score: float = 0.0, feedback: str = "",
           error: str | None = None, **fields: object) -> Result:
    """A `Result` whose verdict follows from (correct, score, error): an error makes it
    unreadable, otherwise correct, partial (score > 0) or wrong."""
    return Result(verdict=verdict_for(correct=correct, score=score, error=error),
                  score=float(score), feedback=feedback, error=error, **fields)


def reason(err: GraderError, lang: str) -> str:
    return message(err.key, lang, **err.params)


def caret_text(raw: str, err: ParseError) -> tuple[int, str]:
    """(1-based column in the raw text, the raw line with a caret under the problem)."""
    # Only text within the length limit was normalized; longer text failed before reading.
    column = normalize(raw).raw_index(err.pos) if len(raw) <= 2000 else 0
    shown = raw.replace("\n", " ").replace("\t", " ")
    if len(shown) > 80:  # keep the caret readable on long input: a window around the problem
        start = max(0, column - 40)
        shown, column_in_window = shown[start:start + 80], column - start
    else:
        column_in_window = column
    shown = "".join(ch if ch.isprintable() else "?" for ch in shown)
    prefix = "".join("\u3000" if _is_wide(ch) else " " for ch in shown[:column_in_window])
    return column + 1, f"  {shown}\n  {prefix}^"


def _is_wide(ch: str) -> bool:
    import unicodedata
    return unicodedata.east_asian_width(ch) in ("W", "F")


def unreadable(raw: str, err: ParseError, lang: str) -> Result:
    column, picture = caret_text(raw, err)
    text = message("unreadable", lang, column=column, reason=reason(err, lang))
    return result(feedback=f"{text}\n{picture}", error=text)


def cannot_grade(err: GraderError, lang: str, interpreted: str | None) -> Result:
    text = message("cannot_grade", lang, reason=reason(err, lang))
    return result(feedback=text, error=text, interpreted=interpreted)


def misconfigured(part_key: str, err: GraderError, lang: str) -> Result:
    text = message("misconfigured", lang, part=message(part_key, lang), reason=reason(err, lang))
    return result(feedback=text, error=text)


def shape_text(shape: tuple[int, ...] | None, lang: str, symbolic_size: int | None) -> str:
    if not shape:
        return message("shape_scalar", lang)
    if len(shape) == 1:
        return message("shape_vector", lang, n=shape[0])
    if symbolic_size is not None and shape == (symbolic_size, symbolic_size):
        return message("shape_square", lang)
    if symbolic_size is not None and shape == (symbolic_size, 1):
        return message("shape_column", lang)
    if symbolic_size is not None and shape == (1, symbolic_size):
        return message("shape_row", lang)
    return message("shape_matrix", lang, rows=shape[0], cols=shape[1])


def compared(line: int, lang: str) -> str:
    """How a step's feedback names the line it was compared with (0 is the start)."""
    return message("compared_line", lang, line=line) if line else message("compared_start", lang)


# (counterexample sentence, the undefined side) -> the sentence that says which side it is
DOMAIN_KEYS = {("counterexample", "answer"): "domain_answer",
               ("counterexample", "expected"): "domain_expected",
               ("counterexample_step", "answer"): "domain_step_line",
               ("counterexample_step", "expected"): "domain_step_before"}


def undefined_side(example: Counterexample, lang: str) -> str | None:
    """"answer" or "expected" when exactly that value of the counterexample has no real value
    (values/counterexample.py writes such a value as the `value_undefined` or `value_not_real`
    text), else None."""
    undefined = (message("value_undefined", lang), message("value_not_real", lang))
    answer, expected = example.answer in undefined, example.expected in undefined
    if answer == expected:
        return None
    return "answer" if answer else "expected"


# the undefined side of a right answer's or a verified step's note -> its sentence
DOMAIN_NOTE_KEYS = {("answer", "answer"): "domain_note_answer",
                    ("answer", "expected"): "domain_note_expected",
                    ("step", "answer"): "domain_note_step_line",
                    ("step", "expected"): "domain_note_step_before"}


def domain_note(example: Counterexample | None, lang: str, before: str = "") -> str | None:
    """The note of a right answer (or, given `before`, the line a step follows) whose real
    domain differs from the other side's: "Equal where both are defined; at x = -1 your answer
    is undefined (not a real number) while the expected answer is -1." None without a point."""
    side = undefined_side(example, lang) if example is not None else None
    if side is None or not example.point:
        return None
    return message(DOMAIN_NOTE_KEYS["step" if before else "answer", side], lang,
                   point=example.point, answer=example.answer, expected=example.expected,
                   before=before)


def counterexample_text(example: Counterexample, lang: str, key: str, before: str = "") -> str:
    """The sentence for a counterexample (`key`: counterexample or counterexample_step; `before`
    names the line a step was compared with). With no variable to choose (an answer that is a
    number) there is no "for example, with ...": the answer's value is said, and the expected
    value is not given away."""
    side = undefined_side(example, lang)
    if example.point and side is not None:  # a difference in real domain: say which side
        key = DOMAIN_KEYS[key, side]
    if example.point:
        return message(key, lang, point=example.point, answer=example.answer,
                       expected=example.expected, before=before)
    if key == "counterexample_step":  # both lines are the learner's own
        return message("value_of_constant_step", lang, answer=example.answer,
                       expected=example.expected, before=before)
    return message("value_of_constant", lang, answer=example.answer)
