"""Why a walkover was given, a player withdrawn or a match reset, as the audit keeps it.

A person's reason is theirs: kept as they wrote it (``reason`` in the audit row's data).
The site's own reason — the opponent withdrew, it was done in the admin — is kept as a
code (``reason_code``) and worded when it is read, in the reader's language
(``matches.site_words.reason_text``): never as words in the language of whoever happened
to be signed in. Below every app, as the withdrawal crosses from ``tournaments`` to
``matches`` through the match-play port.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeAlias

__all__ = ["Reason", "ReasonCode", "reason_data"]


class ReasonCode(StrEnum):
    """The site's own reasons."""

    OPPONENT_WITHDREW = "opponent_withdrew"  # the walkover's loser withdrew
    ADMIN = "admin"  # done in the site's admin (the row's ``by`` says who)
    FLAG_FALL = "flag_fall"  # the walkover's loser ran out of time (``scoresheets.clock``)


# A reason as the services take it: a person's words, or the site's code (a ``str`` too:
# ``reason_data`` tells them apart).
Reason: TypeAlias = str | ReasonCode


def reason_data(reason: Reason) -> dict[str, str]:
    """The audit row's data for ``reason``: the site's code as ``reason_code``, a person's
    words as ``reason``."""
    if isinstance(reason, ReasonCode):
        return {"reason_code": reason.value}
    return {"reason": reason}
