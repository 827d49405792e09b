"""Which bank folders are loaded: the shipped bank, then the instructors' folders.

Instructor folders come from the configuration, in this order:

1. `TUTOR_BANK_PATHS`: folders separated by the OS path separator (`:` on Linux/macOS);
2. `bank_paths = ["…", …]` in the `[tutor]` section of the app's configuration file, which is
   `$TUTOR_CONFIG` when set, else `.streamlit/secrets.toml` in the working directory (the file
   Streamlit's own `[auth]` and `st.secrets` read);
3. when neither names a folder: `$XDG_DATA_HOME/residual-tutor/bank` (default
   `~/.local/share/residual-tutor/bank`), next to the progress database.

The first instructor folder is where the Author page saves. A folder that does not exist yet is
simply empty (the Author page creates it on the first save). Relative paths are relative to the
working directory; `~` is expanded.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .loader import SHIPPED_BANK

ENV_PATHS = "TUTOR_BANK_PATHS"
ENV_CONFIG = "TUTOR_CONFIG"
DEFAULT_CONFIG = Path(".streamlit") / "secrets.toml"
CONFIG_SECTION = "tutor"
CONFIG_KEY = "bank_paths"
APP_DIR_NAME = "residual-tutor"


@dataclass(frozen=True)
class BankFolders:
    """The instructor folders in load order, and what was wrong with the configuration."""

    instructor: tuple[Path, ...]
    problems: tuple[str, ...] = ()  # configuration problems, each a sentence naming the file

    @property
    def all(self) -> tuple[Path, ...]:
        """Every folder to load, the shipped bank first."""
        return (SHIPPED_BANK, *self.instructor)

    @property
    def author_folder(self) -> Path:
        """Where the Author page writes: the first instructor folder."""
        return self.instructor[0]


def default_instructor_folder(env: Mapping[str, str]) -> Path:
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR_NAME / "bank"


def _as_folder(text: str) -> Path:
    return Path(os.path.expanduser(text.strip())).absolute()


def _config_paths(config_file: Path) -> tuple[list[str], list[str]]:
    """(paths, problems) from the `[tutor]` section of `config_file` (absent file: nothing)."""
    try:
        data = tomllib.loads(config_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [], []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return [], [f"{config_file}: cannot read the configuration ({error})"]
    section = data.get(CONFIG_SECTION, {})
    paths = section.get(CONFIG_KEY, []) if isinstance(section, dict) else []
    if isinstance(paths, str):
        paths = [paths]
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        where = f"[{CONFIG_SECTION}] {CONFIG_KEY}"
        return [], [f"{config_file}: {where} must be a list of folder names (strings)"]
    return [p for p in paths if p.strip()], []


def configured_folders(env: Mapping[str, str] | None = None) -> BankFolders:
    """The instructor folders named by the environment and the configuration file."""
    env = os.environ if env is None else env
    names = [p for p in env.get(ENV_PATHS, "").split(os.pathsep) if p.strip()]
    config_file = Path(env.get(ENV_CONFIG) or DEFAULT_CONFIG)
    from_config, problems = _config_paths(config_file)
    folders: list[Path] = []
    for name in [*names, *from_config]:
        folder = _as_folder(name)
        if folder.is_relative_to(SHIPPED_BANK) or SHIPPED_BANK.is_relative_to(folder):
            problems.append(f"{name}: the shipped bank is loaded anyway and is never written to; "
                            "name a folder of your own")
        elif folder not in folders:
            folders.append(folder)
    if not folders:
        folders.append(default_instructor_folder(env))
    return BankFolders(tuple(folders), tuple(problems))
