"""The home ("Mitt"): each role's part — a player's matches, reports to confirm, disputes
and results; a referee's matches waiting by round, disputes and records; an organiser's
round progress and what needs them — each item linking to where it is handled; the
referee's "next match waiting"; visibility of unpublished Swiss rounds; a bounded number
of queries; Swedish by default."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import GameRecordSubmission, Match, MatchState, RecordState
from matches.reports import game_report_dispute, game_report_submit
from matches.results import game_result_enter
from matches.swiss_progression import swiss_round_pair, swiss_round_publish
from matches.walkovers import match_walkover
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of, players_of
from tournaments.models import Round
from tournaments.stage_draws import tournament_draw

pytestmark = pytest.mark.django_db

HOME = "/home/"


def as_user(user: Any, language: str = "en") -> Client:
    client = Client()
    client.cookies["django_language"] = language
    client.force_login(user)
    return client


def linked(setup: Setup, match: Match) -> tuple[Any, Any]:
    one, two = players_of(match)
    one.user = UserFactory.create(username=f"u{one.pk}")
    one.save()
    two.user = UserFactory.create(username=f"u{two.pk}")
    two.save()
    return one.user, two.user


def win(match: Match, by: Any, games: int = 2, side: str = "W") -> None:
    for n in range(1, games + 1):
        game_result_enter(match=match, number=n, result=won(side, "jan"), by=by)


def test_the_home_needs_a_sign_in_and_the_header_links_it() -> None:
    response = Client().get(HOME)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    page = as_user(UserFactory.create()).get(reverse("web:tournament_list")).content.decode()
    assert f'href="{HOME}"' in page
    empty = as_user(UserFactory.create()).get(HOME).content.decode()
    assert "Nothing waits for you" in empty and 'id="player"' not in empty


def test_a_player_sees_the_next_match_and_confirms_a_report_from_the_home() -> None:
    setup = drawn(4, lengths=[3, 3], results_by="players")
    match = match_of(setup.tournament, 1, 0)
    anna, bertil = linked(setup, match)
    _, two = players_of(match)
    page = as_user(anna).get(HOME).content.decode()
    assert 'id="player"' in page and f"against {two.name}" in page and "Semifinal" in page
    assert "best of 3" in page
    assert match.board is not None and f"Table {match.board}" in page
    assert 'id="referee"' not in page and 'id="organiser"' not in page
    assert reverse("web:match_report", args=[match.pk]) in page

    report = game_report_submit(match=match, number=1, result=won("W", "jan"), by=anna)
    # The reporter is not asked to confirm their own report; the opponent is.
    assert (
        reverse("web:report_confirm", args=[report.pk])
        not in as_user(anna).get(HOME).content.decode()
    )
    theirs = as_user(bertil).get(HOME).content.decode()
    assert reverse("web:report_confirm", args=[report.pk]) in theirs
    assert "Waiting for your confirmation" in theirs
    done = as_user(bertil).post(reverse("web:report_confirm", args=[report.pk]), follow=True)
    assert "Confirmed." in done.content.decode()
    assert (
        reverse("web:report_confirm", args=[report.pk])
        not in as_user(bertil).get(HOME).content.decode()
    )

    second = game_report_submit(match=match, number=2, result=won("W", "jan"), by=anna)
    game_report_dispute(report=second, by=bertil, note="It was black")
    for user in (anna, bertil):
        page = as_user(user).get(HOME).content.decode()
        assert "Your disputes" in page and "the referees decide" in page
        assert reverse("web:report_detail", args=[second.pk]) in page

    # The referee decides the dispute by entering game 2 (2–0: the match is decided).
    game_result_enter(match=match, number=2, result=won("W", "jan"), by=setup.referee)
    page = as_user(anna).get(HOME).content.decode()
    assert "decided by a referee" in page and "Your last results" in page
    # The settled dispute shows what the referee decided, not only what was claimed.
    winner = match.player1.name  # type: ignore[union-attr]
    assert f"Decided: {winner} wins by jan." in page
    assert "won" in page and f"against {two.name}" in page
    nxt = Match.objects.get(tournament=setup.tournament, round__number=2)
    assert reverse("web:match_detail", args=[nxt.pk]) in page  # the final, opponent unknown
    assert "opponent not known yet" in page


def test_a_players_rating_change_is_shown_with_the_result(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from clubs.models import RatingEntry

    setup = drawn(2, lengths=[3])
    match = match_of(setup.tournament, 1, 0)
    anna, _ = linked(setup, match)
    with django_capture_on_commit_callbacks(execute=True):
        win(match, setup.referee)
    entry = RatingEntry.objects.get(match=match, player__user=anna)
    page = as_user(anna).get(HOME).content.decode()
    assert f"+{entry.change:.2f}" in page


def test_a_referee_sees_waiting_matches_disputes_and_records_and_the_next_match() -> None:
    setup = drawn(8, lengths=[3, 3, 3], results_by="players")
    first, second = match_of(setup.tournament, 1, 0), match_of(setup.tournament, 1, 1)
    anna, bertil = linked(setup, first)
    ref = as_user(setup.referee)
    page = ref.get(HOME).content.decode()
    assert 'id="referee"' in page and "Waiting for a result" in page and "Quarterfinal" in page
    for m in Match.objects.filter(tournament=setup.tournament, round__number=1):
        assert reverse("web:match_enter", args=[m.pk]) in page
    assert 'id="organiser"' not in page

    report = game_report_submit(match=first, number=1, result=won("W", "jan"), by=anna)
    game_report_dispute(report=report, by=bertil)
    second.flag = "The record disagrees with game 1."
    second.save()
    third = match_of(setup.tournament, 1, 2)
    rejected = GameRecordSubmission.objects.create(
        match=third, text="nonsense", state=RecordState.INVALID
    )
    page = ref.get(HOME).content.decode()
    assert "Disputes to decide" in page and "Game records to look at" in page
    assert "flagged" in page and reverse("web:record_detail", args=[rejected.pk]) in page
    # A later upload supersedes the rejected one.
    GameRecordSubmission.objects.create(match=third, text="again", state=RecordState.PENDING)
    assert reverse("web:record_detail", args=[rejected.pk]) not in ref.get(HOME).content.decode()

    # After deciding a match the entry page offers the next match waiting.
    win(second, setup.referee)
    entry = ref.get(reverse("web:match_enter", args=[second.pk])).content.decode()
    assert "Next match waiting" in entry
    assert reverse("web:match_enter", args=[first.pk]) in entry
    open_entry = ref.get(reverse("web:match_enter", args=[third.pk])).content.decode()
    assert "Next match waiting" not in open_entry  # only once the match is over


def test_an_organiser_sees_round_progress_late_matches_and_what_needs_them() -> None:
    setup = drawn(8, lengths=[3, 3, 3])
    org = as_user(setup.organiser)
    matches = list(Match.objects.filter(tournament=setup.tournament, round__number=1))
    win(matches[0], setup.organiser)
    win(matches[1], setup.organiser)
    late = '<span class="tag warn">late</span>'
    assert late not in org.get(HOME).content.decode()  # half the round is still playing
    assert matches[2].player1 is not None
    match_walkover(match=matches[2], winner=matches[2].player1, by=setup.organiser)
    page = org.get(HOME).content.decode()
    assert (
        'id="organiser"' in page and "Quarterfinal: 2 of 4 decided, 1 to play, 1 walkover" in page
    )
    assert "late" in page and reverse("web:match_enter", args=[matches[3].pk]) in page


def _swiss(organiser: Any, n: int = 4, **fields: Any) -> Any:
    from tests.factories import TournamentFactory

    t = TournamentFactory.create(organisers=[organiser], format="swiss", swiss_rounds=2, **fields)
    players = [PlayerFactory.create(name=f"S{i}") for i in range(n)]
    for p in players:
        EntryFactory.create(tournament=t, player=p)
    tournament_draw(tournament=t, by=organiser, lengths=[3, 3], draw_seed=7)
    t.refresh_from_db()
    return t, players


def test_a_swiss_asks_to_pair_and_publish_and_hides_unpublished_pairings() -> None:
    organiser = OrganiserFactory.create()
    t, players = _swiss(organiser)
    org = as_user(organiser)
    manage = reverse("web:tournament_manage", args=[t.pk])
    from tournaments.models import Entry

    Entry.objects.filter(tournament=t, player=players[3]).update(absent=True)
    first = org.get(HOME).content.decode()
    assert "Pair round 1" in first and "1 checked out" in first
    assert f"{manage}#swiss-presence" in first
    swiss_round_pair(tournament=t, by=organiser)
    page = org.get(HOME).content.decode()
    assert "Check and publish round 1" in page and f"{manage}#swiss" in page
    user = UserFactory.create()
    players[0].user = user
    players[0].save()
    assert "against" not in as_user(user).get(HOME).content.decode()
    swiss_round_publish(round=Round.objects.get(tournament=t, number=1), by=organiser)
    assert "against" in as_user(user).get(HOME).content.decode()
    for m in Match.objects.filter(tournament=t, state=MatchState.READY):
        win(m, organiser)
    assert "Pair round 2" in org.get(HOME).content.decode()


def test_groups_played_out_ask_to_draw_the_knockout() -> None:
    organiser = OrganiserFactory.create()
    from tests.factories import TournamentFactory

    t = TournamentFactory.create(
        organisers=[organiser], format="round_robin", groups=1, group_advance=2
    )
    for i in range(3):
        EntryFactory.create(tournament=t, player=PlayerFactory.create(name=f"G{i}"))
    tournament_draw(tournament=t, by=organiser, lengths=[3, 3, 3], draw_seed=3)
    org = as_user(organiser)
    assert "Draw the knockout" not in org.get(HOME).content.decode()
    for m in Match.objects.filter(tournament=t, state=MatchState.READY):
        win(m, organiser)
    page = org.get(HOME).content.decode()
    assert "Draw the knockout" in page
    assert f"{reverse('web:tournament_manage', args=[t.pk])}#group-knockout" in page


def _busy(person: Any, *, plays: bool) -> None:
    """One more running tournament that ``person`` organises (and so referees), with a
    dispute, a decided match and a flagged match; ``plays``: ``person`` plays in it too
    (a user is linked to one player, so only in the first)."""
    setup = drawn(8, lengths=[3, 3, 3], results_by="players")
    setup.tournament.organisers.add(person)
    m = match_of(setup.tournament, 1, 0)
    one, two = players_of(m)
    one.user = person if plays else UserFactory.create()
    one.save()
    two.user = UserFactory.create()
    two.save()
    report = game_report_submit(match=m, number=1, result=won("W", "jan"), by=two.user)
    game_report_dispute(report=report, by=one.user)
    win(match_of(setup.tournament, 1, 1), person)
    Match.objects.filter(pk=match_of(setup.tournament, 1, 2).pk).update(flag="disagrees")


def test_the_home_reads_in_a_bounded_number_of_queries(
    django_assert_max_num_queries: Any,
) -> None:
    person = OrganiserFactory.create()
    _busy(person, plays=True)
    client = as_user(person)
    with django_assert_max_num_queries(30) as few:
        page = client.get(HOME).content.decode()
    assert 'id="player"' in page and 'id="referee"' in page and 'id="organiser"' in page
    for _ in range(3):
        _busy(person, plays=False)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(HOME)


def test_the_home_in_swedish() -> None:
    setup = drawn(4, lengths=[3, 3], results_by="players")
    match = match_of(setup.tournament, 1, 0)
    anna, bertil = linked(setup, match)
    game_report_submit(match=match, number=1, result=won("W", "jan"), by=anna)
    page = as_user(bertil, "sv").get(HOME).content.decode()
    assert "Mitt" in page and "Väntar på din bekräftelse" in page and "Bekräfta" in page
    ref = as_user(setup.referee, "sv").get(HOME).content.decode()
    assert "Som domare" in ref and "Väntar på resultat" in ref
    org = as_user(setup.organiser, "sv").get(HOME).content.decode()
    assert "Som arrangör" in org and "Semifinal: 0 av 2 avgjorda" in org


def test_every_part_of_the_home_is_swedish_in_swedish() -> None:
    """A person who plays, referees and organises, with a dispute, a flagged match, a
    rejected record, late matches and a result: no English catalogue text on the page."""
    from tests.web.test_swedish_crawl import english_fragments, visible_text

    person = OrganiserFactory.create()
    _busy(person, plays=True)
    t = Match.objects.filter(tournament__organisers=person).first()
    assert t is not None
    tournament = t.tournament
    GameRecordSubmission.objects.create(
        match=match_of(tournament, 1, 3), text="x", state=RecordState.INVALID
    )
    win(match_of(tournament, 1, 2), person)
    win(match_of(tournament, 1, 3), person)  # three of four decided: the disputed one is late
    page = as_user(person, "sv").get(HOME).content.decode()
    for part in (
        'id="player"',
        'id="referee"',
        'id="organiser"',
        '<span class="tag warn">sen</span>',
        "underkänt",
        "Dina bestridanden",
    ):
        assert part in page, part
    manage = reverse("web:tournament_manage", args=[tournament.pk])
    assert f"{manage}#reports" in page and "1 bestridande" in page
    text = visible_text(page)
    assert {f for f in english_fragments() if f in text} == set()


def test_signing_in_without_a_page_to_return_to_lands_on_the_home() -> None:
    user = UserFactory.create(username="kerstin")
    user.set_password("pw")
    user.save()
    response = Client().post("/accounts/login/", {"username": "kerstin", "password": "pw"})
    assert response.status_code == 302 and response["Location"] == HOME


def test_a_settled_dispute_shows_the_referees_decision_not_the_claim() -> None:
    setup = drawn(2, lengths=[3], results_by="players")
    match = match_of(setup.tournament, 1, 0)
    anna, bertil = linked(setup, match)
    claim = game_report_submit(match=match, number=1, result=won("W", "jan"), by=anna)
    game_report_dispute(report=claim, by=bertil, note="It was black, a hemspel")
    game_result_enter(
        match=match, number=1, result=won("B", "hemspel"), starter="W", by=setup.referee
    )
    page = as_user(anna, "sv").get(HOME).content.decode()
    black = match.player2.name  # type: ignore[union-attr]
    assert f"Avgjort: {black} vinner med hemspel." in page
