"""Files embedded in a Moodle question: `<file name="logo.jpg" path="/" encoding="base64">…</file>`
next to the `<text>` of the field whose HTML refers to them as `@@PLUGINFILE@@/logo.jpg`.

An embedded file is kept only when it is an image we show (`quizbank.images`: PNG, JPEG, GIF,
WebP by its bytes, at most `MAX_IMAGE_BYTES`) and the field's text shows it in an `<img>`; it is
stored under a content-addressed safe name. Every other file (a sound, a PDF, an SVG, a file the
text only links to or never mentions, one too large or not decodable) is named in the import's
notes, never dropped silently.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from ..images import MAX_IMAGE_BYTES, stored_image_name


@dataclass(frozen=True)
class Embedded:
    name: str  # as the field's text refers to it: `path/name` without the leading slash
    data: bytes | None  # None: could not be read (see `problem`)
    stored: str | None  # the safe name it is kept under, or None when it is not an image we show
    problem: str | None = None  # "too_large", "not_base64"


def _reference_name(file: Element) -> str:
    folder = (file.get("path") or "/").strip("/")
    name = file.get("name") or ""
    return f"{folder}/{name}" if folder else name


def embedded_files(field: Element | None) -> list[Embedded]:
    """The files embedded in one field (its direct `<file>` children)."""
    found = []
    for file in ([] if field is None else field.findall("file")):
        name = _reference_name(file)
        if (file.get("encoding") or "base64").lower() != "base64":
            found.append(Embedded(name, None, None, "not_base64"))
            continue
        text = "".join((file.text or "").split())
        # base64 is 4 characters for 3 bytes: refuse before decoding a file that is too large.
        if len(text) // 4 * 3 > MAX_IMAGE_BYTES + 3:
            found.append(Embedded(name, None, None, "too_large"))
            continue
        try:
            data = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            found.append(Embedded(name, None, None, "not_base64"))
            continue
        if len(data) > MAX_IMAGE_BYTES:
            found.append(Embedded(name, None, None, "too_large"))
            continue
        found.append(Embedded(name, data, stored_image_name(name, data)))
    return found
