"""A Monrad is paired from the standings its players see, in each of the three games.

The standings are read with the selector the tournament page and the API read them with
(``matches.swiss_standings.swiss_standings``): match points, the game's tiebreak chain,
then the pairing number (lots only after it). The next round pairs them top-down in that
order — each player with the next one below not met, the bottom re-paired when it would be
forced into a rematch — and each pair's reason names the two places it was made from.
The expected pairing is worked out here from the standings' lines alone (a depth-first
search written for this test), not by the code under test."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from typing import Any

import pytest
from django.utils import translation

from matches import swiss_text
from matches.models import EventKind, Match, MatchEvent, MatchState
from matches.services import game_result_enter, match_walkover
from matches.swiss_progression import swiss_history, swiss_round_pair, swiss_round_publish
from matches.swiss_standings import swiss_standings
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.results import won
from tests.tournaments.test_swiss import current
from tournaments.models import Entry, Tournament
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db

GAMES = ("brade", "backgammon", "kungabrade")
# Each game's ways of winning a game: they score differently, so the tiebreaks vary.
OUTCOMES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "brade": [("hemspel", {}), ("jan", {}), ("sprangjan", {})],
    "backgammon": [("single", {}), ("gammon", {}), ("backgammon", {})],
    "kungabrade": [
        ("castle", {"game_type": "slagfalt"}),
        ("destroyed", {"game_type": "erovring"}),
    ],
}

Pairing = frozenset[frozenset[int | None]]


def monrad(n: int, *, game: str, rounds: int, seed: int = 7) -> tuple[Tournament, Any]:
    """A started Monrad of ``n`` players (P1 the highest rated: pairing number 1) whose
    matches are one game (one point in backgammon) long."""
    organiser = OrganiserFactory.create()
    tournament = tournament_create(
        by=organiser,
        name="Monradkvällen",
        start_date=datetime.date(2026, 11, 29),
        game=game,
        format="monrad",
        swiss_rounds=rounds,
    )
    for i in range(n):
        player = PlayerFactory.create(name=f"P{i + 1}", rating=2000 - i)
        EntryFactory.create(tournament=tournament, player=player)
    tournament_draw(tournament=tournament, by=organiser, lengths=[1] * rounds, draw_seed=seed)
    tournament.refresh_from_db()
    return tournament, organiser


def win_game(match: Match, winner: int, by: Any, game: str, outcome: int = 0) -> None:
    """``winner`` wins the match's one game, by the game's ``outcome``-th way of winning."""
    code, extra = OUTCOMES[game][outcome % len(OUTCOMES[game])]
    game_result_enter(
        match=match,
        number=1,
        result=won("W" if match.player1_id == winner else "B", code, **extra),
        by=by,
        starter="W" if game == "brade" else None,
    )


def pair_and_publish(t: Tournament, by: Any) -> int:
    rnd = swiss_round_pair(tournament=t, by=by)
    swiss_round_publish(round=rnd, by=by)
    return rnd.number


def pairing(t: Tournament, number: int) -> Pairing:
    return frozenset(frozenset((m.player1_id, m.player2_id)) for m in current(t, number))


def reasons(t: Tournament, number: int) -> dict[int, Any]:
    """Match id → the reason stored with its pairing."""
    events = MatchEvent.objects.filter(
        match__tournament=t, match__round__number=number, kind=EventKind.SWISS_PAIRED
    )
    return {e.match_id: swiss_text.msg_from_dict(e.data["reason"]) for e in events}


def top_down(order: Sequence[int], met: dict[int, set[int]], had_bye: set[int]) -> Pairing | None:
    """The Monrad rule on ``order`` (best first): the bye to the lowest-ranked player
    without one that leaves the rest pairable (then to one who had a bye), the rest paired
    from the top, each with the first player below not met that lets the players below be
    paired too. None when every pairing has a rematch."""

    def search(left: list[int]) -> list[frozenset[int | None]] | None:
        if not left:
            return []
        top, rest = left[0], left[1:]
        for partner in rest:
            if partner in met.get(top, set()):
                continue
            below = search([p for p in rest if p != partner])
            if below is not None:
                return [frozenset((top, partner)), *below]
        return None

    candidates: list[int | None] = [None]
    if len(order) % 2:
        lowest_first = list(reversed(order))
        candidates = [p for p in lowest_first if p not in had_bye]
        candidates += [p for p in lowest_first if p in had_bye]
    for bye in candidates:
        pairs = search([p for p in order if p != bye])
        if pairs is not None:
            return frozenset(pairs + ([frozenset((bye, None))] if bye is not None else []))
    return None


@pytest.mark.parametrize("game", GAMES)
def test_ten_players_level_on_the_chain_are_paired_one_two_three_four(game: str) -> None:
    # The field: round 1 (1–2, 3–4, …) is won at the board by every first-named
    # player in the same way, so ranks 1–5 stand on one point, 6–10 on none, level on
    # every tiebreak within each score; no two neighbours of the standings have met.
    t, organiser = monrad(10, game=game, rounds=4)
    pair_and_publish(t, organiser)
    for m in current(t, 1):
        assert m.player1_id is not None
        win_game(m, m.player1_id, organiser, game)
    table = swiss_standings(tournament=t)
    ranked = [line.player.pk for line in table.lines]
    place = {line.player.pk: line.place for line in table.lines}
    points = {line.player.pk: line.values[0] for line in table.lines}
    assert [line.values[0] for line in table.lines] == [1] * 5 + [0] * 5
    assert [line.place for line in table.lines] == list(range(1, 11))
    history = swiss_history(Match.objects.filter(tournament=t))
    for k in range(0, 10, 2):
        assert ranked[k + 1] not in history.opponents[ranked[k]]

    assert pair_and_publish(t, organiser) == 2

    assert pairing(t, 2) == frozenset(
        frozenset((ranked[k], ranked[k + 1])) for k in range(0, 10, 2)
    )
    why = reasons(t, 2)
    for m in current(t, 2):
        reason = why[m.pk]
        assert m.player1_id is not None and m.player2_id is not None  # an even field
        a, b = place[m.player1_id], place[m.player2_id]
        assert (reason.params["a"], reason.params["b"]) == (a, b)
        high, low = points[m.player1_id], points[m.player2_id]
        said = f"equal scores ({high})" if high == low else f"floated down from {high} to {low}"
        assert reason.code == ("monrad.equal" if high == low else "monrad.float")
        assert swiss_text.render(reason) == f"places {a} and {b} in the standings: {said}"
        with translation.override("sv"):
            assert swiss_text.render(reason).startswith(f"plats {a} och {b} i tabellen")
    # Within each score the standings show the pairing number's order, and say so.
    lines = table.lines
    assert lines[0].why is not None and lines[0].why.code == "standing.pairing_number"


@pytest.mark.parametrize("game", GAMES)
def test_every_round_follows_the_standings_order_over_random_results(game: str) -> None:
    rng = random.Random(f"monrad-order-{game}")
    checked = 0
    for n in (9, 10, 12):
        t, organiser = monrad(n, game=game, rounds=4, seed=rng.randrange(10**6))
        for number in range(1, 5):
            table = swiss_standings(tournament=t)  # what the players see before the round
            order = [line.player.pk for line in table.lines]
            place = {line.player.pk: line.place for line in table.lines}
            history = swiss_history(Match.objects.filter(tournament=t))
            expected = top_down(order, history.opponents, history.had_bye)

            assert pair_and_publish(t, organiser) == number

            if expected is not None:
                assert pairing(t, number) == expected, (game, n, number)
                checked += 1
            why = reasons(t, number)
            for m in current(t, number):
                if m.player1_id is None or m.player2_id is None:
                    continue
                first, second = place[m.player1_id], place[m.player2_id]
                assert first < second  # the higher-placed player is named first
                assert (why[m.pk].params["a"], why[m.pk].params["b"]) == (first, second)
            for m in current(t, number):
                if m.state != MatchState.READY:
                    continue
                assert m.player1_id is not None and m.player2_id is not None
                winner = rng.choice((m.player1_id, m.player2_id))
                if rng.random() < 0.15:
                    entry = Entry.objects.get(tournament=t, player_id=winner)
                    match_walkover(match=m, winner=entry.player, by=organiser, reason="late")
                else:
                    win_game(m, winner, organiser, game, rng.randrange(3))
    assert checked >= 10
