"""A contained worker for the supervisor's tests (`python -m tests.contained.echo_child`): it
echoes each request, and has jobs that hang, die or print. ECHO_CHILD_SILENT=1: never ready."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from contained.child import open_channel, serve


def answer(line: str) -> dict:
    request = json.loads(line)
    job = request.get("job")
    if job == "sleep":
        time.sleep(request["seconds"])
    elif job == "print":
        print("noise that must not reach the parent")
    elif job == "die":
        os._exit(3)
    elif job == "die_once":  # the first child to get this dies; the next one answers
        marker = Path(request["marker"])
        if not marker.exists():
            marker.touch()
            os._exit(3)
    return {"echo": request, "pid": os.getpid()}


def main() -> None:
    channel = open_channel()
    if os.environ.get("ECHO_CHILD_SILENT") == "1":
        sys.stdin.read()  # never says it is ready
        return
    serve(channel, answer)


if __name__ == "__main__":
    main()
