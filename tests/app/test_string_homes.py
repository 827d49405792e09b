"""Each UI string lives next to the code that names it (tutor/i18n.py, issue 26): strings only the
page layer names in `app_pages/strings`, strings core code names in `tutor/locales`; each key once,
in both languages; every key a page passes to `t` resolves; tutor reads its own strings without
importing the pages. Who names a key is read from the code (tests/app/string_users.py)."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import textwrap
import tomllib
from functools import cache
from pathlib import Path, PurePosixPath

import pytest

from app_pages import STRINGS_DIR
from tests.app import string_users
from tests.test_import_circles import import_graph
from tutor import i18n
from tutor.i18n import LANGUAGES, LOCALES_DIR, file_strings

ROOT = Path(__file__).resolve().parents[2]
DIRECTORIES = {"core": LOCALES_DIR, "pages": STRINGS_DIR}
assert {layer: ROOT / home for layer, home in string_users.HOMES.items()} == DIRECTORIES


@cache
def uses() -> tuple[string_users.KeyUse, ...]:
    return tuple(string_users.key_uses(ROOT, i18n.namespaces()))


def string_files():
    """(layer, lang, path) for every strings file."""
    return [(layer, lang, path) for layer, directory in DIRECTORIES.items()
            for lang in LANGUAGES for path in sorted((directory / lang).glob("*.json"))]


def where(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_every_string_lives_with_the_code_that_names_it():
    misplaced = []
    for layer, lang, path in string_files():
        for key in file_strings(path):
            home = string_users.home(key, uses())
            if home is not None and home != layer:
                named_by = ", ".join(str(u) for u in string_users.users(key, uses())[:3])
                misplaced.append(f"{key} is in {where(path)}, but {home} code names it ({named_by}):"
                                 f" it belongs in {where(DIRECTORIES[home] / lang / path.name)}")
    assert misplaced == [], "run .venv/bin/python scripts/move_strings.py:\n" + "\n".join(misplaced)


def test_no_key_is_defined_in_both_places():
    twice = []
    for lang in LANGUAGES:
        for namespace in i18n.namespaces():
            files = [DIRECTORIES[layer] / lang / f"{namespace}.json" for layer in DIRECTORIES]
            core, pages = (file_strings(f, namespace) for f in files)
            twice += [f"{key}: {where(files[0])} and {where(files[1])}" for key in core if key in pages]
    assert twice == []


def english_only(key: str, zh_keys) -> bool:
    # Chinese has no plural forms: a counting string's English "one" form has no Chinese twin,
    # but its "other" form must have one.
    return key.endswith(".one") and key.removesuffix(".one") + ".other" in zh_keys


@pytest.mark.parametrize("layer", DIRECTORIES)
def test_every_key_is_in_both_languages_in_the_same_place(layer):
    directory, lonely = DIRECTORIES[layer], []
    for namespace in i18n.namespaces():
        files = {lang: directory / lang / f"{namespace}.json" for lang in LANGUAGES}
        keys = {lang: file_strings(files[lang], namespace).keys() for lang in LANGUAGES}
        lonely += [f"{key} is in {where(files['en'])}, not in {where(files['zh'])}"
                   for key in keys["en"] - keys["zh"] if not english_only(key, keys["zh"])]
        lonely += [f"{key} is in {where(files['zh'])}, not in {where(files['en'])}"
                   for key in keys["zh"] - keys["en"]]
    assert lonely == []


TRANSLATE = {"t": False, "tr": False, "tn": True, "tr_n": True}  # name -> counts (has plural forms)


def keys_passed_to_t(path: Path):
    """(line, key or f-string pattern, is a pattern, counts) for each `t`/`tr`/`tn`/`tr_n` call
    whose first argument is written out (variables hold keys the walker finds elsewhere)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", None))
        if name not in TRANSLATE:
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            yield node.lineno, first.value, False, TRANSLATE[name]
        elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
            regex = "".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".+"
                            for v in first.values)
            yield node.lineno, regex, True, TRANSLATE[name]


def unresolved(layer: str, defined: dict[str, set[str]]) -> list[str]:
    missing = []
    for path in string_users.layer_files(ROOT, layer):
        for line, key, pattern, counts in keys_passed_to_t(path):
            for lang in LANGUAGES:
                wanted = f"{key}\\.other" if counts and pattern else f"{key}.other" if counts else key
                found = (any(re.fullmatch(wanted, k) for k in defined[lang]) if pattern
                         else wanted in defined[lang])
                if not found:
                    missing.append(f"{where(path)}:{line} {key} ({lang})")
    return missing


def test_every_key_a_page_passes_to_t_resolves_in_both_languages():
    defined = {lang: {k for ns in i18n.namespaces() for k in i18n.catalog(lang, ns)}
               for lang in LANGUAGES}
    assert sum(1 for path in string_users.layer_files(ROOT, "pages")
               for _ in keys_passed_to_t(path)) > 300  # the scan itself works
    assert unresolved("pages", defined) == []


TUTOR_ALONE = textwrap.dedent("""
    import importlib, json, pkgutil, sys
    import tutor
    for module in pkgutil.walk_packages(tutor.__path__, "tutor."):
        if not module.name.startswith("tutor.migrations"):  # Alembic's scripts, run by Alembic
            importlib.import_module(module.name)
    from tutor import i18n
    print(json.dumps({
        "pages imported": sorted(m for m in sys.modules if m.split(".")[0] == "app_pages"),
        "directories": [str(d) for d in i18n.string_directories()],
        "defined": {lang: sorted(k for ns in i18n.namespaces() for k in i18n.catalog(lang, ns))
                    for lang in i18n.LANGUAGES},
    }))
""")


def test_tutor_reads_its_strings_without_importing_the_pages():
    done = subprocess.run([sys.executable, "-c", TUTOR_ALONE], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["pages imported"] == []
    assert seen["directories"] == [str(LOCALES_DIR)]
    # Every key tutor's code passes to `t` is there without the pages' strings.
    assert unresolved("core", {lang: set(keys) for lang, keys in seen["defined"].items()}) == []


def test_no_core_module_imports_the_pages_even_inside_a_function():
    # The subprocess above sees module-level imports; a function's import would pull the pages
    # (and their strings) in only when it runs.
    graph = import_graph(ROOT)
    upward = sorted(f"{module} imports {target}" for module, targets in graph.items()
                    if module.split(".")[0] in string_users.CORE
                    for target in targets if target.split(".")[0] == "app_pages")
    assert upward == []

# --- the walker itself, on code written for it -------------------------------------------------

DEMO_CODE = {
    "tutor/demo.py": 'NOTE = "demo.told"\nLABEL = t(f"demo.rating.{r}", lang)\n',
    "app_pages/demo.py": textwrap.dedent("""
        st.title(tr("demo.title"))
        labels = labelled("demo.kind.", kinds)
        st.caption(tr("demo.prefix_" + name))
        st.text_input(tr(f"demo.{name}_label"), key="demo.box")
        st.write(tr_n("demo.files", n))
    """),
    "streamlit_app.py": 'PageSpec("demo.nav", "demo.py")\n',
    "tests/test_demo.py": 't("demo.only_a_test_names_it", "en")\n',
}


@pytest.fixture
def demo_tree(tmp_path):
    for relative, code in DEMO_CODE.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(code, encoding="utf-8")
    return string_users.key_uses(tmp_path, ["demo"])


@pytest.mark.parametrize(("key", "home"), [
    ("demo.told", "core"),                  # a constant core code keeps for a page to show
    ("demo.rating.again", "core"),          # an f-string in core code
    ("demo.title", "pages"),
    ("demo.kind.easy", "pages"),            # a prefix completed in another function
    ("demo.prefix_tail", "pages"),          # a constant starting a `+`
    ("demo.width_label", "pages"),          # an f-string's field stands for any text
    ("demo.files.one", "pages"),            # a counting string's forms
    ("demo.files.other", "pages"),
    ("demo.nav", "pages"),                  # streamlit_app.py is the page layer
    ("demo.only_a_test_names_it", None),    # tests use strings, they are not a home
    ("demo.box", "pages"),                  # a widget key that looks like a key: harmless
    ("demo.titles", None),                  # a constant names itself and what is under it only
    ("other.title", None),
])
def test_the_walker_finds_who_names_a_key(demo_tree, key, home):
    assert string_users.home(key, demo_tree) == home


def test_core_code_wins_a_key_both_layers_name(tmp_path):
    for relative in ("tutor/a.py", "app_pages/b.py"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text('x = "demo.shared"\n', encoding="utf-8")
    assert string_users.home("demo.shared", string_users.key_uses(tmp_path, ["demo"])) == "core"


def test_every_strings_file_and_page_asset_ships_in_the_wheel():
    """A wheel (or an install from a clean clone) carries only the data files pyproject names. The
    favicon was not named before the strings moved (an installed app served none)."""
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]
    assets = sorted(p for p in (ROOT / "app_pages" / "assets").rglob("*") if p.is_file())
    assert assets  # the favicon at least
    unshipped = []
    for path in [path for _, _, path in string_files()] + assets:
        package = path.relative_to(ROOT).parts[0]
        inside = PurePosixPath(*path.relative_to(ROOT / package).parts)
        if not any(inside.match(glob) for glob in package_data.get(package, [])):
            unshipped.append(where(path))
    assert unshipped == []
