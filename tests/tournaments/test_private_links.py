"""Private links for players without accounts: issued and revoked by an organiser only,
only a hash stored, the token derived again for printing; through a link a player reports
and the opponent confirms through theirs (the second person still enforced), only in
their own matches of that tournament; each action audited and limited in rate; other
pages accept a link opened in the session (``private_link_player``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from core.errors import PermissionDeniedError
from matches.models import EventKind, GameReport, MatchEvent, ReportState, ResultSource
from matches.reports import game_report_confirm, game_report_submit
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments import private_links
from tournaments.models import PrivateLink, PrivateLinkUse
from tournaments.private_links import (
    RateLimitedError,
    private_link_find,
    private_link_issue,
    private_link_player,
    private_link_revoke,
    private_link_token,
    private_link_use,
    token_hash,
)

pytestmark = pytest.mark.django_db


def _setup() -> Any:
    s = drawn(4, lengths=[3, 3], results_by="players")
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    first = private_link_issue(tournament=s.tournament, player=one, by=s.organiser)
    second = private_link_issue(tournament=s.tournament, player=two, by=s.organiser)
    return s, match, first, second


def test_only_a_hash_is_stored_and_the_token_is_derived_again() -> None:
    _s, _match, first, _second = _setup()
    token = private_link_token(first)
    stored = PrivateLink.objects.get(pk=first.pk)
    assert stored.token_hash == token_hash(token) and token not in str(stored.__dict__)
    assert private_link_find(token) == first
    assert private_link_find(token[:-1] + ("A" if token[-1] != "A" else "B")) is None


def test_only_an_organiser_issues_and_reissuing_revokes_the_old_link() -> None:
    s, match, first, _second = _setup()
    one, _two = players_of(match)
    with pytest.raises(PermissionDeniedError):
        private_link_issue(tournament=s.tournament, player=one, by=s.referee)
    old = private_link_token(first)
    again = private_link_issue(tournament=s.tournament, player=one, by=s.organiser)
    assert private_link_find(old) is None
    assert private_link_find(private_link_token(again)) == again
    private_link_revoke(link=again, by=s.organiser)
    assert private_link_find(private_link_token(again)) is None


def test_a_report_through_one_link_is_confirmed_through_the_other_and_audited() -> None:
    _s, match, first, second = _setup()
    report = game_report_submit(
        match=match, number=1, result=won("W", "jan"), starter="W", by=None, link=first
    )
    with pytest.raises(PermissionDeniedError):  # the reporter's own link cannot confirm
        game_report_confirm(report=report, by=None, link=first)
    game = game_report_confirm(report=report, by=None, link=second)
    result = game.results.get()
    assert result.source == ResultSource.PLAYERS and result.report_id == report.pk
    report.refresh_from_db()
    assert report.state == ReportState.CONFIRMED and report.answerer_id == second.player_id
    events = MatchEvent.objects.filter(match=match, kind__startswith="report_").order_by("id")
    assert [(e.kind, e.data.get("private_link")) for e in events] == [
        (EventKind.REPORT_SUBMITTED, first.pk),
        (EventKind.REPORT_CONFIRMED, second.pk),
    ]


def test_a_link_acts_only_in_its_players_matches_and_not_once_revoked() -> None:
    s, match, first, _second = _setup()
    other = match_of(s.tournament, 1, 1)
    with pytest.raises(PermissionDeniedError):
        game_report_submit(
            match=other, number=1, result=won("W", "jan"), starter="W", by=None, link=first
        )
    private_link_revoke(link=first, by=s.organiser)
    with pytest.raises(PermissionDeniedError):
        game_report_submit(
            match=match, number=1, result=won("W", "jan"), starter="W", by=None, link=first
        )


def test_actions_through_a_link_are_limited_in_rate() -> None:
    _s, _match, first, _second = _setup()
    for _ in range(private_links.USES_PER_WINDOW):
        private_link_use(link=first, action="report")
    with pytest.raises(RateLimitedError):
        private_link_use(link=first, action="report")
    assert PrivateLinkUse.objects.filter(link=first).count() == private_links.USES_PER_WINDOW


def test_the_pages_report_and_confirm_through_the_links_and_other_pages_find_the_player() -> None:
    s, match, first, second = _setup()
    one, two = players_of(match)
    anna, bertil = Client(), Client()
    home = reverse("web:private_home", args=[private_link_token(first)])
    page = anna.get(home)
    assert page.status_code == 200 and one.name in page.content.decode()
    # The session now holds the link: other pages accept it.
    request = RequestFactory().get("/")
    request.session = anna.session
    assert private_link_player(request, s.tournament) == one
    report_url = reverse("web:private_report", args=[private_link_token(first), match.pk])
    answer = anna.post(report_url, {"number": 1, "winner": "W", "outcome": "jan", "starter": "W"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    report = GameReport.objects.get(match=match)
    other_home = reverse("web:private_home", args=[private_link_token(second)])
    assert f"answer-{report.pk}" in bertil.get(other_home).content.decode()
    confirm = reverse("web:private_answer", args=[private_link_token(second), report.pk, "confirm"])
    assert bertil.post(confirm).status_code == 302
    report.refresh_from_db()
    assert report.state == ReportState.CONFIRMED
    assert two.name in bertil.get(other_home).content.decode()


def test_a_revoked_or_unknown_link_opens_nothing() -> None:
    s, _match, first, _second = _setup()
    token = private_link_token(first)
    private_link_revoke(link=first, by=s.organiser)
    assert Client().get(reverse("web:private_home", args=[token])).status_code == 404
    assert Client().get(reverse("web:private_home", args=["nonsense"])).status_code == 404


def test_the_organisers_page_issues_shows_the_qr_and_revokes() -> None:
    s = drawn(4, results_by="players")
    client = Client()
    client.force_login(s.organiser)
    url = reverse("web:private_links", args=[s.tournament.pk])
    player = s.players[0]
    client.post(reverse("web:private_link_issue", args=[s.tournament.pk, player.pk]))
    link = PrivateLink.objects.get(player=player, revoked_at__isnull=True)
    page = client.get(url).content.decode()
    assert private_link_token(link) in page and "<svg" in page
    client.post(reverse("web:private_link_revoke", args=[s.tournament.pk, player.pk]))
    link.refresh_from_db()
    assert link.revoked_at is not None
    stranger = Client()
    stranger.force_login(UserFactory.create())
    assert stranger.get(url).status_code == 404


def _pages(data: bytes) -> list[str]:
    import io

    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_slips_are_printed_for_the_organiser_only_never_on_the_public_sheets() -> None:
    s, match, first, second = _setup()
    one, _two = players_of(match)
    organiser, referee = Client(), Client()
    organiser.force_login(s.organiser)
    referee.force_login(s.referee)
    slips = organiser.get(reverse("clubs:tournament_link_slips", args=[s.tournament.pk]))
    assert slips.status_code == 200 and slips["Content-Type"] == "application/pdf"
    text = "\n".join(_pages(slips.content))
    assert one.name in text and private_link_token(first) in text.replace("\n", "")
    assert (
        referee.get(reverse("clubs:tournament_link_slips", args=[s.tournament.pk])).status_code
        == 403
    )
    for name in ("clubs:round_score_sheets", "clubs:round_wall_sheet"):
        url = reverse(name, args=[s.tournament.pk, 1])
        plain = _pages(organiser.get(url).content)
        with_slips = _pages(organiser.get(url + "?links=1").content)
        assert len(with_slips) == len(plain) + 1, name
        assert private_link_token(second) in with_slips[-1].replace("\n", "")
        assert not any(private_link_token(second) in p.replace("\n", "") for p in plain)
        # The referee's and the public's sheets never carry a link.
        for client in (referee, Client()):
            answer = client.get(url + "?links=1")
            if answer.status_code == 200:
                pages = _pages(answer.content)
                assert not any(private_link_token(first) in p.replace("\n", "") for p in pages)


def test_the_qr_code_drawn_is_segnos_matrix_module_for_module() -> None:
    import segno

    from clubs.link_slips import qr_draw

    class Paper:
        def __init__(self) -> None:
            self.rects: list[tuple[float, float, float, float]] = []

        def set_fill_color(self, *_rgb: int) -> None:
            pass

        def rect(self, x: float, y: float, w: float, h: float, style: str = "") -> None:
            assert style == "F"
            self.rects.append((x, y, w, h))

    text = "https://club.example/p/abc/"
    paper = Paper()
    qr_draw(paper, text, x=10, y=20, size=40)  # type: ignore[arg-type]
    matrix = segno.make(text, error="m").matrix
    module = 40 / (len(matrix) + 4)
    drawn = [[0] * len(matrix) for _ in matrix]
    for x, y, w, h in paper.rects:
        row, col = round((y - 20) / module) - 2, round((x - 10) / module) - 2
        assert h == pytest.approx(module)
        for k in range(round(w / module)):
            drawn[row][col + k] = 1
    assert drawn == [[1 if cell else 0 for cell in line] for line in matrix]
