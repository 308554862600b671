"""The ledger (ratings.ledger): order, walkovers, early decision, and rebuild = incremental."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.errors import NeedsRebuildError, RatingValueError
from ratings.ledger import (
    Book,
    FinishedMatch,
    HistoryEntry,
    Ledger,
    OrderKey,
    PlayerState,
    rated_length,
    rebuild,
)

T0 = datetime(2025, 9, 1, 18, 0, tzinfo=UTC)


def m(
    id: int,
    a: int,
    b: int,
    *,
    winner: int | None = None,
    n: int = 1,
    game: str = "brade",
    minutes: int | None = None,
    **extra: object,
) -> FinishedMatch:
    return FinishedMatch(
        id=id,
        game=game,
        player_a=a,
        player_b=b,
        winner=a if winner is None else winner,
        length=n,
        ended_at=T0 + timedelta(minutes=id if minutes is None else minutes),
        **extra,  # type: ignore[arg-type]
    )


class TestOneMatch:
    def test_entries(self) -> None:
        ledger = Ledger()
        a, b = ledger.apply(m(1, 10, 20, winner=20))
        assert a == HistoryEntry(
            match_id=1,
            player=10,
            opponent=20,
            won=False,
            before=Decimal("1500.00"),
            after=Decimal("1490.00"),
            change=Decimal("-10.00"),
            experience=0,
            length=1,
            ended_at=T0 + timedelta(minutes=1),
        )
        assert (b.player, b.won, b.change, b.after) == (
            20,
            True,
            Decimal("10.00"),
            Decimal("1510.00"),
        )
        assert ledger.state("brade", 20) == PlayerState(Decimal("1510.00"), 1)
        assert ledger.history("brade", 10) == (a,)

    def test_second_match_uses_new_ratings_and_experience(self) -> None:
        ledger = Ledger()
        ledger.apply(m(1, 10, 20, n=5))  # 10 wins: K 5, √5, P ½ → ±22.36
        assert ledger.rating("brade", 10) == Decimal("1522.36")
        winner, loser = ledger.apply(m(2, 10, 30, n=1))
        # 10 has experience 5 (K 4.95), D = 22.36: P_upset = 1/(10^(22.36/2000)+1) = 0.493564;
        # 10 gains 4·4.95·0.493564 = 9.7726, 30 (new, K 5) loses 9.8713.
        assert (winner.change, loser.change) == (Decimal("9.77"), Decimal("-9.87"))
        assert (winner.experience, loser.experience) == (5, 0)
        assert ledger.state("brade", 10).experience == 6

    def test_negative_zero_never_shown(self) -> None:
        # D = 1800, n = 25, K 1: the loser loses 4·5·10^-4.5 = 0.0006 → 0.00.
        strong, weak = PlayerState(Decimal("3300"), 400), PlayerState(Decimal("1500"), 400)
        ledger = Ledger(imported={"brade": {1: strong, 2: weak}})
        _, loser = ledger.apply(m(1, 1, 2, n=25))
        assert str(loser.change) == "0.00"


class TestWalkover:
    def test_not_rated(self) -> None:
        ledger = Ledger()
        assert ledger.apply(m(1, 10, 20, walkover=True)) == ()
        assert ledger.state("brade", 10) == PlayerState()
        assert ledger.history("brade", 10) == ()

    def test_late_walkover_needs_no_rebuild(self) -> None:
        ledger = Ledger()
        ledger.apply(m(5, 10, 20))
        assert ledger.apply(m(1, 10, 30, walkover=True)) == ()


class TestEarlyDecision:
    def test_rated_with_scheduled_length(self) -> None:
        full = Ledger().apply(m(1, 10, 20, n=5, games_played=5))
        early = Ledger().apply(m(1, 10, 20, n=5, decided_early=True, games_played=3))
        shorter = Ledger().apply(m(1, 10, 20, n=3, games_played=3))
        assert early == full
        assert early != shorter
        assert rated_length(m(1, 10, 20, n=5, decided_early=True, games_played=3)) == 5

    def test_experience_counts_scheduled_length(self) -> None:
        ledger = Ledger()
        ledger.apply(m(1, 10, 20, n=7, decided_early=True, games_played=4))
        assert ledger.state("brade", 10).experience == 7

    def test_resigned_games_do_not_raise_the_stakes(self) -> None:
        # S1: two resigned games made it 7 games in a best of 5; rated as 5.
        assert Ledger().apply(m(1, 10, 20, n=5, games_played=7)) == Ledger().apply(
            m(1, 10, 20, n=5)
        )


class TestOrder:
    def test_out_of_order_needs_rebuild_and_changes_nothing(self) -> None:
        ledger = Ledger()
        ledger.apply(m(2, 10, 20))
        before = (ledger.rating_list("brade"), ledger.history("brade", 10))
        with pytest.raises(NeedsRebuildError) as caught:
            ledger.apply(m(1, 10, 30))
        assert (caught.value.match_id, caught.value.game) == (1, "brade")
        assert (ledger.rating_list("brade"), ledger.history("brade", 10)) == before

    def test_already_rated_needs_rebuild(self) -> None:
        ledger = Ledger()
        ledger.apply(m(1, 10, 20))
        with pytest.raises(NeedsRebuildError, match="already rated"):
            ledger.apply(m(1, 10, 20, winner=20))

    def test_already_rated_in_a_restored_book(self) -> None:
        match = m(1, 10, 20)
        book = Book("brade", last=match.order_key)
        with pytest.raises(NeedsRebuildError):
            book.apply(match)

    def test_same_end_time_by_id(self) -> None:
        ledger = Ledger()
        ledger.apply(m(3, 10, 20, minutes=0))
        ledger.apply(m(4, 10, 20, minutes=0))
        with pytest.raises(NeedsRebuildError):
            ledger.apply(m(2, 10, 20, minutes=0))
        one = rebuild([m(4, 10, 20, minutes=0), m(3, 10, 20, minutes=0)])
        assert [e.match_id for e in one.history("brade", 10)] == [3, 4]

    def test_games_are_separate(self) -> None:
        ledger = Ledger()
        ledger.apply(m(5, 10, 20, game="backgammon", n=7))
        ledger.apply(m(1, 10, 20))  # earlier, but another game: no rebuild
        assert ledger.rating("brade", 10) == Decimal("1510.00")
        assert ledger.state("backgammon", 10).experience == 7
        assert ledger.state("brade", 10).experience == 1

    def test_rebuild_refuses_a_match_twice(self) -> None:
        with pytest.raises(RatingValueError):
            rebuild([m(1, 10, 20), m(1, 10, 20)])


class TestImported:
    def test_start_from_imported_rating(self) -> None:
        ledger = Ledger(imported={"backgammon": {10: PlayerState(Decimal("1700.5"), 450)}})
        winner, _ = ledger.apply(m(1, 10, 20, game="backgammon", n=1))
        assert winner.before == Decimal("1700.50") and winner.experience == 450
        assert ledger.rating("brade", 10) == Decimal("1500.00")

    def test_refused(self) -> None:
        with pytest.raises(RatingValueError):
            Ledger(imported={"kungabrade": {}})
        with pytest.raises(RatingValueError):
            PlayerState(Decimal("1500.001"))
        with pytest.raises(RatingValueError):
            PlayerState(Decimal("1500"), -1)


class TestMatchChecks:
    @pytest.mark.parametrize(
        "changes",
        [
            {"game": "kungabrade"},
            {"player_b": 10},
            {"winner": 99},
            {"length": 0},
            {"ended_at": datetime(2025, 9, 1, 18, 0)},
            {"game": "backgammon", "decided_early": True},
            {"game": "backgammon", "games_played": 3},
            {"games_played": -1},
        ],
    )
    def test_refused(self, changes: dict[str, object]) -> None:
        with pytest.raises(RatingValueError):
            replace(m(1, 10, 20), **changes)  # type: ignore[arg-type]


def test_rating_list_order() -> None:
    ledger = rebuild([m(1, 10, 20), m(2, 30, 40), m(3, 50, 60, winner=60)])
    assert [p for p, _ in ledger.rating_list("brade")] == [10, 30, 60, 20, 40, 50]


# --- rebuild = incremental -----------------------------------------------------------------


class StoredRatings:
    """What a database would hold between two requests: per game, each player's rating as
    text with two decimals and experience, the last order key, and the history rows. Every
    incremental update starts from these values only, as the Django side will."""

    def __init__(self) -> None:
        self.states: dict[str, dict[int, tuple[str, int]]] = {}
        self.last: dict[str, OrderKey | None] = {}
        self.rows: dict[str, list[HistoryEntry]] = {}
        self.rebuilds = 0

    def store(self, ledger: Ledger) -> None:
        for (game, _formula), book in ledger.books.items():
            self.states[game] = {
                p: (_column(s.rating), s.experience) for p, s in book.states.items()
            }
            self.last[game] = book.last
            self.rows[game] = [e for h in book.histories.values() for e in h]

    def arrive(self, match: FinishedMatch, arrived: Sequence[FinishedMatch]) -> None:
        game = match.game
        stored = self.states.setdefault(game, {})
        # Like the Django side: read back only the two players' stored values.
        book = Book(
            game,
            states={
                p: PlayerState(Decimal(stored[p][0]), stored[p][1])
                for p in (match.player_a, match.player_b)
                if p in stored
            },
            last=self.last.get(game),
        )
        try:
            entries = book.apply(match)
        except NeedsRebuildError:
            self.rebuilds += 1
            self.store(rebuild(arrived))
            return
        stored.update({p: (_column(s.rating), s.experience) for p, s in book.states.items()})
        self.last[game] = book.last
        self.rows.setdefault(game, []).extend(entries)


def _column(rating: Decimal) -> str:
    """A rating as a DecimalField(decimal_places=2) keeps it."""
    return str(rating.quantize(Decimal("0.01")))


def _row_key(entry: HistoryEntry) -> tuple[datetime, int, int]:
    return (entry.ended_at, entry.match_id, entry.player)


def _snapshot(stored: StoredRatings) -> tuple[object, ...]:
    games = ("brade", "backgammon")
    rows = {g: sorted(stored.rows.get(g, []), key=_row_key) for g in games}
    return (
        {g: stored.states.get(g, {}) for g in games},
        {g: stored.last.get(g) for g in games},
        {
            g: [(*_row_key(e), str(e.before), str(e.after), str(e.change)) for e in rows[g]]
            for g in games
        },
        rows,
    )


def incremental(arrivals: Sequence[FinishedMatch]) -> StoredRatings:
    stored = StoredRatings()
    for i, match in enumerate(arrivals):
        stored.arrive(match, arrivals[: i + 1])
    return stored


def from_rebuild(matches: Sequence[FinishedMatch]) -> StoredRatings:
    stored = StoredRatings()
    stored.store(rebuild(matches))
    return stored


@st.composite
def match_lists(draw: st.DrawFn) -> list[FinishedMatch]:
    count = draw(st.integers(min_value=0, max_value=40))
    players = draw(st.integers(min_value=2, max_value=6))
    matches = []
    for id in range(1, count + 1):
        a = draw(st.integers(0, players - 1))
        b = draw(st.integers(0, players - 2))
        b = b if b < a else b + 1
        game = draw(st.sampled_from(["brade", "backgammon"]))
        n = draw(st.sampled_from([1, 3, 5, 7, 11, 25]))
        early = game == "brade" and draw(st.booleans())
        matches.append(
            FinishedMatch(
                id=id,
                game=game,
                player_a=a,
                player_b=b,
                winner=draw(st.sampled_from([a, b])),
                length=n,
                # Few distinct end times, so ties on ended_at are common.
                ended_at=T0 + timedelta(hours=draw(st.integers(0, 5))),
                walkover=draw(st.integers(0, 9)) == 0,
                decided_early=early,
                games_played=draw(st.integers(1, n)) if early else None,
            )
        )
    return matches


@given(match_lists(), st.randoms(use_true_random=False))
@settings(max_examples=150)
def test_incremental_equals_rebuild_in_any_arrival_order(
    matches: list[FinishedMatch], rnd: random.Random
) -> None:
    arrivals = list(matches)
    rnd.shuffle(arrivals)
    assert _snapshot(incremental(arrivals)) == _snapshot(from_rebuild(matches))


@given(match_lists())
def test_in_order_arrival_never_rebuilds(matches: list[FinishedMatch]) -> None:
    arrivals = sorted(matches, key=lambda match: match.order_key)
    stored = incremental(arrivals)
    assert stored.rebuilds == 0
    assert _snapshot(stored) == _snapshot(from_rebuild(matches))


def test_ten_thousand_random_matches() -> None:
    """The ledger's figure: rebuild equals incremental on 10,000 random matches (200 players,
    both games, walkovers and early decisions, a few arriving late)."""
    rnd = random.Random(15)
    matches = []
    for id in range(1, 10_001):
        a, b = rnd.sample(range(200), 2)
        game = rnd.choice(["brade", "backgammon"])
        n = rnd.choice([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25])
        early = game == "brade" and rnd.random() < 0.3
        matches.append(
            FinishedMatch(
                id=id,
                game=game,
                player_a=a,
                player_b=b,
                winner=rnd.choice([a, b]),
                length=n,
                ended_at=T0 + timedelta(minutes=id // 3),
                walkover=rnd.random() < 0.03,
                decided_early=early,
                games_played=rnd.randint(1, n) if early else None,
            )
        )
    arrivals = sorted(matches, key=lambda match: match.order_key)
    for i in (2000, 5000, 7000):  # three results confirmed 300 matches late
        arrivals.insert(i + 300, arrivals.pop(i))
    stored = incremental(arrivals)
    assert stored.rebuilds >= 1
    assert _snapshot(stored) == _snapshot(from_rebuild(matches))
