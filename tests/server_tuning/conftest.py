"""A real Streamlit `Runtime` (what `streamlit run` serves sessions with), on an event loop thread
of its own: sessions connect and disconnect as browser tabs would, and server tuning reaches it
through the same internals as in the server (`Runtime.instance()`)."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from streamlit.runtime import Runtime, RuntimeConfig
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.session_manager import SessionClient


class Tab(SessionClient):
    """A browser tab's end of the websocket: what the server sends it is dropped."""

    def write_forward_msg(self, msg) -> None:
        pass


@dataclass
class RealRuntime:
    runtime: Runtime
    loop: asyncio.AbstractEventLoop

    def on_loop(self, call):
        """`call()` on the runtime's event loop (where Streamlit touches its sessions)."""

        async def run():
            return call()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(30)

    def open_tab(self) -> str:
        return self.on_loop(lambda: self.runtime.connect_session(Tab(), {}))

    def close_tab(self, session_id: str) -> None:
        self.on_loop(lambda: self.runtime.disconnect_session(session_id))

    def stored(self, session_id: str) -> bool:
        """Streamlit still keeps the session (to resume it for a returning tab)."""
        return self.on_loop(lambda: self.runtime._session_mgr.get_session_info(session_id)) is not None

    def app_session(self, session_id: str):
        return self.on_loop(lambda: self.runtime._session_mgr.get_session_info(session_id)).session


@pytest.fixture
def real_runtime(tmp_path):
    """A started Runtime serving `tmp_path/app.py` (write the script before a session runs it)."""
    script = Path(tmp_path / "app.py")
    script.write_text("import streamlit as st\nst.write('hello')\n")
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="test-runtime-loop", daemon=True)
    thread.start()
    runtime = Runtime(RuntimeConfig(script_path=str(script),
                                    media_file_storage=MemoryMediaFileStorage("/media"),
                                    uploaded_file_manager=MemoryUploadedFileManager("/upload")))
    real = RealRuntime(runtime, loop)
    try:
        asyncio.run_coroutine_threadsafe(runtime.start(), loop).result(30)
        yield real
    finally:
        runtime.stop()

        async def stopped():
            await runtime.stopped

        asyncio.run_coroutine_threadsafe(stopped(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        Runtime._instance = None  # the next test's runtime is a new one (one per process)
