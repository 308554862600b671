"""The season points table (ratings.season)."""

from __future__ import annotations

import pytest

from ratings.errors import RatingValueError
from ratings.season import (
    EventKind,
    PointsScheme,
    SeasonEvent,
    SeasonMatch,
    SeasonRow,
    SeasonRules,
    season_table,
)

RULES = SeasonRules(
    tournament=PointsScheme(taking_part=2, match_won=3, placings={1: 10, 2: 6, 3: 3}),
    club_night=PointsScheme(taking_part=1, match_won=1),
)


def ev(
    id: int, kind: EventKind, players: set[int], *matches: SeasonMatch, **placings: int
) -> SeasonEvent:
    """An event; placings as ``p<player>=<place>``."""
    return SeasonEvent(
        id=id,
        kind=kind,
        participants=frozenset(players),
        placings={int(p[1:]): place for p, place in placings.items()},
        matches=matches,
    )


W = SeasonMatch


def test_components_and_totals() -> None:
    events = [
        ev(1, EventKind.TOURNAMENT, {1, 2, 3}, W(1, 2), W(1, 3), W(2, 3), p1=1, p2=2, p3=3),
        ev(2, EventKind.CLUB_NIGHT, {2, 3}, W(3, 2)),
    ]
    rows = season_table(events, RULES)
    assert rows[0] == SeasonRow(
        place=1, player=1, events=1, taking_part_points=2, matches_won=2, match_points=6,
        placing_points=10, total=18, head_to_head=None, shared=False,
    )  # fmt: skip
    # Player 2: 2+1 taking part, 3 for a tournament win, 6 for second = 12.
    # Player 3: 2+1 taking part, 1 for a club-night win, 3 for third = 7.
    assert [(r.player, r.total, r.place) for r in rows] == [(1, 18, 1), (2, 12, 2), (3, 7, 3)]


def test_walkover_is_not_a_match_won() -> None:
    rows = season_table(
        [ev(1, EventKind.TOURNAMENT, {1, 2}, W(1, 2, walkover=True), p1=1, p2=2)], RULES
    )
    assert (rows[0].matches_won, rows[0].match_points, rows[0].placing_points) == (0, 0, 10)


def test_ties_wins_then_head_to_head_then_shared() -> None:
    # Club nights: 1 point for taking part, 1 per match won.
    night = EventKind.CLUB_NIGHT
    events = [
        ev(1, night, {1, 2, 3, 4}, W(1, 2), W(2, 3)),
        ev(2, night, {1, 2, 3, 4}, W(1, 3), W(2, 4)),
        ev(3, night, {5, 6}),
    ]
    rows = season_table(events, RULES)
    # 1 and 2: 2 nights + 2 wins = 4 each; 1 beat 2, so head-to-head puts 1 first.
    # 3 and 4: 2 nights, no wins, never met: they share third place. 5 and 6 share fifth.
    assert [
        (r.player, r.total, r.matches_won, r.head_to_head, r.place, r.shared) for r in rows
    ] == [
        (1, 4, 2, 1, 1, False),
        (2, 4, 2, 0, 2, False),
        (3, 2, 0, 0, 3, True),
        (4, 2, 0, 0, 3, True),
        (5, 1, 0, 0, 5, True),
        (6, 1, 0, 0, 5, True),
    ]


def test_head_to_head_counts_only_the_tied_group() -> None:
    night = EventKind.CLUB_NIGHT
    # 1, 2 and 3 each win once; 3's win is over 4 (not tied with them), so 3 ranks last of
    # the three on head-to-head; 1 and 2 beat each other once each and share first place.
    events = [ev(1, night, {1, 2, 3, 4}, W(1, 2), W(2, 1), W(3, 4))]
    rows = season_table(events, RULES)
    assert [(r.player, r.head_to_head, r.place) for r in rows] == [
        (1, 1, 1), (2, 1, 1), (3, 0, 3), (4, None, 4),
    ]  # fmt: skip


def test_fewer_wins_ranks_lower_on_equal_points() -> None:
    rules = SeasonRules(tournament=PointsScheme(match_won=1, placings={1: 2}))
    # 1: placing 1 (2 points) and no win; 2: two wins (2 points): 2 ranks first.
    events = [
        ev(1, EventKind.TOURNAMENT, {1, 3}, p1=1),
        ev(2, EventKind.TOURNAMENT, {2, 3}, W(2, 3), W(2, 3)),
    ]
    rows = season_table(events, rules)
    assert [(r.player, r.total) for r in rows][:2] == [(2, 2), (1, 2)]


@pytest.mark.parametrize(
    "make",
    [
        lambda: PointsScheme(taking_part=-1),
        lambda: PointsScheme(placings={0: 5}),
        lambda: ev(1, EventKind.TOURNAMENT, {1}, p2=1),
        lambda: ev(1, EventKind.TOURNAMENT, {1, 2}, W(1, 3)),
        lambda: ev(1, EventKind.TOURNAMENT, {1}, W(1, 1)),
        lambda: season_table(
            [ev(1, EventKind.CLUB_NIGHT, {1}), ev(1, EventKind.CLUB_NIGHT, {1})], RULES
        ),
    ],
)
def test_refused(make: object) -> None:
    with pytest.raises(RatingValueError):
        make()  # type: ignore[operator]
