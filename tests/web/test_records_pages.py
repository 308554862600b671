"""Game-record pages: upload (text and file), the status box, the board viewer."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from engine.corpus import CORPUS
from matches.models import GameRecordSubmission, Match, RecordState
from matches.services import RECORD_MAX_BYTES
from tests.factories import UserFactory
from tests.tournaments.helpers import Setup, drawn, match_of, players_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client: Client) -> None:
    """These tests read the English texts; the site is Swedish unless the visitor chooses."""
    client.cookies["django_language"] = "en"


# White bears off its last checker: the play itself ends the game (hemspel).
LEGAL = (
    '[White "P001"]\n[Black "P002"]\n[Rules "talisman"]\n\n'
    "Game 1\nPosition: W 24 | B 1:15 | W\nW 6-5: 24/off\nResult: White hemspel\n"
)
# The same, with a second checker borne off that White does not have (line 7).
ILLEGAL = LEGAL.replace("W 6-5: 24/off", "W 6-5: 24/off 20/off")
# A known position: White 19, 20; Black 1:2, 5 and one on the bar. White bears off both
# checkers with 6-5 and wins hemspel with munk (Black has a checker on the bar).
KNOWN = (
    '[Rules "talisman"]\n\n'
    "Game 1\nPosition: W 19 20 | B 1:2 5 bar:1 | W\nW 6-5: 19/off 20/off\n"
    "Result: White hemspel munk\n"
)


@pytest.fixture
def setup() -> Setup:
    return drawn(2, lengths=[3])


@pytest.fixture
def match(setup: Setup) -> Match:
    return match_of(setup.tournament, 1, 0)


def _player_user(match: Match, n: int) -> Any:
    """The user account of the match's player ``n`` (1 = White, 2 = Black)."""
    player = players_of(match)[n - 1]
    user = UserFactory.create()
    player.user = user
    player.save()
    return user


def _upload(client: Client, match: Match, capture: Any, **data: Any) -> Any:
    with capture(execute=True):
        return client.post(reverse("web:record_upload", args=[match.pk]), data)


def _submission(match: Match, text: str, by: Any, capture: Any) -> GameRecordSubmission:
    from matches.services import game_record_submit

    with capture(execute=True):
        sub = game_record_submit(match=match, text=text, by=by)
    sub.refresh_from_db()
    return sub


# --- upload ----------------------------------------------------------------------------


def test_player_uploads_pasted_text_and_it_ends_verified(
    client: Client, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(_player_user(match, 1))
    page = client.get(reverse("web:record_upload", args=[match.pk]))
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.content.decode()
    response = _upload(client, match, django_capture_on_commit_callbacks, text=LEGAL)
    sub = GameRecordSubmission.objects.get(match=match)
    assert response.status_code == 302
    assert response["Location"] == reverse("web:record_detail", args=[sub.pk])
    assert sub.state == RecordState.VERIFIED, sub.message
    assert sub.text == LEGAL
    detail = client.get(response["Location"]).content.decode()
    assert "verified" in detail and "hx-trigger" not in detail
    assert reverse("web:record_viewer", args=[sub.pk]) in detail


def test_player_uploads_a_file(
    client: Client, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(_player_user(match, 2))
    upload = SimpleUploadedFile("match.txt", LEGAL.encode("utf-8"), content_type="text/plain")
    response = _upload(client, match, django_capture_on_commit_callbacks, file=upload)
    assert response.status_code == 302
    sub = GameRecordSubmission.objects.get(match=match)
    assert sub.state == RecordState.VERIFIED and sub.text == LEGAL


def test_illegal_record_is_rejected_with_the_rule_and_the_offending_line(
    client: Client, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(_player_user(match, 1))
    response = _upload(client, match, django_capture_on_commit_callbacks, text=ILLEGAL)
    sub = GameRecordSubmission.objects.get(match=match)
    assert sub.state == RecordState.INVALID
    assert sub.report is not None
    error = sub.report["error"]
    assert error["kind"] == "illegal" and error["line"] == 7 and error["game"] == 1
    page = client.get(response["Location"]).content.decode()
    assert "rejected" in page and "Illegal play" in page
    assert error["message"] in page.replace("&#x27;", "'")
    assert re.search(r"R\d+", error["message"])  # the engine cites the rule
    # The excerpt: lines 4–10 (three either side of 7, up to the end), line 7 marked.
    bad = re.search(r'<li value="(\d+)" class="bad-line"[^>]*>.*?<code>(.*?)</code>', page)
    assert bad is not None and bad.group(1) == "7" and bad.group(2) == "W 6-5: 24/off 20/off"
    numbers = [int(n) for n in re.findall(r'<li value="(\d+)"', page)]
    assert numbers == [4, 5, 6, 7, 8]
    assert reverse("web:record_viewer", args=[sub.pk]) not in page


def test_too_large_file_is_refused_with_a_clear_error(client: Client, match: Match) -> None:
    client.force_login(_player_user(match, 1))
    big = SimpleUploadedFile("big.txt", b"; x\n" * (RECORD_MAX_BYTES // 4 + 1))
    response = client.post(reverse("web:record_upload", args=[match.pk]), {"file": big})
    assert response.status_code == 200
    page = response.content.decode()
    assert re.search(r"The file is 1[.,]00 MB; the limit is 1 MB", page)
    assert not GameRecordSubmission.objects.exists()


def test_non_utf8_file_is_refused(client: Client, match: Match) -> None:
    client.force_login(_player_user(match, 1))
    latin1 = SimpleUploadedFile("rec.txt", '[Event "Klubbmästerskapet"]\n'.encode("latin-1"))
    response = client.post(reverse("web:record_upload", args=[match.pk]), {"file": latin1})
    assert response.status_code == 200
    assert "not UTF-8 text" in response.content.decode()
    assert not GameRecordSubmission.objects.exists()


@pytest.mark.parametrize("char", ["\x00", "\x0c", "\x7f"])
@pytest.mark.parametrize("how", ["file", "text"])
def test_control_characters_are_refused_with_line_and_column(
    client: Client, match: Match, char: str, how: str
) -> None:
    # NUL was an HTTP 500 on PostgreSQL; the text box said only
    # "Null characters are not allowed". Now every path names the line and column.
    client.force_login(_player_user(match, 1))
    text = LEGAL.replace("W 6-5: 24/off", f"W 6-5:{char} 24/off")  # line 7, column 7
    data: dict[str, Any] = (
        {"file": SimpleUploadedFile("rec.txt", text.encode())} if how == "file" else {"text": text}
    )
    response = client.post(reverse("web:record_upload", args=[match.pk]), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "The record holds the control character U+00" in page
    assert "at line 7, column 7." in page
    assert not GameRecordSubmission.objects.exists()


def test_empty_form_and_both_fields_are_refused(client: Client, match: Match) -> None:
    client.force_login(_player_user(match, 1))
    url = reverse("web:record_upload", args=[match.pk])
    assert "Paste the record&#x27;s text or choose a file" in client.post(url, {}).content.decode()
    both = {"text": LEGAL, "file": SimpleUploadedFile("r.txt", LEGAL.encode())}
    assert "not both" in client.post(url, both).content.decode()
    assert not GameRecordSubmission.objects.exists()


def test_referee_may_upload(
    client: Client, setup: Setup, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(setup.referee)
    response = _upload(client, match, django_capture_on_commit_callbacks, text=LEGAL)
    assert response.status_code == 302
    assert GameRecordSubmission.objects.get(match=match).state == RecordState.ENTERED


def test_non_player_gets_403_and_anonymous_is_sent_to_sign_in(client: Client, match: Match) -> None:
    url = reverse("web:record_upload", args=[match.pk])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.post(url, {"text": LEGAL}).status_code == 302
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == 403
    assert client.post(url, {"text": LEGAL}).status_code == 403
    assert not GameRecordSubmission.objects.exists()


def test_strangers_cannot_read_a_record(
    client: Client, setup: Setup, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    """The record's text and verdict are for the match's players and staff; a verified
    record's games are public with the tournament (``test_anyone_may_watch_…``)."""
    sub = _submission(match, LEGAL, setup.referee, django_capture_on_commit_callbacks)
    urls = [reverse(name, args=[sub.pk]) for name in ("web:record_detail", "web:record_status")]
    for url in urls:
        response = client.get(url)
        assert response.status_code in (302, 404)
    assert client.get(urls[0])["Location"].startswith(reverse("login"))
    client.force_login(UserFactory.create())
    for url in urls:
        assert client.get(url).status_code == 404


def test_anyone_may_watch_the_verified_games_of_a_public_tournament(
    client: Client, setup: Setup, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    """Anonymous visitors step through a verified record of a public tournament (its
    brackets are public) from the match page; a private tournament's stay hidden."""
    sub = _submission(match, LEGAL, setup.referee, django_capture_on_commit_callbacks)
    assert sub.state in (RecordState.VERIFIED, RecordState.ENTERED)
    viewer = reverse("web:record_viewer", args=[sub.pk])
    setup.tournament.is_public = True
    setup.tournament.save()
    response = client.get(viewer)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="viewer-frames"' in page
    detail = reverse("web:record_detail", args=[sub.pk])
    assert f'href="{detail}"' not in page  # the record's text and page stay private
    match_page = client.get(reverse("web:match_detail", args=[match.pk])).content.decode()
    assert viewer in match_page
    setup.tournament.is_public = False
    setup.tournament.save()
    assert client.get(viewer).status_code == 404
    assert viewer not in client.get(reverse("web:tournament_list")).content.decode()


# --- the status box --------------------------------------------------------------------


def test_status_polls_while_pending_and_stops_when_done(
    client: Client, setup: Setup, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(setup.referee)
    pending = GameRecordSubmission.objects.create(
        match=match, submitted_by=setup.referee, text=LEGAL, state=RecordState.PENDING
    )
    url = reverse("web:record_status", args=[pending.pk])
    part = client.get(url).content.decode()
    assert f'hx-get="{url}"' in part and 'hx-trigger="every 2s"' in part
    assert 'hx-swap="outerHTML"' in part and 'id="record-status"' in part
    detail = client.get(reverse("web:record_detail", args=[pending.pk])).content.decode()
    assert 'hx-trigger="every 2s"' in detail
    pending.state = RecordState.VERIFYING
    pending.save()
    assert 'hx-trigger="every 2s"' in client.get(url).content.decode()

    done = _submission(match, ILLEGAL, setup.referee, django_capture_on_commit_callbacks)
    part = client.get(reverse("web:record_status", args=[done.pk])).content.decode()
    assert done.state == RecordState.INVALID
    assert 'id="record-status"' in part and "hx-trigger" not in part and "hx-get" not in part
    assert "rejected" in part and 'class="bad-line"' in part


# --- the viewer ------------------------------------------------------------------------


def _stacks(svg: str) -> dict[tuple[str, str], int]:
    """``(side, point) -> count`` for every stack drawn on the board (the drawing's side 0
    is White, 1 Black)."""
    return {
        ("WB"[int(side)], point): int(count)
        for side, point, count in re.findall(
            r'<g class="stack" data-side="([01])" data-point="(\w+)" data-count="(\d+)">', svg
        )
    }


def _board(page: str) -> str:
    found = re.search(r"<svg id=\"board\".*?</svg>", page, re.S)
    assert found is not None
    return found.group(0)


def test_viewer_draws_the_known_position_in_whites_numbering(
    client: Client, setup: Setup, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    sub = _submission(match, KNOWN, setup.referee, django_capture_on_commit_callbacks)
    assert sub.state == RecordState.ENTERED, sub.message
    client.force_login(setup.referee)
    page = client.get(reverse("web:record_viewer", args=[sub.pk])).content.decode()
    svg = _board(page)
    assert 'role="img"' in svg and 'aria-label="Start of game 1' in svg
    assert len(re.findall(r'<polygon class="pt ', svg)) == 24
    numbers = re.findall(r'<text class="num"[^>]*>(\d+)</text>', svg)
    assert sorted(int(n) for n in numbers) == list(range(1, 25))
    # White's 19 and 20; Black's 1 and 5 are White's 13 and 17; one Black on the bar.
    assert _stacks(svg) == {
        ("W", "19"): 1,
        ("W", "20"): 1,
        ("B", "13"): 2,
        ("B", "17"): 1,
        ("B", "bar"): 1,
    }
    assert len(re.findall(r'<circle class="ck [wb]"', svg)) == 6
    assert 'data-side="0" data-count="13"' in svg and 'data-side="1" data-count="11"' in svg
    assert "Turn 1 of 1: P001 6-5: 19/off 20/off" in page  # in the turn list and the JSON


def test_viewer_in_blacks_numbering_and_as_black_by_default(
    client: Client, setup: Setup, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    sub = _submission(match, KNOWN, setup.referee, django_capture_on_commit_callbacks)
    expected_black = {
        ("W", "7"): 1,
        ("W", "8"): 1,
        ("B", "1"): 2,
        ("B", "5"): 1,
        ("B", "bar"): 1,
    }
    client.force_login(setup.referee)
    url = reverse("web:record_viewer", args=[sub.pk])
    assert _stacks(_board(client.get(url + "?view=B").content.decode())) == expected_black
    # The match's player2 plays Black: the viewer opens in Black's numbering for them.
    client.force_login(_player_user(match, 2))
    page = client.get(url).content.decode()
    assert _stacks(_board(page)) == expected_black
    assert "?game=1&amp;view=W" in page  # the toggle back to White's numbering


def test_viewer_embeds_every_turn_and_steps_to_a_turn(
    client: Client, setup: Setup, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    sub = _submission(match, KNOWN, setup.referee, django_capture_on_commit_callbacks)
    client.force_login(setup.referee)
    url = reverse("web:record_viewer", args=[sub.pk])
    page = client.get(url).content.decode()
    script = re.search(r'<script id="viewer-frames" type="application/json">(.*?)</script>', page)
    assert script is not None
    frames = json.loads(script.group(1))
    assert len(frames) == 2
    assert frames[1]["move"] == "P001 6-5: 19/off 20/off"
    assert frames[1]["caption"].startswith("Turn 1 of 1: P001 6-5: 19/off 20/off")
    assert "P001 wins by hemspel with munk" in frames[1]["caption"]  # by name
    assert ("W", "19") not in _stacks(frames[1]["svg"])
    assert 'data-dice="6-5"' in frames[1]["svg"]
    # Without JavaScript, ?turn=1 draws the position after the first turn.
    after = _board(client.get(url + "?turn=1").content.decode())
    assert _stacks(after) == {("B", "13"): 2, ("B", "17"): 1, ("B", "bar"): 1}
    assert 'data-side="0" data-count="15"' in after
    # Back buttons carry their arrow before the word, forward buttons after it.
    for label in ("First", "Previous"):
        assert f"> {label}</button>" in page, label
    for label in ("Next", "Last"):
        assert f">{label} <span" in page, label
    assert 'aria-live="polite"' in page and "web/viewer.js" in page


def test_viewer_picks_a_game_of_a_longer_record(
    client: Client, setup: Setup, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    text = CORPUS[0].text(games=2)
    sub = _submission(match, text, setup.referee, django_capture_on_commit_callbacks)
    assert sub.state in (RecordState.VERIFIED, RecordState.ENTERED), sub.message
    client.force_login(setup.referee)
    url = reverse("web:record_viewer", args=[sub.pk])
    page = client.get(url + "?game=2").content.decode()
    assert '<select id="game-select" name="game">' in page
    assert '<option value="2" selected>' in page
    turns = sub.report["games"][1]["turns"]
    assert f"of {turns}:" in page
    svg = _board(page)
    stacks = _stacks(svg)
    on_board = {side: sum(c for (s, _p), c in stacks.items() if s == side) for side in "WB"}
    assert on_board == {"W": 15, "B": 15}  # the opening position: everyone on point 1
    assert client.get(url + "?game=3").status_code == 404


def test_viewer_refuses_a_rejected_record(
    client: Client, setup: Setup, match: Match, django_capture_on_commit_callbacks: Any
) -> None:
    sub = _submission(match, ILLEGAL, setup.referee, django_capture_on_commit_callbacks)
    client.force_login(setup.referee)
    response = client.get(reverse("web:record_viewer", args=[sub.pk]))
    assert response.status_code == 404
    assert "Only a verified record can be stepped through" in response.content.decode()
