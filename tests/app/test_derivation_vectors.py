"""Issue 25 item 3 on the Derivation checker's flow: the `vectors` box (read, checked against the
other boxes, carried in a share link and a saved derivation, sent with the request) and a vector
derivation checked from it, in both languages; and the texts' vector presets fill it."""

import pytest

import grader
from grader import StepStatus
from quizbank.text_derivations import text_derivations
from tests.app.derivation_rows import START, row_kinds
from tutor.sessions.derivation_check import (
    DerivationFields,
    NameProblem,
    check_derivation,
    declarations_from_text,
    fields_from_saved,
)


def check(text, decl, lang="en"):
    return check_derivation(text.splitlines(), decl, lang=lang, check=grader.check,
                            preview=grader.preview, split=grader.split_derivation)


def test_the_vectors_box_is_read_and_sent_with_the_request():
    decl, problems = declarations_from_text("", "F, L", "W", vectors="x, y, F",
                                            relations="y = x + Wx")
    assert problems == []
    assert decl.vectors == ("x", "y", "F")
    assert decl.request_fields()["vectors"] == ["x", "y", "F"]


def test_a_vector_that_is_also_a_symbol_or_matrix_keeps_its_first_declaration():
    decl, problems = declarations_from_text("x", "", "W", vectors="x, W, 1v, y")
    assert decl.vectors == ("y",)
    assert problems == [NameProblem("vectors", "1v"), NameProblem("vectors", "x", "symbols"),
                        NameProblem("vectors", "W", "matrices")]


def test_a_request_without_vectors_is_the_one_it_was():
    decl, _ = declarations_from_text("x", "F", "")
    assert "vectors" not in decl.request_fields()


def test_the_vectors_travel_in_the_link_and_in_a_saved_derivation():
    draft = DerivationFields(matrices="W", vectors="x, y", lines="\\nabla_x L")
    assert DerivationFields.from_params(draft.params()) == draft
    assert fields_from_saved(draft.params()) == draft
    assert fields_from_saved({"vectors": "x" * 301}) is None  # beyond its box's limit


@pytest.mark.parametrize(("lang", "words"), [("en", "row vector"), ("zh", "行向量")])
def test_a_gradient_is_checked_from_the_boxes_and_a_row_for_a_column_is_named(lang, words):
    decl, _ = declarations_from_text("", "L", "W", vectors="x, y", relations="y = x + Wx")
    report = check("\\nabla_x L\n(I+W)^T \\nabla_y L\n(\\nabla_y L)^T (I+W)", decl, lang)
    assert row_kinds(report) == [START, StepStatus.VERIFIED, StepStatus.DOES_NOT_FOLLOW]
    assert words in report.lines[2].feedback


def test_every_vector_preset_declares_its_vectors_for_the_box():
    presets = [d for d in text_derivations().values() if "vectors" in d.notation]
    assert len(presets) >= 10
    assert all(d.vectors or d.matrices for d in presets)
    decl, problems = declarations_from_text(
        ", ".join(presets[0].symbols), ", ".join(presets[0].functions),
        ", ".join(presets[0].matrices), vectors=", ".join(presets[0].vectors),
        relations="; ".join(presets[0].relations))
    assert problems == [] and decl.vectors == tuple(presets[0].vectors)
    report = check(presets[0].lines.en, decl)
    assert report.all_verified
