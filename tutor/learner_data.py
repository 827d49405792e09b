"""The operator's command for a learner's data (issue 28): list, export, delete, and the retention
period. Each command is one call into `tutor.store.deletions` or `tutor.transfer`.

    export TUTOR_DATABASE_URL=postgresql+psycopg://...       # the app's setting; required
    python -m tutor.learner_data list                         # id, name, sign-in, last activity
    python -m tutor.learner_data export 17 > learner-17.json  # the Dashboard's JSON export
    python -m tutor.learner_data delete 17 --by "J. Smith, request 2026-41" --yes
    python -m tutor.learner_data purge-inactive               # TUTOR_RETENTION_DAYS, or --days
    python -m tutor.learner_data deletions                    # the record of every deletion

`delete` without `--yes` only says what it would delete. Without TUTOR_DATABASE_URL every command
refuses (never a new empty SQLite file). Exit status 0 when done, 2 on a usage or setting error,
1 when the database refused (the message says why).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from datetime import timedelta

from tutor.store import ENV_URL, ProgressStore, TutorError
from tutor.store.deletions import delete_learner, deletion_log, last_activity, purge_inactive

RETENTION_ENV = "TUTOR_RETENTION_DAYS"


def retention_period(raw: str | None) -> timedelta | None:
    """`TUTOR_RETENTION_DAYS` (whole or fractional days > 0) as a period; None when unset."""
    if raw is None or not raw.strip():
        return None
    try:
        days = float(raw)
    except ValueError:
        days = float("nan")
    if not days > 0 or days == float("inf"):
        raise ValueError(f"{RETENTION_ENV} must be a positive number of days, not {raw!r}")
    return timedelta(days=days)


def _list(db: ProgressStore, _args) -> None:
    from tutor.store.schema import identities

    active = last_activity(db)
    who = dict(db.read(lambda conn: conn.execute(
        identities.select().with_only_columns(identities.c.profile_id,
                                              identities.c.email_local)).all()))
    print("id\tname\temail_local\tlast_activity_utc")
    for p in db.list_profiles():
        print(f"{p.id}\t{p.name}\t{who.get(p.id) or ''}\t{active[p.id].isoformat()}")


def _export(db: ProgressStore, args) -> None:
    from tutor.transfer import export_json

    sys.stdout.write(export_json(db, args.profile_id) + "\n")


def _delete(db: ProgressStore, args) -> None:
    profile = db.get_profile(args.profile_id)
    attempts = db.count_attempts(profile.id)
    if not args.yes:
        print(f"would delete profile {profile.id} ({profile.name}) and its {attempts} attempts; "
              "add --yes to delete")
        return
    done = delete_learner(db, profile.id, by=f"operator {args.by}")
    print(f"deleted profile {done.profile_id}: {done.attempts} attempts; recorded as deletion "
          f"{done.id} at {done.deleted_at.isoformat()}")


def _purge(db: ProgressStore, args) -> None:
    period = timedelta(days=args.days) if args.days else retention_period(os.environ.get(RETENTION_ENV))
    if period is None:
        raise ValueError(f"no retention period: set {RETENTION_ENV} or pass --days")
    done = purge_inactive(db, period, by=f"retention {period.days}d ({args.by})")
    print(f"{len(done)} learner(s) inactive for longer than {period} deleted"
          + "".join(f"\n  profile {d.profile_id}: {d.attempts} attempts" for d in done))


def _deletions(db: ProgressStore, _args) -> None:
    print("id\tprofile_id\tdeleted_at_utc\treason\tattempts\tdeleted_by")
    for d in deletion_log(db):
        print(f"{d.id}\t{d.profile_id}\t{d.deleted_at.isoformat()}\t{d.reason}\t{d.attempts}\t"
              f"{d.deleted_by}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutor.learner_data",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--by", default=getpass.getuser(),
                        help="who asks (recorded with a deletion; default: your login name)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list").set_defaults(run=_list)
    export = commands.add_parser("export")
    export.add_argument("profile_id", type=int)
    export.set_defaults(run=_export)
    delete = commands.add_parser("delete")
    delete.add_argument("profile_id", type=int)
    delete.add_argument("--yes", action="store_true", help="really delete")
    delete.set_defaults(run=_delete)
    purge = commands.add_parser("purge-inactive")
    purge.add_argument("--days", type=float, help=f"the period (default ${RETENTION_ENV})")
    purge.set_defaults(run=_purge)
    commands.add_parser("deletions").set_defaults(run=_deletions)
    args = parser.parse_args(argv)
    if not os.environ.get(ENV_URL):
        print(f"set {ENV_URL} to the app's database (this command never opens a default one)",
              file=sys.stderr)
        return 2
    try:
        with ProgressStore.open() as db:
            args.run(db, args)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    except TutorError as exc:
        print(exc.message("en"), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
