"""Entry point of the compute worker process (`python -m compute.worker_main`).

Protocol (`contained.child`): one JSON object per line on stdin (`{"job": "generate",
"arguments": {...}}`), one per line on stdout: `{"result": ...}` or `{"error": {"type": ..., ...}}`. The first line written is
`{"ready": true}`, once torch is loaded and warm. stdout is the channel only: anything printed
goes to stderr. The loop ends when stdin closes (the parent exited).
"""

from __future__ import annotations

import json

from compute import api, series
from compute.errors import ParamsError, TemplateError
from contained.child import open_channel, serve

JOBS = {
    "generate": lambda a: api.generate(a["template"], seed=a["seed"], difficulty=a["difficulty"]),
    "deep_mlp_grad_norms": lambda a: series.deep_mlp_grad_norms(
        a["depth"], a["width"], a["gain"], a["seed"]),
}


def reply_to(line: str) -> dict:
    try:
        request = json.loads(line)
        return {"result": JOBS[request["job"]](request["arguments"])}
    except ParamsError as exc:
        return {"error": {"type": "ParamsError", "template": exc.template,
                          "problems": [list(p) for p in exc.problems]}}
    except TemplateError as exc:
        return {"error": {"type": "TemplateError", "message": str(exc)}}
    except Exception as exc:  # noqa: BLE001 - reported to the caller, the worker goes on
        return {"error": {"type": type(exc).__name__, "message": str(exc)}}


def main() -> None:
    channel = open_channel()
    first = api.list_templates()[0]["name"]
    api.generate(first, seed=0)  # imports torch and warms its first autograd call
    serve(channel, reply_to)


if __name__ == "__main__":
    main()
