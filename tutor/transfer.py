"""Export a profile's whole history (CSV of attempts; JSON of everything) and import a JSON export.

An import is validated in full first (size limit, JSON syntax, then a strict pydantic model that
refuses unknown fields and wrong types), and written in one transaction: a malformed file, or any
failure while writing, leaves the database exactly as it was.

Importing into an existing profile merges: attempts already there (same question, time, answer and
verdict) are skipped, so importing the same file twice adds nothing; for a card on both sides the
one reviewed last wins; settings already set on the profile are kept.

A file with attempts (or card reviews) dated in the future is refused: a clock set wrong on the
exporting machine would otherwise keep those cards out of Review for years. Attempts at questions
the bank does not have (`known_question_ids`) are *kept*, not skipped: they may belong to a bank
folder not loaded here, and the history is the learner's; the report counts them
(`attempts_unknown`) so the page can say so. They count in the dashboard's attempts; mastery and
Review leave them out until the question exists.

Every imported attempt is marked `imported`: a file is something anyone can write (back-dated
"correct" answers by the thousand), so Class and Analytics count only attempts answered in the
app; the learner's own Dashboard shows the imported ones too, marked. How much one import may
bring is an `ImportPolicy`: in a class deployment smaller than on one's own machine, and the
instructor may turn importing off altogether (`ImportPolicy.for_class`).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
)
from sqlalchemy import and_, select, update
from sqlalchemy.engine import Connection

from grader import Verdict
from tutor.rating import RECORDED_VERDICTS, Phase
from tutor.spreadsheet import inert
from tutor.store import ProfileError, ProgressStore, TutorError, utc_now
from tutor.store.database import GLOBAL_LOCK
from tutor.store.progress import card_values, clean_profile_name, name_taken, require_profile
from tutor.store.records import MAX_ANSWER_CHARS, MAX_PROFILE_NAME, MAX_QUESTION_ID
from tutor.store.schema import attempts, cards, profiles, settings

FORMAT = "residual-tutor-progress"
FORMAT_VERSION = 1
MAX_IMPORT_BYTES = 20 * 1024 * 1024
MAX_IMPORT_ATTEMPTS = 500_000
# A class deployment's defaults: a heavy term of honest practice (~100 answers a day) fits;
# 45,138 forged attempts in 18.5 MB (the file issue 23 imported in 7.7 s) do not.
CLASS_MAX_IMPORT_MB = 5
CLASS_MAX_IMPORT_ATTEMPTS = 10_000
MAX_PROBLEMS_SHOWN = 10
# A file exported a moment ago on a machine whose clock runs a little ahead is still fine.
FUTURE_SLACK = timedelta(minutes=5)

_MESSAGES = {
    "too-large": {
        "en": "The file is too large to import (limit {limit_mb} MB).",
        "zh": "文件过大，无法导入（上限 {limit_mb} MB）。",
    },
    "too-many": {
        "en": "The file has {count} attempts; at most {limit} can be imported at once.",
        "zh": "文件中有 {count} 条作答记录；一次最多只能导入 {limit} 条。",
    },
    "not-json": {
        "en": "The file is not valid JSON: {problems}.",
        "zh": "文件不是有效的 JSON：{problems}。",
    },
    "wrong-format": {
        "en": "This is not a progress export of this app (or of a version it cannot read).",
        "zh": "这不是本应用导出的进度文件（或来自无法读取的版本）。",
    },
    "future": {
        "en": "{count} entries in the file are dated in the future (the exporting machine's clock "
        "may be wrong); nothing was imported. First: {problems}",
        "zh": "文件中有 {count} 条记录的日期在未来（导出时电脑的时钟可能不对），未导入任何内容。"
        "例如：{problems}",
    },
    "turned-off": {
        "en": "Importing is turned off in this class.",
        "zh": "本课程已关闭导入功能。",
    },
    "unknown-verdict": {
        "en": "{count} attempts in the file have a verdict this app does not know (it knows "
        "{known}); nothing was imported. First: {problems}",
        "zh": "文件中有 {count} 条作答记录的判定结果无法识别（可识别的是 {known}），未导入任何内容。"
        "例如：{problems}",
    },
    "invalid": {
        "en": "The file does not match the progress export format; nothing was imported. "
        "Problems: {problems}",
        "zh": "文件不符合进度导出格式，未导入任何内容。问题：{problems}",
    },
}


class ImportRefused(TutorError):
    """A JSON export refused before anything was written. `.problems` lists what is wrong."""

    _messages = _MESSAGES

    def __init__(self, code: str, problems: Iterable[str] = (), **fmt: object) -> None:
        self.problems = list(problems)
        shown = "; ".join(self.problems[:MAX_PROBLEMS_SHOWN])
        super().__init__(code, shown, problems=shown, **fmt)


@dataclass(frozen=True)
class ImportPolicy:
    """Whether importing is allowed, and how big one import may be."""

    allowed: bool = True
    max_bytes: int = MAX_IMPORT_BYTES
    max_attempts: int = MAX_IMPORT_ATTEMPTS

    @classmethod
    def for_class(cls, secrets: Mapping[str, object] | None,
                  env: Mapping[str, str]) -> ImportPolicy:
        """A class deployment's: the secrets' `[imports]` table (`allowed`, `max_mb`,
        `max_attempts`), each key overridden by its environment variable (`TUTOR_IMPORTS_ALLOWED`,
        `TUTOR_IMPORT_MAX_MB`, `TUTOR_IMPORT_MAX_ATTEMPTS`); raises ValueError for a bad value."""
        section = secrets or {}

        def setting(key: str, variable: str, default: object) -> object:
            return env.get(variable, section.get(key, default))

        allowed = setting("allowed", "TUTOR_IMPORTS_ALLOWED", True)
        if isinstance(allowed, str):
            allowed = allowed.strip().lower() not in ("0", "false", "no", "off")
        megabytes = _positive("max_mb", setting("max_mb", "TUTOR_IMPORT_MAX_MB", CLASS_MAX_IMPORT_MB))
        attempts_cap = _positive("max_attempts", setting(
            "max_attempts", "TUTOR_IMPORT_MAX_ATTEMPTS", CLASS_MAX_IMPORT_ATTEMPTS))
        return cls(allowed=allowed is not False,
                   max_bytes=min(int(megabytes * 1024 * 1024), MAX_IMPORT_BYTES),
                   max_attempts=min(int(attempts_cap), MAX_IMPORT_ATTEMPTS))

    @property
    def max_mb(self) -> int | float:
        megabytes = self.max_bytes / (1024 * 1024)
        return int(megabytes) if megabytes.is_integer() else round(megabytes, 1)


def _positive(key: str, value: object) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not (math.isfinite(number) and number > 0):
        raise ValueError(f"[imports] {key} must be a positive number, not {value!r}")
    return number


# ---- the format ---------------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)


QuestionId = Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_ID)]
# "error" is how files written before the grader's vocabulary said "unreadable"
OLD_VERDICT_WORDS = {"error": Verdict.UNREADABLE.value}


def _verdict_word(word: object) -> object:
    """A file's verdict word in the grader's vocabulary (the model then makes it a `Verdict`)."""
    return OLD_VERDICT_WORDS.get(word, word) if isinstance(word, str) else word


class AttemptOut(_Strict):
    question_id: QuestionId
    seed: int | None
    answer: Annotated[str, Field(max_length=MAX_ANSWER_CHARS)]
    verdict: Annotated[Verdict, BeforeValidator(_verdict_word)]
    score: Annotated[float, Field(ge=0.0, le=1.0)]
    hints_used: Annotated[int, Field(ge=0, le=1000)]
    seconds: Annotated[float, Field(ge=0.0)]
    confidence: Literal[1, 2, 3] | None
    rubric_ticks: Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=100)]
    rating: Literal[1, 2, 3, 4] | None
    mode: Literal["practice", "review", "interview"]
    created_at: AwareDatetime
    # absent from files written before tries were told apart: every attempt then counted
    phase: Literal["first", "retry", "after_reveal", "repeat"] = "first"


class CardOut(_Strict):
    question_id: QuestionId
    state: Literal[1, 2, 3]  # fsrs.State: Learning, Review, Relearning
    step: Annotated[int, Field(ge=0)] | None
    stability: Annotated[float, Field(gt=0.0)] | None
    difficulty: Annotated[float, Field(ge=1.0, le=10.0)] | None
    due: AwareDatetime
    last_review: AwareDatetime | None
    reps: Annotated[int, Field(ge=0)]
    lapses: Annotated[int, Field(ge=0)]
    last_rating: Literal[1, 2, 3, 4] | None
    last_confidence: Literal[1, 2, 3] | None


class ProfileOut(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=MAX_PROFILE_NAME)]
    created_at: AwareDatetime


class ProgressExport(_Strict):
    format: Literal["residual-tutor-progress"]
    format_version: Literal[1]
    exported_at: AwareDatetime
    profile: ProfileOut
    settings: dict[Annotated[str, Field(min_length=1, max_length=64)], JsonValue]
    attempts: Annotated[list[AttemptOut], Field(max_length=500_000)]
    cards: Annotated[list[CardOut], Field(max_length=100_000)]


# ---- export -------------------------------------------------------------------------------
def export_data(store: ProgressStore, profile_id: int, *, now: datetime | None = None) -> ProgressExport:
    profile = store.get_profile(profile_id)
    return ProgressExport(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        exported_at=now or utc_now(),
        profile=ProfileOut(name=profile.name, created_at=profile.created_at),
        settings=store.get_settings(profile_id),
        attempts=[
            AttemptOut(**{f: getattr(a, f) for f in AttemptOut.model_fields if f != "rubric_ticks"},
                       rubric_ticks=list(a.rubric_ticks))
            for a in store.list_attempts(profile_id)
        ],
        cards=[
            CardOut(question_id=c.question_id, **card_values(c)) for c in store.list_cards(profile_id)
        ],
    )


def export_json(store: ProgressStore, profile_id: int, *, now: datetime | None = None) -> str:
    return export_data(store, profile_id, now=now).model_dump_json(indent=1)


CSV_COLUMNS = [
    "created_at", "question_id", "verdict", "score", "confidence", "hints_used", "seconds",
    "seed", "mode", "phase", "rating", "rubric_ticks", "answer",
]


def export_csv(store: ProgressStore, profile_id: int) -> str:
    """Every attempt, oldest first, one row each (for a spreadsheet; JSON is the one to import)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for a in store.list_attempts(profile_id):
        writer.writerow([
            a.created_at.isoformat(), inert(a.question_id), a.verdict, a.score,
            "" if a.confidence is None else a.confidence, a.hints_used, a.seconds,
            "" if a.seed is None else a.seed, a.mode, a.phase,
            "" if a.rating is None else a.rating,
            ";".join(a.rubric_ticks), inert(a.answer),
        ])
    return out.getvalue()


# ---- import -------------------------------------------------------------------------------
def parse_export(data: bytes | str, *, now: datetime | None = None,
                 policy: ImportPolicy = ImportPolicy()) -> ProgressExport:
    """Validate a whole JSON export; raises ImportRefused with every problem found (an entry
    dated after `now`, default the current time, is one; so is a file over `policy`'s limits,
    refused before the slow validation)."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if len(raw) > policy.max_bytes:
        raise ImportRefused("too-large", limit_mb=policy.max_mb)
    try:
        header = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ImportRefused("not-json", [str(exc)[:200]]) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT or (
        header.get("format_version") != FORMAT_VERSION
    ):
        raise ImportRefused("wrong-format")
    count = len(header["attempts"]) if isinstance(header.get("attempts"), list) else 0
    if count > policy.max_attempts:
        raise ImportRefused("too-many", count=count, limit=policy.max_attempts)
    unknown = _unknown_verdicts(header["attempts"] if count else [])
    if unknown:
        raise ImportRefused("unknown-verdict", unknown, count=len(unknown),
                            known=", ".join(v.value for v in Verdict))
    try:
        parsed = ProgressExport.model_validate_json(raw)
    except ValidationError as exc:
        raise ImportRefused("invalid", [_describe(e) for e in exc.errors()]) from None
    duplicated = _repeated(c.question_id for c in parsed.cards)
    if duplicated:
        raise ImportRefused("invalid", [f"cards: question {q} appears twice" for q in duplicated])
    future = _dated_in_future(parsed, (now or utc_now()) + FUTURE_SLACK)
    if future:
        raise ImportRefused("future", future, count=len(future))
    return parsed


def _unknown_verdicts(entries: list) -> list[str]:
    """Where a verdict is a word that names no `grader.Verdict` (its own message: the file may
    come from a newer app; any other malformed entry is the model's to describe)."""
    known = {v.value for v in Verdict} | OLD_VERDICT_WORDS.keys()
    return [f"attempts.{k}.verdict: {entry['verdict']!r}" for k, entry in enumerate(entries)
            if isinstance(entry, dict) and isinstance(entry.get("verdict"), str)
            and entry["verdict"] not in known]


def _dated_in_future(export: ProgressExport, limit: datetime) -> list[str]:
    found = [f"attempts.{k}: {a.question_id} {a.created_at.isoformat()}"
             for k, a in enumerate(export.attempts) if a.created_at > limit]
    found += [f"cards.{k}: {c.question_id} last_review {c.last_review.isoformat()}"
              for k, c in enumerate(export.cards)
              if c.last_review is not None and c.last_review > limit]
    return found


def _describe(error: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in error["loc"]) or "(file)"
    return f"{where}: {error['msg']}"


def _repeated(ids: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    return sorted({i for i in ids if i in seen or seen.add(i)})


@dataclass(frozen=True)
class ImportReport:
    profile_id: int
    attempts_added: int
    attempts_skipped: int
    cards_written: int
    settings_written: int
    attempts_unknown: int = 0  # of those added, attempts at questions the bank does not have
    questions_unknown: int = 0  # ... and at how many distinct questions
    first_tries_added: int = 0  # of those added, counted first tries (what "Attempts" counts)


def import_json(
    store: ProgressStore,
    data: bytes | str,
    *,
    into_profile_id: int | None = None,
    new_profile_name: str | None = None,
    known_question_ids: Collection[str] | None = None,
    now: datetime | None = None,
    policy: ImportPolicy = ImportPolicy(),
) -> ImportReport:
    """Import an export into an existing profile, or into a new one (named `new_profile_name`,
    else the exported name), every attempt marked imported. Raises ImportRefused / ProfileError,
    having written nothing. With `known_question_ids` (the bank's ids) the report counts the
    attempts added for other questions; they are kept."""
    if not policy.allowed:
        raise ImportRefused("turned-off")
    export = parse_export(data, now=now, policy=policy)
    name = clean_profile_name(new_profile_name or export.profile.name)

    def work(conn: Connection) -> ImportReport:
        if into_profile_id is None:
            if name_taken(conn, name):
                raise ProfileError("name-taken", name=name)
            values = {"name": name, "created_at": export.profile.created_at}
            profile_id = conn.execute(profiles.insert().values(**values)).inserted_primary_key[0]
        else:
            profile_id = require_profile(conn, into_profile_id).id
        return _merge(conn, profile_id, export, known_question_ids)

    lock = GLOBAL_LOCK if into_profile_id is None else (GLOBAL_LOCK, into_profile_id)
    return store.write(work, lock_key=lock)


def _merge(conn: Connection, profile_id: int, export: ProgressExport,
           known_question_ids: Collection[str] | None) -> ImportReport:
    def attempt_key(question_id, created_at, answer, verdict) -> tuple:
        return (question_id, created_at, answer, verdict)

    existing = {
        attempt_key(*row)
        for row in conn.execute(
            select(attempts.c.question_id, attempts.c.created_at, attempts.c.answer, attempts.c.verdict)
            .where(attempts.c.profile_id == profile_id)
        )
    }
    new_rows = []
    for a in export.attempts:
        key = attempt_key(a.question_id, a.created_at, a.answer, a.verdict)
        if key in existing:
            continue
        existing.add(key)
        row = a.model_dump() | {"imported": True}
        row["rubric_ticks"] = json.dumps(a.rubric_ticks) if a.rubric_ticks else None
        new_rows.append({**row, "profile_id": profile_id})
    if new_rows:
        conn.execute(attempts.insert(), new_rows)

    have = {
        r.question_id: r.last_review
        for r in conn.execute(
            select(cards.c.question_id, cards.c.last_review).where(cards.c.profile_id == profile_id)
        )
    }
    written = 0
    for card in export.cards:
        values = card.model_dump(exclude={"question_id"})
        if card.question_id not in have:
            conn.execute(cards.insert().values(profile_id=profile_id, question_id=card.question_id, **values))
        elif _later(card.last_review, have[card.question_id]):
            where = and_(cards.c.profile_id == profile_id, cards.c.question_id == card.question_id)
            conn.execute(update(cards).where(where).values(**values))
        else:
            continue
        written += 1

    set_keys = set(
        conn.execute(select(settings.c.key).where(settings.c.profile_id == profile_id)).scalars()
    )
    fresh = [
        {"profile_id": profile_id, "key": k, "value": json.dumps(v, ensure_ascii=False)}
        for k, v in export.settings.items()
        if k not in set_keys
    ]
    if fresh:
        conn.execute(settings.insert(), fresh)
    unknown = [] if known_question_ids is None else [
        r["question_id"] for r in new_rows if r["question_id"] not in known_question_ids]
    first_tries = sum(1 for r in new_rows if r["phase"] == Phase.FIRST.value
                      and r["verdict"] in RECORDED_VERDICTS)
    return ImportReport(profile_id, len(new_rows), len(export.attempts) - len(new_rows), written,
                        len(fresh), attempts_unknown=len(unknown), questions_unknown=len(set(unknown)),
                        first_tries_added=first_tries)


def _later(candidate: datetime | None, current: datetime | None) -> bool:
    if candidate is None:
        return False
    return current is None or candidate > current
