"""The attempt spool: each attempt on this replica's disk (fsynced) before it goes to the database.

    spool = Spool(spool_dir_for(store.url), database=database_tag(store.url))
    spool.append([SpooledAttempt(profile_id, attempt, moment), ...])   # durable when it returns
    spool.settled(attempt.key)                # in the database (or refused for good)
    waiting = spool.adopt()                   # at start: what dead processes left, oldest first

An answer is "saved" once it is in the database or here: a replica that dies with the database
down loses nothing its learners were told was saved; the next process to start on this spool
directory writes what it finds into the database (`AttemptWriter` does), once each (every
attempt carries its key: `ProgressStore.record_attempt` skips a key already stored).

Files. Each process appends to a segment of its own, `<database>.<pid>-<time>.spool` (the tag of
the database it writes to: a spool folder shared by apps on different databases replays each
segment into its own database only), and holds an
exclusive `flock` on it for as long as it lives; a segment whose lock can be taken belongs to a
dead process and is adopted (replicas may share the directory: two starting at once never adopt
the same segment). A segment is made under a temporary name, locked, then renamed, so no one
adopts a file that is being made; the directory is fsynced when a segment appears. A process
never appends to a file it did not make, so a torn record is always a file's last one.

Records. One line each: the CRC-32 of the JSON (8 hex digits), a space, the JSON (ASCII), a
newline. A line without its newline (a crash mid-write) or whose checksum does not match is
skipped; the lines before it are read as usual. A segment is deleted once every attempt in it
has settled and it has grown past `ROTATE_BYTES` (then a new one is begun) or was adopted.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import threading
import time
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy.engine import URL

from grader import Verdict
from tutor.store.engine import APP_DIR_NAME
from tutor.store.records import NewAttempt

SPOOL_ENV = "TUTOR_SPOOL_DIR"
SUFFIX = ".spool"
ROTATE_BYTES = 64 * 1024
_log = logging.getLogger(__name__)


def database_tag(url: URL) -> str:
    """A short name for the database (its URL without the password, hashed)."""
    return hashlib.sha256(url.render_as_string(hide_password=True).encode()).hexdigest()[:16]


def spool_dir_for(url: URL, env: Mapping[str, str] = os.environ) -> Path:
    """`$TUTOR_SPOOL_DIR`, else a folder per database under the user's data dir."""
    if env.get(SPOOL_ENV):
        return Path(env[SPOOL_ENV])
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR_NAME / "spool" / database_tag(url)


@dataclass(frozen=True)
class SpooledAttempt:
    """One attempt as spooled: for whom, what (with its key), and when it was submitted."""

    profile_id: int
    attempt: NewAttempt
    moment: datetime

    def to_line(self) -> bytes:
        # The attempt's fields as they are (`dataclasses.asdict` deep-copied every value: a
        # third of the spool thread's CPU); its values are text, numbers and str enums.
        fields = dict(vars(self.attempt))
        fields["rubric_ticks"] = list(self.attempt.rubric_ticks)
        payload = json.dumps({"profile_id": self.profile_id, "moment": self.moment.isoformat(),
                              "attempt": fields}, ensure_ascii=True, separators=(",", ":"))
        data = payload.encode("ascii")
        return b"%08x %s\n" % (zlib.crc32(data), data)

    @classmethod
    def from_line(cls, line: bytes) -> SpooledAttempt:
        """One record (without its newline); ValueError when it is damaged."""
        checksum, _, data = line.partition(b" ")
        if len(checksum) != 8 or int(checksum, 16) != zlib.crc32(data):
            raise ValueError("checksum mismatch")
        entry = json.loads(data)
        fields = dict(entry["attempt"])
        fields["rubric_ticks"] = tuple(fields["rubric_ticks"])
        fields["verdict"] = Verdict(fields["verdict"])  # ValueError for a word it is not
        attempt = NewAttempt(**fields)
        if not attempt.key:
            raise ValueError("an attempt without a key")
        return cls(int(entry["profile_id"]), attempt, datetime.fromisoformat(entry["moment"]))


def read_records(data: bytes) -> tuple[list[SpooledAttempt], int]:
    """The records in a segment's bytes, and how many were skipped (torn or damaged)."""
    lines = data.split(b"\n")
    skipped = 1 if lines[-1] else 0  # no newline after the last bytes: a torn last record
    records = []
    for line in lines[:-1]:
        try:
            records.append(SpooledAttempt.from_line(line))
        except (ValueError, KeyError, TypeError) as exc:
            skipped += 1
            _log.warning("spool: a damaged record skipped (%s)", exc)
    return records, skipped


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Spool:
    """The segments of one directory that this process holds (its own and those it adopted)."""

    def __init__(self, directory: Path, *, database: str = "attempts") -> None:
        self.directory = Path(directory)
        self.database = database  # segments of other databases are left alone
        self._lock = threading.Lock()
        self._held: dict[Path, int] = {}  # segment -> open descriptor (holding its flock)
        self._waiting: dict[Path, set[str]] = {}  # segment -> keys not settled yet
        self._current: Path | None = None
        self.skipped = 0  # torn or damaged records met by adopt()

    # ---- writing --------------------------------------------------------------------------
    def append(self, entries: Iterable[SpooledAttempt]) -> None:
        """Write the entries and fsync them; raises OSError when they may not be on disk (a
        full disk, a read-only folder): then they are not durable, and the caller must not say
        they are saved."""
        entries = list(entries)
        data = b"".join(e.to_line() for e in entries)
        with self._lock:
            segment = self._current or self._begin_segment()
            fd = self._held[segment]
            try:
                written = os.write(fd, data)
                if written != len(data):
                    raise OSError(f"short write to the spool ({written} of {len(data)} bytes)")
                os.fsync(fd)
            except OSError:
                # Its end may now hold part of a record: append nothing more to it (it stays
                # held, and is settled and deleted as usual, or replayed after a crash).
                self._current = None
                raise
            self._waiting[segment].update(e.attempt.key for e in entries)

    def _begin_segment(self) -> Path:
        missing = [d for d in (self.directory, *self.directory.parents) if not d.exists()]
        self.directory.mkdir(parents=True, exist_ok=True)
        for made in reversed(missing):  # each new folder's entry in its parent, top down
            _fsync_dir(made.parent)
        name = f"{self.database}.{os.getpid()}-{time.time_ns()}"
        making = self.directory / f"{name}.tmp"
        fd = os.open(making, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            segment = making.with_suffix(SUFFIX)
            os.rename(making, segment)
            _fsync_dir(self.directory)
        except OSError:
            os.close(fd)
            making.unlink(missing_ok=True)
            raise
        self._held[segment] = fd
        self._waiting[segment] = set()
        self._current = segment
        return segment

    def settled(self, key: str) -> None:
        """The attempt is in the database, or refused for good: its segment no longer needs
        it. A segment with nothing waiting is deleted (the current one once it is large)."""
        with self._lock:
            for segment, keys in list(self._waiting.items()):
                if key not in keys:
                    continue
                keys.discard(key)
                if not keys and (segment != self._current
                                 or os.fstat(self._held[segment]).st_size >= ROTATE_BYTES):
                    self._drop(segment)

    def _drop(self, segment: Path) -> None:
        segment.unlink(missing_ok=True)
        os.close(self._held.pop(segment))
        del self._waiting[segment]
        if segment == self._current:
            self._current = None

    def waiting(self) -> int:
        """Attempts on disk here and not yet settled."""
        with self._lock:
            return sum(len(keys) for keys in self._waiting.values())

    # ---- adopting what dead processes left --------------------------------------------------
    def adopt(self) -> list[SpooledAttempt]:
        """Take every segment no living process holds; their attempts, oldest first (by the
        moment each was submitted), to be written in that order so that cards are moved in
        time order."""
        if not self.directory.is_dir():
            return []
        found: list[tuple[datetime, int, SpooledAttempt]] = []
        for path in sorted(self.directory.iterdir()):
            if path.suffix not in (SUFFIX, ".tmp") or not path.name.startswith(f"{self.database}."):
                continue
            fd = self._take(path)
            if fd is None:
                continue
            if path.suffix == ".tmp":  # made but never renamed: it holds nothing
                path.unlink(missing_ok=True)
                os.close(fd)
                continue
            with open(fd, "rb", closefd=False) as handle:
                records, skipped = read_records(handle.read())
            self.skipped += skipped
            with self._lock:
                self._held[path] = fd
                self._waiting[path] = {r.attempt.key for r in records}
                if not records:
                    self._drop(path)
            found += [(r.moment, len(found) + n, r) for n, r in enumerate(records)]
        found.sort(key=lambda item: item[:2])
        return [record for _moment, _n, record in found]

    def _take(self, path: Path) -> int | None:
        if path in self._held:
            return None
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:  # adopted and deleted by another process meanwhile
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # its process is alive
            os.close(fd)
            return None
        if not path.exists():  # deleted between our open and our lock
            os.close(fd)
            return None
        return fd

    def close(self) -> None:
        """Let go of every segment (kept on disk: the next process adopts what is left)."""
        with self._lock:
            for fd in self._held.values():
                os.close(fd)
            self._held.clear()
            self._waiting.clear()
            self._current = None
