"""The models' rules, each shown failing with its field and message, on plain dicts."""

import math

import pytest

from quizbank import (
    BankError,
    Localized,
    LocalizedKeywords,
    QuestionType,
    parse_bank,
)


def problems_of(questions: list[dict]) -> list:
    with pytest.raises(BankError) as caught:
        parse_bank({"questions": questions})
    return caught.value.problems


def set_path(question: dict, path: str, value):
    """set_path(q, "options.1.feedback", None): dotted path, ints index lists; None deletes."""
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    target = question
    for part in parents:
        target = target[part]
    if value is DELETE:
        del target[last]
    else:
        target[last] = value


DELETE = object()
CORRECT_A = {"id": "a", "text": {"en": "A"}, "correct": True}
CORRECT_B = {"id": "b", "text": {"en": "B"}, "correct": True}
WRONG_C = {"id": "c", "text": {"en": "C"}, "correct": False, "feedback": {"en": "no"}}

# (question type, dotted path to change, new value, expected field, expected message part)
BROKEN = [
    (
        "choice",
        "options",
        [{**WRONG_C, "id": "a"}, WRONG_C | {"id": "b"}],
        "options",
        "at least one correct",
    ),
    ("choice", "options", [CORRECT_A, CORRECT_B], "options", "mark exactly one correct"),
    ("choice", "options.1.feedback", DELETE, "options[1]", "wrong option 'b' needs feedback"),
    (
        "choice",
        "options",
        [CORRECT_A, {**WRONG_C, "id": "a"}],
        "options",
        "option ids must be unique",
    ),
    ("choice", "options", [CORRECT_A], "options", "at least 2 items"),
    ("choice", "tests.0.answer", ["z"], "tests", "unknown option z"),
    ("choice", "multiple", "no", "multiple", "valid boolean"),
    ("numeric", "answer", [[1, 2], [3]], "answer", "not rectangular (row lengths [2, 1])"),
    ("numeric", "answer", [1.0, float("nan")], "answer", "entry 2 must be finite"),
    ("numeric", "answer", float("inf"), "answer", "must be finite"),
    ("numeric", "answer", "0.4", "answer", "not text"),
    ("numeric", "answer", [True, 1], "answer", "entry 1 must be a number"),
    ("numeric", "answer", [1, [2]], "answer", "mixes numbers and rows"),
    ("numeric", "answer", [], "answer", "empty list"),
    ("numeric", "tolerance", {"kind": "sigfigs", "value": 2.5}, "tolerance", "whole number"),
    ("numeric", "tolerance", {"kind": "sigfigs", "value": 0}, "tolerance", "whole number"),
    ("numeric", "tolerance", {"kind": "relative", "value": -1e-3}, "tolerance", "must be positive"),
    (
        "numeric",
        "tolerance",
        {"kind": "relative", "value": "1e-3"},
        "tolerance.value",
        "must be a number, got '1e-3' (YAML reads 1e-3 as text: write 1.0e-3)",
    ),
    ("numeric", "tolerance", {"kind": "relative", "value": math.inf}, "tolerance.value", "finite"),
    ("numeric", "tolerance", {"kind": "relative", "value": math.nan}, "tolerance.value", "finite"),
    ("numeric", "tolerance", {"kind": "sigfigs", "value": True}, "tolerance.value", "got True"),
    ("numeric", "answer", "1e-3", "answer", "not text (YAML reads 1e-3 as text: write 1.0e-3)"),
    ("numeric", "answer", ["1.5"], "answer", "entry 1 must be a number, got '1.5' (YAML reads"),
    (
        "numeric",
        "tolerance",
        {"kind": "percent", "value": 1},
        "tolerance.kind",
        "'relative', 'absolute' or 'sigfigs'",
    ),
    ("numeric", "tests.0.answer", 0.4, "tests[0].answer", "quote it"),
    ("expression", "malrules.0.answer", "(I+W)^T  g", "malrules", "is the correct answer itself"),
    ("expression", "symbols", ["W"], "matrices", "W already declared in `symbols`"),
    ("expression", "functions", ["F", "F"], "functions", "functions must be unique; repeated: F"),
    ("expression", "symbols", ["2x"], "symbols[0]", "should match pattern"),
    ("expression", "answer", "   ", "answer", "should match pattern"),
    ("derivation", "steps", [], "steps", "at least 1 item"),
    ("derivation", "tests.0.answer", "1 + F'(x)", "tests[0].answer", "valid list"),
    ("interview", "rubric.0.kind", "bonus", "rubric", "at least one point of kind `required`"),
    ("interview", "rubric.1.id", "identity-term", "rubric", "rubric ids must be unique"),
    (
        "interview",
        "rubric.0.keywords",
        {"zh": [], "en": []},
        "rubric[0].keywords",
        "at least one keyword",
    ),
    ("interview", "followups", ["fx-interview"], "followups", "its own follow-up"),
    ("interview", "tests", [{"answer": "x", "verdict": "correct"}], "tests", "remove `tests`"),
    ("ordering", "steps", [{"id": "ln", "text": {"en": "LN"}}], "steps", "at least 2 items"),
    ("ordering", "steps.1.id", "ln", "steps", "step ids must be unique"),
    ("ordering", "tests.0.answer", ["ln", "nope"], "tests", "unknown step nope"),
    ("generated", "tests.0.answer", {"grad_y": "key"}, "tests", "not asked: grad_y"),
    ("generated", "tests.0.seed", DELETE, "tests[0].seed", "required field is missing"),
    ("generated", "tests.0.seed", -1, "tests[0].seed", "greater than or equal to 0"),
    ("generated", "asks", ["grad_x", "grad_x"], "asks", "asks must be unique"),
    ("choice", "id", "Fx_Choice", "id", "should match pattern"),
    ("choice", "prompt", {}, "prompt", "at least one language"),
    ("choice", "prompt", {"en": "  "}, "prompt.en", "should match pattern"),
    ("choice", "prompt", {"en": True}, "prompt.en", "valid string"),
    ("choice", "prompt", {"en": "ok", "fr": "oui"}, "prompt.fr", "unknown field"),
    ("choice", "optoins", [], "optoins", "unknown field (did you mean 'options'?)"),
    ("choice", "solution", DELETE, "solution", "required field is missing"),
    ("choice", "difficulty", 3, "difficulty", "'easy', 'medium' or 'hard'"),
    ("choice", "topic", "resnets", "topic", "input should be"),
    ("choice", "type", "essay", "type", "unknown question type 'essay'"),
    ("choice", "type", DELETE, "type", "required field is missing"),
    ("choice", "source.text", "blog", "source.text", "'gradient-propagation'"),
    ("choice", "source.section", 3.2, "source.section", "valid string"),
    ("choice", "tags", ["a", "a"], "tags", "tags must be unique"),
    ("choice", "hints", {"en": "one hint"}, "hints", "valid list"),
    ("choice", "", None, "-", "a question is a mapping of fields"),
    ("numeric", "tries", 0, "tries", "greater than or equal to 1"),
    ("numeric", "tries", 11, "tries", "less than or equal to 10"),
    ("numeric", "tries", "3", "tries", "valid integer"),
    ("choice", "tries", 9, "-", "finds the answer by elimination"),
    ("interview", "tries", 2, "-", "remove `tries`"),
]


@pytest.mark.parametrize(("kind", "path", "value", "field", "message"), BROKEN)
def test_each_rule_names_field_and_reason(sample, kind, path, value, field, message):
    question = sample(kind)
    if path:
        set_path(question, path, value)
    else:
        question = "just a string"
    problems = problems_of([question])
    found = [(p.field, p.message) for p in problems]
    assert any(f == field and message in m for f, m in found), found
    assert all(str(p).startswith("<dict>: ") for p in problems)


@pytest.mark.parametrize(
    ("kind", "path", "value"),
    [
        ("choice", "multiple", True),  # one correct option is fine with multiple: true
        ("choice", "options", [CORRECT_A, CORRECT_B, WRONG_C]),  # needs multiple (set below)
        ("numeric", "answer", 3),
        ("numeric", "answer", [[1, 2], [3, 4]]),
        ("numeric", "tolerance", {"kind": "sigfigs", "value": 3}),
        ("numeric", "tolerance", {"kind": "absolute", "value": 1}),
        ("choice", "prompt", {"zh": "只有中文"}),
        ("interview", "followups", []),
        ("generated", "tests.0.answer", {"loss": "1.25"}),
        ("generated", "asks", ["grad_x", "loss", "grad_W"]),  # answer names may have capitals
        ("numeric", "tries", 5),
        ("choice", "tries", 1),
    ],
)
def test_valid_variants_pass(sample, kind, path, value):
    question = sample(kind)
    set_path(question, path, value)
    if kind == "choice" and path == "options":
        question["multiple"] = True
        question["tests"] = [{"answer": ["a", "b"], "verdict": "correct"}]
    bank = parse_bank({"questions": [question]})
    assert list(bank.questions) == [question["id"]]


def test_every_problem_of_a_question_is_reported_at_once(sample):
    question = sample("numeric")
    question["difficulty"] = "extreme"
    question["answer"] = "x"
    question["colour"] = "red"
    fields = sorted(p.field for p in problems_of([question]))
    assert fields == ["answer", "colour", "difficulty"]


def test_problems_name_the_question_or_its_index(sample):
    nameless = sample("choice")
    del nameless["id"]
    problems = problems_of([sample("numeric"), nameless])
    assert [(p.question_id, p.field) for p in problems] == [("questions[1]", "id")]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a bank file is a mapping with one key `questions`; found list"),
        ({"items": []}, "found keys ['items']"),
        ({"questions": {"id": "x"}}, "must be a list of questions"),
    ],
)
def test_file_shape_is_checked(data, message):
    with pytest.raises(BankError) as caught:
        parse_bank(data)
    assert message in str(caught.value)


def test_extra_top_level_key_is_refused(sample):
    with pytest.raises(BankError) as caught:
        parse_bank({"questions": [sample("choice")], "version": 2})
    assert [(p.field, p.message) for p in caught.value.problems] == [("version", "unknown field")]


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ({"zh": "中", "en": "en"}, "zh", "中"),
        ({"zh": "中", "en": "en"}, "en", "en"),
        ({"zh": "中"}, "en", "中"),
        ({"en": "en"}, "zh", "en"),
    ],
)
def test_localized_falls_back_to_the_other_language(text, lang, expected):
    assert Localized.model_validate(text).get(lang) == expected


def test_localized_keywords_fall_back():
    keywords = LocalizedKeywords.model_validate({"en": ["identity"]})
    assert keywords.get("zh") == ["identity"] and not keywords.is_bilingual


def test_bank_selections(sample):
    bank = parse_bank({"questions": [sample(kind) for kind in QuestionType]})
    assert [q.id for q in bank.by_type("ordering")] == ["fx-ordering"]
    assert {q.id for q in bank.filter(topics=["jacobian"])} == {"fx-expression", "fx-derivation"}
    assert [q.id for q in bank.filter(topics=["jacobian"], difficulties=["easy"])] == [
        "fx-derivation"
    ]
    assert len(bank.filter(types=["choice", "numeric"])) == 2
    assert len(bank.filter()) == len(QuestionType)


@pytest.mark.parametrize(
    ("kind", "tries", "allowed"),
    [("numeric", None, 3), ("expression", None, 3), ("derivation", None, 3),
     ("generated", None, 3), ("choice", None, 1), ("ordering", None, 1), ("interview", None, 1),
     ("numeric", 5, 5), ("ordering", 2, 2)],
)
def test_tries_default_by_type_or_as_set(sample, kind, tries, allowed):
    question = sample(kind)
    if tries is not None:
        question["tries"] = tries
    question.pop("followups", None)
    (parsed,) = parse_bank({"questions": [question]})
    assert parsed.allowed_tries == allowed
