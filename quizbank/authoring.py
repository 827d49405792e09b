"""Editing one question as YAML text: validate it as the loader would, save it into an instructor's
bank file, and turn a class of wrong answers into a mal-rule (what the Author and Analytics pages
do, without Streamlit).

Safety: the text is first read by the strict reader (`yaml_reader`: no tags, anchors, aliases or
merge keys, size-limited, never `yaml.load`). Only text that reader accepted is then given to
ruamel.yaml's round-trip parser, which keeps comments and key order when the question is put back
into its file. A save is refused unless the whole resulting file validates, and is never made
outside the instructor folder (the shipped bank is never written). Files are replaced atomically.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from .author_tests import GradeQuestion, import_grade_question, run_question_tests
from .bank import Bank
from .bilingual import OneLanguageText, question_language_warnings
from .files import write_text_atomically
from .images import ImageConflict, images_folder, write_images
from .live import _duplicates, _ReadFile
from .loader import SHIPPED_BANK, shown_path
from .parse import ParsedQuestion, cross_check, parse_document
from .positive_names import UndeclaredPositive, question_positive_warnings
from .problems import Problem
from .question_types import Question
from .yaml_reader import LineIndex, parse_yaml_text, read_yaml_file

EDITOR_PATH = "<editor>"  # the path of problems found in the edited text itself
FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,80}\.ya?ml$")


@dataclass(frozen=True)
class CheckedSource:
    """A question being edited: the validated question (None when it does not validate), every
    problem and every warning (text in one language only: `quizbank.bilingual`; a variable only
    meaningful when positive and not declared so: `quizbank.positive_names`), with lines counted
    in the edited text."""

    question: Question | None
    problems: tuple[Problem, ...] = ()
    data: dict | None = field(default=None, compare=False, repr=False)
    warnings: tuple[OneLanguageText, ...] = ()
    lines: LineIndex | None = field(default=None, compare=False, repr=False)
    undeclared_positive: tuple[UndeclaredPositive, ...] = ()

    @property
    def ok(self) -> bool:
        return self.question is not None and not self.problems


class SaveRefused(ValueError):
    """Nothing was written: `problems` says why (a file that would not validate, a bad place)."""

    def __init__(self, problems: list[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in problems))


class AuthorTestsFailed(SaveRefused):
    """Nothing was written: the question validates, but some of its own author tests fail
    (`outcomes` holds every test's outcome, `problems` one line per failing test)."""

    def __init__(self, outcomes, problems: list[Problem]):
        self.outcomes = tuple(outcomes)
        super().__init__(problems)


class _InnerLines:
    """Lines of a question edited alone, as if it were `questions[0]` of a file."""

    def __init__(self, inner: LineIndex):
        self.inner = inner

    def line_at(self, parts) -> int:
        parts = list(parts)
        if parts[:2] == ["questions", 0]:
            return self.inner.line_at(parts[2:])
        return self.inner.root_line


def check_source(text: str, bank: Bank, *, path: str = EDITOR_PATH,
                 replaces: str | None = None) -> CheckedSource:
    """Validate one question's YAML text (a mapping) against the bank it will join.

    `replaces` is the id of the question being edited, if any: its old version does not count as
    a duplicate. Follow-ups may name any question of the bank or this one.
    """
    document, problems = parse_yaml_text(text, path)
    if document is None:
        return CheckedSource(None, tuple(problems))
    if not isinstance(document.data, dict):
        return CheckedSource(None, (Problem(path, 1, "-", "-", "one question: a mapping starting "
                                                      "with `id:` and `type:`"),))
    parsed, problems = parse_document({"questions": [document.data]}, path,
                                      _InnerLines(document.lines))
    (checked,) = parsed
    problems += _against_bank(checked, bank, replaces)
    if problems:
        return CheckedSource(None, tuple(sorted(problems)), document.data)
    def line_of(parts):
        return document.lines.line_at(list(parts))

    warnings = question_language_warnings(checked.question, path, line_of)
    positive = question_positive_warnings(checked.question, path, line_of)
    return CheckedSource(checked.question, (), document.data, tuple(warnings), document.lines,
                         tuple(positive))


class _FixedLine:
    def __init__(self, line: int | None):
        self.line = line

    def line_at(self, parts) -> int | None:
        return self.line


def _bank_entries(bank: Bank, keep=lambda q: True) -> list[ParsedQuestion]:
    """The bank's questions as parsed entries (for the checks across questions)."""
    entries = []
    for q in bank:
        if keep(q):
            where = bank.location(q.id)
            entries.append(ParsedQuestion(q, q.id, where.path, 0, _FixedLine(where.line)))
    return entries


def _against_bank(checked: ParsedQuestion, bank: Bank, replaces: str | None) -> list[Problem]:
    others = _bank_entries(bank, lambda q: q.id != replaces)
    problems = []
    if checked.raw_id in {q.id for q in bank} and checked.raw_id != replaces:
        where = bank.location(checked.raw_id)
        problems.append(Problem(checked.path, checked.line("id"), checked.raw_id, "id",
                                f"duplicate id; also defined at {where}"))
    known = [*others, checked]
    problems += [p for p in cross_check(known) if p.path == checked.path and p.field != "id"]
    return problems


# --- reading a question's text back out of its file --------------------------------------------

def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 100
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _checked_roundtrip(path: Path):
    """The file as ruamel's round-trip tree, after the strict reader accepted it."""
    document, problems = read_yaml_file(path, shown_path(path))
    if document is None:
        raise SaveRefused(problems)
    return _yaml().load(path.read_text(encoding="utf-8"))


def question_yaml(bank: Bank, question_id: str) -> str:
    """The YAML text of one question as written in its file (its comments kept)."""
    path = Path(bank.location(question_id).path)
    tree = _checked_roundtrip(path)
    for item in tree["questions"]:
        if isinstance(item, CommentedMap) and item.get("id") == question_id:
            out = io.StringIO()
            _yaml().dump(item, out)
            return out.getvalue()
    raise KeyError(question_id)


# --- saving -----------------------------------------------------------------------------------

def instructor_file(folder: Path, file_name: str) -> Path:
    """`folder/file_name`, refusing names that would leave the folder or reach the shipped bank."""
    if not FILE_NAME.fullmatch(file_name):
        raise SaveRefused([Problem(file_name, None, "-", "-", "a file name is letters, digits, "
                                   "'-', '_' or '.', ending in .yaml")])
    target = (folder / file_name).resolve()
    if target.is_relative_to(SHIPPED_BANK.resolve()):
        raise SaveRefused([Problem(str(target), None, "-", "-",
                                   "the shipped bank is never written; save into your folder")])
    return target


def merged_file_text(target: Path, question_text: str, question_id: str,
                     replaces: str | None) -> str:
    """The target file's text with the question replaced (by `replaces` or its own id) or
    appended; everything else in the file, comments included, stays as it was."""
    item = _yaml().load(question_text)
    if target.exists():
        tree = _checked_roundtrip(target)
        if not isinstance(tree, CommentedMap) or not isinstance(tree.get("questions"),
                                                                CommentedSeq):
            raise SaveRefused([Problem(str(target), 1, "-", "questions",
                                       "not a bank file (`questions:` list)")])
    else:
        tree = CommentedMap(questions=CommentedSeq())
    questions = tree["questions"]
    wanted = {question_id, replaces} - {None}
    index = next((k for k, q in enumerate(questions)
                  if isinstance(q, CommentedMap) and q.get("id") in wanted), None)
    if index is None:
        questions.append(item)
    else:
        questions[index] = item
    out = io.StringIO()
    _yaml().dump(tree, out)
    return out.getvalue()


def save_source(text: str, bank: Bank, *, folder: Path, file_name: str,
                replaces: str | None = None, grade: GradeQuestion | None = None) -> Path:
    """Validate the question, run its author tests (through `grade`, by default the grader) and
    validate the whole file it lands in, then write that file atomically. The question replaces
    `replaces` in the file when it keeps that id, else it is added. Raises SaveRefused (nothing
    written) with every problem, AuthorTestsFailed when an author test of the question fails.

    Why a failing test refuses the save, with no override: a saved question is live at once, and
    a test that fails says the key or the grading disagrees with what its author expects, so
    learners would be graded wrongly from the next page run. Work in progress stays in the
    editor (and a test can be removed or corrected in the same text), as a CI gate keeps a red
    build from being deployed."""
    checked = check_source(text, bank, replaces=replaces)
    if not checked.ok:
        raise SaveRefused(list(checked.problems))
    _refuse_failing_tests(checked, grade or import_grade_question())
    if checked.question.id != replaces:
        replaces = None  # a new id saves a new question ("save as"); nothing is ever dropped
    target = instructor_file(folder, file_name)
    new_text = merged_file_text(target, text, checked.question.id, replaces)
    _check_file_text(new_text, target, bank)
    write_text_atomically(target, new_text)
    return target


def _refuse_failing_tests(checked: CheckedSource, grade: GradeQuestion) -> None:
    outcomes = run_question_tests(checked.question, lambda k: EDITOR_PATH, grade, "en")
    failed = [o for o in outcomes if not o.passed]
    if failed:
        raise AuthorTestsFailed(outcomes, [
            Problem(EDITOR_PATH, checked.lines.line_at(["tests", o.number - 1]), o.question_id,
                    f"tests[{o.number - 1}]",
                    f"author test #{o.number} expects {o.expected.value}, the grader says "
                    f"{o.got_text}" + (f" ({o.feedback})" if o.feedback else ""))
            for o in failed])


def _check_file_text(text: str, target: Path, bank: Bank) -> None:
    shown = shown_path(target)
    document, problems = parse_yaml_text(text, shown)
    if document is None:
        raise SaveRefused(problems)
    parsed, problems = parse_document(document.data, shown, document.lines)
    mine = {p.raw_id for p in parsed}
    others = _bank_entries(bank, lambda q: bank.location(q.id).path != shown)
    earlier = _ReadFile(Path("<bank>"), (0, 0, 0), tuple(o for o in others if o.raw_id in mine),
                        ())
    found = _duplicates([earlier, _ReadFile(target, (0, 0, 0), tuple(parsed), ())])
    problems += found.get(target, [])
    problems += [p for p in cross_check([*others, *parsed]) if p.path == shown and p.field != "id"]
    if problems:
        raise SaveRefused(problems)


def save_new_file(text: str, bank: Bank, *, folder: Path, file_name: str,
                  images: dict[str, bytes] | None = None) -> Path:
    """A whole new bank file (e.g. imported from Moodle XML), validated with the bank; an existing
    file is never replaced. `images` (stored name -> bytes) go into the folder named after the
    file (`quizbank.images`) before the file itself, so a learner never meets a question whose
    picture is not there yet; an image file is never overwritten. Raises SaveRefused."""
    target = instructor_file(folder, file_name)
    if target.exists():
        raise SaveRefused([Problem(shown_path(target), None, "-", "-",
                                   "a file of that name exists; choose another name")])
    _check_file_text(text, target, bank)
    if images:
        try:
            write_images(images_folder(target), images)
        except ImageConflict as conflict:
            raise SaveRefused([Problem(shown_path(target), None, "-", "-",
                                       f"{conflict}; choose another file name")]) from None
    write_text_atomically(target, text)
    return target


def in_folders(bank: Bank, question_id: str, folders) -> bool:
    """Whether a question lives in one of `folders` (an instructor's, so it may be edited)."""
    path = Path(bank.location(question_id).path).resolve()
    return any(path.is_relative_to(Path(f).resolve()) for f in folders)


# --- a class of wrong answers becomes a mal-rule -----------------------------------------------

def add_malrule(bank: Bank, question_id: str, answer: str, feedback: dict[str, str]) -> Path:
    """Add `answer` as a mal-rule with `feedback` ({zh, en}) and an author test saying it is
    wrong, to an instructor's question, in its own file. Raises SaveRefused."""
    location = bank.location(question_id)
    target = Path(location.path).resolve()
    if target.is_relative_to(SHIPPED_BANK.resolve()):
        raise SaveRefused([Problem(location.path, location.line, question_id, "-",
                                   "the shipped bank is never written: copy the question into "
                                   "your folder first")])
    tree = _checked_roundtrip(target)
    item = next(q for q in tree["questions"] if q.get("id") == question_id)
    rule = CommentedMap(answer=answer, feedback=CommentedMap(
        (lang, text) for lang, text in feedback.items() if text and text.strip()))
    item.setdefault("malrules", CommentedSeq()).append(rule)
    tests = item.setdefault("tests", CommentedSeq())
    tests.append(CommentedMap(answer=answer, verdict="wrong"))
    out = io.StringIO()
    _yaml().dump(tree, out)
    _check_file_text(out.getvalue(), target, bank)
    write_text_atomically(target, out.getvalue())
    return target
