"""A Moodle XML question file -> bank questions (plain data, validated), with notes on what could
not be carried over.

The file is untrusted. It is parsed by `defusedxml` with DTDs forbidden, so external entities
(XXE) and entity-expansion bombs are refused before anything is expanded; the file may be at most
`MAX_BYTES` and hold at most `MAX_QUESTIONS` questions. HTML inside it is read, never rendered
(`markup.html_to_markdown`). Formulas are checked with `grader.preview` (parsing only).

Mapped: `multichoice`, `truefalse` (a two-option choice), `numerical` (one number, absolute
tolerance; 0 % answers with feedback become mal-rules), `shortanswer` whose key the grader reads as
a formula (an expression question; 0 % answers with feedback become mal-rules), `ordering`.
Embedded images the text shows are kept (`embedded.py`, `MoodleImport.images`), categories become
`category:` tags (`categories.py`), tests, accepted mutants and tries come from the comment block
(`carry.py`). Everything else is named in a note: no element is dropped silently. Moodle has no
topic, difficulty or source: `rt-` tags of our own export carry them (`carry.py`), otherwise the
caller's defaults are used and reported.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from ..images import MAX_IMAGES_PER_IMPORT
from ..parse import parse_document
from ..question_types import DECLARATION_FIELDS
from ..strict import KEBAB_PATTERN
from .carry import BLOCK_FIELDS, read_block, read_tags
from .categories import category_tag, with_category
from .embedded import embedded_files
from .markup import html_to_markdown
from .notes import MoodleImportRefused, Note

MAX_BYTES = 20 * 1024 * 1024  # the app's upload limit (.streamlit/config.toml): images make files large
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
    # Images the questions show, by stored name: written into the folder named after the bank
    # file (`quizbank.images`) by `quizbank.authoring.save_new_file` or `quizbank moodle-import`.
    images: dict[str, bytes] = field(default_factory=dict)


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

    def __init__(self, element: Element, name: str, notes: list[Note],
                 images: dict[str, bytes] | None = None):
        self.element, self.name, self.notes = element, name, notes
        self.images = {} if images is None else images  # the import's images so far, by name
        self.kept_images: dict[str, bytes] = {}  # this question's, added to them if it imports
        self.dropped: set[str] = set()
        self.other_langs: set[str] = set()
        self.read_fields: set[int] = set()  # id() of each field read, for the files of the rest
        self.files_not_kept: set[str] = set()  # embedded files not shown as images
        self.images_missing: set[str] = set()  # <img> of a file that is not embedded

    def localized(self, element: Element | None) -> dict | None:
        html = _field_text(element)
        self.read_fields.add(id(element))
        files = embedded_files(element)
        # Images beyond the import's limit are not kept (and named in the notes).
        room = MAX_IMAGES_PER_IMPORT - len(self.images) - len(self.kept_images)
        showable = {f.name: f.stored for f in files if f.stored is not None}
        reading = html_to_markdown(html, images=dict(list(showable.items())[:max(room, 0)]))
        self.dropped |= reading.dropped
        self.other_langs |= reading.other_langs
        self.images_missing |= reading.images_missing - {f.name for f in files}
        for file in files:
            if file.name in reading.images_used:
                self.kept_images[file.stored] = file.data
            else:
                self.files_not_kept.add(file.name or "?")
        return dict(reading.texts) or None

    def child(self, tag: str) -> Element | None:
        return self.element.find(tag)

    def finish_notes(self) -> None:
        for parent in self.element.iter():  # files of fields that were not read
            if id(parent) not in self.read_fields:
                self.files_not_kept |= {f.name or "?" for f in embedded_files(parent)}
        if self.files_not_kept:
            self.notes.append(Note("files_not_kept", {
                "question": self.name, "files": ", ".join(sorted(self.files_not_kept))}))
        if self.images_missing:
            self.notes.append(Note("images_missing", {
                "question": self.name, "files": ", ".join(sorted(self.images_missing))}))
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
    if not single:
        _own_score_rule(reader, q, [(o, _fraction(a)) for o, a in zip(options, answers,
                                                                          strict=True)])
    q.update(type="choice", multiple=not single, options=options)
    return q


def _own_score_rule(reader: _Reader, q: dict, graded: list[tuple[dict, float]]) -> None:
    """Several right options are scored by our rule (each right one +1/n, each wrong one -1/n);
    Moodle's own grades, when they differ, are named."""
    share = 100.0 / sum(o["correct"] for o, _ in graded)
    if all(abs(f - (share if o["correct"] else -share)) < 1e-3 or (not o["correct"] and f == 0)
           for o, f in graded):
        return
    reader.notes.append(Note("grades_replaced", {
        "question": q["id"], "grades": ", ".join(f"{o['id']} {f:g} %" for o, f in graded)}))


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
    _key_feedback(reader, q, keyed[0])
    # Moodle's mal-rule: a wrong number (grade 0) with feedback. It is matched with the question's
    # tolerance here (quizbank.grading.with_numeric_malrule).
    malrules, partial, unused = [], [], []
    for answer in answers:
        text, fraction = _field_text(answer).strip(), _fraction(answer)
        if answer in keyed or text == "*":
            continue
        feedback = reader.localized(answer.find("feedback"))
        if fraction <= 0 and feedback and _is_number(text) and float(text) != key:
            malrules.append({"answer": text, "feedback": feedback})
        else:
            (partial if 0 < fraction < 100 else unused).append(text or "?")
    _wrong_answer_notes(reader, q, partial, unused)
    q.update(type="numeric", answer=key, tolerance=tolerance)
    if malrules:
        q["malrules"] = malrules
    return q


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _key_feedback(reader: _Reader, q: dict, key: Element) -> None:
    """The right answer's own feedback has no place here (the solution is shown instead)."""
    if _field_text(key.find("feedback")).strip():  # its files are named by finish_notes
        reader.notes.append(Note("key_feedback", {"question": q["id"]}))


def _wrong_answer_notes(reader: _Reader, q: dict, partial: list[str], unused: list[str]) -> None:
    if partial:
        reader.notes.append(Note("partial_credit", {"question": q["id"],
                                                    "answers": ", ".join(partial)}))
    if unused:
        reader.notes.append(Note("wrong_answers_not_kept", {"question": q["id"],
                                                            "answers": ", ".join(unused)}))


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
    _key_feedback(reader, q, full[0])
    malrules, partial, unused = [], [], []
    for answer in answers:
        if answer in full:  # the key, or an extra right answer (noted above)
            continue
        text, fraction = _field_text(answer).strip(), _fraction(answer)
        if _WILDCARD.search(text):
            reader.notes.append(Note("wildcard", {"question": q["id"]}))
            continue  # a catch-all ("*"): our grader says what is wrong itself
        text = _literal(text)
        feedback = reader.localized(answer.find("feedback"))
        if fraction <= 0 and feedback and text and text != key:
            malrules.append({"answer": text, "feedback": feedback})
        else:
            (partial if 0 < fraction < 100 else unused).append(text or "?")
    _wrong_answer_notes(reader, q, partial, unused)
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
    # A name may hold HTML (`Question with <strong>invalid grades</strong>`): not in an id.
    name = re.sub(r"<[^>]*>", " ", _field_text(element.find("name"))).strip() or "question"
    wanted = (element.findtext("idnumber") or "").strip() or name
    qid = wanted if re.fullmatch(KEBAB_PATTERN, wanted) and len(wanted) <= 80 else _kebab(wanted)
    base, k = qid, 2
    while qid in used:
        qid = f"{base}-{k}"
        k += 1
    used.add(qid)
    return qid, wanted


# Children of <question> each type reads; the rest are either Moodle's own settings for its
# quiz engine (grade, penalty, shuffling, numbering, …: one note per import lists the ones seen) or
# content that is not kept (named per question).
_READ = {"name", "questiontext", "generalfeedback", "idnumber", "tags", "hint", "answer"}
_READ_BY_TYPE = {"multichoice": {"single"}, "numerical": {"units"}, "ordering": {"selecttype"}}
_READ_IN = {"answer": {"text", "feedback", "file", "tolerance"}, "hint": {"text", "file"}}
_SETTINGS = {"defaultgrade", "penalty", "hidden", "shuffleanswers", "answernumbering",
             "showstandardinstruction", "shownumcorrect", "usecase", "unitgradingtype",
             "unitpenalty", "showunits", "unitsleft", "layouttype", "selectcount", "gradingtype",
             "showgrading", "numberingstyle", "single", "selecttype"}


_MAPPED_TYPES = {"multichoice", "truefalse", "numerical", "shortanswer", "ordering"}


def _has_content(element: Element) -> bool:
    return bool((element.text or "").strip()) or any(True for _ in element)


def _unread(element: Element, qtype: str, settings: set[str]) -> list[str]:
    """The children of `element` this import does not keep, with content; Moodle's settings are
    collected in `settings` instead."""
    read = _READ | _READ_BY_TYPE.get(qtype, set())
    unread = []
    for child in element:
        if not isinstance(child.tag, str):
            continue
        if child.tag in ("answer", "hint"):  # inside them: the text, its files, …
            for part in child:
                if not isinstance(part.tag, str) or part.tag in _READ_IN[child.tag]:
                    continue
                name = f"{child.tag}/{part.tag}"
                if child.tag == "hint":  # Moodle's interactive-mode flags (clearwrong, …)
                    settings.add(name)
                elif _has_content(part) and name not in unread:
                    unread.append(name)
        elif child.tag in read:
            continue
        elif child.tag in _SETTINGS:
            settings.add(child.tag)
        elif _has_content(child) and child.tag not in unread:
            unread.append(child.tag)
    return unread


def _category(element: Element, notes: list[Note]) -> str | None:
    """A `<question type="category">`: the tag for the questions that follow it."""
    path = _field_text(element.find("category")).strip()
    tag = category_tag(path)
    lost = [child.tag for child in element if isinstance(child.tag, str)
            and child.tag != "category" and _has_content(child)]
    if lost:
        notes.append(Note("category_not_kept", {"category": path or "?",
                                                "fields": ", ".join(lost)}))
    return tag


def _carried_block(reader: _Reader, question: dict) -> None:
    """Tests, accepted mutants, tries and the further declarations from the general feedback's
    comment block (carry.py)."""
    block, problem = read_block(_field_text(reader.child("generalfeedback")))
    if problem:
        reader.notes.append(Note("block_unread", {"question": question["id"],
                                                  "problem": problem}))
    for name in BLOCK_FIELDS:
        if name in block:
            question[name] = block[name]


def import_moodle(data: bytes | str, defaults: ImportDefaults = ImportDefaults(),
                  taken_ids: set[str] = frozenset()) -> MoodleImport:
    """Every mappable question of a Moodle XML file, validated; notes for the rest.

    `taken_ids` are ids already in the bank: an imported question never reuses one.
    """
    root = parse_moodle_xml(data)
    result = MoodleImport()
    used = set(taken_ids)
    settings: set[str] = set()
    category: str | None = None
    for element in root.findall("question"):
        qtype = element.get("type", "")
        if qtype == "category":
            category = _category(element, result.notes)
            continue
        if qtype not in _MAPPED_TYPES:
            name = re.sub(r"<[^>]*>", " ", _field_text(element.find("name"))).strip()
            result.notes.append(Note("unmapped_type", {"question": name or "?", "type": qtype}))
            continue
        qid, name = _question_id(element, used)
        reader = _Reader(element, qid, result.notes, result.images)
        tags = [_field_text(t).strip() for t in element.findall("tags/tag")]
        own_tags, carried = read_tags([t for t in tags if t])
        question = _base(reader, qid, carried, with_category(own_tags, category), defaults)
        if qtype == "multichoice":
            single = (element.findtext("single") or "true").strip().lower() in ("true", "1")
            mapped = _choice(reader, question, carried, single)
        elif qtype == "truefalse":
            mapped = _truefalse(reader, question)
        elif qtype == "numerical":
            mapped = _numerical(reader, question, carried)
        elif qtype == "shortanswer":
            mapped = _shortanswer(reader, question, carried)
        else:
            mapped = _ordering(reader, question, carried)
        reader.finish_notes()
        if mapped is None:
            used.discard(qid)
            continue
        _carried_block(reader, mapped)
        unread = _unread(element, qtype, settings)
        if unread:
            result.notes.append(Note("not_kept", {"question": qid, "fields": ", ".join(unread)}))
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
        result.images.update(reader.kept_images)
        result.questions.append(_ordered(mapped))
    if settings:
        result.notes.append(Note("moodle_settings", {"fields": ", ".join(sorted(settings))}))
    return result


_ORDER = ["id", "type", "topic", "tags", "difficulty", "source", "prompt", "hints", "solution",
          "tries", "multiple", "options", "answer", "tolerance", *DECLARATION_FIELDS,
          "malrules", "accepted_mutants", "steps", "tests"]


def _ordered(question: dict) -> dict:
    """Keys in the order bank files use (id first, then the common fields, then the type's)."""
    return {k: question[k] for k in _ORDER if k in question and question[k] is not None}
