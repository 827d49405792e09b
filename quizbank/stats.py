"""Counts over a bank: by topic, type and difficulty, and how much of it is in both languages."""

from collections import Counter
from dataclasses import dataclass

from .bank import Bank
from .enums import Difficulty, QuestionType, Topic


@dataclass(frozen=True)
class BankStats:
    total: int
    by_topic: dict[str, int]
    by_type: dict[str, int]
    by_difficulty: dict[str, int]
    bilingual: int  # questions whose every localized field has both zh and en
    zh_only_fields: int  # localized fields in zh alone, across the bank
    en_only_fields: int
    author_tests: int

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def bank_stats(bank: Bank) -> BankStats:
    questions = list(bank)
    fields = [text for q in questions for text in _localized(q)]
    return BankStats(
        total=len(questions),
        by_topic=_counts((q.topic for q in questions), Topic),
        by_type=_counts((q.type for q in questions), QuestionType),
        by_difficulty=_counts((q.difficulty for q in questions), Difficulty),
        bilingual=sum(all(t.is_bilingual for t in _localized(q)) for q in questions),
        zh_only_fields=sum(t.en is None for t in fields),
        en_only_fields=sum(t.zh is None for t in fields),
        author_tests=sum(len(q.tests) for q in questions),
    )


def _localized(question):
    texts = question.localized_fields()
    rubric = getattr(question, "rubric", [])
    return texts + [p.keywords for p in rubric]


def _counts(values, enum_type) -> dict[str, int]:
    """Every member of the closed set, zeros included, in declaration order."""
    counted = Counter(str(v) for v in values)
    return {member.value: counted.get(member.value, 0) for member in enum_type}


def format_stats(stats: BankStats) -> str:
    lines = [f"{stats.total} questions, {stats.author_tests} author tests"]
    for title, counts in (
        ("type", stats.by_type),
        ("topic", stats.by_topic),
        ("difficulty", stats.by_difficulty),
    ):
        width = max(len(name) for name in counts)
        lines.append(f"\nby {title}:")
        lines += [f"  {name:<{width}}  {count:>4}" for name, count in counts.items()]
    lines.append("\nlanguages:")
    lines.append(f"  both zh and en in every field  {stats.bilingual:>4} of {stats.total}")
    lines.append(f"  fields in zh only              {stats.zh_only_fields:>4}")
    lines.append(f"  fields in en only              {stats.en_only_fields:>4}")
    return "\n".join(lines)
