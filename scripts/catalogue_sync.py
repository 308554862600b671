"""Bring a translation catalogue up to the source and the Swedish catalogue (dev tool).

``python scripts/catalogue_sync.py da`` (any language of ``settings.LANGUAGES`` but
Swedish): runs ``manage.py makemessages -l da`` as the catalogue's header says, then gives
the catalogue every msgid of the Swedish one that makemessages cannot find (words
translated through a variable: a format's name, an option's label), keeping the
translation it had, and drops what neither the source nor the Swedish catalogue has.
Prints what is left to translate: the new msgids (empty) and msgmerge's guesses (fuzzy),
which ``tests/web/test_danish_catalogue.py`` refuses until they are translated. Then
translate them and run ``manage.py compilemessages -l da --ignore=.venv``.

Needs ``polib`` (requirements-dev.txt) and GNU gettext, as makemessages does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
Key = tuple[str | None, str, str]


def _key(entry: polib.POEntry) -> Key:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural)


def _untranslated(entry: polib.POEntry) -> polib.POEntry:
    """``entry``'s msgid with no translation, its references and flags kept."""
    fresh = polib.POEntry(
        msgid=entry.msgid,
        msgctxt=entry.msgctxt,
        msgid_plural=entry.msgid_plural,
        occurrences=entry.occurrences,
        flags=[flag for flag in entry.flags if flag != "fuzzy"],
        comment=entry.comment,
    )
    if entry.msgid_plural:
        fresh.msgstr_plural = {0: "", 1: ""}
    return fresh


def sync(language: str) -> list[polib.POEntry]:
    """Update ``language``'s catalogue (see the module text); the entries to translate."""
    path = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    # Read before makemessages: msgmerge turns a msgid it no longer finds into an obsolete
    # entry, or into its guess (fuzzy) for a new msgid like it, losing it either way.
    before = {_key(e): e for e in polib.pofile(str(path)) if e.translated()}
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            language,
            "--ignore=.venv",
            "--ignore=tests",
            "--ignore=bench",
            "--add-location=file",
        ],
        cwd=ROOT,
        check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base"},
    )
    po = polib.pofile(str(path))
    for entry in list(po.obsolete_entries()):
        po.remove(entry)
    live = {_key(e) for e in po}
    for entry in polib.pofile(str(ROOT / "locale" / "sv" / "LC_MESSAGES" / "django.po")):
        key = _key(entry)
        if key in live:
            continue
        restored = _untranslated(entry)
        kept = before.get(key)
        if kept is not None:  # translated before: keep its translation
            restored.msgstr, restored.msgstr_plural = kept.msgstr, kept.msgstr_plural
        po.append(restored)
    po.save(str(path))
    return [e for e in po if not e.translated() or "fuzzy" in e.flags]


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] == "sv":
        sys.exit("usage: python scripts/catalogue_sync.py LANGUAGE (not sv: the source)")
    todo = sync(sys.argv[1])
    for entry in todo:
        state = "fuzzy" if "fuzzy" in entry.flags else "new"
        context = f" [{entry.msgctxt}]" if entry.msgctxt else ""
        print(f"{state}{context}: {entry.msgid}")
    print(f"{len(todo)} to translate")
