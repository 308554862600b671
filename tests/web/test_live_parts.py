"""‘Not modified’ judged per part (``web.live``): a change of one match moves the validators
of what shows it — its page and live part, its JSON, the bracket and the tournament page —
and leaves the other matches' as they were; nothing that shows a change ever answers a
poller holding the old ETag with 304 (entries, corrections, walkovers, resets, the winner
going on to the next round, a Swiss round published, a change of the whole tournament).
The knockout's bracket is put together from its rounds' columns, each cached under its
own version: after an entry only the column that shows it is rendered again."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from matches import round_selectors
from matches.common import matches_touch
from matches.models import Game, Match
from matches.services import game_result_correct, game_result_enter, match_reset, match_walkover
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of, players_of
from tournaments.models import Tournament
from tournaments.players import player_update
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db

# An eight-player knockout, best of 3: a (1, 0) and b (1, 1) feed next (2, 0); c (1, 2)
# feeds other (2, 1).
NAMES = ("a", "b", "c", "next", "other")


def _matches(setup: Setup) -> dict[str, Match]:
    t = setup.tournament
    at = {"a": (1, 0), "b": (1, 1), "c": (1, 2), "next": (2, 0), "other": (2, 1)}
    return {name: match_of(t, *where) for name, where in at.items()}


def _urls(setup: Setup) -> dict[str, str]:
    pk = setup.tournament.pk
    urls = {
        "tournament page": reverse("web:tournament_detail", args=[pk]),
        "bracket": reverse("web:tournament_bracket", args=[pk]),
        "api bracket": f"/api/tournaments/{pk}/bracket/",
    }
    for name, match in _matches(setup).items():
        urls[f"{name} live"] = reverse("web:match_live", args=[match.pk])
        urls[f"{name} page"] = reverse("web:match_detail", args=[match.pk])
        urls[f"{name} api"] = f"/api/matches/{match.pk}/"
    return urls


def _tags(client: Client, urls: dict[str, str]) -> dict[str, str]:
    tags = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        tags[name] = response["ETag"]
    return tags


def _parts(*names: str) -> set[str]:
    return {f"{n} {kind}" for n in names for kind in ("live", "page", "api")}


TOURNAMENT = {"tournament page", "bracket", "api bracket"}
# A reader's browser: the pages ignore htmx's header, the match's live part answers only it.
POLLING = {"HX-Request": "true"}


def _win(match: Match, by: Any, games: int = 2) -> Game:
    last = None
    for number in range(1, games + 1):
        last = game_result_enter(
            match=match,
            number=number,
            result=won("W", "jan"),
            by=by,
            starter="W" if number == 1 else None,
        )
    assert last is not None
    return last


def _entry(s: Setup, m: dict[str, Match]) -> set[str]:
    game_result_enter(match=m["a"], number=1, result=won("W", "jan"), by=s.referee, starter="W")
    return _parts("a") | TOURNAMENT


def _decided(s: Setup, m: dict[str, Match]) -> set[str]:
    _win(m["a"], s.referee)  # its winner goes on to next
    return _parts("a", "next") | TOURNAMENT


def _correction_that_turns_the_match(s: Setup, m: dict[str, Match]) -> set[str]:
    game = _win(m["a"], s.referee)
    before = _tags(Client(headers=POLLING), _urls(s))
    game_result_correct(
        game=game, result=won("B", "jan"), by=s.referee, expected_version=1, note="typo"
    )
    after = _tags(Client(headers=POLLING), _urls(s))
    # Undecided again (1–1): its winner is taken out of the next round.
    assert {n for n in before if before[n] != after[n]} == _parts("a", "next") | TOURNAMENT
    return _parts("a", "next") | TOURNAMENT


def _walkover(s: Setup, m: dict[str, Match]) -> set[str]:
    match_walkover(match=m["c"], winner=players_of(m["c"])[0], by=s.organiser, reason="no show")
    return _parts("c", "other") | TOURNAMENT


def _reset(s: Setup, m: dict[str, Match]) -> set[str]:
    _win(m["b"], s.referee)
    return _parts("b", "next") | TOURNAMENT


def _reset_after(s: Setup, m: dict[str, Match]) -> None:
    match_reset(match=match_of(s.tournament, 1, 1), by=s.organiser, reason="wrong players")


def _ratings(s: Setup, m: dict[str, Match]) -> set[str]:
    matches_touch(match_ids=[m["b"].pk])  # what the ratings do when a match is rated
    return _parts("b") | TOURNAMENT


def _whole(s: Setup, m: dict[str, Match]) -> set[str]:
    player = players_of(m["a"])[0]
    player_update(player=player, by=s.organiser, name="Nytt Namn")
    return set(_urls(s))  # a name shows everywhere: every part moves


CHANGES: dict[str, Callable[[Setup, dict[str, Match]], set[str]]] = {
    "entry": _entry,
    "decided, the winner goes on": _decided,
    "correction": _correction_that_turns_the_match,
    "walkover": _walkover,
    "ratings": _ratings,
    "whole tournament": _whole,
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_moves_the_etags_of_what_shows_it_and_no_other(change: str) -> None:
    setup = drawn(8, lengths=[3, 3, 3])
    urls = _urls(setup)
    viewer = Client(headers=POLLING)
    before = _tags(viewer, urls)
    expected = CHANGES[change](setup, _matches(setup))
    for name, url in urls.items():
        response = viewer.get(url, headers={"If-None-Match": before[name]})
        if name in expected:
            # Never a stale 304: the part that shows the change is sent again.
            assert response.status_code == 200, name
            assert response["ETag"] != before[name], name
        else:
            assert response.status_code == 304, name


def test_the_next_round_shows_the_winner_once_it_is_sent_again(client: Client) -> None:
    setup = drawn(8, lengths=[3, 3, 3])
    m = _matches(setup)
    url = f"/api/matches/{m['next'].pk}/"
    first = client.get(url)
    assert first.json()["match"]["player1"] is None
    _win(m["a"], setup.referee)
    again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200
    assert again.json()["match"]["player1"]["id"] == players_of(m["a"])[0].pk


def test_a_reset_moves_the_match_and_the_round_it_fed() -> None:
    setup = drawn(8, lengths=[3, 3, 3])
    _reset(setup, _matches(setup))
    urls = _urls(setup)
    viewer = Client(headers=POLLING)
    before = _tags(viewer, urls)
    _reset_after(setup, _matches(setup))
    for name, url in urls.items():
        status = viewer.get(url, headers={"If-None-Match": before[name]}).status_code
        assert status == (200 if name in _parts("b", "next") | TOURNAMENT else 304), name


def test_publishing_a_swiss_round_moves_its_matches() -> None:
    from matches.swiss_progression import swiss_round_pair, swiss_round_publish

    organiser = OrganiserFactory.create()
    tournament = tournament_create(
        by=organiser, name="Schweizer", start_date=datetime.date(2026, 11, 25), format="swiss"
    )
    for i in range(4):
        EntryFactory.create(tournament=tournament, player=PlayerFactory.create(name=f"S{i}"))
    tournament_draw(tournament=tournament, by=organiser, draw_seed=3)
    tournament.refresh_from_db()
    rnd = swiss_round_pair(tournament=tournament, by=organiser)
    match = Match.objects.filter(round=rnd, player2__isnull=False).first()
    assert match is not None
    staff = Client(headers=POLLING)
    staff.force_login(organiser)
    url = reverse("web:match_live", args=[match.pk])
    before = staff.get(url)
    assert before.status_code == 200
    swiss_round_publish(round=rnd, by=organiser)
    after = staff.get(url, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    # Now public: an anonymous viewer sees it too, and polls it like any other.
    anonymous = Client(headers=POLLING).get(url)
    assert anonymous.status_code == 200
    again = Client(headers=POLLING).get(url, headers={"If-None-Match": anonymous["ETag"]})
    assert again.status_code == 304


def test_after_an_entry_only_its_round_is_rendered_again(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = drawn(8, lengths=[3, 3, 3], third_place=True)
    url = reverse("web:tournament_bracket", args=[setup.tournament.pk])
    asked: list[list[int]] = []
    real = round_selectors.bracket_columns

    def spy(**kwargs: Any) -> round_selectors.Bracket:
        asked.append([r.number for r in kwargs["rounds"]])
        return real(**kwargs)

    monkeypatch.setattr(round_selectors, "bracket_columns", spy)
    client.get(url)
    assert asked == [[1, 2, 3]]  # cold: every column, in one query
    m = _matches(setup)
    game_result_enter(match=m["a"], number=1, result=won("W", "jan"), by=setup.referee,
                      starter="W")  # fmt: skip
    client.get(url)
    assert asked[1:] == [[1]]
    _win(m["c"], setup.referee)  # decided: its winner goes on to round 2
    client.get(url)
    assert asked[2:] == [[1, 2]]


def test_the_bracket_put_together_from_cached_columns_is_the_bracket(client: Client) -> None:
    setup = drawn(8, lengths=[3, 3, 3], third_place=True)
    url = reverse("web:tournament_bracket", args=[setup.tournament.pk])
    client.get(url)
    m = _matches(setup)
    _win(m["a"], setup.referee)
    _win(m["b"], setup.referee)
    pieced = client.get(url).content.decode()
    cache.clear()
    fresh = client.get(url).content.decode()
    assert pieced == fresh
    winner = Match.objects.get(pk=m["a"].pk).winner_id
    assert pieced.count(f'data-player="{winner}"') == 2  # round 1, and round 2


def test_a_change_of_one_tournament_leaves_another_ones_match_alone() -> None:
    one, two = drawn(4, lengths=[3, 3]), drawn(4, lengths=[3, 3])
    url = reverse("web:match_live", args=[match_of(two.tournament, 1, 0).pk])
    tag = Client(headers=POLLING).get(url)["ETag"]
    game_result_enter(
        match=match_of(one.tournament, 1, 0), number=1, result=won("W", "jan"),
        by=one.referee, starter="W",
    )  # fmt: skip
    assert Client(headers=POLLING).get(url, headers={"If-None-Match": tag}).status_code == 304
    assert Tournament.objects.get(pk=two.tournament.pk).version == two.tournament.version


def test_the_players_list_follows_names_and_ratings_not_results(client: Client) -> None:
    from clubs.models import PlayerRating, RatingBook

    setup = drawn(4, lengths=[3, 3])
    client.cookies["django_language"] = "en"
    url = reverse("web:tournament_detail", args=[setup.tournament.pk])
    m = match_of(setup.tournament, 1, 0)
    player = players_of(m)[0]
    client.get(url)
    player_update(player=player, by=setup.organiser, name="Ny Spelare")
    assert "Ny Spelare" in client.get(url).content.decode()
    # A rating that changed shows once the page is built again (any change of the page),
    # though no name or entry changed: the list is keyed by the ratings' version too.
    PlayerRating.objects.create(game="brade", player=player, rating=1612, experience=1, matches=1)
    RatingBook.objects.update_or_create(game="brade", defaults={"version": 99})
    matches_touch(match_ids=[m.pk])
    page = client.get(url).content.decode()
    assert 'data-label="Rating">1612' in page


def test_an_anonymous_match_page_comes_from_the_cache_until_its_match_changes(
    django_assert_max_num_queries: Any,
) -> None:
    setup = drawn(4, lengths=[3, 3])
    m = match_of(setup.tournament, 1, 0)
    url = reverse("web:match_detail", args=[m.pk])
    first = Client()
    first.cookies["django_language"] = "en"
    before = first.get(url).content.decode()
    assert "No games played yet." in before and players_of(m)[0].name in before
    other = Client()
    other.cookies["django_language"] = "en"
    with django_assert_max_num_queries(1):  # the match's stamp; the page from the cache
        assert other.get(url).status_code == 200
    game_result_enter(match=m, number=1, result=won("W", "jan"), by=setup.referee,
                      starter="W")  # fmt: skip
    after = other.get(url).content.decode()
    assert "No games played yet." not in after and players_of(m)[0].name in after
