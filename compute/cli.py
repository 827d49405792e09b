"""`python -m compute` / `compute`: list templates, generate or solve a problem, as JSON.

    compute list
    compute generate linear_residual_block --seed 7 --difficulty easy
    compute solve gradient_multiplier --params '{"n": 20, "a": 0.5}'

Unknown templates and bad params print one clear line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from compute.api import DIFFICULTIES, generate, list_templates, solve
from compute.errors import ParamsError, TemplateError

EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="compute", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="list the templates with their answer fields")
    gen = commands.add_parser("generate", help="draw a problem from a seed")
    gen.add_argument("template")
    gen.add_argument("--seed", type=int, required=True)
    gen.add_argument("--difficulty", choices=DIFFICULTIES, default="medium")
    sol = commands.add_parser("solve", help="solve a problem with the given params")
    sol.add_argument("template")
    sol.add_argument("--params", required=True, help="the params as a JSON object")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "list":
            result = {"templates": list_templates()}
        elif args.command == "generate":
            result = generate(args.template, seed=args.seed, difficulty=args.difficulty)
        else:
            result = solve(args.template, _read_params(args.template, args.params))
    except (TemplateError, ParamsError) as error:
        print(f"compute: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: the reader has what it wanted
        sys.stderr.close()
    return 0


def _read_params(template: str, text: str) -> dict:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ParamsError(template, [("params", f"--params is not valid JSON ({error})")]) from None
