"""The Swedish translation is complete, compiled, and what a Swedish visitor sees."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.urls import reverse

LOCALE = Path(__file__).resolve().parent.parent.parent / "locale" / "sv" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def test_every_message_is_translated_and_keeps_its_placeholders() -> None:
    po = polib.pofile(str(LOCALE / "django.po"))
    assert len(po) > 200
    assert po.untranslated_entries() == []
    assert po.fuzzy_entries() == []
    for entry in po:
        if entry.msgid_plural:
            forms = [entry.msgstr_plural[0], entry.msgstr_plural[1]]
            wanted = set(PLACEHOLDER.findall(entry.msgid_plural))
        else:
            forms = [entry.msgstr]
            wanted = set(PLACEHOLDER.findall(entry.msgid))
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == wanted, entry.msgid


def test_compiled_catalogue_matches_the_po_file() -> None:
    po = polib.pofile(str(LOCALE / "django.po"))
    mo = polib.mofile(str(LOCALE / "django.mo"))
    # Keyed by context too: pgettext's "withdrawn" (of a report) is another message than
    # gettext's "withdrawn" (of a player).
    compiled = {
        (e.msgctxt, e.msgid, e.msgid_plural): (e.msgstr, e.msgstr_plural) for e in mo if e.msgid
    }
    source = {
        (e.msgctxt, e.msgid, e.msgid_plural): (e.msgstr, e.msgstr_plural)
        for e in po.translated_entries()
    }
    assert compiled == source, "run: manage.py compilemessages -l sv --ignore=.venv"


@pytest.mark.django_db
def test_pages_are_swedish_by_default_and_english_on_request(client: Client) -> None:
    page = client.get(reverse("web:tournament_list")).content.decode()
    assert "Turneringar" in page and "Logga in" in page
    client.cookies["django_language"] = "en"
    page = client.get(reverse("web:tournament_list")).content.decode()
    assert "Tournaments" in page and "Sign in" in page
