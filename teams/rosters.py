"""Services for a team's roster: add and remove players, order the boards (a whole order
at once, or one player up or down), mark reserves, sort by rating.

Who: the team's captains and the season keepers (``teams.permissions.can_edit_roster``);
anyone else is refused (``roster_keepers_only``, 403).

Rules, and where each is held:

- **T1 One team per season.** A player plays for one team per season, whatever its club
  or game. The database holds it (``team_player_once_per_season`` on the member rows,
  which carry their team's season): two captains adding one player at the same moment,
  to two teams or to one, get one roster place and one ``player_in_a_team`` (409).
- **T2 The team's club.** A player joins only a team of their own club; a player of
  another club, or of none, is refused (``player_of_another_club``). Decision: refused,
  not let in as a guest: a club's team is the club's players, and a player who is to
  play for another club joins that club in the register of players first. A player who
  changes club later stays on the roster (the captain named them; the team's page shows
  the club they are in now); the rule is checked when a player is added.
- **T3 Boards 1..n.** Every player on the roster has a board; the boards are 1 to n
  without gaps, one player per board (the database: ``team_board_once``,
  ``team_board_from_one``; no gaps: every service here rewrites the boards under the
  team's row lock, so two changes of one roster never interleave).
- **T4 Reserves after the regular boards.** Reserves hold the last boards; an order that
  puts a reserve before a regular player is refused (``reserve_before_regular``).
- **T5 By rating, unless the captain orders.** While the team follows the ratings
  (``Team.boards_by_rating``, the default) every change of the roster sorts the boards
  again: the regular players by rating, highest first, then the reserves by rating. The
  rating is the player's in the team's game on the club's rating list (its formula:
  ``clubs.rating_selectors.club_formula``), else their imported start, else the rating
  given with the player, else 1500 — as a draw's seeds (``ratings_for_ordering``); players
  on the same rating in an order drawn from the team's id (``ratings.seeding``), so
  sorting twice gives the same boards. Decision: the boards are written when the roster
  changes, not whenever a rating moves: a line-up does not change under a captain's feet
  between announcing a match and playing it; "sort by rating" (``roster_sort_by_rating``)
  sorts again now and follows the ratings from then on.
- **T6 The captain's order.** A whole order posted at once (``roster_order_set``: every
  player on the roster once, nobody else; optionally who the reserves are) or a player
  moved one board up or down (``roster_player_move``, within the regular boards or within
  the reserves: across that edge the player is marked a reserve or not instead) sets the
  boards and stops following the ratings. A player added then goes after the last regular
  board (as a reserve: after the last reserve).
- **T7 Marking a reserve** (``roster_reserve_set``): a player made a reserve becomes the
  first reserve, one made a regular player the last regular board (both sorted again
  while the team follows the ratings).
- **T8 At most 50 players** on a roster (``roster_full``).

The player added must be one ``by`` may see (``tournaments.permissions``), else
``player_not_found`` (404) as for no player at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from clubs.rating_selectors import club_formula, ratings_for_ordering
from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from core.permissions import User, signed_in
from ratings.seeding import seeding_order
from teams.models import Team, TeamMember
from teams.permissions import can_edit_roster
from teams.selectors import team_of
from tournaments.models import Player
from tournaments.permissions import players_visible_to

ROSTER_MAX = 50  # T8
# Boards are moved out of the way (1..n → OFFSET+1..) before they are written again, so
# that no two rows share a board at any moment (T3's constraint is checked row by row).
_OFFSET = 1000

__all__ = [
    "ROSTER_MAX",
    "Place",
    "roster_order_set",
    "roster_player_add",
    "roster_player_move",
    "roster_player_remove",
    "roster_reserve_set",
    "roster_sort_by_rating",
]


@dataclass(frozen=True)
class Place:
    """A player's place on a roster, without the board: a roster is a list of places in
    board order (board = index + 1)."""

    player: int
    reserve: bool


def _require_editor(by: User, team: Team) -> None:
    if not can_edit_roster(by, team):
        raise PermissionDeniedError(
            _("Only the team's captains and the season keepers may change its roster."),
            code="roster_keepers_only",
        )


def _locked(team: Team) -> Team:
    """The team's row, locked for the rest of the transaction (T3), read afresh."""
    row = Team.objects.select_for_update().filter(pk=team.pk).first()
    if row is None:
        raise NotFoundError(_("No team #%(id)s.") % {"id": team.pk}, code="team_not_found")
    return row


def _places(team: Team) -> list[Place]:
    return [
        Place(player, reserve)
        for player, reserve in TeamMember.objects.filter(team=team)
        .order_by("board")
        .values_list("player_id", "reserve")
    ]


def _grouped(places: Sequence[Place]) -> list[Place]:
    """T4: the regular players, then the reserves, each group in its order."""
    return [p for p in places if not p.reserve] + [p for p in places if p.reserve]


def _by_rating(team: Team, places: Sequence[Place]) -> list[Place]:
    """T5: each group sorted by rating, highest first, ties by the team's draw."""
    players = list(Player.objects.filter(pk__in=[p.player for p in places]))
    ratings = ratings_for_ordering(team.game, players, formula=club_formula(team.club_id))
    seed = f"team-{team.pk}"
    regular = seeding_order([p.player for p in places if not p.reserve], ratings, seed=seed)
    reserves = seeding_order([p.player for p in places if p.reserve], ratings, seed=seed)
    return [Place(p, False) for p in regular] + [Place(p, True) for p in reserves]


def _arranged(team: Team, places: Sequence[Place]) -> list[Place]:
    return _by_rating(team, places) if team.boards_by_rating else _grouped(places)


def _write(team: Team, places: Sequence[Place], *, by: User) -> list[TeamMember]:
    """Make the roster ``places`` (in board order): rows of players no longer in it go,
    new players get rows, everyone's board and reserve flag follow their place. Called
    with the team locked, in its transaction. Returns the roster in board order."""
    rows = TeamMember.objects.filter(team=team)
    keep = [p.player for p in places]
    rows.exclude(player_id__in=keep).delete()
    rows.update(board=F("board") + _OFFSET)
    members = {m.player_id: m for m in rows}
    new = []
    for board, place in enumerate(places, start=1):
        member = members.get(place.player)
        if member is None:
            new.append(
                TeamMember(
                    team=team,
                    season_id=team.season_id,
                    player_id=place.player,
                    board=board,
                    reserve=place.reserve,
                    added_by=signed_in(by),
                )
            )
        else:
            member.board, member.reserve = board, place.reserve
    TeamMember.objects.bulk_update(members.values(), ["board", "reserve"])
    TeamMember.objects.bulk_create(new)
    return list(rows.select_related("player__club").order_by("board"))


def _following_ratings(team: Team, follow: bool) -> None:
    if team.boards_by_rating != follow:
        team.boards_by_rating = follow
        team.save(update_fields=["boards_by_rating"])


def _in_a_team(player: Player, team: Team, other: Team) -> ConflictError:
    if other.pk == team.pk:
        message = _("%(player)s is on the roster already.") % {"player": player.name}
    else:
        message = _("%(player)s plays for %(team)s this season; a player plays for one team.") % {
            "player": player.name,
            "team": other.name,
        }
    return ConflictError(message, code="player_in_a_team", team={"id": other.pk})


def roster_player_add(
    *, team: Team, player: Player, by: User, reserve: bool = False
) -> list[TeamMember]:
    """Put ``player`` on the roster (as a reserve if ``reserve``): by rating while the team
    follows the ratings, else after the last regular board (or the last reserve). Returns
    the roster in board order."""
    _require_editor(by, team)
    if not players_visible_to(by).filter(pk=player.pk).exists():
        raise NotFoundError(
            _("No player #%(id)s that you can see.") % {"id": player.pk}, code="player_not_found"
        )
    if player.club_id is None or player.club_id != team.club_id:  # T2
        raise ValidationError(
            _("%(player)s is not a player of %(club)s: a team plays its own club's players.")
            % {"player": player.name, "club": team.club.name},
            code="player_of_another_club",
        )
    other = team_of(season_id=team.season_id, player=player)  # T1, told in words
    if other is not None:
        raise _in_a_team(player, team, other)
    try:
        return _add(team, player, reserve=reserve, by=by)
    except IntegrityError:  # T1: someone added them a moment ago, the constraint decided
        other = team_of(season_id=team.season_id, player=player)
        if other is None:
            raise
        raise _in_a_team(player, team, other) from None


def _add(team: Team, player: Player, *, reserve: bool, by: User) -> list[TeamMember]:
    with transaction.atomic():
        team = _locked(team)
        places = _places(team)
        if len(places) >= ROSTER_MAX:
            raise ValidationError(
                _("A roster holds at most %(n)s players.") % {"n": ROSTER_MAX},
                code="roster_full",
            )
        return _write(team, _arranged(team, [*places, Place(player.pk, reserve)]), by=by)


def _not_on_roster(player: Player) -> NotFoundError:
    return NotFoundError(
        _("%(player)s is not on the roster.") % {"player": player.name}, code="not_on_roster"
    )


def roster_player_remove(*, team: Team, player: Player, by: User) -> list[TeamMember]:
    """Take ``player`` off the roster; the boards after theirs move up one (sorted again
    while the team follows the ratings)."""
    _require_editor(by, team)
    with transaction.atomic():
        team = _locked(team)
        places = _places(team)
        rest = [p for p in places if p.player != player.pk]
        if len(rest) == len(places):
            raise _not_on_roster(player)
        return _write(team, _arranged(team, rest), by=by)


def roster_reserve_set(*, team: Team, player: Player, reserve: bool, by: User) -> list[TeamMember]:
    """Make ``player`` a reserve or a regular player (T7)."""
    _require_editor(by, team)
    with transaction.atomic():
        team = _locked(team)
        places = _places(team)
        if player.pk not in {p.player for p in places}:
            raise _not_on_roster(player)
        others = [p for p in places if p.player != player.pk]
        regular = [p for p in others if not p.reserve]
        reserves = [p for p in others if p.reserve]
        # Between the two groups: the first reserve, or the last regular board.
        new = [*regular, Place(player.pk, reserve), *reserves]
        return _write(team, _arranged(team, new), by=by)


def roster_order_set(
    *,
    team: Team,
    order: Sequence[int],
    by: User,
    reserves: Collection[int] | None = None,
) -> list[TeamMember]:
    """Set every board at once (T6): ``order`` is the roster's player ids, board 1 first,
    each once; ``reserves`` the ids of the reserves (left out: as they are). The team no
    longer follows the ratings."""
    _require_editor(by, team)
    with transaction.atomic():
        team = _locked(team)
        places = _places(team)
        on_roster = {p.player: p.reserve for p in places}
        _check_order(order, on_roster, reserves)
        flags = on_roster if reserves is None else {p: p in set(reserves) for p in on_roster}
        new = [Place(player, flags[player]) for player in order]
        first_reserve = next((i for i, p in enumerate(new) if p.reserve), len(new))
        if any(not p.reserve for p in new[first_reserve:]):  # T4
            raise ValidationError(
                _("Reserves come after the regular boards: put every reserve below them."),
                code="reserve_before_regular",
            )
        _following_ratings(team, False)
        return _write(team, new, by=by)


def _check_order(
    order: Sequence[int], on_roster: Collection[int], reserves: Collection[int] | None
) -> None:
    """An order names every player on the roster once and nobody else; the reserves
    named are on the roster."""
    repeated = sorted(p for p, n in Counter(order).items() if n > 1)
    unknown = sorted(set(order) - set(on_roster))
    missing = sorted(set(on_roster) - set(order))
    if repeated or unknown or missing:
        raise ValidationError(
            _("An order names every player on the roster once, and nobody else."),
            code="order_not_the_roster",
            missing=missing,
            unknown=unknown,
            repeated=repeated,
        )
    if reserves is not None and set(reserves) - set(on_roster):
        raise ValidationError(
            _("Only players on the roster can be its reserves."),
            code="order_not_the_roster",
            missing=[],
            unknown=sorted(set(reserves) - set(on_roster)),
            repeated=[],
        )


def roster_player_move(*, team: Team, player: Player, step: int, by: User) -> list[TeamMember]:
    """Move ``player`` one board up (``step`` -1) or down (+1), swapping with the player
    there, within the regular boards or within the reserves (T6); the team no longer
    follows the ratings."""
    _require_editor(by, team)
    if step not in (-1, 1):
        raise ValidationError(_("A player moves one board up or down."), code="cannot_move")
    with transaction.atomic():
        team = _locked(team)
        places = _places(team)
        index = next((i for i, p in enumerate(places) if p.player == player.pk), None)
        if index is None:
            raise _not_on_roster(player)
        other = index + step
        if not 0 <= other < len(places) or places[other].reserve != places[index].reserve:
            raise ValidationError(
                _(
                    "%(player)s cannot move further that way: the regular boards and the "
                    "reserves are ordered apart (mark a player a reserve to move them across)."
                )
                % {"player": player.name},
                code="cannot_move",
            )
        places[index], places[other] = places[other], places[index]
        _following_ratings(team, False)
        return _write(team, places, by=by)


def roster_sort_by_rating(*, team: Team, by: User) -> list[TeamMember]:
    """Sort the boards by rating now and follow the ratings from now on (T5)."""
    _require_editor(by, team)
    with transaction.atomic():
        team = _locked(team)
        _following_ratings(team, True)
        return _write(team, _by_rating(team, _places(team)), by=by)
