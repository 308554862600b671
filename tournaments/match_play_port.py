"""The port from tournaments to the app that plays their matches (``matches``).

Tournaments sit below matches: ``matches`` imports ``tournaments``, never the other way
round (``tests/test_layers.py``). Yet a few tournament services act on matches: the draw
creates the bracket's matches, a withdrawal after the draw gives a walkover, a round's
length is fixed once a game of it is entered, and a tournament leaves the players'
reporting mode only with no report open. They reach ``matches`` through this port, which
``matches`` registers when Django starts (``matches.apps.MatchesConfig.ready``), as an app
registers its models with ``django.apps`` or its admin with ``admin.site``.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import ImproperlyConfigured

from core.reasons import Reason

if TYPE_CHECKING:
    from tournaments.match_plans import PlannedMatch
    from tournaments.models import Entry, Player, Round, Tournament

__all__ = ["MatchPlay", "match_play", "match_play_register"]


class MatchPlay(Protocol):
    """What tournament services ask of the matches app."""

    def matches_create(
        self, *, tournament: Tournament, plan: Sequence[PlannedMatch], by: Any
    ) -> None:
        """Create a drawn stage's matches from its plan, with their links, byes settled
        (``tournaments.match_plans``), inside the draw's transaction."""
        ...

    def group_orders(self, *, tournament: Tournament) -> tuple[list[list[Player]], int, int]:
        """A round robin's groups, each as its players in table order (a Swiss: one group,
        its standings), withdrawn players included (marked by their entries); how many of
        its table matches are not finished yet; and how many Swiss rounds are not paired
        or not published yet."""
        ...

    def group_results(
        self, *, tournament: Tournament
    ) -> tuple[tuple[str, ...], dict[int, tuple[int, list[Decimal | None]]]]:
        """A round robin's tiebreak chain (match points first) and, by player id, each
        player's matches played in its group and its values of the chain."""
        ...

    def withdrawal_apply(self, *, entry: Entry, by: Any, reason: Reason) -> None:
        """After the draw: the withdrawn player's next match becomes a walkover."""
        ...

    def round_started(self, *, round: Round) -> bool:
        """Whether a game of ``round`` has been entered (its length is then fixed)."""
        ...

    def round_length_apply(self, *, round: Round, length: int) -> None:
        """A round's new match length, given to its matches."""
        ...

    def results_by_check(self, *, tournament: Tournament, results_by: str) -> None:
        """Refuse (a ``DomainError``) a change of who enters the results that would leave
        something unanswered."""
        ...


_registered: list[MatchPlay] = []


def match_play_register(play: MatchPlay) -> None:
    """Register the matches app's side of the port (once; again replaces it)."""
    _registered[:] = [play]


def match_play() -> MatchPlay:
    if not _registered:
        raise ImproperlyConfigured(
            "no match play registered: the matches app registers it in its AppConfig.ready()"
        )
    return _registered[0]
