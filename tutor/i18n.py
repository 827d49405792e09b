"""Every learner-facing UI string, in zh and en.

Strings live in namespaced JSON files, ``<strings dir>/<lang>/<namespace>.json``; a key's first
dotted segment names its file (``explore.multiplier.title`` is in ``explore.json``), so each page
owns its own file and two engineers never edit the same one. Each layer keeps its strings next to
its code: the strings tutor's code uses in ``tutor/locales``, the pages' in ``app_pages/strings``,
which the page layer adds with ``add_strings`` when it is imported (tutor never imports the pages:
the dependency runs one way). A namespace may have a file in both places; a key is defined in one
of them only. The files are read once per process and cached: they are immutable and shared by
every session.

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
LOCALES_DIR = Path(__file__).parent / "locales"  # the strings tutor's own code uses


class MissingTranslation(KeyError):
    """A key that no locale file defines (a programming error, never a learner's)."""


class DuplicateString(ValueError):
    """A key defined in two strings directories (a programming error: which text is meant?)."""


class _Strings:
    """The directories `t` reads and the catalogs read from them so far, ``(lang, namespace) ->
    {key: text}``. `add_strings` replaces the whole object, never changes its directories: a
    catalog read before a layer added its directory is never served after it, even to a thread
    that was reading meanwhile. Filling the dict from two threads at once reads a file twice and
    keeps either copy (the same)."""

    __slots__ = ("directories", "catalogs")

    def __init__(self, directories: tuple[Path, ...]) -> None:
        self.directories = directories
        self.catalogs: dict[tuple[str, str], dict[str, str]] = {}

    def catalog(self, lang: str, namespace: str) -> dict[str, str]:
        found = self.catalogs.get((lang, namespace))
        if found is None:
            found = self.catalogs[(lang, namespace)] = _read_catalog(self.directories, lang,
                                                                     namespace)
        return found


_strings = _Strings((LOCALES_DIR,))


def add_strings(directory: Path) -> None:
    """Let `t` read ``directory/<lang>/<namespace>.json`` too (a layer above tutor adds its own
    strings this way, once, when it is imported). Adding a directory twice changes nothing."""
    global _strings
    directory = Path(directory)
    if directory not in _strings.directories:
        _strings = _Strings((*_strings.directories, directory))


def string_directories() -> tuple[Path, ...]:
    """The directories `t` reads: ``tutor/locales`` and those added since."""
    return _strings.directories


def normalize_language(value: object) -> str:
    """Map anything (a query parameter, a browser locale like ``zh-CN``) to ``zh`` or ``en``."""
    text = str(value or "").strip().lower()
    for lang in LANGUAGES:
        if text == lang or text.startswith(lang + "-") or text.startswith(lang + "_"):
            return lang
    return DEFAULT_LANGUAGE


def namespaces() -> tuple[str, ...]:
    """Namespaces present in any language and directory (a namespace missing in one language is
    a test failure)."""
    return _namespaces(_strings.directories)


@cache
def _namespaces(directories: tuple[Path, ...]) -> tuple[str, ...]:
    names = {p.stem for d in directories for lang in LANGUAGES for p in (d / lang).glob("*.json")}
    return tuple(sorted(names))


def catalog(lang: str, namespace: str) -> dict[str, str]:
    """The flat ``key -> text`` mapping of one namespace in one language (keys include the
    namespace), from every strings directory; ``DuplicateString`` if two of them define a key."""
    return _strings.catalog(lang, namespace)


def _read_catalog(directories: tuple[Path, ...], lang: str, namespace: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    paths = [directory.joinpath(lang, f"{namespace}.json") for directory in directories]
    for at, path in enumerate(paths):
        found = file_strings(path, namespace)
        if twice := merged.keys() & found.keys():
            key = min(twice)
            first = next(p for p in paths[:at] if key in file_strings(p, namespace))
            raise DuplicateString(f"{key} is defined twice: in {first} and in {path}")
        merged.update(found)
    return merged


def file_strings(path: Path, namespace: str | None = None) -> dict[str, str]:
    """The flat ``key -> text`` mapping of one file (none if it does not exist); the namespace is
    the file's name unless given."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:  # one system call where a check first would make two
        return {}
    flat: dict[str, str] = {}
    _flatten(data, namespace or path.stem, flat, path)
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
    return key in _strings.catalog(normalize_language(lang), key.split(".", 1)[0])


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
    strings = _strings  # one set of directories for the whole call
    for candidate in (lang, *[other for other in LANGUAGES if other != lang]):
        text = strings.catalog(candidate, namespace).get(key)
        if text is not None:
            return text.format(**fmt)
    raise MissingTranslation(key)
