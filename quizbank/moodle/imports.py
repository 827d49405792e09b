"""A Moodle XML question file -> bank questions (plain data, validated), with notes on what could
not be carried over.

The file is untrusted. It is parsed by `defusedxml` with DTDs forbidden, so external entities
(XXE) and entity-expansion bombs are refused before anything is expanded; the file may be at most
`MAX_BYTES` and hold at most `MAX_QUESTIONS` questions. HTML inside it is read, never rendered
(`markup.html_to_markdown`). Formulas are checked with `grader.preview` (parsing only).

Mapped: `multichoice`, `truefalse` (a two-option choice), `numerical` (one number, absolute
tolerance), `shortanswer` whose key the grader reads as a formula (an expression question; 0 %
answers with feedback become mal-rules), `ordering`. Everything else is reported. Moodle has no
topic, difficulty or source: `rt-` tags of our own export carry them (`carry.py`), otherwise the
caller's defaults are used and reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from ..parse import parse_document
from ..strict import KEBAB_PATTERN
from .carry import read_tags
from .markup import html_to_markdown
from .notes import MoodleImportRefused, Note

MAX_BYTES = 5 * 1024 * 1024
MAX_QUESTIONS = 2000
PLACEHOLDER_FEEDBACK = {"zh": "此选项不正确。", "en": "This option is not correct."}
PLACEHOLDER_SOLUTION = {"zh": "（待补充解答）", "en": "(Solution to be written.)"}
_FUNCTION_NAMES = {"sin", "cos", "tan", "tanh", "sinh", "cosh", "sech", "exp", "log", "ln",
                   "sqrt", "abs", "sigmoid", "diff", "transpose", "e", "pi", "I", "T", "d", "dx",
                   "frac", "left", "right", "cdot", "times", "top", "mathbf"}


@dataclass(frozen=True)
class ImportDefaults:
    topic: str = "residual-basics"
    difficulty: str = "medium"
    source_text: str = "gradient-propagation"
    section: str = "Moodle import"


@dataclass
class MoodleImport:
    questions: list[dict] = field(default_factory=list)  # bank-file question mappings, valid
    notes: list[Note] = field(default_factory=list)


def parse_moodle_xml(data: bytes | str) -> Element:
    """The root `<quiz>` element; raises MoodleImportRefused for anything else."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise MoodleImportRefused("too_large", size=len(raw), limit=MAX_BYTES)
    try:
        root = SafeET.fromstring(raw, forbid_dtd=True, forbid_entities=True,
                                 forbid_external=True)
    except DefusedXmlException:
        raise MoodleImportRefused("dtd") from None
    except SafeET.ParseError as error:
        raise MoodleImportRefused("not_xml", detail=str(error)) from None
    if root.tag != "quiz":
        raise MoodleImportRefused("not_moodle", root=root.tag)
    count = len(root.findall("question"))
    if count > MAX_QUESTIONS:
        raise MoodleImportRefused("too_many", count=count, limit=MAX_QUESTIONS)
    return root


def _field_text(element: Element | None, path: str = "text") -> str:
    found = None if element is None else element.find(path)
    return (found.text or "") if found is not None else ""


class _Reader:
    """One `<question>` element's parts, noting what gets lost."""

    def __init__(self, element: Element, name: str, notes: list[Note]):
        self.element, self.name, self.notes = element, name, notes
        self.dropped: set[str] = set()
        self.other_langs: set[str] = set()

    def localized(self, element: Element | None) -> dict | None:
        html = _field_text(element)
        reading = html_to_markdown(html)
        self.dropped |= reading.dropped
        self.other_langs |= reading.other_langs
        return dict(reading.texts) or None

    def child(self, tag: str) -> Element | None:
        return self.element.find(tag)

    def finish_notes(self) -> None:
        if self.dropped:
            self.notes.append(Note("dropped_html", {"question": self.name,
                                                    "tags": ", ".join(sorted(self.dropped))}))
        if self.other_langs:
            self.notes.append(Note("other_languages", {"question": self.name,
                                                       "langs": ", ".join(sorted(self.other_langs))}))


def _fraction(answer: Element) -> float:
    try:
        return float(answer.get("fraction", "0"))
    except ValueError:
        return 0.0


def _kebab(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:60].strip("-") or "question"


def _base(reader: _Reader, qid: str, carried: dict, own_tags: list[str],
          defaults: ImportDefaults) -> dict:
    used_defaults = not all(k in carried for k in ("topic", "difficulty", "source"))
    source_text, _, section = carried.get("source", "").partition("|")
    question = {
        "id": qid,
        "type": None,
        "topic": carried.get("topic", defaults.topic),
        "tags": own_tags,
        "difficulty": carried.get("difficulty", defaults.difficulty),
        "source": {"text": source_text or defaults.source_text,
                   "section": section or defaults.section},
        "prompt": reader.localized(reader.child("questiontext")) or {"en": reader.name},
        "hints": [h for h in (reader.localized(e) for e in reader.element.findall("hint")) if h],
        "solution": reader.localized(reader.child("generalfeedback")),
    }
    if used_defaults:
        reader.notes.append(Note("defaults_used", {
            "question": qid, "topic": question["topic"], "difficulty": question["difficulty"],
            "source": f"{question['source']['text']} {question['source']['section']}"}))
    if question["solution"] is None:
        question["solution"] = dict(PLACEHOLDER_SOLUTION)
        reader.notes.append(Note("no_solution", {"question": qid}))
    if not question["hints"]:
        del question["hints"]
    if not own_tags:
        del question["tags"]
    return question


def _choice(reader: _Reader, q: dict, carried: dict, single: bool) -> dict | None:
    answers = reader.element.findall("answer")
    ids = carried.get("options", "").split("|")
    if len(ids) != len(answers) or len(set(ids)) != len(ids):
        ids = [chr(ord("a") + k) if k < 26 else f"o{k}" for k in range(len(answers))]
    options = []
    for option_id, answer in zip(ids, answers, strict=True):
        correct = _fraction(answer) >= 100 if single else _fraction(answer) > 0
        option: dict[str, Any] = {"id": option_id,
                                  "text": reader.localized(answer) or {"en": option_id},
                                  "correct": correct}
        feedback = reader.localized(answer.find("feedback"))
        if not correct and feedback is None:
            feedback = dict(PLACEHOLDER_FEEDBACK)
            reader.notes.append(Note("wrong_option_feedback", {"question": q["id"],
                                                               "option": option_id}))
        if feedback is not None:
            option["feedback"] = feedback
        options.append(option)
    if not any(o["correct"] for o in options):
        reader.notes.append(Note("no_correct", {"question": q["id"]}))
        return None
    partial = [o["id"] for o, a in zip(options, answers, strict=True)
               if single and 0 < _fraction(a) < 100]
    if partial:
        reader.notes.append(Note("partial_credit", {"question": q["id"],
                                                    "answers": ", ".join(partial)}))
    q.update(type="choice", multiple=not single, options=options)
    return q


def _truefalse(reader: _Reader, q: dict) -> dict | None:
    answers = reader.element.findall("answer")
    options = []
    for answer in answers:
        word = _field_text(answer).strip().lower()
        if word not in ("true", "false"):
            continue
        correct = _fraction(answer) >= 100
        option = {"id": word, "text": {"zh": "对" if word == "true" else "错",
                                       "en": word.capitalize()}, "correct": correct}
        feedback = reader.localized(answer.find("feedback"))
        if not correct and feedback is None:
            feedback = dict(PLACEHOLDER_FEEDBACK)
            reader.notes.append(Note("wrong_option_feedback", {"question": q["id"],
                                                               "option": word}))
        if feedback is not None:
            option["feedback"] = feedback
        options.append(option)
    if sum(o["correct"] for o in options) != 1:
        reader.notes.append(Note("no_correct", {"question": q["id"]}))
        return None
    q.update(type="choice", multiple=False, options=options)
    return q


def _tolerance(carried: dict) -> dict | None:
    kind, _, value = carried.get("tolerance", "").partition("|")
    try:
        number = float(value)
    except ValueError:
        return None
    if kind == "sigfigs" and number == int(number):
        return {"kind": kind, "value": int(number)}
    return {"kind": kind, "value": number} if kind in ("relative", "absolute") else None


def _numerical(reader: _Reader, q: dict, carried: dict) -> dict | None:
    answers = reader.element.findall("answer")
    keyed = [a for a in answers if _fraction(a) >= 100 and _field_text(a).strip() != "*"]
    if any(_field_text(a).strip() == "*" for a in answers):
        reader.notes.append(Note("wildcard", {"question": q["id"]}))
    try:
        key = float(_field_text(keyed[0]).strip()) if keyed else None
    except ValueError:
        key = None
    if key is None:
        reader.notes.append(Note("no_correct", {"question": q["id"]}))
        return None
    if len(keyed) > 1:
        reader.notes.append(Note("extra_correct", {"question": q["id"]}))
    tolerance = _tolerance(carried)
    if tolerance is None:
        try:
            absolute = abs(float(_field_text(keyed[0], "tolerance") or 0))
        except ValueError:
            absolute = 0.0
        tolerance = {"kind": "absolute", "value": absolute}
        if absolute == 0:
            tolerance = {"kind": "relative", "value": 1e-9}
            reader.notes.append(Note("zero_tolerance", {"question": q["id"]}))
    if reader.element.find("units/unit") is not None:
        reader.notes.append(Note("units_dropped", {"question": q["id"]}))
    q.update(type="numeric", answer=key, tolerance=tolerance)
    return q


_WILDCARD = re.compile(r"(?<!\\)\*")  # Moodle short answers: `*` matches anything, `\*` is a star


def _literal(answer: str) -> str:
    return answer.replace("\\*", "*")


# Names a formula from another system may use without declaring them: one letter with an
# optional subscript (x, W2, J_F) or a Greek letter. Anything longer reads as words, not maths.
_GREEK = ("alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|omicron|rho|"
          "sigma|tau|upsilon|phi|chi|psi|omega")
_MATH_NAME = re.compile(rf"(?:[A-Za-z](?:_?[A-Za-z0-9]{{1,3}})?|{_GREEK})", re.I)


def _names_in(formula: str) -> list[str]:
    names = re.findall(r"(?<![A-Za-z0-9_\\])[A-Za-z][A-Za-z0-9_]*", formula)
    return sorted({n for n in names if n not in _FUNCTION_NAMES})


def _shortanswer(reader: _Reader, q: dict, carried: dict) -> dict | None:
    import grader  # the formula check (parsing only); imported when a file is imported

    answers = reader.element.findall("answer")
    full = [a for a in answers if _fraction(a) >= 100]
    if not full:
        reader.notes.append(Note("no_correct", {"question": q["id"]}))
        return None
    key = _field_text(full[0]).strip()
    if _WILDCARD.search(key):
        reader.notes.append(Note("wildcard", {"question": q["id"]}))
        return None
    key = _literal(key)
    if len(full) > 1:
        reader.notes.append(Note("extra_correct", {"question": q["id"]}))
    declared = {name: [n for n in carried.get(name, "").split("|") if n]
                for name in ("symbols", "functions", "matrices")}
    if not any(declared.values()):
        declared["symbols"] = _names_in(key)
        words = [n for n in declared["symbols"] if not _MATH_NAME.fullmatch(n)]
        if words:
            reader.notes.append(Note("not_a_formula", {
                "question": q["id"], "answer": key, "reason": "words: " + ", ".join(words)}))
            return None
        if declared["symbols"]:
            reader.notes.append(Note("declared_symbols", {
                "question": q["id"], "names": ", ".join(declared["symbols"])}))
    preview = grader.preview(key, **declared)
    if preview["error"]:
        reason = preview["error"]
        reader.notes.append(Note("not_a_formula", {"question": q["id"], "answer": key,
                                                   "reason": reason.splitlines()[0]}))
        return None
    malrules, partial = [], []
    for answer in answers:
        text, fraction = _field_text(answer).strip(), _fraction(answer)
        feedback = reader.localized(answer.find("feedback"))
        if _WILDCARD.search(text):
            reader.notes.append(Note("wildcard", {"question": q["id"]}))
            continue  # a catch-all ("*"): our grader says what is wrong itself
        text = _literal(text)
        if fraction <= 0 and feedback and text and text != key:
            malrules.append({"answer": text, "feedback": feedback})
        elif 0 < fraction < 100:
            partial.append(text)
    if partial:
        reader.notes.append(Note("partial_credit", {"question": q["id"],
                                                    "answers": ", ".join(partial)}))
    q.update(type="expression", answer=key, **{k: v for k, v in declared.items() if v})
    if malrules:
        q["malrules"] = malrules
    return q


def _ordering(reader: _Reader, q: dict, carried: dict) -> dict | None:
    answers = reader.element.findall("answer")

    def place(pair):
        index, answer = pair
        return (_fraction(answer) if answer.get("fraction") else index, index)

    ordered = [a for _, a in sorted(enumerate(answers), key=place)]
    ids = carried.get("steps", "").split("|")
    if len(ids) != len(ordered) or len(set(ids)) != len(ids):
        ids = [f"step-{k}" for k in range(1, len(ordered) + 1)]
    if (reader.element.findtext("selecttype") or "ALL").strip().upper() != "ALL":
        reader.notes.append(Note("ordering_partial", {"question": q["id"]}))
    q.update(type="ordering", steps=[{"id": step_id, "text": reader.localized(a) or {"en": step_id}}
                                     for step_id, a in zip(ids, ordered, strict=True)])
    return q


def _question_id(element: Element, used: set[str]) -> tuple[str, str]:
    """(id, the id as written): the idnumber when it is a fresh kebab-case id, else one made
    from the name."""
    name = _field_text(element.find("name")).strip() or "question"
    wanted = (element.findtext("idnumber") or "").strip() or name
    qid = wanted if re.fullmatch(KEBAB_PATTERN, wanted) and len(wanted) <= 80 else _kebab(wanted)
    base, k = qid, 2
    while qid in used:
        qid = f"{base}-{k}"
        k += 1
    used.add(qid)
    return qid, wanted


def import_moodle(data: bytes | str, defaults: ImportDefaults = ImportDefaults(),
                  taken_ids: set[str] = frozenset()) -> MoodleImport:
    """Every mappable question of a Moodle XML file, validated; notes for the rest.

    `taken_ids` are ids already in the bank: an imported question never reuses one.
    """
    root = parse_moodle_xml(data)
    result = MoodleImport()
    used = set(taken_ids)
    for element in root.findall("question"):
        qtype = element.get("type", "")
        if qtype == "category":
            continue
        qid, name = _question_id(element, used)
        reader = _Reader(element, qid, result.notes)
        tags = [_field_text(t).strip() for t in element.findall("tags/tag")]
        own_tags, carried = read_tags([t for t in tags if t])
        question = _base(reader, qid, carried, own_tags, defaults)
        if qtype == "multichoice":
            single = (element.findtext("single") or "true").strip().lower() in ("true", "1")
            mapped = _choice(reader, question, carried, single)
        elif qtype == "truefalse":
            mapped = _truefalse(reader, question)
        elif qtype == "numerical":
            mapped = _numerical(reader, question, carried)
        elif qtype == "shortanswer":
            mapped = _shortanswer(reader, question, carried)
        elif qtype == "ordering":
            mapped = _ordering(reader, question, carried)
        else:
            result.notes.append(Note("unmapped_type", {"question": name, "type": qtype}))
            used.discard(qid)
            continue
        reader.finish_notes()
        if mapped is None:
            used.discard(qid)
            continue
        problems = parse_document({"questions": [mapped]}, "<import>")[1]
        if problems:
            for problem in problems:
                result.notes.append(Note("invalid", {"question": qid,
                                                     "message": f"{problem.field}: "
                                                                f"{problem.message}"}))
            used.discard(qid)
            continue
        if qid != name:
            result.notes.append(Note("renamed_id", {"question": qid, "old": name, "new": qid}))
        result.questions.append(_ordered(mapped))
    return result


_ORDER = ["id", "type", "topic", "tags", "difficulty", "source", "prompt", "hints", "solution",
          "multiple", "options", "answer", "tolerance", "symbols", "functions", "matrices",
          "malrules", "steps"]


def _ordered(question: dict) -> dict:
    """Keys in the order bank files use (id first, then the common fields, then the type's)."""
    return {k: question[k] for k in _ORDER if k in question and question[k] is not None}
