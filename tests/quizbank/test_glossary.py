"""One term per concept (quizbank/glossary.yaml), enforced over every file of the shipped bank."""

import re

import pytest

import compute
import quizbank
from quizbank.glossary import LANGS, bank_violations, load_glossary, text_violations

TERMS = load_glossary()


def test_concepts_are_unique():
    concepts = [t.concept for t in TERMS]
    assert len(concepts) == len(set(concepts))


@pytest.mark.parametrize("term", TERMS, ids=lambda t: t.concept)
@pytest.mark.parametrize("lang", LANGS)
def test_no_chosen_term_is_forbidden_by_any_entry(term, lang):
    # A pattern that also matches a chosen term would make the glossary impossible to follow.
    assert text_violations(term.term(lang), lang, TERMS) == []


@pytest.mark.parametrize(("lang", "text", "concept"), [
    ("zh", "LN 的 Jacobian 是", "jacobian"),
    ("zh", "LN 的雅可比是", "jacobian"),
    ("zh", "纯恒等skip", "skip-connection"),
    ("zh", "恒等通路", "identity-path"),
    ("zh", "Pre-Norm 和 Post-Norm", "pre-ln"),
    ("zh", "层归一化", "layernorm"),
    ("en", "the transform branch", "residual-branch"),
    ("en", "a layer norm", "layernorm"),
    ("en", "initialisation", "initialization"),
    ("en", "in bf16", "fp16"),
])
def test_a_forbidden_variant_is_found(lang, text, concept):
    assert concept in {v.concept for v in text_violations(text, lang, TERMS)}


@pytest.mark.parametrize(("lang", "text"), [
    ("zh", "雅可比矩阵（Jacobian）在 $x$ 处求值"),  # the allowed gloss on first use
    ("zh", "代码里的 `self.shortcut` 与 `torch.bfloat16`"),  # code keeps its names
    ("zh", "LayerNorm 与 RMSNorm，Pre-LN 与 Post-LN"),
    ("en", "LayerNorm's Jacobian, in BF16"),
    ("en", "Layer Normalization (Ba et al., 2016)"),
])
def test_allowed_text_passes(lang, text):
    assert text_violations(text, lang, TERMS) == []


def test_every_bank_file_uses_one_term_per_concept():
    bank = quizbank.load_bank()  # every file under quizbank/bank/
    violations = bank_violations(bank, TERMS)
    assert not violations, "\n".join(map(str, violations))


def test_forbidden_patterns_compile_as_ascii():
    for term in TERMS:
        for patterns in term.forbidden.values():
            assert all(p.flags & re.ASCII for p in patterns)


@pytest.mark.parametrize("template", [t["name"] for t in compute.list_templates()])
def test_generated_texts_use_one_term_per_concept(template):
    """What compute writes (descriptions, prompts, worked solutions) is learner-facing too."""
    spec = next(t for t in compute.list_templates() if t["name"] == template)
    texts = [spec["description"]]
    for difficulty in compute.DIFFICULTIES:
        for seed in range(3):
            problem = compute.generate(template, seed=seed, difficulty=difficulty)
            texts += [problem["prompt"], problem["solution"]]
    violations = [v for text in texts for lang in LANGS
                  for v in text_violations(text[lang], lang, TERMS, question_id=template)]
    assert not violations, "\n".join(map(str, violations))
