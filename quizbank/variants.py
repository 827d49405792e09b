"""A generated question's variant: the numbers one learner sees, built once and carried along.

A variant is named by (template, seed, difficulty); building it runs the compute template (torch,
imported lazily by `compute`). Everything after that (showing the prompt, grading, the worked
solution, a share link) reads the variant instead of regenerating it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Variant:
    template: str
    seed: int
    difficulty: str
    params: Mapping[str, Any]
    answers: Mapping[str, Any]  # every key the template computes, plain Python numbers/lists
    prompt: Mapping[str, str]  # {"zh": ..., "en": ...}
    solution: Mapping[str, str]  # the worked solution with this variant's numbers

    @classmethod
    def from_problem(cls, problem: Mapping[str, Any]) -> Variant:
        """From `compute.generate`'s result."""
        return cls(template=problem["template"], seed=int(problem["seed"]),
                   difficulty=str(problem["difficulty"]), params=dict(problem["params"]),
                   answers=dict(problem["answers"]), prompt=dict(problem["prompt"]),
                   solution=dict(problem["solution"]))

    def share_params(self) -> dict[str, str]:
        """Query parameters that reopen exactly these numbers."""
        return {"template": self.template, "seed": str(self.seed), "difficulty": self.difficulty}


def build_variant(template: str, *, seed: int, difficulty: str = "medium") -> Variant:
    """Run the template once; raises compute's TemplateError / ParamsError for bad input."""
    import compute

    return Variant.from_problem(compute.generate(template, seed=seed, difficulty=difficulty))


def variant_for(question, seed: int) -> Variant:
    """The variant of a generated bank question for `seed`, at the question's difficulty."""
    return build_variant(question.template, seed=seed,
                         difficulty=getattr(question.difficulty, "value", question.difficulty))
