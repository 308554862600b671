"""The site's own notes and reasons, worded in the reader's language.

What the site itself says of a result or a report (``SiteNote``: recorded move by move,
entered from a game record) and why it gave a walkover, withdrew a player or reset a
match (``core.reasons.ReasonCode``) is stored as a code, and worded here when it is read:
by the pages (the ``note_text`` filter), the API (``matches.serializers``) and the admin.
A page read in Swedish says it in Swedish whoever stored it while English was active,
and the other way round. A person's note or reason is theirs and is shown as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.reasons import ReasonCode
from matches.models import SiteNote

__all__ = ["REASONS", "SITE_NOTES", "note_text", "reason_text", "site_note_text"]

SITE_NOTES: dict[str, Promise] = {
    SiteNote.RECORDED_LIVE: gettext_lazy("recorded move by move"),
    SiteNote.FROM_RECORD: gettext_lazy("from a game record"),
}

REASONS: dict[str, Promise] = {
    ReasonCode.OPPONENT_WITHDREW: gettext_lazy("the opponent withdrew"),
    ReasonCode.ADMIN: gettext_lazy("done in the admin"),
    ReasonCode.FLAG_FALL: gettext_lazy("the opponent's time ran out (flag fall)"),
}


class Noted(Protocol):
    """A row with a person's note and the site's (a ``GameResult`` or a ``GameReport``)."""

    note: str
    site_note: str
    submission_id: int | None


def site_note_text(row: Noted) -> str:
    """The site's note on ``row`` in the active language; "" when it has none. A result
    entered from a game record names the record while it is kept."""
    if row.site_note == SiteNote.FROM_RECORD and row.submission_id is not None:
        return _("from game record #%(number)s") % {"number": row.submission_id}
    words = SITE_NOTES.get(row.site_note)
    return str(words) if words is not None else row.site_note


def note_text(row: Noted) -> str:
    """Everything noted on ``row``: the site's note, then the person's."""
    return "; ".join(part for part in (site_note_text(row), row.note) if part)


def reason_text(data: Mapping[str, Any]) -> str:
    """The reason an audit row's ``data`` keeps, in the active language: the site's code
    worded, or the person's words as written."""
    code = data.get("reason_code")
    if isinstance(code, str) and code:
        words = REASONS.get(code)
        return str(words) if words is not None else code
    return str(data.get("reason") or "")
