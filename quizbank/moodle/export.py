"""Bank questions -> a Moodle XML question file (Moodle's documented "Moodle XML format").

| ours | Moodle |
| --- | --- |
| choice | `multichoice` (several correct: each correct +100/n %, each wrong -100/n %, which is our score rule) |
| numeric (one number) | `numerical`, with an absolute tolerance (relative and significant figures converted); each mal-rule a 0 % answer with its feedback |
| expression | `shortanswer`: the key with 100 %, each mal-rule with 0 % and its feedback |
| ordering | `ordering` (standard since Moodle 4.4), graded on all relative positions |
| derivation, interview, generated, numeric vectors | not exported (a `Note` says why) |

Texts go in both languages through multilang spans, maths as `\\( … \\)`; hints become Moodle hints
and the solution the general feedback. Fields Moodle has no place for ride in `rt-` tags and the
general feedback's comment block (`carry.py`), the category in a category element
(`categories.py`), images of the bank folder as embedded files; so an export imports back to the
same question.
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import unquote
from xml.etree import ElementTree as ET

from ..images import read_image
from ..question_types import (
    ChoiceQuestion,
    ExpressionQuestion,
    NumericQuestion,
    OrderingQuestion,
    Question,
)
from .carry import carried_block, carried_tags
from .categories import DEFAULT_CATEGORY, category_path
from .markup import PLUGINFILE, localized_to_html
from .notes import Note

CATEGORY = DEFAULT_CATEGORY
_IMAGE_SRC = re.compile(r'<img src="' + re.escape(PLUGINFILE) + r'([^"]+)"')


def _text(parent: ET.Element, tag: str, text: str, *, html: bool = False, **attrs) -> ET.Element:
    element = ET.SubElement(parent, tag, {"format": "html"} if html else {}, **attrs)
    ET.SubElement(element, "text").text = text
    return element


def _html(localized) -> str:
    return localized_to_html({"en": localized.en, "zh": localized.zh})


def _fraction(value: float) -> str:
    return f"{value:.7f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def _common(question: Question, qtype: str) -> ET.Element:
    element = ET.Element("question", type=qtype)
    _text(element, "name", question.id)
    _text(element, "questiontext", _html(question.prompt), html=True)
    _text(element, "generalfeedback", _html(question.solution) + carried_block(question),
          html=True)
    ET.SubElement(element, "defaultgrade").text = "1"
    ET.SubElement(element, "penalty").text = "0.3333333"
    ET.SubElement(element, "hidden").text = "0"
    ET.SubElement(element, "idnumber").text = question.id
    return element


def _finish(element: ET.Element, question: Question) -> ET.Element:
    for hint in question.hints:
        _text(element, "hint", _html(hint), html=True)
    tags = ET.SubElement(element, "tags")
    for tag in carried_tags(question):
        _text(tags, "tag", tag)
    return element


def _answer(parent, fraction: float, text: str, feedback=None, *, html: bool = False):
    answer = _text(parent, "answer", text, html=html, fraction=_fraction(fraction))
    _text(answer, "feedback", _html(feedback) if feedback else "", html=True)
    return answer


def _choice(q: ChoiceQuestion, notes: list[Note]) -> ET.Element:
    element = _common(q, "multichoice")
    ET.SubElement(element, "single").text = "false" if q.multiple else "true"
    ET.SubElement(element, "shuffleanswers").text = "true"
    ET.SubElement(element, "answernumbering").text = "abc"
    n_correct = sum(o.correct for o in q.options)
    for option in q.options:
        share = 100.0 / n_correct
        fraction = share if option.correct else (-share if q.multiple else 0.0)
        _answer(element, fraction, _html(option.text), option.feedback, html=True)
    return _finish(element, q)


def absolute_tolerance(q: NumericQuestion, notes: list[Note]) -> float:
    kind, value, key = q.tolerance.kind.value, q.tolerance.value, float(q.answer)
    if kind == "absolute":
        return float(value)
    if kind == "relative":
        tolerance = abs(key) * value
        notes.append(Note("relative_approx", {"question": q.id, "tolerance": f"{tolerance:g}"}))
        return tolerance
    # Rounding to N significant figures accepts half a unit in the N-th figure either side.
    exponent = math.floor(math.log10(abs(key))) if key else 0
    tolerance = 0.5 * 10.0 ** (exponent - int(value) + 1)
    notes.append(Note("sigfigs_approx", {"question": q.id, "sigfigs": int(value),
                                         "tolerance": f"{tolerance:g}"}))
    return tolerance


def _numeric(q: NumericQuestion, notes: list[Note]) -> ET.Element | None:
    if isinstance(q.answer, list):
        notes.append(Note("skipped_vector", {"question": q.id}))
        return None
    element = _common(q, "numerical")
    tolerance = repr(absolute_tolerance(q, notes))
    answer = _answer(element, 100, repr(float(q.answer)))
    ET.SubElement(answer, "tolerance").text = tolerance
    for rule in q.malrules:  # Moodle's mal-rule: a wrong number with grade 0 and feedback
        if not _is_number(rule.answer):
            notes.append(Note("malrule_not_number", {"question": q.id, "answer": rule.answer}))
            continue
        wrong = _answer(element, 0, rule.answer.strip(), rule.feedback)
        ET.SubElement(wrong, "tolerance").text = tolerance
    ET.SubElement(element, "unitgradingtype").text = "0"
    ET.SubElement(element, "unitpenalty").text = "0.1000000"
    ET.SubElement(element, "showunits").text = "3"
    ET.SubElement(element, "unitsleft").text = "0"
    return _finish(element, q)


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def shortanswer_text(formula: str) -> str:
    """In a Moodle short answer `*` is a wildcard; a literal star is written `\\*`."""
    return formula.replace("*", "\\*")


def _expression(q: ExpressionQuestion, notes: list[Note]) -> ET.Element:
    element = _common(q, "shortanswer")
    ET.SubElement(element, "usecase").text = "1"
    _answer(element, 100, shortanswer_text(q.answer))
    for rule in q.malrules:
        _answer(element, 0, shortanswer_text(rule.answer), rule.feedback)
    notes.append(Note("formula_as_text", {"question": q.id, "answer": q.answer}))
    return _finish(element, q)


def _ordering(q: OrderingQuestion, notes: list[Note]) -> ET.Element:
    element = _common(q, "ordering")
    for tag, value in (("layouttype", "VERTICAL"), ("selecttype", "ALL"), ("selectcount", "0"),
                       ("gradingtype", "RELATIVE_ALL_PREVIOUS_AND_NEXT"), ("showgrading", "SHOW"),
                       ("numberingstyle", "none")):
        ET.SubElement(element, tag).text = value
    for position, step in enumerate(q.steps, start=1):
        # qtype_ordering keeps each item's place in the correct order as its "fraction".
        _text(element, "answer", _html(step.text), html=True, fraction=str(position))
    return _finish(element, q)


EXPORTERS = {"choice": _choice, "numeric": _numeric, "expression": _expression,
             "ordering": _ordering}


def _attach_images(element: ET.Element, folder: Path | None, question_id: str,
                   notes: list[Note]) -> None:
    """Each field whose HTML shows an image of the bank folder gets that file embedded, as Moodle
    does (`<file name=… encoding="base64">` beside the field's `<text>`)."""
    for field in list(element.iter()):
        text = field.find("text")
        names = dict.fromkeys(unquote(n) for n in _IMAGE_SRC.findall(
            (text.text or "") if text is not None else ""))
        for name in names:
            data = read_image(folder, name) if folder is not None else None
            if data is None:
                notes.append(Note("image_missing", {"question": question_id, "name": name}))
                continue
            file = ET.SubElement(field, "file", name=name, path="/", encoding="base64")
            file.text = base64.b64encode(data).decode("ascii")


def export_moodle(questions: Iterable[Question], *, category: str = CATEGORY,
                  image_folder: Callable[[str], Path | None] = lambda question_id: None
                  ) -> tuple[str, list[Note]]:
    """(Moodle XML text, notes on what was skipped or approximated). Questions with a `category:`
    tag go under that category (`categories.py`), the rest under `category`; `image_folder(id)`
    is the folder of the question's images (`quizbank.images`), embedded in the file."""
    quiz = ET.Element("quiz")
    notes: list[Note] = []
    current = None
    for question in questions:
        exporter = EXPORTERS.get(question.type)
        if exporter is None:
            notes.append(Note("skipped_type", {"question": question.id,
                                               "type": question.type}))
            continue
        element = exporter(question, notes)
        if element is None:
            continue
        path = category_path(question.tags)
        path = category if path == DEFAULT_CATEGORY else path
        if path != current:  # Moodle: a category element sets the category of what follows
            heading = ET.SubElement(quiz, "question", type="category")
            _text(heading, "category", path)
            current = path
        _attach_images(element, image_folder(question.id), question.id, notes)
        quiz.append(element)
    if current is None:
        heading = ET.SubElement(quiz, "question", type="category")
        _text(heading, "category", category)
    ET.indent(quiz)
    xml = ET.tostring(quiz, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + xml + "\n", notes
