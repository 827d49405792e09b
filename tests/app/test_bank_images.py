"""Bank text with images (issue 22): a reference to a file of the question's bank folder is drawn
as that picture; a web address, a path out of the folder, a fake or missing file is never fetched
or served, only named."""

from __future__ import annotations

import base64
from types import SimpleNamespace

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.widgets import resources
from quizbank.bank import SourceLocation

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLv"
                       "AAAAAElFTkSuQmCC")


def _page():
    import streamlit as st

    from app_pages.widgets.bank_text import bank_markdown

    bank_markdown(st.session_state["text"], "pictured", st.session_state["lang"])


@pytest.fixture
def bank_folder(tmp_path, monkeypatch):
    (tmp_path / "week-3").mkdir()
    (tmp_path / "week-3" / "block.png").write_bytes(PNG)
    (tmp_path / "week-3" / "fake.png").write_bytes(b"<svg onload='alert(1)'/>")
    (tmp_path / "secret.png").write_bytes(PNG)
    location = SourceLocation(str(tmp_path / "week-3.yaml"), 3)
    monkeypatch.setattr(resources, "bank", lambda: SimpleNamespace(location=lambda qid: location))
    return tmp_path


def draw(text: str, lang: str = "en") -> AppTest:
    at = AppTest.from_function(_page, default_timeout=60)  # the first run imports the page modules: seconds on a loaded machine
    at.session_state["text"], at.session_state["lang"] = text, lang
    at.run()
    assert not at.exception
    return at


def test_a_picture_of_the_bank_folder_is_drawn_in_its_place(bank_folder):
    at = draw("Before ![A residual block](block.png) after $x$.")
    assert [m.value.strip() for m in at.markdown] == ["Before", "after $x$."]
    (image,) = at.get("image")
    assert image.captions == ["A residual block"]
    assert "/media/" in image.value[0]  # served by the app's media endpoint


@pytest.mark.parametrize("reference", ["https://tracker.example/p.png", "../secret.png",
                                       "fake.png", "missing.png", "block.svg"])
@pytest.mark.parametrize(("lang", "words"), [("en", "image not available"),
                                             ("zh", "图片无法显示")])
def test_anything_else_is_named_never_fetched(bank_folder, reference, lang, words):
    at = draw(f"See ![]({reference}).", lang)
    assert at.get("image") == []
    assert [c.value for c in at.caption] == [
        f"({words}: {reference})" if lang == "en" else f"（{words}：{reference}）"]


def test_text_without_pictures_is_one_markdown_block(bank_folder):
    at = draw("Plain **text** with $y = x + F(x)$.")
    assert [m.value for m in at.markdown] == ["Plain **text** with $y = x + F(x)$."]
