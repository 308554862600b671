"""Captains' line-ups for a team match, and the boards made from them.

Rules (decisions where the issue left them open; each enforced here, under the team
match's row lock):

- **Who.** A team's captains give its line-up; the tournament's organisers may give
  either team's (a captain who cannot reach the site phones the organiser).
- **Whom.** One player per board, ``boards`` boards, each from the team's own roster,
  regulars and reserves alike (``teams.TeamMember``), none twice; a board may be left
  empty (nobody: that board is a walkover to the other team). **A player of another of
  the club's teams is refused**: a player plays for one team per season (the roster's
  database rule), so lending a player means moving them between rosters first, which the
  roster's history shows.
- **Until when.** Until the team match's deadline (``line_up_deadline``; none set: until
  the boards are made). After it a captain is refused; an organiser may still give one
  until the boards are made.
- **Hidden.** A team's line-up is shown to the other team (and to everyone else) only
  when both are in or the deadline has passed (``line_up_visible``); its own captains
  and the organisers see it at once.
- **The boards** are made as soon as both line-ups are in, or when an organiser closes
  the line-ups (``line_ups_close``, after the deadline or at the table): a team that gave
  none plays its roster's first regular boards in board order. Board k pairs the two
  teams' k-th players in an ordinary match of the round's length; the home team's
  player is named first on odd boards and the away team's on even boards, so the
  first-named side (who starts, where the game lets the first-named start) alternates
  by board. A board with one player is a walkover to that player's team, made as a bye
  at once; a board with none is a board nobody wins.
- **Tables.** A team match's boards are played at the venue named as the home team's club
  when the tournament has one (a league night at every home club: ``tournaments.venues``),
  else where the venues' share puts them (or at the one place); their tables are numbered
  after the boards already made in the round at the same place, so the boards of two team
  matches of a round never share a table.
- The players of a team match's boards are entered in the tournament (``Entry``) so
  that their homes, private links and reports work as in any tournament.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import User, is_organiser, signed_in
from matches.match_changes import NEWS_MATCHES_DRAWN, news_tell
from matches.match_creation import matches_create
from matches.models import Match
from teams.competitions import competition_of
from teams.models import LineUpPlace, Team, TeamBoard, TeamMatch, TeamMember
from teams.permissions import is_captain
from teams.team_scores import team_match_refresh
from tournaments.match_plans import PlannedMatch
from tournaments.models import Entry, Player, Round, Venue
from tournaments.page_versions import tournament_touch

__all__ = ["line_up_give", "line_up_of", "line_up_visible", "line_ups_close"]


def _side_team(team_match: TeamMatch, team: Team) -> None:
    if team.pk not in (team_match.home_id, team_match.away_id):
        raise ValidationError(_("%(team)s does not play this team match.") % {"team": team.name})


def _deadline_passed(team_match: TeamMatch) -> bool:
    deadline = team_match.line_up_deadline
    return deadline is not None and timezone.now() >= deadline


def line_up_of(team_match: TeamMatch, team: Team) -> list[Player | None] | None:
    """The line-up given for ``team`` (a player or None per board), None if none is."""
    places = list(
        LineUpPlace.objects.filter(team_match=team_match, team=team)
        .select_related("player")
        .order_by("board")
    )
    if not places:
        return None
    return [p.player for p in places]


def line_up_visible(team_match: TeamMatch, team: Team, reader: User) -> bool:
    """Whether ``reader`` may see ``team``'s line-up (module docstring)."""
    if team_match.boards_made or _deadline_passed(team_match):
        return True
    if is_organiser(reader, team_match.tournament) or is_captain(reader, team):
        return True
    teams = [t for t in (team_match.home_id, team_match.away_id) if t is not None]
    given = set(LineUpPlace.objects.filter(team_match=team_match).values_list("team_id", flat=True))
    return all(t in given for t in teams)


def line_up_give(
    *, team_match: TeamMatch, team: Team, players: Sequence[Player | None], by: User
) -> TeamMatch:
    """Give ``team``'s line-up for ``team_match`` (module docstring); the boards are made
    when both are in."""
    _side_team(team_match, team)
    organiser = is_organiser(by, team_match.tournament)
    if not organiser and not is_captain(by, team):
        raise PermissionDeniedError(
            _("Only the team's captains and the organisers may give its line-up."),
            code="captains_only",
        )
    with transaction.atomic():
        locked = TeamMatch.objects.select_for_update().get(pk=team_match.pk)
        if locked.boards_made:
            raise ConflictError(
                _("The boards of this team match are made; its line-ups cannot change."),
                code="boards_made",
            )
        if not organiser and _deadline_passed(locked):
            raise ConflictError(
                _("The deadline for the line-ups has passed; ask an organiser."),
                code="line_up_late",
            )
        boards = competition_of(locked.tournament).boards
        if len(players) != boards:
            raise ValidationError(
                _("A line-up names a player (or nobody) for each of the %(boards)d boards.")
                % {"boards": boards},
                code="line_up",
            )
        chosen = [p.pk for p in players if p is not None]
        if len(set(chosen)) != len(chosen):
            raise ValidationError(_("A player can play only one board."), code="line_up")
        roster = set(TeamMember.objects.filter(team=team).values_list("player_id", flat=True))
        strangers = [p.name for p in players if p is not None and p.pk not in roster]
        if strangers:
            raise ValidationError(
                _("Not on %(team)s's roster: %(names)s.")
                % {"team": team.name, "names": ", ".join(strangers)},
                code="line_up",
            )
        LineUpPlace.objects.filter(team_match=locked, team=team).delete()
        LineUpPlace.objects.bulk_create(
            [
                LineUpPlace(
                    team_match=locked,
                    team=team,
                    board=index,
                    player=player,
                    given_by=signed_in(by),
                )
                for index, player in enumerate(players, start=1)
            ]
        )
        given = set(LineUpPlace.objects.filter(team_match=locked).values_list("team_id", flat=True))
        if locked.home_id in given and (locked.away_id is None or locked.away_id in given):
            _boards_make(locked, boards, by)
        tournament_touch(tournament_id=locked.tournament_id)
    return locked


def line_ups_close(*, team_match: TeamMatch, by: User) -> TeamMatch:
    """Make the boards from the line-ups given, a missing one from its team's roster
    (module docstring); organisers only."""
    if not is_organiser(by, team_match.tournament):
        raise PermissionDeniedError(
            _("Only the organisers may close the line-ups."), code="organisers_only"
        )
    with transaction.atomic():
        locked = TeamMatch.objects.select_for_update().get(pk=team_match.pk)
        if locked.boards_made:
            raise ConflictError(
                _("The boards of this team match are made; its line-ups cannot change."),
                code="boards_made",
            )
        _boards_make(locked, competition_of(locked.tournament).boards, by)
        tournament_touch(tournament_id=locked.tournament_id)
    return locked


def _line_up_or_roster(
    team_match: TeamMatch, team: Team | None, boards: int
) -> list[Player | None]:
    if team is None:
        return [None] * boards
    given = line_up_of(team_match, team)
    if given is not None:
        return given
    regulars = [
        m.player
        for m in TeamMember.objects.filter(team=team, reserve=False)
        .select_related("player")
        .order_by("board")[:boards]
    ]
    return [*regulars, *([None] * (boards - len(regulars)))]


def _boards_place(team_match: TeamMatch, matches: list[Match]) -> None:
    """Where a team match's boards are played (module docstring, "Tables"): at the venue
    named as the home team's club when the tournament has one (a league night at every
    home club), else where the venues' share put them; their tables numbered after the
    boards already made in the round at the same place, so two team matches of a round
    never share a table."""
    played = [m for m in matches if m.table is not None]
    if not played:
        return
    home_club = Team.objects.filter(pk=team_match.home_id).values_list("club__name", flat=True)
    venue = Venue.objects.filter(
        tournament_id=team_match.tournament_id, name__in=list(home_club)
    ).first()
    if venue is not None:
        for m in played:
            m.venue = venue
    place = played[0].venue_id
    same_place = Match.objects.filter(round_id=team_match.round_id, table__isnull=False)
    same_place = (
        same_place.filter(venue__isnull=True)
        if place is None
        else same_place.filter(venue_id=place)
    )
    taken = (
        same_place.exclude(pk__in=[m.pk for m in matches]).aggregate(most=Max("table"))["most"] or 0
    )
    for number, m in enumerate(sorted(played, key=lambda m: m.slot), start=taken + 1):
        m.table = number
    Match.objects.bulk_update(played, ["venue", "table"])


def _boards_make(team_match: TeamMatch, boards: int, by: User) -> None:
    home = _line_up_or_roster(team_match, team_match.home, boards)
    away = _line_up_or_roster(team_match, team_match.away, boards)
    rnd = Round.objects.get(pk=team_match.round_id)
    plan: list[PlannedMatch] = []
    made: list[tuple[int, bool, str | None]] = []
    for index, (h, a) in enumerate(zip(home, away, strict=True), start=1):
        slot = team_match.number * boards + index - 1
        if h is None and a is None:
            made.append((index, True, None))
            continue
        key = str(index)
        if h is None or a is None:
            # the bye: its only player is player 1; ``home_first`` says whose it is
            plan.append(PlannedMatch(key=key, round=rnd, slot=slot, player1=h or a, bye=True))
            made.append((index, h is not None, key))
            continue
        home_first = index % 2 == 1
        first, second = (h, a) if home_first else (a, h)
        plan.append(PlannedMatch(key=key, round=rnd, slot=slot, player1=first, player2=second))
        made.append((index, home_first, key))
    tournament = team_match.tournament
    players = {p.pk: p for p in [*home, *away] if p is not None}
    entered = set(
        Entry.objects.filter(tournament=tournament, player_id__in=players).values_list(
            "player_id", flat=True
        )
    )
    Entry.objects.bulk_create(
        [Entry(tournament=tournament, player=p) for pk, p in players.items() if pk not in entered]
    )
    matches = matches_create(tournament=tournament, plan=plan, by=by)
    _boards_place(team_match, matches)
    news_tell(kind=NEWS_MATCHES_DRAWN, tournament_id=tournament.pk)
    by_key = {p.key: m for p, m in zip(plan, matches, strict=True)}
    TeamBoard.objects.bulk_create(
        [
            TeamBoard(
                team_match=team_match,
                board=index,
                match=by_key.get(key) if key is not None else None,
                home_first=home_first,
            )
            for index, home_first, key in made
        ]
    )
    team_match.boards_made = True
    team_match.save(update_fields=["boards_made"])
    team_match_refresh(team_match_id=team_match.pk)
