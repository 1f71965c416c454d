"""No text a user reads is outside the catalog, and no throwaway ``_`` hides the translation function."""

from __future__ import annotations

from tests.i18n.scan import shadowing, unmarked


def test_every_user_facing_text_is_marked_for_translation():
    found = unmarked()
    assert not found, f"{len(found)} unmarked text(s):\n" + "\n".join(found[:60])


def test_no_throwaway_underscore_where_texts_are_translated():
    found = shadowing()
    assert not found, "\n".join(found)
