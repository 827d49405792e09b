"""The JSON Schema of one bank file, for editors (yaml-language-server) and external checks."""

from typing import Any

from .question_types import BankFile

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def bank_file_schema() -> dict[str, Any]:
    schema = BankFile.model_json_schema(mode="validation")
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "Question bank file",
        "description": "A mapping with one key, `questions`: see quizbank/README.md.",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
    }
