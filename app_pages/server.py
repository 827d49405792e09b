"""The app's server, as `make run` starts it: `streamlit run streamlit_app.py` in this process, with
the first page's work begun as soon as the server listens (`startup.preload_first_page`), so
that the first visitor does not wait for it.

    .venv/bin/python -m app_pages.server [any `streamlit run` option, e.g. --server.port 8600]

`streamlit run streamlit_app.py` still works and serves the same app; its first page is slower
(docs/server.md, "The first page").
"""

from __future__ import annotations

import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "streamlit_app.py"


def main(argv: list[str] | None = None) -> None:
    from streamlit.web import cli

    from app_pages.startup import preload_first_page

    preload_first_page()
    options = sys.argv[1:] if argv is None else argv
    cli.main(["run", str(APP), *options], prog_name="streamlit")


if __name__ == "__main__":
    main()
