"""Moodle XML in and out: `export_moodle(questions)` and `import_moodle(data)`, with `Note`s on
what could not be carried over, and `questions_yaml` to write imported questions as a bank file."""

import yaml

from .export import export_moodle
from .imports import ImportDefaults, MoodleImport, import_moodle
from .notes import MoodleImportRefused, Note


def questions_yaml(questions: list[dict]) -> str:
    """A bank file holding `questions` (plain data, already validated). Dumping is safe: PyYAML's
    safe dumper writes plain YAML that our strict reader accepts."""
    header = "# Imported from Moodle XML: check the notes of the import, then run `quizbank test`.\n"
    return header + yaml.safe_dump({"questions": questions}, allow_unicode=True, sort_keys=False,
                                   width=100, default_flow_style=False)


__all__ = ["ImportDefaults", "MoodleImport", "MoodleImportRefused", "Note", "export_moodle",
           "import_moodle", "questions_yaml"]
