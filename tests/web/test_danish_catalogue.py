"""The Danish catalogue is whole: every msgid translated (none fuzzy), its placeholders
those of the English, Danish plural forms, compiled, and every msgid of the Swedish
catalogue in it too (also the words translated through a variable, which makemessages
cannot find), so a Danish page is as translated as a Swedish one."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.utils import translation

LOCALE = Path(__file__).resolve().parents[2] / "locale"
DANISH = LOCALE / "da" / "LC_MESSAGES"
SWEDISH = LOCALE / "sv" / "LC_MESSAGES" / "django.po"
# Python's %(name)s / %(name)d and str.format's {name}.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


@pytest.fixture(scope="module")
def po() -> polib.POFile:
    return polib.pofile(str(DANISH / "django.po"))


def _problems(entry: polib.POEntry) -> list[str]:
    """What is wrong with one entry: untranslated forms, or placeholders that differ."""
    if entry.msgid_plural:
        forms = [(entry.msgstr_plural.get(0, ""), entry.msgid)]
        forms.append((entry.msgstr_plural.get(1, ""), entry.msgid_plural))
    else:
        forms = [(entry.msgstr, entry.msgid)]
    problems = []
    for text, english in forms:
        if not text.strip():
            problems.append(f"untranslated: {english!r}")
        elif sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(english)):
            problems.append(f"placeholders differ: {english!r} → {text!r}")
    return problems


def test_the_checks_see_what_is_wrong() -> None:
    """Not hollow: an empty form and a lost or renamed placeholder are found."""
    empty = polib.POEntry(msgid="%(n)s game", msgid_plural="%(n)s games")
    empty.msgstr_plural = {0: "%(n)s parti", 1: ""}
    assert _problems(empty) == ["untranslated: '%(n)s games'"]
    renamed = polib.POEntry(msgid="Table %(n)s", msgstr="Bord %(m)s")
    assert _problems(renamed) == ["placeholders differ: 'Table %(n)s' → 'Bord %(m)s'"]
    lost = polib.POEntry(msgid="{pattern} with munk", msgstr="med munk")
    assert _problems(lost) == ["placeholders differ: '{pattern} with munk' → 'med munk'"]
    assert _problems(polib.POEntry(msgid="Table %(n)s", msgstr="Bord %(n)s")) == []


def test_every_message_is_translated_with_its_placeholders(po: polib.POFile) -> None:
    assert po.metadata["Language"] == "da"
    assert po.metadata["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    assert po.fuzzy_entries() == [] and not po.metadata_is_fuzzy
    assert po.obsolete_entries() == []
    problems = [problem for entry in po for problem in _problems(entry)]
    assert problems == []
    assert len(po) > 1500


def test_msgfmt_finds_the_catalogue_sound() -> None:
    """GNU gettext's own check (compilemessages needs it anyway): c-format and
    python-format placeholders agree, the header is whole."""
    msgfmt = shutil.which("msgfmt")
    assert msgfmt is not None, "msgfmt (GNU gettext) is needed to compile the catalogues"
    done = subprocess.run(
        [msgfmt, "--check-format", "-c", "-o", "/dev/null", str(DANISH / "django.po")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_every_swedish_msgid_is_in_the_danish_catalogue(po: polib.POFile) -> None:
    danish = {(e.msgctxt, e.msgid, e.msgid_plural) for e in po}
    swedish = {(e.msgctxt, e.msgid, e.msgid_plural) for e in polib.pofile(str(SWEDISH))}
    assert sorted(swedish - danish, key=str) == []


def test_compiled_catalogue_matches_the_po_file(po: polib.POFile) -> None:
    mo = polib.mofile(str(DANISH / "django.mo"))
    compiled = {
        (e.msgctxt, e.msgid, e.msgid_plural): (e.msgstr, e.msgstr_plural) for e in mo if e.msgid
    }
    source = {
        (e.msgctxt, e.msgid, e.msgid_plural): (e.msgstr, e.msgstr_plural)
        for e in po.translated_entries()
    }
    assert compiled == source, "run: manage.py compilemessages -l da --ignore=.venv"


def test_django_reads_the_danish_catalogue() -> None:
    with translation.override("da"):
        assert translation.gettext("Sign in") == "Log ind"
        assert translation.pgettext("round", "Round of 16") == "Ottendedelsfinale"
        assert translation.ngettext("%(n)s point", "%(n)s points", 2) == "%(n)s point"
        assert translation.gettext("Cube") == "Dobleterning"
