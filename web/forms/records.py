"""The game-record upload form: paste the text or choose a file (game-record.md).

The form only reads what was sent: at most 1 MB, from exactly one of the two fields; a
file's bytes go to the service, which decodes them as the game's replay does (bräde's
records are UTF-8, backgammon's ``.mat`` files UTF-8 or else Windows-1252). Whether it is
a record, and a legal one, is for the engine to say after the service has stored it
(``matches.records.game_record_submit``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.records import RECORD_MAX_BYTES


def megabytes(size: int) -> str:
    """``1.02 MB``: sizes in decimal megabytes, as the 1 MB limit is (1,000,000 bytes)."""
    return f"{number_format(size / 1_000_000, 2)} MB"


class RecordTextField(forms.CharField):
    """The text box. Django's CharField refuses NUL with a message that says not where;
    here NUL is left to ``game_record_submit``, which refuses it and every other control
    character with the line and column, as for an uploaded file."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]


class RecordUploadForm(forms.Form):
    """``cleaned_data["record"]`` is the record: the text box's text, or the file's bytes.

    Control characters (NUL included) pass the form and are refused by the service
    (``matches.records.RECORD_CONTROL_CHARACTERS``), whose message the page shows."""

    text = RecordTextField(
        label=gettext_lazy("Paste the record"),
        required=False,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 16,
                "spellcheck": "false",
                "autocapitalize": "off",
                "autocomplete": "off",
                "aria-describedby": "id_text_helptext",
            }
        ),
        help_text=gettext_lazy(
            "A game record as text (Game 1, Tek: 2-5, W 6-4: 1/7 1/5 …) or as JSON."
        ),
    )
    file = forms.FileField(
        label=gettext_lazy("or choose a file"),
        required=False,
        widget=forms.ClearableFileInput(
            attrs={
                "accept": ".txt,.json,.rec,text/plain,application/json",
                "aria-describedby": "id_file_helptext",
            }
        ),
        help_text=gettext_lazy("A UTF-8 text file of at most 1 MB."),
    )

    def __init__(self, *args: Any, formats: tuple[str, ...] = ("text", "json"), **kwargs: Any):
        super().__init__(*args, **kwargs)
        if "mat" in formats:  # backgammon: .mat of every program's dialect, gnubg's .sgf
            self.fields["text"].help_text = gettext_lazy(
                "A match as gnubg, eXtreme Gammon, BGBlitz, Backgammon Studio, "
                "BackgammonGalaxy or a FIBS client export it (.mat or .txt: “7 point "
                "match”, “Game 1”, numbered move lines), or gnubg's own .sgf file."
            )
            self.fields["file"].widget.attrs["accept"] = ".mat,.txt,.sgf,text/plain"
            self.fields["file"].help_text = gettext_lazy(
                "A text file of at most 1 MB: UTF-8, or Windows-1252 as older programs write it."
            )

    def clean_file(self) -> Any:
        upload = self.cleaned_data.get("file")
        if upload and upload.size > RECORD_MAX_BYTES:
            raise forms.ValidationError(
                _(
                    "The file is %(size)s; the limit is 1 MB. Submit one match per file, "
                    "or leave out what is not part of the record."
                ),
                code="too_big",
                params={"size": megabytes(upload.size)},
            )
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text: str = data.get("text") or ""
        upload = data.get("file")
        if self.errors:
            return data
        if upload and text.strip():
            raise forms.ValidationError(
                _("Paste the record or choose a file, not both."), code="both"
            )
        if upload:
            # Decoded by the service as the game's replay decodes a file; bytes its records
            # cannot be come back as its error (code ``encoding``) on this field.
            data["record"] = upload.read()
            return data
        if not text.strip():
            raise forms.ValidationError(
                _("Paste the record's text or choose a file."), code="empty"
            )
        size = len(text.encode("utf-8"))
        if size > RECORD_MAX_BYTES:
            self.add_error(
                "text",
                forms.ValidationError(
                    _("The text is %(size)s; the limit is 1 MB. Submit one match at a time."),
                    code="too_big",
                    params={"size": megabytes(size)},
                ),
            )
            return data
        data["record"] = text
        return data
