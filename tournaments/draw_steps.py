"""The steps every stage's draw shares (``tournaments.stage_draws``): the opening
(``draw_open``: lock the tournament, check it is still a draft with enough players, its
rounds' lengths checked in its game's unit, the draw seed given or a new one), the seeded
players ordered before the drawn ones, a stage's numbered rounds made (``rounds_make``),
and the end (``draw_end``: its draw seed, running, the live pages' version). A new kind of
stage's draw is its own steps between these."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments.guards import draft_require, draw_entries
from tournaments.models import Entry, Player, Round, Tournament, TournamentStatus
from tournaments.page_versions import tournament_touch
from tournaments.round_lengths import round_lengths

__all__ = ["DrawOpening", "draw_begin", "draw_end", "draw_open", "rounds_make", "seeded_and_drawn"]


@dataclass(frozen=True, slots=True)
class DrawOpening:
    """What a draw starts from: the tournament locked, its active entries, one checked
    match length per round and their unit, and the draw's seed."""

    tournament: Tournament
    entries: list[Entry]
    lengths: list[int]
    unit: str
    seed: int


def draw_begin(
    *, tournament: Tournament, doing: str, too_few: str
) -> tuple[Tournament, list[Entry]]:
    """The tournament locked for the draw (inside the caller's transaction) and its active
    entries; refused unless it is a draft (``doing`` says what was refused) with at least
    two players (``too_few``, ``guards.draw_entries``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    draft_require(tournament, doing)
    return tournament, draw_entries(tournament, too_few)


def draw_open(
    *,
    tournament: Tournament,
    doing: str,
    too_few: str,
    lengths: Sequence[int] | None,
    defaults: Callable[[Tournament, int], Sequence[int]],
    draw_seed: int | None,
    check: Callable[[Tournament, int], None] | None = None,
) -> DrawOpening:
    """Every draw's opening, inside the caller's transaction (``draw_begin``, then the
    lengths: ``lengths`` as given or ``defaults(tournament, players)``, each checked in
    the game's unit (``round_lengths``); ``draw_seed`` reproduces an earlier draw, a new
    one is chosen otherwise). ``check(tournament, players)``: the stage's own refusals,
    before the lengths (a round robin's groups that cannot be filled)."""
    tournament, entries = draw_begin(tournament=tournament, doing=doing, too_few=too_few)
    if check is not None:
        check(tournament, len(entries))
    chosen, unit = round_lengths(
        tournament=tournament,
        lengths=lengths,
        defaults=defaults(tournament, len(entries)),
        players=len(entries),
    )
    seed = draw_seed if draw_seed is not None else secrets.randbits(62)
    return DrawOpening(tournament, entries, chosen, unit, seed)


def rounds_make(
    opening: DrawOpening, *, kind: str, first: int = 1, published: bool = True
) -> list[Round]:
    """A stage's rounds, one per length, numbered from ``first`` on (a stage after another
    goes on from its rounds), the last the final (``rounds_after`` 0)."""
    count = len(opening.lengths)
    rounds = [
        Round(
            tournament=opening.tournament,
            number=first + index,
            rounds_after=count - 1 - index,
            match_length=length,
            length_unit=opening.unit,
            kind=kind,
            published=published,
        )
        for index, length in enumerate(opening.lengths)
    ]
    return Round.objects.bulk_create(rounds)


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
