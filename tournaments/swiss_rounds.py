"""A Swiss tournament's shape and its start: the number of
rounds, their default lengths, the pairing rank of its players and its tiebreak chain.
Pairing the rounds reads the matches, so it lives with them (``matches.swiss_progression``).

Decisions where the issue is silent:
- The number of rounds (``Tournament.swiss_rounds``) is chosen at creation or, left out,
  at the start: ⌈log₂ players⌉ (enough for one player alone on full points when the
  field is a power of two), at least 1. It must be 1 to players − 1 (a Swiss with as many
  rounds as a round robin is a round robin).
- Every round is created at the start, unpublished and without matches, each with its
  match length (3 games, or 3 points in backgammon, as in a round robin), so an organiser
  may change a round's length until a game of it is entered (``round_length_set``).
  Pairing a round fills the next empty one (``matches.swiss_progression``).
- The pairing number (``Entry.pairing_number``, ``stages.swiss.SwissPlayer.rank``) is
  fixed when the Swiss starts, as arbiters fix it: seeded players by seed first, then the
  others by their rating at the start, highest first, unrated last; players equal on
  this are ordered by the stored draw seed (the same draw as ``stages.swiss.swiss_order``).
  A rating changed during the Swiss (another tournament's result) moves nobody.
- The default chain after match points: the game's points tiebreak (bräde: game points on
  the tournament's scale, then skiljepoäng on W&W and Ny 1; backgammon: points won minus
  lost; Kungabräde: game points), then Buchholz cut 1, Buchholz, Sonneborn–Berger and the
  number of wins; the lots last.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ValidationError
from core.permissions import User
from formats.options import option_for
from games.registry import family_for
from stages import roundrobin, tiebreaks
from tournaments.draw_steps import draw_end, draw_open, rounds_make
from tournaments.models import Entry, RoundKind, Tournament
from tournaments.option_problems import option_problem_text

__all__ = [
    "default_chain",
    "default_rounds",
    "entry_pairing_numbers",
    "pairing_numbers",
    "pairing_ranks",
    "rounds_problem",
    "swiss_start",
]


def default_rounds(players: int) -> int:
    """⌈log₂ players⌉, at least 1 (and at most players − 1)."""
    if players < 2:
        return 1
    return max(1, min(players - 1, math.ceil(math.log2(players))))


def default_chain(game: str, scale: str) -> list[str]:
    """The tiebreaks after match points for a Swiss in ``game`` (module decisions)."""
    points = [k for k in tiebreaks.default_chain(family_for(game), scale) if k not in _NOT_POINTS]
    return [*points, "buchholz_cut1", "buchholz", "sonneborn_berger", "wins"]


_NOT_POINTS = frozenset({"direct_encounter", "sonneborn_berger", "wins"})


def rounds_problem(rounds: int, players: int | None) -> str | None:
    """Why ``rounds`` Swiss rounds cannot be played by ``players`` (None: not known yet),
    in words, or ``None``: the option's own bounds (``formats.options``), then the field."""
    spec = option_for("swiss_rounds")
    problem = spec.problem(rounds)
    if problem is not None:
        return option_problem_text(spec, problem, rounds)
    if players is not None and rounds > players - 1:
        return _(
            "%(players)s players can play at most %(max)s rounds without a rematch; "
            "%(rounds)s rounds are too many."
        ) % {"players": players, "max": players - 1, "rounds": rounds}
    return None


def pairing_ranks(entries: Sequence[Entry]) -> dict[int, int]:
    """Player id → pairing rank (0 the highest; equal ranks tie and go by the draw seed):
    seed order, then given rating (highest first), unrated last."""

    def key(e: Entry) -> tuple[int, int, int]:
        if e.seed is not None:
            return (0, e.seed, 0)
        rating = e.player.rating
        return (1, 0, -rating) if rating is not None else (2, 0, 0)

    keys = sorted({key(e) for e in entries})
    place = {k: i for i, k in enumerate(keys)}
    return {e.player_id: place[key(e)] for e in entries}


def pairing_numbers(entries: Sequence[Entry], *, seed: int) -> dict[int, int]:
    """Player id → pairing number, 1 to n: ``pairing_ranks`` now, equal ranks by the draw
    ``seed`` (the players sorted by id, shuffled with ``random.Random(seed)``)."""
    ranks = pairing_ranks(entries)
    drawn = sorted(ranks)
    random.Random(seed).shuffle(drawn)
    lot = {pid: i for i, pid in enumerate(drawn)}
    order = sorted(ranks, key=lambda pid: (ranks[pid], lot[pid]))
    return {pid: number for number, pid in enumerate(order, start=1)}


def entry_pairing_numbers(entries: Sequence[Entry], *, seed: int) -> dict[int, int]:
    """Player id → the pairing number fixed at the start (``Entry.pairing_number``); a
    Swiss started before they were stored gets them from the entries now, the same way
    (``pairing_numbers``). Every entry has one: an entry without (withdrawn before they
    were stored) comes after the others, level with any other such entry."""
    if all(e.pairing_number is not None for e in entries if e.withdrawn_at is None):
        numbers = {e.player_id: e.pairing_number for e in entries if e.pairing_number is not None}
    else:
        numbers = pairing_numbers(entries, seed=seed)
    last = len(numbers) + 1
    return {e.player_id: numbers.get(e.player_id, last) for e in entries}


def _rounds(tournament: Tournament, players: int) -> int:
    """The number of paired rounds: the tournament's, or the default for ``players``."""
    return tournament.swiss_rounds or default_rounds(players)


def _rounds_check(rounds: int, players: int) -> None:
    problem = rounds_problem(rounds, players)
    if problem is not None:
        raise ValidationError(problem, code="swiss_rounds")


def swiss_start(
    *,
    tournament: Tournament,
    by: User,
    lengths: Sequence[int] | None,
    draw_seed: int | None,
) -> Tournament:
    """Start a Swiss (``tournament_draw`` for this format): fix the number of
    rounds, create every round unpublished with its length, store the draw seed and fix
    the pairing numbers. No round
    is paired yet: the organiser checks players in and out, then pairs round 1
    (``matches.swiss_progression.swiss_round_pair``)."""
    with transaction.atomic():
        opening = draw_open(
            tournament=tournament,
            doing=_("Starting the tournament"),
            too_few=_(
                "This tournament needs at least 2 players; %(count)s entered. Enter more first."
            ),
            lengths=lengths,
            defaults=lambda t, players: roundrobin.default_lengths(_rounds(t, players)),
            draw_seed=draw_seed,
            check=lambda t, players: _rounds_check(_rounds(t, players), players),
        )
        tournament, entries, seed = opening.tournament, opening.entries, opening.seed
        rounds = _rounds(tournament, len(entries))
        rounds_make(opening, kind=RoundKind.PAIRED, published=False)
        tournament.swiss_rounds = rounds
        numbers = pairing_numbers(entries, seed=seed)
        for entry in entries:
            entry.pairing_number = numbers[entry.player_id]
        Entry.objects.bulk_update(entries, ["pairing_number"])
        draw_end(tournament=tournament, draw_seed=seed, fields=["swiss_rounds"])
    return tournament
