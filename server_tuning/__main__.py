"""The app's server, as `make run` starts it: `streamlit run streamlit_app.py` in this process,
tuned (`server_tuning.enable`: the first page preloaded as soon as the server listens, the
warm-up after the first page, the reaper).

    .venv/bin/python -m server_tuning [any `streamlit run` option, e.g. --server.port 8600]

`streamlit run streamlit_app.py` still works and serves the same app, untuned: its first page is
slower and sessions of learners who left stay in memory (docs/server.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "streamlit_app.py"


def main(argv: list[str] | None = None) -> None:
    from streamlit.web import cli

    import server_tuning

    options = sys.argv[1:] if argv is None else argv
    server_tuning.enable()
    cli.main(["run", str(APP), *options], prog_name="streamlit")


if __name__ == "__main__":
    main()
