"""Swiss tournaments through the services: creation, the start, check-in
and withdrawal, pairing from the history (no avoidable rematch, the bye to the lowest
without one), swaps with warnings and audit, the publish gate, the finish, the standings
with their tiebreaks and reasons, and the same number of queries at 16 and 256 players."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from matches.models import EntryEvent, EventKind, Match, MatchEvent, MatchState
from matches.round_selectors import tournament_placings
from matches.selectors import match_list
from matches.services import game_result_enter, match_walkover
from matches.swiss_progression import (
    SwapRefused,
    entry_presence_set,
    swiss_pairing_swap,
    swiss_round_pair,
    swiss_round_publish,
)
from matches.swiss_standings import swiss_standings
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.results import won
from tournaments.entries import entry_withdraw
from tournaments.models import Entry, Round, RoundKind, Tournament, TournamentStatus
from tournaments.stage_draws import tournament_draw
from tournaments.swiss_rounds import default_chain, default_rounds
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


def swiss(
    n: int, *, game: str = "brade", start: bool = True, seed: int = 7, **fields: Any
) -> tuple[Tournament, Any, list[Any]]:
    organiser = OrganiserFactory.create()
    tournament = tournament_create(
        by=organiser,
        name="Schweizerkvällen",
        start_date=datetime.date(2026, 11, 25),
        game=game,
        format="swiss",
        **fields,
    )
    players = [PlayerFactory.create(name=f"P{i + 1}", rating=2000 - i) for i in range(n)]
    for p in players:
        EntryFactory.create(tournament=tournament, player=p)
    if start:
        tournament_draw(tournament=tournament, by=organiser, draw_seed=seed)
    tournament.refresh_from_db()
    return tournament, organiser, players


def current(t: Tournament, number: int) -> list[Match]:
    return list(Match.objects.filter(tournament=t, round__number=number).order_by("slot"))


def pairs_of(t: Tournament, number: int) -> set[frozenset[int | None]]:
    return {frozenset((m.player1_id, m.player2_id)) for m in current(t, number)}


def finish_round(
    t: Tournament, number: int, by: Any, rng: random.Random | None = None, *, games: bool = False
) -> None:
    """Every open match of round ``number``: the first-named player wins (or a random one),
    by walkover (a forfeit: the two have not met) or, with ``games``, in two bräde games."""
    for m in current(t, number):
        if m.state in (MatchState.READY, MatchState.PLAYING):
            winner = m.player1 if rng is None or rng.random() < 0.5 else m.player2
            assert winner is not None
            if games:
                win_in_games(m, winner.pk, by)
            else:
                match_walkover(match=m, winner=winner, by=by)


def win_in_games(match: Match, player_id: int, by: Any) -> None:
    """A best-of-3 bräde match won in two games."""
    side = "W" if match.player1_id == player_id else "B"
    for number in (1, 2):
        game_result_enter(
            match=match,
            number=number,
            result=won(side, "jan" if number == 2 else "hemspel"),
            by=by,
            starter="W" if number == 1 else None,
        )


def play_round(
    t: Tournament, by: Any, rng: random.Random | None = None, *, games: bool = False
) -> Round:
    rnd = swiss_round_pair(tournament=t, by=by)
    swiss_round_publish(round=rnd, by=by)
    finish_round(t, rnd.number, by, rng, games=games)
    return rnd


# --- creation and start -------------------------------------------------------------


def test_create_takes_rounds_and_the_swiss_default_chain() -> None:
    t, _, _ = swiss(6, start=False, swiss_rounds=4)
    assert (t.format, t.swiss_rounds, t.status) == ("swiss", 4, TournamentStatus.DRAFT)
    assert t.tiebreaks == ["game_points", "skiljepoang", *default_chain("kungabrade", "")[1:]]
    assert default_chain("backgammon", "ww") == [
        "points_difference",
        "buchholz_cut1",
        "buchholz",
        "sonneborn_berger",
        "wins",
    ]


def test_create_refuses_zero_rounds_and_an_unknown_tiebreak() -> None:
    with pytest.raises(ValidationError, match="at least 1 round"):
        swiss(4, start=False, swiss_rounds=0)
    with pytest.raises(ValidationError, match="Unknown tiebreak"):
        swiss(4, start=False, tiebreaks=["buchholz", "nonsense"])
    t, _, _ = swiss(4, start=False, tiebreaks=["buchholz_cut1", "wins"])
    assert t.tiebreaks == ["buchholz_cut1", "wins"]


def test_start_creates_every_round_unpublished_and_empty_with_default_rounds() -> None:
    t, _, _ = swiss(9)
    rounds = list(Round.objects.filter(tournament=t))
    assert t.swiss_rounds == default_rounds(9) == 4
    assert [(r.number, r.kind, r.published, r.match_length) for r in rounds] == [
        (n, RoundKind.PAIRED, False, 3) for n in (1, 2, 3, 4)
    ]
    assert t.status == TournamentStatus.RUNNING and t.draw_seed == 7
    assert not Match.objects.filter(tournament=t).exists()


def test_start_refuses_more_rounds_than_players_minus_one() -> None:
    t, organiser, _ = swiss(4, start=False, swiss_rounds=4)
    with pytest.raises(ValidationError, match="at most 3 rounds without a rematch"):
        tournament_draw(tournament=t, by=organiser)


# --- pairing ------------------------------------------------------------------------


def test_round_one_pairs_top_half_against_bottom_half_by_rating() -> None:
    t, organiser, p = swiss(8)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    assert rnd.number == 1 and not rnd.published
    assert pairs_of(t, 1) == {frozenset((p[i].pk, p[i + 4].pk)) for i in range(4)}
    assert {m.state for m in current(t, 1)} == {MatchState.WAITING}
    reasons = MatchEvent.objects.filter(kind=EventKind.SWISS_PAIRED, match__tournament=t)
    assert reasons.count() == 4
    assert {e.data["reason"]["code"] for e in reasons} == {"swiss.equal"}


def test_pairing_uses_the_history_and_avoids_rematches() -> None:
    t, organiser, _ = swiss(6, swiss_rounds=5)
    seen: set[frozenset[int | None]] = set()
    for number in range(1, 6):
        play_round(t, organiser, random.Random(number), games=True)
        now = pairs_of(t, number)
        assert not now & seen, f"rematch in round {number}"
        seen |= now
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    placings = tournament_placings(tournament=t)
    table = swiss_standings(tournament=t)
    assert [(p.player, p.first) for p in placings] == [(x.player, x.place) for x in table.lines]


def test_the_next_round_waits_for_publishing_and_every_result() -> None:
    t, organiser, _p = swiss(4)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    with pytest.raises(ConflictError, match="Publish round 1"):
        swiss_round_pair(tournament=t, by=organiser)
    swiss_round_publish(round=rnd, by=organiser)
    first = current(t, 1)[0]
    assert first.player1 is not None
    match_walkover(match=first, winner=first.player1, by=organiser)
    with pytest.raises(ConflictError, match="1 match"):
        swiss_round_pair(tournament=t, by=organiser)
    finish_round(t, 1, organiser)
    assert swiss_round_pair(tournament=t, by=organiser).number == 2


def test_the_bye_goes_to_the_lowest_ranked_without_one_and_scores_a_win() -> None:
    t, organiser, p = swiss(5, swiss_rounds=3)
    play_round(t, organiser)
    bye1 = Match.objects.get(tournament=t, round__number=1, player2__isnull=True)
    assert bye1.player1_id == p[4].pk and bye1.state == MatchState.BYE
    assert bye1.winner_id == p[4].pk
    play_round(t, organiser)
    bye2 = Match.objects.get(tournament=t, round__number=2, player2__isnull=True)
    assert bye2.player1_id != p[4].pk
    table = swiss_standings(tournament=t)
    line = next(x for x in table.lines if x.player.pk == p[4].pk)
    # The bye: a won match (match points), no game points and no win at the board; round
    # 2 was a walkover (no game points either), won when p[4] was named first.
    second = Match.objects.get(Q(player1=p[4]) | Q(player2=p[4]), tournament=t, round__number=2)
    won2 = int(second.winner_id == p[4].pk)
    assert (line.played, line.won) == (1, won2)
    values = dict(zip(table.chain, line.values, strict=True))
    assert values["match_points"] == 1 + won2 and values["game_points"] == 0


def test_absent_and_withdrawn_players_are_not_paired_and_results_stay() -> None:
    t, organiser, p = swiss(6, swiss_rounds=3)
    play_round(t, organiser)
    out = Entry.objects.get(tournament=t, player=p[0])
    entry_presence_set(entry=out, present=False, by=organiser)
    gone = Entry.objects.get(tournament=t, player=p[1])
    entry_withdraw(entry=gone, by=organiser)  # between rounds: no walkover to give
    swiss_round_pair(tournament=t, by=organiser)
    paired = {pid for pair in pairs_of(t, 2) for pid in pair}
    assert p[0].pk not in paired and p[1].pk not in paired
    assert len(current(t, 2)) == 2  # four players left: two matches, no bye
    event = EntryEvent.objects.get(entry=out)
    assert (event.kind, event.by) == ("checked_out", organiser)
    # Results stay: the round-1 matches of both still count.
    table = swiss_standings(tournament=t)
    assert sum(x.played for x in table.lines) == 6
    assert next(x for x in table.lines if x.player.pk == p[1].pk).withdrawn
    entry_presence_set(entry=out, present=True, by=organiser)
    assert not Entry.objects.get(pk=out.pk).absent
    with pytest.raises(ConflictError):
        entry_presence_set(entry=gone, present=True, by=organiser)


def test_withdrawal_in_a_paired_round_gives_a_walkover() -> None:
    t, organiser, p = swiss(4)
    swiss_round_pair(tournament=t, by=organiser)
    entry_withdraw(entry=Entry.objects.get(tournament=t, player=p[0]), by=organiser)
    m = Match.objects.get(tournament=t, round__number=1, player1=p[0])
    assert m.state == MatchState.WALKOVER and m.winner_id == p[2].pk


def test_only_organisers_pair_check_out_swap_and_publish() -> None:
    t, organiser, p = swiss(4)
    stranger = UserFactory.create()
    with pytest.raises(PermissionDeniedError):
        swiss_round_pair(tournament=t, by=stranger)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    with pytest.raises(PermissionDeniedError):
        swiss_round_publish(round=rnd, by=stranger)
    with pytest.raises(PermissionDeniedError):
        swiss_pairing_swap(round=rnd, first=p[0], second=p[1], by=stranger)
    with pytest.raises(PermissionDeniedError):
        entry_presence_set(entry=Entry.objects.get(player=p[0]), present=False, by=stranger)


# --- publishing ---------------------------------------------------------------------


def test_an_unpublished_round_is_not_playable_and_hidden_from_the_public() -> None:
    t, organiser, _p = swiss(4)
    t.referees.add(referee := UserFactory.create())
    rnd = swiss_round_pair(tournament=t, by=organiser)
    m = current(t, 1)[0]
    assert m.player1 is not None
    with pytest.raises(ValidationError):
        game_result_enter(match=m, number=1, result=won("W", "hemspel"), by=referee, starter="W")
    with pytest.raises(ValidationError, match="not published"):
        match_walkover(match=m, winner=m.player1, by=referee)
    assert not match_list(by=None).filter(tournament=t).exists()
    assert match_list(by=referee).filter(tournament=t).count() == 2
    public = swiss_standings(tournament=t)
    assert [v.pairings for v in public.round_views] == [[], []]
    assert len(swiss_standings(tournament=t, staff=True).round_views[0].pairings) == 2
    swiss_round_publish(round=rnd, by=organiser)
    assert {x.state for x in current(t, 1)} == {MatchState.READY}
    assert match_list(by=None).filter(tournament=t).count() == 2
    win_in_games(current(t, 1)[0], current(t, 1)[0].player1_id or 0, referee)
    with pytest.raises(ConflictError, match="published already"):
        swiss_round_publish(round=rnd, by=organiser)
    assert MatchEvent.objects.filter(kind=EventKind.SWISS_PUBLISHED).count() == 2


# --- swaps --------------------------------------------------------------------------


def test_a_swap_is_audited_and_a_rematch_needs_confirmation() -> None:
    t, organiser, p = swiss(4, swiss_rounds=3)
    play_round(t, organiser, games=True)  # P1–P3, P2–P4; the first-named win
    rnd = swiss_round_pair(tournament=t, by=organiser)  # P1–P2, P3–P4
    assert pairs_of(t, 2) == {frozenset((p[0].pk, p[1].pk)), frozenset((p[2].pk, p[3].pk))}
    # P2 ↔ P3: P1–P3 and P2–P4 again, both rematches.
    with pytest.raises(SwapRefused) as refused:
        swiss_pairing_swap(round=rnd, first=p[1], second=p[2], by=organiser)
    assert refused.value.extra["warnings"] == [
        "P1 and P3 have already met",
        "P2 and P4 have already met",
    ]
    assert pairs_of(t, 2) == {frozenset((p[0].pk, p[1].pk)), frozenset((p[2].pk, p[3].pk))}
    warnings = swiss_pairing_swap(round=rnd, first=p[1], second=p[2], by=organiser, confirm=True)
    assert len(warnings) == 2
    assert pairs_of(t, 2) == {frozenset((p[0].pk, p[2].pk)), frozenset((p[1].pk, p[3].pk))}
    events = MatchEvent.objects.filter(kind=EventKind.SWISS_SWAPPED)
    assert events.count() == 2 and all(e.by == organiser for e in events)
    reasons = {
        pr.match.pk: pr.reason
        for pr in swiss_standings(tournament=t, staff=True).round_views[1].pairings
    }
    assert {r.code for r in reasons.values() if r} == {"swiss.swapped"}


def test_a_swap_without_rematch_needs_no_confirmation_and_moves_the_bye() -> None:
    t, organiser, _p = swiss(5, swiss_rounds=2)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    bye = Match.objects.get(round=rnd, player2__isnull=True)
    other = Match.objects.filter(round=rnd, player2__isnull=False).first()
    assert other is not None and other.player1 is not None and bye.player1 is not None
    assert (
        swiss_pairing_swap(round=rnd, first=bye.player1, second=other.player1, by=organiser) == []
    )
    bye.refresh_from_db()
    assert bye.player1_id == other.player1_id and bye.winner_id == other.player1_id


def test_no_swap_once_a_game_is_entered() -> None:
    t, organiser, p = swiss(4)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    swiss_round_publish(round=rnd, by=organiser)
    m = current(t, 1)[0]
    game_result_enter(match=m, number=1, result=won("W", "hemspel"), by=organiser, starter="W")
    with pytest.raises(ConflictError, match="no longer be swapped"):
        swiss_pairing_swap(round=rnd, first=p[0], second=p[1], by=organiser)


# --- the three games ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "outcome", "extra", "first_key"),
    [
        ("brade", "jan", {}, "game_points"),
        ("backgammon", "gammon", {}, "points_difference"),
        ("kungabrade", "castle", {"game_type": "slagfalt"}, "game_points"),
    ],
)
def test_every_game_pairs_plays_and_ranks(
    game: str, outcome: str, extra: dict[str, Any], first_key: str
) -> None:
    t, organiser, _p = swiss(4, game=game, swiss_rounds=2)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    swiss_round_publish(round=rnd, by=organiser)
    for m in current(t, 1):
        number = 1
        while m.state != MatchState.DECIDED:
            game_result_enter(
                match=m,
                number=number,
                result=won("W", outcome, **extra),
                by=organiser,
                starter="W" if number == 1 else None,
            )
            m.refresh_from_db()
            number += 1
    table = swiss_standings(tournament=t)
    assert table.chain[1] == first_key
    assert [line.values[0] for line in table.lines][:2] == [1, 1]
    assert all(line.why is not None for line in table.lines[:-1])
    assert table.lines[0].values[1] not in (None, 0)
    play = swiss_round_pair(tournament=t, by=organiser)
    assert play.number == 2


# --- standings ----------------------------------------------------------------------


def test_standings_show_each_tiebreak_and_why() -> None:
    t, organiser, p = swiss(6, swiss_rounds=3)
    for _ in range(3):
        play_round(t, organiser)
    table = swiss_standings(tournament=t)
    assert table.chain == ("match_points", *t.tiebreaks)
    assert table.published_rounds == table.finished_rounds == 3
    assert [line.place for line in table.lines] == [1, 2, 3, 4, 5, 6]
    assert all(len(line.values) == len(table.chain) for line in table.lines)
    assert table.lines[0].values[0] == 3  # the first-named always wins: P1 wins all three
    assert table.lines[0].player == p[0]
    texts = [line.why.text() for line in table.lines if line.why is not None]
    assert len(texts) == 5 and "P1 is above" in texts[0]


def _standings_queries(n: int) -> int:
    t, organiser, _ = swiss(n, swiss_rounds=3)
    for _ in range(2):
        play_round(t, organiser)
    swiss_round_pair(tournament=t, by=organiser)
    t = Tournament.objects.get(pk=t.pk)
    with CaptureQueriesContext(connection) as queries:
        swiss_standings(tournament=t, staff=True)
    return len(queries)


def test_standings_cost_the_same_queries_at_16_and_256_players() -> None:
    small, large = _standings_queries(16), _standings_queries(256)
    assert small == large == 5


def test_an_unpublished_match_page_is_not_found_for_the_public(client: Any) -> None:
    t, organiser, _p = swiss(4)
    swiss_round_pair(tournament=t, by=organiser)
    m = current(t, 1)[0]
    assert client.get(f"/matches/{m.pk}/").status_code == 404
    assert client.get(f"/api/matches/{m.pk}/").status_code == 404
    client.force_login(organiser)
    assert client.get(f"/matches/{m.pk}/").status_code == 200
