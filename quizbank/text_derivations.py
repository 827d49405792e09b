"""The source texts' derivations (and the cited papers'), as written, with their declarations.

`quizbank/text_derivations.yaml` lists every derivation of the three source texts and of the
papers the bank cites that uses issue 24's notation (sums, products, indexed layers, Leibniz with
arguments, pasted blocks) or issue 25's moments (E, Var, Cov with stated assumptions). Each is a preset of the Derivation checker (its `lines` pasted as one
block, in the learner's language) and is checked line by line by
tests/quizbank/test_text_derivations.py; docs/derivations.md lists them for readers.
Read like a bank file: plain YAML only (yaml_reader.py), validated by strict models.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from .localized import Localized
from .problems import BankError, Problem
from .question_types import _Declarations
from .strict import KebabId, StrictModel, lax_enum
from .yaml_reader import read_yaml_file

TEXT_DERIVATIONS = Path(__file__).with_name("text_derivations.yaml")


class Notation(StrEnum):
    SUMS = "sums"
    PRODUCTS = "products"
    INDEXED = "indexed"  # layers by index: x_l, F_l(x_l), W_i
    LEIBNIZ = "leibniz"  # Leibniz with arguments: \frac{\partial F(x, W)}{\partial x}
    PASTED = "pasted"  # a block as written: $$…$$, a chain, remarks between the maths
    VECTORS = "vectors"  # issue 25: vectors, Jacobians, gradients with transposes
    MOMENTS = "moments"  # E, Var, Cov of declared random variables (issue 25)


class Source(StrictModel):
    text: str
    section: str


class TextDerivation(_Declarations):
    """One derivation as its source writes it; `lines` is the block a learner would paste."""

    id: KebabId
    source: Source
    title: Localized
    notation: list[lax_enum(Notation)]
    lines: Localized


class TextDerivations(StrictModel):
    derivations: list[TextDerivation]


@lru_cache(maxsize=1)
def text_derivations(path: Path = TEXT_DERIVATIONS) -> dict[str, TextDerivation]:
    """The derivations by id; raises BankError (with `file:line`-free problems) when invalid."""
    document, problems = read_yaml_file(path)
    if document is None:
        raise BankError(problems)
    try:
        parsed = TextDerivations.model_validate(document.data)
    except ValidationError as err:
        raise BankError([Problem(str(path), None, "-", ".".join(map(str, e["loc"])), e["msg"])
                         for e in err.errors()]) from err
    by_id = {d.id: d for d in parsed.derivations}
    if len(by_id) != len(parsed.derivations):
        raise BankError([Problem(str(path), None, "-", "id", "an id is used twice")])
    return by_id
