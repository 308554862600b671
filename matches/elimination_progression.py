"""Consolation and double-elimination brackets in play: their matches made at the draw,
the links players move along, and the rules they move by.

At the draw every match of ``stages.elimination``'s shape becomes a ``Match`` with its code
(``M2.1``, ``C1.3``, ``W1.2``, ``L4.1``, ``GF``, ``GF2``), and each *source* of a side (the
winner or the loser of an earlier match) becomes a link on that earlier match:
``winner_to``/``loser_to`` and which side (``*_upper``: player 1). The main (winners')
bracket's round 1 keeps a row for each bye, as a knockout shows it. Progression then follows
the links, never slot arithmetic: ``matches.progression`` moves the players along them
(``advance``, ``unadvance``, the byes and the reset below); this module makes the matches
and their links, reads them (``linked_downstream``) and refuses a correction upstream of a
match that has started (``elimination_refuse``, for ``refuse_if_downstream_started``).

Rules, and decisions where the issue is silent:
- *First match only* (simple consolation): the loser of a main round-2 match enters the
  consolation only if it had a bye in round 1, i.e. played no match before; otherwise its
  side stays empty and the consolation match becomes a bye for the other player, who goes
  on at once (``stages.elimination``).
- *The reset* (``if_needed``): the grand final's winner from the winners' bracket (player 1)
  wins the tournament and the reset is marked ``not_needed``; if the losers' bracket's
  player wins, both play the reset, in the same places.
- Corrections and resets: as in a knockout, refused while a match this one fed has a game,
  a result or a walkover (``refuse_if_downstream_started``). A bye that this match caused
  has not started by itself: it is taken back (with what it sent on, recursively) when the
  result that caused it changes, unless what it fed has started. A reset that is not
  needed has not started either. A ``not_needed`` reset cannot be reset itself.
- The tournament is finished when every match is (decided, walkover, bye or not needed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ConflictError, ValidationError
from core.permissions import User, signed_in
from matches.fed_matches import downstream_started, match_started
from matches.models import EventKind, Match, MatchEvent, MatchState
from matches.tables import tables_number
from stages import elimination
from tournaments.lengths import match_length_problem
from tournaments.models import Player, Round, Tournament

__all__ = [
    "elimination_matches_create",
    "elimination_refuse",
    "first_match",
    "linked_downstream",
    "side_empty",
]

_PLAYED = (MatchState.DECIDED, MatchState.WALKOVER)


def elimination_matches_create(
    *,
    tournament: Tournament,
    shape: elimination.Bracket,
    rounds: Mapping[tuple[str, int], Round],
    players: Sequence[Player],
    by: User,
) -> list[Match]:
    """Every match of a drawn consolation or double elimination, with its links; seed k is
    ``players[k - 1]``. A few queries whatever the field's size."""
    for rnd in rounds.values():
        problem = match_length_problem(rnd.match_length, rnd.length_unit)
        if problem is not None:
            raise ValidationError(problem, code="match_length")
    double = shape.format == "double"
    main, prefix = ("winners", "W") if double else ("main", "M")

    def seeded(source: elimination.Source) -> Player | None:
        return players[source.seed - 1] if source.kind == elimination.SEED else None

    rows: dict[str, Match] = {}
    for m in shape.matches:
        rnd = rounds[(m.bracket, m.round)]
        top, bottom = seeded(m.top), seeded(m.bottom)
        rows[m.code] = Match(
            tournament=tournament,
            round=rnd,
            slot=m.number - 1,
            code=m.code,
            player1=top,
            player2=bottom,
            length=rnd.match_length,
            length_unit=rnd.length_unit,
            if_needed=m.if_needed,
            state=MatchState.READY if top and bottom else MatchState.WAITING,
        )
    # The byes of round 1, shown as a knockout shows them: the top seed on the upper line.
    order = elimination.seed_order(shape.size)
    byes: dict[int, Match] = {}
    for i in range(shape.size // 2):
        code = f"{prefix}1.{i + 1}"
        if code in rows:
            continue
        seed = min(order[2 * i], order[2 * i + 1])
        rnd = rounds[(main, 1)]
        player = players[seed - 1]
        byes[seed] = Match(
            tournament=tournament,
            round=rnd,
            slot=i,
            code=code,
            player1=player,
            length=rnd.match_length,
            length_unit=rnd.length_unit,
            state=MatchState.BYE,
            winner=player,
        )
    tables_number([*rows.values(), *byes.values()])
    Match.objects.bulk_create([*rows.values(), *byes.values()])
    for m in shape.matches:
        if m.if_needed:
            continue  # the reset is fed by the grand final itself (elimination_advance)
        target = rows[m.code]
        for source, upper in ((m.top, True), (m.bottom, False)):
            if source.kind == elimination.WINNER:
                feeder = rows[source.match]
                feeder.winner_to, feeder.winner_to_upper = target, upper
            elif source.kind == elimination.LOSER:
                feeder = rows[source.match]
                feeder.loser_to, feeder.loser_to_upper = target, upper
                feeder.loser_first_match_only = source.first_match_only
            elif source.kind == elimination.SEED and source.seed in byes:
                bye = byes[source.seed]
                bye.winner_to, bye.winner_to_upper = target, upper
    Match.objects.bulk_update(
        [*rows.values(), *byes.values()],
        ["winner_to", "winner_to_upper", "loser_to", "loser_to_upper", "loser_first_match_only"],
    )
    user = signed_in(by)
    MatchEvent.objects.bulk_create(
        [
            MatchEvent(match=m, kind=EventKind.BYE, by=user, data={"player": m.player1_id})
            for m in byes.values()
        ]
    )
    return [*rows.values(), *byes.values()]


def linked_downstream(match: Match) -> list[tuple[Match, bool, str]]:
    """The matches this one feeds, locked: (match, upper side?, "winner", "loser" or
    "reset"); the grand final feeds its reset."""
    wanted: list[tuple[int, bool, str]] = []
    if match.winner_to_id is not None:
        wanted.append((match.winner_to_id, match.winner_to_upper, "winner"))
    if match.loser_to_id is not None:
        wanted.append((match.loser_to_id, match.loser_to_upper, "loser"))
    locked = {
        m.pk: m
        for m in Match.objects.select_for_update().filter(pk__in=[pk for pk, _u, _r in wanted])
    }
    found = [(locked[pk], upper, role) for pk, upper, role in wanted]
    if match.code == "GF":
        reset = (
            Match.objects.select_for_update()
            .filter(tournament_id=match.tournament_id, if_needed=True)
            .first()
        )
        if reset is not None:
            found.append((reset, True, "reset"))
    return found


def first_match(feeder: Match, player: Player) -> bool:
    """Whether ``feeder`` was ``player``'s first match (no match played in an earlier round:
    a bye is not a match)."""
    return not (
        Match.objects.filter(
            tournament_id=feeder.tournament_id,
            round__number__lt=feeder.round.number,
            state__in=_PLAYED,
        )
        .filter(Q(player1=player) | Q(player2=player))
        .exists()
    )


def side_empty(target: Match, upper: bool) -> bool:
    """A side that stays empty for good: fed by a *first match only* loser who had played
    before (simple consolation)."""
    feeder = (
        Match.objects.filter(
            loser_to=target, loser_to_upper=upper, loser_first_match_only=True, state__in=_PLAYED
        )
        .select_related("round", "player1", "player2")
        .first()
    )
    if feeder is None:
        return False
    loser = feeder.loser
    return loser is not None and not first_match(feeder, loser)


def _blocking(target: Match) -> Match | None:
    """The match that has started among ``target`` and, through the byes it caused, the
    matches after it (None: nothing has)."""
    if target.state == MatchState.NOT_NEEDED:
        return None
    if target.state == MatchState.BYE:
        for after, _upper, _role in linked_downstream(target):
            found = _blocking(after)
            if found is not None:
                return found
        return None
    return target if match_started(target) else None


def elimination_refuse(match: Match, what: str) -> list[tuple[Match, bool, str]]:
    """``refuse_if_downstream_started`` for a linked match (``what``: the refused action)."""
    if match.state == MatchState.NOT_NEEDED:
        raise ConflictError(
            _(
                "%(what)s is refused: this replay of the grand final is not needed, because "
                "the winners' bracket's player won the grand final. Reset the grand final "
                "instead."
            )
            % {"what": what},
            code="not_needed",
        )
    downstream = linked_downstream(match)
    for target, _upper, _role in downstream:
        blocking = _blocking(target)
        if blocking is not None:
            raise downstream_started(what, blocking)
    return downstream
