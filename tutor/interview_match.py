"""Suggest which rubric points a typed interview answer covers, by keyword and synonym matching.

Each rubric point lists keywords (synonyms) in zh and en; a point is suggested when any keyword
of either language appears in the answer. Matching ignores case and full/half width (NFKC), and
spacing around symbols ("I + J" matches "i+j"). Chinese has no spaces between words, so a keyword
with CJK characters matches as a substring of the answer with all spaces removed; a Latin keyword
must stand as a whole word (a plural "s"/"es" allowed), so "gain" does not match "again".
The learner confirms or corrects every suggestion.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_SPACE_AROUND_SYMBOL = re.compile(r"\s*([^\w\s])\s*")
_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = _SPACE_AROUND_SYMBOL.sub(r"\1", folded)
    return _SPACES.sub(" ", folded).strip()


@lru_cache(maxsize=4096)
def _latin_pattern(keyword: str) -> re.Pattern[str]:
    body = re.escape(keyword)
    # Word boundaries only where the keyword itself starts/ends with a letter or digit.
    head = r"(?<![^\W_])" if keyword[:1].isalnum() else ""
    tail = r"(?:e?s)?(?![^\W_])" if keyword[-1:].isalnum() else ""
    return re.compile(head + body + tail)


def keyword_in(answer: str, keyword: str) -> bool:
    """Whether `keyword` occurs in `answer` (both raw text)."""
    key = normalize(keyword)
    if not key:
        return False
    text = normalize(answer)
    if _CJK.search(key):
        return key.replace(" ", "") in text.replace(" ", "")
    return _latin_pattern(key).search(text) is not None


def _keywords(point) -> list[str]:
    keywords = point.keywords
    if isinstance(keywords, dict):
        return [*(keywords.get("zh") or ()), *(keywords.get("en") or ())]
    return [*(getattr(keywords, "zh", None) or ()), *(getattr(keywords, "en", None) or ())]


def suggest_ticks(rubric: Iterable, answer: str) -> tuple[str, ...]:
    """Ids of the rubric points whose keywords (zh or en) occur in `answer`, in rubric order."""
    return tuple(p.id for p in rubric if any(keyword_in(answer, k) for k in _keywords(p)))
