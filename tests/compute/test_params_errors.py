"""Bad params: one ParamsError naming every bad field; unknown templates: TemplateError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compute

BAD = [
    ("linear_residual_block", {"x": [1, "2"], "t": [1, 1], "extra": 1}, {"x", "W", "extra"}),
    ("linear_residual_block", {"x": [1, 2], "W": [[1, 2, 3]], "t": [1]}, {"W", "t"}),
    ("linear_residual_block", {"x": [1, float("nan")], "W": [[1, 0], [0, 1]], "t": [1, 1]},
     {"x"}),
    ("gradient_multiplier", {"n": 0, "a": float("inf")}, {"n", "a"}),
    ("gradient_multiplier", {"n": 2.5, "a": "0.5"}, {"n", "a"}),
    ("gradient_multiplier", {"n": 201, "a": 11}, {"n", "a"}),
    ("chain_product", {"a": []}, {"a"}),
    ("chain_product", {"a": [0.5, 20]}, {"a"}),
    ("residual_mapping", {"x": [1, 2], "H": [1, 2, 3]}, {"H"}),
    ("prenorm_postnorm_jacobian", {"x": [1], "W": [[1]], "eps": 0}, {"x", "eps"}),
    ("prenorm_postnorm_jacobian", {"x": [1, 2], "W": [[1, 2], [3]], "eps": -1}, {"W", "eps"}),
    ("residual_scaling", {"alpha": True, "W": [[1, 2], [3, 4]], "g": [1, 2, 3]},
     {"alpha", "W"}),
    ("deep_mlp_gradients", {"depth": 0, "width": 513, "gain": 0, "seed": -1},
     {"depth", "width", "gain", "seed"}),
    ("deep_mlp_gradients", {"depth": 40, "width": 64}, {"gain", "seed"}),
    ("deep_mlp_gradients", {"depth": 200, "width": 512, "gain": 1, "seed": 0}, {"width"}),
    ("deep_mlp_gradients", {"weights": [[[1, 0], [0, 1]], [[1, 2, 3]]], "x0": [1, 2, 3],
                            "seed": -1}, {"weights[1]", "seed"}),
    ("deep_mlp_gradients", {"weights": [[[1, 0], [0, 1]]], "x0": [1, 2], "seed": 1},
     {"gain"}),
    ("deep_mlp_gradients", {"weights": [[[1, 0], [0, 1]]], "x0": [1, 2], "seed": 1, "gain": 1},
     {"weights", "x0"}),
    ("deep_mlp_gradients", {"weights": [[[1, 0], [0, 1]]], "x0": [1, 2, 3], "depth": 2},
     {"x0", "depth"}),
    ("transformer_block_shapes", {"B": 0, "T": 8, "d": 10, "ffn_mult": 4, "heads": 3},
     {"B", "heads"}),
    ("projection_shortcut", {"d_in": 0, "d_out": 4, "bias": 1}, {"d_in", "bias"}),
    ("dropout_residual", {"p": 1, "x": [1, 2], "h": [1], "mask": [1, 2]}, {"p", "h", "mask"}),
    ("dropout_residual", {"p": 0, "x": [1, 2], "h": [1, 1], "mask": [1, 0]}, {"mask"}),
    ("bn_running_stats", {"x": [1.0], "momentum": 0, "running_mean": 0, "running_var": -1},
     {"x", "momentum", "running_var"}),
    ("bn_running_stats", {"x": [1, 2], "momentum": 1.5}, {"momentum", "running_mean", "running_var"}),
    ("bn_folding", {"W": [[1, 2], [3, 4]], "b": [1], "gamma": [1, 1], "beta": [0, 0],
                    "mean": [0, 0], "var": [-1, 1], "eps": 0}, {"b", "var"}),
    ("bn_folding", {"W": [[1, 2], [3, 4]], "b": [1, 1], "gamma": [1, 1], "beta": [0, 0],
                    "mean": [0, 0], "var": [0, 1], "eps": 0}, {"eps"}),
    ("bn_folding", {"W": [[1]]}, {"b", "gamma", "beta", "mean", "var", "eps"}),
    ("variance_of_sum", {"var_x": -1, "var_f": 1}, {"var_x", "cov"}),
    ("variance_of_sum", {"var_x": 1, "var_f": 1, "cov": 2}, {"cov"}),
    ("linear_residual_block", {"x": [1e7, 1], "W": [[1, 0], [0, -1e9]], "t": [1, 1]},
     {"x", "W"}),
    ("variance_of_sum", {"var_x": None, "var_f": 1, "cov": 0}, {"var_x"}),
    ("dropout_residual", {"p": 0.5, "x": [1, 2], "h": [1, 1], "mask": None}, {"mask"}),
    ("deep_mlp_gradients", {"weights": None, "x0": [1.0]}, {"weights"}),
    ("deep_mlp_gradients", {"weights": [], "x0": [1.0]}, {"weights"}),
    ("deep_mlp_gradients", {"depth": None, "width": 4, "gain": 1, "seed": 0}, {"depth"}),
]


@pytest.mark.parametrize(("template", "params", "bad_fields"), BAD)
def test_every_bad_field_is_listed(template, params, bad_fields):
    with pytest.raises(compute.ParamsError) as caught:
        compute.solve(template, params)
    assert {field for field, _ in caught.value.problems} == bad_fields
    for field in bad_fields:
        assert f"{field}:" in str(caught.value)


def test_params_must_be_a_mapping():
    with pytest.raises(compute.ParamsError, match="JSON object"):
        compute.solve("variance_of_sum", [1, 2, 3])


def test_generate_rejects_bad_seed_and_difficulty_together():
    with pytest.raises(compute.ParamsError) as caught:
        compute.generate("chain_product", seed=-1, difficulty="extreme")
    assert {field for field, _ in caught.value.problems} == {"seed", "difficulty"}


@pytest.mark.parametrize("call", [
    lambda: compute.generate("no_such_template", seed=1),
    lambda: compute.solve("no_such_template", {}),
])
def test_unknown_template(call):
    with pytest.raises(compute.TemplateError, match="no_such_template"):
        call()


def test_errors_are_value_errors():
    assert issubclass(compute.ParamsError, ValueError)
    assert issubclass(compute.TemplateError, ValueError)


def test_explicit_weights_are_accepted():
    answers = compute.solve("deep_mlp_gradients",
                            {"weights": [[[0.5, 0.0], [0.0, 0.5]]], "x0": [0.0, 0.0]})["answers"]
    # at h = 0, tanh' = 1: plain g_0 = W^T g_1 = 0.5 * [0.5, 0.5]
    assert answers["grad_norm_plain"] == pytest.approx([0.5 * 0.5**0.5, 0.5**0.5])
    assert answers["grad_norm_residual"] == pytest.approx([1.5 * 0.5**0.5, 0.5**0.5])


def test_a_solved_deep_mlp_can_be_solved_again():
    first = compute.solve("deep_mlp_gradients", {"depth": 3, "width": 4, "gain": 0.8, "seed": 9})
    again = compute.solve("deep_mlp_gradients", first["params"])
    assert again == first
    tampered = {**first["params"], "x0": [0.0, 0.0, 0.0, 1.0]}
    with pytest.raises(compute.ParamsError, match="x0: is not the draw of seed 9"):
        compute.solve("deep_mlp_gradients", tampered)
    del tampered["seed"]  # without the seed these are just explicit weights
    assert compute.solve("deep_mlp_gradients", tampered)["answers"] != first["answers"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-3, 3) | st.text(max_size=3)
    | st.sampled_from([float("nan"), float("inf"), 0.5, 2]),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=12)
TEMPLATE_SPECS = {t["name"]: t["params"] for t in compute.list_templates()}


@settings(max_examples=25, deadline=None)
@given(template=st.sampled_from(sorted(TEMPLATE_SPECS)), data=st.data())
def test_junk_params_raise_only_params_error(template, data):
    fields = TEMPLATE_SPECS[template] + ["seed", "junk"]
    keys = data.draw(st.lists(st.sampled_from(fields), unique=True))
    params = {key: data.draw(json_values) for key in keys}
    try:
        result = compute.solve(template, params)
    except compute.ParamsError as error:
        assert error.problems
    else:
        assert result["template"] == template


def test_answers_that_overflow_are_refused():
    weights = [[[1e6, 1e6], [1e6, 1e6]]] * 60  # saturated tanh is avoided: h0 = 0
    with pytest.raises(compute.ParamsError, match="overflow"):
        compute.solve("deep_mlp_gradients", {"weights": weights, "x0": [0.0, 0.0]})
