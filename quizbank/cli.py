"""`quizbank validate | schema | stats | test`: one-line calls into the library."""

import argparse
import json
import os
import sys
from pathlib import Path

from .author_tests import GraderUnavailable, import_grade_question, run_author_tests
from .bilingual import bank_language_warnings
from .enums import Difficulty, SourceText, Topic
from .files import write_text_atomically
from .folders import configured_folders
from .images import ImageConflict, images_folder, write_images
from .loader import load_bank, load_bank_folders
from .positive_names import bank_positive_warnings
from .problems import BankError
from .schema import bank_file_schema
from .stats import bank_stats, format_stats

EXIT_OK, EXIT_INVALID, EXIT_NO_GRADER = 0, 1, 2


def _load_or_report(path: str | None):
    """The bank at `path`; without one, the shipped bank and every configured instructor folder
    (`TUTOR_BANK_PATHS`, the `[tutor]` section of the app's configuration)."""
    try:
        if path:
            return load_bank(Path(path))
        folders = configured_folders()
        for problem in folders.problems:
            print(f"configuration: {problem}", file=sys.stderr)
        return load_bank_folders(folders.all)
    except BankError as error:
        for problem in error.problems:
            print(problem)
        count = len(error.problems)
        print(f"{count} problem{'s' if count != 1 else ''} found")
        return None


def cmd_validate(args) -> int:
    bank = _load_or_report(args.path)
    if bank is None:
        return EXIT_INVALID
    files = len({loc.path for loc in bank.locations.values()})
    warnings = [*bank_language_warnings(bank), *bank_positive_warnings(bank)]
    for found in warnings:
        print(f"warning: {found}")
    count = len(warnings)
    said = f", {count} warning{'s' if count != 1 else ''}" if warnings else ""
    print(f"ok: {len(bank)} question{'s' if len(bank) != 1 else ''} in {files} "
          f"file{'s' if files != 1 else ''}, no problems{said}")
    return EXIT_OK


def cmd_schema(args) -> int:
    print(json.dumps(bank_file_schema(), indent=2, ensure_ascii=False))
    return EXIT_OK


def cmd_stats(args) -> int:
    bank = _load_or_report(args.path)
    if bank is None:
        return EXIT_INVALID
    stats = bank_stats(bank)
    print(json.dumps(stats.as_dict(), indent=2) if args.json else format_stats(stats))
    return EXIT_OK


def cmd_test(args) -> int:
    try:
        grade = import_grade_question()
    except GraderUnavailable as error:
        print(f"cannot run author tests: {error}", file=sys.stderr)
        return EXIT_NO_GRADER
    bank = _load_or_report(args.path)
    if bank is None:
        return EXIT_INVALID
    outcomes = run_author_tests(bank, grade, lang=args.lang)
    if args.mutations:
        from .mutations import run_mutation_tests, survivors_report

        mutations = run_mutation_tests(bank, grade, lang=args.lang)
        if args.report:
            write_text_atomically(Path(args.report), survivors_report(mutations))
        outcomes = [*outcomes, *mutations]
    failed = [o for o in outcomes if not o.passed]
    for outcome in failed:
        print(outcome)
    print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed")
    return EXIT_INVALID if failed else EXIT_OK


def cmd_moodle_export(args) -> int:
    from .moodle import export_moodle

    bank = _load_or_report(args.path)
    if bank is None:
        return EXIT_INVALID
    wanted = [i.strip() for i in (args.ids or "").split(",") if i.strip()]
    unknown = [i for i in wanted if i not in bank.questions]
    if unknown:
        print(f"no question with id {', '.join(unknown)}", file=sys.stderr)
        return EXIT_INVALID
    questions = [bank.questions[i] for i in wanted] if wanted else list(bank)
    xml, notes = export_moodle(questions, image_folder=lambda question_id: images_folder(
        Path(bank.location(question_id).path)))
    write_text_atomically(Path(args.output), xml)
    for note in notes:
        print(f"note: {note}")
    exported = xml.count("<idnumber>")
    print(f"exported {exported} questions to {args.output} "
          f"({len(questions) - exported} not exported)")
    return EXIT_OK


def cmd_moodle_import(args) -> int:
    from .moodle import ImportDefaults, MoodleImportRefused, import_moodle, questions_yaml

    output = Path(args.output)
    if output.exists() and not args.force:
        print(f"{output} exists; pass --force to replace it", file=sys.stderr)
        return EXIT_INVALID
    bank = _load_or_report(None)
    defaults = ImportDefaults(topic=args.topic, difficulty=args.difficulty,
                              source_text=args.source_text, section=args.section)
    try:
        imported = import_moodle(Path(args.file).read_bytes(), defaults,
                                 taken_ids=set(bank.questions) if bank else set())
    except (OSError, MoodleImportRefused) as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return EXIT_INVALID
    for note in imported.notes:
        print(f"note: {note}")
    if imported.questions:
        if imported.images:  # before the bank file, which shows them
            try:
                write_images(images_folder(output), imported.images)
            except ImageConflict as conflict:
                print(f"{args.file}: {conflict}", file=sys.stderr)
                return EXIT_INVALID
            print(f"kept {len(imported.images)} images in {images_folder(output)}")
        write_text_atomically(output, questions_yaml(imported.questions))
    print(f"imported {len(imported.questions)} questions into {output}")
    return EXIT_OK if imported.questions else EXIT_INVALID


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizbank", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    bank_help = ("a bank folder or file (default: the shipped bank and the instructor folders "
                 "named by TUTOR_BANK_PATHS and the [tutor] section of the configuration)")

    validate = commands.add_parser("validate", help="check the bank; exit 1 listing every problem")
    validate.add_argument("path", nargs="?", help=bank_help)
    validate.set_defaults(run=cmd_validate)

    schema = commands.add_parser("schema", help="print the JSON Schema of a bank file")
    schema.set_defaults(run=cmd_schema)

    stats = commands.add_parser("stats", help="counts by topic, type, difficulty and language")
    stats.add_argument("path", nargs="?", help=bank_help)
    stats.add_argument("--json", action="store_true", help="print JSON instead of a table")
    stats.set_defaults(run=cmd_stats)

    test = commands.add_parser("test", help="run every question's author tests through the grader")
    test.add_argument("path", nargs="?", help=bank_help)
    test.add_argument("--lang", choices=("en", "zh"), default="en", help="feedback language")
    test.add_argument("--mutations", action="store_true",
                      help="also mutation-test the answer keys: wrong answers derived from each "
                           "key must be rejected, and every mal-rule must be reachable")
    test.add_argument("--report", help="with --mutations: write a Markdown report of the "
                                       "mutants that survived or were justified to this file")
    test.set_defaults(run=cmd_test)

    export = commands.add_parser("moodle-export", help="write questions as Moodle XML")
    export.add_argument("path", nargs="?", help=bank_help)
    export.add_argument("-o", "--output", required=True, help="the .xml file to write")
    export.add_argument("--ids", help="comma-separated question ids (default: every question)")
    export.set_defaults(run=cmd_moodle_export)

    moodle_in = commands.add_parser("moodle-import", help="turn a Moodle XML file into a bank file")
    moodle_in.add_argument("file", help="a Moodle XML question file")
    moodle_in.add_argument("-o", "--output", required=True, help="the bank .yaml file to write")
    moodle_in.add_argument("--force", action="store_true", help="replace an existing output file")
    moodle_in.add_argument("--topic", default="residual-basics", choices=[t.value for t in Topic])
    moodle_in.add_argument("--difficulty", default="medium",
                           choices=[d.value for d in Difficulty])
    moodle_in.add_argument("--source-text", default="gradient-propagation",
                           choices=[s.value for s in SourceText])
    moodle_in.add_argument("--section", default="Moodle import")
    moodle_in.set_defaults(run=cmd_moodle_import)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:
        # The reader went away (`quizbank stats | head`): no traceback; stop writing to the pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_INVALID


if __name__ == "__main__":
    sys.exit(main())
