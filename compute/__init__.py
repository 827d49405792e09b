"""Randomized residual-gradient problems whose answers are computed with torch.

    compute.list_templates()                         # names, descriptions, answer fields
    compute.generate("linear_residual_block", seed=7, difficulty="easy")
    compute.solve("gradient_multiplier", {"n": 20, "a": 0.5})
    compute.series.gradient_multiplier_curve(0.5, 40)

Importing this package does not import torch (nor numpy); torch is loaded when a problem is built.
"""

from compute import series
from compute.api import DIFFICULTIES, generate, list_templates, solve
from compute.errors import ParamsError, TemplateError

__all__ = [
    "DIFFICULTIES",
    "ParamsError",
    "TemplateError",
    "generate",
    "list_templates",
    "series",
    "solve",
]
