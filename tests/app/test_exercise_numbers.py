"""The problem's numbers as NumPy / MATLAB code on Exercises (issue 16, item 5): exactly the
drawn numbers (read back independently of the writer), vectors as columns in MATLAB."""

import json
import re

import pytest

import compute
from tests.app.learner_fixtures import database_url  # noqa: F401
from tests.app.shell_helpers import open_app
from tutor.sessions.exercises import MAX_COPIED_NUMBERS, numbers_as_code

TEMPLATES = [t if isinstance(t, str) else t["name"] for t in compute.list_templates()]


def read_numpy(code: str) -> dict:
    lines = code.splitlines()
    assert lines[:2] == ["import numpy as np", ""]
    out = {}
    for line in lines[2:]:
        name, value = line.split(" = ", 1)
        value = re.sub(r"^np\.array\((.*)\)$", r"\1", value)
        out[name] = json.loads(value.replace("True", "true").replace("False", "false"))
    return out


def read_matlab_matrix(text: str):
    rows = [[float(v) for v in row.split(",")] for row in text.strip("[]").split(";")]
    return rows


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_numpy_code_holds_exactly_the_drawn_numbers(template):
    params = compute.generate(template, seed=5, difficulty="easy")["params"]
    code = numbers_as_code(params, "numpy")
    if code is None:  # the page offers the command instead: only for really many numbers
        assert len(re.findall(r"-?\d", json.dumps(params))) > MAX_COPIED_NUMBERS
    else:
        assert read_numpy(code) == params


def test_matlab_writes_vectors_as_columns_and_matrices_by_rows():
    params = {"x": [1.0, -3.0], "W": [[-0.7, -0.7], [-0.5, 0.1]], "n": 3, "bias": True, "eps": 1e-5}
    code = numbers_as_code(params, "matlab")
    assert code.splitlines() == ["x = [1.0; -3.0];", "W = [-0.7, -0.7; -0.5, 0.1];", "n = 3;",
                                 "bias = true;", "eps = 1e-05;"]
    assert read_matlab_matrix("[-0.7, -0.7; -0.5, 0.1]") == params["W"]


def test_named_choices_are_written_as_strings():
    # init_variance draws its mode and nonlinearity by name ("fan_in", "relu"): regression, the
    # code writer called float() on them and the Exercises page failed for that template.
    params = {"fan_in": 256, "mode": "fan_in", "nonlinearity": "leaky_relu", "slope": 0.2}
    assert numbers_as_code(params, "numpy").splitlines()[2:] == [
        "fan_in = 256", 'mode = "fan_in"', 'nonlinearity = "leaky_relu"', "slope = 0.2"]
    assert numbers_as_code(params, "matlab").splitlines() == [
        "fan_in = 256;", "mode = 'fan_in';", "nonlinearity = 'leaky_relu';", "slope = 0.2;"]
    assert numbers_as_code({"name": "it's"}, "matlab") == "name = 'it''s';"


def test_too_many_numbers_gives_none():
    assert numbers_as_code({"w": [0.5] * (MAX_COPIED_NUMBERS + 1)}, "numpy") is None


@pytest.mark.parametrize(("lang", "label"), [("en", "Copy the numbers"), ("zh", "复制数据")])
def test_the_page_offers_the_numbers_as_code(database_url, lang, label):  # noqa: F811
    at = open_app("exercises", lang, template="linear_residual_block", seed="11",
                  difficulty="medium")
    params = compute.generate("linear_residual_block", seed=11, difficulty="medium")["params"]
    codes = {c.language: c.value for c in at.code}
    assert read_numpy(codes["python"]) == params
    assert codes["matlab"].startswith("x = [")
    assert label in [p.proto.popover.label for p in at.get("popover")]
