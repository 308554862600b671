"""Live pages that scale: the tournament's version is bumped by every
change its pages show, and the tournament page, its bracket, the match page and its live
part answer pollers with ``304 Not Modified`` while nothing changed (``web.live``)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.http import http_date

from core.errors import ConflictError
from matches import records as match_records
from matches.models import RecordState
from matches.services import (
    game_record_submit,
    game_record_verify,
    game_result_correct,
    game_result_enter,
    match_flag_clear,
    match_reset,
    match_walkover,
)
from tests.factories import OrganiserFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.matches.fakes import FakeReplay
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of, players_of
from tournaments.entries import (
    entries_seeds_set,
    entry_add,
    entry_player_add,
    entry_seed_set,
    entry_withdraw,
)
from tournaments.models import Entry, Round, Tournament
from tournaments.page_versions import tournament_touch
from tournaments.players import player_update
from tournaments.round_lengths import round_length_set
from tournaments.selectors import LiveStamp, tournament_stamp
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create, tournament_staff_set, tournament_update
from web import live

pytestmark = pytest.mark.django_db

TEXT = '[White "P001"]\n[Black "P002"]\nGame 1\nTek: 2-5\n'


def version(tournament: Tournament) -> int:
    return Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)


def record(setup: Setup, fake: FakeReplay) -> Any:
    """A record submitted by the referee for match (1, 0), not verified yet."""
    m = match_of(setup.tournament, 1, 0)
    return game_record_submit(match=m, text=TEXT, by=setup.referee)


# --- every kind of change bumps the version --------------------------------------------


def _result(s: Setup, fake: FakeReplay) -> None:
    game_result_enter(
        match=match_of(s.tournament, 1, 0), number=1, result=won("W", "jan"), by=s.referee
    )


def _with_result(s: Setup) -> Any:
    m = match_of(s.tournament, 1, 0)
    return game_result_enter(match=m, number=1, result=won("W", "jan"), by=s.referee)


def _correction(s: Setup, fake: FakeReplay) -> None:
    game = _with_result(s)
    before = version(s.tournament)
    game_result_correct(
        game=game, result=won("B", "jan"), by=s.referee, expected_version=1, note="typo"
    )
    assert version(s.tournament) > before


def _walkover(s: Setup, fake: FakeReplay) -> None:
    m = match_of(s.tournament, 1, 0)
    match_walkover(match=m, winner=players_of(m)[0], by=s.organiser, reason="no show")


def _reset(s: Setup, fake: FakeReplay) -> None:
    _with_result(s)
    before = version(s.tournament)
    match_reset(match=match_of(s.tournament, 1, 0), by=s.organiser, reason="wrong table")
    assert version(s.tournament) > before


def _withdrawal(s: Setup, fake: FakeReplay) -> None:
    entry = Entry.objects.get(tournament=s.tournament, player=s.players[3])
    entry_withdraw(entry=entry, by=s.organiser, reason="ill")


def _record_submitted(s: Setup, fake: FakeReplay) -> None:
    record(s, fake)


def _verdict(results: list[str], state: str) -> Callable[[Setup, FakeReplay], None]:
    def change(s: Setup, fake: FakeReplay) -> None:
        sub = record(s, fake)
        before = version(s.tournament)
        fake.results = results
        seen: list[int] = []

        def replay(text: str) -> Any:
            seen.append(version(s.tournament))  # the record shows as "verifying" now
            return fake(text)

        game_record_verify(submission_id=sub.pk, replay=replay)
        sub.refresh_from_db()
        assert sub.state == state
        assert seen[0] > before, "claiming the record (verifying) did not bump the version"
        assert version(s.tournament) > seen[0]

    return change


def _mismatch(s: Setup, fake: FakeReplay) -> None:
    _with_result(s)  # W jan
    _verdict(["B jan"], RecordState.MISMATCH)(s, fake)


def _invalid(s: Setup, fake: FakeReplay) -> None:
    from engine.errors import RecordSyntaxError

    fake.error = RecordSyntaxError("no such move", line=3)
    _verdict([], RecordState.INVALID)(s, fake)


def _crash(s: Setup, fake: FakeReplay) -> None:
    sub = record(s, fake)
    before = version(s.tournament)

    def crashes(text: str) -> Any:
        raise RuntimeError("bug")

    game_record_verify(submission_id=sub.pk, replay=crashes)
    sub.refresh_from_db()
    assert sub.state == RecordState.FAILED and version(s.tournament) > before


def _flag_cleared(s: Setup, fake: FakeReplay) -> None:
    _with_result(s)
    _verdict(["W hemspel"], RecordState.MISMATCH)(s, fake)
    before = version(s.tournament)
    match_flag_clear(match=match_of(s.tournament, 1, 0), by=s.referee, note="checked")
    assert version(s.tournament) > before


def _details(s: Setup, fake: FakeReplay) -> None:
    tournament_update(tournament=s.tournament, by=s.organiser, venue="Folkets hus")


def _staff(s: Setup, fake: FakeReplay) -> None:
    tournament_staff_set(tournament=s.tournament, by=s.organiser, referees=[])


def _player(s: Setup, fake: FakeReplay) -> None:
    player_update(player=s.players[0], by=s.organiser, rating=1712)


CHANGES_WHILE_RUNNING: dict[str, Callable[[Setup, FakeReplay], None]] = {
    "result": _result,
    "correction": _correction,
    "walkover": _walkover,
    "reset": _reset,
    "withdrawal after the draw": _withdrawal,
    "record submitted": _record_submitted,
    "record verified": _verdict([], RecordState.VERIFIED),
    "record entered": _verdict(["W jan", "W jan"], RecordState.ENTERED),
    "record mismatch": _mismatch,
    "record invalid": _invalid,
    "verifier crashed": _crash,
    "flag cleared": _flag_cleared,
    "details": _details,
    "staff": _staff,
    "player renamed or rerated": _player,
}


@pytest.mark.parametrize("change", CHANGES_WHILE_RUNNING.values(), ids=CHANGES_WHILE_RUNNING)
def test_every_change_of_a_running_tournament_bumps_its_version(
    change: Callable[[Setup, FakeReplay], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeReplay()
    monkeypatch.setattr(match_records, "_real_replay", lambda text, *, match: fake(text))
    setup = drawn(4, lengths=[3, 3])
    other = drawn(2)  # another tournament: untouched by this one's changes
    before, before_other = version(setup.tournament), version(other.tournament)
    stamp = tournament_stamp(pk=setup.tournament.pk)
    assert stamp is not None
    change(setup, fake)
    after = tournament_stamp(pk=setup.tournament.pk)
    assert after is not None
    assert after.version > before and after.changed_at > stamp.changed_at
    assert version(other.tournament) == before_other


def _draft() -> tuple[Tournament, Any]:
    organiser = OrganiserFactory.create()
    tournament = tournament_create(
        by=organiser, name="Höstcupen", start_date=datetime.date(2026, 11, 21)
    )
    for name in ("Anna", "Bo", "Cecilia"):
        entry_player_add(tournament=tournament, name=name, by=organiser)
    return tournament, organiser


CHANGES_IN_DRAFT: dict[str, Callable[[Tournament, Any], object]] = {
    "entry added": lambda t, by: entry_add(tournament=t, player=PlayerFactory.create(), by=by),
    "player entered by name": lambda t, by: entry_player_add(tournament=t, name="Dan", by=by),
    "seed": lambda t, by: entry_seed_set(entry=t.entries.all()[0], seed=1, by=by),
    "seeds": lambda t, by: entries_seeds_set(
        tournament=t, seeds={e.pk: i + 1 for i, e in enumerate(t.entries.all())}, by=by
    ),
    "withdrawal before the draw": lambda t, by: entry_withdraw(entry=t.entries.all()[0], by=by),
    "draw": lambda t, by: tournament_draw(tournament=t, by=by, draw_seed=1),
    "round length": lambda t, by: (
        tournament_draw(tournament=t, by=by, draw_seed=1),
        round_length_set(round=Round.objects.filter(tournament=t)[0], length=5, by=by),
    ),
}


@pytest.mark.parametrize("change", CHANGES_IN_DRAFT.values(), ids=CHANGES_IN_DRAFT)
def test_every_change_of_entries_and_draw_bumps_the_version(
    change: Callable[[Tournament, Any], object],
) -> None:
    tournament, organiser = _draft()
    before = version(tournament)
    change(tournament, organiser)
    assert version(tournament) > before


def test_a_refused_change_bumps_nothing() -> None:
    """The bump is in the change's transaction: rolled back with it."""
    setup = drawn(2, lengths=[3])
    _with_result(setup)
    before = version(setup.tournament)
    with pytest.raises(ConflictError):
        _with_result(setup)  # game 1 again
    assert version(setup.tournament) == before


def test_a_stale_copy_of_the_tournament_saved_does_not_put_its_version_back() -> None:
    setup = drawn(2, lengths=[3])
    stale = Tournament.objects.get(pk=setup.tournament.pk)
    _with_result(setup)
    bumped = version(setup.tournament)
    tournament_update(tournament=stale, by=setup.organiser, name="Vintercupen")
    assert version(setup.tournament) == bumped + 1


# --- 304 for pollers -----------------------------------------------------------------


def _urls(setup: Setup) -> dict[str, str]:
    match = match_of(setup.tournament, 1, 0)
    return {
        "tournament page": reverse("web:tournament_detail", args=[setup.tournament.pk]),
        "bracket": reverse("web:tournament_bracket", args=[setup.tournament.pk]),
        "match page": reverse("web:match_detail", args=[match.pk]),
        "match live": reverse("web:match_live", args=[match.pk]),
    }


PAGES = ("tournament page", "bracket", "match page", "match live")
# The parts htmx fetches again, with its header (the match's live part answers only it).
PARTS = ("bracket", "match live")


def _polling(client: Client, page: str) -> Client:
    """``client``, asking for ``page`` as the browser does: a part as htmx polls it."""
    if page in PARTS:
        client.defaults["HTTP_HX_REQUEST"] = "true"
    return client


@pytest.mark.parametrize("page", PAGES)
def test_a_poll_with_nothing_new_is_304_and_a_change_is_200_with_a_new_etag(
    page: str, client: Client
) -> None:
    setup = drawn(4, lengths=[3, 3])
    url = _urls(setup)[page]
    client = _polling(client, page)
    first = client.get(url)
    assert first.status_code == 200
    tag = first["ETag"]
    assert tag.startswith('W/"') and "Cookie" in first["Vary"]
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    again = client.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == tag and "Cookie" in again["Vary"]
    # A referee enters a result: the next poll gets the new page and a new ETag.
    _with_result(setup)
    changed = client.get(url, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed["ETag"] != tag
    # Every one of the pages shows the new score (the match's 2–0), none showed it before.
    assert "2–0".encode() not in first.content and "2–0".encode() in changed.content
    assert client.get(url, headers={"If-None-Match": changed["ETag"]}).status_code == 304


@pytest.mark.parametrize("page", PAGES)
def test_the_304_path_costs_at_most_two_queries(
    page: str, client: Client, django_assert_max_num_queries: Any
) -> None:
    """Anonymous: one query (the stamp). Signed in: two (the session, the stamp)."""
    setup = drawn(4, lengths=[3, 3])
    url = _urls(setup)[page]
    client = _polling(client, page)
    tag = client.get(url)["ETag"]
    with django_assert_max_num_queries(1):
        assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    client.force_login(setup.referee)
    tag = client.get(url)["ETag"]
    with django_assert_max_num_queries(2):
        assert client.get(url, headers={"If-None-Match": tag}).status_code == 304


def test_the_etag_differs_by_language_and_by_user(client: Client) -> None:
    setup = drawn(4, lengths=[3, 3])
    url = _urls(setup)["match page"]
    swedish = client.get(url)["ETag"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(url)
    assert english["ETag"] != swedish
    assert client.get(url, headers={"If-None-Match": swedish}).status_code == 200
    client.force_login(setup.referee)
    referee = client.get(url)
    assert referee["ETag"] != english["ETag"]
    # The referee's page has links the spectator's has not: never a 304 across them.
    assert client.get(url, headers={"If-None-Match": english["ETag"]}).status_code == 200
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert client.get(url, headers={"If-None-Match": referee["ETag"]}).status_code == 200


def test_private_tournaments_give_no_304_to_those_who_may_not_see_them(client: Client) -> None:
    setup = drawn(4, lengths=[3, 3], is_public=False)
    url = _urls(setup)["bracket"]
    assert client.get(url).status_code == 404
    assert client.get(url, headers={"If-None-Match": "*"}).status_code == 404
    client.force_login(setup.referee)
    seen = client.get(url)
    assert seen.status_code == 200
    assert client.get(url, headers={"If-None-Match": seen["ETag"]}).status_code == 304
    client.force_login(UserFactory.create())  # a stranger replaying the referee's ETag
    assert client.get(url, headers={"If-None-Match": seen["ETag"]}).status_code == 404
    client.logout()
    assert client.get(url, headers={"If-None-Match": seen["ETag"]}).status_code == 404


def test_last_modified_once_its_second_is_over_and_if_modified_since(client: Client) -> None:
    setup = drawn(4, lengths=[3, 3])
    url = _urls(setup)["bracket"]
    earlier = timezone.now() - datetime.timedelta(seconds=30)
    Tournament.objects.filter(pk=setup.tournament.pk).update(changed_at=earlier)
    first = client.get(url)
    assert first["Last-Modified"] == http_date(earlier.replace(microsecond=0).timestamp())
    # A date alone proves nothing of what the reader saw (core.conditional.not_modified):
    # the ordinary answer, never a 304; the ETag they were sent does get one.
    since = {"If-Modified-Since": first["Last-Modified"]}
    assert client.get(url, headers=since).status_code == 200
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    _with_result(setup)  # changed_at is now: its second is not over, so no date yet
    changed = client.get(url, headers=since)
    assert changed.status_code == 200 and "Last-Modified" not in changed


def test_no_304_tells_a_stranger_that_a_private_tournament_or_pairing_exists(
    client: Client,
) -> None:
    """``*`` and a bare date get the ordinary answer, not a 304 that only those who may
    see the object would get: a signed-in stranger gets the private page's 404."""
    setup = drawn(4, lengths=[3, 3], is_public=False)
    url = _urls(setup)["bracket"]
    client.force_login(UserFactory.create())
    future = http_date((timezone.now() + datetime.timedelta(days=1)).timestamp())
    for headers in ({"If-None-Match": "*"}, {"If-Modified-Since": future}):
        assert client.get(url, headers=headers).status_code == 404, headers


def test_last_modified_waits_for_its_second_to_end() -> None:
    """Two changes in one second would share an HTTP date: none is given until it ends."""
    at = datetime.datetime(2026, 11, 21, 10, 0, 0, 400_000, tzinfo=datetime.UTC)
    stamp = LiveStamp(1, True, 7, at, at)
    assert live.last_modified(stamp, now=at + datetime.timedelta(milliseconds=500)) is None
    second = at.replace(microsecond=0)
    assert live.last_modified(stamp, now=second + datetime.timedelta(seconds=1)) == second


def test_the_bracket_is_rendered_once_per_version(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    setup = drawn(8, lengths=[3, 3, 3])
    url = _urls(setup)["bracket"]
    first = client.get(url).content
    # Another viewer, no ETag: the cached bracket, for the one query of the stamp.
    with django_assert_max_num_queries(1):
        assert Client().get(url).content == first
    _with_result(setup)
    assert Client().get(url).content != first


def test_a_failing_cache_is_skipped(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("redis is down")

    for name in ("get", "set", "get_many", "set_many"):
        monkeypatch.setattr(live.cache, name, down)
    setup = drawn(4, lengths=[3, 3])
    for page, url in _urls(setup).items():
        assert _polling(client, page).get(url).status_code == 200


def test_a_page_with_a_message_waiting_is_never_304(client: Client) -> None:
    """A flash message shows on the next page: a 304 would keep it from showing there."""
    from django.contrib.messages.storage.cookie import CookieStorage

    setup = drawn(4, lengths=[3, 3])
    url = _urls(setup)["tournament page"]
    tag = client.get(url)["ETag"]
    storage = CookieStorage(client.request().wsgi_request)
    client.cookies[storage.cookie_name] = storage._encode([_message("Sparat.")])  # type: ignore[attr-defined]
    response = client.get(url, headers={"If-None-Match": tag})
    assert response.status_code == 200 and "Sparat." in response.content.decode()


def _message(text: str) -> Any:
    from django.contrib.messages import constants
    from django.contrib.messages.storage.base import Message

    return Message(constants.SUCCESS, text)


def test_tournament_touch_leaves_other_tournaments_alone() -> None:
    one, two = TournamentFactory.create(), TournamentFactory.create()
    tournament_touch(tournament_id=one.pk)
    assert (version(one), version(two)) == (2, 1)


def test_the_live_part_opened_as_a_page_sends_the_reader_to_the_match_page(
    client: Client,
) -> None:
    """The bare part has no header and no styles (on a phone it was wider than the screen):
    a browser that opens its address is sent to the match's page; htmx gets the part."""
    setup = drawn(4, lengths=[3, 3])
    urls = _urls(setup)
    opened = client.get(urls["match live"])
    assert opened.status_code == 302 and opened["Location"] == urls["match page"]
    assert "HX-Request" in opened["Vary"]
    polled = _polling(client, "match live").get(urls["match live"])
    assert polled.status_code == 200 and "HX-Request" in polled["Vary"]
    assert polled.content.decode().lstrip().startswith('<div id="match-live"')
