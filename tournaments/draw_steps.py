"""The steps every stage's draw shares (``tournaments.stage_draws``): lock the tournament
and check it is still a draft with enough players, order the seeded players before the
drawn ones, and mark it drawn (its draw seed, running, the live pages' version)."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.guards import draft_require, draw_entries
from tournaments.models import Entry, Player, Tournament, TournamentStatus
from tournaments.page_versions import tournament_touch

__all__ = ["draw_begin", "draw_end", "seeded_and_drawn"]


def draw_begin(
    *, tournament: Tournament, doing: str, too_few: str
) -> tuple[Tournament, list[Entry]]:
    """The tournament locked for the draw (inside the caller's transaction) and its active
    entries; refused unless it is a draft (``doing`` says what was refused) with at least
    two players (``too_few``, ``guards.draw_entries``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    draft_require(tournament, doing)
    return tournament, draw_entries(tournament, too_few)


def seeded_and_drawn(entries: Sequence[Entry]) -> tuple[list[Player], list[Player]]:
    """The seeded players by seed order (their numbers only order them, gaps are closed),
    and the players the draw places."""
    seeded = sorted((e for e in entries if e.seed is not None), key=lambda e: e.seed or 0)
    return [e.player for e in seeded], [e.player for e in entries if e.seed is None]


def draw_end(*, tournament: Tournament, draw_seed: int, fields: Sequence[str] = ()) -> None:
    """Store the draw seed (and ``fields`` the draw set), the tournament running, and bump
    its pages' version."""
    tournament.draw_seed = draw_seed
    tournament.status = TournamentStatus.RUNNING
    tournament.save(update_fields=[*fields, "draw_seed", "status"])
    tournament_touch(tournament_id=tournament.pk)
