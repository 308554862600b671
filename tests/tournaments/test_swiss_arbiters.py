"""The Swiss as arbiters expect it, through the services: publishing a round moves nobody
in the standings; a forfeit is no meeting and bars the bye; the float history is stored
and read; pairing numbers are fixed at the start; half-point byes on request; a paired
round taken back and paired again before it is published."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from matches.models import (
    EntryEvent,
    FloatDirection,
    HalfPointBye,
    Match,
    MatchEvent,
    MatchState,
    RoundEvent,
    SwissFloat,
)
from matches.services import game_result_enter, match_walkover
from matches.swiss_byes import half_point_bye_ask, half_point_bye_cancel, half_point_bye_rules_set
from matches.swiss_progression import (
    entry_presence_set,
    history_before,
    swiss_pairing_swap,
    swiss_round_pair,
    swiss_round_publish,
)
from matches.swiss_standings import swiss_standings
from matches.swiss_unpair import swiss_round_repair, swiss_round_unpair
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.test_swiss import (
    current,
    finish_round,
    pairs_of,
    play_round,
    swiss,
    win_in_games,
)
from tournaments.models import Entry, Player, Tournament

pytestmark = pytest.mark.django_db


def table_of(t: Tournament) -> list[tuple[int, list[Decimal | None]]]:
    return [(line.player.pk, line.values) for line in swiss_standings(tournament=t).lines]


# --- the standings count finished rounds only ----------------------------------------


def test_publishing_a_round_and_its_first_results_move_nobody_in_the_standings() -> None:
    t, organiser, _p = swiss(6, swiss_rounds=3, tiebreaks=["buchholz", "sonneborn_berger"])
    play_round(t, organiser, games=True)
    after_one = table_of(t)
    assert swiss_standings(tournament=t).finished_rounds == 1
    rnd = swiss_round_pair(tournament=t, by=organiser)
    assert table_of(t) == after_one
    swiss_round_publish(round=rnd, by=organiser)
    assert table_of(t) == after_one, "a published round without results is no round missed"
    first = current(t, 2)[0]
    win_in_games(first, first.player2_id or 0, organiser)
    assert table_of(t) == after_one, "a round half played does not count yet"
    finish_round(t, 2, organiser, games=True)
    table = swiss_standings(tournament=t)
    assert table.finished_rounds == 2 and table.published_rounds == 2
    assert sum(line.played for line in table.lines) == 12
    assert table_of(t) != after_one


# --- forfeits -------------------------------------------------------------------------


def test_a_forfeit_is_no_meeting_and_its_winner_counts_as_having_had_the_bye() -> None:
    t, organiser, p = swiss(4, swiss_rounds=3)
    rnd = swiss_round_pair(tournament=t, by=organiser)  # P1–P3, P2–P4
    swiss_round_publish(round=rnd, by=organiser)
    forfeit, played = current(t, 1)
    assert {forfeit.player1_id, forfeit.player2_id} == {p[0].pk, p[2].pk}
    match_walkover(match=forfeit, winner=p[0], by=organiser)
    # P2–P4: a game played, then P4 leaves: a walkover, yet they have met.
    game_result_enter(match=played, number=1, result=won("W", "hemspel"), by=organiser, starter="W")
    played.refresh_from_db()
    assert played.player1 is not None
    match_walkover(match=played, winner=played.player1, by=organiser)
    history = history_before(t, 2)
    assert p[0].pk in history.had_bye and p[1].pk not in history.had_bye
    assert p[2].pk not in history.opponents.get(p[0].pk, set())
    assert p[3].pk in history.opponents[p[1].pk]
    assert history.score[p[0].pk] == history.score[p[1].pk] == 1
    # In round 2, P1 meets P3 again: no rematch, so a swap to it warns of nothing.
    rnd2 = swiss_round_pair(tournament=t, by=organiser)
    assert pairs_of(t, 2) == {frozenset((p[0].pk, p[1].pk)), frozenset((p[2].pk, p[3].pk))}
    warnings = swiss_pairing_swap(round=rnd2, first=p[1], second=p[2], by=organiser, confirm=True)
    assert warnings == ["P2 and P4 have already met"]
    assert pairs_of(t, 2) == {frozenset((p[0].pk, p[2].pk)), frozenset((p[1].pk, p[3].pk))}


def test_the_forfeit_winner_does_not_get_the_bye() -> None:
    t, organiser, p = swiss(5, swiss_rounds=3)
    rnd = swiss_round_pair(tournament=t, by=organiser)  # P1–P3, P2–P4, bye P5
    swiss_round_publish(round=rnd, by=organiser)
    by_pair = {frozenset((m.player1_id, m.player2_id)): m for m in current(t, 1)}
    match_walkover(match=by_pair[frozenset((p[1].pk, p[3].pk))], winner=p[3], by=organiser)
    win_in_games(by_pair[frozenset((p[0].pk, p[2].pk))], p[0].pk, organiser)
    # Round 2 among P1 (1), P4 (1, forfeit win), P5 (1, bye): P2 and P3 checked out.
    for gone in (p[1], p[2]):
        entry_presence_set(
            entry=Entry.objects.get(tournament=t, player=gone), present=False, by=organiser
        )
    swiss_round_pair(tournament=t, by=organiser)
    bye = Match.objects.get(tournament=t, round__number=2, player2__isnull=True)
    # P5 had the bye and P4 won by forfeit: P1 is the only one who may get it (P4, the
    # lowest without a pairing-allocated bye, got it before forfeits counted).
    assert bye.player1_id == p[0].pk
    assert pairs_of(t, 2) == {frozenset((p[0].pk, None)), frozenset((p[3].pk, p[4].pk))}


# --- the float history ----------------------------------------------------------------


def test_the_floats_are_stored_and_read_for_the_next_round() -> None:
    t, organiser, _p = swiss(5, swiss_rounds=3)
    play_round(t, organiser, games=True)  # P1–P3, P2–P4 (first named win), bye P5
    rnd = swiss_round_pair(tournament=t, by=organiser)
    floats = {(f.player_id, f.direction) for f in SwissFloat.objects.filter(round=rnd)}
    down = {pid for pid, d in floats if d == FloatDirection.DOWN}
    up = {pid for pid, d in floats if d == FloatDirection.UP}
    pairs = [(m.player1_id, m.player2_id) for m in current(t, 2)]
    # Three on 1 point (P1, P2, P5): one of them floats down; the bye is a float down too.
    bye = next(a for a, b in pairs if b is None)
    assert bye in down
    assert len(up) == 1 and len(down) == 2
    swiss_round_publish(round=rnd, by=organiser)
    finish_round(t, 2, organiser, games=True)
    assert history_before(t, 3).floated_down == frozenset(down)


def test_a_swap_stores_the_floats_again() -> None:
    t, organiser, p = swiss(4, swiss_rounds=3)
    play_round(t, organiser, games=True)  # P1, P2 on 1; P3, P4 on 0
    rnd = swiss_round_pair(tournament=t, by=organiser)  # P1–P2, P3–P4: no float
    assert not SwissFloat.objects.filter(round=rnd).exists()
    swiss_pairing_swap(round=rnd, first=p[1], second=p[2], by=organiser, confirm=True)
    stored = {(f.player_id, f.direction) for f in SwissFloat.objects.filter(round=rnd)}
    assert stored == {
        (p[0].pk, "down"),
        (p[2].pk, "up"),
        (p[1].pk, "down"),
        (p[3].pk, "up"),
    }


# --- pairing numbers ------------------------------------------------------------------


def test_pairing_numbers_are_fixed_at_the_start_by_the_rating_then() -> None:
    t, organiser, p = swiss(4, swiss_rounds=3)
    numbers = dict(Entry.objects.filter(tournament=t).values_list("player_id", "pairing_number"))
    assert [numbers[x.pk] for x in p] == [1, 2, 3, 4]
    # P4's rating jumps after the start (another tournament's result): nobody moves.
    Player.objects.filter(pk=p[3].pk).update(rating=2500)
    swiss_round_pair(tournament=t, by=organiser)
    assert pairs_of(t, 1) == {frozenset((p[0].pk, p[2].pk)), frozenset((p[1].pk, p[3].pk))}


# --- half-point byes --------------------------------------------------------------------


def test_half_point_byes_asked_for_within_the_rules() -> None:
    t, organiser, p = swiss(5, swiss_rounds=3)
    entry = Entry.objects.get(tournament=t, player=p[0])
    with pytest.raises(ValidationError, match="grants no half-point byes"):
        half_point_bye_ask(entry=entry, round_number=1, by=organiser)
    half_point_bye_rules_set(tournament=t, allowed=1, until=2, by=organiser)
    user = UserFactory.create()
    Player.objects.filter(pk=p[0].pk).update(user=user)
    stranger = UserFactory.create()
    with pytest.raises(PermissionDeniedError):
        half_point_bye_ask(entry=entry, round_number=1, by=stranger)
    with pytest.raises(PermissionDeniedError):
        half_point_bye_rules_set(tournament=t, allowed=2, until=None, by=user)
    with pytest.raises(ValidationError, match="up to round 2"):
        half_point_bye_ask(entry=entry, round_number=3, by=user)
    with pytest.raises(ValidationError, match="no round 4"):
        half_point_bye_ask(entry=entry, round_number=4, by=organiser)
    bye = half_point_bye_ask(entry=entry, round_number=1, by=user)
    with pytest.raises(ConflictError, match="asked for a half-point bye in round 1 already"):
        half_point_bye_ask(entry=entry, round_number=1, by=user)
    with pytest.raises(ConflictError, match="the 1 half-point bye this Swiss grants"):
        half_point_bye_ask(entry=entry, round_number=2, by=user)
    kinds = list(EntryEvent.objects.filter(entry=entry).values_list("kind", "by", "data"))
    assert kinds == [("half_bye_asked", user.pk, {"round": 1})]
    half_point_bye_cancel(bye=bye, by=organiser)
    assert not HalfPointBye.objects.exists()
    half_point_bye_ask(entry=entry, round_number=2, by=organiser)


def test_a_half_point_bye_sits_the_round_out_and_scores_half_once_it_is_over() -> None:
    t, organiser, p = swiss(5, swiss_rounds=3)
    half_point_bye_rules_set(tournament=t, allowed=1, until=None, by=organiser)
    entry = Entry.objects.get(tournament=t, player=p[4])
    bye = half_point_bye_ask(entry=entry, round_number=1, by=organiser)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    paired = {pid for pair in pairs_of(t, 1) for pid in pair}
    assert p[4].pk not in paired and None not in paired, "four left: two matches, no bye"
    with pytest.raises(ConflictError, match="paired already"):
        half_point_bye_cancel(bye=bye, by=organiser)
    view = swiss_standings(tournament=t, staff=True).round_views[0]
    assert [(h.player.pk, h.score) for h in view.half_byes] == [(p[4].pk, 0)]
    swiss_round_publish(round=rnd, by=organiser)
    line = next(x for x in swiss_standings(tournament=t).lines if x.player.pk == p[4].pk)
    assert line.values[0] == 0, "not before the round is over"
    finish_round(t, 1, organiser, games=True)
    table = swiss_standings(tournament=t)
    line = next(x for x in table.lines if x.player.pk == p[4].pk)
    assert line.values[0] == Decimal("0.5") and line.played == 0
    assert history_before(t, 2).score[p[4].pk] == Decimal("0.5")
    swiss_round_pair(tournament=t, by=organiser)
    scores: dict[int | None, Decimal | None] = {}
    for pr in swiss_standings(tournament=t, staff=True).round_views[1].pairings:
        scores[pr.match.player1_id] = pr.score1
        scores[pr.match.player2_id] = pr.score2
    assert scores[p[4].pk] == Decimal("0.5")


# --- un-pair and re-pair ----------------------------------------------------------------


def test_unpair_empties_the_round_and_keeps_the_pairing_in_the_audit() -> None:
    t, organiser, p = swiss(6, swiss_rounds=3)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    before = sorted((m.player1_id, m.player2_id) for m in current(t, 1))
    with pytest.raises(PermissionDeniedError):
        swiss_round_unpair(round=rnd, by=UserFactory.create())
    swiss_round_unpair(round=rnd, by=organiser)
    assert current(t, 1) == [] and not MatchEvent.objects.filter(match__tournament=t).exists()
    event = RoundEvent.objects.get(round=rnd)
    assert event.kind == "unpaired" and event.by == organiser
    assert sorted(tuple(x) for x in event.data["pairs"]) == before
    with pytest.raises(ConflictError, match="not paired yet"):
        swiss_round_unpair(round=rnd, by=organiser)
    # A late arrival's check-out, and the round is paired anew without them.
    entry_presence_set(
        entry=Entry.objects.get(tournament=t, player=p[5]), present=False, by=organiser
    )
    again = swiss_round_pair(tournament=t, by=organiser)
    assert again.pk == rnd.pk
    assert p[5].pk not in {pid for pair in pairs_of(t, 1) for pid in pair}


def test_repair_pairs_again_from_who_is_there_and_not_once_published() -> None:
    t, organiser, p = swiss(6, swiss_rounds=3)
    half_point_bye_rules_set(tournament=t, allowed=1, until=None, by=organiser)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    first = pairs_of(t, 1)
    swiss_round_repair(round=rnd, by=organiser)
    assert pairs_of(t, 1) == first, "nothing changed: the same pairing"
    swiss_round_unpair(round=rnd, by=organiser)
    half_point_bye_ask(
        entry=Entry.objects.get(tournament=t, player=p[0]), round_number=1, by=organiser
    )
    swiss_round_pair(tournament=t, by=organiser)
    without = pairs_of(t, 1)
    assert p[0].pk not in {pid for pair in without for pid in pair}
    assert frozenset((p[5].pk, None)) in without, "five left: the bye to the lowest"
    kinds = list(RoundEvent.objects.filter(round=rnd).values_list("kind", flat=True))
    assert kinds == ["repaired", "unpaired"]
    swiss_round_publish(round=rnd, by=organiser)
    with pytest.raises(ConflictError, match="published"):
        swiss_round_repair(round=rnd, by=organiser)
    assert {m.state for m in current(t, 1)} <= {MatchState.READY, MatchState.BYE}
