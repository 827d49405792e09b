"""Every UI string exists in zh and en with the same placeholders, and `t` behaves."""

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app_pages import STRINGS_DIR
from tutor import i18n
from tutor.i18n import (
    LANGUAGES,
    LOCALES_DIR,
    MissingTranslation,
    catalog,
    namespaces,
    placeholders,
    t,
)

DIRECTORIES = (LOCALES_DIR, STRINGS_DIR)  # tutor's strings, the pages' (importing app_pages adds them)


def all_keys(lang: str) -> set[str]:
    return {key for ns in namespaces() for key in catalog(lang, ns)}


def test_the_page_strings_are_read():
    assert i18n.string_directories() == DIRECTORIES


@pytest.mark.parametrize("directory", DIRECTORIES, ids=lambda d: d.parent.name)
def test_every_namespace_exists_in_both_languages(directory):
    files = {lang: sorted(p.name for p in (directory / lang).glob("*.json")) for lang in LANGUAGES}
    assert files["zh"] == files["en"], directory


def test_every_key_exists_in_both_languages():
    zh, en = all_keys("zh"), all_keys("en")
    # Chinese has no plural forms: a counting string's English "one" form has no Chinese twin,
    # but its "other" form must have one.
    english_only_forms = {key for key in en - zh
                          if key.endswith(".one") and key.removesuffix(".one") + ".other" in zh}
    assert sorted(en - zh - english_only_forms) == [], "missing in zh"
    assert sorted(zh - en) == [], "missing in en"


def test_every_counting_string_has_an_other_form_in_both_languages():
    for lang in LANGUAGES:
        keys = all_keys(lang)
        lonely = [k for k in keys if k.endswith(".one") and k[:-4] + ".other" not in keys]
        assert lonely == [], lang


@pytest.mark.parametrize(
    ("key", "lang", "n", "expected"),
    [
        ("author.problems", "en", 1, "1 problem (fix it to preview and save):"),
        ("author.problems", "en", 2, "2 problems (fix them to preview and save):"),
        ("author.problems", "en", 0, "0 problems (fix them to preview and save):"),
        ("author.problems", "zh", 1, "1 个问题（修好后才能预览和保存）："),
        ("author.withheld", "en", 1, "1 bank file is withheld: its questions are not shown to "
                                     "learners until the problems below are fixed"),
        ("analytics.learners_n", "en", 1, "1 learner"),
        ("analytics.learners_n", "en", 3, "3 learners"),
        ("analytics.answers_n", "zh", 1, "1 次作答"),
    ],
)
def test_tn_picks_the_form_for_the_count(key, lang, n, expected):
    assert i18n.tn(key, lang, n) == expected


def test_a_counting_string_is_not_used_without_its_count():
    with pytest.raises(MissingTranslation):
        t("author.problems", "en", n=1)


# English texts that put a count before a plural noun, "{n} problems", read "1 problems" when the
# count is 1. Each must be a counting string (tn) unless its count is never 1 (listed here, why).
COUNT_NEVER_ONE = {
    "profile.answer_too_long", "practice.interview_limit",  # a character limit
    "practice.tries_left",  # practice.tries_left_one says one try
    "practice.back_in_days",  # one day is practice.back_tomorrow
    "derivation.too_many_lines",  # more lines than the limit, 40
    "derivation.too_long_for_link",  # a character count past 2,000
    "classview.intro", "classview.active",  # 7 days, 3 failed tries
    "classview.col.recent", "classview.col.failed",  # 7 days
    "questions.count", "analytics.all_questions",  # the bank's total
    "author.moodle.refused.too_large", "author.moodle.refused.too_many",  # past a limit
    "explore.mlp.width_help",  # the width limit, 160
    "exercises.placeholder.vector",  # a vector has several numbers
    "common.text_cut", "common.text_count",  # a text past a box's limit, the limit (40 and up)
}
# A field that holds a count (not a name such as {type} or {question}), then a word ending in s
# that is not a verb ("Line {n} does not follow").
COUNT_BEFORE_PLURAL = re.compile(
    r"\{(?!(?:question|type|names|option|missing|shown)\b)(\w+)(?::[^}]*)?\} (?!(?:times|does|is|was|has)\b)"
    r"[a-z]+s\b")


def test_no_english_string_counts_into_a_plural_noun_without_plural_forms():
    en = catalog_of("en")
    offenders = [key for key, text in en.items()
                 if COUNT_BEFORE_PLURAL.search(text) and not key.endswith((".other", ".one"))
                 and key not in COUNT_NEVER_ONE]
    assert offenders == []
    assert sorted(COUNT_NEVER_ONE - en.keys()) == []  # the list names strings that exist


def catalog_of(lang: str) -> dict[str, str]:
    return {key: text for ns in namespaces() for key, text in catalog(lang, ns).items()}


@pytest.mark.parametrize("namespace", namespaces())
def test_placeholders_match_and_strings_format(namespace):
    zh, en = catalog("zh", namespace), catalog("en", namespace)
    for key in zh.keys() & en.keys():
        assert placeholders(zh[key]) == placeholders(en[key]), key
        for lang, text in (("zh", zh[key]), ("en", en[key])):
            assert formats(key, lang, placeholders(text)), f"{lang}: {key} is empty"


@pytest.mark.parametrize("namespace", namespaces())
def test_a_placeholder_is_a_lower_case_name(namespace):
    """`$\\mathrm{Var}(w)$` in a label is LaTeX whose braces were not doubled: `t` formats
    every string, so it raised KeyError('Var') on the Exercises page (found by the load check).
    Our placeholders are snake_case names; anything else is a brace meant literally."""
    for lang in ("zh", "en"):
        for key, text in catalog(lang, namespace).items():
            bad = [f for f in placeholders(text) if not re.fullmatch(r"[a-z][a-z0-9_]*", f)]
            assert not bad, f"{lang}: {key} has {bad}: double a literal brace ({{{{ }}}})"


def formats(key: str, lang: str, fields: frozenset[str]) -> str:
    # A field may carry a format spec ({pct:.0%}) that needs a number, or one that needs text.
    try:
        return t(key, lang, **dict.fromkeys(fields, "X"))
    except ValueError:
        return t(key, lang, **dict.fromkeys(fields, 0.5))


@pytest.mark.parametrize("namespace", namespaces())
def test_no_string_is_blank_or_copied_untranslated(namespace):
    zh, en = catalog("zh", namespace), catalog("en", namespace)
    for key, text in zh.items():
        assert text.strip(), f"zh {key} is blank"
    for key, text in en.items():
        assert text.strip(), f"en {key} is blank"
        # English text in the Chinese file is a forgotten translation (formulas and names aside).
        words = re.findall(r"(?<![{\\])\b[A-Za-z]{3,}\b(?![}])", text)
        if len(words) > 3:
            assert zh.get(key) != text, f"zh {key} is the English text"


@pytest.mark.parametrize(
    ("key", "lang", "fmt", "expected"),
    [
        ("common.nav.explore", "en", {}, "Explore"),
        ("common.nav.explore", "zh", {}, "交互探索"),
        ("explore.multiplier.metric_plain", "en", {"n": 20}, "Plain, n = 20"),
        ("explore.multiplier.metric_plain", "zh", {"n": 3}, "普通网络，n = 3"),
        ("common.nav.explore", "zh-CN", {}, "交互探索"),
        ("common.nav.explore", "en-US", {}, "Explore"),
        ("common.nav.explore", "fr", {}, "交互探索"),  # unknown language -> the default
    ],
)
def test_t(key, lang, fmt, expected):
    assert t(key, lang, **fmt) == expected


def test_unknown_key_raises():
    with pytest.raises(MissingTranslation):
        t("explore.no_such_key", "en")


def test_missing_placeholder_value_raises():
    with pytest.raises(KeyError):
        t("explore.multiplier.metric_plain", "en")


def test_nested_and_dotted_keys_spell_the_same_key(tmp_path, monkeypatch):
    for lang in LANGUAGES:
        (tmp_path / lang).mkdir()
        data = {"a": {"b": "nested {x}"}, "c.d": "dotted"}
        (tmp_path / lang / "demo.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(i18n, "_strings", i18n._Strings((tmp_path,)))
    assert t("demo.a.b", "en", x=1) == "nested 1"
    assert t("demo.c.d", "zh") == "dotted"



def write_strings(directory, namespace: str, data: dict) -> None:
    for lang in LANGUAGES:
        (directory / lang).mkdir(parents=True, exist_ok=True)
        (directory / lang / f"{namespace}.json").write_text(json.dumps(data), encoding="utf-8")


def test_a_namespace_is_read_from_every_directory(tmp_path, monkeypatch):
    write_strings(tmp_path / "core", "demo", {"told": "from the core"})
    write_strings(tmp_path / "pages", "demo", {"shown": "from a page"})
    monkeypatch.setattr(i18n, "_strings", i18n._Strings((tmp_path / "core",)))
    assert i18n.has("demo.told", "en") and not i18n.has("demo.shown", "en")
    i18n.add_strings(tmp_path / "pages")
    i18n.add_strings(tmp_path / "pages")  # twice: no second copy, so no "defined twice"
    # The catalog cached before the pages' directory was added is not served after it.
    assert t("demo.shown", "en") == "from a page" and t("demo.told", "zh") == "from the core"
    assert i18n.string_directories() == (tmp_path / "core", tmp_path / "pages")


def test_a_key_defined_in_two_directories_names_both_files(tmp_path, monkeypatch):
    write_strings(tmp_path / "core", "demo", {"group": {"key": "old text"}})
    write_strings(tmp_path / "pages", "demo", {"group": {"key": "new text"}})
    monkeypatch.setattr(i18n, "_strings", i18n._Strings((tmp_path / "core", tmp_path / "pages")))
    with pytest.raises(i18n.DuplicateString) as twice:
        t("demo.group.key", "en")
    message = str(twice.value)
    assert "demo.group.key" in message
    assert str(tmp_path / "core" / "en" / "demo.json") in message
    assert str(tmp_path / "pages" / "en" / "demo.json") in message


def test_importing_the_pages_adds_their_strings_once():
    import app_pages  # already imported: the package adds its directory when first imported

    assert i18n.string_directories().count(app_pages.STRINGS_DIR) == 1

@pytest.mark.parametrize(
    ("text", "fields"),
    [("plain", set()), ("{n} of {total}", {"n", "total"}), ("{{literal}} {x}", {"x"})],
)
def test_placeholders(text, fields):
    assert placeholders(text) == fields


@given(st.one_of(st.none(), st.text(max_size=20), st.integers()))
def test_any_language_value_normalizes_to_a_known_language(value):
    assert i18n.normalize_language(value) in LANGUAGES

