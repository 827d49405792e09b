"""`python -m compute`: JSON on stdout, one clear line and exit 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import compute
from compute.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list(capsys):
    code, out, err = run(capsys, "list")
    assert code == 0 and err == ""
    names = [t["name"] for t in json.loads(out)["templates"]]
    assert names == [t["name"] for t in compute.list_templates()] and len(set(names)) == len(names)


def test_generate_prints_the_problem(capsys):
    code, out, _ = run(capsys, "generate", "chain_product", "--seed", "3", "--difficulty", "hard")
    problem = json.loads(out)
    assert code == 0
    assert set(problem) == {"template", "seed", "difficulty", "params", "answers", "prompt",
                            "solution"}
    assert (problem["seed"], problem["difficulty"]) == (3, "hard")


def test_solve_prints_the_answers(capsys):
    params = json.dumps({"x": [1, 2], "W": [[0.1, 0.2], [-0.1, 0.3]], "t": [1, 1]})
    code, out, _ = run(capsys, "solve", "linear_residual_block", "--params", params)
    assert code == 0
    assert json.loads(out)["answers"]["grad_x"] == pytest.approx([0.4, 2.05])


@pytest.mark.parametrize(("argv", "message"), [
    (["generate", "nope", "--seed", "1"], "unknown template 'nope'"),
    (["solve", "nope", "--params", "{}"], "unknown template 'nope'"),
    (["solve", "gradient_multiplier", "--params", '{"n": -1}'], "n: must be between"),
    (["solve", "gradient_multiplier", "--params", '{"n": -1}'], "a: is missing"),
    (["solve", "gradient_multiplier", "--params", "{n: 1"], "not valid JSON"),
    (["generate", "chain_product", "--seed", "-4"], "seed: must be a non-negative integer"),
])
def test_bad_input_exits_2_with_a_message(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["generate", "chain_product"])  # --seed missing
    assert caught.value.code == 2


def test_module_entry_point():
    # `list` and errors need no torch, so these runs are quick; generate/solve are tested above
    ok = subprocess.run([sys.executable, "-m", "compute", "list"], capture_output=True, text=True)
    assert ok.returncode == 0 and len(json.loads(ok.stdout)["templates"]) == len(compute.list_templates())
    bad = subprocess.run([sys.executable, "-m", "compute", "solve", "nope", "--params", "{}"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert "unknown template 'nope'" in bad.stderr and "Traceback" not in bad.stderr
