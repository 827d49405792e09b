"""Bank text with its images: `![alt](name.png)` draws the file `name.png` of the folder named after
the question's bank file (`quizbank.images`), through `st.image`, which serves the bytes from
Streamlit's media endpoint with the image's own type. Nothing is built as HTML, and a web address
or a name outside the folder is never fetched: it is shown as "image not available".

Where Streamlit draws text that cannot hold a picture (a radio or checkbox label, a verdict), the
reference becomes its alt text (`images_as_text`), and `bank_images` draws the pictures nearby.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from app_pages.widgets import resources
from quizbank.images import (
    IMAGE_REF,
    ImageRef,
    images_as_text,
    images_folder,
    read_image,
    split_images,
)
from tutor.i18n import t

__all__ = ["IMAGE_REF", "bank_images", "bank_markdown", "images_as_text"]


def _folder(question_id: str) -> Path | None:
    path = resources.bank().location(question_id).path
    return images_folder(Path(path)) if path.endswith((".yaml", ".yml")) else None


def _image(ref: ImageRef, folder: Path | None, lang: str) -> None:
    data = read_image(folder, ref.name) if folder is not None else None
    if data is None:
        st.caption(t("practice.image_unavailable", lang, name=ref.alt or ref.name))
    else:
        st.image(data, caption=ref.alt or None)


def bank_markdown(text: str, question_id: str, lang: str) -> None:
    """`text` as Markdown, each image reference drawn as its picture in its place."""
    if IMAGE_REF.search(text) is None:  # the common case: one Markdown block, as before
        st.markdown(text)
        return
    folder = _folder(question_id)
    for piece in split_images(text):
        if isinstance(piece, ImageRef):
            _image(piece, folder, lang)
        elif piece.strip():
            st.markdown(piece)


def bank_images(text: str, question_id: str, lang: str) -> None:
    """Only the pictures `text` refers to (for text drawn by `images_as_text`)."""
    refs = [p for p in split_images(text) if isinstance(p, ImageRef)]
    if refs:
        folder = _folder(question_id)
        for ref in refs:
            _image(ref, folder, lang)
