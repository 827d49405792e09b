"""Our own words on a Streamlit file uploader.

Streamlit draws its uploader's button ("Upload") and note ("20MB per file") in English and offers
no parameter for them (streamlit/streamlit#13500, open). `uploader_css` hides their text and shows
ours instead, in CSS scoped to the uploader inside one keyed container (`st.container(key=…)`).
What stays English: the "Drag and drop a file here" overlay shown only while a file is dragged
over the box, the error for a file over the size limit, and the hidden input's screen-reader name.
"""

from __future__ import annotations


def css_string(text: str) -> str:
    """A CSS string literal's contents (our own strings only, never learner text)."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def uploader_css(box_key: str, button: str, note: str) -> str:
    """CSS that shows `button` and `note` in the uploader inside the container `box_key`."""
    box = f".st-key-{box_key} [data-testid=stFileUploaderDropzone]"
    button, note = css_string(button), css_string(note)
    return (
        "<style>"
        f"{box} button [data-testid=stMarkdownContainer] p,"
        f"{box} [data-testid=stFileUploaderDropzoneInstructions] span {{font-size: 0}}"
        f'{box} button [data-testid=stMarkdownContainer] p::after {{content: "{button}"; font-size: 14px}}'
        f'{box} [data-testid=stFileUploaderDropzoneInstructions] span::after {{content: "{note}"; font-size: 14px}}'
        "</style>"
    )
