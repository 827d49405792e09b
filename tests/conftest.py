"""Settings for every test: never read or write the developer's own instructor bank folders (nor
the attempt spool next to their data).

Without this, a question saved in `~/.local/share/residual-tutor/bank` (the default instructor
folder) or a folder named in `.streamlit/secrets.toml` would join the bank the app tests and the
browser tests see. Tests that need instructor folders set `TUTOR_BANK_PATHS` themselves.
"""

import os
import tempfile
from pathlib import Path

_EMPTY = Path(tempfile.mkdtemp(prefix="tutor-test-instructor-"))
os.environ.setdefault("TUTOR_BANK_PATHS", str(_EMPTY / "bank"))
os.environ.setdefault("TUTOR_CONFIG", str(_EMPTY / "no-config.toml"))
# Attempts the app spools before writing them (tutor/store/spool.py) stay out of the user's folder.
os.environ.setdefault("TUTOR_SPOOL_DIR", str(_EMPTY / "spool"))
