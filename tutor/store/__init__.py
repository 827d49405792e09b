"""Learner progress: profiles, attempts, FSRS cards, settings (SQLite by default, or PostgreSQL).

See tutor/README.md for the API.
"""

from tutor.store.engine import ENV_URL, default_database_path, resolve_database_url
from tutor.store.errors import (
    PROFILE_ERROR_CODES,
    STORE_ERROR_CODES,
    ProfileError,
    StoreUnavailable,
    TutorError,
)
from tutor.store.progress import ProgressStore, utc_now
from tutor.store.records import AttemptRecord, NewAttempt, Profile
from tutor.store.scratch_writer import ScratchWriter
from tutor.store.spool import SPOOL_ENV, Spool, database_tag, spool_dir_for
from tutor.store.writer import AttemptWriter, PendingAttempt, SaveState

__all__ = [
    "ENV_URL",
    "PROFILE_ERROR_CODES",
    "STORE_ERROR_CODES",
    "AttemptRecord",
    "AttemptWriter",
    "ScratchWriter",
    "NewAttempt",
    "PendingAttempt",
    "Profile",
    "ProfileError",
    "ProgressStore",
    "SPOOL_ENV",
    "SaveState",
    "Spool",
    "StoreUnavailable",
    "TutorError",
    "database_tag",
    "default_database_path",
    "resolve_database_url",
    "spool_dir_for",
    "utc_now",
]
