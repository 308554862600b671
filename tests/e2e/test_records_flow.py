"""A player uploads a game record and watches the record page turn verified by itself
(htmx polling, no reload); an illegal record is rejected with the rule it breaks and
the offending line marked. The viewer steps through a short game with its buttons and
the keyboard.

Elements are found by id, class and data attributes, never by English text: the site
is Swedish by default and its wording is being translated.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from matches import records as match_records
from matches import services as match_services
from matches.models import GameRecordSubmission, Match, RecordState
from matches.tasks import verify_game_record
from tests.e2e.conftest import login, shoot
from tests.factories import UserFactory
from tests.tournaments.helpers import drawn, match_of, players_of

pytestmark = pytest.mark.django_db(transaction=True)

# White bears off its last checker: the play itself ends the game (hemspel).
LEGAL = (
    '[White "P001"]\n[Black "P002"]\n[Rules "talisman"]\n\n'
    "Game 1\nPosition: W 24 | B 1:15 | W\nW 6-5: 24/off\nResult: White hemspel\n"
)
# The same, with a second checker borne off that White does not have (line 7).
ILLEGAL = LEGAL.replace("W 6-5: 24/off", "W 6-5: 24/off 20/off")
# Five turns from a set-up position: both sides move up, then White bears off.
SHORT_GAME = (
    '[White "P001"]\n[Black "P002"]\n[Rules "talisman"]\n\n'
    "Game 1\nPosition: W 19 20 | B 19 20 | W\n"
    "W 2-1: 19/21 20/21\nB 2-1: 19/21 20/21\nW 2-1: 21/23 21/22\nB 2-1: 21/23 21/22\n"
    "W 6-5: 22/off 23/off\nResult: White hemspel\n"
)


def _match_and_player(username: str) -> tuple[Match, Any]:
    """A ready match of a drawn tournament, and the user account of its player1 (White)."""
    setup = drawn(2, lengths=[3])
    match = match_of(setup.tournament, 1, 0)
    player = players_of(match)[0]
    user = UserFactory.create(username=username)
    player.user = user
    player.save()
    return match, user


def _upload(page: Any, base: str, match: Match, text: str) -> GameRecordSubmission:
    page.goto(f"{base}/matches/{match.pk}/records/new/")
    page.fill("#id_text", text)
    before = set(GameRecordSubmission.objects.values_list("pk", flat=True))
    page.locator("form.record-upload button[type=submit]").click()
    page.wait_for_url(re.compile(r"/records/\d+/$"))
    sub = GameRecordSubmission.objects.exclude(pk__in=before).get(match=match)
    assert page.url == f"{base}/records/{sub.pk}/"
    return sub


def test_player_uploads_a_record_and_sees_the_verdict_without_reloading(
    live_server: Any, new_page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match, _user = _match_and_player("spelare")
    page = new_page()
    login(page, live_server.url, "spelare")
    base = live_server.url

    # Hold the verification back (the tests' Celery runs tasks at once, on commit), so
    # that the record page opens while the record is still waiting for the engine.
    with monkeypatch.context() as hold:
        hold.setattr(match_records, "game_record_enqueue", lambda *, submission_id: True)
        page.goto(f"{base}/matches/{match.pk}/records/new/")
        expect(page.locator("#id_text")).to_be_editable()
        page.fill("#id_text", LEGAL)
        shoot(page, "record-upload")
        page.locator("form.record-upload button[type=submit]").click()
        page.wait_for_url(re.compile(r"/records/\d+/$"))
    sub = GameRecordSubmission.objects.get(match=match)
    record_url = f"{base}/records/{sub.pk}/"
    assert page.url == record_url and sub.state == RecordState.PENDING
    assert sub.text.replace("\r\n", "\n") == LEGAL  # a browser sends a textarea's text with CRLF
    status = page.locator("#record-status")
    expect(status).to_have_class(re.compile(r"\bstate-pending\b"))
    expect(status).to_have_attribute("hx-get", f"/records/{sub.pk}/status/")

    # The engine verifies it now; the page must notice by itself (htmx polls every 2 s).
    page.evaluate("window.__marker = 1")
    verify_game_record(sub.pk)
    sub.refresh_from_db()
    assert sub.state == RecordState.VERIFIED, sub.message
    expect(status).to_have_class(re.compile(r"\bstate-verified\b"), timeout=10_000)
    expect(status.locator(".verdict-box.ok")).to_be_visible()
    expect(status).not_to_have_attribute("hx-get", re.compile(".*"))  # polling stopped
    expect(status.locator(f"a[href='/records/{sub.pk}/viewer/']")).to_be_visible()
    assert page.evaluate("window.__marker") == 1, "the page was reloaded"
    assert page.url == record_url
    shoot(page, "record-verified")

    # An illegal record: rejected, with the rule it breaks and the line marked.
    bad = _upload(page, base, match, ILLEGAL)
    bad.refresh_from_db()
    assert bad.state == RecordState.INVALID
    status = page.locator("#record-status")
    expect(status).to_have_class(re.compile(r"\bstate-invalid\b"))
    verdict = status.locator(".verdict-box.bad[role=alert]")
    expect(verdict).to_be_visible()
    expect(verdict.locator(".engine-message")).to_contain_text(re.compile(r"R\d+"))
    marked = verdict.locator("ol.lines li.bad-line")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("value", "7")
    expect(marked).to_have_attribute("aria-current", "true")
    expect(marked.locator("code")).to_have_text("W 6-5: 24/off 20/off")
    expect(verdict.locator("ol.lines li")).to_have_count(5)  # lines 4–8
    expect(status.locator("a[href$='/viewer/']")).to_have_count(0)
    shoot(page, "record-rejected")


def test_viewer_steps_through_a_game(live_server: Any, new_page: Any) -> None:
    match, user = _match_and_player("spelare")
    # Stored and verified at once (Celery runs the task on commit in the tests).
    sub = match_services.game_record_submit(match=match, text=SHORT_GAME, by=user)
    sub.refresh_from_db()
    assert sub.state == RecordState.VERIFIED, sub.message

    page = new_page()
    login(page, live_server.url, "spelare")
    viewer_url = f"{live_server.url}/records/{sub.pk}/viewer/"
    page.goto(viewer_url)
    page.evaluate("window.__marker = 1")

    viewer = page.locator("#viewer")
    board = page.locator("svg#board")
    layer = page.locator("#board-layer")
    caption = page.locator("#viewer-status")
    expect(viewer).to_have_attribute("data-last", "5")
    expect(viewer).to_have_attribute("data-turn", "0")
    expect(board).to_have_attribute("role", "img")
    expect(board.locator("polygon.pt[data-point]")).to_have_count(24)
    points = board.locator("polygon.pt").evaluate_all("els => els.map(e => e.dataset.point)")
    assert sorted(int(p) for p in points) == list(range(1, 25))

    def stack(side: str, point: str, count: int) -> Any:
        """White's (``W``, drawn as side 0) or Black's (``B``, 1) stack."""
        seat = "WB".index(side)
        return layer.locator(
            f"g.stack[data-side='{seat}'][data-point='{point}'][data-count='{count}']"
        )

    def state() -> tuple[str, str, str]:
        return (
            caption.inner_text(),
            board.get_attribute("aria-label") or "",
            layer.inner_html(),
        )

    # The start: White on 19 and 20 (White's numbering), 13 borne off each.
    expect(stack("W", "19", 1)).to_have_count(1)
    expect(stack("W", "20", 1)).to_have_count(1)
    expect(layer.locator("g.off[data-side='0'][data-count='13']")).to_have_count(1)
    expect(page.locator("[data-go=first]")).to_be_disabled()
    expect(page.locator("[data-go=prev]")).to_be_disabled()
    start = state()
    shots = {0: start}

    # Next (the button): White's 2-1 makes a point on 21; the dice are drawn.
    page.locator("[data-go=next]").click()
    expect(viewer).to_have_attribute("data-turn", "1")
    expect(stack("W", "21", 2)).to_have_count(1)
    expect(stack("W", "19", 1)).to_have_count(0)
    expect(layer.locator("g.dice[data-dice='2-1']")).to_have_count(1)
    expect(caption).not_to_have_text(start[0])
    expect(board).not_to_have_attribute("aria-label", start[1])
    expect(page.locator(".move-list a[data-turn='1']")).to_have_attribute("aria-current", "step")
    expect(page.locator("[data-go=prev]")).to_be_enabled()
    shots[1] = state()
    assert shots[1][2] != start[2]

    # The keys: → steps on, ← steps back, End and Home jump.
    page.keyboard.press("ArrowRight")
    expect(viewer).to_have_attribute("data-turn", "2")
    expect(caption).not_to_have_text(shots[1][0])
    shots[2] = state()
    assert len({s[2] for s in shots.values()}) == 3  # three different drawings

    page.keyboard.press("ArrowLeft")
    expect(viewer).to_have_attribute("data-turn", "1")
    assert state() == shots[1]

    page.keyboard.press("End")
    expect(viewer).to_have_attribute("data-turn", "5")
    expect(layer.locator("g.off[data-side='0'][data-count='15']")).to_have_count(1)
    expect(layer.locator("g.stack[data-side='0']")).to_have_count(0)
    expect(page.locator("[data-go=next]")).to_be_disabled()
    expect(page.locator("[data-go=last]")).to_be_disabled()
    assert state()[2] not in {s[2] for s in shots.values()}
    shoot(page, "viewer")

    page.keyboard.press("Home")
    expect(viewer).to_have_attribute("data-turn", "0")
    assert state() == start

    # No reload: the script swapped the drawings and only rewrote the address (?turn=N).
    assert page.evaluate("window.__marker") == 1, "the page was reloaded"
    assert page.url.startswith(viewer_url) and page.url.endswith("turn=0")
