"""Learner-facing text in Chinese and English; at least one language, with fallback on read."""

from pydantic import ConfigDict, model_validator

from .strict import STRICT_CONFIG, NonEmptyText, StrictModel

_AT_LEAST_ONE = {"anyOf": [{"required": ["zh"]}, {"required": ["en"]}]}


class Localized(StrictModel):
    """`{zh: "…", en: "…"}`. Bank content drawn from the source texts carries both."""

    model_config = ConfigDict(**STRICT_CONFIG, json_schema_extra=_AT_LEAST_ONE)

    zh: NonEmptyText | None = None
    en: NonEmptyText | None = None

    @model_validator(mode="after")
    def _has_a_language(self):
        if self.zh is None and self.en is None:
            raise ValueError("needs text in at least one language (zh or en)")
        return self

    def get(self, lang: str) -> str:
        """The text in `lang`, else in the other language."""
        first, other = (self.zh, self.en) if lang == "zh" else (self.en, self.zh)
        return first if first is not None else other

    @property
    def is_bilingual(self) -> bool:
        return self.zh is not None and self.en is not None


class LocalizedKeywords(StrictModel):
    """Rubric keywords per language: `{zh: ["恒等"], en: ["identity"]}`."""

    model_config = ConfigDict(**STRICT_CONFIG, json_schema_extra=_AT_LEAST_ONE)

    zh: list[NonEmptyText] | None = None
    en: list[NonEmptyText] | None = None

    @model_validator(mode="after")
    def _has_a_language(self):
        if not self.zh and not self.en:
            raise ValueError("needs at least one keyword in zh or en")
        return self

    def get(self, lang: str) -> list[str]:
        first, other = (self.zh, self.en) if lang == "zh" else (self.en, self.zh)
        return list(first if first else other or [])

    @property
    def is_bilingual(self) -> bool:
        return bool(self.zh) and bool(self.en)
