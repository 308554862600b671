"""A round robin played in groups: snake seeding into the groups, each
group its own Berger table with the rounds side by side, a table per group on the page and
in the API, and shared placings when the groups are the whole tournament."""

from __future__ import annotations

import datetime
import random
from itertools import combinations
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.errors import ConflictError, ValidationError
from matches.group_standings import group_tables
from matches.models import Match, MatchState
from matches.round_selectors import tournament_placings
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.results import won
from tests.tournaments.test_round_robin import win
from tournaments.models import Entry, Round, Tournament, TournamentStatus
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


def grouped(n: int, groups: int, **fields: Any) -> tuple[Tournament, Any, list[Any]]:
    from tests.factories import UserFactory

    organiser = OrganiserFactory.create()
    tournament = tournament_create(
        by=organiser,
        name="Höstgrupper",
        start_date=datetime.date(2026, 11, 25),
        format="round_robin",
        groups=groups,
        **fields,
    )
    tournament.referees.add(referee := UserFactory.create())
    players = [PlayerFactory.create(name=f"P{i + 1}") for i in range(n)]
    for i, p in enumerate(players):
        EntryFactory.create(tournament=tournament, player=p, seed=i + 1)
    tournament_draw(tournament=tournament, by=organiser, draw_seed=3)
    tournament.refresh_from_db()
    return tournament, referee, players


def test_snake_seeding_and_pairs_only_within_a_group() -> None:
    t, _, players = grouped(10, 3)
    group_of = dict(Entry.objects.filter(tournament=t).values_list("player_id", "group"))
    # seeds 1..10 dealt A B C C B A A B C C
    assert [group_of[p.pk] for p in players] == [0, 1, 2, 2, 1, 0, 0, 1, 2, 2]
    pairs = sorted(
        tuple(sorted((m.player1_id or 0, m.player2_id or 0)))
        for m in Match.objects.filter(tournament=t, player2__isnull=False)
    )
    expected = sorted(
        tuple(sorted((a.pk, b.pk)))
        for a, b in combinations(players, 2)
        if group_of[a.pk] == group_of[b.pk]
    )
    assert pairs == expected
    # groups of 3, 3 and 4 players: the largest (4) plays 3 rounds, the odd ones 3 with a bye
    assert Round.objects.filter(tournament=t).count() == 3
    byes = Match.objects.filter(tournament=t, state=MatchState.BYE)
    assert sorted(group_of[m.player1_id or 0] or 0 for m in byes) == [0, 0, 0, 1, 1, 1]


@pytest.mark.parametrize(
    ("players", "groups", "advance", "code"),
    [(5, 3, 0, "small"), (8, 2, 4, "small"), (70, 2, 0, "large")],
)
def test_draw_refuses_groups_that_do_not_fit(
    players: int, groups: int, advance: int, code: str
) -> None:
    organiser = OrganiserFactory.create()
    t = tournament_create(
        by=organiser,
        name="För få",
        start_date=datetime.date(2026, 11, 25),
        format="round_robin",
        groups=groups,
        group_advance=advance,
    )
    for i in range(players):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"Q{i}"))
    with pytest.raises(ValidationError) as err:
        tournament_draw(tournament=t, by=organiser)
    word = {"small": "cannot fill", "large": "larger than"}[code]
    assert word in err.value.message
    t.refresh_from_db()
    assert t.status == TournamentStatus.DRAFT and not Match.objects.filter(tournament=t).exists()


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"format": "knockout", "groups": 2}, "groups_not_round_robin"),
        ({"format": "round_robin", "groups": 17}, "groups"),
        ({"format": "round_robin", "groups": 2, "group_advance": 5}, "group_advance"),
        ({"format": "round_robin", "groups": 9, "group_advance": 2}, "group_advance"),
        ({"format": "round_robin", "groups": 1, "group_advance": 1}, "group_advance"),
    ],
)
def test_creation_refuses_impossible_groups(fields: dict[str, Any], code: str) -> None:
    with pytest.raises(ValidationError) as err:
        tournament_create(
            by=OrganiserFactory.create(),
            name="Fel",
            start_date=datetime.date(2026, 11, 25),
            **fields,
        )
    assert err.value.code == code


def _play_all(t: Tournament, referee: Any, rng: random.Random) -> None:
    for m in Match.objects.filter(tournament=t, state=MatchState.READY):
        win(m, rng.choice([m.player1_id, m.player2_id]) or 0, referee)


def test_tables_per_group_and_shared_placings() -> None:
    t, referee, _players = grouped(8, 2)
    _play_all(t, referee, random.Random(5))
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    tables = group_tables(tournament=t)
    assert [tb.label for tb in tables] == ["A", "B"]
    group_of = dict(Entry.objects.filter(tournament=t).values_list("player_id", "group"))
    for g, tb in enumerate(tables):
        assert {line.player.pk for line in tb.lines} == {
            p for p, grp in group_of.items() if grp == g
        }
        assert [line.place for line in tb.lines] == [1, 2, 3, 4]
        assert all(line.played == 3 for line in tb.lines)
        assert tb.finished_rounds == tb.rounds == 3
    placings = tournament_placings(tournament=t)
    assert [(p.first, p.last) for p in placings] == [(1, 2)] * 2 + [(3, 4)] * 2 + [(5, 6)] * 2 + [
        (7, 8)
    ] * 2
    winners = {tb.lines[0].player.pk for tb in tables}
    assert {p.player.pk for p in placings[:2]} == winners


def test_standings_cost_the_same_queries_in_one_group_or_four() -> None:
    one, _, _ = grouped(8, 1)
    four, _, _ = grouped(16, 4)
    with CaptureQueriesContext(connection) as a:
        group_tables(tournament=one)
    with CaptureQueriesContext(connection) as b:
        group_tables(tournament=four)
    assert len(a.captured_queries) == len(b.captured_queries) == 3


def test_page_and_api_show_each_group(client: Any) -> None:
    t, referee, _ = grouped(6, 2)
    _play_all(t, referee, random.Random(1))
    page = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="sv")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Grupp A" in text and "Grupp B" in text
    body = client.get(f"/api/tournaments/{t.pk}/standings/").json()
    assert [row["group"] for row in body["rows"]] == ["A"] * 3 + ["B"] * 3
    assert [row["place"] for row in body["rows"]] == [1, 2, 3, 1, 2, 3]
    assert body["rounds"] == 3 and body["finished_rounds"] == 3
    created = client.get(f"/api/tournaments/{t.pk}/").json()
    assert (created["groups"], created["group_advance"]) == (2, 0)


def test_groups_feed_a_knockout_crosswise_and_it_is_played_to_the_end() -> None:
    from tournaments.group_stage import group_knockout_draw

    t, referee, _players = grouped(8, 2, group_advance=2)
    organiser = t.organisers.get()
    with pytest.raises(Exception) as early:
        group_knockout_draw(tournament=t, by=organiser)
    assert "still to be played" in str(early.value.args[0])
    _play_all(t, referee, random.Random(9))
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING  # the knockout is still to be drawn
    tables = group_tables(tournament=t)
    a = [line.player.pk for line in tables[0].lines]
    b = [line.player.pk for line in tables[1].lines]
    group_knockout_draw(tournament=t, by=organiser, lengths=[3, 3])
    ko = list(
        Match.objects.filter(tournament=t, round__kind="knockout").order_by("round__number", "slot")
    )
    first = {frozenset((m.player1_id, m.player2_id)) for m in ko if m.round.rounds_after == 1}
    assert first == {frozenset((a[0], b[1])), frozenset((b[0], a[1]))}
    names = [r.name for r in Round.objects.filter(tournament=t, kind="knockout")]
    assert [r.number for r in Round.objects.filter(tournament=t, kind="knockout")] == [4, 5]
    assert len(names) == 2
    with pytest.raises(Exception) as twice:
        group_knockout_draw(tournament=t, by=organiser)
    assert getattr(twice.value, "code", "") == "knockout_drawn"
    # a group result is final now
    from matches.services import game_result_correct

    group_match = Match.objects.filter(tournament=t, round__kind="round_robin", state="decided")[0]
    with pytest.raises(Exception) as fixed:
        game_result_correct(
            game=(first_game := group_match.games.get(number=1)),
            result=won("W" if first_game.winner == "B" else "B", "hemspel"),
            by=organiser,
            expected_version=1,
        )
    assert getattr(fixed.value, "code", "") == "knockout_drawn"
    rng = random.Random(2)
    for _ in range(2):
        for m in Match.objects.filter(tournament=t, round__kind="knockout", state="ready"):
            win(m, rng.choice([m.player1_id, m.player2_id]) or 0, referee)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def test_knockout_after_groups_on_the_pages_and_the_placings(client: Any) -> None:
    from tournaments.group_stage import group_knockout_draw

    t, referee, _players = grouped(9, 3, group_advance=1)
    organiser = t.organisers.get()
    client.force_login(organiser)
    manage = client.get(f"/tournaments/{t.pk}/manage/", HTTP_ACCEPT_LANGUAGE="sv")
    assert "group-knockout" in manage.content.decode()
    _play_all(t, referee, random.Random(4))
    page = client.post(
        f"/tournaments/{t.pk}/knockout/", {"lengths": "3, 3"}, HTTP_ACCEPT_LANGUAGE="sv"
    )
    assert page.status_code == 302
    with pytest.raises(ConflictError):
        group_knockout_draw(tournament=t, by=organiser)
    rng = random.Random(8)
    for _ in range(2):
        for m in Match.objects.filter(tournament=t, round__kind="knockout", state="ready"):
            win(m, rng.choice([m.player1_id, m.player2_id]) or 0, referee)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    placings = tournament_placings(tournament=t)
    # 3 group winners in a 4-line knockout (seed 1 has a bye): 1, 2 and the semifinal's
    # loser 3; then the groups' 2nds share 4–6 and their 3rds 7–9
    firsts = [(p.first, p.last) for p in placings]
    assert firsts[:3] == [(1, 1), (2, 2), (3, 3)]
    assert sorted(firsts[3:]) == [(4, 6)] * 3 + [(7, 9)] * 3
    assert len({p.player.pk for p in placings}) == 9
    text = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert "knockout-h" in text and "Placering" in text


def test_api_draws_the_knockout_after_the_groups(client: Any) -> None:
    t, referee, _ = grouped(8, 2, group_advance=2)
    organiser = t.organisers.get()
    client.force_login(organiser)
    early = client.post(f"/api/tournaments/{t.pk}/knockout/", {}, content_type="application/json")
    assert early.status_code == 409 and early.json()["error"]["code"] == "groups_unfinished"
    _play_all(t, referee, random.Random(3))
    client.force_login(referee)
    refused = client.post(f"/api/tournaments/{t.pk}/knockout/", {}, content_type="application/json")
    assert refused.status_code == 403
    client.force_login(organiser)
    drawn = client.post(
        f"/api/tournaments/{t.pk}/knockout/", {"lengths": [3, 5]}, content_type="application/json"
    )
    assert drawn.status_code == 201, drawn.json()
    again = client.post(f"/api/tournaments/{t.pk}/knockout/", {}, content_type="application/json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "knockout_drawn"


@pytest.mark.parametrize("game", ["backgammon", "kungabrade"])
def test_groups_and_their_knockout_in_the_other_games(game: str) -> None:
    from matches.services import match_walkover
    from tournaments.group_stage import group_knockout_draw

    t, referee, _players = grouped(6, 2, group_advance=1, game=game)
    organiser = t.organisers.get()
    rng = random.Random(6)
    for m in Match.objects.filter(tournament=t, state=MatchState.READY):
        winner = rng.choice([m.player1, m.player2])
        assert winner is not None
        match_walkover(match=m, winner=winner, by=referee)
    group_knockout_draw(tournament=t, by=organiser)
    (final,) = Match.objects.filter(tournament=t, round__kind="knockout")
    unit = "points" if game == "backgammon" else "games"
    assert final.length_unit == unit and final.state == MatchState.READY
    winners = {tb.lines[0].player.pk for tb in group_tables(tournament=t)}
    assert {final.player1_id, final.player2_id} == winners
    assert final.player1 is not None
    match_walkover(match=final, winner=final.player1, by=referee)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert [(p.first, p.last) for p in tournament_placings(tournament=t)][:2] == [(1, 1), (2, 2)]


def test_the_byes_after_groups_go_to_the_best_group_winners_by_their_results() -> None:
    """3 group winners on 4 lines: one bye. Every winner wins both its matches (the same
    match points); B's wins by jan (most game points), C's once by jan, A's by hemspel
    only: B's winner has the bye and is seed 1, then C's and A's meet, whatever the
    groups' letters say."""
    from tournaments.group_stage import group_knockout_draw

    t, referee, _ = grouped(9, 3, group_advance=1)
    organiser = t.organisers.get()
    members = {
        g: [e.player_id for e in Entry.objects.filter(tournament=t, group=g).order_by("seed")]
        for g in range(3)
    }
    leader = {g: members[g][0] for g in range(3)}
    big_wins = {0: 0, 1: 2, 2: 1}  # how many of its two wins each leader takes by jan
    for m in Match.objects.filter(tournament=t, state=MatchState.READY).order_by("pk"):
        g = next(g for g in range(3) if m.player1_id in members[g])
        if leader[g] in (m.player1_id, m.player2_id):
            win(m, leader[g], referee, big=big_wins[g] > 0)
            big_wins[g] -= 1
        else:
            win(m, m.player1_id or 0, referee)
    assert [tb.lines[0].player.pk for tb in group_tables(tournament=t)] == list(leader.values())
    group_knockout_draw(tournament=t, by=organiser, lengths=[3, 3])
    first = Match.objects.filter(tournament=t, round__kind="knockout", round__rounds_after=1)
    bye = first.get(state=MatchState.BYE)
    assert bye.player1_id == leader[1]
    played = first.exclude(state=MatchState.BYE).get()
    assert (played.player1_id, played.player2_id) == (leader[2], leader[0])
