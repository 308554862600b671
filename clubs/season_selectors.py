"""Reads for club seasons: the season's rules, its events and its standings.

The points table is ``ratings.season.season_table`` (pure); this module turns a season's
events into its input:

- a **tournament of the site** counts once it is public: its *participants* are the
  players drawn into its matches (a player who withdrew after the draw took part), its
  *placings* are ``matches.round_selectors.tournament_placings`` as they stand (a shared
  placing such as 5–8 counts as its best place, 5), its *matches* the decided ones and
  the walkovers (a walkover is not a match won, ``ratings.season``). A private tournament
  is not counted (its results would show in a public table); who may see it sees it
  listed as "not counted while private";
- an **imported event** (``clubs.results_import``) counts with its matches and placings.

The standings are the same for every reader.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clubs.models import EventKind, ImportedEvent, Season, SeasonEvent
from core.errors import NotFoundError
from matches.models import MatchState
from matches.round_selectors import tournament_placings
from matches.visibility import visible_matches
from ratings.season import EventKind as PureKind
from ratings.season import PointsScheme, SeasonMatch, SeasonRow, SeasonRules, season_table
from ratings.season import SeasonEvent as PureEvent
from tournaments.models import Player, Tournament
from tournaments.permissions import User, visible_tournaments


def season_list() -> QuerySet[Season]:
    """Every season, newest first, with its club. Seasons are public: what they count is."""
    return Season.objects.select_related("club").order_by("-start_date", "name", "id")


def season_get(*, pk: int) -> Season:
    season = season_list().filter(pk=pk).first()
    if season is None:
        raise NotFoundError(_("No season #%(id)s.") % {"id": pk})
    return season


def _placings(value: Mapping[str, int]) -> dict[int, int]:
    return {int(place): int(points) for place, points in value.items()}


def season_rules(season: Season) -> SeasonRules:
    return SeasonRules(
        tournament=PointsScheme(
            taking_part=season.tournament_taking_part,
            match_won=season.tournament_match_won,
            placings=_placings(season.tournament_placings),
        ),
        club_night=PointsScheme(
            taking_part=season.club_night_taking_part,
            match_won=season.club_night_match_won,
            placings=_placings(season.club_night_placings),
        ),
    )


@dataclass(frozen=True)
class EventLine:
    """One event of the season as its page lists it."""

    name: str
    date: date
    kind: str
    counted: bool
    tournament: Tournament | None = None  # None for an imported event
    imported: ImportedEvent | None = None


def season_events(*, season: Season, by: User = None) -> list[EventLine]:
    """The season's events ``by`` may see, by date: its tournaments (private ones only to
    who may see them, marked not counted) and its imported events."""
    visible = set(visible_tournaments(by).values_list("pk", flat=True))
    lines = [
        EventLine(
            name=e.tournament.name,
            date=e.tournament.start_date,
            kind=e.kind,
            counted=e.tournament.is_public,
            tournament=e.tournament,
        )
        for e in SeasonEvent.objects.filter(season=season).select_related("tournament")
        if e.tournament_id in visible
    ]
    lines += [
        EventLine(name=e.name, date=e.date, kind=e.kind, counted=True, imported=e)
        for e in ImportedEvent.objects.filter(season=season)
    ]
    return sorted(lines, key=lambda line: (line.date, line.name))


def _pure_kind(kind: str) -> PureKind:
    return PureKind.CLUB_NIGHT if kind == EventKind.CLUB_NIGHT else PureKind.TOURNAMENT


def _tournament_event(event: SeasonEvent) -> PureEvent:
    tournament = event.tournament
    participants: set[int] = set()
    matches: list[SeasonMatch] = []
    # What the public sees of it (``matches.visibility``): an unpublished Swiss round's
    # pairings make nobody a participant before they are published.
    for one, two, winner, state in visible_matches(by=None, tournament=tournament).values_list(
        "player1_id", "player2_id", "winner_id", "state"
    ):
        participants.update(p for p in (one, two) if p is not None)
        if state in (MatchState.DECIDED, MatchState.WALKOVER) and one and two and winner:
            loser = two if winner == one else one
            matches.append(SeasonMatch(winner, loser, walkover=state == MatchState.WALKOVER))
    placings = {
        p.player.pk: p.first
        for p in tournament_placings(tournament=tournament)
        if p.player.pk in participants
    }
    return PureEvent(
        id=event.pk,
        kind=_pure_kind(event.kind),
        participants=frozenset(participants),
        placings=placings,
        matches=tuple(matches),
    )


def _imported_events(season: Season) -> list[PureEvent]:
    events = list(
        ImportedEvent.objects.filter(season=season).prefetch_related("matches", "placings")
    )
    out = []
    for event in events:
        participants: set[int] = set()
        matches = []
        for m in event.matches.all():
            participants.update((m.player1_id, m.player2_id))
            loser = m.player2_id if m.winner_id == m.player1_id else m.player1_id
            matches.append(SeasonMatch(m.winner_id, loser, walkover=m.walkover))
        placings = {p.player_id: p.place for p in event.placings.all()}
        participants.update(placings)
        out.append(
            PureEvent(
                id=-event.pk,  # apart from the site's events, whose ids are positive
                kind=_pure_kind(event.kind),
                participants=frozenset(participants),
                placings=placings,
                matches=tuple(matches),
            )
        )
    return out


@dataclass(frozen=True)
class StandingLine:
    row: SeasonRow
    player: Player


@dataclass
class Standings:
    season: Season
    rules: SeasonRules
    lines: list[StandingLine] = field(default_factory=list)


def season_standings(*, season: Season) -> Standings:
    """The season's points table (``ratings.season.season_table``) of its counted events."""
    counted = SeasonEvent.objects.filter(season=season, tournament__is_public=True)
    events = [_tournament_event(e) for e in counted.select_related("tournament")]
    events += _imported_events(season)
    rules = season_rules(season)
    rows = season_table(events, rules)
    players = Player.objects.select_related("club").in_bulk([r.player for r in rows])
    # Players sharing a place are listed by name (season_table lists them by id).
    by_place: dict[int, list[SeasonRow]] = defaultdict(list)
    for row in rows:
        by_place[row.place].append(row)
    lines = [
        StandingLine(row, players[row.player])
        for place in sorted(by_place)
        for row in sorted(
            by_place[place], key=lambda r: (players[r.player].name.casefold(), r.player)
        )
    ]
    return Standings(season=season, rules=rules, lines=lines)
