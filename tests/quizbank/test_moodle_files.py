"""Moodle import and export of what issue 22 found dropped silently: embedded images and other
files, categories, numeric mal-rules, author tests, and every element the import does not keep.

The fixtures under fixtures/moodle/ (categories.xml, embedded_files.xml,
invalid_grades_and_idnumbers.xml) were written for these tests with the structures of Moodle's own
fixtures (question/format/xml/tests/fixtures/ in moodle/moodle: nested categories with a
description and an idnumber, true/false and multichoice with files embedded in the text, the
general feedback, answers and answer feedback, grades Moodle refuses, HTML in names and
idnumbers). Their images are 4 x 4 pixels made for them.
"""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path

import pytest
from defusedxml.ElementTree import fromstring

from quizbank import load_bank, parse_bank
from quizbank.authoring import SaveRefused, save_new_file
from quizbank.cli import main
from quizbank.images import (
    MAX_IMAGE_BYTES,
    ImageConflict,
    image_kind,
    images_as_text,
    images_folder,
    read_image,
    split_images,
    stored_image_name,
    write_images,
)
from quizbank.moodle import export_moodle, import_moodle, questions_yaml
from quizbank.moodle.carry import carried_block, read_block
from quizbank.moodle.categories import category_path, category_tag, with_category

MOODLE = Path(__file__).parent / "fixtures" / "moodle"
FIXTURES = ["categories.xml", "embedded_files.xml", "invalid_grades_and_idnumbers.xml",
            "course_export.xml"]
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLv"
                       "AAAAAElFTkSuQmCC")
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'


def imported(name: str):
    return import_moodle((MOODLE / name).read_bytes())


def by_id(result, qid: str) -> dict:
    return next(q for q in result.questions if q["id"] == qid)


def notes(result, code: str, qid: str | None = None) -> list[dict]:
    return [n.params for n in result.notes
            if n.code == code and (qid is None or n.params.get("question") == qid)]


# --- Moodle's fixture structures import without a traceback, nothing dropped silently ----------

@pytest.mark.parametrize("name", FIXTURES)
def test_every_element_the_import_does_not_keep_is_named_in_its_notes(name):
    """Each child of each <question> is either read (a field we map) or named in a note."""
    result = imported(name)
    said = " ".join(str(n) for n in result.notes)
    read = {"name", "questiontext", "generalfeedback", "idnumber", "tags", "hint", "answer",
            "category", "single", "units", "selecttype"}
    for element in fromstring((MOODLE / name).read_bytes()).findall("question"):
        for child in element:
            has_content = (child.text or "").strip() or len(child)
            if child.tag in read or not has_content:
                continue
            question = element.get("type")
            assert child.tag in said or question not in {"multichoice", "truefalse", "numerical",
                                                          "shortanswer", "ordering"}, child.tag


@pytest.mark.parametrize("name", FIXTURES)
def test_every_imported_question_validates_as_a_bank_file(name):
    result = imported(name)
    bank = parse_bank({"questions": result.questions})
    assert len(bank) == len(result.questions) > 0


def test_categories_become_tags_by_the_documented_mapping():
    result = imported("categories.xml")
    assert [by_id(result, q)["tags"] for q in ("identity-path", "gradient-highway",
                                               "residual-zh")] == [
        ["category:deep-learning"], ["category:deep-learning/week-3-skip-connections"],
        ["category:shared-common/深度学习-残差"]]
    # The category's description and idnumber (with HTML characters) are named, not dropped.
    (lost,) = notes(result, "category_not_kept")
    assert lost == {"category": "$course$/top/Deep Learning", "fields": "info, idnumber"}


@pytest.mark.parametrize("path, tag", [
    ("$course$/top/Course/Week 3", "category:course/week-3"),
    ("$course$/Default for DL 101/Figures", "category:default-for-dl-101/figures"),
    ("$system$/top", None),
    ("$course$/top/Residual Tutor", None),  # our export's default category
    ("$module$/top/A//B", "category:a-b"),  # `//` is a slash inside one name
    ("top/Week 3", "category:week-3"),
    ("$course$/top/  ***  /Week 3", "category:week-3"),
    ("$cat1$/深度学习/残差 连接", "category:深度学习/残差-连接"),
])
def test_category_paths_map_to_tags(path, tag):
    assert category_tag(path) == tag


def test_a_category_tag_is_exported_as_its_category_and_imported_back_the_same():
    for tag in ("category:course/week-3", "category:深度学习/残差-连接"):
        assert category_tag(category_path(["x", tag])) == tag
    assert with_category(["a", "category:old", "b"], "category:new") == ["a", "category:new", "b"]
    assert with_category(["a"], "category:new") == ["a", "category:new"]
    assert with_category(["a"], None) == ["a"]


def test_true_false_keeps_its_pictures_and_names_every_other_file():
    result = imported("embedded_files.xml")
    q = by_id(result, "block-diagram-true")
    (block,) = [n for n in result.images if n.startswith("block-")]
    assert q["prompt"]["en"] == f"This ![Residual block]({block}) diagram adds x back."
    (info,) = [n for n in result.images if n.startswith("info-icon-")]
    assert q["solution"]["en"].startswith(f"![Info]({info})")
    (up,) = [n for n in result.images if n.startswith("up-")]
    assert q["options"][0]["feedback"]["en"] == f"![Thumb up]({up}) Right."
    # The SVG (it carries a script) is not kept; the image that is not embedded is named; the
    # image from the web is left out and reported.
    assert notes(result, "files_not_kept", "block-diagram-true") == [
        {"question": "block-diagram-true", "files": "down.svg"}]
    assert notes(result, "images_missing", "block-diagram-true")[0]["files"] == "ghost.png"
    assert "img" in notes(result, "dropped_html", "block-diagram-true")[0]["tags"]
    assert "tracker" not in str(q) and "svg" not in str(q)


def test_multichoice_keeps_an_option_picture_and_names_the_sound_and_the_fake():
    result = imported("embedded_files.xml")
    q = by_id(result, "greeting")
    assert re.fullmatch(r"!\[with skip\]\(block-[0-9a-f]{10}\.png\) A", q["options"][0]["text"]["en"])
    (lost,) = notes(result, "files_not_kept", "greeting")
    assert lost["files"] == "fake.png, hello.mp3"  # HTML named .png is not an image
    assert notes(result, "not_kept", "greeting") == [{"question": "greeting",
                                                      "fields": "correctfeedback"}]


def test_kept_images_have_safe_names_and_are_the_embedded_bytes():
    result = imported("embedded_files.xml")
    assert len(result.images) == 4  # block.png once, though two fields embed it
    for name, data in result.images.items():
        assert re.fullmatch(r"[a-z0-9-]+-[0-9a-f]{10}\.(png|jpg|gif)", name), name
        assert image_kind(data) in {"png", "jpeg", "gif"}
    # A file embedded as `/sub/../../../etc/passwd.png` is stored under a plain name.
    assert any(n.startswith("passwd-") for n in result.images)
    assert not any("/" in n or ".." in n for n in result.images)


def test_grades_moodle_would_refuse_and_html_in_names_and_idnumbers():
    result = imported("invalid_grades_and_idnumbers.xml")
    ids = [q["id"] for q in result.questions]
    assert ids == ["which-are-residual-nets-depth-10-width-5", "t-f-script"]
    q = by_id(result, ids[0])
    assert [o["correct"] for o in q["options"]] == [False, True, True, False, True]
    (replaced,) = notes(result, "grades_replaced")
    assert "b 33 %" in replaced["grades"] and "a -50 %" in replaced["grades"]
    assert notes(result, "category_not_kept")[0]["fields"] == "idnumber"
    assert all(q["tags"] == ["category:alpha"] for q in result.questions)


def test_moodle_settings_are_named_once_per_import():
    result = imported("embedded_files.xml")
    (settings,) = notes(result, "moodle_settings")
    assert settings["fields"] == "answernumbering, defaultgrade, hidden, penalty, shuffleanswers"


# --- limits on embedded files ------------------------------------------------------------------

def _question_with_file(data: bytes, name: str = "pic.png", count: int = 1) -> bytes:
    encoded = base64.b64encode(data).decode()
    files = "".join(f'<file name="{k}{name}" encoding="base64">{encoded}</file>'
                    for k in range(count))
    images = "".join(f'<img src="@@PLUGINFILE@@/{k}{name}">' for k in range(count))
    return (f'<quiz><question type="truefalse"><name><text>Pic</text></name>'
            f'<questiontext format="html"><text><![CDATA[<p>{images}</p>]]></text>{files}'
            f'</questiontext><answer fraction="100"><text>true</text></answer>'
            f'<answer fraction="0"><text>false</text><feedback><text>No</text></feedback>'
            f'</answer></question></quiz>').encode()


def test_an_image_over_the_size_limit_is_not_kept_and_is_named():
    big = PNG + b"\0" * MAX_IMAGE_BYTES
    result = import_moodle(_question_with_file(big))
    assert result.images == {}
    assert notes(result, "files_not_kept")[0]["files"] == "0pic.png"


def test_an_svg_named_png_is_not_kept():
    result = import_moodle(_question_with_file(SVG))
    assert result.images == {} and notes(result, "files_not_kept")[0]["files"] == "0pic.png"


def test_a_file_that_is_not_base64_is_named():
    data = _question_with_file(PNG).replace(b'encoding="base64">', b'encoding="base64">!!')
    result = import_moodle(data)
    assert result.images == {} and notes(result, "files_not_kept")


# --- numeric mal-rules, author tests and tries round-trip ------------------------------------------

def _numeric(sample):
    data = sample("numeric") | {
        "answer": 1.5, "tolerance": {"kind": "absolute", "value": 0.01}, "tries": 2,
        "malrules": [{"answer": "0.5", "feedback": {"en": "You left out the identity path.",
                                                    "zh": "漏掉了恒等路径。"}}],
        "tests": [{"answer": "1.5", "verdict": "correct"}, {"answer": "0.5", "verdict": "wrong"},
                  {"answer": "-1.5e-3", "verdict": "wrong"}]}
    return parse_bank({"questions": [data]}).questions[data["id"]]


def test_a_numeric_malrule_is_moodles_zero_grade_answer_with_feedback(sample):
    question = _numeric(sample)
    xml, notes_out = export_moodle([question])
    element = fromstring(xml).findall("question")[1]
    key, wrong = element.findall("answer")
    assert (key.get("fraction"), wrong.get("fraction")) == ("100", "0")
    assert wrong.findtext("text") == "0.5" and wrong.findtext("tolerance") == "0.01"
    assert "identity path" in wrong.findtext("feedback/text")


def test_numeric_malrules_tests_and_tries_come_back_from_moodle(sample):
    question = _numeric(sample)
    xml, _ = export_moodle([question])
    (data,) = import_moodle(xml).questions
    back = parse_bank({"questions": [data]}).questions[question.id]
    assert back.model_dump() == question.model_dump()


def test_the_comment_block_holds_no_double_dash_and_reads_back(sample):
    question = _numeric(sample)
    block = carried_block(question)
    assert block.startswith("<!-- residual-tutor {") and block.endswith("} -->")
    assert "--" not in block[4:-3]  # an HTML comment may not hold `--`
    data, problem = read_block(f"<p>Solution</p>{block}")
    assert problem is None and data["tries"] == 2 and data["tests"][2]["answer"] == "-1.5e-3"


@pytest.mark.parametrize("block, problem", [
    ("<!-- residual-tutor {not json} -->", "Expecting"),
    ('<!-- residual-tutor {"tests": [], "answer": "1"} -->', "unknown fields: answer"),
])
def test_a_bad_comment_block_is_reported_and_nothing_else_is_read_from_it(block, problem):
    xml = (f'<quiz><question type="truefalse"><name><text>Q</text></name>'
           f'<questiontext><text>Q?</text></questiontext>'
           f'<generalfeedback><text><![CDATA[<p>S</p>{block}]]></text></generalfeedback>'
           f'<answer fraction="100"><text>true</text></answer><answer fraction="0">'
           f'<text>false</text><feedback><text>No</text></feedback></answer></question></quiz>')
    result = import_moodle(xml)
    (q,) = result.questions
    assert "tests" not in q and "answer" not in q
    assert problem in notes(result, "block_unread")[0]["problem"]


def test_tests_that_do_not_fit_the_question_make_it_invalid_not_imported(sample):
    question = _numeric(sample)
    xml, _ = export_moodle([question])
    xml = xml.replace("correct", "sideways")
    result = import_moodle(xml)
    assert result.questions == [] and notes(result, "invalid")


# --- images on disk ------------------------------------------------------------------------------

def test_stored_names_follow_the_bytes_not_the_name():
    assert re.fullmatch(r"evil-jpg-[0-9a-f]{10}\.png", stored_image_name("../../evil.jpg.svg",
                                                                          PNG))
    assert stored_image_name("x.png", SVG) is None
    name = stored_image_name("figure.png", PNG)
    assert stored_image_name(name, PNG) == name  # idempotent: an export imports back the same


def test_read_image_refuses_traversal_links_fakes_and_oversize(tmp_path):
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "ok.png").write_bytes(PNG)
    (folder / "fake.png").write_bytes(SVG)
    (folder / "big.png").write_bytes(PNG + b"\0" * MAX_IMAGE_BYTES)
    (folder / "pic.svg").write_bytes(SVG)
    (tmp_path / "secret.png").write_bytes(PNG)
    os.symlink(tmp_path / "secret.png", folder / "link.png")
    assert read_image(folder, "ok.png") == PNG
    for name in ("../secret.png", "/etc/passwd", "link.png", "fake.png", "big.png", "pic.svg",
                 "missing.png", "sub/ok.png", ".png"):
        assert read_image(folder, name) is None, name


def test_write_images_never_overwrites(tmp_path):
    name = stored_image_name("a.png", PNG)
    assert write_images(tmp_path / "f", {name: PNG}) == [tmp_path / "f" / name]
    assert write_images(tmp_path / "f", {name: PNG}) == []  # the same bytes: left as they are
    (tmp_path / "f" / name).write_bytes(PNG + b"x")
    with pytest.raises(ImageConflict):
        write_images(tmp_path / "f", {name: PNG})
    assert (tmp_path / "f" / name).read_bytes() == PNG + b"x"
    with pytest.raises(ValueError):
        write_images(tmp_path / "f", {"../x.png": PNG})
    (tmp_path / "g").write_text("a file where the folder would go")
    with pytest.raises(ImageConflict):
        write_images(tmp_path / "g", {name: PNG})
    os.symlink(tmp_path / "f", tmp_path / "h")
    with pytest.raises(ImageConflict):
        write_images(tmp_path / "h", {name: PNG})


def test_split_images_and_their_text_form():
    text = "See ![a block](b.png) and ![](c.gif)."
    assert [p if isinstance(p, str) else p.name for p in split_images(text)] == [
        "See ", "b.png", " and ", "c.gif", "."]
    assert images_as_text(text) == "See \\[a block\\] and \\[c.gif\\]."
    # Text after the reference cannot turn what is left into a link.
    assert images_as_text("![a](b.png)(javascript:x)") == "\\[a\\](javascript:x)"


# --- the file on disk: command line and the Author page's save ----------------------------------

def test_cli_import_writes_the_images_next_to_the_bank_file_and_exports_them_back(tmp_path,
                                                                                 capsys):
    out = tmp_path / "figures.yaml"
    assert main(["moodle-import", str(MOODLE / "embedded_files.xml"), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "hello.mp3" in printed and "kept 4 images in" in printed
    assert sorted(p.suffix for p in images_folder(out).iterdir()) == [".gif", ".jpg", ".png",
                                                                       ".png"]
    bank = load_bank(out)
    xml_path = tmp_path / "back.xml"
    assert main(["moodle-export", str(out), "-o", str(xml_path)]) == 0
    again = tmp_path / "again.yaml"
    assert main(["moodle-import", str(xml_path), "-o", str(again)]) == 0
    assert [q.model_dump() for q in load_bank(again)] == [q.model_dump() for q in bank]
    assert {p.name: p.read_bytes() for p in images_folder(again).iterdir()} == {
        p.name: p.read_bytes() for p in images_folder(out).iterdir()}


def test_export_names_an_image_that_is_not_in_the_folder(tmp_path, capsys):
    out = tmp_path / "figures.yaml"
    main(["moodle-import", str(MOODLE / "embedded_files.xml"), "-o", str(out)])
    for picture in images_folder(out).glob("up-*"):
        picture.unlink()
    main(["moodle-export", str(out), "-o", str(tmp_path / "back.xml")])
    assert re.search(r"the image up-[0-9a-f]{10}\.gif is not in its bank folder",
                     capsys.readouterr().out)


def test_the_author_pages_save_writes_the_images_and_refuses_to_overwrite_one(tmp_path):
    result = imported("embedded_files.xml")
    text = questions_yaml(result.questions)
    bank = parse_bank({"questions": []})
    path = save_new_file(text, bank, folder=tmp_path, file_name="figs.yaml",
                         images=result.images)
    assert sorted(p.name for p in images_folder(path).iterdir()) == sorted(result.images)
    other = tmp_path / "figs2"
    other.mkdir()
    name = next(iter(result.images))
    (other / name).write_bytes(b"someone else's picture")
    with pytest.raises(SaveRefused):
        save_new_file(text, bank, folder=tmp_path, file_name="figs2.yaml", images=result.images)
    assert (other / name).read_bytes() == b"someone else's picture"
    assert not (tmp_path / "figs2.yaml").exists()


def test_old_images_answer_parts_and_hint_flags_are_named():
    """Moodle's pre-2.0 `<image>`/`<image_base64>`, a part of an answer we do not read and a
    hint's interactive-mode flags: each named, none dropped silently."""
    xml = ('<quiz><question type="numerical"><name><text>Old</text></name>'
           '<questiontext><text>2 + 2?</text></questiontext>'
           '<image>old.png</image><image_base64>iVBORw0KGgo=</image_base64>'
           '<answer fraction="100"><text>4</text><tolerance>0</tolerance>'
           '<tolerancetype>2</tolerancetype></answer>'
           '<answer fraction="0"><text>5</text><feedback><text></text></feedback></answer>'
           '<hint><text>Count.</text><shownumcorrect/><clearwrong/></hint>'
           '</question></quiz>')
    result = import_moodle(xml)
    (q,) = result.questions
    assert q["hints"] == [{"en": "Count."}]
    assert notes(result, "not_kept", "old") == [
        {"question": "old", "fields": "image, image_base64, answer/tolerancetype"}]
    assert notes(result, "wrong_answers_not_kept", "old")[0]["answers"] == "5"
    assert notes(result, "moodle_settings")[0]["fields"] == "hint/clearwrong, hint/shownumcorrect"


def test_no_more_than_the_import_limit_of_images_is_kept(monkeypatch):
    from quizbank.moodle import imports

    monkeypatch.setattr(imports, "MAX_IMAGES_PER_IMPORT", 2)
    pictures = [stored_image_name(f"{k}.png", PNG + bytes([k])) for k in range(3)]
    files = "".join(f'<file name="{k}.png" encoding="base64">'
                    f'{base64.b64encode(PNG + bytes([k])).decode()}</file>' for k in range(3))
    xml = ('<quiz><question type="truefalse"><name><text>Many</text></name><questiontext>'
           '<text><![CDATA[' + "".join(f'<img src="@@PLUGINFILE@@/{k}.png">' for k in range(3))
           + ']]></text>' + files + '</questiontext><answer fraction="100"><text>true</text>'
           '</answer><answer fraction="0"><text>false</text><feedback><text>No</text></feedback>'
           '</answer></question></quiz>')
    result = import_moodle(xml)
    assert sorted(result.images) == sorted(pictures[:2])
    assert notes(result, "files_not_kept")[0]["files"] == "2.png"
