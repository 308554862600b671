"""The draw of a knockout with a consolation bracket (simple or progressive) and of a double
elimination: the bracket's shape from ``stages.elimination``, one
``Round`` per round of each of its brackets, and the matches made by the matches app
(``matches.elimination_progression``) with the links along which winners and losers move.

Rounds, in playing order and numbered on from 1 (``Round.number`` is unique per
tournament): the main (or winners') bracket's rounds 1…R, then the consolation (or
losers') bracket's rounds that have at least one match left once byes are removed, then
the grand final and its reset. ``Round.rounds_after`` counts the rounds left in the round's
own bracket (0 for its final; the grand final and its reset both 0), so the main bracket's
rounds are named as a knockout's.

Decisions where the issue is silent:
- Default match lengths: the main (winners') bracket as the knockout's
  (``knockout.default_lengths``: 3 games, the semifinals 5, its final 7); every round of the
  consolation and losers' brackets 3; the grand final and its reset 7 (points instead of
  games for backgammon, as for a knockout). ``lengths`` gives one length per round, in the
  order above.
- A third-place match is not played in these formats: the consolation and the losers'
  bracket place the players instead (``matches.elimination_placings``).
- Byes are the knockout's (top seeds, round 1 only); seeded players keep their seed
  order, the others are drawn with ``draw_seed`` as in a knockout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from core.permissions import User
from formats import Options, format_for
from stages import elimination, knockout
from tournaments.draw_steps import draw_end, draw_open, seeded_and_drawn
from tournaments.match_plans import elimination_plan
from tournaments.match_play_port import match_play
from tournaments.models import Round, RoundKind, Tournament, round_title
from tournaments.models import bracket_round_name as round_name

__all__ = [
    "RoundPlan",
    "bracket_shape",
    "default_lengths",
    "elimination_draw",
    "round_name",
    "round_plan",
    "round_title",
]

# The bracket a stages.elimination match belongs to → the kind of its round.
KINDS = {
    "main": RoundKind.KNOCKOUT,
    "winners": RoundKind.KNOCKOUT,
    "consolation": RoundKind.CONSOLATION,
    "losers": RoundKind.LOSERS,
    "final": RoundKind.GRAND_FINAL,
}
_ORDER = {"main": 0, "winners": 0, "consolation": 1, "losers": 1, "final": 2}


@dataclass(frozen=True)
class RoundPlan:
    """One round to create: its bracket (``stages.elimination``'s name), its number in that
    bracket, and how many rounds of that bracket follow it."""

    bracket: str
    number: int
    rounds_after: int

    @property
    def kind(self) -> str:
        return KINDS[self.bracket]


def bracket_shape(tournament: Tournament, players: int) -> elimination.Bracket:
    """The tournament's bracket for ``players`` players (its format's shape, with its
    options); ValueError for a format whose stage is not an elimination."""
    return format_for(tournament.format).bracket(players, Options.of(tournament))


def round_plan(shape: elimination.Bracket) -> list[RoundPlan]:
    """The rounds of a shape in playing order: every main-bracket round (round 1 keeps its
    byes, shown as in a knockout), then the other brackets' rounds with a match."""
    main = "winners" if shape.format == "double" else "main"
    rounds = knockout.round_count(shape.players)
    numbers: dict[str, set[int]] = {main: set(range(1, rounds + 1))}
    for m in shape.matches:
        numbers.setdefault(m.bracket, set()).add(m.round)
    plan: list[RoundPlan] = []
    for name in sorted(numbers, key=lambda b: _ORDER[b]):
        ordered = sorted(numbers[name])
        plan.extend(
            # The grand final and its reset are both the final (``Round.name``: Final).
            RoundPlan(name, number, 0 if name == "final" else len(ordered) - 1 - i)
            for i, number in enumerate(ordered)
        )
    return plan


def default_lengths(plan: Sequence[RoundPlan]) -> list[int]:
    """The module docstring's defaults, one per planned round."""
    main = [p for p in plan if p.kind == RoundKind.KNOCKOUT]
    lengths = iter(knockout.default_lengths(len(main)))
    return [
        next(lengths) if p.kind == RoundKind.KNOCKOUT else 7 if p.bracket == "final" else 3
        for p in plan
    ]


def elimination_draw(
    *,
    tournament: Tournament,
    by: User,
    lengths: Sequence[int] | None,
    draw_seed: int | None,
) -> Tournament:
    """Draw a consolation or double-elimination tournament (``tournament_draw``
    calls this for those formats; the same checks and arguments as a knockout's draw)."""
    with transaction.atomic():
        opening = draw_open(
            tournament=tournament,
            doing=_("Drawing the bracket"),
            too_few=_("A knockout needs at least 2 players; %(count)s entered. Enter more first."),
            lengths=lengths,
            defaults=lambda t, players: default_lengths(round_plan(bracket_shape(t, players))),
            draw_seed=draw_seed,
        )
        tournament, entries, draw_seed = opening.tournament, opening.entries, opening.seed
        lengths, unit = opening.lengths, opening.unit
        shape = bracket_shape(tournament, len(entries))
        plan = round_plan(shape)
        # Seed line number k is players[k - 1] (``knockout.first_round``'s numbering).
        seeded, unseeded = seeded_and_drawn(entries)
        players = seeded + knockout.draw_order(unseeded, draw_seed)
        # Each round's column in its own bracket (``Round.bracket_number``, for its name).
        columns: dict[str, int] = {}
        rows: dict[tuple[str, int], Round] = {}
        for index, (p, length) in enumerate(zip(plan, lengths, strict=True), start=1):
            columns[p.kind] = columns.get(p.kind, 0) + 1
            rows[(p.bracket, p.number)] = Round.objects.create(
                tournament=tournament,
                number=index,
                rounds_after=p.rounds_after,
                match_length=length,
                length_unit=unit,
                kind=p.kind,
                bracket_number=None if p.kind == RoundKind.KNOCKOUT else columns[p.kind],
            )
        draw_end(tournament=tournament, draw_seed=draw_seed)
        match_play().matches_create(
            tournament=tournament,
            plan=elimination_plan(shape=shape, rounds=rows, players=players),
            by=by,
        )
    return tournament
