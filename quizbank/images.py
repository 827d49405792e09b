"""Images in bank text: `![alt](name.png)` in a prompt, hint, solution or feedback names a file in
the folder named after the bank file (`week-3.yaml` -> `week-3/name.png`).

A reference is a bare file name (letters, digits, `.`, `_`, `-`; no folder, so no `../`) ending in
an image type that is safe to show: PNG, JPEG, GIF or WebP. SVG is never an image here: it can
carry script. A file is shown only if it lies inside the bank file's folder (symbolic links
resolved), is at most `MAX_IMAGE_BYTES`, and its first bytes say it is the type its name says;
anything else is "not available" and the app shows the reference's name instead. The app serves
a file's bytes through Streamlit's media endpoint (`st.image`), never as HTML.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

MAX_IMAGE_BYTES = 2 * 1024 * 1024
MAX_IMAGES_PER_IMPORT = 200
EXTENSIONS = {"png": "png", "jpg": "jpeg", "jpeg": "jpeg", "gif": "gif", "webp": "webp"}
IMAGE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,119}\.(?:png|jpe?g|gif|webp)", re.I)
IMAGE_REF = re.compile(r"!\[([^\]\n]*)\]\(([^()\s]+)\)")


@dataclass(frozen=True)
class ImageRef:
    alt: str
    name: str


def image_kind(data: bytes) -> str | None:
    """"png", "jpeg", "gif" or "webp" by the file's signature; None for anything else (SVG, HTML,
    a PDF or a sound file renamed to .png)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def images_folder(bank_file: Path) -> Path:
    """`…/week-3.yaml` -> `…/week-3/`: where that file's images live."""
    return bank_file.with_suffix("")


def split_images(text: str) -> list[str | ImageRef]:
    """The text as Markdown pieces and the image references between them."""
    pieces: list[str | ImageRef] = []
    last = 0
    for match in IMAGE_REF.finditer(text):
        if match.start() > last:
            pieces.append(text[last:match.start()])
        pieces.append(ImageRef(match.group(1).strip(), match.group(2)))
        last = match.end()
    if last < len(text):
        pieces.append(text[last:])
    return pieces


def image_names(text: str) -> list[str]:
    return [m.group(2) for m in IMAGE_REF.finditer(text)]


def images_as_text(text: str) -> str:
    """Where an image cannot be drawn (an option's label): its alt text, or its name, in escaped
    brackets (`\\[alt\\]`, shown as [alt]), so text after it can never make it a link."""
    return IMAGE_REF.sub(lambda m: f"\\[{m.group(1).strip() or m.group(2)}\\]", text)


def read_image(folder: Path, name: str) -> bytes | None:
    """The image `name` in `folder`, or None when it is not one we show (see the module)."""
    if not IMAGE_NAME.fullmatch(name):
        return None
    root = folder.resolve()
    path = (folder / name).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        return None
    if path.stat().st_size > MAX_IMAGE_BYTES:
        return None
    data = path.read_bytes()
    wanted = EXTENSIONS[name.rsplit(".", 1)[1].lower()]
    return data if image_kind(data) == wanted and len(data) <= MAX_IMAGE_BYTES else None


def stored_image_name(original: str, data: bytes) -> str | None:
    """A safe, content-addressed file name for an image (`logo-1a2b3c4d.jpg`), or None when the
    bytes are not an image we show. The original name gives only a readable stem: its folders,
    dots and any other characters are dropped, and the extension follows the bytes, not the name."""
    kind = image_kind(data)
    if kind is None:
        return None
    stem = original.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    digest = hashlib.sha256(data).hexdigest()[:10]
    stem = re.sub(r"[^a-z0-9]+", "-", stem.lower()).removesuffix(f"-{digest}")  # our own name
    stem = stem.strip("-")[:40].strip("-") or "image"
    return f"{stem}-{digest}.{'jpg' if kind == 'jpeg' else kind}"


class ImageConflict(ValueError):
    """A file of that name exists in the folder with other content; it is never overwritten."""


def write_images(folder: Path, images: dict[str, bytes]) -> list[Path]:
    """Write each image into `folder` (created if needed). A file already there with the same bytes
    is left as it is; one with other bytes raises ImageConflict before anything is written. Names
    must be `stored_image_name`s."""
    if folder.exists() and (folder.is_symlink() or not folder.is_dir()):
        raise ImageConflict(f"{folder} exists and is not a folder")
    targets = []
    for name, data in images.items():
        if not IMAGE_NAME.fullmatch(name) or image_kind(data) is None:
            raise ValueError(f"not a stored image name or not an image: {name!r}")
        target = folder / name
        if target.is_symlink() or (target.exists() and target.read_bytes() != data):
            raise ImageConflict(f"{target} exists with other content; not overwritten")
        targets.append(target)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for target, data in zip(targets, images.values(), strict=True):
        if target.exists():
            continue
        # O_EXCL: never follow or replace a file that appeared since the check above.
        handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        written.append(target)
    return written
