"""The per-run caches of the question widgets (issue 14): each returns what it would compute
afresh, per language and per text."""

from app_pages.widgets import answer_inputs
from tutor.i18n import t


def test_confidence_labels_are_built_per_language():
    for lang in ("zh", "en"):
        labels = answer_inputs._confidence_labels(lang)
        assert labels == {c: t(f"practice.confidence_{c}", lang) for c in answer_inputs.CONFIDENCES}
    assert answer_inputs._confidence_labels("zh") != answer_inputs._confidence_labels("en")


def test_labelled_uses_the_language_given():
    label = answer_inputs.labelled("practice.confidence_", answer_inputs.CONFIDENCES, "en")
    assert label("high") == t("practice.confidence_high", "en")


def test_the_preview_cache_answers_as_the_grader_does():
    import grader

    for text, lang in (("1 + x", "en"), ("1 + x", "zh"), ("(1+", "en"), ("a*b", "en")):
        cached = answer_inputs._preview(text, ("a", "b", "x"), (), (), lang)
        assert cached == grader.preview(text, lang=lang, symbols=("a", "b", "x"))
        assert answer_inputs._preview(text, ("a", "b", "x"), (), (), lang) is cached
    # the names declared are part of the key: an undeclared name reads differently
    assert answer_inputs._preview("a*b", (), (), (), "en") == grader.preview("a*b", lang="en")


def test_a_long_text_is_previewed_without_being_kept(monkeypatch):
    import streamlit as st

    class Question:
        symbols, functions, matrices = ("x",), (), ()

    answer_inputs._preview.cache_clear()
    monkeypatch.setattr(st, "caption", lambda *a, **k: None)
    monkeypatch.setattr(st, "latex", lambda *a, **k: None)
    monkeypatch.setattr(st, "code", lambda *a, **k: None)
    answer_inputs.show_preview("x + " * 200 + "1", Question(), "en")
    assert answer_inputs._preview.cache_info().currsize == 0
    answer_inputs.show_preview("x + 1", Question(), "en")
    assert answer_inputs._preview.cache_info().currsize == 1
