"""Read the bank from YAML files: a folder (recursively) or one file; all problems at once."""

import os
from collections.abc import Sequence
from pathlib import Path

from .bank import Bank
from .parse import ParsedQuestion, build_bank, parse_document
from .problems import BankError, Problem
from .yaml_reader import read_yaml_file

SHIPPED_BANK = Path(__file__).resolve().parent / "bank"
BANK_SUFFIXES = (".yaml", ".yml")


def shown_path(path: Path) -> str:
    """Paths relative to the working directory when inside it: short, clickable messages."""
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative


def bank_files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.suffix in BANK_SUFFIXES and p.is_file())
    return [path]


def read_bank_file(file: Path) -> tuple[list[ParsedQuestion], list[Problem]]:
    """One file's questions (validated one by one) and its problems."""
    document, problems = read_yaml_file(file, shown_path(file))
    if document is None:
        return [], problems
    return parse_document(document.data, document.path, document.lines)


def load_bank(path: Path | str | None = None) -> Bank:
    """The validated bank at `path` (the shipped bank when None); raises BankError."""
    root = SHIPPED_BANK if path is None else Path(path)
    if not root.exists():
        raise BankError([Problem(shown_path(root), None, "-", "-", "no such file or folder")])
    files = bank_files(root)
    if not files:
        raise BankError([Problem(shown_path(root), None, "-", "-", "no *.yaml or *.yml files")])
    return _load_files(files)


def load_bank_folders(folders: Sequence[Path | str]) -> Bank:
    """One bank from several folders (the shipped bank and instructors' folders), checked as a
    whole: an id defined in two folders is reported at both `file:line`s. A folder that does not
    exist is empty. Raises BankError with every problem."""
    files = [f for folder in folders if Path(folder).exists() for f in bank_files(Path(folder))]
    return _load_files(files)


def _load_files(files: list[Path]) -> Bank:
    parsed, problems = [], []
    for file in files:
        file_questions, file_problems = read_bank_file(file)
        parsed += file_questions
        problems += file_problems
    return build_bank(parsed, problems)
