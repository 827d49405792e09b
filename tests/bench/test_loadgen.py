"""The load generator's own parts: loopback-only targets, the page model, generic answers."""

from __future__ import annotations

import random

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.loadgen.answers import MULTI_LINE, default_state, learner_state
from bench.loadgen.connection import NotLoopback, require_loopback
from bench.loadgen.page import FINISHED, Page, user_key


@pytest.mark.parametrize("url", ["http://127.0.0.1:8501", "http://localhost:8501/",
                                 "http://[::1]:8501", "https://127.0.0.2"])
def test_loopback_targets_are_accepted(url):
    host, port = require_loopback(url)
    assert host and port


@pytest.mark.parametrize("url", ["http://10.0.0.7:8501", "http://192.168.1.20", "http://8.8.8.8",
                                 "ftp://127.0.0.1", "127.0.0.1:8501", "http://[2001:db8::1]"])
def test_other_targets_are_refused(url):
    with pytest.raises(NotLoopback):
        require_loopback(url)


@pytest.mark.parametrize(("element_id", "key"), [
    ("$$ID-3d6878b9516e5bd893eab49c44990d67-practice.q-1.1.hint", "practice.q-1.1.hint"),
    ("$$ID-3d6878b9516e5bd893eab49c44990d67-verdict", "verdict"),
    ("$$ID-3d6878b9516e5bd893eab49c44990d67-None", None),
    ("", None),
])
def test_user_key_of_an_element_id(element_id, key):
    assert user_key(element_id) == key


def new_session(run: str, fragments=()) -> ForwardMsg:
    msg = ForwardMsg()
    msg.new_session.page_script_hash = "page"
    msg.metadata.run.script_run_id = run
    msg.metadata.run.fragment_ids.extend(fragments)
    return msg


def element(path, kind: str, fragment: str = "", **fields) -> ForwardMsg:
    msg = ForwardMsg()
    msg.metadata.delta_path.extend(path)
    msg.delta.fragment_id = fragment
    proto = getattr(msg.delta.new_element, kind)
    for name, value in fields.items():
        if isinstance(value, list):
            getattr(proto, name).extend(value)
        else:
            setattr(proto, name, value)
    return msg


def block(path, key: str = "", form_id: str = "", fragment: str = "") -> ForwardMsg:
    msg = ForwardMsg()
    msg.metadata.delta_path.extend(path)
    msg.delta.fragment_id = fragment
    if form_id:
        msg.delta.add_block.form.form_id = form_id
    else:
        msg.delta.add_block.vertical.SetInParent()
    if key:
        msg.delta.add_block.id = f"$$ID-0123abcd-{key}"
    return msg


def finished(status=FINISHED.FINISHED_SUCCESSFULLY) -> ForwardMsg:
    msg = ForwardMsg()
    msg.script_finished = status
    return msg


def question_page(run: str, question: str, fragment: str = "frag") -> list[ForwardMsg]:
    return [
        new_session(run),
        element([0, 0], "text_input", id=f"$$ID-a-{question}.text", label="Your answer"),
        block([0, 1], form_id=f"{question}.form", fragment=fragment),
        element([0, 1, 0], "radio", fragment, id=f"$$ID-b-{question}.conf",
                form_id=f"{question}.form", options=["low", "medium", "high"], default=1),
        element([0, 1, 1], "button", fragment, id=f"$$ID-c-{question}.back",
                form_id=f"{question}.form", is_form_submitter=True, type="secondary"),
        element([0, 1, 2], "button", fragment, id=f"$$ID-d-{question}.submit",
                form_id=f"{question}.form", is_form_submitter=True, type="primary"),
        finished(),
    ]


def test_the_page_finds_loose_text_boxes_and_the_primary_submit_of_a_form():
    page = Page()
    for msg in question_page("run1", "q1"):
        page.apply(msg)
    assert [w.key for w in page.loose_text_boxes()] == ["q1.text"]
    ((form_id, submit),) = page.submittable_forms()
    assert (form_id, submit.key) == ("q1.form", "q1.submit")
    assert [w.key for w in page.form_fields(form_id)] == ["q1.conf"]


def test_the_widgets_read_between_two_messages_follow_every_message():
    page = Page()
    for msg in question_page("run1", "q1"):
        page.apply(msg)
        page.widgets()  # read after every message, as a learner waiting for its page does
    assert [w.key for w in page.widgets()] == ["q1.text", "q1.conf", "q1.back", "q1.submit"]
    page.apply(new_session("run2"))
    page.apply(element([0, 0], "text_input", id="$$ID-a-q2.text", label="Your answer"))
    assert [w.key for w in page.widgets()][0] == "q2.text"
    page.apply(finished())
    assert [w.key for w in page.widgets()] == ["q2.text"]


def test_a_page_without_a_form_submits_with_its_first_primary_button():
    # Practice's question screen: the answer box, a confidence radio and Submit, no form.
    page = Page()
    for msg in [
        new_session("run1"),
        element([0, 0], "text_input", id="$$ID-a-q1.text", label="Your answer"),
        element([0, 1], "radio", id="$$ID-b-q1.conf", options=["low", "medium", "high"],
                default=1),
        element([0, 2], "button", id="$$ID-c-q1.submit", type="primary"),
        element([0, 3], "button", id="$$ID-d-q1.give_up", type="secondary"),
        finished(),
    ]:
        page.apply(msg)
    assert page.submittable_forms() == []
    assert page.loose_submit().key == "q1.submit"
    assert [w.key for w in page.loose_fields()] == ["q1.conf"]  # the text box is typed first


def test_elements_a_full_run_did_not_send_again_are_stale():
    page = Page()
    for msg in question_page("run1", "q1"):
        page.apply(msg)
    page.apply(new_session("run2"))
    page.apply(element([0, 0], "markdown", body="no more questions"))
    page.apply(finished())
    assert page.widgets() == []
    assert [n.kind for n in page.ordered()] == ["markdown"]


def test_a_fragment_run_replaces_only_its_own_elements():
    page = Page()
    for msg in question_page("run1", "q1", fragment="frag"):
        page.apply(msg)
    page.apply(new_session("run2", fragments=["frag"]))
    page.apply(block([0, 1], key="verdict", fragment="frag"))
    page.apply(element([0, 1, 0], "alert", "frag", body="Correct"))
    page.apply(element([0, 2], "button", "frag", id="$$ID-e-next", label="Next question"))
    page.apply(finished(FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY))
    assert [w.key for w in page.widgets()] == ["q1.text", "next"]  # outside the fragment: kept
    verdict = page.keyed_block("verdict")
    assert verdict is not None and [w.key for w in page.buttons_after(verdict.path)] == ["next"]


def test_a_fragment_run_also_clears_what_the_fragments_nested_in_it_did_not_send_again():
    # Practice's question is a fragment with the answer box in a fragment of its own: "Next"
    # reruns the outer one, and the old question's answer box (tagged with the inner fragment's
    # id) must go, or the learner would type into a fragment the server no longer has.
    page = Page()
    for msg in [
        new_session("run1"),
        element([0, 0], "markdown", body="Practice"),
        block([0, 1], fragment="outer"),
        element([0, 1, 0], "markdown", "outer", body="question 1"),
        block([0, 1, 1], fragment="inner-q1"),
        element([0, 1, 1, 0], "text_input", "inner-q1", id="$$ID-a-q1.text", label="Answer"),
        element([0, 1, 2], "button", "outer", id="$$ID-b-q1.submit", type="primary"),
        finished(),
    ]:
        page.apply(msg)
    for msg in [
        new_session("run2", fragments=["outer"]),
        block([0, 1], fragment="outer"),
        element([0, 1, 0], "markdown", "outer", body="no question matches"),
        finished(FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY),
    ]:
        page.apply(msg)
    assert page.widgets() == []
    assert [n.proto.body for n in page.ordered() if n.kind == "markdown"] == [
        "Practice", "no question matches"]  # outside the fragment: kept


def test_an_interrupted_run_leaves_the_page_as_it_was():
    page = Page()
    for msg in question_page("run1", "q1"):
        page.apply(msg)
    page.apply(new_session("run2"))
    page.apply(finished(FINISHED.FINISHED_EARLY_FOR_RERUN))
    assert len(page.widgets()) == 4


def test_an_exception_the_app_shows_is_reported():
    page = Page()
    page.apply(new_session("run1"))
    page.apply(element([0, 0], "exception", type="KeyError", message="'q'"))
    assert page.problems == ["KeyError: 'q'"]


def _widget(kind: str, **fields):
    page = Page()
    page.apply(new_session("r"))
    page.apply(element([0, 0], kind, id="$$ID-f-w", **fields))
    (widget,) = page.widgets()
    return widget


def test_untouched_widgets_report_their_defaults():
    assert default_state(_widget("radio", options=["a", "b"], default=1)).string_value == "b"
    assert default_state(_widget("radio", options=["a", "b"])) is None  # index=None: nothing
    assert default_state(_widget("checkbox", default=True)).bool_value is True
    assert default_state(_widget("text_input", default="x")).string_value == "x"
    state = default_state(_widget("multiselect", options=["a", "b", "c"], default=[2, 0]))
    assert list(state.string_array_value.data) == ["c", "a"]
    assert default_state(_widget("button", label="Go")) is None


def test_a_learner_answers_every_kind_of_input_generically():
    rng = random.Random(0)
    assert learner_state(_widget("text_input"), rng).string_value
    assert learner_state(_widget("text_area"), rng).string_value in MULTI_LINE
    assert learner_state(_widget("radio", options=["a", "b"]), rng).string_value in ("a", "b")
    order = learner_state(_widget("multiselect", options=["s1", "s2", "s3"]), rng)
    assert sorted(order.string_array_value.data) == ["s1", "s2", "s3"]  # an ordering: all steps
    assert learner_state(_widget("checkbox"), rng).HasField("bool_value")
    assert learner_state(_widget("button", label="Go"), rng) is None


def test_a_widget_redrawn_without_a_value_keeps_the_one_it_showed():
    # The language switch: its value set by the session's first run, redrawn by later runs
    # without one. A browser keeps showing (and reporting) the value; so must the tab.
    from bench.loadgen.connection import AppTab

    tab = AppTab("http://127.0.0.1:8501")
    switch = dict(id="$$ID-1-lang", label="Language", options=[], raw_values=["English"],
                  set_value=True)
    for msg in (new_session("run1"), element([1, 0], "button_group", **switch), finished()):
        tab.page.apply(msg)
    tab._remember_shown()
    redrawn = {**switch, "raw_values": [], "set_value": False}
    for msg in (new_session("run2"), element([1, 0], "button_group", **redrawn), finished()):
        tab.page.apply(msg)
    tab._remember_shown()
    [state] = tab._widget_states([])
    assert list(state.string_array_value.data) == ["English"]
    # A value the script sets again wins over the one shown.
    for msg in (new_session("run3"),
                element([1, 0], "button_group", **{**switch, "raw_values": ["中文"]}), finished()):
        tab.page.apply(msg)
    tab._remember_shown()
    assert list(tab._widget_states([])[0].string_array_value.data) == ["中文"]
