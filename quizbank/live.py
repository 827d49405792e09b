"""The bank as the running app sees it: every folder, re-read when a file changes, and a broken
file withholding only its own questions.

`BankCache(folders).current()` looks at every bank file's identity (inode, size, modification
time in ns) and re-reads only the files whose identity changed; when nothing changed it returns
the same `LiveBank` object, so a page can cache on it. There is no timer: a file saved by the
Author page (an atomic rename gives it a new inode) or by an editor is seen on the next call.

Unlike `load_bank`, which refuses the whole bank on any problem (right for the command line and
CI), a file with a problem here is *withheld*: its questions are left out and the file is listed
with every problem, so one broken question never takes the app down. Checks across files follow
the load order (the shipped bank first, then the instructor folders in configuration order): an
id already defined earlier withholds the later file, naming both `file:line`s; a follow-up or
template that does not exist withholds the file that names it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .bank import Bank
from .loader import bank_files, read_bank_file
from .parse import ParsedQuestion, cross_check
from .problems import Problem

FileKey = tuple[int, int, int]  # (inode, size, mtime_ns): changes whenever the file does


@dataclass(frozen=True)
class WithheldFile:
    """A bank file left out of the running app, and why."""

    path: str
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class LiveBank:
    bank: Bank
    withheld: tuple[WithheldFile, ...] = ()
    version: tuple = field(default=(), compare=False, repr=False)  # the files' keys


@dataclass(frozen=True)
class _ReadFile:
    path: Path
    key: FileKey
    parsed: tuple[ParsedQuestion, ...]
    problems: tuple[Problem, ...]

    @property
    def shown(self) -> str:
        return self.parsed[0].path if self.parsed else (
            self.problems[0].path if self.problems else str(self.path))


def _key(path: Path) -> FileKey | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


def _duplicates(kept: list[_ReadFile]) -> dict[Path, list[Problem]]:
    """Ids already defined by an earlier file: the later file gets the problem, with both places."""
    first: dict[str, ParsedQuestion] = {}
    found: dict[Path, list[Problem]] = {}
    for read in kept:
        mine: dict[str, ParsedQuestion] = {}
        for p in read.parsed:
            if p.raw_id.startswith("questions[") or p.raw_id in mine:
                continue  # a duplicate inside one file is that file's own problem already
            mine[p.raw_id] = p
            if p.raw_id in first:
                earlier = first[p.raw_id]
                message = (f"duplicate id; also defined at {earlier.path}:"
                           f"{earlier.line('id') or '?'}")
                found.setdefault(read.path, []).append(
                    Problem(p.path, p.line("id"), p.raw_id, "id", message))
        for qid, p in mine.items():
            first.setdefault(qid, p)
    return found


def assemble(files: Sequence[_ReadFile]) -> tuple[Bank, tuple[WithheldFile, ...]]:
    """The questions of every file without a problem; the others withheld with their problems."""
    withheld: dict[Path, list[Problem]] = {f.path: list(f.problems) for f in files if f.problems}
    # Withholding a file can break another's follow-ups: repeat until nothing more is withheld.
    for _ in range(len(files) + 1):
        kept = [f for f in files if f.path not in withheld]
        found = _duplicates(kept)
        if not found:
            by_shown = {f.shown: f.path for f in kept}
            for problem in cross_check([p for f in kept for p in f.parsed]):
                found.setdefault(by_shown.get(problem.path, Path(problem.path)), []).append(problem)
        if not found:
            break
        for path, problems in found.items():
            withheld.setdefault(path, []).extend(problems)
    kept_parsed = [p for f in files if f.path not in withheld for p in f.parsed]
    bank = Bank(questions={p.question.id: p.question for p in kept_parsed},
                locations={p.question.id: p.location() for p in kept_parsed})
    shown = {f.path: f.shown for f in files}
    return bank, tuple(WithheldFile(shown[path], tuple(sorted(problems)))
                       for path, problems in withheld.items())


class BankCache:
    """Shared by every session of one server (it holds only immutable results)."""

    def __init__(self, folders: Sequence[Path | str]):
        self.folders = tuple(Path(f) for f in folders)
        self._lock = threading.Lock()
        self._files: dict[Path, _ReadFile] = {}
        self._live: LiveBank | None = None

    def _scan(self) -> list[tuple[Path, FileKey]]:
        found = []
        for folder in self.folders:
            if folder.exists():
                for path in bank_files(folder):
                    key = _key(path)
                    if key is not None:
                        found.append((path, key))
        return found

    def current(self) -> LiveBank:
        """The bank as the files are now (re-reading only the files that changed)."""
        scanned = self._scan()
        version = tuple(scanned)
        with self._lock:
            if self._live is not None and self._live.version == version:
                return self._live
            files = []
            for path, key in scanned:
                read = self._files.get(path)
                if read is None or read.key != key:
                    parsed, problems = read_bank_file(path)
                    read = _ReadFile(path, key, tuple(parsed), tuple(problems))
                files.append(read)
            self._files = {f.path: f for f in files}
            bank, withheld = assemble(files)
            self._live = LiveBank(bank, withheld, version)
            return self._live
