"""The numbers printed in the three source texts come out of the templates."""

from __future__ import annotations

import pytest

import compute


def test_linear_residual_block_section_4():
    answers = compute.solve("linear_residual_block", {
        "x": [1, 2], "W": [[0.1, 0.2], [-0.1, 0.3]], "t": [1, 1]})["answers"]
    assert answers["y"] == pytest.approx([1.5, 2.5])
    assert answers["loss"] == pytest.approx(1.25)
    assert answers["grad_y"] == pytest.approx([0.5, 1.5])
    assert answers["grad_x"] == pytest.approx([0.4, 2.05])
    assert answers["grad_x_identity"] == pytest.approx([0.5, 1.5])
    assert answers["grad_x_branch"] == pytest.approx([-0.1, 0.55])


@pytest.mark.parametrize(("n", "a", "plain"), [(20, 0.5, 9.54e-7), (40, 0.8, 1.33e-4)])
def test_gradient_multiplier_products(n, a, plain):
    answers = compute.solve("gradient_multiplier", {"n": n, "a": a})["answers"]
    assert answers["plain"] == pytest.approx(plain, rel=1e-3)
    assert answers["residual"] == pytest.approx((1 + a) ** n)


def test_residual_counterexamples_from_the_text():
    # f(x) = -x: derivative 1 - 1 = 0; f(x) = x over 40 layers: 2^40
    assert compute.solve("gradient_multiplier", {"n": 40, "a": -1})["answers"]["residual"] == 0
    assert compute.solve("gradient_multiplier", {"n": 40, "a": 1})["answers"]["residual"] == 2**40


def test_residual_mapping_section_2():
    F = compute.solve("residual_mapping", {"x": [2, 5, 3], "H": [2.5, 4.8, 3.1]})["answers"]["F"]
    assert F == pytest.approx([0.5, -0.2, 0.1])


def test_transformer_shapes_section_6_4():
    answers = compute.solve("transformer_block_shapes",
                            {"B": 32, "T": 128, "d": 768, "ffn_mult": 4, "heads": 12})["answers"]
    assert answers["attn_output_shape"] == [32, 128, 768]
    assert answers["ffn_hidden_shape"] == [32, 128, 3072]


@pytest.mark.parametrize("seed", range(5))
def test_deep_tanh_mlp_40_layers_width_64_gain_0_8(seed):
    answers = compute.solve("deep_mlp_gradients",
                            {"depth": 40, "width": 64, "gain": 0.8, "seed": seed})["answers"]
    plain, residual = answers["grad_norm_plain"], answers["grad_norm_residual"]
    assert len(plain) == len(residual) == 41
    # both stacks receive the same upstream gradient 1/64 * 1 at the top, norm 1/8
    assert plain[-1] == pytest.approx(1 / 8) and residual[-1] == pytest.approx(1 / 8)
    # measured over seeds 0-9: plain/residual at layer 0 is 1.6e-6 .. 1.2e-5
    assert plain[0] / residual[0] < 1e-4
    assert residual[0] > 1
