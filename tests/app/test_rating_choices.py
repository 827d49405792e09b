"""The rating choices after a right answer name each rating's real next due, from FSRS itself
(tutor.review with the app's scheduler), and say a shared one once (issue 22)."""

from datetime import UTC, datetime, timedelta

import pytest

from app_pages.widgets.feedback import choice_labels
from tutor.rating import choosable
from tutor.review import new_card, rating_choices, schedule

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def test_a_new_question_answered_right_offers_three_different_intervals():
    choices = rating_choices(3, new_card("q", NOW), NOW)
    assert [r for r, _ in choices] == list(choosable(3)) == [2, 3, 4]
    labels, shared = choice_labels(choices, NOW, "en")
    # FSRS-6 default parameters, no learning steps: Hard 1 day, Good 2, Easy 8 (tutor/review.py)
    assert labels == {2: "Hard · back tomorrow", 3: "Good · back in 2 days",
                      4: "Easy · back in 8 days"}
    assert shared is None


@pytest.mark.parametrize(("lang", "names", "back"), [
    ("en", {2: "Hard", 3: "Good", 4: "Easy"}, "back tomorrow"),
    ("zh", None, "明天再复习"),
])
def test_after_a_same_day_again_the_shared_next_day_is_said_once(lang, names, back):
    failed = schedule(new_card("q", NOW), 1, NOW)  # Again this morning
    later = NOW + timedelta(minutes=30)
    choices = rating_choices(3, failed, later)
    # FSRS gives Hard, Good and Easy the same due after a same-day lapse: check it, then the text.
    assert len({due for _, due in choices}) == 1
    labels, shared = choice_labels(choices, later, lang)
    assert shared == back
    assert not any(back in label for label in labels.values())  # not three times over
    if names:
        assert labels == names
