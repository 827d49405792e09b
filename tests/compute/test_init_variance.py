"""init_variance: Xavier/Glorot and Kaiming/He scales against the papers' formulas written as
exact numbers, and against what torch.nn.init actually draws."""

from __future__ import annotations

import math

import numpy as np
import pytest

import compute

# (params, exact Var(w)) from the formulas in the papers:
# Glorot & Bengio 2010, "normalized initialization": W ~ U[-sqrt(6)/sqrt(n_j + n_{j+1}), ...],
# variance 2/(n_j + n_{j+1}); He et al. 2015: Var(w) = 2/n_l (ReLU), 2/((1 + a^2) n_l) (PReLU/leaky).
PUBLISHED = [
    ({"fan_in": 256, "fan_out": 512, "mode": "fan_avg", "nonlinearity": "linear"}, 2 / 768),
    ({"fan_in": 512, "fan_out": 64, "mode": "fan_in", "nonlinearity": "relu"}, 2 / 512),
    ({"fan_in": 512, "fan_out": 64, "mode": "fan_out", "nonlinearity": "relu"}, 2 / 64),
    ({"fan_in": 576, "fan_out": 1152, "mode": "fan_in", "nonlinearity": "leaky_relu",
      "slope": 0.25}, 2 / (1.0625 * 576)),
    ({"fan_in": 100, "fan_out": 300, "mode": "fan_avg", "nonlinearity": "tanh"},
     (25 / 9) * 2 / 400),
]


@pytest.mark.parametrize(("params", "variance"), PUBLISHED)
def test_keys_match_the_published_formulas(params, variance):
    answers = compute.solve("init_variance", params)["answers"]
    assert answers["variance"] == pytest.approx(variance, rel=1e-12)
    assert answers["std"] == pytest.approx(math.sqrt(variance), rel=1e-12)
    assert answers["bound"] == pytest.approx(math.sqrt(3 * variance), rel=1e-12)


def test_glorot_uniform_bound_is_sqrt6_over_sqrt_fan_sum():
    answers = compute.solve("init_variance", {"fan_in": 300, "fan_out": 100, "mode": "fan_avg",
                                              "nonlinearity": "linear"})["answers"]
    assert answers["bound"] == pytest.approx(math.sqrt(6) / math.sqrt(400), rel=1e-12)


def test_xavier_variance_lies_between_the_two_kaiming_modes():
    """2/(n_in + n_out) is the harmonic mean of 1/n_in and 1/n_out: between them, nearer the
    smaller one."""
    modes = {m: compute.solve("init_variance", {"fan_in": 128, "fan_out": 1024, "mode": m,
                                                "nonlinearity": "linear"})["answers"]["variance"]
             for m in ("fan_in", "fan_out", "fan_avg")}
    assert modes["fan_out"] < modes["fan_avg"] < modes["fan_in"]
    assert modes["fan_avg"] == pytest.approx(2 / (1 / modes["fan_in"] + 1 / modes["fan_out"]))


# torch.nn.init's own functions: weight shape (fan_out, fan_in) as in nn.Linear.
TORCH_INITS = [
    ({"fan_in": 400, "fan_out": 250, "mode": "fan_in", "nonlinearity": "relu"},
     lambda init, w: init.kaiming_normal_(w, mode="fan_in", nonlinearity="relu"), "std"),
    ({"fan_in": 400, "fan_out": 250, "mode": "fan_out", "nonlinearity": "leaky_relu",
      "slope": 0.2},
     lambda init, w: init.kaiming_uniform_(w, a=0.2, mode="fan_out", nonlinearity="leaky_relu"),
     "bound"),
    ({"fan_in": 400, "fan_out": 250, "mode": "fan_avg", "nonlinearity": "tanh"},
     lambda init, w: init.xavier_uniform_(w, gain=init.calculate_gain("tanh")), "bound"),
    ({"fan_in": 400, "fan_out": 250, "mode": "fan_avg", "nonlinearity": "linear"},
     lambda init, w: init.xavier_normal_(w), "std"),
]


@pytest.mark.parametrize(("params", "initialize", "asked"), TORCH_INITS)
def test_keys_match_what_torch_nn_init_draws(params, initialize, asked):
    import torch  # the reference draws with torch itself; compute needs torch anyway

    answers = compute.solve("init_variance", params)["answers"]
    generator_state = torch.random.get_rng_state()
    try:
        torch.manual_seed(0)
        w = torch.empty(params["fan_out"], params["fan_in"], dtype=torch.float64)
        initialize(torch.nn.init, w)
    finally:
        torch.random.set_rng_state(generator_state)
    sample = w.numpy().ravel()  # 100,000 draws: the sample std is within 1 % of the true one
    assert np.std(sample) == pytest.approx(answers["std"], rel=0.01)
    if asked == "bound":
        assert np.abs(sample).max() <= answers["bound"]
        assert np.abs(sample).max() == pytest.approx(answers["bound"], rel=1e-3)


@pytest.mark.parametrize(("params", "bad"), [
    ({"fan_in": 0, "fan_out": 10, "mode": "fan_sum", "nonlinearity": "relu"}, {"fan_in", "mode"}),
    ({"fan_in": 10, "fan_out": 10, "mode": "fan_in", "nonlinearity": "gelu"}, {"nonlinearity"}),
    ({"fan_in": 10, "fan_out": 10, "mode": "fan_in", "nonlinearity": "leaky_relu"}, {"slope"}),
    ({"fan_in": 10, "fan_out": 10, "mode": "fan_in", "nonlinearity": "relu", "slope": 0.1},
     {"slope"}),
    ({"fan_in": 10, "fan_out": 10, "mode": "fan_in", "nonlinearity": "leaky_relu", "slope": 1},
     {"slope"}),
])
def test_bad_params_name_every_bad_field(params, bad):
    with pytest.raises(compute.ParamsError) as caught:
        compute.solve("init_variance", params)
    assert {name for name, _ in caught.value.problems} == bad
