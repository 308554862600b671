"""The push streams end to end, in this process: a change committed by a service reaches
the followers' streams through the bus (Redis pub/sub where ``REDIS_URL`` is set, the
in-process bus otherwise: ``push.broker``), once per version, only for what each follows,
and only to readers who may see it."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client

from matches.services import game_result_enter
from push.hub import hub, hub_close
from push.views import reader_close
from tests.push.front_client import push_close, push_get
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of
from tournaments.models import Tournament
from tournaments.tournament_setup import tournament_update

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 20.0  # a guard against a hang, not a measure


def _events(text: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for block in text.split("\n\n"):
        lines = dict(
            line.split(": ", 1) for line in block.splitlines() if line.startswith(("event", "data"))
        )
        if "event" in lines:
            out.append((lines["event"], json.loads(lines["data"])))
    return out


class Stream:
    def __init__(self, chunks: AsyncIterator[bytes]) -> None:
        self.chunks = chunks

    async def next(self) -> list[tuple[str, dict[str, Any]]]:
        """The events of the next chunk that has any (keep-alive comments skipped)."""
        while True:
            found = _events((await asyncio.wait_for(anext(self.chunks), WAIT)).decode())
            if found:
                return found

    async def rest(self) -> list[tuple[str, dict[str, Any]]]:
        """Every event until the stream ends."""
        out: list[tuple[str, dict[str, Any]]] = []
        while True:
            try:
                chunk = await asyncio.wait_for(anext(self.chunks), WAIT)
            except StopAsyncIteration:
                return out
            out += _events(chunk.decode())


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    async def main() -> None:
        try:
            await scenario()
        finally:
            await push_close()
            await hub_close()
            await reader_close()

    async_to_sync(main)()


async def follow(client: AsyncClient, url: str) -> Stream:
    """``url``'s stream as the ASGI server answers it (``config.asgi``), read as ``client``'s
    reader (anonymous, or signed in)."""
    response = await push_get(client, url)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/event-stream"
    return Stream(response.streaming_content)  # type: ignore[attr-defined]


def _version(pk: int) -> int:
    return int(Tournament.objects.values_list("version", flat=True).get(pk=pk))


def test_a_result_entered_is_pushed_to_the_tournaments_and_its_matchs_followers() -> None:
    s: Setup = drawn(4)
    played, other = match_of(s.tournament, 1, 0), match_of(s.tournament, 1, 1)

    async def scenario() -> None:
        client = AsyncClient()
        bracket = await follow(client, f"/push/tournaments/{s.tournament.pk}/")
        assert [e for e, _ in await bracket.next()] == ["hello"]
        mine = await follow(client, f"/push/matches/{played.pk}/")
        assert [e for e, _ in await mine.next()] == ["hello"]
        theirs = await follow(client, f"/push/matches/{other.pk}/")
        assert [e for e, _ in await theirs.next()] == ["hello"]

        await sync_to_async(game_result_enter, thread_sensitive=False)(
            match=played, number=1, result=won("W", "jan"), by=s.referee, starter="W"
        )
        version = await sync_to_async(_version, thread_sensitive=False)(s.tournament.pk)
        assert await bracket.next() == [("part", {"v": version})]
        assert await mine.next() == [("part", {"v": version})]
        # the other match's follower was told nothing: its part did not change
        others = [f for f in hub().by_match[other.pk]]
        assert [f.pending for f in others] == [{}]
        assert [f.sent["part"] < version for f in others] == [True]

    run(scenario)


def test_a_private_tournament_has_no_stream_for_those_who_may_not_see_it() -> None:
    s: Setup = drawn(4, is_public=False)
    match = match_of(s.tournament, 1, 0)

    async def scenario() -> None:
        anonymous = AsyncClient()
        for url in (f"/push/tournaments/{s.tournament.pk}/", f"/push/matches/{match.pk}/"):
            assert (await push_get(anonymous, url)).status_code == 404
        organiser = AsyncClient()
        await organiser.aforce_login(s.organiser)
        stream = await follow(organiser, f"/push/tournaments/{s.tournament.pk}/")
        assert [e for e, _ in await stream.next()] == ["hello"]

    run(scenario)


def test_a_tournament_made_private_closes_its_anonymous_followers_streams() -> None:
    s: Setup = drawn(4)
    match = match_of(s.tournament, 1, 0)

    async def scenario() -> None:
        client = AsyncClient()
        page = await follow(client, f"/push/tournaments/{s.tournament.pk}/")
        board = await follow(client, f"/push/matches/{match.pk}/")
        assert [e for e, _ in await page.next()] == ["hello"]
        assert [e for e, _ in await board.next()] == ["hello"]
        tournament = await Tournament.objects.aget(pk=s.tournament.pk)
        await sync_to_async(tournament_update, thread_sensitive=False)(
            tournament=tournament, by=s.organiser, is_public=False
        )
        assert [e for e, _ in await page.rest()] == ["closed"]
        assert [e for e, _ in await board.rest()] == ["closed"]
        assert hub().followers == 0

    run(scenario)


def test_a_wsgi_server_answers_the_stream_with_404_so_pages_keep_polling() -> None:
    s: Setup = drawn(4)
    assert Client().get(f"/push/tournaments/{s.tournament.pk}/").status_code == 404


@pytest.mark.parametrize("streams", [True, False])
def test_the_live_parts_ask_for_a_stream_only_where_the_site_serves_them(
    settings: Any, streams: bool
) -> None:
    settings.PUSH_STREAMS = streams
    s: Setup = drawn(4)
    match = match_of(s.tournament, 1, 0)
    bracket = Client().get(f"/tournaments/{s.tournament.pk}/").content.decode()
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    pushed = {
        "bracket": f'data-push="/push/tournaments/{s.tournament.pk}/?body=bracket"' in bracket,
        "live part": f'data-push="/push/matches/{match.pk}/?body=live,board" data-push-on="part"'
        in page,
        "live board": f'data-push="/push/matches/{match.pk}/?body=live,board" data-push-on="board"'
        in page,
    }
    assert pushed == {"bracket": streams, "live part": streams, "live board": streams}
    # the polls stay, slowed down by push.js only while a stream is healthy
    assert "BradePush.due(this)], brade:push" in bracket


def test_the_live_parts_name_the_version_they_show_for_their_streams_hello(settings: Any) -> None:
    settings.PUSH_STREAMS = True
    s: Setup = drawn(4)
    match = match_of(s.tournament, 1, 0)
    game_result_enter(match=match, number=1, result=won("W", "jan"), by=s.referee, starter="W")
    version = _version(s.tournament.pk)
    bracket = Client().get(f"/tournaments/{s.tournament.pk}/").content.decode()
    part = Client().get(f"/matches/{match.pk}/live/", HTTP_HX_REQUEST="true")
    tag = f'data-push="/push/tournaments/{s.tournament.pk}/?body=bracket" data-push-on="part"'
    assert f'{tag} data-push-v="{version}"' in bracket
    # the live part's version is its ETag's (the match's own, or the whole tournament's)
    shown = part["ETag"].split("-v", 1)[1].split("-", 1)[0]
    assert f'data-push-on="part" data-push-v="{shown}"' in part.content.decode()


def test_a_change_that_makes_streams_ask_again_costs_one_read_per_reader_not_per_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every anonymous stream of a tournament shares one visibility read per version (they
    see the same); a signed-in reader's is their own."""
    from push import views

    s: Setup = drawn(4)
    reads: list[Any] = []
    real = views._tournament_now

    def counted(pk: int, user: Any) -> Any:
        reads.append(user.pk if user is not None and user.is_authenticated else None)
        return real(pk, user)

    monkeypatch.setattr(views, "_tournament_now", counted)

    async def scenario() -> None:
        url = f"/push/tournaments/{s.tournament.pk}/"
        crowd = [await follow(AsyncClient(), url) for _ in range(4)]
        organiser = AsyncClient()
        await organiser.aforce_login(s.organiser)
        staff = await follow(organiser, url)
        for stream in [*crowd, staff]:
            assert [e for e, _ in await stream.next()] == ["hello"]
        assert Counter(reads) == {None: 4, s.organiser.pk: 1}  # opening: each its own
        reads.clear()

        tournament = await Tournament.objects.aget(pk=s.tournament.pk)
        await sync_to_async(tournament_update, thread_sensitive=False)(
            tournament=tournament, by=s.organiser, name="Nytt namn"
        )  # a change to the whole tournament: every stream asks whether it may still see it
        version = await sync_to_async(_version, thread_sensitive=False)(s.tournament.pk)
        for stream in [*crowd, staff]:
            assert await stream.next() == [("part", {"v": version})]
        assert Counter(reads) == {None: 1, s.organiser.pk: 1}

        reads.clear()
        await sync_to_async(tournament_update, thread_sensitive=False)(
            tournament=tournament, by=s.organiser, is_public=False
        )
        for stream in crowd:
            assert [e for e, _ in await stream.rest()] == ["closed"]
        assert [e for e, _ in await staff.next()] == ["part"]
        assert Counter(reads) == {None: 1, s.organiser.pk: 1}
        assert hub().followers == 1  # the organiser's stream stays

    run(scenario)
