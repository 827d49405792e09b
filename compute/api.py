"""generate / solve: the one place that turns a template module into a problem dict.

A template module provides
    draw(rng, difficulty) -> params        numbers drawn from a numpy Generator
    degenerate(params) -> bool             True when the draw is trivial or ill-posed (redrawn)
    check(params) -> params                validated, normalized (raises ParamsError)
    answer(params) -> answers              computed with torch (float64, autograd for gradients)
    explain(params, answers) -> (prompt, solution), each {"zh": ..., "en": ...}
"""

from __future__ import annotations

import hashlib
import math

from compute import registry
from compute import worker as _worker
from compute.errors import ParamsError

DIFFICULTIES = ("easy", "medium", "hard")
MAX_REDRAWS = 1000


def list_templates() -> list[dict]:
    return [spec.as_dict() for spec in registry.SPECS]


def stable_seed(template: str, seed: int, difficulty: str) -> int:
    """A 64-bit seed from (template, seed, difficulty); unlike hash() the same in every run."""
    digest = hashlib.sha256(f"{template}|{seed}|{difficulty}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def generate(template: str, *, seed: int, difficulty: str = "medium") -> dict:
    registry.spec(template)
    problems = []
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        problems.append(("seed", f"must be a non-negative integer, got {seed!r}"))
    if difficulty not in DIFFICULTIES:
        problems.append(("difficulty", f"must be one of {', '.join(DIFFICULTIES)}, "
                                       f"got {difficulty!r}"))
    if problems:
        raise ParamsError(template, problems)
    worker = _worker.active()
    if worker is not None:  # the app server: torch lives in the worker process (compute.worker)
        return worker.call("generate", {"template": template, "seed": seed,
                                        "difficulty": difficulty})

    import numpy as np

    module = registry.load(template)
    rng = np.random.default_rng(stable_seed(template, seed, difficulty))
    for _ in range(MAX_REDRAWS):
        params = module.draw(rng, difficulty)
        if not module.degenerate(params):
            break
    else:  # pragma: no cover - a template whose draws are always degenerate is a bug
        raise RuntimeError(f"{template}: no usable draw in {MAX_REDRAWS} tries")
    return _build(module, template, seed, difficulty, module.check(params))


def solve(template: str, params: dict) -> dict:
    registry.spec(template)
    module = registry.load(template)
    return _build(module, template, None, None, module.check(params))


def _build(module, template, seed, difficulty, params) -> dict:
    answers = module.answer(params)
    if not _all_finite(answers):  # JSON has no inf/nan, and such a key grades nothing
        raise ParamsError(template, [("params", "the answers overflow float64; use smaller "
                                                "numbers")])
    prompt, solution = module.explain(params, answers)
    return {
        "template": template,
        "seed": seed,
        "difficulty": difficulty,
        "params": params,
        "answers": answers,
        "prompt": prompt,
        "solution": solution,
    }


def _all_finite(value) -> bool:
    if isinstance(value, dict):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_all_finite(v) for v in value)
    return not isinstance(value, float) or math.isfinite(value)
