"""A consolation whose final decides third place (``Tournament.consolation_third_place``).

Backgammon directors' tools run a knockout with a *progressive* (feed-in) consolation:
DrawBoss, the Danish club software, offers "Cup with simple consolation" and "Cup with
progressive consolation" among its cup types (drawboss.com, FAQ, "Tournament types"); in
a feed-in consolation the losers of every main round but the final drop into the
consolation, later losers deeper (the "feed-in championship" of tennis draws). Since
every player but the two finalists is then in the consolation, its winner is the best of
them: the consolation final is the match for third place, its loser fourth, as the
usual consolation charts print it ("the loser of the winners' final is second, the
consolation decides third").

Decisions where the sources are silent:
- The option needs the progressive consolation: a simple consolation is played by the
  first-round losers only, so its winner has not met the semifinal losers. Asked for
  with a simple consolation, it is refused (not silently turned into a progressive one);
  other formats keep it off, as they keep ``progressive_consolation`` off.
- With it, every consolation round places its losers, the last round first (as a double
  elimination's losers' bracket does): the consolation final's loser 4, the losers of
  the round before share the next places, and so on; every place from 3 to n is taken
  once (``matches.elimination_placings``). Without it the consolation places nobody.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from core.errors import ValidationError
from formats.format import Format

__all__ = ["third_place_check"]


def third_place_check(fmt: Format, given: Mapping[str, Any]) -> None:
    """The option asked for (``given``, by option) only with a progressive consolation
    (module decisions): one of the checks across options of
    ``tournaments.format_options``, which stores the option only where the format reads
    it."""
    if not given["consolation_third_place"] or "consolation_third_place" not in fmt.options:
        return
    if not (given["progressive_consolation"] and "progressive_consolation" in fmt.options):
        raise ValidationError(
            _(
                "Only a progressive consolation decides third place: tick “Progressive "
                "consolation” too, so that the semifinal losers play in it."
            ),
            code="consolation_third_place",
        )
