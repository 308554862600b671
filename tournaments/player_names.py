"""When two written names are one player's name: the key a player's name is stored and
matched by (``Player.name_key``).

The key is the name in Unicode's compatibility form (NFKC), case-folded, with the
spaces at either end dropped and every run of spaces inside made one. So “Åsa Berg”,
“ÅSA  BERG ” and an “Å” typed as A plus a combining ring (as some Mac programs save it)
are one name; “Asa Berg” (no ring) is another. Pure: imports nothing from Django.

The rule, written once: within a club, one name is one player (the constraint
``player_name_once_per_club``); so a season's results import, the entries' “enter by
name” and the player forms all compare names by this key and no other.
"""

from __future__ import annotations

import unicodedata

__all__ = ["player_name_key"]


def player_name_key(name: str) -> str:
    """The key ``name`` is matched by: NFKC, case-folded (then NFKC again, as folding
    may undo the form), outer spaces dropped and inner runs of spaces made one."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())
