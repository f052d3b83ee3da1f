"""How the catalogues write (issue 9, item 8): French punctuation takes its no-break
spaces, and every plural form stands beside its other form with the same placeholders."""

from __future__ import annotations

import json
import re

import pytest

from services.web.settings import DEFAULT_CLIENT_DIR, LANGUAGES

PLACEHOLDER = re.compile(r"\{(\w+)\}")
PLURAL_FORMS = ("zero", "one", "two", "few", "many")
# A French mark of two strokes ends a word or a sentence: before it, a no-break space.
FRENCH_MARK = re.compile(r"(.)([:;?!])(?=\s|$|»)")
NO_BREAK = ("\u00a0", "\u202f")


def catalogue(lang: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads(
        (DEFAULT_CLIENT_DIR / "i18n" / f"{lang}.json").read_text("utf-8")
    )
    return loaded


def test_french_marks_and_quotes_keep_their_no_break_spaces() -> None:
    wrong = []
    for key, text in catalogue("fr").items():
        for before, mark in FRENCH_MARK.findall(text):
            if before not in NO_BREAK:  # a full one before ":", a narrow one before ; ? !
                wrong.append((key, mark, text))
        if re.search(r"«(?!\u00a0)|(?<!\u00a0)»", text):
            wrong.append((key, "«»", text))
    assert not wrong, wrong


def test_the_check_finds_a_plain_space_before_a_colon() -> None:
    assert FRENCH_MARK.findall("Jeu : {game}") == [(" ", ":")]
    assert FRENCH_MARK.findall("Jeu\u00a0: {game}") == [("\u00a0", ":")]
    assert FRENCH_MARK.findall("http://gamenight.test") == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_form_has_its_other_form_and_the_same_placeholders(lang: str) -> None:
    words = catalogue(lang)
    forms = {key: text for key, text in words.items() if key.rsplit(".", 1)[-1] in PLURAL_FORMS}
    assert forms, "no plural forms at all"
    for key, text in forms.items():
        other = key.rsplit(".", 1)[0]
        assert other in words, key
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(words[other])), key


def test_counted_nouns_have_a_singular_in_every_language() -> None:
    counted = ("ui.n_cards", "ui.n_points", "ui.stock_count", "event.dealt", "ui.hint_penalty")
    for lang in LANGUAGES:
        words = catalogue(lang)
        for key in counted:
            assert f"{key}.one" in words, (lang, key)
