"""What a round is (``RoundKind``), and what each kind means to the rest of the site, in one
table (``ROUND_KINDS``): code asks a round's row (``round_kind(r.kind).table``) instead of
comparing kinds, so a new kind of stage adds its kind and its row here.

- ``table``: its matches count in a standings table (a round robin's groups, paired rounds:
  a Swiss or a Monrad); they feed nothing, ``slot`` is only the table number, the bye last;
- ``bracket``: its matches sit in a bracket and send their players on along the links
  stored at the draw (``tournaments.match_plans``);
- ``main``: the main (winners') bracket, the one a knockout has alone; the others
  (consolation, losers', grand final) are named within their own bracket;
- ``paired``: its rounds are paired one at a time from the standings.

A team match round (``team``) is none of these: its boards' matches link nowhere and
count in the teams' table (``teams.tables``), not in a players' one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models

__all__ = ["BRACKET_KINDS", "ROUND_KINDS", "TABLE_KINDS", "KindRow", "RoundKind", "round_kind"]


class RoundKind(models.TextChoices):
    """A round's kind (module docstring: its row in ``ROUND_KINDS``)."""

    KNOCKOUT = "knockout", "knockout round"
    ROUND_ROBIN = "round_robin", "round robin round"
    PAIRED = "paired", "paired round"
    CONSOLATION = "consolation", "consolation bracket round"
    LOSERS = "losers", "losers' bracket round"
    GRAND_FINAL = "grand_final", "grand final"
    TEAM = "team", "team match round"


@dataclass(frozen=True, slots=True)
class KindRow:
    """One kind's row (module docstring)."""

    table: bool = False
    bracket: bool = False
    main: bool = False
    paired: bool = False


ROUND_KINDS: dict[str, KindRow] = {
    RoundKind.KNOCKOUT: KindRow(bracket=True, main=True),
    RoundKind.ROUND_ROBIN: KindRow(table=True),
    RoundKind.PAIRED: KindRow(table=True, paired=True),
    RoundKind.CONSOLATION: KindRow(bracket=True),
    RoundKind.LOSERS: KindRow(bracket=True),
    RoundKind.GRAND_FINAL: KindRow(bracket=True),
    # Team matches' rounds (``teams``): their boards' matches feed nothing and count in
    # no players' table; the team table is the teams app's.
    RoundKind.TEAM: KindRow(),
}

TABLE_KINDS: tuple[str, ...] = tuple(k for k, row in ROUND_KINDS.items() if row.table)
BRACKET_KINDS: tuple[str, ...] = tuple(k for k, row in ROUND_KINDS.items() if row.bracket)


def round_kind(kind: str) -> KindRow:
    """The row of a stored kind."""
    return ROUND_KINDS[kind]
