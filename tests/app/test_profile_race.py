"""Many learners opening a fresh server at once: each gets the default profile and can save.

Found by the load generator: on a fresh database, learners arriving together raced to create the
default profile, the losers got "name taken", no profile, and none of their attempts were saved.
"""

from __future__ import annotations

from grader import Verdict
from tutor.sessions.profiles import choose_profile
from tutor.store import ProgressStore
from tutor.store.records import NewAttempt


def test_a_visit_that_loses_the_race_for_the_default_profile_still_gets_it(tmp_path):
    db = ProgressStore.open(f"sqlite:///{tmp_path / 'progress.db'}")
    listed = db.list_profiles

    def list_profiles():
        # Another tab's first visit creates the default profile between our look and our create.
        if not listed():
            db.create_profile("My profile")
            return []
        return listed()

    db.list_profiles = list_profiles
    chosen = choose_profile(db, None, default_name="My profile")
    assert chosen.name == "My profile"
    db.record_attempt(chosen.id, NewAttempt("basics-residual-block-form", Verdict.CORRECT, score=1.0))
    assert len(db.list_attempts(chosen.id)) == 1
