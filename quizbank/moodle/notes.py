"""What an export or import could not carry over, as values the app translates.

Each `Note` has a `code` and its `params`; `str(note)` is the English sentence for the command
line, and the app shows `author.moodle.<code>` from `app_pages/strings/{en,zh}/author.json` with
the same params (a test checks that every code has both).
"""

from __future__ import annotations

from dataclasses import dataclass, field

ENGLISH = {
    # export
    "skipped_type": "{question}: {type} questions have no Moodle equivalent; not exported",
    "skipped_vector": "{question}: Moodle's numerical questions take one number; this answer is a "
                      "vector or matrix; not exported",
    "sigfigs_approx": "{question}: '{sigfigs} significant figures' became an absolute tolerance "
                      "of {tolerance} (Moodle has no significant-figure rule)",
    "relative_approx": "{question}: the relative tolerance became an absolute one of {tolerance}",
    "malrule_not_number": "{question}: the mal-rule answer '{answer}' is not one number; Moodle's "
                          "numerical answers take one; not exported",
    "image_missing": "{question}: the image {name} is not in its bank folder; not exported",
    "formula_as_text": "{question}: exported as a short answer; Moodle compares the text, so only "
                       "answers typed like the key ({answer}) or a mal-rule are recognised",
    # import
    "unmapped_type": "{question}: Moodle type '{type}' has no equivalent here; not imported",
    "no_correct": "{question}: no answer has full marks; not imported",
    "dropped_html": "{question}: left out of the text: {tags}",
    "other_languages": "{question}: text in languages other than zh/en dropped: {langs}",
    "partial_credit": "{question}: answers with partial credit ({answers}) are not kept",
    "wildcard": "{question}: the wildcard answer '*' is not kept",
    "extra_correct": "{question}: only the first fully correct answer is kept as the key",
    "units_dropped": "{question}: units are not kept",
    "zero_tolerance": "{question}: tolerance 0 became a relative tolerance of 1e-9",
    "not_a_formula": "{question}: the answer '{answer}' is not a formula the grader reads "
                     "({reason}); not imported",
    "declared_symbols": "{question}: declared {names} as plain symbols; check them "
                        "(matrices must be listed under `matrices`)",
    "wrong_option_feedback": "{question}: option {option} is wrong but has no feedback; "
                             "a placeholder was written",
    "no_solution": "{question}: no general feedback; a placeholder solution was written",
    "defaults_used": "{question}: topic, difficulty or source not given; used the import's "
                     "defaults ({topic}, {difficulty}, {source})",
    "renamed_id": "{question}: id '{old}' is not kebab-case or repeats; renamed to '{new}'",
    "invalid": "{question}: the imported question does not validate: {message}",
    "ordering_partial": "{question}: Moodle grades only a subset of the steps; all steps kept",
    "files_not_kept": "{question}: embedded files not kept (only PNG, JPEG, GIF and WebP images "
                      "shown in the text are): {files}",
    "images_missing": "{question}: the text shows images that are not in the file: {files}",
    "key_feedback": "{question}: the right answer's own feedback is not kept (the solution is "
                    "shown instead)",
    "wrong_answers_not_kept": "{question}: wrong answers without feedback are not kept "
                              "({answers})",
    "grades_replaced": "{question}: Moodle's grades ({grades}) are replaced by this app's rule: "
                       "each right option +1/n, each wrong one -1/n",
    "not_kept": "{question}: not kept: {fields}",
    "category_not_kept": "category {category}: not kept: {fields}",
    "block_unread": "{question}: the residual-tutor comment block could not be read ({problem})",
    "moodle_settings": "Moodle's quiz settings have no place here and are not kept: {fields}",
}


@dataclass(frozen=True)
class Note:
    code: str
    params: dict = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        return ENGLISH[self.code].format(**self.params)


class MoodleImportRefused(ValueError):
    """The file is not something we read: `code` says why (translated in the app)."""

    MESSAGES = {
        "too_large": "the file is {size} bytes; the limit is {limit}",
        "dtd": "the file declares a DTD or entities (<!DOCTYPE …>); Moodle XML never does, and "
               "such files can read local files (XXE) or expand into gigabytes (billion laughs): "
               "refused",
        "not_xml": "not well-formed XML ({detail})",
        "not_moodle": "not a Moodle XML question file (the root element is <{root}>, not <quiz>)",
        "too_many": "the file holds {count} questions; the limit is {limit}",
        "not_utf8": "the file is not UTF-8 text",
    }

    def __init__(self, code: str, **params):
        self.code = code
        self.params = params
        super().__init__(self.MESSAGES[code].format(**params))
