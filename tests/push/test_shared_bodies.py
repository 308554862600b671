"""The parts that are the same for every anonymous reader travel in the event itself
(``push.shared``): the bracket, the JSON bracket, a match's live part and live board,
rendered once per version by the serving process and sent with the ETag the reader
would have been given, in ``hello`` too (unless the page shows that version), and to a
follower not holding the answer the changes are made from, whole; a signed-in reader's
and a private tournament's hello and events carry the version only. And a crowd opening
streams costs no database connection each."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db.backends.signals import connection_created
from django.test import AsyncClient, Client

from matches.services import game_result_enter
from push import shared
from push.shared import text_diff, text_patch
from tests.push.test_streams import follow, run
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of
from tournaments.models import Tournament
from tournaments.tournament_setup import tournament_update

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}


def _get(path: str, **headers: Any) -> tuple[str, str]:
    """(ETag, body) of ``path`` asked by an anonymous reader."""
    response = Client().get(path, **headers)
    assert response.status_code == 200, response.status_code
    return response["ETag"], response.content.decode()


def _version(pk: int) -> int:
    return int(Tournament.objects.values_list("version", flat=True).get(pk=pk))


def _enter(s: Setup, match: Any, number: int) -> None:
    game_result_enter(
        match=match,
        number=number,
        result=won("W", "jan"),
        by=s.referee,
        starter="W" if number == 1 else None,
    )


def test_an_anonymous_follower_is_sent_the_bracket_and_the_live_part_with_their_etags() -> None:
    s: Setup = drawn(4)
    match = match_of(s.tournament, 1, 0)
    t = s.tournament.pk

    async def scenario() -> None:
        client = AsyncClient()
        bracket = await follow(client, f"/push/tournaments/{t}/?body=bracket")
        api = await follow(client, f"/push/tournaments/{t}/?body=api-bracket")
        live = await follow(client, f"/push/matches/{match.pk}/?body=live,board")
        for stream in (bracket, api, live):
            assert [e for e, _ in await stream.next()] == ["hello"]
        await sync_to_async(_enter, thread_sensitive=False)(s, match, 1)
        got = {
            "bracket": (await bracket.next())[0],
            "api": (await api.next())[0],
            "live": (await live.next())[0],
        }
        asked = sync_to_async(_get, thread_sensitive=False)
        tag, body = await asked(f"/tournaments/{t}/bracket/", **HTMX)
        api_tag, api_body = await asked(
            f"/api/tournaments/{t}/bracket/", HTTP_ACCEPT="application/json"
        )
        live_tag, live_body = await asked(f"/matches/{match.pk}/live/", **HTMX)
        assert got["bracket"][0] == "part"
        assert (got["bracket"][1]["etag"], got["bracket"][1]["body"]) == (tag, body)
        assert (got["api"][1]["etag"], got["api"][1]["body"]) == (api_tag, api_body)
        assert (got["live"][1]["etag"], got["live"][1]["body"]) == (live_tag, live_body)

    run(scenario)


def test_a_big_part_is_sent_as_its_changes_from_the_etag_before(monkeypatch: Any) -> None:
    monkeypatch.setattr(shared, "WHOLE_LIMIT", 0)  # every part counts as big
    s: Setup = drawn(4)
    match = match_of(s.tournament, 1, 0)
    t = s.tournament.pk

    async def scenario() -> None:
        stream = await follow(AsyncClient(), f"/push/tournaments/{t}/?body=bracket")
        assert [e for e, _ in await stream.next()] == ["hello"]
        asked = sync_to_async(_get, thread_sensitive=False)
        enter = sync_to_async(_enter, thread_sensitive=False)
        await enter(s, match, 1)
        first = (await stream.next())[0][1]
        assert "body" not in first  # its hello brought the body: the changes from it
        before = await asked(f"/tournaments/{t}/bracket/", **HTMX)
        assert first["etag"] == before[0]
        await enter(s, match, 2)
        second = (await stream.next())[0][1]
        after = await asked(f"/tournaments/{t}/bracket/", **HTMX)
        assert (second["base"], second["etag"]) == (before[0], after[0])
        assert text_patch(before[1], second["diff"]) == after[1]

    run(scenario)


def test_a_diff_applied_gives_the_new_text() -> None:
    old = '<div id="a"><p>1</p><p>2</p></div>\n{"x": {"y": 1}, "z": 2}'
    new = '<div id="a"><p>1</p><p>3</p><p>4</p></div>\n{"x": {"y": 5}, "z": 2}'
    diff = text_diff(old, new)
    assert text_patch(old, diff) == new
    assert sum(len(text) for _start, _end, text in diff) < len(new) // 2


def test_a_crowd_opening_streams_opens_no_database_connection_each() -> None:
    s: Setup = drawn(4)
    matches = [match_of(s.tournament, 1, 0), match_of(s.tournament, 1, 1)]
    opened: list[object] = []

    def counted(**kwargs: Any) -> None:
        opened.append(kwargs["connection"])

    async def scenario() -> None:
        client = AsyncClient()
        connection_created.connect(counted)
        try:
            for _ in range(3):
                for url in [f"/push/tournaments/{s.tournament.pk}/"] + [
                    f"/push/matches/{m.pk}/" for m in matches
                ]:
                    stream = await follow(client, url)
                    assert [e for e, _ in await stream.next()] == ["hello"]
        finally:
            connection_created.disconnect(counted)
        assert len(opened) <= 1, len(opened)  # the reading thread's, kept

    run(scenario)


def test_a_part_answered_with_a_server_error_is_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A write holding the database for a moment (SQLite's lock) makes one render a 500;
    the next try's answer is the one sent."""
    answers = iter([("500 Internal Server Error", []), ("200 OK", [("ETag", '"v7"')])])

    def handler(environ: dict[str, object], start_response: object) -> list[bytes]:
        line, headers = next(answers)
        start_response(line, headers)  # type: ignore[operator]
        return [b"<div>bracket</div>"]

    monkeypatch.setattr(shared, "_handler", handler)
    monkeypatch.setattr(shared, "RENDER_PAUSE", 0)
    found = shared.part_render(name="bracket", pk=1, language="sv", origin={})
    assert found == ('"v7"', "<div>bracket</div>")


def _bodies(hello: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    [(name, data)] = hello
    assert name == "hello"
    return dict(data.get("bodies", {}))


def test_the_hello_carries_the_part_as_a_fresh_get_answers_it_unless_the_page_shows_it() -> None:
    s: Setup = drawn(4)
    match = match_of(s.tournament, 1, 0)
    t = s.tournament.pk

    async def scenario() -> None:
        await sync_to_async(_enter, thread_sensitive=False)(s, match, 1)
        version = await sync_to_async(_version, thread_sensitive=False)(t)
        client = AsyncClient()
        hellos = {
            "bracket": await (await follow(client, f"/push/tournaments/{t}/?body=bracket")).next(),
            "api": await (await follow(client, f"/push/tournaments/{t}/?body=api-bracket")).next(),
            "live": await (await follow(client, f"/push/matches/{match.pk}/?body=live")).next(),
            "stale page": await (
                await follow(client, f"/push/tournaments/{t}/?body=bracket&v=part:{version - 1}")
            ).next(),
            "current page": await (
                await follow(client, f"/push/tournaments/{t}/?body=bracket&v=part:{version}")
            ).next(),
        }
        asked = sync_to_async(_get, thread_sensitive=False)
        fresh = {
            "bracket": await asked(f"/tournaments/{t}/bracket/", **HTMX),
            "api": await asked(f"/api/tournaments/{t}/bracket/", HTTP_ACCEPT="application/json"),
            "live": await asked(f"/matches/{match.pk}/live/", **HTMX),
        }
        got = {
            name: (body["part"]["etag"], body["part"]["body"])
            for name, body in ((n, _bodies(h)) for n, h in hellos.items())
            if "part" in body
        }
        assert got == {**fresh, "stale page": fresh["bracket"]}
        assert hellos["current page"] == [("hello", {"part": version})]

    run(scenario)


def test_a_follower_not_holding_the_changes_base_is_sent_the_whole_body(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page opened at the current version holds no text of the part, and a follower
    that fell behind holds an answer older than the changes are made from: both get the
    body whole, where the one holding the base gets the changes. The one behind reads
    nothing while three versions pass: its stream waits with the first version's event
    unread (as a full socket holds it), and the third's changes are made from the
    second only."""
    monkeypatch.setattr(shared, "WHOLE_LIMIT", 0)  # every part counts as big
    monkeypatch.setattr(shared, "HISTORY", 1, raising=False)  # from the version before only
    s: Setup = drawn(4)
    match = match_of(s.tournament, 1, 0)
    other = match_of(s.tournament, 1, 1)
    t = s.tournament.pk
    url = f"/push/tournaments/{t}/?body=bracket"

    async def scenario() -> None:
        version = await sync_to_async(_version, thread_sensitive=False)(t)
        client = AsyncClient()
        holding = await follow(client, url)
        page = await follow(client, f"{url}&v=part:{version}")
        behind = await follow(client, url)
        first = _bodies(await holding.next())["part"]
        assert _bodies(await page.next()) == {}
        assert _bodies(await behind.next())["part"]["etag"] == first["etag"]
        asked = sync_to_async(_get, thread_sensitive=False)
        enter = sync_to_async(_enter, thread_sensitive=False)
        await enter(s, match, 1)
        one = await asked(f"/tournaments/{t}/bracket/", **HTMX)
        [(_, changes)] = await holding.next()
        [(_, whole)] = await page.next()
        assert (changes["base"], text_patch(first["body"], changes["diff"])) == (
            first["etag"],
            one[1],
        )
        assert (whole["etag"], whole["body"]) == one
        await enter(s, match, 2)
        two = await asked(f"/tournaments/{t}/bracket/", **HTMX)
        [(_, changes)] = await holding.next()  # the second is rendered: it is sent
        assert changes["base"] == one[0]
        await enter(s, other, 1)  # (the match's third game would end it:
        three = await asked(f"/tournaments/{t}/bracket/", **HTMX)  # two versions, not one)
        [(_, changes)] = await holding.next()
        assert changes["base"] == two[0]
        [(_, waited)] = await behind.next()  # made before it fell behind: from the first
        assert (waited["base"], waited["etag"]) == (first["etag"], one[0])
        [(_, late)] = await behind.next()  # holds the first: not a base of the third's
        assert (late["etag"], late["body"]) == three

    run(scenario)


def test_a_follower_a_few_versions_behind_is_sent_the_changes_from_what_it_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The one behind reads nothing while three versions pass: its stream made the first
    one's event and waits with it unread (as a full socket holds it); the next it is sent
    is the third, as the changes from the first, which it holds."""
    monkeypatch.setattr(shared, "WHOLE_LIMIT", 0)  # every part counts as big
    s: Setup = drawn(4)
    match = match_of(s.tournament, 1, 0)
    other = match_of(s.tournament, 1, 1)
    t = s.tournament.pk
    url = f"/push/tournaments/{t}/?body=bracket"

    async def scenario() -> None:
        client = AsyncClient()
        reading, behind = await follow(client, url), await follow(client, url)
        await reading.next()
        held = _bodies(await behind.next())["part"]
        enter = sync_to_async(_enter, thread_sensitive=False)
        # one version each (a match's third game would end it: two versions)
        for played, number in ((match, 1), (match, 2), (other, 1)):
            await enter(s, played, number)
            await reading.next()  # rendered
        now = await sync_to_async(_get, thread_sensitive=False)(
            f"/tournaments/{t}/bracket/", **HTMX
        )
        [(_, first)] = await behind.next()
        assert first["base"] == held["etag"]
        text = text_patch(held["body"], first["diff"])
        [(_, changes)] = await behind.next()
        assert changes["base"] == first["etag"]
        assert (changes["etag"], text_patch(text, changes["diff"])) == now

    run(scenario)


def test_staff_and_a_private_tournaments_streams_carry_versions_only() -> None:
    """Only an anonymous follower of a public tournament is sent its parts, in its hello
    and its events; staff (who may see more) and followers of a private tournament are
    told versions; and a tournament made private closes the anonymous one's stream with
    no part sent."""
    public: Setup = drawn(4)
    private: Setup = drawn(4, is_public=False)
    public_match, private_match = (
        match_of(public.tournament, 1, 0),
        match_of(private.tournament, 1, 0),
    )

    async def scenario() -> None:
        anonymous, staff, private_staff = AsyncClient(), AsyncClient(), AsyncClient()
        await staff.aforce_login(public.organiser)
        await private_staff.aforce_login(private.organiser)
        p, q = public.tournament.pk, private.tournament.pk
        streams = {
            "anonymous": await follow(anonymous, f"/push/tournaments/{p}/?body=bracket"),
            "staff": await follow(staff, f"/push/tournaments/{p}/?body=bracket"),
            "staff's match": await follow(staff, f"/push/matches/{public_match.pk}/?body=live"),
            "private": await follow(private_staff, f"/push/tournaments/{q}/?body=bracket"),
            "private match": await follow(
                private_staff, f"/push/matches/{private_match.pk}/?body=live"
            ),
        }
        hellos = {name: _bodies(await stream.next()) for name, stream in streams.items()}
        assert {name: sorted(b) for name, b in hellos.items()} == {
            "anonymous": ["part"],
            "staff": [],
            "staff's match": [],
            "private": [],
            "private match": [],
        }
        for s, match in ((public, public_match), (private, private_match)):
            await sync_to_async(_enter, thread_sensitive=False)(s, match, 1)
        events = {name: (await stream.next())[0] for name, stream in streams.items()}
        assert {name: sorted(data) for name, (_, data) in events.items()} == {
            "anonymous": ["body", "etag", "v"],
            "staff": ["v"],
            "staff's match": ["v"],
            "private": ["v"],
            "private match": ["v"],
        }
        tournament = await Tournament.objects.aget(pk=p)
        await sync_to_async(tournament_update, thread_sensitive=False)(
            tournament=tournament, by=public.organiser, is_public=False
        )
        assert await streams["anonymous"].rest() == [("closed", {})]

    run(scenario)


def test_diffs_of_edits_anywhere_give_the_new_text() -> None:
    """Edits of every kind, seeded: within lines (the lines paired, ``_line_diff``), lines
    added or removed, long lines (the tokens compared), at either end, to and from
    nothing; each diff applied gives the new text."""
    rng = random.Random(7)
    lines = [f'<li class="m{i}"><span>P{i:03}</span> <b>{i % 7}</b></li>' for i in range(300)]
    texts = ["\n".join(lines), "\n".join(lines) + "\n", json.dumps({"r": lines}), ""]
    for old in texts:
        for _ in range(60):
            new = old
            for _edit in range(rng.randint(1, 4)):
                at = rng.randint(0, len(new))
                cut = rng.choice([0, 0, 1, 5, 40, 900])
                put = rng.choice(["", "X", "</b>\n<b>", "\n", "<em>won</em>", "y" * 3000])
                new = new[:at] + put + new[at + cut :]
            assert text_patch(old, text_diff(old, new)) == new


def test_an_entry_in_two_columns_is_sent_as_the_two_lines_it_changed() -> None:
    lines = [f'<li class="m{i}"><span>P{i:03}</span> <b>0</b></li>' for i in range(3000)]
    old = "\n".join(lines)
    lines[40] = lines[40].replace("<b>0</b>", "<b>1</b>")
    lines[2900] = lines[2900].replace("P2900", "P0041")
    new = "\n".join(lines)
    diff = text_diff(old, new)
    assert text_patch(old, diff) == new
    # the lines paired: the first change runs to its line's end, the second from its
    # line's start (the tokens compared would have sent "1</b>" and "P0041</span>")
    assert [text for _start, _end, text in diff] == [
        "1</b></li>",
        '<li class="m2900"><span>P0041</span>',
    ]
