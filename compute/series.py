"""Curves for the app's explorations (plain vs residual), as JSON-ready lists.

    gradient_multiplier_curve(a, max_depth)   closed form, numpy only:
        plain(n) = |a|^n          (n layers of x_{l+1} = F(x_l),       F' = a)
        residual(n) = |1 + a|^n   (n layers of x_{l+1} = x_l + F(x_l), d/dx = 1 + a)
    deep_mlp_grad_norms(depth, width, gain, seed)   torch autograd, via the deep_mlp_gradients
        template: ||dloss/dh_l||_2 for l = 0..depth in a tanh MLP, plain and residual.
"""

from __future__ import annotations

from compute import worker as _worker
from compute.errors import ParamsError
from compute.params import ParamReader

MAX_CURVE_DEPTH = 1000
MAX_LOCAL_DERIVATIVE = 10.0
# |1 + a|^max_depth must stay a finite float (JSON has no inf): checked together below.


def gradient_multiplier_curve(a: float, max_depth: int) -> dict:
    import numpy as np

    r = ParamReader("gradient_multiplier_curve", {"a": a, "max_depth": max_depth})
    a = r.number("a", lo=-MAX_LOCAL_DERIVATIVE, hi=MAX_LOCAL_DERIVATIVE)
    max_depth = r.integer("max_depth", lo=0, hi=MAX_CURVE_DEPTH)
    if a is not None and max_depth is not None and max_depth * np.log10(max(abs(1 + a), 1)) > 300:
        r.fail("max_depth", f"|1 + a|^{max_depth} would overflow a float; use fewer layers")
    r.finish()
    depth = np.arange(max_depth + 1)
    # numpy gives 0.0 ** 0 == 1.0: zero layers leave the gradient unchanged even for a = 0 or -1.
    plain = np.abs(a) ** depth
    residual = np.abs(1.0 + a) ** depth
    return {"depth": depth.tolist(), "plain": plain.tolist(), "residual": residual.tolist()}


def deep_mlp_grad_norms(depth: int, width: int, gain: float, seed: int) -> dict:
    import math

    from compute.templates import deep_mlp_gradients as mlp

    setting = mlp.check_setting({"depth": depth, "width": width, "gain": gain, "seed": seed})
    worker = _worker.active()
    if worker is not None:  # the app server: torch lives in the worker process (compute.worker)
        return worker.call("deep_mlp_grad_norms", setting)
    weights, x0 = mlp.draw_weights(setting["depth"], setting["width"], setting["gain"],
                                   setting["seed"])
    plain, residual = mlp.grad_norms(weights, x0)
    if not all(math.isfinite(v) for v in plain + residual):
        raise ParamsError("deep_mlp_grad_norms", [("gain", "the gradients overflow float64; "
                                                           "use a smaller gain or depth")])
    return {"layer": list(range(setting["depth"] + 1)), "plain": plain, "residual": residual}
