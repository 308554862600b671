"""Consolation and double elimination through the real services: the draw with
its rounds, matches and links, random results (games and walkovers) played until the
tournament finishes, and the invariants of each format for every field size 2–32 (and a
few larger); corrections and resets refused or undone as in a knockout."""

from __future__ import annotations

import datetime
import random
from collections import Counter
from typing import Any

import pytest

from core.errors import ConflictError, ValidationError
from matches.models import FINISHED_STATES, Match, MatchState
from matches.round_selectors import tournament_bracket, tournament_placings
from matches.selectors import game_version
from matches.services import game_result_correct, game_result_enter, match_reset, match_walkover
from stages import elimination
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn as knockout_drawn
from tournaments import elimination_draw
from tournaments.models import Round, RoundKind, Tournament, TournamentStatus
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


def drawn(
    n: int,
    format: str,
    *,
    game: str = "brade",
    seeded: int = 0,
    lengths: list[int] | None = None,
    draw_seed: int = 7,
    default_lengths: bool = False,
    **options: Any,
) -> tuple[Tournament, Any, list[Any]]:
    organiser = OrganiserFactory.create()
    tournament = tournament_create(
        by=organiser,
        name=f"{format} {n}",
        start_date=datetime.date(2026, 11, 25),
        game=game,
        format=format,
        **options,
    )
    tournament.referees.add(referee := UserFactory.create())
    players = [PlayerFactory.create(name=f"P{i + 1:03d}") for i in range(n)]
    for i, p in enumerate(players):
        EntryFactory.create(tournament=tournament, player=p, seed=i + 1 if i < seeded else None)
    if lengths is None and not default_lengths:  # 1 game (or point): quick to play
        shape = elimination_draw.bracket_shape(tournament, n)
        lengths = [1] * len(elimination_draw.round_plan(shape))
    tournament_draw(tournament=tournament, by=organiser, lengths=lengths, draw_seed=draw_seed)
    tournament.refresh_from_db()
    tournament.organiser = organiser  # type: ignore[attr-defined]
    return tournament, referee, players


def win(match: Match, player_id: int, referee: Any, game: str = "brade") -> None:
    """Decide a match of length 1 for ``player_id``."""
    side = "W" if match.player1_id == player_id else "B"
    outcome = {"brade": "hemspel", "backgammon": "single", "kungabrade": "castle"}[game]
    game_result_enter(
        match=match,
        number=1,
        result=won(side, outcome, game_type="slagfalt" if game == "kungabrade" else None),
        by=referee,
        starter="W" if game == "brade" else None,
    )


def ready(t: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(tournament=t, state=MatchState.READY).order_by("round__number", "slot")
    )


def play_out(t: Tournament, referee: Any, rng: random.Random, game: str = "brade") -> None:
    """Every ready match decided at random (a walkover now and then) until none is left."""
    for _ in range(10_000):
        matches = ready(t)
        if not matches:
            return
        m = matches[0]
        winner = rng.choice((m.player1, m.player2))
        assert winner is not None
        if rng.random() < 0.15:
            match_walkover(match=m, winner=winner, by=referee, reason="late")
        else:
            win(m, winner.pk, referee, game)
    raise AssertionError("never finished")


def played(t: Tournament) -> list[Match]:
    """Matches played at the board or by walkover (both players there)."""
    return list(
        Match.objects.filter(
            tournament=t, state__in=(MatchState.DECIDED, MatchState.WALKOVER)
        ).select_related("round")
    )


def losses(t: Tournament) -> Counter[int | None]:
    out: Counter[int | None] = Counter()
    for m in played(t):
        out[m.player2_id if m.winner_id == m.player1_id else m.player1_id] += 1
    return out


def finished(t: Tournament) -> None:
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert not Match.objects.filter(tournament=t).exclude(state__in=FINISHED_STATES).exists()


SIZES = [*range(2, 33), 48, 64, 100, 128]


@pytest.mark.parametrize("reset", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_double_elimination_everyone_but_the_champion_leaves_after_two_losses(
    n: int, reset: bool
) -> None:
    t, referee, players = drawn(
        n, "double_elimination", grand_final_reset=reset, seeded=n // 3, draw_seed=n
    )
    kinds = Counter(Round.objects.filter(tournament=t).values_list("kind", flat=True))
    assert kinds[RoundKind.KNOCKOUT] == elimination.bracket_size(n).bit_length() - 1
    assert kinds[RoundKind.GRAND_FINAL] == (2 if reset else 1)
    assert Match.objects.filter(tournament=t).exclude(state=MatchState.BYE).count() == (
        2 * n - 1 if reset else 2 * n - 2
    )
    play_out(t, referee, random.Random(n))
    finished(t)
    lost = losses(t)
    counts = sorted(lost[p.pk] for p in players)
    gf2 = Match.objects.filter(tournament=t, code="GF2").first()
    reset_played = gf2 is not None and gf2.state != MatchState.NOT_NEEDED
    assert len(played(t)) == 2 * n - 2 + reset_played
    if reset:
        assert counts == [int(reset_played), *[2] * (n - 1)]
        assert gf2 is not None and gf2.state in (
            MatchState.NOT_NEEDED,
            MatchState.DECIDED,
            MatchState.WALKOVER,
        )
    else:
        assert counts in ([0, *[2] * (n - 1)], [1, 1, *[2] * (n - 2)])
    placings = tournament_placings(tournament=t)
    assert sorted(p.player.pk for p in placings) == sorted(p.pk for p in players)
    champion = next(p for p in placings if p.first == 1)
    assert lost[champion.player.pk] <= 1
    assert [p.first for p in placings if p.first <= 2] == [1, 2]
    assert max(p.last for p in placings) == n


@pytest.mark.parametrize("progressive", [False, True])
@pytest.mark.parametrize("n", SIZES)
def test_consolation_gives_every_entrant_at_least_two_matches(n: int, progressive: bool) -> None:
    t, referee, players = drawn(
        n, "consolation", progressive_consolation=progressive, seeded=n // 2, draw_seed=n
    )
    play_out(t, referee, random.Random(n))
    finished(t)
    matches = played(t)
    count: Counter[int | None] = Counter()
    for m in matches:
        count.update((m.player1_id, m.player2_id))
    main = [m for m in matches if m.round.kind == RoundKind.KNOCKOUT]
    assert len(main) == n - 1
    if n >= 4:
        assert min(count[p.pk] for p in players) >= 2
    assert max(losses(t).values()) <= 2
    placings = tournament_placings(tournament=t)
    assert sorted(p.player.pk for p in placings) == sorted(p.pk for p in players)
    assert [p.first for p in placings][:2] == [1, 2]
    if Match.objects.filter(tournament=t, round__kind=RoundKind.CONSOLATION).exists():
        (consolation,) = tournament_bracket(tournament=t).sections
        assert consolation.winner is not None


@pytest.mark.parametrize("game", ["backgammon", "kungabrade"])
@pytest.mark.parametrize("format", ["consolation", "double_elimination"])
def test_every_game_plays_the_formats(game: str, format: str) -> None:
    t, referee, _players = drawn(7, format, game=game)
    assert Round.objects.filter(tournament=t).first().length_unit == (  # type: ignore[union-attr]
        "points" if game == "backgammon" else "games"
    )
    play_out(t, referee, random.Random(3), game)
    finished(t)


def test_the_draw_stores_links_made_from_the_shape() -> None:
    t, _referee, players = drawn(6, "double_elimination", seeded=6, default_lengths=True)
    rows = {m.code: m for m in Match.objects.filter(tournament=t)}
    shape = elimination.double_elimination(6)
    for m in shape.matches:
        for source, upper in ((m.top, True), (m.bottom, False)):
            if m.if_needed:
                continue
            if source.kind == elimination.WINNER:
                feeder = rows[source.match]
                assert (feeder.winner_to_id, feeder.winner_to_upper) == (rows[m.code].pk, upper)
            elif source.kind == elimination.LOSER:
                feeder = rows[source.match]
                assert (feeder.loser_to_id, feeder.loser_to_upper) == (rows[m.code].pk, upper)
    # Round 1 shows the two byes of seeds 1 and 2, which lead to their round-2 matches.
    byes = [rows[c] for c in ("W1.1", "W1.3")]
    assert [b.state for b in byes] == [MatchState.BYE, MatchState.BYE]
    assert [b.player1 for b in byes] == [players[0], players[1]]
    assert rows["W1.1"].winner_to_id == rows["W2.1"].pk
    assert rows["W2.1"].player1 == players[0]
    assert rows["GF2"].if_needed
    # Defaults: the winners' bracket as a knockout, losers' rounds 3, the finals 7.
    lengths = {(r.kind, r.rounds_after): r.match_length for r in Round.objects.filter(tournament=t)}
    assert lengths[(RoundKind.KNOCKOUT, 0)] == 7 and lengths[(RoundKind.KNOCKOUT, 1)] == 5
    assert lengths[(RoundKind.LOSERS, 0)] == 3 and lengths[(RoundKind.GRAND_FINAL, 0)] == 7


def test_lengths_must_be_one_per_round() -> None:
    with pytest.raises(ValidationError, match="give"):
        drawn(4, "double_elimination", lengths=[1, 1])


def _decide(t: Tournament, code: str, winner: int, referee: Any) -> Match:
    m = Match.objects.get(tournament=t, code=code)
    player = (m.player1, m.player2)[winner]
    assert player is not None
    win(m, player.pk, referee)
    m.refresh_from_db()
    return m


def test_the_reset_is_marked_not_needed_when_the_winners_bracket_player_wins() -> None:
    t, referee, players = drawn(2, "double_elimination", seeded=2)
    _decide(t, "W1.1", 0, referee)
    gf = Match.objects.get(tournament=t, code="GF")
    assert (gf.player1, gf.player2, gf.state) == (players[0], players[1], MatchState.READY)
    _decide(t, "GF", 0, referee)
    gf2 = Match.objects.get(tournament=t, code="GF2")
    assert gf2.state == MatchState.NOT_NEEDED
    finished(t)
    assert [(p.player, p.first) for p in tournament_placings(tournament=t)] == [
        (players[0], 1),
        (players[1], 2),
    ]
    # Correcting the grand final so the other player wins: the reset is played after all.
    gf = Match.objects.get(tournament=t, code="GF")
    game = gf.games.get()
    game_result_correct(
        game=game,
        expected_version=game_version(game=game),
        result=won("B", "hemspel"),
        by=referee,
    )
    gf2.refresh_from_db()
    assert (gf2.player1, gf2.player2, gf2.state) == (players[0], players[1], MatchState.READY)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    _decide(t, "GF2", 1, referee)
    finished(t)
    assert tournament_placings(tournament=t)[0].player == players[1]


def test_a_reset_not_needed_cannot_be_reset() -> None:
    t, referee, _players = drawn(2, "double_elimination", seeded=2)
    _decide(t, "W1.1", 0, referee)
    _decide(t, "GF", 0, referee)
    gf2 = Match.objects.get(tournament=t, code="GF2")
    with pytest.raises(ConflictError, match="not needed"):
        match_reset(match=gf2, by=t.organiser, reason="test")  # type: ignore[attr-defined]


def test_a_correction_is_refused_once_the_losers_match_it_fed_has_started() -> None:
    t, referee, players = drawn(4, "double_elimination", seeded=4)
    w11 = _decide(t, "W1.1", 0, referee)
    _decide(t, "W1.2", 0, referee)
    l11 = Match.objects.get(tournament=t, code="L1.1")
    assert {l11.player1_id, l11.player2_id} == {players[3].pk, players[2].pk}
    _decide(t, "L1.1", 0, referee)
    game = w11.games.get()
    with pytest.raises(ConflictError, match="has started"):
        game_result_correct(
            game=game,
            expected_version=game_version(game=game),
            result=won("B", "hemspel"),
            by=referee,
        )
    # Reset the losers' match first: then the correction moves both players.
    match_reset(match=l11, by=t.organiser, reason="wrong winner upstream")  # type: ignore[attr-defined]
    game_result_correct(
        game=game,
        expected_version=game_version(game=game),
        result=won("B", "hemspel"),
        by=referee,
    )
    w21 = Match.objects.get(tournament=t, code="W2.1")
    l11.refresh_from_db()
    assert players[3].pk in (w21.player1_id, w21.player2_id)
    assert players[0].pk in (l11.player1_id, l11.player2_id)


def test_simple_consolation_bye_goes_on_and_is_taken_back_when_the_result_changes() -> None:
    # Six players, seeds 1 and 2 have byes; M2.1 is seed 1's first match.
    t, referee, players = drawn(6, "consolation", seeded=6)
    m12 = Match.objects.get(tournament=t, code="M1.2")
    _decide(t, "M1.2", 0, referee)  # seed 4 beats seed 5
    m21 = Match.objects.get(tournament=t, code="M2.1")
    assert m21.player1 == players[0]
    m12.refresh_from_db()
    loser_m12 = m12.loser
    # Seed 1 wins: the loser of M2.1 (seed 4) has played before, so C1.1 is a bye.
    m21 = _decide(t, "M2.1", 0, referee)
    c11 = Match.objects.get(tournament=t, code="C1.1")
    assert (c11.state, c11.player1, c11.winner) == (MatchState.BYE, loser_m12, loser_m12)
    c21 = Match.objects.get(tournament=t, code="C2.1")
    assert loser_m12 is not None and loser_m12.pk in (c21.player1_id, c21.player2_id)
    # Correcting M2.1 so seed 1 loses its first match: the bye is taken back, seed 1 enters.
    game = m21.games.get()
    game_result_correct(
        game=game,
        expected_version=game_version(game=game),
        result=won("B", "hemspel"),
        by=referee,
    )
    c11.refresh_from_db()
    assert c11.state == MatchState.READY
    assert {c11.player1_id, c11.player2_id} == {players[0].pk, loser_m12.pk}
    c21.refresh_from_db()
    assert loser_m12.pk not in (c21.player1_id, c21.player2_id)


def test_a_withdrawn_player_gives_walkovers_in_the_losers_bracket_too() -> None:
    from tournaments.entries import entry_withdraw
    from tournaments.models import Entry

    t, referee, players = drawn(4, "double_elimination", seeded=4)
    entry = Entry.objects.get(tournament=t, player=players[3])
    entry_withdraw(entry=entry, by=t.organiser, reason="ill")  # type: ignore[attr-defined]
    w11 = Match.objects.get(tournament=t, code="W1.1")
    assert w11.state == MatchState.WALKOVER and w11.winner == players[0]
    _decide(t, "W1.2", 0, referee)
    l11 = Match.objects.get(tournament=t, code="L1.1")
    assert l11.state == MatchState.WALKOVER and l11.winner_id != players[3].pk


def test_the_bracket_selector_gives_the_other_brackets() -> None:
    t, _referee, _players = drawn(8, "double_elimination")
    data = tournament_bracket(tournament=t)
    assert [br.round.kind for br in data.rounds] == [RoundKind.KNOCKOUT] * 3
    assert [s.key for s in data.sections] == ["losers", "final"]
    losers = data.sections[0]
    assert [len(col.slots) for col in losers.columns] == [2, 2, 1, 1]


@pytest.mark.parametrize("n", range(2, 129))
def test_the_layout_holds_every_match_of_the_shape(n: int) -> None:
    size = elimination.bracket_size(n)
    for build in (
        elimination.double_elimination,
        elimination.consolation,
        lambda players: elimination.consolation(players, progressive=True),
    ):
        shape, full = build(n), build(size)
        assert shape.places == full.places  # the same layout for every field of its size
        for m in shape.matches:
            assert m.number <= shape.places[m.bracket][m.round - 1], (m.code, shape.places)
        assert len(full.matches) == sum(sum(widths) for widths in full.places.values())


def test_round_names_say_the_bracket_and_the_round_in_it() -> None:
    from django.utils import translation

    t, _referee, _players = drawn(8, "double_elimination")
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    with translation.override("en"):
        names = [elimination_draw.round_name(r) for r in rounds if r.kind != RoundKind.KNOCKOUT]
    assert names == [
        "Losers' bracket, round 1",
        "Losers' bracket, round 2",
        "Losers' bracket, round 3",
        "Losers' bracket, final",
        "Grand final",
        "Grand final, replay",
    ]
    with translation.override("sv"):
        assert elimination_draw.round_name(rounds[-1]) == "Omspel av finalen"
        assert elimination_draw.round_name(rounds[3]) == "Förlorarträd, omgång 1"
    # Round.name says the same everywhere (match pages, lists), without a query: the
    # round's column in its bracket is stored at the draw.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # The winners' bracket's last round is the winners' final, not a second "Final"
    # beside the grand final: it reads the tournament's format (loaded with the rounds).
    rounds = list(
        Round.objects.filter(tournament=t).select_related("tournament").order_by("number")
    )
    with translation.override("en"), CaptureQueriesContext(connection) as queries:
        assert [r.name for r in rounds if r.kind != RoundKind.KNOCKOUT] == names
        assert [r.name for r in rounds if r.kind == RoundKind.KNOCKOUT][-1] == "Winners' final"
    assert len(queries.captured_queries) == 0
    with translation.override("sv"):
        assert [r.name for r in rounds if r.kind == RoundKind.KNOCKOUT][-1] == "Vinnarfinal"


def links_hold(t: Tournament) -> None:
    """Every match holds exactly the players its finished feeders send it (the winner along
    ``winner_to``; the loser along ``loser_to`` unless it had played before a *first match
    only* link; the grand final's players into a needed reset)."""
    matches = {m.pk: m for m in Match.objects.filter(tournament=t).select_related("round")}
    expected: dict[int, set[int]] = {pk: set() for pk in matches}
    played_before: dict[int, list[Match]] = {}
    for m in matches.values():
        if m.state in (MatchState.DECIDED, MatchState.WALKOVER):
            for p in (m.player1_id, m.player2_id):
                assert p is not None
                played_before.setdefault(p, []).append(m)
    for m in matches.values():
        if m.state not in (
            MatchState.DECIDED,
            MatchState.WALKOVER,
            MatchState.BYE,
        ):
            continue
        assert m.winner_id is not None
        if m.winner_to_id is not None:
            expected[m.winner_to_id].add(m.winner_id)
        if m.loser_to_id is not None and m.state != MatchState.BYE:
            loser = m.player2_id if m.winner_id == m.player1_id else m.player1_id
            assert loser is not None
            earlier = [
                x for x in played_before[loser] if x.round.number < m.round.number and x is not m
            ]
            if not (m.loser_first_match_only and earlier):
                expected[m.loser_to_id].add(loser)
        if m.code == "GF" and m.winner_id == m.player2_id:
            reset = next((x for x in matches.values() if x.if_needed), None)
            if reset is not None:
                expected[reset.pk] |= {m.player1_id, m.player2_id}  # type: ignore[arg-type]
    for pk, m in matches.items():
        if m.round.number == 1:
            continue  # round 1: placed by the draw
        actual = {p for p in (m.player1_id, m.player2_id) if p is not None}
        assert actual == expected[pk], (m.code, m.state, actual, expected[pk])


@pytest.mark.parametrize(
    ("format", "n", "options"),
    [
        ("double_elimination", 5, {}),
        ("double_elimination", 12, {"grand_final_reset": False}),
        ("double_elimination", 2, {}),
        ("consolation", 6, {}),
        ("consolation", 13, {}),
        ("consolation", 11, {"progressive_consolation": True}),
    ],
)
@pytest.mark.parametrize("seed", range(4))
def test_random_corrections_and_resets_keep_every_link(
    format: str, n: int, options: dict[str, Any], seed: int
) -> None:
    """Results entered, corrected and reset at random (a correction or reset refused while
    what the match fed has started): the players always stand where the links say, and
    the tournament still finishes with the format's invariants."""
    t, referee, players = drawn(n, format, seeded=n, draw_seed=seed, **options)
    organiser = t.organiser  # type: ignore[attr-defined]
    rng = random.Random(seed)
    refused = changed = 0
    for _ in range(400):
        decided = list(Match.objects.filter(tournament=t, state=MatchState.DECIDED).order_by("pk"))
        if decided and (changed + refused == 0 or rng.random() < 0.3):
            m = rng.choice(decided)
            try:
                if rng.random() < 0.5:
                    game = m.games.get(voided_at__isnull=True)
                    game_result_correct(
                        game=game,
                        expected_version=game_version(game=game),
                        result=won("B" if game.winner == "W" else "W", "hemspel"),
                        by=referee,
                    )
                else:
                    match_reset(match=m, by=organiser, reason="test")
                changed += 1
            except ConflictError:
                refused += 1
            links_hold(t)
            continue
        matches = ready(t)
        if not matches:
            break
        m = rng.choice(matches)
        winner = rng.choice((m.player1, m.player2))
        assert winner is not None
        win(m, winner.pk, referee)
        links_hold(t)
    play_out(t, referee, rng)
    links_hold(t)
    finished(t)
    assert changed + refused > 0
    if format == "double_elimination":
        counts = sorted(losses(t)[p.pk] for p in players)
        assert counts.count(2) >= n - 2 and max(counts) == 2
    placings = tournament_placings(tournament=t)
    assert sorted(p.player.pk for p in placings) == sorted(p.pk for p in players)


@pytest.mark.parametrize("fmt", ["knockout", "consolation"])
@pytest.mark.parametrize("n", [5, 6, 9, 12, 13, 24])
def test_the_first_rounds_losers_share_places_up_to_the_number_of_players(n: int, fmt: str) -> None:
    """Byes leave round 1 short of players: 12 players' first-round losers are 9–12, not
    9–16 (every later round is full, so its range is whole)."""
    if fmt == "knockout":
        rounds = elimination.bracket_size(n).bit_length() - 1
        s = knockout_drawn(n, seeded=n // 2, draw_seed=n, lengths=[1] * rounds)
        t, referee = s.tournament, s.referee
    else:
        t, referee, _players = drawn(n, fmt, seeded=n // 2, draw_seed=n)
    play_out(t, referee, random.Random(n))
    finished(t)
    placings = tournament_placings(tournament=t)
    assert max(p.last for p in placings) == n
    half = elimination.bracket_size(n) // 2
    if fmt == "knockout" and n > half:
        first_round = [p for p in placings if p.first == half + 1]
        assert len(first_round) == n - half
        assert {(p.first, p.last) for p in first_round} == {(half + 1, n)}
