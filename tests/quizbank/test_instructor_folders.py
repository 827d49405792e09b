"""Instructor bank folders: configuration, the strict whole-bank check (CLI), and the running
app's cache, where a broken file withholds only its own questions."""

import os
from pathlib import Path

import pytest

from quizbank import (
    SHIPPED_BANK,
    BankCache,
    BankError,
    configured_folders,
    load_bank,
    load_bank_folders,
)
from quizbank.cli import main

QUESTION = """\
  - id: {qid}
    type: numeric
    topic: worked-example
    difficulty: easy
    source: {{text: gradient-propagation, section: "6.4"}}
    prompt: {{zh: "求 y", en: "Compute y"}}
    solution: {{zh: "解", en: "Solution"}}
    answer: {answer}
    tolerance: {{kind: relative, value: 1.0e-3}}
"""


def bank_text(*ids: str, answer: str = "1.5") -> str:
    return "questions:\n" + "".join(QUESTION.format(qid=q, answer=answer) for q in ids)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


SHIPPED_ID = next(iter(load_bank().questions))


# --- configuration -----------------------------------------------------------------------------

def test_environment_then_config_file_in_order_without_repeats(tmp_path):
    config = write(tmp_path / "secrets.toml",
                   f'[tutor]\nbank_paths = ["{tmp_path / "b"}", "{tmp_path / "a"}"]\n')
    env = {"TUTOR_BANK_PATHS": os.pathsep.join([str(tmp_path / "a"), str(tmp_path / "c")]),
           "TUTOR_CONFIG": str(config)}
    folders = configured_folders(env)
    assert folders.instructor == (tmp_path / "a", tmp_path / "c", tmp_path / "b")
    assert folders.all[0] == SHIPPED_BANK
    assert folders.author_folder == tmp_path / "a"
    assert folders.problems == ()


def test_without_configuration_the_data_folder_is_the_instructor_folder(tmp_path):
    folders = configured_folders({"XDG_DATA_HOME": str(tmp_path),
                                  "TUTOR_CONFIG": str(tmp_path / "missing.toml")})
    assert folders.instructor == (tmp_path / "residual-tutor" / "bank",)


@pytest.mark.parametrize("content, expected", [
    ("[tutor\n", "cannot read the configuration"),
    ("[tutor]\nbank_paths = 3\n", "must be a list of folder names"),
])
def test_a_bad_configuration_file_is_reported_not_raised(tmp_path, content, expected):
    config = write(tmp_path / "secrets.toml", content)
    folders = configured_folders({"TUTOR_CONFIG": str(config), "XDG_DATA_HOME": str(tmp_path)})
    assert len(folders.problems) == 1 and expected in folders.problems[0]
    assert str(config) in folders.problems[0]


def test_the_shipped_bank_is_never_an_instructor_folder(tmp_path):
    env = {"TUTOR_BANK_PATHS": f"{SHIPPED_BANK}{os.pathsep}{SHIPPED_BANK / 'sub'}",
           "XDG_DATA_HOME": str(tmp_path), "TUTOR_CONFIG": str(tmp_path / "none.toml")}
    folders = configured_folders(env)
    assert SHIPPED_BANK not in folders.instructor
    assert folders.author_folder == tmp_path / "residual-tutor" / "bank"
    assert len(folders.problems) == 2


# --- the strict check (command line, CI) -------------------------------------------------------

def test_an_id_in_two_folders_names_both_file_lines(tmp_path):
    write(tmp_path / "one" / "a.yaml", bank_text("same-id"))
    write(tmp_path / "two" / "b.yaml", "# a comment line\n" + bank_text("other", "same-id"))
    with pytest.raises(BankError) as caught:
        load_bank_folders([tmp_path / "one", tmp_path / "two"])
    messages = [str(p) for p in caught.value.problems]
    assert len(messages) == 2
    a_line, b_line = 2, 2 + 1 + QUESTION.count("\n")
    assert any(m.endswith(f"duplicate id; also defined at {tmp_path}/two/b.yaml:{b_line}")
               and f"a.yaml:{a_line}:" in m for m in messages)
    assert any(m.endswith(f"duplicate id; also defined at {tmp_path}/one/a.yaml:{a_line}")
               and f"b.yaml:{b_line}:" in m for m in messages)


def test_cli_validates_shipped_and_configured_folders(tmp_path, monkeypatch, capsys):
    write(tmp_path / "mine" / "q.yaml", bank_text("my-own-question"))
    monkeypatch.setenv("TUTOR_BANK_PATHS", str(tmp_path / "mine"))
    monkeypatch.setenv("TUTOR_CONFIG", str(tmp_path / "none.toml"))
    assert main(["validate"]) == 0
    shipped = len(load_bank())
    assert f"ok: {shipped + 1} questions" in capsys.readouterr().out

    write(tmp_path / "mine" / "clash.yaml", bank_text(SHIPPED_ID))
    assert main(["validate"]) == 1
    out = capsys.readouterr().out
    assert "clash.yaml:2:" in out and "duplicate id; also defined at" in out


# --- the running app's cache -------------------------------------------------------------------

@pytest.fixture
def folders(tmp_path):
    return [SHIPPED_BANK, tmp_path / "mine"]


def test_a_new_file_shows_up_without_a_restart_and_unchanged_files_are_not_reread(
        tmp_path, folders, monkeypatch):
    cache = BankCache(folders)
    first = cache.current()
    assert "my-q" not in first.bank.questions and first.withheld == ()
    assert cache.current() is first  # nothing changed: the very same object

    reads = []
    import quizbank.live as live

    real = live.read_bank_file
    monkeypatch.setattr(live, "read_bank_file", lambda p: reads.append(p) or real(p))
    write(tmp_path / "mine" / "q.yaml", bank_text("my-q"))
    second = cache.current()
    assert second.bank.questions["my-q"].answer == 1.5
    assert reads == [tmp_path / "mine" / "q.yaml"]  # the shipped files were not read again


def test_an_edited_file_is_reread_even_with_the_same_size(tmp_path, folders):
    path = write(tmp_path / "mine" / "q.yaml", bank_text("my-q", answer="1.5"))
    cache = BankCache(folders)
    assert cache.current().bank.questions["my-q"].answer == 1.5
    # Same length, written through a temporary file and a rename, as the Author page saves.
    tmp = write(tmp_path / "mine" / ".q.tmp", bank_text("my-q", answer="2.5"))
    os.replace(tmp, path)
    assert cache.current().bank.questions["my-q"].answer == 2.5


def test_a_broken_file_withholds_only_its_questions(tmp_path, folders):
    write(tmp_path / "mine" / "good.yaml", bank_text("good-q"))
    write(tmp_path / "mine" / "bad.yaml", bank_text("bad-q", "bad-r").replace(
        "difficulty: easy", "difficulty: impossible", 1))
    live = BankCache(folders).current()
    assert "good-q" in live.bank.questions and SHIPPED_ID in live.bank.questions
    assert "bad-q" not in live.bank.questions and "bad-r" not in live.bank.questions
    (withheld,) = live.withheld
    assert withheld.path.endswith("bad.yaml")
    assert [p.field for p in withheld.problems] == ["difficulty"]
    assert withheld.problems[0].line == 5


def test_a_yaml_syntax_error_withholds_the_file_with_its_line(tmp_path, folders):
    write(tmp_path / "mine" / "broken.yaml", "questions:\n  - id: [unclosed\n")
    live = BankCache(folders).current()
    (withheld,) = live.withheld
    assert "YAML syntax error" in withheld.problems[0].message
    assert len(live.bank) == len(load_bank())


def test_a_clash_with_the_shipped_bank_withholds_the_instructor_file(tmp_path, folders):
    write(tmp_path / "mine" / "clash.yaml", bank_text(SHIPPED_ID, "mine-too"))
    live = BankCache(folders).current()
    shipped = load_bank()
    assert live.bank.questions[SHIPPED_ID] == shipped.questions[SHIPPED_ID]
    assert "mine-too" not in live.bank.questions
    (withheld,) = live.withheld
    (problem,) = withheld.problems
    assert problem.line == 2 and problem.question_id == SHIPPED_ID
    assert f"also defined at {shipped.location(SHIPPED_ID)}" in problem.message


def test_withholding_one_file_withholds_a_file_whose_followup_pointed_into_it(tmp_path, folders):
    write(tmp_path / "mine" / "a_bad.yaml", bank_text("target-q").replace("easy", "nope", 1))
    write(tmp_path / "mine" / "b_interview.yaml", f"""\
questions:
  - id: asks-followup
    type: interview
    topic: residual-basics
    difficulty: easy
    source: {{text: gradient-propagation, section: "一"}}
    prompt: {{en: "Why?"}}
    solution: {{en: "Because."}}
    model_answer: {{en: "Because."}}
    rubric:
      - {{id: why, kind: required, text: {{en: "why"}}, keywords: {{en: [why]}}}}
    followups: [target-q, {SHIPPED_ID}]
""")
    live = BankCache(folders).current()
    assert {Path(w.path).name for w in live.withheld} == {"a_bad.yaml", "b_interview.yaml"}
    (followup,) = next(w for w in live.withheld if w.path.endswith("b_interview.yaml")).problems
    assert followup.field == "followups[0]" and followup.line == 12


def test_a_deleted_file_takes_its_questions_with_it(tmp_path, folders):
    path = write(tmp_path / "mine" / "q.yaml", bank_text("my-q"))
    cache = BankCache(folders)
    assert "my-q" in cache.current().bank.questions
    path.unlink()
    assert "my-q" not in cache.current().bank.questions
