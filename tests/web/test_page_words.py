"""What a newcomer reads: each page in its own language and the words that say what
happened (the flag of a record that disagrees, the words of Kungabräde, the start of a
Swiss, the winners' final, a pending report, season forms, the archive's dates, the
API's game options)."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs.score_sheets import most_games
from matches.engine_text import render
from matches.models import GameRecordSubmission, RecordState
from matches.record_verdicts import record_settle
from matches.records import game_record_submit
from matches.reports import game_report_submit
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of
from tests.web.test_report_pages import as_user, report_url, table
from tests.web.test_swedish_crawl import visible_text
from tournaments.models import ResignationPolicyName, Round

pytestmark = pytest.mark.django_db

OTHERS = (
    '[White "Someone"]\n[Black "Else"]\n[Rules "talisman"]\n\n'
    "Game 1\nPosition: W 24 | B 1:15 | W\nW 6-5: 24/off\nResult: White hemspel\n"
)


def swedish(client: Client | None = None) -> Client:
    client = client or Client()
    client.cookies["django_language"] = "sv"
    return client


def test_a_flag_reads_in_swedish_for_anonymous_visitors(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The flag is stored in English; every visitor (not only those who may read the
    records) sees the verdict of the record that raised it in their language."""
    s = drawn(2, lengths=[3], is_public=True)
    match = match_of(s.tournament, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        sub = game_record_submit(match=match, text=OTHERS, by=s.referee)
    sub = GameRecordSubmission.objects.get(pk=sub.pk)
    assert sub.state == RecordState.MISMATCH
    match.refresh_from_db()
    assert match.flag.startswith("The record's players")  # stored in English
    page = visible_text(
        swedish().get(reverse("web:match_detail", args=[match.pk])).content.decode()
    )
    assert "protokollets spelare" in page.lower()
    assert "The record's players" not in page and "are not this match's players" not in page


def test_record_sides_has_no_english_of_its_own() -> None:
    """Other players in a record are None (the verdict words them), not an English text."""
    from matches.record_verdicts import record_sides

    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    assert record_sides(match, {"White": "Someone", "Black": "Else"}) is None


def test_munk_buttons_are_in_the_readers_language(client: Client) -> None:
    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    client.force_login(s.referee)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("web:match_enter", args=[match.pk])).content.decode()
    assert ">hemspel with munk</button>" in page and " med munk" not in page
    assert ">trappspel with munk</button>" in page
    client.cookies["django_language"] = "sv"
    page = client.get(reverse("web:match_enter", args=[match.pk])).content.decode()
    assert ">hemspel med munk</button>" in page


def test_the_game_words_name_kungabrades_game_types(client: Client) -> None:
    for lang in ("sv", "en", "da"):
        client.cookies["django_language"] = lang
        page = client.get(reverse("web:glossary")).content.decode()
        for word in ("Slagfält", "Erövring", "Maktkamp"):
            assert f'<dt lang="sv">{word}</dt>' in page


def test_a_kungabrade_match_has_no_record_column() -> None:
    s = drawn(2, lengths=[3], game="kungabrade", is_public=True)
    match = match_of(s.tournament, 1, 0)
    from matches.results import game_result_enter

    game_result_enter(
        match=match, number=1, result=won("W", "castle", game_type="slagfalt"), by=s.referee
    )
    page = visible_text(
        swedish().get(reverse("web:match_detail", args=[match.pk])).content.decode()
    )
    assert "Slagfält" in page
    assert "ej verifierat" not in page and "Protokoll" not in page
    # Bräde keeps it: its records verify games.
    b = drawn(2, lengths=[3], is_public=True)
    bm = match_of(b.tournament, 1, 0)
    game_result_enter(match=bm, number=1, result=won("W", "jan"), by=b.referee)
    page = visible_text(swedish().get(reverse("web:match_detail", args=[bm.pk])).content.decode())
    assert "ej verifierat" in page


def test_starting_a_swiss_says_nothing_is_drawn_yet() -> None:
    organiser_client = swedish()
    t = TournamentFactory.create(format="swiss", swiss_rounds=2, game="brade")
    from tests.factories import OrganiserFactory

    organiser = OrganiserFactory.create()
    t.organisers.add(organiser)
    for i in range(4):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"Spelare {i}"))
    organiser_client.force_login(organiser)
    response = organiser_client.post(
        reverse("web:tournament_bracket_generate", args=[t.pk]),
        {"lengths": "3, 3", "draw_seed": "7"},
        follow=True,
    )
    page = visible_text(response.content.decode())
    assert "Schweizerturneringen har startat" in page and "lotta sedan omgång 1" in page
    assert "Spelträdet är lottat" not in page
    assert "Lotta omgång 1" in page and "Lotta Omgång" not in page
    # Paired: the swap form's two lists open on two different players, its button sized.
    organiser_client.post(reverse("web:swiss_pair", args=[t.pk]))
    manage = organiser_client.get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    form = manage[manage.index('id="swiss-swap"') :]
    first = re.search(r'name="first"[^>]*>.*?<option value="(\d+)" selected', form, re.S)
    second = re.search(r'name="second"[^>]*>.*?<option value="(\d+)" selected', form, re.S)
    assert first is not None and second is not None and first.group(1) != second.group(1)
    assert '<button type="submit" class="secondary">Byt</button>' in form


def test_withdraw_names_the_player(client: Client) -> None:
    t = TournamentFactory.create()
    from tests.factories import OrganiserFactory

    organiser = OrganiserFactory.create()
    t.organisers.add(organiser)
    EntryFactory.create(tournament=t, player=PlayerFactory.create(name="Greta Garbo"))
    client.force_login(organiser)
    page = swedish(client).get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    assert 'data-confirm="Dra tillbaka Greta Garbo? Det går inte att ångra."' in page
    assert "Dra tillbaka spelaren?" not in page


def test_standings_headers_start_with_a_capital(client: Client) -> None:
    s = drawn(4, lengths=[3, 3, 3], format="round_robin", is_public=True)
    page = swedish(client).get(reverse("web:tournament_detail", args=[s.tournament.pk]))
    content = page.content.decode()
    heads = re.findall(r'<th scope="col">([^<]+)</th>', content)
    assert all(h[0].isupper() or not h[0].isalpha() for h in heads), heads
    # The tiebreaks' columns: a short heading, the whole name capitalised in its title.
    tiebreaks = re.findall(r'<th scope="col"><abbr title="([^"]+)">([^<]+)</abbr></th>', content)
    assert tiebreaks == [("Matchpoäng", "MP")]
    assert "Rangordnad efter: matchpoäng (MP), lottning." in content


def test_a_report_page_waits_for_the_pending_report_of_that_game() -> None:
    t = table()
    game_report_submit(match=t.match, number=1, result=won("W", "jan"), by=t.white)
    for user in (t.white, t.black):
        page = as_user(user).get(report_url(t.match)).content.decode()
        assert "Game 1 reported" in page and "waits for an answer" in page
        assert 'name="outcome"' not in page and "Report game 1" not in page
    assert "Report game 2" not in as_user(t.white).get(report_url(t.match)).content.decode()


def test_a_score_sheet_has_the_rows_a_match_can_take() -> None:
    """Best of 3 under the capped policy: 3 completed games and up to 3 resigned games
    per player; forbidden: 3; points: 2n - 1."""
    s = drawn(2, lengths=[3], resignation_policy=ResignationPolicyName.CAPPED)
    rnd = Round.objects.get(tournament=s.tournament)
    assert most_games(rnd, ResignationPolicyName.CAPPED) == 9
    assert most_games(rnd, ResignationPolicyName.FORBIDDEN) == 3
    assert most_games(rnd, None) == 3
    bg = drawn(2, lengths=[5], game="backgammon")
    assert most_games(Round.objects.get(tournament=bg.tournament), None) == 9


def test_season_forms_have_no_colons_nor_dashes(client: Client) -> None:
    from tests.factories import UserFactory

    ClubFactory.create(name="Brädklubben")
    client.force_login(UserFactory.create(is_superuser=True))
    response = swedish(client).get(reverse("clubs:season_new"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "---------" not in page and "Välj klubb" in page
    labels = re.findall(r"<label[^>]*>([^<]*)</label>", page)
    assert labels and not [label for label in labels if label.rstrip().endswith(":")]


def test_a_record_entered_into_an_empty_match_does_not_count_zero_agreeing() -> None:
    from engine.types import Side
    from games.results import ResultValue
    from matches.record_verdicts import PlayedGame

    s = drawn(2, lengths=[3])
    match = match_of(s.tournament, 1, 0)
    sub = GameRecordSubmission.objects.create(match=match, text="x", submitted_by=s.referee)
    state, sentences = record_settle(
        sub, match, [], [PlayedGame(1, ResultValue(0, "jan"), Side.WHITE)]
    )
    assert state == RecordState.ENTERED
    assert render(sentences[0]) == "Verified; 1 game was entered from the record."


def test_a_one_day_archive_names_its_day_once(client: Client) -> None:
    s = drawn(2, lengths=[3])
    t = s.tournament
    t.end_date = t.start_date
    t.save()
    client.force_login(s.organiser)
    response = swedish(client).get(reverse("clubs:tournament_archive", args=[t.pk]))
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        readme = archive.read(f"tournament-{t.pk}/README.txt").decode()
    day = t.start_date.isoformat()
    assert f"Datum: {day}. " in readme and f"{day} – {day}" not in readme


def test_the_api_gives_no_bräde_options_to_other_games(client: Client) -> None:
    bg = drawn(2, lengths=[5], game="backgammon", is_public=True)
    brade = drawn(2, lengths=[3], is_public=True)
    rows = {row["id"]: row for row in client.get("/api/tournaments/").json()["results"]}
    for name in ("rules", "scale", "addons", "resignation_policy"):
        assert rows[bg.tournament.pk][name] is None
    assert rows[brade.tournament.pk]["rules"] == "talisman"
    assert rows[brade.tournament.pk]["scale"] == brade.tournament.scale


def test_the_group_knockout_points_to_the_tables(client: Client) -> None:
    import random

    from tests.tournaments.test_round_robin_groups import _play_all, grouped

    t, referee, _players = grouped(6, 2, group_advance=1)
    _play_all(t, referee, random.Random(4))
    client.force_login(t.organisers.get())
    page = swedish(client).get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    link = reverse("web:tournament_detail", args=[t.pk])
    assert f'<a href="{link}">gruppernas tabeller på turneringens sida</a>' in page


def test_the_match_page_folds_the_explanation_after_its_first_sentence() -> None:
    s = drawn(2, lengths=[5], is_public=True)
    match = match_of(s.tournament, 1, 0)
    from matches.results import game_result_enter

    game_result_enter(match=match, number=1, result=won("W", "jan"), by=s.referee)
    page = swedish().get(reverse("web:match_detail", args=[match.pk])).content.decode()
    standing = page[page.index('id="standing-h"') : page.index('id="games-h"')]
    assert standing.count('<p class="explain">') >= 2
    folded = standing[standing.index('<details class="explanation">') :]
    assert "<summary>Ställningen förklarad</summary>" in folded
    assert standing.index('<p class="explain">') < standing.index("<details")
    assert players_of(match)[0].name in standing


def test_a_cube_past_the_match_asks_and_an_error_keeps_the_choices(client: Client) -> None:
    """A gammon at cube 64 in a 3-point match is not saved without a word: the page asks
    to confirm, every choice kept; confirmed, it saves. A refused entry keeps the winner."""
    from matches.models import Game

    s = drawn(4, lengths=[3, 3], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    client.force_login(s.referee)
    client.cookies["django_language"] = "en"
    url = reverse("web:match_enter", args=[match.pk])
    body = {"number": 1, "winner": "B", "cube": "64", "outcome": "gammon", "note": ""}
    response = client.post(url, body)
    assert response.status_code == 200 and not Game.objects.filter(match=match).exists()
    page = response.content.decode()
    assert "The cube at 64 in a match to 3 points?" in page and "at most 4" in page
    assert 'name="winner" value="B" required checked' in page
    assert re.search(r'name="cube" value="64"\s+checked', page)
    asked = page[page.index('class="conflict cube-question"') :]
    assert '<input type="hidden" name="confirm_cube" value="on">' in asked
    assert '<input type="hidden" name="outcome" value="gammon">' in asked
    # Confirmed, the 64 is saved.
    assert client.post(url, {**body, "confirm_cube": "on"}).status_code == 302
    assert Game.objects.get(match=match, number=1).cube == 64
    # A cube the match can use is saved at once.
    other = match_of(s.tournament, 1, 1)
    other_url = reverse("web:match_enter", args=[other.pk])
    assert client.post(other_url, {**body, "cube": "4"}).status_code == 302
    assert Game.objects.get(match=other).cube == 4


def test_a_refused_entry_keeps_the_winner(client: Client) -> None:
    s = drawn(2, lengths=[5], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    client.force_login(s.referee)
    client.cookies["django_language"] = "en"
    url = reverse("web:match_enter", args=[match.pk])
    # An unknown outcome is refused by the form; the winner and cube stay chosen.
    response = client.post(url, {"number": 1, "winner": "B", "cube": "2", "outcome": "nonsense"})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'name="winner" value="B" required checked' in page
    assert re.search(r'name="cube" value="2"\s+checked', page)


def test_a_second_report_of_a_game_names_the_first_in_the_readers_words() -> None:
    """ "redan rapporterat av Anna (Bertil vinner med jan)", not "(Black jan)"."""
    from django.utils import translation

    from core.errors import ConflictError

    t = table()
    game_report_submit(match=t.match, number=1, result=won("B", "jan"), by=t.white)
    black = players_of(t.match)[1].name
    with translation.override("sv"), pytest.raises(ConflictError) as refused:
        game_report_submit(match=t.match, number=1, result=won("W", "jan"), by=t.black)
    assert f"({black} vinner med jan)" in refused.value.message
    assert "Black jan" not in refused.value.message
