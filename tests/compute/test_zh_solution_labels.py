"""A Chinese worked solution carries no English labels inside its formulas ("FP16 spacing",
"FFN hidden", "plain:"), for every compute template. Notation stays as it is written in both
languages: function names (Var, Cov, RMS, MHA, loss, mean, Dropout), named layers (LayerNorm,
RMSNorm) and the symbols the prompts define (G_plain, G_residual, mask).

Regression (issue 30): mixed_precision_sum wrote "FP16 spacing" and transformer_block_shapes
"FFN hidden" and "shape" in their Chinese solutions."""

from __future__ import annotations

import re

import pytest

import compute

NOTATION = {"Var", "Cov", "RMS", "RMSNorm", "LayerNorm", "MHA", "loss", "mean", "Dropout", "mask",
            "FFN"}
# \text{...}, \mathrm{...}, \operatorname{...}, except a symbol's subscript (G_{\mathrm{plain}}).
LABEL = re.compile(r"(?<!_\{)\\(?:text|mathrm|operatorname)\{([^{}]*)\}")
TEMPLATES = [t["name"] for t in compute.list_templates()]


@pytest.mark.parametrize("template", TEMPLATES)
def test_no_english_label_in_a_chinese_solution(template):
    found = set()
    for difficulty in ("easy", "medium", "hard"):
        for seed in range(5):
            problem = compute.generate(template, seed=seed, difficulty=difficulty)
            for label in LABEL.findall(problem["solution"]["zh"]):
                words = set(re.findall(r"[A-Za-z]{3,}", label))
                found |= words - NOTATION
    assert not found, sorted(found)
