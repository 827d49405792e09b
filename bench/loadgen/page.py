"""What a simulated browser knows about the page: the element tree built from ForwardMsg deltas.

The server sends each element as a delta at a path (`[0, 4, 2]`: the main area's fifth block's
third child); a full script run ends with `script_finished`, and every element that run did not
send again is stale and goes away (for a fragment run, only elements of that fragment). This
module applies those messages the way Streamlit's frontend does and answers the questions a
learner's next action needs: which widgets are on screen, which forms can be submitted, and
whether a verdict (a container keyed `verdict`) is shown.

Nothing here knows our pages: widgets are read from their protobufs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

MAIN, SIDEBAR = 0, 1  # the roots of delta paths
# Element types a learner can set; buttons are clicked, not set.
VALUE_WIDGETS = (
    "text_input", "text_area", "radio", "checkbox", "multiselect", "selectbox", "number_input",
    "button_group", "slider", "select_slider",
)
BUTTONS = ("button",)
FINISHED = ForwardMsg.ScriptFinishedStatus


def user_key(element_id: str) -> str | None:
    """The key a script gave an element (`$$ID-<hash>-<key>`), or None for a generated id."""
    parts = element_id.split("-", 2)
    if len(parts) == 3 and parts[0] == "$$ID" and parts[2] != "None":
        return parts[2]
    return None


@dataclass
class Node:
    """One element or block at a delta path."""

    path: tuple[int, ...]
    kind: str  # element type (`text_input`, `alert`, ...) or `block.<type>` (`block.form`)
    proto: Any  # the element's own message (TextInput, ...) or the Block
    run_id: str  # the script run that last sent it
    fragment_id: str

    @property
    def is_block(self) -> bool:
        return self.kind.startswith("block.")

    @property
    def element_id(self) -> str:
        return getattr(self.proto, "id", "") or ""


@dataclass(frozen=True)
class Widget:
    """A widget on screen, as the learner sees it."""

    id: str
    kind: str
    label: str
    form_id: str
    fragment_id: str
    disabled: bool
    path: tuple[int, ...]
    proto: Any

    @property
    def in_main(self) -> bool:
        return self.path[0] == MAIN

    @property
    def key(self) -> str | None:
        return user_key(self.id)

    @property
    def is_submit(self) -> bool:
        return self.kind == "button" and bool(self.proto.is_form_submitter)

    @property
    def is_primary(self) -> bool:
        return self.kind == "button" and self.proto.type == "primary"


@dataclass
class Page:
    """The element tree of one session, updated message by message."""

    nodes: dict[tuple[int, ...], Node] = field(default_factory=dict)
    run_id: str = ""
    run_fragments: tuple[str, ...] = ()
    page_script_hash: str = ""
    query_string: str = ""
    session_id: str = ""
    problems: list[str] = field(default_factory=list)  # exceptions the app showed
    # widgets() of the tree as it is: a learner looks for its widgets many times between two
    # messages, and the load generator shares the server's two cores (its CPU is the server's loss)
    _widgets: list | None = field(default=None, repr=False)

    # ---- applying messages ----------------------------------------------------------------
    def apply(self, msg: ForwardMsg) -> str | None:
        """Update the tree; returns the message type."""
        self._widgets = None
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self.run_id = msg.metadata.run.script_run_id
            self.run_fragments = tuple(msg.metadata.run.fragment_ids)
            if msg.new_session.page_script_hash:
                self.page_script_hash = msg.new_session.page_script_hash
            if msg.new_session.HasField("initialize"):
                self.session_id = msg.new_session.initialize.session_id
        elif kind == "delta":
            self._apply_delta(msg)
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "script_finished":
            self._clear_stale(msg.script_finished)
        return kind

    def _apply_delta(self, msg: ForwardMsg) -> None:
        delta = msg.delta
        path = tuple(msg.metadata.delta_path)
        which = delta.WhichOneof("type")
        if which == "new_element":
            element = delta.new_element
            etype = element.WhichOneof("type") or "empty"
            node = Node(path, etype, getattr(element, etype), self.run_id, delta.fragment_id)
            self._drop_children(path)
            if etype == "exception":
                self.problems.append(f"{node.proto.type}: {node.proto.message}")
        elif which == "add_block":
            block = delta.add_block
            btype = block.WhichOneof("type") or "vertical"
            node = Node(path, f"block.{btype}", block, self.run_id, delta.fragment_id)
            old = self.nodes.get(path)
            if old is None or old.kind != node.kind:
                self._drop_children(path)
        else:  # new_transient, arrow_add_rows: nothing a learner acts on
            return
        self.nodes[path] = node

    def _drop_children(self, path: tuple[int, ...]) -> None:
        depth = len(path)
        for other in [p for p in self.nodes if len(p) > depth and p[:depth] == path]:
            del self.nodes[other]

    def _fragment_roots(self, fragment_ids: tuple[str, ...]) -> list[tuple[int, ...]]:
        """The path of each fragment's own container: its shortest element path."""
        roots: dict[str, tuple[int, ...]] = {}
        for path, node in self.nodes.items():
            if node.fragment_id in fragment_ids:
                known = roots.get(node.fragment_id)
                if known is None or len(path) < len(known):
                    roots[node.fragment_id] = path
        return list(roots.values())

    def _clear_stale(self, status: int) -> None:
        if status == FINISHED.FINISHED_SUCCESSFULLY:
            stale = [p for p, n in self.nodes.items() if n.run_id != self.run_id]
        elif status == FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
            # Everything inside a fragment that ran, including the fragments nested in it (their
            # elements carry their own fragment's id): what the run did not send again is stale.
            roots = self._fragment_roots(self.run_fragments)
            stale = [p for p, n in self.nodes.items() if n.run_id != self.run_id
                     and (n.fragment_id in self.run_fragments
                          or any(p[:len(r)] == r for r in roots))]
        else:
            return
        for path in stale:
            self.nodes.pop(path, None)
        # An element whose parent block went away goes with it.
        for path in [p for p in self.nodes if len(p) > 2 and p[:-1] not in self.nodes]:
            self.nodes.pop(path, None)

    # ---- what the learner sees ------------------------------------------------------------
    def ordered(self) -> Iterator[Node]:
        for path in sorted(self.nodes):
            yield self.nodes[path]

    def widgets(self) -> list[Widget]:
        if self._widgets is None:
            self._widgets = self._find_widgets()
        return list(self._widgets)

    def _find_widgets(self) -> list[Widget]:
        found = []
        for node in self.ordered():
            if node.kind in VALUE_WIDGETS or node.kind in BUTTONS:
                proto = node.proto
                found.append(Widget(
                    id=proto.id, kind=node.kind, label=getattr(proto, "label", ""),
                    form_id=getattr(proto, "form_id", ""), fragment_id=node.fragment_id,
                    disabled=bool(getattr(proto, "disabled", False)), path=node.path, proto=proto,
                ))
        return found

    def widget(self, widget_id: str) -> Widget | None:
        return next((w for w in self.widgets() if w.id == widget_id), None)

    def verdict_number(self) -> int:
        """The number of the verdict on screen (`verdict-<n>`), 0 when there is none."""
        numbers = [int(k.rsplit("-", 1)[1]) for n in self.ordered() if n.is_block
                   and (k := user_key(n.element_id) or "").startswith("verdict-")
                   and k.rsplit("-", 1)[1].isdigit()]
        return max(numbers, default=0)

    def keyed_block(self, key: str) -> Node | None:
        """The container the script created with `st.container(key=key)`, if on screen."""
        return next((n for n in self.ordered() if n.is_block and user_key(n.element_id) == key),
                    None)

    def submittable_forms(self, area: int = MAIN) -> list[tuple[str, Widget]]:
        """(form id, its submit button) for each form in the main area (or `area`: SIDEBAR) that
        can be submitted now, in page order; a form's primary button wins over its other submit
        buttons."""
        chosen: dict[str, Widget] = {}
        for w in self.widgets():
            if not (w.path[0] == area and w.is_submit and not w.disabled):
                continue
            current = chosen.get(w.form_id)
            if current is None or (w.is_primary and not current.is_primary):
                chosen[w.form_id] = w
        return list(chosen.items())

    def loose_submit(self) -> Widget | None:
        """The first enabled primary button of the main area outside any form: how a page without
        a form submits (its callback reads the widgets' values)."""
        return next((w for w in self.widgets()
                     if w.kind == "button" and w.in_main and not w.form_id and not w.disabled
                     and w.is_primary), None)

    def loose_fields(self) -> list[Widget]:
        """Enabled value widgets of the main area outside any form, other than text boxes (those
        are typed and committed one by one first)."""
        return [w for w in self.widgets()
                if w.in_main and not w.form_id and not w.disabled and w.kind in VALUE_WIDGETS
                and w.kind not in ("text_input", "text_area")]

    def form_fields(self, form_id: str) -> list[Widget]:
        return [w for w in self.widgets() if w.form_id == form_id and w.kind in VALUE_WIDGETS]

    def loose_text_boxes(self) -> list[Widget]:
        """Enabled text boxes of the main area that belong to no form (committed on Enter)."""
        return [w for w in self.widgets()
                if w.in_main and not w.form_id and not w.disabled
                and w.kind in ("text_input", "text_area")]

    def buttons_after(self, path: tuple[int, ...]) -> list[Widget]:
        """Enabled plain buttons (not form submitters) of the main area after `path`."""
        return [w for w in self.widgets()
                if w.kind == "button" and w.in_main and not w.is_submit and not w.disabled
                and w.path > path]

    def verdict_is_correct(self, verdict: Node) -> bool:
        """A success alert inside the verdict block (the pages draw "Correct" so)."""
        return any(n.kind == "alert" and n.path[:len(verdict.path)] == verdict.path
                   and n.proto.format == n.proto.SUCCESS for n in self.ordered())

    def button_keyed(self, suffix: str) -> Widget | None:
        """The enabled button of the main area whose key ends with `suffix`, if on screen."""
        return next((w for w in self.widgets() if w.kind == "button" and w.in_main
                     and not w.disabled and (w.key or "").endswith(suffix)), None)

    def texts(self) -> list[str]:
        """Markdown and alert bodies, for diagnostics."""
        out = []
        for node in self.ordered():
            if node.kind in ("markdown", "alert", "text", "caption"):
                out.append(getattr(node.proto, "body", ""))
        return out
