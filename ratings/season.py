"""A club season's points table: the pure calculation behind the standings page.

A season groups events, tournaments and club nights. The club sets a :class:`PointsScheme`
per kind of event (:class:`SeasonRules`): points for taking part in the event, points per
match won, and points per placing (a table placing → points; placings not in it give
none). A player's season total is the sum over the events they took part in.

Decisions where the issue is silent:

- **A walkover is not a match won** (S6: a walkover shows as a walkover, not as points).
  It still counts for the placing the player reaches.
- **Ties** are broken, in order, by: most matches won in the season; then head-to-head,
  the matches won against the other players on the same points and wins (one pass over the
  whole tied group, walkovers not counted); players still level share the place (the
  places run 1, 2, 2, 4) and are listed by player id, which the page may re-sort by name.
- Points are whole numbers, zero or more.

Every row carries each component (taking part, match wins, placings, head-to-head), so the
page can show how the total was reached next to the rules.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from ratings.errors import RatingValueError

__all__ = [
    "EventKind",
    "PointsScheme",
    "SeasonEvent",
    "SeasonMatch",
    "SeasonRow",
    "SeasonRules",
    "season_table",
]


class EventKind(StrEnum):
    TOURNAMENT = "tournament"
    CLUB_NIGHT = "club_night"


@dataclass(frozen=True)
class PointsScheme:
    """Points for one kind of event."""

    taking_part: int = 0
    match_won: int = 0
    placings: Mapping[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.taking_part < 0 or self.match_won < 0:
            raise RatingValueError("season points are zero or more")
        for place, points in self.placings.items():
            if place < 1 or points < 0:
                raise RatingValueError(f"placing {place}: places start at 1, points at 0")

    def placing_points(self, place: int | None) -> int:
        return 0 if place is None else self.placings.get(place, 0)


@dataclass(frozen=True)
class SeasonRules:
    """The season's points, one scheme per kind of event."""

    tournament: PointsScheme = field(default_factory=PointsScheme)
    club_night: PointsScheme = field(default_factory=PointsScheme)

    def scheme(self, kind: EventKind) -> PointsScheme:
        return self.tournament if kind is EventKind.TOURNAMENT else self.club_night


@dataclass(frozen=True, slots=True)
class SeasonMatch:
    winner: int
    loser: int
    walkover: bool = False


@dataclass(frozen=True)
class SeasonEvent:
    """One tournament or club night: who took part, the placings it gives (player →
    place; may be empty or partial) and its finished matches."""

    id: int
    kind: EventKind
    participants: frozenset[int]
    placings: Mapping[int, int] = field(default_factory=dict)
    matches: tuple[SeasonMatch, ...] = ()

    def __post_init__(self) -> None:
        for player, place in self.placings.items():
            if player not in self.participants:
                raise RatingValueError(f"event {self.id}: player {player} placed, not taking part")
            if place < 1:
                raise RatingValueError(f"event {self.id}: places start at 1, not {place}")
        for match in self.matches:
            if match.winner == match.loser:
                raise RatingValueError(f"event {self.id}: a player cannot meet themselves")
            if not {match.winner, match.loser} <= self.participants:
                raise RatingValueError(f"event {self.id}: a match player is not taking part")


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One player's line in the table. ``head_to_head`` is the wins against the players
    tied with them on points and wins (``None`` when no one was tied); ``shared`` says the
    place is shared."""

    place: int
    player: int
    events: int
    taking_part_points: int
    matches_won: int
    match_points: int
    placing_points: int
    total: int
    head_to_head: int | None
    shared: bool


@dataclass
class _Tally:
    events: int = 0
    taking_part_points: int = 0
    matches_won: int = 0
    match_points: int = 0
    placing_points: int = 0

    @property
    def total(self) -> int:
        return self.taking_part_points + self.match_points + self.placing_points


def season_table(events: Iterable[SeasonEvent], rules: SeasonRules) -> list[SeasonRow]:
    """The season's standings: highest total first, ties broken as the module says."""
    tallies: dict[int, _Tally] = defaultdict(_Tally)
    # (winner, loser) → matches won, walkovers left out, for head-to-head.
    beat: Counter[tuple[int, int]] = Counter()
    seen: set[int] = set()
    for event in events:
        if event.id in seen:
            raise RatingValueError(f"event {event.id} is given twice")
        seen.add(event.id)
        scheme = rules.scheme(event.kind)
        for player in event.participants:
            tally = tallies[player]
            tally.events += 1
            tally.taking_part_points += scheme.taking_part
            tally.placing_points += scheme.placing_points(event.placings.get(player))
        for match in event.matches:
            if match.walkover:
                continue
            tally = tallies[match.winner]
            tally.matches_won += 1
            tally.match_points += scheme.match_won
            beat[(match.winner, match.loser)] += 1

    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for player, tally in tallies.items():
        groups[(tally.total, tally.matches_won)].append(player)

    rows: list[SeasonRow] = []
    for total, wins in sorted(groups, reverse=True):
        group = groups[(total, wins)]
        h2h: dict[int, int | None] = {}
        if len(group) > 1:
            for player in group:
                h2h[player] = sum(beat[(player, other)] for other in group if other != player)
        ordered = sorted(group, key=lambda p: (-(h2h.get(p) or 0), p))
        place = len(rows) + 1
        for i, player in enumerate(ordered):
            if i and h2h.get(player) != h2h.get(ordered[i - 1]):
                place = len(rows) + 1
            tally = tallies[player]
            rows.append(
                SeasonRow(
                    place=place,
                    player=player,
                    events=tally.events,
                    taking_part_points=tally.taking_part_points,
                    matches_won=tally.matches_won,
                    match_points=tally.match_points,
                    placing_points=tally.placing_points,
                    total=total,
                    head_to_head=h2h.get(player),
                    shared=sum(1 for p in group if h2h.get(p) == h2h.get(player)) > 1,
                )
            )
    return rows
