"""Score sheets: the PDF parsed back with pypdf: one page per match to
play (no bye, no walkover), the players' names with Swedish letters, a long name kept in
its box, the game's own columns, and only for the tournament's referees and organisers."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from fpdf import FPDF
from pypdf import PdfReader

from clubs.score_sheets import FONT, FOOTER_Y, fit_text, pdf_text, sheets_drawn
from matches.models import Match, MatchState
from matches.walkovers import match_walkover
from tests.factories import (
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Round
from tournaments.stage_draws import tournament_draw

pytestmark = pytest.mark.django_db

LONG = "Karl-Åke Gustaf Adolf Fredrik Wilhelm Öhrström-Lindqvist af Ängelholm och Östra Sallerup"


def pages(content: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(content)).pages]


@pytest.fixture
def cup() -> dict[str, Any]:
    """Six players in an eight-player bracket: two byes in round 1."""
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    names = ["Åsa Öberg", "Märta Ålund", LONG, "Örjan Ängström", "Ulla Björk", "Per Nyström"]
    players = [PlayerFactory.create(name=n) for n in names]
    tournament = TournamentFactory.create(
        name="Höstcupen i Härnösand", organisers=[organiser], referees=[referee]
    )
    for seed, player in enumerate(players, start=1):
        EntryFactory.create(tournament=tournament, player=player, seed=seed)
    tournament_draw(tournament=tournament, by=organiser, lengths=[3, 5, 7])
    return {"t": tournament, "organiser": organiser, "referee": referee, "players": players}


def sheets(client: Client, tournament: Any, number: int) -> bytes:
    response = client.get(reverse("clubs:round_score_sheets", args=[tournament.pk, number]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return bytes(response.content)


def test_one_page_per_match_to_play_with_swedish_names(client: Client, cup: dict[str, Any]) -> None:
    tournament = cup["t"]
    client.force_login(cup["referee"])
    first = Match.objects.filter(round__tournament=tournament, round__number=1)
    byes = first.filter(state=MatchState.BYE).count()
    assert byes == 2
    texts = pages(sheets(client, tournament, 1))
    assert len(texts) == first.count() - byes == 2
    everything = " ".join(texts)
    for match in first.exclude(state=MatchState.BYE):
        assert match.player1 is not None and match.player2 is not None
        assert match.player1.name in everything
        assert match.player2.name in everything
    assert "Höstcupen i Härnösand" in texts[0]
    assert LONG in everything  # wrapped or smaller, but all of it
    # The later rounds print ahead, with empty lines for the players not known yet.
    second = Match.objects.filter(round__tournament=tournament, round__number=2).count()
    assert len(pages(sheets(client, tournament, 2))) == second


def test_a_walkover_gets_no_sheet(client: Client, cup: dict[str, Any]) -> None:
    tournament = cup["t"]
    match = (
        Match.objects.filter(round__tournament=tournament, round__number=1)
        .exclude(state=MatchState.BYE)
        .first()
    )
    assert match is not None and match.player1 is not None
    match_walkover(match=match, winner=match.player1, by=cup["organiser"], reason="sjuk")
    client.force_login(cup["organiser"])
    assert len(pages(sheets(client, tournament, 1))) == 1


def test_sheet_has_the_games_columns_and_signatures(client: Client, cup: dict[str, Any]) -> None:
    client.force_login(cup["organiser"])
    client.cookies["django_language"] = "en"
    text = pages(sheets(client, cup["t"], 3))[0]
    for words in ("Outcome", "Signature, player 1", "Signature, player 2", "Signature, referee"):
        assert words in text
    assert "W&W 1956" in text  # the scale of a bräde tournament


def test_backgammon_sheet_has_the_cube(client: Client) -> None:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(game="backgammon", organisers=[organiser])
    for seed in (1, 2):
        EntryFactory.create(tournament=tournament, player=PlayerFactory.create(), seed=seed)
    tournament_draw(tournament=tournament, by=organiser, lengths=[5])
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    text = pages(sheets(client, tournament, 1))[0]
    assert "Cube" in text and "Crawford" in text
    assert "W&W" not in text


def test_sheets_are_swedish_by_default(client: Client, cup: dict[str, Any]) -> None:
    client.force_login(cup["organiser"])
    text = pages(sheets(client, cup["t"], 1))[0]
    for words in ("Matchprotokoll", "Vit (spelare 1)", "Utgång", "Underskrift, domare"):
        assert words in text


def test_only_referees_and_organisers(client: Client, cup: dict[str, Any]) -> None:
    tournament = cup["t"]
    url = reverse("clubs:round_score_sheets", args=[tournament.pk, 1])
    assert client.get(url).status_code in (302, 403)
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == 403
    client.force_login(cup["referee"])
    assert (
        client.get(reverse("clubs:round_score_sheets", args=[tournament.pk, 9])).status_code == 404
    )


def test_links_for_staff_only(client: Client, cup: dict[str, Any]) -> None:
    tournament = cup["t"]
    url = reverse("clubs:round_score_sheets", args=[tournament.pk, 1])
    detail = reverse("web:tournament_detail", args=[tournament.pk])
    assert url not in client.get(detail).content.decode()
    client.force_login(cup["referee"])
    assert url in client.get(detail).content.decode()
    client.force_login(cup["organiser"])
    manage = reverse("web:tournament_manage", args=[tournament.pk])
    assert url in client.get(manage).content.decode()
    assert Round.objects.filter(tournament=tournament).count() == 3


def test_a_long_name_fits_its_box() -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font(FONT, style="B")
    fitted = fit_text(pdf, LONG * 2, width=100, size=14, min_size=8)
    assert fitted.size == 8 and len(fitted.lines) > 1
    pdf.set_font_size(fitted.size)
    assert all(pdf.get_string_width(line) <= 100 for line in fitted.lines)
    assert " ".join(fitted.lines) == LONG * 2
    short = fit_text(pdf, "Åsa Öberg", width=100, size=14, min_size=8)
    assert short == type(short)(14, ("Åsa Öberg",))


def test_letters_outside_the_font_lose_only_their_accent() -> None:
    assert pdf_text("Łukasz Żółć – Åsa") == "Lukasz Zólc – Åsa"
    assert pdf_text("王") == "?"


@pytest.mark.parametrize("game", ["brade", "backgammon", "kungabrade"])
def test_the_fullest_sheet_ends_above_its_footer(game: str) -> None:
    """The most rows a sheet has (a long match, more games than rows), two names wrapped
    over several lines: everything still ends above the footer, on one page."""
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(
        game=game, organisers=[organiser], name=LONG, venue="Folkets hus i Örnsköldsvik"
    )
    for seed in (1, 2):
        player = PlayerFactory.create(name=f"{LONG} {LONG}"[:116] + f" {seed}")  # 120 at most
        EntryFactory.create(tournament=tournament, player=player, seed=seed)
    length = 25 if game == "backgammon" else 15
    tournament_draw(tournament=tournament, by=organiser, lengths=[length])
    sheet = sheets_drawn(round=Round.objects.get(tournament=tournament), by=organiser)
    assert sheet.count == 1 and sheet.pdf.pages_count == 1
    assert 200 < sheet.bottom <= FOOTER_Y - 2, sheet.bottom


@pytest.mark.parametrize("language", ["sv", "en"])
@pytest.mark.parametrize("game", ["brade", "backgammon", "kungabrade"])
def test_every_column_head_stays_inside_its_column(
    game: str, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each head is written no wider than its column ("Vinnare (1 eller 2)" ran over its
    lines at 9 pt bold), in either language and every game's columns."""
    from django.utils import translation

    from clubs import score_sheets

    written: list[tuple[str, float, float]] = []
    real = score_sheets.ScoreSheetPdf.header_row

    def header_row(self: Any, columns: list[tuple[str, float]]) -> None:
        pdf = self.pdf
        cell = pdf.cell

        def recording(w: float, h: float, text: str = "", *a: Any, **k: Any) -> Any:
            written.append((text, pdf.get_string_width(text), w))
            return cell(w, h, text, *a, **k)

        monkeypatch.setattr(pdf, "cell", recording)
        try:
            real(self, columns)
        finally:
            monkeypatch.setattr(pdf, "cell", cell)

    monkeypatch.setattr(score_sheets.ScoreSheetPdf, "header_row", header_row)
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(game=game, organisers=[organiser])
    for seed in (1, 2):
        EntryFactory.create(tournament=tournament, player=PlayerFactory.create(), seed=seed)
    tournament_draw(tournament=tournament, by=organiser, lengths=[5])
    with translation.override(language):
        sheets_drawn(round=Round.objects.get(tournament=tournament), by=organiser)
    assert written, "no column heads were written"
    assert any(text.startswith(("Vinnare", "Winner")) for text, _w, _c in written)
    for text, width, column in written:
        assert width <= column, (text, width, column)
