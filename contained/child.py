"""The child side of a contained worker: the channel, the ready line, one reply per line.

    def main():
        channel = open_channel()        # first: from here on print() cannot reach the parent
        ...import and warm up...
        limit_address_space(768 * 1024 * 1024)     # optional
        serve(channel, answer)          # {"ready": true}, then answer(line) for each line

The loop ends when stdin closes (the parent exited or killed the pipe).
"""

from __future__ import annotations

import json
import os
import resource
import sys
from collections.abc import Callable
from typing import TextIO


def open_channel() -> TextIO:
    """The parent's pipe, for replies only: file descriptor 1 is pointed at stderr, so whatever
    the worker's libraries print cannot corrupt a reply."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    return channel


def limit_address_space(headroom_bytes: int) -> None:
    """Cap the address space at what is mapped now plus `headroom_bytes` (an allocation past it
    raises MemoryError in the worker instead of taking the machine's memory)."""
    try:
        with open("/proc/self/status") as status:
            line = next(x for x in status if x.startswith("VmSize:"))
        current = int(line.split()[1]) * 1024
    except (OSError, StopIteration, ValueError):
        current = 1024 * 1024 * 1024
    limit = current + headroom_bytes
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def serve(channel: TextIO, answer: Callable[[str], object]) -> None:
    """Say the worker is ready, then write `answer(line)` (JSON) for every line read."""
    channel.write('{"ready": true}\n')
    channel.flush()
    for line in sys.stdin:
        channel.write(json.dumps(answer(line), ensure_ascii=False) + "\n")
        channel.flush()
