"""One simulated browser tab: an HTTP page load, then Streamlit's websocket at `/_stcore/stream`.

The browser's side of the protocol, as far as a learner needs it: every interaction is a
`BackMsg.rerun_script` carrying the state of every widget on screen (a form's fields only when
it is submitted; a clicked button as a one-shot trigger), and the server answers with
`ForwardMsg`s (deltas, then `script_finished`). `AppTab.rerun` sends one interaction and waits
for its run to finish, timing the run and the moment the verdict container arrived.

Only loopback targets are accepted (`require_loopback`): this tool puts a class's worth of load
on a server and must never be pointed at someone else's.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.loadgen.answers import default_state
from bench.loadgen.page import FINISHED, Page, Widget, user_key

VERDICT_KEY = "verdict"  # app_pages.widgets.feedback.VERDICT_TEST_ID: the pages' verdict marker
# app_pages.widgets.feedback.UNREADABLE_TEST_ID: inside the verdict, for an answer that could not be
# read; it is not an attempt, so nothing is stored for it.
UNREADABLE_KEY = "verdict-unreadable"
XSRF_COOKIE = "_streamlit_xsrf"
NUMBERED_VERDICT = re.compile(r"verdict-(\d+)")  # inside it: the visit's n-th graded submission
DONE = {FINISHED.FINISHED_SUCCESSFULLY, FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
        FINISHED.FINISHED_WITH_COMPILE_ERROR}


class NotLoopback(ValueError):
    """The target is not this machine."""


class TabError(RuntimeError):
    """The tab could not do what a browser would have done (closed, timed out, refused)."""


def require_loopback(url: str) -> tuple[str, int]:
    """(host, port) of an http(s) URL whose host resolves only to loopback addresses."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NotLoopback(f"not an http URL: {url!r}")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except socket.gaierror as exc:
        raise NotLoopback(f"cannot resolve {parts.hostname!r}: {exc}") from None
    addresses = {info[4][0] for info in infos}
    outside = sorted(a for a in addresses if not ipaddress.ip_address(a.split("%")[0]).is_loopback)
    if not addresses or outside:
        raise NotLoopback(
            f"refusing {parts.hostname!r}: it resolves to {', '.join(outside) or 'nothing'}, "
            "not a loopback address (this tool only loads a server on this machine)")
    return parts.hostname, port


@dataclass
class RunTiming:
    """One interaction: when it was sent, when its run finished, when the verdict arrived."""

    sent: float
    finished: float
    status: int
    verdict_at: float | None
    messages: int
    verdict_number: int = 0  # the highest `verdict-<n>` container the run drew (the pages number
    # each graded submission of a visit; a refused submit redraws the previous one)

    @property
    def seconds(self) -> float:
        return self.finished - self.sent

    @property
    def verdict_seconds(self) -> float | None:
        return None if self.verdict_at is None else self.verdict_at - self.sent


class AppTab:
    """A browser tab on one page of the app."""

    def __init__(self, base_url: str, *, page: str = "", query: str = "", timeout: float = 30.0,
                 on_send: Callable[[], object] | None = None,
                 cookies: dict[str, str] | None = None):
        self.base_url = base_url.rstrip("/")
        self.host, self.port = require_loopback(self.base_url)
        self.page_name = page
        self.timeout = timeout
        self.on_send = on_send  # called just before each interaction is sent (CPU marks)
        self.page = Page(query_string=query)
        self.committed: dict[str, WidgetState] = {}  # values the learner set, by widget id
        self.shown: dict[str, WidgetState | None] = {}  # what the others show (_remember_shown)
        # The browser's cookies (a reconnecting tab keeps them: the proxy's affinity cookie).
        self.cookies: dict[str, str] = dict(cookies or {})
        self.runs = 0
        self.auth_redirect: str | None = None  # where a login button sent the browser
        self._ws = None
        self._reader: asyncio.Task | None = None
        self._waiting: asyncio.Future | None = None
        self._run: RunTiming | None = None

    # ---- opening and closing ----------------------------------------------------------------
    async def open(self) -> RunTiming:
        """Load the page (HTML, which also sets any affinity cookie), connect, run the script."""
        sent = time.perf_counter()
        await self._get_html()
        from websockets.asyncio.client import connect

        ws_url = self.base_url.replace("http", "ws", 1) + "/_stcore/stream"
        headers = {"Origin": self.base_url}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        # As the browser does: the XSRF cookie's value as the second subprotocol (Streamlit then
        # trusts the login cookie sent with the handshake).
        xsrf = self.cookies.get(XSRF_COOKIE)
        protocols = ["streamlit", xsrf] if xsrf else ["streamlit"]
        try:
            self._ws = await connect(
                ws_url, subprotocols=protocols, additional_headers=headers,
                compression=None, max_size=None, proxy=None, ping_interval=None,
                open_timeout=self.timeout)
        except Exception as exc:  # noqa: BLE001 - refused, timed out, bad handshake
            raise TabError(f"websocket connect failed: {exc!r}") from None
        self._reader = asyncio.create_task(self._read())
        timing = await self.rerun(first=True)
        timing.sent = sent
        return timing

    async def _get_html(self) -> None:
        """The page, then the health check the frontend makes before connecting (it sets the
        XSRF cookie); both with the tab's cookies, as a browser sends them."""
        await self._http_get(f"/{self.page_name}" if self.page_name else "/")
        await self._http_get("/_stcore/health")

    async def _http_get(self, path: str) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port), self.timeout)
            writer.write((f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                          + (f"Cookie: {cookie}\r\n" if cookie else "")
                          + "Connection: close\r\n\r\n").encode("latin-1"))
            await writer.drain()
            raw = await asyncio.wait_for(reader.read(), self.timeout)
            writer.close()
        except (OSError, TimeoutError) as exc:
            raise TabError(f"page load failed: {exc!r}") from None
        head = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        if not head or " 200 " not in head[0] + " ":
            raise TabError(f"page load answered {head[0] if head else 'nothing'!r}")
        for line in head[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "set-cookie":
                cookie_pair = value.strip().split(";", 1)[0]
                key, _, val = cookie_pair.partition("=")
                self.cookies[key.strip()] = val.strip()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - closing anyway
                pass

    # ---- messages from the server ---------------------------------------------------------
    async def _read(self) -> None:
        try:
            async for data in self._ws:
                msg = ForwardMsg()
                msg.ParseFromString(data)
                self._on_message(msg, time.perf_counter())
        except Exception as exc:  # noqa: BLE001 - reported to whoever waits
            self._fail(TabError(f"connection lost: {exc!r}"))
            return
        self._fail(TabError("the server closed the connection"))

    def _on_message(self, msg: ForwardMsg, now: float) -> None:
        kind = self.page.apply(msg)
        if kind == "auth_redirect":
            self.auth_redirect = msg.auth_redirect.url
        run = self._run
        if run is None:
            return
        run.messages += 1
        if kind == "delta" and msg.delta.WhichOneof("type") == "add_block":
            key = user_key(msg.delta.add_block.id) or ""
            if key == VERDICT_KEY and run.verdict_at is None:
                run.verdict_at = now
            elif (numbered := NUMBERED_VERDICT.fullmatch(key)) is not None:
                run.verdict_number = max(run.verdict_number, int(numbered.group(1)))
        elif kind == "ref_hash":
            self._fail(TabError("server sent a cached-message reference we never asked for"))
        elif kind == "script_finished" and msg.script_finished in DONE:
            run.finished, run.status = now, msg.script_finished
            if self._waiting is not None and not self._waiting.done():
                self._waiting.set_result(run)

    def _fail(self, error: Exception) -> None:
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_exception(error)

    # ---- interactions ---------------------------------------------------------------------
    def _remember_shown(self) -> None:
        """What each widget shows, as the frontend keeps it: the value the script set
        (`set_value`), else the one it showed before, else its default. A widget drawn again
        without a value keeps its own: without this, the language switch (its value set once, by
        the session's first run) would report no choice after a run that redraws it, and the
        app would fall back to its default language."""
        shown = {}
        for w in self.page.widgets():
            if getattr(w.proto, "set_value", False) or w.id not in self.shown:
                shown[w.id] = default_state(w)
            else:
                shown[w.id] = self.shown[w.id]
        self.shown = shown

    def _widget_states(self, extra: list[WidgetState]) -> list[WidgetState]:
        states = {}
        for w in self.page.widgets():
            if w.id in self.committed:
                states[w.id] = self.committed[w.id]
            else:
                state = self.shown.get(w.id)
                if state is not None:
                    states[w.id] = state
        for state in extra:
            states[state.id] = state
        return list(states.values())

    async def rerun(self, *, set_values: list[WidgetState] = (), click: Widget | None = None,
                    first: bool = False) -> RunTiming:
        """Send one interaction (values the learner committed, a button clicked) and wait for the
        run it starts to finish."""
        for state in set_values:
            self.committed[state.id] = state
        extra = list(set_values)
        if click is not None:
            extra.append(WidgetState(id=click.id, trigger_value=True))
        fragment = ""
        if not first:
            touched = [click] if click is not None else []
            touched += [self.page.widget(s.id) for s in set_values]
            fragment = next((w.fragment_id for w in touched if w is not None and w.fragment_id), "")
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.page.query_string
        state.page_script_hash = "" if first else self.page.page_script_hash
        state.page_name = self.page_name if first else ""
        state.fragment_id = fragment
        if not first:
            state.widget_states.widgets.extend(self._widget_states(extra))
        info = state.context_info
        info.timezone, info.timezone_offset, info.locale = "UTC", 0, "en-US"
        info.url = f"{self.base_url}/{self.page_name}"
        return await self._send_and_wait(msg)

    async def _send_and_wait(self, msg: BackMsg) -> RunTiming:
        loop = asyncio.get_running_loop()
        self._waiting = loop.create_future()
        self._run = RunTiming(sent=time.perf_counter(), finished=0.0, status=-1, verdict_at=None,
                              messages=0)
        if self.on_send is not None:
            self.on_send()
        try:
            await self._ws.send(msg.SerializeToString())
            run = await asyncio.wait_for(self._waiting, self.timeout)
        except TimeoutError:
            raise TabError(f"no answer within {self.timeout:.0f} s") from None
        except TabError:
            raise
        except Exception as exc:  # noqa: BLE001 - a send on a dead socket
            raise TabError(f"send failed: {exc!r}") from None
        finally:
            self._waiting = None
        self.runs += 1
        on_screen = {w.id for w in self.page.widgets()}
        self.committed = {k: v for k, v in self.committed.items() if k in on_screen}
        self._remember_shown()
        if run.status == FINISHED.FINISHED_WITH_COMPILE_ERROR:
            raise TabError("the script did not compile")
        return run
