"""One term per concept: the glossary (`quizbank/glossary.yaml`) and the check that finds a
forbidden variant in a bank's learner-facing text.

A text is checked in its own language, with code spans (`...`) removed (code keeps its names)
and with the allowed gloss "中文术语（English term）" removed. Rubric keywords and source
section titles are not learner-facing prose and are not checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

GLOSSARY_PATH = Path(__file__).with_name("glossary.yaml")
LANGS = ("zh", "en")
_CODE_SPAN = re.compile(r"```.*?```|`[^`]*`", re.DOTALL)  # fenced blocks, then spans


@dataclass(frozen=True)
class Term:
    concept: str
    zh: str
    en: str
    forbidden: dict[str, tuple[re.Pattern[str], ...]]
    note: str = ""

    def term(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Violation:
    question_id: str
    lang: str
    concept: str
    found: str
    use: str

    def __str__(self) -> str:
        return (f"{self.question_id} ({self.lang}): '{self.found}' -> write '{self.use}' "
                f"(concept {self.concept}, quizbank/glossary.yaml)")


def load_glossary(path: Path = GLOSSARY_PATH) -> tuple[Term, ...]:
    """The glossary's entries; the file is the repository's own (yaml.safe_load)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    terms = []
    for entry in data["terms"]:
        forbidden = entry.get("forbidden") or {}
        unknown = set(forbidden) - set(LANGS)
        if unknown:
            raise ValueError(f"glossary {entry['concept']}: forbidden has unknown languages {unknown}")
        terms.append(Term(
            concept=entry["concept"], zh=entry["zh"], en=entry["en"], note=entry.get("note", ""),
            forbidden={lang: tuple(re.compile(p, re.ASCII) for p in forbidden.get(lang) or ())
                       for lang in LANGS},
        ))
    return tuple(terms)


def _allowed_glosses(terms: tuple[Term, ...]) -> re.Pattern[str]:
    glosses = [f"{re.escape(t.zh)}\\s*[（(]\\s*{re.escape(t.en)}\\s*[)）]"
               for t in terms if t.zh != t.en]
    return re.compile("|".join(glosses), re.IGNORECASE)


def text_violations(text: str, lang: str, terms: tuple[Term, ...], *, question_id: str = "",
                    _glosses: re.Pattern[str] | None = None) -> list[Violation]:
    """Every forbidden variant in one text of language `lang`."""
    glosses = _glosses or _allowed_glosses(terms)
    prose = glosses.sub(" ", _CODE_SPAN.sub(" ", text))
    return [Violation(question_id, lang, term.concept, match.group(0), term.term(lang))
            for term in terms for pattern in term.forbidden[lang]
            for match in pattern.finditer(prose)]


def bank_violations(bank, terms: tuple[Term, ...] | None = None) -> list[Violation]:
    """Every forbidden variant in the learner-facing text of every question of `bank`."""
    terms = load_glossary() if terms is None else terms
    glosses = _allowed_glosses(terms)
    found = []
    for qid, question in bank.questions.items():
        for field in question.localized_fields():
            for lang in LANGS:
                text = getattr(field, lang)
                if text:
                    found += text_violations(text, lang, terms, question_id=qid, _glosses=glosses)
    return found
