"""The Class page's learner data (issue 28), as an instructor uses it and as a careless click
would: a deletion happens only with the learner's name typed exactly, is recorded, and leaves
everyone else's data; the export is the learner's own; instructors are not listed as learners;
two learners of one name are told apart; the Author page speaks of the class. In both
languages."""

from __future__ import annotations

import pytest

from tests.app.test_class_mode import ADA, BO, LEE, _own, _with_attempts, shell
from tutor.i18n import t
from tutor.store.deletions import deletion_log

ALICE_1 = {**ADA, "sub": "sub-alice-1", "nonce": "n-a1", "name": "Alice",
           "email": "alice.w@school.test", "email_verified": True}
ALICE_2 = {**ADA, "sub": "sub-alice-2", "nonce": "n-a2", "name": "Alice",
           "email": "alice.z@school.test", "email_verified": True}


def _data_section(at, lang):
    box = next(s for s in at.selectbox if s.label == t("classview.data.learner", lang))
    field = next(f for f in at.text_input if f.key == "classview.data.confirm")
    button = next(b for b in at.button if b.label == t("classview.data.delete", lang))
    return box, field, button


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_deletion_needs_the_name_typed_and_is_recorded(store, lang):
    ada = _with_attempts(store, ADA, 3)
    bo = _with_attempts(store, BO, 2)
    at = shell(LEE, "class_view", lang=lang)
    box, field, button = _data_section(at, lang)
    box.set_value(ada).run()
    box, field, button = _data_section(at, lang)
    field.set_value("ada").run()  # not her name exactly
    _data_section(at, lang)[2].click().run()
    assert [e.value for e in at.error] == [t("classview.data.not_confirmed", lang, name="Ada")]
    assert store.count_attempts(ada) == 3 and deletion_log(store) == []

    _data_section(at, lang)[1].set_value("Ada").run()
    _data_section(at, lang)[2].click().run()
    [record] = deletion_log(store)
    assert [s.value for s in at.success] == [
        t("classview.data.deleted", lang, name="Ada", attempts=3, record=record.id)]
    assert {p.id for p in store.list_profiles()} == {bo, _own(store, LEE)}
    assert store.count_attempts(bo) == 2
    assert (record.profile_id, record.attempts) == (ada, 3)
    assert record.deleted_by == f"instructor #{_own(store, LEE)}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chosen_learners_export_is_offered(store, lang):
    ada = _with_attempts(store, ADA, 3)
    at = shell(LEE, "class_view", lang=lang)
    _data_section(at, lang)[0].set_value(ada).run()
    labels = [d.proto.label for d in at.get("download_button")]
    assert t("classview.data.export", lang) in labels


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_instructors_are_not_learners_and_namesakes_are_told_apart(store, lang):
    # Each signs in once (what records the verified address); Lee, an instructor, too.
    first, second = (shell(who).session_state["profile_id"] for who in (ALICE_1, ALICE_2))
    at = shell(LEE, "class_view", lang=lang)
    shown = set(at.dataframe[0].value[t("classview.col.learner", lang)])
    assert shown == {"Alice · alice.w", "Alice (2) · alice.z"}
    assert at.metric[0].value == "2"  # Lee is not counted
    assert {first, second} < {p.id for p in store.list_profiles()}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_author_page_in_a_class_speaks_of_the_class_not_of_one_machine(store, lang):
    at = shell(LEE, "author", lang=lang)
    intro = at.caption[0].value
    assert intro.startswith(t("author.intro_class", lang, folder="")[:12])
    assert "no accounts" not in intro and "单机没有账号" not in intro
