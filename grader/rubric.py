"""Suggest which rubric points an interview answer touches, by keyword (the learner decides).

A keyword matches case-insensitively after Unicode folding (full-width letters, spaces); English
keywords must match whole words (plus a plain ending: s, es, ed, ing), Chinese ones anywhere. Keywords of both languages are
tried, since learners mix them ("残差 identity mapping").
"""

from __future__ import annotations

import re
import unicodedata


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).lower().strip()


def keyword_in(keyword: str, folded_text: str) -> bool:
    key = _fold(keyword)
    if not key:
        return False
    if key.isascii():
        # Whole words, allowing a plain English ending: "vanish" matches "vanishes".
        pattern = (r"(?<![a-z0-9])" if key[0].isalnum() else "") + re.escape(key) + \
                  (r"(?:s|es|ed|d|ing)?(?![a-z0-9])" if key[-1].isalnum() else "")
        return re.search(pattern, folded_text) is not None
    return key in folded_text


def suggest_rubric_ticks(question, text: str, lang: str = "en") -> list[dict]:
    """One entry per rubric point: id, kind, text (in `lang`), matched keywords, suggested."""
    folded = _fold(text if isinstance(text, str) else "")
    out = []
    for point in question.rubric:
        keywords = list(dict.fromkeys((point.keywords.zh or []) + (point.keywords.en or [])))
        matched = [k for k in keywords if keyword_in(k, folded)]
        out.append({"id": point.id, "kind": getattr(point.kind, "value", point.kind),
                    "text": point.text.get(lang), "matched": matched,
                    "suggested": bool(matched)})
    return out
