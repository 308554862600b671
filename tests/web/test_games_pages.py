"""Backgammon and Kungabräde on the pages: the organiser chooses the game, the
entry page asks what the game's results take, the bracket shows match scores in points, the
match page each game's points, cube and the Crawford game, the viewer draws the cube; a
Kungabräde match takes no records. Swedish and English."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Game, GameRecordSubmission, Match, RecordState
from matches.records import game_record_submit
from matches.results import game_result_enter
from matches.walkovers import match_walkover
from tests.backgammon.test_mat import XG
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of
from tournaments.models import Tournament
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


def _english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def _played_backgammon() -> tuple[Setup, Match]:
    """A 5-point match at 4–3 after the Crawford game, and one more game (6–3)."""
    s = drawn(2, lengths=[5], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    for number, winner, outcome, cube in (
        (1, "W", "gammon", 2),
        (2, "B", "backgammon", 1),
        (3, "W", "drop", 2),
    ):
        game_result_enter(
            match=Match.objects.get(pk=match.pk),
            number=number,
            result=won(winner, outcome, cube=cube),
            by=s.referee,
        )
    return s, Match.objects.get(pk=match.pk)


def test_the_organiser_chooses_the_game(client: Client) -> None:
    organiser = OrganiserFactory.create()
    client.force_login(organiser)
    page = _english(client).get(reverse("web:tournament_create")).content.decode()
    assert re.search(r'<option value="backgammon"[^>]*>Backgammon</option>', page)
    assert re.search(r'<option value="kungabrade"[^>]*>Kungabräde</option>', page)
    response = client.post(
        reverse("web:tournament_create"),
        {
            "name": "BG",
            "start_date": "2027-05-01",
            "game": "backgammon",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="BG")
    assert tournament.game == "backgammon"
    manage = client.get(reverse("web:tournament_manage", args=[tournament.pk])).content.decode()
    assert "Backgammon" in manage and "W&amp;W" not in manage


def test_the_draw_form_takes_points_and_even_lengths(client: Client) -> None:
    organiser = OrganiserFactory.create()
    tournament = tournament_create(by=organiser, name="BG", start_date=_day(), game="backgammon")
    for name in ("A", "B", "C", "D"):
        EntryFactory.create(tournament=tournament, player=PlayerFactory.create(name=name))
    client.force_login(organiser)
    _english(client)
    page = client.get(reverse("web:tournament_manage", args=[tournament.pk])).content.decode()
    assert "match lengths in points (1 to 25)" in page
    response = client.post(
        reverse("web:tournament_bracket_generate", args=[tournament.pk]), {"lengths": "4, 6"}
    )
    assert response.status_code == 302
    assert [r.match_length for r in tournament.rounds.order_by("number")] == [4, 6]
    page = client.get(reverse("web:tournament_detail", args=[tournament.pk])).content.decode()
    assert "to 4 points" in page and "to 6 points" in page


def _day() -> Any:
    import datetime

    return datetime.date(2027, 5, 1)


def test_bracket_shows_the_match_score_in_points(client: Client) -> None:
    s, _match = _played_backgammon()
    page = _english(client).get(reverse("web:tournament_bracket", args=[s.tournament.pk]))
    html = page.content.decode()
    assert '<span class="score">6–3</span>' in html
    assert "to 5 points" in html


def test_match_page_shows_points_cube_and_the_crawford_game(client: Client) -> None:
    _s, match = _played_backgammon()
    html = _english(client).get(reverse("web:match_detail", args=[match.pk])).content.decode()
    assert "To 5 points · Backgammon · Crawford rule" in html
    assert "Crawford game: game 2" in html
    rows = re.findall(r"<tr>\s*<td class=\"primary\"(.*?)</tr>", html, re.S)
    assert len(rows) == 3
    assert "tag crawford" in rows[1] and "tag crawford" not in rows[0]
    cells = [re.findall(r'data-label="(Cube|Points)">([^<]*)<', row) for row in rows]
    assert cells == [
        [("Cube", "2"), ("Points", "4")],
        [("Cube", "1"), ("Points", "3")],
        [("Cube", "2"), ("Points", "2")],
    ]
    assert "<strong>6–3</strong>" in html
    assert "Skiljepoäng" not in html and "Starter" not in html
    client.cookies["django_language"] = "sv"
    swedish = client.get(reverse("web:match_detail", args=[match.pk])).content.decode()
    assert "Till 5 poäng · Backgammon · Crawfordregeln" in swedish
    assert "Crawfordparti: parti 2" in swedish and "Ställning:" in swedish


def test_a_walkover_keeps_the_points_of_the_games_played_before_it(client: Client) -> None:
    """Every game's match page scores the games through its family, whatever the state:
    a walkover given after games were played shows what each of them gave, in backgammon
    as in bräde (whose games the page always scored on their own)."""
    s = drawn(2, lengths=[5], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    game_result_enter(match=match, number=1, result=won("W", "gammon", cube=2), by=s.referee)
    match = Match.objects.get(pk=match.pk)
    assert match.player2 is not None
    match_walkover(match=match, winner=match.player2, by=s.referee)
    html = _english(client).get(reverse("web:match_detail", args=[match.pk])).content.decode()
    assert re.findall(r'data-label="Points">([^<]*)<', html) == ["4"]
    assert "bigscore" not in html  # a walkover has no score of its own


def test_entry_page_asks_for_the_cube_and_saves_a_gammon(client: Client) -> None:
    s = drawn(2, lengths=[7], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    client.force_login(s.referee)
    url = reverse("web:match_enter", args=[match.pk])
    page = _english(client).get(url).content.decode()
    assert 'name="cube" value="64"' in page and "vackert spel" not in page
    assert "tek" not in page and "(White)" not in page
    for word in ("single game", "gammon", "backgammon", "dropped double"):
        assert f">{word}</button>" in page
    # The resignation apart, behind what it conceded (not beside near-identical buttons).
    conceded = page[page.index('<details class="vackert conceded"') :]
    assert 'name="conceded" value="gammon"' in conceded
    assert 'value="resign">Save the resignation</button>' in conceded
    response = client.post(
        url, {"number": 1, "winner": "B", "cube": "4", "outcome": "gammon", "note": ""}
    )
    assert response.status_code == 302
    game = Game.objects.get(match=match)
    assert (game.winner, game.outcome, game.cube) == ("B", "gammon", 4)
    page = client.get(url).content.decode()
    assert "gammon, cube 4" in page and "<strong>0–8</strong>" in page


def test_entry_page_of_kungabrade_asks_for_the_game_type(client: Client) -> None:
    s = drawn(2, lengths=[3], game="kungabrade")
    match = match_of(s.tournament, 1, 0)
    client.force_login(s.referee)
    url = reverse("web:match_enter", args=[match.pk])
    page = client.get(url).content.decode()  # Swedish
    assert 'name="game_type" value="slagfalt"' in page and 'lang="sv">Slagfält<' in page
    assert ">borgen intagen</button>" in page and 'name="cube"' not in page
    response = client.post(url, {"number": 1, "winner": "W", "outcome": "castle"})
    assert response.status_code == 400 and "spelform" in response.content.decode()
    response = client.post(
        url, {"number": 1, "winner": "W", "outcome": "castle", "game_type": "maktkamp"}
    )
    assert response.status_code == 302
    detail = client.get(reverse("web:match_detail", args=[match.pk])).content.decode()
    assert "borgen intagen, Maktkamp" in detail


def test_a_kungabrade_match_takes_no_records(client: Client) -> None:
    s = drawn(2, lengths=[3], game="kungabrade")
    match = match_of(s.tournament, 1, 0)
    client.force_login(s.referee)
    detail = client.get(reverse("web:match_detail", args=[match.pk])).content.decode()
    assert reverse("web:record_upload", args=[match.pk]) not in detail
    page = _english(client).get(reverse("web:record_upload", args=[match.pk]))
    assert page.status_code == 403
    assert "Kungabräde keeps results only" in page.content.decode()


def _mat_match() -> tuple[Match, Any]:
    organiser = OrganiserFactory.create()
    referee = UserFactory.create()
    tournament = tournament_create(by=organiser, name="BG", start_date=_day(), game="backgammon")
    tournament.referees.add(referee)
    for seed, name in ((1, "Alice"), (2, "Bob")):
        EntryFactory.create(
            tournament=tournament, player=PlayerFactory.create(name=name), seed=seed
        )
    tournament_draw(tournament=tournament, by=organiser, lengths=[3])
    return match_of(tournament, 1, 0), referee


def test_the_viewer_draws_a_backgammon_board_with_the_cube(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    match, referee = _mat_match()
    with django_capture_on_commit_callbacks(execute=True):
        sub = game_record_submit(match=match, text=XG, by=referee)
    sub = GameRecordSubmission.objects.get(pk=sub.pk)
    assert sub.state == RecordState.ENTERED
    client.force_login(referee)
    _english(client)
    status = client.get(reverse("web:record_detail", args=[sub.pk])).content.decode()
    assert "Alice wins by dropped double, cube 2: 2 points" in status
    assert "(Crawford game)" in status
    url = reverse("web:record_viewer", args=[sub.pk])
    # Game 1: 31 played, Bob doubles (turn 2: the cube offered), Alice takes (turn 3).
    page = client.get(url, {"game": 1, "turn": 3}).content.decode()
    svg = re.search(r"<svg id=\"board\".*?</svg>", page, re.S)
    assert svg is not None
    assert '<g class="cube owned" data-value="2" data-owner="0">' in svg.group(0)
    stacks = dict(
        ((side, point), int(count))
        for side, point, count in re.findall(
            r'<g class="stack" data-side="(\d)" data-point="(\w+)" data-count="(\d+)"',
            svg.group(0),
        )
    )
    # Alice's 31 (8/5 6/5) made her 5 point; Bob's checkers count down from her 24.
    assert stacks[("0", "5")] == 2 and stacks[("0", "8")] == 2 and stacks[("1", "19")] == 5
    # The file's "Takes" and "Doubles => 2" in the reader's words.
    assert "Turn 3 of 7: Alice: takes" in page and "Bob: doubles to 2" in page
    start = client.get(url, {"game": 1, "turn": 0}).content.decode()
    assert '<g class="cube centred" data-value="1" data-owner="">' in start


def test_a_mat_record_shows_its_warnings_with_their_lines(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    match, referee = _mat_match()
    text = XG.replace(
        "  1) 31: 8/5 6/5                      Doubles",
        "  1) 31: 8/4 6/5                      Doubles",
    )
    with django_capture_on_commit_callbacks(execute=True):
        sub = game_record_submit(match=match, text=text, by=referee)
    client.force_login(referee)
    page = client.get(reverse("web:record_detail", args=[sub.pk])).content.decode()  # Swedish
    line = text.splitlines().index("  1) 31: 8/4 6/5                      Doubles => 2") + 1
    assert "Felaktiga drag som står sig" in page
    assert f"Rad {line} (parti 1)" in page
    # the warning itself in Swedish, the seed's section named as the seed names it
    assert "otillåtet drag 31: 8/4 6/5 står kvar som det spelades" in page
    assert "(Ugyldige slag og ulovlige ryk)" in page and "stands as played" not in page


def test_a_gnubg_sgf_record_is_verified_viewed_and_named(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """gnubg's own .sgf (tests/data/backgammon), the players renamed to the match's: read,
    verified, the page names the program and format, the viewer steps through it."""
    match, referee = _mat_match()
    data = Path(__file__).resolve().parent.parent / "data" / "backgammon"
    text = (data / "gnubg_3pt_seed42.sgf").read_text()
    text = text.replace("PW[gnubg]", "PW[Alice]").replace("PB[root]", "PB[Bob]")
    with django_capture_on_commit_callbacks(execute=True):
        sub = game_record_submit(match=match, text=text, by=referee)
    sub = GameRecordSubmission.objects.get(pk=sub.pk)
    assert sub.text == text  # the archive keeps what was submitted
    assert sub.report["format"] == "sgf" and sub.report["program"] == "GNU Backgammon"
    client.force_login(referee)
    _english(client)
    status = client.get(reverse("web:record_detail", args=[sub.pk])).content.decode()
    assert "Read as: GNU Backgammon (.sgf)" in status
    page = client.get(reverse("web:record_viewer", args=[sub.pk]), {"game": 1, "turn": 1})
    assert page.status_code == 200 and "Bob" in page.content.decode()
