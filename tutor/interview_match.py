"""Suggest which rubric points a typed interview answer covers, by keyword and synonym matching.

Each rubric point lists keywords (synonyms) in zh and en; a point is suggested when any keyword
of either language appears in the answer. Matching ignores case and full/half width (NFKC), and
spacing around symbols ("I + J" matches "i+j"). Chinese has no spaces between words, so a keyword
with CJK characters matches as a substring of the answer with all spaces removed; a Latin keyword
must stand as a whole word (a plural "s"/"es" allowed), so "gain" does not match "again". A Latin
keyword ending in "*" is a stem: "initiali*" matches "initialization" and "initialize".

A misconception is suggested only where the answer asserts it, not where it denies it: "does not
mean gradients can never vanish", "并不意味着梯度永不消失" and "'residuals are a regularizer' is
a myth" leave the misconception unticked. A match counts as denied when a negation cue stands
before it in the same clause (not, never, cannot, without, otherwise, 不是, 并不, 不意味着, 没有,
否则, ...) or a refutation follows it there (is wrong, is a myth, 是错的, 不成立, ...). "Not
only" / "不仅" affirm and are no cue. A misconception is an unconditional overclaim, so a match
stated under an explicit condition is not it either: "if Lip(f) < 1 the block is always
invertible", "the two are equivalent only if the gates stay at 1", "若 Lip(f)<1，则残差块一定可逆"
(a condition cue, if / provided / as long as / assuming / 若 / 如果 / 只要, earlier in the same
sentence, or if / only if / provided / as long as after it in its clause). The price: "if you add
residuals, gradients never vanish" reads as conditional too. Required and bonus points are
suggested on any mention: their own wording is often negative ("no guarantee", "不保证"). The
learner confirms or corrects every suggestion.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_SPACE_AROUND_SYMBOL = re.compile(r"\s*([^\w\s])\s*")
_SPACES = re.compile(r"\s+")

# A clause ends at punctuation or a contrast ("not X but Y" does not deny Y).
_CLAUSE_BREAK = re.compile(
    r"[.;:!?,\n，。；：！？、]|\b(?:but|however|though|although|yet|whereas)\b"
    r"|但是|但|然而|可是|不过|而是")
_EN_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|without|neither|nor|hardly|myth|false|wrong|rather than"
    r"|instead of|otherwise)\b|n['’]t\b")
_EN_AFFIRMING = re.compile(r"\bnot (?:only|just|merely)\b|\bno doubt\b")
_ZH_NEGATION = ("不是", "并不", "并非", "不意味着", "不代表", "不等于", "不能说", "不能", "不会",
                "没有", "没", "未必", "不一定", "不保证", "无法", "谈不上", "而非", "误以为",
                "错误地", "所谓", "不要", "别说", "否则")
_REFUTATION = re.compile(
    r"\b(?:is|are|was|were) (?:wrong|false|a myth|a misconception|not true|untrue)\b"
    r"|\b(?:isn['’]t|aren['’]t) true\b|\b(?:does not|doesn['’]t|do not|don['’]t) hold\b"
    r"|是错的|是错误的|不对|不成立|是误解|是误区|是谬误|不正确")
# A condition before the match anywhere in its sentence, or after it in its clause.
_SENTENCE_BREAK = re.compile(r"[.;!?\n。；！？]")
_CONDITION_BEFORE = re.compile(
    r"\b(?:if|provided|as long as|assuming|only when)\b|若|如果|假如|倘若|只要|在.{0,12}条件下")
_CONDITION_AFTER = re.compile(r"\b(?:if|only if|provided|as long as|only when)\b|的前提下|的条件下")
_EN_WINDOW_WORDS = 8
_ZH_WINDOW_CHARS = 16


def normalize(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = _SPACE_AROUND_SYMBOL.sub(r"\1", folded)
    return _SPACES.sub(" ", folded).strip()


@lru_cache(maxsize=4096)
def _latin_pattern(keyword: str) -> re.Pattern[str]:
    stem = keyword.endswith("*")
    body = re.escape(keyword.rstrip("*"))
    # Word boundaries only where the keyword itself starts/ends with a letter or digit.
    head = r"(?<![^\W_])" if keyword[:1].isalnum() else ""
    if stem:
        tail = r"\w*"
    else:
        tail = r"(?:e?s)?(?![^\W_])" if keyword[-1:].isalnum() else ""
    return re.compile(head + body + tail)


def _matches(answer: str, keyword: str) -> Iterator[tuple[str, int, int]]:
    """(haystack, start, end) of every occurrence of `keyword` in `answer`; the haystack is the
    normalized answer, without its spaces for a Chinese keyword."""
    key = normalize(keyword)
    if not key or key == "*":
        return
    text = normalize(answer)
    if _CJK.search(key):
        compact, needle = text.replace(" ", ""), key.replace(" ", "")
        for found in re.finditer(re.escape(needle), compact):
            yield compact, found.start(), found.end()
        return
    for found in _latin_pattern(key).finditer(text):
        yield text, found.start(), found.end()


def keyword_in(answer: str, keyword: str) -> bool:
    """Whether `keyword` occurs in `answer` (both raw text)."""
    return next(_matches(answer, keyword), None) is not None


def _clause_before(text: str, start: int) -> str:
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, start)]
    return text[breaks[-1] if breaks else 0:start]


def _clause_after(text: str, end: int) -> str:
    found = _CLAUSE_BREAK.search(text, end)
    return text[end:found.start() if found else len(text)]


def _sentence_before(text: str, start: int) -> str:
    breaks = [m.end() for m in _SENTENCE_BREAK.finditer(text, 0, start)]
    return text[breaks[-1] if breaks else 0:start]


def _conditional(text: str, start: int, end: int) -> bool:
    """Whether the match text[start:end] is stated under an explicit condition."""
    return (_CONDITION_BEFORE.search(_sentence_before(text, start)) is not None
            or _CONDITION_AFTER.search(_clause_after(text, end)) is not None)


def _denied(text: str, start: int, end: int) -> bool:
    """Whether the match text[start:end] is negated before it or refuted after it, in its clause."""
    before = _clause_before(text, start)
    words = " ".join(before.split()[-_EN_WINDOW_WORDS:])
    affirming = {m.start() for m in _EN_AFFIRMING.finditer(words)}
    if any(m.start() not in affirming for m in _EN_NEGATION.finditer(words)):
        return True
    near = before.replace(" ", "")[-_ZH_WINDOW_CHARS:]
    near = re.sub(r"不仅|不只|不但|不光", "", near)
    if any(cue in near for cue in _ZH_NEGATION):
        return True
    return _REFUTATION.search(_clause_after(text, end)) is not None


def asserted(answer: str, keyword: str) -> bool:
    """Whether `answer` mentions `keyword` at least once without denying it or stating it under a
    condition."""
    return any(not _denied(*found) and not _conditional(*found)
               for found in _matches(answer, keyword))


def _keywords(point) -> list[str]:
    keywords = point.keywords
    if isinstance(keywords, dict):
        return [*(keywords.get("zh") or ()), *(keywords.get("en") or ())]
    return [*(getattr(keywords, "zh", None) or ()), *(getattr(keywords, "en", None) or ())]


def _is_misconception(point) -> bool:
    kind = getattr(point, "kind", None)
    return getattr(kind, "value", kind) == "misconception"


def suggest_ticks(rubric: Iterable, answer: str) -> tuple[str, ...]:
    """Ids of the rubric points whose keywords (zh or en) occur in `answer`, in rubric order; a
    misconception only where the answer asserts it."""
    ticked = []
    for point in rubric:
        found = asserted if _is_misconception(point) else keyword_in
        if any(found(answer, k) for k in _keywords(point)):
            ticked.append(point.id)
    return tuple(ticked)
