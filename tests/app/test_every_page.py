"""Every page, in both languages, with every widget pushed to its extremes: no traceback ever
reaches the page, and no label shows raw `$…$` LaTeX or Markdown.

Generic on purpose: it walks the pages of `app_pages.PAGES` through the real shell and the widgets
AppTest finds on each, so a page changed or added later is covered as it is. For each widget it
tries its extremes (slider and number bounds, empty and very long text, first and last option,
every option of a small choice, no file and a junk file), all widgets at once, a few passes; then
it presses every button with the widgets at those extremes (forms submit their extreme values).
"""

from __future__ import annotations

import re

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1 import element_tree as tree

from app_pages import PAGES
from tests.app.learner_fixtures import database_url  # noqa: F401
from tests.app.shell_helpers import APP, TIMEOUT

LANGS = ("zh", "en")
TYPED = "残差连接 <b>x</b>"  # marks text this test typed: shown as typed, so not our markup
LONG_TEXT = (f"{TYPED} (I + W)^T g + diff(F(x), x) $\\frac{{a}}{{b}}$ ** [ " * 400)
JUNK_FILES = [None, ("junk.json", b"\xff\x00{" * 3000, "application/json")]
SMALL_CHOICE = 6  # a choice with at most this many options is tried option by option
BUTTON_PASSES = 2  # buttons are pressed with the widgets at their low, then their high extremes


def _label_state(widget, labels: list[str] | str | None) -> None:
    """Set a choice widget the way the browser does: by the labels it shows."""
    ws = WidgetState()
    ws.id = widget.id
    if isinstance(labels, list):
        ws.string_array_value.data[:] = labels
    elif labels is not None:
        ws.string_value = labels
    widget._assert_can_interact()
    widget.__class__ = type(f"Chosen{type(widget).__name__}", (type(widget),),
                            {"_widget_state": property(lambda self: ws)})


def extremes(widget) -> list:
    """The values a widget is pushed to, as setters (applied in turn, one per pass)."""
    if isinstance(widget, tree.Slider):
        bounds = (widget.min, widget.max)
        if isinstance(widget.value, (tuple, list)):
            return [lambda w: w.set_value(bounds), lambda w: w.set_value((bounds[1], bounds[1]))]
        return [lambda w, v=v: w.set_value(v) for v in bounds]
    if isinstance(widget, tree.NumberInput):
        low = widget.min if widget.min is not None else -(10**12)
        high = widget.max if widget.max is not None else 10**12
        return [lambda w, v=v: w.set_value(v) for v in (low, high)]
    if isinstance(widget, (tree.TextInput, tree.TextArea)):
        long = LONG_TEXT[: widget.max_chars] if widget.max_chars else LONG_TEXT
        return [lambda w: w.set_value(""), lambda w, v=long: w.set_value(v)]
    if isinstance(widget, tree.Multiselect):
        everything = list(widget.options)
        if widget.max_selections:
            everything = everything[: widget.max_selections]
        return [lambda w: _label_state(w, []), lambda w, v=everything: _label_state(w, v)]
    if isinstance(widget, (tree.Selectbox, tree.Radio, tree.ButtonGroup, tree.SelectSlider)):
        options = list(widget.options)
        if not options:
            return []
        chosen = options if len(options) <= SMALL_CHOICE else [options[0], options[-1]]
        as_list = isinstance(widget, (tree.ButtonGroup, tree.SelectSlider))
        return [lambda w, v=v: _label_state(w, [v] if as_list else v) for v in chosen]
    if isinstance(widget, (tree.Checkbox, tree.Toggle)):
        return [lambda w: w.set_value(False), lambda w: w.set_value(True)]
    if isinstance(widget, tree.FileUploader):
        return [lambda w, v=v: w.set_value(v) for v in JUNK_FILES]
    return []


def widgets(at: AppTest) -> list:
    return [node for node in at if isinstance(node, tree.Widget)
            and not isinstance(node, (tree.Button, tree.DownloadButton))
            and not getattr(node.proto, "disabled", False)]


def buttons(at: AppTest) -> list[tuple[str | None, str]]:
    return [(b.key, b.label) for b in at.button if not getattr(b.proto, "disabled", False)]


def find_button(at: AppTest, ident: tuple[str | None, str]):
    key, label = ident
    return next((b for b in at.button if (b.key, b.label) == (key, label)
                 and not getattr(b.proto, "disabled", False)), None)


def push(at: AppTest, step: int) -> None:
    for widget in widgets(at):
        setters = extremes(widget)
        if setters:
            setters[step % len(setters)](widget)


def passes(at: AppTest) -> int:
    return max([len(extremes(w)) for w in widgets(at)] + [BUTTON_PASSES])


# ---- what a page must never show ------------------------------------------------------------

ESCAPED = re.compile(r"\\[\\`*_{}\[\]()#+\-.!|$<>~]")
LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
PLAIN_MARKUP = re.compile(r"\$|\*\*|`|\\[A-Za-z]+|[_^]\{")


def raw_markup(text: str, *, markdown: bool) -> str | None:
    """Why `text` would show raw markup, or None. Markdown labels render `**b**` and `$x$`, but
    an unbalanced `$` or a LaTeX command outside `$…$` shows as typed; plain-text options show
    every marker as typed."""
    if not markdown:
        return "markup in a plain-text option" if PLAIN_MARKUP.search(text) else None
    bare = ESCAPED.sub("", text)
    if bare.count("$") % 2:
        return "an unbalanced $"
    if LATEX_COMMAND.search(re.sub(r"\$[^$]*\$", "", bare)):
        return "a LaTeX command outside $…$"
    return None


def label_problems(at: AppTest) -> list[str]:
    """Raw markup in the labels and options the app wrote (a profile name the test typed, shown
    as typed, is not the app's markup)."""
    found = []
    for node in at:
        label = getattr(node, "label", None)
        if isinstance(node, (tree.Widget, tree.PageLink)) and isinstance(label, str):
            if TYPED not in label and (why := raw_markup(label, markdown=True)):
                found.append(f"{type(node).__name__} label {label!r}: {why}")
        plain_options = isinstance(node, (tree.Selectbox, tree.Multiselect, tree.SelectSlider))
        if isinstance(node, (tree.Selectbox, tree.Multiselect)) and not node.proto.placeholder \
                and node.value in (None, []):
            found.append(f"{type(node).__name__} {label!r}: shows Streamlit's English placeholder")
        for option in getattr(node, "options", None) or []:
            if TYPED in str(option):
                continue
            if why := raw_markup(str(option), markdown=not plain_options):
                found.append(f"{type(node).__name__} option {option!r}: {why}")
    return found


def check(at: AppTest, what: str, seen_labels: list[str]) -> None:
    assert not at.exception, f"{what}: {[e.value for e in at.exception]}"
    seen_labels.extend(label_problems(at))


# ---- the walk -------------------------------------------------------------------------------

def open_page(url_path_file: str, lang: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.switch_page(f"app_pages/{url_path_file}")
    return at.run()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("spec", PAGES, ids=[s.url_path for s in PAGES])
def test_every_widget_at_its_extremes_never_shows_a_traceback(spec, lang, database_url):  # noqa: F811
    at = open_page(spec.file, lang)
    labels: list[str] = []
    check(at, "opening the page", labels)
    assert at.title, "the page shows its title"
    for step in range(passes(at)):
        before = {w.id for w in widgets(at)}
        push(at, step)
        at.run()
        check(at, f"widgets at extreme {step}", labels)
        if {w.id for w in widgets(at)} - before:  # new widgets appeared (a demo opened): push them
            push(at, step)
            at.run()
            check(at, f"new widgets at extreme {step}", labels)
        if step < BUTTON_PASSES:
            for ident in buttons(at):
                if (button := find_button(at, ident)) is None:
                    continue
                push(at, step)
                button = find_button(at, ident)
                if button is None:
                    continue
                button.click()
                at.run()
                check(at, f"button {ident[1]!r} at extreme {step}", labels)
    assert sorted(set(labels)) == []


@pytest.mark.parametrize(
    ("text", "markdown", "problem"),
    [
        ("Plain label", True, None),
        ("**bold** and $x^2$", True, None),
        ("costs \\$5", True, None),
        ("costs $5", True, "an unbalanced $"),
        ("y = \\frac{a}{b}", True, "a LaTeX command outside $…$"),
        ("$\\frac{a}{b}$", True, None),
        ("∇ₓ L = (I+W)ᵀ g", False, None),
        ("$y=x+F(x)$", False, "markup in a plain-text option"),
        ("**correct**", False, "markup in a plain-text option"),
        ("x_{l+1}", False, "markup in a plain-text option"),
    ],
)
def test_raw_markup_rule(text, markdown, problem):
    assert raw_markup(text, markdown=markdown) == problem
