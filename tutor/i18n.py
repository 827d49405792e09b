"""Every learner-facing UI string, in zh and en.

Strings live in namespaced JSON files, ``tutor/locales/<lang>/<namespace>.json``; a key's first
dotted segment names its file (``explore.multiplier.title`` is in ``explore.json``), so each page
owns its own file and two engineers never edit the same one. The files are read once per process
and cached: they are immutable and shared by every session.

A string that counts something has one form per plural category of its language, as an object
under its key: ``{"one": "1 file is withheld", "other": "{n} files are withheld"}`` in English,
``{"other": "{n} 个文件……"}`` in Chinese (which has no plural forms); ``tn`` picks the form.
"""

from __future__ import annotations

import json
import string
from functools import cache
from pathlib import Path

LANGUAGES: tuple[str, ...] = ("zh", "en")
DEFAULT_LANGUAGE = "zh"
LOCALES_DIR = Path(__file__).parent / "locales"


class MissingTranslation(KeyError):
    """A key that no locale file defines (a programming error, never a learner's)."""


def normalize_language(value: object) -> str:
    """Map anything (a query parameter, a browser locale like ``zh-CN``) to ``zh`` or ``en``."""
    text = str(value or "").strip().lower()
    for lang in LANGUAGES:
        if text == lang or text.startswith(lang + "-") or text.startswith(lang + "_"):
            return lang
    return DEFAULT_LANGUAGE


@cache
def namespaces() -> tuple[str, ...]:
    """Namespaces present in any language (a namespace missing in one language is a test failure)."""
    names = {p.stem for lang in LANGUAGES for p in (LOCALES_DIR / lang).glob("*.json")}
    return tuple(sorted(names))


@cache
def catalog(lang: str, namespace: str) -> dict[str, str]:
    """The flat ``key -> text`` mapping of one namespace file (keys include the namespace)."""
    path = LOCALES_DIR / lang / f"{namespace}.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    flat: dict[str, str] = {}
    _flatten(data, namespace, flat, path)
    return flat


def _flatten(node: object, prefix: str, out: dict[str, str], path: Path) -> None:
    # Files may nest objects or use dotted keys; both spell the same full key.
    if isinstance(node, str):
        out[prefix] = node
    elif isinstance(node, dict):
        for key, child in node.items():
            _flatten(child, f"{prefix}.{key}", out, path)
    else:
        raise ValueError(f"{path}: {prefix} must be a string or an object, not {type(node).__name__}")


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` fields a string expects (``{{`` escapes are not fields)."""
    return frozenset(
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(text)
        if field
    )


def has(key: str, lang: str = DEFAULT_LANGUAGE) -> bool:
    """Whether ``key`` is defined (used for optional labels such as a template's answer names)."""
    return key in catalog(normalize_language(lang), key.split(".", 1)[0])


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of the count ``n``: English has "one" (exactly 1) and "other";
    Chinese has only "other"."""
    return "one" if normalize_language(lang) == "en" and n == 1 else "other"


def tn(key: str, lang: str, n: int, **fmt: object) -> str:
    """The text of the counting string ``key`` for ``n`` things (``n`` is also a field): its
    ``key.one`` or ``key.other`` form, by ``plural_category``."""
    category = plural_category(lang, n)
    if category != "other" and not has(f"{key}.{category}", lang):
        category = "other"
    return t(f"{key}.{category}", lang, n=n, **fmt)


def t(key: str, lang: str, **fmt: object) -> str:
    """The text of ``key`` in ``lang``, formatted with ``fmt``.

    Every string is a ``str.format`` template (literal braces are doubled, ``{{``), so it is always
    formatted. Falls back to the other language when one file lacks the key (the test suite keeps
    that from happening); raises ``MissingTranslation`` when no language has it.
    """
    lang = normalize_language(lang)
    namespace = key.split(".", 1)[0]
    for candidate in (lang, *[other for other in LANGUAGES if other != lang]):
        text = catalog(candidate, namespace).get(key)
        if text is not None:
            return text.format(**fmt)
    raise MissingTranslation(key)
